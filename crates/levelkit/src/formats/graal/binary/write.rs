//! Binary level writer. Mirrors `read.rs` function by function.

use super::model::*;
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

use crate::formats::graal::level::BOARD_CELLS;

const F: Format = Format::GraalLevel;

/// Longest run one control packet carries in our encoder. The count field holds up to 255; the
/// original editor's runs observed in real files never exceed 64.
pub const MAX_RUN: usize = 64;

/// Write a binary level.
pub fn write(level: &Graal) -> Result<Vec<u8>> {
    check_model(level)?;
    let mut w = ByteWriter::with_capacity(8192);
    write_header(&mut w, level);
    let width = level.version.packet_bits();
    for board in &level.boards {
        write_board(&mut w, board, width);
    }
    write_links(&mut w, level);
    write_baddies(&mut w, level);
    if level.version.has_npcs() {
        write_npcs(&mut w, level);
    }
    if level.version.has_chests() {
        write_chests(&mut w, level);
    }
    write_signs(&mut w, level);
    Ok(w.into_inner())
}

fn check_model(level: &Graal) -> Result<()> {
    let layered = level.version.has_layers();
    if level.boards.is_empty() || (!layered && level.boards.len() != 1) || level.boards.len() > 223
    {
        return Err(Error::malformed(
            F,
            Location::path("boards"),
            format!(
                "{} boards; {} holds {}",
                level.boards.len(),
                String::from_utf8_lossy(level.version.header()),
                if layered { "1 to 223" } else { "exactly 1" }
            ),
        ));
    }
    let max = (1u32 << (level.version.packet_bits() - 1)) - 1;
    for (i, board) in level.boards.iter().enumerate() {
        if board.tiles.len() != BOARD_CELLS {
            return Err(Error::malformed(
                F,
                Location::path(format!("boards[{i}].tiles")),
                format!("{} tiles; a board has 4096", board.tiles.len()),
            ));
        }
        // Tiles above the packet range only come from control packets read as tiles; the stored
        // packets reproduce them, nothing else can.
        let stored_fits = board
            .packets
            .as_ref()
            .is_some_and(|p| decode_packets(p, level.version.packet_bits()) == board.tiles);
        if stored_fits {
            continue;
        }
        if let Some(pos) = board.tiles.iter().position(|&t| u32::from(t) > max) {
            return Err(Error::malformed(
                F,
                Location::path(format!("boards[{i}].tiles[{pos}]")),
                format!(
                    "tile {} does not fit a {}-bit packet (0 to {max})",
                    board.tiles.get(pos).copied().unwrap_or(0),
                    level.version.packet_bits()
                ),
            ));
        }
    }
    let lines = level
        .links
        .iter()
        .map(|l| ("links", l))
        .chain(level.baddies.iter().map(|b| ("baddies", &b.verses)))
        .chain(level.npcs.iter().map(|n| ("npcs", &n.script)))
        .chain(level.npcs.iter().map(|n| ("npcs", &n.image)))
        .chain(level.signs.iter().map(|s| ("signs", &s.text)));
    for (section, text) in lines {
        if text.0.contains(&b'\n') {
            return Err(Error::malformed(
                F,
                Location::path(section),
                "a line-based entry contains a newline byte",
            ));
        }
    }
    if let Some(n) = level.npcs.iter().position(|n| n.image.0.contains(&b'#')) {
        return Err(Error::malformed(
            F,
            Location::path(format!("npcs[{n}].image")),
            "an NPC image name cannot contain `#`",
        ));
    }
    Ok(())
}

fn write_header(w: &mut ByteWriter, level: &Graal) {
    w.put_bytes(level.version.header());
    if level.version.has_layers() {
        w.put_u8(level.boards.len() as u8 + 32);
    }
}

/// Our run-length encoder, which reproduces the original editor's packets on every real level we
/// have: at each cell, a run of 2 or more equal tiles becomes a single repeat (at most
/// [`MAX_RUN`]); else a pair repeated at least twice becomes a double repeat; else the tile is
/// written as it is. Like the original, no run starts in the last three cells of the board
/// (they are written tile by tile: a few bits longer, and exactly what the editor wrote).
pub fn encode_packets(tiles: &[u16], width: u32) -> Vec<u16> {
    let top = 1u16 << (width - 1);
    let mut out = Vec::with_capacity(tiles.len() / 2);
    let mut i = 0;
    let at = |k: usize| tiles.get(k).copied();
    let last_run_start = tiles.len().saturating_sub(4);
    while let Some(t) = at(i) {
        if i > last_run_start {
            out.push(t);
            i += 1;
            continue;
        }
        let mut run = 1;
        while run < MAX_RUN && at(i + run) == Some(t) {
            run += 1;
        }
        if run >= 2 {
            out.push(top | run as u16);
            out.push(t);
            i += run;
            continue;
        }
        if let Some(u) = at(i + 1) {
            let mut pairs = 1;
            while pairs < MAX_RUN
                && at(i + 2 * pairs) == Some(t)
                && at(i + 2 * pairs + 1) == Some(u)
            {
                pairs += 1;
            }
            if pairs >= 2 {
                out.push(top | 0x100 | pairs as u16);
                out.push(t);
                out.push(u);
                i += 2 * pairs;
                continue;
            }
        }
        out.push(t);
        i += 1;
    }
    out
}

/// Decode packets to cells the way the reader does (used to check stored packets still fit).
pub(crate) fn decode_packets(packets: &[u16], width: u32) -> Vec<u16> {
    let top = 1u16 << (width - 1);
    let mut tiles = Vec::with_capacity(BOARD_CELLS);
    let mut it = packets.iter().copied();
    while tiles.len() < BOARD_CELLS {
        let Some(p) = it.next() else { break };
        if p & top == 0 {
            tiles.push(p);
            continue;
        }
        let count = usize::from(p & 0xFF);
        let mut pair = [0u16; 2];
        let width = if p & 0x100 != 0 { 2 } else { 1 };
        let mut taken = 0;
        for slot in pair.iter_mut().take(width) {
            if let Some(t) = it.next() {
                *slot = t;
                taken += 1;
            }
        }
        emit_run(&mut tiles, pair.get(..taken).unwrap_or(&[]), count);
    }
    tiles
}

/// Append `count` copies of `run` (one tile or a pair), stopping at the board's last cell as
/// GServer and TilesEditor do. Returns true when the run was cut there. Shared by the reader and
/// [`decode_packets`], so both expand runs the same way.
pub(crate) fn emit_run(tiles: &mut Vec<u16>, run: &[u16], count: usize) -> bool {
    for _ in 0..count {
        for &t in run {
            if tiles.len() >= BOARD_CELLS {
                return true;
            }
            tiles.push(t);
        }
    }
    false
}

fn write_board(w: &mut ByteWriter, board: &BinaryBoard, width: u32) {
    let packets = match &board.packets {
        Some(p) if decode_packets(p, width) == board.tiles => p.clone(),
        _ => encode_packets(&board.tiles, width),
    };
    let mut acc: u32 = 0;
    let mut have: u32 = 0;
    for p in packets {
        acc |= u32::from(p) << have;
        have += width;
        while have >= 8 {
            w.put_u8(acc as u8);
            acc >>= 8;
            have -= 8;
        }
    }
    if have > 0 {
        // The pad bits sit above the last packet's remaining bits, as the reader found them.
        w.put_u8((acc as u8) | board.pad_bits.wrapping_shl(have));
    }
}

fn write_links(w: &mut ByteWriter, level: &Graal) {
    for link in &level.links {
        w.put_bytes(link.as_bytes());
        w.put_u8(b'\n');
    }
    write_end(w, level.links_end);
}

fn write_end(w: &mut ByteWriter, end: SectionEnd) {
    match end {
        SectionEnd::Hash => w.put_bytes(b"#\n"),
        SectionEnd::Empty => w.put_u8(b'\n'),
    }
}

fn write_baddies(w: &mut ByteWriter, level: &Graal) {
    for b in &level.baddies {
        w.put_bytes(&[b.x, b.y, b.kind]);
        if level.version.has_verses() {
            w.put_bytes(b.verses.as_bytes());
            w.put_u8(b'\n');
        }
    }
    w.put_bytes(&[0xFF; 3]);
    w.put_bytes(level.baddies_end.as_bytes());
    w.put_u8(b'\n');
}

fn write_npcs(w: &mut ByteWriter, level: &Graal) {
    for n in &level.npcs {
        w.put_bytes(&[n.x_raw, n.y_raw]);
        w.put_bytes(n.image.as_bytes());
        w.put_u8(b'#');
        w.put_bytes(n.script.as_bytes());
        w.put_u8(b'\n');
    }
    write_end(w, level.npcs_end);
}

fn write_chests(w: &mut ByteWriter, level: &Graal) {
    for c in &level.chests {
        w.put_bytes(&c.bytes);
        w.put_u8(b'\n');
    }
    write_end(w, level.chests_end);
}

fn write_signs(w: &mut ByteWriter, level: &Graal) {
    for s in &level.signs {
        w.put_bytes(&[s.x_raw, s.y_raw]);
        w.put_bytes(s.text.as_bytes());
        w.put_u8(b'\n');
    }
    if let Some(rest) = &level.signs_end {
        w.put_u8(b'\n');
        w.put_bytes(rest.as_bytes());
    }
}
