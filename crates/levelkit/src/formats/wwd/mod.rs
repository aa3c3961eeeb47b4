//! WWD: WAP32 world documents (Captain Claw, Gruntz, Get Medieval).
//!
//! Spec: `shared/specs/wwd.txt` (the original GLE / Wap World document) as corrected by
//! `shared/specs/wwd-notes.md`. Where they disagree the notes win: the main block is a zlib stream
//! (not raw deflate), the checksum needs the extra inflated byte, the first dword is the header
//! size, reserved words can be non-zero, mask tiles do occur, double-tile rectangles are inclusive,
//! and a tile cell is an image-set index (high 16 bits) plus a tile id (low 16 bits).
//!
//! Supported: every header, plane, object and tile-property field (all three record types), raw
//! code-page strings with whatever follows their NUL, compressed and uncompressed main blocks,
//! sections in any order and shared image-set name runs (a [`Layout`] keeps any non-editor
//! arrangement, gaps and trailing bytes included), and the editor's checksum.
//!
//! Byte-exactness: an unchanged file is written back byte for byte, compressed or not. For a
//! compressed file the reader keeps the stored zlib stream in [`Wwd::compression`]
//! ([`Deflate::Original`]), and the writer puts it back while the main block inflates to the same
//! bytes; reading compresses nothing. Which zlib level rebuilds the stream exactly (6 for the
//! 1998 editors, 9 for CrazyHook's rewrites; none for some retail levels, which come from a 1990s
//! zlib) is settled only on [`Wwd::settle_compression`] (and for `==`). The JSON form keeps the
//! stream (`kept`) unless the model was settled first, so every build writes the same JSON:
//! only reference zlib can reproduce zlib's choices, and a build without the `c-zlib` feature
//! (WebAssembly) has none (see [`Deflate`]). The
//! writer always stores the editor-correct checksum and decompressed size (a kept stream's own
//! checksum aside); [`SourceInfo`] keeps the values that were in the file.
//!
//! Not supported: tile-property types other than 1–3 (their size is unknown, so they are refused
//! with [`crate::ErrorKind::Unsupported`]); REZ archives and PID images (rendering only).
//!
//! ```
//! use levelkit::formats::wwd;
//!
//! // The bundled Gruntz-like sample (made by `wwd::samples::gruntz_like`).
//! let bytes = include_bytes!("../../../../../samples/gruntz-like.wwd");
//! let level = wwd::Wwd::read(bytes)?;
//! assert_eq!(level.planes.len(), 2);
//! assert_eq!(level.summary().objects, 24);
//! assert!(level.validate().is_empty());
//! assert_eq!(level.write()?, bytes);
//! # Ok::<(), levelkit::Error>(())
//! ```

mod codec;
mod deflate;
mod dump;
pub mod game_sample;
pub mod graphics;
mod model;
mod read;
pub mod samples;
mod sections;
pub mod stream;
mod tilemap;
mod validate;
mod write;

pub use model::*;
pub use sections::checksum;
pub use tilemap::{
    AFTER_NUL_SUFFIX, CHECKSUM_PROPERTY, DEFLATE_PROPERTY, LAYOUT_PROPERTY, SPARSE_GAP,
    TILE_ID_PROPERTY, from_tilemap, object_type_properties, sparse_tile_ids, to_tilemap,
};
pub use validate::validate;
pub use write::{WriteOptions, ZLIB_LEVEL, write, write_with};

/// Read a WWD file with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Wwd> {
    read_with(bytes, &Limits::default())
}

/// Read a WWD file, refusing anything that would pass `limits`. A compressed level is inflated
/// straight into its tiles by the streaming reader ([`stream`]); anything that reader does not
/// take (and every error) goes through the whole-image reader (`read.rs`), which gives the
/// result or the error.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wwd> {
    let mut r = crate::io::ByteReader::new(Format::Wwd, bytes);
    let (header, derived) = read::read_header(&mut r)?;
    if header.flags.contains(HeaderFlags::COMPRESS) {
        if let Some(wwd) = stream::streamed(bytes, &header, &derived, limits) {
            return Ok(wwd);
        }
    }
    read::read_image(bytes, header, &derived, limits)
}

use crate::error::{Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::tilemap::TileMap;

const F: Format = Format::Wwd;

impl Wwd {
    /// Read a file (see [`read`]).
    pub fn read(bytes: &[u8]) -> Result<Wwd> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wwd> {
        read_with(bytes, limits)
    }

    /// Write the level with default options.
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Write the level.
    pub fn write_with(&self, options: &WriteOptions) -> Result<Vec<u8>> {
        write_with(self, options)
    }

    /// Convert to the common tile-map model.
    pub fn to_tilemap(&self) -> (TileMap, Vec<Warning>) {
        to_tilemap(self)
    }

    /// True when the main block is compressed.
    pub fn is_compressed(&self) -> bool {
        self.header.flags.contains(HeaderFlags::COMPRESS)
    }

    /// Settle how the main block is deflated ([`Deflate::settle`]): a level read from a
    /// compressed file gets the zlib level that reproduces its stream, or keeps the stream where
    /// none does. Runs the level search (at most three deflates of the main block, each stopped
    /// at the first differing byte); writing never needs it. Settled first, the JSON form names
    /// the level instead of carrying the stream.
    pub fn settle_compression(&mut self) -> &Deflate {
        self.compression.settle();
        &self.compression
    }

    /// The main plane, if any.
    pub fn main_plane(&self) -> Option<&Plane> {
        self.planes.iter().find(|p| p.is_main())
    }

    /// Check the level and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Level name.
    pub name: String,
    /// Author.
    pub author: String,
    /// `"compressed"` or `"uncompressed"`.
    pub compression: &'static str,
    /// Planes as `name (w x h tiles of t px)`.
    pub planes: Vec<String>,
    /// Cells that are not empty, over all planes.
    pub tiles: usize,
    /// Objects over all planes.
    pub objects: usize,
    /// Tile-property records as `(single, double, mask)`.
    pub tile_properties: (usize, usize, usize),
    /// `"ok"`, `"mismatch"` or `"unknown"` (a model not read from a file).
    pub checksum: &'static str,
    /// Stored checksum, if read from a file.
    pub stored_checksum: Option<u32>,
    /// Editor checksum of the file's main block, if read from a file.
    pub computed_checksum: Option<u32>,
    /// Whether the file uses the editor's section layout.
    pub editor_layout: bool,
}

impl Wwd {
    /// Summarise the level.
    pub fn summary(&self) -> Summary {
        let mut kinds = (0, 0, 0);
        for r in &self.tile_properties.records {
            match r.attr {
                TileAttr::Single { .. } => kinds.0 += 1,
                TileAttr::Double { .. } => kinds.1 += 1,
                TileAttr::Mask { .. } => kinds.2 += 1,
            }
        }
        Summary {
            name: self.header.name.text.display(),
            author: self.header.author.text.display(),
            compression: if self.is_compressed() {
                "compressed"
            } else {
                "uncompressed"
            },
            planes: self
                .planes
                .iter()
                .map(|p| {
                    format!(
                        "{} ({} x {} tiles of {} x {} px{})",
                        p.name.text.display(),
                        p.tiles_wide,
                        p.tiles_high,
                        p.tile_width,
                        p.tile_height,
                        if p.is_main() { ", main" } else { "" }
                    )
                })
                .collect(),
            tiles: self
                .planes
                .iter()
                .map(|p| p.tiles.iter().filter(|&&c| c != TILE_EMPTY).count())
                .sum(),
            objects: self.planes.iter().map(|p| p.objects.len()).sum(),
            tile_properties: kinds,
            checksum: match &self.source {
                None => "unknown",
                Some(s) if s.stored_checksum == s.computed_checksum => "ok",
                Some(_) => "mismatch",
            },
            stored_checksum: self.source.as_ref().map(|s| s.stored_checksum),
            computed_checksum: self.source.as_ref().map(|s| s.computed_checksum),
            editor_layout: self.layout.is_none(),
        }
    }
}
