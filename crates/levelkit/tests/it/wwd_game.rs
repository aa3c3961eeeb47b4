//! Levels with their game's graphics (`--game`): every tile and object image path a level names
//! resolves in a REZ archive built, by rules written out here independently of the library's,
//! from generated PIDs at exactly those paths; the sprites land where OpenClaw puts them.

use std::collections::{BTreeMap, BTreeSet};

use levelkit::document::game::wwd_art;
use levelkit::formats::pid::{Palette, Pid, PidFlags};
use levelkit::formats::rez::{Builder, RezIndex};
use levelkit::formats::wwd::{self, DrawFlags, Wwd, graphics};

use crate::common::corpus;

/// A `\`-path of a level as a `/`-path.
fn slash(p: &str) -> String {
    p.split(['\\', '/'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// A generated image: `w × h`, index 0 round the edge (transparent), `colour` inside, hotspot
/// `(dx, dy)`, with `palette` embedded when given.
fn pid(w: u32, h: u32, colour: u8, (dx, dy): (i32, i32), palette: Option<&Palette>) -> Vec<u8> {
    let mut px = vec![colour; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                px[(y * w + x) as usize] = 0;
            }
        }
    }
    let mut p = Pid::new(w, h, px);
    p.flags |= PidFlags::TRANSPARENCY;
    p.offset_x = dx;
    p.offset_y = dy;
    p.set_palette(palette.cloned());
    p.write().unwrap()
}

/// The files a level names, by the rules as the games apply them: tiles
/// `<image_dir>/<set>/<id:03>.PID`, the palette `pal_rez`, object images
/// `<dir of the prefix>/<words of the rest>/FRAME001.PID` (plus `FRAME<i:03>` for a frame index).
/// Image sets whose prefix the header does not map are returned apart.
fn named_files(level: &Wwd) -> (BTreeMap<String, Vec<u8>>, BTreeSet<String>) {
    let palette = Palette::from_fn(|i| [i, 255 - i, i / 2]);
    let embed = level.header.pal_rez.text.to_editor_text().is_empty();
    let embedded = embed.then_some(&palette);
    let mut files = BTreeMap::new();
    if !embed {
        files.insert(
            slash(&level.header.pal_rez.text.to_editor_text()),
            palette.write(),
        );
    }
    let tile_dir = slash(&level.header.image_dir.text.to_editor_text());
    for plane in &level.planes {
        let (tw, th) = (plane.tile_width as u32, plane.tile_height as u32);
        for &cell in &plane.tiles {
            if cell == u32::MAX || cell == 0xEEEE_EEEE {
                continue;
            }
            let (set, id) = ((cell >> 16) as usize, cell & 0xFFFF);
            let set = plane.image_sets[set].to_editor_text();
            files
                .entry(format!("{tile_dir}/{set}/{id:03}.PID"))
                .or_insert_with(|| pid(tw, th, (id % 200 + 10) as u8, (0, 0), embedded));
        }
    }
    let mut unmapped = BTreeSet::new();
    for plane in &level.planes {
        for o in &plane.objects {
            let set = o.image_set.to_editor_text();
            if set.is_empty() || o.draw_flags.contains(DrawFlags::NO_DRAW) {
                continue;
            }
            let (prefix, rest) = set.split_once('_').unwrap_or((&set, ""));
            let Some(slot) = level.header.prefixes.iter().position(|p| {
                !p.text.is_empty() && p.text.to_editor_text().eq_ignore_ascii_case(prefix)
            }) else {
                unmapped.insert(set.clone());
                continue;
            };
            let mut dir = slash(&level.header.image_sets[slot].text.to_editor_text());
            for word in rest.split('_').filter(|w| !w.is_empty()) {
                dir = format!("{dir}/{word}");
            }
            let mut frames = vec![1];
            if o.i > 0 {
                frames.push(o.i as u32);
            }
            for f in frames {
                files
                    .entry(format!("{dir}/FRAME{f:03}.PID"))
                    .or_insert_with(|| pid(20, 30, (f % 200 + 20) as u8, (3, -4), embedded));
            }
        }
    }
    (files, unmapped)
}

fn archive(files: &BTreeMap<String, Vec<u8>>) -> Vec<u8> {
    let mut b = Builder::new();
    for (path, bytes) in files {
        b.add(path, bytes.clone()).unwrap();
    }
    b.finish().unwrap().write().unwrap()
}

#[test]
fn corpus_levels_resolve_every_image_they_name() {
    let Some(dir) = corpus("wwd") else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("badsig") {
            continue;
        }
        let level = wwd::read(&std::fs::read(&path).unwrap()).unwrap();
        let (files, unmapped) = named_files(&level);
        let bytes = archive(&files);
        let index = RezIndex::read(&bytes).unwrap();
        let (g, _) = graphics::resolve(&level, &index);
        let r = &g.report;
        eprintln!(
            "{name}: {} files; tiles {}/{}, objects {}/{}, image sets {}/{}; unmapped: {:?}",
            files.len(),
            r.tiles_found,
            r.tiles_used,
            r.objects_found,
            r.objects_with_images,
            r.image_sets_found,
            r.image_sets,
            unmapped
        );
        assert!(r.tiles_used > 0, "{name}");
        assert_eq!(r.tiles_found, r.tiles_used, "{name}: {:?}", r.missing);
        let unmapped_objects = level
            .planes
            .iter()
            .flat_map(|p| &p.objects)
            .filter(|o| {
                !o.draw_flags.contains(DrawFlags::NO_DRAW)
                    && unmapped.contains(&o.image_set.to_editor_text())
            })
            .count();
        assert_eq!(
            r.objects_found + unmapped_objects,
            r.objects_with_images,
            "{name}: {:?}",
            r.missing
        );
        assert_eq!(r.image_sets_found + unmapped.len(), r.image_sets, "{name}");
        if r.palette_found.is_some() {
            assert_eq!(r.palette_found, Some(true), "{name}");
        }
        seen += 1;
    }
    assert_eq!(seen, 4);
}

#[test]
fn sprites_are_placed_as_openclaw_places_them() {
    let level = wwd::samples::claw_like();
    let (files, _) = named_files(&level);
    let bytes = archive(&files);
    let index = RezIndex::read(&bytes).unwrap();
    let (g, warnings) = graphics::resolve(&level, &index);
    assert!(g.report.objects_found > 0, "{:?} {warnings:?}", g.report);
    for s in &g.sprites {
        let o = &level.planes[s.plane].objects[s.object];
        // 20 x 30 images with offset (3, -4): left = x - 10 + 3, top = y - 15 - 4.
        assert_eq!(s.left, i64::from(o.x) - 10 + 3, "{}", s.path);
        assert_eq!(s.top, i64::from(o.y) - 15 - 4, "{}", s.path);
        // Index 0 round the edge is transparent, the inside opaque.
        assert_eq!(s.image.rgba[3], 0);
        let mid = ((15 * 20 + 10) * 4 + 3) as usize;
        assert_eq!(s.image.rgba[mid], 255);
    }
    // The tile map's objects get the sprites by id, and each tileset with tiles an atlas.
    let (map, _) = level.to_tilemap();
    let (art, _) = wwd_art(&level, &map, &index);
    assert_eq!(art.sprites.len(), g.sprites.len());
    assert!(!art.tileset_images.is_empty());
}

#[test]
fn missing_images_are_warnings_naming_the_path() {
    let level = wwd::samples::claw_like();
    let bytes = archive(&BTreeMap::new());
    let index = RezIndex::read(&bytes).unwrap();
    let (g, warnings) = graphics::resolve(&level, &index);
    assert_eq!(g.report.tiles_found, 0);
    assert!(g.sprites.is_empty());
    assert!(!warnings.is_empty());
    let tile_dir = slash(&level.header.image_dir.text.to_editor_text());
    assert!(
        warnings.iter().any(|w| w.message.contains(&tile_dir)),
        "{warnings:?}"
    );
}
