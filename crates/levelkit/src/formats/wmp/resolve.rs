//! Group resolution: the group hierarchy and the blocks' and entities' own transforms put into
//! world coordinates, as WED does when it writes `$$M`.
//!
//! # Conventions (checked against the two WMPB levels with the `$$M` WED wrote from them)
//!
//! A transform maps a point `p` of its frame to `position + R(angles) · (scale ⊙ p)`: scale
//! first, then rotation, then translation. A block or entity's world transform is the chain
//! root group → … → its group → its own transform (text files have no own transform; WMPB has
//! one per object).
//!
//! * **Positions** (*verified*): block vertices are relative to their block's position and path
//!   nodes to their path's position; group positions add up. Every block vertex of `bosslevel`
//!   matches the `$$M` exactly (after the f32 rounding below), every entity position and path
//!   node of both levels within 1.3e-4 (one f32 step: WED sums in another order).
//! * **Source angles** `(a0, a1, a2)`, radians: `R = Rz(a0) · Rx(a1) · Ry(a2)`, each a
//!   right-handed rotation (z up). *Verified* for a0 and a2 on the 83 + 53 models of the two
//!   levels, several with both (pan 30° with a2 = 30°, pan −90° with a2 = 90°, pan 180° with
//!   a2 = 15°): a0 is the pan, a2 the **negated** tilt, and a2 applies after (inside) a0. The
//!   middle angle is 0 in every corpus file, so its axis, sign and place in the order are
//!   inferred: WED stores angles with float noise typical of a matrix decomposition, and its
//!   middle angle never leaves ±90°, the range of the middle angle of such a decomposition,
//!   which makes it the rotation about the remaining axis, x, between the other two.
//! * **`$$M` angles** (degrees): `R = Rz(pan) · Ry(−tilt) · Rx(roll)`, the engine's
//!   convention (*verified*, including roll's sign, on the gimbal-locked models). WED decomposes
//!   the world rotation into pan in [0, 360), tilt in [−90, 90] written as [0, 360), roll in
//!   [0, 360); at tilt ±90° it writes pan 0 and puts the rest into roll, as
//!   [`engine_angles`] does. The rotation matrices of every corpus entity match within 5e-5,
//!   the angles within 0.003° (WED computes in f32).
//! * **Scale**: multiplied component-wise down the chain (WED writes one scale per entity).
//!   Every group in the corpus has scale 1 and angles 0, so scaled and rotated groups are
//!   inferred from the convention above, not verified.
//! * **Texture vectors**: WMPB stores them in world space for ordinary blocks (the `$$M` has
//!   them unchanged, *verified* on the 40 such blocks of `bosslevel`) and in the block's frame
//!   for blocks with the texture-lock flag (bit 16 of the block flags): `$$M` has them
//!   transformed with the block (t·(x, y, z) unchanged, t₄ − t·position: *verified* on the 16
//!   locked blocks). For a general affine block transform `p = M q + c` a locked vector
//!   becomes `(M⁻ᵀ t, t₄ − (M⁻ᵀ t)·c)`. The lock flag (and face flag bit 28, set on the
//!   faces of locked blocks) are cleared, as the `$$M` shows.
//! * **Path edges**: the `$$M` writes the distance between the two nodes as the third value of
//!   an edge (*verified*), which resolution computes in world coordinates.
//! * **Faces** lose their offset/rotation/scale (`texture_transform`) where they have texture
//!   vectors, as the `$$M` face line has none.
//! * **Precision**: world coordinates, angles, scales, edge lengths and transformed texture
//!   vectors are rounded to f32 ([`single`]). WED computes in f32 and its `$$M` holds f32
//!   values (`-2304` where the exact sum is −2304.000015, `384` for 383.9999847): with the
//!   rounding, written `$$M` lines match WED's wherever the f32 results agree.
//!
//! Settings are not changed (the `$$M` writer takes the last two sun numbers as the sun's pan
//! and tilt).

use crate::error::{Location, Warning};
use crate::formats::wmp::level::{Block, Face, Level, Transform};
use crate::registry::Format;

const F: Format = Format::WmpText;

/// The block flag that locks textures to the block (bit 16).
pub const TEXTURE_LOCK: u32 = 1 << 16;
/// The face flag set on every face of a texture-locked block in WMPB (bit 28).
pub const FACE_LOCK: u32 = 1 << 28;

/// A 3×3 matrix, rows first.
pub type Mat3 = [[f64; 3]; 3];

/// An affine map `p ↦ m · p + t`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine {
    /// The linear part.
    pub m: Mat3,
    /// The translation.
    pub t: [f64; 3],
}

impl Affine {
    /// The identity.
    pub const IDENTITY: Affine = Affine {
        m: IDENTITY,
        t: [0.0; 3],
    };

    /// The map of a source transform (angles in radians, see the module docs).
    pub fn from_transform(tr: &Transform) -> Affine {
        let r = source_rotation(tr.angles);
        let [sx, sy, sz] = tr.scale;
        let [[a, b, c], [d, e, f], [g, h, i]] = r;
        Affine {
            m: [
                [a * sx, b * sy, c * sz],
                [d * sx, e * sy, f * sz],
                [g * sx, h * sy, i * sz],
            ],
            t: tr.position,
        }
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn compose(&self, other: &Affine) -> Affine {
        Affine {
            m: mul(&self.m, &other.m),
            t: add(apply(&self.m, other.t), self.t),
        }
    }

    /// The image of a point.
    pub fn point(&self, p: [f64; 3]) -> [f64; 3] {
        add(apply(&self.m, p), self.t)
    }
}

const IDENTITY: Mat3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// Right-handed rotation about x.
pub fn rot_x(a: f64) -> Mat3 {
    let (s, c) = a.sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

/// Right-handed rotation about y.
pub fn rot_y(a: f64) -> Mat3 {
    let (s, c) = a.sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}

/// Right-handed rotation about z.
pub fn rot_z(a: f64) -> Mat3 {
    let (s, c) = a.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// The rotation of source angles `(a0, a1, a2)` in radians (text `.wmp` and WMPB):
/// `Rz(a0) · Rx(a1) · Ry(a2)`.
pub fn source_rotation(angles: [f64; 3]) -> Mat3 {
    let [a0, a1, a2] = angles;
    mul(&mul(&rot_z(a0), &rot_x(a1)), &rot_y(a2))
}

/// The rotation of engine (`$$M`) angles pan, tilt, roll in degrees:
/// `Rz(pan) · Ry(−tilt) · Rx(roll)`.
pub fn engine_rotation(degrees: [f64; 3]) -> Mat3 {
    let [pan, tilt, roll] = degrees.map(f64::to_radians);
    mul(&mul(&rot_z(pan), &rot_y(-tilt)), &rot_x(roll))
}

/// Below this cosine of the tilt, [`engine_angles`] treats the rotation as gimbal-locked.
pub const GIMBAL_LOCK: f64 = 1e-6;

/// Pan, tilt, roll in degrees, each in [0, 360), of a rotation (the inverse of
/// [`engine_rotation`], as WED writes `$$M`): at tilt ±90° the pan is 0; angles within
/// [`ANGLE_SNAP`] of 0 are 0.
pub fn engine_angles(r: &Mat3) -> [f64; 3] {
    let [[r00, _, _], [r10, r11, r12], [r20, r21, r22]] = *r;
    let tilt = r20.clamp(-1.0, 1.0).asin();
    // WED's angles carry f32 noise: a tilt of −89.9999964° is gimbal-locked for it too.
    let (pan, roll) = if tilt.cos() > GIMBAL_LOCK {
        (r10.atan2(r00), r21.atan2(r22))
    } else {
        (0.0, (-r12).atan2(r11))
    };
    [pan, tilt, roll].map(|a| normalize_degrees(a.to_degrees()))
}

/// Angles closer than this (degrees) to 0 or 360 come out as 0.
///
/// WMPB stores zero angles with f32 noise (−4.4e-8 rad for a pan of 0), which would come out as
/// 359.999997; WED, which computes in f32, writes 0 there.
pub const ANGLE_SNAP: f64 = 1e-5;

/// An angle in [0, 360) at f32 precision, with values within [`ANGLE_SNAP`] of 0 or 360 made
/// 0.
fn normalize_degrees(a: f64) -> f64 {
    let a = single(a.rem_euclid(360.0));
    if (ANGLE_SNAP..=360.0 - ANGLE_SNAP).contains(&a) {
        a
    } else {
        0.0
    }
}

/// `v` rounded to f32 precision (WED computes and writes `$$M` in f32), unless that would
/// overflow.
pub fn single(v: f64) -> f64 {
    let s = f64::from(v as f32);
    if s.is_finite() { s } else { v }
}

fn single3(v: [f64; 3]) -> [f64; 3] {
    v.map(single)
}

fn mul(a: &Mat3, b: &Mat3) -> Mat3 {
    let col = |j: usize| -> [f64; 3] {
        [
            b[0].get(j).copied().unwrap_or(0.0),
            b[1].get(j).copied().unwrap_or(0.0),
            b[2].get(j).copied().unwrap_or(0.0),
        ]
    };
    let (c0, c1, c2) = (col(0), col(1), col(2));
    a.map(|row| [dot(row, c0), dot(row, c1), dot(row, c2)])
}

fn apply(m: &Mat3, p: [f64; 3]) -> [f64; 3] {
    m.map(|row| dot(row, p))
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    let d = sub(a, b);
    dot(d, d).sqrt()
}

/// The inverse transpose of `m`, or `None` when it is singular (a zero scale).
fn inverse_transpose(m: &Mat3) -> Option<Mat3> {
    let [[a, b, c], [d, e, f], [g, h, i]] = *m;
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    if !det.is_finite() || det.abs() < 1e-12 {
        return None;
    }
    // The cofactor matrix divided by the determinant is the inverse transpose.
    let cof = [
        [e * i - f * h, f * g - d * i, d * h - e * g],
        [c * h - b * i, a * i - c * g, b * g - a * h],
        [b * f - c * e, c * d - a * f, a * e - b * d],
    ];
    Some(cof.map(|row| row.map(|v| v / det)))
}

/// Flags as text (binary digits, bit 31 first, in the quotes A4 puts around some), or `None`
/// when they are not that.
pub fn parse_flags(text: &str) -> Option<u32> {
    let digits = text.trim_matches('\'');
    if digits.is_empty() || digits.len() > 32 || !digits.bytes().all(|b| b == b'0' || b == b'1') {
        return None;
    }
    u32::from_str_radix(digits, 2).ok()
}

/// The world-coordinate level: see the module docs. The result has `angles_in_degrees`, no
/// groups, blocks with identity transforms and world vertices, entities with world transforms
/// (angles in degrees, as `$$M`) and world path nodes. A level already in degrees (a `$$M`)
/// is returned unchanged.
pub fn resolve(level: &Level) -> (Level, Vec<Warning>) {
    let mut warnings = Vec::new();
    if level.angles_in_degrees {
        if !level.groups.is_empty() {
            warnings.push(Warning::warning(
                F,
                Location::path("groups"),
                "a level in world coordinates (degrees) has groups; they are left as they are",
            ));
        }
        return (level.clone(), warnings);
    }
    let frames = group_frames(level, &mut warnings);
    let frame = |own: Option<usize>, kind: &str, i: usize, warnings: &mut Vec<Warning>| match own
        .or_else(|| find_member(level, kind, i))
    {
        Some(g) => frames.get(g).copied().unwrap_or_else(|| {
            warnings.push(Warning::warning(
                F,
                Location::path(format!("{kind}[{i}]")),
                format!("group {g} does not exist; placed in world coordinates"),
            ));
            Frame::IDENTITY
        }),
        None => Frame::IDENTITY,
    };

    let mut out = Level {
        angles_in_degrees: true,
        settings: level.settings.clone(),
        blocks: Vec::with_capacity(level.blocks.len()),
        entities: Vec::with_capacity(level.entities.len()),
        groups: Vec::new(),
    };
    let mut missing_vectors = 0usize;
    for (i, block) in level.blocks.iter().enumerate() {
        let world = frame(block.group, "blocks", i, &mut warnings)
            .affine
            .compose(&Affine::from_transform(&block.transform));
        out.blocks.push(resolve_block(
            block,
            &world,
            i,
            &mut warnings,
            &mut missing_vectors,
        ));
    }
    if missing_vectors > 0 {
        warnings.push(Warning::warning(
            F,
            Location::path("blocks"),
            format!(
                "{missing_vectors} faces have no texture vectors; derive them before resolving, \
                 or their texture mapping stays in the block's frame"
            ),
        ));
    }
    for (i, entity) in level.entities.iter().enumerate() {
        let group = frame(entity.group, "entities", i, &mut warnings);
        let world = group
            .affine
            .compose(&Affine::from_transform(&entity.transform));
        let mut e = entity.clone();
        let [sx, sy, sz] = group.scale;
        let [ex, ey, ez] = entity.transform.scale;
        e.transform = Transform {
            position: single3(world.t),
            angles: engine_angles(&mul(
                &group.rotation,
                &source_rotation(entity.transform.angles),
            )),
            scale: single3([sx * ex, sy * ey, sz * ez]),
        };
        e.path_nodes = entity
            .path_nodes
            .iter()
            .map(|&p| single3(world.point(p)))
            .collect();
        for edge in &mut e.path_edges {
            if let [from, to, length, ..] = edge.as_mut_slice() {
                let node = |n: f64| {
                    (n >= 1.0 && n.fract() == 0.0)
                        .then(|| (n as usize).checked_sub(1))
                        .flatten()
                        .and_then(|k| e.path_nodes.get(k))
                };
                if let (Some(a), Some(b)) = (node(*from), node(*to)) {
                    *length = single(distance(*a, *b));
                }
            }
        }
        e.group = None;
        out.entities.push(e);
    }
    (out, warnings)
}

/// A block in world coordinates.
fn resolve_block(
    block: &Block,
    world: &Affine,
    i: usize,
    warnings: &mut Vec<Warning>,
    missing_vectors: &mut usize,
) -> Block {
    let flags = parse_flags(&block.flags);
    let locked = flags.is_some_and(|f| f & TEXTURE_LOCK != 0);
    let inv_t = if locked {
        let inv = inverse_transpose(&world.m);
        if inv.is_none() {
            warnings.push(Warning::warning(
                F,
                Location::path(format!("blocks[{i}]")),
                "the block's transform is singular (a zero scale); its locked texture vectors \
                 are left as they are",
            ));
        }
        inv
    } else {
        None
    };
    let faces = block
        .faces
        .iter()
        .map(|face| {
            let mut f = Face {
                texture_transform: None,
                ..face.clone()
            };
            match (face.texture_vectors, inv_t) {
                (Some(vectors), Some(inv_t)) => {
                    f.texture_vectors = Some(vectors.map(|[x, y, z, w]| {
                        let n = apply(&inv_t, [x, y, z]);
                        let [nx, ny, nz] = n;
                        [nx, ny, nz, w - dot(n, world.t)].map(single)
                    }));
                }
                (Some(_), None) => {}
                (None, _) => {
                    *missing_vectors = missing_vectors.saturating_add(1);
                    f.texture_transform = face.texture_transform;
                }
            }
            if locked {
                if let Some(ff) = parse_flags(&face.flags) {
                    f.flags = super::binary::flag_string(ff & !FACE_LOCK);
                }
            }
            f
        })
        .collect();
    Block {
        transform: Transform::IDENTITY,
        vertices: block
            .vertices
            .iter()
            .map(|&p| single3(world.point(p)))
            .collect(),
        faces,
        flags: match flags {
            Some(f) if locked => super::binary::flag_string(f & !TEXTURE_LOCK),
            _ => block.flags.clone(),
        },
        function: block.function.clone(),
        group: None,
    }
}

/// The group holding block or entity `i`, from the groups' lists (for levels whose objects do
/// not name their group).
fn find_member(level: &Level, kind: &str, i: usize) -> Option<usize> {
    level.groups.iter().position(|g| match kind {
        "blocks" => g.blocks.contains(&i),
        _ => g.entities.contains(&i),
    })
}

/// Each group's parent, from the child lists.
fn parents(level: &Level, warnings: &mut Vec<Warning>) -> Vec<Option<usize>> {
    let mut parent = vec![None; level.groups.len()];
    for (g, group) in level.groups.iter().enumerate() {
        for &c in &group.groups {
            match parent.get_mut(c) {
                Some(slot @ None) if c != g => *slot = Some(g),
                Some(_) => warnings.push(Warning::warning(
                    F,
                    Location::path(format!("groups[{g}]")),
                    format!("group {c} is listed as a child twice (or of itself); ignored here"),
                )),
                None => warnings.push(Warning::warning(
                    F,
                    Location::path(format!("groups[{g}]")),
                    format!("child group {c} does not exist"),
                )),
            }
        }
    }
    parent
}

/// The chain of a group, from itself up to its root (cut where it would loop).
fn chain(parent: &[Option<usize>], g: usize) -> Vec<usize> {
    let mut out = vec![g];
    let mut at = g;
    while let Some(Some(p)) = parent.get(at) {
        if out.contains(p) || out.len() > parent.len() {
            break;
        }
        out.push(*p);
        at = *p;
    }
    out
}

/// A group's world map, with its rotation and scale kept apart for the entities' angles and
/// scales.
#[derive(Debug, Clone, Copy)]
struct Frame {
    affine: Affine,
    rotation: Mat3,
    scale: [f64; 3],
}

impl Frame {
    const IDENTITY: Frame = Frame {
        affine: Affine::IDENTITY,
        rotation: IDENTITY,
        scale: [1.0; 3],
    };

    fn compose(&self, t: &Transform) -> Frame {
        let [a, b, c] = self.scale;
        let [x, y, z] = t.scale;
        Frame {
            affine: self.affine.compose(&Affine::from_transform(t)),
            rotation: mul(&self.rotation, &source_rotation(t.angles)),
            scale: [a * x, b * y, c * z],
        }
    }
}

/// Each group's world frame.
fn group_frames(level: &Level, warnings: &mut Vec<Warning>) -> Vec<Frame> {
    let parent = parents(level, warnings);
    (0..level.groups.len())
        .map(|g| {
            chain(&parent, g)
                .iter()
                .rev()
                .fold(Frame::IDENTITY, |acc, &k| {
                    level
                        .groups
                        .get(k)
                        .map_or(acc, |grp| acc.compose(&grp.transform))
                })
        })
        .collect()
}
