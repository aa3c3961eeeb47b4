//! GANI: Graal Online animations (`.gani`).
//!
//! Spec: `shared/specs/graal-notes.md` section 4 (`graal.txt` leaves `.gani` empty), which
//! draws on TilesEditor's `Ani.cpp`, OpenGraal's `gani.cpp`, GServer-v2's `GameAni.cpp` and real
//! files. A `.gani` is text, one statement per line, tokens separated by spaces, bytes in
//! Windows-1252, LF or CRLF line breaks.
//!
//! Supported: the optional `GANI0001` / `GANI0002` header (most real files have none);
//! `SPRITE` (negative indices, slot or file source, rectangle, free-text description);
//! `ATTACHSPRITE` / `ATTACHSPRITE2`; `STRETCHXEFFECT`, `STRETCHYEFFECT`, `ZOOMEFFECT`,
//! `ROTATEEFFECT` (radians), `COLOREFFECT`, `EFFECTMODE`, `LAYER`; `LOOP`, `CONTINUOUS`,
//! `SINGLEDIRECTION` / `SINGLEDIR` with the optional number of GServer's newer loader;
//! `SETBACKTO`; `DEFAULT<SLOT>`; `BACKCOLOR`; `FRAMES`; the `ANI` … `ANIEND` frames (four
//! direction lines up, left, down, right, or one after `SINGLEDIRECTION`; empty direction lines
//! are counted, not skipped, which OpenGraal gets wrong; placements `spriteRef x y` with `PARAM<n>`
//! references and fractional offsets; any number of `WAIT` and `PLAYSOUND` per frame);
//! `SCRIPT` … `SCRIPTEND` and `MOVIE` … `MOVIEEND` kept verbatim; unknown lines kept in place.
//! Statements are kept in file order ([`Statement`]), because order is meaning here:
//! `SINGLEDIRECTION` changes how a *later* `ANI` block is read, as in TilesEditor.
//!
//! Byte-exactness: an unchanged file is written back byte for byte. Each line-shaped item keeps
//! the line as read (`raw`) only where it differs from levelkit's canonical formatting (column
//! alignment, number spellings such as `1.50`, the `SINGLEDIR` alias, trailing spaces); the
//! writer re-emits it while it still parses to the item's values and formats the item
//! canonically once edited, the way TilesEditor writes. Line endings are kept per line
//! ([`Layout`]). Models built from scratch ([`Gani::new`]) are written canonically with a
//! `GANI0001` header and LF. The writer refuses a model that would not read back as itself
//! (see [`write()`]), and [`validate`] reports the same findings.
//!
//! Timing: a frame lasts one 50 ms tick plus one per `WAIT` unit ([`Frame::duration_ms`]), the
//! TilesEditor and GaniEditorWeb model; OpenGraal uses 0.06 s and n × 0.1 s instead.
//!
//! Reading is lenient where real files vary: a line that does not parse (a `SPRITE` with five
//! numbers, a placement `foo 1 2`) is kept verbatim as [`Statement::Unknown`] or
//! [`FrameCommand::Unknown`] and reported by [`validate`], never altered or dropped. Only an
//! `ANI`, `SCRIPT` or `MOVIE` block without its closing line (a truncated file) is an error.
//!
//! Not supported: the meaning of `MOVIE` blocks (one real file, no public parser; kept as
//! lines; drawing a gani whose only animation is a `MOVIE` is refused at the block's line, and
//! one with `ANI` frames too draws those, with a warning), and GScript inside `SCRIPT` (kept as lines). There is no conversion to the tile map or
//! scene models: an animation is neither. [`render`] draws a gani with its images as the common
//! animation model ([`crate::anim`]), one animation per direction, for GIF, APNG and sprite
//! sheets.
//!
//! ```
//! use levelkit::formats::graal::gani;
//!
//! // A headerless CRLF file with hand-typed spacing and the SINGLEDIR alias.
//! let bytes = b"SPRITE 0 SPRITES 0 0 24 12 shadow\r\nSPRITE 1 BODY 0 0 32 32\r\n\
//!     SINGLEDIR\r\n\r\nANI\r\n0 12 36, 1 8 16\r\nWAIT 3\r\n\r\n1 8 17\r\n\r\nANIEND\r\n";
//! let anim = gani::Gani::read(bytes)?;
//! assert_eq!(anim.summary().sprites, 2);
//! assert_eq!(anim.frame_durations_ms(), [200, 50]);
//! assert!(anim.validate().is_empty());
//! assert_eq!(anim.write()?, bytes); // byte for byte
//!
//! // Our own four-direction sample, written canonically and read back.
//! let walk = gani::samples::walk_like();
//! let again = gani::Gani::read(&walk.write()?)?;
//! assert_eq!(again, walk);
//! assert_eq!(again.summary().directions, 4);
//! # Ok::<(), levelkit::Error>(())
//! ```

mod canonical;
mod codec;
mod dump;
mod model;
mod read;
pub mod render;
pub mod samples;
mod validate;
mod write;

use std::collections::{HashMap, HashSet};

pub use model::*;
pub use read::{read, read_with};
pub use validate::validate;
pub use write::write;

use crate::error::{Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gani;

impl Gani {
    /// Read a file (see [`read()`]).
    pub fn read(bytes: &[u8]) -> Result<Gani> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Gani> {
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
    /// `"GANI0001"`, `"GANI0002"`, or `None` for a file without a header line.
    pub header: Option<String>,
    /// Sprite definitions.
    pub sprites: usize,
    /// Frames over all `ANI` blocks.
    pub frames: usize,
    /// Direction lines per frame: 4, or 1 for a single-direction animation.
    pub directions: usize,
    /// Total duration in milliseconds (50 ms per frame plus 50 ms per `WAIT` unit).
    pub total_duration_ms: u64,
    /// The flags that are set: `"LOOP"`, `"CONTINUOUS"`, `"SINGLEDIRECTION"`.
    pub flags: Vec<&'static str>,
    /// The `SETBACKTO` animation.
    pub set_back_to: Option<String>,
    /// `PLAYSOUND` commands over all frames.
    pub sounds: usize,
    /// Lines of the `SCRIPT` block, if there is one.
    pub script_lines: Option<usize>,
    /// Lines kept verbatim because levelkit does not recognise them (statements and frame
    /// lines).
    pub unknown_lines: usize,
    /// `"lf"`, `"crlf"`, or `"mixed"`.
    pub line_endings: &'static str,
}

impl Gani {
    /// Summarise the animation.
    pub fn summary(&self) -> Summary {
        let unknown_frame_lines: usize = self
            .frames()
            .map(|f| {
                f.commands
                    .iter()
                    .filter(|c| matches!(c, FrameCommand::Unknown(_)))
                    .count()
            })
            .sum();
        let unknown_statements = self
            .statements
            .iter()
            .filter(|s| matches!(s, Statement::Unknown(_)))
            .count();
        Summary {
            header: self
                .header
                .as_ref()
                .map(|h| format!("GANI{:04}", h.version)),
            sprites: self.sprites().count(),
            frames: self.frames().count(),
            directions: self.direction_count(),
            total_duration_ms: self.total_duration_ms(),
            flags: [
                FlagKind::Loop,
                FlagKind::Continuous,
                FlagKind::SingleDirection,
            ]
            .into_iter()
            .filter(|&k| self.flag(k))
            .map(FlagKind::keyword)
            .collect(),
            set_back_to: self.set_back_to().map(RawString::display),
            sounds: self.frames().map(|f| f.sounds().count()).sum(),
            script_lines: self.script().map(|s| s.lines.len()),
            unknown_lines: unknown_statements + unknown_frame_lines,
            line_endings: match (
                self.layout.line_ending,
                self.layout.other_endings.is_empty(),
            ) {
                (_, false) => "mixed",
                (LineEnding::Lf, true) => "lf",
                (LineEnding::CrLf, true) => "crlf",
            },
        }
    }
}
