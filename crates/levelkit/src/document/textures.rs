//! Files that are not documents but that a viewer shows on their own: a picture (PNG, BMP, GIF,
//! JPEG, TGA) and a texture WAD (WAD2, WAD3, WAD7) with its textures, read by the library's WAD
//! reader (the one levels are textured with). [`kind`] tells them apart; [`Asset::open`] reads
//! one.

use serde_json::{Value, json};

use super::convert::Converted;
use super::tiles::IMAGE_EXTENSIONS;
use crate::assets::base_name;
use crate::error::{Error, Location, Warning};
use crate::formats::wad;
pub use crate::formats::wad::{WadFile, WadTexture, write_wad2};
use crate::picture::{self as png, Image};
use crate::registry::Format;

/// What a file is shown as when it is not a document: `"wad"` for a texture WAD, `"image"` for
/// a picture (by its bytes or its extension); `None` for anything else.
pub fn kind(name: &str, bytes: &[u8]) -> Option<&'static str> {
    if matches!(bytes.get(..4), Some(b"WAD2" | b"WAD3" | b"WAD7")) {
        return Some("wad");
    }
    let extension = base_name(name)
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    let image = image::guess_format(bytes).is_ok()
        || extension.is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.as_str()));
    image.then_some("image")
}

/// Whether files of `format` are what other documents draw from rather than documents to show
/// among several dropped together: pictures (PNG, GIF) and game archives (REZ).
pub fn is_asset_format(format: Option<Format>) -> bool {
    matches!(format, None | Some(Format::Png | Format::Gif | Format::Rez))
}

/// A dropped file that is not a levelkit document but that the viewer shows: an image, or a
/// texture WAD with its textures (read by the library's WAD reader, the one levels are
/// textured with).
#[derive(Debug)]
pub struct Asset {
    name: String,
    kind: &'static str,
    record: Value,
    text: String,
    /// The pictures: the image itself, or the WAD's decoded textures (name and RGBA).
    textures: Vec<wad::WadTexture>,
    /// The WAD kept byte for byte (its lossless JSON and validation).
    file: Option<WadFile>,
}

impl Asset {
    /// Read a file that [`kind`] names; an error for anything else.
    pub fn open(name: &str, bytes: &[u8]) -> Result<Asset, Error> {
        match kind(name, bytes) {
            Some("wad") => Asset::wad(base_name(name), bytes),
            Some(_) => Asset::image(base_name(name), bytes),
            None => Err(Error::unsupported(
                Format::Unknown,
                Location::default(),
                format!("{}: neither an image nor a WAD", base_name(name)),
            )),
        }
    }

    /// A picture the `image` crate decodes.
    pub fn image(name: &str, bytes: &[u8]) -> Result<Asset, Error> {
        let format = image::guess_format(bytes).ok().or_else(|| {
            name.rsplit_once('.')
                .and_then(|(_, e)| image::ImageFormat::from_extension(e))
        });
        let decoded = super::image::decode_rgba(bytes, format, &crate::limits::Limits::default())
            .map_err(|e| {
            Error::malformed(
                Format::Png,
                crate::Location::default(),
                format!("{name}: not an image levelkit can read: {e}"),
            )
        })?;
        let color = format!("{:?}", decoded.color);
        let (width, height, rgba) = (decoded.width, decoded.height, decoded.rgba);
        let format_name = format.map_or("image", |f| {
            f.extensions_str().first().copied().unwrap_or("image")
        });
        Ok(Asset {
            name: name.to_owned(),
            kind: "image",
            record: json!({
                "file": name,
                "format": format_name,
                "width": width,
                "height": height,
                "color": color,
                "bytes": bytes.len(),
            }),
            text: format!(
                "{name}: {} image, {width} x {height}, {color}, {} bytes",
                format_name.to_ascii_uppercase(),
                bytes.len()
            ),
            textures: vec![wad::WadTexture {
                name: name.to_owned(),
                width,
                height,
                rgba,
            }],
            file: None,
        })
    }

    /// A texture WAD: its directory (kept byte for byte) and the textures the library decodes.
    pub fn wad(name: &str, bytes: &[u8]) -> Result<Asset, Error> {
        let file = wad::read_file(bytes)?;
        let decoded = wad::read(bytes, None)?;
        let magic = String::from_utf8_lossy(&file.magic).into_owned();
        let mut text = format!(
            "{name}: {magic} texture WAD, {} entries, {} textures decoded",
            file.entries.len(),
            decoded.textures.len()
        );
        for t in &decoded.textures {
            text.push_str(&format!("\n  {} {} x {}", t.name, t.width, t.height));
        }
        for (n, kind) in &decoded.skipped {
            text.push_str(&format!(
                "\n  {n} (type 0x{kind:02x}, not a texture levelkit decodes)"
            ));
        }
        let record = json!({
            "file": name,
            "format": magic.to_ascii_lowercase(),
            "entries": file.entries.len(),
            "textures": decoded.textures.iter()
                .map(|t| json!({ "name": t.name, "width": t.width, "height": t.height }))
                .collect::<Vec<_>>(),
            "skipped": decoded.skipped.iter()
                .map(|(n, kind)| json!({ "name": n, "type": kind }))
                .collect::<Vec<_>>(),
        });
        Ok(Asset {
            name: name.to_owned(),
            kind: "wad",
            record,
            text,
            textures: decoded.textures,
            file: Some(file),
        })
    }

    /// `{"record", "text", "kind": "image"|"wad", "targets", "textures": [names]}`, the shape
    /// of the viewer's document info.
    pub fn info(&self) -> String {
        json!({
            "record": self.record,
            "text": self.text,
            "kind": self.kind,
            "targets": self.targets(),
            "textures": self.textures.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        })
        .to_string()
    }

    /// `"image"` or `"wad"`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The downloads: the picture as PNG, the WAD as its lossless JSON and its textures as
    /// PNGs.
    pub fn targets(&self) -> Vec<&'static str> {
        if self.file.is_some() {
            vec!["json", "png"]
        } else {
            vec!["png"]
        }
    }

    /// The WAD's findings (none for an image).
    pub fn validate(&self) -> String {
        let findings: Vec<Warning> = self
            .file
            .as_ref()
            .map(WadFile::validate)
            .unwrap_or_default();
        serde_json::to_string(&findings).unwrap_or_else(|_| "[]".to_owned())
    }

    /// Texture `index` (name, size, RGBA).
    pub fn texture(&self, index: usize) -> Option<&wad::WadTexture> {
        self.textures.get(index)
    }

    /// The download `target`: `png` (the image, or the WAD's texture `index`) or `json` (the
    /// WAD byte for byte, as JSON).
    pub fn convert(&self, target: &str, index: usize) -> Result<Converted, Error> {
        let main = match (target, &self.file) {
            ("json", Some(file)) => serde_json::to_vec_pretty(file).map_err(|e| {
                Error::new(
                    Format::Json,
                    crate::ErrorKind::Io,
                    crate::Location::default(),
                    e.to_string(),
                )
            })?,
            ("png", _) => {
                let t = self.textures.get(index).ok_or_else(|| {
                    Error::unsupported(
                        Format::Png,
                        crate::Location::default(),
                        format!("{}: no texture {index}", self.name),
                    )
                })?;
                png::encode_png(&Image {
                    width: t.width,
                    height: t.height,
                    rgba: t.rgba.clone(),
                    columns: 1,
                })?
            }
            _ => {
                return Err(Error::unsupported(
                    Format::Unknown,
                    crate::Location::default(),
                    format!("{}: the viewer makes no `{target}` of it", self.name),
                ));
            }
        };
        Ok(Converted::of(main))
    }

    /// The name a download of `target` gets: `STEM.json`, `STEM.png`, or `STEM.TEXTURE.png`
    /// for a WAD's texture.
    pub fn download_name(&self, target: &str, index: usize) -> String {
        let stem = self
            .name
            .rsplit_once('.')
            .map_or(self.name.as_str(), |(s, _)| s);
        match (target, &self.file, self.textures.get(index)) {
            ("png", Some(_), Some(t)) => format!("{stem}.{}.png", safe_name(&t.name)),
            _ => format!("{stem}.{target}"),
        }
    }
}

/// A texture name as a file name: only letters, digits, `-` and `_` kept.
fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
