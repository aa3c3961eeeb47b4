//! Hostile input: every prefix of the small fixtures, prefixes around every section boundary of
//! large files, random garbage and random mutations must give errors (or a valid model), never a
//! panic; and errors must name the format and a place.

use crate::common;
use crate::common::Rng;

use levelkit::formats::wwd::{self, HEADER_SIZE, WriteOptions, samples};
use levelkit::{ErrorKind, Limits};

fn try_read(bytes: &[u8]) -> Result<wwd::Wwd, levelkit::Error> {
    let result = wwd::read_with(bytes, &Limits::strict());
    if let Err(e) = &result {
        let msg = e.to_string();
        assert!(msg.starts_with("wwd: "), "{msg}");
        assert!(!e.location.is_empty(), "error without a location: {msg}");
    }
    result
}

fn uncompressed(level: &wwd::Wwd) -> Vec<u8> {
    level
        .write_with(&WriteOptions {
            compress: Some(false),
            ..WriteOptions::default()
        })
        .unwrap()
}

/// Every strict prefix of a file is an error, and a truncation at all is an error.
fn sweep_all_prefixes(bytes: &[u8]) {
    for len in 0..bytes.len() {
        let err = try_read(&bytes[..len]).err();
        assert!(err.is_some(), "prefix of {len} bytes was accepted");
    }
    assert!(try_read(bytes).is_ok());
}

#[test]
fn every_prefix_of_the_small_fixtures_is_an_error() {
    for level in [samples::gruntz_like(), samples::claw_like()] {
        let plain = uncompressed(&level);
        sweep_all_prefixes(&plain);
        let compressed = level
            .write_with(&WriteOptions {
                compress: Some(true),
                ..WriteOptions::default()
            })
            .unwrap();
        sweep_all_prefixes(&compressed);
    }
}

/// Section boundaries of an uncompressed file, read from its own offsets.
fn boundaries(bytes: &[u8]) -> Vec<usize> {
    let level = wwd::read(bytes).unwrap();
    let u = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let mut out = vec![0, 4, 16, HEADER_SIZE as usize];
    let planes_at = u(0x2E0);
    for (i, plane) in level.planes.iter().enumerate() {
        let h = planes_at + i * 160;
        out.push(h);
        let tiles = u(h + 0x84);
        out.extend([tiles, tiles + plane.tiles.len() * 4]);
        out.push(u(h + 0x88));
        let mut o = u(h + 0x8C);
        for (k, obj) in plane.objects.iter().enumerate() {
            if k < 3 || k + 3 >= plane.objects.len() {
                out.extend([o, o + 284]);
            }
            o += obj.record_size() as usize;
        }
        out.push(o);
    }
    let mut tp = u(0x2E4);
    out.extend([tp, tp + 32]);
    tp += 32;
    for r in level.tile_properties.records.iter().take(5) {
        tp += r.record_size() as usize;
        out.push(tp);
    }
    out.push(bytes.len());
    out
}

fn sweep_large(bytes: &[u8], image: &[u8], rng: &mut Rng) {
    let mut lens: Vec<usize> = boundaries(image)
        .into_iter()
        .flat_map(|b| b.saturating_sub(8)..b + 8)
        .filter(|&l| l < bytes.len())
        .collect();
    lens.extend((0..300).map(|_| rng.below(bytes.len())));
    for len in lens {
        assert!(try_read(&bytes[..len]).is_err(), "prefix {len} accepted");
    }
}

#[test]
fn prefixes_around_every_section_boundary_of_a_large_level() {
    let mut rng = Rng(7);
    let level = samples::claw_like_sized(384, 96, 1000);
    let plain = uncompressed(&level);
    sweep_large(&plain, &plain, &mut rng);
    let z = level
        .write_with(&WriteOptions {
            compress: Some(true),
            ..WriteOptions::default()
        })
        .unwrap();
    for len in (0..z.len()).step_by(61) {
        assert!(try_read(&z[..len]).is_err(), "prefix {len} accepted");
    }
}

#[test]
fn prefixes_of_real_files() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real-file prefixes") else {
        return;
    };
    let mut rng = Rng(11);
    let plain = std::fs::read(dir.join("RETAIL01_nocompress.WWD")).unwrap();
    sweep_large(&plain, &plain, &mut rng);
    for name in ["RETAIL01.WWD", "LePortdeCoolness.wwd", "RockySwitch.wwd"] {
        let z = std::fs::read(dir.join(name)).unwrap();
        // Every prefix through the header and the zlib header, then spread over the stream.
        let lens = (0..HEADER_SIZE as usize + 64).chain((0..z.len()).step_by(37));
        for len in lens.filter(|&l| l < z.len()) {
            assert!(
                try_read(&z[..len]).is_err(),
                "{name}: prefix {len} accepted"
            );
        }
    }
}

#[test]
fn random_garbage_and_mutations_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..300 {
        let len = rng.below(4096);
        let mut junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if junk.len() >= 4 && rng.below(2) == 0 {
            junk[..4].copy_from_slice(&HEADER_SIZE.to_le_bytes());
        }
        let _ = try_read(&junk);
    }
    let bases = [
        uncompressed(&samples::gruntz_like()),
        uncompressed(&samples::claw_like()),
        samples::claw_like().write().unwrap(),
    ];
    let mut accepted = 0;
    for i in 0..1500 {
        let mut bytes = bases[i % bases.len()].clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len());
            bytes[at] = match rng.below(4) {
                0 => 0xFF,
                1 => 0,
                _ => rng.next() as u8,
            };
        }
        if let Ok(level) = try_read(&bytes) {
            accepted += 1;
            let _ = level.validate();
            let _ = level.to_tilemap();
            // Whatever was accepted writes and reads back to the same level.
            if let Ok(out) = level.write() {
                let mut again = wwd::read(&out).unwrap();
                let mut first = level;
                again.source = None;
                first.source = None;
                assert_eq!(again, first);
            }
        }
    }
    assert!(
        accepted > 0,
        "no mutation survived: the sweep tests nothing"
    );
}

fn patch(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn impossible_counts_are_refused_with_a_clear_error() {
    let base = uncompressed(&samples::gruntz_like());
    let plane1 = 1524 + 160;
    let cases: [(&str, usize, u32); 6] = [
        ("plane count", 0x2DC, 0xFFFF_FFFF),
        ("tiles wide", plane1 + 0x60, 0x7FFF_FFFF),
        ("object count", plane1 + 0x80, 0xFFFF_FFF0),
        ("image set count", plane1 + 0x7C, 0xFFFF_FFFF),
        ("tile offset", plane1 + 0x84, 0xFFFF_FF00),
        ("tile property count", 0, 0),
    ];
    for (what, at, value) in cases {
        let mut bytes = base.clone();
        if what == "tile property count" {
            let tp = u32::from_le_bytes(bytes[0x2E4..0x2E8].try_into().unwrap()) as usize;
            patch(&mut bytes, tp + 8, 0x4000_0000);
        } else {
            patch(&mut bytes, at, value);
        }
        let err = try_read(&bytes).unwrap_err();
        assert!(
            matches!(
                err.kind,
                ErrorKind::Truncated | ErrorKind::LimitExceeded | ErrorKind::Malformed
            ),
            "{what}: {err}"
        );
    }
    // A negative grid is malformed, not a huge allocation.
    let mut bytes = base.clone();
    patch(&mut bytes, plane1 + 0x64, (-5i32) as u32);
    let err = try_read(&bytes).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Malformed);
    assert!(err.to_string().contains("planes[1]"), "{err}");
    // An unknown tile-property type names its value.
    let mut bytes = base;
    let tp = u32::from_le_bytes(bytes[0x2E4..0x2E8].try_into().unwrap()) as usize;
    patch(&mut bytes, tp + 32, 7);
    let err = try_read(&bytes).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported);
    assert!(err.to_string().contains("type is 7"), "{err}");
    assert!(
        err.to_string().contains("tile_properties.records[0]"),
        "{err}"
    );
}

#[test]
fn a_zlib_bomb_is_stopped_at_the_limit() {
    use std::io::Write;
    // 64 MiB of zeros compresses to ~64 KiB; strict limits allow 16 MiB.
    let mut header = uncompressed(&samples::gruntz_like())[..1524].to_vec();
    patch(&mut header, 8, 3);
    patch(&mut header, 0x2E8, 64 << 20);
    let mut enc = flate2::write::ZlibEncoder::new(header, flate2::Compression::new(9));
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..64 {
        enc.write_all(&chunk).unwrap();
    }
    let bytes = enc.finish().unwrap();
    // Refused on its first plane header (zeros), before inflating the rest.
    let err = try_read(&bytes).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Malformed, "{err}");
    assert!(
        err.to_string().contains("plane header size field is 0"),
        "{err}"
    );
}
