//! Every finding of a `.gmap`, with its path. Errors: the grid cannot be built (no numeric
//! `WIDTH` or `HEIGHT`, no `LEVELNAMES` block) or the model cannot be written back. Warnings:
//! what GServer-v2 or TilesEditor would read differently from what the file seems to say.

use std::collections::BTreeMap;

use super::lex;
use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Gmap;

/// Check the overworld and collect every finding.
pub fn validate(gmap: &Gmap) -> Vec<Warning> {
    let mut out = Vec::new();
    let warn = |out: &mut Vec<Warning>, path: String, message: String| {
        out.push(Warning::warning(F, Location::path(path), message));
    };
    let error = |out: &mut Vec<Warning>, path: String, message: String| {
        out.push(Warning::error(F, Location::path(path), message));
    };
    if let Err(e) = super::write::lines(gmap) {
        error(&mut out, "statements".into(), e.message);
    }
    if gmap.header.is_none() {
        warn(
            &mut out,
            "header".into(),
            "no GRMAP001 line: TilesEditor skips the first line whatever it holds".into(),
        );
    }
    let grid = gmap.grid();
    for kind in [SettingKind::Width, SettingKind::Height] {
        let settings: Vec<(usize, &Setting)> = gmap
            .statements
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                Statement::Setting(s) if s.kind == kind => Some((i, s)),
                _ => None,
            })
            .collect();
        let value = match kind {
            SettingKind::Width => grid.width,
            _ => grid.height,
        };
        match (settings.last(), value) {
            (None, _) => error(
                &mut out,
                "statements".into(),
                format!("no {} line", kind.keyword()),
            ),
            (Some((i, s)), None | Some(0)) => error(
                &mut out,
                format!("statements[{i}]"),
                format!(
                    "{} {} is not a positive whole number",
                    kind.keyword(),
                    s.value.display()
                ),
            ),
            _ => {}
        }
        if settings.len() > 1 {
            warn(
                &mut out,
                "statements".into(),
                format!(
                    "{} {} lines; the last one counts",
                    settings.len(),
                    kind.keyword()
                ),
            );
        }
    }
    for (i, s) in gmap.statements.iter().enumerate() {
        match s {
            Statement::Setting(s) if lex::trim(s.value.as_bytes()).contains(&b' ') => warn(
                &mut out,
                format!("statements[{i}]"),
                format!(
                    "{} has more than one word; GServer ignores such lines",
                    s.kind.keyword()
                ),
            ),
            Statement::Unknown(u) => warn(
                &mut out,
                format!("statements[{i}]"),
                format!("line not recognised, kept as it is: {}", u.text.display()),
            ),
            _ => {}
        }
    }
    let blocks = gmap
        .statements
        .iter()
        .filter(|s| matches!(s, Statement::Names(b) if b.kind == BlockKind::LevelNames))
        .count();
    match blocks {
        0 => error(&mut out, "statements".into(), "no LEVELNAMES block".into()),
        1 => {}
        n => warn(
            &mut out,
            "statements".into(),
            format!("{n} LEVELNAMES blocks; GServer keeps the last one"),
        ),
    }
    if let Some(block) = gmap.block(BlockKind::LevelNames) {
        validate_rows(&mut out, block, &grid);
    }
    // Duplicate names: GServer maps a name to one position (the last), so a level that appears
    // twice is entered from the wrong place.
    let mut seen: BTreeMap<Vec<u8>, (u32, u32)> = BTreeMap::new();
    for c in &grid.cells {
        let key = c.name.as_bytes().to_ascii_lowercase();
        if let Some((x, y)) = seen.get(&key) {
            warn(
                &mut out,
                format!("levels[{},{}]", c.x, c.y),
                format!(
                    "level {} at ({},{}) is also at ({x},{y}); GServer keeps one position per name",
                    c.name.display(),
                    c.x,
                    c.y
                ),
            );
        } else {
            seen.insert(key, (c.x, c.y));
        }
    }
    if let Some(block) = gmap.block(BlockKind::LoadAtStart) {
        for cell in block.rows.iter().flat_map(|r| &r.cells) {
            let key = cell.name.as_bytes().to_ascii_lowercase();
            if !cell.name.is_empty() && !seen.contains_key(&key) {
                warn(
                    &mut out,
                    "load_at_start".into(),
                    format!(
                        "LOADATSTART names {}, which is not on the grid",
                        cell.name.display()
                    ),
                );
            }
        }
    }
    out
}

/// Rows against the declared size, and the blank rows the two readers count differently.
fn validate_rows(out: &mut Vec<Warning>, block: &NameBlock, grid: &super::Grid) {
    let mut y = 0u32;
    for (i, row) in block.rows.iter().enumerate() {
        let path = format!("levelnames.rows[{i}]");
        if row.is_blank() {
            out.push(Warning::warning(
                F,
                Location::path(path),
                "blank line among the level names: GServer skips it, TilesEditor counts it \
                 as a row, so the rows below it are placed differently",
            ));
            continue;
        }
        if let Some(width) = grid.width {
            let used = row
                .cells
                .iter()
                .rposition(|c| !c.name.is_empty())
                .map_or(0, |p| p.saturating_add(1));
            if u32::try_from(used).unwrap_or(u32::MAX) > width {
                out.push(Warning::warning(
                    F,
                    Location::path(path.clone()),
                    format!(
                        "row {y} has names in {used} columns but WIDTH is {width}; \
                         GServer ignores the names past it"
                    ),
                ));
            }
        }
        y = y.saturating_add(1);
    }
    if let Some(height) = grid.height {
        if y != height {
            out.push(Warning::warning(
                F,
                Location::path("levelnames"),
                format!(
                    "{y} rows of names but HEIGHT is {height}{}",
                    if y > height {
                        "; GServer ignores the rows past it"
                    } else {
                        "; the missing rows are empty"
                    }
                ),
            ));
        }
    }
}
