//! Graal `.gani` drawn and encoded: every corpus gani (`$LEVELKIT_CORPUS/gani`, with the images
//! of `$LEVELKIT_CORPUS/graal/images`), every direction, to GIF, in frames per second; and the
//! drawing alone (gani model to composed frames). Without the corpus, the bundled `walk_like`
//! sample is drawn with placeholders.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench gani_render`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use levelkit::Limits;
use levelkit::anim::Sprite;
use levelkit::anim::{GifOptions, to_gif};
use levelkit::formats::graal::gani::{self, Gani, render};

fn main() {
    divan::main();
}

/// The ganis and the decoded images by file name.
struct Input {
    ganis: Vec<Gani>,
    images: HashMap<String, Sprite>,
    frames: usize,
}

static INPUT: LazyLock<Input> = LazyLock::new(|| {
    let root = std::env::var_os("LEVELKIT_CORPUS")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let mut ganis = Vec::new();
    let mut images = HashMap::new();
    if let Some(root) = &root {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("gani"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "gani"))
            .collect();
        paths.sort();
        for p in paths {
            ganis.push(Gani::read(&std::fs::read(p).unwrap()).unwrap());
        }
        for e in std::fs::read_dir(root.join("graal/images")).unwrap() {
            let p = e.unwrap().path();
            let Ok(img) = image::open(&p) else { continue };
            let img = img.to_rgba8();
            let (w, h) = img.dimensions();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            images.insert(name, Sprite::new(w, h, img.into_raw(), (0, 0)).unwrap());
        }
    } else {
        ganis.push(gani::samples::walk_like());
    }
    let frames = ganis
        .iter()
        .map(|g| g.frames().count() * g.direction_count())
        .sum();
    eprintln!(
        "gani_render bench input: {} ganis, {frames} frames over all directions, {} images",
        ganis.len(),
        images.len()
    );
    Input {
        ganis,
        images,
        frames,
    }
});

fn draw_all(input: &Input) -> Vec<render::Rendered> {
    let mut out = Vec::new();
    for g in &input.ganis {
        let (r, _) = render::render_all(
            g,
            &render::directions(g),
            &mut |n| input.images.get(n).cloned(),
            &Limits::default(),
        )
        .unwrap();
        out.extend(r);
    }
    out
}

/// Every corpus gani, every direction, drawn and encoded as GIF.
#[divan::bench(sample_count = 10)]
fn gani_to_gif(bencher: Bencher) {
    let input = &*INPUT;
    bencher.counter(ItemsCount::new(input.frames)).bench(|| {
        let mut bytes = 0;
        for r in draw_all(input) {
            bytes += to_gif(&r.animation, &GifOptions::default())
                .unwrap()
                .main
                .len();
        }
        bytes
    });
}

/// The drawing alone: ganis to composed frames.
#[divan::bench(sample_count = 20)]
fn gani_draw(bencher: Bencher) {
    let input = &*INPUT;
    bencher
        .counter(ItemsCount::new(input.frames))
        .bench(|| draw_all(input).len());
}
