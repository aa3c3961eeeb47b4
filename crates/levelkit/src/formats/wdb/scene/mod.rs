//! V-Chat worlds <-> the common 3D model ([`crate::scene`]); what maps where is in the
//! module docs of [`super`] (`formats::wdb`).

use serde_json::{Value, json};

use super::hypotheses::{self as h, LightType, NormalBinding, Tree};
use super::model::*;
use crate::error::{Error, Location, Result, Severity, Warning};
use crate::registry::Format;
use crate::scene::vec3::unit;
use crate::scene::{
    self, Animation as SceneAnimation, Corner, Extras, Face, Light as SceneLight, LightKind,
    Material, Mesh, Motion, Node as SceneNode, Polyline, Scene, Texture, TextureSource, Transform,
};
use crate::strings::RawString;

const F: Format = Format::Wdb;

/// The `extras` keys this conversion writes and reads.
mod keys {
    pub const HEADER: &str = "wdb_header";
    pub const BACKGROUND: &str = "background_color";
    pub const FENCE: &str = "wdb_fence";
    pub const ANIMATION: &str = "wdb_animation";
    pub const PART: &str = "wdb_part";
    pub const RENDER_FLAGS: &str = "wdb_render_flags";
    pub const POINT_FLAGS: &str = "wdb_point_flags";
    pub const TEXTURES: &str = "wdb_textures";
    pub const NORMALS: &str = "wdb_normals";
    pub const TEX_COORDS: &str = "wdb_tex_coords";
    pub const MATERIALS: &str = "wdb_materials";
    pub const LIGHT: &str = "wdb_light";
    pub const DEGREES_PER_FRAME: &str = "wdb_degrees_per_frame";
    pub const FRAMES_PER_SECOND: &str = "wdb_frames_per_second";
}

fn warn(path: impl Into<String>, message: impl Into<String>) -> Warning {
    Warning::warning(F, Location::path(path), message)
}

/// Whether the node spins: a non-zero axis and a speed that turns it.
pub(super) fn spins(n: &Node) -> bool {
    n.animation.axis != [0.0; 3] && h::degrees_per_frame(n.animation.speed) != 0.0
}

fn f32s(v: &[f32]) -> Value {
    Value::Array(v.iter().map(|&x| Value::from(f64::from(x))).collect())
}

fn f32_list<const N: usize>(v: Option<&Value>) -> Option<[f32; N]> {
    let items = v?.as_array()?;
    if items.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = item.as_f64()? as f32;
    }
    Some(out)
}

fn byte(v: Option<&Value>) -> Option<u8> {
    v?.as_u64().and_then(|b| u8::try_from(b).ok())
}

// ---- to a scene -------------------------------------------------------------------------------

impl Wdb {
    /// The world as a [`Scene`] (see the module docs), with what did not map.
    pub fn to_scene(&self) -> (Scene, Vec<Warning>) {
        let mut ctx = ToScene {
            scene: Scene::new(F),
            warnings: Vec::new(),
            materials: Vec::new(),
        };
        ctx.world(self);
        (ctx.scene, ctx.warnings)
    }
}

struct ToScene {
    scene: Scene,
    warnings: Vec<Warning>,
    /// Texture name -> material (and texture) index.
    materials: Vec<(Vec<u8>, usize)>,
}

impl ToScene {
    fn world(&mut self, w: &Wdb) {
        let hd = &w.header;
        let [r, g, b] = hd.background.rgb();
        self.scene.extras.insert(
            keys::BACKGROUND.into(),
            json!([
                f64::from(r) / 255.0,
                f64::from(g) / 255.0,
                f64::from(b) / 255.0
            ]),
        );
        self.scene.extras.insert(
            keys::HEADER.into(),
            json!({
                "version": hd.version,
                "b0": hd.b0,
                "b1": hd.b1,
                "b2": hd.b2,
                "background": [r, g, b],
                "b3": hd.b3,
            }),
        );
        let tree = match w.tree() {
            Some(t) => t,
            None => {
                self.warnings.push(warn(
                    "nodes",
                    "the child counts run past the last node; every node is made a root",
                ));
                h::tree(w.nodes.iter().map(|_| 0)).unwrap_or_default()
            }
        };
        self.scene.nodes = w
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| SceneNode {
                name: (!n.name.is_empty()).then(|| n.name.display()),
                transform: Transform::Matrix(h::matrix_to_scene(&n.transform)),
                children: tree.children.get(i).cloned().unwrap_or_default(),
                ..SceneNode::default()
            })
            .collect();
        self.scene.roots = tree.roots.clone();
        for (i, n) in w.nodes.iter().enumerate() {
            self.node(i, n, &tree);
        }
        self.fence(&w.fence);
    }

    fn node(&mut self, i: usize, n: &Node, tree: &Tree) {
        let path = || format!("{} {:?}", tree.path(i), n.name.display());
        let a = &n.animation;
        let mut extras = Extras::new();
        if a.origin != [0.0; 3] || a.axis != [0.0; 3] || a.speed != 0.0 {
            extras.insert(
                keys::ANIMATION.into(),
                json!({
                    "origin": f32s(&a.origin),
                    "axis": f32s(&a.axis),
                    "speed": f64::from(a.speed),
                }),
            );
        }
        if spins(n) {
            let (axis, degrees_per_second) = h::spin_to_scene(a.axis, a.speed);
            let mut anim_extras = Extras::new();
            anim_extras.insert(
                keys::DEGREES_PER_FRAME.into(),
                Value::from(h::degrees_per_frame(a.speed)),
            );
            anim_extras.insert(
                keys::FRAMES_PER_SECOND.into(),
                Value::from(h::FRAMES_PER_SECOND),
            );
            if a.origin != [0.0; 3] {
                self.warnings.push(warn(
                    path(),
                    "the animation origin is not (0, 0, 0); the scene spins the node about its \
                     own origin",
                ));
            }
            self.scene.animations.push(SceneAnimation {
                name: (!n.name.is_empty()).then(|| n.name.display()),
                node: i,
                motion: Motion::Spin {
                    axis,
                    degrees_per_second,
                },
                extras: anim_extras,
            });
        }
        // Items beyond what one scene node holds: onto added children.
        let mut parts: Vec<(Option<usize>, Option<usize>)> = Vec::new();
        for (g, geometry) in n.geometries.iter().enumerate() {
            let m = self.mesh(geometry, n, &format!("{}/geometries/{g}", path()));
            if g == 0 {
                if let Some(node) = self.scene.nodes.get_mut(i) {
                    node.mesh = Some(m);
                }
            } else {
                parts.push((Some(m), None));
            }
        }
        for (l, light) in n.lights.iter().enumerate() {
            let k = self.light(light, n, &format!("{}/lights/{l}", path()));
            if l == 0 && n.geometries.is_empty() {
                if let Some(node) = self.scene.nodes.get_mut(i) {
                    node.light = Some(k);
                }
            } else {
                parts.push((None, Some(k)));
            }
        }
        for (mesh, light) in parts {
            let mut e = Extras::new();
            e.insert(keys::PART.into(), Value::Bool(true));
            let c = self.scene.nodes.len();
            self.scene.nodes.push(SceneNode {
                name: (!n.name.is_empty()).then(|| n.name.display()),
                mesh,
                light,
                extras: e,
                ..SceneNode::default()
            });
            if let Some(node) = self.scene.nodes.get_mut(i) {
                node.children.push(c);
            }
        }
        if let Some(node) = self.scene.nodes.get_mut(i) {
            node.extras = extras;
        }
    }

    /// The material (and texture) for a texture name.
    fn material(&mut self, name: &TexDef) -> usize {
        if let Some((_, m)) = self
            .materials
            .iter()
            .find(|(n, _)| n.as_slice() == name.name.as_bytes())
        {
            return *m;
        }
        let t = self.scene.textures.len();
        let text = name.name.display();
        self.scene.textures.push(Texture {
            name: Some(text.clone()),
            source: TextureSource::File(text.clone()),
            extras: Extras::new(),
        });
        let m = self.scene.materials.len();
        self.scene.materials.push(Material {
            name: Some(text),
            base_color_texture: Some(t),
            ..Material::default()
        });
        self.materials.push((name.name.as_bytes().to_vec(), m));
        m
    }

    fn mesh(&mut self, g: &Geometry, n: &Node, path: &str) -> usize {
        let mats: Vec<usize> = g.textures.iter().map(|t| self.material(t)).collect();
        let material = |p: usize| {
            g.materials
                .get(p)
                .and_then(|&m| mats.get(usize::from(m)))
                .copied()
        };
        let mut mesh = Mesh {
            name: (!n.name.is_empty()).then(|| n.name.display()),
            positions: g.points.iter().map(|&p| h::point_to_scene(p)).collect(),
            ..Mesh::default()
        };
        let lines = h::is_line_set(g.render_flags);
        let binding = h::normal_binding(g.normals.len(), g.points.len(), g.polygons.len());
        let normal = |v: [f32; 3]| h::point_to_scene(v).map(|c| c as f32);
        let mut dropped = 0usize;
        for (p, poly) in g.polygons.iter().enumerate() {
            let points: Vec<u32> = poly.points.iter().map(|&i| u32::from(i)).collect();
            if lines {
                if points.len() < 2 {
                    dropped += 1;
                    continue;
                }
                let closed = h::line_def_closed(points.len());
                mesh.lines.push(Polyline {
                    points,
                    closed,
                    material: material(p),
                });
                continue;
            }
            if points.len() < 3 {
                dropped += 1;
                continue;
            }
            let corners = poly
                .points
                .iter()
                .map(|&i| {
                    let i = usize::from(i);
                    Corner {
                        position: i as u32,
                        normal: match binding {
                            NormalBinding::PerPoint => g.normals.get(i).map(|&v| normal(v)),
                            NormalBinding::PerPolygon => g.normals.get(p).map(|&v| normal(v)),
                            NormalBinding::Unknown => None,
                        },
                        uv: g.tex_coords.get(i).map(|&t| h::uv_to_scene(t)),
                        color: None,
                    }
                })
                .collect();
            mesh.faces.push(Face {
                corners,
                material: material(p),
            });
        }
        if dropped > 0 {
            self.warnings.push(warn(
                path,
                format!(
                    "{dropped} {} definitions with too few points are left out",
                    if lines { "line" } else { "polygon" }
                ),
            ));
        }
        mesh.flat = binding == NormalBinding::Unknown;
        let e = &mut mesh.extras;
        e.insert(keys::RENDER_FLAGS.into(), Value::from(g.render_flags));
        if g.point_flags.iter().any(|f| *f != [0; 4]) {
            e.insert(
                keys::POINT_FLAGS.into(),
                Value::from(hex::encode(
                    g.point_flags.iter().flatten().copied().collect::<Vec<u8>>(),
                )),
            );
        }
        let mut names: Vec<&[u8]> = g.textures.iter().map(|t| t.name.as_bytes()).collect();
        names.sort_unstable();
        names.dedup();
        if names.len() < g.textures.len() {
            // Two definitions of one name: which one a polygon uses is not in its material.
            e.insert(
                keys::MATERIALS.into(),
                Value::Array(g.materials.iter().map(|&m| Value::from(m)).collect()),
            );
        }
        if !g.textures.is_empty() {
            e.insert(
                keys::TEXTURES.into(),
                Value::Array(
                    g.textures
                        .iter()
                        .map(|t| Value::from(t.name.display()))
                        .collect(),
                ),
            );
        }
        if lines || binding != NormalBinding::PerPoint {
            if !lines && binding == NormalBinding::Unknown && !g.normals.is_empty() {
                self.warnings.push(warn(
                    path,
                    format!(
                        "{} normals for {} points and {} polygons: not used (kept in \
                         extras.{})",
                        g.normals.len(),
                        g.points.len(),
                        g.polygons.len(),
                        keys::NORMALS
                    ),
                ));
            }
            e.insert(
                keys::NORMALS.into(),
                Value::Array(g.normals.iter().map(|v| f32s(v)).collect()),
            );
        }
        if lines && g.tex_coords.iter().any(|t| *t != [0.0; 2]) {
            e.insert(
                keys::TEX_COORDS.into(),
                Value::Array(g.tex_coords.iter().map(|v| f32s(v)).collect()),
            );
        }
        let m = self.scene.meshes.len();
        self.scene.meshes.push(mesh);
        m
    }

    fn light(&mut self, l: &Light, n: &Node, path: &str) -> usize {
        let kind = match l.kind {
            LightType::Ambient => LightKind::Ambient,
            LightType::Point | LightType::ParallelPoint => LightKind::Point,
            LightType::Directional => LightKind::Directional,
            LightType::Spot => {
                let (inner, outer) = h::spot_cone(l.s3_s4);
                let valid = 0.0 <= inner && inner < outer && outer <= std::f32::consts::FRAC_PI_2;
                let (inner, outer) = if valid {
                    (inner, outer)
                } else {
                    let outer = outer.clamp(0.01, std::f32::consts::FRAC_PI_2);
                    let inner = inner.clamp(0.0, outer * 0.9);
                    self.warnings.push(warn(
                        path,
                        format!(
                            "penumbra {} and umbra {} are not a cone; exported as half-angles \
                             {inner} and {outer}",
                            l.s3_s4[0], l.s3_s4[1]
                        ),
                    ));
                    (inner, outer)
                };
                LightKind::Spot {
                    inner_cone_angle: inner,
                    outer_cone_angle: outer,
                }
            }
        };
        let mut extras = Extras::new();
        extras.insert(
            keys::LIGHT.into(),
            json!({
                "type": l.kind,
                "b1": l.b1,
                "b2": l.b2,
                "b3": l.b3,
                "b7": l.b7,
                "attenuation": f32s(&h::light_attenuation(l.s0_s2)),
                "s0_s2": f32s(&l.s0_s2),
                "s3_s4": f32s(&l.s3_s4),
            }),
        );
        let k = self.scene.lights.len();
        self.scene.lights.push(SceneLight {
            name: (!n.name.is_empty()).then(|| n.name.display()),
            kind,
            color: h::light_rgb(l.color).map(|b| f32::from(b) / 255.0),
            intensity: 1.0,
            range: None,
            extras,
        });
        k
    }

    fn fence(&mut self, fence: &Fence) {
        self.scene.extras.insert(
            keys::FENCE.into(),
            json!({
                "y_min": fence.y_min,
                "y_max": fence.y_max,
                "segments": fence.borders.len(),
            }),
        );
        if fence.borders.is_empty() {
            return;
        }
        let y = fence.y_min;
        let point = |x: f64, z: f64| [x, y, -z];
        let same = |a: (f64, f64), b: (f64, f64)| {
            a.0.to_bits() == b.0.to_bits() && a.1.to_bits() == b.1.to_bits()
        };
        let mut mesh = Mesh {
            name: Some("fence".into()),
            ..Mesh::default()
        };
        let mut i = 0;
        while let Some(first) = fence.borders.get(i) {
            let start = mesh.positions.len() as u32;
            mesh.positions.push(point(first.x0, first.z0));
            mesh.positions.push(point(first.x1, first.z1));
            let mut end = (first.x1, first.z1);
            let mut j = i + 1;
            while let Some(b) = fence.borders.get(j) {
                if !same((b.x0, b.z0), end) {
                    break;
                }
                mesh.positions.push(point(b.x1, b.z1));
                end = (b.x1, b.z1);
                j += 1;
            }
            let mut count = mesh.positions.len() as u32 - start;
            let closed = count > 3 && same(end, (first.x0, first.z0));
            if closed {
                mesh.positions.pop();
                count -= 1;
            }
            mesh.lines.push(Polyline {
                points: (start..start + count).collect(),
                closed,
                material: None,
            });
            i = j;
        }
        let m = self.scene.meshes.len();
        self.scene.meshes.push(mesh);
        let mut extras = Extras::new();
        extras.insert(keys::FENCE.into(), Value::Bool(true));
        self.scene.add_root(SceneNode {
            name: Some("fence".into()),
            mesh: Some(m),
            extras,
            ..SceneNode::default()
        });
    }
}

mod from;
