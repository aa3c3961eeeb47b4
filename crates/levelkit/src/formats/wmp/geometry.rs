//! Block geometry: convex polyhedra from A4 face planes, texture vectors from offset, rotation
//! and scale, and texture coordinates.
//!
//! **Planes (A4).** Each face of an A4 block is a plane through three points `p1 p2 p3`, with
//! the outward normal `(p1 − p2) × (p3 − p2)` (the Quake `.map` convention, checked in the
//! notes). The block is the intersection of the half-spaces behind its planes. Each face
//! polygon is found by starting from a huge square in the face's plane and clipping it by every
//! other plane (Sutherland–Hodgman), which needs no special case for near-parallel planes: a
//! plane that does not cut the square leaves it unchanged, one that cuts a sliver leaves a
//! sliver. Corners within [`WELD`] units of each other become one vertex. A face whose polygon
//! vanishes (a redundant plane), a zero-area plane (collinear points) and a block left with
//! fewer than four faces or no volume are reported, not guessed.
//!
//! Polygons come out in the winding the v510/v710 editors use: **clockwise seen from outside**
//! (notes §3), so every dialect's blocks look the same downstream.
//!
//! **Texture vectors** where a dialect has none (A4, v510). How WED derives them is not
//! documented. This follows the convention the v710 files show (texture vectors with zero
//! offset, rotation and unit scale equal Quake's base axes: `(0 1 0)(0 0 −1)` on faces facing
//! ±x, `(1 0 0)(0 0 −1)` on ±y, `(1 0 0)(0 −1 0)` on ±z), with rotation, scale and offset
//! applied as Quake's `qbsp` does. Which sign WED gives the rotation, and whether it divides or
//! multiplies by the scale, is inferred.

use crate::scene::vec3::{cross, dot, sub};

/// Corners closer than this (in level units) are one vertex.
pub const WELD: f64 = 1e-3;

/// What went wrong building one block.
#[derive(Debug, Clone, PartialEq)]
pub enum BlockProblem {
    /// Face `i`'s three points are collinear (or coincide): no plane.
    NoPlane(usize),
    /// Face `i`'s plane does not touch the block (redundant or outside).
    EmptyFace(usize),
    /// The planes enclose no volume (fewer than four faces with area).
    NoVolume,
}

impl std::fmt::Display for BlockProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlockProblem::NoPlane(i) => write!(f, "face {i}: its three points are collinear"),
            BlockProblem::EmptyFace(i) => {
                write!(
                    f,
                    "face {i}: its plane does not touch the block (redundant plane)"
                )
            }
            BlockProblem::NoVolume => write!(f, "the planes enclose no volume"),
        }
    }
}

/// A convex polyhedron built from planes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Polyhedron {
    /// Welded vertices.
    pub vertices: Vec<[f64; 3]>,
    /// One entry per input plane: its polygon (clockwise from outside), empty when the plane
    /// contributes no face.
    pub faces: Vec<Vec<u32>>,
    /// What was wrong, if anything; the polygons that could be built are still there.
    pub problems: Vec<BlockProblem>,
}

/// The outward unit normal and distance `d` (`n·x = d` on the plane) of the plane through three
/// points, in the A4 convention; `None` for collinear points.
pub fn plane_from_points(p: &[[f64; 3]; 3]) -> Option<([f64; 3], f64)> {
    let [p1, p2, p3] = *p;
    let n = cross(sub(p1, p2), sub(p3, p2));
    let len = dot(n, n).sqrt();
    if !len.is_finite() || len < 1e-12 {
        return None;
    }
    let n = [n[0] / len, n[1] / len, n[2] / len];
    Some((n, dot(n, p2)))
}

/// Intersect the half-spaces behind the planes through each face's three points.
pub fn polyhedron_from_planes(points: &[[[f64; 3]; 3]]) -> Polyhedron {
    let mut out = Polyhedron::default();
    let planes: Vec<Option<([f64; 3], f64)>> = points.iter().map(plane_from_points).collect();
    // Half the side of the square each face starts from: far beyond every input point, and no
    // farther (precision is relative to it).
    let extent = points.iter().flatten().flatten().fold(0.0f64, |m, c| {
        if c.is_finite() { m.max(c.abs()) } else { m }
    });
    let huge = extent * 8.0 + 1024.0;
    let mut polygons: Vec<Vec<[f64; 3]>> = Vec::with_capacity(planes.len());
    for (i, plane) in planes.iter().enumerate() {
        let Some((n, d)) = *plane else {
            out.problems.push(BlockProblem::NoPlane(i));
            polygons.push(Vec::new());
            continue;
        };
        let mut poly = base_square(n, d, huge);
        for (j, other) in planes.iter().enumerate() {
            if i == j || poly.is_empty() {
                continue;
            }
            if let Some((m, e)) = *other {
                // Two faces on the same plane: keep the first, drop the later one.
                if dot(n, m) > 1.0 - 1e-12 && (d - e).abs() < WELD {
                    if j < i {
                        poly.clear();
                    }
                    continue;
                }
                poly = clip(&poly, m, e);
            }
        }
        if polygon_area2(&poly) < WELD * WELD {
            poly.clear();
        }
        if poly.is_empty() {
            out.problems.push(BlockProblem::EmptyFace(i));
        }
        polygons.push(poly);
    }
    if polygons.iter().filter(|p| !p.is_empty()).count() < 4 {
        out.problems.push(BlockProblem::NoVolume);
    }
    for poly in polygons {
        let mut face: Vec<u32> = Vec::with_capacity(poly.len());
        for p in poly {
            let index = weld(&mut out.vertices, p);
            if face.last() != Some(&index) && face.first() != Some(&index) {
                face.push(index);
            }
        }
        if face.len() < 3 {
            face.clear();
        }
        out.faces.push(face);
    }
    out
}

/// The index of `p` in `vertices`, adding it when no vertex is within [`WELD`].
fn weld(vertices: &mut Vec<[f64; 3]>, p: [f64; 3]) -> u32 {
    let found = vertices.iter().position(|v| {
        (v[0] - p[0]).abs() < WELD && (v[1] - p[1]).abs() < WELD && (v[2] - p[2]).abs() < WELD
    });
    let index = found.unwrap_or_else(|| {
        vertices.push(p);
        vertices.len() - 1
    });
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// A huge square in the plane `n·x = d`, clockwise seen from outside (from the tip of `n`).
fn base_square(n: [f64; 3], d: f64, huge: f64) -> Vec<[f64; 3]> {
    // Any vector not parallel to n.
    let a = if n[0].abs() < 0.6 {
        [1.0, 0.0, 0.0]
    } else if n[1].abs() < 0.6 {
        [0.0, 1.0, 0.0]
    } else {
        [0.0, 0.0, 1.0]
    };
    let u = unit(cross(a, n));
    let v = cross(n, u);
    let c = [n[0] * d, n[1] * d, n[2] * d];
    let at = |s: f64, t: f64| {
        [
            c[0] + (u[0] * s + v[0] * t) * huge,
            c[1] + (u[1] * s + v[1] * t) * huge,
            c[2] + (u[2] * s + v[2] * t) * huge,
        ]
    };
    // u, v, n is right-handed, so (1,1) → (1,−1) → (−1,−1) → (−1,1) runs clockwise seen from n.
    vec![at(1.0, 1.0), at(1.0, -1.0), at(-1.0, -1.0), at(-1.0, 1.0)]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let l = dot(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

/// Keep the part of `poly` behind the plane `m·x = e` (Sutherland–Hodgman).
fn clip(poly: &[[f64; 3]], m: [f64; 3], e: f64) -> Vec<[f64; 3]> {
    const EPS: f64 = 1e-9;
    let mut out = Vec::with_capacity(poly.len() + 1);
    let Some(&last) = poly.last() else {
        return out;
    };
    let mut prev = last;
    let mut prev_d = dot(m, prev) - e;
    for &cur in poly {
        let cur_d = dot(m, cur) - e;
        let prev_in = prev_d <= EPS;
        let cur_in = cur_d <= EPS;
        if prev_in != cur_in {
            let t = prev_d / (prev_d - cur_d);
            out.push([
                prev[0] + (cur[0] - prev[0]) * t,
                prev[1] + (cur[1] - prev[1]) * t,
                prev[2] + (cur[2] - prev[2]) * t,
            ]);
        }
        if cur_in {
            out.push(cur);
        }
        prev = cur;
        prev_d = cur_d;
    }
    out
}

/// Twice the area of a planar polygon.
fn polygon_area2(poly: &[[f64; 3]]) -> f64 {
    let Some(&first) = poly.first() else {
        return 0.0;
    };
    let mut sum = [0.0; 3];
    for w in poly.windows(2) {
        if let [a, b] = w {
            let c = cross(sub(*a, first), sub(*b, first));
            sum = [sum[0] + c[0], sum[1] + c[1], sum[2] + c[2]];
        }
    }
    dot(sum, sum).sqrt()
}

/// The outward normal of a polygon listed clockwise from outside (`None` when degenerate).
pub fn outward_normal(vertices: &[[f64; 3]], face: &[u32]) -> Option<[f64; 3]> {
    let points: Vec<[f64; 3]> = face
        .iter()
        .filter_map(|&i| vertices.get(i as usize).copied())
        .collect();
    let n = crate::scene::triangulate::newell_normal(&points);
    let len = dot(n, n).sqrt();
    // Newell's normal follows the counter-clockwise side; the polygon is clockwise from outside.
    (len > 1e-12).then(|| [-n[0] / len, -n[1] / len, -n[2] / len])
}

/// Quake's base texture axes: per axis direction, the normal and the `s`, `t` vectors.
const BASE_AXES: [([f64; 3], [f64; 3], [f64; 3]); 6] = [
    ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]),
    ([0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]),
    ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]),
    ([-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]),
    ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
    ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
];

/// Texture vectors for a face with outward normal `normal` and the editor's x/y offset,
/// rotation (degrees) and x/y scale, as described in the module docs (inferred).
pub fn texture_vectors(normal: [f64; 3], transform: [f64; 5]) -> [[f64; 4]; 2] {
    let [xoff, yoff, rotation, xscale, yscale] = transform;
    let mut best = 0;
    let mut best_dot = f64::NEG_INFINITY;
    for (i, (n, _, _)) in BASE_AXES.iter().enumerate() {
        let d = dot(normal, *n);
        if d > best_dot + 1e-9 {
            best_dot = d;
            best = i;
        }
    }
    let (_, mut s, mut t) = BASE_AXES.get(best).copied().unwrap_or(BASE_AXES[0]);
    if rotation != 0.0 {
        let (sin, cos) = match rotation {
            90.0 => (1.0, 0.0),
            180.0 => (0.0, -1.0),
            270.0 => (-1.0, 0.0),
            r => r.to_radians().sin_cos(),
        };
        // Rotate within the plane of the two axes the base vectors use, as qbsp does.
        let sv = s.iter().position(|c| *c != 0.0).unwrap_or(0);
        let tv = t.iter().position(|c| *c != 0.0).unwrap_or(1);
        for vec in [&mut s, &mut t] {
            let (a, b) = (
                vec.get(sv).copied().unwrap_or(0.0),
                vec.get(tv).copied().unwrap_or(0.0),
            );
            if let Some(x) = vec.get_mut(sv) {
                *x = cos * a - sin * b;
            }
            if let Some(y) = vec.get_mut(tv) {
                *y = sin * a + cos * b;
            }
        }
    }
    let xscale = if xscale == 0.0 { 1.0 } else { xscale };
    let yscale = if yscale == 0.0 { 1.0 } else { yscale };
    [
        [s[0] / xscale, s[1] / xscale, s[2] / xscale, xoff],
        [t[0] / yscale, t[1] / yscale, t[2] / yscale, yoff],
    ]
}

/// Texel coordinates `(u, v)` of a point under texture vectors.
pub fn texel(vectors: &[[f64; 4]; 2], p: [f64; 3]) -> [f64; 2] {
    let [t1, t2] = vectors;
    [
        t1[0] * p[0] + t1[1] * p[1] + t1[2] * p[2] + t1[3],
        t2[0] * p[0] + t2[1] * p[1] + t2[2] * p[2] + t2[3],
    ]
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// An axis-aligned box as A4 writes it (three points per face, outward normals by the
    /// `(p1 − p2) × (p3 − p2)` rule).
    fn box_planes(h: f64) -> Vec<[[f64; 3]; 3]> {
        vec![
            // top z = h: normal +z
            [[0.0, 0.0, h], [0.0, 1.0, h], [1.0, 0.0, h]],
            // bottom z = -h
            [[0.0, 0.0, -h], [1.0, 0.0, -h], [0.0, 1.0, -h]],
            // x = h
            [[h, 0.0, 0.0], [h, 0.0, 1.0], [h, 1.0, 0.0]],
            // x = -h
            [[-h, 0.0, 0.0], [-h, 1.0, 0.0], [-h, 0.0, 1.0]],
            // y = h
            [[0.0, h, 0.0], [1.0, h, 0.0], [0.0, h, 1.0]],
            // y = -h
            [[0.0, -h, 0.0], [0.0, -h, 1.0], [1.0, -h, 0.0]],
        ]
    }

    #[test]
    fn box_from_planes() {
        let p = polyhedron_from_planes(&box_planes(2.0));
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.vertices.len(), 8);
        assert!(p.faces.iter().all(|f| f.len() == 4));
        // Outward normals point away from the centre.
        for (face, planes) in p.faces.iter().zip(box_planes(2.0)) {
            let n = outward_normal(&p.vertices, face).unwrap();
            let (want, _) = plane_from_points(&planes).unwrap();
            assert!(dot(n, want) > 0.999, "{n:?} vs {want:?}");
        }
        for v in &p.vertices {
            assert!(v.iter().all(|c| (c.abs() - 2.0).abs() < 1e-9), "{v:?}");
        }
    }

    #[test]
    fn redundant_and_degenerate_planes_are_reported() {
        let mut planes = box_planes(2.0);
        // A plane outside the box: touches nothing.
        planes.push([[0.0, 0.0, 5.0], [0.0, 1.0, 5.0], [1.0, 0.0, 5.0]]);
        // Collinear points.
        planes.push([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]);
        let p = polyhedron_from_planes(&planes);
        assert_eq!(
            p.problems,
            vec![BlockProblem::EmptyFace(6), BlockProblem::NoPlane(7)]
        );
        assert_eq!(p.vertices.len(), 8);
        // Only two planes: no volume.
        let p = polyhedron_from_planes(&box_planes(1.0)[..2]);
        assert!(p.problems.contains(&BlockProblem::NoVolume));
    }

    #[test]
    fn near_parallel_planes_survive() {
        let mut planes = box_planes(2.0);
        // A top plane tilted by a hair.
        planes[0] = [[0.0, 0.0, 2.0], [0.0, 1.0, 2.0], [1.0, 0.0, 2.000001]];
        let p = polyhedron_from_planes(&planes);
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.faces.iter().filter(|f| !f.is_empty()).count(), 6);
    }

    #[test]
    fn base_axes_match_the_v710_examples() {
        // wmp.txt: faces facing ±x have ( 0 1 0 0 ) ( 0 0 -1 0 ), ±y ( 1 0 0 0 ) ( 0 0 -1 0 ),
        // ±z ( 1 0 0 0 ) ( 0 -1 0 0 ).
        let id = [0.0, 0.0, 0.0, 1.0, 1.0];
        assert_eq!(
            texture_vectors([-1.0, 0.0, 0.0], id),
            [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]
        );
        assert_eq!(
            texture_vectors([0.0, 1.0, 0.0], id),
            [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]
        );
        assert_eq!(
            texture_vectors([0.0, 0.0, -1.0], id),
            [[1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0]]
        );
        let t = texture_vectors([0.0, 0.0, 1.0], [8.0, 4.0, 90.0, 2.0, 1.0]);
        assert_eq!(t, [[0.0, 0.5, 0.0, 8.0], [1.0, 0.0, 0.0, 4.0]]);
        assert_eq!(texel(&t, [2.0, 6.0, 0.0]), [11.0, 6.0]);
    }
}
