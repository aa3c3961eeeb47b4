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
    let records = mesh.records();
    let mp = format!("{path}.mesh");
    // Binaries and records.
    for (i, e) in mesh.edges.iter().enumerate() {
        let ep = format!("{mp}.edges[{i}]");
        let mut seen = Vec::new();
        for item in &e.items {
            let tag = match item {
                EdgeItem::Edge(_) => "edge",
                EdgeItem::UvLt(_) => "uv_lt",
                EdgeItem::UvRt(_) => "uv_rt",
                EdgeItem::ColorLt(_) => "color_lt",
                EdgeItem::ColorRt(_) => "color_rt",
                EdgeItem::Color(_) => "color",
                EdgeItem::Uv(_) => "uv",
                EdgeItem::Other(t) => {
                    check_other_edge_item(t, &ep, path, f);
                    continue;
                }
            };
            if seen.contains(&tag) {
                f.warn(
                    "duplicate tag",
                    path,
                    ep.clone(),
                    format!("the edge has more than one `{tag}` entry"),
                );
            }
            seen.push(tag);
        }
        if e.record().is_none() {
            f.error(
                "edge record",
                path,
                ep,
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
        let ep = format!("{mp}.edges[{i}]");
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
                    ep.clone(),
                    format!("edge {i}: {name} = {v}, but the object has {n} {what}"),
                );
            }
        }
        if r.vs == r.ve {
            f.error(
                "index",
                path,
                ep.clone(),
                format!("edge {i} starts and ends at vertex {}", r.vs),
            );
        }
    }
    if let Some(items) = mesh.hard_edges.list_items() {
        for (j, t) in items.iter().enumerate() {
            match t.as_int() {
                Some(v) if usize::try_from(v).is_ok_and(|v| v < ne) => {}
                _ => f.error(
                    "hard edge",
                    path,
                    format!("{mp}.hard_edges[{j}]"),
                    format!("hard edge {t:?} is not an edge index below {ne}"),
                ),
            }
        }
    } else {
        f.error(
            "hard edge",
            path,
            format!("{mp}.hard_edges"),
            "the hard-edge list is not a proper list".into(),
        );
    }
    // Topology: wings, face loops, use.
    if in_range && records.iter().all(Option::is_some) {
        let rec = |e: u32| records.get(e as usize).copied().flatten();
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
            let ep = format!("{mp}.edges[{i}]");
            for (name, face, succ, pred, end) in [
                ("left", r.lf, r.ltsu, r.ltpr, r.vs),
                ("right", r.rf, r.rtsu, r.rtpr, r.ve),
            ] {
                match rec(succ).map(|s| (s, side(s, face))) {
                    Some((_, None)) => f.error(
                        "wing",
                        path,
                        ep.clone(),
                        format!(
                            "edge {i}, {name} side: successor edge {succ} does not border face {face}"
                        ),
                    ),
                    Some((_, Some((_, spred, _, _)))) => {
                        if spred as usize != i {
                            f.error(
                                "wing",
                                path,
                                ep.clone(),
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
                                ep.clone(),
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
                        ep.clone(),
                        format!(
                            "edge {i}, {name} side: predecessor edge {pred} does not border face \
                             {face}"
                        ),
                    ),
                    Some(Some((psucc, _, _, _))) if psucc as usize != i => f.error(
                        "wing",
                        path,
                        ep.clone(),
                        format!(
                            "edge {i}, {name} side: predecessor edge {pred} has successor {psucc} \
                             on face {face}, not {i}"
                        ),
                    ),
                    _ => {}
                }
            }
        }
        let sides = side_counts(mesh);
        for (face, result) in mesh.faces_ccw().iter().enumerate() {
            let fp = format!("{mp}.faces[{face}]");
            match result {
                Err(e) => f.error("face loop", path, fp, e.clone()),
                Ok(c) if c.len() < 3 => f.error(
                    "face loop",
                    path,
                    fp,
                    format!("face {face} has {} corners; at least 3 are needed", c.len()),
                ),
                Ok(c) => {
                    let n = sides.get(face).copied().unwrap_or(0);
                    if c.len() != n {
                        f.error(
                            "face loop",
                            path,
                            fp,
                            format!(
                                "the loop of face {face} has {} corners, but {n} edge sides name \
                                 the face",
                                c.len()
                            ),
                        );
                    }
                }
            }
        }
    }
    for (k, e) in mesh.vertex_edges().iter().enumerate() {
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
    for (j, e) in mesh.face_edges().iter().enumerate() {
        if e.is_none() {
            f.error(
                "unused",
                path,
                format!("{mp}.faces[{j}]"),
                format!("face {j} is bordered by no edge"),
            );
        }
    }
    for (j, face) in mesh.faces.iter().enumerate() {
        if let Some(m) = face.material()
            && m != "default"
            && doc.material(m).is_none()
        {
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
