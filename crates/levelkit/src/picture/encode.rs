//! [`encode_png`]: an [`Image`] as PNG bytes.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use super::image::{F, Image};
use crate::encoding::{PngColor, PngImage, encode_png as encode};
use crate::error::{Error, ErrorKind, Location, Result};

/// Encode an image as an 8-bit RGBA PNG, with `encoding::encode_png` (no metadata, so the same
/// image always gives the same bytes, in every build).
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
    let png = PngImage::new(image.width, image.height, PngColor::Rgba, &image.rgba);
    encode(&png).map_err(|e| {
        Error::new(
            F,
            ErrorKind::Io,
            Location::default(),
            format!("png: encoding failed: {e}"),
        )
    })
}
