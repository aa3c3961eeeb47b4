//! The streaming reader for compressed files (`wwd::stream`) against the whole-image reader it
//! falls back on: wherever the streaming reader answers, the whole-image reader must give the
//! same model, and `read_with` must always give what the whole-image reader gives (model or
//! error). Checked on the real files (`$LEVELKIT_CORPUS/wwd/*`, skipped when unset), on the
//! samples, and on mutations of both: truncations, byte flips in the compressed bytes, and
//! edits of the inflated image (counts, offsets, sizes, strings, non-editor layouts, trailing
//! data, size fields that lie, other deflate block structures) compressed again.

use crate::common;
use crate::common::Rng;

use std::io::{Read, Write};
use std::path::PathBuf;

use flate2::Compression;
use levelkit::Limits;
use levelkit::formats::wwd::{self, HEADER_SIZE, WriteOptions, samples, stream};

const HEADER: usize = HEADER_SIZE as usize;

/// Compare the two readers on `bytes` under `limits`; true when the streaming reader answered.
fn agree_under(name: &str, bytes: &[u8], limits: &Limits) -> bool {
    let whole = stream::read_whole_image(bytes, limits);
    let streamed = stream::read_streamed(bytes, limits);
    if let Some(streamed) = &streamed {
        match &whole {
            Ok(whole) => assert!(
                whole == streamed,
                "{name}: the two readers give different models"
            ),
            Err(e) => {
                panic!("{name}: streaming reader accepted what the whole-image one refuses: {e}")
            }
        }
    }
    assert!(
        wwd::read_with(bytes, limits) == whole,
        "{name}: read_with differs from the whole-image reader"
    );
    streamed.is_some()
}

/// How hard to try: everything on the small samples; on the large real files (each read takes
/// milliseconds in the test profile) a sample of every kind of mutation.
#[derive(Clone, Copy)]
struct Effort {
    /// Also under the strict limits.
    strict: bool,
    /// Every prefix, or this many spread over the file (plus those around the main block start
    /// and the trailer).
    every_prefix: bool,
    prefixes: usize,
    /// Random flips of the compressed bytes, and of the image before compressing it again.
    file_flips: usize,
    image_flips: usize,
    /// Every dword of each plane header, or those that size, count or locate something.
    all_plane_dwords: bool,
    /// Replacement values tried per dword.
    dword_values: usize,
}

const THOROUGH: Effort = Effort {
    strict: true,
    every_prefix: true,
    prefixes: 0,
    file_flips: 300,
    image_flips: 300,
    all_plane_dwords: true,
    dword_values: 9,
};

const LIGHT: Effort = Effort {
    strict: false,
    every_prefix: false,
    prefixes: 40,
    file_flips: 60,
    image_flips: 20,
    all_plane_dwords: false,
    dword_values: 2,
};

/// [`agree_under`] with the default limits (and the strict ones when `effort.strict`); true
/// when the streaming reader answered under the default ones.
fn agree(name: &str, bytes: &[u8], effort: Effort) -> bool {
    if effort.strict {
        agree_under(name, bytes, &Limits::strict());
    }
    agree_under(name, bytes, &Limits::default())
}

fn write(level: &wwd::Wwd, compress: bool) -> Vec<u8> {
    level
        .write_with(&WriteOptions {
            compress: Some(compress),
            ..WriteOptions::default()
        })
        .unwrap()
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn patch(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// The inflated image of a compressed file (header + main block).
fn image(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes[..HEADER].to_vec();
    flate2::read::ZlibDecoder::new(&bytes[HEADER..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// A compressed file from an image: the compress flag set, the size field `declared` (the true
/// inflated length when `None`), the main block deflated at `level`, then `after` appended.
fn compress(image: &[u8], level: u32, declared: Option<u32>, after: &[u8]) -> Vec<u8> {
    let mut out = image[..HEADER].to_vec();
    let flags = u32_at(&out, 8) | 2;
    patch(&mut out, 8, flags);
    let main = &image[HEADER..];
    patch(
        &mut out,
        0x2E8,
        declared.unwrap_or(main.len().try_into().unwrap()),
    );
    let mut z = flate2::write::ZlibEncoder::new(out, Compression::new(level));
    z.write_all(main).unwrap();
    let mut out = z.finish().unwrap();
    out.extend_from_slice(after);
    out
}

/// Offsets worth editing in an image: the header's derived fields, the dwords of every plane
/// header, the string sizes of each plane's first objects, the tile-property header and the
/// first records.
fn interesting_dwords(image: &[u8], all_plane_dwords: bool) -> Vec<usize> {
    let mut at: Vec<usize> = (0x2DC..0x2F0).step_by(4).collect();
    let planes = u32_at(image, 0x2DC) as usize;
    let planes_at = u32_at(image, 0x2E0) as usize;
    for p in 0..planes {
        let base = planes_at + p * 160;
        if all_plane_dwords {
            at.extend((base..base + 160).step_by(4));
        } else {
            // Header size, grid size, counts, offsets.
            at.extend([0, 0x60, 0x64, 0x7C, 0x80, 0x84, 0x88, 0x8C].map(|d| base + d));
        }
        let objects = u32_at(image, base + 0x80) as usize;
        let mut o = u32_at(image, base + 0x8C) as usize;
        for _ in 0..objects.min(3) {
            at.extend((o + 4..o + 20).step_by(4));
            let strings: usize = (1..5).map(|i| u32_at(image, o + 4 * i) as usize).sum();
            o += 284 + strings;
        }
    }
    let tp = u32_at(image, 0x2E4) as usize;
    at.extend((tp..(tp + 32 + 3 * 16).min(image.len() - 3)).step_by(4));
    at
}

/// Edits of `image`, each compressed again and compared. Returns how many the streaming reader
/// answered.
fn image_mutations(name: &str, image: &[u8], effort: Effort, rng: &mut Rng) -> usize {
    let mut answered = 0;
    let mut check = |what: String, bytes: Vec<u8>| {
        answered += usize::from(agree(&format!("{name}: {what}"), &bytes, effort));
    };
    // Other block structures: stored blocks, fastest, best.
    for level in [0, 1, 9] {
        check(format!("level {level}"), compress(image, level, None, &[]));
    }
    // Size fields that lie, and data after the stream.
    let len = (image.len() - HEADER) as u32;
    for declared in [0, 1, len - 1, len + 1, len + 4096, u32::MAX] {
        check(
            format!("declared {declared}"),
            compress(image, 6, Some(declared), &[]),
        );
    }
    check("bytes after".into(), compress(image, 6, None, b"junk"));
    // A trailing run in the image (a gap after the tile properties).
    let mut longer = image.to_vec();
    longer.extend_from_slice(b"WAPMAP\0\x01");
    check(
        "trailing image bytes".into(),
        compress(&longer, 6, None, &[]),
    );
    // Dword edits of everything that locates, sizes or counts something.
    for at in interesting_dwords(image, effort.all_plane_dwords) {
        let v = u32_at(image, at);
        let values = [
            v.wrapping_add(1),
            u32::MAX,
            v.wrapping_sub(1),
            0,
            1,
            v.wrapping_add(4),
            v.wrapping_sub(4),
            v.wrapping_add(160),
            v ^ 0x8000_0000,
        ];
        for &new in &values[..effort.dword_values] {
            let mut edited = image.to_vec();
            patch(&mut edited, at, new);
            check(
                format!("dword 0x{at:x} = {new}"),
                compress(&edited, 6, None, &[]),
            );
        }
    }
    // Bit flips anywhere in the main block (strings, tiles, fields).
    for _ in 0..effort.image_flips {
        let mut edited = image.to_vec();
        let at = HEADER + rng.below(image.len() - HEADER);
        edited[at] ^= 1 << rng.below(8);
        check(
            format!("image flip at 0x{at:x}"),
            compress(&edited, 6, None, &[]),
        );
    }
    answered
}

/// Edits of the compressed file itself: truncations and byte flips.
fn file_mutations(name: &str, bytes: &[u8], effort: Effort, rng: &mut Rng) {
    let prefixes: Vec<usize> = if effort.every_prefix {
        (0..bytes.len()).collect()
    } else {
        let mut p: Vec<usize> = (0..effort.prefixes)
            .map(|_| rng.below(bytes.len()))
            .collect();
        p.extend([
            0,
            HEADER - 1,
            HEADER,
            HEADER + 2,
            bytes.len() - 4,
            bytes.len() - 1,
        ]);
        p
    };
    for len in prefixes {
        agree(&format!("{name}: prefix {len}"), &bytes[..len], effort);
    }
    for _ in 0..effort.file_flips {
        let mut edited = bytes.to_vec();
        let at = HEADER + rng.below(bytes.len() - HEADER);
        edited[at] ^= 1 + rng.below(255) as u8;
        agree(&format!("{name}: flip at 0x{at:x}"), &edited, effort);
    }
    // The zlib trailer, byte by byte.
    for back in 1..=4 {
        let mut edited = bytes.to_vec();
        let at = bytes.len() - back;
        edited[at] ^= 0x55;
        agree(&format!("{name}: trailer byte -{back}"), &edited, effort);
    }
}

/// Budgets around what the file needs: both readers pass or fail alike.
fn limit_sweep(name: &str, bytes: &[u8]) {
    let image_len = u32_at(bytes, 0x2E8) as usize + HEADER;
    for max_alloc in [
        image_len / 2,
        image_len - 1,
        image_len,
        image_len + image_len / 4,
        image_len * 2,
    ] {
        let limits = Limits {
            max_alloc,
            ..Limits::default()
        };
        agree_under(&format!("{name}: max_alloc {max_alloc}"), bytes, &limits);
    }
    for max_count in [0, 10, 1000, 100_000] {
        let limits = Limits {
            max_count,
            ..Limits::default()
        };
        agree_under(&format!("{name}: max_count {max_count}"), bytes, &limits);
    }
}

#[test]
fn samples_and_their_mutations() {
    let mut rng = Rng(0xFA57_9A7E);
    for (name, level) in [
        ("gruntz_like", samples::gruntz_like()),
        ("claw_like", samples::claw_like()),
    ] {
        let bytes = write(&level, true);
        assert!(
            agree(name, &bytes, THOROUGH),
            "{name}: streaming reader declined"
        );
        let streamed = stream::read_streamed(&bytes, &Limits::default()).unwrap();
        assert_eq!(streamed.planes, level.planes);
        // Uncompressed files are never streamed.
        assert!(stream::read_streamed(&write(&level, false), &Limits::default()).is_none());
        file_mutations(name, &bytes, THOROUGH, &mut rng);
        limit_sweep(name, &bytes);
        let answered = image_mutations(name, &image(&bytes), THOROUGH, &mut rng);
        // Many edits leave a readable file in the editor's layout (strings, tiles, fields).
        assert!(
            answered > 100,
            "{name}: streaming reader answered only {answered} times"
        );
    }
}

#[test]
fn non_editor_layouts_fall_back() {
    // Trailing bytes in the image: the streaming reader declines, the whole-image reader keeps
    // them as a gap.
    let mut level = samples::gruntz_like();
    let plain = write(&level, false);
    let mut image = plain.clone();
    image.extend_from_slice(&[0xAB; 5]);
    let bytes = compress(&image, 6, None, &[]);
    assert!(!agree("trailing", &bytes, THOROUGH));
    assert!(wwd::read(&bytes).unwrap().layout.is_some());

    // The grid of plane 1 before that of plane 0.
    let read = wwd::read(&plain).unwrap();
    let grids = HEADER as u32 + 2 * 160;
    let (t0, t1) = (
        read.planes[0].tiles.len() as u32 * 4,
        read.planes[1].tiles.len() as u32 * 4,
    );
    assert_eq!(u32_at(&plain, HEADER + 160 + 0x84), grids + t0);
    let plane = |p: usize, offset_tiles| wwd::PlaneLayout {
        offset_tiles,
        offset_image_sets: u32_at(&plain, HEADER + p * 160 + 0x88),
        offset_objects: u32_at(&plain, HEADER + p * 160 + 0x8C),
    };
    level.layout = Some(wwd::Layout {
        offset_planes: u32_at(&plain, 0x2E0),
        offset_tile_properties: u32_at(&plain, 0x2E4),
        planes: vec![plane(0, grids + t1), plane(1, grids)],
        gaps: Vec::new(),
    });
    let bytes = write(&level, true);
    assert!(!agree("swapped grids", &bytes, THOROUGH));
    assert_eq!(wwd::read(&bytes).unwrap().layout, level.layout);
}

#[test]
fn large_sample_and_its_mutations() {
    let mut rng = Rng(0x1A26_E5A7);
    let bytes = write(&samples::claw_like_sized(384, 96, 1000), true);
    assert!(agree("claw_like_sized", &bytes, THOROUGH));
    file_mutations("claw_like_sized", &bytes, LIGHT, &mut rng);
    limit_sweep("claw_like_sized", &bytes);
}

#[test]
fn every_corpus_file_and_its_mutations() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real WWD files") else {
        return;
    };
    let mut rng = Rng(0xC0B9_05E5);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut streamed = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        if agree(&name, &bytes, THOROUGH) {
            streamed.push(name.clone());
        }
        let compressed =
            bytes.len() > HEADER && u32_at(&bytes, 0) == HEADER_SIZE && u32_at(&bytes, 8) & 2 != 0;
        if compressed {
            file_mutations(&name, &bytes, LIGHT, &mut rng);
            limit_sweep(&name, &bytes);
            image_mutations(&name, &image(&bytes), LIGHT, &mut rng);
        }
    }
    // The good compressed levels all take the streaming path.
    for good in ["LePortdeCoolness.wwd", "RETAIL01.WWD", "RockySwitch.wwd"] {
        assert!(
            streamed.iter().any(|s| s == good),
            "{good} not streamed (streamed: {streamed:?})"
        );
    }
}
