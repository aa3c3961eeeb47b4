//! Graal overworlds through the `levelkit` binary: `info`, `validate` (missing levels with their
//! grid position), `dump`, `convert` to a Tiled world that Tiled 1.8 loads (every map, through
//! `tmxrasterizer`, which renders a whole `.world`) and back to the same gmap and level bytes,
//! `render` scaled to fit, and batch mode. Files are made by the library's sample builders.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{levelkit, png_size};
use levelkit::formats::graal::gmap;
use levelkit::strings::LineEnding;

/// A 3 × 2 world with a hole at (2,1), as CRLF with quoted names, and its levels except
/// `w_1_1.nw`. Returns the gmap's bytes and the levels written.
fn world(dir: &Path) -> (Vec<u8>, Vec<(String, Vec<u8>)>) {
    let (mut map, levels) = gmap::samples::world("w", 3, 2, &[(2, 1)]);
    map.layout.line_ending = LineEnding::CrLf;
    let bytes = map.write().unwrap();
    std::fs::write(dir.join("w.gmap"), &bytes).unwrap();
    let mut written = Vec::new();
    for (name, level) in levels {
        if name == "w_1_1.nw" {
            continue;
        }
        let level = level.write().unwrap();
        std::fs::write(dir.join(&name), &level).unwrap();
        written.push((name, level));
    }
    (bytes, written)
}

#[test]
fn info_validate_and_dump_name_the_grid_and_the_missing_levels() {
    let tmp = common::tempdir();
    let dir = tmp.path();
    world(dir);
    let info = levelkit(dir, &["info", "w.gmap"]);
    assert_eq!(info.code, 0, "{}", info.stderr);
    assert!(info.out().contains("gmap, GRMAP001"), "{}", info.out());
    // One value column, as wide as the longest key (`distinct_levels`).
    assert!(
        info.out().contains("  width           3\n"),
        "{}",
        info.out()
    );
    assert!(
        info.out().contains("  levels          5\n"),
        "{}",
        info.out()
    );
    assert!(
        info.out().contains("  level files     4 of 5 beside it\n"),
        "{}",
        info.out()
    );
    let json = levelkit(dir, &["info", "--json", "w.gmap"]);
    let record: serde_json::Value = serde_json::from_str(json.out().trim()).unwrap();
    assert_eq!(record["format"], "gmap");
    assert_eq!(record["levels"], 5);
    assert_eq!(record["level_files_found"], 4);
    let validate = levelkit(dir, &["validate", "w.gmap"]);
    assert_eq!(validate.code, 0, "{}", validate.out());
    assert!(
        validate
            .out()
            .contains("w.gmap: warning: gmap: level (1,1) w_1_1.nw: no such file beside the gmap"),
        "{}",
        validate.out()
    );
    assert!(
        validate.out().contains("w.gmap: ok (1 warning)"),
        "{}",
        validate.out()
    );
    let dump = levelkit(dir, &["dump", "w.gmap"]);
    assert!(
        dump.out().contains("  0: w_0_0.nw  w_1_0.nw  w_2_0.nw"),
        "{}",
        dump.out()
    );
    assert!(
        dump.out().contains("  1: w_0_1.nw  w_1_1.nw  -"),
        "{}",
        dump.out()
    );
    // The JSON document converts back to the same bytes.
    let _ = levelkit(dir, &["convert", "w.gmap", "w.json"]);
    let back = levelkit(dir, &["convert", "w.json", "again.gmap"]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(
        std::fs::read(dir.join("again.gmap")).unwrap(),
        std::fs::read(dir.join("w.gmap")).unwrap()
    );
}

/// The Tiled oracle script, or `None` (with a SKIP line) when Tiled is not installed.
fn tiled_oracle() -> Option<PathBuf> {
    let dir = std::env::var_os("LEVELKIT_ORACLES")
        .map_or_else(|| common::root().join("../shared/oracles"), PathBuf::from);
    let script = dir.join("tiled_oracle.sh");
    let found = Command::new("sh")
        .args(["-c", "command -v tmxrasterizer && command -v tiled"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found || !script.is_file() {
        eprintln!("SKIP: Tiled or its oracle script not found; the Tiled world check not run");
        return None;
    }
    Some(script)
}

#[test]
fn a_gmap_becomes_a_tiled_world_that_tiled_loads_and_comes_back_byte_for_byte() {
    let tmp = common::tempdir();
    let dir = tmp.path();
    let (gmap_bytes, levels) = world(dir);
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let run = levelkit(dir, &["convert", "w.gmap", "out/w.world"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("level (1,1) w_1_1.nw: no such file beside the gmap"),
        "{}",
        run.stderr
    );
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out/w.world")).unwrap()).unwrap();
    let maps: Vec<(String, i64, i64)> = doc["maps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["fileName"].as_str().unwrap().to_owned(),
                m["x"].as_i64().unwrap(),
                m["y"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        maps,
        [
            ("w_0_0.tmx".to_owned(), 0, 0),
            ("w_1_0.tmx".to_owned(), 1024, 0),
            ("w_2_0.tmx".to_owned(), 2048, 0),
            ("w_0_1.tmx".to_owned(), 0, 1024),
        ]
    );
    for (name, _, _) in &maps {
        assert!(dir.join("out").join(name).is_file(), "{name}");
    }
    // The levels' one tileset is written once, beside the world, and every map names it.
    let shared: Vec<String> = std::fs::read_dir(dir.join("out/tilesets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(shared.len(), 2, "{shared:?}");
    let tsx = shared.iter().find(|n| n.ends_with(".tsx")).unwrap();
    assert!(shared.iter().any(|n| n.ends_with(".png")), "{shared:?}");
    for (name, _, _) in &maps {
        let text = std::fs::read_to_string(dir.join("out").join(name)).unwrap();
        assert!(
            text.contains(&format!("source=\"tilesets/{tsx}\"")),
            "{name}: {text:.400}"
        );
        assert!(
            !dir.join("out")
                .join(name.replace(".tmx", ".tileset0.png"))
                .exists()
        );
    }
    if let Some(script) = tiled_oracle() {
        // tmxrasterizer loads the world and every map in it, and draws them at their places.
        let out = Command::new(&script)
            .arg("render")
            .arg(dir.join("out/w.world"))
            .arg(dir.join("out/tiled.png"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "Tiled could not render the world: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let png = std::fs::read(dir.join("out/tiled.png")).unwrap();
        assert_eq!(png_size(&png), (3072, 2048));
        // Tiled opens each map on its own and writes it again.
        for (name, _, _) in &maps {
            let out = Command::new(&script)
                .arg("convert")
                .arg(dir.join("out").join(name))
                .arg(
                    dir.join("out")
                        .join(format!("{}-tiled.tmj", name.trim_end_matches(".tmx"))),
                )
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    // And back: the same gmap, and each level in its own format with the same bytes.
    std::fs::create_dir_all(dir.join("back")).unwrap();
    let run = levelkit(dir, &["convert", "out/w.world", "back/w.gmap"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(std::fs::read(dir.join("back/w.gmap")).unwrap() == gmap_bytes);
    for (name, bytes) in &levels {
        let back = std::fs::read(dir.join("back").join(name)).unwrap();
        assert!(back == *bytes, "{name} differs after the world trip");
    }
    assert!(!dir.join("back/w_1_1.nw").exists());
    // Other targets are usage errors.
    let run = levelkit(dir, &["convert", "out/w.world", "back/w.nw"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = levelkit(dir, &["convert", "w_0_0.nw", "x.world"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn render_draws_the_whole_overworld_scaled_to_fit() {
    let tmp = common::tempdir();
    let dir = tmp.path();
    world(dir);
    let run = levelkit(dir, &["render", "w.gmap", "w.png", "--max-size", "600"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("level (1,1) w_1_1.nw"),
        "{}",
        run.stderr
    );
    assert_eq!(
        png_size(&std::fs::read(dir.join("w.png")).unwrap()),
        (3 * 171, 2 * 171)
    );
    let run = levelkit(dir, &["render", "w.gmap", "big.png"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // 3 columns into the default 4096: divisor 1 would be 3072 wide.
    assert_eq!(
        png_size(&std::fs::read(dir.join("big.png")).unwrap()),
        (3072, 2048)
    );
}

#[test]
fn batch_mode_takes_gmaps_like_other_files() {
    let tmp = common::tempdir();
    let dir = tmp.path();
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    world(&levels);
    let run = levelkit(dir, &["convert", "levels", "--to", "json", "--out", "out"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = std::fs::read(dir.join("out/w.json")).unwrap();
    let back = levelkit::document::Model::from_json(&json).unwrap();
    assert!(back.write().unwrap() == std::fs::read(levels.join("w.gmap")).unwrap());
}
