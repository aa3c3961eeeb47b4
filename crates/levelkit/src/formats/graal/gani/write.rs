//! `.gani` writer. Mirrors `read.rs` function by function.
//!
//! Each item is written as its `raw` text while that still parses to the item's values, and in
//! the canonical formatting otherwise: TilesEditor's column layout where it writes the statement
//! (`SPRITE %4d %15s %4d %4d %4d %4d %s`, placements `%4d %3d %3d` joined by `", "`,
//! `ATTACHSPRITE` and the scale and rotate effects with four-wide columns), single spaces
//! elsewhere, numbers in the shortest form that reads back to the same value.
//!
//! Every line written is parsed again with the reader's own functions, and every frame checked
//! against the reader's frame rules, so a model that would not read back as itself (a description
//! with a line break, a sprite source with a space, a frame of three direction lines followed by
//! the separating blank line, an unknown line that opens a block) is refused with the path of
//! the offending item instead of being written wrongly. [`super::validate`] reports the same
//! findings as errors.

use std::borrow::Cow;

use super::canonical::{
    BlockKind, format_command, format_direction, format_header, format_statement,
};
use super::model::*;
use super::read::{self, Top};
use crate::error::{Error, Location, Result};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gani;

/// Write an animation: unchanged items as they were read, edited and new ones canonically.
///
/// Every line is parsed again and every frame checked against the reader's rules: a model that
/// would not read back as itself (a line break inside a text, a sprite source with a space, a
/// frame of three direction lines followed by the separating blank line, an unknown line that
/// opens a block) fails with [`crate::ErrorKind::Malformed`] and the item's path instead of
/// being written wrongly. A model read from a file always writes, byte for byte.
pub fn write(gani: &Gani) -> Result<Vec<u8>> {
    let w = run(gani);
    match w.problems.into_iter().next() {
        Some((path, message)) => Err(Error::malformed(F, Location::path(path), message)),
        None => Ok(join_lines(&w.lines, &gani.layout)),
    }
}

/// Everything that keeps `gani` from being written so that it reads back as itself, as
/// (path, message).
pub(super) fn problems(gani: &Gani) -> Vec<(String, String)> {
    run(gani).problems
}

struct Writer<'m> {
    lines: Vec<Cow<'m, [u8]>>,
    /// Lines whose text ends in a carriage return, which only survives before a CRLF ending.
    trailing_cr: Vec<(usize, String)>,
    problems: Vec<(String, String)>,
}

impl<'m> Writer<'m> {
    fn problem(&mut self, path: &str, message: impl Into<String>) {
        self.problems.push((path.to_string(), message.into()));
    }

    /// Emit `raw` if it still parses to the item (`same`), else the canonical text, which must.
    fn emit(
        &mut self,
        path: &str,
        raw: Option<&'m RawString>,
        canonical: impl FnOnce() -> Vec<u8>,
        same: impl Fn(&[u8]) -> bool,
    ) {
        let line = match raw {
            Some(r) if same(r.as_bytes()) && !r.as_bytes().contains(&b'\n') => {
                Cow::Borrowed(r.as_bytes())
            }
            _ => {
                let text = canonical();
                if !same(&text) {
                    let message = format!(
                        "`{}` would not read back as the value it stands for",
                        RawString(text.clone()).display()
                    );
                    self.problem(path, message);
                }
                Cow::Owned(text)
            }
        };
        self.push(path, line);
    }

    /// Emit a line as it is.
    fn push(&mut self, path: &str, line: Cow<'m, [u8]>) {
        if line.contains(&b'\n') {
            self.problem(path, "text contains a line break");
        }
        if line.last() == Some(&b'\r') {
            self.trailing_cr.push((self.lines.len(), path.to_string()));
        }
        self.lines.push(line);
    }
}

fn run(gani: &Gani) -> Writer<'_> {
    let mut w = Writer {
        lines: Vec::new(),
        trailing_cr: Vec::new(),
        problems: Vec::new(),
    };
    if let Some(header) = &gani.header {
        write_header(&mut w, header);
    }
    let mut single = false;
    for (i, statement) in gani.statements.iter().enumerate() {
        let path = format!("statements[{i}]");
        let first = w.lines.len();
        write_statement(&mut w, statement, single, &path);
        if gani.header.is_none() && first == 0 {
            let reads_as_header = w
                .lines
                .first()
                .and_then(|l| read::parse_header(l))
                .is_some();
            if reads_as_header {
                w.problem(&path, "the first line would read as the GANI header");
            }
        }
        if let Statement::Flag(f) = statement {
            if f.flag == FlagKind::SingleDirection {
                single = f.sets();
            }
        }
    }
    check_layout(&mut w, &gani.layout);
    w
}

/// Line-break constraints: see [`join_lines`].
fn check_layout(w: &mut Writer<'_>, layout: &Layout) {
    let count = w.lines.len();
    let last = count.checked_sub(1);
    if !layout.final_newline {
        match last.and_then(|l| w.lines.get(l)) {
            None => w.problem(
                "layout.final_newline",
                "an empty file always reads as ending with a newline",
            ),
            Some(line) if line.is_empty() => w.problem(
                "layout.final_newline",
                "the last line is empty, so without a final newline it would not exist",
            ),
            Some(_) => {}
        }
    }
    let endings = endings(layout);
    let cr = std::mem::take(&mut w.trailing_cr);
    for (index, path) in cr {
        let unterminated = Some(index) == last && !layout.final_newline;
        if !unterminated && ending_of(index, layout, &endings) == LineEnding::Lf {
            w.problem(
                &path,
                "text ends in a carriage return, which would read as part of a CRLF line ending",
            );
        }
    }
}

fn endings(layout: &Layout) -> Vec<u32> {
    let mut other = layout.other_endings.clone();
    other.sort_unstable();
    other.dedup();
    other
}

fn ending_of(index: usize, layout: &Layout, other: &[u32]) -> LineEnding {
    let listed = u32::try_from(index).is_ok_and(|i| other.binary_search(&i).is_ok());
    if listed {
        layout.line_ending.other()
    } else {
        layout.line_ending
    }
}

/// Join the lines with their endings: the layout's line ending, the other one on the lines it
/// lists, none after the last line when `final_newline` is false.
fn join_lines(lines: &[Cow<'_, [u8]>], layout: &Layout) -> Vec<u8> {
    let other = endings(layout);
    let size: usize = lines.iter().map(|l| l.len() + 2).sum();
    let mut out = Vec::with_capacity(size);
    for (index, line) in lines.iter().enumerate() {
        out.extend_from_slice(line);
        if index + 1 == lines.len() && !layout.final_newline {
            break;
        }
        out.extend_from_slice(ending_of(index, layout, &other).as_bytes());
    }
    out
}

fn write_header<'m>(w: &mut Writer<'m>, header: &'m Header) {
    w.emit(
        "header",
        header.raw.as_ref(),
        || format_header(header),
        |t| read::parse_header(t) == Some(header.version),
    );
}

fn simple_raw(statement: &Statement) -> Option<&RawString> {
    match statement {
        Statement::Blank(b) => b.raw.as_ref(),
        Statement::Sprite(s) => s.raw.as_ref(),
        Statement::Attach(a) => a.raw.as_ref(),
        Statement::Effect(e) => e.raw.as_ref(),
        Statement::Flag(f) => f.raw.as_ref(),
        Statement::SetBackTo(s) => s.raw.as_ref(),
        Statement::Default(d) => d.raw.as_ref(),
        Statement::BackColor(b) => b.raw.as_ref(),
        Statement::Frames(f) => f.raw.as_ref(),
        Statement::Ani(_) | Statement::Script(_) | Statement::Movie(_) | Statement::Unknown(_) => {
            None
        }
    }
}

fn write_statement<'m>(w: &mut Writer<'m>, statement: &'m Statement, single: bool, path: &str) {
    match statement {
        Statement::Ani(a) => {
            let n = if single { 1 } else { FOUR_DIRECTIONS };
            write_ani(w, a, n, path);
        }
        Statement::Script(b) => write_block(w, b, BlockKind::Script, path),
        Statement::Movie(b) => write_block(w, b, BlockKind::Movie, path),
        _ => {
            let value = Top::Simple(statement.canonical());
            w.emit(
                path,
                simple_raw(statement),
                || format_statement(statement),
                |t| read::parse_top(t) == value,
            );
        }
    }
}

fn write_ani<'m>(w: &mut Writer<'m>, block: &'m AniBlock, n: usize, path: &str) {
    let (start, end) = BlockKind::Ani.keywords();
    w.emit(
        path,
        block.open_raw.as_ref(),
        || start.to_vec(),
        |t| read::parse_top(t) == Top::Open(BlockKind::Ani),
    );
    let count = block.frames.len();
    for (index, frame) in block.frames.iter().enumerate() {
        let frame_path = format!("{path}.frames[{index}]");
        let last = index + 1 == count;
        let first_line = w.lines.len();
        write_frame(w, frame, n, last, block.end_blank.is_some(), &frame_path);
        // A first frame that is one blank line right before ANIEND reads as the block's
        // closing blank line.
        let only_blank = w.lines.len() == first_line + 1
            && w.lines.get(first_line).is_some_and(|l| read::is_blank(l));
        if index == 0 && last && block.end_blank.is_none() && only_blank {
            w.problem(
                &frame_path,
                "a lone frame of one empty direction line would read as the blank line before ANIEND",
            );
        }
        if !last {
            let separator = match &frame.separator_raw {
                Some(r) if read::is_blank(r.as_bytes()) => Cow::Borrowed(r.as_bytes()),
                _ => Cow::Borrowed(&b""[..]),
            };
            w.push(&frame_path, separator);
        }
    }
    if let Some(blank) = &block.end_blank {
        let line = match &blank.raw {
            Some(r) if read::is_blank(r.as_bytes()) => Cow::Borrowed(r.as_bytes()),
            _ => Cow::Borrowed(&b""[..]),
        };
        w.push(&format!("{path}.end_blank"), line);
    }
    w.emit(
        path,
        block.close_raw.as_ref(),
        || end.to_vec(),
        |t| read::is_end(t, end),
    );
}

/// A frame: its direction lines, then its commands, checked against the reader's frame rules.
fn write_frame<'m>(
    w: &mut Writer<'m>,
    frame: &'m Frame,
    n: usize,
    last: bool,
    end_blank: bool,
    path: &str,
) {
    let (directions, commands) = (frame.directions.len(), frame.commands.len());
    if directions == 0 && commands == 0 {
        w.problem(path, "a frame needs at least one line");
    } else if directions < n && commands == 0 && (!last || end_blank) {
        w.problem(
            path,
            format!(
                "the frame has {directions} of {n} direction lines and no commands, so the blank \
                 line after it would read as another direction line"
            ),
        );
    }
    for (index, direction) in frame.directions.iter().enumerate() {
        let direction_path = format!("{path}.directions[{index}]");
        let at = w.lines.len();
        write_direction(w, direction, &direction_path);
        let blank = w.lines.get(at).is_some_and(|l| read::is_blank(l));
        if index >= n && blank {
            w.problem(
                &direction_path,
                format!(
                    "direction line {} of a {n}-direction frame is empty, so it would read as \
                     the frame's end",
                    index + 1
                ),
            );
        }
    }
    for (index, command) in frame.commands.iter().enumerate() {
        let command_path = format!("{path}.commands[{index}]");
        let at = w.lines.len();
        write_command(w, command, &command_path);
        let Some(line) = w.lines.get(at) else {
            continue;
        };
        if index == 0 && read::parse_direction(line).is_some() {
            w.problem(
                &command_path,
                "the frame's first command would read as a direction line",
            );
        }
    }
}

fn write_direction<'m>(w: &mut Writer<'m>, direction: &'m Direction, path: &str) {
    w.emit(
        path,
        direction.raw.as_ref(),
        || format_direction(&direction.placements),
        |t| read::parse_direction(t).as_deref() == Some(direction.placements.as_slice()),
    );
}

fn write_command<'m>(w: &mut Writer<'m>, command: &'m FrameCommand, path: &str) {
    let raw = match command {
        FrameCommand::Wait(wait) => wait.raw.as_ref(),
        FrameCommand::PlaySound(s) => s.raw.as_ref(),
        FrameCommand::Unknown(_) => None,
    };
    let value = command.canonical();
    let end = BlockKind::Ani.keywords().1;
    w.emit(
        path,
        raw,
        || format_command(command),
        |t| !read::is_blank(t) && !read::is_end(t, end) && read::parse_command(t) == value,
    );
}

/// A verbatim block: its lines must not contain its closing line.
fn write_block<'m>(w: &mut Writer<'m>, block: &'m TextBlock, kind: BlockKind, path: &str) {
    let (start, end) = kind.keywords();
    w.emit(
        path,
        block.open_raw.as_ref(),
        || start.to_vec(),
        |t| read::parse_top(t) == Top::Open(kind),
    );
    for (index, line) in block.lines.iter().enumerate() {
        let line_path = format!("{path}.lines[{index}]");
        if read::is_end(line.as_bytes(), end) {
            w.problem(
                &line_path,
                format!(
                    "a {} line inside the block would end it",
                    String::from_utf8_lossy(end)
                ),
            );
        }
        w.push(&line_path, Cow::Borrowed(line.as_bytes()));
    }
    w.emit(
        path,
        block.close_raw.as_ref(),
        || end.to_vec(),
        |t| read::is_end(t, end),
    );
}
