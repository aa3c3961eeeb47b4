//! `levelkit ls`, `extract` and `pack` on REZ archives made by the library's sample builder and
//! by `pack` itself, in temporary folders.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;

use common::levelkit;
use levelkit::formats::rez::{Rez, RezIndex, samples};
use serde_json::Value;

fn sample_dir() -> (tempfile::TempDir, Vec<u8>) {
    let dir = common::tempdir();
    let bytes = samples::sample().write().unwrap();
    fs::write(dir.path().join("CLAW.REZ"), &bytes).unwrap();
    (dir, bytes)
}

#[test]
fn ls_lists_every_file_or_one_directory() {
    let (dir, bytes) = sample_dir();
    let index = RezIndex::read(&bytes).unwrap();
    let out = levelkit(dir.path(), &["ls", "CLAW.REZ"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<String> = out.out().lines().map(str::to_owned).collect();
    let expected: Vec<String> = index.files().into_iter().map(|(p, _)| p).collect();
    assert_eq!(lines, expected);
    assert_eq!(lines.len(), 28);

    let out = levelkit(
        dir.path(),
        &["ls", "--json", "CLAW.REZ", "level1\\tiles\\back"],
    );
    assert_eq!(out.code, 0);
    let records: Vec<Value> = out
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["path"], "LEVEL1/TILES/BACK/001.PID");
    assert_eq!(records[0]["type"], "PID");
    assert_eq!(records[0]["size"], 200);
    let file = index.find("LEVEL1/TILES/BACK/001.PID").unwrap();
    assert_eq!(records[0]["offset"], file.pos);

    let out = levelkit(dir.path(), &["ls", "-l", "CLAW.REZ", "STATES/NOTES.TXT"]);
    let line = out.out();
    assert!(line.trim_end().ends_with("STATES/NOTES.TXT"), "{line}");
    assert!(line.contains("1998-"), "{line}");

    let out = levelkit(dir.path(), &["ls", "CLAW.REZ", "NO/SUCH"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("no such file or directory"));
    fs::write(dir.path().join("BAD.REZ"), &bytes[..bytes.len() - 1]).unwrap();
    let out = levelkit(dir.path(), &["ls", "BAD.REZ"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("BAD.REZ"), "{}", out.stderr);
    let out = levelkit(dir.path(), &["ls"]);
    assert_eq!(out.code, 2);
}

#[test]
fn extract_writes_the_files_as_they_are_and_never_overwrites_without_force() {
    let (dir, bytes) = sample_dir();
    let rez = Rez::read(&bytes).unwrap();
    let out = levelkit(dir.path(), &["extract", "CLAW.REZ", "out"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for (path, file) in rez.files() {
        let got = fs::read(dir.path().join("out").join(&path)).unwrap();
        assert_eq!(got, file.data.0, "{path}");
    }
    assert!(
        dir.path().join("out/LEVEL2/TILES").is_dir(),
        "empty directories too"
    );

    // Again: refused, and nothing changed.
    fs::write(dir.path().join("out/README"), b"edited").unwrap();
    let out = levelkit(dir.path(), &["extract", "CLAW.REZ", "out"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("--force"), "{}", out.stderr);
    assert_eq!(fs::read(dir.path().join("out/README")).unwrap(), b"edited");
    let out = levelkit(dir.path(), &["extract", "--force", "CLAW.REZ", "out"]);
    assert_eq!(out.code, 0);
    assert_ne!(fs::read(dir.path().join("out/README")).unwrap(), b"edited");

    // One directory, one file.
    let out = levelkit(dir.path(), &["extract", "CLAW.REZ", "one", "claw/anis"]);
    assert_eq!(out.code, 0);
    assert!(dir.path().join("one/CLAW/ANIS/IDLE.ANI").is_file());
    assert!(!dir.path().join("one/LEVEL1").exists());
    let out = levelkit(
        dir.path(),
        &["extract", "CLAW.REZ", "two", "MUSIC/THEME.XMI"],
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        fs::read(dir.path().join("two/MUSIC/THEME.XMI")).unwrap(),
        rez.find("MUSIC/THEME.XMI").unwrap().data.0
    );
    // With --to png, files that are not PID images (and the sample's placeholder PIDs, which
    // are not images) are written as they are, each PID with a warning.
    let out = levelkit(dir.path(), &["extract", "--to", "png", "CLAW.REZ", "png"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("written as it is"));
    assert_eq!(
        fs::read(dir.path().join("png/MUSIC/THEME.XMI")).unwrap(),
        rez.find("MUSIC/THEME.XMI").unwrap().data.0
    );
}

#[test]
fn extract_refuses_names_that_would_leave_the_folder() {
    let dir = common::tempdir();
    // An archive whose file is named `..`: the builder refuses that name, so edit the model.
    let mut b = levelkit::formats::rez::Builder::new();
    b.add("A/XX", b"evil".to_vec()).unwrap();
    let rez = b.finish().unwrap();
    let bytes = rez.write().unwrap();
    let at = bytes.windows(3).rposition(|w| w == b"XX\0").unwrap();
    let mut evil = bytes.clone();
    evil[at..at + 2].copy_from_slice(b"..");
    fs::write(dir.path().join("EVIL.REZ"), &evil).unwrap();
    let out = levelkit(dir.path(), &["extract", "EVIL.REZ", "out"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not extracting"), "{}", out.stderr);
    assert!(!dir.path().join("out").exists());
    assert!(!dir.path().join("A").exists());
}

#[test]
fn pack_then_extract_gives_the_same_files() {
    let dir = common::tempdir();
    let src = dir.path().join("src");
    let files: [(&str, Vec<u8>); 5] = [
        ("LEVEL1/TILES/ACTION/001.PID", vec![1; 300]),
        ("LEVEL1/TILES/ACTION/002.PID", vec![2; 10]),
        ("LEVEL1/PALETTES/MAIN.PAL", vec![3; 768]),
        ("SOUNDS/HIT.WAV", b"RIFF....".to_vec()),
        ("readme.txt", b"hello".to_vec()),
    ];
    for (path, data) in &files {
        let p = src.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, data).unwrap();
    }
    fs::create_dir_all(src.join("EMPTY")).unwrap();
    let out = levelkit(dir.path(), &["pack", "src", "GAME.REZ"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let bytes = fs::read(dir.path().join("GAME.REZ")).unwrap();
    let rez = Rez::read(&bytes).unwrap();
    assert!(
        rez.validate()
            .iter()
            .all(|w| w.message.contains("lower-case"))
    );
    assert_eq!(rez.files().len(), 5);
    // Packing again is refused, then allowed with --force, and gives the same bytes.
    let out = levelkit(dir.path(), &["pack", "src", "GAME.REZ"]);
    assert_eq!(out.code, 1);
    let out = levelkit(dir.path(), &["pack", "--force", "src", "GAME.REZ"]);
    assert_eq!(out.code, 0);
    assert_eq!(fs::read(dir.path().join("GAME.REZ")).unwrap(), bytes);

    let out = levelkit(dir.path(), &["extract", "GAME.REZ", "back"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for (path, data) in &files {
        assert_eq!(&fs::read(dir.path().join("back").join(path)).unwrap(), data);
    }
    assert!(dir.path().join("back/EMPTY").is_dir());
    // The archive goes through the document layer too.
    let out = levelkit(dir.path(), &["info", "--json", "GAME.REZ"]);
    let info: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(info["format"], "rez");
    assert_eq!(info["files"], 5);
    assert_eq!(info["types"]["PID"], 2);
    let out = levelkit(dir.path(), &["convert", "GAME.REZ", "GAME.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = levelkit(dir.path(), &["convert", "GAME.json", "AGAIN.REZ"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(fs::read(dir.path().join("AGAIN.REZ")).unwrap(), bytes);

    let out = levelkit(dir.path(), &["pack", "nothing-here", "X.REZ"]);
    assert_eq!(out.code, 1);
}
