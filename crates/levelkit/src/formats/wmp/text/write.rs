//! The writer. Mirrors `read.rs` record by record.
//!
//! Each record is first described as a [`Unit`]: its tokens in order, each with the whitespace
//! the editor would put before it (the *canonical* trivia). The reader builds the same unit for
//! every record it reads and keeps only the trivia that differ ([`Layout`]); the writer puts the
//! kept trivia back while the record still has as many tokens as when it was read, and the
//! canonical trivia everywhere else. So the canonical layout is defined once, here.
//!
//! Canonical layout (what ACKWED, WMPIO and wmpio write): tabs for indentation, one item per line,
//! three spaces between the vertices of a coordinate line, two spaces after a face's vertex
//! count, `kind K {   // name` for entities and `object K {  // name` for groups, a blank line
//! between text records, `{ //kind` for `$$M` records and `{   // K` for `$$M` blocks.

use std::borrow::Cow;

use super::lex::{self, Kind, Lexer};
use super::model::*;
use crate::error::{Error, Location, Result};
use crate::registry::Format;

/// Write a level. Fails (with the path of the record) when the model cannot be written as a
/// file that reads back as itself: a field that is not a single token (a name with a space), a
/// character above U+00FF, a record whose shape does not fit the dialect (a v710 face without
/// texture vectors), or layout trivia that is not whitespace and comments.
pub fn write(t: &WmpText) -> Result<Vec<u8>> {
    let ctx = Ctx::new(t);
    let format = ctx.format();
    let mut sink = Sink::new(ctx);
    let header = header_unit(&t.header, ctx, false)
        .map_err(|m| Error::malformed(format, Location::path("header"), m))?;
    sink.finish(header, &t.header.layout)
        .map_err(|m| Error::malformed(format, Location::path("header"), m))?;
    for (i, record) in t.records.iter().enumerate() {
        let at = || Location::path(format!("records[{i}]"));
        let unit =
            record_unit(record, ctx, i, false).map_err(|m| Error::malformed(format, at(), m))?;
        sink.finish(unit, record.layout())
            .map_err(|m| Error::malformed(format, at(), m))?;
    }
    match &t.end {
        Some(end) => {
            if !trivia_ok(end, true) {
                return Err(Error::malformed(
                    format,
                    Location::path("end"),
                    format!("{end:?} is not whitespace and comments"),
                ));
            }
            sink.put_text(end)
                .map_err(|m| Error::malformed(format, Location::path("end"), m))?;
        }
        None => {
            let end = end_canon(ctx);
            sink.put_canon(&end)
                .map_err(|m| Error::malformed(format, Location::path("end"), m))?;
        }
    }
    Ok(sink.out)
}

/// What the layout depends on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx {
    pub eol: &'static str,
    pub dialect: Dialect,
}

impl Ctx {
    pub fn new(t: &WmpText) -> Ctx {
        Ctx::of(t.dialect, t.line_ending)
    }

    pub fn of(dialect: Dialect, line_ending: LineEnding) -> Ctx {
        Ctx {
            eol: match line_ending {
                LineEnding::Lf => "\n",
                LineEnding::CrLf => "\r\n",
            },
            dialect,
        }
    }

    pub fn format(self) -> Format {
        if self.dialect.is_dollar_m() {
            Format::DollarM
        } else {
            Format::WmpText
        }
    }
}

/// Canonical trivia before a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Canon {
    /// Exactly this text.
    Lit(&'static str),
    /// A line break, then this many tabs.
    Nl(u8),
    /// This many line breaks.
    Lines(u8),
    /// Exactly this text (built at run time).
    Own(String),
    /// A comment on the line before other trivia (`   // 3`, then the line break).
    Prefixed(String, Box<Canon>),
}

impl Canon {
    fn render(&self, eol: &str, out: &mut String) {
        match self {
            Canon::Lit(s) => out.push_str(s),
            Canon::Nl(tabs) => {
                out.push_str(eol);
                for _ in 0..*tabs {
                    out.push('\t');
                }
            }
            Canon::Lines(n) => {
                for _ in 0..*n {
                    out.push_str(eol);
                }
            }
            Canon::Own(s) => out.push_str(s),
            Canon::Prefixed(p, rest) => {
                out.push_str(p);
                rest.render(eol, out);
            }
        }
    }

    pub fn to_text(&self, eol: &str) -> String {
        let mut s = String::new();
        self.render(eol, &mut s);
        s
    }

    /// Whether `actual` (bytes of the file) is this trivia.
    pub fn matches(&self, eol: &str, actual: &[u8]) -> bool {
        match self {
            Canon::Lit(s) => s.as_bytes() == actual,
            Canon::Nl(tabs) => actual.strip_prefix(eol.as_bytes()).is_some_and(|rest| {
                rest.len() == usize::from(*tabs) && rest.iter().all(|&b| b == b'\t')
            }),
            Canon::Lines(n) => {
                let e = eol.as_bytes();
                actual.len() == e.len().saturating_mul(usize::from(*n))
                    && actual.chunks(e.len().max(1)).all(|c| c == e)
            }
            Canon::Own(s) => latin1_eq(s, actual),
            Canon::Prefixed(p, rest) => {
                let n = p.chars().count();
                actual.len() >= n
                    && latin1_eq(p, actual.get(..n).unwrap_or_default())
                    && rest.matches(eol, actual.get(n..).unwrap_or_default())
            }
        }
    }
}

/// How to tell whether kept trivia still fits a typed comment (the typed value wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    None,
    /// The comment on the line (a record's name).
    LineComment,
    /// Every comment (the header's comment lines).
    Comments,
}

/// What a token must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// A word, `<…>` or `'…'` (names, files, flags).
    Word,
    /// A number (a [`Num`] or an integer the writer formats; never checked).
    Num,
    /// `{ } ( ) ,` and keywords the writer spells (never checked).
    Fixed,
    /// A `{ … }` section taken verbatim.
    Raw,
    /// Any single token (kept tokens of records this model does not type).
    Any,
}

/// One token or a nested block.
#[derive(Debug)]
pub(crate) enum Piece<'m> {
    Tok {
        canon: Canon,
        text: Cow<'m, str>,
        class: Class,
        check: Check,
    },
    /// A block nested in a `$$M` level record, written as its own unit.
    Block { block: &'m Block, position: usize },
}

/// A record's tokens with their canonical trivia.
#[derive(Debug)]
pub(crate) struct Unit<'m> {
    pub pieces: Vec<Piece<'m>>,
    prefix: Option<(String, Check)>,
    /// Only the canonical trivia are wanted (the reader's comparison): numbers the writer
    /// formats are left empty.
    canon_only: bool,
}

impl<'m> Unit<'m> {
    pub fn new(canon_only: bool) -> Self {
        Unit {
            // A block of six faces has about 130 tokens; most other records fewer than 40.
            pieces: Vec::with_capacity(64),
            prefix: None,
            canon_only,
        }
    }

    /// The canonical trivia of each token, in order (nested blocks left out).
    pub fn canons(&self) -> impl Iterator<Item = &Canon> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Tok { canon, .. } => Some(canon),
            Piece::Block { .. } => None,
        })
    }

    fn tok(&mut self, canon: Canon, text: impl Into<Cow<'m, str>>, class: Class) {
        let (canon, check) = match self.prefix.take() {
            Some((prefix, check)) => (Canon::Prefixed(prefix, Box::new(canon)), check),
            None => (canon, Check::None),
        };
        self.pieces.push(Piece::Tok {
            canon,
            text: text.into(),
            class,
            check,
        });
    }

    /// The next token's trivia starts with this comment text (`   // name`).
    fn comment_next(&mut self, prefix: String, check: Check) {
        self.prefix = Some((prefix, check));
    }

    fn glued(&mut self, text: impl Into<Cow<'m, str>>, class: Class) {
        self.tok(Canon::Lit(""), text, class);
    }

    fn num(&mut self, canon: Canon, n: &'m Num) {
        self.tok(canon, n.as_str(), Class::Num);
    }

    fn int(&mut self, canon: Canon, n: impl ToString) {
        let text = if self.canon_only {
            String::new()
        } else {
            n.to_string()
        };
        self.tok(canon, text, Class::Num);
    }

    fn fixed(&mut self, canon: Canon, s: &'static str) {
        self.tok(canon, s, Class::Fixed);
    }

    fn word(&mut self, canon: Canon, s: &'m str) {
        self.tok(canon, s, Class::Word);
    }

    /// Three numbers on a line of their own.
    fn line3(&mut self, tabs: u8, v: &'m Vec3) {
        self.num(Canon::Nl(tabs), &v[0]);
        self.num(Canon::Lit(" "), &v[1]);
        self.num(Canon::Lit(" "), &v[2]);
    }

    /// A line of numbers; an empty line cannot be written (it would not read back).
    fn line(&mut self, tabs: u8, v: &'m [Num], what: &str) -> Result<(), String> {
        let Some((first, rest)) = v.split_first() else {
            return Err(format!(
                "{what} is empty; a line of numbers needs at least one"
            ));
        };
        self.num(Canon::Nl(tabs), first);
        for n in rest {
            self.num(Canon::Lit(" "), n);
        }
        Ok(())
    }

    fn extras(&mut self, tabs: u8, extra: &'m [String]) {
        for e in extra {
            self.tok(Canon::Nl(tabs), e.as_str(), Class::Any);
        }
    }
}

/// Whether a Latin-1 string is these bytes.
fn latin1_eq(s: &str, bytes: &[u8]) -> bool {
    s.chars()
        .map(u32::from)
        .eq(bytes.iter().map(|&b| u32::from(b)))
}

/// The canonical trivia at the end of the file.
pub(crate) fn end_canon(ctx: Ctx) -> Canon {
    Canon::Lines(if ctx.dialect.is_dollar_m() { 1 } else { 2 })
}

/// The canonical trivia before record `index`.
fn lead(ctx: Ctx, index: usize) -> Canon {
    match (ctx.dialect.is_dollar_m(), index) {
        (true, 0) => Canon::Lines(3),
        (true, _) => Canon::Lines(1),
        (false, _) => Canon::Lines(2),
    }
}

/// Whether kept trivia is whitespace and comments only, every comment ended by a line break
/// (unless `at_end`, the end of the file).
pub(crate) fn trivia_ok(t: &str, at_end: bool) -> bool {
    let Some(bytes) = latin1(t) else { return false };
    let mut lx = Lexer::new(&bytes);
    let Ok(tok) = lx.next_tok() else { return false };
    if tok.kind != Kind::Eof {
        return false;
    }
    at_end
        || t.rfind("//")
            .is_none_or(|at| t.get(at..).is_some_and(|c| c.contains('\n')))
}

/// The bytes of a Latin-1 string; `None` if a character is above U+00FF.
pub(crate) fn latin1(s: &str) -> Option<Vec<u8>> {
    s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
}

/// Whether `text` is a word the lexer reads as one token: ASCII, no whitespace, no
/// `{ } ( ) ,`, no `//`, not starting with `<` or `'`.
fn plain_word(text: &str) -> bool {
    let b = text.as_bytes();
    !b.is_empty()
        && !matches!(b.first(), Some(b'<' | b'\''))
        && b.iter()
            .all(|&c| c.is_ascii_graphic() && !matches!(c, b'{' | b'}' | b'(' | b')' | b','))
        && !text.contains("//")
}

/// Check a token's text against its class; its lexer kind.
fn check_token(text: &str, class: Class) -> Result<Kind, String> {
    if class == Class::Fixed {
        return Ok(match text {
            "{" => Kind::LBrace,
            "}" => Kind::RBrace,
            "(" => Kind::LParen,
            ")" => Kind::RParen,
            "," => Kind::Comma,
            _ => Kind::Word,
        });
    }
    if class == Class::Num {
        return Ok(Kind::Word);
    }
    if class != Class::Raw && plain_word(text) {
        return Ok(Kind::Word);
    }
    let bytes =
        latin1(text).ok_or_else(|| format!("{text:?} has a character above U+00FF (Latin-1)"))?;
    let mut lx = Lexer::new(&bytes);
    let tok = if class == Class::Raw {
        lx.raw_braced()
    } else {
        lx.next_tok()
    }
    .map_err(|e| format!("{text:?} is not a single token: {}", e.message))?;
    if tok.trivia_start != 0 || tok.start != 0 || tok.end != bytes.len() {
        return Err(format!("{text:?} is not a single token"));
    }
    let ok = match class {
        Class::Word => matches!(tok.kind, Kind::Word | Kind::Angle | Kind::Quoted),
        Class::Raw => tok.kind == Kind::Raw,
        _ => tok.kind != Kind::Eof,
    };
    if ok {
        Ok(tok.kind)
    } else {
        Err(format!("{text:?} is not a name or number"))
    }
}

/// The output and what the last token was (two words must not touch).
struct Sink {
    ctx: Ctx,
    out: Vec<u8>,
    prev_word: bool,
}

impl Sink {
    fn new(ctx: Ctx) -> Self {
        Sink {
            ctx,
            out: Vec::new(),
            prev_word: false,
        }
    }

    fn put_text(&mut self, s: &str) -> Result<(), String> {
        if s.is_ascii() {
            self.out.extend_from_slice(s.as_bytes());
            return Ok(());
        }
        let bytes =
            latin1(s).ok_or_else(|| format!("{s:?} has a character above U+00FF (Latin-1)"))?;
        self.out.extend_from_slice(&bytes);
        Ok(())
    }

    /// Write canonical trivia; whether it was empty.
    fn put_canon(&mut self, canon: &Canon) -> Result<bool, String> {
        let eol = self.ctx.eol;
        Ok(match canon {
            Canon::Lit(s) => {
                self.out.extend_from_slice(s.as_bytes());
                s.is_empty()
            }
            Canon::Nl(tabs) => {
                self.out.extend_from_slice(eol.as_bytes());
                self.out
                    .extend(std::iter::repeat_n(b'\t', usize::from(*tabs)));
                false
            }
            Canon::Lines(n) => {
                for _ in 0..*n {
                    self.out.extend_from_slice(eol.as_bytes());
                }
                *n == 0
            }
            Canon::Own(s) => {
                self.put_text(s)?;
                s.is_empty()
            }
            Canon::Prefixed(p, rest) => {
                self.put_text(p)?;
                self.put_canon(rest)? && p.is_empty()
            }
        })
    }

    /// Write a unit with the kept trivia of `layout` where it still applies.
    fn finish(&mut self, unit: Unit<'_>, layout: &Layout) -> Result<(), String> {
        let count = unit.canons().count();
        let use_layout =
            !layout.trivia.is_empty() && usize::try_from(layout.tokens).is_ok_and(|n| n == count);
        let mut index = 0u32;
        for piece in unit.pieces {
            match piece {
                Piece::Tok {
                    canon,
                    text,
                    class,
                    check,
                } => {
                    let kept = if use_layout {
                        layout.trivia.get(&index)
                    } else {
                        None
                    };
                    let kept = kept.filter(|k| {
                        check == Check::None || fits(check, k, &canon.to_text(self.ctx.eol))
                    });
                    let kind = check_token(&text, class)?;
                    let wordish = matches!(kind, Kind::Word | Kind::Angle | Kind::Quoted);
                    let empty = match kept {
                        Some(k) => {
                            if !trivia_ok(k, false) {
                                return Err(format!(
                                    "layout trivia {index} ({k:?}) is not whitespace and \
                                     comments ended by a line break"
                                ));
                            }
                            self.put_text(k)?;
                            k.is_empty()
                        }
                        None => self.put_canon(&canon)?,
                    };
                    if empty && self.prev_word && wordish {
                        return Err(format!(
                            "token {index} ({text:?}) would run into the token before it"
                        ));
                    }
                    self.put_text(&text)?;
                    self.prev_word = kind == Kind::Word;
                    index = index.saturating_add(1);
                }
                Piece::Block { block, position } => {
                    let unit = m_block_unit(block, self.ctx, position, false)
                        .map_err(|m| format!("blocks[{position}]: {m}"))?;
                    self.finish(unit, &block.layout)
                        .map_err(|m| format!("blocks[{position}]: {m}"))?;
                }
            }
        }
        Ok(())
    }
}

/// Whether kept trivia still carries the typed comment its canonical form carries.
pub(crate) fn fits(check: Check, kept: &str, canonical: &str) -> bool {
    match check {
        Check::None => true,
        Check::LineComment => lex::line_comment(kept) == lex::line_comment(canonical),
        Check::Comments => lex::comments(kept) == lex::comments(canonical),
    }
}

/// A typed comment must stay on its line.
fn comment_text(c: &str) -> Result<&str, String> {
    if c.contains('\n') {
        Err(format!("comment {c:?} has a line break"))
    } else {
        Ok(c)
    }
}

pub(crate) fn header_unit(h: &Header, ctx: Ctx, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    let mut first = String::new();
    for c in &h.comments {
        if !c.starts_with("//") {
            return Err(format!("header comment {c:?} does not start with //"));
        }
        first.push_str(comment_text(c)?);
        first.push_str(ctx.eol);
    }
    if !h.comments.is_empty() {
        first.push_str(ctx.eol);
    }
    let mut slot0 = Some(first);
    let mut take = |then: Canon| match slot0.take() {
        Some(s) => Canon::Own(s),
        None => then,
    };
    let comments_check = |u: &mut Unit<'_>| {
        if let Some(Piece::Tok { check, .. }) = u.pieces.first_mut() {
            *check = Check::Comments;
        }
    };
    if let Some(v) = ctx.dialect.version() {
        u.fixed(take(Canon::Lit("")), "version");
        u.int(Canon::Lit(" "), v);
    }
    match (&h.counts, ctx.dialect.is_dollar_m()) {
        (Some(c), false) => {
            u.fixed(take(Canon::Lines(2)), "blocks");
            u.int(Canon::Lit(" "), c.blocks);
            u.fixed(Canon::Nl(0), "entities");
            u.int(Canon::Lit(" "), c.entities);
            u.fixed(Canon::Nl(0), "objects");
            u.int(Canon::Lit(" "), c.objects);
        }
        (None, false) => return Err("a text level needs its blocks/entities/objects counts".into()),
        (Some(_), true) => return Err("a $$M file has no blocks/entities/objects counts".into()),
        (None, true) => {}
    }
    if let Some(wed) = &h.wed {
        if ctx.dialect.is_dollar_m() {
            return Err("a $$M file has no wed section".into());
        }
        u.fixed(Canon::Lines(2), "wed");
        u.tok(Canon::Lit(" "), wed.as_str(), Class::Raw);
    }
    comments_check(&mut u);
    Ok(u)
}

pub(crate) fn record_unit(
    r: &Record,
    ctx: Ctx,
    index: usize,
    canon_only: bool,
) -> Result<Unit<'_>, String> {
    let lead = lead(ctx, index);
    let is_m = matches!(
        r,
        Record::MLevel(_)
            | Record::MSun(_)
            | Record::MModel(_)
            | Record::MLight(_)
            | Record::MPath(_)
            | Record::MStart(_)
            | Record::MOther(_)
    );
    if is_m != ctx.dialect.is_dollar_m() {
        return Err(if is_m {
            format!("a $$M {} record does not belong in a text level", r.kind())
        } else {
            format!("a {} record does not belong in a $$M file", r.kind())
        });
    }
    match r {
        Record::Block(b) => block_unit(b, ctx, lead, canon_only),
        Record::Level(l) => level_unit(l, lead, canon_only),
        Record::Start(s) => start_unit(s, lead, canon_only),
        Record::Light(l) => light_unit(l, lead, canon_only),
        Record::Sound(s) => sound_unit(s, lead, canon_only),
        Record::Model(m) => model_unit(m, lead, canon_only),
        Record::Path(p) => path_unit(p, ctx, lead, canon_only),
        Record::Group(g) => group_unit(g, lead, canon_only),
        Record::Other(o) => other_unit(o, lead, canon_only),
        Record::MLevel(l) => m_level_unit(l, lead, canon_only),
        Record::MSun(s) => m_sun_unit(s, lead, canon_only),
        Record::MModel(m) => m_model_unit(m, lead, canon_only),
        Record::MLight(l) => m_light_unit(l, lead, canon_only),
        Record::MPath(p) => m_path_unit(p, lead, canon_only),
        Record::MStart(s) => m_start_unit(s, lead, canon_only),
        Record::MOther(o) => m_other_unit(o, lead, canon_only),
    }
}

/// `kind K {` and the header comment (entities: three spaces before `//`, groups two).
fn entity_head<'m>(
    u: &mut Unit<'m>,
    lead: Canon,
    keyword: &'m str,
    number: Option<u32>,
    comment: Option<&str>,
    spaces: &str,
) -> Result<(), String> {
    u.word(lead, keyword);
    if let Some(n) = number {
        u.int(Canon::Lit(" "), n);
    }
    u.fixed(Canon::Lit(" "), "{");
    let prefix = match comment {
        Some(c) => format!("{spaces}// {}", comment_text(c)?),
        None => String::new(),
    };
    u.comment_next(prefix, Check::LineComment);
    Ok(())
}

/// A text block (`block K { … }`, depth 0).
pub(crate) fn block_unit(
    b: &Block,
    ctx: Ctx,
    lead: Canon,
    canon_only: bool,
) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    let Some(number) = b.number else {
        return Err("a text block needs its number".into());
    };
    u.fixed(lead, "block");
    u.int(Canon::Lit(" "), number);
    u.fixed(Canon::Lit(" "), "{");
    block_body(&mut u, b, ctx, 1)?;
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

/// A `$$M` block, nested in the level record (depth 1), `{   // position`.
pub(crate) fn m_block_unit(
    b: &Block,
    ctx: Ctx,
    position: usize,
    canon_only: bool,
) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    if b.number.is_some() {
        return Err("a $$M block has no number of its own (its comment is its position)".into());
    }
    u.fixed(Canon::Nl(1), "{");
    u.comment_next(format!("   // {position}"), Check::None);
    block_body(&mut u, b, ctx, 2)?;
    u.fixed(Canon::Nl(1), "}");
    Ok(u)
}

/// Vertices, faces and the `{ flags function index }` trailer, at `tabs` indentation.
fn block_body<'m>(u: &mut Unit<'m>, b: &'m Block, ctx: Ctx, tabs: u8) -> Result<(), String> {
    let planes = ctx.dialect == Dialect::A4;
    if planes {
        if !b.vertices.is_empty() {
            return Err("an A4 block has planes, not vertices".into());
        }
    } else {
        u.fixed(Canon::Nl(tabs), "vertices");
        u.int(Canon::Lit(" "), b.vertices.len());
        u.fixed(Canon::Nl(tabs), "faces");
        u.int(Canon::Lit(" "), b.faces.len());
        for (i, v) in b.vertices.iter().enumerate() {
            let first = if i % 3 == 0 {
                Canon::Nl(tabs)
            } else {
                Canon::Lit("   ")
            };
            u.num(first, &v[0]);
            u.num(Canon::Lit(" "), &v[1]);
            u.num(Canon::Lit(" "), &v[2]);
        }
    }
    for (i, f) in b.faces.iter().enumerate() {
        face_pieces(u, f, ctx, tabs).map_err(|m| format!("faces[{i}]: {m}"))?;
    }
    u.fixed(Canon::Nl(tabs), "{");
    let inner = tabs.saturating_add(1);
    u.word(Canon::Nl(inner), &b.flags);
    u.word(Canon::Nl(inner), &b.function);
    match (b.index, planes) {
        (Some(i), false) => u.int(Canon::Nl(inner), i),
        (None, true) => {}
        (None, false) => return Err("the block trailer needs its index".into()),
        (Some(_), true) => return Err("an A4 block trailer has no index".into()),
    }
    u.extras(inner, &b.extra);
    u.fixed(Canon::Nl(tabs), "}");
    Ok(())
}

fn face_pieces<'m>(u: &mut Unit<'m>, f: &'m Face, ctx: Ctx, tabs: u8) -> Result<(), String> {
    let d = ctx.dialect;
    let shape_ok = match d {
        Dialect::A4 => {
            f.plane.is_some()
                && f.indices.is_empty()
                && f.vectors.is_none()
                && f.transform.is_some()
        }
        Dialect::V510 => f.plane.is_none() && f.vectors.is_none() && f.transform.is_some(),
        Dialect::V710 => f.plane.is_none() && f.vectors.is_some() && f.transform.is_some(),
        Dialect::DollarM => f.plane.is_none() && f.vectors.is_some() && f.transform.is_none(),
    };
    if !shape_ok || (d != Dialect::A4 && f.a4.is_some()) {
        return Err(format!(
            "a {d} face has {}",
            match d {
                Dialect::A4 => "a plane, a texture transform and no indices or vectors",
                Dialect::V510 => "indices and a texture transform, no vectors or plane",
                Dialect::V710 => "indices, texture vectors and a texture transform",
                Dialect::DollarM => "indices and texture vectors, no texture transform",
            }
        ));
    }
    if let Some(plane) = &f.plane {
        for (i, p) in plane.iter().enumerate() {
            u.fixed(
                if i == 0 {
                    Canon::Nl(tabs)
                } else {
                    Canon::Lit(" ")
                },
                "(",
            );
            for n in p {
                u.num(Canon::Lit(" "), n);
            }
            u.fixed(Canon::Lit(" "), ")");
        }
    } else {
        u.int(Canon::Nl(tabs), f.indices.len());
        for (i, n) in f.indices.iter().enumerate() {
            u.int(Canon::Lit(if i == 0 { "  " } else { " " }), n);
        }
        u.fixed(Canon::Lit(" "), ":");
    }
    u.word(Canon::Lit(" "), &f.texture);
    if let Some(uvs) = &f.uvs {
        if !matches!(d, Dialect::V710 | Dialect::DollarM) {
            return Err(format!("a {d} face has no '[ u v … ]' texture coordinates"));
        }
        if uvs.len() > f.indices.len().saturating_mul(2) {
            return Err(format!(
                "{} texture coordinates for {} corners",
                uvs.len(),
                f.indices.len()
            ));
        }
        u.fixed(Canon::Lit(" "), "[");
        for n in uvs {
            u.num(Canon::Lit(" "), n);
        }
        u.fixed(Canon::Lit(" "), "]");
    }
    if let Some(vectors) = &f.vectors {
        for v in vectors {
            u.fixed(Canon::Lit(" "), "(");
            for n in v {
                u.num(Canon::Lit(" "), n);
            }
            u.fixed(Canon::Lit(" "), ")");
        }
    }
    if let Some(t) = &f.transform {
        for n in t {
            u.num(Canon::Lit(" "), n);
        }
    }
    u.fixed(Canon::Lit(" "), ":");
    u.word(Canon::Lit(" "), &f.flags);
    u.num(Canon::Lit(" "), &f.ambient);
    u.num(Canon::Lit(" "), &f.albedo);
    u.word(Canon::Lit(" "), &f.material);
    if let (Some(t), Dialect::A4) = (&f.a4, d) {
        u.word(Canon::Lit(" "), &t.name);
        u.num(Canon::Lit(" "), &t.value);
        u.word(Canon::Lit(" "), &t.flags);
    }
    for e in &f.extra {
        u.tok(Canon::Lit(" "), e.as_str(), Class::Any);
    }
    Ok(())
}

fn level_unit(l: &LevelEntity, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "level",
        Some(l.number),
        l.comment.as_deref(),
        "   ",
    )?;
    u.word(Canon::Nl(1), &l.wad);
    u.word(Canon::Nl(1), &l.palette);
    for s in &l.sun {
        u.num(Canon::Nl(1), s);
    }
    u.word(Canon::Nl(1), &l.script);
    for c in &l.colors {
        u.line3(1, c);
    }
    u.extras(1, &l.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn start_unit(s: &Start, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "start",
        Some(s.number),
        s.comment.as_deref(),
        "   ",
    )?;
    u.word(Canon::Nl(1), &s.name);
    u.extras(1, &s.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn light_unit(l: &Light, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "light",
        Some(l.number),
        l.comment.as_deref(),
        "   ",
    )?;
    u.line3(1, &l.color);
    u.num(Canon::Lit(" "), &l.range);
    if let Some(f) = &l.flags {
        u.word(Canon::Lit(" "), f);
    }
    u.extras(1, &l.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn sound_unit(s: &Sound, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "sound",
        Some(s.number),
        s.comment.as_deref(),
        "   ",
    )?;
    u.word(Canon::Nl(1), &s.file);
    u.word(Canon::Nl(1), &s.flags);
    u.line(1, &s.values, "sound values")?;
    u.extras(1, &s.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn model_unit(m: &Model, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "model",
        Some(m.number),
        m.comment.as_deref(),
        "   ",
    )?;
    u.line3(1, &m.scale);
    u.word(Canon::Nl(1), &m.file);
    u.word(Canon::Nl(1), &m.name);
    u.word(Canon::Nl(1), &m.action);
    u.line(1, &m.skills, "the skills line")?;
    u.word(Canon::Nl(1), &m.flags);
    u.num(Canon::Nl(1), &m.ambient);
    if let Some(a) = &m.albedo {
        u.num(Canon::Nl(1), a);
    }
    if let Some(s) = &m.material {
        u.word(Canon::Nl(1), s);
    }
    if let Some(s) = &m.name2 {
        u.word(Canon::Nl(1), s);
    }
    u.extras(1, &m.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn path_unit<'m>(p: &'m Path, ctx: Ctx, lead: Canon, canon_only: bool) -> Result<Unit<'m>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "path",
        Some(p.number),
        p.comment.as_deref(),
        "   ",
    )?;
    u.word(Canon::Nl(1), &p.name);
    let v710 = ctx.dialect == Dialect::V710;
    match (v710, &p.unknown, &p.triplets) {
        (false, Some(unknown), None) => {
            u.num(Canon::Nl(1), unknown);
            u.int(Canon::Nl(1), p.positions.len());
        }
        (true, None, Some(t)) => {
            u.int(Canon::Nl(1), p.positions.len());
            u.num(Canon::Nl(1), t);
        }
        (false, _, _) => return Err("a v510/A4 path has the unknown number, no triplets".into()),
        (true, _, _) => return Err("a v710 path has the triplet count, no unknown number".into()),
    }
    for v in &p.positions {
        u.line3(1, v);
    }
    if v710 && p.skills.len() != p.positions.len() {
        return Err(format!(
            "a v710 path has one skills line per node ({} nodes, {} lines)",
            p.positions.len(),
            p.skills.len()
        ));
    }
    if !v710 && !p.skills.is_empty() {
        return Err("a v510/A4 path has no skills lines".into());
    }
    for (i, s) in p.skills.iter().enumerate() {
        u.line(1, s, &format!("skills line {i}"))?;
    }
    for (i, e) in p.edges.iter().enumerate() {
        u.line(1, e, &format!("edge line {i}"))?;
    }
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn group_unit(g: &Group, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        "object",
        Some(g.number),
        g.name.as_deref(),
        "  ",
    )?;
    for (i, v) in [&g.position, &g.angles, &g.scale].into_iter().enumerate() {
        u.fixed(
            if i == 0 {
                Canon::Nl(1)
            } else {
                Canon::Lit(" ")
            },
            "(",
        );
        u.num(Canon::Lit(""), &v[0]);
        u.num(Canon::Lit(" "), &v[1]);
        u.num(Canon::Lit(" "), &v[2]);
        u.fixed(Canon::Lit(""), ")");
    }
    for (i, m) in g.members.iter().enumerate() {
        let Some((first, rest)) = m.ids.split_first() else {
            return Err(format!("members[{i}] has no numbers"));
        };
        u.word(Canon::Nl(1), &m.kind);
        u.int(Canon::Lit(" "), first);
        for id in rest {
            u.glued(",", Class::Fixed);
            u.int(Canon::Lit(" "), id);
        }
    }
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn other_unit(o: &Other, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    entity_head(
        &mut u,
        lead,
        &o.keyword,
        o.number,
        o.comment.as_deref(),
        "   ",
    )?;
    u.extras(1, &o.tokens);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

/// `{ //kind` and the type number.
fn m_head(u: &mut Unit<'_>, lead: Canon, type_id: u32) {
    u.fixed(lead, "{");
    if let Some(kind) = m_kind(type_id) {
        u.comment_next(format!(" //{kind}"), Check::None);
    }
    u.int(Canon::Nl(1), type_id);
}

fn m_level_unit(l: &MLevel, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    m_head(&mut u, lead, 0);
    u.word(Canon::Nl(1), &l.wad);
    u.word(Canon::Nl(1), &l.palette);
    for (position, block) in l.blocks.iter().enumerate() {
        u.pieces.push(Piece::Block { block, position });
    }
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn m_sun_unit(s: &MSun, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    m_head(&mut u, lead, 5);
    for v in &s.values {
        u.num(Canon::Nl(1), v);
    }
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn m_model_unit(m: &MModel, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    if !matches!(m.type_id, 3 | 7) {
        return Err(format!("a $$M model has type 3 or 7, not {}", m.type_id));
    }
    m_head(&mut u, lead, m.type_id);
    u.line3(1, &m.position);
    u.line3(1, &m.angles);
    u.line3(1, &m.scale);
    u.word(Canon::Nl(1), &m.file);
    u.word(Canon::Nl(1), &m.name);
    u.word(Canon::Nl(1), &m.action);
    u.line(1, &m.skills, "the skills line")?;
    u.word(Canon::Nl(1), &m.flags);
    u.num(Canon::Nl(1), &m.ambient);
    for n in [&m.albedo, &m.path, &m.attach].into_iter().flatten() {
        u.num(Canon::Nl(1), n);
    }
    for s in [&m.material, &m.string1, &m.string2].into_iter().flatten() {
        u.word(Canon::Nl(1), s);
    }
    u.extras(1, &m.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn m_light_unit(l: &MLight, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    m_head(&mut u, lead, 2);
    u.line3(1, &l.position);
    u.line3(1, &l.angles);
    u.line3(1, &l.color);
    u.num(Canon::Lit(" "), &l.range);
    if let Some(f) = &l.flags {
        u.word(Canon::Lit(" "), f);
    }
    u.extras(1, &l.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn m_path_unit(p: &MPath, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    m_head(&mut u, lead, 6);
    u.word(Canon::Nl(1), &p.name);
    u.int(Canon::Nl(1), p.positions.len());
    u.num(Canon::Nl(1), &p.triplets);
    for v in &p.positions {
        u.line3(1, v);
    }
    if p.skills.len() != p.positions.len() {
        return Err(format!(
            "a $$M path has one skills line per node ({} nodes, {} lines)",
            p.positions.len(),
            p.skills.len()
        ));
    }
    for (i, s) in p.skills.iter().enumerate() {
        u.line(1, s, &format!("skills line {i}"))?;
    }
    for (i, e) in p.edges.iter().enumerate() {
        u.line(1, e, &format!("edge line {i}"))?;
    }
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn m_start_unit(s: &MStart, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    m_head(&mut u, lead, 1);
    u.line3(1, &s.position);
    u.line3(1, &s.angles);
    u.word(Canon::Nl(1), &s.name);
    u.extras(1, &s.extra);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}

fn m_other_unit(o: &MOther, lead: Canon, canon_only: bool) -> Result<Unit<'_>, String> {
    let mut u = Unit::new(canon_only);
    if matches!(o.type_id, 0..=3 | 5..=7) {
        return Err(format!(
            "type {} is typed ({}); kept tokens are for other types",
            o.type_id,
            m_kind(o.type_id).unwrap_or_default()
        ));
    }
    m_head(&mut u, lead, o.type_id);
    u.extras(1, &o.tokens);
    u.fixed(Canon::Nl(0), "}");
    Ok(u)
}
