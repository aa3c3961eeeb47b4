//! Mesh topology the 3D conversions share: welding positions along the seams a glTF opens,
//! polygon sides grouped by vertex, the manifold check and the boundary loops that close an open
//! surface. Pure functions of vertex ids and positions; no format knows of them.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::Mesh;

/// Vertex ids for a mesh's positions: positions stay apart unless they close a seam. A glTF
/// splits a vertex wherever its UV or normal differs, which opens the surface along seams; each
/// boundary edge `a -> b` is paired with a boundary edge `c -> d` running the other way between
/// the same two points (`c` at `b`, `d` at `a`) and their ends are welded. Positions that merely
/// coincide (degenerate faces, touching parts) stay distinct vertices, as in the source.
/// Returns the vertex of each position and the vertices' positions.
pub(crate) fn edge_weld(world: &[[f64; 3]], mesh: &Mesh) -> (Vec<u32>, Vec<[f64; 3]>) {
    let n = world.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while let Some(&p) = parent.get(x as usize) {
            if p == x {
                break;
            }
            let gp = parent.get(p as usize).copied().unwrap_or(p);
            if let Some(slot) = parent.get_mut(x as usize) {
                *slot = gp;
            }
            x = p;
        }
        x
    }
    let key = |i: u32| -> [u64; 3] {
        world
            .get(i as usize)
            .copied()
            .unwrap_or_default()
            .map(|v| if v == 0.0 { 0 } else { v.to_bits() })
    };
    let mut directed: HashSet<(u32, u32)> = HashSet::default();
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for f in &mesh.faces {
        let k = f.corners.len();
        for i in 0..k {
            let (Some(a), Some(b)) = (f.corners.get(i), f.corners.get((i + 1) % k)) else {
                continue;
            };
            if a.position != b.position && (a.position as usize) < n && (b.position as usize) < n {
                directed.insert((a.position, b.position));
                edges.push((a.position, b.position));
            }
        }
    }
    // Boundary edges by the positions of their ends.
    type Ends = ([u64; 3], [u64; 3]);
    let mut open: HashMap<Ends, Vec<(u32, u32)>> = HashMap::default();
    let boundary: Vec<(u32, u32)> = edges
        .into_iter()
        .filter(|(a, b)| !directed.contains(&(*b, *a)))
        .collect();
    for &(a, b) in &boundary {
        open.entry((key(a), key(b))).or_default().push((a, b));
    }
    let mut matched: HashSet<(u32, u32)> = HashSet::default();
    for &(a, b) in &boundary {
        if matched.contains(&(a, b)) {
            continue;
        }
        let Some(candidates) = open.get_mut(&(key(b), key(a))) else {
            continue;
        };
        let Some(pos) = candidates
            .iter()
            .position(|&(c, d)| (c, d) != (a, b) && !matched.contains(&(c, d)))
        else {
            continue;
        };
        let (c, d) = candidates.swap_remove(pos);
        matched.insert((a, b));
        matched.insert((c, d));
        for (x, y) in [(a, d), (b, c)] {
            let (rx, ry) = (find(&mut parent, x), find(&mut parent, y));
            if rx != ry
                && let Some(slot) = parent.get_mut(rx.max(ry) as usize)
            {
                *slot = rx.min(ry);
            }
        }
    }
    let mut ids = vec![u32::MAX; n];
    let mut positions = Vec::new();
    let mut weld = Vec::with_capacity(n);
    for i in 0..n as u32 {
        let r = find(&mut parent, i);
        let id = match ids.get(r as usize).copied() {
            Some(id) if id != u32::MAX => id,
            _ => {
                let id = positions.len() as u32;
                positions.push(world.get(r as usize).copied().unwrap_or_default());
                if let Some(slot) = ids.get_mut(r as usize) {
                    *slot = id;
                }
                id
            }
        };
        weld.push(id);
    }
    (weld, positions)
}

/// Values grouped by a dense vertex index (compressed rows), each group sorted: lookups by
/// vertex without hashing, in time logarithmic in the size of the vertex's group.
pub(crate) struct Rows<T> {
    /// The values of vertex `v` are `values[start[v]..start[v + 1]]`.
    start: Vec<usize>,
    values: Vec<T>,
}

impl<T: Copy + Ord + Default> Rows<T> {
    /// Group `entries` (vertex, value) for vertices below `vertices` (others are left out).
    pub(crate) fn new(vertices: usize, entries: impl Iterator<Item = (u32, T)> + Clone) -> Rows<T> {
        let mut start = vec![0usize; vertices + 1];
        for (v, _) in entries.clone() {
            if let Some(s) = start
                .get_mut(v as usize + 1)
                .filter(|_| (v as usize) < vertices)
            {
                *s += 1;
            }
        }
        let mut total = 0usize;
        for s in &mut start {
            total += *s;
            *s = total;
        }
        // Next free slot of each vertex's group.
        let mut next = start.clone();
        let mut values = vec![T::default(); total];
        for (v, value) in entries {
            if let Some(n) = next.get_mut(v as usize).filter(|_| (v as usize) < vertices)
                && let Some(slot) = values.get_mut(*n)
            {
                *slot = value;
                *n += 1;
            }
        }
        for w in start.windows(2) {
            if let [s, e] = *w
                && let Some(group) = values.get_mut(s..e)
            {
                group.sort_unstable();
            }
        }
        Rows { start, values }
    }

    /// The values of vertex `v`, sorted (empty for a vertex out of range).
    pub(crate) fn row(&self, v: u32) -> &[T] {
        let v = v as usize;
        match (self.start.get(v), self.start.get(v + 1)) {
            (Some(&s), Some(&e)) => self.values.get(s..e).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The number of vertices.
    pub(crate) fn vertices(&self) -> usize {
        self.start.len().saturating_sub(1)
    }
}

/// Every directed side `a -> b` of the polygons (each given by its vertex ids), as
/// `(b, polygon)` in the row of `a`.
pub(crate) fn directed_sides<P: AsRef<[u32]>>(polygons: &[P]) -> Rows<(u32, u32)> {
    let vertices = polygons
        .iter()
        .flat_map(|p| p.as_ref())
        .max()
        .map_or(0, |&v| v as usize + 1);
    Rows::new(
        vertices,
        polygons.iter().enumerate().flat_map(|(fi, p)| {
            let p = p.as_ref();
            let next = p.iter().cycle().skip(1);
            p.iter().zip(next).map(move |(&a, &b)| (a, (b, fi as u32)))
        }),
    )
}

/// How often `a -> b` is a polygon side.
pub(crate) fn side_uses(sides: &Rows<(u32, u32)>, a: u32, b: u32) -> usize {
    let row = sides.row(a);
    row.partition_point(|&(e, _)| e <= b) - row.partition_point(|&(e, _)| e < b)
}

/// Each directed vertex pair that is a polygon side, once, by its start then its end: `(a, b,
/// how often it is a side, the first polygon using it)`.
pub(crate) fn distinct_sides(
    sides: &Rows<(u32, u32)>,
) -> impl Iterator<Item = (u32, u32, usize, u32)> + '_ {
    (0..sides.vertices() as u32).flat_map(move |a| {
        sides
            .row(a)
            .chunk_by(|x, y| x.0 == y.0)
            .filter_map(move |run| run.first().map(|&(b, fi)| (a, b, run.len(), fi)))
    })
}

/// A vertex pair where more than two polygons meet unevenly: the side `a -> b` is used `count`
/// times (first by polygon `polygon`) and `b -> a` only `back` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NonManifold {
    /// The side's start vertex.
    pub a: u32,
    /// The side's end vertex.
    pub b: u32,
    /// How often `a -> b` is a polygon side.
    pub count: usize,
    /// How often `b -> a` is.
    pub back: usize,
    /// The first polygon using `a -> b`.
    pub polygon: u32,
}

/// The first vertex pair where more than two polygons meet unevenly (an edge used twice in one
/// direction and not twice in the other), if any. Pairs used equally often both ways are
/// parallel edges, which a winged-edge mesh allows.
pub(crate) fn non_manifold(sides: &Rows<(u32, u32)>) -> Option<NonManifold> {
    distinct_sides(sides).find_map(|(a, b, count, polygon)| {
        let back = side_uses(sides, b, a);
        (count > 1 && back != count).then_some(NonManifold {
            a,
            b,
            count,
            back,
            polygon,
        })
    })
}

/// The boundary loops of a set of polygons (given by their [`directed_sides`]), each as a hole
/// polygon running against its boundary (so that every boundary edge gets its second face).
pub(crate) fn hole_loops(sides: &Rows<(u32, u32)>) -> Vec<Vec<u32>> {
    // Hole half-edges b -> a for each unmatched use of a -> b, sorted (a stable order).
    let mut boundary: Vec<(u32, u32)> = Vec::new();
    for (a, b, count, _) in distinct_sides(sides) {
        let back = side_uses(sides, b, a);
        for _ in back..count {
            boundary.push((b, a));
        }
    }
    if boundary.is_empty() {
        return Vec::new();
    }
    boundary.sort_unstable();
    // Per start vertex, the part of `boundary` not yet taken; taken from its end (the highest
    // end vertex first).
    let mut open: Vec<(usize, usize)> = vec![(0, 0); sides.vertices()];
    for (i, &(s, _)) in boundary.iter().enumerate() {
        if let Some(r) = open.get_mut(s as usize) {
            if r.1 == r.0 {
                r.0 = i;
            }
            r.1 = i + 1;
        }
    }
    let mut take = |s: u32| -> Option<u32> {
        let r = open.get_mut(s as usize).filter(|r| r.1 > r.0)?;
        r.1 -= 1;
        boundary.get(r.1).map(|&(_, e)| e)
    };
    let mut loops = Vec::new();
    for &(s, _) in &boundary {
        while let Some(first) = take(s) {
            let mut poly = vec![s];
            let mut at = first;
            let mut guard = boundary.len() + 1;
            while at != s && guard > 0 {
                poly.push(at);
                match take(at) {
                    Some(next) => at = next,
                    None => break,
                }
                guard -= 1;
            }
            if at == s && poly.len() >= 3 {
                loops.push(poly);
            }
        }
    }
    loops
}
