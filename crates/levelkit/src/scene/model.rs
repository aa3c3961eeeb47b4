//! The types of the common 3D model: [`Scene`] and everything it holds, with the small helpers
//! that only read them. Validation is in `validate.rs`, normals in `normals.rs`.

use serde::{Deserialize, Serialize};

use crate::registry::Format;

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
    /// Source fields (an MDL's frame names under `frame_names`, one per key).
    #[serde(default)]
    pub extras: Extras,
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

    /// Nodes depth first from the roots (children in order), each once: the order writers
    /// that flatten the tree keep.
    pub fn tree_order(&self) -> Vec<usize> {
        let mut order = Vec::new();
        let mut stack: Vec<usize> = self.roots.iter().rev().copied().collect();
        let mut seen = vec![false; self.nodes.len()];
        while let Some(i) = stack.pop() {
            match seen.get_mut(i) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            order.push(i);
            if let Some(n) = self.nodes.get(i) {
                stack.extend(n.children.iter().rev());
            }
        }
        order
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
        self.world_matrices_with(|_| None)
    }

    /// [`Scene::world_matrices`] with the local matrices `local` gives in place of some
    /// nodes' own transforms (a pose of an animation).
    pub fn world_matrices_with(
        &self,
        local: impl Fn(usize) -> Option<[f64; 16]>,
    ) -> Vec<[f64; 16]> {
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
            let own = local(i).unwrap_or_else(|| node.transform.matrix());
            let m = mat_mul(&parent, &own);
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
