//! Graal overworlds converted: a `.gmap` to a Tiled world (the `.world` file, and one `.tmx` per
//! level beside it, their tilesets made once into `tilesets/`), a Tiled world back to the gmap
//! and each level in its own format beside it, and a gmap drawn whole into one PNG. The
//! formats themselves are [`super::world`]'s; the levels are found in the [`Assets`] around the
//! gmap (or the world) by the names it holds, ignoring case as GServer does.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::Model;
use super::maps::map_conversion;
use super::options::{Converted, Failure, Options, SharedTilesets};
use super::tiles;
use super::tilesets::Shared;
use super::world::{self, World};
use crate::assets::Assets;
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::formats::graal::gmap::Gmap;
use crate::limits::Limits;
use crate::picture::{self as png, Image};
use crate::registry::Format;

/// The bytes of the level file `name` in `assets`; `None` for a name that is not a plain file
/// name (nothing outside the gmap's folder is read) or a file that is not there.
pub fn level_bytes<'a>(assets: &'a dyn Assets, name: &str) -> Option<Cow<'a, [u8]>> {
    if !world::is_plain_file_name(name) {
        return None;
    }
    assets.read(name)
}

/// How many of the gmap's distinct level names have a file in `assets`, and how many there are.
pub fn levels_found(gmap: &Gmap, assets: &dyn Assets) -> (usize, usize) {
    let names: BTreeSet<String> = gmap
        .grid()
        .cells
        .iter()
        .map(|c| c.name.to_latin1())
        .collect();
    let found = names
        .iter()
        .filter(|n| world::is_plain_file_name(n) && assets.read(n).is_some())
        .count();
    (found, names.len())
}

/// The warnings for the levels of `gmap` that are not in `assets`.
pub fn missing_levels(gmap: &Gmap, assets: &dyn Assets) -> Vec<Warning> {
    gmap.validate_levels(&mut |name| level_bytes(assets, name).is_some())
}

/// A gmap as a Tiled world: the `.world` file as the main output and each level found in
/// `assets` as a `.tmx` side file (missing levels are noted and left out of the world; a level
/// that fails to convert is noted and makes the result [`Converted::partial`]). The levels'
/// tilesets are made once: into `tilesets/` beside the world, or into the caller's shared
/// tilesets ([`Options::shared`]).
pub fn to_tiled_world(
    gmap: &Gmap,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> Result<Converted> {
    let world = World::from_gmap(gmap);
    let own;
    let (shared, up) = match &options.shared {
        Some(s) => (s.tilesets, s.up.clone()),
        None => {
            own = Shared::new(options.tiles.as_ref().and_then(tiles::Tiles::name));
            (&own, String::new())
        }
    };
    let mut done = Converted::default();
    let mut present: BTreeMap<String, bool> = BTreeMap::new();
    // Each map file once (a level may fill several cells), in grid order.
    for m in &world.maps {
        if present.contains_key(&m.file_name) {
            continue;
        }
        let Some(bytes) = level_bytes(assets, &m.level) else {
            done.notes.push(format!(
                "level ({},{}) {}: no such file beside the gmap; left out of the world",
                m.grid_x, m.grid_y, m.level
            ));
            present.insert(m.file_name.clone(), false);
            continue;
        };
        let level_options = Options {
            output_name: Some(m.file_name.clone()),
            tiles: options.tiles.clone(),
            shared: Some(SharedTilesets {
                tilesets: shared,
                up: up.clone(),
            }),
            ..Options::default()
        };
        let mut notes = Vec::new();
        let converted = Model::read(&bytes, Some(&m.level), &Limits::default()).and_then(|model| {
            let Some((map, warnings)) = model.to_tilemap() else {
                return Err(Error::unsupported(
                    model.format(),
                    Location::default(),
                    format!("a {} file is not a level", model.format().name()),
                ));
            };
            notes.extend(warnings.iter().map(Warning::to_string));
            map_conversion(
                &model,
                &map,
                Format::Tmx,
                &level_options,
                assets,
                &mut notes,
            )
        });
        done.notes.append(&mut notes);
        match converted {
            Ok(level) => {
                done.side
                    .push((m.file_name.clone(), level.main.unwrap_or_default()));
                done.side.extend(level.side);
                present.insert(m.file_name.clone(), true);
            }
            Err(e) => {
                done.notes.push(format!(
                    "level ({},{}) {}: {e}",
                    m.grid_x, m.grid_y, m.level
                ));
                done.partial = true;
                present.insert(m.file_name.clone(), false);
            }
        }
    }
    if options.shared.is_none() {
        done.side.extend(shared.take_files());
    }
    done.main = Some(world.to_json(&mut |m| present.get(&m.file_name).copied().unwrap_or(false))?);
    Ok(done)
}

/// A Tiled world (`.world` bytes) back to its gmap (the main output) and each of its maps, found
/// in `assets`, as the level it was made from (side files named by the levels).
pub fn from_tiled_world(
    bytes: &[u8],
    assets: &dyn Assets,
) -> std::result::Result<Converted, Failure> {
    let (world, warnings) = World::from_json(bytes)?;
    let mut done = Converted::default();
    done.notes.extend(warnings.iter().map(ToString::to_string));
    let gmap_bytes = world.gmap.write()?;
    let mut seen = BTreeSet::new();
    for m in &world.maps {
        if !seen.insert(m.level.clone()) {
            continue;
        }
        if !world::is_plain_file_name(&m.level) {
            done.notes.push(format!(
                "level ({},{}) {:?} is not a plain file name; not written",
                m.grid_x, m.grid_y, m.level
            ));
            continue;
        }
        let Some(map_bytes) = assets.read(&m.file_name) else {
            done.notes.push(format!(
                "level ({},{}) {}: its map {} is not beside the world; not written",
                m.grid_x, m.grid_y, m.level, m.file_name
            ));
            continue;
        };
        let level = Model::read_with(
            &map_bytes,
            Some(&m.file_name),
            &Limits::default(),
            &mut |name: &str| assets.read(name).map(Cow::into_owned),
        )
        .and_then(|model| {
            let format = Format::from_path_name(&m.level)
                .filter(|f| matches!(f, Format::Nw | Format::GraalLevel))
                .or(match &model {
                    Model::Tiled(doc) => doc.level_format(),
                    _ => None,
                })
                .unwrap_or(Format::Nw);
            let (level, warnings) = model.convert_to(format)?;
            done.notes.extend(warnings.iter().map(ToString::to_string));
            level.write()
        });
        match level {
            Ok(level) => done.side.push((m.level.clone(), level)),
            Err(e) => {
                done.notes.push(format!(
                    "level ({},{}) {}: {}: {e}",
                    m.grid_x, m.grid_y, m.level, m.file_name
                ));
                done.partial = true;
            }
        }
    }
    done.main = Some(gmap_bytes);
    Ok(done)
}

/// The whole overworld drawn into one PNG, at most [`Options::max_size`] pixels on its longer
/// side (4096 when 0), every level found in `assets` at its place with the user's tiles where
/// given.
pub fn render_png(gmap: &Gmap, options: &Options<'_>, assets: &dyn Assets) -> Result<Converted> {
    let max_size = if options.max_size == 0 {
        4096
    } else {
        options.max_size
    };
    // The tile graphics, made once for the first level's tilesets and reused while the next
    // level has the same tilesets (every Graal level has one, the same).
    let mut atlases: Option<(Vec<String>, BTreeMap<String, Image>)> = None;
    // Each distinct level is read and drawn once, however many cells name it (a hostile gmap
    // of 90,000 cells naming one level drew it 90,000 times).
    let mut drawn: HashMap<(String, u32), Option<Result<Image>>> = HashMap::new();
    let (image, warnings) = world::render_gmap(gmap, max_size, &mut |cell, divisor| {
        let name = cell.name.to_latin1();
        let key = (name.to_ascii_lowercase(), divisor);
        if let Some(done) = drawn.get(&key) {
            return done.clone();
        }
        let Some(bytes) = level_bytes(assets, &name) else {
            drawn.insert(key, None);
            return None;
        };
        let mut draw = || -> Result<Image> {
            let model = Model::read(&bytes, Some(&name), &Limits::default())?;
            let Some((map, _)) = model.to_tilemap() else {
                return Err(Error::new(
                    Format::Gmap,
                    ErrorKind::Malformed,
                    Location::default(),
                    "not a level",
                ));
            };
            let names: Vec<String> = map.tilesets.iter().map(|t| t.name.clone()).collect();
            let images = match &atlases {
                Some((n, images)) if *n == names => images.clone(),
                _ => {
                    // Without user tiles, an atlas beside the gmap named after the image set.
                    let beside = tiles::Tiles::Optional(assets);
                    let tiles = options.tiles.as_ref().unwrap_or(&beside);
                    let (list, user) = tiles::atlases(&map, Some(tiles))?;
                    let images: BTreeMap<String, Image> = if user {
                        names.iter().cloned().zip(list).collect()
                    } else {
                        BTreeMap::new()
                    };
                    atlases = Some((names, images.clone()));
                    images
                }
            };
            let render = png::RenderOptions {
                scale: png::Scale::Divisor(
                    std::num::NonZeroU32::new(divisor).unwrap_or(std::num::NonZeroU32::MIN),
                ),
                tileset_images: images,
                objects: false,
                labels: false,
                ..png::RenderOptions::default()
            };
            png::render(&map, &render)
        };
        let result = draw();
        drawn.insert(key, Some(result.clone()));
        Some(result)
    })?;
    let mut done = Converted::of(png::encode_png(&image)?);
    done.notes = warnings.iter().map(ToString::to_string).collect();
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Files in memory that count how often each is read.
    struct Counting {
        level: Vec<u8>,
        reads: Cell<usize>,
    }

    impl Assets for Counting {
        fn read(&self, name: &str) -> Option<Cow<'_, [u8]>> {
            (name == "one.nw").then(|| {
                self.reads.set(self.reads.get() + 1);
                Cow::Borrowed(self.level.as_slice())
            })
        }

        fn list(&self, _: &str) -> Option<(Vec<String>, Vec<String>)> {
            None
        }
    }

    /// A gmap of 60 x 60 cells all naming one level (and one missing): the level is read and
    /// drawn once, not 3,600 times.
    #[test]
    fn a_level_named_by_many_cells_is_read_once() {
        let mut text = String::from("GRMAP001\r\nWIDTH 60\r\nHEIGHT 60\r\nLEVELNAMES\r\n");
        for row in 0..60 {
            let cells: Vec<&str> = (0..60)
                .map(|c| {
                    if row == 0 && c == 0 {
                        "\"gone.nw\""
                    } else {
                        "\"one.nw\""
                    }
                })
                .collect();
            text.push_str(&cells.join(","));
            text.push_str("\r\n");
        }
        text.push_str("LEVELNAMESEND\r\n");
        let gmap = Gmap::read(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        let assets = Counting {
            level: crate::formats::graal::nw::samples::village()
                .write()
                .unwrap_or_default(),
            reads: Cell::new(0),
        };
        let done =
            render_png(&gmap, &Options::default(), &assets).unwrap_or_else(|e| panic!("{e}"));
        assert!(done.main.is_some_and(|png| png.starts_with(b"\x89PNG")));
        assert_eq!(assets.reads.get(), 1);
    }
}
