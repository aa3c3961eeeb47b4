//! The viewer's API in plain Rust (tested natively; `lib.rs` wraps it for JavaScript).
//!
//! A [`Workspace`] holds every file the user dropped (levels and their assets) as the library's
//! [`Dropped`] files; a [`Doc`] is one of them read through the document layer. Every answer is
//! the library's: what a document can become ([`Model::targets`]), the conversion itself
//! ([`levelkit::document::convert()`], the dropped files as its assets, as `levelkit convert`
//! gives it the input's folder), a map's pictures, a gani's frames, an image's or a WAD's
//! textures ([`textures::Asset`]). This crate knows no format.

use std::borrow::Cow;

use levelkit::assets::{Assets, Dropped};
use levelkit::document::animation::{self, Rendered};
use levelkit::document::convert::{self, Converted, Options};
use levelkit::document::maps::{self, MapArt};
use levelkit::document::textures::{self, Asset};
use levelkit::document::{Model, assets, image as picture};
use levelkit::registry::Common;
use levelkit::tilemap::TileMap;
use levelkit::{Error, Format, Limits, Warning};
use serde_json::{Value, json};

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

/// The files the user dropped (found by base name, case ignored: the games looked names up
/// ignoring case, and levels name their side files with the author's paths).
#[derive(Debug, Default)]
pub struct Workspace {
    files: Dropped,
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// Add (or replace) a file.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        self.files.add(name, bytes);
    }

    /// The bytes of a dropped file, by name (path and case ignored).
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name)
    }

    /// The format a dropped file's bytes and name tell, and whether it is an asset (a picture
    /// or a game archive other documents draw from) rather than a document to show first.
    pub fn sniff(&self, name: &str) -> (Option<Format>, bool) {
        let format = self
            .get(name)
            .and_then(|bytes| levelkit::sniff(bytes, Some(name)));
        (format, textures::is_asset_format(format))
    }

    /// The first dropped game archive (a REZ), the files a WWD level's graphics come from.
    fn game_archive(&self) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(name, bytes)| levelkit::sniff(bytes, Some(name)) == Some(Format::Rez))
            .map(|(_, b)| b)
    }

    /// What a dropped file that is not a levelkit document is shown as: `"wad"` for a texture
    /// WAD, `"image"` for a picture; `None` for documents (see [`Workspace::open`]) and for files
    /// the viewer does not show.
    pub fn asset_kind(&self, name: &str) -> Option<&'static str> {
        let bytes = self.get(name)?;
        let kind = textures::kind(name, bytes)?;
        (kind == "wad" || self.open(name).is_err()).then_some(kind)
    }

    /// Read a dropped file that [`Workspace::asset_kind`] names.
    pub fn open_asset(&self, name: &str) -> Result<Asset, Error> {
        Asset::open(name, self.get(name).unwrap_or_default())
    }

    /// Read one dropped file.
    pub fn open(&self, name: &str) -> Result<Doc, Error> {
        let bytes = self.get(name).unwrap_or_default();
        let model = Model::read_with(
            bytes,
            Some(levelkit::assets::base_name(name)),
            &Limits::default(),
            &mut |n: &str| self.files.read(n).map(Cow::into_owned),
        )?;
        Ok(Doc {
            name: levelkit::assets::base_name(name).to_owned(),
            model,
        })
    }

    /// Run `job` with the options the viewer converts with: the dropped files are the
    /// document's assets (atlases named after a tileset's image set, `pics1.png`; images;
    /// textures), and a dropped REZ is the game's files a WWD level is drawn with.
    fn with_options<T>(
        &self,
        output_name: Option<String>,
        notes: &mut Vec<String>,
        job: impl FnOnce(&Options<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let index = match self.game_archive().map(assets::game_archive) {
            Some(Ok(index)) => Some(index),
            Some(Err(e)) => {
                notes.push(format!("the dropped REZ archive is not used: {e}"));
                None
            }
            None => None,
        };
        let options = Options {
            output_name,
            game: index.as_ref().map(|i| i as &dyn Assets),
            ..Options::default()
        };
        job(&options)
    }
}

/// A gani drawn in each of its directions, with the notes made on the way ([`Doc::gani`]).
pub type GaniFrames = (Vec<Rendered>, Vec<String>);

/// One document read from the workspace.
#[derive(Debug)]
pub struct Doc {
    name: String,
    model: Model,
}

/// What the page shows a document as.
fn kind(model: &Model) -> &'static str {
    if model.format() == Format::Gani {
        "animation"
    } else if picture::is_picture(model) {
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

    /// What the page shows the document as: `"map"`, `"scene"`, `"picture"`, `"animation"`
    /// or `"other"`.
    pub fn kind(&self) -> &'static str {
        kind(&self.model)
    }

    /// The extensions this document converts to ([`Model::targets`]), as the CLI's `convert
    /// --to` names them; a Tiled world (a world file and a map per level) is left out, since it
    /// is a folder rather than one download.
    pub fn targets(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = self
            .model
            .targets()
            .into_iter()
            .filter(|f| *f != Format::TiledWorld)
            .map(Format::extension)
            .collect();
        out.dedup();
        out
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

    /// The pictures the map is drawn with ([`maps::map_art`]): the game's (a dropped REZ), the
    /// user's (a dropped image named after a tileset's image set, `pics1.png`), NPC images,
    /// generated ones otherwise.
    pub fn art(
        &self,
        ws: &Workspace,
        map: &TileMap,
        notes: &mut Vec<String>,
    ) -> Result<MapArt, Error> {
        let mut art_notes = Vec::new();
        let art = ws.with_options(None, notes, |options| {
            maps::map_art(&self.model, map, options, &ws.files, &mut art_notes)
        });
        notes.append(&mut art_notes);
        art
    }

    /// The converted file `target` (an extension or format name) and its side files, as
    /// `levelkit convert NAME STEM.EXT` writes them, with the notes it printed.
    pub fn convert(&self, ws: &Workspace, target: &str) -> Result<(Converted, Vec<String>), Error> {
        // The document's own targets first: `wmp` is a WMPB level's own format for a WMPB file.
        let wanted = target.trim_start_matches('.').to_ascii_lowercase();
        let format = self
            .model
            .targets()
            .into_iter()
            .find(|f| f.name() == wanted)
            .or_else(|| {
                self.model
                    .targets()
                    .into_iter()
                    .find(|f| f.extension() == wanted)
            })
            .or_else(|| Format::from_name(target).filter(|f| f.info().writable))
            .ok_or_else(|| {
                Error::unsupported(
                    Format::Unknown,
                    levelkit::Location::default(),
                    format!("levelkit cannot write `{target}`"),
                )
            })?;
        let mut notes = Vec::new();
        let name = format!("{}.{}", self.stem(), format.extension());
        let mut done = ws.with_options(Some(name), &mut notes, |options| {
            convert::convert(&self.model, format, options, &ws.files).map_err(|f| f.error)
        })?;
        notes.append(&mut done.notes);
        Ok((done, notes))
    }

    /// The gani drawn in each of its directions (up, left, down, right, or its only one) with
    /// the dropped images, placeholders for the missing (a page that shows nothing for a gani
    /// dropped alone tells its user nothing), by the library's renderer as
    /// `levelkit convert walk.gani walk.gif --placeholders` draws it, with what was noticed on
    /// the way; `None` for other documents.
    pub fn gani(&self, ws: &Workspace) -> Option<Result<GaniFrames, Error>> {
        let Model::Gani(gani) = &self.model else {
            return None;
        };
        Some(animation::frames(gani, &viewer_gani_options(), &ws.files))
    }
}

/// The options the page draws a gani with: every direction, missing images as placeholders.
fn viewer_gani_options() -> Options<'static> {
    Options {
        placeholders: true,
        ..Options::default()
    }
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
            .filter(|e| {
                e.path()
                    .extension()
                    .is_some_and(|x| x != "gif" && x != "bmp" && x != "png")
            })
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
                    result
                        .as_ref()
                        .is_ok_and(|(c, _)| !c.main_bytes().is_empty() || !c.side.is_empty()),
                    "{name} -> {target}: {:?}",
                    result.err().map(|e| error_json(&e))
                );
            }
            // The JSON is the lossless document `levelkit dump --json` prints.
            let (json, _) = doc.convert(&ws, "json").unwrap_or_default();
            assert_eq!(
                json.main_bytes(),
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
            if out.main_bytes() != bytes {
                assert!(
                    RECOMPRESSED.contains(&name.as_str()),
                    "{name} rewritten differently"
                );
            }
            // Either way the output reads back and rewrites to itself.
            let again = Model::read(out.main_bytes(), Some(&name), &Limits::default())
                .unwrap_or_else(|e| panic!("{name}: {}", error_json(&e)));
            assert_eq!(again.write().ok().as_deref(), out.main.as_deref(), "{name}");
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

    fn png_of(w: u32, h: u32, rgba: [u8; 4]) -> Vec<u8> {
        let mut out = Vec::new();
        image::RgbaImage::from_pixel(w, h, image::Rgba(rgba))
            .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap_or_default();
        out
    }

    fn walk() -> (Workspace, Doc) {
        let bytes = samples()
            .into_iter()
            .find(|(n, _)| n == "walk.gani")
            .map(|(_, b)| b)
            .unwrap_or_default();
        let mut ws = Workspace::new();
        ws.add("walk.gani", bytes);
        let doc = ws
            .open("walk.gani")
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        (ws, doc)
    }

    #[test]
    fn a_gani_is_drawn_in_four_directions_as_the_cli_draws_it() {
        let (ws, doc) = walk();
        let info: Value = serde_json::from_str(&doc.info()).unwrap_or_default();
        assert_eq!(info["kind"], "animation");
        let Some(Ok((drawn, notes))) = doc.gani(&ws) else {
            panic!("walk.gani is not drawn");
        };
        let directions: Vec<_> = drawn.iter().map(|r| r.direction).collect();
        assert_eq!(
            directions,
            [Some("up"), Some("left"), Some("down"), Some("right")]
        );
        assert!(drawn.iter().all(|r| r.animation.frames.len() > 1));
        // Nothing dropped: every image is a placeholder, and the warnings say which.
        assert!(notes.iter().any(|n| n.contains("body.png")), "{notes:?}");
        // The library's renderer with no images is what the page shows.
        let Model::Gani(g) = doc.model() else {
            panic!("not a gani");
        };
        let (direct, _) = animation::frames(g, &viewer_gani_options(), &levelkit::assets::NoAssets)
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        assert!(direct == drawn);
    }

    #[test]
    fn a_gani_uses_the_dropped_images_and_their_other_extensions() {
        let (mut ws, doc) = walk();
        let Some(Ok((placeholders, _))) = doc.gani(&ws) else {
            panic!("walk.gani is not drawn");
        };
        // body.png asked for, body.gif dropped (as the CLI finds head19.gif for head19.png).
        let mut gif = Vec::new();
        image::RgbaImage::from_pixel(128, 128, image::Rgba([10, 200, 30, 255]))
            .write_to(&mut std::io::Cursor::new(&mut gif), image::ImageFormat::Gif)
            .unwrap_or_default();
        ws.add("BODY.GIF", gif);
        let Some(Ok((drawn, notes))) = doc.gani(&ws) else {
            panic!("walk.gani is not drawn");
        };
        assert!(
            notes
                .iter()
                .any(|n| n == "body.png: not found; using body.gif"),
            "{notes:?}"
        );
        assert!(drawn != placeholders);
        let green = drawn.iter().flat_map(|r| &r.animation.frames).any(|f| {
            f.rgba
                .chunks_exact(4)
                .any(|p| p.first() == Some(&10) && p.get(1) == Some(&200))
        });
        assert!(green, "the dropped body image is not drawn");
        // A file that is not an image is noted and drawn as a placeholder.
        ws.add("body.png", b"not a picture".to_vec());
        let Some(Ok((_, notes))) = doc.gani(&ws) else {
            panic!("walk.gani is not drawn");
        };
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("body.png: not an image levelkit can read")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_png_alone_opens_as_an_image() {
        let mut ws = Workspace::new();
        ws.add("pics/Tiles.PNG", png_of(5, 3, [1, 2, 3, 255]));
        assert_eq!(ws.asset_kind("tiles.png"), Some("image"));
        let asset = ws
            .open_asset("tiles.png")
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        let info: Value = serde_json::from_str(&asset.info()).unwrap_or_default();
        assert_eq!(info["kind"], "image");
        assert_eq!(
            (
                info["record"]["width"].as_u64(),
                info["record"]["height"].as_u64()
            ),
            (Some(5), Some(3))
        );
        assert!(
            info["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("tiles.png: PNG image, 5 x 3")),
            "{info}"
        );
        let t = asset
            .texture(0)
            .map(|t| (t.width, t.height, t.rgba.get(..4).map(<[u8]>::to_vec)));
        assert_eq!(t, Some((5, 3, Some(vec![1, 2, 3, 255]))));
        let png = asset
            .convert("png", 0)
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        let back = image::load_from_memory(png.main_bytes())
            .map(|i| i.to_rgba8().into_raw())
            .unwrap_or_default();
        assert_eq!(back.len(), 5 * 3 * 4);
        assert!(back.chunks_exact(4).all(|p| p == [1, 2, 3, 255]));
        assert_eq!(asset.download_name("png", 0), "tiles.png");
        assert!(asset.convert("tmx", 0).is_err());
        // Broken image bytes are an error, not a panic.
        let mut broken = png_of(5, 3, [1, 2, 3, 255]);
        broken.truncate(30);
        ws.add("broken.png", broken);
        assert_eq!(ws.asset_kind("broken.png"), Some("image"));
        let e = ws
            .open_asset("broken.png")
            .err()
            .map(|e| error_json(&e))
            .unwrap_or_default();
        assert!(
            e.contains("broken.png: not an image levelkit can read"),
            "{e}"
        );
        // Documents are not assets.
        ws.add(
            "walk.gani",
            walk().0.get("walk.gani").unwrap_or_default().to_vec(),
        );
        assert_eq!(ws.asset_kind("walk.gani"), None);
    }

    #[test]
    fn a_wad_alone_lists_its_textures() {
        let a: Vec<u8> = (0..64u8).collect();
        let b = vec![7u8; 32];
        let bytes = textures::write_wad2(&[("brick", 8, 8, &a), ("floor_2", 4, 8, &b)]);
        let mut ws = Workspace::new();
        ws.add("level.wad", bytes.clone());
        assert_eq!(ws.asset_kind("LEVEL.WAD"), Some("wad"));
        let asset = ws
            .open_asset("level.wad")
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        let info: Value = serde_json::from_str(&asset.info()).unwrap_or_default();
        assert_eq!(info["kind"], "wad");
        assert_eq!(info["textures"], json!(["brick", "floor_2"]));
        assert_eq!(info["record"]["format"], "wad2");
        assert_eq!(asset.validate(), "[]");
        assert_eq!(asset.texture(1).map(|t| (t.width, t.height)), Some((4, 8)));
        assert_eq!(asset.download_name("png", 1), "level.floor_2.png");
        let png = asset
            .convert("png", 1)
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        assert_eq!(
            image::load_from_memory(png.main_bytes())
                .map(|i| (i.width(), i.height()))
                .ok(),
            Some((4, 8))
        );
        // The JSON is the WAD byte for byte: it writes back to the file.
        let json = asset
            .convert("json", 0)
            .unwrap_or_else(|e| panic!("{}", error_json(&e)));
        let file: textures::WadFile =
            serde_json::from_slice(json.main_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(file.write().ok(), Some(bytes.clone()));
        assert!(asset.convert("png", 2).is_err());
        // Every prefix is an error or a WAD, never a panic.
        for cut in 0..bytes.len() {
            ws.add("cut.wad", bytes.get(..cut).unwrap_or_default().to_vec());
            if let Err(e) = ws.open_asset("cut.wad") {
                assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn textured_scenes_convert_to_the_cli_golden_gltf_byte_for_byte() {
        // This build deflates without C zlib; the goldens were written by the CLI, which has
        // it: the embedded PNG textures must still be the same bytes. (This test was ignored
        // for a while because room.wmp and world.wdb "differed": `samples()` leaves the texture
        // files out, so the workspace had none and the scenes came out untextured.)
        let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        let textures: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                e.path()
                    .extension()
                    .is_some_and(|x| x == "gif" || x == "bmp" || x == "png" || x == "mdl")
            })
            .filter_map(|e| {
                Some((
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).ok()?,
                ))
            })
            .collect();
        // The files the scenes name: textures, and the crate `room.wmp` places.
        assert!(textures.len() >= 2, "the sample textures are missing");
        let mut ws = Workspace::new();
        for (n, b) in &textures {
            ws.add(n, b.clone());
        }
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        for (name, bytes) in std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                Some((
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).ok()?,
                ))
            })
            .filter(|(n, _)| ["cube.wings", "room.wmp", "world.wdb"].contains(&n.as_str()))
        {
            ws.add(&name, bytes);
            let doc = ws
                .open(&name)
                .unwrap_or_else(|e| panic!("{}", error_json(&e)));
            // As `levelkit convert NAME - --to gltf` writes it (embedded), the goldens' command.
            let mut notes = Vec::new();
            let out = ws
                .with_options(None, &mut notes, |options| {
                    convert::convert(doc.model(), Format::Gltf, options, &ws.files)
                        .map_err(|f| f.error)
                })
                .unwrap_or_else(|e| panic!("{}", error_json(&e)));
            assert!(
                String::from_utf8_lossy(out.main_bytes()).contains("data:image/png;base64,"),
                "{name}"
            );
            let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
            let want = std::fs::read(golden.join(format!("{stem}.gltf"))).unwrap_or_default();
            assert!(
                out.main_bytes() == want,
                "{name}: the .gltf differs from tests/golden/{stem}.gltf"
            );
        }
    }
}
