//! A 3D GameStudio level as a [`Scene`], for glTF, GLB and OBJ.
//!
//! The level is resolved first ([`super::resolve::resolve`]: group hierarchy and block
//! transforms applied, world coordinates), then:
//!
//! * every block becomes a node named `block N` with its own mesh, flat-shaded, faces turned
//!   counter-clockwise (the editors list them clockwise seen from outside), one material per
//!   texture name (named after it), texture coordinates from the texture vectors divided by the
//!   texture's size in texels: [`DEFAULT_TEXTURE_SIZE`] until [`super::attach_wad_textures`]
//!   puts the real textures from the level's WAD on the materials and rescales (the size used
//!   is in each material's `extras.texture_size`). Block flags and
//!   function, and every face's fields, are in the node's and mesh's `extras`;
//! * lights become point lights (colour 0–100 scaled to 0–1, range kept) on nodes named
//!   `light N`; models, sounds and start positions become empty nodes at their resolved
//!   transform named after the entity; paths become line meshes along their edges. Every entity
//!   field is in its node's `extras`;
//! * level settings (WAD, palette, script, sun, ambient and fog colours) go in the scene's
//!   `extras`.
//!
//! GameStudio is z-up; glTF is y-up. Positions keep the level's coordinates, and one root node
//! `level` turns the whole level upright (−90° about x), so the numbers in the file stay the
//! numbers in the level.

use serde_json::{Value, json};

use super::geometry::{self, texel};
use super::level::{EntityKind, Level, Transform as LevelTransform};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::{Corner, Extras, Light, LightKind, Material, Mesh, Node, Polyline, Scene};

/// The mesh `extras` key listing the faces whose texture coordinates came from the file
/// (WED's `[ u v … ]`), which [`super::attach_wad_textures`] leaves unscaled.
pub const EXPLICIT_UV_FACES: &str = "explicit_uv_faces";

/// Texels per texture side assumed for texture coordinates when the texture itself is not
/// available.
pub const DEFAULT_TEXTURE_SIZE: f64 = 64.0;

/// The level as a scene (see the module docs).
pub fn to_scene(level: &Level, source: Format) -> (Scene, Vec<Warning>) {
    let (resolved, mut warnings) = super::resolve::resolve(level);
    let mut scene = Scene::new(source);
    let half = std::f64::consts::FRAC_1_SQRT_2;
    let root = scene.add_root(Node {
        name: Some("level".into()),
        transform: crate::scene::Transform::Trs {
            translation: [0.0; 3],
            rotation: [-half, 0.0, 0.0, half],
            scale: [1.0; 3],
        },
        ..Node::default()
    });
    scene.extras = settings_extras(&resolved);
    let mut materials: std::collections::HashMap<String, usize> = Default::default();
    let mut children = Vec::new();
    for (b, block) in resolved.blocks.iter().enumerate() {
        let mut mesh = Mesh {
            name: Some(format!("block {b}")),
            positions: block.vertices.clone(),
            flat: true,
            ..Mesh::default()
        };
        let mut face_extras = Vec::with_capacity(block.faces.len());
        let mut explicit_faces: Vec<usize> = Vec::new();
        for (f, face) in block.faces.iter().enumerate() {
            face_extras.push(json!({
                "texture": face.texture,
                "flags": face.flags,
                "ambient": face.ambient,
                "albedo": face.albedo,
                "material": face.material,
                "texture_vectors": face.texture_vectors,
                "texture_transform": face.texture_transform,
                "uvs": face.uvs,
            }));
            if face.indices.len() < 3
                || face
                    .indices
                    .iter()
                    .any(|&i| i as usize >= block.vertices.len())
            {
                warnings.push(Warning::warning(
                    source,
                    crate::error::Location::path(format!("blocks/{b}/faces/{f}")),
                    "face has fewer than three corners or a vertex index out of range; left out",
                ));
                continue;
            }
            let vectors = face.texture_vectors.or_else(|| {
                let normal = geometry::outward_normal(&block.vertices, &face.indices)?;
                Some(geometry::texture_vectors(
                    normal,
                    face.texture_transform.unwrap_or([0.0, 0.0, 0.0, 1.0, 1.0]),
                ))
            });
            let next = materials.len();
            let material = *materials.entry(face.texture.clone()).or_insert(next);
            // Explicit per-corner coordinates (WED's `[ u v … ]`) are already in texture units:
            // they win over the texture vectors and are not rescaled to the texture's size.
            let explicit = face
                .uvs
                .as_ref()
                .filter(|uvs| uvs.len() == face.indices.len());
            let corners = face
                .indices
                .iter()
                .enumerate()
                .rev()
                .map(|(k, &i)| Corner {
                    position: i,
                    normal: None,
                    uv: match explicit {
                        Some(uvs) => uvs.get(k).copied(),
                        None => vectors.map(|t| {
                            let p = block.vertices.get(i as usize).copied().unwrap_or_default();
                            let [u, v] = texel(&t, p);
                            [u / DEFAULT_TEXTURE_SIZE, v / DEFAULT_TEXTURE_SIZE]
                        }),
                    },
                    color: None,
                })
                .collect();
            if explicit.is_some() {
                explicit_faces.push(mesh.faces.len());
            }
            mesh.faces.push(crate::scene::Face {
                corners,
                material: Some(material),
            });
        }
        mesh.extras
            .insert("faces".into(), Value::Array(face_extras));
        if !explicit_faces.is_empty() {
            mesh.extras
                .insert(EXPLICIT_UV_FACES.into(), json!(explicit_faces));
        }
        let mesh_index = scene.meshes.len();
        scene.meshes.push(mesh);
        let mut extras = Extras::new();
        extras.insert("kind".into(), json!("block"));
        extras.insert("flags".into(), json!(block.flags));
        extras.insert("function".into(), json!(block.function));
        children.push(scene.nodes.len());
        scene.nodes.push(Node {
            name: Some(format!("block {b}")),
            mesh: Some(mesh_index),
            extras,
            ..Node::default()
        });
    }
    let mut by_index: Vec<(usize, String)> =
        materials.into_iter().map(|(name, i)| (i, name)).collect();
    by_index.sort();
    for (_, name) in by_index {
        let mut extras = Extras::new();
        extras.insert("texture".into(), json!(name));
        extras.insert("texture_size".into(), json!(DEFAULT_TEXTURE_SIZE));
        scene.materials.push(Material {
            name: Some(name),
            extras,
            ..Material::default()
        });
    }
    for (e, entity) in resolved.entities.iter().enumerate() {
        let mut extras = entity.fields.clone();
        extras.insert(
            "kind".into(),
            serde_json::to_value(entity.kind).unwrap_or_default(),
        );
        extras.insert("number".into(), json!(entity.number));
        if let Some(file) = &entity.file {
            extras.insert("file".into(), json!(file));
        }
        let kind = match entity.kind {
            EntityKind::Start => "start",
            EntityKind::Light => "light",
            EntityKind::Sound => "sound",
            EntityKind::Model => "model",
            EntityKind::Path => "path",
            EntityKind::Other => "entity",
        };
        let name = entity
            .name
            .clone()
            .unwrap_or_else(|| format!("{kind} {}", entity.number));
        let mut node = Node {
            name: Some(name.clone()),
            transform: node_transform(&entity.transform),
            extras,
            ..Node::default()
        };
        if let Some((color, range)) = entity.light {
            node.extras.insert("color".into(), json!(color));
            node.extras.insert("range".into(), json!(range));
            node.light = Some(scene.lights.len());
            scene.lights.push(Light {
                name: Some(name.clone()),
                kind: LightKind::Point,
                color: color.map(|c| (c / 100.0).clamp(0.0, 1.0) as f32),
                intensity: 1.0,
                range: (range > 0.0).then_some(range as f32),
                extras: Extras::new(),
            });
        }
        if entity.kind == EntityKind::Path && !entity.path_nodes.is_empty() {
            node.transform = crate::scene::Transform::IDENTITY;
            let mut mesh = Mesh {
                name: Some(name.clone()),
                positions: entity.path_nodes.clone(),
                ..Mesh::default()
            };
            let count = entity.path_nodes.len();
            for edge in &entity.path_edges {
                // Edges name nodes from 1.
                let (Some(&a), Some(&b)) = (edge.first(), edge.get(1)) else {
                    continue;
                };
                let (a, b) = ((a as i64).saturating_sub(1), (b as i64).saturating_sub(1));
                if a >= 0 && b >= 0 && (a as usize) < count && (b as usize) < count && a != b {
                    mesh.lines.push(Polyline {
                        points: vec![a as u32, b as u32],
                        closed: false,
                        material: None,
                    });
                } else {
                    warnings.push(Warning::warning(
                        source,
                        crate::error::Location::path(format!("entities/{e}")),
                        format!("path edge {edge:?} names a node that does not exist; left out"),
                    ));
                }
            }
            if mesh.lines.is_empty() && count > 1 {
                // No edges (v510 paths): the nodes in order.
                mesh.lines.push(Polyline {
                    points: (0..count as u32).collect(),
                    closed: false,
                    material: None,
                });
            }
            node.extras.insert("nodes".into(), json!(entity.path_nodes));
            node.extras.insert("edges".into(), json!(entity.path_edges));
            if !mesh.lines.is_empty() {
                node.mesh = Some(scene.meshes.len());
                scene.meshes.push(mesh);
            }
        }
        children.push(scene.nodes.len());
        scene.nodes.push(node);
    }
    if let Some(r) = scene.nodes.get_mut(root) {
        r.children = children;
    }
    (scene, warnings)
}

/// The level's settings as scene extras.
fn settings_extras(level: &Level) -> Extras {
    let s = &level.settings;
    let mut extras = Extras::new();
    extras.insert("wad".into(), json!(s.wad));
    extras.insert("palette".into(), json!(s.palette));
    extras.insert("script".into(), json!(s.script));
    extras.insert("sun".into(), json!(s.sun));
    let names = ["sun_color", "ambient_color", "fog1", "fog2", "fog3", "fog4"];
    for (name, color) in names.iter().zip(&s.colors) {
        extras.insert((*name).into(), json!(color));
    }
    if s.colors.len() > names.len() {
        extras.insert("colors".into(), json!(s.colors));
    }
    extras
}

/// A resolved entity transform (degrees) as a node transform.
fn node_transform(t: &LevelTransform) -> crate::scene::Transform {
    engine_transform(t.position, t.angles, t.scale)
}

/// A position, pan/tilt/roll in degrees and scale, as the engine places an entity, as a node
/// transform (the identity when it changes nothing). Compiled levels (WMB) place theirs alike.
pub(crate) fn engine_transform(
    p: [f64; 3],
    angles: [f64; 3],
    s: [f64; 3],
) -> crate::scene::Transform {
    let r = super::resolve::engine_rotation(angles);
    // Column-major 4x4: columns are the rotated, scaled axes.
    let m = [
        r[0][0] * s[0],
        r[1][0] * s[0],
        r[2][0] * s[0],
        0.0,
        r[0][1] * s[1],
        r[1][1] * s[1],
        r[2][1] * s[1],
        0.0,
        r[0][2] * s[2],
        r[1][2] * s[2],
        r[2][2] * s[2],
        0.0,
        p[0],
        p[1],
        p[2],
        1.0,
    ];
    if m == crate::scene::Transform::IDENTITY.matrix() {
        crate::scene::Transform::IDENTITY
    } else {
        crate::scene::Transform::Matrix(m)
    }
}
