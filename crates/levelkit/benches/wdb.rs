//! `.wdb` throughput on the largest corpus world (`vchat/help/data/world.wdb`, 368,882 bytes,
//! 11 nodes, 9,394 polygons; under `$LEVELKIT_CORPUS`; without the corpus, a generated world of
//! about 4000 nodes): read, write, and the way to glTF (read, `to_scene`, `.glb`), each in MB/s
//! of `.wdb` bytes.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench wdb`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::wdb::{self, Wdb};
use levelkit::gltf::{self, GltfOptions};

fn main() {
    divan::main();
}

/// The largest corpus world (every `vchat/<world>/data/world.wdb`), or a generated one; its
/// model and bytes.
static INPUT: LazyLock<(Wdb, Vec<u8>)> = LazyLock::new(|| {
    let corpus = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty());
    let (what, bytes) = match corpus {
        Some(root) => {
            let dir = std::path::Path::new(&root).join("vchat");
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path().join("data").join("world.wdb"))
                .filter(|p| p.is_file())
                .collect();
            files.sort_by_key(|p| std::fs::metadata(p).unwrap().len());
            let largest = files.last().expect("a corpus world").clone();
            (
                largest.display().to_string(),
                std::fs::read(&largest).unwrap(),
            )
        }
        None => (
            "generated (LEVELKIT_CORPUS unset)".to_owned(),
            wdb::samples::generate(2024, 4000).write().unwrap(),
        ),
    };
    let world = Wdb::read(&bytes).unwrap();
    let s = world.summary();
    eprintln!(
        "wdb bench input: {what}, {} bytes, {} nodes, {} geometries, {} polygons, {} lights",
        bytes.len(),
        s.nodes,
        s.geometries,
        s.polygons,
        s.lights
    );
    (world, bytes)
});

/// Read (every count and length checked against the bytes left).
#[divan::bench]
fn wdb_read(bencher: Bencher) {
    let (_, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| Wdb::read(divan::black_box(bytes)).unwrap().nodes.len());
}

/// Write (validation included: the writer refuses what the reader would read differently).
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
        gltf::write(
            &scene,
            &GltfOptions {
                binary: true,
                embed: true,
                stem: "world".into(),
            },
        )
        .unwrap()
        .main
        .len()
    });
}

/// The part of [`wdb_to_glb`] after reading and before the GLB: `to_scene` alone.
#[divan::bench]
fn wdb_parts_to_scene(bencher: Bencher) {
    let (world, bytes) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(world).to_scene().0.meshes.len());
}
