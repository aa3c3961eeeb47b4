//! PNG encoding throughput (`encoding::encode_png` through the public writers), in MB/s of
//! pixel bytes (RGBA, or one index per pixel for PIDs):
//!
//! * `textures`: the skins of the corpus' ten largest MDLs (`$LEVELKIT_CORPUS/gamestudio`),
//!   or, without the corpus, generated 256 × 256 skins of flat patches; each alone, and all of
//!   them as one model's textures (`gltf::write`, which encodes them on several cores);
//! * `level_picture`: a generated level drawn by `picture::render` (a large, repetitive image);
//! * `gradient`: a smooth 1024 × 1024 RGBA gradient (adaptive filtering's case);
//! * `pid_indexed`: the corpus' WAP32 PIDs (`wap32/**.pid`) as indexed PNGs, or generated ones.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench png`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::mdl::{self, Mdl};
use levelkit::formats::pid::{Pid, samples as pid_samples};
use levelkit::gltf::{self, GltfOptions};
use levelkit::picture::{self, Image};
use levelkit::scene::{Scene, TextureSource};

fn main() {
    divan::main();
}

fn corpus() -> Option<PathBuf> {
    std::env::var_os("LEVELKIT_CORPUS")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
}

/// Every file under `dir` whose extension is `ext` (any case).
fn walk(dir: &Path, ext: &str, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, ext, into);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case(ext))
        {
            into.push(path);
        }
    }
}

/// RGBA skins: the ten largest corpus MDLs' (their scenes' pixel textures), or generated ones.
static TEXTURES: LazyLock<Vec<Image>> = LazyLock::new(|| {
    let mut images = Vec::new();
    if let Some(root) = corpus() {
        let mut files = Vec::new();
        walk(&root.join("gamestudio"), "mdl", &mut files);
        files.sort_by_key(|p| std::cmp::Reverse(std::fs::metadata(p).unwrap().len()));
        for path in files.iter().take(10) {
            let Ok(model) = Mdl::read(&std::fs::read(path).unwrap()) else {
                continue;
            };
            let (scene, _) = mdl::scene::to_scene(&model);
            for t in scene.textures {
                if let TextureSource::Pixels {
                    width,
                    height,
                    channels: 4,
                    data,
                } = t.source
                {
                    images.push(image(width, height, data));
                }
            }
        }
    }
    if images.is_empty() {
        for seed in 0..8u32 {
            let rgba = (0..256 * 256u32)
                .flat_map(|i| {
                    let (x, y) = (i % 256, i / 256);
                    let patch = ((x / 16) * 7 + (y / 16) * 13 + seed) % 11;
                    [
                        (patch * 23) as u8,
                        (patch * 41) as u8,
                        (patch * 67) as u8,
                        255,
                    ]
                })
                .collect();
            images.push(image(256, 256, rgba));
        }
    }
    eprintln!(
        "png bench: {} textures, {} pixel bytes",
        images.len(),
        images.iter().map(|i| i.rgba.len()).sum::<usize>()
    );
    images
});

fn image(width: u32, height: u32, rgba: Vec<u8>) -> Image {
    Image {
        width,
        height,
        rgba,
        columns: 0,
    }
}

/// Each texture encoded alone.
#[divan::bench]
fn textures(bencher: Bencher) {
    let images = &*TEXTURES;
    let bytes: usize = images.iter().map(|i| i.rgba.len()).sum();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        images
            .iter()
            .map(|i| picture::encode_png(divan::black_box(i)).unwrap().len())
            .sum::<usize>()
    });
}

/// All the textures as one model's, written as `.glb` (encoded on several cores).
#[divan::bench]
fn textures_in_one_glb(bencher: Bencher) {
    let images = &*TEXTURES;
    let bytes: usize = images.iter().map(|i| i.rgba.len()).sum();
    let mut scene = Scene::new(levelkit::registry::Format::Mdl);
    for i in images {
        scene.textures.push(levelkit::scene::Texture {
            name: None,
            source: TextureSource::Pixels {
                width: i.width,
                height: i.height,
                channels: 4,
                data: i.rgba.clone(),
            },
            extras: Default::default(),
        });
    }
    let options = GltfOptions {
        binary: true,
        embed: true,
        stem: "model".into(),
    };
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        gltf::write(divan::black_box(&scene), &options)
            .unwrap()
            .main
            .len()
    });
}

/// A generated level's picture (`picture::render`): large and repetitive.
#[divan::bench]
fn level_picture(bencher: Bencher) {
    let level = levelkit::formats::wwd::samples::claw_like();
    let (map, _) = level.to_tilemap();
    let image = picture::render(&map, &picture::RenderOptions::default()).unwrap();
    bencher
        .counter(BytesCount::new(image.rgba.len()))
        .bench(|| picture::encode_png(divan::black_box(&image)).unwrap().len());
}

/// A smooth 1024 × 1024 gradient.
#[divan::bench]
fn gradient(bencher: Bencher) {
    let rgba = (0..1024 * 1024u32)
        .flat_map(|i| {
            let (x, y) = (i % 1024, i / 1024);
            [(x / 4) as u8, (y / 4) as u8, ((x + y) / 8) as u8, 255]
        })
        .collect();
    let image = image(1024, 1024, rgba);
    bencher
        .counter(BytesCount::new(image.rgba.len()))
        .bench(|| picture::encode_png(divan::black_box(&image)).unwrap().len());
}

/// The corpus PIDs (or 64 generated sprites) as indexed PNGs with their own palettes (or a
/// grey one).
#[divan::bench]
fn pid_indexed(bencher: Bencher) {
    let mut pids: Vec<Pid> = Vec::new();
    if let Some(root) = corpus() {
        let mut files = Vec::new();
        walk(&root.join("wap32"), "pid", &mut files);
        files.sort();
        pids.extend(
            files
                .iter()
                .filter_map(|p| Pid::read(&std::fs::read(p).unwrap()).ok()),
        );
    }
    if pids.is_empty() {
        pids = (0..64u64)
            .map(|seed| pid_samples::generate(seed, 64, 64, seed % 2 == 0))
            .collect();
    }
    let grey = levelkit::formats::pid::Palette::from_fn(|i| [i, i, i]);
    let bytes: usize = pids.iter().map(|p| p.pixels.len()).sum();
    eprintln!("png bench: {} PIDs, {bytes} pixel bytes", pids.len());
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        pids.iter()
            .map(|p| {
                levelkit::formats::pid::png::pid_to_png(divan::black_box(p), Some(&grey))
                    .unwrap()
                    .len()
            })
            .sum::<usize>()
    });
}
