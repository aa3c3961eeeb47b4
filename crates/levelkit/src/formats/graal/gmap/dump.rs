//! The text `levelkit dump` prints for a `.gmap`: the settings, then the grid as a table.

use std::fmt::Write as _;

use super::model::*;
use crate::strings::RawString;

/// The overworld as readable text.
pub fn dump(name: &str, gmap: &Gmap) -> String {
    let mut s = String::new();
    let summary = gmap.summary();
    let _ = writeln!(
        s,
        "{name}: {} overworld, {} x {}, {} levels",
        summary.header.as_deref().unwrap_or("gmap"),
        summary.width.as_deref().unwrap_or("?"),
        summary.height.as_deref().unwrap_or("?"),
        summary.levels
    );
    for st in &gmap.statements {
        match st {
            Statement::Setting(set) => {
                let _ = writeln!(s, "  {} {}", set.kind.keyword(), set.value.display());
            }
            Statement::Flag(f) => {
                let _ = writeln!(s, "  {}", f.kind.keyword());
            }
            Statement::Unknown(u) => {
                let _ = writeln!(s, "  (unknown) {}", u.text.display());
            }
            Statement::Names(b) if b.kind == BlockKind::LoadAtStart => {
                let names: Vec<String> = b
                    .rows
                    .iter()
                    .flat_map(|r| &r.cells)
                    .map(|c| c.name.display())
                    .collect();
                let _ = writeln!(s, "  LOADATSTART {}", names.join(", "));
            }
            Statement::Names(_) | Statement::Blank(_) => {}
        }
    }
    let grid = gmap.grid();
    let (w, h) = grid.extent();
    let (w, h) = (
        w.max(grid.width.unwrap_or(0)).min(256),
        h.max(grid.height.unwrap_or(0)).min(256),
    );
    let names: std::collections::BTreeMap<(u32, u32), &RawString> =
        grid.cells.iter().map(|c| ((c.x, c.y), &c.name)).collect();
    let _ = writeln!(s, "  grid:");
    for y in 0..h {
        let row: Vec<String> = (0..w)
            .map(|x| {
                names
                    .get(&(x, y))
                    .map_or_else(|| "-".to_owned(), |n| n.display())
            })
            .collect();
        let _ = writeln!(s, "    {y:>3}: {}", row.join("  "));
    }
    s
}
