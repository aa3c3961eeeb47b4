//! The canonical text of each line-shaped item: what the writer writes for an edited or new
//! item, and what the reader compares a line with to decide whether to keep it as read (`raw`).
//! A leaf that both `read.rs` and `write.rs` use, so neither needs the other for it.

use super::model::*;

/// The blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BlockKind {
    Ani,
    Script,
    Movie,
}

impl BlockKind {
    pub(super) fn keywords(self) -> (&'static [u8], &'static [u8]) {
        match self {
            BlockKind::Ani => (b"ANI", b"ANIEND"),
            BlockKind::Script => (b"SCRIPT", b"SCRIPTEND"),
            BlockKind::Movie => (b"MOVIE", b"MOVIEEND"),
        }
    }
}

/// A number in the shortest form that reads back to the same value (Rust's `Display` for
/// floats never uses an exponent, which the format does not know).
fn num(v: f64) -> String {
    format!("{v}")
}

/// `text` right-aligned in `width` bytes, like `%*s`.
fn pad(out: &mut Vec<u8>, width: usize, text: &[u8]) {
    out.resize(out.len() + width.saturating_sub(text.len()), b' ');
    out.extend_from_slice(text);
}

/// The signature line.
pub(super) fn format_header(header: &Header) -> Vec<u8> {
    format!("GANI{:04}", header.version).into_bytes()
}

/// The canonical line of a one-line statement (a block's opening line for blocks).
pub(super) fn format_statement(statement: &Statement) -> Vec<u8> {
    let mut out = Vec::new();
    match statement {
        Statement::Blank(_) => {}
        Statement::Sprite(s) => {
            out.extend_from_slice(b"SPRITE ");
            pad(&mut out, 4, s.index.to_string().as_bytes());
            out.push(b' ');
            pad(&mut out, 15, s.source.as_bytes());
            for v in [s.left, s.top, s.width, s.height] {
                out.push(b' ');
                pad(&mut out, 4, v.to_string().as_bytes());
            }
            // TilesEditor writes the separating space even without a description.
            out.push(b' ');
            out.extend_from_slice(s.description.as_bytes());
        }
        Statement::Attach(a) => {
            out.extend_from_slice(statement.keyword().as_bytes());
            for v in [
                a.parent.to_string(),
                a.child.to_string(),
                num(a.x),
                num(a.y),
            ] {
                out.push(b' ');
                pad(&mut out, 4, v.as_bytes());
            }
        }
        Statement::Effect(e) => {
            out.extend_from_slice(e.value.keyword().as_bytes());
            match e.value {
                EffectValue::StretchX(v)
                | EffectValue::StretchY(v)
                | EffectValue::Zoom(v)
                | EffectValue::Rotate(v) => {
                    for t in [e.sprite.to_string(), num(v)] {
                        out.push(b' ');
                        pad(&mut out, 4, t.as_bytes());
                    }
                }
                EffectValue::Color(c) => {
                    let text = format!(
                        " {} {} {} {} {}",
                        e.sprite,
                        num(c.r),
                        num(c.g),
                        num(c.b),
                        num(c.a)
                    );
                    out.extend_from_slice(text.as_bytes());
                }
                EffectValue::Mode(v) | EffectValue::Layer(v) => {
                    out.extend_from_slice(format!(" {} {v}", e.sprite).as_bytes());
                }
            }
        }
        Statement::Flag(f) => {
            out.extend_from_slice(f.flag.keyword().as_bytes());
            if let Some(arg) = f.arg {
                out.extend_from_slice(format!(" {arg}").as_bytes());
            }
        }
        Statement::SetBackTo(s) => {
            out.extend_from_slice(b"SETBACKTO ");
            out.extend_from_slice(s.name.as_bytes());
        }
        Statement::Default(d) => {
            out.extend_from_slice(b"DEFAULT");
            out.extend_from_slice(d.slot.as_bytes());
            out.push(b' ');
            out.extend_from_slice(d.value.as_bytes());
        }
        Statement::BackColor(b) => {
            out.extend_from_slice(b"BACKCOLOR ");
            out.extend_from_slice(b.value.as_bytes());
        }
        Statement::Frames(f) => out.extend_from_slice(format!("FRAMES {}", f.count).as_bytes()),
        Statement::Ani(_) => out.extend_from_slice(BlockKind::Ani.keywords().0),
        Statement::Script(_) => out.extend_from_slice(BlockKind::Script.keywords().0),
        Statement::Movie(_) => out.extend_from_slice(BlockKind::Movie.keywords().0),
        Statement::Unknown(u) => out.extend_from_slice(u.line.as_bytes()),
    }
    out
}

/// A direction line's canonical text.
pub(super) fn format_direction(placements: &[Placement]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, p) in placements.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        let sprite = match p.sprite {
            SpriteRef::Index(i) => i.to_string(),
            SpriteRef::Param(n) => format!("PARAM{n}"),
        };
        pad(&mut out, 4, sprite.as_bytes());
        out.push(b' ');
        pad(&mut out, 3, num(p.x).as_bytes());
        out.push(b' ');
        pad(&mut out, 3, num(p.y).as_bytes());
    }
    out
}

/// A frame command's canonical text.
pub(super) fn format_command(command: &FrameCommand) -> Vec<u8> {
    match command {
        FrameCommand::Wait(wait) => format!("WAIT {}", wait.ticks).into_bytes(),
        FrameCommand::PlaySound(s) => {
            let mut out = b"PLAYSOUND ".to_vec();
            out.extend_from_slice(s.sound.as_bytes());
            out.extend_from_slice(format!(" {} {}", num(s.x), num(s.y)).as_bytes());
            out
        }
        FrameCommand::Unknown(u) => u.line.as_bytes().to_vec(),
    }
}
