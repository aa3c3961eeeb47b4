//! Side files: what a document names beside it (a 3D GameStudio level's WADs, V-Chat's and
//! Wings' texture files, a glTF's or OBJ's images), found through a [`Resolver`] by their file
//! name. The library reads no files itself: the caller's resolver does (the CLI looks beside the
//! input).

use super::Model;
use crate::codec::Resolver;
use crate::error::{Location, Severity, Warning};
use crate::formats::{wad, wmp};
use crate::limits::Limits;
use crate::registry::Format;
use crate::scene::{Scene, TextureSource};

/// What [`find_textures`] did.
#[derive(Debug, Default)]
pub struct FoundTextures {
    /// Materials that got a texture from a WAD (3D GameStudio levels).
    pub from_wads: usize,
    /// Materials that got a texture from an image file named after them (3D GameStudio levels:
    /// `<name>.pcx`, `.bmp`, `.tga`, `.png`, `.jpg`).
    pub from_files: usize,
    /// One warning per cause: a WAD that is not readable, a texture file that is missing, a
    /// model file a level names that is missing.
    pub warnings: Vec<Warning>,
    /// Model entities of a level that got their model, and how many the level has
    /// ([`super::models::place_models`]).
    pub models: (usize, usize),
}

/// The last part of a name written with either kind of slash (levels name their WADs with the
/// author's absolute paths).
fn file_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Give `scene`, exported from `model`, the textures its side files hold: a 3D GameStudio text
/// level's WADs (named in `wed { wad { … } }` and its compiled `$$W`), a level's models (placed
/// first, so their textures are found too), and every texture the
/// scene names by file (decoded to pixels, so the output stands alone). A texture file that is
/// missing or not an image is left out with one warning, and the materials that used it keep
/// their names without it.
pub fn find_textures(model: &Model, scene: &mut Scene, resolve: Resolver<'_>) -> FoundTextures {
    let mut found = FoundTextures::default();
    let placed = super::models::place_models(model, scene, resolve);
    found.models = (placed.placed, placed.entities);
    found.warnings.extend(placed.warnings);
    if let Model::Wmp(level) = model {
        wad_textures(level, scene, resolve, &mut found);
    }
    if matches!(model, Model::Wmp(_) | Model::Wmpb(_)) {
        found.from_files = named_texture_files(scene, resolve, model.format(), &mut found.warnings);
    }
    if let Model::Wdb(_) = model {
        found.from_files = vchat_side_files(scene, resolve);
    }
    let mut missing = Vec::new();
    for (index, texture) in scene.textures.iter_mut().enumerate() {
        let TextureSource::File(name) = &texture.source else {
            continue;
        };
        let file = file_name(name);
        let decoded = resolve(file).map(|bytes| decode_image(&bytes));
        match decoded {
            Some(Ok(img)) => texture.source = pixels(img),
            Some(Err(e)) => {
                found.warnings.push(Warning {
                    format: model.format(),
                    severity: Severity::Warning,
                    location: Location::path(format!("textures[{index}]")),
                    message: format!(
                        "texture {name:?}: {file} is not drawn: {e}; left out (the material \
                         keeps its name)"
                    ),
                });
                missing.push(index);
            }
            None => {
                found.warnings.push(Warning {
                    format: model.format(),
                    severity: Severity::Warning,
                    location: Location::path(format!("textures[{index}]")),
                    message: format!(
                        "texture {name:?}: no readable image {file} beside the input; left out \
                         (the material keeps its name)"
                    ),
                });
                missing.push(index);
            }
        }
    }
    scene.remove_textures(&missing);
    found
}

/// A V-Chat world's side files (`formats::wdb::folder`): its textures, found where the world
/// finds them (the `world.adf` one folder up may map a name; else `../images/`, beside the
/// world, the world folder; any case, through `resolve`), decoded to pixels; and its
/// `hotlinks.txt`, each link in the `extras.vchat_hotlink` of the nodes it names. Gives the
/// textures found; those not found stay file references (and are warned about by the caller).
fn vchat_side_files(scene: &mut Scene, resolve: Resolver<'_>) -> usize {
    use crate::formats::wdb::folder::{Adf, Hotlinks};
    let adf = resolve("../world.adf").and_then(|b| Adf::read(&b).ok());
    let mut found = 0;
    for texture in &mut scene.textures {
        let TextureSource::File(name) = &texture.source else {
            continue;
        };
        let decoded = vchat_texture_places(adf.as_ref(), name)
            .into_iter()
            .find_map(|path| resolve(&path).and_then(|b| decode_image(&b).ok()));
        if let Some(img) = decoded {
            texture.source = pixels(img);
            found += 1;
        }
    }
    if let Some(links) = resolve("hotlinks.txt").and_then(|b| Hotlinks::read(&b).ok()) {
        for node in &mut scene.nodes {
            let Some(link) = node.name.as_deref().and_then(|n| links.find(n)) else {
                continue;
            };
            node.extras.insert(
                "vchat_hotlink".into(),
                serde_json::json!({
                    "kind": link.kind,
                    "target": link.target,
                    "label": link.label,
                }),
            );
        }
    }
    found
}

/// Where a V-Chat world (`data/world.wdb`) finds the texture `name`, relative to its folder:
/// where its `world.adf` maps the name, then [`crate::formats::wdb::folder::texture_candidates`].
fn vchat_texture_places(adf: Option<&crate::formats::wdb::folder::Adf>, name: &str) -> Vec<String> {
    let mapped = adf
        .and_then(|a| a.texture_path(name))
        .map(|p| format!("../{p}"));
    mapped
        .into_iter()
        .chain(crate::formats::wdb::folder::texture_candidates(name))
        .collect()
}

/// Decoded pixels as a scene texture's source (RGBA).
fn pixels(img: super::image::Decoded) -> TextureSource {
    TextureSource::Pixels {
        width: img.width,
        height: img.height,
        channels: 4,
        data: img.rgba,
    }
}

/// An image file's pixels ([`super::image::decode_rgba`], its size within the default
/// [`Limits`]); a GIF that the `image` crate refuses because of a few stray bytes between the
/// global colour table and the first block (52 textures of the public V-Chat worlds have
/// `0d 00 00 00` there, which V-Chat skipped) is read without them.
fn decode_image(bytes: &[u8]) -> Result<super::image::Decoded, String> {
    let limits = Limits::default();
    let first = match super::image::decode_rgba(bytes, None, &limits) {
        Ok(img) => return Ok(img),
        Err(e) => e,
    };
    let fixed = || -> Option<Vec<u8>> {
        if !bytes.starts_with(b"GIF8") {
            return None;
        }
        let flags = *bytes.get(10)?;
        let table = if flags & 0x80 != 0 {
            3usize << ((flags & 7) + 1)
        } else {
            0
        };
        let start = 13usize.checked_add(table)?;
        let tail = bytes.get(start..)?;
        // At most 16 stray bytes, then an image descriptor or an extension.
        let skip = tail
            .iter()
            .take(17)
            .position(|&b| b == 0x2C || b == 0x21)
            .filter(|&n| n > 0)?;
        let mut fixed = bytes.get(..start)?.to_vec();
        fixed.extend_from_slice(tail.get(skip..)?);
        Some(fixed)
    };
    match fixed() {
        Some(fixed) => super::image::decode_rgba(&fixed, None, &limits),
        None => Err(first),
    }
}

/// What a V-Chat world names that its folder lacks, once per file: each texture no candidate
/// place holds (see [`find_textures`]), as warnings for `levelkit info` and `validate`.
pub fn vchat_missing_files(
    world: &crate::formats::wdb::Wdb,
    resolve: Resolver<'_>,
) -> Vec<Warning> {
    use crate::formats::wdb::folder::Adf;
    let adf = resolve("../world.adf").and_then(|b| Adf::read(&b).ok());
    let mut names: Vec<String> = world
        .nodes
        .iter()
        .flat_map(|n| &n.geometries)
        .flat_map(|g| &g.textures)
        .filter(|t| !t.name.is_empty())
        .map(|t| t.name.display())
        .collect();
    names.sort_by_key(|n| n.to_ascii_lowercase());
    names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    let mut out = Vec::new();
    for name in names {
        if !vchat_texture_places(adf.as_ref(), &name)
            .iter()
            .any(|p| resolve(p).is_some())
        {
            out.push(Warning {
                format: Format::Wdb,
                severity: Severity::Warning,
                location: Location::default(),
                message: format!(
                    "texture {name:?} is not in the world's folder (looked in ../images/, beside \
                     the world and in the world folder, any case)"
                ),
            });
        }
    }
    out
}

/// The WAD textures of a 3D GameStudio text level.
fn wad_textures(
    level: &wmp::text::WmpText,
    scene: &mut Scene,
    resolve: Resolver<'_>,
    found: &mut FoundTextures,
) {
    let palette = wmp::wed_palette(level);
    let mut names = wmp::wad_names(level);
    names.extend(wmp::level_of_text(level).0.settings.wad);
    let mut wads = Vec::new();
    for name in names {
        let file = file_name(&name);
        let Some(bytes) = resolve(file) else {
            continue;
        };
        match wad::read(&bytes, palette.as_deref()) {
            Ok(wad) => wads.push(wad),
            Err(e) => found.warnings.push(Warning {
                format: Format::WmpText,
                severity: Severity::Warning,
                location: Location::default(),
                message: format!("{file}: not used for textures: {e}"),
            }),
        }
    }
    if !wads.is_empty() {
        found.from_wads = wmp::attach_wad_textures(scene, &wads);
    }
}

/// The extensions a 3D GameStudio texture file may have, in the order they are tried.
pub const TEXTURE_EXTENSIONS: [&str; 5] = ["pcx", "bmp", "tga", "png", "jpg"];

/// An image file's pixels as a WAD texture: PCX through levelkit's own reader, BMP, TGA, PNG and
/// JPEG through [`super::image::decode_rgba`] (TGA has no magic, so the extension picks its
/// decoder); both refuse a picture over the default [`Limits`].
pub fn decode_texture_file(name: &str, ext: &str, bytes: &[u8]) -> Result<wad::WadTexture, String> {
    let (width, height, rgba) = if ext.eq_ignore_ascii_case("pcx") {
        let img = crate::formats::pid::pcx::Pcx::read(bytes)
            .and_then(|p| p.to_rgba(None))
            .map_err(|e| e.message)?;
        (img.width, img.height, img.rgba)
    } else {
        let tga = ext
            .eq_ignore_ascii_case("tga")
            .then_some(image::ImageFormat::Tga);
        let img = super::image::decode_rgba(bytes, tga, &Limits::default())?;
        (img.width, img.height, img.rgba)
    };
    Ok(wad::WadTexture {
        name: name.to_owned(),
        width,
        height,
        rgba,
    })
}

/// Materials of a 3D GameStudio level's scene that no WAD textured, textured from image files
/// of their name (`brick` → `brick.pcx`, `BRICK.PCX`, … in [`TEXTURE_EXTENSIONS`] order) found
/// with `resolve`; texture coordinates are rescaled to the image's size as for WAD textures.
fn named_texture_files(
    scene: &mut Scene,
    resolve: Resolver<'_>,
    format: Format,
    warnings: &mut Vec<Warning>,
) -> usize {
    let mut textures = Vec::new();
    for material in &scene.materials {
        let Some(name) = material.name.as_deref() else {
            continue;
        };
        if material.base_color_texture.is_some() || name.is_empty() {
            continue;
        }
        let found = TEXTURE_EXTENSIONS.iter().find_map(|ext| {
            [
                format!("{name}.{ext}"),
                format!("{}.{ext}", name.to_ascii_lowercase()),
                format!("{}.{}", name.to_ascii_uppercase(), ext.to_ascii_uppercase()),
            ]
            .iter()
            .find_map(|file| resolve(file_name(file)).map(|bytes| (file.clone(), bytes)))
            .and_then(
                |(file, bytes)| match decode_texture_file(name, ext, &bytes) {
                    Ok(texture) => Some(texture),
                    Err(e) => {
                        warnings.push(Warning {
                            format,
                            severity: Severity::Warning,
                            location: Location::path(format!("materials.{name}")),
                            message: format!("texture file {file} is not drawn: {e}"),
                        });
                        None
                    }
                },
            )
        });
        textures.extend(found);
    }
    if textures.is_empty() {
        return 0;
    }
    let wad = wad::Wad {
        textures,
        skipped: Vec::new(),
    };
    wmp::attach_wad_textures(scene, &[wad])
}

/// Texture files that a glTF or OBJ names are read with `resolve`, so that a model converted to
/// `.wings` carries its images (PNG and JPEG; anything else stays a file reference).
pub(super) fn embed_encoded_textures(scene: &mut Scene, resolve: Resolver<'_>) {
    for texture in &mut scene.textures {
        if let TextureSource::File(uri) = &texture.source
            && let Some(data) = resolve(uri)
        {
            let mime_type = if data.starts_with(b"\x89PNG\r\n\x1a\n") {
                "image/png"
            } else if data.starts_with(&[0xFF, 0xD8, 0xFF]) {
                "image/jpeg"
            } else {
                continue;
            };
            texture.source = TextureSource::Encoded {
                mime_type: mime_type.to_owned(),
                data,
            };
        }
    }
}

/// The world a V-Chat manifest (`world.adf`) names, relative to the manifest's folder: its
/// `[data]` entry (`world.wdb` in `data/`), else `data/world.wdb`.
pub fn vchat_world_of_manifest(bytes: &[u8]) -> crate::error::Result<String> {
    let adf = crate::formats::wdb::folder::Adf::read(bytes)?;
    Ok(adf
        .wdb_path()
        .filter(|w| !w.to_ascii_lowercase().ends_with(".adf"))
        .unwrap_or_else(|| "data/world.wdb".to_owned()))
}

/// A game's REZ archive (a Claw or Gruntz `CLAW.REZ`) as the [`crate::assets::Assets`] a WWD
/// level's graphics are drawn from ([`super::options::Options::game`]).
pub fn game_archive(bytes: &[u8]) -> crate::error::Result<crate::formats::rez::RezIndex<'_>> {
    crate::formats::rez::RezIndex::read(bytes)
}
