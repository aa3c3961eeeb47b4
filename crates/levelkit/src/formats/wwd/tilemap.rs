//! WWD <-> common [`TileMap`], losslessly: [`to_tilemap`] and [`from_tilemap`].
//!
//! * Each plane becomes a tile layer (parallax from the movement percentages; z, wrapping, fill
//!   colour, flags and reserved words as layer properties) and, when it has objects, an object
//!   group right above it.
//! * Each image set a plane uses becomes a tileset; a cell's global id is the tileset's first gid
//!   plus the cell's tile id. `0xFFFFFFFF` becomes gid 0. `0xEEEEEEEE` cells draw the tile of a
//!   one-tile-per-plane `fill` tileset, whose tiles carry the plane's fill colour.
//! * The tile-properties table becomes per-tile properties of the main plane's first tileset
//!   (double-tile rectangles also as collision rectangles, converted from inclusive to half-open).
//! * Objects become point objects at their location, name as name and logic as class, with every
//!   field as a typed property.
//! * Header strings and reserved words become map properties; a slot string's bytes after its
//!   NUL (leftovers of an older value) as a `<name>_after_nul` hex property; a non-editor section
//!   layout as the JSON map property `wwd_layout`. Strings are shown as Windows-1252, which maps
//!   all 256 byte values one to one, with control bytes as control pictures
//!   ([`RawString::to_editor_text`], since XML cannot hold them), so they come back as the same
//!   bytes.
//! * A level without a main plane keeps its tile-properties table in a `tile attributes` tileset.
//!
//! Cells that name an image set the plane does not list are kept (their tileset is named
//! `set<N>`) and reported as a [`Warning`]. [`from_tilemap`] documents the way back.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::model::*;
use crate::error::{Error, Location, Result, Warning};
use crate::registry::Format;
use crate::strings::RawString;
use crate::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, PropertyError, Shape, TileData, TileLayer, TileMap,
    Tileset,
};

const F: Format = Format::Wwd;

fn clamp_u32(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

/// Convert a level to the common model, with warnings for what does not map.
pub fn to_tilemap(wwd: &Wwd) -> (TileMap, Vec<Warning>) {
    let mut warnings = Vec::new();
    let main = wwd.planes.iter().position(Plane::is_main);
    let reference = main.and_then(|i| wwd.planes.get(i)).or(wwd.planes.first());
    let (tile_width, tile_height) = reference.map_or((64, 64), |p| {
        (clamp_u32(p.tile_width), clamp_u32(p.tile_height))
    });

    let mut tilesets = Vec::new();
    let mut next_gid = 1u32;
    // (plane, set) -> first gid
    let mut firsts: BTreeMap<(usize, u16), u32> = BTreeMap::new();
    // (plane, set) -> local id by tile id, for the image sets whose used ids are sparse.
    let mut sparse: BTreeMap<(usize, u16), HashMap<u16, u32>> = BTreeMap::new();
    for (pi, plane) in wwd.planes.iter().enumerate() {
        let mut max_id: BTreeMap<u16, u32> = BTreeMap::new();
        let mut used: BTreeMap<u16, BTreeSet<u32>> = BTreeMap::new();
        for &cell in &plane.tiles {
            if let Tile::Image { set, id } = Tile::from_raw(cell) {
                let e = max_id.entry(set).or_insert(0);
                *e = (*e).max(u32::from(id) + 1);
                used.entry(set).or_default().insert(u32::from(id));
            }
        }
        let records = wwd.tile_properties.records.len() as u32;
        if Some(pi) == main {
            let e = max_id.entry(0).or_insert(0);
            *e = (*e).max(records);
        }
        for (&set, &max) in &max_id {
            let used = used.remove(&set).unwrap_or_default();
            let prefix = if Some(pi) == main && set == 0 {
                records
            } else {
                0
            };
            let listed = used.range(prefix..).count().saturating_add(prefix as usize);
            let is_sparse = (max as usize).saturating_sub(listed) > SPARSE_GAP;
            let ids: Vec<u32> = if is_sparse {
                (0..prefix).chain(used.range(prefix..).copied()).collect()
            } else {
                Vec::new()
            };
            let count = if is_sparse { ids.len() as u32 } else { max };
            let set_name = match plane.image_sets.get(usize::from(set)) {
                Some(name) => name.display(),
                None => {
                    warnings.push(Warning::warning(
                        F,
                        Location::path(format!("planes[{pi}].tiles")),
                        format!(
                            "cells use image set {set}, but the plane lists {} image sets; \
                             their tileset has no image source",
                            plane.image_sets.len()
                        ),
                    ));
                    format!("set{set}")
                }
            };
            let mut ts = Tileset {
                name: format!("{}/{}", plane.name.text.display(), set_name),
                first_gid: next_gid,
                tile_width: clamp_u32(plane.tile_width),
                tile_height: clamp_u32(plane.tile_height),
                tile_count: count,
                image: Some(format!(
                    "{}\\{}",
                    wwd.header.image_dir.text.display(),
                    set_name
                )),
                properties: Properties::new(),
                tiles: Vec::new(),
            };
            ts.properties
                .int("wwd_plane", pi as i64)
                .int("wwd_image_set", i64::from(set));
            if Some(pi) == main && set == 0 {
                ts.tiles = tile_attributes(&wwd.tile_properties);
                tile_properties_header(&mut ts.properties, &wwd.tile_properties);
            }
            if is_sparse {
                // The tile attributes (if any) are tiles 0..prefix, where local id = tile id.
                let mut by_local: BTreeMap<u32, TileData> = std::mem::take(&mut ts.tiles)
                    .into_iter()
                    .map(|t| (t.id, t))
                    .collect();
                let mut locals = HashMap::with_capacity(ids.len());
                for (local, &id) in ids.iter().enumerate() {
                    let local = local as u32;
                    let tile = by_local.entry(local).or_insert_with(|| TileData {
                        id: local,
                        properties: Properties::new(),
                        collision: Vec::new(),
                    });
                    tile.properties.int(TILE_ID_PROPERTY, i64::from(id));
                    if let Ok(id) = u16::try_from(id) {
                        locals.insert(id, local);
                    }
                }
                ts.tiles = by_local.into_values().collect();
                sparse.insert((pi, set), locals);
            }
            firsts.insert((pi, set), next_gid);
            next_gid = next_gid.saturating_add(count.max(1));
            tilesets.push(ts);
        }
    }
    let fill_first = next_gid;
    if wwd.planes.iter().any(|p| p.tiles.contains(&TILE_FILL)) {
        let mut ts = Tileset {
            name: "fill".into(),
            first_gid: fill_first,
            tile_width,
            tile_height,
            tile_count: wwd.planes.len() as u32,
            image: None,
            properties: Properties::new(),
            tiles: Vec::new(),
        };
        ts.properties.bool("wwd_fill", true);
        for (pi, plane) in wwd.planes.iter().enumerate() {
            let mut props = Properties::new();
            props
                .int("plane", pi as i64)
                .int("fill_color", plane.fill_color);
            ts.tiles.push(TileData {
                id: pi as u32,
                properties: props,
                collision: Vec::new(),
            });
        }
        tilesets.push(ts);
    }

    let mut layers = Vec::new();
    let mut object_id = 1u32;
    for (pi, plane) in wwd.planes.iter().enumerate() {
        let data = plane
            .tiles
            .iter()
            .map(|&cell| match Tile::from_raw(cell) {
                Tile::Empty => 0,
                Tile::Fill => fill_first.saturating_add(pi as u32),
                Tile::Image { set, id } => {
                    let local = match sparse.get(&(pi, set)) {
                        Some(locals) => locals.get(&id).copied(),
                        None => Some(u32::from(id)),
                    };
                    match (firsts.get(&(pi, set)), local) {
                        (Some(first), Some(local)) => first.saturating_add(local),
                        _ => 0,
                    }
                }
            })
            .collect();
        let name = plane.name.text.to_editor_text();
        let Ok(mut layer) = TileLayer::new(
            name.clone(),
            clamp_u32(plane.tiles_wide),
            clamp_u32(plane.tiles_high),
            data,
        ) else {
            warnings.push(Warning::error(
                F,
                Location::path(format!("planes[{pi}]")),
                "plane grid size does not match its tile count; layer left out",
            ));
            continue;
        };
        layer.parallax = (
            f64::from(plane.movement_x_percent) / 100.0,
            f64::from(plane.movement_y_percent) / 100.0,
        );
        layer.offset = (f64::from(plane.origin_x), f64::from(plane.origin_y));
        layer.visible = !plane.flags.contains(PlaneFlags::NO_DRAW);
        layer.properties = plane_properties(plane);
        layers.push(Layer::Tiles(layer));
        if !plane.objects.is_empty() {
            let objects = plane
                .objects
                .iter()
                .map(|o| {
                    let obj = map_object(o, object_id);
                    object_id = object_id.saturating_add(1);
                    obj
                })
                .collect();
            let mut props = Properties::new();
            props.int("wwd_plane", pi as i64);
            layers.push(Layer::Objects(ObjectGroup {
                name: format!("{name} objects"),
                parallax: (
                    f64::from(plane.movement_x_percent) / 100.0,
                    f64::from(plane.movement_y_percent) / 100.0,
                ),
                visible: true,
                objects,
                properties: props,
            }));
        }
    }

    let map = TileMap {
        width: wwd
            .planes
            .iter()
            .map(|p| clamp_u32(p.tiles_wide))
            .max()
            .unwrap_or(0),
        height: wwd
            .planes
            .iter()
            .map(|p| clamp_u32(p.tiles_high))
            .max()
            .unwrap_or(0),
        tile_width,
        tile_height,
        background: None,
        tilesets,
        layers,
        properties: header_properties(&wwd.header),
        source_format: F,
    };
    let mut map = map;
    if wwd.compression.worth_keeping() {
        match serde_json::to_string(&wwd.compression) {
            Ok(json) => {
                map.properties.string(DEFLATE_PROPERTY, json);
            }
            Err(e) => warnings.push(Warning::warning(
                F,
                Location::path("compression"),
                format!("the file's compression settings could not be kept: {e}"),
            )),
        }
    }
    // An uncompressed file's own checksum (a compressed one's is in `wwd_deflate`).
    if let Some(source) = &wwd.source
        && !wwd.header.flags.contains(HeaderFlags::COMPRESS)
        && source.stored_checksum != source.computed_checksum
    {
        map.properties.string(
            CHECKSUM_PROPERTY,
            format!(
                "{:08x} {:08x}",
                source.stored_checksum, source.computed_checksum
            ),
        );
    }
    if let Some(layout) = &wwd.layout {
        match serde_json::to_string(layout) {
            Ok(json) => {
                map.properties.string(LAYOUT_PROPERTY, json);
            }
            Err(e) => warnings.push(Warning::warning(
                F,
                Location::path("layout"),
                format!("the file's section layout could not be kept: {e}"),
            )),
        }
    }
    if main.is_none() && !wwd.tile_properties.records.is_empty() {
        let mut ts = Tileset {
            name: "tile attributes".into(),
            first_gid: next_free_gid(&map.tilesets),
            tile_width,
            tile_height,
            tile_count: wwd.tile_properties.records.len() as u32,
            image: None,
            properties: Properties::new(),
            tiles: tile_attributes(&wwd.tile_properties),
        };
        tile_properties_header(&mut ts.properties, &wwd.tile_properties);
        map.tilesets.push(ts);
    }
    (map, warnings)
}

/// Tile property of a sparse image set's tileset: the WWD tile id of the Tiled tile. An image
/// set whose cells use few of the ids below their largest (more than [`SPARSE_GAP`] unused) gets
/// a tileset of only the tiles used, each carrying its id here, rather than one tile per id: a
/// single cell naming tile 65535 made a tileset of 65,536 tiles and an 8192 x 8192 atlas.
pub const TILE_ID_PROPERTY: &str = "wwd_tile_id";
/// How many ids below an image set's largest used one may go unused before its tileset holds
/// only the used tiles ([`TILE_ID_PROPERTY`]). Levels made by the game's editor number their
/// tiles densely and stay one tile per id.
pub const SPARSE_GAP: usize = 1024;

/// The local ids of a sparse image set's tileset by WWD tile id ([`TILE_ID_PROPERTY`]); `None`
/// for a tileset with one tile per id.
pub fn sparse_tile_ids(ts: &Tileset) -> Option<BTreeMap<u32, u32>> {
    let ids: BTreeMap<u32, u32> = ts
        .tiles
        .iter()
        .filter_map(|t| {
            let id = t.properties.get_int(TILE_ID_PROPERTY).ok().flatten()?;
            Some((u32::try_from(id).ok()?, t.id))
        })
        .collect();
    (!ids.is_empty()).then_some(ids)
}

/// Map property holding the main block's compression as JSON ([`Wwd::compression`], as in the
/// level's JSON form) when it is not the editors' own ([`Deflate::worth_keeping`]): a community
/// tool's level-9 stream, a stream kept byte for byte, a checksum that is not the editor's. The
/// level written back from the map keeps the stream while its main block is unedited.
pub const DEFLATE_PROPERTY: &str = "wwd_deflate";

/// Map property of an uncompressed level whose stored checksum is not the editor's: the stored
/// and the editor's checksum of its main block, as two hex words. The level written back keeps
/// the stored one while its main block is unedited (see [`Wwd::source`]).
pub const CHECKSUM_PROPERTY: &str = "wwd_checksum";

/// Map property holding a non-editor section layout as JSON ([`Wwd::layout`]).
pub const LAYOUT_PROPERTY: &str = "wwd_layout";
/// Suffix of the property that keeps a slot string's bytes after its NUL, as hex.
pub const AFTER_NUL_SUFFIX: &str = "_after_nul";

/// The checksums [`CHECKSUM_PROPERTY`] keeps, as the reader's findings.
fn checksums(map: &TileMap) -> Result<Option<SourceInfo>> {
    let Some(text) = map
        .properties
        .get_str(CHECKSUM_PROPERTY)
        .map_err(|e| prop_err("map properties", e))?
    else {
        return Ok(None);
    };
    let words: Vec<Option<u32>> = text
        .split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).ok())
        .collect();
    match words.as_slice() {
        [Some(stored), Some(computed)] => Ok(Some(SourceInfo {
            stored_checksum: *stored,
            computed_checksum: *computed,
            ..SourceInfo::default()
        })),
        _ => Err(Error::malformed(
            F,
            Location::path("map properties"),
            format!(
                "map property {CHECKSUM_PROPERTY:?} is {text:?}, not two hex words (the stored \
                 checksum and the editor's)"
            ),
        )),
    }
}

fn next_free_gid(tilesets: &[Tileset]) -> u32 {
    tilesets
        .last()
        .map_or(1, |t| t.first_gid.saturating_add(t.tile_count.max(1)))
}

fn tile_properties_header(p: &mut Properties, tp: &TileProperties) {
    p.int("wwd_tp_unknown1", tp.unknown1)
        .int("wwd_tp_unknown2", tp.unknown2);
    for (i, v) in tp.unknown3_7.iter().enumerate() {
        p.int(format!("wwd_tp_unknown{}", i + 3), *v);
    }
}

fn slot(p: &mut Properties, name: &str, s: &SlotString) {
    p.string(name, s.text.to_editor_text());
    if let Some(rest) = &s.after_nul {
        p.string(
            format!("{name}{AFTER_NUL_SUFFIX}"),
            hex::encode(rest.as_bytes()),
        );
    }
}

fn header_properties(h: &Header) -> Properties {
    let mut p = Properties::new();
    slot(&mut p, "name", &h.name);
    slot(&mut p, "author", &h.author);
    slot(&mut p, "birth", &h.birth);
    slot(&mut p, "rez_file", &h.rez_file);
    slot(&mut p, "image_dir", &h.image_dir);
    slot(&mut p, "pal_rez", &h.pal_rez);
    slot(&mut p, "launch_app", &h.launch_app);
    for (i, s) in h.image_sets.iter().enumerate() {
        slot(&mut p, &format!("image_set{}", i + 1), s);
    }
    for (i, s) in h.prefixes.iter().enumerate() {
        slot(&mut p, &format!("prefix{}", i + 1), s);
    }
    p.int("flags", h.flags.bits())
        .bool("use_z_coords", h.flags.contains(HeaderFlags::USE_Z_COORDS))
        .bool("compress", h.flags.contains(HeaderFlags::COMPRESS))
        .int("start_x", h.start_x)
        .int("start_y", h.start_y)
        .int("unknown1", h.unknown1)
        .int("unknown2", h.unknown2)
        .int("unknown3", h.unknown3)
        .int("unknown4", h.unknown4);
    p
}

fn plane_properties(plane: &Plane) -> Properties {
    let mut p = Properties::new();
    p.int("flags", plane.flags.bits())
        .bool("main_plane", plane.flags.contains(PlaneFlags::MAIN_PLANE))
        .bool("no_draw", plane.flags.contains(PlaneFlags::NO_DRAW))
        .bool("wrap_x", plane.flags.contains(PlaneFlags::X_WRAPPING))
        .bool("wrap_y", plane.flags.contains(PlaneFlags::Y_WRAPPING))
        .bool(
            "auto_tile_size",
            plane.flags.contains(PlaneFlags::AUTO_TILE_SIZE),
        )
        .int("tile_width", plane.tile_width)
        .int("tile_height", plane.tile_height)
        .int("z", plane.z_coord)
        .int("fill_color", plane.fill_color)
        .int("movement_x_percent", plane.movement_x_percent)
        .int("movement_y_percent", plane.movement_y_percent)
        .int("width_px", plane.width_px)
        .int("height_px", plane.height_px)
        .int("origin_x", plane.origin_x)
        .int("origin_y", plane.origin_y);
    for (i, name) in plane.image_sets.iter().enumerate() {
        p.string(format!("image_set{i}"), name.to_editor_text());
    }
    p.int("unknown1", plane.unknown1)
        .int("unknown2", plane.unknown2)
        .int("unknown5", plane.unknown5)
        .int("unknown6", plane.unknown6)
        .int("unknown7", plane.unknown7);
    if let Some(rest) = &plane.name.after_nul {
        p.string(
            format!("name{AFTER_NUL_SUFFIX}"),
            hex::encode(rest.as_bytes()),
        );
    }
    p
}

fn tile_attributes(tp: &TileProperties) -> Vec<TileData> {
    tp.records
        .iter()
        .enumerate()
        .map(|(id, record)| {
            let mut props = Properties::new();
            let mut collision = Vec::new();
            match &record.attr {
                TileAttr::Single { attribute } => {
                    props.string("type", "single").int("attribute", *attribute);
                }
                TileAttr::Double {
                    outside,
                    inside,
                    rect,
                } => {
                    props
                        .string("type", "double")
                        .int("outside", *outside)
                        .int("inside", *inside)
                        .int("rect_left", rect.left)
                        .int("rect_top", rect.top)
                        .int("rect_right", rect.right)
                        .int("rect_bottom", rect.bottom);
                    let mut shape_props = Properties::new();
                    shape_props.int("attribute", *inside);
                    collision.push(MapObject {
                        id: 0,
                        name: String::new(),
                        class: attribute::name(*inside).unwrap_or("user").to_string(),
                        x: f64::from(rect.left),
                        y: f64::from(rect.top),
                        // Inclusive pixel coordinates: the rectangle covers right - left + 1.
                        shape: Shape::Rect {
                            width: f64::from(rect.right) - f64::from(rect.left) + 1.0,
                            height: f64::from(rect.bottom) - f64::from(rect.top) + 1.0,
                        },
                        gid: None,
                        visible: true,
                        properties: shape_props,
                    });
                }
                TileAttr::Mask { mask } => {
                    props
                        .string("type", "mask")
                        .string("mask_hex", hex::encode(mask));
                }
            }
            props
                .int("width", record.width)
                .int("height", record.height)
                .int("unknown", record.unknown);
            TileData {
                id: id as u32,
                properties: props,
                collision,
            }
        })
        .collect()
}

/// The fields of a WWD object of any logic at their defaults (0, empty), as Tiled's object
/// types offer them for a new object: every property [`to_tilemap`] gives an object but
/// `wwd_id` (a new object without one is given the next free id when the map becomes a level).
pub fn object_type_properties() -> Properties {
    let mut p = map_object(&Object::default(), 0).properties;
    p.0.retain(|p| p.name != "wwd_id");
    p
}

/// Give each object placed in Tiled without a `wwd_id` (`new`: its plane and index) the next
/// id after the largest of the others, in plane and object order.
fn give_new_objects_ids(planes: &mut [Plane], new: &[(usize, usize)]) {
    let is_new = |plane: usize, index: usize| new.binary_search(&(plane, index)).is_ok();
    let mut next = planes
        .iter()
        .enumerate()
        .flat_map(|(pi, p)| {
            p.objects
                .iter()
                .enumerate()
                .map(move |(oi, o)| (pi, oi, o.id))
        })
        .filter(|&(pi, oi, _)| !is_new(pi, oi))
        .map(|(_, _, id)| id)
        .max()
        .unwrap_or(0);
    for &(pi, oi) in new {
        if let Some(o) = planes.get_mut(pi).and_then(|p| p.objects.get_mut(oi)) {
            next = next.saturating_add(1);
            o.id = next;
        }
    }
}

/// What a property missing from an object stands for.
static OBJECT_DEFAULTS: std::sync::LazyLock<Properties> =
    std::sync::LazyLock::new(object_type_properties);

fn map_object(o: &Object, id: u32) -> MapObject {
    let mut p = Properties::new();
    p.int("wwd_id", o.id)
        .string("image_set", o.image_set.to_editor_text())
        .string("animation", o.animation.to_editor_text())
        .int("z", o.z)
        .int("i", o.i)
        .int("add_flags", o.add_flags.bits())
        .int("dynamic_flags", o.dynamic_flags.bits())
        .int("draw_flags", o.draw_flags.bits())
        .int("user_flags", o.user_flags.bits())
        .int("score", o.score)
        .int("points", o.points)
        .int("powerup", o.powerup)
        .int("damage", o.damage)
        .int("smarts", o.smarts)
        .int("health", o.health);
    for (name, r) in [
        ("move_rect", &o.move_rect),
        ("hit_rect", &o.hit_rect),
        ("attack_rect", &o.attack_rect),
        ("clip_rect", &o.clip_rect),
        ("user_rect1", &o.user_rect1),
        ("user_rect2", &o.user_rect2),
    ] {
        p.string(
            name,
            format!("{},{},{},{}", r.left, r.top, r.right, r.bottom),
        );
    }
    for (i, v) in o.user_values.iter().enumerate() {
        p.int(format!("user{}", i + 1), *v);
    }
    p.int("min_x", o.min_x)
        .int("min_y", o.min_y)
        .int("max_x", o.max_x)
        .int("max_y", o.max_y)
        .int("speed_x", o.speed_x)
        .int("speed_y", o.speed_y)
        .int("tweak_x", o.tweak_x)
        .int("tweak_y", o.tweak_y)
        .int("counter", o.counter)
        .int("speed", o.speed)
        .int("width", o.width)
        .int("height", o.height)
        .int("direction", o.direction)
        .int("face_dir", o.face_dir)
        .int("time_delay", o.time_delay)
        .int("frame_delay", o.frame_delay)
        .int("object_type", o.object_type)
        .int("hit_type_flags", o.hit_type_flags)
        .int("move_res_x", o.move_res_x)
        .int("move_res_y", o.move_res_y);
    MapObject {
        id,
        name: o.name.to_editor_text(),
        class: o.logic.to_editor_text(),
        x: f64::from(o.x),
        y: f64::from(o.y),
        shape: Shape::Point,
        gid: None,
        visible: !o.draw_flags.contains(DrawFlags::NO_DRAW),
        properties: p,
    }
}

// ---------------------------------------------------------------------------------------------
// Common TileMap -> WWD: the way back.

/// Where an import error happened, as a path naming the layer, object and property.
fn at(path: impl Into<String>) -> Location {
    Location::path(path)
}

fn prop_err(path: &str, e: PropertyError) -> Error {
    Error::malformed(F, at(path), e.to_string())
}

/// Typed property access that names the owner on error.
struct Props<'a> {
    props: &'a Properties,
    path: String,
    /// Where a missing property's value comes from (an object's fields: a new object placed
    /// in Tiled has only the properties its user set); `None`: a missing property is an error.
    defaults: Option<&'a Properties>,
}

impl<'a> Props<'a> {
    /// Access to `props` in which every property is needed.
    fn new(props: &'a Properties, path: impl Into<String>) -> Self {
        Props {
            props,
            path: path.into(),
            defaults: None,
        }
    }

    /// The properties a name is looked up in: the object's own, else the defaults.
    fn source(&self, name: &str) -> &'a Properties {
        match self.defaults {
            Some(d) if self.props.get(name).is_none() => d,
            _ => self.props,
        }
    }

    fn i32(&self, name: &str) -> Result<i32> {
        self.source(name)
            .need_i32(name)
            .map_err(|e| prop_err(&self.path, e))
    }

    fn u32(&self, name: &str) -> Result<u32> {
        self.source(name)
            .need_u32(name)
            .map_err(|e| prop_err(&self.path, e))
    }

    fn opt_bool(&self, name: &str) -> Result<Option<bool>> {
        self.props
            .get_bool(name)
            .map_err(|e| prop_err(&self.path, e))
    }

    fn opt_str(&self, name: &str) -> Result<Option<&str>> {
        self.props
            .get_str(name)
            .map_err(|e| prop_err(&self.path, e))
    }

    fn str(&self, name: &str) -> Result<&'a str> {
        self.source(name)
            .need_str(name)
            .map_err(|e| prop_err(&self.path, e))
    }

    fn raw(&self, name: &str) -> Result<RawString> {
        encode(&self.path, name, self.str(name)?)
    }

    fn slot(&self, name: &str) -> Result<SlotString> {
        let text = self.raw(name)?;
        let after = format!("{name}{AFTER_NUL_SUFFIX}");
        let after_nul = match self.opt_str(&after)? {
            Some(h) => Some(RawString(hex::decode(h).map_err(|_| {
                Error::malformed(
                    F,
                    at(&self.path),
                    format!("property {after:?} must be hex digits (two per byte), found {h:?}",),
                )
            })?)),
            None => None,
        };
        Ok(SlotString { text, after_nul })
    }

    fn rect(&self, name: &str) -> Result<Rect> {
        let text = self.str(name)?;
        let v: Vec<Option<i32>> = text.split(',').map(|t| t.trim().parse().ok()).collect();
        match v.as_slice() {
            [Some(l), Some(t), Some(r), Some(b)] => Ok(Rect::new(*l, *t, *r, *b)),
            _ => Err(Error::malformed(
                F,
                at(&self.path),
                format!(
                    "property {name:?} must be four integers \"left,top,right,bottom\", \
                     found {text:?}",
                ),
            )),
        }
    }

    /// `flags`, then each named bit's bool property set or cleared (a bool edited in Tiled wins
    /// over the number it came from).
    fn flags(&self, bits: &[(&str, u32)]) -> Result<u32> {
        let mut v = self.u32("flags")?;
        for (name, bit) in bits {
            match self.opt_bool(name)? {
                Some(true) => v |= bit,
                Some(false) => v &= !bit,
                None => {}
            }
        }
        Ok(v)
    }
}

fn encode(path: &str, name: &str, text: &str) -> Result<RawString> {
    RawString::from_editor_text(text).map_err(|c| {
        Error::malformed(
            F,
            at(path),
            format!(
                "property {name:?} has {c:?} (U+{:04X}), which the level's \
                 Windows-1252 strings cannot hold",
                u32::from(c)
            ),
        )
    })
}

/// What a tileset's cells mean in a WWD plane.
#[derive(Clone, Copy)]
enum SetKind {
    /// `remap`: for a sparse image set, the index in the remap tables of its WWD tile ids by
    /// local id ([`TILE_ID_PROPERTY`]).
    Image {
        plane: usize,
        set: u16,
        remap: Option<usize>,
    },
    Fill,
    Other,
}

fn tileset_kind(ts: &Tileset, index: usize) -> Result<SetKind> {
    let p = Props::new(&ts.properties, format!("tilesets[{index}] {:?}", ts.name));
    if p.opt_bool("wwd_fill")? == Some(true) {
        return Ok(SetKind::Fill);
    }
    let plane = p
        .props
        .get_int("wwd_plane")
        .map_err(|e| prop_err(&p.path, e))?;
    let set = p
        .props
        .get_int("wwd_image_set")
        .map_err(|e| prop_err(&p.path, e))?;
    match (plane, set) {
        (Some(plane), Some(set)) => Ok(SetKind::Image {
            remap: None,
            plane: usize::try_from(plane).map_err(|_| {
                Error::malformed(F, at(&p.path), "wwd_plane is negative".to_string())
            })?,
            set: u16::try_from(set).map_err(|_| {
                Error::malformed(
                    F,
                    at(&p.path),
                    format!("wwd_image_set {set} is not 0..=65535"),
                )
            })?,
        }),
        _ => Ok(SetKind::Other),
    }
}

/// The WWD tile ids by local id of a sparse image set's tileset ([`TILE_ID_PROPERTY`]); `None`
/// when no tile carries one.
fn sparse_ids(ts: &Tileset, index: usize) -> Result<Option<BTreeMap<u32, u16>>> {
    let mut ids = BTreeMap::new();
    for t in &ts.tiles {
        let path = format!("tilesets[{index}] {:?} tile {}", ts.name, t.id);
        let Some(id) = t
            .properties
            .get_int(TILE_ID_PROPERTY)
            .map_err(|e| prop_err(&path, e))?
        else {
            continue;
        };
        let id = u16::try_from(id).map_err(|_| {
            Error::malformed(
                F,
                at(&path),
                format!("{TILE_ID_PROPERTY} {id} is not a WWD tile id (0..=65535)"),
            )
        })?;
        ids.insert(t.id, id);
    }
    Ok((!ids.is_empty()).then_some(ids))
}

fn tile_records(ts: &Tileset, index: usize) -> Result<TileProperties> {
    let path = format!("tilesets[{index}] {:?}", ts.name);
    let p = Props::new(&ts.properties, path.clone());
    let mut unknown3_7 = [0u32; 5];
    for (i, v) in unknown3_7.iter_mut().enumerate() {
        *v = p.u32(&format!("wwd_tp_unknown{}", i + 3))?;
    }
    let mut tiles: Vec<&TileData> = ts
        .tiles
        .iter()
        .filter(|t| t.properties.get("type").is_some())
        .collect();
    tiles.sort_by_key(|t| t.id);
    let mut records = Vec::with_capacity(tiles.len());
    for (k, t) in tiles.iter().enumerate() {
        let tpath = format!("{path} tile {}", t.id);
        if t.id as usize != k {
            return Err(Error::malformed(
                F,
                at(&tpath),
                format!(
                    "tile attributes must cover tiles 0, 1, 2, … without gaps \
                     (the WWD table is indexed by tile id), but tile {k} has none"
                ),
            ));
        }
        let tp = Props::new(&t.properties, tpath.clone());
        let attr = match tp.str("type")? {
            "single" => TileAttr::Single {
                attribute: tp.i32("attribute")?,
            },
            "double" => {
                let mut rect = Rect::new(
                    tp.i32("rect_left")?,
                    tp.i32("rect_top")?,
                    tp.i32("rect_right")?,
                    tp.i32("rect_bottom")?,
                );
                // A collision rectangle moved or resized in Tiled's collision editor wins
                // (half-open in Tiled, inclusive in WWD).
                if let Some(MapObject {
                    x,
                    y,
                    shape: Shape::Rect { width, height },
                    ..
                }) = t.collision.first()
                {
                    let (l, top) = (x.round(), y.round());
                    let (r, b) = ((x + width).round() - 1.0, (y + height).round() - 1.0);
                    if [l, top, r, b].iter().all(|v| v.abs() < 2.0e9) {
                        rect = Rect::new(l as i32, top as i32, r as i32, b as i32);
                    }
                }
                TileAttr::Double {
                    outside: tp.i32("outside")?,
                    inside: tp.i32("inside")?,
                    rect,
                }
            }
            "mask" => {
                let h = tp.str("mask_hex")?;
                TileAttr::Mask {
                    mask: hex::decode(h).map_err(|_| {
                        Error::malformed(
                            F,
                            at(&tpath),
                            "property \"mask_hex\" must be hex digits".to_string(),
                        )
                    })?,
                }
            }
            other => {
                return Err(Error::malformed(
                    F,
                    at(&tpath),
                    format!(
                        "property \"type\" must be \"single\", \"double\" or \
                         \"mask\", found {other:?}"
                    ),
                ));
            }
        };
        records.push(TileProperty {
            unknown: tp.u32("unknown")?,
            width: tp.u32("width")?,
            height: tp.u32("height")?,
            attr,
        });
    }
    Ok(TileProperties {
        unknown1: p.u32("wwd_tp_unknown1")?,
        unknown2: p.u32("wwd_tp_unknown2")?,
        unknown3_7,
        records,
    })
}

fn header_from(props: &Properties) -> Result<Header> {
    let p = Props::new(props, "map properties");
    let slots = |prefix: &str| -> Result<[SlotString; 4]> {
        Ok([
            p.slot(&format!("{prefix}1"))?,
            p.slot(&format!("{prefix}2"))?,
            p.slot(&format!("{prefix}3"))?,
            p.slot(&format!("{prefix}4"))?,
        ])
    };
    Ok(Header {
        unknown1: p.u32("unknown1")?,
        flags: HeaderFlags::from_bits_retain(p.flags(&[
            ("use_z_coords", HeaderFlags::USE_Z_COORDS.bits()),
            ("compress", HeaderFlags::COMPRESS.bits()),
        ])?),
        unknown2: p.u32("unknown2")?,
        name: p.slot("name")?,
        author: p.slot("author")?,
        birth: p.slot("birth")?,
        rez_file: p.slot("rez_file")?,
        image_dir: p.slot("image_dir")?,
        pal_rez: p.slot("pal_rez")?,
        start_x: p.i32("start_x")?,
        start_y: p.i32("start_y")?,
        unknown3: p.u32("unknown3")?,
        unknown4: p.u32("unknown4")?,
        launch_app: p.slot("launch_app")?,
        image_sets: slots("image_set")?,
        prefixes: slots("prefix")?,
    })
}

/// A factor as a whole percentage, or `None` when it is not one.
fn percent(factor: f64) -> Option<i32> {
    let v = (factor * 100.0).round();
    ((factor * 100.0 - v).abs() < 1e-6 && v.abs() < 2.0e9).then_some(v as i32)
}

fn whole(v: f64) -> Option<i32> {
    (v.is_finite() && v.fract() == 0.0 && v.abs() < 2.0e9).then_some(v as i32)
}

fn plane_from(
    layer: &TileLayer,
    index: usize,
    layer_index: usize,
    kinds: &[(u32, u32, SetKind)],
    remaps: &[BTreeMap<u32, u16>],
) -> Result<Plane> {
    let path = format!("layers[{layer_index}] {:?}", layer.name);
    let p = Props::new(&layer.properties, path.clone());
    let mut flags = p.flags(&[
        ("main_plane", PlaneFlags::MAIN_PLANE.bits()),
        ("no_draw", PlaneFlags::NO_DRAW.bits()),
        ("wrap_x", PlaneFlags::X_WRAPPING.bits()),
        ("wrap_y", PlaneFlags::Y_WRAPPING.bits()),
        ("auto_tile_size", PlaneFlags::AUTO_TILE_SIZE.bits()),
    ])?;
    // Tiled's own eye toggle is the plane's no-draw flag.
    if layer.visible == (flags & PlaneFlags::NO_DRAW.bits() != 0) {
        flags ^= PlaneFlags::NO_DRAW.bits();
    }
    let mut movement_x_percent = p.i32("movement_x_percent")?;
    let mut movement_y_percent = p.i32("movement_y_percent")?;
    // Parallax or offset edited in Tiled's layer panel win over the properties.
    if layer.parallax.0 != f64::from(movement_x_percent) / 100.0 {
        movement_x_percent = percent(layer.parallax.0).ok_or_else(|| {
            Error::malformed(
                F,
                at(&path),
                format!(
                    "horizontal parallax {} is not a whole percentage",
                    layer.parallax.0
                ),
            )
        })?;
    }
    if layer.parallax.1 != f64::from(movement_y_percent) / 100.0 {
        movement_y_percent = percent(layer.parallax.1).ok_or_else(|| {
            Error::malformed(
                F,
                at(&path),
                format!(
                    "vertical parallax {} is not a whole percentage",
                    layer.parallax.1
                ),
            )
        })?;
    }
    let offset = |v: f64, what: &str| {
        whole(v).ok_or_else(|| {
            Error::malformed(
                F,
                at(&path),
                format!("{what} offset {v} is not a whole number of pixels"),
            )
        })
    };
    let mut origin_x = p.i32("origin_x")?;
    let mut origin_y = p.i32("origin_y")?;
    if layer.offset.0 != f64::from(origin_x) {
        origin_x = offset(layer.offset.0, "horizontal")?;
    }
    if layer.offset.1 != f64::from(origin_y) {
        origin_y = offset(layer.offset.1, "vertical")?;
    }
    let mut image_sets = Vec::new();
    while let Some(name) = p.opt_str(&format!("image_set{}", image_sets.len()))? {
        image_sets.push(encode(&path, "image_set", name)?);
    }
    let name_after = format!("name{AFTER_NUL_SUFFIX}");
    let name = SlotString {
        text: encode(&path, "layer name", &layer.name)?,
        after_nul: match p.opt_str(&name_after)? {
            Some(h) => Some(RawString(hex::decode(h).map_err(|_| {
                Error::malformed(
                    F,
                    at(&path),
                    format!("property {name_after:?} must be hex digits"),
                )
            })?)),
            None => None,
        },
    };

    let width = layer.width();
    let mut tiles = Vec::with_capacity(layer.data().len());
    let mut last: Option<(u32, u32, SetKind)> = None;
    for (i, &gid) in layer.data().iter().enumerate() {
        if gid == 0 {
            tiles.push(TILE_EMPTY);
            continue;
        }
        let hit = match last {
            Some(k @ (first, count, _)) if gid >= first && gid - first < count => Some(k),
            _ => kinds
                .iter()
                .rev()
                .find(|(first, _, _)| *first <= gid)
                .filter(|(first, count, _)| gid - first < *count)
                .copied(),
        };
        last = hit;
        let cell = || {
            let w = width.max(1) as usize;
            format!("{path} cell ({}, {})", i % w, i / w)
        };
        let raw = match hit {
            None => {
                return Err(Error::malformed(
                    F,
                    at(cell()),
                    format!("gid {gid} belongs to no tileset"),
                ));
            }
            Some((_, _, SetKind::Fill)) => TILE_FILL,
            Some((first, _, SetKind::Image { plane, set, remap })) if plane == index => {
                let local = gid - first;
                let id = match remap.and_then(|r| remaps.get(r)) {
                    Some(ids) => ids.get(&local).copied().ok_or_else(|| {
                        Error::malformed(
                            F,
                            at(cell()),
                            format!(
                                "tile {local} of a sparse image set's tileset has no \
                                 {TILE_ID_PROPERTY:?} property naming its WWD tile id"
                            ),
                        )
                    })?,
                    None => u16::try_from(local).map_err(|_| {
                        Error::malformed(F, at(cell()), format!("tile id {local} is over 65535"))
                    })?,
                };
                Tile::Image { set, id }.to_raw()
            }
            Some((_, _, SetKind::Image { plane, .. })) => {
                return Err(Error::malformed(
                    F,
                    at(cell()),
                    format!(
                        "gid {gid} is a tile of plane {plane}'s tileset; a WWD plane can \
                         only use its own image sets",
                    ),
                ));
            }
            Some((_, _, SetKind::Other)) => {
                return Err(Error::malformed(
                    F,
                    at(cell()),
                    format!(
                        "gid {gid} is in a tileset that is no WWD image set (it has no \
                         wwd_plane/wwd_image_set properties)",
                    ),
                ));
            }
        };
        tiles.push(raw);
    }
    let dim = |v: u32, what: &str| {
        i32::try_from(v)
            .map_err(|_| Error::malformed(F, at(&path), format!("{what} {v} is too large")))
    };
    Ok(Plane {
        unknown1: p.u32("unknown1")?,
        flags: PlaneFlags::from_bits_retain(flags),
        unknown2: p.u32("unknown2")?,
        name,
        width_px: p.i32("width_px")?,
        height_px: p.i32("height_px")?,
        tile_width: p.i32("tile_width")?,
        tile_height: p.i32("tile_height")?,
        tiles_wide: dim(layer.width(), "width")?,
        tiles_high: dim(layer.height(), "height")?,
        origin_x,
        origin_y,
        movement_x_percent,
        movement_y_percent,
        fill_color: p.i32("fill_color")?,
        z_coord: p.i32("z")?,
        unknown5: p.u32("unknown5")?,
        unknown6: p.u32("unknown6")?,
        unknown7: p.u32("unknown7")?,
        image_sets,
        tiles,
        objects: Vec::new(),
    })
}

fn object_from(o: &MapObject, path: &str, warnings: &mut Vec<Warning>) -> Result<Object> {
    let p = Props {
        defaults: Some(&OBJECT_DEFAULTS),
        ..Props::new(&o.properties, path)
    };
    let mut pos = |v: f64, what: &str| -> Result<i32> {
        let r = v.round();
        if !(v.is_finite() && r.abs() < 2.0e9) {
            return Err(Error::malformed(
                F,
                at(path),
                format!("{what} {v} is not a pixel position"),
            ));
        }
        if r != v {
            warnings.push(Warning::warning(
                F,
                at(path),
                format!("{what} {v} rounded to the whole pixel {r}"),
            ));
        }
        Ok(r as i32)
    };
    let mut draw_flags = p.u32("draw_flags")?;
    if o.visible == (draw_flags & DrawFlags::NO_DRAW.bits() != 0) {
        draw_flags ^= DrawFlags::NO_DRAW.bits();
    }
    let mut user_values = [0i32; 8];
    for (i, v) in user_values.iter_mut().enumerate() {
        *v = p.i32(&format!("user{}", i + 1))?;
    }
    Ok(Object {
        // A new object has none (0 until the level is complete: `give_new_objects_ids`).
        id: match o.properties.get("wwd_id") {
            Some(_) => p.i32("wwd_id")?,
            None => 0,
        },
        x: pos(o.x, "x")?,
        y: pos(o.y, "y")?,
        z: p.i32("z")?,
        i: p.i32("i")?,
        add_flags: AddFlags::from_bits_retain(p.u32("add_flags")?),
        dynamic_flags: DynamicFlags::from_bits_retain(p.u32("dynamic_flags")?),
        draw_flags: DrawFlags::from_bits_retain(draw_flags),
        user_flags: UserFlags::from_bits_retain(p.u32("user_flags")?),
        score: p.i32("score")?,
        points: p.i32("points")?,
        powerup: p.i32("powerup")?,
        damage: p.i32("damage")?,
        smarts: p.i32("smarts")?,
        health: p.i32("health")?,
        move_rect: p.rect("move_rect")?,
        hit_rect: p.rect("hit_rect")?,
        attack_rect: p.rect("attack_rect")?,
        clip_rect: p.rect("clip_rect")?,
        user_rect1: p.rect("user_rect1")?,
        user_rect2: p.rect("user_rect2")?,
        user_values,
        min_x: p.i32("min_x")?,
        min_y: p.i32("min_y")?,
        max_x: p.i32("max_x")?,
        max_y: p.i32("max_y")?,
        speed_x: p.i32("speed_x")?,
        speed_y: p.i32("speed_y")?,
        tweak_x: p.i32("tweak_x")?,
        tweak_y: p.i32("tweak_y")?,
        counter: p.i32("counter")?,
        speed: p.i32("speed")?,
        width: p.i32("width")?,
        height: p.i32("height")?,
        direction: p.i32("direction")?,
        face_dir: p.i32("face_dir")?,
        time_delay: p.i32("time_delay")?,
        frame_delay: p.i32("frame_delay")?,
        object_type: p.u32("object_type")?,
        hit_type_flags: p.u32("hit_type_flags")?,
        move_res_x: p.u32("move_res_x")?,
        move_res_y: p.u32("move_res_y")?,
        name: encode(path, "name", &o.name)?,
        logic: encode(path, "class (the object's logic)", &o.class)?,
        image_set: p.raw("image_set")?,
        animation: p.raw("animation")?,
    })
}

/// Rebuild a level from a map made by [`to_tilemap`] (and possibly edited in Tiled since).
///
/// Everything is looked up by property name, so the order Tiled saves properties in does not
/// matter. Where the map shows a value in two places, the editor's own control wins over the
/// property it was made from when they disagree: a layer's parallax over its
/// `movement_*_percent`, its offset over `origin_*`, its visibility over `no_draw`, an object's
/// visibility over `draw_flags`' no-draw bit, the flag bools over `flags`, a double tile's
/// collision rectangle over its `rect_*` properties. Tile layers become planes in order; an object
/// group's `wwd_plane` names the plane its objects belong to. Object positions are rounded to
/// whole pixels (with a warning). A `wwd_layout` map property restores a non-editor section
/// layout; when the edited level no longer fits it, the editor's layout is used (with a
/// warning).
pub fn from_tilemap(map: &TileMap) -> Result<(Wwd, Vec<Warning>)> {
    let mut warnings = Vec::new();
    let header = header_from(&map.properties)?;
    let mut kinds = Vec::with_capacity(map.tilesets.len());
    let mut remaps: Vec<BTreeMap<u32, u16>> = Vec::new();
    let mut tile_properties = None;
    for (i, ts) in map.tilesets.iter().enumerate() {
        let mut kind = tileset_kind(ts, i)?;
        if let SetKind::Image { remap, .. } = &mut kind
            && let Some(ids) = sparse_ids(ts, i)?
        {
            *remap = Some(remaps.len());
            remaps.push(ids);
        }
        kinds.push((ts.first_gid, ts.tile_count, kind));
        if tile_properties.is_none() && ts.properties.get("wwd_tp_unknown1").is_some() {
            tile_properties = Some(tile_records(ts, i)?);
        }
    }
    let mut planes = Vec::new();
    let mut groups = Vec::new();
    for (li, layer) in map.layers.iter().enumerate() {
        match layer {
            Layer::Tiles(t) => {
                let plane = plane_from(t, planes.len(), li, &kinds, &remaps)?;
                planes.push(plane);
            }
            Layer::Objects(g) => groups.push((li, g)),
        }
    }
    // Objects placed in Tiled without a `wwd_id`: (plane, index), given ids at the end.
    let mut new_objects = Vec::new();
    for (li, g) in groups {
        let path = format!("layers[{li}] {:?}", g.name);
        let plane = g
            .properties
            .get_int("wwd_plane")
            .map_err(|e| prop_err(&path, e))?
            .ok_or_else(|| {
                Error::malformed(
                    F,
                    at(&path),
                    "an object group needs the int property \"wwd_plane\" naming the plane \
                     (0 = the first tile layer) its objects belong to"
                        .to_string(),
                )
            })?;
        let count = planes.len();
        let plane_index = usize::try_from(plane).unwrap_or(usize::MAX);
        let target = planes.get_mut(plane_index).ok_or_else(|| {
            Error::malformed(
                F,
                at(&path),
                format!("wwd_plane {plane} is not one of the {count} planes"),
            )
        })?;
        for o in &g.objects {
            let opath = format!("{path} object {} {:?}", o.id, o.name);
            if o.properties.get("wwd_id").is_none() {
                new_objects.push((plane_index, target.objects.len()));
            }
            target.objects.push(object_from(o, &opath, &mut warnings)?);
        }
    }
    new_objects.sort_unstable();
    give_new_objects_ids(&mut planes, &new_objects);
    let layout = match map.properties.get_str(LAYOUT_PROPERTY) {
        Ok(Some(json)) => Some(serde_json::from_str::<Layout>(json).map_err(|e| {
            Error::malformed(
                F,
                at("map properties"),
                format!("map property {LAYOUT_PROPERTY:?} is not a section layout: {e}"),
            )
        })?),
        Ok(None) => None,
        Err(e) => return Err(prop_err("map properties", e)),
    };
    let compression = match map.properties.get_str(DEFLATE_PROPERTY) {
        Ok(Some(json)) => serde_json::from_str::<Deflate>(json).map_err(|e| {
            Error::malformed(
                F,
                at("map properties"),
                format!("map property {DEFLATE_PROPERTY:?} is not a WWD compression: {e}"),
            )
        })?,
        Ok(None) => Deflate::default(),
        Err(e) => return Err(prop_err("map properties", e)),
    };
    let mut wwd = Wwd {
        header,
        planes,
        tile_properties: tile_properties.unwrap_or_default(),
        layout,
        compression,
        source: checksums(map)?,
    };
    if wwd.layout.is_some() && wwd.write().is_err() {
        wwd.layout = None;
        warnings.push(Warning::warning(
            F,
            at(LAYOUT_PROPERTY),
            "the edited level no longer fits the original file's section layout; it is written \
             in the editor's layout",
        ));
    }
    Ok((wwd, warnings))
}
