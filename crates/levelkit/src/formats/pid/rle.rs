//! The two run-length grammars of WAP32 images, decoders and encoders over byte slices: the
//! PCX-style `0xC0` grammar ([`decode_runs`], [`encode_runs`]) that PIDs without flag `0x20`
//! and PCX screens use, and the skip grammar of PIDs with flag `0x20` ([`decode_skips`],
//! [`encode_skips`]). A leaf module: the PID and PCX readers and writers all use it.
//!
//! Decoding walks the image in raster order, one continuous run of pixels: a token that runs
//! past the end of a row carries on into the next one, as OpenClaw's `libwap` and WAP32.rs
//! decode (and as Gruntz's `CDDSurface::RunDecode1` carries, per sushi-shi/gruntz-decomp). The
//! original encoders never write such a token, so the choice only matters for hand-made files;
//! validation reports them. A token that runs past the last pixel is cut there.
//!
//! Encoding restarts at every row: runs never cross a row end, which is what every shipped file
//! shows. The choices left to an encoder are a [`Spelling`].

#![deny(clippy::arithmetic_side_effects)]

use serde::{Deserialize, Serialize};

/// Longest run the `0xC0` grammar can say (`0xFF` = 63 copies).
pub const MAX_RUN: usize = 0x3F;
/// Longest fill or literal run the skip grammar can say (`0xFF` = 127 fill pixels).
pub const MAX_SKIP: usize = 0x7F;

/// Which lone bytes the `0xC0` encoder writes as a bare literal; the others become a run of one
/// (`C1 v`). A decoder takes any byte below `0xC0` as a literal, so this is a spelling choice,
/// and different tools chose differently (sushi-shi/gruntz-decomp measured the Gruntz archives:
/// [`Literals::Decodable`] reproduces the tile and menu exporters and TRAINING.PCX; the
/// `IMAGEZ` sprite exporter matched none of these on most sprites).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Literals {
    /// Every byte below `0xC0` is a literal: the shortest spelling.
    #[default]
    Decodable,
    /// Only bytes below `0x40` are literals.
    LowSixBits,
    /// Only bytes below `0x80` are literals.
    HighBitClear,
    /// No literals: every lone byte is `C1 v`.
    Never,
}

impl Literals {
    /// Every rule, in the order a reader tries them on a stream.
    pub const ALL: [Literals; 4] = [
        Literals::Decodable,
        Literals::LowSixBits,
        Literals::HighBitClear,
        Literals::Never,
    ];

    /// Whether the byte `v` alone is written as a bare literal.
    pub fn allows(self, v: u8) -> bool {
        match self {
            Literals::Decodable => v < 0xC0,
            Literals::LowSixBits => v < 0x40,
            Literals::HighBitClear => v < 0x80,
            Literals::Never => false,
        }
    }
}

/// The choices an encoder makes that a decoder cannot see: the model keeps the ones that
/// reproduce the file it was read from, and the writer encodes with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spelling {
    /// `0xC0` grammar: which lone bytes are bare literals.
    pub literals: Literals,
    /// Skip grammar: the longest fill run written, 1 to 127. The Gruntz exporter stops at 126
    /// and never writes the byte `0xFF` (a 132-pixel transparent row is `FE 86`;
    /// sushi-shi/gruntz-decomp, `FillRunCap`).
    pub fill_run_max: u8,
}

impl Default for Spelling {
    fn default() -> Self {
        Spelling {
            literals: Literals::Decodable,
            fill_run_max: 126,
        }
    }
}

/// A stream that ends before the image is complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exhausted {
    /// Offset in the stream where the next byte was needed.
    pub at: usize,
    /// Pixels (or bytes, for PCX scanlines) still missing.
    pub missing: usize,
}

/// Decode the `0xC0` grammar into `out`, filling it completely: a byte `0xC0 | n` is `n`
/// copies of the next byte (`n` = 0 writes nothing, as Gruntz's `DecodePidData` and PCX loop do),
/// any other byte is itself. Returns the stream bytes used.
pub fn decode_runs(stream: &[u8], out: &mut [u8]) -> Result<usize, Exhausted> {
    let total = out.len();
    let (mut p, mut o) = (0usize, 0usize);
    while o < total {
        let missing = total.saturating_sub(o);
        let Some(&token) = stream.get(p) else {
            return Err(Exhausted { at: p, missing });
        };
        if token >= 0xC0 {
            let at = p.saturating_add(1);
            let Some(&value) = stream.get(at) else {
                return Err(Exhausted { at, missing });
            };
            let n = usize::from(token & 0x3F).min(missing);
            let end = o.saturating_add(n);
            if let Some(dst) = out.get_mut(o..end) {
                dst.fill(value);
            }
            o = end;
            p = at.saturating_add(1);
        } else {
            if let Some(dst) = out.get_mut(o) {
                *dst = token;
            }
            o = o.saturating_add(1);
            p = p.saturating_add(1);
        }
    }
    Ok(p)
}

/// Decode the skip grammar into `out`, filling it completely: a byte `0x80 | n` is `n` pixels
/// of `fill`, a byte `n` below `0x80` is followed by `n` literal pixels. Returns the stream
/// bytes used (a literal run is used whole even where the image ends inside it).
pub fn decode_skips(stream: &[u8], out: &mut [u8], fill: u8) -> Result<usize, Exhausted> {
    let total = out.len();
    let (mut p, mut o) = (0usize, 0usize);
    while o < total {
        let missing = total.saturating_sub(o);
        let Some(&token) = stream.get(p) else {
            return Err(Exhausted { at: p, missing });
        };
        let start = p.saturating_add(1);
        if token & 0x80 != 0 {
            let n = usize::from(token & 0x7F).min(missing);
            let end = o.saturating_add(n);
            if let Some(dst) = out.get_mut(o..end) {
                dst.fill(fill);
            }
            o = end;
            p = start;
        } else {
            let len = usize::from(token);
            let stop = start.saturating_add(len);
            let Some(src) = stream.get(start..stop) else {
                return Err(Exhausted {
                    at: stream.len(),
                    missing,
                });
            };
            let n = len.min(missing);
            let end = o.saturating_add(n);
            if let (Some(dst), Some(src)) = (out.get_mut(o..end), src.get(..n)) {
                dst.copy_from_slice(src);
            }
            o = end;
            p = stop;
        }
    }
    Ok(p)
}

/// Where an encoder puts its bytes: a `Vec<u8>`, or a [`Matcher`] that only compares them with
/// a stream already read.
pub trait Sink {
    /// Append one byte.
    fn put(&mut self, b: u8);
    /// Append bytes.
    fn put_all(&mut self, bytes: &[u8]);
    /// True once the output can no longer be what the caller wants (stops the encoder early).
    fn gave_up(&self) -> bool {
        false
    }
}

impl Sink for Vec<u8> {
    fn put(&mut self, b: u8) {
        self.push(b);
    }
    fn put_all(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A [`Sink`] that checks an encoder's output against `expected` without storing it.
#[derive(Debug)]
pub struct Matcher<'a> {
    expected: &'a [u8],
    pos: usize,
    ok: bool,
}

impl<'a> Matcher<'a> {
    /// A matcher for `expected`.
    pub fn new(expected: &'a [u8]) -> Self {
        Matcher {
            expected,
            pos: 0,
            ok: true,
        }
    }

    /// True when the output was exactly `expected`.
    pub fn matched(&self) -> bool {
        self.ok && self.pos == self.expected.len()
    }
}

impl Sink for Matcher<'_> {
    fn put(&mut self, b: u8) {
        if self.ok && self.expected.get(self.pos) == Some(&b) {
            self.pos = self.pos.saturating_add(1);
        } else {
            self.ok = false;
        }
    }
    fn put_all(&mut self, bytes: &[u8]) {
        let end = self.pos.saturating_add(bytes.len());
        if self.ok && self.expected.get(self.pos..end) == Some(bytes) {
            self.pos = end;
        } else {
            self.ok = false;
        }
    }
    fn gave_up(&self) -> bool {
        !self.ok
    }
}

/// The first rule in [`Literals::ALL`] with which [`encode_runs`] gives exactly `stream`.
///
/// Checked token by token, not by encoding again: every token must be one the encoder writes
/// (a run within its row, as long as the pixels allow up to 63, never empty), and the rules
/// differ only in how a lone byte below `0xC0` is spelled, which the stream shows (a bare `v`,
/// or `C1 v`), so each lone byte rules out the rules that spell it the other way.
pub fn runs_spelling(pixels: &[u8], row_len: usize, stream: &[u8]) -> Option<Literals> {
    let row_len = row_len.max(1);
    let mut alive = [true; Literals::ALL.len()];
    let (mut p, mut o) = (0usize, 0usize);
    // Where the row of pixel `o` ends.
    let mut row_end = 0usize;
    while let Some(&token) = stream.get(p) {
        let (v, n, bare) = if token >= 0xC0 {
            let v = *stream.get(p.saturating_add(1))?;
            p = p.saturating_add(2);
            (v, usize::from(token & 0x3F), false)
        } else {
            p = p.saturating_add(1);
            (token, 1, true)
        };
        if o == row_end {
            row_end = o.saturating_add(row_len).min(pixels.len());
        }
        let end = o.saturating_add(n);
        // Empty runs and runs past the row are never written; the pixels must be these.
        if n == 0 || end > row_end || !pixels.get(o..end)?.iter().all(|&b| b == v) {
            return None;
        }
        // The encoder's runs are as long as they can be.
        if n < MAX_RUN && pixels.get(end).is_some_and(|&b| b == v) && end < row_end {
            return None;
        }
        if n == 1 && Literals::Decodable.allows(v) {
            for (alive, rule) in alive.iter_mut().zip(Literals::ALL) {
                *alive &= rule.allows(v) == bare;
            }
        }
        o = end;
    }
    if o != pixels.len() {
        return None;
    }
    Literals::ALL
        .into_iter()
        .zip(alive)
        .find_map(|(rule, alive)| alive.then_some(rule))
}

/// The first longest fill run, of 126 (the Gruntz exporter's) and 127, with which
/// [`encode_skips`] gives exactly `stream`.
pub fn skips_spelling(pixels: &[u8], row_len: usize, fill: u8, stream: &[u8]) -> Option<u8> {
    [126, 127].into_iter().find(|&max| {
        let mut m = Matcher::new(stream);
        encode_skips(pixels, row_len, fill, max, &mut m);
        m.matched()
    })
}

/// Encode `pixels` in the `0xC0` grammar, `row_len` bytes a row (a shorter last row is encoded
/// as it is): runs of two or more equal bytes (at most 63) become `0xC0 | n, v`, a lone byte
/// a literal where `literals` allows it.
pub fn encode_runs(pixels: &[u8], row_len: usize, literals: Literals, out: &mut impl Sink) {
    for row in pixels.chunks(row_len.max(1)) {
        if out.gave_up() {
            return;
        }
        let mut rest = row;
        while let Some((&v, tail)) = rest.split_first() {
            let n = tail
                .iter()
                .take(MAX_RUN.saturating_sub(1))
                .take_while(|&&b| b == v)
                .count()
                .saturating_add(1);
            if n >= 2 || !literals.allows(v) {
                // n <= 63 by the take above.
                out.put(0xC0 | (n as u8));
                out.put(v);
            } else {
                out.put(v);
            }
            rest = rest.get(n..).unwrap_or_default();
        }
    }
}

/// Encode `pixels` in the skip grammar, `row_len` pixels a row: spans of `fill` become
/// `0x80 | n` (at most `fill_run_max`, clamped to 1..=127), other spans `n` then their `n`
/// bytes (at most 127).
pub fn encode_skips(
    pixels: &[u8],
    row_len: usize,
    fill: u8,
    fill_run_max: u8,
    out: &mut impl Sink,
) {
    let fill_max = usize::from(fill_run_max).clamp(1, MAX_SKIP);
    for row in pixels.chunks(row_len.max(1)) {
        if out.gave_up() {
            return;
        }
        let mut rest = row;
        while let Some(&v) = rest.first() {
            let is_fill = v == fill;
            let max = if is_fill { fill_max } else { MAX_SKIP };
            let n = rest
                .iter()
                .take(max)
                .take_while(|&&b| (b == fill) == is_fill)
                .count();
            // n <= 127 by the take above.
            if is_fill {
                out.put(0x80 | (n as u8));
            } else {
                out.put(n as u8);
                out.put_all(rest.get(..n).unwrap_or_default());
            }
            rest = rest.get(n..).unwrap_or_default();
        }
    }
}

/// What a stream does that the original encoders never do: for validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Oddities {
    /// Tokens that say zero pixels (`C0 v`, `80`, `00`).
    pub empty_tokens: usize,
    /// Tokens that carry on past the end of a row.
    pub row_crossings: usize,
    /// The offset of the first of either, if any.
    pub first_at: Option<usize>,
}

/// Walk a stream as [`decode_runs`] (`skip_fill` = `None`) or [`decode_skips`] (`Some`) would
/// for `total` pixels of `row_len` a row, counting the [`Oddities`]. Stops where decoding
/// would stop (or fail).
pub fn oddities(stream: &[u8], row_len: usize, total: usize, skips: bool) -> Oddities {
    let row_len = row_len.max(1);
    let mut odd = Oddities::default();
    let (mut p, mut o) = (0usize, 0usize);
    while o < total {
        let Some(&token) = stream.get(p) else { break };
        let (n, used) = if skips {
            if token & 0x80 != 0 {
                (usize::from(token & 0x7F), 1usize)
            } else {
                (usize::from(token), usize::from(token).saturating_add(1))
            }
        } else if token >= 0xC0 {
            (usize::from(token & 0x3F), 2)
        } else {
            (1, 1)
        };
        let room = row_len.saturating_sub(o.checked_rem(row_len).unwrap_or(0));
        if n == 0 {
            odd.empty_tokens = odd.empty_tokens.saturating_add(1);
            odd.first_at.get_or_insert(p);
        } else if n > room {
            odd.row_crossings = odd.row_crossings.saturating_add(1);
            odd.first_at.get_or_insert(p);
        }
        o = o.saturating_add(n);
        p = p.saturating_add(used);
    }
    odd
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn runs(stream: &[u8], n: usize) -> (Vec<u8>, usize) {
        let mut out = vec![0; n];
        let used = decode_runs(stream, &mut out).unwrap();
        (out, used)
    }

    /// The one-pass [`runs_spelling`] names the rule that trying each in turn would: the first
    /// whose encoding is the stream, on streams written by every rule and on altered ones.
    #[test]
    fn runs_spelling_is_the_first_rule_that_reproduces_the_stream() {
        let mut seed = 0x2545_f491_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let tried_each = |px: &[u8], row: usize, stream: &[u8]| {
            Literals::ALL.into_iter().find(|&rule| {
                let mut m = Matcher::new(stream);
                encode_runs(px, row, rule, &mut m);
                m.matched()
            })
        };
        for case in 0..2000 {
            let len = (next() % 200) as usize;
            let palette = [0x10, 0x41, 0x85, 0xC1, 0xC5, 0xFF, 0x3F, 0x7F, 0x80, 0xBF];
            let px: Vec<u8> = (0..len)
                .map(|_| palette[(next() % palette.len() as u32) as usize])
                .collect();
            let row = 1 + (next() % 40) as usize;
            for rule in Literals::ALL {
                let mut stream = Vec::new();
                encode_runs(&px, row, rule, &mut stream);
                assert_eq!(
                    runs_spelling(&px, row, &stream),
                    tried_each(&px, row, &stream),
                    "case {case}"
                );
                if let Some(b) = stream.get_mut(len % 7) {
                    *b ^= 0x41;
                }
                assert_eq!(
                    runs_spelling(&px, row, &stream),
                    tried_each(&px, row, &stream),
                    "case {case}, altered"
                );
            }
        }
    }

    #[test]
    fn run_grammar_decodes_runs_literals_and_empty_runs() {
        assert_eq!(
            runs(&[0xC3, 0xAA, 0x05], 4),
            (vec![0xAA, 0xAA, 0xAA, 0x05], 3)
        );
        // 0x80..0xBF are literals; C0 is a run of nothing.
        assert_eq!(
            runs(&[0x80, 0xC0, 0x11, 0xBF, 0x00], 3),
            (vec![0x80, 0xBF, 0x00], 5)
        );
        // A run past the end is cut; one past a row end carries on.
        assert_eq!(runs(&[0xC6, 0xAA], 4), (vec![0xAA; 4], 2));
        assert_eq!(
            decode_runs(&[0xC2, 0xAA], &mut [0; 4]),
            Err(Exhausted { at: 2, missing: 2 })
        );
        assert_eq!(
            decode_runs(&[0xC2], &mut [0; 4]),
            Err(Exhausted { at: 1, missing: 4 })
        );
    }

    #[test]
    fn skip_grammar_decodes_fill_and_literals() {
        let mut out = [9u8; 5];
        assert_eq!(
            decode_skips(&[0x82, 0x02, 0xAA, 0xBB, 0x81], &mut out, 7),
            Ok(5)
        );
        assert_eq!(out, [7, 7, 0xAA, 0xBB, 7]);
        assert_eq!(
            decode_skips(&[0x03, 1, 2], &mut [0; 4], 0),
            Err(Exhausted { at: 3, missing: 4 })
        );
    }

    #[test]
    fn encoders_restart_rows_and_follow_the_spelling() {
        let mut out = Vec::new();
        encode_runs(&[0xAA; 8], 4, Literals::Decodable, &mut out);
        assert_eq!(out, [0xC4, 0xAA, 0xC4, 0xAA]);
        out.clear();
        encode_runs(&[0x10, 0x50, 0x90, 0xC5], 4, Literals::LowSixBits, &mut out);
        assert_eq!(out, [0x10, 0xC1, 0x50, 0xC1, 0x90, 0xC1, 0xC5]);
        out.clear();
        encode_runs(&[0xAA; 128], 128, Literals::Decodable, &mut out);
        assert_eq!(out, [0xFF, 0xAA, 0xFF, 0xAA, 0xC2, 0xAA]);
        out.clear();
        encode_skips(&[0; 132], 132, 0, 126, &mut out);
        assert_eq!(out, [0xFE, 0x86]);
        out.clear();
        encode_skips(&[0; 132], 132, 0, 127, &mut out);
        assert_eq!(out, [0xFF, 0x85]);
        out.clear();
        encode_skips(&[0, 5, 6, 0], 2, 0, 126, &mut out);
        assert_eq!(out, [0x81, 0x01, 5, 0x01, 6, 0x81]);
    }

    #[test]
    fn every_spelling_round_trips() {
        let px: Vec<u8> = (0..=255u8)
            .chain((0..=255u8).rev())
            .chain([7; 100])
            .collect();
        for rule in Literals::ALL {
            let mut enc = Vec::new();
            encode_runs(&px, 61, rule, &mut enc);
            assert_eq!(runs(&enc, px.len()), (px.clone(), enc.len()), "{rule:?}");
            assert_eq!(oddities(&enc, 61, px.len(), false), Oddities::default());
        }
        for max in [1, 126, 127] {
            let mut enc = Vec::new();
            encode_skips(&px, 61, 7, max, &mut enc);
            let mut out = vec![0; px.len()];
            assert_eq!(decode_skips(&enc, &mut out, 7), Ok(enc.len()));
            assert_eq!(out, px);
            assert_eq!(oddities(&enc, 61, px.len(), true), Oddities::default());
        }
    }

    #[test]
    fn spellings_are_found() {
        let px = [0x10, 0x50, 0x50, 0x90];
        let mut enc = Vec::new();
        encode_runs(&px, 4, Literals::LowSixBits, &mut enc);
        assert_eq!(runs_spelling(&px, 4, &enc), Some(Literals::LowSixBits));
        assert_eq!(
            runs_spelling(&px, 4, &[0x10, 0xC2, 0x50, 0x90]),
            Some(Literals::Decodable)
        );
        assert_eq!(runs_spelling(&px, 4, &[0x10, 0x50, 0x50, 0x90]), None);
        assert_eq!(skips_spelling(&[0; 132], 132, 0, &[0xFF, 0x85]), Some(127));
        assert_eq!(skips_spelling(&[0; 132], 132, 0, &[0xFE, 0x86]), Some(126));
        assert_eq!(skips_spelling(&[0; 132], 132, 0, &[0xFE, 0x86, 0]), None);
    }

    #[test]
    fn oddities_are_counted() {
        let odd = oddities(&[0x01, 0xC0, 0x00, 0xC5, 0x02], 4, 8, false);
        assert_eq!(odd.empty_tokens, 1);
        assert_eq!(odd.row_crossings, 1);
        assert_eq!(odd.first_at, Some(1));
    }
}
