//! [`render`]: a whole tile map as one picture, with object markers or sprites and a legend.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::num::NonZeroU32;

use super::color::{LABEL_DARK, OBJECT_COLOR, class_color, parse_color};
use super::font;
use super::image::{DEFAULT_MAX_PIXELS, F, Image, Rgba, TRANSPARENT, blend_into};
use super::tile::{Generated, Style, generated};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::tilemap::{Layer, MapObject, Shape, TileData, TileMap};

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
