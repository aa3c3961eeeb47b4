//! ETF decoding: bytes to [`Term`], keeping the encoding choices [`super::encode`] repeats.
//!
//! Hand-written rather than taken from a crate: the Rust ETF crates (`eetf`, `erlang-term`)
//! normalise what they read (atom tags, `FLOAT_EXT` text, `STRING_EXT` versus `LIST_EXT`), so they
//! cannot give the same bytes back, and none of them bounds allocation and depth for hostile input.
//!
//! The decoder is recursive with a depth counter: the depth limit is `Limits::max_depth`, clamped
//! to [`MAX_DEPTH_CAP`] so that no `Limits` value can make a hostile input overflow the stack.
//! Every count field is checked against the bytes that remain before anything is allocated
//! (each element takes at least one byte), every allocation is charged to a [`Budget`], and the
//! compressed wrapper inflates into at most one byte more than the declared size.
//!
//! Speed: nothing is allocated beyond the term itself (vectors get their exact size from the
//! count field, atom text is copied once, integers and `[]` in a container are read inline),
//! the hot checks (bytes left, counts, the budget, which the decoder mirrors locally and hands
//! to the [`Budget`] only when a charge would fail) are inlined with their error messages built
//! out of line, and the compressed wrapper is inflated raw into a buffer of the declared size,
//! its zlib header and Adler-32 checked here with `simd-adler32` (zlib's own checksum is a scalar
//! loop that takes about 15% of the inflate time).
//!
//! Besides [`decode`], the crate uses the [`Decoder`] directly: the `.wings` reader walks the
//! mesh lists with it into its typed model, decoding every other part as a [`Term`] (see
//! `formats/wings/fast.rs`).

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::borrow::Cow;

use flate2::{Decompress, FlushDecompress, Status};

use super::{Atom, AtomTag, Big, Compression, External, Float, Term};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};
use crate::registry::Format;

const F: Format = Format::Wings;

/// The version byte that starts every external term.
pub(crate) const VERSION: u8 = 131;

/// The deepest nesting the decoder accepts whatever `Limits::max_depth` says: deep enough for
/// any real term (a `.wings` file nests about a dozen levels), shallow enough for the stack of a
/// test thread in a debug build.
pub const MAX_DEPTH_CAP: usize = 1024;

/// The tags of the External Term Format (`erl_ext_dist`), as the decoder and encoder use them.
pub(crate) mod tag {
    pub const NEW_FLOAT: u8 = 70;
    pub const BIT_BINARY: u8 = 77;
    pub const COMPRESSED: u8 = 80;
    pub const SMALL_INTEGER: u8 = 97;
    pub const INTEGER: u8 = 98;
    pub const FLOAT: u8 = 99;
    pub const ATOM: u8 = 100;
    pub const SMALL_TUPLE: u8 = 104;
    pub const LARGE_TUPLE: u8 = 105;
    pub const NIL: u8 = 106;
    pub const STRING: u8 = 107;
    pub const LIST: u8 = 108;
    pub const BINARY: u8 = 109;
    pub const SMALL_BIG: u8 = 110;
    pub const LARGE_BIG: u8 = 111;
    pub const SMALL_ATOM: u8 = 115;
    pub const MAP: u8 = 116;
    pub const ATOM_UTF8: u8 = 118;
    pub const SMALL_ATOM_UTF8: u8 = 119;
}

/// The name of a tag for messages (`LIST_EXT`), including the tags we refuse.
pub(crate) fn tag_name(t: u8) -> &'static str {
    match t {
        70 => "NEW_FLOAT_EXT",
        77 => "BIT_BINARY_EXT",
        80 => "compressed term",
        82 => "ATOM_CACHE_REF",
        88 => "NEW_PID_EXT",
        89 => "NEW_PORT_EXT",
        90 => "NEWER_REFERENCE_EXT",
        97 => "SMALL_INTEGER_EXT",
        98 => "INTEGER_EXT",
        99 => "FLOAT_EXT",
        100 => "ATOM_EXT",
        101 => "REFERENCE_EXT",
        102 => "PORT_EXT",
        103 => "PID_EXT",
        104 => "SMALL_TUPLE_EXT",
        105 => "LARGE_TUPLE_EXT",
        106 => "NIL_EXT",
        107 => "STRING_EXT",
        108 => "LIST_EXT",
        109 => "BINARY_EXT",
        110 => "SMALL_BIG_EXT",
        111 => "LARGE_BIG_EXT",
        112 => "NEW_FUN_EXT",
        113 => "EXPORT_EXT",
        114 => "NEW_REFERENCE_EXT",
        115 => "SMALL_ATOM_EXT",
        116 => "MAP_EXT",
        117 => "FUN_EXT",
        118 => "ATOM_UTF8_EXT",
        119 => "SMALL_ATOM_UTF8_EXT",
        120 => "V4_PORT_EXT",
        121 => "LOCAL_EXT",
        _ => "unknown tag",
    }
}

/// What a budget charge is for, as a static string (building one per container would cost more
/// than the decoding).
fn contents(t: u8) -> &'static str {
    match t {
        tag::SMALL_TUPLE | tag::LARGE_TUPLE => "ETF tuple elements",
        tag::LIST => "ETF LIST_EXT elements",
        tag::MAP => "ETF MAP_EXT pairs",
        tag::STRING => "ETF STRING_EXT characters",
        tag::BINARY => "ETF BINARY_EXT bytes",
        tag::BIT_BINARY => "ETF BIT_BINARY_EXT bytes",
        tag::SMALL_BIG | tag::LARGE_BIG => "ETF big integer magnitude",
        _ => "ETF atom text",
    }
}

/// Decode a whole external term: `bytes` starts with the version byte 131 and must hold exactly
/// one term (trailing bytes are an error).
///
/// Byte offsets in errors are offsets in the uncompressed image: the version byte at 0 and the
/// term from 1, whether the term was stored plainly or inflated from the compressed wrapper.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<External> {
    let image = open(bytes, limits)?;
    let term = image.decode(limits)?;
    Ok(External {
        term,
        compression: image.compression,
    })
}

/// The term bytes of a whole external term (after the version byte; inflated when stored in the
/// compressed wrapper), with the budget the inflating was charged to.
pub(crate) struct Image<'a> {
    /// The term's bytes; offset 0 here is offset 1 of the image.
    pub(crate) bytes: Cow<'a, [u8]>,
    /// How the term was stored.
    pub(crate) compression: Compression,
    /// The budget, the inflated buffer charged.
    pub(crate) budget: Budget,
}

impl Image<'_> {
    /// Decode the one term that must fill the image.
    pub(crate) fn decode(&self, limits: &Limits) -> Result<Term> {
        let what = match self.compression {
            Compression::Zlib => "inflated term",
            Compression::None => "term",
        };
        decode_exact(&self.bytes, 1, limits, self.budget.clone(), what)
    }
}

/// Check the version byte and inflate the compressed wrapper (see [`decode`]).
pub(crate) fn open<'a>(bytes: &'a [u8], limits: &Limits) -> Result<Image<'a>> {
    let mut budget = limits.budget(F);
    let Some((&version, rest)) = bytes.split_first() else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(0),
            "ETF input is empty; expected the version byte 131",
        ));
    };
    if version != VERSION {
        return Err(Error::malformed(
            F,
            Location::at(0),
            format!("ETF version byte is {version}; expected 131"),
        ));
    }
    if rest.first() == Some(&tag::COMPRESSED) {
        let inflated = inflate(rest, &mut budget)?;
        Ok(Image {
            bytes: Cow::Owned(inflated),
            compression: Compression::Zlib,
            budget,
        })
    } else {
        Ok(Image {
            bytes: Cow::Borrowed(rest),
            compression: Compression::None,
            budget,
        })
    }
}

/// Decode a term without the version byte (for tests and nested use); returns the term and the
/// bytes consumed. The compressed wrapper is refused here: it is only valid after the version byte.
pub fn decode_term(bytes: &[u8], limits: &Limits) -> Result<(Term, usize)> {
    let mut d = Decoder::new(bytes, 0, limits, limits.budget(F));
    let term = d.term(0)?;
    Ok((term, d.pos))
}

/// Decode one term that must fill `bytes` exactly; `base` is the offset of `bytes[0]` in the image.
fn decode_exact(
    bytes: &[u8],
    base: u64,
    limits: &Limits,
    budget: Budget,
    what: &str,
) -> Result<Term> {
    let mut d = Decoder::new(bytes, base, limits, budget);
    let term = d.term(0)?;
    if d.pos != bytes.len() {
        return Err(Error::malformed(
            F,
            Location::at(d.offset()),
            format!(
                "ETF {what} ends at byte 0x{:x} but {} more bytes follow; expected exactly one term",
                d.offset(),
                d.remaining()
            ),
        ));
    }
    Ok(term)
}

/// Inflate the compressed wrapper (`rest` starts at its tag 80) into exactly the declared size.
///
/// The zlib stream is checked as zlib's `inflate` checks it: the 2-byte header (method 8, a
/// window of at most 32 KiB, the check bits, no preset dictionary), the deflate data, then the
/// Adler-32 of the inflated bytes, which is computed here with `simd-adler32` (the deflate data
/// is inflated raw). A stream that ends early is `Truncated`, one that zlib would call corrupt
/// (bad header, bad data, bad checksum) is `Malformed`, both said as "does not inflate", with the
/// number of bytes inflated before the problem.
fn inflate(rest: &[u8], budget: &mut Budget) -> Result<Vec<u8>> {
    let Some(size_bytes) = rest.get(1..5) else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(2),
            format!(
                "ETF compressed term (tag 80) at byte 0x1 ends before its 4-byte uncompressed size \
                 ({} bytes left)",
                rest.len().saturating_sub(1)
            ),
        ));
    };
    let mut size = [0u8; 4];
    size.copy_from_slice(size_bytes);
    let declared = u32::from_be_bytes(size);
    let stream = rest.get(5..).unwrap_or(&[]);
    let declared_len = usize::try_from(declared).unwrap_or(usize::MAX);
    budget.charge(declared_len, "ETF inflated term", Location::at(2))?;
    let broken = |truncated: bool, inflated: usize| {
        let (kind, why) = if truncated {
            (ErrorKind::Truncated, "incomplete deflate stream")
        } else {
            (ErrorKind::Malformed, "corrupt deflate stream")
        };
        Error::new(
            F,
            kind,
            Location::at(6),
            format!(
                "ETF compressed term (tag 80): the zlib stream at byte 0x6 does not inflate \
                 ({why}) after {inflated} bytes; expected {declared} bytes"
            ),
        )
    };
    // The zlib header (RFC 1950), in the order zlib's `inflate` checks it.
    let [cmf, flg, ..] = *stream else {
        return Err(broken(true, 0));
    };
    if u16::from_be_bytes([cmf, flg]) % 31 != 0 || cmf & 0x0F != 8 || cmf >> 4 > 7 {
        return Err(broken(false, 0));
    }
    if flg & 0x20 != 0 {
        // A preset dictionary: zlib reads its 4-byte id, then asks for the dictionary.
        return Err(broken(stream.len() < 6, 0));
    }
    let deflate = stream.get(2..).unwrap_or(&[]);
    // One byte more than declared shows a stream that inflates to more. Deflate expands at most
    // 1032:1: never reserve more than the stream could produce; grow by doubling beyond that
    // (up to the declared size, which the budget was charged).
    let limit = declared_len.saturating_add(1);
    let reserve = limit.min(deflate.len().saturating_mul(1032).saturating_add(64));
    let mut out = Vec::with_capacity(reserve);
    let mut z = Decompress::new(false);
    let ended = loop {
        if out.len() == out.capacity() {
            if out.len() >= limit {
                break false;
            }
            let more = out
                .capacity()
                .clamp(4096, 16 << 20)
                .min(limit.saturating_sub(out.len()));
            out.reserve_exact(more);
        }
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let input = deflate
            .get(usize::try_from(in_before).unwrap_or(usize::MAX)..)
            .unwrap_or(&[]);
        match z.decompress_vec(input, &mut out, FlushDecompress::None) {
            Ok(Status::StreamEnd) => break true,
            Ok(_) => {
                let progressed = z.total_in() != in_before || z.total_out() != out_before;
                if !progressed && out.len() < out.capacity() {
                    return Err(broken(true, out.len()));
                }
            }
            Err(_) => return Err(broken(false, out.len())),
        }
    };
    // The Adler-32 trailer, which zlib checks before it reports the end of the stream.
    let used = usize::try_from(z.total_in())
        .unwrap_or(usize::MAX)
        .saturating_add(2);
    if ended {
        let trailer = stream
            .get(used..used.saturating_add(4))
            .and_then(|t| <[u8; 4]>::try_from(t).ok());
        let Some(trailer) = trailer else {
            return Err(broken(true, out.len()));
        };
        if u32::from_be_bytes(trailer) != simd_adler32::adler32(&out.as_slice()) {
            return Err(broken(false, out.len()));
        }
    }
    if out.len() != declared_len {
        let (kind, found) = if out.len() > declared_len {
            (ErrorKind::Malformed, format!("more than {declared}"))
        } else {
            (ErrorKind::Truncated, format!("only {}", out.len()))
        };
        return Err(Error::new(
            F,
            kind,
            Location::at(6),
            format!(
                "ETF compressed term (tag 80) declares {declared} uncompressed bytes but its zlib \
                 stream inflates to {found} bytes"
            ),
        ));
    }
    // The whole zlib stream, checksum included; anything after it would be lost on re-encoding.
    let used = used.saturating_add(4);
    if used != stream.len() {
        return Err(Error::malformed(
            F,
            Location::at(6u64.saturating_add(used as u64)),
            format!(
                "ETF compressed term (tag 80): {} bytes follow the end of the zlib stream; \
                 expected the stream to end the input",
                stream.len().saturating_sub(used)
            ),
        ));
    }
    Ok(out)
}

/// Where a [`Decoder`] was, to go back there ([`Decoder::mark`], [`Decoder::reset`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pos: usize,
    pending: usize,
    headroom: usize,
}

/// A cursor over one term's bytes.
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes[0]` in the image, for messages.
    base: u64,
    max_depth: usize,
    /// The budget's item count limit.
    max_count: usize,
    budget: Budget,
    /// Bytes charged here and not yet passed on to `budget`.
    pending: usize,
    /// Bytes that may still be charged before `budget` would refuse: charges within it only
    /// count here; the first one beyond goes to `budget`, which fails it with its own message.
    headroom: usize,
}

impl<'a> Decoder<'a> {
    /// A decoder over `bytes`, the term at `bytes[0]` being at offset `base` of the image.
    pub(crate) fn new(bytes: &'a [u8], base: u64, limits: &Limits, budget: Budget) -> Self {
        let max = budget.limits();
        Decoder {
            bytes,
            pos: 0,
            base,
            max_depth: limits.max_depth.min(MAX_DEPTH_CAP),
            max_count: max.max_count,
            headroom: max.max_alloc.saturating_sub(budget.allocated()),
            pending: 0,
            budget,
        }
    }

    /// True when every byte has been decoded.
    pub(crate) fn finished(&self) -> bool {
        self.pos == self.bytes.len()
    }

    /// The position, and the budget charged so far, to come back to with [`Decoder::reset`].
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            pending: self.pending,
            headroom: self.headroom,
        }
    }

    /// Go back to `mark`: what was decoded since is decoded again, and charged again, by what
    /// follows (a charge that reached `budget` itself in between, which only happens when the
    /// limit is `usize::MAX`, stays charged).
    pub(crate) fn reset(&mut self, mark: Mark) {
        self.pos = mark.pos;
        self.pending = mark.pending;
        self.headroom = mark.headroom;
    }

    fn offset(&self) -> u64 {
        self.offset_of(self.pos)
    }

    fn offset_of(&self, pos: usize) -> u64 {
        self.base.saturating_add(pos as u64)
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// `n` bytes of the term with tag `t` that started at `start`.
    #[inline]
    fn take(&mut self, n: usize, t: u8, start: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.bytes.get(self.pos..end).map(|b| (b, end))) {
            Some((b, end)) => {
                self.pos = end;
                Ok(b)
            }
            None => Err(self.truncated(n, t, start, what)),
        }
    }

    #[cold]
    #[inline(never)]
    fn truncated(&self, n: usize, t: u8, start: usize, what: &str) -> Error {
        Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(self.offset()),
            format!(
                "ETF {} (tag {t}) at byte 0x{:x} ends before its {what} ({n} bytes needed at \
                 byte 0x{:x}, {} left)",
                tag_name(t),
                self.offset_of(start),
                self.offset(),
                self.remaining()
            ),
        )
    }

    #[inline]
    fn array<const N: usize>(&mut self, t: u8, start: usize, what: &str) -> Result<[u8; N]> {
        let end = self.pos.wrapping_add(N);
        match self.bytes.get(self.pos..end) {
            Some(b) => {
                let mut out = [0u8; N];
                out.copy_from_slice(b);
                self.pos = end;
                Ok(out)
            }
            None => Err(self.truncated(N, t, start, what)),
        }
    }

    #[inline]
    fn u8(&mut self, t: u8, start: usize, what: &str) -> Result<u8> {
        match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos = self.pos.wrapping_add(1);
                Ok(b)
            }
            None => Err(self.truncated(1, t, start, what)),
        }
    }

    #[inline]
    fn u16(&mut self, t: u8, start: usize, what: &str) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array(t, start, what)?))
    }

    #[inline]
    fn u32(&mut self, t: u8, start: usize, what: &str) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array(t, start, what)?))
    }

    /// Charge `n` bytes of memory for the term with tag `t` that started at `start`.
    #[inline]
    fn charge(&mut self, n: usize, t: u8, start: usize) -> Result<()> {
        if n <= self.headroom {
            self.headroom = self.headroom.wrapping_sub(n);
            self.pending = self.pending.wrapping_add(n);
            Ok(())
        } else {
            self.charge_budget(n, t, start)
        }
    }

    /// Pass the pending charges and then `n` to the budget, which refuses `n` with its message
    /// (or, with a limit of `usize::MAX`, accepts it).
    #[cold]
    #[inline(never)]
    fn charge_budget(&mut self, n: usize, t: u8, start: usize) -> Result<()> {
        let at = Location::at(self.offset_of(start));
        let pending = std::mem::take(&mut self.pending);
        self.budget.charge(pending, contents(t), at.clone())?;
        self.budget.charge(n, contents(t), at)?;
        self.headroom = self
            .budget
            .limits()
            .max_alloc
            .saturating_sub(self.budget.allocated());
        Ok(())
    }

    /// Check a count of items, each at least `min_size` bytes, against the bytes left, the count
    /// limit and the memory budget (`item_size` bytes of memory each), before allocating.
    #[inline]
    fn items(
        &mut self,
        count: u32,
        min_size: usize,
        item_size: usize,
        t: u8,
        start: usize,
        what: &str,
    ) -> Result<usize> {
        let n = count as usize;
        if n.saturating_mul(min_size) <= self.remaining() && n <= self.max_count {
            self.charge(n.saturating_mul(item_size), t, start)?;
            Ok(n)
        } else {
            Err(self.bad_count(count, min_size, t, start, what))
        }
    }

    /// The error for a count [`Decoder::items`] refuses.
    #[cold]
    #[inline(never)]
    fn bad_count(&self, count: u32, min_size: usize, t: u8, start: usize, what: &str) -> Error {
        let at = Location::at(self.offset_of(start));
        if (count as usize).saturating_mul(min_size) > self.remaining() {
            return Error::new(
                F,
                ErrorKind::Truncated,
                at,
                format!(
                    "ETF {} (tag {t}) at byte 0x{:x} declares {count} {what} but only {} bytes \
                     remain (each needs at least {min_size})",
                    tag_name(t),
                    self.offset_of(start),
                    self.remaining()
                ),
            );
        }
        match self.budget.count(u64::from(count), contents(t), at) {
            Err(e) => e,
            Ok(_) => Error::malformed(F, Location::at(self.offset_of(start)), "count"),
        }
    }

    /// Bytes of a binary, string or atom text: checked against the input, charged to the budget.
    #[inline]
    fn data(&mut self, n: usize, t: u8, start: usize, what: &str) -> Result<Vec<u8>> {
        let b = self.take(n, t, start, what)?;
        self.charge(n, t, start)?;
        Ok(b.to_vec())
    }

    #[cold]
    #[inline(never)]
    fn malformed(&self, start: usize, message: String) -> Error {
        Error::malformed(F, Location::at(self.offset_of(start)), message)
    }

    /// One element of a container: [`Decoder::term`], with the leaves that need no allocation
    /// (integers and `[]`, most of the elements of a real term) decoded without the call.
    #[inline(always)]
    fn element(&mut self, depth: usize) -> Result<Term> {
        let at = self.pos;
        match self.peek() {
            Some(tag::SMALL_INTEGER) => {
                if let Some(&v) = self.bytes.get(at.wrapping_add(1)) {
                    self.pos = at.wrapping_add(2);
                    return Ok(Term::Int(i64::from(v)));
                }
            }
            Some(tag::INTEGER) => {
                if let Some(b) = self.bytes.get(at.wrapping_add(1)..at.wrapping_add(5))
                    && let Ok(b) = <[u8; 4]>::try_from(b)
                {
                    self.pos = at.wrapping_add(5);
                    return Ok(Term::Int(i64::from(i32::from_be_bytes(b))));
                }
            }
            Some(tag::NIL) => {
                self.pos = at.wrapping_add(1);
                return Ok(Term::Nil);
            }
            _ => {}
        }
        self.term(depth)
    }

    /// One term at nesting depth `depth`.
    pub(crate) fn term(&mut self, depth: usize) -> Result<Term> {
        let start = self.pos;
        let Some(&t) = self.bytes.get(self.pos) else {
            return Err(self.no_tag());
        };
        self.pos = self.pos.wrapping_add(1);
        match t {
            tag::SMALL_INTEGER => Ok(Term::Int(i64::from(self.u8(t, start, "value")?))),
            tag::INTEGER => {
                let v = i32::from_be_bytes(self.array(t, start, "4-byte value")?);
                Ok(Term::Int(i64::from(v)))
            }
            tag::NEW_FLOAT => {
                let value = f64::from_be_bytes(self.array(t, start, "8-byte value")?);
                if !value.is_finite() {
                    return Err(self.malformed(
                        start,
                        format!(
                            "ETF NEW_FLOAT_EXT (tag 70) at byte 0x{:x} holds {value}; Erlang \
                             floats are finite",
                            self.offset_of(start)
                        ),
                    ));
                }
                Ok(Term::float(value))
            }
            tag::ATOM | tag::SMALL_ATOM | tag::ATOM_UTF8 | tag::SMALL_ATOM_UTF8 => {
                let (name, tag) = self.atom_parts(t, start)?;
                Ok(Term::Atom(Atom { name, tag }))
            }
            tag::SMALL_TUPLE => {
                let n = self.u8(t, start, "arity byte")?;
                self.tuple(u32::from(n), t, start, depth)
            }
            tag::NIL => Ok(Term::Nil),
            tag::LIST => {
                let n = self.u32(t, start, "4-byte length")?;
                self.enter(depth, t, start)?;
                // Elements and a tail: at least one byte each.
                let n = self.items(n, 1, size_of::<Term>(), t, start, "elements")?;
                let inner = depth.wrapping_add(1);
                let mut items = Vec::with_capacity(n);
                for i in 0..n {
                    match self.element(inner) {
                        Ok(item) => items.push(item),
                        Err(e) => return Err(at_index(e, i)),
                    }
                }
                let tail = match self.element(inner) {
                    Ok(tail) => tail,
                    Err(e) => return Err(e.in_path("tail")),
                };
                Ok(Term::List(items, Box::new(tail)))
            }
            tag::BINARY => {
                let n = self.u32(t, start, "4-byte length")?;
                Ok(Term::Binary(self.data(n as usize, t, start, "bytes")?))
            }
            _ => self.rare_term(t, start, depth),
        }
    }

    /// The terms a real file seldom holds, out of [`Decoder::term`] to keep it small.
    #[inline(never)]
    fn rare_term(&mut self, t: u8, start: usize, depth: usize) -> Result<Term> {
        match t {
            tag::SMALL_BIG => {
                let n = self.u8(t, start, "length byte")?;
                self.big(u32::from(n), t, start)
            }
            tag::LARGE_BIG => {
                let n = self.u32(t, start, "4-byte length")?;
                self.big(n, t, start)
            }
            tag::FLOAT => self.old_float(start),
            tag::LARGE_TUPLE => {
                let n = self.u32(t, start, "4-byte arity")?;
                self.tuple(n, t, start, depth)
            }
            tag::STRING => {
                let n = self.u16(t, start, "2-byte length")?;
                Ok(Term::String(self.data(
                    usize::from(n),
                    t,
                    start,
                    "characters",
                )?))
            }
            tag::BIT_BINARY => {
                let n = self.u32(t, start, "4-byte length")?;
                let bits = self.u8(t, start, "bit count")?;
                if (bits == 0) != (n == 0) || bits > 8 {
                    return Err(self.malformed(
                        start,
                        format!(
                            "ETF BIT_BINARY_EXT (tag 77) at byte 0x{:x} has {n} bytes with {bits} \
                             bits used in the last; expected 1 to 8 bits (0 only when empty)",
                            self.offset_of(start)
                        ),
                    ));
                }
                Ok(Term::BitBinary(
                    self.data(n as usize, t, start, "bytes")?,
                    bits,
                ))
            }
            tag::MAP => {
                let n = self.u32(t, start, "4-byte arity")?;
                self.enter(depth, t, start)?;
                let n = self.items(n, 2, size_of::<(Term, Term)>(), t, start, "pairs")?;
                let inner = depth.wrapping_add(1);
                let mut pairs = Vec::with_capacity(n);
                for i in 0..n {
                    let k = self
                        .term(inner)
                        .map_err(|e| e.in_path(format!("[{i}].key")))?;
                    let v = self
                        .term(inner)
                        .map_err(|e| e.in_path(format!("[{i}].value")))?;
                    pairs.push((k, v));
                }
                Ok(Term::Map(pairs))
            }
            tag::COMPRESSED => Err(self.malformed(
                start,
                format!(
                    "ETF compressed term (tag 80) at byte 0x{:x} inside a term; the compressed \
                     wrapper is only valid right after the version byte",
                    self.offset_of(start)
                ),
            )),
            _ => Err(self.unsupported_tag(t, start)),
        }
    }

    #[cold]
    #[inline(never)]
    fn no_tag(&self) -> Error {
        Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(self.offset()),
            format!(
                "ETF input ends at byte 0x{:x}; expected a term's tag",
                self.offset()
            ),
        )
    }

    #[cold]
    #[inline(never)]
    fn unsupported_tag(&self, t: u8, start: usize) -> Error {
        Error::unsupported(
            F,
            Location::at(self.offset_of(start)),
            format!(
                "ETF tag {t} ({}) at byte 0x{:x} is not supported; expected a number, atom, \
                 tuple, list, string, binary or map (pids, ports, references and funs have no \
                 meaning outside the Erlang node that wrote them)",
                tag_name(t),
                self.offset_of(start)
            ),
        )
    }

    /// Check that a container at `depth` may hold children.
    #[inline]
    fn enter(&self, depth: usize, t: u8, start: usize) -> Result<()> {
        if depth >= self.max_depth {
            return Err(self.too_deep(t, start));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self, t: u8, start: usize) -> Error {
        Error::new(
            F,
            ErrorKind::LimitExceeded,
            Location::at(self.offset_of(start)),
            format!(
                "ETF {} (tag {t}) at byte 0x{:x} nests deeper than the limit of {} levels",
                tag_name(t),
                self.offset_of(start),
                self.max_depth
            ),
        )
    }

    fn tuple(&mut self, arity: u32, t: u8, start: usize, depth: usize) -> Result<Term> {
        self.enter(depth, t, start)?;
        let n = self.items(arity, 1, size_of::<Term>(), t, start, "elements")?;
        let inner = depth.wrapping_add(1);
        let mut items = Vec::with_capacity(n);
        for i in 0..n {
            match self.element(inner) {
                Ok(item) => items.push(item),
                Err(e) => return Err(at_index(e, i)),
            }
        }
        Ok(Term::Tuple(items))
    }

    /// The sign byte and `n` magnitude bytes of a small or large big.
    fn big(&mut self, n: u32, t: u8, start: usize) -> Result<Term> {
        let sign = self.u8(t, start, "sign byte")?;
        if sign > 1 {
            return Err(self.malformed(
                start,
                format!(
                    "ETF {} (tag {t}) at byte 0x{:x} has sign byte {sign}; expected 0 or 1",
                    tag_name(t),
                    self.offset_of(start)
                ),
            ));
        }
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let digits = self.take(n, t, start, "magnitude")?;
        // High zero bytes are not canonical (Erlang never writes them); the value is kept and
        // the encoder writes it canonically.
        let len = digits
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i.saturating_add(1));
        let digits = digits.get(..len).unwrap_or(&[]);
        let negative = sign == 1;
        if len <= 8 {
            let mut le = [0u8; 8];
            if let Some(dst) = le.get_mut(..len) {
                dst.copy_from_slice(digits);
            }
            let magnitude = u64::from_le_bytes(le);
            let value = if negative {
                0i64.checked_sub_unsigned(magnitude)
            } else {
                i64::try_from(magnitude).ok()
            };
            if let Some(v) = value {
                return Ok(Term::Int(v));
            }
        }
        self.charge(len, t, start)?;
        Ok(Term::Big(Big {
            negative,
            magnitude: digits.to_vec(),
        }))
    }

    /// `FLOAT_EXT`: 31 bytes of C `%.20e` text, NUL-padded.
    fn old_float(&mut self, start: usize) -> Result<Term> {
        let raw = self.take(31, tag::FLOAT, start, "31 bytes of text")?;
        let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        let text = raw.get(..end).unwrap_or(&[]);
        let value = std::str::from_utf8(text)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|v| {
                v.is_finite()
                    && text.first().is_some_and(|b| {
                        b.is_ascii_digit() || *b == b'-' || *b == b'+' || *b == b'.'
                    })
            });
        match value {
            Some(value) => Ok(Term::Float(Float {
                value,
                text: Some(raw.to_vec()),
            })),
            None => Err(self.malformed(
                start,
                format!(
                    "ETF FLOAT_EXT (tag 99) at byte 0x{:x} holds {:?}; expected a finite number \
                     in C `%.20e` text",
                    self.offset_of(start),
                    String::from_utf8_lossy(text)
                ),
            )),
        }
    }

    /// The text and tag of the atom with tag `t` (already read) at `start`, its text charged
    /// (Latin-1 text may take up to twice its bytes as UTF-8). Not yet checked as UTF-8.
    #[inline]
    fn atom_bytes(&mut self, t: u8, start: usize) -> Result<(&'a [u8], AtomTag)> {
        let (n, atom_tag) = match t {
            tag::ATOM => (
                usize::from(self.u16(t, start, "2-byte length")?),
                AtomTag::Atom,
            ),
            tag::SMALL_ATOM => (
                usize::from(self.u8(t, start, "length byte")?),
                AtomTag::SmallAtom,
            ),
            tag::ATOM_UTF8 => (
                usize::from(self.u16(t, start, "2-byte length")?),
                AtomTag::AtomUtf8,
            ),
            _ => (
                usize::from(self.u8(t, start, "length byte")?),
                AtomTag::SmallAtomUtf8,
            ),
        };
        let text = self.take(n, t, start, "text")?;
        self.charge(n.saturating_mul(2), t, start)?;
        Ok((text, atom_tag))
    }

    fn atom(&mut self, t: u8, start: usize) -> Result<Atom> {
        let (name, tag) = self.atom_parts(t, start)?;
        Ok(Atom { name, tag })
    }

    /// An atom's text and tag.
    fn atom_parts(&mut self, t: u8, start: usize) -> Result<(String, AtomTag)> {
        let (text, atom_tag) = self.atom_bytes(t, start)?;
        let name = match atom_tag {
            // ASCII (nearly every atom) is the same text in Latin-1 and UTF-8.
            AtomTag::Atom | AtomTag::SmallAtom if !text.is_ascii() => {
                text.iter().map(|&b| char::from(b)).collect()
            }
            _ => match std::str::from_utf8(text) {
                Ok(s) => s.to_owned(),
                Err(e) => {
                    return Err(self.malformed(
                        start,
                        format!(
                            "ETF {} (tag {t}) at byte 0x{:x} is not valid UTF-8 ({e})",
                            tag_name(t),
                            self.offset_of(start)
                        ),
                    ));
                }
            },
        };
        Ok((name, atom_tag))
    }

    // The typed reads below serve readers that decode a known structure straight into their own
    // types (the `.wings` mesh lists). Each one decodes, checks and charges exactly as `term`
    // does for the same bytes; where the bytes hold something else it returns `None` and consumes
    // nothing, and the caller decodes the element with `term` (or goes back to a `mark`).

    /// The tag of the next term, if any.
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// `[]` (`NIL_EXT`): consumed, and true.
    #[inline(always)]
    pub(crate) fn nil(&mut self) -> bool {
        let nil = self.peek() == Some(tag::NIL);
        if nil {
            self.pos = self.pos.wrapping_add(1);
        }
        nil
    }

    /// The element count of a `LIST_EXT` at `depth` (its elements and its tail follow).
    #[inline(always)]
    pub(crate) fn list_head(&mut self, depth: usize) -> Result<Option<usize>> {
        if self.peek() != Some(tag::LIST) {
            return Ok(None);
        }
        let (t, start) = (tag::LIST, self.pos);
        self.pos = self.pos.wrapping_add(1);
        let n = self.u32(t, start, "4-byte length")?;
        self.enter(depth, t, start)?;
        self.items(n, 1, size_of::<Term>(), t, start, "elements")
            .map(Some)
    }

    /// The arity of a tuple at `depth` (its elements follow).
    #[inline(always)]
    pub(crate) fn tuple_head(&mut self, depth: usize) -> Result<Option<usize>> {
        let start = self.pos;
        let arity = match self.peek() {
            Some(t @ tag::SMALL_TUPLE) => {
                self.pos = self.pos.wrapping_add(1);
                (t, u32::from(self.u8(t, start, "arity byte")?))
            }
            Some(t @ tag::LARGE_TUPLE) => {
                self.pos = self.pos.wrapping_add(1);
                (t, self.u32(t, start, "4-byte arity")?)
            }
            _ => return Ok(None),
        };
        let (t, n) = arity;
        self.enter(depth, t, start)?;
        self.items(n, 1, size_of::<Term>(), t, start, "elements")
            .map(Some)
    }

    /// An atom's text as stored and its tag (not checked as UTF-8: compare it with the text of
    /// an ASCII name, or decode the atom with `term` or [`Decoder::atom_term`]).
    #[inline(always)]
    pub(crate) fn atom_text(&mut self) -> Result<Option<(&'a [u8], AtomTag)>> {
        match self.peek() {
            Some(t @ (tag::ATOM | tag::SMALL_ATOM | tag::ATOM_UTF8 | tag::SMALL_ATOM_UTF8)) => {
                let start = self.pos;
                self.pos = self.pos.wrapping_add(1);
                self.atom_bytes(t, start).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// An atom.
    #[inline]
    pub(crate) fn atom_term(&mut self) -> Result<Option<Atom>> {
        match self.peek() {
            Some(t @ (tag::ATOM | tag::SMALL_ATOM | tag::ATOM_UTF8 | tag::SMALL_ATOM_UTF8)) => {
                let start = self.pos;
                self.pos = self.pos.wrapping_add(1);
                self.atom(t, start).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// A `SMALL_INTEGER_EXT`, or an `INTEGER_EXT` from 0 up (the forms of an index that Erlang
    /// writes).
    #[inline(always)]
    pub(crate) fn index(&mut self) -> Option<u32> {
        let at = self.pos;
        match self.peek()? {
            tag::SMALL_INTEGER => {
                let v = *self.bytes.get(at.wrapping_add(1))?;
                self.pos = at.wrapping_add(2);
                Some(u32::from(v))
            }
            tag::INTEGER => {
                let b = self.bytes.get(at.wrapping_add(1)..at.wrapping_add(5))?;
                let v = u32::try_from(i32::from_be_bytes(b.try_into().ok()?)).ok()?;
                self.pos = at.wrapping_add(5);
                Some(v)
            }
            _ => None,
        }
    }

    /// The bytes of a `BINARY_EXT`.
    #[inline(always)]
    pub(crate) fn binary(&mut self) -> Result<Option<&'a [u8]>> {
        if self.peek() != Some(tag::BINARY) {
            return Ok(None);
        }
        let (t, start) = (tag::BINARY, self.pos);
        self.pos = self.pos.wrapping_add(1);
        let n = self.u32(t, start, "4-byte length")? as usize;
        let b = self.take(n, t, start, "bytes")?;
        self.charge(n, t, start)?;
        Ok(Some(b))
    }
}

/// `e` inside element `i` of a tuple or list.
#[cold]
#[inline(never)]
fn at_index(e: Error, i: usize) -> Error {
    e.in_path(format!("[{i}]"))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::super::cases::{TIE_COMPRESSED_HEX, cases, hex};
    use super::*;

    fn err(bytes: &[u8]) -> Error {
        decode(bytes, &Limits::default()).unwrap_err()
    }

    #[test]
    fn decodes_every_case() {
        for (name, term, bytes) in cases() {
            let (got, used) =
                decode_term(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(got, term, "{name}");
            assert_eq!(used, bytes.len(), "{name}");
            let mut whole = vec![131];
            whole.extend_from_slice(&bytes);
            let ext = decode(&whole, &Limits::default()).unwrap();
            assert_eq!(
                (ext.term, ext.compression),
                (term, Compression::None),
                "{name}"
            );
        }
    }

    /// Every proper prefix of every case is an error (never a panic), and a trailing byte is one.
    #[test]
    fn truncation_sweep() {
        for (name, _, bytes) in cases() {
            let mut whole = vec![131];
            whole.extend_from_slice(&bytes);
            // Every cut of the small cases; the first and last 300 of the 64 KiB ones.
            let n = whole.len();
            let cuts = (0..n).filter(|&c| n < 2000 || c < 300 || c + 300 > n);
            for cut in cuts {
                let e = decode(&whole[..cut], &Limits::default()).unwrap_err();
                assert_eq!(e.kind, ErrorKind::Truncated, "{name} cut at {cut}: {e}");
            }
            whole.push(106);
            let e = decode(&whole, &Limits::default()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Malformed, "{name}: {e}");
            assert!(e.message.contains("1 more bytes follow"), "{e}");
        }
    }

    /// Non-canonical forms Erlang reads: they decode to the value (and re-encode canonically).
    #[test]
    fn non_canonical_integers_decode_to_their_value() {
        let (t, _) = decode_term(&[110, 2, 0, 1, 0], &Limits::default()).unwrap();
        assert_eq!(t, Term::Int(1));
        let (t, _) = decode_term(&[111, 0, 0, 0, 1, 1, 5], &Limits::default()).unwrap();
        assert_eq!(t, Term::Int(-5));
        let (t, _) = decode_term(&[110, 0, 1], &Limits::default()).unwrap();
        assert_eq!(t, Term::Int(0));
        let (t, _) = decode_term(
            &[110, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            t,
            Term::Big(Big {
                negative: false,
                magnitude: vec![0, 0, 0, 0, 0, 0, 0, 0, 2]
            })
        );
    }

    #[test]
    fn refuses_what_erlang_refuses() {
        let bad: &[(&[u8], ErrorKind, &str)] = &[
            (&[], ErrorKind::Truncated, "expected the version byte 131"),
            (&[130, 106], ErrorKind::Malformed, "version byte is 130"),
            (
                &[131, 88, 0],
                ErrorKind::Unsupported,
                "tag 88 (NEW_PID_EXT)",
            ),
            (
                &[131, 90, 0],
                ErrorKind::Unsupported,
                "tag 90 (NEWER_REFERENCE_EXT)",
            ),
            (
                &[131, 112, 0],
                ErrorKind::Unsupported,
                "tag 112 (NEW_FUN_EXT)",
            ),
            (
                &[131, 113, 0],
                ErrorKind::Unsupported,
                "tag 113 (EXPORT_EXT)",
            ),
            (&[131, 1], ErrorKind::Unsupported, "tag 1 (unknown tag)"),
            (&[131, 110, 1, 2, 1], ErrorKind::Malformed, "sign byte 2"),
            (&[131, 77, 0, 0, 0, 1, 0, 1], ErrorKind::Malformed, "0 bits"),
            (&[131, 77, 0, 0, 0, 1, 9, 1], ErrorKind::Malformed, "9 bits"),
            (&[131, 77, 0, 0, 0, 0, 3], ErrorKind::Malformed, "3 bits"),
            (
                &[131, 70, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0],
                ErrorKind::Malformed,
                "inf",
            ),
            (
                &[131, 70, 0x7F, 0xF8, 0, 0, 0, 0, 0, 0],
                ErrorKind::Malformed,
                "NaN",
            ),
            (
                &[131, 118, 0, 1, 0xFF],
                ErrorKind::Malformed,
                "not valid UTF-8",
            ),
            (
                &[131, 104, 1, 80, 0, 0, 0, 0],
                ErrorKind::Malformed,
                "inside a term",
            ),
            // Counts the input cannot back: refused before allocating.
            (
                &[131, 108, 255, 255, 255, 255, 106],
                ErrorKind::Truncated,
                "declares 4294967295 elements but only 1 bytes remain",
            ),
            (
                &[131, 105, 0, 16, 0, 0, 106],
                ErrorKind::Truncated,
                "declares 1048576 elements",
            ),
            (
                &[131, 116, 0, 0, 0, 2, 97, 1, 97],
                ErrorKind::Truncated,
                "declares 2 pairs",
            ),
            (
                &[131, 109, 255, 255, 255, 255],
                ErrorKind::Truncated,
                "4294967295 bytes needed",
            ),
        ];
        for (bytes, kind, text) in bad {
            let e = err(bytes);
            assert_eq!(e.kind, *kind, "{bytes:?}: {e}");
            assert!(e.to_string().starts_with("wings: ETF "), "{e}");
            assert!(e.message.contains(text), "{bytes:?}: {e}");
        }
        let mut float = vec![131, 99];
        float.extend_from_slice(b"nan");
        float.resize(33, 0);
        assert!(err(&float).message.contains("\"nan\""));
        float[2..5].copy_from_slice(b"1e9");
        assert_eq!(
            decode(&float, &Limits::default()).unwrap().term.as_number(),
            Some(1e9)
        );
    }

    #[test]
    fn errors_name_offset_and_path() {
        // {a, [1, <pid>]}: the pid is at byte 0xe.
        let bytes = [131, 104, 2, 100, 0, 1, 97, 108, 0, 0, 0, 2, 97, 1, 88, 0];
        let e = err(&bytes);
        assert_eq!(e.location.offset, Some(0xe));
        assert_eq!(e.location.path.as_deref(), Some("[1][1]"));
        assert!(e.message.contains("at byte 0xe"), "{e}");
    }

    #[test]
    fn depth_limit() {
        let nest = |depth: usize| {
            let mut b = vec![131];
            b.extend(std::iter::repeat_n([104u8, 1], depth).flatten());
            b.push(106);
            b
        };
        let limits = Limits::strict();
        assert!(decode(&nest(limits.max_depth), &limits).is_ok());
        let e = decode(&nest(limits.max_depth + 1), &limits).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded);
        assert!(e.message.contains("limit of 64 levels"), "{e}");
    }

    fn wrapper(declared: u32, term: &[u8], extra: &[u8]) -> Vec<u8> {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
        std::io::Write::write_all(&mut z, term).unwrap();
        let stream = z.finish().unwrap();
        let mut b = vec![131, 80];
        b.extend_from_slice(&declared.to_be_bytes());
        b.extend_from_slice(&stream);
        b.extend_from_slice(extra);
        b
    }

    /// `b` with its last `n`-th byte changed.
    fn damaged(mut b: Vec<u8>, n: usize) -> Vec<u8> {
        let at = b.len() - n;
        b[at] ^= 0x55;
        b
    }

    /// `b` without its last `n` bytes.
    fn cut(mut b: Vec<u8>, n: usize) -> Vec<u8> {
        b.truncate(b.len() - n);
        b
    }

    #[test]
    fn compressed_wrapper() {
        let term = [107, 0, 3, 1, 2, 3];
        let ok = decode(&wrapper(6, &term, &[]), &Limits::default()).unwrap();
        assert_eq!(ok.term, Term::String(vec![1, 2, 3]));
        assert_eq!(ok.compression, Compression::Zlib);
        let bad: &[(Vec<u8>, ErrorKind, &str)] = &[
            (
                wrapper(7, &term, &[]),
                ErrorKind::Truncated,
                "inflates to only 6 bytes",
            ),
            (
                wrapper(5, &term, &[]),
                ErrorKind::Malformed,
                "inflates to more than 5",
            ),
            (
                wrapper(6, &term, &[0]),
                ErrorKind::Malformed,
                "1 bytes follow the end of the zlib",
            ),
            (
                wrapper(7, &[107, 0, 3, 1, 2, 3, 106], &[]),
                ErrorKind::Malformed,
                "1 more bytes follow",
            ),
            (
                wrapper(u32::MAX, &term, &[]),
                ErrorKind::LimitExceeded,
                "ETF inflated term",
            ),
            (
                vec![131, 80, 0, 0, 0, 6, 1, 2, 3],
                ErrorKind::Malformed,
                "does not inflate",
            ),
            (
                vec![131, 80, 0, 0],
                ErrorKind::Truncated,
                "4-byte uncompressed size",
            ),
            // The zlib wrapper, checked here as zlib checks it (the deflate data is inflated
            // raw): the Adler-32 trailer, damaged or cut short, ...
            (
                damaged(wrapper(6, &term, &[]), 1),
                ErrorKind::Malformed,
                "(corrupt deflate stream) after 6 bytes",
            ),
            (
                cut(wrapper(6, &term, &[]), 2),
                ErrorKind::Truncated,
                "(incomplete deflate stream) after 6 bytes",
            ),
            (
                cut(wrapper(6, &term, &[]), 4),
                ErrorKind::Truncated,
                "(incomplete deflate stream)",
            ),
            // ... the header's check bits, method and window size, and a preset dictionary ...
            (
                vec![131, 80, 0, 0, 0, 6, 0x78, 0x9D, 3, 0],
                ErrorKind::Malformed,
                "(corrupt deflate stream) after 0 bytes",
            ),
            (
                vec![131, 80, 0, 0, 0, 6, 0x79, 0x18, 3, 0],
                ErrorKind::Malformed,
                "(corrupt deflate stream)",
            ),
            (
                vec![131, 80, 0, 0, 0, 6, 0x88, 0x98, 3, 0],
                ErrorKind::Malformed,
                "(corrupt deflate stream)",
            ),
            (
                vec![131, 80, 0, 0, 0, 6, 0x78, 0xBB, 0, 0, 0, 1, 3, 0],
                ErrorKind::Malformed,
                "(corrupt deflate stream)",
            ),
            (
                vec![131, 80, 0, 0, 0, 6, 0x78, 0xBB, 0, 0],
                ErrorKind::Truncated,
                "(incomplete deflate stream)",
            ),
            // ... and a stream that stops in its header or its data.
            (
                vec![131, 80, 0, 0, 0, 6, 0x78],
                ErrorKind::Truncated,
                "(incomplete deflate stream) after 0 bytes",
            ),
            (
                cut(wrapper(6, &term, &[]), 7),
                ErrorKind::Truncated,
                "(incomplete deflate stream)",
            ),
        ];
        for (bytes, kind, text) in bad {
            let e = decode(bytes, &Limits::strict()).unwrap_err();
            assert_eq!(e.kind, *kind, "{e}");
            assert!(e.message.contains(text), "{e}");
        }
        // A zip bomb: 64 MiB of zeros declared honestly is refused by the budget before inflating.
        let huge = wrapper(64 << 20, &[], &[]);
        let e = decode(&huge, &Limits::strict()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::LimitExceeded);
        // The tie case from Erlang decodes as compressed.
        let tie = decode(&hex(TIE_COMPRESSED_HEX), &Limits::default()).unwrap();
        assert_eq!(tie.compression, Compression::Zlib);
    }

    /// Garbage sweep: every small case with random bytes overwritten never panics, and whatever
    /// still decodes re-encodes to a term that decodes the same.
    #[test]
    fn garbage_sweep() {
        let mut next = crate::testutil::xorshift();
        let (mut decoded, mut refused) = (0, 0);
        for (name, _, bytes) in cases().into_iter().filter(|c| c.2.len() < 600) {
            let mut whole = vec![131];
            whole.extend_from_slice(&bytes);
            for _ in 0..300 {
                let mut b = whole.clone();
                for _ in 0..=next() % 3 {
                    let at = 1 + (next() as usize) % (b.len() - 1).max(1);
                    if let Some(x) = b.get_mut(at) {
                        *x = next() as u8;
                    }
                }
                match decode(&b, &Limits::strict()) {
                    Ok(ext) => {
                        decoded += 1;
                        let again = super::super::encode(&ext).unwrap();
                        assert_eq!(decode(&again, &Limits::strict()).unwrap(), ext, "{name}");
                    }
                    Err(_) => refused += 1,
                }
            }
        }
        assert!(
            decoded > 1000 && refused > 1000,
            "{decoded} decoded, {refused} refused"
        );
    }
}
