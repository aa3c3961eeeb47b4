//! The step to the common animation model: each record shows one image of the image set for its
//! duration.
//!
//! An ANI carries no pixels; the caller supplies the image set's frames (decoded PIDs, or PNG
//! files) through a closure from the image number ([`Record::frame`], the `NNN` of
//! `FRAMENNN.PID`) to a [`Sprite`]. Each number is asked for once. A number the closure does not
//! know becomes a placeholder ([`Sprite::placeholder`], the size of the largest image found, or
//! 32 × 32) and a warning, never a failure.
//!
//! What the common model has no place for is reported, once per kind: step modes other than
//! [`STEP_SET`] (each record shows its own `frame`, as OpenClaw plays them; the Gruntz engine
//! would hold or step the image instead), movement (`position_mode`, `delta_x`, `delta_y`), cue
//! strings (sounds) and event codes. Records after the one that finishes the animation
//! ([`LOOP_FINISH`]) are never reached in the game and are left out; such an animation plays
//! once, any other loops.

use std::collections::BTreeMap;

use super::model::*;
use crate::anim::{Animation, Builder, Sprite, SpriteId};
use crate::error::{Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Ani;

/// Side of the placeholder when no image of the set was found.
const PLACEHOLDER_SIDE: u32 = 32;

/// The animation `ani` plays, with the image set's frames from `frames` (see the module docs),
/// under the default [`Limits`].
pub fn to_animation(
    ani: &Ani,
    frames: &mut dyn FnMut(u32) -> Option<Sprite>,
) -> Result<(Animation, Vec<Warning>)> {
    to_animation_with(ani, frames, &Limits::default())
}

/// [`to_animation`] under explicit limits (the frames' pixels are charged to
/// `limits.max_alloc`).
pub fn to_animation_with(
    ani: &Ani,
    frames: &mut dyn FnMut(u32) -> Option<Sprite>,
    limits: &Limits,
) -> Result<(Animation, Vec<Warning>)> {
    let mut warnings = Vec::new();
    let warn = |warnings: &mut Vec<Warning>, path: &str, message: String| {
        warnings.push(Warning::warning(F, Location::path(path), message));
    };
    let played = match ani.records.iter().position(|r| r.loop_mode == LOOP_FINISH) {
        Some(last) => {
            let end = last.saturating_add(1);
            if end < ani.records.len() {
                warn(
                    &mut warnings,
                    "records",
                    format!(
                        "records {end}..{} come after record {last} finishes the animation and \
                         are left out",
                        ani.records.len()
                    ),
                );
            }
            ani.records.get(..end).unwrap_or(&ani.records)
        }
        None => &ani.records[..],
    };

    // Ask for each image once, in the order records first use them.
    let mut found: BTreeMap<u16, Option<Sprite>> = BTreeMap::new();
    for r in played {
        found
            .entry(r.frame)
            .or_insert_with(|| frames(u32::from(r.frame)));
    }
    let (w, h) = found
        .values()
        .flatten()
        .fold((0, 0), |(w, h), s| (w.max(s.width), h.max(s.height)));
    let placeholder = if (w, h) == (0, 0) {
        Sprite::placeholder(PLACEHOLDER_SIDE, PLACEHOLDER_SIDE)
    } else {
        Sprite::placeholder(w, h)
    };
    let mut builder = Builder::new(F);
    builder.set_looping(!ani.plays_once());
    let mut missing = Vec::new();
    let mut ids: BTreeMap<u16, SpriteId> = BTreeMap::new();
    let mut placeholder_id = None;
    for (frame, sprite) in found {
        let id = match sprite {
            Some(s) => builder.add_sprite(s),
            None => {
                missing.push(frame);
                *placeholder_id.get_or_insert_with(|| builder.add_sprite(placeholder.clone()))
            }
        };
        ids.insert(frame, id);
    }
    for r in played {
        let layers: Vec<_> = ids
            .get(&r.frame)
            .map(|&id| (id, 0, 0))
            .into_iter()
            .collect();
        builder.push_frame(r.duration_ms(), &layers);
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().take(12).map(u16::to_string).collect();
        warn(
            &mut warnings,
            "records",
            format!(
                "{} image(s) of the image set not found, drawn as placeholders: frame {}{}",
                missing.len(),
                list.join(", "),
                if missing.len() > 12 { ", …" } else { "" }
            ),
        );
    }
    let count = |f: &dyn Fn(&Record) -> bool| played.iter().filter(|r| f(r)).count();
    let stepped = count(&|r| r.step_mode != STEP_SET);
    if stepped > 0 {
        warn(
            &mut warnings,
            "records",
            format!(
                "{stepped} record(s) have a step mode other than 3 (set the image); each shows \
                 its own frame number, as OpenClaw plays them"
            ),
        );
    }
    let moving = count(&|r| r.position_mode != 0 && (r.delta_x != 0 || r.delta_y != 0));
    if moving > 0 {
        warn(
            &mut warnings,
            "records",
            format!("{moving} record(s) move the object; the animation does not move"),
        );
    }
    let cues = count(&|r| r.cue.is_some());
    if cues > 0 {
        warn(
            &mut warnings,
            "records",
            format!("{cues} cue string(s) (sounds) have no place in an animation image"),
        );
    }
    let events = count(&|r| r.event != 0);
    if events > 0 {
        warn(
            &mut warnings,
            "records",
            format!(
                "{events} event code(s) for the game object have no place in an animation image"
            ),
        );
    }
    Ok((builder.build(limits)?, warnings))
}
