//! The text forms of a PID: `levelkit info`'s rows and `levelkit dump`'s whole image (header,
//! flags, how the stream is spelled, the palette, the pixels as hex rows).

use std::fmt::{self, Write as _};

use super::model::{Grammar, Pid, PidFlags};
use super::rle::Literals;
use crate::codec::{flags_text, info_row};

/// The flags as hex with their names; unknown bits as hex.
pub fn flags(flags: PidFlags) -> String {
    flags_text(
        flags.bits(),
        flags.iter_names().map(|(n, _)| n),
        PidFlags::all().bits(),
    )
}

/// How the pixel stream is written back.
pub fn stream_note(pid: &Pid) -> String {
    match (&pid.original_stream, pid.grammar()) {
        (Some(s), _) => format!(
            "{} bytes kept as read (no encoder spelling reproduces them)",
            s.len()
        ),
        (None, Grammar::Runs) => format!(
            "re-encoded ({} literals)",
            match pid.spelling.literals {
                Literals::Decodable => "every byte below 0xC0 as",
                Literals::LowSixBits => "bytes below 0x40 as",
                Literals::HighBitClear => "bytes below 0x80 as",
                Literals::Never => "no",
            }
        ),
        (None, Grammar::Skips) => format!(
            "re-encoded (fill runs of at most {})",
            pid.spelling.fill_run_max
        ),
    }
}

/// The rows of `levelkit info`.
pub fn info_text(pid: &Pid) -> String {
    let mut s = String::new();
    let s = &mut s;
    info_row(s, "format", format_args!("pid, {}", pid.grammar().name()));
    info_row(s, "size", format_args!("{} x {}", pid.width, pid.height));
    info_row(
        s,
        "offset",
        format_args!("{}, {}", pid.offset_x, pid.offset_y),
    );
    info_row(s, "flags", flags(pid.flags));
    info_row(
        s,
        "palette",
        if pid.palette.is_some() {
            "embedded (768 bytes at the end)"
        } else {
            "none (drawn with the level's or a .PAL)"
        },
    );
    if pid.grammar() == Grammar::Skips {
        info_row(s, "fill index", pid.fill_index());
    }
    if pid.fill != 0 || pid.user != 0 {
        info_row(
            s,
            "user dwords",
            format_args!("0x{:08X} 0x{:08X}", pid.fill, pid.user),
        );
    }
    info_row(s, "stream", stream_note(pid));
    if !pid.trailing.is_empty() {
        info_row(s, "trailing", format_args!("{} bytes", pid.trailing.len()));
    }
    std::mem::take(s)
}

/// The text dump; `name` is the file's name.
pub fn dump(name: &str, pid: &Pid) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_pid(&mut s, name, pid);
    s
}

fn dump_pid(s: &mut String, name: &str, pid: &Pid) -> fmt::Result {
    writeln!(
        s,
        "{name}: pid image {} x {}, {}",
        pid.width,
        pid.height,
        pid.grammar().name()
    )?;
    writeln!(s, "file desc       {}", pid.file_desc)?;
    writeln!(s, "flags           {}", flags(pid.flags))?;
    writeln!(s, "offset          {}, {}", pid.offset_x, pid.offset_y)?;
    writeln!(s, "fill            0x{:08X}", pid.fill)?;
    writeln!(s, "user            0x{:08X}", pid.user)?;
    writeln!(s, "stream          {}", stream_note(pid))?;
    if !pid.trailing.is_empty() {
        writeln!(s, "trailing        {}", hex::encode(&pid.trailing))?;
    }
    match &pid.palette {
        Some(p) => {
            writeln!(s, "palette (embedded)")?;
            s.push_str(&p.dump_rows("  "));
        }
        None => writeln!(s, "palette         none")?,
    }
    writeln!(s, "pixels (palette indices, one row a line)")?;
    let width = usize::try_from(pid.width).unwrap_or(usize::MAX).max(1);
    for (y, row) in pid.pixels.chunks(width).enumerate() {
        writeln!(s, "  {y:4}: {}", hex::encode(row))?;
    }
    Ok(())
}
