//! What the reader, the writer, the builder and validation share: the header's field offsets,
//! the entry kinds, the length an entry takes in a body, the standard banner, and the text of a
//! `time_t`.

use super::model::{Directory, Entry};

/// Length of the header: the 127-byte text block, ten `u32` fields and the sorted flag.
pub const HEADER_LEN: usize = 168;
/// Length of the text block at the start.
pub const BANNER_LEN: usize = 127;
/// Length of one banner text line, between the CR LFs.
pub const BANNER_LINE: usize = 60;
/// The banner bytes the games check (`CRezMgr::Open` in Gruntz: `\r` at 0, `\n` at 0x3F and
/// 0x1A at 0x7E).
pub const BANNER_CHECKS: [(usize, u8); 3] = [(0x00, b'\r'), (0x3F, b'\n'), (0x7E, 0x1A)];
/// The first banner line of every known archive.
pub const BANNER_LINE_1: &[u8] = b"RezMgr Version 1 Copyright (C) 1995 MONOLITH INC.";
/// The only format version known.
pub const VERSION: u32 = 1;

/// Entry kind of a file.
pub const KIND_FILE: u32 = 0;
/// Entry kind of a directory.
pub const KIND_DIRECTORY: u32 = 1;
/// Fixed part of a directory entry: kind, pos, size, time.
pub const DIRECTORY_FIXED: u64 = 16;
/// Fixed part of a file entry: kind, pos, size, time, id, type, key count.
pub const FILE_FIXED: u64 = 28;

/// The standard 127-byte text block: CR LF, `line1` padded with spaces to 60 bytes, CR LF,
/// `line2` padded likewise, CR LF, 0x1A. Lines longer than 60 bytes are cut.
pub fn banner(line1: &[u8], line2: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(BANNER_LEN);
    for line in [line1, line2] {
        out.extend_from_slice(b"\r\n");
        let text = line.get(..BANNER_LINE.min(line.len())).unwrap_or(line);
        out.extend_from_slice(text);
        out.resize(out.len() + (BANNER_LINE - text.len()), b' ');
    }
    out.extend_from_slice(b"\r\n\x1a");
    out
}

/// The banner the tools write: [`BANNER_LINE_1`] and a blank second line.
pub fn standard_banner() -> Vec<u8> {
    banner(BANNER_LINE_1, b"")
}

/// Bytes an entry takes in its directory's body.
pub fn entry_len<D>(entry: &Entry<D>) -> u64 {
    match entry {
        Entry::Directory(d) => DIRECTORY_FIXED + d.name.len() as u64 + 1,
        Entry::File(f) => {
            FILE_FIXED
                + f.name.len() as u64
                + 1
                + f.comment.len() as u64
                + 1
                + 4 * f.keys.len() as u64
        }
    }
}

/// Bytes a directory's body takes: the sum of its entries.
pub fn body_len<D>(dir: &Directory<D>) -> u64 {
    dir.entries.iter().map(entry_len).sum()
}

/// A `time_t` as `YYYY-MM-DD HH:MM:SS` (UTC).
pub fn time_text(t: u32) -> String {
    let secs = u64::from(t);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Year, month and day of the `days`-th day after 1970-01-01 (Howard Hinnant's algorithm, for
/// the non-negative days a `u32` time can reach).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_banner() {
        assert_eq!(time_text(0), "1970-01-01 00:00:00");
        // Gruntz.REZ's header time, 0x366c4c5c, which rez-v1.md dates 1998-12-07.
        assert!(time_text(0x366c_4c5c).starts_with("1998-12-07"));
        assert_eq!(time_text(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(time_text(u32::MAX), "2106-02-07 06:28:15");
        let b = standard_banner();
        assert_eq!(b.len(), BANNER_LEN);
        for (at, byte) in BANNER_CHECKS {
            assert_eq!(b.get(at), Some(&byte));
        }
        assert!(b.ends_with(b"\r\n\x1a"));
    }
}
