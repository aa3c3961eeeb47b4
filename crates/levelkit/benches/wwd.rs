//! WWD throughput: reading (with validation) an uncompressed and a compressed level, the bare zlib
//! inflate of the same main block as the baseline for the compressed read, and writing both ways.
//! The compressed read goes through the streaming reader (`wwd::stream`); the same file through
//! the whole-image reader it falls back on for unusual layouts is measured too. Neither compresses
//! anything: the stored stream is copied into the model (`Deflate::Original`), and the search for
//! the zlib level that reproduces it (one deflate of the main block, about as long as
//! `write_compressed`) runs only for the JSON form, which `export_json_compressed` measures.
//!
//! Input: with `LEVELKIT_CORPUS` set, `$LEVELKIT_CORPUS/wwd/RETAIL01_nocompress.WWD` and
//! `RETAIL01.WWD` (the same Claw level); otherwise a generated `claw_like_sized(384, 96, 1000)`
//! written uncompressed and compressed. Every benchmark counts the bytes of the uncompressed file,
//! so MB/s compare directly: the compressed read against the bare inflate is the time ratio.
//!
//! `cargo bench -p levelkit --bench wwd` (and again with `LEVELKIT_CORPUS=/work/shared/corpus`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use flate2::{Decompress, FlushDecompress, Status};
use levelkit::formats::wwd::{self, WriteOptions, Wwd};

fn main() {
    let input = &*INPUT;
    eprintln!(
        "wwd bench input: {} ({} bytes uncompressed, {} bytes compressed)",
        input.name,
        input.plain.len(),
        input.compressed.len()
    );
    divan::main();
}

/// One level, stored both ways, plus its model.
struct Input {
    name: String,
    plain: Vec<u8>,
    compressed: Vec<u8>,
    level: Wwd,
}

static INPUT: LazyLock<Input> = LazyLock::new(load);

fn load() -> Input {
    // An empty value counts as unset.
    let corpus = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty());
    let (name, plain, compressed) = match corpus {
        Some(dir) => {
            let dir = PathBuf::from(dir).join("wwd");
            let read = |file: &str| {
                let path = dir.join(file);
                std::fs::read(&path)
                    .unwrap_or_else(|e| panic!("LEVELKIT_CORPUS is set but {path:?}: {e}"))
            };
            (
                "RETAIL01 (LEVELKIT_CORPUS)".to_owned(),
                read("RETAIL01_nocompress.WWD"),
                read("RETAIL01.WWD"),
            )
        }
        None => {
            let level = wwd::samples::claw_like_sized(384, 96, 1000);
            let write = |compress| {
                level
                    .write_with(&WriteOptions {
                        compress: Some(compress),
                        ..WriteOptions::default()
                    })
                    .expect("sample level writes")
            };
            (
                "claw_like_sized(384, 96, 1000)".to_owned(),
                write(false),
                write(true),
            )
        }
    };
    let level = wwd::read(&plain).expect("uncompressed level reads");
    let from_compressed = wwd::read(&compressed).expect("compressed level reads");
    assert!(!level.is_compressed() && from_compressed.is_compressed());
    let limits = levelkit::Limits::default();
    assert!(
        wwd::stream::read_streamed(&compressed, &limits).as_ref() == Some(&from_compressed),
        "the compressed level does not take the streaming path"
    );
    // The same level, though the retail pair lists the objects in a different order.
    let shape = |w: &Wwd| {
        w.planes
            .iter()
            .map(|p| (p.tiles.clone(), p.objects.len()))
            .collect::<Vec<_>>()
    };
    assert!(
        shape(&level) == shape(&from_compressed),
        "not the same level"
    );
    Input {
        name,
        plain,
        compressed,
        level,
    }
}

/// The compressed main block (everything after the 1524-byte header) and its inflated length.
fn main_block() -> (&'static [u8], usize) {
    let input = &*INPUT;
    let header = wwd::HEADER_SIZE as usize;
    (&input.compressed[header..], input.plain.len() - header)
}

fn bytes() -> BytesCount {
    BytesCount::new(INPUT.plain.len())
}

/// (a) Read and validate the uncompressed file.
#[divan::bench]
fn read_uncompressed(bencher: Bencher) {
    let data = &INPUT.plain;
    bencher.counter(bytes()).bench(|| {
        let level = wwd::read(black_box(data)).unwrap();
        let findings = level.validate();
        (level, findings)
    });
}

/// (b) Read and validate the compressed file.
#[divan::bench]
fn read_compressed(bencher: Bencher) {
    let data = &INPUT.compressed;
    bencher.counter(bytes()).bench(|| {
        let level = wwd::read(black_box(data)).unwrap();
        let findings = level.validate();
        (level, findings)
    });
}

/// (b') The compressed file through the whole-image reader alone (the fallback for files not in
/// the editor's layout), with validation.
#[divan::bench]
fn read_compressed_whole_image(bencher: Bencher) {
    let data = &INPUT.compressed;
    let limits = levelkit::Limits::default();
    bencher.counter(bytes()).bench(|| {
        let level = wwd::stream::read_whole_image(black_box(data), &limits).unwrap();
        let findings = level.validate();
        (level, findings)
    });
}

/// (c) Baseline for (b): inflate the same main block into a buffer of the known size.
#[divan::bench]
fn inflate_only(bencher: Bencher) {
    let (stream, len) = main_block();
    let inflate = |stream: &[u8]| {
        let mut out = Vec::with_capacity(len);
        let mut z = Decompress::new(true);
        let status = z
            .decompress_vec(stream, &mut out, FlushDecompress::Finish)
            .unwrap();
        (status, out)
    };
    let (status, out) = inflate(stream);
    assert_eq!((status, out.len()), (Status::StreamEnd, len));
    bencher
        .counter(bytes())
        .bench(|| inflate(black_box(stream)));
}

/// (d) Write the level uncompressed.
#[divan::bench]
fn write_uncompressed(bencher: Bencher) {
    let level = &INPUT.level;
    let options = WriteOptions {
        compress: Some(false),
        ..WriteOptions::default()
    };
    assert_eq!(level.write_with(&options).unwrap(), INPUT.plain);
    bencher
        .counter(bytes())
        .bench(|| black_box(level).write_with(&options).unwrap());
}

/// (e) Write the level compressed (zlib level 6: the model read from the uncompressed file has
/// the default settings).
#[divan::bench]
fn write_compressed(bencher: Bencher) {
    let level = &INPUT.level;
    let options = WriteOptions {
        compress: Some(true),
        ..WriteOptions::default()
    };
    bencher
        .counter(bytes())
        .bench(|| black_box(level).write_with(&options).unwrap());
}

/// (e') Write the level read from the compressed file back compressed, unedited: the stored
/// stream is checked (inflated and compared with the main block) and put back, no deflate.
#[divan::bench]
fn write_compressed_as_read(bencher: Bencher) {
    let data = &INPUT.compressed;
    let level = wwd::read(data).unwrap();
    assert!(level.write().unwrap() == *data);
    bencher
        .counter(bytes())
        .bench(|| black_box(&level).write().unwrap());
}

/// (f) Export the compressed file as the lossless JSON document, as `levelkit convert x.wwd
/// x.json` does: read, then `Model::to_json` (pretty JSON).
#[divan::bench]
fn export_json_compressed(bencher: Bencher) {
    let data = &INPUT.compressed;
    bencher.counter(bytes()).bench(|| {
        let level = wwd::read(black_box(data)).unwrap();
        levelkit::document::Model::Wwd(level).to_json().unwrap()
    });
}
