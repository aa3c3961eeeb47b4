//! The meaning of a 3D GameStudio level, whatever file it came from: blocks, entities and the
//! group tree, with numbers as values. The text dialects ([`super::text`]) and WMPB
//! ([`super::binary`]) each convert to it; group resolution, `$$M` compilation and the scene
//! export start from it.
//!
//! Coordinates and angles are as the source stores them:
//!
//! * text `.wmp` and WMPB: block vertices are in their block's frame (`Block::transform`, the
//!   identity in text files, where vertices are relative to the enclosing group), entities have
//!   no position of their own except the one their group (or, in WMPB, their own transform)
//!   gives, and angles are **radians**;
//! * `$$M`: everything is already in world coordinates and angles are **degrees**
//!   ([`Level::angles_in_degrees`]).

use serde::{Deserialize, Serialize};

/// A position, angles (pan, tilt, roll) and a scale.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    /// x y z.
    pub position: [f64; 3],
    /// Pan, tilt, roll; radians or degrees as [`Level::angles_in_degrees`] says.
    pub angles: [f64; 3],
    /// x y z scale.
    pub scale: [f64; 3],
}

impl Transform {
    /// No translation, rotation or scaling.
    pub const IDENTITY: Transform = Transform {
        position: [0.0; 3],
        angles: [0.0; 3],
        scale: [1.0; 3],
    };

    /// Whether this is exactly [`Transform::IDENTITY`].
    pub fn is_identity(&self) -> bool {
        *self == Transform::IDENTITY
    }
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

/// A whole level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// `true` for `$$M` (angles in degrees, positions in world coordinates).
    pub angles_in_degrees: bool,
    /// Level settings (the `level` entity of text files, the level data of WMPB, the level and
    /// sun records of `$$M`).
    pub settings: Settings,
    /// Blocks (brushes), in file order; their index is their number.
    pub blocks: Vec<Block>,
    /// Entities other than the level itself, in file order.
    pub entities: Vec<Entity>,
    /// Groups; group 0 is the root. Empty for `$$M`, whose groups are resolved.
    pub groups: Vec<Group>,
}

/// Level-wide settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The WAD file (`<office.$$w>`), as written, without angle brackets.
    pub wad: Option<String>,
    /// The palette file.
    pub palette: Option<String>,
    /// The level script (`None` for `<ndef>` or absent).
    pub script: Option<String>,
    /// The sun numbers as written: three in text files and WMPB (the manual calls them "the
    /// sun angles"; the first is 30 in every known file, the notes infer the other two are
    /// azimuth and elevation), two (pan, tilt) in a `$$M` sun record.
    pub sun: Vec<f64>,
    /// Sun, ambient and four fog colours, 0–100 per channel.
    pub colors: Vec<[f64; 3]>,
}

/// A block: a convex brush.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// The block's own transform (WMPB stores one per block; identity for text files).
    pub transform: Transform,
    /// Vertices in the block's frame.
    pub vertices: Vec<[f64; 3]>,
    /// Faces.
    pub faces: Vec<Face>,
    /// Block flags as written (a binary digit string).
    pub flags: String,
    /// The block function (normally `ndef`).
    pub function: String,
    /// Which group holds the block, if any.
    pub group: Option<usize>,
}

/// One face of a block.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Face {
    /// Vertex indices, as listed (clockwise seen from outside, notes §3).
    pub indices: Vec<u32>,
    /// The texture name.
    pub texture: String,
    /// Texture vectors `t1`, `t2`: `u = t1·(x,y,z,1)`, `v = t2·(x,y,z,1)`. `None` when the
    /// source has none (A4, v510); [`super::geometry`] derives them.
    pub texture_vectors: Option<[[f64; 4]; 2]>,
    /// x offset, y offset, rotation (degrees), x scale, y scale, where the source has them.
    pub texture_transform: Option<[f64; 5]>,
    /// Per-corner texture coordinates `(u, v)`, in the order of `indices`, where the source
    /// has them (`$$M` faces of imported meshes: `[ u v … ]`); the scene uses them instead of
    /// the texture vectors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uvs: Option<Vec<[f64; 2]>>,
    /// Surface flags as written.
    pub flags: String,
    /// Ambient.
    pub ambient: f64,
    /// Albedo.
    pub albedo: f64,
    /// Material (normally `ndef`).
    pub material: String,
}

/// The kinds of entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    /// A start (camera) position.
    Start,
    /// A light.
    Light,
    /// A sound source.
    Sound,
    /// A model or other entity file (`$$M` types 3 and 7).
    Model,
    /// A path.
    Path,
    /// Anything else, kept by its class name in [`Entity::fields`].
    Other,
}

/// An entity (start, light, sound, model, path).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// What it is.
    pub kind: EntityKind,
    /// Its number in the source (text: the number after the keyword; `$$M`: its record index).
    pub number: u32,
    /// Name (model, start, path), if any.
    pub name: Option<String>,
    /// File (model, sound), if any.
    pub file: Option<String>,
    /// Own transform: in text files only the model scale (its group places it), the resolved
    /// one in `$$M`, the entity's own in WMPB.
    pub transform: Transform,
    /// Light colour (0–100) and range.
    pub light: Option<([f64; 3], f64)>,
    /// Path nodes (positions, local like block vertices).
    pub path_nodes: Vec<[f64; 3]>,
    /// Path edges as written (from, to, and the rest).
    pub path_edges: Vec<Vec<f64>>,
    /// Every other field by name, for `extras` (skills, flags, action, ambient, …).
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// Which group holds the entity, if any.
    pub group: Option<usize>,
}

/// A group (`object K { … }`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Its name (the comment on its header line in text files).
    pub name: Option<String>,
    /// Its transform relative to its parent.
    pub transform: Transform,
    /// Child groups (indices into [`Level::groups`]).
    pub groups: Vec<usize>,
    /// Blocks it holds (indices into [`Level::blocks`]).
    pub blocks: Vec<usize>,
    /// Entities it holds (indices into [`Level::entities`]).
    pub entities: Vec<usize>,
    /// Whether it holds the level entity.
    pub holds_level: bool,
}
