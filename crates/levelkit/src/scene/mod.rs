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

pub mod dump;
mod model;
mod normals;
pub(crate) mod topology;
pub(crate) mod transform;
pub mod triangulate;
mod validate;
pub(crate) mod vec3;

pub use model::{
    AlphaMode, Animation, Camera, Corner, Extras, Face, IDENTITY_MATRIX, JointAnimation,
    JointTrack, Light, LightKind, Material, MaterialLightmap, Mesh, MorphAnimation, MorphTarget,
    Morphs, Motion, Node, Phong, Polyline, Projection, Scene, SceneCounts, SecondUvs, Skin,
    Texture, TextureSource, Transform, mat_mul,
};
