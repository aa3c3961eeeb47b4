//! Common models -> modern formats. Nothing here knows about a legacy format: exporters take a
//! [`crate::tilemap::TileMap`], a [`crate::scene::Scene`] or an [`crate::anim::Animation`] and
//! produce bytes.
//!
//! * [`tiled`]: Tiled maps, TMX (XML) and TMJ (JSON).
//! * [`png`]: PNG previews of tile maps, and generated tileset images.
//! * [`gltf`]: glTF 2.0 (`.gltf` with embedded or side-car buffers, and `.glb`).
//! * [`obj`]: Wavefront OBJ + MTL.
//! * [`anim`]: animations as GIF, animated PNG, and sprite sheets (PNG + JSON frame table).

pub mod anim;
pub mod font;
pub mod gltf;
pub mod obj;
pub mod png;
pub mod tiled;

use crate::error::Warning;

/// What an exporter that may write more than one file produces: the main file, the files it
/// references by relative name (side-car buffers, textures, an OBJ's MTL), and what did not map.
/// The library writes no files; the caller puts `side_files` beside the main one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportFiles {
    /// The main file's bytes.
    pub main: Vec<u8>,
    /// `(file name, bytes)` of each file the main one references, names relative to it.
    pub side_files: Vec<(String, Vec<u8>)>,
    /// What did not map.
    pub warnings: Vec<Warning>,
}
