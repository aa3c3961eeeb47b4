//! `.wdb` writer. Mirrors `read.rs` function by function: header, fence, nodes, node, geometry,
//! light.
//!
//! Every count and byte length is computed from the model (`lenIFS` by L3). A model the reader
//! would read differently (a count over 16 bits, an incomplete node tree, trailing bytes that
//! would read as a node, …: the errors of [`super::validate`]) is refused here, so whatever this
//! writes reads back to the same model.

use super::hypotheses as h;
use super::model::*;
use super::read::{HEADER_SIZE, MAGIC};
use crate::error::{Error, Location, Result, Severity};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Wdb;

/// Write a `.wdb` file.
pub fn write(wdb: &Wdb) -> Result<Vec<u8>> {
    if let Some(e) = super::validate::validate(wdb)
        .into_iter()
        .find(|w| w.severity == Severity::Error)
    {
        return Err(Error::malformed(
            F,
            e.location,
            format!("can not write this world: {}", e.message),
        ));
    }
    let mut w = ByteWriter::with_capacity(size_hint(wdb));
    write_header(&mut w, &wdb.header);
    write_fence(&mut w, &wdb.fence).map_err(|e| within(e, "fence"))?;
    write_nodes(&mut w, &wdb.nodes)?;
    w.put_bytes(&wdb.trailing);
    Ok(w.into_inner())
}

/// Roughly the bytes the file will take.
fn size_hint(wdb: &Wdb) -> usize {
    let geometry = |g: &Geometry| {
        g.points.len() * 24
            + g.normals.len() * 12
            + g.polygons
                .iter()
                .map(|p| 2 + 4 * p.corners.len())
                .sum::<usize>()
            + g.polygons.len() * 2
            + 32
    };
    HEADER_SIZE
        + 20
        + wdb.fence.borders.len() * 32
        + wdb.trailing.len()
        + wdb
            .nodes
            .iter()
            .map(|n| 100 + n.name.len() + n.geometries.iter().map(geometry).sum::<usize>())
            .sum::<usize>()
}

/// `e` inside the structure at `prefix` (paths here are joined with `/`, as in
/// `nodes/3/children/1/geometries/0`).
fn within(mut e: Error, prefix: &str) -> Error {
    e.location.path = Some(match e.location.path.take() {
        Some(p) => format!("{prefix}/{p}"),
        None => prefix.to_owned(),
    });
    e
}

fn count(n: usize, what: &str) -> Result<u16> {
    u16::try_from(n).map_err(|_| {
        Error::unsupported(
            F,
            Location::default(),
            format!("{n} {what}; the file's count holds at most 65535"),
        )
    })
}

/// `VCHeader`.
fn write_header(w: &mut ByteWriter, header: &Header) {
    w.put_bytes(MAGIC);
    w.put_bytes(&[
        header.version,
        header.b0,
        header.b1,
        header.b2,
        header.background.blue,
        header.background.green,
        header.background.red,
        header.b3,
    ]);
}

/// `VCFence`.
fn write_fence(w: &mut ByteWriter, fence: &Fence) -> Result<()> {
    w.put_u16_le(count(fence.borders.len(), "border segments")?);
    for b in &fence.borders {
        for v in [b.x0, b.z0, b.x1, b.z1] {
            w.put_bytes(&v.to_le_bytes());
        }
    }
    w.put_bytes(&fence.y_max.to_le_bytes());
    w.put_bytes(&fence.y_min.to_le_bytes());
    Ok(())
}

/// The nodes in file order (L1).
fn write_nodes(w: &mut ByteWriter, nodes: &[Node]) -> Result<()> {
    let tree = h::tree(nodes.iter().map(|n| n.children)).map_err(|e| {
        Error::malformed(
            F,
            Location::path(format!("nodes[{}]", e.node)),
            format!(
                "node {} (file order) has {} more children than nodes follow it",
                e.node, e.missing
            ),
        )
    })?;
    for (i, node) in nodes.iter().enumerate() {
        write_node(w, node).map_err(|e| within(e, &tree.path(i)))?;
    }
    Ok(())
}

/// `VCNode`.
fn write_node(w: &mut ByteWriter, node: &Node) -> Result<()> {
    h::write_name(w, &node.name)?;
    for v in node.transform {
        w.put_f32_le(v);
    }
    let a = &node.animation;
    for v in a.origin.iter().chain(&a.axis).chain([&a.speed]) {
        w.put_f32_le(*v);
    }
    w.put_u16_le(count(node.geometries.len(), "geometries")?);
    for (g, geometry) in node.geometries.iter().enumerate() {
        write_geometry(w, geometry).map_err(|e| within(e, &format!("geometries/{g}")))?;
    }
    w.put_u16_le(count(node.lights.len(), "lights")?);
    for light in &node.lights {
        write_light(w, light);
    }
    w.put_u16_le(node.children);
    Ok(())
}

/// `VCGeometry`.
fn write_geometry(w: &mut ByteWriter, g: &Geometry) -> Result<()> {
    w.put_u16_le(count(g.points.len(), "points")?);
    put_vectors(w, &g.points);
    w.put_u16_le(count(g.normals.len(), "normals")?);
    put_vectors(w, &g.normals);
    w.put_u16_le(count(g.polygons.len(), "polygons")?);
    h::write_face_table(w, &g.polygons)?;
    w.put_u16_le(g.render_flags);
    for [u, v] in &g.tex_coords {
        w.put_f32_le(*u);
        w.put_f32_le(*v);
    }
    for f in &g.point_flags {
        w.put_bytes(f);
    }
    let n = u8::try_from(g.textures.len()).map_err(|_| {
        Error::unsupported(
            F,
            Location::default(),
            format!(
                "{} texture definitions; numTexDefs holds at most 255",
                g.textures.len()
            ),
        )
    })?;
    w.put_u8(n);
    for (t, tex) in g.textures.iter().enumerate() {
        h::write_tex_def(w, tex).map_err(|e| within(e, &format!("textures/{t}")))?;
    }
    for &m in &g.materials {
        w.put_u16_le(m);
    }
    Ok(())
}

fn put_vectors(w: &mut ByteWriter, vectors: &[[f32; 3]]) {
    for v in vectors {
        for c in v {
            w.put_f32_le(*c);
        }
    }
}

/// `VCLight`.
fn write_light(w: &mut ByteWriter, light: &Light) {
    w.put_bytes(&[
        light.kind,
        light.b1,
        light.b2,
        light.b3,
        light.color[0],
        light.color[1],
        light.color[2],
        light.b7,
    ]);
    for v in light.s0_s2.iter().chain(&light.s3_s4) {
        w.put_f32_le(*v);
    }
}
