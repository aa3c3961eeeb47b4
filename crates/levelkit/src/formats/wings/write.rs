//! `.wings` writer. Mirrors `read.rs` function by function.
//!
//! The model is turned back into the term it was read from (each typed element knows its
//! encoding: see the model's docs), then encoded by the crate's ETF encoder: with the
//! compression the file had, or for a model built in code as Wings writes
//! (`term_to_binary(T, [compressed])`).

use super::model::*;
use super::read::MAGIC;
use crate::error::{Error, Location, Result};
use crate::etf::{self, Atom, AtomTag, External, Term};
use crate::registry::Format;

const F: Format = Format::Wings;

/// Write a `.wings` file.
pub fn write(wings: &Wings) -> Result<Vec<u8>> {
    let term = write_content(&wings.content);
    let payload = match wings.compression {
        None => etf::term_to_binary_compressed(&term)?,
        Some(compression) => etf::encode(&External { term, compression })?,
    };
    write_container(&payload)
}

/// Header, length, payload.
pub fn write_container(payload: &[u8]) -> Result<Vec<u8>> {
    let len = u32::try_from(payload.len()).map_err(|_| {
        Error::unsupported(
            F,
            Location::default(),
            format!(
                "the term is {} bytes; the length field holds at most 4294967295",
                payload.len()
            ),
        )
    })?;
    let mut out = Vec::with_capacity(payload.len().saturating_add(19));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}

/// The top-level term.
pub fn write_content(content: &Content) -> Term {
    match content {
        Content::V2(doc) => {
            let atom = |name: &str| {
                Term::Atom(Atom {
                    name: name.to_owned(),
                    tag: doc.atoms,
                })
            };
            Term::Tuple(vec![atom("wings"), Term::Int(2), write_document(doc)])
        }
        Content::Legacy(legacy) => legacy.term.clone(),
    }
}

fn write_document(doc: &Document) -> Term {
    Term::Tuple(vec![
        Term::list(
            doc.shapes
                .iter()
                .map(|s| write_shape(s, doc.atoms))
                .collect(),
        ),
        Term::list(doc.materials.iter().map(write_material).collect()),
        doc.props.clone(),
    ])
}

fn tag(name: &str, atoms: AtomTag) -> Term {
    Term::Atom(Atom {
        name: name.to_owned(),
        tag: atoms,
    })
}

fn write_shape(shape: &Shape, atoms: AtomTag) -> Term {
    Term::Tuple(vec![
        tag("object", atoms),
        shape.name.clone(),
        write_winged(&shape.mesh, atoms),
        shape.props.clone(),
    ])
}

fn write_winged(mesh: &Winged, atoms: AtomTag) -> Term {
    Term::Tuple(vec![
        tag("winged", atoms),
        Term::list(mesh.edges.iter().map(|e| write_edge(e, atoms)).collect()),
        Term::list(mesh.faces.iter().map(|f| write_face(f, atoms)).collect()),
        Term::list(mesh.vertices.iter().map(write_vertex).collect()),
        mesh.hard_edges.clone(),
    ])
}

fn write_edge(edge: &Edge, atoms: AtomTag) -> Term {
    Term::list(
        edge.items
            .iter()
            .map(|item| write_edge_item(item, atoms))
            .collect(),
    )
}

fn write_edge_item(item: &EdgeItem, atoms: AtomTag) -> Term {
    let pair =
        |name: &str, bytes: Vec<u8>| Term::Tuple(vec![tag(name, atoms), Term::Binary(bytes)]);
    match item {
        EdgeItem::Edge(r) => {
            let mut t = vec![tag("edge", atoms)];
            t.extend(
                [r.vs, r.ve, r.lf, r.rf, r.ltpr, r.ltsu, r.rtpr, r.rtsu]
                    .map(|v| Term::Int(i64::from(v))),
            );
            Term::Tuple(t)
        }
        EdgeItem::UvLt(v) => pair("uv_lt", f64_bytes(v)),
        EdgeItem::UvRt(v) => pair("uv_rt", f64_bytes(v)),
        EdgeItem::ColorLt(v) => pair("color_lt", f32_bytes(v)),
        EdgeItem::ColorRt(v) => pair("color_rt", f32_bytes(v)),
        EdgeItem::Color(v) => pair("color", f64_bytes(v)),
        EdgeItem::Uv(v) => pair("uv", f64_bytes(v)),
        EdgeItem::Other(t) => t.clone(),
    }
}

fn write_face(face: &Face, atoms: AtomTag) -> Term {
    Term::list(
        face.items
            .iter()
            .map(|item| match item {
                FaceItem::Material(m) => {
                    Term::Tuple(vec![tag("material", atoms), Term::Atom(m.clone())])
                }
                FaceItem::Other(t) => t.clone(),
            })
            .collect(),
    )
}

fn write_vertex(vertex: &Vertex) -> Term {
    Term::list(
        vertex
            .items
            .iter()
            .map(|item| match item {
                VertexItem::Position(p) => Term::Binary(f64_bytes(p)),
                VertexItem::Other(t) => t.clone(),
            })
            .collect(),
    )
}

fn write_material(material: &Material) -> Term {
    Term::Tuple(vec![
        Term::Atom(material.name.clone()),
        material.props.clone(),
    ])
}

/// Big-endian f64s.
pub(super) fn f64_bytes(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}

/// Big-endian f32s.
pub(super) fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}
