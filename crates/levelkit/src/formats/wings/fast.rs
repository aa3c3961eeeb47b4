//! The one-pass reader of version 2 files: from the term bytes straight into the model, without
//! the [`Term`] tree of the whole file (which costs an allocation per atom, tuple, list and
//! binary, then as much again to convert and to free).
//!
//! It walks the structure `read.rs` converts — the top-level tuple, the shapes, and in each the
//! `winged` tuple with its edge, face and vertex lists — with the ETF [`Decoder`], and reads the
//! items Wings writes (`{edge, …}` with its eight indices, `{uv_lt, <<…>>}` and the other
//! attribute binaries, `{material, Name}`, the 24-byte position) straight into the model. Every
//! other part (names, property lists, hard edges, materials, the global properties, and any item
//! of another form) is decoded as a [`Term`] at its place and converted by the functions of
//! `read.rs`, so it gets the same result.
//!
//! Each read decodes, checks and charges exactly what decoding the element as a term would (the
//! same count, depth and budget checks, the same charges), so the limits hold the same. Where
//! the bytes are not what the structure needs, or anything fails, it gives up and the caller
//! decodes the whole term and converts it, which gives the result or the error.

#![deny(clippy::arithmetic_side_effects, clippy::indexing_slicing)]

use super::model::*;
use super::terms::{
    f32s, f64s, proper_list, read_edge, read_face, read_vertex, typed_edge_item, typed_face_item,
    typed_vertex_item,
};
use crate::error::Error;
use crate::etf::{AtomTag, Decoder, Term};
use crate::limits::{Budget, Limits};

/// The one-pass read gave up: the caller reads the file as a term.
struct Bail;

impl From<Error> for Bail {
    fn from(_: Error) -> Self {
        Bail
    }
}

type Fast<T> = std::result::Result<T, Bail>;

// The nesting depth of each part, as the term decoder counts it (the top-level tuple is 0).
/// `{wings, 2, Parts}`.
const TOP: usize = 0;
/// The version and `{Shapes, Materials, Props}`.
const PARTS: usize = 1;
/// The shape, material and global property lists.
const LISTS: usize = 2;
/// `{object, Name, Winged, Props}`.
const SHAPE: usize = 3;
/// The object's name, `{winged, …}` and the object properties.
const OBJECT: usize = 4;
/// The edge, face and vertex lists and the hard edges.
const MESH: usize = 5;
/// One edge, face or vertex entry.
const ENTRY: usize = 6;
/// An item of an entry.
const ITEM: usize = 7;

/// Preallocate at most this many shapes (a shape is far larger than the term memory the budget
/// charges for a list element).
const SHAPES_RESERVE: usize = 64;

/// The document of a version 2 term (`bytes` is the term after the version byte, inflated), or
/// `None` when the one-pass read does not take it.
pub(super) fn read_document(bytes: &[u8], limits: &Limits, budget: Budget) -> Option<Document> {
    let mut d = Decoder::new(bytes, 1, limits, budget);
    let doc = document(&mut d).ok()?;
    d.finished().then_some(doc)
}

/// `{wings, 2, {Shapes, Materials, Props}}`.
fn document(d: &mut Decoder<'_>) -> Fast<Document> {
    if d.tuple_head(TOP)? != Some(3) {
        return Err(Bail);
    }
    let Some((b"wings", atoms)) = d.atom_text()? else {
        return Err(Bail);
    };
    if d.term(PARTS)?.as_int() != Some(2) || d.tuple_head(PARTS)? != Some(3) {
        return Err(Bail);
    }
    let shapes = list(d, LISTS, SHAPES_RESERVE, |d| shape(d, atoms))?;
    let materials = d.term(LISTS)?;
    let props = d.term(LISTS)?;
    let materials = match materials {
        Term::Nil => Vec::new(),
        Term::List(items, tail) if tail.is_nil() => {
            items.into_iter().map(material).collect::<Fast<Vec<_>>>()?
        }
        _ => return Err(Bail),
    };
    proper_list(&props, "", "")?;
    Ok(Document {
        atoms,
        shapes,
        materials,
        props,
    })
}

/// `{Name, Props}`, taken apart (`read_material` on the term, without copying it).
fn material(term: Term) -> Fast<Material> {
    let Term::Tuple(items) = term else {
        return Err(Bail);
    };
    match <[Term; 2]>::try_from(items) {
        Ok([Term::Atom(name), props]) if proper_list(&props, "", "").is_ok() => {
            Ok(Material { name, props })
        }
        _ => Err(Bail),
    }
}

/// A proper list (`[]`, or `LIST_EXT` with a `[]` tail) at `depth`, each element read by `item`
/// (at most `reserve` of them preallocated).
fn list<'a, T>(
    d: &mut Decoder<'a>,
    depth: usize,
    reserve: usize,
    mut item: impl FnMut(&mut Decoder<'a>) -> Fast<T>,
) -> Fast<Vec<T>> {
    if d.nil() {
        return Ok(Vec::new());
    }
    let Some(n) = d.list_head(depth)? else {
        return Err(Bail);
    };
    let mut out = Vec::with_capacity(n.min(reserve));
    for _ in 0..n {
        out.push(item(d)?);
    }
    if d.nil() { Ok(out) } else { Err(Bail) }
}

/// The next atom is `name` in the document's encoding.
fn atom_is(d: &mut Decoder<'_>, name: &[u8], atoms: AtomTag) -> Fast<bool> {
    Ok(matches!(d.atom_text()?, Some((text, tag)) if text == name && tag == atoms))
}

/// `{object, Name, {winged, …}, Props}`.
fn shape(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<Shape> {
    if d.tuple_head(SHAPE)? != Some(4) || !atom_is(d, b"object", atoms)? {
        return Err(Bail);
    }
    let name = d.term(OBJECT)?;
    if name.as_charlist().is_none() {
        return Err(Bail);
    }
    let mesh = winged(d, atoms)?;
    let props = d.term(OBJECT)?;
    proper_list(&props, "", "")?;
    Ok(Shape { name, mesh, props })
}

/// `{winged, Edges, Faces, Vertices, HardEdges}`.
fn winged(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<Winged> {
    if d.tuple_head(OBJECT)? != Some(5) || !atom_is(d, b"winged", atoms)? {
        return Err(Bail);
    }
    let edges = list(d, MESH, usize::MAX, |d| edge(d, atoms))?;
    let faces = list(d, MESH, usize::MAX, |d| face(d, atoms))?;
    let vertices = list(d, MESH, usize::MAX, vertex)?;
    let hard_edges = d.term(MESH)?;
    if hard_edges.list_len().is_none() {
        return Err(Bail);
    }
    Ok(Winged {
        edges,
        faces,
        vertices,
        hard_edges,
    })
}

/// The items of an entry that is a `LIST_EXT`, or `None` (nothing read) for anything else.
fn entry<'a, T>(
    d: &mut Decoder<'a>,
    mut item: impl FnMut(&mut Decoder<'a>) -> Fast<T>,
) -> Fast<Option<Vec<T>>> {
    let Some(n) = d.list_head(ENTRY)? else {
        return Ok(None);
    };
    let mut items = Vec::with_capacity(n);
    for _ in 0..n {
        items.push(item(d)?);
    }
    if d.nil() { Ok(Some(items)) } else { Err(Bail) }
}

/// An edge entry: a list of tagged tuples with one `{edge, …}` record.
fn edge(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<Edge> {
    let Some(items) = entry(d, |d| edge_item(d, atoms))? else {
        return Ok(read_edge(&d.term(ENTRY)?, atoms, "")?);
    };
    let edge = Edge { items };
    if edge.record().is_none() {
        return Err(Bail);
    }
    Ok(edge)
}

fn edge_item(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<EdgeItem> {
    let mark = d.mark();
    if let Some(item) = edge_item_as_written(d, atoms)? {
        return Ok(item);
    }
    d.reset(mark);
    let t = d.term(ITEM)?;
    Ok(match typed_edge_item(&t, atoms, "")? {
        Some(item) => item,
        None => EdgeItem::Other(t),
    })
}

/// `{edge, Vs, Ve, Lf, Rf, Ltpr, Ltsu, Rtpr, Rtsu}` with small or 32-bit integers, or an
/// attribute tuple with a binary of its size and finite values; `None` for anything else.
fn edge_item_as_written(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<Option<EdgeItem>> {
    match d.tuple_head(ITEM)? {
        Some(9) => {
            if !atom_is(d, b"edge", atoms)? {
                return Ok(None);
            }
            let mut n = [0u32; 8];
            for slot in &mut n {
                let Some(v) = d.index() else {
                    return Ok(None);
                };
                *slot = v;
            }
            Ok(Some(EdgeItem::Edge(EdgeRecord::from(n))))
        }
        Some(2) => {
            let Some((name, tag)) = d.atom_text()? else {
                return Ok(None);
            };
            if tag != atoms {
                return Ok(None);
            }
            let Some(b) = d.binary()? else {
                return Ok(None);
            };
            Ok(match name {
                b"uv_lt" => f64s::<2>(b).map(EdgeItem::UvLt),
                b"uv_rt" => f64s::<2>(b).map(EdgeItem::UvRt),
                b"color_lt" => f32s::<3>(b).map(EdgeItem::ColorLt),
                b"color_rt" => f32s::<3>(b).map(EdgeItem::ColorRt),
                b"color" => f64s::<6>(b).map(EdgeItem::Color),
                b"uv" => f64s::<4>(b).map(EdgeItem::Uv),
                _ => None,
            })
        }
        _ => Ok(None),
    }
}

/// A face entry: `[]` or `[{material, Name}]`, other items kept.
fn face(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<Face> {
    if d.nil() {
        return Ok(Face { items: Vec::new() });
    }
    match entry(d, |d| face_item(d, atoms))? {
        Some(items) => Ok(Face { items }),
        None => Ok(read_face(&d.term(ENTRY)?, atoms, "")?),
    }
}

fn face_item(d: &mut Decoder<'_>, atoms: AtomTag) -> Fast<FaceItem> {
    let mark = d.mark();
    if d.tuple_head(ITEM)? == Some(2)
        && atom_is(d, b"material", atoms)?
        && let Some(name) = d.atom_term()?
    {
        return Ok(FaceItem::Material(name));
    }
    d.reset(mark);
    let t = d.term(ITEM)?;
    Ok(match typed_face_item(&t, atoms) {
        Some(item) => item,
        None => FaceItem::Other(t),
    })
}

/// A vertex entry: a list holding the 24-byte position, other items kept.
fn vertex(d: &mut Decoder<'_>) -> Fast<Vertex> {
    if d.nil() {
        return Ok(Vertex { items: Vec::new() });
    }
    match entry(d, vertex_item)? {
        Some(items) => Ok(Vertex { items }),
        None => Ok(read_vertex(&d.term(ENTRY)?, "")?),
    }
}

fn vertex_item(d: &mut Decoder<'_>) -> Fast<VertexItem> {
    let mark = d.mark();
    if let Some(b) = d.binary()?
        && let Some(p) = f64s::<3>(b)
    {
        return Ok(VertexItem::Position(p));
    }
    d.reset(mark);
    let t = d.term(ITEM)?;
    Ok(match typed_vertex_item(&t) {
        Some(item) => item,
        None => VertexItem::Other(t),
    })
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::super::read::PAYLOAD_OFFSET;
    use super::super::samples;
    use super::super::terms::read_content;
    use super::*;
    use crate::etf::{self, Compression, External};

    /// The one-pass read of `payload`, checked against decoding the term and converting it:
    /// whenever it gives a document, that is the term read's result. True when it gave one.
    fn check(payload: &[u8], limits: &Limits) -> bool {
        let Ok(image) = etf::open(payload, limits) else {
            return false;
        };
        let fast = read_document(&image.bytes, limits, image.budget.clone());
        let by_term = etf::decode(payload, limits).and_then(|ext| read_content(&ext.term));
        match (fast, by_term) {
            (Some(doc), Ok(Content::V2(want))) => {
                assert_eq!(doc, want);
                true
            }
            (Some(_), other) => {
                panic!("the one-pass read gives a document, the term read {other:?}")
            }
            (None, _) => false,
        }
    }

    /// Payloads: the sample, and with `LEVELKIT_CORPUS` set the corpus files.
    fn payloads() -> Vec<(String, Vec<u8>)> {
        let mut out = vec![(
            "sample cube".to_owned(),
            samples::cube().unwrap().write().unwrap()[PAYLOAD_OFFSET..].to_vec(),
        )];
        fn walk(dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let p = entry.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|e| e == "wings") {
                    let bytes = std::fs::read(&p).unwrap();
                    if bytes.len() > PAYLOAD_OFFSET {
                        out.push((p.display().to_string(), bytes[PAYLOAD_OFFSET..].to_vec()));
                    }
                }
            }
        }
        if let Some(dir) = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty()) {
            // A relative path is taken from the workspace root, where `cargo test` is run.
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
            walk(&root.join(dir).join("wings"), &mut out);
        }
        out
    }

    /// The same term, uncompressed (so that changed bytes change the structure).
    fn plain(payload: &[u8]) -> Option<Vec<u8>> {
        let ext = etf::decode(payload, &Limits::default()).ok()?;
        etf::encode(&External {
            term: ext.term,
            compression: Compression::None,
        })
        .ok()
    }

    /// Every version 2 file that reads is read in one pass, to the term read's result.
    #[test]
    fn one_pass_read_is_the_term_read() {
        for (name, payload) in payloads() {
            let v2 = etf::decode(&payload, &Limits::default())
                .and_then(|ext| read_content(&ext.term))
                .is_ok_and(|c| matches!(c, Content::V2(_)));
            assert_eq!(check(&payload, &Limits::default()), v2, "{name}");
            if let Some(plain) = plain(&payload) {
                assert_eq!(check(&plain, &Limits::default()), v2, "{name} uncompressed");
            }
        }
    }

    /// At the exact limits the term read needs, the one-pass read still reads; one below, both
    /// refuse: it checks and charges what the term read does.
    #[test]
    fn one_pass_read_keeps_the_limits() {
        for (name, payload) in payloads() {
            if !check(&payload, &Limits::default()) {
                continue;
            }
            let reads = |l: &Limits| etf::decode(&payload, l).is_ok();
            let least = |set: &dyn Fn(usize) -> Limits, hi: usize| {
                let (mut lo, mut hi) = (0usize, hi);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if reads(&set(mid)) {
                        hi = mid
                    } else {
                        lo = mid + 1
                    }
                }
                lo
            };
            let base = Limits::default();
            let alloc = |n| Limits {
                max_alloc: n,
                ..base
            };
            let count = |n| Limits {
                max_count: n,
                ..base
            };
            let depth = |n| Limits {
                max_depth: n,
                ..base
            };
            for (what, set, hi) in [
                (
                    "max_alloc",
                    &alloc as &dyn Fn(usize) -> Limits,
                    base.max_alloc,
                ),
                ("max_count", &count, base.max_count),
                ("max_depth", &depth, base.max_depth),
            ] {
                let n = least(set, hi);
                assert!(check(&payload, &set(n)), "{name}: {what} {n}");
                assert!(
                    n == 0 || !check(&payload, &set(n - 1)),
                    "{name}: {what} {n}"
                );
            }
        }
    }

    /// Changed bytes: whatever the one-pass read still reads is the term read's result.
    #[test]
    fn one_pass_read_garbage_sweep() {
        let mut next = crate::testutil::xorshift();
        let (mut read, mut given_up) = (0, 0);
        for (_, payload) in payloads() {
            let Some(plain) = plain(&payload) else {
                continue;
            };
            let rounds = (200_000 / plain.len()).clamp(20, 400);
            for _ in 0..rounds {
                let mut b = plain.clone();
                for _ in 0..=next() % 3 {
                    let at = 1 + (next() as usize) % (b.len() - 1);
                    b[at] = match next() % 4 {
                        0 => b[at].wrapping_add(1),
                        1 => b[at].wrapping_sub(1),
                        _ => next() as u8,
                    };
                }
                for limits in [Limits::default(), Limits::strict()] {
                    if check(&b, &limits) {
                        read += 1
                    } else {
                        given_up += 1
                    }
                }
            }
        }
        assert!(
            read > 20 && given_up > 20,
            "{read} read, {given_up} given up"
        );
    }
}
