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
//! Byte-exactness: an unchanged uncompressed file is written back byte for byte. A compressed
//! file is re-compressed with zlib level 6 (as the original editors did); its *inflated* image is
//! identical, but the compressed bytes, and so the checksum that covers them, match only where
//! today's deflate makes the same choices as the 1998 zlib (see the notes, B.13). The writer
//! always stores the editor-correct checksum and decompressed size; [`SourceInfo`] keeps the values
//! that were in the file.
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
mod convert;
mod dump;
mod model;
mod read;
pub mod samples;
pub mod stream;
mod write;

pub use convert::{AFTER_NUL_SUFFIX, LAYOUT_PROPERTY, from_tilemap, to_tilemap};
pub use model::*;
pub use read::{checksum, read, read_with};
pub use write::{WriteOptions, ZLIB_LEVEL, write, write_with};

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

    /// The main plane, if any.
    pub fn main_plane(&self) -> Option<&Plane> {
        self.planes.iter().find(|p| p.is_main())
    }

    /// Check the level and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }
}

fn slot_has_nul(s: &SlotString, n: usize) -> bool {
    s.text.len() < n
}

/// Check a level and collect every finding, with its path.
///
/// Errors: counts and sizes the games would choke on (a decompressed-size field that disagrees
/// with the stream, which retail Gruntz refuses). Warnings: a checksum that differs from the
/// editor's (the games tolerate it), bytes after the tile-properties table or the zlib stream,
/// pixel sizes that disagree with the grid, tile-property sizes that disagree with the main
/// plane's tiles, tile ids without a property, cells naming a missing image set, objects outside
/// their plane, slots without a NUL, and not exactly one main plane.
pub fn validate(wwd: &Wwd) -> Vec<Warning> {
    let mut out = Vec::new();
    let warn = |out: &mut Vec<Warning>, path: String, msg: String| {
        out.push(Warning::warning(F, Location::path(path), msg));
    };
    if let Some(src) = &wwd.source {
        if src.stored_checksum != src.computed_checksum {
            warn(
                &mut out,
                "header.checksum".into(),
                format!(
                    "stored checksum 0x{:08X} differs from the editor's value 0x{:08X} for this \
                     main block (the games load it anyway)",
                    src.stored_checksum, src.computed_checksum
                ),
            );
        }
        let compressed = wwd.is_compressed();
        let want = if compressed { src.main_block_len } else { 0 };
        if u64::from(src.stored_decompressed_size) != want {
            let msg = if compressed {
                format!(
                    "decompressed-size field says {} bytes, the zlib stream inflates to {} \
                     (retail Gruntz refuses such a file)",
                    src.stored_decompressed_size, src.main_block_len
                )
            } else {
                format!(
                    "decompressed-size field is {} in an uncompressed file (the editor writes 0)",
                    src.stored_decompressed_size
                )
            };
            out.push(if compressed {
                Warning::error(F, Location::path("header.decompressed_size"), msg)
            } else {
                Warning::warning(F, Location::path("header.decompressed_size"), msg)
            });
        }
        if src.bytes_after_stream > 0 {
            warn(
                &mut out,
                "main_block".into(),
                format!(
                    "{} bytes follow the end of the zlib stream; they are not kept",
                    src.bytes_after_stream
                ),
            );
        }
    }
    if let Some(layout) = &wwd.layout {
        let canonical_end = write::section_ranges(wwd, layout)
            .iter()
            .map(|&(_, e)| e)
            .max()
            .unwrap_or(0);
        for gap in &layout.gaps {
            if u64::from(gap.offset) >= canonical_end {
                warn(
                    &mut out,
                    "layout.gaps".into(),
                    format!(
                        "the tile-properties table does not end at the end of the file: {} \
                         trailing bytes at 0x{:x} (kept; WapMap refuses such files)",
                        gap.bytes.len(),
                        gap.offset
                    ),
                );
            } else {
                warn(
                    &mut out,
                    "layout.gaps".into(),
                    format!(
                        "{} bytes at 0x{:x} belong to no section (kept)",
                        gap.bytes.len(),
                        gap.offset
                    ),
                );
            }
        }
    }
    let h = &wwd.header;
    for (path, s, n) in [
        ("header.name", &h.name, slot::NAME),
        ("header.author", &h.author, slot::NAME),
        ("header.birth", &h.birth, slot::NAME),
        ("header.rez_file", &h.rez_file, slot::REZ_FILE),
        ("header.image_dir", &h.image_dir, slot::PATH),
        ("header.pal_rez", &h.pal_rez, slot::PATH),
        ("header.launch_app", &h.launch_app, slot::PATH),
    ] {
        if !slot_has_nul(s, n) {
            warn(
                &mut out,
                path.into(),
                format!("{n}-byte slot has no NUL; the editor reads on into the next field"),
            );
        }
    }
    let mains = wwd.planes.iter().filter(|p| p.is_main()).count();
    if mains != 1 {
        warn(
            &mut out,
            "planes".into(),
            format!("{mains} planes are flagged main; the editors expect exactly one"),
        );
    }
    let records = wwd.tile_properties.records.len();
    for (pi, plane) in wwd.planes.iter().enumerate() {
        let path = format!("planes[{pi}]");
        let expect_w = i64::from(plane.tiles_wide) * i64::from(plane.tile_width);
        let expect_h = i64::from(plane.tiles_high) * i64::from(plane.tile_height);
        if i64::from(plane.width_px) != expect_w || i64::from(plane.height_px) != expect_h {
            warn(
                &mut out,
                path.clone(),
                format!(
                    "pixel size {} x {} disagrees with {} x {} tiles of {} x {} px",
                    plane.width_px,
                    plane.height_px,
                    plane.tiles_wide,
                    plane.tiles_high,
                    plane.tile_width,
                    plane.tile_height
                ),
            );
        }
        if plane.cell_count() != Some(plane.tiles.len()) {
            out.push(Warning::error(
                F,
                Location::path(format!("{path}.tiles")),
                format!(
                    "{} cells for a {} x {} grid",
                    plane.tiles.len(),
                    plane.tiles_wide,
                    plane.tiles_high
                ),
            ));
        }
        let mut missing_set = None;
        let mut missing_prop = None;
        let mut missing_count = 0usize;
        for (ci, &cell) in plane.tiles.iter().enumerate() {
            if let Tile::Image { set, id } = Tile::from_raw(cell) {
                if usize::from(set) >= plane.image_sets.len() && missing_set.is_none() {
                    missing_set = Some((ci, set));
                }
                if plane.is_main() && usize::from(id) >= records {
                    missing_count += 1;
                    missing_prop.get_or_insert((ci, id));
                }
            }
        }
        if let Some((ci, set)) = missing_set {
            warn(
                &mut out,
                format!("{path}.tiles[{ci}]"),
                format!(
                    "cell names image set {set}, but the plane lists {}",
                    plane.image_sets.len()
                ),
            );
        }
        if let Some((ci, id)) = missing_prop {
            warn(
                &mut out,
                format!("{path}.tiles[{ci}]"),
                format!(
                    "tile id {id} has no tile property ({missing_count} cells of the main plane \
                     use ids at or beyond the table's {records} records)"
                ),
            );
        }
        for (oi, o) in plane.objects.iter().enumerate() {
            let inside = (0..plane.width_px.max(0)).contains(&o.x)
                && (0..plane.height_px.max(0)).contains(&o.y);
            if !inside {
                warn(
                    &mut out,
                    format!("{path}.objects[{oi}]"),
                    format!(
                        "object {} ({}) at ({}, {}) is outside the {} x {} px plane",
                        o.id, o.logic, o.x, o.y, plane.width_px, plane.height_px
                    ),
                );
            }
        }
    }
    if let Some(main) = wwd.main_plane() {
        let (tw, th) = (
            u32::try_from(main.tile_width).unwrap_or(0),
            u32::try_from(main.tile_height).unwrap_or(0),
        );
        if let Some((i, r)) = wwd
            .tile_properties
            .records
            .iter()
            .enumerate()
            .find(|(_, r)| r.width != tw || r.height != th)
        {
            warn(
                &mut out,
                format!("tile_properties.records[{i}]"),
                format!(
                    "tile property is {} x {} px, the main plane's tiles are {tw} x {th}",
                    r.width, r.height
                ),
            );
        }
    }
    out
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
