//! Real WWD files from `$LEVELKIT_CORPUS/wwd` (see shared/corpus/README.md). Skips cleanly when
//! the variable is unset; fails loudly when it is set and anything regresses.

use crate::common;

use levelkit::ErrorKind;
use levelkit::formats::wwd::{self, HEADER_SIZE, TileAttr, Wwd};

fn load(dir: &std::path::Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The inflated image of a file: header + main block as the offsets see it.
fn image(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let flags = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    let mut out = bytes[..HEADER_SIZE as usize].to_vec();
    if flags & 2 != 0 {
        flate2::read::ZlibDecoder::new(&bytes[HEADER_SIZE as usize..])
            .read_to_end(&mut out)
            .unwrap();
    } else {
        out.extend_from_slice(&bytes[HEADER_SIZE as usize..]);
    }
    out
}

/// The header without its checksum field, which covers the compressed bytes.
fn header_sans_checksum(image: &[u8]) -> Vec<u8> {
    let mut h = image[..HEADER_SIZE as usize].to_vec();
    h[0x2EC..0x2F0].fill(0);
    h
}

const GOOD: [(&str, bool, usize, usize); 4] = [
    // (file, compressed, planes, objects)
    ("RETAIL01.WWD", true, 3, 1479),
    ("RETAIL01_nocompress.WWD", false, 3, 1479),
    ("LePortdeCoolness.wwd", true, 3, 1304),
    ("RockySwitch.wwd", true, 1, 569),
];

#[test]
fn good_files_read_validate_and_round_trip() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real WWD files") else {
        return;
    };
    let mut identical_compressed = 0;
    for (name, compressed, planes, objects) in GOOD {
        let bytes = load(&dir, name);
        let level = Wwd::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(level.is_compressed(), compressed, "{name}");
        assert_eq!(level.planes.len(), planes, "{name}");
        assert_eq!(level.summary().objects, objects, "{name}");
        assert!(level.layout.is_none(), "{name}: editor layout expected");
        let src = level.source.as_ref().unwrap();
        assert_eq!(
            src.stored_checksum, src.computed_checksum,
            "{name}: checksum"
        );
        let findings = level.validate();
        // The real levels are clean: no finding at all.
        assert!(findings.is_empty(), "{name}: {findings:#?}");
        let out = level.write().unwrap();
        if compressed {
            let (a, b) = (image(&bytes), image(&out));
            assert_eq!(a.len(), b.len(), "{name}: inflated length");
            assert_eq!(header_sans_checksum(&a), header_sans_checksum(&b), "{name}");
            assert!(
                a[HEADER_SIZE as usize..] == b[HEADER_SIZE as usize..],
                "{name}: main block"
            );
            // The zlib level that made the stream is found on reading (issue 27, item 6).
            assert!(
                out == bytes,
                "{name}: compressed round trip is not byte-identical"
            );
            identical_compressed += 1;
            // Our own output carries the editor-correct checksum for our compressed bytes.
            let again = Wwd::read(&out).unwrap();
            let s = again.source.unwrap();
            assert_eq!(s.stored_checksum, s.computed_checksum, "{name}");
        } else {
            assert!(
                out == bytes,
                "{name}: uncompressed round trip is not byte-identical"
            );
        }
        // The JSON dump rebuilds the same bytes.
        let json = serde_json::to_vec(&level).unwrap();
        let back: Wwd = serde_json::from_slice(&json).unwrap();
        assert!(back.write().unwrap() == out, "{name}: JSON round trip");
    }
    eprintln!("compressed corpus files reproduced byte for byte: {identical_compressed} of 3");
}

#[test]
fn compressed_and_uncompressed_retail01_are_the_same_level() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real WWD files") else {
        return;
    };
    let a = Wwd::read(&load(&dir, "RETAIL01.WWD")).unwrap();
    let b = Wwd::read(&load(&dir, "RETAIL01_nocompress.WWD")).unwrap();
    // Compare without Debug-printing megabytes of tiles on failure.
    assert_eq!(a.planes.len(), b.planes.len());
    for (i, (pa, pb)) in a.planes.iter().zip(&b.planes).enumerate() {
        assert!(pa.tiles == pb.tiles, "plane {i} tiles differ");
        // Same object count, but the uncompressed re-save holds edited object values (96,201
        // of its 647,102 main-block bytes differ, all inside the object records), so only the
        // count is compared.
        assert_eq!(pa.objects.len(), pb.objects.len(), "plane {i} object count");
        let strip = |p: &wwd::Plane| wwd::Plane {
            objects: Vec::new(),
            ..p.clone()
        };
        assert!(strip(pa) == strip(pb), "plane {i} header fields differ");
    }
    assert!(a.tile_properties == b.tile_properties);
    let objects: usize = a.planes.iter().map(|p| p.objects.len()).sum();
    assert!(objects > 0);
    let s = a.summary();
    assert_eq!(s.name, "Claw - Level 1");
    // wwd-notes B.7: "RETAIL01: 905 single and 33 double".
    assert_eq!(s.tile_properties, (905, 33, 0));
    assert_eq!(s.objects, 1479);
}

#[test]
fn badsig_is_rejected_naming_the_header_size_field() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real WWD files") else {
        return;
    };
    let err = Wwd::read(&load(&dir, "RETAIL01_badsig.WWD")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Malformed);
    assert_eq!(err.location.offset, Some(0));
    let msg = err.to_string();
    assert!(msg.contains("header-size field"), "{msg}");
    assert!(msg.contains("0xADBA"), "{msg}");
    assert!(msg.starts_with("wwd: "), "{msg}");
}

#[test]
fn leport_mask_tiles_are_mask_tiles() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real WWD files") else {
        return;
    };
    let level = Wwd::read(&load(&dir, "LePortdeCoolness.wwd")).unwrap();
    let masks: Vec<_> = level
        .tile_properties
        .records
        .iter()
        .filter_map(|r| match &r.attr {
            TileAttr::Mask { mask } => Some((r.width, r.height, mask.len())),
            _ => None,
        })
        .collect();
    assert_eq!(masks.len(), 2, "{masks:?}");
    for (w, h, len) in masks {
        assert_eq!(len as u32, w * h);
    }
    // Every record after the masks still parses as the right type: the table ends at EOF.
    assert!(level.layout.is_none());
}

#[test]
fn every_corpus_file_converts_to_a_tilemap() {
    let Some(dir) = common::corpus_or_skip("wwd", "the real WWD files") else {
        return;
    };
    for (name, _, planes, _) in GOOD {
        let level = wwd::read(&load(&dir, name)).unwrap();
        let (map, warnings) = level.to_tilemap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        assert!(map.validate().is_empty(), "{name}");
        let tile_layers = map
            .layers
            .iter()
            .filter(|l| matches!(l, levelkit::tilemap::Layer::Tiles(_)))
            .count();
        assert_eq!(tile_layers, planes, "{name}");
    }
}
