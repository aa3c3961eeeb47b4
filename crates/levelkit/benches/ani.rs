//! ANI throughput (no real ANI file is public, so the inputs are generated): parsing in MB/s of
//! `.ani` bytes on a large generated file, writing likewise, and the animation exporters in frames
//! per second on a 24-frame animation of 96 × 96 sprites.
//!
//! `cargo bench -p levelkit --bench ani`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use levelkit::anim::{self as anim_write, GifOptions, SheetOptions};
use levelkit::anim::{Animation, Sprite};
use levelkit::formats::ani::{self, Ani};

fn main() {
    divan::main();
}

/// A generated animation of 100 000 records (about 2.5 MB), and its bytes.
static FILE: LazyLock<(Ani, Vec<u8>)> = LazyLock::new(|| {
    let anim = ani::samples::generate(2024, 100_000);
    let bytes = anim.write().unwrap();
    eprintln!(
        "ani bench input: generated, {} bytes, {} records",
        bytes.len(),
        anim.records.len()
    );
    (anim, bytes)
});

/// A 96 × 96 sprite for image `frame`: a disc of one of a few colours on a transparent square,
/// moved by the frame number, like a sprite of a pixel-art image set.
fn sprite(frame: u32) -> Sprite {
    let side = 96u32;
    let mut rgba = Vec::with_capacity((side * side * 4) as usize);
    for y in 0..side {
        for x in 0..side {
            let (dx, dy) = (x as i32 - 48, y as i32 - 48);
            let inside = dx * dx + dy * dy < 40 * 40;
            let shade = ((x / 8 + y / 8 + frame) % 6) as u8;
            rgba.extend_from_slice(&if inside {
                [40 * shade, 200 - 20 * shade, 90, 255]
            } else {
                [0, 0, 0, 0]
            });
        }
    }
    Sprite::centred(side, side, rgba, frame as i32 * 2, 0).unwrap()
}

/// The claw-like sample's records repeated to 24 frames, played with generated sprites.
static PLAYED: LazyLock<Animation> = LazyLock::new(|| {
    let mut a = ani::samples::claw_like();
    let records = a.records.clone();
    a.records = records.iter().cycle().take(24).cloned().collect();
    for (i, r) in a.records.iter_mut().enumerate() {
        r.frame = i as u16;
    }
    let (anim, _) = ani::to_animation(&a, &mut |f| Some(sprite(f))).unwrap();
    eprintln!(
        "ani export input: {} frames of {} x {}",
        anim.frames.len(),
        anim.width,
        anim.height
    );
    anim
});

/// Parse (every count checked, every field kept).
#[divan::bench]
fn ani_read(bencher: Bencher) {
    let (_, bytes) = &*FILE;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| Ani::read(divan::black_box(bytes)).unwrap().records.len());
}

/// Write (validation included).
#[divan::bench]
fn ani_write(bencher: Bencher) {
    let (anim, bytes) = &*FILE;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(anim).write().unwrap().len());
}

/// Records to the common animation with generated sprites (composition included).
#[divan::bench]
fn ani_to_animation(bencher: Bencher) {
    let sprites: Vec<Sprite> = (0..24).map(sprite).collect();
    let mut a = ani::samples::claw_like();
    a.records = (0..24).map(|i| ani::Record::new(i, 80)).collect();
    bencher.counter(ItemsCount::new(24usize)).bench(|| {
        ani::to_animation(divan::black_box(&a), &mut |f| {
            sprites.get(f as usize).cloned()
        })
        .unwrap()
        .0
        .frames
        .len()
    });
}

/// GIF encoding, in frames per second.
#[divan::bench]
fn gif_encode(bencher: Bencher) {
    let anim = &*PLAYED;
    bencher
        .counter(ItemsCount::new(anim.frames.len()))
        .bench(|| {
            anim_write::to_gif(divan::black_box(anim), &GifOptions::default())
                .unwrap()
                .main
                .len()
        });
}

/// Animated PNG encoding, in frames per second.
#[divan::bench]
fn apng_encode(bencher: Bencher) {
    let anim = &*PLAYED;
    bencher
        .counter(ItemsCount::new(anim.frames.len()))
        .bench(|| {
            anim_write::to_apng(divan::black_box(anim))
                .unwrap()
                .main
                .len()
        });
}

/// Sprite sheet (PNG and JSON table), in frames per second.
#[divan::bench]
fn sheet_encode(bencher: Bencher) {
    let anim = &*PLAYED;
    bencher
        .counter(ItemsCount::new(anim.frames.len()))
        .bench(|| {
            anim_write::to_sprite_sheet(divan::black_box(anim), &SheetOptions::default())
                .unwrap()
                .main
                .len()
        });
}
