//! The lossless `.gmap` model: the signature line and every line after it in file order, each
//! with its typed values and, where the file did not write it the way levelkit would, the line as
//! it was.
//!
//! Each line-shaped item carries `raw: Option<RawString>`: the line exactly as read (without its
//! line break), kept **only** when it differs from the canonical spelling of the item's values
//! (spaces after commas, spaces around a keyword, a lower-case keyword). The writer re-emits
//! `raw` while it still reads back as the item's values and writes the canonical spelling once
//! they have been edited (the scheme of `.gani`, see `gani/model.rs`).

use serde::{Deserialize, Serialize};

pub use crate::strings::LineEnding;

use crate::strings::RawString;

/// Pixels per Graal level side: 64 tiles of 16 pixels.
pub const LEVEL_PIXELS: u32 = 1024;

/// Tiles per Graal level side.
pub const LEVEL_TILES: u32 = 64;

/// A whole `.gmap` overworld.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gmap {
    /// The first line when it starts with `GRMAP` (`GRMAP001` in every known writer); `None`
    /// for a file that starts directly with its statements (GServer reads those too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<RawString>,
    /// Every line after the header, in file order.
    pub statements: Vec<Statement>,
    /// Line breaks.
    #[serde(default, skip_serializing_if = "Layout::is_default")]
    pub layout: Layout,
}

/// How the file's lines end.
pub use crate::strings::LineLayout as Layout;

/// One line or block after the header, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statement {
    /// An empty line (or one of only spaces and tabs).
    Blank(Blank),
    /// A keyword with one value: `WIDTH 3`, `HEIGHT 2`, `MAPIMG map.png`, `TILESET pics1.png`.
    Setting(Setting),
    /// A keyword alone: `NOAUTOMAPPING`, `LOADFULLMAP`.
    Flag(Flag),
    /// `LEVELNAMES` … `LEVELNAMESEND` or `LOADATSTART` … `LOADATSTARTEND`: rows of level names.
    Names(NameBlock),
    /// A line levelkit does not recognise (`GENERATED …`, a newer client's keyword), kept
    /// verbatim.
    Unknown(Unknown),
}

/// An empty line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Blank {
    /// The line as read, when it holds spaces or tabs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// The keywords that take one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettingKind {
    /// `WIDTH n`: levels per row.
    Width,
    /// `HEIGHT n`: rows.
    Height,
    /// `MAPIMG file`: the big map image the client shows.
    MapImg,
    /// `MINIMAPIMG file`: the minimap image.
    MiniMapImg,
    /// `TILESET file`: TilesEditor's tileset for the whole overworld.
    Tileset,
}

impl SettingKind {
    /// Every setting keyword.
    pub const ALL: [SettingKind; 5] = [
        SettingKind::Width,
        SettingKind::Height,
        SettingKind::MapImg,
        SettingKind::MiniMapImg,
        SettingKind::Tileset,
    ];

    /// The keyword as written.
    pub fn keyword(self) -> &'static str {
        match self {
            SettingKind::Width => "WIDTH",
            SettingKind::Height => "HEIGHT",
            SettingKind::MapImg => "MAPIMG",
            SettingKind::MiniMapImg => "MINIMAPIMG",
            SettingKind::Tileset => "TILESET",
        }
    }
}

/// `KEYWORD value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// Which keyword.
    pub kind: SettingKind,
    /// The value: everything after the keyword and its spaces, trailing spaces removed.
    pub value: RawString,
    /// The line as read, when it is not `KEYWORD value` with one space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

impl Setting {
    /// A setting without raw text.
    pub fn new(kind: SettingKind, value: &str) -> Self {
        Setting {
            kind,
            value: RawString::from(value),
            raw: None,
        }
    }
}

/// The keywords that stand alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagKind {
    /// `NOAUTOMAPPING`: the client does not draw the map as the player explores (client only).
    NoAutoMapping,
    /// `LOADFULLMAP`: the server loads every level at start.
    LoadFullMap,
}

impl FlagKind {
    /// Every flag keyword.
    pub const ALL: [FlagKind; 2] = [FlagKind::NoAutoMapping, FlagKind::LoadFullMap];

    /// The keyword as written.
    pub fn keyword(self) -> &'static str {
        match self {
            FlagKind::NoAutoMapping => "NOAUTOMAPPING",
            FlagKind::LoadFullMap => "LOADFULLMAP",
        }
    }
}

/// A keyword alone on its line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flag {
    /// Which keyword.
    pub kind: FlagKind,
    /// The line as read, when it is not the bare keyword.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// The two blocks of names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockKind {
    /// `LEVELNAMES` … `LEVELNAMESEND`: the grid, one row per line.
    LevelNames,
    /// `LOADATSTART` … `LOADATSTARTEND`: the levels the server loads first.
    LoadAtStart,
}

impl BlockKind {
    /// Both kinds.
    pub const ALL: [BlockKind; 2] = [BlockKind::LevelNames, BlockKind::LoadAtStart];

    /// The opening keyword.
    pub fn open(self) -> &'static str {
        match self {
            BlockKind::LevelNames => "LEVELNAMES",
            BlockKind::LoadAtStart => "LOADATSTART",
        }
    }

    /// The closing keyword.
    pub fn close(self) -> &'static str {
        match self {
            BlockKind::LevelNames => "LEVELNAMESEND",
            BlockKind::LoadAtStart => "LOADATSTARTEND",
        }
    }
}

/// A block of rows of names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameBlock {
    /// Which block.
    pub kind: BlockKind,
    /// The rows between the opening and the closing line, one per line.
    pub rows: Vec<Row>,
    /// The opening line as read, when it is not the bare keyword.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_raw: Option<RawString>,
    /// The closing line as read, when it is not the bare keyword.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_raw: Option<RawString>,
}

impl NameBlock {
    /// A block of unquoted names, one row per inner list (empty strings are empty cells).
    pub fn new(kind: BlockKind, rows: &[Vec<&str>]) -> Self {
        NameBlock {
            kind,
            rows: rows
                .iter()
                .map(|r| Row {
                    cells: r.iter().map(|n| Cell::new(n)).collect(),
                    raw: None,
                })
                .collect(),
            open_raw: None,
            close_raw: None,
        }
    }
}

/// One line of names, split at commas outside quotes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The cells in order; a line with nothing but spaces has none, and a trailing comma
    /// makes a last empty cell.
    pub cells: Vec<Cell>,
    /// The line as read, when it differs from the cells joined by commas (spaces after
    /// commas, for instance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

impl Row {
    /// Whether the row is a blank line (no cells), which GServer skips.
    pub fn is_blank(&self) -> bool {
        self.cells.is_empty()
    }
}

/// One name of a row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// The name without quotes and surrounding spaces; empty for an empty grid cell.
    pub name: RawString,
    /// Whether the name was written in double quotes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quoted: bool,
}

impl Cell {
    /// An unquoted name.
    pub fn new(name: &str) -> Self {
        Cell {
            name: RawString::from(name),
            quoted: false,
        }
    }
}

/// A line kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unknown {
    /// The line as read.
    pub text: RawString,
}
