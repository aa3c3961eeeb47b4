//! REZ throughput on a generated archive of about 60 MB (the size of `CLAW.REZ`; no real
//! archive is in the corpus): listing through the zero-copy index (the target is under 50 ms),
//! extracting every file into memory, reading the owned model, writing it, and building an
//! archive from `(path, bytes)` pairs, each in MB/s of archive bytes.
//!
//! `cargo bench -p levelkit --bench rez`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use levelkit::formats::rez::{Builder, Rez, RezIndex, samples};

fn main() {
    divan::main();
}

/// Files as `(path, bytes)`.
type Files = Vec<(String, Vec<u8>)>;

/// The generated archive, its bytes, and its files.
static INPUT: LazyLock<(Rez, Vec<u8>, Files)> = LazyLock::new(|| {
    let rez = samples::large(60 << 20);
    let bytes = rez.write().unwrap();
    let files: Files = rez
        .files()
        .into_iter()
        .map(|(p, f)| (p, f.data.0.clone()))
        .collect();
    let s = rez.summary();
    eprintln!(
        "rez bench input: generated, {} bytes, {} files in {} directories, {} bytes of bodies",
        bytes.len(),
        s.files,
        s.directories,
        bytes.len() as u64 - u64::from(rez.header.next_write_pos)
    );
    (rez, bytes, files)
});

/// List: index the archive (header and directory bodies only) and walk every file's path.
#[divan::bench]
fn rez_list(bencher: Bencher) {
    let (_, bytes, _) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let index = RezIndex::read(divan::black_box(bytes)).unwrap();
        index.files().len()
    });
}

/// Extract all: index, then copy every file's data out (what `levelkit extract` does before
/// writing).
#[divan::bench]
fn rez_extract_all(bencher: Bencher) {
    let (_, bytes, _) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let index = RezIndex::read(divan::black_box(bytes)).unwrap();
        index
            .files()
            .into_iter()
            .map(|(_, f)| divan::black_box(index.data(f).unwrap().to_vec()).len())
            .sum::<usize>()
    });
}

/// Read the owned, lossless model (every file's data copied).
#[divan::bench]
fn rez_read_owned(bencher: Bencher) {
    let (_, bytes, _) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| Rez::read(divan::black_box(bytes)).unwrap().gaps.len());
}

/// Write the owned model.
#[divan::bench]
fn rez_write(bencher: Bencher) {
    let (rez, bytes, _) = &*INPUT;
    bencher
        .counter(BytesCount::new(bytes.len()))
        .bench(|| divan::black_box(rez).write().unwrap().len());
}

/// Build an archive from `(path, bytes)` pairs and write it (what `levelkit pack` does after
/// reading the folder).
#[divan::bench]
fn rez_pack(bencher: Bencher) {
    let (_, bytes, files) = &*INPUT;
    bencher.counter(BytesCount::new(bytes.len())).bench(|| {
        let mut b = Builder::new();
        for (path, data) in divan::black_box(files) {
            b.add(path, data.clone()).unwrap();
        }
        b.finish().unwrap().write().unwrap().len()
    });
}
