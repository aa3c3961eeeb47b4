//! The conversion pipeline: one answer, for every front end (the CLI, the browser viewer, a
//! library caller), to "which file becomes which, with which assets and options".
//!
//! [`convert`] takes a document ([`Model`]), a target [`Format`], typed [`Options`] and the
//! files around the document ([`Assets`]), and returns the output's bytes, the files that go
//! beside it and what the conversion noticed ([`Converted`]). [`targets`] and
//! [`Model::targets`] say what a document can become; every pair they offer converts.
//!
//! The routes, in the order they are tried:
//!
//! | document | target | how |
//! |---|---|---|
//! | any | JSON | the lossless JSON document ([`json_document`]) |
//! | PID, PCX, PAL | PNG | [`super::image::to_png`], `palette` for images without one |
//! | gani | GIF, PNG | one animation per direction ([`super::animation`]) |
//! | ANI | GIF, PNG | the animation with the frames of `frames` |
//! | gmap | Tiled world, PNG | a Tiled world and a map per level, or the whole overworld drawn ([`super::world`]) |
//! | a 3D document | glTF, GLB, OBJ | its scene with the textures and models `assets` hold |
//! | a level, a Tiled map | Tiled, PNG | its tile map with tiles, game art and NPC images |
//! | any | its own format, another legacy format | [`Model::convert_to`], then `write` |
//!
//! Nothing here reads or writes a file: the [`Assets`] a caller gives are the only files read,
//! and the caller writes what comes back.

use std::borrow::Cow;

use super::Model;
pub use super::options::{Converted, Direction, Failure, Options, SharedTilesets, find_image};
use crate::assets::Assets;
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::formats::graal::binary as graal;
use crate::formats::wwd::WriteOptions;
use crate::registry::{Common, FORMATS, Format};
use crate::scene::Scene;
use crate::{gltf, obj};

/// The lossless JSON document, ending in a newline (what `dump --json` prints and
/// `convert … OUT.json` writes).
pub fn json_document(model: &Model) -> Result<Vec<u8>> {
    let mut bytes = model.to_json()?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Convert a file's bytes (named `name`) to `target`: what `levelkit convert IN OUT` does, for
/// every input. A Tiled world (`.world`) becomes its gmap and levels
/// ([`super::overworld::from_tiled_world`]); a V-Chat manifest (`world.adf`) converts the world
/// it names, with that world's folder as its assets; a PNG becomes a PID or palette; any other
/// file is read ([`read_for`]) and converted ([`convert`]). `assets` are the files around the
/// input (its folder).
pub fn convert_file(
    bytes: &[u8],
    name: &str,
    target: Format,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> std::result::Result<Converted, Failure> {
    let format = Format::from_path_name(name);
    if format == Some(Format::TiledWorld) {
        return super::overworld::from_tiled_world(bytes, assets);
    }
    if name.to_ascii_lowercase().ends_with(".adf") {
        let world = super::assets::vchat_world_of_manifest(bytes)?;
        let (dir, file) = world.rsplit_once('/').unwrap_or(("", world.as_str()));
        let world_bytes = assets.read(&world).ok_or_else(|| {
            Error::new(
                Format::Wdb,
                ErrorKind::Io,
                Location::path(world.clone()),
                format!("{name} names {world}, which is not there"),
            )
        })?;
        let within = crate::assets::Within {
            assets,
            dir: dir.to_owned(),
        };
        return convert_file(&world_bytes, file, target, options, &within);
    }
    let (model, warnings) = read_for(bytes, Some(name), Some(target), options, assets)?;
    let mut done = convert(&model, target, options, assets)?;
    let mut notes: Vec<String> = warnings.iter().map(Warning::to_string).collect();
    notes.append(&mut done.notes);
    done.notes = notes;
    Ok(done)
}

/// Read a document to convert to `target`: a PNG becomes the PID or palette `target` asks for
/// ([`super::image::from_png`], quantised to [`Options::palette`] where given); any other file
/// is read as its content and `name` tell ([`Model::read_with`]), the files it names (a glTF's
/// buffers, an OBJ's MTL, a Tiled map's tilesets) found in `assets`. Returns the reader's
/// warnings for a PNG.
pub fn read_for(
    bytes: &[u8],
    name: Option<&str>,
    target: Option<Format>,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> Result<(Model, Vec<Warning>)> {
    let limits = crate::limits::Limits::default();
    if let Some(target) = target
        && super::image::from_png_to(target)
        && crate::registry::sniff(bytes, name) == Some(Format::Png)
    {
        return super::image::from_png(bytes, target, options.palette.as_ref(), &limits);
    }
    let model = Model::read_with(bytes, name, &limits, &mut |n: &str| {
        assets.read(n).map(Cow::into_owned)
    })?;
    Ok((model, Vec::new()))
}

/// Every format documents of `format` can become, in table order: its JSON, its own format,
/// the exchange formats of its common model, and the pairs of [`Model::convert_to`]. A document
/// may offer fewer ([`Model::targets`]: a Tiled map becomes the level it was made from).
pub fn targets(format: Format) -> Vec<Format> {
    let from = format.info();
    if !from.readable {
        // A Tiled world is read as the overworld it was made from.
        return if format == Format::TiledWorld {
            vec![Format::Gmap]
        } else if format == Format::Png {
            // A PNG becomes a PID or a palette ([`super::image::from_png`]).
            vec![Format::Pid, Format::Pal]
        } else {
            Vec::new()
        };
    }
    FORMATS
        .iter()
        .filter(|to| to.writable && converts(format, from.common, to.format))
        .map(|to| to.format)
        .collect()
}

/// Whether documents of `from` (common model `common`) convert to `to`.
fn converts(from: Format, common: Option<Common>, to: Format) -> bool {
    use Format as F;
    // A JSON document is any model: what it becomes is known once it is read.
    if to == F::Json || to == from || from == F::Json {
        return true;
    }
    let info = to.info();
    match (from, to) {
        (F::Gmap, F::TiledWorld | F::Png) => return true,
        (F::Gani | F::Ani, F::Gif | F::Png) => return true,
        (F::Pid | F::Pcx | F::Pal, F::Png) => return true,
        (F::GraalLevel, F::Nw) | (F::Nw, F::GraalLevel) => return true,
        (F::Tmx | F::Tmj, F::Wwd | F::GraalLevel | F::Nw) => return true,
        (F::WmpText | F::Wmpb, F::DollarM) => return true,
        _ => {}
    }
    match common {
        // Exchange formats of the same common model; a PNG is a tile map's preview.
        Some(Common::TileMap) => info.exchange && info.common == Some(Common::TileMap),
        // Every 3D document becomes glTF and OBJ, and, through the scene, Wings, V-Chat and
        // 3D GameStudio's MDL7.
        Some(Common::Scene) => {
            (info.exchange && info.common == Some(Common::Scene))
                || matches!(to, F::Wings | F::Wdb | F::Mdl)
        }
        _ => false,
    }
}

/// Convert `model` to `target` (see the module docs), finding the files it names in `assets`.
pub fn convert(
    model: &Model,
    target: Format,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> std::result::Result<Converted, Failure> {
    let mut notes = Vec::new();
    match convert_noting(model, target, options, assets, &mut notes) {
        Ok(mut done) => {
            notes.append(&mut done.notes);
            done.notes = notes;
            Ok(done)
        }
        Err(mut failure) => {
            notes.append(&mut failure.notes);
            failure.notes = notes;
            Err(failure)
        }
    }
}

/// The usage error for a pair [`Model::targets`] does not offer, saying why where it can.
fn not_convertible(model: &Model, target: Format) -> Failure {
    let from = model.format().name();
    let info = target.info();
    let offered: Vec<&str> = model.targets().iter().map(|f| f.name()).collect();
    let becomes = format!("a {from} file becomes: {}", offered.join(", "));
    let why = if info.exchange && info.common == Some(Common::Scene) && !model.is_3d() {
        format!(
            "a {from} file is not a 3D model; it cannot become {} ({becomes})",
            target.name()
        )
    } else if info.exchange && info.common == Some(Common::TileMap) && model.to_tilemap().is_none()
    {
        format!(
            "a {from} file is not a tile map; it cannot become {} ({becomes})",
            target.name()
        )
    } else {
        match model.convert_to(target) {
            // The model's own reason (a Tiled map made from a Graal level is not a WWD one).
            Err(e) if e.kind == ErrorKind::Unsupported => e.message,
            _ => format!("cannot convert {from} to {} ({becomes})", target.name()),
        }
    };
    Failure {
        error: Error::unsupported(target, Location::default(), why),
        not_convertible: true,
        notes: Vec::new(),
    }
}

fn convert_noting(
    model: &Model,
    target: Format,
    options: &Options<'_>,
    assets: &dyn Assets,
    notes: &mut Vec<String>,
) -> std::result::Result<Converted, Failure> {
    if !model.targets().contains(&target) {
        return Err(not_convertible(model, target));
    }
    if target == Format::Json {
        return Ok(Converted::of(json_document(model)?));
    }
    if target == Format::Png
        && let Some(png) = super::image::to_png(model, options.palette.as_ref())
    {
        return Ok(Converted::of(png?));
    }
    match (model, target) {
        (Model::Gani(g), Format::Gif | Format::Png) => {
            return super::animation::gani(g, target, options, assets);
        }
        (Model::Ani(a), Format::Gif | Format::Png) => {
            return super::animation::ani(a, target, options, assets);
        }
        (Model::Gmap(g), Format::TiledWorld) => {
            return Ok(super::overworld::to_tiled_world(g, options, assets)?);
        }
        (Model::Gmap(g), Format::Png) => {
            return Ok(super::overworld::render_png(g, options, assets)?);
        }
        _ => {}
    }
    let info = target.info();
    if info.exchange && info.common == Some(Common::Scene) {
        let scene = scene_with_assets(model, assets, notes)?;
        return Ok(scene_files(&scene, target, options.stem(), notes)?);
    }
    if info.exchange && info.common == Some(Common::TileMap) {
        let Some((map, warnings)) = model.to_tilemap() else {
            return Err(not_convertible(model, target));
        };
        notes.extend(warnings.iter().map(Warning::to_string));
        return Ok(super::maps::map_conversion(
            model, &map, target, options, assets, notes,
        )?);
    }
    let main = legacy_bytes(model, target, options, notes)?;
    Ok(Converted::of(main))
}

/// The bytes of `model` in a legacy format (its own, or one [`Model::convert_to`] makes), with
/// a note for everything the target cannot hold.
fn legacy_bytes(
    model: &Model,
    format: Format,
    options: &Options<'_>,
    notes: &mut Vec<String>,
) -> std::result::Result<Vec<u8>, Failure> {
    let wwd_options = WriteOptions {
        compress: options.compress,
        relayout: false,
    };
    match (model, format) {
        (Model::Wwd(w), Format::Wwd) => Ok(w.write_with(&wwd_options)?),
        (model, Format::Mdl)
            if let Some(version) = options.mdl_version
                && model.is_3d()
                && !is_mdl_version(model, version) =>
        {
            Ok(mdl_as(model, version, notes)?)
        }
        (Model::Graal(g), Format::GraalLevel) => Ok(graal_as(g, options, notes)?),
        (model, format) if format == model.format() => Ok(model.write()?),
        (model, format) => {
            // A pair levelkit does not convert is the caller's mistake; a map that cannot become
            // a valid level is invalid input.
            let (converted, warnings) = model.convert_to(format).map_err(|e| Failure {
                not_convertible: e.kind == ErrorKind::Unsupported,
                error: e,
                notes: Vec::new(),
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
fn graal_as(g: &graal::Graal, options: &Options<'_>, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    match options.graal_version {
        Some(version) if version != g.version => {
            let (g, warnings) = graal::with_version(g, version);
            notes.extend(warnings.iter().map(Warning::to_string));
            g.write()
        }
        _ => g.write(),
    }
}

/// `model` is an MDL of `version` already.
fn is_mdl_version(model: &Model, version: super::options::MdlVersion) -> bool {
    use crate::formats::mdl::{ClassicVersion, Mdl, TargetVersion};
    match (model, version) {
        (Model::Mdl(Mdl::Mdl7(_)), TargetVersion::Mdl7) => true,
        (Model::Mdl(Mdl::Classic(c)), TargetVersion::Mdl5) => c.version == ClassicVersion::Mdl5,
        _ => false,
    }
}

/// The bytes of the 3D `model` as an MDL of `version`, through the common 3D model.
fn mdl_as(
    model: &Model,
    version: super::options::MdlVersion,
    notes: &mut Vec<String>,
) -> Result<Vec<u8>> {
    let Some((scene, warnings)) = model.to_scene() else {
        return Err(Error::unsupported(
            Format::Mdl,
            Location::default(),
            "not a 3D model",
        ));
    };
    notes.extend(warnings.iter().map(Warning::to_string));
    let (mdl, more) = crate::formats::mdl::Mdl::from_scene_as(&scene, version)?;
    notes.extend(more.iter().map(Warning::to_string));
    mdl.write()
}

/// The scene of a 3D document with the textures and models its side files in `assets` hold,
/// noting what was found.
pub fn scene_with_assets(
    model: &Model,
    assets: &dyn Assets,
    notes: &mut Vec<String>,
) -> Result<Scene> {
    let Some((mut scene, warnings)) = model.to_scene() else {
        return Err(Error::unsupported(
            Format::Glb,
            Location::default(),
            format!("a {} file is not a 3D model", model.format().name()),
        ));
    };
    notes.extend(warnings.iter().map(Warning::to_string));
    let found = super::assets::find_textures(model, &mut scene, &mut |name: &str| {
        assets.read(name).map(Cow::into_owned)
    });
    notes.extend(found.warnings.iter().map(Warning::to_string));
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
    Ok(scene)
}

/// A 3D model as glTF, GLB or OBJ, with a note per warning of the exporter. With a `stem`, a
/// `.gltf` gets its buffer and textures as side files (`<stem>.bin`, `<stem>_<i>.png`) and an
/// OBJ its `<stem>.mtl` and textures; without one, a `.gltf` embeds everything and an OBJ goes
/// without its MTL.
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
    notes.extend(files.notes);
    Ok(Converted {
        main: Some(files.main),
        side: if stem.is_some() {
            files.side_files
        } else {
            Vec::new()
        },
        ..Converted::default()
    })
}
