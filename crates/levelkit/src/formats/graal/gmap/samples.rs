//! Overworlds built from scratch by our own code, for the bundled `samples/`, tests, benchmarks
//! and fuzzing seeds: the gmap and its levels (`.nw`), generated from a fixed seed. No game
//! data is copied.

use super::model::*;
use crate::formats::graal::level::{BOARD_CELLS, BOARD_SIZE, Board, Level};
use crate::formats::graal::nw::{self, Nw};
use crate::formats::wwd::samples::Rng;

/// The name of the level at `(x, y)` of a generated world called `prefix`.
pub fn level_name(prefix: &str, x: u32, y: u32) -> String {
    format!("{prefix}_{x}_{y}.nw")
}

/// A `width` × `height` gmap naming a level at every cell (`<prefix>_<x>_<y>.nw`), quoted as
/// most generators write them, without `hole`s, in canonical form.
pub fn gmap(prefix: &str, width: u32, height: u32, holes: &[(u32, u32)]) -> Gmap {
    let names: Vec<Vec<String>> = (0..height)
        .map(|y| {
            (0..width)
                .map(|x| {
                    if holes.contains(&(x, y)) {
                        String::new()
                    } else {
                        level_name(prefix, x, y)
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<Vec<&str>> = names
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    let mut map = Gmap::new(width, height, &rows);
    for statement in &mut map.statements {
        if let Statement::Names(block) = statement {
            for cell in block.rows.iter_mut().flat_map(|r| &mut r.cells) {
                cell.quoted = !cell.name.is_empty();
            }
        }
    }
    map
}

/// A generated level for grid cell `(x, y)`: grass with a path crossing at the level's middle
/// (so neighbouring levels join up) and a pond whose place depends on the cell.
pub fn level(x: u32, y: u32) -> Level {
    const GRASS: [u16; 4] = [0x7C0, 0x7C1, 0x7D0, 0x7D1];
    const PATH: u16 = 0x6E;
    const WATER: u16 = 0x3A2;
    let mut rng = Rng(0x0A3D_0000 ^ u64::from(x) << 20 ^ u64::from(y) << 8 ^ 0x5A5A);
    let (px, py) = (8 + rng.below(40) as usize, 8 + rng.below(40) as usize);
    let mut tiles = Vec::with_capacity(BOARD_CELLS);
    for ty in 0..BOARD_SIZE {
        for tx in 0..BOARD_SIZE {
            let pond = tx.abs_diff(px).pow(2) + ty.abs_diff(py).pow(2) < 30;
            tiles.push(if tx == 31 || tx == 32 || ty == 31 || ty == 32 {
                PATH
            } else if pond {
                WATER
            } else {
                GRASS.get(rng.below(4) as usize).copied().unwrap_or(PATH)
            });
        }
    }
    Level {
        layers: vec![Board { layer: 0, tiles }],
        ..Level::default()
    }
}

/// A whole generated overworld: the gmap and each level's name and `.nw` model.
pub fn world(
    prefix: &str,
    width: u32,
    height: u32,
    holes: &[(u32, u32)],
) -> (Gmap, Vec<(String, Nw)>) {
    let map = gmap(prefix, width, height, holes);
    let mut levels = Vec::new();
    for cell in map.grid().cells {
        let (n, _) = nw::from_level(&level(cell.x, cell.y));
        levels.push((cell.name.display(), n));
    }
    (map, levels)
}
