//! `.gmap` reader. Mirrors `write.rs` function by function.
//!
//! Lines are split at `\n`; a `\r` just before it makes the line a CRLF line and is not part of
//! its text. Each line is read with the grammar of `lex.rs` and compared with its canonical
//! spelling: the text is kept as `raw` only when the two differ.
//!
//! Nothing here fails on odd content: a line that is not understood is kept verbatim as
//! [`Statement::Unknown`] and validation reports what matters. What fails is a `LEVELNAMES` or
//! `LOADATSTART` block without its closing line (what a truncated file looks like) and input
//! beyond the [`Limits`].

#![deny(clippy::arithmetic_side_effects)]

use std::mem::size_of;

use super::super::lines::{Line, Lines};
use super::lex::{self, TopLine};
use super::model::*;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gmap;

/// Read a `.gmap` file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Gmap> {
    read_with(bytes, &Limits::default())
}

/// Read a `.gmap` file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Gmap> {
    let mut budget = limits.budget(F);
    let mut lines = Lines::new(bytes, &mut budget)?;
    let header = read_header(&mut lines);
    let mut statements = Vec::new();
    while let Some(line) = lines.next() {
        let path = format!("statements[{}]", statements.len());
        budget
            .charge(
                size_of::<Statement>().saturating_add(line.text.len()),
                "statement",
                line.location(),
            )
            .map_err(|e| e.in_path(path.clone()))?;
        let statement =
            read_statement(&mut lines, line, &mut budget).map_err(|e| e.in_path(path))?;
        statements.push(statement);
    }
    Ok(Gmap {
        header,
        statements,
        layout: lines.layout(),
    })
}

/// The signature line, when the first line starts with `GRMAP`.
fn read_header(lines: &mut Lines<'_>) -> Option<RawString> {
    let first = lines.peek()?;
    if !first.text.starts_with(b"GRMAP") {
        return None;
    }
    lines.next();
    Some(RawString::new(first.text))
}

/// One statement: a line, or a block from its opening line to its closing line.
fn read_statement(lines: &mut Lines<'_>, line: Line<'_>, budget: &mut Budget) -> Result<Statement> {
    let parsed = lex::parse_line(line.text);
    let raw = keep_raw(line.text, &parsed);
    Ok(match parsed {
        TopLine::Blank => Statement::Blank(Blank { raw }),
        TopLine::Setting(kind, value) => Statement::Setting(Setting { kind, value, raw }),
        TopLine::Flag(kind) => Statement::Flag(Flag { kind, raw }),
        TopLine::Open(kind) => Statement::Names(read_block(lines, line, kind, raw, budget)?),
        TopLine::Unknown => Statement::Unknown(Unknown {
            text: RawString::new(line.text),
        }),
    })
}

/// The line's text when it is not the canonical spelling of what it says.
fn keep_raw(text: &[u8], parsed: &TopLine) -> Option<RawString> {
    match lex::canonical_line(parsed) {
        Some(canonical) if canonical == text => None,
        _ => Some(RawString::new(text)),
    }
}

/// The rows of a block up to its closing line.
fn read_block(
    lines: &mut Lines<'_>,
    open: Line<'_>,
    kind: BlockKind,
    open_raw: Option<RawString>,
    budget: &mut Budget,
) -> Result<NameBlock> {
    let mut rows = Vec::new();
    while let Some(line) = lines.next() {
        if lex::is_close(kind, line.text) {
            let close_raw =
                (line.text != kind.close().as_bytes()).then(|| RawString::new(line.text));
            return Ok(NameBlock {
                kind,
                rows,
                open_raw,
                close_raw,
            });
        }
        let cells = lex::parse_row(line.text);
        budget.charge(
            size_of::<Row>()
                .saturating_add(cells.len().saturating_mul(size_of::<Cell>()))
                .saturating_add(line.text.len()),
            "row of names",
            line.location(),
        )?;
        let raw = (lex::canonical_row(&cells) != line.text).then(|| RawString::new(line.text));
        rows.push(Row { cells, raw });
    }
    Err(Error::new(
        F,
        ErrorKind::Truncated,
        open.location(),
        format!(
            "the {} block opened on line {} has no {} line before the end of the file",
            kind.open(),
            open.number,
            kind.close()
        ),
    ))
}
