//! Object images in a tile map: the game's sprite of a WWD object, or the image a Graal NPC
//! names, shown in Tiled as the game shows it.
//!
//! [`attach`] adds one *image-collection* tileset (Tiled's "collection of images": every tile
//! its own image, `columns="0"`) and turns each object that has an image into a *tile object*
//! of that tileset, at the image's rectangle. The tileset carries the property
//! [`SPRITES_PROPERTY`], so a reader knows its tiles are pictures only, made again from the game
//! files on every export.
//!
//! Tiled places a tile object by its image, but the formats place an object by a point (a WWD
//! object's x/y is where the game puts the sprite's anchor, which the image's own offsets move
//! away from). So each such object keeps the distance from its image's top-left corner to its own
//! point in the properties [`DX_PROPERTY`] and [`DY_PROPERTY`]: moving the object in Tiled moves
//! both, and [`detach`] turns it back into the point object it was, at
//! `(x + dx, y + dy)`, removing the tileset. A map with sprites converts back to exactly the
//! level it came from.
//!
//! Only point objects get images: rectangles and polygons (Graal links, WWD tile collision) are
//! areas whose size means something.

use super::{
    Layer, MapObject, Properties, Property, PropertyValue, Shape, TileData, TileMap, Tileset,
};

/// Tileset property (bool, true) marking a tileset of object images.
pub const SPRITES_PROPERTY: &str = "levelkit.sprites";
/// Object property: the object's x minus its image's left edge, in pixels.
pub const DX_PROPERTY: &str = "levelkit.sprite_dx";
/// Object property: the object's y minus its image's top edge, in pixels.
pub const DY_PROPERTY: &str = "levelkit.sprite_dy";

/// One object drawn with an image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// The object's [`MapObject::id`].
    pub object: u32,
    /// The image: a local id of the sprite tileset (an index into the `sizes` of [`attach`]).
    pub tile: u32,
    /// The image's left edge in map pixels.
    pub left: f64,
    /// The image's top edge in map pixels.
    pub top: f64,
}

/// Add a sprite tileset named `name` whose tile `i` is an image of `sizes[i]` (width, height)
/// after every other tileset, and make each placed point object a tile object drawing its image.
/// Returns the new tileset's index in `map.tilesets`, or `None` when nothing was placed (the map
/// is then unchanged). Placements of unknown objects, of objects that are not points, or with a
/// tile outside `sizes` are skipped.
pub fn attach(
    map: &mut TileMap,
    name: &str,
    sizes: &[(u32, u32)],
    placements: &[Placement],
) -> Option<usize> {
    let count = u32::try_from(sizes.len()).ok()?;
    if count == 0 || placements.is_empty() {
        return None;
    }
    let first_gid = map
        .tilesets
        .iter()
        .map(|t| t.first_gid.saturating_add(t.tile_count.max(1)))
        .max()
        .unwrap_or(1);
    first_gid.checked_add(count)?;
    let by_object: std::collections::HashMap<u32, &Placement> =
        placements.iter().map(|p| (p.object, p)).collect();
    let mut placed = 0usize;
    for layer in &mut map.layers {
        let Layer::Objects(group) = layer else {
            continue;
        };
        for o in &mut group.objects {
            let Some(p) = by_object.get(&o.id) else {
                continue;
            };
            let Some(&(w, h)) = sizes.get(p.tile as usize) else {
                continue;
            };
            if o.shape != Shape::Point || o.gid.is_some() {
                continue;
            }
            o.properties
                .push(DX_PROPERTY, PropertyValue::Float(o.x - p.left))
                .push(DY_PROPERTY, PropertyValue::Float(o.y - p.top));
            o.x = p.left;
            o.y = p.top;
            o.shape = Shape::Rect {
                width: f64::from(w),
                height: f64::from(h),
            };
            o.gid = Some(first_gid + p.tile);
            placed += 1;
        }
    }
    if placed == 0 {
        return None;
    }
    let mut properties = Properties::new();
    properties.bool(SPRITES_PROPERTY, true);
    map.tilesets.push(Tileset {
        name: name.to_owned(),
        first_gid,
        tile_width: sizes.iter().map(|s| s.0).max().unwrap_or(1).max(1),
        tile_height: sizes.iter().map(|s| s.1).max().unwrap_or(1).max(1),
        tile_count: count,
        image: None,
        properties,
        tiles: Vec::<TileData>::new(),
    });
    Some(map.tilesets.len() - 1)
}

/// Whether `ts` is a tileset of object images ([`SPRITES_PROPERTY`]).
pub fn is_sprite_tileset(ts: &Tileset) -> bool {
    is_sprite_properties(&ts.properties)
}

/// Whether a tileset with these properties is a tileset of object images.
pub fn is_sprite_properties(properties: &Properties) -> bool {
    matches!(
        properties.get(SPRITES_PROPERTY),
        Some(PropertyValue::Bool(true))
    )
}

/// Undo [`attach`]: every tile object drawing a sprite tile becomes the point object it was (at
/// its image's corner plus [`DX_PROPERTY`]/[`DY_PROPERTY`], 0 when missing, as for a sprite
/// placed by hand in Tiled), and the sprite tilesets are removed. Returns how many objects were
/// turned back.
pub fn detach(map: &mut TileMap) -> usize {
    let ranges: Vec<(u32, u32)> = map
        .tilesets
        .iter()
        .filter(|t| is_sprite_tileset(t))
        .map(|t| (t.first_gid, t.first_gid.saturating_add(t.tile_count)))
        .collect();
    if ranges.is_empty() {
        return 0;
    }
    let mut restored = 0;
    for layer in &mut map.layers {
        let Layer::Objects(group) = layer else {
            continue;
        };
        for o in &mut group.objects {
            let Some(gid) = o.gid else {
                continue;
            };
            if !ranges.iter().any(|&(a, b)| (a..b).contains(&gid)) {
                continue;
            }
            restore(o);
            restored += 1;
        }
    }
    map.tilesets.retain(|t| !is_sprite_tileset(t));
    restored
}

fn restore(o: &mut MapObject) {
    let offset = |props: &[Property], name: &str| {
        props
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| match p.value {
                PropertyValue::Float(v) => Some(v),
                PropertyValue::Int(v) => Some(v as f64),
                _ => None,
            })
            .unwrap_or(0.0)
    };
    let dx = offset(&o.properties.0, DX_PROPERTY);
    let dy = offset(&o.properties.0, DY_PROPERTY);
    o.x += dx;
    o.y += dy;
    o.shape = Shape::Point;
    o.gid = None;
    o.properties
        .0
        .retain(|p| p.name != DX_PROPERTY && p.name != DY_PROPERTY);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Format;
    use crate::tilemap::ObjectGroup;

    fn map() -> TileMap {
        let point = |id, x, y| MapObject {
            id,
            name: format!("o{id}"),
            class: String::new(),
            x,
            y,
            shape: Shape::Point,
            gid: None,
            visible: true,
            properties: Properties::new(),
        };
        TileMap {
            width: 4,
            height: 4,
            tile_width: 16,
            tile_height: 16,
            background: None,
            tilesets: vec![Tileset {
                name: "t".into(),
                first_gid: 1,
                tile_width: 16,
                tile_height: 16,
                tile_count: 10,
                image: None,
                properties: Properties::new(),
                tiles: Vec::new(),
            }],
            layers: vec![Layer::Objects(ObjectGroup {
                name: "objects".into(),
                parallax: (1.0, 1.0),
                visible: true,
                objects: vec![point(1, 10.0, 20.0), point(2, 33.0, 7.0)],
                properties: Properties::new(),
            })],
            properties: Properties::new(),
            source_format: Format::Wwd,
        }
    }

    #[test]
    fn attach_then_detach_gives_the_map_back() {
        let original = map();
        let mut m = original.clone();
        let placements = [Placement {
            object: 2,
            tile: 1,
            left: 21.0,
            top: -5.0,
        }];
        let index = attach(&mut m, "sprites", &[(4, 4), (24, 12)], &placements);
        assert_eq!(index, Some(1));
        let ts = &m.tilesets[1];
        assert_eq!((ts.first_gid, ts.tile_count, ts.tile_width), (11, 2, 24));
        let Layer::Objects(g) = &m.layers[0] else {
            unreachable!()
        };
        let o = &g.objects[1];
        assert_eq!((o.x, o.y, o.gid), (21.0, -5.0, Some(12)));
        assert_eq!(
            o.shape,
            Shape::Rect {
                width: 24.0,
                height: 12.0
            }
        );
        assert_eq!(g.objects[0], original_object(&original, 0));
        assert_eq!(detach(&mut m), 1);
        assert_eq!(m, original);
    }

    fn original_object(m: &TileMap, i: usize) -> MapObject {
        let Layer::Objects(g) = &m.layers[0] else {
            unreachable!()
        };
        g.objects[i].clone()
    }

    #[test]
    fn nothing_to_place_leaves_the_map_alone() {
        let mut m = map();
        assert_eq!(attach(&mut m, "s", &[(1, 1)], &[]), None);
        let stray = Placement {
            object: 99,
            tile: 0,
            left: 0.0,
            top: 0.0,
        };
        assert_eq!(attach(&mut m, "s", &[(1, 1)], &[stray]), None);
        assert_eq!(m, map());
    }
}
