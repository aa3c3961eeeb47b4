//! Every working hypothesis about `.wdb`, in one place.
//!
//! No real `.wdb` is public, and the published notes leave parts of the layout and of the
//! meaning open (`shared/specs/wdb-notes.md`, tags **known**, **inferred**, **unknown**). Each
//! open point is decided here, once, by a documented constant, type or function; the reader, the
//! writer, validation and the scene conversion only call these. Someone with real files who
//! finds a hypothesis wrong changes it here (and the tests that pin it down), nowhere else.
//!
//! The reader checks every redundant field against these hypotheses (the face table's byte
//! length `lenIFS`, its terminating zero word, point indices against the point count, material
//! indices against the texture count, texture names, finite floats, and the file ending exactly
//! after the last node) and reports a mismatch as an error with the node's path and the byte
//! offset, so a wrong hypothesis shows up as an error at the structure it is about instead of as
//! garbage read from the rest of the file.
//!
//! # Layout (what the reader and writer depend on)
//!
//! | # | Open point | Hypothesis | Where |
//! |---|---|---|---|
//! | H1 | `VCPolyDef` after `numVerts` | `numVerts` u16, then `numVerts` u16 point indices | [`PolyDef`], [`read_face_table`] |
//! | H2 | what `lenIFS` counts | the bytes of all polygon definitions **plus** the final zero word | [`LEN_IFS_COUNTS_FINAL_WORD`] |
//! | H3 | `VCTexCoord` | two `f32` (u, v) | [`TexCoord`], [`TEX_COORD_SIZE`] |
//! | H4 | `VCTexDef` | a length-prefixed name, like node names | [`TexDef`], [`read_tex_def`] |
//! | H5 | what `numNodes` counts | the root nodes only | [`NODE_COUNT`] |
//! | H6 | node order | depth-first pre-order: each node is followed by its children | [`tree`], [`Walk`] |
//! | H7 | plausibility guards | material index < max(1, texture count); texture names have no control bytes | [`material_plausible`], [`tex_name_plausible`] |
//! | H8 | `b0` of a light | a `D3DRMLIGHTTYPE`, 0–4; other values are refused | [`LightType`] |
//! | H9 | plausibility guard | a node matrix is affine in the layout of M1: elements 3, 7 and 11 are exactly 0 and element 15 exactly 1 (the notes say the matrices map directly onto VRML 1.0's `MatrixTransform`, whose last column is that; Direct3D RM frame matrices are affine). A misread earlier in the file almost never gives these exact values, so this stops the reader at the first node that is not one | [`matrix_plausible`] |
//!
//! # Meaning (what the scene conversion depends on)
//!
//! | # | Open point | Hypothesis | Where |
//! |---|---|---|---|
//! | M1 | coordinates | Direct3D's: left-handed, row vectors, matrix stored row by row with the translation in the 4th row; converted to the scene (right-handed) by negating z | [`point_to_scene`], [`matrix_to_scene`] |
//! | M2 | face winding | clockwise seen from the front (Direct3D); after negating z it is the scene's counter-clockwise, so the order is kept | — |
//! | M3 | texture V | points down (Direct3D); the scene's V points up | [`uv_to_scene`] |
//! | M4 | normals | per point when `numNormals == numPoints`, else per polygon when `numNormals == numPolygons`, else not used | [`normal_binding`] |
//! | M5 | the line-set bit of `w6` | bit 0 (`0x0001`) | [`LINE_SET_FLAG`] |
//! | M6 | a line-set definition | a closed outline when it has 3 or more points, a segment when it has 2 | [`line_def_closed`] |
//! | M7 | spin speed | the `speed` field, in radians per frame, is the rotation per frame (its name's `xxxx` tenths of a degree, the relation the notes observed; 355.0° per frame is −5°) | [`degrees_per_frame`] |
//! | M8 | frame rate | 15 frames per second (V-Chat spun once per rendered frame, at whatever rate the machine managed) | [`FRAMES_PER_SECOND`] |
//! | M9 | light colour | `b4 b5 b6 b7` are a little-endian `D3DCOLOR`: blue, green, red, alpha, as in the header | [`light_rgb`] |
//! | M10 | `s0 s1 s2` of a light | constant, linear and quadratic attenuation (Direct3D RM's defaults are 1, 0, 0) | [`light_attenuation`] |
//! | M11 | `s3 s4` of a light | penumbra and umbra cone angles in radians (apex angles; RM's defaults are 0.5 and 0.4, and penumbra ≥ umbra in all three exceptions) | [`spot_cone`] |

// Reads untrusted input: no unchecked arithmetic (see `read.rs`).
#![deny(clippy::arithmetic_side_effects)]

use serde::{Deserialize, Serialize};

use crate::error::{Error, Location, Result};
use crate::io::{ByteReader, ByteWriter};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Wdb;

fn bad(at: u64, path: &str, message: String) -> Error {
    Error::malformed(F, Location::at(at).with_path(path), message)
}

// ---- H1, H2: the indexed face set -------------------------------------------------------------

/// H1: one polygon (or line) definition: its point indices, in order. In the file: `numVerts`
/// u16, then `numVerts` u16 indices into the geometry's points.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PolyDef {
    /// Point indices.
    pub points: Vec<u16>,
}

impl PolyDef {
    /// Bytes in the file: `numVerts` and the indices.
    pub fn size(&self) -> u64 {
        2u64.saturating_add(2u64.saturating_mul(self.points.len() as u64))
    }
}

/// H2: `lenIFS` counts the polygon definitions and the terminating zero word after them
/// (`false`: the definitions only).
pub const LEN_IFS_COUNTS_FINAL_WORD: bool = true;

/// The `lenIFS` value for `polygons`.
pub fn len_ifs(polygons: &[PolyDef]) -> u64 {
    let defs = polygons
        .iter()
        .fold(0u64, |sum, p| sum.saturating_add(p.size()));
    if LEN_IFS_COUNTS_FINAL_WORD {
        defs.saturating_add(2)
    } else {
        defs
    }
}

/// Items 6–8 of `VCGeometry`: `lenIFS`, `numPolygons` definitions and the zero word `finalIFS`
/// (`numPolygons` itself was read before). Every polygon must lie inside the `lenIFS` bytes and
/// use existing points, the definitions must fill those bytes exactly, and the final word must
/// be 0; anything else is reported as a mismatch of H1/H2 at its offset.
pub fn read_face_table(
    r: &mut ByteReader<'_>,
    num_polygons: u16,
    num_points: usize,
    path: &str,
) -> Result<Vec<PolyDef>> {
    let len_at = r.offset();
    let len = r.u16_le("lenIFS").map_err(|e| e.in_path(path))?;
    let defs_len = if LEN_IFS_COUNTS_FINAL_WORD {
        len.checked_sub(2).ok_or_else(|| {
            bad(
                len_at,
                path,
                format!(
                    "lenIFS is {len}, less than the 2 bytes of the terminating zero word it \
                     should count (hypothesis H2); the face table layout does not fit this file"
                ),
            )
        })?
    } else {
        len
    };
    let table_at = r.offset();
    let mut t = r
        .sub(usize::from(defs_len), "the face table (lenIFS bytes)")
        .map_err(|e| e.in_path(path))?;
    // Each definition has at least its count word: a count that can not fit is a mismatch
    // before anything is allocated.
    if u64::from(num_polygons).saturating_mul(2) > u64::from(defs_len) {
        return Err(bad(
            len_at,
            path,
            format!(
                "numPolygons is {num_polygons}, but lenIFS {len} leaves room for at most {} \
                 polygon definitions of at least 2 bytes (hypotheses H1/H2 do not fit)",
                defs_len / 2
            ),
        ));
    }
    let mut polygons = Vec::with_capacity(usize::from(num_polygons));
    for p in 0..num_polygons {
        let at = t.offset();
        let n = t.u16_le("numVerts").map_err(|_| {
            bad(
                at,
                path,
                format!(
                    "polygon {p} of {num_polygons} would start at 0x{at:x}, past the end of the \
                     face table (lenIFS {len} from 0x{table_at:x}); the polygon layout \
                     (hypothesis H1: numVerts, then numVerts u16 indices) or the meaning of \
                     lenIFS (H2) does not fit this file"
                ),
            )
        })?;
        let bytes = t
            .bytes(usize::from(n).saturating_mul(2), "indices")
            .map_err(|_| {
                bad(
                    at,
                    path,
                    format!(
                        "polygon {p} at 0x{at:x} has numVerts {n}, which runs past the end of the \
                     face table (lenIFS {len} from 0x{table_at:x}, {} bytes left); the polygon \
                     layout (hypothesis H1) or the meaning of lenIFS (H2) does not fit this file",
                        t.remaining()
                    ),
                )
            })?;
        let mut points = Vec::with_capacity(usize::from(n));
        for (k, pair) in bytes.chunks_exact(2).enumerate() {
            let i = u16::from_le_bytes([
                pair.first().copied().unwrap_or(0),
                pair.get(1).copied().unwrap_or(0),
            ]);
            if usize::from(i) >= num_points {
                let idx_at = at
                    .saturating_add(2)
                    .saturating_add((k as u64).saturating_mul(2));
                return Err(bad(
                    idx_at,
                    path,
                    format!(
                        "polygon {p} uses point {i}, but the geometry has {num_points} points; \
                         the polygon layout (hypothesis H1) does not fit, or the file is corrupt"
                    ),
                ));
            }
            points.push(i);
        }
        polygons.push(PolyDef { points });
    }
    if t.remaining() != 0 {
        return Err(bad(
            t.offset(),
            path,
            format!(
                "after {num_polygons} polygon definitions, {} of the face table's {defs_len} \
                 bytes are left (lenIFS {len}); the polygon layout (hypothesis H1) or the meaning \
                 of lenIFS (H2) does not fit this file",
                t.remaining()
            ),
        ));
    }
    let final_at = r.offset();
    let word = r.u16_le("finalIFS").map_err(|e| e.in_path(path))?;
    if word != 0 {
        return Err(bad(
            final_at,
            path,
            format!(
                "the face table should end with a zero word (finalIFS), found 0x{word:04x}; the \
                 polygon layout (hypothesis H1) or the meaning of lenIFS (H2) does not fit this \
                 file"
            ),
        ));
    }
    Ok(polygons)
}

/// Write items 6–8: `lenIFS`, the definitions, the zero word. Fails when a definition or the
/// table does not fit its 16-bit count.
pub fn write_face_table(w: &mut ByteWriter, polygons: &[PolyDef]) -> Result<()> {
    let len = u16::try_from(len_ifs(polygons)).map_err(|_| {
        Error::unsupported(
            F,
            Location::default(),
            format!(
                "the face table is {} bytes; lenIFS holds at most 65535 (split the geometry)",
                len_ifs(polygons)
            ),
        )
    })?;
    w.put_u16_le(len);
    for p in polygons {
        // Fits: each definition is smaller than the whole table.
        w.put_u16_le(p.points.len() as u16);
        for &i in &p.points {
            w.put_u16_le(i);
        }
    }
    w.put_u16_le(0);
    Ok(())
}

// ---- H3: texture coordinates ------------------------------------------------------------------

/// H3: a texture coordinate is `(u, v)`, two `f32`.
pub type TexCoord = [f32; 2];

/// H3: bytes per texture coordinate.
pub const TEX_COORD_SIZE: u64 = 8;

/// Read one texture coordinate.
pub fn read_tex_coord(r: &mut ByteReader<'_>) -> Result<TexCoord> {
    Ok([r.f32_le("texture u")?, r.f32_le("texture v")?])
}

/// Write one texture coordinate.
pub fn write_tex_coord(w: &mut ByteWriter, t: &TexCoord) {
    w.put_f32_le(t[0]);
    w.put_f32_le(t[1]);
}

// ---- H4, H7: texture definitions and plausibility --------------------------------------------

/// H4: a texture definition is a length-prefixed file name (one length byte, then the bytes),
/// like node names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TexDef {
    /// The texture's file name, raw bytes.
    pub name: RawString,
}

/// H7: a texture name has no control bytes (below 0x20, or 0x7F); `Err` says why not.
pub fn tex_name_plausible(name: &[u8]) -> std::result::Result<(), String> {
    match name.iter().position(|&b| b < 0x20 || b == 0x7F) {
        Some(i) => Err(format!(
            "texture name {:?} has the control byte 0x{:02x} at {i}",
            RawString(name.to_vec()).display(),
            name.get(i).copied().unwrap_or(0)
        )),
        None => Ok(()),
    }
}

/// Read one texture definition, checking H7.
pub fn read_tex_def(r: &mut ByteReader<'_>, path: &str) -> Result<TexDef> {
    let at = r.offset();
    let len = r.u8("texture name length").map_err(|e| e.in_path(path))?;
    let name = r
        .bytes(usize::from(len), "texture name")
        .map_err(|e| e.in_path(path))?;
    tex_name_plausible(name).map_err(|why| {
        bad(
            at,
            path,
            format!(
                "{why}; texture definitions are read as length-prefixed names (hypothesis H4), \
                 which does not fit this file"
            ),
        )
    })?;
    Ok(TexDef {
        name: RawString(name.to_vec()),
    })
}

/// Write one texture definition. Fails on a name over 255 bytes.
pub fn write_tex_def(w: &mut ByteWriter, t: &TexDef) -> Result<()> {
    write_name(w, &t.name)
}

/// A length-prefixed name (node names; H4 texture names). Fails on a name over 255 bytes.
pub fn write_name(w: &mut ByteWriter, name: &RawString) -> Result<()> {
    let len = u8::try_from(name.len()).map_err(|_| {
        Error::unsupported(
            F,
            Location::default(),
            format!(
                "the name is {} bytes; its length byte holds 255",
                name.len()
            ),
        )
    })?;
    w.put_u8(len);
    w.put_bytes(name.as_bytes());
    Ok(())
}

/// H7: a polygon's material index names one of the geometry's texture definitions, or is 0 when
/// there are none.
pub fn material_plausible(index: u16, num_textures: usize) -> bool {
    usize::from(index) < num_textures.max(1)
}

// ---- H5, H6: the node tree --------------------------------------------------------------------

/// What `numNodes` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeCount {
    /// The top-level nodes; their descendants follow, counted by `numChildren`.
    Roots,
    /// Every node in the file.
    All,
}

/// H5: `numNodes` counts the root nodes (the pre-order reading of H6 implies it).
pub const NODE_COUNT: NodeCount = NodeCount::Roots;

/// The `numNodes` value of a world whose tree is `tree`.
pub fn num_nodes_field(tree: &Tree) -> usize {
    match NODE_COUNT {
        NodeCount::Roots => tree.roots.len(),
        NodeCount::All => tree.parent.len(),
    }
}

/// The tree the flat node list stands for (H6: depth-first pre-order, each node followed by its
/// `children` children, each with its own subtree).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// The top-level nodes, in order.
    pub roots: Vec<usize>,
    /// Each node's parent.
    pub parent: Vec<Option<usize>>,
    /// Each node's children, in order.
    pub children: Vec<Vec<usize>>,
    /// Each node's place among its siblings (or among the roots).
    pub ordinal: Vec<usize>,
    /// Each node's depth (0 for roots).
    pub depth: Vec<usize>,
}

impl Tree {
    /// The node's path: `nodes/3/children/1`.
    pub fn path(&self, node: usize) -> String {
        let mut chain = Vec::new();
        let mut at = Some(node);
        while let Some(i) = at {
            chain.push(self.ordinal.get(i).copied().unwrap_or(0));
            at = self.parent.get(i).copied().flatten();
            if chain.len() > self.parent.len() {
                break;
            }
        }
        let mut out = String::from("nodes");
        for (k, ord) in chain.iter().rev().enumerate() {
            if k > 0 {
                out.push_str("/children");
            }
            out.push_str(&format!("/{ord}"));
        }
        out
    }
}

/// Where a node's children run past the end of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Incomplete {
    /// The node (index in file order) whose children are missing.
    pub node: usize,
    /// How many of its children are missing.
    pub missing: usize,
}

/// H6: build the tree from the child counts in file order. `Err` when the last subtree is not
/// complete.
pub fn tree(children: impl IntoIterator<Item = u16>) -> std::result::Result<Tree, Incomplete> {
    let mut t = Tree::default();
    // (node, children still to come)
    let mut stack: Vec<(usize, u16)> = Vec::new();
    for (i, n) in children.into_iter().enumerate() {
        while stack.last().is_some_and(|&(_, left)| left == 0) {
            stack.pop();
        }
        let parent = match stack.last_mut() {
            Some((p, left)) => {
                *left = left.saturating_sub(1);
                Some(*p)
            }
            None => None,
        };
        let ordinal = match parent {
            Some(p) => match t.children.get_mut(p) {
                Some(list) => {
                    list.push(i);
                    list.len().saturating_sub(1)
                }
                None => 0,
            },
            None => {
                t.roots.push(i);
                t.roots.len().saturating_sub(1)
            }
        };
        t.parent.push(parent);
        t.children.push(Vec::new());
        t.ordinal.push(ordinal);
        t.depth.push(stack.len());
        if n > 0 {
            stack.push((i, n));
        }
    }
    match stack.iter().find(|&&(_, left)| left > 0) {
        Some(&(node, missing)) => Err(Incomplete {
            node,
            missing: usize::from(missing),
        }),
        None => Ok(t),
    }
}

/// H5/H6 while reading: where the next node goes, and when the list ends.
#[derive(Debug, Clone)]
pub struct Walk {
    /// Roots still to come (H5 = roots).
    roots_left: usize,
    /// Nodes still to come (H5 = all).
    nodes_left: usize,
    roots_seen: usize,
    /// (path of the parent, its children still to come, its children seen)
    stack: Vec<(String, u16, usize)>,
}

/// Where the next node of the file goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Its path: `nodes/3/children/1`.
    pub path: String,
    /// Its depth (0 for roots).
    pub depth: usize,
}

impl Walk {
    /// A walk for the `numNodes` field `num_nodes`.
    pub fn new(num_nodes: u16) -> Walk {
        let n = usize::from(num_nodes);
        let (roots_left, nodes_left) = match NODE_COUNT {
            NodeCount::Roots => (n, usize::MAX),
            NodeCount::All => (usize::MAX, n),
        };
        Walk {
            roots_left,
            nodes_left,
            roots_seen: 0,
            stack: Vec::new(),
        }
    }

    /// The place of the next node, or `None` when the list is complete. `Err` (H5 = all) when
    /// the count ends inside a subtree.
    pub fn next_place(&mut self) -> std::result::Result<Option<Place>, String> {
        while self.stack.last().is_some_and(|(_, left, _)| *left == 0) {
            self.stack.pop();
        }
        if self.nodes_left == 0 {
            return match self.stack.last() {
                Some((path, left, _)) => Err(format!(
                    "numNodes counts every node (hypothesis H5), but {path} still has {left} \
                     children to come"
                )),
                None => Ok(None),
            };
        }
        let depth = self.stack.len();
        let path = match self.stack.last_mut() {
            Some((parent, left, seen)) => {
                *left = left.saturating_sub(1);
                let path = format!("{parent}/children/{seen}");
                *seen = seen.saturating_add(1);
                path
            }
            None => {
                if self.roots_left == 0 {
                    return Ok(None);
                }
                self.roots_left = self.roots_left.saturating_sub(1);
                let path = format!("nodes/{}", self.roots_seen);
                self.roots_seen = self.roots_seen.saturating_add(1);
                path
            }
        };
        self.nodes_left = self.nodes_left.saturating_sub(1);
        Ok(Some(Place { path, depth }))
    }

    /// The node just read at `place` has `children` children, which come next.
    pub fn entered(&mut self, place: Place, children: u16) {
        if children > 0 {
            self.stack.push((place.path, children, 0));
        }
    }

    /// How deep the next child would be.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }
}

/// H9: whether a node matrix is affine in the layout of M1 (elements 3, 7, 11 are 0, 15 is 1).
pub fn matrix_plausible(m: &[f32; 16]) -> bool {
    [m[3], m[7], m[11], m[15]] == [0.0, 0.0, 0.0, 1.0]
}

// ---- H8: light types --------------------------------------------------------------------------

/// H8: `b0` of a light, as Direct3D Retained Mode's `D3DRMLIGHTTYPE` (the blog author's
/// reading). Observed: 0, 1, 3, 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LightType {
    /// 0: `D3DRMLIGHT_AMBIENT`.
    Ambient,
    /// 1: `D3DRMLIGHT_POINT`.
    Point,
    /// 2: `D3DRMLIGHT_SPOT` (never observed).
    Spot,
    /// 3: `D3DRMLIGHT_DIRECTIONAL`.
    Directional,
    /// 4: `D3DRMLIGHT_PARALLELPOINT`: a point light whose rays are parallel across each object
    /// lit (exported as a point light).
    ParallelPoint,
}

impl LightType {
    /// From `b0`; `None` for a value that is not a `D3DRMLIGHTTYPE`.
    pub fn from_byte(b: u8) -> Option<LightType> {
        Some(match b {
            0 => LightType::Ambient,
            1 => LightType::Point,
            2 => LightType::Spot,
            3 => LightType::Directional,
            4 => LightType::ParallelPoint,
            _ => return None,
        })
    }

    /// `b0`.
    pub fn byte(self) -> u8 {
        match self {
            LightType::Ambient => 0,
            LightType::Point => 1,
            LightType::Spot => 2,
            LightType::Directional => 3,
            LightType::ParallelPoint => 4,
        }
    }

    /// Every type, in byte order.
    pub const ALL: [LightType; 5] = [
        LightType::Ambient,
        LightType::Point,
        LightType::Spot,
        LightType::Directional,
        LightType::ParallelPoint,
    ];
}

// ---- M1–M4: coordinates, winding, texture V, normals ------------------------------------------

/// M1: a file point (left-handed) in the scene (right-handed): z negated. Its own inverse.
pub fn point_to_scene(p: [f32; 3]) -> [f64; 3] {
    [f64::from(p[0]), f64::from(p[1]), -f64::from(p[2])]
}

/// M1: a scene point in the file.
pub fn point_from_scene(p: [f64; 3]) -> [f32; 3] {
    [p[0] as f32, p[1] as f32, (-p[2]) as f32]
}

/// M1: a file matrix as the scene's column-major matrix. The 16 floats are a Direct3D matrix
/// row by row (row vectors, translation in elements 12–14), which is the same sequence as the
/// column-major matrix for column vectors; the change of handedness is `S M S` with
/// `S = diag(1, 1, -1, 1)`, which negates the elements in exactly one of row 2 and column 2.
pub fn matrix_to_scene(m: &[f32; 16]) -> [f64; 16] {
    let mut out = [0.0; 16];
    for (i, (o, v)) in out.iter_mut().zip(m).enumerate() {
        *o = if flips(i) {
            -f64::from(*v)
        } else {
            f64::from(*v)
        };
    }
    out
}

/// M1: a scene matrix in the file (the inverse of [`matrix_to_scene`]).
pub fn matrix_from_scene(m: &[f64; 16]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for (i, (o, v)) in out.iter_mut().zip(m).enumerate() {
        *o = if flips(i) { -*v as f32 } else { *v as f32 };
    }
    out
}

/// Element `i` (column `i / 4`, row `i % 4`) is in exactly one of row 2 and column 2.
fn flips(i: usize) -> bool {
    (i / 4 == 2) != (i % 4 == 2)
}

/// M3: a file texture coordinate (V down) as the scene's (V up).
pub fn uv_to_scene(t: TexCoord) -> [f64; 2] {
    [f64::from(t[0]), 1.0 - f64::from(t[1])]
}

/// M3: a scene UV in the file.
pub fn uv_from_scene(uv: [f64; 2]) -> TexCoord {
    [uv[0] as f32, (1.0 - uv[1]) as f32]
}

/// How a geometry's normals attach to its corners.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormalBinding {
    /// Normal `i` belongs to point `i`.
    PerPoint,
    /// Normal `i` belongs to polygon `i`.
    PerPolygon,
    /// Not known: the normals are not used.
    Unknown,
}

/// M4: the binding for these counts.
pub fn normal_binding(normals: usize, points: usize, polygons: usize) -> NormalBinding {
    if normals == 0 {
        NormalBinding::Unknown
    } else if normals == points {
        NormalBinding::PerPoint
    } else if normals == polygons {
        NormalBinding::PerPolygon
    } else {
        NormalBinding::Unknown
    }
}

// ---- M5, M6: line sets ------------------------------------------------------------------------

/// M5: the bit of `w6` that makes the polygon definitions a line set.
pub const LINE_SET_FLAG: u16 = 0x0001;

/// `w6` of a face set made from a scene.
pub const FACE_SET_FLAGS: u16 = 0x0000;

/// `w6` of a line set made from a scene.
pub const LINE_SET_FLAGS: u16 = LINE_SET_FLAG;

/// M5: whether `render_flags` make a line set.
pub fn is_line_set(render_flags: u16) -> bool {
    render_flags & LINE_SET_FLAG != 0
}

/// M6: whether a line-set definition of `points` points is a closed outline (3 or more) rather
/// than a segment (2).
pub fn line_def_closed(points: usize) -> bool {
    points >= 3
}

// ---- M7, M8: spinning parts -------------------------------------------------------------------

/// M8: frames per second for turning "degrees per frame" into time.
pub const FRAMES_PER_SECOND: f64 = 15.0;

/// M7: the rotation per frame of a `speed` field, in degrees from −180 (exclusive) to 180:
/// 355.0° per frame turns like −5°.
pub fn degrees_per_frame(speed: f32) -> f64 {
    wrap_degrees(f64::from(speed).to_degrees())
}

/// `d` in (−180, 180].
fn wrap_degrees(d: f64) -> f64 {
    let w = d.rem_euclid(360.0);
    if w > 180.0 { w - 360.0 } else { w }
}

/// M7: the `speed` field for a rotation of `degrees` per frame, stored as the files do: the
/// angle from 0 to 360° in radians (−5° is stored as 355°).
pub fn speed_for(degrees: f64) -> f32 {
    degrees.rem_euclid(360.0).to_radians() as f32
}

/// The `xxxx` of a `SPINxxxx` / `spinxxxx` name (four digits after the prefix, tenths of a
/// degree per frame), if it is one.
pub fn spin_name_tenths(name: &[u8]) -> Option<u16> {
    let (prefix, rest) = name.split_at_checked(4)?;
    if !prefix.eq_ignore_ascii_case(b"spin") {
        return None;
    }
    let digits = rest.get(..4)?;
    if !digits.iter().all(u8::is_ascii_digit) || rest.get(4).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// The `SPINxxxx` name for a rotation of `degrees` per frame.
pub fn spin_name(degrees: f64) -> String {
    let tenths = (degrees.rem_euclid(360.0) * 10.0).round() as u32 % 3600;
    format!("SPIN{tenths:04}")
}

/// M1 + M7 + M8: a spinning node's motion in the scene: the axis with z negated, and degrees
/// per second. The change of handedness turns the rotation the other way (`S R(a) S = R(-a)`
/// about the mirrored axis), hence the minus.
pub fn spin_to_scene(axis: [f32; 3], speed: f32) -> ([f64; 3], f64) {
    (
        point_to_scene(axis),
        -degrees_per_frame(speed) * FRAMES_PER_SECOND,
    )
}

/// The inverse of [`spin_to_scene`]: the file's axis and the rotation in degrees per frame.
pub fn spin_from_scene(axis: [f64; 3], degrees_per_second: f64) -> ([f32; 3], f64) {
    (
        point_from_scene(axis),
        -degrees_per_second / FRAMES_PER_SECOND,
    )
}

// ---- M9–M11: lights ---------------------------------------------------------------------------

/// M9: red, green, blue of a light's `b4 b5 b6` (stored blue, green, red).
pub fn light_rgb(color: [u8; 3]) -> [u8; 3] {
    [color[2], color[1], color[0]]
}

/// M9: `b4 b5 b6` for red, green, blue.
pub fn light_color_bytes(rgb: [u8; 3]) -> [u8; 3] {
    [rgb[2], rgb[1], rgb[0]]
}

/// M10: constant, linear and quadratic attenuation.
pub fn light_attenuation(s0_s2: [f32; 3]) -> [f32; 3] {
    s0_s2
}

/// `s0 s1 s2` and `s3 s4` of a light made from a scene (Direct3D RM's defaults, the values of
/// almost every known light).
pub const DEFAULT_LIGHT_S: ([f32; 3], [f32; 2]) = ([1.0, 0.0, 0.0], [0.5, 0.4]);

/// M11: a spot light's cone as the scene's half-angles from the axis `(inner, outer)`: half the
/// umbra (`s4`) and half the penumbra (`s3`) apex angles.
pub fn spot_cone(s3_s4: [f32; 2]) -> (f32, f32) {
    (s3_s4[1] / 2.0, s3_s4[0] / 2.0)
}

/// M11: `s3 s4` for the scene's half-angles.
pub fn spot_cone_from_scene(inner: f32, outer: f32) -> [f32; 2] {
    [outer * 2.0, inner * 2.0]
}
