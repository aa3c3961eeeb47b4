//! REZ writer, the mirror of `read.rs`: the header, each directory body at its position, each
//! file's data at its position, and the gaps, into one image.
//!
//! The model says where everything goes, so writing is placing: every byte of the image must be
//! claimed by exactly one meaning (the header, a body, a file, a gap), or by several that agree
//! byte for byte (two entries sharing data). A model whose pieces disagree, leave a hole, or
//! whose sizes do not match its contents is refused with the path of the piece; validation
//! reports the same ([`problems`]). A model read from a file never is: it writes the same bytes.
//! [`super::Rez::repack`] lays an edited model out afresh.

use super::layout::{BANNER_LEN, HEADER_LEN, KIND_DIRECTORY, KIND_FILE, body_len};
use super::model::{Blob, Directory, Entry, Rez};
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Rez;

/// A piece of the image: where it goes, its bytes, and what it is (for messages).
struct Piece<'a> {
    start: u64,
    bytes: std::borrow::Cow<'a, [u8]>,
    what: String,
}

/// Write the archive. Fails on the first of the problems `problems` lists.
pub fn write(rez: &Rez) -> Result<Vec<u8>> {
    if let Some((path, message)) = problems(rez).into_iter().next() {
        return Err(Error::malformed(F, Location::path(path), message));
    }
    let mut pieces = Vec::new();
    pieces.push(Piece {
        start: 0,
        bytes: write_header(rez).into(),
        what: "the header".into(),
    });
    write_directory(&rez.root, "", &mut pieces);
    for gap in &rez.gaps {
        pieces.push(Piece {
            start: u64::from(gap.offset),
            bytes: gap.bytes.0.as_slice().into(),
            what: format!("the gap at 0x{:x}", gap.offset),
        });
    }
    place(pieces)
}

/// The 168-byte header.
fn write_header(rez: &Rez) -> Vec<u8> {
    let h = &rez.header;
    let mut w = ByteWriter::with_capacity(HEADER_LEN);
    w.put_bytes(h.banner.as_bytes());
    for v in [
        h.version,
        rez.root.pos,
        rez.root.size,
        rez.root.time,
        h.next_write_pos,
        h.time,
        h.largest_key_array,
        h.largest_dir_name,
        h.largest_file_name,
        h.largest_comment,
    ] {
        w.put_u32_le(v);
    }
    w.put_u8(h.is_sorted);
    w.into_inner()
}

/// A directory's body and its files' data as pieces, then its subdirectories'.
fn write_directory<'a>(dir: &'a Directory<Blob>, path: &str, pieces: &mut Vec<Piece<'a>>) {
    let mut body = ByteWriter::with_capacity(body_len(dir) as usize);
    for entry in &dir.entries {
        write_entry(entry, &mut body);
    }
    if !body.is_empty() {
        pieces.push(Piece {
            start: u64::from(dir.pos),
            bytes: body.into_inner().into(),
            what: directory_what(path),
        });
    }
    for entry in &dir.entries {
        match entry {
            Entry::File(f) => pieces.push(Piece {
                start: u64::from(f.pos),
                bytes: f.data.0.as_slice().into(),
                what: format!("the data of `{path}{}`", f.file_name_text()),
            }),
            Entry::Directory(d) => {
                write_directory(d, &format!("{path}{}/", d.name.display()), pieces);
            }
        }
    }
}

/// One entry as it stands in a body.
fn write_entry(entry: &Entry<Blob>, w: &mut ByteWriter) {
    match entry {
        Entry::Directory(d) => {
            for v in [KIND_DIRECTORY, d.pos, d.size, d.time] {
                w.put_u32_le(v);
            }
            w.put_bytes(d.name.as_bytes());
            w.put_u8(0);
        }
        Entry::File(f) => {
            for v in [KIND_FILE, f.pos, f.size, f.time, f.id] {
                w.put_u32_le(v);
            }
            w.put_bytes(&f.fourcc.0);
            w.put_u32_le(u32::try_from(f.keys.len()).unwrap_or(u32::MAX));
            w.put_bytes(f.name.as_bytes());
            w.put_u8(0);
            w.put_bytes(f.comment.as_bytes());
            w.put_u8(0);
            for &k in &f.keys {
                w.put_u32_le(k);
            }
        }
    }
}

fn directory_what(path: &str) -> String {
    if path.is_empty() {
        "the root directory's body".into()
    } else {
        format!("the body of `{}`", path.trim_end_matches('/'))
    }
}

/// Put every piece in its place, refusing holes and pieces that overlap with other bytes.
fn place(mut pieces: Vec<Piece<'_>>) -> Result<Vec<u8>> {
    pieces.sort_by_key(|p| p.start);
    let len = pieces
        .iter()
        .map(|p| p.start + p.bytes.len() as u64)
        .max()
        .unwrap_or(0);
    let mut out = vec![0u8; len as usize];
    let mut covered = 0u64;
    let mut last_what = String::new();
    for piece in &pieces {
        let (start, end) = (piece.start, piece.start + piece.bytes.len() as u64);
        if start > covered {
            return Err(Error::malformed(
                F,
                Location::at(covered),
                format!(
                    "bytes 0x{covered:x}..0x{start:x} belong to nothing (no header, body, file or \
                     gap); add a gap or repack"
                ),
            ));
        }
        let overlap_end = end.min(covered);
        if overlap_end > start {
            let old = out.get(start as usize..overlap_end as usize).unwrap_or(&[]);
            let new = piece
                .bytes
                .get(..(overlap_end - start) as usize)
                .unwrap_or(&[]);
            if old != new {
                let at = start
                    + old
                        .iter()
                        .zip(new)
                        .position(|(a, b)| a != b)
                        .unwrap_or_default() as u64;
                return Err(Error::malformed(
                    F,
                    Location::at(at),
                    format!(
                        "{} overlaps {last_what} and differs from it at 0x{at:x}",
                        piece.what
                    ),
                ));
            }
        }
        if end > covered {
            let from = overlap_end.max(start);
            if let (Some(dst), Some(src)) = (
                out.get_mut(from as usize..end as usize),
                piece.bytes.get((from - start) as usize..),
            ) {
                dst.copy_from_slice(src);
            }
            covered = end;
            last_what.clone_from(&piece.what);
        }
    }
    Ok(out)
}

/// Why the model cannot be written as it is: each with the path of the piece. Empty for every
/// model read from a file.
pub fn problems(rez: &Rez) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if rez.header.banner.len() != BANNER_LEN {
        out.push((
            "header.banner".into(),
            format!(
                "the header text block is {} bytes; it must be {BANNER_LEN}",
                rez.header.banner.len()
            ),
        ));
    }
    check_directory(&rez.root, "root", &mut out);
    let mut last_end = 0u64;
    for (i, gap) in rez.gaps.iter().enumerate() {
        let start = u64::from(gap.offset);
        if start < last_end {
            out.push((
                format!("gaps[{i}]"),
                format!("gap at 0x{start:x} starts before the previous gap ends (0x{last_end:x})"),
            ));
        }
        last_end = start + gap.bytes.0.len() as u64;
    }
    if last_end > u64::from(u32::MAX) + 1 {
        out.push((
            "gaps".into(),
            "the archive would end past 4 GiB, which 32-bit offsets cannot address".into(),
        ));
    }
    out
}

fn check_directory(dir: &Directory<Blob>, path: &str, out: &mut Vec<(String, String)>) {
    let body = body_len(dir);
    if body != u64::from(dir.size) {
        out.push((
            path.into(),
            format!(
                "the directory's size is {} but its entries take {body} bytes",
                dir.size
            ),
        ));
    }
    for (i, entry) in dir.entries.iter().enumerate() {
        let here = format!("{path}.entries[{i}]");
        match entry {
            Entry::Directory(d) => {
                if d.name.as_bytes().contains(&0) {
                    out.push((here.clone(), "a directory name holds a NUL byte".into()));
                }
                check_directory(d, &here, out);
            }
            Entry::File(f) => {
                if f.name.as_bytes().contains(&0) || f.comment.as_bytes().contains(&0) {
                    out.push((
                        here.clone(),
                        "a file name or comment holds a NUL byte".into(),
                    ));
                }
                if f.data.0.len() as u64 != u64::from(f.size) {
                    out.push((
                        here,
                        format!(
                            "the file's size is {} but it has {} bytes of data",
                            f.size,
                            f.data.0.len()
                        ),
                    ));
                } else if u64::from(f.pos) + u64::from(f.size) > u64::from(u32::MAX) + 1 {
                    out.push((here, "the file's data would end past 4 GiB".into()));
                }
            }
        }
    }
}
