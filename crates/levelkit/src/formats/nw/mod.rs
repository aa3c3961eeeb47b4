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
//! `2 · width` kept), `LINK` (names with spaces, `playerx`/`playery`, TilesEditor's
//! `destLayer layer`), `SIGN`…`SIGNEND` (text with `#` escapes, as written), `NPC`…`NPCEND`
//! (image or `-`, optional layer, the script's lines), `CHEST` (item name or number, optional
//! layer), `BADDY`…`BADDYEND` (type name or number, optional layer, verse lines), `TILESET`,
//! `TILESETIMAGE` and `HEIGHTS`…`HEIGHTSEND` (its rows as lines; [`Heights::grid`] reads the
//! numbers). Unknown statements, blank lines and lines whose parameters do not parse stay in
//! place as [`Statement::Verbatim`] lines. Bytes are kept raw
//! ([`RawString`](crate::strings::RawString), Latin-1/Windows-1252 in practice).
//!
//! [`to_level`] and [`from_level`] convert to and from the [`Level`] shared with the binary
//! format, reporting whatever does not carry over; [`from_level`] writes the original editor's
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
//! use levelkit::formats::nw;
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

mod codec;
mod convert;
mod model;
mod read;
pub mod samples;
pub mod tilemap;
mod write;

use std::collections::BTreeMap;

pub use convert::{MAX_LAYERS, from_level, to_level};
pub use model::*;
pub use read::{read, read_with};
pub use tilemap::{nw_to_tilemap, tilemap_to_nw};
pub use write::write;

use crate::error::{Location, Result, Warning};
use crate::formats::graal::level::{self, BADDY_TYPES, CHEST_ITEMS, Level, sign_text};
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

/// Check a level and collect every finding, with its line and path.
///
/// Errors (the model cannot be written as it is): a statement that would not read back as
/// itself (a line break inside a name, a script line that ends its block, an unparsable
/// spelling) and a blank last line without a final line break. Warnings (the games load the
/// file, but not as it says): rows outside the board or with excess data, overlapping rows,
/// lines with a known keyword that do not parse, links outside the board, the layer parameters
/// GServer does not read, unknown or numeric chest items, chest sign indices without a sign,
/// baddy type names (GServer reads numbers) and numbers outside 0–9, more than three verses or
/// 50 baddies, sign characters without a glyph, and `HEIGHTS` grids that are not 9 × 9.
pub fn validate(nw: &Nw) -> Vec<Warning> {
    let mut out = Vec::new();
    let signs = nw
        .statements()
        .filter(|s| matches!(s, Statement::Sign(_)))
        .count();
    // Per layer, how many rows cover each cell (capped, like `to_level`).
    let mut cover: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    let mut line = 2usize;
    let mut scratch = Vec::new();
    for (index, entry) in nw.statements.iter().enumerate() {
        let loc = convert::at(index, line);
        line = line.saturating_add(write::entry_lines(entry));
        let mut warn = |message: String| out.push(Warning::warning(F, loc.clone(), message));
        scratch.clear();
        if let Err(why) = write::write_entry(&mut scratch, entry, nw.line_ending) {
            out.push(Warning::error(F, loc, format!("cannot be written: {why}")));
            continue;
        }
        match &entry.statement {
            Statement::Board(row) => {
                match convert::row_place(row) {
                    None => warn(format!(
                        "BOARD row at x {} y {}, {} wide, on layer {} is not inside the 64 x 64 \
                         board or is on a negative layer; GServer skips it",
                        row.x,
                        row.y,
                        row.width(),
                        row.layer
                    )),
                    Some((layer, x, y)) => {
                        if cover.contains_key(&layer) || cover.len() < MAX_LAYERS {
                            let cells = cover
                                .entry(layer)
                                .or_insert_with(|| vec![0; level::BOARD_CELLS]);
                            let start = y * level::BOARD_SIZE + x;
                            for c in cells.get_mut(start..start + row.width()).unwrap_or(&mut []) {
                                *c = c.saturating_add(1);
                            }
                        }
                    }
                }
                if !row.excess.is_empty() {
                    warn(format!(
                        "{} characters after the row's {} tiles are ignored by the games",
                        row.excess.len(),
                        row.width()
                    ));
                }
            }
            Statement::Link(l) => {
                let (x, y, w, h) = (
                    i64::from(l.x),
                    i64::from(l.y),
                    i64::from(l.width),
                    i64::from(l.height),
                );
                if x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > 64 || y + h > 64 {
                    warn(format!(
                        "link to {} covers x {x} y {y}, {w} x {h} tiles, which is not inside \
                         the board",
                        l.dest.display()
                    ));
                }
            }
            Statement::Sign(s) => {
                if s.layer.is_some() {
                    warn("GServer ignores signs that carry a layer (TilesEditor reads it)".into());
                }
                let text = s.text().to_latin1();
                let (_, unknown) = sign_text::from_text(&text);
                if !unknown.is_empty() {
                    let chars: String = unknown.iter().collect();
                    warn(format!(
                        "sign text has characters with no sign glyph: {chars:?}"
                    ));
                }
            }
            Statement::Npc(n) => {
                if n.layer.is_some() {
                    warn(
                        "GServer reads the NPC's layer as part of its image name \
                         (TilesEditor reads it as the layer)"
                            .into(),
                    );
                }
            }
            Statement::Chest(c) => {
                match &c.item {
                    NameOrNumber::Name(_) => {
                        if let Err(why) = convert::chest_item(&c.item) {
                            warn(format!("{why}; GServer drops the chest"));
                        }
                    }
                    NameOrNumber::Number(n) => {
                        let known = usize::try_from(*n).is_ok_and(|i| i < CHEST_ITEMS.len());
                        warn(format!(
                            "chest item is the number {n}{}; GServer reads only item names and \
                             drops the chest (TilesEditor reads numbers)",
                            if known { "" } else { ", which is no item id" }
                        ));
                    }
                }
                if c.layer.is_some() {
                    warn("GServer ignores chests that carry a layer (TilesEditor reads it)".into());
                }
                if c.sign < -1 || usize::try_from(c.sign).is_ok_and(|i| i >= signs) {
                    warn(format!(
                        "chest shows sign {}, but the level has {signs} signs",
                        c.sign
                    ));
                }
            }
            Statement::Baddy(b) => {
                match &b.kind {
                    NameOrNumber::Name(name) => match convert::baddy_kind(&b.kind) {
                        Ok(_) => warn(format!(
                            "baddy type is the name {}; GServer needs a number and reads a \
                             name as 0 ({})",
                            name.display(),
                            BADDY_TYPES.first().unwrap_or(&"")
                        )),
                        Err(why) => warn(why),
                    },
                    NameOrNumber::Number(n) => {
                        if !(0..10).contains(n) {
                            warn(format!("baddy type {n} is not one of the 10 types (0-9)"));
                        }
                    }
                }
                if b.layer.is_some() {
                    warn(
                        "GServer ignores baddies that carry a layer (TilesEditor reads it)".into(),
                    );
                }
                if b.verses.len() > 3 {
                    warn(format!(
                        "{} verse lines; a baddy has three (sight, hurt, attack)",
                        b.verses.len()
                    ));
                }
            }
            Statement::Heights(h) => match h.grid() {
                None => warn("HEIGHTS rows are not comma-separated numbers".into()),
                Some(grid) if grid.len() != 9 || grid.iter().any(|r| r.len() != 9) => {
                    warn(format!(
                        "HEIGHTS grid has {} rows of {:?} values; the known grids are 9 x 9",
                        grid.len(),
                        grid.iter().map(Vec::len).collect::<Vec<_>>()
                    ))
                }
                Some(_) => {}
            },
            Statement::Verbatim(text) => {
                if let Some(reason) = read::verbatim_reason(text.as_bytes()) {
                    warn(format!(
                        "not read as a statement: {reason}; GServer skips it too"
                    ));
                }
            }
            Statement::Tileset(_) | Statement::TilesetImage(_) => {}
        }
    }
    if !nw.final_newline {
        if let Some(last) = nw.statements.last() {
            scratch.clear();
            if write::write_entry(&mut scratch, last, nw.line_ending).is_ok() && scratch == b"\n" {
                out.push(Warning::error(
                    F,
                    Location::path("final_newline"),
                    "the last line is empty and has no line break, so it is no line at all",
                ));
            }
        }
    }
    for (layer, cells) in &cover {
        let twice = cells.iter().filter(|&&c| c > 1).count();
        if twice > 0 {
            out.push(Warning::warning(
                F,
                Location::path("statements"),
                format!(
                    "{twice} cells of layer {layer} are covered by more than one BOARD row; the \
                     later row wins"
                ),
            ));
        }
    }
    let baddies = nw
        .statements()
        .filter(|s| matches!(s, Statement::Baddy(_)))
        .count();
    if baddies > 50 {
        out.push(Warning::warning(
            F,
            Location::path("statements"),
            format!("{baddies} baddies; GServer loads at most 50 per level"),
        ));
    }
    out
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
