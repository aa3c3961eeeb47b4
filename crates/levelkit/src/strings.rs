//! Strings as the old tools stored them: raw bytes in the author's ANSI code page.
//!
//! Models keep the bytes ([`RawString`]) and decode only for display ([`RawString::display`],
//! which reads them as Windows-1252, the code page of most of these games' authors; a Polish
//! cp1250 plane name shows with the wrong accents but round-trips exactly).
//!
//! In JSON a [`RawString`] is a string in which each character stands for one byte (U+0000 to
//! U+00FF, i.e. Latin-1). ASCII reads as itself, any byte string round-trips, and a character
//! above U+00FF is refused with an error rather than silently re-encoded. We rejected base64
//! (unreadable and unpleasant to edit with jq) and UTF-8 (the bytes are not UTF-8).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes of a string in an unknown 8-bit code page.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawString(pub Vec<u8>);

/// Windows-1252 code points for bytes 0x80..=0x9F (WHATWG mapping: the five unassigned bytes map
/// to the C1 control of the same number, so decoding is one-to-one).
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

impl RawString {
    /// Wrap bytes.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        RawString(bytes.into())
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The text decoded as Windows-1252, for display only.
    pub fn display(&self) -> String {
        decode_cp1252(&self.0)
    }

    /// The text as editors and XML files can hold it: [`RawString::display`], except that the C0
    /// control bytes other than tab, line feed and carriage return (which XML 1.0, and so Tiled's
    /// TMX, cannot hold) are shown as their Unicode control pictures, U+2400 + byte (`0x02` is
    /// `␂`). No byte decodes to U+2400..U+241F otherwise, so [`RawString::from_editor_text`]
    /// gives the same bytes back.
    pub fn to_editor_text(&self) -> String {
        self.0
            .iter()
            .map(|&b| match b {
                b'\t' | b'\n' | b'\r' => char::from(b),
                0x00..=0x1F => char::from_u32(0x2400 + u32::from(b)).unwrap_or('?'),
                _ => decode_cp1252(&[b]).chars().next().unwrap_or('?'),
            })
            .collect()
    }

    /// The inverse of [`RawString::to_editor_text`] (control pictures back to control bytes,
    /// the rest as [`RawString::from_display`]).
    pub fn from_editor_text(text: &str) -> std::result::Result<Self, char> {
        let mut out = Vec::with_capacity(text.len());
        let mut buf = [0u8; 4];
        for c in text.chars() {
            match u32::from(c) {
                v @ 0x2400..=0x241F => out.push((v - 0x2400) as u8),
                _ => out.extend(encode_cp1252(c.encode_utf8(&mut buf))?),
            }
        }
        Ok(RawString(out))
    }

    /// The inverse of [`RawString::display`]: `text` encoded as Windows-1252 (WHATWG mapping, so
    /// every string `display` produces comes back as the same bytes). `Err` carries the first
    /// character Windows-1252 cannot hold.
    pub fn from_display(text: &str) -> std::result::Result<Self, char> {
        encode_cp1252(text).map(RawString)
    }

    /// The bytes as a Latin-1 string (one char per byte), the JSON form.
    pub fn to_latin1(&self) -> String {
        self.0.iter().map(|&b| char::from(b)).collect()
    }

    /// Parse the Latin-1 JSON form; `None` if a character is above U+00FF.
    pub fn from_latin1(s: &str) -> Option<Self> {
        s.chars()
            .map(|c| u8::try_from(u32::from(c)).ok())
            .collect::<Option<Vec<u8>>>()
            .map(RawString)
    }
}

/// Decode bytes as Windows-1252 (display only).
pub fn decode_cp1252(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9F => CP1252_HIGH
                .get(usize::from(b - 0x80))
                .copied()
                .unwrap_or('?'),
            _ => char::from(b),
        })
        .collect()
}

/// Encode text as Windows-1252 (WHATWG mapping); `Err` carries the first character it cannot
/// hold.
pub fn encode_cp1252(text: &str) -> std::result::Result<Vec<u8>, char> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let b = match u32::from(c) {
            v @ (0..=0x7F | 0xA0..=0xFF) => v as u8,
            _ => match CP1252_HIGH.iter().position(|&h| h == c) {
                Some(i) => 0x80 + i as u8,
                None => return Err(c),
            },
        };
        out.push(b);
    }
    Ok(out)
}

/// A raw string for display: quoted, code page 1252 decoded. Only quotes and control characters
/// are escaped: Windows paths stay readable.
pub fn quoted(raw: &RawString) -> String {
    let mut out = String::from("\"");
    for c in raw.display().chars() {
        match c {
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Debug for RawString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.display())
    }
}

impl fmt::Display for RawString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

impl From<&str> for RawString {
    fn from(s: &str) -> Self {
        RawString(s.as_bytes().to_vec())
    }
}

impl From<&[u8]> for RawString {
    fn from(s: &[u8]) -> Self {
        RawString(s.to_vec())
    }
}

impl Serialize for RawString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_latin1())
    }
}

impl<'de> Deserialize<'de> for RawString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        RawString::from_latin1(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "string {s:?} has a character above U+00FF; raw strings hold one byte per \
                 character (Latin-1)"
            ))
        })
    }
}

/// A text file's line break, shared by the text formats (`.nw`, `.gani`, `.wmp`, …).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnding {
    /// `\n` (`"lf"` in JSON), as the original Graal editors and GServer write.
    #[default]
    Lf,
    /// `\r\n` (`"crlf"` in JSON), as files that passed through Windows tools have.
    CrLf,
}

impl LineEnding {
    /// The bytes of this line ending.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnding::Lf => b"\n",
            LineEnding::CrLf => b"\r\n",
        }
    }

    /// The other line ending.
    pub fn other(self) -> LineEnding {
        match self {
            LineEnding::Lf => LineEnding::CrLf,
            LineEnding::CrLf => LineEnding::Lf,
        }
    }
}

/// How a text file's lines end, for the formats that keep it line by line (`.gani`, `.gmap`):
/// the ending most lines use, the exceptions, and the last line's break.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineLayout {
    /// The line ending of most lines (LF on a tie, and for a file without line breaks), and of
    /// every line written canonically.
    #[serde(default)]
    pub line_ending: LineEnding,
    /// Whether the last line ends with a line break. (An empty file has no lines; it reads as
    /// `true`.)
    #[serde(default = "yes")]
    pub final_newline: bool,
    /// Zero-based numbers (in the written file, header included) of the lines that end with the
    /// other line ending, in ascending order. Only mixed files have any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_endings: Vec<u32>,
}

fn yes() -> bool {
    true
}

impl Default for LineLayout {
    fn default() -> Self {
        LineLayout {
            line_ending: LineEnding::Lf,
            final_newline: true,
            other_endings: Vec::new(),
        }
    }
}

impl LineLayout {
    /// True for LF line endings, a final newline and no exceptions.
    pub fn is_default(&self) -> bool {
        *self == LineLayout::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_round_trip_all_bytes() {
        let all: Vec<u8> = (0..=255).collect();
        let s = RawString(all.clone());
        let json = serde_json::to_string(&s).unwrap_or_default();
        let back: RawString = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back.0, all);
        assert!(serde_json::from_str::<RawString>("\"\u{0142}\"").is_err());
    }

    #[test]
    fn cp1252_encode_inverts_display() {
        let all: Vec<u8> = (0..=255).collect();
        let text = RawString(all.clone()).display();
        assert_eq!(RawString::from_display(&text), Ok(RawString(all)));
        assert_eq!(RawString::from_display("a\u{0142}"), Err('\u{0142}'));
    }

    #[test]
    fn editor_text_has_no_xml_forbidden_controls_and_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        let text = RawString(all.clone()).to_editor_text();
        assert!(
            text.chars()
                .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r') || c >= '\u{7F}')
        );
        assert_eq!(RawString::from_editor_text(&text), Ok(RawString(all)));
        assert_eq!(RawString(vec![2, b'a']).to_editor_text(), "\u{2402}a");
    }

    #[test]
    fn cp1252_display() {
        assert_eq!(RawString(vec![b'T', 0xB3, b'o']).display(), "T\u{b3}o");
        assert_eq!(RawString(vec![0x80, 0x81]).display(), "\u{20AC}\u{0081}");
    }
}
