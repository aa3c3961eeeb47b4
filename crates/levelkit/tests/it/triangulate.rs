//! Triangulation of n-gon faces (`scene::triangulate`): exact covers of simple polygons (convex,
//! star-shaped and x-monotone, with collinear and repeated points, in any plane and either
//! winding), the quad rule, and `n - 2` triangles over every corner for anything else, quickly.

use std::collections::HashMap;
use std::f64::consts::TAU;
use std::time::{Duration, Instant};

use levelkit::scene::triangulate::{newell_normal, triangulate, triangulate_into};
use proptest::collection::vec;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Checks

/// Doubled signed area of a 2D triangle.
fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// Signed area of a 2D polygon (positive when counter-clockwise).
fn polygon_area(poly: &[[f64; 2]]) -> f64 {
    let next = poly.iter().cycle().skip(1);
    poly.iter()
        .zip(next)
        .map(|(a, b)| a[0] * b[1] - b[0] * a[1])
        .sum::<f64>()
        / 2.0
}

fn corner(poly: &[[f64; 2]], i: u32) -> [f64; 2] {
    poly[i as usize]
}

/// What holds for every input: `n - 2` triangles of three different in-range corners, every
/// corner used, and the triangles form a combinatorial triangulation of the polygon: their
/// directed edges cancel in pairs except for the polygon's own edges, each used once in its
/// direction.
fn check_combinatorial(n: usize, tris: &[[u32; 3]]) -> Result<(), String> {
    if n < 3 {
        return if tris.is_empty() {
            Ok(())
        } else {
            Err(format!("{n} points gave {} triangles", tris.len()))
        };
    }
    if tris.len() != n - 2 {
        return Err(format!(
            "{n} corners gave {} triangles, not {}",
            tris.len(),
            n - 2
        ));
    }
    let mut used = vec![false; n];
    // Signed count of each undirected edge: +1 for low -> high, -1 for high -> low.
    let mut chain: HashMap<(u32, u32), i64> = HashMap::new();
    let mut add = |a: u32, b: u32, sign: i64| {
        let (key, s) = if a < b {
            ((a, b), sign)
        } else {
            ((b, a), -sign)
        };
        *chain.entry(key).or_default() += s;
    };
    for t in tris {
        if t.iter().any(|&i| i as usize >= n) {
            return Err(format!("triangle {t:?} is out of range for {n} corners"));
        }
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            return Err(format!("triangle {t:?} repeats a corner"));
        }
        for k in 0..3 {
            used[t[k] as usize] = true;
            add(t[k], t[(k + 1) % 3], 1);
        }
    }
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(format!("corner {i} is not used"));
    }
    for i in 0..n {
        add(i as u32, ((i + 1) % n) as u32, -1);
    }
    match chain.iter().find(|(_, c)| **c != 0) {
        Some((edge, c)) => Err(format!("edge {edge:?} is left over {c} times")),
        None => Ok(()),
    }
}

/// What holds for a simple polygon, measured in its own 2D frame: no triangle is inverted
/// (against the polygon's winding, beyond rounding), the absolute areas add up to the polygon's
/// area, and (for up to `pairwise_max` corners) no two triangles overlap.
///
/// Why this proves an exact cover without overlaps: [`check_combinatorial`] shows the
/// triangles' boundaries add up to the polygon's boundary, so at almost every point of the
/// plane the sum of the triangles' winding numbers equals the polygon's: 1 inside a simple
/// polygon, 0 outside. No triangle is inverted, so every term is 0 or 1 there, which leaves room
/// for neither overlaps nor gaps nor triangles outside. The area sum then checks the same in
/// aggregate, including that the inverted slivers allowed by the tolerance are negligible, and
/// the pairwise separating-axis test checks non-overlap directly, independently of the argument.
fn check_cover(poly: &[[f64; 2]], tris: &[[u32; 3]], pairwise_max: usize) -> Result<(), String> {
    let area = polygon_area(poly);
    let sign = area.signum();
    let tol = 1e-9 * area.abs();
    let mut sum = 0.0;
    for t in tris {
        let [a, b, c] = t.map(|i| corner(poly, i));
        let signed = orient(a, b, c) / 2.0 * sign;
        if signed < -tol {
            return Err(format!(
                "triangle {t:?} is inverted: area {signed} of {area}"
            ));
        }
        sum += signed.abs();
    }
    if (sum - area.abs()).abs() > tol {
        return Err(format!(
            "triangle areas add up to {sum}, the polygon's is {area}"
        ));
    }
    if poly.len() <= pairwise_max {
        check_no_overlap(poly, tris, sign)?;
    }
    Ok(())
}

/// No two triangles share interior: for every pair, some edge line of one has the other
/// entirely on its outer side (within tolerance). Degenerate triangles have no interior.
fn check_no_overlap(poly: &[[f64; 2]], tris: &[[u32; 3]], sign: f64) -> Result<(), String> {
    let (lo, hi) = poly.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    );
    let tol = 1e-9 * ((hi[0] - lo[0]).powi(2) + (hi[1] - lo[1]).powi(2));
    let pts: Vec<[[f64; 2]; 3]> = tris.iter().map(|t| t.map(|i| corner(poly, i))).collect();
    let separated = |t: &[[f64; 2]; 3], u: &[[f64; 2]; 3]| {
        (0..3).any(|k| {
            let (e0, e1) = (t[k], t[(k + 1) % 3]);
            u.iter().all(|&x| sign * orient(e0, e1, x) <= tol)
        })
    };
    for (i, t) in pts.iter().enumerate() {
        if (orient(t[0], t[1], t[2]) * sign) <= tol {
            continue;
        }
        for (j, u) in pts.iter().enumerate().skip(i + 1) {
            if (orient(u[0], u[1], u[2]) * sign) <= tol {
                continue;
            }
            if !separated(t, u) && !separated(u, t) {
                return Err(format!("triangles {:?} and {:?} overlap", tris[i], tris[j]));
            }
        }
    }
    Ok(())
}

fn check_all(poly: &[[f64; 2]], tris: &[[u32; 3]]) -> Result<(), String> {
    check_combinatorial(poly.len(), tris)?;
    check_cover(poly, tris, 64)
}

// ---------------------------------------------------------------------------------------------
// Embedding 2D polygons in 3D

/// A plane in space: `origin + scale * (x * u + y * v)` with `u`, `v` orthonormal.
#[derive(Debug, Clone, Copy)]
struct Plane {
    origin: [f64; 3],
    u: [f64; 3],
    v: [f64; 3],
    scale: f64,
}

impl Plane {
    const XY: Plane = Plane {
        origin: [0.0; 3],
        u: [1.0, 0.0, 0.0],
        v: [0.0, 1.0, 0.0],
        scale: 1.0,
    };

    /// From a (not necessarily unit) quaternion, an offset and a scale.
    fn new(q: [f64; 4], offset: [f64; 3], scale: f64) -> Plane {
        let len = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        let [x, y, z, w] = if len < 0.1 {
            [0.0, 0.0, 0.0, 1.0]
        } else {
            q.map(|c| c / len)
        };
        Plane {
            origin: offset.map(|o| o * scale),
            u: [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + w * z),
                2.0 * (x * z - w * y),
            ],
            v: [
                2.0 * (x * y - w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + w * x),
            ],
            scale,
        }
    }

    fn embed(&self, poly: &[[f64; 2]]) -> Vec<[f64; 3]> {
        poly.iter()
            .map(|p| {
                let (x, y) = (p[0] * self.scale, p[1] * self.scale);
                [0, 1, 2].map(|k| self.origin[k] + x * self.u[k] + y * self.v[k])
            })
            .collect()
    }

    fn normal(&self) -> [f64; 3] {
        cross3(self.u, self.v)
    }
}

fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn tri_normal(points: &[[f64; 3]], t: [u32; 3]) -> [f64; 3] {
    let [a, b, c] = t.map(|i| points[i as usize]);
    cross3(
        [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
    )
}

// ---------------------------------------------------------------------------------------------
// Random simple polygons

/// Corners at jittered, increasing angles around the origin (every gap under half a turn, so
/// each edge stays in its own sector and the polygon is simple and star-shaped), at radii that
/// are all 1 (convex), close to 1, or anything from 0.05 to 1 (deeply concave).
fn star() -> impl Strategy<Value = Vec<[f64; 2]>> {
    (3usize..48)
        .prop_flat_map(|n| {
            (
                vec(0.0f64..0.45, n),
                prop_oneof![Just(0), Just(1), Just(2)],
                vec(0.0f64..1.0, n),
                0.0f64..TAU,
            )
        })
        .prop_map(|(jitter, mode, radii, phase)| {
            let n = jitter.len() as f64;
            jitter
                .iter()
                .zip(&radii)
                .enumerate()
                .map(|(i, (j, r))| {
                    let t = phase + TAU * (i as f64 + j) / n;
                    let r = match mode {
                        0 => 1.0,
                        1 => 0.9 + 0.1 * r,
                        _ => 0.05 + 0.95 * r,
                    };
                    [r * t.cos(), r * t.sin()]
                })
                .collect()
        })
}

/// An x-monotone zigzag: a lower chain from x = 0 to 1 below the axis and an upper chain back
/// above it, joined by vertical edges, so simple but not star-shaped, with runs of reflex corners.
fn monotone() -> impl Strategy<Value = Vec<[f64; 2]>> {
    let chain = |sign: f64| {
        (1usize..24)
            .prop_flat_map(|k| (vec(0.05f64..1.0, k), vec(0.01f64..1.0, k + 1)))
            .prop_map(move |(gaps, ys)| {
                let total: f64 = gaps.iter().sum::<f64>() + 0.05;
                let mut x = 0.0;
                let mut xs = vec![0.0];
                for g in &gaps {
                    x += g / total;
                    xs.push(x);
                }
                *xs.last_mut().unwrap() = 1.0;
                xs.into_iter()
                    .zip(ys)
                    .map(|(x, y)| [x, sign * y])
                    .collect::<Vec<_>>()
            })
    };
    (chain(-1.0), chain(1.0)).prop_map(|(lower, upper)| {
        let mut poly = lower;
        poly.extend(upper.into_iter().rev());
        poly
    })
}

/// A simple polygon with collinear points on random edges (midpoints or anywhere along them)
/// and a few corners repeated in place.
#[derive(Debug, Clone)]
struct SimpleCase {
    poly: Vec<[f64; 2]>,
    plane: Plane,
}

fn simple_case() -> impl Strategy<Value = SimpleCase> {
    (
        prop_oneof![star(), monotone()],
        vec((0.0f64..1.0, prop_oneof![Just(0.5), 0.05f64..0.95]), 0..10),
        vec(0.0f64..1.0, 0..4),
        any::<bool>(),
        (vec(-1.0f64..1.0, 4), vec(-50.0f64..50.0, 3), -2.0f64..3.0),
    )
        .prop_map(|(base, inserts, dups, reverse, (q, offset, log_scale))| {
            let n = base.len();
            let mut poly = Vec::new();
            for (i, &p) in base.iter().enumerate() {
                poly.push(p);
                let next = base[(i + 1) % n];
                let mut here: Vec<f64> = inserts
                    .iter()
                    .filter(|(e, _)| (e * n as f64) as usize == i)
                    .map(|&(_, t)| t)
                    .collect();
                here.sort_by(f64::total_cmp);
                for t in here {
                    poly.push([p[0] + (next[0] - p[0]) * t, p[1] + (next[1] - p[1]) * t]);
                }
            }
            let mut at: Vec<usize> = dups
                .iter()
                .map(|d| (d * poly.len() as f64) as usize)
                .collect();
            at.sort_unstable_by(|a, b| b.cmp(a));
            for i in at {
                poly.insert(i, poly[i]);
            }
            if reverse {
                poly.reverse();
            }
            SimpleCase {
                poly,
                plane: Plane::new(
                    [q[0], q[1], q[2], q[3]],
                    [offset[0], offset[1], offset[2]],
                    10f64.powf(log_scale),
                ),
            }
        })
}

/// Anything: points in space, points in a plane in any order, points from a tiny grid
/// (repeats and collinear runs galore), occasionally not finite.
fn any_points() -> impl Strategy<Value = Vec<[f64; 3]>> {
    let coord = || {
        prop_oneof![
            8 => -10.0f64..10.0,
            3 => (0u8..3).prop_map(f64::from),
            1 => prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(1e300), Just(-0.0)],
        ]
    };
    let grid = || (0u8..3).prop_map(f64::from);
    prop_oneof![
        vec(
            (coord(), coord(), coord()).prop_map(|(x, y, z)| [x, y, z]),
            0..90
        ),
        vec((coord(), coord()).prop_map(|(x, y)| [x, y, 0.0]), 0..90),
        vec((grid(), grid()).prop_map(|(x, y)| [x, 1.0, y]), 0..90),
    ]
}

/// `PROPTEST_CASES` if set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    // 1024 cases each (about a quarter of a second); `PROPTEST_CASES` overrides, for soaking.
    #![proptest_config(ProptestConfig { cases: cases(1024), ..ProptestConfig::default() })]

    /// Simple polygons in any plane, either winding, with collinear and repeated points: an
    /// exact cover by `n - 2` triangles that follow the polygon's winding.
    #[test]
    fn simple_polygons_are_covered_exactly(case in simple_case()) {
        let points = case.plane.embed(&case.poly);
        let tris = triangulate(&points);
        check_all(&case.poly, &tris).map_err(TestCaseError::fail)?;
        // The triangles face the way the polygon does in space, too.
        let front = newell_normal(&points);
        let side = dot3(front, case.plane.normal()).signum();
        let area2 = 2.0 * polygon_area(&case.poly).abs() * case.plane.scale.powi(2);
        prop_assert!((dot3(front, case.plane.normal()).abs() - area2).abs() <= 1e-6 * area2);
        for &t in &tris {
            let facing = dot3(tri_normal(&points, t), case.plane.normal()) * side;
            prop_assert!(facing >= -1e-8 * area2, "triangle {t:?} faces away: {facing}");
        }
    }

    /// Anything at all: `n - 2` triangles over every corner, forming a combinatorial
    /// triangulation; `triangulate_into` appends the same triangles and counts them.
    #[test]
    fn any_input_gives_n_minus_2_triangles(points in any_points()) {
        let tris = triangulate(&points);
        check_combinatorial(points.len(), &tris).map_err(TestCaseError::fail)?;
        let mut out = vec![[7, 7, 7]];
        let added = triangulate_into(&points, &mut out);
        prop_assert_eq!(added, tris.len());
        prop_assert_eq!(&out[..1], &[[7, 7, 7]]);
        prop_assert_eq!(&out[1..], &tris[..]);
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed cases

fn flat(poly: &[[f64; 2]]) -> Vec<[f64; 3]> {
    Plane::XY.embed(poly)
}

#[test]
fn triangle_is_kept() {
    let tri = flat(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
    assert_eq!(triangulate(&tri), vec![[0, 1, 2]]);
}

#[test]
fn fewer_than_three_points_give_nothing() {
    let mut out = vec![[1, 2, 3]];
    for n in 0..3 {
        let points = vec![[1.0, 2.0, 3.0]; n];
        assert!(triangulate(&points).is_empty());
        assert_eq!(triangulate_into(&points, &mut out), 0);
        assert_eq!(newell_normal(&points), [0.0; 3]);
    }
    assert_eq!(out, vec![[1, 2, 3]]);
}

#[test]
fn square_splits_along_0_2_on_a_tie() {
    let square = flat(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
    assert_eq!(triangulate(&square), vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn quad_splits_along_the_shorter_diagonal() {
    // A rhombus, long along x: 1-3 (vertical, 2 long) is shorter than 0-2 (6 long).
    let rhombus = [[-3.0, 0.0], [0.0, -1.0], [3.0, 0.0], [0.0, 1.0]];
    assert_eq!(triangulate(&flat(&rhombus)), vec![[0, 1, 3], [1, 2, 3]]);
    check_all(&rhombus, &triangulate(&flat(&rhombus))).unwrap();
    // The same rhombus starting one corner later: now 0-2 is the short one.
    let turned = [rhombus[1], rhombus[2], rhombus[3], rhombus[0]];
    assert_eq!(triangulate(&flat(&turned)), vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn dart_quad_avoids_its_outside_diagonal() {
    // An arrowhead pointing left, notched at (8, 0): the short diagonal 1-3 (length 2) runs
    // outside it, through the notch; only 0-2 (length 8) is inside.
    let dart = [[0.0, 0.0], [10.0, -1.0], [8.0, 0.0], [10.0, 1.0]];
    let tris = triangulate(&flat(&dart));
    assert_eq!(tris, vec![[0, 1, 2], [0, 2, 3]]);
    check_all(&dart, &tris).unwrap();
    // Starting at the lower barb puts the notch at corner 1: now the short 0-2 is outside.
    let turned = [dart[1], dart[2], dart[3], dart[0]];
    let tris = triangulate(&flat(&turned));
    assert_eq!(tris, vec![[0, 1, 3], [1, 2, 3]]);
    check_all(&turned, &tris).unwrap();
}

const L_SHAPE: [[f64; 2]; 6] = [
    [0.0, 0.0],
    [2.0, 0.0],
    [2.0, 1.0],
    [1.0, 1.0],
    [1.0, 2.0],
    [0.0, 2.0],
];

#[test]
fn concave_l_shape() {
    let tris = triangulate(&flat(&L_SHAPE));
    check_all(&L_SHAPE, &tris).unwrap();
    // Every triangle lies in the L: none reaches into the missing quarter (1..2, 1..2).
    for t in &tris {
        let [a, b, c] = t.map(|i| L_SHAPE[i as usize]);
        let centroid = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0];
        assert!(
            !(centroid[0] > 1.0 && centroid[1] > 1.0),
            "{t:?} is in the notch"
        );
        assert!(orient(a, b, c) > 0.0, "{t:?} is degenerate or inverted");
    }
}

#[test]
fn comb_and_spiral_are_covered_exactly() {
    // A comb: a spine along the bottom with 12 teeth up (many reflex corners in a row).
    let mut comb = vec![[0.0, 0.0], [24.0, 0.0]];
    for k in (0..12).rev() {
        let x = 2.0 * f64::from(k);
        comb.extend([[x + 2.0, 5.0], [x + 1.0, 5.0], [x + 1.0, 1.0], [x, 1.0]]);
    }
    check_all(&comb, &triangulate(&flat(&comb))).unwrap();

    // A thick spiral: out along one arm, back along the other.
    let turns = 3.0;
    let steps = 120;
    let arm = |r0: f64, i: usize| {
        let t = turns * TAU * i as f64 / steps as f64;
        let r = r0 + t / TAU;
        [r * t.cos(), r * t.sin()]
    };
    let mut spiral: Vec<[f64; 2]> = (0..=steps).map(|i| arm(1.0, i)).collect();
    spiral.extend((0..=steps).rev().map(|i| arm(1.6, i)));
    if polygon_area(&spiral) < 0.0 {
        spiral.reverse();
    }
    check_all(&spiral, &triangulate(&flat(&spiral))).unwrap();
}

#[test]
fn square_with_a_bridged_hole_is_covered_exactly() {
    // A 4x4 square with a 2x2 hole joined by a bridge traversed both ways: self-touching, as
    // polygons with holes come out of some editors. The corners at the bridge repeat.
    let poly = [
        [0.0, 0.0],
        [4.0, 0.0],
        [4.0, 4.0],
        [0.0, 4.0],
        [0.0, 2.0],
        [1.0, 2.0],
        [1.0, 3.0],
        [3.0, 3.0],
        [3.0, 1.0],
        [1.0, 1.0],
        [1.0, 2.0],
        [0.0, 2.0],
    ];
    let tris = triangulate(&flat(&poly));
    check_combinatorial(poly.len(), &tris).unwrap();
    assert!((polygon_area(&poly) - 12.0).abs() < 1e-12);
    check_cover(&poly, &tris, 64).unwrap();
}

#[test]
fn zero_area_polygons_still_give_n_minus_2() {
    // All on one line in space, going out and back with repeats.
    let along = |t: f64| [1.0 + t, 2.0 - 2.0 * t, 0.5 * t];
    for ts in [
        vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        vec![0.0, 3.0, 1.0, 4.0, 2.0, 2.0, 5.0, 0.0],
        vec![0.0, 1.0, 2.0, 1.0, 0.0, -1.0, -2.0, -1.0, 0.0, 0.5],
    ] {
        let points: Vec<[f64; 3]> = ts.iter().map(|&t| along(t)).collect();
        assert_eq!(newell_normal(&points), [0.0; 3]);
        let tris = triangulate(&points);
        check_combinatorial(points.len(), &tris).unwrap();
        for &t in &tris {
            let n = tri_normal(&points, t);
            assert!(dot3(n, n) < 1e-20, "{t:?} has area");
        }
    }
    // Every corner at the same place.
    let same = vec![[3.0, -1.0, 2.0]; 9];
    check_combinatorial(same.len(), &triangulate(&same)).unwrap();
}

#[test]
fn non_finite_points_do_not_panic() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX] {
        for n in 3..12 {
            let mut points = flat(
                &(0..n)
                    .map(|i| {
                        let t = TAU * f64::from(i) / f64::from(n);
                        [t.cos(), t.sin()]
                    })
                    .collect::<Vec<_>>(),
            );
            points[n as usize / 2][1] = bad;
            check_combinatorial(points.len(), &triangulate(&points)).unwrap();
        }
    }
}

#[test]
fn self_intersecting_polygons_give_n_minus_2() {
    // A pentagram, a bow tie, and a polygon wound twice around.
    let pentagram: Vec<[f64; 2]> = (0..5)
        .map(|i| {
            let t = TAU * f64::from(i * 2) / 5.0;
            [t.cos(), t.sin()]
        })
        .collect();
    let bow_tie = vec![[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [1.0, 1.2], [0.0, 2.0]];
    let twice: Vec<[f64; 2]> = (0..15)
        .map(|i| {
            let t = 2.0 * TAU * f64::from(i) / 15.0;
            [t.cos(), t.sin()]
        })
        .collect();
    for poly in [pentagram, bow_tie, twice] {
        let tris = triangulate(&flat(&poly));
        check_combinatorial(poly.len(), &tris).unwrap();
    }
}

#[test]
fn clockwise_input_follows_its_winding() {
    let mut cw = L_SHAPE.to_vec();
    cw.reverse();
    let points = flat(&cw);
    // Seen from +Z the corners run clockwise, so the polygon faces -Z ...
    assert_eq!(newell_normal(&points), [0.0, 0.0, -6.0]);
    let tris = triangulate(&points);
    check_all(&cw, &tris).unwrap();
    // ... and so does every triangle.
    for &t in &tris {
        let n = tri_normal(&points, t);
        assert!(
            n[2] < 0.0 && n[0] == 0.0 && n[1] == 0.0,
            "{t:?} faces {n:?}"
        );
    }
    // Quads too.
    let quad = flat(&[[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]);
    for t in triangulate(&quad) {
        assert!(tri_normal(&quad, t)[2] < 0.0);
    }
}

#[test]
fn any_plane_and_dominant_axis() {
    // The L-shape facing each way along each axis, far from the origin.
    let planes = [
        ([0.0, 0.0, 0.0, 1.0], "+z"),
        ([1.0, 0.0, 0.0, 0.0], "-z"),
        ([0.0, 1.0, 0.0, 1.0], "+x"),
        ([0.0, -1.0, 0.0, 1.0], "-x"),
        ([-1.0, 0.0, 0.0, 1.0], "+y"),
        ([1.0, 0.0, 0.0, 1.0], "-y"),
        ([0.3, -0.7, 0.2, 0.6], "oblique"),
    ];
    for (q, name) in planes {
        let plane = Plane::new(q, [1000.0, -2000.0, 500.0], 1.0);
        let points = plane.embed(&L_SHAPE);
        let tris = triangulate(&points);
        check_all(&L_SHAPE, &tris).unwrap_or_else(|e| panic!("{name}: {e}"));
        for &t in &tris {
            assert!(
                dot3(tri_normal(&points, t), plane.normal()) > 0.0,
                "{name}: {t:?}"
            );
        }
    }
}

#[test]
fn newell_normal_of_known_polygons() {
    let square = flat(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
    assert_eq!(newell_normal(&square), [0.0, 0.0, 2.0]);
    // Twice the area, pointing to the counter-clockwise side, wherever the polygon is.
    let plane = Plane::new([0.2, 0.4, -0.1, 0.9], [300.0, 40.0, -70.0], 2.0);
    let n = newell_normal(&plane.embed(&L_SHAPE));
    let expect = plane.normal().map(|c| c * 2.0 * 3.0 * 4.0);
    for k in 0..3 {
        assert!((n[k] - expect[k]).abs() < 1e-9, "{n:?} vs {expect:?}");
    }
    // A skew quad (not planar): the normal of its best plane, here +Z.
    let skew = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.1],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.1],
    ];
    assert_eq!(newell_normal(&skew), [0.0, 0.0, 2.0]);
}

fn time_it(what: &str, points: &[[f64; 3]]) -> Vec<[u32; 3]> {
    let start = Instant::now();
    let tris = triangulate(points);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(1), "{what} took {took:?}");
    eprintln!("{what}: {took:?}");
    tris
}

#[test]
fn large_star_is_fast() {
    let n = 2000;
    let star: Vec<[f64; 2]> = (0..n)
        .map(|i| {
            let t = TAU * f64::from(i) / f64::from(n);
            let r = if i % 2 == 0 {
                1.0
            } else {
                0.3 + 0.2 * (f64::from(i) * 0.37).sin()
            };
            [r * t.cos(), r * t.sin()]
        })
        .collect();
    let plane = Plane::new([0.1, 0.2, 0.3, 0.9], [5.0, 6.0, 7.0], 3.0);
    let tris = time_it("2000-gon star", &plane.embed(&star));
    check_combinatorial(star.len(), &tris).unwrap();
    check_cover(&star, &tris, 0).unwrap();
}

#[test]
fn large_self_intersecting_polygon_is_fast() {
    // 1000 scattered points in a plane, joined in random order: almost no proper ears.
    let mut rng = crate::common::Rng(0x2545_f491_4f6c_dd1d);
    let mut rand = move || (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    let poly: Vec<[f64; 2]> = (0..1000).map(|_| [rand(), rand()]).collect();
    let tris = time_it("1000 scattered points", &flat(&poly));
    check_combinatorial(poly.len(), &tris).unwrap();
}
