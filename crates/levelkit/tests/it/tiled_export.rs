//! Tiled export: the sample maps written as TMX and TMJ, parsed back with quick-xml and
//! serde_json, and (when Tiled is installed) loaded, rendered and re-saved by Tiled 1.8.2 itself.
use crate::common;

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::Format;
use levelkit::formats::graal::binary as graal;
use levelkit::formats::wwd;
use levelkit::tiled::{
    IMAGE_PROPERTY, LayerEncoding, SOURCE_FORMAT_PROPERTY, TiledOptions, TilesetImage, to_tmj,
    to_tmx,
};
use levelkit::tilemap::{Layer, MapObject, PropertyValue, Shape, TileMap};
use quick_xml::events::Event;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Inputs

fn claw() -> TileMap {
    wwd::samples::claw_like().to_tilemap().0
}

fn gruntz() -> TileMap {
    wwd::samples::gruntz_like().to_tilemap().0
}

fn island() -> TileMap {
    graal::samples::graal().to_tilemap().0
}

fn samples() -> Vec<(&'static str, TileMap)> {
    vec![("claw", claw()), ("gruntz", gruntz()), ("island", island())]
}

fn csv() -> TiledOptions {
    TiledOptions::default()
}

fn zlib() -> TiledOptions {
    TiledOptions {
        encoding: LayerEncoding::Base64Zlib,
        ..TiledOptions::default()
    }
}

const NPC_SCRIPT: &str = "// NPC made by levelkit\nif (playertouchsme) {\n  say 0;\n}";

// ---------------------------------------------------------------------------------------------
// A minimal DOM over quick-xml's reader

#[derive(Debug, Default)]
struct El {
    name: String,
    attrs: BTreeMap<String, String>,
    children: Vec<El>,
    text: String,
}

impl El {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }

    fn num(&self, name: &str) -> f64 {
        self.attr(name)
            .unwrap_or_else(|| panic!("<{}> has no {name}", self.name))
            .parse()
            .unwrap()
    }

    fn all<'a>(&'a self, name: &str) -> impl Iterator<Item = &'a El> + 'a {
        let name = name.to_string();
        self.children.iter().filter(move |c| c.name == name)
    }

    fn child(&self, name: &str) -> &El {
        self.all(name)
            .next()
            .unwrap_or_else(|| panic!("<{}> has no <{name}>", self.name))
    }

    /// `<properties>` as name -> (type attribute, value from attribute or content).
    fn props(&self) -> BTreeMap<String, (Option<String>, String)> {
        self.all("properties")
            .flat_map(|p| p.all("property"))
            .map(|p| {
                let value = p.attr("value").map_or(p.text.clone(), str::to_string);
                (
                    p.attr("name").unwrap().to_string(),
                    (p.attr("type").map(str::to_string), value),
                )
            })
            .collect()
    }
}

fn parse_xml(bytes: &[u8]) -> El {
    let text = std::str::from_utf8(bytes).unwrap();
    let mut reader = quick_xml::Reader::from_str(text);
    let mut stack = vec![El::default()];
    let element = |e: &quick_xml::events::BytesStart| El {
        name: String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
        attrs: e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                (
                    String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                    a.unescape_value().unwrap().into_owned(),
                )
            })
            .collect(),
        ..El::default()
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) => stack.push(element(&e)),
            Event::Empty(e) => stack.last_mut().unwrap().children.push(element(&e)),
            Event::End(_) => {
                let done = stack.pop().unwrap();
                stack.last_mut().unwrap().children.push(done);
            }
            Event::Text(t) => {
                let s = t.xml_content().unwrap();
                stack.last_mut().unwrap().text.push_str(&s);
            }
            Event::GeneralRef(r) => {
                let name = r.decode().unwrap();
                let c = match name.as_ref() {
                    "amp" => "&".to_string(),
                    "lt" => "<".into(),
                    "gt" => ">".into(),
                    "quot" => "\"".into(),
                    "apos" => "'".into(),
                    n => {
                        let code = n.strip_prefix('#').unwrap();
                        let v = match code.strip_prefix('x') {
                            Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
                            None => code.parse().unwrap(),
                        };
                        char::from_u32(v).unwrap().to_string()
                    }
                };
                stack.last_mut().unwrap().text.push_str(&c);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut root = stack.pop().unwrap();
    assert!(stack.is_empty());
    assert_eq!(root.children.len(), 1);
    root.children.pop().unwrap()
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => u32::from(c - b'A'),
        b'a'..=b'z' => u32::from(c - b'a') + 26,
        b'0'..=b'9' => u32::from(c - b'0') + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("bad base64 {c}"),
    };
    let s: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut out = Vec::new();
    for chunk in s.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &c)| {
            n | if c == b'=' { 0 } else { val(c) << (18 - 6 * i) }
        });
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = chunk.iter().filter(|&&c| c != b'=').count() - 1;
        out.extend_from_slice(&bytes[..keep]);
    }
    out
}

fn gids_from_zlib(b64: &str) -> Vec<u32> {
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&base64_decode(b64)[..])
        .read_to_end(&mut raw)
        .unwrap();
    raw.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn gids_from_csv(text: &str) -> Vec<u32> {
    text.split(',').map(|s| s.trim().parse().unwrap()).collect()
}

fn tmx_layer_gids(layer: &El) -> Vec<u32> {
    let data = layer.child("data");
    match (data.attr("encoding"), data.attr("compression")) {
        (Some("csv"), None) => gids_from_csv(&data.text),
        (Some("base64"), Some("zlib")) => gids_from_zlib(&data.text),
        other => panic!("unexpected encoding {other:?}"),
    }
}

fn tmj_layer_gids(layer: &Value) -> Vec<u32> {
    match &layer["data"] {
        Value::Array(a) => a.iter().map(|v| v.as_u64().unwrap() as u32).collect(),
        Value::String(s) => {
            assert_eq!(layer["encoding"], "base64");
            assert_eq!(layer["compression"], "zlib");
            gids_from_zlib(s)
        }
        other => panic!("unexpected data {other}"),
    }
}

fn objects(map: &TileMap) -> Vec<&MapObject> {
    map.layers
        .iter()
        .filter_map(|l| match l {
            Layer::Objects(g) => Some(g.objects.iter()),
            Layer::Tiles(_) => None,
        })
        .flatten()
        .collect()
}

fn tmj_props(v: &Value) -> BTreeMap<String, (String, Value)> {
    v["properties"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p["name"].as_str().unwrap().to_string(),
                        (p["type"].as_str().unwrap().to_string(), p["value"].clone()),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn prop<'a>(
    props: &'a BTreeMap<String, (Option<String>, String)>,
    name: &str,
) -> (Option<&'a str>, &'a str) {
    let (kind, value) = props
        .get(name)
        .unwrap_or_else(|| panic!("no property {name}"));
    (kind.as_deref(), value.as_str())
}

// ---------------------------------------------------------------------------------------------
// TMX

/// Everything that both encodings and every sample must satisfy: sizes, ids, every gid of every
/// layer, every object's id/name/class/position/shape.
fn check_tmx_against_model(map: &TileMap, root: &El) {
    assert_eq!(root.name, "map");
    assert_eq!(root.attr("version"), Some("1.8"));
    assert_eq!(root.attr("tiledversion"), Some("1.8.2"));
    assert_eq!(root.attr("orientation"), Some("orthogonal"));
    assert_eq!(root.attr("infinite"), Some("0"));
    assert_eq!(root.num("width"), f64::from(map.width));
    assert_eq!(root.num("height"), f64::from(map.height));
    assert_eq!(root.num("tilewidth"), f64::from(map.tile_width));
    assert_eq!(root.num("tileheight"), f64::from(map.tile_height));
    assert_eq!(root.num("nextlayerid"), (map.layers.len() + 1) as f64);
    let max_id = objects(map).iter().map(|o| o.id).max().unwrap_or(0);
    assert_eq!(root.num("nextobjectid"), f64::from(max_id + 1));
    assert_eq!(
        prop(&root.props(), SOURCE_FORMAT_PROPERTY).1,
        map.source_format.name()
    );

    let tilesets: Vec<&El> = root.all("tileset").collect();
    assert_eq!(tilesets.len(), map.tilesets.len());
    for (el, ts) in tilesets.iter().zip(&map.tilesets) {
        assert_eq!(el.attr("name"), Some(ts.name.as_str()));
        assert_eq!(el.num("firstgid"), f64::from(ts.first_gid));
        assert_eq!(el.num("tilecount"), f64::from(ts.tile_count));
        assert_eq!(el.num("tilewidth"), f64::from(ts.tile_width));
        // Image-less: every tile declared, so Tiled creates them all.
        let ids: Vec<f64> = el.all("tile").map(|t| t.num("id")).collect();
        let expected: Vec<f64> = (0..ts.tile_count).map(f64::from).collect();
        assert_eq!(ids, expected, "tileset {}", ts.name);
        for data in &ts.tiles {
            let tile = el
                .all("tile")
                .find(|t| t.num("id") == f64::from(data.id))
                .unwrap();
            assert_eq!(tile.props().len(), data.properties.len());
            let shapes = tile
                .all("objectgroup")
                .flat_map(|g| g.all("object"))
                .count();
            assert_eq!(shapes, data.collision.len());
        }
        if let Some(image) = &ts.image {
            assert_eq!(prop(&el.props(), IMAGE_PROPERTY), (None, image.as_str()));
        }
    }

    let layers: Vec<&El> = root
        .children
        .iter()
        .filter(|c| c.name == "layer" || c.name == "objectgroup")
        .collect();
    assert_eq!(layers.len(), map.layers.len());
    for (i, (el, layer)) in layers.iter().zip(&map.layers).enumerate() {
        assert_eq!(el.num("id"), (i + 1) as f64);
        match layer {
            Layer::Tiles(t) => {
                assert_eq!(el.name, "layer");
                assert_eq!(el.attr("name"), Some(t.name.as_str()));
                assert_eq!(el.num("width"), f64::from(t.width()));
                assert_eq!(el.num("height"), f64::from(t.height()));
                assert_eq!(tmx_layer_gids(el), t.data(), "layer {}", t.name);
                assert_eq!(el.props().len(), t.properties.len());
            }
            Layer::Objects(g) => {
                assert_eq!(el.name, "objectgroup");
                assert_eq!(el.attr("name"), Some(g.name.as_str()));
                let objs: Vec<&El> = el.all("object").collect();
                assert_eq!(objs.len(), g.objects.len());
                for (oe, o) in objs.iter().zip(&g.objects) {
                    assert_eq!(oe.num("id"), f64::from(o.id));
                    assert_eq!(oe.attr("name").unwrap_or(""), o.name);
                    assert_eq!(oe.attr("type").unwrap_or(""), o.class);
                    assert!(oe.attr("class").is_none());
                    assert_eq!((oe.num("x"), oe.num("y")), (o.x, o.y));
                    assert_eq!(oe.props().len(), o.properties.len());
                    match &o.shape {
                        Shape::Point => assert_eq!(oe.all("point").count(), 1),
                        Shape::Rect { width, height } => {
                            assert_eq!((oe.num("width"), oe.num("height")), (*width, *height));
                        }
                        Shape::Polygon(_) => assert_eq!(oe.all("polygon").count(), 1),
                    }
                }
            }
        }
    }
}

#[test]
fn tmx_of_every_sample_matches_the_model_in_both_encodings() {
    for (name, map) in samples() {
        for options in [csv(), zlib()] {
            let bytes = to_tmx(&map, &options).unwrap();
            assert!(bytes.starts_with(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
            let root = parse_xml(&bytes);
            check_tmx_against_model(&map, &root);
            eprintln!("{name}: {} bytes of TMX", bytes.len());
        }
    }
}

#[test]
fn tmx_island_has_the_atlas_gids_and_typed_object_properties() {
    let map = island();
    let root = parse_xml(&to_tmx(&map, &csv()).unwrap());
    assert_eq!((root.num("width"), root.num("height")), (64.0, 64.0));
    assert_eq!(root.num("tilewidth"), 16.0);
    assert_eq!(root.all("layer").count(), 1);
    assert_eq!(root.all("objectgroup").count(), 1);
    let gids = tmx_layer_gids(root.child("layer"));
    assert_eq!(gids.len(), 64 * 64);
    // Water 0x1F0 at (0, 0): atlas row 31, column 0.
    assert_eq!(gids[0], 1 + 31 * 128);
    // Sand border 0x230 at (6, 6): row 3, column 16.
    assert_eq!(gids[6 * 64 + 6], 1 + 3 * 128 + 16);
    // House wall 0x100 at (24, 20): row 16, column 0.
    assert_eq!(gids[20 * 64 + 24], 1 + 16 * 128);

    let ts = root.child("tileset");
    assert_eq!(ts.attr("name"), Some("pics1"));
    assert_eq!(ts.num("tilecount"), 4096.0);
    assert_eq!(ts.attr("columns"), Some("0"), "image-less by default");
    assert_eq!(ts.all("image").count(), 0);
    assert_eq!(prop(&ts.props(), IMAGE_PROPERTY), (None, "pics1.png"));

    let objs: Vec<&El> = root.child("objectgroup").all("object").collect();
    assert_eq!(objs.len(), 10);
    let by_class = |c: &str| objs.iter().filter(|o| o.attr("type") == Some(c)).count();
    assert_eq!(
        [by_class("link"), by_class("sign"), by_class("chest")],
        [2, 2, 2]
    );
    assert_eq!([by_class("baddy"), by_class("npc")], [2, 2]);

    let link = objs[1];
    assert_eq!(link.attr("name"), Some("sample_house.nw"));
    assert_eq!((link.num("x"), link.num("y")), (31.0 * 16.0, 29.0 * 16.0));
    assert_eq!((link.num("width"), link.num("height")), (32.0, 16.0));
    let lp = link.props();
    // Link destinations are words (`30.5`, `playerx+2`): string properties, as written.
    assert_eq!(prop(&lp, "dest_x"), (None, "30.5"));
    assert_eq!(prop(&lp, "dest_y"), (None, "12"));
    assert_eq!(prop(&lp, "dest"), (None, "sample_house.nw"));
    let first = objs[0].props();
    assert_eq!(prop(&first, "dest_x"), (None, "playerx"));

    let chest = objs
        .iter()
        .find(|o| o.attr("type") == Some("chest"))
        .unwrap();
    assert_eq!(prop(&chest.props(), "item"), (Some("int"), "2"));

    let npc = objs.iter().find(|o| o.attr("type") == Some("npc")).unwrap();
    assert_eq!(npc.attr("name"), Some("sample_guard.png"));
    assert_eq!(npc.all("point").count(), 1);
    assert_eq!(prop(&npc.props(), "script"), (None, NPC_SCRIPT));
    // Written as element content, not as an attribute whose line breaks XML would flatten.
    let script = npc
        .child("properties")
        .all("property")
        .find(|p| p.attr("name") == Some("script"))
        .unwrap();
    assert!(script.attr("value").is_none());

    let sign = objs
        .iter()
        .find(|o| o.attr("type") == Some("sign"))
        .unwrap();
    let text = sign.props()["text"].1.clone();
    assert!(text.contains('\n'), "{text:?}");
    assert!(text.starts_with("Welcome to the island!"));
}

#[test]
fn tmx_claw_has_parallax_tile_properties_and_collision_rectangles() {
    let map = claw();
    let root = parse_xml(&to_tmx(&map, &csv()).unwrap());
    assert_eq!((root.num("width"), root.num("height")), (96.0, 32.0));
    assert_eq!(root.num("tilewidth"), 64.0);
    let layers: Vec<&El> = root.all("layer").collect();
    assert_eq!(layers.len(), 3);
    assert_eq!(root.all("objectgroup").count(), 1);
    assert_eq!(root.child("objectgroup").all("object").count(), 120);

    let back = layers[0];
    assert_eq!(back.attr("name"), Some("Background"));
    assert_eq!((back.num("width"), back.num("height")), (8.0, 8.0));
    assert_eq!((back.num("parallaxx"), back.num("parallaxy")), (0.5, 0.5));
    let bp = back.props();
    assert_eq!(prop(&bp, "z"), (Some("int"), "-1000"));
    assert_eq!(prop(&bp, "wrap_x"), (Some("bool"), "true"));
    assert_eq!(prop(&bp, "main_plane"), (Some("bool"), "false"));
    assert!(
        layers[1].attr("parallaxx").is_none(),
        "1.0 is Tiled's default"
    );

    // The fill tileset's gids appear in the background every fifth cell.
    let fill = root
        .all("tileset")
        .find(|t| t.attr("name") == Some("fill"))
        .unwrap();
    let fill_first = fill.num("firstgid") as u32;
    let gids = tmx_layer_gids(back);
    assert_eq!(gids[0], fill_first);
    assert_eq!(gids[5], fill_first);
    assert!(gids[1] > 0 && gids[1] < fill_first);

    // The main plane's first tileset carries the tile attributes; double tiles have collision.
    let action = root
        .all("tileset")
        .find(|t| t.attr("name") == Some("Action/ACTION"))
        .unwrap();
    let tiles: Vec<&El> = action
        .all("tile")
        .filter(|t| !t.children.is_empty())
        .collect();
    assert_eq!(tiles.len(), 19);
    let kinds: Vec<String> = tiles.iter().map(|t| t.props()["type"].1.clone()).collect();
    assert!(kinds.iter().any(|k| k == "single"));
    assert!(kinds.iter().any(|k| k == "mask"));
    let doubles: Vec<&&El> = tiles
        .iter()
        .filter(|t| t.props()["type"].1 == "double")
        .collect();
    assert!(!doubles.is_empty());
    for t in doubles {
        let group = t.child("objectgroup");
        assert_eq!(group.attr("draworder"), Some("index"));
        let shape = group.child("object");
        assert_eq!(shape.num("id"), 1.0);
        let p = t.props();
        let left: f64 = p["rect_left"].1.parse().unwrap();
        let right: f64 = p["rect_right"].1.parse().unwrap();
        assert_eq!(shape.num("x"), left);
        assert_eq!(shape.num("width"), right - left + 1.0);
        assert_eq!(prop(&shape.props(), "attribute").0, Some("int"));
    }

    let first = root.child("objectgroup").child("object");
    assert_eq!(first.attr("type"), Some("TreasurePowerup"));
    assert_eq!(prop(&first.props(), "wwd_id"), (Some("int"), "1"));
    assert_eq!(prop(&root.props(), "author").0, None);
}

#[test]
fn tmx_escapes_markup_quotes_and_whitespace() {
    let mut map = island();
    let name = "a<b>&\"c\" 'd'";
    map.tilesets[0].name = name.into();
    if let Layer::Tiles(t) = &mut map.layers[0] {
        t.name = name.into();
    }
    let Layer::Objects(g) = &mut map.layers[1] else {
        panic!("no object group");
    };
    let o = &mut g.objects[0];
    o.name = name.into();
    o.class = "<&\">".into();
    o.properties.string("tabbed", "a\tb\r\nc");
    o.properties.string("one\nline?", "x");
    o.properties
        .push("tint", PropertyValue::Color("#ff112233".into()));
    o.properties
        .push("target", PropertyValue::Object(3))
        .push("file", PropertyValue::File("../a&b.png".into()))
        .push("ratio", PropertyValue::Float(-0.25));
    let bytes = to_tmx(&map, &csv()).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("name=\"a&lt;b&gt;&amp;&quot;c&quot; &apos;d&apos;\""));
    let root = parse_xml(&bytes);
    assert_eq!(root.child("tileset").attr("name"), Some(name));
    assert_eq!(root.child("layer").attr("name"), Some(name));
    let obj = root.child("objectgroup").child("object");
    assert_eq!(obj.attr("name"), Some(name));
    assert_eq!(obj.attr("type"), Some("<&\">"));
    let p = obj.props();
    assert_eq!(prop(&p, "tabbed"), (None, "a\tb\r\nc"));
    assert_eq!(prop(&p, "one\nline?"), (None, "x"));
    assert_eq!(prop(&p, "tint"), (Some("color"), "#ff112233"));
    assert_eq!(prop(&p, "target"), (Some("object"), "3"));
    assert_eq!(prop(&p, "file"), (Some("file"), "../a&b.png"));
    assert_eq!(prop(&p, "ratio"), (Some("float"), "-0.25"));
}

#[test]
fn tmx_writes_shapes_tile_objects_hidden_layers_and_background() {
    let mut map = island();
    map.background = Some("#ff204060".into());
    if let Layer::Tiles(t) = &mut map.layers[0] {
        t.visible = false;
        t.tint = Some("#80ff0000".into());
        t.offset = (8.0, -4.5);
    }
    let Layer::Objects(g) = &mut map.layers[1] else {
        panic!("no object group");
    };
    g.objects[0].shape = Shape::Polygon(vec![(0.0, 0.0), (16.0, 0.0), (8.0, 12.5)]);
    g.objects[0].visible = false;
    g.objects[1].gid = Some(5);
    g.objects[1].properties = Default::default();
    let root = parse_xml(&to_tmx(&map, &csv()).unwrap());
    assert_eq!(root.attr("backgroundcolor"), Some("#ff204060"));
    let layer = root.child("layer");
    assert_eq!(layer.attr("visible"), Some("0"));
    assert_eq!(layer.attr("tintcolor"), Some("#80ff0000"));
    assert_eq!((layer.num("offsetx"), layer.num("offsety")), (8.0, -4.5));
    let objs: Vec<&El> = root.child("objectgroup").all("object").collect();
    assert_eq!(
        objs[0].child("polygon").attr("points"),
        Some("0,0 16,0 8,12.5")
    );
    assert_eq!(objs[0].attr("visible"), Some("0"));
    // A tile object is anchored at its bottom left in Tiled: 29 * 16 + 16.
    assert_eq!(objs[1].attr("gid"), Some("5"));
    assert_eq!(objs[1].num("y"), 480.0);
    assert!(objs[1].children.is_empty());
}

#[test]
fn tileset_image_option_writes_image_and_columns() {
    let map = island();
    let image = TilesetImage {
        path: "tiles/pics1.png".into(),
        width: 2048,
        height: 512,
        columns: 128,
    };
    let options = TiledOptions {
        tileset_image: Some(image.clone()),
        ..TiledOptions::default()
    };
    let root = parse_xml(&to_tmx(&map, &options).unwrap());
    let ts = root.child("tileset");
    assert_eq!(ts.num("columns"), 128.0);
    let img = ts.child("image");
    assert_eq!(img.attr("source"), Some("tiles/pics1.png"));
    assert_eq!((img.num("width"), img.num("height")), (2048.0, 512.0));
    assert_eq!(ts.all("tile").count(), 0, "tiles come from the image");
    // The model's own image string is still kept.
    assert_eq!(prop(&ts.props(), IMAGE_PROPERTY), (None, "pics1.png"));

    let json: Value = serde_json::from_slice(&to_tmj(&map, &options).unwrap()).unwrap();
    let ts = &json["tilesets"][0];
    assert_eq!(ts["image"], "tiles/pics1.png");
    assert_eq!(
        (&ts["imagewidth"], &ts["imageheight"], &ts["columns"]),
        (&2048.into(), &512.into(), &128.into())
    );

    for columns in [0, 129] {
        let bad = TiledOptions {
            tileset_image: Some(TilesetImage {
                columns,
                ..image.clone()
            }),
            ..TiledOptions::default()
        };
        let err = to_tmx(&map, &bad).unwrap_err();
        assert_eq!(err.format, Format::Tmx);
        assert_eq!(err.location.path.as_deref(), Some("tilesets[0].image"));
        assert_eq!(to_tmj(&map, &bad).unwrap_err().format, Format::Tmj);
    }
}

#[test]
fn what_tiled_cannot_store_is_an_error_with_its_path() {
    let mut map = island();
    let Layer::Objects(g) = &mut map.layers[1] else {
        panic!("no object group");
    };
    g.objects[3].x = f64::NAN;
    let err = to_tmx(&map, &csv()).unwrap_err();
    assert_eq!(err.format, Format::Tmx);
    assert_eq!(err.location.path.as_deref(), Some("layers[1].objects[3].x"));
    let err = to_tmj(&map, &csv()).unwrap_err();
    assert_eq!(err.format, Format::Tmj);
    assert_eq!(err.location.path.as_deref(), Some("layers[1].objects[3].x"));

    let mut map = island();
    let Layer::Objects(g) = &mut map.layers[1] else {
        panic!("no object group");
    };
    g.objects[2].properties.string("bell", "ding\u{7}");
    let err = to_tmx(&map, &csv()).unwrap_err();
    assert_eq!(err.format, Format::Tmx);
    assert!(err.to_string().contains("U+0007"), "{err}");
    // JSON escapes it.
    let json: Value = serde_json::from_slice(&to_tmj(&map, &csv()).unwrap()).unwrap();
    let p = tmj_props(&json["layers"][1]["objects"][2]);
    assert_eq!(p["bell"].1, "ding\u{7}");
}

// ---------------------------------------------------------------------------------------------
// TMJ

fn check_tmj_against_model(map: &TileMap, json: &Value) {
    assert_eq!(json["type"], "map");
    assert_eq!(json["version"], "1.8");
    assert_eq!(json["tiledversion"], "1.8.2");
    assert_eq!(json["orientation"], "orthogonal");
    assert_eq!(json["infinite"], false);
    assert_eq!(json["width"], map.width);
    assert_eq!(json["height"], map.height);
    assert_eq!(json["tilewidth"], map.tile_width);
    assert_eq!(json["tileheight"], map.tile_height);
    assert_eq!(json["nextlayerid"], map.layers.len() + 1);
    let max_id = objects(map).iter().map(|o| o.id).max().unwrap_or(0);
    assert_eq!(json["nextobjectid"], max_id + 1);
    assert_eq!(
        tmj_props(json)[SOURCE_FORMAT_PROPERTY].1,
        map.source_format.name()
    );
    let tilesets = json["tilesets"].as_array().unwrap();
    assert_eq!(tilesets.len(), map.tilesets.len());
    for (js, ts) in tilesets.iter().zip(&map.tilesets) {
        assert_eq!(js["name"], ts.name.as_str());
        assert_eq!(js["firstgid"], ts.first_gid);
        assert_eq!(js["tilecount"], ts.tile_count);
        assert_eq!(js["columns"], 0);
        assert!(js.get("image").is_none());
        assert_eq!(
            js["tiles"].as_array().unwrap().len(),
            ts.tile_count as usize
        );
    }
    let layers = json["layers"].as_array().unwrap();
    assert_eq!(layers.len(), map.layers.len());
    for (i, (js, layer)) in layers.iter().zip(&map.layers).enumerate() {
        assert_eq!(js["id"], i + 1);
        match layer {
            Layer::Tiles(t) => {
                assert_eq!(js["type"], "tilelayer");
                assert_eq!(js["name"], t.name.as_str());
                assert_eq!(js["width"], t.width());
                assert_eq!(tmj_layer_gids(js), t.data());
                assert_eq!(tmj_props(js).len(), t.properties.len());
            }
            Layer::Objects(g) => {
                assert_eq!(js["type"], "objectgroup");
                let objs = js["objects"].as_array().unwrap();
                assert_eq!(objs.len(), g.objects.len());
                for (jo, o) in objs.iter().zip(&g.objects) {
                    assert_eq!(jo["id"], o.id);
                    assert_eq!(jo["name"], o.name.as_str());
                    assert_eq!(jo["type"], o.class.as_str());
                    assert!(jo.get("class").is_none());
                    assert_eq!(jo["x"].as_f64(), Some(o.x));
                    assert_eq!(jo["y"].as_f64(), Some(o.y));
                    assert_eq!(jo["point"] == true, o.shape == Shape::Point);
                    assert_eq!(tmj_props(jo).len(), o.properties.len());
                }
            }
        }
    }
}

#[test]
fn tmj_of_every_sample_matches_the_model_in_both_encodings() {
    for (name, map) in samples() {
        for options in [csv(), zlib()] {
            let bytes = to_tmj(&map, &options).unwrap();
            let json: Value = serde_json::from_slice(&bytes).unwrap();
            check_tmj_against_model(&map, &json);
            eprintln!("{name}: {} bytes of TMJ", bytes.len());
        }
    }
}

#[test]
fn tmj_island_and_claw_values() {
    let json: Value = serde_json::from_slice(&to_tmj(&island(), &csv()).unwrap()).unwrap();
    let data = json["layers"][0]["data"].as_array().unwrap();
    assert_eq!(data.len(), 4096);
    assert_eq!(data[0], 1 + 31 * 128);
    assert_eq!(data[20 * 64 + 24], 1 + 16 * 128);
    let objs = json["layers"][1]["objects"].as_array().unwrap();
    assert_eq!(objs.len(), 10);
    let npc = objs.iter().find(|o| o["type"] == "npc").unwrap();
    assert_eq!(npc["point"], true);
    let p = tmj_props(npc);
    assert_eq!(p["script"], ("string".to_string(), NPC_SCRIPT.into()));
    let link = &objs[1];
    assert_eq!(
        (&link["width"], &link["height"]),
        (&32.0.into(), &16.0.into())
    );
    assert_eq!(
        tmj_props(link)["dest_x"],
        ("string".to_string(), "30.5".into())
    );
    let chest = objs.iter().find(|o| o["type"] == "chest").unwrap();
    assert_eq!(tmj_props(chest)["item"], ("int".to_string(), 2.into()));

    let json: Value = serde_json::from_slice(&to_tmj(&claw(), &csv()).unwrap()).unwrap();
    let back = &json["layers"][0];
    assert_eq!(
        (&back["parallaxx"], &back["parallaxy"]),
        (&0.5.into(), &0.5.into())
    );
    assert_eq!(tmj_props(back)["wrap_x"], ("bool".to_string(), true.into()));
    let action = json["tilesets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Action/ACTION")
        .unwrap();
    let double = action["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| tmj_props(t).get("type").is_some_and(|p| p.1 == "double"))
        .unwrap();
    let shape = &double["objectgroup"]["objects"][0];
    assert_eq!(shape["id"], 1);
    assert!(shape["width"].as_f64().unwrap() > 0.0);
}

// ---------------------------------------------------------------------------------------------
// Tiled 1.8.2 itself

fn oracle() -> Option<PathBuf> {
    common::oracle(
        "tiled_oracle.sh",
        &["tiled", "tmxrasterizer"],
        "Tiled oracle checks",
    )
}

fn out_dir(test: &str) -> PathBuf {
    common::out_dir("levelkit-tiled", test)
}

/// Runs the oracle; returns stderr. Panics with Tiled's message on a non-zero exit.
fn run_oracle(script: &Path, args: &[&Path]) -> String {
    let out = Command::new(script).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "tiled_oracle.sh {args:?} exited {:?}: {stderr}",
        out.status.code()
    );
    stderr
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>, png::ColorType) {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf, info.color_type)
}

/// A 128 × 32 atlas of 16 px tiles, each filled with a colour made from its index.
fn atlas_colour(index: u32) -> [u8; 4] {
    [(index % 128) as u8 * 2, (index / 128) as u8 * 8, 200, 255]
}

fn write_atlas(path: &Path) {
    let (w, h) = (128 * 16, 32 * 16);
    let mut data = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            data.extend_from_slice(&atlas_colour((y / 16) * 128 + x / 16));
        }
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut enc = png::Encoder::new(file, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap().write_image_data(&data).unwrap();
}

#[test]
fn tiled_loads_and_renders_every_exported_map() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("render");
    for (name, map) in samples() {
        for (enc, options) in [("csv", csv()), ("zlib", zlib())] {
            for (ext, bytes) in [
                ("tmx", to_tmx(&map, &options).unwrap()),
                ("tmj", to_tmj(&map, &options).unwrap()),
            ] {
                let file = dir.join(format!("{name}-{enc}.{ext}"));
                std::fs::write(&file, bytes).unwrap();
                let png = file.with_extension(format!("{ext}.png"));
                let stderr = run_oracle(&script, &[Path::new("render"), &file, &png]);
                let (w, h, _, _) = read_png(&png);
                eprintln!(
                    "{}: Tiled rendered {w}x{h}; stderr: {:?}",
                    file.display(),
                    stderr.trim()
                );
                assert_eq!(
                    (w, h),
                    (map.width * map.tile_width, map.height * map.tile_height),
                    "{}",
                    file.display()
                );
                assert!(stderr.trim().is_empty(), "Tiled said: {stderr}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tiled_draws_the_right_atlas_tile_in_each_cell() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("atlas");
    write_atlas(&dir.join("atlas.png"));
    let map = island();
    let options = TiledOptions {
        tileset_image: Some(TilesetImage {
            path: "atlas.png".into(),
            width: 2048,
            height: 512,
            columns: 128,
        }),
        ..TiledOptions::default()
    };
    let Layer::Tiles(layer) = &map.layers[0] else {
        panic!("no tile layer");
    };
    for (ext, bytes) in [
        ("tmx", to_tmx(&map, &options).unwrap()),
        ("tmj", to_tmj(&map, &options).unwrap()),
    ] {
        let file = dir.join(format!("island.{ext}"));
        std::fs::write(&file, bytes).unwrap();
        let png = dir.join(format!("island-{ext}.png"));
        // The object layer's markers would cover some cells: draw the tiles alone.
        let stderr = run_oracle(
            &script,
            &[
                Path::new("render"),
                &file,
                &png,
                Path::new("--hide-layer"),
                Path::new("objects"),
                Path::new("--no-smoothing"),
            ],
        );
        assert!(stderr.trim().is_empty(), "Tiled said: {stderr}");
        let (w, h, pixels, colour) = read_png(&png);
        assert_eq!((w, h), (1024, 1024));
        assert_eq!(colour, png::ColorType::Rgba);
        let mut checked = 0;
        for (cx, cy) in [
            (0, 0),
            (6, 6),
            (24, 20),
            (30, 25),
            (10, 40),
            (63, 41),
            (63, 63),
        ] {
            let gid = layer.get(cx, cy).unwrap();
            let at = (((cy * 16 + 8) * w + cx * 16 + 8) * 4) as usize;
            assert_eq!(
                pixels[at..at + 4],
                atlas_colour(gid - 1),
                "{ext}: cell ({cx}, {cy}) gid {gid}"
            );
            checked += 1;
        }
        assert_eq!(checked, 7);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Tiled's own readers and writers: our TMX re-saved by Tiled as JSON, and our TMJ as TMX, keep
/// the object classes, the typed properties and the multi-line script.
#[test]
fn tiled_reads_classes_and_typed_properties_as_written() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("convert");
    let map = island();
    let tmx = dir.join("island.tmx");
    std::fs::write(&tmx, to_tmx(&map, &csv()).unwrap()).unwrap();
    let resaved_json = dir.join("resaved.json");
    let stderr = run_oracle(&script, &[Path::new("convert"), &tmx, &resaved_json]);
    eprintln!(
        "tiled --export-map island.tmx resaved.json: stderr {:?}",
        stderr.trim()
    );
    let json: Value = serde_json::from_slice(&std::fs::read(&resaved_json).unwrap()).unwrap();
    let objs = json["layers"][1]["objects"].as_array().unwrap();
    assert_eq!(objs.len(), 10);
    let npc = objs
        .iter()
        .find(|o| o["name"] == "sample_guard.png")
        .unwrap();
    assert_eq!(npc["type"], "npc");
    assert_eq!(npc["point"], true);
    assert_eq!(tmj_props(npc)["script"].1, NPC_SCRIPT);
    assert_eq!(
        tmj_props(&objs[1])["dest_x"],
        ("string".into(), "30.5".into())
    );
    let chest = objs.iter().find(|o| o["type"] == "chest").unwrap();
    assert_eq!(tmj_props(chest)["item"], ("int".into(), 2.into()));
    assert_eq!(json["layers"][0]["data"][0], 1 + 31 * 128);
    assert_eq!(json["tilesets"][0]["tilecount"], 4096);

    let tmj = dir.join("claw.tmj");
    let claw = claw();
    std::fs::write(&tmj, to_tmj(&claw, &zlib()).unwrap()).unwrap();
    let resaved_tmx = dir.join("resaved.tmx");
    let stderr = run_oracle(&script, &[Path::new("convert"), &tmj, &resaved_tmx]);
    eprintln!(
        "tiled --export-map claw.tmj resaved.tmx: stderr {:?}",
        stderr.trim()
    );
    let root = parse_xml(&std::fs::read(&resaved_tmx).unwrap());
    check_tmx_against_model(&claw, &root);
    std::fs::remove_dir_all(&dir).unwrap();
}
