//! `.nw` writer. Mirrors `read.rs` function by function.
//!
//! Each statement is written from its original lines when it has them and they still parse to
//! exactly its typed values; otherwise canonically: single spaces, numbers in their shortest
//! form (`30`, `27.5`, `-1`), the file's line break. Every canonically written statement is read
//! back on the spot, and a statement that would read back differently (a name with a line
//! break, a script line that says `NPCEND`, a link name that the reader would take for the
//! layer extension) is refused with an error naming it, rather than written wrong.

use super::canonical::render;
use super::lex::show;
use super::model::*;
use super::read;
use crate::error::{Error, Location, Result};
use crate::registry::Format;

const F: Format = Format::Nw;

/// Write a level. An unchanged model read from a file gives back the file's bytes.
pub fn write(nw: &Nw) -> Result<Vec<u8>> {
    let eol = nw.line_ending;
    let mut out = Vec::new();
    write_header(&mut out, eol);
    let mut line = 2usize;
    for (index, entry) in nw.statements.iter().enumerate() {
        let start = out.len();
        write_entry(&mut out, entry, eol).map_err(|message| {
            Error::malformed(
                F,
                Location {
                    line_col: Some((u32::try_from(line).unwrap_or(u32::MAX), 1)),
                    ..Location::path(format!("statements[{index}]"))
                },
                message,
            )
        })?;
        line += newlines(out.get(start..).unwrap_or(&[]));
    }
    if !nw.final_newline {
        out.pop();
        if out.last() == Some(&b'\n') {
            return Err(Error::malformed(
                F,
                Location::path("final_newline"),
                "the last line is empty, and an empty last line without a line break is no line \
                 at all: keep final_newline, or drop the blank last statement",
            ));
        }
    }
    Ok(out)
}

fn newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

fn write_header(out: &mut Vec<u8>, eol: LineEnding) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(eol.as_bytes());
}

/// Write one entry: its original lines if they still mean its statement, else canonically.
pub(crate) fn write_entry(out: &mut Vec<u8>, entry: &Entry, eol: LineEnding) -> Result<(), String> {
    if let Some(source) = &entry.source {
        if source_matches(source.as_bytes(), &entry.statement) {
            out.extend_from_slice(source.as_bytes());
            return Ok(());
        }
    }
    write_statement(out, &entry.statement, eol)
}

/// Whether `source` is whole lines that read as exactly `statement`.
pub(crate) fn source_matches(source: &[u8], statement: &Statement) -> bool {
    source.ends_with(b"\n") && reads_back_as(source, statement).is_ok()
}

/// Lines of the file an entry takes when written.
pub(crate) fn entry_lines(entry: &Entry) -> usize {
    if let Some(source) = &entry.source {
        if source_matches(source.as_bytes(), &entry.statement) {
            return newlines(source.as_bytes());
        }
    }
    let block = |body: usize| body.saturating_add(2);
    match &entry.statement {
        Statement::Sign(s) => block(s.lines.len()),
        Statement::Npc(n) => block(n.script.len()),
        Statement::Baddy(b) => block(b.verses.len()),
        Statement::Heights(h) => block(h.rows.len()),
        _ => 1,
    }
}

/// Write a statement canonically and check that it reads back as itself.
pub(crate) fn write_statement(
    out: &mut Vec<u8>,
    statement: &Statement,
    eol: LineEnding,
) -> Result<(), String> {
    let start = out.len();
    let checked = render(statement, eol, out)
        .and_then(|()| reads_back_as(out.get(start..).unwrap_or(&[]), statement));
    if checked.is_err() {
        out.truncate(start);
    }
    checked
}

/// Check that `bytes` read as exactly one statement equal to `statement`.
fn reads_back_as(bytes: &[u8], statement: &Statement) -> Result<(), String> {
    let lines = read::split_lines(bytes);
    let first = lines.first().map_or(&b""[..], |l| l.text);
    match read::read_statement(&lines) {
        Ok((back, used)) if used == lines.len() && back == *statement => Ok(()),
        Ok((back, used)) => {
            let how = if used != lines.len() {
                format!("as {used} of its {} lines", lines.len())
            } else if back.keyword().is_none() {
                String::from("as a line the reader does not understand")
            } else if back.keyword() != statement.keyword() {
                format!("as a {} statement", back.keyword().unwrap_or("different"))
            } else {
                String::from("with other values")
            };
            Err(format!(
                "written as {:?} it would read back {how}",
                show(first)
            ))
        }
        Err(e) => Err(format!(
            "written as {:?} it would not read back: {}",
            show(first),
            e.message
        )),
    }
}
