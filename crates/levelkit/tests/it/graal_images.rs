//! Graal levels as they look: `pics1.png` tiles placed by the atlas formula, and the images
//! NPCs name drawn where the level puts them (in renders, and as tile objects in Tiled maps
//! that still convert back exactly).

use std::path::Path;

use levelkit::codec::Codec as _;
use levelkit::document::game::{attach_sprites, graal_npc_art};
use levelkit::formats::graal::binary as graal;
use levelkit::picture::{self as preview, Image, RenderOptions};
use levelkit::tilemap::{Layer, TileMap};
use levelkit::{Format, Limits};

use crate::common;

fn decode(path: &Path) -> Image {
    let img = image::open(path).unwrap().to_rgba8();
    Image {
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
        columns: 0,
    }
}

fn pixel(img: &Image, x: u32, y: u32) -> [u8; 4] {
    img.pixel(x, y).unwrap()
}

fn avalon7() -> Option<(graal::Graal, TileMap, Image, std::path::PathBuf)> {
    let links = common::corpus_or_skip("graal/expression-links", "graal images")?;
    let images = common::corpus("graal/images")?;
    let bytes = std::fs::read(links.join("avalon7.graal")).unwrap();
    let level = <graal::Graal as levelkit::codec::Codec>::read(
        Format::GraalLevel,
        &bytes,
        &Limits::default(),
        &mut levelkit::codec::no_side_files,
    )
    .unwrap();
    let (map, _) = levelkit::codec::Codec::to_tilemap(&level).unwrap();
    let mut pics1 = decode(&images.join("pics1.png"));
    pics1.columns = pics1.width / 16;
    Some((level, map, pics1, images))
}

#[test]
fn avalon7_renders_its_tiles_by_the_atlas_formula_and_its_npc_images() {
    let Some((level, map, pics1, images)) = avalon7() else {
        return;
    };
    let (meaning, _) = level.to_level();
    let (npcs, warnings) = graal_npc_art(&map, &mut |name| std::fs::read(images.join(name)).ok());
    // Three of the level's NPCs show parts of pics1.png; smokeani.gif and waterani.gif are not
    // in the corpus.
    assert_eq!(npcs.len(), 4, "{warnings:?}");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("\"waterani.gif\""))
    );
    let mut options = RenderOptions {
        objects: false,
        sprites: npcs.clone(),
        ..RenderOptions::default()
    };
    options
        .tileset_images
        .insert(map.tilesets[0].name.clone(), pics1.clone());
    let ours = preview::render(&map, &options).unwrap();
    assert_eq!((ours.width, ours.height), (1024, 1024));

    // The reference: every cell of the ground board from pics1.png, at column
    // (i / 512) * 16 + i % 16, row (i / 16) % 32 (graal-notes.md), then each NPC image: the
    // whole of a pics1 NPC's `setgifpart pics1.png,x,y,w,h` at the NPC's tile position * 16.
    let mut reference = vec![[0u8; 4]; 1024 * 1024];
    let board = &meaning.layers[0];
    for cy in 0..64u32 {
        for cx in 0..64u32 {
            let i = u32::from(board.get(cx as usize, cy as usize).unwrap());
            let (col, row) = ((i / 512) * 16 + i % 16, (i / 16) % 32);
            for y in 0..16 {
                for x in 0..16 {
                    reference[((cy * 16 + y) * 1024 + cx * 16 + x) as usize] =
                        pixel(&pics1, col * 16 + x, row * 16 + y);
                }
            }
        }
    }
    let mut placed = 0;
    for n in &meaning.npcs {
        if n.image.to_editor_text() != "pics1.png" {
            continue;
        }
        let script = n.script.to_editor_text();
        let part = script.split("setgifpart pics1.png,").nth(1).unwrap();
        let nums: Vec<u32> = part
            .split([';', '\n'])
            .next()
            .unwrap()
            .split(',')
            .map(|v| v.trim().parse().unwrap())
            .collect();
        let (left, top) = ((n.x * 16.0) as u32, (n.y * 16.0) as u32);
        for y in 0..nums[3] {
            for x in 0..nums[2] {
                let p = pixel(&pics1, nums[0] + x, nums[1] + y);
                let at = ((top + y) * 1024 + left + x) as usize;
                if p[3] == 255 {
                    reference[at] = p;
                }
            }
        }
        placed += 1;
    }
    assert_eq!(placed, 4);
    let differing = ours
        .rgba
        .chunks_exact(4)
        .zip(&reference)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing, 0,
        "pixels that differ from the atlas-formula reference"
    );
}

#[test]
fn npc_images_go_to_tiled_as_tile_objects_and_come_back_exactly() {
    let Some((level, map, _, images)) = avalon7() else {
        return;
    };
    let (npcs, _) = graal_npc_art(&map, &mut |name| std::fs::read(images.join(name)).ok());
    let mut with = map.clone();
    let (index, pictures) = attach_sprites(&mut with, "sprites", &npcs).unwrap();
    // Three NPCs share one part of pics1.png: one picture each distinct part.
    assert_eq!(pictures.len(), 2);
    let tiles = (0u32..)
        .zip(&pictures)
        .map(|(id, p)| {
            (
                id,
                levelkit::tiled::TileImage {
                    path: format!("s/{id}.png"),
                    width: p.width,
                    height: p.height,
                },
            )
        })
        .collect();
    let mut options = levelkit::tiled::TiledOptions::default();
    options.tile_images.insert(index, tiles);
    let npc_objects = |m: &TileMap| {
        m.layers
            .iter()
            .filter_map(|l| match l {
                Layer::Objects(g) => Some(g.objects.iter().filter(|o| o.gid.is_some()).count()),
                Layer::Tiles(_) => None,
            })
            .sum::<usize>()
    };
    assert_eq!(npc_objects(&with), 4);
    for format in [Format::Tmx, Format::Tmj] {
        let bytes = if format == Format::Tmx {
            levelkit::tiled::to_tmx(&with, &options).unwrap()
        } else {
            levelkit::tiled::to_tmj(&with, &options).unwrap()
        };
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("s/1.png"), "{format:?} names the tile images");
        let doc = levelkit::document::TiledDoc::read(
            format,
            &bytes,
            &Limits::default(),
            &mut levelkit::codec::no_side_files,
        )
        .unwrap();
        assert!(
            doc.warnings
                .iter()
                .all(|w| !w.message.contains("own image")),
            "sprite tiles' images are no loss: {:?}",
            doc.warnings
        );
        let (back, _) = doc.to_level(Format::GraalLevel).unwrap();
        assert_eq!(
            back.write().unwrap(),
            levelkit::codec::Codec::write(&level).unwrap(),
            "{format:?}"
        );
    }
}
