//! Triangulation of n-gon faces, for exporters whose targets only take triangles (glTF).
//!
//! The common model keeps faces as polygons ([`Face`](super::Face)); glTF wants triangles. Any
//! correct triangulation will do for conversion, so this module follows what Wings 3D's own
//! exporter does in spirit (`wings_tesselation`, see the Wings notes §8.2) and keeps its
//! guarantees simple:
//!
//! * **Triangles** are kept: `[0, 1, 2]`.
//! * **Quads** are split along the **shorter diagonal** (0–2 or 1–3; 0–2 on a tie), because that
//!   gives the better-shaped pair of triangles, as Wings does. When that split would give a
//!   triangle facing against the quad's normal (a concave quad, such as a dart, whose shorter
//!   diagonal runs outside it) or a degenerate one while the other split does better, the other
//!   diagonal is used. Wings' extra rules (a 15% margin, continuing the pattern of split
//!   neighbours, balanced areas) are not copied.
//! * **Polygons with five or more corners** are projected onto the plane of their
//!   [Newell normal](newell_normal) by dropping its dominant axis (swapping the two kept axes when
//!   that axis points away, so the polygon stays counter-clockwise), then **ear clipped**, which
//!   is what Wings does for n-gons too. Ear clipping handles concave polygons, is simple enough to
//!   make robust, and always yields `n - 2` triangles over the original corners.
//!
//! # Ear clipping
//!
//! A corner `b` with neighbours `a` and `c` is an *ear* when it is strictly convex and no other
//! corner that is not strictly convex (reflex, or flat such as a collinear or duplicate point)
//! lies in the closed triangle `a b c`; corners at the same position as `a`, `b` or `c` are not
//! counted. For a simple polygon this is exact: if any corner lies in the triangle, the first one
//! met sweeping from `b` towards `a c` is not strictly convex. Clipping an ear cuts off a triangle
//! that lies inside the polygon, so for simple polygons (even with collinear and duplicate
//! points) the triangles never overlap, never turn over, and their areas add up to the
//! polygon's.
//!
//! Each step picks the best corner by a key: a proper ear first (the best-shaped one, which
//! avoids long slivers), then a flat corner (collinear or duplicate: cutting it off removes a
//! triangle of zero area, so nothing changes), then the convex corner with the fewest corners in
//! its way, then the least reflex corner. The fallbacks only matter for degenerate,
//! self-touching, self-intersecting or badly non-planar input, where they still give `n - 2`
//! triangles using every corner, and the least harm.
//!
//! To stay `O(n²)` rather than `O(n³)`, every corner keeps its *violation count* (how many
//! blocking corners lie in its triangle). Cutting off `b` only changes the triangles of `a` and
//! `c`, which are counted afresh (`O(n)`); every other count changes only by `b` leaving and by `a`
//! or `c` starting or stopping to block, which is a constant-time test per corner. One pass then
//! finds the best key. So each step costs `O(n)`, whatever the input; a 2000-gon takes
//! milliseconds.
//!
//! Nothing here panics or loops: there are exactly `n - 3` steps, and non-finite coordinates
//! merely make every key equal.

#![deny(clippy::indexing_slicing)]

use super::vec3::{cross, dot, sub};

/// Below this fraction of the quad's area (times the cosine to its normal), a quad triangle is
/// counted as facing away or degenerate.
const QUAD_EPS: f64 = 1e-10;

/// Corners whose doubled triangle area is within this fraction of the squared bounding-box
/// diagonal count as flat (a few hundred times the rounding error of the orientation test).
const FLAT_EPS: f64 = 1e-14;

/// Triangulate one planar-ish polygon given its corners in order (counter-clockwise seen from
/// the front, i.e. the side its normal points to). Returns exactly `n - 2` triangles for n >= 3
/// (none for n < 3) as indices into `points`, each triangle counter-clockwise in the same sense
/// as the polygon.
///
/// Every corner is used. For a simple polygon (collinear and repeated points allowed) the
/// triangles cover it exactly, without overlaps or inverted triangles; for degenerate or
/// self-intersecting input the result is still `n - 2` triangles (see the
/// [module docs](self)). Polygons with more than `u32::MAX` corners give nothing.
///
/// ```
/// use levelkit::scene::triangulate::triangulate;
///
/// // A concave L-shape in the XY plane, counter-clockwise seen from +Z.
/// let l = [
///     [0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0],
///     [1.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 2.0, 0.0],
/// ];
/// let tris = triangulate(&l);
/// assert_eq!(tris.len(), 4);
/// ```
pub fn triangulate(points: &[[f64; 3]]) -> Vec<[u32; 3]> {
    let mut out = Vec::with_capacity(points.len().saturating_sub(2));
    triangulate_into(points, &mut out);
    out
}

/// Same, appending to `out` (allocation-light for the exporter's hot loop); returns how many
/// were appended.
///
/// Triangles and quads allocate nothing; larger polygons allocate one scratch vector.
pub fn triangulate_into(points: &[[f64; 3]], out: &mut Vec<[u32; 3]>) -> usize {
    if points.len() < 3 || u32::try_from(points.len()).is_err() {
        return 0;
    }
    match *points {
        [_, _, _] => {
            out.push([0, 1, 2]);
            1
        }
        [a, b, c, d] => {
            out.extend_from_slice(&split_quad([a, b, c, d]));
            2
        }
        _ => EarClipper::new(points).run(out),
    }
}

/// The polygon's normal by Newell's method (not normalised; zero for degenerate polygons).
///
/// For a planar polygon its length is twice the polygon's area, and it points to the side from
/// which the corners run counter-clockwise. For a non-planar one it is the area vector of its
/// projections, the best-fitting plane's normal. Fewer than three points, or all on one line,
/// give zero. The sum is taken relative to the first point, which loses less precision far from
/// the origin.
pub fn newell_normal(points: &[[f64; 3]]) -> [f64; 3] {
    let mut n = [0.0; 3];
    let Some(&origin) = points.first() else {
        return n;
    };
    if points.len() < 3 {
        return n;
    }
    let next = points.iter().skip(1).chain(points.first());
    for (&a, &b) in points.iter().zip(next) {
        let (a, b) = (sub(a, origin), sub(b, origin));
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    n
}

/// Split a quad along its shorter diagonal, unless that gives a triangle facing the wrong way
/// (or a degenerate one) and the other diagonal does better.
fn split_quad(q: [[f64; 3]; 4]) -> [[u32; 3]; 2] {
    const SPLIT_02: [[u32; 3]; 2] = [[0, 1, 2], [0, 2, 3]];
    const SPLIT_13: [[u32; 3]; 2] = [[0, 1, 3], [1, 2, 3]];
    let [p0, p1, p2, p3] = q;
    let normal = newell_normal(&q);
    let facing = |a, b, c| dot(cross(sub(b, a), sub(c, a)), normal);
    let f02 = facing(p0, p1, p2).min(facing(p0, p2, p3));
    let f13 = facing(p0, p1, p3).min(facing(p1, p2, p3));
    let (short, f_short, long, f_long) = if dist2(p1, p3) < dist2(p0, p2) {
        (SPLIT_13, f13, SPLIT_02, f02)
    } else {
        (SPLIT_02, f02, SPLIT_13, f13)
    };
    if f_short <= QUAD_EPS * dot(normal, normal) && f_long > f_short {
        long
    } else {
        short
    }
}

/// One corner of the polygon being clipped: a node of a circular doubly linked list.
#[derive(Debug, Clone, Copy, Default)]
struct Vertex {
    /// Position in the plane, relative to the polygon's centroid.
    p: [f64; 2],
    /// Previous corner still in the polygon.
    prev: usize,
    /// Next corner still in the polygon.
    next: usize,
    /// Doubled signed area of the triangle `prev, self, next` (positive: convex).
    cross: f64,
    /// For a convex corner, how many blocking corners lie in that triangle.
    count: usize,
}

/// Ear clipping with violation counts kept up to date (see the module docs).
struct EarClipper {
    v: Vec<Vertex>,
    /// A corner still in the polygon.
    head: usize,
    /// How many corners are still in the polygon.
    len: usize,
    /// Flatness tolerance for `cross`.
    eps: f64,
}

impl EarClipper {
    /// Project `points` (at least 5 of them) onto their plane and count every corner's violations.
    fn new(points: &[[f64; 3]]) -> EarClipper {
        let n = points.len();
        let normal = newell_normal(points);
        let [ax, ay, az] = normal.map(f64::abs);
        // Keep the two axes that, with the dropped one, form a right-handed triple, so the
        // projection is counter-clockwise when the dropped axis of the normal is positive.
        let (axis, flip) = if ax > ay && ax > az {
            (0, normal[0] < 0.0)
        } else if ay > az {
            (1, normal[1] < 0.0)
        } else {
            (2, normal[2] < 0.0)
        };
        let project = |p: [f64; 3]| {
            let [x, y] = match axis {
                0 => [p[1], p[2]],
                1 => [p[2], p[0]],
                _ => [p[0], p[1]],
            };
            if flip { [y, x] } else { [x, y] }
        };
        let sum = points
            .iter()
            .fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]]);
        let centre = project(sum.map(|s| s / n as f64));
        let v: Vec<Vertex> = points
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let [x, y] = project(p);
                Vertex {
                    p: [x - centre[0], y - centre[1]],
                    prev: if i == 0 { n - 1 } else { i - 1 },
                    next: if i + 1 == n { 0 } else { i + 1 },
                    cross: 0.0,
                    count: 0,
                }
            })
            .collect();
        let (lo, hi) = v.iter().fold(
            ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
            |(lo, hi), v| {
                (
                    [lo[0].min(v.p[0]), lo[1].min(v.p[1])],
                    [hi[0].max(v.p[0]), hi[1].max(v.p[1])],
                )
            },
        );
        let diag2 = (hi[0] - lo[0]).powi(2) + (hi[1] - lo[1]).powi(2);
        let mut clipper = EarClipper {
            v,
            head: 0,
            len: n,
            eps: FLAT_EPS * diag2,
        };
        for i in 0..n {
            clipper.update_cross(i);
        }
        for i in 0..n {
            clipper.recount(i);
        }
        clipper
    }

    /// Clip `n - 3` corners, then emit the last triangle; returns `n - 2`.
    fn run(mut self, out: &mut Vec<[u32; 3]>) -> usize {
        let mut emitted = 0;
        while self.len > 3 {
            let b = self.select();
            self.emit(b, out);
            emitted += 1;
            self.clip(b);
        }
        self.emit(self.head, out);
        emitted + 1
    }

    fn at(&self, i: usize) -> Vertex {
        self.v.get(i).copied().unwrap_or_default()
    }

    fn is_convex(&self, i: usize) -> bool {
        self.at(i).cross > self.eps
    }

    /// The triangle `prev(b), b, next(b)`.
    fn emit(&self, b: usize, out: &mut Vec<[u32; 3]>) {
        let v = self.at(b);
        // `triangulate_into` checked that every index fits.
        let idx = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        out.push([idx(v.prev), idx(b), idx(v.next)]);
    }

    fn update_cross(&mut self, i: usize) {
        let v = self.at(i);
        let cross = orient(self.at(v.prev).p, v.p, self.at(v.next).p);
        if let Some(slot) = self.v.get_mut(i) {
            slot.cross = cross;
        }
    }

    /// Count the violations of corner `i` from scratch: `O(n)`.
    fn recount(&mut self, i: usize) {
        let v = self.at(i);
        let mut count = 0;
        if v.cross > self.eps {
            let (a, c) = (self.at(v.prev).p, self.at(v.next).p);
            let mut x = self.at(v.next).next;
            for _ in 3..self.len {
                let vx = self.at(x);
                if vx.cross <= self.eps && in_triangle(vx.p, a, v.p, c) {
                    count += 1;
                }
                x = vx.next;
            }
        }
        if let Some(slot) = self.v.get_mut(i) {
            slot.count = count;
        }
    }

    /// The corner to cut off next: the smallest key over the polygon (`O(n)`).
    fn select(&self) -> usize {
        let mut best = self.head;
        let mut best_key = (u8::MAX, f64::INFINITY);
        let mut i = self.head;
        for _ in 0..self.len {
            let key = self.key(i);
            if key.0 < best_key.0 || (key.0 == best_key.0 && key.1 < best_key.1) {
                (best, best_key) = (i, key);
            }
            i = self.at(i).next;
        }
        best
    }

    /// Rank of corner `i` (smaller is better): proper ears by shape, then flat corners, then
    /// convex corners by violations, then reflex corners by how reflex they are.
    fn key(&self, i: usize) -> (u8, f64) {
        let v = self.at(i);
        if v.cross > self.eps {
            if v.count == 0 {
                let (a, c) = (self.at(v.prev).p, self.at(v.next).p);
                let edges = dist2_2d(a, v.p) + dist2_2d(v.p, c) + dist2_2d(c, a);
                (0, -v.cross / edges)
            } else {
                (2, v.count as f64)
            }
        } else if v.cross >= -self.eps {
            (1, v.cross.abs())
        } else if v.cross < -self.eps {
            (3, -v.cross)
        } else {
            (4, 0.0)
        }
    }

    /// Cut off corner `b` and bring every violation count up to date (`O(n)`).
    fn clip(&mut self, b: usize) {
        let vb = self.at(b);
        let (a, c) = (vb.prev, vb.next);
        let b_blocks = vb.cross <= self.eps;
        let (a_blocked, c_blocked) = (!self.is_convex(a), !self.is_convex(c));
        if let Some(slot) = self.v.get_mut(a) {
            slot.next = c;
        }
        if let Some(slot) = self.v.get_mut(c) {
            slot.prev = a;
        }
        if self.head == b {
            self.head = c;
        }
        self.len = self.len.saturating_sub(1);
        if self.len <= 3 {
            return;
        }
        self.update_cross(a);
        self.update_cross(c);
        let a_now = !self.is_convex(a);
        let c_now = !self.is_convex(c);
        let (pa, pb, pc) = (self.at(a).p, vb.p, self.at(c).p);
        // Every corner but `a` and `c`: their triangles are unchanged, only the blockers moved.
        let mut i = self.at(c).next;
        for _ in 2..self.len {
            let v = self.at(i);
            if v.cross > self.eps {
                let (p, q) = (self.at(v.prev).p, self.at(v.next).p);
                let mut count = v.count;
                if b_blocks && in_triangle(pb, p, v.p, q) {
                    count = count.saturating_sub(1);
                }
                for (x, px, before, now) in [(a, pa, a_blocked, a_now), (c, pc, c_blocked, c_now)] {
                    if before != now && x != v.prev && x != v.next && in_triangle(px, p, v.p, q) {
                        count = if now {
                            count.saturating_add(1)
                        } else {
                            count.saturating_sub(1)
                        };
                    }
                }
                if let Some(slot) = self.v.get_mut(i) {
                    slot.count = count;
                }
            }
            i = v.next;
        }
        self.recount(a);
        self.recount(c);
    }

    /// The counts as they would be recomputed from scratch, for tests of the bookkeeping.
    #[cfg(test)]
    fn counts_agree(&mut self) -> bool {
        let mut i = self.head;
        for _ in 0..self.len {
            let kept = self.at(i).count;
            self.recount(i);
            if self.at(i).count != kept {
                return false;
            }
            i = self.at(i).next;
        }
        true
    }
}

/// Whether `x` lies in the closed counter-clockwise triangle `a b c`, not counting points at the
/// same position as a corner.
fn in_triangle(x: [f64; 2], a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> bool {
    x != a
        && x != b
        && x != c
        && orient(a, b, x) >= 0.0
        && orient(b, c, x) >= 0.0
        && orient(c, a, x) >= 0.0
}

/// Doubled signed area of the triangle `a b c` (positive when counter-clockwise).
fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn dist2_2d(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)
}

fn dist2(a: [f64; 3], b: [f64; 3]) -> f64 {
    dot(sub(a, b), sub(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the unit tests need no dependencies.
    fn lcg(state: &mut u64) -> f64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// After every step, the incrementally kept violation counts equal counts made from
    /// scratch: on stars (simple), random point clouds (self-intersecting), grids of repeated
    /// and collinear points.
    #[test]
    fn incremental_counts_match_recount() {
        let mut seed = 7u64;
        for case in 0..60 {
            let n = 5 + case % 40;
            let points: Vec<[f64; 3]> = (0..n)
                .map(|i| {
                    let (r1, r2) = (lcg(&mut seed), lcg(&mut seed));
                    match case % 3 {
                        0 => {
                            let t = i as f64 / n as f64 * std::f64::consts::TAU;
                            let r = 0.2 + r1;
                            [r * t.cos(), r * t.sin(), 0.3 * r * t.cos()]
                        }
                        1 => [r1, r2, 0.0],
                        _ => [(r1 * 3.0).floor(), 0.0, (r2 * 3.0).floor()],
                    }
                })
                .collect();
            let mut clipper = EarClipper::new(&points);
            assert!(clipper.counts_agree(), "case {case} at the start");
            let mut out = Vec::new();
            while clipper.len > 3 {
                let b = clipper.select();
                clipper.emit(b, &mut out);
                clipper.clip(b);
                // With three left nothing more is chosen, so the counts are not kept.
                assert!(
                    clipper.len <= 3 || clipper.counts_agree(),
                    "case {case} with {} left",
                    clipper.len
                );
            }
        }
    }

    #[test]
    fn projection_keeps_orientation() {
        // A regular pentagon, counter-clockwise seen from each axis in turn, and reversed.
        for axis in 0..3 {
            for reverse in [false, true] {
                let mut points: Vec<[f64; 3]> = (0..5)
                    .map(|i| {
                        let t = f64::from(i) / 5.0 * std::f64::consts::TAU;
                        let (x, y) = (t.cos(), t.sin());
                        match axis {
                            0 => [0.5, x, y],
                            1 => [y, -2.0, x],
                            _ => [x, y, 3.0],
                        }
                    })
                    .collect();
                if reverse {
                    points.reverse();
                }
                let clipper = EarClipper::new(&points);
                let area: f64 = clipper
                    .v
                    .iter()
                    .map(|v| v.p[0] * clipper.at(v.next).p[1] - clipper.at(v.next).p[0] * v.p[1])
                    .sum();
                assert!(area > 1.0, "axis {axis} reverse {reverse}: area {area}");
            }
        }
    }
}
