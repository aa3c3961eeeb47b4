//! One table of `(model, bytes)` cases drives both the read and the write tests. The bytes are
//! assembled here field by field from the layout tables in `shared/specs/wwd-notes.md` (A.1 to
//! A.8), independently of the library's writer.

use levelkit::formats::wwd::*;
use levelkit::strings::RawString;

/// Little builder for expected bytes.
#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn slot(&mut self, s: &[u8], n: usize) -> &mut Self {
        let mut v = s.to_vec();
        v.resize(n, 0);
        self.0.extend_from_slice(&v);
        self
    }
    fn raw(&mut self, s: &[u8]) -> &mut Self {
        self.0.extend_from_slice(s);
        self
    }
    fn at(&self) -> u32 {
        self.0.len() as u32
    }
}

/// The editor checksum, written out naively from wwd-notes B.2 (uncompressed files only here).
fn naive_checksum(main: &[u8]) -> u32 {
    let mut c = 0u32.wrapping_sub(main.len() as u32);
    for (i, &b) in main.iter().enumerate().skip(1) {
        c = c.wrapping_add(u32::from(b)).wrapping_sub(i as u32);
    }
    c
}

fn header_bytes(
    b: &mut B,
    flags: u32,
    name: &[u8],
    planes: u32,
    offset_tp: u32,
    unknown3: u32,
) -> usize {
    b.u32(1524).u32(0).u32(flags).u32(0);
    b.slot(name, 64)
        .slot(b"me", 64)
        .slot(b"", 64)
        .slot(b"", 256)
        .slot(b"\\LEVEL1\\TILES", 128)
        .slot(b"", 128);
    b.i32(100)
        .i32(-200)
        .u32(unknown3)
        .u32(planes)
        .u32(1524)
        .u32(offset_tp);
    let patch = b.0.len();
    b.u32(0).u32(0).u32(0); // decompressed size, checksum (patched), unknown4
    b.slot(b"CLAW.EXE", 128);
    for _ in 0..4 {
        b.slot(b"", 128);
    }
    for _ in 0..4 {
        b.slot(b"", 32);
    }
    assert_eq!(b.0.len(), 1524);
    patch
}

fn base_header(name: &str, unknown3: u32) -> Header {
    Header {
        flags: HeaderFlags::USE_Z_COORDS,
        name: name.into(),
        author: "me".into(),
        image_dir: "\\LEVEL1\\TILES".into(),
        start_x: 100,
        start_y: -200,
        unknown3,
        launch_app: "CLAW.EXE".into(),
        ..Header::default()
    }
}

/// Case 1: no planes, empty tile-properties table, a non-zero reserved header word.
fn case_empty() -> (Wwd, Vec<u8>) {
    let mut b = B::default();
    let patch = header_bytes(&mut b, 1, b"empty", 0, 1524, 2);
    b.u32(32).u32(0).u32(0).u32(0).u32(0).u32(0).u32(0).u32(0);
    let sum = naive_checksum(&b.0[1524..]);
    b.0[patch + 4..patch + 8].copy_from_slice(&sum.to_le_bytes());
    let model = Wwd {
        header: base_header("empty", 2),
        planes: vec![],
        tile_properties: TileProperties::default(),
        layout: None,
        compression: Default::default(),
        source: None,
    };
    (model, b.0)
}

/// Case 2: one 2 x 1 plane with an empty and a fill cell, one object with every string, and one
/// record of each tile-property type.
fn case_full() -> (Wwd, Vec<u8>) {
    let mut b = B::default();
    let tiles_at = 1524 + 160;
    let names_at = tiles_at + 8;
    let objects_at = names_at + 7; // "ACTION\0"
    let object_len = 284 + 4 + 5 + 3 + 4;
    let tp_at = objects_at + object_len;
    let patch = header_bytes(&mut b, 1, b"full", 1, tp_at, 0);
    // Plane header (A.2).
    b.u32(160).u32(0).u32(1).u32(0).slot(b"Action", 64);
    b.i32(128)
        .i32(64)
        .i32(64)
        .i32(64)
        .i32(2)
        .i32(1)
        .i32(0)
        .i32(0);
    b.i32(100).i32(100).i32(7).u32(1).u32(1);
    b.u32(tiles_at).u32(names_at).u32(objects_at);
    b.i32(0).u32(0).u32(0).u32(0);
    assert_eq!(b.at(), tiles_at);
    b.u32(TILE_EMPTY).u32(TILE_FILL);
    b.raw(b"ACTION\0");
    assert_eq!(b.at(), objects_at);
    // Object (A.3).
    b.i32(42).u32(4).u32(5).u32(3).u32(4);
    b.i32(10).i32(20).i32(1000).i32(-1);
    b.u32(0x2).u32(0x8).u32(0x2).u32(0x801);
    for v in 1..=6 {
        b.i32(v);
    }
    for r in 0..6 {
        b.i32(r).i32(r + 1).i32(r + 2).i32(r + 3);
    }
    for v in 0..8 {
        b.i32(100 + v);
    }
    for v in 0..16 {
        b.i32(-v);
    }
    b.u32(0x004).u32(0x300).u32(5).u32(6);
    b.raw(b"Name").raw(b"Logic").raw(b"IMG").raw(b"ANIM");
    assert_eq!(b.at(), tp_at);
    // Tile properties (A.4 - A.8).
    b.u32(32).u32(0).u32(3).u32(0).u32(0).u32(0).u32(0).u32(0);
    b.u32(1).u32(0).u32(64).u32(64).i32(1);
    b.u32(2)
        .u32(0)
        .u32(64)
        .u32(64)
        .i32(0)
        .i32(1)
        .i32(0)
        .i32(12)
        .i32(63)
        .i32(63);
    b.u32(3).u32(0).u32(2).u32(2).raw(&[0, 1, 2, 43]);
    let sum = naive_checksum(&b.0[1524..]);
    b.0[patch + 4..patch + 8].copy_from_slice(&sum.to_le_bytes());

    let object = Object {
        id: 42,
        x: 10,
        y: 20,
        z: 1000,
        i: -1,
        add_flags: AddFlags::EYE_CANDY,
        dynamic_flags: DynamicFlags::AUTO_HIT_DAMAGE,
        draw_flags: DrawFlags::MIRROR,
        user_flags: UserFlags::FLAG_1 | UserFlags::FLAG_12,
        score: 1,
        points: 2,
        powerup: 3,
        damage: 4,
        smarts: 5,
        health: 6,
        move_rect: Rect::new(0, 1, 2, 3),
        hit_rect: Rect::new(1, 2, 3, 4),
        attack_rect: Rect::new(2, 3, 4, 5),
        clip_rect: Rect::new(3, 4, 5, 6),
        user_rect1: Rect::new(4, 5, 6, 7),
        user_rect2: Rect::new(5, 6, 7, 8),
        user_values: [100, 101, 102, 103, 104, 105, 106, 107],
        min_x: 0,
        min_y: -1,
        max_x: -2,
        max_y: -3,
        speed_x: -4,
        speed_y: -5,
        tweak_x: -6,
        tweak_y: -7,
        counter: -8,
        speed: -9,
        width: -10,
        height: -11,
        direction: -12,
        face_dir: -13,
        time_delay: -14,
        frame_delay: -15,
        object_type: 0x004,
        hit_type_flags: 0x300,
        move_res_x: 5,
        move_res_y: 6,
        name: "Name".into(),
        logic: "Logic".into(),
        image_set: "IMG".into(),
        animation: "ANIM".into(),
    };
    let plane = Plane {
        flags: PlaneFlags::MAIN_PLANE,
        name: "Action".into(),
        width_px: 128,
        height_px: 64,
        tile_width: 64,
        tile_height: 64,
        tiles_wide: 2,
        tiles_high: 1,
        movement_x_percent: 100,
        movement_y_percent: 100,
        fill_color: 7,
        image_sets: vec![RawString::from("ACTION")],
        tiles: vec![TILE_EMPTY, TILE_FILL],
        objects: vec![object],
        ..Plane::default()
    };
    let records = vec![
        TileProperty::single(64, 1),
        TileProperty {
            unknown: 0,
            width: 64,
            height: 64,
            attr: TileAttr::Double {
                outside: 0,
                inside: 1,
                rect: Rect::new(0, 12, 63, 63),
            },
        },
        TileProperty {
            unknown: 0,
            width: 2,
            height: 2,
            attr: TileAttr::Mask {
                mask: vec![0, 1, 2, 43],
            },
        },
    ];
    let model = Wwd {
        header: base_header("full", 0),
        planes: vec![plane],
        tile_properties: TileProperties {
            records,
            ..TileProperties::default()
        },
        layout: None,
        compression: Default::default(),
        source: None,
    };
    (model, b.0)
}

/// Case 3: a dirty name slot (bytes after the NUL) and a 64-byte name with no NUL at all.
fn case_dirty_slots() -> (Wwd, Vec<u8>) {
    let (mut model, mut bytes) = case_empty();
    // Level name "ab\0" followed by leftovers of an older, longer name.
    let mut slot = b"ab\0old name".to_vec();
    slot.resize(64, 0);
    bytes[16..80].copy_from_slice(&slot);
    let mut after = b"old name".to_vec();
    after.resize(61, 0);
    model.header.name = SlotString {
        text: "ab".into(),
        after_nul: Some(RawString(after)),
    };
    // Author fills all 64 bytes.
    bytes[80..144].copy_from_slice(&[b'x'; 64]);
    model.header.author = SlotString::new(RawString(vec![b'x'; 64]));
    (model, bytes)
}

fn cases() -> Vec<(&'static str, Wwd, Vec<u8>)> {
    let (m1, b1) = case_empty();
    let (m2, b2) = case_full();
    let (m3, b3) = case_dirty_slots();
    vec![("empty", m1, b1), ("full", m2, b2), ("dirty slots", m3, b3)]
}

fn strip(mut w: Wwd) -> Wwd {
    w.source = None;
    w
}

#[test]
fn read_cases() {
    for (name, model, bytes) in cases() {
        let read = read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let src = read.source.clone().unwrap();
        assert_eq!(src.stored_checksum, src.computed_checksum, "{name}");
        assert_eq!(src.file_len, bytes.len() as u64);
        assert_eq!(strip(read), model, "{name}");
    }
}

#[test]
fn write_cases() {
    for (name, model, bytes) in cases() {
        let written = write(&model).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(written, bytes, "{name}");
    }
}

#[test]
fn decoded_views_of_the_full_case() {
    let (model, _) = case_full();
    let plane = &model.planes[0];
    assert_eq!(plane.tile(0, 0), Some(Tile::Empty));
    assert_eq!(plane.tile(1, 0), Some(Tile::Fill));
    assert_eq!(plane.tile(2, 0), None);
    let o = &plane.objects[0];
    assert_eq!(o.kind(), Some(ObjectKind::Enemy));
    // 0x300 is the editor's user3, which in a mask also reads as user1 and user2.
    assert_eq!(
        o.hit_kinds().unwrap(),
        vec![ObjectKind::User1, ObjectKind::User2, ObjectKind::User3]
    );
    assert_eq!(Tile::from_raw(0x0001_0005), Tile::Image { set: 1, id: 5 });
    assert_eq!(Tile::Image { set: 1, id: 5 }.to_raw(), 0x0001_0005);
}

#[test]
fn dirty_slot_is_reported_and_json_keeps_it() {
    let (model, bytes) = case_dirty_slots();
    let read = read(&bytes).unwrap();
    let findings = read.validate();
    assert!(
        findings
            .iter()
            .any(|f| f.location.path.as_deref() == Some("header.author")
                && f.message.contains("no NUL")),
        "{findings:?}"
    );
    let json = serde_json::to_string(&model).unwrap();
    assert!(json.contains("\"after_nul\":\"old name"), "{json}");
    let back: Wwd = serde_json::from_str(&json).unwrap();
    assert_eq!(write(&back).unwrap(), bytes);
}

#[test]
fn compressed_case_checksum_includes_the_extra_inflated_byte() {
    let (mut model, plain) = case_full();
    model.header.flags |= HeaderFlags::COMPRESS;
    let bytes = write(&model).unwrap();
    let main = &plain[1524..];
    let stored = &bytes[1524..];
    assert_eq!(&stored[..2], &[0x78, 0x9C], "zlib level 6 header");
    let mut expect = 0u32.wrapping_sub(stored.len() as u32);
    for (i, &b) in stored.iter().enumerate().skip(1) {
        expect = expect.wrapping_add(u32::from(b)).wrapping_sub(i as u32);
    }
    expect = expect.wrapping_add(u32::from(main[stored.len()]));
    assert_eq!(
        u32::from_le_bytes(bytes[0x2EC..0x2F0].try_into().unwrap()),
        expect
    );
    assert_eq!(
        u32::from_le_bytes(bytes[0x2E8..0x2EC].try_into().unwrap()),
        main.len() as u32
    );
    let read = read(&bytes).unwrap();
    assert_eq!(strip(read), model);
}

#[test]
fn a_damaged_zlib_stream_is_caught_by_its_header_or_adler32() {
    let level = samples::claw_like();
    let bytes = level
        .write_with(&WriteOptions {
            compress: Some(true),
            ..WriteOptions::default()
        })
        .unwrap_or_default();
    assert!(read(&bytes).is_ok());
    let header = HEADER_SIZE as usize;
    // The Adler-32 trailer is the last 4 bytes of the stream.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x01;
    let e = read(&bad).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("Adler-32"), "{e}");
    // Not a zlib header.
    let mut bad = bytes.clone();
    bad[header] = 0x79;
    let e = read(&bad).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("zlib header"), "{e}");
    // A preset dictionary (FDICT) is refused.
    let mut bad = bytes.clone();
    bad[header + 1] = 0xBB; // 0x78BB: FDICT set, check bits valid (0x78BB % 31 == 0)
    assert_eq!((0x78u16 << 8 | 0xBB) % 31, 0);
    let e = read(&bad).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("dictionary"), "{e}");
    // Cut inside the trailer.
    let e = read(&bytes[..bytes.len() - 2])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("Adler-32") || e.contains("ends"), "{e}");
}

#[test]
fn an_uncompressed_files_own_checksum_is_kept_while_its_main_block_is_unedited() {
    let (model, plain) = case_full();
    assert!(!model.header.flags.contains(HeaderFlags::COMPRESS));
    // Another tool's checksum (or a hand-edited file's): the games load it anyway.
    let mut bytes = plain.clone();
    bytes[0x2EC..0x2F0].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    let level = read(&bytes).unwrap();
    assert_eq!(write(&level).unwrap(), bytes, "kept as read");
    // Through JSON too (the reader's findings travel with the model).
    let back: Wwd = serde_json::from_str(&serde_json::to_string(&level).unwrap()).unwrap();
    assert_eq!(write(&back).unwrap(), bytes, "kept through JSON");
    // And through a Tiled map (its `wwd_checksum` property).
    let (map, _) = to_tilemap(&level);
    assert!(map.properties.get_str(CHECKSUM_PROPERTY).unwrap().is_some());
    let (from_map, _) = from_tilemap(&map).unwrap();
    assert_eq!(write(&from_map).unwrap(), bytes, "kept through Tiled");
    // An edit of the main block (a tile) gets the editor's checksum, as for any level.
    let mut edited = level.clone();
    edited.planes[0].tiles[0] ^= 1;
    let out = write(&edited).unwrap();
    let stored = u32::from_le_bytes(out[0x2EC..0x2F0].try_into().unwrap());
    assert_eq!(stored, checksum(&out[1524..], None));
    assert_ne!(stored, 0x1234_5678);
}
