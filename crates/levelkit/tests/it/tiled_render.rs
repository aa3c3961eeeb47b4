//! Tiled's own renderer as the judge of ours: every sample map (and, with `LEVELKIT_CORPUS` set,
//! every good WWD and Graal level of the corpus) is exported to TMX and TMJ referencing generated
//! tileset PNGs exactly as the CLI writes them, rendered by Tiled 1.8.2's `tmxrasterizer`, and
//! compared pixel by pixel with [`levelkit::picture::render`] of the same map and tiles.
//!
//! * **Size.** Every exported map renders at its full pixel size (`width × tile_width` by
//!   `height × tile_height`), the size of our render. Maps over [`FULL_MAX_PIXELS`] are rendered
//!   by both at `1/n` (`tmxrasterizer -s`, [`Scale::Divisor`]) with `n` the smallest power of two
//!   that fits; only the sizes are compared there, because Qt's nearest-neighbour scaling samples
//!   each tile at other pixels than our divisor does (see the `png` module docs).
//! * **Pixels.** Maps up to [`FULL_MAX_PIXELS`] are compared whole; larger ones in windows of at
//!   most [`WINDOW_PIXELS`] cut from the map (every layer cut at the same cells), chosen so that
//!   every (tile layer, tileset) pair the map uses appears in some window. Tile layers must match
//!   exactly, every pixel. Objects are the one documented difference ("Differences from Tiled's
//!   renderer" in the `png` module docs): Tiled's render with the object layers shown must still
//!   equal our tile-only render outside the objects' footprints ([`POINT_REACH`] around a point,
//!   [`OUTLINE_REACH`] around a shape's box), and the number of masked pixels is reported.
//! * **Features** the corpus lacks (offsets, hidden layers, large tiles, parallax, translucency,
//!   tints, unknown gids, background colour) are checked one layer at a time on a synthetic map.
//!
//! Skips (prints `SKIP:`) when `tiled`/`tmxrasterizer` are not on the PATH.
use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use levelkit::document::Model;
use levelkit::formats::graal::{binary as graal, nw};
use levelkit::formats::wwd;
use levelkit::picture::{self as preview, Image, RenderOptions, Scale};
use levelkit::tiled::{TiledOptions, TilesetImage, to_tmj, to_tmx};
use levelkit::tilemap::{Layer, MapObject, Shape, TileLayer, TileMap};
use levelkit::{ErrorKind, Limits};

/// Maps up to this many pixels are rendered and compared whole, at full size.
const FULL_MAX_PIXELS: u64 = 4 << 20;
/// Larger maps are compared in windows of at most this many pixels.
const WINDOW_PIXELS: u64 = 3 << 19;
/// How far Tiled's drawing of a point object reaches left, up, right and down of the point: a pin
/// marker about 24 px wide standing on the point, plus its shadow.
const POINT_REACH: (i64, i64, i64, i64) = (16, 40, 16, 4);
/// How far Tiled's drawing of a rectangle or polygon reaches outside its box: the outline's width
/// and its 1-px shadow.
const OUTLINE_REACH: i64 = 4;

// ---------------------------------------------------------------------------------------------
// Inputs

fn samples() -> Vec<(String, TileMap)> {
    vec![
        ("claw_like".into(), wwd::samples::claw_like().to_tilemap().0),
        (
            "gruntz_like".into(),
            wwd::samples::gruntz_like().to_tilemap().0,
        ),
        ("graal".into(), graal::samples::graal().to_tilemap().0),
        ("village.nw".into(), nw::samples::village().to_tilemap().0),
    ]
}

/// Every good WWD and every Graal level of `$LEVELKIT_CORPUS`, read as the CLI reads files.
fn corpus() -> Vec<(String, TileMap)> {
    let Some(root) = common::corpus_or_skip("", "the corpus comparison (only the samples)") else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let wwd_dir = root.join("wwd");
    for entry in std::fs::read_dir(&wwd_dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_file() && !name.contains("_badsig") {
            files.push(path);
        }
    }
    let mut dirs = vec![root.join("graal")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("graal") || e.eq_ignore_ascii_case("nw"))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(
        files.len() >= 5,
        "{}: expected the corpus's WWD and Graal levels, found {files:?}",
        root.display()
    );
    files
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(path).unwrap();
            let model = Model::read(&bytes, Some(&name), &Limits::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let (map, _) = model
                .to_tilemap()
                .unwrap_or_else(|| panic!("{}: not a tile map", path.display()));
            (name, map)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Tiled

fn oracle() -> Option<PathBuf> {
    common::oracle(
        "tiled_oracle.sh",
        &["tiled", "tmxrasterizer"],
        "Tiled render checks",
    )
}

/// `tiled_oracle.sh render MAP OUT --no-smoothing [extra]`, decoded to RGBA. Panics with Tiled's
/// message on a non-zero exit or any output on stderr.
fn tiled_render(script: &Path, map: &Path, out: &Path, extra: &[String]) -> Image {
    let output = Command::new(script)
        .arg("render")
        .arg(map)
        .arg(out)
        .arg("--no-smoothing")
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "tiled_oracle.sh render {} {extra:?} exited {:?}: {stderr}",
        map.display(),
        output.status.code()
    );
    assert!(
        stderr.trim().is_empty(),
        "tmxrasterizer {}: {stderr}",
        map.display()
    );
    read_png(out)
}

/// `MAP.tmx` -> `MAP.tmx.<what>.png`.
fn png_beside(map: &Path, what: &str) -> PathBuf {
    let mut name = map.file_name().unwrap().to_os_string();
    name.push(format!(".{what}.png"));
    map.with_file_name(name)
}

fn read_png(path: &Path) -> Image {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "{}", path.display());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("{}: unexpected colour type {other:?}", path.display()),
    };
    Image {
        width: info.width,
        height: info.height,
        rgba,
        columns: 0,
    }
}

/// Generated tileset images, one per tileset, named as the CLI names them.
struct TilesetFiles {
    /// By tileset name, for [`RenderOptions::tileset_images`].
    images: BTreeMap<String, Image>,
    /// What the CLI passes to the Tiled writers.
    options: TiledOptions,
}

/// Mirrors `levelkit-cli`'s `convert_with_side_files`: `<stem>.tileset<N>.png` beside the map,
/// tileset 0 as [`TiledOptions::tileset_image`], the others in [`TiledOptions::tileset_images`].
fn write_tileset_images(map: &TileMap, dir: &Path, stem: &str) -> TilesetFiles {
    let mut options = TiledOptions::default();
    let mut images = BTreeMap::new();
    for (index, tileset) in map.tilesets.iter().enumerate() {
        let image = preview::tileset_image(tileset).unwrap();
        let name = format!("{stem}.tileset{index}.png");
        let entry = TilesetImage {
            path: name.clone(),
            width: image.width,
            height: image.height,
            columns: image.columns,
        };
        if index == 0 {
            options.tileset_image = Some(entry);
        } else {
            options.tileset_images.insert(index, entry);
        }
        std::fs::write(dir.join(&name), preview::encode_png(&image).unwrap()).unwrap();
        images.insert(tileset.name.clone(), image);
    }
    TilesetFiles { images, options }
}

/// Writes `<stem>.tmj` and `<stem>.tmx`, and returns their paths. The TMX writer refuses (by
/// design, see the `tiled` module docs) strings holding control characters XML 1.0 cannot
/// represent, which real Graal NPC scripts contain; such a map is exported as TMJ only, as the
/// CLI would, and the refusal is printed.
fn export(map: &TileMap, files: &TilesetFiles, dir: &Path, stem: &str) -> Vec<PathBuf> {
    let tmj = dir.join(format!("{stem}.tmj"));
    std::fs::write(&tmj, to_tmj(map, &files.options).unwrap()).unwrap();
    let tmx = dir.join(format!("{stem}.tmx"));
    match to_tmx(map, &files.options) {
        Ok(bytes) => {
            std::fs::write(&tmx, bytes).unwrap();
            vec![tmj, tmx]
        }
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Unsupported, "{stem}: {e}");
            assert!(
                e.message.contains("XML 1.0 cannot represent"),
                "{stem}: {e}"
            );
            eprintln!("  {stem}: no TMX ({e})");
            vec![tmj]
        }
    }
}

/// `--hide-layer NAME` for every object group. tmxrasterizer matches names case-insensitively,
/// so a tile layer of the same name would be hidden too: refuse that.
fn hide_objects(map: &TileMap) -> Vec<String> {
    let tile_names: BTreeSet<String> = map
        .layers
        .iter()
        .filter_map(|l| match l {
            Layer::Tiles(t) => Some(t.name.to_lowercase()),
            Layer::Objects(_) => None,
        })
        .collect();
    let mut args = Vec::new();
    for layer in &map.layers {
        if let Layer::Objects(g) = layer {
            assert!(
                !tile_names.contains(&g.name.to_lowercase()),
                "object group {:?} shares its name with a tile layer",
                g.name
            );
            args.push("--hide-layer".to_string());
            args.push(g.name.clone());
        }
    }
    args
}

// ---------------------------------------------------------------------------------------------
// Windows

/// A cell rectangle of a map: left, top, width, height in tiles.
type Window = (u32, u32, u32, u32);

/// The window of at most [`WINDOW_PIXELS`] around cell (cx, cy), clamped to the map.
fn window_around(map: &TileMap, cx: u32, cy: u32) -> Window {
    let cell = u64::from(map.tile_width) * u64::from(map.tile_height);
    // 3:2 windows: w = 1.5 h, w × h × cell <= WINDOW_PIXELS.
    let h = ((WINDOW_PIXELS / cell * 2 / 3).isqrt() as u32).max(1);
    let w = (h * 3 / 2).max(1);
    let (w, h) = (w.min(map.width), h.min(map.height));
    let left = cx.saturating_sub(w / 2).min(map.width - w);
    let top = cy.saturating_sub(h / 2).min(map.height - h);
    (left, top, w, h)
}

fn inside((left, top, w, h): Window, x: u32, y: u32) -> bool {
    (left..left + w).contains(&x) && (top..top + h).contains(&y)
}

/// The top-left window, then one around the first cell of each (tile layer, tileset) pair that
/// no window chosen so far shows.
fn windows(map: &TileMap) -> Vec<Window> {
    let mut out = vec![window_around(map, 0, 0)];
    for layer in &map.layers {
        let Layer::Tiles(t) = layer else { continue };
        if !t.visible {
            continue;
        }
        let mut seen = BTreeSet::new();
        for y in 0..t.height().min(map.height) {
            for x in 0..t.width().min(map.width) {
                let gid = t.get(x, y).unwrap();
                let Some((ts, _)) = map.tileset_for(gid) else {
                    continue;
                };
                if !seen.insert(ts.first_gid) {
                    continue;
                }
                if !out.iter().any(|&w| inside(w, x, y)) {
                    out.push(window_around(map, x, y));
                }
            }
        }
    }
    out
}

/// The map cut to `window`: every tile layer cut at the same cells (cells beyond a smaller
/// layer stay empty), objects moved by the window's origin, tilesets as they are.
fn cut(map: &TileMap, (left, top, w, h): Window) -> TileMap {
    let (dx, dy) = (
        f64::from(left * map.tile_width),
        f64::from(top * map.tile_height),
    );
    let layers = map
        .layers
        .iter()
        .map(|layer| match layer {
            Layer::Tiles(t) => {
                let mut data = Vec::with_capacity((w * h) as usize);
                for y in top..top + h {
                    for x in left..left + w {
                        data.push(t.get(x, y).unwrap_or(0));
                    }
                }
                let mut cut = TileLayer::new(t.name.clone(), w, h, data).unwrap();
                cut.parallax = t.parallax;
                cut.offset = t.offset;
                cut.visible = t.visible;
                cut.tint = t.tint.clone();
                cut.properties = t.properties.clone();
                Layer::Tiles(cut)
            }
            Layer::Objects(g) => {
                let mut g = g.clone();
                for o in &mut g.objects {
                    o.x -= dx;
                    o.y -= dy;
                }
                Layer::Objects(g)
            }
        })
        .collect();
    TileMap {
        width: w,
        height: h,
        layers,
        ..map.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// Comparison

/// The pixels Tiled's drawing of an object may touch: left, top, right, bottom, inclusive.
fn object_footprint(o: &MapObject) -> (i64, i64, i64, i64) {
    let (x, y) = (o.x.floor() as i64, o.y.floor() as i64);
    let (l, t, r, b) = match &o.shape {
        Shape::Point => {
            let (l, t, r, b) = POINT_REACH;
            return (x - l, y - t, x + r, y + b);
        }
        Shape::Rect { width, height } => (
            x,
            y,
            (o.x + width).ceil() as i64,
            (o.y + height).ceil() as i64,
        ),
        Shape::Polygon(points) => points.iter().fold((x, y, x, y), |(l, t, r, b), &(px, py)| {
            let (px, py) = ((o.x + px).floor() as i64, (o.y + py).floor() as i64);
            (l.min(px), t.min(py), r.max(px + 1), b.max(py + 1))
        }),
    };
    let m = OUTLINE_REACH;
    (l - m, t - m, r + m, b + m)
}

/// Which pixels Tiled's object drawing may touch: the boxes of the visible objects of the
/// visible groups ([`object_footprint`]).
fn object_mask(map: &TileMap, width: u32, height: u32) -> Vec<bool> {
    let mut mask = vec![false; width as usize * height as usize];
    for layer in &map.layers {
        let Layer::Objects(g) = layer else { continue };
        if !g.visible {
            continue;
        }
        for o in g.objects.iter().filter(|o| o.visible) {
            let (l, t, r, b) = object_footprint(o);
            let clamp = |v: i64, max: u32| v.clamp(0, i64::from(max)) as u32;
            let (l, r) = (clamp(l, width), clamp(r + 1, width));
            let (t, b) = (clamp(t, height), clamp(b + 1, height));
            for y in t..b {
                let row = y as usize * width as usize;
                mask[row + l as usize..row + r as usize].fill(true);
            }
        }
    }
    mask
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    compared: u64,
    differing: u64,
    masked: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.compared += o.compared;
        self.differing += o.differing;
        self.masked += o.masked;
    }
}

/// Compares `tiled` with `ours` pixel by pixel, skipping pixels where `mask` is set; prints the
/// first few differences.
fn compare(what: &str, tiled: &Image, ours: &Image, mask: Option<&[bool]>) -> Tally {
    assert_eq!(
        (tiled.width, tiled.height),
        (ours.width, ours.height),
        "{what}: Tiled's render and ours differ in size"
    );
    let mut tally = Tally::default();
    let mut shown = 0;
    for (i, (a, b)) in tiled
        .rgba
        .chunks_exact(4)
        .zip(ours.rgba.chunks_exact(4))
        .enumerate()
    {
        if mask.is_some_and(|m| m[i]) {
            tally.masked += 1;
            continue;
        }
        tally.compared += 1;
        if a != b {
            tally.differing += 1;
            if shown < 5 {
                shown += 1;
                let (x, y) = (i as u32 % tiled.width, i as u32 / tiled.width);
                eprintln!("  {what}: ({x}, {y}) Tiled {a:?}, ours {b:?}");
            }
        }
    }
    tally
}

/// Our tile-only render with the given tileset images.
fn our_render_with(map: &TileMap, images: &BTreeMap<String, Image>) -> Image {
    preview::render(
        map,
        &RenderOptions {
            objects: false,
            tileset_images: images.clone(),
            ..RenderOptions::default()
        },
    )
    .unwrap()
}

fn our_render(map: &TileMap, images: &BTreeMap<String, Image>) -> Image {
    let with_images = our_render_with(map, images);
    // The same tiles generated on the fly (what `levelkit render` draws) are the same pixels.
    let generated = preview::render(
        map,
        &RenderOptions {
            objects: false,
            ..RenderOptions::default()
        },
    )
    .unwrap();
    assert!(
        with_images == generated,
        "supplied tileset images changed the render"
    );
    with_images
}

/// Renders `map` (written as `<stem>.tmx`/`.tmj`) with Tiled and with us at full size, and
/// compares: tile layers exactly, and Tiled's objects only inside their footprints.
fn compare_full_size(
    script: &Path,
    dir: &Path,
    stem: &str,
    map: &TileMap,
    files: &TilesetFiles,
) -> (Tally, Tally) {
    let exported = export(map, files, dir, stem);
    let hide = hide_objects(map);
    let rendered: Vec<Image> = exported
        .iter()
        .map(|path| tiled_render(script, path, &png_beside(path, "tiles"), &hide))
        .collect();
    assert!(
        rendered.iter().all(|r| *r == rendered[0]),
        "{stem}: Tiled renders the TMX and the TMJ differently"
    );
    let ours = our_render(map, &files.images);
    let tiles = compare(stem, &rendered[0], &ours, None);
    let with_objects = tiled_render(script, &exported[0], &png_beside(&exported[0], "all"), &[]);
    let mask = object_mask(map, ours.width, ours.height);
    let objects = compare(
        &format!("{stem} with objects"),
        &with_objects,
        &ours,
        Some(&mask),
    );
    (tiles, objects)
}

/// The whole exported map's size as Tiled renders it: full size up to [`FULL_MAX_PIXELS`],
/// else at 1/n for the smallest power of two n that fits, compared with our render at
/// [`Scale::Divisor`] n. Returns n.
fn check_size(script: &Path, exported: &[PathBuf], map: &TileMap) -> u32 {
    let (w, h) = (
        u64::from(map.width) * u64::from(map.tile_width),
        u64::from(map.height) * u64::from(map.tile_height),
    );
    let mut n = 1u64;
    while (w / n) * (h / n) > FULL_MAX_PIXELS {
        n *= 2;
    }
    // Tiled truncates `size × scale`; with a power of two the scale is exact.
    let expected = ((w / n) as u32, (h / n) as u32);
    let ours = preview::render(
        map,
        &RenderOptions {
            scale: Scale::Divisor(NonZeroU32::new(n as u32).unwrap()),
            ..RenderOptions::default()
        },
    )
    .unwrap();
    if w % n == 0 && h % n == 0 {
        assert_eq!((ours.width, ours.height), expected, "{exported:?}");
    }
    let scale = format!("{}", 1.0 / n as f64);
    for path in exported {
        let out = png_beside(path, "size");
        let image = tiled_render(script, path, &out, &["-s".to_string(), scale.clone()]);
        assert_eq!(
            (image.width, image.height),
            expected,
            "{}: Tiled's render at scale 1/{n}",
            path.display()
        );
    }
    n as u32
}

#[test]
fn tiled_renders_what_we_render() {
    let Some(script) = oracle() else { return };
    let start = Instant::now();
    let dir = std::env::temp_dir().join(format!("levelkit-tiled-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut maps = samples();
    maps.extend(corpus());
    let mut total = (Tally::default(), Tally::default());
    let mut windows_compared = 0;
    for (index, (name, map)) in maps.iter().enumerate() {
        let stem = format!("m{index}");
        let files = write_tileset_images(map, &dir, &stem);
        let exported = export(map, &files, &dir, &stem);
        let n = check_size(&script, &exported, map);
        let full = u64::from(map.width * map.tile_width) * u64::from(map.height * map.tile_height);
        let (tiles, objects, how) = if full <= FULL_MAX_PIXELS {
            let (t, o) = compare_full_size(&script, &dir, &stem, map, &files);
            (t, o, "whole map".to_string())
        } else {
            let mut sum = (Tally::default(), Tally::default());
            let wins = windows(map);
            for (k, &win) in wins.iter().enumerate() {
                let cut = cut(map, win);
                let (t, o) =
                    compare_full_size(&script, &dir, &format!("{stem}.w{k}"), &cut, &files);
                sum.0 += t;
                sum.1 += o;
            }
            windows_compared += wins.len();
            (sum.0, sum.1, format!("{} windows {wins:?}", wins.len()))
        };
        eprintln!(
            "{name}: {}x{} px (Tiled size checked at 1/{n}); {how}: tiles {} px compared, {} \
             differ; with objects {} compared, {} differ, {} masked",
            map.width * map.tile_width,
            map.height * map.tile_height,
            tiles.compared,
            tiles.differing,
            objects.compared,
            objects.differing,
            objects.masked
        );
        assert_eq!(tiles.differing, 0, "{name}: tile layers differ");
        assert_eq!(
            objects.differing, 0,
            "{name}: Tiled's objects reach outside their documented footprint"
        );
        assert!(tiles.compared > 0);
        total.0 += tiles;
        total.1 += objects;
    }
    eprintln!(
        "{} maps ({windows_compared} windows): {} px compared, {} differ; with objects {} \
         compared, {} masked; {:.1} s",
        maps.len(),
        total.0.compared,
        total.0.differing,
        total.1.compared,
        total.1.masked,
        start.elapsed().as_secs_f64()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Layer features the corpus does not exercise

fn tileset(name: &str, first_gid: u32, tw: u32, th: u32, count: u32) -> levelkit::tilemap::Tileset {
    levelkit::tilemap::Tileset {
        name: name.into(),
        first_gid,
        tile_width: tw,
        tile_height: th,
        tile_count: count,
        image: None,
        properties: levelkit::tilemap::Properties::new(),
        tiles: vec![],
    }
}

fn glass_image() -> Image {
    // 2 tiles of 16x16: alpha ramps.
    let (w, h) = (32u32, 16u32);
    let mut rgba = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let a = if x < 16 {
                (x * 16 + y) as u8
            } else {
                255 - (y * 13) as u8
            };
            rgba.extend_from_slice(&[(x * 7) as u8, 200, (y * 15) as u8, a]);
        }
    }
    Image {
        width: w,
        height: h,
        rgba,
        columns: 2,
    }
}

/// The cells of `layer` holding a gid, as a pixel mask of a render of `map` (with Tiled's offset
/// margins, as [`preview::render`] lays them out).
fn cell_mask(map: &TileMap, layer: &TileLayer, (ml, mt): (i64, i64), image: &Image) -> Vec<bool> {
    let mut mask = vec![false; image.width as usize * image.height as usize];
    let (tw, th) = (i64::from(map.tile_width), i64::from(map.tile_height));
    for y in 0..layer.height() {
        for x in 0..layer.width() {
            if layer.get(x, y).unwrap() == 0 {
                continue;
            }
            let left = ml + layer.offset.0 as i64 + i64::from(x) * tw;
            let top = mt + layer.offset.1 as i64 + i64::from(y) * th;
            for py in top.max(0)..(top + th).min(i64::from(image.height)) {
                for px in left.max(0)..(left + tw).min(i64::from(image.width)) {
                    mask[(py * i64::from(image.width) + px) as usize] = true;
                }
            }
        }
    }
    mask
}

/// Layer features no sample or corpus map has, one layer at a time (`--show-layer`, with the
/// other layers hidden in ours, so Tiled's offset margins stay the same): hidden layers, a pixel
/// offset, tiles larger than the grid, parallax, partly transparent tiles, a tint, a gid no
/// tileset covers, and a background colour. Each must match Tiled exactly or differ only as the
/// `png` module docs say.
#[test]
fn tiled_agrees_on_layer_features() {
    let Some(script) = oracle() else { return };
    let dir = std::env::temp_dir().join(format!("levelkit-features-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (w, h) = (8u32, 6u32);
    let layer = |name: &str, f: &dyn Fn(u32, u32) -> u32| {
        let data = (0..w * h).map(|i| f(i % w, i / w)).collect();
        TileLayer::new(name, w, h, data).unwrap()
    };
    let base = layer("base", &|x, y| {
        if (x + y) % 5 == 0 { 0 } else { 1 + (x + y) % 4 }
    });
    let mut hidden = layer("hidden", &|_, _| 2);
    hidden.visible = false;
    let mut shifted = layer("shifted", &|x, y| match (x, y) {
        (0, 0) | (2, 2) | (7, 5) => 3,
        _ => 0,
    });
    shifted.offset = (5.0, 3.0);
    // 32 x 48 tiles on a 16-px grid, one on the top row (reaching above the map) and one on the
    // right edge (reaching past it).
    let big = layer("big", &|x, y| match (x, y) {
        (1, 0) | (7, 5) => 5,
        (4, 3) => 6,
        _ => 0,
    });
    let glass = layer("glass", &|x, y| if y == 4 { 7 + x % 2 } else { 0 });
    let mut tinted = layer("tinted", &|x, y| if y == 1 && x > 4 { 4 } else { 0 });
    tinted.tint = Some("#80ff0000".into());
    let mut parallax = layer("parallax", &|x, y| if y == 5 && x > 2 { 2 } else { 0 });
    parallax.parallax = (0.5, 0.25);
    let missing = layer("missing", &|x, y| if (x, y) == (6, 0) { 99 } else { 0 });
    let layers = [base, hidden, shifted, big, glass, tinted, parallax, missing];
    let map = TileMap {
        width: w,
        height: h,
        tile_width: 16,
        tile_height: 16,
        background: Some("#ff336699".into()),
        tilesets: vec![
            tileset("small", 1, 16, 16, 4),
            tileset("big", 5, 32, 48, 2),
            tileset("glass", 7, 16, 16, 2),
        ],
        layers: layers.iter().cloned().map(Layer::Tiles).collect(),
        properties: levelkit::tilemap::Properties::new(),
        source_format: levelkit::Format::Tmx,
    };
    let mut files = write_tileset_images(&map, &dir, "f");
    // The generated tiles are opaque; "glass" gets a supplied image with alpha ramps instead.
    let glass_png = glass_image();
    std::fs::write(
        dir.join("f.tileset2.png"),
        preview::encode_png(&glass_png).unwrap(),
    )
    .unwrap();
    let entry = files.options.tileset_images.get_mut(&2).unwrap();
    (entry.width, entry.height, entry.columns) = (glass_png.width, glass_png.height, 2);
    files.images.insert("glass".into(), glass_png);
    let exported = export(&map, &files, &dir, "features");
    // The offset (5, 3) grows the canvas right and down, in both renderers.
    let expected = (8 * 16 + 5, 6 * 16 + 3);
    let margins = (0, 0);
    for (i, layer) in layers.iter().enumerate() {
        let mut one = map.clone();
        one.background = None;
        for (k, l) in one.layers.iter_mut().enumerate() {
            if let Layer::Tiles(t) = l {
                t.visible = k == i;
            }
        }
        let ours = our_render_with(&one, &files.images);
        assert_eq!((ours.width, ours.height), expected);
        let args = ["--show-layer", &layer.name, "--ignore-visibility"].map(String::from);
        for path in &exported {
            let tiled = tiled_render(&script, path, &png_beside(path, &layer.name), &args);
            let what = format!("{} layer {:?}", path.display(), layer.name);
            let tally = match layer.name.as_str() {
                // Documented: Tiled multiplies by the tint, draws its own marker for a gid no
                // tileset covers; only those cells may differ.
                "tinted" | "missing" => {
                    let mask = cell_mask(&map, layer, margins, &ours);
                    let inside = compare(
                        &what,
                        &tiled,
                        &ours,
                        Some(&mask.iter().map(|m| !m).collect::<Vec<_>>()),
                    );
                    assert!(
                        inside.differing > 0,
                        "{what}: expected Tiled to draw these cells differently"
                    );
                    compare(&what, &tiled, &ours, Some(&mask))
                }
                // Documented: Qt keeps partly transparent pixels premultiplied in 8 bits.
                "glass" => compare_translucent(&what, &tiled, &ours),
                _ => compare(&what, &tiled, &ours, None),
            };
            eprintln!("{what}: {tally:?}");
            assert!(tally.compared > 0);
            assert_eq!(tally.differing, 0, "{what}");
        }
    }
    // Everything together, with the background: the tinted and missing cells aside, Tiled's
    // render equals ours wherever ours is opaque without the background; where it is not, Tiled
    // leaves the background out (documented) and ours is that colour.
    let mut plain = map.clone();
    plain.background = None;
    let plain = our_render_with(&plain, &files.images);
    let ours = our_render_with(&map, &files.images);
    let tiled = tiled_render(&script, &exported[0], &png_beside(&exported[0], "all"), &[]);
    let mut mask = cell_mask(&map, &layers[5], margins, &ours);
    for (m, n) in mask
        .iter_mut()
        .zip(cell_mask(&map, &layers[7], margins, &ours))
    {
        *m |= n;
    }
    let mut background = 0;
    for (i, p) in plain.rgba.chunks_exact(4).enumerate() {
        if p[3] == 0 && !mask[i] {
            assert_eq!(ours.rgba[i * 4..i * 4 + 4], [0x33, 0x66, 0x99, 255]);
            assert_eq!(tiled.rgba[i * 4..i * 4 + 4], [0, 0, 0, 0]);
            background += 1;
        }
        mask[i] |= p[3] != 255;
    }
    // Partly transparent tiles blended onto opaque ones: Qt rounds, we truncate (documented).
    let mut blended = 0;
    for (i, glass) in cell_mask(&map, &layers[4], margins, &ours)
        .into_iter()
        .enumerate()
    {
        if glass && !mask[i] {
            let (a, b) = (&tiled.rgba[i * 4..i * 4 + 4], &ours.rgba[i * 4..i * 4 + 4]);
            assert!(
                a.iter().zip(b).all(|(a, b)| a.abs_diff(*b) <= 1),
                "pixel {i}: Tiled {a:?}, ours {b:?}"
            );
            blended += 1;
            mask[i] = true;
        }
    }
    let tally = compare("all layers", &tiled, &ours, Some(&mask));
    eprintln!("all layers: {tally:?}, {background} background pixels, {blended} blended within 1");
    assert!(blended > 0);
    assert!(background > 0);
    assert_eq!(tally.differing, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Like [`compare`], but partly transparent pixels (alpha 1..=254 in ours) need only the same
/// alpha and colour channels within what premultiplied 8-bit storage keeps: `255 / alpha`.
fn compare_translucent(what: &str, tiled: &Image, ours: &Image) -> Tally {
    let mut tally = Tally::default();
    let mut translucent = 0;
    for (a, b) in tiled.rgba.chunks_exact(4).zip(ours.rgba.chunks_exact(4)) {
        tally.compared += 1;
        let ok = if (1..255).contains(&b[3]) {
            translucent += 1;
            let tolerance = 255 / i32::from(b[3]) + 1;
            a[3] == b[3] && (0..3).all(|c| (i32::from(a[c]) - i32::from(b[c])).abs() <= tolerance)
        } else {
            a == b
        };
        if !ok {
            tally.differing += 1;
            if tally.differing <= 5 {
                eprintln!("  {what}: Tiled {a:?}, ours {b:?}");
            }
        }
    }
    assert!(translucent > 0, "{what}: no partly transparent pixels");
    tally
}

/// A Claw level with its game's graphics (`--game`): Tiled 1.8 loads the map with the real-tile
/// atlases without a message and draws every tile layer exactly as our render does; the map
/// still converts back to the level's bytes.
#[test]
fn tiled_draws_a_level_with_its_game_tiles_as_we_do() {
    use levelkit::document::game::wwd_art;
    use levelkit::formats::rez::RezIndex;
    let Some(script) = oracle() else { return };
    let dir = common::out_dir("levelkit-tiled-render", "game");
    let level = wwd::samples::claw_like();
    let rez = wwd::game_sample::rez_for(&level).unwrap();
    let index = RezIndex::read(&rez).unwrap();
    let (map, _) = level.to_tilemap();
    let (art, _) = wwd_art(&level, &map, &index);
    assert_eq!(art.report.tiles_found, art.report.tiles_used);
    // The CLI's side files, with the real atlases where the game has them.
    let mut files = write_tileset_images(&map, &dir, "claw");
    for (i, ts) in map.tilesets.iter().enumerate() {
        if let Some(atlas) = art.tileset_images.get(&ts.name) {
            let name = format!("claw.tileset{i}.png");
            std::fs::write(dir.join(&name), preview::encode_png(atlas).unwrap()).unwrap();
            files.images.insert(ts.name.clone(), atlas.clone());
        }
    }
    let exported = export(&map, &files, &dir, "claw");
    let hide = hide_objects(&map);
    for path in &exported {
        let tiled = tiled_render(&script, path, &png_beside(path, "game"), &hide);
        let ours = our_render_with(&map, &files.images);
        let tally = compare("claw with game tiles", &tiled, &ours, None);
        assert_eq!(tally.differing, 0, "{}: {tally:?}", path.display());
        let back = levelkit::tiled::from_tmx(&std::fs::read(path).unwrap())
            .or_else(|_| levelkit::tiled::from_tmj(&std::fs::read(path).unwrap()))
            .unwrap();
        let again = wwd::from_tilemap(&back.map).unwrap().0;
        assert_eq!(again.write().unwrap(), level.write().unwrap());
    }

    // With the object sprites as tile objects of an image-collection tileset (what the CLI
    // writes with --game): Tiled draws every object as the game does, pixel for pixel as our
    // render with the same sprites, and the map still converts back to the level's bytes.
    let mut with_sprites = map.clone();
    let (index, images) =
        levelkit::document::game::attach_sprites(&mut with_sprites, "sprites", &art.sprites)
            .expect("the sample's objects have images");
    assert_eq!(art.sprites.len(), 120, "every sample object has a sprite");
    let mut tiles = BTreeMap::new();
    for (id, image) in (0u32..).zip(&images) {
        let name = format!("claw.sprite{id}.png");
        std::fs::write(dir.join(&name), preview::encode_png(image).unwrap()).unwrap();
        tiles.insert(
            id,
            levelkit::tiled::TileImage {
                path: name,
                width: image.width,
                height: image.height,
            },
        );
    }
    files.options.tile_images.insert(index, tiles);
    let exported = export(&with_sprites, &files, &dir, "claw-sprites");
    let ours = preview::render(
        &map,
        &RenderOptions {
            tileset_images: files.images.clone(),
            sprites: art.sprites.clone(),
            ..RenderOptions::default()
        },
    )
    .unwrap();
    for path in &exported {
        let tiled = tiled_render(&script, path, &png_beside(path, "sprites"), &[]);
        let tally = compare("claw with game sprites", &tiled, &ours, None);
        assert_eq!(tally.differing, 0, "{}: {tally:?}", path.display());
        use levelkit::document::Codec as _;
        let doc = levelkit::document::TiledDoc::read(
            if path.extension().unwrap() == "tmx" {
                levelkit::Format::Tmx
            } else {
                levelkit::Format::Tmj
            },
            &std::fs::read(path).unwrap(),
            &Limits::default(),
            &mut levelkit::document::no_side_files,
        )
        .unwrap();
        let (model, _) = doc.to_level(levelkit::Format::Wwd).unwrap();
        assert_eq!(model.write().unwrap(), level.write().unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
