//! `.nw` levels <-> common [`TileMap`], both ways, losslessly.
//!
//! The map shows the level's meaning exactly as for binary levels (see
//! [`crate::formats::graal::tilemap`]: tile layers, objects with typed properties). What the
//! meaning does not determine travels as raw forms:
//!
//! * [`NW_STATEMENTS`] (map property, string): the file's statements in order, one per line:
//!   `object <id>` for a map object, `board <x> <y> <width> <layer>` for a `BOARD` row written
//!   canonically whose tiles are all shown by the map, and `raw <bytes>` for anything else (rows
//!   spelled differently or partly hidden under later rows, blank and unknown lines, `TILESET`,
//!   `TILESETIMAGE`, `HEIGHTS`, chests and baddies whose item or type name is unknown), the
//!   statement's exact lines in the escaped form of
//!   [`crate::formats::graal::tilemap::escape_raw`].
//! * [`NW_RAW`] (object property, raw string): the statement's exact lines, when they differ from
//!   what the object's meaning would be written as (a chest item given as a number, a baddy type
//!   given as a name, `30.0` for `30`, CRLF lines, an empty script line, sign text with spellings
//!   the glyphs do not determine).
//! * [`NW_LINE_ENDING`] (map property, `crlf`) and [`NW_FINAL_NEWLINE`] (map property, bool
//!   `false`), only when not the default LF and final line break.
//!
//! On the way back ([`tilemap_to_nw`]) each statement keeps, field by field, what its raw form
//! says as long as that still means what the map shows; changed fields are written canonically.
//! `BOARD` rows take the map's tiles for the cells they show; a cell made empty on an upper
//! layer splits its row; cells no row covers that now hold tiles become new rows after the last
//! `BOARD` statement. Objects deleted in the map are left out; objects added are appended at the
//! end of the file, in map order.

use std::collections::{BTreeMap, HashMap};

use super::canonical::render;
use super::level::{
    baddy_kind, baddy_meaning, baddy_statement, chest_item, chest_meaning, chest_statement,
    from_level, link_meaning, link_statement, npc_meaning, npc_statement, parse_raw, row_place,
    sign_meaning, sign_statement, to_level,
};
use super::model::*;
use super::write::{write_entry, write_statement};
use crate::error::{Error, Location, Result, Warning};
use crate::formats::graal::level::{self, BOARD_CELLS, BOARD_SIZE, Level, TILE_TRANSPARENT};
use crate::formats::graal::tilemap::{
    Kind, MapEntry, escape_raw, parse_map, raw_prop, to_tilemap, unescape_raw,
};
use crate::registry::Format;
use crate::strings::RawString;
use crate::tilemap::{Layer, TileMap};

const F: Format = Format::Nw;

/// Map property (string): the statement order (see the module docs). Its presence marks a map
/// made from a `.nw` file.
pub const NW_STATEMENTS: &str = "nw_statements";
/// Object property (raw string): the statement's exact lines, when the meaning does not
/// determine them (defined beside the `.graal` one, which the shared map reader also reads).
pub use crate::formats::graal::tilemap::NW_RAW;
/// Map property (string `crlf`): the file's line break, when it is not LF.
pub const NW_LINE_ENDING: &str = "nw_line_ending";
/// Map property (bool `false`): the file does not end with a line break.
pub const NW_FINAL_NEWLINE: &str = "nw_final_newline";

/// A statement built from an object's meaning, as a new object's is.
fn fresh_statement(
    kind: Kind,
    index: usize,
    level: &Level,
    w: &mut Vec<Warning>,
) -> Option<Statement> {
    let path = |what: &str| format!("{what}[{index}]");
    Some(match kind {
        Kind::Link => link_statement(level.links.get(index)?),
        Kind::Sign => sign_statement(level.signs.get(index)?, &path("signs"), w),
        Kind::Chest => chest_statement(level.chests.get(index)?, &path("chests"), w),
        Kind::Baddy => baddy_statement(level.baddies.get(index)?, &path("baddies"), w),
        Kind::Npc => npc_statement(level.npcs.get(index)?, &path("npcs"), w),
    })
}

/// A `.nw` level as a map: the meaning plus the raw forms of what it does not determine.
pub fn nw_to_tilemap(n: &Nw) -> (TileMap, Vec<Warning>) {
    let (level, mut warnings) = to_level(n);
    let (mut map, more) = to_tilemap(&level, F);
    warnings.extend(more);
    let eol = n.line_ending;

    // Object ids, as `to_tilemap` numbers them.
    let mut next_id = [0u32; 5];
    let mut base = 1u32;
    for (slot, count) in next_id.iter_mut().zip([
        level.links.len(),
        level.signs.len(),
        level.chests.len(),
        level.baddies.len(),
        level.npcs.len(),
    ]) {
        *slot = base;
        base = base.saturating_add(u32::try_from(count).unwrap_or(u32::MAX));
    }
    let mut take_id = |k: usize| -> u32 {
        let slot = next_id.get_mut(k);
        match slot {
            Some(id) => {
                let v = *id;
                *id = id.saturating_add(1);
                v
            }
            None => 0,
        }
    };

    // The last row to write each cell, per layer (the rows `to_level` places).
    let mut last: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut placed = vec![false; n.statements.len()];
    let mut layers_seen = std::collections::BTreeSet::from([0u32]);
    for (index, entry) in n.statements.iter().enumerate() {
        if let Statement::Board(row) = &entry.statement {
            if let Some((layer, x, y)) = row_place(row) {
                if !layers_seen.contains(&layer) && layers_seen.len() >= super::MAX_LAYERS {
                    continue;
                }
                layers_seen.insert(layer);
                let cells = last
                    .entry(layer)
                    .or_insert_with(|| vec![usize::MAX; BOARD_CELLS]);
                let start = y * BOARD_SIZE + x;
                for c in cells
                    .get_mut(start..start + row.tiles.len())
                    .unwrap_or(&mut [])
                {
                    *c = index;
                }
                if let Some(p) = placed.get_mut(index) {
                    *p = true;
                }
            }
        }
    }

    let mut order = String::new();
    let mut raws: HashMap<u32, String> = HashMap::new();
    let mut bytes = Vec::new();
    let mut canonical = Vec::new();
    let mut scratch = Vec::new();
    for (index, entry) in n.statements.iter().enumerate() {
        bytes.clear();
        if write_entry(&mut bytes, entry, eol).is_err() {
            bytes.clear();
            let _ = render(&entry.statement, eol, &mut bytes);
        }
        canonical.clear();
        let mut object = |k: usize, canonical: &mut Vec<u8>| -> String {
            canonical.clear();
            format!("object {}\n", take_id(k))
        };
        let line = match &entry.statement {
            Statement::Board(row)
                if placed.get(index) == Some(&true)
                    && row.excess.is_empty()
                    && entry.source.is_none()
                    && row_place(row).is_some_and(|(layer, x, y)| {
                        let start = y * BOARD_SIZE + x;
                        last.get(&layer)
                            .and_then(|c| c.get(start..start + row.tiles.len()))
                            .is_some_and(|c| c.iter().all(|&w| w == index))
                    }) =>
            {
                format!(
                    "board {} {} {} {}\n",
                    row.x,
                    row.y,
                    row.tiles.len(),
                    row.layer
                )
            }
            Statement::Link(l) => {
                let line = object(0, &mut canonical);
                let _ = write_statement(&mut canonical, &link_statement(&link_meaning(l)), eol);
                line
            }
            Statement::Sign(s) => {
                let line = object(1, &mut canonical);
                let mut sign = sign_meaning(s).0;
                sign.glyphs =
                    level::sign_text::from_text(&level::sign_text::to_text(&sign.glyphs)).0;
                let st = sign_statement(&sign, "", &mut scratch);
                let _ = write_statement(&mut canonical, &st, eol);
                line
            }
            Statement::Chest(c) if chest_meaning(c).is_ok() => {
                let line = object(2, &mut canonical);
                if let Ok(m) = chest_meaning(c) {
                    let _ = write_statement(
                        &mut canonical,
                        &chest_statement(&m, "", &mut scratch),
                        eol,
                    );
                }
                line
            }
            Statement::Baddy(b) if baddy_meaning(b).is_ok() => {
                let line = object(3, &mut canonical);
                if let Ok(m) = baddy_meaning(b) {
                    let _ = write_statement(
                        &mut canonical,
                        &baddy_statement(&m, "", &mut scratch),
                        eol,
                    );
                }
                line
            }
            Statement::Npc(npc) => {
                let line = object(4, &mut canonical);
                let st = npc_statement(&npc_meaning(npc), "", &mut scratch);
                let _ = write_statement(&mut canonical, &st, eol);
                line
            }
            _ => format!("raw {}\n", escape_raw(&bytes)),
        };
        scratch.clear();
        if let Some(id) = line
            .strip_prefix("object ")
            .and_then(|t| t.trim_end().parse::<u32>().ok())
        {
            if canonical != bytes {
                raws.insert(id, escape_raw(&bytes));
            }
        }
        order.push_str(&line);
    }
    if order.ends_with('\n') {
        order.pop();
    }

    map.properties.string(NW_STATEMENTS, order);
    if n.line_ending == LineEnding::CrLf {
        map.properties.string(NW_LINE_ENDING, "crlf");
    }
    if !n.final_newline {
        map.properties.bool(NW_FINAL_NEWLINE, false);
    }
    for layer in &mut map.layers {
        if let Layer::Objects(group) = layer {
            for o in &mut group.objects {
                if let Some(raw) = raws.remove(&o.id) {
                    o.properties.string(NW_RAW, raw);
                }
            }
        }
    }
    (map, warnings)
}

fn map_error(message: String, property: &str) -> Error {
    Error::malformed(
        F,
        Location::path(format!("map property {property:?}")),
        message,
    )
}

/// A statement slot of the file being rebuilt.
enum Slot {
    Entry(Entry),
    /// A `BOARD` row: the row, its original lines, and whether its tiles are known (a `board`
    /// line takes them all from the map).
    Row(BoardRow, Option<RawString>, bool),
}

/// The entry of a map object: its raw statement where that still agrees, field by field, with
/// the meaning, else the meaning written canonically.
fn object_entry(
    e: &MapEntry<'_>,
    level: &Level,
    eol: LineEnding,
    warnings: &mut Vec<Warning>,
) -> Result<Entry> {
    let mut scratch = Vec::new();
    let fresh = fresh_statement(e.kind, e.index, level, &mut scratch).ok_or_else(|| {
        Error::malformed(F, Location::path(e.path.as_str()), "object has no meaning")
    })?;
    let raw = raw_prop(&e.object.properties, NW_RAW);
    let original = raw.as_deref().and_then(parse_raw);
    let merged = match (&fresh, &original) {
        (Statement::Link(f), Some(Statement::Link(r))) => {
            let same = level.links.get(e.index) == Some(&link_meaning(r));
            Statement::Link(if same { r.clone() } else { f.clone() })
        }
        (Statement::Sign(f), Some(Statement::Sign(r))) => {
            let m = level.signs.get(e.index);
            let same_text = m.is_some_and(|m| sign_meaning(r).0.glyphs == m.glyphs);
            Statement::Sign(Sign {
                lines: if same_text {
                    r.lines.clone()
                } else {
                    f.lines.clone()
                },
                ..f.clone()
            })
        }
        (Statement::Npc(f), Some(Statement::Npc(r))) => {
            let m = level.npcs.get(e.index);
            let same_image = m.is_some_and(|m| r.image.clone().unwrap_or_default() == m.image);
            let same_script = m.is_some_and(|m| r.script_text() == m.script);
            Statement::Npc(Npc {
                image: if same_image {
                    r.image.clone()
                } else {
                    f.image.clone()
                },
                script: if same_script {
                    r.script.clone()
                } else {
                    f.script.clone()
                },
                ..f.clone()
            })
        }
        (Statement::Chest(f), Some(Statement::Chest(r))) => {
            let m = level.chests.get(e.index);
            let same_item = m.is_some_and(|m| chest_item(&r.item) == Ok(m.item));
            Statement::Chest(Chest {
                item: if same_item {
                    r.item.clone()
                } else {
                    f.item.clone()
                },
                ..f.clone()
            })
        }
        (Statement::Baddy(f), Some(Statement::Baddy(r))) => {
            let m = level.baddies.get(e.index);
            let same_kind = m.is_some_and(|m| baddy_kind(&r.kind) == Ok(m.kind));
            Statement::Baddy(Baddy {
                kind: if same_kind {
                    r.kind.clone()
                } else {
                    f.kind.clone()
                },
                ..f.clone()
            })
        }
        _ => fresh.clone(),
    };
    let unchanged = original.as_ref() == Some(&merged);
    if !unchanged && merged == fresh {
        warnings.append(&mut scratch);
    }
    let mut canonical = Vec::new();
    write_statement(&mut canonical, &merged, eol).map_err(|why| {
        Error::malformed(
            F,
            Location::path(e.path.as_str()),
            format!("cannot be written in .nw: {why}"),
        )
    })?;
    let source = match raw {
        Some(raw) if unchanged && raw != canonical => Some(RawString(raw)),
        _ => None,
    };
    Ok(Entry {
        statement: merged,
        source,
    })
}

/// The entry of a raw statement line.
fn raw_slot(text: &str, line: usize, eol: LineEnding) -> Result<Slot> {
    let bad = || {
        map_error(
            format!(
                "line {line} of map property {NW_STATEMENTS:?} must hold one statement's raw \
                 lines, but is {text:?}"
            ),
            NW_STATEMENTS,
        )
    };
    let raw = unescape_raw(text).ok_or_else(bad)?;
    let statement = parse_raw(&raw).ok_or_else(bad)?;
    let mut canonical = Vec::new();
    let same = render(&statement, eol, &mut canonical).is_ok() && canonical == raw;
    let source = (!same).then_some(RawString(raw));
    Ok(match statement {
        Statement::Board(row) => Slot::Row(row, source, true),
        statement => Slot::Entry(Entry { statement, source }),
    })
}

/// A map back to a `.nw` level. A map from a `.nw` file (it has [`NW_STATEMENTS`]) keeps every
/// raw form that still agrees with its meaning; any other map is converted from its meaning as
/// [`from_level`] does.
pub fn tilemap_to_nw(map: &TileMap) -> Result<(Nw, Vec<Warning>)> {
    let parsed = parse_map(map, F)?;
    let mut warnings = parsed.warnings;
    let level = &parsed.level;
    let props = &map.properties;
    let order = match props.get_str(NW_STATEMENTS) {
        Err(e) => return Err(map_error(e.to_string(), NW_STATEMENTS)),
        Ok(None) => {
            let (nw, more) = from_level(level);
            warnings.extend(more);
            return Ok((nw, warnings));
        }
        Ok(Some(order)) => order,
    };
    let line_ending = match props.get_str(NW_LINE_ENDING) {
        Ok(None | Some("lf")) => LineEnding::Lf,
        Ok(Some("crlf")) => LineEnding::CrLf,
        Ok(Some(other)) => {
            return Err(map_error(
                format!(
                    "map property {NW_LINE_ENDING:?} must be \"lf\" or \"crlf\", but is {other:?}"
                ),
                NW_LINE_ENDING,
            ));
        }
        Err(e) => return Err(map_error(e.to_string(), NW_LINE_ENDING)),
    };
    let final_newline = props
        .get_bool(NW_FINAL_NEWLINE)
        .map_err(|e| map_error(e.to_string(), NW_FINAL_NEWLINE))?
        .unwrap_or(true);
    let eol = line_ending;

    let mut by_id: HashMap<u32, usize> = HashMap::new();
    for (i, e) in parsed.objects.iter().enumerate() {
        by_id.entry(e.object.id).or_insert(i);
    }
    let mut used = vec![false; parsed.objects.len()];
    let mut slots = Vec::new();
    for (n, line) in order.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let number = n.saturating_add(1);
        let bad = || {
            map_error(
                format!(
                    "line {number} of map property {NW_STATEMENTS:?} must be `object <id>`, \
                     `board <x> <y> <width> <layer>` or `raw <bytes>`, but is {line:?}"
                ),
                NW_STATEMENTS,
            )
        };
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "object" => {
                let id: u32 = rest.trim().parse().map_err(|_| bad())?;
                let Some(&i) = by_id.get(&id) else { continue };
                match used.get_mut(i) {
                    Some(u) if !*u => *u = true,
                    _ => continue,
                }
                if let Some(e) = parsed.objects.get(i) {
                    slots.push(Slot::Entry(object_entry(e, level, eol, &mut warnings)?));
                }
            }
            "board" => {
                let nums: Vec<i32> = rest
                    .split(' ')
                    .map(|t| t.parse::<i32>())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|_| bad())?;
                let [x, y, width, layer] = nums.as_slice() else {
                    return Err(bad());
                };
                let width = usize::try_from(*width)
                    .ok()
                    .filter(|w| (1..=BOARD_SIZE).contains(w))
                    .ok_or_else(bad)?;
                let row = BoardRow {
                    x: *x,
                    y: *y,
                    layer: *layer,
                    tiles: vec![0; width],
                    excess: RawString::default(),
                };
                slots.push(Slot::Row(row, None, false));
            }
            "raw" => slots.push(raw_slot(rest, number, eol)?),
            "" if order.is_empty() => {}
            _ => return Err(bad()),
        }
    }
    let mut statements = reconcile_boards(slots, level, &mut warnings);
    for (e, _) in parsed.objects.iter().zip(&used).filter(|(_, u)| !**u) {
        statements.push(object_entry(e, level, eol, &mut warnings)?);
    }
    let nw = Nw {
        line_ending,
        final_newline,
        statements,
    };
    Ok((nw, warnings))
}

/// Bring the `BOARD` rows in line with the map's boards (see the module docs) and flatten the
/// slots into entries.
fn reconcile_boards(slots: Vec<Slot>, level: &Level, warnings: &mut Vec<Warning>) -> Vec<Entry> {
    let boards: BTreeMap<u32, &Vec<u16>> =
        level.layers.iter().map(|b| (b.layer, &b.tiles)).collect();
    let at = |layer: u32, cell: usize| -> u16 {
        boards
            .get(&layer)
            .and_then(|t| t.get(cell))
            .copied()
            .unwrap_or(TILE_TRANSPARENT)
    };
    // The last row to write each cell, per layer.
    let mut last: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, slot) in slots.iter().enumerate() {
        if let Slot::Row(row, _, _) = slot {
            if let Some((layer, x, y)) = row_place(row) {
                let cells = last
                    .entry(layer)
                    .or_insert_with(|| vec![usize::MAX; BOARD_CELLS]);
                let start = y * BOARD_SIZE + x;
                for c in cells
                    .get_mut(start..start + row.tiles.len())
                    .unwrap_or(&mut [])
                {
                    *c = i;
                }
            }
        }
    }
    let mut ground_emptied = 0usize;
    let mut out = Vec::with_capacity(slots.len());
    let mut after_rows = 0usize;
    for (i, slot) in slots.into_iter().enumerate() {
        let (row, source, known) = match slot {
            Slot::Entry(e) => {
                out.push(e);
                continue;
            }
            Slot::Row(row, source, known) => (row, source, known),
        };
        let Some((layer, x, y)) = row_place(&row) else {
            out.push(Entry {
                statement: Statement::Board(row),
                source,
            });
            after_rows = out.len();
            continue;
        };
        let start = y * BOARD_SIZE + x;
        let owners = last.get(&layer);
        let mut cells: Vec<Option<u16>> = Vec::with_capacity(row.tiles.len());
        for (k, &old) in row.tiles.iter().enumerate() {
            let cell = start + k;
            let m = at(layer, cell);
            let owned = owners.and_then(|o| o.get(cell)) == Some(&i);
            cells.push(if m == TILE_TRANSPARENT && layer > 0 {
                None
            } else if owned || !known {
                Some(if m == TILE_TRANSPARENT {
                    ground_emptied += 1;
                    0
                } else {
                    m
                })
            } else {
                Some(old)
            });
        }
        let unchanged = known
            && cells.len() == row.tiles.len()
            && cells.iter().zip(&row.tiles).all(|(c, t)| *c == Some(*t));
        if unchanged {
            out.push(Entry {
                statement: Statement::Board(row),
                source,
            });
        } else {
            let mut k = 0usize;
            while k < cells.len() {
                if cells.get(k).copied().flatten().is_none() {
                    k += 1;
                    continue;
                }
                let run_start = k;
                let mut tiles = Vec::new();
                while let Some(Some(t)) = cells.get(k) {
                    tiles.push(*t);
                    k += 1;
                }
                let full = run_start == 0 && tiles.len() == row.tiles.len();
                out.push(Entry::new(Statement::Board(BoardRow {
                    x: row.x.saturating_add(i32::try_from(run_start).unwrap_or(0)),
                    y: row.y,
                    layer: row.layer,
                    tiles,
                    excess: if full {
                        row.excess.clone()
                    } else {
                        RawString::default()
                    },
                })));
            }
        }
        after_rows = out.len();
    }
    // Cells no row covers that now hold tiles: new rows after the last row.
    let mut new_rows = Vec::new();
    for board in &level.layers {
        let Ok(layer) = i32::try_from(board.layer) else {
            continue;
        };
        let owners = last.get(&board.layer);
        let empty = if board.layer == 0 {
            0
        } else {
            TILE_TRANSPARENT
        };
        let needs = |cell: usize| -> Option<u16> {
            if owners
                .and_then(|o| o.get(cell))
                .is_some_and(|&o| o != usize::MAX)
            {
                return None;
            }
            board
                .tiles
                .get(cell)
                .copied()
                .filter(|&t| t != empty && t != TILE_TRANSPARENT)
        };
        for y in 0..BOARD_SIZE {
            let mut x = 0;
            while x < BOARD_SIZE {
                if needs(y * BOARD_SIZE + x).is_none() {
                    x += 1;
                    continue;
                }
                let start = x;
                let mut tiles = Vec::new();
                while let Some(t) = (x < BOARD_SIZE)
                    .then(|| needs(y * BOARD_SIZE + x))
                    .flatten()
                {
                    tiles.push(t);
                    x += 1;
                }
                new_rows.push(Entry::new(Statement::Board(BoardRow {
                    x: i32::try_from(start).unwrap_or(0),
                    y: i32::try_from(y).unwrap_or(0),
                    layer,
                    tiles,
                    excess: RawString::default(),
                })));
            }
        }
    }
    if ground_emptied > 0 {
        warnings.push(Warning::warning(
            F,
            Location::path("layers"),
            format!(
                "{ground_emptied} empty cells of layer 0 written as tile 0 (the text format has \
                 no transparent ground)"
            ),
        ));
    }
    if !new_rows.is_empty() {
        let at = after_rows.min(out.len());
        out.splice(at..at, new_rows);
    }
    out
}
