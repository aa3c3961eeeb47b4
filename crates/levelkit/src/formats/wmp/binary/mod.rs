//! WMPB: the binary level format of 3D GameStudio A7/A8 WED (`wmpio 1.30`), magic `WMPB`.
//!
//! No public description exists. The structure follows `shared/specs/wmp-notes.md` §7, which
//! inferred it from 22 files, and was checked here against the two corpus levels that come with
//! the `$$M` WED wrote from them (Ackmania `bosslevel` and `kbridge`): see
//! `tests/it/wmpb.rs`, which resolves the groups ([`super::resolve`]) and compares blocks and
//! entities with the `$$M`.
//!
//! # Layout
//!
//! After the magic, the file is a sequence of records, each an 8-byte header (`id`, `kind`,
//! two bytes that are `kind + 1` and `0` in every known file, u32 size including the header)
//! and a payload. Kind 0: f64s; 1: a NUL-terminated string; 2: data (counted arrays, or a
//! container); 3: a u32; 4 and 5: containers. A container has a fixed prefix, whose length is
//! not stored, then child records; the prefix lengths come from a table keyed by the parent
//! record and the child's id ([`layout`]).
//!
//! | Where | id / kind | Payload | Status |
//! |---|---|---|---|
//! | top | 1 / 4 | header: u32 version (710), u32 2, u32 items, u32 blocks, u32 entities, u32 0; a string `file created: …, wmpio (1.30)` | counts verified |
//! | top | 2 / 4 | prefix 0; a kind-1 record holding the 768-byte palette (kept raw: it has NULs) | |
//! | top | 4 / 1 | the WAD file name (not in every file) | inferred |
//! | top | 1 / 5 | the root object | verified |
//! | object | 1 / 5 | object: prefix u16 type code, u16 number of child objects, u32 0; children: class (2 / 1), name (3 / 1, optional), position (1 / 0), angles in radians (3 / 0), scale (5 / 0), a data container, child objects | verified |
//! | root | 4 / 5 | level data: prefix u32 0, u32 0, u32 30, f32 sun pan, f32 sun tilt; children: value 4 / 3, script 5 / 1, palette file 6 / 1, fog colours 1 / 3 (`i R G B`, i = 0…3), sun colour 2 / 3, ambient 3 / 3 | sun verified, colours inferred |
//! | block | 2 / 5 | geometry: prefix u32 block number, u32 block flags (bit 16: texture lock); vertices 1 / 2 (u32 n, n × 3 f64, relative to the block position), faces 17 / 2 (u32 n, per face u16 k and k × u16), one face record 18 / 2 per face | verified |
//! | geometry | 18 / 2 | face record: prefix u32 face index, u32 flags (bit 28 on faces of locked blocks), u32 ambient, f32 albedo; texture name 3 / 1, texture vectors 5 / 2 (8 f64: t1, t2), offset/rotation/scale 9 / 2 (5 f64) | vectors and albedo verified |
//! | model | 9 / 5 | prefix u32 3, u32 flags, u32 0x200, u32 ambient, f32 albedo; name 3 / 1, file 11 / 1, action 12 / 1 (optional), material 8 / 1 (optional), skills 11 / 2 (u32 n, n f64) | flags, names, skills verified |
//! | light | 7 / 5 | prefix u32 2, u32 flags, u32 R, G, B (0–255), f32 range; no children | colour and range verified |
//! | path | 10 / 5 | prefix u32 6, u32 0; name 3 / 1, nodes 1 / 2 (relative to the path position), node skills 13 / 2 (u32 rows, u32 columns, f64s), edges 15 / 2 (u32 n, per edge u32 from, u32 to, 4 f64) | nodes and edges verified |
//!
//! Corrections to the notes: the model prefix's first u32 is 3 for every model, the `$$M`'s
//! type 7 ones included (the type shows in the object type code, `0x245`, and in the 20
//! skills); the light prefix is 24 bytes with the colour as three u32; entity flags are written
//! by WED bit 31 first ([`flag_string`]); kind 2 records are not all counted (texture vectors
//! and offsets are plain f64 arrays, node skills have two counts).
//!
//! # Reading and writing
//!
//! [`read`] checks the magic, then requires every record sequence to fill its parent exactly
//! (a size below 8 or past the parent's end is an error with the record's offset and path,
//! `records[3].children[5]`) and the file to hold its root object, so every truncated file is
//! an error. Inside that frame it is lenient: a payload that is not of the form the layout
//! table expects is kept as [`Body::Raw`] and reported by [`validate`]. Counts are checked
//! against the bytes left before anything is allocated, and records, allocation and nesting
//! are charged to the [`Limits`]. [`write()`] writes each record's size from its body, so a
//! model edited in JSON writes a consistent file.
//!
//! # Kept raw or not understood
//!
//! The model keeps every one of these as read, so files are written back byte for byte:
//!
//! * the two header bytes after the kind ([`Record::tag`]) and the size field;
//! * every container prefix as bytes ([`Body::Container`]), decoded by the accessors in
//!   [`view`] where a meaning is known; unknown prefix fields: header u32 1 and 5, the object
//!   type code (inferred from its values: `0x1` root, `0x3` group, `0x104` block, `0x25`
//!   light, `0x65` path, `0x235` model, `0x245` the `$$M`'s extended model, type 7), the first
//!   two u32 of the level data, model u32 0 and 2, light u32 0, path u32 0 and 1;
//! * whether level data value id 4 means anything, which colour record is sun and which
//!   ambient, and the byte order of the packed colours (read as `i R G B`);
//! * the unit and meaning of a face's offset/rotation/scale (all `0 0 0 1 1` in the corpus);
//!   the face flags other than bit 28 and the face "ambient";
//! * the palette (a kind-1 record with NULs in it, [`Body::Raw`]);
//! * records the layout table does not know (for example the data containers of `start`,
//!   `sound` and `region` objects, which the corpus lacks) and known records whose payload does
//!   not have the expected form: [`Body::Raw`], reported by [`validate`];
//! * the middle angle's axis and sign: WMPB angles are `(a0, a1, a2)` with a0 the pan and a2
//!   the negated tilt, verified; a1 is 0 in every corpus file (see [`super::resolve`]).
//!
//! ```
//! use levelkit::formats::wmp::{binary, resolve};
//!
//! // A level made by our sample builder (`binary::samples::level`), written and read back.
//! let bytes = binary::samples::level().write()?;
//! let wmpb = binary::read(&bytes)?;
//! assert_eq!(wmpb.write()?, bytes);
//! assert_eq!(wmpb.summary().blocks, 2);
//! assert!(wmpb.validate().is_empty());
//! let (level, warnings) = wmpb.to_level();
//! assert!(warnings.is_empty());
//! let (world, _) = resolve::resolve(&level);
//! assert!(world.angles_in_degrees && world.groups.is_empty());
//! # Ok::<(), levelkit::Error>(())
//! ```

mod level;
mod model;
mod read;
pub mod samples;
mod validate;
pub mod view;
mod write;

use std::collections::BTreeMap;

use serde::Serialize;

pub use level::{flag_string, to_level};
pub use model::*;
pub use read::{Layout, MAGIC, Parent, layout, read, read_with};
pub use validate::validate;
pub use view::{
    FaceTexture, Geometry, Header, LevelData, LightData, ModelData, ObjectRef, PathData,
};
pub use write::write;

use crate::error::{Result, Warning};
use crate::formats::wmp::level::Level;
use crate::limits::Limits;

impl Wmpb {
    /// Read a file (see [`read`]).
    pub fn read(bytes: &[u8]) -> Result<Wmpb> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wmpb> {
        read_with(bytes, limits)
    }

    /// Write the file.
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Check the model and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// The level in the shared model (see [`to_level`]).
    pub fn to_level(&self) -> (Level, Vec<Warning>) {
        to_level(self)
    }

    /// Summarise the file.
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            version: self.header().map(|h| h.version),
            blocks: 0,
            faces: 0,
            entities: BTreeMap::new(),
            groups: 0,
            unknown_records: 0,
        };
        if let Some(root) = self.root() {
            summarise(root, &mut s);
        }
        s.unknown_records = self.records.iter().map(|r| count_raw(r, Parent::Top)).sum();
        s
    }
}

fn summarise(obj: ObjectRef<'_>, s: &mut Summary) {
    match obj.class().as_deref() {
        Some("object") => s.groups = s.groups.saturating_add(1),
        Some("block") => {
            s.blocks = s.blocks.saturating_add(1);
            let faces = obj.geometry().map_or(0, |g| g.polygons.len());
            s.faces = s.faces.saturating_add(faces);
        }
        class => {
            let n = s
                .entities
                .entry(class.unwrap_or("?").to_owned())
                .or_insert(0);
            *n = n.saturating_add(1);
        }
    }
    for child in obj.objects() {
        summarise(child, s);
    }
}

/// Raw records under `record` (itself included), the palette excepted.
fn count_raw(record: &Record, parent: Parent) -> usize {
    let own = match &record.body {
        Body::Raw { .. } if !(parent == Parent::Record(2, 4) && record.kind == 1) => 1,
        _ => 0,
    };
    let this = Parent::Record(record.id, record.kind);
    record
        .children()
        .iter()
        .fold(own, |acc, c| acc.saturating_add(count_raw(c, this)))
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The header's version (710), if the header reads.
    pub version: Option<u32>,
    /// Blocks.
    pub blocks: usize,
    /// Faces over all blocks.
    pub faces: usize,
    /// Objects other than blocks and groups, by class (`level`, `model`, `light`, …).
    pub entities: BTreeMap<String, usize>,
    /// Groups (`object`s; the root is counted as `level`).
    pub groups: usize,
    /// Records kept raw (unknown, or not of the expected form), the palette excepted.
    pub unknown_records: usize,
}
