//! The colours of generated tiles, markers and labels, and the hashed colours of attribute
//! values, fill colours, tile ids and object classes.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use super::image::Rgba;

/// Attribute clear (0): passable.
pub const CLEAR_COLOR: Rgba = [226, 230, 236, 255];
/// Attribute solid (1).
pub const SOLID_COLOR: Rgba = [64, 64, 64, 255];
/// Attribute ground (2): one-way platforms.
pub const GROUND_COLOR: Rgba = [150, 96, 40, 255];
/// Attribute climb (3).
pub const CLIMB_COLOR: Rgba = [40, 160, 64, 255];
/// Attribute death (4).
pub const DEATH_COLOR: Rgba = [214, 32, 32, 255];
/// Object markers.
pub const OBJECT_COLOR: Rgba = [255, 0, 255, 255];
/// Label pixels on light tiles.
pub const LABEL_DARK: Rgba = [0, 0, 0, 255];
/// Label pixels on dark tiles.
pub const LABEL_LIGHT: Rgba = [255, 255, 255, 255];

/// SplitMix64's finaliser: a fixed, well-mixed hash so colours never change between releases.
pub(super) fn mix(v: u64) -> u64 {
    let mut z = v.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hue (0..360), saturation and value (0..=255) to RGB.
pub(super) fn hsv(h: u32, s: u32, v: u32) -> Rgba {
    let h = h % 360;
    let c = v * s / 255;
    let x = c * (60 - (h % 120).abs_diff(60)) / 60;
    let m = v - c;
    let (r, g, b) = match h / 60 {
        0 => (c, x, 0),
        1 => (x, c, 0),
        2 => (0, c, x),
        3 => (0, x, c),
        4 => (x, 0, c),
        _ => (c, 0, x),
    };
    [(r + m) as u8, (g + m) as u8, (b + m) as u8, 255]
}

/// The colour of a WWD tile attribute value: the five standard ones have fixed colours, any other
/// (the games' user values, such as Gruntz's `0x0A`..) a saturated colour hashed from the value.
pub fn attribute_color(value: i64) -> Rgba {
    match value {
        0 => CLEAR_COLOR,
        1 => SOLID_COLOR,
        2 => GROUND_COLOR,
        3 => CLIMB_COLOR,
        4 => DEATH_COLOR,
        v => {
            let h = mix(v as u64);
            hsv(
                (h % 360) as u32,
                150 + ((h >> 16) % 80) as u32,
                190 + ((h >> 32) % 50) as u32,
            )
        }
    }
}

/// The colour painted for a fill tile's `fill_color` palette index.
///
/// The level's real palette (a `.PAL` inside the game's archives) is not known here, so indices
/// go through a fixed stand-in palette: 0..215 a 6 × 6 × 6 colour cube (`index = 36 r + 6 g + b`,
/// levels 0, 51, .. 255), 216..255 a grey ramp; other values wrap modulo 256.
pub fn fill_color(index: i64) -> Rgba {
    let i = index.rem_euclid(256) as u32;
    if i < 216 {
        let level = |n: u32| (n * 51) as u8;
        [level(i / 36), level(i / 6 % 6), level(i % 6), 255]
    } else {
        let g = (8 + (i - 216) * 6) as u8;
        [g, g, g, 255]
    }
}

/// A muted colour for a tile without attributes, from its local id.
pub(super) fn neutral_color(id: u32) -> Rgba {
    let h = mix(u64::from(id));
    hsv(
        (h % 360) as u32,
        40 + ((h >> 16) % 40) as u32,
        150 + ((h >> 32) % 50) as u32,
    )
}

pub(super) fn darker(c: Rgba) -> Rgba {
    let d = |v: u8| (u16::from(v) * 3 / 4) as u8;
    [d(c[0]), d(c[1]), d(c[2]), c[3]]
}

pub(super) fn label_color(under: Rgba) -> Rgba {
    let [r, g, b, a] = under.map(u32::from);
    let luma = (299 * r + 587 * g + 114 * b) / 1000;
    if a < 128 || luma >= 128 {
        LABEL_DARK
    } else {
        LABEL_LIGHT
    }
}

/// `#AARRGGBB` or `#RRGGBB`.
pub(super) fn parse_color(s: &str) -> Option<Rgba> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    let v = u32::from_str_radix(hex, 16).ok()?;
    let [a, r, g, b] = v.to_be_bytes();
    match hex.len() {
        8 => Some([r, g, b, a]),
        6 => Some([r, g, b, 255]),
        _ => None,
    }
}

/// The marker colour of an object class in a render with a legend: a saturated hue hashed from
/// the class name, so a class keeps its colour from render to render.
pub fn class_color(class: &str) -> Rgba {
    let h = class.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let m = mix(h);
    hsv((m % 360) as u32, 220, 255 - ((m >> 16) % 60) as u32)
}
