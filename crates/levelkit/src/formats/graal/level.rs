//! The meaning of a Graal level, shared by the binary (`.zelda`/`.graal`) and text (`.nw`)
//! formats: boards of tiles, links, baddies, NPCs, chests and signs, with numbers as numbers and
//! sign text as glyph codes. Conversions between the two file formats go through this model;
//! each file model keeps its own encoding choices for byte-exact writing.

use serde::{Deserialize, Serialize};

use crate::strings::RawString;

/// Width and height of a board, in tiles.
pub const BOARD_SIZE: usize = 64;
/// Cells of a board.
pub const BOARD_CELLS: usize = BOARD_SIZE * BOARD_SIZE;
/// A transparent cell on an upper layer (`.nw` leaves it out; GR-V1.05 writes 0xFFF).
pub const TILE_TRANSPARENT: u16 = 0xFFFF;

/// A level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// Board layers, bottom first. Layer 0 always exists in a level read from a file.
    pub layers: Vec<Board>,
    /// Level links.
    pub links: Vec<Link>,
    /// Baddies.
    pub baddies: Vec<Baddy>,
    /// NPCs.
    pub npcs: Vec<Npc>,
    /// Chests.
    pub chests: Vec<Chest>,
    /// Signs.
    pub signs: Vec<Sign>,
}

/// One 64 × 64 layer of tile indices (0–4095 into the 128 × 32 atlas, or
/// [`TILE_TRANSPARENT`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Layer number (0 = ground).
    pub layer: u32,
    /// Row-major tile indices, exactly [`BOARD_CELLS`] of them.
    pub tiles: Vec<u16>,
}

impl Board {
    /// A board filled with `tile`.
    pub fn filled(layer: u32, tile: u16) -> Self {
        Board {
            layer,
            tiles: vec![tile; BOARD_CELLS],
        }
    }

    /// The tile at column `x`, row `y`.
    pub fn get(&self, x: usize, y: usize) -> Option<u16> {
        if x >= BOARD_SIZE {
            return None;
        }
        self.tiles
            .get(y.checked_mul(BOARD_SIZE)?.checked_add(x)?)
            .copied()
    }
}

/// Position of a tile index in the 128 × 32 atlas of 16-px tiles: `(column, row)`.
pub fn atlas_position(index: u16) -> (u16, u16) {
    let i = index;
    ((i / 512) * 16 + i % 16, (i / 16) % 32)
}

/// Format a number the way level files write it: `30`, `27.5`, `-1`.
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// A link destination coordinate, exactly as the level writes it: one word such as `30`,
/// `15.50`, `playerx`, `playery-9` or `playerx+25`.
///
/// Sources: `shared/specs/graal-notes.md` §1.1 says a destination is a number or
/// `playerx`/`playery`; GServer-v2 (`server/src/TLevelLink.cpp`, `parseLinkStr`/`getLinkStr`)
/// and OpenGraal (`Link(… string NewX, string NewY)`) keep it as a string the client evaluates.
/// The real files side with the string: `graal/expression-links/` (and 138 of about 2,900
/// classic levels) hold `playerx+15`, `playery-23`, `playerx-10` and `11.5`. So the word is kept
/// byte for byte in every format (`15.50` stays `15.50`; `.nw` and binary write it as it is,
/// JSON as a string, Tiled as a string property), and [`LinkCoord::meaning`] is its numeric
/// meaning where it has one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LinkCoord(pub RawString);

/// What a [`LinkCoord`] means, where it has a numeric meaning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CoordMeaning {
    /// A number of tiles (may be fractional).
    Tiles(f64),
    /// The player's x plus an offset in tiles (`playerx`, `playerx+25`, `playerx-2`).
    PlayerX(f64),
    /// The player's y plus an offset in tiles (`playery`, `playery-9`).
    PlayerY(f64),
}

impl LinkCoord {
    /// A number of tiles, written the shortest way (`30`, `27.5`).
    pub fn tiles(v: f64) -> Self {
        LinkCoord(RawString::from(format_number(v).as_bytes()))
    }

    /// `playerx`: keep the player's x.
    pub fn player_x() -> Self {
        LinkCoord(RawString::from(&b"playerx"[..]))
    }

    /// `playery`: keep the player's y.
    pub fn player_y() -> Self {
        LinkCoord(RawString::from(&b"playery"[..]))
    }

    /// A coordinate word, or `None` when `word` is not one word (empty, or with a space, tab,
    /// `\r` or `\n`: level files split words there).
    pub fn word(word: &[u8]) -> Option<Self> {
        let ok = !word.is_empty()
            && !word
                .iter()
                .any(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
        ok.then(|| LinkCoord(RawString::from(word)))
    }

    /// The bytes, as written.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// The numeric meaning: a decimal number (`[+-]digits[.digits]`, or `.5`), or `playerx` /
    /// `playery` optionally followed by `+` or `-` and such a number. `None` for other words.
    pub fn meaning(&self) -> Option<CoordMeaning> {
        let b = self.as_bytes();
        if let Some(rest) = b.strip_prefix(b"playerx") {
            return player_offset(rest).map(CoordMeaning::PlayerX);
        }
        if let Some(rest) = b.strip_prefix(b"playery") {
            return player_offset(rest).map(CoordMeaning::PlayerY);
        }
        decimal(b).map(CoordMeaning::Tiles)
    }

    /// The number of tiles, when the word is a plain number.
    pub fn number(&self) -> Option<f64> {
        match self.meaning()? {
            CoordMeaning::Tiles(v) => Some(v),
            _ => None,
        }
    }
}

/// The offset after `playerx`/`playery`: nothing (0) or a signed decimal.
fn player_offset(rest: &[u8]) -> Option<f64> {
    match rest.first() {
        None => Some(0.0),
        Some(b'+' | b'-') => decimal(rest),
        Some(_) => None,
    }
}

/// A decimal number: an optional sign, digits and an optional fraction; finite.
fn decimal(token: &[u8]) -> Option<f64> {
    let body = match token.first() {
        Some(b'+' | b'-') => token.get(1..)?,
        _ => token,
    };
    let (whole, fraction) = match body.iter().position(|&b| b == b'.') {
        Some(at) => (body.get(..at)?, body.get(at.checked_add(1)?..)?),
        None => (body, &[][..]),
    };
    let digits = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) {
        return None;
    }
    std::str::from_utf8(token)
        .ok()?
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// A level link: a rectangle of tiles that moves the player to another level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// Destination level file name (may contain spaces).
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
    pub dest_x: LinkCoord,
    /// Destination y.
    pub dest_y: LinkCoord,
    /// TilesEditor's `destLayer layer` extension, if present.
    pub layers: Option<(i32, i32)>,
}

/// A baddy (enemy).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baddy {
    /// x in tiles.
    pub x: f64,
    /// y in tiles.
    pub y: f64,
    /// Type, 0–9 (see [`BADDY_TYPES`]).
    pub kind: u8,
    /// Up to three verses, in file order: sight, hurt, attack (GServer's meaning).
    pub verses: Vec<RawString>,
    /// Layer (`.nw` extension), if given.
    pub layer: Option<i32>,
}

/// Baddy type names (TilesEditor), by type number.
pub const BADDY_TYPES: [&str; 10] = [
    "graysoldier",
    "bluesoldier",
    "redsoldier",
    "shootingsoldier",
    "swampsoldier",
    "frog",
    "octopus",
    "goldenwarrior",
    "lizardon",
    "dragon",
];

/// An NPC: a position, an optional image and a script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Npc {
    /// x in tiles.
    pub x: f64,
    /// y in tiles.
    pub y: f64,
    /// Image file name; empty for none (`-` in `.nw`).
    pub image: RawString,
    /// Script, lines separated by `\n` (the binary format's 0xA7 translated).
    pub script: RawString,
    /// Layer (`.nw` extension), if given.
    pub layer: Option<i32>,
}

/// A chest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chest {
    /// x in tiles.
    pub x: f64,
    /// y in tiles.
    pub y: f64,
    /// Item id (see [`CHEST_ITEMS`]).
    pub item: i32,
    /// Index of the sign shown when opened, or -1 for none.
    pub sign: i32,
    /// Layer (`.nw` extension), if given.
    pub layer: Option<i32>,
}

/// Chest item names (GServer `TLevelItem.cpp`), by item id.
pub const CHEST_ITEMS: [&str; 25] = [
    "greenrupee",
    "bluerupee",
    "redrupee",
    "bombs",
    "darts",
    "heart",
    "glove1",
    "bow",
    "bomb",
    "shield",
    "sword",
    "fullheart",
    "superbomb",
    "battleaxe",
    "goldensword",
    "mirrorshield",
    "glove2",
    "lizardshield",
    "lizardsword",
    "goldrupee",
    "fireball",
    "fireblast",
    "nukeshot",
    "joltbomb",
    "spinattack",
];

/// A sign: a position and its text as glyph codes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sign {
    /// x in tiles.
    pub x: f64,
    /// y in tiles.
    pub y: f64,
    /// Glyph indices 0–96 (the binary byte minus 32; see [`sign_text`]).
    pub glyphs: Vec<u8>,
    /// Layer (`.nw` extension), if given.
    pub layer: Option<i32>,
}

/// The sign alphabet (graal-notes 1.2): glyph index → how `.nw` text spells it.
pub mod sign_text {
    /// `.nw` spelling of each glyph index 0–96. Two glyphs take two codes each: the head
    /// (`#h` = 74, 75) and probably the yin-yang (`#4` = 87, 88); the second code of each is
    /// spelled as an empty string, since its first code's escape produces both.
    pub const GLYPHS: [&str; 97] = [
        "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R",
        "S", "T", "U", "V", "W", "X", "Y", "Z", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
        "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "0", "1",
        "2", "3", "4", "5", "6", "7", "8", "9", "!", "?", "-", ".", ",", "#.", ">", "(", ")", "#x",
        "#y", "#z", "#h", "", "\"", "#u", "#d", "#l", "#r", "'", ":", "/", "~", "&", "#", "#4", "",
        " ", "<", "#A", "#B", "#X", "#Y", ";", "\n",
    ];

    /// Glyph index of the line break.
    pub const NEWLINE: u8 = 96;
    /// Glyph index of the head glyph's first code (its second is `HEAD + 1`).
    pub const HEAD: u8 = 74;
    /// Glyph index of the yin-yang glyph's first code (its second is `YINYANG + 1`).
    pub const YINYANG: u8 = 87;
    /// Glyph index of a literal `#`.
    pub const HASH: u8 = 86;

    /// Readable text of a glyph sequence (`.nw` spelling). Codes outside the table come out as
    /// `#K(n)`, GServer's convention.
    pub fn to_text(glyphs: &[u8]) -> String {
        let mut out = String::with_capacity(glyphs.len());
        for &g in glyphs {
            match GLYPHS.get(usize::from(g)) {
                Some(s) if !s.is_empty() || (g != HEAD + 1 && g != YINYANG + 1) => out.push_str(s),
                Some(_) => {}
                None => out.push_str(&format!("#K({})", u32::from(g) + 32)),
            }
        }
        out
    }

    /// Parse `.nw` sign text into glyphs. Returns the glyphs and the characters that have no
    /// glyph (which are dropped).
    pub fn from_text(text: &str) -> (Vec<u8>, Vec<char>) {
        let mut glyphs = Vec::with_capacity(text.len());
        let mut unknown = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\r' {
                continue;
            }
            if c == '#' {
                let next = chars.peek().copied();
                let escape = next.and_then(|n| match n {
                    '.' => Some(&[67u8][..]),
                    'x' => Some(&[71][..]),
                    'y' => Some(&[72][..]),
                    'z' => Some(&[73][..]),
                    'h' => Some(&[HEAD, HEAD + 1][..]),
                    'u' => Some(&[77][..]),
                    'd' => Some(&[78][..]),
                    'l' => Some(&[79][..]),
                    'r' => Some(&[80][..]),
                    '4' => Some(&[YINYANG, YINYANG + 1][..]),
                    'A' => Some(&[91][..]),
                    'B' => Some(&[92][..]),
                    'X' => Some(&[93][..]),
                    'Y' => Some(&[94][..]),
                    '#' => Some(&[HASH, HASH][..]),
                    _ => None,
                });
                match escape {
                    Some(codes) => {
                        chars.next();
                        glyphs.extend_from_slice(codes);
                    }
                    None => glyphs.push(HASH),
                }
                continue;
            }
            let mut buf = [0u8; 4];
            let s: &str = c.encode_utf8(&mut buf);
            match GLYPHS.iter().position(|g| *g == s) {
                Some(i) => glyphs.push(i as u8),
                None => unknown.push(c),
            }
        }
        (glyphs, unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::sign_text::*;
    use super::*;

    #[test]
    fn glyph_table_matches_the_notes() {
        // Spot checks against graal-notes 1.2 (byte = glyph + 32).
        let byte = |s: &str| from_text(s).0.iter().map(|g| g + 32).collect::<Vec<_>>();
        assert_eq!(byte("A"), [32]);
        assert_eq!(byte("z"), [83]);
        assert_eq!(byte("9"), [93]);
        assert_eq!(byte("\""), [108]);
        assert_eq!(byte(" "), [121]);
        assert_eq!(byte(";"), [127]);
        assert_eq!(byte("\n"), [128]);
        assert_eq!(byte("#h"), [106, 107]);
        assert_eq!(byte("#4"), [119, 120]);
        assert_eq!(byte("##"), [118, 118]);
        assert_eq!(byte("<"), [122]);
        assert_eq!(to_text(&[106 - 32, 107 - 32, 121 - 32, 118 - 32]), "#h #");
        // Every glyph alone survives text and back; the two-code glyphs only as their pair.
        for g in 0..97u8 {
            if g == HEAD + 1 || g == YINYANG + 1 {
                continue;
            }
            let want = match g {
                HEAD | YINYANG => vec![g, g + 1],
                _ => vec![g],
            };
            let (back, unknown) = from_text(&to_text(&want));
            assert!(unknown.is_empty(), "{g}");
            assert_eq!(back, want, "glyph {g}");
        }
        // A lone `#` before a character that forms an escape cannot be told apart from the
        // escape in `.nw` text: the binary bytes are the only lossless form.
        assert_eq!(from_text("#4").0, [YINYANG, YINYANG + 1]);
    }

    #[test]
    fn coord_meanings() {
        let m = |s: &str| LinkCoord::word(s.as_bytes()).and_then(|c| c.meaning());
        assert_eq!(m("30"), Some(CoordMeaning::Tiles(30.0)));
        assert_eq!(m("15.50"), Some(CoordMeaning::Tiles(15.5)));
        assert_eq!(m(".5"), Some(CoordMeaning::Tiles(0.5)));
        assert_eq!(m("-1"), Some(CoordMeaning::Tiles(-1.0)));
        assert_eq!(m("playerx"), Some(CoordMeaning::PlayerX(0.0)));
        assert_eq!(m("playerx+25"), Some(CoordMeaning::PlayerX(25.0)));
        assert_eq!(m("playery-9"), Some(CoordMeaning::PlayerY(-9.0)));
        assert_eq!(m("playery-"), None);
        assert_eq!(m("playerz"), None);
        assert_eq!(m("1e5"), None);
        assert_eq!(m("."), None);
        assert!(LinkCoord::word(b"").is_none());
        assert!(LinkCoord::word(b"a b").is_none());
        assert_eq!(LinkCoord::tiles(61.0).as_bytes(), b"61");
        assert_eq!(LinkCoord::tiles(30.5).as_bytes(), b"30.5");
        let json = LinkCoord::word(b"15.50").map(|c| serde_json::to_string(&c).ok());
        assert_eq!(json, Some(Some("\"15.50\"".to_string())));
    }

    #[test]
    fn atlas_formula() {
        assert_eq!(atlas_position(0), (0, 0));
        assert_eq!(atlas_position(15), (15, 0));
        assert_eq!(atlas_position(16), (0, 1));
        assert_eq!(atlas_position(512), (16, 0));
        assert_eq!(atlas_position(4095), (127, 31));
    }
}
