//! PNG previews and generated tileset images, checked by decoding the PNG bytes back with the
//! `png` crate and looking at concrete pixels.
//!
//! Set `LEVELKIT_PREVIEW_DIR` to a folder to also write a preview of every sample there.
use std::collections::BTreeMap;
use std::num::NonZeroU32;

use levelkit::formats::graal::binary as graal;
use levelkit::formats::wwd;
use levelkit::picture::{
    self as preview, CLEAR_COLOR, CLIMB_COLOR, GROUND_COLOR, Image, LABEL_LIGHT, OBJECT_COLOR,
    RenderOptions, Rgba, SOLID_COLOR, Scale, TRANSPARENT,
};
use levelkit::tilemap::{Layer, Shape, TileMap, Tileset};
use levelkit::{ErrorKind, Format};

/// Decode PNG bytes to (width, height, RGBA).
fn decode(bytes: &[u8]) -> Image {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Image {
        width: info.width,
        height: info.height,
        rgba: buf,
        columns: 0,
    }
}

/// Encode and decode again: every pixel assertion below goes through real PNG bytes.
fn through_png(image: &Image) -> Image {
    let decoded = decode(&preview::encode_png(image).unwrap());
    assert_eq!((decoded.width, decoded.height), (image.width, image.height));
    assert_eq!(decoded.rgba, image.rgba, "PNG round trip changed pixels");
    Image {
        columns: image.columns,
        ..decoded
    }
}

fn px(image: &Image, x: u32, y: u32) -> Rgba {
    image
        .pixel(x, y)
        .unwrap_or_else(|| panic!("({x}, {y}) outside {}x{}", image.width, image.height))
}

fn claw() -> TileMap {
    wwd::samples::claw_like().to_tilemap().0
}

fn tileset<'a>(map: &'a TileMap, name: &str) -> &'a Tileset {
    map.tilesets
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tileset {name}"))
}

/// Pixel (x, y) of local tile `id` in a generated tileset image.
fn tile_px(image: &Image, ts: &Tileset, id: u32, x: u32, y: u32) -> Rgba {
    let (col, row) = (id % image.columns, id / image.columns);
    px(image, col * ts.tile_width + x, row * ts.tile_height + y)
}

fn no_objects() -> RenderOptions {
    RenderOptions {
        objects: false,
        ..RenderOptions::default()
    }
}

/// The visible tile layers' gids at cell (x, y), bottom to top.
fn stack(map: &TileMap, x: u32, y: u32) -> Vec<u32> {
    map.layers
        .iter()
        .filter_map(|l| match l {
            Layer::Tiles(t) if t.visible => t.get(x, y).filter(|&g| g != 0),
            _ => None,
        })
        .collect()
}

#[test]
fn claw_tileset_colours_attributes() {
    let map = claw();
    let ts = tileset(&map, "Action/ACTION");
    assert_eq!(ts.tile_count, 19);
    let image = through_png(&preview::tileset_image(ts).unwrap());
    // ceil(sqrt(19)) = 5 columns, 4 rows of 64-px tiles.
    assert_eq!(image.columns, 5);
    assert_eq!((image.width, image.height), (5 * 64, 4 * 64));

    // Single tiles: 0 clear, 1..11 solid, 16 and 17 climb.
    assert_eq!(tile_px(&image, ts, 0, 40, 40), CLEAR_COLOR);
    assert_eq!(tile_px(&image, ts, 1, 40, 40), SOLID_COLOR);
    assert_eq!(tile_px(&image, ts, 11, 63, 63), SOLID_COLOR);
    assert_eq!(tile_px(&image, ts, 16, 40, 40), CLIMB_COLOR);

    // Double 12: clear outside, solid inside (0, 12)-(63, 63) inclusive.
    assert_eq!(tile_px(&image, ts, 12, 0, 12), SOLID_COLOR);
    assert_eq!(tile_px(&image, ts, 12, 63, 63), SOLID_COLOR);
    assert_eq!(tile_px(&image, ts, 12, 0, 11), CLEAR_COLOR);
    // Double 13: ground inside (0, 0)-(63, 15).
    assert_eq!(tile_px(&image, ts, 13, 0, 0), GROUND_COLOR);
    assert_eq!(tile_px(&image, ts, 13, 63, 15), GROUND_COLOR);
    assert_eq!(tile_px(&image, ts, 13, 63, 16), CLEAR_COLOR);
    // Double 15: solid outside, clear inside (0, 0)-(40, 63): column 40 is still inside.
    assert_eq!(tile_px(&image, ts, 15, 40, 30), CLEAR_COLOR);
    assert_eq!(tile_px(&image, ts, 15, 41, 30), SOLID_COLOR);

    // Mask 18: rows 0..31 are 0 (clear), rows 32.. are 1 (solid).
    assert_eq!(tile_px(&image, ts, 18, 63, 31), CLEAR_COLOR);
    assert_eq!(tile_px(&image, ts, 18, 63, 32), SOLID_COLOR);

    // Label of tile 1 on a dark tile: glyph scale 2 on 64-px tiles, drawn from (2, 2). The top row
    // of "1" is .X. so (4, 2) is set and (2, 2) is not; the bottom row XXX covers (2, 10).
    assert_eq!(tile_px(&image, ts, 1, 4, 2), LABEL_LIGHT);
    assert_eq!(tile_px(&image, ts, 1, 2, 2), SOLID_COLOR);
    assert_eq!(tile_px(&image, ts, 1, 2, 10), LABEL_LIGHT);
    // "18": the 8's top row is XXX, at x = 2 + 4 * 2 = 10; black on the light upper half.
    assert_eq!(tile_px(&image, ts, 18, 10, 2), preview::LABEL_DARK);
}

#[test]
fn fill_tileset_is_the_fill_colour_unlabelled() {
    let map = claw();
    let ts = tileset(&map, "fill");
    let image = through_png(&preview::tileset_image(ts).unwrap());
    // Plane 0 of the sample has fill colour 74 = 36 * 2 + 0 * 6 + 2 in the stand-in colour cube.
    assert_eq!(preview::fill_color(74), [102, 0, 102, 255]);
    for (x, y) in [(0, 0), (3, 3), (4, 2), (63, 63)] {
        assert_eq!(tile_px(&image, ts, 0, x, y), [102, 0, 102, 255]);
    }
    // Plane 1 has no fill colour set: index 0, black.
    assert_eq!(tile_px(&image, ts, 1, 10, 10), [0, 0, 0, 255]);
}

#[test]
fn gruntz_user_attributes_get_stable_distinct_colours() {
    let map = wwd::samples::gruntz_like().to_tilemap().0;
    let ts = tileset(&map, "Action/ACTION");
    let image = through_png(&preview::tileset_image(ts).unwrap());
    let user: Vec<Rgba> = (10..14).map(|id| tile_px(&image, ts, id, 30, 30)).collect();
    for (k, c) in user.iter().enumerate() {
        assert_eq!(*c, preview::attribute_color(0x0A + k as i64));
        for standard in [
            CLEAR_COLOR,
            SOLID_COLOR,
            GROUND_COLOR,
            CLIMB_COLOR,
            TRANSPARENT,
        ] {
            assert_ne!(*c, standard);
        }
    }
    let mut distinct = user.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "{user:?}");
    // The hash is fixed: these are the colours of every release.
    assert_eq!(
        preview::attribute_color(0x0A),
        preview::attribute_color(0x0A)
    );
}

#[test]
fn graal_atlas_is_a_neutral_grid_with_ids() {
    let map = graal::samples::graal().to_tilemap().0;
    let ts = map.tilesets.first().unwrap();
    let image = through_png(&preview::tileset_image(ts).unwrap());
    assert_eq!(image.columns, 64);
    assert_eq!((image.width, image.height), (1024, 1024));
    // Grid line on the top and left edges of every tile, darker than the inside.
    let inside = tile_px(&image, ts, 4095, 15, 15);
    let edge = tile_px(&image, ts, 4095, 0, 15);
    assert_eq!(inside[3], 255);
    assert!(edge[0] <= inside[0] && edge[1] <= inside[1] && edge[2] <= inside[2]);
    assert_ne!(edge, inside);
    // "4095" fits a 16-px tile at glyph scale 1, from (1, 1): the 4's top row is X.X, the 5's
    // bottom row XXX ends at x = 1 + 3 * 4 + 2 = 15, the last pixel of the tile.
    let label = |x, y| tile_px(&image, ts, 4095, x, y);
    assert_ne!(label(1, 1), inside);
    assert_eq!(label(2, 1), inside);
    assert_ne!(label(15, 5), inside);
    // Neighbouring ids get different colours.
    assert_ne!(
        tile_px(&image, ts, 0, 15, 15),
        tile_px(&image, ts, 1, 15, 15)
    );
}

#[test]
fn claw_render_pixels() {
    let map = claw();
    let image = through_png(&preview::render(&map, &no_objects()).unwrap());
    assert_eq!((image.width, image.height), (96 * 64, 32 * 64));

    // A cell no visible layer draws is transparent (centre and corner).
    let (ex, ey) = (0..map.height)
        .flat_map(|y| (0..map.width).map(move |x| (x, y)))
        .find(|&(x, y)| stack(&map, x, y).is_empty())
        .unwrap();
    assert_eq!(px(&image, ex * 64 + 32, ey * 64 + 32), TRANSPARENT);
    assert_eq!(px(&image, ex * 64, ey * 64), TRANSPARENT);

    // A background fill cell that nothing covers has the fill colour in every pixel.
    let fill = tileset(&map, "fill").first_gid;
    let (fx, fy) = (0..8)
        .flat_map(|y| (0..8).map(move |x| (x, y)))
        .find(|&(x, y)| stack(&map, x, y) == [fill])
        .unwrap();
    for (x, y) in [(0, 0), (4, 2), (32, 32), (63, 63)] {
        assert_eq!(px(&image, fx * 64 + x, fy * 64 + y), [102, 0, 102, 255]);
    }

    // Below the ground row, the action plane draws tiles 1..8, all solid: dark grey away from the
    // label.
    let below = map.height - 1;
    let action = tileset(&map, "Action/ACTION").first_gid;
    let gid = *stack(&map, 50, below).last().unwrap();
    assert!((action + 1..action + 9).contains(&gid));
    assert_eq!(px(&image, 50 * 64 + 40, below * 64 + 40), SOLID_COLOR);

    // Ladders (climb tiles 16 and 17) are green.
    let ladder = (0..map.height)
        .find(|&y| {
            let top = *stack(&map, 3, y).last().unwrap_or(&0);
            top == action + 16 || top == action + 17
        })
        .unwrap();
    assert_eq!(px(&image, 3 * 64 + 40, ladder * 64 + 40), CLIMB_COLOR);
}

#[test]
fn objects_are_magenta_markers() {
    let map = claw();
    let image = preview::render(&map, &RenderOptions::default()).unwrap();
    let plain = preview::render(&map, &no_objects()).unwrap();
    let Some(Layer::Objects(group)) = map.layers.get(2) else {
        panic!("no action objects");
    };
    for o in group.objects.iter().take(20) {
        assert_eq!(o.shape, Shape::Point);
        let (x, y) = (o.x as u32, o.y as u32);
        // A 5 x 5 cross centred on the object's position.
        for (dx, dy) in [(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)] {
            assert_eq!(px(&image, x + dx, y + dy), OBJECT_COLOR);
            assert_eq!(px(&image, x - dx, y - dy), OBJECT_COLOR);
        }
        // Diagonals are not part of the cross.
        assert_eq!(px(&image, x + 1, y + 1), px(&plain, x + 1, y + 1));
    }

    // Graal links are rectangles: the first is 1024 x 16 px at (0, 0).
    let map = graal::samples::graal().to_tilemap().0;
    let image = preview::render(&map, &RenderOptions::default()).unwrap();
    assert_eq!((image.width, image.height), (1024, 1024));
    for (x, y) in [(0, 0), (1023, 0), (0, 15), (1023, 15), (500, 15)] {
        assert_eq!(px(&image, x, y), OBJECT_COLOR, "({x}, {y})");
    }
}

#[test]
fn downscaled_render_is_the_full_render_subsampled() {
    let map = claw();
    let full = preview::render(&map, &no_objects()).unwrap();
    let options = RenderOptions {
        scale: Scale::Divisor(NonZeroU32::new(3).unwrap()),
        ..no_objects()
    };
    let small = through_png(&preview::render(&map, &options).unwrap());
    assert_eq!((small.width, small.height), (2048, 683));
    for y in 0..small.height {
        for x in 0..small.width {
            assert_eq!(px(&small, x, y), px(&full, x * 3, y * 3), "({x}, {y})");
        }
    }

    // Fit picks the smallest divisor under the limit: 1/3 is 1.4 Mpx, 1/4 is 0.79 Mpx.
    let fit = RenderOptions {
        scale: Scale::Fit,
        max_pixels: 1_000_000,
        ..no_objects()
    };
    let image = preview::render(&map, &fit).unwrap();
    assert_eq!((image.width, image.height), (1536, 512));
    assert_eq!(px(&image, 100, 300), px(&full, 400, 1200));
}

#[test]
fn too_large_renders_are_refused_before_allocating() {
    // The size of Claw's real first level: 384 x 96 tiles of 64 px = 151 Mpx.
    let map = wwd::samples::claw_like_sized(384, 96, 8).to_tilemap().0;
    let err = preview::render(&map, &RenderOptions::default()).unwrap_err();
    assert_eq!(err.format, Format::Png);
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
    assert!(err.message.contains("24576 x 6144"), "{}", err.message);

    // A divisor that is still too large is refused too; 1/2 fits 64 Mpx.
    let half = |n| RenderOptions {
        scale: Scale::Divisor(NonZeroU32::new(n).unwrap()),
        max_pixels: 20_000_000,
        ..no_objects()
    };
    let err = preview::render(&map, &half(2)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
    let fit = RenderOptions {
        scale: Scale::Fit,
        ..no_objects()
    };
    let image = preview::render(&map, &fit).unwrap();
    assert_eq!((image.width, image.height), (12288, 3072));

    // A limit of 0 fits nothing.
    let none = RenderOptions {
        scale: Scale::Fit,
        max_pixels: 0,
        ..no_objects()
    };
    assert_eq!(
        preview::render(&map, &none).unwrap_err().kind,
        ErrorKind::LimitExceeded
    );

    // A hostile tileset asking for gigapixels is refused as well.
    let mut ts = tileset(&map, "fill").clone();
    ts.tile_count = 100_000;
    ts.tile_width = 4096;
    let err = preview::tileset_image(&ts).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
}

#[test]
fn renders_and_pngs_are_deterministic() {
    for map in [
        claw(),
        wwd::samples::gruntz_like().to_tilemap().0,
        graal::samples::graal().to_tilemap().0,
    ] {
        let options = RenderOptions {
            scale: Scale::Divisor(NonZeroU32::new(2).unwrap()),
            ..RenderOptions::default()
        };
        let a = preview::encode_png(&preview::render(&map, &options).unwrap()).unwrap();
        let b = preview::encode_png(&preview::render(&map, &options).unwrap()).unwrap();
        assert!(a.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(a, b);
        for ts in &map.tilesets {
            let a = preview::encode_png(&preview::tileset_image(ts).unwrap()).unwrap();
            let b = preview::encode_png(&preview::tileset_image(ts).unwrap()).unwrap();
            assert_eq!(a, b, "{}", ts.name);
        }
    }
}

#[test]
fn supplied_tileset_images_replace_generated_tiles() {
    let map = wwd::samples::gruntz_like().to_tilemap().0;
    let ts = tileset(&map, "Action/ACTION");
    // Two columns of 32-px tiles; tile k is a flat colour (k, 200, 100).
    let (columns, rows) = (2u32, ts.tile_count.div_ceil(2));
    let (w, h) = (columns * 32, rows * 32);
    let mut rgba = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let k = (y / 32) * columns + x / 32;
            rgba.extend_from_slice(&[k as u8, 200, 100, 255]);
        }
    }
    let mut images = BTreeMap::new();
    images.insert(
        ts.name.clone(),
        Image {
            width: w,
            height: h,
            rgba,
            columns,
        },
    );
    let options = RenderOptions {
        tileset_images: images,
        ..no_objects()
    };
    let image = preview::render(&map, &options).unwrap();
    // The border of the action plane is tile 1.
    assert_eq!(stack(&map, 0, 0).last(), Some(&(ts.first_gid + 1)));
    assert_eq!(px(&image, 5, 5), [1, 200, 100, 255]);
    for (cx, cy) in [(7, 9), (20, 20), (33, 4)] {
        let gid = *stack(&map, cx, cy).last().unwrap();
        let k = gid - ts.first_gid;
        assert_eq!(
            px(&image, cx * 32 + 2, cy * 32 + 2),
            [k as u8, 200, 100, 255]
        );
    }
}

#[test]
fn encode_png_checks_the_buffer() {
    let bad = Image {
        width: 2,
        height: 2,
        rgba: vec![0; 15],
        columns: 0,
    };
    assert_eq!(
        preview::encode_png(&bad).unwrap_err().kind,
        ErrorKind::Malformed
    );
    let empty = Image {
        width: 0,
        height: 5,
        rgba: Vec::new(),
        columns: 0,
    };
    assert_eq!(
        preview::encode_png(&empty).unwrap_err().kind,
        ErrorKind::Unsupported
    );
    let one = Image {
        width: 1,
        height: 1,
        rgba: vec![1, 2, 3, 4],
        columns: 0,
    };
    assert_eq!(through_png(&one).rgba, [1, 2, 3, 4]);
}

/// Writes previews for a human to look at when `LEVELKIT_PREVIEW_DIR` is set.
#[test]
fn write_previews() {
    let Some(dir) = std::env::var_os("LEVELKIT_PREVIEW_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let maps = [
        ("claw", claw()),
        ("gruntz", wwd::samples::gruntz_like().to_tilemap().0),
        ("graal", graal::samples::graal().to_tilemap().0),
    ];
    for (name, map) in &maps {
        let image = preview::render(map, &RenderOptions::default()).unwrap();
        let bytes = preview::encode_png(&image).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), bytes).unwrap();
        let small = RenderOptions {
            scale: Scale::Divisor(NonZeroU32::new(4).unwrap()),
            ..RenderOptions::default()
        };
        let bytes = preview::encode_png(&preview::render(map, &small).unwrap()).unwrap();
        std::fs::write(dir.join(format!("{name}-quarter.png")), bytes).unwrap();
        for (i, ts) in map.tilesets.iter().enumerate() {
            let bytes = preview::encode_png(&preview::tileset_image(ts).unwrap()).unwrap();
            std::fs::write(dir.join(format!("{name}-tileset{i}.png")), bytes).unwrap();
        }
    }
}
