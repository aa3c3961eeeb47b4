//! The lexer shared by every text dialect: tokens with the whitespace and comments (the
//! *trivia*) before each, and a line and column for errors.
//!
//! Tokens: `{ } ( ) ,` on their own; `<…>` (a file name, up to `>` on the same line) and `'…'`
//! (quoted flags) when they start a token; anything else up to whitespace, one of `{ } ( ) ,`
//! or `//` is a word (numbers, names, `:`, flags). `//` starts a comment that runs to the end of
//! the line. Whitespace is space, tab, CR, LF, vertical tab and form feed. The lexer never
//! allocates.

#![deny(clippy::arithmetic_side_effects)]

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A word: number, name, flags, `:`.
    Word,
    /// `<…>`.
    Angle,
    /// `'…'`.
    Quoted,
    /// `{`.
    LBrace,
    /// `}`.
    RBrace,
    /// `(`.
    LParen,
    /// `)`.
    RParen,
    /// `,`.
    Comma,
    /// A `{ … }` section taken verbatim (the `wed` block), from [`Lexer::raw_braced`].
    Raw,
    /// The end of the input.
    Eof,
}

/// A token: where it is, where its trivia starts, and its line and column (1-based; the column
/// counts bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub trivia_start: usize,
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub col: u32,
    /// Whether the trivia before the token holds a line break.
    pub newline_before: bool,
}

/// A lexing failure: a `<` or `'` without its closing character on the line, or a raw section
/// without its closing brace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexError {
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub truncated: bool,
}

/// Bytes that separate tokens.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C)
}

fn is_punct(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'(' | b')' | b',')
}

/// A lexer over one input.
#[derive(Debug, Clone)]
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Lexer {
            src,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.src.get(i).copied()
    }

    fn col_of(&self, pos: usize) -> u32 {
        u32::try_from(pos.saturating_sub(self.line_start).saturating_add(1)).unwrap_or(u32::MAX)
    }

    /// Skip whitespace and comments; whether a line break was among them.
    fn skip_trivia(&mut self) -> bool {
        let mut newline = false;
        while let Some(b) = self.at(self.pos) {
            if b == b'\n' {
                self.pos = self.pos.saturating_add(1);
                self.line = self.line.saturating_add(1);
                self.line_start = self.pos;
                newline = true;
            } else if is_space(b) {
                self.pos = self.pos.saturating_add(1);
            } else if b == b'/' && self.at(self.pos.saturating_add(1)) == Some(b'/') {
                while self.at(self.pos).is_some_and(|c| c != b'\n') {
                    self.pos = self.pos.saturating_add(1);
                }
            } else {
                break;
            }
        }
        newline
    }

    /// The next token.
    pub fn next_tok(&mut self) -> Result<Tok, LexError> {
        let trivia_start = self.pos;
        let newline_before = self.skip_trivia();
        let start = self.pos;
        let (line, col) = (self.line, self.col_of(start));
        let tok = |kind, end| Tok {
            kind,
            trivia_start,
            start,
            end,
            line,
            col,
            newline_before,
        };
        let Some(b) = self.at(start) else {
            return Ok(tok(Kind::Eof, start));
        };
        let single = match b {
            b'{' => Some(Kind::LBrace),
            b'}' => Some(Kind::RBrace),
            b'(' => Some(Kind::LParen),
            b')' => Some(Kind::RParen),
            b',' => Some(Kind::Comma),
            _ => None,
        };
        if let Some(kind) = single {
            self.pos = start.saturating_add(1);
            return Ok(tok(kind, self.pos));
        }
        if b == b'<' || b == b'\'' {
            let close = if b == b'<' { b'>' } else { b'\'' };
            let mut i = start.saturating_add(1);
            loop {
                match self.at(i) {
                    Some(c) if c == close => {
                        self.pos = i.saturating_add(1);
                        let kind = if b == b'<' { Kind::Angle } else { Kind::Quoted };
                        return Ok(tok(kind, self.pos));
                    }
                    Some(b'\n') | None => {
                        return Err(LexError {
                            line,
                            col,
                            message: format!(
                                "expected '{}' closing the '{}' before the end of the line",
                                char::from(close),
                                char::from(b)
                            ),
                            truncated: self.at(i).is_none(),
                        });
                    }
                    Some(_) => i = i.saturating_add(1),
                }
            }
        }
        let mut i = start;
        while let Some(c) = self.at(i) {
            if is_space(c)
                || is_punct(c)
                || (c == b'/' && self.at(i.saturating_add(1)) == Some(b'/'))
            {
                break;
            }
            i = i.saturating_add(1);
        }
        self.pos = i;
        Ok(tok(Kind::Word, i))
    }

    /// A `{ … }` section taken verbatim: trivia, then `{`, then everything up to the matching
    /// `}` (braces inside comments and `"…"` strings do not count).
    pub fn raw_braced(&mut self) -> Result<Tok, LexError> {
        let trivia_start = self.pos;
        let newline_before = self.skip_trivia();
        let start = self.pos;
        let (line, col) = (self.line, self.col_of(start));
        if self.at(start) != Some(b'{') {
            return Err(LexError {
                line,
                col,
                message: "expected '{' opening the section".into(),
                truncated: self.at(start).is_none(),
            });
        }
        let mut depth = 0usize;
        let mut i = start;
        while let Some(c) = self.at(i) {
            match c {
                b'{' => depth = depth.saturating_add(1),
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.pos = i.saturating_add(1);
                        return Ok(Tok {
                            kind: Kind::Raw,
                            trivia_start,
                            start,
                            end: self.pos,
                            line,
                            col,
                            newline_before,
                        });
                    }
                }
                b'\n' => {
                    self.line = self.line.saturating_add(1);
                    self.line_start = i.saturating_add(1);
                }
                b'/' if self.at(i.saturating_add(1)) == Some(b'/') => {
                    while self.at(i.saturating_add(1)).is_some_and(|c| c != b'\n') {
                        i = i.saturating_add(1);
                    }
                }
                b'"' => {
                    let mut j = i.saturating_add(1);
                    while self.at(j).is_some_and(|c| c != b'"' && c != b'\n') {
                        j = j.saturating_add(1);
                    }
                    if self.at(j) == Some(b'"') {
                        i = j;
                    }
                }
                _ => {}
            }
            i = i.saturating_add(1);
        }
        Err(LexError {
            line,
            col,
            message: "expected '}' closing the section opened here before the end of the file"
                .into(),
            truncated: true,
        })
    }
}

/// The comments in a piece of trivia, each from `//` to the end of its line (without the line
/// break and a CR before it).
pub(crate) fn comments(trivia: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = trivia;
    while let Some(at) = rest.find("//") {
        let (_, tail) = rest.split_at(at);
        let end = tail.find('\n').unwrap_or(tail.len());
        let (comment, next) = tail.split_at(end);
        // Every carriage return before the line feed goes, not just one: a comment ending in
        // `\r` could not be written back under either line ending, so the header check would
        // throw away the kept trivia (found by fuzzing: `// a\r\r\n`).
        out.push(comment.trim_end_matches('\r'));
        rest = next;
    }
    out
}

/// The comment on the first line of a piece of trivia (before its first line break), without
/// the `//` and trimmed: a header line's comment (`object 1 {  // BRIDGE06`).
pub(crate) fn line_comment(trivia: &str) -> Option<String> {
    let first = trivia.split('\n').next().unwrap_or_default();
    let at = first.find("//")?;
    let (_, tail) = first.split_at(at);
    Some(tail.get(2..).unwrap_or_default().trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(src: &str) -> Vec<(Kind, String, bool)> {
        let mut lx = Lexer::new(src.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = lx.next_tok().unwrap_or_else(|e| panic!("{e:?}"));
            if t.kind == Kind::Eof {
                break;
            }
            let text = src.get(t.start..t.end).unwrap_or_default().to_owned();
            out.push((t.kind, text, t.newline_before));
        }
        out
    }

    #[test]
    fn punctuation_words_and_comments() {
        let got = lex("object 1 {  // BRIDGE06\r\n\t(0 -16 -12) (0 0 0)\r\n\tobject 2, 6\r\n}");
        let kinds: Vec<_> = got.iter().map(|t| (t.0, t.1.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (Kind::Word, "object"),
                (Kind::Word, "1"),
                (Kind::LBrace, "{"),
                (Kind::LParen, "("),
                (Kind::Word, "0"),
                (Kind::Word, "-16"),
                (Kind::Word, "-12"),
                (Kind::RParen, ")"),
                (Kind::LParen, "("),
                (Kind::Word, "0"),
                (Kind::Word, "0"),
                (Kind::Word, "0"),
                (Kind::RParen, ")"),
                (Kind::Word, "object"),
                (Kind::Word, "2"),
                (Kind::Comma, ","),
                (Kind::Word, "6"),
                (Kind::RBrace, "}"),
            ]
        );
        assert!(got.get(3).is_some_and(|t| t.2), "( starts a new line");
        assert!(got.get(4).is_some_and(|t| !t.2));
    }

    #[test]
    fn angles_quotes_and_glued_comments() {
        let got = lex("<a b.wav> 'x y'z ndef//c\n: x<y> ' '");
        let kinds: Vec<_> = got.iter().map(|t| (t.0, t.1.as_str())).collect();
        assert_eq!(
            kinds,
            [
                (Kind::Angle, "<a b.wav>"),
                (Kind::Quoted, "'x y'"),
                (Kind::Word, "z"),
                (Kind::Word, "ndef"),
                (Kind::Word, ":"),
                (Kind::Word, "x<y>"),
                (Kind::Quoted, "' '"),
            ]
        );
    }

    #[test]
    fn errors_carry_line_and_column() {
        let mut lx = Lexer::new(b"a\n  <open\nb");
        assert!(lx.next_tok().is_ok());
        let e = lx.next_tok().err();
        assert_eq!(
            e.as_ref().map(|e| (e.line, e.col, e.truncated)),
            Some((2, 3, false))
        );
        let mut lx = Lexer::new(b"x 'abc");
        assert!(lx.next_tok().is_ok());
        assert!(lx.next_tok().err().is_some_and(|e| e.truncated));
    }

    #[test]
    fn raw_sections_match_braces() {
        let src =
            "wed {\n\tview {\n\t\t\"Top (XY)\":1 [3]\n\t}\n\t// } not this\n\t\"}\"\n}\nblock";
        let mut lx = Lexer::new(src.as_bytes());
        assert!(lx.next_tok().is_ok());
        let raw = lx.raw_braced().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(raw.kind, Kind::Raw);
        assert!(
            src.get(raw.start..raw.end)
                .is_some_and(|s| s.ends_with("\"}\"\n}"))
        );
        let next = lx.next_tok().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((next.line, next.col), (8, 1));
        let mut lx = Lexer::new(b" {\n{ }");
        assert!(
            lx.raw_braced()
                .err()
                .is_some_and(|e| e.truncated && e.line == 1)
        );
    }

    #[test]
    fn comment_helpers() {
        assert_eq!(comments("// WMP2\r\n// A B\r\n\r\n"), ["// WMP2", "// A B"]);
        assert_eq!(comments("// a\r\r\n// b\r"), ["// a", "// b"]);
        assert_eq!(
            line_comment("  // BRIDGE06 \r\n\t"),
            Some("BRIDGE06".into())
        );
        assert_eq!(line_comment("\r\n\t// later"), None);
        assert_eq!(line_comment(" //"), Some(String::new()));
    }
}
