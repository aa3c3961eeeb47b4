//! Models built in code, written as Wings 2.2 writes (OTP 25 atoms, `NEW_FLOAT_EXT`, the writer's
//! edge-attribute order, `term_to_binary(T, [compressed])`). `samples/cube.wings` is [`cube`].

use super::mesh::Polygon;
use super::model::*;
use crate::error::Result;
use crate::etf::AtomTag;

pub use super::build::{global_props, material, shape};

/// The unit cube's corners (±1) and its six faces, counter-clockwise from outside.
pub fn cube_polygons(material: Option<&str>, uvs: bool) -> (Vec<[f64; 3]>, Vec<Polygon>) {
    let positions = vec![
        [-1.0, -1.0, 1.0],
        [-1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, -1.0, 1.0],
        [-1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [1.0, 1.0, -1.0],
        [1.0, -1.0, -1.0],
    ];
    let quads: [[u32; 4]; 6] = [
        [0, 3, 2, 1], // +z
        [4, 5, 6, 7], // -z
        [0, 1, 5, 4], // -x
        [3, 7, 6, 2], // +x
        [1, 2, 6, 5], // +y
        [0, 4, 7, 3], // -y
    ];
    let square = vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let polygons = quads
        .iter()
        .map(|q| Polygon {
            vertices: q.to_vec(),
            uvs: uvs.then(|| square.clone()),
            colors: None,
            material: material.map(str::to_owned),
        })
        .collect();
    (positions, polygons)
}

/// A square pyramid with vertex colours (one colour per corner) on the default material.
pub fn pyramid_polygons() -> (Vec<[f64; 3]>, Vec<Polygon>) {
    let positions = vec![
        [2.0, 0.0, -1.0],
        [4.0, 0.0, -1.0],
        [4.0, 0.0, 1.0],
        [2.0, 0.0, 1.0],
        [3.0, 1.5, 0.0],
    ];
    let colors = [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0],
    ];
    let faces: [&[u32]; 5] = [
        &[0, 1, 2, 3],
        &[3, 2, 4],
        &[2, 1, 4],
        &[1, 0, 4],
        &[0, 3, 4],
    ];
    let polygons = faces
        .iter()
        .map(|f| Polygon {
            vertices: f.to_vec(),
            uvs: None,
            colors: f.iter().map(|&v| colors.get(v as usize).copied()).collect(),
            material: None,
        })
        .collect();
    (positions, polygons)
}

/// A 4 × 4 RGB checker, bottom row first.
pub fn checker_pixels() -> Vec<u8> {
    (0..16)
        .flat_map(|i| {
            if (i / 4 + i % 4) % 2 == 0 {
                [255, 255, 64]
            } else {
                [0, 0, 64]
            }
        })
        .collect()
}

/// The bundled `samples/cube.wings`: a textured cube (UVs on every corner, material `checker`
/// with an embedded 4 × 4 image) and a vertex-coloured pyramid.
pub fn cube() -> Result<Wings> {
    let (cube_pos, cube_faces) = cube_polygons(Some("checker"), true);
    let (pyr_pos, pyr_faces) = pyramid_polygons();
    let default = [
        0.7898538076923077,
        0.8133333333333334,
        0.6940444444444445,
        1.0,
    ];
    Ok(Wings {
        compression: None,
        content: Content::V2(Document {
            atoms: AtomTag::Atom,
            shapes: vec![
                shape("cube1", Winged::from_polygons(&cube_pos, &cube_faces)?),
                shape("pyramid1", Winged::from_polygons(&pyr_pos, &pyr_faces)?),
            ],
            materials: vec![
                material(
                    "checker",
                    [1.0, 1.0, 1.0, 1.0],
                    vec![("diffuse", 0)],
                    "ignore",
                ),
                material("default", default, vec![], "set"),
            ],
            props: global_props(Some(("checker", 4, 4, checker_pixels()))),
        }),
    })
}
