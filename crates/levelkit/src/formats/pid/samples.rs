//! Images and palettes built from scratch by our own code, for tests, benchmarks, fuzzing seeds
//! and the bundled samples. No game data is copied: the palette is a colour cube, the sprite a
//! shape drawn here.

use super::model::{GRUNTZ_KEY, Pid, PidFlags};
use super::pal::Palette;

/// A 256-colour palette: entry 0 is the transparent pink both games key out
/// ([`GRUNTZ_KEY`]), entries 1 to 216 a 6 × 6 × 6 colour cube, 217 to 255 a grey ramp.
pub fn palette() -> Palette {
    Palette::from_fn(|i| match i {
        0 => GRUNTZ_KEY,
        1..=216 => {
            let c = i - 1;
            let level = |v: u8| v * 51;
            [level(c / 36), level(c / 6 % 6), level(c % 6)]
        }
        _ => {
            let g = (u16::from(i - 217) * 255 / 38) as u8;
            [g, g, g]
        }
    })
}

/// The index of the cube colour nearest `(r, g, b)` in [`palette`] (each 0..=5).
pub fn cube(r: u8, g: u8, b: u8) -> u8 {
    1 + r.min(5) * 36 + g.min(5) * 6 + b.min(5)
}

/// The pixels of a 24 × 20 gem: transparent (0) outside, an outlined, shaded diamond inside.
fn gem_pixels(width: u32, height: u32) -> Vec<u8> {
    let (w, h) = (i64::from(width), i64::from(height));
    let (cx, cy) = (w / 2, h / 2);
    let mut px = Vec::with_capacity((width * height) as usize);
    for y in 0..h {
        for x in 0..w {
            let d = (x - cx).abs() * h + (y - cy).abs() * w;
            let edge = w * h / 2;
            px.push(if d > edge {
                0
            } else if d > edge - h.max(w) * 2 {
                cube(0, 0, 1)
            } else if y < cy {
                cube(2, 5, 5)
            } else {
                cube(0, 3, 4)
            });
        }
    }
    px
}

/// A Claw-style sprite: a 24 × 20 gem with its hotspot at the bottom centre (`-12, -20`),
/// transparent around it, skip grammar (flags `TRANSPARENCY | COMPRESSION`), no palette of its
/// own (drawn with the level's; [`palette`] fits it).
pub fn sprite() -> Pid {
    let mut pid = Pid::new(24, 20, gem_pixels(24, 20));
    pid.flags = PidFlags::TRANSPARENCY | PidFlags::COMPRESSION;
    pid.offset_x = -12;
    pid.offset_y = -20;
    pid
}

/// A Gruntz-style image with its own palette: the gem in the `0xC0` grammar with [`palette`]
/// embedded (flags `TRANSPARENCY | EMBEDDED_PALETTE`, `0x81`), hotspot `2, 3`.
pub fn sprite_with_palette() -> Pid {
    let mut pid = Pid::new(24, 20, gem_pixels(24, 20));
    pid.flags = PidFlags::TRANSPARENCY;
    pid.set_palette(Some(palette()));
    pid.offset_x = 2;
    pid.offset_y = 3;
    pid
}

/// A generated `width × height` image for benchmarks and sweeps: horizontal runs of random
/// lengths and colours, a third of them transparent, from a xorshift seeded with `seed`;
/// `skips` chooses the skip grammar, else the `0xC0` runs with [`palette`] embedded.
pub fn generate(seed: u64, width: u32, height: u32, skips: bool) -> Pid {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let total = (width as usize) * (height as usize);
    let mut px = Vec::with_capacity(total);
    while px.len() < total {
        let r = next();
        let run = 1 + (r % 24) as usize;
        let color = if r >> 8 & 3 == 0 { 0 } else { (r >> 16) as u8 };
        for _ in 0..run.min(total - px.len()) {
            px.push(color);
        }
    }
    let mut pid = Pid::new(width, height, px);
    if skips {
        pid.flags = PidFlags::TRANSPARENCY | PidFlags::COMPRESSION;
    } else {
        pid.flags = PidFlags::TRANSPARENCY;
        pid.set_palette(Some(palette()));
    }
    pid
}
