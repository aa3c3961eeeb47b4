//! `.gmap` writer, the mirror of `read.rs`.
//!
//! Each item is written as its kept `raw` line while that line still reads back as the item's
//! values, and in its canonical spelling otherwise (a model built from scratch, or an edited
//! one). Line breaks follow [`Layout`]. The writer refuses a model that would not read back as
//! itself (a name with a comma outside quotes, a line break inside a name, an unknown line that
//! reads as a keyword); [`super::validate()`] reports the same problems as errors.

use super::lex::{self, TopLine};
use super::model::*;
use crate::error::{Error, Location, Result};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gmap;

/// The file's bytes.
pub fn write(gmap: &Gmap) -> Result<Vec<u8>> {
    let lines = lines(gmap)?;
    let mut out = Vec::with_capacity(lines.iter().map(|l| l.len().saturating_add(2)).sum());
    let last = lines.len().saturating_sub(1);
    let layout = &gmap.layout;
    for (index, line) in lines.iter().enumerate() {
        out.extend_from_slice(line);
        if index == last && !layout.final_newline {
            if line.is_empty() {
                return Err(problem(
                    "the layout says the last line has no line break, but the last line is empty",
                    String::new(),
                ));
            }
            break;
        }
        let number = u32::try_from(index).unwrap_or(u32::MAX);
        let ending = if layout.other_endings.binary_search(&number).is_ok() {
            layout.line_ending.other()
        } else {
            layout.line_ending
        };
        if ending == LineEnding::Lf && line.last() == Some(&b'\r') {
            return Err(problem(
                "a line ends with a carriage return before an LF break, which would read as a \
                 CRLF ending",
                format!("lines[{index}]"),
            ));
        }
        out.extend_from_slice(ending.as_bytes());
    }
    Ok(out)
}

/// Every line's text, without line breaks, checked to read back as what it stands for.
pub fn lines(gmap: &Gmap) -> Result<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    write_header(gmap, &mut out)?;
    for (i, statement) in gmap.statements.iter().enumerate() {
        let path = format!("statements[{i}]");
        let first = out.len();
        write_statement(statement, &mut out).map_err(|e| e.in_path(path.clone()))?;
        // A statement right after a missing header must not look like one.
        if gmap.header.is_none()
            && first == 0
            && out.first().is_some_and(|l| l.starts_with(b"GRMAP"))
        {
            return Err(problem(
                "the first line starts with GRMAP, which reads as the header; set the header instead",
                path,
            ));
        }
    }
    if out.iter().any(|l| l.contains(&b'\n')) {
        return Err(problem("a line holds a line break", String::new()));
    }
    Ok(out)
}

fn write_header(gmap: &Gmap, out: &mut Vec<Vec<u8>>) -> Result<()> {
    if let Some(header) = &gmap.header {
        if !header.as_bytes().starts_with(b"GRMAP") {
            return Err(problem(
                "the header line must start with GRMAP",
                "header".into(),
            ));
        }
        out.push(header.as_bytes().to_vec());
    }
    Ok(())
}

fn write_statement(statement: &Statement, out: &mut Vec<Vec<u8>>) -> Result<()> {
    let (expected, raw) = match statement {
        Statement::Blank(b) => (TopLine::Blank, &b.raw),
        Statement::Setting(s) => (TopLine::Setting(s.kind, s.value.clone()), &s.raw),
        Statement::Flag(f) => (TopLine::Flag(f.kind), &f.raw),
        Statement::Names(block) => return write_block(block, out),
        Statement::Unknown(u) => {
            if lex::parse_line(u.text.as_bytes()) != TopLine::Unknown {
                return Err(problem(
                    "an unknown line reads as a known statement; make it that statement",
                    String::new(),
                ));
            }
            out.push(u.text.as_bytes().to_vec());
            return Ok(());
        }
    };
    out.push(line_of(&expected, raw.as_ref())?);
    Ok(())
}

/// The kept line if it still says `expected`, else the canonical spelling (which must say it).
fn line_of(expected: &TopLine, raw: Option<&RawString>) -> Result<Vec<u8>> {
    if let Some(raw) = raw {
        if lex::parse_line(raw.as_bytes()) == *expected {
            return Ok(raw.as_bytes().to_vec());
        }
    }
    match lex::canonical_line(expected) {
        Some(text) if lex::parse_line(&text) == *expected => Ok(text),
        _ => Err(problem(
            "the value does not read back (empty, or with leading or trailing spaces)",
            String::new(),
        )),
    }
}

fn write_block(block: &NameBlock, out: &mut Vec<Vec<u8>>) -> Result<()> {
    out.push(line_of(
        &TopLine::Open(block.kind),
        block.open_raw.as_ref(),
    )?);
    for (i, row) in block.rows.iter().enumerate() {
        out.push(write_row(block.kind, row).map_err(|e| e.in_path(format!("rows[{i}]")))?);
    }
    let close = match &block.close_raw {
        Some(raw) if lex::is_close(block.kind, raw.as_bytes()) => raw.as_bytes().to_vec(),
        _ => block.kind.close().as_bytes().to_vec(),
    };
    out.push(close);
    Ok(())
}

/// A row's line: the kept one while it splits into the same cells, else the canonical one.
fn write_row(kind: BlockKind, row: &Row) -> Result<Vec<u8>> {
    let text = match &row.raw {
        Some(raw) if lex::parse_row(raw.as_bytes()) == row.cells => raw.as_bytes().to_vec(),
        _ => lex::canonical_row(&row.cells),
    };
    if lex::parse_row(&text) != row.cells {
        return Err(problem(
            "the names do not read back (a comma or quote in an unquoted name, spaces around \
             it, a quote in a quoted name, or a row of one empty cell)",
            String::new(),
        ));
    }
    if lex::is_close(kind, &text) {
        return Err(problem(
            "a row reads as the block's closing line",
            String::new(),
        ));
    }
    Ok(text)
}

fn problem(message: &str, path: String) -> Error {
    let location = if path.is_empty() {
        Location::default()
    } else {
        Location::path(path)
    };
    Error::malformed(F, location, format!("cannot write: {message}"))
}
