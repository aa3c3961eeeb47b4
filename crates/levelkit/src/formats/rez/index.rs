//! [`RezIndex`]: the zero-copy view of an archive. Reading one parses the header and the
//! directory bodies only; files are found by path and their data is a slice of the input, so
//! listing a memory-mapped 60 MB archive touches only its directory pages.

use super::model::{Directory, File, Header};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

/// An archive's header and directory tree over its bytes, without copying any file's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RezIndex<'a> {
    /// The header fields.
    pub header: Header,
    /// The directory tree from the root (the header's `root_dir_pos`, `root_dir_size`,
    /// `root_dir_time`).
    pub root: Directory,
    bytes: &'a [u8],
}

impl<'a> RezIndex<'a> {
    /// An index of `bytes` (built by the reader, which has checked every range).
    pub(super) fn new(header: Header, root: Directory, bytes: &'a [u8]) -> Self {
        RezIndex {
            header,
            root,
            bytes,
        }
    }

    /// The whole archive.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The data of a file: a slice of the archive, nothing copied. The reader has checked that
    /// every file of the index lies inside the archive; a file entry from elsewhere that does
    /// not is an error naming its range.
    pub fn data<D>(&self, file: &File<D>) -> Result<&'a [u8]> {
        let start = file.pos as usize;
        start
            .checked_add(file.size as usize)
            .and_then(|end| self.bytes.get(start..end))
            .ok_or_else(|| {
                Error::new(
                    Format::Rez,
                    ErrorKind::Truncated,
                    Location::at(u64::from(file.pos)),
                    format!(
                        "file `{}` at 0x{:x} ({} bytes) is not inside this archive ({} bytes)",
                        file.file_name_text(),
                        file.pos,
                        file.size,
                        self.bytes.len()
                    ),
                )
            })
    }

    /// The file at `path` (`LEVEL1/TILES/ACTION/012.PID` or `LEVEL1\TILES\ACTION\012.PID`,
    /// ASCII letters compared without case).
    pub fn find(&self, path: &str) -> Option<&File> {
        self.root.find_file(path)
    }

    /// The directory at `path` (the root for an empty path).
    pub fn find_directory(&self, path: &str) -> Option<&Directory> {
        self.root.find_directory(path)
    }

    /// Every file with its full path (`/`-separated), depth first in file order.
    pub fn files(&self) -> Vec<(String, &File)> {
        self.root.walk()
    }
}

/// A REZ archive as the files of a game: paths are `/`-separated from the archive's root, case
/// ignored (how a level's graphics are found, [`crate::formats::wwd::graphics`]).
impl crate::assets::Assets for RezIndex<'_> {
    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)> {
        let d = self.find_directory(dir)?;
        Some((
            d.directories().map(|s| s.name.to_editor_text()).collect(),
            d.files().map(|f| f.file_name_text()).collect(),
        ))
    }

    fn read(&self, path: &str) -> Option<std::borrow::Cow<'_, [u8]>> {
        let file = self.find(path)?;
        self.data(file).ok().map(std::borrow::Cow::Borrowed)
    }
}
