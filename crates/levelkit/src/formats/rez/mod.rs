//! REZ: Monolith's resource archives (`CLAW.REZ` of Captain Claw, `GRUNTZ.REZ` and the voice
//! archive `GRUNTZ.VRZ` of Gruntz): a directory tree of files, with the games' graphics
//! (PID), palettes (PAL), animations (ANI), sounds (WAV), music (XMI) and levels (WWD).
//!
//! # The format
//!
//! Little-endian; offsets and sizes are `u32` from the start of the file.
//!
//! ```text
//! 0x00  127 bytes  text: CR LF, "RezMgr Version 1 Copyright (C) 1995 MONOLITH INC." padded
//!                  with spaces to 60 bytes, CR LF, 60 spaces, CR LF, 0x1A
//! 0x7F  u32 version (1)            0x83 u32 root_dir_pos     0x87 u32 root_dir_size
//! 0x8B  u32 root_dir_time          0x8F u32 next_write_pos   0x93 u32 time (time_t)
//! 0x97  u32 largest_key_array      0x9B u32 largest_dir_name 0x9F u32 largest_file_name
//! 0xA3  u32 largest_comment        0xA7 u8  is_sorted        (168 bytes in all)
//!
//! directory body: entries, back to back, exactly filling its size
//!   u32 kind (1 directory, 0 file), u32 pos, u32 size, u32 time,
//!   file only: u32 id, 4 bytes type (the extension reversed: "DIP\0" is PID), u32 key count,
//!   cstr name,
//!   file only: cstr comment, u32 keys[key count]
//! ```
//!
//! A directory entry's `pos`/`size` are its body's; a file's are its data's. The root has no
//! entry: the header points at its body.
//!
//! # Sources, and where they disagree
//!
//! * `sushi-shi/gruntz-decomp`, `docs/formats/rez-v1.md` (Gruntz's own reader disassembled,
//!   checked on the three shipped Gruntz archives) is the most complete and the one followed
//!   here: the field names, the comment and the key array of file entries, the meaning of
//!   `next_write_pos` (end of the file data), of the `largest_*` fields (longest present string
//!   plus its NUL) and of `is_sorted` (each directory's files fill one contiguous span), the
//!   bytes the game checks (`\r` at 0, `\n` at 0x3F, 0x1A at 0x7E, version 1), subdirectories
//!   before files in a body, and the orphaned directory copies of the retail archives (which
//!   our model keeps as gaps, so those archives write back byte for byte).
//! * OpenClaw's `libwap/RezArchiveFile.cpp` reads the same fixed offsets (127-byte text,
//!   version at 127, root at 131/135), but calls the key count "unknown" and skips one byte
//!   after the name as a "random NULL char": it assumes an empty comment and no keys, true of
//!   every shipped archive, so it misreads archives with either ([`validate`] warns). It also
//!   refuses an archive unless `root_dir_pos + root_dir_size` is the file's length: our builder
//!   writes the root body last, so its archives pass.
//! * `fizary/wap32` (`src/formats/rez/manager.ts`) agrees with `rez-v1.md` field for field
//!   (comment and keys read), treats entry times as `time_t`, refuses entry kinds other than
//!   0 and 1 (as we do: the entry's length depends on it), and joins `NAME.EXT` with the
//!   reversed type, which is our path naming.
//! * `boozook/WAP32.rs` (`res/src/reader.rs`) reads the kind as one byte plus padding, skips
//!   the id and key count, and assumes the empty comment like OpenClaw; it also drops entries
//!   of size 0, which we keep. Its header notes (after Gruntz-REZ-Patcher) number some fields
//!   differently (an "offset to last dir" where `rez-v1.md` has `next_write_pos`); the
//!   disassembly-backed reading wins.
//! * `root_dir_time` is not a time in the shipped archives (`rez-v1.md`: it looks like stack
//!   memory); it is kept as a number. Neither source says how the tools chose file ids; the
//!   builder writes 0.
//!
//! No real archive is in the test corpus (they are the games' data); the layout is proven by
//! the sources agreeing and by our own archives being read by the same rules.
//!
//! # What this module gives
//!
//! * [`RezIndex`]: `RezIndex::read(&bytes)` parses the header and directory bodies only and
//!   refers to data by offset and length: look files up by path ([`RezIndex::find`], `/` or
//!   `\`, case ignored), list them with their paths ([`RezIndex::files`]) and take a file's
//!   bytes as a slice of the input ([`RezIndex::data`]). This is what a caller with a
//!   memory-mapped archive uses.
//! * [`Rez`]: the owned, lossless model (header, tree with each file's bytes, and every
//!   unclaimed byte range as a [`Gap`]): `Rez::read(x)?.write()? == x`, its JSON form (file
//!   data and gaps in base64) included. [`Rez::repack`] lays an edited model out afresh.
//! * [`Builder`]: a new archive from `(path, bytes)` pairs, laid out as the tools did (see
//!   [`build`]).
//! * [`validate()`] / [`validate_index`], [`Rez::summary`], [`Rez::dump`].
//!
//! ```
//! use levelkit::formats::rez::{self, Builder, RezIndex};
//!
//! let mut builder = Builder::new();
//! builder.add("LEVEL1/TILES/ACTION/012.PID", b"pixels".to_vec())?;
//! builder.add("LEVEL1/PALETTES/MAIN.PAL", vec![0u8; 768])?;
//! let bytes = builder.finish()?.write()?;
//!
//! let index = RezIndex::read(&bytes)?;
//! let tile = index.find("level1\\tiles\\action\\012.pid").expect("found");
//! assert_eq!(tile.fourcc.extension_text(), "PID");
//! assert_eq!(index.data(tile)?, b"pixels");
//! assert_eq!(index.files().len(), 2);
//!
//! // The owned model writes the same bytes back.
//! assert_eq!(rez::Rez::read(&bytes)?.write()?, bytes);
//! # Ok::<(), levelkit::Error>(())
//! ```

pub mod build;
mod codec;
mod dump;
mod index;
pub mod layout;
mod model;
mod read;
pub mod samples;
mod validate;
mod write;

use std::collections::BTreeMap;

pub use build::{Builder, FileSpec, lay_out};
pub use index::RezIndex;
pub use layout::time_text;
pub use model::*;
pub use read::{read, read_index_with, read_with};
pub use validate::{validate, validate_index};
pub use write::write;

use crate::error::{Result, Warning};
use crate::limits::Limits;

impl<'a> RezIndex<'a> {
    /// Index an archive with the default [`Limits`] (see [`read_index_with`]).
    pub fn read(bytes: &'a [u8]) -> Result<RezIndex<'a>> {
        read_index_with(bytes, &Limits::default())
    }

    /// Index an archive under explicit limits.
    pub fn read_with(bytes: &'a [u8], limits: &Limits) -> Result<RezIndex<'a>> {
        read_index_with(bytes, limits)
    }

    /// Every finding (see [`validate_index`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate_index(self)
    }

    /// A one-look summary.
    pub fn summary(&self) -> Summary {
        Summary::of(&self.header, &self.root, self.bytes().len() as u64, &[])
    }
}

impl Rez {
    /// Read an archive into the owned model (see [`read()`]).
    pub fn read(bytes: &[u8]) -> Result<Rez> {
        read(bytes)
    }

    /// Read an archive under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Rez> {
        read_with(bytes, limits)
    }

    /// Write the archive (see [`write()`]).
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Every finding (see [`validate()`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// An archive with nothing in it, laid out.
    pub fn empty() -> Rez {
        let header = Header {
            banner: crate::strings::RawString(layout::standard_banner()),
            version: layout::VERSION,
            next_write_pos: layout::HEADER_LEN as u32,
            time: 0,
            largest_key_array: 0,
            largest_dir_name: 0,
            largest_file_name: 0,
            largest_comment: 0,
            is_sorted: 1,
        };
        let root = Directory {
            name: Default::default(),
            pos: layout::HEADER_LEN as u32,
            size: 0,
            time: 0,
            entries: Vec::new(),
        };
        Rez {
            header,
            root,
            gaps: Vec::new(),
        }
    }

    /// The same tree laid out afresh as the tools would (see [`build`]): positions, sizes and
    /// the computed header fields set, gaps dropped; the banner and the times kept. For a model
    /// edited after reading (a file's data replaced, an entry added).
    pub fn repack(&self) -> Result<Rez> {
        let mut root = self.root.clone();
        fix_sizes(&mut root);
        lay_out(self.header.clone(), root)
    }

    /// The file at `path` (`/` or `\`, case ignored), with its data.
    pub fn find(&self, path: &str) -> Option<&File<Blob>> {
        self.root.find_file(path)
    }

    /// Every file with its full path, depth first in file order.
    pub fn files(&self) -> Vec<(String, &File<Blob>)> {
        self.root.walk()
    }

    /// The archive's length in bytes: where the last of its pieces ends.
    pub fn length(&self) -> u64 {
        fn end<D>(dir: &Directory<D>) -> u64 {
            let own = u64::from(dir.pos) + u64::from(dir.size);
            dir.entries
                .iter()
                .map(|e| match e {
                    Entry::Directory(d) => end(d),
                    Entry::File(f) => u64::from(f.pos) + u64::from(f.size),
                })
                .fold(own, u64::max)
        }
        let gaps = self
            .gaps
            .iter()
            .map(|g| u64::from(g.offset) + g.bytes.0.len() as u64)
            .max()
            .unwrap_or(0);
        end(&self.root).max(gaps).max(layout::HEADER_LEN as u64)
    }

    /// A one-look summary.
    pub fn summary(&self) -> Summary {
        let gaps: Vec<(u32, usize)> = self
            .gaps
            .iter()
            .map(|g| (g.offset, g.bytes.0.len()))
            .collect();
        Summary::of(&self.header, &self.root, self.length(), &gaps)
    }

    /// The text form (`levelkit dump`): header, tree, gaps.
    pub fn dump(&self, name: &str) -> String {
        let gaps: Vec<(u32, usize)> = self
            .gaps
            .iter()
            .map(|g| (g.offset, g.bytes.0.len()))
            .collect();
        dump::dump(name, &self.header, &self.root, &gaps)
    }
}

/// Each file's size set from its data.
fn fix_sizes(dir: &mut Directory<Blob>) {
    for entry in &mut dir.entries {
        match entry {
            Entry::Directory(d) => fix_sizes(d),
            Entry::File(f) => f.size = u32::try_from(f.data.0.len()).unwrap_or(u32::MAX),
        }
    }
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Files in the tree.
    pub files: usize,
    /// Directories in the tree, the root not counted.
    pub directories: usize,
    /// Bytes of file data (the sum of the files' sizes).
    pub data_bytes: u64,
    /// Bytes of the archive.
    pub archive_bytes: u64,
    /// Files per type (`PID`; `(none)` for files without one).
    pub types: BTreeMap<String, usize>,
    /// Byte ranges that no structure claims (orphaned directory copies in the retail archives).
    pub gaps: usize,
    /// Their bytes.
    pub gap_bytes: u64,
    /// The header's `is_sorted` flag.
    pub is_sorted: bool,
    /// The header's time.
    pub time: String,
}

impl Summary {
    fn of<D>(header: &Header, root: &Directory<D>, len: u64, gaps: &[(u32, usize)]) -> Summary {
        let (files, directories) = root.counts();
        let mut types: BTreeMap<String, usize> = BTreeMap::new();
        let mut data_bytes = 0u64;
        for (_, f) in root.walk() {
            let ext = f.fourcc.extension_text();
            let key = if ext.is_empty() {
                "(none)".to_owned()
            } else {
                ext
            };
            *types.entry(key).or_default() += 1;
            data_bytes += u64::from(f.size);
        }
        Summary {
            files,
            directories,
            data_bytes,
            archive_bytes: len,
            types,
            gaps: gaps.len(),
            gap_bytes: gaps.iter().map(|g| g.1 as u64).sum(),
            is_sorted: header.is_sorted != 0,
            time: time_text(header.time),
        }
    }
}
