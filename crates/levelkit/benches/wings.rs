//! `.wings` throughput: read + validate of the largest file under `$LEVELKIT_CORPUS/wings` (else
//! the bundled sample), reported in MB/s of file bytes and, separately, of the inflated term
//! bytes the decoder walks.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::etf::{self, Compression, External};
use levelkit::formats::wings;

fn main() {
    divan::main();
}

fn wings_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() && p.file_name().is_none_or(|n| n != "bad") {
            wings_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "wings") {
            out.push(p);
        }
    }
}

/// The largest corpus file (or the sample), and the size of its inflated term.
static INPUT: LazyLock<(Vec<u8>, usize)> = LazyLock::new(|| {
    let mut files = Vec::new();
    if let Some(dir) = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty()) {
        wings_files(&PathBuf::from(dir).join("wings"), &mut files);
    }
    let largest = files
        .iter()
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0));
    let bytes = match largest {
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

/// The parts: decoding the term alone (the ETF codec, inflate included), reading the model, and
/// validating an already-read model (walks every face), in MB/s of file bytes.
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
fn wings_parts_validate_model(bencher: Bencher) {
    let (bytes, _) = &*INPUT;
    let model = wings::read(bytes).unwrap_or_else(|e| panic!("{e}"));
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(&model).validate().len());
}
