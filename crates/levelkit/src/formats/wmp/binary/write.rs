//! WMPB writer. Mirrors `read.rs`: the magic, then records; each record's header (with the size
//! of what is written, not the size field of the model), then its body.

use super::model::*;
use super::read::MAGIC;
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Wmpb;

/// Write a WMPB file.
pub fn write(wmpb: &Wmpb) -> Result<Vec<u8>> {
    let total = wmpb
        .records
        .iter()
        .fold(4u64, |acc, r| acc.saturating_add(r.encoded_len()));
    let mut w = ByteWriter::with_capacity(usize::try_from(total).unwrap_or(0));
    write_magic(&mut w);
    write_records(&mut w, &wmpb.records, "records")?;
    Ok(w.into_inner())
}

/// The magic.
pub fn write_magic(w: &mut ByteWriter) {
    w.put_bytes(MAGIC);
}

fn write_records(w: &mut ByteWriter, records: &[Record], name: &str) -> Result<()> {
    for (i, record) in records.iter().enumerate() {
        write_record(w, record).map_err(|e| e.in_path(format!("{name}[{i}]")))?;
    }
    Ok(())
}

/// One record: header, then body.
pub fn write_record(w: &mut ByteWriter, record: &Record) -> Result<()> {
    let size = u32::try_from(record.encoded_len()).map_err(|_| {
        Error::malformed(
            F,
            Location::default(),
            format!(
                "record (id {}, kind {}) would be {} bytes, more than a u32 size field holds",
                record.id,
                record.kind,
                record.encoded_len()
            ),
        )
    })?;
    w.put_u8(record.id);
    w.put_u8(record.kind);
    w.put_bytes(&record.tag);
    w.put_u32_le(size);
    write_body(w, &record.body)
}

fn write_body(w: &mut ByteWriter, body: &Body) -> Result<()> {
    match body {
        Body::Doubles { values } => write_f64s(w, values),
        Body::Text { text } => {
            if text.as_bytes().contains(&0) {
                return Err(malformed("a string record's text contains a NUL byte"));
            }
            w.put_bytes(text.as_bytes());
            w.put_u8(0);
        }
        Body::Value { value } => w.put_u32_le(*value),
        Body::Container { prefix, children } => {
            w.put_bytes(&prefix.0);
            write_records(w, children, "children")?;
        }
        Body::Points { points } => {
            w.put_u32_le(count(points.len(), "points")?);
            for p in points {
                write_f64s(w, p);
            }
        }
        Body::Counted { values } => {
            w.put_u32_le(count(values.len(), "values")?);
            write_f64s(w, values);
        }
        Body::Table {
            rows,
            columns,
            values,
        } => {
            let cells = u64::from(*rows).saturating_mul(u64::from(*columns));
            if cells != values.len() as u64 {
                return Err(malformed(format!(
                    "a table of {rows} × {columns} holds {} values",
                    values.len()
                )));
            }
            w.put_u32_le(*rows);
            w.put_u32_le(*columns);
            write_f64s(w, values);
        }
        Body::Polygons { polygons } => {
            w.put_u32_le(count(polygons.len(), "polygons")?);
            for p in polygons {
                let n = u16::try_from(p.len())
                    .map_err(|_| malformed(format!("a polygon has {} vertices", p.len())))?;
                w.put_u16_le(n);
                for &i in p {
                    w.put_u16_le(i);
                }
            }
        }
        Body::Edges { edges } => {
            w.put_u32_le(count(edges.len(), "edges")?);
            for e in edges {
                w.put_u32_le(e.from);
                w.put_u32_le(e.to);
                write_f64s(w, &e.values);
            }
        }
        Body::Raw { bytes } => w.put_bytes(&bytes.0),
    }
    Ok(())
}

fn write_f64s(w: &mut ByteWriter, values: &[F64]) {
    for v in values {
        w.put_bytes(&v.0.to_le_bytes());
    }
}

fn count(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| malformed(format!("{n} {what} do not fit a u32 count")))
}

fn malformed(message: impl Into<String>) -> Error {
    Error::malformed(F, Location::default(), message)
}
