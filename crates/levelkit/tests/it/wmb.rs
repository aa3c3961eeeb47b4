//! WMB: the real files (`$LEVELKIT_CORPUS/gamestudio`, `wmp/v710`; skipped when unset) read,
//! validate, write back byte for byte (through JSON too) and export to `.glb` files the Khronos
//! validator passes; compiled levels against their `.wmp` sources; hostile input (every prefix,
//! random mutations, counts that claim gigabytes); a proptest from model to bytes to model.

use crate::common;
use crate::common::Rng;

use std::path::{Path, PathBuf};

use levelkit::codec::Codec;
use levelkit::formats::wmb::{self, Item, ListKind, Slot, Wmb, samples, view};
use levelkit::formats::wmp::{self, EntityKind, resolve};
use levelkit::gltf;
use levelkit::{ErrorKind, Limits, Severity};

fn wmb_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Some(root) = common::corpus_or_skip("", "the WMB corpus") else {
        return out;
    };
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "wmb") {
                out.push(path);
            }
        }
    }
    walk(&root.join("gamestudio"), &mut out);
    walk(&root.join("wmp"), &mut out);
    out.sort();
    out
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn corpus_files_read_validate_and_round_trip() {
    let files = wmb_files();
    if files.is_empty() {
        return;
    }
    assert!(files.len() >= 8, "only {} WMB files", files.len());
    let mut versions = std::collections::BTreeSet::new();
    for path in &files {
        let name = name(path);
        let bytes = std::fs::read(path).unwrap();
        let level = wmb::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        versions.insert(level.version);
        eprintln!(
            "{name}: {}",
            serde_json::to_string(&level.summary()).unwrap()
        );
        let findings = level.validate();
        for w in &findings {
            eprintln!("{name}: {w}");
        }
        assert!(findings.is_empty(), "{name}: {} findings", findings.len());
        // Every view reads.
        view::palette(&level).unwrap();
        let textures = view::textures(&level).unwrap();
        view::materials(&level).unwrap();
        view::objects(&level).unwrap();
        let geometry = view::bsp_geometry(&level).unwrap();
        view::blocks(&level).unwrap();
        if level.version < 7 {
            assert!(!geometry.faces.is_empty(), "{name}: no faces");
            assert!(!textures.is_empty(), "{name}: no textures");
        }
        assert_eq!(
            level.write().unwrap(),
            bytes,
            "{name}: written bytes differ"
        );
        let json = serde_json::to_string(&level).unwrap();
        let back: Wmb = serde_json::from_str(&json).unwrap();
        assert_eq!(back, level, "{name}: changed through JSON");
        // Allocation stays in proportion to the input.
        let tight = Limits {
            max_alloc: bytes.len() + 1,
            ..Limits::strict()
        };
        wmb::read_with(&bytes, &tight).unwrap_or_else(|e| panic!("{name}: {e}"));
        let small = Limits {
            max_alloc: bytes.len() / 2,
            ..Limits::strict()
        };
        assert_eq!(
            wmb::read_with(&bytes, &small).unwrap_err().kind,
            ErrorKind::LimitExceeded
        );
        // The document layer sniffs and reads it.
        let model = levelkit::document::Model::read(&bytes, Some(&name), &Limits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(model.format(), levelkit::Format::Wmb, "{name}");
    }
    assert_eq!(
        versions.into_iter().collect::<Vec<_>>(),
        vec![2, 3, 4, 6, 7],
        "the corpus's versions"
    );
}

fn header_lists(bytes: &[u8]) -> usize {
    wmb::read(bytes).unwrap().slots.len()
}

#[test]
fn header_length_follows_the_first_list() {
    let files = wmb_files();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let n = header_lists(&bytes);
        let expected = match (&bytes[..4], name(path).as_str()) {
            (b"WMB2" | b"WMB3" | b"WMB4", _) => 16,
            (b"WMB6", "wmb6-test.wmb") => 17,
            (b"WMB6", _) => 19,
            (b"WMB7", _) => 20,
            _ => unreachable!(),
        };
        assert_eq!(n, expected, "{}", name(path));
    }
}

fn glb(level: &Wmb) -> Vec<u8> {
    let (scene, _) = level.to_scene().unwrap();
    assert!(
        scene
            .validate()
            .iter()
            .all(|w| w.severity != Severity::Error)
    );
    gltf::write(
        &scene,
        &gltf::GltfOptions {
            binary: true,
            embed: true,
            stem: "level".into(),
        },
    )
    .unwrap()
    .main
}

#[test]
fn scenes_have_geometry_textures_and_entities() {
    let files = wmb_files();
    for path in &files {
        let name = name(path);
        let level = wmb::read(&std::fs::read(path).unwrap()).unwrap();
        let (scene, warnings) = level.to_scene().unwrap();
        for w in &warnings {
            eprintln!("{name}: {w}");
        }
        assert!(warnings.is_empty(), "{name}: {} warnings", warnings.len());
        let counts = scene.counts();
        eprintln!("{name}: {counts:?}");
        let textures = view::textures(&level).unwrap();
        assert_eq!(
            counts.textures,
            textures.len(),
            "{name}: every texture has pixels"
        );
        assert_eq!(counts.materials, textures.len(), "{name}");
        let objects = view::objects(&level).unwrap();
        let info = objects
            .iter()
            .filter(|o| o.kind == view::ObjectKind::Info)
            .count();
        // The root, the world mesh (WMB2-6) and one node per object but the info.
        let world = usize::from(level.version < 7);
        assert_eq!(counts.nodes, 1 + world + objects.len() - info, "{name}");
        if level.version < 7 {
            assert!(counts.triangles > 0, "{name}");
        }
    }
    // The sample levels too: WMB7 blocks and a WMB3 square.
    for level in [samples::quad_level(), samples::square_level()] {
        let (scene, warnings) = level.to_scene().unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let counts = scene.counts();
        assert_eq!(counts.textures, 1);
        assert!(counts.triangles >= 2);
    }
}

#[test]
fn exported_glbs_pass_the_khronos_validator() {
    let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks")
    else {
        return;
    };
    let dir = common::out_dir("wmb-scene", "validator");
    let mut levels: Vec<(String, Wmb)> = vec![
        ("sample-quad".into(), samples::quad_level()),
        ("sample-square".into(), samples::square_level()),
        ("sample-lit-quad".into(), samples::lit_quad_level()),
    ];
    for path in wmb_files() {
        levels.push((
            name(&path),
            wmb::read(&std::fs::read(&path).unwrap()).unwrap(),
        ));
    }
    for (name, level) in &levels {
        let path = dir.join(format!("{name}.glb"));
        std::fs::write(&path, glb(level)).unwrap();
        if !common::assert_gltf_valid(&script, &path) {
            return;
        }
    }
    eprintln!("validator: {} levels, 0 errors, 0 warnings", levels.len());
}

#[test]
fn samples_round_trip() {
    for level in [
        samples::quad_level(),
        samples::square_level(),
        samples::lit_quad_level(),
    ] {
        let bytes = level.write().unwrap();
        let back = wmb::read(&bytes).unwrap();
        assert_eq!(back, level);
        assert!(back.validate().is_empty(), "{:?}", back.validate());
        let blocks = view::blocks(&back).unwrap();
        let objects = view::objects(&back).unwrap();
        if back.version == 7 {
            assert_eq!(blocks.len(), 1);
            assert_eq!(objects.len(), 3);
            assert_eq!(objects[2].name.as_deref(), Some("crate_1"));
            assert_eq!(objects[2].fields["skills"][19], 19.0);
        } else {
            assert_eq!(
                view::bsp_geometry(&back).unwrap().faces[0].corners,
                [0, 3, 2, 1]
            );
        }
    }
}

/// The JSON chunk and the binary chunk of a GLB.
fn glb_parts(bytes: &[u8]) -> (serde_json::Value, &[u8]) {
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin = &bytes[20 + json_len + 8..];
    (json, bin)
}

/// The floats of accessor `a` (tightly packed or with a stride).
fn accessor_floats(doc: &serde_json::Value, bin: &[u8], a: usize, width: usize) -> Vec<f32> {
    let acc = &doc["accessors"][a];
    let view = &doc["bufferViews"][acc["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + acc["byteOffset"].as_u64().unwrap_or(0) as usize;
    let stride = view["byteStride"]
        .as_u64()
        .map_or(width * 4, |s| s as usize);
    let count = acc["count"].as_u64().unwrap() as usize;
    let mut out = Vec::new();
    for i in 0..count {
        for k in 0..width {
            let at = start + i * stride + k * 4;
            out.push(f32::from_le_bytes(bin[at..at + 4].try_into().unwrap()));
        }
    }
    out
}

/// Synthetic only: no corpus WMB has lit blocks.
#[test]
fn lit_blocks_get_a_second_uv_set_and_a_lightmap_texture() {
    let level = samples::lit_quad_level();
    let bytes = level.write().unwrap();
    assert_eq!(wmb::read(&bytes).unwrap(), level);
    let pages = view::lightmap_pages(&level).unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].size, 256);
    assert_eq!(&pages[0].pixels[3 * (256 * 2 + 5)..][..3], [5, 2, 64]);

    let (scene, warnings) = level.to_scene().unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(scene.second_uvs.len(), 1);
    let block = scene.second_uvs[0].mesh;
    assert_eq!(scene.meshes[block].name.as_deref(), Some("block 0"));
    // Triangles (0 2 1) and (0 3 2), turned: corners 1 2 0 and 2 3 0.
    let su: Vec<[f64; 2]> = scene.second_uvs[0].uvs.clone();
    assert_eq!(
        su,
        [
            [0.75, 0.75],
            [0.75, 0.25],
            [0.25, 0.75],
            [0.75, 0.25],
            [0.25, 0.25],
            [0.25, 0.75]
        ]
    );
    assert_eq!(scene.lightmaps.len(), 1);
    let lm = scene.lightmaps[0];
    assert_eq!(
        scene.materials[lm.material].name.as_deref(),
        Some("checker + lightmap 0")
    );
    assert!(
        scene.meshes[block]
            .faces
            .iter()
            .all(|f| f.material == Some(lm.material))
    );
    match &scene.textures[lm.texture].source {
        levelkit::scene::TextureSource::Pixels {
            width,
            height,
            channels,
            data,
        } => {
            assert_eq!((*width, *height, *channels), (256, 256, 3));
            assert_eq!(data, &pages[0].pixels);
        }
        other => panic!("{other:?}"),
    }

    // glTF: TEXCOORD_1 with the lightmap coordinates (V flipped), the page as the material's
    // occlusion texture on texCoord 1.
    let glb_bytes = glb(&level);
    let (doc, bin) = glb_parts(&glb_bytes);
    let prim = &doc["meshes"][0]["primitives"][0];
    let uv1 = accessor_floats(
        &doc,
        bin,
        prim["attributes"]["TEXCOORD_1"].as_u64().unwrap() as usize,
        2,
    );
    let uv0 = accessor_floats(
        &doc,
        bin,
        prim["attributes"]["TEXCOORD_0"].as_u64().unwrap() as usize,
        2,
    );
    assert_eq!(uv1.len(), uv0.len());
    assert!(uv1.iter().all(|&v| v == 0.25 || v == 0.75), "{uv1:?}");
    assert!(uv0.iter().all(|&v| v == 0.0 || v == 1.0), "{uv0:?}");
    let material = &doc["materials"][prim["material"].as_u64().unwrap() as usize];
    assert_eq!(material["occlusionTexture"]["texCoord"], 1);
    assert_eq!(material["extras"]["levelkit_lightmap"], true);
    assert!(material["pbrMetallicRoughness"]["baseColorTexture"].is_object());

    // The unlit quad (same block, no lightmaps list) has neither.
    let (plain, _) = samples::quad_level().to_scene().unwrap();
    assert!(plain.second_uvs.is_empty() && plain.lightmaps.is_empty());
}

#[test]
fn lightmap_lists_that_are_not_whole_pages_are_reported_not_used() {
    let mut level = samples::lit_quad_level();
    for item in &mut level.items {
        if let Item::List { slot, data } = item
            && *slot == ListKind::Lightmaps as usize
        {
            data.truncate(1000);
        }
    }
    level.settle_layout();
    let e = view::lightmap_pages(&level).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(e.to_string().contains("not a whole number"), "{e}");
    let (scene, warnings) = level.to_scene().unwrap();
    assert!(scene.second_uvs.is_empty() && scene.lightmaps.is_empty());
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("not a whole number"))
    );
}

/// Every prefix of `bytes` is an error or a level that writes back to the prefix; never a panic.
fn sweep_prefixes(bytes: &[u8], step: usize) -> usize {
    let mut errors = 0;
    let mut cut = 0;
    while cut < bytes.len() {
        let prefix = &bytes[..cut];
        match wmb::read(prefix) {
            Ok(level) => {
                assert_eq!(level.write().unwrap(), prefix, "prefix {cut}");
                let _ = level.to_scene();
                let _ = level.validate();
            }
            Err(e) => {
                assert!(
                    matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                    "prefix {cut}: {e}"
                );
                errors += 1;
            }
        }
        // Every prefix in the header and first lists and in the last KiB; `step` between.
        cut += if cut < 4096 || cut + 1024 >= bytes.len() {
            1
        } else {
            step
        };
    }
    errors
}

#[test]
fn every_prefix_is_an_error_or_round_trips() {
    for level in [samples::quad_level(), samples::square_level()] {
        let bytes = level.write().unwrap();
        let errors = sweep_prefixes(&bytes, 1);
        assert!(errors > bytes.len() / 2);
    }
    for path in wmb_files() {
        let bytes = std::fs::read(&path).unwrap();
        let step = (bytes.len() / 1500).max(1);
        sweep_prefixes(&bytes, step);
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x5EED_0017);
    let mut inputs: Vec<Vec<u8>> = vec![
        samples::quad_level().write().unwrap(),
        samples::square_level().write().unwrap(),
    ];
    for path in wmb_files() {
        let bytes = std::fs::read(&path).unwrap();
        if bytes.len() < 60_000 {
            inputs.push(bytes);
        }
    }
    for input in &inputs {
        for _ in 0..300 {
            let mut bytes = input.clone();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next() as u8;
            }
            if let Ok(level) = wmb::read(&bytes) {
                assert_eq!(level.write().unwrap(), bytes);
                let _ = level.validate();
                let _ = level.to_scene();
                let _ = level.summary();
                let _ = level.dump("x");
            }
        }
    }
    for len in [0, 3, 4, 8, 131, 132, 200] {
        for _ in 0..50 {
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if bytes.len() >= 4 {
                bytes[..4].copy_from_slice(b"WMB7");
            }
            if let Ok(level) = wmb::read(&bytes) {
                assert_eq!(level.write().unwrap(), bytes);
                let _ = level.to_scene();
            }
        }
    }
}

/// A level whose list `kind` holds `data`.
fn with_list(kind: ListKind, data: Vec<u8>) -> Vec<u8> {
    Wmb {
        version: 7,
        slots: vec![Slot::default(); 20],
        items: vec![Item::List {
            slot: kind as usize,
            data,
        }],
    }
    .write()
    .unwrap()
}

#[test]
fn counts_that_claim_gigabytes_are_refused_without_allocating() {
    // A header entry claiming 4 GiB.
    let mut bytes = samples::quad_level().write().unwrap();
    bytes[4 + 8 * 15 + 4..4 + 8 * 15 + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(wmb::read(&bytes).unwrap_err().kind, ErrorKind::Truncated);
    let (_, alloc) = common::alloc::peak_during(|| wmb::read(&bytes));
    assert!(alloc < 4 * bytes.len() + 4096, "{alloc} bytes allocated");

    // Counts inside lists: textures, objects, blocks, block vertices, path nodes, texture size.
    let huge = u32::MAX.to_le_bytes().to_vec();
    for kind in [ListKind::Textures, ListKind::Objects, ListKind::Blocks] {
        let level = wmb::read(&with_list(kind, huge.clone())).unwrap();
        let findings = level.validate();
        assert!(
            findings.iter().any(|w| w.severity == Severity::Error),
            "{kind:?}: {findings:?}"
        );
        let (_, alloc) = common::alloc::peak_during(|| level.to_scene());
        assert!(alloc < 1 << 20, "{kind:?}: {alloc} bytes allocated");
    }
    let mut texture = vec![];
    texture.extend_from_slice(&1u32.to_le_bytes());
    texture.extend_from_slice(&8u32.to_le_bytes());
    texture.extend_from_slice(&[b'x'; 16]);
    texture.extend_from_slice(&0xFFFFu32.to_le_bytes());
    texture.extend_from_slice(&0xFFFFu32.to_le_bytes());
    texture.extend_from_slice(&5u32.to_le_bytes());
    texture.extend_from_slice(&[0; 12]);
    let level = wmb::read(&with_list(ListKind::Textures, texture)).unwrap();
    let e = view::textures(&level).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    let mut path = vec![];
    path.extend_from_slice(&1u32.to_le_bytes());
    path.extend_from_slice(&8u32.to_le_bytes());
    path.extend_from_slice(&6u32.to_le_bytes());
    path.extend_from_slice(&[b'p'; 20]);
    path.extend_from_slice(&4.0e9f32.to_le_bytes());
    path.extend_from_slice(&[0; 16]);
    let level = wmb::read(&with_list(ListKind::Objects, path)).unwrap();
    let (result, alloc) = common::alloc::peak_during(|| view::objects(&level));
    assert_eq!(result.unwrap_err().kind, ErrorKind::Truncated);
    assert!(alloc < 1 << 20, "{alloc} bytes allocated");
}

/// [`Limits::max_alloc`] is charged as the reader goes: a real level over a small budget is
/// refused as over the limit.
#[test]
fn the_allocation_budget_refuses_a_level_over_it() {
    let bytes = samples::lit_quad_level().write().unwrap();
    let tight = Limits {
        max_alloc: 1024,
        ..Limits::default()
    };
    let e = wmb::read_with(&bytes, &tight).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert!(wmb::read_with(&bytes, &Limits::strict()).is_ok());
}

#[test]
fn overlapping_lists_and_lists_in_the_header_are_refused() {
    let mut bytes = samples::square_level().write().unwrap();
    // Point `planes` at the vertices list.
    let vertices = u32::from_le_bytes(bytes[4 + 8 * 3..4 + 8 * 3 + 4].try_into().unwrap());
    bytes[4 + 8..4 + 8 + 4].copy_from_slice(&vertices.to_le_bytes());
    bytes[4 + 12..4 + 16].copy_from_slice(&8u32.to_le_bytes());
    assert_eq!(wmb::read(&bytes).unwrap_err().kind, ErrorKind::Unsupported);
    bytes[4 + 8..4 + 8 + 4].copy_from_slice(&20u32.to_le_bytes());
    assert_eq!(wmb::read(&bytes).unwrap_err().kind, ErrorKind::Malformed);
    assert_eq!(wmb::read(b"WMB5").unwrap_err().kind, ErrorKind::Unsupported);
    assert_eq!(wmb::read(b"WMPB").unwrap_err().kind, ErrorKind::Malformed);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn level() -> impl Strategy<Value = Wmb> {
        (
            prop_oneof![Just(2u8), Just(3), Just(4), Just(6), Just(7)],
            16usize..=20,
            proptest::collection::vec(
                (
                    0usize..20,
                    proptest::collection::vec(any::<u8>(), 1..40),
                    proptest::collection::vec(any::<u8>(), 0..5),
                ),
                1..8,
            ),
            proptest::collection::vec((any::<u32>(), Just(0u32)), 20),
        )
            .prop_map(|(version, n, lists, raw)| {
                let mut used = vec![false; n];
                let mut items = Vec::new();
                for (slot, data, gap) in lists {
                    let slot = slot % n;
                    if used[slot] {
                        continue;
                    }
                    used[slot] = true;
                    items.push(Item::List { slot, data });
                    if !gap.is_empty() {
                        items.push(Item::Gap { data: gap });
                    }
                }
                let slots = raw
                    .into_iter()
                    .take(n)
                    .map(|(offset, length)| Slot { offset, length })
                    .collect();
                let mut level = Wmb {
                    version,
                    slots,
                    items,
                };
                // The written offsets of the lists replace the stored ones.
                level = wmb::read(&level.write().unwrap()).unwrap_or(level);
                level
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn model_to_bytes_to_model(level in level()) {
            let bytes = level.write().unwrap();
            let back = wmb::read(&bytes).unwrap();
            prop_assert_eq!(&back, &level);
            prop_assert_eq!(back.write().unwrap(), bytes);
        }
    }
}

// --- WMB against the level it was compiled from ---

fn bounds(points: impl Iterator<Item = [f64; 3]>) -> Option<([f64; 3], [f64; 3])> {
    let mut out: Option<([f64; 3], [f64; 3])> = None;
    for p in points {
        let (lo, hi) = out.get_or_insert((p, p));
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    out
}

#[test]
fn block_wmb_against_block_wmp() {
    let Some(dir) = common::corpus_or_skip("", "the WMB-WMP comparison") else {
        return;
    };
    let source = wmp::text::WmpText::read(
        &std::fs::read(dir.join("gamestudio/wmb/block/block.wmp")).unwrap(),
    )
    .unwrap();
    let (level, _) = wmp::level_of_text(&source);
    let (resolved, _) = resolve::resolve(&level);
    let mut wmp_textures: Vec<String> = resolved
        .blocks
        .iter()
        .flat_map(|b| b.faces.iter().map(|f| f.texture.clone()))
        .collect();
    wmp_textures.sort();
    wmp_textures.dedup();
    let wmp_box = bounds(
        resolved
            .blocks
            .iter()
            .flat_map(|b| b.vertices.iter().copied()),
    )
    .unwrap();
    let wmp_entities = resolved.entities.len();
    eprintln!("block.wmp: textures {wmp_textures:?}, box {wmp_box:?}, {wmp_entities} entities");
    for file in [
        "wmp/v710/block.wmb",
        "gamestudio/wmb/block/block-centered.wmb",
        "gamestudio/wmb/block/block-moved-x.wmb",
    ] {
        let compiled = wmb::read(&std::fs::read(dir.join(file)).unwrap()).unwrap();
        let mut names: Vec<String> = view::textures(&compiled)
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        names.sort();
        let g = view::bsp_geometry(&compiled).unwrap();
        let b = bounds(g.vertices.iter().map(|v| v.map(f64::from))).unwrap();
        let objects = view::objects(&compiled).unwrap();
        let entities = objects
            .iter()
            .filter(|o| o.kind != view::ObjectKind::Info)
            .count();
        let dev = (0..3)
            .map(|k| {
                (b.0[k] - wmp_box.0[k])
                    .abs()
                    .max((b.1[k] - wmp_box.1[k]).abs())
            })
            .fold(0.0, f64::max);
        eprintln!(
            "{file}: textures {names:?}, box {b:?}, {} faces, {entities} entities; \
             largest box deviation {dev:.3}",
            g.faces.len()
        );
        if file.starts_with("wmp/") {
            // The pair compiled from this very file (libgamestudio data/wmb/wmb6/).
            assert_eq!(names, wmp_textures, "{file}: texture names");
            assert_eq!(entities, wmp_entities, "{file}: entities");
            assert!(dev < 0.5, "{file}: boxes differ by {dev}");
            assert_eq!(g.faces.len(), resolved.blocks[0].faces.len());
        } else {
            // libgamestudio's data/wmb/wmb6/analysis/ files: a 64-unit cube with the default
            // texture, not this tetrahedron (see the module docs).
            assert_eq!(names, ["#default"], "{file}");
            assert_eq!(g.vertices.len(), 8, "{file}");
        }
    }
}

#[test]
fn kbridge_wmb_against_kbridge_wmp() {
    let Some(dir) = common::corpus_or_skip("", "the WMB-WMP comparison") else {
        return;
    };
    let source =
        wmp::binary::Wmpb::read(&std::fs::read(dir.join("wmp/wmpb/kbridge.wmp")).unwrap()).unwrap();
    let (level, _) = source.to_level();
    let (resolved, _) = resolve::resolve(&level);
    let compiled =
        wmb::read(&std::fs::read(dir.join("gamestudio/kingsbridge/kbridge.wmb")).unwrap()).unwrap();
    let objects = view::objects(&compiled).unwrap();
    let models: Vec<_> = resolved
        .entities
        .iter()
        .filter(|e| e.kind == EntityKind::Model)
        .collect();
    let entities: Vec<_> = objects
        .iter()
        .filter(|o| {
            matches!(
                o.kind,
                view::ObjectKind::Entity | view::ObjectKind::OldEntity
            )
        })
        .collect();
    let paths_wmp = resolved
        .entities
        .iter()
        .filter(|e| e.kind == EntityKind::Path)
        .count();
    let paths_wmb = objects
        .iter()
        .filter(|o| o.kind == view::ObjectKind::Path)
        .count();
    eprintln!(
        "kbridge: wmp {} models, {paths_wmp} paths; wmb {} entities ({} old layout), {paths_wmb} paths",
        models.len(),
        entities.len(),
        entities
            .iter()
            .filter(|o| o.kind == view::ObjectKind::OldEntity)
            .count()
    );
    assert_eq!(models.len(), entities.len());
    assert_eq!(paths_wmp, paths_wmb);
    let mut worst = 0.0f64;
    let mut matched = 0;
    for m in &models {
        let name = m.name.clone().unwrap_or_default();
        let Some(o) = entities
            .iter()
            .find(|o| o.name.as_deref() == Some(name.as_str()))
        else {
            panic!("model {name} is not in the WMB");
        };
        let p = o.origin.unwrap().map(f64::from);
        let d = (0..3)
            .map(|k| (p[k] - m.transform.position[k]).abs())
            .fold(0.0, f64::max);
        worst = worst.max(d);
        matched += 1;
        // The WMB's file names are the model files (13 characters in the old layout).
        let file = m.file.clone().unwrap_or_default();
        let wmb_file = o.file.clone().unwrap_or_default();
        assert!(
            file.to_ascii_lowercase()
                .starts_with(&wmb_file.to_ascii_lowercase()),
            "{name}: {file} vs {wmb_file}"
        );
    }
    eprintln!("kbridge: {matched} models matched by name, largest position difference {worst:.4}");
    assert!(worst < 0.5, "positions differ by {worst}");
    // Texture names: neither has any (the level is all models).
    assert!(view::textures(&compiled).unwrap().is_empty());
    assert!(resolved.blocks.is_empty());
}

/// The real WMB7 levels of `to-fix/` read now: `testlevel_doors.wmb`, whose region objects are
/// 56 bytes (a 20-byte name, not libgamestudio's 32), and `space.wmb`, whose 4-byte
/// `lightmaps_terrain` list is the last 4 bytes of its `lightmaps` list. Each validates, writes
/// back byte for byte (through JSON too), keeps every object and exports a `.glb` the Khronos
/// validator passes.
#[test]
fn the_to_fix_levels_read_validate_and_round_trip() {
    let Some(dir) = common::corpus_or_skip("to-fix", "the to-fix WMB levels") else {
        return;
    };
    let script = common::oracle("node/validate.js", &["node"], "glTF validator checks");
    let out = common::out_dir("wmb-to-fix", "validator");
    for (file, objects, region, within) in [
        ("testlevel_doors.wmb", 15, Some("playerSpawn"), false),
        ("space.wmb", 22, None, true),
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let level = wmb::read(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        let findings = level.validate();
        assert!(
            findings.iter().all(|w| w.severity != Severity::Error),
            "{file}: {findings:?}"
        );
        assert_eq!(findings.len(), usize::from(within), "{file}: {findings:?}");
        assert_eq!(
            level.write().unwrap(),
            bytes,
            "{file}: written bytes differ"
        );
        let back: Wmb = serde_json::from_str(&serde_json::to_string(&level).unwrap()).unwrap();
        assert_eq!(back, level, "{file}: changed through JSON");
        let list = view::objects(&level).unwrap();
        assert_eq!(list.len(), objects, "{file}");
        if let Some(region) = region {
            let r = list
                .iter()
                .find(|o| o.fields["type"] == 8)
                .expect("a region");
            assert_eq!(r.name.as_deref(), Some(region));
            assert!(
                list.iter()
                    .any(|o| o.file.as_deref() == Some("keypadkey0.mdl"))
            );
        }
        if file == "space.wmb" {
            // Old entities (type 3) whose file name is longer than its 13-byte field: the
            // compiler wrote it on into the action field, and it is read as the engine's C
            // string reads it.
            let files: Vec<_> = list
                .iter()
                .filter(|o| o.fields["type"] == 3)
                .filter_map(|o| o.file.as_deref())
                .collect();
            assert!(files.contains(&"asteroid0_obstacle.mdl"), "{files:?}");
            assert!(files.contains(&"deathpebble.mdl"), "{files:?}");
            assert!(
                files
                    .iter()
                    .all(|f| f.ends_with(".mdl") || f.ends_with(".bmp")),
                "{files:?}"
            );
        }
        let inside = level
            .items
            .iter()
            .any(|i| matches!(i, Item::Within { slot, back: 4, length: 4 } if *slot == ListKind::LightmapsTerrain as usize));
        assert_eq!(inside, within, "{file}");
        if within {
            assert_eq!(level.list(ListKind::LightmapsTerrain), None);
            assert!(level.list(ListKind::Lightmaps).is_some());
        }
        if let Some(script) = &script {
            let path = out.join(format!("{file}.glb"));
            std::fs::write(&path, glb(&level)).unwrap();
            assert!(common::assert_gltf_valid(script, &path), "{file}");
        }
    }
}

/// The same two cases made by our own writer: a list inside the list before it comes back as
/// it was, at the same offset; a 56-byte region reads its 20-byte name.
#[test]
fn a_list_inside_another_and_a_short_region_round_trip() {
    let mut level = samples::lit_quad_level();
    let at = level
        .items
        .iter()
        .position(|i| matches!(i, Item::List { slot, .. } if *slot == ListKind::Lightmaps as usize))
        .unwrap();
    level.items.insert(
        at + 1,
        Item::Within {
            slot: ListKind::LightmapsTerrain as usize,
            back: 4,
            length: 4,
        },
    );
    let bytes = level.write().unwrap();
    let back = wmb::read(&bytes).unwrap();
    assert_eq!(back.items, level.items);
    let terrain = back.slots[ListKind::LightmapsTerrain as usize];
    let lightmaps = back.slots[ListKind::Lightmaps as usize];
    assert_eq!(terrain.offset + 4, lightmaps.offset + lightmaps.length);
    assert_eq!(terrain.length, 4);
    assert_eq!(back.write().unwrap(), bytes);
    assert_eq!(back.validate().len(), 1);
    // A Within that reaches before the lists, or claims more than it steps back, is refused.
    let mut bad = level.clone();
    bad.items.insert(
        0,
        Item::Within {
            slot: 18,
            back: 4,
            length: 4,
        },
    );
    assert!(bad.write().is_err());

    let mut region = Vec::new();
    region.extend_from_slice(&1u32.to_le_bytes());
    region.extend_from_slice(&8u32.to_le_bytes());
    region.extend_from_slice(&8u32.to_le_bytes());
    for v in [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0] {
        region.extend_from_slice(&v.to_le_bytes());
    }
    region.extend_from_slice(&[0; 8]);
    let mut name = *b"playerSpawn\0\0\0\0\0\0\0\0\0";
    name[19] = 0;
    region.extend_from_slice(&name);
    let level = wmb::read(&with_list(ListKind::Objects, region)).unwrap();
    let objects = view::objects(&level).unwrap();
    assert_eq!(objects[0].name.as_deref(), Some("playerSpawn"));
    assert_eq!(objects[0].len, 56);
}

/// A compiled level places the models its entity objects name, as a WMP level does
/// (`--assets`): the sample's `crate.mdl` entity gets our MDL3 crate under its node, the model
/// read once; a missing file leaves the entity empty with one warning; sprite entities (an
/// image file) are not model entities.
#[test]
fn wmb_entities_get_their_models_beside_the_level() {
    let level = samples::lit_quad_level();
    let model = levelkit::document::Model::Wmb(level);
    let crate_mdl = levelkit::formats::mdl::samples::mdl3_crate()
        .write()
        .unwrap();
    let (mut scene, _) = model.to_scene().unwrap();
    let before = scene.meshes.len();
    let mut resolve = |file: &str| (file == "crate.mdl").then(|| crate_mdl.clone());
    let found = levelkit::document::assets::find_textures(&model, &mut scene, &mut resolve);
    assert_eq!(found.models, (1, 1));
    assert!(scene.meshes.len() > before);
    let entity = scene
        .nodes
        .iter()
        .position(|n| n.name.as_deref() == Some("crate_1"))
        .unwrap();
    // The model's nodes hang under the entity; one of them holds the imported mesh.
    let mut stack = scene.nodes[entity].children.clone();
    let mut meshes = Vec::new();
    while let Some(n) = stack.pop() {
        meshes.extend(scene.nodes[n].mesh);
        stack.extend(&scene.nodes[n].children);
    }
    assert!(
        !meshes.is_empty() && meshes.iter().all(|&m| m >= before),
        "{meshes:?}"
    );
    assert_eq!(scene.validate().len(), 0);
    glb_is_valid(&scene, "placed");

    // Missing: the entity stays empty, with a warning.
    let (mut scene, _) = model.to_scene().unwrap();
    let mut none = |_: &str| None;
    let found = levelkit::document::assets::find_textures(&model, &mut scene, &mut none);
    assert_eq!(found.models, (0, 1));
    assert!(
        found
            .warnings
            .iter()
            .any(|w| w.message.contains("crate.mdl"))
    );

    // A sprite entity is not a model entity.
    let (mut scene, _) = model.to_scene().unwrap();
    for n in &mut scene.nodes {
        if n.name.as_deref() == Some("crate_1") {
            n.extras
                .insert("file".into(), serde_json::json!("flare.TGA"));
        }
    }
    let found = levelkit::document::assets::find_textures(&model, &mut scene, &mut none);
    assert_eq!(found.models, (0, 0));
}

fn glb_is_valid(scene: &levelkit::scene::Scene, name: &str) {
    let out = gltf::write(
        scene,
        &gltf::GltfOptions {
            binary: true,
            embed: true,
            stem: name.into(),
        },
    )
    .unwrap();
    if let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks") {
        let path = common::out_dir("wmb", "placed").join(format!("{name}.glb"));
        std::fs::write(&path, &out.main).unwrap();
        common::assert_gltf_valid(&script, &path);
    }
}
