//! HMP writer, the mirror of `read.rs`. Refuses a model that would not read back as itself:
//! a skin whose bytes do not match its type and size, an HMP4 list whose length is not the
//! header's count, a frame whose vertex count is not `numverts`.

use super::model::*;
use super::read::MATERIAL_SIZE;
use super::skin::{self, SkinKind};
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Hmp;

fn refuse(path: String, message: String) -> Error {
    Error::malformed(F, Location::path(path), message)
}

fn len_i32(n: usize, what: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| refuse(what.into(), format!("{n} {what} do not fit an i32")))
}

/// The file's bytes.
pub fn write(hmp: &Hmp) -> Result<Vec<u8>> {
    let mut w = ByteWriter::with_capacity(estimate(hmp));
    write_header(&mut w, hmp)?;
    let hmp4 = hmp.version == HmpVersion::Hmp4;
    for (i, s) in hmp.skins.iter().enumerate() {
        write_skin(&mut w, s, &hmp.header, hmp4, i)?;
    }
    if hmp4 {
        write_tex_coords(&mut w, hmp)?;
        write_triangles(&mut w, hmp)?;
    } else if !hmp.tex_coords.is_empty() || !hmp.triangles.is_empty() {
        return Err(refuse(
            "triangles".into(),
            "only HMP4 stores texture coordinates and triangles".into(),
        ));
    }
    for (i, f) in hmp.frames.iter().enumerate() {
        write_frame(&mut w, f, hmp, i)?;
    }
    w.put_bytes(&hmp.trailing);
    Ok(w.into_inner())
}

fn estimate(hmp: &Hmp) -> usize {
    let skins: usize = hmp.skins.iter().map(|s| s.data.len() + 12 + 68).sum();
    let frames: usize = hmp
        .frames
        .iter()
        .map(|f| f.vertices.len() * 4 + f.word_vertices.len() * 8 + 40)
        .sum();
    84 + skins + frames + hmp.triangles.len() * 12 + hmp.tex_coords.len() * 4 + hmp.trailing.len()
}

fn write_header(w: &mut ByteWriter, hmp: &Hmp) -> Result<()> {
    let h = &hmp.header;
    w.put_bytes(hmp.version.magic());
    w.put_i32_le(h.version);
    for v in h.scale.iter().chain(&h.offset) {
        w.put_f32_le(*v);
    }
    w.put_f32_le(h.bounding_radius);
    w.put_f32_le(h.tri_size[0]);
    w.put_f32_le(h.tri_size[1]);
    w.put_f32_le(h.verts_x);
    w.put_i32_le(len_i32(hmp.skins.len(), "skins")?);
    w.put_i32_le(h.skin_width);
    w.put_i32_le(h.skin_height);
    w.put_i32_le(h.num_verts);
    w.put_i32_le(h.num_tris);
    w.put_i32_le(len_i32(hmp.frames.len(), "frames")?);
    w.put_i32_le(h.num_st_verts);
    w.put_i32_le(h.flags);
    w.put_f32_le(h.size);
    Ok(())
}

fn write_skin(w: &mut ByteWriter, s: &Skin, header: &Header, hmp4: bool, i: usize) -> Result<()> {
    let path = || format!("skins/{i}");
    let kind = skin::skin_kind(s.kind, hmp4).map_err(|m| refuse(path(), m))?;
    w.put_u32_le(s.kind);
    let [width, height] = match (s.size, hmp4) {
        (None, true) => [header.skin_width as u32, header.skin_height as u32],
        (Some(wh), false) => {
            w.put_u32_le(wh[0]);
            w.put_u32_le(wh[1]);
            wh
        }
        _ => {
            return Err(refuse(
                path(),
                "HMP4 skins take their size from the header; HMP5/7 skins store their own".into(),
            ));
        }
    };
    let expected = match kind {
        SkinKind::Pixels { bytes, mips } => skin::pixel_bytes(width, height, bytes, mips),
        SkinKind::Reference => Some(0),
        SkinKind::Dds => Some(u64::from(width)),
        SkinKind::External => {
            let nul = s.data.iter().position(|&b| b == 0);
            nul.map(|p| p as u64 + 1)
        }
    };
    if expected != Some(s.data.len() as u64) {
        return Err(refuse(
            path(),
            format!(
                "skin type {} of {width}×{height} stores {expected:?} bytes, the model has {}",
                s.kind,
                s.data.len()
            ),
        ));
    }
    w.put_bytes(&s.data);
    match (&s.material, s.kind & 0x10 != 0) {
        (Some(m), true) if m.len() == MATERIAL_SIZE => w.put_bytes(m),
        (None, false) => {}
        _ => {
            return Err(refuse(
                path(),
                "a skin has a 68-byte material exactly when its type has bit 0x10".into(),
            ));
        }
    }
    match (&s.effect, s.kind & 0x20 != 0) {
        (Some(e), true) => {
            w.put_u32_le(
                u32::try_from(e.len()).map_err(|_| refuse(path(), "effect too long".into()))?,
            );
            w.put_bytes(e);
        }
        (None, false) => {}
        _ => {
            return Err(refuse(
                path(),
                "a skin has an effect text exactly when its type has bit 0x20".into(),
            ));
        }
    }
    Ok(())
}

fn write_tex_coords(w: &mut ByteWriter, hmp: &Hmp) -> Result<()> {
    if usize::try_from(hmp.header.num_st_verts).ok() != Some(hmp.tex_coords.len()) {
        return Err(refuse(
            "tex_coords".into(),
            format!(
                "{} texture coordinates, the header says {}",
                hmp.tex_coords.len(),
                hmp.header.num_st_verts
            ),
        ));
    }
    for [s, t] in &hmp.tex_coords {
        w.put_u16_le(*s as u16);
        w.put_u16_le(*t as u16);
    }
    Ok(())
}

fn write_triangles(w: &mut ByteWriter, hmp: &Hmp) -> Result<()> {
    if usize::try_from(hmp.header.num_tris).ok() != Some(hmp.triangles.len()) {
        return Err(refuse(
            "triangles".into(),
            format!(
                "{} triangles, the header says {}",
                hmp.triangles.len(),
                hmp.header.num_tris
            ),
        ));
    }
    for t in &hmp.triangles {
        for v in t.vertices.iter().chain(&t.tex_coords) {
            w.put_u16_le(*v);
        }
    }
    Ok(())
}

fn write_frame(w: &mut ByteWriter, f: &Frame, hmp: &Hmp, i: usize) -> Result<()> {
    let path = || format!("frames/{i}");
    if hmp.version == HmpVersion::Hmp4 && f.kind != 0 && f.kind != 2 {
        return Err(refuse(
            path(),
            "HMP4 frames are type 0 (byte-packed) or 2 (word-packed)".into(),
        ));
    }
    let bbox = hmp.version.bbox_size(f.kind);
    if f.bbox_min.len() != bbox || f.bbox_max.len() != bbox {
        return Err(refuse(
            path(),
            format!("bounding-box vertices of this frame type are {bbox} bytes"),
        ));
    }
    let words = hmp.version.words(f.kind);
    let (count, other) = if words {
        (f.word_vertices.len(), f.vertices.len())
    } else {
        (f.vertices.len(), f.word_vertices.len())
    };
    if other != 0 {
        return Err(refuse(
            path(),
            "word-packed vertices belong to HMP4 frames of type 2, four-byte vertices to \
             every other frame"
                .into(),
        ));
    }
    if usize::try_from(hmp.header.num_verts).ok() != Some(count) {
        return Err(refuse(
            path(),
            format!("{count} vertices, the header says {}", hmp.header.num_verts),
        ));
    }
    w.put_u32_le(f.kind);
    w.put_bytes(&f.bbox_min);
    w.put_bytes(&f.bbox_max);
    w.put_bytes(&f.name);
    for v in &f.vertices {
        w.put_bytes(v);
    }
    for v in &f.word_vertices {
        w.put_bytes(v);
    }
    Ok(())
}
