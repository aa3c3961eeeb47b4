//! V-Chat `.wdb` worlds (Microsoft V-Chat, 1995–1997).
//!
//! Spec: `shared/specs/wdb.txt` (Part 1 of a blog series by the author of the V-Chat to X3D
//! conversion: header, fence, node tree) and `shared/specs/wdb-notes.md` (the geometry field
//! order and the light layout from Parts 2 and 3, each point tagged known, inferred or unknown),
//! which win where they disagree. **No real `.wdb` is public**: this module is built from the
//! published structure, and nothing in it has been checked against a real file.
//!
//! # The format
//!
//! Little-endian. Strings are one length byte and that many bytes.
//!
//! ```text
//! VCHeader   "WDBV" version:u8(=4) b0 b1 b2:u8(=0) blue green red:u8 b3:u8(=0xFF)
//! VCFence    numBorderDefs:u16, {x0 z0 x1 z1: f64} × n, yMax:f64, yMin:f64
//! numNodes   u16
//! VCNode × … name:string, transform:f32×16, origin:f32×3 axis:f32×3 speed:f32,
//!            numGeometries:u16 VCGeometry×n, numLights:u16 VCLight×n, numChildren:u16
//! VCGeometry numPoints:u16 {x y z:f32}×n, numNormals:u16 {x y z:f32}×n,
//!            numPolygons:u16, lenIFS:u16, VCPolyDef×numPolygons, finalIFS:u16(=0),
//!            w6:u16 (render flags), VCTexCoord×numPoints, VCFFFlags(4 bytes)×numPoints,
//!            numTexDefs:u8, VCTexDef×n, material:u16×numPolygons
//! VCLight    b0 (type) b1 b2 b3, b4 b5 b6 (colour) b7 (=0xFF): u8; s0 s1 s2 s3 s4: f32
//! ```
//!
//! **Known** (stated by the blog author from the real files): the header, the fence, the node
//! fields and their order, the geometry's field order and the sizes of its counted parts except
//! those below, the 28-byte light with its observed values, the `SPINxxxx` naming of spinning
//! parts and the relation of the name to the speed.
//!
//! **Inferred or unknown**, decided by the working hypotheses of [`hypotheses`] (one place, so
//! that someone with real files can change them): the layout of a polygon definition (H1), what
//! `lenIFS` counts (H2), the size of a texture coordinate (H3), the layout of a texture definition
//! (H4), what `numNodes` counts and the order of children (H5, H6), plausibility guards (H7), the
//! light type byte (H8), affine node matrices (H9); and for the scene, the matrix layout and
//! handedness (M1), face winding (M2), texture V (M3), how normals attach (M4), the line-set bit
//! of `w6` (M5), line-set definitions (M6), the spin speed (M7) and frame rate (M8), the light
//! colour order (M9) and the meaning of the five light floats (M10, M11). Unknown and kept as
//! they are: the header's `b0` `b1` `b2` `b3`, the light's `b1` `b2` `b3` `b7`, the render flags
//! and the four per-point flag bytes.
//!
//! # What this module does
//!
//! * [`read`] / [`Wdb::write`]: a lossless model ([`Wdb`]: every field, unknown bytes included;
//!   `f32` kept as `f32`, so `write(read(x)) == x` and the JSON form round-trips too). The reader
//!   checks every redundant field against the hypotheses (the face table's byte length and its
//!   zero word, point and material indices, texture names, finite floats, the file ending exactly
//!   after the last node) and reports a mismatch with the node path (`nodes/3/children/1
//!   "SPIN0010"/geometries/0`) and byte offset instead of reading on.
//! * [`Wdb::validate`]: every finding with its path (see [`validate()`]).
//! * [`Wdb::to_scene`] / [`Wdb::from_scene`]: the common 3D model (see the last section):
//!   spinning parts as looping spin animations, lights through `KHR_lights_punctual`
//!   with the Direct3D RM type mapping, the fence as line geometry with its y limits in
//!   `extras`, the background colour in the scene's `extras`; and back, so a glTF becomes a
//!   world.
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
//! assert!(summary.nodes > summary.roots);
//! let (scene, _warnings) = world.to_scene();
//! assert_eq!(scene.animations.len(), summary.spinners);
//! # Ok::<(), levelkit::Error>(())
//! ```
//!
//! # To and from the common 3D model
//!
//! **To a scene** ([`Wdb::to_scene`]), with the meaning hypotheses M1–M11 of
//! [`hypotheses`]:
//!
//! * Node `i` of the file is scene node `i`, with its name (Windows-1252), its matrix (z negated
//!   for the right-handed scene) and its children; the roots are the file's roots. A node's first
//!   geometry becomes its mesh, and its first light its light when it has no geometry; further
//!   geometries and lights (which no known world has) go to added child nodes with an identity
//!   transform and `extras.wdb_part = true`, after all the file's nodes.
//! * A geometry becomes a mesh with every point as a position. A face set gives faces (the
//!   corner order kept: Direct3D's clockwise is the scene's counter-clockwise once z is negated),
//!   each corner with its point's normal (when there is one per point; per polygon when there is
//!   one per polygon) and texture coordinate (V flipped), and the material of its texture; a line
//!   set gives polylines (closed for 3 points or more). Definitions with too few points are left
//!   out, with a warning. What the mesh can not hold goes in its `extras`: `wdb_render_flags`,
//!   `wdb_point_flags` (hex, when not all zero), `wdb_textures` (the texture names in order),
//!   `wdb_normals` (when they are not one per point), `wdb_tex_coords` (of a line set) and
//!   `wdb_materials` (when two texture definitions have the same name).
//! * Each distinct texture name becomes one texture (a file reference: V-Chat keeps textures as
//!   image files beside the world) and one white material using it.
//! * A spinning node (non-zero axis and speed) gets a [`crate::scene::Motion::Spin`] about its axis (z
//!   negated), at `degrees_per_frame × 15` degrees per second, turned the other way by the change
//!   of handedness; the raw fields are in the node's `extras.wdb_animation`, the degrees per frame
//!   and frame rate in the animation's `extras`.
//! * Lights: `D3DRMLIGHTTYPE` 0 ambient, 1 point, 2 spot, 3 directional, 4 parallel point (a
//!   point light), with the colour `b6 b5 b4` / 255 and intensity 1; a spot light's cone from
//!   `s3 s4` (corrected, with a warning, when it is not a valid cone). Every byte and float is in
//!   `extras.wdb_light`.
//! * The fence becomes a root node `fence` (`extras.wdb_fence = true`, after the others) whose
//!   mesh has one polyline per chain of connected segments, at height `yMin`; the scene's
//!   `extras.wdb_fence` has `y_min`, `y_max` and the segment count (an empty fence has no node).
//! * The scene's `extras` have `background_color` (RGB, 0–1) and `wdb_header` (every header
//!   byte).
//!
//! **From a scene** ([`Wdb::from_scene`]): the node tree is kept (depth-first from the roots,
//! each node once); a node's matrix is its transform (z negated), its mesh becomes one or more
//! geometries and its light a light; the `extras` above are used wherever they are present and
//! still agree with the scene, so `from_scene(to_scene(w))` gives `w` back for worlds whose points
//! are all used. A mesh's positions stay the geometry's points when every position has one
//! normal and one UV; otherwise points are made per distinct (position, normal, UV). Geometries
//! are split where a count or the face table would not fit 16 bits. V-Chat geometries have no
//! colours and need a texture on every polygon or on none: base colours are dropped, and
//! untextured faces of a mesh with textures go to a geometry of their own. Embedded images are
//! named after the texture (`.png` / `.jpg`) and must be saved beside the world (warning). A spin
//! becomes the node's animation, and its name `SPINxxxx` (V-Chat spins only nodes so named).
//! Cameras have no place in a world (warning), nor a projective last matrix row (dropped,
//! warning: hypothesis H9). The fence comes from the `wdb_fence` node and extras; without them it
//! is empty, with the scene's height range as its y limits.
//!
//! # Not supported, and open questions
//!
//! * Everything above rests on the notes, not on real files: the first real `.wdb` will tell
//!   whether H1–H9 and M1–M11 hold (the reader says which one fails, and where).
//! * The spin speed of V-Chat depended on the machine's frame rate; the scene's degrees per
//!   second assume 15 frames per second (M8). The SDK says the axis is "central to the object";
//!   the scene spins a node about its own origin (the animation origin, always (0, 0, 0) in
//!   known worlds, is kept but not applied).
//! * The light floats `s0`–`s4` have no glTF counterpart except the spot cone (M11): the
//!   attenuation is kept in `extras` only. Light intensities are 1.
//! * Texture images and the world's sounds are separate files beside `world.wdb`; this module
//!   only names them (their format is not documented in the notes).
//! * The meaning of the render flags beyond the line-set bit, of the per-point flags and of the
//!   header's and lights' unidentified bytes is unknown; they are kept and written back.

mod codec;
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

    /// The node tree (hypothesis H6); `None` when the child counts run past the last node.
    pub fn tree(&self) -> Option<Tree> {
        hypotheses::tree(self.nodes.iter().map(|n| n.children)).ok()
    }

    /// Summarise the world.
    pub fn summary(&self) -> WdbSummary {
        let tree = self.tree();
        let geometries = self.nodes.iter().flat_map(|n| &n.geometries);
        let mut textures: Vec<&[u8]> = geometries
            .clone()
            .flat_map(|g| g.textures.iter().map(|t| t.name.as_bytes()))
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
    /// Distinct texture names.
    pub textures: usize,
    /// Lights over all nodes.
    pub lights: usize,
    /// Spinning nodes (non-zero axis and speed).
    pub spinners: usize,
}
