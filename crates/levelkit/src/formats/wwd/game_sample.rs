//! The game files a sample level names, made by our own encoders: tiles, the level palette and
//! object images as PIDs at exactly the paths [`super::graphics`] looks them up at, packed into
//! a REZ archive by [`crate::formats::rez::Builder`]. It is the bundled `samples/claw.rez`, which
//! `samples/claw-like.wwd` draws with (`levelkit render samples/claw-like.wwd out.png --game
//! samples/claw.rez`). No game data is copied: every pixel is generated.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::graphics::game_path;
use super::model::{DrawFlags, Wwd};
use crate::error::Result;
use crate::formats::pid::{Palette, Pid, PidFlags};
use crate::formats::rez::Builder;

/// The sample palette: index 0 (transparent) black, then a 6 × 6 × 6 colour cube, then greys.
pub fn palette() -> Palette {
    Palette::from_fn(|i| match i {
        0 => [0, 0, 0],
        1..=216 => {
            let c = i - 1;
            [(c / 36) * 51, (c / 6 % 6) * 51, (c % 6) * 51]
        }
        _ => {
            let g = (i - 217).saturating_mul(6);
            [g, g, g]
        }
    })
}

/// The cube index of an RGB colour with components 0..=5.
fn cube(r: u8, g: u8, b: u8) -> u8 {
    1 + r.min(5) * 36 + g.min(5) * 6 + b.min(5)
}

/// A tile: a bevelled block whose colour comes from its id and set, with a diagonal grain.
fn tile(width: u32, height: u32, id: u32, set: usize) -> Pid {
    let hue = (id.wrapping_mul(7) as usize + set * 3) % 6;
    let base = [
        (hue % 3) as u8 + 1,
        ((hue + 1) % 3) as u8 + 1,
        ((hue + 2) % 3) as u8 + 1,
    ];
    let mut px = Vec::with_capacity((width * height) as usize);
    for y in 0..height {
        for x in 0..width {
            let edge = x == 0 || y == 0;
            let shadow = x + 1 == width || y + 1 == height;
            let grain = u8::from((x + y + id) % 8 < 2);
            let [r, g, b] = base;
            px.push(if edge {
                cube(r + 2, g + 2, b + 2)
            } else if shadow {
                cube(
                    r.saturating_sub(1),
                    g.saturating_sub(1),
                    b.saturating_sub(1),
                )
            } else {
                cube(r + grain, g + grain, b)
            });
        }
    }
    Pid::new(width, height, px)
}

/// An object image: a ring of `size` pixels in a colour from `seed`, transparent outside, with its
/// offset moving it up by a quarter of its size (as the games' standing sprites are).
fn sprite(size: u32, seed: u32) -> Pid {
    let c = [
        (seed % 5) as u8 + 1,
        (seed / 5 % 5) as u8,
        (seed / 25 % 5) as u8 + 1,
    ];
    let r = size as f64 / 2.0;
    let mut px = Vec::with_capacity((size * size) as usize);
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = (x as f64 + 0.5 - r, y as f64 + 0.5 - r);
            let d = (dx * dx + dy * dy).sqrt();
            px.push(if d > r {
                0
            } else if d > r - 2.0 {
                cube(0, 0, 0).saturating_add(216) // dark grey outline
            } else {
                cube(c[0], c[1], c[2])
            });
        }
    }
    let mut pid = Pid::new(size, size, px);
    pid.flags |= PidFlags::TRANSPARENCY;
    pid.offset_y = -(size as i32) / 4;
    pid
}

/// Every game file `level` names, by path: its palette, one PID per tile id a plane uses, and
/// for each object image set `FRAME001.PID` (and the object's frame `i` where it has one).
pub fn files_for(level: &Wwd) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    let pal = game_path(&level.header.pal_rez.text.to_editor_text());
    if !pal.is_empty() {
        files.insert(pal, palette().write());
    }
    let tile_dir = game_path(&level.header.image_dir.text.to_editor_text());
    for plane in &level.planes {
        let (tw, th) = (
            u32::try_from(plane.tile_width).unwrap_or(0).clamp(1, 512),
            u32::try_from(plane.tile_height).unwrap_or(0).clamp(1, 512),
        );
        for &cell in &plane.tiles {
            if cell == u32::MAX || cell == 0xEEEE_EEEE {
                continue;
            }
            let (set, id) = ((cell >> 16) as usize, cell & 0xFFFF);
            let Some(name) = plane.image_sets.get(set) else {
                continue;
            };
            let path = format!("{tile_dir}/{}/{id:03}.PID", name.to_editor_text());
            if let Entry::Vacant(slot) = files.entry(path) {
                slot.insert(tile(tw, th, id, set).write()?);
            }
        }
    }
    for (n, object) in level.planes.iter().flat_map(|p| &p.objects).enumerate() {
        let set = object.image_set.to_editor_text();
        if set.is_empty() || object.draw_flags.contains(DrawFlags::NO_DRAW) {
            continue;
        }
        let (prefix, rest) = set.split_once('_').unwrap_or((&set, ""));
        let Some(slot) = level.header.prefixes.iter().position(|p| {
            !p.text.is_empty() && p.text.to_editor_text().eq_ignore_ascii_case(prefix)
        }) else {
            continue;
        };
        let mut dir = level
            .header
            .image_sets
            .get(slot)
            .map(|s| game_path(&s.text.to_editor_text()))
            .unwrap_or_default();
        for word in rest.split('_').filter(|w| !w.is_empty()) {
            dir = format!("{dir}/{word}");
        }
        let mut frames = vec![1];
        if let Ok(i) = u32::try_from(object.i)
            && i > 1
        {
            frames.push(i);
        }
        for f in frames {
            let path = format!("{dir}/FRAME{f:03}.PID");
            if let Entry::Vacant(slot) = files.entry(path) {
                let seed = (n as u32).wrapping_mul(31).wrapping_add(f);
                slot.insert(sprite(24 + (seed % 4) * 8, seed).write()?);
            }
        }
    }
    Ok(files)
}

/// [`files_for`] packed into a REZ archive, as `levelkit pack` would pack the same folder.
pub fn rez_for(level: &Wwd) -> Result<Vec<u8>> {
    let mut builder = Builder::new();
    for (path, bytes) in files_for(level)? {
        builder.add(&path, bytes)?;
    }
    builder.finish()?.write()
}
