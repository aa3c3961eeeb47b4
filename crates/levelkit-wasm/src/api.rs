//! The viewer's API in plain Rust (tested natively; `lib.rs` wraps it for JavaScript).
//!
//! A [`Workspace`] holds every file the user dropped (levels and their assets); a [`Doc`] is one
//! of them read through the document layer. Everything goes through [`Model`] and the library's
//! conversion steps ([`levelkit::document::convert`]), as `levelkit convert` does, so a new
//! format in the `documents!` table appears in the viewer without an edit here.

use std::collections::BTreeMap;

use levelkit::document::convert::{self, Converted, Failure, LegacyOptions, MapArt};
use levelkit::document::{Model, assets, game, image as picture};
use levelkit::export::png::{self, Image};
use levelkit::formats::rez::RezIndex;
use levelkit::registry::{Common, FORMATS};
use levelkit::tilemap::{TileMap, Tileset};
use levelkit::{Error, Format, Limits, Warning};
use serde_json::{Value, json};

/// The image extensions a dropped tile atlas may have (the CLI's `--tiles`).
const IMAGE_EXTENSIONS: [&str; 6] = ["png", "bmp", "gif", "jpg", "jpeg", "tga"];

/// An error as JSON for the page: kind, message (with its location) and the location's parts
/// (byte offset, line and column, model path).
pub fn error_json(e: &Error) -> String {
    json!({
        "kind": e.kind,
        "format": e.format.name(),
        "message": e.to_string(),
        "location": e.location,
    })
    .to_string()
}

/// A message that is not a library error (a usage mistake) as the same JSON shape.
pub fn message_json(kind: &str, message: &str) -> String {
    json!({ "kind": kind, "message": message, "location": Value::Null }).to_string()
}

/// The files the user dropped, by lower-cased base name (the games looked names up ignoring
/// case, and levels name their side files with the author's paths).
#[derive(Debug, Default)]
pub struct Workspace {
    files: BTreeMap<String, (String, Vec<u8>)>,
}

/// The last part of a path written with either kind of slash.
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// Add (or replace) a file.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        let base = base_name(name);
        self.files
            .insert(base.to_ascii_lowercase(), (base.to_owned(), bytes));
    }

    /// The bytes of a dropped file, by name (path and case ignored).
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files
            .get(&base_name(name).to_ascii_lowercase())
            .map(|(_, b)| b.as_slice())
    }

    /// A resolver over the dropped files, for side files a document names.
    fn resolver(&self) -> impl FnMut(&str) -> Option<Vec<u8>> + '_ {
        move |name: &str| self.get(name).map(<[u8]>::to_vec)
    }

    /// The first dropped REZ archive, the game files a WWD level's graphics come from.
    fn rez(&self) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(k, _)| k.ends_with(".rez"))
            .map(|(_, (_, b))| b.as_slice())
    }

    /// Read one dropped file.
    pub fn open(&self, name: &str) -> Result<Doc, Error> {
        let bytes = self.get(name).unwrap_or_default();
        let model = Model::read_with(
            bytes,
            Some(base_name(name)),
            &Limits::default(),
            &mut self.resolver(),
        )?;
        Ok(Doc {
            name: base_name(name).to_owned(),
            model,
        })
    }
}

/// One document read from the workspace.
#[derive(Debug)]
pub struct Doc {
    name: String,
    model: Model,
}

/// What the page shows a document as.
fn kind(model: &Model) -> &'static str {
    if picture::is_picture(model) {
        "picture"
    } else if model.format().info().common == Some(Common::TileMap) {
        "map"
    } else if model.format().info().common == Some(Common::Scene) {
        "scene"
    } else {
        "other"
    }
}

impl Doc {
    /// The file's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The file name without its extension: what outputs are named after.
    fn stem(&self) -> &str {
        self.name
            .rsplit_once('.')
            .map_or(self.name.as_str(), |(s, _)| s)
    }

    /// The extensions this document converts to, as the CLI's `convert --to` names them.
    pub fn targets(&self) -> Vec<&'static str> {
        let from = self.model.format();
        let mut out: Vec<&'static str> = FORMATS
            .iter()
            .filter(|info| {
                // A Tiled world is a folder (the world file and a map per level), not one
                // download.
                info.writable
                    && info.format != Format::TiledWorld
                    && (info.format == from
                        || info.format == Format::Json
                        || (info.format == Format::Png
                            && (picture::is_picture(&self.model) || kind(&self.model) == "map"))
                        || (info.format != Format::Png
                            && from.converts_to(info.format)
                            && self.converts_to(info.format)))
            })
            .map(|info| info.format.extension())
            .collect();
        out.dedup();
        out
    }

    /// Whether a conversion to `format` is one levelkit makes (exchange formats of the same
    /// common model always are; a legacy target is asked of [`Model::convert_to`]).
    fn converts_to(&self, format: Format) -> bool {
        format.info().exchange
            || self
                .model
                .convert_to(format)
                .map_or_else(|e| e.kind != levelkit::ErrorKind::Unsupported, |_| true)
    }

    /// `levelkit info --json`'s record, `levelkit info`'s text, the kind of view, the targets.
    pub fn info(&self) -> String {
        json!({
            "record": self.model.info_record(&self.name),
            "text": self.model.info_text(&self.name),
            "kind": kind(&self.model),
            "targets": self.targets(),
        })
        .to_string()
    }

    /// `levelkit validate --json`'s findings.
    pub fn validate(&self) -> String {
        let findings: Vec<Warning> = self.model.validate();
        serde_json::to_string(&findings).unwrap_or_else(|_| "[]".to_owned())
    }

    /// `levelkit dump`'s text.
    pub fn dump_text(&self) -> String {
        self.model.dump_text(&self.name)
    }

    /// The common tile map as JSON (`null` for documents that are not maps), with the
    /// conversion's warnings.
    pub fn map(&self) -> String {
        match self.model.to_tilemap() {
            Some((map, warnings)) => json!({ "map": map, "warnings": warnings }).to_string(),
            None => "null".to_owned(),
        }
    }

    /// The pictures the map is drawn with: the game's (a dropped REZ), the user's (a dropped
    /// image named after a tileset's image set, `pics1.png`), generated ones otherwise.
    pub fn art(
        &self,
        ws: &Workspace,
        map: &TileMap,
        notes: &mut Vec<String>,
    ) -> Result<MapArt, Error> {
        let mut art = MapArt {
            atlases: Vec::with_capacity(map.tilesets.len()),
            user_tiles: false,
            sprites: Vec::new(),
            legend: false,
        };
        for ts in &map.tilesets {
            let image = match user_atlas(ws, ts, notes) {
                Some(image) => {
                    art.user_tiles = true;
                    image
                }
                None => png::tileset_image(ts)?,
            };
            art.atlases.push(image);
        }
        if let Some(rez) = ws.rez() {
            match RezIndex::read(rez) {
                Ok(index) => {
                    if let Some((mut level_art, warnings)) =
                        game::level_art(&self.model, map, &index)
                    {
                        notes.extend(warnings.iter().map(Warning::to_string));
                        convert::use_tileset_images(map, &mut art, &mut level_art.tileset_images);
                        art.sprites = level_art.sprites;
                    }
                }
                Err(e) => notes.push(format!("the dropped REZ archive is not used: {e}")),
            }
        }
        Ok(art)
    }

    /// The converted file `target` (an extension or format name) and its side files, as
    /// `levelkit convert NAME STEM.EXT` writes them, with the notes it printed.
    pub fn convert(&self, ws: &Workspace, target: &str) -> Result<(Converted, Vec<String>), Error> {
        let mut notes = Vec::new();
        let format = Format::from_name(target)
            .filter(|f| f.info().writable)
            .ok_or_else(|| {
                Error::unsupported(
                    Format::Unknown,
                    levelkit::Location::default(),
                    format!("levelkit cannot write `{target}`"),
                )
            })?;
        let stem = Some(self.stem());
        if format == Format::Png
            && let Some(png) = picture::to_png(&self.model, None)
        {
            return Ok((
                Converted {
                    main: png?,
                    side: Vec::new(),
                },
                notes,
            ));
        }
        let info = format.info();
        if info.exchange && info.common == Some(Common::Scene) {
            let scene = self.scene(ws, &mut notes)?;
            let files = convert::scene_files(&scene, format, stem, &mut notes)?;
            return Ok((files, notes));
        }
        if info.exchange && info.common == Some(Common::TileMap) {
            let Some((map, warnings)) = self.model.to_tilemap() else {
                return Err(Error::unsupported(
                    format,
                    levelkit::Location::default(),
                    format!(
                        "a {} file is not a tile map; it cannot become {}",
                        self.model.format().name(),
                        format.name()
                    ),
                ));
            };
            notes.extend(warnings.iter().map(Warning::to_string));
            let art = self.art(ws, &map, &mut notes)?;
            let files = convert::map_files(&map, format, art, stem)?;
            return Ok((files, notes));
        }
        let main =
            convert::legacy_bytes(&self.model, format, &LegacyOptions::default(), &mut notes)
                .map_err(Failure::into_error)?;
        Ok((
            Converted {
                main,
                side: Vec::new(),
            },
            notes,
        ))
    }

    /// The 3D scene with the textures the dropped files hold.
    fn scene(
        &self,
        ws: &Workspace,
        notes: &mut Vec<String>,
    ) -> Result<levelkit::scene::Scene, Error> {
        let Some((mut scene, warnings)) = self.model.to_scene() else {
            return Err(Error::unsupported(
                Format::Glb,
                levelkit::Location::default(),
                format!("a {} file is not a 3D model", self.model.format().name()),
            ));
        };
        notes.extend(warnings.iter().map(Warning::to_string));
        let found = assets::find_textures(&self.model, &mut scene, &mut ws.resolver());
        notes.extend(found.warnings.iter().map(Warning::to_string));
        if found.from_wads > 0 {
            notes.push(format!(
                "{} of {} materials textured from WADs",
                found.from_wads,
                scene.materials.len()
            ));
        }
        Ok(scene)
    }
}

/// A dropped image that is the atlas of `ts`: named after its image set (`pics1.png` for a
/// Graal level, `ACTION.png` for a WWD plane), laid out in rows of `width / tile width` tiles.
fn user_atlas(ws: &Workspace, ts: &Tileset, notes: &mut Vec<String>) -> Option<Image> {
    let set = ts.name.rsplit('/').next().unwrap_or(&ts.name);
    let (name, bytes) = IMAGE_EXTENSIONS.iter().find_map(|ext| {
        let name = format!("{set}.{ext}");
        ws.get(&name).map(|b| (name, b))
    })?;
    let decoded = match image::load_from_memory(bytes) {
        Ok(d) => d.to_rgba8(),
        Err(e) => {
            notes.push(format!("{name}: not an image levelkit can read: {e}"));
            return None;
        }
    };
    let (width, height) = decoded.dimensions();
    if ts.tile_width == 0 || width < ts.tile_width || height < ts.tile_height {
        notes.push(format!(
            "{name}: a {width}x{height} image cannot hold {}x{} tiles of tileset {:?}",
            ts.tile_width, ts.tile_height, ts.name
        ));
        return None;
    }
    Some(Image {
        width,
        height,
        rgba: decoded.into_raw(),
        columns: width / ts.tile_width,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn samples() -> Vec<(String, Vec<u8>)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x != "bmp"))
            .filter_map(|e| {
                Some((
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).ok()?,
                ))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn every_sample_opens_and_converts_to_every_target_it_offers() {
        let all = samples();
        assert!(all.len() >= 9, "samples/ not found");
        for (name, bytes) in &all {
            let mut ws = Workspace::new();
            ws.add(name, bytes.clone());
            let doc = ws
                .open(name)
                .unwrap_or_else(|e| panic!("{name}: {}", error_json(&e)));
            let info: Value = serde_json::from_str(&doc.info()).unwrap_or_default();
            assert!(
                info["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with(name.as_str()))
            );
            let targets = doc.targets();
            assert!(targets.contains(&"json"), "{name}: {targets:?}");
            for target in targets {
                let result = doc.convert(&ws, target);
                assert!(
                    result.as_ref().is_ok_and(|(c, _)| !c.main.is_empty()),
                    "{name} -> {target}: {:?}",
                    result.err().map(|e| error_json(&e))
                );
            }
            // The JSON is the lossless document `levelkit dump --json` prints.
            let (json, _) = doc.convert(&ws, "json").unwrap_or_default();
            assert_eq!(
                json.main,
                convert::json_document(doc.model()).unwrap_or_default()
            );
            if info["kind"] == "map" {
                let map: Value = serde_json::from_str(&doc.map()).unwrap_or_default();
                assert!(map["map"]["layers"].is_array(), "{name}");
            }
        }
    }

    #[test]
    fn every_sample_converts_to_its_own_format_and_back() {
        // Built alone (as for wasm) levelkit deflates with pure Rust, not C zlib: the compressed
        // samples (a WWD main block, a Wings term) are re-compressed into other deflate bytes
        // that inflate to the same model. Every other sample is rewritten byte for byte.
        const RECOMPRESSED: [&str; 2] = ["claw-like.wwd", "cube.wings"];
        for (name, bytes) in samples() {
            let mut ws = Workspace::new();
            ws.add(&name, bytes.clone());
            let doc = ws
                .open(&name)
                .unwrap_or_else(|e| panic!("{}", error_json(&e)));
            let own = doc.model().format().extension();
            let (out, _) = doc.convert(&ws, own).unwrap_or_default();
            if out.main != bytes {
                assert!(
                    RECOMPRESSED.contains(&name.as_str()),
                    "{name} rewritten differently"
                );
            }
            // Either way the output reads back and rewrites to itself.
            let again = Model::read(&out.main, Some(&name), &Limits::default())
                .unwrap_or_else(|e| panic!("{name}: {}", error_json(&e)));
            assert_eq!(again.write().ok(), Some(out.main), "{name}");
        }
    }

    #[test]
    fn truncated_samples_are_errors_with_a_location() {
        for (name, bytes) in samples() {
            for cut in [0, 1, 7, bytes.len() / 2] {
                let mut ws = Workspace::new();
                let prefix = bytes.get(..cut).unwrap_or_default().to_vec();
                ws.add(&name, prefix);
                if let Err(e) = ws.open(&name) {
                    let v: Value = serde_json::from_str(&error_json(&e)).unwrap_or_default();
                    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
                    assert!(v.get("location").is_some());
                }
            }
        }
    }

    #[test]
    fn a_dropped_atlas_named_after_the_image_set_draws_the_map() {
        let Some((name, bytes)) = samples().into_iter().find(|(n, _)| n.ends_with(".graal")) else {
            return;
        };
        let mut ws = Workspace::new();
        ws.add(&name, bytes);
        let doc = ws
            .open(&name)
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        let Some((map, _)) = doc.model().to_tilemap() else {
            panic!("{name} is not a map");
        };
        let Some(ts) = map.tilesets.first() else {
            return;
        };
        let set = ts.name.rsplit('/').next().unwrap_or(&ts.name).to_owned();
        let (w, h) = (ts.tile_width * 4, ts.tile_height * 4);
        let mut png_bytes = Vec::new();
        image::RgbaImage::from_pixel(w, h, image::Rgba([1, 2, 3, 255]))
            .write_to(
                &mut std::io::Cursor::new(&mut png_bytes),
                image::ImageFormat::Png,
            )
            .unwrap_or_default();
        ws.add(&format!("{set}.png"), png_bytes);
        let mut notes = Vec::new();
        let art = doc.art(&ws, &map, &mut notes).unwrap_or_default();
        assert!(art.user_tiles, "{notes:?}");
        assert_eq!(
            art.atlases.first().map(|a| (a.width, a.columns)),
            Some((w, 4))
        );
    }
}
