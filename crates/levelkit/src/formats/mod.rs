//! The legacy formats, one module each (`model`, `read`, `write`, `convert` inside), and
//! [`Model`], which holds any of them so callers can read, validate, dump and write a file
//! without knowing its format in advance.

// No panics on input: readers additionally deny `clippy::arithmetic_side_effects` (see each
// `read.rs`); writers and sample builders do arithmetic on sizes of in-memory models, in u64.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod gani;
pub mod graal;
pub mod nw;
pub mod wdb;
pub mod wings;
pub mod wmp;
pub mod wwd;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Location, Result, Severity, Warning};
use crate::export::tiled::{self, TiledOptions};
use crate::limits::Limits;
use crate::registry::{Format, sniff};
use crate::scene::Scene;
use crate::tilemap::TileMap;

/// A lossless model of any supported format. In JSON it is
/// `{"format": "wwd", "model": {…}}`, the form `levelkit dump --json` prints and `levelkit convert
/// level.json level.wwd` reads back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "format", content = "model", rename_all = "snake_case")]
#[non_exhaustive]
// Models are read once and moved a few times; boxing the large ones would only add noise.
#[allow(clippy::large_enum_variant)]
pub enum Model {
    /// A WWD level.
    Wwd(wwd::Wwd),
    /// A binary Graal level (`.graal`, `.zelda`).
    Graal(graal::Graal),
    /// A Graal text level (`.nw`).
    Nw(nw::Nw),
    /// A Graal animation (`.gani`).
    Gani(gani::Gani),
    /// A Wings 3D model (`.wings`).
    Wings(wings::Wings),
    /// A Tiled map (`.tmx`, `.tmj`), read into the common tile map; it converts back to the
    /// level it was made from.
    Tiled(TiledDoc),
    /// A glTF, GLB or OBJ file, read into the common 3D model; it converts to `.wings`.
    Scene(SceneDoc),
    /// A 3D GameStudio text level (`.wmp`: A4, v510, v710) or compiler input (`$$M`).
    Wmp(wmp::text::WmpText),
    /// A 3D GameStudio binary level (WMPB `.wmp`).
    Wmpb(wmp::binary::Wmpb),
    /// A V-Chat world (`.wdb`).
    Wdb(wdb::Wdb),
}

/// A glTF, GLB or OBJ file in the common 3D model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneDoc {
    /// [`Format::Gltf`], [`Format::Glb`] or [`Format::Obj`]: the form it was read in, and is
    /// written back in.
    pub format: Format,
    /// The scene.
    pub scene: Scene,
    /// What reading the file noticed (not in JSON).
    #[serde(skip)]
    pub warnings: Vec<Warning>,
}

/// Reads the files a glTF or OBJ references (buffers, images, MTL) by their relative name;
/// `None` when there is no such file. [`no_side_files`] for inputs with nothing beside them.
pub type Resolver<'a> = &'a mut dyn FnMut(&str) -> Option<Vec<u8>>;

/// A [`Resolver`] that finds nothing (stdin, or a library caller without files).
pub fn no_side_files(_: &str) -> Option<Vec<u8>> {
    None
}

/// A Tiled map file in the common model, with what re-writing and rendering it need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TiledDoc {
    /// [`Format::Tmx`] or [`Format::Tmj`]: the form it was read in, and is written back in.
    pub format: Format,
    /// The map.
    pub map: TileMap,
    /// The tileset images and layer encoding the file used (not in JSON).
    #[serde(skip)]
    pub options: TiledOptions,
    /// What reading the file noticed (not in JSON).
    #[serde(skip)]
    pub warnings: Vec<Warning>,
}

impl TiledDoc {
    /// The level format a map converts back to when no other is asked for: the one it was made
    /// from, if that is a level format.
    pub fn level_format(&self) -> Option<Format> {
        matches!(
            self.map.source_format,
            Format::Wwd | Format::GraalLevel | Format::Nw
        )
        .then_some(self.map.source_format)
    }

    /// The map as a level of `target` (WWD, `.graal` or `.nw`).
    pub fn to_level(&self, target: Format) -> Result<(Model, Vec<Warning>)> {
        let family = |f: Format| match f {
            Format::Wwd => Some(0),
            Format::GraalLevel | Format::Nw => Some(1),
            _ => None,
        };
        if let (Some(a), Some(b)) = (family(self.map.source_format), family(target))
            && a != b
        {
            return Err(Error::unsupported(
                target,
                Location::default(),
                format!(
                    "this map was made from a {} level; it converts back to {}, not to {}",
                    self.map.source_format.name(),
                    if a == 0 { "wwd" } else { "graal or nw" },
                    target.name()
                ),
            ));
        }
        match target {
            Format::Wwd => wwd::from_tilemap(&self.map).map(|(w, warn)| (Model::Wwd(w), warn)),
            Format::GraalLevel => {
                graal::tilemap::tilemap_to_graal(&self.map).map(|(g, warn)| (Model::Graal(g), warn))
            }
            Format::Nw => nw::tilemap_to_nw(&self.map).map(|(n, warn)| (Model::Nw(n), warn)),
            other => Err(Error::unsupported(
                other,
                Location::default(),
                format!("a Tiled map cannot become {} yet", other.name()),
            )),
        }
    }
}

impl Model {
    /// The model's format.
    pub fn format(&self) -> Format {
        match self {
            Model::Wwd(_) => Format::Wwd,
            Model::Graal(_) => Format::GraalLevel,
            Model::Nw(_) => Format::Nw,
            Model::Gani(_) => Format::Gani,
            Model::Wings(_) => Format::Wings,
            Model::Tiled(t) => t.format,
            Model::Scene(s) => s.format,
            Model::Wmp(w) if w.dialect() == wmp::text::Dialect::DollarM => Format::DollarM,
            Model::Wmp(_) => Format::WmpText,
            Model::Wmpb(_) => Format::Wmpb,
            Model::Wdb(_) => Format::Wdb,
        }
    }

    /// Read `bytes` as `format`. Files a glTF or OBJ references are not found (see
    /// [`Model::read_as_with`]).
    pub fn read_as(format: Format, bytes: &[u8], limits: &Limits) -> Result<Model> {
        Model::read_as_with(format, bytes, limits, &mut no_side_files)
    }

    /// Read `bytes` as `format`, finding the files a glTF or OBJ references with `resolve`.
    pub fn read_as_with(
        format: Format,
        bytes: &[u8],
        limits: &Limits,
        resolve: Resolver<'_>,
    ) -> Result<Model> {
        match format {
            Format::Gltf | Format::Glb | Format::Obj => {
                let (scene, warnings) = if format == Format::Obj {
                    crate::import::obj::read(bytes, resolve)?
                } else {
                    crate::import::gltf::read(bytes, resolve)?
                };
                Ok(Model::Scene(SceneDoc {
                    format,
                    scene,
                    warnings,
                }))
            }
            Format::Wwd => wwd::read_with(bytes, limits).map(Model::Wwd),
            Format::GraalLevel => graal::read_with(bytes, limits).map(Model::Graal),
            Format::Nw => nw::read_with(bytes, limits).map(Model::Nw),
            Format::Gani => gani::read_with(bytes, limits).map(Model::Gani),
            Format::Wings => wings::read_with(bytes, limits).map(Model::Wings),
            Format::WmpText | Format::DollarM => {
                wmp::text::WmpText::read_with(bytes, limits).map(Model::Wmp)
            }
            Format::Wmpb => wmp::binary::Wmpb::read_with(bytes, limits).map(Model::Wmpb),
            Format::Wdb => wdb::read_with(bytes, limits).map(Model::Wdb),
            Format::Json => Model::from_json(bytes),
            Format::Tmx | Format::Tmj => {
                let read = if format == Format::Tmx {
                    crate::import::tiled::from_tmx(bytes)?
                } else {
                    crate::import::tiled::from_tmj(bytes)?
                };
                Ok(Model::Tiled(TiledDoc {
                    format,
                    map: read.map,
                    options: read.options,
                    warnings: read.warnings,
                }))
            }
            other => Err(Error::unsupported(
                other,
                Location::default(),
                format!("reading {} files is not implemented yet", other.name()),
            )),
        }
    }

    /// Read a file whose format is told by its bytes and name.
    pub fn read(bytes: &[u8], file_name: Option<&str>, limits: &Limits) -> Result<Model> {
        Model::read_with(bytes, file_name, limits, &mut no_side_files)
    }

    /// Read a file whose format is told by its bytes and name, finding the files a glTF or
    /// OBJ references with `resolve`.
    pub fn read_with(
        bytes: &[u8],
        file_name: Option<&str>,
        limits: &Limits,
        resolve: Resolver<'_>,
    ) -> Result<Model> {
        let format = sniff(bytes, file_name).ok_or_else(|| {
            Error::unsupported(
                Format::Unknown,
                Location::default(),
                format!(
                    "cannot tell the format of {} from its content or name",
                    file_name.unwrap_or("the input")
                ),
            )
        })?;
        Model::read_as_with(format, bytes, limits, resolve)
    }

    /// Write the model in its own format.
    pub fn write(&self) -> Result<Vec<u8>> {
        match self {
            Model::Wwd(w) => w.write(),
            Model::Graal(g) => g.write(),
            Model::Nw(n) => n.write(),
            Model::Gani(g) => g.write(),
            Model::Wings(w) => w.write(),
            Model::Tiled(t) if t.format == Format::Tmj => tiled::to_tmj(&t.map, &t.options),
            Model::Tiled(t) => tiled::to_tmx(&t.map, &t.options),
            Model::Scene(s) => export_scene(&s.scene, s.format, "model").map(|f| f.main),
            Model::Wmp(w) => w.write(),
            Model::Wmpb(w) => w.write(),
            Model::Wdb(w) => w.write(),
        }
    }

    /// Every validation finding.
    pub fn validate(&self) -> Vec<Warning> {
        match self {
            Model::Wwd(w) => w.validate(),
            Model::Graal(g) => g.validate(),
            Model::Nw(n) => n.validate(),
            Model::Gani(g) => g.validate(),
            Model::Wings(w) => w.validate(),
            Model::Tiled(t) => {
                let mut out = t.warnings.clone();
                out.extend(t.map.validate());
                if let Some(level) = t.level_format()
                    && let Err(e) = t.to_level(level)
                {
                    out.push(Warning {
                        format: e.format,
                        severity: Severity::Error,
                        location: e.location.clone(),
                        message: format!(
                            "does not convert back to {}: {}",
                            level.name(),
                            e.message
                        ),
                    });
                }
                out
            }
            Model::Scene(s) => {
                let mut out = s.warnings.clone();
                out.extend(s.scene.validate());
                out
            }
            Model::Wmp(w) => {
                let mut out = w.validate();
                out.extend(wmp::a4_findings(w));
                out
            }
            Model::Wmpb(w) => w.validate(),
            Model::Wdb(w) => w.validate(),
        }
    }

    /// A short summary as JSON, for `levelkit info`.
    pub fn summary(&self) -> serde_json::Value {
        match self {
            Model::Wwd(w) => serde_json::to_value(w.summary()).unwrap_or_default(),
            Model::Graal(g) => serde_json::to_value(g.summary()).unwrap_or_default(),
            Model::Nw(n) => serde_json::to_value(n.summary()).unwrap_or_default(),
            Model::Gani(g) => serde_json::to_value(g.summary()).unwrap_or_default(),
            Model::Wings(w) => serde_json::to_value(w.summary()).unwrap_or_default(),
            Model::Tiled(t) => {
                let (mut tiles, mut groups, mut objects) = (0usize, 0usize, 0usize);
                for layer in &t.map.layers {
                    match layer {
                        crate::tilemap::Layer::Tiles(_) => tiles += 1,
                        crate::tilemap::Layer::Objects(g) => {
                            groups += 1;
                            objects += g.objects.len();
                        }
                    }
                }
                serde_json::json!({
                    "width": t.map.width,
                    "height": t.map.height,
                    "tile_width": t.map.tile_width,
                    "tile_height": t.map.tile_height,
                    "tilesets": t.map.tilesets.len(),
                    "tile_layers": tiles,
                    "object_groups": groups,
                    "objects": objects,
                    "source_format": t.map.source_format.name(),
                })
            }
            Model::Scene(s) => serde_json::to_value(s.scene.counts()).unwrap_or_default(),
            Model::Wmp(w) => serde_json::to_value(w.summary()).unwrap_or_default(),
            Model::Wmpb(w) => serde_json::to_value(w.summary()).unwrap_or_default(),
            Model::Wdb(w) => serde_json::to_value(w.summary()).unwrap_or_default(),
        }
    }

    /// This model converted to another legacy format, with warnings for everything the target
    /// cannot hold. Converting to the model's own format is the identity.
    pub fn convert_to(&self, target: Format) -> Result<(Model, Vec<Warning>)> {
        match (self, target) {
            (model, t) if t == model.format() => Ok((model.clone(), Vec::new())),
            (Model::Tiled(doc), Format::Tmx | Format::Tmj) => Ok((
                Model::Tiled(TiledDoc {
                    format: target,
                    ..doc.clone()
                }),
                Vec::new(),
            )),
            (Model::Tiled(doc), t) => doc.to_level(t),
            (Model::Wmp(_) | Model::Wmpb(_), Format::DollarM) => {
                let (level, mut warnings) = self.level().unwrap_or_default();
                let (compiled, more) = wmp::compile(&level)?;
                warnings.extend(more);
                Ok((Model::Wmp(compiled), warnings))
            }
            (model, Format::Gltf | Format::Glb | Format::Obj | Format::Wings | Format::Wdb)
                if model.is_3d() =>
            {
                let Some((scene, mut warnings)) = model.to_scene() else {
                    return Err(Error::unsupported(
                        target,
                        Location::default(),
                        "not a 3D model",
                    ));
                };
                match target {
                    Format::Wings => {
                        let (w, more) = wings::Wings::from_scene(&scene)?;
                        warnings.extend(more);
                        Ok((Model::Wings(w), warnings))
                    }
                    Format::Wdb => {
                        let (w, more) = wdb::Wdb::from_scene(&scene)?;
                        warnings.extend(more);
                        Ok((Model::Wdb(w), warnings))
                    }
                    _ => Ok((
                        Model::Scene(SceneDoc {
                            format: target,
                            scene,
                            warnings: Vec::new(),
                        }),
                        warnings,
                    )),
                }
            }
            (Model::Graal(g), Format::Nw) => {
                let (level, mut warnings) = g.to_level();
                let (nw, more) = nw::from_level(&level);
                warnings.extend(more);
                Ok((Model::Nw(nw), warnings))
            }
            (Model::Nw(n), Format::GraalLevel) => {
                let (level, mut warnings) = n.to_level();
                let (g, more) = graal::from_level(&level);
                warnings.extend(more);
                Ok((Model::Graal(g), warnings))
            }
            (model, t) => Err(Error::unsupported(
                t,
                Location::default(),
                format!(
                    "cannot convert {} to {} (levels convert to JSON, Tiled and their own format, \
                     Graal levels between .graal and .nw, 3D models (.wings, .wmp, $$M, .wdb) to \
                     .glb, .gltf, .obj, .wings and .wdb, 3D GameStudio levels to $$M)",
                    model.format().name(),
                    t.name()
                ),
            )),
        }
    }

    /// The common tile map of a level (WWD, Graal, `.nw`), with warnings for what does not map;
    /// `None` for formats that are not tile maps (`.gani`).
    pub fn to_tilemap(&self) -> Option<(crate::tilemap::TileMap, Vec<Warning>)> {
        match self {
            Model::Wwd(w) => Some(w.to_tilemap()),
            Model::Graal(g) => Some(g.to_tilemap()),
            Model::Nw(n) => Some(n.to_tilemap()),
            Model::Gani(_)
            | Model::Wings(_)
            | Model::Scene(_)
            | Model::Wmp(_)
            | Model::Wmpb(_)
            | Model::Wdb(_) => None,
            Model::Tiled(t) => Some((t.map.clone(), t.warnings.clone())),
        }
    }

    /// The common 3D model of a 3D format (Wings, glTF, OBJ), with warnings for what does not
    /// map; `None` for formats that are not 3D.
    pub fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        match self {
            Model::Wings(w) => Some(w.to_scene()),
            Model::Scene(s) => Some((s.scene.clone(), s.warnings.clone())),
            Model::Wdb(w) => Some(w.to_scene()),
            Model::Wmp(_) | Model::Wmpb(_) => {
                let (level, mut warnings) = self.level()?;
                let (scene, more) = wmp::to_scene(&level, self.format());
                warnings.extend(more);
                Some((scene, warnings))
            }
            _ => None,
        }
    }

    /// Whether the model is 3D (it has a [`Model::to_scene`]).
    pub fn is_3d(&self) -> bool {
        matches!(
            self,
            Model::Wings(_) | Model::Scene(_) | Model::Wmp(_) | Model::Wmpb(_) | Model::Wdb(_)
        )
    }

    /// The 3D GameStudio level of a `.wmp` (text or WMPB) or `$$M` file, A4 blocks built from
    /// their planes; `None` for other formats.
    pub fn level(&self) -> Option<(wmp::Level, Vec<Warning>)> {
        match self {
            Model::Wmp(w) => Some(wmp::level_of_text(w)),
            Model::Wmpb(w) => Some(w.to_level()),
            _ => None,
        }
    }

    /// The lossless JSON document.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        serde_json::to_vec_pretty(self).map_err(|e| {
            Error::new(
                Format::Json,
                ErrorKind::Malformed,
                Location::default(),
                e.to_string(),
            )
        })
    }

    /// Parse a lossless JSON document.
    pub fn from_json(bytes: &[u8]) -> Result<Model> {
        serde_json::from_slice(bytes).map_err(|e| {
            let location = Location {
                line_col: Some((
                    u32::try_from(e.line()).unwrap_or(u32::MAX),
                    u32::try_from(e.column()).unwrap_or(u32::MAX),
                )),
                ..Location::default()
            };
            Error::new(
                Format::Json,
                ErrorKind::Malformed,
                location,
                format!("not a levelkit model document: {e}"),
            )
        })
    }
}

/// A scene as `format` (glTF with embedded buffers, GLB or OBJ), side files named after `stem`.
pub fn export_scene(
    scene: &Scene,
    format: Format,
    stem: &str,
) -> Result<crate::export::ExportFiles> {
    match format {
        Format::Obj => crate::export::obj::write(
            scene,
            &crate::export::obj::ObjOptions {
                triangulate: false,
                stem: stem.to_owned(),
            },
        ),
        Format::Gltf | Format::Glb => crate::export::gltf::write(
            scene,
            &crate::export::gltf::GltfOptions {
                binary: format == Format::Glb,
                embed: true,
                stem: stem.to_owned(),
            },
        ),
        other => Err(Error::unsupported(
            other,
            Location::default(),
            format!("a scene cannot be written as {}", other.name()),
        )),
    }
}
