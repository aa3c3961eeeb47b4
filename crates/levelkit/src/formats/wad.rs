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
//! ([`crate::formats::wmp::attach_wad_textures`], which also rescales the texture coordinates to the real
//! texture size).
//!
//! **WAD7**, Gamestudio's own WAD (A6 on; `gamestudio/wad/Texturset.wad` in the corpus), keeps
//! WAD2's header and directory with the magic `WAD7`. Its entries, read from that file and
//! from the texture list of `ikskuh/libgamestudio`'s WMB7 reader (`src/wmb.zig`, the same
//! entry inside a compiled level):
//!
//! * type `0x40`: a 768-byte RGB palette (named `P` in the corpus file); it colours the WAD's
//!   8-bit textures when the level gives no palette;
//! * any other type: a texture: 16-byte name, u32 width and height, a u32 **pixel type**
//!   (the low three bits 0 = 8-bit indices, 2 = R5G6B5, 4 = B8G8R8, 5 = B8G8R8A8, 6 = DDS of
//!   `width` bytes; bit 3 = three mip levels follow), three u32 mip offsets, then the pixels at
//!   offset 40. These are the skin types of MDL and HMP, decoded by the same code
//!   ([`crate::formats::hmp::skin`]). The directory's type byte repeats the pixel type in the
//!   corpus file (8 for 8-bit with mips, 10 for R5G6B5 with mips), and its padding word is
//!   0xFFFF where WAD2 has 0.
//!
//! [`WadFile`] keeps a WAD of any of the three kinds byte for byte (header, directory words,
//! every entry's bytes, and any bytes no entry covers), for `read_file` / `WadFile::write`
//! round trips; [`read`] decodes the textures for levels.
//!
//! WAD2 is inferred from Quake (no Gamestudio WAD2 is in the corpus). Compressed entries and
//! DDS textures are listed by name in [`Wad::skipped`] and left unread; the level's materials
//! then keep their name without an image, as when no WAD is found.

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
    let (wad3, wad7) = match magic {
        b"WAD2" => (false, false),
        b"WAD3" => (true, false),
        b"WAD7" => (false, true),
        _ => {
            return Err(bad(
                0,
                "not a WAD: the file does not start with WAD2, WAD3 or WAD7",
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
    // WAD7: the WAD's own palette entry colours its 8-bit textures before the level's.
    let own_palette = if wad7 {
        directory
            .chunks_exact(32)
            .filter(|e| e.get(12) == Some(&WAD7_PALETTE))
            .find_map(|e| {
                let word = |k: usize| {
                    e.get(k..k + 4)
                        .and_then(|b| b.try_into().ok())
                        .map(u32::from_le_bytes)
                        .unwrap_or(0) as usize
                };
                let start = word(0);
                bytes.get(start..start.checked_add(768)?)
            })
    } else {
        None
    };
    let palette = own_palette.or(palette);
    // Entries may point at the same bytes; decoding is bounded by the file's size all the same.
    let mut total = 0usize;
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
        total = total.saturating_add(disk_size);
        if total > bytes.len() {
            return Err(bad(
                at,
                "the entries claim more bytes than the file has (overlapping entries)",
            ));
        }
        let kind = entry.get(12).copied().unwrap_or(0);
        let compressed = entry.get(13).copied().unwrap_or(0) != 0;
        let name = c_name(entry.get(16..32).unwrap_or_default());
        if wad7 {
            if kind == WAD7_PALETTE || compressed {
                wad.skipped.push((name, kind));
                continue;
            }
            let data = offset
                .checked_add(disk_size)
                .and_then(|end| bytes.get(offset..end))
                .ok_or_else(|| bad(at, format!("entry {name:?} runs past the end of the file")))?;
            match wad7_texture(data, offset, palette)? {
                Some(t) => wad.textures.push(t),
                None => wad.skipped.push((name, kind)),
            }
            continue;
        }
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

/// The WAD7 directory type of the palette entry.
pub const WAD7_PALETTE: u8 = 0x40;

/// A WAD7 texture entry (see the module docs); `None` for a type levelkit does not decode
/// (DDS), which the caller lists as skipped.
fn wad7_texture(data: &[u8], base: usize, palette: Option<&[u8]>) -> Result<Option<WadTexture>> {
    use crate::formats::hmp::skin::{self, SkinKind};
    let word = |k: usize| {
        data.get(k..k + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
    };
    let name = c_name(data.get(..16).unwrap_or_default());
    let (Some(width), Some(height), Some(kind)) = (word(16), word(20), word(24)) else {
        return Err(bad(base, format!("texture {name:?}: header cut short")));
    };
    let Ok(parsed @ SkinKind::Pixels { bytes, mips }) = skin::skin_kind(kind, false) else {
        return Ok(None);
    };
    let need = skin::pixel_bytes(width, height, bytes, mips).unwrap_or(u64::MAX);
    let pixels = data.get(40..).unwrap_or_default();
    if (pixels.len() as u64) < need {
        return Err(bad(
            base,
            format!(
                "texture {name:?}: {width}×{height} of pixel type {kind} is larger than its entry"
            ),
        ));
    }
    let rgba =
        skin::decode_rgba(parsed, width, height, pixels, palette, kind).ok_or_else(|| {
            bad(
                base,
                format!("texture {name:?}: pixels could not be decoded"),
            )
        })?;
    Ok(Some(WadTexture {
        name,
        width,
        height,
        rgba,
    }))
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

/// One directory entry of a WAD with its bytes, every field as stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WadEntry {
    /// Where the entry's bytes start in the file.
    pub offset: u32,
    /// Bytes on disk (the length of [`WadEntry::data`]).
    pub disk_size: u32,
    /// Bytes in memory (equal to `disk_size` when not compressed).
    pub size: u32,
    /// Entry type (WAD2 `0x44` miptex; WAD7 `0x40` palette or the pixel type).
    pub kind: u8,
    /// Compression (0: none).
    pub compression: u8,
    /// The padding word (0 in WAD2, 0xFFFF in the WAD7 corpus file).
    pub pad: u16,
    /// The 16-byte NUL-padded name, as stored.
    pub name: [u8; 16],
    /// The entry's bytes.
    pub data: Vec<u8>,
}

/// A WAD file kept byte for byte: header, directory and entries, and the bytes no entry
/// covers ([`WadFile::gaps`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WadFile {
    /// `WAD2`, `WAD3` or `WAD7`.
    pub magic: [u8; 4],
    /// Where the directory starts.
    pub dir_offset: u32,
    /// The directory, in file order.
    pub entries: Vec<WadEntry>,
    /// Bytes outside the header, the directory and every entry: `(offset, bytes)`, in order.
    pub gaps: Vec<(u32, Vec<u8>)>,
}

/// Read any WAD (WAD2, WAD3, WAD7) into a [`WadFile`]. Every entry must lie inside the file;
/// the directory is checked against the file size before anything is allocated.
pub fn read_file(bytes: &[u8]) -> Result<WadFile> {
    let mut r = ByteReader::new(Format::WmpText, bytes);
    let magic = r.array::<4>("WAD magic")?;
    if !matches!(&magic, b"WAD2" | b"WAD3" | b"WAD7") {
        return Err(bad(
            0,
            "not a WAD: the file does not start with WAD2, WAD3 or WAD7",
        ));
    }
    let count = r.u32_le("entry count")?;
    let dir_offset = r.u32_le("directory offset")?;
    r.seek(dir_offset as usize, "WAD directory")?;
    r.ensure(u64::from(count), 32, "WAD directory")?;
    let mut entries = Vec::with_capacity(count as usize);
    let mut covered = vec![
        (0usize, 12usize),
        (
            dir_offset as usize,
            r.pos().saturating_add(count as usize * 32),
        ),
    ];
    let mut total = 0usize;
    for i in 0..count {
        let at = r.offset();
        let offset = r.u32_le("entry offset")?;
        let disk_size = r.u32_le("entry size on disk")?;
        let size = r.u32_le("entry size")?;
        let kind = r.u8("entry type")?;
        let compression = r.u8("entry compression")?;
        let pad = r.u16_le("entry padding")?;
        let name = r.array::<16>("entry name")?;
        let start = offset as usize;
        let data = start
            .checked_add(disk_size as usize)
            .and_then(|end| bytes.get(start..end))
            .ok_or_else(|| {
                bad(
                    at as usize,
                    format!("entry {i} ({}) at {offset} of {disk_size} bytes runs past the end of the file", c_name(&name)),
                )
            })?;
        total = total.saturating_add(data.len());
        if total > bytes.len() {
            return Err(bad(
                at as usize,
                "the entries claim more bytes than the file has (overlapping entries are not kept)",
            ));
        }
        covered.push((start, start.saturating_add(data.len())));
        entries.push(WadEntry {
            offset,
            disk_size,
            size,
            kind,
            compression,
            pad,
            name,
            data: data.to_vec(),
        });
    }
    covered.sort_unstable();
    let mut gaps = Vec::new();
    let mut pos = 0usize;
    for (start, end) in covered.into_iter().chain([(bytes.len(), bytes.len())]) {
        if start > pos {
            gaps.push((
                pos as u32,
                bytes.get(pos..start).unwrap_or_default().to_vec(),
            ));
        }
        pos = pos.max(end);
    }
    Ok(WadFile {
        magic,
        dir_offset,
        entries,
        gaps,
    })
}

impl WadFile {
    /// The file's bytes: every piece at its offset. Refuses entries whose `disk_size` is not the
    /// length of their bytes, and sizes beyond 4 GB.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut end = (self.dir_offset as usize)
            .saturating_add(self.entries.len() * 32)
            .max(12);
        for (i, e) in self.entries.iter().enumerate() {
            if e.data.len() != e.disk_size as usize {
                return Err(Error::malformed(
                    Format::WmpText,
                    Location::path(format!("entries/{i}")),
                    format!(
                        "entry has {} bytes, its size says {}",
                        e.data.len(),
                        e.disk_size
                    ),
                ));
            }
            end = end.max((e.offset as usize).saturating_add(e.data.len()));
        }
        for (at, g) in &self.gaps {
            end = end.max((*at as usize).saturating_add(g.len()));
        }
        let mut out = vec![0u8; end];
        let mut put = |at: usize, b: &[u8]| {
            if let Some(slot) = out.get_mut(at..at.saturating_add(b.len())) {
                slot.copy_from_slice(b);
            }
        };
        for (at, g) in &self.gaps {
            put(*at as usize, g);
        }
        for e in &self.entries {
            put(e.offset as usize, &e.data);
        }
        let mut head = self.magic.to_vec();
        head.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        head.extend_from_slice(&self.dir_offset.to_le_bytes());
        put(0, &head);
        let mut dir = Vec::with_capacity(self.entries.len() * 32);
        for e in &self.entries {
            dir.extend_from_slice(&e.offset.to_le_bytes());
            dir.extend_from_slice(&e.disk_size.to_le_bytes());
            dir.extend_from_slice(&e.size.to_le_bytes());
            dir.extend_from_slice(&[e.kind, e.compression]);
            dir.extend_from_slice(&e.pad.to_le_bytes());
            dir.extend_from_slice(&e.name);
        }
        put(self.dir_offset as usize, &dir);
        Ok(out)
    }

    /// Findings: entries that overlap each other or the directory, compressed entries (not
    /// decoded), and for WAD7 texture entries whose pixels do not fit.
    pub fn validate(&self) -> Vec<crate::error::Warning> {
        use crate::error::Warning;
        let mut out = Vec::new();
        let mut spans: Vec<(u64, u64, usize)> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                (
                    u64::from(e.offset),
                    u64::from(e.offset) + e.data.len() as u64,
                    i,
                )
            })
            .collect();
        spans.sort_unstable();
        for pair in spans.windows(2) {
            if let [(_, end, a), (start, _, b)] = *pair
                && start < end
            {
                out.push(Warning::warning(
                    Format::WmpText,
                    Location::path(format!("entries/{b}")),
                    format!("entry {b} overlaps entry {a}"),
                ));
            }
        }
        for (i, e) in self.entries.iter().enumerate() {
            if e.compression != 0 {
                out.push(Warning::warning(
                    Format::WmpText,
                    Location::path(format!("entries/{i}")),
                    format!(
                        "entry {} is compressed ({}); not decoded",
                        c_name(&e.name),
                        e.compression
                    ),
                ));
            }
        }
        if &self.magic == b"WAD7"
            && let Err(e) = read(&self.write().unwrap_or_default(), None)
        {
            out.push(Warning::error(
                Format::WmpText,
                Location::default(),
                e.to_string(),
            ));
        }
        out
    }
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
