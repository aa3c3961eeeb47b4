//! The grammar of one `.gmap` line, shared by the reader and the writer: what a line says
//! ([`parse_line`], [`parse_row`]) and the canonical spelling of an item ([`canonical_line`],
//! [`canonical_row`]). The writer re-emits a kept `raw` line only while [`parse_line`] still
//! reads it as the item, so both sides must agree on this one grammar.
//!
//! Keywords are upper case and compared exactly, as GServer-v2 (`Map::loadGMap`) and
//! TilesEditor (`Overworld::loadGMapStream`) do; a line is split into words at spaces and tabs.

use super::model::*;
use crate::strings::RawString;

/// What one line outside a block says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopLine {
    /// Nothing but spaces and tabs.
    Blank,
    /// `KEYWORD value`.
    Setting(SettingKind, RawString),
    /// `KEYWORD` (words after it are ignored, as GServer does).
    Flag(FlagKind),
    /// The opening line of a block.
    Open(BlockKind),
    /// Anything else.
    Unknown,
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// `bytes` without leading and trailing spaces and tabs.
pub fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len());
    let rest = bytes.get(start..).unwrap_or_default();
    let end = rest
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(0, |i| i.saturating_add(1));
    rest.get(..end).unwrap_or_default()
}

/// The first word of a trimmed line and the rest after its spaces.
fn first_word(line: &[u8]) -> (&[u8], &[u8]) {
    let end = line.iter().position(|&b| is_space(b)).unwrap_or(line.len());
    let (word, rest) = line.split_at(end);
    (word, trim(rest))
}

/// What a line outside a block says.
pub fn parse_line(text: &[u8]) -> TopLine {
    let line = trim(text);
    if line.is_empty() {
        return TopLine::Blank;
    }
    let (word, rest) = first_word(line);
    if let Some(kind) = SettingKind::ALL
        .into_iter()
        .find(|k| k.keyword().as_bytes() == word)
    {
        return if rest.is_empty() {
            TopLine::Unknown
        } else {
            TopLine::Setting(kind, RawString::new(rest))
        };
    }
    if let Some(kind) = FlagKind::ALL
        .into_iter()
        .find(|k| k.keyword().as_bytes() == word)
    {
        return TopLine::Flag(kind);
    }
    if let Some(kind) = BlockKind::ALL
        .into_iter()
        .find(|k| k.open().as_bytes() == word)
    {
        return TopLine::Open(kind);
    }
    TopLine::Unknown
}

/// Whether a line inside a `kind` block closes it (spaces around the keyword allowed, as
/// GServer trims; TilesEditor wants the bare keyword).
pub fn is_close(kind: BlockKind, text: &[u8]) -> bool {
    trim(text) == kind.close().as_bytes()
}

/// The canonical spelling of what a line outside a block says (`None` for an unknown line,
/// which has no spelling but its own).
pub fn canonical_line(line: &TopLine) -> Option<Vec<u8>> {
    match line {
        TopLine::Blank => Some(Vec::new()),
        TopLine::Setting(kind, value) => {
            let mut s = kind.keyword().as_bytes().to_vec();
            s.push(b' ');
            s.extend_from_slice(value.as_bytes());
            Some(s)
        }
        TopLine::Flag(kind) => Some(kind.keyword().as_bytes().to_vec()),
        TopLine::Open(kind) => Some(kind.open().as_bytes().to_vec()),
        TopLine::Unknown => None,
    }
}

/// The cells of a row line: split at commas outside double quotes, each cell trimmed of
/// spaces and tabs; a cell that is wholly `"…"` is quoted (its commas are part of the name).
/// A line of nothing but spaces has no cells; a trailing comma makes a last empty cell.
pub fn parse_row(text: &[u8]) -> Vec<Cell> {
    let mut cells = Vec::new();
    if trim(text).is_empty() {
        return cells;
    }
    let mut rest = text;
    loop {
        let start = rest
            .iter()
            .position(|&b| !is_space(b))
            .unwrap_or(rest.len());
        let body = rest.get(start..).unwrap_or_default();
        // A quoted cell: up to the closing quote, then only spaces before the comma or the end.
        if let Some(inner) = body.strip_prefix(b"\"") {
            if let Some(close) = inner.iter().position(|&b| b == b'"') {
                let name = inner.get(..close).unwrap_or_default();
                let after = inner.get(close.saturating_add(1)..).unwrap_or_default();
                let gap = after
                    .iter()
                    .position(|&b| !is_space(b))
                    .unwrap_or(after.len());
                let next = after.get(gap..).unwrap_or_default();
                if next.is_empty() || next.first() == Some(&b',') {
                    cells.push(Cell {
                        name: RawString::new(name),
                        quoted: true,
                    });
                    match next.get(1..) {
                        Some(more) if !next.is_empty() => {
                            rest = more;
                            continue;
                        }
                        _ => return cells,
                    }
                }
            }
        }
        // An unquoted cell: up to the next comma.
        let comma = body.iter().position(|&b| b == b',');
        let name = trim(body.get(..comma.unwrap_or(body.len())).unwrap_or_default());
        cells.push(Cell {
            name: RawString::new(name),
            quoted: false,
        });
        match comma.and_then(|c| body.get(c.saturating_add(1)..)) {
            Some(more) => rest = more,
            None => return cells,
        }
    }
}

/// The canonical spelling of a row: the cells joined by commas, quoted cells in quotes.
pub fn canonical_row(cells: &[Cell]) -> Vec<u8> {
    let mut s = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            s.push(b',');
        }
        if cell.quoted {
            s.push(b'"');
        }
        s.extend_from_slice(cell.name.as_bytes());
        if cell.quoted {
            s.push(b'"');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cells: &[Cell]) -> Vec<(String, bool)> {
        cells.iter().map(|c| (c.name.display(), c.quoted)).collect()
    }

    #[test]
    fn rows_split_at_commas_outside_quotes() {
        let row = parse_row(b" a.nw, \"b, c.nw\" ,,d.nw,");
        assert_eq!(
            names(&row),
            [
                ("a.nw".to_owned(), false),
                ("b, c.nw".to_owned(), true),
                (String::new(), false),
                ("d.nw".to_owned(), false),
                (String::new(), false),
            ]
        );
        assert_eq!(canonical_row(&row), b"a.nw,\"b, c.nw\",,d.nw,");
        assert!(parse_row(b"  \t").is_empty());
        // An unclosed quote is part of an unquoted name.
        assert_eq!(
            names(&parse_row(b"\"a,b")),
            [("\"a".to_owned(), false), ("b".to_owned(), false)]
        );
    }

    #[test]
    fn keywords_are_exact() {
        assert_eq!(
            parse_line(b"WIDTH  3 "),
            TopLine::Setting(SettingKind::Width, RawString::from("3"))
        );
        assert_eq!(parse_line(b"width 3"), TopLine::Unknown);
        assert_eq!(parse_line(b"WIDTH"), TopLine::Unknown);
        assert_eq!(
            parse_line(b"LOADFULLMAP"),
            TopLine::Flag(FlagKind::LoadFullMap)
        );
        assert_eq!(
            parse_line(b" LEVELNAMES"),
            TopLine::Open(BlockKind::LevelNames)
        );
        assert!(is_close(BlockKind::LevelNames, b"LEVELNAMESEND "));
        assert!(!is_close(BlockKind::LevelNames, b"LOADATSTARTEND"));
    }
}
