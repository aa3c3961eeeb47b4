//! New archives: [`Builder`] makes one from `(path, bytes)` pairs, and [`lay_out`] places a tree
//! the way Monolith's tools did, as far as the sources tell:
//!
//! ```text
//! [0, 168)                 header
//! [168, next_write_pos)    file data: each directory's own files in one run, directories in
//!                          depth-first order, so `is_sorted = 1` is true
//! [next_write_pos, end)    directory bodies, children before parents, the root's last (so
//!                          root_dir_pos + root_dir_size is the archive's length, which
//!                          OpenClaw's reader requires)
//! ```
//!
//! In a body, subdirectories come before files (every mixed body of the Gruntz archives is so,
//! says `rez-v1.md`); within each group the builder keeps the order of [`Builder::add`] calls.
//! The `largest_*` header fields are the longest present name, comment and key array plus the
//! NUL, as the tools computed them; an empty comment counts as absent.

use super::layout::{HEADER_LEN, VERSION, body_len, standard_banner};
use super::model::{Blob, Directory, Entry, File, FourCc, Header, Rez};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Rez;

/// Most components a path may have (the reader's default nesting limit).
const MAX_COMPONENTS: usize = 256;

/// What a file gets besides its path and bytes; [`FileSpec::new`] gives the defaults (no
/// comment, no keys, id 0, time 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileSpec {
    /// The data.
    pub data: Vec<u8>,
    /// The entry's time (`time_t`).
    pub time: u32,
    /// The resource id. No source says how the tools chose it (Gruntz.REZ has 458 distinct
    /// values over 21 303 files and the game never looks one up), so the builder leaves 0.
    pub id: u32,
    /// The comment (empty in every known archive; OpenClaw's reader cannot read others).
    pub comment: RawString,
    /// The key array (empty in every known archive; OpenClaw's reader cannot read others).
    pub keys: Vec<u32>,
}

impl FileSpec {
    /// A file with `data` and the defaults.
    pub fn new(data: impl Into<Vec<u8>>) -> Self {
        FileSpec {
            data: data.into(),
            ..FileSpec::default()
        }
    }
}

/// Makes a new archive from paths and bytes.
///
/// Paths use `/` or `\`; the last component is the file's name, split at its last dot into the
/// name and a type of one to four characters (`LEVEL1/TILES/ACTION/012.PID`: directories
/// `LEVEL1`, `TILES`, `ACTION`, name `012`, type `PID`). A name without such a type is kept whole
/// with no type (extracting gives the same name back). Names keep their case; directories are
/// matched without case, as the games do. Names are stored in Windows-1252.
#[derive(Debug, Clone)]
pub struct Builder {
    root: Directory<Blob>,
    banner: RawString,
    time: u32,
    root_time: u32,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// An empty archive with the standard banner and all times 0.
    pub fn new() -> Self {
        Builder {
            root: empty_directory(RawString::default(), 0),
            banner: RawString(standard_banner()),
            time: 0,
            root_time: 0,
        }
    }

    /// The header's `time` (when the archive was made, `time_t`); also the time of directories
    /// made from now on.
    pub fn time(&mut self, time: u32) -> &mut Self {
        self.time = time;
        self
    }

    /// The header's `root_dir_time` (not a time in the known archives; 0 by default).
    pub fn root_time(&mut self, time: u32) -> &mut Self {
        self.root_time = time;
        self
    }

    /// Add a file with `data` and the defaults of [`FileSpec::new`].
    pub fn add(&mut self, path: &str, data: impl Into<Vec<u8>>) -> Result<&mut Self> {
        self.add_file(path, FileSpec::new(data))
    }

    /// Add a file. Refused: an empty path or component, `.` or `..`, a NUL, a character
    /// Windows-1252 cannot hold, a file whose name and type another file of its directory has
    /// (compared without case: the games would keep only one), and a file named like a
    /// directory beside it.
    pub fn add_file(&mut self, path: &str, spec: FileSpec) -> Result<&mut Self> {
        let mut parts = checked_components(path)?;
        let Some(last) = parts.pop() else {
            return Err(bad_path(path, "it names no file"));
        };
        let (name, fourcc) = split_name(&last);
        let dir = self.directory_mut(&parts, path)?;
        let clash = dir.entries.iter().any(|e| match e {
            Entry::File(f) => {
                f.fourcc.0.eq_ignore_ascii_case(&fourcc.0)
                    && f.name.as_bytes().eq_ignore_ascii_case(&name)
            }
            Entry::Directory(d) => d.name.as_bytes().eq_ignore_ascii_case(&last),
        });
        if clash {
            return Err(bad_path(
                path,
                "another entry of its directory has that name",
            ));
        }
        dir.entries.push(Entry::File(File {
            name: RawString(name),
            fourcc,
            pos: 0,
            size: 0,
            time: spec.time,
            id: spec.id,
            comment: spec.comment,
            keys: spec.keys,
            data: Blob(spec.data),
        }));
        Ok(self)
    }

    /// Add a directory (and its parents), empty unless files are added to it.
    pub fn add_directory(&mut self, path: &str) -> Result<&mut Self> {
        let parts = checked_components(path)?;
        self.directory_mut(&parts, path)?;
        Ok(self)
    }

    /// The directory at `parts`, made where missing (subdirectories go before the files of a
    /// body, in the order they were made).
    fn directory_mut(&mut self, parts: &[Vec<u8>], path: &str) -> Result<&mut Directory<Blob>> {
        let time = self.time;
        let mut here = &mut self.root;
        for part in parts {
            let found = here.entries.iter().position(|e| match e {
                Entry::Directory(d) => d.name.as_bytes().eq_ignore_ascii_case(part),
                Entry::File(_) => false,
            });
            let clash = here
                .entries
                .iter()
                .any(|e| matches!(e, Entry::File(f) if f.file_name().eq_ignore_ascii_case(part)));
            let index = match found {
                Some(i) => i,
                None if clash => {
                    return Err(bad_path(path, "a file of that name is in the way"));
                }
                None => {
                    let at = here
                        .entries
                        .iter()
                        .take_while(|e| matches!(e, Entry::Directory(_)))
                        .count();
                    here.entries.insert(
                        at,
                        Entry::Directory(empty_directory(RawString(part.clone()), time)),
                    );
                    at
                }
            };
            here = match here.entries.get_mut(index) {
                Some(Entry::Directory(d)) => d,
                _ => return Err(bad_path(path, "internal: lost a directory")),
            };
        }
        Ok(here)
    }

    /// The archive, laid out (see [`lay_out`]).
    pub fn finish(&self) -> Result<Rez> {
        let header = Header {
            banner: self.banner.clone(),
            version: VERSION,
            next_write_pos: 0,
            time: self.time,
            largest_key_array: 0,
            largest_dir_name: 0,
            largest_file_name: 0,
            largest_comment: 0,
            is_sorted: 1,
        };
        let mut root = self.root.clone();
        root.time = self.root_time;
        lay_out(header, root)
    }
}

fn empty_directory(name: RawString, time: u32) -> Directory<Blob> {
    Directory {
        name,
        pos: 0,
        size: 0,
        time,
        entries: Vec::new(),
    }
}

fn bad_path(path: &str, why: &str) -> Error {
    Error::malformed(
        F,
        Location::path(path.to_owned()),
        format!("cannot add `{path}` to the archive: {why}"),
    )
}

/// The components of a path to add, refused when one cannot be a REZ name.
fn checked_components(path: &str) -> Result<Vec<Vec<u8>>> {
    if path.contains('\0') {
        return Err(bad_path(path, "it holds a NUL character"));
    }
    let mut out = Vec::new();
    for part in path.split(['/', '\\']).filter(|p| !p.is_empty()) {
        if part == "." || part == ".." {
            return Err(bad_path(path, "`.` and `..` are not names"));
        }
        let raw = RawString::from_display(part).map_err(|c| {
            bad_path(
                path,
                &format!("`{c}` cannot be stored (names are Windows-1252)"),
            )
        })?;
        out.push(raw.0);
    }
    // The reader's default depth limit; deeper trees would also recurse too deep here.
    if out.len() > MAX_COMPONENTS {
        return Err(Error::new(
            F,
            ErrorKind::LimitExceeded,
            Location::path(path.to_owned()),
            format!(
                "cannot add `{path}`: {} components; at most {MAX_COMPONENTS}",
                out.len()
            ),
        ));
    }
    Ok(out)
}

/// `012.PID` → (`012`, `DIP\0`); a name without a dot, with nothing before it, or with more
/// than four characters after it, whole and without a type.
fn split_name(file_name: &[u8]) -> (Vec<u8>, FourCc) {
    if let Some(dot) = file_name.iter().rposition(|&b| b == b'.') {
        let (name, ext) = file_name.split_at(dot);
        let ext = ext.get(1..).unwrap_or_default();
        if let (false, Some(code)) = (name.is_empty(), FourCc::from_extension(ext)) {
            return (name.to_vec(), code);
        }
    }
    (file_name.to_vec(), FourCc::NONE)
}

/// Place a tree as the tools did (see the module docs) and compute the header fields that
/// depend on it; `header` gives the banner and the time, and the rest is set here. Gaps: none.
pub fn lay_out(header: Header, mut root: Directory<Blob>) -> Result<Rez> {
    let mut cursor = HEADER_LEN as u64;
    place_data(&mut root, &mut cursor);
    let next_write_pos = cursor;
    place_bodies(&mut root, &mut cursor);
    if cursor > u64::from(u32::MAX) {
        return Err(Error::new(
            F,
            ErrorKind::LimitExceeded,
            Location::default(),
            format!(
                "the archive would be {cursor} bytes; REZ offsets are 32-bit, so it must end \
                 before 4 GiB"
            ),
        ));
    }
    let mut largest = Largest::default();
    largest.measure(&root, true);
    let header = Header {
        version: VERSION,
        next_write_pos: next_write_pos as u32,
        largest_key_array: largest.keys,
        largest_dir_name: largest.dir_name,
        largest_file_name: largest.file_name,
        largest_comment: largest.comment,
        is_sorted: 1,
        ..header
    };
    Ok(Rez {
        header,
        root,
        gaps: Vec::new(),
    })
}

/// Each directory's files in one run, then its subdirectories', depth first.
fn place_data(dir: &mut Directory<Blob>, cursor: &mut u64) {
    for entry in &mut dir.entries {
        if let Entry::File(f) = entry {
            f.pos = clamp(*cursor);
            f.size = clamp(f.data.0.len() as u64);
            *cursor += f.data.0.len() as u64;
        }
    }
    for entry in &mut dir.entries {
        if let Entry::Directory(d) = entry {
            place_data(d, cursor);
        }
    }
}

/// Children's bodies before their parent's.
fn place_bodies(dir: &mut Directory<Blob>, cursor: &mut u64) {
    for entry in &mut dir.entries {
        if let Entry::Directory(d) = entry {
            place_bodies(d, cursor);
        }
    }
    let len = body_len(dir);
    dir.pos = clamp(*cursor);
    dir.size = clamp(len);
    *cursor += len;
}

/// Offsets past 4 GiB are refused by [`lay_out`] after placing; until then they saturate.
fn clamp(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// The `largest_*` header fields of a tree.
#[derive(Debug, Default)]
pub(super) struct Largest {
    pub keys: u32,
    pub dir_name: u32,
    pub file_name: u32,
    pub comment: u32,
}

impl Largest {
    /// Fold in `dir` and everything below it (`root`: its own name does not count).
    pub fn measure<D>(&mut self, dir: &Directory<D>, root: bool) {
        let plus_nul = |n: usize| clamp(n as u64 + 1);
        if !root {
            self.dir_name = self.dir_name.max(plus_nul(dir.name.len()));
        }
        for entry in &dir.entries {
            match entry {
                Entry::Directory(d) => self.measure(d, false),
                Entry::File(f) => {
                    self.file_name = self.file_name.max(plus_nul(f.name.len()));
                    if !f.comment.is_empty() {
                        self.comment = self.comment.max(plus_nul(f.comment.len()));
                    }
                    self.keys = self.keys.max(clamp(f.keys.len() as u64));
                }
            }
        }
    }
}
