//! A level drawn with its game's own graphics: the tiles and sprites
//! [`wwd::graphics::resolve`] finds in the player's game files, turned into what the Tiled and
//! PNG exporters take (one atlas per tileset, object images by object id).

use std::collections::{BTreeMap, HashMap};

use super::Model;
use crate::assets::Assets;
use crate::error::Warning;
use crate::formats::wwd;
use crate::picture::{self as png, Image, PlacedImage};
use crate::tilemap::{Layer, TileMap, sprites};

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
pub fn wwd_art(level: &wwd::Wwd, map: &TileMap, files: &dyn Assets) -> (LevelArt, Vec<Warning>) {
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
        // A sparse image set's tileset holds only the tiles used, under local ids.
        let locals = wwd::sparse_tile_ids(ts);
        let cells = tiles.iter().filter_map(|(&id, img)| {
            let local = match &locals {
                Some(locals) => *locals.get(&id)?,
                None => id,
            };
            Some((local, (img.width, img.height, img.rgba.as_slice())))
        });
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

/// Give `map` the object images of `sprites` as Tiled shows them: one image-collection tileset
/// named `name` holding each distinct image once, and each object drawn as a tile object of it
/// ([`sprites::attach`]; the way back, [`sprites::detach`], restores the exact objects). Returns
/// the new tileset's index and its images by local id, or `None` when no object got an image.
pub fn attach_sprites(
    map: &mut TileMap,
    name: &str,
    sprites: &[(u32, PlacedImage)],
) -> Option<(usize, Vec<Image>)> {
    let mut images: Vec<&Image> = Vec::new();
    let mut index: HashMap<&Image, u32> = HashMap::new();
    let mut placements = Vec::with_capacity(sprites.len());
    for (object, placed) in sprites {
        let tile = match index.get(&placed.image) {
            Some(&t) => t,
            None => {
                let t = u32::try_from(images.len()).ok()?;
                index.insert(&placed.image, t);
                images.push(&placed.image);
                t
            }
        };
        placements.push(sprites::Placement {
            object: *object,
            tile,
            left: placed.left as f64,
            top: placed.top as f64,
        });
    }
    let sizes: Vec<(u32, u32)> = images.iter().map(|i| (i.width, i.height)).collect();
    let at = sprites::attach(map, name, &sizes, &placements)?;
    Some((at, images.into_iter().cloned().collect()))
}

/// The picture each Graal NPC of `map` (the common tile map of a `.graal`, `.zelda` or `.nw`
/// level) names, found by `find` (a file name, as the level writes it, to its bytes) and placed
/// with its top-left corner at the NPC's position, as the game draws an NPC. Where the NPC's
/// script cuts a part of its image (`setimgpart` or the older `setgifpart` with the NPC's own
/// image and four whole numbers, the classic `if (playerenters) { setimgpart img,x,y,w,h; }`),
/// that part is drawn. An image that is not found, or that the `image` crate cannot read (`.mng`),
/// gives a warning naming the file, and its NPC keeps its marker.
pub fn graal_npc_art(
    map: &TileMap,
    find: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> (Vec<(u32, PlacedImage)>, Vec<Warning>) {
    let mut decoded: HashMap<String, Option<Image>> = HashMap::new();
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for layer in &map.layers {
        let Layer::Objects(group) = layer else {
            continue;
        };
        for o in group.objects.iter().filter(|o| o.class == "npc") {
            let Ok(Some(name)) = o.properties.get_str("image") else {
                continue;
            };
            let name = name.trim();
            if name.is_empty() {
                continue;
            }
            let key = name.to_ascii_lowercase();
            let image = decoded.entry(key).or_insert_with(|| {
                let bytes = find(name);
                let image = bytes.as_deref().and_then(decode_picture);
                if image.is_none() {
                    let why = if bytes.is_some() {
                        "is not an image levelkit can read"
                    } else {
                        "was not found"
                    };
                    warnings.push(Warning::warning(
                        map.source_format,
                        crate::error::Location::path(format!("npc {}", o.id)),
                        format!("NPC image {name:?} {why}; the NPC is drawn as a marker"),
                    ));
                }
                image
            });
            let Some(image) = image.as_ref() else {
                continue;
            };
            let script = o.properties.get_str("script").ok().flatten().unwrap_or("");
            let picture = match image_part(script, name) {
                Some(rect) => crop(image, rect),
                None => Some(image.clone()),
            };
            let Some(picture) = picture else {
                continue;
            };
            if !(o.x.is_finite() && o.y.is_finite()) {
                continue;
            }
            out.push((
                o.id,
                PlacedImage {
                    image: picture,
                    left: o.x.round() as i64,
                    top: o.y.round() as i64,
                },
            ));
        }
    }
    (out, warnings)
}

/// Largest NPC picture decoded, in pixels (a 4096 × 4096 image).
const MAX_PICTURE_PIXELS: u64 = 1 << 24;

fn decode_picture(bytes: &[u8]) -> Option<Image> {
    let limits = crate::limits::Limits {
        max_alloc: usize::try_from(MAX_PICTURE_PIXELS * 4).ok()?,
        ..crate::limits::Limits::default()
    };
    let img = super::image::decode_rgba(bytes, None, &limits).ok()?;
    Some(Image {
        width: img.width,
        height: img.height,
        rgba: img.rgba,
        columns: 0,
    })
}

/// The `(x, y, w, h)` of the first `setimgpart`/`setgifpart` of `image` in `script`.
fn image_part(script: &str, image: &str) -> Option<(u32, u32, u32, u32)> {
    let lower = script.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = ["setimgpart", "setgifpart"]
        .iter()
        .filter_map(|k| lower.get(from..)?.find(k).map(|i| from + i + k.len()))
        .min()
    {
        from = at;
        let args = script.get(at..)?.split([';', '\n', '§', '}']).next()?;
        let parts: Vec<&str> = args.split(',').map(str::trim).collect();
        if let [name, x, y, w, h] = parts.as_slice()
            && name.eq_ignore_ascii_case(image)
            && let (Ok(x), Ok(y), Ok(w), Ok(h)) = (x.parse(), y.parse(), w.parse(), h.parse())
        {
            return Some((x, y, w, h));
        }
    }
    None
}

/// The part `(x, y, w, h)` of `image`, cut to the image; `None` when nothing is left.
fn crop(image: &Image, (x, y, w, h): (u32, u32, u32, u32)) -> Option<Image> {
    let w = w.min(image.width.checked_sub(x)?);
    let h = h.min(image.height.checked_sub(y)?);
    if w == 0 || h == 0 {
        return None;
    }
    let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
    for row in y..y + h {
        let start = (row as usize * image.width as usize + x as usize) * 4;
        rgba.extend_from_slice(image.rgba.get(start..start + w as usize * 4)?);
    }
    Some(Image {
        width: w,
        height: h,
        rgba,
        columns: 0,
    })
}

/// The game's art for any document from `files`: a WWD level's (see [`wwd_art`]); `None` for
/// documents drawn without game files.
pub fn level_art(
    model: &Model,
    map: &TileMap,
    files: &dyn Assets,
) -> Option<(LevelArt, Vec<Warning>)> {
    match model {
        Model::Wwd(level) => Some(wwd_art(level, map, files)),
        _ => None,
    }
}
