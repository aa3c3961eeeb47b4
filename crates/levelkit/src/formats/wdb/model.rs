//! The lossless `.wdb` model: every field of the file, in file order, with the names of the
//! published notes and the reference reader (`b0`…`b3`, `s0`…`s4` where the meaning is unknown).
//!
//! Counts and byte lengths the file stores (`numPoints`, `numPolygons`, `lenIFS`, …) are not
//! kept: they follow from the vectors, and the reader checks that they agree (see
//! [`super::hypotheses`]). The node tree is kept as the file holds it: a flat list in file order
//! in which each node says how many children follow it ([`Node::children`]); [`Wdb::tree`]
//! builds the tree from it. Floats are kept as their bits (real worlds hold NaN texture
//! coordinates); the JSON form writes a non-finite float as its bits (see `floats.rs`).

use serde::{Deserialize, Serialize};

use crate::strings::RawString;

/// A whole V-Chat world file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wdb {
    /// The 12-byte header.
    pub header: Header,
    /// The limits of travel.
    pub fence: Fence,
    /// Every node in file order (depth-first: each node is followed by its children, see
    /// [`super::hypotheses::tree`]). Real worlds have one root; a world edited by another tool
    /// may have more, one after the other.
    pub nodes: Vec<Node>,
    /// Bytes after the last node, too few to be another node (two worlds made by community
    /// tools end with one or three zero bytes), kept as they are.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::hex"
    )]
    pub trailing: Vec<u8>,
}

/// `VCHeader`: `"WDBV"`, version, three unknown bytes, the background colour, one unknown byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// 4 in every known world.
    pub version: u8,
    /// Unidentified, 0 in every known world (perhaps the high bytes of a 32-bit version).
    pub b0: u8,
    /// Unidentified, 0 in every known world.
    pub b1: u8,
    /// Unidentified, 0 in every known world.
    pub b2: u8,
    /// The background colour (stored blue, green, red).
    pub background: Bgr,
    /// 0xFF in every known world: the alpha of a `D3DCOLOR`, whose little-endian bytes are
    /// blue, green, red, alpha (texture definitions and lights have the same shape).
    pub b3: u8,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            version: 4,
            b0: 0,
            b1: 0,
            b2: 0,
            background: Bgr::default(),
            b3: 0xFF,
        }
    }
}

/// An 8-bit colour stored blue, green, red.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bgr {
    /// Blue.
    pub blue: u8,
    /// Green.
    pub green: u8,
    /// Red.
    pub red: u8,
}

impl Bgr {
    /// Red, green, blue.
    pub fn rgb(self) -> [u8; 3] {
        [self.red, self.green, self.blue]
    }

    /// From red, green, blue.
    pub fn from_rgb([red, green, blue]: [u8; 3]) -> Bgr {
        Bgr { blue, green, red }
    }
}

/// `VCFence`: segments the viewer can not cross, and the viewer's vertical range. The only
/// `f64` values of the format.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fence {
    /// The border segments, in the horizontal plane.
    pub borders: Vec<Border>,
    /// Highest viewer position (stored first).
    #[serde(with = "super::floats::one")]
    pub y_max: f64,
    /// Lowest viewer position.
    #[serde(with = "super::floats::one")]
    pub y_min: f64,
}

/// `VCBorderDef`: one segment from `(x0, z0)` to `(x1, z1)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Border {
    /// Start x.
    #[serde(with = "super::floats::one")]
    pub x0: f64,
    /// Start z.
    #[serde(with = "super::floats::one")]
    pub z0: f64,
    /// End x.
    #[serde(with = "super::floats::one")]
    pub x1: f64,
    /// End z.
    #[serde(with = "super::floats::one")]
    pub z1: f64,
}

/// `VCNode`: a frame with its geometries and lights, followed in the file by its children.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// The block name, raw bytes (may be empty). Names carry meaning: `SPINxxxx` for spinning
    /// parts, `animNNDD` for animated textures, and `hotlinks.txt` names nodes.
    pub name: RawString,
    /// The 4x4 matrix, 16 `f32` in file order (see [`super::hypotheses::matrix_to_scene`] for
    /// how they are read).
    #[serde(with = "super::floats::array")]
    pub transform: [f32; 16],
    /// The rotation parameters.
    pub animation: Animation,
    /// Geometries (0 or 1 in every known world).
    pub geometries: Vec<Geometry>,
    /// Lights (0 or 1 in every known world; never with a geometry).
    pub lights: Vec<Light>,
    /// How many of the following nodes (with their own children) are this node's children.
    pub children: u16,
}

/// `VCAnimation`: rotation about one axis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Animation {
    /// (0, 0, 0) in every known world; the blog author's guess is a rotation centre.
    #[serde(with = "super::floats::array")]
    pub origin: [f32; 3],
    /// (0, 0, 0), or (0, 1, 0) for spinning parts (and for many parts that do not spin).
    #[serde(with = "super::floats::array")]
    pub axis: [f32; 3],
    /// Radians per frame (see [`super::hypotheses::degrees_per_frame`]).
    #[serde(with = "super::floats::one")]
    pub speed: f32,
}

/// `VCGeometry`, in file order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Geometry {
    /// `VCPoint`s.
    #[serde(with = "super::floats::vec_array")]
    pub points: Vec<[f32; 3]>,
    /// `VCNormal`s, indexed by the polygons' corners (their count is independent of the points).
    #[serde(with = "super::floats::vec_array")]
    pub normals: Vec<[f32; 3]>,
    /// The polygon (or line) definitions of the indexed face set.
    pub polygons: Vec<PolyDef>,
    /// The render type (`renderType`, the notes' `w6`): 0 a line set, 256 textured, 768 flat
    /// (emissive colour), 1024 lit (see [`super::hypotheses::RenderType`]).
    pub render_flags: u16,
    /// One texture coordinate per point.
    #[serde(with = "super::floats::vec_array")]
    pub tex_coords: Vec<TexCoord>,
    /// `ffs`: four bytes per point, meaning unknown (`ff ff ff ff` in every known world).
    pub point_flags: Vec<[u8; 4]>,
    /// Texture definitions: the geometry's materials (a colour, and a texture file or none).
    pub textures: Vec<TexDef>,
    /// The texture definition of each polygon.
    pub materials: Vec<u16>,
}

/// `VCTexDef`: one material of a geometry: a colour, the texture file (empty for a plain
/// colour) and `k` eight-byte records (0 or 1 in known worlds; two `f32` each, meaning unknown).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TexDef {
    /// The colour (stored blue, green, red).
    pub color: Bgr,
    /// The byte after the colour: 0xFF in every known world (a `D3DCOLOR`'s alpha).
    pub alpha: u8,
    /// The texture's file name, raw bytes (any case; empty for a plain colour).
    pub name: RawString,
    /// The records after the name: two `f32` each, meaning unknown (`(0, 1)`, `(1, 1)`,
    /// `(0.5, 5)`, … in the worlds that have one).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "super::floats::vec_array"
    )]
    pub extra: Vec<[f32; 2]>,
}

/// `VCLight`: 28 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// `b0`, the light type: a `D3DRMLIGHTTYPE` (0 ambient, 1 point, 2 spot, 3 directional,
    /// 4 parallel point; see [`Light::light_type`]). Kept as the byte.
    pub kind: u8,
    /// `b1`, 0 in every known world.
    pub b1: u8,
    /// `b2`, unknown: in real worlds often `0xcd` (the fill of uninitialised memory of the
    /// compiler's debug heap) or the third byte of a float, so probably not written on purpose.
    pub b2: u8,
    /// `b3`, unknown (like `b2`).
    pub b3: u8,
    /// `b4 b5 b6`, in file order: the colour, blue, green, red (see
    /// [`super::hypotheses::light_rgb`]).
    pub color: [u8; 3],
    /// `b7`, 0xFF in every known world (the colour's alpha).
    pub b7: u8,
    /// `s0 s1 s2`, (1, 0, 0) in every known world.
    #[serde(with = "super::floats::array")]
    pub s0_s2: [f32; 3],
    /// `s3 s4`, almost always (0.5, 0.4): Direct3D RM's default penumbra and umbra angles.
    #[serde(with = "super::floats::array")]
    pub s3_s4: [f32; 2],
}

impl Light {
    /// The `D3DRMLIGHTTYPE` of `kind`, if it is one.
    pub fn light_type(&self) -> Option<LightType> {
        LightType::from_byte(self.kind)
    }
}

/// L2: one polygon (or line) definition: its corners, each a point index and a normal index.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PolyDef {
    /// `[point, normal]` per corner.
    pub corners: Vec<[u16; 2]>,
}

impl PolyDef {
    /// Bytes in the file: `numVerts` and the pairs.
    pub fn size(&self) -> u64 {
        2u64.saturating_add(4u64.saturating_mul(self.corners.len() as u64))
    }

    /// The point indices, in order.
    pub fn points(&self) -> impl Iterator<Item = u16> + '_ {
        self.corners.iter().map(|c| c[0])
    }
}

/// L5: a texture coordinate is `(u, v)`, two `f32`.
pub type TexCoord = [f32; 2];

/// `b0` of a light, as Direct3D Retained Mode's `D3DRMLIGHTTYPE` (the notes' and the reference
/// reader's reading). Seen in real worlds: 0, 1, 3, 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LightType {
    /// 0: `D3DRMLIGHT_AMBIENT`.
    Ambient,
    /// 1: `D3DRMLIGHT_POINT`.
    Point,
    /// 2: `D3DRMLIGHT_SPOT` (in no known world).
    Spot,
    /// 3: `D3DRMLIGHT_DIRECTIONAL`.
    Directional,
    /// 4: `D3DRMLIGHT_PARALLELPOINT`: a point light whose rays are parallel across each object
    /// lit (exported as a point light).
    ParallelPoint,
}

impl LightType {
    /// From `b0`; `None` for a value that is not a `D3DRMLIGHTTYPE`.
    pub fn from_byte(b: u8) -> Option<LightType> {
        Some(match b {
            0 => LightType::Ambient,
            1 => LightType::Point,
            2 => LightType::Spot,
            3 => LightType::Directional,
            4 => LightType::ParallelPoint,
            _ => return None,
        })
    }

    /// `b0`.
    pub fn byte(self) -> u8 {
        match self {
            LightType::Ambient => 0,
            LightType::Point => 1,
            LightType::Spot => 2,
            LightType::Directional => 3,
            LightType::ParallelPoint => 4,
        }
    }

    /// Every type, in byte order.
    pub const ALL: [LightType; 5] = [
        LightType::Ambient,
        LightType::Point,
        LightType::Spot,
        LightType::Directional,
        LightType::ParallelPoint,
    ];
}
