//! The any-format layer: [`Model`] holds a document of any format levelkit reads, so callers can
//! read, validate, summarise, dump, convert and write a file without knowing its format in
//! advance.
//!
//! Every format implements [`Codec`] once in its own folder; the table at the bottom of this
//! file (`documents!`) names each one's variant, model type and the [`Format`]s it reads, and
//! generates the enum and its dispatch from that one row (the shape of gimli-rs/object's
//! `read::any::File`). Conversion planning between formats ([`Model::convert_to`]) lives here,
//! beside the Tiled and glTF/OBJ documents ([`TiledDoc`], [`SceneDoc`]) that wrap the modern
//! formats.

pub mod animation;
pub mod assets;
pub mod convert;
pub mod game;
pub mod image;
pub mod maps;
pub mod models;
pub mod options;
pub mod overworld;
mod scene;
pub mod textures;
mod tiled;
pub mod tiles;
pub mod tilesets;
pub mod world;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use crate::codec::{Codec, Resolver, no_side_files};
pub use convert::{convert, targets};
pub use options::{Converted, Failure, Options};
pub use scene::{SceneDoc, export_scene};
pub use tiled::TiledDoc;

use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::formats::graal::{binary as graal, gani, gmap, nw};
use crate::formats::{ani, hmp, mdl, pid, rez, wdb, wings, wmb, wmp, wwd};
use crate::limits::Limits;
use crate::registry::{Format, sniff};
use crate::scene::Scene;
use crate::tilemap::TileMap;

/// The table of documents: one row per model type, `Variant(Type) reads [Format, …]`. It
/// generates [`Model`] (whose JSON form is `{"format": "<variant>", "model": {…}}`) and the
/// dispatch of every [`Codec`] method over it.
macro_rules! documents {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) reads [$($format:ident),+] ),+ $(,)?) => {
        /// A lossless model of any supported format. In JSON it is
        /// `{"format": "wwd", "model": {…}}`, the form `levelkit dump --json` prints and
        /// `levelkit convert level.json level.wwd` reads back.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "format", content = "model", rename_all = "snake_case")]
        #[non_exhaustive]
        // Models are read once and moved a few times; boxing the large ones would only add noise.
        #[allow(clippy::large_enum_variant)]
        pub enum Model {
            $( $(#[$doc])* $variant($ty), )+
        }

        /// The `format` tag of a lossless JSON document: the model its `model` value is.
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum ModelTag {
            $( $variant, )+
        }

        impl Model {
            /// Read the text of a JSON document's `model` value as the model `tag` names.
            fn from_tagged_json(tag: ModelTag, model: &str) -> serde_json::Result<Model> {
                match tag {
                    $( ModelTag::$variant => serde_json::from_str::<$ty>(model).map(Model::$variant), )+
                }
            }
        }

        impl Codec for Model {
            fn format(&self) -> Format {
                match self { $( Model::$variant(d) => Codec::format(d), )+ }
            }

            fn read(
                format: Format,
                bytes: &[u8],
                limits: &Limits,
                resolve: Resolver<'_>,
            ) -> Result<Self> {
                match format {
                    $( $(Format::$format)|+ => {
                        <$ty as Codec>::read(format, bytes, limits, resolve).map(Model::$variant)
                    } )+
                    Format::Json => Model::from_json(bytes),
                    Format::Png | Format::Gif | Format::TiledWorld | Format::Unknown => Err(Error::unsupported(
                        format,
                        Location::default(),
                        format!("reading {} files is not implemented yet", format.name()),
                    )),
                }
            }

            fn write(&self) -> Result<Vec<u8>> {
                match self { $( Model::$variant(d) => Codec::write(d), )+ }
            }

            fn validate(&self) -> Vec<Warning> {
                match self { $( Model::$variant(d) => Codec::validate(d), )+ }
            }

            fn summary(&self) -> Value {
                match self { $( Model::$variant(d) => Codec::summary(d), )+ }
            }

            fn version(&self) -> String {
                match self { $( Model::$variant(d) => Codec::version(d), )+ }
            }

            fn dump(&self, name: &str) -> String {
                match self { $( Model::$variant(d) => Codec::dump(d, name), )+ }
            }

            fn flag_names(&self) -> Option<Vec<&'static str>> {
                match self { $( Model::$variant(d) => Codec::flag_names(d), )+ }
            }

            fn info_text(&self) -> String {
                match self { $( Model::$variant(d) => Codec::info_text(d), )+ }
            }

            fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
                match self { $( Model::$variant(d) => Codec::to_tilemap(d), )+ }
            }

            fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
                match self { $( Model::$variant(d) => Codec::to_scene(d), )+ }
            }
        }
    };
}

documents! {
    /// A WWD level.
    Wwd(wwd::Wwd) reads [Wwd],
    /// A binary Graal level (`.graal`, `.zelda`).
    Graal(graal::Graal) reads [GraalLevel],
    /// A Graal text level (`.nw`).
    Nw(nw::Nw) reads [Nw],
    /// A Graal animation (`.gani`).
    Gani(gani::Gani) reads [Gani],
    /// A Graal overworld (`.gmap`).
    Gmap(gmap::Gmap) reads [Gmap],
    /// A Wings 3D model (`.wings`).
    Wings(wings::Wings) reads [Wings],
    /// A Tiled map (`.tmx`, `.tmj`), read into the common tile map; it converts back to the
    /// level it was made from.
    Tiled(TiledDoc) reads [Tmx, Tmj],
    /// A glTF, GLB or OBJ file, read into the common 3D model; it converts to `.wings`.
    Scene(SceneDoc) reads [Gltf, Glb, Obj],
    /// A 3D GameStudio text level (`.wmp`: A4, v510, v710) or compiler input (`$$M`).
    Wmp(wmp::text::WmpText) reads [WmpText, DollarM],
    /// A 3D GameStudio binary level (WMPB `.wmp`).
    Wmpb(wmp::binary::Wmpb) reads [Wmpb],
    /// A 3D GameStudio compiled level (`.wmb`, WMB2 … WMB7).
    Wmb(wmb::Wmb) reads [Wmb],
    /// A V-Chat world (`.wdb`).
    Wdb(wdb::Wdb) reads [Wdb],
    /// A 3D GameStudio or Quake model (`.mdl`).
    Mdl(mdl::Mdl) reads [Mdl],
    /// A 3D GameStudio terrain (`.hmp`).
    Hmp(hmp::Hmp) reads [Hmp],
    /// A WAP32 sprite animation (`.ani`: Claw, Gruntz).
    Ani(ani::Ani) reads [Ani],
    /// A WAP32 image (`.pid`).
    Pid(pid::Pid) reads [Pid],
    /// A WAP32 palette (`.pal`).
    Pal(pid::Palette) reads [Pal],
    /// A PCX image (`.pcx`).
    Pcx(pid::pcx::Pcx) reads [Pcx],
    /// A Monolith resource archive (`.rez`, `.vrz`), read whole (file data and gaps in base64
    /// in JSON); [`rez::RezIndex`] lists one without copying.
    Rez(rez::Rez) reads [Rez],
}

/// One file's record in `levelkit info --json`: `file`, `format`, `version` (and `flags` where
/// the format has a flags word) first, then the format's summary fields.
#[derive(Debug, Clone, Serialize)]
pub struct InfoRecord<'a> {
    /// The file's name as given.
    pub file: &'a str,
    /// The format's short name.
    pub format: &'static str,
    /// The format's version phrase.
    pub version: String,
    /// The names of the header flags set, where the format has a flags word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flags: Option<Vec<&'static str>>,
    /// The format's summary fields.
    #[serde(flatten)]
    pub summary: Map<String, Value>,
}

impl Model {
    /// The model's format.
    pub fn format(&self) -> Format {
        Codec::format(self)
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
        <Model as Codec>::read(format, bytes, limits, resolve)
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
        // A text file taken for a format by its name only is described, never quoted.
        Model::read_as_with(format, bytes, limits, resolve)
            .map_err(|e| crate::error::unrecognised_content(format, bytes, &e).unwrap_or(e))
    }

    /// Write the model in its own format.
    pub fn write(&self) -> Result<Vec<u8>> {
        Codec::write(self)
    }

    /// Every validation finding.
    pub fn validate(&self) -> Vec<Warning> {
        Codec::validate(self)
    }

    /// A short summary as JSON, for `levelkit info`.
    pub fn summary(&self) -> Value {
        Codec::summary(self)
    }

    /// The format's version as a short phrase (`WWD 1524`).
    pub fn version(&self) -> String {
        Codec::version(self)
    }

    /// The whole model as readable text (`levelkit dump`); `name` is the file's name.
    pub fn dump_text(&self, name: &str) -> String {
        Codec::dump(self, name)
    }

    /// The text of `levelkit info`: the file's name, then one row per field.
    pub fn info_text(&self, name: &str) -> String {
        format!("{name}\n{}", Codec::info_text(self))
    }

    /// The JSON record of `levelkit info --json`: `file`, `format` and `version` first, then
    /// the format's summary fields.
    pub fn info_record<'a>(&self, name: &'a str) -> InfoRecord<'a> {
        let flags = Codec::flag_names(self);
        let mut summary = match Codec::summary(self) {
            Value::Object(fields) => fields,
            Value::Null => Map::new(),
            other => Map::from_iter([("summary".to_owned(), other)]),
        };
        // The leading fields win; a summary field of the same name would make a duplicate key.
        for key in ["file", "format", "version"] {
            summary.remove(key);
        }
        if flags.is_some() {
            summary.remove("flags");
        }
        InfoRecord {
            file: name,
            format: self.format().name(),
            version: self.version(),
            flags,
            summary,
        }
    }

    /// The common tile map of a level (WWD, Graal, `.nw`, a Tiled map), with warnings for what
    /// does not map; `None` for formats that are not tile maps.
    pub fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
        Codec::to_tilemap(self)
    }

    /// The common 3D model of a 3D format, with warnings for what does not map; `None` for
    /// formats that are not 3D.
    pub fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Codec::to_scene(self)
    }

    /// Whether the model is 3D: its format's common model is the scene (it has a
    /// [`Model::to_scene`]).
    pub fn is_3d(&self) -> bool {
        self.format().info().common == Some(crate::registry::Common::Scene)
    }

    /// Every format this document converts to ([`convert()`] makes each of them): the formats
    /// of its format ([`targets`]), a Tiled map's only back to the level it was made from.
    pub fn targets(&self) -> Vec<Format> {
        let mut all = targets(self.format());
        if let Model::Tiled(doc) = self {
            // A map made from a level goes back to its family (WWD; Graal and `.nw`).
            let family = |f: Format| match f {
                Format::Wwd => Some(0),
                Format::GraalLevel | Format::Nw => Some(1),
                _ => None,
            };
            let from = family(doc.map.source_format);
            all.retain(|&f| from.is_none() || family(f).is_none() || family(f) == from);
        }
        all
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
            (
                model,
                Format::Gltf
                | Format::Glb
                | Format::Obj
                | Format::Wings
                | Format::Wdb
                | Format::Mdl,
            ) if model.is_3d() => {
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
                    Format::Mdl => {
                        let (m, more) = mdl::Mdl::from_scene(&scene)?;
                        warnings.extend(more);
                        Ok((Model::Mdl(m), warnings))
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
                    "cannot convert {} to {} (a {} file becomes: {})",
                    model.format().name(),
                    t.name(),
                    model.format().name(),
                    model
                        .targets()
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// The lossless JSON document.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        let limits = Limits::default();
        // A picture's pixels are a hex string of twice their bytes: refused before writing.
        let pixels = match self {
            Model::Pid(p) => p.pixels.len(),
            Model::Pcx(p) => p.scanlines.len(),
            _ => 0,
        };
        limits.check_export(
            Format::Json,
            (pixels as u64).saturating_mul(2),
            "the JSON text of the pixels (two hex digits a byte)",
        )?;
        limits.json_pretty(self)
    }

    /// Parse a lossless JSON document.
    ///
    /// The document is `{"format": …, "model": …}`. The model is read from its own text as
    /// the type the tag names rather than through `Model`'s derived `Deserialize`: that one
    /// buffers the model whenever `model` comes before `format`, which compiles a second reader
    /// of every model (a megabyte of the WebAssembly viewer's 4 MB). Errors inside the model
    /// give their line and column in the whole document.
    pub fn from_json(bytes: &[u8]) -> Result<Model> {
        #[derive(Deserialize)]
        struct Tagged<'a> {
            format: ModelTag,
            #[serde(borrow)]
            model: &'a serde_json::value::RawValue,
        }
        let error = |e: serde_json::Error, (line, column): (usize, usize)| {
            let text = e.to_string();
            let message = text
                .rsplit_once(" at line ")
                .map_or(text.as_str(), |(m, _)| m);
            let location = Location {
                line_col: Some((
                    u32::try_from(line).unwrap_or(u32::MAX),
                    u32::try_from(column).unwrap_or(u32::MAX),
                )),
                ..Location::default()
            };
            Error::new(
                Format::Json,
                ErrorKind::Malformed,
                location,
                format!("not a levelkit model document: {message} at line {line} column {column}"),
            )
        };
        let tagged: Tagged<'_> = serde_json::from_slice(bytes).map_err(|e| {
            let at = (e.line(), e.column());
            error(e, at)
        })?;
        let text = tagged.model.get();
        Model::from_tagged_json(tagged.format, text).map_err(|e| {
            // Where the model's text starts in the document (it is borrowed from `bytes`).
            let start = (text.as_ptr() as usize).saturating_sub(bytes.as_ptr() as usize);
            let before = bytes.get(..start).unwrap_or_default();
            let line = before
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                .saturating_add(1);
            let column = before.iter().rev().take_while(|&&b| b != b'\n').count();
            let at = if e.line() <= 1 {
                (line, column.saturating_add(e.column()))
            } else {
                (line.saturating_add(e.line()).saturating_sub(1), e.column())
            };
            error(e, at)
        })
    }
}
