//! [`Mesh::corner_normals`]: one unit normal per face corner, smoothed across soft edges.

// Integer keys hashed in hot loops: FxHash, not SipHash (no untrusted-key DoS concern that
// outweighs the speed here: keys are indices bounded by the input).
use rustc_hash::FxHashSet as HashSet;

use super::model::Mesh;
use super::triangulate;
use super::vec3::unit;

impl Mesh {
    /// One normal per corner of every face (faces in order, corners in order): the corner's own
    /// normal where it has one; otherwise, for a flat mesh, the face normal; otherwise the
    /// area-weighted average of the normals of the faces around the position that can be
    /// reached without crossing a hard edge (Wings' rule: soft edges smooth, hard edges split).
    /// Degenerate faces get a normal from their neighbours, or +Y when they have none, so every
    /// normal is unit length (the glTF validator requires it).
    pub fn corner_normals(&self) -> Vec<[f32; 3]> {
        let mut pts: Vec<[f64; 3]> = Vec::new();
        let face_normals: Vec<[f64; 3]> = self
            .faces
            .iter()
            .map(|f| {
                pts.clear();
                pts.extend(f.corners.iter().map(|c| {
                    self.positions
                        .get(c.position as usize)
                        .copied()
                        .unwrap_or_default()
                }));
                triangulate::newell_normal(&pts)
            })
            .collect();
        // Around each position: the (face, corner) pairs; union the corners that share a soft
        // edge (the edge from the corner's position to its neighbour in either face).
        let total: usize = self.faces.iter().map(|f| f.corners.len()).sum();
        let mut dsu = Dsu::new(total);
        if !self.flat {
            self.union_soft(&mut dsu, total);
        }
        let mut sums = vec![[0.0f64; 3]; total];
        let mut base = 0usize;
        for (f, n) in self.faces.iter().zip(&face_normals) {
            for i in 0..f.corners.len() {
                let r = dsu.find(base + i);
                if let Some(s) = sums.get_mut(r) {
                    s[0] += n[0];
                    s[1] += n[1];
                    s[2] += n[2];
                }
            }
            base += f.corners.len();
        }
        let mut out = Vec::with_capacity(total);
        let mut base = 0usize;
        for (f, n) in self.faces.iter().zip(&face_normals) {
            for (i, c) in f.corners.iter().enumerate() {
                if let Some(own) = c.normal.and_then(|v| unit(v.map(f64::from))) {
                    out.push(own.map(|v| v as f32));
                    continue;
                }
                let r = dsu.find(base + i);
                let smooth = sums.get(r).copied().unwrap_or_default();
                let v = unit(smooth).or_else(|| unit(*n)).unwrap_or([0.0, 1.0, 0.0]);
                out.push(v.map(|x| x as f32));
            }
            base += f.corners.len();
        }
        out
    }

    /// Union, in `dsu`, the corners at one position that share a soft edge: an edge from the
    /// position to the same other position, in either face, not listed in `hard_edges`.
    /// The corners are grouped by position first (counting sort), and each position's
    /// (neighbour, corner) pairs sorted, so the work is linear in the corners whatever the
    /// mesh (a table of every edge end, grown as it went, was most of the time before).
    fn union_soft(&self, dsu: &mut Dsu, total: usize) {
        let hard: HashSet<(u32, u32)> = self
            .hard_edges
            .iter()
            .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
            .collect();
        // The corners of each position, positions in order: `at[first[p]..first[p + 1]]`.
        // A corner whose position is not in the mesh (an invalid mesh) joins no other.
        let count = self.positions.len();
        let mut first = vec![0u32; count + 1];
        for c in self.faces.iter().flat_map(|f| &f.corners) {
            if let Some(n) = first.get_mut(c.position as usize + 1) {
                *n += 1;
            }
        }
        for p in 1..first.len() {
            let before = first.get(p - 1).copied().unwrap_or(0);
            if let Some(n) = first.get_mut(p) {
                *n += before;
            }
        }
        // Each corner at its position, with its face's corner count and its place.
        let mut at = vec![(0u32, 0u32, 0u32); total];
        let mut fill = first.clone();
        let mut base = 0u32;
        for f in &self.faces {
            let k = u32::try_from(f.corners.len()).unwrap_or(u32::MAX);
            for (i, c) in (0u32..).zip(&f.corners) {
                if let Some(slot) = fill.get_mut(c.position as usize)
                    && let Some(entry) = at.get_mut(*slot as usize)
                {
                    *entry = (base + i, base, k);
                    *slot += 1;
                }
            }
            base = base.saturating_add(k);
        }
        let corners: Vec<u32> = self
            .faces
            .iter()
            .flat_map(|f| f.corners.iter().map(|c| c.position))
            .collect();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for p in 0..count {
            let (Some(&from), Some(&to)) = (first.get(p), first.get(p + 1)) else {
                continue;
            };
            let Some(group) = at.get(from as usize..to as usize) else {
                continue;
            };
            if group.len() < 2 {
                continue;
            }
            let p = p as u32;
            pairs.clear();
            for &(corner, face_base, k) in group {
                let i = corner - face_base;
                let next = corners.get((face_base + (i + 1) % k) as usize).copied();
                let prev = corners.get((face_base + (i + k - 1) % k) as usize).copied();
                for other in [next, prev].into_iter().flatten() {
                    if other == p
                        || (!hard.is_empty() && hard.contains(&(p.min(other), p.max(other))))
                    {
                        continue;
                    }
                    pairs.push((other, corner));
                }
            }
            pairs.sort_unstable();
            for w in pairs.windows(2) {
                if let [(a, x), (b, y)] = *w
                    && a == b
                {
                    dsu.union(x as usize, y as usize);
                }
            }
        }
    }
}

/// Union-find over corner indices.
struct Dsu {
    parent: Vec<usize>,
}

impl Dsu {
    fn new(n: usize) -> Dsu {
        Dsu {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let gp = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = gp;
            }
            x = p;
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb
            && let Some(slot) = self.parent.get_mut(ra)
        {
            *slot = rb;
        }
    }
}
