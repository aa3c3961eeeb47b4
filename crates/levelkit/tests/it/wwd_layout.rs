//! Files that do not use the editor's contiguous layout: sections in another order, shared name
//! runs, padding and trailing bytes. They must be read through their offsets and written back
//! byte for byte.

use levelkit::formats::wwd::{self, *};
use levelkit::strings::RawString;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[test]
fn trailing_bytes_are_kept_and_reported() {
    let mut bytes = samples::gruntz_like().write().unwrap();
    bytes.extend_from_slice(b"WAPMAP-META\0\x01\x02");
    let level = wwd::read(&bytes).unwrap();
    let layout = level.layout.as_ref().expect("non-editor layout");
    assert_eq!(layout.gaps.len(), 1);
    assert_eq!(layout.gaps[0].bytes, b"WAPMAP-META\0\x01\x02");
    let findings = level.validate();
    assert!(
        findings
            .iter()
            .any(|f| f.message.contains("does not end at the end of the file")),
        "{findings:?}"
    );
    // The checksum covers the trailing bytes, so the stored one no longer matches; the writer
    // writes the editor-correct value for what it writes.
    let out = level.write().unwrap();
    assert_eq!(out.len(), bytes.len());
    assert_eq!(out[..0x2EC], bytes[..0x2EC]);
    assert_eq!(out[0x2F0..], bytes[0x2F0..]);
    // Dropping the layout gives the editor's file back.
    let mut plain = level.clone();
    plain.layout = None;
    assert_eq!(
        plain.write().unwrap(),
        samples::gruntz_like().write().unwrap()
    );
}

/// A two-plane file laid out by hand: tile properties first, then objects, then one shared name
/// run that plane 0 reads two names from, then the grids in reverse order, with padding.
fn hand_laid_out() -> (Wwd, Vec<u8>) {
    let mut model = samples::gruntz_like();
    model.planes[0].image_sets = vec![RawString::from("BACK"), RawString::from("ACTION")];
    let tp_len = 32 + 20 * model.tile_properties.records.len() as u32;
    let obj_len: u32 = model.planes[1]
        .objects
        .iter()
        .map(|o| o.record_size() as u32)
        .sum();
    let planes_at = 1524;
    let tp_at = planes_at + 2 * 160;
    let objects_at = tp_at + tp_len + 4; // 4 bytes of padding
    let names_at = objects_at + obj_len;
    let tiles1_at = names_at + 12; // "BACK\0ACTION\0"
    let tiles0_at = tiles1_at + model.planes[1].tiles.len() as u32 * 4;
    let end = tiles0_at + model.planes[0].tiles.len() as u32 * 4;
    model.layout = Some(Layout {
        offset_planes: planes_at,
        offset_tile_properties: tp_at,
        planes: vec![
            PlaneLayout {
                offset_tiles: tiles0_at,
                offset_image_sets: names_at,
                offset_objects: 0,
            },
            PlaneLayout {
                offset_tiles: tiles1_at,
                offset_image_sets: names_at + 5,
                offset_objects: objects_at,
            },
        ],
        gaps: vec![Gap {
            offset: tp_at + tp_len,
            bytes: vec![0xCD; 4],
        }],
    });
    let bytes = model.write().unwrap();
    assert_eq!(bytes.len() as u32, end);
    (model, bytes)
}

#[test]
fn sections_in_any_order_with_a_shared_name_run() {
    let (model, bytes) = hand_laid_out();
    // Check the bytes independently of the reader.
    assert_eq!(u32_at(&bytes, 0x2E4), 1524 + 320);
    assert_eq!(&bytes[1524 + 320 + 32 + 20 * 14..][..4], &[0xCD; 4]);
    let names = u32_at(&bytes, 1524 + 0x88) as usize;
    assert_eq!(&bytes[names..names + 12], b"BACK\0ACTION\0");
    assert_eq!(u32_at(&bytes, 1524 + 160 + 0x88) as usize, names + 5);

    let read = wwd::read(&bytes).unwrap();
    assert_eq!(read.planes, model.planes);
    assert_eq!(read.layout, model.layout);
    assert_eq!(read.write().unwrap(), bytes);
    let json = serde_json::to_vec(&read).unwrap();
    let back: Wwd = serde_json::from_slice(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    // Compressed, the same image comes back after inflating.
    let z = read
        .write_with(&WriteOptions {
            compress: Some(true),
            ..WriteOptions::default()
        })
        .unwrap();
    let again = wwd::read(&z).unwrap();
    assert_eq!(again.planes, model.planes);
    assert_eq!(again.layout, model.layout);
}

#[test]
fn a_stored_layout_that_no_longer_fits_is_refused_with_a_hint() {
    let (mut model, _) = hand_laid_out();
    // Growing an object string makes the objects overlap the name run.
    model.planes[1].objects[0].logic = RawString::from("AMuchLongerLogicNameThanBefore");
    let err = model.write().unwrap_err();
    assert!(err.to_string().contains("layout"), "{err}");
    let ok = model
        .write_with(&WriteOptions {
            relayout: true,
            ..WriteOptions::default()
        })
        .unwrap();
    let read = wwd::read(&ok).unwrap();
    assert!(read.layout.is_none());
}

#[test]
fn hand_edited_offsets_cannot_make_the_writer_allocate_gigabytes() {
    let (mut model, _) = hand_laid_out();
    model.layout.as_mut().unwrap().offset_tile_properties = 0xF000_0000;
    let err = model.write().unwrap_err();
    assert!(err.to_string().contains("layout"), "{err}");
}
