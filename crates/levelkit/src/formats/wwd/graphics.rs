//! A level's graphics as the game finds them: the tiles of each plane, the level palette and each
//! object's sprite, resolved from what the WWD stores against the player's game files (a REZ
//! archive, or a folder extracted from one), through [`Assets`] (the game's files by `/`-separated path, case ignored).
//!
//! The rules, as the games and OpenClaw's `libwap`/`RenderComponent.cpp` apply them:
//!
//! * **Tiles.** A plane's image set `ACTION` lives in the header's tile directory
//!   (`image_dir`, `\LEVEL1\TILES`) as `LEVEL1/TILES/ACTION/`; tile id 12 is the image whose file
//!   name's number is 12 (`012.PID`; the games read every image of the folder and key it by the
//!   digits of its name, so `12.PID` or `ACTION012.PID` count too).
//! * **Palette.** The header's `pal_rez` (`\LEVEL1\PALETTES\MAIN.PAL`). An image with its own
//!   palette (flag 0x80, Gruntz) uses its own.
//! * **Objects.** An image set such as `GAME_TREASURE_COINS` starts with a prefix (`GAME`) that
//!   the header's prefixes map to one of its four image directories (`GAME\IMAGES`); the rest
//!   names sub-folders, one per `_`-separated word (`GAME/IMAGES/TREASURE/COINS/`), a folder
//!   name that itself holds `_` matched too. The frame is the object's `i` where an image of
//!   that number exists, else the image with the lowest number (as OpenClaw takes the first).
//! * **Placement.** An image is centred on the object's (x, y) and moved by its own offset:
//!   left = x − width / 2 + offset x, top = y − height / 2 + offset y (OpenClaw's
//!   `ActorRenderComponent::VGetPositionRect`). Draw flags: `MIRROR` flips it left to right,
//!   `INVERT` top to bottom, `NO_DRAW` hides it.
//! * **Transparency.** Index 0 (the fill index), or the Gruntz pink where the palette has it
//!   ([`Pid::default_transparency`]).
//!
//! Nothing here fails on a missing or unreadable image: it is counted, named in a warning (one
//! per path looked for), and left to the caller's placeholder.

use std::collections::BTreeMap;

use super::model::{DrawFlags, Object, Wwd};
use crate::anim::Sprite;
use crate::assets::Assets;
use crate::error::{Location, Warning};
use crate::formats::pid::png::pid_from_png;
use crate::formats::pid::{Palette, Pid};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Wwd;

/// A `\`-separated path from a level as a `/`-separated one without leading or trailing
/// separators.
pub fn game_path(stored: &str) -> String {
    stored
        .split(['\\', '/'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The images of an image set by number, as paths in `files` (see
/// [`crate::assets::numbered_images`]).
fn numbered_images(files: &dyn Assets, dir: &str) -> Option<BTreeMap<u32, String>> {
    let names = crate::assets::numbered_images(files, dir, &mut Vec::new())?;
    Some(
        names
            .into_iter()
            .map(|(n, name)| (n, join(dir, &name)))
            .collect(),
    )
}

/// One resolved image: its pixels (RGBA), its offset the top-left corner from the point the
/// game places it at (the PID's offset less half its size).
pub type Image = Sprite;

/// An object's sprite as placed in the level.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedSprite {
    /// Plane index.
    pub plane: usize,
    /// Index of the object in its plane.
    pub object: usize,
    /// The image, already mirrored or inverted as the draw flags say.
    pub image: Image,
    /// Left edge in level pixels.
    pub left: i64,
    /// Top edge in level pixels.
    pub top: i64,
    /// The object's z (draw order within its plane).
    pub z: i32,
    /// Where the image came from.
    pub path: String,
}

/// How the level's references resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    /// Distinct tile images the planes use.
    pub tiles_used: usize,
    /// Of those, found.
    pub tiles_found: usize,
    /// Objects drawn with an image (visible ones with an image set).
    pub objects_with_images: usize,
    /// Of those, found.
    pub objects_found: usize,
    /// Distinct object image sets the level names.
    pub image_sets: usize,
    /// Of those, mapped to a folder that exists.
    pub image_sets_found: usize,
    /// Whether the level palette was found (`None` when the level names none).
    pub palette_found: Option<bool>,
    /// Every path or name looked for and not found, with why.
    pub missing: Vec<String>,
}

/// A level's graphics: per plane (by plane index) the tile images by tile id, and the object
/// sprites in drawing order (plane, then z, then file order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graphics {
    /// Per plane, per image set (in the plane's order), the tile images by id.
    pub tiles: Vec<Vec<BTreeMap<u32, Image>>>,
    /// Object sprites.
    pub sprites: Vec<PlacedSprite>,
    /// What was found and what was not.
    pub report: Report,
}

/// An object image set's folder and its images by number.
type SetImages = (String, BTreeMap<u32, String>);

/// Decodes PIDs with the level palette, caching by path.
struct Decoder<'f> {
    files: &'f dyn Assets,
    palette: Option<Palette>,
    cache: BTreeMap<String, Option<Image>>,
    warnings: Vec<Warning>,
}

impl Decoder<'_> {
    fn image(&mut self, path: &str) -> Option<Image> {
        if let Some(hit) = self.cache.get(path) {
            return hit.clone();
        }
        let decoded = self.decode(path);
        self.cache.insert(path.to_string(), decoded.clone());
        decoded
    }

    fn decode(&mut self, path: &str) -> Option<Image> {
        let bytes = self.files.read(path)?;
        let read = if path.to_ascii_uppercase().ends_with(".PNG") {
            // A PNG from `extract --to png`: its text chunk gives the PID's header back.
            pid_from_png(&bytes, None, &Limits::default()).map(|(pid, _)| pid)
        } else {
            Pid::read(&bytes)
        };
        let pid = match read {
            Ok(pid) => pid,
            Err(e) => {
                self.warn(
                    path,
                    format!("{path} is not an image levelkit can read: {e}"),
                );
                return None;
            }
        };
        let Some(palette) = pid.palette_or(self.palette.as_ref()) else {
            self.warn(
                path,
                format!("{path} has no palette of its own and the level names none that exists"),
            );
            return None;
        };
        let rgba = match pid.to_rgba(palette, pid.default_transparency(palette)) {
            Ok(rgba) => rgba,
            Err(e) => {
                self.warn(path, format!("{path}: {e}"));
                return None;
            }
        };
        let (dx, dy) = pid.hotspot();
        Sprite::centred(rgba.width, rgba.height, rgba.rgba, dx, dy)
    }

    fn warn(&mut self, path: &str, message: String) {
        self.warnings.push(Warning::warning(
            F,
            Location::path(path.to_string()),
            message,
        ));
    }
}

/// The folder an object image set names, found by walking from its prefix's image directory
/// (`None`, with why, when it cannot be mapped).
fn image_set_dir(
    wwd: &Wwd,
    files: &dyn Assets,
    image_set: &str,
) -> std::result::Result<String, String> {
    let (prefix, rest) = image_set.split_once('_').unwrap_or((image_set, ""));
    let slot = wwd
        .header
        .prefixes
        .iter()
        .position(|p| {
            let p = p.text.to_editor_text();
            !p.is_empty() && p.eq_ignore_ascii_case(prefix)
        })
        .ok_or_else(|| {
            format!("image set {image_set}: its prefix {prefix} is none of the header's prefixes")
        })?;
    let base = wwd
        .header
        .image_sets
        .get(slot)
        .map(|s| game_path(&s.text.to_editor_text()))
        .unwrap_or_default();
    let mut dir = base;
    let mut rest = rest.to_ascii_uppercase();
    while !rest.is_empty() {
        let Some((subdirs, _)) = files.list(&dir) else {
            return Err(format!("image set {image_set}: no folder {dir}"));
        };
        // The longest sub-folder name that the rest starts with, as a whole word.
        let next = subdirs
            .iter()
            .filter(|d| {
                let d = d.to_ascii_uppercase();
                rest == d || rest.starts_with(&format!("{d}_"))
            })
            .max_by_key(|d| d.len())
            .cloned()
            .ok_or_else(|| format!("image set {image_set}: no folder {dir}/{rest}"))?;
        rest = rest
            .get(next.len()..)
            .unwrap_or("")
            .trim_start_matches('_')
            .to_string();
        dir = join(&dir, &next);
    }
    Ok(dir)
}

/// Resolve every tile and object image of `wwd` in `files` (see the module docs), with a
/// warning for each path looked for and not found.
pub fn resolve(wwd: &Wwd, files: &dyn Assets) -> (Graphics, Vec<Warning>) {
    let mut report = Report::default();
    let mut palette = None;
    let pal_path = game_path(&wwd.header.pal_rez.text.to_editor_text());
    let mut warnings = Vec::new();
    if !pal_path.is_empty() {
        match files.read(&pal_path).map(|b| Palette::read(&b)) {
            Some(Ok(p)) => palette = Some(p),
            Some(Err(e)) => {
                warnings.push(Warning::warning(
                    F,
                    Location::path("header.pal_rez"),
                    format!("{pal_path} is not a palette: {e}"),
                ));
            }
            None => {
                report.missing.push(format!("palette {pal_path}"));
                warnings.push(Warning::warning(
                    F,
                    Location::path("header.pal_rez"),
                    format!("the level palette {pal_path} is not in the game files"),
                ));
            }
        }
        report.palette_found = Some(palette.is_some());
    }
    let mut dec = Decoder {
        files,
        palette,
        cache: BTreeMap::new(),
        warnings: Vec::new(),
    };
    let tile_dir = game_path(&wwd.header.image_dir.text.to_editor_text());

    let mut tiles = Vec::with_capacity(wwd.planes.len());
    for plane in &wwd.planes {
        let mut sets = Vec::with_capacity(plane.image_sets.len());
        for (set_index, set) in plane.image_sets.iter().enumerate() {
            let set = set.to_editor_text();
            let dir = join(&tile_dir, &set);
            // Tile ids this plane uses from this set (cells are set << 16 | id).
            let mut ids: Vec<u32> = plane
                .tiles
                .iter()
                .filter(|&&c| c != u32::MAX && c != 0xEEEE_EEEE && (c >> 16) as usize == set_index)
                .map(|&c| c & 0xFFFF)
                .collect();
            ids.sort_unstable();
            ids.dedup();
            report.tiles_used = report.tiles_used.saturating_add(ids.len());
            let by_number = numbered_images(files, &dir);
            if by_number.is_none() && !ids.is_empty() {
                report.missing.push(format!("tile folder {dir}"));
                dec.warnings.push(Warning::warning(
                    F,
                    Location::path(format!("planes.{}.image_sets", plane.name.text.display())),
                    format!("the tile folder {dir} is not in the game files"),
                ));
            }
            let by_number = by_number.unwrap_or_default();
            let mut images = BTreeMap::new();
            for id in ids {
                match by_number.get(&id) {
                    Some(path) => {
                        if let Some(image) = dec.image(path) {
                            report.tiles_found = report.tiles_found.saturating_add(1);
                            images.insert(id, image);
                        }
                    }
                    None if !by_number.is_empty() => {
                        report.missing.push(format!("tile {dir}/{id:03}.PID"));
                        dec.warnings.push(Warning::warning(
                            F,
                            Location::path(format!("{dir}/{id:03}.PID")),
                            format!("tile {id} of {dir} is not in the game files"),
                        ));
                    }
                    None => {}
                }
            }
            sets.push(images);
        }
        tiles.push(sets);
    }

    let mut dirs: BTreeMap<String, std::result::Result<SetImages, String>> = BTreeMap::new();
    let mut sprites = Vec::new();
    for (pi, plane) in wwd.planes.iter().enumerate() {
        for (oi, object) in plane.objects.iter().enumerate() {
            let set = object.image_set.to_editor_text();
            if set.is_empty() || object.draw_flags.contains(DrawFlags::NO_DRAW) {
                continue;
            }
            report.objects_with_images = report.objects_with_images.saturating_add(1);
            let entry = dirs.entry(set.to_ascii_uppercase()).or_insert_with(|| {
                image_set_dir(wwd, files, &set).and_then(|dir| {
                    let images = numbered_images(files, &dir).unwrap_or_default();
                    if images.is_empty() {
                        Err(format!("image set {set}: no PID images in {dir}"))
                    } else {
                        Ok((dir, images))
                    }
                })
            });
            let Ok((_, images)) = entry else { continue };
            let frame = u32::try_from(object.i)
                .ok()
                .filter(|i| images.contains_key(i));
            let path = frame
                .and_then(|i| images.get(&i))
                .or_else(|| images.values().next())
                .cloned();
            let Some(path) = path else { continue };
            let Some(image) = dec.image(&path) else {
                continue;
            };
            report.objects_found = report.objects_found.saturating_add(1);
            sprites.push(place(pi, oi, object, image, path));
        }
    }
    report.image_sets = dirs.len();
    for result in dirs.values() {
        match result {
            Ok(_) => report.image_sets_found = report.image_sets_found.saturating_add(1),
            Err(why) => {
                report.missing.push(why.clone());
                dec.warnings
                    .push(Warning::warning(F, Location::path("objects"), why.clone()));
            }
        }
    }
    sprites.sort_by_key(|s| (s.plane, s.z, s.object));
    warnings.append(&mut dec.warnings);
    (
        Graphics {
            tiles,
            sprites,
            report,
        },
        warnings,
    )
}

/// An object's image placed as the game places it.
fn place(plane: usize, index: usize, object: &Object, image: Image, path: String) -> PlacedSprite {
    // The sprite's offset is its top-left corner from the anchor: −size/2 + the PID's offset.
    let left = i64::from(object.x).saturating_add(i64::from(image.offset.0));
    let top = i64::from(object.y).saturating_add(i64::from(image.offset.1));
    let mut image = image;
    if object.draw_flags.contains(DrawFlags::MIRROR) {
        image = flip(&image, true);
    }
    if object.draw_flags.contains(DrawFlags::INVERT) {
        image = flip(&image, false);
    }
    PlacedSprite {
        plane,
        object: index,
        image,
        left,
        top,
        z: object.z,
        path,
    }
}

/// The image mirrored left to right (`horizontal`) or top to bottom.
fn flip(image: &Image, horizontal: bool) -> Image {
    let (w, h) = (image.width as usize, image.height as usize);
    let mut out = vec![0u8; image.rgba.len()];
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = if horizontal {
                (w.saturating_sub(1).saturating_sub(x), y)
            } else {
                (x, h.saturating_sub(1).saturating_sub(y))
            };
            let src = sy.saturating_mul(w).saturating_add(sx).saturating_mul(4);
            let dst = y.saturating_mul(w).saturating_add(x).saturating_mul(4);
            if let (Some(s), Some(d)) = (
                image.rgba.get(src..src.saturating_add(4)),
                out.get_mut(dst..dst.saturating_add(4)),
            ) {
                d.copy_from_slice(s);
            }
        }
    }
    Image {
        rgba: out,
        ..image.clone()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn game_paths() {
        assert_eq!(game_path("\\LEVEL1\\TILES\\"), "LEVEL1/TILES");
    }
}
