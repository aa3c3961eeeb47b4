//! The text members of the 3D GameStudio level family: the `.wmp` dialects A4, v510 and v710,
//! and the compiler intermediate `$$M` (`version 711`), read and written losslessly.
//!
//! Spec: `shared/specs/wmp.txt` (the Conitec manual page: v710 and `$$M`) as corrected and
//! completed by `shared/specs/wmp-notes.md`; where they disagree the notes win. Every layout
//! rule below was checked against real files (ACKWED 4.24–6.731, WMPIO 1.19, wmpio 1.30): all
//! of them are in the canonical layout described below, to the byte.
//!
//! # Dialects
//!
//! | Dialect | First lines | Blocks | Faces |
//! |---|---|---|---|
//! | [`Dialect::A4`] | `// WMP2`, `// ACKWED V 4.xx`, no `version` | three points per face plane | `( p ) ( p ) ( p ) tex xoff yoff rot xs ys : flags ambient albedo material n2 c flags2` |
//! | [`Dialect::V510`] | `version 510` | `vertices`, `faces`, polygons | `n i… : tex xoff yoff rot xs ys : flags ambient albedo material` |
//! | [`Dialect::V710`] | `version 710` | same | adds texture vectors `( t1 ) ( t2 )` before the offsets |
//! | [`Dialect::DollarM`] | `version 711` | same, world coordinates, nested in the level record | vectors, no offsets |
//!
//! Detection (notes §1): the first token after the comment lines is `version` with 711
//! (`$$M`), 510 or 710, or `blocks` (A4). WMPB (`WMPB` magic) is [`super::binary`]'s. An
//! Acknex 3 `.wmp` (the older 2.5D level: `VERTEX`, `REGION`, `WALL` … lines ending in `;`,
//! `firoball/WMPio`; [`crate::registry::is_acknex3_wmp`]) is refused as
//! [`crate::ErrorKind::Unsupported`] with a message naming "Acknex 3 WMP".
//!
//! **Per-corner texture coordinates.** WED (wmpio 1.30, `version 711`) writes faces of imported
//! meshes with `[ u1 v1 u2 v2 … ]` between the texture name and the texture vectors
//! (`3  0 13 14 : 20___Default [ -0.1641 0.6953 … ] ( 0.72 0 -2.0 0 ) …`, issue 17): one `u v`
//! pair per corner, in texture units. They are read into [`Face::uvs`] (at most two numbers per
//! corner; the brackets must stand apart as WED writes them), written back byte for byte,
//! carried into [`super::Face::uvs`] and used as the scene's corner coordinates (not rescaled
//! by a WAD texture's size). No corpus file has them (the fixture in `tests/it/wmp_issue17.rs`
//! is our sample with WED's form inserted). The v710 `.wmp` text grammar has the same place
//! for them and levelkit reads and writes them there too, but no v710 file with them is known:
//! WED's own v710 writer is not shown to produce them (whether WMPB carries them was not
//! checked).
//!
//! Text records: `block`, `level`, `start`, `light`, `sound`, `model`, `path` and `object`
//! (groups) with every field per dialect ([`Record`]); any other `keyword [K] { … }` is kept as
//! tokens ([`Other`]). `$$M` records (`{ type … }`) are typed by their type number: 0 level (with
//! all blocks nested), 5 sun, 3 and 7 model, 2 light, 6 path, 1 start; other types (4, sound,
//! has no known sample) are kept as tokens.
//!
//! # What is kept, and how
//!
//! * **Values**, typed: numbers as [`Num`] (the text as written: `-0.000000`, `448.000122`,
//!   `1.00`, `010`, and its value), integers (counts, indices, record numbers) as `u32`, names
//!   and flags as strings exactly as written (`'00000000'` keeps its quotes, `<office.$$w>` its
//!   brackets, `$$M` names are bare). Strings hold one character per byte (Latin-1), so every
//!   byte string survives JSON.
//! * **Counts that define structure are not stored**: `vertices V`, `faces F`, a face's vertex
//!   count and a path's node count N are written from the lists. Counts that only describe
//!   (`blocks N` in the header, a path's triplet count T) are stored as written and checked by
//!   [`validate`].
//! * **Comments that carry meaning are typed**: the header comment lines
//!   ([`Header::comments`]), a group's name (`object 1 {  // BRIDGE06`, [`Group::name`]) and an
//!   entity's header comment (`model 3 {   // Lampe_mdl_001`). `$$M` comments (`{ //model`,
//!   `{   // 12` on blocks) are derived from the type and position when writing.
//! * **Everything else between tokens** (other comments such as `// face 1`, unusual spacing,
//!   a mix of CRLF and LF) is kept per record in a [`Layout`] that holds only what differs from
//!   the canonical layout, the one the editors write (tabs, one item per line, the file's line
//!   ending). The writer puts it back while the record keeps its token count; a record whose
//!   shape changed is written canonically. A record built from scratch has no layout and comes
//!   out exactly as WED would write it.
//! * **The `wed { … }` section** (palette, WAD list, views, bookmarks) is kept verbatim
//!   ([`Header::wed`]).
//!
//! So `write(read(x)) == x` for every file that reads, and the JSON of the model
//! (`serde_json`) rebuilds the same bytes.
//!
//! # Known variations, read leniently
//!
//! * Level records with four colour lines instead of six (ACKWED 4.24); sun numbers read up to
//!   the script name.
//! * Lights with four fields (text) or five (`$$M`, the fifth being flags): both read, the
//!   other form is a [`validate`] warning.
//! * `$$M` type 7 models: `ambient albedo path attach`, then up to three name lines (the
//!   material, written by wmpio only when set: `mat_water1` in Ackmania's `kbridge.$$M`; and
//!   MapBuilder's `string1`/`string2`); anything further is kept as [`MModel::extra`].
//! * v710 models add `albedo` and two name lines (`ndef ndef`) after the ambient.
//! * Model skills are the numbers on the skills line: 8 in most files, 20 in some models of
//!   ACKWED 5.46 (v510, not listed in the notes), 8 or 20 in `$$M` types 3 and 7.
//! * `<ndef>` as the level script means none.
//! * A4 model flags in quotes of any length (`'0000'`, `'00000000'`, 32 digits); 4, 16 and 32
//!   digit flags elsewhere.
//! * Tokens a record does not define (up to its `}`, or up to the end of a face line) are kept
//!   in an `extra` list and reported by [`validate`].
//!
//! # The shared level model
//!
//! [`to_level`] gives the meaning ([`Level`]): text angles in radians, `$$M` angles in degrees
//! ([`Level::angles_in_degrees`]); group membership both in the group lists and in
//! `Block::group` / `Entity::group`; entity numbers as written in text files and the record
//! index in `$$M` (the level record is 0, the sun 1); everything [`Level`] has no field for in
//! [`Entity::fields`](crate::formats::wmp::level::Entity::fields) under the names listed on
//! [`to_level`]. A4 blocks come without vertices (faces without indices): their planes are
//! [`WmpText::planes`], in the same block and face order. [`from_level`] writes v710 or `$$M`
//! in the editors' layout from a level and reads the same field names back.
//!
//! # Errors and limits
//!
//! A read error has the line and column of the token where the file stops making sense and says
//! what was expected there (`expected ':' after the face's vertex indices, found 'a'`); a file
//! that ends too early is [`ErrorKind::Truncated`](crate::ErrorKind::Truncated). Every token kept
//! is charged to the [`Limits`] budget, declared counts are checked against `max_count` and never
//! preallocated, and the reader does not recurse (kept `{ … }` tokens nest at most `max_depth`
//! deep).
//!
//! # Not supported
//!
//! Group resolution, A4 plane intersection and texture vectors from offsets live in the level
//! model's tools ([`super::level`], [`super::resolve`]); [`WmpText::planes`] gives the A4 planes.
//! Integers must be spelled plainly (`07` is refused where a count or index is expected).
//!
//! ```
//! use levelkit::formats::wmp::text::{self, Dialect};
//!
//! let src = b"// wmpio (1.30), 19.07.2014\r\n\r\nversion 711\r\n\r\n\r\n{ //level\r\n\t0\r\n\
//!     \tdemo.$$w\r\n\tpalette.pcx\r\n}\r\n{ //sun\r\n\t5\r\n\t0\r\n\t60\r\n}\r\n{ //light\r\n\
//!     \t2\r\n\t1 2 3\r\n\t0 0 0\r\n\t100 50 -0.000000 400 0000\r\n}\r\n";
//! let level = text::read(src)?;
//! assert_eq!(level.dialect(), Dialect::DollarM);
//! assert_eq!(level.write()?, src);
//! let (meaning, warnings) = level.to_level();
//! assert!(warnings.is_empty());
//! assert_eq!(meaning.settings.sun, [0.0, 60.0]);
//! assert_eq!(meaning.entities[0].transform.position, [1.0, 2.0, 3.0]);
//! # Ok::<(), levelkit::Error>(())
//! ```

mod level;
mod lex;
mod model;
mod read;
mod validate;
mod write;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

pub use level::{DOLLAR_M_TEXTURE_LEN, from_level, strip_angles, to_level};
pub use model::*;
pub use read::{read, read_with};
pub use validate::validate;
pub use write::write;

use crate::error::{Result, Warning};
use crate::formats::wmp::level::Level;
use crate::limits::Limits;

impl WmpText {
    /// Read a file (see [`read`]).
    pub fn read(bytes: &[u8]) -> Result<WmpText> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<WmpText> {
        read_with(bytes, limits)
    }

    /// Write the file (see [`write()`]).
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Check the file and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The meaning of the file (see [`to_level`]).
    pub fn to_level(&self) -> (Level, Vec<Warning>) {
        to_level(self)
    }

    /// A file of `dialect` (v710 or `$$M`) for a level (see [`from_level`]).
    pub fn from_level(level: &Level, dialect: Dialect) -> Result<(WmpText, Vec<Warning>)> {
        from_level(level, dialect)
    }

    /// The blocks, in order: top-level `block` records in text dialects, the blocks nested in
    /// the level record in `$$M`. Their index is the index of [`Level::blocks`].
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.records.iter().flat_map(|r| match r {
            Record::Block(b) => std::slice::from_ref(b).iter(),
            Record::MLevel(l) => l.blocks.iter(),
            _ => [].iter(),
        })
    }

    /// The groups (`object` records), in order.
    pub fn groups(&self) -> impl Iterator<Item = &Group> {
        self.records.iter().filter_map(|r| match r {
            Record::Group(g) => Some(g),
            _ => None,
        })
    }

    /// A4: per block (in [`Level::blocks`] order), per face, the three points of the face's
    /// plane as written, in the block's group frame; the outward normal is
    /// `(p1 − p2) × (p3 − p2)`. Empty lists for blocks of other dialects.
    pub fn planes(&self) -> Vec<Vec<[[f64; 3]; 3]>> {
        self.blocks()
            .map(|b| b.planes().unwrap_or_default())
            .collect()
    }

    /// Counts for `levelkit info`.
    pub fn summary(&self) -> Summary {
        let editor = self
            .header
            .comments
            .iter()
            .map(|c| c.trim_start_matches('/').trim())
            .find(|c| !c.is_empty() && *c != "WMP2" && !c.starts_with("Created"))
            .map(str::to_owned);
        let mut textures = BTreeSet::new();
        let (mut blocks, mut faces, mut vertices) = (0usize, 0usize, 0usize);
        for b in self.blocks() {
            blocks = blocks.saturating_add(1);
            faces = faces.saturating_add(b.faces.len());
            vertices = vertices.saturating_add(b.vertices.len());
            textures.extend(b.faces.iter().map(|f| f.texture.as_str()));
        }
        Summary {
            dialect: self.dialect,
            editor,
            line_ending: match self.line_ending {
                LineEnding::Lf => "lf",
                LineEnding::CrLf => "crlf",
            },
            blocks,
            faces,
            vertices,
            textures: textures.len(),
            entities: level::kinds(self),
            groups: self.groups().count(),
        }
    }
}

/// What `levelkit info` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The dialect.
    pub dialect: Dialect,
    /// The program that wrote the file, from the header comments (`ACKWED V 5.22.01`,
    /// `wmpio (1.30), 23.07.2014`).
    pub editor: Option<String>,
    /// `"lf"` or `"crlf"`.
    pub line_ending: &'static str,
    /// Blocks.
    pub blocks: usize,
    /// Faces of all blocks.
    pub faces: usize,
    /// Vertices of all blocks (0 in A4).
    pub vertices: usize,
    /// Distinct texture names.
    pub textures: usize,
    /// Entity records by kind (`model`, `light`, …; the level included in text dialects).
    pub entities: BTreeMap<String, usize>,
    /// Groups.
    pub groups: usize,
}
