//! Validation (notes §9): every finding with its path. Errors are what leaves a mesh unusable
//! (indices out of range, broken wings, open face loops, unused faces or vertices, binaries of the
//! wrong size); warnings are what Wings repairs or ignores on load (a missing material, an image
//! of the wrong size, holes that are not hidden, an invalid mirror face).

use std::collections::HashSet;

use super::model::*;
use crate::error::{Location, Warning};
use crate::etf::Term;
use crate::registry::Format;

const F: Format = Format::Wings;

/// Most findings of one kind reported per object; the rest are counted in one more finding.
const PER_KIND: usize = 20;

/// Collects findings, capping each kind per object.
struct Findings {
    out: Vec<Warning>,
    counts: Vec<(&'static str, String, usize)>,
}

impl Findings {
    fn push(&mut self, kind: &'static str, scope: &str, w: Warning) {
        match self
            .counts
            .iter_mut()
            .find(|(k, s, _)| *k == kind && s == scope)
        {
            Some((_, _, n)) => {
                *n += 1;
                if *n <= PER_KIND {
                    self.out.push(w);
                }
            }
            None => {
                self.counts.push((kind, scope.to_owned(), 1));
                self.out.push(w);
            }
        }
    }

    fn error(&mut self, kind: &'static str, scope: &str, path: String, msg: String) {
        self.push(kind, scope, Warning::error(F, Location::path(path), msg));
    }

    fn warn(&mut self, kind: &'static str, scope: &str, path: String, msg: String) {
        self.push(kind, scope, Warning::warning(F, Location::path(path), msg));
    }

    fn finish(mut self) -> Vec<Warning> {
        for (kind, scope, n) in &self.counts {
            if *n > PER_KIND {
                self.out.push(Warning::warning(
                    F,
                    Location::path(scope.clone()),
                    format!(
                        "{} more findings of the kind \"{kind}\" are not listed",
                        n - PER_KIND
                    ),
                ));
            }
        }
        self.out
    }
}

/// Check a model and collect every finding.
pub fn validate(wings: &Wings) -> Vec<Warning> {
    let mut f = Findings {
        out: Vec::new(),
        counts: Vec::new(),
    };
    match &wings.content {
        Content::V2(doc) => validate_document(doc, &mut f),
        Content::Legacy(legacy) => {
            f.warn(
                "legacy",
                "",
                String::new(),
                format!(
                    "a version {} file (before Wings 0.92); Wings 2.x refuses to open it",
                    legacy.version
                ),
            );
            match legacy.meshes() {
                Ok(meshes) => {
                    for (i, m) in meshes.iter().enumerate() {
                        for (j, face) in m.faces.iter().enumerate() {
                            if face.len() < 3 {
                                f.error(
                                    "legacy face",
                                    "",
                                    format!("shapes[{i}].faces[{j}]"),
                                    format!("face has {} corners", face.len()),
                                );
                            }
                            if let Some(v) = face.iter().find(|&&v| v as usize >= m.positions.len())
                            {
                                f.error(
                                    "legacy face",
                                    "",
                                    format!("shapes[{i}].faces[{j}]"),
                                    format!(
                                        "vertex {v} does not exist ({} vertices)",
                                        m.positions.len()
                                    ),
                                );
                            }
                        }
                    }
                }
                Err(e) => f.error("legacy", "", String::new(), e),
            }
        }
    }
    f.finish()
}

fn validate_document(doc: &Document, f: &mut Findings) {
    let images = doc.images();
    let image_ids: HashSet<i64> = images.iter().map(|i| i.id).collect();
    let mut names = HashSet::new();
    for (i, m) in doc.materials.iter().enumerate() {
        let path = format!("materials[{i}]");
        if !names.insert(m.name.name.as_str()) {
            f.warn(
                "material",
                "",
                path.clone(),
                format!("material `{}` is listed twice", m.name.name),
            );
        }
        for (kind, value) in m.maps() {
            match value.as_int() {
                Some(id) if !image_ids.contains(&id) => f.warn(
                    "map",
                    "",
                    format!("{path}.maps"),
                    format!(
                        "material `{}`: the {kind} map names image {id}, which the images list \
                         does not have",
                        m.name.name
                    ),
                ),
                _ => {}
            }
        }
    }
    for (i, img) in images.iter().enumerate() {
        if let ImageSource::Embedded {
            width,
            height,
            samples_per_pixel,
            pixels_len,
            ..
        } = img.source
        {
            let want = width
                .checked_mul(height)
                .and_then(|n| n.checked_mul(samples_per_pixel));
            if !(1..=4).contains(&samples_per_pixel) || want != Some(pixels_len as i64) {
                f.warn(
                    "image",
                    "",
                    format!("props.images[{i}]"),
                    format!(
                        "image {}: {width} x {height} x {samples_per_pixel} bytes per pixel needs \
                         {} bytes, the pixels binary has {pixels_len} (Wings shows a 1x1 \
                         placeholder)",
                        img.id,
                        want.map_or_else(|| "too many".to_owned(), |n| n.to_string())
                    ),
                );
            }
        }
    }
    for (i, shape) in doc.shapes.iter().enumerate() {
        validate_shape(doc, shape, &format!("shapes[{i}]"), f);
    }
}

fn validate_shape(doc: &Document, shape: &Shape, path: &str, f: &mut Findings) {
    let mesh = &shape.mesh;
    let (ne, nf, nv) = (mesh.edges.len(), mesh.faces.len(), mesh.vertices.len());
    let mp = format!("{path}.mesh");
    // Paths are only built for findings.
    let edge_path = |i: usize| format!("{mp}.edges[{i}]");
    // Each edge's record (`Edge::record`), copied into one array for the checks below.
    let mut records: Vec<Option<EdgeRecord>> = Vec::with_capacity(ne);
    // Binaries and records.
    for (i, e) in mesh.edges.iter().enumerate() {
        // The tags seen so far, one bit each.
        let mut seen = 0u8;
        let mut record = None;
        for item in &e.items {
            if let (EdgeItem::Edge(r), None) = (item, record) {
                record = Some(*r);
            }
            let (tag, bit) = match item {
                EdgeItem::Edge(_) => ("edge", 1),
                EdgeItem::UvLt(_) => ("uv_lt", 2),
                EdgeItem::UvRt(_) => ("uv_rt", 4),
                EdgeItem::ColorLt(_) => ("color_lt", 8),
                EdgeItem::ColorRt(_) => ("color_rt", 16),
                EdgeItem::Color(_) => ("color", 32),
                EdgeItem::Uv(_) => ("uv", 64),
                EdgeItem::Other(t) => {
                    check_other_edge_item(t, &edge_path(i), path, f);
                    continue;
                }
            };
            if seen & bit != 0 {
                f.warn(
                    "duplicate tag",
                    path,
                    edge_path(i),
                    format!("the edge has more than one `{tag}` entry"),
                );
            }
            seen |= bit;
        }
        records.push(record);
        if record.is_none() {
            f.error(
                "edge record",
                path,
                edge_path(i),
                "the edge has no {edge, …} record".into(),
            );
        }
    }
    for (k, v) in mesh.vertices.iter().enumerate() {
        if v.position().is_none() {
            let what = v
                .items
                .iter()
                .find_map(|i| match i {
                    VertexItem::Other(Term::Binary(b)) if b.len() != 24 => {
                        Some(format!("a {}-byte binary", b.len()))
                    }
                    VertexItem::Other(Term::Binary(_)) => {
                        Some("a position that is not finite".into())
                    }
                    _ => None,
                })
                .unwrap_or_else(|| "no binary".into());
            f.error(
                "vertex",
                path,
                format!("{mp}.vertices[{k}]"),
                format!("vertex {k} has no 24-byte position (found {what})"),
            );
        }
    }
    // Index ranges.
    let mut in_range = true;
    for (i, r) in records.iter().enumerate() {
        let Some(r) = r else { continue };
        let fine = |v: u32, n: usize| (v as usize) < n;
        if fine(r.vs, nv)
            && fine(r.ve, nv)
            && fine(r.lf, nf)
            && fine(r.rf, nf)
            && fine(r.ltpr, ne)
            && fine(r.ltsu, ne)
            && fine(r.rtpr, ne)
            && fine(r.rtsu, ne)
            && r.vs != r.ve
        {
            continue;
        }
        for (name, v, n, what) in [
            ("vs", r.vs, nv, "vertices"),
            ("ve", r.ve, nv, "vertices"),
            ("lf", r.lf, nf, "faces"),
            ("rf", r.rf, nf, "faces"),
            ("ltpr", r.ltpr, ne, "edges"),
            ("ltsu", r.ltsu, ne, "edges"),
            ("rtpr", r.rtpr, ne, "edges"),
            ("rtsu", r.rtsu, ne, "edges"),
        ] {
            if v as usize >= n {
                in_range = false;
                f.error(
                    "index",
                    path,
                    edge_path(i),
                    format!("edge {i}: {name} = {v}, but the object has {n} {what}"),
                );
            }
        }
        if r.vs == r.ve {
            f.error(
                "index",
                path,
                edge_path(i),
                format!("edge {i} starts and ends at vertex {}", r.vs),
            );
        }
    }
    check_hard_edges(&mesh.hard_edges, ne, &mp, path, f);
    // Topology: wings, face loops, use.
    let (face_edges, vertex_edges, sides) = first_edges(&records, nf, nv);
    if in_range && records.iter().all(Option::is_some) {
        let rec = |e: u32| records.get(e as usize).and_then(Option::as_ref);
        // (successor, predecessor, end vertex of the walk along this side) of edge r on face.
        let side = |r: &EdgeRecord, face: u32| {
            if r.lf == face {
                Some((r.ltsu, r.ltpr, r.vs, r.ve))
            } else if r.rf == face {
                Some((r.rtsu, r.rtpr, r.ve, r.vs))
            } else {
                None
            }
        };
        for (i, r) in records.iter().enumerate() {
            let Some(r) = r else { continue };
            for (name, face, succ, pred, end) in [
                ("left", r.lf, r.ltsu, r.ltpr, r.vs),
                ("right", r.rf, r.rtsu, r.rtpr, r.ve),
            ] {
                match rec(succ).map(|s| (s, side(s, face))) {
                    Some((_, None)) => f.error(
                        "wing",
                        path,
                        edge_path(i),
                        format!(
                            "edge {i}, {name} side: successor edge {succ} does not border face {face}"
                        ),
                    ),
                    Some((_, Some((_, spred, _, _)))) => {
                        if spred as usize != i {
                            f.error(
                                "wing",
                                path,
                                edge_path(i),
                                format!(
                                    "edge {i}, {name} side: successor edge {succ} has predecessor \
                                     {spred} on face {face}, not {i}"
                                ),
                            );
                        }
                        if start_vertex(rec(succ), face) != Some(end) {
                            f.error(
                                "wing",
                                path,
                                edge_path(i),
                                format!(
                                    "edge {i}, {name} side: successor edge {succ} does not continue \
                                     from vertex {end} around face {face}"
                                ),
                            );
                        }
                    }
                    None => {}
                }
                match rec(pred).map(|p| side(p, face)) {
                    Some(None) => f.error(
                        "wing",
                        path,
                        edge_path(i),
                        format!(
                            "edge {i}, {name} side: predecessor edge {pred} does not border face \
                             {face}"
                        ),
                    ),
                    Some(Some((psucc, _, _, _))) if psucc as usize != i => f.error(
                        "wing",
                        path,
                        edge_path(i),
                        format!(
                            "edge {i}, {name} side: predecessor edge {pred} has successor {psucc} \
                             on face {face}, not {i}"
                        ),
                    ),
                    _ => {}
                }
            }
        }
        // The face loops, walked as `Winged::faces_ccw` walks them, counting the corners.
        for (face, start) in face_edges.iter().enumerate() {
            let result = match start {
                Some(e) => {
                    let limit = sides.get(face).copied().unwrap_or(0);
                    loop_corners(&records, face as u32, *e, limit)
                }
                None => Err(format!("face {face} has no edge")),
            };
            let fp = || format!("{mp}.faces[{face}]");
            match result {
                Err(e) => f.error("face loop", path, fp(), e),
                Ok(c) if c < 3 => f.error(
                    "face loop",
                    path,
                    fp(),
                    format!("face {face} has {c} corners; at least 3 are needed"),
                ),
                Ok(c) => {
                    let n = sides.get(face).copied().unwrap_or(0);
                    if c != n {
                        f.error(
                            "face loop",
                            path,
                            fp(),
                            format!(
                                "the loop of face {face} has {c} corners, but {n} edge sides name \
                                 the face"
                            ),
                        );
                    }
                }
            }
        }
    }
    for (k, e) in vertex_edges.iter().enumerate() {
        if e.is_none() {
            f.error(
                "unused",
                path,
                format!("{mp}.vertices[{k}]"),
                format!("vertex {k} is used by no edge"),
            );
        }
    }
    // Faces: use (also when indices are out of range) and materials.
    for (j, e) in face_edges.iter().enumerate() {
        if e.is_none() {
            f.error(
                "unused",
                path,
                format!("{mp}.faces[{j}]"),
                format!("face {j} is bordered by no edge"),
            );
        }
    }
    // Whether the file defines a material (faces mostly repeat the one before).
    let mut last: Option<(&str, bool)> = None;
    for (j, face) in mesh.faces.iter().enumerate() {
        let Some(m) = face.material() else { continue };
        if m == "default" {
            continue;
        }
        let defined = match last {
            Some((name, defined)) if name == m => defined,
            _ => {
                let defined = doc.material(m).is_some();
                last = Some((m, defined));
                defined
            }
        };
        if !defined {
            f.warn(
                "material",
                path,
                format!("{mp}.faces[{j}]"),
                format!("face {j} uses material `{m}`, which the file does not define (Wings uses default)"),
            );
        }
    }
    // Object properties.
    let hidden = shape.num_hidden_faces();
    if hidden > nf as u64 {
        f.warn(
            "props",
            path,
            format!("{path}.props"),
            format!("num_hidden_faces is {hidden}, but the object has {nf} faces"),
        );
    }
    for h in shape.holes() {
        if h < 0 || h as u64 >= hidden {
            f.warn(
                "props",
                path,
                format!("{path}.props.holes"),
                format!(
                    "hole {h} is not a hidden face (0 … {}); Wings drops it",
                    hidden as i64 - 1
                ),
            );
        }
    }
    if let Some(m) = shape.mirror_face()
        && (m < 0 || m as u64 >= nf as u64 || (m as u64) < hidden)
    {
        f.warn(
            "props",
            path,
            format!("{path}.props.mirror_face"),
            format!("mirror face {m} is not a visible face of the {nf}; Wings drops it"),
        );
    }
}

/// Every hard edge is an edge index (the items of the list in any encoding, read in place).
fn check_hard_edges(hard_edges: &Term, ne: usize, mp: &str, path: &str, f: &mut Findings) {
    let mut check = |j: usize, t: &Term| match t.as_int() {
        Some(v) if usize::try_from(v).is_ok_and(|v| v < ne) => {}
        _ => f.error(
            "hard edge",
            path,
            format!("{mp}.hard_edges[{j}]"),
            format!("hard edge {t:?} is not an edge index below {ne}"),
        ),
    };
    match hard_edges {
        Term::Nil => {}
        Term::String(bytes) => {
            for (j, &b) in bytes.iter().enumerate() {
                check(j, &Term::Int(i64::from(b)));
            }
        }
        Term::List(items, tail) if tail.is_nil() => {
            for (j, t) in items.iter().enumerate() {
                check(j, t);
            }
        }
        _ => f.error(
            "hard edge",
            path,
            format!("{mp}.hard_edges"),
            "the hard-edge list is not a proper list".into(),
        ),
    }
}

/// How many corners the walk of [`Winged::walk_cw_limited`] finds around `face` from edge
/// `start`, or its error, without building the corners.
fn loop_corners(
    records: &[Option<EdgeRecord>],
    face: u32,
    start: u32,
    limit: usize,
) -> Result<usize, String> {
    let mut corners = 0usize;
    let mut current = start;
    loop {
        if corners >= limit {
            return Err(format!(
                "the loop of face {face} does not return to edge {start} within {limit} \
                 steps"
            ));
        }
        let r = match records.get(current as usize) {
            None => {
                return Err(format!(
                    "face {face}: the loop reaches edge {current}, which does not exist"
                ));
            }
            Some(None) => {
                return Err(format!(
                    "face {face}: edge {current} has no {{edge, …}} record"
                ));
            }
            Some(Some(r)) => r,
        };
        let next = if r.lf == face {
            r.ltsu
        } else if r.rf == face {
            r.rtsu
        } else {
            return Err(format!(
                "face {face}: the loop reaches edge {current}, which borders faces {} and {}",
                r.lf, r.rf
            ));
        };
        corners += 1;
        current = next;
        if current == start {
            return Ok(corners);
        }
    }
}

/// From the records: for each face and for each vertex the lowest-numbered edge that names it
/// (`Winged::face_edges`, `Winged::vertex_edges`), and how many edge sides name each face
/// ([`side_counts`]).
fn first_edges(
    records: &[Option<EdgeRecord>],
    nf: usize,
    nv: usize,
) -> (Vec<Option<u32>>, Vec<Option<u32>>, Vec<usize>) {
    let mut faces = vec![None; nf];
    let mut vertices = vec![None; nv];
    let mut sides = vec![0usize; nf];
    for (i, r) in records.iter().enumerate().rev() {
        let Some(r) = r else { continue };
        for f in [r.lf, r.rf] {
            if let Some(slot) = faces.get_mut(f as usize) {
                *slot = Some(i as u32);
            }
            if let Some(c) = sides.get_mut(f as usize) {
                *c += 1;
            }
        }
        for v in [r.vs, r.ve] {
            if let Some(slot) = vertices.get_mut(v as usize) {
                *slot = Some(i as u32);
            }
        }
    }
    (faces, vertices, sides)
}

/// Where the walk along `r` on `face` starts: `ve` on the left side, `vs` on the right.
fn start_vertex(r: Option<&EdgeRecord>, face: u32) -> Option<u32> {
    let r = r?;
    if r.lf == face {
        Some(r.ve)
    } else if r.rf == face {
        Some(r.vs)
    } else {
        None
    }
}

/// How many edge sides name each face.
pub(super) fn side_counts(mesh: &Winged) -> Vec<usize> {
    let mut n = vec![0usize; mesh.faces.len()];
    for r in mesh.edges.iter().filter_map(Edge::record) {
        for face in [r.lf, r.rf] {
            if let Some(c) = n.get_mut(face as usize) {
                *c += 1;
            }
        }
    }
    n
}

fn check_other_edge_item(t: &Term, ep: &str, path: &str, f: &mut Findings) {
    let Some([Term::Atom(a), payload]) = t.as_tuple() else {
        return;
    };
    let size = match a.name.as_str() {
        "uv_lt" | "uv_rt" => 16,
        "color_lt" | "color_rt" => 12,
        "color" => 48,
        "uv" => 32,
        "edge" => {
            f.error(
                "edge record",
                path,
                ep.to_owned(),
                format!("malformed edge record {t:?}"),
            );
            return;
        }
        _ => return,
    };
    let msg = match payload.as_binary() {
        Some(b) if b.len() != size => {
            format!("`{}` binary is {} bytes; expected {size}", a.name, b.len())
        }
        Some(_) => format!("`{}` holds a value that is not finite", a.name),
        None => format!("`{}` does not hold a binary", a.name),
    };
    f.error("binary", path, ep.to_owned(), msg);
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::super::samples;
    use super::*;

    /// The face walk and the first-edge tables the checks use are those of `Winged` (which
    /// they repeat from the records, without building corners), also on broken meshes.
    #[test]
    fn face_loops_are_the_winged_walk() {
        let Content::V2(doc) = samples::cube().unwrap().content else {
            panic!("the sample is version 2")
        };
        let mut next = crate::testutil::xorshift();
        let (mut loops, mut broken) = (0, 0);
        for shape in &doc.shapes {
            for round in 0..400 {
                let mut mesh = shape.mesh.clone();
                let bound = mesh.edges.len().max(mesh.faces.len()) as u64 + 2;
                for _ in 0..round % 4 {
                    let e = (next() as usize) % mesh.edges.len();
                    let v = (next() % bound) as u32;
                    let items = &mut mesh.edges[e].items;
                    if next() % 10 == 0 {
                        items.retain(|i| !matches!(i, EdgeItem::Edge(_)));
                    }
                    for item in items.iter_mut() {
                        if let EdgeItem::Edge(r) = item {
                            match next() % 6 {
                                0 => r.lf = v,
                                1 => r.rf = v,
                                2 => r.ltsu = v,
                                3 => r.rtsu = v,
                                4 => r.vs = v,
                                _ => r.ve = v,
                            }
                        }
                    }
                }
                let records: Vec<Option<EdgeRecord>> =
                    mesh.edges.iter().map(|e| e.record().copied()).collect();
                let (nf, nv) = (mesh.faces.len(), mesh.vertices.len());
                let (faces, vertices, sides) = first_edges(&records, nf, nv);
                assert_eq!(faces, mesh.face_edges());
                assert_eq!(vertices, mesh.vertex_edges());
                assert_eq!(sides, side_counts(&mesh));
                for (f, walk) in mesh.faces_ccw().into_iter().enumerate() {
                    let ours = match faces[f] {
                        Some(e) => loop_corners(&records, f as u32, e, sides[f]),
                        None => Err(format!("face {f} has no edge")),
                    };
                    assert_eq!(ours, walk.map(|c| c.len()), "face {f}");
                    loops += 1;
                    broken += usize::from(ours.is_err());
                }
            }
        }
        assert!(
            broken > 100 && loops - broken > 100,
            "{loops} loops, {broken} broken"
        );
    }
}
