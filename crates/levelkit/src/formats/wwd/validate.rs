//! Validation: every finding with its path, errors (the file is unusable) apart from warnings
//! (the game would still load it).

use super::*;

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
        let canonical_end = sections::section_ranges(wwd, layout)
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
