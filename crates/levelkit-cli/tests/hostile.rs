//! The hostile inputs of `../shared/hostile/README.md` that are not archives or the viewer
//! (those are in `rez_safety.rs` and `view_server.rs`): each file there, and each case the
//! README generates on demand, made here the same way. Every run is the release of a user's
//! command under `ulimit -v 2000000` (2 GB of address space) and must end within 5 s
//! ([`common::bounded`]) with the expected outcome: a bounded result, or a clear refusal naming
//! the limit, never an abort.
//!
//! Without `../shared` beside the workspace the cases on its files print a `SKIP:` line and
//! pass; the generated cases always run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::{Run, bounded, hostile, levelkit, ok};

/// The default memory limit of an export step, as the messages give it.
const LIMIT: &str = "the limit is 536870912";

/// An honest 8-bit PCX of `w` x `h` pixels of one colour: each row run-length encoded, 128
/// bytes of header, the 256-colour palette at the end.
fn pcx(w: u16, h: u16) -> Vec<u8> {
    let mut out = vec![0u8; 128];
    out[..4].copy_from_slice(&[10, 5, 1, 8]);
    for (at, v) in [
        (8, w - 1),
        (10, h - 1),
        (12, 72),
        (14, 72),
        (66, w),
        (68, 1),
    ] {
        out[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    out[65] = 1;
    let mut row = Vec::new();
    let mut left = w;
    while left > 0 {
        let n = left.min(63);
        row.extend_from_slice(&[0xC0 | n as u8, 7]);
        left -= n;
    }
    for _ in 0..h {
        out.extend_from_slice(&row);
    }
    out.push(12);
    for _ in 0..3 {
        out.extend(0..=255u8);
    }
    out
}

/// An honest PID of `w` x `h` transparent pixels in the skip grammar (one byte says 127).
fn pid(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [10u32, 0x21, w, h, 0, 0, 0, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let n = u64::from(w) * u64::from(h);
    out.resize(out.len() + (n / 127) as usize, 0xFF);
    if n % 127 != 0 {
        out.push(0x80 + (n % 127) as u8);
    }
    out
}

/// A `.gmap` of `n` x `n` cells all naming `one.nw` (the sample village), in `dir`.
fn gmap(dir: &Path, n: usize) {
    let row = vec!["\"one.nw\""; n].join(",");
    let mut text = format!("GRMAP001\nWIDTH {n}\nHEIGHT {n}\nLEVELNAMES\n");
    for _ in 0..n {
        text.push_str(&row);
        text.push_str(",\n");
    }
    text.push_str("LEVELNAMESEND\n");
    fs::write(dir.join("world.gmap"), text).unwrap();
    fs::copy(common::samples().join("village.nw"), dir.join("one.nw")).unwrap();
}

fn refused_at_the_limit(run: &Run, what: &str) {
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains(what), "{run:?}");
    assert!(run.stderr.contains(LIMIT), "{run:?}");
    assert!(!run.stderr.contains("memory allocation"), "{run:?}");
}

/// Bytes of every file under `dir`.
fn bytes_under(dir: &Path) -> u64 {
    common::tree(dir)
        .iter()
        .filter_map(|p| fs::metadata(dir.join(p)).ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

#[test]
fn wwd_tileset_amplification_gives_small_tilesets() {
    for name in [
        "wwd/tileset-amplification-1set.wwd",
        "wwd/tileset-amplification-8sets.wwd",
    ] {
        let Some(wwd) = hostile(name) else {
            return;
        };
        let wwd = wwd.to_str().unwrap();
        for (command, out) in [
            ("convert", "o.tmx"),
            ("convert", "o.png"),
            ("render", "o.png"),
        ] {
            let dir = common::tempdir();
            let Some(run) = bounded(dir.path(), &[command, wwd, out]) else {
                return;
            };
            ok(&run);
            // Was an 8192 x 8192 atlas (a 6 MB PNG) per image set.
            let total = bytes_under(dir.path());
            assert!(
                total < 1 << 20,
                "{name} {command} {out}: {total} bytes written"
            );
        }
    }
}

#[test]
fn huge_pcx_pictures_are_refused_at_the_limit() {
    let dir = common::tempdir();
    for side in [16000u16, 23000] {
        let name = format!("big{side}.pcx");
        fs::write(dir.path().join(&name), pcx(side, side)).unwrap();
        let run = bounded(dir.path(), &["convert", &name, "o.png"]).unwrap();
        refused_at_the_limit(&run, &format!("{side} x {side} pixels in RGBA"));
        assert!(!dir.path().join("o.png").exists());
    }
}

#[test]
fn a_huge_texture_beside_a_level_is_left_out_with_a_warning() {
    let dir = common::tempdir();
    fs::copy(
        common::samples().join("room.wmp"),
        dir.path().join("room.wmp"),
    )
    .unwrap();
    fs::write(dir.path().join("floor.pcx"), pcx(16000, 16000)).unwrap();
    let run = bounded(dir.path(), &["convert", "room.wmp", "o.glb"]).unwrap();
    ok(&run);
    assert!(
        run.stderr.contains("texture file floor.pcx is not drawn") && run.stderr.contains(LIMIT),
        "{run:?}"
    );
    let glb = fs::metadata(dir.path().join("o.glb")).unwrap().len();
    assert!(glb < 1 << 20, "{glb} bytes");
}

#[test]
fn a_huge_pid_is_refused_as_json_and_written_as_an_indexed_png() {
    let dir = common::tempdir();
    fs::write(dir.path().join("big.pid"), pid(23000, 23000)).unwrap();
    let run = bounded(dir.path(), &["convert", "big.pid", "o.json"]).unwrap();
    refused_at_the_limit(&run, "the JSON text of the pixels");
    assert!(!dir.path().join("o.json").exists());
    // As an indexed PNG it is one byte a pixel, and the rows are deflated a piece at a time.
    let pal = common::tempdir();
    ok(&levelkit(
        pal.path(),
        &[
            "extract",
            common::samples().join("claw.rez").to_str().unwrap(),
            "game",
        ],
    ));
    let main_pal = pal.path().join("game/LEVEL1/PALETTES/MAIN.PAL");
    let run = bounded(
        dir.path(),
        &[
            "convert",
            "big.pid",
            "o.png",
            "--palette",
            main_pal.to_str().unwrap(),
        ],
    )
    .unwrap();
    ok(&run);
    let png = fs::read(dir.path().join("o.png")).unwrap();
    assert_eq!(common::png_size(&png), (23000, 23000));
}

#[test]
fn a_huge_pid_inside_a_rez_is_bounded() {
    let dir = common::tempdir();
    let samples = common::samples();
    ok(&levelkit(
        dir.path(),
        &[
            "extract",
            samples.join("claw.rez").to_str().unwrap(),
            "game",
        ],
    ));
    fs::write(
        dir.path().join("game/LEVEL1/IMAGES/OFFICER/FRAME001.PID"),
        pid(23000, 23000),
    )
    .unwrap();
    ok(&levelkit(dir.path(), &["pack", "game", "big.rez"]));
    // The level's picture: the officer is left out, named, the rest drawn.
    let wwd = samples.join("claw-like.wwd");
    let run = bounded(
        dir.path(),
        &[
            "render",
            wwd.to_str().unwrap(),
            "o.png",
            "--game",
            "big.rez",
        ],
    )
    .unwrap();
    ok(&run);
    assert!(
        run.stderr.contains("LEVEL1/IMAGES/OFFICER/FRAME001.PID") && run.stderr.contains(LIMIT),
        "{run:?}"
    );
    // Every PID as PNG, the huge one included (indexed, deflated a piece at a time).
    let run = bounded(dir.path(), &["extract", "big.rez", "out", "--to", "png"]).unwrap();
    ok(&run);
    let png = fs::read(dir.path().join("out/LEVEL1/IMAGES/OFFICER/FRAME001.png")).unwrap();
    assert_eq!(common::png_size(&png), (23000, 23000));
}

#[test]
fn a_gmap_naming_one_level_everywhere_draws_it_once() {
    for n in [300, 1000] {
        let dir = common::tempdir();
        gmap(dir.path(), n);
        let run = bounded(dir.path(), &["render", "world.gmap", "o.png"]).unwrap();
        ok(&run);
        assert!(dir.path().join("o.png").is_file());
    }
}

#[test]
fn a_gani_of_100000_sprites_in_one_frame_is_bounded() {
    let dir = common::tempdir();
    fs::copy(
        common::samples().join("dust.png"),
        dir.path().join("dust.png"),
    )
    .unwrap();
    let parts: Vec<String> = (0..100_000)
        .map(|i| format!("0 {} {}", i % 500, i / 500))
        .collect();
    fs::write(
        dir.path().join("crowd.gani"),
        format!(
            "GANI0001\nSPRITE 0 dust.png 0 0 16 8 puff\n\nSINGLEDIRECTION\n\nANI\n{}\nANIEND\n",
            parts.join(",")
        ),
    )
    .unwrap();
    let run = bounded(dir.path(), &["convert", "crowd.gani", "o.gif"]).unwrap();
    ok(&run);
    assert!(dir.path().join("o.gif").is_file());
}
