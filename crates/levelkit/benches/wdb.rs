//! `.wdb` throughput on a large generated world (no real world is public): read, write, and the
//! way to glTF (read, `to_scene`, `.glb`), each in MB/s of `.wdb` bytes.
//!
//! `cargo bench -p levelkit --bench wdb`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::export::gltf::{self, GltfOptions};
use levelkit::formats::wdb::{self, Wdb};

fn main() {
    divan::main();
}

/// A generated world of about 4000 nodes, and its bytes.
static INPUT: LazyLock<(Wdb, Vec<u8>)> = LazyLock::new(|| {
    let world = wdb::samples::generate(2024, 4000);
    let bytes = world.write().unwrap();
    let s = world.summary();
    eprintln!(
        "wdb bench input: generated, {} bytes, {} nodes, {} geometries, {} polygons, {} lights",
        bytes.len(),
        s.nodes,
        s.geometries,
        s.polygons,
        s.lights
    );
    (world, bytes)
});

/// Read (every count and hypothesis checked).
#[divan::bench]
fn wdb_read(bencher: Bencher) {
    let (_, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| Wdb::read(divan::black_box(bytes)).unwrap().nodes.len());
}

/// Write (validation included: the writer refuses what the reader would).
#[divan::bench]
fn wdb_write(bencher: Bencher) {
    let (world, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(world).write().unwrap().len());
}

/// `.wdb` bytes -> `.glb` bytes: read, the scene, triangulation, normals, GLB.
#[divan::bench]
fn wdb_to_glb(bencher: Bencher) {
    let (_, bytes) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let (scene, _) = Wdb::read(divan::black_box(bytes)).unwrap().to_scene();
        gltf::write(&scene, &GltfOptions::default())
            .unwrap()
            .main
            .len()
    });
}

/// The parts of [`wdb_to_glb`] after reading: `to_scene` alone.
#[divan::bench]
fn wdb_parts_to_scene(bencher: Bencher) {
    let (world, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(world).to_scene().0.meshes.len());
}
