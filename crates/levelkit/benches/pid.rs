//! PID throughput: read (decode, and the encoder's spelling found), decode to RGBA, and write,
//! in MB/s of PID bytes and images/s. Two inputs: the real PIDs under
//! `$LEVELKIT_CORPUS/wap32/pid` when set (three small Gruntz sprites), and generated ones (a set
//! of 64 sprites of 64 × 64 and one 640 × 480 screen, in both grammars); and the PCX screen
//! when there is one.
//!
//! `cargo bench -p levelkit --bench pid`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::{BytesCount, ItemsCount};
use levelkit::formats::pid::pcx::Pcx;
use levelkit::formats::pid::{Pid, samples};

fn main() {
    divan::main();
}

fn corpus(sub: &str, ext: &str) -> Vec<Vec<u8>> {
    let Some(root) = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty()) else {
        return Vec::new();
    };
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(PathBuf::from(root).join(sub))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    out.sort();
    out
}

/// The real PIDs (or, without a corpus, the two samples).
static REAL: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let mut files = corpus("wap32/pid", "pid");
    if files.is_empty() {
        files = vec![
            samples::sprite().write().unwrap(),
            samples::sprite_with_palette().write().unwrap(),
        ];
    }
    eprintln!(
        "pid bench: {} real files, {} bytes",
        files.len(),
        files.iter().map(Vec::len).sum::<usize>()
    );
    files
});

/// 64 generated 64 × 64 sprites, half in each grammar.
static SPRITES: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    (0..64u64)
        .map(|seed| {
            samples::generate(seed, 64, 64, seed % 2 == 0)
                .write()
                .unwrap()
        })
        .collect()
});

/// One generated 640 × 480 screen in the `0xC0` grammar.
static SCREEN: LazyLock<Vec<u8>> =
    LazyLock::new(|| samples::generate(7, 640, 480, false).write().unwrap());

fn read_all(bencher: Bencher, files: &[Vec<u8>]) {
    let bytes: usize = files.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(files.len()))
        .bench(|| {
            for f in files {
                divan::black_box(Pid::read(divan::black_box(f)).unwrap());
            }
        });
}

/// Read the real PIDs: decode, and find the spelling that re-encodes them.
#[divan::bench]
fn read_real(bencher: Bencher) {
    read_all(bencher, &REAL);
}

/// Read 64 generated sprites.
#[divan::bench]
fn read_sprites(bencher: Bencher) {
    read_all(bencher, &SPRITES);
}

/// Read a generated 640 × 480 screen.
#[divan::bench]
fn read_screen(bencher: Bencher) {
    read_all(bencher, std::slice::from_ref(&*SCREEN));
}

/// Read and draw in RGBA (the level renderer's path), the generated sprites.
#[divan::bench]
fn read_to_rgba_sprites(bencher: Bencher) {
    let files = &*SPRITES;
    let palette = samples::palette();
    let bytes: usize = files.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(files.len()))
        .bench(|| {
            for f in files {
                let pid = Pid::read(divan::black_box(f)).unwrap();
                let pal = pid.palette_or(Some(&palette)).unwrap();
                divan::black_box(pid.to_rgba(pal, pid.default_transparency(pal)).unwrap());
            }
        });
}

/// Write (encode) the generated sprites.
#[divan::bench]
fn write_sprites(bencher: Bencher) {
    let models: Vec<Pid> = SPRITES.iter().map(|f| Pid::read(f).unwrap()).collect();
    let bytes: usize = SPRITES.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(models.len()))
        .bench(|| {
            for m in &models {
                divan::black_box(divan::black_box(m).write().unwrap());
            }
        });
}

/// Read the real PCX screen (TRAINING.PCX, 640 × 480 × 3 planes), when the corpus is there.
#[divan::bench]
fn read_pcx(bencher: Bencher) {
    let files = corpus("wap32/pcx", "pcx");
    let bytes: usize = files.iter().map(Vec::len).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .counter(ItemsCount::new(files.len()))
        .bench(|| {
            for f in &files {
                divan::black_box(Pcx::read(divan::black_box(f)).unwrap());
            }
        });
}
