//! REZ reader. Mirrors `write.rs`: the header, then each directory body from the root down,
//! entry by entry.
//!
//! Nothing is trusted: every body and every file must lie inside the archive; bodies may not
//! overlap the header or one another (a body that points into itself or an ancestor is a
//! directory loop and named so), which also bounds the work to one pass over the directory
//! bytes; a key count is checked against the bytes left in its body before the keys are
//! allocated; nesting is capped by [`Limits::max_depth`], entries by [`Limits::max_count`], and
//! what the owned reader copies by [`Limits::max_alloc`].

#![deny(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::mem::size_of;

use super::index::RezIndex;
use super::layout::{BANNER_CHECKS, BANNER_LEN, HEADER_LEN, KIND_DIRECTORY, KIND_FILE, VERSION};
use super::model::{Blob, Directory, Entry, File, FourCc, Gap, Header, Rez};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteReader;
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Rez;

/// Read an archive into the owned model with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Rez> {
    read_with(bytes, &Limits::default())
}

/// Read an archive into the owned model (every file's data and every gap copied), refusing
/// anything past `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Rez> {
    let mut budget = limits.budget(F);
    let mut copy = |file: &File<()>, data: &[u8], budget: &mut Budget| -> Result<Blob> {
        budget.charge(
            data.len(),
            &format!("the data of `{}`", file.file_name_text()),
            Location::at(u64::from(file.pos)),
        )?;
        Ok(Blob(data.to_vec()))
    };
    let (header, root) = read_tree(bytes, limits, &mut budget, &mut copy)?;
    let gaps = find_gaps(bytes, &root, &mut budget)?;
    Ok(Rez { header, root, gaps })
}

/// Read the header and the directory tree only, referring to file data by offset and length.
pub fn read_index_with<'a>(bytes: &'a [u8], limits: &Limits) -> Result<RezIndex<'a>> {
    let mut budget = limits.budget(F);
    let (header, root) = read_tree(bytes, limits, &mut budget, &mut |_, _, _| Ok(()))?;
    Ok(RezIndex::new(header, root, bytes))
}

/// What the reader does with each file's data (nothing for the index, a copy for the model).
type MakeData<'m, D> = dyn FnMut(&File<()>, &[u8], &mut Budget) -> Result<D> + 'm;

/// The header and the tree, with each file's data made by `make`.
fn read_tree<D>(
    bytes: &[u8],
    limits: &Limits,
    budget: &mut Budget,
    make: &mut MakeData<'_, D>,
) -> Result<(Header, Directory<D>)> {
    if u32::try_from(bytes.len()).is_err() {
        return Err(Error::new(
            F,
            ErrorKind::LimitExceeded,
            Location::at(u64::from(u32::MAX)),
            format!(
                "archive is {} bytes; REZ offsets are 32-bit, so an archive ends before 4 GiB",
                bytes.len()
            ),
        ));
    }
    let mut r = ByteReader::new(F, bytes);
    let (header, root_pos, root_size, root_time) = read_header(&mut r)?;
    let mut ctx = Context {
        bytes,
        limits,
        budget,
        make,
        bodies: BTreeMap::new(),
        ancestors: Vec::new(),
        entries: 0,
    };
    let root = ctx.read_directory(RawString::default(), root_pos, root_size, root_time, 0)?;
    Ok((header, root))
}

/// The 168-byte header; also the root directory's position, size and time.
fn read_header(r: &mut ByteReader<'_>) -> Result<(Header, u32, u32, u32)> {
    let banner = r.bytes(BANNER_LEN, "header text block")?;
    // Only what the games check (Gruntz's CRezMgr::Open): the rest of the text is free.
    for (at, want) in BANNER_CHECKS {
        let got = banner.get(at).copied().unwrap_or_default();
        if got != want {
            return Err(Error::malformed(
                F,
                Location::at(at as u64),
                format!(
                    "not a REZ archive: byte 0x{at:x} of the header text is 0x{got:02x}, \
                     expected 0x{want:02x} (the text block is CR LF, 60 bytes, CR LF, 60 bytes, \
                     CR LF, 0x1A)"
                ),
            ));
        }
    }
    let fields = r.bytes(HEADER_LEN.saturating_sub(BANNER_LEN), "header fields")?;
    let mut f = crate::io::Fields::new(fields);
    let version = f.u32();
    if version != VERSION {
        return Err(Error::unsupported(
            F,
            Location::at(BANNER_LEN as u64),
            format!("REZ version {version}; only version 1 is known"),
        ));
    }
    let root_pos = f.u32();
    let root_size = f.u32();
    let root_time = f.u32();
    let header = Header {
        banner: RawString::from(banner),
        version,
        next_write_pos: f.u32(),
        time: f.u32(),
        largest_key_array: f.u32(),
        largest_dir_name: f.u32(),
        largest_file_name: f.u32(),
        largest_comment: f.u32(),
        is_sorted: f.array::<1>()[0],
    };
    Ok((header, root_pos, root_size, root_time))
}

/// The state of one read: the bodies seen so far (start → end), the bodies being read (for
/// loops), the entry count.
struct Context<'c, 'm, D> {
    bytes: &'c [u8],
    limits: &'c Limits,
    budget: &'c mut Budget,
    make: &'c mut MakeData<'m, D>,
    bodies: BTreeMap<u64, u64>,
    ancestors: Vec<(u64, u64, String)>,
    entries: usize,
}

impl<D> Context<'_, '_, D> {
    /// The directory whose body is `size` bytes at `pos`, read entry by entry.
    fn read_directory(
        &mut self,
        name: RawString,
        pos: u32,
        size: u32,
        time: u32,
        depth: usize,
    ) -> Result<Directory<D>> {
        let path = self.path_of(&name);
        let what = if depth == 0 {
            "the root directory".to_owned()
        } else {
            format!("directory `{path}`")
        };
        if depth > self.limits.max_depth {
            return Err(Error::new(
                F,
                ErrorKind::LimitExceeded,
                Location::at(u64::from(pos)),
                format!(
                    "{what} is nested {depth} deep; the limit is {}",
                    self.limits.max_depth
                ),
            ));
        }
        let (start, end) = self.range(pos, size, &what, "body")?;
        let mut entries = Vec::new();
        if size > 0 {
            self.claim_body(start, end, &what)?;
            let mut whole = ByteReader::new(F, self.bytes);
            whole.seek(pos as usize, "directory body")?;
            let mut body = whole.sub(size as usize, "directory body")?;
            self.ancestors.push((start, end, path.clone()));
            while body.remaining() > 0 {
                let entry =
                    self.read_entry(&mut body, depth)
                        .map_err(|e| match e.location.path {
                            Some(_) => e,
                            None => e.in_path(if depth == 0 { "/" } else { &path }),
                        })?;
                entries.push(entry);
            }
            self.ancestors.pop();
        }
        Ok(Directory {
            name,
            pos,
            size,
            time,
            entries,
        })
    }

    /// One entry of a body: a subdirectory (read at once) or a file.
    fn read_entry(&mut self, r: &mut ByteReader<'_>, depth: usize) -> Result<Entry<D>> {
        let at = r.offset();
        self.entries = self.entries.saturating_add(1);
        self.budget
            .count(self.entries as u64, "directory entry", Location::at(at))?;
        self.budget
            .charge(size_of::<Entry<D>>(), "directory entry", Location::at(at))?;
        let kind = r.u32_le("entry kind")?;
        let pos = r.u32_le("entry position")?;
        let size = r.u32_le("entry size")?;
        let time = r.u32_le("entry time")?;
        match kind {
            KIND_DIRECTORY => {
                let name = self.string(r, "directory name")?;
                let dir = self.read_directory(name, pos, size, time, depth.saturating_add(1))?;
                Ok(Entry::Directory(dir))
            }
            KIND_FILE => {
                let id = r.u32_le("file id")?;
                let fourcc = FourCc(r.array::<4>("file type")?);
                let key_count = r.u32_le("key count")?;
                let name = self.string(r, "file name")?;
                let comment = self.string(r, "file comment")?;
                let keys_len = r.ensure(u64::from(key_count), 4, "key array")?;
                self.budget
                    .charge(keys_len, "key array", Location::at(r.offset()))?;
                let keys = r.u32_le_vec(key_count as usize, "key array")?;
                let entry = File {
                    name,
                    fourcc,
                    pos,
                    size,
                    time,
                    id,
                    comment,
                    keys,
                    data: (),
                };
                let what = format!("file `{}`", self.path_of(&RawString(entry.file_name())));
                let (start, end) = self.range(pos, size, &what, "data").map_err(|mut e| {
                    e.location = Location::at(at);
                    e
                })?;
                let slice = self.bytes.get(start as usize..end as usize).unwrap_or(&[]);
                let data = (self.make)(&entry, slice, self.budget)?;
                let File {
                    name,
                    fourcc,
                    pos,
                    size,
                    time,
                    id,
                    comment,
                    keys,
                    data: (),
                } = entry;
                Ok(Entry::File(File {
                    name,
                    fourcc,
                    pos,
                    size,
                    time,
                    id,
                    comment,
                    keys,
                    data,
                }))
            }
            other => Err(Error::malformed(
                F,
                Location::at(at),
                format!("entry at 0x{at:x} has kind {other}; expected 0 (file) or 1 (directory)"),
            )),
        }
    }

    /// A NUL-terminated string inside the body, charged to the budget.
    fn string(&mut self, r: &mut ByteReader<'_>, what: &str) -> Result<RawString> {
        let at = r.offset();
        let bytes = r.cstr(what)?;
        self.budget.charge(bytes.len(), what, Location::at(at))?;
        Ok(RawString::from(bytes))
    }

    /// `[pos, pos + size)` as absolute offsets, refused when it does not lie inside the
    /// archive.
    fn range(&self, pos: u32, size: u32, what: &str, part: &str) -> Result<(u64, u64)> {
        let start = u64::from(pos);
        let end = start.saturating_add(u64::from(size));
        let len = self.bytes.len() as u64;
        if end > len {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(start),
                format!(
                    "{what}: {part} at 0x{pos:x} ({size} bytes) runs past the end of the archive \
                     (0x{len:x} bytes)"
                ),
            ));
        }
        Ok((start, end))
    }

    /// Record a body, refusing one that overlaps the header, a body being read (a loop) or any
    /// other body.
    fn claim_body(&mut self, start: u64, end: u64, what: &str) -> Result<()> {
        if start < HEADER_LEN as u64 {
            return Err(Error::malformed(
                F,
                Location::at(start),
                format!("{what}: body at 0x{start:x}..0x{end:x} overlaps the 168-byte header"),
            ));
        }
        if let Some((_, _, ancestor)) = self
            .ancestors
            .iter()
            .find(|(s, e, _)| start < *e && *s < end)
        {
            let ancestor = if ancestor.is_empty() {
                "the root directory".to_owned()
            } else {
                format!("`{ancestor}`")
            };
            return Err(Error::malformed(
                F,
                Location::at(start),
                format!(
                    "directory loop: {what} has its body at 0x{start:x}..0x{end:x}, inside the \
                     body of {ancestor}, which contains it"
                ),
            ));
        }
        let before = self.bodies.range(..end).next_back();
        if let Some((&s, &e)) = before.filter(|(_, e)| **e > start) {
            return Err(Error::malformed(
                F,
                Location::at(start),
                format!(
                    "{what}: body at 0x{start:x}..0x{end:x} overlaps another directory's body \
                     at 0x{s:x}..0x{e:x}"
                ),
            ));
        }
        self.bodies.insert(start, end);
        Ok(())
    }

    /// The path of an entry named `name` in the directory being read.
    fn path_of(&self, name: &RawString) -> String {
        match self.ancestors.last() {
            Some((_, _, parent)) if !parent.is_empty() => format!("{parent}/{}", name.display()),
            _ => name.display(),
        }
    }
}

/// Every byte range of the archive that neither the header, nor a directory body, nor a file's
/// data covers, with its bytes.
fn find_gaps<D>(bytes: &[u8], root: &Directory<D>, budget: &mut Budget) -> Result<Vec<Gap>> {
    let mut spans: Vec<(u64, u64)> = vec![(0, HEADER_LEN as u64)];
    collect_spans(root, &mut spans);
    spans.sort_unstable();
    let len = bytes.len() as u64;
    let mut holes = Vec::new();
    let mut covered = 0u64;
    for (start, end) in spans {
        if start > covered {
            holes.push((covered, start));
        }
        covered = covered.max(end);
    }
    if covered < len {
        holes.push((covered, len));
    }
    let mut gaps = Vec::with_capacity(holes.len());
    for (start, end) in holes {
        let slice = bytes.get(start as usize..end as usize).unwrap_or(&[]);
        budget.charge(slice.len(), "gap bytes", Location::at(start))?;
        gaps.push(Gap {
            offset: u32::try_from(start).unwrap_or(u32::MAX),
            bytes: Blob(slice.to_vec()),
        });
    }
    Ok(gaps)
}

/// The non-empty ranges of every body and every file below `dir`, its own body included.
fn collect_spans<D>(dir: &Directory<D>, out: &mut Vec<(u64, u64)>) {
    let span = |pos: u32, size: u32| {
        (
            u64::from(pos),
            u64::from(pos).saturating_add(u64::from(size)),
        )
    };
    if dir.size > 0 {
        out.push(span(dir.pos, dir.size));
    }
    for entry in &dir.entries {
        match entry {
            Entry::Directory(d) => collect_spans(d, out),
            Entry::File(f) if f.size > 0 => out.push(span(f.pos, f.size)),
            Entry::File(_) => {}
        }
    }
}
