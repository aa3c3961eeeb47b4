//! ANI writer. Mirrors `read.rs` function by function: header, name, records, record, trailing
//! bytes.
//!
//! The record count and the name length are derived from the model. A model the reader would not
//! read back as itself (a cue string without [`FLAG_HAS_CUE`] or the flag without a string, a
//! NUL inside a cue string, more records or a longer name than a 32-bit count holds: the errors of
//! [`super::validate`]) is refused with the path of the offending item.

use super::model::*;
use crate::error::{Error, Result, Severity};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Ani;

/// Write an ANI file: byte for byte the file a model was read from.
pub fn write(ani: &Ani) -> Result<Vec<u8>> {
    if let Some(e) = super::validate::validate(ani)
        .into_iter()
        .find(|w| w.severity == Severity::Error)
    {
        return Err(Error::malformed(
            F,
            e.location,
            format!("can not write this animation: {}", e.message),
        ));
    }
    let mut w = ByteWriter::with_capacity(ani.size());
    write_header(&mut w, ani);
    write_name(&mut w, ani);
    write_records(&mut w, &ani.records);
    write_trailing(&mut w, ani);
    Ok(w.into_inner())
}

/// The 32-byte header. Validation has checked that the counts fit 32 bits.
fn write_header(w: &mut ByteWriter, ani: &Ani) {
    let h = &ani.header;
    w.put_u32_le(h.signature);
    w.put_u32_le(h.reserved_04);
    w.put_u32_le(h.flags);
    w.put_u32_le(u32::try_from(ani.records.len()).unwrap_or(u32::MAX));
    w.put_u32_le(u32::try_from(ani.name.len()).unwrap_or(u32::MAX));
    for word in h.reserved_14 {
        w.put_u32_le(word);
    }
}

/// The name, without a NUL.
fn write_name(w: &mut ByteWriter, ani: &Ani) {
    w.put_bytes(ani.name.as_bytes());
}

/// Every record.
fn write_records(w: &mut ByteWriter, records: &[Record]) {
    for record in records {
        write_record(w, record);
    }
}

/// One record: ten 16-bit words, then the cue string and its NUL.
fn write_record(w: &mut ByteWriter, r: &Record) {
    for word in [r.flags, r.step_mode, r.loop_mode, r.position_mode, r.frame] {
        w.put_u16_le(word);
    }
    for word in [r.duration, r.event, r.delta_x, r.delta_y] {
        w.put_bytes(&word.to_le_bytes());
    }
    w.put_u16_le(r.reserved);
    if let Some(cue) = &r.cue {
        w.put_bytes(cue.as_bytes());
        w.put_u8(0);
    }
}

/// The bytes after the last record.
fn write_trailing(w: &mut ByteWriter, ani: &Ani) {
    w.put_bytes(ani.trailing.as_bytes());
}
