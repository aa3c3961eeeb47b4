//! The text form of an archive (`levelkit dump`): the header, then the tree, one line per
//! directory and per file with where its body or data is, then the gaps.

use std::fmt::Write as _;

use super::layout::time_text;
use super::model::{Directory, Entry, Header};
use crate::strings::quoted;

/// The dump of an archive's header and tree; `gaps` lists `(offset, length)` of the bytes no
/// structure claims.
pub fn dump<D>(name: &str, header: &Header, root: &Directory<D>, gaps: &[(u32, usize)]) -> String {
    let mut s = String::new();
    let _ = write_dump(&mut s, name, header, root, gaps);
    s
}

fn write_dump<D>(
    s: &mut String,
    name: &str,
    header: &Header,
    root: &Directory<D>,
    gaps: &[(u32, usize)],
) -> std::fmt::Result {
    let (files, dirs) = root.counts();
    writeln!(
        s,
        "{name}: REZ version {}, {files} files in {dirs} directories",
        header.version
    )?;
    let text = header.banner.as_bytes();
    let line = |range: std::ops::Range<usize>| {
        crate::strings::RawString::from(text.get(range).unwrap_or(&[]))
            .display()
            .trim_end()
            .to_owned()
    };
    writeln!(s, "header")?;
    writeln!(s, "  banner          {:?}", line(2..62))?;
    writeln!(s, "  banner line 2   {:?}", line(64..124))?;
    writeln!(
        s,
        "  time            {} ({})",
        header.time,
        time_text(header.time)
    )?;
    writeln!(
        s,
        "  root            body 0x{:x} ({} bytes), time 0x{:08x}",
        root.pos, root.size, root.time
    )?;
    writeln!(s, "  next_write_pos  0x{:x}", header.next_write_pos)?;
    writeln!(
        s,
        "  largest         keys {}, directory name {}, file name {}, comment {}",
        header.largest_key_array,
        header.largest_dir_name,
        header.largest_file_name,
        header.largest_comment
    )?;
    writeln!(s, "  is_sorted       {}", header.is_sorted)?;
    writeln!(s)?;
    writeln!(s, "tree (offset, size, time, id)")?;
    tree(s, root, 1)?;
    if !gaps.is_empty() {
        writeln!(s)?;
        let total: usize = gaps.iter().map(|g| g.1).sum();
        writeln!(s, "gaps ({}, {total} bytes)", gaps.len())?;
        for (offset, len) in gaps {
            writeln!(s, "  0x{offset:08x}  {len} bytes")?;
        }
    }
    Ok(())
}

fn tree<D>(s: &mut String, dir: &Directory<D>, depth: usize) -> std::fmt::Result {
    let indent = "  ".repeat(depth);
    for entry in &dir.entries {
        match entry {
            Entry::Directory(d) => {
                writeln!(
                    s,
                    "{indent}{}/  body 0x{:x} ({} bytes), {}",
                    d.name.display(),
                    d.pos,
                    d.size,
                    time_text(d.time)
                )?;
                tree(s, d, depth + 1)?;
            }
            Entry::File(f) => {
                write!(
                    s,
                    "{indent}{}  0x{:x} {} {} {}",
                    f.file_name_text(),
                    f.pos,
                    f.size,
                    time_text(f.time),
                    f.id
                )?;
                if !f.comment.is_empty() {
                    write!(s, "  comment {}", quoted(&f.comment))?;
                }
                if !f.keys.is_empty() {
                    write!(s, "  keys {:?}", f.keys)?;
                }
                writeln!(s)?;
            }
        }
    }
    Ok(())
}
