//! `.nw` ⇄ the Graal [`Level`] shared with the binary format.
//!
//! To a level:
//! * `BOARD` rows fill 64 × 64 boards, one per layer number, later rows over earlier ones.
//!   Cells no row covers are tile 0 on layer 0 and [`TILE_TRANSPARENT`] above (gonstruct).
//!   Rows GServer skips (outside the board, negative layer) are left out with a warning.
//! * Chest item names become ids ([`CHEST_ITEMS`]), baddy type names become numbers
//!   ([`BADDY_TYPES`]); an unknown name leaves the object out with a warning (GServer drops such
//!   chests too).
//! * Sign lines are joined with line breaks and spelled into glyphs with
//!   [`sign_text::from_text`]; characters without a glyph are reported.
//! * NPC image `-` becomes an empty image; script lines are joined with `\n`.
//! * `TILESET`, `TILESETIMAGE`, `HEIGHTS` and lines the reader kept verbatim have no place in a
//!   [`Level`] and are reported. Blank lines, spellings and line breaks are layout, not content,
//!   and are not.
//!
//! From a level, the original editor's form: `GLEVNW01`, layer 0 as 64 full
//! `BOARD 0 y 64 0 …` rows, upper layers as runs that skip transparent cells (GServer,
//! TilesEditor), then links, signs, chests (item names), baddies (numeric types, which GServer
//! requires) and NPCs, with LF line breaks and numbers in their shortest form. Whatever the
//! text format cannot say is reported, and left out only when there is no close spelling.

use std::collections::BTreeMap;

use super::model::*;
use super::read::{read_statement, split_lines};
use super::write;
use crate::error::{Location, Warning};
use crate::formats::graal::level::{
    self, BADDY_TYPES, BOARD_CELLS, CHEST_ITEMS, Level, TILE_TRANSPARENT, sign_text,
};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Nw;

/// Most distinct layers [`to_level`] builds boards for (each is 8 KiB; real levels use a few).
pub const MAX_LAYERS: usize = 256;

/// Where entry `index`, starting at `line`, is.
pub(crate) fn at(index: usize, line: usize) -> Location {
    Location {
        line_col: Some((u32::try_from(line).unwrap_or(u32::MAX), 1)),
        ..Location::path(format!("statements[{index}]"))
    }
}

/// Convert a `.nw` level to the shared level model, with warnings for what does not carry over.
pub fn to_level(nw: &Nw) -> (Level, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut level = Level::default();
    let mut boards: BTreeMap<u32, level::Board> = BTreeMap::new();
    boards.insert(0, level::Board::filled(0, 0));
    let mut line = 2usize;
    for (index, entry) in nw.statements.iter().enumerate() {
        let loc = at(index, line);
        line = line.saturating_add(write::entry_lines(entry));
        let mut warn = |message: String| warnings.push(Warning::warning(F, loc.clone(), message));
        match &entry.statement {
            Statement::Board(row) => {
                if let Err(why) = board_row(row, &mut boards) {
                    warn(why);
                } else if !row.excess.is_empty() {
                    warn(format!(
                        "{} characters after the row's data are ignored (as the games do)",
                        row.excess.len()
                    ));
                }
            }
            Statement::Link(l) => level.links.push(link_meaning(l)),
            Statement::Sign(s) => {
                let (sign, unknown) = sign_meaning(s);
                if !unknown.is_empty() {
                    let chars: String = unknown.iter().collect();
                    warn(format!(
                        "sign text has {} characters with no sign glyph ({chars:?}); left out",
                        unknown.len()
                    ));
                }
                level.signs.push(sign);
            }
            Statement::Npc(n) => level.npcs.push(npc_meaning(n)),
            Statement::Chest(c) => match chest_meaning(c) {
                Ok(chest) => level.chests.push(chest),
                Err(why) => warn(format!(
                    "{why}; the chest is left out (GServer drops it too)"
                )),
            },
            Statement::Baddy(b) => match baddy_meaning(b) {
                Ok(baddy) => level.baddies.push(baddy),
                Err(why) => warn(format!("{why}; the baddy is left out")),
            },
            Statement::Tileset(t) => warn(format!(
                "TILESET {} has no place in a Level; not carried over",
                t.name.display()
            )),
            Statement::TilesetImage(t) => warn(format!(
                "TILESETIMAGE {} has no place in a Level; not carried over",
                t.file.display()
            )),
            Statement::Heights(_) => {
                warn("the HEIGHTS grid has no place in a Level; not carried over".into())
            }
            Statement::Verbatim(text) if text.as_bytes().trim_ascii().is_empty() => {}
            Statement::Verbatim(text) => {
                let why = super::read::verbatim_reason(text.as_bytes())
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                warn(format!(
                    "line {:?} is not a statement levelkit understands{why}; not carried over",
                    super::lex::show(text.as_bytes())
                ));
            }
        }
    }
    level.layers = boards.into_values().collect();
    (level, warnings)
}

/// Place a row's tiles, or say why the games skip it.
fn board_row(row: &BoardRow, boards: &mut BTreeMap<u32, level::Board>) -> Result<(), String> {
    let Some((layer, x, y)) = row_place(row) else {
        return Err(format!(
            "BOARD row at x {} y {}, {} wide, on layer {} is outside the 64 x 64 board or on a \
             negative layer (GServer skips it); left out",
            row.x,
            row.y,
            row.width(),
            row.layer
        ));
    };
    if !boards.contains_key(&layer) && boards.len() >= MAX_LAYERS {
        return Err(format!(
            "layer {layer} would be layer number {} of this level; levelkit builds at most \
             {MAX_LAYERS}; left out",
            boards.len() + 1
        ));
    }
    let board = boards
        .entry(layer)
        .or_insert_with(|| level::Board::filled(layer, TILE_TRANSPARENT));
    let start = y * level::BOARD_SIZE + x;
    if let Some(cells) = board.tiles.get_mut(start..start + row.tiles.len()) {
        cells.copy_from_slice(&row.tiles);
    }
    Ok(())
}

/// `(layer, x, y)` of a row that lies on the board.
pub(crate) fn row_place(row: &BoardRow) -> Option<(u32, usize, usize)> {
    let layer = u32::try_from(row.layer).ok()?;
    let x = usize::try_from(row.x).ok()?;
    let y = usize::try_from(row.y).ok()?;
    (y < level::BOARD_SIZE && x + row.tiles.len() <= level::BOARD_SIZE && !row.tiles.is_empty())
        .then_some((layer, x, y))
}

/// The meaning of a `LINK` statement.
pub(crate) fn link_meaning(l: &Link) -> level::Link {
    level::Link {
        dest: l.dest.clone(),
        x: l.x,
        y: l.y,
        width: l.width,
        height: l.height,
        dest_x: l.dest_x.clone(),
        dest_y: l.dest_y.clone(),
        layers: l.layers.map(|l| (l.dest_layer, l.layer)),
    }
}

/// The meaning of a `SIGN` statement, and the characters that have no glyph (left out).
pub(crate) fn sign_meaning(s: &Sign) -> (level::Sign, Vec<char>) {
    let text = s.text().to_latin1();
    let (glyphs, unknown) = sign_text::from_text(&text);
    let sign = level::Sign {
        x: s.x,
        y: s.y,
        glyphs,
        layer: s.layer,
    };
    (sign, unknown)
}

/// The meaning of an `NPC` statement.
pub(crate) fn npc_meaning(n: &Npc) -> level::Npc {
    level::Npc {
        x: n.x,
        y: n.y,
        image: n.image.clone().unwrap_or_default(),
        script: n.script_text(),
        layer: n.layer,
    }
}

/// The meaning of a `CHEST` statement, or why it has none.
pub(crate) fn chest_meaning(c: &Chest) -> Result<level::Chest, String> {
    Ok(level::Chest {
        x: c.x,
        y: c.y,
        item: chest_item(&c.item)?,
        sign: c.sign,
        layer: c.layer,
    })
}

/// The meaning of a `BADDY` statement, or why it has none.
pub(crate) fn baddy_meaning(b: &Baddy) -> Result<level::Baddy, String> {
    Ok(level::Baddy {
        x: b.x,
        y: b.y,
        kind: baddy_kind(&b.kind)?,
        verses: b.verses.clone(),
        layer: b.layer,
    })
}

/// A chest item's id.
pub(crate) fn chest_item(item: &NameOrNumber) -> Result<i32, String> {
    match item {
        NameOrNumber::Number(n) => Ok(*n),
        NameOrNumber::Name(name) => CHEST_ITEMS
            .iter()
            .position(|n| n.as_bytes() == name.as_bytes())
            .and_then(|i| i32::try_from(i).ok())
            .ok_or_else(|| format!("chest item {:?} is not a known item name", name.display())),
    }
}

/// A baddy type's number.
pub(crate) fn baddy_kind(kind: &NameOrNumber) -> Result<u8, String> {
    match kind {
        NameOrNumber::Number(n) => {
            u8::try_from(*n).map_err(|_| format!("baddy type {n} is not a type number 0-255"))
        }
        NameOrNumber::Name(name) => BADDY_TYPES
            .iter()
            .position(|n| n.as_bytes() == name.as_bytes())
            .and_then(|i| u8::try_from(i).ok())
            .ok_or_else(|| format!("baddy type {:?} is not a known type name", name.display())),
    }
}

/// Convert a level to `.nw` in the original editor's form, with warnings for what the text
/// format cannot say.
pub fn from_level(level: &Level) -> (Nw, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut nw = Nw::default();
    boards(level, &mut nw, &mut warnings);

    for (i, l) in level.links.iter().enumerate() {
        push(
            &mut nw,
            &mut warnings,
            format!("links[{i}]"),
            link_statement(l),
        );
    }
    for (i, s) in level.signs.iter().enumerate() {
        let path = format!("signs[{i}]");
        let sign = sign_statement(s, &path, &mut warnings);
        let before = nw.statements.len();
        push(&mut nw, &mut warnings, path.clone(), sign);
        if nw.statements.len() == before {
            warnings.push(Warning::warning(
                F,
                Location::path(path),
                "chests that show a later sign now point one sign too far",
            ));
        }
    }
    for (i, c) in level.chests.iter().enumerate() {
        let path = format!("chests[{i}]");
        let chest = chest_statement(c, &path, &mut warnings);
        push(&mut nw, &mut warnings, path, chest);
    }
    for (i, b) in level.baddies.iter().enumerate() {
        let path = format!("baddies[{i}]");
        let baddy = baddy_statement(b, &path, &mut warnings);
        push(&mut nw, &mut warnings, path, baddy);
    }
    for (i, n) in level.npcs.iter().enumerate() {
        let path = format!("npcs[{i}]");
        let npc = npc_statement(n, &path, &mut warnings);
        push(&mut nw, &mut warnings, path, npc);
    }
    (nw, warnings)
}

/// A link's `LINK` statement.
pub(crate) fn link_statement(l: &level::Link) -> Statement {
    Statement::Link(Link {
        dest: l.dest.clone(),
        x: l.x,
        y: l.y,
        width: l.width,
        height: l.height,
        dest_x: l.dest_x.clone(),
        dest_y: l.dest_y.clone(),
        layers: l
            .layers
            .map(|(dest_layer, layer)| LinkLayers { dest_layer, layer }),
    })
}

/// A sign's `SIGN` statement, its glyphs spelled as text.
pub(crate) fn sign_statement(
    s: &level::Sign,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Statement {
    let text = sign_text::to_text(&s.glyphs);
    if sign_text::from_text(&text).0 != s.glyphs {
        warnings.push(Warning::warning(
            F,
            Location::path(path),
            format!(
                "the sign's glyphs cannot be spelled exactly in .nw text (a lone second \
                 half of a two-code glyph, a `#` before an escape letter, or a code above \
                 96); written as {text:?}"
            ),
        ));
    }
    let lines = if text.is_empty() {
        Vec::new()
    } else {
        text.split('\n').map(RawString::from).collect()
    };
    Statement::Sign(Sign {
        x: s.x,
        y: s.y,
        layer: s.layer,
        lines,
    })
}

/// The item of a chest: its name, or its number when it has none (reported).
pub(crate) fn chest_item_of(item: i32, path: &str, warnings: &mut Vec<Warning>) -> NameOrNumber {
    match usize::try_from(item).ok().and_then(|i| CHEST_ITEMS.get(i)) {
        Some(name) => NameOrNumber::Name(RawString::from(*name)),
        None => {
            warnings.push(Warning::warning(
                F,
                Location::path(path),
                format!(
                    "item {item} has no name; written as a number, which TilesEditor reads \
                     and GServer drops"
                ),
            ));
            NameOrNumber::Number(item)
        }
    }
}

/// A chest's `CHEST` statement, with the item's name.
pub(crate) fn chest_statement(
    c: &level::Chest,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Statement {
    Statement::Chest(Chest {
        x: c.x,
        y: c.y,
        item: chest_item_of(c.item, path, warnings),
        sign: c.sign,
        layer: c.layer,
    })
}

/// A baddy's `BADDY` statement, with a numeric type (what GServer reads).
pub(crate) fn baddy_statement(
    b: &level::Baddy,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Statement {
    baddy_kind_warning(b.kind, path, warnings);
    Statement::Baddy(Baddy {
        x: b.x,
        y: b.y,
        kind: NameOrNumber::Number(i32::from(b.kind)),
        layer: b.layer,
        verses: b.verses.clone(),
    })
}

/// Report a baddy type outside the ten known ones.
pub(crate) fn baddy_kind_warning(kind: u8, path: &str, warnings: &mut Vec<Warning>) {
    if usize::from(kind) >= BADDY_TYPES.len() {
        warnings.push(Warning::warning(
            F,
            Location::path(path),
            format!("baddy type {kind} is not one of the 10 types"),
        ));
    }
}

/// An NPC image as `.nw` holds it: `None` for none (written `-`).
pub(crate) fn npc_image(
    image: &RawString,
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Option<RawString> {
    match image.as_bytes() {
        b"" => None,
        b"-" => {
            warnings.push(Warning::warning(
                F,
                Location::path(path),
                "an image named `-` is written `-`, which means no image",
            ));
            None
        }
        _ => Some(image.clone()),
    }
}

/// Script lines of a script with `\n` line breaks (none for an empty script).
pub(crate) fn script_lines(script: &RawString) -> Vec<RawString> {
    if script.is_empty() {
        Vec::new()
    } else {
        script
            .as_bytes()
            .split(|&b| b == b'\n')
            .map(RawString::from)
            .collect()
    }
}

/// An NPC's `NPC` statement.
pub(crate) fn npc_statement(n: &level::Npc, path: &str, warnings: &mut Vec<Warning>) -> Statement {
    Statement::Npc(Npc {
        image: npc_image(&n.image, path, warnings),
        x: n.x,
        y: n.y,
        layer: n.layer,
        script: script_lines(&n.script),
    })
}

/// Add a statement if it can be written, else report it.
pub(crate) fn push(nw: &mut Nw, warnings: &mut Vec<Warning>, path: String, statement: Statement) {
    let mut scratch = Vec::new();
    match write::write_statement(&mut scratch, &statement, LineEnding::Lf) {
        Ok(()) => nw.statements.push(Entry::new(statement)),
        Err(why) => warnings.push(Warning::warning(
            F,
            Location::path(path),
            format!("cannot be written in .nw: {why}; left out"),
        )),
    }
}

/// Layer 0 as 64 full rows, then the other layers in ascending order as runs of
/// non-transparent cells.
fn boards(level: &Level, nw: &mut Nw, warnings: &mut Vec<Warning>) {
    let size = level::BOARD_SIZE;
    let mut order: Vec<(usize, &level::Board)> = level.layers.iter().enumerate().collect();
    if order.windows(2).any(|w| match w {
        [(_, a), (_, b)] => a.layer >= b.layer,
        _ => false,
    }) {
        warnings.push(Warning::warning(
            F,
            Location::path("layers"),
            "layers are not in strictly ascending order of their numbers; .nw rows carry \
             their layer, so they read back sorted, and a repeated number overwrites the \
             earlier board where the later one has tiles",
        ));
    }
    order.sort_by_key(|(_, b)| b.layer);
    let ground = order.iter().find(|(_, b)| b.layer == 0).copied();
    if ground.is_none() {
        warnings.push(Warning::warning(
            F,
            Location::path("layers"),
            "the level has no layer 0; written as 64 rows of tile 0 (what a .nw level without \
             rows means)",
        ));
    }
    let mut bad = 0usize;
    for y in 0..size {
        let tiles = (0..size)
            .map(|x| match ground.and_then(|(_, b)| b.get(x, y)) {
                Some(t) if t <= MAX_TILE => t,
                Some(_) => {
                    bad += 1;
                    0
                }
                None => 0,
            })
            .collect();
        nw.statements.push(Entry::new(Statement::Board(BoardRow {
            x: 0,
            y: y as i32,
            layer: 0,
            tiles,
            excess: RawString::default(),
        })));
    }
    if let Some((i, b)) = ground {
        report_board(
            b,
            i,
            bad,
            "0 (the text format has no transparent ground)",
            warnings,
        );
    }
    for &(i, board) in &order {
        if ground.is_some_and(|(g, _)| g == i) {
            continue;
        }
        let path = format!("layers[{i}]");
        let Ok(layer) = i32::try_from(board.layer) else {
            warnings.push(Warning::warning(
                F,
                Location::path(path),
                format!(
                    "layer number {} is too large for .nw; left out",
                    board.layer
                ),
            ));
            continue;
        };
        let mut bad = 0usize;
        let mut rows = 0usize;
        for y in 0..size {
            let mut x = 0;
            while x < size {
                let drawn = |x: usize| {
                    board
                        .get(x, y)
                        .filter(|&t| t != TILE_TRANSPARENT)
                        .map(|t| (t <= MAX_TILE).then_some(t))
                };
                match drawn(x) {
                    None => x += 1,
                    Some(None) => {
                        bad += 1;
                        x += 1;
                    }
                    Some(Some(_)) => {
                        let start = x;
                        let mut tiles = Vec::new();
                        while let Some(Some(t)) = drawn(x) {
                            tiles.push(t);
                            x += 1;
                        }
                        rows += 1;
                        nw.statements.push(Entry::new(Statement::Board(BoardRow {
                            x: start as i32,
                            y: y as i32,
                            layer,
                            tiles,
                            excess: RawString::default(),
                        })));
                    }
                }
            }
        }
        report_board(board, i, bad, "transparent", warnings);
        if rows == 0 {
            warnings.push(Warning::warning(
                F,
                Location::path(format!("layers[{i}]")),
                format!(
                    "layer {} has no tiles, and .nw cannot express an empty layer; left out",
                    board.layer
                ),
            ));
        }
    }
}

fn report_board(
    board: &level::Board,
    index: usize,
    bad: usize,
    written_as: &str,
    warnings: &mut Vec<Warning>,
) {
    let path = format!("layers[{index}].tiles");
    if board.tiles.len() != BOARD_CELLS {
        warnings.push(Warning::warning(
            F,
            Location::path(path.clone()),
            format!(
                "the board has {} cells instead of {BOARD_CELLS}; missing cells are written as \
                 the layer's empty value, extra cells are left out",
                board.tiles.len()
            ),
        ));
    }
    if bad > 0 {
        warnings.push(Warning::warning(
            F,
            Location::path(path),
            format!("{bad} cells hold tile numbers above {MAX_TILE}; written as {written_as}"),
        ));
    }
}

/// Glyphs of the sign a raw statement holds, if it holds one.
pub(crate) fn raw_sign_glyphs(raw: &[u8]) -> Option<Vec<u8>> {
    match parse_raw(raw)? {
        Statement::Sign(s) => Some(sign_meaning(&s).0.glyphs),
        _ => None,
    }
}

/// The one statement `raw` holds, if it is exactly one.
pub(crate) fn parse_raw(raw: &[u8]) -> Option<Statement> {
    let lines = split_lines(raw);
    match read_statement(&lines) {
        Ok((statement, used)) if used == lines.len() && raw.ends_with(b"\n") => Some(statement),
        _ => None,
    }
}
