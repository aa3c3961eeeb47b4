//! The lossless `.nw` model: the file is a list of statements in file order, each with its
//! typed values and, when the file spelled it differently from the canonical form, the
//! statement's original lines.
//!
//! Typed values are what a program edits; the original lines are what makes an unchanged file
//! come back byte for byte (`27.5` stays `27.5`, `05` stays `05`, a CRLF line inside an LF file
//! keeps its CR). The writer uses a statement's original lines only while they still parse to
//! exactly its typed values, so editing a value never writes stale text.

use serde::{Deserialize, Serialize};

pub use crate::strings::LineEnding;

use crate::strings::RawString;

/// The first line of every `.nw` file.
pub const MAGIC: &[u8] = b"GLEVNW01";

/// Width and height of a board, in tiles.
pub const BOARD_SIZE: i32 = 64;

/// Largest tile index a `BOARD` row can hold (two base64 digits: `64 · 63 + 63`).
pub const MAX_TILE: u16 = 4095;

/// The base64 digits of `BOARD` data, by value.
pub const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Keywords of the statements this model types, in the order of the notes' table.
pub const KEYWORDS: [&str; 9] = [
    "BOARD",
    "LINK",
    "SIGN",
    "NPC",
    "CHEST",
    "BADDY",
    "TILESET",
    "TILESETIMAGE",
    "HEIGHTS",
];

/// A whole `.nw` level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nw {
    /// The line break after the `GLEVNW01` line, used for every statement written canonically.
    pub line_ending: LineEnding,
    /// Whether the file ends with a line break (the last line of a file without one cannot be
    /// empty: such a file would read back without that line).
    #[serde(default = "yes")]
    pub final_newline: bool,
    /// The statements after the header line, in file order, blank and unknown lines included.
    pub statements: Vec<Entry>,
}

fn yes() -> bool {
    true
}

impl Default for Nw {
    fn default() -> Self {
        Nw {
            line_ending: LineEnding::Lf,
            final_newline: true,
            statements: Vec::new(),
        }
    }
}

/// One statement and, when the file spelled it differently from the canonical form, its
/// original lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The typed statement. In JSON its variant name is a key of the entry object:
    /// `{"board": {…}}`, `{"verbatim": "…", "source": "…"}`.
    #[serde(flatten)]
    pub statement: Statement,
    /// The statement's lines exactly as read, every line with its line break, when they differ
    /// from what the writer would produce for `statement`. The writer emits them as long as they
    /// parse to exactly `statement`, and writes `statement` canonically otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<RawString>,
}

impl Entry {
    /// A statement to be written canonically.
    pub fn new(statement: Statement) -> Self {
        Entry {
            statement,
            source: None,
        }
    }
}

impl From<Statement> for Entry {
    fn from(statement: Statement) -> Self {
        Entry::new(statement)
    }
}

/// Every statement of graal-notes §3, plus lines kept verbatim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statement {
    /// `BOARD x y width layer data`.
    Board(BoardRow),
    /// `LINK dest x y width height destX destY [destLayer layer]`.
    Link(Link),
    /// `SIGN x y [layer]`, text lines, `SIGNEND`.
    Sign(Sign),
    /// `NPC image x y [layer]`, script lines, `NPCEND`.
    Npc(Npc),
    /// `CHEST x y item signIndex [layer]`.
    Chest(Chest),
    /// `BADDY x y type [layer]`, verse lines, `BADDYEND`.
    Baddy(Baddy),
    /// `TILESET name` (TilesEditor).
    Tileset(Tileset),
    /// `TILESETIMAGE file` (TilesEditor).
    TilesetImage(TilesetImage),
    /// `HEIGHTS`, rows of comma-separated numbers, `HEIGHTSEND`.
    Heights(Heights),
    /// A line kept exactly as it is, without its line break: a blank line, an unknown statement,
    /// or a known keyword whose parameters do not parse (see [`super::validate`], which says why;
    /// GServer skips such lines too). The body lines of a block whose first line does not parse
    /// are verbatim lines of their own, as GServer reads them.
    Verbatim(RawString),
}

impl Statement {
    /// The statement's keyword (`"BOARD"`, …), or `None` for a verbatim line.
    pub fn keyword(&self) -> Option<&'static str> {
        Some(match self {
            Statement::Board(_) => "BOARD",
            Statement::Link(_) => "LINK",
            Statement::Sign(_) => "SIGN",
            Statement::Npc(_) => "NPC",
            Statement::Chest(_) => "CHEST",
            Statement::Baddy(_) => "BADDY",
            Statement::Tileset(_) => "TILESET",
            Statement::TilesetImage(_) => "TILESETIMAGE",
            Statement::Heights(_) => "HEIGHTS",
            Statement::Verbatim(_) => return None,
        })
    }
}

/// One run of tiles in one row of one layer. The row's width is the number of tiles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRow {
    /// First column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Layer (0 = ground; TilesEditor and GServer write higher layers).
    pub layer: i32,
    /// Tile indices 0–[`MAX_TILE`], one per column from `x` on (at least one).
    pub tiles: Vec<u16>,
    /// Characters after the `2 · width` the row uses (the games ignore them; kept).
    #[serde(default, skip_serializing_if = "RawString::is_empty")]
    pub excess: RawString,
}

impl BoardRow {
    /// The row's width, in tiles.
    pub fn width(&self) -> usize {
        self.tiles.len()
    }
}

/// A link destination coordinate: any word, kept as written (`30`, `15.50`, `playerx+25`);
/// the level meaning's [`LinkCoord`](crate::formats::graal::level::LinkCoord), a string in JSON.
pub use crate::formats::graal::level::LinkCoord as Coord;

/// TilesEditor's link-layer extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkLayers {
    /// Layer the player arrives on.
    pub dest_layer: i32,
    /// Layer the link is on.
    pub layer: i32,
}

/// A level link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Destination level; may contain single spaces (see the module docs for how the reader
    /// tells them from the layer extension).
    pub dest: RawString,
    /// Left, in tiles.
    pub x: i32,
    /// Top, in tiles.
    pub y: i32,
    /// Width, in tiles.
    pub width: i32,
    /// Height, in tiles.
    pub height: i32,
    /// Destination x.
    pub dest_x: Coord,
    /// Destination y.
    pub dest_y: Coord,
    /// TilesEditor's `destLayer layer` extension, if present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<LinkLayers>,
}

/// A sign and its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sign {
    /// x, in tiles.
    pub x: f64,
    /// y, in tiles.
    pub y: f64,
    /// Layer (TilesEditor), if given. GServer ignores signs that carry one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<i32>,
    /// The text lines between `SIGN` and `SIGNEND`, with `#` escapes as written
    /// (see [`crate::formats::graal::level::sign_text`]).
    pub lines: Vec<RawString>,
}

impl Sign {
    /// The text: the lines joined with `\n`, escapes as written.
    pub fn text(&self) -> RawString {
        join_lines(&self.lines)
    }
}

/// Lines joined with `\n`.
pub fn join_lines(lines: &[RawString]) -> RawString {
    let mut out = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        out.extend_from_slice(line.as_bytes());
    }
    RawString(out)
}

/// An NPC.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Npc {
    /// Image file name; `None` is written `-`. May contain single spaces (GServer's reading).
    pub image: Option<RawString>,
    /// x, in tiles.
    pub x: f64,
    /// y, in tiles.
    pub y: f64,
    /// Layer (TilesEditor), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<i32>,
    /// The script lines between `NPC` and `NPCEND`.
    pub script: Vec<RawString>,
}

impl Npc {
    /// The script: its lines joined with `\n`.
    pub fn script_text(&self) -> RawString {
        join_lines(&self.script)
    }
}

/// A chest item or baddy type: a name or a number, as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum NameOrNumber {
    /// A decimal integer.
    Number(i32),
    /// A name (`greenrupee`, `graysoldier`).
    Name(RawString),
}

/// A chest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chest {
    /// x, in tiles.
    pub x: f64,
    /// y, in tiles.
    pub y: f64,
    /// The item: a name from [`crate::formats::graal::level::CHEST_ITEMS`] (what GServer reads)
    /// or an id (TilesEditor also accepts these).
    pub item: NameOrNumber,
    /// Index of the sign shown when the chest opens (−1 is presumably "none").
    pub sign: i32,
    /// Layer (TilesEditor), if given. GServer ignores chests that carry one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<i32>,
}

/// A baddy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baddy {
    /// x, in tiles.
    pub x: f64,
    /// y, in tiles.
    pub y: f64,
    /// The type: a number 0–9 (what GServer reads) or a name from
    /// [`crate::formats::graal::level::BADDY_TYPES`] (pygserver samples, TilesEditor).
    pub kind: NameOrNumber,
    /// Layer (TilesEditor), if given. GServer ignores baddies that carry one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<i32>,
    /// The lines between `BADDY` and `BADDYEND`: up to three verses (sight, hurt, attack).
    pub verses: Vec<RawString>,
}

/// `TILESET name`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tileset {
    /// The tileset's name (one word).
    pub name: RawString,
}

/// `TILESETIMAGE file`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TilesetImage {
    /// The image file (one word).
    pub file: RawString,
}

/// `HEIGHTS` … `HEIGHTSEND`: a height grid (9 rows of 9 comma-separated numbers in the files
/// OpenGraal knows). The rows are kept as lines, so a grid in any shape round-trips; [`grid`]
/// reads the numbers.
///
/// [`grid`]: Heights::grid
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Heights {
    /// The lines between `HEIGHTS` and `HEIGHTSEND`.
    pub rows: Vec<RawString>,
}

impl Heights {
    /// The numbers of each row, or `None` if a cell is not a decimal number.
    pub fn grid(&self) -> Option<Vec<Vec<f64>>> {
        self.rows
            .iter()
            .map(|row| {
                row.as_bytes()
                    .split(|&b| b == b',')
                    .map(|cell| super::lex::number(cell.trim_ascii(), "").ok())
                    .collect()
            })
            .collect()
    }
}
