//! The `(Term, bytes)` table that drives both the decoder tests and the encoder tests: every tag
//! and its boundaries. Bytes without the version byte; the expected forms are Erlang/OTP 25's.

use super::{Atom, AtomTag, Big, Float, Term};

fn atom(name: &str, tag: AtomTag) -> Term {
    Term::Atom(Atom {
        name: name.to_owned(),
        tag,
    })
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// `(name, term, bytes)`.
pub(super) fn cases() -> Vec<(&'static str, Term, Vec<u8>)> {
    let nil256 = vec![Term::Nil; 256];
    let big256 = {
        let mut m = vec![7u8; 256];
        m[255] = 1;
        m
    };
    let float_text = {
        let mut t = b"1.50000000000000000000e+00".to_vec();
        t.resize(31, 0);
        t
    };
    vec![
        ("int 0", Term::Int(0), vec![97, 0]),
        ("int 255", Term::Int(255), vec![97, 255]),
        ("int 256", Term::Int(256), vec![98, 0, 0, 1, 0]),
        ("int -1", Term::Int(-1), vec![98, 255, 255, 255, 255]),
        (
            "int i32::MAX",
            Term::Int(i32::MAX.into()),
            vec![98, 127, 255, 255, 255],
        ),
        (
            "int i32::MIN",
            Term::Int(i32::MIN.into()),
            vec![98, 128, 0, 0, 0],
        ),
        (
            "int 2^31",
            Term::Int(1 << 31),
            vec![110, 4, 0, 0, 0, 0, 128],
        ),
        (
            "int -2^31-1",
            Term::Int(-(1 << 31) - 1),
            vec![110, 4, 1, 1, 0, 0, 128],
        ),
        (
            "int i64::MAX",
            Term::Int(i64::MAX),
            vec![110, 8, 0, 255, 255, 255, 255, 255, 255, 255, 127],
        ),
        (
            "int i64::MIN",
            Term::Int(i64::MIN),
            vec![110, 8, 1, 0, 0, 0, 0, 0, 0, 0, 128],
        ),
        (
            "big 2^63",
            Term::Big(Big {
                negative: false,
                magnitude: vec![0, 0, 0, 0, 0, 0, 0, 128],
            }),
            vec![110, 8, 0, 0, 0, 0, 0, 0, 0, 0, 128],
        ),
        (
            "big -2^63-1",
            Term::Big(Big {
                negative: true,
                magnitude: vec![1, 0, 0, 0, 0, 0, 0, 128],
            }),
            vec![110, 8, 1, 1, 0, 0, 0, 0, 0, 0, 128],
        ),
        (
            "big 2^64",
            Term::Big(Big {
                negative: false,
                magnitude: vec![0, 0, 0, 0, 0, 0, 0, 0, 1],
            }),
            vec![110, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        ),
        (
            "big of 255 bytes (SMALL_BIG)",
            Term::Big(Big {
                negative: true,
                magnitude: vec![9; 255],
            }),
            cat(&[&[110, 255, 1], &[9; 255]]),
        ),
        (
            "big of 256 bytes (LARGE_BIG)",
            Term::Big(Big {
                negative: false,
                magnitude: big256.clone(),
            }),
            cat(&[&[111, 0, 0, 1, 0, 0], &big256]),
        ),
        (
            "NEW_FLOAT 1.5",
            Term::float(1.5),
            vec![70, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0],
        ),
        (
            "NEW_FLOAT -0.0",
            Term::float(-0.0),
            vec![70, 0x80, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            "FLOAT_EXT 1.5",
            Term::Float(Float {
                value: 1.5,
                text: Some(float_text.clone()),
            }),
            cat(&[&[99], &float_text]),
        ),
        ("ATOM_EXT empty", atom("", AtomTag::Atom), vec![100, 0, 0]),
        (
            "SMALL_ATOM_EXT empty",
            atom("", AtomTag::SmallAtom),
            vec![115, 0],
        ),
        (
            "ATOM_EXT abc",
            atom("abc", AtomTag::Atom),
            vec![100, 0, 3, 97, 98, 99],
        ),
        (
            "ATOM_EXT Latin-1 é",
            atom("é", AtomTag::Atom),
            vec![100, 0, 1, 233],
        ),
        (
            "SMALL_ATOM_EXT Latin-1 é",
            atom("é", AtomTag::SmallAtom),
            vec![115, 1, 233],
        ),
        (
            "SMALL_ATOM_UTF8_EXT é",
            atom("é", AtomTag::SmallAtomUtf8),
            vec![119, 2, 195, 169],
        ),
        (
            "SMALL_ATOM_UTF8_EXT 你",
            atom("你", AtomTag::SmallAtomUtf8),
            vec![119, 3, 228, 189, 160],
        ),
        (
            "ATOM_UTF8_EXT 你",
            atom("你", AtomTag::AtomUtf8),
            vec![118, 0, 3, 228, 189, 160],
        ),
        (
            "SMALL_ATOM_EXT of 255 bytes",
            atom(&"x".repeat(255), AtomTag::SmallAtom),
            cat(&[&[115, 255], &[b'x'; 255]]),
        ),
        (
            "ATOM_EXT of 255 ÿ",
            atom(&"ÿ".repeat(255), AtomTag::Atom),
            cat(&[&[100, 0, 255], &[255; 255]]),
        ),
        ("SMALL_TUPLE empty", Term::Tuple(vec![]), vec![104, 0]),
        (
            "SMALL_TUPLE {1, a}",
            Term::Tuple(vec![Term::Int(1), atom("a", AtomTag::Atom)]),
            vec![104, 2, 97, 1, 100, 0, 1, 97],
        ),
        (
            "SMALL_TUPLE of 255",
            Term::Tuple(vec![Term::Nil; 255]),
            cat(&[&[104, 255], &[106; 255]]),
        ),
        (
            "LARGE_TUPLE of 256",
            Term::Tuple(nil256),
            cat(&[&[105, 0, 0, 1, 0], &[106; 256]]),
        ),
        ("NIL", Term::Nil, vec![106]),
        ("STRING empty", Term::String(vec![]), vec![107, 0, 0]),
        (
            "STRING ab",
            Term::String(b"ab".to_vec()),
            vec![107, 0, 2, 97, 98],
        ),
        (
            "STRING of 65535",
            Term::String(vec![b'a'; 65535]),
            cat(&[&[107, 255, 255], &[b'a'; 65535]]),
        ),
        (
            "LIST of 65536 integers",
            Term::List(vec![Term::Int(97); 65536], Box::new(Term::Nil)),
            cat(&[&[108, 0, 1, 0, 0], &[97, 97].repeat(65536), &[106]]),
        ),
        (
            "LIST [a]",
            Term::List(vec![atom("a", AtomTag::Atom)], Box::new(Term::Nil)),
            vec![108, 0, 0, 0, 1, 100, 0, 1, 97, 106],
        ),
        (
            "LIST [1|2]",
            Term::List(vec![Term::Int(1)], Box::new(Term::Int(2))),
            vec![108, 0, 0, 0, 1, 97, 1, 97, 2],
        ),
        (
            "LIST with no elements",
            Term::List(vec![], Box::new(Term::Nil)),
            vec![108, 0, 0, 0, 0, 106],
        ),
        ("BINARY empty", Term::Binary(vec![]), vec![109, 0, 0, 0, 0]),
        (
            "BINARY <<1,2>>",
            Term::Binary(vec![1, 2]),
            vec![109, 0, 0, 0, 2, 1, 2],
        ),
        (
            "BIT_BINARY <<1:3>>",
            Term::BitBinary(vec![32], 3),
            vec![77, 0, 0, 0, 1, 3, 32],
        ),
        (
            "BIT_BINARY <<255>> with 8 bits",
            Term::BitBinary(vec![255], 8),
            vec![77, 0, 0, 0, 1, 8, 255],
        ),
        (
            "BIT_BINARY empty",
            Term::BitBinary(vec![], 0),
            vec![77, 0, 0, 0, 0, 0],
        ),
        ("MAP empty", Term::Map(vec![]), vec![116, 0, 0, 0, 0]),
        (
            "MAP #{1 => a}",
            Term::Map(vec![(Term::Int(1), atom("a", AtomTag::Atom))]),
            vec![116, 0, 0, 0, 1, 97, 1, 100, 0, 1, 97],
        ),
    ]
}

/// Erlang/OTP 25's `term_to_binary(B, [compressed])` of a 47-byte binary whose zlib stream is
/// exactly as long as the plain encoding: Erlang keeps the compressed form on a tie.
pub(super) const TIE_BINARY_HEX: &str = "5bc4a7b8907e93489b41ac2c52245a18655b85be91b2df3165fb7326d57b6161616161616161616161616161616161";
/// The 53 bytes Erlang writes for it (the plain form is 53 bytes too).
pub(super) const TIE_COMPRESSED_HEX: &str = "835000000034789CCB656060D08F3EB27CC784BAC91EB31DD7E804A94449A446B7EE9BB8E9BE61EAEF62B5ABD589E8000032B215B0";

pub(super) fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect()
}
