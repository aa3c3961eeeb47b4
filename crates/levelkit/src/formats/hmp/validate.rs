//! What is wrong with a terrain, each finding with its path. Errors: the engine could not show
//! it (no frame, no grid, triangles out of range); warnings: odd values it would still load.

use super::model::{Hmp, HmpVersion};
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Hmp;

/// Every finding.
pub fn validate(hmp: &Hmp) -> Vec<Warning> {
    let mut out = Vec::new();
    let error = |out: &mut Vec<Warning>, path: &str, m: String| {
        out.push(Warning::error(F, Location::path(path), m));
    };
    let h = &hmp.header;
    if hmp.frames.is_empty() {
        error(
            &mut out,
            "frames",
            "no frame: the terrain has no vertices".into(),
        );
    }
    let finite = h
        .scale
        .iter()
        .chain(&h.offset)
        .chain(&h.tri_size)
        .all(|v| v.is_finite());
    if !finite {
        error(
            &mut out,
            "header",
            "scale, offset or triangle size is not a finite number".into(),
        );
    }
    match hmp.version {
        HmpVersion::Hmp4 => {
            let n = usize::try_from(h.num_verts).unwrap_or(0);
            if hmp.triangles.is_empty() && hmp.grid().is_none() {
                error(
                    &mut out,
                    "triangles",
                    format!(
                        "no triangles, and {} vertices with {} per row make no grid",
                        h.num_verts, h.verts_x
                    ),
                );
            }
            for (t, tri) in hmp.triangles.iter().enumerate() {
                if tri.vertices.iter().any(|&v| usize::from(v) >= n) {
                    error(
                        &mut out,
                        &format!("triangles/{t}"),
                        format!("vertex index beyond the {n} vertices"),
                    );
                }
                if tri
                    .tex_coords
                    .iter()
                    .any(|&v| usize::from(v) >= hmp.tex_coords.len())
                {
                    error(
                        &mut out,
                        &format!("triangles/{t}"),
                        format!(
                            "texture coordinate index beyond the {}",
                            hmp.tex_coords.len()
                        ),
                    );
                }
            }
        }
        HmpVersion::Hmp5 | HmpVersion::Hmp7 => {
            if hmp.grid().is_none() {
                error(
                    &mut out,
                    "header",
                    format!(
                        "{} vertices with {} per row do not make a grid of at least 2 × 2",
                        h.num_verts, h.verts_x
                    ),
                );
            } else if h.verts_x.fract() != 0.0 {
                out.push(Warning::warning(
                    F,
                    Location::path("header/verts_x"),
                    format!("vertices per row {} is not a whole number", h.verts_x),
                ));
            }
            if h.tri_size.contains(&0.0) {
                error(
                    &mut out,
                    "header/tri_size",
                    "a triangle size of 0 makes a flat line".into(),
                );
            }
        }
    }
    out
}
