//! `.wings`: the real-file corpus (`$LEVELKIT_CORPUS/wings`, skipped when unset), the bad files,
//! hostile inputs, the face walk and legacy versions.

use crate::common;
use std::path::{Path, PathBuf};

use levelkit::document::Model;
use levelkit::etf::{self, Compression, External, Term};
use levelkit::formats::wings::{self, Content, Polygon, Winged, Wings, samples};
use levelkit::{ErrorKind, Limits, Severity};

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.extension().is_some_and(|e| e == "wings") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn sample_bytes() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/cube.wings")).unwrap()
}

/// The decoded term of a file, straight from the codec.
fn decoded(bytes: &[u8]) -> External {
    etf::decode(&bytes[19..], &Limits::default()).unwrap()
}

#[test]
fn corpus_good_files_read_validate_and_round_trip() {
    let Some(dir) = common::corpus_or_skip("wings", "the .wings corpus") else {
        return;
    };
    let good: Vec<PathBuf> = files(&dir)
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "bad"))
        .collect();
    assert!(
        good.len() >= 15,
        "only {} good files under {}",
        good.len(),
        dir.display()
    );
    let (mut bytes_same, mut term_same, mut compressed) = (0, 0, 0);
    for path in &good {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let model = Wings::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let findings = model.validate();
        let errors: Vec<_> = findings
            .iter()
            .filter(|w| w.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        for w in &findings {
            eprintln!("{name}: {w}");
        }
        // The model stands for exactly the decoded term.
        let original = decoded(&bytes);
        assert!(
            model.to_term() == original.term,
            "{name}: the model's term differs"
        );
        let out = model.write().unwrap();
        if original.compression == Compression::Zlib {
            compressed += 1;
        }
        if out == bytes {
            bytes_same += 1;
        } else {
            assert_eq!(
                original.compression,
                Compression::Zlib,
                "{name}: an uncompressed file must come back byte for byte"
            );
            assert!(decoded(&out) == original, "{name}: written term differs");
            term_same += 1;
            eprintln!(
                "{name}: term-identical, bytes differ ({} vs {} bytes)",
                out.len(),
                bytes.len()
            );
        }
        // JSON: the dump reads back to the same model and the same bytes.
        let json = Model::Wings(model.clone()).to_json().unwrap();
        let back = Model::from_json(&json).unwrap();
        assert!(
            back == Model::Wings(model.clone()),
            "{name}: JSON round trip"
        );
        assert!(
            back.write().unwrap() == out,
            "{name}: JSON round trip bytes"
        );
        // Every face of every object walks.
        if let Some(doc) = model.document() {
            for shape in &doc.shapes {
                for (f, walk) in shape.mesh.faces_ccw().iter().enumerate() {
                    assert!(
                        walk.as_ref().is_ok_and(|c| c.len() >= 3),
                        "{name}: face {f}: {walk:?}"
                    );
                }
            }
        }
    }
    eprintln!(
        "wings corpus: {} good files ({compressed} compressed): {bytes_same} byte-identical, \
         {term_same} term-identical only",
        good.len()
    );
    assert_eq!(bytes_same + term_same, good.len());
}

#[test]
fn corpus_bad_files_are_refused_or_flagged() {
    let Some(dir) = common::corpus_or_skip("wings", "the .wings corpus") else {
        return;
    };
    let bad = dir.join("bad");
    let read = |name: &str| Wings::read(&std::fs::read(bad.join(name)).unwrap());
    // Refused by the reader.
    for (name, kind, text) in [
        ("notwings.wings", ErrorKind::Malformed, "not a Wings file"),
        ("badetf.wings", ErrorKind::Malformed, "not valid ETF"),
        (
            "badversion.wings",
            ErrorKind::Unsupported,
            "unknown wings format: version 3",
        ),
        (
            "truncated.wings",
            ErrorKind::Truncated,
            "says the term is 513 bytes, but 281",
        ),
    ] {
        let e = read(name).expect_err(name);
        eprintln!("{name}: {e}");
        assert_eq!(e.kind, kind, "{name}: {e}");
        assert!(e.to_string().contains(text), "{name}: {e}");
    }
    // Loaded by Wings, caught by validation.
    for (name, text) in [
        (
            "corrupt_bad_vertex.wings",
            "ve = 99, but the object has 8 vertices",
        ),
        ("corrupt_missing_vertex.wings", "the object has 7 vertices"),
        ("corrupt_swapped_faces.wings", "does not border face"),
    ] {
        let model = read(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let findings = model.validate();
        for w in &findings {
            eprintln!("{name}: {w}");
        }
        assert!(
            findings
                .iter()
                .any(|w| w.severity == Severity::Error && w.message.contains(text)),
            "{name}: {findings:#?}"
        );
        assert!(
            model.write().unwrap() == std::fs::read(bad.join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn every_prefix_fails_cleanly() {
    let mut inputs = vec![("samples/cube.wings".to_owned(), sample_bytes())];
    if let Some(dir) = common::corpus("wings") {
        let path = dir.join("written-by-wings-2.2.9/tetrahedron.wings");
        inputs.push((path.display().to_string(), std::fs::read(path).unwrap()));
        let path = dir.join("edge/uncompressed_ok.wings");
        inputs.push((path.display().to_string(), std::fs::read(path).unwrap()));
    }
    for (name, bytes) in inputs {
        assert!(Wings::read(&bytes).is_ok(), "{name}");
        for n in 0..bytes.len() {
            let e = Wings::read(&bytes[..n]).expect_err(&format!("{name}: prefix {n} read"));
            assert!(
                matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                "{name}: prefix {n}: {e}"
            );
        }
        // Also with a length field that matches the cut payload: the term itself is cut.
        for n in 20..bytes.len() {
            let mut cut = bytes[..n].to_vec();
            cut[15..19].copy_from_slice(&((n - 19) as u32).to_be_bytes());
            assert!(Wings::read(&cut).is_err(), "{name}: term cut at {n} read");
        }
    }
}

/// A small deterministic generator (no dependency needed for a garbage sweep).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

fn with_header(payload: &[u8]) -> Vec<u8> {
    let mut out = wings::MAGIC.to_vec();
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

#[test]
fn garbage_and_mutations_never_panic() {
    let mut rng = Lcg(7);
    let limits = Limits::strict();
    for len in 0..400 {
        let mut payload: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if let Some(first) = payload.first_mut() {
            *first = 131;
        }
        let _ = Wings::read_with(&with_header(&payload), &limits);
        let _ = Wings::read_with(&payload, &limits);
    }
    // Byte flips of a real, uncompressed term: many still decode; reading, validating, walking
    // and writing must not panic, and what reads writes back to the same term.
    let model = samples::cube().unwrap();
    let plain = etf::encode(&External {
        term: model.to_term(),
        compression: Compression::None,
    })
    .unwrap();
    let base = with_header(&plain);
    let mut read_ok = 0;
    for i in 0..3000 {
        let mut bytes = base.clone();
        let at = 19 + (rng.next() as usize) % plain.len();
        bytes[at] = if i % 2 == 0 {
            rng.next() as u8
        } else {
            bytes[at] ^ 1
        };
        if let Ok(m) = Wings::read_with(&bytes, &limits) {
            read_ok += 1;
            let _ = m.validate();
            let _ = m.summary();
            if let Some(doc) = m.document() {
                for s in &doc.shapes {
                    let _ = s.to_polygons();
                }
            }
            let out = m.write().unwrap();
            assert!(Wings::read(&out).unwrap() == m, "mutation {i}");
        }
    }
    eprintln!("{read_ok} of 3000 mutated files still read");
    assert!(read_ok > 100);
}

#[test]
fn deep_nesting_and_huge_counts_are_refused() {
    // 100 000 nested one-tuples.
    let mut payload = vec![131];
    for _ in 0..100_000 {
        payload.extend_from_slice(&[104, 1]);
    }
    payload.push(106);
    let e = Wings::read(&with_header(&payload)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    // A list that claims 4 billion elements, and a binary that claims 4 GB.
    for payload in [
        vec![131, 108, 0xFF, 0xFF, 0xFF, 0xFF, 106],
        vec![131, 109, 0xFF, 0xFF, 0xFF, 0xF0, 1, 2, 3],
        // A compressed wrapper that claims 4 GB of term.
        vec![131, 80, 0xFF, 0xFF, 0xFF, 0xFF, 0x78, 0x9C, 3, 0],
    ] {
        let e = Wings::read(&with_header(&payload)).unwrap_err();
        eprintln!("{e}");
        assert!(
            matches!(
                e.kind,
                ErrorKind::Truncated | ErrorKind::LimitExceeded | ErrorKind::Malformed
            ),
            "{e}"
        );
    }
    // A length field beyond the file.
    let mut bytes = wings::MAGIC.to_vec();
    bytes.extend_from_slice(&u32::MAX.to_be_bytes());
    bytes.push(131);
    let e = Wings::read(&bytes).unwrap_err();
    assert!(
        e.message.contains("4294967295") && e.message.contains("1 bytes"),
        "{e}"
    );
}

/// Newell's normal of a polygon.
fn normal(points: &[[f64; 3]]) -> [f64; 3] {
    let mut n = [0.0; 3];
    for (i, a) in points.iter().enumerate() {
        let b = points[(i + 1) % points.len()];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    n
}

fn assert_outward_quads(mesh: &Winged, what: &str) {
    let pos: Vec<[f64; 3]> = mesh.positions().into_iter().map(Option::unwrap).collect();
    let faces = mesh.faces_ccw();
    assert_eq!(faces.len(), 6, "{what}");
    for (f, walk) in faces.iter().enumerate() {
        let corners = walk.as_ref().unwrap();
        assert_eq!(corners.len(), 4, "{what}: face {f}");
        let pts: Vec<[f64; 3]> = corners.iter().map(|c| pos[c.vertex as usize]).collect();
        let n = normal(&pts);
        let centre: [f64; 3] = [0, 1, 2].map(|k| pts.iter().map(|p| p[k]).sum::<f64>() / 4.0);
        let dot: f64 = (0..3).map(|k| n[k] * centre[k]).sum();
        assert!(
            dot > 0.0,
            "{what}: face {f} is not counter-clockwise from outside: {pts:?}"
        );
    }
}

#[test]
fn face_walk_of_a_cube_gives_six_ccw_quads() {
    // Our own cube.
    let model = samples::cube().unwrap();
    let doc = model.document().unwrap();
    assert_outward_quads(&doc.shapes[0].mesh, "sample cube");
    // UVs come back per corner as they went in.
    let (_, polys) = samples::cube_polygons(Some("checker"), true);
    for (f, walk) in doc.shapes[0].mesh.faces_ccw().iter().enumerate() {
        let corners = walk.as_ref().unwrap();
        let got: Vec<(u32, [f64; 2])> = corners.iter().map(|c| (c.vertex, c.uv.unwrap())).collect();
        let want: Vec<(u32, [f64; 2])> = polys[f]
            .vertices
            .iter()
            .copied()
            .zip(polys[f].uvs.clone().unwrap())
            .collect();
        let rotated = (0..4).any(|r| {
            let mut w = want.clone();
            w.rotate_left(r);
            w == got
        });
        assert!(rotated, "face {f}: {got:?} vs {want:?}");
    }
    // A cube saved by Wings itself.
    if let Some(dir) = common::corpus("wings") {
        let bytes = std::fs::read(dir.join("written-by-wings-2.2.9/cube.wings")).unwrap();
        let model = Wings::read(&bytes).unwrap();
        let mesh = &model.document().unwrap().shapes[0].mesh;
        assert_outward_quads(mesh, "Wings cube");
        // Face 0 of Wings's cube, as `wings_face:vertices_ccw/2` gives it.
        let f0: Vec<u32> = mesh.face_ccw(0).unwrap().iter().map(|c| c.vertex).collect();
        assert_eq!(f0, vec![0, 3, 2, 1]);
    }
}

#[test]
fn broken_successor_chain_stops() {
    let mut model = samples::cube().unwrap();
    let Content::V2(doc) = &mut model.content else {
        unreachable!()
    };
    let mesh = &mut doc.shapes[0].mesh;
    // Make an edge's successor point back at itself on both sides.
    for item in &mut mesh.edges[0].items {
        if let wings::EdgeItem::Edge(r) = item {
            r.ltsu = 0;
            r.rtsu = 0;
        }
    }
    let start = mesh.face_edges();
    let r = *mesh.edges[0].record().unwrap();
    // Starting anywhere else on the left face, the walk runs into the self-loop and never returns.
    let other = start
        .iter()
        .enumerate()
        .find(|(f, _)| *f as u32 == r.lf)
        .map(|(_, e)| e.unwrap())
        .unwrap();
    let walk = if other == 0 {
        mesh.walk_cw(r.lf, r.ltpr)
    } else {
        mesh.walk_cw(r.lf, other)
    };
    let err = walk.unwrap_err();
    assert!(err.contains("within 12 steps"), "{err}");
    let findings = model.validate();
    assert!(
        findings
            .iter()
            .any(|w| w.message.contains("successor edge 0 has predecessor")),
        "{findings:#?}"
    );
}

#[test]
fn sample_is_valid_and_round_trips_through_json() {
    let model = samples::cube().unwrap();
    assert_eq!(model.validate(), vec![]);
    let bytes = model.write().unwrap();
    assert_eq!(&bytes[..15], wings::MAGIC);
    assert_eq!(bytes[19..21], [131, 80], "a sample this size is compressed");
    let back = Wings::read(&bytes).unwrap();
    assert_eq!(back.compression, Some(Compression::Zlib));
    assert_eq!(back.content, model.content);
    assert!(back.write().unwrap() == bytes);
    let summary = back.summary();
    assert_eq!(
        (
            summary.objects,
            summary.vertices,
            summary.edges,
            summary.faces,
            summary.materials,
            summary.images
        ),
        (2, 13, 20, 11, 2, 1)
    );
    let json = Model::Wings(back.clone()).to_json().unwrap();
    assert!(Model::from_json(&json).unwrap().write().unwrap() == bytes);
    // Vertex colours of the pyramid, walked back.
    let pyramid = &back.document().unwrap().shapes[1];
    let (poly, warnings) = pyramid.to_polygons();
    assert!(warnings.is_empty());
    assert_eq!(poly.faces.len(), 5);
    assert!(
        poly.faces
            .iter()
            .all(|f| f.colors.is_some() && f.uvs.is_none())
    );
}

#[test]
fn from_polygons_refuses_open_or_inconsistent_meshes() {
    let (pos, mut polys) = samples::cube_polygons(None, false);
    polys.pop();
    let e = Winged::from_polygons(&pos, &polys).unwrap_err();
    assert!(e.message.contains("borders only one polygon"), "{e}");
    let (pos, mut polys) = samples::cube_polygons(None, false);
    polys[0].vertices.reverse();
    let e = Winged::from_polygons(&pos, &polys).unwrap_err();
    assert!(e.message.contains("not consistently oriented"), "{e}");
    let e = Winged::from_polygons(
        &pos,
        &[Polygon {
            vertices: vec![0, 1],
            ..Polygon::default()
        }],
    )
    .unwrap_err();
    assert!(e.message.contains("2 corners"), "{e}");
}

fn t(items: Vec<Term>) -> Term {
    Term::Tuple(items)
}

#[test]
fn legacy_versions_read_their_meshes() {
    let tri = |a: i64| Term::int_list([a, a + 1, a + 2]);
    // v0: {wings, 0, [{object, "tri", Matrix, {winged, [{default, [0,1,2]}], [{X,Y,Z}…]}, []}]}
    let v0 = t(vec![
        Term::atom("wings"),
        Term::Int(0),
        Term::list(vec![t(vec![
            Term::atom("object"),
            Term::charlist("tri"),
            Term::atom("identity"),
            t(vec![
                Term::atom("winged"),
                Term::list(vec![t(vec![Term::atom("default"), tri(0)])]),
                Term::list(
                    [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
                        .iter()
                        .map(|p| t(p.iter().map(|&v| Term::float(v)).collect()))
                        .collect(),
                ),
            ]),
            Term::Nil,
        ])]),
    ]);
    let bytes = with_header(
        &etf::encode(&External {
            term: v0,
            compression: Compression::None,
        })
        .unwrap(),
    );
    let model = Wings::read(&bytes).unwrap();
    let Content::Legacy(legacy) = &model.content else {
        panic!("{model:?}")
    };
    assert_eq!(legacy.version, 0);
    let meshes = legacy.meshes().unwrap();
    assert_eq!(meshes[0].faces, vec![vec![0, 1, 2]]);
    assert_eq!(meshes[0].positions[1], [1.0, 0.0, 0.0]);
    assert_eq!(model.write().unwrap(), bytes);
    let findings = model.validate();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0].message.contains("refuses"));
    // v1: {wings, 1, [{object, "tri", {winged, Faces, VertexBinary, []}, []}], [], []}
    let mut bin = Vec::new();
    for v in [
        0.0f64, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0,
    ] {
        bin.extend_from_slice(&v.to_be_bytes());
    }
    let v1 = t(vec![
        Term::atom("wings"),
        Term::Int(1),
        Term::list(vec![t(vec![
            Term::atom("object"),
            Term::charlist("tri"),
            t(vec![
                Term::atom("winged"),
                Term::list(vec![
                    t(vec![Term::atom("default"), tri(0)]),
                    t(vec![Term::atom("default"), tri(1)]),
                ]),
                Term::Binary(bin),
                Term::Nil,
            ]),
            Term::Nil,
        ])]),
        Term::Nil,
        Term::Nil,
    ]);
    let bytes = with_header(&etf::term_to_binary_compressed(&v1).unwrap());
    let model = Wings::read(&bytes).unwrap();
    assert_eq!(model.version(), 1);
    let summary = model.summary();
    assert_eq!(
        (summary.objects, summary.vertices, summary.faces),
        (1, 4, 2)
    );
    assert_eq!(model.write().unwrap(), bytes);
}

#[test]
fn length_field_must_match_exactly() {
    let mut bytes = sample_bytes();
    bytes.push(0);
    let e = Wings::read(&bytes).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(
        e.message.contains("but") && e.message.contains("follow the header"),
        "{e}"
    );
    let mut bytes = sample_bytes();
    bytes[0] = b'$';
    assert!(
        Wings::read(&bytes)
            .unwrap_err()
            .message
            .contains("not a Wings file")
    );
}

#[test]
fn inflated_size_must_match() {
    let mut bytes = sample_bytes();
    assert_eq!(bytes[19..21], [131, 80]);
    let u = u32::from_be_bytes(bytes[21..25].try_into().unwrap());
    for wrong in [u - 1, u + 1] {
        bytes[21..25].copy_from_slice(&wrong.to_be_bytes());
        let e = Wings::read(&bytes).unwrap_err();
        eprintln!("{e}");
        assert!(e.message.contains("not valid ETF"), "{e}");
    }
}

#[test]
fn validation_reports_props_materials_images_and_binaries() {
    use levelkit::formats::wings::{EdgeItem, FaceItem, otp25_atom};
    let mut model = samples::cube().unwrap();
    let Content::V2(doc) = &mut model.content else {
        unreachable!()
    };
    let shape = &mut doc.shapes[0];
    // A UV of 15 bytes, a missing material, holes that are not hidden, a hidden mirror face.
    shape.mesh.edges[0].items[0] =
        EdgeItem::Other(t(vec![Term::atom("uv_lt"), Term::Binary(vec![0; 15])]));
    shape.mesh.faces[1].items = vec![FaceItem::Material(otp25_atom("nowhere"))];
    let props = |k: &str, v: Term| t(vec![Term::atom(k), v]);
    shape.props = Term::list(vec![
        props("num_hidden_faces", Term::Int(1)),
        props("holes", Term::int_list([3])),
        props("mirror_face", Term::Int(0)),
    ]);
    // An image of the wrong size, and a map naming a missing image.
    let Term::List(items, _) = &mut doc.props else {
        unreachable!()
    };
    let images = items
        .iter_mut()
        .find(|i| i.as_tuple().unwrap()[0].as_atom() == Some("images"))
        .unwrap();
    *images = props(
        "images",
        Term::list(vec![t(vec![
            Term::Int(0),
            Term::list(vec![
                props("name", Term::charlist("checker")),
                props("width", Term::Int(4)),
                props("height", Term::Int(4)),
                props("samples_per_pixel", Term::Int(3)),
                props("mask_size", Term::Int(0)),
                props("pixels", Term::Binary(vec![0; 47])),
            ]),
        ])]),
    );
    doc.materials[0] = samples::material("checker", [1.0; 4], vec![("diffuse", 7)], "ignore");
    let findings = model.validate();
    for w in &findings {
        eprintln!("{w}");
    }
    for (severity, text) in [
        (Severity::Error, "`uv_lt` binary is 15 bytes; expected 16"),
        (Severity::Warning, "uses material `nowhere`"),
        (Severity::Warning, "hole 3 is not a hidden face"),
        (Severity::Warning, "mirror face 0 is not a visible face"),
        (Severity::Warning, "the pixels binary has 47"),
        (Severity::Warning, "names image 7"),
    ] {
        assert!(
            findings
                .iter()
                .any(|w| w.severity == severity && w.message.contains(text)),
            "{text}: {findings:#?}"
        );
    }
    // Written and read back, the findings are the same.
    let back = Wings::read(&model.write().unwrap()).unwrap();
    assert_eq!(back.validate(), findings);
}

mod properties {
    //! Property tests: random prisms (any side count, size and placement; optional UVs and
    //! vertex colours) written and read back, and mutated files.

    use super::*;
    use levelkit::etf::AtomTag;
    use levelkit::formats::wings::Document;
    use proptest::prelude::*;

    /// A closed prism with `sides` sides around a centre, each vertex nudged by the generator.
    fn prism(rng: &mut common::Rng, sides: usize, uvs: bool, colors: bool) -> Winged {
        let mut coord = || (rng.below(1 << 20) as f64 - (1 << 19) as f64) / 1024.0;
        let (cx, cy, cz, r, h) = (
            coord(),
            coord(),
            coord(),
            1.0 + coord().abs(),
            1.0 + coord().abs(),
        );
        let mut positions = Vec::new();
        for ring in [0.0, h] {
            for i in 0..sides {
                let a = std::f64::consts::TAU * i as f64 / sides as f64;
                positions.push([cx + r * a.cos(), cy + ring, cz + r * a.sin()]);
            }
        }
        let n = sides as u32;
        let mut faces: Vec<Vec<u32>> =
            vec![(0..n).collect(), (0..n).rev().map(|i| n + i).collect()];
        for i in 0..n {
            let j = (i + 1) % n;
            faces.push(vec![i, n + i, n + j, j]);
        }
        let polygons: Vec<Polygon> = faces
            .into_iter()
            .map(|vertices| Polygon {
                uvs: uvs.then(|| vertices.iter().map(|&v| [v as f64 / 16.0, 0.5]).collect()),
                colors: colors.then(|| {
                    vertices
                        .iter()
                        .map(|&v| [v as f32 / 32.0, 0.25, 0.5])
                        .collect()
                }),
                material: Some("default".to_owned()),
                vertices,
            })
            .collect();
        Winged::from_polygons(&positions, &polygons).unwrap()
    }

    fn model(seed: u64, shapes: usize, uvs: bool, colors: bool) -> Wings {
        let mut rng = common::Rng(seed);
        let shapes = (0..shapes)
            .map(|i| {
                let sides = 3 + rng.below(10);
                samples::shape(&format!("prism{i}"), prism(&mut rng, sides, uvs, colors))
            })
            .collect();
        Wings {
            compression: None,
            content: Content::V2(Document {
                atoms: AtomTag::Atom,
                shapes,
                materials: vec![samples::material(
                    "default",
                    [0.8, 0.8, 0.7, 1.0],
                    vec![],
                    "set",
                )],
                props: samples::global_props(None),
            }),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Model → bytes → model is the identity, and so is bytes → model → bytes; the model
        /// validates without errors.
        #[test]
        fn prisms_round_trip(seed in 1u64.., shapes in 0usize..4, uvs: bool, colors: bool) {
            let wings = model(seed, shapes, uvs, colors);
            let bytes = wings.write().unwrap();
            let back = Wings::read(&bytes).unwrap();
            prop_assert_eq!(&back.content, &wings.content);
            prop_assert_eq!(back.write().unwrap(), bytes);
            prop_assert!(wings::validate(&back).iter().all(|f| f.severity == Severity::Warning));
        }

        /// A prism file with bytes overwritten anywhere: never a panic, and whatever still reads
        /// is written back byte for byte.
        #[test]
        fn mutated_file_is_refused_or_kept(
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
        ) {
            let mut bytes = model(7, 2, true, false).write().unwrap();
            for (at, value) in flips {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(model) = Wings::read(&bytes) {
                prop_assert_eq!(model.write().unwrap(), bytes);
            }
        }
    }
}
