//! Erlang External Term Format (ETF): the encoding of `term_to_binary/1,2`, which Wings 3D uses
//! for `.wings` files (and the only format of this crate that is a general-purpose term codec).
//!
//! Terms are decoded into [`Term`], which keeps the encoding choices that Erlang made and a
//! writer must repeat to give back the same bytes: which of the four atom tags, a `FLOAT_EXT`
//! float's 31 bytes of text, `STRING_EXT` versus `LIST_EXT` for a list of small integers, and the
//! compressed wrapper. Integers are always written in Erlang's canonical form (the smallest tag
//! that holds the value), as `term_to_binary` does.
//!
//! Specification: Erlang/OTP `erts/doc/src/erl_ext_dist.xml` ("External Term Format").
//! The decoder is in `decode.rs`, the encoder in `encode.rs`.

use serde::{Deserialize, Serialize};

#[cfg(test)]
mod cases;
mod decode;
mod encode;
mod print;

pub(crate) use decode::{Decoder, open};
pub use decode::{MAX_DEPTH_CAP, decode, decode_term};
pub use encode::{encode, encode_term, term_to_binary_compressed};

/// An Erlang term, with the encoding choices needed to write it back byte for byte.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Term {
    /// An integer that fits in i64 (`SMALL_INTEGER_EXT`, `INTEGER_EXT`, or a small/large big
    /// whose value fits).
    Int(i64),
    /// An integer beyond i64 (`SMALL_BIG_EXT` / `LARGE_BIG_EXT`).
    Big(Big),
    /// A float (`NEW_FLOAT_EXT`, or `FLOAT_EXT` with its text kept).
    Float(Float),
    /// An atom.
    Atom(Atom),
    /// A tuple (`SMALL_TUPLE_EXT` up to 255 elements, `LARGE_TUPLE_EXT` above).
    Tuple(Vec<Term>),
    /// The empty list (`NIL_EXT`); also `""`.
    Nil,
    /// A list of integers 0–255 stored as bytes (`STRING_EXT`, at most 65535 of them).
    String(Vec<u8>),
    /// A list (`LIST_EXT`): its elements and its tail (`Nil` for a proper list).
    List(Vec<Term>, Box<Term>),
    /// A binary (`BINARY_EXT`).
    Binary(Vec<u8>),
    /// A bitstring (`BIT_BINARY_EXT`): bytes and the number of bits used in the last byte (1–8).
    BitBinary(Vec<u8>, u8),
    /// A map (`MAP_EXT`), pairs in file order.
    Map(Vec<(Term, Term)>),
}

/// An integer beyond i64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Big {
    /// True for a negative value.
    pub negative: bool,
    /// Magnitude, little-endian bytes, without high zero bytes.
    pub magnitude: Vec<u8>,
}

/// A float and how it was stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Float {
    /// The value.
    pub value: f64,
    /// For `FLOAT_EXT` (old files): the 31 bytes of `%.20e` text as stored, NUL padding included;
    /// `None` for `NEW_FLOAT_EXT`.
    pub text: Option<Vec<u8>>,
}

/// Which tag an atom was stored with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AtomTag {
    /// `ATOM_EXT` (100): u16 length, Latin-1.
    Atom,
    /// `SMALL_ATOM_EXT` (115): u8 length, Latin-1.
    SmallAtom,
    /// `ATOM_UTF8_EXT` (118): u16 length, UTF-8.
    AtomUtf8,
    /// `SMALL_ATOM_UTF8_EXT` (119): u8 length, UTF-8.
    SmallAtomUtf8,
}

/// An atom: its text and its tag.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Atom {
    /// The atom's text (Latin-1 tags decoded as Latin-1, never as UTF-8).
    pub name: String,
    /// The tag it was stored with.
    pub tag: AtomTag,
}

/// How a whole external term was stored after the version byte 131.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compression {
    /// The term directly.
    None,
    /// The compressed wrapper (tag 80): u32 uncompressed size, then a zlib stream.
    Zlib,
}

/// A whole external term (`131`, then the term, possibly compressed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct External {
    /// The term.
    pub term: Term,
    /// How it was stored.
    pub compression: Compression,
}

impl Atom {
    /// An atom tagged as Erlang/OTP 25 and earlier (the Wings 2.2.9 of the oracle) would write it
    /// with `term_to_binary/1,2`: `ATOM_EXT` for Latin-1 text (checked against `erl` 25: it never
    /// uses `SMALL_ATOM_EXT` by default), `SMALL_ATOM_UTF8_EXT` / `ATOM_UTF8_EXT` for text beyond
    /// Latin-1.
    pub fn new(name: impl Into<String>) -> Atom {
        let name = name.into();
        let latin1 = name.chars().all(|c| u32::from(c) <= 0xFF);
        let tag = match (latin1, name.len() < 256) {
            (true, _) => AtomTag::Atom,
            (false, true) => AtomTag::SmallAtomUtf8,
            (false, false) => AtomTag::AtomUtf8,
        };
        Atom { name, tag }
    }
}

impl Term {
    /// An atom term (see [`Atom::new`] for the tag).
    pub fn atom(name: impl Into<String>) -> Term {
        Term::Atom(Atom::new(name))
    }

    /// A `NEW_FLOAT_EXT` float.
    pub fn float(value: f64) -> Term {
        Term::Float(Float { value, text: None })
    }

    /// A charlist as Erlang encodes one: `Nil` when empty, `STRING_EXT` when every code point is
    /// at most 255 and there are at most 65535, `LIST_EXT` of integers otherwise.
    pub fn charlist(text: &str) -> Term {
        Term::int_list(text.chars().map(|c| i64::from(u32::from(c))))
    }

    /// A list of integers as Erlang encodes one (see [`Term::charlist`]).
    pub fn int_list(values: impl IntoIterator<Item = i64>) -> Term {
        let values: Vec<i64> = values.into_iter().collect();
        if values.is_empty() {
            Term::Nil
        } else if values.len() <= 65535 && values.iter().all(|v| (0..=255).contains(v)) {
            Term::String(values.iter().map(|&v| v as u8).collect())
        } else {
            Term::List(
                values.into_iter().map(Term::Int).collect(),
                Box::new(Term::Nil),
            )
        }
    }

    /// A proper list as Erlang encodes one: `Nil` when empty, else `LIST_EXT`. (Use
    /// [`Term::int_list`] for lists of integers, which Erlang may store as `STRING_EXT`.)
    pub fn list(items: Vec<Term>) -> Term {
        if items.is_empty() {
            Term::Nil
        } else {
            Term::List(items, Box::new(Term::Nil))
        }
    }

    /// The atom's text, if this is an atom.
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            Term::Atom(a) => Some(&a.name),
            _ => None,
        }
    }

    /// The integer, if this is one that fits in i64.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Term::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The float value (also of an integer, as Erlang's arithmetic would widen it).
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Term::Float(f) => Some(f.value),
            Term::Int(v) => Some(*v as f64),
            _ => None,
        }
    }

    /// The elements, if this is a tuple.
    pub fn as_tuple(&self) -> Option<&[Term]> {
        match self {
            Term::Tuple(items) => Some(items),
            _ => None,
        }
    }

    /// The bytes, if this is a binary.
    pub fn as_binary(&self) -> Option<&[u8]> {
        match self {
            Term::Binary(b) => Some(b),
            _ => None,
        }
    }

    /// True for `[]`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Term::Nil)
    }

    /// The elements of a proper list in any of its encodings (`Nil`, `STRING_EXT` as integer
    /// terms, `LIST_EXT` with a `Nil` tail); `None` for anything else, improper lists included.
    pub fn list_items(&self) -> Option<Vec<Term>> {
        match self {
            Term::Nil => Some(Vec::new()),
            Term::String(bytes) => Some(bytes.iter().map(|&b| Term::Int(i64::from(b))).collect()),
            Term::List(items, tail) if tail.is_nil() => Some(items.clone()),
            _ => None,
        }
    }

    /// The length of a proper list in any encoding, without copying.
    pub fn list_len(&self) -> Option<usize> {
        match self {
            Term::Nil => Some(0),
            Term::String(bytes) => Some(bytes.len()),
            Term::List(items, tail) if tail.is_nil() => Some(items.len()),
            _ => None,
        }
    }

    /// A charlist's text (a proper list of Unicode code points in any encoding).
    pub fn as_charlist(&self) -> Option<String> {
        match self {
            Term::Nil => Some(String::new()),
            Term::String(bytes) => Some(bytes.iter().map(|&b| char::from(b)).collect()),
            Term::List(items, tail) if tail.is_nil() => items
                .iter()
                .map(|t| {
                    t.as_int()
                        .and_then(|v| u32::try_from(v).ok())
                        .and_then(char::from_u32)
                })
                .collect(),
            _ => None,
        }
    }

    /// In a property list (`[{Key, Value} | …]`), the value of the first `{Key, Value}` whose
    /// key is the atom `key`.
    pub fn proplist_get(&self, key: &str) -> Option<&Term> {
        match self {
            Term::List(items, _) => items.iter().find_map(|t| match t.as_tuple() {
                Some([k, v]) if k.as_atom() == Some(key) => Some(v),
                _ => None,
            }),
            _ => None,
        }
    }
}
