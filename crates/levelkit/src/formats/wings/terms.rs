//! The decoded Erlang term of a `.wings` file into the model, part by part: used by the
//! reader (`read.rs`) for whole terms and by the one-pass reader (`fast.rs`) for every part it
//! does not type itself, so both give the same model.

#![deny(clippy::arithmetic_side_effects)]

use super::model::*;
use crate::error::{Error, Location, Result};
use crate::etf::{AtomTag, Term};
use crate::registry::Format;

const F: Format = Format::Wings;

fn bad(path: impl Into<String>, message: impl Into<String>) -> Error {
    let path = path.into();
    let location = if path.is_empty() {
        Location::default()
    } else {
        Location::path(path)
    };
    Error::malformed(F, location, message)
}

/// `{wings, 2, {Shapes, Materials, Props}}`, or a legacy version.
pub fn read_content(term: &Term) -> Result<Content> {
    let items = term.as_tuple().unwrap_or(&[]);
    let (atoms, version) = match items {
        [Term::Atom(a), version, ..] if a.name == "wings" => (a.tag, version),
        _ => {
            return Err(bad(
                "",
                "corrupt Wings file: the term is not a tuple {wings, Version, …}",
            ));
        }
    };
    match (version.as_int(), items) {
        (Some(2), [_, _, Term::Tuple(parts)]) => match parts.as_slice() {
            [shapes, materials, props] => {
                read_document(atoms, shapes, materials, props).map(Content::V2)
            }
            _ => Err(bad(
                "",
                format!(
                    "corrupt Wings file: version 2 needs {{Shapes, Materials, Props}}, found a \
                     {}-tuple",
                    parts.len()
                ),
            )),
        },
        (Some(2), _) => Err(bad(
            "",
            "corrupt Wings file: version 2 needs {wings, 2, {Shapes, Materials, Props}}",
        )),
        (Some(0), [_, _, _]) | (Some(1), [_, _, _, _, _]) => Ok(Content::Legacy(Legacy {
            version: if version.as_int() == Some(0) { 0 } else { 1 },
            term: term.clone(),
        })),
        (Some(v), _) => Err(Error::unsupported(
            F,
            Location::default(),
            format!(
                "unknown wings format: version {v} with {} elements (supported: \
                 {{wings, 2, {{…}}}}, and read-only {{wings, 0, Shapes}} and \
                 {{wings, 1, Shapes, Materials, Props}})",
                items.len()
            ),
        )),
        (None, _) => Err(bad("", "corrupt Wings file: the version is not an integer")),
    }
}

/// The elements of a proper list (`[]` or `LIST_EXT` with a `[]` tail) of non-integers.
pub(super) fn proper_list<'t>(term: &'t Term, path: &str, what: &str) -> Result<&'t [Term]> {
    match term {
        Term::Nil => Ok(&[]),
        Term::List(items, tail) if tail.is_nil() => Ok(items),
        _ => Err(bad(path, format!("{what} is not a list"))),
    }
}

/// `t` is the atom `name` in the document's atom encoding.
fn is_atom(t: &Term, name: &str, atoms: AtomTag) -> bool {
    matches!(t, Term::Atom(a) if a.name == name && a.tag == atoms)
}

/// Like [`is_atom`], but an atom of the right name with another encoding is an error: the model
/// keeps one encoding for the format's own atoms.
fn expect_atom(t: &Term, name: &str, atoms: AtomTag, path: &str, what: &str) -> Result<()> {
    match t {
        Term::Atom(a) if a.name == name && a.tag == atoms => Ok(()),
        Term::Atom(a) if a.name == name => Err(Error::unsupported(
            F,
            Location::path(path),
            format!(
                "the atom `{name}` is stored as {:?} but `wings` as {atoms:?}; files that mix \
                 atom encodings are not supported",
                a.tag
            ),
        )),
        _ => Err(bad(path, format!("{what} does not start with `{name}`"))),
    }
}

fn read_document(
    atoms: AtomTag,
    shapes: &Term,
    materials: &Term,
    props: &Term,
) -> Result<Document> {
    let shapes = proper_list(shapes, "shapes", "the shape list")?
        .iter()
        .enumerate()
        .map(|(i, s)| read_shape(s, atoms, &format!("shapes[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let materials = proper_list(materials, "materials", "the material list")?
        .iter()
        .enumerate()
        .map(|(i, m)| read_material(m, &format!("materials[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    proper_list(props, "props", "the global property list")?;
    Ok(Document {
        atoms,
        shapes,
        materials,
        props: props.clone(),
    })
}

fn read_shape(term: &Term, atoms: AtomTag, path: &str) -> Result<Shape> {
    let Some([tag, name, winged, props]) = term.as_tuple() else {
        return Err(bad(
            path,
            "an object is not {object, Name, {winged, …}, Props}",
        ));
    };
    expect_atom(tag, "object", atoms, path, "the object tuple")?;
    if name.as_charlist().is_none() {
        return Err(bad(
            format!("{path}.name"),
            "the object name is not a string",
        ));
    }
    proper_list(props, &format!("{path}.props"), "the object property list")?;
    Ok(Shape {
        name: name.clone(),
        mesh: read_winged(winged, atoms, &format!("{path}.mesh"))?,
        props: props.clone(),
    })
}

fn read_winged(term: &Term, atoms: AtomTag, path: &str) -> Result<Winged> {
    let Some([tag, edges, faces, vertices, hard_edges]) = term.as_tuple() else {
        return Err(bad(
            path,
            "the mesh is not {winged, Edges, Faces, Vertices, HardEdges}",
        ));
    };
    expect_atom(tag, "winged", atoms, path, "the mesh tuple")?;
    let edges = proper_list(edges, &format!("{path}.edges"), "the edge list")?
        .iter()
        .enumerate()
        .map(|(i, e)| read_edge(e, atoms, &format!("{path}.edges[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let faces = proper_list(faces, &format!("{path}.faces"), "the face list")?
        .iter()
        .enumerate()
        .map(|(i, f)| read_face(f, atoms, &format!("{path}.faces[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let vertices = proper_list(vertices, &format!("{path}.vertices"), "the vertex list")?
        .iter()
        .enumerate()
        .map(|(i, v)| read_vertex(v, &format!("{path}.vertices[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    if hard_edges.list_len().is_none() {
        return Err(bad(
            format!("{path}.hard_edges"),
            "the hard-edge list is not a list",
        ));
    }
    Ok(Winged {
        edges,
        faces,
        vertices,
        hard_edges: hard_edges.clone(),
    })
}

pub(super) fn read_edge(term: &Term, atoms: AtomTag, path: &str) -> Result<Edge> {
    let items = proper_list(term, path, "the edge entry")?
        .iter()
        .map(|t| read_edge_item(t, atoms, path))
        .collect::<Result<Vec<_>>>()?;
    let edge = Edge { items };
    if edge.record().is_none() {
        return Err(bad(
            path,
            "the edge has no {edge, Vs, Ve, Lf, Rf, Ltpr, Ltsu, Rtpr, Rtsu} record",
        ));
    }
    Ok(edge)
}

fn read_edge_item(t: &Term, atoms: AtomTag, path: &str) -> Result<EdgeItem> {
    Ok(typed_edge_item(t, atoms, path)?.unwrap_or_else(|| EdgeItem::Other(t.clone())))
}

/// The typed form of an edge item; `None` where it is kept as a term.
pub(super) fn typed_edge_item(t: &Term, atoms: AtomTag, path: &str) -> Result<Option<EdgeItem>> {
    let Some(items) = t.as_tuple() else {
        return Ok(None);
    };
    match items {
        [tag, rest @ ..] if rest.len() == 8 && is_atom(tag, "edge", atoms) => {
            let mut n = [0u32; 8];
            for (slot, value) in n.iter_mut().zip(rest) {
                *slot = value
                    .as_int()
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| {
                        bad(
                            path,
                            format!(
                                "an {{edge, …}} field is {value:?}, not an index from 0 to \
                                 4294967295"
                            ),
                        )
                    })?;
            }
            Ok(Some(EdgeItem::Edge(EdgeRecord::from(n))))
        }
        [Term::Atom(a), Term::Binary(b)] if a.tag == atoms => {
            let item = match a.name.as_str() {
                "uv_lt" => f64s::<2>(b).map(EdgeItem::UvLt),
                "uv_rt" => f64s::<2>(b).map(EdgeItem::UvRt),
                "color_lt" => f32s::<3>(b).map(EdgeItem::ColorLt),
                "color_rt" => f32s::<3>(b).map(EdgeItem::ColorRt),
                "color" => f64s::<6>(b).map(EdgeItem::Color),
                "uv" => f64s::<4>(b).map(EdgeItem::Uv),
                _ => None,
            };
            Ok(item)
        }
        _ => Ok(None),
    }
}

pub(super) fn read_face(term: &Term, atoms: AtomTag, path: &str) -> Result<Face> {
    let items = proper_list(term, path, "the face entry")?
        .iter()
        .map(|t| typed_face_item(t, atoms).unwrap_or_else(|| FaceItem::Other(t.clone())))
        .collect();
    Ok(Face { items })
}

/// The typed form of a face item; `None` where it is kept as a term.
pub(super) fn typed_face_item(t: &Term, atoms: AtomTag) -> Option<FaceItem> {
    match t.as_tuple() {
        Some([tag, Term::Atom(m)]) if is_atom(tag, "material", atoms) => {
            Some(FaceItem::Material(m.clone()))
        }
        _ => None,
    }
}

pub(super) fn read_vertex(term: &Term, path: &str) -> Result<Vertex> {
    let items = proper_list(term, path, "the vertex entry")?
        .iter()
        .map(|t| typed_vertex_item(t).unwrap_or_else(|| VertexItem::Other(t.clone())))
        .collect();
    Ok(Vertex { items })
}

/// The typed form of a vertex item; `None` where it is kept as a term.
pub(super) fn typed_vertex_item(t: &Term) -> Option<VertexItem> {
    t.as_binary().and_then(f64s::<3>).map(VertexItem::Position)
}

fn read_material(term: &Term, path: &str) -> Result<Material> {
    match term.as_tuple() {
        Some([Term::Atom(name), props]) => {
            proper_list(props, path, "the material property list")?;
            Ok(Material {
                name: name.clone(),
                props: props.clone(),
            })
        }
        _ => Err(bad(path, "a material is not {Name, Properties}")),
    }
}

/// `N` big-endian f64s filling `b` exactly, all finite.
pub(super) fn f64s<const N: usize>(b: &[u8]) -> Option<[f64; N]> {
    if b.len() != N.checked_mul(8)? {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, chunk) in out.iter_mut().zip(b.chunks_exact(8)) {
        *slot = f64::from_be_bytes(chunk.try_into().ok()?);
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// `N` big-endian f32s filling `b` exactly, all finite.
pub(super) fn f32s<const N: usize>(b: &[u8]) -> Option<[f32; N]> {
    if b.len() != N.checked_mul(4)? {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, chunk) in out.iter_mut().zip(b.chunks_exact(4)) {
        *slot = f32::from_be_bytes(chunk.try_into().ok()?);
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}
