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
//! lines), and GScript inside `SCRIPT` (kept as lines). There is no conversion to the common
//! models: an animation is not a tile map.
//!
//! ```
//! use levelkit::formats::gani;
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

mod codec;
mod dump;
mod model;
mod read;
pub mod samples;
mod write;

use std::collections::{HashMap, HashSet};

pub use model::*;
pub use read::{read, read_with};
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

/// The usage of a keyword, for messages about lines that do not parse.
fn usage(keyword: &[u8]) -> Option<&'static str> {
    Some(match keyword {
        b"SPRITE" => "SPRITE index source left top width height [description]",
        b"ATTACHSPRITE" => "ATTACHSPRITE parent child x y",
        b"ATTACHSPRITE2" => "ATTACHSPRITE2 parent child x y",
        b"STRETCHXEFFECT" => "STRETCHXEFFECT sprite factor",
        b"STRETCHYEFFECT" => "STRETCHYEFFECT sprite factor",
        b"ZOOMEFFECT" => "ZOOMEFFECT sprite factor",
        b"ROTATEEFFECT" => "ROTATEEFFECT sprite radians",
        b"COLOREFFECT" => "COLOREFFECT sprite r g b a",
        b"EFFECTMODE" => "EFFECTMODE sprite mode",
        b"LAYER" => "LAYER sprite layer",
        b"LOOP" => "LOOP [number]",
        b"CONTINUOUS" => "CONTINUOUS [number]",
        b"SINGLEDIRECTION" | b"SINGLEDIR" => "SINGLEDIRECTION [number]",
        b"SETBACKTO" => "SETBACKTO name",
        b"BACKCOLOR" => "BACKCOLOR value",
        b"FRAMES" => "FRAMES count",
        b"WAIT" => "WAIT ticks",
        b"PLAYSOUND" => "PLAYSOUND sound x y",
        k if k.starts_with(b"DEFAULT") => "DEFAULT<SLOT> value",
        _ => return None,
    })
}

/// Why a line was kept verbatim.
fn explain(line: &RawString, frame: bool) -> String {
    let keyword = read::first_token(line.as_bytes()).unwrap_or(&[]);
    match usage(keyword) {
        Some(usage) => format!(
            "`{}` does not match `{usage}` (integers for indices, plain decimals for the rest); \
             kept verbatim",
            line.display()
        ),
        None if keyword.starts_with(b"GANI") && !frame => {
            "a GANI header that is not the first line; kept verbatim".to_string()
        }
        None if frame => format!(
            "`{}` is neither a direction line nor WAIT or PLAYSOUND; kept verbatim",
            line.display()
        ),
        None => format!(
            "unknown statement `{}`; kept verbatim",
            RawString::from(keyword).display()
        ),
    }
}

/// Check an animation and collect every finding, with its path.
///
/// Errors: what keeps the model from being written so that it reads back as itself (the
/// writer refuses such a model; a model read from a file never has any). Warnings: lines kept
/// verbatim because they do not parse, duplicate sprite indices (TilesEditor keeps the last),
/// attachments and effects naming a sprite not defined before them (TilesEditor ignores them;
/// effects on sprite −1 are allowed), placements naming undefined sprites, frames whose
/// direction-line count is not 4 (or 1 for single-direction animations), `SINGLEDIRECTION`
/// after the `ANI` block, no or several `ANI` blocks, an unknown header version, `MOVIE` or
/// `FRAMES` without `GANI0002`, and line-ending exceptions that name no line.
pub fn validate(gani: &Gani) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut lines = 0usize;
    for (path, message) in write::problems(gani) {
        out.push(Warning::error(F, Location::path(path), message));
    }
    let warn = |out: &mut Vec<Warning>, path: String, message: String| {
        out.push(Warning::warning(F, Location::path(path), message));
    };
    let version = gani.header.as_ref().map(|h| h.version);
    if let Some(v) = version {
        lines += 1;
        if !matches!(v, 1 | 2) {
            warn(
                &mut out,
                "header".into(),
                format!("header GANI{v:04} is neither GANI0001 nor GANI0002"),
            );
        }
    }
    let defined: HashSet<i32> = gani.sprites().map(|s| s.index).collect();
    let mut seen: HashMap<i32, usize> = HashMap::new();
    let mut single = false;
    let mut anis = 0usize;
    for (i, statement) in gani.statements.iter().enumerate() {
        let path = format!("statements[{i}]");
        lines += statement_lines(statement);
        match statement {
            Statement::Sprite(s) => {
                if let Some(first) = seen.get(&s.index) {
                    warn(
                        &mut out,
                        path,
                        format!(
                            "sprite {} is defined again (first at statements[{first}]); \
                             TilesEditor keeps the last definition",
                            s.index
                        ),
                    );
                } else {
                    seen.insert(s.index, i);
                }
            }
            Statement::Attach(a) => {
                if !seen.contains_key(&a.parent) {
                    warn(
                        &mut out,
                        path.clone(),
                        format!(
                            "attachment to sprite {}, which is not defined before this line \
                             (TilesEditor ignores the attachment)",
                            a.parent
                        ),
                    );
                }
                if !defined.contains(&a.child) {
                    warn(
                        &mut out,
                        path,
                        format!("attached sprite {} is not defined", a.child),
                    );
                }
            }
            Statement::Effect(e) if e.sprite != -1 && !seen.contains_key(&e.sprite) => {
                warn(
                    &mut out,
                    path,
                    format!(
                        "{} on sprite {}, which is not defined before this line \
                         (TilesEditor ignores the effect)",
                        e.value.keyword(),
                        e.sprite
                    ),
                );
            }
            Statement::Flag(f) if f.flag == FlagKind::SingleDirection => {
                if anis > 0 {
                    warn(
                        &mut out,
                        path,
                        "SINGLEDIRECTION after the ANI block: editors have already read its \
                         frames with four direction lines"
                            .into(),
                    );
                }
                single = f.sets();
            }
            Statement::Ani(a) => {
                anis += 1;
                if anis == 2 {
                    warn(
                        &mut out,
                        path.clone(),
                        "a second ANI block (TilesEditor appends its frames to the first's)".into(),
                    );
                }
                let n = if single { 1 } else { FOUR_DIRECTIONS };
                validate_ani(a, n, &defined, &path, &mut out);
            }
            Statement::Movie(_) | Statement::Frames(_) if version != Some(2) => warn(
                &mut out,
                path,
                format!(
                    "{} belongs to GANI0002 files, and this one is not",
                    statement.keyword()
                ),
            ),
            Statement::Unknown(u) => warn(&mut out, path, explain(&u.line, false)),
            _ => {}
        }
    }
    if anis == 0 {
        warn(
            &mut out,
            "statements".into(),
            "no ANI block: the animation has no frames".into(),
        );
    }
    for &k in &gani.layout.other_endings {
        let last_unterminated = !gani.layout.final_newline && (k as usize) + 1 == lines;
        if k as usize >= lines || last_unterminated {
            warn(
                &mut out,
                "layout.other_endings".into(),
                format!("line {k} is listed for the other line ending but has no line break"),
            );
        }
    }
    out
}

/// How many lines a statement takes when written.
fn statement_lines(statement: &Statement) -> usize {
    match statement {
        Statement::Ani(a) => {
            let frames: usize = a
                .frames
                .iter()
                .map(|f| f.directions.len() + f.commands.len())
                .sum();
            2 + frames + a.frames.len().saturating_sub(1) + usize::from(a.end_blank.is_some())
        }
        Statement::Script(b) | Statement::Movie(b) => 2 + b.lines.len(),
        _ => 1,
    }
}

fn validate_ani(
    block: &AniBlock,
    n: usize,
    defined: &HashSet<i32>,
    path: &str,
    out: &mut Vec<Warning>,
) {
    for (fi, frame) in block.frames.iter().enumerate() {
        let frame_path = format!("{path}.frames[{fi}]");
        if frame.directions.len() != n {
            out.push(Warning::warning(
                F,
                Location::path(frame_path.clone()),
                format!(
                    "frame has {} direction lines; {}",
                    frame.directions.len(),
                    if n == 1 {
                        "a single-direction animation has 1".to_string()
                    } else {
                        "a four-direction animation has 4 (up, left, down, right)".to_string()
                    }
                ),
            ));
        }
        for (di, direction) in frame.directions.iter().enumerate() {
            let mut missing: Vec<String> = direction
                .placements
                .iter()
                .filter_map(|p| match p.sprite {
                    SpriteRef::Index(i) if !defined.contains(&i) => Some(i.to_string()),
                    _ => None,
                })
                .collect();
            missing.dedup();
            if !missing.is_empty() {
                out.push(Warning::warning(
                    F,
                    Location::path(format!("{frame_path}.directions[{di}]")),
                    format!("placements name undefined sprites {}", missing.join(", ")),
                ));
            }
        }
        for (ci, command) in frame.commands.iter().enumerate() {
            if let FrameCommand::Unknown(u) = command {
                out.push(Warning::warning(
                    F,
                    Location::path(format!("{frame_path}.commands[{ci}]")),
                    explain(&u.line, true),
                ));
            }
        }
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
