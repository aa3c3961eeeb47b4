//! Tiled export and import throughput for the largest level at hand: time per level (the
//! figure issue 4 asks for) and MB/s of map text.
//!
//! Input: with `LEVELKIT_CORPUS` set, the corpus WWD with the largest uncompressed image
//! (`$LEVELKIT_CORPUS/wwd/*`, bad signatures left out); otherwise a generated
//! `claw_like_sized(384, 96, 1000)`.
//!
//! * `export_*`: level bytes -> model -> TileMap -> TMX/TMJ bytes (what `levelkit convert
//!   level.wwd level.tmx` does, less the tileset images, which `tileset_images` measures).
//! * `import_*`: TMX/TMJ bytes -> TileMap -> level -> level bytes (`levelkit convert level.tmx
//!   level.wwd`).
//!
//! `cargo bench -p levelkit --bench tiled` (and again with `LEVELKIT_CORPUS=/work/shared/corpus`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use levelkit::formats::wwd::{self, WriteOptions};
use levelkit::picture as png;
use levelkit::tiled::{LayerEncoding, TiledOptions, to_tmj, to_tmx};
use levelkit::tiled::{from_tmj, from_tmx};

fn main() {
    let i = &*INPUT;
    eprintln!(
        "tiled bench input: {} ({} bytes; TMX csv {} bytes, TMX zlib {} bytes, TMJ {} bytes)",
        i.name,
        i.level.len(),
        i.tmx_csv.len(),
        i.tmx_zlib.len(),
        i.tmj.len()
    );
    divan::main();
}

struct Input {
    name: String,
    level: Vec<u8>,
    tmx_csv: Vec<u8>,
    tmx_zlib: Vec<u8>,
    tmj: Vec<u8>,
}

static INPUT: LazyLock<Input> = LazyLock::new(load);

fn zlib() -> TiledOptions {
    TiledOptions {
        encoding: LayerEncoding::Base64Zlib,
        ..TiledOptions::default()
    }
}

fn load() -> Input {
    let corpus = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty());
    let (name, level) = match corpus {
        Some(dir) => {
            let dir = PathBuf::from(dir).join("wwd");
            let mut best: Option<(usize, String, Vec<u8>)> = None;
            for e in std::fs::read_dir(&dir).expect("LEVELKIT_CORPUS/wwd") {
                let path = e.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if name.contains("badsig") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let plain = wwd::read(&bytes)
                    .unwrap()
                    .write_with(&WriteOptions {
                        compress: Some(false),
                        ..WriteOptions::default()
                    })
                    .unwrap()
                    .len();
                if best.as_ref().is_none_or(|b| plain > b.0) {
                    best = Some((plain, name, bytes));
                }
            }
            let (plain, name, bytes) = best.expect("a WWD file in the corpus");
            (
                format!("{name} (LEVELKIT_CORPUS, {plain} bytes uncompressed)"),
                bytes,
            )
        }
        None => (
            "claw_like_sized(384, 96, 1000)".to_owned(),
            wwd::samples::claw_like_sized(384, 96, 1000)
                .write()
                .unwrap(),
        ),
    };
    let (map, _) = wwd::read(&level).unwrap().to_tilemap();
    Input {
        name,
        tmx_csv: to_tmx(&map, &TiledOptions::default()).unwrap(),
        tmx_zlib: to_tmx(&map, &zlib()).unwrap(),
        tmj: to_tmj(&map, &TiledOptions::default()).unwrap(),
        level,
    }
}

fn export(options: &TiledOptions, json: bool) -> Vec<u8> {
    let level = wwd::read(black_box(&INPUT.level)).unwrap();
    let (map, _) = level.to_tilemap();
    if json {
        to_tmj(&map, options).unwrap()
    } else {
        to_tmx(&map, options).unwrap()
    }
}

#[divan::bench]
fn export_tmx_csv(bencher: Bencher) {
    let options = TiledOptions::default();
    bencher
        .counter(BytesCount::new(INPUT.tmx_csv.len()))
        .bench(|| export(&options, false));
}

#[divan::bench]
fn export_tmx_zlib(bencher: Bencher) {
    let options = zlib();
    bencher
        .counter(BytesCount::new(INPUT.tmx_zlib.len()))
        .bench(|| export(&options, false));
}

#[divan::bench]
fn export_tmj(bencher: Bencher) {
    let options = TiledOptions::default();
    bencher
        .counter(BytesCount::new(INPUT.tmj.len()))
        .bench(|| export(&options, true));
}

/// Generated tileset images, encoded as PNG (the rest of `convert level.wwd level.tmx`).
#[divan::bench]
fn tileset_images(bencher: Bencher) {
    let (map, _) = wwd::read(&INPUT.level).unwrap().to_tilemap();
    bencher
        .counter(ItemsCount::new(map.tilesets.len()))
        .bench(|| {
            map.tilesets
                .iter()
                .map(|ts| {
                    png::encode_png(&png::tileset_image(ts).unwrap())
                        .unwrap()
                        .len()
                })
                .sum::<usize>()
        });
}

fn import(bytes: &[u8], json: bool) -> Vec<u8> {
    let read = if json {
        from_tmj(black_box(bytes)).unwrap()
    } else {
        from_tmx(black_box(bytes)).unwrap()
    };
    let (level, _) = wwd::from_tilemap(&read.map).unwrap();
    level.write().unwrap()
}

#[divan::bench]
fn import_tmx_csv(bencher: Bencher) {
    let data = &INPUT.tmx_csv;
    assert!(import(data, false) == INPUT.level, "import is not lossless");
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| import(data, false));
}

#[divan::bench]
fn import_tmx_zlib(bencher: Bencher) {
    let data = &INPUT.tmx_zlib;
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| import(data, false));
}

#[divan::bench]
fn import_tmj(bencher: Bencher) {
    let data = &INPUT.tmj;
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| import(data, true));
}
