//! External tilesets (issue 16 part 5): maps that reference a tileset file of their own
//! (`<tileset firstgid="1" source="….tsx"/>`, `{"firstgid":1,"source":"….tsj"}`) as a batch
//! writes them, read back through the resolver.
//!
//! * the samples and every corpus Graal and WWD level: map + tileset file -> the same map, the
//!   same level bytes (decompressed bytes for compressed WWD, as everywhere else);
//! * TMX with TSX, TMJ with TSJ, and each with the other's tileset form;
//! * a missing file, every prefix of a tileset file and garbage are errors, never panics;
//!   references are charged to the allocation budget;
//! * Tiled 1.8.2 (`tmxrasterizer`) draws a map with an external tileset exactly as the same map
//!   with the tileset embedded, with no message.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use levelkit::document::Model;
use levelkit::formats::graal::{binary as graal, nw};
use levelkit::formats::wwd;
use levelkit::picture as png;
use levelkit::registry::Format;
use levelkit::tiled::{TiledMap, from_tmj_with, from_tmx, from_tmx_with};
use levelkit::tiled::{TiledOptions, TilesetImage, to_tmj, to_tmx, to_tsj, to_tsx};
use levelkit::tilemap::TileMap;
use levelkit::{ErrorKind, Limits};

/// A map's files: the map and its tileset files by path relative to the map.
struct Files {
    map: Vec<u8>,
    side: BTreeMap<String, Vec<u8>>,
}

impl Files {
    fn resolver(&self) -> impl FnMut(&str) -> Option<Vec<u8>> + '_ {
        |name: &str| self.side.get(name).cloned()
    }
}

/// `map` with every tileset in `tilesets/<i>.<tileset_ext>` and its image `<i>.png` beside it.
fn external(map: &TileMap, tmj: bool, tileset_ext: &str) -> Files {
    let mut options = TiledOptions::default();
    let mut side = BTreeMap::new();
    for (i, ts) in map.tilesets.iter().enumerate() {
        let (columns, rows) = png::tileset_layout(ts);
        let image = TilesetImage {
            path: format!("{i}.png"),
            width: columns * ts.tile_width,
            height: rows * ts.tile_height,
            columns,
        };
        let bytes = if tileset_ext == "tsj" {
            to_tsj(ts, Some(&image)).unwrap()
        } else {
            to_tsx(ts, Some(&image)).unwrap()
        };
        let path = format!("tilesets/{i}.{tileset_ext}");
        side.insert(path.clone(), bytes);
        options.external_tilesets.insert(i, path);
    }
    let map = if tmj {
        to_tmj(map, &options).unwrap()
    } else {
        to_tmx(map, &options).unwrap()
    };
    Files { map, side }
}

fn read(files: &Files, tmj: bool) -> levelkit::Result<TiledMap> {
    let mut resolve = files.resolver();
    if tmj {
        from_tmj_with(&files.map, &mut resolve)
    } else {
        from_tmx_with(&files.map, &mut resolve)
    }
}

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

#[test]
fn external_tilesets_read_back_as_the_same_map() {
    for (name, map) in samples() {
        for (tmj, ext) in [(false, "tsx"), (true, "tsj"), (false, "tsj"), (true, "tsx")] {
            let files = external(&map, tmj, ext);
            let text = String::from_utf8_lossy(&files.map).into_owned();
            assert!(text.contains(&format!("tilesets/0.{ext}")), "{name}");
            assert!(
                !text.contains("tilecount"),
                "{name}: a tileset left in the map"
            );
            let read = read(&files, tmj).unwrap_or_else(|e| panic!("{name} {ext}: {e}"));
            assert_eq!(read.map, map, "{name} tmj={tmj} {ext}");
            assert!(read.warnings.is_empty(), "{name}: {:?}", read.warnings);
            assert_eq!(
                read.options.external_tilesets.len(),
                map.tilesets.len(),
                "{name}"
            );
            // The image path, relative to the tileset file, is made relative to the map.
            assert_eq!(
                read.options.tileset_images.get(&0).map(|i| i.path.as_str()),
                Some("tilesets/0.png"),
                "{name}"
            );
            // Writing the map again with what was read writes the same references.
            let again = if tmj {
                to_tmj(&read.map, &read.options).unwrap()
            } else {
                to_tmx(&read.map, &read.options).unwrap()
            };
            assert_eq!(again, files.map, "{name} tmj={tmj} {ext}");
        }
    }
}

#[test]
fn a_tileset_named_twice_is_read_once_and_charged_twice() {
    let map = graal::samples::graal().to_tilemap().0;
    let mut files = external(&map, false, "tsx");
    let mut reads = 0;
    let side = files.side.clone();
    let mut counting = |name: &str| {
        reads += 1;
        side.get(name).cloned()
    };
    let one = from_tmx_with(&files.map, &mut counting).unwrap();
    assert_eq!(reads, 1);
    assert_eq!(one.map, map);

    // A small map naming one big (whitespace-padded) file many times passes the budget.
    let tsx = files.side.get_mut("tilesets/0.tsx").unwrap();
    tsx.extend(std::iter::repeat_n(b' ', 1 << 20));
    let text = String::from_utf8(files.map.clone()).unwrap();
    let reference = "<tileset firstgid=\"1\" source=\"tilesets/0.tsx\"/>";
    assert!(text.contains(reference));
    let many: String = (0..600)
        .map(|i| {
            format!(
                "<tileset firstgid=\"{}\" source=\"tilesets/0.tsx\"/>",
                1 + i * 5000
            )
        })
        .collect();
    files.map = text.replace(reference, &many).into_bytes();
    let err = from_tmx_with(&files.map, &mut files.resolver()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
}

#[test]
fn missing_and_broken_tileset_files_are_errors() {
    let map = graal::samples::graal().to_tilemap().0;
    let files = external(&map, false, "tsx");
    // Not found: names the file; and the plain reader finds nothing.
    let err = from_tmx_with(&files.map, &mut |_: &str| None).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported);
    assert!(err.message.contains("tilesets/0.tsx"), "{err}");
    assert_eq!(
        from_tmx(&files.map).unwrap_err().kind,
        ErrorKind::Unsupported
    );

    for ext in ["tsx", "tsj"] {
        let files = external(&map, false, ext);
        let full = files.side.values().next().unwrap().clone();
        let body = full.trim_ascii_end().len();
        // Every prefix short of the whole text is an error naming the file, never a panic.
        for len in 0..body {
            let cut = Files {
                map: files.map.clone(),
                side: [("tilesets/0.".to_string() + ext, full[..len].to_vec())].into(),
            };
            let err = read(&cut, false)
                .err()
                .unwrap_or_else(|| panic!("{ext}: {len} of {body} bytes read as a tileset"));
            assert!(err.message.contains("tilesets/0."), "{ext} {len}: {err}");
        }
        // Garbage: bytes flipped anywhere; errors or maps, never a panic.
        let mut rng = common::Rng(0x7578_7473);
        for _ in 0..400 {
            let mut bytes = full.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next() as u8;
            }
            let garbage = Files {
                map: files.map.clone(),
                side: [("tilesets/0.".to_string() + ext, bytes)].into(),
            };
            let _ = read(&garbage, false);
        }
    }
    // A tileset file that names another, and one that is not a tileset.
    for text in [
        "<tileset firstgid=\"1\" source=\"other.tsx\"/>",
        "<map/>",
        "{\"source\":\"other.tsj\"}",
        "[1]",
    ] {
        let files = Files {
            map: files.map.clone(),
            side: [("tilesets/0.tsx".to_string(), text.as_bytes().to_vec())].into(),
        };
        assert!(read(&files, false).is_err(), "{text}");
    }
}

/// Every level: samples, then the corpus's Graal levels and good WWD levels.
fn levels() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = vec![
        (
            "claw_like.wwd".into(),
            wwd::samples::claw_like().write().unwrap(),
        ),
        (
            "graal.graal".into(),
            graal::samples::graal().write().unwrap(),
        ),
        ("village.nw".into(), nw::samples::village().write().unwrap()),
    ];
    let Some(root) = common::corpus_or_skip("", "external tilesets of the corpus levels") else {
        return out;
    };
    let mut dirs = vec![root.join("graal"), root.join("wwd")];
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let lower = path.to_string_lossy().to_lowercase();
            let level = [".wwd", ".graal", ".nw"].iter().any(|e| lower.ends_with(e));
            if level && !lower.contains("badsig") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 25, "the corpus has {} levels", files.len());
    for f in files {
        out.push((f.display().to_string(), std::fs::read(&f).unwrap()));
    }
    out
}

/// WWD levels compare decompressed (a 1998 zlib stream is not reproduced bit for bit).
fn plain(bytes: &[u8], format: Format) -> Vec<u8> {
    if format != Format::Wwd {
        return bytes.to_vec();
    }
    wwd::Wwd::read(bytes)
        .unwrap()
        .write_with(&wwd::WriteOptions {
            compress: Some(false),
            relayout: false,
        })
        .unwrap()
}

#[test]
fn every_level_comes_back_through_an_external_tileset() {
    let limits = Limits::default();
    let mut count = 0;
    for (name, bytes) in levels() {
        let level = Model::read(&bytes, Some(&name), &limits).unwrap();
        let format = level.format();
        let (map, _) = level.to_tilemap().unwrap();
        for (tmj, ext, map_name) in [(false, "tsx", "m.tmx"), (true, "tsj", "m.tmj")] {
            let files = external(&map, tmj, ext);
            let doc = Model::read_with(&files.map, Some(map_name), &limits, &mut files.resolver())
                .unwrap_or_else(|e| panic!("{name} {map_name}: {e}"));
            let (back, _) = doc
                .convert_to(format)
                .unwrap_or_else(|e| panic!("{name} {map_name}: {e}"));
            assert_eq!(
                plain(&back.write().unwrap(), format),
                plain(&bytes, format),
                "{name} through {map_name} + {ext}"
            );
        }
        count += 1;
    }
    eprintln!("{count} levels came back through external tilesets");
}

// ---------------------------------------------------------------------------------------------
// Tiled itself

fn oracle() -> Option<PathBuf> {
    common::oracle(
        "tiled_oracle.sh",
        &["tiled", "tmxrasterizer"],
        "Tiled's rendering of external tilesets",
    )
}

fn rasterize(script: &Path, map: &Path) -> Vec<u8> {
    let out = map.with_extension("render.png");
    let run = Command::new(script)
        .arg("render")
        .arg(map)
        .arg(&out)
        .arg("--no-smoothing")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{}: {stderr}", map.display());
    assert!(stderr.trim().is_empty(), "{}: {stderr}", map.display());
    let decoder = ::png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
}

#[test]
fn tiled_draws_external_tilesets_as_embedded_ones() {
    let Some(script) = oracle() else { return };
    let dir = common::out_dir("levelkit-tsx", "render");
    std::fs::create_dir_all(dir.join("tilesets")).unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for (name, map) in samples() {
        // Embedded, image beside the map.
        let mut embedded = TiledOptions::default();
        let mut external = TiledOptions::default();
        for (i, ts) in map.tilesets.iter().enumerate() {
            let image = png::tileset_image(ts).unwrap();
            let png_name = format!("{name}.{i}.png");
            std::fs::write(
                dir.join("tilesets").join(&png_name),
                png::encode_png(&image).unwrap(),
            )
            .unwrap();
            let entry = |path: String| TilesetImage {
                path,
                width: image.width,
                height: image.height,
                columns: image.columns,
            };
            embedded
                .tileset_images
                .insert(i, entry(format!("../tilesets/{png_name}")));
            let tsx = format!("{name}.{i}.tsx");
            std::fs::write(
                dir.join("tilesets").join(&tsx),
                to_tsx(ts, Some(&entry(png_name.clone()))).unwrap(),
            )
            .unwrap();
            external
                .external_tilesets
                .insert(i, format!("../tilesets/{tsx}"));
        }
        let a = dir.join("sub").join(format!("{name}.embedded.tmx"));
        let b = dir.join("sub").join(format!("{name}.external.tmx"));
        std::fs::write(&a, to_tmx(&map, &embedded).unwrap()).unwrap();
        std::fs::write(&b, to_tmx(&map, &external).unwrap()).unwrap();
        let (ra, rb) = (rasterize(&script, &a), rasterize(&script, &b));
        assert!(!ra.is_empty());
        assert!(
            ra == rb,
            "{name}: Tiled draws the external tileset differently"
        );
    }
}
