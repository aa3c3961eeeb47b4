//! [`Mesh::corner_normals`]: one unit normal per face corner, smoothed across soft edges.

// Integer keys hashed in hot loops: FxHash, not SipHash (no untrusted-key DoS concern that
// outweighs the speed here: keys are indices bounded by the input).
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

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
        let face_normals: Vec<[f64; 3]> = self
            .faces
            .iter()
            .map(|f| {
                let pts: Vec<[f64; 3]> = f
                    .corners
                    .iter()
                    .map(|c| {
                        self.positions
                            .get(c.position as usize)
                            .copied()
                            .unwrap_or_default()
                    })
                    .collect();
                triangulate::newell_normal(&pts)
            })
            .collect();
        // Around each position: the (face, corner) pairs; union the corners that share a soft
        // edge (the edge from the corner's position to its neighbour in either face).
        let total: usize = self.faces.iter().map(|f| f.corners.len()).sum();
        let mut dsu = Dsu::new(total);
        let hard: HashSet<(u32, u32)> = self
            .hard_edges
            .iter()
            .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
            .collect();
        if !self.flat {
            // (edge key) -> first corner seen at each end, per direction.
            let mut first: HashMap<(u32, u32, u32), usize> = HashMap::default();
            let mut base = 0usize;
            for f in &self.faces {
                let k = f.corners.len();
                for (i, c) in f.corners.iter().enumerate() {
                    let next = f
                        .corners
                        .get((i + 1) % k)
                        .map_or(c.position, |n| n.position);
                    let prev = f
                        .corners
                        .get((i + k - 1) % k)
                        .map_or(c.position, |n| n.position);
                    for other in [next, prev] {
                        let key = (c.position.min(other), c.position.max(other));
                        if other == c.position || hard.contains(&key) {
                            continue;
                        }
                        // Corners at position `c.position` on either side of edge `key`.
                        match first.entry((key.0, key.1, c.position)) {
                            std::collections::hash_map::Entry::Occupied(o) => {
                                dsu.union(*o.get(), base + i)
                            }
                            std::collections::hash_map::Entry::Vacant(v) => {
                                v.insert(base + i);
                            }
                        }
                    }
                }
                base += k;
            }
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
