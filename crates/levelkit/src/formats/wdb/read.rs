//! `.wdb` reader. Mirrors `write.rs` function by function: header, fence, nodes, node,
//! geometry, light.
//!
//! Strict where the layout is known (the header, the fence, the node skeleton, lights), and
//! checked against every redundant field where it rests on a hypothesis (see
//! [`super::hypotheses`]): a mismatch is an error naming the node's path and the byte offset,
//! never a reason to go on reading the rest of the file as something else. Every `f32` and `f64`
//! must be finite (a NaN or infinity is what misaligned bytes usually look like, and the JSON
//! form could not hold it). Allocation follows the input: every count is checked against the
//! bytes left before anything is allocated, and everything kept is charged to the [`Limits`]'
//! budget; the node tree's depth is capped by `max_depth`.

#![deny(clippy::arithmetic_side_effects)]

use super::hypotheses::{self as h, LightType, Walk};
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

/// Fewest bytes a node can take: an empty name, the matrix, the animation and three zero counts.
pub const MIN_NODE_SIZE: u64 = 1 + 64 + 28 + 2 + 2 + 2;

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
    Ok(Wdb {
        header,
        fence,
        nodes,
    })
}

fn bad(at: u64, path: &str, message: String) -> Error {
    Error::malformed(F, Location::at(at).with_path(path), message)
}

/// A finite `f32`.
fn f32_at(r: &mut ByteReader<'_>, path: &str, what: &str) -> Result<f32> {
    let at = r.offset();
    let v = r.f32_le(what).map_err(|e| e.in_path(path))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(not_finite(at, path, what, f64::from(v)))
    }
}

/// A finite little-endian `f64`.
fn f64_at(r: &mut ByteReader<'_>, path: &str, what: &str) -> Result<f64> {
    let at = r.offset();
    let v = f64::from_le_bytes(r.array(what).map_err(|e| e.in_path(path))?);
    if v.is_finite() {
        Ok(v)
    } else {
        Err(not_finite(at, path, what, v))
    }
}

#[cold]
fn not_finite(at: u64, path: &str, what: &str, v: f64) -> Error {
    bad(
        at,
        path,
        format!(
            "{what} is {v}, not a finite number: the bytes before it were not read as the file \
             lays them out (a layout hypothesis does not fit), or the file is corrupt"
        ),
    )
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

/// Where the last geometry of the node read last lies, for an error at the node after it.
#[derive(Default)]
struct LastGeometry {
    path: String,
    start: u64,
    end: u64,
}

impl LastGeometry {
    /// `e`, from the fields of the node right after this geometry's node, saying that this
    /// geometry's layout (H1–H4) is the likely cause: a misread geometry leaves the reader
    /// inside its bytes, which then do not make a node.
    fn blame(&self, mut e: Error) -> Error {
        if e.kind == ErrorKind::Malformed && !self.path.is_empty() {
            e.message = format!(
                "{}; this node follows {} (0x{:x}-0x{:x}), whose layout (hypotheses H1-H4) is \
                 the likely cause",
                e.message, self.path, self.start, self.end
            );
        }
        e
    }
}

/// `numNodes` and the nodes (H5, H6), then the end of the file.
fn read_nodes(r: &mut ByteReader<'_>, limits: &Limits, budget: &mut Budget) -> Result<Vec<Node>> {
    let count_at = r.offset();
    let num_nodes = r.u16_le("numNodes").map_err(|e| e.in_path("numNodes"))?;
    let mut walk = Walk::new(num_nodes);
    let mut last = LastGeometry::default();
    // Every node takes MIN_NODE_SIZE bytes or more: reserve no more than the input can hold.
    let fit = (r.remaining() as u64) / MIN_NODE_SIZE;
    let mut nodes = Vec::with_capacity(usize::try_from(fit).unwrap_or(0).min(1 << 16));
    loop {
        let at = r.offset();
        let place = match walk.next_place() {
            Ok(Some(place)) => place,
            Ok(None) => break,
            Err(why) => return Err(bad(at, "nodes", why)),
        };
        if place.depth > limits.max_depth {
            return Err(Error::new(
                F,
                ErrorKind::LimitExceeded,
                Location::at(at).with_path(place.path),
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
            Location::at(at).with_path(place.path.as_str()),
        )?;
        if r.remaining() == 0 {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(at).with_path(place.path.as_str()),
                format!(
                    "the file ends at 0x{at:x}, but the node counts (numNodes {num_nodes} at \
                     0x{count_at:x} and the children counts, read as hypotheses H5/H6) promise \
                     another node here"
                ),
            ));
        }
        let (node, geometry) = read_node(r, &place.path, budget, &last)?;
        last = geometry;
        walk.entered(place, node.children);
        nodes.push(node);
    }
    if r.remaining() != 0 {
        return Err(bad(
            r.offset(),
            "nodes",
            format!(
                "{} bytes follow the last node (node {} in file order; numNodes {num_nodes} at \
                 0x{count_at:x}); a world ends exactly after its last node, so the node counts \
                 (hypotheses H5/H6) or an earlier layout hypothesis do not fit this file",
                r.remaining(),
                nodes.len().saturating_sub(1)
            ),
        ));
    }
    Ok(nodes)
}

/// The node's path with its name, for errors: `nodes/3/children/1 "SPIN0010"`.
fn labelled(path: &str, name: &RawString) -> String {
    format!("{path} {:?}", name.display())
}

/// `VCNode` (without its children, which follow it).
/// Also gives where its last geometry lies; `prev` is that of the node before.
fn read_node(
    r: &mut ByteReader<'_>,
    path: &str,
    budget: &mut Budget,
    prev: &LastGeometry,
) -> Result<(Node, LastGeometry)> {
    let len = r.u8("node name length").map_err(|e| e.in_path(path))?;
    let name = RawString(
        r.bytes(usize::from(len), "node name")
            .map_err(|e| e.in_path(path))?
            .to_vec(),
    );
    let path = labelled(path, &name);
    let matrix_at = r.offset();
    let transform = f32s::<16>(r, &path, "a transform element").map_err(|e| prev.blame(e))?;
    if !h::matrix_plausible(&transform) {
        return Err(prev.blame(bad(
            matrix_at,
            &path,
            format!(
                "the matrix's elements 3, 7, 11, 15 are {:?}, not 0, 0, 0, 1: this is not a node \
                 matrix (hypothesis H9), so the bytes before it were not read as the file lays \
                 them out, or the file is corrupt",
                [transform[3], transform[7], transform[11], transform[15]]
            ),
        )));
    }
    let origin = f32s::<3>(r, &path, "the animation origin").map_err(|e| prev.blame(e))?;
    let axis = f32s::<3>(r, &path, "the animation axis").map_err(|e| prev.blame(e))?;
    let speed = f32_at(r, &path, "the animation speed").map_err(|e| prev.blame(e))?;
    let n = r.u16_le("numGeometries").map_err(|e| e.in_path(&path))?;
    r.ensure(u64::from(n), MIN_GEOMETRY_SIZE, "the geometries")
        .map_err(|e| e.in_path(&path))?;
    let mut geometries = Vec::with_capacity(usize::from(n));
    let mut last = LastGeometry::default();
    for g in 0..n {
        let start = r.offset();
        let at = format!("{path}/geometries/{g}");
        geometries.push(read_geometry(r, &at, budget)?);
        last = LastGeometry {
            path: at,
            start,
            end: r.offset(),
        };
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
    Ok((node, last))
}

/// `VCGeometry`, in the published field order.
fn read_geometry(r: &mut ByteReader<'_>, path: &str, budget: &mut Budget) -> Result<Geometry> {
    let start = r.offset();
    let num_points = r.u16_le("numPoints").map_err(|e| e.in_path(path))?;
    let points = read_vectors(r, num_points, path, "a point coordinate", budget)?;
    let num_normals = r.u16_le("numNormals").map_err(|e| e.in_path(path))?;
    let normals = read_vectors(r, num_normals, path, "a normal component", budget)?;
    let num_polygons = r.u16_le("numPolygons").map_err(|e| e.in_path(path))?;
    let table_at = r.offset();
    let polygons = h::read_face_table(r, num_polygons, points.len(), path)?;
    let corners: usize = polygons.iter().map(|p| p.points.len()).sum();
    budget.charge(
        corners.saturating_mul(2).saturating_add(
            polygons
                .len()
                .saturating_mul(std::mem::size_of::<PolyDef>()),
        ),
        "polygon definitions",
        Location::at(table_at).with_path(path),
    )?;
    let render_flags = r.u16_le("w6 (render flags)").map_err(|e| e.in_path(path))?;
    let n = usize::from(num_points);
    let len = r
        .ensure(
            u64::from(num_points),
            h::TEX_COORD_SIZE,
            "the texture coordinates",
        )
        .map_err(|e| e.in_path(path))?;
    budget.charge(
        n.saturating_mul(std::mem::size_of::<TexCoord>()).max(len),
        "texture coordinates",
        Location::at(r.offset()).with_path(path),
    )?;
    let mut tex_coords = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        let t = h::read_tex_coord(r).map_err(|e| e.in_path(path))?;
        if !t.iter().all(|v| v.is_finite()) {
            return Err(bad(
                at,
                path,
                format!(
                    "texture coordinate {t:?} is not finite: texture coordinates are read as two \
                     f32 (hypothesis H3), which does not fit this file, or it is corrupt"
                ),
            ));
        }
        tex_coords.push(t);
    }
    let len = r
        .ensure(u64::from(num_points), 4, "the per-point flags")
        .map_err(|e| e.in_path(path))?;
    budget.charge(len, "per-point flags", Location::at(r.offset()))?;
    let mut point_flags = Vec::with_capacity(n);
    for _ in 0..n {
        point_flags.push(r.array::<4>("point flags").map_err(|e| e.in_path(path))?);
    }
    let num_tex = r.u8("numTexDefs").map_err(|e| e.in_path(path))?;
    budget.charge(
        usize::from(num_tex).saturating_mul(std::mem::size_of::<TexDef>()),
        "texture definitions",
        Location::at(r.offset()),
    )?;
    let mut textures = Vec::with_capacity(usize::from(num_tex));
    for t in 0..num_tex {
        textures.push(h::read_tex_def(r, &format!("{path}/textures/{t}"))?);
    }
    let len = r
        .ensure(u64::from(num_polygons), 2, "the polygon materials")
        .map_err(|e| e.in_path(path))?;
    budget.charge(len, "polygon materials", Location::at(r.offset()))?;
    let mut materials = Vec::with_capacity(usize::from(num_polygons));
    for p in 0..num_polygons {
        let at = r.offset();
        let m = r
            .u16_le("a polygon material")
            .map_err(|e| e.in_path(path))?;
        if !h::material_plausible(m, textures.len()) {
            return Err(bad(
                at,
                path,
                format!(
                    "polygon {p} has material {m}, but the geometry (from 0x{start:x}) has {} \
                     texture definitions; the texture-coordinate (H3) or texture-definition (H4) \
                     layout does not fit this file, or it is corrupt",
                    textures.len()
                ),
            ));
        }
        materials.push(m);
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

/// `count` finite `[x, y, z]`.
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
    let at = r.offset();
    let b0 = r.u8("light type").map_err(|e| e.in_path(path))?;
    let kind = LightType::from_byte(b0).ok_or_else(|| {
        bad(
            at,
            path,
            format!(
                "light type {b0} is not a Direct3D RM light type (0 ambient, 1 point, 2 spot, 3 \
                 directional, 4 parallel point; hypothesis H8): the bytes before it were not read \
                 as the file lays them out, or the file is corrupt"
            ),
        )
    })?;
    let [b1, b2, b3, c0, c1, c2, b7] = r.array::<7>("light bytes").map_err(|e| e.in_path(path))?;
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
