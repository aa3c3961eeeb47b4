//! MDL reader. Mirrors `write.rs` function by function.
//!
//! Every list is checked against the bytes that remain before it is allocated (its declared
//! count times its record size, in u64), and every count against [`Limits::max_count`], so a
//! header that claims gigabytes is refused before anything is allocated.

#![deny(clippy::arithmetic_side_effects)]

use std::mem::size_of;

use super::layout::{self, CLASSIC_HEADER, GROUP_HEADER, MDL7_HEADER, SKIN7_HEADER};
use super::model::*;
use crate::error::{Error, ErrorKind, Result};
use crate::io::ByteReader;
use crate::limits::{Budget, Limits};
use crate::registry::Format;

const F: Format = Format::Mdl;

/// Read an MDL file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Mdl> {
    read_with(bytes, &Limits::default())
}

/// Read an MDL file (any version), refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Mdl> {
    let mut r = ByteReader::new(F, bytes);
    let mut budget = limits.budget(F);
    let magic: [u8; 4] = r.array("magic")?;
    let version = match &magic {
        b"IDPO" => ClassicVersion::Idpo,
        b"MDL2" => ClassicVersion::Mdl2,
        b"MDL3" => ClassicVersion::Mdl3,
        b"MDL4" => ClassicVersion::Mdl4,
        b"MDL5" => ClassicVersion::Mdl5,
        b"MDL7" => return read_mdl7(&mut r, &mut budget).map(Mdl::Mdl7),
        _ => {
            return Err(Error::new(
                F,
                ErrorKind::Malformed,
                crate::error::Location::at(0),
                format!(
                    "the file starts with {:?}, not IDPO or MDL2–MDL7",
                    String::from_utf8_lossy(&magic)
                ),
            ));
        }
    };
    read_classic(&mut r, version, &mut budget).map(Mdl::Classic)
}

/// A declared count as a length: negative counts are malformed, counts over the limit refused,
/// and `count * size` bytes must remain.
fn count(r: &ByteReader<'_>, budget: &Budget, n: i64, size: u64, what: &str) -> Result<usize> {
    let Ok(n) = u64::try_from(n) else {
        return Err(r.error(
            ErrorKind::Malformed,
            format!("{what} count {n} is negative"),
        ));
    };
    let n = budget.count(n, what, crate::error::Location::at(r.offset()))?;
    r.ensure(n as u64, size, what)?;
    Ok(n)
}

/// `n` declared records of `size` bytes each, read by `item`: the count is checked against
/// the limits and the bytes left ([`count`]) and the list's memory charged ([`charge`]) before
/// anything is allocated. `what` names one record, `list` the whole list.
fn records<'a, T>(
    r: &mut ByteReader<'a>,
    budget: &mut Budget,
    n: i64,
    size: u64,
    what: &str,
    list: &str,
    mut item: impl FnMut(&mut ByteReader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let n = count(r, budget, n, size, what)?;
    charge::<T>(r, budget, n, list)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(item(r)?);
    }
    Ok(out)
}

/// Charge the memory of `n` items of `T`.
fn charge<T>(r: &ByteReader<'_>, budget: &mut Budget, n: usize, what: &str) -> Result<()> {
    budget.charge(
        n.saturating_mul(size_of::<T>()),
        what,
        crate::error::Location::at(r.offset()),
    )
}

fn f32x3(r: &mut ByteReader<'_>, what: &str) -> Result<[f32; 3]> {
    Ok([r.f32_le(what)?, r.f32_le(what)?, r.f32_le(what)?])
}

// ---- classic ---------------------------------------------------------------------------------

/// The counts of the classic header.
struct ClassicCounts {
    skins: i32,
    tris: i32,
    frames: i32,
}

fn read_classic(
    r: &mut ByteReader<'_>,
    version: ClassicVersion,
    budget: &mut Budget,
) -> Result<Classic> {
    let (header, counts) = read_classic_header(r)?;
    let n_skins = count(r, budget, counts.skins.into(), 4, "skin")?;
    let mut skins = Vec::with_capacity(n_skins);
    for i in 0..n_skins {
        let skin =
            read_skin(r, version, &header, budget).map_err(|e| e.in_path(format!("skins[{i}]")))?;
        skins.push(skin);
    }
    let texcoords = read_texcoords(r, version, &header, budget)?;
    let mut header = header;
    if !version.quake_layout() {
        // The word was the skin vertex count, which the list now holds.
        header.sync_type = 0;
    }
    let triangles = read_triangles(r, version, counts.tris, budget)?;
    let n_frames = count(r, budget, counts.frames.into(), 4, "frame")?;
    let mut frames = Vec::with_capacity(n_frames);
    for i in 0..n_frames {
        let frame = read_frame(r, version, header.num_verts, budget)
            .map_err(|e| e.in_path(format!("frames[{i}]")))?;
        frames.push(frame);
    }
    let trailer = r.bytes(r.remaining(), "trailer")?.to_vec();
    Ok(Classic {
        version,
        header,
        skins,
        texcoords,
        triangles,
        frames,
        trailer,
    })
}

fn read_classic_header(r: &mut ByteReader<'_>) -> Result<(ClassicHeader, ClassicCounts)> {
    r.ensure(1, (CLASSIC_HEADER as u64).saturating_sub(4), "header")?;
    let version = r.i32_le("version")?;
    let scale = f32x3(r, "scale")?;
    let translate = f32x3(r, "translate")?;
    let radius = r.f32_le("bounding radius")?;
    let eye = f32x3(r, "eye position")?;
    let skins = r.i32_le("skin count")?;
    let skin_width = r.i32_le("skin width")?;
    let skin_height = r.i32_le("skin height")?;
    let verts = r.i32_le("vertex count")?;
    let tris = r.i32_le("triangle count")?;
    let frames = r.i32_le("frame count")?;
    let sync_type = r.i32_le("sync type")?;
    let flags = r.i32_le("flags")?;
    let size = r.u32_le("size")?;
    let Ok(num_verts) = u32::try_from(verts) else {
        return Err(r.error(
            ErrorKind::Malformed,
            format!("vertex count {verts} is negative"),
        ));
    };
    Ok((
        ClassicHeader {
            version,
            scale,
            translate,
            radius,
            eye,
            skin_width,
            skin_height,
            num_verts,
            sync_type,
            flags,
            size,
        },
        ClassicCounts {
            skins,
            tris,
            frames,
        },
    ))
}

fn read_skin(
    r: &mut ByteReader<'_>,
    version: ClassicVersion,
    header: &ClassicHeader,
    budget: &mut Budget,
) -> Result<Skin> {
    let kind = r.u32_le("skin type")?;
    let (w, h) = (
        u64::try_from(header.skin_width).unwrap_or(0),
        u64::try_from(header.skin_height).unwrap_or(0),
    );
    if kind == 1 && version.quake_layout() {
        let n = count(
            r,
            budget,
            r.clone().i32_le("picture count")?.into(),
            4,
            "picture",
        )?;
        r.i32_le("picture count")?;
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            times.push(r.f32_le("picture time")?);
        }
        let bytes = w.saturating_mul(h);
        let len = r.ensure(n as u64, bytes, "skin pictures")?;
        budget.charge(len, "skin pictures", crate::error::Location::at(r.offset()))?;
        let mut pictures = Vec::with_capacity(n);
        for _ in 0..n {
            let size = usize::try_from(bytes).unwrap_or(usize::MAX);
            pictures.push(r.bytes(size, "skin picture")?.to_vec());
        }
        return Ok(Skin::Group { times, pictures });
    }
    let size = if version == ClassicVersion::Mdl5 {
        Some([r.u32_le("skin width")?, r.u32_le("skin height")?])
    } else {
        None
    };
    let (w, h) = match size {
        Some([sw, sh]) => (u64::from(sw), u64::from(sh)),
        None => (w, h),
    };
    let (full, small) = if kind & 7 == 6 && version == ClassicVersion::Mdl5 {
        (w, 0)
    } else {
        let Some(bpp) = layout::bytes_per_pixel(kind) else {
            return Err(r.error(
                ErrorKind::Unsupported,
                format!("skin type {kind} is not a picture type this version has (0, 2–5)"),
            ));
        };
        layout::picture_bytes(w, h, bpp, kind & layout::SKIN_MIPS != 0).unwrap_or((u64::MAX, 0))
    };
    let full = r.ensure(1, full, "skin picture")?;
    budget.charge(full, "skin picture", crate::error::Location::at(r.offset()))?;
    let pixels = r.bytes(full, "skin picture")?.to_vec();
    let small = r.ensure(1, small, "skin mip levels")?;
    budget.charge(
        small,
        "skin mip levels",
        crate::error::Location::at(r.offset()),
    )?;
    let mips = r.bytes(small, "skin mip levels")?.to_vec();
    Ok(Skin::Single {
        kind,
        size,
        pixels,
        mips,
    })
}

fn read_texcoords(
    r: &mut ByteReader<'_>,
    version: ClassicVersion,
    header: &ClassicHeader,
    budget: &mut Budget,
) -> Result<TexCoords> {
    if version.quake_layout() {
        let out = records::<QuakeTexCoord>(
            r,
            budget,
            header.num_verts.into(),
            12,
            "texture coordinate",
            "texture coordinates",
            |r| {
                Ok(QuakeTexCoord {
                    on_seam: r.i32_le("on-seam flag")?,
                    s: r.i32_le("s")?,
                    t: r.i32_le("t")?,
                })
            },
        )?;
        Ok(TexCoords::Quake(out))
    } else {
        let out = records::<[i16; 2]>(
            r,
            budget,
            header.sync_type.into(),
            4,
            "skin vertex",
            "skin vertices",
            |r| {
                let u = i16::from_le_bytes(r.array("u")?);
                let v = i16::from_le_bytes(r.array("v")?);
                Ok([u, v])
            },
        )?;
        Ok(TexCoords::Skin(out))
    }
}

fn read_triangles(
    r: &mut ByteReader<'_>,
    version: ClassicVersion,
    n: i32,
    budget: &mut Budget,
) -> Result<Triangles> {
    if version.quake_layout() {
        let out =
            records::<QuakeTriangle>(r, budget, n.into(), 16, "triangle", "triangles", |r| {
                Ok(QuakeTriangle {
                    faces_front: r.i32_le("faces-front flag")?,
                    vertices: [
                        r.i32_le("vertex")?,
                        r.i32_le("vertex")?,
                        r.i32_le("vertex")?,
                    ],
                })
            })?;
        Ok(Triangles::Quake(out))
    } else {
        let out = records::<SkinTriangle>(r, budget, n.into(), 12, "triangle", "triangles", |r| {
            Ok(SkinTriangle {
                vertices: [
                    r.u16_le("vertex")?,
                    r.u16_le("vertex")?,
                    r.u16_le("vertex")?,
                ],
                uvs: [r.u16_le("uv")?, r.u16_le("uv")?, r.u16_le("uv")?],
            })
        })?;
        Ok(Triangles::Skin(out))
    }
}

/// Whether a frame of type `kind` has 16-bit coordinates (MDL4 and MDL5 with a non-zero type;
/// assimp's rule, which the corpus's MDL4 and MDL5 files, type 2, confirm).
pub(super) fn frame_words(version: ClassicVersion, kind: u32) -> bool {
    matches!(version, ClassicVersion::Mdl4 | ClassicVersion::Mdl5) && kind != 0
}

fn read_frame(
    r: &mut ByteReader<'_>,
    version: ClassicVersion,
    num_verts: u32,
    budget: &mut Budget,
) -> Result<Frame> {
    let kind = r.u32_le("frame type")?;
    if kind != 0 && version.quake_layout() {
        let n = count(r, budget, r.clone().i32_le("pose count")?.into(), 4, "pose")?;
        r.i32_le("pose count")?;
        let min = read_packed(r, false)?;
        let max = read_packed(r, false)?;
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            times.push(r.f32_le("pose time")?);
        }
        let pose_size = u64::from(num_verts).saturating_mul(4).saturating_add(24);
        r.ensure(n as u64, pose_size, "poses")?;
        let mut poses = Vec::with_capacity(n);
        for i in 0..n {
            poses.push(
                read_pose(r, num_verts, false, budget)
                    .map_err(|e| e.in_path(format!("poses[{i}]")))?,
            );
        }
        return Ok(Frame::Group {
            kind,
            min,
            max,
            times,
            poses,
        });
    }
    let pose = read_pose(r, num_verts, frame_words(version, kind), budget)?;
    Ok(Frame::Single { kind, pose })
}

fn read_pose(
    r: &mut ByteReader<'_>,
    num_verts: u32,
    words: bool,
    budget: &mut Budget,
) -> Result<Pose> {
    let min = read_packed(r, words)?;
    let max = read_packed(r, words)?;
    let name = r.array("frame name")?;
    let size = layout::packed_vertex_size(words) as u64;
    let n = count(r, budget, num_verts.into(), size, "frame vertex")?;
    charge::<PackedVertex>(r, budget, n, "frame vertices")?;
    let bytes = r.bytes(n.saturating_mul(size as usize), "frame vertices")?;
    let vertices = if words {
        bytes
            .chunks_exact(8)
            .map(|c| match *c {
                [x0, x1, y0, y1, z0, z1, normal, pad] => PackedVertex {
                    position: [
                        u16::from_le_bytes([x0, x1]),
                        u16::from_le_bytes([y0, y1]),
                        u16::from_le_bytes([z0, z1]),
                    ],
                    normal,
                    pad,
                },
                _ => PackedVertex::default(),
            })
            .collect()
    } else {
        bytes
            .chunks_exact(4)
            .map(|c| match *c {
                [x, y, z, normal] => PackedVertex {
                    position: [x.into(), y.into(), z.into()],
                    normal,
                    pad: 0,
                },
                _ => PackedVertex::default(),
            })
            .collect()
    };
    Ok(Pose {
        min,
        max,
        name,
        vertices,
    })
}

fn read_packed(r: &mut ByteReader<'_>, words: bool) -> Result<PackedVertex> {
    if words {
        Ok(PackedVertex {
            position: [r.u16_le("x")?, r.u16_le("y")?, r.u16_le("z")?],
            normal: r.u8("normal index")?,
            pad: r.u8("pad")?,
        })
    } else {
        Ok(PackedVertex {
            position: [r.u8("x")?.into(), r.u8("y")?.into(), r.u8("z")?.into()],
            normal: r.u8("normal index")?,
            pad: 0,
        })
    }
}

// ---- MDL7 ------------------------------------------------------------------------------------

fn read_mdl7(r: &mut ByteReader<'_>, budget: &mut Budget) -> Result<Mdl7> {
    r.ensure(1, (MDL7_HEADER as u64).saturating_sub(4), "header")?;
    let version = r.i32_le("version")?;
    let n_bones = r.u32_le("bone count")?;
    let n_groups = r.u32_le("group count")?;
    let data_size = r.u32_le("data size")?;
    let entlump_size = r.i32_le("entity lump size")?;
    let medlump_size = r.i32_le("MED lump size")?;
    let sizes = StructSizes {
        bone: r.u16_le("bone size")?,
        skin: r.u16_le("skin size")?,
        color: r.u16_le("colour size")?,
        material: r.u16_le("material size")?,
        skin_point: r.u16_le("skin point size")?,
        triangle: r.u16_le("triangle size")?,
        main_vertex: r.u16_le("main vertex size")?,
        frame_vertex: r.u16_le("frame vertex size")?,
        bone_transform: r.u16_le("bone transform size")?,
        frame: r.u16_le("frame size")?,
    };
    check_sizes(r, &sizes)?;
    let bones = records::<Bone>(
        r,
        budget,
        n_bones.into(),
        sizes.bone.into(),
        "bone",
        "bones",
        |r| read_bone(r, &sizes),
    )?;
    let n = count(r, budget, n_groups.into(), GROUP_HEADER as u64, "group")?;
    let mut groups = Vec::with_capacity(n);
    let mut deformer_counts = Vec::with_capacity(n);
    for i in 0..n {
        let (group, deformers) =
            read_group(r, &sizes, budget).map_err(|e| e.in_path(format!("groups[{i}]")))?;
        groups.push(group);
        deformer_counts.push(deformers);
    }
    // The deformers of every group follow the last group, in group order (each names its
    // group): MED writes them there, and a group's header counts them.
    for (i, (group, n_deformers)) in groups.iter_mut().zip(deformer_counts).enumerate() {
        let n = count(
            r,
            budget,
            n_deformers.into(),
            layout::DEFORMER_HEADER as u64,
            "deformer",
        )?;
        group.deformers.reserve_exact(n);
        for k in 0..n {
            group.deformers.push(
                read_deformer(r, budget)
                    .map_err(|e| e.in_path(format!("groups[{i}].deformers[{k}]")))?,
            );
        }
    }
    let trailer = r.bytes(r.remaining(), "trailer")?.to_vec();
    Ok(Mdl7 {
        header: Mdl7Header {
            version,
            data_size,
            entlump_size,
            medlump_size,
            sizes,
        },
        bones,
        groups,
        trailer,
    })
}

/// Refuse record sizes this reader does not know the layout of.
fn check_sizes(r: &ByteReader<'_>, s: &StructSizes) -> Result<()> {
    let fixed = [
        ("skin", s.skin, SKIN7_HEADER as u16),
        ("colour", s.color, layout::COLOR7),
        ("material", s.material, layout::MATERIAL7),
        ("skin point", s.skin_point, layout::SKIN_POINT7),
        ("bone transform", s.bone_transform, layout::BONE_TRANSFORM7),
        ("frame", s.frame, layout::FRAME7),
    ];
    for (what, got, want) in fixed {
        if got != want {
            return Err(r.error(
                ErrorKind::Unsupported,
                format!("{what} records of {got} bytes are not supported (MED writes {want})"),
            ));
        }
    }
    if s.bone < 16 {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!("bone records of {} bytes are shorter than 16", s.bone),
        ));
    }
    if !matches!(s.triangle, 12 | 16 | 26 | 44) {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!(
                "triangle records of {} bytes are not supported (12, 16, 26, 44)",
                s.triangle
            ),
        ));
    }
    if !matches!(s.main_vertex, 16 | 26) {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!(
                "main vertex records of {} bytes are not supported (16, 26)",
                s.main_vertex
            ),
        ));
    }
    // MED's large models (44-byte triangles) declare 28-byte frame vertices; none of the
    // real ones has a frame vertex, so their layout is unknown: such a frame is refused
    // where it is read.
    if !matches!(s.frame_vertex, 16 | 26 | 28) {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!(
                "frame vertex records of {} bytes are not supported (16, 26, 28)",
                s.frame_vertex
            ),
        ));
    }
    Ok(())
}

fn read_bone(r: &mut ByteReader<'_>, sizes: &StructSizes) -> Result<Bone> {
    Ok(Bone {
        parent: r.u16_le("bone parent")?,
        pad: r.u16_le("bone pad")?,
        position: f32x3(r, "bone position")?,
        name: r
            .bytes(usize::from(sizes.bone).saturating_sub(16), "bone name")?
            .to_vec(),
    })
}

/// A group without its deformers (they follow the last group), and how many it has.
fn read_group(
    r: &mut ByteReader<'_>,
    sizes: &StructSizes,
    budget: &mut Budget,
) -> Result<(Group, u8)> {
    let kind = r.u8("group type")?;
    let n_deformers = r.u8("deformer count")?;
    let max_weights = r.u8("max weights")?;
    let unused = r.u8("unused")?;
    let data_size = r.i32_le("group data size")?;
    let name = r.array("group name")?;
    let n_skins = r.i32_le("skin count")?;
    let n_uvs = r.i32_le("uv count")?;
    let n_tris = r.i32_le("triangle count")?;
    let n_verts = r.i32_le("vertex count")?;
    let n_frames = r.i32_le("frame count")?;

    let n = count(r, budget, n_skins.into(), SKIN7_HEADER as u64, "skin")?;
    charge::<Skin7>(r, budget, n, "skins")?;
    let mut skins = Vec::with_capacity(n);
    for i in 0..n {
        skins.push(read_skin7(r, budget).map_err(|e| e.in_path(format!("skins[{i}]")))?);
    }

    let uvs = records::<[f32; 2]>(
        r,
        budget,
        n_uvs.into(),
        sizes.skin_point.into(),
        "uv",
        "uvs",
        |r| Ok([r.f32_le("u")?, r.f32_le("v")?]),
    )?;

    let triangles = records::<Triangle7>(
        r,
        budget,
        n_tris.into(),
        sizes.triangle.into(),
        "triangle",
        "triangles",
        |r| read_triangle7(r, sizes.triangle),
    )?;

    let vertices = records::<Vertex7>(
        r,
        budget,
        n_verts.into(),
        sizes.main_vertex.into(),
        "vertex",
        "vertices",
        |r| read_vertex7(r, sizes.main_vertex),
    )?;

    let n = count(r, budget, n_frames.into(), sizes.frame.into(), "frame")?;
    let mut frames = Vec::with_capacity(n);
    for i in 0..n {
        frames.push(read_frame7(r, sizes, budget).map_err(|e| e.in_path(format!("frames[{i}]")))?);
    }

    Ok((
        Group {
            kind,
            max_weights,
            unused,
            data_size,
            name,
            skins,
            uvs,
            triangles,
            vertices,
            frames,
            deformers: Vec::new(),
        },
        n_deformers,
    ))
}

fn read_skin7(r: &mut ByteReader<'_>, budget: &mut Budget) -> Result<Skin7> {
    let kind = r.u8("skin type")?;
    let unused = r.array("skin unused")?;
    let width = r.i32_le("skin width")?;
    let height = r.i32_le("skin height")?;
    let name = r.array("skin name")?;
    let w = u64::try_from(width).unwrap_or(0);
    let h = u64::try_from(height).unwrap_or(0);
    let data = match kind & 7 {
        1 => SkinData::None,
        6 | 7 => {
            let n = r.ensure(1, w, "skin file")?;
            budget.charge(n, "skin file", crate::error::Location::at(r.offset()))?;
            let bytes = r.bytes(n, "skin file")?.to_vec();
            if kind & 7 == 6 {
                SkinData::Dds(bytes)
            } else {
                SkinData::External(bytes)
            }
        }
        format => {
            let Some(bpp) = layout::bytes_per_pixel(format.into()) else {
                return Err(r.error(
                    ErrorKind::Unsupported,
                    format!("skin type 0x{kind:02x} has no known pixel format"),
                ));
            };
            if w == 0 || h == 0 {
                SkinData::None
            } else {
                let mips = u32::from(kind) & layout::SKIN_MIPS != 0;
                let (full, small) = layout::picture_bytes(w, h, bpp, mips).unwrap_or((u64::MAX, 0));
                let full = r.ensure(1, full, "skin picture")?;
                budget.charge(full, "skin picture", crate::error::Location::at(r.offset()))?;
                let pixels = r.bytes(full, "skin picture")?.to_vec();
                let small = r.ensure(1, small, "skin mip levels")?;
                budget.charge(
                    small,
                    "skin mip levels",
                    crate::error::Location::at(r.offset()),
                )?;
                let mips = r.bytes(small, "skin mip levels")?.to_vec();
                SkinData::Pixels { pixels, mips }
            }
        }
    };
    let material = if kind & layout::SKIN_MATERIAL != 0 {
        let mut color = || -> Result<[f32; 4]> {
            Ok([
                r.f32_le("colour")?,
                r.f32_le("colour")?,
                r.f32_le("colour")?,
                r.f32_le("colour")?,
            ])
        };
        Some(Material7 {
            diffuse: color()?,
            ambient: color()?,
            specular: color()?,
            emissive: color()?,
            power: r.f32_le("specular power")?,
        })
    } else {
        None
    };
    let effect = if kind & layout::SKIN_EFFECT != 0 {
        let n = count(
            r,
            &*budget,
            r.clone().i32_le("effect length")?.into(),
            1,
            "effect byte",
        )?;
        r.i32_le("effect length")?;
        budget.charge(n, "effect", crate::error::Location::at(r.offset()))?;
        Some(r.bytes(n, "effect")?.to_vec())
    } else {
        None
    };
    Ok(Skin7 {
        kind,
        unused,
        width,
        height,
        name,
        data,
        material,
        effect,
    })
}

fn read_triangle7(r: &mut ByteReader<'_>, size: u16) -> Result<Triangle7> {
    if size == 44 {
        // MED's large models: every index 32 bits, both UV sets.
        let mut three = |what: &'static str| -> Result<[u32; 3]> {
            Ok([r.u32_le(what)?, r.u32_le(what)?, r.u32_le(what)?])
        };
        let vertices = three("vertex")?;
        let uvs = three("uv")?;
        let material = r.u32_le("material")?;
        let uvs2 = [r.u32_le("uv")?, r.u32_le("uv")?, r.u32_le("uv")?];
        let material2 = r.u32_le("material")?;
        return Ok(Triangle7 {
            vertices,
            uvs,
            material,
            uvs2,
            material2,
        });
    }
    let mut t = Triangle7 {
        vertices: [
            r.u16_le("vertex")?.into(),
            r.u16_le("vertex")?.into(),
            r.u16_le("vertex")?.into(),
        ],
        uvs: [
            r.u16_le("uv")?.into(),
            r.u16_le("uv")?.into(),
            r.u16_le("uv")?.into(),
        ],
        ..Triangle7::default()
    };
    if size >= 16 {
        t.material = r.u32_le("material")?;
    }
    if size >= 26 {
        t.uvs2 = [
            r.u16_le("uv")?.into(),
            r.u16_le("uv")?.into(),
            r.u16_le("uv")?.into(),
        ];
        t.material2 = r.u32_le("material")?;
    }
    Ok(t)
}

fn read_vertex7(r: &mut ByteReader<'_>, size: u16) -> Result<Vertex7> {
    let position = f32x3(r, "vertex position")?;
    let index = r.u16_le("vertex index")?;
    let normal = if size >= 26 {
        Normal7::Vector(f32x3(r, "vertex normal")?)
    } else {
        Normal7::Index {
            index: r.u8("normal index")?,
            pad: r.u8("normal pad")?,
        }
    };
    Ok(Vertex7 {
        position,
        index,
        normal,
    })
}

fn read_frame7(r: &mut ByteReader<'_>, sizes: &StructSizes, budget: &mut Budget) -> Result<Frame7> {
    let name = r.array("frame name")?;
    let n_verts = r.u32_le("frame vertex count")?;
    let n_mats = r.u32_le("frame matrix count")?;
    if sizes.frame_vertex == 28 && n_verts > 0 {
        return Err(r.error(
            ErrorKind::Unsupported,
            "28-byte frame vertices (MED's large models) are not supported: no real file \
             with one was seen to learn their layout",
        ));
    }
    let vertices = records::<Vertex7>(
        r,
        budget,
        n_verts.into(),
        sizes.frame_vertex.into(),
        "frame vertex",
        "frame vertices",
        |r| read_vertex7(r, sizes.frame_vertex),
    )?;
    let n = count(
        r,
        budget,
        n_mats.into(),
        sizes.bone_transform.into(),
        "bone transform",
    )?;
    charge::<BoneTransform>(r, budget, n, "bone transforms")?;
    let mut transforms = Vec::with_capacity(n);
    for _ in 0..n {
        let mut matrix = [0f32; 16];
        for m in &mut matrix {
            *m = r.f32_le("matrix")?;
        }
        transforms.push(BoneTransform {
            matrix,
            bone: r.u16_le("bone index")?,
            pad: r.array("bone transform pad")?,
        });
    }
    Ok(Frame7 {
        name,
        vertices,
        transforms,
    })
}

fn read_deformer(r: &mut ByteReader<'_>, budget: &mut Budget) -> Result<Deformer> {
    let version = r.u8("deformer version")?;
    let kind = r.u8("deformer type")?;
    let unused = r.array("deformer unused")?;
    let group = r.i32_le("deformer group")?;
    let n_elements = r.i32_le("element count")?;
    let data_size = r.i32_le("deformer data size")?;
    let n = count(
        r,
        budget,
        n_elements.into(),
        layout::ELEMENT_HEADER as u64,
        "element",
    )?;
    charge::<DeformerElement>(r, budget, n, "elements")?;
    let mut elements = Vec::with_capacity(n);
    for _ in 0..n {
        let index = r.i32_le("element index")?;
        let name = r.array("element name")?;
        let n_weights = r.i32_le("weight count")?;
        let w = count(r, budget, n_weights.into(), 8, "weight")?;
        charge::<(i32, f32)>(r, budget, w, "weights")?;
        let mut weights = Vec::with_capacity(w);
        for _ in 0..w {
            weights.push((r.i32_le("weight vertex")?, r.f32_le("weight")?));
        }
        elements.push(DeformerElement {
            index,
            name,
            weights,
        });
    }
    Ok(Deformer {
        version,
        kind,
        unused,
        group,
        data_size,
        elements,
    })
}
