//! `.wings` throughput: read + validate of the largest file under `$LEVELKIT_CORPUS/wings` (else
//! the bundled sample), reported in MB/s of file bytes and, separately, of the inflated term
//! bytes the reader walks. Every figure includes freeing what was built (the model, or the term).
//!
//! When `escript` is on the PATH, `main` first times Erlang's `binary_to_term` on the same
//! payload (`tests/erlang/etf_oracle.escript time`, mean of 200 calls) and prints it in both
//! units, so the divan figures below it compare directly.
//!
//! The read goes from the term bytes straight into the model in one pass; the parts show the ETF
//! decode of the whole term alone (inflate included), the one-pass read, the read through a
//! decoded term (`etf::decode` then `read_content`, what the reader does with anything the one
//! pass does not take), and validation of an already-read model.
//!
//! `LEVELKIT_CORPUS=/work/shared/corpus cargo bench -p levelkit --bench wings`

use std::path::Path;
use std::process::Command;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::etf::{self, Compression, External};
use levelkit::formats::wings;

mod common;

fn main() {
    erlang_baseline();
    divan::main();
}

/// Erlang's `binary_to_term` on the payload, in microseconds per call.
fn erlang_baseline() {
    let (bytes, inflated) = &*INPUT;
    let Some(payload) = bytes.get(wings::PAYLOAD_OFFSET..) else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/erlang/etf_oracle.escript");
    let file = std::env::temp_dir().join(format!("levelkit-wings-bench-{}", std::process::id()));
    if std::fs::write(&file, payload).is_err() {
        return;
    }
    let out = Command::new("escript")
        .arg(&script)
        .arg("time")
        .arg(&file)
        .arg("200")
        .output();
    let _ = std::fs::remove_file(&file);
    let us = match out {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().parse(),
        _ => {
            eprintln!("SKIP: escript is not available; no Erlang baseline");
            return;
        }
    };
    match us {
        Ok(us) => {
            let us: f64 = us;
            eprintln!(
                "Erlang binary_to_term of the payload: {us:.0} µs per call ({:.1} MB/s of file \
                 bytes, {:.1} MB/s of term bytes)",
                bytes.len() as f64 / us,
                *inflated as f64 / us
            );
        }
        Err(_) => eprintln!("SKIP: the Erlang baseline printed no time"),
    }
}

/// The largest corpus file (or the sample), and the size of its inflated term.
static INPUT: LazyLock<(Vec<u8>, usize)> = LazyLock::new(|| {
    let bytes = match common::largest_wings() {
        Some(p) => {
            eprintln!("wings bench input: {}", p.display());
            std::fs::read(p).unwrap_or_default()
        }
        None => {
            eprintln!(
                "wings bench input: the bundled sample (set LEVELKIT_CORPUS for a real file)"
            );
            wings::samples::cube()
                .and_then(|m| m.write())
                .unwrap_or_default()
        }
    };
    let inflated = wings::read(&bytes)
        .ok()
        .and_then(|m| {
            etf::encode(&External {
                term: m.to_term(),
                compression: Compression::None,
            })
            .ok()
        })
        .map_or(0, |b| b.len());
    eprintln!("{} file bytes, {inflated} inflated term bytes", bytes.len());
    (bytes, inflated)
});

fn read_validate(bytes: &[u8]) -> usize {
    let model = wings::read(divan::black_box(bytes)).unwrap_or_else(|e| panic!("{e}"));
    model.validate().len()
}

/// MB/s of file bytes.
#[divan::bench]
fn wings_read_validate_file_bytes(bencher: Bencher) {
    let (bytes, _) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| read_validate(bytes));
}

/// MB/s of inflated term bytes (the same work, counted in what the decoder walks).
#[divan::bench]
fn wings_read_validate_term_bytes(bencher: Bencher) {
    let (bytes, inflated) = &*INPUT;
    bencher
        .counter(BytesCount::new(*inflated))
        .bench(|| read_validate(bytes));
}

/// The parts: decoding the term alone (the ETF codec, inflate included), reading the model (one
/// pass), reading it through a decoded term, and validating an already-read model (walks every
/// face), in MB/s of file bytes.
#[divan::bench]
fn wings_parts_decode_term(bencher: Bencher) {
    let (bytes, _) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        etf::decode(
            divan::black_box(&bytes[wings::PAYLOAD_OFFSET..]),
            &levelkit::Limits::default(),
        )
        .map(|e| e.compression)
    });
}

/// See [`wings_parts_decode_term`].
#[divan::bench]
fn wings_parts_read_model(bencher: Bencher) {
    let (bytes, _) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| wings::read(divan::black_box(bytes)).map(|m| m.version()));
}

/// See [`wings_parts_decode_term`].
#[divan::bench]
fn wings_parts_read_via_term(bencher: Bencher) {
    let (bytes, _) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let ext = etf::decode(
            divan::black_box(&bytes[wings::PAYLOAD_OFFSET..]),
            &levelkit::Limits::default(),
        );
        ext.and_then(|e| wings::read_content(&e.term)).is_ok()
    });
}

/// See [`wings_parts_decode_term`].
#[divan::bench]
fn wings_parts_validate_model(bencher: Bencher) {
    let (bytes, _) = &*INPUT;
    let model = wings::read(bytes).unwrap_or_else(|e| panic!("{e}"));
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(&model).validate().len());
}
