//! Texture WADs, for real textures in a level's scene export.
//!
//! **What layout Gamestudio uses.** A level names its WAD files in `wed { wad { … } }`
//! (`<standard.wad> 1`) and the level entity names the compiled texture file (`<office.$$w>`,
//! WED's "temporary `$$W` WAD", `wmp.txt`). Gamestudio took its WAD from Quake, whose texture
//! WAD is **WAD2**: the magic `WAD2` (or Half-Life's `WAD3`), a u32 entry count and a u32
//! directory offset; 32-byte directory entries (u32 offset, u32 size on disk, u32 size,
//! u8 type, u8 compression, u16 padding, 16-byte NUL-padded name); and `miptex` entries
//! (type `0x44` in WAD2, `0x43` in WAD3): a 16-byte name, u32 width and height, four u32
//! offsets of the mip levels (relative to the entry), 8-bit palette indices, and in WAD3 a
//! u16 colour count and that many RGB triplets after the last level. WAD2 textures use an
//! outside palette: the level's (`wed { palette { … } }` in text levels).
//!
//! `levelkit convert level.wmp level.glb` looks for the WADs a text level names (and its `$$W`)
//! beside the level and textures the materials of the same name
//! ([`super::attach_wad_textures`], which also rescales the texture coordinates to the real
//! texture size).
//!
//! This is inferred: no Gamestudio WAD is in the shared corpus, and later Gamestudio versions
//! store true-colour textures in entry types of their own, whose layout is not published. Those
//! entries (and compressed ones) are listed by name and left unread; the level's materials then
//! keep their name without an image, as when no WAD is found.

use crate::error::{Error, Location, Result};
use crate::io::ByteReader;
use crate::registry::Format;

/// One texture read from a WAD: its name and top-level pixels as RGBA.
#[derive(Debug, Clone, PartialEq)]
pub struct WadTexture {
    /// The entry name (case as stored).
    pub name: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height` RGBA pixels, top row first.
    pub rgba: Vec<u8>,
}

/// What a WAD holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Wad {
    /// The textures that could be decoded.
    pub textures: Vec<WadTexture>,
    /// Entries that are not 8-bit miptex (name and type byte), left unread.
    pub skipped: Vec<(String, u8)>,
}

impl Wad {
    /// The texture called `name`, compared without case (WAD names are case-insensitive and
    /// `$$M` cuts them to 15 characters).
    pub fn find(&self, name: &str) -> Option<&WadTexture> {
        self.textures.iter().find(|t| {
            t.name.eq_ignore_ascii_case(name)
                || (name.len() > 15
                    && name
                        .get(..15)
                        .is_some_and(|n| t.name.eq_ignore_ascii_case(n)))
        })
    }
}

fn bad(offset: usize, message: impl Into<String>) -> Error {
    Error::malformed(Format::WmpText, Location::at(offset as u64), message)
}

/// Read a WAD2/WAD3 file. `palette` (768 bytes, RGB) colours WAD2 textures; without it they
/// are grey ramps of their indices.
pub fn read(bytes: &[u8], palette: Option<&[u8]>) -> Result<Wad> {
    let mut r = ByteReader::new(Format::WmpText, bytes);
    let magic = r.bytes(4, "WAD magic")?;
    let wad3 = match magic {
        b"WAD2" => false,
        b"WAD3" => true,
        _ => {
            return Err(bad(
                0,
                "not a WAD: the file does not start with WAD2 or WAD3",
            ));
        }
    };
    let count = r.u32_le("entry count")? as usize;
    let dir = r.u32_le("directory offset")? as usize;
    let dir_len = count
        .checked_mul(32)
        .filter(|len| dir.checked_add(*len).is_some_and(|end| end <= bytes.len()))
        .ok_or_else(|| {
            bad(
                4,
                format!("{count} directory entries at {dir} run past the end"),
            )
        })?;
    let mut wad = Wad::default();
    let directory = bytes.get(dir..dir + dir_len).unwrap_or_default();
    for (i, entry) in directory.chunks_exact(32).enumerate() {
        let at = dir + i * 32;
        let word = |k: usize| {
            entry
                .get(k..k + 4)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_le_bytes)
                .unwrap_or(0) as usize
        };
        let (offset, disk_size) = (word(0), word(4));
        let kind = entry.get(12).copied().unwrap_or(0);
        let compressed = entry.get(13).copied().unwrap_or(0) != 0;
        let name = c_name(entry.get(16..32).unwrap_or_default());
        let is_miptex = kind == if wad3 { 0x43 } else { 0x44 };
        if !is_miptex || compressed {
            wad.skipped.push((name, kind));
            continue;
        }
        let data = offset
            .checked_add(disk_size)
            .and_then(|end| bytes.get(offset..end))
            .ok_or_else(|| bad(at, format!("entry {name:?} runs past the end of the file")))?;
        wad.textures.push(miptex(data, offset, wad3, palette)?);
    }
    Ok(wad)
}

fn c_name(raw: &[u8]) -> String {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    String::from_utf8_lossy(raw.get(..end).unwrap_or_default()).into_owned()
}

fn miptex(data: &[u8], base: usize, wad3: bool, palette: Option<&[u8]>) -> Result<WadTexture> {
    let word = |k: usize| {
        data.get(k..k + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
    };
    let name = c_name(data.get(..16).unwrap_or_default());
    let (Some(width), Some(height), Some(first)) = (word(16), word(20), word(24)) else {
        return Err(bad(base, format!("texture {name:?}: header cut short")));
    };
    let pixels = (width as usize)
        .checked_mul(height as usize)
        .filter(|n| *n <= data.len())
        .ok_or_else(|| {
            bad(
                base,
                format!("texture {name:?}: {width}×{height} is larger than its entry"),
            )
        })?;
    let indices = (first as usize)
        .checked_add(pixels)
        .and_then(|end| data.get(first as usize..end))
        .ok_or_else(|| bad(base, format!("texture {name:?}: pixels run past its entry")))?;
    // WAD3: the palette follows the smallest mip level.
    let own_palette = if wad3 {
        let last = word(36).unwrap_or(0) as usize;
        let after = last + pixels / 64;
        data.get(after + 2..after + 2 + 768)
    } else {
        None
    };
    let palette = own_palette.or(palette.filter(|p| p.len() >= 768));
    let mut rgba = Vec::with_capacity(pixels * 4);
    for &i in indices {
        let i = usize::from(i);
        match palette.and_then(|p| p.get(i * 3..i * 3 + 3)) {
            Some(rgb) => rgba.extend_from_slice(rgb),
            None => rgba.extend_from_slice(&[i as u8; 3]),
        }
        // Quake's convention: index 255 of `{`-named textures is transparent.
        rgba.push(if name.starts_with('{') && i == 255 {
            0
        } else {
            255
        });
    }
    Ok(WadTexture {
        name,
        width,
        height,
        rgba,
    })
}

/// A WAD2 file holding 8-bit miptex entries (the first mip level only, the others zero-filled),
/// for tests and fixtures: `(name, width, height, indices)`.
pub fn write_wad2(textures: &[(&str, u32, u32, &[u8])]) -> Vec<u8> {
    let mut out = b"WAD2".to_vec();
    out.extend_from_slice(&(textures.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let mut entries = Vec::new();
    for (name, w, h, indices) in textures {
        let start = out.len();
        let mut raw_name = [0u8; 16];
        for (d, s) in raw_name.iter_mut().zip(name.bytes()) {
            *d = s;
        }
        out.extend_from_slice(&raw_name);
        out.extend_from_slice(&w.to_le_bytes());
        out.extend_from_slice(&h.to_le_bytes());
        let n = (*w as usize) * (*h as usize);
        let mut off = 40u32;
        for level in 0..4u32 {
            out.extend_from_slice(&off.to_le_bytes());
            off += (n >> (2 * level)) as u32;
        }
        out.extend_from_slice(indices);
        out.resize(start + off as usize, 0);
        entries.push((start, out.len() - start, raw_name));
    }
    let dir = out.len() as u32;
    if let Some(slot) = out.get_mut(8..12) {
        slot.copy_from_slice(&dir.to_le_bytes());
    }
    for (start, size, raw_name) in entries {
        out.extend_from_slice(&(start as u32).to_le_bytes());
        out.extend_from_slice(&(size as u32).to_le_bytes());
        out.extend_from_slice(&(size as u32).to_le_bytes());
        out.extend_from_slice(&[0x44, 0, 0, 0]);
        out.extend_from_slice(&raw_name);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn wad2_round_trip_with_palette() {
        let indices: Vec<u8> = (0..16).collect();
        let bytes = write_wad2(&[
            ("brownwood", 4, 4, &indices),
            ("{fence", 2, 2, &[255, 1, 2, 3]),
        ]);
        let mut palette = vec![0u8; 768];
        for (i, c) in palette.iter_mut().enumerate() {
            *c = (i / 3) as u8;
        }
        let wad = read(&bytes, Some(&palette)).unwrap();
        assert_eq!(wad.textures.len(), 2);
        let t = wad.find("BROWNWOOD").unwrap();
        assert_eq!((t.width, t.height), (4, 4));
        assert_eq!(&t.rgba[4..8], &[1, 1, 1, 255]);
        let fence = wad.find("{fence").unwrap();
        assert_eq!(&fence.rgba[..4], &[255, 255, 255, 0]);
        // Truncations never panic.
        for cut in 0..bytes.len() {
            let _ = read(&bytes[..cut], None);
        }
        assert!(read(b"PWAD\0\0\0\0\0\0\0\0", None).is_err());
    }
}
