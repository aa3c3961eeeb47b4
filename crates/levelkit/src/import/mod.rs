//! Modern formats -> common models: the way back from what [`crate::export`] writes.
//!
//! * [`tiled`]: Tiled maps (TMX and TMJ) to a [`crate::tilemap::TileMap`].
//! * [`gltf`]: glTF 2.0 and GLB to a [`crate::scene::Scene`].
//! * [`obj`]: Wavefront OBJ + MTL to a [`crate::scene::Scene`].

pub mod gltf;
pub mod obj;
pub mod tiled;
