//! The lossless model of the text dialects: the file is a header and a list of records in file
//! order, each with its typed fields and, where the file's spacing or comments differ from the
//! layout the editor writes, a [`Layout`] that holds the differences.
//!
//! Strings are kept as the file spells them, one character per byte (Latin-1), so any byte
//! string survives a round trip through JSON; file names keep their `<…>` and flags their quotes.
//! Numbers are [`Num`]: the text as written (`-0.000000`, `448.000122`, `1.00`, `010`), which is
//! also what JSON shows.

use std::collections::BTreeMap;
use std::fmt;

use compact_str::{CompactString, ToCompactString};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::strings::LineEnding;

/// The member of the family a file belongs to (notes §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// ACKWED 4.x: no `version` line, blocks given by three points per face plane.
    A4,
    /// `version 510` (ACKWED 5.x): vertices and polygons, no texture vectors.
    V510,
    /// `version 710` (ACKWED 6.x, WMPIO 1.19): vertices, polygons and texture vectors.
    V710,
    /// `version 711`: the `$$M` compiler input, resolved to world coordinates, angles in
    /// degrees, no groups.
    DollarM,
}

impl Dialect {
    /// The number of the `version` line (`None` for A4, which has none).
    pub fn version(self) -> Option<u32> {
        match self {
            Dialect::A4 => None,
            Dialect::V510 => Some(510),
            Dialect::V710 => Some(710),
            Dialect::DollarM => Some(711),
        }
    }

    /// The dialect a `version` number announces.
    pub fn from_version(version: u32) -> Option<Dialect> {
        match version {
            510 => Some(Dialect::V510),
            710 => Some(Dialect::V710),
            711 => Some(Dialect::DollarM),
            _ => None,
        }
    }

    /// A short name: `a4`, `v510`, `v710`, `$$M`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::A4 => "a4",
            Dialect::V510 => "v510",
            Dialect::V710 => "v710",
            Dialect::DollarM => "$$M",
        }
    }

    /// Whether this is `$$M`.
    pub fn is_dollar_m(self) -> bool {
        self == Dialect::DollarM
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A whole text level or `$$M` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WmpText {
    /// Which dialect; decides the `version` line and the shape of every record.
    pub dialect: Dialect,
    /// The line break of the file (its first one), used wherever the layout is canonical.
    pub line_ending: LineEnding,
    /// Comment lines, `version`, the counts and the `wed { … }` section.
    pub header: Header,
    /// The records in file order.
    pub records: Vec<Record>,
    /// What follows the last record (blank lines, comments) when it is not the canonical
    /// line ending(s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
}

/// The part of the file before the first record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The comment lines at the top, each from `//` to the end of its line
    /// (`// WMP2`, `// ACKWED V 6.731.01`, `// Created 19.10.2022`, `// wmpio (1.30), …`).
    #[serde(default)]
    pub comments: Vec<String>,
    /// `blocks N`, `entities N`, `objects N` (text dialects; `None` in `$$M`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// The `wed { … }` editor section, verbatim from `{` to its `}` (palette, WADs, views,
    /// bookmarks); `None` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wed: Option<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// The three counts of a text header. They are what the file says, which [`super::validate`]
/// compares with the records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// `blocks N`.
    pub blocks: u32,
    /// `entities N` (the level entity included).
    pub entities: u32,
    /// `objects N` (groups).
    pub objects: u32,
}

/// Where a record's spacing and comments differ from the layout the editor writes.
///
/// `tokens` is the record's token count when it was read; `trivia` maps a token's index (0 is
/// the record's first token) to the exact whitespace and comments before it. The writer uses
/// `trivia` only while the record still has `tokens` tokens: a record whose shape changed (a face
/// added, a skill removed) is written in the canonical layout, which loses its odd spacing and
/// inline comments but never misplaces them. A record read in the canonical layout has an empty
/// `Layout` and none in JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Token count of the record as read.
    pub tokens: u32,
    /// Token index → whitespace and comments before that token.
    pub trivia: BTreeMap<u32, String>,
}

impl Layout {
    /// True when the record is written in the canonical layout.
    pub fn is_canonical(&self) -> bool {
        self.trivia.is_empty()
    }
}

/// A number token: its text exactly as written, always a finite decimal number
/// (`[+-]digits[.digits][e[+-]digits]`, or with the digits before the point left out).
/// JSON holds it as that string; a JSON number is accepted too and written canonically.
///
/// The text is a [`CompactString`]: a level is mostly number tokens, almost all of them under
/// 24 bytes, so they are kept inline instead of costing a heap allocation each (that was a
/// quarter of the read time).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Num(CompactString);

impl Num {
    /// The canonical spelling of `value`, as WED writes it: six decimals with trailing zeros
    /// (and a bare point) removed, `0` for zero. Values with more decimals are rounded to six,
    /// like WED does. Non-finite values become `0`.
    pub fn new(value: f64) -> Num {
        if !value.is_finite() {
            return Num("0".into());
        }
        let mut s = compact_str::format_compact!("{value:.6}");
        if s.contains('.') {
            while s.ends_with('0') {
                s.pop();
            }
            if s.ends_with('.') {
                s.pop();
            }
        }
        if s == "-0" {
            s = "0".into();
        }
        Num(s)
    }

    /// An integer, written without decimals.
    pub fn int(value: i64) -> Num {
        Num(value.to_compact_string())
    }

    /// A number token as written; `None` unless it is a finite decimal number.
    pub fn parse(text: &str) -> Option<Num> {
        is_number(text).then(|| Num(CompactString::from(text)))
    }

    /// The value.
    pub fn value(&self) -> f64 {
        self.0.parse().unwrap_or(0.0)
    }

    /// The text as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Num {
    fn default() -> Self {
        Num("0".into())
    }
}

impl From<f64> for Num {
    fn from(value: f64) -> Self {
        Num::new(value)
    }
}

impl fmt::Debug for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `text` is a decimal number token the readers accept (no `inf`, `nan`, hex, or
/// values that overflow `f64`).
pub fn is_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let whole = digits(&mut i);
    let mut mantissa = whole;
    if b.get(i) == Some(&b'.') {
        i += 1;
        mantissa += digits(&mut i);
    }
    if mantissa == 0 {
        return false;
    }
    let mut exponent = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exponent = true;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    // Without an exponent, fewer than 300 digits before the point cannot overflow.
    i == b.len() && ((!exponent && whole < 300) || text.parse::<f64>().is_ok_and(f64::is_finite))
}

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, or a string holding a decimal number as written")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
                Num::parse(v).ok_or_else(|| E::custom(format!("{v:?} is not a decimal number")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num::new(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num::int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num(v.to_compact_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Three numbers (a position, angles, a scale, a vertex, a colour).
pub type Vec3 = [Num; 3];

/// The values of three numbers.
pub fn values3(v: &Vec3) -> [f64; 3] {
    [v[0].value(), v[1].value(), v[2].value()]
}

/// Three numbers from values, canonically spelled.
pub fn nums3(v: [f64; 3]) -> Vec3 {
    [Num::new(v[0]), Num::new(v[1]), Num::new(v[2])]
}

/// One record of the file. The text dialects have `block`, the entities (`level`, `start`,
/// `light`, `sound`, `model`, `path`) and `object` (a group); `$$M` has the `M…` records,
/// told apart by the type number on their first line. In JSON the variant is the key:
/// `{"block": {…}}`, `{"m_model": {…}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    /// `block K { … }` (text dialects).
    Block(Block),
    /// `level K { … }`: the level entity (text dialects).
    Level(LevelEntity),
    /// `start K { … }`.
    Start(Start),
    /// `light K { … }`.
    Light(Light),
    /// `sound K { … }`.
    Sound(Sound),
    /// `model K { … }`.
    Model(Model),
    /// `path K { … }`.
    Path(Path),
    /// `object K { … }`: a group.
    Group(Group),
    /// `keyword [K] { … }` with a keyword this model does not type, kept as tokens.
    Other(Other),
    /// `$$M` type 0: the level, with every block nested inside.
    MLevel(MLevel),
    /// `$$M` type 5: the sun.
    MSun(MSun),
    /// `$$M` types 3 and 7: a model (7 is the extended form with 20 skills).
    MModel(MModel),
    /// `$$M` type 2: a light.
    MLight(MLight),
    /// `$$M` type 6: a path.
    MPath(MPath),
    /// `$$M` type 1: a start position.
    MStart(MStart),
    /// `$$M` record of another type (4, sound, has no known sample), kept as tokens.
    MOther(MOther),
}

impl Record {
    /// The record's layout differences.
    pub fn layout(&self) -> &Layout {
        match self {
            Record::Block(r) => &r.layout,
            Record::Level(r) => &r.layout,
            Record::Start(r) => &r.layout,
            Record::Light(r) => &r.layout,
            Record::Sound(r) => &r.layout,
            Record::Model(r) => &r.layout,
            Record::Path(r) => &r.layout,
            Record::Group(r) => &r.layout,
            Record::Other(r) => &r.layout,
            Record::MLevel(r) => &r.layout,
            Record::MSun(r) => &r.layout,
            Record::MModel(r) => &r.layout,
            Record::MLight(r) => &r.layout,
            Record::MPath(r) => &r.layout,
            Record::MStart(r) => &r.layout,
            Record::MOther(r) => &r.layout,
        }
    }

    /// The record's layout differences, mutably (clear them to write the record canonically).
    pub fn layout_mut(&mut self) -> &mut Layout {
        match self {
            Record::Block(r) => &mut r.layout,
            Record::Level(r) => &mut r.layout,
            Record::Start(r) => &mut r.layout,
            Record::Light(r) => &mut r.layout,
            Record::Sound(r) => &mut r.layout,
            Record::Model(r) => &mut r.layout,
            Record::Path(r) => &mut r.layout,
            Record::Group(r) => &mut r.layout,
            Record::Other(r) => &mut r.layout,
            Record::MLevel(r) => &mut r.layout,
            Record::MSun(r) => &mut r.layout,
            Record::MModel(r) => &mut r.layout,
            Record::MLight(r) => &mut r.layout,
            Record::MPath(r) => &mut r.layout,
            Record::MStart(r) => &mut r.layout,
            Record::MOther(r) => &mut r.layout,
        }
    }

    /// The keyword of a text record (`block`, `model`, `object`, …) or the `$$M` kind
    /// (`level`, `sun`, `model`, `light`, `path`, `start`, or the type number's kind).
    pub fn kind(&self) -> &str {
        match self {
            Record::Block(_) => "block",
            Record::Level(_) | Record::MLevel(_) => "level",
            Record::Start(_) | Record::MStart(_) => "start",
            Record::Light(_) | Record::MLight(_) => "light",
            Record::Sound(_) => "sound",
            Record::Model(_) | Record::MModel(_) => "model",
            Record::Path(_) | Record::MPath(_) => "path",
            Record::Group(_) => "object",
            Record::Other(o) => &o.keyword,
            Record::MSun(_) => "sun",
            Record::MOther(o) => m_kind(o.type_id).unwrap_or("other"),
        }
    }

    /// Whether this is a text entity record (the kinds that share the entity numbering).
    pub fn is_text_entity(&self) -> bool {
        matches!(
            self,
            Record::Level(_)
                | Record::Start(_)
                | Record::Light(_)
                | Record::Sound(_)
                | Record::Model(_)
                | Record::Path(_)
        ) || matches!(self, Record::Other(o) if !matches!(o.keyword.as_str(), "object" | "block"))
    }

    /// The number after a text record's keyword.
    pub fn number(&self) -> Option<u32> {
        match self {
            Record::Block(r) => r.number,
            Record::Level(r) => Some(r.number),
            Record::Start(r) => Some(r.number),
            Record::Light(r) => Some(r.number),
            Record::Sound(r) => Some(r.number),
            Record::Model(r) => Some(r.number),
            Record::Path(r) => Some(r.number),
            Record::Group(r) => Some(r.number),
            Record::Other(r) => r.number,
            _ => None,
        }
    }
}

/// The kind a `$$M` type number stands for (manual: 1 position, 2 light, 3 static entity,
/// 4 sound, 5 sun, 6 path, 7 extended entity; 0 is the level).
pub fn m_kind(type_id: u32) -> Option<&'static str> {
    Some(match type_id {
        0 => "level",
        1 => "start",
        2 => "light",
        3 | 7 => "model",
        4 => "sound",
        5 => "sun",
        6 => "path",
        _ => return None,
    })
}

/// A block (brush). Text dialects number it (`block K {`); in `$$M` it is nested in the level
/// record and numbered by a `// K` comment the writer derives from its position.
///
/// v510, v710 and `$$M` blocks have `vertices` and polygon faces; A4 blocks have no vertices
/// and plane faces ([`Face::plane`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// `K` of `block K {` (text dialects); `None` in `$$M`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// Vertex coordinates (empty in A4).
    #[serde(default)]
    pub vertices: Vec<Vec3>,
    /// Faces.
    pub faces: Vec<Face>,
    /// Block flags as written (`0000`, 32 digits for locked textures).
    pub flags: String,
    /// Block function (normally `ndef`).
    pub function: String,
    /// The index in the trailer (`{ flags function index }`); A4 has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// Tokens after the known trailer fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

impl Block {
    /// The three points of each face's plane (A4), in face order; `None` when a face has no
    /// plane (every other dialect).
    ///
    /// The points are as written: in the block's group frame. The plane's outward normal is
    /// `(p1 − p2) × (p3 − p2)` (notes §3).
    pub fn planes(&self) -> Option<Vec<[[f64; 3]; 3]>> {
        self.faces
            .iter()
            .map(|f| {
                f.plane
                    .as_ref()
                    .map(|p| [values3(&p[0]), values3(&p[1]), values3(&p[2])])
            })
            .collect()
    }
}

/// One face line.
///
/// * v510: `n i… : texture xoff yoff rot xscale yscale : flags ambient albedo material`
/// * v710: `n i… : texture ( t1 ) ( t2 ) xoff yoff rot xscale yscale : flags ambient albedo
///   material`
/// * `$$M`: `n i… : texture ( t1 ) ( t2 ) : flags ambient albedo material`
/// * A4: `( p1 ) ( p2 ) ( p3 ) texture xoff yoff rot xscale yscale : flags ambient albedo
///   material n2 c flags2`
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    /// Vertex indices (empty in A4).
    #[serde(default)]
    pub indices: Vec<u32>,
    /// A4: three points on the face's plane.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plane: Option<[Vec3; 3]>,
    /// Texture name (`#default`, `*water3`, cut to 15 characters in `$$M`).
    pub texture: String,
    /// Per-corner texture coordinates `[ u1 v1 u2 v2 … ]`, written by WED (wmpio 1.30) between
    /// the texture name and the texture vectors on faces of imported meshes (`$$M`; read in
    /// v710 text too). One `u v` pair per vertex index, in the same order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uvs: Option<Vec<Num>>,
    /// Texture vectors `t1`, `t2` (v710 and `$$M`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vectors: Option<[[Num; 4]; 2]>,
    /// x offset, y offset, rotation, x scale, y scale (text dialects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transform: Option<[Num; 5]>,
    /// Surface flags as written.
    pub flags: String,
    /// Ambient.
    pub ambient: Num,
    /// Albedo.
    pub albedo: Num,
    /// Material (normally `ndef`).
    pub material: String,
    /// A4 only: the three fields after the material, meaning unknown (notes §3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a4: Option<A4Tail>,
    /// Further tokens on the face's line, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
}

/// The end of an A4 face line: `ndef 0.0 0000` in every known file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct A4Tail {
    /// A second name (`ndef`).
    pub name: String,
    /// A number (`0.0`).
    pub value: Num,
    /// A second flags field (`0000`).
    pub flags: String,
}

/// `level K { … }`: the level's settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelEntity {
    /// `K` (0).
    pub number: u32,
    /// The comment on the header line (`Root` in WMPIO files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The WAD (`<office.$$w>`).
    pub wad: String,
    /// The palette (`<palette.pcx>`).
    pub palette: String,
    /// The three "sun angles" (notes §4: the first is always 30).
    pub sun: Vec<Num>,
    /// The script (`<OFFICE.wdl>`, `<ndef>` for none).
    pub script: String,
    /// Sun, ambient and fog colours, 0–100 (six lines; four in some A4 files).
    pub colors: Vec<Vec3>,
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `start K { name }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// `K`.
    pub number: u32,
    /// The comment on the header line (the name, in ACKWED 5 files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The name.
    pub name: String,
    /// Tokens after the name (the manual mentions an optional angle), kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `light K { R G B range [flags] }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Light {
    /// `K`.
    pub number: u32,
    /// The comment on the header line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Colour, 0–100.
    pub color: Vec3,
    /// Range.
    pub range: Num,
    /// A fifth field (flags), as `$$M` has; no known text file has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `sound K { <file> flags volume pitch time range }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sound {
    /// `K`.
    pub number: u32,
    /// The comment on the header line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The sound file (`<WATER.WAV>`).
    pub file: String,
    /// Sound flags (`0001`).
    pub flags: String,
    /// Volume, pitch, time, range.
    pub values: [Num; 4],
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `model K { … }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// `K`.
    pub number: u32,
    /// The comment on the header line (the name, in ACKWED 5 files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Scale.
    pub scale: Vec3,
    /// The entity file (`<lift1.wmb>`).
    pub file: String,
    /// The name.
    pub name: String,
    /// The action (`ndef` for none).
    pub action: String,
    /// Skills: the numbers on the skills line (8, or 20 in some ACKWED 5.46 models).
    pub skills: Vec<Num>,
    /// Flags as written (`0000`, 16 or 32 digits, `'00000000'` in A4).
    pub flags: String,
    /// Ambient.
    pub ambient: Num,
    /// Albedo (v710).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub albedo: Option<Num>,
    /// The line after the albedo (v710; `ndef`, probably the material).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// The line after that (v710; `ndef`, meaning unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name2: Option<String>,
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `path K { … }`. The node count N is not stored: it is `positions.len()`.
///
/// * v510 (and A4): `name`, a number of unknown meaning (`0`), N, N positions.
/// * v710: `name`, N, T, N positions, N skill lines, edge lines.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Path {
    /// `K`.
    pub number: u32,
    /// The comment on the header line (the name, in ACKWED 5 files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The name.
    pub name: String,
    /// v510: the number before N (`0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unknown: Option<Num>,
    /// v710: T, the "number of data triplets" (3·N + 2·E, notes §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triplets: Option<Num>,
    /// Node positions.
    pub positions: Vec<Vec3>,
    /// v710: per node, its skills line (6 numbers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<Vec<Num>>,
    /// v710: edge lines (node, node, and 4 more numbers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<Vec<Num>>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `object K { (pos) (angles) (scale) references }`: a group.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// `K`.
    pub number: u32,
    /// The comment on the header line: the group's only name (`Root`, `BRIDGE06`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Position relative to the parent group.
    pub position: Vec3,
    /// Pan, tilt, roll in radians.
    pub angles: Vec3,
    /// Scale.
    pub scale: Vec3,
    /// The reference lines in file order (`object 2, 6, 17`, `block 13`, `level 0`).
    pub members: Vec<Members>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// One reference line of a group: a keyword and numbers (`object 1, 2, 3`). Editors wrap after
/// ten numbers, repeating the keyword.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Members {
    /// `object` (sub-groups), `block`, or an entity keyword (`level`, `model`, `light`, …).
    pub kind: String,
    /// The numbers.
    pub ids: Vec<u32>,
}

/// A text record with a keyword this model does not type: `keyword [K] { tokens }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Other {
    /// The keyword.
    pub keyword: String,
    /// `K`, if written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// The comment on the header line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The tokens between the braces (nested braces included), as written.
    pub tokens: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `$$M` `{ //level 0 wad palette blocks… }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MLevel {
    /// The WAD, bare (`kbridge.$$w`).
    pub wad: String,
    /// The palette, bare.
    pub palette: String,
    /// All blocks of the level, in world coordinates.
    pub blocks: Vec<Block>,
    /// Spacing and comments that differ from the canonical layout (the blocks have their own).
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `$$M` `{ //sun 5 pan tilt }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MSun {
    /// The numbers (two: azimuth and elevation, in degrees).
    pub values: Vec<Num>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `$$M` `{ //model 3|7 … }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MModel {
    /// 3 (8 skills) or 7 (extended: 20 skills, albedo and more).
    pub type_id: u32,
    /// World position.
    pub position: Vec3,
    /// Pan, tilt, roll in degrees.
    pub angles: Vec3,
    /// Scale.
    pub scale: Vec3,
    /// The entity file, bare (`guard.mdl`).
    pub file: String,
    /// The name.
    pub name: String,
    /// The action (`ndef` for none).
    pub action: String,
    /// Skills (8 for type 3, 20 for type 7).
    pub skills: Vec<Num>,
    /// Flags as written.
    pub flags: String,
    /// Ambient.
    pub ambient: Num,
    /// Albedo (type 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub albedo: Option<Num>,
    /// The number of the entity's path (type 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Num>,
    /// The number of the entity it is attached to (type 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attach: Option<Num>,
    /// Material (type 7, when the entity has one: `mat_water1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// `string1` (MapBuilder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string1: Option<String>,
    /// `string2` (MapBuilder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string2: Option<String>,
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `$$M` `{ //light 2 pos angles R G B range flags }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MLight {
    /// World position.
    pub position: Vec3,
    /// Angles in degrees.
    pub angles: Vec3,
    /// Colour, 0–100.
    pub color: Vec3,
    /// Range.
    pub range: Num,
    /// Flags (the fifth field; absent in some writers' files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flags: Option<String>,
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `$$M` `{ //path 6 name N T positions skills edges }`; N is `positions.len()`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MPath {
    /// The name.
    pub name: String,
    /// T, the "number of data triplets" (3·N + 2·E).
    pub triplets: Num,
    /// Node positions (world).
    pub positions: Vec<Vec3>,
    /// Per node, its skills line (6 numbers).
    pub skills: Vec<Vec<Num>>,
    /// Edge lines: `from to length s1 s2 s3`.
    pub edges: Vec<Vec<Num>>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// `$$M` `{ 1 pos angles name }`: a start position.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MStart {
    /// World position.
    pub position: Vec3,
    /// Angles in degrees.
    pub angles: Vec3,
    /// The name.
    pub name: String,
    /// Tokens after the known fields, kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

/// A `$$M` record of a type this model does not type: `{ type tokens }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MOther {
    /// The type number.
    pub type_id: u32,
    /// The tokens after it (nested braces included), as written.
    pub tokens: Vec<String>,
    /// Spacing and comments that differ from the canonical layout.
    #[serde(default, skip_serializing_if = "Layout::is_canonical")]
    pub layout: Layout,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        for good in [
            "0",
            "-0.000000",
            "448.000122",
            "1.00",
            "010",
            ".5",
            "5.",
            "+1",
            "1e5",
            "-2E-3",
        ] {
            assert!(is_number(good), "{good}");
        }
        for bad in [
            "", "-", ".", "e5", "1e", "inf", "nan", "0x10", "1e999", "1.2.3", "1 ", "--1",
        ] {
            assert!(!is_number(bad), "{bad}");
        }
        assert_eq!(Num::new(2.2337100000001).as_str(), "2.23371");
        assert_eq!(Num::new(-0.0).as_str(), "0");
        assert_eq!(Num::new(-1e-9).as_str(), "0");
        assert_eq!(Num::new(1144.31543).as_str(), "1144.31543");
        assert_eq!(Num::new(30.0).as_str(), "30");
        assert_eq!(Num::new(f64::NAN).as_str(), "0");
        let n: Num = serde_json::from_str("\"-0.000000\"").unwrap_or_default();
        assert_eq!(n.as_str(), "-0.000000");
        let n: Num = serde_json::from_str("1.5").unwrap_or_default();
        assert_eq!(n.as_str(), "1.5");
        assert!(serde_json::from_str::<Num>("\"nan\"").is_err());
    }
}
