//! `.hmp` throughput on a large generated terrain (the one real file is 44 KB): read, write,
//! and the way to glTF (read, `to_scene`, `.glb`), each in MB/s of `.hmp` bytes.
//!
//! `cargo bench -p levelkit --bench hmp`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::hmp::{self, Hmp, HmpVersion};
use levelkit::gltf::{self, GltfOptions};

fn main() {
    divan::main();
}

/// A generated 513 × 513 HMP7 terrain (about 1 MB), and its bytes.
static INPUT: LazyLock<(Hmp, Vec<u8>)> = LazyLock::new(|| {
    let terrain = hmp::samples::terrain(HmpVersion::Hmp7, 513, 513);
    let bytes = terrain.write().unwrap();
    eprintln!(
        "hmp bench input: generated HMP7, {} bytes, {} vertices",
        bytes.len(),
        terrain.header.num_verts
    );
    (terrain, bytes)
});

/// Read (every count checked).
#[divan::bench]
fn hmp_read(bencher: Bencher) {
    let (_, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| Hmp::read(divan::black_box(bytes)).unwrap().frames.len());
}

/// Write (the writer's consistency checks included).
#[divan::bench]
fn hmp_write(bencher: Bencher) {
    let (terrain, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(terrain).write().unwrap().len());
}

/// `.hmp` bytes -> `.glb` bytes: read, the terrain mesh, triangulation, the skin as PNG, GLB.
#[divan::bench]
fn hmp_to_glb(bencher: Bencher) {
    let (_, bytes) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let (scene, _) = hmp::to_scene(&Hmp::read(divan::black_box(bytes)).unwrap());
        gltf::write(&scene, &GltfOptions::default())
            .unwrap()
            .main
            .len()
    });
}
