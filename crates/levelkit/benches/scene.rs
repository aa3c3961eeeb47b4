//! 3D bridge throughput: `.wings -> Scene -> .glb` (and `.obj`) of the largest `.wings` under
//! `$LEVELKIT_CORPUS/wings` (else the bundled sample), in MB/s of `.wings` bytes, plus
//! `.glb -> Scene -> .wings`.
//!
//! The whole-process comparison with Wings 3D's own glTF export (issue 6) is made with the CLI
//! and the oracle: `time levelkit convert big.wings big.glb` against
//! `time ../shared/oracles/wings_oracle.sh export big.wings big.glb`.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench scene`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::wings::{self, Wings};
use levelkit::{gltf, obj};

mod common;

fn main() {
    divan::main();
}

static INPUT: LazyLock<Vec<u8>> = LazyLock::new(|| match common::largest_wings() {
    Some(p) => {
        eprintln!("scene bench input: {}", p.display());
        std::fs::read(p).unwrap()
    }
    None => {
        eprintln!("scene bench input: the bundled sample (set LEVELKIT_CORPUS)");
        wings::samples::cube().unwrap().write().unwrap()
    }
});

static GLB: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let (scene, _) = Wings::read(&INPUT).unwrap().to_scene();
    gltf::write(
        &scene,
        &gltf::GltfOptions {
            binary: true,
            embed: true,
            stem: "model".into(),
        },
    )
    .unwrap()
    .main
});

/// `.wings` bytes -> `.glb` bytes: read, the scene, triangulation, normals, GLB.
#[divan::bench]
fn wings_to_glb(bencher: Bencher) {
    let bytes = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let (scene, _) = Wings::read(divan::black_box(bytes)).unwrap().to_scene();
        gltf::write(
            &scene,
            &gltf::GltfOptions {
                binary: true,
                embed: true,
                stem: "model".into(),
            },
        )
        .unwrap()
        .main
        .len()
    });
}

/// `.wings` bytes -> `.obj` + `.mtl` bytes (polygons kept).
#[divan::bench]
fn wings_to_obj(bencher: Bencher) {
    let bytes = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let (scene, _) = Wings::read(divan::black_box(bytes)).unwrap().to_scene();
        obj::write(
            &scene,
            &obj::ObjOptions {
                triangulate: false,
                stem: "model".into(),
            },
        )
        .unwrap()
        .main
        .len()
    });
}

/// `.glb` bytes -> `.wings` bytes: import, polygons rebuilt, welding, winged edges, writing.
#[divan::bench]
fn glb_to_wings(bencher: Bencher) {
    let glb = &*GLB;
    bencher.counter(BytesCount::new(glb.len())).bench(|| {
        let (scene, _) = levelkit::gltf::read(divan::black_box(glb), &mut |_| None).unwrap();
        Wings::from_scene(&scene).unwrap().0.write().unwrap().len()
    });
}
