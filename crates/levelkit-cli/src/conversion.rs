//! The conversion that single-file and batch `convert` (and `render`) share: a model to the
//! target's bytes and side files, with what the conversion noticed collected as notes.

use std::path::{Path, PathBuf};

use levelkit::Format;
use levelkit::document::{Model, convert};
use levelkit::formats::graal::binary::Version as GraalVersion;
use levelkit::registry::Common;
use levelkit::{picture as png, tiled};

use crate::files::{self, is_stdio};
use crate::tilesets::{Atlas, Shared};
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
    /// Graal levels: where NPC images are (`--images`); `None`, the input's folder and its
    /// parent.
    pub images: Option<PathBuf>,
    /// 3D output: a folder searched after the input's for side files, the models a level names
    /// and texture files (`--assets`).
    pub assets: Option<PathBuf>,
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
            images: None,
            assets: None,
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

    /// The same target finding Graal NPC images in `images` (`--images`).
    pub fn with_images(mut self, images: Option<PathBuf>) -> Target {
        self.images = images;
        self
    }

    /// The same target looking for side files in `assets` after the input's folder
    /// (`--assets`).
    pub fn with_assets(mut self, assets: Option<PathBuf>) -> Target {
        self.assets = assets;
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
/// where a Tiled map is written without tileset images). With `shared` (a batch writing to
/// `output`), a Tiled map references the batch's shared tileset files instead of embedding its
/// tilesets and getting images of its own. Otherwise the bytes come from the library's
/// [`levelkit::document::convert`] steps (the browser viewer's too); this function finds the
/// graphics and side files on disk.
pub fn convert_with_side_files(
    model: &Model,
    target: &Target,
    input: &Path,
    output_stem: Option<&str>,
    shared: Option<(&Shared, &Path)>,
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
    let shared = shared.filter(|_| target.format != Format::Png && output_stem.is_some());
    // Shared tilesets make their images on first use only: every map of a batch but the first
    // skips generating (or loading) and encoding them.
    let lazy = shared.is_some();
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
                    Some(image) => Some(image),
                    None if lazy => None,
                    None => Some(png::tileset_image(ts)?),
                });
            }
            (atlases, any)
        }
        (_, _) if lazy => (vec![None; map.tilesets.len()], false),
        (_, tiles) => {
            let (atlases, any) = crate::tiles::atlases(&map, tiles)?;
            (atlases.into_iter().map(Some).collect(), any)
        }
    };
    let (mut atlases, mut user_tiles) = (atlases, user_tiles);
    let mut sprites = Vec::new();
    if let Some(game) = target.game.as_deref()
        && let Some(mut art) = crate::game::art(model, &map, game, notes)?
    {
        for (ts, atlas) in map.tilesets.iter().zip(atlases.iter_mut()) {
            if let Some(real) = art.tileset_images.remove(&ts.name) {
                *atlas = Some(real);
                user_tiles = true;
            }
        }
        sprites = art.sprites;
    }
    if matches!(model, Model::Graal(_) | Model::Nw(_)) {
        let (npcs, warnings) = crate::game::npc_art(&map, target.images.as_deref(), input);
        notes.extend(warnings.iter().map(|w| w.to_string()));
        sprites.extend(npcs);
    }
    if let Some((shared, output)) = shared {
        let mut options = tiled::TiledOptions::default();
        let atlases = atlases
            .into_iter()
            .map(|a| a.map_or(Atlas::Later, Atlas::Ready))
            .collect();
        shared.attach(&map, atlases, target.format, output, &mut options)?;
        let main = if target.format == Format::Tmx {
            tiled::to_tmx(&map, &options)?
        } else {
            tiled::to_tmj(&map, &options)?
        };
        return Ok(Converted {
            main,
            side: Vec::new(),
        });
    }
    let atlases = atlases
        .into_iter()
        .zip(&map.tilesets)
        .map(|(atlas, ts)| atlas.map_or_else(|| png::tileset_image(ts), Ok))
        .collect::<levelkit::Result<Vec<_>>>()?;
    let art = convert::MapArt {
        atlases,
        user_tiles,
        // With real graphics, a marker means "no image": a legend says which objects those are.
        legend: target.game.is_some() || !sprites.is_empty(),
        sprites,
    };
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
    if !is_stdio(input) || target.assets.is_some() {
        let dir = (!is_stdio(input)).then(|| input.parent().unwrap_or_else(|| Path::new(".")));
        let mut beside = files::resolver(dir);
        let mut assets = files::resolver(target.assets.as_deref());
        let found =
            levelkit::document::assets::find_textures(model, &mut scene, &mut |name: &str| {
                beside(name).or_else(|| assets(name))
            });
        for w in &found.warnings {
            notes.push(w.to_string());
        }
        if found.models.1 > 0 {
            notes.push(format!(
                "{} of {} model entities placed",
                found.models.0, found.models.1
            ));
        }
        if found.from_files > 0 {
            notes.push(match model {
                // A world's materials include plain colours: count its texture files.
                Model::Wdb(_) => format!(
                    "{} of {} texture files read from the world's folder",
                    found.from_files,
                    scene.textures.len()
                ),
                _ => format!(
                    "{} of {} materials textured from image files",
                    found.from_files,
                    scene.materials.len()
                ),
            });
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
/// returns the bytes written (not counting `shared` tileset files). A single conversion
/// (`batch` `None`) flushes each file to the disk before renaming it; a batch does not (see
/// [`files::write_output_with`]) and shares its tilesets.
pub fn write_converted(
    model: &Model,
    target: &Target,
    input: &Path,
    output: &Path,
    force: bool,
    batch: Option<Option<&Shared>>,
    notes: &mut Vec<String>,
) -> anyhow::Result<u64> {
    let sync = batch.is_none();
    let shared = batch.flatten();
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".to_owned());
    let shared = shared.map(|s| (s, output));
    let converted = convert_with_side_files(model, target, input, Some(&stem), shared, notes)?;
    let dir = output.parent().unwrap_or_else(|| Path::new(""));
    let mut written = converted.main.len() as u64;
    for (name, bytes) in &converted.side {
        let path = dir.join(name);
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| anyhow::anyhow!("{}: {e}", parent.display()))?;
        }
        files::write_output_with(&path, bytes, force, sync)?;
        written += bytes.len() as u64;
    }
    files::write_output_with(output, &converted.main, force, sync)?;
    Ok(written)
}
