//! WMB throughput: read + export to `.glb` of the largest corpus WMB (under `$LEVELKIT_CORPUS`;
//! without the corpus, the bundled WMB7 sample), plus reading and writing alone. MB/s are of
//! input bytes.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench wmb`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::wmb;
use levelkit::gltf::{self, GltfOptions};

mod common;

fn main() {
    divan::main();
}

static INPUT: LazyLock<Vec<u8>> =
    LazyLock::new(
        || match common::largest("", &|p| p.extension().is_some_and(|e| e == "wmb")) {
            Some(p) => {
                eprintln!("wmb bench input: {}", p.display());
                std::fs::read(p).unwrap()
            }
            None => {
                eprintln!("wmb bench input: the bundled sample (LEVELKIT_CORPUS unset)");
                wmb::samples::quad_level().write().unwrap()
            }
        },
    );

/// Read a level and export it as `.glb` (textures decoded and PNG-encoded).
#[divan::bench]
fn read_to_glb(bencher: Bencher) {
    let data = &*INPUT;
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        let level = wmb::read(divan::black_box(data)).unwrap();
        let (scene, _) = wmb::to_scene(&level);
        let options = GltfOptions {
            binary: true,
            embed: true,
            stem: "level".into(),
        };
        gltf::write(&scene, &options).unwrap().main
    });
}

/// Read a level only.
#[divan::bench]
fn read(bencher: Bencher) {
    let data = &*INPUT;
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| wmb::read(divan::black_box(data)).unwrap());
}

/// Write a level back (byte for byte).
#[divan::bench]
fn write(bencher: Bencher) {
    let data = &*INPUT;
    let level = wmb::read(data).unwrap();
    assert_eq!(level.write().unwrap(), *data);
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| divan::black_box(&level).write().unwrap());
}

/// Read and export levelkit's lit WMB7 sample (one block, one 256×256 lightmap page: the page
/// is PNG-encoded into the `.glb`); no corpus WMB has lit blocks.
#[divan::bench]
fn lit_sample_read_to_glb(bencher: Bencher) {
    let data = wmb::samples::lit_quad_level().write().unwrap();
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        let level = wmb::read(divan::black_box(&data)).unwrap();
        let (scene, _) = wmb::to_scene(&level);
        assert_eq!(scene.lightmaps.len(), 1);
        let options = GltfOptions {
            binary: true,
            embed: true,
            stem: "level".into(),
        };
        gltf::write(&scene, &options).unwrap().main
    });
}
