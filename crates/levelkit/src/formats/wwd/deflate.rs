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

use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;
use serde::{Deserialize, Serialize};

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

/// How a compressed main block is deflated: the settings that reproduce a file's zlib stream, or
/// the stream itself.
///
/// A compressed WWD holds one zlib stream, and many streams inflate to the same level; which one
/// a file has depends on the compressor and its settings. Reading a compressed file records
/// [`Deflate::Original`]: the stored stream and the level its zlib header hints at, nothing
/// compressed (a copy of the compressed bytes, a small fraction of the file's inflated size).
/// Which reference-zlib level, if any, rebuilds that stream byte for byte is settled only when
/// asked: [`Deflate::settle`] / [`Wwd::settle_compression`](super::Wwd::settle_compression), and
/// comparisons. Writing never needs it: an unedited main block gets the stored stream back
/// (checked by inflating it, which is fast), an edited one a fresh deflate.
///
/// So `write(read(x)) == x` whatever the build, and a model never claims settings that were not
/// checked. The search tries only reference zlib (the `c-zlib` feature, on by default, off for
/// WebAssembly), at most the three levels the stream's zlib header allows, each stopped at the
/// first byte that differs; a stream with bytes after it, or whose header checksum is not the
/// editor's, is not searched, as a fresh deflate could not give those bytes back.
///
/// The JSON form of a level read from a compressed file is `kept`, with the stream, unless the
/// model was settled first: the same JSON from every build (the browser's has no reference zlib
/// to search with, and the page's downloads equal the CLI's), written back to the same bytes by
/// every build, with no search on export. A model with `zlib { level }` written by a build
/// without `c-zlib` inflates the same but its compressed bytes may differ (that build deflates
/// with miniz_oxide).
///
/// For `==` an unsettled [`Deflate::Original`] and a [`Deflate::Kept`] are the value they settle
/// to (running the search, if the streams are not simply the same bytes), so a model read from a
/// file equals the same model from its JSON or from a fresh `Zlib { level }`. Two places look at
/// the stream itself: the writer, and [`Deflate::level`], the level an edited main block is
/// deflated at, which for an unsettled stream is the one its header hints; that is the level
/// found for the editors' (6) and CrazyHook's (9) streams, but can differ (5 against 2-4, 9
/// against 7-8) for streams from other tools, where the two deflates of an edited level inflate
/// the same.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Deflate {
    /// Deflate with zlib at `level` (0-9; default strategy, 32 KiB window, memory level 8). Settled
    /// from a file's stream: reference zlib at these settings reproduced it exactly.
    Zlib {
        /// zlib compression level, 0-9 (higher values are written as 9).
        level: u8,
    },
    /// A stored main block, kept verbatim because no setting reproduces it (settled from
    /// [`Deflate::Original`]): zlib header, deflate data, Adler-32 trailer and any bytes after the
    /// stream. The writer puts it back unchanged as long as it inflates to exactly the main block
    /// being written (the level is unedited); after an edit it deflates afresh at `level`.
    Kept {
        /// Level for deflating after an edit: the one the stream's zlib header announces (its
        /// FLEVEL field: 0 gives 1, 1 gives 5, 2 gives 6, 3 gives 9).
        level: u8,
        /// The main block as stored in the file.
        #[serde(with = "crate::serde_bytes::base64")]
        stream: Vec<u8>,
        /// The header checksum the file has for these bytes, when it is not the editor's
        /// (CrazyHook's rewrites add a different extra byte); written with the stream, and
        /// replaced by the editor's checksum when the stream is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        checksum: Option<u32>,
    },
    /// A compressed file's main block as read, not yet settled to [`Deflate::Zlib`] or
    /// [`Deflate::Kept`]. Written like `Kept` (the stream while the main block is unedited, a
    /// fresh deflate at the hinted level after an edit), and serialised as `kept`, so it never
    /// appears in JSON (and is not read from it).
    #[serde(skip_deserializing)]
    Original(OriginalStream),
}

/// The stored main block of a compressed file as the reader found it (see
/// [`Deflate::Original`]). Its fields are read through methods; the answer of the level search
/// is kept once found, so that serialising the model twice searches once.
#[derive(Debug, Clone)]
pub struct OriginalStream {
    /// The level the zlib header hints at (see [`OriginalStream::level`]).
    pub(super) level: u8,
    /// The main block as stored.
    pub(super) stream: Vec<u8>,
    /// The stored header checksum, when it is not the editor's.
    pub(super) checksum: Option<u32>,
    /// False when no fresh deflate could give the stored bytes back: bytes after the zlib
    /// stream, or a checksum that is not the editor's.
    pub(super) rebuildable: bool,
    /// The level search's answer, once asked.
    pub(super) settled: std::sync::OnceLock<Option<u8>>,
}

impl OriginalStream {
    /// The level the stream's zlib header hints at (its FLEVEL field: 0 gives 1, 1 gives 5, 2 or
    /// no header gives 6, 3 gives 9): the level a fresh deflate uses after an edit.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The main block as stored in the file.
    pub fn stream(&self) -> &[u8] {
        &self.stream
    }

    /// The header checksum the file has for the stream, when it is not the editor's.
    pub fn checksum(&self) -> Option<u32> {
        self.checksum
    }

    /// The reference-zlib level that deflates what the stream inflates to into exactly the
    /// stream, if one does (always `None` without the `c-zlib` feature). Searched on the first
    /// call, remembered after.
    pub fn reproducing_level(&self) -> Option<u8> {
        *self.settled.get_or_init(|| {
            self.rebuildable
                .then(|| reproducing_level(&self.stream))
                .flatten()
        })
    }
}

impl PartialEq for OriginalStream {
    /// The same stored bytes, read the same way; whether the search has run yet is no part of the
    /// value. (Two [`Deflate`]s compare what they settle to, which is equal for equal streams.)
    fn eq(&self, other: &Self) -> bool {
        (self.level, &self.stream, self.checksum, self.rebuildable)
            == (
                other.level,
                &other.stream,
                other.checksum,
                other.rebuildable,
            )
    }
}

impl Eq for OriginalStream {}

impl Default for Deflate {
    /// zlib level 6, as the original editors wrote (`78 9C` streams).
    fn default() -> Self {
        Deflate::Zlib { level: 6 }
    }
}

impl Deflate {
    /// True for the default, zlib level 6, as it stands: a [`Deflate::Original`] is not (its
    /// JSON form keeps the stream), whatever it would settle to.
    pub fn is_default(&self) -> bool {
        matches!(self, Deflate::Zlib { level: 6 })
    }

    /// The level a fresh deflate uses (after an edit, for [`Deflate::Kept`] and
    /// [`Deflate::Original`]).
    pub fn level(&self) -> u8 {
        match self {
            Deflate::Zlib { level } | Deflate::Kept { level, .. } => *level,
            Deflate::Original(original) => original.level,
        }
    }

    /// Settle a [`Deflate::Original`] into [`Deflate::Zlib`] (a level reproduces the stream) or
    /// [`Deflate::Kept`] (none does; the stream moves over, uncopied). Runs the level search
    /// unless it has run already; leaves the other variants alone.
    pub fn settle(&mut self) {
        if let Deflate::Original(original) = self {
            let settled = match original.reproducing_level() {
                Some(level) => Deflate::Zlib { level },
                None => Deflate::Kept {
                    level: original.level,
                    stream: std::mem::take(&mut original.stream),
                    checksum: original.checksum,
                },
            };
            *self = settled;
        }
    }

    /// Whether a Tiled map of the level carries these settings (the map property
    /// [`super::DEFLATE_PROPERTY`]): all but the default, as the JSON form does. A compressed file's stream is
    /// kept as read, without the level search (which needs reference zlib, not in every build),
    /// so that every build writes the same map and a map written back unedited gives the file's
    /// bytes, whichever tool deflated them.
    pub fn worth_keeping(&self) -> bool {
        !self.is_default()
    }

    /// [`Deflate::settle`] by value.
    #[must_use]
    pub fn settled(mut self) -> Deflate {
        self.settle();
        self
    }

    /// What the JSON form says, borrowing the stream: a [`Deflate::Original`] as `kept`, with no
    /// search, so that every build (the browser's has no reference zlib) writes the same JSON.
    fn json(&self) -> DeflateWire<'_> {
        match self {
            Deflate::Zlib { level } => DeflateWire::Zlib { level: *level },
            Deflate::Kept {
                level,
                stream,
                checksum,
            } => DeflateWire::Kept {
                level: *level,
                stream,
                checksum: *checksum,
            },
            Deflate::Original(original) => DeflateWire::Kept {
                level: original.level,
                stream: &original.stream,
                checksum: original.checksum,
            },
        }
    }

    /// The value compared: the settled variant, borrowing the stream. A kept stream that a level
    /// reproduces is that level (searched for [`Deflate::Kept`] on each comparison, remembered
    /// for [`Deflate::Original`]).
    fn wire(&self) -> DeflateWire<'_> {
        let level = match self {
            Deflate::Zlib { .. } => None,
            Deflate::Kept {
                stream, checksum, ..
            } => checksum
                .is_none()
                .then(|| reproducing_level(stream))
                .flatten(),
            Deflate::Original(original) => original.reproducing_level(),
        };
        match level {
            Some(level) => DeflateWire::Zlib { level },
            None => self.json(),
        }
    }
}

impl PartialEq for Deflate {
    /// The settled values are equal (see [`Deflate`]); equal stored streams are equal without a
    /// search.
    fn eq(&self, other: &Self) -> bool {
        if let (Deflate::Original(a), Deflate::Original(b)) = (self, other) {
            if a == b {
                return true;
            }
        }
        // The same stored bytes, as read and as kept in JSON: no search needed.
        if matches!(
            (self, other),
            (Deflate::Original(_), Deflate::Kept { .. })
                | (Deflate::Kept { .. }, Deflate::Original(_))
        ) && self.json() == other.json()
        {
            return true;
        }
        self.wire() == other.wire()
    }
}

impl Eq for Deflate {}

/// [`Deflate`]'s JSON form: the two settled variants (what `Deserialize` reads back).
#[derive(PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
enum DeflateWire<'a> {
    Zlib {
        level: u8,
    },
    Kept {
        level: u8,
        #[serde(with = "crate::serde_bytes::base64")]
        stream: &'a [u8],
        #[serde(skip_serializing_if = "Option::is_none")]
        checksum: Option<u32>,
    },
}

impl Serialize for Deflate {
    /// `zlib { level }` or `kept` as the value stands: a [`Deflate::Original`] as `kept` (no
    /// search; the same JSON in every build). [`Deflate::settle`] first for `zlib { level }`
    /// where a level reproduces the stream.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(serializer)
    }
}
