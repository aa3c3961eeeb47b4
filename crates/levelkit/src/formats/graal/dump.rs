//! The text form of a Graal level's meaning (`levelkit dump`), shared by `.graal` and `.nw`:
//! layers, links, baddies, NPCs, chests and signs, one line each.

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};

use crate::error::Warning;
use crate::strings::{RawString, quoted};

/// The text dump of a level's meaning; `kind` names the file's form (`graal level (GR-V1.03)`).
pub fn dump(name: &str, kind: &str, meaning: &super::level::Level, warnings: &[Warning]) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_level(&mut s, name, kind, meaning, warnings);
    s
}

/// The text dump of a Graal level's meaning (shared by `.graal` and `.nw`).
fn dump_level(
    s: &mut String,
    name: &str,
    kind: &str,
    meaning: &super::level::Level,
    warnings: &[Warning],
) -> fmt::Result {
    use super::binary::link_line;
    use super::level::{BADDY_TYPES, CHEST_ITEMS, sign_text};
    writeln!(s, "{name}: {kind}")?;
    for board in &meaning.layers {
        let distinct: BTreeSet<u16> = board.tiles.iter().copied().collect();
        writeln!(
            s,
            "layer {}: {} distinct tiles",
            board.layer,
            distinct.len()
        )?;
    }
    writeln!(s, "links ({})", meaning.links.len())?;
    for l in &meaning.links {
        writeln!(s, "  {}", quoted(&link_line(l)))?;
    }
    writeln!(s, "baddies ({})", meaning.baddies.len())?;
    for b in &meaning.baddies {
        let kind = BADDY_TYPES.get(usize::from(b.kind)).copied().unwrap_or("?");
        let verses: Vec<String> = b.verses.iter().map(quoted).collect();
        writeln!(
            s,
            "  {kind} ({}) at {}, {}  verses {}",
            b.kind,
            b.x,
            b.y,
            verses.join(" / ")
        )?;
    }
    writeln!(s, "npcs ({})", meaning.npcs.len())?;
    for n in &meaning.npcs {
        let lines = n.script.0.split(|&c| c == b'\n').count();
        let first = n.script.0.split(|&c| c == b'\n').next().unwrap_or(&[]);
        writeln!(
            s,
            "  at {}, {}  image {}  script {lines} lines, first {}",
            n.x,
            n.y,
            quoted(&n.image),
            quoted(&RawString::from(first))
        )?;
    }
    writeln!(s, "chests ({})", meaning.chests.len())?;
    for c in &meaning.chests {
        let item = usize::try_from(c.item)
            .ok()
            .and_then(|i| CHEST_ITEMS.get(i))
            .copied()
            .unwrap_or("?");
        writeln!(
            s,
            "  {item} ({}) at {}, {}  sign {}",
            c.item, c.x, c.y, c.sign
        )?;
    }
    writeln!(s, "signs ({})", meaning.signs.len())?;
    for sign in &meaning.signs {
        writeln!(
            s,
            "  at {}, {}: {:?}",
            sign.x,
            sign.y,
            sign_text::to_text(&sign.glyphs)
        )?;
    }
    for w in warnings {
        writeln!(s, "{w}")?;
    }
    Ok(())
}
