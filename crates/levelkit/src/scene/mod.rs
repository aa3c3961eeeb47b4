//! The common 3D model: what every 3D format (Wings 3D, 3D GameStudio, V-Chat) converts to, and
//! what the glTF/GLB and OBJ exporters and importers work on.
//!
//! A [`Scene`] is a flat list of items referenced by index, as in glTF: [`Node`]s form a tree
//! (each node lists its children; [`Scene::roots`] lists the top), and a node may carry a
//! [`Mesh`], a [`Light`] and a [`Camera`]. Meshes keep **n-gon faces** with per-corner attributes
//! (position index, normal, UV, colour), so polygon formats (OBJ, Wings) lose nothing; the glTF
//! exporter triangulates ([`triangulate`]). Every item has an `extras` map for fields a modern
//! format has no place for; the glTF exporter writes them as glTF `extras`, so the way back can
//! rebuild the source.
//!
//! Conventions: right-handed, Y up, metres or the source's units unchanged; faces are
//! counter-clockwise seen from the front (glTF's and Wings' convention); colours are linear RGB(A)
//! in 0–1; UVs have V pointing up from the bottom of the image (OpenGL and Wings; glTF's V points
//! down, and its exporter flips); rotations are unit quaternions `[x, y, z, w]`.
//!
//! [`Scene::validate`] checks the references and numbers, with a path for every finding.

// Integer keys hashed in hot loops: FxHash, not SipHash (no untrusted-key DoS concern that
// outweighs the speed here: keys are indices bounded by the input).
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use vec3::unit;

use serde::{Deserialize, Serialize};

use crate::error::{Location, Severity, Warning};
use crate::registry::Format;

pub mod dump;
pub(crate) mod topology;
pub(crate) mod transform;
pub mod triangulate;
pub(crate) mod vec3;

/// Fields with no home in the common model, kept for the way back: glTF `extras`.
pub type Extras = serde_json::Map<String, serde_json::Value>;

/// A whole 3D scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// The format the scene was made from (named in warnings).
    pub source_format: Format,
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// All nodes; [`Node::children`] and [`Scene::roots`] index into it.
    #[serde(default)]
    pub nodes: Vec<Node>,
    /// The top-level nodes, in order.
    #[serde(default)]
    pub roots: Vec<usize>,
    /// Meshes.
    #[serde(default)]
    pub meshes: Vec<Mesh>,
    /// Materials.
    #[serde(default)]
    pub materials: Vec<Material>,
    /// Textures.
    #[serde(default)]
    pub textures: Vec<Texture>,
    /// Lights.
    #[serde(default)]
    pub lights: Vec<Light>,
    /// Cameras.
    #[serde(default)]
    pub cameras: Vec<Camera>,
    /// Animations.
    #[serde(default)]
    pub animations: Vec<Animation>,
    /// Morph targets (vertex animation frames) of meshes, at most one set per mesh.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub morphs: Vec<Morphs>,
    /// Animations that show a mesh's morph targets one after another.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub morph_animations: Vec<MorphAnimation>,
    /// Skins: joints that deform a mesh's positions (at most one skin per mesh).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skins: Vec<Skin>,
    /// Keyframed animations of joint nodes (a skeleton's poses, one key per frame).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joint_animations: Vec<JointAnimation>,
    /// Second texture coordinate sets of meshes (lightmap coordinates), at most one per mesh.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub second_uvs: Vec<SecondUvs>,
    /// Lightmaps of materials: a texture sampled with the mesh's [`SecondUvs`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lightmaps: Vec<MaterialLightmap>,
    /// Scene-wide fields (background colour, fog, ambient light, source format settings).
    #[serde(default)]
    pub extras: Extras,
}

/// A node of the tree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its transform relative to its parent.
    #[serde(default)]
    pub transform: Transform,
    /// Child nodes (indices into [`Scene::nodes`]).
    #[serde(default)]
    pub children: Vec<usize>,
    /// Its mesh.
    #[serde(default)]
    pub mesh: Option<usize>,
    /// Its light (shining down the node's −Z axis, as in glTF).
    #[serde(default)]
    pub light: Option<usize>,
    /// Its camera (looking down the node's −Z axis, +Y up, as in glTF).
    #[serde(default)]
    pub camera: Option<usize>,
    /// Source fields.
    #[serde(default)]
    pub extras: Extras,
}

/// A node's local transform.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transform {
    /// Translation, then rotation, then scale applied to the node's content (`T * R * S`).
    Trs {
        /// Translation.
        translation: [f64; 3],
        /// Unit quaternion `[x, y, z, w]`.
        rotation: [f64; 4],
        /// Scale.
        scale: [f64; 3],
    },
    /// A 4x4 matrix in column-major order (glTF's layout), for shears and mirrorings that TRS
    /// cannot express.
    Matrix([f64; 16]),
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

impl Transform {
    /// No transform.
    pub const IDENTITY: Transform = Transform::Trs {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };

    /// A translation only.
    pub fn translation(t: [f64; 3]) -> Transform {
        Transform::Trs {
            translation: t,
            rotation: [0.0, 0.0, 0.0, 1.0],
            scale: [1.0; 3],
        }
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        match self {
            Transform::Trs { .. } => *self == Transform::IDENTITY,
            Transform::Matrix(m) => *m == IDENTITY_MATRIX,
        }
    }

    /// The column-major 4x4 matrix.
    pub fn matrix(&self) -> [f64; 16] {
        match *self {
            Transform::Matrix(m) => m,
            Transform::Trs {
                translation: t,
                rotation: [x, y, z, w],
                scale: s,
            } => {
                let (xx, yy, zz) = (x * x, y * y, z * z);
                let (xy, xz, yz) = (x * y, x * z, y * z);
                let (wx, wy, wz) = (w * x, w * y, w * z);
                [
                    (1.0 - 2.0 * (yy + zz)) * s[0],
                    2.0 * (xy + wz) * s[0],
                    2.0 * (xz - wy) * s[0],
                    0.0,
                    2.0 * (xy - wz) * s[1],
                    (1.0 - 2.0 * (xx + zz)) * s[1],
                    2.0 * (yz + wx) * s[1],
                    0.0,
                    2.0 * (xz + wy) * s[2],
                    2.0 * (yz - wx) * s[2],
                    (1.0 - 2.0 * (xx + yy)) * s[2],
                    0.0,
                    t[0],
                    t[1],
                    t[2],
                    1.0,
                ]
            }
        }
    }

    /// Transform a point.
    pub fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let m = self.matrix();
        let [a0, a1, a2, _, b0, b1, b2, _, c0, c1, c2, _, t0, t1, t2, _] = m;
        [
            a0 * p[0] + b0 * p[1] + c0 * p[2] + t0,
            a1 * p[0] + b1 * p[1] + c1 * p[2] + t1,
            a2 * p[0] + b2 * p[1] + c2 * p[2] + t2,
        ]
    }
}

/// The 4x4 identity, column-major.
pub const IDENTITY_MATRIX: [f64; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// A mesh: shared positions, n-gon faces with per-corner attributes, and lines.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Mesh {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Vertex positions.
    #[serde(default)]
    pub positions: Vec<[f64; 3]>,
    /// Faces, each with at least three corners, counter-clockwise seen from the front.
    #[serde(default)]
    pub faces: Vec<Face>,
    /// Hard edges as position index pairs (smaller index first): normals are split across them
    /// and smoothed across every other edge ([`Mesh::corner_normals`]). Ignored for corners that
    /// carry their own normal.
    #[serde(default)]
    pub hard_edges: Vec<[u32; 2]>,
    /// Whether every edge is hard (flat shading), as for formats without smoothing information.
    #[serde(default)]
    pub flat: bool,
    /// Lines and paths (position indices).
    #[serde(default)]
    pub lines: Vec<Polyline>,
    /// Source fields.
    #[serde(default)]
    pub extras: Extras,
}

/// One face.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Face {
    /// The corners in order.
    pub corners: Vec<Corner>,
    /// The material (index into [`Scene::materials`]); `None` for a default material.
    #[serde(default)]
    pub material: Option<usize>,
}

/// One corner of a face.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Corner {
    /// Index into [`Mesh::positions`].
    pub position: u32,
    /// Unit normal, if the source gives one per corner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal: Option<[f32; 3]>,
    /// Texture coordinate (V up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uv: Option<[f64; 2]>,
    /// Linear RGBA colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<[f32; 4]>,
}

/// A line strip through positions of the mesh.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Polyline {
    /// Position indices.
    pub points: Vec<u32>,
    /// Whether the last point connects back to the first.
    #[serde(default)]
    pub closed: bool,
    /// Its material.
    #[serde(default)]
    pub material: Option<usize>,
}

/// A material: glTF's PBR metallic-roughness values, plus the legacy Phong values when the source
/// has them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Material {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Base colour, linear RGBA.
    pub base_color: [f32; 4],
    /// Base colour texture (index into [`Scene::textures`]).
    #[serde(default)]
    pub base_color_texture: Option<usize>,
    /// Metallic factor, 0–1.
    pub metallic: f32,
    /// Roughness factor, 0–1.
    pub roughness: f32,
    /// Metallic-roughness texture (B = metal, G = roughness).
    #[serde(default)]
    pub metallic_roughness_texture: Option<usize>,
    /// Normal map.
    #[serde(default)]
    pub normal_texture: Option<usize>,
    /// Occlusion map.
    #[serde(default)]
    pub occlusion_texture: Option<usize>,
    /// Emissive colour, linear RGB.
    #[serde(default)]
    pub emissive: [f32; 3],
    /// Emissive texture.
    #[serde(default)]
    pub emissive_texture: Option<usize>,
    /// How alpha is used.
    #[serde(default)]
    pub alpha_mode: AlphaMode,
    /// Whether back faces are drawn.
    #[serde(default)]
    pub double_sided: bool,
    /// Whether corner colours multiply the base colour.
    #[serde(default)]
    pub vertex_colors: bool,
    /// The legacy lighting values, as the source gave them.
    #[serde(default)]
    pub phong: Option<Phong>,
    /// Source fields.
    #[serde(default)]
    pub extras: Extras,
}

impl Default for Material {
    fn default() -> Self {
        Material {
            name: None,
            base_color: [1.0; 4],
            base_color_texture: None,
            metallic: 0.0,
            roughness: 1.0,
            metallic_roughness_texture: None,
            normal_texture: None,
            occlusion_texture: None,
            emissive: [0.0; 3],
            emissive_texture: None,
            alpha_mode: AlphaMode::Opaque,
            double_sided: false,
            vertex_colors: false,
            phong: None,
            extras: Extras::new(),
        }
    }
}

/// glTF's alpha modes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlphaMode {
    /// Alpha ignored.
    #[default]
    Opaque,
    /// Alpha below the cutoff is transparent, the rest opaque.
    Mask(f32),
    /// Alpha blended.
    Blend,
}

/// Fixed-function lighting values (Wings before 2.2, 3D GameStudio, V-Chat).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Phong {
    /// Ambient RGBA.
    pub ambient: [f32; 4],
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// Specular RGBA.
    pub specular: [f32; 4],
    /// Emission RGBA.
    pub emission: [f32; 4],
    /// Shininess, 0–1.
    pub shininess: f32,
}

/// A texture image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Texture {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Where its pixels are.
    pub source: TextureSource,
    /// Source fields.
    #[serde(default)]
    pub extras: Extras,
}

/// Where a texture's pixels are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureSource {
    /// Decoded pixels, rows top-down, no padding, `channels` bytes per pixel (1 grey, 2 grey +
    /// alpha, 3 RGB, 4 RGBA). The glTF exporter encodes them as PNG.
    Pixels {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Bytes per pixel, 1–4.
        channels: u8,
        /// `width * height * channels` bytes.
        #[serde(with = "crate::serde_bytes::hex")]
        data: Vec<u8>,
    },
    /// An encoded image file (as a glTF holds it).
    Encoded {
        /// `image/png` or `image/jpeg`.
        mime_type: String,
        /// The file's bytes.
        #[serde(with = "crate::serde_bytes::hex")]
        data: Vec<u8>,
    },
    /// A file referenced by path or URI, as the source wrote it.
    File(String),
}

/// A light. Its position and direction come from its node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// What kind.
    pub kind: LightKind,
    /// Linear RGB colour.
    pub color: [f32; 3],
    /// Intensity in glTF's units (candela for point and spot, lux for directional).
    pub intensity: f32,
    /// Range beyond which the light has no effect.
    #[serde(default)]
    pub range: Option<f32>,
    /// Source fields (attenuation, the source's own light type, …).
    #[serde(default)]
    pub extras: Extras,
}

/// Kinds of light.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LightKind {
    /// Omnidirectional from a point.
    Point,
    /// A cone from a point.
    Spot {
        /// Angle from the axis where falloff begins, radians.
        inner_cone_angle: f32,
        /// Angle from the axis where the light ends, radians.
        outer_cone_angle: f32,
    },
    /// Parallel rays (sun).
    Directional,
    /// Light from everywhere. glTF has none: exported in `extras`.
    Ambient,
    /// An emitting surface. glTF has none: exported as the nearest punctual light (a spot
    /// facing the same way) with the area in `extras`.
    Area,
}

/// A camera, looking down its node's −Z axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its projection.
    pub projection: Projection,
    /// Source fields.
    #[serde(default)]
    pub extras: Extras,
}

/// Camera projections.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Projection {
    /// Perspective.
    Perspective {
        /// Vertical field of view, radians.
        yfov: f64,
        /// Near plane distance (> 0).
        znear: f64,
        /// Far plane distance; `None` for infinite.
        zfar: Option<f64>,
        /// Width / height, if fixed.
        aspect_ratio: Option<f64>,
    },
    /// Orthographic.
    Orthographic {
        /// Half width.
        xmag: f64,
        /// Half height.
        ymag: f64,
        /// Near plane.
        znear: f64,
        /// Far plane.
        zfar: f64,
    },
}

/// A simple animation of one node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Animation {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// The animated node.
    pub node: usize,
    /// The motion.
    pub motion: Motion,
    /// Source fields.
    #[serde(default)]
    pub extras: Extras,
}

/// Kinds of motion.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Motion {
    /// Endless rotation about an axis through the node's origin, in the node's local frame
    /// (applied after the node's own rotation), looping every `360 / |degrees_per_second|`
    /// seconds. Negative speeds turn clockwise seen from the tip of the axis.
    Spin {
        /// The axis (need not be unit length, must not be zero).
        axis: [f64; 3],
        /// Speed.
        degrees_per_second: f64,
    },
}

/// The morph targets of one mesh: each a full set of its positions (glTF stores the
/// differences; the exporter computes them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Morphs {
    /// The mesh.
    pub mesh: usize,
    /// The targets.
    pub targets: Vec<MorphTarget>,
}

/// One morph target: the mesh's positions in one pose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MorphTarget {
    /// Its name (a frame name).
    #[serde(default)]
    pub name: Option<String>,
    /// As many positions as the mesh has.
    pub positions: Vec<[f64; 3]>,
}

/// A flip-book of morph targets on one node: target `targets[k]` is fully shown at
/// `k * seconds_per_frame`, blended linearly with the next in between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MorphAnimation {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// The node whose mesh has the targets.
    pub node: usize,
    /// Target indices (into the node mesh's [`Morphs::targets`]), in order.
    pub targets: Vec<usize>,
    /// Seconds between two targets.
    pub seconds_per_frame: f64,
}

/// A skin: joint nodes that deform the positions of one mesh. Every node showing that mesh
/// is drawn skinned, so such a node should be a root without a transform (glTF ignores the
/// transform of a skinned mesh's node and its parents).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skin {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// The mesh it deforms.
    pub mesh: usize,
    /// The joint nodes.
    pub joints: Vec<usize>,
    /// One matrix per joint (column-major, glTF's layout): from mesh space to the joint's
    /// space in the bind pose.
    pub inverse_bind_matrices: Vec<[f64; 16]>,
    /// Per mesh position: four indices into [`Skin::joints`].
    pub vertex_joints: Vec<[u16; 4]>,
    /// Per mesh position: the four joints' weights (summing to 1).
    pub vertex_weights: Vec<[f32; 4]>,
}

/// Poses of joint nodes, one key per frame, linear in between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JointAnimation {
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// Seconds between two keys.
    pub seconds_per_frame: f64,
    /// One track per animated node.
    pub tracks: Vec<JointTrack>,
}

/// The keys of one node: its local translation and rotation at each frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JointTrack {
    /// The node.
    pub node: usize,
    /// Translation per key.
    pub translations: Vec<[f64; 3]>,
    /// Unit quaternion `[x, y, z, w]` per key.
    pub rotations: Vec<[f64; 4]>,
}

/// A second texture coordinate set of one mesh (lightmap coordinates): one per corner of the
/// mesh's faces, in face and corner order, V up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecondUvs {
    /// The mesh.
    pub mesh: usize,
    /// One per corner.
    pub uvs: Vec<[f64; 2]>,
}

/// A material's lightmap: baked light multiplied onto the surface, sampled with the mesh's
/// [`SecondUvs`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MaterialLightmap {
    /// The material.
    pub material: usize,
    /// The lightmap texture.
    pub texture: usize,
}

impl Scene {
    /// The second UV set of mesh `mesh`, if it has one.
    pub fn second_uvs_of(&self, mesh: usize) -> Option<&SecondUvs> {
        self.second_uvs.iter().find(|s| s.mesh == mesh)
    }

    /// The lightmap texture of material `material`, if it has one.
    pub fn lightmap_of(&self, material: usize) -> Option<usize> {
        self.lightmaps
            .iter()
            .find(|l| l.material == material)
            .map(|l| l.texture)
    }

    /// The skin of mesh `mesh`, if it has one.
    pub fn skin_of(&self, mesh: usize) -> Option<(usize, &Skin)> {
        self.skins.iter().enumerate().find(|(_, s)| s.mesh == mesh)
    }

    /// The morph targets of mesh `mesh`, if it has any.
    pub fn morphs_of(&self, mesh: usize) -> Option<&Morphs> {
        self.morphs
            .iter()
            .find(|m| m.mesh == mesh && !m.targets.is_empty())
    }

    /// Remove the textures at `indices` (any order, duplicates allowed), renumbering the
    /// materials' references to the others; a material that used a removed texture goes without.
    pub fn remove_textures(&mut self, indices: &[usize]) {
        if indices.is_empty() {
            return;
        }
        let mut new_index = Vec::with_capacity(self.textures.len());
        let mut next = 0usize;
        for i in 0..self.textures.len() {
            if indices.contains(&i) {
                new_index.push(None);
            } else {
                new_index.push(Some(next));
                next += 1;
            }
        }
        let mut i = 0usize;
        self.textures.retain(|_| {
            let keep = new_index.get(i).copied().flatten().is_some();
            i += 1;
            keep
        });
        let remap = |t: &mut Option<usize>| {
            *t = t.and_then(|old| new_index.get(old).copied().flatten());
        };
        for m in &mut self.materials {
            remap(&mut m.base_color_texture);
            remap(&mut m.metallic_roughness_texture);
            remap(&mut m.normal_texture);
            remap(&mut m.occlusion_texture);
            remap(&mut m.emissive_texture);
        }
    }

    /// An empty scene made from `format`.
    pub fn new(source_format: Format) -> Scene {
        Scene {
            source_format,
            name: None,
            nodes: Vec::new(),
            roots: Vec::new(),
            meshes: Vec::new(),
            materials: Vec::new(),
            textures: Vec::new(),
            lights: Vec::new(),
            cameras: Vec::new(),
            animations: Vec::new(),
            morphs: Vec::new(),
            morph_animations: Vec::new(),
            skins: Vec::new(),
            joint_animations: Vec::new(),
            second_uvs: Vec::new(),
            lightmaps: Vec::new(),
            extras: Extras::new(),
        }
    }

    /// Add a node as a root; returns its index.
    pub fn add_root(&mut self, node: Node) -> usize {
        let i = self.nodes.len();
        self.nodes.push(node);
        self.roots.push(i);
        i
    }

    /// Each node's parent (`None` for roots and orphans).
    pub fn parents(&self) -> Vec<Option<usize>> {
        let mut out = vec![None; self.nodes.len()];
        for (p, n) in self.nodes.iter().enumerate() {
            for &c in &n.children {
                if let Some(slot) = out.get_mut(c) {
                    *slot = Some(p);
                }
            }
        }
        out
    }

    /// Each node's transform to scene space (identity for nodes in a cycle or unreachable).
    pub fn world_matrices(&self) -> Vec<[f64; 16]> {
        let mut out = vec![IDENTITY_MATRIX; self.nodes.len()];
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<(usize, [f64; 16])> =
            self.roots.iter().map(|&r| (r, IDENTITY_MATRIX)).collect();
        while let Some((i, parent)) = stack.pop() {
            let Some(node) = self.nodes.get(i) else {
                continue;
            };
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            let m = mat_mul(&parent, &node.transform.matrix());
            if let Some(slot) = out.get_mut(i) {
                *slot = m;
            }
            stack.extend(node.children.iter().map(|&c| (c, m)));
        }
        out
    }

    /// Totals for summaries: (nodes, meshes, faces, triangles after fan counting, positions).
    pub fn counts(&self) -> SceneCounts {
        let mut c = SceneCounts {
            nodes: self.nodes.len(),
            meshes: self.meshes.len(),
            materials: self.materials.len(),
            textures: self.textures.len(),
            lights: self.lights.len(),
            cameras: self.cameras.len(),
            animations: self.animations.len(),
            ..SceneCounts::default()
        };
        for m in &self.meshes {
            c.positions += m.positions.len();
            c.faces += m.faces.len();
            c.lines += m.lines.len();
            c.triangles += m
                .faces
                .iter()
                .map(|f| f.corners.len().saturating_sub(2))
                .sum::<usize>();
        }
        c
    }

    /// Check references, geometry and numbers. Errors make the scene unusable for export;
    /// warnings are worth knowing.
    pub fn validate(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        let fmt = self.source_format;
        let mut push = |severity: Severity, path: String, message: String| {
            out.push(Warning {
                format: fmt,
                severity,
                location: Location::path(path),
                message,
            });
        };
        let mut parent: Vec<Option<usize>> = vec![None; self.nodes.len()];
        for (i, &r) in self.roots.iter().enumerate() {
            if r >= self.nodes.len() {
                push(
                    Severity::Error,
                    format!("roots[{i}]"),
                    format!("root {r} is not a node (there are {})", self.nodes.len()),
                );
            }
        }
        for (ni, n) in self.nodes.iter().enumerate() {
            let at = |what: &str| format!("nodes[{ni}].{what}");
            for (k, &c) in n.children.iter().enumerate() {
                if c >= self.nodes.len() {
                    push(
                        Severity::Error,
                        at(&format!("children[{k}]")),
                        format!("child {c} is not a node"),
                    );
                } else if self.roots.contains(&c) {
                    push(
                        Severity::Error,
                        at(&format!("children[{k}]")),
                        format!("child {c} is also a root"),
                    );
                } else if let Some(slot) = parent.get_mut(c) {
                    if let Some(p) = *slot {
                        push(
                            Severity::Error,
                            at(&format!("children[{k}]")),
                            format!("node {c} already has parent {p}"),
                        );
                    } else {
                        *slot = Some(ni);
                    }
                }
            }
            for (what, idx, len) in [
                ("mesh", n.mesh, self.meshes.len()),
                ("light", n.light, self.lights.len()),
                ("camera", n.camera, self.cameras.len()),
            ] {
                if let Some(i) = idx
                    && i >= len
                {
                    push(
                        Severity::Error,
                        at(what),
                        format!("{what} {i} does not exist (there are {len})"),
                    );
                }
            }
            let finite = match &n.transform {
                Transform::Trs {
                    translation,
                    rotation,
                    scale,
                } => translation
                    .iter()
                    .chain(rotation)
                    .chain(scale)
                    .all(|v| v.is_finite()),
                Transform::Matrix(m) => m.iter().all(|v| v.is_finite()),
            };
            if !finite {
                push(
                    Severity::Error,
                    at("transform"),
                    "transform has a value that is not finite".into(),
                );
            } else if let Transform::Trs { rotation, .. } = &n.transform {
                let len = rotation.iter().map(|v| v * v).sum::<f64>().sqrt();
                if (len - 1.0).abs() > 1e-3 {
                    push(
                        Severity::Error,
                        at("transform.rotation"),
                        format!("rotation quaternion has length {len}, not 1"),
                    );
                }
            }
        }
        // Cycles: a node reachable from itself. Every node has at most one parent here, so
        // walking parents up from each node either ends or repeats.
        for start in 0..self.nodes.len() {
            let mut at = parent.get(start).copied().flatten();
            let mut steps = 0;
            while let Some(p) = at {
                if p == start {
                    push(
                        Severity::Error,
                        format!("nodes[{start}]"),
                        "node is its own ancestor (the node tree has a cycle)".into(),
                    );
                    break;
                }
                steps += 1;
                if steps > self.nodes.len() {
                    break;
                }
                at = parent.get(p).copied().flatten();
            }
        }
        for (mi, m) in self.meshes.iter().enumerate() {
            self.validate_mesh(mi, m, &mut push);
        }
        for (i, mat) in self.materials.iter().enumerate() {
            for (what, t) in [
                ("base_color_texture", mat.base_color_texture),
                ("metallic_roughness_texture", mat.metallic_roughness_texture),
                ("normal_texture", mat.normal_texture),
                ("occlusion_texture", mat.occlusion_texture),
                ("emissive_texture", mat.emissive_texture),
            ] {
                if let Some(t) = t
                    && t >= self.textures.len()
                {
                    push(
                        Severity::Error,
                        format!("materials[{i}].{what}"),
                        format!("texture {t} does not exist"),
                    );
                }
            }
            let numbers = mat
                .base_color
                .iter()
                .chain(&mat.emissive)
                .chain([&mat.metallic, &mat.roughness]);
            if numbers
                .clone()
                .any(|v| !v.is_finite() || *v < 0.0 || *v > 1.0)
            {
                push(
                    Severity::Error,
                    format!("materials[{i}]"),
                    "a colour or factor is outside 0–1".into(),
                );
            }
        }
        for (i, t) in self.textures.iter().enumerate() {
            if let TextureSource::Pixels {
                width,
                height,
                channels,
                data,
            } = &t.source
            {
                let want = u64::from(*width) * u64::from(*height) * u64::from(*channels);
                if !(1..=4).contains(channels) || want != data.len() as u64 || want == 0 {
                    push(
                        Severity::Error,
                        format!("textures[{i}].source"),
                        format!(
                            "{width}x{height} pixels with {channels} channels need {want} bytes, \
                             not {}",
                            data.len()
                        ),
                    );
                }
            }
        }
        for (i, l) in self.lights.iter().enumerate() {
            if !l.color.iter().chain([&l.intensity]).all(|v| v.is_finite()) || l.intensity < 0.0 {
                push(
                    Severity::Error,
                    format!("lights[{i}]"),
                    "colour or intensity is not a finite, non-negative number".into(),
                );
            }
            if let LightKind::Spot {
                inner_cone_angle,
                outer_cone_angle,
            } = l.kind
                && !(0.0 <= inner_cone_angle
                    && inner_cone_angle < outer_cone_angle
                    && outer_cone_angle <= std::f32::consts::FRAC_PI_2)
            {
                push(
                    Severity::Error,
                    format!("lights[{i}].kind"),
                    format!(
                        "spot cone angles must satisfy 0 <= inner < outer <= pi/2 \
                         (inner {inner_cone_angle}, outer {outer_cone_angle})"
                    ),
                );
            }
        }
        for (i, a) in self.animations.iter().enumerate() {
            if a.node >= self.nodes.len() {
                push(
                    Severity::Error,
                    format!("animations[{i}].node"),
                    format!("node {} does not exist", a.node),
                );
            }
            let Motion::Spin {
                axis,
                degrees_per_second,
            } = a.motion;
            let len = axis.iter().map(|v| v * v).sum::<f64>();
            if !len.is_finite() || len == 0.0 || !degrees_per_second.is_finite() {
                push(
                    Severity::Error,
                    format!("animations[{i}].motion"),
                    "spin needs a non-zero axis and a finite speed".into(),
                );
            }
        }
        self.validate_morphs(&mut push);
        self.validate_skins(&mut push);
        self.validate_lightmaps(&mut push);
        out
    }

    fn validate_lightmaps(&self, push: &mut impl FnMut(Severity, String, String)) {
        for (i, s) in self.second_uvs.iter().enumerate() {
            let corners = self
                .meshes
                .get(s.mesh)
                .map(|m| m.faces.iter().map(|f| f.corners.len()).sum::<usize>());
            if corners != Some(s.uvs.len()) || !s.uvs.iter().flatten().all(|v| v.is_finite()) {
                push(
                    Severity::Error,
                    format!("second_uvs[{i}]"),
                    "needs an existing mesh and one finite UV per corner of its faces".into(),
                );
            }
            if self.second_uvs.iter().take(i).any(|o| o.mesh == s.mesh) {
                push(
                    Severity::Error,
                    format!("second_uvs[{i}].mesh"),
                    format!("mesh {} already has a second UV set", s.mesh),
                );
            }
        }
        for (i, l) in self.lightmaps.iter().enumerate() {
            if l.material >= self.materials.len() || l.texture >= self.textures.len() {
                push(
                    Severity::Error,
                    format!("lightmaps[{i}]"),
                    "needs an existing material and texture".into(),
                );
            }
        }
    }

    fn validate_skins(&self, push: &mut impl FnMut(Severity, String, String)) {
        for (i, s) in self.skins.iter().enumerate() {
            let at = format!("skins[{i}]");
            let Some(mesh) = self.meshes.get(s.mesh) else {
                push(
                    Severity::Error,
                    format!("{at}.mesh"),
                    format!("mesh {} does not exist", s.mesh),
                );
                continue;
            };
            if self.skins.iter().take(i).any(|o| o.mesh == s.mesh) {
                push(
                    Severity::Error,
                    format!("{at}.mesh"),
                    format!("mesh {} already has a skin", s.mesh),
                );
            }
            if s.joints.is_empty() || s.joints.iter().any(|&j| j >= self.nodes.len()) {
                push(
                    Severity::Error,
                    format!("{at}.joints"),
                    "needs at least one joint, each an existing node".into(),
                );
            }
            if s.inverse_bind_matrices.len() != s.joints.len()
                || !s
                    .inverse_bind_matrices
                    .iter()
                    .flatten()
                    .all(|v| v.is_finite())
            {
                push(
                    Severity::Error,
                    format!("{at}.inverse_bind_matrices"),
                    "needs one finite matrix per joint".into(),
                );
            }
            let n = mesh.positions.len();
            let joints = s.joints.len();
            let weights_ok = s.vertex_weights.iter().all(|w| {
                let sum: f32 = w.iter().sum();
                w.iter().all(|&v| v.is_finite() && v >= 0.0) && (sum - 1.0).abs() < 1e-3
            });
            if s.vertex_joints.len() != n
                || s.vertex_weights.len() != n
                || s.vertex_joints
                    .iter()
                    .flatten()
                    .any(|&j| usize::from(j) >= joints)
                || !weights_ok
            {
                push(
                    Severity::Error,
                    format!("{at}.vertex_joints"),
                    format!(
                        "needs {n} joint quadruples below {joints} and {n} weight quadruples \
                         summing to 1, one per mesh position"
                    ),
                );
            }
        }
        for (i, a) in self.joint_animations.iter().enumerate() {
            let at = format!("joint_animations[{i}]");
            if !(a.seconds_per_frame.is_finite() && a.seconds_per_frame > 0.0) {
                push(
                    Severity::Error,
                    format!("{at}.seconds_per_frame"),
                    "must be positive and finite".into(),
                );
            }
            let keys = a.tracks.first().map_or(0, |t| t.translations.len());
            for (t, track) in a.tracks.iter().enumerate() {
                if track.node >= self.nodes.len()
                    || keys == 0
                    || track.translations.len() != keys
                    || track.rotations.len() != keys
                    || !track.translations.iter().flatten().all(|v| v.is_finite())
                    || !track.rotations.iter().flatten().all(|v| v.is_finite())
                {
                    push(
                        Severity::Error,
                        format!("{at}.tracks[{t}]"),
                        format!(
                            "needs an existing node and {keys} finite translations and \
                             rotations, as many as the first track"
                        ),
                    );
                }
            }
        }
    }

    fn validate_morphs(&self, push: &mut impl FnMut(Severity, String, String)) {
        for (i, m) in self.morphs.iter().enumerate() {
            let Some(mesh) = self.meshes.get(m.mesh) else {
                push(
                    Severity::Error,
                    format!("morphs[{i}].mesh"),
                    format!("mesh {} does not exist", m.mesh),
                );
                continue;
            };
            if self.morphs.iter().take(i).any(|o| o.mesh == m.mesh) {
                push(
                    Severity::Error,
                    format!("morphs[{i}].mesh"),
                    format!("mesh {} already has morph targets", m.mesh),
                );
            }
            for (t, target) in m.targets.iter().enumerate() {
                if target.positions.len() != mesh.positions.len()
                    || !target.positions.iter().flatten().all(|v| v.is_finite())
                {
                    push(
                        Severity::Error,
                        format!("morphs[{i}].targets[{t}]"),
                        format!(
                            "a target needs {} finite positions, one per mesh position",
                            mesh.positions.len()
                        ),
                    );
                }
            }
        }
        for (i, a) in self.morph_animations.iter().enumerate() {
            let count = self
                .nodes
                .get(a.node)
                .and_then(|n| n.mesh)
                .and_then(|m| self.morphs_of(m))
                .map(|m| m.targets.len());
            match count {
                None => push(
                    Severity::Error,
                    format!("morph_animations[{i}].node"),
                    format!("node {} has no mesh with morph targets", a.node),
                ),
                Some(n) => {
                    if a.targets.is_empty() || a.targets.iter().any(|&t| t >= n) {
                        push(
                            Severity::Error,
                            format!("morph_animations[{i}].targets"),
                            format!("needs at least one target, each below {n}"),
                        );
                    }
                }
            }
            if !(a.seconds_per_frame.is_finite() && a.seconds_per_frame > 0.0) {
                push(
                    Severity::Error,
                    format!("morph_animations[{i}].seconds_per_frame"),
                    "must be positive and finite".into(),
                );
            }
        }
    }

    fn validate_mesh(&self, mi: usize, m: &Mesh, push: &mut impl FnMut(Severity, String, String)) {
        let n = m.positions.len();
        if let Some(p) = m
            .positions
            .iter()
            .position(|p| !p.iter().all(|v| v.is_finite()))
        {
            push(
                Severity::Error,
                format!("meshes[{mi}].positions[{p}]"),
                "position is not finite".into(),
            );
        }
        for (fi, f) in m.faces.iter().enumerate() {
            let at = format!("meshes[{mi}].faces[{fi}]");
            if f.corners.len() < 3 {
                push(
                    Severity::Error,
                    at.clone(),
                    format!(
                        "face has {} corners; at least 3 are needed",
                        f.corners.len()
                    ),
                );
            }
            if let Some(c) = f.corners.iter().find(|c| c.position as usize >= n) {
                push(
                    Severity::Error,
                    at.clone(),
                    format!("corner uses position {} of {n}", c.position),
                );
            }
            if let Some(mat) = f.material
                && mat >= self.materials.len()
            {
                push(
                    Severity::Error,
                    at.clone(),
                    format!("material {mat} does not exist"),
                );
            }
            let bad = f.corners.iter().any(|c| {
                c.uv.is_some_and(|v| !v.iter().all(|x| x.is_finite()))
                    || c.normal.is_some_and(|v| !v.iter().all(|x| x.is_finite()))
                    || c.color.is_some_and(|v| !v.iter().all(|x| x.is_finite()))
            });
            if bad {
                push(
                    Severity::Error,
                    at,
                    "a corner attribute is not finite".into(),
                );
            }
        }
        for (li, l) in m.lines.iter().enumerate() {
            if l.points.len() < 2 || l.points.iter().any(|&p| p as usize >= n) {
                push(
                    Severity::Error,
                    format!("meshes[{mi}].lines[{li}]"),
                    "a line needs at least 2 points, each an existing position".into(),
                );
            }
        }
        if let Some(e) = m
            .hard_edges
            .iter()
            .find(|e| e.iter().any(|&p| p as usize >= n))
        {
            push(
                Severity::Warning,
                format!("meshes[{mi}].hard_edges"),
                format!("hard edge {e:?} names a position that does not exist"),
            );
        }
    }
}

/// Totals of a scene.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SceneCounts {
    /// Nodes.
    pub nodes: usize,
    /// Meshes.
    pub meshes: usize,
    /// Positions over all meshes.
    pub positions: usize,
    /// Faces over all meshes.
    pub faces: usize,
    /// Triangles the faces become (n − 2 each).
    pub triangles: usize,
    /// Lines over all meshes.
    pub lines: usize,
    /// Materials.
    pub materials: usize,
    /// Textures.
    pub textures: usize,
    /// Lights.
    pub lights: usize,
    /// Cameras.
    pub cameras: usize,
    /// Animations.
    pub animations: usize,
}

impl Mesh {
    /// One normal per corner of every face (faces in order, corners in order): the corner's own
    /// normal where it has one; otherwise, for a flat mesh, the face normal; otherwise the
    /// area-weighted average of the normals of the faces around the position that can be
    /// reached without crossing a hard edge (Wings' rule: soft edges smooth, hard edges split).
    /// Degenerate faces get a normal from their neighbours, or +Y when they have none, so every
    /// normal is unit length (the glTF validator requires it).
    pub fn corner_normals(&self) -> Vec<[f32; 3]> {
        let face_normals: Vec<[f64; 3]> = self
            .faces
            .iter()
            .map(|f| {
                let pts: Vec<[f64; 3]> = f
                    .corners
                    .iter()
                    .map(|c| {
                        self.positions
                            .get(c.position as usize)
                            .copied()
                            .unwrap_or_default()
                    })
                    .collect();
                triangulate::newell_normal(&pts)
            })
            .collect();
        // Around each position: the (face, corner) pairs; union the corners that share a soft
        // edge (the edge from the corner's position to its neighbour in either face).
        let total: usize = self.faces.iter().map(|f| f.corners.len()).sum();
        let mut dsu = Dsu::new(total);
        let hard: HashSet<(u32, u32)> = self
            .hard_edges
            .iter()
            .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
            .collect();
        if !self.flat {
            // (edge key) -> first corner seen at each end, per direction.
            let mut first: HashMap<(u32, u32, u32), usize> = HashMap::default();
            let mut base = 0usize;
            for f in &self.faces {
                let k = f.corners.len();
                for (i, c) in f.corners.iter().enumerate() {
                    let next = f
                        .corners
                        .get((i + 1) % k)
                        .map_or(c.position, |n| n.position);
                    let prev = f
                        .corners
                        .get((i + k - 1) % k)
                        .map_or(c.position, |n| n.position);
                    for other in [next, prev] {
                        let key = (c.position.min(other), c.position.max(other));
                        if other == c.position || hard.contains(&key) {
                            continue;
                        }
                        // Corners at position `c.position` on either side of edge `key`.
                        match first.entry((key.0, key.1, c.position)) {
                            std::collections::hash_map::Entry::Occupied(o) => {
                                dsu.union(*o.get(), base + i)
                            }
                            std::collections::hash_map::Entry::Vacant(v) => {
                                v.insert(base + i);
                            }
                        }
                    }
                }
                base += k;
            }
        }
        let mut sums = vec![[0.0f64; 3]; total];
        let mut base = 0usize;
        for (f, n) in self.faces.iter().zip(&face_normals) {
            for i in 0..f.corners.len() {
                let r = dsu.find(base + i);
                if let Some(s) = sums.get_mut(r) {
                    s[0] += n[0];
                    s[1] += n[1];
                    s[2] += n[2];
                }
            }
            base += f.corners.len();
        }
        let mut out = Vec::with_capacity(total);
        let mut base = 0usize;
        for (f, n) in self.faces.iter().zip(&face_normals) {
            for (i, c) in f.corners.iter().enumerate() {
                if let Some(own) = c.normal.and_then(|v| unit(v.map(f64::from))) {
                    out.push(own.map(|v| v as f32));
                    continue;
                }
                let r = dsu.find(base + i);
                let smooth = sums.get(r).copied().unwrap_or_default();
                let v = unit(smooth).or_else(|| unit(*n)).unwrap_or([0.0, 1.0, 0.0]);
                out.push(v.map(|x| x as f32));
            }
            base += f.corners.len();
        }
        out
    }

    /// The axis-aligned bounding box of the positions used by faces and lines.
    pub fn bounds(&self) -> Option<([f64; 3], [f64; 3])> {
        let used = self
            .faces
            .iter()
            .flat_map(|f| f.corners.iter().map(|c| c.position))
            .chain(self.lines.iter().flat_map(|l| l.points.iter().copied()));
        let mut b: Option<([f64; 3], [f64; 3])> = None;
        for p in used.filter_map(|i| self.positions.get(i as usize)) {
            let (lo, hi) = b.get_or_insert((*p, *p));
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        b
    }
}

/// Column-major 4x4 product `a * b`.
pub fn mat_mul(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    let mut out = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            out[col * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum();
        }
    }
    out
}

/// Union-find over corner indices.
struct Dsu {
    parent: Vec<usize>,
}

impl Dsu {
    fn new(n: usize) -> Dsu {
        Dsu {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while let Some(&p) = self.parent.get(x) {
            if p == x {
                break;
            }
            let gp = self.parent.get(p).copied().unwrap_or(p);
            if let Some(slot) = self.parent.get_mut(x) {
                *slot = gp;
            }
            x = p;
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb
            && let Some(slot) = self.parent.get_mut(ra)
        {
            *slot = rb;
        }
    }
}
