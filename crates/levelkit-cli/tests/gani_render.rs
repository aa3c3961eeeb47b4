//! `levelkit convert X.gani` to GIF, animated PNG and sprite sheets, run as a user would: the
//! library's `walk_like` sample with images generated here (and the corpus's `walk.gani` with
//! the corpus images when `LEVELKIT_CORPUS` is set), read back with the `image` and `png`
//! crates; the per-direction file names, `--dir`, `--images` and its default, and the usage
//! errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use image::AnimationDecoder;
use levelkit::formats::graal::gani;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn levelkit(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_levelkit"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `walk.gani` (the sample: 6 frames of 50, 100, 50, 50, 100, 150 ms; LOOP) and, in `images/`,
/// every image it names except `apple.png`, each a solid colour.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let bytes = gani::samples::walk_like().write().unwrap();
    fs::write(dir.path().join("walk.gani"), bytes).unwrap();
    let images = dir.path().join("images");
    fs::create_dir(&images).unwrap();
    for (name, w, h, rgb) in [
        ("body.png", 128, 96, [200, 60, 40]),
        ("head0.png", 32, 128, [240, 200, 160]),
        ("sprites.png", 32, 16, [10, 10, 10]),
        ("shield1.png", 38, 20, [40, 40, 200]),
        ("hat0.png", 192, 48, [20, 160, 20]),
        ("dust.png", 16, 8, [180, 180, 180]),
    ] {
        let img = image::RgbaImage::from_pixel(w, h, image::Rgba([rgb[0], rgb[1], rgb[2], 255]));
        img.save(images.join(name)).unwrap();
    }
    dir
}

fn gif_delays(path: &Path) -> Vec<u32> {
    image::codecs::gif::GifDecoder::new(Cursor::new(fs::read(path).unwrap()))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
        .iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            n / d
        })
        .collect()
}

const DURATIONS: [u32; 6] = [50, 100, 50, 50, 100, 150];

#[test]
fn gani_to_gif_writes_one_file_per_direction() {
    let dir = setup();
    let run = levelkit(
        dir.path(),
        &["convert", "walk.gani", "walk.gif", "--images", "images"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.path().join("walk.gif").exists());
    for d in ["up", "left", "down", "right"] {
        let path = dir.path().join(format!("walk.{d}.gif"));
        assert_eq!(gif_delays(&path), DURATIONS, "{d}");
    }
    // apple.png (DEFAULTPARAM1) is not a sprite index: the PARAM1 placement is left out.
    assert!(run.stderr.contains("PARAM1"), "{}", run.stderr);
    assert!(!run.stderr.contains("placeholder"), "{}", run.stderr);
    // Overwriting needs --force.
    let again = levelkit(
        dir.path(),
        &["convert", "walk.gani", "walk.gif", "--images", "images"],
    );
    assert_eq!(again.code, 1);
    let forced = levelkit(
        dir.path(),
        &[
            "convert",
            "walk.gani",
            "walk.gif",
            "--images",
            "images",
            "-f",
        ],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
}

#[test]
fn gani_one_direction_to_apng_with_a_json_report() {
    let dir = setup();
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "walk.gani",
            "down.png",
            "--images",
            "images",
            "--dir",
            "down",
            "--json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let out = &report["outputs"][0];
    assert_eq!(report["outputs"].as_array().unwrap().len(), 1);
    assert_eq!(out["direction"], "down");
    assert_eq!(out["frames"], 6);
    assert_eq!(out["loop"], true);
    assert_eq!(out["sounds"][3][1]["file"], "cloth.wav");
    let durations: Vec<u64> = out["durations_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(durations, DURATIONS.map(u64::from));
    let decoder = png::Decoder::new(Cursor::new(fs::read(dir.path().join("down.png")).unwrap()))
        .read_info()
        .unwrap();
    let control = decoder.info().animation_control.unwrap();
    assert_eq!((control.num_frames, control.num_plays), (6, 0));
}

#[test]
fn gani_sheet_lists_sounds_and_images_default_to_the_gani_folder() {
    let dir = setup();
    // No --images: the gani's folder (then its parent) is searched; copy the images there.
    for e in fs::read_dir(dir.path().join("images")).unwrap() {
        let p = e.unwrap().path();
        fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "walk.gani",
            "sheet.png",
            "--sheet",
            "--dir",
            "UP",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("not found"), "{}", run.stderr);
    let table: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("sheet.json")).unwrap()).unwrap();
    assert_eq!(table["meta"]["image"], "sheet.png");
    assert_eq!(table["meta"]["direction"], "up");
    assert_eq!(table["meta"]["loop"], true);
    assert_eq!(table["frames"][0]["sounds"][0]["file"], "step.wav");
    assert_eq!(table["frames"][5]["duration"], 150);
    let sheet = image::open(dir.path().join("sheet.png")).unwrap();
    assert!(sheet.width() > 0);

    // Without any images: placeholders and a warning naming the files looked for.
    let empty = tempfile::tempdir().unwrap();
    fs::copy(dir.path().join("walk.gani"), empty.path().join("w.gani")).unwrap();
    let run = levelkit(
        empty.path(),
        &["convert", "w.gani", "-", "--to", "gif", "--dir", "left"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("GIF89a"));
    assert!(
        run.stderr.contains("looked for hat0.png") && run.stderr.contains("placeholders"),
        "{}",
        run.stderr
    );
}

#[test]
fn gani_usage_errors() {
    let dir = setup();
    let cases: [&[&str]; 5] = [
        &["convert", "walk.gani", "x.gif", "--dir", "north"],
        &["convert", "walk.gani", "-", "--to", "gif"],
        &["convert", "walk.gani", "x.gif", "--sheet"],
        &["convert", "walk.gani", "x.gif", "--images", "nowhere"],
        &["convert", "walk.gani", "x.json", "--images", "images"],
    ];
    for args in cases {
        let run = levelkit(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    }
}

#[test]
fn corpus_walk_with_corpus_images() {
    let Some(root) = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty()) else {
        eprintln!("SKIP: LEVELKIT_CORPUS is not set; gani CLI corpus test not run");
        return;
    };
    let root = PathBuf::from(root);
    let out = tempfile::tempdir().unwrap();
    let walk = root.join("gani/walk.gani");
    let images = root.join("graal/images");
    let run = levelkit(
        out.path(),
        &[
            "convert",
            walk.to_str().unwrap(),
            "walk.gif",
            "--images",
            images.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // head19.png is not in the corpus images: head0.png stands in, with a warning.
    assert!(run.stderr.contains("head0.png"), "{}", run.stderr);
    for d in ["up", "left", "down", "right"] {
        assert_eq!(
            gif_delays(&out.path().join(format!("walk.{d}.gif"))),
            [50; 8]
        );
    }
}
