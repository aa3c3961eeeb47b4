//! Typed accessors over the record tree: the file header, the palette, the objects and their
//! data containers, decoded as far as the corpus and its `$$M` oracles allow (notes §7; what is
//! verified and what is inferred is listed in the module docs of [`super`]).
//!
//! Accessors return `None` where a record is missing or was kept raw; [`super::validate`]
//! reports why.

use serde::Serialize;

use super::model::*;
use crate::formats::wmp::level::Transform;
use crate::io::Fields;
use crate::strings::RawString;

/// The file header (top-level record id 1, kind 4): a 24-byte prefix and a string.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    /// 710 in every known file.
    pub version: u32,
    /// 2 in every known file (meaning unknown).
    pub field1: u32,
    /// Blocks + entities + groups (the root included).
    pub items: u32,
    /// Blocks.
    pub blocks: u32,
    /// Entities, the level entity included.
    pub entities: u32,
    /// 0 in every known file (meaning unknown).
    pub field5: u32,
    /// The string child: `file created: DD.MM.YYYY, wmpio (1.30)\n`.
    pub created: Option<String>,
}

impl Wmpb {
    /// The top-level record with this id and kind.
    pub fn top(&self, id: u8, kind: u8) -> Option<&Record> {
        self.records.iter().find(|r| r.id == id && r.kind == kind)
    }

    /// The file header.
    pub fn header(&self) -> Option<Header> {
        let record = self.top(1, 4)?;
        let [version, field1, items, blocks, entities, field5] = u32s(record.prefix()?)?;
        Some(Header {
            version,
            field1,
            items,
            blocks,
            entities,
            field5,
            created: record
                .children()
                .iter()
                .find_map(|c| c.text())
                .map(RawString::display),
        })
    }

    /// The 768-byte palette (256 × RGB), from the string record inside top-level record id 2,
    /// kind 4 (kept raw, as it holds NULs; a palette with a single 0, at its end, reads as text
    /// and is given back with it).
    pub fn palette(&self) -> Option<Vec<u8>> {
        self.top(2, 4)?
            .children()
            .iter()
            .find_map(|c| match &c.body {
                Body::Raw { bytes } if c.kind == 1 => Some(bytes.0.clone()),
                Body::Text { text } => Some([text.as_bytes(), &[0]].concat()),
                _ => None,
            })
    }

    /// The WAD file (top-level string id 4; not in every file).
    pub fn wad(&self) -> Option<String> {
        self.top(4, 1)?.text().map(RawString::display)
    }

    /// The root object (top-level id 1, kind 5; class `level`, name `Root`).
    pub fn root(&self) -> Option<ObjectRef<'_>> {
        self.top(1, 5).map(ObjectRef)
    }
}

/// An object record (id 1, kind 5): class, name, position, angles, scale, a data container,
/// and, for the root and groups, child objects.
#[derive(Debug, Clone, Copy)]
pub struct ObjectRef<'a>(pub &'a Record);

impl<'a> ObjectRef<'a> {
    /// The record.
    pub fn record(&self) -> &'a Record {
        self.0
    }

    /// The first u16 of the prefix: an object type code (root `0x1`, group `0x3`, block
    /// `0x104`, light `0x25`, path `0x65`, model `0x235`, or `0x245` for a model the `$$M`
    /// writes as type 7, with 20 skills). Inferred.
    pub fn type_code(&self) -> Option<u16> {
        match self.0.prefix()? {
            [a, b, ..] => Some(u16::from_le_bytes([*a, *b])),
            _ => None,
        }
    }

    /// The second u16 of the prefix: the number of child objects.
    pub fn declared_objects(&self) -> Option<u16> {
        match self.0.prefix()? {
            [_, _, a, b, ..] => Some(u16::from_le_bytes([*a, *b])),
            _ => None,
        }
    }

    /// The class (`level`, `object`, `block`, `model`, `light`, `path`, …): string id 2.
    pub fn class(&self) -> Option<String> {
        self.0.child(2, 1)?.text().map(RawString::display)
    }

    /// The name: string id 3 (absent for most groups and blocks).
    pub fn name(&self) -> Option<String> {
        self.0.child(3, 1)?.text().map(RawString::display)
    }

    /// Position: doubles id 1.
    pub fn position(&self) -> Option<[f64; 3]> {
        self.0.child(1, 0)?.vec3()
    }

    /// Angles in radians: doubles id 3. See [`crate::formats::wmp::resolve`] for what they
    /// mean.
    pub fn angles(&self) -> Option<[f64; 3]> {
        self.0.child(3, 0)?.vec3()
    }

    /// Scale: doubles id 5.
    pub fn scale(&self) -> Option<[f64; 3]> {
        self.0.child(5, 0)?.vec3()
    }

    /// Position, angles and scale, each the identity where missing.
    pub fn transform(&self) -> Transform {
        Transform {
            position: self.position().unwrap_or([0.0; 3]),
            angles: self.angles().unwrap_or([0.0; 3]),
            scale: self.scale().unwrap_or([1.0; 3]),
        }
    }

    /// The child objects.
    pub fn objects(&self) -> impl Iterator<Item = ObjectRef<'a>> + 'a {
        self.0
            .children()
            .iter()
            .filter(|c| c.id == 1 && c.kind == 5)
            .map(ObjectRef)
    }

    /// The level data (container id 4), for the root.
    pub fn level_data(&self) -> Option<LevelData> {
        LevelData::decode(self.0.child(4, 5)?)
    }

    /// The model data (container id 9).
    pub fn model(&self) -> Option<ModelData> {
        ModelData::decode(self.0.child(9, 5)?)
    }

    /// The light data (container id 7).
    pub fn light(&self) -> Option<LightData> {
        LightData::decode(self.0.child(7, 5)?)
    }

    /// The path data (container id 10).
    pub fn path(&self) -> Option<PathData> {
        PathData::decode(self.0.child(10, 5)?)
    }

    /// The block geometry (container id 2).
    pub fn geometry(&self) -> Option<Geometry> {
        Geometry::decode(self.0.child(2, 5)?)
    }
}

/// The level data container (id 4, kind 5, inside the root).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelData {
    /// The first two u32 of the prefix (0 and 0 in every known file; meaning unknown).
    pub fields: [u32; 2],
    /// The three sun numbers: the u32 at prefix offset 8 (30 in every known file, like the
    /// first of the text dialects' three), then two f32: pan and tilt in degrees (*verified*:
    /// the `$$M` sun record holds them).
    pub sun: [f64; 3],
    /// The script (string id 5), e.g. `..\main.c`.
    pub script: Option<String>,
    /// The palette file (string id 6).
    pub palette: Option<String>,
    /// Value id 4 (0 in every known file; meaning unknown).
    pub value4: Option<u32>,
    /// Value id 2, read as `00 R G B` (inferred to be the sun colour).
    pub sun_color: Option<[u8; 3]>,
    /// Value id 3, read as `00 R G B` (inferred to be the ambient colour).
    pub ambient_color: Option<[u8; 3]>,
    /// Values id 1: `i R G B` with i = 0…3 (inferred to be the four fog colours).
    pub fog_colors: Vec<(u8, [u8; 3])>,
}

impl LevelData {
    fn decode(record: &Record) -> Option<LevelData> {
        let prefix = record.prefix()?;
        let [a, b, sun, pan, tilt] = u32s(prefix)?;
        let text = |id| {
            record
                .child(id, 1)
                .and_then(Record::text)
                .map(RawString::display)
        };
        let color = |id| record.child(id, 3).and_then(Record::value).map(rgb);
        Some(LevelData {
            fields: [a, b],
            sun: [
                f64::from(sun),
                f64::from(f32::from_bits(pan)),
                f64::from(f32::from_bits(tilt)),
            ],
            script: text(5),
            palette: text(6),
            value4: record.child(4, 3).and_then(Record::value),
            sun_color: color(2),
            ambient_color: color(3),
            fog_colors: record
                .children()
                .iter()
                .filter(|c| c.id == 1 && c.kind == 3)
                .filter_map(Record::value)
                .map(|v| (v.to_le_bytes()[0], rgb(v)))
                .collect(),
        })
    }
}

/// Bytes 1, 2, 3 of a little-endian u32.
fn rgb(v: u32) -> [u8; 3] {
    let [_, r, g, b] = v.to_le_bytes();
    [r, g, b]
}

/// The model data container (id 9, kind 5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelData {
    /// Prefix u32 0: 3 in every known file (not the `$$M` type: type 7 models have 3 too).
    pub field0: u32,
    /// Prefix u32 1: the entity flags (*verified*: the `$$M` writes them as binary digits, bit
    /// 31 first; 0x200 is `0000001000000000`).
    pub flags: u32,
    /// Prefix u32 2: 0x200 in every known file (meaning unknown).
    pub field2: u32,
    /// Prefix u32 3: 0 in every known file; inferred to be the ambient (the `$$M` writes 0).
    pub ambient: u32,
    /// Prefix f32 4: the albedo (50 in every known file; the `$$M` writes 50).
    pub albedo: f32,
    /// String id 3: the entity name (again).
    pub name: Option<String>,
    /// String id 11: the file.
    pub file: Option<String>,
    /// String id 12: the action (absent for none; the `$$M` writes `ndef`).
    pub action: Option<String>,
    /// String id 8: the material (type 7 only; the `$$M` writes it last).
    pub material: Option<String>,
    /// Counted doubles id 11: the skills (8, or 20 for the `$$M`'s type 7).
    pub skills: Vec<f64>,
}

impl ModelData {
    fn decode(record: &Record) -> Option<ModelData> {
        let [field0, flags, field2, ambient, albedo] = u32s(record.prefix()?)?;
        let text = |id| {
            record
                .child(id, 1)
                .and_then(Record::text)
                .map(RawString::display)
        };
        Some(ModelData {
            field0,
            flags,
            field2,
            ambient,
            albedo: f32::from_bits(albedo),
            name: text(3),
            file: text(11),
            action: text(12),
            material: text(8),
            skills: match record.child(11, 2).map(|r| &r.body) {
                Some(Body::Counted { values }) => values.iter().map(|v| v.0).collect(),
                _ => Vec::new(),
            },
        })
    }
}

/// The light data container (id 7, kind 5): a 24-byte prefix and no children.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LightData {
    /// Prefix u32 0: 2 in every known file (meaning unknown; perhaps a light mode).
    pub field0: u32,
    /// Prefix u32 1: 0 in every known file; inferred to be the flags (the `$$M` writes `0000`).
    pub flags: u32,
    /// Prefix u32 2–4: red, green, blue, 0–255 (*verified*: the `$$M` writes each × 100 / 255).
    pub color: [u32; 3],
    /// Prefix f32 5: the range (*verified*).
    pub range: f32,
}

impl LightData {
    fn decode(record: &Record) -> Option<LightData> {
        let [field0, flags, r, g, b, range] = u32s(record.prefix()?)?;
        Some(LightData {
            field0,
            flags,
            color: [r, g, b],
            range: f32::from_bits(range),
        })
    }
}

/// The path data container (id 10, kind 5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathData {
    /// The 8-byte prefix as two u32 (6 and 0 in the one known path; the 6 is perhaps the
    /// number of skills per node).
    pub fields: [u32; 2],
    /// String id 3: the name (again).
    pub name: Option<String>,
    /// Points id 1: the nodes, relative to the path object's position (*verified*).
    pub nodes: Vec<[f64; 3]>,
    /// Table id 13: the node skills, one row per node.
    pub skills: Vec<Vec<f64>>,
    /// Edges id 15 (0-based; the `$$M` writes them 1-based with the edge length as the third
    /// value).
    pub edges: Vec<Edge>,
}

impl PathData {
    fn decode(record: &Record) -> Option<PathData> {
        let [a, b] = u32s(record.prefix()?)?;
        Some(PathData {
            fields: [a, b],
            name: record
                .child(3, 1)
                .and_then(Record::text)
                .map(RawString::display),
            nodes: points(record.child(1, 2)),
            skills: match record.child(13, 2).map(|r| &r.body) {
                Some(Body::Table {
                    columns, values, ..
                }) if *columns > 0 => values
                    .chunks(*columns as usize)
                    .map(|row| row.iter().map(|v| v.0).collect())
                    .collect(),
                _ => Vec::new(),
            },
            edges: match record.child(15, 2).map(|r| &r.body) {
                Some(Body::Edges { edges }) => edges.clone(),
                _ => Vec::new(),
            },
        })
    }
}

/// The block geometry container (id 2, kind 5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Geometry {
    /// Prefix u32 0: the block's number (*verified*: the `$$M` block index).
    pub index: u32,
    /// Prefix u32 1: the block flags; bit 16 (0x10000) is "texture locked" (*verified*: such
    /// blocks keep their texture vectors in the block's frame, and the manual's locked-block
    /// string `00000000000000010000000000000000` is bit 16 written bit 31 first).
    pub flags: u32,
    /// Points id 1: vertices, relative to the block object's position (*verified*).
    pub vertices: Vec<[f64; 3]>,
    /// Polygons id 17: the faces' vertex indices (*verified*).
    pub polygons: Vec<Vec<u16>>,
    /// Containers id 18: one texture record per face, in face order.
    pub faces: Vec<FaceTexture>,
}

impl Geometry {
    fn decode(record: &Record) -> Option<Geometry> {
        let [index, flags] = u32s(record.prefix()?)?;
        Some(Geometry {
            index,
            flags,
            vertices: points(record.child(1, 2)),
            polygons: match record.child(17, 2).map(|r| &r.body) {
                Some(Body::Polygons { polygons }) => polygons.clone(),
                _ => Vec::new(),
            },
            faces: record
                .children()
                .iter()
                .filter(|c| c.id == 18 && c.kind == 2)
                .map(FaceTexture::decode)
                .collect(),
        })
    }
}

/// A face texture record (id 18, kind 2, a container with a 16-byte prefix).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FaceTexture {
    /// Prefix u32 0: the face's index in its block.
    pub index: u32,
    /// Prefix u32 1: the face flags. 0x10000000 (bit 28) is set on exactly the faces of
    /// texture-locked blocks (inferred to be a per-face lock; the `$$M` writes `0000`).
    pub flags: u32,
    /// Prefix u32 2: 0 in every known file; inferred to be the ambient (the `$$M` writes 0).
    pub ambient: u32,
    /// Prefix f32 3: the albedo (*verified*: 50, as the `$$M` writes).
    pub albedo: f32,
    /// String id 3: the texture name (*verified*; the `$$M` cuts it to 15 characters).
    pub texture: Option<String>,
    /// Doubles id 5: `t1` then `t2` (4 each) (*verified*; see [`Geometry::flags`] for the
    /// frame they are in).
    pub vectors: Option<[[f64; 4]; 2]>,
    /// Doubles id 9: x offset, y offset, rotation, x scale, y scale (0 0 0 1 1 in every known
    /// file, so unit and meaning are not verified).
    pub transform: Option<[f64; 5]>,
    /// Whether the record's prefix and children were as expected (false: some of the fields
    /// above are defaults).
    pub complete: bool,
}

impl FaceTexture {
    fn decode(record: &Record) -> FaceTexture {
        let prefix = record.prefix().and_then(u32s::<4>);
        let [index, flags, ambient, albedo] = prefix.unwrap_or([0; 4]);
        let doubles = |id| {
            record
                .child(id, 2)
                .and_then(Record::doubles)
                .map(|v| v.iter().map(|d| d.0).collect::<Vec<f64>>())
        };
        let vectors = doubles(5).and_then(|v| match v.as_slice() {
            [a, b, c, d, e, f, g, h] => Some([[*a, *b, *c, *d], [*e, *f, *g, *h]]),
            _ => None,
        });
        let transform = doubles(9).and_then(|v| <[f64; 5]>::try_from(v).ok());
        let texture = record
            .child(3, 1)
            .and_then(Record::text)
            .map(RawString::display);
        FaceTexture {
            index,
            flags,
            ambient,
            albedo: f32::from_bits(albedo),
            complete: prefix.is_some()
                && texture.is_some()
                && vectors.is_some()
                && transform.is_some(),
            texture,
            vectors,
            transform,
        }
    }
}

/// The points of a record, or none.
fn points(record: Option<&Record>) -> Vec<[f64; 3]> {
    match record.map(|r| &r.body) {
        Some(Body::Points { points }) => points.iter().map(|p| p.map(|v| v.0)).collect(),
        _ => Vec::new(),
    }
}

/// Exactly `N` little-endian u32 (f32 fields are read as their bits).
fn u32s<const N: usize>(bytes: &[u8]) -> Option<[u32; N]> {
    if bytes.len() != N.checked_mul(4)? {
        return None;
    }
    let mut fields = Fields::new(bytes);
    Some(std::array::from_fn(|_| fields.u32()))
}
