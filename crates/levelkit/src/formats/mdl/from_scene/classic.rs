//! An MDL5 (GameStudio A5) model of the MDL7 that [`Mdl::from_scene`] made: what a user who
//! asks for the older format gets (`convert model.glb model.mdl --mdl-version 5`).
//!
//! MDL5 is Quake's layout with GameStudio's skins: one mesh, one skin its triangles are drawn
//! with, and frames that each hold every vertex, packed to 16 bits a coordinate over the
//! model's bounding box. So:
//!
//! * the MDL7 groups become one mesh (vertices, texture coordinates and triangles in group
//!   order);
//! * the skin is the first picture skin (B8G8R8, type 4, or B8G8R8A8, type 5, at its own size,
//!   as MDL5 skins carry it); triangles of other materials are drawn with it, and a model with
//!   no picture skin has none, each with a warning;
//! * texture coordinates are whole texels of that skin (`u × width`, `v × height`): MDL5
//!   stores them as 16-bit integers;
//! * every MDL7 frame becomes a full pose: its moved vertices, and its bone matrices applied to
//!   the vertices on those bones (MDL5 has no bones: the animation is baked, as the engine's
//!   own vertex animation plays it). A group with fewer frames than another keeps its rest
//!   pose in the others;
//! * positions are packed to `0..=65535` over the bounding box of every pose (the header's
//!   scale and translation; a frame's own box in its header), each vertex's normal the nearest
//!   of the format's 162 (`normals.rs`) to the area-weighted normal of its triangles in that
//!   pose;
//! * the header's radius is the largest distance of a vertex from the origin in any pose.

use super::super::model::*;
use super::super::normals;
use super::{refuse, warn};
use crate::error::{Result, Warning};

/// Most vertices and texture coordinates MDL5 indexes (16-bit triangles).
const MAX_INDEX: usize = 0xFFFF;

/// The MDL5 of `m`, with warnings for what MDL5 cannot hold.
pub(super) fn mdl5(m: &Mdl7, warnings: &mut Vec<Warning>) -> Result<Classic> {
    let skins = m.groups.first().map_or(&[][..], |g| &g.skins[..]);
    let chosen = skins.iter().position(|s| {
        matches!(s.kind & 7, 4 | 5)
            && matches!(s.data, SkinData::Pixels { .. })
            && s.width > 0
            && s.height > 0
    });
    let skin = chosen.and_then(|i| skins.get(i)).and_then(classic_skin);
    let (w, h) = chosen
        .and_then(|i| skins.get(i))
        .map_or((1.0, 1.0), |s| (s.width as f32, s.height as f32));
    match chosen {
        None if !skins.is_empty() => warnings.push(warn(
            "skins",
            "no skin is a picture (MDL5 holds pictures, not materials or file names); the \
             model has no skin",
        )),
        _ => {}
    }

    // One mesh of all groups.
    let mut rest: Vec<[f32; 3]> = Vec::new();
    let mut bone: Vec<u16> = Vec::new();
    let mut texcoords: Vec<[i16; 2]> = Vec::new();
    let mut triangles: Vec<SkinTriangle> = Vec::new();
    let mut no_uv: Option<u16> = None;
    let mut other_material = 0usize;
    let mut starts = Vec::with_capacity(m.groups.len());
    for (gi, g) in m.groups.iter().enumerate() {
        let (v0, t0) = (rest.len(), texcoords.len());
        starts.push(v0);
        rest.extend(g.vertices.iter().map(|v| v.position));
        bone.extend(g.vertices.iter().map(|v| v.index));
        texcoords.extend(g.uvs.iter().map(|&[u, v]| texel(u, v, w, h)));
        if rest.len() > MAX_INDEX || texcoords.len() > MAX_INDEX {
            return Err(refuse(
                format!("groups[{gi}]"),
                "more than 65,535 vertices or texture coordinates in all groups: MDL5 is one \
                 mesh indexed with 16 bits",
            ));
        }
        for t in &g.triangles {
            if chosen.is_some_and(|c| t.material as usize != c) {
                other_material += 1;
            }
            let mut vertices = [0u16; 3];
            for (o, &v) in vertices.iter_mut().zip(&t.vertices) {
                *o = u16::try_from(v0 + v as usize).unwrap_or(u16::MAX);
            }
            let mut uvs = [0u16; 3];
            for (o, &u) in uvs.iter_mut().zip(&t.uvs) {
                *o = if (u as usize) < g.uvs.len() {
                    u16::try_from(t0 + u as usize).unwrap_or(u16::MAX)
                } else {
                    // MED's "none": one shared coordinate at the skin's corner.
                    *no_uv.get_or_insert_with(|| {
                        texcoords.push([0, 0]);
                        u16::try_from(texcoords.len() - 1).unwrap_or(u16::MAX)
                    })
                };
            }
            triangles.push(SkinTriangle { vertices, uvs });
        }
    }
    if texcoords.len() > MAX_INDEX {
        return Err(refuse(
            "groups",
            "more than 65,535 texture coordinates: MDL5 indexes them with 16 bits",
        ));
    }
    if skins.len() > 1 || other_material > 0 {
        warnings.push(warn(
            "skins",
            format!(
                "{} skins, but MDL5 draws every triangle with one: only the first picture \
                 skin is written, and the {other_material} triangles of other materials show \
                 its picture",
                skins.len()
            ),
        ));
    }

    // Every pose, in model space.
    let count = m
        .groups
        .iter()
        .map(|g| g.frames.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut poses: Vec<([u8; 16], Vec<[f32; 3]>)> = Vec::with_capacity(count);
    for k in 0..count {
        let mut positions = rest.clone();
        let mut name = None;
        for (g, &v0) in m.groups.iter().zip(&starts) {
            let Some(f) = g.frames.get(k) else {
                continue;
            };
            name.get_or_insert(f.name);
            let here = positions
                .get_mut(v0..v0 + g.vertices.len())
                .unwrap_or_default();
            for fv in &f.vertices {
                if let Some(p) = here.get_mut(usize::from(fv.index)) {
                    *p = fv.position;
                }
            }
            if !f.transforms.is_empty() {
                let mut matrix: Vec<Option<&[f32; 16]>> = vec![None; m.bones.len()];
                for t in &f.transforms {
                    if let Some(slot) = matrix.get_mut(usize::from(t.bone)) {
                        *slot = Some(&t.matrix);
                    }
                }
                let bones = bone.get(v0..v0 + g.vertices.len()).unwrap_or_default();
                for (p, &b) in here.iter_mut().zip(bones) {
                    if let Some(Some(mat)) = matrix.get(usize::from(b)) {
                        *p = transform(mat, *p);
                    }
                }
            }
        }
        poses.push((name.unwrap_or(*b"frame1\0\0\0\0\0\0\0\0\0\0"), positions));
    }

    // The packing box of every pose.
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    let mut radius = 0f32;
    for p in poses.iter().flat_map(|(_, ps)| ps) {
        for ((l, h), &x) in lo.iter_mut().zip(hi.iter_mut()).zip(p) {
            *l = l.min(x);
            *h = h.max(x);
        }
        radius = radius.max((p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt());
    }
    if !lo.iter().chain(&hi).all(|x| x.is_finite()) {
        lo = [0.0; 3];
        hi = [0.0; 3];
    }
    let scale = zip3(hi, lo, |h, l| {
        let range = h - l;
        if range > 0.0 { range / 65535.0 } else { 1.0 }
    });
    let pack = |p: [f32; 3], normal: u8| {
        let offset = zip3(p, lo, |x, l| x - l);
        PackedVertex {
            position: zip3(offset, scale, |d, s| d / s)
                .map(|x| x.round().clamp(0.0, 65535.0) as u16),
            normal,
            pad: 0,
        }
    };
    let frames = poses
        .iter()
        .map(|(name, positions)| {
            let normals = vertex_normals(positions, &triangles);
            let vertices: Vec<PackedVertex> = positions
                .iter()
                .zip(&normals)
                .map(|(&p, &n)| pack(p, normals::nearest(n)))
                .collect();
            let mut min = PackedVertex::default();
            let mut max = PackedVertex::default();
            if let Some(first) = vertices.first() {
                (min.position, max.position) = (first.position, first.position);
            }
            for v in &vertices {
                for ((lo, hi), &x) in min
                    .position
                    .iter_mut()
                    .zip(max.position.iter_mut())
                    .zip(&v.position)
                {
                    *lo = (*lo).min(x);
                    *hi = (*hi).max(x);
                }
            }
            Frame::Single {
                kind: 2,
                pose: Pose {
                    min,
                    max,
                    name: *name,
                    vertices,
                },
            }
        })
        .collect();
    Ok(Classic {
        version: ClassicVersion::Mdl5,
        header: ClassicHeader {
            version: 0,
            scale,
            translate: lo,
            radius,
            eye: [0.0; 3],
            skin_width: 0,
            skin_height: 0,
            num_verts: u32::try_from(rest.len()).unwrap_or(u32::MAX),
            sync_type: 0,
            flags: 0,
            size: 0,
        },
        skins: skin.into_iter().collect(),
        texcoords: TexCoords::Skin(texcoords),
        triangles: Triangles::Skin(triangles),
        frames,
        trailer: Vec::new(),
    })
}

/// An MDL7 picture skin as an MDL5 one: the same pixel format and bytes, its own size.
fn classic_skin(s: &Skin7) -> Option<Skin> {
    let SkinData::Pixels { pixels, .. } = &s.data else {
        return None;
    };
    Some(Skin::Single {
        kind: u32::from(s.kind & 7),
        size: Some([u32::try_from(s.width).ok()?, u32::try_from(s.height).ok()?]),
        pixels: pixels.clone(),
        mips: Vec::new(),
    })
}

/// A texture coordinate (0–1, `v` down) in whole texels of a `w` x `h` skin.
fn texel(u: f32, v: f32, w: f32, h: f32) -> [i16; 2] {
    let round = |x: f32| x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
    [round(u * w), round(v * h)]
}

/// A point moved by an MDL7 bone matrix (as stored: read column-major it is the matrix that
/// takes a column vector, the translation in its last column).
fn transform(m: &[f32; 16], p: [f32; 3]) -> [f32; 3] {
    let [c0, c1, c2, c3] = [0, 4, 8, 12].map(|at| {
        let column = |r: usize| m.get(at + r).copied().unwrap_or(0.0);
        [column(0), column(1), column(2)]
    });
    std::array::from_fn(|r| {
        let at = |c: [f32; 3]| c.get(r).copied().unwrap_or(0.0);
        at(c0) * p[0] + at(c1) * p[1] + at(c2) * p[2] + at(c3)
    })
}

/// `f` of the matching coordinates of `a` and `b`.
fn zip3(a: [f32; 3], b: [f32; 3], f: impl Fn(f32, f32) -> f32) -> [f32; 3] {
    let [a0, a1, a2] = a;
    let [b0, b1, b2] = b;
    [f(a0, b0), f(a1, b1), f(a2, b2)]
}

/// Each vertex's normal: the sum of its triangles' normals weighted by their areas, a face's
/// normal `(b − a) × (c − a)` in the file's order: the way the normals of the real MDL5
/// `Sword2.MDL` point (their mean cosine with these is 0.83; with the opposite, −0.83).
fn vertex_normals(positions: &[[f32; 3]], triangles: &[SkinTriangle]) -> Vec<[f32; 3]> {
    let mut out = vec![[0f32; 3]; positions.len()];
    for t in triangles {
        let [a, b, c] = t.vertices.map(usize::from);
        let (Some(pa), Some(pb), Some(pc)) = (positions.get(a), positions.get(b), positions.get(c))
        else {
            continue;
        };
        let ab = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
        let ac = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
        let n = [
            ab[1] * ac[2] - ab[2] * ac[1],
            ab[2] * ac[0] - ab[0] * ac[2],
            ab[0] * ac[1] - ab[1] * ac[0],
        ];
        for i in [a, b, c] {
            if let Some(o) = out.get_mut(i) {
                for (x, d) in o.iter_mut().zip(n) {
                    *x += d;
                }
            }
        }
    }
    out
}
