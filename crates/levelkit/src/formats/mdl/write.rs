//! MDL writer, the mirror of `read.rs`: the same functions in the same order. Counts come from
//! the lists; a list whose length disagrees with what the layout needs (a frame with the wrong
//! number of vertices, a picture of the wrong size, a triangle field the declared record size
//! has no room for) is an error rather than a file the reader would misread.

use super::layout::{self, SKIN7_HEADER};
use super::model::*;
use super::read::frame_words;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Mdl;

fn err(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::new(F, ErrorKind::Malformed, Location::path(path), message)
}

fn len_i32(n: usize, path: &str) -> Result<i32> {
    i32::try_from(n).map_err(|_| err(path, format!("{n} items do not fit a 32-bit count")))
}

fn put_f32x3(w: &mut ByteWriter, v: [f32; 3]) {
    for x in v {
        w.put_f32_le(x);
    }
}

/// The file's bytes.
pub fn write(mdl: &Mdl) -> Result<Vec<u8>> {
    let mut w = ByteWriter::new();
    match mdl {
        Mdl::Classic(c) => {
            w.put_bytes(c.version.magic());
            write_classic(&mut w, c)?;
        }
        Mdl::Mdl7(m) => {
            w.put_bytes(b"MDL7");
            write_mdl7(&mut w, m)?;
        }
    }
    Ok(w.into_inner())
}

// ---- classic ---------------------------------------------------------------------------------

fn write_classic(w: &mut ByteWriter, c: &Classic) -> Result<()> {
    write_classic_header(w, c)?;
    for (i, skin) in c.skins.iter().enumerate() {
        write_skin(w, c, skin, &format!("skins[{i}]"))?;
    }
    write_texcoords(w, c)?;
    write_triangles(w, c)?;
    for (i, frame) in c.frames.iter().enumerate() {
        write_frame(w, c, frame, &format!("frames[{i}]"))?;
    }
    w.put_bytes(&c.trailer);
    Ok(())
}

fn write_classic_header(w: &mut ByteWriter, c: &Classic) -> Result<()> {
    let h = &c.header;
    w.put_i32_le(h.version);
    put_f32x3(w, h.scale);
    put_f32x3(w, h.translate);
    w.put_f32_le(h.radius);
    put_f32x3(w, h.eye);
    w.put_i32_le(len_i32(c.skins.len(), "skins")?);
    w.put_i32_le(h.skin_width);
    w.put_i32_le(h.skin_height);
    w.put_u32_le(h.num_verts);
    let tris = match &c.triangles {
        Triangles::Quake(t) => t.len(),
        Triangles::Skin(t) => t.len(),
    };
    w.put_i32_le(len_i32(tris, "triangles")?);
    w.put_i32_le(len_i32(c.frames.len(), "frames")?);
    let sync = match (&c.texcoords, c.version.quake_layout()) {
        (TexCoords::Skin(uvs), false) => len_i32(uvs.len(), "texcoords")?,
        (TexCoords::Quake(_), true) => h.sync_type,
        _ => {
            return Err(err(
                "texcoords",
                format!(
                    "{:?} models have the other kind of texture coordinates",
                    c.version
                ),
            ));
        }
    };
    w.put_i32_le(sync);
    w.put_i32_le(h.flags);
    w.put_u32_le(h.size);
    Ok(())
}

fn skin_dims(c: &Classic) -> (u64, u64) {
    (
        u64::try_from(c.header.skin_width).unwrap_or(0),
        u64::try_from(c.header.skin_height).unwrap_or(0),
    )
}

fn write_skin(w: &mut ByteWriter, c: &Classic, skin: &Skin, path: &str) -> Result<()> {
    let (sw, sh) = skin_dims(c);
    match skin {
        Skin::Group { times, pictures } => {
            if !c.version.quake_layout() {
                return Err(err(path, "skin groups exist only in IDPO and MDL2 files"));
            }
            if times.len() != pictures.len() {
                return Err(err(path, "a skin group needs one time per picture"));
            }
            w.put_u32_le(1);
            w.put_i32_le(len_i32(pictures.len(), path)?);
            for &t in times {
                w.put_f32_le(t);
            }
            for p in pictures {
                if p.len() as u64 != sw.saturating_mul(sh) {
                    return Err(err(
                        path,
                        "a group picture is not skin_width x skin_height bytes",
                    ));
                }
                w.put_bytes(p);
            }
        }
        Skin::Single {
            kind,
            size,
            pixels,
            mips,
        } => {
            w.put_u32_le(*kind);
            let (width, height) = match (c.version == ClassicVersion::Mdl5, size) {
                (true, Some([a, b])) => {
                    w.put_u32_le(*a);
                    w.put_u32_le(*b);
                    (u64::from(*a), u64::from(*b))
                }
                (false, None) => (sw, sh),
                _ => return Err(err(path, "MDL5 skins, and only they, have their own size")),
            };
            let (full, small) = if kind & 7 == 6 && c.version == ClassicVersion::Mdl5 {
                (width, 0)
            } else {
                let bpp = layout::bytes_per_pixel(*kind)
                    .filter(|_| *kind != 1)
                    .ok_or_else(|| err(path, format!("skin type {kind} is not a picture type")))?;
                layout::picture_bytes(width, height, bpp, kind & layout::SKIN_MIPS != 0)
                    .ok_or_else(|| err(path, "skin size overflows"))?
            };
            if pixels.len() as u64 != full || mips.len() as u64 != small {
                return Err(err(
                    path,
                    format!(
                        "skin type {kind} of {width}x{height} needs {full} + {small} bytes, has {} + {}",
                        pixels.len(),
                        mips.len()
                    ),
                ));
            }
            w.put_bytes(pixels);
            w.put_bytes(mips);
        }
    }
    Ok(())
}

fn write_texcoords(w: &mut ByteWriter, c: &Classic) -> Result<()> {
    match &c.texcoords {
        TexCoords::Quake(list) => {
            if list.len() as u64 != u64::from(c.header.num_verts) {
                return Err(err(
                    "texcoords",
                    "Quake models need one texture coordinate per vertex",
                ));
            }
            for t in list {
                w.put_i32_le(t.on_seam);
                w.put_i32_le(t.s);
                w.put_i32_le(t.t);
            }
        }
        TexCoords::Skin(list) => {
            for [u, v] in list {
                w.put_bytes(&u.to_le_bytes());
                w.put_bytes(&v.to_le_bytes());
            }
        }
    }
    Ok(())
}

fn write_triangles(w: &mut ByteWriter, c: &Classic) -> Result<()> {
    match (&c.triangles, c.version.quake_layout()) {
        (Triangles::Quake(list), true) => {
            for t in list {
                w.put_i32_le(t.faces_front);
                for v in t.vertices {
                    w.put_i32_le(v);
                }
            }
        }
        (Triangles::Skin(list), false) => {
            for t in list {
                for v in t.vertices.iter().chain(&t.uvs) {
                    w.put_u16_le(*v);
                }
            }
        }
        _ => {
            return Err(err(
                "triangles",
                format!("{:?} models have the other kind of triangles", c.version),
            ));
        }
    }
    Ok(())
}

fn write_frame(w: &mut ByteWriter, c: &Classic, frame: &Frame, path: &str) -> Result<()> {
    match frame {
        Frame::Group {
            kind,
            min,
            max,
            times,
            poses,
        } => {
            if *kind == 0 || !c.version.quake_layout() {
                return Err(err(
                    path,
                    "frame groups exist only in IDPO and MDL2, with a type not 0",
                ));
            }
            if times.len() != poses.len() {
                return Err(err(path, "a frame group needs one time per pose"));
            }
            w.put_u32_le(*kind);
            w.put_i32_le(len_i32(poses.len(), path)?);
            write_packed(w, min, false, path)?;
            write_packed(w, max, false, path)?;
            for &t in times {
                w.put_f32_le(t);
            }
            for (i, pose) in poses.iter().enumerate() {
                write_pose(w, c, pose, false, &format!("{path}.poses[{i}]"))?;
            }
        }
        Frame::Single { kind, pose } => {
            if *kind != 0 && c.version.quake_layout() {
                return Err(err(path, "a single Quake frame has type 0"));
            }
            w.put_u32_le(*kind);
            write_pose(w, c, pose, frame_words(c.version, *kind), path)?;
        }
    }
    Ok(())
}

fn write_pose(w: &mut ByteWriter, c: &Classic, pose: &Pose, words: bool, path: &str) -> Result<()> {
    if pose.vertices.len() as u64 != u64::from(c.header.num_verts) {
        return Err(err(
            path,
            format!(
                "the frame has {} vertices; the header says {}",
                pose.vertices.len(),
                c.header.num_verts
            ),
        ));
    }
    write_packed(w, &pose.min, words, path)?;
    write_packed(w, &pose.max, words, path)?;
    w.put_bytes(&pose.name);
    for v in &pose.vertices {
        write_packed(w, v, words, path)?;
    }
    Ok(())
}

fn write_packed(w: &mut ByteWriter, v: &PackedVertex, words: bool, path: &str) -> Result<()> {
    if words {
        for x in v.position {
            w.put_u16_le(x);
        }
        w.put_u8(v.normal);
        w.put_u8(v.pad);
    } else {
        if v.pad != 0 {
            return Err(err(path, "byte vertices have no pad byte"));
        }
        for x in v.position {
            let b = u8::try_from(x)
                .map_err(|_| err(path, format!("coordinate {x} does not fit a byte frame")))?;
            w.put_u8(b);
        }
        w.put_u8(v.normal);
    }
    Ok(())
}

// ---- MDL7 ------------------------------------------------------------------------------------

fn write_mdl7(w: &mut ByteWriter, m: &Mdl7) -> Result<()> {
    let h = &m.header;
    let s = &h.sizes;
    w.put_i32_le(h.version);
    w.put_u32_le(len_i32(m.bones.len(), "bones")?.unsigned_abs());
    w.put_u32_le(len_i32(m.groups.len(), "groups")?.unsigned_abs());
    w.put_u32_le(h.data_size);
    w.put_i32_le(h.entlump_size);
    w.put_i32_le(h.medlump_size);
    for size in [
        s.bone,
        s.skin,
        s.color,
        s.material,
        s.skin_point,
        s.triangle,
        s.main_vertex,
        s.frame_vertex,
        s.bone_transform,
        s.frame,
    ] {
        w.put_u16_le(size);
    }
    if s.skin as usize != SKIN7_HEADER
        || s.color != layout::COLOR7
        || s.material != layout::MATERIAL7
        || s.skin_point != layout::SKIN_POINT7
        || s.bone_transform != layout::BONE_TRANSFORM7
        || s.frame != layout::FRAME7
        || s.bone < 16
        || !matches!(s.triangle, 12 | 16 | 26 | 44)
        || !matches!(s.main_vertex, 16 | 26)
        || !matches!(s.frame_vertex, 16 | 26 | 28)
    {
        return Err(err(
            "header.sizes",
            "record sizes the reader does not support",
        ));
    }
    for (i, b) in m.bones.iter().enumerate() {
        write_bone(w, b, s, &format!("bones[{i}]"))?;
    }
    for (i, g) in m.groups.iter().enumerate() {
        write_group(w, g, s, &format!("groups[{i}]"))?;
    }
    // Every group's deformers after the last group, in group order.
    for (i, g) in m.groups.iter().enumerate() {
        for (k, d) in g.deformers.iter().enumerate() {
            write_deformer(w, d, &format!("groups[{i}].deformers[{k}]"))?;
        }
    }
    w.put_bytes(&m.trailer);
    Ok(())
}

fn write_bone(w: &mut ByteWriter, b: &Bone, s: &StructSizes, path: &str) -> Result<()> {
    w.put_u16_le(b.parent);
    w.put_u16_le(b.pad);
    put_f32x3(w, b.position);
    if b.name.len() != usize::from(s.bone).saturating_sub(16) {
        return Err(err(
            path,
            format!("bone names are {} bytes", usize::from(s.bone) - 16),
        ));
    }
    w.put_bytes(&b.name);
    Ok(())
}

fn write_group(w: &mut ByteWriter, g: &Group, s: &StructSizes, path: &str) -> Result<()> {
    w.put_u8(g.kind);
    w.put_u8(u8::try_from(g.deformers.len()).map_err(|_| err(path, "more than 255 deformers"))?);
    w.put_u8(g.max_weights);
    w.put_u8(g.unused);
    w.put_i32_le(g.data_size);
    w.put_bytes(&g.name);
    w.put_i32_le(len_i32(g.skins.len(), path)?);
    w.put_i32_le(len_i32(g.uvs.len(), path)?);
    w.put_i32_le(len_i32(g.triangles.len(), path)?);
    w.put_i32_le(len_i32(g.vertices.len(), path)?);
    w.put_i32_le(len_i32(g.frames.len(), path)?);
    for (i, skin) in g.skins.iter().enumerate() {
        write_skin7(w, skin, &format!("{path}.skins[{i}]"))?;
    }
    for [u, v] in &g.uvs {
        w.put_f32_le(*u);
        w.put_f32_le(*v);
    }
    for (i, t) in g.triangles.iter().enumerate() {
        write_triangle7(w, t, s.triangle, &format!("{path}.triangles[{i}]"))?;
    }
    for (i, v) in g.vertices.iter().enumerate() {
        write_vertex7(w, v, s.main_vertex, &format!("{path}.vertices[{i}]"))?;
    }
    for (i, f) in g.frames.iter().enumerate() {
        write_frame7(w, f, s, &format!("{path}.frames[{i}]"))?;
    }
    Ok(())
}

fn write_skin7(w: &mut ByteWriter, skin: &Skin7, path: &str) -> Result<()> {
    w.put_u8(skin.kind);
    w.put_bytes(&skin.unused);
    w.put_i32_le(skin.width);
    w.put_i32_le(skin.height);
    w.put_bytes(&skin.name);
    let width = u64::try_from(skin.width).unwrap_or(0);
    let height = u64::try_from(skin.height).unwrap_or(0);
    match (&skin.data, skin.kind & 7) {
        (SkinData::None, 1) => {}
        (SkinData::Dds(bytes), 6) | (SkinData::External(bytes), 7) => {
            if bytes.len() as u64 != width {
                return Err(err(path, "an embedded or external file is `width` bytes"));
            }
            w.put_bytes(bytes);
        }
        (SkinData::None, format) if layout::bytes_per_pixel(format.into()).is_some() => {
            if width != 0 && height != 0 {
                return Err(err(
                    path,
                    "a picture skin of non-zero size needs its pixels",
                ));
            }
        }
        (SkinData::Pixels { pixels, mips }, format) => {
            let bpp = layout::bytes_per_pixel(format.into())
                .ok_or_else(|| err(path, "the skin type is not a picture type"))?;
            let with_mips = u32::from(skin.kind) & layout::SKIN_MIPS != 0;
            let (full, small) = layout::picture_bytes(width, height, bpp, with_mips)
                .ok_or_else(|| err(path, "skin size overflows"))?;
            if width == 0
                || height == 0
                || pixels.len() as u64 != full
                || mips.len() as u64 != small
            {
                return Err(err(
                    path,
                    format!("a {width}x{height} skin needs {full} + {small} bytes"),
                ));
            }
            w.put_bytes(pixels);
            w.put_bytes(mips);
        }
        _ => return Err(err(path, "the skin data does not match the skin type")),
    }
    match (&skin.material, skin.kind & layout::SKIN_MATERIAL != 0) {
        (Some(m), true) => {
            for c in [m.diffuse, m.ambient, m.specular, m.emissive] {
                for x in c {
                    w.put_f32_le(x);
                }
            }
            w.put_f32_le(m.power);
        }
        (None, false) => {}
        _ => {
            return Err(err(
                path,
                "a material is present exactly when bit 4 of the type is set",
            ));
        }
    }
    match (&skin.effect, skin.kind & layout::SKIN_EFFECT != 0) {
        (Some(e), true) => {
            w.put_i32_le(len_i32(e.len(), path)?);
            w.put_bytes(e);
        }
        (None, false) => {}
        _ => {
            return Err(err(
                path,
                "an effect is present exactly when bit 5 of the type is set",
            ));
        }
    }
    Ok(())
}

fn write_triangle7(w: &mut ByteWriter, t: &Triangle7, size: u16, path: &str) -> Result<()> {
    if size == 44 {
        for v in t.vertices.iter().chain(&t.uvs) {
            w.put_u32_le(*v);
        }
        w.put_u32_le(t.material);
        for v in t.uvs2 {
            w.put_u32_le(v);
        }
        w.put_u32_le(t.material2);
        return Ok(());
    }
    let short = |v: u32| {
        u16::try_from(v).map_err(|_| {
            err(
                path,
                format!(
                    "index {v} does not fit a {size}-byte triangle (16 bits; 44-byte ones have 32)"
                ),
            )
        })
    };
    for v in t.vertices.iter().chain(&t.uvs) {
        w.put_u16_le(short(*v)?);
    }
    if size >= 16 {
        w.put_u32_le(t.material);
    } else if t.material != 0 {
        return Err(err(path, "12-byte triangles have no material"));
    }
    if size >= 26 {
        for v in t.uvs2 {
            w.put_u16_le(short(v)?);
        }
        w.put_u32_le(t.material2);
    } else if t.uvs2 != [0; 3] || t.material2 != 0 {
        return Err(err(
            path,
            "triangles shorter than 26 bytes have no second UV set",
        ));
    }
    Ok(())
}

fn write_vertex7(w: &mut ByteWriter, v: &Vertex7, size: u16, path: &str) -> Result<()> {
    put_f32x3(w, v.position);
    w.put_u16_le(v.index);
    match (v.normal, size) {
        (Normal7::Vector(n), 26) => put_f32x3(w, n),
        (Normal7::Index { index, pad }, 16) => {
            w.put_u8(index);
            w.put_u8(pad);
        }
        _ => {
            return Err(err(
                path,
                format!("{size}-byte vertices have the other kind of normal"),
            ));
        }
    }
    Ok(())
}

fn write_frame7(w: &mut ByteWriter, f: &Frame7, s: &StructSizes, path: &str) -> Result<()> {
    w.put_bytes(&f.name);
    w.put_u32_le(len_i32(f.vertices.len(), path)?.unsigned_abs());
    w.put_u32_le(len_i32(f.transforms.len(), path)?.unsigned_abs());
    for (i, v) in f.vertices.iter().enumerate() {
        write_vertex7(w, v, s.frame_vertex, &format!("{path}.vertices[{i}]"))?;
    }
    for t in &f.transforms {
        for x in t.matrix {
            w.put_f32_le(x);
        }
        w.put_u16_le(t.bone);
        w.put_bytes(&t.pad);
    }
    Ok(())
}

fn write_deformer(w: &mut ByteWriter, d: &Deformer, path: &str) -> Result<()> {
    w.put_u8(d.version);
    w.put_u8(d.kind);
    w.put_bytes(&d.unused);
    w.put_i32_le(d.group);
    w.put_i32_le(len_i32(d.elements.len(), path)?);
    w.put_i32_le(d.data_size);
    for e in &d.elements {
        w.put_i32_le(e.index);
        w.put_bytes(&e.name);
        w.put_i32_le(len_i32(e.weights.len(), path)?);
        for &(v, weight) in &e.weights {
            w.put_i32_le(v);
            w.put_f32_le(weight);
        }
    }
    Ok(())
}
