//! The pictures the Graal samples name, drawn here (never copied from a game): the NPC images of
//! `samples/island.graal` and `samples/village.nw`, and the player images `samples/walk.gani`
//! draws with (its `DEFAULT*` lines and the usual slot images). Simple flat shapes, enough to
//! show a figure walking and the NPCs standing where the level puts them.

/// An RGBA colour.
type Rgba = [u8; 4];

const CLEAR: Rgba = [0, 0, 0, 0];

/// A `width` x `height` picture, each pixel from `paint(x, y)`.
fn picture(width: u32, height: u32, paint: impl Fn(u32, u32) -> Rgba) -> image::RgbaImage {
    image::RgbaImage::from_fn(width, height, |x, y| image::Rgba(paint(x, y)))
}

/// Whether (x, y) is inside the ellipse centred at (cx, cy) with radii (rx, ry).
fn in_ellipse(x: u32, y: u32, cx: f32, cy: f32, rx: f32, ry: f32) -> bool {
    let (dx, dy) = ((x as f32 + 0.5 - cx) / rx, (y as f32 + 0.5 - cy) / ry);
    dx * dx + dy * dy <= 1.0
}

/// Whether (x, y) is inside the rectangle [x0, x1) x [y0, y1).
fn in_rect(x: u32, y: u32, x0: u32, y0: u32, x1: u32, y1: u32) -> bool {
    (x0..x1).contains(&x) && (y0..y1).contains(&y)
}

fn png(img: &image::RgbaImage) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    // The `image` crate's PNG encoder at its defaults: the same bytes on every machine.
    let _ = img.write_to(&mut out, image::ImageFormat::Png);
    out.into_inner()
}

fn gif(img: &image::RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = image::codecs::gif::GifEncoder::new(&mut out);
        // A few colours: the encoder keeps them exactly (no quantisation).
        let _ = enc.encode_frame(image::Frame::new(img.clone()));
    }
    out
}

/// A standing figure 32 x 48: head, tunic of `tunic`, legs, and what it holds (`extra`).
fn figure(tunic: Rgba, hair: Rgba, extra: impl Fn(u32, u32) -> Option<Rgba>) -> image::RgbaImage {
    const SKIN: Rgba = [236, 196, 150, 255];
    const LEGS: Rgba = [70, 60, 50, 255];
    picture(32, 48, |x, y| {
        if let Some(c) = extra(x, y) {
            return c;
        }
        if in_ellipse(x, y, 16.0, 9.0, 7.0, 4.0) && y < 9 {
            hair
        } else if in_ellipse(x, y, 16.0, 11.0, 7.0, 8.0) {
            if (y == 11) && (x == 13 || x == 18) {
                [30, 30, 30, 255]
            } else {
                SKIN
            }
        } else if in_rect(x, y, 9, 19, 23, 36) {
            tunic
        } else if in_rect(x, y, 11, 36, 15, 47) || in_rect(x, y, 17, 36, 21, 47) {
            LEGS
        } else {
            CLEAR
        }
    })
}

/// `samples/island.graal`'s guard: a figure in a blue tunic with a spear.
pub fn sample_guard_png() -> Vec<u8> {
    png(&figure([40, 70, 170, 255], [90, 60, 30, 255], |x, y| {
        (x == 27 && y >= 2).then_some([150, 150, 160, 255])
    }))
}

/// `samples/village.nw`'s villager: a figure in a green tunic.
pub fn villager_png() -> Vec<u8> {
    png(&figure([60, 140, 60, 255], [200, 170, 60, 255], |_, _| {
        None
    }))
}

/// `samples/village.nw`'s well, a GIF: a stone ring with water, under a small roof.
pub fn well_gif() -> Vec<u8> {
    gif(&picture(48, 48, |x, y| {
        if in_rect(x, y, 6, 0, 42, 8) {
            [150, 50, 40, 255]
        } else if (x == 9 || x == 38) && (8..24).contains(&y) {
            [110, 80, 50, 255]
        } else if in_ellipse(x, y, 24.0, 34.0, 14.0, 9.0) {
            [60, 110, 200, 255]
        } else if in_ellipse(x, y, 24.0, 34.0, 19.0, 13.0) {
            [140, 140, 135, 255]
        } else {
            CLEAR
        }
    }))
}

/// The NPC images the Graal level samples name, by file name.
pub fn npc_images() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("sample_guard.png", sample_guard_png()),
        ("villager.png", villager_png()),
        ("well.gif", well_gif()),
    ]
}

/// The images `samples/walk.gani` draws with, by file name, at the sizes its sprites cut:
/// `body.png` (four directions x three poses of 32 x 32), `head0.png` (four 32 x 32 heads, one
/// per direction), `hat0.png` (four 48 x 48 hats), `shield1.png` (four shields side by side),
/// `sprites.png` (the shadow), `dust.png` (the dust puff) and `apple.png` (the carried item).
pub fn walk_images() -> Vec<(&'static str, Vec<u8>)> {
    const TUNIC: Rgba = [180, 50, 40, 255];
    const SKIN: Rgba = [236, 196, 150, 255];
    const HAIR: Rgba = [90, 60, 30, 255];
    const LEGS: Rgba = [70, 60, 50, 255];
    let body = picture(128, 96, |x, y| {
        let (cx, cy) = (x % 32, y % 32);
        let pose = y / 32;
        let (left, right) = match pose {
            1 => (3, 0),
            2 => (0, 3),
            _ => (0, 0),
        };
        if in_rect(cx, cy, 9, 4, 23, 20) {
            TUNIC
        } else if in_rect(cx, cy, 11, 20, 15, 28 + left) || in_rect(cx, cy, 17, 20, 21, 28 + right)
        {
            LEGS
        } else {
            CLEAR
        }
    });
    let head = picture(32, 128, |x, y| {
        let direction = y / 32;
        let cy = y % 32;
        if !in_ellipse(x, cy, 16.0, 18.0, 10.0, 10.0) {
            return CLEAR;
        }
        let hair = match direction {
            0 => true,    // up: the back of the head
            1 => x > 18,  // left
            3 => x < 14,  // right
            _ => cy < 13, // down
        };
        if hair || cy < 11 {
            HAIR
        } else if direction == 2 && cy == 19 && (x == 12 || x == 20) {
            [30, 30, 30, 255]
        } else {
            SKIN
        }
    });
    let hat = picture(192, 48, |x, y| {
        let cx = x % 48;
        if in_rect(cx, y, 8, 30, 40, 34)
            || ((12..30).contains(&y) && cx.abs_diff(24) <= (y - 12) / 2)
        {
            [40, 120, 40, 255]
        } else {
            CLEAR
        }
    });
    let shield = picture(38, 20, |x, _| match x {
        0..6 => [120, 120, 130, 255],
        6..14 | 30..38 => [60, 60, 170, 255],
        _ => [50, 50, 190, 255],
    });
    let sprites = picture(32, 16, |x, y| {
        if in_ellipse(x, y, 12.0, 6.0, 12.0, 6.0) {
            [0, 0, 0, 96]
        } else {
            CLEAR
        }
    });
    let dust = picture(16, 8, |x, y| {
        if in_ellipse(x, y, 8.0, 4.0, 8.0, 4.0) {
            [200, 190, 170, 200]
        } else {
            CLEAR
        }
    });
    // The carried item (`DEFAULTPARAM1 apple.png`): a red apple with a leaf.
    let apple = picture(16, 16, |x, y| {
        if in_rect(x, y, 8, 1, 10, 4) {
            [50, 140, 40, 255]
        } else if in_ellipse(x, y, 8.0, 9.5, 6.5, 6.0) {
            [200, 30, 30, 255]
        } else {
            CLEAR
        }
    });
    vec![
        ("apple.png", png(&apple)),
        ("body.png", png(&body)),
        ("head0.png", png(&head)),
        ("hat0.png", png(&hat)),
        ("shield1.png", png(&shield)),
        ("sprites.png", png(&sprites)),
        ("dust.png", png(&dust)),
    ]
}
