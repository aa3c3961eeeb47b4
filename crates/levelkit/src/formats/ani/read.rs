//! ANI reader. Mirrors `write.rs` function by function: header, name, records, record, trailing
//! bytes.
//!
//! Every count is checked against the bytes that remain before anything is allocated: the name
//! length against the file, the record count (at least [`RECORD_SIZE`] bytes each) against what
//! follows the name, and against [`Limits::max_count`].

#![deny(clippy::arithmetic_side_effects)]

use std::mem::size_of;

use super::model::*;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::{ByteReader, Fields};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Ani;

/// Read an ANI file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Ani> {
    read_with(bytes, &Limits::default())
}

/// Read an ANI file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Ani> {
    let mut budget = limits.budget(F);
    let mut r = ByteReader::new(F, bytes);
    let (header, count, name_len) = read_header(&mut r)?;
    let name = read_name(&mut r, name_len, &mut budget)?;
    let records = read_records(&mut r, count, &mut budget)?;
    let trailing = read_trailing(&mut r, &mut budget)?;
    Ok(Ani {
        header,
        name,
        records,
        trailing,
    })
}

/// The 32-byte header: the model's words, the record count and the name length.
fn read_header(r: &mut ByteReader<'_>) -> Result<(Header, u32, u32)> {
    let mut f = Fields::new(r.bytes(HEADER_SIZE, "the 32-byte ANI header")?);
    let signature = f.u32();
    let reserved_04 = f.u32();
    let flags = f.u32();
    let count = f.u32();
    let name_len = f.u32();
    let reserved_14 = [f.u32(), f.u32(), f.u32()];
    let header = Header {
        signature,
        reserved_04,
        flags,
        reserved_14,
    };
    Ok((header, count, name_len))
}

/// The name: `name_len` bytes, not NUL-terminated.
fn read_name(r: &mut ByteReader<'_>, name_len: u32, budget: &mut Budget) -> Result<RawString> {
    let at = r.offset();
    let len = usize::try_from(name_len).unwrap_or(usize::MAX);
    if len > r.remaining() {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(at).with_path("name"),
            format!(
                "the header's name length {name_len} (at 0x10) runs past the end of the file: \
                 {} bytes are left after the header",
                r.remaining()
            ),
        ));
    }
    budget.charge(len, "the name", Location::at(at))?;
    Ok(RawString(r.bytes(len, "the name")?.to_vec()))
}

/// `count` records, each at least [`RECORD_SIZE`] bytes.
fn read_records(r: &mut ByteReader<'_>, count: u32, budget: &mut Budget) -> Result<Vec<Record>> {
    let at = r.offset();
    r.ensure(u64::from(count), RECORD_SIZE as u64, "the frame records")
        .map_err(|_| {
            Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(at).with_path("records"),
                format!(
                    "the header's record count {count} (at 0xc) needs at least {} bytes of \
                     {RECORD_SIZE}-byte records after the name, but only {} are left",
                    u64::from(count).saturating_mul(RECORD_SIZE as u64),
                    r.remaining()
                ),
            )
        })?;
    let n = budget
        .count(u64::from(count), "frame record", Location::at(0x0c))
        .map_err(|e| e.in_path("records"))?;
    budget.charge(
        n.saturating_mul(size_of::<Record>()),
        "the frame records",
        Location::at(at),
    )?;
    let mut records = Vec::with_capacity(n);
    for i in 0..n {
        let record = read_record(r, budget).map_err(|e| e.in_path(format!("records[{i}]")))?;
        records.push(record);
    }
    Ok(records)
}

/// One record: ten 16-bit words, then the cue string when [`FLAG_HAS_CUE`] is set.
fn read_record(r: &mut ByteReader<'_>, budget: &mut Budget) -> Result<Record> {
    let mut f = Fields::new(r.bytes(RECORD_SIZE, "a 20-byte frame record")?);
    let flags = u16::from_le_bytes(f.array());
    let step_mode = u16::from_le_bytes(f.array());
    let loop_mode = u16::from_le_bytes(f.array());
    let position_mode = u16::from_le_bytes(f.array());
    let frame = u16::from_le_bytes(f.array());
    let duration = i16::from_le_bytes(f.array());
    let event = i16::from_le_bytes(f.array());
    let delta_x = i16::from_le_bytes(f.array());
    let delta_y = i16::from_le_bytes(f.array());
    let reserved = u16::from_le_bytes(f.array());
    let cue = if flags & FLAG_HAS_CUE != 0 {
        let at = r.offset();
        let text = r.cstr("the cue string (flag 0x2 set)")?;
        budget.charge(text.len(), "a cue string", Location::at(at))?;
        Some(RawString(text.to_vec()))
    } else {
        None
    };
    Ok(Record {
        flags,
        step_mode,
        loop_mode,
        position_mode,
        frame,
        duration,
        event,
        delta_x,
        delta_y,
        reserved,
        cue,
    })
}

/// Whatever follows the last record.
fn read_trailing(r: &mut ByteReader<'_>, budget: &mut Budget) -> Result<RawString> {
    let at = r.offset();
    let n = r.remaining();
    budget.charge(n, "the bytes after the last record", Location::at(at))?;
    Ok(RawString(
        r.bytes(n, "the bytes after the last record")?.to_vec(),
    ))
}
