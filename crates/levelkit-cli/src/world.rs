//! Graal overworlds on the command line: `convert world.gmap world.world` (a Tiled world and one
//! `.tmx` per level beside it, their tilesets written once into `tilesets/`), `convert world.world world.gmap` (the gmap and each level back
//! in its own format beside it), `render world.gmap world.png` (the whole overworld in one
//! image), and the level files a gmap names for `info` and `validate`. The library does the
//! formats ([`levelkit::document::world`]); this module finds and writes the files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use levelkit::document::Model;
use levelkit::document::world::{self, World};
use levelkit::formats::graal::gmap::Gmap;
use levelkit::picture::{self as png, Image};
use levelkit::{Format, Warning};

use crate::conversion::{Target, convert, write_converted};
use crate::files::{self, display_name};
use crate::tilesets::Shared;
use crate::{EXIT_FAILED, EXIT_OK};
use rayon::prelude::*;

/// The folder a file is in (`.` for a bare name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The level file `name` in `dir`: the exact name, else the one name in the folder that equals
/// it without regard to case (GServer looks levels up without case).
pub fn find_level(dir: &Path, name: &str) -> Option<PathBuf> {
    if !world::is_plain_file_name(name) {
        return None;
    }
    let exact = dir.join(name);
    if exact.is_file() {
        return Some(exact);
    }
    let lower = name.to_lowercase();
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().to_lowercase() == lower)
        .map(|e| e.path())
        .filter(|p| p.is_file())
}

/// The warnings for the levels of `gmap` (read from `path`) that are not beside it.
pub fn missing_levels(gmap: &Gmap, path: &Path) -> Vec<Warning> {
    let dir = folder(path);
    gmap.validate_levels(&mut |name| find_level(&dir, name).is_some())
}

/// How many of the gmap's distinct level names have a file beside it, and how many there are.
pub fn levels_found(gmap: &Gmap, path: &Path) -> (usize, usize) {
    let dir = folder(path);
    let names: BTreeSet<String> = gmap
        .grid()
        .cells
        .iter()
        .map(|c| c.name.to_latin1())
        .collect();
    let found = names
        .iter()
        .filter(|n| find_level(&dir, n).is_some())
        .count();
    (found, names.len())
}

/// `convert world.gmap world.world`: the world file and each level that exists as a `.tmx`
/// beside it, converted in parallel. The levels' tilesets are written once, as in a batch
/// ([`crate::tilesets`]): into `tilesets/` beside the world, or into the batch's shared folder
/// when the world is part of one (`shared`). Missing levels are warnings; levels that fail to
/// convert are reported and make the exit status 1.
pub fn gmap_to_world(
    gmap: &Gmap,
    input: &Path,
    output: &Path,
    tiles: Option<PathBuf>,
    force: bool,
    shared: Option<&Shared>,
    notes: &mut Vec<String>,
) -> anyhow::Result<u8> {
    let (in_dir, out_dir) = (folder(input), folder(output));
    let world = World::from_gmap(gmap);
    let own;
    let shared = match shared {
        Some(s) => s,
        None => {
            own = Shared::new(&out_dir, force, tiles.as_deref());
            &own
        }
    };
    let target = Target::new(Format::Tmx, None)?.with_tiles(tiles);
    // Each map file once (a level may fill several cells), in grid order.
    let mut seen = BTreeSet::new();
    let maps: Vec<_> = world
        .maps
        .iter()
        .filter(|m| seen.insert(m.file_name.clone()))
        .collect();
    let results: Vec<(bool, bool, Vec<String>)> = maps
        .par_iter()
        .map(|m| {
            let mut notes = Vec::new();
            let Some(level_path) = find_level(&in_dir, &m.level) else {
                notes.push(format!(
                    "level ({},{}) {}: no such file beside the gmap; left out of the world",
                    m.grid_x, m.grid_y, m.level
                ));
                return (false, false, notes);
            };
            let converted = files::load_model(&level_path).and_then(|model| {
                write_converted(
                    &model,
                    &target,
                    &level_path,
                    &out_dir.join(&m.file_name),
                    force,
                    Some(Some(shared)),
                    &mut notes,
                )
            });
            match converted {
                Ok(_) => (true, false, notes),
                Err(e) => {
                    notes.push(format!(
                        "level ({},{}) {}: {}",
                        m.grid_x,
                        m.grid_y,
                        m.level,
                        files::error_text(&level_path, &e)
                    ));
                    (false, true, notes)
                }
            }
        })
        .collect();
    let mut done: BTreeMap<String, bool> = BTreeMap::new();
    let mut failed = false;
    for (m, (ok, bad, level_notes)) in maps.iter().zip(results) {
        done.insert(m.file_name.clone(), ok);
        failed |= bad;
        notes.extend(level_notes);
    }
    let json = world.to_json(&mut |m| done.get(&m.file_name).copied().unwrap_or(false))?;
    files::write_output(output, &json, force)?;
    Ok(if failed { EXIT_FAILED } else { EXIT_OK })
}

/// `convert world.world world.gmap`: the gmap, and each map of the world back in its level's
/// format under the level's name beside it.
pub fn world_to_gmap(
    input: &Path,
    output: &Path,
    force: bool,
    notes: &mut Vec<String>,
) -> anyhow::Result<u8> {
    let bytes = files::read_input(input)?;
    let (world, warnings) =
        World::from_json(&bytes).map_err(|e| anyhow::anyhow!(e).context(display_name(input)))?;
    notes.extend(warnings.iter().map(ToString::to_string));
    let gmap_bytes = world.gmap.write()?;
    let (in_dir, out_dir) = (folder(input), folder(output));
    let mut done = BTreeSet::new();
    let mut failed = false;
    for m in &world.maps {
        if !done.insert(m.level.clone()) {
            continue;
        }
        if !world::is_plain_file_name(&m.level) {
            notes.push(format!(
                "level ({},{}) {:?} is not a plain file name; not written",
                m.grid_x, m.grid_y, m.level
            ));
            continue;
        }
        let map_path = in_dir.join(&m.file_name);
        if !map_path.is_file() {
            notes.push(format!(
                "level ({},{}) {}: its map {} is not beside the world; not written",
                m.grid_x, m.grid_y, m.level, m.file_name
            ));
            continue;
        }
        let result = files::load_model(&map_path).and_then(|model| {
            let format = Format::from_path_name(&m.level)
                .filter(|f| matches!(f, Format::Nw | Format::GraalLevel))
                .or(match &model {
                    Model::Tiled(doc) => doc.level_format(),
                    _ => None,
                })
                .unwrap_or(Format::Nw);
            let level = convert(&model, &Target::new(format, None)?, notes)?;
            files::write_output(&out_dir.join(&m.level), &level, force)
        });
        if let Err(e) = result {
            notes.push(format!(
                "level ({},{}) {}: {}",
                m.grid_x,
                m.grid_y,
                m.level,
                files::error_text(&map_path, &e)
            ));
            failed = true;
        }
    }
    files::write_output(output, &gmap_bytes, force)?;
    Ok(if failed { EXIT_FAILED } else { EXIT_OK })
}

/// `render world.gmap world.png`: every level beside the gmap drawn at its place, the whole
/// scaled to fit `max_size` pixels, with `tiles` as the tile graphics where given.
pub fn render(
    gmap: &Gmap,
    input: &Path,
    tiles: Option<&Path>,
    max_size: u32,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<u8>> {
    let dir = folder(input);
    // The tile graphics, made once for the first level's tilesets and reused while the next
    // level has the same tilesets (every Graal level has one, the same).
    let mut atlases: Option<(Vec<String>, BTreeMap<String, Image>)> = None;
    let mut level_error = None;
    let (image, warnings) = world::render_gmap(gmap, max_size, &mut |cell, divisor| {
        let path = find_level(&dir, &cell.name.to_latin1())?;
        let rendered = (|| -> anyhow::Result<Image> {
            let model = files::load_model(&path)?;
            let Some((map, _)) = model.to_tilemap() else {
                anyhow::bail!("not a level");
            };
            let names: Vec<String> = map.tilesets.iter().map(|t| t.name.clone()).collect();
            let images = match &atlases {
                Some((n, images)) if *n == names => images.clone(),
                _ => {
                    let (list, user) = crate::tiles::atlases(&map, tiles)?;
                    let images: BTreeMap<String, Image> = if user {
                        names.iter().cloned().zip(list).collect()
                    } else {
                        BTreeMap::new()
                    };
                    atlases = Some((names, images.clone()));
                    images
                }
            };
            let options = png::RenderOptions {
                scale: png::Scale::Divisor(
                    std::num::NonZeroU32::new(divisor).unwrap_or(std::num::NonZeroU32::MIN),
                ),
                tileset_images: images,
                objects: false,
                labels: false,
                ..png::RenderOptions::default()
            };
            Ok(png::render(&map, &options)?)
        })();
        Some(rendered.map_err(|e| {
            let text = format!("{e:#}");
            level_error.get_or_insert_with(|| text.clone());
            levelkit::Error::new(
                Format::Gmap,
                levelkit::ErrorKind::Malformed,
                levelkit::Location::default(),
                text,
            )
        }))
    })?;
    notes.extend(warnings.iter().map(ToString::to_string));
    Ok(png::encode_png(&image)?)
}
