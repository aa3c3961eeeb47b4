//! The compressed main block's zlib stream, for both directions: what the readers record of a
//! stored stream ([`original`], a copy and nothing more), which settings reproduce it (the level
//! search, [`reproducing_level`], run only when a model is settled or serialised), and the stream
//! a model's main block gets ([`compress`], the writer's). A leaf, so that neither `read.rs` nor
//! `write.rs` needs the other.
//!
//! Why a search and not one level: the 1998 editors deflated at zlib level 6, but community tools
//! rewrite levels at other levels (CrazyHook's at 9), and some retail levels come from a zlib old
//! enough to choose differently at every level. The zlib header says which class of level made
//! a stream (its FLEVEL field), so at most three levels are tried, the likeliest first, each
//! stopping at the first compressed byte that differs.
//!
//! Why not on reading: the search deflates the main block at least once, which made a compressed
//! read about 18 times slower (a deflate costs far more than the inflate and parse a read is).
//! Writing never needs its answer (an unedited main block gets the stored stream back), so the
//! readers keep the stream and the search waits for the JSON form or an explicit settle.
//!
//! Only reference zlib is tried (flate2 on C zlib, the `c-zlib` feature). Rejected alternatives:
//! miniz_oxide and zlib-rs (a port of zlib-ng, not of zlib) reproduce none of the real files at
//! any level, so trying them would only cost time; a build without `c-zlib` settles every stream
//! as kept.

#![deny(clippy::arithmetic_side_effects)]

use std::borrow::Cow;

use flate2::{Compress, Decompress, FlushCompress, FlushDecompress, Status};

use super::model::{Deflate, OriginalStream};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

const F: Format = Format::Wwd;
/// Bytes inflated or deflated at a time while comparing.
const CHUNK: usize = 32 << 10;

/// What a reader records of a compressed main block: `stored_main` is everything after the
/// header; `stream_len` is how much of it the zlib stream took (its 2-byte header and its trailer
/// included), which the reader has inflated and checked already; `stored_checksum` and
/// `editor_checksum` are the header's checksum and the editor's checksum of `stored_main`.
/// Copies `stored_main`; compresses nothing.
///
/// Bytes after the stream, or a checksum that is not the editor's, rule every setting out (a
/// fresh deflate gives neither back), so such a block is marked as not worth searching.
pub(super) fn original(
    stored_main: &[u8],
    stream_len: usize,
    stored_checksum: u32,
    editor_checksum: u32,
) -> Deflate {
    Deflate::Original(OriginalStream {
        level: announced_level(stored_main),
        stream: stored_main.to_vec(),
        checksum: (stored_checksum != editor_checksum).then_some(stored_checksum),
        rebuildable: stream_len == stored_main.len() && stored_checksum == editor_checksum,
        settled: std::sync::OnceLock::new(),
    })
}

/// The first level, of those the stream's zlib header allows (likeliest first), at which
/// reference zlib deflates what `stream` inflates to into exactly `stream`. `None` when none
/// does, and always without `c-zlib`.
pub(super) fn reproducing_level(stream: &[u8]) -> Option<u8> {
    candidates(stream)
        .iter()
        .copied()
        .find(|&level| reproduces(stream, level))
}

/// The levels worth trying on a stream, likeliest first: those whose zlib header reference zlib
/// writes is the one the stream has (`78 01` for 0-1, `78 5E` for 2-5, `78 9C` for 6, `78 DA`
/// for 7-9; `78` is a 32 KiB window, the only one flate2 deflates with). None without `c-zlib`.
fn candidates(stored_main: &[u8]) -> &'static [u8] {
    if !cfg!(feature = "c-zlib") {
        return &[];
    }
    match stored_main {
        [0x78, flg, ..] => match flg >> 6 {
            0 => &[1, 0],
            1 => &[5, 4, 3, 2],
            2 => &[6],
            _ => &[9, 8, 7],
        },
        _ => &[],
    }
}

/// The level a stream's zlib header announces, for deflating a kept stream's level again after an
/// edit: FLEVEL 0 gives 1, 1 gives 5, 2 (or no header) gives 6, 3 gives 9.
fn announced_level(stored_main: &[u8]) -> u8 {
    match stored_main.get(1).map(|flg| flg >> 6) {
        Some(0) => 1,
        Some(1) => 5,
        Some(3) => 9,
        _ => 6,
    }
}

/// zlib driven the one way both the writer and the search drive it: input in `CHUNK`-sized pieces
/// without flushing, then an empty finishing call, output through a `CHUNK`-sized buffer. Level
/// 0's stored blocks follow the buffer sizes of the calls, so the two must make the same ones;
/// at every other level the output depends on the input alone.
struct Deflater {
    z: Compress,
    out: Vec<u8>,
}

impl Deflater {
    fn new(level: u8) -> Self {
        Deflater {
            z: Compress::new(flate2::Compression::new(level.min(9).into()), true),
            out: vec![0u8; CHUNK],
        }
    }

    /// Deflate `piece` (at most `CHUNK` bytes, or none with `finish`), handing each run of
    /// output to `sink`. `Some(false)` when `sink` says stop, `None` when zlib fails.
    fn feed(
        &mut self,
        mut piece: &[u8],
        finish: bool,
        sink: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<bool> {
        let flush = if finish {
            FlushCompress::Finish
        } else {
            FlushCompress::None
        };
        loop {
            let (in_before, out_before) = (self.z.total_in(), self.z.total_out());
            let status = self.z.compress(piece, &mut self.out, flush).ok()?;
            let used = usize::try_from(self.z.total_in().checked_sub(in_before)?).ok()?;
            let made = usize::try_from(self.z.total_out().checked_sub(out_before)?).ok()?;
            if !sink(self.out.get(..made)?) {
                return Some(false);
            }
            piece = piece.get(used..)?;
            if finish && status == Status::StreamEnd || !finish && piece.is_empty() {
                return Some(true);
            }
            if used == 0 && made == 0 {
                return None;
            }
        }
    }
}

/// True when deflating what `stream` inflates to at `level` gives `stream` exactly. Inflates and
/// deflates a chunk at a time, comparing each run of output as it comes, so a wrong level costs
/// only as far as its first differing block.
fn reproduces(stream: &[u8], level: u8) -> bool {
    reproduces_inner(stream, level).unwrap_or(false)
}

fn reproduces_inner(stream: &[u8], level: u8) -> Option<bool> {
    let mut inflate = Decompress::new(true);
    let mut deflater = Deflater::new(level);
    let mut plain = vec![0u8; CHUNK];
    // Bytes of `stream` the deflater has reproduced so far.
    let mut matched = 0usize;
    let mut compare = |out: &[u8]| {
        let next = matched.saturating_add(out.len());
        let same = stream.get(matched..next) == Some(out);
        matched = next;
        same
    };
    loop {
        // One whole piece (as the writer's `chunks(CHUNK)`), or what is left at the end.
        let mut filled = 0usize;
        let mut end = false;
        while filled < CHUNK && !end {
            let (in_before, out_before) = (inflate.total_in(), inflate.total_out());
            let input = stream.get(usize::try_from(in_before).ok()?..)?;
            let status = inflate
                .decompress(input, plain.get_mut(filled..)?, FlushDecompress::None)
                .ok()?;
            let produced = usize::try_from(inflate.total_out().checked_sub(out_before)?).ok()?;
            end = status == Status::StreamEnd;
            if !end && produced == 0 && inflate.total_in() == in_before {
                return Some(false);
            }
            filled = filled.checked_add(produced)?;
        }
        if filled > 0 && !deflater.feed(plain.get(..filled)?, false, &mut compare)? {
            return Some(false);
        }
        if end {
            if !deflater.feed(&[], true, &mut compare)? {
                return Some(false);
            }
            return Some(matched == stream.len());
        }
    }
}

/// The stream for a main block, and the checksum to store instead of the editor's, if any: a kept
/// or original stream (with its checksum) when it inflates to exactly `main`, otherwise a fresh
/// deflate at the model's level. No level search: an unsettled stream is put back as it is.
pub(super) fn compress<'a>(main: &[u8], how: &'a Deflate) -> Result<(Cow<'a, [u8]>, Option<u32>)> {
    let stored = match how {
        Deflate::Zlib { .. } => None,
        Deflate::Kept {
            stream, checksum, ..
        } => Some((stream.as_slice(), *checksum)),
        Deflate::Original(original) => Some((original.stream(), original.checksum())),
    };
    if let Some((stream, checksum)) = stored {
        if inflates_to(stream, main) {
            return Ok((Cow::Borrowed(stream), checksum));
        }
    }
    Ok((Cow::Owned(deflate(main, how.level())?), None))
}

/// True when `stream` is a zlib stream that inflates to `main`, no more and no less (bytes after
/// the stream are allowed: they are the file's).
fn inflates_to(stream: &[u8], main: &[u8]) -> bool {
    let mut z = Decompress::new(true);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let Some(input) = usize::try_from(in_before)
            .ok()
            .and_then(|at| stream.get(at..))
        else {
            return false;
        };
        let Ok(status) = z.decompress(input, &mut buf, FlushDecompress::None) else {
            return false;
        };
        let (Ok(start), Ok(end)) = (usize::try_from(out_before), usize::try_from(z.total_out()))
        else {
            return false;
        };
        let produced = buf.get(..end.saturating_sub(start));
        if produced.is_none() || main.get(start..end) != produced {
            return false;
        }
        if status == Status::StreamEnd {
            return end == main.len();
        }
        if end == start && z.total_in() == in_before {
            return false;
        }
    }
}

/// Deflate `main` into a zlib stream at `level` (above 9 counts as 9).
fn deflate(main: &[u8], level: u8) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity((main.len() / 4).saturating_add(64));
    let mut deflater = Deflater::new(level);
    let mut append = |bytes: &[u8]| {
        out.extend_from_slice(bytes);
        true
    };
    let done = main
        .chunks(CHUNK)
        .try_for_each(|piece| deflater.feed(piece, false, &mut append).map(drop))
        .and_then(|()| deflater.feed(&[], true, &mut append));
    match done {
        Some(_) => Ok(out),
        None => Err(Error::new(
            F,
            ErrorKind::Io,
            Location::default(),
            "zlib failed to deflate the main block",
        )),
    }
}
