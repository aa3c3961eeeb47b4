//! The text form of a WWD level (`levelkit dump`) and its `levelkit info` rows: every header
//! field, each plane with its fields, image sets and a count of its cells by kind, each object on
//! one line, and the tile properties (counted by type, with the records that are not single
//! listed).

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};

use super::{
    AddFlags, DrawFlags, DynamicFlags, HEADER_SIZE, HeaderFlags, Plane, PlaneFlags, SlotString,
    Tile, TileAttr, UserFlags, Wwd, attribute,
};
use crate::codec::{flags_text, info_row};
use crate::strings::quoted;

macro_rules! flags {
    ($ty:ty, $value:expr) => {{
        let value: $ty = $value;
        flags_text(
            value.bits(),
            value.iter_names().map(|(n, _)| n),
            <$ty>::all().bits(),
        )
    }};
}

/// The text dump of a level; `name` is the file's name.
pub fn dump(name: &str, w: &Wwd) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_wwd(&mut s, name, w);
    s
}

fn slot(s: &SlotString) -> String {
    match &s.after_nul {
        None => quoted(&s.text),
        Some(rest) => format!(
            "{} (+{} bytes after the NUL: {})",
            quoted(&s.text),
            rest.len(),
            quoted(rest)
        ),
    }
}

fn attr_name(value: i32) -> String {
    match attribute::name(value) {
        Some(name) => format!("{value} ({name})"),
        None => value.to_string(),
    }
}

fn dump_wwd(s: &mut String, name: &str, w: &Wwd) -> fmt::Result {
    let h = &w.header;
    writeln!(s, "{name}: wwd level (WWD {HEADER_SIZE})")?;
    writeln!(s)?;
    writeln!(s, "header")?;
    let rows: [(&str, String); 13] = [
        ("flags", flags!(HeaderFlags, h.flags)),
        ("name", slot(&h.name)),
        ("author", slot(&h.author)),
        ("birth", slot(&h.birth)),
        ("rez file", slot(&h.rez_file)),
        ("image dir", slot(&h.image_dir)),
        ("palette", slot(&h.pal_rez)),
        ("launch app", slot(&h.launch_app)),
        ("start", format!("({}, {})", h.start_x, h.start_y)),
        (
            "image sets",
            h.image_sets.iter().map(slot).collect::<Vec<_>>().join(", "),
        ),
        (
            "prefixes",
            h.prefixes.iter().map(slot).collect::<Vec<_>>().join(", "),
        ),
        (
            "reserved",
            format!(
                "unknown1 0x{:X}, unknown2 0x{:X}, unknown3 0x{:X}, unknown4 0x{:X}",
                h.unknown1, h.unknown2, h.unknown3, h.unknown4
            ),
        ),
        (
            "compression",
            if w.is_compressed() {
                "zlib".to_owned()
            } else {
                "none".to_owned()
            },
        ),
    ];
    for (key, value) in rows {
        writeln!(s, "  {key:<14}{value}")?;
    }

    writeln!(s)?;
    writeln!(s, "planes ({})", w.planes.len())?;
    for (index, plane) in w.planes.iter().enumerate() {
        dump_plane(s, index, plane)?;
    }

    for (index, plane) in w.planes.iter().enumerate() {
        if plane.objects.is_empty() {
            continue;
        }
        writeln!(s)?;
        writeln!(
            s,
            "objects of plane {index} {} ({})",
            quoted(&plane.name.text),
            plane.objects.len()
        )?;
        let logic_width = plane
            .objects
            .iter()
            .map(|o| o.logic.display().chars().count())
            .max()
            .unwrap_or(0);
        for (oi, o) in plane.objects.iter().enumerate() {
            write!(
                s,
                "  [{oi:>4}] id {:>6}  {:<logic_width$}  x {:>6}  y {:>6}  z {:>5}  image {}",
                o.id,
                o.logic.display(),
                o.x,
                o.y,
                o.z,
                quoted(&o.image_set),
            )?;
            if !o.name.is_empty() {
                write!(s, "  name {}", quoted(&o.name))?;
            }
            if !o.animation.is_empty() {
                write!(s, "  animation {}", quoted(&o.animation))?;
            }
            let flags = [
                (o.add_flags.bits(), "add", flags!(AddFlags, o.add_flags)),
                (
                    o.dynamic_flags.bits(),
                    "dynamic",
                    flags!(DynamicFlags, o.dynamic_flags),
                ),
                (o.draw_flags.bits(), "draw", flags!(DrawFlags, o.draw_flags)),
                (o.user_flags.bits(), "user", flags!(UserFlags, o.user_flags)),
            ];
            for (bits, what, text) in flags {
                if bits != 0 {
                    write!(s, "  {what} {text}")?;
                }
            }
            writeln!(s)?;
        }
    }

    let records = &w.tile_properties.records;
    let (mut single, mut double, mut mask) = (0usize, 0usize, 0usize);
    for r in records {
        match r.attr {
            TileAttr::Single { .. } => single += 1,
            TileAttr::Double { .. } => double += 1,
            TileAttr::Mask { .. } => mask += 1,
        }
    }
    writeln!(s)?;
    writeln!(
        s,
        "tile properties ({} records: {single} single, {double} double, {mask} mask)",
        records.len()
    )?;
    let tp = &w.tile_properties;
    writeln!(
        s,
        "  reserved      unknown1 0x{:X}, unknown2 0x{:X}, unknown3..7 {:?}",
        tp.unknown1, tp.unknown2, tp.unknown3_7
    )?;
    for (id, r) in records.iter().enumerate() {
        let unknown = if r.unknown == 0 {
            String::new()
        } else {
            format!("  unknown 0x{:X}", r.unknown)
        };
        match &r.attr {
            TileAttr::Single { .. } => {}
            TileAttr::Double {
                outside,
                inside,
                rect,
            } => writeln!(
                s,
                "  [{id:>4}] double {} x {} px  outside {}  inside {}  rect {},{},{},{} \
                 (inclusive){unknown}",
                r.width,
                r.height,
                attr_name(*outside),
                attr_name(*inside),
                rect.left,
                rect.top,
                rect.right,
                rect.bottom
            )?,
            TileAttr::Mask { mask } => writeln!(
                s,
                "  [{id:>4}] mask   {} x {} px  {} mask bytes{unknown}",
                r.width,
                r.height,
                mask.len()
            )?,
        }
    }

    writeln!(s)?;
    match &w.layout {
        None => writeln!(s, "layout          editor's contiguous sections")?,
        Some(layout) => {
            writeln!(
                s,
                "layout          custom: planes at 0x{:X}, tile properties at 0x{:X}, {} gaps ({} bytes)",
                layout.offset_planes,
                layout.offset_tile_properties,
                layout.gaps.len(),
                layout.gaps.iter().map(|g| g.bytes.len()).sum::<usize>()
            )?;
        }
    }
    if let Some(src) = &w.source {
        let status = if src.stored_checksum == src.computed_checksum {
            "ok"
        } else {
            "MISMATCH"
        };
        writeln!(
            s,
            "source          {} bytes; main block {} bytes inflated; checksum stored 0x{:08X}, \
             computed 0x{:08X} ({status}); decompressed-size field {}",
            src.file_len,
            src.main_block_len,
            src.stored_checksum,
            src.computed_checksum,
            src.stored_decompressed_size
        )?;
    }
    Ok(())
}

fn dump_plane(s: &mut String, index: usize, p: &Plane) -> fmt::Result {
    writeln!(s, "  plane {index} {}", slot(&p.name))?;
    let (mut empty, mut fill, mut image) = (0usize, 0usize, 0usize);
    let mut ids = BTreeSet::new();
    for &cell in &p.tiles {
        match Tile::from_raw(cell) {
            Tile::Empty => empty += 1,
            Tile::Fill => fill += 1,
            Tile::Image { id, .. } => {
                image += 1;
                ids.insert(id);
            }
        }
    }
    let id_range = match (ids.first(), ids.last()) {
        (Some(lo), Some(hi)) => format!(", {} distinct ids {lo}..={hi}", ids.len()),
        _ => String::new(),
    };
    let image_sets = if p.image_sets.is_empty() {
        "none".to_owned()
    } else {
        p.image_sets
            .iter()
            .map(quoted)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows: [(&str, String); 10] = [
        ("flags", flags!(PlaneFlags, p.flags)),
        (
            "size",
            format!(
                "{} x {} px: {} x {} tiles of {} x {} px",
                p.width_px, p.height_px, p.tiles_wide, p.tiles_high, p.tile_width, p.tile_height
            ),
        ),
        ("origin", format!("({}, {})", p.origin_x, p.origin_y)),
        (
            "movement",
            format!("{}% x, {}% y", p.movement_x_percent, p.movement_y_percent),
        ),
        ("fill color", format!("0x{:08X}", p.fill_color)),
        ("z", p.z_coord.to_string()),
        (
            "reserved",
            format!(
                "unknown1 0x{:X}, unknown2 0x{:X}, unknown5 0x{:X}, unknown6 0x{:X}, unknown7 0x{:X}",
                p.unknown1, p.unknown2, p.unknown5, p.unknown6, p.unknown7
            ),
        ),
        ("image sets", image_sets),
        (
            "tiles",
            format!(
                "{} cells: {image} image{id_range}, {fill} fill, {empty} empty",
                p.tiles.len()
            ),
        ),
        ("objects", p.objects.len().to_string()),
    ];
    for (key, value) in rows {
        writeln!(s, "    {key:<12}{value}")?;
    }
    Ok(())
}

/// The rows of `levelkit info` for a level.
pub fn info_text(w: &Wwd) -> String {
    let mut s = String::new();
    let s = &mut s;
    let summary = w.summary();
    info_row(s, "format", format_args!("wwd, WWD {HEADER_SIZE}"));
    info_row(s, "flags", flags!(HeaderFlags, w.header.flags));
    info_row(s, "name", &summary.name);
    info_row(s, "author", &summary.author);
    info_row(s, "planes", summary.planes.len());
    for plane in &summary.planes {
        info_row(s, "", format_args!("- {plane}"));
    }
    info_row(
        s,
        "tiles",
        format_args!("{} non-empty cells", summary.tiles),
    );
    info_row(s, "objects", summary.objects);
    let (single, double, mask) = summary.tile_properties;
    info_row(
        s,
        "tile props",
        format_args!(
            "{} records ({single} single, {double} double, {mask} mask)",
            w.tile_properties.records.len()
        ),
    );
    info_row(s, "compression", summary.compression);
    let checksum = match (summary.stored_checksum, summary.computed_checksum) {
        (Some(stored), Some(computed)) if stored == computed => format!("ok (0x{stored:08X})"),
        (Some(stored), Some(computed)) => {
            format!("mismatch: stored 0x{stored:08X}, computed 0x{computed:08X}")
        }
        _ => format!("{} (not read from a WWD file)", summary.checksum),
    };
    info_row(s, "checksum", checksum);
    info_row(
        s,
        "layout",
        if summary.editor_layout {
            "editor's"
        } else {
            "custom (kept as read)"
        },
    );
    std::mem::take(s)
}
