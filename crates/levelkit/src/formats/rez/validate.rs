//! Validation: every finding with its path, errors (the games would refuse the archive, or the
//! model cannot be written) apart from warnings (the games would load it, but a tool or a later
//! edit might go wrong).

use std::collections::HashSet;

use super::build::Largest;
use super::index::RezIndex;
use super::layout::{BANNER_CHECKS, BANNER_LEN, HEADER_LEN, VERSION, banner};
use super::model::{Directory, Entry, Header, Rez};
use super::write;
use crate::error::{Location, Warning};
use crate::registry::Format;

const F: Format = Format::Rez;

/// Check an owned archive: what [`validate_index`] checks, plus what keeps the model from being
/// written as it is (sizes that do not match the data or the entries, holes, overlaps that
/// disagree; never found in a model read from a file).
pub fn validate(rez: &Rez) -> Vec<Warning> {
    let mut out: Vec<Warning> = write::problems(rez)
        .into_iter()
        .map(|(path, message)| Warning::error(F, Location::path(path), message))
        .collect();
    let len = rez.length();
    check(&rez.header, &rez.root, len, &mut out);
    out
}

/// Check an archive's header and tree.
///
/// Errors: the header bytes and version the games check. Warnings: a text block other than the
/// standard CR LF / 60 bytes / CR LF / 60 bytes / CR LF / 0x1A; `largest_*` header fields that
/// do not match the tree; `next_write_pos` other than the end of the file data; `is_sorted` set
/// while a directory's files do not fill one contiguous span (what the flag promises, per
/// `rez-v1.md`); a root body that does not end the archive (OpenClaw's reader refuses such
/// archives); comments or keys (OpenClaw's and WAP32.rs's readers assume none and misread the
/// entries after them); two files with the same name and type, or two directories with the same
/// name, in one directory (compared without case; the games keep one); names that are empty or
/// hold `/` or `\` (no path reaches them); type codes not written the tools' way; file data
/// overlapping the header; and names with lower-case letters (every known archive is upper
/// case, and whether the games compare names without case depends on a flag).
pub fn validate_index(index: &RezIndex<'_>) -> Vec<Warning> {
    let mut out = Vec::new();
    check(
        &index.header,
        &index.root,
        index.bytes().len() as u64,
        &mut out,
    );
    out
}

fn check<D>(header: &Header, root: &Directory<D>, len: u64, out: &mut Vec<Warning>) {
    let warn = |out: &mut Vec<Warning>, path: &str, message: String| {
        out.push(Warning::warning(
            F,
            Location::path(path.to_owned()),
            message,
        ));
    };
    let text = header.banner.as_bytes();
    for (at, want) in BANNER_CHECKS {
        if text.get(at) != Some(&want) {
            out.push(Warning::error(
                F,
                Location::path("header.banner"),
                format!("byte 0x{at:x} of the text block must be 0x{want:02x}: the games check it"),
            ));
        }
    }
    if header.version != VERSION {
        out.push(Warning::error(
            F,
            Location::path("header.version"),
            format!("version {}; the games read version 1 only", header.version),
        ));
    }
    if text.len() == BANNER_LEN {
        let lines = (
            text.get(2..62).unwrap_or(&[]),
            text.get(64..124).unwrap_or(&[]),
        );
        if banner(lines.0, lines.1) != text {
            warn(
                out,
                "header.banner",
                "the text block is not CR LF, 60 bytes, CR LF, 60 bytes, CR LF, 0x1A".into(),
            );
        }
    }

    let mut largest = Largest::default();
    largest.measure(root, true);
    for (field, stored, computed) in [
        ("largest_key_array", header.largest_key_array, largest.keys),
        (
            "largest_dir_name",
            header.largest_dir_name,
            largest.dir_name,
        ),
        (
            "largest_file_name",
            header.largest_file_name,
            largest.file_name,
        ),
        ("largest_comment", header.largest_comment, largest.comment),
    ] {
        if stored != computed {
            warn(
                out,
                &format!("header.{field}"),
                format!("is {stored}; the entries make it {computed}"),
            );
        }
    }

    let mut state = State::default();
    walk(root, "", &mut state, out);
    let data_end = state.data_end.max(HEADER_LEN as u64);
    if u64::from(header.next_write_pos) != data_end {
        warn(
            out,
            "header.next_write_pos",
            format!(
                "is 0x{:x}; the file data ends at 0x{data_end:x}",
                header.next_write_pos
            ),
        );
    }
    if header.is_sorted != 0 {
        for path in &state.scattered {
            warn(
                out,
                path,
                "is_sorted is set, but this directory's files do not fill one contiguous span \
                 (a tool that loads a directory in one read would get wrong bytes)"
                    .into(),
            );
        }
    }
    let root_end = u64::from(root.pos) + u64::from(root.size);
    if root.size > 0 && root_end != len {
        warn(
            out,
            "root",
            format!(
                "the root body ends at 0x{root_end:x}, not at the end of the archive (0x{len:x}); \
                 OpenClaw's reader refuses such archives"
            ),
        );
    }
    if state.lower_case > 0 {
        warn(
            out,
            "",
            format!(
                "{} names have lower-case letters; every known archive is upper case, and the \
                 games may compare names with case",
                state.lower_case
            ),
        );
    }
}

#[derive(Default)]
struct State {
    data_end: u64,
    scattered: Vec<String>,
    lower_case: usize,
}

fn walk<D>(dir: &Directory<D>, path: &str, state: &mut State, out: &mut Vec<Warning>) {
    let here = if path.is_empty() { "/" } else { path };
    let warn = |out: &mut Vec<Warning>, p: String, message: String| {
        out.push(Warning::warning(F, Location::path(p), message));
    };
    let mut names = HashSet::new();
    let mut spans = Vec::new();
    for entry in &dir.entries {
        let name = entry.path_name();
        let name_text = crate::strings::decode_cp1252(&name);
        let child = format!("{path}{name_text}");
        let own = match entry {
            Entry::Directory(d) => d.name.as_bytes(),
            Entry::File(f) => f.name.as_bytes(),
        };
        if own.is_empty() || own.iter().any(|&b| b == b'/' || b == b'\\') {
            warn(
                out,
                child.clone(),
                "the name is empty or holds `/` or `\\`: no path reaches this entry".into(),
            );
        }
        if own.iter().any(u8::is_ascii_lowercase) {
            state.lower_case += 1;
        }
        let key = (
            matches!(entry, Entry::Directory(_)),
            name.to_ascii_uppercase(),
        );
        if !names.insert(key) {
            warn(
                out,
                child.clone(),
                format!(
                    "another entry of `{here}` has this name (compared without case); the games \
                     keep only one"
                ),
            );
        }
        match entry {
            Entry::Directory(d) => walk(d, &format!("{child}/"), state, out),
            Entry::File(f) => {
                let end = u64::from(f.pos) + u64::from(f.size);
                state.data_end = state.data_end.max(end);
                if f.size > 0 {
                    spans.push((u64::from(f.pos), end));
                    if u64::from(f.pos) < HEADER_LEN as u64 {
                        warn(
                            out,
                            child.clone(),
                            "the file's data overlaps the header".into(),
                        );
                    }
                }
                if !f.comment.is_empty() || !f.keys.is_empty() {
                    warn(
                        out,
                        child.clone(),
                        "the entry has a comment or keys; OpenClaw's and WAP32.rs's readers \
                         assume neither and would misread the entries after it"
                            .into(),
                    );
                }
                if !f.fourcc.is_canonical() {
                    warn(
                        out,
                        child,
                        format!(
                            "type code {:02x?} is not an extension padded with NULs, as the tools \
                             write it",
                            f.fourcc.0
                        ),
                    );
                }
            }
        }
    }
    spans.sort_unstable();
    if spans.windows(2).any(|w| match w {
        [a, b] => a.1 != b.0,
        _ => false,
    }) {
        state.scattered.push(here.to_owned());
    }
}
