//! `extract` and output safety (issue 27, item 4): the hostile archives of
//! `../shared/hostile` (see its README), and what is already on disk in an output folder
//! (symbolic links, stale temporary files of a killed run, a folder where a file goes).
//!
//! Each hostile case runs the binary under `ulimit -v 2000000` (2 GB of address space) and
//! must finish within 5 s ([`common::bounded`]): the budget is the point, not only the exit
//! code. Without `../shared` beside the workspace (or `sh` to set the limit) those cases print a
//! `SKIP:` line and pass. The other hostile cases are in `hostile.rs` and `view_server.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::{bounded, hostile, levelkit, ok};
use levelkit::formats::rez::Builder;

#[test]
fn overlapping_entries_are_refused_at_the_output_budget() {
    let Some(rez) = hostile("rez/rez_overlap_4g.rez") else {
        return;
    };
    let dir = common::tempdir();
    let rez = rez.to_str().unwrap();
    let Some(run) = bounded(dir.path(), &["extract", rez, "out"]) else {
        return;
    };
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("4294967296 bytes"), "{run:?}");
    assert!(run.stderr.contains("536870912"), "{run:?}");
    assert!(run.stderr.contains("1048576 distinct bytes"), "{run:?}");
    assert!(run.stderr.contains("nothing written"), "{run:?}");
    assert!(!dir.path().join("out").exists());
    // The same limit as `validate`, which reads the whole archive.
    let run = bounded(dir.path(), &["validate", rez]).unwrap();
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.out().contains("the limit is 536870912"), "{run:?}");
    // One entry of it is well within the budget.
    let run = bounded(dir.path(), &["ls", rez]).unwrap();
    ok(&run);
    let first = run.out().lines().next().unwrap().to_owned();
    let run = bounded(dir.path(), &["extract", rez, "one", &first]).unwrap();
    ok(&run);
    assert_eq!(
        fs::metadata(dir.path().join("one").join(&first))
            .unwrap()
            .len(),
        1 << 20
    );
}

#[test]
fn windows_device_names_are_renamed_with_a_warning() {
    let Some(rez) = hostile("rez-paths/win_reserved.rez") else {
        return;
    };
    let dir = common::tempdir();
    let Some(run) = bounded(dir.path(), &["extract", rez.to_str().unwrap(), "out"]) else {
        return;
    };
    ok(&run);
    assert_eq!(
        common::tree(&dir.path().join("out")),
        [
            "AUX_",
            "CON_.TXT",
            "NUL_.TXT",
            // The entry names end in a dot and a space, the file names do not: Windows
            // creates these as they are.
            "TRAILDOT..TXT",
            "TRAILSPACE .TXT",
        ]
    );
    for (name, as_written) in [
        ("CON.TXT", "CON_.TXT"),
        ("NUL.TXT", "NUL_.TXT"),
        ("AUX", "AUX_"),
    ] {
        assert!(
            run.stderr.contains(&format!(
                "warning: `{name}`: a device name on Windows; written as `{as_written}`"
            )),
            "{run:?}"
        );
    }
    assert_eq!(run.stderr.lines().count(), 3, "{run:?}");
}

/// An archive of `(path, data)` in `dir`, named `name`; `edit` changes bytes of the written
/// archive (to make names the builder refuses).
fn archive(dir: &Path, name: &str, files: &[(&str, &[u8])], edit: &[(&[u8], &[u8])]) {
    let mut b = Builder::new();
    for (path, data) in files {
        b.add(path, data.to_vec()).unwrap();
    }
    let mut bytes = b.finish().unwrap().write().unwrap();
    for (from, to) in edit {
        assert_eq!(from.len(), to.len());
        let at = bytes.windows(from.len()).rposition(|w| w == *from).unwrap();
        bytes[at..at + to.len()].copy_from_slice(to);
    }
    fs::write(dir.join(name), bytes).unwrap();
}

#[test]
fn names_windows_cannot_hold_are_renamed_or_refused_before_writing() {
    let dir = common::tempdir();
    // A folder named `LPT1` and a file `NAME.` (no type): both renamed, once each.
    archive(
        dir.path(),
        "A.REZ",
        &[("LPT1/A.TXT", b"a"), ("LPT1/B.TXT", b"b"), ("NAMEX", b"n")],
        &[(b"NAMEX\0", b"NAME.\0")],
    );
    let run = levelkit(dir.path(), &["extract", "A.REZ", "out"]);
    ok(&run);
    assert_eq!(
        common::tree(&dir.path().join("out")),
        ["LPT1_/A.TXT", "LPT1_/B.TXT", "NAME_"]
    );
    assert_eq!(
        run.stderr.matches("`LPT1`: a device name").count(),
        1,
        "{run:?}"
    );
    assert!(
        run.stderr
            .contains("`NAME.`: a name ending in a dot or a space is not kept on Windows"),
        "{run:?}"
    );
    // A renamed name that another file already has: a collision, and nothing is written.
    archive(
        dir.path(),
        "B.REZ",
        &[("CON.TXT", b"1"), ("CON_.TXT", b"2")],
        &[],
    );
    let run = levelkit(dir.path(), &["extract", "B.REZ", "out2"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("would both be written"), "{run:?}");
    assert!(!dir.path().join("out2").exists());
    // Characters Windows refuses in a name.
    archive(
        dir.path(),
        "C.REZ",
        &[("WHATX.TXT", b"?")],
        &[(b"WHATX", b"WHAT?")],
    );
    let run = levelkit(dir.path(), &["extract", "C.REZ", "out3"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.contains("`WHAT?.TXT` cannot be a file name"),
        "{run:?}"
    );
    assert!(!dir.path().join("out3").exists());
}

#[test]
fn a_file_and_a_folder_of_one_name_are_refused_before_writing() {
    let Some(rez) = hostile("rez-paths/file_vs_dir.rez") else {
        return;
    };
    let dir = common::tempdir();
    let Some(run) = bounded(dir.path(), &["extract", rez.to_str().unwrap(), "out"]) else {
        return;
    };
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .contains("`X.TXT` is a file, but `X.TXT/INNER.TXT` needs a folder of the same name"),
        "{run:?}"
    );
    assert!(!dir.path().join("out").exists(), "nothing written");
    // The same clash with different case, and with a folder already on disk.
    let dir = common::tempdir();
    archive(
        dir.path(),
        "A.REZ",
        &[("ZZZ/x.txt", b"1"), ("QQQ/X.TXT/IN", b"2")],
        &[(b"QQQ\0", b"zzz\0")],
    );
    let run = levelkit(dir.path(), &["extract", "A.REZ", "out"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.contains("needs a folder of the same name"),
        "{run:?}"
    );
    archive(dir.path(), "B.REZ", &[("D/F.TXT", b"1")], &[]);
    fs::create_dir_all(dir.path().join("out/D/F.TXT")).unwrap();
    let run = levelkit(dir.path(), &["extract", "--force", "B.REZ", "out"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("is a folder"), "{run:?}");
    fs::remove_dir_all(dir.path().join("out")).unwrap();
    fs::create_dir_all(dir.path().join("out")).unwrap();
    fs::write(dir.path().join("out/D"), b"a file").unwrap();
    let run = levelkit(dir.path(), &["extract", "--force", "B.REZ", "out"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("exists and is not a folder"), "{run:?}");
    assert_eq!(fs::read(dir.path().join("out/D")).unwrap(), b"a file");
}

#[test]
fn ls_escapes_control_characters_like_json() {
    let Some(rez) = hostile("rez-paths/ctrl_chars.rez") else {
        return;
    };
    let dir = common::tempdir();
    let rez = rez.to_str().unwrap();
    let Some(run) = bounded(dir.path(), &["ls", rez]) else {
        return;
    };
    ok(&run);
    assert_eq!(
        run.out(),
        "NEW\\nLINE.TXT\nTAB\\tX.TXT\nESC\\u001b[31mRED.TXT\n\u{ff}\u{fe}BIN.TXT\n"
    );
    let run = bounded(dir.path(), &["ls", "-l", rez]).unwrap();
    ok(&run);
    assert!(!run.stdout.contains(&0x1b), "{run:?}");
    assert_eq!(run.out().lines().count(), 4, "{run:?}");
    assert!(run.out().contains("  ESC\\u001b[31mRED.TXT\n"), "{run:?}");
    // --json escapes the same characters its own way, as before.
    let run = bounded(dir.path(), &["ls", "--json", rez]).unwrap();
    let paths: Vec<String> = run
        .json_lines()
        .iter()
        .map(|r| r["path"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(paths[2], "ESC\u{1b}[31mRED.TXT");
    // extract refuses the names, and its message escapes them too.
    let run = bounded(dir.path(), &["extract", rez, "out"]).unwrap();
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .contains("`NEW\\nLINE.TXT` cannot be a file name"),
        "{run:?}"
    );
    assert!(
        !run.stderr.contains('\n') || run.stderr.lines().count() == 1,
        "{run:?}"
    );
    assert!(!dir.path().join("out").exists());
}

#[cfg(unix)]
#[test]
fn links_inside_the_output_folder_are_not_followed_by_extract() {
    let dir = common::tempdir();
    archive(
        dir.path(),
        "A.REZ",
        &[("LEVEL1/TILES/001.PID", b"tile"), ("TOP.TXT", b"top")],
        &[],
    );
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::create_dir(dir.path().join("out")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("out/LEVEL1")).unwrap();
    for force in [false, true] {
        let mut args = vec!["extract", "A.REZ", "out"];
        if force {
            args.push("--force");
        }
        let run = levelkit(dir.path(), &args);
        assert_eq!(run.code, 1, "{run:?}");
        assert!(
            run.stderr
                .contains("out/LEVEL1: a symbolic link inside the output folder"),
            "{run:?}"
        );
        assert_eq!(
            fs::read_dir(&elsewhere).unwrap().count(),
            0,
            "nothing outside"
        );
        assert!(!dir.path().join("out/TOP.TXT").exists(), "nothing at all");
    }
    // A link in the place of a file is replaced with --force, its target untouched.
    fs::remove_file(dir.path().join("out/LEVEL1")).unwrap();
    fs::write(elsewhere.join("victim"), b"keep").unwrap();
    std::os::unix::fs::symlink(elsewhere.join("victim"), dir.path().join("out/TOP.TXT")).unwrap();
    let run = levelkit(dir.path(), &["extract", "A.REZ", "out"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("--force"), "{run:?}");
    let run = levelkit(dir.path(), &["extract", "--force", "A.REZ", "out"]);
    ok(&run);
    assert_eq!(fs::read(elsewhere.join("victim")).unwrap(), b"keep");
    assert_eq!(fs::read(dir.path().join("out/TOP.TXT")).unwrap(), b"top");
    assert!(!dir.path().join("out/TOP.TXT").is_symlink());
    // The output folder itself may be a link: the user named it.
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("linked")).unwrap();
    let run = levelkit(dir.path(), &["extract", "A.REZ", "linked"]);
    ok(&run);
    assert_eq!(
        fs::read(elsewhere.join("LEVEL1/TILES/001.PID")).unwrap(),
        b"tile"
    );
}

/// Batch `convert` writes through `files::write_output_with`; once batch mode confines its
/// outputs to `--out` (`files::confine_outputs(out_dir)` in `batch::run`, and
/// `files::create_output_dir` for its `create_dir_all` calls), a link inside `--out` stops it.
#[cfg(unix)]
#[test]
fn links_inside_the_output_folder_are_not_followed_by_batch_convert() {
    let dir = common::tempdir();
    let src = dir.path().join("in/sub");
    fs::create_dir_all(&src).unwrap();
    fs::copy(common::samples().join("gruntz-like.wwd"), src.join("a.wwd")).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::create_dir(dir.path().join("out")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("out/sub")).unwrap();
    let run = levelkit(
        dir.path(),
        &["convert", "--to", "json", "--out", "out", "in"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .contains("a symbolic link inside the output folder"),
        "{run:?}"
    );
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn stale_temporary_files_of_a_killed_run_are_removed_by_the_next() {
    let dir = common::tempdir();
    archive(
        dir.path(),
        "A.REZ",
        &[("D/F.TXT", b"f"), ("G.TXT", b"g")],
        &[],
    );
    let out = dir.path().join("out");
    fs::create_dir_all(out.join("D")).unwrap();
    let old = SystemTime::now() - Duration::from_secs(3600);
    let make = |path: PathBuf, age: Option<SystemTime>| {
        fs::write(&path, b"half a file").unwrap();
        if let Some(t) = age {
            fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        path
    };
    let stale = [
        make(out.join(".levelkit-a1B2c3.tmp"), Some(old)),
        make(out.join("D/.levelkit-ZZZZZZ.tmp"), Some(old)),
    ];
    let kept = [
        // Fresh: perhaps another run writing it right now.
        make(out.join(".levelkit-fresh1.tmp"), None),
        // Not our pattern.
        make(out.join(".levelkit-abc.tmp"), Some(old)),
        make(out.join(".levelkit-abcdef.tmp.bak"), Some(old)),
        make(out.join("levelkit-abcdef.tmp"), Some(old)),
        make(out.join(".levelkit-abc-ef.tmp"), Some(old)),
    ];
    // A folder under a name of ours is not a file of ours.
    fs::create_dir(out.join(".levelkit-dir123.tmp")).unwrap();
    let run = levelkit(dir.path(), &["extract", "A.REZ", "out"]);
    ok(&run);
    for path in &stale {
        assert!(!path.exists(), "{} removed\n{run:?}", path.display());
    }
    for path in &kept {
        assert!(path.exists(), "{} kept\n{run:?}", path.display());
    }
    assert!(out.join(".levelkit-dir123.tmp").is_dir());
    assert!(
        run.stderr
            .contains("removed 1 temporary file left by an interrupted run"),
        "{run:?}"
    );
    assert_eq!(fs::read(out.join("D/F.TXT")).unwrap(), b"f");
    // A link named like ours is left alone, and so is what it points to.
    #[cfg(unix)]
    {
        let target = make(dir.path().join("precious"), Some(old));
        std::os::unix::fs::symlink(&target, out.join(".levelkit-link12.tmp")).unwrap();
        let run = levelkit(dir.path(), &["extract", "--force", "A.REZ", "out"]);
        ok(&run);
        assert!(out.join(".levelkit-link12.tmp").is_symlink());
        assert!(target.exists());
    }
}

#[cfg(unix)]
#[test]
fn unrecognised_content_is_described_not_quoted() {
    let dir = common::tempdir();
    let input = dir.path().join("in");
    fs::create_dir(&input).unwrap();
    let secret = "root:x:0:0:root:/root:/bin/bash\nsecret-user:x:1000:1000::/home/s:/bin/sh\n";
    let passwd = dir.path().join("passwd");
    fs::write(&passwd, secret).unwrap();
    for name in [
        "level.nw", "a.graal", "b.wings", "c.wmp", "d.mdl", "e.wdb", "f.pid",
    ] {
        std::os::unix::fs::symlink(&passwd, input.join(name)).unwrap();
    }
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "--to",
            "json",
            "--keep-extension",
            "--out",
            "out",
            "in",
        ],
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert!(!run.stderr.contains("root"), "{run:?}");
    assert!(!run.stderr.contains("secret"), "{run:?}");
    assert!(
        run.stderr.contains(&format!(
            "in/level.nw: nw: not a Graal text level (one begins with `GLEVNW01`) nor any \
                 format levelkit recognises: {} bytes of text, taken for nw by its name only; \
                 not read",
            secret.len()
        )),
        "{run:?}"
    );
    assert_eq!(
        run.stderr
            .matches("nor any format levelkit recognises")
            .count(),
        7,
        "{run:?}"
    );
    // info and validate read through the same code.
    let run = levelkit(dir.path(), &["info", "in/a.graal"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        !run.stderr.contains("root") && !run.out().contains("root"),
        "{run:?}"
    );
    // A damaged level that is one is still told what its reader found.
    fs::write(input.join("damaged.nw"), "GLEVNW01\nBOARD x y\n").unwrap();
    let run = levelkit(dir.path(), &["info", "in/damaged.nw"]);
    assert!(!run.stderr.contains("recognises"), "{run:?}");
}
