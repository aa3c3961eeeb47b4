//! ANI: WAP32 sprite animations (Captain Claw, Gruntz; `.ani` inside the game's REZ archive).
//!
//! An ANI carries no pixels. It is a list of records, each showing one image of an image set
//! (the `FRAMENNN.PID` files of a REZ folder) for a duration, and possibly firing sounds and
//! game events. Not to be confused with the Windows animated cursor `.ani`, a RIFF file, which
//! [`crate::registry::sniff`] does not claim.
//!
//! # Layout
//!
//! ```text
//! +0x00  u32   signature: 0x20 in every known file        (never read by the game)
//! +0x04  u32   0 in every known file                       (never read)
//! +0x08  u32   animation flags, OR-ed into the object's    (0 in every known Gruntz file)
//! +0x0c  u32   record count
//! +0x10  u32   name length
//! +0x14  3 × u32, 0 in every known file                    (never read)
//! +0x20  name, `name length` bytes, no NUL
//! then `record count` records of ten 16-bit little-endian words:
//!   flags, step mode, loop mode, position mode, frame, duration, event, delta x, delta y,
//!   reserved
//! each followed by a NUL-terminated cue string when flags bit 0x2 is set
//! ```
//!
//! # Sources, and where they disagree
//!
//! * OpenClaw's `libwap` (`AniFile.cpp`, `libwap.h`): the header as signature, two unknown words,
//!   frame count, "image set path" length, three unknown words; records with
//!   `triggeredEventFlag`, three unknown words, `imageFileId`, `duration`, three unknown words
//!   and two unknown bytes; the event (sound) path read when the flag **equals 2**. Its test
//!   reads Claw's `DUCKPISTOL.ANI`: 11 frames, name `CLAW_IMAGES`, record 3 flag 2 with
//!   `CLAW_GUNSHOT`, record 10's last two bytes 152 and 24.
//! * `sushi-shi/gruntz-decomp` (`docs/formats/ani-v1.md`, `tools/gruntz-codec/src/ani.rs`),
//!   proven against the game's code (`CAniElement::Build`, `CAniRecordView::Parse` and
//!   `GetSize`, `CAniAdvanceCursor::Advance`) and all 1038 Gruntz ANI files (13 480 records):
//!   the meaning of every word, which this model's names follow; the cue string read when flag
//!   **bit** 0x2 is set (`test 0x2`); durations in milliseconds, counted in 22 ms updates under
//!   flag bit 0x1 and one update when 0 or less; the record count and the name as signed and
//!   the first eight header bytes as one opaque prefix; bytes after the last record kept.
//! * `boozook/WAP32.rs` (`ani` crate): header size (0x20), gap, frame count, name length ("offset"),
//!   gap; duration at record byte 10; the cue skipped when bit 0x2 is set; a file with any
//!   duration of 0 gets 40 ms for every frame.
//! * A Captain Claw remake's `Animation.cpp` (found by the code search; built on OpenClaw's
//!   reading): refuses a file whose first byte is not 0x20; takes the low byte of the step-mode
//!   word as "use the sound file"; names images `/%03d.PID` after `imageFileId`.
//! * `fizary/wap32` (TypeScript): REZ and PID readers only; no ANI.
//!
//! The disagreements, and what this reader does: the cue flag is a bit test (the game's own code;
//! the equality test of OpenClaw reads the same bytes for every known file, whose flags are 0 or 2
//! only); durations follow the game (`GetSize`), not WAP32.rs's 40 ms fallback nor OpenClaw's
//! unsigned word; the counts are read unsigned, so a "negative" count is simply more records than
//! the file has, and the name is neither a path nor meaningful in Gruntz (990 files have none,
//! most others a stale editor default), so it is kept as bytes. Nothing is refused for a value
//! the sources disagree on: every word is kept, and [`validate`] reports what no known file has.
//!
//! Real files: no ANI file is in any public repository the search tool can see (the WAP32 readers
//! and the Gruntz decompilation ship none; the corpus has none), so the tests run on files made by
//! our own writer, on the facts the sources state about real ones (`DUCKPISTOL.ANI`'s fields),
//! and on sweeps.
//!
//! # Conversion
//!
//! [`to_animation`] turns the records into the common [`crate::anim::Animation`] with the image
//! set's frames from the caller; [`crate::anim`] writes it as GIF, APNG or a sprite sheet.
//!
//! ```
//! use levelkit::anim::Sprite;
//! use levelkit::formats::ani::{self, Ani, Record};
//!
//! let mut anim = Ani::new(vec![Record::new(1, 100), Record::new(2, 150).with_cue("SHOT")]);
//! anim.name = "GAME_IMAGES".into();
//! let bytes = anim.write()?;
//! let back = Ani::read(&bytes)?;
//! assert_eq!(back, anim);
//! assert_eq!(back.summary().total_duration_ms, 250);
//!
//! // Frame 1 is a 4x4 white square; frame 2 is missing and becomes a placeholder.
//! let (played, warnings) = ani::to_animation(&back, &mut |frame| {
//!     (frame == 1).then(|| Sprite::centred(4, 4, vec![255; 64], 0, 0).unwrap())
//! })?;
//! assert_eq!(played.frames.len(), 2);
//! assert!(warnings.iter().any(|w| w.message.contains("placeholder")));
//! # Ok::<(), levelkit::Error>(())
//! ```

mod anim;
mod codec;
mod dump;
mod model;
mod read;
pub mod samples;
mod validate;
mod write;

pub use anim::{to_animation, to_animation_with};
pub use dump::record_flags_text;
pub use model::*;
pub use read::{read, read_with};
pub use validate::validate;
pub use write::write;

use std::collections::BTreeSet;

use crate::error::{Result, Warning};
use crate::limits::Limits;

impl Ani {
    /// Read a file (see [`read()`]).
    pub fn read(bytes: &[u8]) -> Result<Ani> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Ani> {
        read_with(bytes, limits)
    }

    /// Write the animation (see [`write()`]).
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Check the animation and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// The name after the header (often empty).
    pub name: String,
    /// Frame records.
    pub frames: usize,
    /// Total duration in milliseconds.
    pub total_duration_ms: u64,
    /// `"loop"`, or `"once"` when a record finishes the animation.
    pub plays: &'static str,
    /// Distinct images of the image set the records show.
    pub images: usize,
    /// Records with a cue string.
    pub cues: usize,
    /// Records with an event code.
    pub events: usize,
    /// The header's animation flags.
    pub flags: u32,
    /// Bytes after the last record.
    pub trailing_bytes: usize,
}

impl Ani {
    /// Summarise the animation.
    pub fn summary(&self) -> Summary {
        Summary {
            name: self.name.display(),
            frames: self.records.len(),
            total_duration_ms: self.total_duration_ms(),
            plays: if self.plays_once() { "once" } else { "loop" },
            images: self
                .records
                .iter()
                .map(|r| r.frame)
                .collect::<BTreeSet<_>>()
                .len(),
            cues: self.records.iter().filter(|r| r.cue.is_some()).count(),
            events: self.records.iter().filter(|r| r.event != 0).count(),
            flags: self.header.flags,
            trailing_bytes: self.trailing.len(),
        }
    }
}
