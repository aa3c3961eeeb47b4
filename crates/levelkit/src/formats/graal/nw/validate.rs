//! Validation: every finding with its path, errors (the file is unusable) apart from warnings
//! (the game would still load it).

use super::*;

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
        let loc = level::at(index, line);
        line = line.saturating_add(write::entry_lines(entry));
        let mut warn = |message: String| out.push(Warning::warning(F, loc.clone(), message));
        scratch.clear();
        if let Err(why) = write::write_entry(&mut scratch, entry, nw.line_ending) {
            out.push(Warning::error(F, loc, format!("cannot be written: {why}")));
            continue;
        }
        match &entry.statement {
            Statement::Board(row) => {
                match level::row_place(row) {
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
                            let cells = cover.entry(layer).or_insert_with(|| {
                                vec![0; crate::formats::graal::level::BOARD_CELLS]
                            });
                            let start = y * crate::formats::graal::level::BOARD_SIZE + x;
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
                for (axis, c) in [("destX", &l.dest_x), ("destY", &l.dest_y)] {
                    if c.meaning().is_none() {
                        warn(format!(
                            "link to {}: {axis} {:?} is neither a number nor playerx/playery \
                             with an offset (kept as written; the client evaluates it)",
                            l.dest.display(),
                            c.0.display()
                        ));
                    }
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
                        if let Err(why) = level::chest_item(&c.item) {
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
                    NameOrNumber::Name(name) => match level::baddy_kind(&b.kind) {
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
