//! Animations built from scratch by our own code, for tests, fuzzing seeds, benchmarks and
//! examples. No game data is copied: the names, frame numbers and timings are made up here in the
//! shapes the sources describe.

use super::model::*;
use crate::strings::RawString;

/// A Claw-style firing animation: an image set name, six frames of 80–120 ms, a gun-shot cue on
/// the third, and the stale odd-looking reserved word the editor leaves behind.
pub fn claw_like() -> Ani {
    let mut records: Vec<Record> = [
        (1u16, 100i16),
        (2, 80),
        (3, 80),
        (4, 120),
        (5, 80),
        (6, 100),
    ]
    .into_iter()
    .map(|(frame, ms)| Record::new(frame, ms))
    .collect();
    if let Some(r) = records.get_mut(2) {
        *r = r.clone().with_cue("GAME_SHOT");
    }
    if let Some(r) = records.last_mut() {
        r.reserved = 0x1898;
    }
    Ani {
        name: RawString::from("GAME_IMAGES"),
        ..Ani::new(records)
    }
}

/// A Gruntz-style tool animation that plays once: no name, an effect frame (event 2) with two
/// sounds, the "tool applies" event (99) near the end, an "animation complete" event (1) on the
/// last record, which finishes the animation (loop mode 9).
pub fn gruntz_like() -> Ani {
    let mut records: Vec<Record> = (0u16..8)
        .map(|i| Record::new(i, if i == 0 { 0 } else { 70 }))
        .collect();
    if let Some(r) = records.get_mut(3) {
        *r = r.clone().with_cue("GAME_SWING1 GAME_SWING2");
        r.event = 2;
    }
    if let Some(r) = records.get_mut(6) {
        r.event = 99;
    }
    if let Some(r) = records.last_mut() {
        r.event = 1;
        r.loop_mode = LOOP_FINISH;
        r.duration = 200;
    }
    Ani::new(records)
}

/// A deterministic pseudo-random animation of `records` records for sweeps and benchmarks:
/// every field varied, cues on about one record in five, an occasional name and trailing bytes.
pub fn generate(seed: u64, records: usize) -> Ani {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut word = || (next() & 0xFFFF) as u16;
    let list = (0..records)
        .map(|_| {
            let mut r = Record {
                flags: word() & 0x0D,
                step_mode: word() % 8,
                loop_mode: pick(&[0, 0, 0, 3, 8, 9], word()),
                position_mode: word() % 4,
                frame: word() % 96,
                duration: (word() % 600) as i16,
                event: pick(&[0, 0, 1, 2, 99], word()),
                delta_x: (word() % 9) as i16 - 4,
                delta_y: (word() % 9) as i16 - 4,
                reserved: word() & 0xFFFE,
                cue: None,
            };
            if word() % 5 == 0 {
                let n = usize::from(word() % 3) + 1;
                let names: Vec<String> =
                    (0..n).map(|_| format!("SOUND_{}", word() % 300)).collect();
                r = r.with_cue(names.join(" ").as_str());
            }
            r
        })
        .collect();
    Ani {
        header: Header {
            flags: u32::from(word() % 2),
            ..Header::default()
        },
        name: if word() % 3 == 0 {
            RawString::from("GAME_IMAGES_SAMPLE")
        } else {
            RawString::default()
        },
        records: list,
        trailing: if word() % 7 == 0 {
            RawString::from(&b"\0\0"[..])
        } else {
            RawString::default()
        },
    }
}

/// One of `choices`, chosen by `r`.
fn pick<T: Copy + Default>(choices: &[T], r: u16) -> T {
    choices
        .get(usize::from(r) % choices.len().max(1))
        .copied()
        .unwrap_or_default()
}
