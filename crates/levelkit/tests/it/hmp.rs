//! HMP terrain: the corpus file byte for byte, the bundled samples of all three layouts,
//! truncation and garbage sweeps, hostile counts, a proptest, the glTF validator and assimp.

use std::path::Path;

use levelkit::codec::Codec;
use levelkit::formats::hmp::{self, Hmp, HmpVersion};
use levelkit::gltf;
use levelkit::{ErrorKind, Limits};
use proptest::prelude::*;

use crate::common;

fn corpus_file() -> Option<Vec<u8>> {
    let dir = common::corpus_or_skip("gamestudio/hmp", "HMP corpus checks")?;
    Some(std::fs::read(dir.join("test.HMP")).unwrap())
}

fn samples() -> Vec<(String, Hmp)> {
    let mut all: Vec<(String, Hmp)> = [HmpVersion::Hmp4, HmpVersion::Hmp5, HmpVersion::Hmp7]
        .into_iter()
        .map(|v| (format!("{v:?}"), hmp::samples::terrain(v, 12, 7)))
        .collect();
    all.push(("Hmp4 words".into(), hmp::samples::word_terrain(12, 7, 1)));
    all
}

/// The word-packed HMP4 class (frames of type 2: 8-byte bounding boxes and vertices, no
/// triangles), as firoball/ack4stuff's `hh_demo_*.HMP` are (one of them with 36 frames; they
/// end exactly after their frames in that layout): the sample of our writer reads back as
/// itself, with every frame, and its grid makes the faces.
#[test]
fn word_packed_hmp4_reads_every_frame_and_makes_its_grid() {
    let terrain = hmp::samples::word_terrain(9, 6, 5);
    let bytes = terrain.write().unwrap();
    // Header, the skin's type word and pixels, then 5 frames of 36 + 8 bytes a vertex.
    assert_eq!(bytes.len(), 84 + 4 + 32 * 32 * 2 + 5 * (36 + 9 * 6 * 8));
    let back = Hmp::read(&bytes).unwrap();
    assert_eq!(back, terrain);
    assert_eq!(back.write().unwrap(), bytes);
    assert_eq!(back.validate(), vec![]);
    assert!(
        back.frames
            .iter()
            .all(|f| f.kind == 2 && f.vertices.is_empty())
    );
    assert_eq!(back.frames[4].word_vertices.len(), 9 * 6);
    assert_eq!(Hmp::frame_name(&back.frames[3]), "Frame3");
    let json = serde_json::to_string(&back).unwrap();
    assert_eq!(serde_json::from_str::<Hmp>(&json).unwrap(), back);
    let (scene, warnings) = hmp::to_scene(&back);
    assert!(warnings.is_empty(), "{warnings:?}");
    // Every frame a morph target, played as one animation; the hills roll on from frame to
    // frame (the sample shifts them a column a frame).
    assert_eq!(scene.morphs.len(), 1);
    let targets = &scene.morphs[0].targets;
    assert_eq!(targets.len(), 5);
    assert_eq!(targets[3].name.as_deref(), Some("Frame3"));
    assert_eq!(targets[0].positions, scene.meshes[0].positions);
    assert_ne!(targets[1].positions, targets[0].positions);
    assert_eq!(targets[1].positions[0][2], targets[0].positions[1][2]);
    assert_eq!(scene.morph_animations.len(), 1);
    assert_eq!(scene.morph_animations[0].targets, vec![0, 1, 2, 3, 4]);
    let mesh = &scene.meshes[0];
    assert_eq!((mesh.positions.len(), mesh.faces.len()), (9 * 6, 2 * 8 * 5));
    // Corners of the grid: x from the offset to the far side, the first row at y = 65535.
    let h = &back.header;
    let [x0, y0, _] = mesh.positions[0];
    let [x1, y1, _] = mesh.positions[8];
    assert!((x0 - f64::from(h.offset[0])).abs() < 1e-3, "{x0}");
    assert!(
        (x1 - x0 - 8.0 * f64::from(h.tri_size[0])).abs() < 1e-2,
        "{x1}"
    );
    assert!((y0 - f64::from(h.offset[1]) - 65535.0 * f64::from(h.scale[1])).abs() < 1e-3);
    assert_eq!(y0, y1);
    assert_eq!(scene.validate().len(), 0);
    // A frame of type 2 with four-byte vertices, or of another type, is refused.
    let mut bad = back.clone();
    bad.frames[0].vertices = vec![[0; 4]; 54];
    assert!(bad.write().is_err());
    let mut bytes = bytes;
    let at = 84 + 4 + 32 * 32 * 2;
    bytes[at] = 1;
    let e = Hmp::read(&bytes).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().contains("type 0 (byte-packed) or 2"), "{e}");
}

#[test]
fn corpus_hmp4_reads_round_trips_and_validates() {
    let Some(bytes) = corpus_file() else {
        return;
    };
    let terrain = Hmp::read(&bytes).unwrap();
    assert_eq!(terrain.version, HmpVersion::Hmp4);
    assert_eq!(terrain.skins.len(), 1);
    assert_eq!(terrain.skins[0].kind, 2);
    assert_eq!(terrain.skins[0].data.len(), 128 * 128 * 2);
    assert_eq!(terrain.tex_coords.len(), 400);
    assert_eq!(terrain.triangles.len(), 722);
    assert_eq!(terrain.frames.len(), 1);
    assert_eq!(terrain.frames[0].vertices.len(), 400);
    assert_eq!(Hmp::frame_name(&terrain.frames[0]), "Frame1");
    assert!(terrain.trailing.is_empty(), "the file ends after its frame");
    assert_eq!(terrain.grid(), Some((20, 20)));
    assert_eq!(terrain.write().unwrap(), bytes);
    assert_eq!(terrain.validate(), vec![]);
    let json = serde_json::to_string(&terrain).unwrap();
    let back: Hmp = serde_json::from_str(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    // Sniffed by magic, through the document layer.
    let doc =
        levelkit::document::Model::read(&bytes, Some("test.HMP"), &Limits::default()).unwrap();
    assert_eq!(doc.format(), levelkit::Format::Hmp);
    let (scene, warnings) = hmp::to_scene(&terrain);
    assert!(warnings.is_empty(), "{warnings:?}");
    let mesh = &scene.meshes[0];
    assert_eq!((mesh.positions.len(), mesh.faces.len()), (400, 722));
    assert_eq!(scene.textures.len(), 1);
    // The terrain's faces look up (+z before the node turns it upright).
    let up = mesh
        .faces
        .iter()
        .filter(|f| {
            let p = |k: usize| mesh.positions[f.corners[k].position as usize];
            let (a, b, c) = (p(0), p(1), p(2));
            let z = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            z > 0.0
        })
        .count();
    assert_eq!(up, 722, "every triangle faces up");
    // Corner positions: the first vertex is the header's offset (raw bytes 0, 0, 0).
    let o = terrain.header.offset;
    assert_eq!(
        mesh.positions[0],
        [f64::from(o[0]), f64::from(o[1]), f64::from(o[2])]
    );
}

#[test]
fn samples_round_trip_and_make_grids() {
    for (name, terrain) in samples() {
        let bytes = terrain.write().unwrap();
        let back = Hmp::read(&bytes).unwrap();
        assert_eq!(back, terrain, "{name}");
        assert_eq!(back.validate(), vec![], "{name}");
        let (scene, warnings) = hmp::to_scene(&back);
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert_eq!(scene.meshes[0].positions.len(), 12 * 7, "{name}");
        assert_eq!(scene.meshes[0].faces.len(), 2 * 11 * 6, "{name}");
        assert_eq!(scene.validate().len(), 0, "{name}");
    }
}

fn glb(terrain: &Hmp, path: &Path) {
    let (scene, _) = terrain.to_scene().unwrap();
    let out = gltf::write(
        &scene,
        &gltf::GltfOptions {
            binary: true,
            embed: true,
            stem: "terrain".into(),
        },
    )
    .unwrap();
    std::fs::write(path, &out.main).unwrap();
}

#[test]
fn exported_glbs_pass_the_khronos_validator() {
    let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks")
    else {
        return;
    };
    let dir = common::out_dir("hmp", "validator");
    let mut all = samples();
    if let Some(bytes) = corpus_file() {
        all.push(("test.HMP".into(), Hmp::read(&bytes).unwrap()));
    }
    for (name, terrain) in &all {
        let path = dir.join(format!("{name}.glb"));
        glb(terrain, &path);
        if !common::assert_gltf_valid(&script, &path) {
            return;
        }
    }
    eprintln!("validator: {} terrains, 0 errors, 0 warnings", all.len());
}

/// `assimp info` of a file: (vertices, faces) from its summary, or `None` when it refuses.
fn assimp_counts(path: &Path) -> Option<(usize, usize)> {
    let out = std::process::Command::new("assimp")
        .arg("info")
        .arg(path)
        .output()
        .unwrap();
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |key: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(key))
            .and_then(|l| l.split(':').nth(1))
            .and_then(|v| v.trim().parse().ok())
    };
    Some((field("Vertices")?, field("Faces")?))
}

#[test]
fn same_counts_as_assimp() {
    if !common::on_path("assimp") {
        common::skip("`assimp` not on the PATH; assimp comparison not run");
        return;
    }
    let dir = common::out_dir("hmp", "assimp");
    for (name, terrain) in samples() {
        let path = dir.join(format!("{name}.hmp"));
        std::fs::write(&path, terrain.write().unwrap()).unwrap();
        let ours = terrain.summary();
        match terrain.version {
            // assimp: "HMP4 is currently not supported".
            HmpVersion::Hmp4 => assert_eq!(assimp_counts(&path), None, "{name}"),
            _ => {
                // `assimp info` triangulates and joins identical vertices: one per grid point.
                let (verts, faces) = assimp_counts(&path).unwrap();
                assert_eq!(faces, ours.triangles, "{name}");
                assert_eq!(verts, ours.vertices as usize, "{name}");
            }
        }
    }
    if let Some(bytes) = corpus_file() {
        let path = dir.join("test.HMP");
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(assimp_counts(&path), None, "assimp refuses HMP4");
    }
}

#[test]
fn every_prefix_is_an_error() {
    let mut inputs: Vec<Vec<u8>> = samples().iter().map(|(_, t)| t.write().unwrap()).collect();
    inputs.extend(corpus_file());
    for bytes in inputs {
        for cut in 0..bytes.len() {
            let e = Hmp::read(&bytes[..cut]).unwrap_err();
            assert!(
                matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                "cut {cut}: {e}"
            );
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = common::Rng(0x5eed_4d50);
    let seeds: Vec<Vec<u8>> = samples().iter().map(|(_, t)| t.write().unwrap()).collect();
    for round in 0..4000 {
        let mut bytes = seeds[round % seeds.len()].clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len());
            bytes[at] = rng.next() as u8;
        }
        if rng.below(4) == 0 {
            bytes.truncate(rng.below(bytes.len()));
        }
        if let Ok(t) = Hmp::read_with(&bytes, &Limits::strict()) {
            let _ = t.validate();
            let _ = hmp::to_scene(&t);
            let _ = t.dump("garbage");
            assert_eq!(t.write().unwrap(), bytes, "round {round}");
        }
    }
    for len in 0..200 {
        let mut bytes = b"HMP7".to_vec();
        bytes.extend((0..len).map(|_| rng.next() as u8));
        let _ = Hmp::read_with(&bytes, &Limits::strict());
    }
}

#[test]
fn corpus_garbage_never_panics_and_allocation_stays_bounded() {
    let Some(base) = corpus_file() else { return };
    let mut rng = common::Rng(0x6a7b_4d50);
    for round in 0..400 {
        let mut bytes = base.clone();
        for _ in 0..1 + rng.below(16) {
            let at = if rng.below(2) == 0 {
                rng.below(bytes.len().min(256))
            } else {
                rng.below(bytes.len())
            };
            bytes[at] = rng.next() as u8;
        }
        let (result, peak) =
            common::alloc::peak_during(|| Hmp::read_with(&bytes, &Limits::strict()));
        assert!(
            peak <= 64 * bytes.len() + (1 << 20),
            "round {round}: {peak} bytes allocated"
        );
        if let Ok(t) = result {
            let _ = hmp::to_scene(&t);
            assert_eq!(t.write().unwrap(), bytes, "round {round}");
        }
    }
}

/// The HMP reader bounds its lists by the bytes left and its header counts by
/// [`Limits::max_count`]: a terrain whose vertex count is over the limit is refused as over
/// it, and reads within it.
#[test]
fn the_count_limit_refuses_a_terrain_over_it() {
    let bytes = hmp::samples::terrain(HmpVersion::Hmp7, 4, 4)
        .write()
        .unwrap();
    let tight = Limits {
        max_count: 15,
        ..Limits::default()
    };
    let e = Hmp::read_with(&bytes, &tight).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert!(e.to_string().contains("vertex count 16"), "{e}");
    let enough = Limits {
        max_count: 16,
        ..Limits::default()
    };
    assert!(Hmp::read_with(&bytes, &enough).is_ok());
}

/// What the HMP reader allocates is charged to [`Limits::max_alloc`]: the corpus terrain (its
/// skins and frames) is refused with a budget smaller than the file, and reads with one a little
/// larger than it.
#[test]
fn the_allocation_limit_refuses_a_terrain_over_it() {
    let bytes = match corpus_file() {
        Some(b) => b,
        None => hmp::samples::terrain(HmpVersion::Hmp7, 64, 64)
            .write()
            .unwrap(),
    };
    let tight = Limits {
        max_alloc: bytes.len() / 2,
        ..Limits::default()
    };
    let e = Hmp::read_with(&bytes, &tight).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    let enough = Limits {
        max_alloc: bytes.len() * 2 + 4096,
        ..Limits::default()
    };
    assert!(Hmp::read_with(&bytes, &enough).is_ok());
}

#[test]
fn hostile_counts_are_refused_without_allocating() {
    let base = hmp::samples::terrain(HmpVersion::Hmp7, 4, 4)
        .write()
        .unwrap();
    let patch = |fields: &[(usize, u32)]| {
        let mut b = base.clone();
        for &(at, v) in fields {
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        b
    };
    let cases = [
        ("vertex count 2^31-1", patch(&[(0x3c, 0x7fff_ffff)])),
        (
            "skin 65535 × 65535",
            patch(&[(0x58, 0xffff), (0x5c, 0xffff)]),
        ),
        (
            "skin 2^32-1 × 2^32-1",
            patch(&[(0x58, u32::MAX), (0x5c, u32::MAX)]),
        ),
        ("skin count 2^31-1", patch(&[(0x30, 0x7fff_ffff)])),
        ("frame count 1000000", patch(&[(0x44, 1_000_000)])),
        ("negative vertex count", patch(&[(0x3c, u32::MAX)])),
    ];
    for (what, bytes) in cases {
        let (result, peak) = common::alloc::peak_during(|| Hmp::read(&bytes));
        assert!(result.is_err(), "{what}");
        assert!(peak < 1 << 20, "{what}: peak allocation {peak}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn model_bytes_model(v in 0usize..3, nx in 2usize..20, ny in 2usize..20, bump in any::<u16>(), name in any::<[u8; 16]>()) {
        let version = [HmpVersion::Hmp4, HmpVersion::Hmp5, HmpVersion::Hmp7][v];
        let mut t = hmp::samples::terrain(version, nx, ny);
        t.frames[0].name = name;
        if let Some(first) = t.frames[0].vertices.first_mut() {
            first[0] = bump as u8;
            first[1] = (bump >> 8) as u8;
        }
        t.header.flags = i32::from(bump);
        let bytes = t.write().unwrap();
        let back = Hmp::read(&bytes).unwrap();
        prop_assert_eq!(&back, &t);
        prop_assert_eq!(back.write().unwrap(), bytes);
    }
}
