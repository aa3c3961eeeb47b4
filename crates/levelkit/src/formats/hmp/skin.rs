//! HMP skins: how many bytes a skin type stores and how its pixels decode to RGBA.
//!
//! This mirrors the skin types of Gamestudio's MDL (assimp `MDLMaterialLoader.cpp`,
//! `ParseTextureColorData` and `ParseSkinLump_3DGS_MDL7`; `MDLFileData.h`), which HMP shares; it
//! is written here on its own so the HMP reader does not wait for `formats/mdl/`, and is meant to
//! be shared with it after the merge.
//!
//! The low nibble of the type word is the pixel format; bit 3 (0x08) adds three mip levels of a
//! quarter, a sixteenth and a 64th of the pixels:
//!
//! | nibble | stored as |
//! |---|---|
//! | 0, 8 | 8-bit palette indices (the palette is outside the file); 8 (with mips) is not in assimp's MDL list but is the type of the corpus WAD7's 8-bit texture, which has exactly those mip levels |
//! | 1 | a reference to another skin (its number in the width word; HMP5/7), no data; in HMP4 a skin group, not supported |
//! | 2, 10 | R5G6B5, u16 little-endian |
//! | 3, 11 | A4R4G4B4, u16 little-endian |
//! | 4, 12 | B, G, R bytes |
//! | 5, 13 | B, G, R, A bytes |
//! | 6 | an embedded DDS file of `width` bytes (HMP5/7) |
//! | 7 | an external file name, NUL-terminated (HMP5/7) |

/// What a skin's type word says its data is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkinKind {
    /// Pixels of `bytes` bytes each, with mip levels when `mips`.
    Pixels {
        /// Bytes per pixel: 1, 2, 3 or 4.
        bytes: u8,
        /// Three mip levels follow the full image.
        mips: bool,
    },
    /// A reference to another skin; no data.
    Reference,
    /// An embedded DDS file of `width` bytes.
    Dds,
    /// An external file name ending with a NUL.
    External,
}

/// The kind of skin `kind` (the type word) is, or why it is not supported. `hmp4` selects the
/// MDL4-style rules (no references, DDS or external names; type 1 is a skin group).
pub fn skin_kind(kind: u32, hmp4: bool) -> Result<SkinKind, String> {
    let nibble = kind & 0xF;
    let mips = nibble & 8 != 0;
    let pixels = |bytes| Ok(SkinKind::Pixels { bytes, mips });
    match (nibble & 7, hmp4) {
        (0, _) => pixels(1),
        (2 | 3, _) => pixels(2),
        (4, _) => pixels(3),
        (5, _) => pixels(4),
        (1, true) => Err(format!("skin type {kind} (a skin group) is not supported")),
        (1, false) if !mips => Ok(SkinKind::Reference),
        (6, false) if !mips => Ok(SkinKind::Dds),
        (7, false) if !mips => Ok(SkinKind::External),
        _ => Err(format!("skin type {kind} is not a known skin type")),
    }
}

/// Bytes of pixel data (mip levels included) of a `width × height` skin with `bytes` bytes per
/// pixel; `None` on overflow.
pub fn pixel_bytes(width: u32, height: u32, bytes: u8, mips: bool) -> Option<u64> {
    let n = u64::from(width).checked_mul(u64::from(height))?;
    let levels = if mips {
        n.checked_add(n >> 2)?
            .checked_add(n >> 4)?
            .checked_add(n >> 6)?
    } else {
        n
    };
    levels.checked_mul(u64::from(bytes))
}

/// The top-level pixels of a pixel skin as RGBA, rows top-down. 8-bit skins use `palette` (768
/// bytes RGB) or, without one, a grey ramp of their indices. `None` when the skin has no pixels
/// or `data` is shorter than the image.
pub fn decode_rgba(
    kind: SkinKind,
    width: u32,
    height: u32,
    data: &[u8],
    palette: Option<&[u8]>,
    type_word: u32,
) -> Option<Vec<u8>> {
    let SkinKind::Pixels { bytes, .. } = kind else {
        return None;
    };
    let n = usize::try_from(u64::from(width).checked_mul(u64::from(height))?).ok()?;
    let size = n.checked_mul(usize::from(bytes))?;
    let pixels = data.get(..size)?;
    let mut rgba = Vec::with_capacity(n.checked_mul(4)?);
    let argb4444 = type_word & 7 == 3;
    for px in pixels.chunks_exact(usize::from(bytes)) {
        let out: [u8; 4] = match *px {
            [i] => match palette.and_then(|p| p.get(usize::from(i) * 3..usize::from(i) * 3 + 3)) {
                Some(&[r, g, b]) => [r, g, b, 255],
                _ => [i, i, i, 255],
            },
            [lo, hi] => {
                let v = u16::from_le_bytes([lo, hi]);
                if argb4444 {
                    let c = |s: u16| ((v >> s) & 0xF) as u8 * 17;
                    [c(8), c(4), c(0), c(12)]
                } else {
                    let r = ((v >> 11) & 0x1F) as u8;
                    let g = ((v >> 5) & 0x3F) as u8;
                    let b = (v & 0x1F) as u8;
                    [r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2, 255]
                }
            }
            [b, g, r] => [r, g, b, 255],
            [b, g, r, a] => [r, g, b, a],
            _ => return None,
        };
        rgba.extend_from_slice(&out);
    }
    Some(rgba)
}
