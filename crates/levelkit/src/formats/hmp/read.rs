//! HMP reader. Mirrors `write.rs` function by function: header, skins, (HMP4) texture
//! coordinates and triangles, frames, trailing bytes.
//!
//! Every count is checked against the bytes that remain before anything is allocated, so the
//! model is never larger than the file; a header claiming gigabytes of vertices or a skin of
//! 65535 × 65535 pixels is a [`ErrorKind::Truncated`] error before any allocation.

#![deny(clippy::arithmetic_side_effects)]

use super::model::*;
use super::skin::{self, SkinKind};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteReader;
use crate::limits::{Budget, Limits};
use crate::registry::Format;

const F: Format = Format::Hmp;

/// Size of the header, magic included.
pub const HEADER_SIZE: usize = 84;
/// Size of the MDL7 material after a skin with type bit 0x10.
pub const MATERIAL_SIZE: usize = 68;
/// Size of a frame name.
const NAME_SIZE: usize = 16;

/// Read an HMP file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Hmp> {
    read_with(bytes, &Limits::default())
}

/// Read an HMP file (HMP4, HMP5 or HMP7).
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Hmp> {
    let mut r = ByteReader::new(F, bytes);
    let mut budget = limits.budget(F);
    let (version, header, counts) = read_header(&mut r, limits)?;
    let hmp4 = version == HmpVersion::Hmp4;
    let mut skins = Vec::new();
    for i in 0..counts.skins {
        budget.charge(size_of::<Skin>(), "skin", Location::at(r.offset()))?;
        skins.push(
            read_skin(&mut r, &header, hmp4, &mut budget)
                .map_err(|e| e.in_path(format!("skins/{i}")))?,
        );
    }
    let (tex_coords, triangles) = if hmp4 {
        (
            read_tex_coords(&mut r, &header, &mut budget)?,
            read_triangles(&mut r, &header, &mut budget)?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let mut frames = Vec::new();
    for i in 0..counts.frames {
        budget.charge(size_of::<Frame>(), "frame", Location::at(r.offset()))?;
        frames.push(
            read_frame(&mut r, version, counts.verts, &mut budget)
                .map_err(|e| e.in_path(format!("frames/{i}")))?,
        );
    }
    let rest = r.remaining();
    budget.charge(rest, "trailing bytes", Location::at(r.offset()))?;
    let trailing = r.bytes(rest, "trailing bytes")?.to_vec();
    Ok(Hmp {
        version,
        header,
        skins,
        tex_coords,
        triangles,
        frames,
        trailing,
    })
}

/// The counts the header gives that become list lengths.
struct Counts {
    skins: usize,
    frames: usize,
    verts: usize,
}

fn count(r: &ByteReader<'_>, value: i32, what: &str, at: u64, limits: &Limits) -> Result<usize> {
    let n = usize::try_from(value).map_err(|_| {
        Error::malformed(F, Location::at(at), format!("{what} is negative ({value})"))
    })?;
    if n > limits.max_count {
        return Err(r.error(
            ErrorKind::LimitExceeded,
            format!("{what} {n} is above the limit of {}", limits.max_count),
        ));
    }
    Ok(n)
}

fn read_header(r: &mut ByteReader<'_>, limits: &Limits) -> Result<(HmpVersion, Header, Counts)> {
    let version = match &r.array::<4>("HMP magic")? {
        b"HMP4" => HmpVersion::Hmp4,
        b"HMP5" => HmpVersion::Hmp5,
        b"HMP7" => HmpVersion::Hmp7,
        other => {
            return Err(Error::malformed(
                F,
                Location::at(0),
                format!("not an HMP terrain: magic {other:?}, expected HMP4, HMP5 or HMP7"),
            ));
        }
    };
    let mut h = r.sub(HEADER_SIZE.saturating_sub(4), "HMP header")?;
    let version_word = h.i32_le("version")?;
    let vec3 = |h: &mut ByteReader<'_>, what: &str| -> Result<[f32; 3]> {
        Ok([h.f32_le(what)?, h.f32_le(what)?, h.f32_le(what)?])
    };
    let scale = vec3(&mut h, "scale")?;
    let offset = vec3(&mut h, "offset")?;
    let bounding_radius = h.f32_le("bounding radius")?;
    let tri_size = [h.f32_le("triangle x size")?, h.f32_le("triangle y size")?];
    let verts_x = h.f32_le("vertices in x")?;
    let (skins_at, skins) = (h.offset(), h.i32_le("skin count")?);
    let skin_width = h.i32_le("skin width")?;
    let skin_height = h.i32_le("skin height")?;
    let (verts_at, num_verts) = (h.offset(), h.i32_le("vertex count")?);
    let num_tris = h.i32_le("triangle count")?;
    let (frames_at, frames) = (h.offset(), h.i32_le("frame count")?);
    let num_st_verts = h.i32_le("texture coordinate count")?;
    let flags = h.i32_le("flags")?;
    let size = h.f32_le("size")?;
    let counts = Counts {
        skins: count(r, skins, "skin count", skins_at, limits)?,
        frames: count(r, frames, "frame count", frames_at, limits)?,
        verts: count(r, num_verts, "vertex count", verts_at, limits)?,
    };
    let header = Header {
        version: version_word,
        scale,
        offset,
        bounding_radius,
        tri_size,
        verts_x,
        skin_width,
        skin_height,
        num_verts,
        num_tris,
        num_st_verts,
        flags,
        size,
    };
    Ok((version, header, counts))
}

fn read_skin(
    r: &mut ByteReader<'_>,
    header: &Header,
    hmp4: bool,
    budget: &mut Budget,
) -> Result<Skin> {
    let at = r.offset();
    let kind = r.u32_le("skin type")?;
    let parsed =
        skin::skin_kind(kind, hmp4).map_err(|m| Error::unsupported(F, Location::at(at), m))?;
    let (size, [width, height]) = if hmp4 {
        let dim = |v: i32, what: &str| {
            u32::try_from(v).map_err(|_| {
                Error::malformed(
                    F,
                    Location::at(at),
                    format!("header {what} is negative ({v})"),
                )
            })
        };
        (
            None,
            [
                dim(header.skin_width, "skin width")?,
                dim(header.skin_height, "skin height")?,
            ],
        )
    } else {
        let wh = [r.u32_le("skin width")?, r.u32_le("skin height")?];
        (Some(wh), wh)
    };
    let data = match parsed {
        SkinKind::Pixels { bytes, mips } => {
            let n = skin::pixel_bytes(width, height, bytes, mips).unwrap_or(u64::MAX);
            let n = r.ensure(n, 1, &format!("{width}×{height} skin pixels"))?;
            r.bytes(n, "skin pixels")?
        }
        SkinKind::Reference => &[],
        SkinKind::Dds => {
            let n = r.ensure(u64::from(width), 1, "embedded DDS skin")?;
            r.bytes(n, "embedded DDS skin")?
        }
        SkinKind::External => r.cstr("external skin file name")?,
    };
    // The pixels, the material and the effect text, each at most what the file holds.
    budget.charge(
        data.len().saturating_add(1),
        "skin pixels",
        Location::at(at),
    )?;
    let mut data = data.to_vec();
    if parsed == SkinKind::External {
        // `cstr` leaves the NUL out; it is part of the stored bytes.
        data.push(0);
    }
    let material = if kind & 0x10 != 0 {
        budget.charge(MATERIAL_SIZE, "skin material", Location::at(r.offset()))?;
        Some(r.bytes(MATERIAL_SIZE, "skin material")?.to_vec())
    } else {
        None
    };
    let effect = if kind & 0x20 != 0 {
        let len = r.u32_le("effect length")?;
        let n = r.ensure(u64::from(len), 1, "effect text")?;
        budget.charge(n, "effect text", Location::at(r.offset()))?;
        Some(r.bytes(n, "effect text")?.to_vec())
    } else {
        None
    };
    Ok(Skin {
        kind,
        size,
        data,
        material,
        effect,
    })
}

fn read_tex_coords(
    r: &mut ByteReader<'_>,
    header: &Header,
    budget: &mut Budget,
) -> Result<Vec<[i16; 2]>> {
    let n = u64::try_from(header.num_st_verts).map_err(|_| {
        r.error(
            ErrorKind::Malformed,
            format!(
                "texture coordinate count is negative ({})",
                header.num_st_verts
            ),
        )
    })?;
    let len = r.ensure(n, 4, "texture coordinates")?;
    budget.charge(len, "texture coordinates", Location::at(r.offset()))?;
    let raw = r.bytes(len, "texture coordinates")?;
    Ok(raw
        .chunks_exact(4)
        .map(|c| match *c {
            [a, b, c, d] => [i16::from_le_bytes([a, b]), i16::from_le_bytes([c, d])],
            _ => [0, 0],
        })
        .collect())
}

fn read_triangles(
    r: &mut ByteReader<'_>,
    header: &Header,
    budget: &mut Budget,
) -> Result<Vec<Triangle>> {
    let n = u64::try_from(header.num_tris).map_err(|_| {
        r.error(
            ErrorKind::Malformed,
            format!("triangle count is negative ({})", header.num_tris),
        )
    })?;
    let len = r.ensure(n, 12, "triangles")?;
    budget.charge(len, "triangles", Location::at(r.offset()))?;
    let raw = r.bytes(len, "triangles")?;
    Ok(raw
        .chunks_exact(12)
        .map(|c| {
            let mut w = c.chunks_exact(2).map(|p| {
                u16::from_le_bytes([
                    p.first().copied().unwrap_or(0),
                    p.get(1).copied().unwrap_or(0),
                ])
            });
            let mut next = || w.next().unwrap_or(0);
            Triangle {
                vertices: [next(), next(), next()],
                tex_coords: [next(), next(), next()],
            }
        })
        .collect())
}

fn read_frame(
    r: &mut ByteReader<'_>,
    version: HmpVersion,
    verts: usize,
    budget: &mut Budget,
) -> Result<Frame> {
    let at = r.offset();
    let kind = r.u32_le("frame type")?;
    if version == HmpVersion::Hmp4 && kind != 0 && kind != 2 {
        return Err(Error::unsupported(
            F,
            Location::at(at),
            format!(
                "frame type {kind} is not supported; HMP4 frames are type 0 (byte-packed) or \
                 2 (word-packed)"
            ),
        ));
    }
    let bbox = version.bbox_size(kind);
    let bbox_min = r.bytes(bbox, "frame bounding box")?.to_vec();
    let bbox_max = r.bytes(bbox, "frame bounding box")?.to_vec();
    let name = r.array::<NAME_SIZE>("frame name")?;
    let words = version.words(kind);
    let size = if words { 8 } else { 4 };
    let len = r.ensure(verts as u64, size, "frame vertices")?;
    budget.charge(
        len.saturating_add(bbox.saturating_mul(2)),
        "frame vertices",
        Location::at(r.offset()),
    )?;
    let raw = r.bytes(len, "frame vertices")?;
    let (mut vertices, mut word_vertices) = (Vec::new(), Vec::new());
    if words {
        word_vertices = raw
            .chunks_exact(8)
            .map(|c| <[u8; 8]>::try_from(c).unwrap_or_default())
            .collect();
    } else {
        vertices = raw
            .chunks_exact(4)
            .map(|c| <[u8; 4]>::try_from(c).unwrap_or_default())
            .collect();
    }
    Ok(Frame {
        kind,
        bbox_min,
        bbox_max,
        name,
        vertices,
        word_vertices,
    })
}
