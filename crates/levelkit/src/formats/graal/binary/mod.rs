//! Graal Online binary levels (`.zelda`, `.graal`); the level meaning they share with `.nw` is
//! [`super::level`].
//!
//! Spec: `shared/specs/graal.txt`, corrected by `shared/specs/graal-notes.md` (the notes win):
//! links are `dest x y width height destX destY`; the sign alphabet differs from the document
//! from byte 107 up; baddy verses are sight, hurt, attack, separated by backslashes; NPC and chest
//! positions are stored + 32; GR-V1.00 has no chests; packets are 12 bits up to GR-V1.01 and 13
//! bits from GR-V1.02 (several public readers get GR-V1.01 wrong), read LSB first.
//!
//! Supported: every header from `Z3-V1.03` to `GR-V1.03` and the multi-layer `GR-V1.05`, the
//! run-length tile stream, and every section per version, with text kept as raw Latin-1 bytes.
//! The version comes from the 8-byte header, never from the file name (`.zelda` files with a
//! `GR` header are read as what they are).
//!
//! Byte-exactness: an unchanged level is written back byte for byte. The tile stream is
//! re-encoded by our run-length encoder ([`write::encode_packets`]); where the original editor
//! chose other packets, the model keeps them ([`BinaryBoard::packets`]) and the writer uses them
//! while they still decode to the board's tiles. Entry lines (links, verses, NPC scripts, signs)
//! are kept as the bytes they are; [`to_level`] gives their meaning.
//!
//! Link destinations (`destX`, `destY`) are words kept as written: numbers, `playerx`/`playery`
//! and expressions such as `playerx+25` ([`super::level::LinkCoord`]); a link line is left out of
//! the meaning (with a warning) only when it has fewer than seven words or its rectangle is not
//! four integers.
//!
//! Version: [`from_level`] writes `GR-V1.03` (`GR-V1.05` with several layers), so a binary
//! level that went through `.nw` (which has no version field) or through a Tiled map without the
//! `graal_version` property comes back as `GR-V1.03`/`GR-V1.05`, whatever it was.
//! [`from_level_as`] and [`with_version`] write another (the CLI's `convert --graal-version`);
//! a version without a section the level uses leaves it out with a warning. A trip through a
//! Tiled map made from the `.graal` keeps its version (the map's `graal_version`).
//!
//! Lenient reading: with line-based sections every real level decodes to its end; odd content
//! (NPCs off the board, null chests, unparseable link lines, sign bytes outside the alphabet,
//! baddy types above 9) is reported by [`validate`], never altered.
//!
//! ```
//! use levelkit::formats::graal::binary as graal;
//!
//! let bytes = include_bytes!("../../../../../../samples/island.graal");
//! let level = graal::Graal::read(bytes)?;
//! assert_eq!(level.version, graal::Version::GrV103);
//! assert_eq!(level.write()?, bytes);
//! let (meaning, warnings) = level.to_level();
//! assert!(warnings.is_empty());
//! assert_eq!(meaning.links.len(), level.links.len());
//! # Ok::<(), levelkit::Error>(())
//! ```

mod codec;
pub(crate) mod level;
pub(crate) mod model;
mod read;
pub mod samples;
mod validate;
pub mod write;

pub use level::{
    NPC_LINE_BREAK, format_number, from_level, from_level_as, link_line, parse_link_tokens,
    to_level, with_version,
};
pub use model::*;
pub use read::{read, read_with};
pub use validate::validate;

use crate::error::{Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::GraalLevel;

impl Graal {
    /// Read a binary level.
    pub fn read(bytes: &[u8]) -> Result<Graal> {
        read(bytes)
    }

    /// Read a binary level under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Graal> {
        read_with(bytes, limits)
    }

    /// Write the level.
    pub fn write(&self) -> Result<Vec<u8>> {
        write::write(self)
    }

    /// The level's meaning.
    pub fn to_level(&self) -> (super::level::Level, Vec<Warning>) {
        to_level(self)
    }

    /// Check the level (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// A one-look summary.
    pub fn summary(&self) -> Summary {
        Summary {
            version: String::from_utf8_lossy(self.version.header()).into_owned(),
            layers: self.boards.len(),
            links: self.links.len(),
            baddies: self.baddies.len(),
            npcs: self.npcs.len(),
            chests: self.chests.iter().filter(|c| !c.is_null()).count(),
            null_chests: self.chests.iter().filter(|c| c.is_null()).count(),
            signs: self.signs.len(),
            editor_encoding: self.boards.iter().all(|b| b.packets.is_none()),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Counts for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Header, e.g. `GR-V1.03`.
    pub version: String,
    /// Boards (layers).
    pub layers: usize,
    /// Links.
    pub links: usize,
    /// Baddies.
    pub baddies: usize,
    /// NPCs.
    pub npcs: usize,
    /// Chests (the ones `levelkit dump` lists).
    pub chests: usize,
    /// Null chest records (`FF FF FF 00`, placeholders the game skips), kept byte for byte.
    #[serde(skip_serializing_if = "is_zero")]
    pub null_chests: usize,
    /// Signs.
    pub signs: usize,
    /// Whether our encoder reproduces every board's packets.
    pub editor_encoding: bool,
}
