//! The lossless `.wdb` model: every field of the file, in file order, with the names of the
//! published notes (`b0`…`b3`, `s0`…`s4` where the meaning is unknown).
//!
//! Counts and byte lengths the file stores (`numNodes`, `numPoints`, `lenIFS`, …) are not kept:
//! they follow from the vectors, and the reader checks that they agree (see
//! [`super::hypotheses`]). The node tree is kept as the file holds it: a flat list in file order
//! in which each node says how many children follow it ([`Node::children`]); [`Wdb::tree`]
//! builds the tree from it.

use serde::{Deserialize, Serialize};

pub use super::hypotheses::{LightType, PolyDef, TexCoord, TexDef};
use crate::strings::RawString;

/// A whole V-Chat world file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wdb {
    /// The 12-byte header.
    pub header: Header,
    /// The limits of travel.
    pub fence: Fence,
    /// Every node in file order (depth-first: each node is followed by its children, see
    /// [`super::hypotheses::tree`]).
    pub nodes: Vec<Node>,
}

/// `VCHeader`: `"WDBV"`, version, three unknown bytes, the background colour, one unknown byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always 4 in known files.
    pub version: u8,
    /// Unidentified, always 0 (perhaps the high bytes of a 32-bit version).
    pub b0: u8,
    /// Unidentified, always 0.
    pub b1: u8,
    /// Unidentified, always 0.
    pub b2: u8,
    /// The background colour (stored blue, green, red).
    pub background: Bgr,
    /// Unidentified, always 0xFF (perhaps the alpha of a `D3DCOLOR`, whose little-endian bytes
    /// are blue, green, red, alpha).
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
    pub y_max: f64,
    /// Lowest viewer position.
    pub y_min: f64,
}

/// `VCBorderDef`: one segment from `(x0, z0)` to `(x1, z1)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Border {
    /// Start x.
    pub x0: f64,
    /// Start z.
    pub z0: f64,
    /// End x.
    pub x1: f64,
    /// End z.
    pub z1: f64,
}

/// `VCNode`: a frame with its geometries and lights, followed in the file by its children.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// The block name, raw bytes (may be empty). `SPINxxxx` / `spinxxxx` names spinning parts.
    pub name: RawString,
    /// The 4x4 matrix, 16 `f32` in file order (see [`super::hypotheses::matrix_to_scene`] for
    /// how they are read).
    pub transform: [f32; 16],
    /// The rotation parameters.
    pub animation: Animation,
    /// Geometries (0 or 1 in known files).
    pub geometries: Vec<Geometry>,
    /// Lights (0 or 1 in known files).
    pub lights: Vec<Light>,
    /// How many of the following nodes (with their own children) are this node's children.
    pub children: u16,
}

/// `VCAnimation`: rotation about one axis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Animation {
    /// Always (0, 0, 0); the blog author's guess is a rotation centre.
    pub origin: [f32; 3],
    /// (0, 0, 0), or (0, 1, 0) for spinning parts.
    pub axis: [f32; 3],
    /// Radians per frame (see [`super::hypotheses::degrees_per_frame`]).
    pub speed: f32,
}

/// `VCGeometry`, in the published field order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Geometry {
    /// `VCPoint`s.
    pub points: Vec<[f32; 3]>,
    /// `VCNormal`s (their count need not be the number of points).
    pub normals: Vec<[f32; 3]>,
    /// The polygon (or line) definitions of the indexed face set.
    pub polygons: Vec<PolyDef>,
    /// `w6`, the render flags; one bit makes the polygons a line set
    /// ([`super::hypotheses::is_line_set`]).
    pub render_flags: u16,
    /// One texture coordinate per point.
    pub tex_coords: Vec<TexCoord>,
    /// `ffs`: four bytes per point, meaning unknown.
    pub point_flags: Vec<[u8; 4]>,
    /// Texture definitions.
    pub textures: Vec<TexDef>,
    /// The texture definition of each polygon.
    pub materials: Vec<u16>,
}

/// `VCLight`: 28 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Light {
    /// `b0`, the light type.
    pub kind: LightType,
    /// `b1`, always 0.
    pub b1: u8,
    /// `b2`, unknown.
    pub b2: u8,
    /// `b3`, unknown.
    pub b3: u8,
    /// `b4 b5 b6`, in file order: usually equal, a grey level (see
    /// [`super::hypotheses::light_rgb`] for the channel order).
    pub color: [u8; 3],
    /// `b7`, always 0xFF.
    pub b7: u8,
    /// `s0 s1 s2`, always (1, 0, 0) (see [`super::hypotheses::light_attenuation`]).
    pub s0_s2: [f32; 3],
    /// `s3 s4`, almost always (0.5, 0.4) (see [`super::hypotheses::spot_cone`]).
    pub s3_s4: [f32; 2],
}
