//! [`Level`] -> common [`TileMap`], for both `.graal` and `.nw`.
//!
//! * The tileset is the 128 × 32 atlas of 16-px tiles (`pics1.png` in the classic client). A
//!   tile index becomes the atlas cell the notes' formula gives (`column = (i / 512) * 16 +
//!   i % 16`, `row = (i / 16) % 32`), and its global id is `1 + row * 128 + column`.
//! * Each board layer becomes a tile layer; transparent cells become gid 0.
//! * Links become rectangles, chests 2 × 2-tile rectangles, signs, baddies and NPCs points, all in
//!   pixels, with every field as a typed property (NPC scripts and sign texts included).

use super::level::*;
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, PropertyValue, Shape, TileLayer, TileMap, Tileset,
};

/// Pixels per tile.
pub const TILE_PX: u32 = 16;
/// Atlas width in tiles.
pub const ATLAS_COLUMNS: u32 = 128;
/// Atlas height in tiles.
pub const ATLAS_ROWS: u32 = 32;

/// The global id of a tile index in the atlas tileset (first gid 1).
pub fn gid(index: u16) -> u32 {
    let (col, row) = atlas_position(index);
    1 + u32::from(row) * ATLAS_COLUMNS + u32::from(col)
}

fn px(tiles: f64) -> f64 {
    tiles * f64::from(TILE_PX)
}

fn coord_value(c: &LinkCoord) -> PropertyValue {
    match c {
        LinkCoord::Tiles(v) => PropertyValue::Float(*v),
        LinkCoord::PlayerX => PropertyValue::String("playerx".into()),
        LinkCoord::PlayerY => PropertyValue::String("playery".into()),
    }
}

fn layer_prop(p: &mut Properties, layer: Option<i32>) {
    if let Some(l) = layer {
        p.int("layer", l);
    }
}

fn object(id: &mut u32, name: String, class: &str, x: f64, y: f64, shape: Shape) -> MapObject {
    let o = MapObject {
        id: *id,
        name,
        class: class.into(),
        x,
        y,
        shape,
        gid: None,
        visible: true,
        properties: Properties::new(),
    };
    *id = id.saturating_add(1);
    o
}

/// Convert a level's meaning to the common model; `source` is the format it was read from.
pub fn to_tilemap(level: &Level, source: Format) -> (TileMap, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut layers = Vec::new();
    for (i, board) in level.layers.iter().enumerate() {
        let mut out_of_atlas = 0usize;
        let data = board
            .tiles
            .iter()
            .map(|&t| {
                if t == TILE_TRANSPARENT {
                    0
                } else if t > 0xFFF {
                    out_of_atlas += 1;
                    0
                } else {
                    gid(t)
                }
            })
            .collect();
        if out_of_atlas > 0 {
            warnings.push(Warning::warning(
                source,
                Location::path(format!("layers[{i}]")),
                format!(
                    "{out_of_atlas} cells hold tile indices beyond the 4096-tile atlas; left empty"
                ),
            ));
        }
        match TileLayer::new(format!("layer {}", board.layer), 64, 64, data) {
            Ok(mut layer) => {
                layer.properties.int("graal_layer", board.layer);
                layers.push(Layer::Tiles(layer));
            }
            Err(e) => warnings.push(Warning::error(
                source,
                Location::path(format!("layers[{i}]")),
                format!("{e}; layer left out"),
            )),
        }
    }

    let mut id = 1u32;
    let mut objects = Vec::new();
    for l in &level.links {
        let mut o = object(
            &mut id,
            l.dest.display(),
            "link",
            px(f64::from(l.x)),
            px(f64::from(l.y)),
            Shape::Rect {
                width: px(f64::from(l.width)),
                height: px(f64::from(l.height)),
            },
        );
        o.properties
            .string("dest", l.dest.display())
            .push("dest_x", coord_value(&l.dest_x))
            .push("dest_y", coord_value(&l.dest_y));
        if let Some((dest_layer, layer)) = l.layers {
            o.properties
                .int("dest_layer", dest_layer)
                .int("layer", layer);
        }
        objects.push(o);
    }
    for s in &level.signs {
        let text = sign_text::to_text(&s.glyphs);
        let mut o = object(
            &mut id,
            String::new(),
            "sign",
            px(s.x),
            px(s.y),
            Shape::Point,
        );
        o.properties.string("text", text);
        layer_prop(&mut o.properties, s.layer);
        objects.push(o);
    }
    for c in &level.chests {
        let item = usize::try_from(c.item)
            .ok()
            .and_then(|i| CHEST_ITEMS.get(i))
            .copied()
            .unwrap_or("");
        let mut o = object(
            &mut id,
            item.into(),
            "chest",
            px(c.x),
            px(c.y),
            Shape::Rect {
                width: px(2.0),
                height: px(2.0),
            },
        );
        o.properties.int("item", c.item).int("sign", c.sign);
        layer_prop(&mut o.properties, c.layer);
        objects.push(o);
    }
    for b in &level.baddies {
        let kind = BADDY_TYPES.get(usize::from(b.kind)).copied().unwrap_or("");
        let mut o = object(
            &mut id,
            kind.into(),
            "baddy",
            px(b.x),
            px(b.y),
            Shape::Point,
        );
        o.properties.int("type", b.kind);
        for (k, verse) in b.verses.iter().enumerate() {
            let name = ["verse_sight", "verse_hurt", "verse_attack"]
                .get(k)
                .map_or_else(|| format!("verse{k}"), |n| (*n).to_string());
            o.properties.string(name, verse.display());
        }
        layer_prop(&mut o.properties, b.layer);
        objects.push(o);
    }
    for n in &level.npcs {
        let mut o = object(
            &mut id,
            n.image.display(),
            "npc",
            px(n.x),
            px(n.y),
            Shape::Point,
        );
        o.properties
            .string("image", n.image.display())
            .string("script", n.script.display());
        layer_prop(&mut o.properties, n.layer);
        objects.push(o);
    }
    layers.push(Layer::Objects(ObjectGroup {
        name: "objects".into(),
        parallax: (1.0, 1.0),
        visible: true,
        objects,
        properties: Properties::new(),
    }));

    let mut tileset_props = Properties::new();
    tileset_props.string(
        "formula",
        "column = (i / 512) * 16 + i % 16, row = (i / 16) % 32",
    );
    let map = TileMap {
        width: 64,
        height: 64,
        tile_width: TILE_PX,
        tile_height: TILE_PX,
        background: None,
        tilesets: vec![Tileset {
            name: "pics1".into(),
            first_gid: 1,
            tile_width: TILE_PX,
            tile_height: TILE_PX,
            tile_count: ATLAS_COLUMNS * ATLAS_ROWS,
            image: Some("pics1.png".into()),
            properties: tileset_props,
            tiles: Vec::new(),
        }],
        layers,
        properties: Properties::new(),
        source_format: source,
    };
    (map, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gids_follow_the_atlas_formula() {
        assert_eq!(gid(0), 1);
        assert_eq!(gid(16), 1 + 128);
        assert_eq!(gid(512), 1 + 16);
        assert_eq!(gid(4095), 4096);
    }

    #[test]
    fn a_level_maps_every_object_kind() {
        let level = super::super::samples::level();
        let (map, warnings) = to_tilemap(&level, Format::GraalLevel);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(map.validate().is_empty());
        let Some(Layer::Objects(group)) = map.layers.last() else {
            panic!("no object group");
        };
        let count = |class: &str| group.objects.iter().filter(|o| o.class == class).count();
        assert_eq!(count("link"), level.links.len());
        assert_eq!(count("sign"), level.signs.len());
        assert_eq!(count("chest"), level.chests.len());
        assert_eq!(count("baddy"), level.baddies.len());
        assert_eq!(count("npc"), level.npcs.len());
        let Some(link) = group.objects.first() else {
            panic!("no objects");
        };
        assert_eq!((link.x, link.y), (0.0, 0.0));
        assert_eq!(
            link.shape,
            Shape::Rect {
                width: 1024.0,
                height: 16.0
            }
        );
    }
}
