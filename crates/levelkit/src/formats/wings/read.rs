//! `.wings` reader: the container, then the term (read into the model by `terms.rs`). Mirrors
//! `write.rs`.
//!
//! The payload goes through the crate's ETF decoder, which enforces the [`Limits`] (allocation,
//! item counts, nesting depth, inflated size). This module turns the decoded term into the model;
//! where an element does not have the form the model types, it is either kept as a term (items
//! Wings itself ignores or skips) or refused with the path of the element (structures Wings
//! itself would call corrupt).
//!
//! A version 2 file is first read in one pass by `fast.rs`, straight from the term bytes into
//! the model, which gives the same model (it converts every part it does not type itself with
//! the functions here) under the same limits; only when that pass gives up (a legacy file, an
//! error anywhere) is the whole term decoded and converted here, which gives the result or the
//! error.

#![deny(clippy::arithmetic_side_effects)]

use super::model::*;
use super::terms::read_content;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::etf;
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Wings;

/// The 15 header bytes.
pub const MAGIC: &[u8; 15] = b"#!WINGS-1.0\r\n\x1a\x04";
/// Header plus length field: where the term starts.
pub const PAYLOAD_OFFSET: usize = 19;

/// Read a `.wings` file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Wings> {
    read_with(bytes, &Limits::default())
}

/// Read a `.wings` file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wings> {
    let payload = read_container(bytes)?;
    let image = etf::open(payload, limits).map_err(|e| payload_error(payload, e))?;
    if let Some(doc) = super::fast::read_document(&image.bytes, limits, image.budget.clone()) {
        return Ok(Wings {
            compression: Some(image.compression),
            content: Content::V2(doc),
        });
    }
    let term = image
        .decode(limits)
        .map_err(|e| payload_error(payload, e))?;
    let content = read_content(&term)?;
    Ok(Wings {
        compression: Some(image.compression),
        content,
    })
}

/// Check the header and the length field; return the term bytes.
pub fn read_container(bytes: &[u8]) -> Result<&[u8]> {
    let header = bytes.get(..MAGIC.len()).unwrap_or(bytes);
    if header != MAGIC.get(..header.len()).unwrap_or(&[]) {
        return Err(Error::malformed(
            F,
            Location::at(0),
            format!(
                "not a Wings file: the header is {:?}, expected \"#!WINGS-1.0\\r\\n\\x1a\\x04\"",
                String::from_utf8_lossy(header)
            ),
        ));
    }
    let Some(len) = bytes
        .get(MAGIC.len()..PAYLOAD_OFFSET)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map(u32::from_be_bytes)
    else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(0),
            format!(
                "the file is {} bytes; a Wings file has a 15-byte header and a 4-byte length",
                bytes.len()
            ),
        ));
    };
    let payload = bytes.get(PAYLOAD_OFFSET..).unwrap_or(&[]);
    if u64::from(len) != payload.len() as u64 {
        let kind = if (payload.len() as u64) < u64::from(len) {
            ErrorKind::Truncated
        } else {
            ErrorKind::Malformed
        };
        return Err(Error::new(
            F,
            kind,
            Location::at(15),
            format!(
                "the length field says the term is {len} bytes, but {} bytes follow the header \
                 (Wings accepts only an exact match)",
                payload.len()
            ),
        ));
    }
    Ok(payload)
}

/// An ETF error, with its payload offset (counted from the version byte 131, which is at file
/// offset 19; inside the inflated term when the payload is compressed) kept and said.
fn payload_error(payload: &[u8], mut e: Error) -> Error {
    let compressed = payload.get(1) == Some(&80);
    e.format = F;
    e.message = format!(
        "the term payload (file offset {PAYLOAD_OFFSET}{}) is not valid ETF: {}",
        if compressed {
            "; offsets count in the inflated term"
        } else {
            "; offsets count from the payload"
        },
        e.message
    );
    e.location = e.location.with_path("payload");
    e
}
