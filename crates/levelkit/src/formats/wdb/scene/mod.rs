//! V-Chat worlds <-> the common 3D model ([`crate::scene`]); what maps where is in the
//! module docs of [`super`] (`formats::wdb`).

use serde_json::{Value, json};

use super::floats::Float as _;
use super::hypotheses::{self as h, LightType, RenderType, Tree};
use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::scene::{
    Animation as SceneAnimation, Corner, Extras, Face, Light as SceneLight, LightKind, Material,
    Mesh, Motion, Node as SceneNode, Polyline, Scene, Texture, TextureSource, Transform,
};

const F: Format = Format::Wdb;

/// The `extras` keys this conversion writes and reads.
pub(super) mod keys {
    pub const HEADER: &str = "wdb_header";
    pub const BACKGROUND: &str = "background_color";
    pub const FENCE: &str = "wdb_fence";
    pub const ANIMATION: &str = "wdb_animation";
    pub const PART: &str = "wdb_part";
    pub const RENDER_FLAGS: &str = "wdb_render_flags";
    pub const POINT_FLAGS: &str = "wdb_point_flags";
    pub const TEXTURE_DEF: &str = "wdb_texture";
    pub const TEXTURE_ANIMATION: &str = "wdb_texture_animation";
    pub const LIGHT: &str = "wdb_light";
    pub const TRAILING: &str = "wdb_trailing";
    pub const DEGREES_PER_FRAME: &str = "wdb_degrees_per_frame";
    pub const FRAMES_PER_SECOND: &str = "wdb_frames_per_second";
}

fn warn(path: impl Into<String>, message: impl Into<String>) -> Warning {
    Warning::warning(F, Location::path(path), message)
}

/// Whether the node spins: a non-zero axis and a speed that turns it.
pub(super) fn spins(n: &Node) -> bool {
    n.animation.axis != [0.0; 3]
        && n.animation.axis.iter().all(|v| v.is_finite())
        && h::degrees_per_frame(n.animation.speed) != 0.0
        && n.animation.speed.is_finite()
}

fn f32s(v: &[f32]) -> Value {
    Value::Array(
        v.iter()
            .map(|&x| {
                if x.is_finite() {
                    Value::from(f64::from(x))
                } else {
                    Value::from(x.bits_text())
                }
            })
            .collect(),
    )
}

/// An sRGB byte as a linear value.
fn linear(byte: u8) -> f32 {
    let s = f32::from(byte) / 255.0;
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

// ---- to a scene -------------------------------------------------------------------------------

impl Wdb {
    /// The world as a [`Scene`] (see the module docs), with what did not map.
    pub fn to_scene(&self) -> (Scene, Vec<Warning>) {
        let mut ctx = ToScene {
            scene: Scene::new(F),
            warnings: Vec::new(),
            materials: Vec::new(),
            textures: Vec::new(),
        };
        ctx.world(self);
        (ctx.scene, ctx.warnings)
    }
}

/// What makes two texture definitions one material.
#[derive(PartialEq)]
struct MaterialKey {
    name: Vec<u8>,
    color: Bgr,
    alpha: u8,
    extra: Vec<[u32; 2]>,
    flat: bool,
    animation: Option<h::TexAnim>,
}

struct ToScene {
    scene: Scene,
    warnings: Vec<Warning>,
    materials: Vec<(MaterialKey, usize)>,
    /// Lower-cased texture name -> texture index.
    textures: Vec<(Vec<u8>, usize)>,
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
        if !w.trailing.is_empty() {
            self.scene
                .extras
                .insert(keys::TRAILING.into(), Value::from(hex::encode(&w.trailing)));
        }
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
                transform: if n.transform.iter().all(|v| v.is_finite()) {
                    Transform::Matrix(h::matrix_to_scene(&n.transform))
                } else {
                    Transform::default()
                },
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
                    "speed": f32s(&[a.speed]).get(0).cloned(),
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
        let animation = h::texture_animation(n.name.as_bytes());
        if let Some(t) = animation {
            extras.insert(keys::TEXTURE_ANIMATION.into(), json!(t));
        }
        // Items beyond what one scene node holds: onto added children.
        let mut parts: Vec<(Option<usize>, Option<usize>)> = Vec::new();
        for (g, geometry) in n.geometries.iter().enumerate() {
            let m = self.mesh(
                geometry,
                n,
                animation,
                &format!("{}/geometries/{g}", path()),
            );
            if g == 0 {
                if let Some(node) = self.scene.nodes.get_mut(i) {
                    node.mesh = Some(m);
                }
            } else {
                parts.push((Some(m), None));
            }
        }
        for (l, light) in n.lights.iter().enumerate() {
            let Some(k) = self.light(light, n, &format!("{}/lights/{l}", path())) else {
                continue;
            };
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

    /// The texture for a file name (one per name, whatever its case).
    fn texture(&mut self, name: &[u8]) -> usize {
        let lower = name.to_ascii_lowercase();
        if let Some((_, t)) = self.textures.iter().find(|(n, _)| *n == lower) {
            return *t;
        }
        let t = self.scene.textures.len();
        let text = crate::strings::decode_cp1252(name);
        self.scene.textures.push(Texture {
            name: Some(text.clone()),
            source: TextureSource::File(text),
            extras: Extras::new(),
        });
        self.textures.push((lower, t));
        t
    }

    /// The material for a texture definition (M13).
    fn material(&mut self, def: &TexDef, flat: bool, animation: Option<h::TexAnim>) -> usize {
        let key = MaterialKey {
            name: def.name.as_bytes().to_vec(),
            color: def.color,
            alpha: def.alpha,
            extra: def.extra.iter().map(|p| p.map(f32::to_bits)).collect(),
            flat,
            animation: animation.filter(|_| !def.name.is_empty()),
        };
        if let Some((_, m)) = self.materials.iter().find(|(k, _)| *k == key) {
            return *m;
        }
        let [r, g, b] = def.color.rgb();
        let texture = (!def.name.is_empty()).then(|| self.texture(def.name.as_bytes()));
        let color = [linear(r), linear(g), linear(b)];
        let mut extras = Extras::new();
        extras.insert(
            keys::TEXTURE_DEF.into(),
            json!({
                "name": def.name.display(),
                "color": [r, g, b],
                "alpha": def.alpha,
                "extra": def.extra.iter().map(|p| f32s(p)).collect::<Vec<_>>(),
            }),
        );
        if let Some(t) = key.animation {
            extras.insert(keys::TEXTURE_ANIMATION.into(), json!(t));
        }
        let name = if def.name.is_empty() {
            format!("#{r:02x}{g:02x}{b:02x}")
        } else if let Some(t) = key.animation {
            format!("{} ({} frames)", def.name.display(), t.frames)
        } else {
            def.name.display()
        };
        let m = self.scene.materials.len();
        self.scene.materials.push(Material {
            name: Some(name),
            base_color: match texture {
                Some(_) => [1.0; 4],
                None => [color[0], color[1], color[2], 1.0],
            },
            base_color_texture: texture,
            emissive: if flat { color } else { [0.0; 3] },
            extras,
            ..Material::default()
        });
        self.materials.push((key, m));
        m
    }

    fn mesh(&mut self, g: &Geometry, n: &Node, animation: Option<h::TexAnim>, path: &str) -> usize {
        let kind = h::render_type(g.render_flags);
        let flat = kind == RenderType::Flat;
        let mats: Vec<usize> = g
            .textures
            .iter()
            .map(|t| self.material(t, flat, animation))
            .collect();
        let material = |p: usize| {
            g.materials
                .get(p)
                .and_then(|&m| h::material_index(m, mats.len()))
                .and_then(|m| mats.get(m))
                .copied()
        };
        // An animated texture shows its first frame: V scaled to one frame (M12).
        let v_scale = animation.map_or(1.0, |t| 1.0 / f64::from(t.frames));
        let mut mesh = Mesh {
            name: (!n.name.is_empty()).then(|| n.name.display()),
            positions: g.points.iter().map(|&p| h::point_to_scene(p)).collect(),
            flat: g.normals.is_empty(),
            ..Mesh::default()
        };
        let lines = kind == RenderType::Lines;
        let normal = |k: u16| {
            g.normals
                .get(usize::from(k))
                .map(|&v| h::point_to_scene(v).map(|c| c as f32))
                .filter(|v| v.iter().all(|c| c.is_finite()) && v.iter().any(|&c| c != 0.0))
        };
        let uv = |i: usize| {
            g.tex_coords.get(i).map(|&[u, v]| {
                let clean = |x: f32| if x.is_finite() { x } else { 0.0 };
                h::uv_to_scene([clean(u), (f64::from(clean(v)) * v_scale) as f32])
            })
        };
        let num_points = g.points.len();
        let finite = |i: usize| {
            g.points
                .get(i)
                .is_some_and(|p| p.iter().all(|c| c.is_finite()))
        };
        let (mut dropped, mut bad) = (0usize, 0usize);
        for (p, poly) in g.polygons.iter().enumerate() {
            if poly
                .points()
                .any(|i| usize::from(i) >= num_points || !finite(usize::from(i)))
            {
                bad += 1;
                continue;
            }
            let points: Vec<u32> = poly.points().map(u32::from).collect();
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
            let mut corners: Vec<Corner> = poly
                .corners
                .iter()
                .map(|&[i, k]| Corner {
                    position: u32::from(i),
                    normal: normal(k),
                    uv: uv(usize::from(i)),
                    color: None,
                })
                .collect();
            h::winding_to_scene(&mut corners);
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
        if bad > 0 {
            self.warnings.push(warn(
                path,
                format!("{bad} polygons use a point that is missing or not finite; left out"),
            ));
        }
        let e = &mut mesh.extras;
        e.insert(keys::RENDER_FLAGS.into(), Value::from(g.render_flags));
        if g.point_flags.iter().any(|f| *f != [0xFF; 4]) {
            e.insert(
                keys::POINT_FLAGS.into(),
                Value::from(hex::encode(
                    g.point_flags.iter().flatten().copied().collect::<Vec<u8>>(),
                )),
            );
        }
        let m = self.scene.meshes.len();
        self.scene.meshes.push(mesh);
        m
    }

    fn light(&mut self, l: &Light, n: &Node, path: &str) -> Option<usize> {
        let Some(kind) = l.light_type() else {
            self.warnings.push(warn(
                path,
                format!(
                    "light type {} is not a Direct3D RM light type; left out",
                    l.kind
                ),
            ));
            return None;
        };
        let kind = match kind {
            LightType::Ambient => LightKind::Ambient,
            LightType::Point | LightType::ParallelPoint => LightKind::Point,
            LightType::Directional => LightKind::Directional,
            LightType::Spot => {
                let (inner, outer) = h::spot_cone(l.s3_s4);
                let valid = 0.0 <= inner && inner < outer && outer <= std::f32::consts::FRAC_PI_2;
                let (inner, outer) = if valid {
                    (inner, outer)
                } else {
                    let outer = if outer.is_finite() {
                        outer.clamp(0.01, std::f32::consts::FRAC_PI_2)
                    } else {
                        std::f32::consts::FRAC_PI_4
                    };
                    let inner = if inner.is_finite() {
                        inner.clamp(0.0, outer * 0.9)
                    } else {
                        0.0
                    };
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
        Some(k)
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
