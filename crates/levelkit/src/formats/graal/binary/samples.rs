//! A level built from scratch by our own code, for the bundled `samples/`, tests, benchmarks and
//! fuzzing seeds. The same meaning is written as `.graal` and as `.nw`.

use super::level::from_level;
use super::model::Graal;
use crate::formats::graal::level::*;
use crate::strings::RawString;

/// A small island level: water, sand, a house of walls, paths; links (one with a space in its
/// name, one keeping the player's x), signs with special glyphs and line breaks, chests, baddies
/// with verses and NPCs with multi-line scripts. Tile indices are atlas positions of the classic
/// `pics1.png` layout, chosen for variety, not copied from any level.
pub fn level() -> Level {
    let mut board = Board::filled(0, 0x1F0); // water
    let mut set = |x: usize, y: usize, t: u16| {
        if let Some(cell) = board.tiles.get_mut(y * BOARD_SIZE + x) {
            *cell = t;
        }
    };
    for y in 6..58 {
        for x in 6..58 {
            let edge = x == 6 || y == 6 || x == 57 || y == 57;
            let t = if edge {
                0x230
            } else {
                0x002 + ((x * 7 + y * 3) % 4) as u16
            };
            set(x, y, t);
        }
    }
    for y in 20..30 {
        for x in 24..40 {
            let wall = y == 20 || x == 24 || x == 39;
            set(x, y, if wall { 0x100 + (x % 2) as u16 } else { 0x0A0 });
        }
    }
    for x in 0..64 {
        set(x, 40, 0x1A1);
        set(x, 41, 0x1A2);
    }
    let text = |s: &str| sign_text::from_text(s).0;
    Level {
        layers: vec![board],
        links: vec![
            Link {
                dest: RawString::from("sample north.nw"),
                x: 0,
                y: 0,
                width: 64,
                height: 1,
                dest_x: LinkCoord::player_x(),
                dest_y: LinkCoord::tiles(61.0),
                layers: None,
            },
            Link {
                dest: RawString::from("sample_house.nw"),
                x: 31,
                y: 29,
                width: 2,
                height: 1,
                dest_x: LinkCoord::tiles(30.5),
                dest_y: LinkCoord::tiles(12.0),
                layers: None,
            },
        ],
        baddies: vec![
            Baddy {
                x: 12.0,
                y: 45.0,
                kind: 1,
                verses: vec!["Halt!".into(), "Ouch".into(), "Take this".into()],
                layer: None,
            },
            Baddy {
                x: 50.0,
                y: 15.0,
                kind: 5,
                verses: vec!["".into(), "".into(), "".into()],
                layer: None,
            },
        ],
        npcs: vec![
            Npc {
                x: 30.0,
                y: 32.0,
                image: RawString::from("sample_guard.png"),
                script: RawString::from(
                    "// NPC made by levelkit\nif (playertouchsme) {\n  say 0;\n}",
                ),
                layer: None,
            },
            Npc {
                x: 2.0,
                y: 2.0,
                image: RawString::default(),
                script: RawString::from("if (created) {\n  hide;\n}"),
                layer: None,
            },
        ],
        chests: vec![
            Chest {
                x: 26.0,
                y: 22.0,
                item: 2,
                sign: 1,
                layer: None,
            },
            Chest {
                x: 36.0,
                y: 22.0,
                item: 24,
                sign: -1,
                layer: None,
            },
        ],
        signs: vec![
            Sign {
                x: 32.0,
                y: 31.0,
                glyphs: text("Welcome to the island!\nPress #A to read #h signs."),
                layer: None,
            },
            Sign {
                x: 0.0,
                y: 0.0,
                glyphs: text("You found 50 gralats (#4)."),
                layer: None,
            },
        ],
    }
}

/// [`level`] as a `GR-V1.03` binary level.
pub fn graal() -> Graal {
    from_level(&level()).0
}
