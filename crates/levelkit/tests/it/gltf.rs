//! glTF export and import: scenes built by hand go out as `.glb`, embedded `.gltf` and side-car
//! `.gltf` and come back with the same polygons, positions, UVs, materials, textures, lights,
//! cameras, node tree and spins; the Khronos glTF validator judges every file written (no errors,
//! no warnings); hostile input (every prefix, byte flips, digit changes) never panics.
//!
//! The validator (`shared/oracles/node/validate.js`) is found in `$LEVELKIT_ORACLES` or
//! `../shared/oracles` beside the repository. Without it or `node` the validator test prints
//! `SKIP`, unless `CI=true`, where it fails.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::Format;
use levelkit::codec::ExportFiles;
use levelkit::gltf::read;
use levelkit::gltf::{GltfOptions, write};
use levelkit::scene::{
    AlphaMode, Animation, Camera, Corner, Face, Light, LightKind, Material, Mesh, Motion, Node,
    Phong, Polyline, Projection, Scene, Texture, TextureSource, Transform,
};
use proptest::prelude::*;
use serde_json::{Value, json};

// ---- scenes --------------------------------------------------------------------------------

fn extras(v: Value) -> serde_json::Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("extras must be an object"),
    }
}

fn png_bytes(width: u32, height: u32, color: png::ColorType, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(color);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().unwrap();
    w.write_image_data(data).unwrap();
    w.finish().unwrap();
    out
}

/// `(width, height, channels, pixels)` of a PNG.
/// A PNG's size and pixels as RGBA, whatever colour type it was written in.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let image = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8();
    (image.width(), image.height(), image.into_raw())
}

/// Pixels of 1 to 4 channels (grey, grey + alpha, RGB, RGBA) as RGBA.
fn to_rgba(channels: u8, data: &[u8]) -> Vec<u8> {
    data.chunks_exact(usize::from(channels))
        .flat_map(|p| match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => unreachable!(),
        })
        .collect()
}

fn quat_y(degrees: f64) -> [f64; 4] {
    let h = degrees.to_radians() / 2.0;
    [0.0, h.sin(), 0.0, h.cos()]
}

fn c(position: u32, uv: [f64; 2], color: [f32; 4]) -> Corner {
    Corner {
        position,
        normal: None,
        uv: Some(uv),
        color: Some(color),
    }
}

fn plain(position: u32) -> Corner {
    Corner {
        position,
        ..Corner::default()
    }
}

/// A unit cube of six quads with UVs and colours, three faces per material, hard edges.
fn cube() -> Mesh {
    let positions = vec![
        [-0.5, -0.5, -0.5],
        [0.5, -0.5, -0.5],
        [0.5, 0.5, -0.5],
        [-0.5, 0.5, -0.5],
        [-0.5, -0.5, 0.5],
        [0.5, -0.5, 0.5],
        [0.5, 0.5, 0.5],
        [-0.5, 0.5, 0.5],
    ];
    // Counter-clockwise seen from outside.
    let quads: [[u32; 4]; 6] = [
        [4, 5, 6, 7], // +z
        [1, 0, 3, 2], // -z
        [5, 1, 2, 6], // +x
        [0, 4, 7, 3], // -x
        [7, 6, 2, 3], // +y
        [0, 1, 5, 4], // -y
    ];
    let uvs = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let faces = quads
        .iter()
        .enumerate()
        .map(|(fi, q)| Face {
            corners: q
                .iter()
                .zip(uvs)
                .enumerate()
                .map(|(k, (&p, uv))| {
                    let shade = 0.25 + 0.1 * fi as f32 + 0.05 * k as f32;
                    c(p, uv, [shade, 1.0 - shade, 0.5, 1.0])
                })
                .collect(),
            material: Some(if fi < 3 { 0 } else { 1 }),
        })
        .collect();
    let mut hard_edges = Vec::new();
    for q in &quads {
        for k in 0..4 {
            let (a, b) = (q[k], q[(k + 1) % 4]);
            let e = [a.min(b), a.max(b)];
            if !hard_edges.contains(&e) {
                hard_edges.push(e);
            }
        }
    }
    Mesh {
        name: Some("cube".into()),
        positions,
        faces,
        hard_edges,
        extras: extras(json!({"wings_id": 7})),
        ..Mesh::default()
    }
}

/// A concave arrow-shaped octagon in the XY plane, no UVs, no material.
fn arrow() -> Mesh {
    let positions = vec![
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, -1.0, 0.0],
        [4.1, 0.5, 0.0],
        [2.0, 2.0, 0.0],
        [2.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.3, 0.5, 0.0],
    ];
    Mesh {
        name: Some("arrow".into()),
        faces: vec![Face {
            corners: (0..8).map(plain).collect(),
            material: None,
        }],
        positions,
        ..Mesh::default()
    }
}

/// An open 2x2 grid of quads (smooth), textured material; two faces with UVs, two without.
fn open_grid() -> Mesh {
    let mut positions = Vec::new();
    for y in 0..3 {
        for x in 0..3 {
            positions.push([
                f64::from(x) * 0.1,
                f64::from(y) * 0.1,
                0.05 * f64::from(x * y),
            ]);
        }
    }
    let mut faces = Vec::new();
    for y in 0..2u32 {
        for x in 0..2u32 {
            let i = y * 3 + x;
            let ring = [i, i + 1, i + 4, i + 3];
            let with_uv = (x + y) % 2 == 0;
            faces.push(Face {
                corners: ring
                    .iter()
                    .map(|&p| Corner {
                        position: p,
                        uv: with_uv.then(|| [f64::from(p % 3) / 2.0, f64::from(p / 3) / 2.0]),
                        ..Corner::default()
                    })
                    .collect(),
                material: Some(1),
            });
        }
    }
    Mesh {
        name: Some("open".into()),
        positions,
        faces,
        ..Mesh::default()
    }
}

fn wire() -> Mesh {
    Mesh {
        name: Some("wire".into()),
        positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.5]],
        lines: vec![
            Polyline {
                points: vec![0, 1, 2],
                closed: false,
                material: Some(2),
            },
            Polyline {
                points: vec![0, 1, 2, 3],
                closed: true,
                material: Some(1),
            },
        ],
        ..Mesh::default()
    }
}

fn materials() -> Vec<Material> {
    vec![
        Material {
            name: Some("red".into()),
            base_color: [0.8, 0.1, 0.1, 1.0],
            metallic: 0.2,
            roughness: 0.6,
            phong: Some(Phong {
                ambient: [0.1, 0.0, 0.0, 1.0],
                diffuse: [0.8, 0.1, 0.1, 1.0],
                specular: [1.0, 1.0, 1.0, 1.0],
                emission: [0.0, 0.0, 0.0, 1.0],
                shininess: 0.75,
            }),
            extras: extras(json!({"wings": {"opacity": 1.0}})),
            ..Material::default()
        },
        Material {
            name: Some("textured".into()),
            base_color_texture: Some(0),
            emissive: [0.1, 0.2, 0.3],
            emissive_texture: Some(1),
            occlusion_texture: Some(2),
            normal_texture: Some(3),
            alpha_mode: AlphaMode::Mask(0.25),
            double_sided: true,
            vertex_colors: true,
            ..Material::default()
        },
        Material {
            name: Some("blue line".into()),
            base_color: [0.0, 0.0, 1.0, 0.5],
            alpha_mode: AlphaMode::Blend,
            ..Material::default()
        },
    ]
}

fn textures() -> Vec<Texture> {
    let mut checker = Vec::new();
    for y in 0..4u8 {
        for x in 0..4u8 {
            let on = (x + y) % 2 == 0;
            checker.extend(if on {
                [255, 255, 255, 255]
            } else {
                [40, 40, 200, 128]
            });
        }
    }
    vec![
        Texture {
            name: Some("checker".into()),
            source: TextureSource::Pixels {
                width: 4,
                height: 4,
                channels: 4,
                data: checker,
            },
            extras: extras(json!({"wings_image": 3})),
        },
        Texture {
            name: Some("grey".into()),
            source: TextureSource::Pixels {
                width: 2,
                height: 2,
                channels: 1,
                data: vec![0, 85, 170, 255],
            },
            extras: Default::default(),
        },
        Texture {
            name: Some("rgb strip".into()),
            source: TextureSource::Pixels {
                width: 3,
                height: 1,
                channels: 3,
                data: vec![255, 0, 0, 0, 255, 0, 0, 0, 255],
            },
            extras: Default::default(),
        },
        Texture {
            name: Some("encoded".into()),
            source: TextureSource::Encoded {
                mime_type: "image/png".into(),
                data: png_bytes(2, 1, png::ColorType::GrayscaleAlpha, &[10, 255, 200, 100]),
            },
            extras: Default::default(),
        },
    ]
}

fn light(name: &str, kind: LightKind) -> Light {
    Light {
        name: Some(name.into()),
        kind,
        color: [1.0, 0.9, 0.8],
        intensity: 12.5,
        range: None,
        extras: Default::default(),
    }
}

/// A column-major shear (y leans into x, z into y), translated.
const SHEAR: [f64; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.3, 2.0, 0.0, 4.0, 5.0, 6.0, 1.0,
];
/// A mirroring in x, translated: decomposes into TRS with scale -1.
const MIRROR: [f64; 16] = [
    -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -3.0, 0.0, 0.0, 1.0,
];

fn sample_scene() -> Scene {
    let mut s = Scene::new(Format::Wings);
    s.name = Some("sample".into());
    s.extras = extras(json!({"fog": {"density": 0.1, "color": [0.5, 0.5, 0.6]}}));
    s.textures = textures();
    s.materials = materials();
    s.meshes = vec![cube(), arrow(), open_grid(), wire(), Mesh::default()];
    s.lights = vec![
        Light {
            range: Some(10.0),
            extras: extras(json!({"attenuation": [1.0, 0.1, 0.01]})),
            ..light("lamp", LightKind::Point)
        },
        light(
            "spot",
            LightKind::Spot {
                inner_cone_angle: 0.3,
                outer_cone_angle: 0.6,
            },
        ),
        light("sun", LightKind::Directional),
        Light {
            extras: extras(json!({"wings_type": "ambient"})),
            ..light("sky", LightKind::Ambient)
        },
        light("panel", LightKind::Area),
    ];
    s.cameras = vec![
        Camera {
            name: Some("eye".into()),
            projection: Projection::Perspective {
                yfov: 0.8,
                znear: 0.1,
                zfar: Some(100.0),
                aspect_ratio: Some(1.5),
            },
            extras: extras(json!({"roll": 0})),
        },
        Camera {
            name: Some("top".into()),
            projection: Projection::Orthographic {
                xmag: 2.0,
                ymag: 1.5,
                znear: 0.0,
                zfar: 50.0,
            },
            extras: Default::default(),
        },
    ];
    let node = |name: &str| Node {
        name: Some(name.into()),
        ..Node::default()
    };
    s.nodes = vec![
        Node {
            transform: Transform::Trs {
                translation: [1.0, 2.0, 3.0],
                rotation: quat_y(30.0),
                scale: [1.0; 3],
            },
            children: (1..13).collect(),
            extras: extras(json!({"layer": "world"})),
            ..node("root")
        },
        Node {
            transform: Transform::Trs {
                translation: [0.0, 1.0, 0.0],
                rotation: quat_y(10.0),
                scale: [2.0, 2.0, 2.0],
            },
            mesh: Some(0),
            ..node("cube")
        },
        Node {
            transform: Transform::Matrix(MIRROR),
            mesh: Some(1),
            ..node("arrow (mirrored)")
        },
        Node {
            transform: Transform::Matrix(SHEAR),
            mesh: Some(2),
            children: vec![13],
            light: Some(0),
            extras: extras(json!({"sheared": true})),
            ..node("open (sheared)")
        },
        Node {
            mesh: Some(3),
            ..node("wire")
        },
        Node {
            light: Some(1),
            transform: Transform::translation([0.0, 5.0, 0.0]),
            ..node("spot")
        },
        Node {
            light: Some(2),
            ..node("sun")
        },
        Node {
            light: Some(3),
            ..node("sky")
        },
        Node {
            light: Some(4),
            ..node("panel")
        },
        Node {
            camera: Some(0),
            transform: Transform::translation([0.0, 0.0, 10.0]),
            ..node("eye")
        },
        Node {
            camera: Some(1),
            ..node("top")
        },
        Node {
            mesh: Some(4),
            ..node("empty mesh")
        },
        Node {
            // A rotation by 90 degrees about z, translated: TRS-decomposable, and it spins.
            transform: Transform::Matrix([
                0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -2.0, 1.0,
            ]),
            mesh: Some(0),
            ..node("spinning matrix")
        },
        Node {
            mesh: Some(0),
            ..node("under the shear")
        },
    ];
    s.roots = vec![0];
    s.animations = vec![
        Animation {
            name: Some("turntable".into()),
            node: 1,
            motion: Motion::Spin {
                axis: [0.0, 1.0, 0.0],
                degrees_per_second: 45.0,
            },
            extras: extras(json!({"wings_anim": "spin"})),
        },
        Animation {
            name: None,
            node: 3,
            motion: Motion::Spin {
                axis: [1.0, 0.0, 0.0],
                degrees_per_second: -90.0,
            },
            extras: Default::default(),
        },
        Animation {
            name: Some("matrix spin".into()),
            node: 12,
            motion: Motion::Spin {
                axis: [0.0, 0.0, 2.0],
                degrees_per_second: 30.0,
            },
            extras: Default::default(),
        },
    ];
    let errors: Vec<_> = s.validate();
    assert!(errors.is_empty(), "sample scene: {errors:?}");
    s
}

// ---- helpers -------------------------------------------------------------------------------

fn options(binary: bool, embed: bool) -> GltfOptions {
    GltfOptions {
        binary,
        embed,
        stem: "sample scene".into(),
    }
}

fn import(files: &ExportFiles) -> (Scene, Vec<levelkit::Warning>) {
    let side: HashMap<String, Vec<u8>> = files.side_files.iter().cloned().collect();
    read(&files.main, &mut |uri| side.get(uri).cloned()).unwrap()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn assert_close_slice(what: &str, a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        assert!(close(*x, *y, tol), "{what}: {a:?} vs {b:?}");
    }
}

fn light_of(scene: &Scene, node: usize) -> Option<&Light> {
    scene.lights.get(scene.nodes[node].light?)
}

/// Everything that must survive export + import.
fn assert_same_scene(original: &Scene, back: &Scene) {
    assert_eq!(back.name, original.name);
    assert_eq!(back.extras, original.extras, "scene extras");
    assert_eq!(back.roots, original.roots);
    assert_eq!(
        back.nodes.len(),
        original.nodes.len(),
        "nodes (split ones merged)"
    );
    assert_eq!(back.materials, original.materials, "materials");

    // Textures: pixels come back as PNG with the same pixels.
    assert_eq!(back.textures.len(), original.textures.len());
    for (a, b) in original.textures.iter().zip(&back.textures) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.extras, b.extras);
        match (&a.source, &b.source) {
            (
                TextureSource::Pixels {
                    width,
                    height,
                    channels,
                    data,
                },
                TextureSource::Encoded {
                    mime_type,
                    data: png,
                },
            ) => {
                assert_eq!(mime_type, "image/png");
                // The same pixels, in whichever PNG colour type holds them in the fewest bytes.
                let (w, h, pixels) = decode_png(png);
                assert_eq!((w, h), (*width, *height));
                assert_eq!(pixels, to_rgba(*channels, data));
            }
            (x, y) => assert_eq!(x, y),
        }
    }

    // Nodes: names, tree, transforms (f32 precision; matrices kept in extras come back exactly).
    for (i, (a, b)) in original.nodes.iter().zip(&back.nodes).enumerate() {
        assert_eq!(a.name, b.name, "node {i}");
        assert_eq!(a.children, b.children, "node {i} children");
        assert_eq!(a.extras, b.extras, "node {i} extras");
        assert_eq!(a.camera, b.camera, "node {i} camera");
        let mesh_kept = a.mesh.filter(|&m| {
            let m = &original.meshes[m];
            !(m.faces.is_empty() && m.lines.is_empty())
        });
        assert_eq!(mesh_kept, b.mesh, "node {i} mesh");
        assert_eq!(
            matches!(a.transform, Transform::Matrix(_)),
            matches!(b.transform, Transform::Matrix(_)),
            "node {i} transform kind"
        );
        assert_close_slice(
            &format!("node {i} matrix"),
            &a.transform.matrix(),
            &b.transform.matrix(),
            1e-6,
        );
        match (light_of(original, i), light_of(back, i)) {
            (Some(x), Some(y)) => assert_eq!(x, y, "node {i} light"),
            (None, None) => {}
            (x, y) => panic!("node {i} light {x:?} vs {y:?}"),
        }
    }
    assert_eq!(back.lights.len(), original.lights.len());
    assert_eq!(
        back.nodes[3].transform,
        Transform::Matrix(SHEAR),
        "shear exact"
    );

    // Cameras (f32 precision).
    assert_eq!(back.cameras.len(), original.cameras.len());
    for (a, b) in original.cameras.iter().zip(&back.cameras) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.extras, b.extras);
        let nums = |p: &Projection| match *p {
            Projection::Perspective {
                yfov,
                znear,
                zfar,
                aspect_ratio,
            } => vec![
                0.0,
                yfov,
                znear,
                zfar.unwrap_or(-1.0),
                aspect_ratio.unwrap_or(-1.0),
            ],
            Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            } => vec![1.0, xmag, ymag, znear, zfar],
        };
        assert_close_slice("camera", &nums(&a.projection), &nums(&b.projection), 1e-5);
    }

    // Meshes: the empty one is gone; polygons rebuilt with the same corners.
    let kept: Vec<&Mesh> = original
        .meshes
        .iter()
        .filter(|m| !(m.faces.is_empty() && m.lines.is_empty()))
        .collect();
    assert_eq!(back.meshes.len(), kept.len());
    for (mi, (a, b)) in kept.iter().zip(&back.meshes).enumerate() {
        assert_same_mesh(mi, a, b);
    }

    // Spins, on the same nodes, exactly.
    assert_eq!(back.animations, original.animations);
}

/// Faces (grouped by material, as the primitives hold them), corners, positions, UVs, colours,
/// normals and lines survive.
fn assert_same_mesh(mi: usize, a: &Mesh, b: &Mesh) {
    assert_eq!(a.name, b.name);
    // The reader marks a mesh whose positions levelkit's ids shared again (the MDL writer
    // then welds nothing); the rest of the extras come back as they were.
    let mut extras = b.extras.clone();
    if let Some(marked) = extras.remove("levelkit_source_vertices") {
        assert_eq!(marked, Value::Bool(true), "mesh {mi}");
    }
    assert_eq!(a.extras, extras);
    assert_eq!(b.faces.len(), a.faces.len(), "mesh {mi} faces");
    let normals = a.corner_normals();
    let mut k = 0;
    // Faces come back grouped by material (one primitive each), in order of first use.
    let mut order: Vec<Option<usize>> = Vec::new();
    for f in &a.faces {
        if !order.contains(&f.material) {
            order.push(f.material);
        }
    }
    let mut grouped: Vec<(usize, &Face)> = Vec::new();
    for m in &order {
        grouped.extend(a.faces.iter().enumerate().filter(|(_, f)| f.material == *m));
    }
    let starts: Vec<usize> = a
        .faces
        .iter()
        .scan(0, |acc, f| {
            let s = *acc;
            *acc += f.corners.len();
            Some(s)
        })
        .collect();
    for ((fi, fa), fb) in grouped.iter().zip(&b.faces) {
        assert_eq!(
            fa.corners.len(),
            fb.corners.len(),
            "mesh {mi} face {fi} corners"
        );
        assert_eq!(fa.material, fb.material);
        for (ci, (ca, cb)) in fa.corners.iter().zip(&fb.corners).enumerate() {
            let pa = a.positions[ca.position as usize];
            let pb = b.positions[cb.position as usize];
            assert_close_slice(&format!("mesh {mi} face {fi} corner {ci}"), &pa, &pb, 1e-6);
            match (ca.uv, cb.uv) {
                (Some(x), Some(y)) => assert_close_slice("uv", &x, &y, 1e-6),
                (None, None) => {}
                (x, y) => panic!("mesh {mi} face {fi} corner {ci} uv {x:?} vs {y:?}"),
            }
            assert_eq!(ca.color, cb.color, "mesh {mi} face {fi} corner {ci} colour");
            let n = normals[starts[*fi] + ci].map(f64::from);
            let got = cb.normal.unwrap().map(f64::from);
            assert_close_slice("normal", &n, &got, 1e-6);
        }
        k += 1;
    }
    assert_eq!(k, a.faces.len());
    assert_eq!(b.lines.len(), a.lines.len(), "mesh {mi} lines");
    for (la, lb) in a.lines.iter().zip(&b.lines) {
        assert_eq!(la.closed, lb.closed);
        assert_eq!(la.material, lb.material);
        let pa: Vec<f64> = la
            .points
            .iter()
            .flat_map(|&p| a.positions[p as usize])
            .collect();
        let pb: Vec<f64> = lb
            .points
            .iter()
            .flat_map(|&p| b.positions[p as usize])
            .collect();
        assert_close_slice("line", &pa, &pb, 1e-6);
    }
}

fn export_warnings_expected(files: &ExportFiles) {
    let text: Vec<String> = files.warnings.iter().map(ToString::to_string).collect();
    let has = |needle: &str| text.iter().any(|w| w.contains(needle));
    // The ambient light is kept in the extras: a note, not a warning.
    assert!(!has("ambient"), "{text:#?}");
    assert!(
        files.notes.iter().any(|n| n.contains("an ambient light")),
        "{:#?}",
        files.notes
    );
    assert!(has("no area light"), "{text:#?}");
    assert!(has("no faces and no lines"), "{text:#?}");
    assert!(
        has("2 of the 4 faces with material 1 have no UVs"),
        "{text:#?}"
    );
    assert!(has("the line gets UVs (0, 0)"), "{text:#?}");
    assert_eq!(text.len(), 4, "{text:#?}");
}

// ---- round trips ---------------------------------------------------------------------------

#[test]
fn glb_round_trip() {
    let scene = sample_scene();
    let files = write(&scene, &options(true, true)).unwrap();
    assert!(files.main.starts_with(b"glTF"));
    assert!(files.side_files.is_empty());
    export_warnings_expected(&files);
    let (back, warnings) = import(&files);
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(back.source_format, Format::Glb);
    assert_same_scene(&scene, &back);
}

#[test]
fn embedded_gltf_round_trip() {
    let scene = sample_scene();
    let files = write(&scene, &options(false, true)).unwrap();
    assert!(files.side_files.is_empty());
    let json: Value = serde_json::from_slice(&files.main).unwrap();
    assert!(
        json["buffers"][0]["uri"]
            .as_str()
            .unwrap()
            .starts_with("data:application/octet-stream;base64,")
    );
    assert!(
        json["images"][0]["uri"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,")
    );
    assert_eq!(
        json["asset"]["generator"],
        format!("levelkit {}", env!("CARGO_PKG_VERSION"))
    );
    let (back, warnings) = read(&files.main, &mut |_| None).unwrap();
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(back.source_format, Format::Gltf);
    assert_same_scene(&scene, &back);
}

#[test]
fn side_car_gltf_round_trip() {
    let scene = sample_scene();
    let files = write(&scene, &options(false, false)).unwrap();
    let names: Vec<&str> = files.side_files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "sample scene_0.png",
            "sample scene_1.png",
            "sample scene_2.png",
            "sample scene_3.png",
            "sample scene.bin"
        ]
    );
    let json: Value = serde_json::from_slice(&files.main).unwrap();
    assert_eq!(json["buffers"][0]["uri"], "sample%20scene.bin");
    assert_eq!(json["images"][2]["uri"], "sample%20scene_2.png");
    // The resolver gets the decoded relative path; images stay file references.
    let mut asked = Vec::new();
    let side: HashMap<String, Vec<u8>> = files.side_files.iter().cloned().collect();
    let (back, _) = read(&files.main, &mut |uri| {
        asked.push(uri.to_owned());
        side.get(uri).cloned()
    })
    .unwrap();
    assert_eq!(asked, ["sample scene.bin"]);
    assert_eq!(
        back.textures[0].source,
        TextureSource::File("sample scene_0.png".into())
    );
    // With the images loaded the way a caller would, the scene is the same.
    let mut back = back;
    for t in &mut back.textures {
        if let TextureSource::File(name) = &t.source {
            t.source = TextureSource::Encoded {
                mime_type: "image/png".into(),
                data: side[name].clone(),
            };
        }
    }
    assert_same_scene(&scene, &back);
}

#[test]
fn missing_side_buffer_is_an_error_naming_it() {
    let files = write(&sample_scene(), &options(false, false)).unwrap();
    let err = read(&files.main, &mut |_| None).unwrap_err();
    assert_eq!(err.kind, levelkit::ErrorKind::Io);
    assert!(err.to_string().contains("\"sample scene.bin\""), "{err}");
    assert!(err.to_string().contains("buffer 0"), "{err}");
}

#[test]
fn polygons_and_primitives_in_the_file() {
    let files = write(&sample_scene(), &options(false, true)).unwrap();
    let json: Value = serde_json::from_slice(&files.main).unwrap();
    let cube = &json["meshes"][0]["primitives"];
    // Two materials: two primitives of three quads each (six triangles).
    assert_eq!(cube.as_array().unwrap().len(), 2);
    assert_eq!(cube[0]["extras"]["levelkit_polygons"], json!([4, 4, 4]));
    assert_eq!(cube[0]["material"], 0);
    assert_eq!(cube[1]["material"], 1);
    let idx = cube[0]["indices"].as_u64().unwrap() as usize;
    assert_eq!(json["accessors"][idx]["count"], 18);
    assert_eq!(json["accessors"][idx]["componentType"], 5123);
    assert!(cube[0]["attributes"]["COLOR_0"].is_number());
    assert!(cube[0]["attributes"]["TEXCOORD_0"].is_number());
    let pos = cube[0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    assert_eq!(json["accessors"][pos]["min"], json!([-0.5, -0.5, -0.5]));
    assert_eq!(json["accessors"][pos]["max"], json!([0.5, 0.5, 0.5]));
    // The arrow: one octagon, six triangles, no material, no UVs.
    let arrow = &json["meshes"][1]["primitives"][0];
    assert_eq!(arrow["extras"]["levelkit_polygons"], json!([8]));
    assert!(arrow.get("material").is_none());
    assert!(arrow["attributes"].get("TEXCOORD_0").is_none());
    // The open grid: faces 1 and 2 had no UVs.
    let open = &json["meshes"][2]["primitives"][0];
    assert_eq!(open["extras"]["levelkit_faces_without_uv"], json!([1, 2]));
    // Lines: a strip and a loop.
    let wire = &json["meshes"][3]["primitives"];
    assert_eq!(wire[0]["mode"], 3);
    assert_eq!(wire[1]["mode"], 2);
    // Lights: point, spot, directional, area-as-spot; the ambient one in the scene's extras.
    let lights = &json["extensions"]["KHR_lights_punctual"]["lights"];
    assert_eq!(lights.as_array().unwrap().len(), 4);
    assert_eq!(lights[3]["type"], "spot");
    assert_eq!(lights[3]["extras"]["area_light"], true);
    assert!(lights[3]["spot"]["outerConeAngle"].as_f64().unwrap() < std::f64::consts::FRAC_PI_2);
    assert_eq!(
        json["scenes"][0]["extras"]["ambient_lights"][0]["name"],
        "sky"
    );
    assert_eq!(json["nodes"][7]["extras"]["ambient_light"], 0);
    // The shear became a TRS node plus an inserted child (appended after the 14 nodes).
    assert_eq!(json["nodes"].as_array().unwrap().len(), 15);
    assert_eq!(json["nodes"][3]["children"], json!([14]));
    assert_eq!(json["nodes"][14]["extras"]["levelkit_split"], true);
    assert_eq!(json["nodes"][14]["mesh"], 2);
    assert!(json["nodes"][3].get("matrix").is_none());
    // The mirror stays a matrix; the spinning matrix became TRS.
    assert!(json["nodes"][2]["matrix"].is_array());
    assert!(json["nodes"][12].get("matrix").is_none());
    // Three spins, five keys each; the shear's spin turns the inserted child.
    let anims = json["animations"].as_array().unwrap();
    assert_eq!(anims.len(), 3);
    let targets: Vec<u64> = anims
        .iter()
        .map(|a| a["channels"][0]["target"]["node"].as_u64().unwrap())
        .collect();
    assert_eq!(targets, [1, 14, 12]);
    let input = anims[0]["samplers"][0]["input"].as_u64().unwrap() as usize;
    assert_eq!(json["accessors"][input]["count"], 13); // a key every 30 degrees
    assert_eq!(json["accessors"][input]["max"], json!([8.0])); // 360 degrees at 45 per second
    assert_eq!(json["extensionsUsed"], json!(["KHR_lights_punctual"]));
}

/// The spin keys reproduce `base * spin(t)`: at a quarter turn the node's rotation is the base
/// rotation followed by 90 degrees about the axis.
#[test]
fn spin_keys_compose_with_the_base_rotation() {
    let files = write(&sample_scene(), &options(false, true)).unwrap();
    let json: Value = serde_json::from_slice(&files.main).unwrap();
    // Read the output accessor of the first animation straight from the embedded buffer.
    let uri = json["buffers"][0]["uri"].as_str().unwrap();
    let b64 = uri.split(',').nth(1).unwrap();
    let buffer = base64_decode(b64);
    let out = json["animations"][0]["samplers"][0]["output"]
        .as_u64()
        .unwrap() as usize;
    let view = json["accessors"][out]["bufferView"].as_u64().unwrap() as usize;
    let offset = json["bufferViews"][view]["byteOffset"]
        .as_u64()
        .unwrap_or(0) as usize;
    let floats: Vec<f64> = buffer[offset..offset + 13 * 16]
        .chunks_exact(4)
        .map(|c| f64::from(f32::from_le_bytes(c.try_into().unwrap())))
        .collect();
    let base = quat_y(10.0);
    assert_close_slice("key 0", &floats[0..4], &base, 1e-6);
    let want = quat_y(40.0); // both about y: angles add
    assert_close_slice("key 1", &floats[4..8], &want, 1e-6);
    let want = quat_y(100.0);
    assert_close_slice("key 3", &floats[12..16], &want, 1e-6);
    let want = quat_y(370.0);
    assert_close_slice("key 12", &floats[48..52], &want, 1e-6);
}

fn base64_decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => break,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn base64_encode(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(A[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ---- what does not map ---------------------------------------------------------------------

#[test]
fn invalid_scene_is_an_error() {
    let mut scene = sample_scene();
    scene.meshes[0].faces[0].corners[0].position = 99;
    let err = write(&scene, &options(true, true)).unwrap_err();
    assert!(err.to_string().contains("meshes[0].faces[0]"), "{err}");
    assert!(err.to_string().contains("position 99"), "{err}");
}

#[test]
fn zero_speed_and_second_spins_are_left_out() {
    let mut scene = sample_scene();
    scene.animations[0].motion = Motion::Spin {
        axis: [0.0, 1.0, 0.0],
        degrees_per_second: 0.0,
    };
    scene.animations.push(Animation {
        name: None,
        node: 3,
        motion: Motion::Spin {
            axis: [0.0, 1.0, 0.0],
            degrees_per_second: 10.0,
        },
        extras: Default::default(),
    });
    let files = write(&scene, &options(true, true)).unwrap();
    let text: Vec<String> = files.warnings.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|w| w.contains("speed 0")), "{text:#?}");
    assert!(
        text.iter().any(|w| w.contains("already spins")),
        "{text:#?}"
    );
    let (back, _) = import(&files);
    assert_eq!(back.animations.len(), 2);
    assert_eq!(back.animations[0], scene.animations[1]);
}

#[test]
fn encoded_textures_are_checked_by_their_bytes() {
    let mut scene = sample_scene();
    // PNG bytes that claim to be JPEG, and bytes that are no image at all.
    if let TextureSource::Encoded { mime_type, .. } = &mut scene.textures[3].source {
        *mime_type = "image/jpeg".into();
    }
    scene.textures[2].source = TextureSource::Encoded {
        mime_type: "image/webp".into(),
        data: b"RIFF....WEBP".to_vec(),
    };
    let files = write(&scene, &options(true, true)).unwrap();
    let text: Vec<String> = files.warnings.iter().map(ToString::to_string).collect();
    assert!(
        text.iter()
            .any(|w| w.contains("says it is image/jpeg but its bytes are image/png")),
        "{text:#?}"
    );
    assert!(
        text.iter().any(|w| w.contains("neither PNG nor JPEG")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|w| w.contains("loses its occlusion_texture")),
        "{text:#?}"
    );
    let (back, _) = import(&files);
    assert_eq!(back.textures.len(), 3);
    assert_eq!(back.materials[1].occlusion_texture, None);
    // Texture 3 moved up to 2.
    assert_eq!(back.materials[1].normal_texture, Some(2));
    assert!(matches!(&back.textures[2].source,
        TextureSource::Encoded { mime_type, .. } if mime_type == "image/png"));
}

#[test]
fn file_textures_are_references() {
    let mut scene = sample_scene();
    scene.textures[0].source = TextureSource::File("maps\\my checker.png".into());
    scene.textures[1].source = TextureSource::File("https://example.com/a%20b.png".into());
    let files = write(&scene, &options(true, true)).unwrap();
    let json = glb_json(&files.main);
    assert_eq!(json["images"][0]["uri"], "maps/my%20checker.png");
    assert_eq!(json["images"][1]["uri"], "https://example.com/a%20b.png");
    let (back, _) = import(&files);
    assert_eq!(
        back.textures[0].source,
        TextureSource::File("maps/my checker.png".into())
    );
    assert_eq!(
        back.textures[1].source,
        TextureSource::File("https://example.com/a%20b.png".into())
    );
}

fn glb_json(glb: &[u8]) -> Value {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + len]).unwrap()
}

/// More than 65 535 vertices: 32-bit indices.
fn big_grid() -> Scene {
    let (w, h) = (260u32, 270u32);
    let mut mesh = Mesh {
        name: Some("big".into()),
        flat: true,
        ..Mesh::default()
    };
    for y in 0..h {
        for x in 0..w {
            mesh.positions.push([
                f64::from(x) * 0.01,
                f64::from(y) * 0.01,
                f64::from((x * y) % 7) * 0.001,
            ]);
        }
    }
    for y in 0..h - 1 {
        for x in 0..w - 1 {
            let i = y * w + x;
            mesh.faces.push(Face {
                corners: [i, i + 1, i + w + 1, i + w].map(plain).to_vec(),
                material: None,
            });
        }
    }
    let mut scene = Scene::new(Format::Wings);
    scene.meshes.push(mesh);
    scene.add_root(Node {
        mesh: Some(0),
        ..Node::default()
    });
    scene
}

#[test]
fn big_mesh_uses_32_bit_indices() {
    let scene = big_grid();
    let files = write(&scene, &options(true, true)).unwrap();
    let json = glb_json(&files.main);
    let idx = json["meshes"][0]["primitives"][0]["indices"]
        .as_u64()
        .unwrap() as usize;
    assert_eq!(json["accessors"][idx]["componentType"], 5125);
    let (back, _) = import(&files);
    assert_eq!(back.meshes[0].faces.len(), scene.meshes[0].faces.len());
    assert!(back.meshes[0].faces.iter().all(|f| f.corners.len() == 4));
}

// ---- foreign files -------------------------------------------------------------------------

/// A glTF written by hand the way other tools write them: a triangle strip with normalized
/// `u8` colours, a `LINES` primitive, points, a non-levelkit animation, no extras.
#[test]
fn foreign_gltf_strips_lines_and_points() {
    let mut bin = Vec::new();
    for p in [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ] {
        for v in p {
            bin.extend(v.to_le_bytes());
        }
    }
    let colors_at = bin.len();
    bin.extend([
        255u8, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 0,
    ]);
    let lines_at = bin.len();
    bin.extend([0u16, 1, 1, 3, 2, 0].iter().flat_map(|i| i.to_le_bytes()));
    let times_at = bin.len();
    bin.extend([0.0f32, 1.0].iter().flat_map(|t| t.to_le_bytes()));
    let doc = json!({
        "asset": {"version": "2.0", "generator": "hand"},
        "buffers": [{"byteLength": bin.len(),
            "uri": format!("data:application/octet-stream;base64,{}", base64_encode(&bin))}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 48},
            {"buffer": 0, "byteOffset": colors_at, "byteLength": 16},
            {"buffer": 0, "byteOffset": lines_at, "byteLength": 12},
            {"buffer": 0, "byteOffset": times_at, "byteLength": 8}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5121, "normalized": true, "count": 4, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR"}
        ],
        "meshes": [{"name": "strip", "primitives": [
            {"attributes": {"POSITION": 0, "COLOR_0": 1}, "mode": 5},
            {"attributes": {"POSITION": 0}, "indices": 2, "mode": 1},
            {"attributes": {"POSITION": 0}, "mode": 0}
        ]}],
        "nodes": [{"mesh": 0, "translation": [1, 0, 0]}],
        "scenes": [{"nodes": [0]}],
        "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
            "samplers": [{"input": 3, "output": 3}]}]
    });
    let bytes = serde_json::to_vec(&doc).unwrap();
    let (scene, warnings) = read(&bytes, &mut |_| None).unwrap();
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|w| w.contains("points are not supported")),
        "{text:#?}"
    );
    assert!(
        // Its translation keys are scalars, not VEC3: the animation is left out, the rest reads.
        text.iter().any(|w| w.contains("animation left out")),
        "{text:#?}"
    );
    let mesh = &scene.meshes[0];
    // The strip's and the lines' vertices, appended without welding (the points are skipped).
    assert_eq!(mesh.positions.len(), 8);
    assert_eq!(mesh.faces.len(), 2);
    let tri = |f: &Face| f.corners.iter().map(|c| c.position).collect::<Vec<_>>();
    assert_eq!(tri(&mesh.faces[0]), [0, 1, 2]);
    assert_eq!(tri(&mesh.faces[1]), [2, 1, 3]); // odd strip triangles swap to keep the winding
    assert_eq!(mesh.faces[0].corners[1].color, Some([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(mesh.faces[1].corners[2].color, Some([1.0, 1.0, 1.0, 0.0]));
    assert_eq!(mesh.faces[0].corners[0].normal, None);
    // LINES 0-1, 1-3 chain into one polyline; 2-0 starts another.
    let lines: Vec<Vec<u32>> = mesh.lines.iter().map(|l| l.points.clone()).collect();
    assert_eq!(lines, [vec![4, 5, 7], vec![6, 4]]);
    assert!(scene.animations.is_empty());
    assert_eq!(scene.roots, [0]);
}

#[test]
fn unsupported_features_are_errors() {
    let base = json!({"asset": {"version": "2.0"}});
    let mut required = base.clone();
    required["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
    let err = read(&serde_json::to_vec(&required).unwrap(), &mut |_| None).unwrap_err();
    assert!(
        err.to_string().contains("KHR_draco_mesh_compression"),
        "{err}"
    );
    let mut v1 = base.clone();
    v1["asset"]["version"] = json!("1.0");
    assert!(read(&serde_json::to_vec(&v1).unwrap(), &mut |_| None).is_err());
    let sparse = json!({
        "asset": {"version": "2.0"},
        "accessors": [{"componentType": 5126, "count": 3, "type": "VEC3",
            "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5123},
                       "values": {"bufferView": 0}}}],
        "buffers": [{"byteLength": 4, "uri": "data:,abcd"}],
        "bufferViews": [{"buffer": 0, "byteLength": 4}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]
    });
    let err = read(&serde_json::to_vec(&sparse).unwrap(), &mut |_| None).unwrap_err();
    assert_eq!(err.kind, levelkit::ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("sparse"), "{err}");
    // The smallest valid glTF is an empty scene.
    let (empty, _) = read(&serde_json::to_vec(&base).unwrap(), &mut |_| None).unwrap();
    assert!(empty.nodes.is_empty());
}

// ---- random meshes -------------------------------------------------------------------------

/// A face of 3–8 distinct positions (in any order, so often self-intersecting), with UVs on all
/// corners or none, colours on some corners, and one of two materials or none.
fn arb_face(positions: u32) -> impl Strategy<Value = Face> {
    (3..=8usize.min(positions as usize))
        .prop_flat_map(move |n| {
            proptest::sample::subsequence((0..positions).collect::<Vec<u32>>(), n).prop_shuffle()
        })
        .prop_flat_map(|ring| {
            let n = ring.len();
            (
                Just(ring),
                any::<bool>(),
                proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0), n),
                proptest::collection::vec(proptest::option::of(0.0f32..=1.0), n),
                proptest::option::of(0usize..2),
            )
        })
        .prop_map(|(ring, with_uv, uvs, colors, material)| Face {
            corners: ring
                .iter()
                .zip(&uvs)
                .zip(&colors)
                .map(|((&p, &(u, v)), &c)| Corner {
                    position: p,
                    normal: None,
                    uv: with_uv.then_some([u, v]),
                    color: c.map(|x| [x, 1.0 - x, 0.5, 1.0]),
                })
                .collect(),
            material,
        })
}

fn arb_mesh() -> impl Strategy<Value = Mesh> {
    proptest::collection::vec(proptest::array::uniform3(-10.0f64..10.0), 3..16)
        .prop_flat_map(|positions| {
            let n = positions.len() as u32;
            (
                Just(positions),
                proptest::collection::vec(arb_face(n), 1..8),
                any::<bool>(),
                proptest::collection::vec(0..n, 2..5),
            )
        })
        .prop_map(|(positions, faces, flat, line)| Mesh {
            positions,
            faces,
            flat,
            lines: vec![Polyline {
                points: line,
                closed: false,
                material: None,
            }],
            ..Mesh::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random meshes, random node rotations: every polygon comes back whole, in every layout.
    #[test]
    fn random_meshes_round_trip(
        mesh in arb_mesh(),
        axis in proptest::array::uniform3(-1.0f64..1.0),
        angle in -4.0f64..4.0,
        layout in 0..3u8,
    ) {
        let mut scene = Scene::new(Format::Wings);
        scene.materials = materials();
        scene.textures = textures();
        scene.meshes.push(mesh);
        let len = axis.iter().map(|v| v * v).sum::<f64>().sqrt().max(1e-9);
        let (s, c) = (angle / 2.0).sin_cos();
        scene.add_root(Node {
            mesh: Some(0),
            transform: Transform::Trs {
                translation: axis,
                rotation: [axis[0] / len * s, axis[1] / len * s, axis[2] / len * s, c],
                scale: [1.0, 2.0, 0.5],
            },
            ..Node::default()
        });
        prop_assume!(scene.validate().is_empty());
        let files = write(&scene, &options(layout == 0, layout == 1)).unwrap();
        let (back, _) = import(&files);
        assert_same_mesh(0, &scene.meshes[0], &back.meshes[0]);
        assert_close_slice(
            "node",
            &scene.nodes[0].transform.matrix(),
            &back.nodes[0].transform.matrix(),
            1e-6,
        );
    }
}

// ---- hostile input -------------------------------------------------------------------------

fn must_not_panic(case: &str, bytes: &[u8]) {
    let outcome = std::panic::catch_unwind(|| {
        let _ = read(bytes, &mut |_| None);
    });
    assert!(outcome.is_ok(), "read panicked on {case}");
}

#[test]
fn truncation_and_garbage_sweep() {
    let scene = sample_scene();
    let glb = write(&scene, &options(true, true)).unwrap().main;
    // Every prefix, as it is and with the GLB length patched to match (so the parser gets past
    // the header and into the chunks, the JSON and the buffer).
    let mut errors = 0;
    for n in 0..glb.len() {
        let prefix = &glb[..n];
        must_not_panic(&format!("prefix {n}"), prefix);
        if n >= 12 {
            let mut patched = prefix.to_vec();
            patched[8..12].copy_from_slice(&(n as u32).to_le_bytes());
            let outcome = std::panic::catch_unwind(|| read(&patched, &mut |_| None).is_err());
            match outcome {
                Ok(is_err) => errors += usize::from(is_err),
                Err(_) => panic!("read panicked on patched prefix {n}"),
            }
        }
    }
    assert!(
        errors > glb.len() / 2,
        "most prefixes must be errors ({errors})"
    );
    // Byte flips anywhere (xorshift, fixed seed).
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.next();
    for k in 0..3000 {
        let mut bytes = glb.clone();
        for _ in 0..1 + k % 4 {
            let at = (next() % bytes.len() as u64) as usize;
            bytes[at] ^= 1 << (next() % 8);
        }
        must_not_panic(&format!("flip {k}"), &bytes);
    }
    // Every digit of the JSON chunk set to 0 and to 9: indices, counts, offsets and strides out
    // of range or zero.
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    for at in 20..20 + json_len {
        if glb[at].is_ascii_digit() {
            for d in [b'0', b'9'] {
                let mut bytes = glb.clone();
                bytes[at] = d;
                must_not_panic(&format!("digit {at} -> {}", char::from(d)), &bytes);
            }
        }
    }
    // Prefixes of a side-car .gltf's JSON.
    let files = write(&scene, &options(false, false)).unwrap();
    for n in (0..files.main.len()).step_by(7) {
        let side: HashMap<String, Vec<u8>> = files.side_files.iter().cloned().collect();
        let outcome = std::panic::catch_unwind(|| {
            let _ = read(&files.main[..n], &mut |uri| side.get(uri).cloned());
        });
        assert!(outcome.is_ok(), "read panicked on .gltf prefix {n}");
    }
}

/// A small file that declares a huge accessor shared by many primitives stays within limits.
#[test]
fn shared_accessors_are_charged_to_the_budget() {
    let bin = vec![0u8; 12 * 1000];
    let prims: Vec<Value> = (0..2000)
        .map(|_| json!({"attributes": {"POSITION": 0}}))
        .collect();
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bin.len(),
            "uri": format!("data:application/octet-stream;base64,{}", base64_encode(&bin))}],
        "bufferViews": [{"buffer": 0, "byteLength": bin.len()}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1000, "type": "VEC3"}],
        "meshes": [{"primitives": prims}]
    });
    let bytes = serde_json::to_vec(&doc).unwrap();
    let limits = levelkit::Limits::strict();
    let err = levelkit::gltf::read_with_limits(&bytes, &mut |_| None, &limits).unwrap_err();
    assert_eq!(err.kind, levelkit::ErrorKind::LimitExceeded, "{err}");
}

// ---- the Khronos validator -----------------------------------------------------------------

fn validator() -> Option<PathBuf> {
    let dir = std::env::var_os("LEVELKIT_ORACLES").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracles"),
        PathBuf::from,
    );
    let script = dir.join("node/validate.js");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let missing = |why: String| {
        assert!(!ci, "CI=true, but the glTF validator can not run: {why}");
        eprintln!("SKIP: {why}; glTF validator checks not run");
        None
    };
    if !script.is_file() {
        return missing(format!(
            "{} not found (set LEVELKIT_ORACLES)",
            script.display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => Some(script),
        _ => missing("`node` not on the PATH".into()),
    }
}

/// `(errors, warnings, infos, report)` from the validator, or `None` if it is not installed.
fn validate(script: &Path, file: &Path) -> Option<(u64, u64, u64, Value)> {
    let out = Command::new("node")
        .arg(script)
        .arg("--json")
        .arg(file)
        .output()
        .unwrap();
    if out.status.code() == Some(3) {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        let why = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!ci, "CI=true, but gltf-validator is not installed: {why}");
        eprintln!("SKIP: gltf-validator not installed ({why}); run shared/oracles/setup.sh node");
        return None;
    }
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: validator gave no JSON ({e}): {}{}",
            file.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let issues = &report["issues"];
    Some((
        issues["numErrors"].as_u64().unwrap(),
        issues["numWarnings"].as_u64().unwrap(),
        issues["numInfos"].as_u64().unwrap(),
        report,
    ))
}

#[test]
fn khronos_validator_accepts_every_output() {
    let Some(script) = validator() else {
        return;
    };
    let dir = common::out_dir("levelkit-gltf", "validator");
    let mut files: Vec<PathBuf> = Vec::new();
    for (scene_name, scene) in [("sample", sample_scene()), ("big", big_grid())] {
        for (kind, binary, embed) in [
            ("glb", true, true),
            ("embedded", false, true),
            ("sidecar", false, false),
        ] {
            if scene_name == "big" && kind != "glb" {
                continue;
            }
            let stem = format!("{scene_name}-{kind}");
            let out = write(
                &scene,
                &GltfOptions {
                    binary,
                    embed,
                    stem: stem.clone(),
                },
            )
            .unwrap();
            let path = dir.join(format!("{stem}.{}", if binary { "glb" } else { "gltf" }));
            std::fs::write(&path, &out.main).unwrap();
            for (name, bytes) in &out.side_files {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
            files.push(path);
        }
    }
    for file in &files {
        let Some((errors, warnings, infos, report)) = validate(&script, file) else {
            return;
        };
        let messages: Vec<String> = report["issues"]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                format!(
                    "[{}] {} {} {}",
                    m["severity"], m["code"], m["pointer"], m["message"]
                )
            })
            .collect();
        eprintln!(
            "{}: errors={errors} warnings={warnings} infos={infos}\n  {}",
            file.display(),
            messages.join("\n  ")
        );
        assert_eq!(
            (errors, warnings),
            (0, 0),
            "{}: {messages:#?}",
            file.display()
        );
        // The validator read the whole asset: meshes, images and animations.
        let info = &report["info"];
        assert!(info["drawCallCount"].as_u64().unwrap() >= 1, "{info}");
    }
}

/// A skinned, morphing, animated glTF written by hand the way other tools write them: `u8`
/// joints, normalized `u8` weights that sum to 254/255, inverse bind matrices, a weights
/// animation whose keys mix targets, a rotation of cubic-spline keys, a translation of step
/// keys at uneven times, and a scale that scales.
#[test]
fn foreign_gltf_skins_morphs_and_animations() {
    let mut bin: Vec<u8> = Vec::new();
    let f32s = |bin: &mut Vec<u8>, v: &[f32]| -> usize {
        let at = bin.len();
        for x in v {
            bin.extend(x.to_le_bytes());
        }
        at
    };
    let pos = f32s(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let joints_at = bin.len();
    bin.extend([0u8, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    let weights_at = bin.len();
    bin.extend([127u8, 127, 0, 0, 254, 0, 0, 0, 255, 0, 0, 0]);
    let delta = f32s(&mut bin, &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    let mut ibm = vec![0f32; 32];
    for k in [0, 5, 10, 15, 16, 21, 26, 31] {
        ibm[k] = 1.0;
    }
    ibm[28] = -1.0; // joint 1 sits at x = 1
    let ibm_at = f32s(&mut bin, &ibm);
    let times = f32s(&mut bin, &[0.0, 0.5, 1.0]);
    let weights = f32s(&mut bin, &[1.0, 0.25, 0.0]);
    // Cubic spline: in-tangent, value, out-tangent per key.
    let mut rot = Vec::new();
    for q in [
        [0.0f32, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.70710677, 0.70710677],
        [0.0, 0.0, 1.0, 0.0],
    ] {
        rot.extend([0.0f32; 4]);
        rot.extend(q);
        rot.extend([0.0f32; 4]);
    }
    let rot_at = f32s(&mut bin, &rot);
    let uneven = f32s(&mut bin, &[0.0, 0.25, 1.0]);
    let trans = f32s(&mut bin, &[0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 4.0, 0.0]);
    let scales = f32s(&mut bin, &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0]);
    let end = bin.len();
    let view =
        |from: usize, to: usize| json!({"buffer": 0, "byteOffset": from, "byteLength": to - from});
    let doc = json!({
        "asset": {"version": "2.0", "generator": "hand"},
        "buffers": [{"byteLength": bin.len(),
            "uri": format!("data:application/octet-stream;base64,{}", base64_encode(&bin))}],
        "bufferViews": [
            view(pos, joints_at), view(joints_at, weights_at), view(weights_at, delta),
            view(delta, ibm_at), view(ibm_at, times), view(times, weights),
            view(weights, rot_at), view(rot_at, uneven), view(uneven, trans),
            view(trans, scales), view(scales, end)
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5121, "normalized": true, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "MAT4"},
            {"bufferView": 5, "componentType": 5126, "count": 3, "type": "SCALAR"},
            {"bufferView": 6, "componentType": 5126, "count": 3, "type": "SCALAR"},
            {"bufferView": 7, "componentType": 5126, "count": 9, "type": "VEC4"},
            {"bufferView": 8, "componentType": 5126, "count": 3, "type": "SCALAR"},
            {"bufferView": 9, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 10, "componentType": 5126, "count": 3, "type": "VEC3"}
        ],
        "meshes": [{"name": "tri", "extras": {"targetNames": ["up"]}, "weights": [0],
            "primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2},
                "targets": [{"POSITION": 3}]}]}],
        "skins": [{"joints": [2, 1], "inverseBindMatrices": 4}],
        "nodes": [
            {"mesh": 0, "skin": 0},
            {"name": "root", "children": [2]},
            {"name": "tip", "translation": [1, 0, 0]}
        ],
        "scenes": [{"nodes": [0, 1]}],
        "animations": [{"name": "bend",
            "channels": [
                {"sampler": 0, "target": {"node": 0, "path": "weights"}},
                {"sampler": 1, "target": {"node": 2, "path": "rotation"}},
                {"sampler": 2, "target": {"node": 1, "path": "translation"}},
                {"sampler": 3, "target": {"node": 1, "path": "scale"}}
            ],
            "samplers": [
                {"input": 5, "output": 6},
                {"input": 5, "output": 7, "interpolation": "CUBICSPLINE"},
                {"input": 8, "output": 9, "interpolation": "STEP"},
                {"input": 5, "output": 10}
            ]}]
    });
    let bytes = serde_json::to_vec(&doc).unwrap();
    let (scene, warnings) = read(&bytes, &mut |_| None).unwrap();
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    for expected in [
        "mix morph targets",
        "cubic spline",
        "scale keys are left out",
    ] {
        assert!(
            text.iter().any(|w| w.contains(expected)),
            "{expected}: {text:#?}"
        );
    }
    // The morph target, named, as full positions.
    assert_eq!(scene.morphs.len(), 1);
    assert_eq!(scene.morphs[0].targets[0].name.as_deref(), Some("up"));
    assert_eq!(scene.morphs[0].targets[0].positions[1], [1.0, 0.0, 1.0]);
    // The weights animation: key 0 is the target, 0.25 and 0 are shown as it too.
    assert_eq!(scene.morph_animations.len(), 1);
    assert_eq!(scene.morph_animations[0].targets, [0, 0, 0]);
    assert!((scene.morph_animations[0].seconds_per_frame - 0.5).abs() < 1e-6);
    // The skin: u8 joints, weights scaled to sum to 1, the inverse bind matrices.
    let skin = &scene.skins[0];
    assert_eq!(skin.mesh, 0);
    assert_eq!(skin.joints.len(), 2);
    assert_eq!(skin.vertex_joints[0], [0, 1, 0, 0]);
    assert_eq!(skin.vertex_weights[0], [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(skin.vertex_weights[1], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(skin.inverse_bind_matrices[1][12], -1.0);
    // The joint poses: keys at the smallest gap (0.25 s) over 0..1 s: 5 keys; the step
    // translation holds 2 from 0.25 to 1; the rotation passes through 90 degrees at 0.5 s.
    let a = &scene.joint_animations[0];
    assert_eq!(a.name.as_deref(), Some("bend"));
    assert!((a.seconds_per_frame - 0.25).abs() < 1e-9);
    let root = a
        .tracks
        .iter()
        .find(|t| scene.nodes[t.node].name.as_deref() == Some("root"))
        .unwrap();
    let tip = a
        .tracks
        .iter()
        .find(|t| scene.nodes[t.node].name.as_deref() == Some("tip"))
        .unwrap();
    assert_eq!(root.translations.len(), 5);
    let ys: Vec<f64> = root.translations.iter().map(|t| t[1]).collect();
    assert_eq!(ys, [0.0, 2.0, 2.0, 2.0, 4.0]);
    // The tip is not translated by the animation: it keeps its own translation.
    assert!(tip.translations.iter().all(|t| *t == [1.0, 0.0, 0.0]));
    let q = tip.rotations[2];
    assert!(
        (q[2] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-6,
        "{q:?}"
    );
    assert!(
        (q[3] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-6,
        "{q:?}"
    );
    // And it all converts to an MDL7 with the two bones, the parent first (the skin lists
    // the tip first).
    let (mdl, _) = levelkit::formats::mdl::Mdl::from_scene(&scene).unwrap();
    let levelkit::formats::mdl::Mdl::Mdl7(m) = mdl else {
        panic!("not MDL7")
    };
    assert_eq!(m.bones.len(), 2);
    assert_eq!(m.bones[0].parent, 0xFFFF);
    assert_eq!(m.bones[1].parent, 0);
    assert!(
        levelkit::formats::mdl::Mdl::Mdl7(m.clone())
            .validate()
            .is_empty()
    );
    assert_eq!(m.groups[0].frames.len(), 5);
}
