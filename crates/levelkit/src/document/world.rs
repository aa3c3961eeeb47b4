//! Graal overworlds (`.gmap`) as Tiled worlds (`.world`) and as one picture.
//!
//! A Tiled world is JSON: `{"maps": [{"fileName", "x", "y", "width", "height"}], "type":
//! "world"}`, each map placed in pixels. A gmap becomes one map per level, at its grid position
//! times 1024 pixels (64 tiles of 16), named after the level (`village_a1.nw` →
//! `village_a1.tmx`); the levels themselves become those `.tmx` files through the ordinary
//! level-to-Tiled conversion (the caller writes them: they are files of their own, found and
//! written through the caller's file system). Tiled keeps keys it does not know out of its way,
//! so the world also carries a `"levelkit"` object with the whole gmap model (its lossless JSON)
//! and each map's level name: the way back ([`World::from_json`], whose `gmap` is written back) gives the same `.gmap` bytes and
//! level names. A world that lost that object (saved by Tiled after moving maps) still converts:
//! the grid is rebuilt from the map positions, canonically.
//!
//! [`render_gmap`] draws every level at its place in one image scaled to fit a size, missing
//! levels grey with a warning naming their grid position.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::formats::graal::gmap::{Gmap, LEVEL_PIXELS};
use crate::picture::{Image, Rgba};
use crate::registry::Format;

const F: Format = Format::TiledWorld;

/// One map of a world: a level of the gmap as a Tiled map file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorldMap {
    /// The Tiled map's file name, relative to the world file.
    pub file_name: String,
    /// The level's name in the gmap (its file name beside the gmap).
    pub level: String,
    /// Grid column.
    pub grid_x: u32,
    /// Grid row.
    pub grid_y: u32,
}

impl WorldMap {
    /// Left edge in pixels.
    pub fn x(&self) -> u64 {
        u64::from(self.grid_x) * u64::from(LEVEL_PIXELS)
    }

    /// Top edge in pixels.
    pub fn y(&self) -> u64 {
        u64::from(self.grid_y) * u64::from(LEVEL_PIXELS)
    }
}

/// A Tiled world made from a gmap: its maps, and the gmap it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct World {
    /// The gmap (kept whole in the world file for the exact way back).
    pub gmap: Gmap,
    /// One map per grid cell with a name, row by row.
    pub maps: Vec<WorldMap>,
}

/// The Tiled map name of a level: its name with `.tmx` for its extension, path separators and
/// characters that are not safe in a file name replaced by `_`.
pub fn map_file_name(level: &str) -> String {
    let stem = match level.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => level,
    };
    let safe: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ' ') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_matches(['.', ' ']);
    format!("{}.tmx", if safe.is_empty() { "level" } else { safe })
}

/// Whether a level name is a plain file name (no folder, not `.` or `..`), the only kind the
/// way back writes.
pub fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.contains(':')
}

impl World {
    /// The world of a gmap: one map per named grid cell (a level named twice gets one map file,
    /// placed twice). Names that two different levels would share get a number.
    pub fn from_gmap(gmap: &Gmap) -> World {
        let mut files: BTreeMap<String, String> = BTreeMap::new();
        let mut taken: BTreeMap<String, String> = BTreeMap::new();
        let mut maps = Vec::new();
        for cell in gmap.grid().cells {
            let level = cell.name.to_latin1();
            let file = files.entry(level.clone()).or_insert_with(|| {
                let mut name = map_file_name(&level);
                let mut n = 2;
                while taken.contains_key(&name.to_lowercase()) {
                    name = format!("{}_{n}.tmx", map_file_name(&level).trim_end_matches(".tmx"));
                    n += 1;
                }
                taken.insert(name.to_lowercase(), level.clone());
                name
            });
            maps.push(WorldMap {
                file_name: file.clone(),
                level,
                grid_x: cell.x,
                grid_y: cell.y,
            });
        }
        World {
            gmap: gmap.clone(),
            maps,
        }
    }

    /// The `.world` file, listing the maps `present` accepts (the ones whose level file was
    /// found and converted; Tiled complains about a world map that does not exist).
    pub fn to_json(&self, present: &mut dyn FnMut(&WorldMap) -> bool) -> Result<Vec<u8>> {
        let maps: Vec<Value> = self
            .maps
            .iter()
            .filter(|m| present(m))
            .map(|m| {
                serde_json::json!({
                    "fileName": m.file_name,
                    "height": LEVEL_PIXELS,
                    "width": LEVEL_PIXELS,
                    "x": m.x(),
                    "y": m.y(),
                })
            })
            .collect();
        let levels: Vec<Value> = self
            .maps
            .iter()
            .map(|m| {
                serde_json::json!({
                    "fileName": m.file_name,
                    "level": m.level,
                    "gridX": m.grid_x,
                    "gridY": m.grid_y,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "maps": maps,
            "onlyShowAdjacentMaps": false,
            "type": "world",
            "levelkit": {
                "gmap": self.gmap,
                "levels": levels,
            },
        });
        let mut bytes = serde_json::to_vec_pretty(&doc).map_err(|e| malformed(e.to_string()))?;
        bytes.push(b'\n');
        Ok(bytes)
    }

    /// Read a `.world` file: with levelkit's object, the gmap and level names it kept; without
    /// it, a gmap rebuilt from the maps' positions (each map at a multiple of 1024 pixels; its
    /// level named after the map, `.nw`), with a warning for maps off the grid.
    pub fn from_json(bytes: &[u8]) -> Result<(World, Vec<Warning>)> {
        let doc: Value =
            serde_json::from_slice(bytes).map_err(|e| malformed(format!("not JSON: {e}")))?;
        if doc.get("type").and_then(Value::as_str) != Some("world") {
            return Err(malformed("no \"type\": \"world\"".into()));
        }
        if let Some(kept) = doc.get("levelkit") {
            let gmap: Gmap = serde_json::from_value(kept.get("gmap").cloned().unwrap_or_default())
                .map_err(|e| malformed(format!("levelkit.gmap is not a gmap model: {e}")))?;
            let maps: Vec<KeptLevel> = serde_json::from_value(
                kept.get("levels").cloned().unwrap_or_default(),
            )
            .map_err(|e| malformed(format!("levelkit.levels is not a list of levels: {e}")))?;
            let maps = maps
                .into_iter()
                .map(|k| WorldMap {
                    file_name: k.file_name,
                    level: k.level,
                    grid_x: k.grid_x,
                    grid_y: k.grid_y,
                })
                .collect();
            return Ok((World { gmap, maps }, Vec::new()));
        }
        Self::from_positions(&doc)
    }

    /// A world without levelkit's object: the grid from the map positions.
    fn from_positions(doc: &Value) -> Result<(World, Vec<Warning>)> {
        let mut warnings = Vec::new();
        let mut maps = Vec::new();
        let list = doc
            .get("maps")
            .and_then(Value::as_array)
            .ok_or_else(|| malformed("no \"maps\" list".into()))?;
        let size = i64::from(LEVEL_PIXELS);
        for (i, m) in list.iter().enumerate() {
            let file = m
                .get("fileName")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let x = m.get("x").and_then(Value::as_i64).unwrap_or(-1);
            let y = m.get("y").and_then(Value::as_i64).unwrap_or(-1);
            let (Ok(gx), Ok(gy)) = (u32::try_from(x / size), u32::try_from(y / size)) else {
                warnings.push(skip(i, file, "is left of or above the origin"));
                continue;
            };
            if file.is_empty() || x % size != 0 || y % size != 0 || gx >= MAX_GRID || gy >= MAX_GRID
            {
                warnings.push(skip(i, file, "is not at a 1024-pixel grid position"));
                continue;
            }
            let stem = file.rsplit(['/', '\\']).next().unwrap_or(file);
            let stem = stem
                .strip_suffix(".tmx")
                .or_else(|| stem.strip_suffix(".tmj"))
                .unwrap_or(stem);
            maps.push(WorldMap {
                file_name: file.to_owned(),
                level: format!("{stem}.nw"),
                grid_x: gx,
                grid_y: gy,
            });
        }
        let width = maps.iter().map(|m| m.grid_x + 1).max().unwrap_or(0);
        let height = maps.iter().map(|m| m.grid_y + 1).max().unwrap_or(0);
        let mut rows: Vec<Vec<&str>> = vec![vec![""; width as usize]; height as usize];
        for m in &maps {
            if let Some(cell) = rows
                .get_mut(m.grid_y as usize)
                .and_then(|r| r.get_mut(m.grid_x as usize))
            {
                *cell = &m.level;
            }
        }
        let gmap = Gmap::new(width, height, &rows);
        Ok((World { gmap, maps }, warnings))
    }
}

/// The largest grid a world without levelkit's object is rebuilt into, per side (real
/// overworlds are a few dozen levels wide).
pub const MAX_GRID: u32 = 256;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct KeptLevel {
    file_name: String,
    level: String,
    grid_x: u32,
    grid_y: u32,
}

fn skip(i: usize, file: &str, why: &str) -> Warning {
    Warning::warning(
        F,
        Location::path(format!("maps[{i}]")),
        format!("map {file:?} {why}; it has no place in a gmap and is left out"),
    )
}

fn malformed(message: String) -> Error {
    Error::new(F, ErrorKind::Malformed, Location::default(), message)
}

/// The colour of a level whose file is missing.
pub const MISSING: Rgba = [96, 96, 96, 255];

/// The divisor and cell size (pixels per level side) of a `columns` × `rows` world drawn to fit
/// `max_size` pixels on its longer side; `None` when even one pixel per level would not fit.
pub fn fit(columns: u32, rows: u32, max_size: u32) -> Option<(u32, u32)> {
    let longest = columns.max(rows).max(1);
    if longest > max_size {
        return None;
    }
    let mut divisor = (u64::from(longest) * u64::from(LEVEL_PIXELS))
        .div_ceil(u64::from(max_size.max(1)))
        .max(1);
    loop {
        let cell = u64::from(LEVEL_PIXELS).div_ceil(divisor);
        if cell * u64::from(longest) <= u64::from(max_size) || cell <= 1 {
            return Some((u32::try_from(divisor).ok()?, u32::try_from(cell).ok()?));
        }
        divisor += 1;
    }
}

/// Draw the whole overworld in one image at most `max_size` pixels on its longer side.
///
/// `level` renders one level (given its grid cell) downsampled by the divisor given (the
/// levels' own renderer, `picture::render` with `Scale::Divisor`); it answers `None` when
/// the level's file is missing, which is drawn grey with a warning naming the grid position,
/// and an error for a level that does not read, which is drawn grey with the error as a
/// warning. The grid is `WIDTH` × `HEIGHT`, grown to hold every name.
pub fn render_gmap(
    gmap: &Gmap,
    max_size: u32,
    level: &mut dyn FnMut(&crate::formats::graal::gmap::GridCell, u32) -> Option<Result<Image>>,
) -> Result<(Image, Vec<Warning>)> {
    let grid = gmap.grid();
    let (ew, eh) = grid.extent();
    let columns = grid.width.unwrap_or(0).max(ew).max(1);
    let rows = grid.height.unwrap_or(0).max(eh).max(1);
    let Some((divisor, cell)) = fit(columns, rows, max_size) else {
        return Err(Error::new(
            Format::Gmap,
            ErrorKind::LimitExceeded,
            Location::default(),
            format!(
                "a {columns} x {rows} grid does not fit in {max_size} pixels at one pixel \
                 per level; raise the maximum size"
            ),
        ));
    };
    let width = columns.saturating_mul(cell);
    let height = rows.saturating_mul(cell);
    let len = (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(4))
        .ok_or_else(|| malformed("the image is too large".into()))?;
    let mut image = Image {
        width,
        height,
        rgba: vec![0; len],
        columns: 0,
    };
    let mut warnings = Vec::new();
    for c in &grid.cells {
        let (left, top) = (c.x.saturating_mul(cell), c.y.saturating_mul(cell));
        if c.x >= columns || c.y >= rows {
            continue;
        }
        let where_ = Location::path(format!("levels[{},{}]", c.x, c.y));
        match level(c, divisor) {
            Some(Ok(picture)) => blit(&mut image, &picture, left, top, cell),
            Some(Err(e)) => {
                fill(&mut image, left, top, cell, MISSING);
                warnings.push(Warning::warning(
                    Format::Gmap,
                    where_,
                    format!(
                        "level ({},{}) {} does not render: {e}",
                        c.x,
                        c.y,
                        c.name.display()
                    ),
                ));
            }
            None => {
                fill(&mut image, left, top, cell, MISSING);
                warnings.push(Warning::warning(
                    Format::Gmap,
                    where_,
                    format!(
                        "level ({},{}) {}: no such file beside the gmap; drawn grey",
                        c.x,
                        c.y,
                        c.name.display()
                    ),
                ));
            }
        }
    }
    Ok((image, warnings))
}

/// [`render_gmap`] with the levels read through `resolve` (by their names in the gmap) and
/// drawn with generated tiles, without object markers or tile labels.
pub fn render_gmap_with(
    gmap: &Gmap,
    max_size: u32,
    limits: &crate::limits::Limits,
    resolve: crate::codec::Resolver<'_>,
) -> Result<(Image, Vec<Warning>)> {
    render_gmap(gmap, max_size, &mut |cell, divisor| {
        let name = cell.name.to_latin1();
        let bytes = resolve(&name)?;
        Some(render_level(
            &bytes,
            &name,
            divisor,
            limits,
            &Default::default(),
        ))
    })
}

/// One level file drawn at `1/divisor` of its size, without object markers or tile labels,
/// with `tileset_images` for its tilesets where given.
pub fn render_level(
    bytes: &[u8],
    name: &str,
    divisor: u32,
    limits: &crate::limits::Limits,
    tileset_images: &BTreeMap<String, Image>,
) -> Result<Image> {
    use crate::picture::{RenderOptions, Scale, render};
    let model = super::Model::read(bytes, Some(name), limits)?;
    let Some((map, _)) = model.to_tilemap() else {
        return Err(Error::unsupported(
            model.format(),
            Location::default(),
            format!("{name} is a {} file, not a level", model.format().name()),
        ));
    };
    let options = RenderOptions {
        scale: Scale::Divisor(
            std::num::NonZeroU32::new(divisor).unwrap_or(std::num::NonZeroU32::MIN),
        ),
        tileset_images: tileset_images.clone(),
        objects: false,
        labels: false,
        ..RenderOptions::default()
    };
    render(&map, &options)
}

/// Copy the top-left `cell` × `cell` pixels of `src` to `dst` at (`left`, `top`).
fn blit(dst: &mut Image, src: &Image, left: u32, top: u32, cell: u32) {
    let w = cell.min(src.width).min(dst.width.saturating_sub(left)) as usize;
    let h = cell.min(src.height).min(dst.height.saturating_sub(top));
    for y in 0..h {
        let s = (y as usize * src.width as usize) * 4;
        let d = ((top + y) as usize * dst.width as usize + left as usize) * 4;
        if let (Some(from), Some(to)) = (src.rgba.get(s..s + w * 4), dst.rgba.get_mut(d..d + w * 4))
        {
            to.copy_from_slice(from);
        }
    }
}

/// Fill a `cell` × `cell` square with `colour`.
fn fill(dst: &mut Image, left: u32, top: u32, cell: u32, colour: Rgba) {
    let w = cell.min(dst.width.saturating_sub(left)) as usize;
    let h = cell.min(dst.height.saturating_sub(top));
    for y in 0..h {
        let d = ((top + y) as usize * dst.width as usize + left as usize) * 4;
        if let Some(row) = dst.rgba.get_mut(d..d + w * 4) {
            for px in row.chunks_exact_mut(4) {
                px.copy_from_slice(&colour);
            }
        }
    }
}
