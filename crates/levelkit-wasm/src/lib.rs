//! levelkit in the browser: the document layer compiled to WebAssembly for the static viewer in
//! `web/` (built by `web/build.sh`). JavaScript drops files into a [`Viewer`], opens one as a
//! [`Document`], and asks it for what `levelkit info`, `validate`, `dump` and `convert` give on
//! the command line; the bytes of a conversion are the CLI's (the same library steps,
//! [`levelkit::document::convert()`]), and a gani's frames are those of `levelkit convert
//! walk.gani walk.gif` (the library's renderer, [`Document::play_gani`]). A dropped image or
//! texture WAD, which is no document, opens as an [`AssetDoc`] (the library's WAD reader and
//! the `image` crate). Nothing format-specific lives here or in the page.
//!
//! Errors cross to JavaScript as JSON strings (`{"kind", "format", "message", "location"}`,
//! the location holding the byte offset or line where the library knows it).

pub mod api;

use levelkit::document::animation::Rendered;
use levelkit::document::convert::Converted;
use levelkit::document::maps::MapArt;
use levelkit::document::textures::Asset;
use levelkit::tilemap::TileMap;
use wasm_bindgen::prelude::*;

use api::{Doc, Workspace, error_json};

/// The files the user dropped.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Viewer {
    ws: Workspace,
}

#[wasm_bindgen]
impl Viewer {
    /// An empty viewer.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Viewer {
        Viewer::default()
    }

    /// Add a dropped file (a document or an asset: a REZ, an image, a WAD).
    pub fn add_file(&mut self, name: &str, bytes: Vec<u8>) {
        self.ws.add(name, bytes);
    }

    /// The format a file's bytes and name tell (`None` for files levelkit does not read).
    pub fn sniff(&self, name: &str) -> Option<String> {
        self.ws.sniff(name).0.map(|f| f.name().to_owned())
    }

    /// Whether a dropped file is an asset other documents draw from (a picture, a game
    /// archive) rather than a document to show first.
    pub fn is_asset(&self, name: &str) -> bool {
        self.ws.sniff(name).1
    }

    /// Read a dropped file as a document; the error is JSON (see the crate docs).
    pub fn open(&self, name: &str) -> Result<Document, String> {
        self.ws
            .open(name)
            .map(|doc| Document {
                doc,
                map: None,
                art: None,
                anim: Vec::new(),
                notes: Vec::new(),
            })
            .map_err(|e| error_json(&e))
    }

    /// What a dropped file that is not a document is shown as (`"image"`, `"wad"`), or `None`
    /// (see [`Workspace::asset_kind`]).
    pub fn asset_kind(&self, name: &str) -> Option<String> {
        self.ws.asset_kind(name).map(str::to_owned)
    }

    /// Read a dropped image or WAD; the error is JSON.
    pub fn open_asset(&self, name: &str) -> Result<AssetDoc, String> {
        self.ws
            .open_asset(name)
            .map(|asset| AssetDoc { asset })
            .map_err(|e| error_json(&e))
    }
}

/// A dropped image or texture WAD.
#[wasm_bindgen]
#[derive(Debug)]
pub struct AssetDoc {
    asset: Asset,
}

#[wasm_bindgen]
impl AssetDoc {
    /// `{"record", "text", "kind": "image"|"wad", "targets", "textures": [names]}`.
    pub fn info(&self) -> String {
        self.asset.info()
    }

    /// `"image"` or `"wad"`.
    pub fn kind(&self) -> String {
        self.asset.kind().to_owned()
    }

    /// The WAD's validation findings (none for an image).
    pub fn validate(&self) -> String {
        self.asset.validate()
    }

    /// `[width, height]` of texture `index` (empty when there is none).
    pub fn texture_size(&self, index: usize) -> Vec<u32> {
        self.asset
            .texture(index)
            .map(|t| vec![t.width, t.height])
            .unwrap_or_default()
    }

    /// The RGBA pixels of texture `index`.
    pub fn texture_rgba(&self, index: usize) -> Vec<u8> {
        self.asset
            .texture(index)
            .map(|t| t.rgba.clone())
            .unwrap_or_default()
    }

    /// The download `target` (`png` of texture `index`, or `json`); the error is JSON.
    pub fn convert(&self, target: &str, index: usize) -> Result<Conversion, String> {
        self.asset
            .convert(target, index)
            .map(|files| Conversion {
                files,
                notes: Vec::new(),
            })
            .map_err(|e| error_json(&e))
    }

    /// The file name of the download `target` of texture `index`.
    pub fn download_name(&self, target: &str, index: usize) -> String {
        self.asset.download_name(target, index)
    }
}

/// One document.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Document {
    doc: Doc,
    map: Option<TileMap>,
    art: Option<MapArt>,
    anim: Vec<Rendered>,
    notes: Vec<String>,
}

#[wasm_bindgen]
impl Document {
    /// `{"record": <info --json>, "text": <info>, "kind": "map"|"scene"|"picture"|"other",
    /// "targets": [extensions]}`.
    pub fn info(&self) -> String {
        self.doc.info()
    }

    /// The validation findings (as `validate --json` lists them).
    pub fn validate(&self) -> String {
        self.doc.validate()
    }

    /// What the page shows it as (`"map"`, `"scene"`, `"picture"`, `"animation"`, `"other"`),
    /// known before [`Document::info`], which tries the conversions its targets list.
    pub fn kind(&self) -> String {
        self.doc.kind().to_owned()
    }

    /// The text of `levelkit dump`.
    pub fn dump_text(&self) -> String {
        self.doc.dump_text()
    }

    /// The common tile map as JSON (`{"map", "warnings"}`, or `null`).
    pub fn map_json(&self) -> String {
        self.doc.map()
    }

    /// Prepare the map's pictures from the viewer's files (see [`Doc::art`]); returns how
    /// many atlases there are (0 for documents that are not maps). Notes go to [`Document::notes`].
    pub fn prepare_art(&mut self, viewer: &Viewer) -> Result<u32, String> {
        let Some((map, _)) = self.doc.model().to_tilemap() else {
            return Ok(0);
        };
        let mut notes = Vec::new();
        let art = self
            .doc
            .art(&viewer.ws, &map, &mut notes)
            .map_err(|e| error_json(&e))?;
        let count = u32::try_from(art.atlases.len()).unwrap_or(u32::MAX);
        self.notes = notes;
        self.map = Some(map);
        self.art = Some(art);
        Ok(count)
    }

    /// The notes of the last [`Document::prepare_art`], as a JSON list of strings.
    pub fn notes(&self) -> String {
        serde_json::to_string(&self.notes).unwrap_or_else(|_| "[]".to_owned())
    }

    /// `[width, height, columns]` of atlas `index` (empty when there is none).
    pub fn atlas_size(&self, index: usize) -> Vec<u32> {
        self.art
            .as_ref()
            .and_then(|a| a.atlases.get(index))
            .map(|i| vec![i.width, i.height, i.columns])
            .unwrap_or_default()
    }

    /// The RGBA pixels of atlas `index`.
    pub fn atlas_rgba(&self, index: usize) -> Vec<u8> {
        self.art
            .as_ref()
            .and_then(|a| a.atlases.get(index))
            .map(|i| i.rgba.clone())
            .unwrap_or_default()
    }

    /// How many object images the game's files gave.
    pub fn sprite_count(&self) -> usize {
        self.art.as_ref().map_or(0, |a| a.sprites.len())
    }

    /// `[object id, left, top, width, height]` of sprite `index` (empty when there is none).
    pub fn sprite_info(&self, index: usize) -> Vec<f64> {
        self.art
            .as_ref()
            .and_then(|a| a.sprites.get(index))
            .map(|(id, s)| {
                // Pixel positions are far inside f64's exact integers.
                #[allow(clippy::cast_precision_loss)]
                let (left, top) = (s.left as f64, s.top as f64);
                vec![
                    f64::from(*id),
                    left,
                    top,
                    f64::from(s.image.width),
                    f64::from(s.image.height),
                ]
            })
            .unwrap_or_default()
    }

    /// The RGBA pixels of sprite `index`.
    pub fn sprite_rgba(&self, index: usize) -> Vec<u8> {
        self.art
            .as_ref()
            .and_then(|a| a.sprites.get(index))
            .map(|(_, s)| s.image.rgba.clone())
            .unwrap_or_default()
    }

    /// Draw a gani in each of its directions with the viewer's images (see [`Doc::gani`]);
    /// returns how many directions there are (0 for documents that are not ganis). Notes go to
    /// [`Document::notes`]; the error is JSON.
    pub fn play_gani(&mut self, viewer: &Viewer) -> Result<u32, String> {
        let Some(drawn) = self.doc.gani(&viewer.ws) else {
            return Ok(0);
        };
        let (anim, notes) = drawn.map_err(|e| error_json(&e))?;
        self.anim = anim;
        self.notes = notes;
        Ok(u32::try_from(self.anim.len()).unwrap_or(u32::MAX))
    }

    /// Direction `index` of the gani drawn by [`Document::play_gani`]: `{"direction",
    /// "width", "height", "anchor", "durations_ms", "loop", "setbackto", "sounds"}` (`null`
    /// when there is none).
    pub fn anim_info(&self, index: usize) -> String {
        self.anim.get(index).map_or_else(
            || "null".to_owned(),
            |r| {
                serde_json::json!({
                    "direction": r.direction,
                    "width": r.animation.width,
                    "height": r.animation.height,
                    "anchor": r.animation.anchor,
                    "durations_ms": r.animation.frames.iter().map(|f| f.duration_ms).collect::<Vec<_>>(),
                    "loop": r.animation.looping,
                    "setbackto": r.set_back_to,
                    "sounds": r.sounds,
                })
                .to_string()
            },
        )
    }

    /// The RGBA pixels of frame `frame` of direction `index` (empty when there is none).
    pub fn anim_frame(&self, index: usize, frame: usize) -> Vec<u8> {
        self.anim
            .get(index)
            .and_then(|r| r.animation.frames.get(frame))
            .map(|f| f.rgba.clone())
            .unwrap_or_default()
    }

    /// The document converted to `target` (an extension: `json`, `tmx`, `glb`, `png`, …), as
    /// `levelkit convert FILE STEM.EXT` writes it; the error is JSON.
    pub fn convert(&self, viewer: &Viewer, target: &str) -> Result<Conversion, String> {
        self.doc
            .convert(&viewer.ws, target)
            .map(|(files, notes)| Conversion { files, notes })
            .map_err(|e| error_json(&e))
    }
}

/// A conversion's files.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Conversion {
    files: Converted,
    notes: Vec<String>,
}

#[wasm_bindgen]
impl Conversion {
    /// The output's bytes.
    pub fn main(&self) -> Vec<u8> {
        self.files.main_bytes().to_vec()
    }

    /// How many side files go beside it.
    pub fn side_count(&self) -> usize {
        self.files.side.len()
    }

    /// Side file `index`'s name.
    pub fn side_name(&self, index: usize) -> String {
        self.files
            .side
            .get(index)
            .map(|(n, _)| n.clone())
            .unwrap_or_default()
    }

    /// Side file `index`'s bytes.
    pub fn side_bytes(&self, index: usize) -> Vec<u8> {
        self.files
            .side
            .get(index)
            .map(|(_, b)| b.clone())
            .unwrap_or_default()
    }

    /// What the conversion noticed, as a JSON list of strings.
    pub fn notes(&self) -> String {
        serde_json::to_string(&self.notes).unwrap_or_else(|_| "[]".to_owned())
    }
}
