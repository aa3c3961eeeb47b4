//! Common models -> modern formats. Nothing here knows about a legacy format: exporters take a
//! [`crate::tilemap::TileMap`] (or, later, a scene) and produce bytes.
//!
//! * [`tiled`]: Tiled maps, TMX (XML) and TMJ (JSON).
//! * [`png`]: PNG previews of tile maps, and generated tileset images.

pub mod png;
pub mod tiled;
