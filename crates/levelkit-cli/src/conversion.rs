//! The conversion that single-file and batch `convert` (and `render`) share: a model to the
//! target's bytes and side files, with what the conversion noticed collected as notes.

use std::path::{Path, PathBuf};

use levelkit::Format;
use levelkit::document::{Model, convert};
use levelkit::formats::graal::binary::Version as GraalVersion;
use levelkit::registry::Common;

use crate::files::{self, is_stdio};
use crate::usage;

/// What to write: the format and the options that apply to it.
#[derive(Debug, Clone)]
pub struct Target {
    /// The output format (one levelkit can write).
    pub format: Format,
    /// WWD only: the compression override.
    pub compress: Option<bool>,
    /// Tiled maps and previews: the user's tile graphics (`--tiles`).
    pub tiles: Option<PathBuf>,
    /// Images without a palette of their own, and PNGs made into PIDs: `--palette`.
    pub palette: Option<PathBuf>,
    /// WWD levels: the game's REZ archive or a folder extracted from it (`--game`).
    pub game: Option<PathBuf>,
    /// Binary Graal levels only: the version to write (`--graal-version`).
    pub graal_version: Option<GraalVersion>,
}

impl Target {
    /// Check that the options make sense for the format.
    pub fn new(format: Format, compress: Option<bool>) -> anyhow::Result<Target> {
        if compress.is_some() && format != Format::Wwd {
            return Err(usage(format!(
                "--compress and --no-compress apply to wwd output, not {}",
                format.name()
            )));
        }
        Ok(Target {
            format,
            compress,
            tiles: None,
            palette: None,
            game: None,
            graal_version: None,
        })
    }

    /// The same target drawing tiles from `tiles` (`--tiles`).
    pub fn with_tiles(mut self, tiles: Option<PathBuf>) -> Target {
        self.tiles = tiles;
        self
    }

    /// The same target drawing WWD levels with the graphics of `game` (`--game`).
    pub fn with_game(mut self, game: Option<PathBuf>) -> Target {
        self.game = game;
        self
    }

    /// The same target writing binary Graal levels of `version` (`--graal-version`); other
    /// formats ignore it.
    pub fn with_graal_version(mut self, version: Option<GraalVersion>) -> Target {
        if self.format == Format::GraalLevel {
            self.graal_version = version;
        }
        self
    }

    /// The same target with the palette file `palette` (`--palette`).
    pub fn with_palette(mut self, palette: Option<PathBuf>) -> Target {
        self.palette = palette;
        self
    }
}

pub use levelkit::document::convert::Converted;

/// `model` in the target format; `output_stem` names side files (`None` when writing to stdout,
/// where a Tiled map is written without tileset images). The bytes come from the library's
/// [`levelkit::document::convert`] steps (the browser viewer's too); this function finds the
/// graphics and side files on disk.
pub fn convert_with_side_files(
    model: &Model,
    target: &Target,
    input: &Path,
    output_stem: Option<&str>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Converted> {
    if let Some(png) = crate::images::to_png(model, target.format, target.palette.as_deref())? {
        return Ok(Converted {
            main: png,
            side: Vec::new(),
        });
    }
    let info = target.format.info();
    if info.exchange && info.common == Some(Common::Scene) {
        return convert_scene(model, target, input, output_stem, notes);
    }
    if !(info.exchange && info.common == Some(Common::TileMap)) {
        return Ok(Converted {
            main: convert(model, target, notes)?,
            side: Vec::new(),
        });
    }
    let Some((map, warnings)) = model.to_tilemap() else {
        return Err(usage(format!(
            "a {} file is not a tile map; it cannot become {}",
            model.format().name(),
            target.format.name()
        )));
    };
    for w in &warnings {
        notes.push(w.to_string());
    }
    let (atlases, user_tiles) = match (model, target.tiles.as_deref()) {
        // A Tiled map draws with the images it references (relative to its folder).
        (Model::Tiled(doc), None) => {
            let dir = if is_stdio(input) {
                Path::new(".")
            } else {
                input.parent().unwrap_or_else(|| Path::new("."))
            };
            let mut found = crate::tiles::referenced(&doc.options.tileset_images, dir);
            let any = !found.is_empty();
            let mut atlases = Vec::with_capacity(map.tilesets.len());
            for (i, ts) in map.tilesets.iter().enumerate() {
                atlases.push(match found.remove(&i) {
                    Some(image) => image,
                    None => levelkit::export::png::tileset_image(ts)?,
                });
            }
            (atlases, any)
        }
        (_, tiles) => crate::tiles::atlases(&map, tiles)?,
    };
    let mut art = convert::MapArt {
        atlases,
        user_tiles,
        sprites: Vec::new(),
    };
    if let Some(game) = target.game.as_deref()
        && let Some(mut game_art) = crate::game::art(model, &map, game, notes)?
    {
        convert::use_tileset_images(&map, &mut art, &mut game_art.tileset_images);
        art.sprites = game_art.sprites;
    }
    Ok(convert::map_files(&map, target.format, art, output_stem)?)
}

/// A 3D model as glTF, GLB or OBJ, its textures found beside the input. A `.gltf` file gets its
/// buffer and textures as side files (`<stem>.bin`, `<stem>_<i>.png`), an OBJ its `<stem>.mtl`
/// and textures; written to stdout, a `.gltf` embeds everything and an OBJ goes without its MTL.
fn convert_scene(
    model: &Model,
    target: &Target,
    input: &Path,
    output_stem: Option<&str>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Converted> {
    let Some((mut scene, warnings)) = model.to_scene() else {
        return Err(usage(format!(
            "a {} file is not a 3D model; it cannot become {}",
            model.format().name(),
            target.format.name()
        )));
    };
    for w in &warnings {
        notes.push(w.to_string());
    }
    if !is_stdio(input) {
        let dir = input.parent().unwrap_or_else(|| Path::new("."));
        let found = levelkit::document::assets::find_textures(
            model,
            &mut scene,
            &mut files::resolver(Some(dir)),
        );
        for w in &found.warnings {
            notes.push(w.to_string());
        }
        if found.from_wads > 0 {
            notes.push(format!(
                "{} of {} materials textured from WADs",
                found.from_wads,
                scene.materials.len()
            ));
        }
    }
    Ok(convert::scene_files(
        &scene,
        target.format,
        output_stem,
        notes,
    )?)
}

/// The bytes of `model` in a legacy format or JSON ([`convert::legacy_bytes`]).
///
/// Any model becomes its JSON document; a model becomes its own format again; Graal levels
/// convert between `.graal` and `.nw`. Other pairs are a usage error, not a fault of the input.
pub fn convert(model: &Model, target: &Target, notes: &mut Vec<String>) -> anyhow::Result<Vec<u8>> {
    let options = convert::LegacyOptions {
        compress: target.compress,
        graal_version: target.graal_version,
    };
    convert::legacy_bytes(model, target.format, &options, notes).map_err(|f| match f {
        convert::Failure::NotConvertible(e) => usage(e.to_string()),
        convert::Failure::Invalid(e) => anyhow::Error::from(e),
    })
}

/// Convert and write `output` and its side files (each to a temporary file, then renamed);
/// returns the bytes written.
pub fn write_converted(
    model: &Model,
    target: &Target,
    input: &Path,
    output: &Path,
    force: bool,
    notes: &mut Vec<String>,
) -> anyhow::Result<u64> {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".to_owned());
    let converted = convert_with_side_files(model, target, input, Some(&stem), notes)?;
    let dir = output.parent().unwrap_or_else(|| Path::new(""));
    let mut written = converted.main.len() as u64;
    for (name, bytes) in &converted.side {
        files::write_output(&dir.join(name), bytes, force)?;
        written += bytes.len() as u64;
    }
    files::write_output(output, &converted.main, force)?;
    Ok(written)
}
