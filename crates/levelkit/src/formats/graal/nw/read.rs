//! `.nw` reader. Mirrors `write.rs` function by function.
//!
//! The file is split into lines (each remembers whether it ended in `\n` or `\r\n`), the first
//! must be `GLEVNW01`, and the rest are read one statement at a time. A statement whose
//! parameters do not parse becomes a [`Statement::Verbatim`] line, the way GServer skips it; the
//! only hard errors are a missing header, a block without its `…END` line, and the limits.
//! After each statement the reader renders it canonically and keeps the original lines only if
//! they differ ([`Entry::source`]).

#![deny(clippy::arithmetic_side_effects)]

use super::canonical;
use super::lex::{int, number, show, tokens};
use super::model::*;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Nw;
const EMPTY: &[u8] = b"";

/// Read a `.nw` file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Nw> {
    read_with(bytes, &Limits::default())
}

/// One line of the file, without its line break.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// The bytes before the line break (`\r` of a `\r\n` excluded).
    pub text: &'a [u8],
    /// The line break. The last line of a file that does not end in `\n` counts as ending in
    /// `\n` (or `\r\n` when its last byte is `\r`); [`Nw::final_newline`] records the absence.
    pub eol: LineEnding,
    /// One-based line number in the file.
    pub number: u32,
}

/// Read a `.nw` file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Nw> {
    let mut budget = limits.budget(F);
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    let count = budget.count(
        newlines.saturating_add(1) as u64,
        "line",
        Location::default(),
    )?;
    // A statement per line at most: the line index and the statement list.
    budget.charge(
        count.saturating_mul(size_of::<Line<'_>>().saturating_add(size_of::<Entry>())),
        "line index and statements",
        Location::default(),
    )?;
    // Every text field of the model is a copy of a part of the input; tiles take two bytes for
    // two characters.
    budget.charge(bytes.len(), "statement text", Location::default())?;
    let lines = split_lines(bytes);
    let Some((first, mut rest)) = lines.split_first() else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            at_line(1),
            "the file is empty; a .nw level starts with the line GLEVNW01",
        ));
    };
    let line_ending = read_header(first)?;
    let mut statements = Vec::new();
    let mut canonical = Vec::new();
    while !rest.is_empty() {
        let index = statements.len();
        let (statement, used) =
            read_statement(rest).map_err(|e| e.in_path(format!("statements[{index}]")))?;
        let (mine, after) = rest.split_at(used.clamp(1, rest.len()));
        let source = keep_source(&statement, mine, line_ending, &mut canonical, &mut budget)?;
        statements.push(Entry { statement, source });
        rest = after;
    }
    Ok(Nw {
        line_ending,
        final_newline: bytes.last().is_none_or(|&b| b == b'\n'),
        statements,
    })
}

/// The location of line `number`, column 1.
fn at_line(number: u32) -> Location {
    Location {
        line_col: Some((number, 1)),
        ..Location::default()
    }
}

/// Split bytes into lines (see [`Line`]). No limits: callers bound the input.
pub(crate) fn split_lines(bytes: &[u8]) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut rest = bytes;
    let mut number = 1u32;
    while !rest.is_empty() {
        let (line, after) = match rest.iter().position(|&b| b == b'\n') {
            Some(at) => {
                let (line, after) = rest.split_at(at);
                (line, after.get(1..).unwrap_or(&[]))
            }
            None => (rest, &[][..]),
        };
        let (text, eol) = match line.strip_suffix(b"\r") {
            Some(text) => (text, LineEnding::CrLf),
            None => (line, LineEnding::Lf),
        };
        lines.push(Line { text, eol, number });
        number = number.saturating_add(1);
        rest = after;
    }
    lines
}

fn read_header(line: &Line<'_>) -> Result<LineEnding> {
    if line.text == MAGIC {
        return Ok(line.eol);
    }
    Err(Error::malformed(
        F,
        at_line(line.number).with_path("header"),
        format!(
            "the first line is {:?}; a .nw level starts with the line GLEVNW01",
            show(line.text)
        ),
    ))
}

/// The original lines of a statement, when they differ from its canonical rendering.
fn keep_source(
    statement: &Statement,
    lines: &[Line<'_>],
    eol: LineEnding,
    canonical: &mut Vec<u8>,
    budget: &mut Budget,
) -> Result<Option<RawString>> {
    canonical.clear();
    let mut same = canonical::render(statement, eol, canonical).is_ok();
    let mut rest = canonical.as_slice();
    for line in lines {
        let next = rest
            .strip_prefix(line.text)
            .and_then(|r| r.strip_prefix(line.eol.as_bytes()));
        match next {
            Some(r) => rest = r,
            None => {
                same = false;
                break;
            }
        }
    }
    if same && rest.is_empty() {
        return Ok(None);
    }
    let mut raw = Vec::new();
    for line in lines {
        raw.extend_from_slice(line.text);
        raw.extend_from_slice(line.eol.as_bytes());
    }
    let first = lines.first().map_or(0, |l| l.number);
    budget.charge(raw.len(), "original statement text", at_line(first))?;
    Ok(Some(RawString(raw)))
}

/// Read the statement that starts at `lines[0]`. Returns it and how many lines it spans (at
/// least one). Fails only for a block without its end line.
pub(crate) fn read_statement(lines: &[Line<'_>]) -> Result<(Statement, usize)> {
    let Some(first) = lines.first() else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::default(),
            "expected a statement at the end of the file",
        ));
    };
    let tokens = tokens(first.text);
    let (keyword, params) = tokens.split_first().unwrap_or((&EMPTY, &[]));
    let single =
        |parsed: Result<Statement, String>| Ok((parsed.unwrap_or_else(|_| verbatim(first)), 1));
    match *keyword {
        b"BOARD" => single(read_board(params).map(Statement::Board)),
        b"LINK" => single(read_link(params).map(Statement::Link)),
        b"SIGN" => read_block(
            lines,
            b"SIGNEND",
            read_sign(params),
            |(x, y, layer), body| {
                Ok(Statement::Sign(Sign {
                    x,
                    y,
                    layer,
                    lines: body.iter().map(|l| RawString::from(l.text)).collect(),
                }))
            },
        ),
        b"NPC" => read_block(
            lines,
            b"NPCEND",
            read_npc(params),
            |(image, x, y, layer), body| {
                Ok(Statement::Npc(Npc {
                    image,
                    x,
                    y,
                    layer,
                    script: body.iter().map(|l| RawString::from(l.text)).collect(),
                }))
            },
        ),
        b"CHEST" => single(read_chest(params).map(Statement::Chest)),
        b"BADDY" => read_block(
            lines,
            b"BADDYEND",
            read_baddy(params),
            |(x, y, kind, layer), body| {
                Ok(Statement::Baddy(Baddy {
                    x,
                    y,
                    kind,
                    layer,
                    verses: body.iter().map(|l| RawString::from(l.text)).collect(),
                }))
            },
        ),
        b"TILESET" => single(read_tileset(params).map(Statement::Tileset)),
        b"TILESETIMAGE" => single(read_tileset_image(params).map(Statement::TilesetImage)),
        b"HEIGHTS" => read_block(lines, b"HEIGHTSEND", read_heights(params), |(), body| {
            Ok(Statement::Heights(Heights {
                rows: body.iter().map(|l| RawString::from(l.text)).collect(),
            }))
        }),
        _ => Ok((verbatim(first), 1)),
    }
}

fn verbatim(line: &Line<'_>) -> Statement {
    Statement::Verbatim(RawString::from(line.text))
}

/// A block: its first line's parameters (already parsed), body lines up to a line that is
/// exactly `end`, and the end line. A first line that does not parse makes a verbatim line and
/// leaves the body to be read as statements of its own (GServer's behaviour).
fn read_block<'a, H>(
    lines: &[Line<'a>],
    end: &[u8],
    header: Result<H, String>,
    build: impl FnOnce(H, &[Line<'a>]) -> Result<Statement, String>,
) -> Result<(Statement, usize)> {
    let Some((first, after)) = lines.split_first() else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::default(),
            "expected a statement at the end of the file",
        ));
    };
    let Ok(header) = header else {
        return Ok((verbatim(first), 1));
    };
    let Some(end_at) = after.iter().position(|l| l.text == end) else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            at_line(first.number),
            format!(
                "the block that starts at line {} has no {} line before the end of the file",
                first.number,
                show(end)
            ),
        ));
    };
    let body = after.get(..end_at).unwrap_or(&[]);
    match build(header, body) {
        Ok(statement) => Ok((statement, end_at.saturating_add(2))),
        Err(_) => Ok((verbatim(first), 1)),
    }
}

/// Why a verbatim line that starts with a known keyword was not read as that statement.
pub(crate) fn verbatim_reason(text: &[u8]) -> Option<String> {
    let tokens = tokens(text);
    let (keyword, params) = tokens.split_first()?;
    let header_ok = match *keyword {
        b"BOARD" => read_board(params).map(drop),
        b"LINK" => read_link(params).map(drop),
        b"SIGN" => read_sign(params).map(drop),
        b"NPC" => read_npc(params).map(drop),
        b"CHEST" => read_chest(params).map(drop),
        b"BADDY" => read_baddy(params).map(drop),
        b"TILESET" => read_tileset(params).map(drop),
        b"TILESETIMAGE" => read_tileset_image(params).map(drop),
        b"HEIGHTS" => read_heights(params),
        b"SIGNEND" | b"NPCEND" | b"BADDYEND" | b"HEIGHTSEND" => {
            return Some(format!(
                "{} closes no block (the block's first line did not parse)",
                show(keyword)
            ));
        }
        _ => return None,
    };
    Some(match header_ok {
        Err(reason) => reason,
        Ok(()) => format!(
            "it opens a {} block, which needs its end line",
            show(keyword)
        ),
    })
}

fn read_board(params: &[&[u8]]) -> Result<BoardRow, String> {
    let [x, y, width, layer, data] = params else {
        return Err(format!(
            "BOARD needs x y width layer data (5 parameters), not {}",
            params.len()
        ));
    };
    let x = int(x, "x")?;
    let y = int(y, "y")?;
    let width = int(width, "width")?;
    let layer = int(layer, "layer")?;
    let need = usize::try_from(width)
        .ok()
        .filter(|&w| w > 0)
        .and_then(|w| w.checked_mul(2))
        .ok_or_else(|| format!("width {width} is not positive"))?;
    let (used, excess) = data.split_at_checked(need).ok_or_else(|| {
        format!(
            "the data has {} characters, but width {width} needs {need}",
            data.len()
        )
    })?;
    let tiles = used
        .chunks_exact(2)
        .map(|pair| match pair {
            [hi, lo] => Ok(base64_digit(*hi)?
                .wrapping_mul(64)
                .wrapping_add(base64_digit(*lo)?)),
            _ => Err(String::from("odd data length")),
        })
        .collect::<Result<Vec<u16>, String>>()?;
    Ok(BoardRow {
        x,
        y,
        layer,
        tiles,
        excess: RawString::from(excess),
    })
}

/// The value of a digit of [`BASE64`] (`A-Z a-z 0-9 + /`); a match rather than a search of the
/// alphabet, since every board row decodes 128 of them.
fn base64_digit(c: u8) -> Result<u16, String> {
    let v = match c {
        b'A'..=b'Z' => c.wrapping_sub(b'A'),
        b'a'..=b'z' => c.wrapping_sub(b'a').wrapping_add(26),
        b'0'..=b'9' => c.wrapping_sub(b'0').wrapping_add(52),
        b'+' => 62,
        b'/' => 63,
        _ => return Err(format!("{:?} is not a base64 digit", show(&[c]))),
    };
    Ok(u16::from(v))
}

fn read_link(params: &[&[u8]]) -> Result<Link, String> {
    let Some(split) = params.len().checked_sub(6).filter(|&s| s > 0) else {
        return Err(format!(
            "LINK needs dest x y width height destX destY (7 or more parameters), not {}",
            params.len()
        ));
    };
    if let Some(link) = read_link_with_layers(params) {
        return Ok(link);
    }
    let (dest, tail) = params.split_at(split);
    let [x, y, width, height, dest_x, dest_y] = tail else {
        return Err(String::from("LINK parameters do not split"));
    };
    Ok(Link {
        dest: join(dest),
        x: int(x, "x")?,
        y: int(y, "y")?,
        width: int(width, "width")?,
        height: int(height, "height")?,
        dest_x: coord(dest_x, "destX")?,
        dest_y: coord(dest_y, "destY")?,
        layers: None,
    })
}

/// TilesEditor's `destLayer layer` extension (see the module docs for the rule).
fn read_link_with_layers(params: &[&[u8]]) -> Option<Link> {
    let split = params.len().checked_sub(8).filter(|&s| s > 0)?;
    let (dest, tail) = params.split_at(split);
    let [x, y, width, height, dest_x, dest_y, dest_layer, layer] = tail else {
        return None;
    };
    if !looks_like_file_name(dest.last()?) {
        return None;
    }
    Some(Link {
        dest: join(dest),
        x: int(x, "").ok()?,
        y: int(y, "").ok()?,
        width: int(width, "").ok()?,
        height: int(height, "").ok()?,
        dest_x: coord(dest_x, "").ok()?,
        dest_y: coord(dest_y, "").ok()?,
        layers: Some(LinkLayers {
            dest_layer: int(dest_layer, "").ok()?,
            layer: int(layer, "").ok()?,
        }),
    })
}

/// The last word of a name that ends in a file extension: it has a `.` and is not a number.
fn looks_like_file_name(word: &[u8]) -> bool {
    word.contains(&b'.') && number(word, "").is_err()
}

fn read_sign(params: &[&[u8]]) -> Result<(f64, f64, Option<i32>), String> {
    match params {
        [x, y] => Ok((number(x, "x")?, number(y, "y")?, None)),
        [x, y, layer] => Ok((number(x, "x")?, number(y, "y")?, Some(int(layer, "layer")?))),
        _ => Err(format!(
            "SIGN needs x y [layer] (2 or 3 parameters), not {}",
            params.len()
        )),
    }
}

type NpcHeader = (Option<RawString>, f64, f64, Option<i32>);

fn read_npc(params: &[&[u8]]) -> Result<NpcHeader, String> {
    let Some(split) = params.len().checked_sub(2).filter(|&s| s > 0) else {
        return Err(format!(
            "NPC needs image x y [layer] (3 or more parameters), not {}",
            params.len()
        ));
    };
    if let Some(header) = read_npc_with_layer(params) {
        return Ok(header);
    }
    let (image, tail) = params.split_at(split);
    let [x, y] = tail else {
        return Err(String::from("NPC parameters do not split"));
    };
    Ok((npc_image(image), number(x, "x")?, number(y, "y")?, None))
}

/// `image x y layer` (TilesEditor), when the image is `-` or ends in a file extension.
fn read_npc_with_layer(params: &[&[u8]]) -> Option<NpcHeader> {
    let split = params.len().checked_sub(3).filter(|&s| s > 0)?;
    let (image, tail) = params.split_at(split);
    let [x, y, layer] = tail else {
        return None;
    };
    let last = image.last()?;
    if !(image == [b"-"] || looks_like_file_name(last)) {
        return None;
    }
    Some((
        npc_image(image),
        number(x, "").ok()?,
        number(y, "").ok()?,
        Some(int(layer, "").ok()?),
    ))
}

fn npc_image(tokens: &[&[u8]]) -> Option<RawString> {
    (tokens != [b"-"]).then(|| join(tokens))
}

fn read_chest(params: &[&[u8]]) -> Result<Chest, String> {
    let (x, y, item, sign, layer) = match params {
        [x, y, item, sign] => (x, y, item, sign, None),
        [x, y, item, sign, layer] => (x, y, item, sign, Some(int(layer, "layer")?)),
        _ => {
            return Err(format!(
                "CHEST needs x y item signIndex [layer] (4 or 5 parameters), not {}",
                params.len()
            ));
        }
    };
    Ok(Chest {
        x: number(x, "x")?,
        y: number(y, "y")?,
        item: name_or_number(item, "item")?,
        sign: int(sign, "sign index")?,
        layer,
    })
}

fn read_baddy(params: &[&[u8]]) -> Result<(f64, f64, NameOrNumber, Option<i32>), String> {
    let (x, y, kind, layer) = match params {
        [x, y, kind] => (x, y, kind, None),
        [x, y, kind, layer] => (x, y, kind, Some(int(layer, "layer")?)),
        _ => {
            return Err(format!(
                "BADDY needs x y type [layer] (3 or 4 parameters), not {}",
                params.len()
            ));
        }
    };
    Ok((
        number(x, "x")?,
        number(y, "y")?,
        name_or_number(kind, "type")?,
        layer,
    ))
}

fn read_tileset(params: &[&[u8]]) -> Result<Tileset, String> {
    match params {
        [name] => Ok(Tileset {
            name: RawString::from(*name),
        }),
        _ => Err(format!(
            "TILESET needs one name, not {} words (TilesEditor reads only the first)",
            params.len()
        )),
    }
}

fn read_tileset_image(params: &[&[u8]]) -> Result<TilesetImage, String> {
    match params {
        [file] => Ok(TilesetImage {
            file: RawString::from(*file),
        }),
        _ => Err(format!(
            "TILESETIMAGE needs one file name, not {} words (TilesEditor reads only the first)",
            params.len()
        )),
    }
}

fn read_heights(params: &[&[u8]]) -> Result<(), String> {
    if params.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "HEIGHTS takes no parameters, not {} (gmap files use `HEIGHTS level`)",
            params.len()
        ))
    }
}

fn join(tokens: &[&[u8]]) -> RawString {
    RawString(tokens.join(&b' '))
}

/// A link coordinate: any word (GServer keeps it as a string; the client evaluates it).
fn coord(token: &[u8], what: &str) -> Result<Coord, String> {
    Coord::word(token).ok_or_else(|| format!("{what} {:?} is not one word", show(token)))
}

fn name_or_number(token: &[u8], what: &str) -> Result<NameOrNumber, String> {
    let digits = token
        .strip_prefix(b"-")
        .or_else(|| token.strip_prefix(b"+"))
        .unwrap_or(token);
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        int(token, what).map(NameOrNumber::Number)
    } else {
        Ok(NameOrNumber::Name(RawString::from(token)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_digits_match_the_alphabet() {
        for (i, &c) in BASE64.iter().enumerate() {
            assert_eq!(base64_digit(c), Ok(i as u16));
        }
        assert!(base64_digit(b'=').is_err());
        assert!(base64_digit(b' ').is_err());
    }
}
