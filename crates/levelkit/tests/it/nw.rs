//! Graal `.nw` text levels.
//!
//! (a) One table of `(model, bytes)` cases drives both the read and the write tests; the bytes
//! are written out by hand from graal-notes §3, independently of the library's writer.
//! (b) Real files from `$LEVELKIT_CORPUS/graal` (skipped when the variable is unset).
//! (c) Truncation, garbage and mutation sweeps. (d) proptest round trips.

use crate::common;
use crate::common::Rng;

use std::path::{Path, PathBuf};

use levelkit::formats::graal::level::{
    self, BOARD_CELLS, Level, LinkCoord, TILE_TRANSPARENT, atlas_position, sign_text,
};
use levelkit::formats::graal::nw::{self, *};
use levelkit::strings::RawString;
use levelkit::{ErrorKind, Limits, Severity};
use proptest::collection::vec;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// (a) The case table.

fn raw(s: &str) -> RawString {
    RawString::from(s)
}

fn lines(ls: &[&str]) -> Vec<RawString> {
    ls.iter().map(|l| raw(l)).collect()
}

fn e(s: Statement) -> Entry {
    Entry::new(s)
}

fn spelled(s: Statement, source: &[u8]) -> Entry {
    Entry {
        statement: s,
        source: Some(RawString::from(source)),
    }
}

fn verbatim(s: &str) -> Entry {
    e(Statement::Verbatim(raw(s)))
}

fn nw(line_ending: LineEnding, final_newline: bool, statements: Vec<Entry>) -> Nw {
    Nw {
        line_ending,
        final_newline,
        statements,
    }
}

fn board(x: i32, y: i32, layer: i32, tiles: &[u16]) -> Statement {
    Statement::Board(BoardRow {
        x,
        y,
        layer,
        tiles: tiles.to_vec(),
        excess: RawString::default(),
    })
}

#[allow(clippy::too_many_arguments)]
fn link(
    dest: &str,
    x: i32,
    y: i32,
    w: i32,
    h: i32,
    dx: Coord,
    dy: Coord,
    layers: Option<(i32, i32)>,
) -> Statement {
    Statement::Link(Link {
        dest: raw(dest),
        x,
        y,
        width: w,
        height: h,
        dest_x: dx,
        dest_y: dy,
        layers: layers.map(|(dest_layer, layer)| LinkLayers { dest_layer, layer }),
    })
}

fn npc(image: Option<&str>, x: f64, y: f64, layer: Option<i32>, script: &[&str]) -> Statement {
    Statement::Npc(Npc {
        image: image.map(raw),
        x,
        y,
        layer,
        script: lines(script),
    })
}

fn chest(x: f64, y: f64, item: NameOrNumber, sign: i32, layer: Option<i32>) -> Statement {
    Statement::Chest(Chest {
        x,
        y,
        item,
        sign,
        layer,
    })
}

fn name(s: &str) -> NameOrNumber {
    NameOrNumber::Name(raw(s))
}

const EVERY_STATEMENT: &[u8] = b"GLEVNW01
BOARD 0 0 2 0 AAB/
BOARD 5 63 1 1 //
LINK castle.nw 31 44 2 1 27.5 49
LINK old mill.nw 0 0 64 1 playerx 61
LINK cave.nw 1 2 3 4 playerx playery 0 1
LINK dungeon 2 3 0 0 64 1 30 61
SIGN 0 0

       ---The Tower---
SIGNEND
SIGN 56 10 1
#h #4 ##
SIGNEND
NPC - 34 28
if (playerenters) {
  play x.mid;
}
NPCEND
NPC my door.png 30.25 21 2
NPCEND
NPC door 5 3 4
NPCEND
CHEST 20 24 greenrupee 0
CHEST 1 2 7 -1 3
BADDY 40 44 graysoldier
Halt!
Ouch!
Take this!
BADDYEND
BADDY 1 2 5 1
BADDYEND
TILESET pics1
TILESETIMAGE pics1.png
HEIGHTS
0,1,2
-1.5,0
HEIGHTSEND
; a comment-like line

UNKNOWN 1 2
";

fn case_every_statement() -> (Nw, Vec<u8>) {
    let model = nw(
        LineEnding::Lf,
        true,
        vec![
            e(board(0, 0, 0, &[0, 127])),
            e(board(5, 63, 1, &[4095])),
            e(link(
                "castle.nw",
                31,
                44,
                2,
                1,
                Coord::tiles(27.5),
                Coord::tiles(49.0),
                None,
            )),
            e(link(
                "old mill.nw",
                0,
                0,
                64,
                1,
                Coord::player_x(),
                Coord::tiles(61.0),
                None,
            )),
            e(link(
                "cave.nw",
                1,
                2,
                3,
                4,
                Coord::player_x(),
                Coord::player_y(),
                Some((0, 1)),
            )),
            // GServer's rule: no file extension before the last eight words, so no layers.
            e(link(
                "dungeon 2 3",
                0,
                0,
                64,
                1,
                Coord::tiles(30.0),
                Coord::tiles(61.0),
                None,
            )),
            e(Statement::Sign(Sign {
                x: 0.0,
                y: 0.0,
                layer: None,
                lines: lines(&["", "       ---The Tower---"]),
            })),
            e(Statement::Sign(Sign {
                x: 56.0,
                y: 10.0,
                layer: Some(1),
                lines: lines(&["#h #4 ##"]),
            })),
            e(npc(
                None,
                34.0,
                28.0,
                None,
                &["if (playerenters) {", "  play x.mid;", "}"],
            )),
            e(npc(Some("my door.png"), 30.25, 21.0, Some(2), &[])),
            // No file extension: GServer's spaced image name, not a layer.
            e(npc(Some("door 5"), 3.0, 4.0, None, &[])),
            e(chest(20.0, 24.0, name("greenrupee"), 0, None)),
            e(chest(1.0, 2.0, NameOrNumber::Number(7), -1, Some(3))),
            e(Statement::Baddy(Baddy {
                x: 40.0,
                y: 44.0,
                kind: name("graysoldier"),
                layer: None,
                verses: lines(&["Halt!", "Ouch!", "Take this!"]),
            })),
            e(Statement::Baddy(Baddy {
                x: 1.0,
                y: 2.0,
                kind: NameOrNumber::Number(5),
                layer: Some(1),
                verses: vec![],
            })),
            e(Statement::Tileset(Tileset { name: raw("pics1") })),
            e(Statement::TilesetImage(TilesetImage {
                file: raw("pics1.png"),
            })),
            e(Statement::Heights(Heights {
                rows: lines(&["0,1,2", "-1.5,0"]),
            })),
            verbatim("; a comment-like line"),
            verbatim(""),
            verbatim("UNKNOWN 1 2"),
        ],
    );
    (model, EVERY_STATEMENT.to_vec())
}

fn cases() -> Vec<(&'static str, Nw, Vec<u8>)> {
    let (every, every_bytes) = case_every_statement();
    vec![
        (
            "header only",
            nw(LineEnding::Lf, true, vec![]),
            b"GLEVNW01\n".to_vec(),
        ),
        (
            "no final line break",
            nw(LineEnding::Lf, false, vec![]),
            b"GLEVNW01".to_vec(),
        ),
        (
            "CRLF header, cut after its CR",
            nw(LineEnding::CrLf, false, vec![]),
            b"GLEVNW01\r".to_vec(),
        ),
        ("every statement", every, every_bytes),
        (
            "CRLF file with LF lines",
            nw(
                LineEnding::CrLf,
                true,
                vec![
                    e(chest(1.0, 2.0, name("bombs"), -1, None)),
                    spelled(
                        chest(3.0, 4.0, name("bombs"), -1, None),
                        b"CHEST 3 4 bombs -1\n",
                    ),
                    spelled(
                        npc(None, 1.0, 2.0, None, &["x"]),
                        b"NPC - 1 2\r\nx\nNPCEND\r\n",
                    ),
                    e(npc(None, 1.0, 2.0, None, &["x"])),
                ],
            ),
            b"GLEVNW01\r\nCHEST 1 2 bombs -1\r\nCHEST 3 4 bombs -1\nNPC - 1 2\r\nx\nNPCEND\r\n\
              NPC - 1 2\r\nx\r\nNPCEND\r\n"
                .to_vec(),
        ),
        (
            "spellings the editor would not write",
            nw(
                LineEnding::Lf,
                true,
                vec![
                    spelled(npc(None, 30.0, 5.0, None, &[]), b"NPC -  30.0 05\nNPCEND\n"),
                    spelled(
                        link(
                            "a.nw",
                            1,
                            2,
                            3,
                            4,
                            Coord::word(b"+5").unwrap(),
                            Coord::word(b".5").unwrap(),
                            None,
                        ),
                        b"LINK  a.nw 1 2 3 4 +5 .5 \n",
                    ),
                    spelled(
                        chest(1.0, 2.0, NameOrNumber::Number(3), 0, None),
                        b"CHEST 1 2 +3 -0\n",
                    ),
                    e(Statement::Heights(Heights {
                        rows: lines(&["1, 2.50"]),
                    })),
                ],
            ),
            b"GLEVNW01\nNPC -  30.0 05\nNPCEND\nLINK  a.nw 1 2 3 4 +5 .5 \nCHEST 1 2 +3 -0\n\
              HEIGHTS\n1, 2.50\nHEIGHTSEND\n"
                .to_vec(),
        ),
        (
            "known keywords that do not parse stay verbatim",
            nw(
                LineEnding::Lf,
                true,
                vec![
                    verbatim("BOARD 0 0 64 0 AB"),
                    verbatim("BOARD 0 0 1 0 A?"),
                    verbatim("BOARD 0 0 0 0 AA"),
                    verbatim("CHEST 1 2"),
                    verbatim("NPC - x 2"),
                    verbatim("say hi;"),
                    verbatim("NPCEND"),
                    verbatim("LINK a.nw 1 2 3 4 5"),
                    verbatim("SIGN 1 2 3 4"),
                    verbatim("BADDY 1 2"),
                    verbatim("HEIGHTS 5"),
                    verbatim("1,x"),
                    verbatim("HEIGHTSEND"),
                    verbatim("board 0 0 1 0 AA"),
                ],
            ),
            b"GLEVNW01\nBOARD 0 0 64 0 AB\nBOARD 0 0 1 0 A?\nBOARD 0 0 0 0 AA\nCHEST 1 2\n\
              NPC - x 2\nsay hi;\nNPCEND\nLINK a.nw 1 2 3 4 5\nSIGN 1 2 3 4\nBADDY 1 2\n\
              HEIGHTS 5\n1,x\nHEIGHTSEND\nboard 0 0 1 0 AA\n"
                .to_vec(),
        ),
        (
            "excess row data, Latin-1 bytes, no final line break",
            nw(
                LineEnding::Lf,
                false,
                vec![
                    e(Statement::Board(BoardRow {
                        x: 0,
                        y: 0,
                        layer: 0,
                        tiles: vec![0],
                        excess: raw("xyz"),
                    })),
                    e(Statement::Npc(Npc {
                        image: None,
                        x: 1.0,
                        y: 2.0,
                        layer: None,
                        script: vec![RawString(b"message \xa4 caf\xe9;".to_vec())],
                    })),
                ],
            ),
            b"GLEVNW01\nBOARD 0 0 1 0 AAxyz\nNPC - 1 2\nmessage \xa4 caf\xe9;\nNPCEND".to_vec(),
        ),
        (
            "CRLF file without a final line break after a blank line",
            nw(LineEnding::CrLf, false, vec![verbatim("a"), verbatim("")]),
            b"GLEVNW01\r\na\r\n\r".to_vec(),
        ),
    ]
}

#[test]
fn read_cases() {
    for (case, model, bytes) in cases() {
        let read = nw::read(&bytes).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(read, model, "{case}");
    }
}

#[test]
fn write_cases() {
    for (case, model, bytes) in cases() {
        let written = nw::write(&model).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&bytes),
            "{case}"
        );
        assert_eq!(written, bytes, "{case}");
    }
}

#[test]
fn json_keeps_every_case() {
    for (case, model, bytes) in cases() {
        let json = serde_json::to_string(&model).unwrap();
        let back: Nw = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(back, model, "{case}");
        assert_eq!(back.write().unwrap(), bytes, "{case}");
    }
    let (every, _) = case_every_statement();
    let json = serde_json::to_value(&every).unwrap();
    assert_eq!(json["line_ending"], "lf");
    assert_eq!(json["statements"][0]["board"]["tiles"][1], 127);
    assert_eq!(json["statements"][3]["link"]["dest_x"], "playerx");
    assert_eq!(json["statements"][2]["link"]["dest_x"], "27.5");
    assert_eq!(json["statements"][11]["chest"]["item"], "greenrupee");
    assert_eq!(json["statements"][12]["chest"]["item"], 7);
    assert_eq!(json["statements"][18]["verbatim"], "; a comment-like line");
}

#[test]
fn edited_values_are_written_canonically_and_the_rest_is_kept() {
    let (_, _, bytes) = cases().remove(5);
    let mut level = nw::read(&bytes).unwrap();
    assert_eq!(level.summary().respelled, 3);
    // Unchanged: byte for byte.
    assert_eq!(level.write().unwrap(), bytes);
    // An edited NPC is written canonically; the untouched link keeps its odd spelling.
    let Statement::Npc(npc) = &mut level.statements[0].statement else {
        panic!("not an NPC");
    };
    npc.x = 31.0;
    npc.script.push(raw("say hi;"));
    assert_eq!(
        level.write().unwrap(),
        b"GLEVNW01\nNPC - 31 5\nsay hi;\nNPCEND\nLINK  a.nw 1 2 3 4 +5 .5 \nCHEST 1 2 +3 -0\n\
          HEIGHTS\n1, 2.50\nHEIGHTSEND\n"
    );
    // A stale source (the JSON user edited `source` into nonsense) is ignored, not written.
    level.statements[1].source = Some(raw("LINK b.nw 1 2 3 4 5 6\n"));
    let out = level.write().unwrap();
    let needle = b"\nLINK a.nw 1 2 3 4 +5 .5\n";
    assert!(
        out.windows(needle.len()).any(|w| w == needle),
        "{}",
        String::from_utf8_lossy(&out)
    );
}

#[test]
fn hard_errors_name_the_line() {
    let err = nw::read(b"").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Truncated);
    assert_eq!(err.location.line_col, Some((1, 1)));

    let err = nw::read(b"GLEVNW02\nBOARD 0 0 1 0 AA\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Malformed);
    assert_eq!(err.location.line_col, Some((1, 1)));
    assert!(
        err.to_string()
            .starts_with("nw: the first line is \"GLEVNW02\""),
        "{err}"
    );

    let err = nw::read(b"GLEVNW01\nBOARD 0 0 1 0 AA\nSIGN 1 2\nHello\nNPCEND\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::Truncated);
    assert_eq!(err.location.line_col, Some((3, 1)));
    assert_eq!(err.location.path.as_deref(), Some("statements[1]"));
    assert!(err.to_string().contains("no SIGNEND line"), "{err}");

    // The limits hold: a file of many short lines under a tiny line budget.
    let many = [&b"GLEVNW01\n"[..], &b"\n".repeat(5000)].concat();
    let tight = Limits {
        max_count: 1000,
        ..Limits::strict()
    };
    let err = nw::read_with(&many, &tight).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded);
    assert!(nw::read_with(&many, &Limits::strict()).is_ok());
}

#[test]
fn the_link_rule() {
    let link_of = |line: &str| {
        let level = nw::read(format!("GLEVNW01\n{line}\n").as_bytes()).unwrap();
        match &level.statements[0].statement {
            Statement::Link(l) => l.clone(),
            other => panic!("{line}: {other:?}"),
        }
    };
    // n = 8: a space in the name (GServer), never layers.
    let l = link_of("LINK my level.nw 1 2 3 4 5 6");
    assert_eq!((l.dest.display().as_str(), l.layers), ("my level.nw", None));
    // n = 9, file-like word before the last eight: TilesEditor's layers.
    let l = link_of("LINK a.nw 0 0 64 1 30 61 2 1");
    assert_eq!(l.dest, raw("a.nw"));
    assert_eq!(
        l.layers,
        Some(LinkLayers {
            dest_layer: 2,
            layer: 1
        })
    );
    // n = 10, spaced name with layers.
    let l = link_of("LINK old mill.nw 0 0 64 1 playerx 61 0 1");
    assert_eq!(l.dest, raw("old mill.nw"));
    assert!(l.layers.is_some());
    // The last two words are not integers: GServer's rule.
    let l = link_of("LINK a.nw b 0 0 64 1 30 playery");
    assert_eq!((l.dest, l.layers), (raw("a.nw b"), None));
    // A name ending in a number: GServer's rule.
    let l = link_of("LINK level 1.5 2 3 0 0 64 1 30 61");
    assert_eq!((l.dest, l.x, l.layers), (raw("level 1.5 2 3"), 0, None));
    // The writer refuses a link its reader would take for the extension.
    let model = nw(
        LineEnding::Lf,
        true,
        vec![e(link(
            "a.nw 1 2",
            0,
            0,
            64,
            1,
            Coord::tiles(30.0),
            Coord::tiles(61.0),
            None,
        ))],
    );
    let err = model.write().unwrap_err();
    assert_eq!(err.location.path.as_deref(), Some("statements[0]"));
    assert!(
        err.to_string().contains("read back with other values"),
        "{err}"
    );
    assert!(
        model
            .validate()
            .iter()
            .any(|w| w.severity == Severity::Error)
    );
}

#[test]
fn the_writer_refuses_what_would_read_back_differently() {
    let refuse = |s: Statement, want: &str| {
        let model = nw(LineEnding::Lf, true, vec![verbatim("ok"), e(s)]);
        let err = model.write().unwrap_err();
        assert_eq!(err.kind, ErrorKind::Malformed);
        assert_eq!(err.location.path.as_deref(), Some("statements[1]"), "{err}");
        assert_eq!(err.location.line_col, Some((3, 1)), "{err}");
        assert!(err.to_string().contains(want), "{err}");
        let findings = model.validate();
        assert!(
            findings
                .iter()
                .any(|f| f.severity == Severity::Error && f.message.contains(want)),
            "{findings:?}"
        );
    };
    refuse(
        npc(None, 1.0, 2.0, None, &["NPCEND"]),
        "end the block early",
    );
    refuse(npc(Some("a\nb.png"), 1.0, 2.0, None, &[]), "single spaces");
    refuse(npc(Some(" a.png"), 1.0, 2.0, None, &[]), "single spaces");
    refuse(npc(Some("-"), 1.0, 2.0, None, &[]), "other values");
    refuse(npc(None, f64::NAN, 2.0, None, &[]), "not a finite number");
    refuse(board(0, 0, 0, &[4096]), "over 4095");
    refuse(board(0, 0, 0, &[]), "at least one tile");
    refuse(
        chest(1.0, 2.0, name("12"), 0, None),
        "read back as a number",
    );
    refuse(chest(1.0, 2.0, name("a b"), 0, None), "one word");
    refuse(Statement::Verbatim(raw("SIGN 1 2")), "no SIGNEND");
    refuse(
        Statement::Verbatim(raw("CHEST 1 2 bombs 0")),
        "CHEST statement",
    );
    refuse(Statement::Verbatim(raw("a\nb")), "line break");
    refuse(
        Statement::Sign(Sign {
            x: 0.0,
            y: 0.0,
            layer: None,
            lines: lines(&["ok\r"]),
        }),
        "other values",
    );
    // A blank last line needs its line break.
    let model = nw(LineEnding::Lf, false, vec![verbatim("a"), verbatim("")]);
    let err = model.write().unwrap_err();
    assert_eq!(err.location.path.as_deref(), Some("final_newline"));
    assert!(
        model
            .validate()
            .iter()
            .any(|f| f.severity == Severity::Error)
    );
}

#[test]
fn validate_reports_what_the_games_would_do() {
    let full_row = format!("BOARD 0 0 64 0 {}", "A".repeat(128));
    let text = [
        b"GLEVNW01\n".to_vec(),
        full_row.into_bytes(),
        b"
BOARD 60 1 5 0 AAAAAAAAAA
BOARD 0 0 2 0 AAAAxx
CHEST 1 2 umbrella 0
CHEST 1 2 30 5 1
BADDY 1 2 frog
a
b
c
d
BADDYEND
BADDY 1 2 12
BADDYEND
NPC - 1 2 3
NPCEND
SIGN 1 2 1
caf\xe9
SIGNEND
LINK a.nw 60 0 10 1 1 1
BOARD 0 0 64
HEIGHTS
1,2
HEIGHTSEND
"
        .to_vec(),
    ]
    .concat();
    let level = nw::read(&text).unwrap();
    let findings = level.validate();
    let at = |line: u32, needle: &str| {
        assert!(
            findings
                .iter()
                .any(|f| f.location.line_col == Some((line, 1))
                    && f.severity == Severity::Warning
                    && f.message.contains(needle)),
            "no finding at line {line} with {needle:?}: {findings:#?}"
        );
    };
    at(3, "not inside the 64 x 64 board");
    at(4, "2 characters after the row's 2 tiles");
    at(5, "\"umbrella\" is not a known item name");
    at(6, "the number 30, which is no item id");
    at(6, "ignores chests that carry a layer");
    at(6, "shows sign 5");
    at(7, "GServer needs a number");
    at(7, "4 verse lines");
    at(13, "type 12 is not one of the 10 types");
    at(15, "layer as part of its image name");
    at(17, "ignores signs that carry a layer");
    at(17, "no sign glyph");
    at(20, "not inside the board");
    at(21, "BOARD needs x y width layer data");
    at(22, "HEIGHTS grid has 1 rows");
    assert!(
        findings.iter().any(|f| f
            .message
            .contains("2 cells of layer 0 are covered by more than one")),
        "{findings:#?}"
    );
    assert!(findings.iter().all(|f| f.severity == Severity::Warning));
    assert_eq!(findings.len(), 16, "{findings:#?}");
}

#[test]
fn the_village_sample() {
    let village = samples::village();
    let bytes = village.write().unwrap();
    assert!(bytes.starts_with(b"GLEVNW01\nBOARD 0 0 64 0 "));
    let back = Nw::read(&bytes).unwrap();
    assert_eq!(back, village);
    assert!(back.validate().is_empty(), "{:#?}", back.validate());
    let summary = back.summary();
    assert_eq!(summary.board_rows, 64 + 4 + 6);
    assert_eq!(summary.layers, vec![0, 1]);
    assert_eq!(
        (
            summary.links,
            summary.signs,
            summary.chests,
            summary.baddies,
            summary.npcs
        ),
        (3, 2, 2, 2, 3)
    );
    assert_eq!((summary.respelled, summary.verbatim_lines), (0, 0));
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.contains("\nLINK old mill.nw 0 0 64 1 playerx 61\n"),
        "{text}"
    );
    assert!(text.contains("\nNPC villager.png 22.5 30\n"), "{text}");
    assert!(text.contains("\nBOARD 25 10 12 1 "), "{text}");
    // The village is exactly what the editor's form of its own level is.
    let (level, warnings) = village.to_level();
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(level.layers.len(), 2);
    assert_eq!(level.layers[1].get(3, 4), Some(0x590));
    assert_eq!(level.layers[1].get(0, 0), Some(TILE_TRANSPARENT));
    assert_eq!(
        sign_text::to_text(&level.signs[1].glyphs),
        "#u Old Mill\n#r Forest #h\nMind the frogs: they're loud!"
    );
    assert_eq!(level.baddies[0].kind, 2);
    assert_eq!(level.chests[0].item, 1);
    assert_eq!(level.links[1].dest_x, LinkCoord::player_x());
    let (again, warnings) = Nw::from_level(&level);
    assert!(warnings.is_empty(), "{warnings:#?}");
    assert_eq!(again, village);
}

#[test]
fn to_level_reports_what_it_leaves_out() {
    let level = nw::read(
        b"GLEVNW01\nBOARD 0 70 1 0 AA\nBOARD 0 1 1 0 AAx\nCHEST 1 2 umbrella 0\n\
          BADDY 1 2 ogre\nBADDYEND\nTILESET t\nHEIGHTS\nHEIGHTSEND\nCHEST 1\n\n\
          SIGN 1 2\ncaf\xe9\nSIGNEND\n",
    )
    .unwrap();
    let (graal, warnings) = level.to_level();
    let lines: Vec<_> = warnings
        .iter()
        .map(|w| w.location.line_col.unwrap().0)
        .collect();
    assert_eq!(lines, vec![2, 3, 4, 5, 7, 8, 10, 12], "{warnings:#?}");
    assert!(warnings[0].message.contains("GServer skips it"));
    assert!(warnings[2].message.contains("GServer drops it too"));
    assert!(warnings[6].message.contains("CHEST needs x y item"));
    assert!(warnings[7].message.contains("no sign glyph"));
    assert_eq!(graal.layers.len(), 1);
    assert_eq!(graal.chests.len(), 0);
    assert_eq!(graal.baddies.len(), 0);
    assert_eq!(sign_text::to_text(&graal.signs[0].glyphs), "caf");
}

#[test]
fn from_level_reports_what_it_cannot_write() {
    let mut level = Level::default();
    let mut upper = level::Board::filled(3, TILE_TRANSPARENT);
    upper.tiles[5] = 0x1234;
    level.layers = vec![upper, level::Board::filled(2, TILE_TRANSPARENT)];
    level.npcs.push(level::Npc {
        x: 1.0,
        y: 2.0,
        image: raw("-"),
        script: raw("a\nNPCEND\nb"),
        layer: None,
    });
    level.chests.push(level::Chest {
        x: 1.0,
        y: 2.0,
        item: 99,
        sign: -1,
        layer: None,
    });
    level.signs.push(level::Sign {
        x: 0.0,
        y: 0.0,
        glyphs: vec![sign_text::HEAD + 1, 200],
        layer: None,
    });
    let (nw, warnings) = Nw::from_level(&level);
    let messages: Vec<_> = warnings.iter().map(|w| w.message.as_str()).collect();
    let has = |needle: &str| {
        assert!(
            messages.iter().any(|m| m.contains(needle)),
            "{needle:?} not in {messages:#?}"
        )
    };
    has("not in strictly ascending order");
    has("no layer 0");
    has("above 4095; written as transparent");
    has("layer 2 has no tiles");
    has("cannot be spelled exactly");
    has("item 99 has no name");
    has("means no image");
    has("end the block early");
    // Layer 3's only tile is too large, so it has no tiles either.
    assert_eq!(warnings.len(), 9, "{messages:#?}");
    // 64 ground rows of tile 0, no rows for the upper layers, the sign and the chest.
    assert_eq!(nw.summary().board_rows, 64);
    assert_eq!((nw.summary().signs, nw.summary().chests), (1, 1));
    assert_eq!(nw.summary().npcs, 0);
}

// ---------------------------------------------------------------------------------------------
// (b) Real files.

fn nw_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(nw_files(&path));
        } else if path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("nw"))
        {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Counted by hand in the files: (name, board rows, links, signs, npcs, chests, baddies).
const KNOWN: [(&str, usize, usize, usize, usize, usize, usize); 4] = [
    ("castlewarp.nw", 64, 2, 1, 4, 0, 0),
    ("test.nw", 64, 0, 0, 0, 0, 0),
    ("onlinestartlocal.nw", 64, 0, 0, 0, 3, 0),
    ("onlinestartlocal2.nw", 64, 0, 2, 7, 8, 0),
];

fn load(dir: &Path, name: &str) -> Vec<u8> {
    let path = std::fs::read_dir(dir)
        .unwrap()
        .map(|sub| sub.unwrap().path().join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} not in the corpus"));
    std::fs::read(path).unwrap()
}

#[test]
fn real_files_read_validate_and_round_trip() {
    let Some(dir) = common::corpus_or_skip("graal", "the real .nw files") else {
        return;
    };
    let files = nw_files(&dir);
    assert!(files.len() >= KNOWN.len(), "{files:?}");
    let mut known = 0;
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let level = Nw::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let findings = level.validate();
        assert!(
            findings.iter().all(|f| f.severity != Severity::Error),
            "{name}: {findings:#?}"
        );
        assert_eq!(level.write().unwrap(), bytes, "{name}: not byte for byte");
        let s = level.summary();
        assert_eq!(s.line_ending, "lf", "{name}");
        assert!(s.final_newline, "{name}");
        // Every real file is in the editor's canonical spelling.
        assert_eq!((s.respelled, s.verbatim_lines), (0, 0), "{name}");
        if let Some(k) = KNOWN.iter().find(|k| k.0 == name) {
            known += 1;
            assert_eq!(
                (s.board_rows, s.links, s.signs, s.npcs, s.chests, s.baddies),
                (k.1, k.2, k.3, k.4, k.5, k.6),
                "{name}"
            );
            assert_eq!(s.layers, vec![0], "{name}");
        }
        // Level round trip: from_level(to_level(x)) -> to_level is the identity, and since the
        // real files are in the editor's form, from_level gives back their very bytes.
        let (graal, warnings) = level.to_level();
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        let (again, warnings) = Nw::from_level(&graal);
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        assert_eq!(again.to_level(), (graal, vec![]), "{name}");
        assert_eq!(again.write().unwrap(), bytes, "{name}: editor form");
    }
    assert_eq!(known, KNOWN.len());
}

#[test]
fn real_files_have_the_content_read_by_hand() {
    let Some(dir) = common::corpus_or_skip("graal", "the real .nw files") else {
        return;
    };
    // castlewarp.nw
    let (graal, warnings) = Nw::read(&load(&dir, "castlewarp.nw")).unwrap().to_level();
    assert!(warnings.is_empty());
    assert_eq!(
        (
            graal.links.len(),
            graal.npcs.len(),
            graal.signs.len(),
            graal.layers.len()
        ),
        (2, 4, 1, 1)
    );
    let l = &graal.links[0];
    assert_eq!(l.dest, raw("fbathroom.graal"));
    assert_eq!((l.x, l.y, l.width, l.height), (31, 44, 2, 1));
    assert_eq!(
        (&l.dest_x, &l.dest_y),
        (&LinkCoord::tiles(27.5), &LinkCoord::tiles(49.0))
    );
    assert_eq!(graal.links[1].dest, raw("staff1.graal"));
    assert_eq!(
        sign_text::to_text(&graal.signs[0].glyphs),
        "\n       ---The Admin Tower---"
    );
    assert_eq!(graal.signs[0].glyphs[0], sign_text::NEWLINE);
    assert_eq!(graal.npcs[0].image, raw(""));
    assert_eq!((graal.npcs[0].x, graal.npcs[0].y), (34.0, 28.0));
    assert!(
        graal.npcs[0]
            .script
            .display()
            .starts_with("// NPC made by <yourname>\nif (playerenters) {\n  play dragonia.mid;")
    );
    assert_eq!(graal.npcs[2].image, raw("servernpc.gif"));
    assert_eq!(graal.layers[0].get(0, 0), Some(9 * 64 + 56)); // "J4"

    // test.nw: every tile of the 128 x 32 atlas once, laid out as two 64 x 32 halves.
    let (graal, warnings) = Nw::read(&load(&dir, "test.nw")).unwrap().to_level();
    assert!(warnings.is_empty());
    assert_eq!(
        (graal.links.len(), graal.npcs.len(), graal.layers.len()),
        (0, 0, 1)
    );
    let ground = &graal.layers[0];
    assert_eq!(ground.tiles.len(), BOARD_CELLS);
    let mut seen = vec![false; 4096];
    for y in 0..64 {
        for x in 0..64 {
            let tile = ground.get(x, y).unwrap();
            seen[usize::from(tile)] = true;
            let want = ((x + 64 * (y / 32)) as u16, (y % 32) as u16);
            assert_eq!(atlas_position(tile), want, "({x}, {y})");
        }
    }
    assert!(seen.iter().all(|&s| s));

    // onlinestartlocal2.nw: signs with escapes, chests by name.
    let (graal, warnings) = Nw::read(&load(&dir, "onlinestartlocal2.nw"))
        .unwrap()
        .to_level();
    assert!(warnings.is_empty());
    assert_eq!(sign_text::to_text(&graal.signs[0].glyphs), "Test sign");
    let second = &graal.signs[1].glyphs;
    assert_eq!(
        sign_text::to_text(second),
        "I'm coming for you#. #a #h\n\nhahahaha #4"
    );
    assert!(second.contains(&sign_text::HEAD) && second.contains(&sign_text::YINYANG));
    let items: Vec<_> = graal.chests.iter().map(|c| c.item).collect();
    assert_eq!(items, vec![0, 24, 11, 11, 11, 11, 11, 11]);
    assert!(graal.chests.iter().all(|c| c.sign == 0));
    assert_eq!(graal.npcs[0].image, raw("door.png"));
    assert_eq!(graal.npcs[1].image, raw(""));
}

#[test]
fn nw_and_graal_twins_mean_the_same_level() {
    let Some(dir) = common::corpus_or_skip("graal", "the real .nw files") else {
        return;
    };
    // nw-converter publishes castlewarp and test in both formats.
    for name in ["castlewarp", "test"] {
        let (from_nw, warnings) = Nw::read(&load(&dir, &format!("{name}.nw")))
            .unwrap()
            .to_level();
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        let binary = load(&dir, &format!("{name}.graal"));
        let (from_graal, warnings) = levelkit::formats::graal::binary::Graal::read(&binary)
            .unwrap()
            .to_level();
        assert!(warnings.is_empty(), "{name}: {warnings:#?}");
        assert_eq!(from_nw, from_graal, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// (c) Sweeps.

/// Read under strict limits: an error names the format and a line; a level writes back to the
/// very bytes it was read from, validates, and converts.
fn try_read(bytes: &[u8]) -> Option<Nw> {
    match nw::read_with(bytes, &Limits::strict()) {
        Ok(level) => {
            assert_eq!(level.write().unwrap(), bytes, "not byte for byte");
            let findings = level.validate();
            assert!(findings.iter().all(|f| f.severity == Severity::Warning));
            let (graal, _) = level.to_level();
            let (again, warnings) = Nw::from_level(&graal);
            if warnings.is_empty() {
                assert_eq!(again.to_level().0, graal);
            }
            Some(level)
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("nw: "), "{msg}");
            assert!(e.location.line_col.is_some(), "error without a line: {msg}");
            None
        }
    }
}

fn sweep_all_prefixes(bytes: &[u8]) -> (usize, usize) {
    let mut ok = 0;
    for len in 0..=bytes.len() {
        ok += usize::from(try_read(&bytes[..len]).is_some());
    }
    (ok, bytes.len() + 1 - ok)
}

#[test]
fn every_prefix_of_the_samples_reads_exactly_or_names_its_line() {
    let mut bytes = samples::village().write().unwrap();
    let (ok, errors) = sweep_all_prefixes(&bytes);
    // Cuts inside the 3 NPC, 2 sign and 2 baddy blocks are errors; the rest reads.
    assert!(ok > 0 && errors > 0, "{ok} {errors}");
    // The same with CRLF.
    let mut crlf = samples::village();
    crlf.line_ending = LineEnding::CrLf;
    bytes = crlf.write().unwrap();
    sweep_all_prefixes(&bytes);
    sweep_all_prefixes(EVERY_STATEMENT);
}

#[test]
fn every_prefix_of_the_real_files_reads_exactly_or_names_its_line() {
    let Some(dir) = common::corpus_or_skip("graal", "the real .nw files") else {
        return;
    };
    for path in nw_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let (ok, errors) = sweep_all_prefixes(&bytes);
        assert!(ok > 0, "{}", path.display());
        // The 8 prefixes of the header line are errors; past it, only cuts inside blocks.
        let has_blocks = bytes.windows(4).any(|w| w == b"END\n");
        assert_eq!(errors > 8, has_blocks, "{}: {errors}", path.display());
        assert!(errors >= 8);
    }
}

#[test]
fn garbage_and_mutations_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..400 {
        let len = rng.below(600);
        let mut junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if i % 2 == 0 {
            junk.splice(0..0, b"GLEVNW01\n".iter().copied());
        }
        try_read(&junk);
    }
    // Line soup: real keywords, END lines and tokens in random order.
    let words: [&[u8]; 24] = [
        b"BOARD",
        b"LINK",
        b"SIGN",
        b"NPC",
        b"CHEST",
        b"BADDY",
        b"TILESET",
        b"HEIGHTS",
        b"SIGNEND",
        b"NPCEND",
        b"BADDYEND",
        b"HEIGHTSEND",
        b"0",
        b"-1",
        b"64",
        b"27.5",
        b"AA",
        b"//",
        b"playerx",
        b"a.nw",
        b"-",
        b"greenrupee",
        b"1,2",
        b"\xe9",
    ];
    let mut accepted = 0;
    for _ in 0..1500 {
        let mut bytes = b"GLEVNW01\n".to_vec();
        for _ in 0..rng.below(12) {
            for w in 0..1 + rng.below(7) {
                if w > 0 {
                    bytes.extend_from_slice(if rng.below(8) == 0 { b"  " } else { b" " });
                }
                bytes.extend_from_slice(words[rng.below(words.len())]);
            }
            bytes.extend_from_slice(if rng.below(4) == 0 { b"\r\n" } else { b"\n" });
        }
        if rng.below(3) == 0 {
            bytes.pop();
        }
        accepted += usize::from(try_read(&bytes).is_some());
    }
    assert!(accepted > 500, "{accepted}");
    // Mutations of a sample.
    let base = samples::village().write().unwrap();
    let mut accepted = 0;
    for _ in 0..400 {
        let mut bytes = base.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len());
            bytes[at] = match rng.below(5) {
                0 => b'\n',
                1 => b' ',
                2 => b'\r',
                _ => rng.next() as u8,
            };
        }
        accepted += usize::from(try_read(&bytes).is_some());
    }
    assert!(accepted > 100, "{accepted}");
}

// ---------------------------------------------------------------------------------------------
// (d) proptest.

fn word() -> impl Strategy<Value = RawString> {
    "[a-zA-Z_][a-zA-Z0-9_]{0,8}".prop_map(|s| raw(&s))
}

fn file_name() -> impl Strategy<Value = RawString> {
    "[a-z][a-z0-9_]{0,8}\\.(nw|graal|png|gif)".prop_map(|s| raw(&s))
}

/// One or two words and a file name, single spaces.
fn spaced_file_name() -> impl Strategy<Value = RawString> {
    (vec(word(), 0..3), file_name()).prop_map(|(mut words, file)| {
        words.push(file);
        RawString(
            words
                .iter()
                .map(|w| w.as_bytes())
                .collect::<Vec<_>>()
                .join(&b' '),
        )
    })
}

/// Numbers: mostly quarters; with `wild`, also any finite float (serde_json without its
/// `float_roundtrip` feature does not read every float back exactly, so the JSON test is tame).
fn num_of(wild: bool) -> BoxedStrategy<f64> {
    let quarters = (-400i32..400).prop_map(|v| f64::from(v) / 4.0);
    if wild {
        prop_oneof![
            4 => quarters,
            1 => any::<f64>().prop_filter("finite", |v| v.is_finite()),
        ]
        .boxed()
    } else {
        quarters.boxed()
    }
}

fn num() -> BoxedStrategy<f64> {
    num_of(true)
}

/// A line of text: any byte but the line breaks.
fn text_line(end: &'static str) -> impl Strategy<Value = RawString> {
    vec(
        any::<u8>().prop_filter("no line break", |&b| b != b'\n' && b != b'\r'),
        0..24,
    )
    .prop_filter("not the end line", move |l| l != end.as_bytes())
    .prop_map(RawString)
}

fn name_or_number() -> impl Strategy<Value = NameOrNumber> {
    prop_oneof![
        any::<i32>().prop_map(NameOrNumber::Number),
        word().prop_map(NameOrNumber::Name),
    ]
}

fn coord() -> impl Strategy<Value = Coord> {
    coord_of(true)
}

fn coord_of(wild: bool) -> impl Strategy<Value = Coord> {
    prop_oneof![
        4 => num_of(wild).prop_map(Coord::tiles),
        1 => Just(Coord::player_x()),
        1 => Just(Coord::player_y()),
        // Expressions and spellings real levels use: `playerx+25`, `playery-9`, `15.50`.
        1 => "player[xy]([+-][0-9]{1,2}(\\.[0-9]{1,2})?)?|[0-9]{1,2}\\.[0-9]0"
            .prop_map(|s| Coord::word(s.as_bytes()).unwrap()),
    ]
}

fn statement(wild: bool) -> impl Strategy<Value = Statement> {
    let num = move || num_of(wild);
    let coord = move || coord_of(wild);
    prop_oneof![
        4 => (
            -3i32..70,
            -3i32..70,
            -2i32..4,
            vec(0u16..=4095, 1..70),
            prop_oneof![4 => Just(String::new()), 1 => "[A-Za-z0-9+/]{1,3}"],
        )
            .prop_map(|(x, y, layer, tiles, excess)| {
                Statement::Board(BoardRow { x, y, layer, tiles, excess: raw(&excess) })
            }),
        2 => (
            spaced_file_name(),
            any::<[i32; 4]>(),
            coord(),
            coord(),
            proptest::option::of(any::<(i32, i32)>()),
        )
            .prop_map(|(dest, [x, y, width, height], dest_x, dest_y, layers)| {
                Statement::Link(Link {
                    dest,
                    x,
                    y,
                    width,
                    height,
                    dest_x,
                    dest_y,
                    layers: layers.map(|(dest_layer, layer)| LinkLayers { dest_layer, layer }),
                })
            }),
        1 => (num(), num(), proptest::option::of(any::<i32>()), vec(text_line("SIGNEND"), 0..4))
            .prop_map(|(x, y, layer, lines)| Statement::Sign(Sign { x, y, layer, lines })),
        1 => (
            proptest::option::of(spaced_file_name()),
            num(),
            num(),
            proptest::option::of(any::<i32>()),
            vec(text_line("NPCEND"), 0..5),
        )
            .prop_map(|(image, x, y, layer, script)| {
                Statement::Npc(Npc { image, x, y, layer, script })
            }),
        1 => (num(), num(), name_or_number(), any::<i32>(), proptest::option::of(any::<i32>()))
            .prop_map(|(x, y, item, sign, layer)| {
                Statement::Chest(Chest { x, y, item, sign, layer })
            }),
        1 => (
            num(),
            num(),
            name_or_number(),
            proptest::option::of(any::<i32>()),
            vec(text_line("BADDYEND"), 0..4),
        )
            .prop_map(|(x, y, kind, layer, verses)| {
                Statement::Baddy(Baddy { x, y, kind, layer, verses })
            }),
        1 => word().prop_map(|name| Statement::Tileset(Tileset { name })),
        1 => file_name().prop_map(|file| Statement::TilesetImage(TilesetImage { file })),
        1 => vec(
            prop_oneof![
                vec(num(), 1..10).prop_map(|row| {
                    raw(&row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","))
                }),
                text_line("HEIGHTSEND"),
            ],
            0..10,
        )
        .prop_map(|rows| Statement::Heights(Heights { rows })),
        2 => prop_oneof![
            Just(String::new()),
            "; [ -~]{0,20}",
            "// [ -~]{0,20}",
            "[a-z][a-z ]{0,20}",
            "UNKNOWN( [0-9]{1,3}){0,3}",
            Just("BOARD 0 0 64 0 AB".to_string()),
            Just("CHEST 1 2".to_string()),
            Just("NPCEND".to_string()),
        ]
        .prop_map(|s| Statement::Verbatim(raw(&s))),
    ]
}

fn canonical_nw(wild: bool) -> impl Strategy<Value = Nw> {
    (any::<bool>(), any::<bool>(), vec(statement(wild), 0..12)).prop_map(
        |(crlf, mut final_newline, statements)| {
            let line_ending = if crlf {
                LineEnding::CrLf
            } else {
                LineEnding::Lf
            };
            let blank_last = matches!(
                statements.last(),
                Some(Statement::Verbatim(t)) if t.is_empty()
            );
            if blank_last && line_ending == LineEnding::Lf {
                final_newline = true;
            }
            Nw {
                line_ending,
                final_newline,
                statements: statements.into_iter().map(Entry::new).collect(),
            }
        },
    )
}

/// Glyph sequences `.nw` text spells exactly: no lone second halves, no `#` glyph (a `#`
/// before an escape letter reads as the escape), no codes above 96.
fn glyphs() -> impl Strategy<Value = Vec<u8>> {
    vec(0u8..97, 0..40).prop_map(|gs| {
        let mut out = Vec::new();
        for g in gs {
            match g {
                sign_text::HASH => {}
                g if g == sign_text::HEAD + 1 || g == sign_text::YINYANG + 1 => {}
                sign_text::HEAD | sign_text::YINYANG => out.extend([g, g + 1]),
                g => out.push(g),
            }
        }
        out
    })
}

fn script() -> impl Strategy<Value = RawString> {
    vec(text_line("NPCEND"), 0..5).prop_map(|ls| {
        RawString(
            ls.iter()
                .map(|l| l.as_bytes())
                .collect::<Vec<_>>()
                .join(&b'\n'),
        )
    })
}

fn representable_level() -> impl Strategy<Value = Level> {
    let ground = vec(0u16..=4095, BOARD_CELLS).prop_map(|tiles| level::Board { layer: 0, tiles });
    let upper = (
        1u32..50,
        vec(
            prop_oneof![8 => Just(TILE_TRANSPARENT), 1 => 0u16..=4095],
            BOARD_CELLS,
        ),
        0..BOARD_CELLS,
        0u16..=4095,
    )
        .prop_map(|(step, mut tiles, at, tile)| {
            tiles[at] = tile;
            (step, tiles)
        });
    (
        ground,
        vec(upper, 0..3),
        vec(
            (
                spaced_file_name(),
                any::<[i32; 4]>(),
                coord(),
                coord(),
                proptest::option::of(any::<(i32, i32)>()),
            ),
            0..4,
        ),
        vec(
            (num(), num(), glyphs(), proptest::option::of(any::<i32>())),
            0..4,
        ),
        vec(
            (
                num(),
                num(),
                0i32..25,
                any::<i32>(),
                proptest::option::of(any::<i32>()),
            ),
            0..4,
        ),
        vec(
            (
                num(),
                num(),
                0u8..10,
                vec(text_line("BADDYEND"), 0..4),
                proptest::option::of(any::<i32>()),
            ),
            0..4,
        ),
        vec(
            (
                num(),
                num(),
                prop_oneof![Just(RawString::default()), file_name()],
                script(),
                proptest::option::of(any::<i32>()),
            ),
            0..4,
        ),
    )
        .prop_map(|(ground, upper, links, signs, chests, baddies, npcs)| {
            let mut layers = vec![ground];
            let mut number = 0;
            for (step, tiles) in upper {
                number += step;
                layers.push(level::Board {
                    layer: number,
                    tiles,
                });
            }
            let lc = |c: Coord| -> LinkCoord { c };
            Level {
                layers,
                links: links
                    .into_iter()
                    .map(
                        |(dest, [x, y, width, height], dx, dy, layers)| level::Link {
                            dest,
                            x,
                            y,
                            width,
                            height,
                            dest_x: lc(dx),
                            dest_y: lc(dy),
                            layers,
                        },
                    )
                    .collect(),
                signs: signs
                    .into_iter()
                    .map(|(x, y, glyphs, layer)| level::Sign {
                        x,
                        y,
                        glyphs,
                        layer,
                    })
                    .collect(),
                chests: chests
                    .into_iter()
                    .map(|(x, y, item, sign, layer)| level::Chest {
                        x,
                        y,
                        item,
                        sign,
                        layer,
                    })
                    .collect(),
                baddies: baddies
                    .into_iter()
                    .map(|(x, y, kind, verses, layer)| level::Baddy {
                        x,
                        y,
                        kind,
                        verses,
                        layer,
                    })
                    .collect(),
                npcs: npcs
                    .into_iter()
                    .map(|(x, y, image, script, layer)| level::Npc {
                        x,
                        y,
                        image,
                        script,
                        layer,
                    })
                    .collect(),
            }
        })
}

/// Bytes made of real statement words, spaces and line breaks in any order.
fn line_soup() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        Just(&b"BOARD"[..]),
        Just(&b"LINK"[..]),
        Just(&b"SIGN"[..]),
        Just(&b"NPC"[..]),
        Just(&b"CHEST"[..]),
        Just(&b"BADDY"[..]),
        Just(&b"SIGNEND"[..]),
        Just(&b"NPCEND"[..]),
        Just(&b"BADDYEND"[..]),
        Just(&b"HEIGHTS"[..]),
        Just(&b"HEIGHTSEND"[..]),
        Just(&b"0"[..]),
        Just(&b"1"[..]),
        Just(&b"05"[..]),
        Just(&b"2.50"[..]),
        Just(&b"AA"[..]),
        Just(&b"a.nw"[..]),
        Just(&b"-"[..]),
        Just(&b"frog"[..]),
        Just(&b" "[..]),
        Just(&b"\r"[..]),
        Just(&b""[..]),
    ];
    vec((vec(word, 0..8), any::<bool>()), 0..16).prop_flat_map(|ls| {
        let mut bytes = b"GLEVNW01\n".to_vec();
        for (words, crlf) in ls {
            bytes.extend_from_slice(&words.join(&b' '));
            bytes.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        (Just(bytes), any::<bool>()).prop_map(|(mut b, cut)| {
            if cut {
                b.pop();
            }
            b
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn model_bytes_model_is_identity(model in canonical_nw(true)) {
        let bytes = model.write().unwrap();
        let back = nw::read(&bytes).unwrap();
        prop_assert_eq!(&back, &model);
        prop_assert!(back.validate().iter().all(|f| f.severity == Severity::Warning));
    }

    #[test]
    fn json_model_json_is_identity(model in canonical_nw(false)) {
        let bytes = model.write().unwrap();
        let json = serde_json::to_vec(&model).unwrap();
        let from_json: Nw = serde_json::from_slice(&json).unwrap();
        prop_assert_eq!(&from_json, &model);
        prop_assert_eq!(from_json.write().unwrap(), bytes);
    }

    #[test]
    fn level_nw_level_is_identity(level in representable_level()) {
        let (nw, warnings) = Nw::from_level(&level);
        prop_assert!(warnings.is_empty(), "{:#?}", warnings);
        let bytes = nw.write().unwrap();
        let back = Nw::read(&bytes).unwrap();
        prop_assert_eq!(&back, &nw);
        let (again, warnings) = back.to_level();
        prop_assert!(warnings.is_empty(), "{:#?}", warnings);
        prop_assert_eq!(again, level);
    }

    #[test]
    fn whatever_reads_writes_back_byte_for_byte(bytes in line_soup()) {
        match nw::read(&bytes) {
            Ok(level) => prop_assert_eq!(level.write().unwrap(), bytes),
            Err(e) => {
                prop_assert_eq!(e.kind, ErrorKind::Truncated);
                prop_assert!(e.location.line_col.is_some());
            }
        }
    }
}
