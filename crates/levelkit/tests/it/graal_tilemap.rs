//! Graal levels -> Tiled map -> Graal levels: exact bytes for unedited maps (also after what
//! Tiled does to a map: properties sorted by name, big ints as strings, positions rounded to 6
//! significant digits), exactly the edit for edited ones, the other format's conversion for
//! cross-format maps, and clear errors for maps that cannot be levels.

use crate::common;

use levelkit::document::Model;
use levelkit::formats::graal::binary::{self as graal, Graal};
use levelkit::formats::graal::level::{self, sign_text};
use levelkit::formats::graal::nw::{self, Nw, Statement};
use levelkit::formats::graal::tilemap as gt;
use levelkit::registry::Format;
use levelkit::strings::RawString;
use levelkit::tilemap::{Layer, MapObject, PropertyValue, Shape, TileLayer, TileMap};

/// Every corpus file with the given extension, as (name, bytes).
fn corpus_files(ext: &str) -> Vec<(String, Vec<u8>)> {
    let Some(dir) = common::corpus_or_skip("graal", "the real Graal levels") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().and_then(|e| e.to_str()) == Some(ext) {
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                out.push((name, std::fs::read(&f).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn round6(v: f64) -> f64 {
    format!("{v:.5e}").parse().unwrap()
}

/// What saving in Tiled and loading again may do to a map.
fn tiled(map: &TileMap) -> TileMap {
    let mut map = map.clone();
    let fix = |props: &mut levelkit::tilemap::Properties| {
        props.0.sort_by(|a, b| a.name.cmp(&b.name));
        for p in &mut props.0 {
            if let PropertyValue::Int(i) = p.value {
                if i32::try_from(i).is_err() {
                    p.value = PropertyValue::String(i.to_string());
                }
            }
        }
    };
    fix(&mut map.properties);
    for layer in &mut map.layers {
        match layer {
            Layer::Tiles(t) => fix(&mut t.properties),
            Layer::Objects(g) => {
                fix(&mut g.properties);
                for o in &mut g.objects {
                    fix(&mut o.properties);
                    o.x = round6(o.x);
                    o.y = round6(o.y);
                    if let Shape::Rect { width, height } = &mut o.shape {
                        *width = round6(*width);
                        *height = round6(*height);
                    }
                }
            }
        }
    }
    map
}

fn graal_back(map: &TileMap) -> Vec<u8> {
    gt::tilemap_to_graal(map).unwrap().0.write().unwrap()
}

fn nw_back(map: &TileMap) -> Vec<u8> {
    nw::tilemap_to_nw(map).unwrap().0.write().unwrap()
}

fn graal_sources() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![(
        "samples::graal".to_string(),
        graal::samples::graal().write().unwrap(),
    )];
    out.extend(corpus_files("graal"));
    out
}

fn nw_sources() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![(
        "samples::village".to_string(),
        nw::samples::village().write().unwrap(),
    )];
    out.extend(corpus_files("nw"));
    out
}

#[test]
fn every_graal_file_comes_back_exactly() {
    let mut exact = 0;
    let sources = graal_sources();
    for (name, bytes) in &sources {
        let g = Graal::read(bytes).unwrap();
        let (map, _) = gt::graal_to_tilemap(&g);
        assert!(map.validate().is_empty(), "{name}");
        let (back, _) = gt::tilemap_to_graal(&map).unwrap();
        assert_eq!(back, g, "{name}: model");
        assert!(graal_back(&map) == *bytes, "{name}: bytes");
        assert!(
            graal_back(&tiled(&map)) == *bytes,
            "{name}: bytes after Tiled"
        );
        // The meaning read from the map is the level's meaning.
        assert_eq!(
            gt::level_from_tilemap(&map).unwrap().0,
            g.to_level().0,
            "{name}"
        );
        exact += 1;
    }
    eprintln!("{exact} .graal levels exact");
    if common::corpus("graal").is_some() {
        assert_eq!(exact, 25, "24 corpus files and the sample");
    }
}

#[test]
fn every_nw_file_comes_back_exactly() {
    let mut exact = 0;
    for (name, bytes) in &nw_sources() {
        let n = Nw::read(bytes).unwrap();
        let (map, _) = nw::nw_to_tilemap(&n);
        assert!(map.validate().is_empty(), "{name}");
        let (back, _) = nw::tilemap_to_nw(&map).unwrap();
        assert_eq!(back, n, "{name}: model");
        assert!(nw_back(&map) == *bytes, "{name}: bytes");
        assert!(nw_back(&tiled(&map)) == *bytes, "{name}: bytes after Tiled");
        assert_eq!(
            gt::level_from_tilemap(&map).unwrap().0,
            n.to_level().0,
            "{name}"
        );
        exact += 1;
    }
    eprintln!("{exact} .nw levels exact");
    if common::corpus("graal").is_some() {
        assert_eq!(exact, 5, "4 corpus files and the sample");
    }
}

/// Spellings the meaning does not determine, all in one file.
#[test]
fn odd_spellings_come_back_exactly() {
    let odd: &[u8] = b"GLEVNW01\r\nBOARD 0 0 64 0 AAAB\r\nBOARD 0 0 2 0 ABAC\n\nUNKNOWN 1 2\r\n\
        NPC - 30.0  05 1\r\nsay hi;\nNPCEND\r\nNPC - 1.23456789 2\n\nNPCEND\n\
        CHEST 3 4 7 -1\nCHEST 3 4 fancything 0\nBADDY 1 2 frog\nhi\nBADDYEND\n\
        SIGN 5 6\n#4#h##\nSIGNEND\nTILESET pics2\nHEIGHTS\n1,2\nHEIGHTSEND\n\
        LINK a b.nw 1 2 3 4 playery 7.5\nBOARD 3 5 2 1 ABAC";
    let n = Nw::read(odd).unwrap();
    let (map, _) = nw::nw_to_tilemap(&n);
    assert!(nw_back(&map) == odd);
    assert!(nw_back(&tiled(&map)) == odd);
    // A fractional position that 6 digits of pixels cannot carry is kept in tile_x.
    let npc = objects(&map)
        .into_iter()
        .find(|o| o.class == "npc" && o.y == 32.0)
        .unwrap();
    assert_eq!(
        npc.properties.get_float("tile_x").unwrap(),
        Some(1.23456789)
    );
}

fn objects(map: &TileMap) -> Vec<&MapObject> {
    map.layers
        .iter()
        .flat_map(|l| match l {
            Layer::Objects(g) => g.objects.iter().collect(),
            Layer::Tiles(_) => Vec::new(),
        })
        .collect()
}

fn objects_mut(map: &mut TileMap) -> &mut Vec<MapObject> {
    map.layers
        .iter_mut()
        .find_map(|l| match l {
            Layer::Objects(g) => Some(&mut g.objects),
            Layer::Tiles(_) => None,
        })
        .unwrap()
}

fn nth<'a>(map: &'a mut TileMap, class: &str, n: usize) -> &'a mut MapObject {
    objects_mut(map)
        .iter_mut()
        .filter(|o| o.class == class)
        .nth(n)
        .unwrap()
}

fn set_prop(o: &mut MapObject, name: &str, value: PropertyValue) {
    let p = o.properties.0.iter_mut().find(|p| p.name == name).unwrap();
    p.value = value;
}

fn tile_layer(map: &mut TileMap, n: usize) -> &mut TileLayer {
    map.layers
        .iter_mut()
        .filter_map(|l| match l {
            Layer::Tiles(t) => Some(t),
            Layer::Objects(_) => None,
        })
        .nth(n)
        .unwrap()
}

fn set_cell(map: &mut TileMap, layer: usize, x: usize, y: usize, gid: u32) {
    let t = tile_layer(map, layer);
    let mut data = t.data().to_vec();
    data[y * 64 + x] = gid;
    let mut fresh = TileLayer::new(t.name.clone(), 64, 64, data).unwrap();
    fresh.properties = t.properties.clone();
    *t = fresh;
}

/// The .graal level with the most of every object kind (the sample, or a corpus level).
fn graal_subject() -> Graal {
    graal::samples::graal()
}

#[test]
fn graal_edits_come_back_as_exactly_that_edit() {
    let g = graal_subject();
    let (map, _) = gt::graal_to_tilemap(&g);
    let meaning = g.to_level().0;
    let check = |edited: TileMap, expected: Graal, what: &str| {
        let (back, _) = gt::tilemap_to_graal(&tiled(&edited)).unwrap();
        assert_eq!(back, expected, "{what}");
        assert_eq!(back.write().unwrap(), expected.write().unwrap(), "{what}");
    };

    // A tile.
    let mut m = map.clone();
    set_cell(&mut m, 0, 10, 12, gt::gid(0x123));
    let mut want = g.clone();
    want.boards[0].tiles[12 * 64 + 10] = 0x123;
    check(m, want, "tile");

    // Objects moved: a link by two tiles, a sign by one tile, an NPC by 3 tiles.
    let mut m = map.clone();
    nth(&mut m, "link", 1).x += 32.0;
    nth(&mut m, "sign", 0).y += 16.0;
    nth(&mut m, "npc", 0).x -= 48.0;
    let mut want = g.clone();
    let mut l = meaning.links[1].clone();
    l.x += 2;
    want.links[1] = graal::link_line(&l);
    want.signs[0].y_raw += 1;
    want.npcs[0].x_raw -= 3;
    check(m, want, "moves");

    // A move off the tile grid is rounded to the nearest tile.
    let mut m = map.clone();
    nth(&mut m, "npc", 0).x += 20.0;
    let mut want = g.clone();
    want.npcs[0].x_raw += 1;
    let (back, warnings) = gt::tilemap_to_graal(&m).unwrap();
    assert_eq!(back, want);
    assert!(
        warnings.iter().any(|w| w.message.contains("whole tiles")),
        "{warnings:?}"
    );

    // Properties: an NPC script, a link destination, a chest item.
    let mut m = map.clone();
    set_prop(
        nth(&mut m, "npc", 1),
        "script",
        PropertyValue::String("say bye;\nhide;".into()),
    );
    set_prop(nth(&mut m, "link", 0), "dest_x", PropertyValue::Float(12.5));
    set_prop(nth(&mut m, "chest", 0), "item", PropertyValue::Int(3));
    let mut want = g.clone();
    want.npcs[1].script = RawString(b"say bye;\xA7hide;".to_vec());
    let mut l = meaning.links[0].clone();
    l.dest_x = level::LinkCoord::tiles(12.5);
    want.links[0] = graal::link_line(&l);
    want.chests[0].bytes[2] = 3 + 32;
    check(m, want, "properties");

    // An object deleted, an object added.
    let mut m = map.clone();
    let objects = objects_mut(&mut m);
    let baddy = objects.iter().position(|o| o.class == "baddy").unwrap();
    objects.remove(baddy);
    let mut added = objects.iter().find(|o| o.class == "npc").unwrap().clone();
    added.id = 999;
    added.x = 5.0 * 16.0;
    added.y = 6.0 * 16.0;
    added.properties = Default::default();
    added.properties.string("script", "message new;");
    objects.push(added);
    let mut want = g.clone();
    want.baddies.remove(0);
    want.npcs.push(graal::NpcRecord {
        x_raw: 37,
        y_raw: 38,
        image: RawString::default(),
        script: RawString::from("message new;"),
    });
    check(m, want, "delete and add");
}

#[test]
fn graal_corpus_edits_keep_every_other_byte() {
    // A corpus level whose records need raw forms: edit one object, all others stay as they were.
    for (name, bytes) in corpus_files("graal") {
        let g = Graal::read(&bytes).unwrap();
        let (map, _) = gt::graal_to_tilemap(&g);
        if g.npcs.is_empty() {
            continue;
        }
        let mut m = tiled(&map);
        nth(&mut m, "npc", 0).x += 16.0;
        let (back, _) = gt::tilemap_to_graal(&m).unwrap();
        let mut want = g.clone();
        want.npcs[0].x_raw = want.npcs[0].x_raw.wrapping_add(1);
        assert_eq!(back, want, "{name}");
    }
}

fn nw_index(n: &Nw, keyword: &str, k: usize) -> usize {
    n.statements
        .iter()
        .enumerate()
        .filter(|(_, e)| e.statement.keyword() == Some(keyword))
        .nth(k)
        .unwrap()
        .0
}

#[test]
fn nw_edits_come_back_as_exactly_that_edit() {
    let n = nw::samples::village();
    let (map, _) = nw::nw_to_tilemap(&n);
    let check = |edited: TileMap, expected: Nw, what: &str| {
        let (back, _) = nw::tilemap_to_nw(&tiled(&edited)).unwrap();
        assert_eq!(back.write().unwrap(), expected.write().unwrap(), "{what}");
    };

    // A tile on the ground.
    let mut m = map.clone();
    set_cell(&mut m, 0, 7, 3, gt::gid(0x0AB));
    let mut want = n.clone();
    let i = nw_index(&n, "BOARD", 3);
    let Statement::Board(row) = &mut want.statements[i].statement else {
        panic!()
    };
    assert_eq!((row.y, row.x, row.layer), (3, 0, 0));
    row.tiles[7] = 0x0AB;
    check(m, want, "tile");

    // Moves: a link, a sign, an NPC (to a fractional tile).
    let mut m = map.clone();
    nth(&mut m, "link", 0).y += 16.0;
    nth(&mut m, "sign", 0).x += 8.0;
    nth(&mut m, "npc", 0).x += 4.0;
    let mut want = n.clone();
    if let Statement::Link(l) = &mut want.statements[nw_index(&n, "LINK", 0)].statement {
        l.y += 1;
    }
    if let Statement::Sign(s) = &mut want.statements[nw_index(&n, "SIGN", 0)].statement {
        s.x += 0.5;
    }
    if let Statement::Npc(x) = &mut want.statements[nw_index(&n, "NPC", 0)].statement {
        x.x += 0.25;
    }
    check(m, want, "moves");

    // Properties: an NPC script, a link destination, a chest item.
    let mut m = map.clone();
    set_prop(
        nth(&mut m, "npc", 0),
        "script",
        PropertyValue::String("a;\nb;".into()),
    );
    set_prop(
        nth(&mut m, "link", 0),
        "dest",
        PropertyValue::String("elsewhere.nw".into()),
    );
    set_prop(nth(&mut m, "chest", 0), "item", PropertyValue::Int(0));
    let mut want = n.clone();
    if let Statement::Npc(x) = &mut want.statements[nw_index(&n, "NPC", 0)].statement {
        x.script = vec![RawString::from("a;"), RawString::from("b;")];
    }
    if let Statement::Link(l) = &mut want.statements[nw_index(&n, "LINK", 0)].statement {
        l.dest = RawString::from("elsewhere.nw");
    }
    if let Statement::Chest(c) = &mut want.statements[nw_index(&n, "CHEST", 0)].statement {
        c.item = nw::NameOrNumber::Name(RawString::from("greenrupee"));
    }
    check(m, want, "properties");

    // An object deleted, an object added (at the end of the file).
    let mut m = map.clone();
    let objects = objects_mut(&mut m);
    let sign = objects.iter().position(|o| o.class == "baddy").unwrap();
    objects.remove(sign);
    let mut added = objects.iter().find(|o| o.class == "npc").unwrap().clone();
    added.id = 999;
    added.x = 40.0;
    added.y = 16.0;
    added.properties = Default::default();
    added
        .properties
        .string("image", "new.png")
        .string("script", "x;");
    objects.push(added);
    let mut want = n.clone();
    want.statements.remove(nw_index(&n, "BADDY", 0));
    want.statements.push(nw::Entry::new(Statement::Npc(nw::Npc {
        image: Some(RawString::from("new.png")),
        x: 2.5,
        y: 1.0,
        layer: None,
        script: vec![RawString::from("x;")],
    })));
    check(m, want, "delete and add");
}

#[test]
fn nw_board_edits_on_upper_layers_split_and_add_rows() {
    let odd: &[u8] = b"GLEVNW01\nBOARD 0 0 4 1 AAABACAD\nNPC - 1 2\nNPCEND\n";
    let n = Nw::read(odd).unwrap();
    let (mut map, _) = nw::nw_to_tilemap(&n);
    assert!(nw_back(&map) == odd);
    set_cell(&mut map, 1, 1, 0, 0); // empty: the row splits
    set_cell(&mut map, 1, 9, 5, gt::gid(7)); // new tile: a new row after the last row
    set_cell(&mut map, 0, 2, 2, gt::gid(1)); // ground: a new row too
    let out = nw_back(&map);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "GLEVNW01\nBOARD 0 0 1 1 AA\nBOARD 2 0 2 1 ACAD\nBOARD 2 2 1 0 AB\nBOARD 9 5 1 1 AH\n\
         NPC - 1 2\nNPCEND\n"
    );
}

#[test]
fn nw_corpus_edits_keep_every_other_byte() {
    for (name, bytes) in corpus_files("nw") {
        let n = Nw::read(&bytes).unwrap();
        let (map, _) = nw::nw_to_tilemap(&n);
        let mut m = tiled(&map);
        set_cell(&mut m, 0, 0, 0, gt::gid(0x0AB));
        let (back, _) = nw::tilemap_to_nw(&m).unwrap();
        let (mut level, _) = n.to_level();
        level.layers[0].tiles[0] = 0x0AB;
        assert_eq!(back.to_level().0, level, "{name}");
        // Only the first row's line differs.
        let out = back.write().unwrap();
        let a: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        let b: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
        assert_eq!(a.len(), b.len(), "{name}");
        let changed = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        assert_eq!(changed, 1, "{name}");
    }
}

#[test]
fn cross_format_maps_convert_like_convert_to() {
    for (name, bytes) in graal_sources() {
        let g = Graal::read(&bytes).unwrap();
        let (map, _) = gt::graal_to_tilemap(&g);
        let (nw, _) = nw::tilemap_to_nw(&tiled(&map)).unwrap();
        let (want, _) = Model::Graal(g).convert_to(Format::Nw).unwrap();
        assert_eq!(
            Model::Nw(nw).write().unwrap(),
            want.write().unwrap(),
            "{name}"
        );
    }
    for (name, bytes) in nw_sources() {
        let n = Nw::read(&bytes).unwrap();
        let (map, _) = nw::nw_to_tilemap(&n);
        let (g, _) = gt::tilemap_to_graal(&tiled(&map)).unwrap();
        let (want, _) = Model::Nw(n).convert_to(Format::GraalLevel).unwrap();
        assert_eq!(
            Model::Graal(g).write().unwrap(),
            want.write().unwrap(),
            "{name}"
        );
    }
}

fn error_of(map: &TileMap) -> String {
    let e = gt::tilemap_to_graal(map).unwrap_err();
    let n = nw::tilemap_to_nw(map).unwrap_err();
    assert_eq!(e.format, Format::GraalLevel);
    assert_eq!(n.format, Format::Nw);
    assert_eq!(e.location, n.location);
    format!("{} (at {})", e.message, e.location)
}

#[test]
fn maps_that_cannot_be_levels_are_clear_errors() {
    let (map, _) = graal::samples::graal().to_tilemap();

    let mut m = map.clone();
    nth(&mut m, "npc", 0).class = "monster".into();
    let e = error_of(&m);
    assert!(e.contains("unknown object type \"monster\""), "{e}");
    assert!(e.contains("layers[1] \"objects\" object"), "{e}");

    let mut m = map.clone();
    *tile_layer(&mut m, 0) = TileLayer::new("layer 0", 32, 64, vec![1; 32 * 64]).unwrap();
    let e = error_of(&m);
    assert!(e.contains("64 x 64") && e.contains("32 x 64"), "{e}");
    assert!(e.contains("layers[0] \"layer 0\""), "{e}");

    let mut m = map.clone();
    set_cell(&mut m, 0, 3, 4, 5000);
    let e = error_of(&m);
    assert!(e.contains("gid 5000") && e.contains("cell (3, 4)"), "{e}");

    let mut m = map.clone();
    set_prop(
        nth(&mut m, "chest", 0),
        "item",
        PropertyValue::String("lots".into()),
    );
    let e = error_of(&m);
    assert!(e.contains("property \"item\" must be an integer"), "{e}");
    assert!(e.contains("\"chest\" property \"item\""), "{e}");

    let mut m = map.clone();
    let link = nth(&mut m, "link", 0);
    link.properties.0.retain(|p| p.name != "dest");
    let e = error_of(&m);
    assert!(
        e.contains("property \"dest\"") && e.contains("missing"),
        "{e}"
    );
    assert!(e.contains("\"link\" property \"dest\""), "{e}");
}

#[test]
fn gid_inverse_covers_the_atlas() {
    for i in 0..4096u16 {
        assert_eq!(gt::tile_index(gt::gid(i) - 1), Some(i));
    }
    assert_eq!(gt::tile_index(4096), None);
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(gt::unescape_raw(&gt::escape_raw(&all)), Some(all));
    assert_eq!(sign_text::to_text(&[0]), "A");
}

/// A binary level with every record spelled in a way its meaning does not determine.
fn odd_graal() -> Graal {
    let mut g = graal::samples::graal();
    g.links.push(RawString::from("spaced.nw  1 2 3 4 30.0 5"));
    g.links.push(RawString::from("not a link"));
    g.links_end = graal::SectionEnd::Empty;
    g.baddies[0].verses = RawString::from("only one");
    g.baddies_end = RawString(vec![1, 2]);
    g.npcs[0].script = RawString(b"a;\r\xA7b;".to_vec());
    g.chests.insert(
        1,
        graal::ChestRecord {
            bytes: graal::NULL_CHEST,
        },
    );
    g.signs[0].text = RawString(vec![32, 20, 118, 75 + 32, 200]);
    g.signs_end = Some(RawString::from("tail"));
    // Packets our encoder would not write: every tile on its own.
    g.boards[0].packets = Some(g.boards[0].tiles.clone());
    g.boards[0].pad_bits = 1;
    g
}

#[test]
fn odd_graal_records_come_back_exactly_and_edit_field_by_field() {
    let bytes = odd_graal().write().unwrap();
    let g = Graal::read(&bytes).unwrap();
    assert!(g.boards[0].packets.is_some());
    assert_eq!(g.links_end, graal::SectionEnd::Empty);
    let (map, _) = gt::graal_to_tilemap(&g);
    let raws = objects(&map)
        .iter()
        .filter(|o| o.properties.get("graal_raw").is_some())
        .count();
    assert_eq!(raws, 4, "link, baddy, NPC and sign keep raw forms");
    assert!(graal_back(&map) == bytes);
    assert!(graal_back(&tiled(&map)) == bytes);

    // Moving the odd records keeps their odd text; changing the text drops it.
    let mut m = tiled(&map);
    nth(&mut m, "baddy", 0).x += 16.0;
    nth(&mut m, "npc", 0).y += 16.0;
    nth(&mut m, "sign", 0).x += 16.0;
    let link = objects_mut(&mut m)
        .iter_mut()
        .filter(|o| o.class == "link")
        .last()
        .unwrap();
    set_prop(link, "dest_y", PropertyValue::Float(6.0));
    let mut want = g.clone();
    want.baddies[0].x += 1;
    want.npcs[0].y_raw += 1;
    want.signs[0].x_raw += 1;
    let n = want.links.len() - 2;
    // The untouched destX keeps its spelling (`30.0`): a coordinate is a word.
    want.links[n] = RawString::from("spaced.nw 1 2 3 4 30.0 6");
    assert!(
        gt::tilemap_to_graal(&m).unwrap().0 == want,
        "moves keep the odd text"
    );

    // A tile edit re-encodes the board (the stored packets no longer fit).
    let mut m = tiled(&map);
    set_cell(&mut m, 0, 0, 0, gt::gid(5));
    let (back, _) = gt::tilemap_to_graal(&m).unwrap();
    let mut want = g.clone();
    want.boards[0].tiles[0] = 5;
    assert!(back.write().unwrap() == want.write().unwrap());
    assert!(back.write().unwrap() != bytes);
}

#[test]
fn odd_nw_statements_keep_their_spelling_while_moved() {
    let odd: &[u8] =
        b"GLEVNW01\nNPC - 1 2\n\nNPCEND\nCHEST 3 4 7 -1\nBADDY 1 2 frog\nhi\nBADDYEND\n";
    let n = Nw::read(odd).unwrap();
    let (map, _) = nw::nw_to_tilemap(&n);
    let mut m = tiled(&map);
    nth(&mut m, "npc", 0).x += 16.0;
    nth(&mut m, "chest", 0).x += 16.0;
    nth(&mut m, "baddy", 0).x += 16.0;
    assert_eq!(
        String::from_utf8(nw_back(&m)).unwrap(),
        "GLEVNW01\nNPC - 2 2\n\nNPCEND\nCHEST 4 4 7 -1\nBADDY 2 2 frog\nhi\nBADDYEND\n"
    );
}

/// A link placed in Tiled with only its destination level lands at (0, 0), the default its
/// object type shows; without a destination level it is refused, naming the object.
#[test]
fn a_link_placed_in_tiled_needs_only_its_destination() {
    let (mut map, _) = gt::graal_to_tilemap(&graal_subject());
    let link = nth(&mut map, "link", 0);
    link.properties
        .0
        .retain(|p| p.name != "dest_x" && p.name != "dest_y");
    let (back, _) = gt::tilemap_to_graal(&map).unwrap();
    let first = &back.to_level().0.links[0];
    assert_eq!(
        (first.dest_x.as_bytes(), first.dest_y.as_bytes()),
        (&b"0"[..], &b"0"[..])
    );
    let link = nth(&mut map, "link", 0);
    link.properties.0.retain(|p| p.name != "dest");
    let e = error_of(&map);
    assert!(
        e.contains("property \"dest\"") && e.contains("missing"),
        "{e}"
    );
}
