//! Validation: every finding with its path; errors (the writer refuses the model) apart from
//! warnings (the games would still load the image, or a reader would differ from another).

use super::model::{FILE_DESC, Grammar, Pid, PidFlags};
use super::rle;
use super::write;
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Pid;

/// Every finding about `pid`.
pub fn validate(pid: &Pid) -> Vec<Warning> {
    let mut out = Vec::new();
    if let Err(e) = write::check(pid) {
        out.push(Warning::error(F, e.location, e.message));
        return out;
    }
    if pid.file_desc != FILE_DESC {
        out.push(Warning::warning(
            F,
            Location::at(0),
            format!(
                "the first dword is {} where every shipped PID has {FILE_DESC} (no reader \
                 checks it)",
                pid.file_desc
            ),
        ));
    }
    let unknown = pid.flags.bits() & !PidFlags::all().bits();
    if unknown != 0 {
        out.push(Warning::warning(
            F,
            Location::at(4),
            format!("unknown flag bits 0x{unknown:X} (kept as they are)"),
        ));
    }
    if pid.flags.contains(PidFlags::KEY_INDEX) && pid.fill > 0xFF {
        out.push(Warning::warning(
            F,
            Location::at(0x18),
            format!(
                "fill 0x{:X} is more than a palette index; the skip grammar uses its low byte \
                 (0x{:02X})",
                pid.fill,
                pid.fill_index()
            ),
        ));
    }
    if let Some(stream) = &pid.original_stream {
        let skips = pid.grammar() == Grammar::Skips;
        let odd = rle::oddities(
            stream,
            usize::try_from(pid.width).unwrap_or(usize::MAX),
            pid.pixels.len(),
            skips,
        );
        let at = Location::at(32 + odd.first_at.unwrap_or(0) as u64);
        if odd.row_crossings > 0 {
            out.push(Warning::warning(
                F,
                at.clone(),
                format!(
                    "{} token(s) run past the end of a row; levelkit, OpenClaw and WAP32.rs carry \
                     them into the next row, but Gruntz's two decoders disagree on them \
                     (RunDecode1 carries, DecodePidData spills)",
                    odd.row_crossings
                ),
            ));
        }
        if odd.empty_tokens > 0 {
            out.push(Warning::warning(
                F,
                at,
                format!(
                    "{} token(s) say zero pixels{}",
                    odd.empty_tokens,
                    if skips {
                        ""
                    } else {
                        " (`C0 v`: read as nothing here and by Gruntz's DecodePidData, as a \
                         literal 0xC0 by OpenClaw and WAP32.rs, and Gruntz's RunDecode1 hangs)"
                    }
                ),
            ));
        }
    }
    if !pid.trailing.is_empty() {
        out.push(Warning::warning(
            F,
            Location::path("trailing"),
            format!(
                "{} byte(s) after the pixel stream (kept as they are)",
                pid.trailing.len()
            ),
        ));
    }
    if let Some(palette) = &pid.palette
        && palette.looks_six_bit()
    {
        out.push(Warning::warning(
            F,
            Location::path("palette"),
            "every palette component is below 64 (6-bit VGA values?); drawn as stored",
        ));
    }
    out
}
