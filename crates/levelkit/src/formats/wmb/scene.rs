//! A WMB level as a [`Scene`], for glTF, GLB and OBJ.
//!
//! * WMB2–6: the polygons become one mesh `world` (faces turned counter-clockwise; texture
//!   coordinates from the face's material vectors divided by the texture's size); WMB7: each
//!   block becomes a mesh `block N` with its own texture coordinates. One scene material per
//!   texture, named after it, with the texture's pixels (8-bit textures through the level's
//!   palette, grey levels when the level has none).
//! * Objects become nodes: entities (old and new) named after the entity with their position,
//!   angles and scale, the model file name in `extras.file` (models are not placed: their MDL
//!   files are another reader's); lights with a point light; positions, sounds and regions as
//!   empty nodes; paths as line meshes along their edges. Every field is in `extras`; the level
//!   info goes in the scene's `extras.info`.
//!
//! * WMB7 lightmaps: a block surface of the shaded type (0 in its flags' low nibble) whose
//!   lightmap index names a page of the `lightmaps` list gets a material per texture and page
//!   (the texture's material with the page as its lightmap texture, RGB) and its block mesh
//!   the vertices' lightmap coordinates as a second UV set (glTF `TEXCOORD_1`, the page as
//!   the material's `occlusionTexture`). Tested on levels levelkit builds
//!   ([`super::samples::lit_quad_level`]) only: no real WMB with lit blocks has been seen.
//!   WMB2–6 per-face lightmaps and WMB7 terrain lightmaps are not read.
//!
//! GameStudio is z-up, glTF y-up: one root node `level` turns the level upright (−90° about x),
//! so the numbers in the file stay the numbers in the scene.

use serde_json::{Value, json};

use super::model::Wmb;
use super::view::{self, ObjectKind};
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::scene::{
    Corner, Extras, Face, Light, LightKind, Material, MaterialLightmap, Mesh, Node, Polyline,
    Scene, SecondUvs, Texture, TextureSource, Transform,
};

fn warn(path: &str, message: impl Into<String>) -> Warning {
    Warning::warning(Format::Wmb, Location::path(path), message)
}

/// The level as a scene (see the module docs).
pub fn to_scene(wmb: &Wmb) -> (Scene, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut scene = Scene::new(Format::Wmb);
    let half = std::f64::consts::FRAC_1_SQRT_2;
    let root = scene.add_root(Node {
        name: Some("level".into()),
        transform: Transform::Trs {
            translation: [0.0; 3],
            rotation: [-half, 0.0, 0.0, half],
            scale: [1.0; 3],
        },
        ..Node::default()
    });
    let mut children = Vec::new();

    let palette = view::palette(wmb).unwrap_or_else(|e| {
        warnings.push(warn("palettes", e.to_string()));
        None
    });
    let textures = view::textures(wmb).unwrap_or_else(|e| {
        warnings.push(warn("textures", e.to_string()));
        Vec::new()
    });
    let texture_list = wmb.list(super::ListKind::Textures).unwrap_or_default();
    // One scene material per texture.
    for (i, t) in textures.iter().enumerate() {
        let mut extras = Extras::new();
        extras.insert("texture".into(), json!(t.name));
        extras.insert("format".into(), json!(t.format));
        extras.insert("texture_size".into(), json!([t.width, t.height]));
        extras.insert("mipmaps".into(), json!(t.mipmaps));
        let mut material = Material {
            name: Some(t.name.clone()),
            extras,
            ..Material::default()
        };
        match t.decode(texture_list, palette.as_ref().map(|p| p.colors.as_slice())) {
            Some((data, channels)) if t.width > 0 && t.height > 0 => {
                if palette.is_none() && t.format == view::PixelFormat::Pal8 {
                    material
                        .extras
                        .insert("palette".into(), json!("none in the level; grey levels"));
                }
                material.base_color_texture = Some(scene.textures.len());
                scene.textures.push(Texture {
                    name: Some(t.name.clone()),
                    source: TextureSource::Pixels {
                        width: t.width,
                        height: t.height,
                        channels,
                        data,
                    },
                    extras: Extras::new(),
                });
            }
            _ => warnings.push(warn(
                &format!("textures[{i}]"),
                format!(
                    "texture `{}` ({:?}, {}×{}) has no image in the scene",
                    t.name, t.format, t.width, t.height
                ),
            )),
        }
        scene.materials.push(material);
    }
    let size_of = |texture: usize| {
        textures.get(texture).map_or((64.0, 64.0), |t| {
            (f64::from(t.width.max(1)), f64::from(t.height.max(1)))
        })
    };

    // WMB2–6 polygons.
    match view::bsp_geometry(wmb) {
        Ok(geometry) if !geometry.faces.is_empty() => {
            let materials = view::materials(wmb).unwrap_or_default();
            let positions: Vec<[f64; 3]> =
                geometry.vertices.iter().map(|v| v.map(f64::from)).collect();
            let mut mesh = Mesh {
                name: Some("world".into()),
                positions,
                flat: true,
                ..Mesh::default()
            };
            let mut face_extras = Vec::with_capacity(geometry.faces.len());
            for (i, face) in geometry.faces.iter().enumerate() {
                face_extras.push(json!({
                    "plane": face.plane, "side": face.side, "material": face.material,
                    "light": face.light, "lightmap": face.lightmap, "extra": face.extra,
                }));
                if face.corners.len() < 3 {
                    warnings.push(warn(
                        &format!("faces[{i}]"),
                        "face has fewer than three corners; left out",
                    ));
                    continue;
                }
                let material = materials.get(usize::from(face.material));
                let texture = material
                    .map(|m| m.texture as usize)
                    .filter(|&t| t < textures.len());
                let (w, h) = size_of(texture.unwrap_or(usize::MAX));
                let corners = face
                    .corners
                    .iter()
                    .rev()
                    .map(|&v| {
                        let p = geometry
                            .vertices
                            .get(v as usize)
                            .copied()
                            .unwrap_or_default();
                        Corner {
                            position: v,
                            normal: None,
                            uv: material.map(|m| {
                                let dot = |a: [f32; 4]| {
                                    f64::from(p[0]) * f64::from(a[0])
                                        + f64::from(p[1]) * f64::from(a[1])
                                        + f64::from(p[2]) * f64::from(a[2])
                                        + f64::from(a[3])
                                };
                                [dot(m.s) / w, dot(m.t) / h]
                            }),
                            color: None,
                        }
                    })
                    .collect();
                mesh.faces.push(Face {
                    corners,
                    material: texture,
                });
            }
            mesh.extras
                .insert("faces".into(), Value::Array(face_extras));
            children.push(scene.nodes.len());
            scene.nodes.push(Node {
                name: Some("world".into()),
                mesh: Some(scene.meshes.len()),
                ..Node::default()
            });
            scene.meshes.push(mesh);
        }
        Ok(_) => {}
        Err(e) => warnings.push(warn("faces", e.to_string())),
    }

    // WMB7 blocks.
    let pages = view::lightmap_pages(wmb).unwrap_or_else(|e| {
        warnings.push(warn("lightmaps", e.to_string()));
        Vec::new()
    });
    let mut lit = LitMaterials::default();
    match view::blocks(wmb) {
        Ok(blocks) => {
            for (b, block) in blocks.iter().enumerate() {
                let mut lightmap_uvs = Vec::new();
                let mut any_lit = false;
                let mut mesh = Mesh {
                    name: Some(format!("block {b}")),
                    positions: block
                        .vertices
                        .iter()
                        .map(|v| v.position.map(f64::from))
                        .collect(),
                    flat: true,
                    ..Mesh::default()
                };
                for (t, tri) in block.triangles.iter().enumerate() {
                    let ok = tri
                        .indices
                        .iter()
                        .all(|&i| usize::from(i) < block.vertices.len());
                    if !ok {
                        warnings.push(warn(
                            &format!("blocks[{b}].triangles[{t}]"),
                            "triangle names a vertex the block does not have; left out",
                        ));
                        continue;
                    }
                    let skin = block.skins.get(usize::from(tri.skin));
                    let texture = skin
                        .map(|s| usize::from(s.texture))
                        .filter(|&t| t < textures.len());
                    // Shaded surfaces (type 0 in the flags' low nibble) carry a lightmap;
                    // flat, sky, turbulence and none do not.
                    let page = skin
                        .filter(|s| s.flags & 0xF == 0)
                        .map(|s| usize::from(s.lightmap))
                        .filter(|&p| p < pages.len());
                    let material = match page {
                        Some(p) => {
                            any_lit = true;
                            Some(lit.material(&mut scene, texture, p, &pages))
                        }
                        None => texture,
                    };
                    for &i in tri.indices.iter().rev() {
                        let uv = block
                            .vertices
                            .get(usize::from(i))
                            .map_or([0.0; 2], |v| v.lightmap_uv.map(f64::from));
                        lightmap_uvs.push(uv);
                    }
                    let corners = tri
                        .indices
                        .iter()
                        .rev()
                        .map(|&i| Corner {
                            position: u32::from(i),
                            normal: None,
                            uv: block
                                .vertices
                                .get(usize::from(i))
                                .map(|v| v.uv.map(f64::from)),
                            color: None,
                        })
                        .collect();
                    mesh.faces.push(Face { corners, material });
                }
                if any_lit {
                    scene.second_uvs.push(SecondUvs {
                        mesh: scene.meshes.len(),
                        uvs: lightmap_uvs,
                    });
                }
                mesh.extras.insert(
                    "skins".into(),
                    serde_json::to_value(&block.skins).unwrap_or_default(),
                );
                let mut extras = Extras::new();
                extras.insert("min".into(), json!(block.min));
                extras.insert("max".into(), json!(block.max));
                extras.insert("content".into(), json!(block.content));
                children.push(scene.nodes.len());
                scene.nodes.push(Node {
                    name: Some(format!("block {b}")),
                    mesh: Some(scene.meshes.len()),
                    extras,
                    ..Node::default()
                });
                scene.meshes.push(mesh);
            }
        }
        Err(e) => warnings.push(warn("blocks", e.to_string())),
    }

    // Objects.
    let objects = view::objects(wmb).unwrap_or_else(|e| {
        warnings.push(warn("objects", e.to_string()));
        Vec::new()
    });
    for (i, object) in objects.iter().enumerate() {
        let mut extras = object.fields.clone();
        extras.insert("kind".into(), json!(object.kind));
        if object.kind == ObjectKind::Info {
            scene.extras.insert("info".into(), Value::Object(extras));
            continue;
        }
        let kind = match object.kind {
            ObjectKind::Position => "position",
            ObjectKind::Light => "light",
            ObjectKind::OldEntity | ObjectKind::Entity => "entity",
            ObjectKind::Sound => "sound",
            ObjectKind::Path => "path",
            ObjectKind::Region => "region",
            ObjectKind::Info | ObjectKind::Unknown(_) => "object",
        };
        let name = object
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("{kind} {i}"));
        let mut node = Node {
            name: Some(name.clone()),
            transform: transform(object.origin, object.angles, object.scale),
            extras,
            ..Node::default()
        };
        if object.kind == ObjectKind::Light {
            let color = object
                .fields
                .get("color")
                .and_then(|c| serde_json::from_value::<[f32; 3]>(c.clone()).ok())
                .unwrap_or([100.0; 3]);
            let range = object.fields.get("range").and_then(Value::as_f64);
            node.light = Some(scene.lights.len());
            scene.lights.push(Light {
                name: Some(name.clone()),
                kind: LightKind::Point,
                color: color.map(|c| (c / 100.0).clamp(0.0, 1.0)),
                intensity: 1.0,
                range: range
                    .filter(|r| *r > 0.0 && r.is_finite())
                    .map(|r| r as f32),
                extras: Extras::new(),
            });
        }
        if object.kind == ObjectKind::Path && object.points.len() > 1 {
            let count = object.points.len();
            let mut mesh = Mesh {
                name: Some(name.clone()),
                positions: object.points.iter().map(|p| p.map(f64::from)).collect(),
                ..Mesh::default()
            };
            let edges: Vec<Vec<f32>> = object
                .fields
                .get("edges")
                .and_then(|e| serde_json::from_value(e.clone()).ok())
                .unwrap_or_default();
            for edge in &edges {
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
                }
            }
            if mesh.lines.is_empty() {
                mesh.lines.push(Polyline {
                    points: (0..count as u32).collect(),
                    closed: false,
                    material: None,
                });
            }
            node.mesh = Some(scene.meshes.len());
            scene.meshes.push(mesh);
        }
        children.push(scene.nodes.len());
        scene.nodes.push(node);
    }
    if let Some(r) = scene.nodes.get_mut(root) {
        r.children = children;
    }
    (scene, warnings)
}

/// Position, pan/tilt/roll in degrees and scale as a node transform; non-finite values and
/// zero scales leave the node untransformed in that part.
fn transform(
    origin: Option<[f32; 3]>,
    angles: Option<[f32; 3]>,
    scale: Option<[f32; 3]>,
) -> Transform {
    let finite = |v: Option<[f32; 3]>, d: f64| {
        v.map(|v| v.map(|x| if x.is_finite() { f64::from(x) } else { d }))
            .unwrap_or([d; 3])
    };
    let p = finite(origin, 0.0);
    let a = finite(angles, 0.0);
    let mut s = finite(scale, 1.0);
    if s.iter()
        .any(|&x| x == 0.0 || x.abs() > 1e6 || x.abs() < 1e-6)
    {
        s = [1.0; 3];
    }
    crate::formats::wmp::engine_transform(p, a, s)
}

/// The scene materials of lit block surfaces: one per texture and lightmap page, made when
/// first used (a copy of the texture's material with the page as its lightmap), and one
/// texture per page.
#[derive(Default)]
struct LitMaterials {
    materials: Vec<((Option<usize>, usize), usize)>,
    pages: Vec<(usize, usize)>,
}

impl LitMaterials {
    fn material(
        &mut self,
        scene: &mut Scene,
        texture: Option<usize>,
        page: usize,
        pages: &[view::LightmapPage],
    ) -> usize {
        if let Some(&(_, m)) = self.materials.iter().find(|(k, _)| *k == (texture, page)) {
            return m;
        }
        let lightmap = match self.pages.iter().find(|(p, _)| *p == page) {
            Some(&(_, t)) => t,
            None => {
                let t = scene.textures.len();
                let (size, pixels) = pages
                    .get(page)
                    .map_or((0, Vec::new()), |p| (p.size, p.pixels.clone()));
                scene.textures.push(Texture {
                    name: Some(format!("lightmap {page}")),
                    source: TextureSource::Pixels {
                        width: size,
                        height: size,
                        channels: 3,
                        data: pixels,
                    },
                    extras: Extras::new(),
                });
                self.pages.push((page, t));
                t
            }
        };
        let mut material = texture
            .and_then(|t| scene.materials.get(t).cloned())
            .unwrap_or_default();
        let base = material.name.clone().unwrap_or_else(|| "untextured".into());
        material.name = Some(format!("{base} + lightmap {page}"));
        material.extras.insert("lightmap".into(), json!(page));
        let m = scene.materials.len();
        scene.materials.push(material);
        scene.lightmaps.push(MaterialLightmap {
            material: m,
            texture: lightmap,
        });
        self.materials.push(((texture, page), m));
        m
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::{Item, ListKind, MAX_LISTS, Slot};
    use super::super::samples::{list, name};
    use super::*;
    use crate::io::ByteWriter;

    /// A WMB7 level with one path object: two nodes and one edge naming nodes `a` and `b`.
    fn path_level(a: f32, b: f32) -> Wmb {
        let mut objects = ByteWriter::new();
        objects.put_u32_le(1);
        objects.put_u32_le(8);
        objects.put_u32_le(6);
        name(&mut objects, "path_1", 20);
        objects.put_f32_le(2.0);
        for _ in 0..3 {
            objects.put_u32_le(0);
        }
        objects.put_u32_le(1);
        for f in [0.0f32, 0.0, 0.0, 64.0, 0.0, 0.0] {
            objects.put_f32_le(f);
        }
        for _ in 0..12 {
            objects.put_f32_le(0.0);
        }
        for f in [a, b, 0.0, 0.0, 0.0, 0.0] {
            objects.put_f32_le(f);
        }
        let mut level = Wmb {
            version: 7,
            slots: vec![Slot::default(); MAX_LISTS],
            items: vec![
                list(ListKind::Objects, objects),
                Item::Gap { data: vec![0; 3] },
            ],
        };
        level.settle_layout();
        level
    }

    #[test]
    fn path_edges_naming_no_node_are_left_out() {
        let lines = |a, b| -> Vec<Vec<u32>> {
            let (scene, _) = to_scene(&path_level(a, b));
            let meshes = scene.meshes.iter();
            meshes
                .flat_map(|m| &m.lines)
                .map(|l| l.points.clone())
                .collect()
        };
        assert_eq!(lines(1.0, 2.0), vec![vec![0, 1]]);
        // Found by fuzzing: a node number of -3.4e38 overflowed when made 0-based.
        for (a, b) in [
            (f32::MIN, 2.0),
            (f32::NAN, 1.0),
            (f32::INFINITY, 1.0),
            (0.0, 1.0),
        ] {
            // No edge is usable: the path is drawn through its nodes in order.
            assert_eq!(lines(a, b), vec![vec![0, 1]], "{a} {b}");
        }
    }
}
