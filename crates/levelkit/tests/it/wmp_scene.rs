//! 3D GameStudio levels through the 3D bridge: every corpus level (text dialects, WMPB and
//! `$$M`) and the bundled sample become a scene with one mesh per block, a `.glb` the Khronos
//! validator passes with no errors and no warnings, and an OBJ; text and WMPB levels compile to
//! a `$$M` that reads back with the same blocks. A4 blocks are built from their planes without
//! a problem on any corpus file.

use std::path::PathBuf;

use levelkit::Limits;
use levelkit::document::Model;
use levelkit::formats::wmp::{self, text};
use levelkit::{gltf, obj};

use crate::common;

/// Every text `.wmp`, WMPB and `$$M` under `$LEVELKIT_CORPUS/wmp` (`.wmb` left out).
fn corpus_files() -> Vec<PathBuf> {
    let Some(dir) = common::corpus_or_skip("wmp", "the corpus levels") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).unwrap() {
        let sub = sub.unwrap().path();
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e != "wmb") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

/// (name, bytes) of every level to check: the sample first.
fn levels() -> Vec<(String, Vec<u8>)> {
    let (room, _) = text::WmpText::from_level(&wmp::samples::room(), text::Dialect::V710).unwrap();
    let mut out = vec![("room.wmp".to_owned(), room.write().unwrap())];
    for f in corpus_files() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let dir = f.parent().unwrap().file_name().unwrap().to_string_lossy();
        out.push((format!("{dir}-{name}"), std::fs::read(&f).unwrap()));
    }
    out
}

fn model(name: &str, bytes: &[u8]) -> Model {
    let file_name = name.rsplit_once('-').map_or(name, |(_, n)| n);
    Model::read(bytes, Some(file_name), &Limits::default()).unwrap()
}

#[test]
fn every_level_becomes_a_scene_with_a_mesh_per_block() {
    for (name, bytes) in levels() {
        let m = model(&name, &bytes);
        let (level, warnings) = m.level().unwrap();
        for w in &warnings {
            assert!(!w.message.contains("A4 block"), "{name}: {w}");
        }
        let (scene, _) = m.to_scene().unwrap();
        assert!(
            scene.validate().is_empty(),
            "{name}: {:?}",
            scene.validate()
        );
        let block_meshes = scene
            .meshes
            .iter()
            .filter(|mesh| !mesh.faces.is_empty())
            .count();
        assert_eq!(block_meshes, level.blocks.len(), "{name}");
        // Every block is a closed convex solid: at least four faces, every vertex used.
        for (b, block) in level.blocks.iter().enumerate() {
            let faces = block.faces.iter().filter(|f| f.indices.len() >= 3).count();
            assert!(faces >= 4, "{name}: block {b} has {faces} faces");
            let mut used = vec![false; block.vertices.len()];
            for f in &block.faces {
                for &i in &f.indices {
                    used[i as usize] = true;
                }
            }
            assert!(
                used.iter().all(|u| *u),
                "{name}: block {b} has unused vertices"
            );
        }
        // Lights, models and paths are nodes too.
        let entity_nodes = scene
            .nodes
            .iter()
            .filter(|n| n.extras.get("kind").is_some_and(|k| k != "block"))
            .count();
        assert_eq!(entity_nodes, level.entities.len(), "{name}");
        // OBJ keeps the polygons.
        let files = obj::write(&scene, &obj::ObjOptions::default()).unwrap();
        let text = String::from_utf8(files.main).unwrap();
        let faces: usize = level.blocks.iter().map(|b| b.faces.len()).sum();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("f ")).count(),
            faces,
            "{name}"
        );
    }
}

#[test]
fn levels_compile_to_dollar_m_that_reads_back() {
    for (name, bytes) in levels() {
        let m = model(&name, &bytes);
        if m.format() == levelkit::Format::DollarM {
            continue;
        }
        let (converted, _) = m.convert_to(levelkit::Format::DollarM).unwrap();
        let written = converted.write().unwrap();
        let again = text::WmpText::read(&written).unwrap();
        assert_eq!(again.dialect(), text::Dialect::DollarM, "{name}");
        let (level, _) = m.level().unwrap();
        let (compiled, _) = again.to_level();
        assert_eq!(compiled.blocks.len(), level.blocks.len(), "{name}");
        assert!(compiled.groups.is_empty(), "{name}");
        for block in &compiled.blocks {
            assert!(
                block.faces.iter().all(|f| f.texture_vectors.is_some()),
                "{name}: the compiler input has texture vectors on every face"
            );
        }
    }
}

#[test]
fn exported_glbs_pass_the_khronos_validator() {
    let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks")
    else {
        return;
    };
    let dir = common::out_dir("wmp-scene", "validator");
    let mut checked = 0;
    for (name, bytes) in levels() {
        let (scene, _) = model(&name, &bytes).to_scene().unwrap();
        let glb = gltf::write(
            &scene,
            &gltf::GltfOptions {
                binary: true,
                embed: true,
                stem: "level".into(),
            },
        )
        .unwrap();
        let path = dir.join(format!("{name}.glb"));
        std::fs::write(&path, &glb.main).unwrap();
        if !common::assert_gltf_valid(&script, &path) {
            return;
        }
        checked += 1;
    }
    eprintln!("validator: {checked} levels, 0 errors, 0 warnings");
}
