//! The text form of an animation (`levelkit dump`): the header, then one line per frame record
//! with its image, duration, modes, event, movement, flags and cue.

use std::fmt::{self, Write as _};

use super::model::*;
use crate::codec::flags_text;
use crate::strings::quoted;

/// The text dump of an animation; `name` is the file's name.
pub fn dump(name: &str, ani: &Ani) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_ani(&mut s, name, ani);
    s
}

/// A record's flags as hex with their names.
pub fn record_flags_text(flags: u16) -> String {
    let names = RECORD_FLAGS
        .iter()
        .filter(|(bit, _)| flags & bit != 0)
        .map(|(_, name)| *name);
    let known = RECORD_FLAGS.iter().fold(0u16, |m, (bit, _)| m | bit);
    flags_text(u32::from(flags), names, u32::from(known))
}

fn dump_ani(s: &mut String, name: &str, ani: &Ani) -> fmt::Result {
    let h = &ani.header;
    writeln!(s, "{name}: ani animation")?;
    writeln!(s, "signature       0x{:x}", h.signature)?;
    writeln!(s, "flags           0x{:08X}", h.flags)?;
    if h.reserved_04 != 0 || h.reserved_14 != [0; 3] {
        writeln!(
            s,
            "reserved        0x{:x} {:x?}",
            h.reserved_04, h.reserved_14
        )?;
    }
    writeln!(s, "name            {}", quoted(&ani.name))?;
    writeln!(
        s,
        "plays           {}",
        if ani.plays_once() {
            "once"
        } else {
            "in a loop"
        }
    )?;
    writeln!(s)?;
    writeln!(
        s,
        "records ({}, {} ms in all)",
        ani.records.len(),
        ani.total_duration_ms()
    )?;
    for (i, r) in ani.records.iter().enumerate() {
        write!(
            s,
            "  [{i:>3}] frame {:>4}  {:>5} ms  step {} loop {} pos {}",
            r.frame,
            r.duration_ms(),
            r.step_mode,
            r.loop_mode,
            r.position_mode
        )?;
        if r.event != 0 {
            write!(s, "  event {}", r.event)?;
        }
        if r.delta_x != 0 || r.delta_y != 0 {
            write!(s, "  move {},{}", r.delta_x, r.delta_y)?;
        }
        if r.flags != 0 {
            write!(s, "  flags {}", record_flags_text(r.flags))?;
        }
        if let Some(cue) = &r.cue {
            write!(s, "  cue {}", quoted(cue))?;
        }
        writeln!(s, "  reserved 0x{:04x}", r.reserved)?;
    }
    if !ani.trailing.is_empty() {
        writeln!(s)?;
        writeln!(s, "trailing        {} bytes", ani.trailing.len())?;
    }
    Ok(())
}
