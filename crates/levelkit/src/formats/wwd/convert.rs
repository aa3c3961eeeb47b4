//! WWD -> common [`TileMap`].
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
//! * Header strings and reserved words become map properties.
//!
//! What has no home in a [`TileMap`] (a non-editor section layout, cells that name an image set
//! the plane does not list) is reported as a [`Warning`].

use std::collections::BTreeMap;

use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, PropertyValue, Shape, TileData, TileLayer, TileMap,
    Tileset,
};

const F: Format = Format::Wwd;

fn clamp_u32(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

/// Convert a level to the common model, with warnings for what does not map.
pub fn to_tilemap(wwd: &Wwd) -> (TileMap, Vec<Warning>) {
    let mut warnings = Vec::new();
    if wwd.layout.is_some() {
        warnings.push(Warning::warning(
            F,
            Location::path("layout"),
            "the file's non-editor section layout has no place in a tile map and is not carried over",
        ));
    }
    let main = wwd.planes.iter().position(Plane::is_main);
    let reference = main.and_then(|i| wwd.planes.get(i)).or(wwd.planes.first());
    let (tile_width, tile_height) = reference.map_or((64, 64), |p| {
        (clamp_u32(p.tile_width), clamp_u32(p.tile_height))
    });

    let mut tilesets = Vec::new();
    let mut next_gid = 1u32;
    // (plane, set) -> first gid
    let mut firsts: BTreeMap<(usize, u16), u32> = BTreeMap::new();
    for (pi, plane) in wwd.planes.iter().enumerate() {
        let mut max_id: BTreeMap<u16, u32> = BTreeMap::new();
        for &cell in &plane.tiles {
            if let Tile::Image { set, id } = Tile::from_raw(cell) {
                let e = max_id.entry(set).or_insert(0);
                *e = (*e).max(u32::from(id) + 1);
            }
        }
        if Some(pi) == main {
            let e = max_id.entry(0).or_insert(0);
            *e = (*e).max(wwd.tile_properties.records.len() as u32);
        }
        for (&set, &count) in &max_id {
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
                ts.properties
                    .int("wwd_tp_unknown1", wwd.tile_properties.unknown1)
                    .int("wwd_tp_unknown2", wwd.tile_properties.unknown2);
                for (i, v) in wwd.tile_properties.unknown3_7.iter().enumerate() {
                    ts.properties.int(format!("wwd_tp_unknown{}", i + 3), *v);
                }
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
                Tile::Image { set, id } => firsts
                    .get(&(pi, set))
                    .map_or(0, |first| first.saturating_add(u32::from(id))),
            })
            .collect();
        let name = plane.name.text.display();
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
    (map, warnings)
}

fn slot_value(s: &SlotString) -> PropertyValue {
    PropertyValue::String(s.text.display())
}

fn header_properties(h: &Header) -> Properties {
    let mut p = Properties::new();
    p.push("name", slot_value(&h.name))
        .push("author", slot_value(&h.author))
        .push("birth", slot_value(&h.birth))
        .push("rez_file", slot_value(&h.rez_file))
        .push("image_dir", slot_value(&h.image_dir))
        .push("pal_rez", slot_value(&h.pal_rez))
        .push("launch_app", slot_value(&h.launch_app));
    for (i, s) in h.image_sets.iter().enumerate() {
        p.push(format!("image_set{}", i + 1), slot_value(s));
    }
    for (i, s) in h.prefixes.iter().enumerate() {
        p.push(format!("prefix{}", i + 1), slot_value(s));
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
        .int("z", plane.z_coord)
        .int("fill_color", plane.fill_color)
        .int("movement_x_percent", plane.movement_x_percent)
        .int("movement_y_percent", plane.movement_y_percent)
        .int("width_px", plane.width_px)
        .int("height_px", plane.height_px)
        .int("origin_x", plane.origin_x)
        .int("origin_y", plane.origin_y);
    for (i, name) in plane.image_sets.iter().enumerate() {
        p.string(format!("image_set{i}"), name.display());
    }
    p.int("unknown1", plane.unknown1)
        .int("unknown2", plane.unknown2)
        .int("unknown5", plane.unknown5)
        .int("unknown6", plane.unknown6)
        .int("unknown7", plane.unknown7);
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
                    let hex: String = mask.iter().map(|b| format!("{b:02x}")).collect();
                    props.string("type", "mask").string("mask_hex", hex);
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

fn map_object(o: &Object, id: u32) -> MapObject {
    let mut p = Properties::new();
    p.int("wwd_id", o.id)
        .string("logic", o.logic.display())
        .string("image_set", o.image_set.display())
        .string("animation", o.animation.display())
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
        name: o.name.display(),
        class: o.logic.display(),
        x: f64::from(o.x),
        y: f64::from(o.y),
        shape: Shape::Point,
        gid: None,
        visible: !o.draw_flags.contains(DrawFlags::NO_DRAW),
        properties: p,
    }
}
