//! The line cursor of the Graal text formats that keep each line's ending (`.gani`, `.gmap`):
//! lines are split at `\n`, a `\r` just before it makes the line a CRLF line and is not part of
//! its text, and the cursor records which lines end how, for the model's [`LineLayout`].

#![deny(clippy::arithmetic_side_effects)]

use std::mem::size_of;

use crate::error::{Location, Result};
use crate::limits::Budget;
use crate::strings::{LineEnding, LineLayout};

/// One line: its text without the line break, and its one-based number.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    pub text: &'a [u8],
    pub number: u32,
}

impl Line<'_> {
    /// The line, column 1, for an error or a finding.
    pub fn location(&self) -> Location {
        Location {
            line_col: Some((self.number, 1)),
            ..Location::default()
        }
    }
}

/// A cursor over the lines of the input that records each line's ending.
pub(super) struct Lines<'a> {
    bytes: &'a [u8],
    /// Byte offset of the next line.
    pos: usize,
    /// Zero-based number of the next line.
    index: u32,
    /// Zero-based numbers of the lines ending in CRLF, and in LF.
    crlf: Vec<u32>,
    lf: Vec<u32>,
}

/// How a line ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    Lf,
    CrLf,
    /// The last line, without a line break.
    None,
}

/// The line starting at `pos`: its text, its ending and where the next line starts.
fn scan(bytes: &[u8], pos: usize) -> Option<(&[u8], Ending, usize)> {
    let rest = bytes.get(pos..).filter(|r| !r.is_empty())?;
    Some(match rest.iter().position(|&b| b == b'\n') {
        None => (rest, Ending::None, bytes.len()),
        Some(at) => {
            let next = pos.saturating_add(at).saturating_add(1);
            let body = rest.get(..at).unwrap_or(&[]);
            match body.split_last() {
                Some((b'\r', text)) => (text, Ending::CrLf, next),
                _ => (body, Ending::Lf, next),
            }
        }
    })
}

impl<'a> Lines<'a> {
    /// A cursor at the first line of `bytes`, once the line count and the line-ending record
    /// fit in `budget`.
    pub fn new(bytes: &'a [u8], budget: &mut Budget) -> Result<Self> {
        let breaks = bytes.iter().filter(|&&b| b == b'\n').count();
        // The first line past the limit, for the error.
        let over = u32::try_from(budget.limits().max_count.saturating_add(1)).unwrap_or(u32::MAX);
        let count = budget.count(
            u64::try_from(breaks).unwrap_or(u64::MAX).saturating_add(1),
            "line",
            Location {
                line_col: Some((over, 1)),
                ..Location::default()
            },
        )?;
        // One line number per line, for the line-ending record.
        budget.charge(
            count.saturating_mul(size_of::<u32>()),
            "line endings",
            Location::default(),
        )?;
        Ok(Lines {
            bytes,
            pos: 0,
            index: 0,
            crlf: Vec::new(),
            lf: Vec::new(),
        })
    }

    /// The next line, without moving past it.
    pub fn peek(&self) -> Option<Line<'a>> {
        scan(self.bytes, self.pos).map(|(text, _, _)| Line {
            text,
            number: self.index.saturating_add(1),
        })
    }

    /// The line after the next one.
    pub fn peek_second(&self) -> Option<Line<'a>> {
        let (_, _, next) = scan(self.bytes, self.pos)?;
        scan(self.bytes, next).map(|(text, _, _)| Line {
            text,
            number: self.index.saturating_add(2),
        })
    }

    /// The next line, recording how it ends.
    pub fn next(&mut self) -> Option<Line<'a>> {
        let (text, ending, next) = scan(self.bytes, self.pos)?;
        match ending {
            Ending::CrLf => self.crlf.push(self.index),
            Ending::Lf => self.lf.push(self.index),
            Ending::None => {}
        }
        self.pos = next;
        self.index = self.index.saturating_add(1);
        Some(Line {
            text,
            number: self.index,
        })
    }

    /// The line ending most lines use (LF on a tie), the lines that use the other, and whether
    /// the last line has a break.
    pub fn layout(self) -> LineLayout {
        let (line_ending, other_endings) = if self.crlf.len() > self.lf.len() {
            (LineEnding::CrLf, self.lf)
        } else {
            (LineEnding::Lf, self.crlf)
        };
        LineLayout {
            line_ending,
            final_newline: self.bytes.is_empty() || self.bytes.last() == Some(&b'\n'),
            other_endings,
        }
    }
}
