//! The lossless WMPB model: the file is a tree of records, and the model is that tree.
//!
//! Every record keeps its id, kind, the two header bytes after the kind and the size field as
//! read. Its payload is typed by kind (and, for kind 2 and the containers, by the layout table
//! in `read.rs`, keyed by the parent record and the child's id); whatever does not fit its
//! expected form exactly is kept as [`Body::Raw`] bytes, so [`super::write`] reproduces every
//! file that [`super::read`] accepts byte for byte.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::strings::RawString;

/// A whole WMPB file: the magic `WMPB`, then a sequence of records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wmpb {
    /// The top-level records, in file order: the file header (id 1, kind 4), the palette
    /// (id 2, kind 4), optionally the WAD name (id 4, kind 1), and the root object (id 1,
    /// kind 5).
    pub records: Vec<Record>,
}

/// One record: an 8-byte header (`id`, `kind`, two bytes, u32 size) and a payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Meaning depends on the parent (notes §7).
    pub id: u8,
    /// 0 doubles, 1 string, 2 data, 3 u32 value, 4 struct container, 5 object container.
    pub kind: u8,
    /// Header bytes 2 and 3 as read: `[kind + 1, 0]` in every known file (meaning unknown;
    /// [`super::validate`] reports other values).
    pub tag: [u8; 2],
    /// The size field as read: the whole record, header included. Informational:
    /// [`super::write`] always writes the size of what it writes, and
    /// [`super::validate`] reports a disagreement.
    pub size: u32,
    /// The payload.
    pub body: Body,
}

impl Record {
    /// A record with the usual tag (`[kind + 1, 0]`) and a size computed from `body`.
    pub fn new(id: u8, kind: u8, body: Body) -> Record {
        let mut record = Record {
            id,
            kind,
            tag: [kind.wrapping_add(1), 0],
            size: 0,
            body,
        };
        record.size = u32::try_from(record.encoded_len()).unwrap_or(u32::MAX);
        record
    }

    /// The size of the record as [`super::write`] writes it (header included).
    pub fn encoded_len(&self) -> u64 {
        8u64.saturating_add(self.body.encoded_len())
    }

    /// The children, when the body is a container.
    pub fn children(&self) -> &[Record] {
        match &self.body {
            Body::Container { children, .. } => children,
            _ => &[],
        }
    }

    /// The container prefix, when the body is a container.
    pub fn prefix(&self) -> Option<&[u8]> {
        match &self.body {
            Body::Container { prefix, .. } => Some(&prefix.0),
            _ => None,
        }
    }

    /// The first child with this id and kind.
    pub fn child(&self, id: u8, kind: u8) -> Option<&Record> {
        self.children()
            .iter()
            .find(|c| c.id == id && c.kind == kind)
    }

    /// The string, when the body is one.
    pub fn text(&self) -> Option<&RawString> {
        match &self.body {
            Body::Text { text } => Some(text),
            _ => None,
        }
    }

    /// The doubles, when the body holds a plain array of them.
    pub fn doubles(&self) -> Option<&[F64]> {
        match &self.body {
            Body::Doubles { values } => Some(values),
            _ => None,
        }
    }

    /// Three doubles (a position, angles or a scale).
    pub fn vec3(&self) -> Option<[f64; 3]> {
        match self.doubles()? {
            [x, y, z] => Some([x.0, y.0, z.0]),
            _ => None,
        }
    }

    /// The u32, when the body is one.
    pub fn value(&self) -> Option<u32> {
        match &self.body {
            Body::Value { value } => Some(*value),
            _ => None,
        }
    }
}

/// A record's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Body {
    /// Kind 0 (and the fixed-size kind-2 arrays: texture vectors, texture offset/rotation/scale):
    /// little-endian f64s, no count.
    Doubles {
        /// The values.
        values: Vec<F64>,
    },
    /// Kind 1: a NUL-terminated string (the NUL is not part of `text`), with no other NUL.
    Text {
        /// The bytes before the terminating NUL.
        text: RawString,
    },
    /// Kind 3: one little-endian u32.
    Value {
        /// The value.
        value: u32,
    },
    /// Kinds 4 and 5 and some kind-2 records: a fixed binary prefix, then child records that
    /// fill the rest of the payload exactly. The prefix length comes from the layout table.
    Container {
        /// The prefix, as read.
        prefix: Bytes,
        /// The child records.
        children: Vec<Record>,
    },
    /// Kind 2: u32 count, then count × 3 f64 (block vertices, path nodes).
    Points {
        /// The points.
        points: Vec<[F64; 3]>,
    },
    /// Kind 2: u32 count, then count f64 (skills).
    Counted {
        /// The values.
        values: Vec<F64>,
    },
    /// Kind 2: u32 rows, u32 columns, then rows × columns f64 (path node skills).
    Table {
        /// Rows.
        rows: u32,
        /// Columns.
        columns: u32,
        /// rows × columns values, row by row.
        values: Vec<F64>,
    },
    /// Kind 2: u32 count, then per polygon a u16 n and n u16 vertex indices (block faces).
    Polygons {
        /// The polygons.
        polygons: Vec<Vec<u16>>,
    },
    /// Kind 2: u32 count, then per edge u32 from, u32 to (0-based) and four f64 (path edges).
    Edges {
        /// The edges.
        edges: Vec<Edge>,
    },
    /// Anything else, byte for byte: unknown kinds, records the layout table does not know, and
    /// known records whose payload does not have the expected form.
    Raw {
        /// The payload.
        bytes: Bytes,
    },
}

impl Body {
    /// The payload size in bytes as [`super::write`] writes it.
    pub fn encoded_len(&self) -> u64 {
        let n = |len: usize| len as u64;
        match self {
            Body::Doubles { values } => n(values.len()).saturating_mul(8),
            Body::Text { text } => n(text.len()).saturating_add(1),
            Body::Value { .. } => 4,
            Body::Container { prefix, children } => {
                children.iter().fold(n(prefix.0.len()), |acc, c| {
                    acc.saturating_add(c.encoded_len())
                })
            }
            Body::Points { points } => n(points.len()).saturating_mul(24).saturating_add(4),
            Body::Counted { values } => n(values.len()).saturating_mul(8).saturating_add(4),
            Body::Table { values, .. } => n(values.len()).saturating_mul(8).saturating_add(8),
            Body::Polygons { polygons } => polygons.iter().fold(4u64, |acc, p| {
                acc.saturating_add(n(p.len()).saturating_mul(2).saturating_add(2))
            }),
            Body::Edges { edges } => n(edges.len()).saturating_mul(40).saturating_add(4),
            Body::Raw { bytes } => n(bytes.0.len()),
        }
    }
}

/// A path edge as WMPB stores it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edge {
    /// First node (0-based).
    pub from: u32,
    /// Second node (0-based).
    pub to: u32,
    /// Four values: the first is 1.0 in every known file (the `$$M` writes the edge length in
    /// its place), the other three are the edge skills.
    pub values: [F64; 4],
}

/// An f64 that round-trips exactly: equality is bit equality (so NaN equals itself and −0 is
/// not +0), and JSON holds finite values as numbers (exact with `serde_json`'s
/// `float_roundtrip`) and the others as the hex string of their bits (`"0x7ff8000000000000"`).
#[derive(Clone, Copy, Default)]
pub struct F64(pub f64);

impl PartialEq for F64 {
    fn eq(&self, other: &F64) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl fmt::Debug for F64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl From<f64> for F64 {
    fn from(v: f64) -> F64 {
        F64(v)
    }
}

impl Serialize for F64 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_str(&format!("{:#018x}", self.0.to_bits()))
        }
    }
}

impl<'de> Deserialize<'de> for F64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<F64, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = F64;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number or the hex string of an f64's bits")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<F64, E> {
                Ok(F64(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<F64, E> {
                Ok(F64(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<F64, E> {
                Ok(F64(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<F64, E> {
                v.strip_prefix("0x")
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .map(|bits| F64(f64::from_bits(bits)))
                    .ok_or_else(|| E::custom(format!("not an f64 bit pattern: {v:?}")))
            }
        }
        d.deserialize_any(V)
    }
}

/// Raw bytes; a hex string in JSON.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bytes({})", hex::encode(&self.0))
    }
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        let text = String::deserialize(d)?;
        hex::decode(&text)
            .map(Bytes)
            .map_err(|_| de::Error::custom("expected an even number of hex digits"))
    }
}
