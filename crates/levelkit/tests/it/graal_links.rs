//! Graal links whose destination is an expression (`playerx+25`, `playery-9`, `15.50`; issue 16):
//! every link of every level survives every conversion.
//!
//! * Every Graal level of `samples/` and of the corpus (binary and `.nw`) goes to `.nw`,
//!   `.graal`, `.tmx` and `.tmj` and back; the link lines are counted in each file written and
//!   the links that come back are the original ones, destination words byte for byte.
//! * The six levels of `graal/expression-links/` hold the forms, and their link objects are
//!   link rectangles with the words as string properties.
//! * Through Tiled's own TMX -> TMJ -> TMX saves (the oracle), the links stay links.

use crate::common;

use std::path::{Path, PathBuf};

use levelkit::Limits;
use levelkit::document::Model;
use levelkit::formats::graal::level::{CoordMeaning, Link, LinkCoord};
use levelkit::formats::graal::{binary as graal, nw};
use levelkit::registry::Format;
use levelkit::strings::RawString;
use levelkit::tiled::{TiledOptions, to_tmj, to_tmx};

/// Every Graal level: the bundled samples, then the corpus when `LEVELKIT_CORPUS` is set.
fn levels() -> Vec<(String, Vec<u8>)> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples")];
    match common::corpus("graal") {
        Some(c) => {
            let mut subs: Vec<PathBuf> = std::fs::read_dir(c)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_dir())
                .collect();
            subs.sort();
            dirs.extend(subs);
        }
        None => eprintln!("SKIP: LEVELKIT_CORPUS is not set; only samples/ links checked"),
    }
    let mut out = Vec::new();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.to_string_lossy().to_lowercase();
                n.ends_with(".graal") || n.ends_with(".zelda") || n.ends_with(".nw")
            })
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read(&f).unwrap()));
        }
    }
    out
}

fn read(bytes: &[u8], name: &str) -> Model {
    Model::read(bytes, Some(name), &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The links of a Graal model's meaning.
fn links(model: &Model) -> Vec<Link> {
    match model {
        Model::Graal(g) => g.to_level().0.links,
        Model::Nw(n) => n.to_level().0.links,
        other => panic!("not a Graal level: {:?}", other.format()),
    }
}

/// Link lines in a written file: the binary link section's lines, or `.nw`'s `LINK` lines.
fn link_lines(bytes: &[u8], format: Format) -> usize {
    match format {
        Format::GraalLevel => graal::read(bytes).unwrap().links.len(),
        Format::Nw => bytes
            .split(|&b| b == b'\n')
            .filter(|l| l.starts_with(b"LINK "))
            .count(),
        _ => unreachable!(),
    }
}

/// Link objects in a written map: `type="link"` (TMX) or `"type":"link"` (TMJ, any spacing).
fn link_objects(text: &str) -> usize {
    let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    squeezed.matches("type=\"link\"").count() + squeezed.matches("\"type\":\"link\"").count()
}

/// The model converted to `target`, its bytes, and no warning about links.
fn convert(model: &Model, target: Format, what: &str) -> (Model, Vec<u8>) {
    let (out, warnings) = model
        .convert_to(target)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    for w in &warnings {
        assert!(
            !w.to_string().to_lowercase().contains("link"),
            "{what}: a warning about links: {w}"
        );
    }
    let bytes = out.write().unwrap_or_else(|e| panic!("{what}: {e}"));
    (out, bytes)
}

fn assert_links(got: &[Link], want: &[Link], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: link count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what}: link {i}");
    }
}

#[test]
fn every_graal_level_keeps_every_link_in_every_conversion() {
    let levels = levels();
    let (mut checked, mut total_links, mut expressions) = (0, 0, 0);
    for (name, bytes) in &levels {
        let model = read(bytes, name);
        let format = model.format();
        let other = match format {
            Format::GraalLevel => Format::Nw,
            _ => Format::GraalLevel,
        };
        let want = links(&model);
        // Every link line of the file has a meaning (none is left out).
        assert_eq!(want.len(), link_lines(bytes, format), "{name}: link lines");
        total_links += want.len();
        expressions += want
            .iter()
            .flat_map(|l| [&l.dest_x, &l.dest_y])
            .filter(|c| c.number().is_none())
            .count();

        // To the other Graal format and back.
        let (_, there_bytes) = convert(&model, other, &format!("{name} -> {other:?}"));
        assert_eq!(
            link_lines(&there_bytes, other),
            want.len(),
            "{name}: {other:?} lines"
        );
        let there = read(&there_bytes, &format!("x.{}", ext(other)));
        assert_links(&links(&there), &want, &format!("{name} -> {other:?}"));
        let (back, back_bytes) = convert(&there, format, &format!("{name} -> {other:?} -> back"));
        assert_eq!(
            link_lines(&back_bytes, format),
            want.len(),
            "{name}: back lines"
        );
        assert_links(
            &links(&back),
            &want,
            &format!("{name} -> {other:?} -> back"),
        );

        // To Tiled (TMX and TMJ) and back to both Graal formats.
        let (map, _) = model.to_tilemap().unwrap();
        for (ext, bytes) in [
            ("tmx", to_tmx(&map, &TiledOptions::default()).unwrap()),
            ("tmj", to_tmj(&map, &TiledOptions::default()).unwrap()),
        ] {
            let text = String::from_utf8(bytes.clone()).unwrap();
            assert_eq!(
                link_objects(&text),
                want.len(),
                "{name}: {ext} link objects"
            );
            let m = read(&bytes, &format!("map.{ext}"));
            for target in [format, other] {
                let what = format!("{name} -> {ext} -> {target:?}");
                let (level, level_bytes) = convert(&m, target, &what);
                assert_eq!(link_lines(&level_bytes, target), want.len(), "{what}");
                assert_links(&links(&level), &want, &what);
                if target == format {
                    assert!(
                        level_bytes == *bytes_of(&levels, name),
                        "{what}: not byte-exact"
                    );
                }
            }
        }

        // JSON carries them exactly.
        let json = serde_json::to_string(&model).unwrap();
        let again: Model = serde_json::from_str(&json).unwrap();
        assert_links(&links(&again), &want, &format!("{name} -> json"));
        checked += 1;
    }
    eprintln!(
        "{checked} Graal levels, {total_links} links ({expressions} destination words that are \
         not plain numbers) kept through .nw, .graal, .tmx, .tmj and JSON"
    );
}

fn bytes_of<'a>(levels: &'a [(String, Vec<u8>)], name: &str) -> &'a Vec<u8> {
    &levels.iter().find(|(n, _)| n == name).unwrap().1
}

fn ext(f: Format) -> &'static str {
    match f {
        Format::Nw => "nw",
        _ => "graal",
    }
}

/// The six levels with expression links: the forms, their meanings, and the map objects.
#[test]
fn expression_link_levels_keep_their_words() {
    let Some(dir) = common::corpus_or_skip("graal/expression-links", "expression links") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 6);
    let mut words = std::collections::BTreeSet::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let g = graal::read(&bytes).unwrap();
        let (level, warnings) = g.to_level();
        assert!(
            warnings.iter().all(|w| !w.to_string().contains("link")),
            "{}: {warnings:?}",
            f.display()
        );
        assert_eq!(level.links.len(), g.links.len());
        // Each link line is the link written back, word for word.
        for (line, link) in g.links.iter().zip(&level.links) {
            assert_eq!(graal::link_line(link), *line);
            for c in [&link.dest_x, &link.dest_y] {
                assert!(c.meaning().is_some(), "{}: {c:?}", f.display());
                words.insert(c.0.display());
            }
        }
        // Tiled: link rectangles whose destinations are string properties, as written.
        let (map, _) = Model::Graal(g.clone()).to_tilemap().unwrap();
        let objects: Vec<_> = map
            .layers
            .iter()
            .filter_map(|l| match l {
                levelkit::tilemap::Layer::Objects(o) => Some(o.objects.iter()),
                _ => None,
            })
            .flatten()
            .filter(|o| o.class == "link")
            .collect();
        assert_eq!(objects.len(), level.links.len());
        for (o, l) in objects.iter().zip(&level.links) {
            assert!(matches!(o.shape, levelkit::tilemap::Shape::Rect { .. }));
            for (prop, c) in [("dest_x", &l.dest_x), ("dest_y", &l.dest_y)] {
                assert_eq!(o.properties.get_str(prop).unwrap(), Some(&*c.0.display()));
            }
        }
    }
    for w in [
        "playerx",
        "playery",
        "playerx+15",
        "playery-23",
        "playerx-2",
        "11.5",
    ] {
        assert!(words.contains(w), "{w} missing from {words:?}");
    }
    let c = |s: &str| LinkCoord::word(s.as_bytes()).unwrap().meaning();
    assert_eq!(c("playerx+15"), Some(CoordMeaning::PlayerX(15.0)));
    assert_eq!(c("playery-23"), Some(CoordMeaning::PlayerY(-23.0)));
}

/// A number spelled with a trailing zero (`15.50`) and a word with no numeric meaning keep their
/// spelling through every format; JSON holds the word as a string.
#[test]
fn odd_words_keep_their_spelling() {
    let mut g = graal::samples::graal();
    g.links
        .push(RawString::from("a b.graal 1 2 3 4 15.50 playery-9"));
    g.links
        .push(RawString::from("c.graal 1 2 3 4 playerx*2 .5"));
    let model = Model::Graal(g.clone());
    let want = links(&model);
    assert_eq!(want.len(), g.links.len());
    // Validation names the word without a numeric meaning, and nothing else about links.
    let found: Vec<String> = g.validate().iter().map(|w| w.to_string()).collect();
    let odd: Vec<&String> = found.iter().filter(|w| w.contains("playerx*2")).collect();
    assert_eq!(odd.len(), 1, "{found:?}");
    assert!(
        !found
            .iter()
            .any(|w| w.contains("15.50") || w.contains("playery-9"))
    );
    let (nw_model, nw_bytes) = convert(&model, Format::Nw, "to nw");
    assert_eq!(link_lines(&nw_bytes, Format::Nw), want.len());
    let text = String::from_utf8_lossy(&nw_bytes);
    assert!(
        text.contains("\nLINK a b.graal 1 2 3 4 15.50 playery-9\n"),
        "{text}"
    );
    assert!(
        text.contains("\nLINK c.graal 1 2 3 4 playerx*2 .5\n"),
        "{text}"
    );
    let (back, back_bytes) = convert(&nw_model, Format::GraalLevel, "back");
    assert_links(&links(&back), &want, "graal -> nw -> graal");
    assert_eq!(graal::read(&back_bytes).unwrap().links, g.links);
    let nw = nw::read(&nw_bytes).unwrap();
    let json = serde_json::to_string(&nw).unwrap();
    assert!(json.contains("\"dest_x\":\"15.50\""), "{json}");
    assert!(json.contains("\"dest_x\":\"playerx*2\""), "{json}");
}

/// `--graal-version`'s library side: a level from `.nw` is GR-V1.03 by default (GR-V1.05 with
/// several layers), and keeps its links in any version chosen.
#[test]
fn a_level_from_nw_gets_the_version_chosen() {
    let (layered, _) = nw::samples::village().to_level();
    assert!(layered.layers.len() > 1);
    let mut single = layered.clone();
    single.layers.truncate(1);
    for level in [single, layered] {
        let several = level.layers.len() > 1;
        let (default, _) = graal::from_level(&level);
        let want_default = if several {
            graal::Version::GrV105
        } else {
            graal::Version::GrV103
        };
        assert_eq!(default.version, want_default);
        for (version, _) in graal::Version::ALL {
            let (g, warnings) = graal::from_level_as(&level, Some(version));
            let expect = if several {
                graal::Version::GrV105
            } else {
                version
            };
            assert_eq!(g.version, expect);
            assert_eq!(g.links.len(), level.links.len(), "{version:?}");
            if !expect.has_npcs() && !level.npcs.is_empty() {
                assert!(warnings.iter().any(|w| w.to_string().contains("npcs")));
                assert!(g.npcs.is_empty());
            }
            let (again, _) = graal::with_version(&default, version);
            assert_eq!(again.version, expect);
            assert_eq!(again.links, default.links);
        }
    }
}

/// Tiled's own TMX -> TMJ -> TMX saves keep the expression links as link rectangles with
/// their words, and the level that comes back has the same links.
#[test]
fn tiled_saves_keep_expression_links() {
    let Some(script) = common::oracle("tiled_oracle.sh", &["tiled"], "Tiled link saves") else {
        return;
    };
    let Some(dir) = common::corpus_or_skip("graal/expression-links", "Tiled link saves") else {
        return;
    };
    let out = common::out_dir("levelkit-links", "tiled");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(f).unwrap();
        let model = read(&bytes, &name);
        let want = links(&model);
        let (map, _) = model.to_tilemap().unwrap();
        let stem = name.replace('.', "_");
        let tmx = out.join(format!("{stem}.tmx"));
        std::fs::write(&tmx, crate::tiled_roundtrip::export(&map, &out, &stem)).unwrap();
        let tmj = out.join(format!("{stem}_tiled.tmj"));
        common::tiled_convert(&script, &tmx, &tmj);
        let again = out.join(format!("{stem}_tiled.tmx"));
        common::tiled_convert(&script, &tmj, &again);
        for file in [&tmj, &again] {
            let text = std::fs::read_to_string(file).unwrap();
            assert_eq!(link_objects(&text), want.len(), "{}", file.display());
            for l in &want {
                for c in [&l.dest_x, &l.dest_y] {
                    let word = c.0.display();
                    assert!(
                        text.contains(&format!("\"{word}\"")),
                        "{}: {word}",
                        file.display()
                    );
                }
            }
            let m = read(
                text.as_bytes(),
                &file.file_name().unwrap().to_string_lossy(),
            );
            for target in [Format::GraalLevel, Format::Nw] {
                let what = format!("{} -> {target:?}", file.display());
                let (level, level_bytes) = convert(&m, target, &what);
                assert_eq!(link_lines(&level_bytes, target), want.len(), "{what}");
                assert_links(&links(&level), &want, &what);
            }
        }
        eprintln!(
            "{name}: {} links kept through Tiled's TMX -> TMJ -> TMX",
            want.len()
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
}
