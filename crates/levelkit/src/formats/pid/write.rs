//! PID writer. Mirrors `read.rs` function by function: the header, the pixel stream, the
//! palette at the end.
//!
//! The writer refuses a model that would not read back as itself: pixels that are not
//! `width × height`, a palette without the flag that says so (or the flag without a palette),
//! a size the games would read as zero or negative.

use std::borrow::Cow;

use super::model::{Grammar, Pid, PidFlags};
use super::rle;
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Pid;

/// The bytes of `pid`.
pub fn write(pid: &Pid) -> Result<Vec<u8>> {
    check(pid)?;
    let stream = write_pixels(pid);
    let mut w = ByteWriter::with_capacity(
        32usize
            .saturating_add(stream.len())
            .saturating_add(pid.trailing.len())
            .saturating_add(768),
    );
    write_header(&mut w, pid);
    w.put_bytes(&stream);
    w.put_bytes(&pid.trailing);
    write_palette(&mut w, pid);
    Ok(w.into_inner())
}

/// What the writer refuses (validation reports the same as errors).
pub(super) fn check(pid: &Pid) -> Result<()> {
    for (what, value) in [("width", pid.width), ("height", pid.height)] {
        if value == 0 || i32::try_from(value).is_err() {
            return Err(Error::malformed(
                F,
                Location::path(what),
                format!("{what} {value} is not a positive signed dword"),
            ));
        }
    }
    pid.check_pixel_count()?;
    match (
        pid.flags.contains(PidFlags::EMBEDDED_PALETTE),
        pid.palette.is_some(),
    ) {
        (true, false) => Err(Error::malformed(
            F,
            Location::path("palette"),
            "the flags say EMBEDDED_PALETTE (0x80) but the model has no palette",
        )),
        (false, true) => Err(Error::malformed(
            F,
            Location::path("palette"),
            "the model has a palette but the flags lack EMBEDDED_PALETTE (0x80)",
        )),
        _ => Ok(()),
    }
}

fn write_header(w: &mut ByteWriter, pid: &Pid) {
    w.put_u32_le(pid.file_desc);
    w.put_u32_le(pid.flags.bits());
    w.put_u32_le(pid.width);
    w.put_u32_le(pid.height);
    w.put_i32_le(pid.offset_x);
    w.put_i32_le(pid.offset_y);
    w.put_u32_le(pid.fill);
    w.put_u32_le(pid.user);
}

/// The original stream while it still decodes to the pixels, else the pixels encoded with the
/// model's spelling.
fn write_pixels(pid: &Pid) -> Cow<'_, [u8]> {
    if let Some(original) = &pid.original_stream
        && decodes_to(pid, original)
    {
        return Cow::Borrowed(original);
    }
    let row = usize::try_from(pid.width).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(pid.pixels.len() / 2);
    match pid.grammar() {
        Grammar::Runs => rle::encode_runs(&pid.pixels, row, pid.spelling.literals, &mut out),
        Grammar::Skips => rle::encode_skips(
            &pid.pixels,
            row,
            pid.fill_index(),
            pid.spelling.fill_run_max,
            &mut out,
        ),
    }
    Cow::Owned(out)
}

/// Whether `stream` decodes, whole, to the model's pixels.
fn decodes_to(pid: &Pid, stream: &[u8]) -> bool {
    let mut pixels = vec![0u8; pid.pixels.len()];
    let used = match pid.grammar() {
        Grammar::Runs => rle::decode_runs(stream, &mut pixels),
        Grammar::Skips => rle::decode_skips(stream, &mut pixels, pid.fill_index()),
    };
    used == Ok(stream.len()) && pixels == pid.pixels
}

fn write_palette(w: &mut ByteWriter, pid: &Pid) {
    if let Some(palette) = &pid.palette {
        w.put_bytes(&palette.to_bytes());
    }
}
