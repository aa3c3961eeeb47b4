//! `.wdb` reader. Mirrors `write.rs` function by function: header, fence, nodes, node,
//! geometry, light.
//!
//! The layout is the one the real worlds have (see [`super::hypotheses`], L1–L8). Strict about
//! structure (every count and length must fit the bytes left, the face table must fill its
//! `lenIFS` bytes and end with its zero word, the node tree must be complete), lenient about
//! values (NaN texture coordinates, out-of-range indices, unknown light types are kept, and
//! validation reports them): a real world is read whole. Errors name the node's path and the
//! byte offset. Allocation follows the input: every count is checked against the bytes left
//! before anything is allocated, and everything kept is charged to the [`Limits`]' budget; the
//! node tree's depth is capped by `max_depth`.

#![deny(clippy::arithmetic_side_effects)]

use super::hypotheses::{self as h, MIN_NODE_SIZE};
use super::model::*;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteReader;
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Wdb;

/// The four bytes every `.wdb` starts with.
pub const MAGIC: &[u8; 4] = b"WDBV";

/// Bytes of the header.
pub const HEADER_SIZE: usize = 12;

/// Bytes of a light.
pub const LIGHT_SIZE: u64 = 28;

/// Fewest bytes a geometry can take: six 16-bit fields (with lenIFS and finalIFS) and
/// `numTexDefs`.
pub const MIN_GEOMETRY_SIZE: u64 = 13;

/// Read a `.wdb` file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Wdb> {
    read_with(bytes, &Limits::default())
}

/// Read a `.wdb` file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wdb> {
    let mut budget = limits.budget(F);
    let mut r = ByteReader::new(F, bytes);
    let header = read_header(&mut r)?;
    let fence = read_fence(&mut r, &mut budget).map_err(|e| e.in_path("fence"))?;
    let nodes = read_nodes(&mut r, limits, &mut budget)?;
    let trailing = r.bytes(r.remaining(), "trailing bytes")?.to_vec();
    Ok(Wdb {
        header,
        fence,
        nodes,
        trailing,
    })
}

fn bad(at: u64, path: &str, message: String) -> Error {
    Error::malformed(F, Location::at(at).with_path(path), message)
}

/// An `f32`, any bits.
fn f32_at(r: &mut ByteReader<'_>, path: &str, what: &str) -> Result<f32> {
    r.f32_le(what).map_err(|e| e.in_path(path))
}

/// A little-endian `f64`, any bits.
fn f64_at(r: &mut ByteReader<'_>, path: &str, what: &str) -> Result<f64> {
    Ok(f64::from_le_bytes(
        r.array(what).map_err(|e| e.in_path(path))?,
    ))
}

fn f32s<const N: usize>(r: &mut ByteReader<'_>, path: &str, what: &str) -> Result<[f32; N]> {
    let mut out = [0.0; N];
    for slot in &mut out {
        *slot = f32_at(r, path, what)?;
    }
    Ok(out)
}

/// `VCHeader`.
fn read_header(r: &mut ByteReader<'_>) -> Result<Header> {
    let data = r.data();
    let head = data.get(..MAGIC.len()).unwrap_or(data);
    if head != MAGIC.get(..head.len()).unwrap_or(&[]) {
        return Err(bad(
            0,
            "header",
            format!(
                "not a V-Chat world: the file starts with {:?}, expected \"WDBV\"",
                String::from_utf8_lossy(head)
            ),
        ));
    }
    let b = r
        .array::<HEADER_SIZE>("the 12-byte header")
        .map_err(|e| e.in_path("header"))?;
    let [_, _, _, _, version, b0, b1, b2, blue, green, red, b3] = b;
    Ok(Header {
        version,
        b0,
        b1,
        b2,
        background: Bgr { blue, green, red },
        b3,
    })
}

/// `VCFence`.
fn read_fence(r: &mut ByteReader<'_>, budget: &mut Budget) -> Result<Fence> {
    let n = r.u16_le("numBorderDefs")?;
    let len = r.ensure(u64::from(n), 32, "the border segments")?;
    budget.charge(len, "border segments", Location::at(r.offset()))?;
    let mut borders = Vec::with_capacity(usize::from(n));
    for i in 0..n {
        let path = format!("fence/borders/{i}");
        let [x0, z0, x1, z1] = [
            f64_at(r, &path, "x0")?,
            f64_at(r, &path, "z0")?,
            f64_at(r, &path, "x1")?,
            f64_at(r, &path, "z1")?,
        ];
        borders.push(Border { x0, z0, x1, z1 });
    }
    let y_max = f64_at(r, "fence", "yMax")?;
    let y_min = f64_at(r, "fence", "yMin")?;
    Ok(Fence {
        borders,
        y_max,
        y_min,
    })
}

/// The nodes (L1): root after root, each followed by its subtree in pre-order, while a node
/// still fits in the bytes left after a complete tree.
fn read_nodes(r: &mut ByteReader<'_>, limits: &Limits, budget: &mut Budget) -> Result<Vec<Node>> {
    // Every node takes MIN_NODE_SIZE bytes or more: reserve no more than the input can hold, and
    // at most 256 up front (the list grows as nodes are read).
    let fit = (r.remaining() as u64) / MIN_NODE_SIZE;
    let mut nodes = Vec::with_capacity(usize::try_from(fit).unwrap_or(0).min(256));
    // (path of the parent, its children still to come, its children seen)
    let mut stack: Vec<(String, u16, usize)> = Vec::new();
    let mut roots = 0usize;
    loop {
        while stack.last().is_some_and(|(_, left, _)| *left == 0) {
            stack.pop();
        }
        let at = r.offset();
        let path = match stack.last_mut() {
            Some((parent, left, seen)) => {
                *left = left.saturating_sub(1);
                let path = format!("{parent}/children/{seen}");
                *seen = seen.saturating_add(1);
                if r.remaining() == 0 {
                    return Err(Error::new(
                        F,
                        ErrorKind::Truncated,
                        Location::at(at).with_path(path.as_str()),
                        format!(
                            "the file ends at 0x{at:x}, but {parent} has {} more children to come",
                            left.saturating_add(1)
                        ),
                    ));
                }
                path
            }
            None => {
                if !h::another_root_fits(r.remaining()) {
                    break;
                }
                roots = roots.saturating_add(1);
                format!("nodes/{}", roots.saturating_sub(1))
            }
        };
        if stack.len() > limits.max_depth {
            return Err(Error::new(
                F,
                ErrorKind::LimitExceeded,
                Location::at(at).with_path(path),
                format!(
                    "the node tree is deeper than the limit of {} levels",
                    limits.max_depth
                ),
            ));
        }
        let n = nodes.len().saturating_add(1);
        budget.count(n as u64, "node", Location::at(at))?;
        budget.charge(
            std::mem::size_of::<Node>(),
            "node",
            Location::at(at).with_path(path.as_str()),
        )?;
        let node = read_node(r, &path, budget)?;
        if node.children > 0 {
            stack.push((labelled(&path, &node.name), node.children, 0));
        }
        nodes.push(node);
    }
    Ok(nodes)
}

/// The node's path with its name, for errors: `nodes/3/children/1 "SPIN0010"`.
fn labelled(path: &str, name: &RawString) -> String {
    format!("{path} {:?}", name.display())
}

/// `VCNode` (without its children, which follow it).
fn read_node(r: &mut ByteReader<'_>, path: &str, budget: &mut Budget) -> Result<Node> {
    let len = r.u8("node name length").map_err(|e| e.in_path(path))?;
    let name = RawString(
        r.bytes(usize::from(len), "node name")
            .map_err(|e| e.in_path(path))?
            .to_vec(),
    );
    let path = labelled(path, &name);
    let transform = f32s::<16>(r, &path, "a transform element")?;
    let origin = f32s::<3>(r, &path, "the animation origin")?;
    let axis = f32s::<3>(r, &path, "the animation axis")?;
    let speed = f32_at(r, &path, "the animation speed")?;
    let n = r.u16_le("numGeometries").map_err(|e| e.in_path(&path))?;
    r.ensure(u64::from(n), MIN_GEOMETRY_SIZE, "the geometries")
        .map_err(|e| e.in_path(&path))?;
    let mut geometries = Vec::with_capacity(usize::from(n));
    for g in 0..n {
        geometries.push(read_geometry(r, &format!("{path}/geometries/{g}"), budget)?);
    }
    let n = r.u16_le("numLights").map_err(|e| e.in_path(&path))?;
    let len = r
        .ensure(u64::from(n), LIGHT_SIZE, "the lights")
        .map_err(|e| e.in_path(&path))?;
    budget.charge(len, "lights", Location::at(r.offset()))?;
    let mut lights = Vec::with_capacity(usize::from(n));
    for l in 0..n {
        lights.push(read_light(r, &format!("{path}/lights/{l}"))?);
    }
    let children = r.u16_le("numChildren").map_err(|e| e.in_path(&path))?;
    let node = Node {
        name,
        transform,
        animation: Animation {
            origin,
            axis,
            speed,
        },
        geometries,
        lights,
        children,
    };
    Ok(node)
}

/// `VCGeometry`, in file order.
fn read_geometry(r: &mut ByteReader<'_>, path: &str, budget: &mut Budget) -> Result<Geometry> {
    let num_points = r.u16_le("numPoints").map_err(|e| e.in_path(path))?;
    let points = read_vectors(r, num_points, path, "a point coordinate", budget)?;
    let num_normals = r.u16_le("numNormals").map_err(|e| e.in_path(path))?;
    let normals = read_vectors(r, num_normals, path, "a normal component", budget)?;
    let num_polygons = r.u16_le("numPolygons").map_err(|e| e.in_path(path))?;
    let polygons = h::read_face_table(r, num_polygons, path, budget)?;
    let render_flags = r.u16_le("renderType").map_err(|e| e.in_path(path))?;
    let n = usize::from(num_points);
    // Texture coordinates and point flags: 12 bytes a point.
    let len = r
        .ensure(
            u64::from(num_points),
            h::TEX_COORD_SIZE.saturating_add(4),
            "the texture coordinates and point flags",
        )
        .map_err(|e| e.in_path(path))?;
    budget.charge(
        len,
        "texture coordinates and point flags",
        Location::at(r.offset()).with_path(path),
    )?;
    let mut tex_coords = Vec::with_capacity(n);
    for _ in 0..n {
        tex_coords.push(f32s::<2>(r, path, "a texture coordinate")?);
    }
    let mut point_flags = Vec::with_capacity(n);
    for _ in 0..n {
        point_flags.push(r.array::<4>("point flags").map_err(|e| e.in_path(path))?);
    }
    let num_tex = r.u8("numTexDefs").map_err(|e| e.in_path(path))?;
    r.ensure(
        u64::from(num_tex),
        h::MIN_TEX_DEF_SIZE,
        "the texture definitions",
    )
    .map_err(|e| e.in_path(path))?;
    budget.charge(
        usize::from(num_tex).saturating_mul(std::mem::size_of::<TexDef>()),
        "texture definitions",
        Location::at(r.offset()).with_path(path),
    )?;
    let mut textures = Vec::with_capacity(usize::from(num_tex));
    for t in 0..num_tex {
        textures.push(h::read_tex_def(r, &format!("{path}/textures/{t}"), budget)?);
    }
    let len = r
        .ensure(u64::from(num_polygons), 2, "the polygon materials")
        .map_err(|e| e.in_path(path))?;
    budget.charge(len, "polygon materials", Location::at(r.offset()))?;
    let mut materials = Vec::with_capacity(usize::from(num_polygons));
    for _ in 0..num_polygons {
        materials.push(
            r.u16_le("a polygon material")
                .map_err(|e| e.in_path(path))?,
        );
    }
    Ok(Geometry {
        points,
        normals,
        polygons,
        render_flags,
        tex_coords,
        point_flags,
        textures,
        materials,
    })
}

/// `count` `[x, y, z]`.
fn read_vectors(
    r: &mut ByteReader<'_>,
    count: u16,
    path: &str,
    what: &str,
    budget: &mut Budget,
) -> Result<Vec<[f32; 3]>> {
    let len = r
        .ensure(u64::from(count), 12, what)
        .map_err(|e| e.in_path(path))?;
    budget.charge(len, what, Location::at(r.offset()).with_path(path))?;
    let mut out = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        out.push(f32s::<3>(r, path, what)?);
    }
    Ok(out)
}

/// `VCLight`: 28 bytes.
fn read_light(r: &mut ByteReader<'_>, path: &str) -> Result<Light> {
    let [kind, b1, b2, b3, c0, c1, c2, b7] =
        r.array::<8>("light bytes").map_err(|e| e.in_path(path))?;
    let s0_s2 = f32s::<3>(r, path, "light value s0-s2")?;
    let s3_s4 = f32s::<2>(r, path, "light value s3-s4")?;
    Ok(Light {
        kind,
        b1,
        b2,
        b3,
        color: [c0, c1, c2],
        b7,
        s0_s2,
        s3_s4,
    })
}
