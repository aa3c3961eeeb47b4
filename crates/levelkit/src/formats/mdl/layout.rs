//! What the reader and the writer both need to know about the layout: header sizes, bytes per
//! pixel of each skin type, the size of the mip levels, the record sizes this crate supports.

/// Size of the classic header (IDPO, MDL2–5).
pub const CLASSIC_HEADER: usize = 84;
/// Size of the MDL7 header.
pub const MDL7_HEADER: usize = 48;
/// Size of an MDL7 group header.
pub const GROUP_HEADER: usize = 44;
/// Size of an MDL7 skin header.
pub const SKIN7_HEADER: usize = 28;
/// Size of an MDL7 colour.
pub const COLOR7: u16 = 16;
/// Size of an MDL7 material (four colours and a float).
pub const MATERIAL7: u16 = 68;
/// Size of an MDL7 UV.
pub const SKIN_POINT7: u16 = 8;
/// Size of an MDL7 bone matrix record.
pub const BONE_TRANSFORM7: u16 = 68;
/// Size of an MDL7 frame header.
pub const FRAME7: u16 = 24;
/// Size of an MDL7 deformer header.
pub const DEFORMER_HEADER: usize = 16;
/// Size of a deformer element header (index, 20-byte name, weight count).
pub const ELEMENT_HEADER: usize = 28;
/// MDL7 skin type flag: mip levels follow the picture.
pub const SKIN_MIPS: u32 = 0x08;
/// MDL7 skin type flag: a material follows.
pub const SKIN_MATERIAL: u8 = 0x10;
/// MDL7 skin type flag: an ASCII effect definition follows.
pub const SKIN_EFFECT: u8 = 0x20;

/// Bytes per pixel of a skin type's pixel format (its low three bits), `None` for the types
/// that are not pixels (1 reference or group, 6 DDS, 7 external).
pub fn bytes_per_pixel(kind: u32) -> Option<u64> {
    match kind & 7 {
        0 => Some(1),
        2 | 3 => Some(2),
        4 => Some(3),
        5 => Some(4),
        _ => None,
    }
}

/// Bytes of a picture of `width x height` pixels of `bpp` bytes, and of its three mip levels
/// (half, quarter and eighth size, rounded down) when `mips`.
pub fn picture_bytes(width: u64, height: u64, bpp: u64, mips: bool) -> Option<(u64, u64)> {
    let full = width.checked_mul(height)?.checked_mul(bpp)?;
    let mut small = 0u64;
    if mips {
        for shift in 1..=3u32 {
            let level = (width >> shift)
                .checked_mul(height >> shift)?
                .checked_mul(bpp)?;
            small = small.checked_add(level)?;
        }
    }
    Some((full, small))
}

/// Bytes of a packed vertex: 4 for byte frames, 8 for 16-bit frames.
pub fn packed_vertex_size(words: bool) -> usize {
    if words { 8 } else { 4 }
}
