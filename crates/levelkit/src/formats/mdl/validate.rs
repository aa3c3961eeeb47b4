//! Validation of an MDL model: every finding with its path. Errors are what the engines could
//! not load (an index past its list); warnings are what they would load oddly.

use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Mdl;

/// Every finding.
pub fn validate(mdl: &Mdl) -> Vec<Warning> {
    let mut out = Vec::new();
    match mdl {
        Mdl::Classic(c) => classic(c, &mut out),
        Mdl::Mdl7(m) => mdl7(m, &mut out),
    }
    out
}

fn error(out: &mut Vec<Warning>, path: impl Into<String>, message: impl Into<String>) {
    out.push(Warning::error(F, Location::path(path), message));
}

fn warning(out: &mut Vec<Warning>, path: impl Into<String>, message: impl Into<String>) {
    out.push(Warning::warning(F, Location::path(path), message));
}

fn classic(c: &Classic, out: &mut Vec<Warning>) {
    let n = c.header.num_verts as usize;
    if c.frames.is_empty() {
        error(
            out,
            "frames",
            "the model has no frames (no vertex positions)",
        );
    }
    match &c.triangles {
        Triangles::Quake(tris) => {
            for (i, t) in tris.iter().enumerate() {
                if t.vertices
                    .iter()
                    .any(|&v| usize::try_from(v).map_or(true, |v| v >= n))
                {
                    error(
                        out,
                        format!("triangles[{i}]"),
                        format!("a vertex index is not below {n}"),
                    );
                }
            }
        }
        Triangles::Skin(tris) => {
            let uvs = match &c.texcoords {
                TexCoords::Skin(u) => u.len(),
                TexCoords::Quake(u) => u.len(),
            };
            for (i, t) in tris.iter().enumerate() {
                if t.vertices.iter().any(|&v| usize::from(v) >= n) {
                    error(
                        out,
                        format!("triangles[{i}]"),
                        format!("a vertex index is not below {n}"),
                    );
                }
                if t.uvs.iter().any(|&v| usize::from(v) >= uvs) {
                    error(
                        out,
                        format!("triangles[{i}]"),
                        format!("a skin vertex index is not below {uvs}"),
                    );
                }
            }
        }
    }
    for (i, f) in c.frames.iter().enumerate() {
        let poses: Vec<&Pose> = match f {
            Frame::Single { pose, .. } => vec![pose],
            Frame::Group { poses, .. } => poses.iter().collect(),
        };
        for (k, p) in poses.iter().enumerate() {
            if p.vertices.len() != n {
                error(
                    out,
                    format!("frames[{i}].poses[{k}]"),
                    format!("{} vertices, not {n}", p.vertices.len()),
                );
            }
            if p.vertices.iter().any(|v| v.normal > 161) {
                warning(
                    out,
                    format!("frames[{i}].poses[{k}]"),
                    "a normal index is past the 162 normals",
                );
            }
        }
    }
    if c.version == ClassicVersion::Idpo && c.header.version != 6 {
        warning(
            out,
            "header.version",
            format!("Quake models are version 6, not {}", c.header.version),
        );
    }
}

fn mdl7(m: &Mdl7, out: &mut Vec<Warning>) {
    let bones = m.bones.len();
    for (i, b) in m.bones.iter().enumerate() {
        if b.parent != 0xffff && usize::from(b.parent) >= bones {
            error(
                out,
                format!("bones[{i}].parent"),
                format!("parent {} is not a bone", b.parent),
            );
        } else if b.parent != 0xffff && usize::from(b.parent) >= i {
            // MED lists a parent before its children, and a pose is built in list order.
            warning(
                out,
                format!("bones[{i}].parent"),
                format!(
                    "parent {} comes after its child: the engine builds the pose in list \
                     order",
                    b.parent
                ),
            );
        }
    }
    if m.groups.is_empty() {
        error(out, "groups", "the model has no groups");
    }
    let none = if m.header.sizes.triangle == 44 {
        u32::MAX
    } else {
        0xFFFF
    };
    for (gi, g) in m.groups.iter().enumerate() {
        let at = format!("groups[{gi}]");
        let n = g.vertices.len();
        for (si, s) in g.skins.iter().enumerate() {
            let pixels = matches!(s.data, SkinData::Pixels { .. } | SkinData::Dds(_));
            let side = |v: i32| u32::try_from(v).is_ok_and(u32::is_power_of_two);
            if pixels && !(side(s.width) && side(s.height)) {
                warning(
                    out,
                    format!("{at}.skins[{si}]"),
                    format!(
                        "skin of {} x {}: a side is not a power of two, which the engine's \
                         renderer may need",
                        s.width, s.height
                    ),
                );
            }
        }
        for (i, t) in g.triangles.iter().enumerate() {
            if t.vertices.iter().any(|&v| v as usize >= n) {
                error(
                    out,
                    format!("{at}.triangles[{i}]"),
                    format!("a vertex index is not below {n}"),
                );
            }
            // All ones (0xFFFF in 16 bits) is "no texture coordinate" (MED writes it on every
            // corner of a model never mapped: Acknex/CommandAndLotter `Vertex.mdl`), as -1 is
            // "no material".
            if !g.uvs.is_empty()
                && t.uvs
                    .iter()
                    .any(|&v| v != none && v as usize >= g.uvs.len())
            {
                error(
                    out,
                    format!("{at}.triangles[{i}]"),
                    format!("a UV index is not below {}", g.uvs.len()),
                );
            }
        }
        for (i, v) in g.vertices.iter().enumerate() {
            if v.index != 0xffff && bones > 0 && usize::from(v.index) >= bones {
                warning(
                    out,
                    format!("{at}.vertices[{i}]"),
                    format!("bone {} does not exist", v.index),
                );
            }
        }
        for (fi, f) in g.frames.iter().enumerate() {
            if f.vertices.iter().any(|v| usize::from(v.index) >= n) {
                error(
                    out,
                    format!("{at}.frames[{fi}]"),
                    format!("a frame vertex moves a vertex not below {n}"),
                );
            }
            if f.transforms.iter().any(|t| usize::from(t.bone) >= bones) {
                error(
                    out,
                    format!("{at}.frames[{fi}]"),
                    format!("a bone matrix names a bone not below {bones}"),
                );
            }
        }
        for (di, d) in g.deformers.iter().enumerate() {
            for (ei, e) in d.elements.iter().enumerate() {
                if e.weights
                    .iter()
                    .any(|&(v, _)| usize::try_from(v).map_or(true, |v| v >= n))
                {
                    error(
                        out,
                        format!("{at}.deformers[{di}].elements[{ei}]"),
                        format!("a weight names a vertex not below {n}"),
                    );
                }
            }
        }
    }
}
