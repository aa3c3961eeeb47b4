//! ETF encoding: [`Term`] to bytes, repeating the encoding choices the term records and writing
//! integers canonically, as `term_to_binary` does.
//!
//! The encoder walks the term with an explicit stack, so a term of any depth encodes without
//! recursion.

use flate2::{Compress, FlushCompress, Status};

use super::decode::{VERSION, tag};
use super::{AtomTag, Big, Compression, External, Term};
use crate::error::{Error, Location, Result};
use crate::registry::Format;

const F: Format = Format::Wings;

/// The zlib level `term_to_binary(T, [compressed])` uses (zlib's default).
const LEVEL: u32 = 6;

/// Encode exactly as `External` says: 131, then the term, in the compressed wrapper (tag 80,
/// u32 BE uncompressed size, zlib level 6) when `compression` is `Zlib`, even where that is
/// larger than the plain form (see [`term_to_binary_compressed`] for Erlang's choice).
pub fn encode(ext: &External) -> Result<Vec<u8>> {
    let mut out = vec![VERSION];
    match ext.compression {
        Compression::None => {
            encode_term(&ext.term, &mut out)?;
            Ok(out)
        }
        Compression::Zlib => {
            let mut plain = Vec::new();
            encode_term(&ext.term, &mut plain)?;
            wrap(&plain, &mut out)?;
            Ok(out)
        }
    }
}

/// What `term_to_binary(Term, [compressed])` produces: the compressed wrapper unless it would
/// be larger than the plain encoding.
///
/// Erlang's rule (`erts/emulator/beam/external.c`, `erts_term_to_binary_int` and
/// `erts_term_to_binary_simple`): zlib gets an output buffer of the plain term's size minus the 5
/// bytes of the wrapper's tag and size, and the plain encoding is used when the stream does not
/// fit. So a compressed result exactly as long as the plain one is kept.
pub fn term_to_binary_compressed(term: &Term) -> Result<Vec<u8>> {
    let mut plain = vec![VERSION];
    encode_term(term, &mut plain)?;
    let term_len = plain.len().saturating_sub(1);
    let mut compressed = vec![VERSION];
    let term_bytes = plain.get(1..).unwrap_or(&[]);
    wrap(term_bytes, &mut compressed)?;
    if compressed.len() <= plain.len() && term_len >= 5 {
        Ok(compressed)
    } else {
        Ok(plain)
    }
}

/// Append the compressed wrapper of the term bytes `plain` to `out`.
fn wrap(plain: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let size = u32::try_from(plain.len()).map_err(|_| {
        Error::malformed(
            F,
            Location::default(),
            format!(
                "ETF term of {} bytes is too large for the compressed wrapper's 4-byte size",
                plain.len()
            ),
        )
    })?;
    out.push(tag::COMPRESSED);
    out.extend_from_slice(&size.to_be_bytes());
    // One deflate call over the whole input, as zlib's `compress2` (which Erlang uses) does.
    let mut z = Compress::new(flate2::Compression::new(LEVEL), true);
    out.reserve(plain.len() / 2 + 64);
    loop {
        let consumed = usize::try_from(z.total_in()).unwrap_or(usize::MAX);
        let input = plain.get(consumed..).unwrap_or(&[]);
        let status = z
            .compress_vec(input, out, FlushCompress::Finish)
            .map_err(|e| {
                Error::malformed(
                    F,
                    Location::default(),
                    format!("ETF zlib compression failed: {e}"),
                )
            })?;
        match status {
            Status::StreamEnd => return Ok(()),
            Status::Ok | Status::BufError => out.reserve(out.capacity().max(4096)),
        }
    }
}

/// A step of the explicit encoding stack.
enum Step<'a> {
    Term(&'a Term),
    Pair(&'a (Term, Term)),
}

/// Encode a term without the version byte, appended to `out`.
pub fn encode_term(term: &Term, out: &mut Vec<u8>) -> Result<()> {
    let mut stack = vec![Step::Term(term)];
    while let Some(step) = stack.pop() {
        let term = match step {
            Step::Term(t) => t,
            Step::Pair((k, v)) => {
                stack.push(Step::Term(v));
                k
            }
        };
        match term {
            Term::Int(v) => int(*v, out),
            Term::Big(b) => big(b, out)?,
            Term::Float(f) => match &f.text {
                None => {
                    out.push(tag::NEW_FLOAT);
                    out.extend_from_slice(&f.value.to_be_bytes());
                }
                Some(text) => {
                    if text.len() != 31 {
                        return Err(invalid(format!(
                            "ETF FLOAT_EXT text of float {} is {} bytes; expected exactly 31",
                            f.value,
                            text.len()
                        )));
                    }
                    out.push(tag::FLOAT);
                    out.extend_from_slice(text);
                }
            },
            Term::Atom(a) => {
                let latin1 = matches!(a.tag, AtomTag::Atom | AtomTag::SmallAtom);
                let bytes: Vec<u8> = if latin1 {
                    let mut bytes = Vec::with_capacity(a.name.len());
                    for c in a.name.chars() {
                        match u8::try_from(u32::from(c)) {
                            Ok(b) => bytes.push(b),
                            Err(_) => {
                                return Err(invalid(format!(
                                    "ETF atom {:?} has the character {c:?} (U+{:04X}), which the \
                                     Latin-1 tag {:?} cannot hold; use a UTF-8 atom tag",
                                    a.name,
                                    u32::from(c),
                                    a.tag
                                )));
                            }
                        }
                    }
                    bytes
                } else {
                    a.name.as_bytes().to_vec()
                };
                let (t, max) = match a.tag {
                    AtomTag::Atom => (tag::ATOM, 65535),
                    AtomTag::SmallAtom => (tag::SMALL_ATOM, 255),
                    AtomTag::AtomUtf8 => (tag::ATOM_UTF8, 65535),
                    AtomTag::SmallAtomUtf8 => (tag::SMALL_ATOM_UTF8, 255),
                };
                if bytes.len() > max {
                    return Err(invalid(format!(
                        "ETF atom of {} bytes does not fit tag {:?} (at most {max} bytes)",
                        bytes.len(),
                        a.tag
                    )));
                }
                out.push(t);
                if max == 255 {
                    out.push(bytes.len() as u8);
                } else {
                    out.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
                }
                out.extend_from_slice(&bytes);
            }
            Term::Tuple(items) => {
                if let Ok(n) = u8::try_from(items.len()) {
                    out.push(tag::SMALL_TUPLE);
                    out.push(n);
                } else {
                    out.push(tag::LARGE_TUPLE);
                    out.extend_from_slice(&len32(items.len(), "tuple elements")?.to_be_bytes());
                }
                stack.extend(items.iter().rev().map(Step::Term));
            }
            Term::Nil => out.push(tag::NIL),
            Term::String(bytes) => {
                let n = u16::try_from(bytes.len()).map_err(|_| {
                    invalid(format!(
                        "ETF STRING_EXT of {} characters; at most 65535 fit (use a list)",
                        bytes.len()
                    ))
                })?;
                out.push(tag::STRING);
                out.extend_from_slice(&n.to_be_bytes());
                out.extend_from_slice(bytes);
            }
            Term::List(items, tail) => {
                out.push(tag::LIST);
                out.extend_from_slice(&len32(items.len(), "list elements")?.to_be_bytes());
                stack.push(Step::Term(tail));
                stack.extend(items.iter().rev().map(Step::Term));
            }
            Term::Binary(bytes) => {
                out.push(tag::BINARY);
                out.extend_from_slice(&len32(bytes.len(), "binary bytes")?.to_be_bytes());
                out.extend_from_slice(bytes);
            }
            Term::BitBinary(bytes, bits) => {
                if (*bits == 0) != bytes.is_empty() || *bits > 8 {
                    return Err(invalid(format!(
                        "ETF bitstring of {} bytes with {bits} bits used in the last byte; \
                         expected 1 to 8 bits (0 only when empty)",
                        bytes.len()
                    )));
                }
                out.push(tag::BIT_BINARY);
                out.extend_from_slice(&len32(bytes.len(), "bitstring bytes")?.to_be_bytes());
                out.push(*bits);
                out.extend_from_slice(bytes);
            }
            Term::Map(pairs) => {
                out.push(tag::MAP);
                out.extend_from_slice(&len32(pairs.len(), "map pairs")?.to_be_bytes());
                stack.extend(pairs.iter().rev().map(Step::Pair));
            }
        }
    }
    Ok(())
}

fn invalid(message: String) -> Error {
    Error::malformed(F, Location::default(), message)
}

fn len32(n: usize, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        invalid(format!(
            "ETF term has {n} {what}; at most 4294967295 fit a 4-byte count"
        ))
    })
}

/// An integer in the smallest tag that holds it.
fn int(v: i64, out: &mut Vec<u8>) {
    if let Ok(b) = u8::try_from(v) {
        out.push(tag::SMALL_INTEGER);
        out.push(b);
    } else if let Ok(w) = i32::try_from(v) {
        out.push(tag::INTEGER);
        out.extend_from_slice(&w.to_be_bytes());
    } else {
        let le = v.unsigned_abs().to_le_bytes();
        let len = le.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        out.push(tag::SMALL_BIG);
        out.push(len as u8);
        out.push(u8::from(v < 0));
        out.extend_from_slice(&le[..len]);
    }
}

/// A big integer, canonically: high zero bytes dropped, and as an [`int`] when it fits i64.
fn big(b: &Big, out: &mut Vec<u8>) -> Result<()> {
    let len = b
        .magnitude
        .iter()
        .rposition(|&d| d != 0)
        .map_or(0, |i| i + 1);
    let digits = &b.magnitude[..len];
    if len <= 8 {
        let mut le = [0u8; 8];
        le[..len].copy_from_slice(digits);
        let m = u64::from_le_bytes(le);
        let v = if b.negative {
            0i64.checked_sub_unsigned(m)
        } else {
            i64::try_from(m).ok()
        };
        if let Some(v) = v {
            int(v, out);
            return Ok(());
        }
    }
    if let Ok(n) = u8::try_from(len) {
        out.push(tag::SMALL_BIG);
        out.push(n);
    } else {
        out.push(tag::LARGE_BIG);
        out.extend_from_slice(&len32(len, "big integer bytes")?.to_be_bytes());
    }
    out.push(u8::from(b.negative));
    out.extend_from_slice(digits);
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::cases::{TIE_BINARY_HEX, TIE_COMPRESSED_HEX, cases, hex};
    use super::super::{Atom, Float};
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn encodes_every_case() {
        for (name, term, bytes) in cases() {
            let mut out = Vec::new();
            encode_term(&term, &mut out).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(out, bytes, "{name}");
            let ext = External {
                term,
                compression: Compression::None,
            };
            let whole = encode(&ext).unwrap();
            assert_eq!((whole[0], &whole[1..]), (131, &bytes[..]), "{name}");
        }
    }

    #[test]
    fn compressed_choice_follows_erlang() {
        // Small: zlib cannot win, the plain form is kept.
        assert_eq!(
            term_to_binary_compressed(&Term::Int(1)).unwrap(),
            [131, 97, 1]
        );
        // Repetitive: compressed.
        let long = Term::String(vec![b'a'; 1000]);
        let c = term_to_binary_compressed(&long).unwrap();
        assert_eq!(&c[..6], &[131, 80, 0, 0, 3, 235]);
        assert!(c.len() < 40);
        // A tie (53 bytes either way): Erlang keeps the compressed form; so do we, byte for byte.
        let tie = Term::Binary(hex(TIE_BINARY_HEX));
        let mut plain = vec![131];
        encode_term(&tie, &mut plain).unwrap();
        let ours = term_to_binary_compressed(&tie).unwrap();
        assert_eq!(ours, hex(TIE_COMPRESSED_HEX));
        assert_eq!(ours.len(), plain.len());
        // One byte less compressible and the plain form wins.
        let mut bytes = hex(TIE_BINARY_HEX);
        bytes[0] ^= 0xFF;
        bytes[46] = 0x62;
        let t = Term::Binary(bytes);
        let out = term_to_binary_compressed(&t).unwrap();
        assert_eq!(out[1], 109, "plain BINARY_EXT expected");
        // `encode` with Zlib always wraps, even when that is larger.
        let ext = External {
            term: Term::Int(1),
            compression: Compression::Zlib,
        };
        let wrapped = encode(&ext).unwrap();
        assert_eq!(&wrapped[..8], &[131, 80, 0, 0, 0, 2, 0x78, 0x9C]);
    }

    #[test]
    fn bigs_are_written_canonically() {
        let cases = [
            (vec![5, 0, 0], false, vec![97, 5]),
            (vec![], true, vec![97, 0]),
            (vec![1, 0, 0, 128], true, vec![110, 4, 1, 1, 0, 0, 128]),
            (
                vec![0, 0, 0, 0, 0, 0, 0, 128],
                true,
                vec![110, 8, 1, 0, 0, 0, 0, 0, 0, 0, 128],
            ),
            (
                vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 0],
                false,
                vec![110, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            ),
        ];
        for (magnitude, negative, bytes) in cases {
            let mut out = Vec::new();
            encode_term(
                &Term::Big(Big {
                    negative,
                    magnitude,
                }),
                &mut out,
            )
            .unwrap();
            assert_eq!(out, bytes);
        }
    }

    #[test]
    fn refuses_what_does_not_fit_its_tag() {
        let atom = |name: String, tag| Term::Atom(Atom { name, tag });
        let bad = [
            (atom("你".into(), AtomTag::Atom), "Latin-1 tag Atom"),
            (atom("€".into(), AtomTag::SmallAtom), "U+20AC"),
            (
                atom("x".repeat(256), AtomTag::SmallAtom),
                "256 bytes does not fit tag SmallAtom",
            ),
            (
                atom("é".repeat(128), AtomTag::SmallAtomUtf8),
                "256 bytes does not fit",
            ),
            (atom("x".repeat(65536), AtomTag::Atom), "at most 65535"),
            (Term::String(vec![0; 65536]), "STRING_EXT of 65536"),
            (
                Term::Float(Float {
                    value: 1.0,
                    text: Some(vec![b'1'; 30]),
                }),
                "30 bytes; expected exactly 31",
            ),
            (Term::BitBinary(vec![1], 0), "0 bits"),
            (Term::BitBinary(vec![1], 9), "9 bits"),
            (Term::BitBinary(vec![], 3), "3 bits"),
        ];
        for (term, text) in bad {
            let e = encode_term(
                &Term::List(vec![term], Box::new(Term::Nil)),
                &mut Vec::new(),
            )
            .unwrap_err();
            assert_eq!(e.kind, ErrorKind::Malformed);
            assert!(e.to_string().starts_with("wings: ETF "), "{e}");
            assert!(e.message.contains(text), "{e}");
        }
        // The longest atoms that fit.
        let mut out = Vec::new();
        encode_term(&atom("é".repeat(255), AtomTag::SmallAtom), &mut out).unwrap();
        assert_eq!(out.len(), 257);
    }
}
