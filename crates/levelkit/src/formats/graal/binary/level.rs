//! Binary level <-> [`Level`], the meaning shared with `.nw`.
//!
//! Reading the meaning out removes the stored offsets (+32 on NPC, chest and sign positions,
//! chest items and sign indices), translates the 0xA7 line breaks of NPC scripts, splits baddy
//! verses at their backslashes, parses link lines (names with spaces included) and turns sign
//! bytes into glyph indices. Writing a level builds a `GR-V1.03` file (`GR-V1.05` when it has
//! more than one layer), as the original editor and TilesEditor do, and reports every value the
//! binary format cannot hold.

use super::model::*;
use crate::error::{Location, Warning};
use crate::formats::graal::level::*;
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::GraalLevel;

/// Byte used for line breaks in binary NPC scripts.
pub const NPC_LINE_BREAK: u8 = 0xA7;
/// GR-V1.05's empty tile.
pub const TILE_EMPTY_V105: u16 = 0xFFF;

pub use crate::formats::graal::level::format_number;

/// Parse a link's tokens (`dest… x y width height destX destY`; a name with spaces takes the
/// first `n - 6` tokens). Shared with `.nw`, whose `LINK` statements carry the same tokens.
pub fn parse_link_tokens(tokens: &[&[u8]]) -> Option<Link> {
    let n = tokens.len();
    if n < 7 {
        return None;
    }
    let name_len = n.checked_sub(6)?;
    let dest = tokens.get(..name_len)?.join(&b' ');
    let text = |i: usize| -> Option<&str> { std::str::from_utf8(tokens.get(name_len + i)?).ok() };
    let int = |i: usize| -> Option<i32> { text(i)?.parse().ok() };
    Some(Link {
        dest: RawString(dest),
        x: int(0)?,
        y: int(1)?,
        width: int(2)?,
        height: int(3)?,
        dest_x: LinkCoord::word(tokens.get(name_len + 4)?)?,
        dest_y: LinkCoord::word(tokens.get(name_len + 5)?)?,
        layers: None,
    })
}

/// A link's tokens as one line, without the layer extension.
pub fn link_line(link: &Link) -> RawString {
    let mut line = link.dest.0.clone();
    line.extend_from_slice(
        format!(" {} {} {} {} ", link.x, link.y, link.width, link.height).as_bytes(),
    );
    line.extend_from_slice(link.dest_x.as_bytes());
    line.push(b' ');
    line.extend_from_slice(link.dest_y.as_bytes());
    RawString(line)
}

/// The meaning of a binary link line, or `None` when it is not
/// `dest x y width height destX destY`.
pub fn link_meaning(line: &RawString) -> Option<Link> {
    let tokens: Vec<&[u8]> = line
        .0
        .split(|&b| b == b' ')
        .filter(|t| !t.is_empty())
        .collect();
    parse_link_tokens(&tokens)
}

/// The meaning of a baddy record: verses split at their backslashes (none in `Z3-V1.03`).
pub fn baddy_meaning(b: &BaddyRecord, version: Version) -> Baddy {
    let verses = if version.has_verses() {
        b.verses
            .0
            .split(|&c| c == b'\\')
            .map(RawString::from)
            .collect()
    } else {
        Vec::new()
    };
    Baddy {
        x: f64::from(b.x),
        y: f64::from(b.y),
        kind: b.kind,
        verses,
        layer: None,
    }
}

/// A binary NPC script with its 0xA7 line breaks translated to `\n`.
pub fn npc_script_meaning(script: &RawString) -> RawString {
    RawString(
        script
            .0
            .iter()
            .map(|&c| if c == NPC_LINE_BREAK { b'\n' } else { c })
            .collect(),
    )
}

/// The meaning of an NPC record.
pub fn npc_meaning(n: &NpcRecord) -> Npc {
    Npc {
        x: f64::from(n.x_raw) - 32.0,
        y: f64::from(n.y_raw) - 32.0,
        image: n.image.clone(),
        script: npc_script_meaning(&n.script),
        layer: None,
    }
}

/// The meaning of a chest record; `None` for the null chest.
pub fn chest_meaning(c: &ChestRecord) -> Option<Chest> {
    if c.is_null() {
        return None;
    }
    let (x, y, item, sign) = c.decode();
    Some(Chest {
        x: f64::from(x),
        y: f64::from(y),
        item,
        sign,
        layer: None,
    })
}

/// Glyphs of sign text bytes, and the bytes outside the sign alphabet (which are left out).
pub fn sign_glyphs(text: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut glyphs = Vec::with_capacity(text.len());
    let mut bad = Vec::new();
    for &b in text {
        match b
            .checked_sub(32)
            .filter(|&g| usize::from(g) < sign_text::GLYPHS.len())
        {
            Some(g) => glyphs.push(g),
            None => bad.push(b),
        }
    }
    (glyphs, bad)
}

/// The meaning of a sign record, and the bytes outside the sign alphabet.
pub fn sign_meaning(s: &SignRecord) -> (Sign, Vec<u8>) {
    let (glyphs, bad) = sign_glyphs(s.text.as_bytes());
    let sign = Sign {
        x: f64::from(s.x_raw) - 32.0,
        y: f64::from(s.y_raw) - 32.0,
        glyphs,
        layer: None,
    };
    (sign, bad)
}

/// The meaning of a binary level, with warnings for entries that do not parse.
pub fn to_level(g: &Graal) -> (Level, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut level = Level::default();
    let layered = g.version.has_layers();
    for (i, board) in g.boards.iter().enumerate() {
        let tiles = board
            .tiles
            .iter()
            .map(|&t| {
                if layered && t == TILE_EMPTY_V105 {
                    TILE_TRANSPARENT
                } else {
                    t
                }
            })
            .collect();
        level.layers.push(Board {
            layer: i as u32,
            tiles,
        });
    }
    for (i, line) in g.links.iter().enumerate() {
        match link_meaning(line) {
            Some(link) => level.links.push(link),
            None => warnings.push(Warning::warning(
                F,
                Location::path(format!("links[{i}]")),
                format!(
                    "link line {:?} is not `dest x y width height destX destY`; left out",
                    line.display()
                ),
            )),
        }
    }
    for b in &g.baddies {
        level.baddies.push(baddy_meaning(b, g.version));
    }
    for n in &g.npcs {
        level.npcs.push(npc_meaning(n));
    }
    for (i, c) in g.chests.iter().enumerate() {
        match chest_meaning(c) {
            Some(chest) => level.chests.push(chest),
            None => warnings.push(Warning::warning(
                F,
                Location::path(format!("chests[{i}]")),
                "null chest (FF FF FF 00) is a placeholder; left out",
            )),
        }
    }
    for (i, s) in g.signs.iter().enumerate() {
        let (sign, bad) = sign_meaning(s);
        for b in bad {
            warnings.push(Warning::warning(
                F,
                Location::path(format!("signs[{i}]")),
                format!("sign byte {b} is not in the sign alphabet (32 to 128); left out"),
            ));
        }
        level.signs.push(sign);
    }
    (level, warnings)
}

/// A byte for a position stored with `offset`, with a warning when the value is fractional or
/// out of range.
pub fn position_byte(
    v: f64,
    offset: f64,
    path: &str,
    what: &str,
    warnings: &mut Vec<Warning>,
) -> u8 {
    let stored = v + offset;
    let rounded = if stored.is_nan() {
        0.0
    } else {
        stored.round().clamp(0.0, 255.0)
    };
    if rounded != stored {
        warnings.push(Warning::warning(
            F,
            Location::path(path),
            format!(
                "{what} {} does not fit the binary format (whole tiles, {} to {}); written as {}",
                format_number(v),
                format_number(-offset),
                format_number(255.0 - offset),
                format_number(rounded - offset)
            ),
        ));
    }
    rounded as u8
}

fn layer_warning(layer: Option<i32>, path: String, warnings: &mut Vec<Warning>) {
    if let Some(l) = layer.filter(|&l| l != 0) {
        warnings.push(Warning::warning(
            F,
            Location::path(path),
            format!("layer {l} cannot be stored in a binary level; the entry is on layer 0"),
        ));
    }
}

/// The tiles of board `i` of a binary level with (`layered`) or without layers.
pub fn board_tiles(
    layer: &Board,
    i: usize,
    layered: bool,
    warnings: &mut Vec<Warning>,
) -> Vec<u16> {
    let mut transparent = 0usize;
    let mut too_big = 0usize;
    let tiles = (0..BOARD_CELLS)
        .map(|k| {
            let t = layer.tiles.get(k).copied().unwrap_or(0);
            if t == TILE_TRANSPARENT {
                if layered {
                    TILE_EMPTY_V105
                } else {
                    transparent += 1;
                    0
                }
            } else if t > 0xFFF {
                too_big += 1;
                0
            } else {
                t
            }
        })
        .collect();
    if transparent > 0 {
        warnings.push(Warning::warning(
            F,
            Location::path(format!("layers[{i}]")),
            format!("{transparent} transparent cells written as tile 0 (a one-layer binary level has no transparency)"),
        ));
    }
    if too_big > 0 || layer.tiles.len() != BOARD_CELLS {
        warnings.push(Warning::warning(
            F,
            Location::path(format!("layers[{i}]")),
            format!(
                "{} cells, {too_big} of them above 4095: written as tile 0",
                layer.tiles.len()
            ),
        ));
    }
    tiles
}

/// Link `i`'s line.
pub fn link_record(l: &Link, i: usize, warnings: &mut Vec<Warning>) -> RawString {
    if l.layers.is_some() {
        warnings.push(Warning::warning(
            F,
            Location::path(format!("links[{i}]")),
            "link layers (TilesEditor extension) cannot be stored in a binary level",
        ));
    }
    link_line(l)
}

/// The verse line of verses: at least three parts, joined by backslashes.
pub fn verse_line(verses: &[RawString]) -> RawString {
    let mut parts: Vec<&[u8]> = verses.iter().map(|v| v.as_bytes()).collect();
    parts.resize(parts.len().max(3), b"");
    RawString(parts.join(&b'\\'))
}

/// Baddy `i`'s record.
pub fn baddy_record(b: &Baddy, i: usize, warnings: &mut Vec<Warning>) -> BaddyRecord {
    let path = format!("baddies[{i}]");
    layer_warning(b.layer, path.clone(), warnings);
    if b.verses.len() > 3 {
        warnings.push(Warning::warning(
            F,
            Location::path(path.clone()),
            "more than three verses; all are written, joined by backslashes",
        ));
    }
    BaddyRecord {
        x: position_byte(b.x, 0.0, &path, "baddy x", warnings),
        y: position_byte(b.y, 0.0, &path, "baddy y", warnings),
        kind: b.kind,
        verses: verse_line(&b.verses),
    }
}

/// A script with `\n` line breaks as the binary format stores it (0xA7; `\r` left out).
pub fn npc_script_record(script: &RawString) -> RawString {
    RawString(
        script
            .0
            .iter()
            .filter(|&&c| c != b'\r')
            .map(|&c| if c == b'\n' { NPC_LINE_BREAK } else { c })
            .collect(),
    )
}

/// NPC `i`'s record.
pub fn npc_record(n: &Npc, i: usize, warnings: &mut Vec<Warning>) -> NpcRecord {
    let path = format!("npcs[{i}]");
    layer_warning(n.layer, path.clone(), warnings);
    NpcRecord {
        x_raw: position_byte(n.x, 32.0, &path, "NPC x", warnings),
        y_raw: position_byte(n.y, 32.0, &path, "NPC y", warnings),
        image: n.image.clone(),
        script: npc_script_record(&n.script),
    }
}

/// Chest `i`'s record.
pub fn chest_record(c: &Chest, i: usize, warnings: &mut Vec<Warning>) -> ChestRecord {
    let path = format!("chests[{i}]");
    layer_warning(c.layer, path.clone(), warnings);
    let item = position_byte(f64::from(c.item), 32.0, &path, "chest item", warnings);
    let sign = if c.sign < 0 {
        31
    } else {
        (c.sign.rem_euclid(256) as u8).wrapping_add(32)
    };
    ChestRecord {
        bytes: [
            position_byte(c.x, 32.0, &path, "chest x", warnings),
            position_byte(c.y, 32.0, &path, "chest y", warnings),
            item,
            sign,
        ],
    }
}

/// Sign `i`'s record.
pub fn sign_record(s: &Sign, i: usize, warnings: &mut Vec<Warning>) -> SignRecord {
    let path = format!("signs[{i}]");
    layer_warning(s.layer, path.clone(), warnings);
    SignRecord {
        x_raw: position_byte(s.x, 32.0, &path, "sign x", warnings),
        y_raw: position_byte(s.y, 32.0, &path, "sign y", warnings),
        text: RawString(s.glyphs.iter().map(|g| g.wrapping_add(32)).collect()),
    }
}

/// Build a binary level from a level's meaning: `GR-V1.03`, or `GR-V1.05` for several layers.
///
/// This is the version a level gets when it comes from a format without one (`.nw`, or a Tiled
/// map that has no `graal_version` property); [`from_level_as`] chooses another.
pub fn from_level(level: &Level) -> (Graal, Vec<Warning>) {
    from_level_as(level, None)
}

/// Build a binary level of `version` from a level's meaning (`None`: as [`from_level`]).
///
/// A level with several layers is written as `GR-V1.05` whatever `version` says, and the
/// sections `version` lacks are left out, each with a warning: NPCs before `GR-V1.00`, chests
/// before `GR-V1.01`, baddy verses in `Z3-V1.03`.
pub fn from_level_as(level: &Level, version: Option<Version>) -> (Graal, Vec<Warning>) {
    let mut warnings = Vec::new();
    let layered = level.layers.len() > 1;
    let version = match version {
        Some(v) if layered && !v.has_layers() => {
            warnings.push(Warning::warning(
                F,
                Location::path("layers"),
                format!(
                    "{} has no layers; the level has {}, so it is written as GR-V1.05",
                    String::from_utf8_lossy(v.header()),
                    level.layers.len()
                ),
            ));
            Version::GrV105
        }
        Some(v) => v,
        None if layered => Version::GrV105,
        None => Version::GrV103,
    };
    let header = String::from_utf8_lossy(version.header()).into_owned();
    let mut missing = |what: &str, count: usize| {
        if count > 0 {
            warnings.push(Warning::warning(
                F,
                Location::path(what),
                format!("{header} levels have no {what}; {count} left out"),
            ));
        }
    };
    if !version.has_npcs() {
        missing("npcs", level.npcs.len());
    }
    if !version.has_chests() {
        missing("chests", level.chests.len());
    }
    if !version.has_verses() {
        let verses = level
            .baddies
            .iter()
            .filter(|b| b.verses.iter().any(|v| !v.is_empty()));
        missing("baddy verses", verses.count());
    }
    let mut boards = Vec::new();
    for (i, layer) in level.layers.iter().enumerate() {
        boards.push(BinaryBoard {
            tiles: board_tiles(layer, i, layered, &mut warnings),
            packets: None,
            pad_bits: 0,
        });
    }
    if boards.is_empty() {
        boards.push(BinaryBoard {
            tiles: vec![0; BOARD_CELLS],
            packets: None,
            pad_bits: 0,
        });
    }
    let w = &mut warnings;
    let links = (level.links.iter().enumerate())
        .map(|(i, l)| link_record(l, i, w))
        .collect();
    let baddies = (level.baddies.iter().enumerate())
        .map(|(i, b)| baddy_record(b, i, w))
        .map(|mut b| {
            if !version.has_verses() {
                b.verses = RawString::default();
            }
            b
        })
        .collect();
    let npcs = (level.npcs.iter().enumerate())
        .filter(|_| version.has_npcs())
        .map(|(i, n)| npc_record(n, i, w))
        .collect();
    let chests = (level.chests.iter().enumerate())
        .filter(|_| version.has_chests())
        .map(|(i, c)| chest_record(c, i, w))
        .collect();
    let signs = (level.signs.iter().enumerate())
        .map(|(i, s)| sign_record(s, i, w))
        .collect();
    let graal = Graal {
        version,
        boards,
        links,
        links_end: SectionEnd::Hash,
        baddies,
        baddies_end: RawString::default(),
        npcs,
        npcs_end: SectionEnd::Hash,
        chests,
        chests_end: SectionEnd::Hash,
        signs,
        signs_end: None,
    };
    (graal, warnings)
}

/// `g` as a level of `version`: `g` itself when it already is one, else its meaning written
/// with [`from_level_as`] (the warnings of both steps; the raw forms of the old version, such
/// as its tile packets, do not carry over).
pub fn with_version(g: &Graal, version: Version) -> (Graal, Vec<Warning>) {
    if g.version == version {
        return (g.clone(), Vec::new());
    }
    let (level, mut warnings) = to_level(g);
    let (out, more) = from_level_as(&level, Some(version));
    warnings.extend(more);
    (out, warnings)
}
