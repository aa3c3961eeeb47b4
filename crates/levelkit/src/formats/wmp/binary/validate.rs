//! Checks of a WMPB model, each finding with the path of its record (`records[3].children[7]`,
//! the same paths read errors carry).
//!
//! Errors (the file is unusable): no root object, a face naming a vertex its block does not
//! have. Warnings: header bytes other than `[kind + 1, 0]`, a size field that disagrees with
//! the record, records kept raw where the layout table expects a form, unknown records, header
//! counts that disagree with the objects, and incomplete blocks.

use super::model::*;
use super::read::{Parent, layout};
use super::view::ObjectRef;
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Wmpb;

/// Every finding, in file order.
pub fn validate(wmpb: &Wmpb) -> Vec<Warning> {
    let mut out = Vec::new();
    for (i, record) in wmpb.records.iter().enumerate() {
        check_record(record, Parent::Top, &format!("records[{i}]"), &mut out);
    }
    match wmpb.root() {
        None => out.push(Warning::error(
            F,
            Location::path("records"),
            "no root object (top-level id 1, kind 5)",
        )),
        Some(root) => {
            let root_index = wmpb
                .records
                .iter()
                .position(|r| r.id == 1 && r.kind == 5)
                .unwrap_or(0);
            let mut counts = Counts::default();
            check_object(
                root,
                &format!("records[{root_index}]"),
                &mut counts,
                &mut out,
            );
            check_header(wmpb, &counts, &mut out);
        }
    }
    out
}

fn warn(out: &mut Vec<Warning>, path: &str, message: impl Into<String>) {
    out.push(Warning::warning(F, Location::path(path), message));
}

/// Header bytes, size field, and raw bodies, for a record and its children.
fn check_record(record: &Record, parent: Parent, path: &str, out: &mut Vec<Warning>) {
    if record.tag != [record.kind.wrapping_add(1), 0] {
        warn(
            out,
            path,
            format!(
                "header bytes 2 and 3 are {:02x} {:02x}, not kind + 1 and 0",
                record.tag[0], record.tag[1]
            ),
        );
    }
    if u64::from(record.size) != record.encoded_len() {
        warn(
            out,
            path,
            format!(
                "size field {} but the record is {} bytes (written with the latter)",
                record.size,
                record.encoded_len()
            ),
        );
    }
    if let Body::Raw { bytes } = &record.body {
        let palette = parent == Parent::Record(2, 4) && record.kind == 1;
        let expected =
            layout(parent, record.id, record.kind).is_some() || matches!(record.kind, 1 | 3);
        if expected && !palette {
            warn(
                out,
                path,
                format!(
                    "record (id {}, kind {}) of {} bytes does not have the expected form; kept raw",
                    record.id,
                    record.kind,
                    bytes.0.len()
                ),
            );
        } else if !palette {
            warn(
                out,
                path,
                format!(
                    "unknown record (id {}, kind {}) of {} bytes kept raw",
                    record.id,
                    record.kind,
                    bytes.0.len()
                ),
            );
        }
    }
    let this = Parent::Record(record.id, record.kind);
    for (i, child) in record.children().iter().enumerate() {
        check_record(child, this, &format!("{path}.children[{i}]"), out);
    }
}

#[derive(Default)]
struct Counts {
    blocks: u64,
    entities: u64,
    groups: u64,
}

/// An object and its child objects: class-specific checks.
fn check_object(obj: ObjectRef<'_>, path: &str, counts: &mut Counts, out: &mut Vec<Warning>) {
    let class = obj.class();
    match class.as_deref() {
        Some("level") => counts.entities = counts.entities.saturating_add(1),
        Some("object") => counts.groups = counts.groups.saturating_add(1),
        Some("block") => {
            counts.blocks = counts.blocks.saturating_add(1);
            check_block(obj, path, out);
        }
        Some(_) => counts.entities = counts.entities.saturating_add(1),
        None => warn(out, path, "an object without a class string (id 2)"),
    }
    for (id, what) in [(1, "position"), (3, "angles"), (5, "scale")] {
        if obj.record().child(id, 0).and_then(Record::vec3).is_none() {
            warn(out, path, format!("no {what} (3 doubles, id {id})"));
        }
    }
    let objects: Vec<(usize, &Record)> = obj
        .record()
        .children()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.id == 1 && c.kind == 5)
        .collect();
    if let Some(declared) = obj.declared_objects() {
        if usize::from(declared) != objects.len() {
            warn(
                out,
                path,
                format!(
                    "the prefix declares {declared} child objects, {} follow",
                    objects.len()
                ),
            );
        }
    }
    for (i, child) in objects {
        check_object(
            ObjectRef(child),
            &format!("{path}.children[{i}]"),
            counts,
            out,
        );
    }
}

fn check_block(obj: ObjectRef<'_>, path: &str, out: &mut Vec<Warning>) {
    let Some(geo) = obj.geometry() else {
        warn(
            out,
            path,
            "a block without readable geometry (container id 2)",
        );
        return;
    };
    let n = geo.vertices.len();
    for (k, polygon) in geo.polygons.iter().enumerate() {
        if polygon.len() < 3 {
            warn(
                out,
                path,
                format!("face {k} has {} vertices", polygon.len()),
            );
        }
        if let Some(&bad) = polygon.iter().find(|&&i| usize::from(i) >= n) {
            out.push(Warning::error(
                F,
                Location::path(path),
                format!("face {k} names vertex {bad}, but the block has {n}"),
            ));
        }
    }
    if geo.faces.len() != geo.polygons.len() {
        warn(
            out,
            path,
            format!(
                "{} faces but {} face texture records",
                geo.polygons.len(),
                geo.faces.len()
            ),
        );
    }
    for (k, face) in geo.faces.iter().enumerate() {
        if !face.complete {
            warn(out, path, format!("face texture record {k} is incomplete"));
        } else if face.index as usize != k {
            warn(
                out,
                path,
                format!("face texture record {k} has index {}", face.index),
            );
        }
    }
}

fn check_header(wmpb: &Wmpb, counts: &Counts, out: &mut Vec<Warning>) {
    let path = "records[0]";
    let Some(h) = wmpb.header() else {
        warn(
            out,
            path,
            "no readable file header (top-level id 1, kind 4)",
        );
        return;
    };
    if h.version != 710 {
        warn(
            out,
            path,
            format!("version {}; only 710 is known", h.version),
        );
    }
    let checks = [
        ("blocks", u64::from(h.blocks), counts.blocks),
        ("entities", u64::from(h.entities), counts.entities),
        (
            "items",
            u64::from(h.items),
            counts
                .blocks
                .saturating_add(counts.entities)
                .saturating_add(counts.groups),
        ),
    ];
    for (what, declared, found) in checks {
        if declared != found {
            warn(
                out,
                path,
                format!("the header counts {declared} {what}, the objects {found}"),
            );
        }
    }
}
