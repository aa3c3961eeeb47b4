//! Binary level <-> [`Level`], the meaning shared with `.nw`.
//!
//! Reading the meaning out removes the stored offsets (+32 on NPC, chest and sign positions,
//! chest items and sign indices), translates the 0xA7 line breaks of NPC scripts, splits baddy
//! verses at their backslashes, parses link lines (names with spaces included) and turns sign
//! bytes into glyph indices. Writing a level builds a `GR-V1.03` file (`GR-V1.05` when it has
//! more than one layer), as the original editor and TilesEditor do, and reports every value the
//! binary format cannot hold.

use super::level::*;
use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::GraalLevel;

/// Byte used for line breaks in binary NPC scripts.
pub const NPC_LINE_BREAK: u8 = 0xA7;
/// GR-V1.05's empty tile.
pub const TILE_EMPTY_V105: u16 = 0xFFF;

/// Format a number the way level files write it: `30`, `27.5`, `-1`.
pub fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn parse_coord(token: &str) -> Option<LinkCoord> {
    match token {
        "playerx" => Some(LinkCoord::PlayerX),
        "playery" => Some(LinkCoord::PlayerY),
        _ => token
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(LinkCoord::Tiles),
    }
}

fn coord_text(c: &LinkCoord) -> String {
    match c {
        LinkCoord::PlayerX => "playerx".into(),
        LinkCoord::PlayerY => "playery".into(),
        LinkCoord::Tiles(v) => format_number(*v),
    }
}

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
        dest_x: parse_coord(text(4)?)?,
        dest_y: parse_coord(text(5)?)?,
        layers: None,
    })
}

/// A link's tokens as one line, without the layer extension.
pub fn link_line(link: &Link) -> RawString {
    let mut line = link.dest.0.clone();
    line.extend_from_slice(
        format!(
            " {} {} {} {} {} {}",
            link.x,
            link.y,
            link.width,
            link.height,
            coord_text(&link.dest_x),
            coord_text(&link.dest_y)
        )
        .as_bytes(),
    );
    RawString(line)
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
        let tokens: Vec<&[u8]> = line
            .0
            .split(|&b| b == b' ')
            .filter(|t| !t.is_empty())
            .collect();
        match parse_link_tokens(&tokens) {
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
        let verses = if g.version.has_verses() {
            b.verses
                .0
                .split(|&c| c == b'\\')
                .map(RawString::from)
                .collect()
        } else {
            Vec::new()
        };
        level.baddies.push(Baddy {
            x: f64::from(b.x),
            y: f64::from(b.y),
            kind: b.kind,
            verses,
            layer: None,
        });
    }
    for n in &g.npcs {
        let script = n
            .script
            .0
            .iter()
            .map(|&c| if c == NPC_LINE_BREAK { b'\n' } else { c })
            .collect();
        level.npcs.push(Npc {
            x: f64::from(n.x_raw) - 32.0,
            y: f64::from(n.y_raw) - 32.0,
            image: n.image.clone(),
            script: RawString(script),
            layer: None,
        });
    }
    for (i, c) in g.chests.iter().enumerate() {
        if c.is_null() {
            warnings.push(Warning::warning(
                F,
                Location::path(format!("chests[{i}]")),
                "null chest (FF FF FF 00) is a placeholder; left out",
            ));
            continue;
        }
        let (x, y, item, sign) = c.decode();
        level.chests.push(Chest {
            x: f64::from(x),
            y: f64::from(y),
            item,
            sign,
            layer: None,
        });
    }
    for (i, s) in g.signs.iter().enumerate() {
        let mut glyphs = Vec::with_capacity(s.text.len());
        for &b in s.text.as_bytes() {
            match b
                .checked_sub(32)
                .filter(|&g| usize::from(g) < sign_text::GLYPHS.len())
            {
                Some(g) => glyphs.push(g),
                None => warnings.push(Warning::warning(
                    F,
                    Location::path(format!("signs[{i}]")),
                    format!("sign byte {b} is not in the sign alphabet (32 to 128); left out"),
                )),
            }
        }
        level.signs.push(Sign {
            x: f64::from(s.x_raw) - 32.0,
            y: f64::from(s.y_raw) - 32.0,
            glyphs,
            layer: None,
        });
    }
    (level, warnings)
}

/// A byte for a position stored with `offset`, with a warning when the value is fractional or
/// out of range.
fn position_byte(v: f64, offset: f64, path: &str, what: &str, warnings: &mut Vec<Warning>) -> u8 {
    let stored = v + offset;
    let rounded = stored.round().clamp(0.0, 255.0);
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

/// Build a binary level from a level's meaning: `GR-V1.03`, or `GR-V1.05` for several layers.
pub fn from_level(level: &Level) -> (Graal, Vec<Warning>) {
    let mut warnings = Vec::new();
    let layered = level.layers.len() > 1;
    let version = if layered {
        Version::GrV105
    } else {
        Version::GrV103
    };
    let mut boards = Vec::new();
    for (i, layer) in level.layers.iter().enumerate() {
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
        boards.push(BinaryBoard {
            tiles,
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
    let links = level
        .links
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if l.layers.is_some() {
                warnings.push(Warning::warning(
                    F,
                    Location::path(format!("links[{i}]")),
                    "link layers (TilesEditor extension) cannot be stored in a binary level",
                ));
            }
            link_line(l)
        })
        .collect();
    let baddies = level
        .baddies
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let path = format!("baddies[{i}]");
            layer_warning(b.layer, path.clone(), &mut warnings);
            if b.verses.len() > 3 {
                warnings.push(Warning::warning(
                    F,
                    Location::path(path.clone()),
                    "more than three verses; all are written, joined by backslashes",
                ));
            }
            let mut parts: Vec<Vec<u8>> = b.verses.iter().map(|v| v.0.clone()).collect();
            parts.resize(parts.len().max(3), Vec::new());
            BaddyRecord {
                x: position_byte(b.x, 0.0, &path, "baddy x", &mut warnings),
                y: position_byte(b.y, 0.0, &path, "baddy y", &mut warnings),
                kind: b.kind,
                verses: RawString(parts.join(&b'\\')),
            }
        })
        .collect();
    let npcs = level
        .npcs
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let path = format!("npcs[{i}]");
            layer_warning(n.layer, path.clone(), &mut warnings);
            NpcRecord {
                x_raw: position_byte(n.x, 32.0, &path, "NPC x", &mut warnings),
                y_raw: position_byte(n.y, 32.0, &path, "NPC y", &mut warnings),
                image: n.image.clone(),
                script: RawString(
                    n.script
                        .0
                        .iter()
                        .filter(|&&c| c != b'\r')
                        .map(|&c| if c == b'\n' { NPC_LINE_BREAK } else { c })
                        .collect(),
                ),
            }
        })
        .collect();
    let chests = level
        .chests
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let path = format!("chests[{i}]");
            layer_warning(c.layer, path.clone(), &mut warnings);
            let item = position_byte(f64::from(c.item), 32.0, &path, "chest item", &mut warnings);
            let sign = if c.sign < 0 {
                31
            } else {
                (c.sign.rem_euclid(256) as u8).wrapping_add(32)
            };
            ChestRecord {
                bytes: [
                    position_byte(c.x, 32.0, &path, "chest x", &mut warnings),
                    position_byte(c.y, 32.0, &path, "chest y", &mut warnings),
                    item,
                    sign,
                ],
            }
        })
        .collect();
    let signs = level
        .signs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let path = format!("signs[{i}]");
            layer_warning(s.layer, path.clone(), &mut warnings);
            SignRecord {
                x_raw: position_byte(s.x, 32.0, &path, "sign x", &mut warnings),
                y_raw: position_byte(s.y, 32.0, &path, "sign y", &mut warnings),
                text: RawString(s.glyphs.iter().map(|g| g.wrapping_add(32)).collect()),
            }
        })
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
