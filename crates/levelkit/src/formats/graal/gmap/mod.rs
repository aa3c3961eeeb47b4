//! GMAP: Graal Online overworlds (`.gmap`, signature `GRMAP001`).
//!
//! A `.gmap` is text: a grid of level names that the server and the client stitch into one big
//! map, each level a 64 × 64 tile (1024 × 1024 pixel) square at its grid position.
//!
//! ```text
//! GRMAP001
//! WIDTH 2
//! HEIGHT 2
//! LEVELNAMES
//! "world_a1.nw","world_b1.nw"
//! "world_a2.nw",
//! LEVELNAMESEND
//! ```
//!
//! # Sources, and where they disagree
//!
//! There is no written spec; these parsers were read (search tool, public repositories):
//!
//! * GServer-v2 (`xtjoeytx/GServer-v2`, `server/src/level/Map.cpp`, `Map::loadGMap`): the
//!   server's reader. Strips `\r`, splits a line into words; `WIDTH`, `HEIGHT`, `MAPIMG`,
//!   `MINIMAPIMG` need exactly two words (other lines with those keywords are ignored);
//!   `GENERATED` is read and ignored; `NOAUTOMAPPING` is client-only; `LOADFULLMAP` loads every
//!   level; `LEVELNAMES` rows are trimmed, **blank rows skipped**, split as CSV with quotes
//!   (`guntokenize`: quoted names may hold commas), names beyond `WIDTH` and rows beyond
//!   `HEIGHT` ignored, names **lower-cased**; the close line is compared after trimming.
//!   `LOADATSTART` … `LOADATSTARTEND` lists levels to preload (and turns `LOADFULLMAP` off).
//!   It does not require the `GRMAP001` line. (Its `LOADATSTART` loop never advances to the
//!   next line, so a server reading such a block would hang: a bug there, not a format rule.)
//! * TilesEditor (`Overworld::loadGMapStream`): skips the first line whatever it holds (the
//!   signature), splits at single spaces, reads `WIDTH`, `HEIGHT`, `TILESET` (which it moves to
//!   the end when saving) and `LEVELNAMES`; rows are CSV (`StringTools::ParseCSV`), empty
//!   cells leave a hole, and **a blank row still counts as a row**; the close line must be
//!   exactly `LEVELNAMESEND`. It writes `GRMAP001` and the lines it read, with its own line
//!   endings.
//! * The older GServer (`CMap::loadMap`): removes every `"` and trims each name, counts only
//!   non-empty rows as the height.
//! * Scripts that generate or read gmaps (PHP and C# generators, Python bots): write quoted
//!   names with commas, some with a trailing comma, and strip quotes, trailing commas and
//!   spaces when reading.
//!
//! levelkit reads what all of them accept: LF, CRLF or mixed line endings, quoted and unquoted
//! names, spaces after commas, trailing commas (a last empty cell), empty cells, blank lines,
//! a missing signature line, and any line it does not know (kept verbatim). Keywords are upper
//! case, as every parser compares them exactly. Grid positions follow GServer-v2 (blank rows
//! skipped), and [`validate()`] warns where TilesEditor would place levels differently. There
//! is no `.gmap` in the corpus and no public real one with a licence that allows copying; the
//! tests use files made by our writer in every form the parsers accept.
//!
//! # Byte-exactness
//!
//! An unchanged file is written back byte for byte: each line keeps its text as `raw` only
//! where it differs from the canonical spelling, line endings are kept per line ([`Layout`]).
//! A model built from scratch ([`Gmap::new`]) is written canonically with `GRMAP001` and LF.
//!
//! The levels themselves are other files; [`Gmap::validate_levels`] reports the ones missing,
//! with their grid position, through a lookup the caller provides.
//!
//! ```
//! use levelkit::formats::graal::gmap::{self, Gmap};
//!
//! let bytes = b"GRMAP001\r\nWIDTH 2\r\nHEIGHT 1\r\nLEVELNAMES\r\n\"a.nw\", b.nw,\r\nLEVELNAMESEND\r\n";
//! let map = Gmap::read(bytes)?;
//! assert_eq!(map.grid().size(), Some((2, 1)));
//! assert_eq!(map.grid().cells[1].name.display(), "b.nw");
//! assert_eq!(map.write()?, bytes); // byte for byte
//!
//! let missing = map.validate_levels(&mut |name| name == "a.nw");
//! assert_eq!(missing.len(), 1);
//! assert!(missing[0].message.contains("(1,0)"));
//! # Ok::<(), levelkit::Error>(())
//! ```

mod codec;
mod dump;
mod lex;
mod model;
mod read;
pub mod samples;
mod validate;
mod write;

use std::collections::BTreeSet;

pub use model::*;
pub use read::{read, read_with};
pub use validate::validate;
pub use write::write;

use crate::error::{Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gmap;

impl Gmap {
    /// An overworld of `width` × `height` with the given rows of names (empty strings are
    /// holes), written canonically with the `GRMAP001` signature and LF line endings.
    pub fn new(width: u32, height: u32, rows: &[Vec<&str>]) -> Gmap {
        Gmap {
            header: Some(RawString::from("GRMAP001")),
            statements: vec![
                Statement::Setting(Setting::new(SettingKind::Width, &width.to_string())),
                Statement::Setting(Setting::new(SettingKind::Height, &height.to_string())),
                Statement::Names(NameBlock::new(BlockKind::LevelNames, rows)),
            ],
            layout: Layout::default(),
        }
    }

    /// Read a file (see [`read()`]).
    pub fn read(bytes: &[u8]) -> Result<Gmap> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Gmap> {
        read_with(bytes, limits)
    }

    /// Write the file (see [`write()`]).
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Check the file and collect every finding (see [`validate()`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// The value of the last setting of `kind` (GServer keeps the last one).
    pub fn setting(&self, kind: SettingKind) -> Option<&RawString> {
        self.statements.iter().rev().find_map(|s| match s {
            Statement::Setting(s) if s.kind == kind => Some(&s.value),
            _ => None,
        })
    }

    /// Whether a flag line is present.
    pub fn flag(&self, kind: FlagKind) -> bool {
        self.statements
            .iter()
            .any(|s| matches!(s, Statement::Flag(f) if f.kind == kind))
    }

    /// The last block of `kind` (GServer rebuilds its grid at each `LEVELNAMES`).
    pub fn block(&self, kind: BlockKind) -> Option<&NameBlock> {
        self.statements.iter().rev().find_map(|s| match s {
            Statement::Names(b) if b.kind == kind => Some(b),
            _ => None,
        })
    }

    /// The grid as GServer-v2 sees it: `WIDTH` and `HEIGHT`, and every non-empty name of the
    /// last `LEVELNAMES` block at its position (blank rows skipped, names kept as written;
    /// names beyond the width or height are listed too, and [`validate()`] warns about them).
    pub fn grid(&self) -> Grid {
        let number = |kind| {
            self.setting(kind)
                .and_then(|v| std::str::from_utf8(v.as_bytes()).ok())
                .and_then(|v| v.parse::<u32>().ok())
        };
        let mut cells = Vec::new();
        if let Some(block) = self.block(BlockKind::LevelNames) {
            let rows = block.rows.iter().filter(|r| !r.is_blank());
            for (y, row) in (0u32..).zip(rows) {
                for (x, cell) in (0u32..).zip(&row.cells) {
                    if !cell.name.is_empty() {
                        cells.push(GridCell {
                            x,
                            y,
                            name: cell.name.clone(),
                        });
                    }
                }
            }
        }
        Grid {
            width: number(SettingKind::Width),
            height: number(SettingKind::Height),
            cells,
        }
    }

    /// The levels of the grid whose file `exists` does not find, as warnings naming each one
    /// with its grid position `(x,y)`. `exists` gets the name as written in the file.
    pub fn validate_levels(&self, exists: &mut dyn FnMut(&str) -> bool) -> Vec<Warning> {
        let mut findings = Vec::new();
        for cell in self.grid().cells {
            let name = cell.name.to_latin1();
            if !exists(&name) {
                findings.push(Warning::warning(
                    F,
                    Location::path(format!("levels[{},{}]", cell.x, cell.y)),
                    format!(
                        "level ({},{}) {name}: no such file beside the gmap",
                        cell.x, cell.y
                    ),
                ));
            }
        }
        findings
    }
}

/// The grid of a gmap: its declared size and the names placed on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// `WIDTH`, when it is a number.
    pub width: Option<u32>,
    /// `HEIGHT`, when it is a number.
    pub height: Option<u32>,
    /// The non-empty names, row by row.
    pub cells: Vec<GridCell>,
}

impl Grid {
    /// `(WIDTH, HEIGHT)` when both are numbers.
    pub fn size(&self) -> Option<(u32, u32)> {
        Some((self.width?, self.height?))
    }

    /// The name at `(x, y)`.
    pub fn at(&self, x: u32, y: u32) -> Option<&RawString> {
        self.cells
            .iter()
            .find(|c| c.x == x && c.y == y)
            .map(|c| &c.name)
    }

    /// The extent the names need: one more than the largest x and y (0 × 0 for none).
    pub fn extent(&self) -> (u32, u32) {
        self.cells.iter().fold((0, 0), |(w, h), c| {
            (w.max(c.x.saturating_add(1)), h.max(c.y.saturating_add(1)))
        })
    }
}

/// One level of the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCell {
    /// Column, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
    /// The level's file name as written.
    pub name: RawString,
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// The signature line (`GRMAP001`), or `None` without one.
    pub header: Option<String>,
    /// `WIDTH` as written.
    pub width: Option<String>,
    /// `HEIGHT` as written.
    pub height: Option<String>,
    /// Names on the grid (cells that are not empty).
    pub levels: usize,
    /// Different names on the grid, compared without case as GServer does.
    pub distinct_levels: usize,
    /// `TILESET`.
    pub tileset: Option<String>,
    /// `MAPIMG`.
    pub map_img: Option<String>,
    /// `MINIMAPIMG`.
    pub minimap_img: Option<String>,
    /// The flag lines present.
    pub flags: Vec<&'static str>,
    /// Names in the `LOADATSTART` block.
    pub load_at_start: Option<usize>,
    /// Lines kept verbatim because levelkit does not recognise them.
    pub unknown_lines: usize,
    /// `"lf"`, `"crlf"`, or `"mixed"`.
    pub line_endings: &'static str,
}

impl Gmap {
    /// Summarise the overworld.
    pub fn summary(&self) -> Summary {
        let grid = self.grid();
        let distinct: BTreeSet<Vec<u8>> = grid
            .cells
            .iter()
            .map(|c| c.name.as_bytes().to_ascii_lowercase())
            .collect();
        let text = |kind| self.setting(kind).map(RawString::display);
        Summary {
            header: self.header.as_ref().map(RawString::display),
            width: text(SettingKind::Width),
            height: text(SettingKind::Height),
            levels: grid.cells.len(),
            distinct_levels: distinct.len(),
            tileset: text(SettingKind::Tileset),
            map_img: text(SettingKind::MapImg),
            minimap_img: text(SettingKind::MiniMapImg),
            flags: FlagKind::ALL
                .into_iter()
                .filter(|&k| self.flag(k))
                .map(FlagKind::keyword)
                .collect(),
            load_at_start: self.block(BlockKind::LoadAtStart).map(|b| {
                b.rows
                    .iter()
                    .flat_map(|r| &r.cells)
                    .filter(|c| !c.name.is_empty())
                    .count()
            }),
            unknown_lines: self
                .statements
                .iter()
                .filter(|s| matches!(s, Statement::Unknown(_)))
                .count(),
            line_endings: match (
                self.layout.line_ending,
                self.layout.other_endings.is_empty(),
            ) {
                (_, false) => "mixed",
                (LineEnding::Lf, true) => "lf",
                (LineEnding::CrLf, true) => "crlf",
            },
        }
    }
}
