//! Graal level throughput: parse + validate of binary levels (and `.nw` once read), reported in
//! MB/s and levels/s. Uses every `.graal` under `$LEVELKIT_CORPUS/graal` when set, else the
//! bundled sample level. Target (issue 3): 3,000 typical binary levels (about 12 MB) validated in
//! under 0.2 s on one core, i.e. 60 MB/s and 15,000 levels/s.

use std::path::PathBuf;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use levelkit::formats::graal::{binary as graal, nw};

fn main() {
    divan::main();
}

/// Every file with extension `ext` in the corpus's Graal folders, or `fallback` when there is
/// no corpus.
fn corpus_files(ext: &str, fallback: impl FnOnce() -> Vec<u8>) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir).join("graal");
        for sub in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            for f in std::fs::read_dir(sub.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let p = f.path();
                if p.extension().is_some_and(|e| e == ext) {
                    out.push(std::fs::read(&p).unwrap_or_default());
                }
            }
        }
    }
    if out.is_empty() {
        out.push(fallback());
    }
    let total: usize = out.iter().map(Vec::len).sum();
    eprintln!("{ext} bench input: {} files, {total} bytes", out.len());
    out
}

/// The binary levels to parse.
static LEVELS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    corpus_files("graal", || {
        graal::samples::graal().write().unwrap_or_default()
    })
});

#[divan::bench]
fn graal_read_validate(bencher: Bencher) {
    let levels = &*LEVELS;
    let bytes: usize = levels.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(levels.len()))
        .bench(|| {
            for bytes in levels {
                let level = graal::read(divan::black_box(bytes));
                if let Ok(level) = level {
                    divan::black_box(level.validate());
                }
            }
        });
}

#[divan::bench]
fn graal_write(bencher: Bencher) {
    let levels: Vec<graal::Graal> = LEVELS.iter().filter_map(|b| graal::read(b).ok()).collect();
    let bytes: usize = LEVELS.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(levels.len()))
        .bench(|| {
            for level in &levels {
                divan::black_box(level.write().ok());
            }
        });
}

/// The text levels to parse.
static NW_LEVELS: LazyLock<Vec<Vec<u8>>> =
    LazyLock::new(|| corpus_files("nw", || nw::samples::village().write().unwrap_or_default()));

#[divan::bench]
fn nw_read_validate(bencher: Bencher) {
    let levels = &*NW_LEVELS;
    let bytes: usize = levels.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(levels.len()))
        .bench(|| {
            for bytes in levels {
                if let Ok(level) = nw::read(divan::black_box(bytes)) {
                    divan::black_box(level.validate());
                }
            }
        });
}
