//! [`encode_png`]: an [`Image`] as PNG bytes.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use super::image::{F, Image};
use crate::error::{Error, ErrorKind, Location, Result};

/// Encode an image as an 8-bit RGBA PNG (default compression, no metadata, so the same image
/// always gives the same bytes).
pub fn encode_png(image: &Image) -> Result<Vec<u8>> {
    let expected = u64::from(image.width) * u64::from(image.height) * 4;
    if image.rgba.len() as u64 != expected {
        return Err(Error::new(
            F,
            ErrorKind::Malformed,
            Location::default(),
            format!(
                "png: a {} x {} image needs {expected} bytes of RGBA, not {}",
                image.width,
                image.height,
                image.rgba.len()
            ),
        ));
    }
    if image.width == 0 || image.height == 0 {
        return Err(Error::new(
            F,
            ErrorKind::Unsupported,
            Location::default(),
            format!(
                "png: cannot encode an empty {} x {} image",
                image.width, image.height
            ),
        ));
    }
    let failed = |e: png::EncodingError| {
        Error::new(
            F,
            ErrorKind::Io,
            Location::default(),
            format!("png: encoding failed: {e}"),
        )
    };
    let mut out = Vec::new();
    let mut encoder = crate::encoding::png_encoder(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&image.rgba).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(crate::encoding::png_deflated(out))
}
