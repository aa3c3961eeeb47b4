//! Validation: every finding with its path, errors (the file is unusable) apart from warnings
//! (the game would still load it).

use super::*;

/// Check a level. Everything here is a warning: the game loads such levels.
pub fn validate(g: &Graal) -> Vec<Warning> {
    let mut out = Vec::new();
    let (meaning, warnings) = to_level(g);
    out.extend(warnings);
    let warn = |out: &mut Vec<Warning>, path: String, msg: String| {
        out.push(Warning::warning(F, Location::path(path), msg));
    };
    for (i, b) in g.boards.iter().enumerate() {
        if let Some(p) = &b.packets {
            if write::decode_packets(p, g.version.packet_bits()) != b.tiles {
                warn(
                    &mut out,
                    format!("boards[{i}]"),
                    "the stored packets no longer decode to the tiles; they will be re-encoded"
                        .into(),
                );
            }
        }
    }
    let off_board = |x: f64, y: f64| !(0.0..64.0).contains(&x) || !(0.0..64.0).contains(&y);
    for (i, n) in meaning.npcs.iter().enumerate() {
        if off_board(n.x, n.y) {
            warn(
                &mut out,
                format!("npcs[{i}]"),
                format!("NPC at ({}, {}) is off the 64 x 64 board", n.x, n.y),
            );
        }
    }
    for (i, b) in g.baddies.iter().enumerate() {
        if b.kind > 9 {
            warn(
                &mut out,
                format!("baddies[{i}]"),
                format!("baddy type {} is not one of 0 to 9", b.kind),
            );
        }
        let slashes = b.verses.0.iter().filter(|&&c| c == b'\\').count();
        if g.version.has_verses() && slashes != 2 {
            warn(
                &mut out,
                format!("baddies[{i}].verses"),
                format!("verse line has {slashes} backslashes; the original editor writes 2"),
            );
        }
    }
    for (i, c) in meaning.chests.iter().enumerate() {
        if off_board(c.x, c.y) {
            warn(
                &mut out,
                format!("chests[{i}]"),
                format!("chest at ({}, {}) is off the board", c.x, c.y),
            );
        }
        if !(0..crate::formats::graal::level::CHEST_ITEMS.len() as i32).contains(&c.item) {
            warn(
                &mut out,
                format!("chests[{i}]"),
                format!("chest item {} is not a known item id (0 to 24)", c.item),
            );
        }
        if c.sign >= meaning.signs.len() as i32 {
            warn(
                &mut out,
                format!("chests[{i}]"),
                format!(
                    "chest shows sign {} but the level has {}",
                    c.sign,
                    meaning.signs.len()
                ),
            );
        }
    }
    for (i, l) in meaning.links.iter().enumerate() {
        if l.width <= 0 || l.height <= 0 || off_board(f64::from(l.x), f64::from(l.y)) {
            warn(
                &mut out,
                format!("links[{i}]"),
                format!(
                    "link rectangle {} {} {} x {} is empty or off the board",
                    l.x, l.y, l.width, l.height
                ),
            );
        }
        for (axis, c) in [("destX", &l.dest_x), ("destY", &l.dest_y)] {
            if c.meaning().is_none() {
                warn(
                    &mut out,
                    format!("links[{i}]"),
                    format!(
                        "{axis} {:?} is neither a number nor playerx/playery with an offset \
                         (kept as written; the client evaluates it)",
                        c.0.display()
                    ),
                );
            }
        }
    }
    out
}
