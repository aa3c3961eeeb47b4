//! V-Chat `.wdb` worlds, to the layout of the real worlds (`formats::wdb::hypotheses`, L1–L8):
//! the real worlds of the corpus (and of `$LEVELKIT_VCHAT_ALL`) read, validate, write back byte
//! for byte and through JSON, and give the same counts as an independent walk of their bytes
//! done the reference reader's way (`wdb_to_x3d`'s `Readwdb`); hand-made hex fixtures (one per
//! structure) drive both reading and writing; generated worlds round-trip; truncation at every
//! byte and random corruption with bounded allocation; huge counts refused before allocating;
//! several roots and trailing bytes; errors with the node path and offset; the scene conversion
//! both ways, a world made from a glTF, and the Khronos validator on the `.glb` exports.

use crate::common;
use crate::common::Rng;
use crate::common::alloc::peak_during;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::formats::wdb::hypotheses::{self as h, LightType, PolyDef};
use levelkit::formats::wdb::{self, samples, *};
use levelkit::gltf::{self, GltfOptions};
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
        trailing: vec![],
    }
}

fn flat_fence() -> Fence {
    Fence {
        borders: vec![],
        y_max: 1.0,
        y_min: 1.0,
    }
}

fn corners(pairs: &[[u16; 2]]) -> PolyDef {
    PolyDef {
        corners: pairs.to_vec(),
    }
}

/// The findings of severity error.
fn errors(w: &Wdb) -> Vec<levelkit::Warning> {
    w.validate()
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// Generated worlds of the sweeps: several seeds and sizes.
fn generated() -> Vec<(u64, Wdb)> {
    (0..120u64)
        .map(|seed| (seed, samples::generate(seed, 3 + (seed as usize * 7) % 60)))
        .collect()
}

/// `(name, bytes)` of every `*/data/world.wdb` under `dir`, sorted by name.
fn worlds_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let file = p.join("data").join("world.wdb");
            file.is_file().then(|| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&file).unwrap())
            })
        })
        .collect();
    out.sort();
    out
}

/// The real worlds of the corpus (`$LEVELKIT_CORPUS/vchat/<world>/data/world.wdb`); empty, with
/// a SKIP line, when `LEVELKIT_CORPUS` is not set.
fn corpus_worlds(what: &str) -> Vec<(String, Vec<u8>)> {
    let Some(dir) = common::corpus_or_skip("vchat", what) else {
        return vec![];
    };
    let worlds = worlds_in(&dir);
    assert!(
        !worlds.is_empty(),
        "no */data/world.wdb in {}",
        dir.display()
    );
    worlds
}

/// Every distinct public world: `$LEVELKIT_VCHAT_ALL/{worlds,cworlds}/<world>/data/world.wdb`
/// (a local copy of `msvchat/msvchat.github.io`, never in the repository), the same bytes once;
/// `None`, with a SKIP line, when the variable is not set.
fn all_worlds() -> Option<Vec<(String, Vec<u8>)>> {
    let root = std::env::var_os("LEVELKIT_VCHAT_ALL").filter(|v| !v.is_empty());
    let Some(root) = root.map(PathBuf::from) else {
        eprintln!("SKIP: LEVELKIT_VCHAT_ALL is not set; the 34 public worlds not checked");
        return None;
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for sub in ["worlds", "cworlds"] {
        let dir = root.join(sub);
        assert!(
            dir.is_dir(),
            "LEVELKIT_VCHAT_ALL is set but {} is missing",
            dir.display()
        );
        for (name, bytes) in worlds_in(&dir) {
            if seen.insert(bytes.clone()) {
                out.push((format!("{sub}/{name}"), bytes));
            }
        }
    }
    Some(out)
}

// ---- an independent walk of the bytes, the reference reader's way -----------------------------

/// What a world holds, counted the way the reference reader (`wdb_to_x3d`, `Readwdb`) reads it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    nodes: usize,
    roots: usize,
    geometries: usize,
    polygons: usize,
    lights: usize,
    /// Nodes whose speed is not 0 (the reference reader animates those).
    spinners: usize,
    /// Distinct non-empty texture names, ignoring case (the reference reader lower-cases them).
    textures: usize,
    /// Bytes after the last node that reads whole.
    trailing: usize,
}

impl Counts {
    /// Our reader's model, counted the same way.
    fn of(w: &Wdb) -> Counts {
        let s = w.summary();
        let names: BTreeSet<Vec<u8>> = w
            .nodes
            .iter()
            .flat_map(|n| &n.geometries)
            .flat_map(|g| &g.textures)
            .filter(|t| !t.name.is_empty())
            .map(|t| t.name.as_bytes().to_ascii_lowercase())
            .collect();
        Counts {
            nodes: s.nodes,
            roots: s.roots,
            geometries: s.geometries,
            polygons: s.polygons,
            lights: s.lights,
            spinners: w.nodes.iter().filter(|n| n.animation.speed != 0.0).count(),
            textures: names.len(),
            trailing: w.trailing.len(),
        }
    }

    fn row(&self) -> String {
        format!(
            "{:>5} {:>5} {:>5} {:>6} {:>6} {:>5} {:>5} {:>5}",
            self.nodes,
            self.roots,
            self.geometries,
            self.polygons,
            self.lights,
            self.spinners,
            self.textures,
            self.trailing
        )
    }
}

const TABLE_HEAD: &str = "nodes roots geoms  polys lights  spin  texs trail";

/// The result of [`walk`].
#[derive(Debug, Default)]
struct Walk {
    counts: Counts,
    /// Where the fence ends and where each root's tree ends: a prefix that ends fewer than
    /// `MIN_NODE_SIZE` bytes after one of these is a complete world (with trailing bytes).
    boundaries: Vec<usize>,
    /// The offsets of the count fields, by name (`numPoints`, `lenIFS`, …), in file order.
    fields: Vec<(&'static str, usize)>,
}

/// Why a node did not read.
enum Stop {
    /// The bytes ended (the reference reader catches this and keeps the nodes read so far).
    End,
    /// Something the reference reader would crash on.
    Crash(String),
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], Stop> {
        let end = self.at.checked_add(n).ok_or(Stop::End)?;
        let out = self.bytes.get(self.at..end).ok_or(Stop::End)?;
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, Stop> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, Stop> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn f32(&mut self) -> Result<f32, Stop> {
        let b = self.take(4)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// One node's counts (kept only when the whole node reads, as the reference reader does).
#[derive(Default)]
struct NodeCounts {
    geometries: usize,
    polygons: usize,
    lights: usize,
    spins: bool,
    children: u16,
    names: Vec<Vec<u8>>,
    fields: Vec<(&'static str, usize)>,
}

/// Walk `bytes` the way `Readwdb` does, without our reader: the header, the fence, then nodes
/// until the bytes end (a node cut short is not counted); the polygons of a geometry by walking
/// its face table from the first `numVerts` to the zero word (the word before `lenIFS` is not
/// used), and as many materials as that walk found; lights per node; a node spins when its speed
/// is not 0. Panics where `Readwdb` would crash (an index past the face table).
fn walk(bytes: &[u8]) -> Walk {
    let mut c = Cursor { bytes, at: 0 };
    let mut out = Walk::default();
    let header = c.take(12).ok().expect("a 12-byte header");
    assert_eq!(&header[..4], b"WDBV");
    out.fields.push(("numBorderDefs", c.at));
    let borders = c.u16().ok().expect("numBorderDefs");
    c.take(32 * usize::from(borders) + 16)
        .ok()
        .expect("the fence");
    out.boundaries.push(c.at);
    let mut names = BTreeSet::new();
    // Children still to come, per open ancestor.
    let mut open: Vec<u16> = Vec::new();
    loop {
        let start = c.at;
        let node = match walk_node(&mut c) {
            Ok(n) => n,
            Err(Stop::End) => {
                out.counts.trailing = bytes.len() - start;
                break;
            }
            Err(Stop::Crash(why)) => {
                panic!("the reference reader would crash at 0x{start:x}: {why}")
            }
        };
        let k = &mut out.counts;
        k.nodes += 1;
        k.geometries += node.geometries;
        k.polygons += node.polygons;
        k.lights += node.lights;
        k.spinners += usize::from(node.spins);
        names.extend(node.names);
        out.fields.extend(node.fields);
        while open.last() == Some(&0) {
            open.pop();
        }
        match open.last_mut() {
            Some(left) => *left -= 1,
            None => k.roots += 1,
        }
        if node.children > 0 {
            open.push(node.children);
        }
        while open.last() == Some(&0) {
            open.pop();
        }
        if open.is_empty() {
            out.boundaries.push(c.at);
        }
    }
    out.counts.textures = names.len();
    out
}

fn walk_node(c: &mut Cursor<'_>) -> Result<NodeCounts, Stop> {
    let mut n = NodeCounts::default();
    let name_len = c.u8()?;
    c.take(usize::from(name_len))?;
    c.take(64 + 24)?; // the matrix, the origin and the axis
    n.spins = c.f32()? != 0.0;
    n.fields.push(("numGeometries", c.at));
    let geometries = c.u16()?;
    for _ in 0..geometries {
        n.fields.push(("numPoints", c.at));
        let points = usize::from(c.u16()?);
        c.take(12 * points)?;
        n.fields.push(("numNormals", c.at));
        let normals = usize::from(c.u16()?);
        c.take(12 * normals)?;
        n.fields.push(("numPolygons", c.at));
        c.u16()?; // w4, unused
        n.fields.push(("lenIFS", c.at));
        let len = usize::from(c.u16()?);
        let table: Vec<u16> = (0..len / 2).map(|_| c.u16()).collect::<Result<_, _>>()?;
        let word = |i: usize| {
            table
                .get(i)
                .copied()
                .ok_or_else(|| Stop::Crash(format!("face table index {i} of {}", table.len())))
        };
        // `If tempIFS(0) <> 0 Then nPolys = 1`, then from definition to definition until a
        // zero word. (For an empty table, `Readwdb` keeps the previous geometry's count and
        // reads past the table; we count 0.)
        let mut polygons = 0usize;
        if word(0)? != 0 {
            polygons = 1;
            let mut next = 1 + 2 * usize::from(word(0)?);
            while word(next)? != 0 {
                polygons += 1;
                next += 1 + 2 * usize::from(word(next)?);
            }
        }
        n.fields.push(("renderType", c.at));
        c.u16()?;
        c.take(12 * points)?; // texture coordinates and point flags
        n.fields.push(("numTexDefs", c.at));
        let tex_defs = c.u8()?;
        for _ in 0..tex_defs {
            c.take(4)?;
            let len = c.u8()?;
            let name = c.take(usize::from(len))?.to_ascii_lowercase();
            if !name.is_empty() {
                n.names.push(name);
            }
            let records = c.u8()?;
            c.take(8 * usize::from(records))?;
        }
        c.take(2 * polygons)?; // the materials
        n.geometries += 1;
        n.polygons += polygons;
    }
    n.fields.push(("numLights", c.at));
    let lights = c.u16()?;
    c.take(28 * usize::from(lights))?;
    n.lights = usize::from(lights);
    n.fields.push(("numChildren", c.at));
    n.children = c.u16()?;
    Ok(n)
}

/// Read, validate, write, JSON and the walk of one real world; its counts (ours and the walk's)
/// and its spinners by the scene's rule (a speed and an axis).
fn check_real_world(name: &str, bytes: &[u8]) -> (Counts, Counts, usize) {
    let w = Wdb::read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let strict = Wdb::read_with(bytes, &Limits::strict()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(strict.write().unwrap(), bytes, "{name}: strict limits");
    let errors = errors(&w);
    assert!(errors.is_empty(), "{name}: {errors:?}");
    assert_eq!(w.write().unwrap(), bytes, "{name}: written back");
    let json = serde_json::to_string(&w).unwrap();
    let back: Wdb = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(back.write().unwrap(), bytes, "{name}: through JSON");
    assert_eq!(
        serde_json::to_string(&back).unwrap(),
        json,
        "{name}: JSON again"
    );
    assert!(w.tree().is_some(), "{name}: a complete tree");
    let ours = Counts::of(&w);
    let theirs = walk(bytes).counts;
    (ours, theirs, w.summary().spinners)
}

// ---- the real worlds --------------------------------------------------------------------------

/// The reference reader's reading of each corpus world (by [`walk`]; `amazing` ends with three
/// zero bytes): nodes, roots, geometries, polygons, lights, spinners (speed not 0), distinct
/// texture names (any case), trailing bytes.
const CORPUS_COUNTS: &[(&str, [usize; 8])] = &[
    ("amazing", [79, 1, 76, 294, 1, 0, 5, 3]),
    ("bugworld", [11, 1, 7, 14, 2, 0, 6, 0]),
    ("compass", [115, 1, 66, 602, 4, 3, 15, 0]),
    ("fishbowl", [49, 1, 43, 442, 4, 5, 10, 0]),
    ("hanami", [73, 1, 67, 1987, 3, 0, 5, 0]),
    ("help", [11, 1, 7, 9394, 2, 1, 4, 0]),
    ("hutchspace", [357, 1, 354, 1743, 1, 0, 122, 0]),
    ("theaterchat", [24, 1, 21, 252, 1, 2, 19, 0]),
];

fn pinned(name: &str) -> Option<Counts> {
    CORPUS_COUNTS.iter().find(|(n, _)| *n == name).map(
        |&(
            _,
            [
                nodes,
                roots,
                geometries,
                polygons,
                lights,
                spinners,
                textures,
                trailing,
            ],
        )| Counts {
            nodes,
            roots,
            geometries,
            polygons,
            lights,
            spinners,
            textures,
            trailing,
        },
    )
}

#[test]
fn corpus_worlds_read_validate_round_trip_and_agree_with_the_reference_reading() {
    let worlds = corpus_worlds("V-Chat corpus checks");
    if worlds.is_empty() {
        return;
    }
    eprintln!(
        "{:<12} {:>7}  ours: {TABLE_HEAD}  | walk: {TABLE_HEAD}  | scene spinners",
        "world", "bytes"
    );
    for (name, bytes) in &worlds {
        let (ours, theirs, spinners) = check_real_world(name, bytes);
        eprintln!(
            "{name:<12} {:>7}  ours: {}  | walk: {}  | {spinners}",
            bytes.len(),
            ours.row(),
            theirs.row()
        );
        assert_eq!(
            ours, theirs,
            "{name}: our reading and the reference reading"
        );
        if let Some(want) = pinned(name) {
            assert_eq!(ours, want, "{name}: the pinned counts");
        }
        // The scene and the GLB do not fail on a real world; what they take at peak.
        let (glb_len, peak) = peak_during(|| {
            let (scene, _) = Wdb::read(bytes).unwrap().to_scene();
            glb(&scene).len()
        });
        assert!(glb_len > 0, "{name}");
        eprintln!(
            "{name:<12} read + to_scene + GLB ({glb_len} bytes): {peak} bytes of heap at peak \
             ({:.1} x)",
            peak as f64 / bytes.len() as f64
        );
    }
    let names: Vec<&str> = worlds.iter().map(|(n, _)| n.as_str()).collect();
    for (name, _) in CORPUS_COUNTS {
        assert!(names.contains(name), "the corpus has no {name}");
    }
}

#[test]
fn every_public_world_reads_and_agrees_with_the_reference_reading() {
    let Some(worlds) = all_worlds() else { return };
    eprintln!(
        "{:<28} {:>7}  ours: {TABLE_HEAD}  | scene spinners",
        "world", "bytes"
    );
    let mut multi_root = 0;
    let mut trailing = 0;
    for (name, bytes) in &worlds {
        let (ours, theirs, spinners) = check_real_world(name, bytes);
        eprintln!(
            "{name:<28} {:>7}  ours: {}  | {spinners}",
            bytes.len(),
            ours.row()
        );
        assert_eq!(
            ours, theirs,
            "{name}: our reading and the reference reading"
        );
        multi_root += usize::from(ours.roots > 1);
        trailing += usize::from(ours.trailing > 0);
    }
    eprintln!(
        "{} distinct worlds, {multi_root} with more than one root, {trailing} with trailing bytes",
        worlds.len()
    );
    assert!(worlds.len() >= 34, "{} distinct worlds", worlds.len());
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

    // The header, an empty fence and no nodes (L1: the nodes run to the end of the file).
    out.push((
        "header",
        with_header(world(flat_fence(), vec![])),
        hex(HEADER_AND_EMPTY_FENCE),
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

    // A textured triangle (L2 corners as (point, normal), L3 lenIFS, L5 (u, v), L6 texture
    // definitions with a colour and records, L8 materials).
    let mut tri = empty_node("tri", 0);
    tri.geometries.push(Geometry {
        points: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
        polygons: vec![corners(&[[0, 0], [1, 0], [2, 1]])],
        render_flags: h::RENDER_TEXTURED,
        tex_coords: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
        point_flags: vec![[0xff; 4]; 3],
        textures: vec![
            TexDef {
                color: Bgr {
                    blue: 0x80,
                    green: 0x90,
                    red: 0xa0,
                },
                alpha: 0xff,
                name: RawString::from("a.bmp"),
                extra: vec![],
            },
            TexDef {
                color: Bgr {
                    blue: 1,
                    green: 2,
                    red: 3,
                },
                alpha: 0xff,
                name: RawString::default(),
                extra: vec![[0.0, 1.0]],
            },
        ],
        materials: vec![0],
    });
    out.push((
        "geometry",
        with_header(world(flat_fence(), vec![tri])),
        hex(&format!(
            "{HEADER_AND_EMPTY_FENCE}
            03 74 72 69                    # \"tri\"
            {IDENTITY_HEX}
            {NO_ANIMATION}
            01 00                          # numGeometries
              03 00                        # numPoints
              00 00 00 00 00 00 00 00 00 00 00 00
              00 00 80 3f 00 00 00 00 00 00 00 00
              00 00 00 00 00 00 80 3f 00 00 00 00
              02 00                        # numNormals
              00 00 00 00 00 00 00 00 00 00 80 bf
              00 00 00 00 00 00 80 3f 00 00 00 00
              01 00                        # numPolygons
              10 00                        # lenIFS: 14 bytes of definitions + the zero word
              03 00                        # numVerts 3, then (point, normal) pairs:
              00 00 00 00  01 00 00 00  02 00 01 00
              00 00                        # finalIFS
              00 01                        # renderType 256: textured
              00 00 00 00 00 00 00 00      # texture coordinates (u, v)
              00 00 80 3f 00 00 00 00
              00 00 00 00 00 00 80 3f
              ff ff ff ff ff ff ff ff ff ff ff ff   # per-point flags
              02                           # numTexDefs
              80 90 a0 ff                  # blue green red alpha
              05 61 2e 62 6d 70            # \"a.bmp\"
              00                           # no records
              01 02 03 ff                  # a plain colour
              00                           # no name
              01                           # one record
              00 00 00 00 00 00 80 3f      # (0, 1)
              00 00                        # material of polygon 0
            00 00                          # numLights
            00 00                          # numChildren
        "
        )),
    ));

    // A directional light with the uninitialised bytes real worlds have (L7).
    let mut sun = empty_node("sun", 0);
    sun.lights.push(Light {
        kind: LightType::Directional.byte(),
        b1: 0,
        b2: 0xcd,
        b3: 0xcd,
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
            03 73 75 6e                    # \"sun\"
            {IDENTITY_HEX}
            {NO_ANIMATION}
            00 00                          # numGeometries
            01 00                          # numLights
              03 00 cd cd                  # type 3 directional, b1 b2 b3
              c0 b0 a0 ff                  # blue green red, alpha
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
        assert_eq!(walk(&bytes).counts, Counts::of(&read), "{name}");
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
    assert_eq!(node.summary().spinners, 1);
    assert!((h::degrees_per_frame(node.nodes[0].animation.speed) - 1.0).abs() < 1e-5);
    let geometry = &cases[3].1.nodes[0].geometries[0];
    assert_eq!(h::len_ifs(&geometry.polygons), 16);
    assert_eq!(geometry.polygons[0].points().collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(
        h::render_type(geometry.render_flags),
        h::RenderType::Textured
    );
    assert_eq!(geometry.textures[0].color.rgb(), [0xa0, 0x90, 0x80]);
    assert_eq!(
        cases[3].1.summary().textures,
        1,
        "a.bmp (the plain colour names no file)"
    );
    let light = &cases[4].1.nodes[0].lights[0];
    assert_eq!(light.light_type(), Some(LightType::Directional));
    assert_eq!(h::light_rgb(light.color), [0xa0, 0xb0, 0xc0]);
    let (scene, _) = cases[4].1.to_scene();
    assert_eq!(scene.lights[0].kind, LightKind::Directional);
    assert_eq!(scene.lights[0].color[0], 0xa0 as f32 / 255.0);
    assert_eq!(cases[0].1.summary().background, "#4080a0");
}

// ---- several roots and trailing bytes (L1) ----------------------------------------------------

/// Like `lovely`: a root with one child, a second root of one node, then one zero byte.
fn lovely_like() -> Wdb {
    let mut w = world(
        flat_fence(),
        vec![
            empty_node("first", 1),
            empty_node("child", 0),
            empty_node("second", 0),
        ],
    );
    w.nodes[2].transform[13] = 4.0;
    w.trailing = vec![0];
    w
}

#[test]
fn two_roots_and_a_trailing_zero_byte_round_trip() {
    let w = lovely_like();
    assert!(errors(&w).is_empty(), "{:?}", w.validate());
    assert!(
        w.validate().iter().any(|f| f.message.contains("top-level")),
        "a warning about the second root: {:?}",
        w.validate()
    );
    let bytes = w.write().unwrap();
    assert_eq!(bytes.last(), Some(&0));
    let back = Wdb::read(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.summary().roots, 2);
    assert_eq!(back.tree().unwrap().roots, [0, 2]);
    let walked = walk(&bytes);
    assert_eq!(walked.counts, Counts::of(&w));
    assert_eq!((walked.counts.roots, walked.counts.trailing), (2, 1));
    let json = serde_json::to_string(&w).unwrap();
    assert!(json.contains("\"trailing\":\"00\""), "{json}");
    assert_eq!(serde_json::from_str::<Wdb>(&json).unwrap(), w);

    // Like `amazing`: two zero bytes after a single tree.
    let mut w = world(flat_fence(), vec![empty_node("only", 0)]);
    w.trailing = vec![0, 0];
    let bytes = w.write().unwrap();
    assert_eq!(Wdb::read(&bytes).unwrap(), w);
    assert!(w.validate().is_empty(), "{:?}", w.validate());
    // And without trailing bytes, none in JSON.
    w.trailing.clear();
    assert!(!serde_json::to_string(&w).unwrap().contains("trailing"));
}

#[test]
fn trailing_bytes_that_would_read_as_a_node_are_an_error() {
    assert_eq!(h::MIN_NODE_SIZE, MIN_NODE as u64);
    assert!(!h::another_root_fits(98) && h::another_root_fits(99));
    // 98 bytes are kept (a warning when they are not zero) and read back.
    let mut w = lovely_like();
    w.trailing = vec![0x5a; 98];
    assert!(errors(&w).is_empty(), "{:?}", w.validate());
    assert!(
        w.validate()
            .iter()
            .any(|f| f.location.path.as_deref() == Some("trailing")),
        "{:?}",
        w.validate()
    );
    let bytes = w.write().unwrap();
    assert_eq!(Wdb::read(&bytes).unwrap(), w);
    // 99 or more would read as another root: validation errors and the writer refuses.
    for n in [99, 100, 500] {
        let mut w = lovely_like();
        w.trailing = vec![0; n];
        let errors = errors(&w);
        assert_eq!(errors.len(), 1, "{n}: {errors:?}");
        assert_eq!(errors[0].location.path.as_deref(), Some("trailing"));
        assert!(w.write().is_err(), "{n}");
    }
    // Indeed: 99 zero bytes after a world are an empty node, a third root.
    let mut bytes = lovely_like().write().unwrap();
    bytes.pop();
    bytes.extend([0; 99]);
    let back = Wdb::read(&bytes).unwrap();
    assert_eq!(back.nodes.len(), 4);
    assert_eq!(back.summary().roots, 3);
    assert!(back.trailing.is_empty());
    assert_eq!(back.write().unwrap(), bytes);
}

// ---- round trips ------------------------------------------------------------------------------

#[test]
fn sample_world_round_trips_and_validates() {
    let w = samples::world();
    assert!(errors(&w).is_empty(), "{:?}", w.validate());
    let bytes = w.write().unwrap();
    let back = Wdb::read(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.write().unwrap(), bytes);
    assert_eq!(walk(&bytes).counts, Counts::of(&w));
    let s = back.summary();
    assert_eq!(s.version, 4);
    assert_eq!(s.nodes, w.nodes.len());
    assert!(s.spinners >= 2 && s.line_sets >= 1 && s.depth >= 3, "{s:?}");
    let mut kinds: Vec<u8> = back
        .nodes
        .iter()
        .flat_map(|n| n.lights.iter().map(|l| l.kind))
        .collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds, [0, 1, 2, 3, 4]);
    let json = serde_json::to_value(&s).unwrap();
    for key in [
        "nodes",
        "geometries",
        "lights",
        "version",
        "roots",
        "textures",
    ] {
        assert!(json.get(key).is_some(), "summary has {key}");
    }
    assert_eq!(json["nodes"], s.nodes);
    assert_eq!(json["lights"], s.lights);
}

#[test]
fn generated_worlds_round_trip_byte_for_byte() {
    let mut kinds = BTreeSet::new();
    let mut render = BTreeSet::new();
    let (mut empty_fences, mut fences, mut spinners, mut nested) = (0, 0, 0, 0);
    for (seed, w) in generated() {
        let errors = errors(&w);
        assert!(errors.is_empty(), "seed {seed}: {errors:?}");
        let bytes = w.write().unwrap();
        let back = Wdb::read_with(&bytes, &Limits::strict())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back, w, "seed {seed}");
        assert_eq!(back.write().unwrap(), bytes, "seed {seed}");
        assert_eq!(walk(&bytes).counts, Counts::of(&w), "seed {seed}");
        let s = w.summary();
        assert_eq!(s.nodes, w.nodes.len());
        kinds.extend(w.nodes.iter().flat_map(|n| n.lights.iter().map(|l| l.kind)));
        render.extend(
            w.nodes
                .iter()
                .flat_map(|n| n.geometries.iter().map(|g| g.render_flags)),
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
    assert!(
        render.contains(&h::RENDER_LINES) && render.len() >= 2,
        "render types {render:?}"
    );
    assert!(empty_fences > 10 && fences > 10 && spinners > 100 && nested > 30);
}

#[test]
fn json_round_trips_exactly() {
    let mut worlds = vec![samples::world(), lovely_like()];
    worlds.extend(generated().into_iter().take(30).map(|(_, w)| w));
    for w in worlds {
        let json = serde_json::to_string(&w).unwrap();
        let back: Wdb = serde_json::from_str(&json).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.write().unwrap(), w.write().unwrap());
    }
    // Awkward floats survive too: real worlds hold NaN texture coordinates (L5).
    let mut w = cases()[3].1.clone();
    let nan = f32::from_bits(0xffc0_0000); // the NaN of real worlds' texture coordinates
    let g = &mut w.nodes[0].geometries[0];
    g.tex_coords[0] = [nan, f32::from_bits(0x7f80_0001)]; // a signalling NaN with a payload
    g.tex_coords[1] = [f32::INFINITY, -0.0];
    g.points[0][0] = f32::from_bits(1); // the smallest subnormal
    g.textures[1].extra[0] = [f32::NEG_INFINITY, f32::MAX];
    w.nodes[0].transform[4] = 0.1;
    w.fence.y_min = f64::from_bits(0x7ff8_0000_0000_0001);
    w.fence.y_max = 0.1 + 0.2;
    let bytes = w.write().unwrap();
    let json = serde_json::to_string(&w).unwrap();
    let back: Wdb = serde_json::from_str(&json).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    assert_eq!(Wdb::read(&bytes).unwrap().write().unwrap(), bytes);
}

// ---- hostile input ----------------------------------------------------------------------------

/// The fewest bytes of a node: an empty name, the matrix, the animation, three zero counts.
const MIN_NODE: usize = 1 + 64 + 28 + 3 * 2;

/// Whether the prefix `len` of a world walked as `walk` is a complete world: it ends fewer than
/// a node's bytes after the fence or after a root's tree (the rest are trailing bytes).
fn prefix_is_a_world(walk: &Walk, len: usize) -> bool {
    walk.boundaries
        .iter()
        .rev()
        .find(|&&b| b <= len)
        .is_some_and(|&b| len - b < MIN_NODE)
}

/// Read the prefix `len` of `bytes` (walked as `walked`): an error with an offset within the
/// prefix, or, where the prefix is a complete world, a world that writes back to the prefix. 1
/// for a world.
fn check_prefix(name: &str, bytes: &[u8], walked: &Walk, len: usize) -> usize {
    let prefix = &bytes[..len];
    match wdb::read_with(prefix, &Limits::strict()) {
        Ok(w) => {
            assert!(prefix_is_a_world(walked, len), "{name}: prefix {len} reads");
            assert_eq!(w.write().unwrap(), prefix, "{name}: prefix {len}");
            1
        }
        Err(e) => {
            assert!(
                !prefix_is_a_world(walked, len),
                "{name}: prefix {len} is a world: {e}"
            );
            assert!(
                matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                "{name}: prefix {len}: {e}"
            );
            let at = e.location.offset;
            assert!(
                at.is_some_and(|at| at <= len as u64),
                "{name}: prefix {len}: {e}"
            );
            0
        }
    }
}

#[test]
fn every_prefix_is_an_error_or_a_world_of_its_own() {
    let mut inputs = vec![
        ("sample".to_owned(), samples::world().write().unwrap()),
        ("lovely-like".to_owned(), lovely_like().write().unwrap()),
    ];
    for seed in [3u64, 11, 42] {
        inputs.push((
            format!("seed {seed}"),
            samples::generate(seed, 12).write().unwrap(),
        ));
    }
    for (name, model, bytes) in cases() {
        assert_eq!(model.write().unwrap(), bytes);
        inputs.push((name.to_owned(), bytes));
    }
    for (name, bytes) in &inputs {
        let walked = walk(bytes);
        let worlds: usize = (0..bytes.len())
            .map(|len| check_prefix(name, bytes, &walked, len))
            .sum();
        eprintln!("{name}: {} prefixes, {worlds} of them worlds", bytes.len());
        assert!(wdb::read(bytes).is_ok());
    }
}

/// Every prefix of every corpus world. Reading a prefix is linear in its length, so this reads
/// about 1e11 bytes in all (two thirds of them prefixes of `help`): the lengths are shared out
/// over the cores.
#[test]
fn every_prefix_of_every_corpus_world_is_an_error_or_a_world() {
    let worlds = corpus_worlds("V-Chat truncation sweep");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let worlds = &worlds;
    std::thread::scope(|s| {
        let jobs: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut worlds_seen = 0;
                    for (name, bytes) in worlds {
                        let walked = walk(bytes);
                        for len in (t..bytes.len()).step_by(threads) {
                            worlds_seen += check_prefix(name, bytes, &walked, len);
                        }
                    }
                    worlds_seen
                })
            })
            .collect();
        let worlds_seen: usize = jobs.into_iter().map(|j| j.join().unwrap()).sum();
        let bytes: usize = worlds.iter().map(|(_, b)| b.len()).sum();
        eprintln!(
            "{bytes} prefixes of {} worlds on {threads} threads, {worlds_seen} of them worlds",
            worlds.len()
        );
    });
}

/// Mutated worlds: `n` byte changes (random, 0xff, or one bit flipped), from a fixed seed.
fn mutate(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len());
        b[at] = match rng.below(3) {
            0 => rng.next() as u8,
            1 => 0xff,
            _ => b[at] ^ (1 << rng.below(8)),
        };
    }
    b
}

/// Read `b` under strict limits, measuring the allocation; a world that reads must validate,
/// convert and write back to `b`.
fn read_mutated(b: &[u8], scene: bool) -> (bool, usize) {
    let (result, peak) = peak_during(|| wdb::read_with(b, &Limits::strict()));
    match result {
        Ok(w) => {
            let _ = w.validate();
            let _ = w.summary();
            if scene {
                let _ = w.to_scene();
            }
            assert_eq!(
                w.write().unwrap(),
                b,
                "a world that reads writes its own bytes"
            );
            (true, peak)
        }
        Err(e) => {
            assert!(e.location.offset.is_some(), "{e}");
            (false, peak)
        }
    }
}

/// Peak allocation of a read, in input bytes, plus [`ALLOC_SLACK`]. A real world's model takes
/// about 3 times its bytes (half of it the node list, which the reader reserves for as many
/// nodes as the bytes could hold); the most a valid input asks for is a face table of
/// definitions without corners (4 bytes in the file with its material, a 24-byte `PolyDef` and
/// the material in the model): about 8 times (`definitions_without_corners_…`).
const ALLOC_FACTOR: usize = 16;
const ALLOC_SLACK: usize = 64 << 10;

#[test]
fn garbage_reads_or_fails_without_panic_and_with_bounded_allocation() {
    let mut rng = Rng(0x5eed | 1);
    let mut inputs = vec![samples::world().write().unwrap()];
    for seed in [5u64, 17] {
        inputs.push(samples::generate(seed, 20).write().unwrap());
    }
    let (mut ok, mut err) = (0, 0);
    for base in &inputs {
        for _ in 0..1500 {
            let b = mutate(base, &mut rng);
            let (read, peak) = read_mutated(&b, true);
            assert!(
                peak <= ALLOC_FACTOR * b.len() + ALLOC_SLACK,
                "{peak} bytes for a {}-byte input",
                b.len()
            );
            if read {
                ok += 1;
            } else {
                err += 1;
            }
        }
    }
    assert!(ok > 100 && err > 100, "ok {ok}, err {err}");
}

#[test]
fn corpus_garbage_never_panics_and_allocation_stays_bounded() {
    let worlds = corpus_worlds("V-Chat corruption sweep");
    if worlds.is_empty() {
        return;
    }
    // First the worlds as they are: the model's size against the file's.
    for (name, bytes) in &worlds {
        let (w, peak) = peak_during(|| Wdb::read(bytes).unwrap());
        eprintln!(
            "{name}: {} bytes, reading allocates {peak} at peak ({:.2} x)",
            bytes.len(),
            peak as f64 / bytes.len() as f64
        );
        assert!(peak <= ALLOC_FACTOR * bytes.len() + ALLOC_SLACK, "{name}");
        drop(w);
    }
    let mut rng = Rng(0x7764_6221);
    let (mut ok, mut err) = (0, 0);
    let mut worst = 0f64;
    for round in 0..3000 {
        let (name, base) = &worlds[round % worlds.len()];
        let b = mutate(base, &mut rng);
        // The scene of every tenth world that reads (the sweep is the reader's).
        let (read, peak) = read_mutated(&b, round % 10 == 0);
        assert!(
            peak <= ALLOC_FACTOR * b.len() + ALLOC_SLACK,
            "{name}, round {round}: {peak} bytes for a {}-byte input",
            b.len()
        );
        worst = worst.max(peak as f64 / b.len() as f64);
        if read {
            ok += 1;
        } else {
            err += 1;
        }
    }
    eprintln!(
        "3000 mutations: {ok} read, {err} refused; peak allocation at most {worst:.2} x the input"
    );
    assert!(ok > 100 && err > 100, "ok {ok}, err {err}");
}

/// A world of about 2 KB: a fence, a node with a textured box, a light, and a child.
fn two_kb_world() -> Wdb {
    let mut parent = empty_node("parent", 1);
    parent
        .geometries
        .push(samples::boxed([2.0, 1.0, 3.0], &["a.bmp", "b.bmp"]));
    parent.lights.push(samples::light(LightType::Point, 0x80));
    let mut w = world(
        Fence {
            borders: vec![
                Border {
                    x0: 0.0,
                    z0: 0.0,
                    x1: 1.0,
                    z1: 0.0,
                };
                4
            ],
            y_max: 2.0,
            y_min: 1.0,
        },
        vec![parent, empty_node("child", 0)],
    );
    // Pad to about 2 KB with points of the geometry (kept whole: texture coordinates, flags).
    let g = &mut w.nodes[0].geometries[0];
    while w.fence.borders.len() * 32 + g.points.len() * 24 < 1400 {
        g.points.push([0.0; 3]);
        g.tex_coords.push([0.0; 2]);
        g.point_flags.push([0xff; 4]);
    }
    w
}

#[test]
fn huge_counts_are_refused_before_allocating() {
    let w = two_kb_world();
    assert!(errors(&w).is_empty(), "{:?}", w.validate());
    let base = w.write().unwrap();
    assert!((1800..2300).contains(&base.len()), "{}", base.len());
    let walked = walk(&base);
    let field = |name: &str| {
        walked
            .fields
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .1
    };
    let (_, clean) = peak_during(|| Wdb::read_with(&base, &Limits::strict()).unwrap());
    eprintln!(
        "the {}-byte world reads with {clean} bytes at peak",
        base.len()
    );
    for (what, width) in [
        ("numBorderDefs", 2),
        ("numGeometries", 2),
        ("numPoints", 2),
        ("numNormals", 2),
        ("numPolygons", 2),
        ("lenIFS", 2),
        ("numTexDefs", 1),
        ("numLights", 2),
        ("numChildren", 2),
    ] {
        let at = field(what);
        let mut b = base.clone();
        b[at..at + width].fill(0xff);
        let (r, peak) = peak_during(|| wdb::read_with(&b, &Limits::strict()));
        let e = r.expect_err(what);
        eprintln!(
            "{what} = 0x{}: {peak} bytes at peak: {e}",
            "ff".repeat(width)
        );
        assert!(e.location.offset.is_some(), "{what}: {e}");
        // 65,535 points alone would be 786 KB; what was allocated is what the 2 KB world
        // takes, and not a multiple of the count.
        assert!(peak <= clean + (16 << 10), "{what}: {peak} bytes");
    }
}

#[test]
fn definitions_without_corners_are_the_most_a_model_takes() {
    // The largest model per input byte: a face table of empty definitions (the reader keeps
    // them; validation warns).
    let mut w = world(flat_fence(), vec![empty_node("empty", 0)]);
    w.nodes[0].geometries.push(Geometry {
        polygons: vec![PolyDef::default(); 16_000],
        materials: vec![0; 16_000],
        render_flags: h::RENDER_LIT,
        ..Geometry::default()
    });
    assert!(errors(&w).is_empty());
    let bytes = w.write().unwrap();
    let (back, peak) = peak_during(|| Wdb::read_with(&bytes, &Limits::strict()).unwrap());
    assert_eq!(back, w);
    eprintln!(
        "{} bytes of empty definitions: {peak} bytes at peak ({:.2} x)",
        bytes.len(),
        peak as f64 / bytes.len() as f64
    );
    assert!(peak <= ALLOC_FACTOR * bytes.len() + ALLOC_SLACK, "{peak}");
    assert!(
        peak > 4 * bytes.len(),
        "the model is larger than the file: {peak}"
    );
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
    assert!(e.location.offset.is_some(), "{e}");
}

// ---- structural errors are reported where they are --------------------------------------------

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
    // header 12, fence 18; node "a" 2 + 92 + 6; "SPIN0010" 9 + 92, numGeometries 2.
    let geometry_at = 12 + 18 + 100 + 9 + 92 + 2;
    let len_ifs_at = geometry_at + 2 + 36 + 2 + 24 + 2;
    assert_eq!(&bytes[len_ifs_at..len_ifs_at + 2], &[16, 0]);
    assert_eq!(
        walk(&bytes)
            .fields
            .iter()
            .find(|f| f.0 == "lenIFS")
            .unwrap()
            .1,
        len_ifs_at
    );
    // lenIFS, 16 bytes of table, renderType, 3 x 12 bytes of (u, v) and flags, the texture
    // definitions (11 + 14), the material, numLights, numChildren.
    let after_at = len_ifs_at + 2 + 16 + 2 + 36 + 1 + 11 + 14 + 2 + 2 + 2;
    assert_eq!(&bytes[after_at..after_at + 6], b"\x05after");
    (w, bytes, len_ifs_at, after_at)
}

const SPIN_PATH: &str = "nodes/0 \"a\"/children/0 \"SPIN0010\"/geometries/0";

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
    let (w, bytes, len_ifs_at, _) = probe_world();
    assert_eq!(wdb::read(&bytes).unwrap(), w);
    let table = len_ifs_at + 2;

    // lenIFS two bytes too long: bytes are left after the definitions.
    let mut b = bytes.clone();
    b[len_ifs_at] = 18;
    let text = expect_geometry_error(&b, table + 14, "lenIFS too long");
    assert!(text.contains("are left"), "{text}");

    // Too short: the polygon runs past the table.
    let mut b = bytes.clone();
    b[len_ifs_at] = 12;
    let text = expect_geometry_error(&b, table, "lenIFS too short");
    assert!(text.contains("run past"), "{text}");

    // Less than the zero word.
    let mut b = bytes.clone();
    b[len_ifs_at] = 1;
    expect_geometry_error(&b, len_ifs_at, "lenIFS below 2");

    // numVerts wrong.
    let mut b = bytes.clone();
    b[table] = 2;
    let text = expect_geometry_error(&b, table + 10, "numVerts");
    assert!(text.contains("are left"), "{text}");

    // The terminating word is not zero.
    let mut b = bytes.clone();
    b[table + 14] = 1;
    let text = expect_geometry_error(&b, table + 14, "finalIFS");
    assert!(text.contains("zero word"), "{text}");

    // numPolygons (L4) larger than the table can hold, and smaller than the definitions.
    let mut b = bytes.clone();
    b[len_ifs_at - 2] = 9;
    expect_geometry_error(&b, len_ifs_at, "numPolygons");
    let mut b = bytes;
    b[len_ifs_at - 2] = 0;
    let text = expect_geometry_error(&b, table, "numPolygons 0");
    assert!(text.contains("are left"), "{text}");
}

#[test]
fn indices_out_of_range_are_read_and_reported_by_validation() {
    // L2, L8: an index past the points or normals, or a material past the definitions, is kept
    // (a community world has material 256 with one definition) and validation warns.
    let (_, bytes, len_ifs_at, after_at) = probe_world();
    let table = len_ifs_at + 2;
    let material_at = after_at - 6;
    let mut b = bytes.clone();
    b[table + 2] = 7; // the first corner's point
    b[table + 12] = 9; // the last corner's normal
    b[material_at..material_at + 2].copy_from_slice(&256u16.to_le_bytes());
    let w = wdb::read(&b).unwrap();
    assert_eq!(w.write().unwrap(), b);
    let g = &w.nodes[1].geometries[0];
    assert_eq!(g.polygons[0].corners, [[7, 0], [1, 0], [2, 9]]);
    assert_eq!(g.materials, [256]);
    assert_eq!(h::material_index(256, g.textures.len()), Some(0));
    assert_eq!(h::material_index(1, 2), Some(1));
    assert_eq!(h::material_index(0, 0), None);
    let found = w.validate();
    assert!(
        found.iter().all(|f| f.severity == Severity::Warning),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.message.contains("uses point 7")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.message.contains("material 256")),
        "{found:?}"
    );
    // (and one about the second root)
    let paths: Vec<&str> = found
        .iter()
        .filter_map(|f| f.location.path.as_deref())
        .filter(|&p| p != "nodes")
        .collect();
    assert_eq!(paths.len(), 2, "{found:?}");
    assert!(
        paths
            .iter()
            .all(|p| p.starts_with("nodes/0/children/0 \"SPIN0010\"/geometries/0")),
        "{paths:?}"
    );
    // The scene leaves the polygon out and still converts.
    let (scene, _) = w.to_scene();
    assert!(!glb(&scene).is_empty());
}

#[test]
fn child_counts_and_the_end_of_the_file_are_checked() {
    let (_, bytes, _, after_at) = probe_world();
    let children_at = 12 + 18 + 98;
    assert_eq!(&bytes[children_at..children_at + 2], &[1, 0]);

    // Two children more than there are: the file ends where a child is promised.
    let mut b = bytes.clone();
    b[children_at] = 3;
    let e = wdb::read(&b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    assert_eq!(
        e.location.path.as_deref(),
        Some("nodes/0 \"a\"/children/2"),
        "{e}"
    );
    assert_eq!(e.location.offset, Some(b.len() as u64), "{e}");

    // One more: the second root becomes a child, and the tree has one root.
    let mut b = bytes.clone();
    b[children_at] = 2;
    let w = wdb::read(&b).unwrap();
    assert_eq!(w.summary().roots, 1);
    assert_eq!(w.tree().unwrap().children[0], [1, 2]);
    assert_eq!(w.write().unwrap(), b);

    // Bytes after the tree: fewer than a node are trailing bytes; more are read as a root, and
    // one cut short is an error there.
    let b = &bytes[..after_at + 98];
    let w = wdb::read(b).unwrap();
    assert_eq!((w.summary().roots, w.trailing.len()), (1, 98));
    assert_eq!(w.write().unwrap(), b);
    let b = &bytes[..bytes.len() - 1];
    let e = wdb::read(b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    assert_eq!(e.location.path.as_deref(), Some("nodes/1 \"after\""), "{e}");
    assert_eq!(e.location.offset, Some(b.len() as u64 - 1), "{e}");
}

#[test]
fn the_magic_and_light_types() {
    let e = wdb::read(b"WDBX\x04\0\0\0\0\0\0\xff").unwrap_err();
    assert!(e.to_string().contains("not a V-Chat world"), "{e}");
    assert_eq!(wdb::read(b"WD").unwrap_err().kind, ErrorKind::Truncated);
    assert_eq!(wdb::read(b"").unwrap_err().kind, ErrorKind::Truncated);
    // L7: the type is a raw byte; one that is no Direct3D RM type reads, is kept, and warns.
    let mut b = cases()[4].2.clone();
    let type_at = b.len() - 2 - 28;
    assert_eq!(b[type_at], 3);
    b[type_at] = 5;
    let w = wdb::read(&b).unwrap();
    assert_eq!(w.nodes[0].lights[0].kind, 5);
    assert_eq!(w.nodes[0].lights[0].light_type(), None);
    assert_eq!(w.write().unwrap(), b);
    let found = w.validate();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].location.path.as_deref(),
        Some("nodes/0 \"sun\"/lights/0")
    );
    assert!(found[0].message.contains("light type 5"), "{found:?}");
    let (scene, _) = w.to_scene();
    assert!(scene.lights.is_empty());
    for t in LightType::ALL {
        assert_eq!(LightType::from_byte(t.byte()), Some(t));
    }
}

#[test]
fn render_types() {
    use h::RenderType;
    assert_eq!(h::render_type(0), RenderType::Lines);
    assert_eq!(h::render_type(256), RenderType::Textured);
    assert_eq!(h::render_type(768), RenderType::Flat);
    assert_eq!(h::render_type(1024), RenderType::Lit);
    assert_eq!(h::render_type(1), RenderType::Other(1));
    assert!(h::is_line_set(0) && !h::is_line_set(256));
    let mut w = cases()[3].1.clone();
    w.nodes[0].geometries[0].render_flags = 512;
    let found = w.validate();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].message.contains("render type 512"), "{found:?}");
    assert_eq!(found[0].severity, Severity::Warning);
}

#[test]
fn validation_reports_what_the_writer_refuses_and_what_is_odd() {
    // Warnings: written as they are.
    let mut w = cases()[3].1.clone();
    w.nodes[0].geometries[0].materials[0] = 9;
    w.nodes[0].geometries[0].polygons[0].corners[0][0] = 999;
    w.nodes[0].transform[5] = f32::NAN;
    w.header.version = 5;
    let found = w.validate();
    assert!(
        found.iter().all(|f| f.severity == Severity::Warning),
        "{found:?}"
    );
    assert_eq!(found.len(), 4, "{found:?}");
    assert!(found.iter().any(|f| f.message.contains("version is 5")));
    assert!(w.write().is_ok());

    // Errors: refused by the writer, each with its path.
    let base = cases()[3].1.clone();
    fn g(w: &mut Wdb) -> &mut Geometry {
        &mut w.nodes[0].geometries[0]
    }
    type Change = Box<dyn Fn(&mut Wdb)>;
    let cases: Vec<(&str, Change, &str)> = vec![
        (
            "tex coords",
            Box::new(|w| {
                g(w).tex_coords.pop();
            }),
            "nodes/0 \"tri\"/geometries/0",
        ),
        (
            "materials",
            Box::new(|w| g(w).materials.push(0)),
            "nodes/0 \"tri\"/geometries/0",
        ),
        (
            "texture name",
            Box::new(|w| g(w).textures[0].name = RawString(vec![b'x'; 256])),
            "nodes/0 \"tri\"/geometries/0/textures/0",
        ),
        (
            "records",
            Box::new(|w| g(w).textures[1].extra = vec![[0.0; 2]; 256]),
            "nodes/0 \"tri\"/geometries/0/textures/1",
        ),
        (
            "texture definitions",
            Box::new(|w| {
                let t = g(w).textures[0].clone();
                g(w).textures = vec![t; 256];
            }),
            "nodes/0 \"tri\"/geometries/0",
        ),
        (
            "children",
            Box::new(|w| w.nodes[0].children = 1),
            "nodes[0]",
        ),
        (
            "trailing",
            Box::new(|w| w.trailing = vec![0; 200]),
            "trailing",
        ),
    ];
    for (what, change, path) in cases {
        let mut w = base.clone();
        change(&mut w);
        let errors = errors(&w);
        assert_eq!(errors.len(), 1, "{what}: {errors:?}");
        assert!(
            errors[0]
                .location
                .path
                .as_deref()
                .is_some_and(|p| p.starts_with(path)),
            "{what}: {errors:?}"
        );
        let e = w.write().expect_err(what);
        assert!(e.to_string().contains("can not write"), "{what}: {e}");
    }
    // A node name over 255 bytes.
    let mut w = base.clone();
    w.nodes[0].name = RawString(vec![b'n'; 300]);
    assert_eq!(errors(&w).len(), 1);
    assert!(w.write().is_err());
    let mut w = base;
    w.nodes[0].children = 2;
    assert!(w.tree().is_none());
    assert_eq!(w.summary().roots, 0);

    // A spinner whose name disagrees with its speed, and one that is not named SPIN.
    let mut w = samples::world();
    let i = w
        .nodes
        .iter()
        .position(|n| n.name.0.eq_ignore_ascii_case(b"SPIN0050"))
        .unwrap();
    let before = w.validate().len();
    w.nodes[i].animation.speed = h::speed_for(2.0);
    let found = w.validate();
    assert_eq!(found.len(), before + 1, "{found:?}");
    assert!(
        found
            .iter()
            .any(|f| f.message.contains("the name says 5.0")),
        "{found:?}"
    );
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
    // M8: 20 frames per second, the reference reader's spin cycle of pi / (10 x speed) seconds.
    assert_eq!(h::FRAMES_PER_SECOND, 20.0);
    let speed = h::speed_for(5.0);
    let cycle = std::f64::consts::PI / (10.0 * f64::from(speed));
    assert!((cycle * h::FRAMES_PER_SECOND * 5.0 - 360.0).abs() < 1e-3);
    // In the scene: the handedness change turns the rotation the other way.
    let (axis, dps) = h::spin_to_scene([0.0, 1.0, 0.0], speed);
    assert_eq!(axis[1], 1.0);
    assert!((dps + 5.0 * h::FRAMES_PER_SECOND).abs() < 1e-3);
    let (back, per_frame) = h::spin_from_scene(axis, dps);
    assert_eq!(back, [0.0, 1.0, 0.0]);
    assert!((per_frame - 5.0).abs() < 1e-4);
}

#[test]
fn texture_animations_are_named_by_their_nodes() {
    // M12.
    let a = h::texture_animation(b"anim0450").unwrap();
    assert_eq!((a.frames, a.centiseconds), (4, 50));
    let a = h::texture_animation(b"ANIM0205no3").unwrap();
    assert_eq!((a.frames, a.centiseconds), (2, 5));
    assert_eq!(h::texture_animation(b"anim0050"), None, "no frames");
    assert_eq!(h::texture_animation(b"anim12"), None);
    assert_eq!(h::texture_animation(b"animal"), None);
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
    let s = w.summary();
    let (scene, warnings) = w.to_scene();
    assert!(warnings.is_empty(), "{warnings:?}");
    let errors: Vec<_> = scene
        .validate()
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let counts = scene.counts();
    assert_eq!(counts.nodes, s.nodes + 1); // and the fence
    assert_eq!(counts.lights, s.lights);
    assert_eq!(counts.animations, s.spinners);
    // Each spinner turns at its speed, the other way in the right-handed scene.
    for a in &scene.animations {
        let Motion::Spin {
            axis,
            degrees_per_second,
        } = a.motion;
        let name = a.name.clone().unwrap();
        let node = w.nodes.iter().find(|n| n.name.display() == name).unwrap();
        let (want_axis, want) = h::spin_to_scene(node.animation.axis, node.animation.speed);
        assert_eq!(axis, want_axis, "{name}");
        assert!((degrees_per_second - want).abs() < 1e-6, "{name}");
    }
    // The fence: its y limits in the scene's extras, its segments as lines at yMin.
    let fence = scene
        .nodes
        .iter()
        .find(|n| n.name.as_deref() == Some("fence"))
        .unwrap();
    let mesh = &scene.meshes[fence.mesh.unwrap()];
    let points: usize = mesh.lines.iter().map(|l| l.points.len()).sum();
    assert!(points >= w.fence.borders.len());
    assert!(mesh.positions.iter().all(|p| p[1] == w.fence.y_min));
    assert_eq!(scene.extras["wdb_fence"]["y_max"], w.fence.y_max);
    let bg = scene.extras["background_color"].as_array().unwrap();
    assert_eq!(
        bg[0].as_f64().unwrap(),
        f64::from(w.header.background.red) / 255.0
    );
    // A line set has lines and no faces.
    let (i, _) = w
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.geometries.iter().any(|g| h::is_line_set(g.render_flags)))
        .unwrap();
    let lines = &scene.meshes[scene.nodes[i].mesh.unwrap()];
    assert!(!lines.lines.is_empty() && lines.faces.is_empty());
}

/// `w` as [`Wdb::from_scene`] makes it: real worlds have one root, so several roots become the
/// children of an unnamed one.
fn under_one_root(w: &Wdb) -> Wdb {
    let roots = w.summary().roots;
    let mut out = w.clone();
    if roots > 1 {
        out.nodes.insert(0, empty_node("", roots as u16));
    }
    out
}

/// `a` and `b` are the same world up to the numbering of normals and the texture definitions
/// of untextured geometries: everything but the geometries is equal, and each geometry has the
/// same points, texture coordinates, flags and render type, and the same polygons with the same
/// normal (by value, where the corner has one) at each corner and the same texture name.
fn assert_same_world(a: &Wdb, b: &Wdb, what: &str) {
    assert_eq!(
        (&a.header, &a.fence, &a.trailing, a.nodes.len()),
        (&b.header, &b.fence, &b.trailing, b.nodes.len()),
        "{what}"
    );
    for (i, (x, y)) in a.nodes.iter().zip(&b.nodes).enumerate() {
        let at = format!("{what}: node {i} {:?}", x.name);
        assert_eq!(
            (&x.name, x.transform, x.animation, &x.lights, x.children),
            (&y.name, y.transform, y.animation, &y.lights, y.children),
            "{at}"
        );
        assert_eq!(x.geometries.len(), y.geometries.len(), "{at}");
        for (g, k) in x.geometries.iter().zip(&y.geometries) {
            assert_eq!(
                (&g.points, &g.tex_coords, g.render_flags),
                (&k.points, &k.tex_coords, k.render_flags),
                "{at}"
            );
            assert_eq!(g.point_flags, k.point_flags, "{at}");
            // (A line set may have no normals.)
            type Corner = (u16, Option<[u32; 3]>);
            let faces = |g: &Geometry| -> Vec<(Vec<Corner>, Vec<u8>)> {
                g.polygons
                    .iter()
                    .zip(&g.materials)
                    .map(|(p, &m)| {
                        let corners = p
                            .corners
                            .iter()
                            .map(|&[point, normal]| {
                                let normal = g.normals.get(usize::from(normal));
                                (point, normal.map(|n| n.map(f32::to_bits)))
                            })
                            .collect();
                        let texture = h::material_index(m, g.textures.len())
                            .map(|t| g.textures[t].name.as_bytes().to_vec())
                            .unwrap_or_default();
                        (corners, texture)
                    })
                    .collect()
            };
            // A corner without a normal (a line set's, or a geometry without normals) may get
            // one: the scene computes normals.
            let (mut fg, fk) = (faces(g), faces(k));
            for ((corners, _), (theirs, _)) in fg.iter_mut().zip(&fk) {
                for (c, t) in corners.iter_mut().zip(theirs) {
                    if c.1.is_none() {
                        c.1 = t.1;
                    }
                }
            }
            assert_eq!(fg, fk, "{at}");
        }
    }
}

#[test]
fn from_scene_of_to_scene_gives_the_world_back() {
    let mut worlds = vec![(u64::MAX, samples::world()), (u64::MAX - 1, lovely_like())];
    worlds.extend(generated());
    for (seed, w) in worlds {
        let (scene, _) = w.to_scene();
        let (back, warnings) = Wdb::from_scene(&scene).unwrap_or_else(|e| panic!("{seed}: {e}"));
        assert!(warnings.is_empty(), "seed {seed}: {warnings:?}");
        let bytes = back.write().unwrap();
        assert_eq!(Wdb::read(&bytes).unwrap(), back);
        assert_same_world(&under_one_root(&w), &back, &format!("seed {seed}"));
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
        levelkit::gltf::read(&bytes, &mut levelkit::document::no_side_files).unwrap();
    let (back, _) = Wdb::from_scene(&imported).unwrap();
    let bytes = back.write().unwrap();
    let back = Wdb::read(&bytes).unwrap();
    let w = under_one_root(&w);
    let (a, b) = (w.summary(), back.summary());
    // (Distinct texture names without the plain colours: an untextured geometry gets one.)
    assert_eq!(Counts::of(&w).textures, Counts::of(&back).textures);
    assert_eq!(
        (a.nodes, a.roots, a.lights, a.spinners, a.fence_segments),
        (b.nodes, b.roots, b.lights, b.spinners, b.fence_segments)
    );
    assert_eq!((a.polygons, a.line_sets), (b.polygons, b.line_sets));
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
        levelkit::gltf::read(&bytes, &mut levelkit::document::no_side_files).unwrap();
    let (w, warnings) = Wdb::from_scene(&imported).unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("beside the world")),
        "{warnings:?}"
    );
    assert!(errors(&w).is_empty(), "{:?}", w.validate());
    let bytes = w.write().unwrap();
    let back = Wdb::read(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(walk(&bytes).counts, Counts::of(&w));
    let s = back.summary();
    assert_eq!(s.roots, 1);
    assert_eq!(s.geometries, 2);
    assert_eq!(s.polygons, 6 + 5);
    assert_eq!(s.lights, 0);
    let cube_geometry = back
        .nodes
        .iter()
        .flat_map(|n| &n.geometries)
        .find(|g| g.polygons.len() == 6)
        .unwrap();
    assert!(cube_geometry.polygons.iter().all(|p| p.corners.len() == 4));
    assert!(
        cube_geometry
            .textures
            .iter()
            .any(|t| t.name.display() == "checker.png"),
        "{:?}",
        cube_geometry.textures
    );
    // Every corner's point and normal are in range.
    for g in back.nodes.iter().flat_map(|n| &n.geometries) {
        for c in g.polygons.iter().flat_map(|p| &p.corners) {
            assert!(usize::from(c[0]) < g.points.len() && usize::from(c[1]) < g.normals.len());
        }
    }
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
/// prints each spinner's turn since the start; the turn must be 5 x 20 = 100 degrees about the
/// vertical, within Blender's interpolation error (Blender interpolates the quaternion's
/// components linearly between keys 90 degrees apart, where the glTF's spherical interpolation
/// is exact). Runs only with `LEVELKIT_BLENDER_SPIN=1` and `blender` on the PATH (slow).
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
    let per_second = 5.0 * h::FRAMES_PER_SECOND;
    for (line, want) in lines.iter().zip([-per_second, per_second]) {
        let turn: f64 = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("turn="))
            .unwrap()
            .parse()
            .unwrap();
        assert!((turn - want).abs() < 2.0, "{line}");
    }
}

mod properties {
    //! Property tests: generated worlds and mutated files, like the ones of wwd, nw and gani.

    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any generated world: model → bytes → model is the identity, and so is
        /// bytes → model → bytes; and through JSON.
        #[test]
        fn generated_worlds_round_trip(seed in any::<u64>(), nodes in 0usize..40) {
            let world = samples::generate(seed, nodes);
            let bytes = world.write().unwrap();
            let back = wdb::read(&bytes).unwrap();
            prop_assert_eq!(&back, &world);
            prop_assert_eq!(back.write().unwrap(), bytes.clone());
            let json: Wdb = serde_json::from_str(&serde_json::to_string(&world).unwrap()).unwrap();
            prop_assert_eq!(json.write().unwrap(), bytes);
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

/// A texture whose file is there but does not decode (or is over the limits) is left out of the
/// scene with a warning giving the reason, as a missing one is: no file reference is left for
/// a viewer to fetch (the browser's resolver finds every dropped file by name).
#[test]
fn a_texture_that_does_not_decode_is_left_out_with_the_reason() {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/world.wdb"),
    )
    .unwrap();
    let model =
        levelkit::document::Model::read(&bytes, Some("world.wdb"), &Limits::default()).unwrap();
    let (mut scene, _) = levelkit::codec::Codec::to_scene(&model).unwrap();
    let named = scene
        .textures
        .iter()
        .filter(|t| matches!(t.source, levelkit::scene::TextureSource::File(_)))
        .count();
    assert!(named > 0, "the sample names texture files");
    // Every file it asks for is there, and is not an image.
    let mut resolve = |_: &str| Some(b"GIF89a not really".to_vec());
    let found = levelkit::document::assets::find_textures(&model, &mut scene, &mut resolve);
    assert!(
        scene
            .textures
            .iter()
            .all(|t| !matches!(t.source, levelkit::scene::TextureSource::File(_))),
        "a file reference was left"
    );
    let not_drawn = found
        .warnings
        .iter()
        .filter(|w| w.message.contains("is not drawn") && w.message.contains("left out"))
        .count();
    assert_eq!(not_drawn, named, "{:?}", found.warnings);
}
