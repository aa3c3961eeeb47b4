//! The reader. Mirrors `write.rs` record by record.
//!
//! One pass over the tokens of [`super::lex`], no recursion. Every record's tokens are
//! collected with their trivia; once the record is typed, the writer's canonical layout for it is
//! built and only the trivia that differ are kept ([`Layout`]).
//!
//! Errors carry the line and column of the offending token and say what was expected there.
//! Memory is charged to a [`Budget`]: every token kept costs its text plus a fixed overhead, and
//! declared counts (vertices, faces, nodes) are checked against [`Limits::max_count`] and never
//! used to preallocate.

#![deny(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::fmt;

use super::lex::{self, Kind, Lexer, Tok};
use super::model::*;
use super::write::{self, Ctx, Unit};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};
use crate::registry::Format;

/// Read a text level or `$$M` file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<WmpText> {
    read_with(bytes, &Limits::default())
}

/// Read a text level or `$$M` file under `limits`.
///
/// The dialect comes from the first token: `version 711` is `$$M`, `version 510` and
/// `version 710` those text dialects, `blocks` (a file without a version line, `// WMP2` on top)
/// A4. WMPB files (magic `WMPB`) are refused: they are read by [`super::super::binary`].
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<WmpText> {
    if bytes.starts_with(b"WMPB") {
        return Err(Error::unsupported(
            Format::WmpText,
            Location::at(0),
            "this is a binary WMPB level (magic WMPB), not a text level",
        ));
    }
    if crate::registry::is_acknex3_wmp(bytes) {
        return Err(Error::unsupported(
            Format::WmpText,
            Location::at(0),
            "this is an Acknex 3 WMP (the 2.5D level of Acknex 3: VERTEX, REGION, WALL … lines), \
             not a 3D GameStudio text level; levelkit does not read Acknex 3 levels",
        ));
    }
    let line_ending = match bytes.iter().position(|&b| b == b'\n') {
        Some(i) if i.checked_sub(1).and_then(|c| bytes.get(c)) == Some(&b'\r') => LineEnding::CrLf,
        _ => LineEnding::Lf,
    };
    let mut p = Parser::new(bytes, limits);
    p.open();
    let mut header = read_header(&mut p)?;
    let ctx = Ctx::of(p.dialect, line_ending);
    p.ctx = ctx;
    let trivia = p.close();
    header.comments = trivia
        .first()
        .map(|t| {
            lex::comments(&latin1(t))
                .into_iter()
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let unit = write::header_unit(&header, ctx, true).map_err(|m| p.internal(m))?;
    header.layout = layout_of(&unit, &trivia, ctx.eol);
    let mut records = Vec::new();
    loop {
        let tok = p.peek()?;
        if tok.kind == Kind::Eof {
            break;
        }
        let index = records.len();
        p.open();
        let mut record = if ctx.dialect.is_dollar_m() {
            read_m_record(&mut p)
        } else {
            read_text_record(&mut p)
        }
        .map_err(|e| e.in_path(format!("records[{index}]")))?;
        let trivia = p.close();
        let unit = write::record_unit(&record, ctx, index, true).map_err(|m| p.internal(m))?;
        *record.layout_mut() = layout_of(&unit, &trivia, ctx.eol);
        p.recycle(trivia);
        records.push(record);
    }
    let eof = p.peek()?;
    let end = bytes.get(eof.trivia_start..eof.start).unwrap_or_default();
    let end = (!write::end_canon(ctx).matches(ctx.eol, end)).then(|| latin1(end));
    Ok(WmpText {
        dialect: ctx.dialect,
        line_ending,
        header,
        records,
        end,
    })
}

/// The bytes as a Latin-1 string.
pub(crate) fn latin1(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.is_ascii() => s.to_owned(),
        _ => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// A number token's text, without allocating (numbers are ASCII).
fn number_text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok().filter(|s| is_number(s))
}

/// Keep the trivia that differ from the unit's canonical layout.
pub(crate) fn layout_of(unit: &Unit<'_>, actual: &[&[u8]], eol: &str) -> Layout {
    let mut trivia = BTreeMap::new();
    if unit.canons().count() == actual.len() {
        for (i, (canon, got)) in unit.canons().zip(actual).enumerate() {
            if !canon.matches(eol, got) {
                trivia.insert(u32::try_from(i).unwrap_or(u32::MAX), latin1(got));
            }
        }
    } else {
        // The writer would emit a different number of tokens than were read (a reader/writer
        // mismatch): keep every trivia so that the difference shows in the round trip.
        for (i, got) in actual.iter().enumerate() {
            trivia.insert(u32::try_from(i).unwrap_or(u32::MAX), latin1(got));
        }
    }
    if trivia.is_empty() {
        Layout::default()
    } else {
        Layout {
            tokens: u32::try_from(actual.len()).unwrap_or(u32::MAX),
            trivia,
        }
    }
}

/// Token stream with one token of look-ahead, the trivia of the records being read, and the
/// memory budget.
struct Parser<'a> {
    src: &'a [u8],
    lx: Lexer<'a>,
    peeked: Option<Tok>,
    units: Vec<Vec<&'a [u8]>>,
    /// Emptied trivia lists of records already read, reused by the next ones.
    spare: Vec<Vec<&'a [u8]>>,
    budget: Budget,
    dialect: Dialect,
    ctx: Ctx,
}

/// What keeping one token costs besides its text (a `String` and a trivia slice).
const TOKEN_OVERHEAD: usize = 48;

impl<'a> Parser<'a> {
    fn new(src: &'a [u8], limits: &Limits) -> Self {
        Parser {
            src,
            lx: Lexer::new(src),
            peeked: None,
            units: Vec::new(),
            spare: Vec::new(),
            budget: limits.budget(Format::WmpText),
            dialect: Dialect::V710,
            ctx: Ctx::of(Dialect::V710, LineEnding::CrLf),
        }
    }

    fn format(&self) -> Format {
        if self.dialect.is_dollar_m() {
            Format::DollarM
        } else {
            Format::WmpText
        }
    }

    fn at(tok: &Tok) -> Location {
        Location {
            line_col: Some((tok.line, tok.col)),
            ..Location::default()
        }
    }

    fn lex_error(&self, e: lex::LexError) -> Error {
        let kind = if e.truncated {
            ErrorKind::Truncated
        } else {
            ErrorKind::Malformed
        };
        let at = Location {
            line_col: Some((e.line, e.col)),
            ..Location::default()
        };
        Error::new(self.format(), kind, at, e.message)
    }

    fn internal(&self, message: String) -> Error {
        Error::malformed(
            self.format(),
            Location::default(),
            format!("read a record the writer cannot write back: {message}"),
        )
    }

    /// "expected X, found Y" at `tok`.
    fn fail(&self, tok: &Tok, expected: impl fmt::Display) -> Error {
        let (kind, found) = if tok.kind == Kind::Eof {
            (ErrorKind::Truncated, "the end of the file".to_owned())
        } else {
            let text = self.text(tok);
            let short: String = text.chars().take(40).collect();
            let more = if short.len() < text.len() { "…" } else { "" };
            (ErrorKind::Malformed, format!("'{short}{more}'"))
        };
        Error::new(
            self.format(),
            kind,
            Self::at(tok),
            format!("expected {expected}, found {found}"),
        )
    }

    fn text(&self, tok: &Tok) -> String {
        latin1(self.bytes(tok))
    }

    fn bytes(&self, tok: &Tok) -> &'a [u8] {
        self.src.get(tok.start..tok.end).unwrap_or_default()
    }

    fn open(&mut self) {
        let unit = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(64));
        self.units.push(unit);
    }

    /// Hand back a list [`Parser::close`] returned, for the next record.
    fn recycle(&mut self, mut unit: Vec<&'a [u8]>) {
        unit.clear();
        self.spare.push(unit);
    }

    fn close(&mut self) -> Vec<&'a [u8]> {
        self.units.pop().unwrap_or_default()
    }

    fn peek(&mut self) -> Result<Tok> {
        if let Some(t) = self.peeked {
            return Ok(t);
        }
        let t = self.lx.next_tok().map_err(|e| self.lex_error(e))?;
        self.peeked = Some(t);
        Ok(t)
    }

    /// Take the next token into the record being read.
    fn bump(&mut self) -> Result<Tok> {
        let t = self.peek()?;
        self.peeked = None;
        self.keep(&t)?;
        Ok(t)
    }

    fn keep(&mut self, t: &Tok) -> Result<()> {
        let size = t.end.saturating_sub(t.start).saturating_add(TOKEN_OVERHEAD);
        self.budget.charge(size, "a token", Self::at(t))?;
        let trivia = self.src.get(t.trivia_start..t.start).unwrap_or_default();
        if let Some(unit) = self.units.last_mut() {
            unit.push(trivia);
        }
        Ok(())
    }

    /// A `{ … }` section taken verbatim, right after the token before it.
    fn raw(&mut self) -> Result<String> {
        if let Some(t) = self.peeked {
            return Err(self.fail(&t, "'{' opening the section"));
        }
        let t = self.lx.raw_braced().map_err(|e| self.lex_error(e))?;
        self.keep(&t)?;
        Ok(self.text(&t))
    }

    fn expect(&mut self, kind: Kind, what: impl fmt::Display + Copy) -> Result<Tok> {
        let t = self.peek()?;
        if t.kind != kind {
            return Err(self.fail(&t, what));
        }
        self.bump()
    }

    fn is_word(&mut self, word: &str) -> Result<bool> {
        let t = self.peek()?;
        Ok(t.kind == Kind::Word && self.bytes(&t) == word.as_bytes())
    }

    fn keyword(&mut self, word: &str) -> Result<()> {
        if self.is_word(word)? {
            self.bump()?;
            Ok(())
        } else {
            let t = self.peek()?;
            Err(self.fail(&t, format_args!("'{word}'")))
        }
    }

    /// A name, file name or flags: a word (not `:`), `<…>` or `'…'`.
    fn word(&mut self, what: impl fmt::Display + Copy) -> Result<String> {
        let t = self.peek()?;
        let ok = match t.kind {
            Kind::Angle | Kind::Quoted => true,
            Kind::Word => self.bytes(&t) != b":",
            _ => false,
        };
        if !ok {
            return Err(self.fail(&t, what));
        }
        self.bump()?;
        Ok(self.text(&t))
    }

    fn peek_is_value(&mut self) -> Result<bool> {
        let t = self.peek()?;
        Ok(match t.kind {
            Kind::Angle | Kind::Quoted => true,
            Kind::Word => self.bytes(&t) != b":",
            _ => false,
        })
    }

    fn peek_is_num(&mut self) -> Result<bool> {
        let t = self.peek()?;
        Ok(t.kind == Kind::Word && number_text(self.bytes(&t)).is_some())
    }

    /// Whether the next token is on the line of the token before it.
    fn same_line(&mut self) -> Result<bool> {
        Ok(!self.peek()?.newline_before)
    }

    fn num(&mut self, what: impl fmt::Display + Copy) -> Result<Num> {
        let t = self.peek()?;
        if t.kind == Kind::Word
            && let Some(n) = number_text(self.bytes(&t)).and_then(Num::parse)
        {
            self.bump()?;
            return Ok(n);
        }
        Err(self.fail(&t, what))
    }

    fn vec3(&mut self, what: impl fmt::Display + Copy) -> Result<Vec3> {
        Ok([self.num(what)?, self.num(what)?, self.num(what)?])
    }

    /// `( x y z )` or `(x y z)`.
    fn paren3(&mut self, what: impl fmt::Display + Copy) -> Result<Vec3> {
        self.expect(Kind::LParen, format_args!("'(' opening {what}"))?;
        let v = self.vec3(format_args!("a number of {what}"))?;
        self.expect(Kind::RParen, format_args!("')' closing {what}"))?;
        Ok(v)
    }

    /// The numbers up to the end of the line (at least one).
    fn line_nums(&mut self, what: impl fmt::Display + Copy) -> Result<Vec<Num>> {
        let mut out = vec![self.num(what)?];
        while self.same_line()? && self.peek_is_num()? {
            out.push(self.num(what)?);
        }
        Ok(out)
    }

    /// An unsigned integer spelled canonically (`0`, `17`; no sign, no leading zero).
    fn uint(&mut self, what: impl fmt::Display + Copy) -> Result<u32> {
        let t = self.peek()?;
        let b = self.bytes(&t);
        let canonical = t.kind == Kind::Word
            && !b.is_empty()
            && b.iter().all(u8::is_ascii_digit)
            && (b.len() == 1 || b.first() != Some(&b'0'));
        match std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
        {
            Some(n) if canonical => {
                self.bump()?;
                Ok(n)
            }
            _ => Err(self.fail(&t, what)),
        }
    }

    /// A declared count, checked against the limits.
    fn count(&mut self, what: &str) -> Result<u32> {
        let t = self.peek()?;
        let n = self.uint(what)?;
        self.budget.count(u64::from(n), what, Self::at(&t))?;
        Ok(n)
    }

    fn colon(&mut self, what: impl fmt::Display + Copy) -> Result<()> {
        if self.is_word(":")? {
            self.bump()?;
            Ok(())
        } else {
            let t = self.peek()?;
            Err(self.fail(&t, what))
        }
    }

    /// The comment on the line of the token just taken (a record's name).
    fn line_comment(&mut self) -> Result<Option<String>> {
        let t = self.peek()?;
        Ok(lex::line_comment(&latin1(
            self.src.get(t.trivia_start..t.start).unwrap_or_default(),
        )))
    }

    /// Tokens up to the `}` that closes the current braces (not taken), nested braces kept.
    fn rest(&mut self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::Eof => return Err(self.fail(&t, "'}'")),
                Kind::RBrace if depth == 0 => return Ok(out),
                Kind::RBrace => depth = depth.saturating_sub(1),
                Kind::LBrace => {
                    depth = depth.saturating_add(1);
                    if depth > self.budget.limits().max_depth {
                        return Err(Error::new(
                            self.format(),
                            ErrorKind::LimitExceeded,
                            Self::at(&t),
                            "braces nest deeper than the limit",
                        ));
                    }
                }
                _ => {}
            }
            self.bump()?;
            out.push(self.text(&t));
        }
    }

    /// Tokens up to the end of the line (not braces).
    fn rest_of_line(&mut self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        loop {
            let t = self.peek()?;
            if t.newline_before || matches!(t.kind, Kind::Eof | Kind::LBrace | Kind::RBrace) {
                return Ok(out);
            }
            self.bump()?;
            out.push(self.text(&t));
        }
    }

    fn close_brace(&mut self, what: impl fmt::Display + Copy) -> Result<()> {
        self.expect(Kind::RBrace, format_args!("'}}' closing {what}"))?;
        Ok(())
    }
}

fn read_header(p: &mut Parser<'_>) -> Result<Header> {
    let first = p.peek()?;
    if p.is_word("version")? {
        p.bump()?;
        let t = p.peek()?;
        let v = p.uint("the version number")?;
        p.dialect = Dialect::from_version(v).ok_or_else(|| {
            Error::unsupported(
                Format::WmpText,
                Parser::at(&t),
                format!(
                    "version {v} is not a known text dialect (510, 710, or 711 for $$M); \
                     A3 and other versions are not supported"
                ),
            )
        })?;
    } else if p.is_word("blocks")? {
        p.dialect = Dialect::A4;
    } else {
        return Err(p.fail(
            &first,
            "'version' (v510, v710, $$M) or 'blocks' (A4) after the comment lines",
        ));
    }
    let mut header = Header::default();
    if !p.dialect.is_dollar_m() {
        p.keyword("blocks")?;
        let blocks = p.uint("the block count")?;
        p.keyword("entities")?;
        let entities = p.uint("the entity count")?;
        p.keyword("objects")?;
        let objects = p.uint("the object count")?;
        header.counts = Some(Counts {
            blocks,
            entities,
            objects,
        });
        if p.is_word("wed")? {
            p.bump()?;
            header.wed = Some(p.raw()?);
        }
    }
    Ok(header)
}

fn read_text_record(p: &mut Parser<'_>) -> Result<Record> {
    let t = p.peek()?;
    if t.kind != Kind::Word {
        return Err(p.fail(
            &t,
            "a record (block, level, start, light, sound, model, path or object)",
        ));
    }
    Ok(match p.bytes(&t) {
        b"block" => Record::Block(read_block(p, false)?),
        b"level" => Record::Level(read_level(p)?),
        b"start" => Record::Start(read_start(p)?),
        b"light" => Record::Light(read_light(p)?),
        b"sound" => Record::Sound(read_sound(p)?),
        b"model" => Record::Model(read_model(p)?),
        b"path" => Record::Path(read_path(p)?),
        b"object" => Record::Group(read_group(p)?),
        _ => Record::Other(read_other(p)?),
    })
}

/// A block: `block K { … }` in text, `{ … }` nested in the `$$M` level.
fn read_block(p: &mut Parser<'_>, nested: bool) -> Result<Block> {
    let mut b = Block::default();
    if !nested {
        p.keyword("block")?;
        b.number = Some(p.uint("the block number")?);
    }
    p.expect(Kind::LBrace, "'{' opening the block")?;
    if p.dialect == Dialect::A4 {
        while p.peek()?.kind == Kind::LParen {
            let at = b.faces.len();
            b.faces
                .push(read_plane_face(p).map_err(|e| e.in_path(format!("faces[{at}]")))?);
        }
    } else {
        p.keyword("vertices")?;
        let vertices = p.count("the vertex count")?;
        p.keyword("faces")?;
        let faces = p.count("the face count")?;
        for _ in 0..vertices {
            b.vertices.push(p.vec3("a vertex coordinate")?);
        }
        for at in 0..faces {
            b.faces
                .push(read_face(p).map_err(|e| e.in_path(format!("faces[{at}]")))?);
        }
    }
    p.expect(
        Kind::LBrace,
        "'{' opening the block trailer (flags, function, index)",
    )?;
    b.flags = p.word("the block flags")?;
    b.function = p.word("the block function")?;
    if p.dialect != Dialect::A4 {
        b.index = Some(p.uint("the block index")?);
    }
    b.extra = p.rest()?;
    p.close_brace("the block trailer")?;
    p.close_brace("the block")?;
    Ok(b)
}

/// `n i… : texture ( t1 ) ( t2 ) xoff yoff rot xscale yscale : flags ambient albedo material`,
/// without the vectors in v510 and without the offsets in `$$M`.
fn read_face(p: &mut Parser<'_>) -> Result<Face> {
    let mut f = Face::default();
    let n = p.count("the face's vertex count")?;
    for _ in 0..n {
        f.indices.push(p.uint("a vertex index")?);
    }
    p.colon("':' after the face's vertex indices")?;
    f.texture = p.word("the texture name")?;
    if matches!(p.dialect, Dialect::V710 | Dialect::DollarM) && p.is_word("[")? {
        p.bump()?;
        let mut uvs = Vec::new();
        while !p.is_word("]")? {
            if uvs.len() >= f.indices.len().saturating_mul(2) {
                let t = p.peek()?;
                return Err(p.fail(
                    &t,
                    format_args!(
                        "']' after the {} texture coordinates of the face's corners",
                        uvs.len()
                    ),
                ));
            }
            uvs.push(p.num("a texture coordinate in '[ u v … ]'")?);
        }
        p.bump()?;
        f.uvs = Some(uvs);
    }
    if matches!(p.dialect, Dialect::V710 | Dialect::DollarM) {
        let mut vectors: [[Num; 4]; 2] = Default::default();
        for v in &mut vectors {
            p.expect(Kind::LParen, "'(' opening a texture vector")?;
            for n in v.iter_mut() {
                *n = p.num("a texture vector component")?;
            }
            p.expect(Kind::RParen, "')' closing a texture vector")?;
        }
        f.vectors = Some(vectors);
    }
    if p.dialect != Dialect::DollarM {
        f.transform = Some(read_transform(p)?);
    }
    read_face_tail(p, &mut f)?;
    Ok(f)
}

fn read_transform(p: &mut Parser<'_>) -> Result<[Num; 5]> {
    let what = "the texture offset, rotation and scale (5 numbers)";
    Ok([
        p.num(what)?,
        p.num(what)?,
        p.num(what)?,
        p.num(what)?,
        p.num(what)?,
    ])
}

/// `: flags ambient albedo material` and what else is on the line.
fn read_face_tail(p: &mut Parser<'_>, f: &mut Face) -> Result<()> {
    p.colon("':' before the surface flags")?;
    f.flags = p.word("the surface flags")?;
    f.ambient = p.num("the ambient")?;
    f.albedo = p.num("the albedo")?;
    f.material = p.word("the material")?;
    if p.dialect == Dialect::A4 && p.same_line()? && p.peek_is_value()? {
        let name = p.word("the A4 face's second name")?;
        let value = p.num("the A4 face's number after its second name")?;
        let flags = p.word("the A4 face's second flags")?;
        f.a4 = Some(A4Tail { name, value, flags });
    }
    f.extra = p.rest_of_line()?;
    Ok(())
}

/// A4: `( p1 ) ( p2 ) ( p3 ) texture xoff yoff rot xscale yscale : flags …`
fn read_plane_face(p: &mut Parser<'_>) -> Result<Face> {
    let mut f = Face::default();
    let plane = [
        p.paren3("the face's first plane point")?,
        p.paren3("the face's second plane point")?,
        p.paren3("the face's third plane point")?,
    ];
    f.plane = Some(plane);
    f.texture = p.word("the texture name")?;
    f.transform = Some(read_transform(p)?);
    read_face_tail(p, &mut f)?;
    Ok(f)
}

/// `keyword K {` and the comment on that line.
fn read_entity_head(p: &mut Parser<'_>, keyword: &str) -> Result<(u32, Option<String>)> {
    p.keyword(keyword)?;
    let number = p.uint(format_args!("the {keyword} number"))?;
    p.expect(Kind::LBrace, format_args!("'{{' opening the {keyword}"))?;
    Ok((number, p.line_comment()?))
}

fn read_level(p: &mut Parser<'_>) -> Result<LevelEntity> {
    let (number, comment) = read_entity_head(p, "level")?;
    let mut l = LevelEntity {
        number,
        comment,
        ..LevelEntity::default()
    };
    l.wad = p.word("the WAD file name")?;
    l.palette = p.word("the palette file name")?;
    while p.peek_is_num()? {
        l.sun.push(p.num("a sun number")?);
    }
    l.script = p.word("the script file name (<ndef> for none)")?;
    while p.peek_is_num()? {
        l.colors.push(p.vec3("a colour component")?);
    }
    l.extra = p.rest()?;
    p.close_brace("the level")?;
    Ok(l)
}

fn read_start(p: &mut Parser<'_>) -> Result<Start> {
    let (number, comment) = read_entity_head(p, "start")?;
    let name = p.word("the start position's name")?;
    let extra = p.rest()?;
    p.close_brace("the start position")?;
    Ok(Start {
        number,
        comment,
        name,
        extra,
        layout: Layout::default(),
    })
}

fn read_light(p: &mut Parser<'_>) -> Result<Light> {
    let (number, comment) = read_entity_head(p, "light")?;
    let color = p.vec3("a light colour component")?;
    let range = p.num("the light range")?;
    let flags = if p.same_line()? && p.peek_is_value()? {
        Some(p.word("the light flags")?)
    } else {
        None
    };
    let extra = p.rest()?;
    p.close_brace("the light")?;
    Ok(Light {
        number,
        comment,
        color,
        range,
        flags,
        extra,
        layout: Layout::default(),
    })
}

fn read_sound(p: &mut Parser<'_>) -> Result<Sound> {
    let (number, comment) = read_entity_head(p, "sound")?;
    let file = p.word("the sound file name")?;
    let flags = p.word("the sound flags")?;
    let what = "the sound volume, pitch, time and range";
    let values = [p.num(what)?, p.num(what)?, p.num(what)?, p.num(what)?];
    let extra = p.rest()?;
    p.close_brace("the sound")?;
    Ok(Sound {
        number,
        comment,
        file,
        flags,
        values,
        extra,
        layout: Layout::default(),
    })
}

fn read_model(p: &mut Parser<'_>) -> Result<Model> {
    let (number, comment) = read_entity_head(p, "model")?;
    let mut m = Model {
        number,
        comment,
        ..Model::default()
    };
    m.scale = p.vec3("a model scale component")?;
    m.file = p.word("the model file name")?;
    m.name = p.word("the model name")?;
    m.action = p.word("the model action (ndef for none)")?;
    m.skills = p.line_nums("a skill")?;
    m.flags = p.word("the model flags")?;
    m.ambient = p.num("the model ambient")?;
    if p.peek_is_num()? {
        m.albedo = Some(p.num("the model albedo")?);
    }
    if p.peek_is_value()? {
        m.material = Some(p.word("the model material")?);
    }
    if p.peek_is_value()? {
        m.name2 = Some(p.word("the model's last name field")?);
    }
    m.extra = p.rest()?;
    p.close_brace("the model")?;
    Ok(m)
}

fn read_path(p: &mut Parser<'_>) -> Result<Path> {
    let (number, comment) = read_entity_head(p, "path")?;
    let mut path = Path {
        number,
        comment,
        ..Path::default()
    };
    path.name = p.word("the path name")?;
    let v710 = p.dialect == Dialect::V710;
    let nodes = if v710 {
        let n = p.count("the path's node count")?;
        path.triplets = Some(p.num("the path's triplet count")?);
        n
    } else {
        path.unknown = Some(p.num("the number after the path name")?);
        p.count("the path's node count")?
    };
    for _ in 0..nodes {
        path.positions.push(p.vec3("a path node coordinate")?);
    }
    if v710 {
        for _ in 0..nodes {
            path.skills.push(p.line_nums("a path node skill")?);
        }
    }
    while p.peek()?.kind != Kind::RBrace {
        path.edges.push(p.line_nums("a path edge value")?);
    }
    p.close_brace("the path")?;
    Ok(path)
}

fn read_group(p: &mut Parser<'_>) -> Result<Group> {
    let (number, name) = read_entity_head(p, "object")?;
    let mut g = Group {
        number,
        name,
        ..Group::default()
    };
    g.position = p.paren3("the group position")?;
    g.angles = p.paren3("the group angles")?;
    g.scale = p.paren3("the group scale")?;
    while p.peek()?.kind == Kind::Word {
        let kind = p.word("a member kind")?;
        let mut ids = vec![p.uint(format_args!("a {kind} number"))?];
        while p.peek()?.kind == Kind::Comma {
            p.bump()?;
            ids.push(p.uint(format_args!("a {kind} number after ','"))?);
        }
        g.members.push(Members { kind, ids });
    }
    p.close_brace("the group (or a member line: kind and numbers)")?;
    Ok(g)
}

fn read_other(p: &mut Parser<'_>) -> Result<Other> {
    let keyword = p.word("a record keyword")?;
    let t = p.peek()?;
    let number = if t.kind == Kind::Word && p.bytes(&t).iter().all(u8::is_ascii_digit) {
        Some(p.uint(format_args!("the {keyword} number"))?)
    } else {
        None
    };
    p.expect(
        Kind::LBrace,
        format_args!("'{{' opening the {keyword} record"),
    )?;
    let comment = p.line_comment()?;
    let tokens = p.rest()?;
    p.close_brace(format_args!("the {keyword} record"))?;
    Ok(Other {
        keyword,
        number,
        comment,
        tokens,
        layout: Layout::default(),
    })
}

/// A `$$M` record: `{`, the type number, the fields of that type, `}`.
fn read_m_record(p: &mut Parser<'_>) -> Result<Record> {
    p.expect(Kind::LBrace, "'{' opening a $$M record")?;
    let type_id =
        p.uint("the record type (0 level, 1 start, 2 light, 3/7 model, 5 sun, 6 path)")?;
    Ok(match type_id {
        0 => Record::MLevel(read_m_level(p)?),
        5 => Record::MSun(read_m_sun(p)?),
        3 | 7 => Record::MModel(read_m_model(p, type_id)?),
        2 => Record::MLight(read_m_light(p)?),
        6 => Record::MPath(read_m_path(p)?),
        1 => Record::MStart(read_m_start(p)?),
        _ => {
            let tokens = p.rest()?;
            p.close_brace("the record")?;
            Record::MOther(MOther {
                type_id,
                tokens,
                layout: Layout::default(),
            })
        }
    })
}

fn read_m_level(p: &mut Parser<'_>) -> Result<MLevel> {
    let mut l = MLevel {
        wad: p.word("the WAD file name")?,
        palette: p.word("the palette file name")?,
        ..MLevel::default()
    };
    while p.peek()?.kind == Kind::LBrace {
        let position = l.blocks.len();
        p.open();
        let mut block =
            read_block(p, true).map_err(|e| e.in_path(format!("blocks[{position}]")))?;
        let trivia = p.close();
        let unit = write::m_block_unit(&block, p.ctx, position, true).map_err(|m| p.internal(m))?;
        block.layout = layout_of(&unit, &trivia, p.ctx.eol);
        p.recycle(trivia);
        l.blocks.push(block);
    }
    p.close_brace("the level record (or '{' opening a block)")?;
    Ok(l)
}

fn read_m_sun(p: &mut Parser<'_>) -> Result<MSun> {
    let mut values = Vec::new();
    while p.peek_is_num()? {
        values.push(p.num("a sun angle")?);
    }
    p.close_brace("the sun record")?;
    Ok(MSun {
        values,
        layout: Layout::default(),
    })
}

fn read_m_model(p: &mut Parser<'_>, type_id: u32) -> Result<MModel> {
    let mut m = MModel {
        type_id,
        ..MModel::default()
    };
    m.position = p.vec3("a model position component")?;
    m.angles = p.vec3("a model angle")?;
    m.scale = p.vec3("a model scale component")?;
    m.file = p.word("the model file name")?;
    m.name = p.word("the model name")?;
    m.action = p.word("the model action (ndef for none)")?;
    m.skills = p.line_nums("a skill")?;
    m.flags = p.word("the model flags")?;
    m.ambient = p.num("the model ambient")?;
    for slot in [&mut m.albedo, &mut m.path, &mut m.attach] {
        if !p.peek_is_num()? {
            break;
        }
        *slot = Some(p.num("a number")?);
    }
    for slot in [&mut m.material, &mut m.string1, &mut m.string2] {
        if !p.peek_is_value()? {
            break;
        }
        *slot = Some(p.word("a name")?);
    }
    m.extra = p.rest()?;
    p.close_brace("the model record")?;
    Ok(m)
}

fn read_m_light(p: &mut Parser<'_>) -> Result<MLight> {
    let position = p.vec3("a light position component")?;
    let angles = p.vec3("a light angle")?;
    let color = p.vec3("a light colour component")?;
    let range = p.num("the light range")?;
    let flags = if p.same_line()? && p.peek_is_value()? {
        Some(p.word("the light flags")?)
    } else {
        None
    };
    let extra = p.rest()?;
    p.close_brace("the light record")?;
    Ok(MLight {
        position,
        angles,
        color,
        range,
        flags,
        extra,
        layout: Layout::default(),
    })
}

fn read_m_path(p: &mut Parser<'_>) -> Result<MPath> {
    let name = p.word("the path name")?;
    let nodes = p.count("the path's node count")?;
    let triplets = p.num("the path's triplet count")?;
    let mut path = MPath {
        name,
        triplets,
        ..MPath::default()
    };
    for _ in 0..nodes {
        path.positions.push(p.vec3("a path node coordinate")?);
    }
    for _ in 0..nodes {
        path.skills.push(p.line_nums("a path node skill")?);
    }
    while p.peek()?.kind != Kind::RBrace {
        path.edges.push(p.line_nums("a path edge value")?);
    }
    p.close_brace("the path record")?;
    Ok(path)
}

fn read_m_start(p: &mut Parser<'_>) -> Result<MStart> {
    let position = p.vec3("a start position component")?;
    let angles = p.vec3("a start angle")?;
    let name = p.word("the start position's name")?;
    let extra = p.rest()?;
    p.close_brace("the start record")?;
    Ok(MStart {
        position,
        angles,
        name,
        extra,
        layout: Layout::default(),
    })
}
