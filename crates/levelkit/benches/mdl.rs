//! `.mdl` throughput on the largest corpus model (`gamestudio/kingsbridge/water.mdl`, 418 KiB,
//! MDL7, 10 404 vertices; under `$LEVELKIT_CORPUS`; without the corpus, the bundled MDL7 sample):
//! read, write, and read + export to `.glb` (the scene, normals, PNG skin, GLB), each in MB/s
//! of `.mdl` bytes; and back, `.glb` (that model's, and the skinned player's) -> `.mdl`, in MB/s
//! of `.glb` bytes.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench mdl`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::mdl::{self, Mdl, TargetVersion};
use levelkit::gltf::{self, GltfOptions};

fn main() {
    divan::main();
}

/// The largest corpus MDL's bytes, or the sample's.
static INPUT: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let corpus = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty());
    if let Some(root) = corpus {
        let mut files: Vec<_> = ["gamestudio/mdl", "gamestudio/kingsbridge"]
            .iter()
            .flat_map(|sub| std::fs::read_dir(std::path::Path::new(&root).join(sub)).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdl")))
            .collect();
        files.sort_by_key(|p| std::fs::metadata(p).unwrap().len());
        let largest = files.last().unwrap();
        let bytes = std::fs::read(largest).unwrap();
        eprintln!(
            "mdl bench input: {} ({} bytes)",
            largest.display(),
            bytes.len()
        );
        bytes
    } else {
        eprintln!("mdl bench input: the bundled MDL7 sample (LEVELKIT_CORPUS unset)");
        mdl::samples::mdl7_quad().write().unwrap()
    }
});

/// Read (every count checked against the bytes left).
#[divan::bench]
fn mdl_read(bencher: Bencher) {
    let bytes = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        Mdl::read(divan::black_box(bytes))
            .unwrap()
            .summary()
            .triangles
    });
}

/// Write (the writer checks every list against the layout).
#[divan::bench]
fn mdl_write(bencher: Bencher) {
    let bytes = &*INPUT;
    let model = Mdl::read(bytes).unwrap();
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(&model).write().unwrap().len());
}

/// `.mdl` bytes -> `.glb` bytes: read, the scene, normals, skin PNG, GLB.
#[divan::bench]
fn mdl_to_glb(bencher: Bencher) {
    let bytes = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| to_glb(divan::black_box(bytes)));
}

/// Read `bytes`, make the scene and write it as `.glb`; its length.
fn to_glb(bytes: &[u8]) -> usize {
    glb_of(bytes).len()
}

/// The `.glb` of the `.mdl` bytes `bytes`.
fn glb_of(bytes: &[u8]) -> Vec<u8> {
    let model = Mdl::read(bytes).unwrap();
    let (scene, _) = mdl::scene::to_scene(&model);
    gltf::write(
        &scene,
        &GltfOptions {
            binary: true,
            embed: true,
            stem: "model".into(),
        },
    )
    .unwrap()
    .main
}

/// The corpus's skinned MDL7 (`gamestudio/mdl/mdl7-player.mdl`: 17 bones, 40 frames of bone
/// matrices), or the bundled MDL7 sample (two bones) without the corpus.
static SKINNED: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let corpus = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty());
    match corpus {
        Some(root) => {
            let path = std::path::Path::new(&root).join("gamestudio/mdl/mdl7-player.mdl");
            eprintln!("mdl skinned bench input: {}", path.display());
            std::fs::read(path).unwrap()
        }
        None => mdl::samples::mdl7_quad().write().unwrap(),
    }
});

/// `.mdl` bytes -> `.glb` bytes of a model with bones: read, the scene with its skin and joint
/// animations, GLB.
#[divan::bench]
fn mdl_skinned_to_glb(bencher: Bencher) {
    let bytes = &*SKINNED;
    let (scene, _) = mdl::scene::to_scene(&Mdl::read(bytes).unwrap());
    assert_eq!(scene.skins.len(), 1);
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| to_glb(divan::black_box(bytes)));
}

/// `.glb` bytes -> `.mdl` bytes: read the glTF, the MDL7 of its scene (weld, normals, skins,
/// bones and frames), write.
fn to_mdl(glb: &[u8]) -> usize {
    to_mdl_as(glb, TargetVersion::Mdl7)
}

/// [`to_mdl`] as the MDL version asked for.
fn to_mdl_as(glb: &[u8], version: TargetVersion) -> usize {
    let (scene, _) = gltf::read(glb, &mut |_| None).unwrap();
    let (model, _) = Mdl::from_scene_as(&scene, version).unwrap();
    model.write().unwrap().len()
}

/// The largest corpus model as `.glb` -> `.mdl`, in MB/s of `.glb` bytes.
#[divan::bench]
fn glb_to_mdl(bencher: Bencher) {
    let glb = glb_of(&INPUT);
    bencher
        .counter(BytesCount::new(glb.len()))
        .bench(|| to_mdl(divan::black_box(&glb)));
}

/// The skinned model as `.glb` -> `.mdl` (its skin and joint animations become bones and
/// bone frames), in MB/s of `.glb` bytes.
#[divan::bench]
fn glb_skinned_to_mdl(bencher: Bencher) {
    let glb = glb_of(&SKINNED);
    bencher
        .counter(BytesCount::new(glb.len()))
        .bench(|| to_mdl(divan::black_box(&glb)));
}

/// The skinned model as `.glb` -> MDL5 (its joint animations baked into 16-bit vertex frames),
/// in MB/s of `.glb` bytes.
#[divan::bench]
fn glb_skinned_to_mdl5(bencher: Bencher) {
    let glb = glb_of(&SKINNED);
    bencher
        .counter(BytesCount::new(glb.len()))
        .bench(|| to_mdl_as(divan::black_box(&glb), TargetVersion::Mdl5));
}
