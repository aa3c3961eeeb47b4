//! WMPB reader. Mirrors `write.rs`: the magic, then records; each record's header, then its
//! body by kind and by the layout table.
//!
//! The record sequence at every level must tile its bytes exactly (a record whose size field is
//! below 8 or runs past its parent is an error, with its offset and path). Inside, a payload that
//! does not have the form the layout table expects is not an error: it is kept as
//! [`Body::Raw`], and [`super::validate`] reports it.
//!
//! Allocation is bounded by the input: every record and every element charged to the
//! [`Limits`] budget is backed by at least two input bytes, and counts are checked against the
//! bytes that remain before anything is allocated.

#![deny(clippy::arithmetic_side_effects)]

use super::model::*;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteReader;
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Wmpb;

/// The four bytes every WMPB file starts with.
pub const MAGIC: &[u8; 4] = b"WMPB";

/// Where a record sits: at the top level, or inside a record with this id and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parent {
    /// The file's top level.
    Top,
    /// Inside the record with this id and kind.
    Record(u8, u8),
}

/// The expected form of a payload, from the layout table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A container with a fixed prefix of this many bytes.
    Container(usize),
    /// u32 count + count × 3 f64.
    Points,
    /// u32 count + count f64.
    Counted,
    /// u32 rows + u32 columns + rows × columns f64.
    Table,
    /// u32 count + polygons of u16 n + n × u16.
    Polygons,
    /// u32 count + count × (u32, u32, 4 × f64).
    Edges,
    /// f64s without a count.
    Doubles,
}

/// The layout table (notes §7, completed from the corpus): the form of the payload of a
/// record with `id` and `kind` inside `parent`; `None` where only the kind is known.
///
/// Objects are id 1, kind 5 at the top level and inside other objects; their data containers
/// are told apart by id. Prefix lengths are not stored in the file, so this table is the only
/// way to find a container's children.
pub fn layout(parent: Parent, id: u8, kind: u8) -> Option<Layout> {
    use Layout::*;
    const OBJECT: Parent = Parent::Record(1, 5);
    const GEOMETRY: Parent = Parent::Record(2, 5);
    const FACE: Parent = Parent::Record(18, 2);
    const MODEL: Parent = Parent::Record(9, 5);
    const PATH: Parent = Parent::Record(10, 5);
    match (parent, id, kind) {
        (_, _, 0) => Some(Doubles),
        // File header: 6 × u32 (version, 2, items, blocks, entities, 0), then a string.
        (Parent::Top, 1, 4) => Some(Container(24)),
        // Palette: one 768-byte string record.
        (Parent::Top, 2, 4) => Some(Container(0)),
        // The root object.
        (Parent::Top, 1, 5) => Some(Container(8)),
        // Objects: u16 type, u16 number of child objects, u32 0.
        (OBJECT, 1, 5) => Some(Container(8)),
        // Level data: u32, u32, u32 sun (30), f32 sun pan, f32 sun tilt.
        (OBJECT, 4, 5) => Some(Container(20)),
        // Block geometry: u32 block index, u32 block flags.
        (OBJECT, 2, 5) => Some(Container(8)),
        // Light data: u32 (2), u32 flags, u32 red, green, blue, f32 range.
        (OBJECT, 7, 5) => Some(Container(24)),
        // Model data: u32 (3), u32 flags, u32 (0x200), u32 ambient, f32 albedo.
        (OBJECT, 9, 5) => Some(Container(20)),
        // Path data: u32 (6), u32 0.
        (OBJECT, 10, 5) => Some(Container(8)),
        (GEOMETRY, 1, 2) => Some(Points),
        (GEOMETRY, 17, 2) => Some(Polygons),
        // Face texture record: u32 face index, u32 flags, u32 ambient, f32 albedo.
        (GEOMETRY, 18, 2) => Some(Container(16)),
        // Texture vectors (8 f64) and offset/rotation/scale (5 f64).
        (FACE, 5 | 9, 2) => Some(Doubles),
        (MODEL, 11, 2) => Some(Counted),
        (PATH, 1, 2) => Some(Points),
        (PATH, 13, 2) => Some(Table),
        (PATH, 15, 2) => Some(Edges),
        _ => None,
    }
}

/// Read a WMPB file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Wmpb> {
    read_with(bytes, &Limits::default())
}

/// Read a WMPB file, refusing anything that would pass `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wmpb> {
    let mut r = ByteReader::new(F, bytes);
    read_magic(&mut r)?;
    let mut ctx = Ctx {
        budget: limits.budget(F),
        records: 0,
    };
    let records = read_records(&mut r, Parent::Top, 0, &mut ctx, "records")?;
    // Without this, a file cut exactly between two top-level records would read.
    if !records.iter().any(|rec| rec.id == 1 && rec.kind == 5) {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(r.offset()),
            format!(
                "the file ends at 0x{:x} after {} top-level records without the root object \
                 (id 1, kind 5)",
                r.offset(),
                records.len()
            ),
        ));
    }
    Ok(Wmpb { records })
}

/// Check the magic.
pub fn read_magic(r: &mut ByteReader<'_>) -> Result<()> {
    let found = r.data().get(..MAGIC.len()).unwrap_or(r.data());
    if found != MAGIC.get(..found.len()).unwrap_or(&[]) {
        return Err(Error::malformed(
            F,
            Location::at(0),
            format!("the file does not start with the magic \"WMPB\" (found {found:02x?})"),
        ));
    }
    r.bytes(MAGIC.len(), "magic").map(|_| ())
}

struct Ctx {
    budget: Budget,
    records: u64,
}

/// A sequence of records filling `r` exactly.
fn read_records(
    r: &mut ByteReader<'_>,
    parent: Parent,
    depth: usize,
    ctx: &mut Ctx,
    name: &str,
) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    while r.remaining() > 0 {
        let index = out.len();
        let record = read_record(r, parent, depth, ctx)
            .map_err(|e| e.in_path(format!("{name}[{index}]")))?;
        out.push(record);
    }
    Ok(out)
}

/// One record: header, then body.
fn read_record(
    r: &mut ByteReader<'_>,
    parent: Parent,
    depth: usize,
    ctx: &mut Ctx,
) -> Result<Record> {
    let at = r.offset();
    ctx.records = ctx.records.saturating_add(1);
    ctx.budget.count(ctx.records, "record", Location::at(at))?;
    ctx.budget
        .charge(size_of::<Record>(), "record", Location::at(at))?;
    let header: [u8; 8] = r.array("record header")?;
    let [id, kind, tag0, tag1, s0, s1, s2, s3] = header;
    let size = u32::from_le_bytes([s0, s1, s2, s3]);
    let Some(len) = size.checked_sub(8) else {
        return Err(Error::malformed(
            F,
            Location::at(at),
            format!(
                "record (id {id}, kind {kind}) at 0x{at:x} has size {size}, less than its own \
                 8-byte header"
            ),
        ));
    };
    let len = len as usize;
    if len > r.remaining() {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(at),
            format!(
                "record (id {id}, kind {kind}) at 0x{at:x} has size {size}, but its parent \
                 ends {} bytes after its start",
                r.remaining().saturating_add(8)
            ),
        ));
    }
    let mut payload = r.sub(len, "record payload")?;
    let body = read_body(&mut payload, parent, id, kind, depth, ctx)?;
    Ok(Record {
        id,
        kind,
        tag: [tag0, tag1],
        size,
        body,
    })
}

/// The body of a record with `id` and `kind` inside `parent`, from exactly its payload.
fn read_body(
    r: &mut ByteReader<'_>,
    parent: Parent,
    id: u8,
    kind: u8,
    depth: usize,
    ctx: &mut Ctx,
) -> Result<Body> {
    let typed = match (kind, layout(parent, id, kind)) {
        (1, _) => read_text(r),
        (3, _) => read_value(r),
        (_, Some(layout)) => read_layout(r, layout, Parent::Record(id, kind), depth, ctx)?,
        _ => None,
    };
    match typed {
        Some(body) => Ok(body),
        None => read_raw(r, ctx),
    }
}

/// The payload as bytes (from the start of the payload, whatever was read before).
fn read_raw(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Body> {
    r.seek(0, "record payload")?;
    ctx.budget
        .charge(r.remaining(), "raw payload", Location::at(r.offset()))?;
    let bytes = r.bytes(r.remaining(), "record payload")?;
    Ok(Body::Raw {
        bytes: Bytes(bytes.to_vec()),
    })
}

/// Kind 1: a string with exactly one NUL, at the end.
fn read_text(r: &mut ByteReader<'_>) -> Option<Body> {
    match r.data().split_last() {
        Some((0, text)) if !text.contains(&0) => Some(Body::Text {
            text: RawString::new(text),
        }),
        _ => None,
    }
}

/// Kind 3: one u32.
fn read_value(r: &mut ByteReader<'_>) -> Option<Body> {
    match *r.data() {
        [a, b, c, d] => Some(Body::Value {
            value: u32::from_le_bytes([a, b, c, d]),
        }),
        _ => None,
    }
}

/// A payload in the form the table expects, or `None` (kept raw) if it does not fit exactly.
/// Only a broken limit is an error.
fn read_layout(
    r: &mut ByteReader<'_>,
    layout: Layout,
    this: Parent,
    depth: usize,
    ctx: &mut Ctx,
) -> Result<Option<Body>> {
    let result = match layout {
        Layout::Container(prefix) => read_container(r, prefix, this, depth, ctx),
        Layout::Doubles => read_doubles(r, ctx).map(|values| Body::Doubles { values }),
        Layout::Points => read_points(r, ctx),
        Layout::Counted => read_counted(r, ctx),
        Layout::Table => read_table(r, ctx),
        Layout::Polygons => read_polygons(r, ctx),
        Layout::Edges => read_edges(r, ctx),
    };
    match result {
        Ok(body) if r.remaining() == 0 => Ok(Some(body)),
        Ok(_) => Ok(None),
        Err(e) if e.kind == ErrorKind::LimitExceeded => Err(e),
        Err(_) => Ok(None),
    }
}

/// A container: the prefix, then child records filling the rest.
fn read_container(
    r: &mut ByteReader<'_>,
    prefix: usize,
    this: Parent,
    depth: usize,
    ctx: &mut Ctx,
) -> Result<Body> {
    let depth = depth.saturating_add(1);
    if depth > ctx.budget.limits().max_depth {
        return Err(r.error(
            ErrorKind::LimitExceeded,
            format!(
                "records nest deeper than the limit of {} at 0x{:x}",
                ctx.budget.limits().max_depth,
                r.offset()
            ),
        ));
    }
    let prefix = r.bytes(prefix, "container prefix")?.to_vec();
    let children = read_records(r, this, depth, ctx, "children")?;
    Ok(Body::Container {
        prefix: Bytes(prefix),
        children,
    })
}

/// A u32 count, checked against the bytes left for items of `size` bytes, and charged.
fn read_count(r: &mut ByteReader<'_>, size: u64, what: &str, ctx: &mut Ctx) -> Result<usize> {
    let at = Location::at(r.offset());
    let n = r.u32_le(what)?;
    let need = r.ensure(u64::from(n), size, what)?;
    let n = ctx.budget.count(u64::from(n), what, at.clone())?;
    ctx.budget.charge(need, what, at)?;
    Ok(n)
}

fn read_f64(r: &mut ByteReader<'_>, what: &str) -> Result<F64> {
    Ok(F64(f64::from_le_bytes(r.array(what)?)))
}

/// f64s filling the payload.
fn read_doubles(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Vec<F64>> {
    if r.remaining() % 8 != 0 {
        return Err(r.error(ErrorKind::Malformed, "not a whole number of f64s"));
    }
    ctx.budget
        .charge(r.remaining(), "doubles", Location::at(r.offset()))?;
    let mut out = Vec::with_capacity(r.remaining() / 8);
    while r.remaining() > 0 {
        out.push(read_f64(r, "double")?);
    }
    Ok(out)
}

fn read_points(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Body> {
    let n = read_count(r, 24, "points", ctx)?;
    let mut points = Vec::with_capacity(n);
    for _ in 0..n {
        points.push([
            read_f64(r, "point")?,
            read_f64(r, "point")?,
            read_f64(r, "point")?,
        ]);
    }
    Ok(Body::Points { points })
}

fn read_counted(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Body> {
    let n = read_count(r, 8, "values", ctx)?;
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        values.push(read_f64(r, "value")?);
    }
    Ok(Body::Counted { values })
}

fn read_table(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Body> {
    let rows = r.u32_le("table rows")?;
    let columns = r.u32_le("table columns")?;
    let cells = u64::from(rows).saturating_mul(u64::from(columns));
    let need = r.ensure(cells, 8, "table cells")?;
    let n = ctx
        .budget
        .count(cells, "table cells", Location::at(r.offset()))?;
    ctx.budget
        .charge(need, "table cells", Location::at(r.offset()))?;
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        values.push(read_f64(r, "table cell")?);
    }
    Ok(Body::Table {
        rows,
        columns,
        values,
    })
}

fn read_polygons(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Body> {
    // Each polygon takes at least its 2-byte count.
    let n = read_count(r, 2, "polygons", ctx)?;
    ctx.budget.charge(
        n.saturating_mul(size_of::<Vec<u16>>()),
        "polygons",
        Location::at(r.offset()),
    )?;
    let mut polygons = Vec::with_capacity(n);
    for _ in 0..n {
        let at = Location::at(r.offset());
        let m = usize::from(r.u16_le("polygon vertex count")?);
        let need = r.ensure(m as u64, 2, "polygon vertex indices")?;
        ctx.budget.charge(need, "polygon", at)?;
        let mut indices = Vec::with_capacity(m);
        for _ in 0..m {
            indices.push(r.u16_le("polygon vertex index")?);
        }
        polygons.push(indices);
    }
    Ok(Body::Polygons { polygons })
}

fn read_edges(r: &mut ByteReader<'_>, ctx: &mut Ctx) -> Result<Body> {
    let n = read_count(r, 40, "edges", ctx)?;
    let mut edges = Vec::with_capacity(n);
    for _ in 0..n {
        let from = r.u32_le("edge")?;
        let to = r.u32_le("edge")?;
        let values = [
            read_f64(r, "edge")?,
            read_f64(r, "edge")?,
            read_f64(r, "edge")?,
            read_f64(r, "edge")?,
        ];
        edges.push(Edge { from, to, values });
    }
    Ok(Body::Edges { edges })
}
