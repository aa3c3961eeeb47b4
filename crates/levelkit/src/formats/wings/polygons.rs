//! From winged edges to polygons (notes §8), for exporters and comparisons, and the face-vertex
//! meshes of pre-0.92 files.

use super::model::*;
use crate::error::{Location, Warning};
use crate::etf::Term;
use crate::registry::Format;

/// A polygon mesh: one object's faces as corner lists.
#[derive(Debug, Clone, PartialEq)]
pub struct PolyMesh {
    /// The object's name.
    pub name: String,
    /// Vertex positions (a vertex without a valid position is at the origin, with a warning).
    pub positions: Vec<[f64; 3]>,
    /// The faces.
    pub faces: Vec<PolyFace>,
}

/// One face of a [`PolyMesh`].
#[derive(Debug, Clone, PartialEq)]
pub struct PolyFace {
    /// The face's index in the winged-edge mesh.
    pub index: u32,
    /// Vertex indices, counter-clockwise seen from outside.
    pub vertices: Vec<u32>,
    /// Per-corner UVs, when every corner has one (as Wings's exporters require).
    pub uvs: Option<Vec<[f64; 2]>>,
    /// Per-corner colours, when every corner has one.
    pub colors: Option<Vec<[f32; 3]>>,
    /// The material, `None` for default.
    pub material: Option<String>,
    /// A user-hidden face (Wings's exporters show it again).
    pub hidden: bool,
    /// A hole (Wings's exporters drop it).
    pub hole: bool,
}

impl Shape {
    /// Every face as a polygon, with warnings for faces whose walk fails (they are left out).
    pub fn to_polygons(&self) -> (PolyMesh, Vec<Warning>) {
        let mut warnings = Vec::new();
        let name = self.name().unwrap_or_default();
        let positions = self
            .mesh
            .positions()
            .iter()
            .enumerate()
            .map(|(k, p)| {
                p.unwrap_or_else(|| {
                    warnings.push(Warning::warning(
                        Format::Wings,
                        Location::path(format!("vertices[{k}]")),
                        format!("{name}: vertex {k} has no valid position; placed at the origin"),
                    ));
                    [0.0; 3]
                })
            })
            .collect();
        let holes = self.holes();
        let hidden = self.num_hidden_faces();
        let mut faces = Vec::new();
        for (j, walk) in self.mesh.faces_ccw().into_iter().enumerate() {
            match walk {
                Ok(corners) => faces.push(PolyFace {
                    index: j as u32,
                    vertices: corners.iter().map(|c| c.vertex).collect(),
                    uvs: corners.iter().map(|c| c.uv).collect(),
                    colors: corners.iter().map(|c| c.color).collect(),
                    material: self
                        .mesh
                        .faces
                        .get(j)
                        .and_then(Face::material)
                        .map(str::to_owned),
                    hidden: (j as u64) < hidden,
                    hole: holes.contains(&(j as i64)),
                }),
                Err(e) => warnings.push(Warning::warning(
                    Format::Wings,
                    Location::path(format!("faces[{j}]")),
                    format!("{name}: {e}; the face is left out"),
                )),
            }
        }
        (
            PolyMesh {
                name,
                positions,
                faces,
            },
            warnings,
        )
    }
}

/// The mesh of one object of a pre-0.92 file.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyMesh {
    /// The object's name.
    pub name: Option<String>,
    /// Vertex positions.
    pub positions: Vec<[f64; 3]>,
    /// Faces as vertex-index lists, in file order.
    pub faces: Vec<Vec<u32>>,
    /// Each face's material name.
    pub materials: Vec<Option<String>>,
}

impl Legacy {
    /// The objects' vertices and faces. Version 0: `{object, Name, Matrix, {winged, Faces,
    /// Vertices}, Props}` with `Faces = [{Material, [V…]}]` and `Vertices = [{X, Y, Z}]`.
    /// Version 1: `{object, Name, {winged, Faces, VertexBinary, HardEdges}, Props}` with one
    /// binary of 3 × f64 per vertex. (Positions are as stored: Wings applied v0's matrix and a
    /// 0.1 scale on import; that is left to the caller.)
    pub fn meshes(&self) -> Result<Vec<LegacyMesh>, String> {
        let top = self.term.as_tuple().unwrap_or(&[]);
        let shapes = top
            .get(2)
            .and_then(Term::list_items)
            .ok_or("the shape list is not a list")?;
        shapes
            .iter()
            .enumerate()
            .map(|(i, s)| legacy_shape(self.version, s).map_err(|e| format!("shapes[{i}]: {e}")))
            .collect()
    }
}

fn legacy_shape(version: u8, shape: &Term) -> Result<LegacyMesh, String> {
    let items = shape.as_tuple().unwrap_or(&[]);
    let (name, winged) = match (version, items) {
        (0, [_, name, _matrix, winged, _props]) => (name, winged),
        (1, [_, name, winged, _props]) => (name, winged),
        _ => return Err("the object tuple does not have the expected form".into()),
    };
    let w = winged.as_tuple().unwrap_or(&[]);
    let (faces, vertices) = match (version, w) {
        (0, [_, faces, vertices]) => (faces, vertices),
        (1, [_, faces, vertices, _hard]) => (faces, vertices),
        _ => return Err("the winged tuple does not have the expected form".into()),
    };
    let positions = match (version, vertices) {
        (0, v) => v
            .list_items()
            .ok_or("the vertex list is not a list")?
            .iter()
            .map(|p| match p.as_tuple() {
                Some([x, y, z]) => Some([x.as_number()?, y.as_number()?, z.as_number()?]),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .ok_or("a vertex is not {X, Y, Z}")?,
        (_, Term::Binary(b)) if b.len() % 24 == 0 => b
            .chunks_exact(24)
            .map(super::terms::f64s::<3>)
            .collect::<Option<Vec<_>>>()
            .ok_or("a vertex is not finite")?,
        _ => return Err("the vertices are not a binary of 24-byte positions".into()),
    };
    let mut out_faces = Vec::new();
    let mut materials = Vec::new();
    for f in faces.list_items().ok_or("the face list is not a list")? {
        let (mat, vs) = match f.as_tuple() {
            Some([m, vs]) => (m.as_atom().map(str::to_owned), vs.clone()),
            _ => (None, f.clone()),
        };
        let vs = vs
            .list_items()
            .ok_or("a face's vertices are not a list")?
            .iter()
            .map(|v| v.as_int().and_then(|v| u32::try_from(v).ok()))
            .collect::<Option<Vec<_>>>()
            .ok_or("a face's vertex is not an index")?;
        out_faces.push(vs);
        materials.push(mat);
    }
    Ok(LegacyMesh {
        name: name.as_charlist(),
        positions,
        faces: out_faces,
        materials,
    })
}
