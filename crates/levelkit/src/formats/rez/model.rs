//! The REZ model: the header, the directory tree, and (in the owned [`Rez`]) the bytes of every
//! file and of every gap between the structures, so that `write(read(x)) == x`.
//!
//! The tree types are generic over what a file holds besides its directory entry: `()` in the
//! zero-copy [`RezIndex`](super::RezIndex), which refers to the data by offset and length only,
//! and [`Blob`] (the bytes) in the owned [`Rez`], which the document layer keeps, writes and
//! turns into JSON.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::strings::RawString;

/// The fixed header: the 127-byte text block and the fields after it. The root directory's
/// position, size and time are in the header too; the model keeps them in [`Rez::root`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The 127-byte text block at 0x00: CR LF, a 60-byte line (`RezMgr Version 1 Copyright (C)
    /// 1995 MONOLITH INC.`, space-padded), CR LF, a second 60-byte line (spaces in every known
    /// archive), CR LF and 0x1A (DOS end of file). Kept as read.
    pub banner: RawString,
    /// Format version at 0x7F; 1 is the only one known.
    pub version: u32,
    /// 0x8F: where the next file's data would be appended; in tool-written archives the end of
    /// the file-data region.
    pub next_write_pos: u32,
    /// 0x93: when the archive was written (`time_t`).
    pub time: u32,
    /// 0x97: the most keys any file has.
    pub largest_key_array: u32,
    /// 0x9B: the longest directory name plus one (its NUL).
    pub largest_dir_name: u32,
    /// 0x9F: the longest file name plus one.
    pub largest_file_name: u32,
    /// 0xA3: the longest non-empty comment plus one; 0 when every comment is empty.
    pub largest_comment: u32,
    /// 0xA7: the writer's promise that each directory's files fill one contiguous span.
    pub is_sorted: u8,
}

/// A directory: its entry in the parent (the root has none: the header points at its body)
/// and the entries of its body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directory<D = ()> {
    /// The name (empty for the root).
    pub name: RawString,
    /// Offset of the body.
    pub pos: u32,
    /// Length of the body in bytes; a body holds exactly its entries.
    pub size: u32,
    /// The entry's time field (`time_t` in tool-written archives; for the root, the header's
    /// `root_dir_time`, which is not a time in the known archives).
    pub time: u32,
    /// The entries of the body, in file order.
    pub entries: Vec<Entry<D>>,
}

/// One entry of a directory body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry<D = ()> {
    /// A subdirectory (kind 1).
    Directory(Directory<D>),
    /// A file, "resource" in Monolith's terms (kind 0).
    File(File<D>),
}

/// A file's directory entry, and what the model keeps of its data (`D`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct File<D = ()> {
    /// The name without the type (`012` of `012.PID`).
    pub name: RawString,
    /// The type, a four-character code stored reversed (`DIP\0` for PID).
    #[serde(rename = "type")]
    pub fourcc: FourCc,
    /// Offset of the data.
    pub pos: u32,
    /// Length of the data.
    pub size: u32,
    /// The entry's time field (`time_t`).
    pub time: u32,
    /// The resource id; not unique, and nothing in the games looks files up by it.
    pub id: u32,
    /// The comment (empty in every known archive).
    pub comment: RawString,
    /// The key array (empty in every known archive; its meaning is unknown).
    pub keys: Vec<u32>,
    /// The data: `()` in a [`RezIndex`](super::RezIndex), the bytes in a [`Rez`].
    #[serde(rename = "data_base64")]
    pub data: D,
}

/// The owned, lossless archive: everything needed to write the same bytes back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rez {
    /// The header fields.
    pub header: Header,
    /// The root directory (`root_dir_pos`, `root_dir_size`, `root_dir_time` of the header).
    pub root: Directory<Blob>,
    /// Every byte range not covered by the header, a directory body or a file's data, in file
    /// order: orphaned directory copies, padding, trailing bytes.
    pub gaps: Vec<Gap>,
}

/// A run of bytes that no structure claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gap {
    /// Where it starts.
    pub offset: u32,
    /// Its bytes.
    #[serde(rename = "bytes_base64")]
    pub bytes: Blob,
}

/// Bytes that are base64 text in JSON.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Blob(pub Vec<u8>);

impl fmt::Debug for Blob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Blob({} bytes)", self.0.len())
    }
}

impl Serialize for Blob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::encoding::base64_encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let text = String::deserialize(d)?;
        crate::encoding::base64_decode(&text)
            .map(Blob)
            .map_err(serde::de::Error::custom)
    }
}

/// A type code as stored: the extension's characters in reverse order, padded with NULs at the
/// end (`PID` is stored `DIP\0`, as a little-endian `u32` holding `'PID'`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FourCc(pub [u8; 4]);

impl FourCc {
    /// No type (four NULs): a file without an extension.
    pub const NONE: FourCc = FourCc([0; 4]);

    /// The stored code of an extension of one to four bytes without NUL (`PID` → `DIP\0`);
    /// `None` for anything else.
    pub fn from_extension(ext: &[u8]) -> Option<FourCc> {
        if ext.is_empty() || ext.len() > 4 || ext.contains(&0) {
            return None;
        }
        let mut code = [0u8; 4];
        for (slot, &b) in code.iter_mut().zip(ext.iter().rev()) {
            *slot = b;
        }
        Some(FourCc(code))
    }

    /// The stored bytes before the first NUL (`DIP` of `DIP\0`): the extension reversed.
    pub fn stored(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(4);
        self.0.get(..end).unwrap_or(&[])
    }

    /// The extension's bytes in reading order (`PID`).
    pub fn extension_bytes(&self) -> Vec<u8> {
        let mut ext = self.stored().to_vec();
        ext.reverse();
        ext
    }

    /// The extension as text (`PID`; empty for [`FourCc::NONE`]).
    pub fn extension_text(&self) -> String {
        RawString(self.extension_bytes()).display()
    }

    /// True when the code is an extension padded with NULs at the end, as the tools write it
    /// (or all NULs).
    pub fn is_canonical(&self) -> bool {
        let ext = self.stored();
        self.0
            .get(ext.len()..)
            .is_some_and(|pad| pad.iter().all(|&b| b == 0))
    }
}

impl fmt::Debug for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FourCc({:?})", RawString(self.0.to_vec()))
    }
}

/// JSON: the extension as a string (`"PID"`) when the code is canonical and printable ASCII,
/// otherwise the four stored bytes as numbers.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum FourCcJson {
    Text(String),
    Bytes([u8; 4]),
}

impl Serialize for FourCc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ext = self.extension_bytes();
        if self.is_canonical() && ext.iter().all(|b| b.is_ascii_graphic()) {
            FourCcJson::Text(String::from_utf8_lossy(&ext).into_owned()).serialize(s)
        } else {
            FourCcJson::Bytes(self.0).serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for FourCc {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        match FourCcJson::deserialize(d)? {
            FourCcJson::Bytes(b) => Ok(FourCc(b)),
            FourCcJson::Text(t) if t.is_empty() => Ok(FourCc::NONE),
            FourCcJson::Text(t) => FourCc::from_extension(t.as_bytes()).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "type `{t}` is not one to four characters (use four byte values otherwise)"
                ))
            }),
        }
    }
}

impl<D> File<D> {
    /// The name the file has in a path: `NAME.EXT`, or `NAME` for a file without a type.
    pub fn file_name(&self) -> Vec<u8> {
        let ext = self.fourcc.extension_bytes();
        let mut out = self.name.as_bytes().to_vec();
        if !ext.is_empty() {
            out.push(b'.');
            out.extend_from_slice(&ext);
        }
        out
    }

    /// [`File::file_name`] as text (Windows-1252).
    pub fn file_name_text(&self) -> String {
        RawString(self.file_name()).display()
    }

    /// Whether `component` names this file: `NAME.EXT` (or `NAME` without a type), ASCII
    /// letters compared without case.
    pub fn matches(&self, component: &[u8]) -> bool {
        let name = self.name.as_bytes();
        let ext = self.fourcc.stored();
        if ext.is_empty() {
            return component.eq_ignore_ascii_case(name);
        }
        let Some((head, tail)) = component.split_at_checked(name.len()) else {
            return false;
        };
        head.eq_ignore_ascii_case(name)
            && tail.len() == ext.len().saturating_add(1)
            && tail.first() == Some(&b'.')
            && tail
                .iter()
                .skip(1)
                .zip(ext.iter().rev())
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
    }

    /// The entry without its data.
    pub fn entry(&self) -> File {
        File {
            name: self.name.clone(),
            fourcc: self.fourcc,
            pos: self.pos,
            size: self.size,
            time: self.time,
            id: self.id,
            comment: self.comment.clone(),
            keys: self.keys.clone(),
            data: (),
        }
    }
}

impl<D> Entry<D> {
    /// The entry's name as it appears in a path (`LEVEL1`, `012.PID`).
    pub fn path_name(&self) -> Vec<u8> {
        match self {
            Entry::Directory(d) => d.name.as_bytes().to_vec(),
            Entry::File(f) => f.file_name(),
        }
    }
}

impl<D> Directory<D> {
    /// The subdirectories of this body, in file order.
    pub fn directories(&self) -> impl Iterator<Item = &Directory<D>> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Directory(d) => Some(d),
            Entry::File(_) => None,
        })
    }

    /// The files of this body, in file order.
    pub fn files(&self) -> impl Iterator<Item = &File<D>> {
        self.entries.iter().filter_map(|e| match e {
            Entry::File(f) => Some(f),
            Entry::Directory(_) => None,
        })
    }

    /// The subdirectory named `name` (ASCII letters compared without case).
    pub fn directory(&self, name: &[u8]) -> Option<&Directory<D>> {
        self.directories()
            .find(|d| d.name.as_bytes().eq_ignore_ascii_case(name))
    }

    /// The file named `name` (`012.PID`; ASCII letters compared without case).
    pub fn file(&self, name: &[u8]) -> Option<&File<D>> {
        self.files().find(|f| f.matches(name))
    }

    /// The directory at `path` below this one (`LEVEL1/TILES`, `\` or `/` separators, case
    /// ignored; empty components skipped, so the empty path is this directory).
    pub fn find_directory(&self, path: &str) -> Option<&Directory<D>> {
        let mut here = self;
        for part in components(path) {
            here = here.directory(&part)?;
        }
        Some(here)
    }

    /// The file at `path` below this one (`LEVEL1/TILES/ACTION/012.PID`, `\` or `/`
    /// separators, case ignored).
    pub fn find_file(&self, path: &str) -> Option<&File<D>> {
        let mut parts = components(path);
        let last = parts.pop()?;
        let mut here = self;
        for part in parts {
            here = here.directory(&part)?;
        }
        here.file(&last)
    }

    /// Every file below this directory with its path relative to it (`/`-separated), depth
    /// first in file order.
    pub fn walk(&self) -> Vec<(String, &File<D>)> {
        let mut out = Vec::new();
        self.walk_into("", &mut out);
        out
    }

    fn walk_into<'t>(&'t self, prefix: &str, out: &mut Vec<(String, &'t File<D>)>) {
        for entry in &self.entries {
            match entry {
                Entry::File(f) => out.push((format!("{prefix}{}", f.file_name_text()), f)),
                Entry::Directory(d) => {
                    let prefix = format!("{prefix}{}/", d.name.display());
                    d.walk_into(&prefix, out);
                }
            }
        }
    }

    /// Every directory below this one (not itself) with its path, depth first in file order.
    pub fn walk_directories(&self) -> Vec<(String, &Directory<D>)> {
        let mut out = Vec::new();
        let mut stack: Vec<(String, &Directory<D>)> = vec![(String::new(), self)];
        while let Some((prefix, dir)) = stack.pop() {
            let mut children: Vec<(String, &Directory<D>)> = dir
                .directories()
                .map(|d| (format!("{prefix}{}", d.name.display()), d))
                .collect();
            for (path, d) in &children {
                out.push((path.clone(), *d));
            }
            children.reverse();
            stack.extend(children.into_iter().map(|(p, d)| (format!("{p}/"), d)));
        }
        out
    }

    /// How many files and directories are below this one (not counting itself).
    pub fn counts(&self) -> (usize, usize) {
        let mut files = 0usize;
        let mut dirs = 0usize;
        for entry in &self.entries {
            match entry {
                Entry::File(_) => files = files.saturating_add(1),
                Entry::Directory(d) => {
                    let (f, s) = d.counts();
                    files = files.saturating_add(f);
                    dirs = dirs.saturating_add(s).saturating_add(1);
                }
            }
        }
        (files, dirs)
    }

    /// This tree without the files' data.
    pub fn index(&self) -> Directory {
        Directory {
            name: self.name.clone(),
            pos: self.pos,
            size: self.size,
            time: self.time,
            entries: self
                .entries
                .iter()
                .map(|e| match e {
                    Entry::Directory(d) => Entry::Directory(d.index()),
                    Entry::File(f) => Entry::File(f.entry()),
                })
                .collect(),
        }
    }
}

/// The components of a path, split at `/` and `\`, empty ones skipped, each as the bytes the
/// archive would hold (Windows-1252 where the text has such characters, else UTF-8).
pub fn components(path: &str) -> Vec<Vec<u8>> {
    path.split(['/', '\\'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            RawString::from_display(p)
                .map(|r| r.0)
                .unwrap_or_else(|_| p.as_bytes().to_vec())
        })
        .collect()
}
