//! A newcomer's first hour (issue 26): each rough edge a new user met, as the command they ran.
//! The corpus-skip line and the relative `LEVELKIT_CORPUS` are in `cli.rs`
//! (`corpus_tests_skipped_are_counted_and_a_relative_corpus_path_works`), `--keep-extension` and
//! `render X.jpg` there too.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;

use common::{levelkit, ok};
use levelkit::Format;
use levelkit::registry::FORMATS;

/// The README has an Install section with the commands a user types.
#[test]
fn the_readme_says_how_to_install_and_build_the_site() {
    let readme = fs::read_to_string(common::root().join("README.md")).unwrap();
    let install = readme
        .split("\n## Install\n")
        .nth(1)
        .expect("an Install section");
    for line in [
        "cargo install --locked --path crates/levelkit-cli",
        "web/build.sh",
        "--site target/site",
        "npm",
    ] {
        assert!(install.contains(line), "Install section lacks {line:?}");
    }
    let manifest = fs::read_to_string(common::root().join("Cargo.toml")).unwrap();
    assert!(!manifest.contains("example.invalid"), "a placeholder URL");
}

/// Two levels naming different missing NPC images: one summary line for the kind, naming both
/// images; informational notes carry `note:`; `--json` lists the names by count.
#[test]
fn batch_warning_kinds_name_their_distinct_causes() {
    let dir = common::tempdir();
    let island = fs::read(common::samples().join("island.graal")).unwrap();
    fs::write(dir.path().join("a.graal"), &island).unwrap();
    let other = replace(&island, b"sample_guard.png", b"sample_gnome.png");
    fs::write(dir.path().join("b.graal"), &other).unwrap();
    fs::write(dir.path().join("c.graal"), &other).unwrap();
    let run = levelkit(dir.path(), &["convert", ".", "--to", "png", "--out", "out"]);
    ok(&run);
    let line = run
        .stderr
        .lines()
        .find(|l| l.contains("NPC image"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        line.contains("3 x warning: graal: NPC image \"…\" was not found")
            && line.contains("2 different: \"sample_gnome.png\" 2x, \"sample_guard.png\" 1x"),
        "{line}"
    );
    // Every summary line is labelled.
    for l in run.stderr.lines().filter(|l| l.contains(" x ")) {
        assert!(
            l.contains(" x warning: ") || l.contains(" x note: "),
            "unlabelled: {l}"
        );
    }
    assert!(run.stderr.contains("--images DIR"), "{}", run.stderr);

    let run = levelkit(
        dir.path(),
        &["convert", ".", "--to", "png", "--out", "out2", "--json"],
    );
    ok(&run);
    let report = &run.json_lines()[0];
    let kind = report["warning_kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["pattern"].as_str().unwrap().contains("NPC image"))
        .unwrap();
    assert_eq!(kind["count"], 3);
    assert_eq!(kind["names"][0]["names"], "\"sample_guard.png\"");
    assert_eq!(kind["names"][1]["count"], 2);
}

/// `bytes` with every `from` replaced by `to` (of the same length, so that a binary level stays
/// whole).
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut at = 0;
    while let Some(i) = out[at..].windows(from.len()).position(|w| w == from) {
        out[at + i..at + i + to.len()].copy_from_slice(to);
        at += i + to.len();
    }
    assert!(
        out != bytes,
        "{:?} not found",
        String::from_utf8_lossy(from)
    );
    out
}

/// Usage errors, ours and the argument parser's, read alike and exit 2.
#[test]
fn unknown_formats_are_reported_in_one_style() {
    let s = common::all_samples();
    for args in [
        &["convert", "island.graal", "--to", "foo", "--out", "o"][..],
        &["convert", "island.graal", "o.foo"][..],
        &["frobnicate"][..],
    ] {
        let run = levelkit(s.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.starts_with("levelkit: "), "{args:?}: {run:?}");
        assert!(!run.stderr.contains("error: "), "{args:?}: {run:?}");
    }
    // A conversion that is not offered names the input and lists what it becomes.
    let run = levelkit(s.path(), &["convert", "cube.wings", "o.tmx"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("cube.wings: tmx: a wings file is not a tile map")
            && run
                .stderr
                .contains("(a wings file becomes: wings, wdb, mdl, json, gltf, glb, obj)"),
        "{run:?}"
    );
}

/// One list of formats, the library's table, in every help text.
#[test]
fn help_texts_list_the_formats_from_the_librarys_table() {
    let s = common::tempdir();
    let top = levelkit(s.path(), &["--help"]);
    ok(&top);
    for info in FORMATS.iter().filter(|i| i.readable || i.writable) {
        for ext in info.extensions {
            assert!(
                top.out().contains(&format!(".{ext}")),
                "--help lacks .{ext}"
            );
        }
    }
    let convert = levelkit(s.path(), &["convert", "--help"]);
    ok(&convert);
    for info in FORMATS.iter().filter(|i| i.writable) {
        assert!(
            convert.out().contains(info.name),
            "convert --help lacks {}",
            info.name
        );
    }
    assert!(convert.out().contains("gmap   -> gmap, world, json, png"));
    let render = levelkit(s.path(), &["render", "--help"]);
    ok(&render);
    for name in ["wwd", "graal", "nw", "gmap", "tmx", "tmj"] {
        assert!(render.out().contains(name), "render --help lacks {name}");
    }
    // The `--to` error lists the same names as the help.
    let run = levelkit(s.path(), &["convert", "x", "--to", "nope", "--out", "o"]);
    let writable: Vec<&str> = FORMATS
        .iter()
        .filter(|i| i.writable)
        .map(|i| i.name)
        .collect();
    assert!(run.stderr.contains(&writable.join(", ")), "{run:?}");
    assert!(Format::Gmap.info().writable);
}

/// `info` keeps one column for values, also with a long key.
#[test]
fn info_rows_stay_aligned() {
    let s = common::all_samples();
    let run = levelkit(s.path(), &["info", "island.graal"]);
    ok(&run);
    let columns: Vec<usize> = run
        .out()
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let rest = l.trim_start();
            let key_end = rest.find(' ').unwrap();
            l.len() - rest[key_end..].trim_start().len()
        })
        .collect();
    assert!(
        columns.windows(2).all(|w| w[0] == w[1]),
        "{columns:?}\n{}",
        run.out()
    );
}

/// The hints a user needs: `--images` on an ANI points to `--frames`; the tile image given with
/// `--tiles` also draws the NPCs that name it.
#[test]
fn hints_point_to_the_option_that_helps() {
    let dir = common::ani_folder();
    let run = levelkit(
        dir.path(),
        &["convert", "FIRE.ANI", "f.gif", "--images", "frames"],
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("--frames") && !run.stderr.contains("--dir"),
        "{run:?}"
    );

    // An NPC whose image is the tile image the user gave: drawn, no warning.
    let s = common::all_samples();
    let tiles = image::RgbaImage::from_pixel(512, 512, image::Rgba([10, 200, 10, 255]));
    tiles.save(s.path().join("pics1.png")).unwrap();
    fs::remove_file(s.path().join("sample_guard.png")).unwrap();
    let run = levelkit(
        s.path(),
        &["render", "island.graal", "a.png", "--tiles", "pics1.png"],
    );
    ok(&run);
    assert!(run.stderr.contains("sample_guard.png"), "{run:?}");
    // The same picture given as `--tiles art/sample_guard.png`, outside the level's folders:
    // only `--tiles` can make the NPC's image found.
    fs::create_dir(s.path().join("art")).unwrap();
    tiles.save(s.path().join("art/sample_guard.png")).unwrap();
    let run = levelkit(
        s.path(),
        &[
            "render",
            "island.graal",
            "b.png",
            "--tiles",
            "art/sample_guard.png",
        ],
    );
    ok(&run);
    assert!(!run.stderr.contains("was not found"), "{run:?}");
}

/// The main job over the bundled samples finds every file the samples name and prints no
/// warning line: only its summary and notes (what a conversion did, with nothing lost).
#[test]
fn the_main_job_finds_every_file_the_samples_name() {
    let s = common::tempdir();
    let run = levelkit(
        &common::root(),
        &[
            "convert".as_ref(),
            "samples".as_ref(),
            "--to".as_ref(),
            "json,tmx,png,glb".as_ref(),
            "--out".as_ref(),
            s.path().as_os_str(),
        ],
    );
    ok(&run);
    for missing in ["not found", "not beside", "placeholder"] {
        assert!(!run.stderr.contains(missing), "{missing}: {}", run.stderr);
    }
    let lines: Vec<&str> = run.stderr.lines().collect();
    let summary = lines.first().copied().unwrap_or_default();
    assert!(
        summary.starts_with("levelkit: converted "),
        "{}",
        run.stderr
    );
    assert!(!summary.contains("warning"), "{}", run.stderr);
    for line in lines.iter().skip(1) {
        assert!(
            line.contains(" x note: "),
            "not a note: {line}\n{}",
            run.stderr
        );
    }
}
