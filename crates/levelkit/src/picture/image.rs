//! [`Image`]: RGBA8 pixels, and the blending every drawing does.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

/// The format named in the errors of pictures.
pub(super) const F: Format = Format::Png;

/// The default pixel limit of a render or a tileset image: 64 megapixels (256 MiB of RGBA).
pub const DEFAULT_MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// An RGBA colour, straight (not premultiplied) alpha.
pub type Rgba = [u8; 4];

/// Fully transparent: empty cells.
pub const TRANSPARENT: Rgba = [0, 0, 0, 0];

/// An RGBA8 image, rows top to bottom, 4 bytes a pixel.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
    /// For a tileset image, tiles per row (what a TMX `columns` attribute needs); 0 for a map
    /// render. A user-supplied tileset image in [`RenderOptions::tileset_images`](super::RenderOptions::tileset_images) must set it.
    pub columns: u32,
}

impl Image {
    /// The pixel at (x, y), if inside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgba> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let p = self.rgba.get(i..i + 4)?;
        Some([p_at(p, 0), p_at(p, 1), p_at(p, 2), p_at(p, 3)])
    }

    /// A transparent image, refusing more than `max_pixels`.
    pub(super) fn blank(width: u64, height: u64, max_pixels: u64, what: &str) -> Result<Image> {
        let pixels = width.saturating_mul(height);
        if pixels > max_pixels {
            return Err(Error::new(
                F,
                ErrorKind::LimitExceeded,
                Location::default(),
                format!(
                    "png: {what} would be {width} x {height} = {pixels} pixels, over the limit of \
                     {max_pixels}"
                ),
            ));
        }
        let too_big = || {
            Error::new(
                F,
                ErrorKind::LimitExceeded,
                Location::default(),
                format!("png: {what} of {width} x {height} pixels does not fit in memory"),
            )
        };
        let w = u32::try_from(width).map_err(|_| too_big())?;
        let h = u32::try_from(height).map_err(|_| too_big())?;
        let bytes = usize::try_from(pixels.saturating_mul(4)).map_err(|_| too_big())?;
        Ok(Image {
            width: w,
            height: h,
            rgba: vec![0; bytes],
            columns: 0,
        })
    }

    /// Blend `c` over the pixel at (x, y) (source-over); outside pixels are ignored.
    pub(super) fn blend(&mut self, x: i64, y: i64, c: Rgba) {
        let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) else {
            return;
        };
        if x >= self.width || y >= self.height || c[3] == 0 {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        if let Some(p) = self.rgba.get_mut(i..i + 4) {
            blend_into(p, c);
        }
    }
}

pub(super) fn p_at(p: &[u8], i: usize) -> u8 {
    p.get(i).copied().unwrap_or(0)
}

/// Source-over blending of `c` onto the 4 bytes of `dst`, in integers so the result is the same on
/// every platform.
pub(super) fn blend_into(dst: &mut [u8], c: Rgba) {
    let [r, g, b, a] = c;
    if a == 255 {
        dst.copy_from_slice(&c);
        return;
    }
    if a == 0 {
        return;
    }
    let (a, da) = (u32::from(a), u32::from(p_at(dst, 3)));
    let keep = da * (255 - a) / 255;
    let out_a = a + keep;
    if out_a == 0 {
        return;
    }
    for (i, s) in [r, g, b].into_iter().enumerate() {
        let d = u32::from(p_at(dst, i));
        let v = (u32::from(s) * a + d * keep) / out_a;
        if let Some(slot) = dst.get_mut(i) {
            *slot = v.min(255) as u8;
        }
    }
    if let Some(slot) = dst.get_mut(3) {
        *slot = out_a.min(255) as u8;
    }
}
