//! NW: Graal Online text levels (`.nw`, first line `GLEVNW01`).
//!
//! Spec: `shared/specs/graal.txt` (its `.nw` section) as corrected and completed by
//! `shared/specs/graal-notes.md` §1 and §3; where they disagree the notes win (link parameter
//! order `dest x y width height destX destY`, the sign glyph table, verse order, partial and
//! layered `BOARD` rows).
//!
//! # Supported
//!
//! Every statement of notes §3, typed: `BOARD` rows (any `x`, `width` and `layer`, data beyond
//! `2 · width` kept), `LINK` (names with spaces, any word as `destX`/`destY`, kept as written:
//! `15.50`, `playerx+25`; TilesEditor's `destLayer layer`), `SIGN`…`SIGNEND` (text with `#`
//! escapes, as written), `NPC`…`NPCEND` (image or `-`, optional layer, the script's lines),
//! `CHEST` (item name or number, optional layer), `BADDY`…`BADDYEND` (type name or number, optional layer, verse lines), `TILESET`,
//! `TILESETIMAGE` and `HEIGHTS`…`HEIGHTSEND` (its rows as lines; [`Heights::grid`] reads the
//! numbers). Unknown statements, blank lines and lines whose parameters do not parse stay in
//! place as [`Statement::Verbatim`] lines. Bytes are kept raw
//! ([`RawString`](crate::strings::RawString), Latin-1/Windows-1252 in practice).
//!
//! [`to_level`] and [`from_level`] convert to and from the [`Level`] shared with the binary
//! format, reporting whatever does not carry over (`.nw` has no version field: a binary level
//! made from it is `GR-V1.03`, or `GR-V1.05` with several layers, unless
//! [`from_level_as`](super::binary::from_level_as) or `convert --graal-version` choose another); [`from_level`] writes the original editor's
//! form (64 full ground rows, upper layers as runs, chest item names, numeric baddy types).
//!
//! # Byte-exactness
//!
//! An unchanged file is written back byte for byte: LF, CRLF or a mix per line, a missing final
//! line break, several spaces between words, numbers as written (`27.5`, `30`, `05`, `30.0`).
//! Each [`Entry`] holds the typed [`Statement`] and, only when the file spelled it differently
//! from the canonical form, its original lines ([`Entry::source`]). The writer emits those lines
//! while they still parse to exactly the typed values and writes the statement canonically once
//! a value changed. A model built from scratch is written canonically, like the original editor:
//! single spaces, shortest numbers, [`Nw::line_ending`] after every line.
//!
//! # Ambiguous lines: the rules
//!
//! * **LINK.** With n parameters, GServer reads a name with spaces as the first n − 6;
//!   TilesEditor appends `destLayer layer`. levelkit reads the extension when n ≥ 9, the last
//!   eight parameters read as `x y width height destX destY destLayer layer` (integers, two
//!   coordinates, integers) **and** the word before them looks like the end of a file name (it
//!   contains a `.` and is not a number, as in `castle.nw`); otherwise GServer's rule applies.
//!   So `LINK old mill.nw 0 0 64 1 playerx 61 0 1` has layers, and
//!   `LINK dungeon 2 3 0 0 64 1 30 61` goes to the level `dungeon 2 3`. Every real link names a
//!   file with an extension, and no real file has the extension; the writer refuses a link
//!   whose name would be misread (`a.nw 1 2` without layers) instead of writing it wrong.
//! * **NPC.** GServer reads extra words as part of a spaced image name; TilesEditor reads a
//!   fourth word as the layer. levelkit reads a layer when the last three parameters are
//!   numbers, the last an integer, and the image is `-` or ends like a file name; otherwise the
//!   image is every word but the last two.
//!
//! # Errors and warnings
//!
//! Hard errors: a first line other than `GLEVNW01`, an empty file, a block (`SIGN`, `NPC`,
//! `BADDY`, `HEIGHTS`) without its `…END` line (the signature of a cut file; GServer would
//! swallow the rest of the file into it), and the [`Limits`]. Everything else
//! the games load in some way, so the reader keeps it and [`validate`] reports it: rows off the
//! board or with excess data, known keywords whose parameters do not parse (GServer skips them),
//! item and type names GServer does not know, the layer parameters GServer does not read,
//! chest sign indices without a sign, more than three verses, more than 50 baddies,
//! overlapping rows, and `HEIGHTS` grids that are not 9 × 9.
//!
//! # Not supported
//!
//! GS1/GS2 scripts are kept as text, not parsed. `GLVLNW01` and the server headers
//! (`GSERVL01`, `GWEBL001`) are refused: no sample or loader of them is available. The `#K(n)`
//! spelling GServer invents for characters outside the sign alphabet is plain text here.
//!
//! ```
//! use levelkit::formats::graal::nw;
//!
//! // The village made by `nw::samples::village`, written and read back.
//! let bytes = nw::samples::village().write()?;
//! assert!(bytes.starts_with(b"GLEVNW01\nBOARD 0 0 64 0 "));
//! let level = nw::Nw::read(&bytes)?;
//! assert_eq!(level.summary().links, 3);
//! assert!(level.validate().is_empty());
//! assert_eq!(level.write()?, bytes);
//!
//! // A spelling the editor would not write survives a round trip, and so does its CRLF.
//! let odd = b"GLEVNW01\r\nNPC - 30.0  05\r\nsay hi;\nNPCEND\r\n";
//! let level = nw::Nw::read(odd)?;
//! assert_eq!(level.write()?, odd);
//! let (graal, warnings) = level.to_level();
//! assert!(warnings.is_empty());
//! assert_eq!((graal.npcs[0].x, graal.npcs[0].y), (30.0, 5.0));
//! # Ok::<(), levelkit::Error>(())
//! ```

mod canonical;
mod codec;
mod level;
mod lex;
mod model;
mod read;
pub mod samples;
pub mod tilemap;
mod validate;
mod write;

use std::collections::BTreeMap;

pub(crate) use level::raw_sign_glyphs;
pub use level::{MAX_LAYERS, from_level, to_level};
pub use model::*;
pub use read::{read, read_with};
pub use tilemap::{nw_to_tilemap, tilemap_to_nw};
pub use validate::validate;
pub use write::write;

use crate::error::{Location, Result, Warning};
use crate::formats::graal::level::{BADDY_TYPES, CHEST_ITEMS, Level, sign_text};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Nw;

impl Nw {
    /// Read a file (see [`read`]).
    pub fn read(bytes: &[u8]) -> Result<Nw> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Nw> {
        read_with(bytes, limits)
    }

    /// Write the level.
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Check the level and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// Convert to the common tile-map model: the meaning (through [`to_level`]) plus the raw
    /// forms that make the way back exact (see [`tilemap`]).
    pub fn to_tilemap(&self) -> (crate::tilemap::TileMap, Vec<Warning>) {
        nw_to_tilemap(self)
    }

    /// The level a map (made by [`Nw::to_tilemap`] and maybe edited) stands for (see
    /// [`tilemap::tilemap_to_nw`]).
    pub fn from_tilemap(map: &crate::tilemap::TileMap) -> Result<(Nw, Vec<Warning>)> {
        tilemap_to_nw(map)
    }

    /// Convert to the shared Graal level model (see [`to_level`]).
    pub fn to_level(&self) -> (Level, Vec<Warning>) {
        to_level(self)
    }

    /// Build a level in the original editor's form (see [`from_level`]).
    pub fn from_level(level: &Level) -> (Nw, Vec<Warning>) {
        from_level(level)
    }

    /// The typed statements, in file order.
    pub fn statements(&self) -> impl Iterator<Item = &Statement> {
        self.statements.iter().map(|e| &e.statement)
    }
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// `"lf"` or `"crlf"` (the header line's).
    pub line_ending: &'static str,
    /// Whether the file ends with a line break.
    pub final_newline: bool,
    /// `BOARD` rows.
    pub board_rows: usize,
    /// Distinct layer numbers of the rows, ascending.
    pub layers: Vec<i32>,
    /// Links.
    pub links: usize,
    /// Signs.
    pub signs: usize,
    /// NPCs.
    pub npcs: usize,
    /// Chests.
    pub chests: usize,
    /// Baddies.
    pub baddies: usize,
    /// `TILESET`, `TILESETIMAGE` and `HEIGHTS` statements.
    pub extensions: usize,
    /// Lines kept verbatim that are not blank (unknown or unparsable statements).
    pub verbatim_lines: usize,
    /// Statements whose original spelling differs from the canonical one (kept for writing).
    pub respelled: usize,
}

impl Nw {
    /// Summarise the level.
    pub fn summary(&self) -> Summary {
        let count = |f: fn(&Statement) -> bool| self.statements().filter(|s| f(s)).count();
        let mut layers: Vec<i32> = self
            .statements()
            .filter_map(|s| match s {
                Statement::Board(r) => Some(r.layer),
                _ => None,
            })
            .collect();
        layers.sort_unstable();
        layers.dedup();
        Summary {
            line_ending: match self.line_ending {
                LineEnding::Lf => "lf",
                LineEnding::CrLf => "crlf",
            },
            final_newline: self.final_newline,
            board_rows: count(|s| matches!(s, Statement::Board(_))),
            layers,
            links: count(|s| matches!(s, Statement::Link(_))),
            signs: count(|s| matches!(s, Statement::Sign(_))),
            npcs: count(|s| matches!(s, Statement::Npc(_))),
            chests: count(|s| matches!(s, Statement::Chest(_))),
            baddies: count(|s| matches!(s, Statement::Baddy(_))),
            extensions: count(|s| {
                matches!(
                    s,
                    Statement::Tileset(_) | Statement::TilesetImage(_) | Statement::Heights(_)
                )
            }),
            verbatim_lines: count(
                |s| matches!(s, Statement::Verbatim(t) if !t.as_bytes().trim_ascii().is_empty()),
            ),
            respelled: self
                .statements
                .iter()
                .filter(|e| e.source.is_some())
                .count(),
        }
    }
}
