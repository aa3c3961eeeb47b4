//! Tiled import: every map [`to_tmx`]/[`to_tmj`] writes reads back to the same [`TileMap`] (and
//! re-exports to the same bytes), in both encodings; maps Tiled 1.8.2 itself has loaded and saved
//! read back to the same map up to property order; every refusal is an error with a clear
//! message, never a panic or a huge allocation.
use crate::common;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use levelkit::document::Model;
use levelkit::formats::graal::binary as graal;
use levelkit::formats::wwd;
use levelkit::tiled::{
    IMAGE_PROPERTY, LayerEncoding, SOURCE_FORMAT_PROPERTY, TiledOptions, TilesetImage, to_tmj,
    to_tmx,
};
use levelkit::tiled::{TiledMap, from_tmj, from_tmx};
use levelkit::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, PropertyValue, Shape, TileData, TileLayer, TileMap,
    Tileset,
};
use levelkit::{ErrorKind, Format, Limits};

// ---------------------------------------------------------------------------------------------
// Inputs

fn samples() -> Vec<(String, TileMap)> {
    vec![
        ("claw".into(), wwd::samples::claw_like().to_tilemap().0),
        ("gruntz".into(), wwd::samples::gruntz_like().to_tilemap().0),
        ("island".into(), graal::samples::graal().to_tilemap().0),
    ]
}

fn options(encoding: LayerEncoding) -> TiledOptions {
    TiledOptions {
        encoding,
        ..TiledOptions::default()
    }
}

const ENCODINGS: [LayerEncoding; 2] = [LayerEncoding::Csv, LayerEncoding::Base64Zlib];

fn object(id: u32, x: f64, y: f64, shape: Shape) -> MapObject {
    MapObject {
        id,
        name: String::new(),
        class: String::new(),
        x,
        y,
        shape,
        gid: None,
        visible: true,
        properties: Properties::new(),
    }
}

/// A map using every part of the model, with what the writer has to escape or encode specially.
/// `with_cr`: include carriage returns (Tiled 1.8.2 itself loses them, see `tiled_loses_*`).
fn everything(with_cr: bool) -> TileMap {
    let mut props = Properties::new();
    props.string("plain", "<markup> & \"quotes\" and 'apostrophes'");
    props.string(
        "multi",
        if with_cr {
            "line 1\nline 2\r\n\tindented\r"
        } else {
            "line 1\nline 2\n\tindented"
        },
    );
    props.string("tabbed", "a\tb  c");
    props.push("wide", PropertyValue::Int(3_000_000_000));
    props.push("wide_neg", PropertyValue::Int(-3_000_000_000));
    props.push("narrow", PropertyValue::Int(-2_147_483_648));
    props.push("float", PropertyValue::Float(0.5));
    props.push("float_int", PropertyValue::Float(12.0));
    props.push("flag", PropertyValue::Bool(false));
    props.push("colour", PropertyValue::Color("#80ff0000".into()));
    props.push("file", PropertyValue::File("images/x.png".into()));
    props.push("target", PropertyValue::Object(2));
    props.string("empty", "");
    props.string("unicode", "héllo – ☃");

    let mut tile_props = Properties::new();
    tile_props.int("attribute", 3);
    let mut shape_props = Properties::new();
    shape_props.bool("solid", true);
    let mut shape_rect = object(
        0,
        1.0,
        2.0,
        Shape::Rect {
            width: 30.0,
            height: 14.5,
        },
    );
    shape_rect.properties = shape_props;
    shape_rect.name = "box".into();
    let a = Tileset {
        name: "Atlas/A".into(),
        first_gid: 1,
        tile_width: 16,
        tile_height: 16,
        tile_count: 4,
        image: Some("C:\\GAME\\TILES\\A".into()),
        properties: {
            let mut p = Properties::new();
            p.int("plane", 1);
            p
        },
        tiles: vec![
            TileData {
                id: 1,
                properties: tile_props,
                collision: vec![],
            },
            TileData {
                id: 2,
                properties: Properties::new(),
                collision: vec![
                    shape_rect,
                    object(
                        0,
                        0.0,
                        0.0,
                        Shape::Polygon(vec![(0.0, 0.0), (16.0, 0.0), (8.0, 8.5)]),
                    ),
                    object(0, 4.0, 4.0, Shape::Point),
                ],
            },
        ],
    };
    let b = Tileset {
        name: "B".into(),
        first_gid: 5,
        tile_width: 16,
        tile_height: 16,
        tile_count: 2,
        image: None,
        properties: Properties::new(),
        tiles: vec![],
    };

    let mut ground =
        TileLayer::new("Ground", 4, 3, vec![1, 2, 3, 4, 5, 6, 0, 0, 1, 1, 1, 1]).unwrap();
    ground.tint = Some("#ff00ff00".into());
    ground.offset = (1.5, -2.0);
    ground.parallax = (0.5, 0.25);
    ground.properties.string("note", "ground");
    let mut big = TileLayer::new("Big", 6, 4, (0..24).map(|i| i % 7).collect()).unwrap();
    big.visible = false;

    let mut objects = vec![
        object(
            1,
            10.0,
            20.0,
            Shape::Rect {
                width: 32.0,
                height: 16.0,
            },
        ),
        object(2, 48.5, 64.0, Shape::Point),
        object(
            3,
            100.0,
            50.0,
            Shape::Polygon(vec![(0.0, 0.0), (10.0, -5.5), (20.0, 0.0)]),
        ),
        object(
            7,
            64.0,
            40.0,
            Shape::Rect {
                width: 16.0,
                height: 16.0,
            },
        ),
        object(
            8,
            0.0,
            0.0,
            Shape::Rect {
                width: 0.0,
                height: 0.0,
            },
        ),
    ];
    objects[0].name = "door".into();
    objects[0].class = "warp".into();
    objects[0].properties.string("dest", "level2.nw");
    objects[0]
        .properties
        .push("dest_x", PropertyValue::Float(30.5));
    objects[1].visible = false;
    objects[1].class = "spawn".into();
    objects[3].gid = Some(6);
    objects[3].name = "tile object".into();
    let things = ObjectGroup {
        name: "Things".into(),
        parallax: (1.5, 1.25),
        visible: true,
        objects,
        properties: {
            let mut p = Properties::new();
            p.string("kind", "actors");
            p
        },
    };
    let empty = ObjectGroup {
        name: "Empty".into(),
        parallax: (1.0, 1.0),
        visible: false,
        objects: vec![],
        properties: Properties::new(),
    };
    TileMap {
        width: 4,
        height: 3,
        tile_width: 16,
        tile_height: 16,
        background: Some("#ff102030".into()),
        tilesets: vec![a, b],
        layers: vec![
            Layer::Tiles(ground),
            Layer::Objects(things),
            Layer::Tiles(big),
            Layer::Objects(empty),
        ],
        properties: props,
        source_format: Format::GraalLevel,
    }
}

/// What the writer's conventions make of a map: ints outside i32 become strings, collision
/// shapes have id 0, tiles without data are not written, tiles come in id order.
fn as_written(mut map: TileMap) -> TileMap {
    fn props(p: &mut Properties) {
        for prop in &mut p.0 {
            if let PropertyValue::Int(v) = prop.value {
                if i32::try_from(v).is_err() {
                    prop.value = PropertyValue::String(v.to_string());
                }
            }
        }
    }
    for_each_properties(&mut map, props);
    for ts in &mut map.tilesets {
        ts.tiles
            .retain(|t| !t.properties.is_empty() || !t.collision.is_empty());
        ts.tiles.sort_by_key(|t| t.id);
        for t in &mut ts.tiles {
            for c in &mut t.collision {
                c.id = 0;
            }
        }
    }
    map
}

fn for_each_properties(map: &mut TileMap, f: fn(&mut Properties)) {
    f(&mut map.properties);
    for ts in &mut map.tilesets {
        f(&mut ts.properties);
        for t in &mut ts.tiles {
            f(&mut t.properties);
            for c in &mut t.collision {
                f(&mut c.properties);
            }
        }
    }
    for layer in &mut map.layers {
        match layer {
            Layer::Tiles(t) => f(&mut t.properties),
            Layer::Objects(g) => {
                f(&mut g.properties);
                for o in &mut g.objects {
                    f(&mut o.properties);
                }
            }
        }
    }
}

/// Tiled sorts properties by name when it saves.
fn sorted(mut map: TileMap) -> TileMap {
    for_each_properties(&mut map, |p| p.0.sort_by(|a, b| a.name.cmp(&b.name)));
    map
}

fn read(format: Format, bytes: &[u8]) -> levelkit::Result<TiledMap> {
    match format {
        Format::Tmx => from_tmx(bytes),
        _ => from_tmj(bytes),
    }
}

fn write(format: Format, map: &TileMap, options: &TiledOptions) -> levelkit::Result<Vec<u8>> {
    match format {
        Format::Tmx => to_tmx(map, options),
        _ => to_tmj(map, options),
    }
}

/// `map` written in `format` with `opts` reads back as `expected`, with the same options and no
/// warnings, and writing what was read gives the same bytes again.
fn assert_round_trip(
    name: &str,
    map: &TileMap,
    expected: &TileMap,
    format: Format,
    opts: &TiledOptions,
) {
    let bytes = write(format, map, opts).unwrap();
    let back = read(format, &bytes).unwrap_or_else(|e| panic!("{name} {format:?}: {e}"));
    assert!(
        back.warnings.is_empty(),
        "{name} {format:?}: {:?}",
        back.warnings
    );
    if back.map != *expected {
        first_difference(name, expected, &back.map);
    }
    assert_eq!(back.options.encoding, opts.encoding, "{name} {format:?}");
    for i in 0..map.tilesets.len() {
        assert_eq!(
            back.options.image_for(i),
            opts.image_for(i),
            "{name} tileset {i}"
        );
    }
    assert!(back.options.tileset_image.is_none());
    let again = write(format, &back.map, &back.options).unwrap();
    assert!(again == bytes, "{name} {format:?}: re-export differs");
}

/// Panic naming the first part that differs (the maps are too large for assert_eq's output).
fn first_difference(name: &str, want: &TileMap, got: &TileMap) -> ! {
    let head = |m: &TileMap| {
        (
            m.width,
            m.height,
            m.tile_width,
            m.tile_height,
            m.background.clone(),
            m.source_format,
        )
    };
    assert_eq!(head(got), head(want), "{name}: map attributes");
    assert_eq!(got.properties, want.properties, "{name}: map properties");
    assert_eq!(
        got.tilesets.len(),
        want.tilesets.len(),
        "{name}: tileset count"
    );
    for (g, w) in got.tilesets.iter().zip(&want.tilesets) {
        assert_eq!(g.properties, w.properties, "{name}: tileset {}", w.name);
        assert_eq!(
            g.tiles.len(),
            w.tiles.len(),
            "{name}: tileset {} tiles",
            w.name
        );
        for (gt, wt) in g.tiles.iter().zip(&w.tiles) {
            assert_eq!(gt, wt, "{name}: tileset {}", w.name);
        }
        assert_eq!(g, w, "{name}: tileset");
    }
    assert_eq!(got.layers.len(), want.layers.len(), "{name}: layer count");
    for (gl, wl) in got.layers.iter().zip(&want.layers) {
        match (gl, wl) {
            (Layer::Objects(g), Layer::Objects(w)) => {
                assert_eq!(g.objects.len(), w.objects.len(), "{name}: group {}", w.name);
                for (go, wo) in g.objects.iter().zip(&w.objects) {
                    assert_eq!(go, wo, "{name}: group {}", w.name);
                }
                assert_eq!(g, w, "{name}: group");
            }
            (Layer::Tiles(g), Layer::Tiles(w)) => {
                assert_eq!(g.properties, w.properties, "{name}: layer {}", w.name);
                assert_eq!(g, w, "{name}: layer");
            }
            _ => panic!("{name}: layer kinds differ: {} vs {}", kind(gl), kind(wl)),
        }
    }
    panic!("{name}: maps differ");
}

fn kind(l: &Layer) -> &'static str {
    match l {
        Layer::Tiles(_) => "tiles",
        Layer::Objects(_) => "objects",
    }
}

// ---------------------------------------------------------------------------------------------
// Exact inverse

#[test]
fn every_sample_reads_back_exactly_in_both_formats_and_encodings() {
    for (name, map) in samples() {
        assert!(!map.layers.is_empty());
        for format in [Format::Tmx, Format::Tmj] {
            for encoding in ENCODINGS {
                assert_round_trip(&name, &map, &map, format, &options(encoding));
            }
        }
    }
}

#[test]
fn everything_the_model_holds_reads_back() {
    let map = everything(true);
    let expected = as_written(map.clone());
    // The conventions the writer applies are all exercised.
    assert_ne!(expected, map);
    for format in [Format::Tmx, Format::Tmj] {
        for encoding in ENCODINGS {
            assert_round_trip("everything", &map, &expected, format, &options(encoding));
        }
    }
    let back = from_tmx(&to_tmx(&map, &TiledOptions::default()).unwrap())
        .unwrap()
        .map;
    assert_eq!(
        back.properties.get_int("wide").unwrap(),
        Some(3_000_000_000)
    );
    assert_eq!(
        back.properties.get_int("wide_neg").unwrap(),
        Some(-3_000_000_000)
    );
    assert_eq!(
        back.tilesets[0].image.as_deref(),
        Some("C:\\GAME\\TILES\\A")
    );
    assert!(back.tilesets[0].properties.get(IMAGE_PROPERTY).is_none());
    assert!(back.properties.get(SOURCE_FORMAT_PROPERTY).is_none());
    assert_eq!(back.source_format, Format::GraalLevel);
    let Layer::Objects(things) = &back.layers[1] else {
        panic!()
    };
    assert_eq!((things.objects[3].x, things.objects[3].y), (64.0, 40.0));
}

#[test]
fn tileset_images_come_back_as_options() {
    let map = everything(false);
    let atlas = TilesetImage {
        path: "maps/a.png".into(),
        width: 32,
        height: 32,
        columns: 2,
    };
    let other = TilesetImage {
        path: "b.png".into(),
        width: 16,
        height: 32,
        columns: 1,
    };
    let mut opts = TiledOptions {
        tileset_image: Some(atlas.clone()),
        ..TiledOptions::default()
    };
    opts.tileset_images.insert(1, other.clone());
    let expected = as_written(map.clone());
    for format in [Format::Tmx, Format::Tmj] {
        assert_round_trip("images", &map, &expected, format, &opts);
        let back = read(format, &write(format, &map, &opts).unwrap()).unwrap();
        assert_eq!(back.options.tileset_images.get(&0), Some(&atlas));
        assert_eq!(back.options.tileset_images.get(&1), Some(&other));
    }
}

#[test]
fn empty_tile_data_is_what_the_writer_cannot_write() {
    // A TileData without properties or shapes is not written: the declared `<tile id>` of an
    // image-less tileset looks exactly the same. Reading gives no TileData for it.
    let mut map = everything(false);
    map.tilesets[1].tiles.push(TileData {
        id: 1,
        properties: Properties::new(),
        collision: vec![],
    });
    let bytes = to_tmx(&map, &TiledOptions::default()).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("<tile id=\"1\"/>"));
    let back = from_tmx(&bytes).unwrap().map;
    assert!(back.tilesets[1].tiles.is_empty());
    assert_eq!(back.tilesets[1].tile_count, 2);
}

fn corpus_files() -> Option<Vec<PathBuf>> {
    let root = common::corpus("")?;
    let mut out = Vec::new();
    let mut dirs = vec![root.join("wwd"), root.join("graal")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            if path.is_dir() {
                dirs.push(path);
            } else if (ext == "wwd" && !name.contains("_badsig"))
                || (path.starts_with(root.join("graal")) && (ext == "graal" || ext == "nw"))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    Some(out)
}

#[test]
fn every_corpus_map_reads_back_exactly() {
    let Some(files) = corpus_files() else {
        eprintln!("SKIP: LEVELKIT_CORPUS is not set; corpus round trips not run");
        return;
    };
    assert!(files.len() >= 20, "only {} corpus files found", files.len());
    let mut tmx_refused = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let model = Model::read(&bytes, Some(&name), &Limits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let (map, _) = model
            .to_tilemap()
            .unwrap_or_else(|| panic!("{name}: not a tile map"));
        for encoding in ENCODINGS {
            let opts = options(encoding);
            assert_round_trip(&name, &map, &map, Format::Tmj, &opts);
            match to_tmx(&map, &opts) {
                Ok(_) => assert_round_trip(&name, &map, &map, Format::Tmx, &opts),
                Err(e) => {
                    // A string with a control character XML 1.0 cannot hold (Graal sign text).
                    assert_eq!(e.kind, ErrorKind::Unsupported, "{name}: {e}");
                    assert!(
                        e.message.contains("XML 1.0 cannot represent"),
                        "{name}: {e}"
                    );
                    tmx_refused += 1;
                }
            }
        }
    }
    eprintln!(
        "{} corpus maps read back exactly ({} TMX exports refused by the writer)",
        files.len(),
        tmx_refused / 2
    );
}

// ---------------------------------------------------------------------------------------------
// What Tiled writes

fn oracle() -> Option<PathBuf> {
    common::oracle("tiled_oracle.sh", &["tiled"], "Tiled re-save checks")
}

fn out_dir(test: &str) -> PathBuf {
    common::out_dir("levelkit-tiled-import", test)
}

/// `tiled --export-map IN OUT`; the output's bytes.
fn tiled_convert(script: &Path, input: &Path, output: &Path) -> Vec<u8> {
    common::tiled_convert(script, input, output);
    std::fs::read(output).unwrap()
}

fn format_of(path: &Path) -> Format {
    if path.extension().is_some_and(|e| e == "tmx") {
        Format::Tmx
    } else {
        Format::Tmj
    }
}

#[test]
fn maps_saved_by_tiled_read_back_up_to_property_order() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("resave");
    let mut maps = samples();
    maps.push(("everything".into(), everything(false)));
    let mut checked = 0;
    for (name, map) in &maps {
        let expected = sorted(as_written(map.clone()));
        for encoding in ENCODINGS {
            let opts = options(encoding);
            let enc = match encoding {
                LayerEncoding::Csv => "csv",
                LayerEncoding::Base64Zlib => "zlib",
            };
            let tmx = dir.join(format!("{name}_{enc}.tmx"));
            let tmj = dir.join(format!("{name}_{enc}.tmj"));
            std::fs::write(&tmx, to_tmx(map, &opts).unwrap()).unwrap();
            std::fs::write(&tmj, to_tmj(map, &opts).unwrap()).unwrap();
            for (input, output) in [
                (&tmx, dir.join(format!("{name}_{enc}_tmx2tmj.tmj"))),
                (&tmj, dir.join(format!("{name}_{enc}_tmj2tmx.tmx"))),
                (&tmx, dir.join(format!("{name}_{enc}_tmx2tmx.tmx"))),
                (&tmj, dir.join(format!("{name}_{enc}_tmj2tmj.tmj"))),
            ] {
                let bytes = tiled_convert(&script, input, &output);
                let label = output.file_name().unwrap().to_string_lossy().to_string();
                let back =
                    read(format_of(&output), &bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
                assert!(back.warnings.is_empty(), "{label}: {:?}", back.warnings);
                assert_eq!(back.options.encoding, encoding, "{label}");
                let got = sorted(back.map);
                if got != expected {
                    first_difference(&label, &expected, &got);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, maps.len() * 8);
    let _ = std::fs::remove_dir_all(dir);
}

/// A map in every layer-data format Tiled writes, re-saved by Tiled itself, reads the same.
#[test]
fn every_layer_format_tiled_writes_reads_the_same_gids() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("formats");
    let gids: Vec<u32> = vec![1, 2, 0, 3, 4, 1];
    let le: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
    let zlib = {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&le).unwrap();
        z.finish().unwrap()
    };
    let gzip = {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&le).unwrap();
        z.finish().unwrap()
    };
    let datas = [
        (
            "csv",
            "<data encoding=\"csv\">\n1,2,0,\n3,4,1\n</data>".to_string(),
        ),
        (
            "base64",
            format!("<data encoding=\"base64\">\n   {}\n  </data>", b64(&le)),
        ),
        (
            "zlib",
            format!(
                "<data encoding=\"base64\" compression=\"zlib\">\n   {}\n  </data>",
                b64(&zlib)
            ),
        ),
        (
            "gzip",
            format!(
                "<data encoding=\"base64\" compression=\"gzip\">\n   {}\n  </data>",
                b64(&gzip)
            ),
        ),
        (
            "xml",
            format!(
                "<data>{}</data>",
                gids.iter()
                    .map(|g| if *g == 0 {
                        "<tile/>".to_string()
                    } else {
                        format!("<tile gid=\"{g}\"/>")
                    })
                    .collect::<String>()
            ),
        ),
    ];
    for (label, data) in datas {
        let tmx = small_tmx(&format!(
            "<layer id=\"1\" name=\"L\" width=\"3\" height=\"2\">\n  {data}\n </layer>"
        ));
        let ours = from_tmx(tmx.as_bytes()).unwrap_or_else(|e| panic!("{label}: {e}"));
        let input = dir.join(format!("{label}.tmx"));
        std::fs::write(&input, &tmx).unwrap();
        for ext in ["tmx", "tmj"] {
            let output = dir.join(format!("{label}_saved.{ext}"));
            let bytes = tiled_convert(&script, &input, &output);
            if ext == "tmx" && label != "csv" && label != "xml" {
                let text = String::from_utf8_lossy(&bytes);
                assert!(text.contains("encoding=\"base64\""), "{label}: {text}");
            }
            let back =
                read(format_of(&output), &bytes).unwrap_or_else(|e| panic!("{label}.{ext}: {e}"));
            let Layer::Tiles(t) = &back.map.layers[0] else {
                panic!()
            };
            assert_eq!(t.data(), gids, "{label}.{ext}");
            assert_eq!(back.map.layers, ours.map.layers, "{label}.{ext}");
        }
        let Layer::Tiles(t) = &ours.map.layers[0] else {
            panic!()
        };
        assert_eq!(t.data(), gids, "{label}");
        let expected_encoding = if label == "csv" || label == "xml" {
            LayerEncoding::Csv
        } else {
            LayerEncoding::Base64Zlib
        };
        assert_eq!(ours.options.encoding, expected_encoding, "{label}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Groups, image layers, ellipses, polylines, text, opacity, class and locked layers: read as
/// closely as the model allows, each with a warning; Tiled's own save of the file reads the same.
#[test]
fn what_the_model_cannot_hold_is_a_warning() {
    let tmx = small_tmx(
        r##"<group id="5" name="G" offsetx="10" offsety="4" parallaxx="0.5" visible="0">
  <properties><property name="gp" value="1"/></properties>
  <layer id="1" name="Inner" width="3" height="2" opacity="0.5" locked="1">
   <data encoding="csv">1,0,0,0,0,2</data>
  </layer>
 </group>
 <imagelayer id="2" name="Sky"><image source="sky.png" width="64" height="64"/></imagelayer>
 <objectgroup id="3" name="O" class="Layerclass">
  <object id="1" name="e" class="Round" x="1" y="2" width="10" height="20"><ellipse/></object>
  <object id="2" x="3" y="4"><polyline points="0,0 5,5 10,0"/></object>
  <object id="3" x="5" y="6" width="80" height="20"><text wrap="1">Hello</text></object>
  <object id="4" x="7" y="8" width="2" height="2" rotation="45"/>
 </objectgroup>"##,
    );
    let dir = out_dir("warnings");
    let input = dir.join("extras.tmx");
    std::fs::write(&input, &tmx).unwrap();
    let mut files = vec![("ours", tmx.into_bytes(), Format::Tmx)];
    if let Some(script) = oracle() {
        for ext in ["tmx", "tmj"] {
            let output = dir.join(format!("extras_saved.{ext}"));
            files.push((
                "tiled",
                tiled_convert(&script, &input, &output),
                format_of(&output),
            ));
        }
    }
    for (who, bytes, format) in files {
        let label = format!("{who} {format:?}");
        let got = read(format, &bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        let text: Vec<String> = got.warnings.iter().map(|w| w.to_string()).collect();
        let has = |needle: &str| {
            assert!(
                text.iter().any(|w| w.contains(needle)),
                "{label}: no warning with {needle:?} in {text:#?}"
            );
        };
        has("group layers have no place in the model");
        has("the group's properties are not kept");
        has("image layers have no place in the model; the layer (image \"sky.png\") is skipped");
        has("opacity 0.5 is not kept");
        has("an ellipse is read as its bounding rectangle");
        has("a polyline is read as a polygon");
        has("a text object is read as a point");
        has("rotation 45° is not kept");
        if format == Format::Tmx && who == "ours" {
            // Tiled 1.8.2 does not know `class` (a 1.9 attribute) and drops it, and `locked`.
            has("the class \"Layerclass\" is not kept");
            has("the layer is locked");
        }
        assert_eq!(got.map.layers.len(), 2, "{label}");
        let Layer::Tiles(inner) = &got.map.layers[0] else {
            panic!("{label}")
        };
        assert_eq!(inner.name, "Inner");
        assert!(!inner.visible, "{label}: the group is hidden");
        assert_eq!(inner.offset, (10.0, 4.0), "{label}");
        assert_eq!(inner.parallax, (0.5, 1.0), "{label}");
        let Layer::Objects(o) = &got.map.layers[1] else {
            panic!("{label}")
        };
        assert_eq!(
            o.objects[0].shape,
            Shape::Rect {
                width: 10.0,
                height: 20.0
            }
        );
        if who == "ours" {
            assert_eq!(
                o.objects[0].class, "Round",
                "{label}: class read as the object class"
            );
        }
        assert_eq!(
            o.objects[1].shape,
            Shape::Polygon(vec![(0.0, 0.0), (5.0, 5.0), (10.0, 0.0)])
        );
        assert_eq!(o.objects[2].shape, Shape::Point);
        assert_eq!(
            o.objects[3].shape,
            Shape::Rect {
                width: 2.0,
                height: 2.0
            }
        );
        // Every warning says where: a path and, in TMX, a line.
        for w in &got.warnings {
            assert!(w.location.path.is_some(), "{label}: {w}");
            if format == Format::Tmx {
                assert!(w.location.line_col.is_some(), "{label}: {w}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// What Tiled 1.8.2 does to numbers: recorded facts the reader and the writer rely on.
#[test]
fn tiled_number_formatting_facts() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("numbers");
    let tmx = small_tmx(
        r##"<properties>
  <property name="big" type="int" value="3000000000"/>
  <property name="f" type="float" value="0.1"/>
  <property name="g" type="float" value="0.30000000000000004"/>
 </properties>
 <objectgroup id="1" name="O">
  <object id="1" x="1234.5678" y="0.1" width="10.123456789" height="3"/>
 </objectgroup>"##,
    );
    let input = dir.join("numbers.tmx");
    std::fs::write(&input, &tmx).unwrap();
    let saved_tmx = from_tmx(&tiled_convert(&script, &input, &dir.join("saved.tmx"))).unwrap();
    let saved_tmj = from_tmj(&tiled_convert(&script, &input, &dir.join("saved.tmj"))).unwrap();
    let obj = |m: &TiledMap| match &m.map.layers[0] {
        Layer::Objects(g) => g.objects[0].clone(),
        _ => panic!(),
    };
    // TMX: object geometry is written with 6 significant digits; float properties exactly.
    assert_eq!((obj(&saved_tmx).x, obj(&saved_tmx).y), (1234.57, 0.1));
    assert_eq!(
        obj(&saved_tmx).shape,
        Shape::Rect {
            width: 10.1235,
            height: 3.0
        }
    );
    assert_eq!(saved_tmx.map.properties.get_float("f").unwrap(), Some(0.1));
    assert_eq!(
        saved_tmx.map.properties.get_float("g").unwrap(),
        Some(0.30000000000000004)
    );
    // TMJ: geometry exact; float properties with 15 significant digits.
    assert_eq!((obj(&saved_tmj).x, obj(&saved_tmj).y), (1234.5678, 0.1));
    assert_eq!(saved_tmj.map.properties.get_float("g").unwrap(), Some(0.3));
    // An int property beyond i32 wraps around to 32 bits (3000000000 - 2^32), in both formats.
    for m in [&saved_tmx, &saved_tmj] {
        assert_eq!(
            m.map.properties.get("big"),
            Some(&PropertyValue::Int(-1_294_967_296))
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

fn small_tmx(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.8\" tiledversion=\"1.8.2\" \
         orientation=\"orthogonal\" renderorder=\"right-down\" width=\"3\" height=\"2\" \
         tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"9\" nextobjectid=\"9\">\n \
         <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\" \
         columns=\"0\">\n  <tile id=\"0\"/><tile id=\"1\"/><tile id=\"2\"/><tile id=\"3\"/>\n \
         </tileset>\n {body}\n</map>\n"
    )
}

fn small_tmj(layers: &str) -> String {
    format!(
        r#"{{"type":"map","orientation":"orthogonal","width":3,"height":2,"tilewidth":16,"tileheight":16,
        "infinite":false,"tilesets":[{{"firstgid":1,"name":"t","tilewidth":16,"tileheight":16,"tilecount":4,"columns":0}}],
        "layers":[{layers}]}}"#
    )
}

/// `n` zero bytes, zlib-compressed and base64-encoded.
fn zlib(n: usize) -> String {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&vec![0u8; n]).unwrap();
    b64(&z.finish().unwrap())
}

fn b64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (b(0) << 16) | (b(1) << 8) | b(2);
        out.push(ABC[(n >> 18) as usize & 63] as char);
        out.push(ABC[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            ABC[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            ABC[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Refusals

fn tmx_err(tmx: &str) -> levelkit::Error {
    match from_tmx(tmx.as_bytes()) {
        Ok(_) => panic!("accepted: {tmx}"),
        Err(e) => e,
    }
}

fn tmj_err(tmj: &str) -> levelkit::Error {
    match from_tmj(tmj.as_bytes()) {
        Ok(_) => panic!("accepted: {tmj}"),
        Err(e) => e,
    }
}

fn layer(data: &str) -> String {
    small_tmx(&format!(
        "<layer id=\"1\" name=\"Action\" width=\"3\" height=\"2\">\n  {data}\n </layer>"
    ))
}

#[test]
fn refuses_other_orientations_and_infinite_maps() {
    let iso = small_tmx("").replace("orthogonal", "isometric");
    let e = tmx_err(&iso);
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.to_string()
            .starts_with("tmx: map: the map is isometric; levelkit reads orthogonal maps only"),
        "{e}"
    );
    let e = tmj_err(&small_tmj("").replace("orthogonal", "hexagonal"));
    assert!(e.to_string().contains("the map is hexagonal"), "{e}");

    let inf = small_tmx("").replace("infinite=\"0\"", "infinite=\"1\"");
    let e = tmx_err(&inf);
    assert!(e.to_string().contains("uncheck Map > Infinite"), "{e}");
    let e = tmj_err(&small_tmj("").replace("\"infinite\":false", "\"infinite\":true"));
    assert!(e.to_string().contains("uncheck Map > Infinite"), "{e}");

    let chunks = layer(
        "<data encoding=\"csv\"><chunk x=\"0\" y=\"0\" width=\"16\" height=\"16\">0</chunk></data>",
    );
    let e = tmx_err(&chunks);
    assert!(
        e.to_string()
            .contains("layer \"Action\" (layers[0]): the layer is stored in chunks"),
        "{e}"
    );
    assert!(e.to_string().contains("uncheck Map > Infinite"), "{e}");
    let e = tmj_err(&small_tmj(
        r#"{"type":"tilelayer","name":"Action","width":3,"height":2,"chunks":[]}"#,
    ));
    assert!(e.to_string().contains("stored in chunks"), "{e}");
}

#[test]
fn refuses_external_tilesets_and_templates() {
    let tmx = small_tmx("<tileset firstgid=\"5\" source=\"tiles/x.tsx\"/>");
    let e = tmx_err(&tmx);
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        // Without a resolver (`from_tmx`) no tileset file is found; `tiled_tsx.rs` reads them.
        e.to_string().contains("tileset \"\" (tilesets[1]): the tileset is in the external file \"tiles/x.tsx\", which was not found (it is looked for relative to the map); put it there, or embed the tileset (Map > Embed Tileset in Tiled)"),
        "{e}"
    );
    let tmj = small_tmj("").replace(
        r#""tilesets":["#,
        r#""tilesets":[{"firstgid":9,"source":"x.tsj"},"#,
    );
    let e = tmj_err(&tmj);
    assert!(e.to_string().contains("external file \"x.tsj\""), "{e}");
    assert_eq!(e.location.path.as_deref(), Some("tilesets[0]"));

    let e = tmx_err(&small_tmx(
        "<objectgroup id=\"2\" name=\"O\"><object id=\"1\" template=\"door.tx\" x=\"1\" y=\"2\"/></objectgroup>",
    ));
    assert!(
        e.to_string().contains(
            "object 1 (layers[0].objects[0]): the object is an instance of the template \"door.tx\""
        ),
        "{e}"
    );
    let e = tmj_err(&small_tmj(
        r#"{"type":"objectgroup","name":"O","objects":[{"id":1,"template":"door.tj","x":1,"y":2}]}"#,
    ));
    assert!(e.to_string().contains("template \"door.tj\""), "{e}");
}

#[test]
fn refuses_flipped_tiles_naming_layer_cell_and_flips() {
    let cases = [
        (0x8000_0002u32, "flipped horizontally"),
        (0x4000_0002, "flipped vertically"),
        (0x2000_0002, "flipped diagonally"),
        (0x1000_0002, "rotated by 120° (hexagonal)"),
        (0xC000_0002, "flipped horizontally and flipped vertically"),
    ];
    for (gid, flips) in cases {
        let e = tmx_err(&layer(&format!(
            "<data encoding=\"csv\">0,0,0,0,0,{gid}</data>"
        )));
        assert_eq!(e.kind, ErrorKind::Unsupported);
        let want = format!(
            "tmx: layer \"Action\" (layers[0]) cell (2, 1): gid 0x{gid:08x} is {flips}; the levelkit formats cannot flip tiles"
        );
        assert!(e.to_string().starts_with(&want), "{e}\nwanted {want}");
        let e = tmj_err(&small_tmj(&format!(
            r#"{{"type":"tilelayer","name":"Action","width":3,"height":2,"data":[0,{gid},0,0,0,0]}}"#
        )));
        assert!(
            e.to_string()
                .contains("layer \"Action\" (layers[0]) cell (1, 0): gid"),
            "{e}"
        );
        assert!(e.to_string().contains(flips), "{e}");
    }
    // Tile objects too.
    let e = tmx_err(&small_tmx(&format!(
        "<objectgroup id=\"2\" name=\"O\"><object id=\"1\" gid=\"{}\" x=\"1\" y=\"2\"/></objectgroup>",
        0x8000_0001u32
    )));
    assert!(
        e.to_string()
            .contains("object 1 (layers[0].objects[0]): gid 0x80000001 is flipped horizontally"),
        "{e}"
    );
}

#[test]
fn refuses_layer_data_of_the_wrong_size() {
    let e = tmx_err(&layer("<data encoding=\"csv\">1,2,3,4,5</data>"));
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(
        e.to_string().contains(
            "layer \"Action\" (layers[0]): the layer is 3 x 2 = 6 cells, but its data holds 5 cells"
        ),
        "{e}"
    );
    let e = tmx_err(&layer(&format!(
        "<data encoding=\"base64\">{}</data>",
        b64(&[0; 28])
    )));
    assert!(
        e.to_string()
            .contains("6 cells, but its data holds 7 cells"),
        "{e}"
    );
    let e = tmx_err(&layer(&format!(
        "<data encoding=\"base64\">{}</data>",
        b64(&[0; 10])
    )));
    assert!(
        e.to_string()
            .contains("10 bytes, which is not a whole number of cells"),
        "{e}"
    );
    let e = tmx_err(&layer(&format!(
        "<data encoding=\"base64\" compression=\"zlib\">{}</data>",
        zlib(20)
    )));
    assert!(
        e.to_string()
            .contains("6 cells, but its data holds 5 cells"),
        "{e}"
    );
    let e = tmx_err(&layer(&format!(
        "<data encoding=\"base64\" compression=\"zlib\">{}</data>",
        zlib(400)
    )));
    assert!(
        e.to_string()
            .contains("6 cells, but its data holds more than 6 cells"),
        "{e}"
    );
    let e = tmx_err(&layer("<data><tile/><tile/></data>"));
    assert!(
        e.to_string()
            .contains("6 cells, but its data holds 2 <tile> elements"),
        "{e}"
    );
    let e = tmj_err(&small_tmj(
        r#"{"type":"tilelayer","name":"Action","width":3,"height":2,"data":[1,2,3]}"#,
    ));
    assert!(
        e.to_string().contains(
            "layer \"Action\" (layers[0]): the layer is 3 x 2 = 6 cells, but its data holds 3 cells"
        ),
        "{e}"
    );
    let e = tmx_err(&layer("<data encoding=\"csv\">1,2,x,4,5,6</data>"));
    assert!(
        e.to_string()
            .contains("layer \"Action\" (layers[0]) cell (2, 0): \"x\" is not a tile id"),
        "{e}"
    );
    let e = tmx_err(&layer("<data encoding=\"base64\">AAAA!AAA</data>"));
    assert!(
        e.to_string().contains("base64 data: character 4 is '!'"),
        "{e}"
    );
}

#[test]
fn refuses_zstd_and_unknown_encodings() {
    let e = tmx_err(&layer(
        "<data encoding=\"base64\" compression=\"zstd\">KLUv/SAAAQAA</data>",
    ));
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.to_string()
            .contains("zstd-compressed layer data is not supported"),
        "{e}"
    );
    let e = tmj_err(&small_tmj(
        r#"{"type":"tilelayer","name":"Action","width":3,"height":2,"encoding":"base64","compression":"zstd","data":"AAAA"}"#,
    ));
    assert!(e.to_string().contains("zstd"), "{e}");
    let e = tmx_err(&layer("<data encoding=\"hex\">00</data>"));
    assert!(
        e.to_string()
            .contains("layer data encoding \"hex\" is unknown"),
        "{e}"
    );
}

#[test]
fn refuses_unknown_property_types_and_bad_values() {
    let e = tmx_err(&small_tmx(
        "<properties><property name=\"p\" type=\"vector\" value=\"1,2\"/></properties>",
    ));
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.to_string()
            .contains("property \"p\" (properties[0]): the property type \"vector\" is unknown"),
        "{e}"
    );
    let e = tmx_err(&small_tmx(
        "<properties><property name=\"c\" type=\"class\" propertytype=\"Door\"/></properties>",
    ));
    assert!(e.to_string().contains("class properties"), "{e}");
    let e = tmx_err(&small_tmx(
        "<properties><property name=\"n\" type=\"int\" value=\"12.5\"/></properties>",
    ));
    assert!(
        e.to_string()
            .contains("the int property holds \"12.5\", which is not an integer"),
        "{e}"
    );
    let e = tmj_err(&small_tmj("").replacen(
        "\"infinite\"",
        r#""properties":[{"name":"f","type":"float","value":"x"}],"infinite""#,
        1,
    ));
    assert!(
        e.to_string()
            .contains("property \"f\" (properties[0]): the float property holds \"x\""),
        "{e}"
    );
}

#[test]
fn non_numbers_name_the_attribute_and_line() {
    let tmx = small_tmx(
        "<objectgroup id=\"2\" name=\"O\">\n  <object id=\"5\" x=\"12\" y=\"twelve\"/>\n </objectgroup>",
    );
    let e = tmx_err(&tmx);
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(
        e.to_string().contains(
            "object 5 (layers[0].objects[0]): attribute y=\"twelve\" of <object> is not a number"
        ),
        "{e}"
    );
    assert_eq!(e.location.line_col, Some((7, 3)), "{e}");
    let e = tmx_err(&small_tmx("").replace("width=\"3\"", "width=\"-3\""));
    assert!(
        e.to_string()
            .contains("map: attribute width=\"-3\" of <map> is not an unsigned 32-bit integer"),
        "{e}"
    );
    assert_eq!(e.location.line_col, Some((2, 1)), "{e}");

    let tmj = small_tmj(
        r#"{"type":"objectgroup","name":"O","objects":[{"id":1,"x":0,"y":0},{"id":2,"x":0,"y":0,"width":"wide"}]}"#,
    );
    let e = tmj_err(&tmj);
    assert_eq!(
        e.location.path.as_deref(),
        Some("layers[0].objects[1].width")
    );
    assert!(
        e.to_string()
            .contains("object 2 (layers[0].objects[1]): width is \"wide\", not a number"),
        "{e}"
    );
}

#[test]
fn refuses_malformed_xml_and_json() {
    let e = tmx_err("<?xml version=\"1.0\"?>\n<map width=\"1\">\n <layer>\n</map>\n");
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(e.to_string().starts_with("tmx: not well-formed XML"), "{e}");
    assert!(e.location.line_col.is_some(), "{e}");
    let e = tmx_err("<?xml version=\"1.0\"?>\n<map");
    assert!(e.to_string().starts_with("tmx: not well-formed XML"), "{e}");
    let e = tmx_err("<tileset/>");
    assert!(
        e.to_string().contains("the root element is <tileset>"),
        "{e}"
    );
    let e = tmx_err("");
    assert!(e.to_string().contains("one <map> element"), "{e}");
    let e = from_tmx(b"\xff\xfe<map/>").unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    let e = tmx_err(&small_tmx(
        "<properties><property name=\"p\" value=\"&bogus;\"/></properties>",
    ));
    assert!(e.to_string().contains("bogus"), "{e}");

    let e = tmj_err("{\"width\": 3,\n \"height\": }");
    assert!(e.to_string().starts_with("tmj: not valid JSON"), "{e}");
    assert_eq!(e.location.line_col.map(|(l, _)| l), Some(2), "{e}");
    let e = tmj_err("[1, 2]");
    assert!(e.to_string().contains("not a JSON object"), "{e}");
    let e = tmj_err(r#"{"type":"tileset","name":"x"}"#);
    assert!(e.to_string().contains("type is \"tileset\""), "{e}");
}

#[test]
fn hostile_sizes_fail_before_allocating() {
    let start = std::time::Instant::now();
    let huge = small_tmx(
        "<layer id=\"1\" name=\"Huge\" width=\"100000\" height=\"100000\"><data encoding=\"csv\">1,2,3</data></layer>",
    );
    let e = tmx_err(&huge);
    // 10^10 cells would be 40 GB: the allocation budget refuses it first.
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    let within = small_tmx(
        "<layer id=\"1\" name=\"Wide\" width=\"10000\" height=\"10000\"><data encoding=\"csv\">1,2,3</data></layer>",
    );
    let e = tmx_err(&within);
    assert!(
        e.to_string()
            .contains("the layer is 10000 x 10000 = 100000000 cells, but its data holds 3 cells"),
        "{e}"
    );
    let e = tmx_err(&within.replace(
        "encoding=\"csv\">1,2,3",
        &format!("encoding=\"base64\" compression=\"zlib\">{}", zlib(12)),
    ));
    assert!(
        e.to_string()
            .contains("100000000 cells, but its data holds"),
        "{e}"
    );
    let e = tmj_err(&small_tmj(
        r#"{"type":"tilelayer","name":"Huge","width":100000,"height":100000,"data":[1,2,3]}"#,
    ));
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    // Just over the 512 MiB budget: refused without looking at the data.
    let e = tmx_err(&small_tmx(&format!(
        "<layer id=\"1\" name=\"L\" width=\"12000\" height=\"12000\"><data encoding=\"base64\" compression=\"zlib\">{}</data></layer>",
        zlib(12)
    )));
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    // A zlib bomb: 64 MB of zeros in a few KB, for a layer that promises 4 cells.
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![0u8; 64 << 20]).unwrap();
    let bomb = b64(&z.finish().unwrap());
    let e = tmx_err(&small_tmx(&format!(
        "<layer id=\"1\" name=\"Bomb\" width=\"2\" height=\"2\"><data encoding=\"base64\" compression=\"zlib\">{bomb}</data></layer>"
    )));
    assert!(
        e.to_string()
            .contains("4 cells, but its data holds more than 4 cells"),
        "{e}"
    );
    // Deep nesting is refused, not recursed into.
    let deep = format!(
        "<map>{}{}</map>",
        "<g>".repeat(10_000),
        "</g>".repeat(10_000)
    );
    let e = tmx_err(&deep);
    assert!(e.to_string().contains("nest more than"), "{e}");
    let deep_json = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(from_tmj(deep_json.as_bytes()).is_err());
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

/// Every prefix of a written map is an error or a map, never a panic.
#[test]
fn truncated_maps_never_panic() {
    let map = everything(true);
    for format in [Format::Tmx, Format::Tmj] {
        for encoding in ENCODINGS {
            let bytes = write(format, &map, &options(encoding)).unwrap();
            let step = (bytes.len() / 400).max(1);
            for end in (0..bytes.len()).step_by(step) {
                let _ = read(format, &bytes[..end]);
            }
        }
    }
}
