//! The byte-producing steps of a conversion, shared by `levelkit convert` and the browser viewer
//! (`crates/levelkit-wasm`) so that both write the same bytes: a model in a legacy format or
//! JSON ([`legacy_bytes`]), a tile map as Tiled or a PNG preview ([`map_files`]), a scene as
//! glTF, GLB or OBJ ([`scene_files`]). Finding the graphics and side files (on disk, or among the
//! files dropped on a page) is the caller's part; nothing here reads a file.

use std::collections::BTreeMap;

use super::Model;
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::formats::graal::binary::{self as graal, Version as GraalVersion};
use crate::formats::wwd::WriteOptions;
use crate::picture::{self as png, Image, PlacedImage};
use crate::registry::Format;
use crate::scene::Scene;
use crate::tilemap::TileMap;
use crate::{gltf, obj, tiled};

/// What a conversion produces: the output's bytes and the files that go beside it (file name,
/// bytes): a Tiled map's tileset images, a `.gltf`'s buffer and textures, an OBJ's MTL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Converted {
    /// The output file's bytes.
    pub main: Vec<u8>,
    /// Files that go in the output's folder.
    pub side: Vec<(String, Vec<u8>)>,
}

/// Why a conversion failed: the pair is not one levelkit converts (the caller asked for the
/// impossible), or the input cannot become the target (the input's fault).
#[derive(Debug)]
pub enum Failure {
    /// The model's format does not convert to the target (a usage error on the command line).
    NotConvertible(Error),
    /// The conversion was attempted and failed.
    Invalid(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Invalid(e)
    }
}

impl Failure {
    /// The error inside.
    pub fn into_error(self) -> Error {
        match self {
            Failure::NotConvertible(e) | Failure::Invalid(e) => e,
        }
    }
}

/// Options of a legacy (or JSON) target.
#[derive(Debug, Clone, Copy, Default)]
pub struct LegacyOptions {
    /// WWD only: compress the main block (`Some(true)`), store it (`Some(false)`), or follow the
    /// level's own flag (`None`).
    pub compress: Option<bool>,
    /// Binary Graal levels only: the version to write (`None`: the level's own).
    pub graal_version: Option<GraalVersion>,
}

/// The lossless JSON document, ending in a newline (what `dump --json` prints and
/// `convert … OUT.json` writes).
pub fn json_document(model: &Model) -> Result<Vec<u8>> {
    let mut bytes = model.to_json()?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// The bytes of `model` in a legacy format or JSON, with a note for everything the target
/// cannot hold.
///
/// Any model becomes its JSON document; a model becomes its own format again; the pairs of
/// [`Model::convert_to`] convert. Other pairs are [`Failure::NotConvertible`].
pub fn legacy_bytes(
    model: &Model,
    format: Format,
    options: &LegacyOptions,
    notes: &mut Vec<String>,
) -> std::result::Result<Vec<u8>, Failure> {
    let wwd_options = WriteOptions {
        compress: options.compress,
        relayout: false,
    };
    match (model, format) {
        (model, Format::Json) => Ok(json_document(model)?),
        (Model::Wwd(w), Format::Wwd) => Ok(w.write_with(&wwd_options)?),
        (Model::Graal(g), Format::GraalLevel) => Ok(graal_as(g, options, notes)?),
        (model, format) if format == model.format() => Ok(model.write()?),
        (model, format) => {
            // A pair levelkit does not convert is the caller's mistake; a map that cannot become
            // a valid level is invalid input.
            let (converted, warnings) = model.convert_to(format).map_err(|e| {
                if e.kind == ErrorKind::Unsupported {
                    Failure::NotConvertible(e)
                } else {
                    Failure::Invalid(e)
                }
            })?;
            notes.extend(warnings.iter().map(Warning::to_string));
            match converted {
                Model::Wwd(w) => Ok(w.write_with(&wwd_options)?),
                Model::Graal(g) => Ok(graal_as(&g, options, notes)?),
                other => Ok(other.write()?),
            }
        }
    }
}

/// A binary Graal level's bytes in the options' version (its own when none).
fn graal_as(g: &graal::Graal, options: &LegacyOptions, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    match options.graal_version {
        Some(version) if version != g.version => {
            let (g, warnings) = graal::with_version(g, version);
            notes.extend(warnings.iter().map(Warning::to_string));
            g.write()
        }
        _ => g.write(),
    }
}

/// The pictures a tile map is drawn with.
#[derive(Debug, Clone, Default)]
pub struct MapArt {
    /// One atlas per tileset of the map, in tileset order ([`generated_atlases`] where the
    /// caller has no graphics).
    pub atlases: Vec<Image>,
    /// Whether any atlas is the user's (or the game's) rather than generated: a PNG preview
    /// draws generated tiles in its own way when none is.
    pub user_tiles: bool,
    /// Object images by object id, in drawing order (a WWD level's `--game` sprites, Graal
    /// NPC pictures): drawn in a PNG preview, and tile objects of an image-collection tileset in
    /// a Tiled map ([`super::game::attach_sprites`]).
    pub sprites: Vec<(u32, PlacedImage)>,
    /// PNG previews: colour markers by class and draw their legend
    /// ([`png::RenderOptions::legend`]).
    pub legend: bool,
}

/// The generated atlas of every tileset of `map`, in tileset order.
pub fn generated_atlases(map: &TileMap) -> Result<Vec<Image>> {
    map.tilesets.iter().map(png::tileset_image).collect()
}

/// Replace the atlases of `art` with the game's tileset images where `real` (by tileset name,
/// as [`super::game::LevelArt::tileset_images`] holds them) has one.
pub fn use_tileset_images(map: &TileMap, art: &mut MapArt, real: &mut BTreeMap<String, Image>) {
    for (ts, atlas) in map.tilesets.iter().zip(art.atlases.iter_mut()) {
        if let Some(image) = real.remove(&ts.name) {
            *atlas = image;
            art.user_tiles = true;
        }
    }
}

/// A tile map as a PNG preview (`format` PNG) or a Tiled map (TMX or TMJ) whose tileset images
/// are side files `<stem>.tileset<i>.png`; with no `stem` (writing to stdout) the map is written
/// without tileset images.
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
        return Ok(Converted {
            main: png::encode_png(&image)?,
            side: Vec::new(),
        });
    }
    let mut options = tiled::TiledOptions::default();
    let mut side = Vec::new();
    if let Some(stem) = stem {
        for (index, image) in art.atlases.iter().enumerate() {
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
    // Object images: a collection-of-images tileset, one PNG a distinct image.
    let mut with_sprites = None;
    if let Some(stem) = stem
        && !art.sprites.is_empty()
    {
        let mut m = map.clone();
        if let Some((index, images)) = super::game::attach_sprites(&mut m, "sprites", &art.sprites)
        {
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
            with_sprites = Some(m);
        }
    }
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
    Ok(Converted { main, side })
}

/// A 3D model as glTF, GLB or OBJ, with a note per warning of the exporter. With a `stem`, a
/// `.gltf` gets its buffer and textures as side files (`<stem>.bin`, `<stem>_<i>.png`) and an
/// OBJ its `<stem>.mtl` and textures; without one (stdout), a `.gltf` embeds everything and an
/// OBJ goes without its MTL.
pub fn scene_files(
    scene: &Scene,
    format: Format,
    stem: Option<&str>,
    notes: &mut Vec<String>,
) -> Result<Converted> {
    let name = stem.unwrap_or("model").to_owned();
    let files = match format {
        Format::Obj => obj::write(
            scene,
            &obj::ObjOptions {
                triangulate: false,
                stem: name,
            },
        )?,
        Format::Gltf | Format::Glb => gltf::write(
            scene,
            &gltf::GltfOptions {
                binary: format == Format::Glb,
                embed: stem.is_none(),
                stem: name,
            },
        )?,
        other => {
            return Err(Error::unsupported(
                other,
                Location::default(),
                format!("a 3D model becomes gltf, glb or obj, not {}", other.name()),
            ));
        }
    };
    notes.extend(files.warnings.iter().map(Warning::to_string));
    Ok(Converted {
        main: files.main,
        side: if stem.is_some() {
            files.side_files
        } else {
            Vec::new()
        },
    })
}
