//! The canonical text of each `.nw` statement: what the writer writes for an edited or new
//! statement, and what the reader compares a statement's lines with to decide whether to keep
//! them as read. It does not check that the text reads back (the writer does).

use super::lex::{int, show, tokens};
use super::model::*;

/// Write a statement canonically (no read-back check).
pub(crate) fn render(
    statement: &Statement,
    eol: LineEnding,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    match statement {
        Statement::Board(row) => write_board(out, row, eol),
        Statement::Link(link) => write_link(out, link, eol),
        Statement::Sign(sign) => write_sign(out, sign, eol),
        Statement::Npc(npc) => write_npc(out, npc, eol),
        Statement::Chest(chest) => write_chest(out, chest, eol),
        Statement::Baddy(baddy) => write_baddy(out, baddy, eol),
        Statement::Tileset(t) => write_tileset(out, t, eol),
        Statement::TilesetImage(t) => write_tileset_image(out, t, eol),
        Statement::Heights(h) => write_heights(out, h, eol),
        Statement::Verbatim(text) => {
            put_line(out, text.as_bytes(), None)?;
            out.extend_from_slice(eol.as_bytes());
            Ok(())
        }
    }
}

fn write_board(out: &mut Vec<u8>, row: &BoardRow, eol: LineEnding) -> Result<(), String> {
    if row.tiles.is_empty() {
        return Err(String::from("a BOARD row needs at least one tile"));
    }
    let width = i32::try_from(row.tiles.len())
        .map_err(|_| format!("a row of {} tiles is too wide", row.tiles.len()))?;
    out.extend_from_slice(b"BOARD");
    put_int(out, row.x);
    put_int(out, row.y);
    put_int(out, width);
    put_int(out, row.layer);
    out.push(b' ');
    for (column, &tile) in row.tiles.iter().enumerate() {
        let digits = (tile <= MAX_TILE)
            .then(|| {
                Some([
                    *BASE64.get(usize::from(tile / 64))?,
                    *BASE64.get(usize::from(tile % 64))?,
                ])
            })
            .flatten()
            .ok_or_else(|| format!("tile {tile} in column {column} is over {MAX_TILE}"))?;
        out.extend_from_slice(&digits);
    }
    if !row.excess.is_empty() {
        put_token(out, row.excess.as_bytes(), "excess data", false)?;
    }
    out.extend_from_slice(eol.as_bytes());
    Ok(())
}

fn write_link(out: &mut Vec<u8>, link: &Link, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"LINK ");
    put_words(out, link.dest.as_bytes(), "link destination")?;
    put_int(out, link.x);
    put_int(out, link.y);
    put_int(out, link.width);
    put_int(out, link.height);
    put_coord(out, &link.dest_x, "destX")?;
    put_coord(out, &link.dest_y, "destY")?;
    if let Some(layers) = link.layers {
        put_int(out, layers.dest_layer);
        put_int(out, layers.layer);
    }
    out.extend_from_slice(eol.as_bytes());
    Ok(())
}

fn write_sign(out: &mut Vec<u8>, sign: &Sign, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"SIGN");
    put_num(out, sign.x, "x")?;
    put_num(out, sign.y, "y")?;
    if let Some(layer) = sign.layer {
        put_int(out, layer);
    }
    out.extend_from_slice(eol.as_bytes());
    put_body(out, &sign.lines, b"SIGNEND", eol)
}

fn write_npc(out: &mut Vec<u8>, npc: &Npc, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"NPC ");
    match &npc.image {
        Some(image) => put_words(out, image.as_bytes(), "image")?,
        None => out.push(b'-'),
    }
    put_num(out, npc.x, "x")?;
    put_num(out, npc.y, "y")?;
    if let Some(layer) = npc.layer {
        put_int(out, layer);
    }
    out.extend_from_slice(eol.as_bytes());
    put_body(out, &npc.script, b"NPCEND", eol)
}

fn write_chest(out: &mut Vec<u8>, chest: &Chest, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"CHEST");
    put_num(out, chest.x, "x")?;
    put_num(out, chest.y, "y")?;
    put_name_or_number(out, &chest.item, "item")?;
    put_int(out, chest.sign);
    if let Some(layer) = chest.layer {
        put_int(out, layer);
    }
    out.extend_from_slice(eol.as_bytes());
    Ok(())
}

fn write_baddy(out: &mut Vec<u8>, baddy: &Baddy, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"BADDY");
    put_num(out, baddy.x, "x")?;
    put_num(out, baddy.y, "y")?;
    put_name_or_number(out, &baddy.kind, "type")?;
    if let Some(layer) = baddy.layer {
        put_int(out, layer);
    }
    out.extend_from_slice(eol.as_bytes());
    put_body(out, &baddy.verses, b"BADDYEND", eol)
}

fn write_tileset(out: &mut Vec<u8>, tileset: &Tileset, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"TILESET");
    put_token(out, tileset.name.as_bytes(), "tileset name", true)?;
    out.extend_from_slice(eol.as_bytes());
    Ok(())
}

fn write_tileset_image(
    out: &mut Vec<u8>,
    image: &TilesetImage,
    eol: LineEnding,
) -> Result<(), String> {
    out.extend_from_slice(b"TILESETIMAGE");
    put_token(out, image.file.as_bytes(), "tileset image", true)?;
    out.extend_from_slice(eol.as_bytes());
    Ok(())
}

fn write_heights(out: &mut Vec<u8>, heights: &Heights, eol: LineEnding) -> Result<(), String> {
    out.extend_from_slice(b"HEIGHTS");
    out.extend_from_slice(eol.as_bytes());
    put_body(out, &heights.rows, b"HEIGHTSEND", eol)
}

/// Body lines of a block, then its end line.
fn put_body(
    out: &mut Vec<u8>,
    lines: &[crate::strings::RawString],
    end: &[u8],
    eol: LineEnding,
) -> Result<(), String> {
    for line in lines {
        put_line(out, line.as_bytes(), Some(end))?;
        out.extend_from_slice(eol.as_bytes());
    }
    out.extend_from_slice(end);
    out.extend_from_slice(eol.as_bytes());
    Ok(())
}

fn put_line(out: &mut Vec<u8>, line: &[u8], end: Option<&[u8]>) -> Result<(), String> {
    if line.contains(&b'\n') {
        return Err(format!("line {:?} contains a line break", show(line)));
    }
    if end == Some(line) {
        return Err(format!(
            "a body line reads {}, which would end the block early",
            show(line)
        ));
    }
    out.extend_from_slice(line);
    Ok(())
}

/// A space and one token.
fn put_token(out: &mut Vec<u8>, token: &[u8], what: &str, space: bool) -> Result<(), String> {
    if token.is_empty() || token.contains(&b' ') || token.contains(&b'\n') {
        return Err(format!(
            "{what} {:?} must be one word: not empty, no spaces or line breaks",
            show(token)
        ));
    }
    if space {
        out.push(b' ');
    }
    out.extend_from_slice(token);
    Ok(())
}

/// Words separated by single spaces (a link destination, an NPC image).
fn put_words(out: &mut Vec<u8>, words: &[u8], what: &str) -> Result<(), String> {
    if tokens(words).join(&b' ') != words || words.contains(&b'\n') {
        return Err(format!(
            "{what} {:?} must be words separated by single spaces, with no line break",
            show(words)
        ));
    }
    out.extend_from_slice(words);
    Ok(())
}

fn put_int(out: &mut Vec<u8>, v: i32) {
    out.push(b' ');
    out.extend_from_slice(v.to_string().as_bytes());
}

fn put_num(out: &mut Vec<u8>, v: f64, what: &str) -> Result<(), String> {
    out.push(b' ');
    out.extend_from_slice(fmt_num(v, what)?.as_bytes());
    Ok(())
}

fn put_coord(out: &mut Vec<u8>, c: &Coord, what: &str) -> Result<(), String> {
    put_token(out, c.as_bytes(), what, true)
}

fn put_name_or_number(out: &mut Vec<u8>, v: &NameOrNumber, what: &str) -> Result<(), String> {
    match v {
        NameOrNumber::Number(n) => {
            put_int(out, *n);
            Ok(())
        }
        NameOrNumber::Name(name) => {
            if int(name.as_bytes(), what).is_ok() {
                return Err(format!(
                    "{what} name {:?} would read back as a number",
                    name.display()
                ));
            }
            put_token(out, name.as_bytes(), what, true)
        }
    }
}

/// The shortest decimal that reads back as `v` (`30`, `27.5`, `-1`): Rust's `Display` for
/// floats, which never uses an exponent.
pub(crate) fn fmt_num(v: f64, what: &str) -> Result<String, String> {
    if v.is_finite() {
        Ok(format!("{v}"))
    } else {
        Err(format!("{what} {v} is not a finite number"))
    }
}
