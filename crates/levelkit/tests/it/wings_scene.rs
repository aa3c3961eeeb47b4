//! Wings 3D <-> the common 3D model, on the real-file corpus (`LEVELKIT_CORPUS`):
//!
//! * our scene of every corpus file against Wings 3D's own glTF export of it (the oracle):
//!   triangle count, bounding box, materials and textures;
//! * `.wings -> Scene -> .wings`: the same visible geometry, lights and current view, and Wings
//!   opens the result;
//! * lights made from a scene are the lights Wings itself writes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::etf::Term;
use levelkit::formats::wings::{Content, Wings};
use levelkit::scene::Scene;

fn corpus_files() -> Vec<PathBuf> {
    let Some(root) = common::corpus_or_skip("wings", "the corpus checks") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in std::fs::read_dir(&root).unwrap().flatten() {
        if sub.file_name() == "bad" || !sub.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(sub.path()).unwrap().flatten() {
            if f.path().extension().is_some_and(|e| e == "wings") {
                out.push(f.path());
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no .wings files under {}", root.display());
    out
}

/// Triangles, bounding box (over positions that faces use, in world space), materials and
/// textures of a scene.
#[derive(Debug, Clone, PartialEq)]
struct Figures {
    triangles: usize,
    min: [f64; 3],
    max: [f64; 3],
    materials: usize,
    textures: usize,
}

fn figures(scene: &Scene) -> Figures {
    let world = scene.world_matrices();
    let mut f = Figures {
        triangles: 0,
        min: [f64::INFINITY; 3],
        max: [f64::NEG_INFINITY; 3],
        materials: 0,
        textures: 0,
    };
    let mut used_materials = std::collections::BTreeSet::new();
    for (ni, node) in scene.nodes.iter().enumerate() {
        let Some(mesh) = node.mesh.map(|m| &scene.meshes[m]) else {
            continue;
        };
        let t = levelkit::scene::Transform::Matrix(world[ni]);
        for face in &mesh.faces {
            f.triangles += face.corners.len() - 2;
            used_materials.insert(face.material);
            for c in &face.corners {
                let p = t.apply(mesh.positions[c.position as usize]);
                for k in 0..3 {
                    f.min[k] = f.min[k].min(p[k]);
                    f.max[k] = f.max[k].max(p[k]);
                }
            }
        }
    }
    f.materials = used_materials.len();
    let mut textures = std::collections::BTreeSet::new();
    for m in used_materials.into_iter().flatten() {
        let mat = &scene.materials[m];
        textures.extend(
            [
                mat.base_color_texture,
                mat.normal_texture,
                mat.occlusion_texture,
                mat.emissive_texture,
            ]
            .into_iter()
            .flatten(),
        );
    }
    f.textures = textures.len();
    f
}

/// The same figures from a glTF that Wings wrote (identity node transforms, as Wings writes).
fn gltf_figures(path: &Path) -> Figures {
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let accessors = json["accessors"].as_array().unwrap();
    let mut f = Figures {
        triangles: 0,
        min: [f64::INFINITY; 3],
        max: [f64::NEG_INFINITY; 3],
        materials: json["materials"].as_array().map_or(0, Vec::len),
        textures: json["textures"].as_array().map_or(0, Vec::len),
    };
    for mesh in json["meshes"].as_array().into_iter().flatten() {
        for p in mesh["primitives"].as_array().unwrap() {
            let idx = &accessors[p["indices"].as_u64().unwrap() as usize];
            f.triangles += idx["count"].as_u64().unwrap() as usize / 3;
            let pos = &accessors[p["attributes"]["POSITION"].as_u64().unwrap() as usize];
            for k in 0..3 {
                f.min[k] = f.min[k].min(pos["min"][k].as_f64().unwrap());
                f.max[k] = f.max[k].max(pos["max"][k].as_f64().unwrap());
            }
        }
    }
    f
}

fn wings_export(script: &Path, input: &Path, output: &Path) -> bool {
    let mut cmd = Command::new(script);
    if common::on_path("xvfb-run") {
        cmd.env("WINGS_XVFB", "1");
    }
    let out = cmd.arg("export").arg(input).arg(output).output().unwrap();
    if !out.status.success() {
        eprintln!(
            "{}: Wings export failed: {}",
            input.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out.status.success()
}

/// Wings 3D's `info` on `file` (under xvfb when available, for texture files): it must load,
/// with every object `consistent=true`. Returns the report.
fn wings_opens(script: &Path, file: &Path) -> String {
    let mut cmd = Command::new(script);
    if common::on_path("xvfb-run") {
        cmd.env("WINGS_XVFB", "1");
    }
    let out = cmd.arg("info").arg(file).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success() && !text.contains("consistent=false"),
        "{}: Wings refused the file: {text}{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn corpus_scenes_match_wings_own_gltf_export() {
    let files = corpus_files();
    if files.is_empty() {
        return;
    }
    let Some(script) = common::oracle("wings_oracle.sh", &["erl"], "Wings glTF export comparison")
    else {
        return;
    };
    let dir = common::out_dir("wings-scene", "gltf-compare");
    let mut report = Vec::new();
    for file in &files {
        let model = Wings::read(&std::fs::read(file).unwrap()).unwrap();
        let (scene, _warnings) = model.to_scene();
        assert!(
            scene
                .validate()
                .iter()
                .all(|w| w.severity != levelkit::Severity::Error),
            "{}: {:?}",
            file.display(),
            scene.validate()
        );
        let ours = figures(&scene);
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let theirs_path = dir.join(format!("{stem}.gltf"));
        assert!(
            wings_export(&script, file, &theirs_path),
            "{}",
            file.display()
        );
        let theirs = gltf_figures(&theirs_path);
        let line = format!(
            "{stem}: triangles {} / wings {}, materials {} / {}, textures {} / {}",
            ours.triangles,
            theirs.triangles,
            ours.materials,
            theirs.materials,
            ours.textures,
            theirs.textures
        );
        eprintln!("{line}");
        report.push(line);
        assert_eq!(ours.triangles, theirs.triangles, "{stem}: triangle count");
        assert_eq!(ours.materials, theirs.materials, "{stem}: material count");
        assert_eq!(ours.textures, theirs.textures, "{stem}: texture count");
        // A glTF from another writer (Wings' own: triangles, vertices split at every crease,
        // no levelkit extras) comes back to a .wings that Wings opens as consistent meshes.
        let gltf_bytes = std::fs::read(&theirs_path).unwrap();
        let (foreign, _) = levelkit::gltf::read(&gltf_bytes, &mut |uri: &str| {
            std::fs::read(dir.join(uri)).ok()
        })
        .unwrap_or_else(|e| panic!("{stem}: Wings' own glTF: {e}"));
        let (w, _) = Wings::from_scene(&foreign)
            .unwrap_or_else(|e| panic!("{stem}: Wings' own glTF to .wings: {e}"));
        let back = dir.join(format!("{stem}-from-wings-gltf.wings"));
        std::fs::write(&back, w.write().unwrap()).unwrap();
        assert!(
            Wings::read(&std::fs::read(&back).unwrap())
                .unwrap()
                .validate()
                .is_empty()
        );
        // The .wings references Wings' PNG beside it, which Wings reads through wxImage.
        wings_opens(&script, &back);
        for k in 0..3 {
            // Wings writes f32 positions.
            assert!(
                close(ours.min[k], theirs.min[k], 1e-6) && close(ours.max[k], theirs.max[k], 1e-6),
                "{stem}: bounding box {:?}..{:?} vs Wings {:?}..{:?}",
                ours.min,
                ours.max,
                theirs.min,
                theirs.max
            );
        }
    }
    assert_eq!(report.len(), files.len());
}

/// Each face's corners as rounded positions, as a sorted multiset: the visible geometry,
/// independent of vertex and face numbering.
fn geometry(scene: &Scene) -> Vec<Vec<[i64; 3]>> {
    let world = scene.world_matrices();
    let mut out = Vec::new();
    for (ni, node) in scene.nodes.iter().enumerate() {
        let Some(mesh) = node.mesh.map(|m| &scene.meshes[m]) else {
            continue;
        };
        let t = levelkit::scene::Transform::Matrix(world[ni]);
        for face in &mesh.faces {
            let mut corners: Vec<[i64; 3]> = face
                .corners
                .iter()
                .map(|c| {
                    t.apply(mesh.positions[c.position as usize])
                        .map(|v| (v * 1e5).round() as i64)
                })
                .collect();
            // The smallest rotation (corners may repeat a position), keeping the order.
            let best = (0..corners.len())
                .map(|i| {
                    let mut r = corners.clone();
                    r.rotate_left(i);
                    r
                })
                .min()
                .unwrap();
            corners = best;
            out.push(corners);
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_wings_to_scene_and_back_keeps_the_visible_geometry() {
    let files = corpus_files();
    let script = if files.is_empty() {
        None
    } else {
        common::oracle("wings_oracle.sh", &["erl"], "Wings opening our files")
    };
    let dir = common::out_dir("wings-scene", "back");
    for file in &files {
        let model = Wings::read(&std::fs::read(file).unwrap()).unwrap();
        let (scene, _) = model.to_scene();
        let (back, _warnings) =
            Wings::from_scene(&scene).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let bytes = back.write().unwrap();
        let again = Wings::read(&bytes).unwrap();
        assert!(
            again.validate().is_empty(),
            "{}: {:?}",
            file.display(),
            again.validate()
        );
        let (scene2, _) = again.to_scene();
        let (g2, g1) = (geometry(&scene2), geometry(&scene));
        assert!(
            g2 == g1,
            "{}: visible geometry changed ({} faces vs {}; first difference {:?})",
            file.display(),
            g2.len(),
            g1.len(),
            g2.iter().zip(&g1).find(|(a, b)| a != b)
        );
        assert_eq!(figures(&scene2), figures(&scene), "{}", file.display());
        if let Some(script) = &script {
            let out_path = dir.join(file.file_name().unwrap());
            std::fs::write(&out_path, &bytes).unwrap();
            wings_opens(script, &out_path);
        }
    }
}

/// Each visible face as (corner positions as f32 bits, UVs, material name), sorted: what a
/// glTF round trip must keep. Positions are compared as the f32 values glTF stores (exactly:
/// Wings objects have identity transforms); UVs within a tolerance (glTF flips V in f32).
type FaceKey = (Vec<[u32; 3]>, Vec<[f64; 2]>, Option<String>);

fn faces_f32(scene: &Scene) -> Vec<FaceKey> {
    let mut out = Vec::new();
    for node in &scene.nodes {
        let Some(mesh) = node.mesh.map(|m| &scene.meshes[m]) else {
            continue;
        };
        for face in &mesh.faces {
            let n = face.corners.len();
            let keys: Vec<[u32; 3]> = face
                .corners
                .iter()
                .map(|c| mesh.positions[c.position as usize].map(|v| (v as f32).to_bits()))
                .collect();
            // Rotate to the smallest (key, uv) sequence so equal faces compare equal.
            let start = (0..n)
                .min_by(|&a, &b| {
                    let ra: Vec<_> = (0..n).map(|k| keys[(a + k) % n]).collect();
                    let rb: Vec<_> = (0..n).map(|k| keys[(b + k) % n]).collect();
                    ra.cmp(&rb)
                })
                .unwrap();
            let rot = |k: usize| (start + k) % n;
            let uvs: Vec<[f64; 2]> = if face.corners.iter().all(|c| c.uv.is_some()) {
                (0..n).map(|k| face.corners[rot(k)].uv.unwrap()).collect()
            } else {
                Vec::new()
            };
            let material = face.material.and_then(|m| scene.materials[m].name.clone());
            let corners: Vec<[u32; 3]> = (0..n).map(|k| keys[rot(k)]).collect();
            out.push((corners, uvs, material));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.cmp(&b.2)));
    out
}

fn glb_of(scene: &Scene, binary: bool, embed: bool) -> levelkit::codec::ExportFiles {
    levelkit::gltf::write(
        scene,
        &levelkit::gltf::GltfOptions {
            binary,
            embed,
            stem: "model".into(),
        },
    )
    .unwrap()
}

#[test]
fn corpus_wings_to_glb_and_back_keeps_faces_positions_uvs_and_materials() {
    let files = corpus_files();
    let script = if files.is_empty() {
        None
    } else {
        common::oracle(
            "wings_oracle.sh",
            &["erl"],
            "Wings opening our .glb round trips",
        )
    };
    let dir = common::out_dir("wings-scene", "glb-back");
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let model = Wings::read(&std::fs::read(file).unwrap()).unwrap();
        let (scene, _) = model.to_scene();
        let glb = glb_of(&scene, true, true).main;
        let (imported, _) = levelkit::gltf::read(&glb, &mut |_| None).unwrap();
        let (back, _) = Wings::from_scene(&imported).unwrap_or_else(|e| panic!("{name}: {e}"));
        let bytes = back.write().unwrap();
        let again = Wings::read(&bytes).unwrap();
        assert!(
            again.validate().is_empty(),
            "{name}: {:?}",
            again.validate()
        );
        assert_eq!(
            lights_of(&again),
            lights_of(&model),
            "{name}: lights (name and property list)"
        );
        assert_eq!(
            current_view(&again),
            current_view(&model),
            "{name}: the current view"
        );
        let (scene2, _) = again.to_scene();
        let (a, b) = (faces_f32(&scene), faces_f32(&scene2));
        assert_eq!(a.len(), b.len(), "{name}: visible face count");
        for (fa, fb) in a.iter().zip(&b) {
            assert_eq!(fa.0, fb.0, "{name}: face corners");
            assert_eq!(fa.2, fb.2, "{name}: face material");
            assert_eq!(fa.1.len(), fb.1.len(), "{name}: UVs present");
            for (ua, ub) in fa.1.iter().zip(&fb.1) {
                assert!(
                    (ua[0] - ub[0]).abs() < 1e-5 && (ua[1] - ub[1]).abs() < 1e-5,
                    "{name}: UV {ua:?} became {ub:?}"
                );
            }
        }
        if let Some(script) = &script {
            let out_path = dir.join(&name);
            std::fs::write(&out_path, &bytes).unwrap();
            let text = wings_opens(script, &out_path);
            // Wings holds each light as an object with a stand-in mesh: leave those out.
            let objects = || {
                text.lines()
                    .filter(|l| l.starts_with("object ") && l.contains(" light=none "))
            };
            let wings_lights = text
                .lines()
                .filter(|l| l.starts_with("object ") && !l.contains(" light=none "))
                .count();
            assert_eq!(
                wings_lights,
                lights_of(&model).len(),
                "{name}: lights Wings sees"
            );
            let faces: usize = objects()
                .filter_map(|l| {
                    l.split_whitespace()
                        .find_map(|w| w.strip_prefix("faces=")?.parse::<usize>().ok())
                })
                .sum();
            let holes: usize = objects()
                .filter_map(|l| {
                    l.split_whitespace()
                        .find_map(|w| w.strip_prefix("holes=")?.parse::<usize>().ok())
                })
                .sum();
            assert_eq!(faces - holes, a.len(), "{name}: faces Wings sees");
        }
    }
}

/// The current view of a version 2 file (`views` entry number `current_view`).
fn current_view(model: &Wings) -> Option<Term> {
    let Content::V2(doc) = &model.content else {
        return None;
    };
    let index = doc.prop("current_view").and_then(Term::as_int).unwrap_or(1);
    let views = doc.prop("views").and_then(Term::list_items)?;
    views
        .get(usize::try_from(index).ok()?.checked_sub(1)?)
        .cloned()
}

/// `ours` loaded and saved again by Wings' own code (the oracle's `roundtrip`) as `theirs`, read.
fn resaved_by_wings(script: &Path, ours: &Path, theirs: &Path) -> Wings {
    let out = Command::new(script)
        .arg("roundtrip")
        .arg(ours)
        .arg(theirs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Wings::read(&std::fs::read(theirs).unwrap()).unwrap()
}

/// The `lights` entries of a version 2 file's global properties.
fn lights_of(model: &Wings) -> Vec<Term> {
    match &model.content {
        Content::V2(doc) => doc
            .prop("lights")
            .and_then(Term::list_items)
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Lights made from a scene (here the V-Chat sample's ambient, directional, point and spot
/// lights) are written as Wings 2.2.9 writes them: Wings loads each as a light of its kind, and
/// its own save of the file gives the very same light terms.
#[test]
fn scene_lights_become_the_lights_wings_writes() {
    let (scene, _) = levelkit::formats::wdb::samples::world().to_scene();
    let (model, _) = Wings::from_scene(&scene).unwrap();
    let lights = lights_of(&model);
    let kinds: Vec<String> = lights
        .iter()
        .map(|l| {
            let props = &l.as_tuple().unwrap()[1];
            let gl = props.proplist_get("opengl").unwrap();
            gl.proplist_get("type")
                .unwrap()
                .as_atom()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(kinds, ["ambient", "infinite", "point", "spot", "point"]);
    let Some(script) = common::oracle(
        "wings_oracle.sh",
        &["erl"],
        "Wings loading and saving lights made from a scene",
    ) else {
        return;
    };
    let dir = common::out_dir("wings-scene", "lights");
    let (ours, theirs) = (dir.join("world.wings"), dir.join("world_by_wings.wings"));
    std::fs::write(&ours, model.write().unwrap()).unwrap();
    let text = wings_opens(&script, &ours);
    for (name, kind) in ["ambient", "sun", "lamp", "spot", "glow"]
        .iter()
        .zip(&kinds)
    {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("object {name} "))
                    && l.contains(&format!(" light={kind} "))),
            "Wings does not see light {name} as {kind}: {text}"
        );
    }
    let saved = resaved_by_wings(&script, &ours, &theirs);
    assert_eq!(lights_of(&saved), lights, "Wings' own save of our lights");
}

/// A light that came from Wings keeps its property list through a scene, and follows its node
/// when the node is moved: the position moves, and a spot's aim point keeps its distance.
#[test]
fn wings_lights_follow_their_moved_nodes() {
    use levelkit::scene::Transform;
    let (scene, _) = levelkit::formats::wdb::samples::world().to_scene();
    let (model, _) = Wings::from_scene(&scene).unwrap();
    let (mut scene, _) = model.to_scene();
    let (unmoved, _) = Wings::from_scene(&scene).unwrap();
    assert_eq!(lights_of(&unmoved), lights_of(&model));
    let spot = scene
        .nodes
        .iter()
        .position(|n| n.name.as_deref() == Some("spot"))
        .unwrap();
    match &mut scene.nodes[spot].transform {
        Transform::Trs { translation, .. } => translation[0] += 2.0,
        other => panic!("{other:?}"),
    }
    let (moved, _) = Wings::from_scene(&scene).unwrap();
    let vec3 = |light: &Term, key: &str| -> [f64; 3] {
        let gl = light.as_tuple().unwrap()[1].proplist_get("opengl").unwrap();
        let t = gl.proplist_get(key).unwrap().as_tuple().unwrap();
        [0, 1, 2].map(|i| t[i].as_number().unwrap())
    };
    let (before, after) = (lights_of(&model), lights_of(&moved));
    for (b, a) in before.iter().zip(&after) {
        let name = b.as_tuple().unwrap()[0].as_charlist().unwrap();
        if name != "spot" {
            assert_eq!(a, b, "{name} did not move");
            continue;
        }
        for key in ["position", "aim_point"] {
            let (p0, p1) = (vec3(b, key), vec3(a, key));
            assert!(
                (p1[0] - p0[0] - 2.0).abs() < 1e-9,
                "{key}: {p0:?} -> {p1:?}"
            );
            assert!((p1[1] - p0[1]).abs() < 1e-9 && (p1[2] - p0[2]).abs() < 1e-9);
        }
    }
}

/// A camera becomes a Wings view that puts the eye back where it was, looking the same way with
/// the same field of view; written again, the view is kept whole; and Wings' own save keeps it.
#[test]
fn cameras_become_wings_views() {
    use levelkit::scene::{Camera, Node, Projection, Transform};
    let (mut scene, _) = levelkit::formats::wdb::samples::world().to_scene();
    let norm = |v: [f64; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|c| c / l)
    };
    let cross = |a: [f64; 3], b: [f64; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let (eye, target) = ([3.0, 4.0, 10.0], [0.0, 1.0, 0.0]);
    let forward = norm([target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]]);
    let z = forward.map(|c| -c);
    let x = norm(cross([0.0, 1.0, 0.0], z));
    let y = cross(z, x);
    let matrix = [
        x[0], x[1], x[2], 0.0, y[0], y[1], y[2], 0.0, z[0], z[1], z[2], 0.0, eye[0], eye[1],
        eye[2], 1.0,
    ];
    scene.cameras.push(Camera {
        name: Some("overview".into()),
        projection: Projection::Perspective {
            yfov: 0.8,
            znear: 0.05,
            zfar: Some(500.0),
            aspect_ratio: None,
        },
        extras: Default::default(),
    });
    scene.add_root(Node {
        name: Some("overview".into()),
        transform: Transform::Matrix(matrix),
        camera: Some(scene.cameras.len() - 1),
        ..Node::default()
    });
    let (model, _) = Wings::from_scene(&scene).unwrap();
    let views = |m: &Wings| match &m.content {
        Content::V2(doc) => doc.prop("views").cloned(),
        _ => None,
    };
    assert!(views(&model).is_some(), "no views written");
    let (back, _) = Wings::read(&model.write().unwrap()).unwrap().to_scene();
    assert_eq!(back.cameras.len(), 1);
    let world = back.world_matrices();
    let node = back.nodes.iter().position(|n| n.camera == Some(0)).unwrap();
    let m = world[node];
    for k in 0..3 {
        assert!((m[12 + k] - eye[k]).abs() < 1e-9, "eye {:?}", &m[12..15]);
        assert!(
            (-m[8 + k] - forward[k]).abs() < 1e-9,
            "forward {:?}",
            &m[8..11]
        );
    }
    match back.cameras[0].projection {
        Projection::Perspective {
            yfov, znear, zfar, ..
        } => {
            assert!((yfov - 0.8).abs() < 1e-6 && znear == 0.05 && zfar == Some(500.0));
        }
        ref other => panic!("{other:?}"),
    }
    let (again, _) = Wings::from_scene(&back).unwrap();
    assert_eq!(
        views(&again),
        views(&model),
        "an unmoved view is kept whole"
    );
    let Some(script) = common::oracle(
        "wings_oracle.sh",
        &["erl"],
        "Wings keeping views made from cameras",
    ) else {
        return;
    };
    let dir = common::out_dir("wings-scene", "views");
    let (ours, theirs) = (dir.join("views.wings"), dir.join("views_by_wings.wings"));
    std::fs::write(&ours, model.write().unwrap()).unwrap();
    let saved = resaved_by_wings(&script, &ours, &theirs);
    assert_eq!(views(&saved), views(&model), "Wings' own save of our view");
}

/// The Khronos glTF validator on every `.glb` and side-car `.gltf` we write from the corpus:
/// no errors and no warnings.
#[test]
fn corpus_gltf_exports_pass_the_khronos_validator() {
    let files = corpus_files();
    if files.is_empty() {
        return;
    }
    let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks")
    else {
        return;
    };
    let dir = common::out_dir("wings-scene", "validator");
    let mut checked = 0;
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let (scene, _) = Wings::read(&std::fs::read(file).unwrap())
            .unwrap()
            .to_scene();
        let glb = glb_of(&scene, true, true);
        let glb_path = dir.join(format!("{stem}.glb"));
        std::fs::write(&glb_path, &glb.main).unwrap();
        let gltf = levelkit::gltf::write(
            &scene,
            &levelkit::gltf::GltfOptions {
                binary: false,
                embed: false,
                stem: stem.clone(),
            },
        )
        .unwrap();
        let gltf_path = dir.join(format!("{stem}.gltf"));
        std::fs::write(&gltf_path, &gltf.main).unwrap();
        for (name, bytes) in &gltf.side_files {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        for path in [&glb_path, &gltf_path] {
            if !common::assert_gltf_valid(&script, path) {
                return;
            }
            checked += 1;
        }
    }
    eprintln!("validator: {checked} files, 0 errors, 0 warnings");
    assert_eq!(checked, 2 * files.len());
}
