//! PID: the images of the WAP32 games (Captain Claw, Gruntz), with their palettes ([`pal`]) and
//! the PCX screens ([`pcx`]) beside them.
//!
//! # The format
//!
//! A 32-byte header of eight little-endian dwords, a pixel stream, and with flag `0x80` a
//! 768-byte RGB palette as the last bytes of the file:
//!
//! | offset | field | |
//! |---|---|---|
//! | `0x00` | file descriptor | 10 in every shipped file; no reader checks it |
//! | `0x04` | flags | [`PidFlags`]; unknown bits are kept and shown |
//! | `0x08` | width | signed, positive |
//! | `0x0C` | height | signed, positive |
//! | `0x10` | offset x | the hotspot, signed |
//! | `0x14` | offset y | |
//! | `0x18` | fill | with flag `0x100`, its low byte is the skip grammar's fill index |
//! | `0x1C` | user | 0 in shipped files |
//!
//! Pixels are palette indices, rows top to bottom, in one of two run-length grammars
//! ([`Grammar`], see [`rle`]): flag `0x20` clear, the PCX-style `0xC0 | n, v` runs with bare
//! literals below `0xC0`; flag `0x20` set, `0x80 | n` pixels of the fill index and `n, bytes…`
//! literal spans. Index 0 (Claw, OpenClaw) or the pink `(255, 0, 132)` (Gruntz) is transparent
//! when flag `0x01` is set ([`Transparency`], [`Pid::default_transparency`]).
//!
//! # Sources, and where they disagree
//!
//! * OpenClaw `libwap/PidFile.cpp` and `PalFile.cpp`; boozook/WAP32.rs `pid/src/pid.rs`
//!   (header as eight dwords, flags by name); fizary/wap32 `src/formats/pid/` (the `0x100` key
//!   index flag, `0x200` "unknown, used only in Gruntz", the `0xC0` test); sushi-shi/gruntz-decomp
//!   `tools/gruntz-codec/src/pid.rs` (retail `GRUNTZ.EXE` disassembly and a census of every
//!   sprite in both archives: the grammar bit, the fill byte, the encoder's choices).
//! * A token byte of exactly `0xC0`: OpenClaw and WAP32.rs test `byte > 192` and read it as a
//!   literal; fizary, gruntz-decomp and retail test the two high bits and read a run of zero
//!   (Gruntz's `DecodePidData` writes nothing, its `RunDecode1` hangs). levelkit reads a run of
//!   nothing; the shipped files have none. The same for `0x80` in the skip grammar: a literal
//!   span of 128 for OpenClaw and WAP32.rs (`byte > 128`), zero fill pixels for the rest.
//! * Runs past a row end: OpenClaw and WAP32.rs carry on into the next row, as Gruntz's
//!   `RunDecode1` does; its `DecodePidData` spills, fizary spills in one grammar; levelkit
//!   carries. Shipped files never do it.
//! * The fill of the skip grammar: 0 for OpenClaw and WAP32.rs (they leave the pixel
//!   untouched), the low byte of `fill` with flag `0x100` for fizary and gruntz-decomp.
//! * The real files prove the reading above: the corpus's three Gruntz PIDs decode to exactly
//!   the pixels of WAP32.rs's reference PNGs. Its "index 0 transparent" references are keyed by
//!   colour, not index: PERFECT.PID's embedded palette has black at 0 and the pink at 8, and the
//!   reference makes entry 8 transparent, as Gruntz's colour key would.
//!
//! # Byte for byte
//!
//! The encoder restarts at each row and writes runs of two or more as runs (at most 63, or 126
//! fill pixels, or 127 literals); which lone bytes are bare literals and how long a fill run may
//! be are the [`Spelling`] the reader finds for each file. Gruntz's `IMAGEZ` exporter does not
//! always follow these rules (sushi-shi/gruntz-decomp reproduces 37.6 % of the demo's `IMAGEZ`
//! sprites with the first rule; the tiles, menus and all three corpus PIDs exactly), so where no
//! spelling reproduces a stream the model keeps it ([`Pid::original_stream`]) and the writer
//! writes it again while it still decodes to the pixels: an unchanged image is always written
//! back byte for byte, an edited one is encoded.
//!
//! # Not supported
//!
//! Mirror and invert flags are shown, not applied (the games flip when drawing). Gruntz's
//! 16-bit RID images and the REZ archives that hold all of these are other modules' work.
//!
//! ```
//! use levelkit::formats::pid::{self, Pid, Transparency, samples};
//!
//! let sprite = samples::sprite_with_palette();
//! let bytes = sprite.write()?;
//! let pid = Pid::read(&bytes)?;
//! assert_eq!(pid, sprite);
//! assert_eq!((pid.width, pid.height, pid.hotspot()), (24, 20, (2, 3)));
//! let palette = pid.palette.clone().unwrap();
//! let rgba = pid.to_rgba(&palette, Transparency::Index(0))?;
//! assert_eq!(&rgba.rgba[..4], &[0, 0, 0, 0]); // the corner is transparent
//!
//! // A Claw-style sprite has no palette: draw it with the level's (or a .PAL).
//! let claw = Pid::read(&samples::sprite().write()?)?;
//! let rgba = claw.to_rgba(&samples::palette(), claw.default_transparency(&samples::palette()))?;
//! assert_eq!(rgba.rgba.len(), 24 * 20 * 4);
//! # Ok::<(), levelkit::Error>(())
//! ```

mod codec;
mod dump;
mod model;
pub mod pal;
pub mod pcx;
pub mod png;
mod read;
pub mod rle;
pub mod samples;
mod validate;
mod write;

pub use model::*;
pub use pal::Palette;
pub use read::{read, read_with};
pub use rle::{Literals, Spelling};
pub use validate::validate;
pub use write::write;

use serde::Serialize;

use crate::error::{Result, Warning};
use crate::limits::Limits;

impl Pid {
    /// Read a PID (see [`read()`]).
    pub fn read(bytes: &[u8]) -> Result<Pid> {
        read::read(bytes)
    }

    /// Read a PID under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Pid> {
        read::read_with(bytes, limits)
    }

    /// The file's bytes (see [`write()`]).
    pub fn write(&self) -> Result<Vec<u8>> {
        write::write(self)
    }

    /// Every finding (see [`validate()`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate::validate(self)
    }

    /// The image as an indexed PNG (see [`png::pid_to_png`]).
    pub fn to_png(&self, palette: Option<&Palette>) -> Result<Vec<u8>> {
        png::pid_to_png(self, palette)
    }

    /// A one-look summary for `levelkit info --json`.
    pub fn summary(&self) -> Summary {
        Summary {
            width: self.width,
            height: self.height,
            offset_x: self.offset_x,
            offset_y: self.offset_y,
            flags: format!("0x{:08X}", self.flags.bits()),
            grammar: self.grammar(),
            palette: self.palette.is_some(),
            fill_index: self.fill_index(),
            stream: dump::stream_note(self),
            trailing: self.trailing.len(),
        }
    }
}

/// What `levelkit info` shows of a PID.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Hotspot x.
    pub offset_x: i32,
    /// Hotspot y.
    pub offset_y: i32,
    /// The flags dword in hex.
    pub flags: String,
    /// The pixel grammar.
    pub grammar: Grammar,
    /// Whether the palette is embedded.
    pub palette: bool,
    /// The skip grammar's fill index.
    pub fill_index: u8,
    /// How the stream is written back.
    pub stream: String,
    /// Bytes after the stream.
    pub trailing: usize,
}
