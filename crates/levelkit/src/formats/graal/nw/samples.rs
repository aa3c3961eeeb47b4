//! Levels built from scratch by our own code, for the bundled `samples/`, tests, benchmarks and
//! fuzzing seeds. No game data is copied: the tile numbers, names, texts and scripts are ours,
//! generated from a fixed seed so every run gives the same bytes.

use super::model::*;
use crate::formats::wwd::samples::Rng;
use crate::strings::RawString;

fn lines(text: &str) -> Vec<RawString> {
    text.lines().map(RawString::from).collect()
}

fn row(x: i32, y: i32, layer: i32, tiles: Vec<u16>) -> Entry {
    Entry::new(Statement::Board(BoardRow {
        x,
        y,
        layer,
        tiles,
        excess: RawString::default(),
    }))
}

/// A village in the original editor's form: 64 full ground rows, a second layer of tree tops and
/// a roof as runs, three links (one to a level with a space in its name, one keeping the
/// player's x, one keeping y), two signs with `#` escapes and line breaks, two chests, two
/// baddies with verses and three NPCs with multi-line scripts. Validates without findings.
pub fn village() -> Nw {
    const GRASS: [u16; 4] = [0x7C0, 0x7C1, 0x7D0, 0x7D1];
    const PATH: u16 = 0x6E;
    const WATER: u16 = 0x3A2;
    const SHORE: u16 = 0x3A1;
    const WALL: u16 = 0x220;
    const DOOR: u16 = 0x225;
    let mut rng = Rng(0x6A7A_A1E0);
    let mut statements = Vec::new();
    for y in 0..64u16 {
        let tiles = (0..64u16)
            .map(|x| {
                let pond = (x as i32 - 48).pow(2) + (y as i32 - 44).pow(2);
                if (30..=32).contains(&x) || (y == 21 && x < 31) {
                    PATH
                } else if pond < 36 {
                    WATER
                } else if pond < 49 {
                    SHORE
                } else if (26..36).contains(&x) && (14..20).contains(&y) {
                    if y == 19 && x == 30 { DOOR } else { WALL }
                } else {
                    GRASS.get(rng.below(4) as usize).copied().unwrap_or(0x7C0)
                }
            })
            .collect();
        statements.push(row(0, i32::from(y), 0, tiles));
    }
    // Layer 1, row by row as the editors write it: the tops of a row of trees, and a roof over
    // the house.
    for y in [4, 5] {
        for x0 in [3, 9, 15] {
            statements.push(row(x0, y, 1, vec![0x590, 0x591, 0x592, 0x593]));
        }
    }
    for y in 10..14 {
        statements.push(row(25, y, 1, (0..12).map(|x| 0x2A0 + x as u16).collect()));
    }
    let link = |dest: &str, x, y, w, h, dx, dy| {
        Entry::new(Statement::Link(Link {
            dest: RawString::from(dest),
            x,
            y,
            width: w,
            height: h,
            dest_x: dx,
            dest_y: dy,
            layers: None,
        }))
    };
    statements.push(link(
        "brookside_house.nw",
        30,
        19,
        1,
        1,
        Coord::tiles(30.5),
        Coord::tiles(60.0),
    ));
    statements.push(link(
        "old mill.nw",
        0,
        0,
        64,
        1,
        Coord::player_x(),
        Coord::tiles(61.0),
    ));
    statements.push(link(
        "brookside_forest.nw",
        63,
        1,
        1,
        62,
        Coord::tiles(1.0),
        Coord::player_y(),
    ));
    statements.push(Entry::new(Statement::Sign(Sign {
        x: 28.0,
        y: 22.0,
        layer: None,
        lines: lines("Welcome to Brookside!\n\nPress #A to read on, #B to close."),
    })));
    statements.push(Entry::new(Statement::Sign(Sign {
        x: 33.0,
        y: 2.0,
        layer: None,
        lines: lines("#u Old Mill\n#r Forest #h\nMind the frogs: they're loud!"),
    })));
    statements.push(Entry::new(Statement::Chest(Chest {
        x: 12.0,
        y: 40.0,
        item: NameOrNumber::Name(RawString::from("bluerupee")),
        sign: 0,
        layer: None,
    })));
    statements.push(Entry::new(Statement::Chest(Chest {
        x: 50.0,
        y: 8.0,
        item: NameOrNumber::Name(RawString::from("bombs")),
        sign: -1,
        layer: None,
    })));
    statements.push(Entry::new(Statement::Baddy(Baddy {
        x: 40.0,
        y: 30.0,
        kind: NameOrNumber::Number(2),
        layer: None,
        verses: lines("Halt, stranger!\nOuch!\nTake this!"),
    })));
    statements.push(Entry::new(Statement::Baddy(Baddy {
        x: 44.0,
        y: 36.0,
        kind: NameOrNumber::Number(5),
        layer: None,
        verses: vec![
            RawString::from("Ribbit?"),
            RawString::default(),
            RawString::default(),
        ],
    })));
    statements.push(Entry::new(Statement::Npc(Npc {
        image: None,
        x: 30.0,
        y: 18.0,
        layer: None,
        script: lines(
            "// Plays the village tune\n\
             if (playerenters) {\n  play brookside.mid;\n  setbackpal brookside.png;\n}",
        ),
    })));
    statements.push(Entry::new(Statement::Npc(Npc {
        image: Some(RawString::from("villager.png")),
        x: 22.5,
        y: 30.0,
        layer: None,
        script: lines(
            "// Walks up and down the path\n\
             if (created || timeout) {\n  this.dir = (this.dir + 1) % 4;\n  \
             timeout = 1.5;\n}\n\
             if (playertouchsme) {\n  say2 Lovely#bweather today!;\n}",
        ),
    })));
    statements.push(Entry::new(Statement::Npc(Npc {
        image: Some(RawString::from("well.gif")),
        x: 18.25,
        y: 24.0,
        layer: None,
        script: lines(
            "if (playerchats && strequals(#c,wish)) {\n  \
             message The well is silent.;\n}",
        ),
    })));
    Nw {
        line_ending: LineEnding::Lf,
        final_newline: true,
        statements,
    }
}
