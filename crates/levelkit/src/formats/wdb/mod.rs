//! V-Chat `.wdb` worlds (Microsoft V-Chat, 1995–1997).
//!
//! Spec: `shared/specs/wdb.txt` (Part 1 of a blog series by the author of the V-Chat to X3D
//! conversion) and `shared/specs/wdb-notes.md`, corrected by the real worlds: the 34 distinct
//! public worlds (Microsoft's and the community's, `msvchat/msvchat.github.io`) all read to their
//! last byte, write back byte for byte and validate without an error, and the public reference
//! reader `wdb_to_x3d` (VB.NET, read for facts, none of its code used) agrees with their reading.
//! What is still open is decided in one place, [`hypotheses`], each point tagged by what decided
//! it (the files, the reference reader, or a guess).
//!
//! # The format
//!
//! Little-endian. Strings are one length byte and that many bytes.
//!
//! ```text
//! VCHeader   "WDBV" version:u8(=4) b0 b1 b2:u8(=0) blue green red:u8 b3:u8(=0xFF)
//! VCFence    numBorderDefs:u16, {x0 z0 x1 z1: f64} × n, yMax:f64, yMin:f64
//! VCNode …   to the end of the file, depth-first (each node followed by its children):
//!            name:string, transform:f32×16, origin:f32×3 axis:f32×3 speed:f32,
//!            numGeometries:u16 VCGeometry×n, numLights:u16 VCLight×n, numChildren:u16
//! VCGeometry numPoints:u16 {x y z:f32}×n, numNormals:u16 {x y z:f32}×n,
//!            numPolygons:u16, lenIFS:u16, {numVerts:u16, {point normal:u16}×numVerts}×numPolygons,
//!            0:u16 (lenIFS counts the definitions and this word), renderType:u16,
//!            {u v:f32}×numPoints, flags:[u8;4]×numPoints, numTexDefs:u8,
//!            {blue green red alpha:u8, name:string, k:u8, {f32 f32}×k}×numTexDefs,
//!            material:u16×numPolygons
//! VCLight    type:u8, b1 b2 b3:u8, blue green red alpha:u8, s0 s1 s2 s3 s4:f32
//! ```
//!
//! A world is a folder ([`folder`]): `data/world.wdb` beside `data/world.pal` (a palette),
//! `data/hotlinks.txt` (node name → portal or web page) and `data/about.txt`, its textures (GIF)
//! in `images/`, and the manifest `world.adf`.
//!
//! # What this module does
//!
//! * [`read`] / [`Wdb::write`]: a lossless model ([`Wdb`]: every field, unknown bytes and
//!   trailing bytes included; floats kept as their bits, NaN included), so `write(read(x)) == x`
//!   and the JSON form round-trips too. Strict about structure (counts and lengths against the
//!   bytes left, the face table's length and zero word, a complete node tree), lenient about
//!   values; errors carry the node path (`nodes/0/children/3 "SPIN0010"/geometries/0`) and the
//!   byte offset.
//! * [`Wdb::validate`]: every finding with its path (see [`validate()`]), including what V-Chat
//!   could not show (indices out of range, more than about 3,000 polygons or 2 MB).
//! * [`Wdb::to_scene`] / [`Wdb::from_scene`]: the common 3D model, so a world becomes glTF, GLB
//!   or OBJ and a model becomes a world (below).
//! * [`samples`]: a sample world made by our code, and a generator of realistic random worlds
//!   for tests.
//!
//! ```
//! use levelkit::formats::wdb::{self, Wdb};
//!
//! // The sample world (made by `wdb::samples::world`), written and read back.
//! let bytes = wdb::samples::world().write()?;
//! let world = Wdb::read(&bytes)?;
//! assert_eq!(&bytes[..4], b"WDBV");
//! assert_eq!(world.write()?, bytes);
//! assert!(world.validate().is_empty());
//! let summary = world.summary();
//! assert_eq!(summary.roots, 1);
//! let (scene, _warnings) = world.to_scene();
//! assert_eq!(scene.animations.len(), summary.spinners);
//! # Ok::<(), levelkit::Error>(())
//! ```
//!
//! # To and from the common 3D model
//!
//! **To a scene** ([`Wdb::to_scene`]), with M1–M13 of [`hypotheses`]:
//!
//! * Node `i` of the file is scene node `i`, with its name (Windows-1252), its matrix (z negated
//!   for the right-handed scene) and its children. A node's first geometry becomes its mesh, its
//!   first light its light when it has no geometry; further ones (which no known world has) go
//!   to added child nodes (`extras.wdb_part`).
//! * A geometry becomes a mesh with every point as a position; a face gets, per corner, the
//!   normal its normal index names and the point's texture coordinate (V kept; NaN read as
//!   0, as the reference reader does); a line set (render type 0) gives closed polylines.
//!   `extras` keep the render type and the point flags (when not all `ff`).
//! * Each texture definition becomes a material: its texture (one per file name, any case), or
//!   its colour when it names none; flat geometries (render type 768) emit their colour. The
//!   definition's raw fields are in the material's `extras.wdb_texture`.
//! * A node named `animNNDD` (M12) animates its textures: the scene shows the first of its `NN`
//!   frames (V scaled by `1/NN`), and `extras.wdb_texture_animation` of the node and material
//!   has the frame count and the hundredths of a second per frame.
//! * A spinning node (non-zero axis and speed) gets a [`crate::scene::Motion::Spin`] about its
//!   axis (z negated), at `degrees_per_frame × 20` degrees per second, turned the other way by
//!   the change of handedness.
//! * Lights: `D3DRMLIGHTTYPE` 0 ambient, 1 point, 2 spot, 3 directional, 4 parallel point (a
//!   point light), colour `b6 b5 b4`, intensity 1, shining along the node's −z (the file's +z);
//!   every byte and float in `extras.wdb_light`.
//! * The fence becomes a root node `fence` (`extras.wdb_fence`) whose mesh has one polyline per
//!   chain of connected segments, at height `yMin`.
//! * The scene's `extras` have `background_color` (RGB, 0–1) and `wdb_header`.
//! * With the world's folder ([`crate::document::assets::find_textures`]): the textures as
//!   pixels, and each `hotlinks.txt` link in `extras.vchat_hotlink` of the node it names.
//!
//! **From a scene** ([`Wdb::from_scene`]): the node tree (depth-first, under one root as real
//! worlds have), each mesh as geometries in the real layout (points per distinct position and
//! UV, normals per distinct normal, one texture definition per material: its texture file, or
//! its colour), the `extras` above wherever they still agree with the scene; spins as the
//! node's animation and its name `SPINxxxx`; lights; the fence from the `wdb_fence` node.
//! Geometries are split where a count would not fit 16 bits.
//!
//! # Not known, and kept as it is
//!
//! * The header's `b0 b1 b2`, the point flags (`ff ff ff ff` everywhere), the texture
//!   definitions' records (two floats, 0 or 1 per definition), the lights' `b1 b2 b3` (left-over
//!   memory) and `s0`–`s4`, the animation origin (always 0).
//! * The spin speed of V-Chat depended on the machine's frame rate; the scene assumes the
//!   reference reader's 20 frames per second.
//! * The world's sounds are not read.

mod codec;
mod floats;
pub mod folder;
pub mod hypotheses;
mod model;
mod read;
pub mod samples;
mod scene;
mod validate;
mod write;

pub use hypotheses::Tree;
pub use model::*;
pub use read::{HEADER_SIZE, MAGIC, read, read_with};
pub use validate::validate;
pub use write::write;

use serde::Serialize;

use crate::error::{Result, Warning};
use crate::limits::Limits;

impl Wdb {
    /// Read a file (see [`read`]).
    pub fn read(bytes: &[u8]) -> Result<Wdb> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wdb> {
        read_with(bytes, limits)
    }

    /// Write the file.
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Check the world and collect every finding (see [`validate()`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// The node tree (L1); `None` when the child counts run past the last node.
    pub fn tree(&self) -> Option<Tree> {
        hypotheses::tree(self.nodes.iter().map(|n| n.children)).ok()
    }

    /// Summarise the world.
    pub fn summary(&self) -> WdbSummary {
        let tree = self.tree();
        let geometries = self.nodes.iter().flat_map(|n| &n.geometries);
        let mut textures: Vec<Vec<u8>> = geometries
            .clone()
            .flat_map(|g| {
                g.textures
                    .iter()
                    .map(|t| t.name.as_bytes().to_ascii_lowercase())
            })
            .filter(|n| !n.is_empty())
            .collect();
        textures.sort_unstable();
        textures.dedup();
        WdbSummary {
            version: self.header.version,
            background: format!(
                "#{:02x}{:02x}{:02x}",
                self.header.background.red,
                self.header.background.green,
                self.header.background.blue
            ),
            fence_segments: self.fence.borders.len(),
            y_min: self.fence.y_min,
            y_max: self.fence.y_max,
            roots: tree.as_ref().map_or(0, |t| t.roots.len()),
            nodes: self.nodes.len(),
            depth: tree
                .as_ref()
                .and_then(|t| t.depth.iter().max().map(|d| d + 1))
                .unwrap_or(0),
            geometries: geometries.clone().count(),
            line_sets: geometries
                .clone()
                .filter(|g| hypotheses::is_line_set(g.render_flags))
                .count(),
            points: geometries.clone().map(|g| g.points.len()).sum(),
            polygons: geometries.clone().map(|g| g.polygons.len()).sum(),
            textures: textures.len(),
            lights: self.nodes.iter().map(|n| n.lights.len()).sum(),
            spinners: self.nodes.iter().filter(|n| scene::spins(n)).count(),
        }
    }
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WdbSummary {
    /// The header's version byte (4 in known worlds).
    pub version: u8,
    /// The background colour, `#rrggbb`.
    pub background: String,
    /// Border segments of the fence.
    pub fence_segments: usize,
    /// The viewer's lowest height.
    pub y_min: f64,
    /// The viewer's highest height.
    pub y_max: f64,
    /// Top-level nodes (0 when the child counts do not make a tree).
    pub roots: usize,
    /// Nodes in total.
    pub nodes: usize,
    /// Levels of the node tree.
    pub depth: usize,
    /// Geometries over all nodes.
    pub geometries: usize,
    /// Of them, line sets.
    pub line_sets: usize,
    /// Points over all geometries.
    pub points: usize,
    /// Polygon (and line) definitions over all geometries.
    pub polygons: usize,
    /// Distinct texture file names (any case).
    pub textures: usize,
    /// Lights over all nodes.
    pub lights: usize,
    /// Spinning nodes (non-zero axis and speed).
    pub spinners: usize,
}
