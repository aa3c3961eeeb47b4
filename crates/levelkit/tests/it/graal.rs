//! Binary Graal levels: real files from `$LEVELKIT_CORPUS/graal` (skipped when unset), byte
//! tables, the run-length stream, truncation and garbage sweeps, and proptest.

use crate::common;
use std::path::{Path, PathBuf};

use levelkit::formats::graal::binary::{self as graal, write::encode_packets, *};
use levelkit::formats::graal::level::{self, sign_text};
use levelkit::strings::RawString;
use levelkit::{ErrorKind, Limits};
use proptest::prelude::*;

fn graal_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).unwrap() {
        let sub = sub.unwrap().path();
        if sub.is_dir() {
            for f in std::fs::read_dir(&sub).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "graal" || e == "zelda") {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    out
}

/// (file, version, links, baddies, npcs, chests, signs), counted by hand from hexdumps and
/// agreeing with the corpus MANIFEST's reference parse.
const EXPECTED: [(&str, &str, usize, usize, usize, usize, usize); 6] = [
    ("castlewarp.graal", "GR-V1.03", 2, 0, 4, 0, 1),
    ("house6.graal", "Z3-V1.04", 1, 0, 0, 0, 0),
    ("tres1.graal", "GR-V1.01", 2, 0, 0, 3, 0),
    ("icastle5.graal", "GR-V1.02", 2, 17, 1, 7, 3),
    ("dnix_bank1.graal", "GR-V1.03", 5, 0, 3, 17, 9),
    ("blank.graal", "GR-V1.03", 0, 0, 0, 0, 0),
];

#[test]
fn every_real_level_reads_to_its_end_and_round_trips() {
    let Some(dir) = common::corpus_or_skip("graal", "the real Graal levels") else {
        return;
    };
    let files = graal_files(&dir);
    assert_eq!(
        files.len(),
        24,
        "corpus has 24 binary levels (18, and 6 with expression links)"
    );
    let (mut ours, mut orig) = (0usize, 0usize);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let level = graal::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The reader consumes every byte: writing gives the file back exactly.
        assert!(level.write().unwrap() == bytes, "{name}: round trip");
        // Our encoder reproduces the editor's packets: nothing needed keeping.
        assert!(level.boards.iter().all(|b| b.packets.is_none()), "{name}");
        for f in level.validate() {
            assert_eq!(f.severity, levelkit::Severity::Warning, "{name}: {f}");
        }
        let mut fresh = level.clone();
        fresh.boards.iter_mut().for_each(|b| b.packets = None);
        ours += fresh.write().unwrap().len();
        orig += bytes.len();
        if let Some(e) = EXPECTED.iter().find(|e| e.0 == name) {
            let s = level.summary();
            assert_eq!(
                (
                    s.version.as_str(),
                    s.links,
                    s.baddies,
                    s.npcs,
                    // The table counts chest records, null placeholders included.
                    s.chests + s.null_chests,
                    s.signs
                ),
                (e.1, e.2, e.3, e.4, e.5, e.6),
                "{name}"
            );
        }
        // The common model: one 64 x 64 layer, every object kept, valid gids.
        let (map, _) = level.to_tilemap();
        assert!(map.validate().is_empty(), "{name}");
        let objects: usize = map
            .layers
            .iter()
            .map(|l| match l {
                levelkit::tilemap::Layer::Objects(g) => g.objects.len(),
                _ => 0,
            })
            .sum();
        let (m, _) = level.to_level();
        assert_eq!(
            objects,
            m.links.len() + m.signs.len() + m.chests.len() + m.baddies.len() + m.npcs.len(),
            "{name}"
        );
        // Sign texts decode to readable English: letters, spaces and punctuation.
        let (meaning, _) = level.to_level();
        for sign in &meaning.signs {
            let text = sign_text::to_text(&sign.glyphs);
            let letters = text.chars().filter(|c| c.is_ascii_alphabetic()).count();
            assert!(
                text.trim().is_empty() || letters * 3 >= text.trim().chars().count(),
                "{name}: sign does not read as text: {text:?}"
            );
        }
    }
    assert_eq!(
        ours, orig,
        "our encoder is exactly as compact as the editor on the corpus"
    );
}

#[test]
fn castlewarp_sign_and_npcs_decode() {
    let Some(dir) = common::corpus_or_skip("graal", "the real Graal levels") else {
        return;
    };
    let bytes = std::fs::read(dir.join("nw-converter/castlewarp.graal")).unwrap();
    let (meaning, warnings) = graal::read(&bytes).unwrap().to_level();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        sign_text::to_text(&meaning.signs[0].glyphs),
        "\n       ---The Admin Tower---"
    );
    let npc = &meaning.npcs[0];
    assert_eq!((npc.x, npc.y), (34.0, 28.0));
    assert!(
        npc.script
            .display()
            .starts_with("// NPC made by <yourname>\nif (playerenters) {")
    );
    assert_eq!(meaning.links[0].dest.display(), "fbathroom.graal");
    assert_eq!(
        (
            meaning.links[0].x,
            meaning.links[0].y,
            meaning.links[0].width,
            meaning.links[0].height
        ),
        (31, 44, 2, 1)
    );
    assert_eq!(meaning.links[0].dest_x, level::LinkCoord::tiles(27.5));
}

#[test]
fn version_rules() {
    assert_eq!(Version::GrV101.packet_bits(), 12, "graal-notes 1.6");
    assert_eq!(Version::GrV102.packet_bits(), 13);
    assert!(!Version::GrV100.has_chests(), "graal-notes 2.1");
    assert!(Version::GrV100.has_npcs());
    assert!(!Version::Z3V103.has_verses());
    assert_eq!(Version::from_header(b"GR-V1.05"), Some(Version::GrV105));
    assert_eq!(Version::from_header(b"GR-V1.04"), None);
}

/// A hand-assembled GR-V1.01 file (12-bit packets) checked byte by byte.
fn tiny_v101() -> (Graal, Vec<u8>) {
    let mut tiles = vec![7u16; 4096];
    tiles[0] = 1;
    tiles[1] = 2;
    tiles[4093..].fill(8);
    // Packets: 1, 2, then 4091 sevens as 63 runs of 64 and one of 59, and the three 8s written
    // literally (no run starts in the last three cells).
    let mut packets = vec![1u16, 2];
    let mut left = 4091;
    while left > 0 {
        let n = left.min(64);
        packets.extend([0x800 | n as u16, 7]);
        left -= n;
    }
    packets.extend([8, 8, 8]);
    assert_eq!(encode_packets(&tiles, 12), packets);
    let mut bytes = b"GR-V1.01".to_vec();
    let (mut acc, mut have) = (0u32, 0u32);
    for p in &packets {
        acc |= u32::from(*p) << have;
        have += 12;
        while have >= 8 {
            bytes.push(acc as u8);
            acc >>= 8;
            have -= 8;
        }
    }
    if have > 0 {
        bytes.push(acc as u8);
    }
    bytes.extend_from_slice(b"next.graal 1 2 3 4 playerx 5.5\n#\n");
    bytes.extend_from_slice(&[10, 20, 3]);
    bytes.extend_from_slice(b"sight\\hurt\\attack\n");
    bytes.extend_from_slice(&[0xFF, 0xFF, 0xFF, b'\n']);
    bytes.extend_from_slice(&[32 + 5, 32 + 6]);
    bytes.extend_from_slice(b"img.png#line1\xA7line2\n#\n");
    bytes.extend_from_slice(&[32 + 1, 32 + 2, 32 + 3, 31, b'\n']);
    bytes.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0x00, b'\n', b'#', b'\n']);
    bytes.extend_from_slice(&[32 + 9, 32 + 8, 32, 33, 121, 128, 58, b'\n']);
    let model = Graal {
        version: Version::GrV101,
        boards: vec![BinaryBoard {
            tiles,
            packets: None,
            pad_bits: 0,
        }],
        links: vec![RawString::from("next.graal 1 2 3 4 playerx 5.5")],
        links_end: SectionEnd::Hash,
        baddies: vec![BaddyRecord {
            x: 10,
            y: 20,
            kind: 3,
            verses: RawString::from("sight\\hurt\\attack"),
        }],
        baddies_end: RawString::default(),
        npcs: vec![NpcRecord {
            x_raw: 37,
            y_raw: 38,
            image: RawString::from("img.png"),
            script: RawString(b"line1\xA7line2".to_vec()),
        }],
        npcs_end: SectionEnd::Hash,
        chests: vec![
            ChestRecord {
                bytes: [33, 34, 35, 31],
            },
            ChestRecord { bytes: NULL_CHEST },
        ],
        chests_end: SectionEnd::Hash,
        signs: vec![SignRecord {
            x_raw: 41,
            y_raw: 40,
            text: RawString(vec![32, 33, 121, 128, 58]),
        }],
        signs_end: None,
    };
    (model, bytes)
}

#[test]
fn hand_assembled_v101_reads_and_writes() {
    let (model, bytes) = tiny_v101();
    assert_eq!(graal::read(&bytes).unwrap(), model);
    assert_eq!(model.write().unwrap(), bytes);
    let (meaning, warnings) = model.to_level();
    assert_eq!(
        warnings.len(),
        1,
        "the null chest is reported: {warnings:?}"
    );
    assert_eq!(meaning.chests.len(), 1);
    let c = &meaning.chests[0];
    assert_eq!((c.x, c.y, c.item, c.sign), (1.0, 2.0, 3, -1));
    assert_eq!(meaning.npcs[0].script.display(), "line1\nline2");
    assert_eq!((meaning.npcs[0].x, meaning.npcs[0].y), (5.0, 6.0));
    assert_eq!(meaning.baddies[0].verses.len(), 3);
    assert_eq!(sign_text::to_text(&meaning.signs[0].glyphs), "AB \na");
    assert_eq!(meaning.links[0].dest_x, level::LinkCoord::player_x());
    assert_eq!(meaning.links[0].dest_y, level::LinkCoord::tiles(5.5));
    // Back to a binary level: GR-V1.03, the same meaning.
    let (again, warnings) = graal::from_level(&meaning);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(again.version, Version::GrV103);
    assert_eq!(again.to_level().0, meaning);
}

#[test]
fn a_link_name_with_spaces() {
    let tokens: Vec<&[u8]> = vec![
        b"my",
        b"level.nw",
        b"0",
        b"0",
        b"64",
        b"1",
        b"playerx",
        b"61",
    ];
    let link = parse_link_tokens(&tokens).unwrap();
    assert_eq!(link.dest.display(), "my level.nw");
    assert_eq!((link.x, link.width, link.height), (0, 64, 1));
    assert_eq!(
        link_line(&link).display(),
        "my level.nw 0 0 64 1 playerx 61"
    );
}

#[test]
fn stored_packets_are_used_while_they_fit() {
    let (mut model, bytes) = tiny_v101();
    // An encoding the editor might have chosen: the first run written as literals.
    let mut packets = vec![1u16, 2];
    packets.extend(std::iter::repeat_n(7, 64));
    packets.extend(encode_packets(&model.boards[0].tiles[66..], 12));
    model.boards[0].packets = Some(packets);
    let out = model.write().unwrap();
    assert_ne!(out, bytes);
    let back = graal::read(&out).unwrap();
    assert_eq!(back.boards[0].tiles, model.boards[0].tiles);
    assert_eq!(back.boards[0].packets, model.boards[0].packets);
    assert_eq!(back.write().unwrap(), out);
    // Edit a tile: the stored packets no longer fit, and the writer re-encodes.
    let mut edited = back.clone();
    edited.boards[0].tiles[100] = 9;
    assert!(
        edited
            .validate()
            .iter()
            .any(|f| f.message.contains("re-encoded"))
    );
    let fresh = graal::read(&edited.write().unwrap()).unwrap();
    assert_eq!(fresh.boards[0].tiles, edited.boards[0].tiles);
    assert!(fresh.boards[0].packets.is_none());
}

fn check_error(bytes: &[u8]) {
    if let Err(e) = graal::read_with(bytes, &Limits::strict()) {
        let msg = e.to_string();
        assert!(msg.starts_with("graal: "), "{msg}");
        assert!(
            e.location.offset.is_some() || e.location.path.is_some(),
            "{msg}"
        );
    }
}

#[test]
fn every_prefix_is_an_error_and_garbage_never_panics() {
    let mut inputs = vec![tiny_v101().1, samples::graal().write().unwrap()];
    if let Some(dir) = common::corpus("graal") {
        inputs.extend(graal_files(&dir).iter().map(|p| std::fs::read(p).unwrap()));
    }
    for bytes in &inputs {
        for len in 0..bytes.len() {
            let prefix = &bytes[..len];
            let result = graal::read(prefix);
            // A prefix that ends right after a complete sign line is itself a valid level
            // (signs run to the end of the file); anything else must fail.
            if let Ok(level) = result {
                assert!(level.write().unwrap() == prefix);
                continue;
            }
            check_error(prefix);
            assert!(matches!(
                graal::read(prefix).unwrap_err().kind,
                ErrorKind::Truncated | ErrorKind::Malformed
            ));
        }
    }
    let mut rng = common::Rng(0x1234_5678_9ABC_DEF0);
    let mut next = || rng.next();
    for i in 0..3000 {
        let base = &inputs[i % inputs.len()];
        let mut bytes = base.clone();
        for _ in 0..1 + next() % 6 {
            let at = (next() as usize) % bytes.len().max(1);
            if let Some(b) = bytes.get_mut(at) {
                *b = next() as u8;
            }
        }
        check_error(&bytes);
        if let Ok(level) = graal::read(&bytes) {
            let _ = level.validate();
            let _ = level.to_level();
            assert!(
                level.write().unwrap() == bytes,
                "mutation {i} does not round-trip"
            );
        }
    }
    for len in 0..300 {
        let junk: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        check_error(&junk);
        let mut with_header = b"GR-V1.03".to_vec();
        with_header.extend_from_slice(&junk);
        check_error(&with_header);
    }
}

fn arb_text() -> impl Strategy<Value = RawString> {
    proptest::collection::vec(
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        0..20,
    )
    .prop_map(RawString)
}

fn arb_level() -> impl Strategy<Value = Graal> {
    let version = prop_oneof![
        Just(Version::Z3V103),
        Just(Version::Z3V104),
        Just(Version::GrV100),
        Just(Version::GrV101),
        Just(Version::GrV102),
        Just(Version::GrV103),
        Just(Version::GrV105),
    ];
    (version, 1usize..3, any::<u64>())
        .prop_flat_map(|(version, layers, seed)| {
            let layers = if version.has_layers() { layers } else { 1 };
            let max = (1u16 << (version.packet_bits() - 1)) - 1;
            let boards = proptest::collection::vec(
                proptest::collection::vec(prop_oneof![0u16..4, 0..=max], 4096),
                layers,
            );
            (
                Just(version),
                boards,
                proptest::collection::vec(
                    arb_text().prop_filter("not a terminator", |t| !t.is_empty() && t.0 != b"#"),
                    0..4,
                ),
                proptest::collection::vec(
                    (any::<u8>(), any::<u8>(), any::<u8>(), arb_text())
                        .prop_filter("not the terminator", |(x, y, k, _)| {
                            [*x, *y, *k] != [0xFF; 3]
                        }),
                    0..4,
                ),
                proptest::collection::vec(
                    (
                        35u8..255,
                        32u8..255,
                        arb_text().prop_filter("no #", |t| !t.0.contains(&b'#')),
                        arb_text(),
                    ),
                    0..3,
                ),
                proptest::collection::vec(
                    any::<[u8; 4]>().prop_filter("not a terminator", |b| {
                        b[0] != b'\n' && !(b[0] == b'#' && b[1] == b'\n')
                    }),
                    0..3,
                ),
                proptest::collection::vec((33u8..255, any::<u8>(), arb_text()), 0..3),
                Just(seed),
            )
        })
        .prop_map(
            |(version, boards, links, baddies, npcs, chests, signs, seed)| Graal {
                version,
                boards: boards
                    .into_iter()
                    .map(|tiles| BinaryBoard {
                        tiles,
                        packets: None,
                        pad_bits: 0,
                    })
                    .collect(),
                links,
                links_end: if seed & 1 == 0 {
                    SectionEnd::Hash
                } else {
                    SectionEnd::Empty
                },
                baddies: baddies
                    .into_iter()
                    .map(|(x, y, kind, verses)| BaddyRecord {
                        x,
                        y,
                        kind,
                        verses: if version.has_verses() {
                            verses
                        } else {
                            RawString::default()
                        },
                    })
                    .collect(),
                baddies_end: RawString::default(),
                npcs: if version.has_npcs() {
                    npcs.into_iter()
                        .map(|(x_raw, y_raw, image, script)| NpcRecord {
                            x_raw,
                            y_raw,
                            image,
                            script,
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                npcs_end: if seed & 2 == 0 || !version.has_npcs() {
                    SectionEnd::Hash
                } else {
                    SectionEnd::Empty
                },
                chests: if version.has_chests() {
                    chests
                        .into_iter()
                        .map(|bytes| ChestRecord { bytes })
                        .collect()
                } else {
                    Vec::new()
                },
                chests_end: SectionEnd::Hash,
                signs: signs
                    .into_iter()
                    .map(|(x_raw, y_raw, text)| SignRecord { x_raw, y_raw, text })
                    .collect(),
                signs_end: if seed & 4 == 0 {
                    None
                } else {
                    Some(RawString::from("tail"))
                },
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn model_bytes_model_is_identity(model in arb_level()) {
        let bytes = model.write().unwrap();
        let back = graal::read(&bytes).unwrap();
        prop_assert_eq!(&back.boards, &model.boards);
        prop_assert_eq!(&back.links, &model.links);
        prop_assert_eq!(&back.baddies, &model.baddies);
        prop_assert_eq!(&back.npcs, &model.npcs);
        prop_assert_eq!(&back.chests, &model.chests);
        prop_assert_eq!(&back.signs, &model.signs);
        prop_assert_eq!(&back, &model);
        let json = serde_json::to_vec(&model).unwrap();
        let from_json: Graal = serde_json::from_slice(&json).unwrap();
        prop_assert_eq!(from_json.write().unwrap(), bytes);
    }
}
