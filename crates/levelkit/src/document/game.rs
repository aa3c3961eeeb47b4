//! A level drawn with its game's own graphics: the tiles and sprites
//! [`wwd::graphics::resolve`] finds in the player's game files, turned into what the Tiled and
//! PNG exporters take (one atlas per tileset, object images by object id).

use std::collections::BTreeMap;

use super::Model;
use crate::error::Warning;
use crate::export::png::{self, Image, PlacedImage};
use crate::formats::wwd::{self, graphics::GameFiles};
use crate::tilemap::{Layer, TileMap};

/// What a level needs to be drawn as the game draws it.
#[derive(Debug, Clone, Default)]
pub struct LevelArt {
    /// Atlases by tileset name ([`png::RenderOptions::tileset_images`], and the Tiled
    /// exporter's tileset images), for every tileset with at least one real tile.
    pub tileset_images: BTreeMap<String, Image>,
    /// Object images by object id, in drawing order ([`png::RenderOptions::sprites`]).
    pub sprites: Vec<(u32, PlacedImage)>,
    /// What was found and what was not.
    pub report: wwd::graphics::Report,
}

/// The graphics of `level` (whose common tile map is `map`, as
/// [`wwd::Wwd::to_tilemap`] makes it) from `files`, with a warning for everything looked for and
/// not found.
pub fn wwd_art(level: &wwd::Wwd, map: &TileMap, files: &dyn GameFiles) -> (LevelArt, Vec<Warning>) {
    let (graphics, mut warnings) = wwd::graphics::resolve(level, files);
    let mut art = LevelArt {
        report: graphics.report,
        ..LevelArt::default()
    };
    for ts in &map.tilesets {
        let (Some(plane), Some(set)) = (
            ts.properties.get_int("wwd_plane").ok().flatten(),
            ts.properties.get_int("wwd_image_set").ok().flatten(),
        ) else {
            continue;
        };
        let tiles = usize::try_from(plane)
            .ok()
            .and_then(|p| graphics.tiles.get(p))
            .and_then(|sets| usize::try_from(set).ok().and_then(|s| sets.get(s)));
        let Some(tiles) = tiles.filter(|t| !t.is_empty()) else {
            continue;
        };
        let cells = tiles
            .iter()
            .map(|(&id, img)| (id, (img.width, img.height, img.rgba.as_slice())));
        match png::compose_atlas(ts, cells) {
            Ok(atlas) => {
                art.tileset_images.insert(ts.name.clone(), atlas);
            }
            Err(e) => warnings.push(Warning::warning(
                e.format,
                e.location.clone(),
                format!("tileset {:?} keeps its generated tiles: {e}", ts.name),
            )),
        }
    }
    // Object ids by (plane, index in plane): the groups carry their plane, objects in file order.
    let mut ids = BTreeMap::new();
    for layer in &map.layers {
        let Layer::Objects(group) = layer else {
            continue;
        };
        let Some(plane) = group
            .properties
            .get_int("wwd_plane")
            .ok()
            .flatten()
            .and_then(|p| usize::try_from(p).ok())
        else {
            continue;
        };
        for (index, object) in group.objects.iter().enumerate() {
            ids.insert((plane, index), object.id);
        }
    }
    for sprite in graphics.sprites {
        let Some(&id) = ids.get(&(sprite.plane, sprite.object)) else {
            continue;
        };
        let image = Image {
            width: sprite.image.width,
            height: sprite.image.height,
            rgba: sprite.image.rgba,
            columns: 0,
        };
        art.sprites.push((
            id,
            PlacedImage {
                image,
                left: sprite.left,
                top: sprite.top,
            },
        ));
    }
    (art, warnings)
}

/// The game's art for any document from `files`: a WWD level's (see [`wwd_art`]); `None` for
/// documents drawn without game files.
pub fn level_art(
    model: &Model,
    map: &TileMap,
    files: &dyn GameFiles,
) -> Option<(LevelArt, Vec<Warning>)> {
    match model {
        Model::Wwd(level) => Some(wwd_art(level, map, files)),
        _ => None,
    }
}
