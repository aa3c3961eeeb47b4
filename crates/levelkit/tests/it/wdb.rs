//! V-Chat `.wdb` worlds: hand-made hex fixtures (one per structure, bytes written out from the
//! published layout) drive both reading and writing; generated worlds round-trip byte for byte
//! and through JSON; truncation and garbage sweeps with bounded allocation; wrong layout
//! hypotheses are reported with the node path and offset; the scene conversion both ways, a
//! world made from a glTF, and the Khronos validator on the `.glb` exports.

use crate::common;
use crate::common::Rng;
use crate::common::alloc::peak_during;

use std::process::Command;

use levelkit::export::gltf::{self, GltfOptions};
use levelkit::formats::wdb::hypotheses::{self as h, LightType, PolyDef, TexDef};
use levelkit::formats::wdb::{self, samples, *};
use levelkit::scene::{LightKind, Motion, Scene};
use levelkit::strings::RawString;
use levelkit::{ErrorKind, Limits, Severity};

// ---- helpers ----------------------------------------------------------------------------------

/// Bytes from hex text; `#` starts a comment to the end of the line.
fn hex(text: &str) -> Vec<u8> {
    text.lines()
        .flat_map(|l| l.split('#').next().unwrap().split_whitespace())
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

const IDENTITY: [f32; 16] = samples::IDENTITY;

fn empty_node(name: &str, children: u16) -> Node {
    Node {
        name: RawString::from(name),
        transform: IDENTITY,
        animation: Animation::default(),
        geometries: vec![],
        lights: vec![],
        children,
    }
}

fn world(fence: Fence, nodes: Vec<Node>) -> Wdb {
    Wdb {
        header: Header::default(),
        fence,
        nodes,
    }
}

fn flat_fence() -> Fence {
    Fence {
        borders: vec![],
        y_max: 1.0,
        y_min: 1.0,
    }
}

/// Generated worlds of the sweeps: several seeds and sizes.
fn generated() -> Vec<(u64, Wdb)> {
    (0..120u64)
        .map(|seed| (seed, samples::generate(seed, 3 + (seed as usize * 7) % 60)))
        .collect()
}

// ---- hand-made fixtures: one table drives reading and writing ------------------------------

const HEADER_AND_EMPTY_FENCE: &str = "
57 44 42 56              # WDBV
04                       # version
00 00 00                 # b0 b1 b2
a0 80 40                 # blue green red
ff                       # b3
00 00                    # numBorderDefs
00 00 00 00 00 00 f0 3f  # yMax 1.0
00 00 00 00 00 00 f0 3f  # yMin 1.0
";

const IDENTITY_HEX: &str = "
00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00
00 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 00 80 3f
";

const NO_ANIMATION: &str = "
00 00 00 00 00 00 00 00 00 00 00 00   # origin
00 00 00 00 00 00 00 00 00 00 00 00   # axis
00 00 00 00                           # speed
";

/// `(name, model, file bytes)`.
fn cases() -> Vec<(&'static str, Wdb, Vec<u8>)> {
    let header = Header {
        background: Bgr {
            blue: 0xa0,
            green: 0x80,
            red: 0x40,
        },
        ..Header::default()
    };
    let with_header = |w: Wdb| Wdb { header, ..w };
    let mut out = Vec::new();

    // The header, an empty fence and no nodes.
    out.push((
        "header",
        with_header(world(flat_fence(), vec![])),
        hex(&format!("{HEADER_AND_EMPTY_FENCE} 00 00 # numNodes")),
    ));

    // A fence of two connected segments.
    out.push((
        "fence",
        with_header(world(
            Fence {
                borders: vec![
                    Border {
                        x0: 0.0,
                        z0: 0.0,
                        x1: 10.0,
                        z1: 0.0,
                    },
                    Border {
                        x0: 10.0,
                        z0: 0.0,
                        x1: 10.0,
                        z1: -3.5,
                    },
                ],
                y_max: 2.0,
                y_min: 1.6,
            },
            vec![],
        )),
        hex("
            57 44 42 56 04 00 00 00 a0 80 40 ff
            02 00                     # numBorderDefs
            00 00 00 00 00 00 00 00   # x0 0
            00 00 00 00 00 00 00 00   # z0 0
            00 00 00 00 00 00 24 40   # x1 10
            00 00 00 00 00 00 00 00   # z1 0
            00 00 00 00 00 00 24 40   # x0 10
            00 00 00 00 00 00 00 00   # z0 0
            00 00 00 00 00 00 24 40   # x1 10
            00 00 00 00 00 00 0c c0   # z1 -3.5
            00 00 00 00 00 00 00 40   # yMax 2
            9a 99 99 99 99 99 f9 3f   # yMin 1.6
            00 00                     # numNodes
        "),
    ));

    // A spinning root with one child (1 degree per frame) and a translated leaf.
    let mut spin = empty_node("SPIN0010", 1);
    spin.animation = Animation {
        origin: [0.0; 3],
        axis: [0.0, 1.0, 0.0],
        speed: 1f32.to_radians(),
    };
    let mut leaf = empty_node("", 0);
    leaf.transform[12..15].copy_from_slice(&[1.0, 2.0, 3.0]);
    out.push((
        "node",
        with_header(world(flat_fence(), vec![spin, leaf])),
        hex(&format!(
            "{HEADER_AND_EMPTY_FENCE}
            01 00                          # numNodes: one root
            08 53 50 49 4e 30 30 31 30     # \"SPIN0010\"
            {IDENTITY_HEX}
            00 00 00 00 00 00 00 00 00 00 00 00   # origin
            00 00 00 00 00 00 80 3f 00 00 00 00   # axis (0, 1, 0)
            35 fa 8e 3c                           # speed: 1 degree in radians
            00 00 00 00                    # numGeometries, numLights
            01 00                          # numChildren
            00                             # empty name
            00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00
            00 00 00 00 00 00 80 3f 00 00 00 00 00 00 00 00
            00 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 00
            00 00 80 3f 00 00 00 40 00 00 40 40 00 00 80 3f   # translation (1, 2, 3)
            {NO_ANIMATION}
            00 00 00 00 00 00              # no geometries, lights, children
        "
        )),
    ));

    // A textured triangle.
    let mut tri = empty_node("tri", 0);
    tri.geometries.push(Geometry {
        points: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, -1.0]; 3],
        polygons: vec![PolyDef {
            points: vec![0, 1, 2],
        }],
        render_flags: 0,
        tex_coords: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
        point_flags: vec![[0; 4]; 3],
        textures: vec![TexDef {
            name: RawString::from("a.bmp"),
        }],
        materials: vec![0],
    });
    out.push((
        "geometry",
        with_header(world(flat_fence(), vec![tri])),
        hex(&format!(
            "{HEADER_AND_EMPTY_FENCE}
            01 00                          # numNodes
            03 74 72 69                    # \"tri\"
            {IDENTITY_HEX}
            {NO_ANIMATION}
            01 00                          # numGeometries
              03 00                        # numPoints
              00 00 00 00 00 00 00 00 00 00 00 00
              00 00 80 3f 00 00 00 00 00 00 00 00
              00 00 00 00 00 00 80 3f 00 00 00 00
              03 00                        # numNormals
              00 00 00 00 00 00 00 00 00 00 80 bf
              00 00 00 00 00 00 00 00 00 00 80 bf
              00 00 00 00 00 00 00 00 00 00 80 bf
              01 00                        # numPolygons
              0a 00                        # lenIFS: 8 bytes of definitions + the zero word
              03 00 00 00 01 00 02 00      # numVerts 3: points 0 1 2
              00 00                        # finalIFS
              00 00                        # w6
              00 00 00 00 00 00 00 00      # texture coordinates (u, v)
              00 00 80 3f 00 00 00 00
              00 00 00 00 00 00 80 3f
              00 00 00 00 00 00 00 00 00 00 00 00   # per-point flags
              01                           # numTexDefs
              05 61 2e 62 6d 70            # \"a.bmp\"
              00 00                        # material of polygon 0
            00 00                          # numLights
            00 00                          # numChildren
        "
        )),
    ));

    // A directional light with the exceptional s3 s4.
    let mut sun = empty_node("sun", 0);
    sun.lights.push(Light {
        kind: LightType::Directional,
        b1: 0,
        b2: 0,
        b3: 0,
        color: [0xc0, 0xb0, 0xa0],
        b7: 0xff,
        s0_s2: [1.0, 0.0, 0.0],
        s3_s4: [0.5, 0.4],
    });
    out.push((
        "light",
        with_header(world(flat_fence(), vec![sun])),
        hex(&format!(
            "{HEADER_AND_EMPTY_FENCE}
            01 00                          # numNodes
            03 73 75 6e                    # \"sun\"
            {IDENTITY_HEX}
            {NO_ANIMATION}
            00 00                          # numGeometries
            01 00                          # numLights
              03 00 00 00                  # b0 = 3 directional, b1 b2 b3
              c0 b0 a0 ff                  # b4 b5 b6 (blue green red), b7
              00 00 80 3f 00 00 00 00 00 00 00 00   # s0 s1 s2 = 1 0 0
              00 00 00 3f cd cc cc 3e      # s3 s4 = 0.5 0.4
            00 00                          # numChildren
        "
        )),
    ));
    out
}

#[test]
fn fixtures_read_to_their_models() {
    for (name, model, bytes) in cases() {
        let read = wdb::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read, model, "{name}");
        assert!(read.validate().is_empty(), "{name}: {:?}", read.validate());
    }
}

#[test]
fn fixtures_write_to_their_bytes() {
    for (name, model, bytes) in cases() {
        assert_eq!(model.write().unwrap(), bytes, "{name}");
    }
}

#[test]
fn fixture_meanings() {
    let cases = cases();
    let node = &cases[2].1;
    assert_eq!(node.summary().roots, 1);
    assert_eq!(node.summary().nodes, 2);
    assert!((h::degrees_per_frame(node.nodes[0].animation.speed) - 1.0).abs() < 1e-5);
    let light = &cases[4].1.nodes[0].lights[0];
    assert_eq!(h::light_rgb(light.color), [0xa0, 0xb0, 0xc0]);
    let (scene, _) = cases[4].1.to_scene();
    assert_eq!(scene.lights[0].kind, LightKind::Directional);
    assert_eq!(scene.lights[0].color[0], 0xa0 as f32 / 255.0);
    assert_eq!(cases[0].1.summary().background, "#4080a0");
}

// ---- round trips ------------------------------------------------------------------------------

#[test]
fn sample_world_round_trips_and_validates() {
    let w = samples::world();
    assert!(w.validate().is_empty(), "{:?}", w.validate());
    let bytes = w.write().unwrap();
    let back = Wdb::read(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.write().unwrap(), bytes);
    let s = back.summary();
    assert_eq!(s.version, 4);
    assert_eq!(s.fence_segments, 5);
    assert_eq!(s.spinners, 2);
    assert_eq!(s.lights, 5);
    assert_eq!(s.line_sets, 1);
    assert_eq!(s.roots, 7);
    assert_eq!(s.nodes, 15);
    assert_eq!(s.geometries, 8);
    assert_eq!(s.depth, 3);
    let mut kinds: Vec<u8> = back
        .nodes
        .iter()
        .flat_map(|n| n.lights.iter().map(|l| l.kind.byte()))
        .collect();
    kinds.sort();
    assert_eq!(kinds, [0, 1, 2, 3, 4]);
    let json = serde_json::to_value(&s).unwrap();
    for key in ["nodes", "geometries", "lights", "version"] {
        assert!(json.get(key).is_some(), "summary has {key}");
    }
    assert_eq!(json["nodes"], 15);
    assert_eq!(json["geometries"], 8);
    assert_eq!(json["lights"], 5);
}

#[test]
fn generated_worlds_round_trip_byte_for_byte() {
    let mut kinds = std::collections::BTreeSet::new();
    let (mut empty_fences, mut fences, mut spinners, mut nested) = (0, 0, 0, 0);
    for (seed, w) in generated() {
        let problems: Vec<_> = w.validate();
        assert!(problems.is_empty(), "seed {seed}: {problems:?}");
        let bytes = w.write().unwrap();
        let back = Wdb::read_with(&bytes, &Limits::strict())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back, w, "seed {seed}");
        assert_eq!(back.write().unwrap(), bytes, "seed {seed}");
        let s = w.summary();
        assert_eq!(s.nodes, w.nodes.len());
        kinds.extend(
            w.nodes
                .iter()
                .flat_map(|n| n.lights.iter().map(|l| l.kind.byte())),
        );
        if w.fence.borders.is_empty() {
            empty_fences += 1;
        } else {
            fences += 1;
        }
        spinners += s.spinners;
        nested += usize::from(s.depth >= 3);
    }
    assert_eq!(kinds.len(), 5);
    assert!(empty_fences > 10 && fences > 10 && spinners > 100 && nested > 30);
}

#[test]
fn json_round_trips_exactly() {
    let mut worlds = vec![samples::world()];
    worlds.extend(generated().into_iter().take(30).map(|(_, w)| w));
    for w in worlds {
        let json = serde_json::to_string(&w).unwrap();
        let back: Wdb = serde_json::from_str(&json).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.write().unwrap(), w.write().unwrap());
    }
    // Awkward floats survive too.
    let mut w = samples::world();
    w.nodes[0].transform[0] = f32::from_bits(1); // the smallest subnormal
    w.nodes[0].transform[1] = -0.0;
    w.nodes[0].transform[2] = f32::MAX;
    w.nodes[0].transform[4] = 0.1;
    w.fence.y_min = 0.1 + 0.2;
    let back: Wdb = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
    assert_eq!(back.write().unwrap(), w.write().unwrap());
}

// ---- hostile input ----------------------------------------------------------------------------

#[test]
fn every_prefix_is_an_error() {
    let mut worlds = vec![samples::world().write().unwrap()];
    for seed in [3u64, 11, 42] {
        worlds.push(samples::generate(seed, 12).write().unwrap());
    }
    for (_, model, bytes) in cases() {
        assert_eq!(model.write().unwrap(), bytes);
        worlds.push(bytes);
    }
    for bytes in worlds {
        for len in 0..bytes.len() {
            let e = wdb::read_with(&bytes[..len], &Limits::strict())
                .expect_err("a prefix is not a world");
            assert!(
                matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                "{len}: {e}"
            );
        }
        assert!(wdb::read(&bytes).is_ok());
    }
}

#[test]
fn garbage_reads_or_fails_without_panic_and_with_bounded_allocation() {
    let mut next = {
        let mut rng = Rng(0x5eed | 1);
        move || rng.next()
    };
    let mut inputs = vec![samples::world().write().unwrap()];
    for seed in [5u64, 17] {
        inputs.push(samples::generate(seed, 20).write().unwrap());
    }
    let (mut ok, mut err) = (0, 0);
    for base in &inputs {
        for _ in 0..1500 {
            let mut b = base.clone();
            for _ in 0..(1 + next() % 4) {
                let at = (next() % b.len() as u64) as usize;
                b[at] = match next() % 3 {
                    0 => next() as u8,
                    1 => 0xff,
                    _ => b[at] ^ (1 << (next() % 8)),
                };
            }
            let (result, peak) = peak_during(|| wdb::read_with(&b, &Limits::strict()));
            assert!(
                peak <= 64 * b.len() + (1 << 16),
                "{peak} bytes for a {}-byte input",
                b.len()
            );
            match result {
                Ok(w) => {
                    ok += 1;
                    let _ = w.validate();
                    let _ = w.summary();
                    let _ = w.to_scene();
                    let again = w.write().unwrap();
                    assert_eq!(again, b, "a world that reads writes its own bytes");
                }
                Err(_) => err += 1,
            }
        }
    }
    assert!(ok > 100 && err > 100, "ok {ok}, err {err}");
}

#[test]
fn huge_counts_are_refused_before_allocating() {
    let base = samples::world().write().unwrap();
    // numBorderDefs at 12, numNodes after the fence, numPoints of the ground geometry.
    let nodes_at = 12 + 2 + 5 * 32 + 16;
    let ground_geometry = nodes_at + 2 + 1 + 6 + 64 + 28 + 2;
    for (at, what) in [
        (12, "numBorderDefs"),
        (nodes_at, "numNodes"),
        (ground_geometry, "numPoints"),
        (ground_geometry - 2, "numGeometries"),
    ] {
        let mut b = base.clone();
        b[at..at + 2].copy_from_slice(&[0xff, 0xff]);
        let (r, peak) = peak_during(|| wdb::read_with(&b, &Limits::strict()));
        assert!(r.is_err(), "{what}");
        assert!(peak < 64 * b.len(), "{what}: {peak}");
    }
}

#[test]
fn deep_trees_hit_the_depth_limit() {
    let nodes: Vec<Node> = (0..100)
        .map(|i| empty_node("n", u16::from(i < 99)))
        .collect();
    let w = world(flat_fence(), nodes);
    let bytes = w.write().unwrap();
    assert_eq!(wdb::read(&bytes).unwrap(), w);
    let e = wdb::read_with(&bytes, &Limits::strict()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
}

// ---- wrong hypotheses are reported where they are ---------------------------------------------

/// A root `a` whose child `SPIN0010` holds the fixture triangle, then a second root `after`;
/// returns the bytes and the offsets of the geometry's lenIFS and of the second root.
fn probe_world() -> (Wdb, Vec<u8>, usize, usize) {
    let cases = cases();
    let geometry = cases[3].1.nodes[0].geometries[0].clone();
    let mut spin = samples::spinner(10, IDENTITY);
    spin.geometries.push(geometry);
    let w = world(
        flat_fence(),
        vec![empty_node("a", 1), spin, empty_node("after", 0)],
    );
    let bytes = w.write().unwrap();
    // header 12, fence 18, numNodes 2; node "a" 2 + 92 + 6; "SPIN0010" 9 + 92, numGeometries 2.
    let geometry_at = 12 + 18 + 2 + 100 + 9 + 92 + 2;
    let len_ifs_at = geometry_at + 2 + 36 + 2 + 36 + 2;
    assert_eq!(&bytes[len_ifs_at..len_ifs_at + 2], &[10, 0]);
    let after_at = geometry_at + 137 + 2 + 2;
    assert_eq!(&bytes[after_at..after_at + 6], b"\x05after");
    (w, bytes, len_ifs_at, after_at)
}

const SPIN_PATH: &str = "nodes/0/children/0 \"SPIN0010\"/geometries/0";

fn expect_geometry_error(bytes: &[u8], at: usize, what: &str) -> String {
    let e = wdb::read(bytes).expect_err(what);
    assert_eq!(e.kind, ErrorKind::Malformed, "{what}: {e}");
    assert_eq!(e.location.path.as_deref(), Some(SPIN_PATH), "{what}: {e}");
    assert_eq!(e.location.offset, Some(at as u64), "{what}: {e}");
    let text = e.to_string();
    assert!(text.starts_with("wdb: "), "{text}");
    assert!(
        text.contains(SPIN_PATH) && text.contains(&format!("0x{at:x}")),
        "{text}"
    );
    text
}

#[test]
fn a_face_table_that_does_not_fit_is_reported_with_path_and_offset() {
    let (_, bytes, len_ifs_at, _) = probe_world();
    let table = len_ifs_at + 2;

    // lenIFS two bytes too long: bytes are left after the definitions.
    let mut b = bytes.clone();
    b[len_ifs_at] = 12;
    let text = expect_geometry_error(&b, table + 8, "lenIFS too long");
    assert!(text.contains("are left"), "{text}");

    // Too short: the polygon runs past the table.
    let mut b = bytes.clone();
    b[len_ifs_at] = 8;
    let text = expect_geometry_error(&b, table, "lenIFS too short");
    assert!(text.contains("runs past"), "{text}");

    // Less than the zero word.
    let mut b = bytes.clone();
    b[len_ifs_at] = 1;
    expect_geometry_error(&b, len_ifs_at, "lenIFS below 2");

    // numVerts wrong.
    let mut b = bytes.clone();
    b[table] = 2;
    let text = expect_geometry_error(&b, table + 6, "numVerts");
    assert!(text.contains("are left"), "{text}");

    // A point index past the points.
    let mut b = bytes.clone();
    b[table + 4] = 7;
    let text = expect_geometry_error(&b, table + 4, "index");
    assert!(text.contains("uses point 7"), "{text}");

    // The terminating word is not zero.
    let mut b = bytes.clone();
    b[table + 8] = 1;
    let text = expect_geometry_error(&b, table + 8, "finalIFS");
    assert!(text.contains("zero word"), "{text}");

    // numPolygons larger than the table can hold.
    let mut b = bytes;
    b[len_ifs_at - 2] = 9;
    expect_geometry_error(&b, len_ifs_at, "numPolygons");
}

#[test]
fn a_wrong_texture_coordinate_size_is_caught_in_its_geometry() {
    // A file whose texture coordinates really are three f32 (hypothesis H3 wrong): the reader
    // must stop inside that node, not read the rest of the file as nodes.
    let (_, bytes, len_ifs_at, after_at) = probe_world();
    let tex_at = len_ifs_at + 2 + 8 + 2 + 2;
    let mut b = bytes[..tex_at].to_vec();
    for k in 0..3 {
        b.extend_from_slice(&bytes[tex_at + 8 * k..tex_at + 8 * k + 8]);
        b.extend_from_slice(&0.5f32.to_le_bytes());
    }
    b.extend_from_slice(&bytes[tex_at + 24..]);
    let e = wdb::read(&b).unwrap_err();
    // The next node is not one (its matrix is not affine, H9): the error is there, right after
    // the geometry, and names it.
    assert!(e.to_string().contains(SPIN_PATH), "{e}");
    assert!(
        e.location.offset.unwrap() <= after_at as u64 + 12 + 9,
        "{e}"
    );

    // And a texture name that is not one (H4 wrong): control bytes.
    let mut b = bytes.clone();
    let name_at = tex_at + 24 + 12 + 1;
    assert_eq!(&b[name_at..name_at + 6], b"\x05a.bmp");
    b[name_at + 1] = 0x01;
    let e = wdb::read(&b).unwrap_err();
    assert_eq!(e.location.offset, Some(name_at as u64), "{e}");
    assert!(e.to_string().contains("H4"), "{e}");

    // A material naming a missing texture definition (H7).
    let mut b = bytes;
    let material_at = name_at + 6;
    b[material_at] = 1;
    let e = wdb::read(&b).unwrap_err();
    assert_eq!(e.location.offset, Some(material_at as u64), "{e}");
    assert_eq!(e.location.path.as_deref(), Some(SPIN_PATH));
}

#[test]
fn node_counts_and_the_end_of_the_file_are_checked() {
    let (_, bytes, _, _) = probe_world();
    let num_nodes_at = 12 + 18;
    assert_eq!(&bytes[num_nodes_at..num_nodes_at + 2], &[2, 0]);

    // One root more than there is: the file ends where a node is promised.
    let mut b = bytes.clone();
    b[num_nodes_at] = 3;
    let e = wdb::read(&b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    assert_eq!(e.location.path.as_deref(), Some("nodes/2"), "{e}");

    // numNodes counting every node (the other reading of H5): bytes follow the last node.
    let mut b = bytes.clone();
    b[num_nodes_at] = 1;
    let e = wdb::read(&b).unwrap_err();
    assert!(e.to_string().contains("follow the last node"), "{e}");

    // A trailer.
    let mut b = bytes;
    b.extend_from_slice(&[0, 0]);
    let e = wdb::read(&b).unwrap_err();
    assert_eq!(e.location.offset, Some(b.len() as u64 - 2), "{e}");
}

#[test]
fn the_magic_and_light_types_are_checked() {
    let e = wdb::read(b"WDBX\x04\0\0\0\0\0\0\xff").unwrap_err();
    assert!(e.to_string().contains("not a V-Chat world"), "{e}");
    assert_eq!(wdb::read(b"WD").unwrap_err().kind, ErrorKind::Truncated);
    let mut b = cases()[4].2.clone();
    let type_at = b.len() - 2 - 28;
    assert_eq!(b[type_at], 3);
    b[type_at] = 5;
    let e = wdb::read(&b).unwrap_err();
    assert_eq!(e.location.offset, Some(type_at as u64));
    assert_eq!(e.location.path.as_deref(), Some("nodes/0 \"sun\"/lights/0"));
}

#[test]
fn validation_reports_what_the_writer_refuses_and_what_is_odd() {
    let mut w = samples::world();
    w.nodes[0].geometries[0].materials[0] = 9;
    w.nodes[1].geometries[0].polygons[0].points[0] = 999;
    w.nodes[2].transform[5] = f32::NAN;
    w.header.version = 5;
    let found = w.validate();
    let errors: Vec<_> = found
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 3, "{found:?}");
    assert!(
        errors[0]
            .location
            .path
            .as_deref()
            .unwrap()
            .starts_with("nodes/0 \"ground\"/geometries/0")
    );
    assert!(found.iter().any(|f| f.message.contains("version is 5")));
    assert!(w.write().is_err());

    let mut w = samples::world();
    w.nodes.last_mut().unwrap().children = 2;
    assert!(w.tree().is_none());
    assert!(w.write().is_err());

    // A spinner whose name disagrees with its speed, and one that is not named SPIN.
    let mut w = samples::world();
    let i = w
        .nodes
        .iter()
        .position(|n| n.name.0 == b"SPIN0050")
        .unwrap();
    w.nodes[i].animation.speed = h::speed_for(2.0);
    w.nodes[0].animation = w.nodes[i].animation;
    let found = w.validate();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|f| f.severity == Severity::Warning));
    assert!(w.write().is_ok());
}

// ---- hypotheses in one place --------------------------------------------------------------

#[test]
fn spin_rule_follows_the_observed_relation() {
    assert_eq!(h::spin_name_tenths(b"SPIN0010"), Some(10));
    assert_eq!(h::spin_name_tenths(b"spin3550"), Some(3550));
    assert_eq!(h::spin_name_tenths(b"SPIN12345"), None);
    assert_eq!(h::spin_name_tenths(b"SPINNER1"), None);
    assert!((h::degrees_per_frame(h::speed_for(355.0)) + 5.0).abs() < 1e-4);
    assert!((h::degrees_per_frame(355f32.to_radians()) + 5.0).abs() < 1e-4);
    assert!((h::degrees_per_frame(h::speed_for(-15.0)) + 15.0).abs() < 1e-4);
    assert!((h::degrees_per_frame(h::speed_for(0.1)) - 0.1).abs() < 1e-5);
    assert_eq!(h::spin_name(-5.0), "SPIN3550");
    assert_eq!(h::spin_name(7.0), "SPIN0070");
    // In the scene: the handedness change turns the rotation the other way.
    let (axis, dps) = h::spin_to_scene([0.0, 1.0, 0.0], h::speed_for(5.0));
    assert_eq!(axis[1], 1.0);
    assert!((dps + 5.0 * h::FRAMES_PER_SECOND).abs() < 1e-3);
    let (back, per_frame) = h::spin_from_scene(axis, dps);
    assert_eq!(back, [0.0, 1.0, 0.0]);
    assert!((per_frame - 5.0).abs() < 1e-4);
}

#[test]
fn coordinate_conversions_are_exact_inverses() {
    let mut next = {
        let mut rng = Rng(7 | 1);
        move || rng.next()
    };
    for _ in 0..1000 {
        let m: [f32; 16] = std::array::from_fn(|_| f32::from_bits(next() as u32 & 0x7f7f_ffff));
        assert_eq!(h::matrix_from_scene(&h::matrix_to_scene(&m)), m);
        let p = [m[0], m[1], m[2]];
        assert_eq!(h::point_from_scene(h::point_to_scene(p)), p);
        // 1 - v is exact in f64 for |v| from 2^-29 to 2^24 (and 0).
        let v = f32::from_bits(next() as u32 & 0x4bff_ffff);
        let v = if v.abs() < 1.0 / (1u32 << 29) as f32 {
            0.0
        } else {
            v
        };
        let t = [m[3], v];
        assert_eq!(h::uv_from_scene(h::uv_to_scene(t)), t);
    }
    // A matrix turning +x towards -z in the file turns it towards +z in the scene.
    let m = samples::matrix([1.0, 2.0, 3.0], 90.0, 0.0, [1.0; 3]);
    let s = levelkit::scene::Transform::Matrix(h::matrix_to_scene(&m));
    let p = s.apply([1.0, 0.0, 0.0]);
    assert!((p[0] - 1.0).abs() < 1e-6 && (p[1] - 2.0).abs() < 1e-6 && (p[2] + 2.0).abs() < 1e-6);
}

// ---- the scene ------------------------------------------------------------------------------

#[test]
fn sample_world_to_scene() {
    let w = samples::world();
    let (scene, warnings) = w.to_scene();
    assert!(warnings.is_empty(), "{warnings:?}");
    let errors: Vec<_> = scene
        .validate()
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let counts = scene.counts();
    assert_eq!(counts.nodes, 16); // 15 + the fence
    assert_eq!(counts.lights, 5);
    assert_eq!(counts.animations, 2);
    let mut speeds: Vec<(String, f64)> = scene
        .animations
        .iter()
        .map(|a| {
            let Motion::Spin {
                axis,
                degrees_per_second,
            } = a.motion;
            assert_eq!([axis[0], axis[1]], [0.0, 1.0]);
            (a.name.clone().unwrap(), degrees_per_second)
        })
        .collect();
    speeds.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(speeds[0].0, "SPIN0050");
    assert!((speeds[0].1 + 75.0).abs() < 1e-3);
    assert_eq!(speeds[1].0, "SPIN3550");
    assert!((speeds[1].1 - 75.0).abs() < 1e-3);
    let kinds: Vec<LightKind> = scene.lights.iter().map(|l| l.kind).collect();
    assert!(matches!(
        kinds.as_slice(),
        [
            LightKind::Ambient,
            LightKind::Directional,
            LightKind::Point,
            LightKind::Spot { .. },
            LightKind::Point
        ]
    ));
    // The fence: the closed square as one loop, and the free segment.
    let fence = scene
        .nodes
        .iter()
        .find(|n| n.name.as_deref() == Some("fence"))
        .unwrap();
    let mesh = &scene.meshes[fence.mesh.unwrap()];
    assert_eq!(mesh.lines.len(), 2);
    assert!(mesh.lines[0].closed && mesh.lines[0].points.len() == 4);
    assert!(!mesh.lines[1].closed && mesh.lines[1].points.len() == 2);
    assert!(mesh.positions.iter().all(|p| p[1] == 1.6));
    assert_eq!(scene.extras["wdb_fence"]["y_max"], 8.0);
    let bg = scene.extras["background_color"].as_array().unwrap();
    assert_eq!(bg[0].as_f64().unwrap(), 0x60 as f64 / 255.0);
    // Textures are files beside the world, one material each.
    assert_eq!(counts.textures, 7);
    assert_eq!(counts.materials, 7);
    // The pond is a line set.
    let pond = scene
        .nodes
        .iter()
        .find(|n| n.name.as_deref() == Some("pond"))
        .unwrap();
    let pond = &scene.meshes[pond.mesh.unwrap()];
    assert_eq!(pond.lines.len(), 5);
    assert!(pond.faces.is_empty());
}

#[test]
fn from_scene_of_to_scene_gives_the_world_back() {
    let mut worlds = vec![(u64::MAX, samples::world())];
    worlds.extend(generated());
    for (seed, w) in worlds {
        let (scene, _) = w.to_scene();
        let (back, warnings) = Wdb::from_scene(&scene).unwrap_or_else(|e| panic!("{seed}: {e}"));
        assert!(warnings.is_empty(), "seed {seed}: {warnings:?}");
        let bytes = back.write().unwrap();
        assert_eq!(Wdb::read(&bytes).unwrap(), back);
        assert_eq!(back, w, "seed {seed}");
    }
}

fn glb(scene: &Scene) -> Vec<u8> {
    gltf::write(
        scene,
        &GltfOptions {
            binary: true,
            embed: true,
            stem: "x".into(),
        },
    )
    .unwrap()
    .main
}

#[test]
fn a_world_through_glb_and_back() {
    let w = samples::world();
    let (scene, _) = w.to_scene();
    let bytes = glb(&scene);
    let (imported, _) =
        levelkit::import::gltf::read(&bytes, &mut levelkit::document::no_side_files).unwrap();
    let (back, _) = Wdb::from_scene(&imported).unwrap();
    let bytes = back.write().unwrap();
    let back = Wdb::read(&bytes).unwrap();
    let (a, b) = (w.summary(), back.summary());
    assert_eq!(
        (a.nodes, a.roots, a.lights, a.spinners, a.fence_segments),
        (b.nodes, b.roots, b.lights, b.spinners, b.fence_segments)
    );
    assert_eq!(
        (a.polygons, a.textures, a.line_sets),
        (b.polygons, b.textures, b.line_sets)
    );
    assert_eq!(back.header, w.header);
    assert_eq!(back.fence, w.fence);
    let names = |w: &Wdb| w.nodes.iter().map(|n| n.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&back), names(&w));
    for (x, y) in back.nodes.iter().zip(&w.nodes) {
        assert_eq!(x.animation, y.animation, "{:?}", x.name);
        assert_eq!(x.lights, y.lights, "{:?}", x.name);
    }
}

#[test]
fn a_world_made_from_a_gltf() {
    let cube = levelkit::formats::wings::samples::cube().unwrap();
    let (scene, _) = cube.to_scene();
    let bytes = glb(&scene);
    let (imported, _) =
        levelkit::import::gltf::read(&bytes, &mut levelkit::document::no_side_files).unwrap();
    let (w, warnings) = Wdb::from_scene(&imported).unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("beside the world")),
        "{warnings:?}"
    );
    assert!(w.validate().is_empty(), "{:?}", w.validate());
    let bytes = w.write().unwrap();
    let back = Wdb::read(&bytes).unwrap();
    assert_eq!(back, w);
    let s = back.summary();
    assert_eq!(s.nodes, 2);
    assert_eq!(s.geometries, 2);
    assert_eq!(s.polygons, 6 + 5);
    assert_eq!(s.textures, 1);
    assert_eq!(s.lights, 0);
    let cube_geometry = &back.nodes[0].geometries[0];
    assert!(cube_geometry.polygons.iter().all(|p| p.points.len() == 4));
    assert_eq!(cube_geometry.textures[0].name.display(), "checker.png");
    // Points per distinct (position, normal, UV): more than the 8 corners.
    assert!((9..=24).contains(&cube_geometry.points.len()));
    assert_eq!(cube_geometry.normals.len(), cube_geometry.points.len());
    // And the world exports again.
    let (scene, _) = back.to_scene();
    assert!(!glb(&scene).is_empty());
}

#[test]
fn a_scene_too_big_for_one_geometry_is_split() {
    let mut scene = Scene::new(levelkit::Format::Gltf);
    let n = 200u32;
    let mut mesh = levelkit::scene::Mesh::default();
    for j in 0..=n {
        for i in 0..=n {
            mesh.positions.push([f64::from(i), 0.0, f64::from(j)]);
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            mesh.faces.push(levelkit::scene::Face {
                corners: [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]
                    .into_iter()
                    .map(|position| levelkit::scene::Corner {
                        position,
                        ..Default::default()
                    })
                    .collect(),
                material: None,
            });
        }
    }
    scene.meshes.push(mesh);
    scene.add_root(levelkit::scene::Node {
        mesh: Some(0),
        ..Default::default()
    });
    let (w, _) = Wdb::from_scene(&scene).unwrap();
    let s = w.summary();
    assert_eq!(s.polygons, 40_000);
    assert!(s.geometries >= 4, "{s:?}");
    let bytes = w.write().unwrap();
    assert_eq!(Wdb::read(&bytes).unwrap(), w);
}

// ---- the Khronos validator ------------------------------------------------------------------

/// A 2 x 2 PNG, for the texture files a world's glTF references.
fn png() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, 2, 2);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&[255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
            .unwrap();
    }
    out
}

#[test]
fn glb_exports_pass_the_khronos_validator() {
    let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks")
    else {
        return;
    };
    let dir = common::out_dir("wdb", "validator");
    let mut worlds = vec![("sample".to_owned(), samples::world())];
    for seed in [1u64, 2, 3, 4, 5, 6, 7, 8] {
        worlds.push((format!("gen{seed}"), samples::generate(seed, 40)));
    }
    let mut checked = 0;
    for (name, w) in &worlds {
        let (scene, _) = w.to_scene();
        for t in &scene.textures {
            if let levelkit::scene::TextureSource::File(f) = &t.source {
                std::fs::write(dir.join(f), png()).unwrap();
            }
        }
        let path = dir.join(format!("{name}.glb"));
        std::fs::write(&path, glb(&scene)).unwrap();
        if !common::assert_gltf_valid(&script, &path) {
            return;
        }
        checked += 1;
    }
    eprintln!("validator: {checked} files, 0 errors, 0 warnings");
    assert_eq!(checked, worlds.len());
}

// ---- Blender (local check, not in CI) -------------------------------------------------------

/// Imports the sample world's `.glb` into Blender, sets the frame one second after the start and
/// prints each spinner's turn since the start; the turn must be 5 x 15 = 75 degrees about the
/// vertical, within Blender's interpolation error (Blender interpolates the quaternion's
/// components linearly between keys 90 degrees apart: 75.87 degrees after one second, where the
/// glTF's spherical interpolation gives exactly 75). Runs only with `LEVELKIT_BLENDER_SPIN=1` and
/// `blender` on the PATH (slow).
const BLENDER_SPIN: &str = r#"
import bpy, sys, math
import numpy
if not hasattr(numpy, "bool"):   # numpy >= 1.24; Blender 3.4's glTF importer uses np.bool
    numpy.bool = bool
f = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=f)
sc = bpy.context.scene
fps = sc.render.fps / sc.render.fps_base
for name in ["SPIN0050", "SPIN3550"]:
    ob = bpy.data.objects[name]
    # Blender makes one action per glTF animation and activates only the first per object
    # group; give each spinner its own.
    action = [a for a in bpy.data.actions if a.name.startswith(name + "_")][0]
    ob.animation_data_create()
    ob.animation_data.action = action
    start = action.frame_range[0]
    sc.frame_set(int(start))
    q0 = ob.matrix_world.to_quaternion()
    sc.frame_set(int(start + fps))
    q1 = ob.matrix_world.to_quaternion()
    d = q0.rotation_difference(q1)
    axis = d.axis
    sign = 1 if axis.z >= 0 else -1
    print("SPIN %s fps=%g start=%g frame=%d turn=%.3f axis=(%.3f,%.3f,%.3f) local_euler_z=%.3f" % (
        name, fps, start, sc.frame_current, sign * math.degrees(d.angle), sign * axis.x,
        sign * axis.y, sign * axis.z, math.degrees(ob.matrix_local.to_euler().z)))
"#;

#[test]
fn blender_plays_the_spin() {
    if std::env::var_os("LEVELKIT_BLENDER_SPIN").is_none() || !common::on_path("blender") {
        eprintln!("SKIP: set LEVELKIT_BLENDER_SPIN=1 (and have blender) to check the spin");
        return;
    }
    let dir = common::out_dir("wdb", "blender");
    let (scene, _) = samples::world().to_scene();
    for t in &scene.textures {
        if let levelkit::scene::TextureSource::File(f) = &t.source {
            std::fs::write(dir.join(f), png()).unwrap();
        }
    }
    let glb_path = dir.join("world.glb");
    std::fs::write(&glb_path, glb(&scene)).unwrap();
    let script = dir.join("spin.py");
    std::fs::write(&script, BLENDER_SPIN).unwrap();
    let out = Command::new("blender")
        .args([
            "-b",
            "--factory-startup",
            "--python-exit-code",
            "3",
            "--python",
        ])
        .arg(&script)
        .arg("--")
        .arg(&glb_path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("SPIN ")).collect();
    for l in &lines {
        eprintln!("{l}");
    }
    assert!(out.status.success() && lines.len() == 2, "{text}");
    // SPIN0050 turns -5 degrees per frame in the scene's right-handed frame, SPIN3550 +5.
    for (line, want) in lines.iter().zip([-75.0, 75.0]) {
        let turn: f64 = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("turn="))
            .unwrap()
            .parse()
            .unwrap();
        assert!((turn - want).abs() < 1.5, "{line}");
    }
}

mod properties {
    //! Property tests: generated worlds and mutated files, like the ones of wwd, nw and gani.

    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any generated world: model → bytes → model is the identity, and so is
        /// bytes → model → bytes.
        #[test]
        fn generated_worlds_round_trip(seed in any::<u64>(), nodes in 0usize..40) {
            let world = samples::generate(seed, nodes);
            let bytes = world.write().unwrap();
            let back = wdb::read(&bytes).unwrap();
            prop_assert_eq!(&back, &world);
            prop_assert_eq!(back.write().unwrap(), bytes);
        }

        /// The sample world with bytes overwritten anywhere: never a panic, and whatever still
        /// reads is written back byte for byte.
        #[test]
        fn mutated_world_is_refused_or_kept(
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)
        ) {
            let mut bytes = samples::world().write().unwrap();
            for (at, value) in flips {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(model) = wdb::read(&bytes) {
                prop_assert_eq!(model.write().unwrap(), bytes);
            }
        }
    }
}
