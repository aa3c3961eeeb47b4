//! Validation: every finding with its path.
//!
//! Errors are exactly what the reader refuses and the writer can not write (a count over its
//! field, a polygon using a missing point, a material or texture name that fails hypothesis H7,
//! a matrix that is not affine (H9), a NaN, an incomplete node tree, lengths that disagree);
//! warnings are values no known file has (a version other than 4, a spinning node not named
//! `SPINxxxx`, a name that disagrees with the speed, …).

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
        if h::num_nodes_field(t) > usize::from(u16::MAX) {
            f.error(
                "count",
                || "nodes".into(),
                format!(
                    "numNodes would be {}; the field holds at most 65535",
                    h::num_nodes_field(t)
                ),
            );
        }
        let limit = Limits::default().max_depth;
        if let Some(deep) = t.depth.iter().position(|&d| d > limit) {
            f.warn(
                "depth",
                || t.path(deep),
                format!("the node tree is deeper than the reader's default limit of {limit}"),
            );
        }
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
            f.error(
                "not finite",
                || format!("fence/borders/{i}"),
                "a coordinate is not finite".into(),
            );
        }
    }
    if !fence.y_min.is_finite() || !fence.y_max.is_finite() {
        f.error(
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
        f.error(
            "not finite",
            path,
            "a transform element is not finite".into(),
        );
    } else {
        let m = &node.transform;
        if !h::matrix_plausible(m) {
            f.error(
                "matrix",
                path,
                format!(
                    "the matrix's elements 3, 7, 11, 15 are {:?}, not 0, 0, 0, 1: the reader \
                     takes that for a misread (hypothesis H9)",
                    [m[3], m[7], m[11], m[15]]
                ),
            );
        }
    }
    if !finite(&a.origin) || !finite(&a.axis) || !a.speed.is_finite() {
        f.error(
            "not finite",
            path,
            "an animation value is not finite".into(),
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
        if !finite(&light.s0_s2) || !finite(&light.s3_s4) {
            f.error("not finite", at, "a light value is not finite".into());
            continue;
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
        if light.kind == LightType::Spot {
            let (inner, outer) = h::spot_cone(light.s3_s4);
            if !(0.0 <= inner && inner < outer && outer <= std::f32::consts::FRAC_PI_2) {
                f.warn(
                    "spot",
                    at,
                    format!(
                        "penumbra {} and umbra {} do not make a cone (hypothesis M11: \
                         0 <= umbra < penumbra <= pi); the scene gets a corrected cone",
                        light.s3_s4[0], light.s3_s4[1]
                    ),
                );
            }
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
    match h::spin_name_tenths(node.name.as_bytes()) {
        Some(tenths) => {
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
        None if spins => f.warn(
            "spin name",
            path,
            format!(
                "the node spins ({:.2} degrees per frame) but is not named SPINxxxx, as V-Chat \
                 spinning parts must be",
                h::degrees_per_frame(a.speed)
            ),
        ),
        None => {}
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
        f.error("not finite", path, "a point or normal is not finite".into());
    }
    if g.tex_coords.iter().any(|t| !finite(t)) {
        f.error(
            "not finite",
            path,
            "a texture coordinate is not finite".into(),
        );
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
    let lines = h::is_line_set(g.render_flags);
    for (p, poly) in g.polygons.iter().enumerate() {
        if let Some(i) = poly.points.iter().find(|&&i| usize::from(i) >= n) {
            f.error(
                "index",
                || format!("{}/polygons/{p}", path()),
                format!("uses point {i}, but the geometry has {n} points"),
            );
        }
        let least = if lines { 2 } else { 3 };
        if poly.points.len() < least {
            f.warn(
                "degenerate",
                || format!("{}/polygons/{p}", path()),
                format!(
                    "a {} definition with {} points (it is left out of the scene)",
                    if lines { "line" } else { "polygon" },
                    poly.points.len()
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
        let why = if tex.name.len() > 255 {
            Some(format!(
                "the name is {} bytes; its length byte holds 255",
                tex.name.len()
            ))
        } else {
            h::tex_name_plausible(tex.name.as_bytes()).err()
        };
        if let Some(why) = why {
            f.error("texture", || format!("{}/textures/{t}", path()), why);
        }
    }
    if let Some((p, m)) = g
        .materials
        .iter()
        .enumerate()
        .find(|(_, m)| !h::material_plausible(**m, g.textures.len()))
    {
        f.error(
            "material",
            || format!("{}/polygons/{p}", path()),
            format!(
                "material {m}, but the geometry has {} texture definitions (hypothesis H7: the \
                 index names one of them, or is 0 when there are none)",
                g.textures.len()
            ),
        );
    }
    if h::normal_binding(g.normals.len(), n, g.polygons.len()) == h::NormalBinding::Unknown
        && !g.normals.is_empty()
    {
        f.warn(
            "normals",
            path,
            format!(
                "{} normals for {n} points and {} polygons: neither per point nor per polygon \
                 (hypothesis M4), so the scene does not use them",
                g.normals.len(),
                g.polygons.len()
            ),
        );
    }
}
