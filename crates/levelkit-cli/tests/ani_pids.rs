//! ANI animations played with the game's own PID frames: from the image set beside the ANI's
//! `ANIS` folder, from `--frames` (a folder of PIDs or PNGs, or a folder inside `--game`), from a
//! REZ, and in a batch; the PID route and the PNG route (`levelkit convert` of the PIDs) give the
//! same bytes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::levelkit;
use levelkit::formats::ani::Ani;
use levelkit::formats::pid::samples;

/// `LEVEL1/ANIS/OFFICER/STAND.ANI` (the claw-like sample: images 1..=6), its image set
/// `LEVEL1/IMAGES/OFFICER/FRAME00N.PID` (images 1..=5, no palette of their own, each a gem
/// moved by its hotspot) and `LEVEL1/PALETTES/MAIN.PAL`.
fn game_folder(root: &Path) {
    let anis = root.join("LEVEL1/ANIS/OFFICER");
    let images = root.join("LEVEL1/IMAGES/OFFICER");
    let palettes = root.join("LEVEL1/PALETTES");
    for dir in [&anis, &images, &palettes] {
        fs::create_dir_all(dir).unwrap();
    }
    let ani = levelkit::formats::ani::samples::claw_like();
    fs::write(anis.join("STAND.ANI"), ani.write().unwrap()).unwrap();
    for n in 1..=5i32 {
        let mut pid = samples::sprite();
        pid.offset_x = -12 + n * 3;
        pid.offset_y = -20 + n;
        fs::write(
            images.join(format!("FRAME{n:03}.PID")),
            pid.write().unwrap(),
        )
        .unwrap();
    }
    fs::write(palettes.join("MAIN.PAL"), samples::palette().write()).unwrap();
}

fn gif(dir: &Path, args: &[&str]) -> (Vec<u8>, String) {
    let out = dir.join("out.gif");
    let _ = fs::remove_file(&out);
    let mut all: Vec<&str> = args.to_vec();
    all.push(out.to_str().unwrap());
    let run = levelkit(dir, &all);
    assert_eq!(run.code, 0, "levelkit {args:?}: {}", run.stderr);
    (fs::read(&out).unwrap(), run.stderr)
}

#[test]
fn the_image_set_beside_anis_is_found_with_its_palette_and_equals_the_other_routes() {
    let dir = common::tempdir();
    game_folder(dir.path());
    let ani = "LEVEL1/ANIS/OFFICER/STAND.ANI";
    let (beside, notes) = gif(dir.path(), &["convert", ani]);
    assert!(
        notes.contains("frames from ../../IMAGES/OFFICER beside the ANI's folder"),
        "{notes}"
    );
    assert!(
        notes.contains("drawn with ../../PALETTES/MAIN.PAL"),
        "{notes}"
    );
    // Image 6 is missing: one placeholder, named.
    assert!(notes.contains("1 image(s)"), "{notes}");
    let frames = common::gif_frames(&beside);
    assert_eq!(frames.len(), 6);
    // Frames differ (each gem moved by its own hotspot), and are not placeholders.
    assert_ne!(frames[0].buffer(), frames[1].buffer());
    assert!(
        frames[0]
            .buffer()
            .pixels()
            .all(|p| p.0 != [255, 0, 255, 255])
    );

    // --frames naming the PID folder, with --palette.
    let (named, _) = gif(
        dir.path(),
        &[
            "convert",
            ani,
            "--frames",
            "LEVEL1/IMAGES/OFFICER",
            "--palette",
            "LEVEL1/PALETTES/MAIN.PAL",
        ],
    );
    assert_eq!(named, beside);

    // The PNG route: the PIDs converted to PNG by levelkit keep their hotspots.
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "LEVEL1/IMAGES/OFFICER",
            "--to",
            "png",
            "--out",
            "pngs",
            "--palette",
            "LEVEL1/PALETTES/MAIN.PAL",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (pngs, _) = gif(dir.path(), &["convert", ani, "--frames", "pngs"]);
    assert_eq!(pngs, beside);

    // The same files in a REZ: found by the ANI's place, or named inside the game.
    let run = levelkit(dir.path(), &["pack", "LEVEL1", "game.rez"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    fs::create_dir_all(dir.path().join("x/ANIS/OFFICER")).unwrap();
    fs::copy(
        dir.path().join(ani),
        dir.path().join("x/ANIS/OFFICER/STAND.ANI"),
    )
    .unwrap();
    let (from_rez, notes) = gif(
        dir.path(),
        &["convert", "x/ANIS/OFFICER/STAND.ANI", "--game", "game.rez"],
    );
    assert!(notes.contains("the game's IMAGES/OFFICER"), "{notes}");
    assert_eq!(from_rez, beside);
    fs::copy(dir.path().join(ani), dir.path().join("lone.ani")).unwrap();
    let (inside, _) = gif(
        dir.path(),
        &[
            "convert",
            "lone.ani",
            "--game",
            "game.rez",
            "--frames",
            "IMAGES/OFFICER",
        ],
    );
    assert_eq!(inside, beside);
}

#[test]
fn frames_that_are_nowhere_are_a_usage_error_or_a_note() {
    let dir = common::tempdir();
    game_folder(dir.path());
    let ani = "LEVEL1/ANIS/OFFICER/STAND.ANI";
    let run = levelkit(dir.path(), &["pack", "LEVEL1", "game.rez"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = levelkit(
        dir.path(),
        &[
            "convert", ani, "o.gif", "--game", "game.rez", "--frames", "NOPE",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--frames NOPE"), "{}", run.stderr);
    let run = levelkit(dir.path(), &["convert", ani, "o.gif", "--frames", "NOPE"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // An ANI alone: placeholders, and what to do about it.
    fs::copy(dir.path().join(ani), dir.path().join("lone.ani")).unwrap();
    let run = levelkit(dir.path(), &["convert", "lone.ani", "lone.gif"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("no frames"), "{}", run.stderr);
    assert!(run.stderr.contains("6 image(s)"), "{}", run.stderr);
}

#[test]
fn crazyhook_anis_play_their_pid_folder_as_the_png_route_does() {
    let Some(crazyhook) = common::corpus("the CrazyHook ANIs").map(|c| c.join("wap32/crazyhook"))
    else {
        return;
    };
    let dir = common::tempdir();
    let images = crazyhook.join("IMAGES");
    let run = levelkit(
        dir.path(),
        &[
            "convert".as_ref(),
            images.as_os_str(),
            "--to".as_ref(),
            "png".as_ref(),
            "--out".as_ref(),
            "pngs".as_ref(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = levelkit(
        dir.path(),
        &[
            "convert".as_ref(),
            crazyhook.join("ANIS").as_os_str(),
            "--to".as_ref(),
            "gif".as_ref(),
            "--out".as_ref(),
            "batch".as_ref(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("converted 3, failed 0"),
        "{}",
        run.stderr
    );
    let mut frames_seen = Vec::new();
    for name in ["ADVANCE", "IDLE1", "STRIKE1"] {
        let ani = crazyhook.join(format!("ANIS/{name}.ANI"));
        let ani_s = ani.to_str().unwrap();
        let (beside, notes) = gif(dir.path(), &["convert", ani_s]);
        assert!(notes.contains("frames from ../IMAGES"), "{notes}");
        assert!(!notes.contains("not found"), "{name}: {notes}");
        let (pids, _) = gif(
            dir.path(),
            &["convert", ani_s, "--frames", images.to_str().unwrap()],
        );
        let (pngs, _) = gif(dir.path(), &["convert", ani_s, "--frames", "pngs"]);
        assert_eq!(beside, pids, "{name}");
        assert_eq!(beside, pngs, "{name}: the PNG route differs");
        let batch = fs::read(dir.path().join(format!("batch/{name}.gif"))).unwrap();
        assert_eq!(batch, beside, "{name}: batch differs");
        let records = Ani::read(&fs::read(&ani).unwrap()).unwrap().records.len();
        frames_seen.push((name, common::gif_frames(&beside).len(), records));
    }
    // ADVANCE, IDLE1 and STRIKE1 have 4, 11 and 5 records; a GIF frame each.
    for (name, frames, records) in &frames_seen {
        assert_eq!(frames, records, "{name}");
    }
}
