//! Winged-edge access: the face walk (notes §8.1) and building a winged-edge mesh from polygons.

use rustc_hash::FxHashMap as HashMap;

use super::model::*;
use crate::error::{Error, Location, Result};
use crate::etf::Term;
use crate::registry::Format;

/// One corner of a face, as the face walk gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// The vertex.
    pub vertex: u32,
    /// The edge that stores this corner's attributes.
    pub edge: u32,
    /// The corner's UV, if the edge has one for this side.
    pub uv: Option<[f64; 2]>,
    /// The corner's colour, if the edge has one for this side.
    pub color: Option<[f32; 3]>,
}

/// A polygon for [`Winged::from_polygons`]: vertex indices counter-clockwise seen from outside,
/// with optional per-corner UVs and colours and a material.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Polygon {
    /// Vertex indices, counter-clockwise.
    pub vertices: Vec<u32>,
    /// One UV per corner, or none.
    pub uvs: Option<Vec<[f64; 2]>>,
    /// One colour per corner, or none.
    pub colors: Option<Vec<[f32; 3]>>,
    /// The material name; `None` for `default`.
    pub material: Option<String>,
}

impl AsRef<[u32]> for Polygon {
    /// The vertex ids (for the shared topology helpers of [`crate::scene`]).
    fn as_ref(&self) -> &[u32] {
        &self.vertices
    }
}

impl Winged {
    /// The `{edge, …}` record of each edge (`None` where it is missing).
    pub fn records(&self) -> Vec<Option<&EdgeRecord>> {
        self.edges.iter().map(Edge::record).collect()
    }

    /// For each face, the lowest-numbered edge that has it on either side.
    pub fn face_edges(&self) -> Vec<Option<u32>> {
        let mut out = vec![None; self.faces.len()];
        for (i, e) in self.edges.iter().enumerate().rev() {
            if let Some(r) = e.record() {
                for f in [r.lf, r.rf] {
                    if let Some(slot) = out.get_mut(f as usize) {
                        *slot = Some(i as u32);
                    }
                }
            }
        }
        out
    }

    /// For each vertex, the lowest-numbered edge that starts or ends there.
    pub fn vertex_edges(&self) -> Vec<Option<u32>> {
        let mut out = vec![None; self.vertices.len()];
        for (i, e) in self.edges.iter().enumerate().rev() {
            if let Some(r) = e.record() {
                for v in [r.vs, r.ve] {
                    if let Some(slot) = out.get_mut(v as usize) {
                        *slot = Some(i as u32);
                    }
                }
            }
        }
        out
    }

    /// Walk face `face` from edge `start` as Wings does (`wings_face:vertices_ccw/2` reversed):
    /// at an edge whose left face is `face` emit its start vertex with the `_lt` attributes and
    /// follow `ltsu`, otherwise emit its end vertex with the `_rt` attributes and follow `rtsu`,
    /// until back at `start`. The result is clockwise seen from outside. The walk stops with an
    /// error after as many steps as there are edges, so a broken chain cannot loop forever.
    pub fn walk_cw(&self, face: u32, start: u32) -> std::result::Result<Vec<Corner>, String> {
        self.walk_cw_limited(face, start, self.edges.len())
    }

    /// [`Winged::walk_cw`], stopping with an error after `limit` steps.
    pub fn walk_cw_limited(
        &self,
        face: u32,
        start: u32,
        limit: usize,
    ) -> std::result::Result<Vec<Corner>, String> {
        let mut corners = Vec::new();
        let mut current = start;
        loop {
            if corners.len() >= limit {
                return Err(format!(
                    "the loop of face {face} does not return to edge {start} within {limit} \
                     steps"
                ));
            }
            let edge = self.edges.get(current as usize).ok_or_else(|| {
                format!("face {face}: the loop reaches edge {current}, which does not exist")
            })?;
            let r = edge
                .record()
                .ok_or_else(|| format!("face {face}: edge {current} has no {{edge, …}} record"))?;
            let next = if r.lf == face {
                corners.push(Corner {
                    vertex: r.vs,
                    edge: current,
                    uv: edge.uv_lt(),
                    color: edge.color_lt(),
                });
                r.ltsu
            } else if r.rf == face {
                corners.push(Corner {
                    vertex: r.ve,
                    edge: current,
                    uv: edge.uv_rt(),
                    color: edge.color_rt(),
                });
                r.rtsu
            } else {
                return Err(format!(
                    "face {face}: the loop reaches edge {current}, which borders faces {} and {}",
                    r.lf, r.rf
                ));
            };
            current = next;
            if current == start {
                return Ok(corners);
            }
        }
    }

    /// Face `face`'s corners counter-clockwise seen from outside (OpenGL front faces).
    pub fn face_ccw(&self, face: u32) -> std::result::Result<Vec<Corner>, String> {
        let start = self
            .face_edges()
            .get(face as usize)
            .copied()
            .flatten()
            .ok_or_else(|| format!("face {face} has no edge"))?;
        self.face_ccw_from(face, start, self.edges.len())
    }

    fn face_ccw_from(
        &self,
        face: u32,
        start: u32,
        limit: usize,
    ) -> std::result::Result<Vec<Corner>, String> {
        let mut corners = self.walk_cw_limited(face, start, limit)?;
        corners.reverse();
        Ok(corners)
    }

    /// Every face's corners counter-clockwise, or why its walk failed. A face's walk may take
    /// as many steps as there are edge sides naming the face (the length of a correct loop), so
    /// all walks together take at most twice as many steps as there are edges.
    pub fn faces_ccw(&self) -> Vec<std::result::Result<Vec<Corner>, String>> {
        let sides = super::validate::side_counts(self);
        self.face_edges()
            .iter()
            .enumerate()
            .map(|(f, start)| match start {
                Some(e) => {
                    let limit = sides.get(f).copied().unwrap_or(0);
                    self.face_ccw_from(f as u32, *e, limit)
                }
                None => Err(format!("face {f} has no edge")),
            })
            .collect()
    }

    /// Vertex positions (`None` where a vertex has no valid 24-byte position).
    pub fn positions(&self) -> Vec<Option<[f64; 3]>> {
        self.vertices.iter().map(Vertex::position).collect()
    }

    /// Build a closed winged-edge mesh from counter-clockwise polygons, numbered and attributed
    /// as Wings saves one: edges in order of first use, each edge's list
    /// `[color_rt, color_lt, uv_rt, uv_lt, edge]` with only the attributes present.
    ///
    /// Every edge must be shared by exactly two polygons that run along it in opposite
    /// directions (a closed, consistently oriented surface), and every vertex must be used.
    pub fn from_polygons(positions: &[[f64; 3]], polygons: &[Polygon]) -> Result<Winged> {
        let err = |msg: String| Error::malformed(Format::Wings, Location::default(), msg);
        struct Half {
            lf: Option<(u32, u32, u32)>, // face, CW predecessor, CW successor
            rf: Option<(u32, u32, u32)>,
        }
        // Edges between the same two vertices may be several (Wings allows parallel edges,
        // e.g. around a two-sided face): each directed use takes an edge of its vertex pair
        // whose side for that direction is free, or starts a new one, numbered in order of
        // first use as Wings numbers them. The first edge of each vertex pair is found by the
        // pair; its parallel edges follow it in order through `parallel`.
        let total_sides: usize = polygons.iter().map(|p| p.vertices.len()).sum();
        let pair = |a: u32, b: u32| (u64::from(a.min(b)) << 32) | u64::from(a.max(b));
        let mut first_edge: HashMap<u64, u32> =
            HashMap::with_capacity_and_hasher(total_sides / 2 + 1, Default::default());
        let mut parallel: Vec<Option<u32>> = Vec::with_capacity(total_sides / 2 + 1);
        let mut ends: Vec<(u32, u32)> = Vec::with_capacity(total_sides / 2 + 1);
        let mut taken: Vec<[bool; 2]> = Vec::with_capacity(total_sides / 2 + 1);
        // Per polygon side v_i -> v_{i+1}, polygon after polygon: its edge, and whether it runs
        // from the edge's start to its end (the left side). Polygon `fi`'s sides start at
        // `first_side[fi]`.
        let mut assign: Vec<(u32, bool)> = Vec::with_capacity(total_sides);
        let mut first_side: Vec<usize> = Vec::with_capacity(polygons.len());
        for (fi, p) in polygons.iter().enumerate() {
            let n = p.vertices.len();
            if n < 3 {
                return Err(err(format!(
                    "polygon {fi} has {n} corners; at least 3 are needed"
                )));
            }
            first_side.push(assign.len());
            for (i, &a) in p.vertices.iter().enumerate() {
                let b = p.vertices.get((i + 1) % n).copied().unwrap_or(a);
                if a as usize >= positions.len() || a == b {
                    return Err(err(format!("polygon {fi} has a bad corner {a}")));
                }
                let free = |id: u32| {
                    let forward = ends.get(id as usize).is_some_and(|&(s, _)| s == a);
                    taken
                        .get(id as usize)
                        .is_some_and(|t| t.get(usize::from(!forward)) == Some(&false))
                };
                // The pair's edges in order: the first with a free side, else the last one.
                let mut found = None;
                let mut last = None;
                let mut at = first_edge.get(&pair(a, b)).copied();
                while let Some(id) = at {
                    if free(id) {
                        found = Some(id);
                        break;
                    }
                    last = Some(id);
                    at = parallel.get(id as usize).copied().flatten();
                }
                let id = match found {
                    Some(id) => id,
                    None => {
                        let id = ends.len() as u32;
                        ends.push((a, b));
                        taken.push([false; 2]);
                        parallel.push(None);
                        match last.and_then(|l| parallel.get_mut(l as usize)) {
                            Some(link) => *link = Some(id),
                            None => {
                                first_edge.insert(pair(a, b), id);
                            }
                        }
                        id
                    }
                };
                let forward = ends.get(id as usize).is_some_and(|&(s, _)| s == a);
                if let Some(t) = taken.get_mut(id as usize) {
                    if let Some(side) = t.get_mut(usize::from(!forward)) {
                        *side = true;
                    }
                }
                assign.push((id, forward));
            }
        }
        let mut halves: Vec<Half> = ends.iter().map(|_| Half { lf: None, rf: None }).collect();
        let mut uv_attr = vec![[None::<[f64; 2]>, None]; ends.len()];
        let mut color_attr = vec![[None::<[f32; 3]>, None]; ends.len()];
        for ((fi, p), &first) in polygons.iter().enumerate().zip(&first_side) {
            let n = p.vertices.len();
            let sides = assign.get(first..first + n).unwrap_or(&[]);
            let edge_of =
                |i: usize| -> (u32, bool) { sides.get(i % n).copied().unwrap_or((0, true)) };
            for i in 0..n {
                // Directed CCW edge d_i = v_i -> v_{i+1}. The CW walk goes d_{i-1} after d_i.
                let (id, forward) = edge_of(i);
                let (succ, _) = edge_of(i + n - 1);
                let (pred, _) = edge_of(i + 1);
                let side = usize::from(!forward);
                let Some(h) = halves.get_mut(id as usize) else {
                    continue;
                };
                let slot = if forward { &mut h.lf } else { &mut h.rf };
                *slot = Some((fi as u32, pred, succ));
                if let Some(uvs) = &p.uvs
                    && let (Some(slot), Some(uv)) = (uv_attr.get_mut(id as usize), uvs.get(i))
                    && let Some(s) = slot.get_mut(side)
                {
                    *s = Some(*uv);
                }
                if let Some(colors) = &p.colors
                    && let (Some(slot), Some(c)) = (color_attr.get_mut(id as usize), colors.get(i))
                    && let Some(s) = slot.get_mut(side)
                {
                    *s = Some(*c);
                }
            }
        }
        let mut edges = Vec::with_capacity(ends.len());
        let mut used = vec![false; positions.len()];
        for (id, ((&(vs, ve), h), (uv, color))) in ends
            .iter()
            .zip(&halves)
            .zip(uv_attr.iter().zip(&color_attr))
            .enumerate()
        {
            let (Some((lf, ltpr, ltsu)), Some((rf, rtpr, rtsu))) = (h.lf, h.rf) else {
                let parallel =
                    std::iter::successors(first_edge.get(&pair(vs, ve)).copied(), |&e| {
                        parallel.get(e as usize).copied().flatten()
                    })
                    .count();
                return Err(err(if parallel > 1 {
                    format!(
                        "the side {vs}-{ve} is used twice in the same direction (the surface is \
                         not consistently oriented, or not a 2-manifold)"
                    )
                } else {
                    format!(
                        "edge {id} ({vs}-{ve}) borders only one polygon; the mesh must be closed"
                    )
                }));
            };
            for v in [vs, ve] {
                if let Some(u) = used.get_mut(v as usize) {
                    *u = true;
                }
            }
            let [uv_lt, uv_rt] = *uv;
            let [color_lt, color_rt] = *color;
            let attributes = usize::from(color_rt.is_some())
                + usize::from(color_lt.is_some())
                + usize::from(uv_rt.is_some())
                + usize::from(uv_lt.is_some());
            let mut items = Vec::with_capacity(attributes + 1);
            if let Some(c) = color_rt {
                items.push(EdgeItem::ColorRt(c));
            }
            if let Some(c) = color_lt {
                items.push(EdgeItem::ColorLt(c));
            }
            if let Some(u) = uv_rt {
                items.push(EdgeItem::UvRt(u));
            }
            if let Some(u) = uv_lt {
                items.push(EdgeItem::UvLt(u));
            }
            items.push(EdgeItem::Edge(EdgeRecord::from([
                vs, ve, lf, rf, ltpr, ltsu, rtpr, rtsu,
            ])));
            edges.push(Edge { items });
        }
        if let Some(v) = used.iter().position(|u| !u) {
            return Err(err(format!("vertex {v} is used by no polygon")));
        }
        Ok(Winged {
            edges,
            faces: polygons
                .iter()
                .map(|p| Face {
                    items: p
                        .material
                        .iter()
                        .map(|m| FaceItem::Material(otp25_atom(m)))
                        .collect(),
                })
                .collect(),
            vertices: positions
                .iter()
                .map(|p| Vertex {
                    items: vec![VertexItem::Position(*p)],
                })
                .collect(),
            hard_edges: Term::Nil,
        })
    }
}
