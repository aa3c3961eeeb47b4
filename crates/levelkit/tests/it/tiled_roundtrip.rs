//! Levels through Tiled's own hands and back (issue 4's acceptance, judged by Tiled 1.8.2):
//!
//! * every level of `samples/` and of the shared corpus (WWD and Graal) goes `level -> .tmx ->
//!   tiled --export-map .tmj -> tiled --export-map .tmx -> level` and comes back byte for byte
//!   (the `.tmj` Tiled wrote is read back too);
//! * an edit made in the map file (a tile, an object moved, a property) and saved again by Tiled
//!   comes back as exactly that edit;
//! * malformed maps are refused by the CLI with exit 1 and nothing written.
//!
//! Without `tiled` on the PATH the Tiled steps print `SKIP` (CI installs it).

use crate::common;

use std::path::{Path, PathBuf};

use levelkit::Limits;
use levelkit::document::Model;
use levelkit::registry::Format;
use levelkit::tiled::{TiledOptions, to_tmx};

fn oracle() -> Option<PathBuf> {
    common::oracle("tiled_oracle.sh", &["tiled"], "round trips through Tiled")
}

fn out_dir(test: &str) -> PathBuf {
    common::out_dir("levelkit-roundtrip", test)
}

use crate::common::tiled_convert;

/// Every level: samples first, then the corpus (when `LEVELKIT_CORPUS` is set).
fn levels() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let push_dir = |dir: &Path, out: &mut Vec<(String, Vec<u8>)>| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let lower = name.to_lowercase();
            if lower.contains("badsig")
                || !(lower.ends_with(".wwd") || lower.ends_with(".graal") || lower.ends_with(".nw"))
            {
                continue;
            }
            out.push((name, std::fs::read(&f).unwrap()));
        }
    };
    push_dir(&samples, &mut out);
    match common::corpus("") {
        Some(c) => {
            push_dir(&c.join("wwd"), &mut out);
            // Community levels, rewritten by CrazyHook (its own deflate streams and checksums).
            for level in ["LEVEL1", "LEVEL10"] {
                let dir = c.join("wap32/crazyhook").join(level);
                if dir.is_dir() {
                    push_dir(&dir, &mut out);
                }
            }
            let mut dirs: Vec<PathBuf> = std::fs::read_dir(c.join("graal"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_dir())
                .collect();
            dirs.sort();
            for d in dirs {
                push_dir(&d, &mut out);
            }
        }
        None => eprintln!("SKIP: LEVELKIT_CORPUS not set; only samples/ go through Tiled"),
    }
    out
}

/// The map as the CLI writes it: TMX plus a generated PNG per tileset beside it
/// (`<stem>.tileset<N>.png`). (Without images, Tiled 1.8 drops the undeclared tiles of an
/// image-less tileset when it reads a TMJ, so a map must carry its tileset images to survive a
/// TMJ save; the CLI always writes them.)
pub(crate) fn export(map: &levelkit::tilemap::TileMap, dir: &Path, stem: &str) -> Vec<u8> {
    use levelkit::picture as png;
    use levelkit::tiled::TilesetImage;
    let mut options = TiledOptions::default();
    for (i, ts) in map.tilesets.iter().enumerate() {
        let image = png::tileset_image(ts).unwrap();
        let name = format!("{stem}.tileset{i}.png");
        std::fs::write(dir.join(&name), png::encode_png(&image).unwrap()).unwrap();
        options.tileset_images.insert(
            i,
            TilesetImage {
                path: name,
                width: image.width,
                height: image.height,
                columns: image.columns,
            },
        );
    }
    to_tmx(map, &options).unwrap()
}

fn read(bytes: &[u8], name: &str) -> Model {
    Model::read(bytes, Some(name), &Limits::default()).unwrap()
}

/// The level a map file converts back to, written.
fn level_bytes(map_file: &Path, target: Format) -> Vec<u8> {
    let bytes = std::fs::read(map_file).unwrap();
    let name = map_file.file_name().unwrap().to_string_lossy().into_owned();
    let model = read(&bytes, &name);
    let (level, _) = model
        .convert_to(target)
        .unwrap_or_else(|e| panic!("{}: {e}", map_file.display()));
    level.write().unwrap()
}

/// Same bytes. A compressed WWD's stream (and a checksum that is not the editor's) travels in
/// the map's `wwd_deflate` property, so it too comes back byte for byte.
fn assert_same_level(name: &str, got: &[u8], want: &[u8]) {
    assert!(
        got == want,
        "{name}: the level that came back differs from the original"
    );
}

#[test]
fn every_level_comes_back_through_tiled() {
    let Some(script) = oracle() else { return };
    let dir = out_dir("all");
    let levels = levels();
    let mut exact = 0;
    for (name, bytes) in &levels {
        let model = read(bytes, name);
        let format = model.format();
        let (map, _) = model.to_tilemap().unwrap();
        let stem = name.replace('.', "_");
        let tmx = dir.join(format!("{stem}.tmx"));
        std::fs::write(&tmx, export(&map, &dir, &stem)).unwrap();
        let tmj = dir.join(format!("{stem}_tiled.tmj"));
        tiled_convert(&script, &tmx, &tmj);
        let again = dir.join(format!("{stem}_tiled.tmx"));
        tiled_convert(&script, &tmj, &again);
        for file in [&tmj, &again] {
            let got = level_bytes(file, format);
            assert_same_level(&format!("{name} via {}", file.display()), &got, bytes);
        }
        exact += 1;
        eprintln!("{name}: level -> tmx -> Tiled tmj -> Tiled tmx -> level: same level");
    }
    assert_eq!(exact, levels.len());
    eprintln!("{exact} levels came back through Tiled");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The text of the element starting at the first match of `start`, up to its end tag.
fn element_span(text: &str, start: &str, end: &str) -> (usize, usize) {
    let a = text.find(start).unwrap_or_else(|| panic!("no {start}"));
    let b = a
        + text[a..]
            .find(end)
            .unwrap_or_else(|| panic!("no {end} after {start}"))
        + end.len();
    (a, b)
}

/// The start tag of map object `id` (not a tile's collision shape, which Tiled numbers from 1
/// within its tile): the first match after the first object *layer* (which has a name).
fn map_object_span(text: &str, id: u32) -> (usize, usize) {
    let mut from = 0;
    let layer = loop {
        let a = from + text[from..].find("<objectgroup").unwrap();
        let end = a + text[a..].find('>').unwrap();
        if text[a..end].contains(" name=\"") {
            break a;
        }
        from = end;
    };
    let (a, b) = element_span(&text[layer..], &format!("<object id=\"{id}\""), ">");
    (layer + a, layer + b)
}

/// Replace the value of attribute `attr` inside `text[span]`.
fn set_attr(text: &mut String, span: (usize, usize), attr: &str, f: impl Fn(&str) -> String) {
    let key = format!(" {attr}=\"");
    let a = span.0 + text[span.0..span.1].find(&key).unwrap() + key.len();
    let b = a + text[a..].find('"').unwrap();
    let new = f(&text[a..b]);
    text.replace_range(a..b, &new);
}

fn wwd_edit_case(
    script: &Path,
    dir: &Path,
    label: &str,
    edit: impl Fn(&mut String),
    expect: impl Fn(&mut levelkit::formats::wwd::Wwd),
) {
    use levelkit::formats::wwd::Wwd;
    let original = levelkit::formats::wwd::samples::claw_like();
    let (map, _) = original.to_tilemap();
    let ours = dir.join(format!("{label}.tmx"));
    std::fs::write(&ours, export(&map, dir, label)).unwrap();
    // The file as Tiled writes it, then edited as a user's save would change it.
    let saved = dir.join(format!("{label}_saved.tmx"));
    tiled_convert(script, &ours, &saved);
    let mut text = std::fs::read_to_string(&saved).unwrap();
    let before = text.clone();
    edit(&mut text);
    assert_ne!(text, before, "{label}: the edit changed nothing");
    let edited = dir.join(format!("{label}_edited.tmx"));
    std::fs::write(&edited, &text).unwrap();
    // Saved once more by Tiled, and back.
    let resaved = dir.join(format!("{label}_resaved.tmj"));
    tiled_convert(script, &edited, &resaved);
    let got = Wwd::read(&level_bytes(&resaved, Format::Wwd)).unwrap();
    let mut want = original.clone();
    expect(&mut want);
    want.source = None;
    let mut got = got;
    got.source = None;
    assert!(
        got == want,
        "{label}: the level is not the original with exactly that edit: {}",
        first_difference(&format!("{got:?}"), &format!("{want:?}"))
    );
    eprintln!("{label}: exactly that edit came back");
}

/// Where two debug dumps first differ, with some context.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(120);
    let cut = |s: &str| {
        s.get(from..(at + 80).min(s.len()))
            .unwrap_or("")
            .to_string()
    };
    format!("got …{}… want …{}…", cut(a), cut(b))
}

#[test]
fn edits_in_the_map_file_come_back_as_exactly_those_edits() {
    use levelkit::formats::wwd::Tile;
    let Some(script) = oracle() else { return };
    let dir = out_dir("edits");
    let original = levelkit::formats::wwd::samples::claw_like();

    // A tile: the first cell of the first layer gets the id of a different tile of its plane.
    let plane0 = &original.planes[0];
    let k = plane0
        .tiles
        .iter()
        .position(|&c| c != plane0.tiles[0] && matches!(Tile::from_raw(c), Tile::Image { .. }))
        .unwrap();
    let (map, _) = original.to_tilemap();
    let levelkit::tilemap::Layer::Tiles(layer0) = &map.layers[0] else {
        panic!()
    };
    let new_gid = layer0.data()[k];
    let new_raw = plane0.tiles[k];
    wwd_edit_case(
        &script,
        &dir,
        "tile",
        |t| {
            let (a, _) = element_span(t, "<data encoding=\"csv\">", "</data>");
            let start = a + "<data encoding=\"csv\">".len();
            let start = start + t[start..].find(|c: char| c.is_ascii_digit()).unwrap();
            let end = start + t[start..].find(',').unwrap();
            t.replace_range(start..end, &new_gid.to_string());
        },
        |w| w.planes[0].tiles[0] = new_raw,
    );

    // An object moved: the first object, 64 px right and 32 px up.
    wwd_edit_case(
        &script,
        &dir,
        "move",
        |t| {
            let span = map_object_span(t, 1);
            set_attr(t, span, "x", |v| {
                (v.parse::<f64>().unwrap() + 64.0).to_string()
            });
            let span = map_object_span(t, 1);
            set_attr(t, span, "y", |v| {
                (v.parse::<f64>().unwrap() - 32.0).to_string()
            });
        },
        |w| {
            let o = w
                .planes
                .iter_mut()
                .flat_map(|p| &mut p.objects)
                .next()
                .unwrap();
            o.x += 64;
            o.y -= 32;
        },
    );

    // A property: the second object's health.
    wwd_edit_case(
        &script,
        &dir,
        "property",
        |t| {
            let (a, _) = map_object_span(t, 2);
            let b = a + t[a..].find("</object>").unwrap();
            let rel = t[a..b].find("<property name=\"health\"").unwrap();
            let span = (a + rel, a + rel + t[a + rel..].find("/>").unwrap());
            set_attr(t, span, "value", |_| "77".into());
        },
        |w| {
            let o = w
                .planes
                .iter_mut()
                .flat_map(|p| &mut p.objects)
                .nth(1)
                .unwrap();
            o.health = 77;
        },
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same through a Graal level (`.graal` and `.nw`): an NPC moved one tile right, a link's
/// destination renamed and a tile changed in the Tiled-saved file come back as exactly those
/// changes to the level's meaning, in the level's own format and version.
#[test]
fn graal_edits_in_the_map_file_come_back() {
    use levelkit::formats::graal::{binary as graal, level::Level};
    let Some(script) = oracle() else { return };
    let dir = out_dir("graal-edits");
    let g = graal::samples::graal();
    let nw = levelkit::formats::graal::nw::samples::village();
    for (label, original) in [("island", Model::Graal(g)), ("village", Model::Nw(nw))] {
        let format = original.format();
        let level_of = |m: &Model| -> Level {
            match m {
                Model::Graal(g) => g.to_level().0,
                Model::Nw(n) => n.to_level().0,
                _ => panic!("not a Graal level"),
            }
        };
        let before = level_of(&original);
        let (map, _) = original.to_tilemap().unwrap();
        let ours = dir.join(format!("{label}.tmx"));
        std::fs::write(&ours, export(&map, &dir, label)).unwrap();
        let saved = dir.join(format!("{label}_saved.tmx"));
        tiled_convert(&script, &ours, &saved);
        let mut text = std::fs::read_to_string(&saved).unwrap();

        let mut want = before.clone();
        // The first NPC, one tile (16 px) right.
        if !want.npcs.is_empty() {
            let npc_id = map
                .layers
                .iter()
                .filter_map(|l| match l {
                    levelkit::tilemap::Layer::Objects(g) => Some(g),
                    _ => None,
                })
                .flat_map(|g| &g.objects)
                .find(|o| o.class == "npc")
                .unwrap()
                .id;
            let span = map_object_span(&text, npc_id);
            set_attr(&mut text, span, "x", |v| {
                (v.parse::<f64>().unwrap() + 16.0).to_string()
            });
            want.npcs[0].x += 1.0;
        }
        // The first link's destination.
        if !want.links.is_empty() {
            let a = text.find("<property name=\"dest\" value=\"").unwrap();
            let span = (a, a + text[a..].find("/>").unwrap());
            set_attr(&mut text, span, "value", |_| "elsewhere.nw".into());
            want.links[0].dest = "elsewhere.nw".into();
        }
        // The first cell of the first layer: the tile of cell 1.
        let (a, _) = element_span(&text, "<data encoding=\"csv\">", "</data>");
        let start = a + "<data encoding=\"csv\">".len();
        let start = start + text[start..].find(|c: char| c.is_ascii_digit()).unwrap();
        let end = start + text[start..].find(',').unwrap();
        let Some(levelkit::tilemap::Layer::Tiles(layer0)) = map.layers.first() else {
            panic!("no tile layer")
        };
        let k = layer0
            .data()
            .iter()
            .position(|&g| g != layer0.data()[0] && g != 0)
            .unwrap();
        text.replace_range(start..end, &layer0.data()[k].to_string());
        want.layers[0].tiles[0] = want.layers[0].tiles[k];

        let edited = dir.join(format!("{label}_edited.tmx"));
        std::fs::write(&edited, &text).unwrap();
        let resaved = dir.join(format!("{label}_resaved.tmj"));
        tiled_convert(&script, &edited, &resaved);
        let bytes = level_bytes(&resaved, format);
        let got = read(&bytes, &format!("x.{}", format.extension()));
        assert_eq!(got.format(), format);
        if let (Model::Graal(a), Model::Graal(b)) = (&got, &original) {
            assert_eq!(a.version, b.version, "{label}: version changed");
        }
        assert!(
            level_of(&got) == want,
            "{label}: {}",
            first_difference(&format!("{:?}", level_of(&got)), &format!("{want:?}"))
        );
        eprintln!("{label}: NPC move, link destination and tile edit came back exactly");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
