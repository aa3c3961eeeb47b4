//! The text form of a terrain (`levelkit dump`): header, skins, frames and a height summary.

use std::fmt::{self, Write as _};

use super::model::{Hmp, HmpVersion};

/// The text dump of a terrain; `name` is the file's name.
pub fn dump(name: &str, hmp: &Hmp) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_hmp(&mut s, name, hmp);
    s
}

fn dump_hmp(s: &mut String, name: &str, hmp: &Hmp) -> fmt::Result {
    let h = &hmp.header;
    writeln!(s, "{name}: {:?} terrain", hmp.version)?;
    writeln!(
        s,
        "  version word {}  flags {}  size {}",
        h.version, h.flags, h.size
    )?;
    writeln!(
        s,
        "  scale {:?}  offset {:?}  bounding radius {}",
        h.scale, h.offset, h.bounding_radius
    )?;
    writeln!(
        s,
        "  cell {} × {}  vertices per row {}",
        h.tri_size[0], h.tri_size[1], h.verts_x
    )?;
    match hmp.grid() {
        Some((nx, ny)) => writeln!(s, "  grid {nx} × {ny} ({} vertices)", h.num_verts)?,
        None => writeln!(s, "  {} vertices (not a grid)", h.num_verts)?,
    }
    writeln!(
        s,
        "  skin size {} × {} (header)",
        h.skin_width, h.skin_height
    )?;
    for (i, k) in hmp.skins.iter().enumerate() {
        let size = k
            .size
            .map_or_else(String::new, |[w, h]| format!(" {w} × {h}"));
        writeln!(
            s,
            "  skin {i}: type {}{size}, {} bytes{}{}",
            k.kind,
            k.data.len(),
            if k.material.is_some() {
                ", material"
            } else {
                ""
            },
            if k.effect.is_some() { ", effect" } else { "" },
        )?;
    }
    if hmp.version == HmpVersion::Hmp4 {
        writeln!(
            s,
            "  {} texture coordinates, {} triangles",
            hmp.tex_coords.len(),
            hmp.triangles.len()
        )?;
    }
    for (i, f) in hmp.frames.iter().enumerate() {
        let heights = (0..f.vertex_count()).map(|i| match hmp.version {
            HmpVersion::Hmp4 => f.packed_xyz(i).map_or(0, |[_, _, z]| z),
            _ => f
                .vertices
                .get(i)
                .map_or(0, |v| u16::from_le_bytes([v[0], v[1]])),
        });
        let (lo, hi) = heights.fold((u16::MAX, 0), |(lo, hi), z| (lo.min(z), hi.max(z)));
        writeln!(
            s,
            "  frame {i} {:?}: type {}, {} vertices, raw heights {}..{}",
            Hmp::frame_name(f),
            f.kind,
            f.vertex_count(),
            if f.vertex_count() == 0 { 0 } else { lo },
            hi
        )?;
    }
    if !hmp.trailing.is_empty() {
        writeln!(s, "  {} trailing bytes", hmp.trailing.len())?;
    }
    Ok(())
}
