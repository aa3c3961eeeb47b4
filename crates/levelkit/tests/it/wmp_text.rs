//! Text `.wmp` dialects (A4, v510, v710) and `$$M`: the real-file corpus (`$LEVELKIT_CORPUS/wmp`,
//! skipped when unset), hostile inputs (truncation and garbage sweeps), layout preservation under
//! edits, and levels built from the shared model.

use crate::common;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use levelkit::formats::wmp::level::{Block, Entity, EntityKind, Group, Level, Transform};
use levelkit::formats::wmp::text::{self, Dialect, Num, Record, WmpText};
use levelkit::{ErrorKind, Limits, Severity};

/// Every text file of the corpus: `.wmp` files that are not WMPB, and `.$$M` files.
fn text_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(text_files(&path));
            continue;
        }
        let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
        let is_text = match ext.as_deref() {
            Some("$$m") => true,
            Some("wmp") => !std::fs::read(&path).unwrap().starts_with(b"WMPB"),
            _ => false,
        };
        if is_text {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// (name relative to the corpus, bytes) of every text file.
fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = common::corpus_or_skip("wmp", "the .wmp/$$M corpus") else {
        return Vec::new();
    };
    let files: Vec<_> = text_files(&dir)
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(&dir).unwrap().display().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    assert!(
        files.len() >= 8,
        "only {} text files under {}",
        files.len(),
        dir.display()
    );
    files
}

/// π/2 as the editors write it: six decimals, which is all a text level keeps.
#[allow(clippy::approx_constant)]
const HALF_PI_AS_WRITTEN: f64 = 1.570796;

/// Xorshift64 from a fixed seed: the same sequence on every run.
fn rng() -> impl FnMut() -> u64 {
    let mut rng = common::Rng(0x2545_F491_4F6C_DD1D);
    move || rng.next()
}

#[test]
fn corpus_files_read_validate_and_round_trip() {
    let files = corpus_files();
    if files.is_empty() {
        return;
    }
    let mut dialects = BTreeMap::new();
    for (name, bytes) in &files {
        let model = WmpText::read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        *dialects.entry(model.dialect().name()).or_insert(0) += 1;
        let out = model.write().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(out == *bytes, "{name}: not written back byte for byte");
        // Every real file is in the editors' own layout: nothing needs a layout override.
        assert!(
            model.header.layout.is_canonical() && model.end.is_none(),
            "{name}"
        );
        for (i, r) in model.records.iter().enumerate() {
            assert!(
                r.layout().is_canonical(),
                "{name}: records[{i}] {:?}",
                r.layout()
            );
        }
        let findings = model.validate();
        for w in &findings {
            eprintln!("{name}: {w}");
        }
        let errors: Vec<_> = findings
            .iter()
            .filter(|w| w.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        let summary = model.summary();
        eprintln!("{name}: {}", serde_json::to_string(&summary).unwrap());
    }
    eprintln!("round trips by dialect: {dialects:?}");
    for d in ["a4", "v510", "v710", "$$M"] {
        assert!(
            dialects.get(d).is_some_and(|&n| n >= 2),
            "{d}: {dialects:?}"
        );
    }
}

/// Known contents, so that a reader that loses records cannot pass.
#[test]
fn corpus_contents() {
    let files = corpus_files();
    let get = |suffix: &str| {
        files
            .iter()
            .find(|(n, _)| n.ends_with(suffix))
            .map(|(_, b)| WmpText::read(b).unwrap())
    };
    if files.is_empty() {
        return;
    }
    let kb = get("kbridge.$$M").unwrap();
    let s = kb.summary();
    assert_eq!((s.dialect, s.blocks, s.groups), (Dialect::DollarM, 0, 0));
    assert_eq!(s.entities.get("model"), Some(&53));
    assert_eq!(s.entities.get("path"), Some(&1));
    // The MapBuilder-style material line of the one extended model with a material.
    let materials: Vec<_> = kb
        .records
        .iter()
        .filter_map(|r| match r {
            Record::MModel(m) => m.material.as_deref(),
            _ => None,
        })
        .collect();
    assert_eq!(materials, ["mat_water1"]);
    let (level, warnings) = kb.to_level();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(level.angles_in_degrees);
    assert_eq!(level.settings.sun, [0.0, 60.0]);
    assert_eq!(level.settings.wad.as_deref(), Some("kbridge.$$w"));
    let path = level
        .entities
        .iter()
        .find(|e| e.kind == EntityKind::Path)
        .unwrap();
    assert_eq!(path.path_nodes.len(), 30);
    assert_eq!(path.path_edges.len(), 30);
    assert_eq!(path.path_edges[0], [1.0, 2.0, 340.164673, 0.0, 0.0, 0.0]);
    assert_eq!(path.fields["triplets"], 150.0);

    let boss = get("bosslevel.$$M").unwrap();
    let s = boss.summary();
    assert_eq!((s.blocks, s.faces, s.vertices), (56, 336, 448));
    assert_eq!(s.entities.get("model"), Some(&83));
    assert_eq!(s.entities.get("light"), Some(&10));
    let (level, _) = boss.to_level();
    assert_eq!(level.blocks.len(), 56);
    assert_eq!(level.blocks[0].vertices[0], [-1456.0, -256.0, 0.0]);
    assert_eq!(
        level.blocks[0].faces[0].texture_vectors,
        Some([[1.0, 0.0, 0.0, 1880.0], [0.0, -1.0, 0.0, -128.0]])
    );
    let light = level
        .entities
        .iter()
        .find(|e| e.kind == EntityKind::Light)
        .unwrap();
    assert_eq!(light.transform.position, [-1596.0, -192.0, 296.0]);
    assert_eq!(light.light, Some(([71.764709, 35.686275, 0.0], 400.0)));
    assert_eq!(light.fields["flags"], "0000");

    let office = get("office.wmp").unwrap();
    let s = office.summary();
    assert_eq!((s.dialect, s.blocks, s.groups), (Dialect::V510, 71, 107));
    assert_eq!(s.editor.as_deref(), Some("ACKWED V 5.22.01"));
    assert_eq!(s.entities.values().sum::<usize>(), 24);
    let (level, warnings) = office.to_level();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(level.settings.script.as_deref(), Some("OFFICE.wdl"));
    assert_eq!(level.settings.colors.len(), 6);
    assert!(level.blocks.iter().all(|b| b.group.is_some()));
    assert!(level.entities.iter().all(|e| e.group.is_some()));
    assert!(level.groups[0].holds_level);
    assert_eq!(
        level.groups[2].transform.position,
        [119.0, 0.00006, 35.999981]
    );
    let guard = level
        .entities
        .iter()
        .find(|e| e.name.as_deref() == Some("guard_mdl_007"))
        .unwrap();
    assert_eq!(guard.fields["action"], "patrol_prog");
    assert_eq!(guard.fields["flags"], "00000000000001000000000000000000");

    let forest = get("forest.wmp").unwrap();
    assert_eq!(forest.dialect(), Dialect::A4);
    let planes = forest.planes();
    assert_eq!(planes.len(), 5);
    assert_eq!(planes[0].len(), 6);
    assert_eq!(
        planes[0][0],
        [
            [0.0, 0.0, 448.000122],
            [0.0, 500.0, 448.000122],
            [500.0, 0.0, 448.000061]
        ]
    );
    let level1 = get("level1.wmp").unwrap();
    let Some(Record::Level(l)) = level1
        .records
        .iter()
        .find(|r| matches!(r, Record::Level(_)))
    else {
        panic!("no level record")
    };
    assert_eq!(l.colors.len(), 4, "ACKWED 4.24 writes four colour lines");
    let Some(Record::Model(m)) = level1
        .records
        .iter()
        .find(|r| matches!(r, Record::Model(_)))
    else {
        panic!("no model")
    };
    assert_eq!(
        (m.flags.as_str(), m.skills[0].as_str()),
        ("'00000000'", "010")
    );

    let block = get("block.wmp").unwrap();
    let b = block.blocks().next().unwrap();
    assert_eq!(b.vertices[0][0].as_str(), "-0");
    assert_eq!(b.faces[3].texture, "heavymetal");
    assert!(b.faces[3].vectors.is_some() && b.faces[3].transform.is_some());
    let starter = get("starter.wmp").unwrap();
    assert_eq!(starter.summary().editor.as_deref(), Some("WMPIO V 1.19"));
    assert_eq!(
        starter.groups().next().unwrap().name.as_deref(),
        Some("Root")
    );
}

#[test]
fn corpus_json_round_trips() {
    for (name, bytes) in corpus_files() {
        let model = WmpText::read(&bytes).unwrap();
        let json = serde_json::to_string_pretty(&model).unwrap();
        let back: WmpText = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(back == model, "{name}: JSON changed the model");
        assert!(
            back.write().unwrap() == bytes,
            "{name}: JSON does not rebuild the bytes"
        );
    }
}

/// Every prefix at a line boundary and a sample of byte offsets: `Ok` (and then lossless) or an
/// error with a line and column; never a panic.
#[test]
fn corpus_truncation_sweep() {
    for (name, bytes) in corpus_files() {
        let mut cuts: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        cuts.extend((0..bytes.len()).step_by(97));
        let (mut ok, mut err) = (0, 0);
        for cut in cuts {
            let prefix = &bytes[..cut];
            match text::read_with(prefix, &Limits::strict()) {
                Ok(model) => {
                    ok += 1;
                    assert!(
                        model.write().unwrap() == prefix,
                        "{name}: prefix {cut} not lossless"
                    );
                }
                Err(e) => {
                    err += 1;
                    assert!(
                        e.location.line_col.is_some(),
                        "{name}: prefix {cut}: {e} has no line/column"
                    );
                }
            }
        }
        eprintln!("{name}: {ok} prefixes read, {err} refused");
        assert!(err > ok, "{name}: most prefixes of a file are incomplete");
    }
}

/// Random byte edits: whatever reads is written back to exactly its bytes and reads back to the
/// same model; whatever does not read says where.
#[test]
fn corpus_garbage_sweep() {
    let mut next = rng();
    for (name, bytes) in corpus_files() {
        let mut read_ok = 0;
        for _ in 0..300 {
            let mut data = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % data.len() as u64) as usize;
                match next() % 3 {
                    0 => data[at] = next() as u8,
                    1 => {
                        data.remove(at);
                    }
                    _ => data.insert(at, b"{}()<>',:/ \n\r\t0-.e9x"[(next() % 20) as usize]),
                }
            }
            match text::read_with(&data, &Limits::strict()) {
                Ok(model) => {
                    read_ok += 1;
                    let out = model.write().unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert!(
                        out == data,
                        "{name}: an edited file read but did not write back"
                    );
                    assert!(text::read(&out).unwrap() == model, "{name}");
                    let _ = model.validate();
                    let _ = model.to_level();
                    let _ = model.summary();
                }
                Err(e) => assert!(e.location.line_col.is_some(), "{name}: {e}"),
            }
        }
        eprintln!("{name}: {read_ok} of 300 edited copies read");
    }
}

/// `$$M` → level → `$$M` → level: the same level, with the records in the editor's layout.
#[test]
fn corpus_dollar_m_from_level() {
    for (name, bytes) in corpus_files() {
        let model = WmpText::read(&bytes).unwrap();
        if model.dialect() != Dialect::DollarM {
            continue;
        }
        let (level, _) = model.to_level();
        let (rebuilt, warnings) = WmpText::from_level(&level, Dialect::DollarM).unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        let out = rebuilt.write().unwrap();
        let again = WmpText::read(&out).unwrap();
        assert_eq!(again, rebuilt, "{name}");
        let (level2, warnings) = again.to_level();
        assert!(warnings.is_empty());
        assert!(
            level2 == level,
            "{name}: the level changed on the way through $$M"
        );
        // Line for line the same file, apart from the header comment and the spelling of
        // numbers WED wrote with trailing zeros (`-0.000000`).
        let orig = String::from_utf8_lossy(&bytes);
        let ours = String::from_utf8_lossy(&out);
        assert_eq!(orig.lines().count(), ours.lines().count(), "{name}");
        let differ = orig
            .lines()
            .zip(ours.lines())
            .skip(1)
            .filter(|(a, b)| a != b)
            .filter(|(a, _)| !a.contains("-0.000000"))
            .count();
        assert_eq!(differ, 0, "{name}");
    }
}

/// v710 → level → v710 → level for the v710 corpus files.
#[test]
fn corpus_v710_from_level() {
    for (name, bytes) in corpus_files() {
        let model = WmpText::read(&bytes).unwrap();
        if model.dialect() != Dialect::V710 {
            continue;
        }
        let (level, _) = model.to_level();
        let (rebuilt, warnings) = WmpText::from_level(&level, Dialect::V710).unwrap();
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        let again = WmpText::read(&rebuilt.write().unwrap()).unwrap();
        assert!(again.to_level().0 == level, "{name}");
        assert!(
            again.validate().is_empty(),
            "{name}: {:?}",
            again.validate()
        );
    }
}

fn cube(size: f64, texture: &str) -> Block {
    levelkit::formats::wmp::samples::box_block([-size; 3], [size; 3], texture)
}

fn entity(kind: EntityKind, number: u32, name: &str, group: usize) -> Entity {
    Entity {
        kind,
        number,
        name: Some(name.into()),
        file: None,
        transform: Transform::IDENTITY,
        light: None,
        path_nodes: Vec::new(),
        path_edges: Vec::new(),
        fields: serde_json::Map::new(),
        group: Some(group),
    }
}

/// A small level made from the shared model's values, as a user of the library would.
fn hand_made() -> Level {
    let mut blocks = vec![cube(64.0, "stone"), cube(8.0, "heavymetal")];
    blocks[0].group = Some(1);
    blocks[1].group = Some(2);
    let mut model = entity(EntityKind::Model, 1, "guard_mdl_001", 2);
    model.file = Some("guard.mdl".into());
    model.transform.scale = [1.5, 1.5, 1.5];
    for (k, v) in [
        ("action", serde_json::json!("patrol_prog")),
        (
            "skills",
            serde_json::json!([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]),
        ),
        (
            "flags",
            serde_json::json!("00000000000001000000000000000000"),
        ),
        ("ambient", serde_json::json!(10.0)),
        ("albedo", serde_json::json!(50.0)),
        ("material", serde_json::json!("ndef")),
        ("name2", serde_json::json!("ndef")),
    ] {
        model.fields.insert(k.into(), v);
    }
    let mut light = entity(EntityKind::Light, 2, "", 1);
    light.name = None;
    light.light = Some(([100.0, 80.5, 0.25], 300.0));
    let start = entity(EntityKind::Start, 3, "pos_001", 1);
    let mut path = entity(EntityKind::Path, 4, "path_001", 1);
    path.path_nodes = vec![[0.0, 0.0, 0.0], [128.0, 0.0, 0.0], [128.0, 128.0, 16.0]];
    path.path_edges = vec![
        vec![1.0, 2.0, 1.0, 0.0, 0.0, 0.0],
        vec![2.0, 3.0, 1.0, 0.0, 0.0, 0.0],
    ];
    path.fields
        .insert("triplets".into(), serde_json::json!(13.0));
    path.fields.insert(
        "node_skills".into(),
        serde_json::json!([
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        ]),
    );
    let mut level = Level {
        angles_in_degrees: false,
        blocks,
        entities: vec![model, light, start, path],
        groups: vec![
            Group {
                name: Some("Root".into()),
                groups: vec![1],
                holds_level: true,
                ..Group::default()
            },
            Group {
                name: Some("house".into()),
                transform: Transform {
                    position: [100.0, -16.0, 12.5],
                    angles: [HALF_PI_AS_WRITTEN, 0.0, 0.0],
                    scale: [1.0; 3],
                },
                groups: vec![2],
                blocks: vec![0],
                entities: vec![1, 2, 3],
                holds_level: false,
            },
            Group {
                name: None,
                transform: Transform {
                    position: [0.0, 0.0, 72.0],
                    ..Transform::IDENTITY
                },
                blocks: vec![1],
                entities: vec![0],
                ..Group::default()
            },
        ],
        ..Level::default()
    };
    level.settings.wad = Some("house.$$w".into());
    level.settings.palette = Some("palette.pcx".into());
    level.settings.script = Some("house.wdl".into());
    level.settings.sun = vec![30.0, 45.0, 60.0];
    level.settings.colors = vec![
        [100.0; 3],
        [18.82, 18.82, 100.0],
        [0.0; 3],
        [0.0; 3],
        [0.0; 3],
        [0.0; 3],
    ];
    level
}

#[test]
fn hand_made_v710_level() {
    let level = hand_made();
    let (file, warnings) = WmpText::from_level(&level, Dialect::V710).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let bytes = file.write().unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.starts_with("// WMP2\r\n// levelkit "), "{text}");
    assert!(text.contains("\r\nversion 710\r\n\r\nblocks 2\r\nentities 5\r\nobjects 3\r\n\r\nblock 0 {\r\n\tvertices 8\r\n"));
    assert!(
        text.contains(
            "\t4  1 0 2 3 : stone ( 0 1 0 0 ) ( 0 0 -1 0 ) 0 0 0 1 1 : 0000 0 50 ndef\r\n"
        )
    );
    assert!(text.contains("model 1 {   // guard_mdl_001\r\n\t1.5 1.5 1.5\r\n\t<guard.mdl>\r\n"));
    assert!(text.contains(
        "object 0 {  // Root\r\n\t(0 0 0) (0 0 0) (1 1 1)\r\n\tobject 1\r\n\tlevel 0\r\n}"
    ));
    assert!(text.contains("object 1 {  // house\r\n\t(100 -16 12.5) (1.570796 0 0) (1 1 1)\r\n\tobject 2\r\n\tblock 0\r\n\tlight 2\r\n\tstart 3\r\n\tpath 4\r\n}"));
    assert!(text.ends_with("}\r\n\r\n"));
    let back = WmpText::read(&bytes).unwrap();
    assert_eq!(back, file);
    assert!(back.validate().is_empty(), "{:?}", back.validate());
    let (again, warnings) = back.to_level();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(again, level);
}

#[test]
fn resolved_level_as_dollar_m_and_as_v710() {
    // A resolved level (degrees, world coordinates, no groups).
    let mut level = hand_made();
    level.groups.clear();
    for b in &mut level.blocks {
        for f in &mut b.faces {
            f.texture_transform = None;
        }
    }
    level.angles_in_degrees = true;
    for b in &mut level.blocks {
        b.group = None;
    }
    for e in &mut level.entities {
        e.group = None;
        e.transform.position = [10.0, 20.0, 30.0];
        e.transform.angles = [90.0, 0.0, 0.0];
    }
    level.settings.sun = vec![45.0, 60.0];
    level.settings.colors.clear();
    level.settings.script = None;
    let (m, warnings) = WmpText::from_level(&level, Dialect::DollarM).unwrap();
    // The v710-only model fields have no place in $$M's type 7 record … they do: albedo and
    // material are type 7 fields; name2 is not.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("name2"));
    let bytes = m.write().unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("\r\nversion 711\r\n\r\n\r\n{ //level\r\n\t0\r\n\thouse.$$w\r\n\tpalette.pcx\r\n\t{   // 0\r\n\t\tvertices 8\r\n"));
    assert!(text.contains("\t\t4  1 0 2 3 : stone ( 0 1 0 0 ) ( 0 0 -1 0 ) : 0000 0 50 ndef\r\n"));
    assert!(text.contains("}\r\n{ //sun\r\n\t5\r\n\t45\r\n\t60\r\n}\r\n{ //model\r\n\t7\r\n\t10 20 30\r\n\t90 0 0\r\n\t1.5 1.5 1.5\r\n\tguard.mdl\r\n"));
    assert!(
        text.contains(
            "{ //light\r\n\t2\r\n\t10 20 30\r\n\t90 0 0\r\n\t100 80.5 0.25 300 0000\r\n}"
        )
    );
    assert!(text.contains("{ //path\r\n\t6\r\n\tpath_001\r\n\t3\r\n\t13\r\n"));
    let back = WmpText::read(&bytes).unwrap();
    assert_eq!(back, m);
    let findings = back.validate();
    assert!(
        findings.iter().all(|w| w.severity == Severity::Warning),
        "{findings:?}"
    );
    let (again, _) = back.to_level();
    assert_eq!(again.blocks, level.blocks);
    assert_eq!(again.entities.len(), 4);
    assert_eq!(again.entities[1].light, level.entities[1].light);

    // The same resolved level as v710: one group per entity carries its placement, in radians.
    let (v, warnings) = WmpText::from_level(&level, Dialect::V710).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let back = WmpText::read(&v.write().unwrap()).unwrap();
    assert!(back.validate().is_empty(), "{:?}", back.validate());
    let (again, _) = back.to_level();
    assert_eq!(again.groups.len(), 5);
    assert_eq!(again.groups[1].transform.position, [10.0, 20.0, 30.0]);
    assert_eq!(
        again.groups[1].transform.angles,
        [HALF_PI_AS_WRITTEN, 0.0, 0.0]
    );
    assert_eq!(again.entities[0].transform.scale, [1.5; 3]);

    // An unresolved level is refused as $$M.
    let err = WmpText::from_level(&hand_made(), Dialect::DollarM).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported);
}

const ODD: &str = "// WMP2\n// hand edited\n\nversion 710\n\nblocks 1\nentities 1\nobjects 1\n\n\
block 0 {\n  vertices 4 // four\n\tfaces 4\n\t0 0 0   1 0 0   0 1 0\n\t0 0 1\n\
\t3  0 1 2 : a ( 1 0 0 0 ) ( 0 1 0 0 ) 0 0 0 1 1 : 0000 0 50 ndef  // face 1\n\
\t3  0 1 3 : a ( 1 0 0 0 ) ( 0 1 0 0 ) 0 0 0 1 1 : 0000 0 50 ndef\n\
\t3  0 2 3 : a ( 1 0 0 0 ) ( 0 1 0 0 ) 0 0 0 1 1 : 0000 0 50 ndef\n\
\t3  1 2 3 : a ( 1 0 0 0 ) ( 0 1 0 0 ) 0 0 0 1 1 : 0000 0 50 ndef\n\
\t{\n\t\t0000\n\t\tndef\n\t\t0\n\t}\n}\n\n\
level 0 {\n\t<x.$$w>\n\t<palette.pcx>\n\t30\n\t0\n\t60\n\t<ndef>\n\t0 0 0\n}\n\n\
object 0 {  //Root  \n\t(0 0 0) (0 0 0) (1 1 1)\n\tblock 0\n\tlevel 0\n}\n// the end";

#[test]
fn odd_layout_survives_edits() {
    let model = WmpText::read(ODD.as_bytes()).unwrap();
    assert_eq!(model.write().unwrap(), ODD.as_bytes());
    assert_eq!(model.header.comments, ["// WMP2", "// hand edited"]);
    let Record::Block(b) = &model.records[0] else {
        panic!()
    };
    assert_eq!(b.layout.trivia.len(), 3, "{:?}", b.layout);
    let Record::Group(g) = &model.records[2] else {
        panic!()
    };
    assert_eq!(g.name.as_deref(), Some("Root"));

    // A value edited in JSON is written in place; the comments stay.
    let json = serde_json::to_string(&model).unwrap();
    let json = json.replacen("\"texture\":\"a\"", "\"texture\":\"bricks\"", 1);
    let edited: WmpText = serde_json::from_str(&json).unwrap();
    let out = String::from_utf8(edited.write().unwrap()).unwrap();
    assert_eq!(out, ODD.replacen(": a (", ": bricks (", 1));

    // Renaming the group rewrites its header comment; the odd spacing before it goes.
    let mut renamed = model.clone();
    let Record::Group(g) = &mut renamed.records[2] else {
        panic!()
    };
    g.name = Some("Top".into());
    let out = String::from_utf8(renamed.write().unwrap()).unwrap();
    assert!(out.contains("object 0 {  // Top\n\t(0 0 0)"), "{out}");
    assert_eq!(
        WmpText::read(out.as_bytes())
            .unwrap()
            .groups()
            .next()
            .unwrap()
            .name
            .as_deref(),
        Some("Top")
    );

    // A face added: the block is written in the canonical layout, its comments go with it.
    let mut grown = model.clone();
    let Record::Block(b) = &mut grown.records[0] else {
        panic!()
    };
    let face = b.faces[0].clone();
    b.faces.push(face);
    let out = String::from_utf8(grown.write().unwrap()).unwrap();
    assert!(
        out.contains("block 0 {\n\tvertices 4\n\tfaces 5\n"),
        "{out}"
    );
    assert!(!out.contains("// face 1") && out.contains("// the end"));
    assert_eq!(
        WmpText::read(out.as_bytes())
            .unwrap()
            .blocks()
            .next()
            .unwrap()
            .faces
            .len(),
        5
    );

    // Unwritable edits are refused with the record's path.
    let mut bad = model.clone();
    let Record::Block(b) = &mut bad.records[0] else {
        panic!()
    };
    b.faces[0].texture = "two words".into();
    let err = bad.write().unwrap_err();
    assert_eq!(err.location.path.as_deref(), Some("records[0]"));
    assert!(bad.validate().iter().any(|w| w.severity == Severity::Error));
    let mut bad = model.clone();
    let Record::Block(b) = &mut bad.records[0] else {
        panic!()
    };
    b.faces[0].vectors = None;
    assert!(bad.write().unwrap_err().message.contains("texture vectors"));
}

#[test]
fn numbers_keep_their_spelling() {
    let model = WmpText::read(ODD.as_bytes()).unwrap();
    let Record::Level(l) = &model.records[1] else {
        panic!()
    };
    assert_eq!(
        l.sun.iter().map(Num::as_str).collect::<Vec<_>>(),
        ["30", "0", "60"]
    );
    let json = serde_json::to_value(&model).unwrap();
    assert_eq!(json["records"][1]["level"]["sun"][0], "30");
    assert_eq!(json["dialect"], "v710");
    assert_eq!(json["line_ending"], "lf");
}

#[test]
fn errors_say_where_and_what() {
    let cases: [(&str, (u32, u32), &str); 8] = [
        ("", (1, 1), "expected 'version'"),
        ("version 999\n", (1, 9), "version 999"),
        (
            "version 710\nblocks x\n",
            (2, 8),
            "expected the block count, found 'x'",
        ),
        (
            "version 711\n{ 0\n\ta.$$w\n\tpalette.pcx\n\t{ vertices 1 faces 1 0 0 0 3 0 0 0 a",
            (5, 37),
            "':' after the face's vertex indices",
        ),
        (
            "version 711\n{ 3\n 0 0 0\n",
            (4, 1),
            "expected a model angle, found the end of the file",
        ),
        (
            "version 710\nblocks 0\nentities 0\nobjects 0\nlevel 0 {\n\t<a.$$w\n}",
            (6, 2),
            "expected '>'",
        ),
        (
            "version 710\nblocks 0\nentities 0\nobjects 0\nobject 0 {\n\t(0 0) (0 0 0) (1 1 1)\n}",
            (6, 6),
            "a number of the group position",
        ),
        (
            "version 710\nblocks 0\nentities 0\nobjects 0\nwed {\n",
            (5, 5),
            "expected '}' closing the section",
        ),
    ];
    for (src, at, message) in cases {
        let e = text::read(src.as_bytes()).unwrap_err();
        assert_eq!(e.location.line_col, Some(at), "{src:?}: {e}");
        assert!(e.to_string().contains(message), "{src:?}: {e}");
    }
    let e = text::read(b"version 711\n{ 3\n 0 0 0\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert!(text::read(b"WMPB\x01\x04\x05\x00").unwrap_err().kind == ErrorKind::Unsupported);
}

#[test]
fn limits_bound_the_work() {
    // A huge declared count with nothing behind it fails fast at the end of the input.
    let src = b"version 711\n{ 0 a b { vertices 4000000000 faces 1\n";
    let e = text::read_with(src, &Limits::strict()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    let src = b"version 711\n{ 0 a b { vertices 100000 faces 1\n";
    assert_eq!(
        text::read_with(src, &Limits::strict()).unwrap_err().kind,
        ErrorKind::Truncated
    );
    // Memory is charged per token: a tight budget refuses a big file.
    let big = format!("version 711\n{{ 9 {} }}\n", "0 ".repeat(100_000));
    let tight = Limits {
        max_alloc: 1 << 20,
        ..Limits::strict()
    };
    assert_eq!(
        text::read_with(big.as_bytes(), &tight).unwrap_err().kind,
        ErrorKind::LimitExceeded
    );
    assert!(text::read_with(big.as_bytes(), &Limits::strict()).is_ok());
    // Braces nest only as deep as the limit allows.
    let deep = format!(
        "version 711\n{{ 9 {}{} }}\n",
        "{ ".repeat(100),
        "} ".repeat(100)
    );
    assert_eq!(
        text::read_with(deep.as_bytes(), &Limits::strict())
            .unwrap_err()
            .kind,
        ErrorKind::LimitExceeded
    );
}

#[test]
fn lenient_variations_read_and_warn() {
    // A $$M light with four fields, a type 7 model with MapBuilder's extra lines, an unknown
    // record type, a level without a sun record.
    let src = "// Exported by MapBuilder for 3D GameStudio\r\n\r\nversion 711\r\n\r\n\r\n\
{ //level\r\n\t0\r\n\tm.$$w\r\n\tmpalette.pcx\r\n}\r\n\
{ //light\r\n\t2\r\n\t0 0 0\r\n\t0 0 0\r\n\t100 100 100 200\r\n}\r\n\
{ //model\r\n\t7\r\n\t0 0 0\r\n\t0 0 0\r\n\t1 1 1\r\n\ttree.mdl\r\n\ttree_001\r\n\tndef\r\n\
\t0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\r\n\t00000000000000000000000100000000\r\n\t0\r\n\t50\r\n\
\t0\r\n\t0\r\n\tndef\r\n\ttree_shadow.dds\r\n\tx\r\n\tmore\r\n}\r\n\
{ //sound\r\n\t4\r\n\t1 2 3\r\n\tsea.wav\r\n}\r\n";
    let model = WmpText::read(src.as_bytes()).unwrap();
    assert_eq!(model.write().unwrap(), src.as_bytes());
    assert_eq!(
        model.summary().editor.as_deref(),
        Some("Exported by MapBuilder for 3D GameStudio")
    );
    let Record::MModel(m) = &model.records[2] else {
        panic!()
    };
    assert_eq!(
        (m.string1.as_deref(), m.string2.as_deref()),
        (Some("tree_shadow.dds"), Some("x"))
    );
    assert_eq!(m.extra, ["more"]);
    let findings: Vec<String> = model.validate().iter().map(|w| w.to_string()).collect();
    for expected in [
        "four light fields",
        "string1/string2",
        "without a known meaning",
        "type 4",
        "0 sun records",
    ] {
        assert!(
            findings.iter().any(|f| f.contains(expected)),
            "{expected}: {findings:#?}"
        );
    }
    let (level, warnings) = model.to_level();
    assert!(warnings.is_empty());
    assert_eq!(level.entities.len(), 3);
    assert_eq!(level.entities[2].kind, EntityKind::Other);
    assert_eq!(level.entities[2].fields["type"], 4);
}

#[test]
fn validate_reports_broken_references_and_counts() {
    let src = ODD
        .replace("blocks 1", "blocks 2")
        .replace(
            "\tblock 0\n\tlevel 0",
            "\tblock 0, 7\n\tmodel 0\n\tobject 0",
        )
        .replace("3  1 2 3 :", "3  1 2 9 :");
    let model = WmpText::read(src.as_bytes()).unwrap();
    let findings: Vec<String> = model.validate().iter().map(|w| w.to_string()).collect();
    for expected in [
        "the header says blocks 2; the file has 1",
        "vertex index 9 is out of range",
        "lists block 7, which does not exist",
        "lists model 0, but entity 0 is a level",
        "the root group does not hold the level entity",
        "holds group 0, which holds it: a cycle",
    ] {
        assert!(
            findings.iter().any(|f| f.contains(expected)),
            "{expected}: {findings:#?}"
        );
    }
    assert!(
        model
            .validate()
            .iter()
            .any(|w| w.severity == Severity::Error)
    );
}

/// Found by the fuzzer: a WAD name with a `>` cannot go inside `<…>`. `from_level` refuses
/// what it could not write instead of returning a file that does not write.
#[test]
fn from_level_refuses_unwritable_names() {
    let mut level = hand_made();
    level.settings.wad = Some("A<block.$$w>".into());
    let e = WmpText::from_level(&level, Dialect::V710).unwrap_err();
    assert!(e.message.contains("not a single token"), "{e}");
    assert!(
        e.location
            .path
            .as_deref()
            .is_some_and(|p| p.starts_with("records[")),
        "{e}"
    );
    let mut level = hand_made();
    level.entities[2].name = Some("two words".into());
    assert!(WmpText::from_level(&level, Dialect::V710).is_err());
}

/// Optional model fields are read in order: `from_level` fills the gaps before a later one.
#[test]
fn from_level_packs_optional_fields() {
    let mut level = hand_made();
    level.groups.clear();
    level.angles_in_degrees = true;
    for b in &mut level.blocks {
        for f in &mut b.faces {
            f.texture_transform = None;
        }
    }
    let fields = &mut level.entities[0].fields;
    fields.clear();
    fields.insert("type".into(), serde_json::json!(3));
    fields.insert("string2".into(), serde_json::json!("shadow.dds"));
    let (m, _) = WmpText::from_level(&level, Dialect::DollarM).unwrap();
    let back = WmpText::read(&m.write().unwrap()).unwrap();
    assert_eq!(back, m);
    let Some(Record::MModel(model)) = back.records.iter().find(|r| matches!(r, Record::MModel(_)))
    else {
        panic!()
    };
    assert_eq!(model.type_id, 3);
    assert_eq!(model.string2.as_deref(), Some("shadow.dds"));
    assert_eq!(model.material.as_deref(), Some("ndef"));
    assert_eq!(model.albedo.as_ref().map(Num::as_str), Some("50"));
}

/// Found by the fuzzer: a header comment line ending in two carriage returns (`// a\r\r\n`)
/// kept one of them in the comment, which no line ending can write back, so the header's kept
/// layout was thrown away and the file did not come back byte for byte.
#[test]
fn header_comments_ending_in_carriage_returns_come_back() {
    for src in [
        &b"\n\n// a\r\r\n\n// b\nversion 711\n"[..],
        b"// a\r\r\r\n\r\nversion 711\r\n",
        b"\n\n//\x00\x01\"\"\r\r\n\n//\x00\x01\x01\x00ers'\x00i\nversion 711//\x00\x01er71\x00\x00",
    ] {
        let model = WmpText::read(src).unwrap();
        assert_eq!(model.write().unwrap(), src, "{model:#?}");
    }
}

mod properties {
    //! Property tests: the sample room with moved vertices and renamed textures through every
    //! dialect, and edited files.

    use super::*;
    use proptest::prelude::*;

    /// The sample room with each vertex moved by a multiple of 1/4 (which six decimals keep)
    /// and each face's texture renamed.
    fn room(seed: u64) -> Level {
        let mut rng = common::Rng(seed);
        let mut level = levelkit::formats::wmp::samples::room();
        for block in &mut level.blocks {
            for v in &mut block.vertices {
                for c in v.iter_mut() {
                    *c += (rng.below(4096) as f64 - 2048.0) / 4.0;
                }
            }
            for face in &mut block.faces {
                face.texture = format!("tex{}", rng.below(1000));
            }
        }
        level
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Level → text → level reaches a fixed point after one pass in both dialects we write
        /// (v710 and `$$M`): the second pass writes the same bytes and reads the same level.
        #[test]
        fn levels_reach_a_fixed_point(seed in 1u64.., dollar_m: bool) {
            let dialect = if dollar_m { Dialect::DollarM } else { Dialect::V710 };
            // A `$$M` holds a resolved level: the room is compiled to it first.
            let (first, _) = if dollar_m {
                levelkit::formats::wmp::compile(&room(seed)).unwrap()
            } else {
                WmpText::from_level(&room(seed), dialect).unwrap()
            };
            let first_bytes = first.write().unwrap();
            let read = WmpText::read(&first_bytes).unwrap();
            prop_assert_eq!(read.write().unwrap(), first_bytes.clone());
            let (level, _) = read.to_level();
            let (second, _) = WmpText::from_level(&level, dialect).unwrap();
            let second_bytes = second.write().unwrap();
            prop_assert_eq!(&second_bytes, &first_bytes);
            prop_assert!(WmpText::read(&second_bytes).unwrap().to_level().0 == level);
        }

        /// The v710 room with bytes overwritten by printable text anywhere: never a panic, and
        /// whatever still reads is written back byte for byte.
        #[test]
        fn edited_text_is_refused_or_kept(
            edits in prop::collection::vec((any::<prop::sample::Index>(), 0x20u8..0x7f), 1..6)
        ) {
            let (text, _) = WmpText::from_level(&room(1), Dialect::V710).unwrap();
            let mut bytes = text.write().unwrap();
            for (at, value) in edits {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(model) = WmpText::read(&bytes) {
                prop_assert_eq!(model.write().unwrap(), bytes);
            }
        }
    }
}
