//! Validation: every finding with its path.
//!
//! Errors are exactly what the writer can not write or the reader would read differently (a
//! count over its field, an incomplete node tree, lengths that disagree, trailing bytes long
//! enough to read as a node); warnings are what V-Chat could not show or no known world has (an
//! index out of range, a NaN, a version other than 4, an unknown light type, more polygons or
//! bytes than V-Chat handled, …). Every real world validates without an error.

use std::collections::HashMap;

use super::hypotheses as h;
use super::model::*;
use crate::error::{Location, Warning};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Wdb;

/// Most findings of one kind listed; the rest are counted in one more finding.
const PER_KIND: usize = 20;

#[derive(Default)]
struct Findings {
    out: Vec<Warning>,
    counts: HashMap<&'static str, usize>,
}

impl Findings {
    fn push(&mut self, kind: &'static str, w: impl FnOnce() -> Warning) {
        let n = self.counts.entry(kind).or_insert(0);
        *n += 1;
        if *n <= PER_KIND {
            self.out.push(w());
        }
    }

    fn error(&mut self, kind: &'static str, path: impl FnOnce() -> String, msg: String) {
        self.push(kind, || Warning::error(F, Location::path(path()), msg));
    }

    fn warn(&mut self, kind: &'static str, path: impl FnOnce() -> String, msg: String) {
        self.push(kind, || Warning::warning(F, Location::path(path()), msg));
    }

    fn finish(mut self) -> Vec<Warning> {
        let mut more: Vec<_> = self
            .counts
            .iter()
            .filter(|(_, n)| **n > PER_KIND)
            .map(|(k, n)| (*k, *n))
            .collect();
        more.sort();
        for (kind, n) in more {
            self.out.push(Warning::warning(
                F,
                Location::default(),
                format!(
                    "{} more findings of the kind \"{kind}\" are not listed",
                    n - PER_KIND
                ),
            ));
        }
        self.out
    }
}

fn finite(values: &[f32]) -> bool {
    values.iter().all(|v| v.is_finite())
}

/// What the community notes say V-Chat handled in one world.
pub const MAX_POLYGONS: usize = 3000;
/// What the community notes say V-Chat handled in one world, in bytes.
pub const MAX_BYTES: usize = 2 << 20;

/// The bytes [`super::write`] makes of `wdb`.
pub fn encoded_len(wdb: &Wdb) -> usize {
    let geometry = |g: &Geometry| {
        2 + 12 * g.points.len()
            + 2
            + 12 * g.normals.len()
            + 2
            + 2
            + g.polygons
                .iter()
                .map(|p| 2 + 4 * p.corners.len())
                .sum::<usize>()
            + 2
            + 2
            + 12 * g.points.len()
            + 1
            + g.textures
                .iter()
                .map(|t| 4 + 1 + t.name.len() + 1 + 8 * t.extra.len())
                .sum::<usize>()
            + 2 * g.materials.len()
    };
    let node = |n: &Node| {
        1 + n.name.len()
            + 64
            + 28
            + 2
            + n.geometries.iter().map(geometry).sum::<usize>()
            + 2
            + 28 * n.lights.len()
            + 2
    };
    12 + 2
        + 32 * wdb.fence.borders.len()
        + 16
        + wdb.nodes.iter().map(node).sum::<usize>()
        + wdb.trailing.len()
}

/// Check the world and collect every finding.
pub fn validate(wdb: &Wdb) -> Vec<Warning> {
    let mut f = Findings::default();
    let hd = &wdb.header;
    if hd.version != 4 {
        f.warn(
            "header",
            || "header".into(),
            format!("version is {}; every known world has 4", hd.version),
        );
    }
    if [hd.b0, hd.b1, hd.b2] != [0, 0, 0] || hd.b3 != 0xFF {
        f.warn(
            "header",
            || "header".into(),
            format!(
                "unidentified bytes b0 b1 b2 b3 are {:02x} {:02x} {:02x} {:02x}; every known world \
                 has 00 00 00 ff",
                hd.b0, hd.b1, hd.b2, hd.b3
            ),
        );
    }
    validate_fence(&wdb.fence, &mut f);
    let tree = match h::tree(wdb.nodes.iter().map(|n| n.children)) {
        Ok(t) => Some(t),
        Err(e) => {
            f.error(
                "tree",
                || format!("nodes[{}]", e.node),
                format!(
                    "the node has {} more children than nodes follow it (node {} in file order)",
                    e.missing, e.node
                ),
            );
            None
        }
    };
    if let Some(t) = &tree {
        let limit = Limits::default().max_depth;
        if let Some(deep) = t.depth.iter().position(|&d| d > limit) {
            f.warn(
                "depth",
                || t.path(deep),
                format!("the node tree is deeper than the reader's default limit of {limit}"),
            );
        }
        if t.roots.len() > 1 {
            f.warn(
                "roots",
                || "nodes".into(),
                format!(
                    "{} top-level nodes; V-Chat's worlds have one root, and the reference \
                     reader shows only the first one's tree",
                    t.roots.len()
                ),
            );
        }
    }
    if h::another_root_fits(wdb.trailing.len()) {
        f.error(
            "trailing",
            || "trailing".into(),
            format!(
                "{} trailing bytes would read as another node (a node takes {} bytes or more)",
                wdb.trailing.len(),
                h::MIN_NODE_SIZE
            ),
        );
    } else if wdb.trailing.iter().any(|&b| b != 0) {
        f.warn(
            "trailing",
            || "trailing".into(),
            format!(
                "{} bytes after the last node are not all zero",
                wdb.trailing.len()
            ),
        );
    }
    let polygons: usize = wdb
        .nodes
        .iter()
        .flat_map(|n| &n.geometries)
        .map(|g| g.polygons.len())
        .sum();
    if polygons > MAX_POLYGONS {
        f.warn(
            "size",
            || "nodes".into(),
            format!(
                "{polygons} polygons: more than the about {MAX_POLYGONS} a V-Chat world could \
                 hold (community notes); V-Chat may not show it"
            ),
        );
    }
    let bytes = encoded_len(wdb);
    if bytes > MAX_BYTES {
        f.warn(
            "size",
            || "nodes".into(),
            format!(
                "the world is {bytes} bytes: more than the 2 MB a V-Chat world could be \
                 (community notes); V-Chat may not load it"
            ),
        );
    }
    for (i, node) in wdb.nodes.iter().enumerate() {
        let path = || {
            let base = tree
                .as_ref()
                .map_or_else(|| format!("nodes[{i}]"), |t| t.path(i));
            format!("{base} {:?}", node.name.display())
        };
        validate_node(node, &path, &mut f);
    }
    f.finish()
}

fn validate_fence(fence: &Fence, f: &mut Findings) {
    if fence.borders.len() > usize::from(u16::MAX) {
        f.error(
            "count",
            || "fence".into(),
            format!(
                "{} border segments; numBorderDefs holds at most 65535",
                fence.borders.len()
            ),
        );
    }
    for (i, b) in fence.borders.iter().enumerate() {
        if ![b.x0, b.z0, b.x1, b.z1].iter().all(|v| v.is_finite()) {
            f.warn(
                "not finite",
                || format!("fence/borders/{i}"),
                "a coordinate is not finite".into(),
            );
        }
    }
    if !fence.y_min.is_finite() || !fence.y_max.is_finite() {
        f.warn(
            "not finite",
            || "fence".into(),
            "yMin or yMax is not finite".into(),
        );
    } else if fence.y_min > fence.y_max {
        f.warn(
            "fence",
            || "fence".into(),
            format!(
                "yMin {} is above yMax {}: the viewer has no height to stand at",
                fence.y_min, fence.y_max
            ),
        );
    }
}

fn validate_node(node: &Node, path: &dyn Fn() -> String, f: &mut Findings) {
    if node.name.len() > 255 {
        f.error(
            "name",
            path,
            format!(
                "the name is {} bytes; its length byte holds 255",
                node.name.len()
            ),
        );
    }
    let a = &node.animation;
    if !finite(&node.transform) {
        f.warn(
            "not finite",
            path,
            "a transform element is not finite (the scene uses the identity)".into(),
        );
    } else {
        let m = &node.transform;
        if [m[3], m[7], m[11], m[15]] != [0.0, 0.0, 0.0, 1.0] {
            f.warn(
                "matrix",
                path,
                format!(
                    "the matrix's elements 3, 7, 11, 15 are {:?}, not 0, 0, 0, 1 as in every \
                     known world",
                    [m[3], m[7], m[11], m[15]]
                ),
            );
        }
    }
    if !finite(&a.origin) || !finite(&a.axis) || !a.speed.is_finite() {
        f.warn(
            "not finite",
            path,
            "an animation value is not finite (the node does not spin)".into(),
        );
    } else {
        validate_animation(node, path, f);
    }
    for (what, n) in [
        ("geometries", node.geometries.len()),
        ("lights", node.lights.len()),
    ] {
        if n > usize::from(u16::MAX) {
            f.error(
                "count",
                path,
                format!("{n} {what}; the count holds at most 65535"),
            );
        }
    }
    for (g, geometry) in node.geometries.iter().enumerate() {
        validate_geometry(geometry, &|| format!("{}/geometries/{g}", path()), f);
    }
    for (l, light) in node.lights.iter().enumerate() {
        let at = || format!("{}/lights/{l}", path());
        if light.light_type().is_none() {
            f.warn(
                "light type",
                at,
                format!(
                    "light type {} is not a Direct3D RM light type (0 ambient, 1 point, 2 spot, \
                     3 directional, 4 parallel point); the scene leaves it out",
                    light.kind
                ),
            );
        }
        if !finite(&light.s0_s2) || !finite(&light.s3_s4) {
            f.warn("not finite", at, "a light value is not finite".into());
        }
        if light.b1 != 0 || light.b7 != 0xFF {
            f.warn(
                "light bytes",
                at,
                format!(
                    "b1 is {} and b7 is {}; every known light has 0 and 255",
                    light.b1, light.b7
                ),
            );
        }
    }
}

fn validate_animation(node: &Node, path: &dyn Fn() -> String, f: &mut Findings) {
    let a = &node.animation;
    let axis_zero = a.axis == [0.0; 3];
    if a.origin != [0.0; 3] {
        f.warn(
            "animation",
            path,
            format!(
                "the animation origin is {:?}; every known world has (0, 0, 0), and the scene \
                 spins about the node's own origin",
                a.origin
            ),
        );
    }
    if !axis_zero && a.axis != [0.0, 1.0, 0.0] {
        f.warn(
            "animation",
            path,
            format!(
                "the spin axis is {:?}; every known world has (0, 0, 0) or (0, 1, 0)",
                a.axis
            ),
        );
    }
    if a.speed != 0.0 && axis_zero {
        f.warn(
            "animation",
            path,
            format!(
                "the speed is {} but the axis is (0, 0, 0): the node can not spin",
                a.speed
            ),
        );
    }
    let spins = a.speed != 0.0 && !axis_zero;
    if let Some(tenths) = h::spin_name_tenths(node.name.as_bytes()) {
        let want = (f64::from(tenths) / 10.0).to_radians();
        if !spins || (f64::from(a.speed) - want).abs() > 1e-4 {
            f.warn(
                "spin name",
                path,
                format!(
                    "the name says {:.1} degrees per frame ({} radians), but the speed is {} \
                     about {:?}; the scene follows the speed",
                    f64::from(tenths) / 10.0,
                    want,
                    a.speed,
                    a.axis
                ),
            );
        }
    }
}

fn validate_geometry(g: &Geometry, path: &dyn Fn() -> String, f: &mut Findings) {
    let n = g.points.len();
    for (what, len) in [
        ("points", n),
        ("normals", g.normals.len()),
        ("polygons", g.polygons.len()),
    ] {
        if len > usize::from(u16::MAX) {
            f.error(
                "count",
                path,
                format!("{len} {what}; the count holds at most 65535"),
            );
        }
    }
    if h::len_ifs(&g.polygons) > u64::from(u16::MAX) {
        f.error(
            "count",
            path,
            format!(
                "the face table is {} bytes; lenIFS holds at most 65535 (split the geometry)",
                h::len_ifs(&g.polygons)
            ),
        );
    }
    if g.points.iter().chain(&g.normals).any(|p| !finite(p)) {
        f.warn("not finite", path, "a point or normal is not finite".into());
    }
    if g.tex_coords.len() != n || g.point_flags.len() != n {
        f.error(
            "lengths",
            path,
            format!(
                "{n} points need {n} texture coordinates and {n} point flags, not {} and {}",
                g.tex_coords.len(),
                g.point_flags.len()
            ),
        );
    }
    if g.materials.len() != g.polygons.len() {
        f.error(
            "lengths",
            path,
            format!(
                "{} polygons need {} materials, not {}",
                g.polygons.len(),
                g.polygons.len(),
                g.materials.len()
            ),
        );
    }
    if let h::RenderType::Other(v) = h::render_type(g.render_flags) {
        f.warn(
            "render type",
            path,
            format!(
                "render type {v}: known worlds have 0 (lines), 256 (textured), 768 (flat) and \
                 1024 (lit); shown as lit"
            ),
        );
    }
    let lines = h::is_line_set(g.render_flags);
    for (p, poly) in g.polygons.iter().enumerate() {
        if let Some([i, k]) = poly
            .corners
            .iter()
            .find(|[i, k]| usize::from(*i) >= n || usize::from(*k) >= g.normals.len())
        {
            f.warn(
                "index",
                || format!("{}/polygons/{p}", path()),
                format!(
                    "a corner uses point {i} and normal {k}, but the geometry has {n} points and \
                     {} normals; the polygon is left out of the scene",
                    g.normals.len()
                ),
            );
        }
        let least = if lines { 2 } else { 3 };
        if poly.corners.len() < least {
            f.warn(
                "degenerate",
                || format!("{}/polygons/{p}", path()),
                format!(
                    "a {} definition with {} points (it is left out of the scene)",
                    if lines { "line" } else { "polygon" },
                    poly.corners.len()
                ),
            );
        }
    }
    if g.textures.len() > 255 {
        f.error(
            "count",
            path,
            format!(
                "{} texture definitions; numTexDefs holds at most 255",
                g.textures.len()
            ),
        );
    }
    for (t, tex) in g.textures.iter().enumerate() {
        if tex.name.len() > 255 || tex.extra.len() > 255 {
            f.error(
                "texture",
                || format!("{}/textures/{t}", path()),
                format!(
                    "the name is {} bytes and there are {} records; each count byte holds 255",
                    tex.name.len(),
                    tex.extra.len()
                ),
            );
        }
    }
    if let Some((p, m)) = g
        .materials
        .iter()
        .enumerate()
        .find(|(_, m)| usize::from(**m) >= g.textures.len().max(1))
    {
        f.warn(
            "material",
            || format!("{}/polygons/{p}", path()),
            format!(
                "material {m}, but the geometry has {} texture definitions; shown with the \
                 first",
                g.textures.len()
            ),
        );
    }
}
