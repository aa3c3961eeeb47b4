//! Between the lossless text model and the meaning ([`Level`]).
//!
//! [`to_level`] keeps every value; what [`Level`] has no field for goes into
//! [`Entity::fields`] under the names listed on [`to_level`]. [`from_level`] reads the same names
//! back, so `from_level(to_level(x))` stands for the same level (the layout, comments and number
//! spellings are canonical again).

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::model::*;
use crate::error::{Error, Location, Result, Warning};
use crate::formats::wmp::level::{self, Entity, EntityKind, Level, Transform};
use crate::registry::Format;

fn format_of(d: Dialect) -> Format {
    if d.is_dollar_m() {
        Format::DollarM
    } else {
        Format::WmpText
    }
}

/// A file name without the `<…>` of the text dialects.
pub fn strip_angles(s: &str) -> &str {
    s.strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(s)
}

fn values4(v: &[Num; 4]) -> [f64; 4] {
    [v[0].value(), v[1].value(), v[2].value(), v[3].value()]
}

fn values(v: &[Num]) -> Vec<f64> {
    v.iter().map(Num::value).collect()
}

fn json_nums(v: &[Num]) -> Value {
    Value::Array(v.iter().map(|n| Value::from(n.value())).collect())
}

fn json_lines(v: &[Vec<Num>]) -> Value {
    Value::Array(v.iter().map(|l| json_nums(l)).collect())
}

fn json_strings(v: &[String]) -> Value {
    Value::Array(v.iter().map(|s| Value::from(s.as_str())).collect())
}

fn face_to_level(f: &Face) -> level::Face {
    level::Face {
        indices: f.indices.clone(),
        texture: f.texture.clone(),
        texture_vectors: f.vectors.as_ref().map(|[a, b]| [values4(a), values4(b)]),
        uvs: f.uvs.as_ref().map(|uvs| {
            uvs.chunks(2)
                .map(|c| {
                    [
                        c.first().map_or(0.0, Num::value),
                        c.get(1).map_or(0.0, Num::value),
                    ]
                })
                .collect()
        }),
        texture_transform: f.transform.as_ref().map(|t| {
            [
                t[0].value(),
                t[1].value(),
                t[2].value(),
                t[3].value(),
                t[4].value(),
            ]
        }),
        flags: f.flags.clone(),
        ambient: f.ambient.value(),
        albedo: f.albedo.value(),
        material: f.material.clone(),
    }
}

fn block_to_level(b: &Block) -> level::Block {
    level::Block {
        transform: Transform::IDENTITY,
        vertices: b.vertices.iter().map(values3).collect(),
        faces: b.faces.iter().map(face_to_level).collect(),
        flags: b.flags.clone(),
        function: b.function.clone(),
        group: None,
    }
}

fn entity(kind: EntityKind, number: u32) -> Entity {
    Entity {
        kind,
        number,
        name: None,
        file: None,
        transform: Transform::IDENTITY,
        light: None,
        path_nodes: Vec::new(),
        path_edges: Vec::new(),
        fields: Map::new(),
        group: None,
    }
}

fn put(fields: &mut Map<String, Value>, key: &str, value: impl Into<Value>) {
    fields.insert(key.to_owned(), value.into());
}

/// The comment on a header line goes into `fields["comment"]` only when it is not the name
/// (ACKWED 5 writes the name there).
fn put_comment(e: &mut Entity, comment: &Option<String>) {
    if let Some(c) = comment
        && e.name.as_deref() != Some(c.as_str())
    {
        put(&mut e.fields, "comment", c.as_str());
    }
}

fn put_extra(fields: &mut Map<String, Value>, extra: &[String]) {
    if !extra.is_empty() {
        put(fields, "extra", json_strings(extra));
    }
}

/// The meaning of a file.
///
/// * Text dialects: blocks as written (A4 blocks have no vertices and faces no indices: their
///   geometry is the planes of [`WmpText::planes`]); the `level` record becomes
///   [`Level::settings`]; every other entity record an [`Entity`] numbered as in the file, with
///   an identity transform except a model's own scale; groups with their transforms in radians,
///   members resolved from numbers to indices, and [`level::Block::group`] /
///   [`Entity::group`] set from them.
/// * `$$M`: [`Level::angles_in_degrees`], no groups; the blocks of the level record, the sun
///   record as [`level::Settings::sun`], every other record an [`Entity`] numbered by its
///   record index with its world transform.
///
/// [`Entity::fields`] holds, by kind: start `comment`, `extra`; light `flags`, `extra`;
/// sound `flags`, `volume`, `pitch`, `time`, `range`, `extra`; model `type` (`$$M`), `action`,
/// `skills`, `flags`, `ambient`, `albedo`, `path`, `attach`, `material`, `name2`, `string1`,
/// `string2`, `comment`, `extra`; path `triplets` (T), `unknown` (v510), `node_skills`,
/// `comment`; other records `keyword` or `type`, `tokens`. Numbers are JSON numbers, flags and
/// names strings.
///
/// Warnings: group members that do not exist or name the wrong kind, blocks and entities in two
/// groups, a second level or sun record.
pub fn to_level(t: &WmpText) -> (Level, Vec<Warning>) {
    let mut level = Level {
        angles_in_degrees: t.dialect.is_dollar_m(),
        ..Level::default()
    };
    let mut warnings = Vec::new();
    let format = format_of(t.dialect);
    let mut warn = |i: usize, message: String| {
        warnings.push(Warning::warning(
            format,
            Location::path(format!("records[{i}]")),
            message,
        ));
    };
    let mut settings_seen = false;
    let mut sun_seen = false;
    // Text: (keyword, number) of each entity, for group members.
    let mut entity_keys: Vec<(String, u32)> = Vec::new();
    for (i, r) in t.records.iter().enumerate() {
        let number = u32::try_from(i).unwrap_or(u32::MAX);
        let e = match r {
            Record::Block(b) => {
                level.blocks.push(block_to_level(b));
                continue;
            }
            Record::Group(_) => continue,
            Record::Level(l) => {
                if settings_seen {
                    warn(i, "a second level record; its settings are ignored".into());
                    continue;
                }
                settings_seen = true;
                let s = &mut level.settings;
                s.wad = Some(strip_angles(&l.wad).to_owned());
                s.palette = Some(strip_angles(&l.palette).to_owned());
                let script = strip_angles(&l.script);
                s.script = (script != "ndef").then(|| script.to_owned());
                s.sun = values(&l.sun);
                s.colors = l.colors.iter().map(values3).collect();
                entity_keys.push(("level".into(), l.number));
                continue;
            }
            Record::MLevel(l) => {
                if settings_seen {
                    warn(
                        i,
                        "a second level record; its blocks are kept, its names are not".into(),
                    );
                } else {
                    settings_seen = true;
                    level.settings.wad = Some(l.wad.clone());
                    level.settings.palette = Some(l.palette.clone());
                }
                level.blocks.extend(l.blocks.iter().map(block_to_level));
                continue;
            }
            Record::MSun(s) => {
                if sun_seen {
                    warn(i, "a second sun record is ignored".into());
                } else {
                    sun_seen = true;
                    level.settings.sun = values(&s.values);
                }
                continue;
            }
            Record::Start(s) => {
                let mut e = entity(EntityKind::Start, s.number);
                e.name = Some(s.name.clone());
                put_comment(&mut e, &s.comment);
                put_extra(&mut e.fields, &s.extra);
                e
            }
            Record::Light(l) => {
                let mut e = entity(EntityKind::Light, l.number);
                e.light = Some((values3(&l.color), l.range.value()));
                if let Some(f) = &l.flags {
                    put(&mut e.fields, "flags", f.as_str());
                }
                put_comment(&mut e, &l.comment);
                put_extra(&mut e.fields, &l.extra);
                e
            }
            Record::Sound(s) => {
                let mut e = entity(EntityKind::Sound, s.number);
                e.file = Some(strip_angles(&s.file).to_owned());
                put(&mut e.fields, "flags", s.flags.as_str());
                for (key, v) in ["volume", "pitch", "time", "range"].iter().zip(&s.values) {
                    put(&mut e.fields, key, v.value());
                }
                put_comment(&mut e, &s.comment);
                put_extra(&mut e.fields, &s.extra);
                e
            }
            Record::Model(m) => {
                let mut e = entity(EntityKind::Model, m.number);
                e.name = Some(m.name.clone());
                e.file = Some(strip_angles(&m.file).to_owned());
                e.transform.scale = values3(&m.scale);
                let f = &mut e.fields;
                put(f, "action", m.action.as_str());
                put(f, "skills", json_nums(&m.skills));
                put(f, "flags", m.flags.as_str());
                put(f, "ambient", m.ambient.value());
                if let Some(a) = &m.albedo {
                    put(f, "albedo", a.value());
                }
                if let Some(s) = &m.material {
                    put(f, "material", s.as_str());
                }
                if let Some(s) = &m.name2 {
                    put(f, "name2", s.as_str());
                }
                put_extra(f, &m.extra);
                put_comment(&mut e, &m.comment);
                e
            }
            Record::Path(p) => {
                let mut e = entity(EntityKind::Path, p.number);
                e.name = Some(p.name.clone());
                e.path_nodes = p.positions.iter().map(values3).collect();
                e.path_edges = p.edges.iter().map(|l| values(l)).collect();
                if let Some(t) = &p.triplets {
                    put(&mut e.fields, "triplets", t.value());
                }
                if let Some(u) = &p.unknown {
                    put(&mut e.fields, "unknown", u.value());
                }
                if !p.skills.is_empty() {
                    put(&mut e.fields, "node_skills", json_lines(&p.skills));
                }
                put_comment(&mut e, &p.comment);
                e
            }
            Record::Other(o) => {
                let mut e = entity(EntityKind::Other, o.number.unwrap_or(number));
                put(&mut e.fields, "keyword", o.keyword.as_str());
                put(&mut e.fields, "tokens", json_strings(&o.tokens));
                if let Some(c) = &o.comment {
                    put(&mut e.fields, "comment", c.as_str());
                }
                e
            }
            Record::MModel(m) => {
                let mut e = entity(EntityKind::Model, number);
                e.name = Some(m.name.clone());
                e.file = Some(m.file.clone());
                e.transform = Transform {
                    position: values3(&m.position),
                    angles: values3(&m.angles),
                    scale: values3(&m.scale),
                };
                let f = &mut e.fields;
                put(f, "type", m.type_id);
                put(f, "action", m.action.as_str());
                put(f, "skills", json_nums(&m.skills));
                put(f, "flags", m.flags.as_str());
                put(f, "ambient", m.ambient.value());
                for (key, v) in [
                    ("albedo", &m.albedo),
                    ("path", &m.path),
                    ("attach", &m.attach),
                ] {
                    if let Some(v) = v {
                        put(f, key, v.value());
                    }
                }
                for (key, v) in [
                    ("material", &m.material),
                    ("string1", &m.string1),
                    ("string2", &m.string2),
                ] {
                    if let Some(v) = v {
                        put(f, key, v.as_str());
                    }
                }
                put_extra(f, &m.extra);
                e
            }
            Record::MLight(l) => {
                let mut e = entity(EntityKind::Light, number);
                e.transform.position = values3(&l.position);
                e.transform.angles = values3(&l.angles);
                e.light = Some((values3(&l.color), l.range.value()));
                if let Some(f) = &l.flags {
                    put(&mut e.fields, "flags", f.as_str());
                }
                put_extra(&mut e.fields, &l.extra);
                e
            }
            Record::MPath(p) => {
                let mut e = entity(EntityKind::Path, number);
                e.name = Some(p.name.clone());
                e.path_nodes = p.positions.iter().map(values3).collect();
                e.path_edges = p.edges.iter().map(|l| values(l)).collect();
                put(&mut e.fields, "triplets", p.triplets.value());
                put(&mut e.fields, "node_skills", json_lines(&p.skills));
                e
            }
            Record::MStart(s) => {
                let mut e = entity(EntityKind::Start, number);
                e.name = Some(s.name.clone());
                e.transform.position = values3(&s.position);
                e.transform.angles = values3(&s.angles);
                put_extra(&mut e.fields, &s.extra);
                e
            }
            Record::MOther(o) => {
                let mut e = entity(EntityKind::Other, number);
                put(&mut e.fields, "type", o.type_id);
                put(&mut e.fields, "tokens", json_strings(&o.tokens));
                e
            }
        };
        entity_keys.push((r.kind().to_owned(), e.number));
        level.entities.push(e);
    }
    if !t.dialect.is_dollar_m() {
        groups_to_level(t, &mut level, &entity_keys, &mut warnings);
    }
    if t.dialect == Dialect::A4 && !level.blocks.is_empty() {
        warnings.push(Warning::warning(
            format,
            Location::default(),
            "A4 blocks are given by face planes: their vertices are not in the level (intersect \
             the planes of WmpText::planes)",
        ));
    }
    (level, warnings)
}

/// Groups with members resolved to indices; [`level::Block::group`] and [`Entity::group`].
fn groups_to_level(
    t: &WmpText,
    level: &mut Level,
    entity_keys: &[(String, u32)],
    warnings: &mut Vec<Warning>,
) {
    let format = format_of(t.dialect);
    let mut group_of: HashMap<u32, usize> = HashMap::new();
    let mut block_of: HashMap<u32, usize> = HashMap::new();
    // number → (keyword, index into level.entities, or None for the level entity)
    let mut entity_of: HashMap<u32, (&str, Option<usize>)> = HashMap::new();
    let mut next_entity = 0usize;
    for (key, number) in entity_keys {
        let index = if key == "level" {
            None
        } else {
            let i = next_entity;
            next_entity = next_entity.saturating_add(1);
            Some(i)
        };
        entity_of.entry(*number).or_insert((key.as_str(), index));
    }
    let mut block_index = 0usize;
    for r in &t.records {
        match r {
            Record::Block(b) => {
                if let Some(n) = b.number {
                    block_of.entry(n).or_insert(block_index);
                }
                block_index = block_index.saturating_add(1);
            }
            Record::Group(g) => {
                let i = level.groups.len();
                group_of.entry(g.number).or_insert(i);
                level.groups.push(level::Group {
                    name: g.name.clone(),
                    transform: Transform {
                        position: values3(&g.position),
                        angles: values3(&g.angles),
                        scale: values3(&g.scale),
                    },
                    ..level::Group::default()
                });
            }
            _ => {}
        }
    }
    let mut gi = 0usize;
    for (ri, r) in t.records.iter().enumerate() {
        let Record::Group(g) = r else { continue };
        let this = gi;
        gi = gi.saturating_add(1);
        for (mi, m) in g.members.iter().enumerate() {
            let at = || Location::path(format!("records[{ri}].members[{mi}]"));
            for &id in &m.ids {
                let mut warn = |msg: String| warnings.push(Warning::warning(format, at(), msg));
                match m.kind.as_str() {
                    "object" => match group_of.get(&id) {
                        Some(&child) => {
                            if let Some(grp) = level.groups.get_mut(this) {
                                grp.groups.push(child);
                            }
                        }
                        None => warn(format!(
                            "group {} lists object {id}, which does not exist",
                            g.number
                        )),
                    },
                    "block" => match block_of.get(&id) {
                        Some(&b) => {
                            if let Some(grp) = level.groups.get_mut(this) {
                                grp.blocks.push(b);
                            }
                            if let Some(block) = level.blocks.get_mut(b) {
                                match block.group {
                                    None => block.group = Some(this),
                                    Some(other) => warn(format!(
                                        "block {id} is also in group {other}; the first group holds it"
                                    )),
                                }
                            }
                        }
                        None => warn(format!(
                            "group {} lists block {id}, which does not exist",
                            g.number
                        )),
                    },
                    kind => match entity_of.get(&id) {
                        Some(&(key, index)) if key == kind => match index {
                            None => {
                                if let Some(grp) = level.groups.get_mut(this) {
                                    grp.holds_level = true;
                                }
                            }
                            Some(e) => {
                                if let Some(grp) = level.groups.get_mut(this) {
                                    grp.entities.push(e);
                                }
                                if let Some(ent) = level.entities.get_mut(e) {
                                    match ent.group {
                                        None => ent.group = Some(this),
                                        Some(other) => warn(format!(
                                            "{kind} {id} is also in group {other}; the first group \
                                             holds it"
                                        )),
                                    }
                                }
                            }
                        },
                        Some(&(key, _)) => warn(format!(
                            "group {} lists {kind} {id}, but entity {id} is a {key}",
                            g.number
                        )),
                        None => warn(format!(
                            "group {} lists {kind} {id}, which does not exist",
                            g.number
                        )),
                    },
                }
            }
        }
    }
}

/// Reads [`Entity::fields`] back, noting which were used.
struct Fields<'e> {
    map: &'e Map<String, Value>,
    used: Vec<&'static str>,
}

impl<'e> Fields<'e> {
    fn new(map: &'e Map<String, Value>) -> Self {
        Fields {
            map,
            used: Vec::new(),
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'e Value> {
        self.used.push(key);
        self.map.get(key)
    }

    fn num(&mut self, key: &'static str) -> Option<Num> {
        self.get(key).and_then(Value::as_f64).map(Num::new)
    }

    fn string(&mut self, key: &'static str) -> Option<String> {
        self.get(key).and_then(Value::as_str).map(str::to_owned)
    }

    fn nums(&mut self, key: &'static str) -> Option<Vec<Num>> {
        self.get(key).and_then(Value::as_array).map(|a| {
            a.iter()
                .map(|v| Num::new(v.as_f64().unwrap_or(0.0)))
                .collect()
        })
    }

    fn lines(&mut self, key: &'static str) -> Option<Vec<Vec<Num>>> {
        self.get(key).and_then(Value::as_array).map(|a| {
            a.iter()
                .map(|l| {
                    l.as_array()
                        .map(|l| {
                            l.iter()
                                .map(|v| Num::new(v.as_f64().unwrap_or(0.0)))
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
    }

    fn strings(&mut self, key: &'static str) -> Vec<String> {
        self.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Warn about fields nothing used.
    fn leftovers(&self, format: Format, at: &str, out: &mut Vec<Warning>) {
        for key in self.map.keys() {
            if !self.used.contains(&key.as_str()) {
                out.push(Warning::warning(
                    format,
                    Location::path(at.to_owned()),
                    format!("field {key:?} has no place in this dialect; it is dropped"),
                ));
            }
        }
    }
}

fn radians(v: [f64; 3], degrees: bool) -> [f64; 3] {
    if degrees { v.map(f64::to_radians) } else { v }
}

/// Texture vectors for a face without any: the axis-aligned projection WED uses for an
/// untransformed face, chosen by the face normal's largest component.
fn default_vectors(vertices: &[[f64; 3]], indices: &[u32]) -> [[f64; 4]; 2] {
    let at = |k: usize| {
        indices
            .get(k)
            .and_then(|&i| vertices.get(usize::try_from(i).ok()?))
            .copied()
            .unwrap_or([0.0; 3])
    };
    let (a, b, c) = (at(0), at(1), at(2));
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        (u[1] * v[2] - u[2] * v[1]).abs(),
        (u[2] * v[0] - u[0] * v[2]).abs(),
        (u[0] * v[1] - u[1] * v[0]).abs(),
    ];
    if n[0] >= n[1] && n[0] >= n[2] {
        [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]
    } else if n[1] >= n[2] {
        [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]
    } else {
        [[1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0]]
    }
}

fn num4(v: [f64; 4]) -> [Num; 4] {
    v.map(Num::new)
}

/// The longest texture name `$$M` holds (the WAD entry-name limit, notes §3).
pub const DOLLAR_M_TEXTURE_LEN: usize = 15;

struct Builder<'l> {
    level: &'l Level,
    dialect: Dialect,
    format: Format,
    warnings: Vec<Warning>,
}

impl Builder<'_> {
    fn warn(&mut self, at: String, message: String) {
        self.warnings
            .push(Warning::warning(self.format, Location::path(at), message));
    }

    fn block(&mut self, i: usize, b: &level::Block, number: Option<u32>) -> Result<Block> {
        let at = format!("blocks[{i}]");
        if !b.transform.is_identity() {
            return Err(Error::unsupported(
                self.format,
                Location::path(at),
                "the block has a transform of its own; resolve it into its vertices first",
            ));
        }
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        let mut out = Block {
            number,
            vertices: b.vertices.iter().map(|v| nums3(*v)).collect(),
            flags: b.flags.clone(),
            function: b.function.clone(),
            index: Some(index),
            ..Block::default()
        };
        for (fi, f) in b.faces.iter().enumerate() {
            let vectors = match f.texture_vectors {
                Some(v) => v,
                None => {
                    self.warn(
                        format!("{at}.faces[{fi}]"),
                        "no texture vectors; wrote the axis-aligned default".into(),
                    );
                    default_vectors(&b.vertices, &f.indices)
                }
            };
            let mut texture = f.texture.clone();
            if self.dialect.is_dollar_m() && texture.chars().count() > DOLLAR_M_TEXTURE_LEN {
                texture = texture.chars().take(DOLLAR_M_TEXTURE_LEN).collect();
                self.warn(
                    format!("{at}.faces[{fi}]"),
                    format!(
                        "texture name {:?} cut to {texture:?} (15 characters)",
                        f.texture
                    ),
                );
            }
            let transform = (!self.dialect.is_dollar_m()).then(|| {
                f.texture_transform
                    .unwrap_or([0.0, 0.0, 0.0, 1.0, 1.0])
                    .map(Num::new)
            });
            out.faces.push(Face {
                indices: f.indices.clone(),
                uvs: f.uvs.as_ref().map(|uvs| {
                    uvs.iter()
                        .flat_map(|[u, v]| [Num::new(*u), Num::new(*v)])
                        .collect()
                }),
                texture,
                vectors: Some([num4(vectors[0]), num4(vectors[1])]),
                transform,
                flags: f.flags.clone(),
                ambient: Num::new(f.ambient),
                albedo: Num::new(f.albedo),
                material: f.material.clone(),
                ..Face::default()
            });
        }
        Ok(out)
    }
}

/// Build a file of `dialect` (v710 or `$$M`) in the layout the editor writes.
///
/// * `$$M` needs a resolved level ([`Level::angles_in_degrees`], world coordinates, no block
///   transforms; groups are ignored with a warning): the header comment `// levelkit`, the level
///   record with every block (texture names cut to 15 characters), the sun record (the last two
///   sun numbers), then one record per entity in order: models as type 3, or 7 when
///   `fields["type"]` says so or the model has more than 8 skills or any type-7 field; lights,
///   paths (T = 3·N + 2·E unless `fields["triplets"]` is set), starts. Sounds have no known
///   `$$M` form and are left out with a warning.
/// * v710: `// WMP2` and `// levelkit` comments, the counts, blocks numbered in order, the level
///   entity 0 and the entities numbered from 1, then the groups. A level without groups (a
///   resolved one) gets a root group holding the level, the blocks and one group per entity
///   that carries the entity's position and angles (converted to radians).
///
/// Faces without texture vectors get the axis-aligned default, with a warning; fields
/// [`from_level`] has no place for are reported. A level whose names cannot be written (a
/// space in a name, a `>` in a file name) is refused with the path of the record.
pub fn from_level(level: &Level, dialect: Dialect) -> Result<(WmpText, Vec<Warning>)> {
    let format = format_of(dialect);
    let mut b = Builder {
        level,
        dialect,
        format,
        warnings: Vec::new(),
    };
    let t = match dialect {
        Dialect::DollarM => dollar_m(&mut b)?,
        Dialect::V710 => v710(&mut b)?,
        Dialect::A4 | Dialect::V510 => {
            return Err(Error::unsupported(
                format,
                Location::default(),
                format!("levels are written as v710 or $$M, not {dialect}"),
            ));
        }
    };
    // The contract: what comes back writes. A name that cannot be one token (a space, a `>`
    // inside a `<…>` file name) is refused here, with the path of the record.
    super::write::write(&t)?;
    Ok((t, b.warnings))
}

fn version_comment() -> String {
    format!("// levelkit {}", env!("CARGO_PKG_VERSION"))
}

fn dollar_m(b: &mut Builder<'_>) -> Result<WmpText> {
    let level = b.level;
    if !level.angles_in_degrees {
        return Err(Error::unsupported(
            b.format,
            Location::default(),
            "a $$M holds a resolved level (world coordinates, angles in degrees); resolve the \
             groups first",
        ));
    }
    if !level.groups.is_empty() {
        b.warn(
            "groups".into(),
            "a $$M has no groups; they are ignored".into(),
        );
    }
    let s = &level.settings;
    let mut blocks = Vec::new();
    for (i, block) in level.blocks.iter().enumerate() {
        blocks.push(b.block(i, block, None)?);
    }
    let mut records = vec![Record::MLevel(MLevel {
        wad: s.wad.clone().unwrap_or_else(|| "ndef".into()),
        palette: s.palette.clone().unwrap_or_else(|| "palette.pcx".into()),
        blocks,
        layout: Layout::default(),
    })];
    let sun = match s.sun.as_slice() {
        [_, a, e] => vec![*a, *e],
        other => other.to_vec(),
    };
    records.push(Record::MSun(MSun {
        values: sun.into_iter().map(Num::new).collect(),
        layout: Layout::default(),
    }));
    for (i, e) in level.entities.iter().enumerate() {
        let at = format!("entities[{i}]");
        let mut f = Fields::new(&e.fields);
        let t = &e.transform;
        let record = match e.kind {
            EntityKind::Model => {
                let skills = f.nums("skills").unwrap_or_default();
                let albedo = f.num("albedo");
                let path = f.num("path");
                let attach = f.num("attach");
                let material = f.string("material");
                let string1 = f.string("string1");
                let string2 = f.string("string2");
                let extended = albedo.is_some()
                    || path.is_some()
                    || attach.is_some()
                    || material.is_some()
                    || skills.len() > 8;
                let type_id = match f.get("type").and_then(Value::as_u64) {
                    Some(3) => 3,
                    Some(7) => 7,
                    _ if extended => 7,
                    _ => 3,
                };
                let count = if type_id == 7 { 20 } else { 8 };
                if skills.len() > count {
                    b.warn(
                        at.clone(),
                        format!("only {count} skills fit a type {type_id} model"),
                    );
                }
                let mut skills: Vec<Num> = skills.into_iter().take(count).collect();
                skills.resize(count, Num::default());
                let extra = f.strings("extra");
                let mut numbers = [albedo, path, attach];
                let mut names = [material, string1, string2];
                if type_id == 7 {
                    // wmpio always writes these three.
                    for (slot, default) in numbers.iter_mut().zip([50, 0, 0]) {
                        slot.get_or_insert_with(|| Num::int(default));
                    }
                }
                pack(&mut numbers, &mut names, !extra.is_empty(), [50, 0, 0]);
                let [albedo, path, attach] = numbers;
                let [material, string1, string2] = names;
                Record::MModel(MModel {
                    type_id,
                    position: nums3(t.position),
                    angles: nums3(t.angles),
                    scale: nums3(t.scale),
                    file: e.file.clone().unwrap_or_else(|| "ndef".into()),
                    name: e.name.clone().unwrap_or_else(|| "ndef".into()),
                    action: f.string("action").unwrap_or_else(|| "ndef".into()),
                    skills,
                    flags: f.string("flags").unwrap_or_else(|| "0000".into()),
                    ambient: f.num("ambient").unwrap_or_default(),
                    albedo,
                    path,
                    attach,
                    material,
                    string1,
                    string2,
                    extra,
                    layout: Layout::default(),
                })
            }
            EntityKind::Light => {
                let (color, range) = e.light.unwrap_or(([100.0; 3], 100.0));
                Record::MLight(MLight {
                    position: nums3(t.position),
                    angles: nums3(t.angles),
                    color: nums3(color),
                    range: Num::new(range),
                    flags: Some(f.string("flags").unwrap_or_else(|| "0000".into())),
                    extra: f.strings("extra"),
                    layout: Layout::default(),
                })
            }
            EntityKind::Path => {
                let PathParts {
                    positions,
                    skills,
                    edges,
                    triplets,
                } = path_parts(e, &mut f);
                Record::MPath(MPath {
                    name: e.name.clone().unwrap_or_else(|| "path".into()),
                    triplets,
                    positions,
                    skills,
                    edges,
                    layout: Layout::default(),
                })
            }
            EntityKind::Start => Record::MStart(MStart {
                position: nums3(t.position),
                angles: nums3(t.angles),
                name: e.name.clone().unwrap_or_else(|| "start".into()),
                extra: f.strings("extra"),
                layout: Layout::default(),
            }),
            EntityKind::Other => match f.get("type").and_then(Value::as_u64) {
                Some(type_id) => Record::MOther(MOther {
                    type_id: u32::try_from(type_id).unwrap_or(u32::MAX),
                    tokens: f.strings("tokens"),
                    layout: Layout::default(),
                }),
                None => {
                    b.warn(at, "an entity of no known kind is left out".into());
                    continue;
                }
            },
            EntityKind::Sound => {
                b.warn(
                    at,
                    "a sound has no known $$M form (type 4); it is left out".into(),
                );
                continue;
            }
        };
        f.leftovers(b.format, &at, &mut b.warnings);
        records.push(record);
    }
    Ok(WmpText {
        dialect: Dialect::DollarM,
        line_ending: LineEnding::CrLf,
        header: Header {
            comments: vec![version_comment()],
            ..Header::default()
        },
        records,
        end: None,
    })
}

/// Optional trailing fields are read in order, numbers first: a later one present forces the
/// earlier ones (and kept extra tokens force all), or the file would read back differently.
fn pack<const N: usize, const M: usize>(
    numbers: &mut [Option<Num>; N],
    names: &mut [Option<String>; M],
    extra: bool,
    defaults: [i64; N],
) {
    let used_names = if extra {
        M
    } else {
        names
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i.saturating_add(1))
    };
    for name in names.iter_mut().take(used_names) {
        name.get_or_insert_with(|| "ndef".into());
    }
    let used_numbers = if used_names > 0 {
        N
    } else {
        numbers
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i.saturating_add(1))
    };
    for (n, d) in numbers.iter_mut().zip(defaults).take(used_numbers) {
        n.get_or_insert_with(|| Num::int(d));
    }
}

/// The lists of a path record.
struct PathParts {
    positions: Vec<Vec3>,
    skills: Vec<Vec<Num>>,
    edges: Vec<Vec<Num>>,
    triplets: Num,
}

/// Positions, skill lines, edge lines and T of a path entity.
fn path_parts(e: &Entity, f: &mut Fields<'_>) -> PathParts {
    let positions: Vec<Vec3> = e.path_nodes.iter().map(|v| nums3(*v)).collect();
    let mut skills = f.lines("node_skills").unwrap_or_default();
    skills.resize(positions.len(), vec![Num::default(); 6]);
    for line in &mut skills {
        if line.is_empty() {
            line.push(Num::default());
        }
    }
    let edges: Vec<Vec<Num>> = e
        .path_edges
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.iter().map(|v| Num::new(*v)).collect())
        .collect();
    let computed = positions
        .len()
        .saturating_mul(3)
        .saturating_add(edges.len().saturating_mul(2));
    let triplets = f
        .num("triplets")
        .unwrap_or_else(|| Num::int(i64::try_from(computed).unwrap_or(i64::MAX)));
    PathParts {
        positions,
        skills,
        edges,
        triplets,
    }
}

/// Reference lines of ten numbers each, as the editors wrap them.
fn member_lines(kind: &str, ids: &[u32], out: &mut Vec<Members>) {
    for chunk in ids.chunks(10) {
        out.push(Members {
            kind: kind.to_owned(),
            ids: chunk.to_vec(),
        });
    }
}

fn v710(b: &mut Builder<'_>) -> Result<WmpText> {
    let level = b.level;
    let deg = level.angles_in_degrees;
    let mut records = Vec::new();
    for (i, block) in level.blocks.iter().enumerate() {
        let number = u32::try_from(i).unwrap_or(u32::MAX);
        records.push(Record::Block(b.block(i, block, Some(number))?));
    }
    let s = &level.settings;
    let sun = match s.sun.as_slice() {
        [a, e] => vec![30.0, *a, *e],
        other => other.to_vec(),
    };
    let mut colors: Vec<Vec3> = s.colors.iter().map(|c| nums3(*c)).collect();
    if colors.is_empty() {
        colors = vec![nums3([0.0; 3]); 6];
    }
    let angled = |name: &Option<String>, fallback: &str| {
        format!("<{}>", name.as_deref().unwrap_or(fallback))
    };
    records.push(Record::Level(LevelEntity {
        number: 0,
        comment: None,
        wad: angled(&s.wad, "ndef"),
        palette: angled(&s.palette, "palette.pcx"),
        sun: sun.into_iter().map(Num::new).collect(),
        script: angled(&s.script, "ndef"),
        colors,
        extra: Vec::new(),
        layout: Layout::default(),
    }));
    let synthesize = level.groups.is_empty();
    // Per entity of the level: the keyword and number it is written with (None: left out).
    let mut numbers: Vec<Option<(String, u32)>> = Vec::new();
    for (i, e) in level.entities.iter().enumerate() {
        let at = format!("entities[{i}]");
        let number = u32::try_from(i.saturating_add(1)).unwrap_or(u32::MAX);
        let mut f = Fields::new(&e.fields);
        let comment = f.string("comment").or_else(|| e.name.clone());
        let t = &e.transform;
        let own_transform_dropped = if e.kind == EntityKind::Model {
            t.position != [0.0; 3] || t.angles != [0.0; 3]
        } else {
            !t.is_identity()
        };
        if !synthesize && own_transform_dropped {
            b.warn(
                at.clone(),
                "a text entity is placed by its group; its own position and angles are dropped"
                    .into(),
            );
        }
        let (record, kind) = match e.kind {
            EntityKind::Start => (
                Record::Start(Start {
                    number,
                    comment,
                    name: e.name.clone().unwrap_or_else(|| "start".into()),
                    extra: f.strings("extra"),
                    layout: Layout::default(),
                }),
                "start",
            ),
            EntityKind::Light => {
                let (color, range) = e.light.unwrap_or(([100.0; 3], 100.0));
                (
                    Record::Light(Light {
                        number,
                        comment: f.string("comment"),
                        color: nums3(color),
                        range: Num::new(range),
                        flags: f.string("flags"),
                        extra: f.strings("extra"),
                        layout: Layout::default(),
                    }),
                    "light",
                )
            }
            EntityKind::Sound => (
                Record::Sound(Sound {
                    number,
                    comment: f.string("comment"),
                    file: angled(&e.file, "ndef"),
                    flags: f.string("flags").unwrap_or_else(|| "0001".into()),
                    values: [
                        f.num("volume").unwrap_or_else(|| Num::int(100)),
                        f.num("pitch").unwrap_or_default(),
                        f.num("time").unwrap_or_else(|| Num::int(1)),
                        f.num("range").unwrap_or_else(|| Num::int(1000)),
                    ],
                    extra: f.strings("extra"),
                    layout: Layout::default(),
                }),
                "sound",
            ),
            EntityKind::Model => {
                let mut skills = f.nums("skills").unwrap_or_default();
                if skills.is_empty() {
                    skills = vec![Num::default(); 8];
                }
                let extra = f.strings("extra");
                let mut numbers = [Some(f.num("albedo").unwrap_or_else(|| Num::int(50)))];
                let mut names = [
                    Some(f.string("material").unwrap_or_else(|| "ndef".into())),
                    Some(f.string("name2").unwrap_or_else(|| "ndef".into())),
                ];
                pack(&mut numbers, &mut names, !extra.is_empty(), [50]);
                let [albedo] = numbers;
                let [material, name2] = names;
                (
                    Record::Model(Model {
                        number,
                        comment,
                        scale: nums3(t.scale),
                        file: angled(&e.file, "ndef"),
                        name: e.name.clone().unwrap_or_else(|| "ndef".into()),
                        action: f.string("action").unwrap_or_else(|| "ndef".into()),
                        skills,
                        flags: f.string("flags").unwrap_or_else(|| "0000".into()),
                        ambient: f.num("ambient").unwrap_or_default(),
                        albedo,
                        material,
                        name2,
                        extra,
                        layout: Layout::default(),
                    }),
                    "model",
                )
            }
            EntityKind::Path => {
                let PathParts {
                    positions,
                    skills,
                    edges,
                    triplets,
                } = path_parts(e, &mut f);
                (
                    Record::Path(Path {
                        number,
                        comment,
                        name: e.name.clone().unwrap_or_else(|| "path".into()),
                        unknown: None,
                        triplets: Some(triplets),
                        positions,
                        skills,
                        edges,
                        layout: Layout::default(),
                    }),
                    "path",
                )
            }
            EntityKind::Other => {
                let Some(keyword) = f.string("keyword") else {
                    b.warn(at, "an entity of no known kind is left out".into());
                    numbers.push(None);
                    continue;
                };
                let record = Record::Other(Other {
                    number: Some(number),
                    comment: f.string("comment"),
                    tokens: f.strings("tokens"),
                    keyword,
                    layout: Layout::default(),
                });
                (record, "other")
            }
        };
        // Fields used by to_level for dialects v710 does not write.
        for key in ["type", "path", "attach", "string1", "string2", "unknown"] {
            if e.fields.contains_key(key) && !f.used.contains(&key) {
                f.used.push(key);
                b.warn(
                    at.clone(),
                    format!("field {key:?} has no place in v710; it is dropped"),
                );
            }
        }
        f.leftovers(b.format, &at, &mut b.warnings);
        let kind = match &record {
            Record::Other(o) => o.keyword.clone(),
            _ => kind.to_owned(),
        };
        numbers.push(Some((kind, number)));
        records.push(record);
    }
    let groups = if synthesize {
        synthesized_groups(level, &numbers, deg)
    } else {
        given_groups(b, &numbers, deg)
    };
    let counts = Counts {
        blocks: u32::try_from(level.blocks.len()).unwrap_or(u32::MAX),
        entities: u32::try_from(numbers.iter().flatten().count().saturating_add(1))
            .unwrap_or(u32::MAX),
        objects: u32::try_from(groups.len()).unwrap_or(u32::MAX),
    };
    records.extend(groups.into_iter().map(Record::Group));
    Ok(WmpText {
        dialect: Dialect::V710,
        line_ending: LineEnding::CrLf,
        header: Header {
            comments: vec!["// WMP2".into(), version_comment()],
            counts: Some(counts),
            wed: None,
            layout: Layout::default(),
        },
        records,
        end: None,
    })
}

fn group_record(number: u32, name: Option<String>, t: &Transform, deg: bool) -> Group {
    Group {
        number,
        name,
        position: nums3(t.position),
        angles: nums3(radians(t.angles, deg)),
        scale: nums3(t.scale),
        members: Vec::new(),
        layout: Layout::default(),
    }
}

/// Entity references by kind, in the order kinds first appear.
fn entity_members(indices: &[usize], numbers: &[Option<(String, u32)>], out: &mut Vec<Members>) {
    let mut by_kind: Vec<(&str, Vec<u32>)> = Vec::new();
    for &i in indices {
        let Some(Some((kind, number))) = numbers.get(i) else {
            continue;
        };
        match by_kind.iter_mut().find(|(k, _)| k == kind) {
            Some((_, ids)) => ids.push(*number),
            None => by_kind.push((kind, vec![*number])),
        }
    }
    for (kind, ids) in by_kind {
        member_lines(kind, &ids, out);
    }
}

/// A resolved level: root group 0 with the level and the blocks, one group per entity with its
/// position and angles.
fn synthesized_groups(level: &Level, numbers: &[Option<(String, u32)>], deg: bool) -> Vec<Group> {
    let mut root = group_record(0, Some("Root".into()), &Transform::IDENTITY, false);
    let mut groups = Vec::new();
    let mut children = Vec::new();
    for (i, e) in level.entities.iter().enumerate() {
        if numbers.get(i).is_none_or(Option::is_none) {
            continue;
        }
        let number = u32::try_from(groups.len().saturating_add(1)).unwrap_or(u32::MAX);
        let placement = Transform {
            scale: [1.0; 3],
            ..e.transform
        };
        let mut g = group_record(number, None, &placement, deg);
        entity_members(&[i], numbers, &mut g.members);
        children.push(number);
        groups.push(g);
    }
    member_lines("object", &children, &mut root.members);
    let blocks: Vec<u32> = (0..level.blocks.len())
        .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
        .collect();
    member_lines("block", &blocks, &mut root.members);
    root.members.push(Members {
        kind: "level".into(),
        ids: vec![0],
    });
    let mut out = vec![root];
    out.extend(groups);
    out
}

/// The level's own groups, numbered by index.
fn given_groups(b: &mut Builder<'_>, numbers: &[Option<(String, u32)>], deg: bool) -> Vec<Group> {
    let mut out = Vec::new();
    for (gi, g) in b.level.groups.iter().enumerate() {
        let number = u32::try_from(gi).unwrap_or(u32::MAX);
        let mut r = group_record(number, g.name.clone(), &g.transform, deg);
        let ids = |v: &[usize]| -> Vec<u32> {
            v.iter()
                .map(|&i| u32::try_from(i).unwrap_or(u32::MAX))
                .collect()
        };
        member_lines("object", &ids(&g.groups), &mut r.members);
        member_lines("block", &ids(&g.blocks), &mut r.members);
        if g.holds_level {
            r.members.push(Members {
                kind: "level".into(),
                ids: vec![0],
            });
        }
        entity_members(&g.entities, numbers, &mut r.members);
        if g.entities
            .iter()
            .any(|&i| numbers.get(i).is_none_or(Option::is_none))
        {
            b.warn(
                format!("groups[{gi}]"),
                "lists entities that do not exist or were left out".into(),
            );
        }
        out.push(r);
    }
    out
}

/// Entity counts by kind name, for summaries.
pub(crate) fn kinds(t: &WmpText) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for r in &t.records {
        let kind = match r {
            Record::Block(_) | Record::Group(_) | Record::MLevel(_) | Record::MSun(_) => continue,
            other => other.kind(),
        };
        let n = out.entry(kind.to_owned()).or_insert(0usize);
        *n = n.saturating_add(1);
    }
    out
}
