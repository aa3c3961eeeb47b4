//! 3D GameStudio throughput: read + resolve + export to `.glb` of the largest corpus level of
//! each kind (WMPB and text `.wmp`, under `$LEVELKIT_CORPUS/wmp`; without the corpus, the
//! bundled sample level), plus reading and writing alone and compiling to `$$M`. MB/s are of
//! input bytes.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench wmp`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::Format;
use levelkit::formats::wmp::{self, binary::Wmpb, text::WmpText};
use levelkit::gltf::{self, GltfOptions};

mod common;

fn main() {
    divan::main();
}

fn sample() -> Vec<u8> {
    let (text, _) = WmpText::from_level(&wmp::samples::room(), wmp::text::Dialect::V710).unwrap();
    text.write().unwrap()
}

fn is_wmpb(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "wmp")
        && std::fs::read(p).is_ok_and(|b| b.starts_with(b"WMPB"))
}

fn is_text(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "wmp")
        && std::fs::read(p).is_ok_and(|b| !b.starts_with(b"WMPB"))
}

static BINARY: LazyLock<Option<Vec<u8>>> = LazyLock::new(|| {
    let p = common::largest("wmp", &is_wmpb)?;
    eprintln!("wmp bench WMPB input: {}", p.display());
    Some(std::fs::read(p).unwrap())
});

static TEXT: LazyLock<Vec<u8>> = LazyLock::new(|| match common::largest("wmp", &is_text) {
    Some(p) => {
        eprintln!("wmp bench text input: {}", p.display());
        std::fs::read(p).unwrap()
    }
    None => {
        eprintln!("wmp bench text input: the bundled sample (LEVELKIT_CORPUS unset)");
        sample()
    }
});

fn glb(level: &wmp::Level, format: Format) -> Vec<u8> {
    let (scene, _) = wmp::to_scene(level, format);
    let options = GltfOptions {
        binary: true,
        embed: true,
        stem: "level".into(),
    };
    gltf::write(&scene, &options).unwrap().main
}

/// Read a WMPB level, resolve its groups and export it as `.glb`.
#[divan::bench]
fn wmpb_to_glb(bencher: Bencher) {
    let Some(data) = BINARY.as_ref() else {
        eprintln!("no WMPB level (LEVELKIT_CORPUS unset): skipped");
        return;
    };
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        let file = Wmpb::read(divan::black_box(data)).unwrap();
        let (level, _) = file.to_level();
        glb(&level, Format::Wmpb)
    });
}

/// Read a WMPB level only.
#[divan::bench]
fn wmpb_read(bencher: Bencher) {
    let Some(data) = BINARY.as_ref() else {
        return;
    };
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| Wmpb::read(divan::black_box(data)).unwrap());
}

/// Read a text level (A4 blocks built from planes), resolve it and export it as `.glb`.
#[divan::bench]
fn text_to_glb(bencher: Bencher) {
    let data = &*TEXT;
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        let file = WmpText::read(divan::black_box(data)).unwrap();
        let (level, _) = wmp::level_of_text(&file);
        glb(&level, Format::WmpText)
    });
}

/// Read a text level only.
#[divan::bench]
fn text_read(bencher: Bencher) {
    let data = &*TEXT;
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| WmpText::read(divan::black_box(data)).unwrap());
}

/// Write a text level back (byte for byte).
#[divan::bench]
fn text_write(bencher: Bencher) {
    let data = &*TEXT;
    let file = WmpText::read(data).unwrap();
    assert_eq!(file.write().unwrap(), *data);
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| divan::black_box(&file).write().unwrap());
}

/// Compile a text level to `$$M` (resolve + write).
#[divan::bench]
fn text_to_dollar_m(bencher: Bencher) {
    let data = &*TEXT;
    let file = WmpText::read(data).unwrap();
    let (level, _) = wmp::level_of_text(&file);
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        let (compiled, _) = wmp::compile(divan::black_box(&level)).unwrap();
        compiled.write().unwrap()
    });
}
