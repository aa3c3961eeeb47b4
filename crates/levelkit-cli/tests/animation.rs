//! `levelkit` on WAP32 animations, run as a user would: an `.ANI` made by the library's sample
//! builder and a folder of PNG frames (`common::ani_folder`), converted to GIF, animated PNG and a sprite
//! sheet, and read back with the `image` and `png` crates; `info`, `validate`, `dump` on it; the
//! usage errors of `--frames` and `--sheet`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::io::Cursor;

use common::{gif_frames, levelkit};

#[test]
fn ani_to_gif_with_frames() {
    let dir = common::ani_folder();
    let run = levelkit(
        dir.path(),
        &["convert", "FIRE.ANI", "fire.gif", "--frames", "frames"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("1 image(s) of the image set not found") && run.stderr.contains("6"),
        "{}",
        run.stderr
    );
    let frames = gif_frames(&fs::read(dir.path().join("fire.gif")).unwrap());
    assert_eq!(common::delays_ms(&frames), [100, 80, 80, 120, 80, 100]);
    // Images 1..=5 are 5..=9 px wide, centred; the placeholder of image 6 is as large as the
    // largest (9 x 6): the canvas.
    assert_eq!(frames[0].buffer().dimensions(), (9, 6));
    // Frame 0 shows image 1 (5 px wide, centred: x 2..7) in its colour.
    assert_eq!(frames[0].buffer().get_pixel(2, 0).0[0], 40);
    assert_eq!(frames[0].buffer().get_pixel(0, 0).0[3], 0);
    // Overwriting needs --force.
    let again = levelkit(
        dir.path(),
        &["convert", "FIRE.ANI", "fire.gif", "--frames", "frames"],
    );
    assert_eq!(again.code, 1);
}

#[test]
fn ani_to_apng_and_sprite_sheet() {
    let dir = common::ani_folder();
    let run = levelkit(
        dir.path(),
        &[
            "convert", "FIRE.ANI", "fire.png", "--frames", "frames", "--json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.out().trim()).unwrap();
    assert_eq!(report["frames"], 6);
    let decoder = png::Decoder::new(Cursor::new(fs::read(dir.path().join("fire.png")).unwrap()))
        .read_info()
        .unwrap();
    let control = decoder.info().animation_control.unwrap();
    assert_eq!((control.num_frames, control.num_plays), (6, 0));

    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "FIRE.ANI",
            "sheet.png",
            "--frames",
            "frames",
            "--sheet",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sheet = image::open(dir.path().join("sheet.png")).unwrap();
    assert_eq!((sheet.width(), sheet.height()), (27, 12));
    let table: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("sheet.json")).unwrap()).unwrap();
    assert_eq!(table["meta"]["image"], "sheet.png");
    assert_eq!(table["frames"][3]["duration"], 120);
}

#[test]
fn ani_without_frames_draws_placeholders() {
    let dir = common::ani_folder();
    let run = levelkit(dir.path(), &["convert", "FIRE.ANI", "-", "--to", "gif"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("6 image(s)"), "{}", run.stderr);
    assert!(run.stdout.starts_with(b"GIF89a"));
}

#[test]
fn ani_info_validate_dump_and_json() {
    let dir = common::ani_folder();
    let info = levelkit(dir.path(), &["info", "FIRE.ANI", "--json"]);
    assert_eq!(info.code, 0, "{}", info.stderr);
    let v: serde_json::Value = serde_json::from_str(info.out().trim()).unwrap();
    assert_eq!(v["format"], "ani");
    assert_eq!(v["frames"], 6);
    assert_eq!(v["total_duration_ms"], 560);
    assert_eq!(levelkit(dir.path(), &["validate", "FIRE.ANI"]).code, 0);
    let dump = levelkit(dir.path(), &["dump", "FIRE.ANI"]);
    assert_eq!(
        dump.out().lines().filter(|l| l.starts_with("  [")).count(),
        6
    );
    let json = levelkit(dir.path(), &["convert", "FIRE.ANI", "fire.json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let back = levelkit(dir.path(), &["convert", "fire.json", "BACK.ANI"]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(
        fs::read(dir.path().join("BACK.ANI")).unwrap(),
        fs::read(dir.path().join("FIRE.ANI")).unwrap()
    );
}

#[test]
fn frames_and_sheet_usage_errors() {
    let dir = common::ani_folder();
    let sheet_gif = levelkit(dir.path(), &["convert", "FIRE.ANI", "x.gif", "--sheet"]);
    assert_eq!(sheet_gif.code, 2, "{}", sheet_gif.stderr);
    let to_json = levelkit(
        dir.path(),
        &["convert", "FIRE.ANI", "x.json", "--frames", "frames"],
    );
    assert_eq!(to_json.code, 2, "{}", to_json.stderr);
    let no_dir = levelkit(
        dir.path(),
        &["convert", "FIRE.ANI", "x.gif", "--frames", "missing"],
    );
    assert_eq!(no_dir.code, 2, "{}", no_dir.stderr);
    let sheet_stdout = levelkit(
        dir.path(),
        &["convert", "FIRE.ANI", "-", "--to", "png", "--sheet"],
    );
    assert_eq!(sheet_stdout.code, 2, "{}", sheet_stdout.stderr);
}
