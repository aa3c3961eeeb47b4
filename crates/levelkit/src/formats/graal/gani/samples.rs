//! Animations built from scratch by our own code, for tests, fuzzing seeds and examples. No game
//! data is copied: slot names follow the format's conventions, the rectangles and offsets are
//! made up here.

use super::model::*;
use crate::strings::RawString;

/// Body poses: standing, stride A, stride B; four sprites each (up, left, down, right).
const BODY: [i32; 3] = [200, 204, 208];
/// Head, hat and shield sprites: four each, up, left, down, right.
const HEAD: i32 = 100;
const HAT: i32 = 40;
const SHIELD: i32 = 10;
/// A dust puff with a negative index, from an image file.
const DUST: i32 = -3;

fn blank() -> Statement {
    Statement::Blank(Blank::default())
}

fn effect(sprite: i32, value: EffectValue) -> Statement {
    Statement::Effect(Effect {
        sprite,
        value,
        raw: None,
    })
}

fn default(slot: &str, value: &str) -> Statement {
    Statement::Default(SlotDefault {
        slot: RawString::from(slot),
        value: RawString::from(value),
        raw: None,
    })
}

fn attach(behind: bool, parent: i32, child: i32, x: f64, y: f64) -> Statement {
    Statement::Attach(Attach {
        behind,
        parent,
        child,
        x,
        y,
        raw: None,
    })
}

/// One direction line: shadow, body, head, hat, and the shield on the sides it shows.
fn pose(body: i32, dir: i32, bob: f64) -> Direction {
    let mut p = vec![Placement::new(0, 12.0, 36.0)];
    let shield = Placement::new(SHIELD + dir, if dir == 1 { 6.0 } else { 34.0 }, 14.0 + bob);
    if dir == 1 {
        p.push(shield);
    }
    p.push(Placement::new(body + dir, 8.0, 16.0 + bob));
    p.push(Placement::new(HEAD + dir, 8.0, 2.0 + bob));
    p.push(Placement::new(HAT + dir, 0.0, -16.0 + bob));
    if dir == 3 {
        p.push(shield);
    }
    Direction::new(p)
}

fn frame(body: i32, bob: f64) -> Frame {
    Frame::new((0..4).map(|d| pose(body, d, bob)).collect())
}

/// A four-direction walk cycle: 27 sprites (shadow, shield, head, hat and three body poses per
/// direction, an item whose image comes from `PARAM1`, and a dust puff with index −3 from an
/// image file), an attachment in front and one behind, every effect statement the renderer
/// draws (`LAYER`, whose meaning is not established, is left to the tests), `LOOP` and
/// `CONTINUOUS`, slot defaults, six frames with `WAIT`s and `PLAYSOUND`s (two in one frame), a
/// `PARAM2` placement (its sprite index from `DEFAULTPARAM2`), an empty direction line, and a
/// `SCRIPT` block. Written with a `GANI0001` header and LF.
pub fn walk_like() -> Gani {
    let mut s: Vec<Statement> = vec![
        Sprite::new(0, "SPRITES", [0, 0, 24, 12], "shadow").into(),
        Sprite::new(DUST, "dust.png", [0, 0, 16, 8], "dust puff").into(),
        Sprite::new(30, "PARAM1", [0, 0, 16, 16], "carried item").into(),
        blank(),
    ];
    let dirs = ["up", "left", "down", "right"];
    let shield_rects = [
        [0, 0, 6, 18],
        [6, 0, 8, 20],
        [14, 0, 16, 20],
        [30, 0, 8, 20],
    ];
    for (d, (name, rect)) in dirs.iter().zip(shield_rects).enumerate() {
        let d = d as i32;
        s.push(Sprite::new(SHIELD + d, "SHIELD", rect, &format!("shield {name}")).into());
    }
    for (d, name) in dirs.iter().enumerate() {
        let d = d as i32;
        s.push(
            Sprite::new(
                HEAD + d,
                "HEAD",
                [0, 32 * d, 32, 32],
                &format!("head {name}"),
            )
            .into(),
        );
    }
    for (d, name) in dirs.iter().enumerate() {
        let d = d as i32;
        s.push(
            Sprite::new(
                HAT + d,
                "ATTR1",
                [48 * d, 0, 48, 48],
                &format!("hat {name}"),
            )
            .into(),
        );
    }
    for (row, base) in BODY.iter().enumerate() {
        let row = row as i32;
        for (d, name) in dirs.iter().enumerate() {
            let d = d as i32;
            let what = ["standing", "stride a", "stride b"]
                .get(row as usize)
                .copied()
                .unwrap_or("");
            s.push(
                Sprite::new(
                    base + d,
                    "BODY",
                    [32 * d, 32 * row, 32, 32],
                    &format!("body {what} {name}"),
                )
                .into(),
            );
        }
    }
    s.push(blank());
    s.push(attach(false, BODY[0] + 2, DUST, 8.0, 24.0));
    s.push(attach(true, 0, DUST, 4.0, 6.0));
    s.push(effect(DUST, EffectValue::Zoom(0.75)));
    s.push(effect(
        DUST,
        EffectValue::Color(Color {
            r: 1.0,
            g: 0.9,
            b: 0.8,
            a: 0.6,
        }),
    ));
    s.push(effect(DUST, EffectValue::Mode(1)));
    s.push(effect(30, EffectValue::Rotate(0.5)));
    s.push(effect(0, EffectValue::StretchX(1.25)));
    s.push(effect(0, EffectValue::StretchY(0.5)));
    s.push(blank());
    s.push(Flag::new(FlagKind::Loop).into());
    s.push(Flag::new(FlagKind::Continuous).into());
    s.push(default("ATTR1", "hat0.png"));
    s.push(default("HEAD", "head0.png"));
    s.push(default("BODY", "body.png"));
    s.push(default("PARAM1", "apple.png"));
    s.push(default("PARAM2", "30"));
    s.push(blank());

    let mut frames = vec![
        frame(BODY[1], 0.0).with_sound("step.wav", 0.5, 1.0),
        frame(BODY[0], -1.0).with_wait(1),
        frame(BODY[2], 0.0),
        frame(BODY[1], 1.0)
            .with_sound("step.wav", 0.5, 1.0)
            .with_sound("cloth.wav", 0.5, 0.5),
        frame(BODY[0], -1.0).with_wait(1),
        frame(BODY[2], 0.5).with_wait(2),
    ];
    // Dust at the feet when stepping down; an item held out to the right; and a frame where
    // the figure, seen from behind, is hidden for a moment (an empty direction line).
    if let Some(down) = frames.get_mut(0).and_then(|f| f.directions.get_mut(2)) {
        down.placements.push(Placement::new(DUST, 10.0, 40.0));
    }
    if let Some(right) = frames.get_mut(4).and_then(|f| f.directions.get_mut(3)) {
        right.placements.push(Placement {
            sprite: SpriteRef::Param(2),
            x: 20.0,
            y: 18.5,
        });
    }
    if let Some(up) = frames.get_mut(2).and_then(|f| f.directions.get_mut(0)) {
        up.placements.clear();
    }
    s.push(
        AniBlock {
            frames,
            end_blank: Some(Blank::default()),
            ..AniBlock::default()
        }
        .into(),
    );
    s.push(blank());
    s.push(Statement::Script(TextBlock::new([
        "//#CLIENTSIDE",
        "function onCreated() {",
        "  this.steps = 0;",
        "}",
        "function onPlayerMoves() {",
        "  this.steps++;",
        "}",
    ])));
    Gani {
        statements: s,
        ..Gani::new()
    }
}
