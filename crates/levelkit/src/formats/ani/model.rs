//! The lossless ANI model: the 32-byte header with every word, the name, each 20-byte frame
//! record with all ten of its fields and its cue string, and any bytes after the last record.
//!
//! Field names follow the Gruntz decompilation (`CAniRecordView`), the only source that proves
//! each field's meaning from the game's own code; the names OpenClaw's `libwap` gives the same
//! words are in each field's documentation.

use serde::{Deserialize, Serialize};

use crate::strings::RawString;

/// Bytes of the header.
pub const HEADER_SIZE: usize = 0x20;

/// Bytes of a frame record before its optional cue string.
pub const RECORD_SIZE: usize = 0x14;

/// The value every known file has in the first header word (`0x20`, the header's size).
pub const SIGNATURE: u32 = 0x20;

/// Record flag: `duration` counts engine updates of [`TICK_MS`] each instead of milliseconds
/// (the retail `CAniRecordView::GetSize`; never set in shipped Gruntz files).
pub const FLAG_TICK_DURATION: u16 = 0x01;

/// Record flag: a NUL-terminated cue string (sound names) follows the record's 20 bytes.
pub const FLAG_HAS_CUE: u16 = 0x02;

/// Record flag: named "positional cue" by the Gruntz codec; no consumer is known.
pub const FLAG_POSITIONAL_CUE: u16 = 0x04;

/// Record flag: the cue fires even when the object is off screen (the retail
/// `CAniAdvanceCursor::Advance`).
pub const FLAG_FORCE_CUE: u16 = 0x08;

/// The record flags levelkit knows, with their names, for dumps and validation.
pub const RECORD_FLAGS: [(u16, &str); 4] = [
    (FLAG_TICK_DURATION, "TICK_DURATION"),
    (FLAG_HAS_CUE, "HAS_CUE"),
    (FLAG_POSITIONAL_CUE, "POSITIONAL_CUE"),
    (FLAG_FORCE_CUE, "FORCE_CUE"),
];

/// Milliseconds per engine update, for tick durations and the fallback of a zero or negative
/// duration (the retail `CAniRecordView::GetSize` returns 0x16).
pub const TICK_MS: u32 = 22;

/// Step mode: keep the current image (the `switch` default of the retail code).
pub const STEP_HOLD: u16 = 0;
/// Step mode: next image, wrapping.
pub const STEP_NEXT: u16 = 1;
/// Step mode: previous image, wrapping.
pub const STEP_PREV: u16 = 2;
/// Step mode: the image named by [`Record::frame`] (99.7 % of Gruntz records).
pub const STEP_SET: u16 = 3;

/// Loop mode: go on to the next record (most records).
pub const LOOP_NEXT: u16 = 0;
/// Loop mode: the animation ends here and stops advancing.
pub const LOOP_FINISH: u16 = 9;

/// A whole ANI file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ani {
    /// The 32-byte header, without the record count and name length (which the writer derives
    /// from [`Ani::records`] and [`Ani::name`]).
    pub header: Header,
    /// The name after the header, not NUL-terminated. OpenClaw calls it the image set path
    /// (`CLAW_IMAGES` in Claw's `DUCKPISTOL.ANI`); in Gruntz it is empty in 990 of 1038 files
    /// and stale editor residue in the rest, so nothing here reads meaning into it.
    pub name: RawString,
    /// The frame records, in file order.
    pub records: Vec<Record>,
    /// Bytes after the last record (none in any known file), kept so they are written back.
    #[serde(default, skip_serializing_if = "RawString::is_empty")]
    pub trailing: RawString,
}

/// The header words the file stores for their own sake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// `+0x00`: 0x20 in every known file ([`SIGNATURE`]); WAP32.rs calls it the header size,
    /// OpenClaw the signature; the retail game never reads it.
    pub signature: u32,
    /// `+0x04`: 0 in every known file; never read by the game (OpenClaw `unk0`).
    pub reserved_04: u32,
    /// `+0x08`: animation flags, OR-ed into the game object's flags (the retail
    /// `CAniElement::Build`); 0 in every known Gruntz file (OpenClaw `unk1`).
    pub flags: u32,
    /// `+0x14..0x20`: three words, 0 in every known file; never read (OpenClaw `unk2..unk4`).
    pub reserved_14: [u32; 3],
}

impl Default for Header {
    fn default() -> Self {
        Header {
            signature: SIGNATURE,
            reserved_04: 0,
            flags: 0,
            reserved_14: [0; 3],
        }
    }
}

/// One frame record: ten 16-bit words, then the cue string when [`FLAG_HAS_CUE`] is set.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Word 0: record flags ([`RECORD_FLAGS`]; OpenClaw `triggeredEventFlag`). Unknown bits are
    /// kept.
    pub flags: u16,
    /// Word 1: how the image index moves ([`STEP_SET`] and friends; OpenClaw `unk0`).
    pub step_mode: u16,
    /// Word 2: when to go on to the next record ([`LOOP_NEXT`], [`LOOP_FINISH`], …; OpenClaw
    /// `unk1`).
    pub loop_mode: u16,
    /// Word 3: how `delta_x`/`delta_y` move the object (0: not at all; OpenClaw `unk2`).
    pub position_mode: u16,
    /// Word 4: the image of the image set to show: the `NNN` of `FRAMENNN.PID` (OpenClaw
    /// `imageFileId`; the Gruntz engine's step parameter, an absolute image index under
    /// [`STEP_SET`]).
    pub frame: u16,
    /// Word 5: how long the record lasts: milliseconds, or engine updates under
    /// [`FLAG_TICK_DURATION`]; 0 or less means one update ([`Record::duration_ms`]).
    pub duration: i16,
    /// Word 6: the event code the game's object receives for this frame (1 animation
    /// complete, 2 effect frame, 99 tool applies; OpenClaw `unk3`).
    pub event: i16,
    /// Word 7: x movement under `position_mode` (0 in every known file; OpenClaw `unk4`).
    pub delta_x: i16,
    /// Word 8: y movement under `position_mode` (0 in every known file; OpenClaw `unk5`).
    pub delta_y: i16,
    /// Word 9: never read by the game; stale editor memory (always even), kept verbatim
    /// (OpenClaw's `unk6`/`unk7` bytes).
    pub reserved: u16,
    /// The cue string after the record (`CLAW_GUNSHOT`; Gruntz lists several sound names
    /// separated by white space), without its NUL. Present exactly when [`FLAG_HAS_CUE`] is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cue: Option<RawString>,
}

impl Record {
    /// A plain record showing image `frame` for `duration_ms` milliseconds, as the editor
    /// writes most records (step mode [`STEP_SET`]).
    pub fn new(frame: u16, duration_ms: i16) -> Record {
        Record {
            step_mode: STEP_SET,
            frame,
            duration: duration_ms,
            ..Record::default()
        }
    }

    /// This record with the cue string `cue` (sets [`FLAG_HAS_CUE`]).
    pub fn with_cue(mut self, cue: impl Into<RawString>) -> Record {
        self.flags |= FLAG_HAS_CUE;
        self.cue = Some(cue.into());
        self
    }

    /// Whether the flags say a cue string follows.
    pub fn has_cue_flag(&self) -> bool {
        self.flags & FLAG_HAS_CUE != 0
    }

    /// How long the record lasts in milliseconds, as the retail `CAniRecordView::GetSize`
    /// computes it: a duration of 0 or less is one update ([`TICK_MS`]); under
    /// [`FLAG_TICK_DURATION`] the duration counts updates.
    pub fn duration_ms(&self) -> u32 {
        match u32::try_from(self.duration) {
            Ok(0) | Err(_) => TICK_MS,
            Ok(n) if self.flags & FLAG_TICK_DURATION != 0 => n.saturating_mul(TICK_MS),
            Ok(n) => n,
        }
    }

    /// The sound names of the cue string, split at white space and control bytes (the retail
    /// `CAniRecordView::ResolveIndices`).
    pub fn cue_names(&self) -> impl Iterator<Item = &[u8]> {
        self.cue
            .as_ref()
            .map_or(&[][..], RawString::as_bytes)
            .split(|&b| b <= b' ')
            .filter(|s| !s.is_empty())
    }

    /// Bytes the record takes in the file.
    pub fn size(&self) -> usize {
        RECORD_SIZE.saturating_add(self.cue.as_ref().map_or(0, |c| c.len().saturating_add(1)))
    }
}

impl Ani {
    /// An animation with the default header, no name and these records.
    pub fn new(records: Vec<Record>) -> Ani {
        Ani {
            records,
            ..Ani::default()
        }
    }

    /// Total duration in milliseconds (each record's [`Record::duration_ms`]).
    pub fn total_duration_ms(&self) -> u64 {
        self.records
            .iter()
            .map(|r| u64::from(r.duration_ms()))
            .sum()
    }

    /// Whether the animation plays once: some record's loop mode is [`LOOP_FINISH`], where the
    /// game stops advancing. Otherwise it starts over after the last record.
    pub fn plays_once(&self) -> bool {
        self.records.iter().any(|r| r.loop_mode == LOOP_FINISH)
    }

    /// Bytes the file takes.
    pub fn size(&self) -> usize {
        self.records.iter().fold(
            HEADER_SIZE
                .saturating_add(self.name.len())
                .saturating_add(self.trailing.len()),
            |n, r| n.saturating_add(r.size()),
        )
    }
}
