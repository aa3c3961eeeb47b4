//! A level drawn with its game's graphics (`--game`): resolving and decoding every image a level
//! names from a REZ archive (images/s, MB/s of PID bytes), the same on all cores, and the full
//! render with the atlases and sprites. The level is the largest of `$LEVELKIT_CORPUS/wwd`
//! (Claw's RETAIL01) when set, else the `claw_like` sample; its game files are generated at the
//! paths it names (`wwd::game_sample`), so no game data is needed.
//!
//! `cargo bench -p levelkit --bench game`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use levelkit::document::game::wwd_art;
use levelkit::formats::pid::{Palette, Pid};
use levelkit::formats::rez::RezIndex;
use levelkit::formats::wwd::{self, Wwd, game_sample, graphics};
use levelkit::picture as png;

fn main() {
    divan::main();
}

/// The level and its archive.
static GAME: LazyLock<(Wwd, Vec<u8>)> = LazyLock::new(|| {
    let largest = std::env::var_os("LEVELKIT_CORPUS")
        .filter(|d| !d.is_empty())
        .and_then(|root| {
            std::fs::read_dir(PathBuf::from(root).join("wwd"))
                .ok()?
                .flatten()
                .map(|e| e.path())
                .filter(|p| !p.to_string_lossy().contains("badsig"))
                .max_by_key(|p| p.metadata().map(|m| m.len()).unwrap_or(0))
        });
    let level = match largest {
        Some(path) => wwd::read(&std::fs::read(path).unwrap()).unwrap(),
        None => wwd::samples::claw_like(),
    };
    let rez = game_sample::rez_for(&level).unwrap();
    eprintln!(
        "game bench: level {:?}, archive {} bytes",
        level.header.name.text.display(),
        rez.len()
    );
    (level, rez)
});

/// Every PID of the archive.
static PIDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let index = RezIndex::read(&GAME.1).unwrap();
    index
        .files()
        .into_iter()
        .filter(|(p, _)| p.ends_with(".PID"))
        .map(|(_, f)| index.data(f).unwrap().to_vec())
        .collect()
});

fn pid_bytes() -> u64 {
    PIDS.iter().map(|p| p.len() as u64).sum()
}

fn decode(bytes: &[u8], palette: &Palette) -> usize {
    let pid = Pid::read(bytes).unwrap();
    let pal = pid.palette_or(Some(palette)).unwrap();
    pid.to_rgba(pal, pid.default_transparency(pal))
        .unwrap()
        .rgba
        .len()
}

#[divan::bench]
fn decode_every_pid_one_core(b: Bencher) {
    let palette = game_sample::palette();
    b.counter(BytesCount::new(pid_bytes()))
        .counter(ItemsCount::new(PIDS.len()))
        .bench(|| PIDS.iter().map(|p| decode(p, &palette)).sum::<usize>());
}

#[divan::bench]
fn decode_every_pid_all_cores(b: Bencher) {
    let palette = game_sample::palette();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = PIDS.len().div_ceil(cores).max(1);
    b.counter(BytesCount::new(pid_bytes()))
        .counter(ItemsCount::new(PIDS.len()))
        .bench(|| {
            std::thread::scope(|s| {
                let handles: Vec<_> = PIDS
                    .chunks(chunk)
                    .map(|part| {
                        let palette = &palette;
                        s.spawn(move || part.iter().map(|p| decode(p, palette)).sum::<usize>())
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap())
                    .sum::<usize>()
            })
        });
}

#[divan::bench]
fn resolve_level_images(b: Bencher) {
    let index = RezIndex::read(&GAME.1).unwrap();
    b.counter(ItemsCount::new(PIDS.len()))
        .bench(|| graphics::resolve(&GAME.0, &index).0.sprites.len());
}

#[divan::bench(sample_count = 10)]
fn render_with_game(b: Bencher) {
    let index = RezIndex::read(&GAME.1).unwrap();
    let (map, _) = GAME.0.to_tilemap();
    b.bench(|| {
        let (art, _) = wwd_art(&GAME.0, &map, &index);
        let options = png::RenderOptions {
            scale: png::Scale::Fit,
            tileset_images: art.tileset_images,
            sprites: art.sprites,
            ..png::RenderOptions::default()
        };
        png::render(&map, &options).unwrap().rgba.len()
    });
}
