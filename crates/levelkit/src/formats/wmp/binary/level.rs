//! WMPB → the shared [`Level`] model.
//!
//! The object tree becomes the group tree: the root object is group 0 (it holds the level),
//! every `object` is a group numbered in file order (depth first), and blocks and entities
//! belong to the group of the object that holds them. Blocks and entities keep their own
//! transforms (WMPB stores one for each); [`crate::formats::wmp::resolve`] puts them into
//! world coordinates as WED does for `$$M`.
//!
//! Entity fields use the text model's names, so the text writers find them: models `type`
//! (the `$$M` type, 3 or 7), `action` (`ndef` for none), `skills`, `flags` (binary digits as
//! WED writes them, [`flag_string`]), `ambient`, `albedo`, `material` (when present); lights
//! `flags`; paths `node_skills` (edges become 1-based, as text numbers nodes); objects of an
//! unknown class `keyword`. Faces get their flags, ambient and albedo from the face record
//! and material `ndef`; blocks their flags from the geometry prefix and function `ndef`
//! (WMPB stores neither material nor function). Sun colour, ambient colour and the four fog
//! colours become [`Settings::colors`] (0–100) in that order.

use serde_json::{Map, Value, json};

use super::model::Wmpb;
use super::view::{ObjectRef, PathData};
use crate::error::{Location, Warning};
use crate::formats::wmp::level::*;
use crate::registry::Format;

const F: Format = Format::Wmpb;

/// Flags as WED writes them in text: binary digits, bit 31 first, 4 digits when the value fits
/// in 4 bits, else 16 when it fits in 16, else 32 (*verified* on model flags against `$$M`:
/// 0 is `0000`, 0x200 `0000001000000000`, 0x4000000 a 32-digit string; the manual's locked
/// block is `00000000000000010000000000000000`).
pub fn flag_string(value: u32) -> String {
    let digits = if value < 1 << 4 {
        4
    } else if value < 1 << 16 {
        16
    } else {
        32
    };
    format!("{value:0digits$b}")
}

/// The level: see the module docs. Anything missing or kept raw is reported.
pub fn to_level(wmpb: &Wmpb) -> (Level, Vec<Warning>) {
    let mut cx = Conv {
        level: Level::default(),
        warnings: Vec::new(),
    };
    cx.level.settings.wad = wmpb.wad();
    match wmpb.root() {
        Some(root) => cx.group(root, None, "root".to_owned()),
        None => cx.warn("root", "the file has no root object"),
    }
    (cx.level, cx.warnings)
}

struct Conv {
    level: Level,
    warnings: Vec<Warning>,
}

impl Conv {
    fn warn(&mut self, path: &str, message: impl Into<String>) {
        self.warnings
            .push(Warning::warning(F, Location::path(path), message));
    }

    /// A group object (the root or an `object`) and everything under it.
    fn group(&mut self, obj: ObjectRef<'_>, parent: Option<usize>, path: String) {
        let g = self.level.groups.len();
        let class = obj.class();
        let holds_level = class.as_deref() == Some("level");
        self.level.groups.push(Group {
            name: obj.name(),
            transform: obj.transform(),
            holds_level,
            ..Group::default()
        });
        if let Some(p) = parent.and_then(|p| self.level.groups.get_mut(p)) {
            p.groups.push(g);
        }
        if holds_level {
            self.settings(obj, &path);
        }
        for (i, child) in obj.objects().enumerate() {
            let path = format!("{path}.objects[{i}]");
            match child.class().as_deref() {
                Some("object") => self.group(child, Some(g), path),
                Some("block") => self.block(child, g, &path),
                Some("level") => {
                    self.warn(&path, "a second level object; read as a group");
                    self.group(child, Some(g), path);
                }
                _ => self.entity(child, g, &path),
            }
        }
    }

    fn settings(&mut self, obj: ObjectRef<'_>, path: &str) {
        let Some(data) = obj.level_data() else {
            self.warn(path, "the level object has no readable level data (id 4)");
            return;
        };
        let s = &mut self.level.settings;
        s.palette = data.palette;
        s.script = data.script.filter(|t| t != "ndef");
        s.sun = data.sun.to_vec();
        let percent = |c: [u8; 3]| c.map(|v| f64::from(v) * 100.0 / 255.0);
        let mut fog: Vec<(u8, [u8; 3])> = data.fog_colors;
        fog.sort_by_key(|(i, _)| *i);
        if let (Some(sun), Some(ambient)) = (data.sun_color, data.ambient_color) {
            s.colors.push(percent(sun));
            s.colors.push(percent(ambient));
            s.colors.extend(fog.iter().map(|(_, c)| percent(*c)));
        } else {
            self.warn(path, "the level data lacks the sun or ambient colour");
        }
    }

    fn block(&mut self, obj: ObjectRef<'_>, group: usize, path: &str) {
        let index = self.level.blocks.len();
        let Some(geo) = obj.geometry() else {
            self.warn(
                path,
                "a block without readable geometry (id 2); kept as an empty block",
            );
            self.push_block(
                Block {
                    transform: obj.transform(),
                    flags: flag_string(0),
                    function: "ndef".to_owned(),
                    group: Some(group),
                    ..Block::default()
                },
                group,
            );
            return;
        };
        if geo.index as usize != index {
            self.warn(
                path,
                format!("block number {} is block {index} in file order", geo.index),
            );
        }
        if geo.faces.len() != geo.polygons.len() {
            self.warn(
                path,
                format!(
                    "{} polygons but {} face texture records",
                    geo.polygons.len(),
                    geo.faces.len()
                ),
            );
        }
        let mut faces = Vec::with_capacity(geo.polygons.len());
        for (k, polygon) in geo.polygons.iter().enumerate() {
            let tex = geo.faces.get(k);
            if tex.is_none_or(|t| !t.complete || t.index as usize != k) {
                self.warn(
                    &format!("{path}.faces[{k}]"),
                    "missing or incomplete face texture record",
                );
            }
            faces.push(Face {
                indices: polygon.iter().map(|&i| u32::from(i)).collect(),
                texture: tex.and_then(|t| t.texture.clone()).unwrap_or_default(),
                texture_vectors: tex.and_then(|t| t.vectors),
                texture_transform: tex.and_then(|t| t.transform),
                flags: flag_string(tex.map_or(0, |t| t.flags)),
                ambient: f64::from(tex.map_or(0, |t| t.ambient)),
                albedo: f64::from(tex.map_or(50.0, |t| t.albedo)),
                material: "ndef".to_owned(),
                uvs: None,
            });
        }
        self.push_block(
            Block {
                transform: obj.transform(),
                vertices: geo.vertices,
                faces,
                flags: flag_string(geo.flags),
                function: "ndef".to_owned(),
                group: Some(group),
            },
            group,
        );
    }

    fn push_block(&mut self, block: Block, group: usize) {
        let index = self.level.blocks.len();
        self.level.blocks.push(block);
        if let Some(g) = self.level.groups.get_mut(group) {
            g.blocks.push(index);
        }
    }

    fn entity(&mut self, obj: ObjectRef<'_>, group: usize, path: &str) {
        let class = obj.class().unwrap_or_default();
        let mut fields = Map::new();
        let mut entity = Entity {
            kind: EntityKind::Other,
            // The level is entity 0.
            number: u32::try_from(self.level.entities.len().saturating_add(1)).unwrap_or(u32::MAX),
            name: obj.name(),
            file: None,
            transform: obj.transform(),
            light: None,
            path_nodes: Vec::new(),
            path_edges: Vec::new(),
            fields: Map::new(),
            group: Some(group),
        };
        match class.as_str() {
            "model" => {
                entity.kind = EntityKind::Model;
                match obj.model() {
                    Some(m) => {
                        // The `$$M` type: 7 (20 skills, albedo, two more numbers, material)
                        // for object type 0x245, 3 (8 skills) otherwise; verified on every
                        // model of both pairs.
                        let extended = obj.type_code() == Some(0x245);
                        fields.insert("type".into(), json!(if extended { 7 } else { 3 }));
                        fields.insert(
                            "action".into(),
                            json!(m.action.unwrap_or_else(|| "ndef".to_owned())),
                        );
                        fields.insert("skills".into(), json!(m.skills));
                        fields.insert("flags".into(), json!(flag_string(m.flags)));
                        fields.insert("ambient".into(), json!(m.ambient));
                        fields.insert("albedo".into(), json!(f64::from(m.albedo)));
                        if let Some(material) = m.material {
                            fields.insert("material".into(), json!(material));
                        }
                        entity.file = m.file;
                        if entity.name.is_none() {
                            entity.name = m.name;
                        }
                    }
                    None => self.warn(path, "a model without readable model data (id 9)"),
                }
            }
            "light" => {
                entity.kind = EntityKind::Light;
                match obj.light() {
                    Some(l) => {
                        let c = l.color.map(|v| f64::from(v) * 100.0 / 255.0);
                        entity.light = Some((c, f64::from(l.range)));
                        fields.insert("flags".into(), json!(flag_string(l.flags)));
                    }
                    None => self.warn(path, "a light without readable light data (id 7)"),
                }
            }
            "path" => {
                entity.kind = EntityKind::Path;
                match obj.path() {
                    Some(p) => self.path(&mut entity, &mut fields, p, path),
                    None => self.warn(path, "a path without readable path data (id 10)"),
                }
            }
            "start" | "sound" => {
                entity.kind = if class == "start" {
                    EntityKind::Start
                } else {
                    EntityKind::Sound
                };
                self.warn(
                    path,
                    format!("{class} data is not decoded (no sample); its records are kept raw"),
                );
            }
            _ => {
                // The text model's name for the keyword of a record it does not know.
                fields.insert("keyword".into(), json!(class));
                self.warn(
                    path,
                    format!("unknown object class {class:?}; read as an entity of kind other"),
                );
            }
        }
        if obj.objects().next().is_some() {
            self.warn(
                path,
                "an entity object with child objects; they are read as its siblings",
            );
        }
        entity.fields = fields;
        let index = self.level.entities.len();
        self.level.entities.push(entity);
        if let Some(g) = self.level.groups.get_mut(group) {
            g.entities.push(index);
        }
        for (i, child) in obj.objects().enumerate() {
            let path = format!("{path}.objects[{i}]");
            match child.class().as_deref() {
                Some("object") => self.group(child, Some(group), path),
                Some("block") => self.block(child, group, &path),
                _ => self.entity(child, group, &path),
            }
        }
    }

    fn path(
        &mut self,
        entity: &mut Entity,
        fields: &mut Map<String, Value>,
        p: PathData,
        at: &str,
    ) {
        if entity.name.is_none() {
            entity.name = p.name;
        }
        let n = p.nodes.len();
        entity.path_nodes = p.nodes;
        // Text and `$$M` number nodes from 1.
        entity.path_edges = p
            .edges
            .iter()
            .map(|e| {
                let mut row = vec![f64::from(e.from) + 1.0, f64::from(e.to) + 1.0];
                row.extend(e.values.iter().map(|v| v.0));
                row
            })
            .collect();
        if p.edges
            .iter()
            .any(|e| e.from as usize >= n || e.to as usize >= n)
        {
            self.warn(at, "a path edge names a node the path does not have");
        }
        fields.insert("node_skills".into(), json!(p.skills));
    }
}
