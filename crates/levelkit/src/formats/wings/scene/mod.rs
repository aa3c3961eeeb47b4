//! Wings 3D <-> the common 3D model ([`crate::scene`]).
//!
//! **To a scene** ([`Wings::to_scene`]) does what Wings' own exporters do (notes §4.1, §8):
//! every visible object becomes a node with a mesh (hidden objects are left out and listed in
//! the scene's `extras.hidden_objects`; locked objects are exported); user-hidden faces are shown
//! again and holes are removed; a virtual mirror is frozen (the object is reflected about the
//! mirror face's plane and the mirror face removed, as `wings_we:freeze_mirror` does); the
//! face walk gives each face's corners counter-clockwise with their UVs (only when every corner
//! has one, as Wings' exporters require) and colours; hard edges split normals. Materials come
//! from the `opengl` properties, both key sets: 2.2+ `diffuse`/`emission`/`metallic`/
//! `roughness`, and the older `ambient`/`specular`/`shininess`, which are kept as
//! [`Phong`] values (and, without 2.2 keys, give metallic = mean specular and roughness =
//! 1 − shininess, Wings' own conversion direction). Texture maps `diffuse`, `normal`/`bump`,
//! `occlusion` and `emission` become textures; `metallic`, `roughness` and `gloss` maps have no
//! single glTF slot (glTF packs both in one image) and are listed in the material's extras.
//! Embedded images (rows bottom-up, 1–4 samples per pixel) become top-down pixel textures;
//! external images become file references relative to the `.wings` file (Wings' own fallback
//! when an absolute path is missing is the file name beside the model, so absolute paths are
//! reduced to their file name, the original kept in extras). Lights become nodes with lights
//! (`point`, `spot`, `infinite` = directional, `ambient`, `area`), aimed at their `aim_point`.
//! The current view becomes a perspective camera placed as Wings' renderer exporters place it.
//! Every material's full property list, every light's and the global properties travel in
//! `extras` (as the JSON form of their terms), so nothing is lost.
//!
//! **From a scene** ([`Wings::from_scene`]): every node with a mesh becomes an object, its
//! positions in world space (Wings has no object transforms); positions that are exactly equal
//! are welded into one vertex (glTF splits vertices at UV seams); open boundaries are closed with
//! hole faces, as Wings itself represents open meshes (faces `0 … N−1`, listed in `holes`);
//! per-corner UVs and colours become edge attributes; edges whose corner normals differ between
//! the two faces become hard edges. Non-manifold input (an edge used by more than two faces, or
//! twice in the same direction) is refused with an error naming the object, the edge and its
//! position. Materials become Wings materials with both `opengl` key sets (the original property
//! list is reused when the material came from Wings); textures become embedded images (PNG
//! decoded; pixels stored bottom-up) or external file references. Lights placed by nodes
//! become Wings lights (`lights` in the global properties): one that came from Wings keeps its
//! property list, moved only if its node was; others are written in the form and key order
//! Wings 2.2.9 saves (an area light needs its mesh, so only one from Wings is kept). Cameras
//! placed by nodes become the file's views, the first one current: a view from Wings is kept
//! whole while its camera has not moved, any other is made from the camera's place, direction
//! and field of view (Wings views have no roll). Animations have no place in a `.wings` file
//! and are reported as warnings.

use crate::scene::topology::{
    NonManifold, Rows, directed_sides, edge_weld, hole_loops, non_manifold,
};
use crate::scene::transform::look_rotation;
use crate::scene::vec3::{add, cross, dot, scale, sub, unit};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Deserialize;

use super::build::{atom, global_props, material, pair, rgba, shape};
use super::mesh::Polygon;
use super::model::*;
use crate::error::{Error, Location, Result, Warning};
use crate::etf::{AtomTag, Term};
use crate::registry::Format;
use crate::scene::{
    self, AlphaMode, Camera, Corner, Extras, Light, LightKind, Material as SceneMaterial, Mesh,
    Node, Phong, Projection, Scene, Texture, TextureSource, Transform,
};

/// The colour Wings gives the `default` material when a file does not define it.
const WINGS_DEFAULT_DIFFUSE: [f64; 4] = [
    0.7898538076923077,
    0.8133333333333334,
    0.6940444444444445,
    1.0,
];

fn warn(path: impl Into<String>, message: impl Into<String>) -> Warning {
    Warning::warning(Format::Wings, Location::path(path), message)
}

fn term_json(t: &Term) -> serde_json::Value {
    serde_json::to_value(t).unwrap_or(serde_json::Value::Null)
}

impl Wings {
    /// The model as a [`Scene`], as Wings' exporters see it (see the module docs), with what
    /// did not map.
    pub fn to_scene(&self) -> (Scene, Vec<Warning>) {
        let mut ctx = ToScene {
            scene: Scene::new(Format::Wings),
            warnings: Vec::new(),
            materials: HashMap::default(),
            textures: HashMap::default(),
        };
        match &self.content {
            Content::V2(doc) => ctx.document(doc),
            Content::Legacy(legacy) => ctx.legacy(legacy),
        }
        (ctx.scene, ctx.warnings)
    }
}

struct ToScene {
    scene: Scene,
    warnings: Vec<Warning>,
    /// Material name -> index in the scene.
    materials: HashMap<Option<String>, usize>,
    /// Image id -> texture index (`None` when the image could not be used).
    textures: HashMap<i64, Option<usize>>,
}

impl ToScene {
    fn document(&mut self, doc: &Document) {
        let mut hidden = Vec::new();
        for (si, shape) in doc.shapes.iter().enumerate() {
            let name = shape.name().unwrap_or_else(|| format!("object{si}"));
            if shape.is_hidden() {
                hidden.push(serde_json::Value::String(name));
                continue;
            }
            let mesh = self.shape_mesh(doc, si, shape, &name);
            let m = self.scene.meshes.len();
            self.scene.meshes.push(mesh);
            let mut extras = Extras::new();
            extras.insert("wings_object_props".into(), term_json(&shape.props));
            self.scene.add_root(Node {
                name: Some(name),
                mesh: Some(m),
                extras,
                ..Node::default()
            });
        }
        if !hidden.is_empty() {
            self.scene
                .extras
                .insert("hidden_objects".into(), serde_json::Value::Array(hidden));
        }
        self.lights(doc);
        self.camera(doc);
        self.scene
            .extras
            .insert("wings_props".into(), term_json(&doc.props));
    }

    fn shape_mesh(&mut self, doc: &Document, si: usize, shape: &Shape, name: &str) -> Mesh {
        let (poly, warnings) = shape.to_polygons();
        self.warnings.extend(warnings.into_iter().map(|mut w| {
            w.location = Location::path(format!(
                "shapes[{si}].{}",
                w.location.path.as_deref().unwrap_or("")
            ));
            w
        }));
        let mirror = shape.mirror_face().and_then(|f| {
            poly.faces
                .iter()
                .find(|p| i64::from(p.index) == f && !p.hole)
        });
        let mut mesh = Mesh {
            name: Some(name.to_owned()),
            positions: poly.positions.clone(),
            ..Mesh::default()
        };
        for face in &poly.faces {
            if face.hole || mirror.is_some_and(|m| m.index == face.index) {
                continue;
            }
            let material = self.material(doc, face.material.as_deref());
            let corners = face
                .vertices
                .iter()
                .enumerate()
                .map(|(k, &v)| Corner {
                    position: v,
                    normal: None,
                    uv: face.uvs.as_ref().and_then(|u| u.get(k).copied()),
                    color: face
                        .colors
                        .as_ref()
                        .and_then(|c| c.get(k))
                        .map(|c| [c[0], c[1], c[2], 1.0]),
                })
                .collect();
            mesh.faces.push(scene::Face {
                corners,
                material: Some(material),
            });
        }
        // Hard edges: edge indices -> their vertex pairs.
        if let Some(items) = shape.mesh.hard_edges.list_items() {
            for e in items.iter().filter_map(Term::as_int) {
                if let Some(r) = usize::try_from(e)
                    .ok()
                    .and_then(|e| shape.mesh.edges.get(e))
                    .and_then(Edge::record)
                {
                    mesh.hard_edges.push([r.vs.min(r.ve), r.vs.max(r.ve)]);
                }
            }
        }
        if let Some(m) = mirror {
            freeze_mirror(&mut mesh, &m.vertices);
            mesh.extras
                .insert("wings_mirror_face".into(), serde_json::Value::from(m.index));
        }
        mesh
    }

    /// The scene index of Wings material `name` (`None` = `default`), made on first use.
    fn material(&mut self, doc: &Document, name: Option<&str>) -> usize {
        let key = name.map(str::to_owned);
        if let Some(&i) = self.materials.get(&key) {
            return i;
        }
        let wname = name.unwrap_or("default");
        let mat = match doc.material(wname) {
            Some(m) => self.convert_material(doc, m),
            None => {
                if name.is_some() {
                    self.warnings.push(warn(
                        "materials",
                        format!("material {wname:?} is used but not defined; Wings uses default"),
                    ));
                }
                match doc.material("default") {
                    Some(m) => self.convert_material(doc, m),
                    None => SceneMaterial {
                        name: Some("default".into()),
                        base_color: WINGS_DEFAULT_DIFFUSE.map(|v| v as f32),
                        metallic: 0.1,
                        roughness: 0.8,
                        vertex_colors: true,
                        ..SceneMaterial::default()
                    },
                }
            }
        };
        let i = self.scene.materials.len();
        self.scene.materials.push(mat);
        self.materials.insert(key, i);
        i
    }

    fn convert_material(&mut self, doc: &Document, m: &Material) -> SceneMaterial {
        let f32s = |c: [f64; 4]| c.map(|v| v.clamp(0.0, 1.0) as f32);
        let diffuse = m.color("diffuse").unwrap_or(WINGS_DEFAULT_DIFFUSE);
        let emission = m.color("emission").unwrap_or([0.0, 0.0, 0.0, 1.0]);
        let ambient = m.color("ambient");
        let specular = m.color("specular");
        let shininess = m.number("shininess");
        let phong =
            (ambient.is_some() || specular.is_some() || shininess.is_some()).then(|| Phong {
                ambient: f32s(ambient.unwrap_or([0.0; 4])),
                diffuse: f32s(diffuse),
                specular: f32s(specular.unwrap_or([0.0; 4])),
                emission: f32s(emission),
                shininess: shininess.unwrap_or(0.0).clamp(0.0, 1.0) as f32,
            });
        let metallic = m.number("metallic").unwrap_or_else(|| match specular {
            Some(s) if m.number("roughness").is_none() => (s[0] + s[1] + s[2]) / 3.0,
            _ => 0.1,
        });
        let roughness = m
            .number("roughness")
            .unwrap_or_else(|| shininess.map_or(0.8, |s| 1.0 - s));
        let vertex_colors = m
            .opengl()
            .and_then(|g| g.proplist_get("vertex_colors"))
            .and_then(Term::as_atom)
            .is_some_and(|v| v == "set" || v == "multiply");
        let base_color = f32s(diffuse);
        let mut out = SceneMaterial {
            name: Some(m.name.name.clone()),
            base_color,
            metallic: metallic.clamp(0.0, 1.0) as f32,
            roughness: roughness.clamp(0.0, 1.0) as f32,
            emissive: [emission[0], emission[1], emission[2]].map(|v| v.clamp(0.0, 1.0) as f32),
            alpha_mode: if base_color[3] < 1.0 {
                AlphaMode::Blend
            } else {
                AlphaMode::Opaque
            },
            vertex_colors,
            phong,
            ..SceneMaterial::default()
        };
        let mut unmapped = Vec::new();
        for (kind, value) in m.maps() {
            let Some(id) = value.as_int() else {
                unmapped.push(serde_json::Value::String(kind));
                continue;
            };
            let slot = match kind.as_str() {
                "diffuse" => &mut out.base_color_texture,
                "normal" | "bump" => &mut out.normal_texture,
                "occlusion" => &mut out.occlusion_texture,
                "emission" => &mut out.emissive_texture,
                _ => {
                    unmapped.push(serde_json::Value::String(kind));
                    continue;
                }
            };
            *slot = self.texture(doc, id);
        }
        if !unmapped.is_empty() {
            self.warnings.push(warn(
                format!("materials.{}", m.name.name),
                format!(
                    "material {:?}: maps {unmapped:?} have no glTF slot of their own; kept in extras",
                    m.name.name
                ),
            ));
            out.extras
                .insert("unmapped_maps".into(), serde_json::Value::Array(unmapped));
        }
        out.extras
            .insert("wings_material_props".into(), term_json(&m.props));
        out
    }

    fn texture(&mut self, doc: &Document, id: i64) -> Option<usize> {
        if let Some(t) = self.textures.get(&id) {
            return *t;
        }
        let found = doc
            .prop("images")
            .and_then(Term::list_items)
            .and_then(|items| {
                items.into_iter().find_map(|t| match t.as_tuple() {
                    Some([i, props]) if i.as_int() == Some(id) => Some(props.clone()),
                    _ => None,
                })
            });
        let made = match found {
            None => {
                self.warnings.push(warn(
                    "props.images",
                    format!("a material uses image {id}, which the file does not have"),
                ));
                None
            }
            Some(props) => match image_texture(id, &props) {
                Ok(t) => {
                    self.scene.textures.push(t);
                    Some(self.scene.textures.len() - 1)
                }
                Err(msg) => {
                    self.warnings.push(warn(format!("props.images[{id}]"), msg));
                    None
                }
            },
        };
        self.textures.insert(id, made);
        made
    }

    fn lights(&mut self, doc: &Document) {
        let Some(items) = doc.prop("lights").and_then(Term::list_items) else {
            return;
        };
        for (li, item) in items.iter().enumerate() {
            let Some([name, props]) = item.as_tuple() else {
                continue;
            };
            let name = name.as_charlist().unwrap_or_else(|| format!("light{li}"));
            let gl = props.proplist_get("opengl");
            let get = |k: &str| gl.and_then(|g| g.proplist_get(k));
            let vec3 = |k: &str| get(k).and_then(as_vec3);
            let kind_name = get("type").and_then(Term::as_atom).unwrap_or("point");
            let diffuse = get("diffuse").and_then(color4).unwrap_or([1.0; 4]);
            let mut position = vec3("position").unwrap_or([0.0; 3]);
            if kind_name == "area"
                && let Some(c) = get("mesh").and_then(area_centroid)
            {
                position = c;
            }
            let aim = vec3("aim_point");
            let kind = match kind_name {
                "spot" => {
                    let cone = get("cone_angle").and_then(Term::as_number).unwrap_or(30.0);
                    let outer = (cone.to_radians() as f32).clamp(1e-3, std::f32::consts::FRAC_PI_2);
                    LightKind::Spot {
                        inner_cone_angle: 0.0,
                        outer_cone_angle: outer,
                    }
                }
                "infinite" => LightKind::Directional,
                "ambient" => LightKind::Ambient,
                "area" => LightKind::Area,
                _ => LightKind::Point,
            };
            let mut extras = Extras::new();
            extras.insert("wings_light_props".into(), term_json(props));
            let visible = props.proplist_get("visible").and_then(Term::as_atom) != Some("false");
            extras.insert("visible".into(), serde_json::Value::Bool(visible));
            let l = self.scene.lights.len();
            self.scene.lights.push(Light {
                name: Some(name.clone()),
                kind,
                color: [diffuse[0], diffuse[1], diffuse[2]].map(|v| v.clamp(0.0, 1.0) as f32),
                intensity: 1.0,
                range: None,
                extras,
            });
            let rotation = match (kind, aim) {
                (LightKind::Point | LightKind::Ambient, _) | (_, None) => [0.0, 0.0, 0.0, 1.0],
                (_, Some(a)) => look_rotation(sub(a, position), [0.0, 1.0, 0.0]),
            };
            self.scene.add_root(Node {
                name: Some(name),
                transform: Transform::Trs {
                    translation: position,
                    rotation,
                    scale: [1.0; 3],
                },
                light: Some(l),
                ..Node::default()
            });
        }
    }

    /// The current view (or the first) as a camera, placed as Wings' render exporters place it.
    fn camera(&mut self, doc: &Document) {
        let Some(views) = doc.prop("views").and_then(Term::list_items) else {
            return;
        };
        let current = doc
            .prop("current_view")
            .and_then(Term::as_int)
            .and_then(|i| usize::try_from(i).ok())
            .unwrap_or(1);
        let Some(view) = views
            .get(current.saturating_sub(1))
            .or_else(|| views.first())
            .and_then(|v| match v.as_tuple() {
                Some([_, props]) => Some(props.clone()),
                _ => None,
            })
        else {
            return;
        };
        let num = |k: &str, d: f64| view.proplist_get(k).and_then(Term::as_number).unwrap_or(d);
        let (eye, target) = view_placement(&view);
        let name = view
            .proplist_get("name")
            .and_then(Term::as_charlist)
            .unwrap_or_else(|| "current_view".into());
        let mut extras = Extras::new();
        extras.insert("wings_view".into(), term_json(&view));
        let c = self.scene.cameras.len();
        self.scene.cameras.push(Camera {
            name: Some(name.clone()),
            projection: Projection::Perspective {
                yfov: num("fov", 45.0).to_radians().clamp(1e-3, 3.1),
                znear: num("hither", 0.1).max(1e-6),
                zfar: Some(num("yon", 10000.0)),
                aspect_ratio: None,
            },
            extras,
        });
        self.scene.add_root(Node {
            name: Some(name),
            transform: Transform::Trs {
                translation: eye,
                rotation: look_rotation(sub(target, eye), [0.0, 1.0, 0.0]),
                scale: [1.0; 3],
            },
            camera: Some(c),
            ..Node::default()
        });
    }

    fn legacy(&mut self, legacy: &Legacy) {
        let meshes = match legacy.meshes() {
            Ok(m) => m,
            Err(e) => {
                self.warnings.push(warn(
                    "",
                    format!("version {} file: {e}; no objects exported", legacy.version),
                ));
                return;
            }
        };
        for (i, lm) in meshes.into_iter().enumerate() {
            let name = lm.name.clone().unwrap_or_else(|| format!("object{i}"));
            let mut mesh = Mesh {
                name: Some(name.clone()),
                positions: lm.positions,
                ..Mesh::default()
            };
            for (vs, mat) in lm.faces.iter().zip(&lm.materials) {
                let key = mat.clone();
                let next = self.scene.materials.len();
                let m = *self.materials.entry(key).or_insert(next);
                if m == next {
                    self.scene.materials.push(SceneMaterial {
                        name: Some(mat.clone().unwrap_or_else(|| "default".into())),
                        ..SceneMaterial::default()
                    });
                }
                // Pre-0.92 faces are stored clockwise? They are as Wings 0.9 kept them;
                // they are passed through in file order.
                mesh.faces.push(scene::Face {
                    corners: vs
                        .iter()
                        .map(|&v| Corner {
                            position: v,
                            ..Corner::default()
                        })
                        .collect(),
                    material: Some(m),
                });
            }
            let mi = self.scene.meshes.len();
            self.scene.meshes.push(mesh);
            self.scene.add_root(Node {
                name: Some(name),
                mesh: Some(mi),
                ..Node::default()
            });
        }
        self.warnings.push(warn(
            "",
            format!(
                "version {} file: positions are as stored (Wings applied the object matrix and a \
                 0.1 scale on import)",
                legacy.version
            ),
        ));
    }
}

/// An `images` entry as a texture.
fn image_texture(id: i64, props: &Term) -> std::result::Result<Texture, String> {
    let name = props.proplist_get("name").and_then(Term::as_charlist);
    let int = |k: &str| props.proplist_get(k).and_then(Term::as_int);
    let mut extras = Extras::new();
    extras.insert("wings_image_id".into(), serde_json::Value::from(id));
    if let Some(filename) = props.proplist_get("filename").and_then(Term::as_charlist) {
        if filename.is_empty() {
            return Err(format!("image {id} has an empty file name"));
        }
        extras.insert(
            "wings_filename".into(),
            serde_json::Value::String(filename.clone()),
        );
        let base = filename
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&filename)
            .to_owned();
        return Ok(Texture {
            name,
            source: TextureSource::File(base),
            extras,
        });
    }
    let (Some(w), Some(h), Some(pp)) = (int("width"), int("height"), int("samples_per_pixel"))
    else {
        return Err(format!("image {id} has neither pixels nor a file name"));
    };
    let pixels = props
        .proplist_get("pixels")
        .and_then(Term::as_binary)
        .unwrap_or(&[]);
    let (Ok(wu), Ok(hu), Ok(ppu)) = (u32::try_from(w), u32::try_from(h), u8::try_from(pp)) else {
        return Err(format!("image {id}: bad size {w}x{h}x{pp}"));
    };
    let row = wu as usize * ppu as usize;
    if !(1..=4).contains(&ppu) || row == 0 || row.checked_mul(hu as usize) != Some(pixels.len()) {
        return Err(format!(
            "image {id}: {w}x{h} with {pp} samples per pixel needs {} bytes, the file has {} \
             (Wings shows a placeholder)",
            row.saturating_mul(hu as usize),
            pixels.len()
        ));
    }
    let mask = int("mask_size").unwrap_or(0) == 1;
    // Rows bottom-up in Wings, top-down in the scene.
    let mut data: Vec<u8> = pixels.chunks(row).rev().flatten().copied().collect();
    let mut channels = ppu;
    if ppu == 1 && mask {
        // One sample with a mask is alpha only: white with that alpha.
        data = data.iter().flat_map(|&a| [255, a]).collect();
        channels = 2;
    }
    Ok(Texture {
        name,
        source: TextureSource::Pixels {
            width: wu,
            height: hu,
            channels,
            data,
        },
        extras,
    })
}

/// The centroid of an area light's `e3d_mesh` vertices.
fn area_centroid(mesh: &Term) -> Option<[f64; 3]> {
    let vs = mesh.as_tuple()?.get(2)?.list_items()?;
    let pts: Vec<[f64; 3]> = vs
        .iter()
        .filter_map(|v| match v.as_tuple()? {
            [x, y, z] => Some([x.as_number()?, y.as_number()?, z.as_number()?]),
            _ => None,
        })
        .collect();
    if pts.is_empty() {
        return None;
    }
    let n = pts.len() as f64;
    let s = pts.iter().fold([0.0; 3], |a, p| add(a, *p));
    Some(scale(s, 1.0 / n))
}

/// Reflect the mesh about the plane of the mirror face (whose corners are `mirror`), as Wings'
/// exporter freezes a virtual mirror: the mirror face's vertices are shared, every other vertex
/// gets a reflected copy, and every face gets a reflected copy with its corners reversed.
fn freeze_mirror(mesh: &mut Mesh, mirror: &[u32]) {
    let pts: Vec<[f64; 3]> = mirror
        .iter()
        .filter_map(|&v| mesh.positions.get(v as usize).copied())
        .collect();
    let Some(n) = unit(crate::scene::triangulate::newell_normal(&pts)) else {
        return;
    };
    let c = scale(
        pts.iter().fold([0.0; 3], |a, p| add(a, *p)),
        1.0 / pts.len() as f64,
    );
    let count = mesh.positions.len();
    let mut map: Vec<u32> = Vec::with_capacity(count);
    for (i, p) in mesh.positions.clone().iter().enumerate() {
        if mirror.contains(&(i as u32)) {
            map.push(i as u32);
        } else {
            let d = dot(sub(*p, c), n);
            map.push(mesh.positions.len() as u32);
            mesh.positions.push(sub(*p, scale(n, 2.0 * d)));
        }
    }
    let copies: Vec<scene::Face> = mesh
        .faces
        .iter()
        .map(|f| scene::Face {
            corners: f
                .corners
                .iter()
                .rev()
                .map(|c| Corner {
                    position: map.get(c.position as usize).copied().unwrap_or(c.position),
                    ..*c
                })
                .collect(),
            material: f.material,
        })
        .collect();
    mesh.faces.extend(copies);
    let hard: Vec<[u32; 2]> = mesh
        .hard_edges
        .iter()
        .map(|e| {
            let a = map.get(e[0] as usize).copied().unwrap_or(e[0]);
            let b = map.get(e[1] as usize).copied().unwrap_or(e[1]);
            [a.min(b), a.max(b)]
        })
        .collect();
    mesh.hard_edges.extend(hard);
}

/// The rotation that turns −Z towards `forward` with +Y as close to `up` as possible, as a
/// quaternion `[x, y, z, w]`.
/// Where a Wings view puts the eye and what it looks at, as Wings' renderer exporters place
/// it: the eye sits at `distance_to_aim` from the aim point, turned by azimuth and elevation;
/// tracking pans eye and aim together.
fn view_placement(view: &Term) -> ([f64; 3], [f64; 3]) {
    let num = |k: &str, d: f64| view.proplist_get(k).and_then(Term::as_number).unwrap_or(d);
    let pair2 = |k: &str| match view.proplist_get(k).and_then(Term::as_tuple) {
        Some([a, b]) => Some([a.as_number()?, b.as_number()?]),
        _ => None,
    };
    let aim = match view.proplist_get("aim").and_then(Term::as_tuple) {
        Some([x, y, z]) => [x, y, z].map(|t| t.as_number().unwrap_or(0.0)),
        _ => [0.0; 3],
    };
    let (dist, az, el) = (
        num("distance_to_aim", 10.0),
        num("azimuth", 0.0).to_radians(),
        num("elevation", 0.0).to_radians(),
    );
    let [track_x, track_y] = pair2("tracking").unwrap_or([0.0; 2]);
    let rev = [
        -(dist * el.cos() * az.sin()),
        dist * el.sin(),
        dist * el.cos() * az.cos(),
    ];
    let left = unit(cross(rev, [0.0, 1.0, 0.0])).unwrap_or([-az.cos(), 0.0, -az.sin()]);
    let down = unit(cross(rev, left)).unwrap_or([0.0, -1.0, 0.0]);
    let transl = add(scale(left, track_x), scale(down, track_y));
    let target = add(aim, transl);
    (add(target, rev), target)
}

/// A scene camera as a Wings view (`{view, Props}`), placed by its node's world matrix `m`.
///
/// A view that came from Wings is kept whole while its camera is where the view puts it.
/// Otherwise the view is made from the camera: the aim point straight ahead at the old view's
/// distance (10 for a new one), azimuth and elevation from the viewing direction, no tracking
/// (Wings views have no roll: a rolled camera comes back upright), the vertical field of view
/// and the clipping distances. An orthographic camera has no Wings view.
fn wings_view(camera: &Camera, name: &str, m: &[f64; 16]) -> std::result::Result<Term, String> {
    let Projection::Perspective {
        yfov, znear, zfar, ..
    } = camera.projection
    else {
        return Err("an orthographic camera has no Wings view; left out".into());
    };
    let eye = [m[12], m[13], m[14]];
    let forward = unit([-m[8], -m[9], -m[10]]).unwrap_or([0.0, 0.0, -1.0]);
    let kept = camera
        .extras
        .get("wings_view")
        .and_then(|v| Term::deserialize(v).ok())
        .filter(|v| v.list_len().is_some());
    if let Some(view) = &kept {
        let (e0, t0) = view_placement(view);
        let d = sub(eye, e0);
        let near = dot(d, d).sqrt() <= 1e-5 * (1.0 + dot(eye, eye).sqrt());
        let same_way = unit(sub(t0, e0)).is_none_or(|f| dot(f, forward) >= 1.0 - 1e-6);
        if near && same_way {
            return Ok(Term::Tuple(vec![atom("view"), view.clone()]));
        }
    }
    let dist = kept
        .as_ref()
        .and_then(|v| v.proplist_get("distance_to_aim"))
        .and_then(Term::as_number)
        .filter(|d| *d > 0.0)
        .unwrap_or(10.0);
    let aim = add(eye, scale(forward, dist));
    // `view_placement` with no tracking: eye - aim = dist * (-cos el sin az, sin el, cos el cos az).
    let elevation = (-forward[1]).clamp(-1.0, 1.0).asin().to_degrees();
    let azimuth = if forward[0].abs() < 1e-12 && forward[2].abs() < 1e-12 {
        0.0
    } else {
        forward[0].atan2(-forward[2]).to_degrees()
    };
    Ok(Term::Tuple(vec![
        atom("view"),
        Term::list(vec![
            pair("name", Term::charlist(name)),
            pair("aim", point(aim)),
            pair("distance_to_aim", Term::float(dist)),
            pair("azimuth", Term::float(azimuth)),
            pair("elevation", Term::float(elevation)),
            pair(
                "tracking",
                Term::Tuple(vec![Term::float(0.0), Term::float(0.0)]),
            ),
            pair("fov", Term::float(yfov.to_degrees())),
            pair("hither", Term::float(znear)),
            pair("yon", Term::float(zfar.unwrap_or(10_000.0))),
        ]),
    ]))
}

/// `{X, Y, Z}` as numbers.
fn as_vec3(t: &Term) -> Option<[f64; 3]> {
    match t.as_tuple()? {
        [x, y, z] => Some([x.as_number()?, y.as_number()?, z.as_number()?]),
        _ => None,
    }
}

/// `{X, Y, Z}` of floats, as Wings writes positions.
fn point(p: [f64; 3]) -> Term {
    Term::Tuple(p.map(Term::float).to_vec())
}

mod from;
