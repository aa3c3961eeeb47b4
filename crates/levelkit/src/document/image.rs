//! The documents that are pictures (PID images, PCX screens, PAL palettes) as PNG, and PNGs as
//! those documents: what `levelkit convert X.PID X.png`, `X.png X.PID` and `--palette` use.
//! The steps themselves are [`crate::formats::pid::png`]'s; this module only routes models.

use super::Model;
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::formats::pid::{Palette, png};
use crate::limits::Limits;
use crate::registry::{Format, sniff};

/// The palette in a file given to draw with: a `.PAL`, a PID or PCX with a palette of its own,
/// or an indexed PNG.
pub fn palette_of(bytes: &[u8], name: Option<&str>, limits: &Limits) -> Result<Palette> {
    if sniff(bytes, name) == Some(Format::Png) {
        return png::palette_from_png(bytes, limits).map(|(p, _)| p);
    }
    let model = Model::read(bytes, name, limits)?;
    let palette = match &model {
        Model::Pal(p) => Some(p.clone()),
        Model::Pid(p) => p.palette.clone(),
        Model::Pcx(p) => p.palette.clone(),
        _ => None,
    };
    palette.ok_or_else(|| {
        Error::new(
            model.format(),
            ErrorKind::Unsupported,
            Location::default(),
            format!(
                "a {} file with no palette of its own cannot give one (use a .PAL, or a PID or \
                 PCX with a palette)",
                model.format().name()
            ),
        )
    })
}

/// Whether `model` is a picture ([`to_png`] gives it as a PNG).
pub fn is_picture(model: &Model) -> bool {
    matches!(model, Model::Pid(_) | Model::Pcx(_) | Model::Pal(_))
}

/// `model` as a PNG when it is a picture (a PID as an indexed PNG that converts back byte for
/// byte, a PCX in RGBA, a palette as a swatch); `None` for other documents. `palette` draws
/// images that have none of their own.
pub fn to_png(model: &Model, palette: Option<&Palette>) -> Option<Result<Vec<u8>>> {
    Some(match model {
        Model::Pid(p) => p.to_png(palette),
        Model::Pcx(p) => p
            .to_rgba(palette)
            .and_then(|rgba| png::rgba_to_png(Format::Pcx, &rgba)),
        Model::Pal(p) => png::palette_to_png(p),
        _ => return None,
    })
}

/// Whether a PNG converts to `format` ([`from_png`]).
pub fn from_png_to(format: Format) -> bool {
    matches!(format, Format::Pid | Format::Pal)
}

/// A PNG as a document in `format` (a PID quantised to `palette` or the PNG's own; the palette
/// of an indexed PNG as a `.PAL`), with warnings for what was quantised or made up.
pub fn from_png(
    bytes: &[u8],
    format: Format,
    palette: Option<&Palette>,
    limits: &Limits,
) -> Result<(Model, Vec<Warning>)> {
    match format {
        Format::Pid => png::pid_from_png(bytes, palette, limits).map(|(p, w)| (Model::Pid(p), w)),
        Format::Pal => png::palette_from_png(bytes, limits).map(|(p, w)| (Model::Pal(p), w)),
        other => Err(Error::unsupported(
            other,
            Location::default(),
            format!(
                "a PNG converts to pid or pal, not {} (levelkit reads PNGs only as images)",
                other.name()
            ),
        )),
    }
}

/// A picture file decoded to RGBA.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, 4 bytes each, rows top to bottom.
    pub rgba: Vec<u8>,
    /// The colour type the file had before it became RGBA.
    pub color: image::ColorType,
}

/// Decode an image file (PNG, BMP, GIF, JPEG, TGA, as the `image` crate reads them; `format`
/// picks the decoder where the bytes have no magic, as TGA) to RGBA, with its size checked
/// against [`Limits::check_picture`] from the header before any pixel is decoded. The one
/// decoder of every picture beside a document: textures, tiles, sprites, NPC images, frames.
pub fn decode_rgba(
    bytes: &[u8],
    format: Option<image::ImageFormat>,
    limits: &Limits,
) -> std::result::Result<Decoded, String> {
    use image::ImageDecoder as _;
    let cursor = std::io::Cursor::new(bytes);
    let mut reader = match format {
        Some(f) => image::ImageReader::with_format(cursor, f),
        None => image::ImageReader::new(cursor)
            .with_guessed_format()
            .map_err(|e| e.to_string())?,
    };
    let mut image_limits = image::Limits::default();
    image_limits.max_alloc = Some(limits.max_alloc as u64);
    reader.limits(image_limits);
    // One decoder: its header gives the size, checked before any pixel is decoded.
    let decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions();
    limits
        .check_picture(Format::Png, width.into(), height.into(), "the picture")
        .map_err(|e| e.message)?;
    if decoder.total_bytes() > limits.max_alloc as u64 {
        return Err(format!(
            "its {} bytes of pixels are over the limit of {} bytes",
            decoder.total_bytes(),
            limits.max_alloc
        ));
    }
    let decoded = image::DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    let color = decoded.color();
    let rgba = decoded.into_rgba8();
    Ok(Decoded {
        width: rgba.width(),
        height: rgba.height(),
        rgba: rgba.into_raw(),
        color,
    })
}
