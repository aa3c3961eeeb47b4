//! The GLB container of a binary glTF: a 12-byte header (`glTF`, version 2, length), the
//! `JSON` chunk and an optional `BIN` chunk. [`write`] for the writer, [`read`] (bounds-checked,
//! for untrusted input) for the reader.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteReader;
use crate::registry::Format;

pub(super) fn pad4(bytes: &mut Vec<u8>, fill: u8) {
    while bytes.len() % 4 != 0 {
        bytes.push(fill);
    }
}

/// The GLB container: 12-byte header, `JSON` chunk (padded with spaces), `BIN` chunk (padded with
/// zeros) when there is binary data. `None` past 4 GiB.
///
/// Made in `bin`'s own allocation: the header and the JSON chunk go in front of the binary data
/// (one move within the buffer, which can be most of the file), not all copied to a new one.
pub(super) fn write(json: &[u8], mut bin: Vec<u8>) -> Option<Vec<u8>> {
    let padded = |n: usize| n.div_ceil(4) * 4;
    let (json_len, bin_len) = (padded(json.len()), padded(bin.len()));
    let bin_part = if bin.is_empty() { 0 } else { 8 + bin_len };
    let total = u32::try_from(12 + 8 + json_len + bin_part).ok()?;
    let mut head = Vec::with_capacity(12 + 8 + json_len + 8);
    head.extend_from_slice(b"glTF");
    head.extend_from_slice(&2u32.to_le_bytes());
    head.extend_from_slice(&total.to_le_bytes());
    head.extend_from_slice(&u32::try_from(json_len).ok()?.to_le_bytes());
    head.extend_from_slice(b"JSON");
    head.extend_from_slice(json);
    pad4(&mut head, b' ');
    if bin.is_empty() {
        return Some(head);
    }
    head.extend_from_slice(&u32::try_from(bin_len).ok()?.to_le_bytes());
    head.extend_from_slice(b"BIN\0");
    pad4(&mut bin, 0);
    bin.reserve_exact(head.len());
    bin.splice(0..0, head);
    Some(bin)
}

/// The JSON chunk and the first `BIN` chunk of a GLB.
#[deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(super) fn read(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>)> {
    let format = Format::Glb;
    let truncated = |at: usize, msg: String| {
        Error::new(format, ErrorKind::Truncated, Location::at(at as u64), msg)
    };
    let mut r = ByteReader::new(format, bytes);
    let header = r
        .array::<4>("magic")
        .and_then(|_| Ok((r.u32_le("version")?, r.u32_le("length")?)));
    let Ok((version, length)) = header else {
        return Err(truncated(0, "GLB header needs 12 bytes".into()));
    };
    if version != 2 {
        return Err(Error::unsupported(
            format,
            Location::at(4),
            format!("GLB version {version}; only version 2 is supported"),
        ));
    }
    let length = usize::try_from(length).unwrap_or(usize::MAX);
    if length > bytes.len() {
        return Err(truncated(
            8,
            format!(
                "GLB header says the file has {length} bytes, but it has {}",
                bytes.len()
            ),
        ));
    }
    if length < 20 {
        return Err(Error::malformed(
            format,
            Location::at(8),
            format!("GLB length {length} leaves no room for the JSON chunk"),
        ));
    }
    let mut json: Option<&[u8]> = None;
    let mut bin: Option<&[u8]> = None;
    while r.pos() < length {
        let at = r.pos();
        let chunk_header = r
            .u32_le("chunk length")
            .and_then(|n| Ok((n, r.array::<4>("chunk type")?)));
        let Ok((chunk_len, kind)) = chunk_header else {
            return Err(truncated(at, "GLB chunk header runs past the end".into()));
        };
        let fits = usize::try_from(chunk_len)
            .ok()
            .filter(|&n| r.pos().checked_add(n).is_some_and(|end| end <= length));
        let Some(data) = fits.and_then(|n| r.bytes(n, "chunk").ok()) else {
            return Err(truncated(
                at,
                format!(
                    "GLB chunk {:?} of {chunk_len} bytes runs past the end of the file",
                    String::from_utf8_lossy(&kind)
                ),
            ));
        };
        match (&kind, json.is_some()) {
            (b"JSON", false) => json = Some(data),
            (_, false) => {
                return Err(Error::malformed(
                    format,
                    Location::at(at as u64),
                    "the first GLB chunk is not JSON",
                ));
            }
            (b"BIN\0", true) if bin.is_none() => bin = Some(data),
            _ => {} // Unknown chunks are skipped, as the spec asks.
        }
    }
    match json {
        // Some writers pad the JSON chunk with NULs instead of spaces.
        Some(json) => {
            let end = json
                .iter()
                .rposition(|&b| !matches!(b, 0 | b' '))
                .map_or(0, |p| p.saturating_add(1));
            Ok((json.get(..end).unwrap_or(json), bin))
        }
        None => Err(truncated(12, "GLB has no JSON chunk".into())),
    }
}
