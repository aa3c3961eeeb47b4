//! `.gani` reader. Mirrors `write.rs` function by function.
//!
//! Lines are split on `\n`; a `\r` just before it makes the line a CRLF line and is not part of
//! the line's text. Each line is parsed on its own (the `parse_*` functions, which the writer
//! also uses to check that a line reads back as the value it stands for), then compared with its
//! canonical formatting: the text is kept as `raw` only when the two differ.
//!
//! Nothing here fails on odd content: a line that does not parse becomes an unknown statement
//! or command, kept verbatim, and validation reports it. What fails is structure that cannot be
//! recovered (an `ANI`, `SCRIPT` or `MOVIE` block without its closing line, which is what a
//! truncated file looks like) and input beyond the [`Limits`].

#![deny(clippy::arithmetic_side_effects)]

use std::mem::size_of;

use super::super::lines::{Line, Lines};
use super::canonical::{self, BlockKind};
use super::model::*;
use crate::error::{Error, ErrorKind, Result};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gani;

/// Read a `.gani` file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Gani> {
    read_with(bytes, &Limits::default())
}

/// Read a `.gani` file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Gani> {
    let mut budget = limits.budget(F);
    let mut lines = Lines::new(bytes, &mut budget)?;
    let header = read_header(&mut lines);
    let mut statements = Vec::new();
    // Whether frames have one direction line, as decided by the statements read so far
    // (TilesEditor processes statements in order; a later SINGLEDIRECTION changes nothing).
    let mut single = false;
    while let Some(line) = lines.next() {
        let path = || format!("statements[{}]", statements.len());
        budget
            .charge(
                size_of::<Statement>().saturating_add(line.text.len()),
                "statement",
                line.location(),
            )
            .map_err(|e| e.in_path(path()))?;
        let statement =
            read_statement(&mut lines, line, single, &mut budget).map_err(|e| e.in_path(path()))?;
        if let Statement::Flag(f) = &statement {
            if f.flag == FlagKind::SingleDirection {
                single = f.sets();
            }
        }
        statements.push(statement);
    }
    let layout = lines.layout();
    Ok(Gani {
        header,
        statements,
        layout,
    })
}

/// Whitespace between tokens: spaces, and also tabs and stray carriage returns.
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// A line of only whitespace.
pub(super) fn is_blank(text: &[u8]) -> bool {
    text.iter().all(|&b| is_ws(b))
}

fn trim_end(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|&b| !is_ws(b))
        .map_or(0, |i| i.saturating_add(1));
    text.get(..end).unwrap_or(&[])
}

/// A block's closing line: the keyword, possibly followed by whitespace. (GServer's newer loader
/// ends `SCRIPT` at any line that starts with `SCRIPTEND`; TilesEditor needs the exact line. We
/// take the middle road, so a script line such as `SCRIPTEND_COUNT = 1;` stays script.)
pub(super) fn is_end(text: &[u8], keyword: &[u8]) -> bool {
    trim_end(text) == keyword
}

/// Start and end of each whitespace-separated token.
fn spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &b) in text.iter().enumerate() {
        match (is_ws(b), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// The first whitespace-separated token of a line.
pub(super) fn first_token(text: &[u8]) -> Option<&[u8]> {
    spans(text).first().and_then(|&(s, e)| text.get(s..e))
}

/// The whitespace-separated tokens of a line.
fn tokens(text: &[u8]) -> Vec<&[u8]> {
    spans(text)
        .into_iter()
        .filter_map(|(s, e)| text.get(s..e))
        .collect()
}

/// A decimal integer (optional sign).
fn int(token: &[u8]) -> Option<i32> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// A decimal unsigned integer.
fn uint(token: &[u8]) -> Option<u32> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// A plain decimal number: optional sign, digits with at most one point. (Rust's float parser
/// would also take `inf`, `NaN` and exponents, which no gani tool writes.)
fn num(token: &[u8]) -> Option<f64> {
    let body = match token.split_first() {
        Some((b'-' | b'+', rest)) => rest,
        _ => token,
    };
    let plain = body.iter().all(|&b| b.is_ascii_digit() || b == b'.')
        && body.iter().any(u8::is_ascii_digit)
        && body.iter().filter(|&&b| b == b'.').count() <= 1;
    if !plain {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// `PARAM<n>`.
fn param(token: &[u8]) -> Option<u32> {
    let digits = token.strip_prefix(b"PARAM")?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    uint(digits)
}

fn sprite_ref(token: &[u8]) -> Option<SpriteRef> {
    int(token)
        .map(SpriteRef::Index)
        .or_else(|| param(token).map(SpriteRef::Param))
}

/// `text` when it differs from the canonical formatting.
fn keep(text: &[u8], canonical: &[u8]) -> Option<RawString> {
    (text != canonical).then(|| RawString::from(text))
}

/// The signature line: `GANI` and four digits, alone on the first line.
pub(super) fn parse_header(text: &[u8]) -> Option<u16> {
    let toks = tokens(text);
    let [token] = toks.as_slice() else {
        return None;
    };
    let digits = token.strip_prefix(b"GANI")?;
    if digits.len() != 4 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

fn read_header(lines: &mut Lines<'_>) -> Option<Header> {
    let first = lines.peek()?;
    let version = parse_header(first.text)?;
    lines.next();
    let mut header = Header::new(version);
    header.raw = keep(first.text, &canonical::format_header(&header));
    Some(header)
}

/// What a line outside blocks is.
#[derive(Debug, PartialEq)]
pub(super) enum Top {
    /// The opening line of a block.
    Open(BlockKind),
    /// A one-line statement (blank and unknown lines included), without raw text.
    Simple(Statement),
}

/// Parse a line outside blocks. Blocks open on their keyword as the first token, whatever
/// follows (as in TilesEditor).
pub(super) fn parse_top(text: &[u8]) -> Top {
    let spans = spans(text);
    let Some(&(s, e)) = spans.first() else {
        return Top::Simple(Statement::Blank(Blank::default()));
    };
    match text.get(s..e).unwrap_or(&[]) {
        b"ANI" => Top::Open(BlockKind::Ani),
        b"SCRIPT" => Top::Open(BlockKind::Script),
        b"MOVIE" => Top::Open(BlockKind::Movie),
        _ => Top::Simple(parse_simple(text, &spans).unwrap_or_else(|| {
            Statement::Unknown(Unknown {
                line: RawString::from(text),
            })
        })),
    }
}

/// A one-line statement with exactly the arguments its keyword takes; `None` otherwise.
fn parse_simple(text: &[u8], spans: &[(usize, usize)]) -> Option<Statement> {
    let tok = |i: usize| spans.get(i).and_then(|&(s, e)| text.get(s..e));
    // The rest of the line from token `i`, without trailing whitespace.
    let rest = |i: usize| spans.get(i).and_then(|&(s, _)| text.get(s..)).map(trim_end);
    let n = spans.len();
    let keyword = tok(0)?;
    let effect = |value: fn(f64) -> EffectValue| -> Option<Statement> {
        (n == 3).then_some(())?;
        Some(Statement::Effect(Effect {
            sprite: int(tok(1)?)?,
            value: value(num(tok(2)?)?),
            raw: None,
        }))
    };
    let flag = |flag: FlagKind| -> Option<Statement> {
        let arg = match n {
            1 => None,
            2 => Some(int(tok(1)?)?),
            _ => return None,
        };
        Some(Statement::Flag(Flag {
            flag,
            arg,
            raw: None,
        }))
    };
    let statement = match keyword {
        b"SPRITE" if n >= 7 => Statement::Sprite(Sprite {
            index: int(tok(1)?)?,
            source: RawString::from(tok(2)?),
            left: int(tok(3)?)?,
            top: int(tok(4)?)?,
            width: int(tok(5)?)?,
            height: int(tok(6)?)?,
            description: RawString::from(rest(7).unwrap_or(&[])),
            raw: None,
        }),
        b"ATTACHSPRITE" | b"ATTACHSPRITE2" if n == 5 => Statement::Attach(Attach {
            behind: keyword == b"ATTACHSPRITE2",
            parent: int(tok(1)?)?,
            child: int(tok(2)?)?,
            x: num(tok(3)?)?,
            y: num(tok(4)?)?,
            raw: None,
        }),
        b"STRETCHXEFFECT" => effect(EffectValue::StretchX)?,
        b"STRETCHYEFFECT" => effect(EffectValue::StretchY)?,
        b"ZOOMEFFECT" => effect(EffectValue::Zoom)?,
        b"ROTATEEFFECT" => effect(EffectValue::Rotate)?,
        b"COLOREFFECT" if n == 6 => Statement::Effect(Effect {
            sprite: int(tok(1)?)?,
            value: EffectValue::Color(Color {
                r: num(tok(2)?)?,
                g: num(tok(3)?)?,
                b: num(tok(4)?)?,
                a: num(tok(5)?)?,
            }),
            raw: None,
        }),
        b"EFFECTMODE" | b"LAYER" if n == 3 => {
            let v = int(tok(2)?)?;
            Statement::Effect(Effect {
                sprite: int(tok(1)?)?,
                value: if keyword == b"LAYER" {
                    EffectValue::Layer(v)
                } else {
                    EffectValue::Mode(v)
                },
                raw: None,
            })
        }
        b"LOOP" => flag(FlagKind::Loop)?,
        b"CONTINUOUS" => flag(FlagKind::Continuous)?,
        b"SINGLEDIRECTION" | b"SINGLEDIR" => flag(FlagKind::SingleDirection)?,
        b"SETBACKTO" if n >= 2 => Statement::SetBackTo(SetBackTo {
            name: RawString::from(rest(1)?),
            raw: None,
        }),
        b"BACKCOLOR" if n >= 2 => Statement::BackColor(BackColor {
            value: RawString::from(rest(1)?),
            raw: None,
        }),
        b"FRAMES" if n == 2 => Statement::Frames(FrameCount {
            count: uint(tok(1)?)?,
            raw: None,
        }),
        _ => {
            let slot = keyword.strip_prefix(b"DEFAULT").filter(|s| !s.is_empty())?;
            if n < 2 {
                return None;
            }
            Statement::Default(SlotDefault {
                slot: RawString::from(slot),
                value: RawString::from(rest(1)?),
                raw: None,
            })
        }
    };
    Some(statement)
}

fn read_statement(
    lines: &mut Lines<'_>,
    line: Line<'_>,
    single: bool,
    budget: &mut Budget,
) -> Result<Statement> {
    match parse_top(line.text) {
        Top::Open(BlockKind::Ani) => {
            let n = if single { 1 } else { FOUR_DIRECTIONS };
            read_ani(lines, line, n, budget).map(Statement::Ani)
        }
        Top::Open(kind @ BlockKind::Script) => {
            read_block(lines, line, kind, budget).map(Statement::Script)
        }
        Top::Open(kind @ BlockKind::Movie) => {
            read_block(lines, line, kind, budget).map(Statement::Movie)
        }
        Top::Simple(mut statement) => {
            let raw = keep(line.text, &canonical::format_statement(&statement));
            if let Some(slot) = statement_raw(&mut statement) {
                *slot = raw;
            }
            Ok(statement)
        }
    }
}

/// The `raw` field of a one-line statement.
fn statement_raw(statement: &mut Statement) -> Option<&mut Option<RawString>> {
    match statement {
        Statement::Blank(b) => Some(&mut b.raw),
        Statement::Sprite(s) => Some(&mut s.raw),
        Statement::Attach(a) => Some(&mut a.raw),
        Statement::Effect(e) => Some(&mut e.raw),
        Statement::Flag(f) => Some(&mut f.raw),
        Statement::SetBackTo(s) => Some(&mut s.raw),
        Statement::Default(d) => Some(&mut d.raw),
        Statement::BackColor(b) => Some(&mut b.raw),
        Statement::Frames(f) => Some(&mut f.raw),
        Statement::Ani(_) | Statement::Script(_) | Statement::Movie(_) | Statement::Unknown(_) => {
            None
        }
    }
}

fn unterminated(open: Line<'_>, kind: BlockKind) -> Error {
    let (start, end) = kind.keywords();
    Error::new(
        F,
        ErrorKind::Truncated,
        open.location(),
        format!(
            "{} block opened on line {} has no {} line before the end of the file",
            String::from_utf8_lossy(start),
            open.number,
            String::from_utf8_lossy(end)
        ),
    )
}

fn blank(text: &[u8]) -> Blank {
    Blank {
        raw: keep(text, b""),
    }
}

/// The `ANI` block: frames separated by one blank line, up to `ANIEND`. A frame starts right
/// after `ANI` or after the separating blank line; its first `n` lines are direction lines even
/// when empty (count lines, do not skip blanks). A blank line directly before `ANIEND` ends the
/// block rather than starting a frame.
fn read_ani(
    lines: &mut Lines<'_>,
    open: Line<'_>,
    n: usize,
    budget: &mut Budget,
) -> Result<AniBlock> {
    let (start, end) = BlockKind::Ani.keywords();
    let mut block = AniBlock {
        open_raw: keep(open.text, start),
        ..AniBlock::default()
    };
    loop {
        let Some(line) = lines.peek() else {
            return Err(unterminated(open, BlockKind::Ani));
        };
        if is_end(line.text, end) {
            lines.next();
            block.close_raw = keep(line.text, end);
            return Ok(block);
        }
        let before_end = lines.peek_second().is_some_and(|l| is_end(l.text, end));
        if block.frames.is_empty() && is_blank(line.text) && before_end {
            lines.next();
            block.end_blank = Some(blank(line.text));
            continue;
        }
        let index = block.frames.len();
        budget
            .charge(size_of::<Frame>(), "frame", line.location())
            .map_err(|e| e.in_path(format!("frames[{index}]")))?;
        let frame = read_frame(lines, n, &mut block.end_blank, budget)
            .map_err(|e| e.in_path(format!("frames[{index}]")))?;
        block.frames.push(frame);
    }
}

/// One frame: up to `n` direction lines (stopping early at a line that is not one), further
/// non-blank direction lines while no command has come (a frame with too many directions;
/// validation reports it), then commands up to the separating blank line or `ANIEND`.
fn read_frame(
    lines: &mut Lines<'_>,
    n: usize,
    end_blank: &mut Option<Blank>,
    budget: &mut Budget,
) -> Result<Frame> {
    let end = BlockKind::Ani.keywords().1;
    let mut frame = Frame::default();
    while frame.directions.len() < n {
        let Some(line) = lines.peek() else { break };
        if is_end(line.text, end) {
            break;
        }
        let Some(placements) = parse_direction(line.text) else {
            break;
        };
        lines.next();
        let direction = read_direction(line, placements, budget)
            .map_err(|e| e.in_path(format!("directions[{}]", frame.directions.len())))?;
        frame.directions.push(direction);
    }
    while let Some(line) = lines.peek() {
        if is_end(line.text, end) {
            break;
        }
        if is_blank(line.text) {
            lines.next();
            if lines.peek().is_some_and(|l| is_end(l.text, end)) {
                *end_blank = Some(blank(line.text));
            } else {
                frame.separator_raw = keep(line.text, b"");
            }
            break;
        }
        if frame.commands.is_empty() {
            if let Some(placements) = parse_direction(line.text) {
                lines.next();
                let direction = read_direction(line, placements, budget)
                    .map_err(|e| e.in_path(format!("directions[{}]", frame.directions.len())))?;
                frame.directions.push(direction);
                continue;
            }
        }
        lines.next();
        budget
            .charge(
                size_of::<FrameCommand>().saturating_add(line.text.len()),
                "frame command",
                line.location(),
            )
            .map_err(|e| e.in_path(format!("commands[{}]", frame.commands.len())))?;
        frame.commands.push(read_command(line));
    }
    Ok(frame)
}

/// A direction line: comma-separated `spriteRef x y` placements. Empty parts (a trailing comma)
/// are skipped; any other part must be exactly three tokens.
pub(super) fn parse_direction(text: &[u8]) -> Option<Vec<Placement>> {
    let mut out = Vec::new();
    for part in text.split(|&b| b == b',') {
        match tokens(part).as_slice() {
            [] => {}
            [sprite, x, y] => out.push(Placement {
                sprite: sprite_ref(sprite)?,
                x: num(x)?,
                y: num(y)?,
            }),
            _ => return None,
        }
    }
    Some(out)
}

fn read_direction(
    line: Line<'_>,
    placements: Vec<Placement>,
    budget: &mut Budget,
) -> Result<Direction> {
    budget.charge(
        size_of::<Direction>()
            .saturating_add(placements.len().saturating_mul(size_of::<Placement>()))
            .saturating_add(line.text.len()),
        "direction line",
        line.location(),
    )?;
    let raw = keep(line.text, &canonical::format_direction(&placements));
    Ok(Direction { placements, raw })
}

/// A frame command: `WAIT n`, `PLAYSOUND sound x y`, or anything else verbatim.
pub(super) fn parse_command(text: &[u8]) -> FrameCommand {
    let toks = tokens(text);
    let parsed = match toks.as_slice() {
        [b"WAIT", n] => uint(n).map(|ticks| FrameCommand::Wait(Wait { ticks, raw: None })),
        [b"PLAYSOUND", sound, x, y] => num(x).zip(num(y)).map(|(x, y)| {
            FrameCommand::PlaySound(PlaySound {
                sound: RawString::from(*sound),
                x,
                y,
                raw: None,
            })
        }),
        _ => None,
    };
    parsed.unwrap_or_else(|| {
        FrameCommand::Unknown(Unknown {
            line: RawString::from(text),
        })
    })
}

fn read_command(line: Line<'_>) -> FrameCommand {
    let mut command = parse_command(line.text);
    let raw = keep(line.text, &canonical::format_command(&command));
    match &mut command {
        FrameCommand::Wait(w) => w.raw = raw,
        FrameCommand::PlaySound(p) => p.raw = raw,
        FrameCommand::Unknown(_) => {}
    }
    command
}

/// A verbatim block, up to its closing line.
fn read_block(
    lines: &mut Lines<'_>,
    open: Line<'_>,
    kind: BlockKind,
    budget: &mut Budget,
) -> Result<TextBlock> {
    let (start, end) = kind.keywords();
    let mut block = TextBlock {
        open_raw: keep(open.text, start),
        ..TextBlock::default()
    };
    loop {
        let Some(line) = lines.next() else {
            return Err(unterminated(open, kind));
        };
        if is_end(line.text, end) {
            block.close_raw = keep(line.text, end);
            return Ok(block);
        }
        budget
            .charge(
                size_of::<RawString>().saturating_add(line.text.len()),
                "block line",
                line.location(),
            )
            .map_err(|e| e.in_path(format!("lines[{}]", block.lines.len())))?;
        block.lines.push(RawString::from(line.text));
    }
}
