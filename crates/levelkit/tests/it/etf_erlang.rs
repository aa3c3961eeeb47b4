//! The ETF codec judged by Erlang itself (`escript`, Erlang/OTP 25 here), by proptest, and by the
//! real `.wings` files of `$LEVELKIT_CORPUS`.
//!
//! * `etf_erlang_terms_round_trip`: Erlang writes random terms (`tests/erlang/etf_oracle.escript gen`);
//!   we decode them, re-encode them byte for byte, repeat `term_to_binary(T, [compressed])` byte
//!   for byte, and print them as `~w` does.
//! * `etf_erlang_reads_our_terms`: random terms made here are encoded by us and read by
//!   `binary_to_term`; Erlang's `~w` of what it read must be our `Display` of what we wrote.
//! * `etf_corpus_wings_payloads`: every `.wings` payload decodes and re-encodes to the same bytes.
//!
//! The Erlang tests print `SKIP:` and pass when `escript` is not on the PATH.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::Limits;
use levelkit::etf::{
    self, Atom, AtomTag, Big, Compression, External, Float, Term, decode, decode_term, encode,
    encode_term, term_to_binary_compressed,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

// ---------------------------------------------------------------------------------------------
// Erlang as the oracle

fn escript() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("escript"))
        .find(|p| p.is_file())
}

fn oracle_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/erlang/etf_oracle.escript")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("levelkit-etf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run_oracle(escript: &Path, args: &[&str]) {
    let out = Command::new(escript)
        .arg(oracle_script())
        .args(args)
        .output()
        .expect("escript runs");
    assert!(
        out.status.success(),
        "escript {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Length-prefixed (u32 BE) fields.
fn split_fields(mut data: &[u8]) -> Vec<&[u8]> {
    let mut fields = Vec::new();
    while !data.is_empty() {
        let len = u32::from_be_bytes(data[..4].try_into().unwrap()) as usize;
        fields.push(&data[4..4 + len]);
        data = &data[4 + len..];
    }
    fields
}

const ERLANG_TERMS: usize = 3000;

#[test]
fn etf_erlang_terms_round_trip() {
    let Some(escript) = escript() else {
        common::skip("escript is not on the PATH; the ETF codec is not checked against Erlang");
        return;
    };
    let file = scratch("gen.bin");
    run_oracle(
        &escript,
        &[
            "gen",
            &ERLANG_TERMS.to_string(),
            "20240607",
            file.to_str().unwrap(),
        ],
    );
    let data = std::fs::read(&file).unwrap();
    let fields = split_fields(&data);
    assert_eq!(fields.len(), 3 * ERLANG_TERMS);

    let limits = Limits::default();
    let mut failures = Vec::new();
    let (mut compressed_count, mut float_ext, mut utf8_atoms) = (0, 0, 0);
    for (i, rec) in fields.chunks(3).enumerate() {
        let [plain, compressed, text] = rec else {
            unreachable!()
        };
        let text = std::str::from_utf8(text).unwrap();
        let mut fail = |what: String| {
            if failures.len() < 20 {
                failures.push(format!("term {i} ({text:.200}): {what}"));
            } else {
                failures.push(String::new());
            }
        };
        let ext = match decode(plain, &limits) {
            Ok(ext) => ext,
            Err(e) => {
                fail(format!("does not decode: {e}"));
                continue;
            }
        };
        if ext.compression != Compression::None {
            fail("plain encoding decoded as compressed".into());
        }
        float_ext += usize::from(plain.contains(&99) && text.contains('.'));
        utf8_atoms += usize::from(plain.contains(&119) || plain.contains(&118));
        match encode(&ext) {
            Ok(ours) if ours == *plain => {}
            Ok(ours) => fail(format!(
                "re-encodes differently:\n  erlang {plain:?}\n  ours   {ours:?}"
            )),
            Err(e) => fail(format!("does not re-encode: {e}")),
        }
        match term_to_binary_compressed(&ext.term) {
            Ok(ours) if ours == *compressed => {}
            Ok(ours) => fail(format!(
                "term_to_binary_compressed differs: erlang {} bytes (tag {}), ours {} bytes (tag {})",
                compressed.len(),
                compressed[1],
                ours.len(),
                ours[1]
            )),
            Err(e) => fail(format!("does not compress: {e}")),
        }
        if compressed[1] == 80 {
            compressed_count += 1;
        }
        match decode(compressed, &limits) {
            Ok(c) if c.term == ext.term && encode(&c).ok().as_deref() == Some(*compressed) => {}
            Ok(_) => fail("compressed form decodes to another term or bytes".into()),
            Err(e) => fail(format!("compressed form does not decode: {e}")),
        }
        let shown = ext.term.to_string();
        if shown != text {
            fail(format!("prints as {shown:.300}"));
        }
    }
    eprintln!(
        "{ERLANG_TERMS} Erlang terms: {} failures; {compressed_count} compressed by Erlang, \
         {float_ext} with FLOAT_EXT, {utf8_atoms} with UTF-8 atom tags",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The generator must have exercised both outcomes of the compression rule and all variants.
    assert!(compressed_count > 100 && compressed_count < ERLANG_TERMS - 100);
    assert!(float_ext > 50 && utf8_atoms > 50);
    let _ = std::fs::remove_file(file);
}

const RUST_TERMS: usize = 3000;

#[test]
fn etf_erlang_reads_our_terms() {
    let Some(escript) = escript() else {
        common::skip("escript is not on the PATH; the ETF codec is not checked against Erlang");
        return;
    };
    let mut runner = TestRunner::deterministic();
    let strategy = arb_term();
    let mut terms = Vec::with_capacity(RUST_TERMS);
    let mut input = Vec::new();
    for i in 0..RUST_TERMS {
        let term = strategy.new_tree(&mut runner).unwrap().current();
        let bytes = if i % 3 == 0 {
            term_to_binary_compressed(&term).unwrap()
        } else {
            encode(&External {
                term: term.clone(),
                compression: if i % 3 == 1 {
                    Compression::None
                } else {
                    Compression::Zlib
                },
            })
            .unwrap()
        };
        input.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        input.extend_from_slice(&bytes);
        terms.push(term);
    }
    let (inp, out) = (scratch("ours.bin"), scratch("ours.txt"));
    std::fs::write(&inp, &input).unwrap();
    run_oracle(
        &escript,
        &["read", inp.to_str().unwrap(), out.to_str().unwrap()],
    );
    let data = std::fs::read(&out).unwrap();
    let texts = split_fields(&data);
    assert_eq!(texts.len(), RUST_TERMS);
    let mut failures = Vec::new();
    for (i, (term, text)) in terms.iter().zip(&texts).enumerate() {
        let text = String::from_utf8_lossy(text);
        let ours = term.to_string();
        if ours != text {
            failures.push(format!(
                "term {i}: Erlang read {text:.300}\n  we wrote {ours:.300}\n  {term:?}"
            ));
        }
    }
    eprintln!(
        "{RUST_TERMS} terms encoded here, read by Erlang: {} failures",
        failures.len()
    );
    failures.truncate(10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_file(inp);
    let _ = std::fs::remove_file(out);
}

// ---------------------------------------------------------------------------------------------
// Random terms made here: valid for Erlang, printed the same way by Erlang after reading them.

/// C's `printf("%.20e")`, which old Erlang used for `FLOAT_EXT`, NUL-padded to 31 bytes.
fn c_float_text(v: f64) -> Vec<u8> {
    let s = format!("{v:.20e}");
    let (m, e) = s.split_once('e').unwrap();
    let e: i32 = e.parse().unwrap();
    let mut text = format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()).into_bytes();
    text.resize(31, 0);
    text
}

fn arb_atom() -> impl Strategy<Value = Term> {
    let chars = prop::sample::select(vec![
        'a', 'b', 'z', 'A', 'Z', '0', '_', '@', ' ', '\'', '\\', '\n', '\u{0}', '\u{7F}', '\u{9F}',
        '\u{A0}', 'ß', 'é', 'Ä', '×', '÷', 'ÿ', '€', '你', '😀',
    ]);
    (
        prop::collection::vec(chars, 0..10),
        prop::sample::select(vec![
            AtomTag::Atom,
            AtomTag::SmallAtom,
            AtomTag::AtomUtf8,
            AtomTag::SmallAtomUtf8,
        ]),
    )
        .prop_map(|(chars, tag)| {
            let name: String = chars.into_iter().collect();
            let latin1 = name.chars().all(|c| u32::from(c) <= 0xFF);
            let tag = match tag {
                AtomTag::Atom | AtomTag::SmallAtom if !latin1 => AtomTag::AtomUtf8,
                t => t,
            };
            Term::Atom(Atom { name, tag })
        })
}

fn arb_big() -> impl Strategy<Value = Term> {
    let len = prop_oneof![9usize..40, 255usize..300];
    (
        any::<bool>(),
        len.prop_flat_map(|n| prop::collection::vec(any::<u8>(), n)),
        1u8..=255,
    )
        .prop_map(|(negative, mut magnitude, top)| {
            *magnitude.last_mut().unwrap() = top;
            Term::Big(Big {
                negative,
                magnitude,
            })
        })
}

fn arb_float() -> impl Strategy<Value = Term> {
    (
        any::<f64>().prop_filter("finite", |v| v.is_finite()),
        any::<bool>(),
    )
        .prop_map(|(value, old)| {
            Term::Float(Float {
                value,
                text: old.then(|| c_float_text(value)),
            })
        })
}

fn arb_leaf() -> impl Strategy<Value = Term> {
    prop_oneof![
        any::<i64>().prop_map(Term::Int),
        (0i64..300).prop_map(Term::Int),
        arb_big(),
        arb_float(),
        arb_atom(),
        Just(Term::Nil),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(Term::String),
        prop::collection::vec(any::<u8>(), 0..12).prop_map(Term::Binary),
        (prop::collection::vec(any::<u8>(), 1..6), 1u8..=8)
            .prop_map(|(b, bits)| Term::BitBinary(b, bits)),
        Just(Term::BitBinary(Vec::new(), 0)),
    ]
}

/// Random terms that Erlang reads back as themselves: map keys are distinct integers in order,
/// as Erlang orders the keys of small maps.
fn arb_term() -> impl Strategy<Value = Term> {
    arb_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Term::Tuple),
            (
                prop::collection::vec(inner.clone(), 0..5),
                prop_oneof![3 => Just(Term::Nil), 1 => inner.clone()]
            )
                .prop_map(|(items, tail)| Term::List(items, Box::new(tail))),
            (
                prop::collection::btree_set(-50i64..50, 0..5),
                prop::collection::vec(inner, 5)
            )
                .prop_map(|(keys, values)| Term::Map(
                    keys.into_iter().map(Term::Int).zip(values).collect()
                )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// encode -> decode is the identity, plain and compressed, on terms made here.
    #[test]
    fn etf_encode_decode_identity(term in arb_term()) {
        let mut bytes = Vec::new();
        encode_term(&term, &mut bytes).unwrap();
        let (back, used) = decode_term(&bytes, &Limits::default()).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(&back, &term);
        for compression in [Compression::None, Compression::Zlib] {
            let ext = External { term: term.clone(), compression };
            let bytes = encode(&ext).unwrap();
            let back = decode(&bytes, &Limits::default()).unwrap();
            prop_assert_eq!(&back, &ext);
            prop_assert_eq!(encode(&back).unwrap(), bytes);
        }
        let erl = term_to_binary_compressed(&term).unwrap();
        prop_assert_eq!(decode(&erl, &Limits::default()).unwrap().term, term);
    }
}

// ---------------------------------------------------------------------------------------------
// Real files

const WINGS_HEADER: usize = 19;

fn wings_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            wings_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "wings") {
            out.push(path);
        }
    }
}

/// Inflate a compressed external term's wrapper to the term bytes (for the report).
fn term_bytes(external: &[u8]) -> Vec<u8> {
    use std::io::Read;
    if external[1] != 80 {
        return external[1..].to_vec();
    }
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(&external[6..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn etf_corpus_wings_payloads() {
    let Some(root) = common::corpus_or_skip("wings", "the ETF corpus check") else {
        return;
    };
    let mut files = Vec::new();
    wings_files(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .wings files under {root:?}");
    let (mut good, mut identical, mut term_identical) = (0, 0, 0);
    let mut problems = Vec::new();
    for path in &files {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let bad = name.starts_with("bad/");
        if !bytes.starts_with(b"#!WINGS-1.0\r\n\x1a\x04") {
            eprintln!("{name}: not a Wings container (no ETF to decode)");
            assert!(bad, "{name}: good file without the Wings header");
            continue;
        }
        let payload = bytes.get(WINGS_HEADER..).unwrap_or(&[]);
        let declared = bytes
            .get(15..19)
            .map(|b| u32::from_be_bytes(b.try_into().unwrap()) as usize);
        let result = decode(payload, &Limits::default());
        let expect_etf_failure =
            matches!(name.as_str(), "bad/badetf.wings" | "bad/truncated.wings");
        match (&result, bad) {
            (Err(e), _) => {
                eprintln!("{name}: ETF error: {e}");
                if !expect_etf_failure {
                    problems.push(format!("{name}: does not decode: {e}"));
                }
                continue;
            }
            (Ok(_), _) if expect_etf_failure => {
                problems.push(format!(
                    "{name}: decodes, but it should fail at the ETF level"
                ));
                continue;
            }
            (Ok(_), true) => {
                eprintln!("{name}: decodes (its fault is above the ETF level)");
                continue;
            }
            (Ok(_), false) => {}
        }
        let ext = result.unwrap();
        good += 1;
        assert_eq!(declared, Some(payload.len()), "{name}: container length");
        let ours = encode(&ext).unwrap();
        let same_terms = term_bytes(&ours) == term_bytes(payload);
        term_identical += usize::from(same_terms);
        if ours == payload {
            identical += 1;
        } else {
            eprintln!(
                "{name}: re-encoding differs ({:?}, {} vs {} bytes); term bytes identical: {same_terms}",
                ext.compression,
                payload.len(),
                ours.len()
            );
        }
        if !same_terms {
            problems.push(format!("{name}: the uncompressed term bytes differ"));
        }
        // Erlang's choice between compressed and plain is repeated too (`edge/` files were
        // re-encoded by the corpus makers, not by Erlang).
        let erl = term_to_binary_compressed(&ext.term).unwrap();
        if !name.starts_with("edge/") && erl != payload {
            problems.push(format!(
                "{name}: term_to_binary_compressed chooses differently from the file"
            ));
        }
    }
    eprintln!(
        "wings corpus: {} files, {good} good; {identical} byte-identical, {term_identical} with \
         identical term bytes",
        files.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(good >= 18, "only {good} good files");
    assert_eq!(term_identical, good);
}

// ---------------------------------------------------------------------------------------------
// Hostile input at scale

/// A million nested tuples or lists must fail cleanly at the depth limit, not overflow the stack.
#[test]
fn etf_million_deep_nesting_is_refused() {
    for (head, tail) in [
        (&[104u8, 1][..], &[106u8][..]),
        (&[108, 0, 0, 0, 1][..], &[106, 106][..]),
    ] {
        let depth = 1_000_000;
        let mut bytes = vec![131];
        for _ in 0..depth {
            bytes.extend_from_slice(head);
        }
        bytes.push(106);
        for _ in 0..depth {
            bytes.extend_from_slice(&tail[1..]);
        }
        let err = decode(&bytes, &Limits::default()).unwrap_err();
        assert_eq!(err.kind, levelkit::ErrorKind::LimitExceeded, "{err}");
        // Even a limit far beyond the cap cannot make it recurse a million times.
        let loose = Limits {
            max_depth: usize::MAX,
            ..Limits::default()
        };
        let err = decode(&bytes, &loose).unwrap_err();
        assert_eq!(err.kind, levelkit::ErrorKind::LimitExceeded, "{err}");
        assert!(
            err.to_string().contains(&etf::MAX_DEPTH_CAP.to_string()),
            "{err}"
        );
    }
}

/// A term nested a million deep (built here, not decoded) encodes and prints without recursion.
#[test]
fn etf_million_deep_term_encodes_and_prints() {
    let depth = 1_000_000;
    let mut term = Term::Nil;
    for _ in 0..depth {
        term = Term::Tuple(vec![term]);
    }
    let mut bytes = Vec::new();
    encode_term(&term, &mut bytes).unwrap();
    assert_eq!(bytes.len(), 2 * depth + 1);
    let text = term.to_string();
    assert_eq!(text.len(), 2 * depth + 2);
    // Dropping is recursive in Rust; take the term apart iteratively.
    let mut cur = term;
    while let Term::Tuple(mut items) = cur {
        cur = items.pop().unwrap_or(Term::Nil);
    }
}
