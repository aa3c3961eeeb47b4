//! PID reader. Mirrors `write.rs` function by function: the header, the palette at the end, the
//! pixel stream between them.
//!
//! The output is bounded by the input before anything is allocated: one stream byte says at
//! most 63 pixels (`0xC0` grammar) or 127 (skip grammar), so a header whose `width × height`
//! the stream cannot fill is refused as truncated, and the pixels are charged to the
//! [`Limits`] budget.

#![deny(clippy::arithmetic_side_effects)]

use super::model::{Grammar, HEADER_SIZE, Pid, PidFlags, fill_index_of, grammar_of};
use super::pal::{PALETTE_SIZE, Palette};
use super::rle::{self, MAX_RUN, MAX_SKIP, Spelling};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::{ByteReader, Fields};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Pid;

/// The header dwords as read.
struct Header {
    file_desc: u32,
    flags: PidFlags,
    width: u32,
    height: u32,
    offset_x: i32,
    offset_y: i32,
    fill: u32,
    user: u32,
}

/// Read a PID with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Pid> {
    read_with(bytes, &Limits::default())
}

/// Read a PID, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Pid> {
    let mut r = ByteReader::new(F, bytes);
    let header = read_header(&mut r)?;
    let (stream, palette) = read_palette(&mut r, header.flags)?;
    let (pixels, spelling, original_stream, trailing) = read_pixels(&header, stream, limits)?;
    Ok(Pid {
        file_desc: header.file_desc,
        flags: header.flags,
        width: header.width,
        height: header.height,
        offset_x: header.offset_x,
        offset_y: header.offset_y,
        fill: header.fill,
        user: header.user,
        pixels,
        palette,
        spelling,
        original_stream,
        trailing,
    })
}

/// A positive `i32` size field.
fn size(value: u32, what: &str, at: u64) -> Result<u32> {
    if value == 0 || i32::try_from(value).is_err() {
        return Err(Error::malformed(
            F,
            Location::at(at),
            format!(
                "{what} is {} (the games read it as a signed dword); an image is at least 1 pixel",
                value as i32
            ),
        ));
    }
    Ok(value)
}

fn read_header(r: &mut ByteReader<'_>) -> Result<Header> {
    let mut f = Fields::new(r.bytes(HEADER_SIZE, "PID header (32 bytes)")?);
    let file_desc = f.u32();
    let flags = PidFlags::from_bits_retain(f.u32());
    let width = size(f.u32(), "width", 0x08)?;
    let height = size(f.u32(), "height", 0x0C)?;
    Ok(Header {
        file_desc,
        flags,
        width,
        height,
        offset_x: f.i32(),
        offset_y: f.i32(),
        fill: f.u32(),
        user: f.u32(),
    })
}

/// The pixel stream and, with [`PidFlags::EMBEDDED_PALETTE`], the palette in the last 768
/// bytes (retail Gruntz reads it at `size - 0x300`).
fn read_palette<'a>(
    r: &mut ByteReader<'a>,
    flags: PidFlags,
) -> Result<(ByteReader<'a>, Option<Palette>)> {
    if !flags.contains(PidFlags::EMBEDDED_PALETTE) {
        let stream = r.sub(r.remaining(), "pixel stream")?;
        return Ok((stream, None));
    }
    let Some(stream_len) = r.remaining().checked_sub(PALETTE_SIZE) else {
        return Err(r.error(
            ErrorKind::Truncated,
            format!(
                "the flags say the last {PALETTE_SIZE} bytes are a palette (0x80), but only {} \
                 bytes follow the header",
                r.remaining()
            ),
        ));
    };
    let stream = r.sub(stream_len, "pixel stream")?;
    let palette = Palette::from_bytes(r.bytes(PALETTE_SIZE, "embedded palette")?)
        .ok_or_else(|| r.error(ErrorKind::Truncated, "embedded palette"))?;
    Ok((stream, Some(palette)))
}

/// What the pixel stream gives: the indices, the spelling that reproduces it (or the stream
/// itself), and the bytes after it.
type Pixels = (Vec<u8>, Spelling, Option<Vec<u8>>, Vec<u8>);

fn read_pixels(header: &Header, stream: ByteReader<'_>, limits: &Limits) -> Result<Pixels> {
    let grammar = grammar_of(header.flags);
    let data = stream.data();
    let total = u64::from(header.width).saturating_mul(u64::from(header.height));
    let per_byte = match grammar {
        Grammar::Runs => MAX_RUN,
        Grammar::Skips => MAX_SKIP,
    };
    let most = (data.len() as u64).saturating_mul(per_byte as u64);
    if total > most {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(stream.offset()),
            format!(
                "the header says {} x {} = {total} pixels, but a {}-byte stream of {} can hold \
                 at most {most}",
                header.width,
                header.height,
                data.len(),
                grammar.name()
            ),
        ));
    }
    let total = usize::try_from(total).map_err(|_| {
        Error::new(
            F,
            ErrorKind::LimitExceeded,
            Location::at(0x08),
            "the image does not fit in memory",
        )
    })?;
    limits
        .budget(F)
        .charge(total, "pixels", Location::at(0x08))?;
    let mut pixels = vec![0u8; total];
    let row = usize::try_from(header.width).unwrap_or(usize::MAX);
    let fill = fill_index_of(header.flags, header.fill);
    let decoded = match grammar {
        Grammar::Runs => rle::decode_runs(data, &mut pixels),
        Grammar::Skips => rle::decode_skips(data, &mut pixels, fill),
    };
    let used = decoded.map_err(|e| {
        Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(stream.offset().saturating_add(e.at as u64)),
            format!(
                "the pixel stream ({}) ends with {} of the {} x {} pixels still missing",
                grammar.name(),
                e.missing,
                header.width,
                header.height
            ),
        )
    })?;
    let (coded, trailing) = data.split_at_checked(used).unwrap_or((data, &[]));
    let mut spelling = Spelling::default();
    let found = match grammar {
        Grammar::Runs => rle::runs_spelling(&pixels, row, coded).map(|literals| {
            spelling.literals = literals;
        }),
        Grammar::Skips => rle::skips_spelling(&pixels, row, fill, coded).map(|max| {
            spelling.fill_run_max = max;
        }),
    };
    let original = match found {
        Some(()) => None,
        None => Some(coded.to_vec()),
    };
    Ok((pixels, spelling, original, trailing.to_vec()))
}
