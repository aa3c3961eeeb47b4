//! Graal overworlds (`.gmap`): every textual form the public parsers accept reads to the grid
//! they mean and is written back byte for byte; edits are written canonically; unwritable models
//! are refused; validation; hostile input (prefixes, garbage, limits); the Tiled world trip and
//! the whole-overworld render.

use levelkit::document::world::{self, World};
use levelkit::formats::graal::gmap::{self, *};
use levelkit::strings::RawString;
use levelkit::{ErrorKind, Limits, Severity};

use crate::common::Rng;

/// The names of the grid as `(x, y, name)`.
fn cells(map: &Gmap) -> Vec<(u32, u32, String)> {
    map.grid()
        .cells
        .iter()
        .map(|c| (c.x, c.y, c.name.display()))
        .collect()
}

fn round_trip(bytes: &[u8]) -> Gmap {
    let map =
        gmap::read(bytes).unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(bytes)));
    let out = map.write().unwrap();
    assert!(
        out == bytes,
        "not byte-exact:\n{:?}\n{:?}",
        String::from_utf8_lossy(bytes),
        String::from_utf8_lossy(&out)
    );
    let json = serde_json::to_string(&map).unwrap();
    let again: Gmap = serde_json::from_str(&json).unwrap();
    assert_eq!(again, map);
    assert!(again.write().unwrap() == bytes);
    map
}

/// Forms the parsers accept (GServer-v2, TilesEditor, the old GServer, generator scripts), each
/// with the grid it means.
/// A form: its description, its bytes, the grid size and the names at their places.
type Form = (
    &'static str,
    Vec<u8>,
    (u32, u32),
    Vec<(u32, u32, &'static str)>,
);

fn forms() -> Vec<Form> {
    let full = vec![
        (0, 0, "a.nw"),
        (1, 0, "b.nw"),
        (0, 1, "c.nw"),
        (1, 1, "d.nw"),
    ];
    vec![
        (
            "canonical (TilesEditor's save)",
            b"GRMAP001\nWIDTH 2\nHEIGHT 2\nLEVELNAMES\na.nw,b.nw\nc.nw,d.nw\nLEVELNAMESEND\n".to_vec(),
            (2, 2),
            full.clone(),
        ),
        (
            "quoted names, CRLF (C# generator)",
            b"GRMAP001\r\nWIDTH 2\r\nHEIGHT 2\r\nLEVELNAMES\r\n\"a.nw\",\"b.nw\"\r\n\"c.nw\",\"d.nw\"\r\nLEVELNAMESEND\r\n".to_vec(),
            (2, 2),
            full.clone(),
        ),
        (
            "trailing commas, spaces after commas (PHP generator, hand edits)",
            b"GRMAP001\nWIDTH 2\nHEIGHT 2\nLEVELNAMES\n\"a.nw\", \"b.nw\",\n c.nw , d.nw,\nLEVELNAMESEND\n".to_vec(),
            (2, 2),
            full.clone(),
        ),
        (
            "every optional line, unknown lines, blank lines, tabs",
            b"GRMAP001\nWIDTH  2\nHEIGHT\t2\nGENERATED 1\n\nMAPIMG map.png\nMINIMAPIMG mini.png\nNOAUTOMAPPING\nLOADFULLMAP\nTILESET pics1.png\nLEVELNAMES\na.nw,b.nw\nc.nw,d.nw\nLEVELNAMESEND\nLOADATSTART\na.nw, \"d.nw\"\nLOADATSTARTEND\nSOMEFUTUREKEY x y\n   \n".to_vec(),
            (2, 2),
            full.clone(),
        ),
        (
            "no signature, no final newline, holes (GServer reads it)",
            b"WIDTH 3\nHEIGHT 2\nLEVELNAMES\na.nw,,b.nw\n,\"c, d.nw\",\nLEVELNAMESEND".to_vec(),
            (3, 2),
            vec![(0, 0, "a.nw"), (2, 0, "b.nw"), (1, 1, "c, d.nw")],
        ),
        (
            "mixed line endings, spaces around the block keywords",
            b"GRMAP001\r\nWIDTH 1\nHEIGHT 2\r\n LEVELNAMES \r\na.nw\n\nb.nw\r\nLEVELNAMESEND  \n".to_vec(),
            (1, 2),
            vec![(0, 0, "a.nw"), (0, 1, "b.nw")],
        ),
        (
            "lower-case keyword lines are kept as unknown lines",
            b"GRMAP001\nWIDTH 1\nHEIGHT 1\nwidth 5\nLEVELNAMES\n\"a.nw\"\nLEVELNAMESEND\n".to_vec(),
            (1, 1),
            vec![(0, 0, "a.nw")],
        ),
    ]
}

#[test]
fn every_form_reads_to_its_grid_and_round_trips_byte_for_byte() {
    for (name, bytes, size, expected) in forms() {
        let map = round_trip(&bytes);
        assert_eq!(map.grid().size(), Some(size), "{name}");
        let expected: Vec<(u32, u32, String)> = expected
            .into_iter()
            .map(|(x, y, n)| (x, y, n.to_owned()))
            .collect();
        assert_eq!(cells(&map), expected, "{name}");
        // The same file with the other line ending round-trips as well.
        let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
        round_trip(text.replace('\n', "\r\n").as_bytes());
        round_trip(text.as_bytes());
    }
}

#[test]
fn optional_lines_have_their_meaning() {
    let (_, bytes, _, _) = forms().swap_remove(3);
    let map = round_trip(&bytes);
    assert_eq!(
        map.setting(SettingKind::MapImg).unwrap().display(),
        "map.png"
    );
    assert_eq!(
        map.setting(SettingKind::MiniMapImg).unwrap().display(),
        "mini.png"
    );
    assert_eq!(
        map.setting(SettingKind::Tileset).unwrap().display(),
        "pics1.png"
    );
    assert!(map.flag(FlagKind::NoAutoMapping) && map.flag(FlagKind::LoadFullMap));
    let start = map.block(BlockKind::LoadAtStart).unwrap();
    let names: Vec<(String, bool)> = start.rows[0]
        .cells
        .iter()
        .map(|c| (c.name.display(), c.quoted))
        .collect();
    assert_eq!(
        names,
        [("a.nw".to_owned(), false), ("d.nw".to_owned(), true)]
    );
    let s = map.summary();
    assert_eq!((s.levels, s.distinct_levels, s.unknown_lines), (4, 4, 2));
    assert_eq!(s.flags, ["NOAUTOMAPPING", "LOADFULLMAP"]);
    assert_eq!(s.load_at_start, Some(2));
    // WIDTH with two spaces and HEIGHT with a tab keep their spelling.
    let Statement::Setting(w) = &map.statements[0] else {
        panic!()
    };
    assert_eq!(w.raw, Some(RawString::from("WIDTH  2")));
    let findings = map.validate();
    assert_eq!(
        findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count(),
        0,
        "{findings:#?}"
    );
    assert!(findings.iter().any(|f| f.message.contains("GENERATED 1")));
}

#[test]
fn edits_are_written_canonically_and_the_rest_stays() {
    let bytes =
        b"GRMAP001\r\nWIDTH  2\r\nHEIGHT 1\r\nLEVELNAMES\r\n\"a.nw\", b.nw,\r\nLEVELNAMESEND\r\n";
    let mut map = round_trip(bytes);
    let Statement::Setting(w) = &mut map.statements[0] else {
        panic!()
    };
    w.value = RawString::from("3");
    let Statement::Names(block) = &mut map.statements[2] else {
        panic!()
    };
    block.rows[0].cells[2] = Cell::new("c.nw");
    assert_eq!(
        map.write().unwrap(),
        b"GRMAP001\r\nWIDTH 3\r\nHEIGHT 1\r\nLEVELNAMES\r\n\"a.nw\",b.nw,c.nw\r\nLEVELNAMESEND\r\n"
    );
    // A model from scratch is canonical, with the signature and LF.
    let fresh = Gmap::new(2, 1, &[vec!["a.nw", ""]]);
    assert_eq!(
        fresh.write().unwrap(),
        b"GRMAP001\nWIDTH 2\nHEIGHT 1\nLEVELNAMES\na.nw,\nLEVELNAMESEND\n"
    );
    assert_eq!(fresh.validate(), vec![]);
}

#[test]
fn unwritable_models_are_refused_and_reported() {
    let mut cases: Vec<(Gmap, &str)> = Vec::new();
    let comma = Gmap::new(1, 1, &[vec!["a,b.nw"]]);
    cases.push((comma, "do not read back"));
    let lone_empty = Gmap::new(1, 1, &[vec![""]]);
    cases.push((lone_empty, "do not read back"));
    let mut close = Gmap::new(1, 1, &[vec!["LEVELNAMESEND"]]);
    cases.push((close.clone(), "closing line"));
    close.statements[0] = Statement::Unknown(Unknown {
        text: RawString::from("WIDTH 9"),
    });
    cases.push((close, "reads as a known statement"));
    let mut headless = Gmap::new(1, 1, &[vec!["a.nw"]]);
    headless.header = None;
    headless.statements.insert(
        0,
        Statement::Unknown(Unknown {
            text: RawString::from("GRMAP002"),
        }),
    );
    cases.push((headless, "reads as the header"));
    let mut spaced = Gmap::new(1, 1, &[vec!["a.nw"]]);
    spaced.statements[0] = Statement::Setting(Setting::new(SettingKind::Width, " 1"));
    cases.push((spaced, "does not read back"));
    for (map, text) in cases {
        let err = map.write().unwrap_err();
        assert_eq!(err.kind, ErrorKind::Malformed);
        assert!(err.to_string().contains(text), "{err}");
        assert!(
            map.validate()
                .iter()
                .any(|f| f.severity == Severity::Error && f.message.contains(text)),
            "{text}"
        );
    }
}

#[test]
fn validation_reports_what_the_servers_would_read_differently() {
    let bytes = b"WIDTH 2\nHEIGHT 3\nLEVELNAMES\na.nw,b.nw,c.nw\n\nA.NW,\nLEVELNAMESEND\nLOADATSTART\nz.nw\nLOADATSTARTEND\nMAPIMG two words\n";
    let map = round_trip(bytes);
    let findings = map.validate();
    let has = |text: &str| findings.iter().any(|f| f.message.contains(text));
    assert!(has("no GRMAP001 line"), "{findings:#?}");
    assert!(has("names in 3 columns but WIDTH is 2"));
    assert!(has("blank line among the level names"));
    assert!(has("2 rows of names but HEIGHT is 3"));
    assert!(has("level A.NW at (0,1) is also at (0,0)"));
    assert!(has("LOADATSTART names z.nw"));
    assert!(has("MAPIMG has more than one word"));
    assert!(findings.iter().all(|f| f.severity == Severity::Warning));
    let bad = round_trip(b"GRMAP001\nWIDTH x\nLEVELNAMES\nLEVELNAMESEND\n");
    let errors: Vec<String> = bad
        .validate()
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message)
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("WIDTH x is not a positive whole number"));
    assert!(errors[1].contains("no HEIGHT line"));
}

#[test]
fn missing_levels_are_reported_with_their_grid_position() {
    let map = gmap::samples::gmap("w", 3, 2, &[(2, 1)]);
    let findings = map.validate_levels(&mut |name| name != "w_1_1.nw" && name != "w_2_0.nw");
    let messages: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "level (2,0) w_2_0.nw: no such file beside the gmap",
            "level (1,1) w_1_1.nw: no such file beside the gmap"
        ]
    );
    assert_eq!(findings[1].location.path.as_deref(), Some("levels[1,1]"));
}

#[test]
fn unclosed_blocks_are_truncation_errors_at_their_opening_line() {
    for (bytes, line) in [
        (&b"GRMAP001\nWIDTH 1\nHEIGHT 1\nLEVELNAMES\na.nw\n"[..], 4),
        (&b"LOADATSTART\r\na.nw"[..], 1),
    ] {
        let err = gmap::read(bytes).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Truncated, "{err}");
        assert_eq!(err.location.line_col, Some((line, 1)));
        assert!(err.to_string().starts_with("gmap: "), "{err}");
    }
}

#[test]
fn limits_are_enforced() {
    let mut big = b"GRMAP001\nWIDTH 1\nHEIGHT 1\nLEVELNAMES\n".to_vec();
    for _ in 0..2000 {
        big.extend_from_slice(b"a.nw\n");
    }
    big.extend_from_slice(b"LEVELNAMESEND\n");
    let limits = Limits {
        max_count: 100,
        ..Limits::default()
    };
    let err = gmap::read_with(&big, &limits).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
    let limits = Limits {
        max_alloc: 4096,
        ..Limits::default()
    };
    let err = gmap::read_with(&big, &limits).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
    assert!(gmap::read_with(&big, &Limits::default()).is_ok());
}

/// Read; an error names the format and a line; a file that reads is written back exactly.
fn check(bytes: &[u8]) {
    match gmap::read_with(bytes, &Limits::strict()) {
        Err(e) => {
            assert!(e.to_string().starts_with("gmap: "), "{e}");
            assert!(
                e.location.line_col.is_some() || e.kind == ErrorKind::LimitExceeded,
                "{e}"
            );
        }
        Ok(map) => {
            let _ = map.validate();
            let _ = map.summary();
            let _ = map.grid();
            let out = map.write().unwrap();
            assert!(
                out == bytes,
                "not byte-exact: {:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

/// The fuzzer's one finding (`fuzz/artifacts/gmap_read/crash-f6d8…`): a `WIDTH` whose value is
/// garbage that happens to spell "cannot write". The file reads and writes back exactly; the
/// validation error is about the width, not about writing, and the fuzz target now tells the two
/// apart by the message's start rather than by a substring of the user's own text.
#[test]
fn a_width_of_garbage_is_a_finding_not_a_write_failure() {
    let mut bytes = b"\x0b\nWIDTH  *\\@\r\x0b *\\@\r\x0b\nWIDTH /VELNAMES \0\0 *".to_vec();
    bytes.extend_from_slice(&[b'V'; 30]);
    bytes.extend_from_slice(b"cannot write");
    bytes.extend_from_slice(&[b'V'; 30]);
    bytes.extend_from_slice(b"\\@\0");
    check(&bytes);
    let map = gmap::read(&bytes).unwrap();
    let findings = map.validate();
    assert!(
        findings
            .iter()
            .all(|f| !f.message.starts_with("cannot write")),
        "{findings:?}"
    );
    assert!(
        findings
            .iter()
            .any(|f| f.severity == Severity::Error
                && f.message.contains("not a positive whole number")),
        "{findings:?}"
    );
}

#[test]
fn every_prefix_reads_or_fails_cleanly() {
    let (_, bytes, _, _) = forms().swap_remove(3);
    let open = bytes
        .windows(11)
        .position(|w| w == b"\nLEVELNAMES")
        .unwrap()
        + 1;
    let close = bytes
        .windows(14)
        .position(|w| w == b"\nLEVELNAMESEND")
        .unwrap()
        + 1;
    for len in 0..=bytes.len() {
        check(&bytes[..len]);
        // Cut between the block's opening line and the end of its closing keyword.
        if len > open + "LEVELNAMES".len() && len < close + "LEVELNAMESEND".len() {
            let err = gmap::read(&bytes[..len]).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Truncated, "prefix {len}");
        }
    }
    for (_, bytes, _, _) in forms() {
        for len in 0..=bytes.len() {
            check(&bytes[..len]);
        }
    }
}

#[test]
fn random_garbage_and_mutations_never_panic() {
    let mut rng = Rng(0x6A4D_A900_1234_5678);
    let words: [&[u8]; 12] = [
        b"LEVELNAMES",
        b"LEVELNAMESEND",
        b"LOADATSTART",
        b"LOADATSTARTEND",
        b"WIDTH ",
        b"HEIGHT ",
        b"GRMAP001",
        b"\"",
        b",",
        b"\r\n",
        b"\n",
        b"\r",
    ];
    for _ in 0..2000 {
        let len = rng.below(300);
        let mut junk = Vec::new();
        while junk.len() < len {
            match rng.below(3) {
                0 => junk.extend_from_slice(words[rng.below(words.len())]),
                1 => junk.push(b' '),
                _ => junk.push(rng.next() as u8),
            }
        }
        check(&junk);
    }
    for (_, bytes, _, _) in forms() {
        for _ in 0..300 {
            let mut m = bytes.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(m.len());
                match rng.below(3) {
                    0 => m[at] = rng.next() as u8,
                    1 => {
                        m.remove(at);
                    }
                    _ => m.insert(at, words[rng.below(words.len())][0]),
                }
            }
            check(&m);
        }
    }
}

mod props {
    use proptest::prelude::*;

    use super::*;

    fn name() -> impl Strategy<Value = (String, bool)> {
        prop_oneof![
            "[a-z][a-z0-9_]{0,8}\\.nw".prop_map(|n| (n, false)),
            "[a-z][a-z0-9_ ,]{0,8}\\.graal".prop_map(|n| (n, true)),
            Just((String::new(), false)),
        ]
    }

    fn statement() -> impl Strategy<Value = Statement> {
        prop_oneof![
            Just(Statement::Blank(Blank::default())),
            (0usize..5, "[a-z0-9.]{1,10}")
                .prop_map(|(k, v)| Statement::Setting(Setting::new(SettingKind::ALL[k], &v))),
            (0usize..2).prop_map(|k| Statement::Flag(Flag {
                kind: FlagKind::ALL[k],
                raw: None
            })),
            (
                0usize..2,
                prop::collection::vec(prop::collection::vec(name(), 2..5), 0..4)
            )
                .prop_map(|(k, rows)| Statement::Names(NameBlock {
                    kind: BlockKind::ALL[k],
                    rows: rows
                        .into_iter()
                        .map(|r| Row {
                            cells: r
                                .into_iter()
                                .map(|(n, q)| Cell {
                                    name: RawString::from(n.as_str()),
                                    quoted: q && !n.is_empty(),
                                })
                                .collect(),
                            raw: None,
                        })
                        .collect(),
                    open_raw: None,
                    close_raw: None,
                })),
            "[a-z][a-z0-9 ]{0,12}".prop_map(|t| Statement::Unknown(Unknown {
                text: RawString::from(t.as_str())
            })),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn model_to_bytes_to_model(
            header in prop::option::of(Just(RawString::from("GRMAP001"))),
            statements in prop::collection::vec(statement(), 0..12),
            crlf in any::<bool>(),
            final_newline in any::<bool>(),
        ) {
            let map = Gmap {
                header,
                statements,
                layout: Layout {
                    line_ending: if crlf { LineEnding::CrLf } else { LineEnding::Lf },
                    final_newline,
                    other_endings: Vec::new(),
                },
            };
            match map.write() {
                Ok(bytes) => {
                    let mut back = gmap::read(&bytes).unwrap();
                    // A file without line breaks does not say which ending it uses.
                    if !bytes.contains(&b'\n') {
                        back.layout.line_ending = map.layout.line_ending;
                    }
                    // A file without lines reads with the default layout.
                    if !bytes.is_empty() {
                        prop_assert_eq!(&back, &map);
                    }
                    prop_assert_eq!(back.write().unwrap(), bytes);
                }
                // Only an empty last line without a break is unwritable here.
                Err(e) => prop_assert!(!final_newline, "{}", e),
            }
        }
    }
}

#[test]
fn a_world_converts_to_a_tiled_world_and_back_to_the_same_gmap() {
    for bytes in forms().into_iter().map(|f| f.1) {
        let map = gmap::read(&bytes).unwrap();
        let world = World::from_gmap(&map);
        assert_eq!(world.maps.len(), map.grid().cells.len());
        let json = world.to_json(&mut |_| true).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(doc["type"], "world");
        let first = &doc["maps"][0];
        assert_eq!(first["width"], 1024);
        assert_eq!(first["height"], 1024);
        let (back, warnings) = World::from_json(&json).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(back, world);
        assert!(back.gmap.write().unwrap() == bytes);
    }
    let map = gmap::samples::gmap("w", 3, 2, &[(1, 0)]);
    let world = World::from_gmap(&map);
    let json = world.to_json(&mut |m| m.grid_x != 2).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let placed: Vec<(String, i64, i64)> = doc["maps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["fileName"].as_str().unwrap().to_owned(),
                m["x"].as_i64().unwrap(),
                m["y"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        placed,
        [
            ("w_0_0.tmx".to_owned(), 0, 0),
            ("w_0_1.tmx".to_owned(), 0, 1024),
            ("w_1_1.tmx".to_owned(), 1024, 1024),
        ]
    );
    // Without levelkit's object (a world Tiled saved), the grid comes from the positions.
    let mut plain = doc.clone();
    plain.as_object_mut().unwrap().remove("levelkit");
    plain["maps"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(
            {"fileName": "odd.tmx", "x": 100, "y": 0, "width": 1024, "height": 1024}
        ));
    let (rebuilt, warnings) = World::from_json(&serde_json::to_vec(&plain).unwrap()).unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        rebuilt.gmap.write().unwrap(),
        b"GRMAP001\nWIDTH 2\nHEIGHT 2\nLEVELNAMES\nw_0_0.nw,\nw_0_1.nw,w_1_1.nw\nLEVELNAMESEND\n"
    );
}

#[test]
fn map_file_names_are_safe_and_distinct() {
    assert_eq!(world::map_file_name("village_a1.nw"), "village_a1.tmx");
    assert_eq!(world::map_file_name("../x/y.graal"), "_x_y.tmx");
    assert!(!world::is_plain_file_name("../y.nw"));
    assert!(world::is_plain_file_name("a b.nw"));
    let map = Gmap::new(2, 1, &[vec!["a.nw", "a.graal"]]);
    let names: Vec<String> = World::from_gmap(&map)
        .maps
        .into_iter()
        .map(|m| m.file_name)
        .collect();
    assert_eq!(names, ["a.tmx", "a_2.tmx"]);
}

#[test]
fn the_render_places_each_level_and_fits_the_size() {
    let (map, levels) = gmap::samples::world("w", 3, 2, &[(2, 1)]);
    let files: std::collections::BTreeMap<String, Vec<u8>> = levels
        .into_iter()
        .filter(|(name, _)| name != "w_0_1.nw")
        .map(|(name, nw)| (name, nw.write().unwrap()))
        .collect();
    let (image, warnings) = world::render_gmap_with(&map, 600, &Limits::default(), &mut |n| {
        files.get(n).cloned()
    })
    .unwrap();
    // 3 columns of 1024 px into 600: divisor 6, 171 px a level.
    assert_eq!((image.width, image.height), (3 * 171, 2 * 171));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("level (0,1) w_0_1.nw"));
    assert_eq!(image.pixel(10, 171 + 10), Some(world::MISSING));
    // The hole stays transparent; a level is drawn as the level's own render at that scale.
    assert_eq!(image.pixel(2 * 171 + 5, 171 + 5).unwrap()[3], 0);
    let alone = world::render_level(
        &files["w_1_0.nw"],
        "w_1_0.nw",
        6,
        &Limits::default(),
        &Default::default(),
    )
    .unwrap();
    for (x, y) in [(0, 0), (50, 60), (170, 170)] {
        assert_eq!(image.pixel(171 + x, y), alone.pixel(x, y));
    }
    assert_eq!(world::fit(10, 10, 4096), Some((3, 342)));
    assert_eq!(world::fit(5000, 1, 4096), None);
    let huge = Gmap::new(100_000, 1, &[vec!["a.nw"]]);
    let err = world::render_gmap_with(&huge, 4096, &Limits::default(), &mut |_| None).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
}
