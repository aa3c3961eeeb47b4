//! Tiled TMX/TMJ -> [`crate::tilemap::TileMap`] (being written).
