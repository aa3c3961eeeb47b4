//! The side files of a V-Chat world folder: the manifest `world.adf`, `data/hotlinks.txt`,
//! `data/world.pal` and `data/about.txt`, and where a world looks for its textures.
//!
//! A world as Microsoft's V-Chat server handed it out is a folder:
//!
//! ```text
//! world.adf          INI manifest ([General], [data], [images], [avatars], [sounds])
//! data/world.wdb     the world (see the parent module)
//! data/world.pal     the palette the software renderer reduces textures to
//! data/hotlinks.txt  what clicking a node does (a web page, or another world's channel)
//! data/about.txt     free text shown to visitors (Windows-1252)
//! images/*.gif       textures; the .wdb names them in any case (`FOUNT3.GIF` for `fount3.gif`)
//! ```
//!
//! Nothing here is documented by Microsoft; every rule below was read off the 73 world folders
//! published in `msvchat/msvchat.github.io` (`vchat/worlds/*`, `vchat/cworlds/*`), and the
//! parsers accept everything those files do. Every reader keeps each line's text and line break
//! (or, for the palette, every byte), so `write(read(x)) == x`.
//!
//! # `world.adf` ([`Adf`])
//!
//! Sections `[name]` (any case: `[General]`, `[general]`, `[Data]`) with `key=value` lines. In
//! the path sections (`[data]`, `[images]`, `[avatars]`, `[sounds]`) the value's first
//! comma-separated field is a file: the section's first entry gives a relative folder
//! (`../images/tier1.gif`), later entries are bare names in that same folder (`tierha.gif`).
//! The key is the name the world asks for and the value the file that answers: they usually
//! agree, but `window.gif=g255.gif` and `cobalt2.gif=cobalt1.gif` alias one image under several
//! names.
//!
//! The folders are written every which way: `./data/world.wdb` (71 manifests), `data/world.wdb`
//! (Hanami), `../data/world.wdb` (Trippy Table); `../images/`, `../sounds/`, `../avatars/`, and
//! `./avatars/` (Trippy Table again), while the published worlds keep these folders directly in
//! the world folder (`data/`, `images/`, and in the GitHub repository `sounds/`, `avatars/`). One rule fits every manifest: paths are
//! relative to the world folder, resolved as URL paths are against a site's root, where a `..`
//! that would climb above it stays at it. (Relative to the folder of `world.wdb` instead, as
//! `../images/` suggests, would put Trippy Table's avatars in `data/avatars/`.) Resolved paths
//! never leave the world folder.
//!
//! An `[images]` value goes on with the image's width and height and, on most lines, a flag
//! (always 0) and two RGB colours whose use is not documented (perhaps the colours a distant,
//! untextured surface is drawn in): `name.gif=../images/name.gif,128,128, 0, 41,132,66,
//! 160,160,160`. Spaces after commas vary, and real lines break the pattern in every way
//! (`256,256,` with a trailing comma; `16.16`; `512,128. 0,`; `o` for `0`; six or eight
//! numbers; `= leaves.gif` with spaces around `=`): [`ImageInfo`] keeps every field as text and
//! reads the size and colours only where they have the regular shape.
//!
//! # `hotlinks.txt` ([`Hotlinks`])
//!
//! One link per line, comma-separated, each field quoted or not, with or without spaces after
//! the commas:
//!
//! ```text
//! "url02",URL,http://www.microsoft.com/ie,"Shortcut to the Microsoft Internet Explorer Web Page"
//! "portal01",VCHAT,msvchatsvr.webredirect.org,#V-ChatLobby,"Portal to the V-Chat Lobby",0,1,1,10000
//! Url_Pic_01, URL, "http://www.nativeweb.org/", "Shortcut to the Native Web Community Web Page"
//! ```
//!
//! node name, link type, then for `URL` the target and a label, for `VCHAT` the chat server
//! (empty in Car Show's: presumably the current server), the `#channel` and a label; then more fields
//! (`VCHAT` lines end with four numbers such as `1,0,1,10000`, whose meaning is unknown; some
//! `URL` lines have them too). Targets may be empty (`""`, or nothing between the commas).
//! A quoted field runs to the next quote; what follows it up to the comma is kept in the line
//! but not in the value (one real label ends `Web Page""`). A quote inside an unquoted field is
//! part of it (`mailto:"vchadmin@microsoft.com"`). Lines end with LF, CR LF or a lone CR (one
//! real file), the last often without one; blank lines are kept.
//!
//! # `world.pal` ([`Palette`])
//!
//! Most are Microsoft RIFF palettes (`RIFF` size `PAL ` `data` size, version `0x0300`, a count
//! and count × (red, green, blue, flags)), 256 colours, some with four extra zero bytes in the
//! `data` chunk or after the RIFF, some followed by `offl`, `tran` and `unde` chunks of 32 zero
//! bytes (256-bit masks, by their size: presumably off-limits, transparent and undefined
//! entries). Two (Hanami, Help) are 183 bytes without a header: 61 RGB triples of 6-bit VGA
//! values (0–63). Three published palettes are empty files, which [`Palette::read`] refuses.
//!
//! # Textures ([`texture_candidates`])
//!
//! A texture name from the `.wdb` is looked for, relative to the folder of `world.wdb`, in
//! `../images/` (where every published world keeps its textures), then beside the world, then
//! in the world folder; in any case. [`Adf::texture_path`] gives the file the manifest names,
//! where it names one (most manifests list only some of the textures).
//!
//! ```
//! use levelkit::formats::wdb::folder::{Adf, Hotlinks, LinkTarget, Palette, texture_candidates};
//!
//! let adf = Adf::read(b"[General]\r\nName=Demo\r\n[data]\r\nworld.wdb=./data/world.wdb\r\n\
//!     [images]\r\nsky.gif=../images/sky.gif, 256,128, 0, 1,2,3, 4,5,6\r\nsea.gif=sea.gif,64,64")?;
//! assert_eq!(adf.name(), Some("Demo"));
//! assert_eq!(adf.texture_path("SEA.GIF").as_deref(), Some("images/sea.gif"));
//! let sky = adf.images().next().and_then(|e| e.image.as_ref()).map(|i| (i.size, i.colors));
//! assert_eq!(sky, Some((Some((256, 128)), Some([[1, 2, 3], [4, 5, 6]]))));
//!
//! let links = Hotlinks::read(b"\"door\",VCHAT,,#V-ChatLobby,\"To the Lobby\",0,0,1,10000\n")?;
//! let door = links.find("DOOR").map(|l| &l.target);
//! assert_eq!(door, Some(&LinkTarget::Chat { server: String::new(), channel: "#V-ChatLobby".into() }));
//!
//! let palette = Palette::read(&[63, 63, 63, 0, 0, 0])?;
//! assert_eq!(palette.rgb8(), vec![[255, 255, 255], [0, 0, 0]]);
//!
//! assert_eq!(texture_candidates("Sky.gif"), ["../images/Sky.gif", "Sky.gif", "../Sky.gif"]);
//! # Ok::<(), levelkit::Error>(())
//! ```

#![deny(clippy::arithmetic_side_effects)]

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::{ByteReader, ByteWriter};
use crate::registry::Format;
use crate::strings::{decode_cp1252, encode_cp1252};

const F: Format = Format::Wdb;

// ---------------------------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------------------------

/// How one line of a text side file ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnd {
    /// `\n`, as the published copies of the worlds have (and new lines get).
    #[default]
    Lf,
    /// `\r\n`, as files written on Windows have.
    CrLf,
    /// A lone `\r` (old Macintosh text; one published `hotlinks.txt`).
    Cr,
    /// No line break: the last line of a file that does not end with one.
    None,
}

impl LineEnd {
    /// The bytes of this line break.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            LineEnd::CrLf => b"\r\n",
            LineEnd::Lf => b"\n",
            LineEnd::Cr => b"\r",
            LineEnd::None => b"",
        }
    }
}

/// One line of a text side file as it was stored: its text (Windows-1252, decoded one byte to
/// one character, so it encodes back to the same bytes) and its line break.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawLine {
    /// One-based line number in the file read (0 for a line made otherwise). [`Adf::write`]
    /// writes lines in the model's order; [`Hotlinks::write`] places blank lines by it.
    pub number: u32,
    /// The line's text without its line break.
    pub text: String,
    /// How the line ends.
    pub end: LineEnd,
}

impl RawLine {
    /// A line with `text`, an LF break and number 0 (for building files).
    pub fn new(text: impl Into<String>) -> Self {
        RawLine {
            number: 0,
            text: text.into(),
            end: LineEnd::Lf,
        }
    }
}

/// A location at `line`, `column` (both one-based).
fn at(line: u32, column: usize) -> Location {
    Location {
        line_col: Some((line, u32::try_from(column).unwrap_or(u32::MAX))),
        ..Location::default()
    }
}

/// The one-based column of byte `offset` of `text` (counted in characters, which are the file's
/// bytes).
fn column_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(offset, |s| s.chars().count())
        .saturating_add(1)
}

/// Split `bytes` into lines at LF, CR LF and lone CR. Refuses control bytes other than tab:
/// the side files are text, and a NUL or an escape means the bytes are something else.
fn split_lines(bytes: &[u8], what: &str) -> Result<Vec<RawLine>> {
    let mut lines = Vec::new();
    let mut rest = bytes;
    let mut number = 1u32;
    while !rest.is_empty() {
        let stop = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        let (text, after) = rest.split_at(stop);
        let (end, after) = match after {
            [b'\r', b'\n', tail @ ..] => (LineEnd::CrLf, tail),
            [b'\n', tail @ ..] => (LineEnd::Lf, tail),
            [b'\r', tail @ ..] => (LineEnd::Cr, tail),
            _ => (LineEnd::None, after),
        };
        if let Some(column) = text
            .iter()
            .position(|&b| (b < 0x20 && b != b'\t') || b == 0x7F)
        {
            let byte = text.get(column).copied().unwrap_or(0);
            return Err(Error::malformed(
                F,
                at(number, column.saturating_add(1)),
                format!("{what}: control byte 0x{byte:02x} in line {number}; the file is not text"),
            ));
        }
        lines.push(RawLine {
            number,
            text: decode_cp1252(text),
            end,
        });
        number = number.saturating_add(1);
        rest = after;
    }
    Ok(lines)
}

/// Append `line` to `out`, encoded as Windows-1252.
fn put_line(out: &mut Vec<u8>, line: &RawLine, what: &str) -> Result<()> {
    let bytes = encode_cp1252(&line.text).map_err(|c| {
        Error::new(
            F,
            ErrorKind::Unsupported,
            at(line.number, 1),
            format!("{what}: {c:?} has no Windows-1252 byte"),
        )
    })?;
    out.extend_from_slice(&bytes);
    out.extend_from_slice(line.end.as_bytes());
    Ok(())
}

/// Case-insensitive comparison of names (V-Chat ran on Windows).
fn same_name(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b) || a.to_lowercase() == b.to_lowercase()
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/// `path` inside the world folder, resolved as a URL path is against a site's root: `\` read as
/// `/`, `.` segments dropped, `dir/..` pairs removed, and a `..` that would leave the world
/// folder dropped too (`../images/a.gif` is `images/a.gif`). An empty result is the world folder.
fn resolve(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The folder part of `path` (up to and including the last `/` or `\`; empty for a bare name).
fn folder_of(path: &str) -> &str {
    match path.rfind(['/', '\\']) {
        Some(i) => path.get(..=i).unwrap_or(""),
        None => "",
    }
}

/// Where a world looks for the texture `name`, as paths relative to the folder of `world.wdb`
/// (`data/`), first choice first: `../images/<name>` (where every published world keeps its
/// textures: of the 2,085 names ending `.gif` or `.bmp` in the 72 published `.wdb` files,
/// counted once per world, 1,988 are files in the world's `images/`, 1,463 of them in another
/// case, and none of the other 97 is anywhere else in the folder), `<name>` beside the world,
/// and `../<name>` in the world folder. Backslashes become `/`. Match the names
/// case-insensitively: the `.wdb` files name textures in any case. Empty for an empty name.
pub fn texture_candidates(name: &str) -> Vec<String> {
    let name = name.trim().replace('\\', "/");
    if name.is_empty() {
        return Vec::new();
    }
    vec![
        format!("../images/{name}"),
        name.clone(),
        format!("../{name}"),
    ]
}

/// The text of `about.txt`: Windows-1252, decoded one byte to one character (so
/// [`crate::strings::encode_cp1252`] gives the bytes back).
pub fn about_text(bytes: &[u8]) -> String {
    decode_cp1252(bytes)
}

// ---------------------------------------------------------------------------------------------
// world.adf
// ---------------------------------------------------------------------------------------------

/// A world's manifest, `world.adf`: INI sections in file order, each line kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adf {
    /// Blank and comment lines before the first section.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preamble: Vec<RawLine>,
    /// The sections in file order (a name may occur twice; lookups take the first entry found).
    pub sections: Vec<AdfSection>,
}

/// One `[name]` section of a `world.adf`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdfSection {
    /// The name between the brackets, trimmed, in the file's case (`General`, `data`).
    pub name: String,
    /// The header line as stored.
    pub header: RawLine,
    /// The lines after the header, up to the next section, in file order.
    pub lines: Vec<AdfLine>,
}

/// A line of a section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdfLine {
    /// A `key=value` line.
    Entry(AdfEntry),
    /// A line without `=`: blank, a `;` or `#` comment, or something unknown; kept as it is.
    Other(RawLine),
}

/// A `key=value` line of a `world.adf`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdfEntry {
    /// The line as stored (what [`Adf::write`] writes).
    pub raw: RawLine,
    /// The text before the first `=`, trimmed.
    pub key: String,
    /// The text after the first `=`, trimmed.
    pub value: String,
    /// In an `[images]` section: the value's fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<ImageInfo>,
}

impl AdfEntry {
    /// The value's first comma-separated field, trimmed: the file of a path section's entry
    /// (`../images/tier1.gif` of `../images/tier1.gif,128,128`). `None` when empty.
    pub fn file(&self) -> Option<&str> {
        let first = self.value.split(',').next().unwrap_or("").trim();
        (!first.is_empty()).then_some(first)
    }
}

/// The fields of an `[images]` value after the file: `width, height[, flag, r, g, b, r, g, b]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageInfo {
    /// Every field after the file, trimmed, as text (a trailing comma gives a last empty field).
    pub fields: Vec<String>,
    /// Width and height, when the first two fields are whole numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<(u32, u32)>,
    /// The field after the size (0 in every regular published line; meaning unknown), when the
    /// line has the regular shape (size, flag and two colours; a trailing comma allowed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<u32>,
    /// The two RGB colours, when the line has the regular shape (see `flag`). Lines with six or
    /// eight numbers after the size are ambiguous (`0, 162,219,232` is a flag and one colour,
    /// `129,143,156, 96,128,156` two colours without a flag) and left unread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colors: Option<[[u8; 3]; 2]>,
}

impl ImageInfo {
    /// Read the fields after the file of an `[images]` value.
    fn parse(value: &str) -> ImageInfo {
        let fields: Vec<String> = value
            .split(',')
            .skip(1)
            .map(|f| f.trim().to_owned())
            .collect();
        let number = |i: usize| -> Option<u32> {
            let f = fields.get(i)?;
            if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            f.parse().ok()
        };
        let size = number(0).zip(number(1));
        let regular = match fields.len() {
            9 => true,
            10 => fields.last().is_some_and(String::is_empty),
            _ => false,
        };
        let mut flag = None;
        let mut colors = None;
        if regular && size.is_some() {
            let byte = |i: usize| number(i).and_then(|n| u8::try_from(n).ok());
            let rgb = |i: usize| -> Option<[u8; 3]> {
                Some([byte(i)?, byte(i.checked_add(1)?)?, byte(i.checked_add(2)?)?])
            };
            if let (Some(f), Some(a), Some(b)) = (number(2), rgb(3), rgb(6)) {
                flag = Some(f);
                colors = Some([a, b]);
            }
        }
        ImageInfo {
            fields,
            size,
            flag,
            colors,
        }
    }
}

impl AdfSection {
    /// The section's `key=value` entries in order.
    pub fn entries(&self) -> impl Iterator<Item = &AdfEntry> {
        self.lines.iter().filter_map(|l| match l {
            AdfLine::Entry(e) => Some(e),
            AdfLine::Other(_) => None,
        })
    }

    /// The first entry whose key is `key` in any case.
    pub fn entry(&self, key: &str) -> Option<&AdfEntry> {
        self.entries().find(|e| same_name(&e.key, key))
    }

    /// The folder the section's first entry names (`../images/` of `../images/tier1.gif`;
    /// empty when that entry is a bare name or the section has none), which its bare names are
    /// in.
    pub fn folder(&self) -> &str {
        self.entries()
            .next()
            .and_then(AdfEntry::file)
            .map(folder_of)
            .unwrap_or("")
    }
}

impl Adf {
    /// Read a `world.adf`. Errors (with the line): an empty file, a control byte, a `[` line
    /// without `]`, a non-blank line before the first section, no section at all.
    pub fn read(bytes: &[u8]) -> Result<Adf> {
        if bytes.is_empty() {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                at(1, 1),
                "world.adf: the file is empty; a manifest starts with [General]",
            ));
        }
        let mut adf = Adf::default();
        for line in split_lines(bytes, "world.adf")? {
            let trimmed = line.text.trim();
            if let Some(inner) = trimmed.strip_prefix('[') {
                let Some(close) = inner.find(']') else {
                    let column = column_of(&line.text, line.text.len());
                    return Err(Error::malformed(
                        F,
                        at(line.number, column),
                        format!(
                            "world.adf: section header {trimmed:?} in line {} has no closing ]",
                            line.number
                        ),
                    ));
                };
                adf.sections.push(AdfSection {
                    name: inner.get(..close).unwrap_or("").trim().to_owned(),
                    header: line,
                    lines: Vec::new(),
                });
                continue;
            }
            let comment = trimmed.is_empty() || trimmed.starts_with([';', '#']);
            let Some(section) = adf.sections.last_mut() else {
                if comment {
                    adf.preamble.push(line);
                    continue;
                }
                return Err(Error::malformed(
                    F,
                    at(line.number, 1),
                    format!(
                        "world.adf: line {} comes before any [section] header; a manifest \
                         starts with [General]",
                        line.number
                    ),
                ));
            };
            let kv = (!comment)
                .then(|| line.text.split_once('='))
                .flatten()
                .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()));
            section.lines.push(match kv {
                Some((key, value)) => {
                    let image =
                        same_name(&section.name, "images").then(|| ImageInfo::parse(&value));
                    AdfLine::Entry(AdfEntry {
                        raw: line,
                        key,
                        value,
                        image,
                    })
                }
                None => AdfLine::Other(line),
            });
        }
        if adf.sections.is_empty() {
            return Err(Error::malformed(
                F,
                at(1, 1),
                "world.adf: no [section] header; a manifest starts with [General]",
            ));
        }
        Ok(adf)
    }

    /// The bytes of the manifest: every line as stored, in order (so `write(read(x)) == x`).
    /// Fails only for text with a character Windows-1252 cannot hold.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for line in &self.preamble {
            put_line(&mut out, line, "world.adf")?;
        }
        for section in &self.sections {
            put_line(&mut out, &section.header, "world.adf")?;
            for line in &section.lines {
                let raw = match line {
                    AdfLine::Entry(e) => &e.raw,
                    AdfLine::Other(l) => l,
                };
                put_line(&mut out, raw, "world.adf")?;
            }
        }
        Ok(out)
    }

    /// The sections named `name` in any case, in file order.
    pub fn sections_named<'a>(
        &'a self,
        name: &str,
    ) -> impl Iterator<Item = &'a AdfSection> + use<'a> {
        let name = name.to_owned();
        self.sections
            .iter()
            .filter(move |s| same_name(&s.name, &name))
    }

    /// The first section named `name` in any case.
    pub fn section(&self, name: &str) -> Option<&AdfSection> {
        self.sections_named(name).next()
    }

    /// The value of `key` in section `section` (both in any case; the first match).
    pub fn value(&self, section: &str, key: &str) -> Option<&str> {
        self.sections_named(section)
            .find_map(|s| s.entry(key))
            .map(|e| e.value.as_str())
    }

    /// The world's name (`Name=` in `[General]`).
    pub fn name(&self) -> Option<&str> {
        self.value("general", "name")
    }

    /// The `[images]` entries of every `[images]` section, in order (duplicates included).
    pub fn images(&self) -> impl Iterator<Item = &AdfEntry> {
        self.sections_named("images").flat_map(AdfSection::entries)
    }

    /// The path of `world.wdb` relative to the world folder, as `[data]` names it
    /// (`data/world.wdb` for `./data/world.wdb` and for `../data/world.wdb`); `None` without such
    /// an entry.
    pub fn wdb_path(&self) -> Option<String> {
        self.path_of("data", "world.wdb")
    }

    /// The folder of `world.wdb` relative to the world folder (`data` as published, and when the
    /// manifest does not say), which [`texture_candidates`] are relative to. Empty for the world
    /// folder itself.
    pub fn data_folder(&self) -> String {
        match self.wdb_path() {
            Some(path) => resolve(folder_of(&path)),
            None => "data".to_owned(),
        }
    }

    /// The file that entry `key` of section `section` (both in any case) names, as a path
    /// relative to the world folder with `/` separators: a bare name is taken to be in the
    /// section's first folder ([`AdfSection::folder`]), and the path is resolved inside the
    /// world folder, a `..` that would leave it dropped (see the module documentation), so the
    /// result never leaves the world folder. `None` without such an entry, for an empty file
    /// field, and for `[General]`, whose values are not files.
    pub fn path_of(&self, section: &str, key: &str) -> Option<String> {
        if same_name(section, "general") {
            return None;
        }
        let (sec, entry) = self
            .sections_named(section)
            .find_map(|s| s.entry(key).map(|e| (s, e)))?;
        let file = entry.file()?;
        let rel = if folder_of(file).is_empty() {
            format!("{}{file}", sec.folder())
        } else {
            file.to_owned()
        };
        Some(resolve(&rel))
    }

    /// The image file the manifest gives for the texture `name` (matched in any case), relative
    /// to the world folder: `images/fount3.gif` for `FOUNT3.GIF`. `None` when `[images]` does not
    /// list it; then look through [`texture_candidates`].
    pub fn texture_path(&self, name: &str) -> Option<String> {
        self.path_of("images", name)
    }
}

// ---------------------------------------------------------------------------------------------
// hotlinks.txt
// ---------------------------------------------------------------------------------------------

/// A world's `hotlinks.txt`: what clicking a node does.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hotlinks {
    /// The links in file order.
    pub links: Vec<Hotlink>,
    /// The blank lines in file order; [`Hotlinks::write`] puts each before the first link with a
    /// higher line number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blank_lines: Vec<RawLine>,
}

/// What kind of link a line is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// `VCHAT`: a portal to another world's chat channel.
    Vchat,
    /// `URL`: a web page (or a `mailto:`) opened in the browser.
    Url,
    /// Any other word, as written.
    Other(String),
}

/// Where a link leads.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkTarget {
    /// A `URL` link's target (possibly empty: a placeholder).
    Url(String),
    /// A `VCHAT` link's server (empty for the current one) and `#channel`.
    Chat {
        /// Host name or address of the chat server.
        server: String,
        /// The channel, `#` included (`#V-ChatLobby`).
        channel: String,
    },
    /// A link of another kind: its fields are all in [`Hotlink::rest`].
    None,
}

/// One line of `hotlinks.txt`. Missing fields read as empty (a missing label as `None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hotlink {
    /// The line as stored (what [`Hotlinks::write`] writes).
    pub raw: RawLine,
    /// The node whose click follows the link (a name in the `.wdb`; in any case).
    pub node: String,
    /// The link type.
    pub kind: LinkKind,
    /// Where it leads.
    pub target: LinkTarget,
    /// The text shown for the link.
    pub label: Option<String>,
    /// The fields after the label (`1`, `0`, `1`, `10000` of a `VCHAT` line), or for a link of
    /// another kind every field after the type.
    pub rest: Vec<String>,
}

/// Split a `hotlinks.txt` line into field values. `Err` carries the byte offset of an
/// unterminated quote.
fn csv_fields(text: &str) -> std::result::Result<Vec<String>, usize> {
    let mut fields = Vec::new();
    let mut rest = text;
    let mut offset = 0usize;
    loop {
        let lead = rest.len().saturating_sub(rest.trim_start().len());
        let body = rest.get(lead..).unwrap_or("");
        let (value, used) = if let Some(quoted) = body.strip_prefix('"') {
            let Some(close) = quoted.find('"') else {
                return Err(offset.saturating_add(lead));
            };
            let after = quoted.get(close.saturating_add(1)..).unwrap_or("");
            let comma = after.find(',').unwrap_or(after.len());
            let used = lead
                .saturating_add(close)
                .saturating_add(2)
                .saturating_add(comma);
            (quoted.get(..close).unwrap_or("").to_owned(), used)
        } else {
            let comma = body.find(',').unwrap_or(body.len());
            (
                body.get(..comma).unwrap_or("").trim_end().to_owned(),
                lead.saturating_add(comma),
            )
        };
        fields.push(value);
        match rest.get(used..) {
            Some(tail) if tail.starts_with(',') => {
                rest = tail.get(1..).unwrap_or("");
                offset = offset.saturating_add(used).saturating_add(1);
            }
            _ => return Ok(fields),
        }
    }
}

impl Hotlink {
    /// Read one non-blank line.
    fn parse(raw: RawLine) -> Result<Hotlink> {
        let fields = csv_fields(&raw.text).map_err(|offset| {
            let column = column_of(&raw.text, offset);
            Error::malformed(
                F,
                at(raw.number, column),
                format!(
                    "hotlinks.txt: the quote at column {column} of line {} is never closed",
                    raw.number
                ),
            )
        })?;
        let mut fields = fields.into_iter();
        let node = fields.next().unwrap_or_default();
        let Some(kind) = fields.next() else {
            return Err(Error::malformed(
                F,
                at(raw.number, column_of(&raw.text, raw.text.len())),
                format!(
                    "hotlinks.txt: line {} has no link type; a link is node,URL,target,label \
                     or node,VCHAT,server,#channel,label",
                    raw.number
                ),
            ));
        };
        if node.trim().is_empty() {
            return Err(Error::malformed(
                F,
                at(raw.number, 1),
                format!("hotlinks.txt: line {} has an empty node name", raw.number),
            ));
        }
        let kind = if kind.eq_ignore_ascii_case("VCHAT") {
            LinkKind::Vchat
        } else if kind.eq_ignore_ascii_case("URL") {
            LinkKind::Url
        } else {
            LinkKind::Other(kind)
        };
        let target = match kind {
            LinkKind::Url => LinkTarget::Url(fields.next().unwrap_or_default()),
            LinkKind::Vchat => LinkTarget::Chat {
                server: fields.next().unwrap_or_default(),
                channel: fields.next().unwrap_or_default(),
            },
            LinkKind::Other(_) => LinkTarget::None,
        };
        let label = match kind {
            LinkKind::Other(_) => None,
            _ => fields.next(),
        };
        Ok(Hotlink {
            raw,
            node,
            kind,
            target,
            label,
            rest: fields.collect(),
        })
    }
}

impl Hotlinks {
    /// Read a `hotlinks.txt` (an empty file has no links). Errors (with the line): a control
    /// byte, an unterminated quote, a line with no link type or an empty node name.
    pub fn read(bytes: &[u8]) -> Result<Hotlinks> {
        let mut out = Hotlinks::default();
        for line in split_lines(bytes, "hotlinks.txt")? {
            if line.text.trim().is_empty() {
                out.blank_lines.push(line);
            } else {
                out.links.push(Hotlink::parse(line)?);
            }
        }
        Ok(out)
    }

    /// The bytes of the file: links and blank lines as stored, blank lines placed back by their
    /// numbers (so `write(read(x)) == x`). Fails only for text with a character Windows-1252
    /// cannot hold.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut blanks = self.blank_lines.iter().peekable();
        for link in &self.links {
            while let Some(blank) = blanks.next_if(|b| b.number < link.raw.number) {
                put_line(&mut out, blank, "hotlinks.txt")?;
            }
            put_line(&mut out, &link.raw, "hotlinks.txt")?;
        }
        for blank in blanks {
            put_line(&mut out, blank, "hotlinks.txt")?;
        }
        Ok(out)
    }

    /// The first link of node `node`, in any case.
    pub fn find(&self, node: &str) -> Option<&Hotlink> {
        self.links.iter().find(|l| same_name(&l.node, node))
    }
}

// ---------------------------------------------------------------------------------------------
// world.pal
// ---------------------------------------------------------------------------------------------

/// A world's palette, `world.pal`: the colours as stored, and the file's form with every byte
/// that is not a colour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Palette {
    /// The colours in order, components as stored (0–63 in [`PaletteForm::Raw`] files from VGA
    /// tools; see [`Palette::rgb8`]).
    pub colors: Vec<PaletteColor>,
    /// The file's form.
    pub form: PaletteForm,
}

/// One palette entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PaletteColor {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// The `PALETTEENTRY` flags byte of a RIFF palette (`PC_RESERVED` 1, `PC_EXPLICIT` 2,
    /// `PC_NOCOLLAPSE` 4; 0 in every published palette); 0 in a raw one.
    pub flags: u8,
}

/// How a `world.pal` is stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaletteForm {
    /// A Microsoft RIFF palette.
    Riff(RiffPalette),
    /// RGB triples and nothing else (Hanami's and Help's 183 bytes: 61 colours of 6-bit values).
    Raw,
}

/// What a RIFF palette has besides its colours.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RiffPalette {
    /// The `LOGPALETTE` version word (`0x0300`).
    pub version: u16,
    /// Bytes of the `data` chunk after the entries (four zero bytes in some published files).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::hex"
    )]
    pub data_extra: Vec<u8>,
    /// The pad byte after an odd-sized `data` chunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_pad: Option<u8>,
    /// Chunks before `data`, as stored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<RiffChunk>,
    /// Chunks after `data`, as stored (`offl`, `tran`, `unde` in some published files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<RiffChunk>,
    /// Bytes after the end the RIFF header declares (four zero bytes in some published files).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::hex"
    )]
    pub trailing: Vec<u8>,
}

/// A RIFF chunk kept as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RiffChunk {
    /// The four-byte identifier.
    pub id: [u8; 4],
    /// The chunk's bytes.
    #[serde(with = "crate::serde_bytes::hex")]
    pub data: Vec<u8>,
    /// The pad byte after an odd-sized chunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pad: Option<u8>,
}

/// Read one chunk's header, bytes and pad byte from a reader over the RIFF (which ends where the
/// RIFF header says).
fn read_chunk<'a>(r: &mut ByteReader<'a>) -> Result<([u8; 4], &'a [u8], Option<u8>)> {
    let id: [u8; 4] = r.array("world.pal: chunk id")?;
    let size = usize::try_from(r.u32_le("world.pal: chunk size")?).unwrap_or(usize::MAX);
    let left = r.remaining();
    if size > left {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(r.offset().saturating_sub(4)),
            format!(
                "world.pal: chunk {:?} of {size} bytes runs past the end of the RIFF ({left} \
                 bytes left)",
                String::from_utf8_lossy(&id)
            ),
        ));
    }
    let data = r.bytes(size, "world.pal: chunk")?;
    let pad = if size & 1 == 1 && r.remaining() > 0 {
        Some(r.u8("world.pal: pad byte")?)
    } else {
        None
    };
    Ok((id, data, pad))
}

impl Palette {
    /// Read a `world.pal`: a RIFF palette (`RIFF` … `PAL `), or raw RGB triples. Errors: an empty
    /// file, a RIFF that is not a palette or is cut short, a `data` chunk shorter than its count,
    /// a JASC text palette, raw bytes that are not a whole number of triples.
    pub fn read(bytes: &[u8]) -> Result<Palette> {
        if bytes.is_empty() {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(0),
                "world.pal: the file is empty",
            ));
        }
        if bytes.starts_with(b"RIFF") {
            return Palette::read_riff(bytes);
        }
        if bytes.starts_with(b"JASC-PAL") {
            return Err(Error::unsupported(
                F,
                Location::at(0),
                "world.pal: a JASC text palette (Paint Shop Pro), not one V-Chat reads",
            ));
        }
        let chunks = bytes.chunks_exact(3);
        if !chunks.remainder().is_empty() {
            return Err(Error::malformed(
                F,
                Location::at(0),
                format!(
                    "world.pal: {} bytes without a RIFF header, not a whole number of RGB \
                     triples",
                    bytes.len()
                ),
            ));
        }
        let colors = chunks
            .map(|c| match c {
                [r, g, b] => PaletteColor {
                    r: *r,
                    g: *g,
                    b: *b,
                    flags: 0,
                },
                _ => PaletteColor::default(),
            })
            .collect();
        Ok(Palette {
            colors,
            form: PaletteForm::Raw,
        })
    }

    fn read_riff(bytes: &[u8]) -> Result<Palette> {
        let mut r = ByteReader::new(F, bytes);
        r.seek(4, "world.pal: RIFF size")?;
        let size = usize::try_from(r.u32_le("world.pal: RIFF size")?).unwrap_or(usize::MAX);
        let end = size.checked_add(8).filter(|&e| e <= bytes.len()).ok_or_else(|| {
            Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(4),
                format!(
                    "world.pal: the RIFF header promises {size} bytes after it, the file has {}",
                    bytes.len().saturating_sub(8)
                ),
            )
        })?;
        let form: [u8; 4] = r.array("world.pal: RIFF form")?;
        if &form != b"PAL " {
            return Err(Error::unsupported(
                F,
                Location::at(8),
                format!(
                    "world.pal: a RIFF {:?} file, not a palette (\"PAL \")",
                    String::from_utf8_lossy(&form)
                ),
            ));
        }
        if end < 12 {
            return Err(Error::malformed(
                F,
                Location::at(4),
                "world.pal: the RIFF size does not cover its form type",
            ));
        }
        // Chunks are read from the RIFF's own bytes, so none reaches into the trailing ones.
        let mut r = ByteReader::new(F, bytes.get(..end).unwrap_or(bytes));
        r.seek(12, "world.pal: first chunk")?;
        let mut layout = RiffPalette::default();
        let mut colors = None;
        while r.remaining() > 0 {
            let start = r.offset();
            let (id, data, pad) = read_chunk(&mut r)?;
            if &id == b"data" && colors.is_none() {
                let mut d = ByteReader::new(F, data);
                layout.version = d.u16_le("world.pal: palette version")?;
                let count = d.u16_le("world.pal: colour count")?;
                let need = usize::from(count).saturating_mul(4);
                if need > d.remaining() {
                    return Err(Error::new(
                        F,
                        ErrorKind::Truncated,
                        Location::at(start.saturating_add(12)),
                        format!(
                            "world.pal: {count} colours need {need} bytes, the data chunk has {} \
                             after its header",
                            d.remaining()
                        ),
                    ));
                }
                let entries = d.bytes(need, "world.pal: colours")?;
                colors = Some(
                    entries
                        .chunks_exact(4)
                        .map(|c| match c {
                            [r, g, b, flags] => PaletteColor {
                                r: *r,
                                g: *g,
                                b: *b,
                                flags: *flags,
                            },
                            _ => PaletteColor::default(),
                        })
                        .collect::<Vec<_>>(),
                );
                layout.data_extra = d.bytes(d.remaining(), "world.pal: data")?.to_vec();
                layout.data_pad = pad;
            } else {
                let chunk = RiffChunk {
                    id,
                    data: data.to_vec(),
                    pad,
                };
                if colors.is_none() {
                    layout.before.push(chunk);
                } else {
                    layout.after.push(chunk);
                }
            }
        }
        let colors = colors.ok_or_else(|| {
            Error::malformed(
                F,
                Location::at(12),
                "world.pal: a RIFF palette without a \"data\" chunk",
            )
        })?;
        layout.trailing = bytes.get(end..).unwrap_or(&[]).to_vec();
        Ok(Palette {
            colors,
            form: PaletteForm::Riff(layout),
        })
    }

    /// The bytes of the palette (so `write(read(x)) == x`). Errors: more than 65,535 colours in
    /// a RIFF palette, or chunks too large for a RIFF size.
    pub fn write(&self) -> Result<Vec<u8>> {
        let layout = match &self.form {
            PaletteForm::Raw => {
                return Ok(self.colors.iter().flat_map(|c| [c.r, c.g, c.b]).collect());
            }
            PaletteForm::Riff(layout) => layout,
        };
        let too_big = |what: &str| {
            Error::new(
                F,
                ErrorKind::LimitExceeded,
                Location::path("palette"),
                format!("world.pal: {what} does not fit a RIFF palette"),
            )
        };
        let count = u16::try_from(self.colors.len())
            .map_err(|_| too_big(&format!("{} colours", self.colors.len())))?;
        let mut data = ByteWriter::new();
        data.put_u16_le(layout.version);
        data.put_u16_le(count);
        for c in &self.colors {
            data.put_bytes(&[c.r, c.g, c.b, c.flags]);
        }
        data.put_bytes(&layout.data_extra);
        let mut body = ByteWriter::new();
        body.put_bytes(b"PAL ");
        let mut put = |id: &[u8; 4], bytes: &[u8], pad: Option<u8>| -> Result<()> {
            body.put_bytes(id);
            body.put_u32_le(u32::try_from(bytes.len()).map_err(|_| too_big("a chunk"))?);
            body.put_bytes(bytes);
            if let Some(p) = pad {
                body.put_u8(p);
            }
            Ok(())
        };
        for chunk in &layout.before {
            put(&chunk.id, &chunk.data, chunk.pad)?;
        }
        put(b"data", data.as_slice(), layout.data_pad)?;
        for chunk in &layout.after {
            put(&chunk.id, &chunk.data, chunk.pad)?;
        }
        let mut out = ByteWriter::new();
        out.put_bytes(b"RIFF");
        out.put_u32_le(u32::try_from(body.len()).map_err(|_| too_big("the palette"))?);
        out.put_bytes(body.as_slice());
        out.put_bytes(&layout.trailing);
        Ok(out.into_inner())
    }

    /// True for a raw palette whose components are all 0–63: 6-bit VGA values.
    pub fn is_six_bit(&self) -> bool {
        matches!(self.form, PaletteForm::Raw)
            && self.colors.iter().all(|c| c.r < 64 && c.g < 64 && c.b < 64)
    }

    /// The colours as 8-bit RGB: 6-bit values ([`Palette::is_six_bit`]) scaled to 0–255
    /// (`v * 255 / 63`, rounded), others as stored.
    pub fn rgb8(&self) -> Vec<[u8; 3]> {
        let six = self.is_six_bit();
        let scale = |v: u8| -> u8 {
            if six {
                // v < 64, so v * 255 + 31 < 2^16 and the quotient is at most 255.
                let scaled = (u16::from(v).saturating_mul(255).saturating_add(31)) / 63;
                u8::try_from(scaled).unwrap_or(u8::MAX)
            } else {
                v
            }
        };
        self.colors
            .iter()
            .map(|c| [scale(c.r), scale(c.g), scale(c.b)])
            .collect()
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    // ----- synthetic inputs -----

    #[test]
    fn adf_sections_entries_and_images() {
        let text = "[General]\r\nName=The V-Chat Mall\r\nArgs=-p 30 -a cluck.png\r\n\
                    [data]\r\nworld.wdb=./data/world.wdb\r\nworld.pal=world.pal\r\n\
                    [images]\r\ncldsmap.gif= ../images/cldsmap.gif, 256,256, 0, 33, 82, 123, 156, 181, 181\r\n\
                    face.gif= face.gif, 512,512\r\n\
                    window3.gif=window3.gif, 256,256,\r\n\
                    snake.gif=snake.gif, 128,128, 0, 94,94,133, 62,52,84,\r\n\
                    stonetile.gif=stonetile.gif, 256,256, 129,143,156, 96,128,156\r\n\
                    index191.gif=index191.gif, 16.16\r\n\
                    r-lights.gif=r-lights.gif,32,128, o, 0,255,0, 0,0,255\r\n\
                    leaves.gif = leaves.gif,256,256,0,70,111,0,29,84,0\r\n\
                    [sounds]\r\nsong.wav=../sounds/song.wav\r\nsound.htm=sound.htm";
        let adf = Adf::read(text.as_bytes()).unwrap();
        assert_eq!(adf.write().unwrap(), text.as_bytes());
        let names: Vec<&str> = adf.sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["General", "data", "images", "sounds"]);
        assert_eq!(adf.name(), Some("The V-Chat Mall"));
        assert_eq!(adf.value("GENERAL", "args"), Some("-p 30 -a cluck.png"));
        assert_eq!(
            adf.sections[3].lines.last().map(|l| match l {
                AdfLine::Entry(e) => e.raw.end,
                AdfLine::Other(l) => l.end,
            }),
            Some(LineEnd::None)
        );

        let images: Vec<&ImageInfo> = adf.images().filter_map(|e| e.image.as_ref()).collect();
        assert_eq!(images.len(), 8);
        assert_eq!(images[0].size, Some((256, 256)));
        assert_eq!(images[0].flag, Some(0));
        assert_eq!(images[0].colors, Some([[33, 82, 123], [156, 181, 181]]));
        assert_eq!((images[1].size, images[1].colors), (Some((512, 512)), None));
        assert_eq!(images[2].fields, ["256", "256", ""]);
        assert_eq!(images[2].size, Some((256, 256)));
        assert_eq!(images[3].colors, Some([[94, 94, 133], [62, 52, 84]]));
        assert_eq!(
            (images[4].size, images[4].flag, images[4].colors),
            (Some((256, 256)), None, None)
        );
        assert_eq!((images[5].size, images[5].fields.len()), (None, 1));
        assert_eq!((images[6].size, images[6].colors), (Some((32, 128)), None));
        assert_eq!(images[7].colors, Some([[70, 111, 0], [29, 84, 0]]));
        // The key is trimmed around `=`.
        assert_eq!(
            adf.images().nth(7).map(|e| e.key.as_str()),
            Some("leaves.gif")
        );
    }

    #[test]
    fn adf_paths_resolve_bare_names_case_and_folders() {
        let adf = Adf::read(
            b"[general]\nName=x\n[Data]\nworld.wdb=data/world.wdb\nabout.txt=about.txt\n\
              [Images]\nhana.gif=../images/hana.gif, 256,256\nKanji.gif=kanji.gif, 240,120\n\
              window.gif=g255.gif,128,128\n[avatars]\nhoop.png=../avatars/hoop.png\nhoop2.png=hoop2.png\n",
        )
        .unwrap();
        assert_eq!(adf.wdb_path().as_deref(), Some("data/world.wdb"));
        assert_eq!(adf.data_folder(), "data");
        assert_eq!(
            adf.path_of("data", "ABOUT.TXT").as_deref(),
            Some("data/about.txt")
        );
        assert_eq!(
            adf.texture_path("HANA.GIF").as_deref(),
            Some("images/hana.gif")
        );
        assert_eq!(
            adf.texture_path("kanji.GIF").as_deref(),
            Some("images/kanji.gif")
        );
        // The key is the name asked for, the value the file that answers.
        assert_eq!(
            adf.texture_path("Window.gif").as_deref(),
            Some("images/g255.gif")
        );
        assert_eq!(adf.texture_path("g255.gif"), None);
        assert_eq!(
            adf.path_of("avatars", "hoop2.png").as_deref(),
            Some("avatars/hoop2.png")
        );
        assert_eq!(adf.path_of("general", "name"), None);
        assert_eq!(adf.path_of("sounds", "song.wav"), None);

        // No [data] entry for the world: its folder is `data`; `./` and `..` are folded, and a
        // `..` above the world folder stays at it (Trippy Table's `../data/world.wdb`).
        let adf =
            Adf::read(b"[images]\r\na.gif=./../../shared/./a.gif\r\nb.gif=b.gif\r\n").unwrap();
        assert_eq!(adf.data_folder(), "data");
        assert_eq!(adf.texture_path("a.gif").as_deref(), Some("shared/a.gif"));
        assert_eq!(adf.texture_path("B.GIF").as_deref(), Some("shared/b.gif"));
        let adf = Adf::read(b"[avatars]\nblueeye.png=./avatars/blueeye.png\n[data]\nworld.wdb=../data/world.wdb\nworld.pal=world.pal\n[sounds]\nsong.wav=../sounds/song.wav\n").unwrap();
        assert_eq!(adf.wdb_path().as_deref(), Some("data/world.wdb"));
        assert_eq!(
            adf.path_of("data", "world.pal").as_deref(),
            Some("data/world.pal")
        );
        assert_eq!(
            adf.path_of("avatars", "blueeye.png").as_deref(),
            Some("avatars/blueeye.png")
        );
        assert_eq!(
            adf.path_of("sounds", "song.wav").as_deref(),
            Some("sounds/song.wav")
        );
        // A world.wdb in the world folder itself.
        let adf =
            Adf::read(b"[data]\nworld.wdb=world.wdb\n[images]\na.gif=images\\a.gif\n").unwrap();
        assert_eq!(adf.data_folder(), "");
        assert_eq!(adf.texture_path("a.gif").as_deref(), Some("images/a.gif"));
    }

    #[test]
    fn adf_keeps_unknown_lines_and_line_breaks() {
        let text =
            b"\r\n; made by hand\r\n[General]\rName=x\n\njunk without equals\r\n[sounds]\r\n";
        let adf = Adf::read(text).unwrap();
        assert_eq!(adf.preamble.len(), 2);
        let general = adf.section("general").unwrap();
        assert_eq!(general.header.end, LineEnd::Cr);
        assert_eq!(general.lines.len(), 3);
        assert!(matches!(&general.lines[2], AdfLine::Other(l) if l.text == "junk without equals"));
        assert_eq!(general.entries().count(), 1);
        assert_eq!(adf.write().unwrap(), text);
    }

    #[test]
    fn adf_errors_name_the_line() {
        let e = Adf::read(b"").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
        let e = Adf::read(b"[General]\r\nName=x\r\n[data\r\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Malformed);
        assert_eq!(e.location.line_col, Some((3, 6)));
        let e = Adf::read(b"Name=x\n[General]\n").unwrap_err();
        assert_eq!(e.location.line_col, Some((1, 1)));
        let e = Adf::read(b"\n\n").unwrap_err();
        assert!(e.message.contains("no [section]"), "{e}");
        let e = Adf::read(b"[General]\nName=a\0b\n").unwrap_err();
        assert_eq!(e.location.line_col, Some((2, 7)));
        assert!(
            e.to_string()
                .starts_with("wdb: world.adf: control byte 0x00"),
            "{e}"
        );
    }

    #[test]
    fn hotlinks_quoted_unquoted_and_odd_fields() {
        let text = "\"portal01\",VCHAT,msvchatsvr.webredirect.org,#V-ChatLobby,\"Portal to the V-Chat Lobby\",0,1,1,10000\r\n\
                    \"url03\",URL,\"\",\"Custom Hotlink\"\r\n\
                    v_face,URL,\"http://vchat1.microsoft.com\",\"V-Chat Web Page\"\r\n\
                    Url_Pic_02, URL, mailto:\"vchadmin@microsoft.com\",\"EMAIL the team\"\r\
                    \"Portal01\",VCHAT,,#V-ChatLobby,\"Portal to the V-Chat Lobby\",1,1,1,10000\r\n\
                    \"portrait01\",URL, ,\" \"\n\
                    \"booklinkb0\",URL,http://www.bmtnews.org,\"BMT Newsletter Web Page\"\"\n\
                    \"url06\",URL,,\"soon\"\n\
                    \"R0\", URL, \"http://www.ot.com/lesmis/menu.html\", \"Shortcut to Les Miserable\"\n\
                    Url_Pic_18, URL, \"http://www.pirchat.com\",\"Pirch information page\", \"The PIRCH Page\"\n\
                    miro1,URL,http://www.varian.net/,\"Web link\",1,0,1,10000\n\
                    odd,GOPHER,gopher://x\n\
                    \n";
        let links = Hotlinks::read(text.as_bytes()).unwrap();
        assert_eq!(links.write().unwrap(), text.as_bytes());
        assert_eq!(links.links.len(), 12);
        assert_eq!(links.blank_lines.len(), 1);
        let l = &links.links;
        assert_eq!(l[0].node, "portal01");
        assert_eq!(l[0].kind, LinkKind::Vchat);
        assert_eq!(
            l[0].target,
            LinkTarget::Chat {
                server: "msvchatsvr.webredirect.org".into(),
                channel: "#V-ChatLobby".into()
            }
        );
        assert_eq!(l[0].label.as_deref(), Some("Portal to the V-Chat Lobby"));
        assert_eq!(l[0].rest, ["0", "1", "1", "10000"]);
        assert_eq!(l[1].target, LinkTarget::Url(String::new()));
        assert_eq!(
            l[2].target,
            LinkTarget::Url("http://vchat1.microsoft.com".into())
        );
        assert_eq!(
            l[3].target,
            LinkTarget::Url("mailto:\"vchadmin@microsoft.com\"".into())
        );
        assert_eq!(l[3].raw.end, LineEnd::Cr);
        assert!(matches!(&l[4].target, LinkTarget::Chat { server, .. } if server.is_empty()));
        assert_eq!(
            (l[5].target.clone(), l[5].label.as_deref()),
            (LinkTarget::Url(String::new()), Some(" "))
        );
        assert_eq!(l[6].label.as_deref(), Some("BMT Newsletter Web Page"));
        assert_eq!(l[7].target, LinkTarget::Url(String::new()));
        assert_eq!(l[8].node, "R0");
        assert_eq!(l[8].label.as_deref(), Some("Shortcut to Les Miserable"));
        assert_eq!(l[9].rest, ["The PIRCH Page"]);
        assert_eq!(l[10].rest.len(), 4);
        assert_eq!(l[11].kind, LinkKind::Other("GOPHER".into()));
        assert_eq!(
            (l[11].target.clone(), l[11].label.clone()),
            (LinkTarget::None, None)
        );
        assert_eq!(l[11].rest, ["gopher://x"]);
        assert_eq!(links.find("PORTAL01").map(|l| l.raw.number), Some(1));
        assert_eq!(links.find("Portal01").map(|l| l.raw.number), Some(1));
        assert_eq!(links.find("nothing"), None);
    }

    #[test]
    fn hotlinks_missing_fields_read_as_empty() {
        let links = Hotlinks::read(b"door,VCHAT\nsign,URL,http://x\n").unwrap();
        assert_eq!(
            links.links[0].target,
            LinkTarget::Chat {
                server: String::new(),
                channel: String::new()
            }
        );
        assert_eq!(links.links[0].label, None);
        assert_eq!(links.links[1].label, None);
        assert!(Hotlinks::read(b"").unwrap().links.is_empty());
        // Blank lines between, before and after links come back in place.
        let text = b"\r\na,URL,x,y\r\n\r\n\r\nb,URL,x,y\r\n\r\n";
        assert_eq!(Hotlinks::read(text).unwrap().write().unwrap(), text);
    }

    #[test]
    fn hotlinks_errors_name_the_line() {
        let e = Hotlinks::read(b"a,URL,x,y\n\"b,URL,x,y\n").unwrap_err();
        assert_eq!(e.location.line_col, Some((2, 1)));
        let e = Hotlinks::read(b"a,URL,\"http://x,y\n").unwrap_err();
        assert_eq!(e.location.line_col, Some((1, 7)));
        let e = Hotlinks::read(b"a,URL,x,y\r\nlonely\r\n").unwrap_err();
        assert!(e.message.contains("line 2 has no link type"), "{e}");
        let e = Hotlinks::read(b" ,URL,x\n").unwrap_err();
        assert!(e.message.contains("empty node name"), "{e}");
        let e = Hotlinks::read(b"a,URL,\x1b[0m\n").unwrap_err();
        assert_eq!(e.location.line_col, Some((1, 7)));
    }

    /// A RIFF palette as the published files have it.
    fn riff(count: u16, extra: &[u8], after: &[(&[u8; 4], &[u8])], trailing: &[u8]) -> Vec<u8> {
        let mut data = vec![0x00, 0x03];
        data.extend(count.to_le_bytes());
        for i in 0..count {
            data.extend([i as u8, 255 - i as u8, 7, 0]);
        }
        data.extend(extra);
        let mut body = b"PAL data".to_vec();
        body.extend((data.len() as u32).to_le_bytes());
        body.extend(&data);
        for (id, bytes) in after {
            body.extend(*id);
            body.extend((bytes.len() as u32).to_le_bytes());
            body.extend(*bytes);
        }
        let mut out = b"RIFF".to_vec();
        out.extend((body.len() as u32).to_le_bytes());
        out.extend(body);
        out.extend(trailing);
        out
    }

    #[test]
    fn riff_palettes_of_every_published_shape_round_trip() {
        let shapes = [
            riff(256, &[], &[], &[]),
            riff(256, &[0; 4], &[], &[]),
            riff(256, &[], &[], &[0; 4]),
            riff(
                256,
                &[],
                &[
                    (b"offl", &[0; 32]),
                    (b"tran", &[0; 32]),
                    (b"unde", &[0; 32]),
                ],
                &[],
            ),
        ];
        assert_eq!(shapes.each_ref().map(|b| b.len()), [1048, 1052, 1052, 1168]);
        for bytes in &shapes {
            let p = Palette::read(bytes).unwrap();
            assert_eq!(p.colors.len(), 256);
            assert_eq!(
                p.colors[3],
                PaletteColor {
                    r: 3,
                    g: 252,
                    b: 7,
                    flags: 0
                }
            );
            assert!(!p.is_six_bit());
            assert_eq!(p.rgb8()[3], [3, 252, 7]);
            assert_eq!(p.write().unwrap(), *bytes);
        }
        let PaletteForm::Riff(layout) = Palette::read(&shapes[3]).unwrap().form else {
            panic!("a RIFF palette");
        };
        assert_eq!(layout.version, 0x0300);
        assert_eq!(
            layout.after.iter().map(|c| &c.id).collect::<Vec<_>>(),
            [b"offl", b"tran", b"unde"]
        );
        // An odd chunk keeps its pad byte.
        let mut odd = riff(1, &[9], &[(b"note", b"abc")], &[]);
        odd.insert(8 + 4 + 8 + 9, 0x55);
        odd.push(0);
        let size = (odd.len() - 8) as u32;
        odd[4..8].copy_from_slice(&size.to_le_bytes());
        let p = Palette::read(&odd).unwrap();
        let PaletteForm::Riff(layout) = &p.form else {
            panic!("a RIFF palette")
        };
        assert_eq!(
            (layout.data_pad, layout.after[0].pad),
            (Some(0x55), Some(0))
        );
        assert_eq!(p.write().unwrap(), odd);
    }

    #[test]
    fn raw_palettes_are_six_bit_triples() {
        let p = Palette::read(&[63, 63, 63, 52, 52, 52, 0, 0, 1]).unwrap();
        assert_eq!(p.form, PaletteForm::Raw);
        assert_eq!(p.colors.len(), 3);
        assert!(p.is_six_bit());
        assert_eq!(p.rgb8(), vec![[255, 255, 255], [210, 210, 210], [0, 0, 4]]);
        assert_eq!(p.write().unwrap(), [63, 63, 63, 52, 52, 52, 0, 0, 1]);
        let p = Palette::read(&[200, 0, 0]).unwrap();
        assert!(!p.is_six_bit());
        assert_eq!(p.rgb8(), vec![[200, 0, 0]]);
    }

    #[test]
    fn palette_errors() {
        assert_eq!(Palette::read(b"").unwrap_err().kind, ErrorKind::Truncated);
        assert_eq!(Palette::read(b"ab").unwrap_err().kind, ErrorKind::Malformed);
        assert_eq!(
            Palette::read(b"JASC-PAL\r\n0100\r\n").unwrap_err().kind,
            ErrorKind::Unsupported
        );
        assert_eq!(
            Palette::read(b"RIFF\x04\0\0\0WAVE").unwrap_err().kind,
            ErrorKind::Unsupported
        );
        assert_eq!(
            Palette::read(b"RIFF\x04\0\0\0PAL ").unwrap_err().kind,
            ErrorKind::Malformed
        );
        let good = riff(4, &[], &[], &[]);
        let mut short = good.clone();
        short[22] = 9; // count 9 > 4 entries
        let e = Palette::read(&short).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
        assert!(e.message.contains("9 colours"), "{e}");
        // Every prefix of a RIFF palette is an error, never a panic.
        for n in 4..good.len() {
            assert!(Palette::read(&good[..n]).is_err(), "prefix {n}");
        }
    }

    /// Deterministic pseudo-random bytes (the tests' xorshift, [`crate::testutil::Rng`]).
    fn noise(seed: u64, len: usize) -> Vec<u8> {
        let mut rng = crate::testutil::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        (0..len).map(|_| rng.next() as u8).collect()
    }

    #[test]
    fn garbage_is_an_error_or_reads_back_never_a_panic() {
        let mut adf_errors = 0;
        for seed in 0..300u64 {
            let bytes = noise(seed, (seed as usize * 7) % 300 + 1);
            if Adf::read(&bytes).is_err() {
                adf_errors += 1;
            }
            if let Ok(h) = Hotlinks::read(&bytes) {
                assert_eq!(h.write().unwrap(), bytes);
            }
            let mut riffy = b"RIFF".to_vec();
            riffy.extend(&bytes);
            if let Ok(p) = Palette::read(&riffy) {
                assert_eq!(p.write().unwrap(), riffy);
            }
            let _ = Palette::read(&bytes);
        }
        assert_eq!(adf_errors, 300, "random bytes are never a manifest");
        // Every prefix of a manifest and of a link file reads or fails cleanly; whatever reads
        // writes back as itself.
        let adf =
            b"[General]\r\nName=x\r\n[images]\r\na.gif=../images/a.gif, 1,2, 0, 1,2,3, 4,5,6\r\n";
        let links = b"\"a\",VCHAT,,#c,\"l\",1,0,1,10000\r\nb, URL, \"u\", \"l\"\r\n";
        for n in 0..adf.len() {
            if let Ok(a) = Adf::read(&adf[..n]) {
                assert_eq!(a.write().unwrap(), &adf[..n]);
            }
        }
        for n in 0..links.len() {
            if let Ok(h) = Hotlinks::read(&links[..n]) {
                assert_eq!(h.write().unwrap(), &links[..n]);
            }
        }
    }

    #[test]
    fn texture_candidates_in_order() {
        assert_eq!(
            texture_candidates("FOUNT3.GIF"),
            ["../images/FOUNT3.GIF", "FOUNT3.GIF", "../FOUNT3.GIF"]
        );
        assert_eq!(texture_candidates("sub\\a.gif")[0], "../images/sub/a.gif");
        assert!(texture_candidates(" ").is_empty());
    }

    #[test]
    fn model_json_round_trips() {
        let adf = Adf::read(b"[images]\na.gif=../images/a.gif,1,2,0,1,2,3,4,5,6\n").unwrap();
        let json = serde_json::to_string(&adf).unwrap();
        assert_eq!(serde_json::from_str::<Adf>(&json).unwrap(), adf);
        let p = Palette::read(&riff(2, &[1, 2], &[(b"offl", &[0; 2])], &[7])).unwrap();
        let json = serde_json::to_string(&p).unwrap();
        assert!(json.contains("\"trailing\":\"07\""), "{json}");
        assert_eq!(serde_json::from_str::<Palette>(&json).unwrap(), p);
    }

    // ----- the real world folders -----

    /// What each corpus world has: links in `hotlinks.txt`, entries in `[images]`, palette
    /// colours (`None` for a missing file).
    const EXPECTED: &[(&str, Option<usize>, usize, Option<usize>)] = &[
        ("amazing", None, 5, Some(256)),
        ("bugworld", None, 6, Some(256)),
        ("compass", Some(9), 15, Some(256)),
        ("fishbowl", None, 10, Some(256)),
        ("hanami", None, 6, Some(61)),
        ("help", None, 4, Some(61)),
        ("hutchspace", Some(46), 139, Some(256)),
        ("theaterchat", Some(10), 19, None),
    ];

    /// `rel` (relative to `dir`, `/` separated) names a file, its last part in any case.
    fn exists_any_case(dir: &std::path::Path, rel: &str) -> bool {
        let path = dir.join(rel);
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return false;
        };
        let name = name.to_string_lossy().to_lowercase();
        std::fs::read_dir(parent)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().to_lowercase() == name && e.path().is_file())
    }

    #[test]
    fn corpus_world_folders() {
        let Some(root) = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty()) else {
            eprintln!("LEVELKIT_CORPUS is not set: the real world folders are skipped");
            return;
        };
        // A relative path is taken from the workspace root, where `cargo test` is run.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(root)
            .join("vchat");
        let mut worlds: Vec<_> = std::fs::read_dir(&root)
            .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("world.adf").is_file())
            .collect();
        worlds.sort();
        assert!(!worlds.is_empty(), "no world folders in {}", root.display());
        let mut seen = 0;
        for dir in &worlds {
            let world = dir.file_name().unwrap().to_string_lossy().into_owned();
            let read = |rel: &str| std::fs::read(dir.join(rel)).ok();

            let bytes = read("world.adf").unwrap();
            let adf = Adf::read(&bytes).unwrap_or_else(|e| panic!("{world}: {e}"));
            assert_eq!(adf.write().unwrap(), bytes, "{world}: world.adf round trip");
            assert!(
                adf.name().is_some_and(|n| !n.is_empty()),
                "{world}: no Name="
            );
            let wdb = adf
                .wdb_path()
                .unwrap_or_else(|| panic!("{world}: no world.wdb entry"));
            assert!(exists_any_case(dir, &wdb), "{world}: {wdb} is missing");
            let images: Vec<&AdfEntry> = adf.images().collect();
            for entry in &images {
                let upper = entry.key.to_uppercase();
                let path = adf.texture_path(&upper).unwrap();
                assert!(
                    exists_any_case(dir, &path),
                    "{world}: {} -> {path} is missing",
                    entry.key
                );
                assert!(
                    entry.image.as_ref().is_some_and(|i| !i.fields.is_empty()),
                    "{world}: {}",
                    entry.key
                );
            }
            // Every image file is found through the first texture candidate.
            let data = dir.join(adf.data_folder());
            for file in std::fs::read_dir(dir.join("images"))
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = file.file_name().to_string_lossy().to_uppercase();
                assert!(
                    exists_any_case(&data, &texture_candidates(&name)[0]),
                    "{world}: {name}"
                );
            }

            let links = read("data/hotlinks.txt").map(|b| {
                let h = Hotlinks::read(&b).unwrap_or_else(|e| panic!("{world}: {e}"));
                assert_eq!(h.write().unwrap(), b, "{world}: hotlinks.txt round trip");
                for link in &h.links {
                    assert!(
                        matches!(link.kind, LinkKind::Url | LinkKind::Vchat),
                        "{world}: {link:?}"
                    );
                    assert!(link.label.is_some(), "{world}: {link:?}");
                    if let LinkTarget::Chat { channel, .. } = &link.target {
                        assert!(channel.starts_with('#'), "{world}: {link:?}");
                    }
                    assert_eq!(
                        h.find(&link.node.to_uppercase()).map(|l| &l.node),
                        Some(&link.node)
                    );
                }
                h.links.len()
            });
            // Three published worlds have an empty world.pal: refused, counted as none.
            let colors = match read("data/world.pal") {
                Some(b) if b.is_empty() => {
                    let e = Palette::read(&b).unwrap_err();
                    assert_eq!(e.kind, ErrorKind::Truncated, "{world}: {e}");
                    None
                }
                Some(b) => {
                    let p = Palette::read(&b).unwrap_or_else(|e| panic!("{world}: {e}"));
                    assert_eq!(p.write().unwrap(), b, "{world}: world.pal round trip");
                    Some(p.colors.len())
                }
                None => None,
            };
            if let Some(about) = read("data/about.txt") {
                assert_eq!(
                    encode_cp1252(&about_text(&about)).unwrap(),
                    about,
                    "{world}"
                );
            }
            eprintln!(
                "{world}: {links:?} links, {} images in world.adf, {colors:?} palette colours",
                images.len()
            );
            if let Some(&(_, want_links, want_images, want_colors)) =
                EXPECTED.iter().find(|(name, ..)| *name == world)
            {
                assert_eq!(
                    (links, images.len(), colors),
                    (want_links, want_images, want_colors),
                    "{world}: links, images, palette colours"
                );
                seen += 1;
            }
        }
        assert_eq!(
            seen,
            EXPECTED.len(),
            "every expected world is in the corpus"
        );
    }
}
