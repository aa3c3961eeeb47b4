//! `--game`: a Claw level drawn and exported with its game's graphics, from a REZ archive or the
//! folder extracted from it (the bundled `samples/claw.rez`, made by `wwd::game_sample`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;

use common::{levelkit, ok, samples};

#[test]
fn the_rez_and_its_extracted_folder_render_the_same_pixels() {
    let dir = common::tempdir();
    let d = dir.path();
    let level = samples().join("claw-like.wwd");
    let rez = samples().join("claw.rez");
    let (level, rez) = (level.to_str().unwrap(), rez.to_str().unwrap());
    ok(&levelkit(d, &["extract", rez, "game"]));
    // Packed again from the folder, the archive lists the same files.
    ok(&levelkit(d, &["pack", "game", "again.rez"]));
    let listed = |p: &str| levelkit(d, &["ls", p]).out();
    assert_eq!(listed(rez), listed("again.rez"));

    let out = levelkit(d, &["render", level, "from-rez.png", "--game", rez]);
    ok(&out);
    assert!(
        out.stderr
            .contains("33 of 33 tile images, 120 of 120 object images"),
        "{}",
        out.stderr
    );
    ok(&levelkit(
        d,
        &["render", level, "from-folder.png", "--game", "game"],
    ));
    ok(&levelkit(
        d,
        &["render", level, "from-again.png", "--game", "again.rez"],
    ));
    ok(&levelkit(d, &["render", level, "plain.png"]));
    let png = |n: &str| image::open(d.join(n)).unwrap().to_rgba8();
    let (a, b, c, plain) = (
        png("from-rez.png"),
        png("from-folder.png"),
        png("from-again.png"),
        png("plain.png"),
    );
    assert_eq!(a.dimensions(), plain.dimensions());
    assert!(a == b, "REZ and extracted folder render differently");
    assert!(a == c, "the repacked REZ renders differently");
    let differ = a
        .pixels()
        .zip(plain.pixels())
        .filter(|(p, q)| p != q)
        .count();
    assert!(differ > 100_000, "only {differ} pixels changed with --game");
}

#[test]
fn tiled_gets_the_real_tiles_and_the_map_converts_back_exactly() {
    let dir = common::tempdir();
    let d = dir.path();
    let level = samples().join("claw-like.wwd");
    let rez = samples().join("claw.rez");
    let (level, rez) = (level.to_str().unwrap(), rez.to_str().unwrap());
    ok(&levelkit(d, &["convert", level, "map.tmx", "--game", rez]));
    ok(&levelkit(d, &["convert", level, "plain.tmx"]));
    // The tileset images differ from the generated ones; the map itself is the same.
    let a = fs::read(d.join("map.tileset0.png")).unwrap();
    let b = fs::read(d.join("plain.tileset0.png")).unwrap();
    assert_ne!(a, b);
    ok(&levelkit(d, &["convert", "map.tmx", "back.wwd"]));
    assert!(fs::read(d.join("back.wwd")).unwrap() == fs::read(level).unwrap());
}

#[test]
fn missing_graphics_are_warnings_not_failures() {
    let dir = common::tempdir();
    let d = dir.path();
    fs::create_dir(d.join("empty")).unwrap();
    let level = samples().join("claw-like.wwd");
    let out = levelkit(
        d,
        &[
            "render",
            level.to_str().unwrap(),
            "out.png",
            "--game",
            "empty",
        ],
    );
    ok(&out);
    let err = out.stderr;
    assert!(err.contains("LEVEL1/TILES/ACTION"), "{err}");
    assert!(err.contains("0 of 33 tile images"), "{err}");
    // A game path that is neither a folder nor an archive is an error naming it.
    let out = levelkit(
        d,
        &[
            "render",
            level.to_str().unwrap(),
            "out2.png",
            "--game",
            "nothing.rez",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("nothing.rez"));
}

#[test]
fn extract_to_png_gives_pngs_that_convert_back_to_the_same_pids() {
    let dir = common::tempdir();
    let d = dir.path();
    let rez = samples().join("claw.rez");
    let rez = rez.to_str().unwrap();
    ok(&levelkit(d, &["extract", rez, "raw"]));
    ok(&levelkit(d, &["extract", rez, "png", "--to", "png"]));
    let mut checked = 0;
    for sub in ["LEVEL1/TILES/ACTION", "GAME/IMAGES/TREASURE/COINS"] {
        for entry in fs::read_dir(d.join("raw").join(sub)).unwrap() {
            let pid = entry.unwrap().path();
            let stem = pid.file_stem().unwrap().to_str().unwrap().to_owned();
            let png = d.join("png").join(sub).join(format!("{stem}.png"));
            // Drawn with the level palette (LEVEL1/PALETTES/MAIN.PAL, the archive's only one).
            let img = image::open(&png).unwrap().to_rgba8();
            assert!(img.width() > 0);
            let back = d.join(format!("{stem}-{checked}.PID"));
            ok(&levelkit(
                d,
                &["convert", png.to_str().unwrap(), back.to_str().unwrap()],
            ));
            assert!(
                fs::read(&back).unwrap() == fs::read(&pid).unwrap(),
                "{}",
                pid.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

#[test]
fn a_claw_map_in_tiled_has_its_sprites_and_converts_back_exactly() {
    let dir = common::tempdir();
    let d = dir.path();
    let level = samples().join("claw-like.wwd");
    let rez = samples().join("claw.rez");
    let (level_s, rez) = (level.to_str().unwrap(), rez.to_str().unwrap());
    for ext in ["tmx", "tmj"] {
        let map = format!("claw.{ext}");
        ok(&levelkit(
            d,
            &["convert", level_s, &map, "--game", rez, "--force"],
        ));
        let written = fs::read_to_string(d.join(&map)).unwrap();
        assert!(
            written.contains("levelkit.sprites"),
            "{ext}: a sprite tileset"
        );
        assert!(written.contains("claw.sprites/0.png"), "{ext}: its images");
        assert_eq!(fs::read_dir(d.join("claw.sprites")).unwrap().count(), 7);
        let back = format!("back-{ext}.wwd");
        ok(&levelkit(d, &["convert", &map, &back]));
        assert_eq!(fs::read(d.join(&back)).unwrap(), fs::read(&level).unwrap());
    }
}

#[test]
fn graal_npc_images_come_from_images_dir_with_a_warning_for_the_missing() {
    let Some(corpus) = common::corpus("the Graal NPC images test") else {
        return;
    };
    let corpus = corpus.join("graal");
    let dir = common::tempdir();
    let d = dir.path();
    let level = corpus.join("expression-links/avalon7.graal");
    let images = corpus.join("images");
    let pics1 = images.join("pics1.png");
    let (level_s, images, pics1) = (
        level.to_str().unwrap(),
        images.to_str().unwrap(),
        pics1.to_str().unwrap(),
    );
    let out = levelkit(
        d,
        &[
            "render", level_s, "a.png", "--tiles", pics1, "--images", images,
        ],
    );
    ok(&out);
    let err = out.stderr;
    assert!(err.contains("\"waterani.gif\" was not found"), "{err}");
    assert!(!err.contains("pics1.png\" was not found"), "{err}");
    ok(&levelkit(
        d,
        &[
            "convert", level_s, "a.tmx", "--tiles", pics1, "--images", images,
        ],
    ));
    assert_eq!(fs::read_dir(d.join("a.sprites")).unwrap().count(), 2);
    ok(&levelkit(d, &["convert", "a.tmx", "back.graal"]));
    assert_eq!(
        fs::read(d.join("back.graal")).unwrap(),
        fs::read(&level).unwrap()
    );
}

#[test]
fn a_folder_extracted_to_png_draws_the_same_pixels_as_the_rez() {
    let dir = common::tempdir();
    let d = dir.path();
    let level = samples().join("claw-like.wwd");
    let rez = samples().join("claw.rez");
    let (level, rez) = (level.to_str().unwrap(), rez.to_str().unwrap());
    ok(&levelkit(d, &["extract", rez, "png", "--to", "png"]));
    let out = levelkit(d, &["render", level, "from-png.png", "--game", "png"]);
    ok(&out);
    assert!(
        out.stderr
            .contains("33 of 33 tile images, 120 of 120 object images"),
        "{}",
        out.stderr
    );
    ok(&levelkit(
        d,
        &["render", level, "from-rez.png", "--game", rez],
    ));
    assert_eq!(
        fs::read(d.join("from-png.png")).unwrap(),
        fs::read(d.join("from-rez.png")).unwrap()
    );
}

#[test]
fn batch_turns_a_folder_of_pids_into_pngs_with_the_level_palette() {
    let dir = common::tempdir();
    let d = dir.path();
    let rez = samples().join("claw.rez");
    ok(&levelkit(d, &["extract", rez.to_str().unwrap(), "raw"]));
    let out = levelkit(
        d,
        &[
            "convert",
            "raw",
            "--to",
            "png",
            "--out",
            "pngs",
            "--palette",
            "raw/LEVEL1/PALETTES/MAIN.PAL",
        ],
    );
    ok(&out);
    assert!(
        // The ANI among them becomes an animated PNG (placeholder frames) since the conversion
        // pipeline offers every animation to PNG.
        out.stderr.contains("converted 41, failed 0, skipped 0"),
        "{}",
        out.stderr
    );
    assert!(d.join("pngs/LEVEL1/TILES/ACTION/001.png").is_file());
}
