//! Tileset images: the generated atlas of a tileset, and that atlas with real tile pictures drawn
//! over it.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use std::collections::HashMap;

use super::image::{DEFAULT_MAX_PIXELS, Image, TRANSPARENT};
use super::tile::generated;
use crate::error::Result;
use crate::tilemap::{TileData, Tileset};

/// Columns and rows of a generated tileset image: `columns = ceil(sqrt(tile_count))` (at least 1),
/// so the image is about square, and as many rows as the tiles need.
pub fn tileset_layout(tileset: &Tileset) -> (u32, u32) {
    let n = tileset.tile_count;
    let mut columns = n.isqrt();
    if u64::from(columns) * u64::from(columns) < u64::from(n) {
        columns += 1;
    }
    let columns = columns.max(1);
    (columns, n.div_ceil(columns))
}

/// Generate a readable image of a tileset (see the module docs for the colours), laid out as
/// [`tileset_layout`] says; [`Image::columns`] is set. Fails with [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded)
/// when the image would be over [`DEFAULT_MAX_PIXELS`] (a tileset from a hostile file can ask for
/// any size).
pub fn tileset_image(tileset: &Tileset) -> Result<Image> {
    let (columns, rows) = tileset_layout(tileset);
    let (tw, th) = (tileset.tile_width, tileset.tile_height);
    let mut image = Image::blank(
        u64::from(columns) * u64::from(tw),
        u64::from(rows) * u64::from(th),
        DEFAULT_MAX_PIXELS,
        &format!("the image of tileset {:?}", tileset.name),
    )?;
    image.columns = columns;
    let by_id: HashMap<u32, &TileData> = tileset.tiles.iter().map(|t| (t.id, t)).collect();
    for id in 0..tileset.tile_count {
        let tile = generated(tileset, by_id.get(&id).copied(), id, true);
        let (left, top) = (
            u64::from(id % columns) * u64::from(tw),
            u64::from(id / columns) * u64::from(th),
        );
        for y in 0..th {
            let row = (top + u64::from(y)) * u64::from(image.width);
            for x in 0..tw {
                let i = ((row + left + u64::from(x)) * 4) as usize;
                if let Some(p) = image.rgba.get_mut(i..i + 4) {
                    p.copy_from_slice(&tile.pixel(x, y));
                }
            }
        }
    }
    Ok(image)
}

/// The atlas of `tileset` in the layout [`tileset_image`] uses: the generated tiles, with each
/// tile of `tiles` (RGBA pixels of the given size, by local id) drawn over its cell in place of
/// the generated one (a smaller image at the cell's top left, a larger one cut).
pub fn compose_atlas<'a>(
    tileset: &Tileset,
    tiles: impl IntoIterator<Item = (u32, (u32, u32, &'a [u8]))>,
) -> Result<Image> {
    let mut atlas = tileset_image(tileset)?;
    let (tw, th, cols) = (
        tileset.tile_width,
        tileset.tile_height,
        atlas.columns.max(1),
    );
    for (id, (w, h, rgba)) in tiles {
        if id >= tileset.tile_count {
            continue;
        }
        let (left, top) = ((id % cols) * tw, (id / cols) * th);
        for y in 0..th {
            for x in 0..tw {
                let dst = (((top + y) as usize) * atlas.width as usize + (left + x) as usize) * 4;
                let px = if x < w && y < h {
                    let src = ((y as usize) * w as usize + x as usize) * 4;
                    rgba.get(src..src + 4)
                } else {
                    None
                };
                if let Some(d) = atlas.rgba.get_mut(dst..dst + 4) {
                    d.copy_from_slice(px.unwrap_or(&TRANSPARENT));
                }
            }
        }
    }
    Ok(atlas)
}
