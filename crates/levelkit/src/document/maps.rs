//! A level's tile map as a Tiled map or a PNG preview, drawn with the user's tiles, the game's
//! art and the NPC pictures the options and the assets give.

use std::collections::BTreeMap;

use super::Model;
use super::options::{Converted, Options, find_image};
use super::tiles::{self, Tiles};
use crate::assets::Assets;
use crate::error::{Error, Location, Result, Warning};
use crate::picture::{self as png, Image, PlacedImage};
use crate::registry::Format;
use crate::tiled;
use crate::tilemap::TileMap;

/// What [`gather`] found: the atlases (`None`: generated, made on first use), whether any is
/// the user's or the game's, and the object images by object id.
type Gathered = (Vec<Option<Image>>, bool, Vec<(u32, PlacedImage)>);

/// The pictures `map` (the tile map of `model`) is drawn with: one atlas per tileset (`None`
/// where it is generated, made by the caller when it needs it; every one `None` when `lazy`
/// and user tiles are given, loaded on first use), whether any is the user's or the game's, and the object images, from [`Options::tiles`], [`Options::game`] and the NPC
/// pictures found by [`find_image`]; what was found and not is noted.
fn gather(
    model: &Model,
    map: &TileMap,
    options: &Options<'_>,
    assets: &dyn Assets,
    lazy: bool,
    notes: &mut Vec<String>,
) -> Result<Gathered> {
    let (mut atlases, mut user_tiles) = match (model, options.tiles.as_ref()) {
        // A Tiled map draws with the images it references (relative to its folder).
        (Model::Tiled(doc), None) => {
            let mut found = tiles::referenced(&doc.options.tileset_images, assets);
            let any = !found.is_empty();
            let atlases = (0..map.tilesets.len()).map(|i| found.remove(&i)).collect();
            (atlases, any)
        }
        // Without user tiles, an atlas named after a tileset's image set beside the document
        // (Graal's `pics1.png`) draws it; other tilesets are generated.
        (_, None) => tiles::found_atlases(map, Some(&Tiles::Optional(assets)))?,
        (_, _) if lazy => (vec![None; map.tilesets.len()], false),
        (_, tiles) => tiles::found_atlases(map, tiles)?,
    };
    let mut sprites = Vec::new();
    if let Some(game) = options.game {
        match super::game::level_art(model, map, game) {
            Some((mut art, warnings)) => {
                notes.extend(warnings.iter().map(Warning::to_string));
                let r = &art.report;
                notes.push(format!(
                    "--game: {} of {} tile images, {} of {} object images ({} of {} image sets) found",
                    r.tiles_found,
                    r.tiles_used,
                    r.objects_found,
                    r.objects_with_images,
                    r.image_sets_found,
                    r.image_sets
                ));
                for (ts, atlas) in map.tilesets.iter().zip(atlases.iter_mut()) {
                    if let Some(real) = art.tileset_images.remove(&ts.name) {
                        *atlas = Some(real);
                        user_tiles = true;
                    }
                }
                sprites = art.sprites;
            }
            None => notes.push(format!(
                "--game applies to WWD levels; a {} file is drawn as without it",
                model.format().name()
            )),
        }
    }
    if matches!(model, Model::Graal(_) | Model::Nw(_)) {
        let (npcs, warnings) =
            super::game::graal_npc_art(map, &mut |name| find_image(options, assets, name));
        let missing = warnings
            .iter()
            .filter(|w| w.message.contains("was not found"))
            .count();
        notes.extend(warnings.iter().map(Warning::to_string));
        if missing > 0 && options.images.is_none() {
            notes.push(format!(
                "{missing} NPC image{} not found beside the level or in its parent folder; \
                 --images DIR names the folder of the server's images",
                if missing == 1 { "" } else { "s" }
            ));
        }
        sprites.extend(npcs);
    }
    Ok((atlases, user_tiles, sprites))
}

/// The pictures a map is drawn with, made now (the browser viewer draws maps itself).
pub fn map_art(
    model: &Model,
    map: &TileMap,
    options: &Options<'_>,
    assets: &dyn Assets,
    notes: &mut Vec<String>,
) -> Result<MapArt> {
    let (atlases, user_tiles, sprites) = gather(model, map, options, assets, false, notes)?;
    let atlases = atlases
        .into_iter()
        .zip(&map.tilesets)
        .map(|(atlas, ts)| atlas.map_or_else(|| png::tileset_image(ts), Ok))
        .collect::<Result<Vec<_>>>()?;
    Ok(MapArt {
        atlases,
        user_tiles,
        // With real graphics, a marker means "no image": a legend says which objects those are.
        legend: options.game.is_some() || !sprites.is_empty(),
        sprites,
    })
}

/// A tile map as Tiled or a PNG preview, drawn with the user's tiles, the game's art and the
/// NPC pictures the options and `assets` give.
pub fn map_conversion(
    model: &Model,
    map: &TileMap,
    target: Format,
    options: &Options<'_>,
    assets: &dyn Assets,
    notes: &mut Vec<String>,
) -> Result<Converted> {
    let shared = options
        .shared
        .as_ref()
        .filter(|_| target != Format::Png && options.output_name.is_some());
    // Shared tilesets make their images on first use only: every map of a batch but the first
    // skips generating (or loading) and encoding them.
    let lazy = shared.is_some();
    let (atlases, user_tiles, sprites) = gather(model, map, options, assets, lazy, notes)?;
    if let Some(shared) = shared {
        let mut tiled_options = tiled::TiledOptions::default();
        let make = |i: usize| -> Result<(Image, bool)> {
            let ts = map.tilesets.get(i).ok_or_else(|| {
                Error::unsupported(Format::Tmx, Location::default(), "no such tileset")
            })?;
            tiles::atlas(ts, i, options.tiles.as_ref())
        };
        let user =
            shared
                .tilesets
                .attach(map, atlases, target, &shared.up, &mut tiled_options, &make)?;
        if let Some(name) = options.tiles.as_ref().and_then(Tiles::name)
            && !user
        {
            return Err(tiles::none_found(name, map));
        }
        // Object images are the map's own, beside it (the shared tilesets are the tiles').
        let mut side = Vec::new();
        let with_sprites = match options.stem() {
            Some(stem) => sprite_images(map, &sprites, stem, &mut tiled_options, &mut side)?,
            None => None,
        };
        let map = with_sprites.as_ref().unwrap_or(map);
        let main = if target == Format::Tmx {
            tiled::to_tmx(map, &tiled_options)?
        } else {
            tiled::to_tmj(map, &tiled_options)?
        };
        return Ok(Converted {
            main: Some(main),
            side,
            ..Converted::default()
        });
    }
    if target != Format::Png {
        // Each generated atlas is made, encoded and dropped in turn.
        return tiled_files(map, target, atlases, &sprites, options.stem());
    }
    // A preview draws generated tiles its own way unless some are the user's.
    let atlases = match user_tiles {
        true => atlases
            .into_iter()
            .zip(&map.tilesets)
            .map(|(atlas, ts)| atlas.map_or_else(|| png::tileset_image(ts), Ok))
            .collect::<Result<Vec<_>>>()?,
        false => Vec::new(),
    };
    let art = MapArt {
        atlases,
        user_tiles,
        // With real graphics, a marker means "no image": a legend says which objects those are.
        legend: options.game.is_some() || !sprites.is_empty(),
        sprites,
    };
    map_files(map, target, art, options.stem())
}

/// The pictures a tile map is drawn with.
#[derive(Debug, Clone, Default)]
pub struct MapArt {
    /// One atlas per tileset of the map, in tileset order.
    pub atlases: Vec<Image>,
    /// Whether any atlas is the user's (or the game's) rather than generated: a PNG preview
    /// draws generated tiles in its own way when none is.
    pub user_tiles: bool,
    /// Object images by object id, in drawing order (a WWD level's game sprites, Graal NPC
    /// pictures): drawn in a PNG preview, and tile objects of an image-collection tileset in a
    /// Tiled map ([`super::game::attach_sprites`]).
    pub sprites: Vec<(u32, PlacedImage)>,
    /// PNG previews: colour markers by class and draw their legend
    /// ([`png::RenderOptions::legend`]).
    pub legend: bool,
}

/// A tile map as a PNG preview (`format` PNG) or a Tiled map (TMX or TMJ) whose tileset images
/// are side files `<stem>.tileset<i>.png`; with no `stem` (one self-contained output) the map
/// is written without tileset images.
pub fn map_files(
    map: &TileMap,
    format: Format,
    art: MapArt,
    stem: Option<&str>,
) -> Result<Converted> {
    if format == Format::Png {
        let mut options = png::RenderOptions {
            scale: png::Scale::Fit,
            legend: art.legend,
            sprites: art.sprites,
            ..png::RenderOptions::default()
        };
        if art.user_tiles {
            for (ts, image) in map.tilesets.iter().zip(art.atlases) {
                options.tileset_images.insert(ts.name.clone(), image);
            }
        }
        let image = png::render(map, &options)?;
        return Ok(Converted::of(png::encode_png(&image)?));
    }
    let atlases = art.atlases.into_iter().map(Some).collect();
    tiled_files(map, format, atlases, &art.sprites, stem)
}

/// The object images of a Tiled map: `map` with a collection-of-images tileset whose tiles
/// are `sprites`' images and whose objects are tile objects of it (`None` when no object has
/// an image), each distinct image a side file `<stem>.sprites/<id>.png` named in `options`.
fn sprite_images(
    map: &TileMap,
    sprites: &[(u32, PlacedImage)],
    stem: &str,
    options: &mut tiled::TiledOptions,
    side: &mut Vec<(String, Vec<u8>)>,
) -> Result<Option<TileMap>> {
    if sprites.is_empty() {
        return Ok(None);
    }
    let mut m = map.clone();
    let Some((index, images)) = super::game::attach_sprites(&mut m, "sprites", sprites) else {
        return Ok(None);
    };
    let mut tiles = BTreeMap::new();
    for (id, image) in (0u32..).zip(&images) {
        let name = format!("{stem}.sprites/{id}.png");
        tiles.insert(
            id,
            tiled::TileImage {
                path: name.clone(),
                width: image.width,
                height: image.height,
            },
        );
        side.push((name, png::encode_png(image)?));
    }
    options.tile_images.insert(index, tiles);
    Ok(Some(m))
}

/// A tile map as a Tiled map (TMX or TMJ) with its tileset images as side files
/// `<stem>.tileset<i>.png` (`None`: generated here, each made, encoded and dropped before the
/// next) and its object images; with no `stem`, the map alone.
fn tiled_files(
    map: &TileMap,
    format: Format,
    atlases: Vec<Option<Image>>,
    sprites: &[(u32, PlacedImage)],
    stem: Option<&str>,
) -> Result<Converted> {
    let mut options = tiled::TiledOptions::default();
    let mut side = Vec::new();
    if let Some(stem) = stem {
        for (index, (atlas, ts)) in atlases.into_iter().zip(&map.tilesets).enumerate() {
            let image = match atlas {
                Some(image) => image,
                None => png::tileset_image(ts)?,
            };
            let image = &image;
            let name = format!("{stem}.tileset{index}.png");
            let entry = tiled::TilesetImage {
                path: name.clone(),
                width: image.width,
                height: image.height,
                columns: image.columns,
            };
            if index == 0 {
                options.tileset_image = Some(entry);
            } else {
                options.tileset_images.insert(index, entry);
            }
            side.push((name, png::encode_png(image)?));
        }
    }
    let with_sprites = match stem {
        Some(stem) => sprite_images(map, sprites, stem, &mut options, &mut side)?,
        None => None,
    };
    let map = with_sprites.as_ref().unwrap_or(map);
    let main = match format {
        Format::Tmx => tiled::to_tmx(map, &options)?,
        Format::Tmj => tiled::to_tmj(map, &options)?,
        other => {
            return Err(Error::unsupported(
                other,
                Location::default(),
                format!("a tile map becomes tmx, tmj or png, not {}", other.name()),
            ));
        }
    };
    Ok(Converted {
        main: Some(main),
        side,
        ..Converted::default()
    })
}
