//! `.gani` tests: one table of `(model, bytes)` cases drives read and write; real files from
//! `$LEVELKIT_CORPUS/gani`; truncation, garbage and mutation sweeps; proptest; frame timing.
//!
//! The case bytes are typed here by hand from `shared/specs/graal-notes.md` section 4 and
//! TilesEditor's column layout, independently of the library's writer.

use crate::common;
use crate::common::Rng;

use levelkit::formats::graal::gani::{self, *};
use levelkit::strings::RawString;
use levelkit::{ErrorKind, Limits, Severity};

// ---------------------------------------------------------------------------------------------
// Builders for expected models.

fn raw(s: &str) -> Option<RawString> {
    Some(RawString::from(s))
}

fn sprite(index: i32, source: &str, rect: [i32; 4], description: &str) -> Statement {
    Sprite::new(index, source, rect, description).into()
}

fn blank() -> Statement {
    Statement::Blank(Blank::default())
}

fn flag(flag: FlagKind, arg: Option<i32>) -> Statement {
    Statement::Flag(Flag {
        flag,
        arg,
        raw: None,
    })
}

fn effect(sprite: i32, value: EffectValue) -> Statement {
    Statement::Effect(Effect {
        sprite,
        value,
        raw: None,
    })
}

fn dir(placements: &[(i32, f64, f64)]) -> Direction {
    Direction::new(
        placements
            .iter()
            .map(|&(i, x, y)| Placement::new(i, x, y))
            .collect(),
    )
}

fn wait(ticks: u32) -> FrameCommand {
    FrameCommand::Wait(Wait { ticks, raw: None })
}

fn sound(sound: &str, x: f64, y: f64) -> FrameCommand {
    FrameCommand::PlaySound(PlaySound {
        sound: RawString::from(sound),
        x,
        y,
        raw: None,
    })
}

fn ani(frames: Vec<Frame>, end_blank: bool) -> Statement {
    Statement::Ani(AniBlock {
        frames,
        end_blank: end_blank.then(Blank::default),
        ..AniBlock::default()
    })
}

fn model(header: Option<u16>, statements: Vec<Statement>) -> Gani {
    Gani {
        header: header.map(Header::new),
        statements,
        layout: Layout::default(),
    }
}

fn text_block(lines: &[&[u8]]) -> TextBlock {
    TextBlock {
        lines: lines.iter().map(|l| RawString::from(*l)).collect(),
        ..TextBlock::default()
    }
}

// ---------------------------------------------------------------------------------------------
// (a) The case table.

/// Canonical TilesEditor layout, header, LOOP, one four-direction frame with WAIT.
fn case_canonical() -> (Gani, Vec<u8>) {
    let bytes = concat!(
        "GANI0001\n",
        "SPRITE    0         SPRITES    0    0   24   12 shadow\n",
        "SPRITE  200            BODY    0    0   32   32 body up\n",
        "\n",
        "LOOP\n",
        "DEFAULTBODY body.png\n",
        "\n",
        "ANI\n",
        "   0  12  36,  200   8  16\n",
        "   0  12  36,  200   8  16\n",
        "   0  12  36,  200   8  16\n",
        "   0  12  36,  200   8  16\n",
        "WAIT 4\n",
        "\n",
        "ANIEND\n",
    );
    let d = || dir(&[(0, 12.0, 36.0), (200, 8.0, 16.0)]);
    let m = model(
        Some(1),
        vec![
            sprite(0, "SPRITES", [0, 0, 24, 12], "shadow"),
            sprite(200, "BODY", [0, 0, 32, 32], "body up"),
            blank(),
            flag(FlagKind::Loop, None),
            Statement::Default(SlotDefault {
                slot: "BODY".into(),
                value: "body.png".into(),
                raw: None,
            }),
            blank(),
            ani(
                vec![Frame::new(vec![d(), d(), d(), d()]).with_wait(4)],
                true,
            ),
        ],
    );
    (m, bytes.as_bytes().to_vec())
}

/// No header, CRLF, hand-typed spacing, the SINGLEDIR alias, `WAIT 03`, the last frame running
/// straight into ANIEND, no final newline.
fn case_hand_typed_crlf() -> (Gani, Vec<u8>) {
    let bytes = concat!(
        "SPRITE 0 SPRITES 0 0 24 12 shadow\r\n",
        "SINGLEDIR\r\n",
        "\r\n",
        "ANI\r\n",
        "0 12 36\r\n",
        "WAIT 03\r\n",
        "\r\n",
        "0 12 37\r\n",
        "ANIEND",
    );
    let mut m = model(
        None,
        vec![
            Statement::Sprite(Sprite {
                raw: raw("SPRITE 0 SPRITES 0 0 24 12 shadow"),
                ..Sprite::new(0, "SPRITES", [0, 0, 24, 12], "shadow")
            }),
            Statement::Flag(Flag {
                raw: raw("SINGLEDIR"),
                ..Flag::new(FlagKind::SingleDirection)
            }),
            blank(),
            ani(
                vec![
                    Frame {
                        directions: vec![Direction {
                            raw: raw("0 12 36"),
                            ..dir(&[(0, 12.0, 36.0)])
                        }],
                        commands: vec![FrameCommand::Wait(Wait {
                            ticks: 3,
                            raw: raw("WAIT 03"),
                        })],
                        separator_raw: None,
                    },
                    Frame::new(vec![Direction {
                        raw: raw("0 12 37"),
                        ..dir(&[(0, 12.0, 37.0)])
                    }]),
                ],
                false,
            ),
        ],
    );
    m.layout = Layout {
        line_ending: LineEnding::CrLf,
        final_newline: false,
        other_endings: vec![],
    };
    (m, bytes.as_bytes().to_vec())
}

/// Empty direction lines (one opening the frame), PARAM references, fractional offsets, a
/// trailing comma, several PLAYSOUNDs, an unknown frame line, an empty description.
fn case_empty_directions() -> (Gani, Vec<u8>) {
    let bytes = concat!(
        "GANI0001\n",
        "SPRITE    1            BODY    0    0   32   32 body\n",
        "SPRITE    2          PARAM1    0    0   16   16 \n",
        "ANI\n",
        "\n",
        "   1   8  16\n",
        "\n",
        "   1   8 16.5,   2 1.5  -2,\n",
        "WAIT 1\n",
        "PLAYSOUND PARAM1 0.5 1\n",
        "PLAYSOUND step.wav 1.5 2\n",
        "FOO bar\n",
        "\n",
        "PARAM2   0   0\n",
        "   1   8  16\n",
        "   1   8  16\n",
        "   1   8  16\n",
        "\n",
        "ANIEND\n",
    );
    let one = || dir(&[(1, 8.0, 16.0)]);
    let m = model(
        Some(1),
        vec![
            sprite(1, "BODY", [0, 0, 32, 32], "body"),
            sprite(2, "PARAM1", [0, 0, 16, 16], ""),
            ani(
                vec![
                    Frame {
                        directions: vec![
                            dir(&[]),
                            one(),
                            dir(&[]),
                            Direction {
                                raw: raw("   1   8 16.5,   2 1.5  -2,"),
                                ..dir(&[(1, 8.0, 16.5), (2, 1.5, -2.0)])
                            },
                        ],
                        commands: vec![
                            wait(1),
                            sound("PARAM1", 0.5, 1.0),
                            sound("step.wav", 1.5, 2.0),
                            FrameCommand::Unknown(Unknown::new("FOO bar")),
                        ],
                        separator_raw: None,
                    },
                    Frame::new(vec![
                        Direction::new(vec![Placement {
                            sprite: SpriteRef::Param(2),
                            x: 0.0,
                            y: 0.0,
                        }]),
                        one(),
                        one(),
                        one(),
                    ]),
                ],
                true,
            ),
        ],
    );
    (m, bytes.as_bytes().to_vec())
}

/// GANI0002 with FRAMES, BACKCOLOR, a numeric DEFAULTPARAM, SETBACKTO, an unknown statement, a
/// blank line of spaces, a SCRIPT block (Windows-1252 byte, a SCRIPTEND look-alike, a closing
/// line with trailing spaces) and a MOVIE block.
fn case_blocks() -> (Gani, Vec<u8>) {
    let mut bytes = b"GANI0002\nFRAMES 3\nBACKCOLOR #102030\nDEFAULTPARAM2 12\nSETBACKTO idle\n\
NEWTHING 1 2\n   \nSCRIPT\n//#CLIENTSIDE\nSCRIPTEND_COUNT = 1;\n\n  echo(\"caf"
        .to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(
        b"\");\nSCRIPTEND  \nMOVIE\nACTOR SPRITE hero\nFRAME 0 dx=1,dy=2\nACTOREND\nMOVIEEND\n",
    );
    let m = model(
        Some(2),
        vec![
            Statement::Frames(FrameCount {
                count: 3,
                raw: None,
            }),
            Statement::BackColor(BackColor {
                value: "#102030".into(),
                raw: None,
            }),
            Statement::Default(SlotDefault {
                slot: "PARAM2".into(),
                value: "12".into(),
                raw: None,
            }),
            Statement::SetBackTo(SetBackTo {
                name: "idle".into(),
                raw: None,
            }),
            Statement::Unknown(Unknown::new("NEWTHING 1 2")),
            Statement::Blank(Blank { raw: raw("   ") }),
            Statement::Script(TextBlock {
                close_raw: raw("SCRIPTEND  "),
                ..text_block(&[
                    b"//#CLIENTSIDE",
                    b"SCRIPTEND_COUNT = 1;",
                    b"",
                    b"  echo(\"caf\xE9\");",
                ])
            }),
            Statement::Movie(text_block(&[
                b"ACTOR SPRITE hero",
                b"FRAME 0 dx=1,dy=2",
                b"ACTOREND",
            ])),
        ],
    );
    (m, bytes)
}

/// An LF file with one CRLF line.
fn case_mixed_endings() -> (Gani, Vec<u8>) {
    let mut m = model(
        Some(1),
        vec![flag(FlagKind::Loop, None), flag(FlagKind::Continuous, None)],
    );
    m.layout.other_endings = vec![1];
    (m, b"GANI0001\nLOOP\r\nCONTINUOUS\n".to_vec())
}

/// A negative sprite index, both attachments, every effect, flags with numbers, and a
/// single-direction frame.
fn case_effects() -> (Gani, Vec<u8>) {
    let bytes = concat!(
        "SPRITE   -1        dust.png    0    0    8    8 dust\n",
        "SPRITE    0         SPRITES    0    0   24   12 shadow\n",
        "ATTACHSPRITE    0   -1    2    3\n",
        "ATTACHSPRITE2    0   -1 -1.5    0\n",
        "STRETCHXEFFECT   -1  1.5\n",
        "STRETCHYEFFECT   -1    2\n",
        "ZOOMEFFECT    0 0.25\n",
        "ROTATEEFFECT    0 2.35619\n",
        "COLOREFFECT -1 1 0.5 0 0.75\n",
        "EFFECTMODE 0 2\n",
        "LAYER 0 1\n",
        "LAYER 0 1\n",
        "LOOP 0\n",
        "CONTINUOUS 1\n",
        "SINGLEDIRECTION\n",
        "ANI\n",
        "  -1   0   0,    0   0  10\n",
        "ANIEND\n",
    );
    let attach = |behind, x| {
        Statement::Attach(Attach {
            behind,
            parent: 0,
            child: -1,
            x,
            y: if behind { 0.0 } else { 3.0 },
            raw: None,
        })
    };
    let m = model(
        None,
        vec![
            sprite(-1, "dust.png", [0, 0, 8, 8], "dust"),
            sprite(0, "SPRITES", [0, 0, 24, 12], "shadow"),
            attach(false, 2.0),
            attach(true, -1.5),
            effect(-1, EffectValue::StretchX(1.5)),
            effect(-1, EffectValue::StretchY(2.0)),
            effect(0, EffectValue::Zoom(0.25)),
            effect(0, EffectValue::Rotate(2.35619)),
            effect(
                -1,
                EffectValue::Color(Color {
                    r: 1.0,
                    g: 0.5,
                    b: 0.0,
                    a: 0.75,
                }),
            ),
            effect(0, EffectValue::Mode(2)),
            effect(0, EffectValue::Layer(1)),
            effect(0, EffectValue::Layer(1)),
            flag(FlagKind::Loop, Some(0)),
            flag(FlagKind::Continuous, Some(1)),
            flag(FlagKind::SingleDirection, None),
            ani(
                vec![Frame::new(vec![dir(&[(-1, 0.0, 0.0), (0, 0.0, 10.0)])])],
                false,
            ),
        ],
    );
    (m, bytes.as_bytes().to_vec())
}

/// Empty ANI blocks, with and without the blank line.
fn case_empty_ani() -> (Gani, Vec<u8>) {
    let m = model(None, vec![ani(vec![], true), ani(vec![], false), blank()]);
    (m, b"ANI\n\nANIEND\nANI\nANIEND\n\n".to_vec())
}

/// Frames with too few and too many direction lines (kept as they are; validation reports).
fn case_odd_frames() -> (Gani, Vec<u8>) {
    let bytes = concat!(
        "SPRITE    0         SPRITES    0    0   24   12 \n",
        "ANI\n",
        "   0   0   0\n",
        "   0   0   0\n",
        "WAIT 5\n",
        "\n",
        "   0   0   0\n",
        "   0   0   0\n",
        "   0   0   0\n",
        "   0   0   0\n",
        "   0   0   1\n",
        "\n",
        "ANIEND\n",
    );
    let z = || dir(&[(0, 0.0, 0.0)]);
    let m = model(
        None,
        vec![
            sprite(0, "SPRITES", [0, 0, 24, 12], ""),
            ani(
                vec![
                    Frame::new(vec![z(), z()]).with_wait(5),
                    Frame::new(vec![z(), z(), z(), z(), dir(&[(0, 0.0, 1.0)])]),
                ],
                true,
            ),
        ],
    );
    (m, bytes.as_bytes().to_vec())
}

fn case_empty_file() -> (Gani, Vec<u8>) {
    (model(None, vec![]), Vec::new())
}

fn cases() -> Vec<(&'static str, Gani, Vec<u8>)> {
    vec![
        ("canonical", case_canonical()),
        ("hand-typed-crlf", case_hand_typed_crlf()),
        ("empty-directions", case_empty_directions()),
        ("blocks", case_blocks()),
        ("mixed-endings", case_mixed_endings()),
        ("effects", case_effects()),
        ("empty-ani", case_empty_ani()),
        ("odd-frames", case_odd_frames()),
        ("empty-file", case_empty_file()),
    ]
    .into_iter()
    .map(|(name, (m, b))| (name, m, b))
    .collect()
}

#[test]
fn cases_read_to_their_models() {
    for (name, expected, bytes) in cases() {
        let got = gani::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn cases_write_to_their_bytes() {
    for (name, model, bytes) in cases() {
        let got = gani::write(&model).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            got == bytes,
            "{name}:\n{}\n---- expected ----\n{}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&bytes)
        );
    }
}

#[test]
fn cases_survive_json() {
    for (name, model, bytes) in cases() {
        let json = serde_json::to_string(&model).unwrap();
        let back: Gani = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, model, "{name}");
        assert!(back.write().unwrap() == bytes, "{name}");
    }
    // A PARAM reference is the string "PARAM<n>" in JSON, an index a number.
    let json = serde_json::to_string(&case_empty_directions().0).unwrap();
    assert!(json.contains(r#""sprite":"PARAM2""#), "{json}");
    assert!(json.contains(r#""sprite":1,"#), "{json}");
    let crlf = serde_json::to_string(&case_hand_typed_crlf().0).unwrap();
    assert!(crlf.contains(r#""line_ending":"crlf""#), "{crlf}");
    let bad = json.replace(r#""sprite":"PARAM2""#, r#""sprite":"HEAD""#);
    assert!(serde_json::from_str::<Gani>(&bad).is_err());
}

#[test]
fn edited_values_are_written_canonically_and_the_rest_stays() {
    let (mut m, bytes) = case_hand_typed_crlf();
    let Statement::Ani(a) = &mut m.statements[3] else {
        panic!()
    };
    let FrameCommand::Wait(w) = &mut a.frames[0].commands[0] else {
        panic!()
    };
    w.ticks = 4;
    let Statement::Sprite(s) = &mut m.statements[0] else {
        panic!()
    };
    s.description = "ground shadow".into();
    let out = m.write().unwrap();
    let expected = String::from_utf8(bytes)
        .unwrap()
        .replace("WAIT 03", "WAIT 4")
        .replace(
            "SPRITE 0 SPRITES 0 0 24 12 shadow",
            "SPRITE    0         SPRITES    0    0   24   12 ground shadow",
        );
    assert_eq!(String::from_utf8(out).unwrap(), expected);

    // canonicalize() drops every raw text: the whole file in TilesEditor's layout.
    let (mut m, _) = case_hand_typed_crlf();
    m.canonicalize();
    let out = String::from_utf8(m.write().unwrap()).unwrap();
    assert_eq!(
        out,
        "SPRITE    0         SPRITES    0    0   24   12 shadow\r\nSINGLEDIRECTION\r\n\r\n\
         ANI\r\n   0  12  36\r\nWAIT 3\r\n\r\n   0  12  37\r\nANIEND"
    );
}

#[test]
fn unwritable_models_are_refused_with_a_path_and_reported_by_validation() {
    let (base, _) = case_canonical();
    type Edit = fn(&mut Gani);
    let edits: [(&str, Edit, &str); 10] = [
        (
            "statements[0]",
            |m| {
                if let Statement::Sprite(s) = &mut m.statements[0] {
                    s.description = "two\nlines".into();
                }
            },
            "line break",
        ),
        (
            "statements[0]",
            |m| {
                if let Statement::Sprite(s) = &mut m.statements[0] {
                    s.source = "MY IMAGE.png".into();
                }
            },
            "would not read back",
        ),
        (
            "statements[2]",
            |m| m.statements[2] = Statement::Unknown(Unknown::new("SCRIPT")),
            "would not read back",
        ),
        (
            "statements[6].frames[0]",
            |m| {
                if let Statement::Ani(a) = &mut m.statements[6] {
                    a.frames[0].directions.pop();
                    a.frames[0].commands.clear();
                }
            },
            "3 of 4 direction lines",
        ),
        (
            "statements[6].frames[0]",
            |m| {
                if let Statement::Ani(a) = &mut m.statements[6] {
                    a.frames[0] = Frame::default();
                }
            },
            "at least one line",
        ),
        (
            "statements[6].frames[0].commands[0]",
            |m| {
                if let Statement::Ani(a) = &mut m.statements[6] {
                    a.frames[0].commands[0] = FrameCommand::Unknown(Unknown::new("1 2 3"));
                }
            },
            "would read as a direction line",
        ),
        (
            "statements[6].frames[0].directions[0]",
            |m| {
                if let Statement::Ani(a) = &mut m.statements[6] {
                    a.frames[0].directions[0].placements[0].x = f64::NAN;
                }
            },
            "would not read back",
        ),
        (
            "statements[7].lines[1]",
            |m| {
                m.statements
                    .push(Statement::Script(TextBlock::new(["a", "SCRIPTEND"])))
            },
            "would end it",
        ),
        (
            "statements[0]",
            |m| {
                m.header = None;
                m.statements
                    .insert(0, Statement::Unknown(Unknown::new("GANI0001")));
            },
            "header",
        ),
        (
            "layout.final_newline",
            |m| {
                m.statements.push(blank());
                m.layout.final_newline = false;
            },
            "last line is empty",
        ),
    ];
    for (path, edit, text) in edits {
        let mut m = base.clone();
        edit(&mut m);
        let err = m.write().unwrap_err();
        assert_eq!(err.kind, ErrorKind::Malformed, "{path}: {err}");
        assert_eq!(err.location.path.as_deref(), Some(path), "{err}");
        assert!(err.message.contains(text), "{path}: {err}");
        let findings = m.validate();
        assert!(
            findings.iter().any(|f| f.severity == Severity::Error
                && f.location.path.as_deref() == Some(path)
                && f.message.contains(text)),
            "{path}: {findings:#?}"
        );
    }
    assert!(base.validate().is_empty());
}

#[test]
fn validation_reports_what_the_games_would_skip() {
    let bytes = concat!(
        "GANI0003\n",
        "SPRITE    1            BODY    0    0   32   32 body\n",
        "SPRITE    1            BODY    0   32   32   32 body again\n",
        "SPRITE    2            BODY    0    0   32\n",
        "ATTACHSPRITE    9    1    0    0\n",
        "ATTACHSPRITE    1    8    0    0\n",
        "ZOOMEFFECT    7  0.5\n",
        "COLOREFFECT -1 1 1 1 0.5\n",
        "WOBBLE 3\n",
        "ANI\n",
        "   1   0   0,   5   0   0\n",
        "   1   0   0\n",
        "   1   0   0\n",
        "   1   0   0\n",
        "WAIT\n",
        "\n",
        "ANIEND\n",
        "SINGLEDIRECTION\n",
        "MOVIE\n",
        "MOVIEEND\n",
    );
    let m = gani::read(bytes.as_bytes()).unwrap();
    assert!(m.write().unwrap() == bytes.as_bytes());
    let findings = m.validate();
    let expect = [
        ("header", "GANI0003"),
        (
            "statements[1]",
            "sprite 1 is defined again (first at statements[0])",
        ),
        (
            "statements[2]",
            "`SPRITE    2            BODY    0    0   32` does not match",
        ),
        ("statements[3]", "attachment to sprite 9"),
        ("statements[4]", "attached sprite 8 is not defined"),
        ("statements[5]", "ZOOMEFFECT on sprite 7"),
        ("statements[7]", "unknown statement `WOBBLE`"),
        (
            "statements[8].frames[0].directions[0]",
            "undefined sprites 5",
        ),
        (
            "statements[8].frames[0].commands[0]",
            "`WAIT` does not match `WAIT ticks`",
        ),
        ("statements[9]", "SINGLEDIRECTION after the ANI block"),
        ("statements[10]", "MOVIE belongs to GANI0002"),
    ];
    for (path, text) in expect {
        assert!(
            findings
                .iter()
                .any(|f| f.location.path.as_deref() == Some(path) && f.message.contains(text)),
            "{path}: {text}\n{findings:#?}"
        );
    }
    assert_eq!(findings.len(), expect.len(), "{findings:#?}");
    assert!(findings.iter().all(|f| f.severity == Severity::Warning));

    // Wrong direction counts, and no ANI block at all.
    let odd = case_odd_frames().0.validate();
    assert_eq!(odd.len(), 2, "{odd:#?}");
    assert!(odd[0].message.contains("frame has 2 direction lines"));
    assert!(odd[1].message.contains("frame has 5 direction lines"));
    let none = model(None, vec![flag(FlagKind::Loop, None)]).validate();
    assert_eq!(none.len(), 1);
    assert!(none[0].message.contains("no ANI block"));
}

#[test]
fn unterminated_blocks_are_truncation_errors_at_their_opening_line() {
    let cases: [(&[u8], u32, &str, &str); 4] = [
        (
            b"LOOP\nANI\n   0   0   0\n",
            2,
            "statements[1]",
            "ANI block opened on line 2",
        ),
        (b"SCRIPT\nfoo", 1, "statements[0]", "no SCRIPTEND"),
        (
            b"GANI0002\nMOVIE\nACTOR\r\n",
            2,
            "statements[0]",
            "no MOVIEEND",
        ),
        (b"ANI\n\n\n", 1, "statements[0]", "no ANIEND"),
    ];
    for (bytes, line, path, text) in cases {
        let err = gani::read(bytes).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Truncated, "{err}");
        assert_eq!(err.location.line_col, Some((line, 1)), "{err}");
        assert_eq!(err.location.path.as_deref(), Some(path), "{err}");
        assert!(err.to_string().starts_with("gani: "), "{err}");
        assert!(err.message.contains(text), "{err}");
    }
}

#[test]
fn limits_are_enforced() {
    let bytes = gani::samples::walk_like().write().unwrap();
    let few_lines = Limits {
        max_count: 50,
        ..Limits::strict()
    };
    let err = gani::read_with(&bytes, &few_lines).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
    let little_memory = Limits {
        max_alloc: 4096,
        ..Limits::strict()
    };
    let err = gani::read_with(&bytes, &little_memory).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
    assert!(err.location.line_col.is_some(), "{err}");
    assert!(err.location.path.is_some(), "{err}");
    // Memory stays proportional to the input: a megabyte of placements fits the strict budget.
    let mut big = b"ANI\n".to_vec();
    while big.len() < 1 << 20 {
        big.extend_from_slice(b"0 0 0,0 0 0,0 0 0,0 0 0,0 0 0,0 0 0,0 0 0,0 0 0,0 0 0,0 0 0\n");
    }
    big.extend_from_slice(b"ANIEND\n");
    let m = gani::read_with(&big, &Limits::strict()).unwrap();
    assert_eq!(m.write().unwrap(), big);
}

// ---------------------------------------------------------------------------------------------
// (b) Real files.

fn corpus_files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gani"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// What a real file holds, counted by hand.
struct Known {
    file: &'static str,
    sprites: usize,
    frames: usize,
    directions: usize,
    total_ms: u64,
    flags: &'static [&'static str],
    sounds: usize,
    set_back_to: Option<&'static str>,
}

const KNOWN: [Known; 5] = [
    Known {
        file: "walk.gani",
        sprites: 117,
        frames: 8,
        directions: 4,
        total_ms: 400,
        flags: &["LOOP", "CONTINUOUS"],
        sounds: 2,
        set_back_to: None,
    },
    Known {
        file: "carry.gani",
        sprites: 108,
        frames: 8,
        directions: 4,
        total_ms: 400,
        flags: &["LOOP", "CONTINUOUS"],
        sounds: 2,
        set_back_to: None,
    },
    Known {
        file: "dead.gani",
        sprites: 27,
        frames: 15,
        directions: 1,
        total_ms: 1850,
        flags: &["SINGLEDIRECTION"],
        sounds: 1,
        set_back_to: None,
    },
    Known {
        file: "hurt.gani",
        sprites: 117,
        frames: 1,
        directions: 4,
        total_ms: 1550,
        flags: &[],
        sounds: 1,
        set_back_to: Some("idle"),
    },
    Known {
        file: "sword.gani",
        sprites: 134,
        frames: 5,
        directions: 4,
        total_ms: 250,
        flags: &[],
        sounds: 1,
        set_back_to: Some("idle"),
    },
];

#[test]
fn real_files_read_validate_and_round_trip_byte_for_byte() {
    let Some(dir) = common::corpus_or_skip("gani", "the real .gani files") else {
        return;
    };
    let files = corpus_files(&dir);
    assert_eq!(files.len(), 14, "expected the 14 corpus files");
    for (name, bytes) in &files {
        let m = Gani::read(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let findings = m.validate();
        assert!(
            findings.iter().all(|f| f.severity != Severity::Error),
            "{name}: {findings:#?}"
        );
        // The real files are clean: no finding at all.
        assert!(findings.is_empty(), "{name}: {findings:#?}");
        let out = m.write().unwrap();
        assert!(out == *bytes, "{name}: round trip differs");
        // None has a header, all use LF.
        assert!(m.header.is_none(), "{name}");
        assert_eq!(m.layout, Layout::default(), "{name}");
        // The lossless JSON form rebuilds the same bytes.
        let json = serde_json::to_vec(&m).unwrap();
        let back: Gani = serde_json::from_slice(&json).unwrap();
        assert_eq!(back, m, "{name}");
        // Written canonically (TilesEditor's layout), the file still means the same.
        let mut canonical = m.clone();
        canonical.canonicalize();
        let again = Gani::read(&canonical.write().unwrap()).unwrap();
        assert_eq!(again, canonical, "{name}");
    }
    for k in KNOWN {
        let file = k.file;
        let (_, bytes) = files.iter().find(|(n, _)| n == file).unwrap();
        let s = Gani::read(bytes).unwrap().summary();
        assert_eq!(s.sprites, k.sprites, "{file}");
        assert_eq!(s.frames, k.frames, "{file}");
        assert_eq!(s.directions, k.directions, "{file}");
        assert_eq!(s.total_duration_ms, k.total_ms, "{file}");
        assert_eq!(s.flags, k.flags, "{file}");
        assert_eq!(s.sounds, k.sounds, "{file}");
        assert_eq!(s.set_back_to.as_deref(), k.set_back_to, "{file}");
        assert_eq!(s.unknown_lines, 0, "{file}");
    }
}

#[test]
fn real_file_details() {
    let Some(dir) = common::corpus_or_skip("gani", "the real .gani files") else {
        return;
    };
    let load = |name: &str| Gani::read(&std::fs::read(dir.join(name)).unwrap()).unwrap();

    // qa_script.gani: the SCRIPT block is kept verbatim, between the effects and the ANI block.
    let qa = load("qa_script.gani");
    let script = qa.script().unwrap();
    assert_eq!(
        script.lines,
        [
            "//#CLIENTSIDE",
            "function onCreated() {",
            "  this.qa = 1;",
            "}"
        ]
        .map(RawString::from)
        .to_vec()
    );
    assert_eq!(script.open_raw, None);
    assert_eq!(script.close_raw, None);
    let effects: Vec<_> = qa
        .statements
        .iter()
        .filter_map(|s| match s {
            Statement::Effect(e) => Some((e.sprite, e.value)),
            _ => None,
        })
        .collect();
    assert_eq!(
        effects,
        [
            (0, EffectValue::Mode(1)),
            (
                0,
                EffectValue::Color(Color {
                    r: 0.7,
                    g: 0.6,
                    b: 0.99,
                    a: 0.5
                })
            )
        ]
    );
    assert_eq!(qa.summary().script_lines, Some(4));
    // Its ANI block is one frame (not empty, as the corpus manifest says).
    assert_eq!(qa.frames().count(), 1);

    // carry.gani: three sprite lines lack TilesEditor's trailing space after an empty
    // description and are kept as raw; its last frame runs straight into ANIEND.
    let carry = load("carry.gani");
    let raws: Vec<i32> = carry
        .sprites()
        .filter(|s| s.raw.is_some())
        .map(|s| s.index)
        .collect();
    assert_eq!(raws, [237, 238, 239]);
    assert!(
        carry
            .sprites()
            .all(|s| s.raw.is_none() || s.description.is_empty())
    );
    let block = carry.ani_blocks().next().unwrap();
    assert!(block.end_blank.is_none());
    assert!(matches!(carry.statements.last(), Some(Statement::Blank(_))));

    // dead.gani: single-direction, its first frame has a sound and a WAIT.
    let dead = load("dead.gani");
    let first = dead.frames().next().unwrap();
    assert_eq!(first.directions.len(), 1);
    assert_eq!(first.directions[0].placements.len(), 4);
    assert_eq!(
        first.sounds().next().unwrap().sound,
        RawString::from("dead.wav")
    );
    assert_eq!(first.duration_ms(), 150);

    // walk.gani: PLAYSOUND offsets in tiles, placements with negative offsets.
    let walk = load("walk.gani");
    let f0 = walk.frames().next().unwrap();
    let s = f0.sounds().next().unwrap();
    assert_eq!((s.x, s.y), (1.5, 2.0));
    assert_eq!(
        f0.directions[0].placements[4],
        Placement::new(40, 0.0, -14.0)
    );
    assert_eq!(
        walk.sprite(48).unwrap().description,
        RawString::from("hat dead")
    );
    assert_eq!(
        walk.defaults()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>(),
        ["ATTR1=hat0.png", "HEAD=head19.png", "BODY=body.png"]
    );
}

// ---------------------------------------------------------------------------------------------
// (c) Truncation, garbage and mutation sweeps.

/// Read under strict limits. Errors name the format and a line; whatever reads validates
/// without errors and writes back to exactly the input.
fn check(bytes: &[u8]) -> Result<Gani, levelkit::Error> {
    check_with(bytes, true)
}

/// [`check`], validating only when asked (the prefix sweeps validate every eighth prefix).
fn check_with(bytes: &[u8], validate: bool) -> Result<Gani, levelkit::Error> {
    let result = gani::read_with(bytes, &Limits::strict());
    match &result {
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("gani: "), "{msg}");
            assert!(e.location.line_col.is_some(), "error without a line: {msg}");
        }
        Ok(m) if validate => {
            let findings = m.validate();
            assert!(
                findings.iter().all(|f| f.severity != Severity::Error),
                "{findings:#?}"
            );
            let _ = m.summary();
            let _ = m.frame_durations_ms();
            let out = m.write().unwrap();
            assert!(
                out == bytes,
                "not byte-exact:\n{:?}\n{:?}",
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&out)
            );
        }
        Ok(m) => assert!(m.write().unwrap() == bytes, "not byte-exact"),
    }
    result
}

/// Every prefix: no panic, errors with a line, and every prefix that cuts the ANI block between
/// its opening line and the end of `ANIEND` is a truncation error.
fn sweep_prefixes(name: &str, bytes: &[u8], step: usize) {
    let find = |needle: &[u8]| {
        bytes
            .windows(needle.len())
            .position(|w| w == needle)
            .unwrap()
    };
    let ani = find(b"\nANI") + 1;
    let aniend = find(b"\nANIEND") + 1;
    let mut truncated = 0;
    for len in (0..=bytes.len()).step_by(step.max(1)) {
        let result = check_with(&bytes[..len], len % 8 == 0);
        if len >= ani + 3 && len < aniend + 6 {
            let err = result
                .err()
                .unwrap_or_else(|| panic!("{name}: prefix {len} accepted"));
            assert_eq!(err.kind, ErrorKind::Truncated, "{name}: {err}");
            truncated += 1;
        }
    }
    assert!(truncated > 0, "{name}");
    assert!(check(bytes).is_ok());
}

fn crlf(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(bytes)
        .replace('\n', "\r\n")
        .into_bytes()
}

#[test]
fn every_prefix_of_the_samples_reads_or_fails_cleanly() {
    let walk = gani::samples::walk_like().write().unwrap();
    sweep_prefixes("walk_like", &walk, 1);
    sweep_prefixes("walk_like crlf", &crlf(&walk), 1);
    for (name, _, bytes) in cases() {
        for len in 0..=bytes.len() {
            let _ = check(&bytes[..len]);
        }
        let _ = name;
    }
}

#[test]
fn every_prefix_of_real_files_reads_or_fails_cleanly() {
    let Some(dir) = common::corpus_or_skip("gani", "the real .gani files") else {
        return;
    };
    for (name, bytes) in corpus_files(&dir) {
        sweep_prefixes(&name, &bytes, 1);
    }
}

fn lines_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

#[test]
fn random_garbage_and_mutations_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Garbage: random bytes, with line breaks and keywords mixed in.
    let words: [&[u8]; 14] = [
        b"ANI",
        b"ANIEND",
        b"SCRIPT",
        b"SCRIPTEND",
        b"MOVIE",
        b"MOVIEEND",
        b"SPRITE",
        b"WAIT",
        b"PLAYSOUND",
        b"PARAM1",
        b",",
        b"\r\n",
        b"\n",
        b"-1.5",
    ];
    for _ in 0..400 {
        let len = rng.below(600);
        let mut junk = Vec::new();
        while junk.len() < len {
            match rng.below(4) {
                0 => junk.extend_from_slice(words[rng.below(words.len())]),
                1 => junk.push(b' '),
                _ => junk.push(rng.next() as u8),
            }
        }
        let _ = check(&junk);
    }
    let mut bases = vec![
        gani::samples::walk_like().write().unwrap(),
        crlf(&gani::samples::walk_like().write().unwrap()),
    ];
    bases.extend(cases().into_iter().map(|(_, _, b)| b));
    if let Some(dir) = common::corpus("gani") {
        bases.extend(corpus_files(&dir).into_iter().map(|(_, b)| b));
    }
    let mut accepted = 0;
    let mut refused = 0;
    for i in 0..3000 {
        let base = &bases[i % bases.len()];
        let mut lines = lines_of(base);
        for _ in 0..1 + rng.below(4) {
            if lines.is_empty() {
                break;
            }
            let a = rng.below(lines.len());
            let b = rng.below(lines.len());
            match rng.below(6) {
                0 => lines.swap(a, b),
                1 => {
                    lines.remove(a);
                }
                2 => {
                    let l = lines[a].clone();
                    lines.insert(b, l);
                }
                3 => lines[a].clear(),
                4 => {
                    if !lines[a].is_empty() {
                        let at = rng.below(lines[a].len());
                        lines[a][at] = match rng.below(4) {
                            0 => b' ',
                            1 => b',',
                            2 => b'\r',
                            _ => rng.next() as u8,
                        };
                    }
                }
                _ => {
                    let at = rng.below(lines[a].len() + 1);
                    lines[a].truncate(at);
                }
            }
        }
        let bytes = lines.join(&b'\n');
        match check(&bytes) {
            Ok(m) => {
                accepted += 1;
                let json = serde_json::to_string(&m).unwrap();
                let back: Gani = serde_json::from_str(&json).unwrap();
                assert_eq!(back, m);
            }
            Err(_) => refused += 1,
        }
    }
    assert!(
        accepted > 500 && refused > 50,
        "the sweep tests too little: {accepted} read, {refused} refused"
    );
}

// ---------------------------------------------------------------------------------------------
// (d) proptest: model -> bytes -> model.

mod props {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;

    /// One token: no whitespace, no line break, Windows-1252 bytes allowed.
    fn token() -> impl Strategy<Value = RawString> {
        vec(
            prop_oneof![
                8 => prop::sample::select(
                    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.#-,".to_vec()
                ),
                1 => 0x80u8..=0xFF,
            ],
            1..10,
        )
        .prop_map(RawString)
    }

    /// Free text: tokens joined by single spaces.
    fn words(min: usize) -> impl Strategy<Value = RawString> {
        vec(token(), min..4).prop_map(|ws| {
            RawString(
                ws.iter()
                    .map(|w| w.as_bytes().to_vec())
                    .collect::<Vec<_>>()
                    .join(&b' '),
            )
        })
    }

    /// Numbers: short decimals like the editors write, and with `wide` any finite f64.
    /// serde_json's default float parser is exact only for the former; full f64 round trips
    /// through JSON need its `float_roundtrip` feature.
    fn number(wide: bool) -> BoxedStrategy<f64> {
        let short = prop_oneof![
            3 => (-400i32..400).prop_map(f64::from),
            2 => (-4000i32..4000).prop_map(|v| f64::from(v) / 8.0),
            1 => (-99_999i32..99_999).prop_map(|v| f64::from(v) / 1000.0),
        ];
        if wide {
            prop_oneof![5 => short, 1 => any::<f64>().prop_filter("finite", |v| v.is_finite())]
                .boxed()
        } else {
            short.boxed()
        }
    }

    fn unknown_line() -> impl Strategy<Value = RawString> {
        words(1).prop_map(|w| {
            let mut line = b"X".to_vec();
            line.extend_from_slice(w.as_bytes());
            RawString(line)
        })
    }

    fn simple(wide: bool) -> impl Strategy<Value = Statement> {
        prop_oneof![
            2 => Just(Statement::Blank(Blank::default())),
            6 => (any::<i32>(), token(), any::<[i32; 4]>(), prop_oneof![Just(RawString::default()), words(1)])
                .prop_map(|(index, source, r, description)| Statement::Sprite(Sprite {
                    index, source, left: r[0], top: r[1], width: r[2], height: r[3], description, raw: None,
                })),
            1 => (any::<bool>(), any::<i32>(), any::<i32>(), number(wide), number(wide))
                .prop_map(|(behind, parent, child, x, y)| Statement::Attach(Attach {
                    behind, parent, child, x, y, raw: None,
                })),
            2 => (any::<i32>(), prop_oneof![
                    number(wide).prop_map(EffectValue::StretchX),
                    number(wide).prop_map(EffectValue::StretchY),
                    number(wide).prop_map(EffectValue::Zoom),
                    number(wide).prop_map(EffectValue::Rotate),
                    (number(wide), number(wide), number(wide), number(wide))
                        .prop_map(|(r, g, b, a)| EffectValue::Color(Color { r, g, b, a })),
                    any::<i32>().prop_map(EffectValue::Mode),
                    any::<i32>().prop_map(EffectValue::Layer),
                ])
                .prop_map(|(sprite, value)| Statement::Effect(Effect { sprite, value, raw: None })),
            1 => (prop_oneof![Just(FlagKind::Loop), Just(FlagKind::Continuous)], proptest::option::of(any::<i32>()))
                .prop_map(|(flag, arg)| Statement::Flag(Flag { flag, arg, raw: None })),
            1 => words(1).prop_map(|name| Statement::SetBackTo(SetBackTo { name, raw: None })),
            1 => (token(), words(1)).prop_map(|(slot, value)| Statement::Default(SlotDefault { slot, value, raw: None })),
            1 => words(1).prop_map(|value| Statement::BackColor(BackColor { value, raw: None })),
            1 => any::<u32>().prop_map(|count| Statement::Frames(FrameCount { count, raw: None })),
            1 => unknown_line().prop_map(|line| Statement::Unknown(Unknown { line })),
        ]
    }

    fn placement(wide: bool) -> impl Strategy<Value = Placement> {
        (
            prop_oneof![4 => any::<i32>().prop_map(SpriteRef::Index), 1 => (0u32..20).prop_map(SpriteRef::Param)],
            number(wide),
            number(wide),
        )
            .prop_map(|(sprite, x, y)| Placement { sprite, x, y })
    }

    fn command(wide: bool) -> impl Strategy<Value = FrameCommand> {
        prop_oneof![
            any::<u32>().prop_map(|ticks| FrameCommand::Wait(Wait { ticks, raw: None })),
            (token(), number(wide), number(wide)).prop_map(
                |(sound, x, y)| FrameCommand::PlaySound(PlaySound {
                    sound,
                    x,
                    y,
                    raw: None
                })
            ),
            unknown_line().prop_map(|line| FrameCommand::Unknown(Unknown { line })),
        ]
    }

    fn frame(n: usize, wide: bool) -> impl Strategy<Value = Frame> {
        (vec(vec(placement(wide), 0..4), n), vec(command(wide), 0..3)).prop_map(
            |(dirs, commands)| Frame {
                directions: dirs.into_iter().map(Direction::new).collect(),
                commands,
                separator_raw: None,
            },
        )
    }

    fn script_line() -> impl Strategy<Value = RawString> {
        prop_oneof![
            3 => words(0),
            1 => "[ -~]{0,30}".prop_map(|s| RawString::from(s.as_str())),
        ]
        .prop_filter("not a closing line", |l| {
            let t = String::from_utf8_lossy(l.as_bytes());
            !t.trim_end().ends_with("END") && !t.ends_with(['\r', '\t'])
        })
    }

    pub(super) fn gani_model(wide: bool) -> impl Strategy<Value = Gani> {
        (any::<bool>(), any::<bool>())
            .prop_flat_map(move |(single, has_ani)| {
                let n = if single { 1 } else { 4 };
                (
                    proptest::option::of(0u16..=9999),
                    vec(simple(wide), 0..12),
                    vec(simple(wide), 0..4),
                    proptest::option::of(prop_oneof![Just(None), (1i32..5).prop_map(Some)]),
                    if has_ani {
                        vec(frame(n, wide), 0..5).prop_map(Some).boxed()
                    } else {
                        Just(None).boxed()
                    },
                    any::<bool>(),
                    proptest::option::of(vec(script_line(), 0..5)),
                    any::<bool>(),
                    any::<bool>(),
                    Just(single),
                )
            })
            .prop_map(
                |(
                    header,
                    before,
                    after,
                    single_arg,
                    frames,
                    end_blank,
                    script,
                    crlf,
                    final_newline,
                    single,
                )| {
                    let mut statements = before;
                    if single {
                        statements.push(Statement::Flag(Flag {
                            flag: FlagKind::SingleDirection,
                            arg: single_arg.flatten(),
                            raw: None,
                        }));
                    }
                    if let Some(frames) = frames {
                        // A lone frame of one empty direction line would read as the blank
                        // line before ANIEND (the writer refuses it); give it that line.
                        let lone_blank = frames.len() == 1
                            && frames[0].commands.is_empty()
                            && frames[0].directions.len() == 1
                            && frames[0].directions[0].placements.is_empty();
                        statements.push(Statement::Ani(AniBlock {
                            frames,
                            end_blank: (end_blank || lone_blank).then(Blank::default),
                            ..AniBlock::default()
                        }));
                    }
                    statements.extend(after);
                    if let Some(lines) = script {
                        statements.push(Statement::Script(TextBlock {
                            lines,
                            ..TextBlock::default()
                        }));
                    }
                    let empty_last = statements
                        .last()
                        .is_none_or(|s| matches!(s, Statement::Blank(_)))
                        && !(statements.is_empty() && header.is_some());
                    Gani {
                        header: header.map(Header::new),
                        statements,
                        layout: Layout {
                            line_ending: if crlf {
                                LineEnding::CrLf
                            } else {
                                LineEnding::Lf
                            },
                            final_newline: final_newline || empty_last,
                            other_endings: vec![],
                        },
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn model_bytes_model_is_identity(m in gani_model(true)) {
            let bytes = gani::write(&m).unwrap();
            let back = gani::read(&bytes).unwrap();
            let mut expected = m.clone();
            if !bytes.contains(&b'\n') {
                // Without a single line break the file cannot say which ending it uses.
                expected.layout.line_ending = LineEnding::Lf;
            }
            prop_assert_eq!(&back, &expected);
            prop_assert!(gani::validate(&m).iter().all(|f| f.severity != Severity::Error));
        }

        /// Flipping the line endings of some lines keeps the bytes exact and the values equal.
        #[test]
        fn mixed_line_endings_round_trip(m in gani_model(true), flips in vec(any::<prop::sample::Index>(), 0..6)) {
            let bytes = gani::write(&m).unwrap();
            let breaks: Vec<usize> = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i).collect();
            prop_assume!(!breaks.is_empty());
            let mut chosen: Vec<usize> = flips.iter().map(|i| breaks[i.index(breaks.len())]).collect();
            chosen.sort_unstable();
            chosen.dedup();
            let mut mixed = Vec::new();
            let mut from = 0;
            for at in chosen {
                let crlf = at > 0 && bytes[at - 1] == b'\r';
                let upto = if crlf { at - 1 } else { at };
                mixed.extend_from_slice(&bytes[from..upto]);
                mixed.extend_from_slice(if crlf { b"\n" } else { b"\r\n" });
                from = at + 1;
            }
            mixed.extend_from_slice(&bytes[from..]);
            let read = gani::read(&mixed).unwrap();
            prop_assert!(gani::write(&read).unwrap() == mixed);
            let mut a = read.clone();
            let mut b = m.clone();
            a.canonicalize();
            b.canonicalize();
            a.layout = Layout::default();
            b.layout = Layout::default();
            prop_assert_eq!(a, b);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn model_json_model_is_identity(m in gani_model(false)) {
            let json = serde_json::to_string(&m).unwrap();
            let from_json: Gani = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&from_json, &m);
            prop_assert!(gani::write(&from_json).unwrap() == gani::write(&m).unwrap());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (e) Frame timing.

#[test]
fn frame_timing_follows_the_editors() {
    // (n + 1) x 50 ms per frame; several WAITs add up.
    let frame = |waits: &[u32]| {
        let mut f = Frame::new(vec![Direction::default()]);
        for &w in waits {
            f = f.with_wait(w);
        }
        f
    };
    assert_eq!(frame(&[]).duration_ms(), 50);
    assert_eq!(frame(&[0]).duration_ms(), 50);
    assert_eq!(frame(&[1]).duration_ms(), 100);
    assert_eq!(frame(&[3]).duration_ms(), 200);
    assert_eq!(frame(&[2, 3]).duration_ms(), 300);
    assert_eq!(frame(&[30]).duration_ms(), 1550);
    assert_eq!(frame(&[u32::MAX, u32::MAX]).duration_ms(), u32::MAX);
    assert_eq!(frame(&[2, 3]).wait_ticks(), 5);

    let walk = gani::samples::walk_like();
    assert_eq!(walk.frame_durations_ms(), [50, 100, 50, 50, 100, 150]);
    assert_eq!(walk.total_duration_ms(), 500);
    assert_eq!(walk.summary().total_duration_ms, 500);

    let (m, _) = case_hand_typed_crlf();
    assert_eq!(m.frame_durations_ms(), [200, 50]);
    let (m, _) = case_empty_ani();
    assert!(m.frame_durations_ms().is_empty());
    assert_eq!(m.total_duration_ms(), 0);
}

// ---------------------------------------------------------------------------------------------
// The sample.

#[test]
fn the_sample_has_what_it_promises() {
    let walk = gani::samples::walk_like();
    assert!(walk.validate().is_empty(), "{:#?}", walk.validate());
    let bytes = walk.write().unwrap();
    assert!(bytes.starts_with(b"GANI0001\nSPRITE    0         SPRITES"));
    assert!(!bytes.contains(&b'\r'));
    assert_eq!(Gani::read(&bytes).unwrap(), walk);
    let s = walk.summary();
    assert_eq!(s.sprites, 27);
    assert_eq!(s.frames, 6);
    assert_eq!(s.directions, 4);
    assert_eq!(s.flags, ["LOOP", "CONTINUOUS"]);
    assert_eq!(s.sounds, 3);
    assert_eq!(s.script_lines, Some(7));
    assert!(walk.sprite(-3).is_some_and(|s| s.slot().is_none()));
    assert_eq!(walk.sprite(200).and_then(Sprite::slot), Some("BODY"));
    assert_eq!(walk.sprite(30).and_then(Sprite::slot), Some("PARAM1"));
    let kinds: Vec<&str> = walk.statements.iter().map(Statement::keyword).collect();
    for k in [
        "ATTACHSPRITE",
        "ATTACHSPRITE2",
        "STRETCHXEFFECT",
        "STRETCHYEFFECT",
        "ZOOMEFFECT",
        "ROTATEEFFECT",
        "COLOREFFECT",
        "EFFECTMODE",
        "DEFAULT",
        "SCRIPT",
    ] {
        assert!(kinds.contains(&k), "{k}");
    }
    // LAYER, which the renderer cannot apply, is left to the tests (`effects_and_flags` above).
    assert!(!kinds.contains(&"LAYER"));
    let empty = walk
        .frames()
        .flat_map(|f| &f.directions)
        .filter(|d| d.placements.is_empty())
        .count();
    assert_eq!(empty, 1);
    let params = walk
        .frames()
        .flat_map(|f| &f.directions)
        .flat_map(|d| &d.placements)
        .filter(|p| matches!(p.sprite, SpriteRef::Param(2)))
        .count();
    assert_eq!(params, 1);
}
