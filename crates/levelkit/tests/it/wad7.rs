//! WAD7 (Gamestudio's texture WAD): the corpus file byte for byte and its textures decoded, a
//! WAD7 built by our own writer with each pixel type, truncation and garbage sweeps.

use levelkit::formats::wad::{self, WadEntry, WadFile};

use crate::common;

fn name16(s: &str) -> [u8; 16] {
    let mut n = [0u8; 16];
    n[..s.len()].copy_from_slice(s.as_bytes());
    n
}

/// A WAD7 texture entry: name, size, pixel type, three mip offsets, pixels.
fn texture(name: &str, w: u32, h: u32, kind: u32, pixels: &[u8]) -> Vec<u8> {
    let mut out = name16(name).to_vec();
    for v in [w, h, kind, 0, 0, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(pixels);
    out
}

/// A WAD7 with a palette, an 8-bit texture, an R5G6B5 texture with mips and a B8G8R8A8 one.
fn fixture() -> WadFile {
    let mut palette = vec![0u8; 768];
    palette[3..6].copy_from_slice(&[10, 20, 30]);
    let datas = [
        ("P", 0x40u8, palette),
        ("index", 0, texture("index", 2, 2, 0, &[1, 0, 1, 1])),
        (
            "rgb565",
            10,
            texture(
                "rgb565",
                4,
                4,
                10,
                &[&[0x00, 0xF8][..]; 16 + 4 + 1].concat(),
            ),
        ),
        ("bgra", 5, texture("bgra", 1, 1, 5, &[1, 2, 3, 4])),
    ];
    let mut offset = 12u32;
    let mut entries = Vec::new();
    for (name, kind, data) in datas {
        entries.push(WadEntry {
            offset,
            disk_size: data.len() as u32,
            size: data.len() as u32,
            kind,
            compression: 0,
            pad: 0xFFFF,
            name: name16(name),
            data: data.clone(),
        });
        offset += data.len() as u32;
    }
    WadFile {
        magic: *b"WAD7",
        dir_offset: offset,
        entries,
        gaps: Vec::new(),
    }
}

#[test]
fn corpus_wad7_round_trips_and_decodes() {
    let Some(dir) = common::corpus_or_skip("gamestudio/wad", "WAD7 corpus checks") else {
        return;
    };
    let bytes = std::fs::read(dir.join("Texturset.wad")).unwrap();
    let file = wad::read_file(&bytes).unwrap();
    assert_eq!(&file.magic, b"WAD7");
    assert_eq!(file.entries.len(), 4);
    assert!(file.gaps.is_empty(), "{:?}", file.gaps.len());
    assert_eq!(file.write().unwrap(), bytes);
    assert_eq!(file.validate(), vec![]);
    let json = serde_json::to_string(&file).unwrap();
    let back: WadFile = serde_json::from_str(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    let textures = wad::read(&bytes, None).unwrap();
    let names: Vec<_> = textures.textures.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["black", "black_fc", "black_fc4"]);
    assert!(
        textures
            .textures
            .iter()
            .all(|t| (t.width, t.height) == (256, 256))
    );
    assert!(
        textures
            .textures
            .iter()
            .all(|t| t.rgba.len() == 256 * 256 * 4)
    );
    assert_eq!(textures.skipped, vec![("P".to_owned(), 0x40)]);
    // `black` is R5G6B5 0x3201 and 0x3201 only at its first pixel: r 6, g 16, b 1.
    assert_eq!(&textures.textures[0].rgba[..4], &[49, 65, 8, 255]);
    // `black_fc4` is 8-bit, all index 0, coloured by the WAD's own palette (entry P: black).
    assert_eq!(&textures.textures[2].rgba[..4], &[0, 0, 0, 255]);
}

#[test]
fn fixture_decodes_every_pixel_type() {
    let file = fixture();
    let bytes = file.write().unwrap();
    assert_eq!(wad::read_file(&bytes).unwrap(), file);
    let w = wad::read(&bytes, None).unwrap();
    assert_eq!(w.textures.len(), 3);
    let index = w.find("INDEX").unwrap();
    assert_eq!(&index.rgba[..8], &[10, 20, 30, 255, 0, 0, 0, 255]);
    let red = w.find("rgb565").unwrap();
    assert_eq!((red.width, red.height), (4, 4));
    assert_eq!(&red.rgba[..4], &[255, 0, 0, 255]);
    assert_eq!(w.find("bgra").unwrap().rgba, vec![3, 2, 1, 4]);
}

#[test]
fn wad7_sweeps_never_panic() {
    let bytes = fixture().write().unwrap();
    for cut in 0..bytes.len() {
        assert!(wad::read_file(&bytes[..cut]).is_err(), "cut {cut}");
        let _ = wad::read(&bytes[..cut], None);
    }
    let mut rng = common::Rng(0x3AD7);
    for _ in 0..3000 {
        let mut b = bytes.clone();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        if let Ok(f) = wad::read_file(&b) {
            assert_eq!(f.write().unwrap(), b);
            let _ = f.validate();
        }
        let _ = wad::read(&b, None);
    }
    // A directory claiming 2^32-1 entries, and entries claiming more bytes than the file.
    let mut huge = bytes.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let (r, peak) = common::alloc::peak_during(|| wad::read_file(&huge));
    assert!(r.is_err() && peak < 1 << 20);
}
