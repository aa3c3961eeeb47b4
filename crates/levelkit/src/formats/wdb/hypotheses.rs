//! Every decision about `.wdb` that the published notes leave open, in one place, each tagged
//! by what decided it.
//!
//! Until 2026-11 no real world was at hand and this module held working hypotheses. Now 34
//! distinct real worlds (Microsoft's and the community's, from `msvchat/msvchat.github.io`) and
//! the one public reader (`wdb_to_x3d`, VB.NET, by the author of the format notes; read for
//! facts, none of its code used) have decided most of them. Tags:
//!
//! * **files**: checked on every one of the 34 real worlds (which all read to their last byte,
//!   write back byte for byte, and agree with the reference reader's reading);
//! * **reader**: what the reference reader does; the files do not contradict it;
//! * **guess**: still open; our choice, with the reason.
//!
//! The reader, the writer, validation and the scene conversion only call what is here: someone
//! who learns more changes it here (and the tests that pin it down), nowhere else.
//!
//! # Layout (what the reader and writer depend on)
//!
//! | # | Point | Decision | Decided by |
//! |---|---|---|---|
//! | L1 | the node list | no node count: nodes follow the fence to the end of the file, depth-first pre-order (each node is followed by its `numChildren` children and their subtrees); one root. A further root follows while a node still fits in the bytes left ([`another_root_fits`]); fewer bytes are kept as trailing bytes. The notes' `numNodes` does not exist | files (32 worlds: one root ending at the last byte; `lovely`: a second root of one node, then one zero byte; `amazing`: three zero bytes after the tree) |
//! | L2 | a polygon definition | `numVerts`, then `numVerts` pairs (point index, normal index) | reader, files (every index of every world is in range) |
//! | L3 | `lenIFS` | the bytes of all definitions plus the final zero word | files |
//! | L4 | the word before `lenIFS` (the notes' `numPolygons`, the reader's `w4`) | the number of definitions (the reference reader walks to the zero word instead) | files (equal in all 34) |
//! | L5 | `VCTexCoord` | two `f32` (u, v); NaN occurs and is kept | reader, files |
//! | L6 | `VCTexDef` | blue, green, red, alpha (0xFF), a length-prefixed name (empty: a plain colour), a `u8` count `k`, `k` records of two `f32` | reader (which skips the records), files (`k` is 0 or 1) |
//! | L7 | `VCLight` | type `u8`, three bytes (uninitialised memory: `cd cd` occurs), blue, green, red, alpha, five `f32` | files |
//! | L8 | polygon materials | one `u16` per polygon, an index into the texture definitions; out of range in one community world (256 with one definition), kept, shown with definition 0 | files |
//!
//! # Meaning (what the scene conversion depends on)
//!
//! | # | Point | Decision | Decided by |
//! |---|---|---|---|
//! | M1 | coordinates | Direct3D's: left-handed, row vectors, the matrix stored row by row with the translation in elements 12–14; the scene (right-handed) negates z ([`point_to_scene`], [`matrix_to_scene`]) | reader (it mirrors the whole world by `scale 1 1 -1` and takes elements 12–14 as the translation); the pictures (ground below, sky above, text reads left to right) |
//! | M2 | face winding | with the corner order kept, the front of a face (counter-clockwise in the scene once z is negated) faces away from the visitor: floors face down, closed objects inward, signs the wall. So the scene reverses each face's corners ([`winding_to_scene`]) | the pictures of the eight corpus worlds (0 of 14 floor faces of `bugworld` and 25 of 25 closed objects of `hanami` face the visitor with the order kept; `compass` has most faces both ways). The reference reader's `ccw='false'` inside its mirror says the opposite; the files win |
//! | M3 | texture V | points up, as the scene's (v = 0 is the image's bottom row): kept ([`uv_to_scene`]) | the pictures: with V flipped (the Direct3D reading) every sign of `hutchspace`, `compass` and `theaterchat` is upside down; kept, they read ("FAQ", "LIBRARY", "Portal to Lobby", "Aisle Say"). The reference reader also passes V unchanged to X3D, whose V points up |
//! | M4 | normals | per corner, by the corner's normal index | reader |
//! | M5 | render type (`renderType`, the notes' `w6`) | 0 a line set, 256 textured (unlit), 768 flat (the colour as emitted light), 1024 lit ([`RenderType`]) | reader (the only values in the files) |
//! | M6 | a line-set definition | a closed outline | reader (it repeats the first index) |
//! | M7 | spin speed | the `speed` field is radians per frame, above π turning the other way; the name's `xxxx` is not reliable (`spin3850` turns 0.1°, and one spinning node has no name) ([`degrees_per_frame`]) | files, reader |
//! | M8 | frame rate | 20 frames per second ([`FRAMES_PER_SECOND`]) | reader (its spin cycle is π / (10 × speed) seconds) |
//! | M9 | light colour | `b4 b5 b6 b7` blue, green, red, alpha, as the header and texture definitions ([`light_rgb`]); the reference reader reads red, green, blue (the same for the grey lights that most worlds have) | files (the alpha byte 0xFF is at the end as in the header) |
//! | M10 | light direction | the light node's +z axis, as Direct3D RM lights shine; with z negated, the node's −z as glTF lights | reader |
//! | M11 | `s0`–`s4` of a light | unknown: (1, 0, 0, 0.5, 0.4) (Direct3D RM's defaults) except `s3 s4` of three directional lights; kept in `extras` | guess |
//! | M12 | texture animation | a node whose name holds `anim` and four digits `NNDD` (`anim0450`, `ANIM0205no3`) shows its textures as `NN` frames stacked along V, the first at v = 0 to 1/`NN`, `DD` hundredths of a second each ([`texture_animation`]) | reader (its texture transform scales V by 1/`NN` and steps it by one frame); the files (`anim1.gif` of `anim04501` is 64 × 256: four 64 × 64 frames) |
//! | M13 | materials | a texture definition's colour is its polygons' colour; a textured polygon shows the texture (unlit for render type 256) | reader |

// Reads untrusted input: no unchecked arithmetic (see `read.rs`).
#![deny(clippy::arithmetic_side_effects)]

use serde::Serialize;

use super::model::{Bgr, TexDef};
pub use super::model::{LightType, PolyDef, TexCoord};
use crate::error::{Error, Location, Result};
use crate::io::{ByteReader, ByteWriter};
use crate::limits::Budget;
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Wdb;

fn bad(at: u64, path: &str, message: String) -> Error {
    Error::malformed(F, Location::at(at).with_path(path), message)
}

// ---- L1: the node list ------------------------------------------------------------------------

/// Fewest bytes a node can take: an empty name, the matrix, the animation and three zero counts.
pub const MIN_NODE_SIZE: u64 = 1 + 64 + 28 + 2 + 2 + 2;

/// L1: after a complete tree, whether `remaining` bytes hold another root (else they are kept as
/// trailing bytes).
pub fn another_root_fits(remaining: usize) -> bool {
    remaining as u64 >= MIN_NODE_SIZE
}

// ---- L2–L4: the indexed face set --------------------------------------------------------------

/// L3: the `lenIFS` value for `polygons`: the definitions and the final zero word.
pub fn len_ifs(polygons: &[PolyDef]) -> u64 {
    polygons
        .iter()
        .fold(0u64, |sum, p| sum.saturating_add(p.size()))
        .saturating_add(2)
}

/// `lenIFS`, `numPolygons` definitions (L2) and the final zero word (`numPolygons`, L4, was read
/// before). The definitions and the zero word must fill the `lenIFS` bytes exactly. Indices are
/// not checked here (validation reports those out of range).
pub fn read_face_table(
    r: &mut ByteReader<'_>,
    num_polygons: u16,
    path: &str,
    budget: &mut Budget,
) -> Result<Vec<PolyDef>> {
    let len_at = r.offset();
    let len = r.u16_le("lenIFS").map_err(|e| e.in_path(path))?;
    let table_at = r.offset();
    let mut t = r
        .sub(usize::from(len), "the face table (lenIFS bytes)")
        .map_err(|e| e.in_path(path))?;
    // Each definition takes at least its count word, and the zero word follows them.
    if u64::from(num_polygons).saturating_mul(2).saturating_add(2) > u64::from(len) {
        return Err(bad(
            len_at,
            path,
            format!(
                "{num_polygons} polygons need at least {} bytes of face table, but lenIFS is \
                 {len}",
                u64::from(num_polygons).saturating_mul(2).saturating_add(2)
            ),
        ));
    }
    budget.charge(
        usize::from(len).saturating_mul(2).saturating_add(
            usize::from(num_polygons).saturating_mul(std::mem::size_of::<PolyDef>()),
        ),
        "polygon definitions",
        Location::at(table_at).with_path(path),
    )?;
    let mut polygons = Vec::with_capacity(usize::from(num_polygons));
    for p in 0..num_polygons {
        let at = t.offset();
        let n = t.u16_le("numVerts").map_err(|_| {
            bad(
                at,
                path,
                format!(
                    "polygon {p} of {num_polygons} would start at 0x{at:x}, past the end of the \
                     face table (lenIFS {len} from 0x{table_at:x})"
                ),
            )
        })?;
        let bytes = t
            .bytes(usize::from(n).saturating_mul(4), "corners")
            .map_err(|_| {
                bad(
                    at,
                    path,
                    format!(
                        "polygon {p} at 0x{at:x} has {n} corners of 4 bytes, which run past the \
                         end of the face table (lenIFS {len} from 0x{table_at:x})"
                    ),
                )
            })?;
        let corners = bytes
            .chunks_exact(4)
            .map(|c| match *c {
                [a, b, x, y] => [u16::from_le_bytes([a, b]), u16::from_le_bytes([x, y])],
                _ => [0, 0],
            })
            .collect();
        polygons.push(PolyDef { corners });
    }
    let final_at = t.offset();
    if t.remaining() != 2 {
        return Err(bad(
            final_at,
            path,
            format!(
                "after {num_polygons} polygon definitions, {} of the face table's {len} bytes \
                 are left; the table ends with one zero word",
                t.remaining()
            ),
        ));
    }
    let word = t.u16_le("the face table's final word")?;
    if word != 0 {
        return Err(bad(
            final_at,
            path,
            format!("the face table should end with a zero word, found 0x{word:04x}"),
        ));
    }
    Ok(polygons)
}

/// Write `lenIFS`, the definitions and the zero word. Fails when a definition or the table does
/// not fit its 16-bit count.
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
        w.put_u16_le(p.corners.len() as u16);
        for &[point, normal] in &p.corners {
            w.put_u16_le(point);
            w.put_u16_le(normal);
        }
    }
    w.put_u16_le(0);
    Ok(())
}

// ---- L5: texture coordinates ------------------------------------------------------------------

/// L5: bytes per texture coordinate.
pub const TEX_COORD_SIZE: u64 = 8;

// ---- L6: texture definitions ------------------------------------------------------------------

/// Fewest bytes of a texture definition: the colour, an empty name and a zero count.
pub const MIN_TEX_DEF_SIZE: u64 = 6;

/// Read one texture definition (L6).
pub fn read_tex_def(r: &mut ByteReader<'_>, path: &str, budget: &mut Budget) -> Result<TexDef> {
    let [blue, green, red, alpha] = r.array::<4>("the colour").map_err(|e| e.in_path(path))?;
    let len = r.u8("texture name length").map_err(|e| e.in_path(path))?;
    let name = r
        .bytes(usize::from(len), "texture name")
        .map_err(|e| e.in_path(path))?;
    let k = r.u8("the record count").map_err(|e| e.in_path(path))?;
    let bytes = r
        .ensure(u64::from(k), 8, "the records after the name")
        .map_err(|e| e.in_path(path))?;
    budget.charge(
        bytes.saturating_add(usize::from(len)),
        "texture definitions",
        Location::at(r.offset()).with_path(path),
    )?;
    let mut extra = Vec::with_capacity(usize::from(k));
    for _ in 0..k {
        extra.push([r.f32_le("a record value")?, r.f32_le("a record value")?]);
    }
    Ok(TexDef {
        color: Bgr { blue, green, red },
        alpha,
        name: RawString(name.to_vec()),
        extra,
    })
}

/// Write one texture definition. Fails on a name over 255 bytes or more than 255 records.
pub fn write_tex_def(w: &mut ByteWriter, t: &TexDef) -> Result<()> {
    w.put_bytes(&[t.color.blue, t.color.green, t.color.red, t.alpha]);
    write_name(w, &t.name)?;
    let k = u8::try_from(t.extra.len()).map_err(|_| {
        Error::unsupported(
            F,
            Location::default(),
            format!("{} records; their count byte holds 255", t.extra.len()),
        )
    })?;
    w.put_u8(k);
    for [a, b] in &t.extra {
        w.put_f32_le(*a);
        w.put_f32_le(*b);
    }
    Ok(())
}

/// A length-prefixed name (node and texture names). Fails on a name over 255 bytes.
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

/// L8: the texture definition a polygon's material index stands for: the index itself, or 0
/// when it names none (one community world has 256 with one definition); `None` without
/// definitions.
pub fn material_index(index: u16, num_textures: usize) -> Option<usize> {
    if num_textures == 0 {
        None
    } else if usize::from(index) < num_textures {
        Some(usize::from(index))
    } else {
        Some(0)
    }
}

// ---- L1, L8: the node tree --------------------------------------------------------------------

/// The tree the flat node list stands for (L1: depth-first pre-order, each node followed by its
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

/// L1: build the tree from the child counts in file order. `Err` when the last subtree is not
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

// ---- L7: light types --------------------------------------------------------------------------

// ---- M5: render types -------------------------------------------------------------------------

/// M5: what a geometry's `renderType` word asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenderType {
    /// 0: the definitions are lines.
    Lines,
    /// 256: textured faces, not lit.
    Textured,
    /// 768: faces in their colour, flat (the colour emitted).
    Flat,
    /// 1024: lit faces (normals used).
    Lit,
    /// Any other value (none in known worlds): shown as lit faces.
    Other(u16),
}

/// `renderType` of a line set.
pub const RENDER_LINES: u16 = 0;
/// `renderType` of textured faces.
pub const RENDER_TEXTURED: u16 = 256;
/// `renderType` of flat faces.
pub const RENDER_FLAT: u16 = 768;
/// `renderType` of lit faces.
pub const RENDER_LIT: u16 = 1024;

/// M5: the render type of a `renderType` word.
pub fn render_type(flags: u16) -> RenderType {
    match flags {
        RENDER_LINES => RenderType::Lines,
        RENDER_TEXTURED => RenderType::Textured,
        RENDER_FLAT => RenderType::Flat,
        RENDER_LIT => RenderType::Lit,
        other => RenderType::Other(other),
    }
}

/// M5: whether `render_flags` make a line set.
pub fn is_line_set(render_flags: u16) -> bool {
    render_type(render_flags) == RenderType::Lines
}

/// M6: whether a line-set definition of `points` points is a closed outline (3 or more) rather
/// than a segment (2).
pub fn line_def_closed(points: usize) -> bool {
    points >= 3
}

// ---- M12: texture animations ------------------------------------------------------------------

/// M12: a texture animation named by a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TexAnim {
    /// Frames, stacked along V in the image.
    pub frames: u16,
    /// Hundredths of a second each frame shows.
    pub centiseconds: u16,
}

/// M12: the texture animation a node name asks for: `anim` (any case) followed by four digits
/// `NNDD`, with at least one frame.
pub fn texture_animation(name: &[u8]) -> Option<TexAnim> {
    let lower = name.to_ascii_lowercase();
    let at = lower.windows(4).position(|w| w == b"anim")?;
    let digits = lower.get(at.checked_add(4)?..at.checked_add(8)?)?;
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let num = |d: &[u8]| {
        d.iter().fold(0u16, |n, &c| {
            n.saturating_mul(10)
                .saturating_add(u16::from(c.saturating_sub(b'0')))
        })
    };
    let frames = num(digits.get(..2)?);
    let centiseconds = num(digits.get(2..)?);
    (frames > 0).then_some(TexAnim {
        frames,
        centiseconds,
    })
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

/// M3: a file texture coordinate as the scene's: both have V up (v = 0 at the image's bottom
/// row), so it is kept.
pub fn uv_to_scene(t: TexCoord) -> [f64; 2] {
    [f64::from(t[0]), f64::from(t[1])]
}

/// M3: a scene UV in the file.
pub fn uv_from_scene(uv: [f64; 2]) -> TexCoord {
    [uv[0] as f32, uv[1] as f32]
}

/// M2: the file's corner order of a face, as the scene's: reversed (a face is counter-clockwise
/// seen from its back in the file's left-handed space, so clockwise once z is negated). Its own
/// inverse.
pub fn winding_to_scene<T>(corners: &mut [T]) {
    corners.reverse();
}

// ---- M7, M8: spinning parts -------------------------------------------------------------------

/// M8: frames per second for turning "degrees per frame" into time (the reference reader's
/// spin cycles).
pub const FRAMES_PER_SECOND: f64 = 20.0;

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
