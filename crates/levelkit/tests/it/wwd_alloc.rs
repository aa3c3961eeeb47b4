//! Files whose counts or decompressed-size field claim gigabytes are refused without allocating
//! them: the test binary's counting allocator (`common::alloc`) measures the peak of this thread.

use crate::common::alloc::peak_during;
use levelkit::formats::wwd::{self, WriteOptions, samples};
use levelkit::{ErrorKind, Limits};

fn patch(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn gigabyte_claims_allocate_at_most_a_small_multiple_of_the_input() {
    let plain = samples::gruntz_like()
        .write_with(&WriteOptions {
            compress: Some(false),
            ..WriteOptions::default()
        })
        .unwrap();
    let compressed = samples::gruntz_like()
        .write_with(&WriteOptions {
            compress: Some(true),
            ..WriteOptions::default()
        })
        .unwrap();
    let plane1 = 1524 + 160;
    let tp = u32::from_le_bytes(plain[0x2E4..0x2E8].try_into().unwrap()) as usize;

    let mut hostile: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut add = |name, base: &Vec<u8>, at: usize, v: u32| {
        let mut b = base.clone();
        patch(&mut b, at, v);
        hostile.push((name, b));
    };
    add("plane count 4G", &plain, 0x2DC, u32::MAX);
    add("grid 65536 x 65536", &plain, plane1 + 0x60, 65536);
    add("object count 4G", &plain, plane1 + 0x80, u32::MAX);
    add("image-set count 4G", &plain, plane1 + 0x7C, u32::MAX);
    add("tile-property count 1G", &plain, tp + 8, 0x4000_0000);
    add("decompressed size 4G", &compressed, 0x2E8, u32::MAX);
    // A mask tile claiming 65536 x 65536 pixels.
    let mut mask = plain.clone();
    patch(&mut mask, tp + 32, 3);
    patch(&mut mask, tp + 40, 65536);
    patch(&mut mask, tp + 44, 65536);
    hostile.push(("mask 4 GiB", mask));
    // The grid claim on a plane whose height makes 4 GiB of cells.
    let mut grid = plain.clone();
    patch(&mut grid, plane1 + 0x60, 0x7FFF);
    patch(&mut grid, plane1 + 0x64, 0x7FFF);
    hostile.push(("grid 32767 x 32767", grid));

    for (name, bytes) in &hostile {
        for limits in [Limits::default(), Limits::strict()] {
            let (result, peak) = peak_during(|| wwd::read_with(bytes, &limits));
            if *name == "decompressed size 4G" {
                // The stream is honest, so the file reads (the size field only sizes the first
                // allocation); validation reports the lie as an error.
                let level = result.map_err(|e| e.to_string());
                let findings = level.as_ref().map(|l| l.validate()).unwrap_or_default();
                assert!(
                    findings
                        .iter()
                        .any(|f| f.severity == levelkit::Severity::Error
                            && f.message.contains("decompressed-size")),
                    "{name}: {:?}",
                    level.err()
                );
            } else {
                let Err(err) = result else {
                    panic!("{name}: accepted");
                };
                assert!(
                    matches!(err.kind, ErrorKind::Truncated | ErrorKind::LimitExceeded),
                    "{name}: {err}"
                );
            }
            // The honest parts of the file may be read before the lie is found, and an inflate
            // buffer may be sized up to 64 times the compressed bytes; nothing may be allocated
            // in proportion to the claim.
            let bound = 100 * bytes.len() + (1 << 20);
            assert!(peak <= bound, "{name}: peak {peak} bytes > {bound}");
        }
    }

    // Control: the real file does allocate its model, and the measurement sees it.
    let (ok, peak) = peak_during(|| wwd::read(&compressed));
    assert!(ok.is_ok());
    assert!(peak > plain.len(), "peak {peak} implausibly small");
}

/// A compressed level whose zlib stream is `image`'s main block followed by `zeros` zero bytes,
/// with the size field set to `declared` (`None`: the true inflated length).
fn bomb(image: &[u8], zeros: usize, declared: Option<u32>) -> Vec<u8> {
    use flate2::{Compression, write::ZlibEncoder};
    use std::io::Write as _;
    let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
    z.write_all(&image[1524..]).unwrap();
    let chunk = vec![0u8; 16 << 20];
    let mut left = zeros;
    while left > 0 {
        let n = left.min(chunk.len());
        z.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    let stream = z.finish().unwrap();
    let mut file = image[..1524].to_vec();
    file[8..12].copy_from_slice(&3u32.to_le_bytes()); // USE_Z_COORDS | COMPRESS
    let main_len = (image.len() - 1524 + zeros) as u32;
    patch(&mut file, 0x2E8, declared.unwrap_or(main_len));
    file.extend_from_slice(&stream);
    file
}

#[test]
fn a_gigabyte_of_zeros_in_the_stream_is_refused_before_64_mib() {
    let image = samples::claw_like()
        .write_with(&WriteOptions {
            compress: Some(false),
            ..WriteOptions::default()
        })
        .unwrap();
    // Zeros where the plane headers should be, and the real sections followed by a gigabyte of
    // zeros (a trailing "gap" no level needs), each with an honest, a small and a huge size field.
    let header_only = {
        let mut h = image[..1524].to_vec();
        h.extend_from_slice(&[0; 160]);
        h
    };
    let small = (image.len() - 1524) as u32;
    for (name, base) in [("zeros", &header_only), ("sections then zeros", &image)] {
        let honest = bomb(base, 1 << 30, None);
        assert!(honest.len() < 2 << 20, "{name}: {} bytes", honest.len());
        for declared in [None, Some(small), Some(u32::MAX)] {
            let mut file = honest.clone();
            if let Some(d) = declared {
                patch(&mut file, 0x2E8, d);
            }
            let (result, peak) = peak_during(|| wwd::read_with(&file, &Limits::default()));
            let err = result.expect_err(name);
            assert!(
                matches!(err.kind, ErrorKind::Malformed | ErrorKind::LimitExceeded),
                "{name} {declared:?}: {err}"
            );
            assert!(
                peak < 64 << 20,
                "{name} {declared:?}: peak {peak} bytes; {err}"
            );
        }
    }
    // The same sections with a short gap after them still read, the gap kept.
    let gap = bomb(&image, 100, None);
    let level = wwd::read(&gap).unwrap();
    let source = level.source.as_ref().unwrap();
    assert_eq!(source.main_block_len, (image.len() - 1524 + 100) as u64);
    assert!(level.layout.is_some(), "the gap is kept in the layout");
}
