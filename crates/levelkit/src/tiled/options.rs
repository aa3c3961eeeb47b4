//! What the Tiled writer and reader share: [`TiledOptions`] (the images, layer encoding and
//! external tileset files of a map, which the reader gives back so that writing again gives the
//! same file), and the names and versions written into every map.

use std::collections::BTreeMap;

#[cfg(doc)]
use super::{to_tmj, to_tmx, to_tsj, to_tsx};
#[cfg(doc)]
use crate::tilemap::{TileMap, Tileset};

/// The Tiled version written into every map (`tiledversion`).
pub const TILED_VERSION: &str = "1.8.2";
/// The map format version written into every map (`version`).
pub const FORMAT_VERSION: &str = "1.8";
/// Image-less tilesets up to this many tiles declare every tile (see the module docs).
pub const MAX_DECLARED_TILES: u32 = 65_536;
/// Name of the tileset property that keeps [`Tileset::image`].
pub const IMAGE_PROPERTY: &str = "levelkit.image";
/// Name of the map property that keeps [`TileMap::source_format`].
pub const SOURCE_FORMAT_PROPERTY: &str = "levelkit.source_format";

/// An image holding a tileset's tiles in a grid (no margin, no spacing), left to right, top to
/// bottom from local id 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TilesetImage {
    /// Path of the image, relative to the map file (written as given, `/` separators advised).
    pub path: String,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Tiles per row.
    pub columns: u32,
}

/// How tile layer data is stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LayerEncoding {
    /// Comma-separated gids, one map row per line (readable, diffable).
    #[default]
    Csv,
    /// Little-endian u32 gids, zlib-compressed, base64-encoded (small).
    Base64Zlib,
}

/// Options of [`to_tmx`] and [`to_tmj`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TiledOptions {
    /// The image of the map's first tileset (`map.tilesets[0]`), the usual case of a map with one
    /// atlas (Graal's `pics1.png`).
    pub tileset_image: Option<TilesetImage>,
    /// Images of other tilesets, by index into `map.tilesets`; an entry for index 0 wins over
    /// [`TiledOptions::tileset_image`].
    pub tileset_images: BTreeMap<usize, TilesetImage>,
    /// Tile layer data encoding.
    pub encoding: LayerEncoding,
    /// Tilesets kept in files of their own, by index into `map.tilesets`: the file's path
    /// relative to the map (`/` separators). The map then holds only the reference
    /// (`<tileset firstgid="1" source="tilesets/pics1.tsx"/>`); [`to_tsx`] and [`to_tsj`] write
    /// the file, and such a tileset's entry in the image fields above is not used.
    pub external_tilesets: BTreeMap<usize, String>,
    /// Images of single tiles, by tileset index and local id: a tileset without an atlas image
    /// whose tiles each have their own picture (Tiled's "collection of images", as
    /// [`crate::tilemap::sprites`] makes for object images).
    pub tile_images: BTreeMap<usize, BTreeMap<u32, TileImage>>,
}

/// The picture of one tile of an image-collection tileset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileImage {
    /// Path of the image, relative to the map file.
    pub path: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl TiledOptions {
    /// The image given for the tileset at `index`, if any.
    pub fn image_for(&self, index: usize) -> Option<&TilesetImage> {
        self.tileset_images.get(&index).or(if index == 0 {
            self.tileset_image.as_ref()
        } else {
            None
        })
    }
}
