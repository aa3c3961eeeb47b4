//! Validation: every finding with its path, errors (the writer refuses the model: it would not read
//! back as itself) apart from warnings (values no known file has, which the game may still play).

use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Ani;

/// The mask of the record flag bits levelkit knows.
const KNOWN_FLAGS: u16 = FLAG_TICK_DURATION | FLAG_HAS_CUE | FLAG_POSITIONAL_CUE | FLAG_FORCE_CUE;

/// Check an animation and collect every finding, with its path.
///
/// Errors: a cue string without [`FLAG_HAS_CUE`] or the flag without a string, a NUL inside a
/// cue string, more records or a longer name than the header's 32-bit words hold. Warnings: a
/// header word that differs from every known file's (signature 0x20, zero reserved words), no
/// records (OpenClaw refuses such a file), unknown record flag bits, step, loop and position modes
/// outside the game's `switch`es, records after the one that finishes the animation (never
/// reached), and bytes after the last record. Durations of 0 or less are not findings: 15 shipped
/// Gruntz records rely on the game playing them as one 22 ms update.
pub fn validate(ani: &Ani) -> Vec<Warning> {
    let mut out = Vec::new();
    let error = |out: &mut Vec<Warning>, path: String, message: String| {
        out.push(Warning::error(F, Location::path(path), message));
    };
    let warn = |out: &mut Vec<Warning>, path: String, message: String| {
        out.push(Warning::warning(F, Location::path(path), message));
    };
    let h = &ani.header;
    if h.signature != SIGNATURE {
        warn(
            &mut out,
            "header.signature".into(),
            format!(
                "the first header word is 0x{:x}; every known file has 0x20 (the header size), \
                 and a Claw remake refuses anything else",
                h.signature
            ),
        );
    }
    if h.reserved_04 != 0 || h.reserved_14 != [0; 3] {
        warn(
            &mut out,
            "header".into(),
            "reserved header words are not zero (every known file has zeros; the game never \
             reads them)"
                .into(),
        );
    }
    if u32::try_from(ani.name.len()).is_err() {
        error(
            &mut out,
            "name".into(),
            format!(
                "the name is {} bytes; the header's length word holds at most {}",
                ani.name.len(),
                u32::MAX
            ),
        );
    }
    if u32::try_from(ani.records.len()).is_err() {
        error(
            &mut out,
            "records".into(),
            format!(
                "{} records; the header's count word holds at most {}",
                ani.records.len(),
                u32::MAX
            ),
        );
    }
    if ani.records.is_empty() {
        warn(
            &mut out,
            "records".into(),
            "no frame records: OpenClaw's loader refuses such a file, and there is nothing to \
             play"
                .into(),
        );
    }
    let finish = ani.records.iter().position(|r| r.loop_mode == LOOP_FINISH);
    for (i, r) in ani.records.iter().enumerate() {
        let path = || format!("records[{i}]");
        match (&r.cue, r.has_cue_flag()) {
            (Some(_), false) => error(
                &mut out,
                path(),
                "a cue string, but flag 0x2 (a cue string follows) is not set".into(),
            ),
            (None, true) => error(
                &mut out,
                path(),
                "flag 0x2 says a cue string follows, but the record has none (use an empty \
                 string)"
                    .into(),
            ),
            (Some(cue), true) if cue.as_bytes().contains(&0) => error(
                &mut out,
                format!("{}.cue", path()),
                "the cue string has a NUL byte, which would end it early".into(),
            ),
            (Some(cue), true) if r.cue_names().next().is_none() => warn(
                &mut out,
                format!("{}.cue", path()),
                format!(
                    "the cue string {:?} names no sound",
                    crate::strings::RawString::display(cue)
                ),
            ),
            _ => {}
        }
        if r.flags & !KNOWN_FLAGS != 0 {
            warn(
                &mut out,
                format!("{}.flags", path()),
                format!(
                    "unknown flag bits 0x{:04x} (known: 0x1 tick duration, 0x2 cue string, 0x4 \
                     positional cue, 0x8 forced cue)",
                    r.flags & !KNOWN_FLAGS
                ),
            );
        }
        if r.step_mode > 7 {
            warn(
                &mut out,
                format!("{}.step_mode", path()),
                format!(
                    "step mode {} is outside the game's 0..=7; it holds the current image",
                    r.step_mode
                ),
            );
        }
        if r.loop_mode == 6 || r.loop_mode > LOOP_FINISH {
            warn(
                &mut out,
                format!("{}.loop_mode", path()),
                format!(
                    "loop mode {} is not one the game knows (0..=5, 7, 8, 9)",
                    r.loop_mode
                ),
            );
        }
        if r.position_mode > 3 {
            warn(
                &mut out,
                format!("{}.position_mode", path()),
                format!(
                    "position mode {} is outside the game's 0..=3; the object does not move",
                    r.position_mode
                ),
            );
        }
        if finish.is_some_and(|f| i > f) && i == finish.map_or(0, |f| f.saturating_add(1)) {
            warn(
                &mut out,
                path(),
                format!(
                    "records {i}..{} come after record {} finishes the animation (loop mode 9) \
                     and are never reached",
                    ani.records.len(),
                    finish.unwrap_or(0)
                ),
            );
        }
    }
    if !ani.trailing.is_empty() {
        warn(
            &mut out,
            "trailing".into(),
            format!(
                "{} bytes after the last record (no known file has any; they are kept)",
                ani.trailing.len()
            ),
        );
    }
    out
}
