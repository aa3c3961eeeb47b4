//! OBJ + MTL export and import: hand-built scenes written and read back, hand-written OBJ and
//! MTL text for every statement form, errors with their line and column, a truncation sweep, and
//! (when Blender is installed) Blender's own importer on what we write.

use crate::common;

use std::collections::HashMap;
use std::process::Command;

use levelkit::Severity;
use levelkit::codec::ExportFiles;
use levelkit::obj::read;
use levelkit::obj::{ObjOptions, write};
use levelkit::registry::Format;
use levelkit::scene::{
    AlphaMode, Animation, Camera, Corner, Face, Light, LightKind, Material, Mesh, Motion, Node,
    Phong, Polyline, Projection, Scene, Texture, TextureSource, Transform,
};

// ---------------------------------------------------------------------------------------------
// Scenes

const CUBE_POSITIONS: [[f64; 3]; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

/// Counter-clockwise seen from outside.
const CUBE_FACES: [[u32; 4]; 6] = [
    [4, 5, 6, 7], // +Z
    [1, 0, 3, 2], // -Z
    [5, 1, 2, 6], // +X
    [0, 4, 7, 3], // -X
    [7, 6, 2, 3], // +Y
    [0, 1, 5, 4], // -Y
];

const QUAD_UVS: [[f64; 2]; 4] = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];

fn cube_mesh(material_of_face: impl Fn(usize) -> Option<usize>) -> Mesh {
    Mesh {
        name: Some("cube mesh".into()),
        positions: CUBE_POSITIONS.to_vec(),
        faces: CUBE_FACES
            .iter()
            .enumerate()
            .map(|(fi, f)| Face {
                corners: f
                    .iter()
                    .zip(QUAD_UVS)
                    .map(|(&p, uv)| Corner {
                        position: p,
                        uv: Some([uv[0] * 0.5 + 0.25 * (fi % 2) as f64, uv[1]]),
                        ..Corner::default()
                    })
                    .collect(),
                material: material_of_face(fi),
            })
            .collect(),
        flat: true,
        ..Mesh::default()
    }
}

/// A 2 x 2 RGBA texture.
fn pixels() -> TextureSource {
    TextureSource::Pixels {
        width: 2,
        height: 2,
        channels: 4,
        data: vec![
            255, 0, 0, 255, 0, 255, 0, 255, //
            0, 0, 255, 255, 255, 255, 255, 128,
        ],
    }
}

/// The cube of quads with UVs, two materials (one textured, one with Phong values).
fn cube_scene() -> Scene {
    let mut s = Scene::new(Format::Wings);
    s.meshes.push(cube_mesh(|fi| Some(fi % 2)));
    s.textures.push(Texture {
        name: Some("checker".into()),
        source: pixels(),
        extras: Default::default(),
    });
    s.materials.push(Material {
        name: Some("painted wood".into()),
        base_color: [0.8, 0.6, 0.4, 1.0],
        base_color_texture: Some(0),
        metallic: 0.25,
        roughness: 0.5,
        emissive: [0.0, 0.1, 0.0],
        ..Material::default()
    });
    s.materials.push(Material {
        name: Some("glass".into()),
        base_color: [0.2, 0.4, 1.0, 0.5],
        alpha_mode: AlphaMode::Blend,
        metallic: 0.0,
        roughness: 0.1,
        phong: Some(Phong {
            ambient: [0.1, 0.1, 0.1, 1.0],
            diffuse: [0.2, 0.4, 1.0, 0.5],
            specular: [0.9, 0.9, 0.9, 1.0],
            emission: [0.0, 0.0, 0.0, 1.0],
            shininess: 0.75,
        }),
        ..Material::default()
    });
    s.add_root(Node {
        name: Some("Cube".into()),
        mesh: Some(0),
        ..Node::default()
    });
    s
}

/// Positions of every face corner in scene space, face by face.
fn world_faces(scene: &Scene) -> Vec<Vec<[f64; 3]>> {
    let world = scene.world_matrices();
    let mut out = Vec::new();
    for (ni, node) in scene.nodes.iter().enumerate() {
        let Some(mesh) = node.mesh.map(|m| &scene.meshes[m]) else {
            continue;
        };
        let t = Transform::Matrix(world[ni]);
        for f in &mesh.faces {
            out.push(
                f.corners
                    .iter()
                    .map(|c| t.apply(mesh.positions[c.position as usize]))
                    .collect(),
            );
        }
    }
    out
}

fn close(a: &[f64], b: &[f64], eps: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
}

fn close32(a: &[f32], b: &[f32], eps: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= eps)
}

fn newell(pts: &[[f64; 3]]) -> [f64; 3] {
    let mut n = [0.0; 3];
    for (i, a) in pts.iter().enumerate() {
        let b = pts[(i + 1) % pts.len()];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    n
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn export(scene: &Scene, stem: &str) -> ExportFiles {
    write(
        scene,
        &ObjOptions {
            triangulate: false,
            stem: stem.into(),
        },
    )
    .unwrap()
}

/// Read what `export` wrote, resolving side files from it.
fn reimport(files: &ExportFiles) -> (Scene, Vec<levelkit::Warning>) {
    let side: HashMap<String, Vec<u8>> = files.side_files.iter().cloned().collect();
    read(&files.main, &mut |name| side.get(name).cloned()).unwrap()
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

fn read_str(obj: &str) -> (Scene, Vec<levelkit::Warning>) {
    read(obj.as_bytes(), &mut |_| None).unwrap()
}

fn read_with(obj: &str, files: &[(&str, &[u8])]) -> (Scene, Vec<levelkit::Warning>) {
    let map: HashMap<String, Vec<u8>> = files
        .iter()
        .map(|(n, b)| (n.to_string(), b.to_vec()))
        .collect();
    read(obj.as_bytes(), &mut |name| map.get(name).cloned()).unwrap()
}

fn read_err(obj: &str) -> String {
    read(obj.as_bytes(), &mut |_| None).unwrap_err().to_string()
}

// ---------------------------------------------------------------------------------------------
// Export, then import

#[test]
fn cube_round_trip_keeps_quads_uvs_materials_and_texture() {
    let scene = cube_scene();
    let files = export(&scene, "cube");
    let obj = text(&files.main);
    let names: Vec<&str> = files.side_files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["cube.mtl", "cube_map0.png"]);
    assert!(obj.contains("mtllib cube.mtl\n"), "{obj}");
    assert!(obj.contains("o Cube\n"), "{obj}");
    assert_eq!(obj.lines().filter(|l| l.starts_with("v ")).count(), 8);
    // Flat cube: one normal per side; UVs: two sets of four.
    assert_eq!(obj.lines().filter(|l| l.starts_with("vn ")).count(), 6);
    assert_eq!(obj.lines().filter(|l| l.starts_with("vt ")).count(), 8);
    assert_eq!(obj.lines().filter(|l| l.starts_with("usemtl ")).count(), 6);
    assert!(obj.contains("s off\n"));
    assert!(files.warnings.is_empty(), "{:?}", files.warnings);

    let (back, warnings) = reimport(&files);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(back.validate().is_empty(), "{:?}", back.validate());
    assert_eq!(back.nodes.len(), 1);
    assert_eq!(back.nodes[0].name.as_deref(), Some("Cube"));
    let mesh = &back.meshes[0];
    assert_eq!(mesh.positions.len(), 8);
    assert_eq!(mesh.faces.len(), 6);
    assert!(mesh.faces.iter().all(|f| f.corners.len() == 4));
    for (a, b) in world_faces(&scene).iter().zip(world_faces(&back)) {
        for (p, q) in a.iter().zip(&b) {
            assert!(close(p, q, 1e-9), "{p:?} != {q:?}");
        }
    }
    for (fa, fb) in scene.meshes[0].faces.iter().zip(&mesh.faces) {
        assert_eq!(fa.material, fb.material);
        for (ca, cb) in fa.corners.iter().zip(&fb.corners) {
            assert_eq!(ca.uv, cb.uv);
            assert!(cb.normal.is_some());
        }
    }
    // Materials: names (whitespace made `_`), PBR values, Phong values where the source had them.
    assert_eq!(back.materials.len(), 2);
    let (m0, m1) = (&back.materials[0], &back.materials[1]);
    assert_eq!(m0.name.as_deref(), Some("painted_wood"));
    assert_eq!(m1.name.as_deref(), Some("glass"));
    for (a, b) in scene.materials.iter().zip(&back.materials) {
        assert!(close32(&a.base_color, &b.base_color, 1e-6), "{a:?}\n{b:?}");
        assert!(close32(&a.emissive, &b.emissive, 1e-6));
        assert!((a.metallic - b.metallic).abs() < 1e-6);
        assert!((a.roughness - b.roughness).abs() < 1e-6);
        assert_eq!(a.alpha_mode, b.alpha_mode);
        assert_eq!(a.base_color_texture, b.base_color_texture);
    }
    let (pa, pb) = (scene.materials[1].phong.unwrap(), m1.phong.unwrap());
    assert!(close32(&pa.ambient, &pb.ambient, 1e-6));
    assert!(close32(&pa.diffuse, &pb.diffuse, 1e-6));
    assert!(close32(&pa.specular, &pb.specular, 1e-6));
    assert!((pa.shininess - pb.shininess).abs() < 1e-6);
    // The texture comes back as the PNG we wrote, with the same pixels.
    assert_eq!(back.textures.len(), 1);
    let TextureSource::Encoded { mime_type, data } = &back.textures[0].source else {
        panic!("{:?}", back.textures[0].source);
    };
    assert_eq!(mime_type, "image/png");
    // (Four colours: written as an indexed PNG, with the translucent one in `tRNS`.)
    let image = image::load_from_memory_with_format(data, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8();
    assert_eq!(image.dimensions(), (2, 2));
    let TextureSource::Pixels { data: want, .. } = pixels() else {
        unreachable!()
    };
    assert_eq!(image.as_raw(), &want);
}

#[test]
fn mtl_values_are_written_as_documented() {
    let files = export(&cube_scene(), "cube");
    let mtl = text(&files.side_files[0].1);
    let block = |name: &str| -> Vec<String> {
        mtl.split("\n\n")
            .find(|b| b.contains(&format!("newmtl {name}\n")))
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    };
    let wood = block("painted_wood");
    for line in [
        "Ka 0.25 0.25 0.25",
        "Kd 0.8 0.6 0.4",
        "Ns 250",
        "Ke 0 0.1 0",
        "d 1",
        "illum 2",
        "Pr 0.5",
        "Pm 0.25",
        "map_Kd cube_map0.png",
    ] {
        assert!(wood.iter().any(|l| l == line), "{line} not in {wood:?}");
    }
    let ks: Vec<f64> = wood
        .iter()
        .find_map(|l| l.strip_prefix("Ks "))
        .unwrap()
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(close(&ks, &[0.575, 0.525, 0.475], 1e-6), "{ks:?}");
    let glass = block("glass");
    for line in ["Ka 0.1 0.1 0.1", "Ks 0.9 0.9 0.9", "Ns 750", "d 0.5"] {
        assert!(glass.iter().any(|l| l == line), "{line} not in {glass:?}");
    }
}

#[test]
fn output_is_deterministic() {
    let scene = two_node_scene();
    let a = export(&scene, "x");
    let b = export(&scene, "x");
    assert_eq!(a, b);
}

fn pentagon_mesh() -> Mesh {
    // Concave ("house with a notch"): CCW seen from +Z.
    Mesh {
        positions: vec![
            [0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0],
            [4.0, 3.0, 0.0],
            [2.0, 1.0, 0.0],
            [0.0, 3.0, 0.0],
        ],
        faces: vec![Face {
            corners: (0..5)
                .map(|p| Corner {
                    position: p,
                    ..Corner::default()
                })
                .collect(),
            material: None,
        }],
        ..Mesh::default()
    }
}

#[test]
fn concave_pentagon_stays_one_face_or_becomes_three_triangles() {
    let mut scene = Scene::new(Format::Wings);
    scene.meshes.push(pentagon_mesh());
    scene.add_root(Node {
        mesh: Some(0),
        ..Node::default()
    });
    let files = export(&scene, "p");
    // No materials anywhere: no MTL, no usemtl.
    assert!(files.side_files.is_empty());
    assert!(!text(&files.main).contains("usemtl"));
    let (back, _) = reimport(&files);
    let faces = &back.meshes[0].faces;
    assert_eq!(faces.len(), 1);
    assert_eq!(faces[0].corners.len(), 5);
    assert_eq!(faces[0].material, None);
    assert_eq!(back.nodes[0].name.as_deref(), Some("object0"));

    let tri = write(
        &scene,
        &ObjOptions {
            triangulate: true,
            stem: "p".into(),
        },
    )
    .unwrap();
    let (back, _) = reimport(&tri);
    let mesh = &back.meshes[0];
    assert_eq!(mesh.faces.len(), 3);
    let mut area = 0.0;
    for f in &mesh.faces {
        assert_eq!(f.corners.len(), 3);
        let pts: Vec<[f64; 3]> = f
            .corners
            .iter()
            .map(|c| mesh.positions[c.position as usize])
            .collect();
        let n = newell(&pts);
        assert!(n[2] > 0.0, "triangle turned over: {pts:?}");
        area += n[2] / 2.0;
    }
    // 4 x 3 rectangle minus the notch triangle (base 4, height 2).
    assert!((area - 8.0).abs() < 1e-9, "{area}");
}

/// Two quads folded at a right angle along positions 1–2, with that edge hard, and the same
/// fold with a soft edge.
fn fold(hard: bool) -> Mesh {
    Mesh {
        positions: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 0.0, -1.0],
            [1.0, 1.0, -1.0],
        ],
        faces: vec![
            Face {
                corners: [0, 1, 2, 3]
                    .map(|p| Corner {
                        position: p,
                        ..Corner::default()
                    })
                    .to_vec(),
                material: None,
            },
            Face {
                corners: [1, 4, 5, 2]
                    .map(|p| Corner {
                        position: p,
                        ..Corner::default()
                    })
                    .to_vec(),
                material: None,
            },
        ],
        hard_edges: if hard { vec![[1, 2]] } else { Vec::new() },
        ..Mesh::default()
    }
}

#[test]
fn hard_edges_survive_as_explicit_normals() {
    for hard in [true, false] {
        let mut scene = Scene::new(Format::Wings);
        scene.meshes.push(fold(hard));
        scene.add_root(Node {
            name: Some("fold".into()),
            mesh: Some(0),
            ..Node::default()
        });
        let want = scene.meshes[0].corner_normals();
        let files = export(&scene, "fold");
        let obj = text(&files.main);
        assert!(obj.contains("s 1\n"));
        let vn = obj.lines().filter(|l| l.starts_with("vn ")).count();
        // Hard: +Z and +X; soft: +Z, +X and their average at the fold.
        assert_eq!(vn, if hard { 2 } else { 3 }, "{obj}");
        let (back, _) = reimport(&files);
        let got: Vec<[f32; 3]> = back.meshes[0]
            .faces
            .iter()
            .flat_map(|f| f.corners.iter().map(|c| c.normal.unwrap()))
            .collect();
        assert_eq!(got.len(), want.len());
        for (a, b) in want.iter().zip(&got) {
            assert!(close32(a, b, 1e-6), "hard={hard}: {a:?} != {b:?}");
        }
        assert_eq!(back.meshes[0].corner_normals(), got);
    }
}

/// A parent with translation and rotation, a child with a non-uniform scale, and a mirrored
/// sibling (scale −1 on X), all sharing the pentagon.
fn two_node_scene() -> Scene {
    let mut s = Scene::new(Format::Wings);
    s.meshes.push(pentagon_mesh());
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let child = Node {
        name: Some("child".into()),
        transform: Transform::Trs {
            translation: [0.0, 0.0, 1.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [2.0, 1.0, 0.5],
        },
        mesh: Some(0),
        ..Node::default()
    };
    s.nodes.push(child);
    s.add_root(Node {
        name: Some("parent".into()),
        transform: Transform::Trs {
            translation: [10.0, 0.0, 0.0],
            rotation: [0.0, h, 0.0, h],
            scale: [1.0; 3],
        },
        children: vec![0],
        mesh: Some(0),
        ..Node::default()
    });
    s.add_root(Node {
        // Same name as the parent: made unique.
        name: Some("parent".into()),
        transform: Transform::Matrix([
            -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 5.0, 0.0, 1.0,
        ]),
        mesh: Some(0),
        ..Node::default()
    });
    s
}

#[test]
fn transforms_are_baked_and_mirrors_keep_faces_front_facing() {
    let scene = two_node_scene();
    let files = export(&scene, "t");
    let obj = text(&files.main);
    let objects: Vec<&str> = obj.lines().filter(|l| l.starts_with("o ")).collect();
    assert_eq!(objects, ["o parent", "o child", "o parent_2"]);
    let (back, _) = reimport(&files);
    assert_eq!(back.nodes.len(), 3);
    assert!(back.nodes.iter().all(|n| n.transform.is_identity()));

    // Depth first: parent (node 1), child (node 0), mirrored (node 2).
    let world = scene.world_matrices();
    let mesh = &scene.meshes[0];
    for (k, ni) in [1usize, 0, 2].into_iter().enumerate() {
        let t = Transform::Matrix(world[ni]);
        let want: Vec<[f64; 3]> = mesh.faces[0]
            .corners
            .iter()
            .map(|c| t.apply(mesh.positions[c.position as usize]))
            .collect();
        let bm = &back.meshes[back.nodes[k].mesh.unwrap()];
        let got: Vec<[f64; 3]> = bm.faces[0]
            .corners
            .iter()
            .map(|c| bm.positions[c.position as usize])
            .collect();
        assert_eq!(got.len(), 5);
        // The mirrored copy has its corners reversed; compare as sets in order.
        let mut want_sorted = want.clone();
        if ni == 2 {
            want_sorted.reverse();
        }
        for (p, q) in want_sorted.iter().zip(&got) {
            assert!(close(p, q, 1e-9), "node {ni}: {p:?} != {q:?}");
        }
        // Front-facing: the face's winding agrees with its (transformed, unit) normals.
        let face_n = newell(&got);
        for c in &bm.faces[0].corners {
            let n = c.normal.unwrap().map(f64::from);
            assert!((dot(n, n) - 1.0).abs() < 1e-6);
            assert!(
                dot(n, face_n) > 0.0,
                "node {ni}: normal {n:?} vs winding {face_n:?}"
            );
        }
    }
    // The mirrored copy's normal points along +Z still (mirroring X keeps Z).
    let bm = &back.meshes[back.nodes[2].mesh.unwrap()];
    let n = bm.faces[0].corners[0].normal.unwrap();
    assert!(close32(&n, &[0.0, 0.0, 1.0], 1e-6), "{n:?}");
    // The rotated parent's +Z turned to +X.
    let bm = &back.meshes[back.nodes[0].mesh.unwrap()];
    let n = bm.faces[0].corners[0].normal.unwrap();
    assert!(close32(&n, &[1.0, 0.0, 0.0], 1e-6), "{n:?}");
}

#[test]
fn lines_round_trip_open_and_closed() {
    let mut scene = Scene::new(Format::Wings);
    scene.materials.push(Material {
        name: Some("ink".into()),
        ..Material::default()
    });
    scene.meshes.push(Mesh {
        positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        lines: vec![
            Polyline {
                points: vec![0, 1, 2],
                closed: false,
                material: Some(0),
            },
            Polyline {
                points: vec![0, 1, 2, 3],
                closed: true,
                material: None,
            },
        ],
        ..Mesh::default()
    });
    scene.add_root(Node {
        name: Some("wire".into()),
        mesh: Some(0),
        ..Node::default()
    });
    let files = export(&scene, "w");
    let obj = text(&files.main);
    assert!(obj.contains("l 1 2 3\n"), "{obj}");
    assert!(obj.contains("l 1 2 3 4 1\n"), "{obj}");
    // The unset material after `ink` needs an explicit default.
    assert!(
        obj.contains("usemtl ink\n") && obj.contains("usemtl default\n"),
        "{obj}"
    );
    let (back, warnings) = reimport(&files);
    assert!(warnings.is_empty(), "{warnings:?}");
    let lines = &back.meshes[0].lines;
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0].points.clone(), lines[0].closed),
        (vec![0, 1, 2], false)
    );
    assert_eq!(
        (lines[1].points.clone(), lines[1].closed),
        (vec![0, 1, 2, 3], true)
    );
    assert_eq!(lines[0].material, Some(0));
    assert_eq!(back.materials[1].name.as_deref(), Some("default"));
    assert_eq!(lines[1].material, Some(1));
}

#[test]
fn vertex_colours_round_trip_through_srgb() {
    let mut scene = Scene::new(Format::Wings);
    let mut mesh = pentagon_mesh();
    let colours = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 0.5, 0.0, 1.0],
        [0.0, 0.0, 0.2, 1.0],
        [0.001, 0.3, 0.7, 0.5],
        [1.0, 1.0, 1.0, 1.0],
    ];
    for (c, col) in mesh.faces[0].corners.iter_mut().zip(colours) {
        c.color = Some(col);
    }
    scene.meshes.push(mesh);
    scene.add_root(Node {
        mesh: Some(0),
        ..Node::default()
    });
    let files = export(&scene, "c");
    let obj = text(&files.main);
    let v: Vec<&str> = obj.lines().filter(|l| l.starts_with("v ")).collect();
    assert_eq!(v.len(), 5);
    assert_eq!(v[0], "v 0 0 0 1 0 0");
    assert_eq!(v[3].split(' ').count(), 8, "alpha written: {}", v[3]);
    assert_eq!(v[4].split(' ').count(), 7);
    // 0.5 linear is about 0.735 in sRGB.
    let g: f64 = v[1].split(' ').nth(5).unwrap().parse().unwrap();
    assert!((g - 0.735_357).abs() < 1e-5, "{g}");
    let (back, _) = reimport(&files);
    for (c, want) in back.meshes[0].faces[0].corners.iter().zip(colours) {
        assert!(
            close32(&c.color.unwrap(), &want, 1e-5),
            "{:?} != {want:?}",
            c.color
        );
    }
}

#[test]
fn unmappable_items_warn_once_per_kind() {
    let mut scene = cube_scene();
    for _ in 0..3 {
        scene.lights.push(Light {
            name: None,
            kind: LightKind::Point,
            color: [1.0; 3],
            intensity: 1.0,
            range: None,
            extras: Default::default(),
        });
    }
    scene.cameras.push(Camera {
        name: None,
        projection: Projection::Perspective {
            yfov: 1.0,
            znear: 0.1,
            zfar: None,
            aspect_ratio: None,
        },
        extras: Default::default(),
    });
    for _ in 0..2 {
        scene.animations.push(Animation {
            name: None,
            node: 0,
            motion: Motion::Spin {
                axis: [0.0, 1.0, 0.0],
                degrees_per_second: 90.0,
            },
            extras: Default::default(),
        });
    }
    for _ in 0..3 {
        let i = scene.nodes.len();
        scene.add_root(Node {
            light: Some(i - 1),
            ..Node::default()
        });
    }
    scene.materials[0].double_sided = true;
    scene.materials[1].double_sided = true;
    let files = export(&scene, "cube");
    let messages: Vec<&str> = files.warnings.iter().map(|w| w.message.as_str()).collect();
    let count = |needle: &str| messages.iter().filter(|m| m.contains(needle)).count();
    assert_eq!(count("light"), 1, "{messages:#?}");
    assert_eq!(count("camera"), 1, "{messages:#?}");
    assert_eq!(count("animation"), 1, "{messages:#?}");
    assert_eq!(count("double-sided"), 1, "{messages:#?}");
    assert_eq!(count("without a mesh"), 1, "{messages:#?}");
    assert_eq!(messages.len(), 5, "{messages:#?}");
    assert!(messages.iter().any(|m| m.contains("3 not written")));
}

#[test]
fn invalid_scene_is_refused() {
    let mut scene = cube_scene();
    scene.meshes[0].faces[0].corners[0].position = 99;
    let err = write(&scene, &ObjOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("obj: "), "{err}");
    assert!(err.contains("meshes[0].faces[0]"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Hand-written OBJ

#[test]
fn every_statement_form() {
    let mtl = b"newmtl red\nKd 1 0 0\n\nnewmtl blue\r\nKd 0 0 1\r\n";
    let obj = "# a comment\r\n\
               mtllib m.mtl\r\n\
               \r\n\
               v 0 0 0\r\n\
               v\t1 0 0 1\n\
               v 1 1 0 1 0.5 0\n\
               v 0 1 0 0 0 1 0.25\n\
               v 0 0 1 \\\n\
               \t# a comment on the continued line\n\
               vt 0\n\
               vt 1 0\n\
               vt 1 1 0\n\
               vn 0 0 2\n\
               o first thing\n\
               usemtl red\n\
               f 1 2 3\n\
               f 1/1 2/2 3/3\n\
               f 1//1 2//1 3//1\n\
               f -5/-3/-1 -4/-2/-1 -3/-1/-1 -2/1/1\n\
               usemtl blue\n\
               f 1 3 \\\n  4\n\
               o second\n\
               s off\n\
               f 3 4 5\n\
               l 5/1 3 4\n\
               p 1\n\
               p 2\n\
               curv 0 1 1 2\n";
    let (scene, warnings) = read_with(obj, &[("m.mtl", mtl)]);
    let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    // One warning per unknown keyword, none for the rest.
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(messages[0].contains("`p`") && messages[1].contains("`curv`"));
    assert_eq!(warnings[0].location.line_col, Some((27, 1)));

    assert_eq!(scene.nodes.len(), 2);
    assert_eq!(scene.nodes[0].name.as_deref(), Some("first thing"));
    assert_eq!(scene.meshes[0].name.as_deref(), Some("first thing"));
    let m = &scene.meshes[0];
    assert_eq!(m.faces.len(), 5);
    let counts: Vec<usize> = m.faces.iter().map(|f| f.corners.len()).collect();
    assert_eq!(counts, [3, 3, 3, 4, 3]);
    // Positions in first-use order: 1 2 3, then 4 (the 4th `v`) in face 4 at index 3.
    assert_eq!(m.positions.len(), 4);
    assert_eq!(m.positions[3], [0.0, 1.0, 0.0]);
    let f1 = &m.faces[1];
    assert_eq!(f1.corners[2].uv, Some([1.0, 1.0]));
    assert_eq!(m.faces[0].corners[0].uv, None);
    assert_eq!(
        m.faces[1].corners[0].uv,
        Some([0.0, 0.0]),
        "vt with one number: v = 0"
    );
    assert_eq!(
        m.faces[2].corners[1].normal,
        Some([0.0, 0.0, 1.0]),
        "made unit length"
    );
    // Negative indices: -5 of 5 vertices is the first.
    let f3 = &m.faces[3];
    assert_eq!(
        f3.corners.iter().map(|c| c.position).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    assert_eq!(f3.corners[3].uv, Some([0.0, 0.0]));
    assert_eq!(f3.corners[0].uv, Some([0.0, 0.0]));
    assert_eq!(f3.corners[1].uv, Some([1.0, 0.0]));
    // Colours: sRGB in the file, linear in the model; 4 numbers is a weight, not a colour.
    assert_eq!(f3.corners[1].color, None);
    let c = f3.corners[2].color.unwrap();
    assert!(close32(&c, &[1.0, 0.214_041, 0.0, 1.0], 1e-5), "{c:?}");
    assert_eq!(f3.corners[3].color, Some([0.0, 0.0, 1.0, 0.25]));
    // Materials by `usemtl`, defined in the MTL.
    let mats: Vec<Option<usize>> = m.faces.iter().map(|f| f.material).collect();
    assert_eq!(mats, [Some(0), Some(0), Some(0), Some(0), Some(1)]);
    assert_eq!(scene.materials[1].base_color, [0.0, 0.0, 1.0, 1.0]);
    assert!(
        scene.materials[1].vertex_colors,
        "blue is used by coloured corners"
    );
    // The continued face.
    assert_eq!(
        m.faces[4]
            .corners
            .iter()
            .map(|c| c.position)
            .collect::<Vec<_>>(),
        [0, 2, 3]
    );
    // Second object: its own positions, flat (all `s off`, no normals), a line.
    let m2 = &scene.meshes[1];
    assert_eq!(
        m2.positions,
        [[1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    );
    assert!(m2.flat);
    assert!(!m.flat);
    assert_eq!(m2.lines.len(), 1);
    assert_eq!(m2.lines[0].points, [2, 0, 1]);
    assert!(!m2.lines[0].closed);
    assert!(scene.validate().is_empty(), "{:?}", scene.validate());
}

#[test]
fn groups_make_objects_only_without_o() {
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n\
               g default\n\
               g left\nf 1 2 3\n\
               g right\nf 2 4 3\n\
               g left\nf 3 2 1\n";
    let (scene, warnings) = read_str(obj);
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<_> = scene
        .nodes
        .iter()
        .map(|n| n.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["left", "right"]);
    assert_eq!(scene.meshes[0].faces.len(), 2);
    assert_eq!(scene.meshes[1].faces.len(), 1);

    let with_o = format!("o all\n{obj}");
    let (scene, warnings) = read_str(&with_o);
    assert_eq!(scene.nodes.len(), 1);
    assert_eq!(scene.meshes[0].faces.len(), 3);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("`g`"));

    // Faces before any object: one unnamed object.
    let (scene, _) = read_str("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    assert_eq!(scene.nodes.len(), 1);
    assert_eq!(scene.nodes[0].name, None);
}

#[test]
fn smoothing_groups_become_flat_or_hard_edges() {
    let verts = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\nv 3 0 0\nv 3 1 0\n";
    // Three quads in a row.
    let faces = |a: &str, b: &str, c: &str| {
        format!("{verts}s {a}\nf 1 2 3 4\ns {b}\nf 2 5 6 3\ns {c}\nf 5 7 8 6\n")
    };
    let (scene, _) = read_str(&faces("off", "0", "null"));
    assert!(scene.meshes[0].flat);
    let (scene, _) = read_str(&faces("1", "1", "1"));
    assert!(!scene.meshes[0].flat);
    assert!(scene.meshes[0].hard_edges.is_empty());
    let (scene, _) = read_str(&faces("1", "1", "2"));
    assert_eq!(scene.meshes[0].hard_edges, [[4, 5]]);
    let (scene, _) = read_str(&faces("1", "off", "1"));
    let m = &scene.meshes[0];
    assert!(!m.flat);
    // Every edge of the middle face.
    assert_eq!(m.hard_edges, [[1, 2], [1, 4], [2, 5], [4, 5]]);
    // With normals, the normals decide.
    let (scene, _) = read_str(&format!("{verts}vn 0 0 1\ns off\nf 1//1 2//1 3//1\n"));
    assert!(!scene.meshes[0].flat);
}

#[test]
fn mtl_statements_and_maps() {
    let png_bytes = b"\x89PNG\r\n\x1a\nrest";
    let jpg_bytes = b"\xFF\xD8\xFF\xE0rest";
    let mtl = "# Blender MTL\n\
               newmtl shiny metal\n\
               Ka 0.1 0.2 0.3\n\
               Kd 0.5\n\
               Ks 1 1 1\n\
               Ke 0 0 2\n\
               Ns 250\n\
               Tr 0.25\n\
               illum 3\n\
               Ni 1.45\n\
               Pm 0.9\n\
               map_Kd -bm 1 -s 1 1 1 -o 0.5 0.5 -clamp on my texture.png\n\
               map_Ke glow.jpg\n\
               bump -bm 2 normal.dat\n\
               map_Ks spec.png\n\
               Kd spectral file.rfl\n\
               \n\
               newmtl plain\n\
               Kd 1 1 1 1\n\
               d -halo 0.5\n\
               Tr 0.9\n\
               norm normal.dat\n";
    let obj = "mtllib a.mtl missing.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n\
               usemtl plain\nf 1 2 3\nusemtl shiny metal\nf 1 2 3\nusemtl nowhere\nf 1 2 3\n";
    let (scene, warnings) = read_with(
        obj,
        &[
            ("a.mtl", mtl.as_bytes()),
            ("my texture.png", png_bytes),
            ("glow.jpg", jpg_bytes),
            ("normal.dat", b"not an image"),
        ],
    );
    let names: Vec<_> = scene
        .materials
        .iter()
        .map(|m| m.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["shiny metal", "plain", "nowhere"]);
    let faces: Vec<_> = scene.meshes[0].faces.iter().map(|f| f.material).collect();
    assert_eq!(faces, [Some(1), Some(0), Some(2)]);

    let m = &scene.materials[0];
    assert_eq!(m.base_color, [0.5, 0.5, 0.5, 0.75]);
    assert_eq!(m.alpha_mode, AlphaMode::Blend);
    assert_eq!(m.emissive, [0.0, 0.0, 1.0], "clamped");
    assert!((m.metallic - 0.9).abs() < 1e-6);
    assert!((m.roughness - 0.5).abs() < 1e-6, "1 - sqrt(250/1000)");
    let p = m.phong.unwrap();
    assert_eq!(p.ambient, [0.1, 0.2, 0.3, 1.0]);
    assert_eq!(p.diffuse, [0.5, 0.5, 0.5, 0.75]);
    assert_eq!(
        p.emission,
        [0.0, 0.0, 2.0, 1.0],
        "Phong keeps what the file says"
    );
    assert_eq!(p.shininess, 0.25);
    assert_eq!(m.extras["obj_illum"], 3);
    assert_eq!(m.extras["obj_ni"], 1.45);
    let tex = |i: Option<usize>| &scene.textures[i.unwrap()];
    assert_eq!(
        tex(m.base_color_texture).name.as_deref(),
        Some("my texture.png")
    );
    assert!(matches!(
        &tex(m.base_color_texture).source,
        TextureSource::Encoded { mime_type, .. } if mime_type == "image/png"
    ));
    assert!(matches!(
        &tex(m.emissive_texture).source,
        TextureSource::Encoded { mime_type, .. } if mime_type == "image/jpeg"
    ));
    assert_eq!(
        tex(m.normal_texture).source,
        TextureSource::File("normal.dat".into())
    );
    let plain = &scene.materials[1];
    assert_eq!(
        plain.base_color[3], 0.5,
        "d wins over Tr, last word of -halo"
    );
    assert_eq!(plain.roughness, 1.0, "no Ns, no Pr");
    assert_eq!(
        plain.normal_texture, m.normal_texture,
        "same file, one texture"
    );
    assert_eq!(scene.textures.len(), 3);
    assert_eq!(scene.materials[2].phong, None);

    let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    let has = |needle: &str| messages.iter().filter(|m| m.contains(needle)).count();
    assert_eq!(has("missing.mtl"), 1, "{messages:#?}");
    assert_eq!(has("`nowhere` is not defined"), 1, "{messages:#?}");
    assert_eq!(has("-clamp"), 1, "{messages:#?}");
    assert_eq!(has("-o"), 1, "{messages:#?}");
    assert_eq!(
        has("-bm"),
        1,
        "-bm 1 is the default, -bm 2 is not: {messages:#?}"
    );
    assert_eq!(has("`map_Ks`"), 1, "{messages:#?}");
    assert_eq!(has("spectral"), 1, "{messages:#?}");
    assert_eq!(has("`Kd` has 4 numbers"), 1, "{messages:#?}");
    assert_eq!(has("clamped"), 1, "{messages:#?}");
    assert_eq!(messages.len(), 9, "{messages:#?}");
    let kd4 = warnings
        .iter()
        .find(|w| w.message.contains("`Kd` has 4"))
        .unwrap();
    assert_eq!(kd4.location.line_col, Some((19, 1)));
    assert_eq!(kd4.location.path.as_deref(), Some("a.mtl"));
}

#[test]
fn empty_and_comment_only_input() {
    for obj in ["", "\n\n", "# nothing\r\n", "   \t\n\\\n"] {
        let (scene, warnings) = read_str(obj);
        assert!(scene.nodes.is_empty() && scene.meshes.is_empty(), "{obj:?}");
        assert!(warnings.is_empty());
        assert_eq!(scene.source_format, Format::Obj);
    }
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn bad_index_names_line_and_column() {
    let three = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    let err = read_err(&format!("{three}f 1 2 4\n"));
    assert!(err.starts_with("obj: "), "{err}");
    assert!(
        err.contains("vertex index 4 is out of range: 3 vertices"),
        "{err}"
    );
    assert!(err.ends_with("(at line 4, column 7)"), "{err}");

    let err = read_err(&format!("{three}f 1 2 0\n"));
    assert!(
        err.contains("indices start at 1") && err.contains("line 4, column 7"),
        "{err}"
    );

    let err = read_err(&format!("{three}f -1 -2 -4\n"));
    assert!(
        err.contains("index -4") && err.contains("line 4, column 9"),
        "{err}"
    );

    let err = read_err(&format!("{three}vt 0 0\nf 1/1 2/2 3/1\n"));
    assert!(err.contains("texture coordinate index 2"), "{err}");
    assert!(err.contains("line 5, column 9"), "{err}");

    let err = read_err(&format!("{three}vn 0 0 1\nf 1//1 2//1 3//x\n"));
    assert!(err.contains("expected a normal index, found `x`"), "{err}");
    assert!(err.contains("line 5, column 16"), "{err}");

    let err = read_err(&format!("{three}l 1 7\n"));
    assert!(err.contains("line 4, column 5"), "{err}");

    let err = read_err(&format!("{three}f 1/1/1/1 2 3\n"));
    assert!(err.contains("line 4, column 3"), "{err}");

    // A continued statement reports the line the word is on.
    let err = read_err(&format!("{three}o x\nf 1 2 \\\n 3 9\n"));
    assert!(err.contains("line 6, column 4"), "{err}");
}

#[test]
fn short_face_and_line_name_the_line() {
    let err = read_err("v 0 0 0\nv 1 0 0\n\nf 1 2\n");
    assert!(err.contains("at least 3 corners; this one has 2"), "{err}");
    assert!(err.contains("line 4, column 1"), "{err}");
    let err = read_err("v 0 0 0\n  l 1\n");
    assert!(err.contains("at least 2 points"), "{err}");
    assert!(err.contains("line 2, column 3"), "{err}");
}

#[test]
fn garbage_numbers_name_the_line() {
    for (obj, at) in [
        ("v 0 0 zero\n", "line 1, column 7"),
        ("v 0 0 0\nvt 0.5 1,0\n", "line 2, column 8"),
        ("\r\nvn 0 nan 1\r\n", "line 2, column 6"),
        ("v 1e999 0 0\n", "line 1, column 3"),
        ("s one\n", "line 1, column 3"),
    ] {
        let err = read_err(obj);
        assert!(err.contains(at), "{obj:?}: {err}");
    }
    let err = read_err("v 1 2\n");
    assert!(
        err.contains("`v` has 2 numbers") && err.contains("line 1, column 1"),
        "{err}"
    );
    let err = read_err("v 1 2 3 4 5\n");
    assert!(err.contains("`v` has 5 numbers"), "{err}");
}

#[test]
fn truncation_sweep_never_panics() {
    let mut scene = two_node_scene();
    let cube = cube_scene();
    scene.meshes.push(cube.meshes[0].clone());
    scene.materials = cube.materials.clone();
    scene.textures = cube.textures.clone();
    scene.add_root(Node {
        mesh: Some(1),
        ..Node::default()
    });
    let files = export(&scene, "s");
    let main = &files.main;
    let mtl = files.side_files[0].1.clone();
    let mut ok = 0;
    for n in 0..=main.len() {
        let prefix = &main[..n];
        if read(prefix, &mut |_| Some(mtl.clone())).is_ok() {
            ok += 1;
        }
    }
    // Cuts inside a face's index are errors; cuts at line ends are fine.
    assert!(ok > 0 && ok < main.len(), "{ok} of {}", main.len());
    // Every prefix of the MTL, as the OBJ's library: only warnings.
    for n in 0..=mtl.len() {
        let m = mtl[..n].to_vec();
        let (scene, _) = read(main, &mut |name| (name == "s.mtl").then(|| m.clone())).unwrap();
        assert_eq!(scene.meshes.len(), 4);
    }
    // And a garbage sweep: every byte replaced by a few troublemakers.
    for i in (0..main.len()).step_by(3) {
        for b in [b'/', b'-', b'\\', b'#', b'\n', 0xFF] {
            let mut bad = main.clone();
            bad[i] = b;
            let _ = read(&bad, &mut |_| None);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Blender

#[test]
fn blender_imports_the_cube() {
    let Some(script) = common::oracle("blender_count.sh", &["blender"], "Blender OBJ import")
    else {
        return;
    };
    let dir = common::out_dir("levelkit-obj", "blender");
    let files = export(&cube_scene(), "cube");
    std::fs::write(dir.join("cube.obj"), &files.main).unwrap();
    for (name, bytes) in &files.side_files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let out = Command::new(&script)
        .arg(dir.join("cube.obj"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("RESULT "))
        .unwrap_or_else(|| panic!("no RESULT line: {stdout}"));
    let field = |name: &str| -> usize {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no {name} in {line}"))
            .parse()
            .unwrap()
    };
    println!("{line}");
    assert_eq!(field("objects"), 1, "{line}");
    assert_eq!(field("polys"), 6, "{line}");
    assert_eq!(field("verts"), 8, "{line}");
    assert_eq!(field("materials"), 2, "{line}");
    if std::env::var_os("LEVELKIT_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn severity_of_export_warnings_is_warning() {
    let mut scene = cube_scene();
    scene.extras.insert("fog".into(), 1.into());
    let files = export(&scene, "cube");
    assert_eq!(files.warnings.len(), 1);
    assert_eq!(files.warnings[0].severity, Severity::Warning);
    assert!(files.warnings[0].message.contains("extras"));
}

/// A `n` x `n` grid of quads with UVs.
fn grid(n: u32) -> Scene {
    let mut mesh = Mesh::default();
    for y in 0..=n {
        for x in 0..=n {
            mesh.positions.push([
                f64::from(x) * 0.1,
                f64::from(y) * 0.1,
                f64::from((x * y) % 7) * 0.01,
            ]);
        }
    }
    let at = |x: u32, y: u32| y * (n + 1) + x;
    for y in 0..n {
        for x in 0..n {
            mesh.faces.push(Face {
                corners: [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)]
                    .map(|p| Corner {
                        position: p,
                        uv: Some([
                            f64::from(p % (n + 1)) / f64::from(n),
                            f64::from(p / (n + 1)) / f64::from(n),
                        ]),
                        ..Corner::default()
                    })
                    .to_vec(),
                material: None,
            });
        }
    }
    let mut s = Scene::new(Format::Wings);
    s.meshes.push(mesh);
    s.add_root(Node {
        name: Some("grid".into()),
        transform: Transform::translation([1.0, 2.0, 3.0]),
        mesh: Some(0),
        ..Node::default()
    });
    s
}

#[test]
fn large_grid_round_trip() {
    let scene = grid(320);
    let t = std::time::Instant::now();
    let files = export(&scene, "grid");
    let written = t.elapsed();
    let t = std::time::Instant::now();
    let (back, _) = reimport(&files);
    let read_back = t.elapsed();
    eprintln!(
        "{} faces, {} bytes: write {written:?}, read {read_back:?}",
        scene.meshes[0].faces.len(),
        files.main.len()
    );
    let m = &back.meshes[0];
    assert_eq!(m.faces.len(), 320 * 320);
    assert_eq!(m.positions.len(), 321 * 321);
    assert!(m.faces.iter().all(|f| f.corners.len() == 4));
    assert_eq!(
        m.faces[1000].corners[2].uv,
        scene.meshes[0].faces[1000].corners[2].uv
    );
    let p = m.positions[m.faces[1000].corners[2].position as usize];
    let q = scene.meshes[0].positions[scene.meshes[0].faces[1000].corners[2].position as usize];
    assert!(close(&p, &[q[0] + 1.0, q[1] + 2.0, q[2] + 3.0], 1e-9));
}

#[test]
fn empty_meshes_are_not_written() {
    let mut scene = cube_scene();
    scene.meshes.push(Mesh::default());
    scene.add_root(Node {
        name: Some("nothing".into()),
        mesh: Some(1),
        ..Node::default()
    });
    let files = export(&scene, "cube");
    assert!(!text(&files.main).contains("o nothing"));
    assert_eq!(files.warnings.len(), 1, "{:?}", files.warnings);
    assert!(
        files.warnings[0]
            .message
            .contains("neither faces nor lines")
    );
}
