//! PNG previews of [`TileMap`]s, and generated tileset images.
//!
//! The games' tile graphics are not ours to ship, so this module draws what the map *means*
//! instead of what it looked like:
//!
//! * [`tileset_image`] generates a readable image for any [`Tileset`]: a grid of tiles, each
//!   painted by its collision attribute when it has one (the per-tile properties the WWD
//!   conversion writes: `type` = `single` / `double` / `mask`), otherwise a muted colour derived
//!   from its id with a 1-px grid line; every tile carries its local id in a built-in 3 × 5 pixel
//!   font. The image's [`Image::columns`] tells a Tiled exporter how to reference it.
//! * [`render`] draws a whole map: every visible tile layer bottom to top, then the objects as
//!   1-px markers on top of everything. Real tileset graphics can be supplied per tileset name in
//!   [`RenderOptions::tileset_images`]; other tilesets use the generated tiles.
//! * With [`RenderOptions::sprites`], objects are drawn with their images (the game's sprites,
//!   Graal NPC pictures) in their group's place in the layer order, and only objects without an
//!   image get a marker; [`RenderOptions::legend`] then colours each marker by its object's class
//!   ([`class_color`]) and lists the classes with their counts in a panel in the top-left corner.
//! * [`encode_png`] writes an [`Image`] as an 8-bit RGBA PNG with the `png` crate.
//!
//! # Colours
//!
//! | tile                                   | colour                                            |
//! |----------------------------------------|---------------------------------------------------|
//! | attribute clear (0)                    | [`CLEAR_COLOR`], light grey, opaque               |
//! | attribute solid (1)                    | [`SOLID_COLOR`], dark grey                        |
//! | attribute ground (2)                   | [`GROUND_COLOR`], brown                           |
//! | attribute climb (3)                    | [`CLIMB_COLOR`], green                            |
//! | attribute death (4)                    | [`DEATH_COLOR`], red                              |
//! | any other (user) attribute value       | a saturated colour hashed from the value          |
//! | `double`                               | outside colour, with the *inclusive* `rect_*` rectangle in the inside colour |
//! | `mask`                                 | per pixel, from the `mask_hex` bytes (row-major, `width` per row); a diagonal hatch when the bytes are missing |
//! | a tile with a `fill_color` property    | [`fill_color`] of the value, unlabelled           |
//! | anything else                          | muted colour hashed from the local id, 1-px darker grid line on its top and left edges |
//! | a gid no tileset covers (in [`render`])| red / black checker                               |
//!
//! Clear is opaque rather than transparent so that ids stay readable on any viewer background;
//! an empty cell (gid 0) is what stays transparent. Labels are black on light pixels and white on
//! dark ones; their glyphs are scaled by `max(1, min(tile width, tile height) / 32)` so they read
//! on 64-px tiles, and a 16-px tile still fits four digits.
//!
//! # What a render draws
//!
//! A render is a flat, editor-like view, laid out as Tiled lays out a map:
//!
//! * every visible tile layer at parallax 1 (parallax factors are not applied, as Tiled's
//!   `tmxrasterizer` does not apply them), so a small wrapping background plane covers only its
//!   own cells in the top-left corner (the WWD `wrap_x`/`wrap_y` properties are not applied);
//! * each layer moved by its pixel offset, rounded to whole pixels. As in Tiled
//!   (`Map::adjustBoundingRectForOffsetsAndImageLayers`), the canvas grows on each side by the
//!   largest offset of any tile layer (visible or not) towards that side, and the map's origin
//!   moves with it, objects included;
//! * tiles whose size differs from the map's bottom-aligned on the left of their cell, as Tiled
//!   draws them (a tall tile reaches into the cells above, and past the canvas on the top row);
//! * objects after all layers, whatever their group's place in the layer order, so that no tile
//!   hides them.
//!
//! # Differences from Tiled's renderer
//!
//! `tests/it/tiled_render.rs` renders every sample and corpus map, exported to TMX and TMJ with the
//! generated tileset images exactly as the CLI writes them, with Tiled 1.8.2's `tmxrasterizer
//! --no-smoothing`, and compares every pixel with [`render`] at full size; the tile layers are
//! identical. What differs, each checked there on the pixels it affects and masked only there:
//!
//! * **Objects.** Ours are 1-px magenta markers (below); Tiled draws its editor shapes: a pin
//!   about 24 px wide standing on a point object, filled and outlined rectangles and polygons
//!   with a 1-px shadow, in the group's colour.
//! * **Background colour.** [`TileMap::background`] fills our canvas; `tmxrasterizer` leaves
//!   the canvas transparent whatever the map's `backgroundcolor`.
//! * **Tint.** Tiled 1.8 multiplies a layer's pixels by its `tintcolor` (alpha included); ours
//!   ignores tints.
//! * **Gids no tileset covers.** Ours draws a red / black checker; Tiled its own red marker.
//! * **Partly transparent pixels.** Qt composites in premultiplied 8-bit ARGB, so where a pixel
//!   is neither opaque nor empty Tiled's colour channels can be off by up to `255 / alpha`; ours
//!   blends straight alpha in integers, and where such a pixel is blended onto an opaque one the
//!   two differ by at most 1 a channel (Qt rounds, ours truncates). Generated tiles are only
//!   ever opaque or empty.
//! * **Downscaling.** `tmxrasterizer -s 1/n` gives the same size as [`Scale::Divisor`] `n` when
//!   `n` divides the map's pixel size, but Qt's nearest-neighbour scaling takes (measured on the
//!   Gruntz sample) pixel `n/2 − 1` of each `n × n` block, where ours takes the block's top-left
//!   pixel: the same pixels at `n = 2`, others from `n = 4` on. So only sizes are compared there.
//!
//! Fractional layer offsets are rounded here; Tiled places the layer at the fraction, which its
//! nearest-neighbour drawing also resolves to whole pixels, possibly rounding halves the other way.

//! # Size limits and downscaling
//!
//! A render is `map.width × tile_width` by `map.height × tile_height` pixels (plus the offset
//! margins above) divided by [`RenderOptions::scale`]. Claw's first level is 384 × 96 tiles of 64 px, 24576 × 6144 = 151
//! megapixels, which at 4 bytes a pixel is more than most callers want in memory; anything over
//! [`RenderOptions::max_pixels`] (default [`DEFAULT_MAX_PIXELS`], 64 Mpx) is refused with
//! [`ErrorKind::LimitExceeded`] *before* anything is allocated. [`Scale::Divisor`] downsamples by
//! an integer factor and [`Scale::Fit`] picks the smallest factor that fits. Downsampling is
//! nearest-neighbour: output pixel `(x, y)` is exactly full-size pixel `(x·n, y·n)`, computed
//! directly, so the full-size image is never built. Object markers are drawn at the output
//! resolution (1 px wide at any scale) at their downscaled positions.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::num::NonZeroU32;

use super::font;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;
use crate::tilemap::{
    Layer, MapObject, Properties, PropertyValue, Shape, TileData, TileMap, Tileset,
};

const F: Format = Format::Png;

/// The default pixel limit of a render or a tileset image: 64 megapixels (256 MiB of RGBA).
pub const DEFAULT_MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// An RGBA colour, straight (not premultiplied) alpha.
pub type Rgba = [u8; 4];

/// Fully transparent: empty cells.
pub const TRANSPARENT: Rgba = [0, 0, 0, 0];
/// Attribute clear (0): passable.
pub const CLEAR_COLOR: Rgba = [226, 230, 236, 255];
/// Attribute solid (1).
pub const SOLID_COLOR: Rgba = [64, 64, 64, 255];
/// Attribute ground (2): one-way platforms.
pub const GROUND_COLOR: Rgba = [150, 96, 40, 255];
/// Attribute climb (3).
pub const CLIMB_COLOR: Rgba = [40, 160, 64, 255];
/// Attribute death (4).
pub const DEATH_COLOR: Rgba = [214, 32, 32, 255];
/// Object markers.
pub const OBJECT_COLOR: Rgba = [255, 0, 255, 255];
/// Label pixels on light tiles.
pub const LABEL_DARK: Rgba = [0, 0, 0, 255];
/// Label pixels on dark tiles.
pub const LABEL_LIGHT: Rgba = [255, 255, 255, 255];

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
    /// render. A user-supplied tileset image in [`RenderOptions::tileset_images`] must set it.
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
    fn blank(width: u64, height: u64, max_pixels: u64, what: &str) -> Result<Image> {
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
    fn blend(&mut self, x: i64, y: i64, c: Rgba) {
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

fn p_at(p: &[u8], i: usize) -> u8 {
    p.get(i).copied().unwrap_or(0)
}

/// Source-over blending of `c` onto the 4 bytes of `dst`, in integers so the result is the same on
/// every platform.
fn blend_into(dst: &mut [u8], c: Rgba) {
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

/// How much a render is downsampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Keep every n-th pixel in each direction (1 = full size). The result must still fit
    /// [`RenderOptions::max_pixels`].
    Divisor(NonZeroU32),
    /// The smallest divisor whose result fits [`RenderOptions::max_pixels`].
    Fit,
}

/// An image placed on the map: its top-left corner in map pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedImage {
    /// The pixels (RGBA, straight alpha).
    pub image: Image,
    /// Left edge in map pixels.
    pub left: i64,
    /// Top edge in map pixels.
    pub top: i64,
}

/// Options of [`render`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// Downsampling; default full size.
    pub scale: Scale,
    /// Largest output accepted, in pixels; default [`DEFAULT_MAX_PIXELS`].
    pub max_pixels: u64,
    /// Real tileset graphics by tileset name, RGBA, laid out in [`Image::columns`] columns of the
    /// tileset's tile size with no margin or spacing. Tiles outside the image fall back to the
    /// generated ones.
    pub tileset_images: BTreeMap<String, Image>,
    /// Images drawn for objects, in drawing order: each `(object id, image)` is drawn when its
    /// object group comes in the layer order (so a plane in front covers it), in place of the
    /// object's marker ([`crate::tilemap::MapObject::id`]).
    pub sprites: Vec<(u32, PlacedImage)>,
    /// Draw object markers (default true) for objects without an image in `sprites`.
    pub objects: bool,
    /// Draw id labels on generated tiles (default true).
    pub labels: bool,
    /// Colour each marker by its object's class and draw a legend of the classes in the top-left
    /// corner (default false): for renders with real graphics, where a marker means "this object
    /// has no image".
    pub legend: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            scale: Scale::Divisor(NonZeroU32::MIN),
            max_pixels: DEFAULT_MAX_PIXELS,
            tileset_images: BTreeMap::new(),
            sprites: Vec::new(),
            objects: true,
            labels: true,
            legend: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Colours

/// SplitMix64's finaliser: a fixed, well-mixed hash so colours never change between releases.
fn mix(v: u64) -> u64 {
    let mut z = v.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hue (0..360), saturation and value (0..=255) to RGB.
fn hsv(h: u32, s: u32, v: u32) -> Rgba {
    let h = h % 360;
    let c = v * s / 255;
    let x = c * (60 - (h % 120).abs_diff(60)) / 60;
    let m = v - c;
    let (r, g, b) = match h / 60 {
        0 => (c, x, 0),
        1 => (x, c, 0),
        2 => (0, c, x),
        3 => (0, x, c),
        4 => (x, 0, c),
        _ => (c, 0, x),
    };
    [(r + m) as u8, (g + m) as u8, (b + m) as u8, 255]
}

/// The colour of a WWD tile attribute value: the five standard ones have fixed colours, any other
/// (the games' user values, such as Gruntz's `0x0A`..) a saturated colour hashed from the value.
pub fn attribute_color(value: i64) -> Rgba {
    match value {
        0 => CLEAR_COLOR,
        1 => SOLID_COLOR,
        2 => GROUND_COLOR,
        3 => CLIMB_COLOR,
        4 => DEATH_COLOR,
        v => {
            let h = mix(v as u64);
            hsv(
                (h % 360) as u32,
                150 + ((h >> 16) % 80) as u32,
                190 + ((h >> 32) % 50) as u32,
            )
        }
    }
}

/// The colour painted for a fill tile's `fill_color` palette index.
///
/// The level's real palette (a `.PAL` inside the game's archives) is not known here, so indices
/// go through a fixed stand-in palette: 0..215 a 6 × 6 × 6 colour cube (`index = 36 r + 6 g + b`,
/// levels 0, 51, .. 255), 216..255 a grey ramp; other values wrap modulo 256.
pub fn fill_color(index: i64) -> Rgba {
    let i = index.rem_euclid(256) as u32;
    if i < 216 {
        let level = |n: u32| (n * 51) as u8;
        [level(i / 36), level(i / 6 % 6), level(i % 6), 255]
    } else {
        let g = (8 + (i - 216) * 6) as u8;
        [g, g, g, 255]
    }
}

/// A muted colour for a tile without attributes, from its local id.
fn neutral_color(id: u32) -> Rgba {
    let h = mix(u64::from(id));
    hsv(
        (h % 360) as u32,
        40 + ((h >> 16) % 40) as u32,
        150 + ((h >> 32) % 50) as u32,
    )
}

fn darker(c: Rgba) -> Rgba {
    let d = |v: u8| (u16::from(v) * 3 / 4) as u8;
    [d(c[0]), d(c[1]), d(c[2]), c[3]]
}

fn label_color(under: Rgba) -> Rgba {
    let [r, g, b, a] = under.map(u32::from);
    let luma = (299 * r + 587 * g + 114 * b) / 1000;
    if a < 128 || luma >= 128 {
        LABEL_DARK
    } else {
        LABEL_LIGHT
    }
}

/// `#AARRGGBB` or `#RRGGBB`.
fn parse_color(s: &str) -> Option<Rgba> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    let v = u32::from_str_radix(hex, 16).ok()?;
    let [a, r, g, b] = v.to_be_bytes();
    match hex.len() {
        8 => Some([r, g, b, a]),
        6 => Some([r, g, b, 255]),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Font

/// An id label: its digits, most significant first, drawn from (`scale`, `scale`).
struct Label {
    digits: [u8; 10],
    len: u32,
    scale: u32,
}

impl Label {
    fn new(id: u32, tile_width: u32, tile_height: u32) -> Label {
        let mut digits = [0u8; 10];
        let mut len = 0u32;
        let mut v = id;
        // Collect least significant first, then reverse the used part.
        loop {
            if let Some(d) = digits.get_mut(len as usize) {
                *d = (v % 10) as u8;
            }
            len += 1;
            v /= 10;
            if v == 0 || len as usize >= digits.len() {
                break;
            }
        }
        if let Some(used) = digits.get_mut(..len as usize) {
            used.reverse();
        }
        Label {
            digits,
            len,
            scale: (tile_width.min(tile_height) / 32).max(1),
        }
    }

    /// Whether the tile pixel (x, y) is set by the label.
    fn covers(&self, x: u32, y: u32) -> bool {
        let s = self.scale;
        let (Some(lx), Some(ly)) = (x.checked_sub(s), y.checked_sub(s)) else {
            return false;
        };
        let (fx, fy) = (lx / s, ly / s);
        let index = fx / font::ADVANCE;
        if index >= self.len {
            return false;
        }
        let Some(&digit) = self.digits.get(index as usize) else {
            return false;
        };
        font::covers(&[char::from(b'0' + digit % 10)], fx % font::ADVANCE, fy)
    }
}

// ---------------------------------------------------------------------------------------------
// Tile styles

/// How one generated tile is painted, resolved once from its properties.
#[derive(Debug, Clone)]
enum Style<'a> {
    Neutral(Rgba),
    Single(Rgba),
    Double {
        outside: Rgba,
        inside: Rgba,
        /// Inclusive left, top, right, bottom.
        rect: (i64, i64, i64, i64),
    },
    Mask {
        /// Two hex digits a pixel.
        hex: &'a [u8],
        width: u32,
    },
    MaskUnknown,
    Fill(Rgba),
    Missing,
}

fn int(p: &Properties, name: &str) -> Option<i64> {
    match p.get(name)? {
        PropertyValue::Int(v) => Some(*v),
        _ => None,
    }
}

fn string<'a>(p: &'a Properties, name: &str) -> Option<&'a str> {
    match p.get(name)? {
        PropertyValue::String(s) => Some(s),
        _ => None,
    }
}

fn style<'a>(tile: Option<&'a TileData>, id: u32, tile_width: u32) -> Style<'a> {
    let Some(p) = tile.map(|t| &t.properties) else {
        return Style::Neutral(neutral_color(id));
    };
    if let Some(index) = int(p, "fill_color") {
        return Style::Fill(fill_color(index));
    }
    match string(p, "type") {
        Some("single") => match int(p, "attribute") {
            Some(a) => Style::Single(attribute_color(a)),
            None => Style::Neutral(neutral_color(id)),
        },
        Some("double") => {
            let side = |name| int(p, name).map_or(TRANSPARENT, attribute_color);
            let edge = |name| int(p, name).unwrap_or(-1);
            Style::Double {
                outside: side("outside"),
                inside: side("inside"),
                rect: (
                    edge("rect_left"),
                    edge("rect_top"),
                    edge("rect_right"),
                    edge("rect_bottom"),
                ),
            }
        }
        Some("mask") => match string(p, "mask_hex") {
            Some(hex) if !hex.is_empty() => Style::Mask {
                hex: hex.as_bytes(),
                width: int(p, "width")
                    .and_then(|w| u32::try_from(w).ok())
                    .filter(|&w| w > 0)
                    .unwrap_or(tile_width),
            },
            _ => Style::MaskUnknown,
        },
        _ => Style::Neutral(neutral_color(id)),
    }
}

fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

impl Style<'_> {
    /// The colour of tile pixel (x, y), before any label.
    fn base(&self, x: u32, y: u32) -> Rgba {
        match self {
            Style::Neutral(c) => {
                if x == 0 || y == 0 {
                    darker(*c)
                } else {
                    *c
                }
            }
            Style::Single(c) | Style::Fill(c) => *c,
            Style::Double {
                outside,
                inside,
                rect: (l, t, r, b),
            } => {
                let (x, y) = (i64::from(x), i64::from(y));
                if (*l..=*r).contains(&x) && (*t..=*b).contains(&y) {
                    *inside
                } else {
                    *outside
                }
            }
            Style::Mask { hex, width } => {
                let i = (u64::from(y) * u64::from(*width) + u64::from(x)) * 2;
                let pair = usize::try_from(i)
                    .ok()
                    .and_then(|i| hex.get(i..i.checked_add(2)?));
                match pair.and_then(|p| Some(hex_digit(*p.first()?)? << 4 | hex_digit(*p.get(1)?)?))
                {
                    Some(v) if x < *width => attribute_color(i64::from(v)),
                    _ => Style::MaskUnknown.base(x, y),
                }
            }
            Style::MaskUnknown => {
                if (x + y) % 8 < 2 {
                    SOLID_COLOR
                } else {
                    CLEAR_COLOR
                }
            }
            Style::Missing => {
                if (x / 4 + y / 4) % 2 == 0 {
                    DEATH_COLOR
                } else {
                    [0, 0, 0, 255]
                }
            }
        }
    }

    fn labelled(&self) -> bool {
        !matches!(self, Style::Fill(_) | Style::Missing)
    }
}

/// A generated tile: its style and label.
struct Generated<'a> {
    style: Style<'a>,
    label: Option<Label>,
}

impl Generated<'_> {
    fn pixel(&self, x: u32, y: u32) -> Rgba {
        let base = self.style.base(x, y);
        match &self.label {
            Some(l) if l.covers(x, y) => label_color(base),
            _ => base,
        }
    }
}

fn generated<'a>(
    ts: &'a Tileset,
    tile: Option<&'a TileData>,
    id: u32,
    labels: bool,
) -> Generated<'a> {
    let style = style(tile, id, ts.tile_width);
    let label = (labels && style.labelled()).then(|| Label::new(id, ts.tile_width, ts.tile_height));
    Generated { style, label }
}

// ---------------------------------------------------------------------------------------------
// Tileset images

/// Columns and rows of a generated tileset image: `columns = ceil(sqrt(tile_count))` (at least 1),
/// so the image is about square, and as many rows as the tiles need.
pub fn tileset_layout(tileset: &Tileset) -> (u32, u32) {
    let n = tileset.tile_count;
    let mut columns = n.isqrt();
    if u64::from(columns) * u64::from(columns) < u64::from(n) {
        columns += 1;
    }
    let columns = columns.max(1);
    (columns, n.div_ceil(columns))
}

/// Generate a readable image of a tileset (see the module docs for the colours), laid out as
/// [`tileset_layout`] says; [`Image::columns`] is set. Fails with [`ErrorKind::LimitExceeded`]
/// when the image would be over [`DEFAULT_MAX_PIXELS`] (a tileset from a hostile file can ask for
/// any size).
pub fn tileset_image(tileset: &Tileset) -> Result<Image> {
    let (columns, rows) = tileset_layout(tileset);
    let (tw, th) = (tileset.tile_width, tileset.tile_height);
    let mut image = Image::blank(
        u64::from(columns) * u64::from(tw),
        u64::from(rows) * u64::from(th),
        DEFAULT_MAX_PIXELS,
        &format!("the image of tileset {:?}", tileset.name),
    )?;
    image.columns = columns;
    let by_id: HashMap<u32, &TileData> = tileset.tiles.iter().map(|t| (t.id, t)).collect();
    for id in 0..tileset.tile_count {
        let tile = generated(tileset, by_id.get(&id).copied(), id, true);
        let (left, top) = (
            u64::from(id % columns) * u64::from(tw),
            u64::from(id / columns) * u64::from(th),
        );
        for y in 0..th {
            let row = (top + u64::from(y)) * u64::from(image.width);
            for x in 0..tw {
                let i = ((row + left + u64::from(x)) * 4) as usize;
                if let Some(p) = image.rgba.get_mut(i..i + 4) {
                    p.copy_from_slice(&tile.pixel(x, y));
                }
            }
        }
    }
    Ok(image)
}

// ---------------------------------------------------------------------------------------------
// Rendering

/// Where a tile's pixels come from in a render.
enum Source<'a> {
    Generated(Generated<'a>),
    /// A user-supplied image and the tile's top-left corner in it.
    Supplied(&'a Image, u32, u32),
}

impl Source<'_> {
    fn pixel(&self, x: u32, y: u32) -> Rgba {
        match self {
            Source::Generated(g) => g.pixel(x, y),
            Source::Supplied(image, left, top) => image
                .pixel(left.saturating_add(x), top.saturating_add(y))
                .unwrap_or(TRANSPARENT),
        }
    }
}

/// The tile size and pixel source of a gid.
fn source<'a>(
    map: &'a TileMap,
    options: &'a RenderOptions,
    by_id: &mut HashMap<String, HashMap<u32, &'a TileData>>,
    gid: u32,
) -> (u32, u32, Source<'a>) {
    let Some((ts, id)) = map.tileset_for(gid) else {
        let g = Generated {
            style: Style::Missing,
            label: None,
        };
        return (map.tile_width, map.tile_height, Source::Generated(g));
    };
    let (tw, th) = (ts.tile_width, ts.tile_height);
    if let Some(image) = options.tileset_images.get(&ts.name) {
        if image.columns > 0 {
            let (left, top) = (
                u64::from(id % image.columns) * u64::from(tw),
                u64::from(id / image.columns) * u64::from(th),
            );
            if left + u64::from(tw) <= u64::from(image.width)
                && top + u64::from(th) <= u64::from(image.height)
            {
                return (tw, th, Source::Supplied(image, left as u32, top as u32));
            }
        }
    }
    let tiles = by_id
        .entry(ts.name.clone())
        .or_insert_with(|| ts.tiles.iter().map(|t| (t.id, t)).collect());
    let tile = tiles.get(&id).copied();
    (
        tw,
        th,
        Source::Generated(generated(ts, tile, id, options.labels)),
    )
}

fn limit_error(message: String) -> Error {
    Error::new(F, ErrorKind::LimitExceeded, Location::default(), message)
}

/// Render a map to an image (see the module docs for what is drawn and what is ignored).
///
/// Fails with [`ErrorKind::LimitExceeded`] when the output would be over
/// [`RenderOptions::max_pixels`] at the chosen [`Scale`].
pub fn render(map: &TileMap, options: &RenderOptions) -> Result<Image> {
    let margins = offset_margins(map);
    let grow = |size: u64, a: i64, b: i64| size.saturating_add(a as u64).saturating_add(b as u64);
    let full_w = grow(
        u64::from(map.width) * u64::from(map.tile_width),
        margins.left,
        margins.right,
    );
    let full_h = grow(
        u64::from(map.height) * u64::from(map.tile_height),
        margins.top,
        margins.bottom,
    );
    let max = options.max_pixels;
    let fits = |s: u64| full_w.div_ceil(s).saturating_mul(full_h.div_ceil(s)) <= max;
    let scale: u64 = match options.scale {
        Scale::Divisor(n) => u64::from(n.get()),
        Scale::Fit => {
            if max == 0 {
                return Err(limit_error(
                    "png: a pixel limit of 0 leaves no room for any image".into(),
                ));
            }
            // sqrt(pixels / max) is a lower bound; the ceilings can need a step or two more.
            let mut s = (full_w.saturating_mul(full_h) / max).isqrt().max(1);
            while !fits(s) {
                s += 1;
            }
            s
        }
    };
    let (out_w, out_h) = (full_w.div_ceil(scale), full_h.div_ceil(scale));
    if !fits(scale) {
        let hint = if scale == 1 {
            "; render it downscaled (Scale::Divisor or Scale::Fit)"
        } else {
            ""
        };
        return Err(limit_error(format!(
            "png: the preview would be {out_w} x {out_h} = {} pixels (map {full_w} x {full_h}, \
             scale 1/{scale}), over the limit of {max}{hint}",
            out_w.saturating_mul(out_h)
        )));
    }
    let mut image = Image::blank(out_w, out_h, max, "the preview")?;
    if let Some(bg) = map.background.as_deref().and_then(parse_color) {
        for p in image.rgba.chunks_exact_mut(4) {
            p.copy_from_slice(&bg);
        }
    }

    let mut by_id = HashMap::new();
    let mut cache: HashMap<u32, (u32, u32, Source<'_>)> = HashMap::new();
    let (cell_w, cell_h) = (i64::from(map.tile_width), i64::from(map.tile_height));
    let (full_w, full_h, s) = (full_w as i64, full_h as i64, scale as i64);
    let drawn: HashSet<u32> = options.sprites.iter().map(|(id, _)| *id).collect();
    let mut legend: BTreeMap<&str, (usize, Rgba)> = BTreeMap::new();
    for layer in &map.layers {
        let layer = match layer {
            Layer::Tiles(layer) => layer,
            Layer::Objects(group) => {
                if group.visible && !options.sprites.is_empty() {
                    let ids: HashSet<u32> = group
                        .objects
                        .iter()
                        .filter(|o| o.visible)
                        .map(|o| o.id)
                        .collect();
                    for (_, placed) in options.sprites.iter().filter(|(id, _)| ids.contains(id)) {
                        let (left, top) = (
                            margins.left.saturating_add(placed.left),
                            margins.top.saturating_add(placed.top),
                        );
                        let size = (
                            i64::from(placed.image.width),
                            i64::from(placed.image.height),
                        );
                        let area = ((left, top), size, (full_w, full_h), s);
                        blit(&mut image, area, |x, y| placed.image.pixel(x, y));
                    }
                }
                continue;
            }
        };
        if !layer.visible {
            continue;
        }
        let lw = layer.width().max(1);
        let (dx, dy) = pixel_offset(layer.offset);
        let (origin_x, origin_y) = (margins.left + dx, margins.top + dy);
        for (i, &gid) in layer.data().iter().enumerate() {
            if gid == 0 {
                continue;
            }
            let (cx, cy) = (i as i64 % i64::from(lw), i as i64 / i64::from(lw));
            let (tw, th, src) = cache
                .entry(gid)
                .or_insert_with(|| source(map, options, &mut by_id, gid));
            let (tw, th) = (i64::from(*tw), i64::from(*th));
            // Tiled's rule: a tile sits on the bottom-left corner of its cell.
            let left = origin_x + cx * cell_w;
            let top = origin_y + (cy + 1) * cell_h - th;
            let area = ((left, top), (tw, th), (full_w, full_h), s);
            blit(&mut image, area, |x, y| Some(src.pixel(x, y)));
        }
    }

    if options.objects {
        for layer in &map.layers {
            let Layer::Objects(group) = layer else {
                continue;
            };
            if !group.visible {
                continue;
            }
            for object in group
                .objects
                .iter()
                .filter(|o| o.visible && !drawn.contains(&o.id))
            {
                let origin = (margins.left as f64, margins.top as f64);
                let color = if options.legend {
                    let entry = legend.entry(object.class.as_str()).or_insert((0, [0; 4]));
                    entry.0 += 1;
                    entry.1 = class_color(&object.class);
                    entry.1
                } else {
                    OBJECT_COLOR
                };
                draw_object(&mut image, object, origin, scale as f64, color);
            }
        }
    }
    if options.legend && !legend.is_empty() {
        draw_legend(&mut image, &legend);
    }
    Ok(image)
}

/// The marker colour of an object class in a render with a legend: a saturated hue hashed from
/// the class name, so a class keeps its colour from render to render.
pub fn class_color(class: &str) -> Rgba {
    let h = class.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let m = mix(h);
    hsv((m % 360) as u32, 220, 255 - ((m >> 16) % 60) as u32)
}

/// Classes listed in a legend before "+N MORE".
const LEGEND_ROWS: usize = 24;

/// The legend: a light panel in the top-left corner with a title and one row per marker class
/// (its colour, its name, how many markers), most frequent first.
fn draw_legend(image: &mut Image, classes: &BTreeMap<&str, (usize, Rgba)>) {
    let mut rows: Vec<(String, Rgba)> = Vec::new();
    let mut sorted: Vec<(&&str, &(usize, Rgba))> = classes.iter().collect();
    sorted.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    let total: usize = classes.values().map(|v| v.0).sum();
    rows.push((format!("MARKERS: {total}"), LABEL_DARK));
    for (class, (count, color)) in sorted.iter().take(LEGEND_ROWS) {
        let name = if class.is_empty() { "(none)" } else { class };
        let name: String = name.chars().take(40).collect();
        rows.push((format!("  {name} {count}"), *color));
    }
    if sorted.len() > LEGEND_ROWS {
        rows.push((
            format!("  +{} MORE", sorted.len() - LEGEND_ROWS),
            LABEL_DARK,
        ));
    }
    let s = i64::from((image.width / 512).clamp(1, 4));
    let line = (i64::from(font::HEIGHT) + 3) * s;
    let widest = rows
        .iter()
        .map(|(t, _)| t.chars().count())
        .max()
        .unwrap_or(0) as i64;
    let (w, h) = (
        (widest * i64::from(font::ADVANCE) + 4) * s,
        line * rows.len() as i64 + 2 * s,
    );
    for y in 0..h {
        for x in 0..w {
            image.blend(x, y, [255, 255, 255, 200]);
        }
    }
    for (i, (text, color)) in rows.iter().enumerate() {
        let top = 2 * s + line * i as i64;
        let chars: Vec<char> = text.chars().collect();
        if i > 0 {
            // The swatch: a marker-coloured square in the indent.
            for y in 0..i64::from(font::HEIGHT) * s {
                for x in 2 * s..(2 * s + 5 * s) {
                    image.blend(x, top + y, *color);
                }
            }
        }
        let text_w = chars.len() as i64 * i64::from(font::ADVANCE) * s;
        for y in 0..i64::from(font::HEIGHT) * s {
            for x in 0..text_w {
                if font::covers(&chars, (x / s) as u32, (y / s) as u32) {
                    image.blend(2 * s + x, top + y, LABEL_DARK);
                }
            }
        }
    }
}

/// Where [`blit`] draws: the source's top-left corner and size in canvas pixels, the canvas's
/// full size, and the sampling step.
type Area = ((i64, i64), (i64, i64), (i64, i64), i64);

/// Blend a source of `size` pixels (`pixel(x, y)`, `None` outside) into the canvas with its
/// top-left corner at canvas pixel `(left, top)`: every output pixel whose sample point (o·s)
/// falls inside the source and the `full` canvas.
fn blit(
    image: &mut Image,
    ((left, top), (w, h), full, s): Area,
    pixel: impl Fn(u32, u32) -> Option<Rgba>,
) {
    let ox0 = ceil_div(left.max(0), s);
    let ox1 = ceil_div(left.saturating_add(w).min(full.0), s);
    let oy0 = ceil_div(top.max(0), s);
    let oy1 = ceil_div(top.saturating_add(h).min(full.1), s);
    for oy in oy0..oy1 {
        let ty = (oy * s - top) as u32;
        let row = oy as usize * image.width as usize;
        for ox in ox0..ox1 {
            let tx = (ox * s - left) as u32;
            let k = (row + ox as usize) * 4;
            if let (Some(p), Some(px)) = (image.rgba.get_mut(k..k + 4), pixel(tx, ty)) {
                blend_into(p, px);
            }
        }
    }
}

/// The atlas of `tileset` in the layout [`tileset_image`] uses: the generated tiles, with each
/// tile of `tiles` (RGBA pixels of the given size, by local id) drawn over its cell in place of
/// the generated one (a smaller image at the cell's top left, a larger one cut).
pub fn compose_atlas<'a>(
    tileset: &Tileset,
    tiles: impl IntoIterator<Item = (u32, (u32, u32, &'a [u8]))>,
) -> Result<Image> {
    let mut atlas = tileset_image(tileset)?;
    let (tw, th, cols) = (
        tileset.tile_width,
        tileset.tile_height,
        atlas.columns.max(1),
    );
    for (id, (w, h, rgba)) in tiles {
        if id >= tileset.tile_count {
            continue;
        }
        let (left, top) = ((id % cols) * tw, (id / cols) * th);
        for y in 0..th {
            for x in 0..tw {
                let dst = (((top + y) as usize) * atlas.width as usize + (left + x) as usize) * 4;
                let px = if x < w && y < h {
                    let src = ((y as usize) * w as usize + x as usize) * 4;
                    rgba.get(src..src + 4)
                } else {
                    None
                };
                if let Some(d) = atlas.rgba.get_mut(dst..dst + 4) {
                    d.copy_from_slice(px.unwrap_or(&TRANSPARENT));
                }
            }
        }
    }
    Ok(atlas)
}

/// A layer offset in whole pixels: rounded, and clamped far enough inside `i64` that sums of a
/// few of them cannot overflow (an offset that large makes the render refuse its size anyway).
fn pixel_offset((x, y): (f64, f64)) -> (i64, i64) {
    const FAR: f64 = (1u64 << 40) as f64;
    // NaN becomes 0 (`as`), as Tiled reads an unparsable offset as 0.
    let c = |v: f64| v.round().clamp(-FAR, FAR) as i64;
    (c(x), c(y))
}

/// How far the canvas grows on each side for the tile layers' offsets.
struct Margins {
    left: i64,
    top: i64,
    right: i64,
    bottom: i64,
}

/// Tiled's rule (`Map::adjustBoundingRectForOffsetsAndImageLayers`): the map's rectangle grows
/// on each side by the largest offset of any tile layer, visible or not, towards that side.
fn offset_margins(map: &TileMap) -> Margins {
    let mut m = Margins {
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
    };
    for layer in &map.layers {
        let Layer::Tiles(layer) = layer else { continue };
        let (x, y) = pixel_offset(layer.offset);
        m.left = m.left.max(-x);
        m.top = m.top.max(-y);
        m.right = m.right.max(x);
        m.bottom = m.bottom.max(y);
    }
    m
}

/// `ceil(a / s)` for `s > 0`, and 0 for `a <= 0` (callers clamp to the image anyway).
fn ceil_div(a: i64, s: i64) -> i64 {
    if a <= 0 { 0 } else { (a - 1) / s + 1 }
}

/// Output coordinate of a map coordinate; NaN becomes 0 and infinities saturate (`as`).
fn to_out(v: f64, scale: f64) -> i64 {
    (v / scale).floor() as i64
}

/// Points are 5 × 5 crosses, rectangles 1-px outlines of their covered pixels, polygons closed
/// 1-px outlines. Tile objects are drawn by their shape like any other.
fn draw_object(image: &mut Image, o: &MapObject, (ox, oy): (f64, f64), scale: f64, color: Rgba) {
    let (x, y) = (to_out(ox + o.x, scale), to_out(oy + o.y, scale));
    match &o.shape {
        Shape::Point => {
            for d in -2..=2 {
                image.blend(x + d, y, color);
                if d != 0 {
                    image.blend(x, y + d, color);
                }
            }
        }
        Shape::Rect { width, height } => {
            let x1 = (to_out(ox + o.x + width, scale) - 1).max(x);
            let y1 = (to_out(oy + o.y + height, scale) - 1).max(y);
            let (w, h) = (i64::from(image.width), i64::from(image.height));
            // Only the visible part of each edge is walked, so huge rectangles cost nothing.
            for xx in x.max(-1)..=x1.min(w) {
                image.blend(xx, y, color);
                image.blend(xx, y1, color);
            }
            for yy in y.max(-1)..=y1.min(h) {
                image.blend(x, yy, color);
                image.blend(x1, yy, color);
            }
        }
        Shape::Polygon(points) => {
            let at = |&(px, py): &(f64, f64)| {
                (to_out(ox + o.x + px, scale), to_out(oy + o.y + py, scale))
            };
            let outline: Vec<(i64, i64)> = points.iter().map(at).collect();
            for (k, &a) in outline.iter().enumerate() {
                let b = outline.get(k + 1).or(outline.first()).copied().unwrap_or(a);
                line(image, a, b, color);
            }
        }
    }
}

/// A 1-px line (Bresenham). Endpoints are first clamped to a band around the image, which bends
/// only lines of absurd length but bounds the work for hostile coordinates.
fn line(image: &mut Image, a: (i64, i64), b: (i64, i64), color: Rgba) {
    let band = 2 * (i64::from(image.width) + i64::from(image.height)) + 2;
    let c = |v: i64| v.clamp(-band, band);
    let (mut x, mut y) = (c(a.0), c(a.1));
    let (x1, y1) = (c(b.0), c(b.1));
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    loop {
        image.blend(x, y, color);
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Encoding

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
