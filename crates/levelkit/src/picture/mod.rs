//! Pictures: PNG previews of [`TileMap`]s, and generated tileset images.
//!
//! * `image.rs`: [`Image`] (RGBA8 pixels) and blending;
//! * `color.rs`: the colours of tiles, markers and labels;
//! * `font.rs`: the built-in 3 × 5 pixel font, `label.rs`: id labels drawn with it;
//! * `tile.rs`: the generated picture of one tile;
//! * `atlas.rs`: tileset images ([`tileset_image`], [`compose_atlas`]);
//! * `render.rs`: a whole map as one picture ([`render`]);
//! * `encode.rs`: [`encode_png`].
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
//! * [`encode_png`] writes an [`Image`] as an 8-bit RGBA PNG with levelkit's one PNG encoder
//!   (rows filtered per image, one zlib-rs pass: the same bytes in every build).
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

mod atlas;
mod color;
mod encode;
pub mod font;
mod image;
mod label;
mod render;
mod tile;

pub use atlas::{compose_atlas, tileset_image, tileset_layout};
pub use color::{
    CLEAR_COLOR, CLIMB_COLOR, DEATH_COLOR, GROUND_COLOR, LABEL_DARK, LABEL_LIGHT, OBJECT_COLOR,
    SOLID_COLOR, attribute_color, class_color, fill_color,
};
pub use encode::encode_png;
pub use image::{DEFAULT_MAX_PIXELS, Image, Rgba, TRANSPARENT};
pub use render::{PlacedImage, RenderOptions, Scale, render};

#[cfg(doc)]
use crate::{
    error::ErrorKind,
    tilemap::{TileMap, Tileset},
};
