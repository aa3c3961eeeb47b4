//! WWD -> TileMap -> WWD is lossless, survives what Tiled does to a map on saving (properties
//! re-sorted, wide ints as strings), and carries edits made in the map back as exactly those
//! edits. (The same through Tiled's own hands: `tests/tiled_roundtrip.rs`.)

use crate::common;

use levelkit::formats::wwd::{self, DrawFlags, PlaneFlags, Tile, Wwd};
use levelkit::tilemap::{Layer, PropertyValue, TileLayer, TileMap};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = common::corpus_or_skip("wwd", "the corpus WWD files") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("badsig") {
            continue;
        }
        out.push((name, std::fs::read(&path).unwrap()));
    }
    out.sort();
    assert!(
        out.len() >= 4,
        "expected the 4 good WWD files in {}",
        dir.display()
    );
    out
}

fn levels() -> Vec<(String, Wwd)> {
    let mut out = vec![
        ("claw-like".to_string(), wwd::samples::claw_like()),
        ("gruntz-like".to_string(), wwd::samples::gruntz_like()),
    ];
    for (name, bytes) in corpus() {
        out.push((name, Wwd::read(&bytes).unwrap()));
    }
    out
}

/// What Tiled does to properties when it saves a map: sorted by name; ints outside i32 are
/// already strings in what we write.
fn tiled_like(map: &mut TileMap) {
    fn sort(p: &mut levelkit::tilemap::Properties) {
        p.0.sort_by(|a, b| a.name.cmp(&b.name));
        for prop in &mut p.0 {
            if let PropertyValue::Int(v) = prop.value
                && i32::try_from(v).is_err()
            {
                prop.value = PropertyValue::String(v.to_string());
            }
        }
    }
    sort(&mut map.properties);
    for ts in &mut map.tilesets {
        sort(&mut ts.properties);
        for t in &mut ts.tiles {
            sort(&mut t.properties);
        }
    }
    for l in &mut map.layers {
        match l {
            Layer::Tiles(t) => sort(&mut t.properties),
            Layer::Objects(g) => {
                sort(&mut g.properties);
                for o in &mut g.objects {
                    sort(&mut o.properties);
                }
            }
        }
    }
}

fn back(map: &TileMap) -> Wwd {
    let (w, warnings) = wwd::from_tilemap(map).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    w
}

/// `level` through its map and back, without its source facts.
fn back_of(level: &Wwd) -> Wwd {
    let (map, _) = level.to_tilemap();
    back(&map)
}

fn without_source(mut w: Wwd) -> Wwd {
    w.source = None;
    w
}

#[test]
fn every_level_comes_back_exactly() {
    for (name, level) in levels() {
        let (mut map, _) = level.to_tilemap();
        let direct = back(&map);
        assert_eq!(direct, without_source(level.clone()), "{name}");
        assert_eq!(direct.write().unwrap(), level.write().unwrap(), "{name}");
        tiled_like(&mut map);
        assert_eq!(back(&map), without_source(level.clone()), "{name} (sorted)");
        eprintln!("{name}: exact");
    }
}

fn objects_mut(map: &mut TileMap) -> impl Iterator<Item = &mut levelkit::tilemap::MapObject> {
    map.layers.iter_mut().flat_map(|l| match l {
        Layer::Objects(g) => g.objects.iter_mut().collect::<Vec<_>>(),
        Layer::Tiles(_) => Vec::new(),
    })
}

fn set_prop(p: &mut levelkit::tilemap::Properties, name: &str, v: PropertyValue) {
    let slot = p.0.iter_mut().find(|x| x.name == name).unwrap();
    slot.value = v;
}

#[test]
fn edits_come_back_as_exactly_those_edits() {
    let level = wwd::samples::claw_like();
    let (map, _) = level.to_tilemap();
    let main = level.planes.iter().position(|p| p.is_main()).unwrap();
    let main_layer = map
        .layers
        .iter()
        .position(
            |l| matches!(l, Layer::Tiles(t) if t.name == level.planes[main].name.text.display()),
        )
        .unwrap();

    // A tile changed.
    let mut m = map.clone();
    let Layer::Tiles(t) = &m.layers[main_layer] else {
        panic!()
    };
    let (w, h) = (t.width(), t.height());
    let mut data = t.data().to_vec();
    let some_gid = data.iter().copied().find(|&g| g > 1).unwrap();
    data[5] = some_gid - 1;
    let mut nt = TileLayer::new(t.name.clone(), w, h, data).unwrap();
    nt.parallax = t.parallax;
    nt.offset = t.offset;
    nt.visible = t.visible;
    nt.properties = t.properties.clone();
    m.layers[main_layer] = Layer::Tiles(nt);
    let got = back(&m);
    let mut want = without_source(level.clone());
    let first = m
        .tilesets
        .iter()
        .filter(|t| t.first_gid < some_gid)
        .map(|t| t.first_gid)
        .next_back()
        .unwrap();
    want.planes[main].tiles[5] = Tile::Image {
        set: 0,
        id: (some_gid - 1 - first) as u16,
    }
    .to_raw();
    assert_eq!(got, want, "tile edit");

    // An object moved and hidden, another's property changed, and its logic (class) renamed.
    let mut m = map.clone();
    {
        let mut objs = objects_mut(&mut m);
        let o = objs.next().unwrap();
        o.x += 64.0;
        o.y -= 32.0;
        o.visible = false;
        let o2 = objs.next().unwrap();
        set_prop(&mut o2.properties, "health", PropertyValue::Int(77));
        o2.class = "Officer".into();
    }
    let got = back(&m);
    let mut want = without_source(level.clone());
    {
        let mut objs = want.planes.iter_mut().flat_map(|p| p.objects.iter_mut());
        let o = objs.next().unwrap();
        o.x += 64;
        o.y -= 32;
        o.draw_flags |= DrawFlags::NO_DRAW;
        let o2 = objs.next().unwrap();
        o2.health = 77;
        o2.logic = "Officer".into();
    }
    assert_eq!(got, want, "object edits");

    // A layer hidden and its parallax changed in Tiled's layer panel; a map property changed.
    let mut m = map.clone();
    if let Layer::Tiles(t) = &mut m.layers[0] {
        t.visible = !t.visible;
        t.parallax.0 = 0.25;
    }
    set_prop(
        &mut m.properties,
        "author",
        PropertyValue::String("Someone Else".into()),
    );
    let got = back(&m);
    let mut want = without_source(level.clone());
    want.planes[0].flags.toggle(PlaneFlags::NO_DRAW);
    want.planes[0].movement_x_percent = 25;
    want.header.author = "Someone Else".into();
    assert_eq!(got, want, "layer and map edits");
}

#[test]
fn malformed_maps_give_errors_naming_the_place() {
    let (map, _) = wwd::samples::claw_like().to_tilemap();
    let err = |m: &TileMap| wwd::from_tilemap(m).err().unwrap().to_string();

    let mut m = map.clone();
    set_prop(
        &mut m.properties,
        "start_x",
        PropertyValue::String("left".into()),
    );
    let e = err(&m);
    assert!(
        e.contains("map properties") && e.contains("start_x") && e.contains("\"left\""),
        "{e}"
    );

    let mut m = map.clone();
    if let Some(o) = objects_mut(&mut m).next() {
        set_prop(&mut o.properties, "health", PropertyValue::Float(1.5));
    }
    let e = err(&m);
    assert!(
        e.contains("object 1") && e.contains("health") && e.contains("1.5"),
        "{e}"
    );

    let mut m = map.clone();
    if let Some(o) = objects_mut(&mut m).next() {
        set_prop(
            &mut o.properties,
            "hit_rect",
            PropertyValue::String("1,2,3".into()),
        );
    }
    let e = err(&m);
    assert!(
        e.contains("hit_rect") && e.contains("left,top,right,bottom"),
        "{e}"
    );

    let mut m = map.clone();
    if let Some(Layer::Objects(g)) = m.layers.iter_mut().find(|l| matches!(l, Layer::Objects(_))) {
        g.properties.0.clear();
    }
    let e = err(&m);
    assert!(e.contains("wwd_plane") && e.contains("objects"), "{e}");

    let mut m = map.clone();
    if let Layer::Tiles(t) = &mut m.layers[0] {
        t.properties.0.retain(|p| p.name != "z");
    }
    let e = err(&m);
    assert!(
        e.contains("layers[0]") && e.contains("\"z\"") && e.contains("missing"),
        "{e}"
    );

    let mut m = map.clone();
    if let Layer::Tiles(t) = &m.layers[0] {
        let mut data = t.data().to_vec();
        data[3] = 999_999;
        let mut nt = TileLayer::new(t.name.clone(), t.width(), t.height(), data).unwrap();
        nt.properties = t.properties.clone();
        nt.parallax = t.parallax;
        nt.offset = t.offset;
        m.layers[0] = Layer::Tiles(nt);
    }
    let e = err(&m);
    assert!(e.contains("cell (3, 0)") && e.contains("999999"), "{e}");

    let mut m = map.clone();
    set_prop(
        &mut m.properties,
        "name",
        PropertyValue::String("Level \u{0142}".into()),
    );
    let e = err(&m);
    assert!(e.contains("Windows-1252"), "{e}");
}

/// One cell naming tile 65535 (the hostile `tileset-amplification` WWDs) made a tileset of 65,536
/// tiles and an 8192 x 8192 atlas; the tileset of a sparse image set holds only the tiles used,
/// each with its WWD id, and the level comes back exactly. Dense levels keep one tile per id.
#[test]
fn sparse_image_sets_hold_only_the_tiles_used_and_come_back_exactly() {
    for (name, level) in levels() {
        let (map, _) = wwd::to_tilemap(&level);
        for ts in &map.tilesets {
            assert!(
                wwd::sparse_tile_ids(ts).is_none(),
                "{name}: {} is sparse",
                ts.name
            );
        }
    }
    for mut level in [wwd::samples::claw_like(), wwd::samples::gruntz_like()] {
        let plane = level
            .planes
            .iter()
            .position(|p| !p.tiles.is_empty())
            .unwrap();
        let tiles = &mut level.planes[plane].tiles;
        let last = tiles.len() - 1;
        tiles[last] = Tile::Image { set: 0, id: 0xFFFF }.to_raw();
        tiles[0] = Tile::Image { set: 0, id: 40000 }.to_raw();
        let (map, _) = wwd::to_tilemap(&level);
        let plane_sets: Vec<_> = map
            .tilesets
            .iter()
            .filter(|t| wwd::sparse_tile_ids(t).is_some())
            .collect();
        assert_eq!(plane_sets.len(), 1);
        let ids = wwd::sparse_tile_ids(plane_sets[0]).unwrap();
        assert!(
            plane_sets[0].tile_count < 2048,
            "{}",
            plane_sets[0].tile_count
        );
        assert_eq!(plane_sets[0].tile_count as usize, ids.len());
        assert!(ids.contains_key(&0xFFFF) && ids.contains_key(&40000));
        assert_eq!(without_source(back(&map)), without_source(level.clone()));
        // A tile that lost its id is an error naming it.
        let mut broken = map.clone();
        let ts = broken
            .tilesets
            .iter_mut()
            .find(|t| wwd::sparse_tile_ids(t).is_some())
            .unwrap();
        let tile = ts
            .tiles
            .iter_mut()
            .find(|t| t.properties.get(wwd::TILE_ID_PROPERTY).is_some())
            .unwrap();
        tile.properties = levelkit::tilemap::Properties::new();
        let err = wwd::from_tilemap(&broken).unwrap_err().to_string();
        assert!(err.contains(wwd::TILE_ID_PROPERTY), "{err}");
    }
}

/// An object placed in Tiled holds only the properties its user set (Tiled keeps its object
/// type's defaults out of the file): the others are the object type's defaults, and an object
/// without a `wwd_id` gets the next free id, in plane and object order.
#[test]
fn objects_placed_in_tiled_take_the_defaults_and_the_next_ids() {
    let level = wwd::samples::claw_like();
    let (mut map, _) = level.to_tilemap();
    let top = level
        .planes
        .iter()
        .flat_map(|p| &p.objects)
        .map(|o| o.id)
        .max()
        .unwrap();
    let group = map
        .layers
        .iter_mut()
        .find_map(|l| match l {
            Layer::Objects(g) => Some(g),
            Layer::Tiles(_) => None,
        })
        .unwrap();
    let count = group.objects.len();
    let mut placed = group.objects[0].clone();
    placed.class = "Officer".into();
    placed.name = String::new();
    placed.x = 640.0;
    placed.y = 320.0;
    placed.properties = levelkit::tilemap::Properties::new();
    placed.properties.int("health", 30);
    group.objects.push(placed.clone());
    placed.properties = levelkit::tilemap::Properties::new();
    group.objects.push(placed);
    let back = back(&map);
    let objects: Vec<_> = back.planes.iter().flat_map(|p| &p.objects).collect();
    assert_eq!(
        objects.len(),
        level.planes.iter().map(|p| p.objects.len()).sum::<usize>() + 2
    );
    let plane = back
        .planes
        .iter()
        .find(|p| p.objects.len() == count + 2)
        .unwrap();
    let (a, b) = (&plane.objects[count], &plane.objects[count + 1]);
    assert_eq!((a.id, b.id), (top + 1, top + 2));
    assert_eq!(a.logic.display(), "Officer");
    assert_eq!((a.x, a.y, a.health, a.score), (640, 320, 30, 0));
    assert_eq!(
        (b.health, b.user_flags.bits(), b.move_rect),
        (0, 0, Default::default())
    );
    // An id that is in the map is the object's, whatever its value (i32::MIN included).
    let mut odd = wwd::samples::claw_like();
    let main = odd.planes.iter().position(|p| p.is_main()).unwrap();
    odd.planes[main].objects[0].id = i32::MIN;
    assert_eq!(back_of(&odd), odd);
    // The defaults are the object types `levelkit tiled types` writes.
    let fields = wwd::object_type_properties();
    assert!(fields.get("wwd_id").is_none());
    assert_eq!(fields.get("health"), Some(&PropertyValue::Int(0)));
    // Everything else is the level as it was.
    let mut without = back.clone();
    for p in &mut without.planes {
        p.objects.retain(|o| o.id <= top);
    }
    assert_eq!(without, without_source(level));
}
