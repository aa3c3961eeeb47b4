//! ETF decoding throughput, against Erlang's own `binary_to_term`.
//!
//! Input: with `LEVELKIT_CORPUS` set, the payload (after the 19-byte container header) of the
//! largest `.wings` file under `$LEVELKIT_CORPUS/wings` that is not in `bad/`; otherwise a
//! generated Wings-like term. Benchmarks:
//!
//! * `decode_compressed`: the payload as stored (131, tag 80, zlib), inflate included; counts the
//!   compressed bytes. `decode_compressed_term_bytes` is the same work counted in term bytes.
//! * `decode_plain`: the same term as an uncompressed external term; counts the term bytes.
//! * `inflate_only`: the inflate as the decoder does it (raw deflate into a buffer of the
//!   declared size, the Adler-32 by `simd-adler32`), the floor for `decode_compressed`.
//! * `encode_plain` / `encode_compressed` (`term_to_binary_compressed`).
//!
//! The decoded terms are freed outside the timings (divan drops outputs after each sample).
//!
//! When `escript` is on the PATH, `main` first times Erlang's `binary_to_term` on the same two
//! inputs (`tests/erlang/etf_oracle.escript time`, mean of 200 calls) and prints it, in MB/s of
//! the input and of the term bytes, so the divan figures below it compare directly.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench etf`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use flate2::{Decompress, FlushDecompress, Status};
use levelkit::Limits;
use levelkit::etf::{self, Compression, External, Term};

mod common;

fn main() {
    let input = &*INPUT;
    eprintln!(
        "etf bench input: {} ({} bytes compressed, {} bytes plain)",
        input.name,
        input.compressed.len(),
        input.plain.len()
    );
    erlang_baseline(input);
    divan::main();
}

struct Input {
    name: String,
    /// 131, 80, size, zlib stream.
    compressed: Vec<u8>,
    /// 131, term.
    plain: Vec<u8>,
    ext: External,
}

static INPUT: LazyLock<Input> = LazyLock::new(load);

/// A Wings-like term: edge records, vertex binaries, a few strings.
fn synthetic() -> Term {
    let edges = (0..40_000i64)
        .map(|i| {
            let mut fields = vec![Term::atom("edge")];
            fields.extend((0..8).map(|k| Term::Int((i * 7 + k * 13) % 30_000)));
            Term::list(vec![Term::Tuple(fields)])
        })
        .collect();
    let verts = (0..15_000u32)
        .map(|i| {
            let xyz: Vec<u8> = (0..3)
                .flat_map(|k| (f64::from(i) * 0.37 + f64::from(k)).sin().to_be_bytes())
                .collect();
            Term::list(vec![Term::Binary(xyz)])
        })
        .collect();
    Term::Tuple(vec![
        Term::atom("wings"),
        Term::Int(2),
        Term::Tuple(vec![
            Term::list(vec![Term::Tuple(vec![
                Term::atom("object"),
                Term::charlist("cube1"),
                Term::Tuple(vec![
                    Term::atom("winged"),
                    Term::list(edges),
                    Term::Nil,
                    Term::list(verts),
                    Term::int_list(0..200),
                ]),
                Term::Nil,
            ])]),
            Term::Nil,
            Term::Nil,
        ]),
    ])
}

fn load() -> Input {
    let (name, compressed) = match common::largest_wings() {
        Some(path) => {
            let bytes = std::fs::read(&path).unwrap();
            (path.display().to_string(), bytes[19..].to_vec())
        }
        None => (
            "synthetic Wings-like term".to_owned(),
            etf::term_to_binary_compressed(&synthetic()).unwrap(),
        ),
    };
    let ext = etf::decode(&compressed, &Limits::default()).unwrap();
    assert_eq!(
        ext.compression,
        Compression::Zlib,
        "the bench wants a compressed payload"
    );
    let plain = etf::encode(&External {
        term: ext.term.clone(),
        compression: Compression::None,
    })
    .unwrap();
    assert_eq!(etf::encode(&ext).unwrap(), compressed);
    Input {
        name,
        compressed,
        plain,
        ext,
    }
}

/// Erlang's `binary_to_term` on the same bytes, in microseconds per call.
fn erlang_baseline(input: &Input) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/erlang/etf_oracle.escript");
    let dir = std::env::temp_dir().join(format!("levelkit-etf-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (label, bytes) in [("compressed", &input.compressed), ("plain", &input.plain)] {
        let file = dir.join(label);
        std::fs::write(&file, bytes).unwrap();
        let out = Command::new("escript")
            .arg(&script)
            .args(["time", file.to_str().unwrap(), "200"])
            .output();
        match out {
            Ok(out) if out.status.success() => {
                let us: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
                eprintln!(
                    "Erlang binary_to_term, {label}: {us:.0} µs per call ({:.1} MB/s of {} bytes, \
                     {:.1} MB/s of term bytes)",
                    bytes.len() as f64 / us,
                    bytes.len(),
                    input.plain.len() as f64 / us
                );
            }
            _ => eprintln!("SKIP: escript is not available; no Erlang baseline"),
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[divan::bench]
fn decode_compressed(bencher: Bencher) {
    let data = &INPUT.compressed;
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| etf::decode(black_box(data), &Limits::default()).unwrap());
}

/// [`decode_compressed`] in MB/s of term bytes.
#[divan::bench]
fn decode_compressed_term_bytes(bencher: Bencher) {
    let data = &INPUT.compressed;
    bencher
        .counter(BytesCount::new(INPUT.plain.len()))
        .bench(|| etf::decode(black_box(data), &Limits::default()).unwrap());
}

#[divan::bench]
fn decode_plain(bencher: Bencher) {
    let data = &INPUT.plain;
    bencher
        .counter(BytesCount::new(data.len()))
        .bench(|| etf::decode(black_box(data), &Limits::default()).unwrap());
}

#[divan::bench]
fn inflate_only(bencher: Bencher) {
    let data = &INPUT.compressed;
    // The term after the version byte: the declared size less one.
    let declared = INPUT.plain.len() - 1;
    bencher.counter(BytesCount::new(data.len())).bench(|| {
        let stream = black_box(&data[6..]);
        let mut out = Vec::with_capacity(declared + 1);
        let mut z = Decompress::new(false);
        let status = z
            .decompress_vec(&stream[2..], &mut out, FlushDecompress::None)
            .unwrap();
        assert_eq!((status, out.len()), (Status::StreamEnd, declared));
        let end = 2 + z.total_in() as usize;
        let trailer = u32::from_be_bytes(stream[end..end + 4].try_into().unwrap());
        assert_eq!(trailer, simd_adler32::adler32(&out.as_slice()));
        out
    });
}

#[divan::bench]
fn encode_plain(bencher: Bencher) {
    let term = &INPUT.ext.term;
    bencher
        .counter(BytesCount::new(INPUT.plain.len()))
        .bench(|| {
            let mut out = Vec::new();
            etf::encode_term(black_box(term), &mut out).unwrap();
            out
        });
}

#[divan::bench]
fn encode_compressed(bencher: Bencher) {
    let term = &INPUT.ext.term;
    bencher
        .counter(BytesCount::new(INPUT.plain.len()))
        .bench(|| etf::term_to_binary_compressed(black_box(term)).unwrap());
}
