//! WMPB: the real files (`$LEVELKIT_CORPUS/wmp/wmpb`, skipped when unset) read to their last
//! byte and write back byte for byte, through JSON too; resolved against the `$$M` WED wrote
//! from the same level; hostile input (every prefix, random mutations, huge counts, deep
//! nesting); and the group conventions on the sample level.

use crate::common;
use crate::common::Rng;

use std::path::{Path, PathBuf};

use levelkit::formats::wmp::binary::{self, Body, Bytes, Record, Wmpb, samples};
use levelkit::formats::wmp::resolve::{self, engine_rotation, source_rotation};
use levelkit::formats::wmp::{EntityKind, Level, text};
use levelkit::{ErrorKind, Limits, Severity};

/// Every file under `dir` that starts with `WMPB`.
fn wmpb_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(wmpb_files(&path));
        } else if std::fs::read(&path).unwrap().starts_with(b"WMPB") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn corpus_files_read_to_the_last_byte_and_round_trip() {
    let Some(dir) = common::corpus_or_skip("wmp", "the WMPB corpus") else {
        return;
    };
    let files = wmpb_files(&dir);
    assert!(
        files.len() >= 2,
        "only {} WMPB files under {}",
        files.len(),
        dir.display()
    );
    for path in &files {
        let name = name(path);
        let bytes = std::fs::read(path).unwrap();
        let wmpb = binary::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let summary = wmpb.summary();
        eprintln!("{name}: {}", serde_json::to_string(&summary).unwrap());
        assert_eq!(summary.version, Some(710), "{name}");
        assert_eq!(summary.unknown_records, 0, "{name}: records kept raw");
        let findings = wmpb.validate();
        for w in &findings {
            eprintln!("{name}: {w}");
        }
        assert!(findings.is_empty(), "{name}: {} findings", findings.len());
        let header = wmpb.header().unwrap();
        assert_eq!(header.blocks as usize, summary.blocks, "{name}");
        assert_eq!(wmpb.palette().map(|p| p.len()), Some(768), "{name}");
        assert_eq!(wmpb.write().unwrap(), bytes, "{name}: written bytes differ");

        // JSON → model → bytes, exactly.
        let json = serde_json::to_string(&wmpb).unwrap();
        let back: Wmpb = serde_json::from_str(&json).unwrap();
        assert!(back == wmpb, "{name}: the model changed through JSON");
        assert_eq!(
            back.write().unwrap(),
            bytes,
            "{name}: bytes changed through JSON"
        );

        // Allocation stays in proportion to the input.
        let tight = Limits {
            max_alloc: bytes.len() * 16,
            ..Limits::strict()
        };
        binary::read_with(&bytes, &tight).unwrap_or_else(|e| panic!("{name}: {e}"));

        let (level, warnings) = wmpb.to_level();
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        assert_eq!(level.blocks.len(), summary.blocks, "{name}");
    }
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn flat3(m: [[f64; 3]; 3]) -> Vec<f64> {
    m.iter().flatten().copied().collect()
}

/// Our reading plus our resolution against the `$$M` WED wrote from the same level, read by
/// the library's text reader.
#[test]
fn resolved_levels_match_the_dollar_m_wed_wrote() {
    let Some(dir) = common::corpus_or_skip("wmp", "the WMPB corpus") else {
        return;
    };
    let mut pairs = 0;
    for path in wmpb_files(&dir) {
        let oracle = path.with_extension("$$M");
        if !oracle.is_file() {
            continue;
        }
        pairs += 1;
        let name = name(&path);
        let wmpb = binary::read(&std::fs::read(&path).unwrap()).unwrap();
        let (level, warnings) = wmpb.to_level();
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        let (world, warnings) = resolve::resolve(&level);
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        assert!(world.angles_in_degrees && world.groups.is_empty());
        let m = text::read(&std::fs::read(&oracle).unwrap()).unwrap();
        let (m, _) = m.to_level();
        assert!(m.angles_in_degrees);

        // The sun: the `$$M` has the last two of the three numbers.
        assert_eq!(
            world.settings.sun.get(1..),
            Some(m.settings.sun.as_slice()),
            "{name}: sun"
        );
        assert_eq!(
            world.settings.palette, m.settings.palette,
            "{name}: palette"
        );

        // Blocks: count, vertices, faces, textures, texture vectors, flags.
        assert_eq!(world.blocks.len(), m.blocks.len(), "{name}: blocks");
        let (mut worst, mut worst_tv) = (0.0f64, 0.0f64);
        for (i, (ours, theirs)) in world.blocks.iter().zip(&m.blocks).enumerate() {
            assert!(ours.transform.is_identity());
            assert_eq!(
                ours.vertices.len(),
                theirs.vertices.len(),
                "{name} block {i}"
            );
            for (a, b) in ours.vertices.iter().zip(&theirs.vertices) {
                worst = worst.max(max_diff(a, b));
            }
            assert_eq!(ours.faces.len(), theirs.faces.len(), "{name} block {i}");
            for (k, (f, g)) in ours.faces.iter().zip(&theirs.faces).enumerate() {
                let at = format!("{name} block {i} face {k}");
                assert_eq!(f.indices, g.indices, "{at}");
                let cut: String = f.texture.chars().take(text::DOLLAR_M_TEXTURE_LEN).collect();
                assert_eq!(cut, g.texture, "{at}");
                let (v, w) = (f.texture_vectors.unwrap(), g.texture_vectors.unwrap());
                worst_tv = worst_tv.max(max_diff(&v.concat(), &w.concat()));
                assert_eq!(
                    resolve::parse_flags(&f.flags),
                    resolve::parse_flags(&g.flags),
                    "{at}"
                );
                assert_eq!((f.ambient, f.albedo), (g.ambient, g.albedo), "{at}");
                assert_eq!(f.material, g.material, "{at}");
            }
            assert_eq!(
                resolve::parse_flags(&ours.flags),
                resolve::parse_flags(&theirs.flags),
                "{name} block {i}"
            );
            assert_eq!(ours.function, theirs.function, "{name} block {i}");
        }
        println!(
            "{name}: {} blocks, worst vertex difference {worst:.3e}, worst texture vector \
             difference {worst_tv:.3e}",
            m.blocks.len()
        );
        assert!(worst < 0.01, "{name}: worst vertex difference {worst}");
        assert!(
            worst_tv < 0.01,
            "{name}: worst texture vector difference {worst_tv}"
        );

        // Entities: count, order, kind, names, fields; position, rotation, scale; paths.
        assert_eq!(world.entities.len(), m.entities.len(), "{name}: entities");
        let (mut worst_pos, mut worst_rot, mut worst_ang) = (0.0f64, 0.0f64, 0.0f64);
        for (i, (e, d)) in world.entities.iter().zip(&m.entities).enumerate() {
            let what = format!("{name} entity {i} ({:?})", e.name);
            assert_eq!(e.kind, d.kind, "{what}");
            assert_eq!(e.name, d.name, "{what}");
            assert_eq!(e.file, d.file, "{what}");
            for key in ["type", "action", "flags", "skills", "material"] {
                assert_eq!(e.fields.get(key), d.fields.get(key), "{what}: {key}");
            }
            for key in ["ambient", "albedo"] {
                let number = |v: Option<&serde_json::Value>| v.and_then(|v| v.as_f64());
                if d.fields.contains_key(key) {
                    assert_eq!(
                        number(e.fields.get(key)),
                        number(d.fields.get(key)),
                        "{what}"
                    );
                }
            }
            if let (Some((c, r)), Some((dc, dr))) = (e.light, d.light) {
                assert!(
                    max_diff(&c, &dc) < 1e-4 && r == dr,
                    "{what}: {c:?} {r} vs {dc:?} {dr}"
                );
            }
            assert_eq!(e.light.is_some(), d.light.is_some(), "{what}");
            assert_eq!(e.path_nodes.len(), d.path_nodes.len(), "{what}");
            for (a, b) in e.path_nodes.iter().zip(&d.path_nodes) {
                worst_pos = worst_pos.max(max_diff(a, b));
            }
            assert_eq!(e.path_edges.len(), d.path_edges.len(), "{what}");
            for (a, b) in e.path_edges.iter().zip(&d.path_edges) {
                assert!(max_diff(a, b) < 0.01, "{what}: edge {a:?} vs {b:?}");
            }
            if e.kind == EntityKind::Path {
                continue;
            }
            worst_pos = worst_pos.max(max_diff(&e.transform.position, &d.transform.position));
            assert!(
                max_diff(&e.transform.scale, &d.transform.scale) < 1e-4,
                "{what}: scale"
            );
            // Compare rotations, not angle triples: at tilt ±90° pan and roll trade places.
            let r = max_diff(
                &flat3(engine_rotation(e.transform.angles)),
                &flat3(engine_rotation(d.transform.angles)),
            );
            worst_rot = worst_rot.max(r);
            // The triples too, modulo 360, as WED decomposes (pan 0 when gimbal-locked).
            for (a, b) in e.transform.angles.iter().zip(&d.transform.angles) {
                let diff = (a - b).rem_euclid(360.0);
                worst_ang = worst_ang.max(diff.min(360.0 - diff));
            }
        }
        println!(
            "{name}: {} entities, worst position difference {worst_pos:.3e}, worst rotation \
             matrix difference {worst_rot:.2e}, worst angle difference {worst_ang:.4}°",
            m.entities.len()
        );
        assert!(
            worst_pos < 0.01,
            "{name}: worst position difference {worst_pos}"
        );
        assert!(
            worst_rot < 1e-3,
            "{name}: worst rotation difference {worst_rot}"
        );
        assert!(
            worst_ang < 0.01,
            "{name}: worst angle difference {worst_ang}"
        );
    }
    assert!(pairs >= 2, "only {pairs} WMPB levels with a $$M");
}

fn try_read(bytes: &[u8]) -> Result<Wmpb, levelkit::Error> {
    let result = binary::read_with(bytes, &Limits::strict());
    match &result {
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("wmpb: "), "{msg}");
            assert!(
                e.location.offset.is_some(),
                "error without an offset: {msg}"
            );
        }
        // Whatever reads is written back exactly.
        Ok(w) => assert_eq!(w.write().unwrap(), bytes),
    }
    result
}

fn sample_bytes() -> Vec<u8> {
    samples::level().write().unwrap()
}

/// Every strict prefix is an error with an offset.
fn sweep_prefixes(bytes: &[u8]) {
    for len in 0..bytes.len() {
        assert!(
            try_read(&bytes[..len]).is_err(),
            "a prefix of {len} bytes was accepted"
        );
    }
    assert!(try_read(bytes).is_ok());
}

#[test]
fn every_prefix_is_an_error() {
    sweep_prefixes(&sample_bytes());
    let Some(dir) = common::corpus_or_skip("wmp", "the WMPB corpus") else {
        return;
    };
    for path in wmpb_files(&dir) {
        sweep_prefixes(&std::fs::read(path).unwrap());
    }
}

/// Random byte changes (often in size and count fields) never panic; what reads writes back.
fn mutate(bytes: &[u8], rounds: usize, rng: &mut Rng) -> (usize, usize) {
    let (mut ok, mut err) = (0, 0);
    for _ in 0..rounds {
        let mut b = bytes.to_vec();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(b.len());
            b[at] = match rng.below(4) {
                0 => 0xff,
                1 => 0,
                _ => rng.next() as u8,
            };
        }
        match try_read(&b) {
            Ok(w) => {
                ok += 1;
                let _ = w.validate();
                let _ = w.summary();
                let (level, _) = w.to_level();
                let _ = resolve::resolve(&level);
            }
            Err(_) => err += 1,
        }
    }
    (ok, err)
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (ok, err) = mutate(&sample_bytes(), 3000, &mut rng);
    assert!(ok > 0 && err > 0, "{ok} read, {err} refused");
    // Pure noise after the magic.
    for _ in 0..500 {
        let mut b = b"WMPB".to_vec();
        b.extend((0..rng.below(300)).map(|_| rng.next() as u8));
        let _ = try_read(&b);
    }
    let Some(dir) = common::corpus_or_skip("wmp", "the WMPB corpus") else {
        return;
    };
    for path in wmpb_files(&dir) {
        let (ok, err) = mutate(&std::fs::read(&path).unwrap(), 300, &mut rng);
        eprintln!("{}: {ok} mutants read, {err} refused", name(&path));
    }
}

fn record(id: u8, kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![id, kind, kind + 1, 0];
    out.extend(((payload.len() + 8) as u32).to_le_bytes());
    out.extend(payload);
    out
}

/// A file whose root object holds `inner` after an 8-byte prefix.
fn file_with_root(inner: &[u8]) -> Vec<u8> {
    let mut payload = vec![0u8; 8];
    payload.extend(inner);
    let mut out = b"WMPB".to_vec();
    out.extend(record(1, 5, &payload));
    out
}

#[test]
fn huge_counts_are_kept_raw_without_allocating() {
    // A block geometry whose vertex record claims u32::MAX points.
    let mut points = u32::MAX.to_le_bytes().to_vec();
    points.extend([0u8; 24]);
    let mut geometry = vec![0u8; 8];
    geometry.extend(record(1, 2, &points));
    let object = record(2, 5, &geometry);
    let bytes = file_with_root(&object);
    let tiny = Limits {
        max_alloc: 4096,
        ..Limits::strict()
    };
    let w = binary::read_with(&bytes, &tiny).unwrap();
    let geo = &w.records[0].children()[0].children()[0];
    assert!(matches!(geo.body, Body::Raw { .. }), "{geo:?}");
    assert_eq!(w.summary().unknown_records, 1);
    assert!(
        w.validate()
            .iter()
            .any(|f| f.message.contains("expected form")),
        "{:#?}",
        w.validate()
    );
    assert_eq!(w.write().unwrap(), bytes);

    // A record that claims more bytes than its parent has.
    let mut bad = file_with_root(&record(2, 1, b"level\0"));
    bad[8] = 0xff;
    let e = binary::read(&bad).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert_eq!(e.location.offset, Some(4));
    assert_eq!(e.location.path.as_deref(), Some("records[0]"));

    // A size below the header.
    let mut bad = file_with_root(&[]);
    bad[8] = 3;
    assert_eq!(binary::read(&bad).unwrap_err().kind, ErrorKind::Malformed);
}

#[test]
fn nesting_is_bounded() {
    // Objects in objects, deeper than the strict limit.
    let depth = Limits::strict().max_depth + 4;
    let mut inner = Vec::new();
    for _ in 0..depth {
        let mut payload = vec![0u8; 8];
        payload.extend(&inner);
        inner = record(1, 5, &payload);
    }
    let mut bytes = b"WMPB".to_vec();
    bytes.extend(&inner);
    let e = binary::read_with(&bytes, &Limits::strict()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert!(binary::read(&bytes).is_ok());
}

fn f64s(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// One table of (where, record, payload bytes) drives reading and writing: each record is put
/// in a file at its place (inside a root object, a block geometry, model data or path data),
/// read back to the same model, and written to the same bytes.
#[test]
fn record_cases_read_and_write() {
    use binary::{Edge, F64};
    use levelkit::strings::RawString;
    let d = |v: &[f64]| v.iter().map(|&x| F64(x)).collect::<Vec<F64>>();
    let u32s = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    // Where: 0 in the root object, 1 in a block geometry, 2 in model data, 3 in path data.
    let cases: Vec<(u8, Record, Vec<u8>)> = vec![
        (
            0,
            Record::new(
                1,
                0,
                Body::Doubles {
                    values: d(&[1.0, -0.0, 2.5]),
                },
            ),
            f64s(&[1.0, -0.0, 2.5]),
        ),
        (
            0,
            Record::new(
                2,
                1,
                Body::Text {
                    text: RawString::new(*b"model"),
                },
            ),
            b"model\0".to_vec(),
        ),
        (
            0,
            Record::new(4, 3, Body::Value { value: 0x0132_64ff }),
            vec![0xff, 0x64, 0x32, 0x01],
        ),
        // Not the expected forms: kept raw.
        (
            0,
            Record::new(
                2,
                1,
                Body::Raw {
                    bytes: Bytes(b"a\0b\0".to_vec()),
                },
            ),
            b"a\0b\0".to_vec(),
        ),
        (
            0,
            Record::new(
                1,
                0,
                Body::Raw {
                    bytes: Bytes(vec![1; 7]),
                },
            ),
            vec![1; 7],
        ),
        (
            0,
            Record::new(
                3,
                3,
                Body::Raw {
                    bytes: Bytes(vec![1, 2]),
                },
            ),
            vec![1, 2],
        ),
        (
            0,
            Record::new(
                99,
                2,
                Body::Raw {
                    bytes: Bytes(vec![9; 5]),
                },
            ),
            vec![9; 5],
        ),
        (
            0,
            Record::new(
                5,
                9,
                Body::Raw {
                    bytes: Bytes(vec![]),
                },
            ),
            vec![],
        ),
        (
            1,
            Record::new(
                1,
                2,
                Body::Points {
                    points: vec![[F64(1.0), F64(2.0), F64(3.0)]],
                },
            ),
            [u32s(&[1]), f64s(&[1.0, 2.0, 3.0])].concat(),
        ),
        (
            1,
            Record::new(
                17,
                2,
                Body::Polygons {
                    polygons: vec![vec![2, 1, 0], vec![]],
                },
            ),
            [u32s(&[2]), vec![3, 0, 2, 0, 1, 0, 0, 0, 0, 0]].concat(),
        ),
        // A count the bytes do not hold.
        (
            1,
            Record::new(
                1,
                2,
                Body::Raw {
                    bytes: Bytes([u32s(&[2]), f64s(&[1.0, 2.0, 3.0])].concat()),
                },
            ),
            [u32s(&[2]), f64s(&[1.0, 2.0, 3.0])].concat(),
        ),
        (
            2,
            Record::new(
                11,
                2,
                Body::Counted {
                    values: d(&[4.0, 0.5]),
                },
            ),
            [u32s(&[2]), f64s(&[4.0, 0.5])].concat(),
        ),
        (
            3,
            Record::new(
                13,
                2,
                Body::Table {
                    rows: 1,
                    columns: 2,
                    values: d(&[7.0, 8.0]),
                },
            ),
            [u32s(&[1, 2]), f64s(&[7.0, 8.0])].concat(),
        ),
        (
            3,
            Record::new(
                15,
                2,
                Body::Edges {
                    edges: vec![Edge {
                        from: 0,
                        to: 1,
                        values: [F64(1.0), F64(0.0), F64(0.0), F64(2.0)],
                    }],
                },
            ),
            [u32s(&[1, 0, 1]), f64s(&[1.0, 0.0, 0.0, 2.0])].concat(),
        ),
    ];
    for (i, (place, rec, payload)) in cases.into_iter().enumerate() {
        let bytes_of = |r: &Record| {
            let mut out = vec![r.id, r.kind, r.kind + 1, 0];
            out.extend((payload.len() as u32 + 8).to_le_bytes());
            out.extend(&payload);
            out
        };
        let own = bytes_of(&rec);
        // Wrap in the containers that give the record its place.
        let (inner, model_inner) = match place {
            0 => (own.clone(), rec.clone()),
            _ => {
                let (id, prefix) = match place {
                    1 => (2, 8),
                    2 => (9, 20),
                    _ => (10, 8),
                };
                let mut payload = vec![0u8; prefix];
                payload.extend(&own);
                let wrapped = record(id, 5, &payload);
                let model = Record::new(
                    id,
                    5,
                    Body::Container {
                        prefix: Bytes(vec![0; prefix]),
                        children: vec![rec.clone()],
                    },
                );
                (wrapped, model)
            }
        };
        let file = file_with_root(&inner);
        let expected = Wmpb {
            records: vec![Record::new(
                1,
                5,
                Body::Container {
                    prefix: Bytes(vec![0; 8]),
                    children: vec![model_inner],
                },
            )],
        };
        let read = binary::read(&file).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(read, expected, "case {i}: read");
        assert_eq!(expected.write().unwrap(), file, "case {i}: write");
    }
}

#[test]
fn the_sample_reads_validates_and_survives_json() {
    let bytes = sample_bytes();
    let w = binary::read(&bytes).unwrap();
    assert_eq!(w, samples::level());
    assert!(w.validate().is_empty(), "{:#?}", w.validate());
    let json = serde_json::to_string_pretty(&w).unwrap();
    let back: Wmpb = serde_json::from_str(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    let s = w.summary();
    assert_eq!(
        (s.blocks, s.faces, s.groups, s.unknown_records),
        (2, 12, 1, 0)
    );
    assert_eq!(s.entities.get("model"), Some(&1));

    // Non-finite doubles and odd header bytes round-trip through JSON as well.
    let mut odd = w.clone();
    let Body::Container { children, .. } = &mut odd.records[3].body else {
        panic!()
    };
    children[2].body = Body::Doubles {
        values: vec![f64::NAN.into(), f64::NEG_INFINITY.into(), (-0.0).into()],
    };
    children[2].tag = [7, 9];
    odd.records.push(Record::new(
        99,
        42,
        Body::Raw {
            bytes: Bytes(vec![1, 2, 3]),
        },
    ));
    let json = serde_json::to_string(&odd).unwrap();
    let back: Wmpb = serde_json::from_str(&json).unwrap();
    assert_eq!(back, odd);
    let written = odd.write().unwrap();
    assert_eq!(binary::read(&written).unwrap().write().unwrap(), written);
    let findings = binary::read(&written).unwrap().validate();
    assert!(findings.iter().any(|f| f.message.contains("header bytes")));
    assert!(
        findings
            .iter()
            .any(|f| f.message.contains("unknown record"))
    );
    assert!(findings.iter().all(|f| f.location.path.is_some()));
}

#[test]
fn the_sample_converts_to_a_level() {
    let (level, warnings) = samples::level().to_level();
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(level.settings.sun, vec![30.0, 270.0, 45.0]);
    assert_eq!(level.settings.wad.as_deref(), Some("wad0001.wad"));
    assert_eq!(level.settings.script.as_deref(), Some("main.c"));
    assert_eq!(level.settings.colors.len(), 6);
    assert_eq!(level.groups.len(), 2);
    assert!(level.groups[0].holds_level);
    assert_eq!(level.groups[0].groups, vec![1]);
    assert_eq!(level.groups[1].blocks, vec![1]);
    assert_eq!(level.blocks[1].flags, "00000000000000010000000000000000");
    assert_eq!(
        level.blocks[1].faces[0].flags,
        "00010000000000000000000000000000"
    );
    let kinds: Vec<EntityKind> = level.entities.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [EntityKind::Light, EntityKind::Path, EntityKind::Model]
    );
    let numbers: Vec<u32> = level.entities.iter().map(|e| e.number).collect();
    assert_eq!(numbers, [1, 2, 3]);
    let light = level.entities[0].light.unwrap();
    assert!((light.0[0] - 71.764_705).abs() < 1e-5 && light.1 == 400.0);
    let model = &level.entities[2];
    assert_eq!(model.file.as_deref(), Some("guard.mdl"));
    assert_eq!(model.fields["action"], "patrol");
    assert_eq!(model.fields["flags"], "0000001000000000");
    assert_eq!(model.fields["type"], 3);
    assert_eq!(level.entities[1].path_edges[2][..3], [3.0, 1.0, 1.0]);
}

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    max_diff(&a, &b) < 1e-9
}

/// The conventions of `resolve` on the sample: a group at (100, 0, 0), pan 90°, scale 2,
/// holding a locked block at (10, 0, 0) and a model at (0, 10, 0) with pan 45°.
#[test]
fn resolution_follows_the_conventions() {
    let (level, _) = samples::level().to_level();
    let (world, warnings) = resolve::resolve(&level);
    assert!(warnings.is_empty(), "{warnings:#?}");

    // The unrotated block: translated only; its (unlocked) texture vectors are unchanged.
    let b0 = &world.blocks[0];
    assert!(close(b0.vertices[0], [-68.0, -32.0, 32.0]));
    assert_eq!(
        b0.faces[0].texture_vectors,
        level.blocks[0].faces[0].texture_vectors
    );
    assert_eq!(b0.faces[0].texture_transform, None);

    // The locked block in the group: local (32, -32, 32) + (10, 0, 0) = (42, -32, 32), scaled
    // by 2 = (84, -64, 64), turned by pan 90° = (64, 84, 64), moved to (164, 84, 64).
    let b1 = &world.blocks[1];
    assert!(
        close(b1.vertices[0], [164.0, 84.0, 64.0]),
        "{:?}",
        b1.vertices[0]
    );
    assert_eq!(b1.flags, "0000");
    assert_eq!(b1.faces[0].flags, "0000");
    // The texture follows the block: u and v at a world vertex are those at the local one.
    for (k, face) in b1.faces.iter().enumerate() {
        let local = level.blocks[1].faces[k].texture_vectors.unwrap();
        let moved = face.texture_vectors.unwrap();
        for &i in &face.indices {
            let (p, q) = (
                level.blocks[1].vertices[i as usize],
                b1.vertices[i as usize],
            );
            for (t, u) in local.iter().zip(&moved) {
                let a = t[0] * p[0] + t[1] * p[1] + t[2] * p[2] + t[3];
                let b = u[0] * q[0] + u[1] * q[1] + u[2] * q[2] + u[3];
                assert!((a - b).abs() < 1e-9, "face {k}: {a} vs {b}");
            }
        }
    }

    // The model: (0, 10, 0) scaled (0, 20, 0), turned (-20, 0, 0), moved (80, 0, 0); pan 135°,
    // scale 2.
    let model = &world.entities[2];
    assert!(
        close(model.transform.position, [80.0, 0.0, 0.0]),
        "{:?}",
        model.transform
    );
    assert!(
        close(model.transform.angles, [135.0, 0.0, 0.0]),
        "{:?}",
        model.transform
    );
    assert_eq!(model.transform.scale, [2.0; 3]);
    assert_eq!(model.group, None);

    // The path: nodes in world coordinates, edge lengths between them.
    let path = &world.entities[1];
    assert!(close(path.path_nodes[1], [30.0, 40.0, 64.0]));
    let lengths: Vec<f64> = path.path_edges.iter().map(|e| e[2]).collect();
    assert_eq!(lengths, [50.0, 12.0, resolve::single(2644f64.sqrt())]);

    // Resolving a resolved level changes nothing.
    let (again, _) = resolve::resolve(&world);
    assert_eq!(again, world);
}

#[test]
fn angle_conventions() {
    use std::f64::consts::{FRAC_PI_2, PI};
    // a0 is the pan, a2 the negated tilt (verified against the corpus $$M files).
    let r = source_rotation([0.0, 0.0, -FRAC_PI_2]);
    assert!(max_diff(&flat3(r), &flat3(engine_rotation([0.0, 90.0, 0.0]))) < 1e-12);
    let r = source_rotation([0.0, 0.0, -PI]);
    let a = resolve::engine_angles(&r);
    assert!(close(a, [180.0, 0.0, 180.0]), "{a:?}");
    // Gimbal lock: pan 0, the rest in roll (carpet2_mdl_090 of bosslevel: (0, 270, 90)).
    let a = resolve::engine_angles(&source_rotation([-FRAC_PI_2, 0.0, FRAC_PI_2]));
    assert!(close(a, [0.0, 270.0, 90.0]), "{a:?}");
    // Round trips away from the lock.
    for angles in [
        [10.0, 20.0, 30.0],
        [350.0, 300.0, 5.0],
        [180.0, 45.0, 270.0],
    ] {
        let back = resolve::engine_angles(&engine_rotation(angles));
        assert!(close(back, angles), "{angles:?} -> {back:?}");
    }
}

#[test]
fn a_level_in_degrees_is_left_alone() {
    let (level, _) = samples::level().to_level();
    let (world, _) = resolve::resolve(&level);
    let (same, warnings) = resolve::resolve(&world);
    assert_eq!(same, world);
    assert!(warnings.is_empty());
    // Groups in a level that says it is resolved are kept, with a warning.
    let odd = Level {
        angles_in_degrees: true,
        ..level
    };
    let (same, warnings) = resolve::resolve(&odd);
    assert_eq!(same, odd);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].severity, Severity::Warning);
    assert_eq!(warnings[0].location.path.as_deref(), Some("groups"));
}

mod properties {
    //! Property tests: the sample level with every value changed, and mutated files.

    use super::*;
    use proptest::prelude::*;

    /// Every double, text and value of `records` (recursively) replaced with the next ones of
    /// `rng`: finite doubles, NUL-free printable texts, any u32.
    fn perturb(records: &mut [Record], rng: &mut common::Rng) {
        for record in records {
            match &mut record.body {
                Body::Doubles { values } | Body::Counted { values } => {
                    for v in values.iter_mut() {
                        v.0 = (rng.next() as i64 as f64) / 65536.0;
                    }
                }
                Body::Text { text } => {
                    let len = rng.below(24);
                    let bytes: Vec<u8> = (0..len).map(|_| b' ' + rng.below(95) as u8).collect();
                    *text = levelkit::strings::RawString::new(bytes);
                }
                Body::Value { value } => *value = rng.next() as u32,
                Body::Container { children, .. } => perturb(children, rng),
                _ => {}
            }
        }
    }

    fn resized(records: &mut [Record]) {
        for record in records {
            if let Body::Container { children, .. } = &mut record.body {
                resized(children);
            }
            record.size = u32::try_from(record.encoded_len()).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The sample's structure with any values: model → bytes → model is the identity, and
        /// so is bytes → model → bytes.
        #[test]
        fn perturbed_levels_round_trip(seed in 1u64..) {
            let mut level = samples::level();
            perturb(&mut level.records, &mut common::Rng(seed));
            resized(&mut level.records);
            let bytes = level.write().unwrap();
            let back = binary::read(&bytes).unwrap();
            prop_assert_eq!(&back, &level);
            prop_assert_eq!(back.write().unwrap(), bytes);
        }

        /// The sample with bytes overwritten anywhere: never a panic, and whatever still reads
        /// is written back byte for byte.
        #[test]
        fn mutated_level_is_refused_or_kept(
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
        ) {
            let mut bytes = samples::level().write().unwrap();
            for (at, value) in flips {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(model) = binary::read(&bytes) {
                prop_assert_eq!(model.write().unwrap(), bytes);
            }
        }
    }
}
