//! Batch conversion to Tiled writes each distinct tileset once (issue 16 part 5): one shared
//! `tilesets/<name>-<hash>.tsx` (or `.tsj`) with its PNG under `--out`, referenced by every map
//! with a relative path; the maps convert back to the exact levels. Single-file conversion stays
//! self-contained (covered in `cli.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{Run, levelkit, tree};
use levelkit::formats::graal::binary as graal;
use levelkit::formats::wwd;

/// Graal levels (one tileset between them) in two folders, and two WWD levels.
fn levels(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let g = graal::samples::graal().write().unwrap();
    let mut out = Vec::new();
    for name in ["a.graal", "b.graal", "deep/er/c.graal"] {
        out.push((PathBuf::from(name), g.clone()));
    }
    out.push((
        PathBuf::from("claw.wwd"),
        wwd::samples::claw_like().write().unwrap(),
    ));
    out.push((
        PathBuf::from("gruntz.wwd"),
        wwd::samples::gruntz_like().write().unwrap(),
    ));
    for (name, bytes) in &out {
        let path = dir.join("in").join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }
    out
}

#[test]
fn a_batch_writes_each_tileset_once_and_the_maps_come_back() {
    let dir = common::tempdir();
    let dir = dir.path();
    let levels = levels(dir);
    let args = ["convert", "in", "--to", "tmx", "--out", "out"];
    let Run { code, stderr, .. } = levelkit(dir, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("converted 5, failed 0"), "{stderr}");
    let files = tree(&dir.join("out"));
    // No per-map tileset images; one Graal tileset file and one image for all three levels.
    assert!(!files.iter().any(|f| f.contains(".tileset")), "{files:?}");
    let pics: Vec<&String> = files
        .iter()
        .filter(|f| f.starts_with("tilesets/pics1-"))
        .collect();
    assert_eq!(pics.len(), 2, "{files:?}");
    let tsx = pics.iter().find(|f| f.ends_with(".tsx")).unwrap().as_str();
    assert!(pics.iter().any(|f| f.ends_with(".png")), "{files:?}");
    let tsx_text = fs::read_to_string(dir.join("out").join(tsx)).unwrap();
    assert!(tsx_text.contains("<tileset version=\"1.8\""), "{tsx_text}");
    assert!(!tsx_text.contains("firstgid"), "{tsx_text}");
    for (map, up) in [("a", ""), ("b", ""), ("deep/er/c", "../../")] {
        let text = fs::read_to_string(dir.join(format!("out/{map}.tmx"))).unwrap();
        let reference = format!("<tileset firstgid=\"1\" source=\"{up}{tsx}\"/>");
        assert!(text.contains(&reference), "{map}: {text:.600}");
    }
    // Every tileset file has its image, and every map's references are files that exist.
    for f in files.iter().filter(|f| f.ends_with(".tsx")) {
        assert!(files.contains(&f.replace(".tsx", ".png")), "{f}");
    }
    let before: Vec<Vec<u8>> = files
        .iter()
        .filter(|f| f.starts_with("tilesets/"))
        .map(|f| fs::read(dir.join("out").join(f)).unwrap())
        .collect();

    // Again, over the first run: the same tileset files, no second copy.
    let Run { code, stderr, .. } = levelkit(dir, &[&args[..], &["--force"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(tree(&dir.join("out")), files);
    let after: Vec<Vec<u8>> = files
        .iter()
        .filter(|f| f.starts_with("tilesets/"))
        .map(|f| fs::read(dir.join("out").join(f)).unwrap())
        .collect();
    assert!(before == after, "the tileset files changed");
    // Without --force the maps are refused, the tilesets (same bytes) are not the reason.
    let Run { code, stderr, .. } = levelkit(dir, &args);
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains("tilesets/"), "{stderr}");

    // Every map converts back to its level, byte for byte, and renders with the shared image.
    for (name, bytes) in &levels {
        let map = Path::new("out").join(name).with_extension("tmx");
        let ext = name.extension().unwrap().to_str().unwrap();
        let back = format!("back.{ext}");
        let Run { code, stderr, .. } =
            levelkit(dir, &["convert", map.to_str().unwrap(), &back, "--force"]);
        assert_eq!(code, 0, "{}: {stderr}", map.display());
        assert!(
            fs::read(dir.join(&back)).unwrap() == *bytes,
            "{} does not come back",
            name.display()
        );
        let Run { code, stderr, .. } = levelkit(dir, &["validate", map.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {stderr}", map.display());
        let Run { code, stderr, .. } = levelkit(
            dir,
            &["render", map.to_str().unwrap(), "preview.png", "--force"],
        );
        assert_eq!(code, 0, "{}: {stderr}", map.display());
    }

    // TMJ maps get JSON tileset files, which convert back the same way.
    let Run { code, stderr, .. } =
        levelkit(dir, &["convert", "in", "--to", "tmj", "--out", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let files = tree(&dir.join("json"));
    let tsj: Vec<&String> = files
        .iter()
        .filter(|f| f.starts_with("tilesets/pics1-") && f.ends_with(".tsj"))
        .collect();
    assert_eq!(tsj.len(), 1, "{files:?}");
    let Run { code, stderr, .. } = levelkit(dir, &["convert", "json/deep/er/c.tmj", "c.graal"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(fs::read(dir.join("c.graal")).unwrap() == levels[2].1);

    // A map whose tileset file is gone fails, naming the file.
    fs::remove_file(dir.join("out").join(tsx)).unwrap();
    let Run { code, stderr, .. } = levelkit(dir, &["convert", "out/a.tmx", "gone.graal"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(".tsx"), "{stderr}");
}
