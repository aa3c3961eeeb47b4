//! The lossless model of a PID image: the eight header dwords, the pixels as palette indices,
//! the embedded palette, and what it takes to write the same bytes again (the encoder's
//! [`Spelling`], or the original stream where no spelling reproduces it, and any bytes after
//! the stream).

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

use super::pal::Palette;
use super::rle::Spelling;
use crate::error::{Error, Location, Result};
use crate::registry::Format;

/// Size of the header.
pub const HEADER_SIZE: usize = 32;
/// The first header dword in every shipped Claw and Gruntz PID (the byte a PCX starts with; no
/// reader checks it).
pub const FILE_DESC: u32 = 10;
/// The colour the Gruntz sprites key out: pink `(255, 0, 132)`, entry 0 of the sprite palettes
/// and the background of images with their own palette (PERFECT.PID uses entry 8 for it). The
/// game keys a surface colour, not a palette index (`CDDSurface::DecodePid` →
/// `FillPalette(colorKey)`, sushi-shi/gruntz-decomp), and the reference decodes in the corpus
/// make exactly the pixels of this colour transparent.
pub const GRUNTZ_KEY: [u8; 3] = [255, 0, 132];

bitflags! {
    /// The flags dword (`0x04`). Names as in WAP32.rs and fizary/wap32; what Gruntz does with
    /// each bit, per sushi-shi/gruntz-decomp, in the docs. Unknown bits are kept.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct PidFlags: u32 {
        /// Drawn with a transparent colour key.
        const TRANSPARENCY = 0x01;
        /// Prefer video memory (no shipped Gruntz image sets it).
        const VIDEO_MEMORY = 0x02;
        /// Keep in system memory.
        const SYSTEM_MEMORY = 0x04;
        /// Flip horizontally (fizary/wap32; not applied by [`Pid::to_rgba`]).
        const MIRROR = 0x08;
        /// Flip vertically (fizary/wap32; not applied by [`Pid::to_rgba`]).
        const INVERT = 0x10;
        /// The skip grammar ([`Grammar::Skips`]) instead of the `0xC0` runs. Both are
        /// run-length codes; the name is the one every reader uses.
        const COMPRESSION = 0x20;
        /// A light or shade map: Gruntz draws it as shade type 2 (gruntz-decomp
        /// `SRC_8BPP_SHADE`); set on shadows, which have no palette.
        const LIGHTS = 0x40;
        /// The last 768 bytes of the file are the image's palette.
        const EMBEDDED_PALETTE = 0x80;
        /// The fill index of the skip grammar is the low byte of the `fill` dword; without
        /// this bit it is 0 (fizary `KEYINDEX`, gruntz-decomp `FILL_IS_WORD`).
        const KEY_INDEX = 0x100;
        /// The skip stream holds 8-bit indices (gruntz-decomp `SRC_8BPP`; "unknown, used only
        /// in Gruntz" in fizary/wap32).
        const SRC_8BPP = 0x200;
    }
}

/// The two pixel grammars, chosen by [`PidFlags::COMPRESSION`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grammar {
    /// Flag `0x20` clear: PCX-style `0xC0 | n, v` runs and bare literals.
    Runs,
    /// Flag `0x20` set: `0x80 | n` fill pixels and `n, bytes…` literal spans.
    Skips,
}

impl Grammar {
    /// The name `levelkit info` shows.
    pub fn name(self) -> &'static str {
        match self {
            Grammar::Runs => "0xC0 runs",
            Grammar::Skips => "skip runs",
        }
    }
}

/// A PID image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pid {
    /// Header `0x00`: 10 in every shipped file.
    pub file_desc: u32,
    /// Header `0x04`.
    pub flags: PidFlags,
    /// Header `0x08`, in pixels (a positive `i32` in the file).
    pub width: u32,
    /// Header `0x0C`, in pixels (a positive `i32` in the file).
    pub height: u32,
    /// Header `0x10`: the hotspot, where the image is drawn relative to its object's position.
    pub offset_x: i32,
    /// Header `0x14`.
    pub offset_y: i32,
    /// Header `0x18`: the fill colour of the skip grammar when [`PidFlags::KEY_INDEX`] is set
    /// (the low byte is the index); 0 in the shipped files.
    pub fill: u32,
    /// Header `0x1C`: a user dword, 0 in the shipped files.
    pub user: u32,
    /// `width × height` palette indices, rows top to bottom. In JSON, one hex string.
    #[serde(with = "crate::serde_bytes::hex")]
    pub pixels: Vec<u8>,
    /// The embedded palette: present exactly when the flags have
    /// [`PidFlags::EMBEDDED_PALETTE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette: Option<Palette>,
    /// How the writer encodes the pixels: the choices that reproduced the file read.
    #[serde(default)]
    pub spelling: Spelling,
    /// The pixel stream as read, kept only when no [`Spelling`] reproduces it. The writer
    /// writes it again as long as it still decodes to `pixels` (with the header's grammar,
    /// size and fill), and encodes `pixels` once they were edited.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_bytes::opt_hex"
    )]
    pub original_stream: Option<Vec<u8>>,
    /// Bytes after the pixel stream (before the palette), kept verbatim; none in shipped files.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::hex"
    )]
    pub trailing: Vec<u8>,
}

/// How [`Pid::to_rgba`] makes pixels transparent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transparency {
    /// Every pixel opaque.
    Opaque,
    /// Pixels of this palette index are transparent (Claw and OpenClaw: index 0).
    Index(u8),
    /// Pixels whose palette colour is this are transparent (Gruntz: [`GRUNTZ_KEY`]).
    Color([u8; 3]),
}

/// An RGBA8 image, rows top to bottom, 4 bytes a pixel; transparent pixels are `0, 0, 0, 0`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

impl Pid {
    /// A new image of `width × height` indices (`pixels`, rows top to bottom), without palette
    /// or hotspot: flags 0 (the `0xC0` grammar), file descriptor 10, the default spelling.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Pid {
        Pid {
            file_desc: FILE_DESC,
            flags: PidFlags::empty(),
            width,
            height,
            offset_x: 0,
            offset_y: 0,
            fill: 0,
            user: 0,
            pixels,
            palette: None,
            spelling: Spelling::default(),
            original_stream: None,
            trailing: Vec::new(),
        }
    }

    /// The pixel grammar the flags choose.
    pub fn grammar(&self) -> Grammar {
        grammar_of(self.flags)
    }

    /// The index the skip grammar's fill runs stand for (and the encoder turns into them): the
    /// low byte of `fill` with [`PidFlags::KEY_INDEX`], else 0.
    pub fn fill_index(&self) -> u8 {
        fill_index_of(self.flags, self.fill)
    }

    /// The hotspot `(offset_x, offset_y)`.
    pub fn hotspot(&self) -> (i32, i32) {
        (self.offset_x, self.offset_y)
    }

    /// The palette index at `(x, y)`.
    pub fn index_at(&self, x: u32, y: u32) -> Option<u8> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = u64::from(y)
            .checked_mul(u64::from(self.width))?
            .checked_add(u64::from(x))?;
        self.pixels.get(usize::try_from(at).ok()?).copied()
    }

    /// Set the embedded palette, and the flag that says there is one.
    pub fn set_palette(&mut self, palette: Option<Palette>) {
        self.flags
            .set(PidFlags::EMBEDDED_PALETTE, palette.is_some());
        self.palette = palette;
    }

    /// How the games would key this image out with `palette`: opaque without
    /// [`PidFlags::TRANSPARENCY`]; otherwise the Gruntz key colour ([`GRUNTZ_KEY`]) where
    /// the palette has it, else the fill index (0 unless [`PidFlags::KEY_INDEX`]), which is
    /// index 0 as Claw and OpenClaw have it.
    pub fn default_transparency(&self, palette: &Palette) -> Transparency {
        if !self.flags.contains(PidFlags::TRANSPARENCY) {
            Transparency::Opaque
        } else if palette.find(GRUNTZ_KEY).is_some() {
            Transparency::Color(GRUNTZ_KEY)
        } else {
            Transparency::Index(self.fill_index())
        }
    }

    /// The palette to draw with: the embedded one, else `fallback` (a level's or a `.PAL`).
    pub fn palette_or<'a>(&'a self, fallback: Option<&'a Palette>) -> Option<&'a Palette> {
        self.palette.as_ref().or(fallback)
    }

    /// The image in RGBA with `palette`, transparent pixels `0, 0, 0, 0`. Mirror and invert
    /// flags are not applied (the games flip when drawing). Fails when `pixels` does not hold
    /// `width × height` indices (a model edited by hand), so the output is never larger than
    /// the model.
    pub fn to_rgba(&self, palette: &Palette, transparency: Transparency) -> Result<RgbaImage> {
        self.check_pixel_count()?;
        crate::limits::Limits::default().check_picture(
            Format::Pid,
            u64::from(self.width),
            u64::from(self.height),
            "the image",
        )?;
        let mut lut = [[0u8; 4]; 256];
        for (i, slot) in (0..=255u8).zip(lut.iter_mut()) {
            let [r, g, b] = palette.color(i);
            let clear = match transparency {
                Transparency::Opaque => false,
                Transparency::Index(t) => i == t,
                Transparency::Color(c) => [r, g, b] == c,
            };
            *slot = if clear { [0; 4] } else { [r, g, b, 255] };
        }
        let mut rgba = Vec::with_capacity(self.pixels.len().saturating_mul(4));
        for &i in &self.pixels {
            rgba.extend_from_slice(lut.get(usize::from(i)).unwrap_or(&[0; 4]));
        }
        Ok(RgbaImage {
            width: self.width,
            height: self.height,
            rgba,
        })
    }

    /// An error unless `pixels` holds exactly `width × height` indices.
    pub fn check_pixel_count(&self) -> Result<()> {
        let want = u64::from(self.width).saturating_mul(u64::from(self.height));
        if self.pixels.len() as u64 == want {
            return Ok(());
        }
        Err(Error::malformed(
            Format::Pid,
            Location::path("pixels"),
            format!(
                "a {} x {} image has {want} pixels, the model has {}",
                self.width,
                self.height,
                self.pixels.len()
            ),
        ))
    }
}

/// The grammar `flags` choose.
pub fn grammar_of(flags: PidFlags) -> Grammar {
    if flags.contains(PidFlags::COMPRESSION) {
        Grammar::Skips
    } else {
        Grammar::Runs
    }
}

/// The skip grammar's fill index for `flags` and the `fill` dword.
pub fn fill_index_of(flags: PidFlags, fill: u32) -> u8 {
    if flags.contains(PidFlags::KEY_INDEX) {
        (fill & 0xFF) as u8
    } else {
        0
    }
}
