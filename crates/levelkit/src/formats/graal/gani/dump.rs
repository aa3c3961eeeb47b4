//! The text form of an animation (`levelkit dump`): header, flags and defaults, each sprite on
//! one line, then each frame with its duration, its placements per direction and its sounds.

use std::fmt::{self, Write as _};

use super::{FrameCommand, Gani, SpriteRef};
use crate::strings::quoted;

/// Direction names in the order a four-direction frame lists them.
const DIRECTIONS: [&str; 4] = ["up", "left", "down", "right"];

/// The text dump of an animation; `name` is the file's name.
pub fn dump(name: &str, gani: &Gani) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_gani(&mut s, name, gani);
    s
}

fn sprite_ref(r: SpriteRef) -> String {
    match r {
        SpriteRef::Index(i) => i.to_string(),
        SpriteRef::Param(n) => format!("PARAM{n}"),
    }
}

fn dump_gani(s: &mut String, name: &str, gani: &Gani) -> fmt::Result {
    let header = gani.header.as_ref().map_or_else(
        || "no header line".to_owned(),
        |h| format!("GANI{:04}", h.version),
    );
    writeln!(s, "{name}: gani animation ({header})")?;
    let flags = gani.summary().flags;
    writeln!(
        s,
        "flags           {}",
        if flags.is_empty() {
            "none".to_owned()
        } else {
            flags.join(", ")
        }
    )?;
    if let Some(back) = gani.set_back_to() {
        writeln!(s, "set back to     {}", quoted(back))?;
    }
    for (slot, value) in gani.defaults() {
        writeln!(s, "default         {} = {}", slot.display(), quoted(value))?;
    }
    writeln!(s)?;
    writeln!(s, "sprites ({})", gani.sprites().count())?;
    for sprite in gani.sprites() {
        write!(
            s,
            "  [{:>4}] {} rect {},{} {}x{}",
            sprite.index,
            quoted(&sprite.source),
            sprite.left,
            sprite.top,
            sprite.width,
            sprite.height
        )?;
        if !sprite.description.is_empty() {
            write!(s, "  {}", quoted(&sprite.description))?;
        }
        writeln!(s)?;
    }
    let directions = gani.direction_count();
    let frames: Vec<_> = gani.frames().collect();
    writeln!(s)?;
    writeln!(
        s,
        "frames ({}, {directions} direction{}, {} ms in all)",
        frames.len(),
        if directions == 1 { "" } else { "s" },
        gani.total_duration_ms()
    )?;
    for (index, frame) in frames.iter().enumerate() {
        writeln!(s, "  frame {index}: {} ms", frame.duration_ms())?;
        for (d, direction) in frame.directions.iter().enumerate() {
            let label = if directions == 1 {
                "all"
            } else {
                DIRECTIONS.get(d).copied().unwrap_or("?")
            };
            let placements: Vec<String> = direction
                .placements
                .iter()
                .map(|p| format!("{} at {},{}", sprite_ref(p.sprite), p.x, p.y))
                .collect();
            writeln!(s, "    {label:<6} {}", placements.join("; "))?;
        }
        for command in &frame.commands {
            match command {
                FrameCommand::Wait(_) => {}
                FrameCommand::PlaySound(p) => {
                    writeln!(s, "    sound  {} at {},{}", quoted(&p.sound), p.x, p.y)?;
                }
                FrameCommand::Unknown(u) => writeln!(s, "    kept   {}", quoted(&u.line))?,
            }
        }
    }
    if let Some(script) = gani.script() {
        writeln!(s)?;
        writeln!(s, "script ({} lines)", script.lines.len())?;
    }
    Ok(())
}
