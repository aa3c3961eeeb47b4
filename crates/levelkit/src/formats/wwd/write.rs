//! WWD writer. Mirrors `read.rs` function by function.
//!
//! Each section is serialised on its own and placed at its offset in the uncompressed image:
//! the editor's contiguous offsets for a model without a [`Layout`], the stored ones otherwise
//! (where two sections overlap, as plane name lists sharing one run may, their bytes must agree).
//! Then the main block is compressed if asked (as the model's [`Deflate`] says: a kept stream goes
//! back verbatim while the main block is unedited), and the decompressed size and checksum are
//! filled in.

use super::model::*;
use super::sections::{canonical_image_len, canonical_layout, checksum, section_ranges, too_big};
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

const F: Format = Format::Wwd;

/// Choices the writer makes that are not part of the level itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Compress the main block (`Some(true)`), store it plainly (`Some(false)`), or follow the
    /// header's compress flag (`None`). The flag written matches the choice.
    pub compress: Option<bool>,
    /// Ignore a stored [`Layout`] and write the editor's contiguous one.
    pub relayout: bool,
}

/// zlib level the original editors used (`78 9C` streams), and the default [`Deflate`].
pub const ZLIB_LEVEL: u32 = 6;

/// Write a level with default options.
pub fn write(wwd: &Wwd) -> Result<Vec<u8>> {
    write_with(wwd, &WriteOptions::default())
}

/// Write a level.
pub fn write_with(wwd: &Wwd, options: &WriteOptions) -> Result<Vec<u8>> {
    check_model(wwd)?;
    let compress = options
        .compress
        .unwrap_or(wwd.header.flags.contains(HeaderFlags::COMPRESS));
    let canonical = canonical_layout(wwd)?;
    let layout = match &wwd.layout {
        Some(stored) if !options.relayout => stored,
        _ => &canonical,
    };
    let exact = layout == &canonical;
    if !exact && layout.planes.len() != wwd.planes.len() {
        return Err(Error::malformed(
            F,
            Location::path("layout.planes"),
            format!(
                "stored layout lists {} planes, the level has {}; drop `layout` to re-lay the file out",
                layout.planes.len(),
                wwd.planes.len()
            ),
        ));
    }

    let image_len = if exact {
        canonical_image_len(wwd).unwrap_or(0)
    } else {
        stored_image_len(wwd, layout)?
    };
    let mut image = Image::new(image_len as usize, !exact);
    let mut w = ByteWriter::with_capacity(4096);

    let mut header_flags = wwd.header.flags;
    header_flags.set(HeaderFlags::COMPRESS, compress);
    write_header(&mut w, &wwd.header, header_flags, wwd.planes.len(), layout);
    image.place(0, &mut w, "header")?;
    for (index, (plane, pl)) in wwd.planes.iter().zip(&layout.planes).enumerate() {
        write_plane_header(&mut w, plane, pl);
        let at = u64::from(layout.offset_planes) + index as u64 * u64::from(PLANE_HEADER_SIZE);
        image.place(at, &mut w, "plane header")?;
    }
    for (plane, pl) in wwd.planes.iter().zip(&layout.planes) {
        write_tiles(&mut w, plane);
        image.place(u64::from(pl.offset_tiles), &mut w, "tile grid")?;
    }
    for (plane, pl) in wwd.planes.iter().zip(&layout.planes) {
        if !plane.image_sets.is_empty() {
            write_image_sets(&mut w, plane);
            image.place(u64::from(pl.offset_image_sets), &mut w, "image-set names")?;
        }
    }
    for (plane, pl) in wwd.planes.iter().zip(&layout.planes) {
        if !plane.objects.is_empty() {
            write_objects(&mut w, plane);
            image.place(u64::from(pl.offset_objects), &mut w, "objects")?;
        }
    }
    write_tile_properties(&mut w, &wwd.tile_properties);
    image.place(
        u64::from(layout.offset_tile_properties),
        &mut w,
        "tile properties",
    )?;
    for gap in &layout.gaps {
        w.put_bytes(&gap.bytes);
        image.place(u64::from(gap.offset), &mut w, "gap")?;
    }

    let mut image = image.buf;
    let main_len = image.len().saturating_sub(HEADER_SIZE as usize);
    if compress {
        let main = image.get(HEADER_SIZE as usize..).unwrap_or(&[]);
        let (compressed, kept_checksum) = super::deflate::compress(main, &wwd.compression)?;
        let sum = kept_checksum.unwrap_or_else(|| checksum(&compressed, Some(main)));
        let mut out = Vec::with_capacity(HEADER_SIZE as usize + compressed.len());
        out.extend_from_slice(image.get(..HEADER_SIZE as usize).unwrap_or(&[]));
        out.extend_from_slice(&compressed);
        let mut out = ByteWriter::from(out);
        out.patch_u32_le(0x2E8, u32::try_from(main_len).unwrap_or(u32::MAX));
        out.patch_u32_le(0x2EC, sum);
        Ok(out.into_inner())
    } else {
        let sum = checksum(image.get(HEADER_SIZE as usize..).unwrap_or(&[]), None);
        // A stored checksum that is not the editor's (another tool's, or a hand-edited file) is
        // kept while the main block is the one it was stored with.
        let sum = match &wwd.source {
            Some(s) if s.stored_checksum != s.computed_checksum && s.computed_checksum == sum => {
                s.stored_checksum
            }
            _ => sum,
        };
        let mut out = ByteWriter::from(std::mem::take(&mut image));
        out.patch_u32_le(0x2E8, 0);
        out.patch_u32_le(0x2EC, sum);
        Ok(out.into_inner())
    }
}

/// The uncompressed image being assembled.
struct Image {
    buf: Vec<u8>,
    /// Which bytes a section has written, when sections may overlap (stored layouts).
    covered: Option<Vec<bool>>,
}

impl Image {
    fn new(len: usize, track: bool) -> Self {
        Image {
            buf: vec![0; len],
            covered: track.then(|| vec![false; len]),
        }
    }

    /// Copy `w`'s bytes to `at` and clear `w` for the next section.
    fn place(&mut self, at: u64, w: &mut ByteWriter, what: &str) -> Result<()> {
        let bytes = w.as_slice();
        let start = usize::try_from(at).unwrap_or(usize::MAX);
        let end = start.saturating_add(bytes.len());
        let Some(dst) = self.buf.get_mut(start..end) else {
            return Err(Error::malformed(
                F,
                Location::at(at).with_path("layout"),
                format!("{what} would end at 0x{end:x}, past the image"),
            ));
        };
        if let Some(covered) = &mut self.covered {
            let marks = covered.get_mut(start..end).unwrap_or(&mut []);
            for ((d, &s), m) in dst.iter_mut().zip(bytes).zip(marks.iter_mut()) {
                if *m && *d != s {
                    return Err(Error::malformed(
                        F,
                        Location::at(at).with_path("layout"),
                        format!(
                            "stored layout puts the {what} over another section with different \
                             bytes; drop `layout` (or use relayout) to write the editor's layout"
                        ),
                    ));
                }
                *d = s;
                *m = true;
            }
        } else {
            dst.copy_from_slice(bytes);
        }
        w.clear();
        Ok(())
    }
}

/// Refuse models the format cannot hold, naming the field.
fn check_model(wwd: &Wwd) -> Result<()> {
    let slot_fits = |s: &SlotString, n: usize, path: &str| -> Result<()> {
        let len = s.text.len();
        let tail = s.after_nul.as_ref().map_or(0, |t| t.len());
        let fits = match &s.after_nul {
            None => len <= n,
            Some(_) => len < n && len + 1 + tail == n,
        };
        if fits {
            Ok(())
        } else {
            Err(Error::malformed(
                F,
                Location::path(path),
                format!(
                    "string of {len} bytes (+{tail} after the NUL) does not fit its {n}-byte slot"
                ),
            ))
        }
    };
    let h = &wwd.header;
    slot_fits(&h.name, slot::NAME, "header.name")?;
    slot_fits(&h.author, slot::NAME, "header.author")?;
    slot_fits(&h.birth, slot::NAME, "header.birth")?;
    slot_fits(&h.rez_file, slot::REZ_FILE, "header.rez_file")?;
    slot_fits(&h.image_dir, slot::PATH, "header.image_dir")?;
    slot_fits(&h.pal_rez, slot::PATH, "header.pal_rez")?;
    slot_fits(&h.launch_app, slot::PATH, "header.launch_app")?;
    for (i, s) in h.image_sets.iter().enumerate() {
        slot_fits(s, slot::PATH, &format!("header.image_sets[{i}]"))?;
    }
    for (i, s) in h.prefixes.iter().enumerate() {
        slot_fits(s, slot::PREFIX, &format!("header.prefixes[{i}]"))?;
    }
    for (index, plane) in wwd.planes.iter().enumerate() {
        slot_fits(&plane.name, slot::NAME, &format!("planes[{index}].name"))?;
        if plane.cell_count() != Some(plane.tiles.len()) {
            return Err(Error::malformed(
                F,
                Location::path(format!("planes[{index}].tiles")),
                format!(
                    "plane has {} tiles, but its grid is {} x {}",
                    plane.tiles.len(),
                    plane.tiles_wide,
                    plane.tiles_high
                ),
            ));
        }
        if let Some(n) = plane.image_sets.iter().position(|s| s.0.contains(&0)) {
            return Err(Error::malformed(
                F,
                Location::path(format!("planes[{index}].image_sets[{n}]")),
                "image-set names are NUL-terminated and cannot contain a NUL byte",
            ));
        }
    }
    for (index, record) in wwd.tile_properties.records.iter().enumerate() {
        if let TileAttr::Mask { mask } = &record.attr {
            let want = u64::from(record.width) * u64::from(record.height);
            if mask.len() as u64 != want {
                return Err(Error::malformed(
                    F,
                    Location::path(format!("tile_properties.records[{index}].mask")),
                    format!(
                        "mask has {} bytes, but the tile is {} x {} pixels",
                        mask.len(),
                        record.width,
                        record.height
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Image length under a stored layout: the furthest end of any section or gap, which may not
/// exceed all sections and gaps laid end to end (so a hand-edited offset cannot make the writer
/// allocate gigabytes).
fn stored_image_len(wwd: &Wwd, layout: &Layout) -> Result<u64> {
    let mut ranges = section_ranges(wwd, layout);
    for gap in &layout.gaps {
        let g = u64::from(gap.offset);
        ranges.push((g, g + gap.bytes.len() as u64));
    }
    let end = ranges.iter().map(|&(_, e)| e).max().unwrap_or(0);
    let total: u64 = ranges.iter().map(|&(s, e)| e - s).sum();
    if end > total {
        return Err(Error::malformed(
            F,
            Location::path("layout"),
            format!(
                "stored layout reaches 0x{end:x} but its sections and gaps add up to only {total} \
                 bytes; drop `layout` to re-lay the file out"
            ),
        ));
    }
    if end > u64::from(u32::MAX) {
        return Err(too_big());
    }
    Ok(end)
}

fn put_slot(w: &mut ByteWriter, s: &SlotString, n: usize) {
    let start = w.len();
    w.put_bytes(s.text.as_bytes());
    if s.text.len() < n {
        w.put_u8(0);
        if let Some(after) = &s.after_nul {
            w.put_bytes(after.as_bytes());
        }
    }
    let written = w.len() - start;
    w.put_fill(0, n.saturating_sub(written));
}

fn write_header(
    w: &mut ByteWriter,
    h: &Header,
    flags: HeaderFlags,
    num_planes: usize,
    layout: &Layout,
) {
    w.put_u32_le(HEADER_SIZE);
    w.put_u32_le(h.unknown1);
    w.put_u32_le(flags.bits());
    w.put_u32_le(h.unknown2);
    put_slot(w, &h.name, slot::NAME);
    put_slot(w, &h.author, slot::NAME);
    put_slot(w, &h.birth, slot::NAME);
    put_slot(w, &h.rez_file, slot::REZ_FILE);
    put_slot(w, &h.image_dir, slot::PATH);
    put_slot(w, &h.pal_rez, slot::PATH);
    w.put_i32_le(h.start_x);
    w.put_i32_le(h.start_y);
    w.put_u32_le(h.unknown3);
    w.put_u32_le(num_planes as u32);
    w.put_u32_le(layout.offset_planes);
    w.put_u32_le(layout.offset_tile_properties);
    w.put_u32_le(0); // decompressed size, patched at the end
    w.put_u32_le(0); // checksum, patched at the end
    w.put_u32_le(h.unknown4);
    put_slot(w, &h.launch_app, slot::PATH);
    for s in &h.image_sets {
        put_slot(w, s, slot::PATH);
    }
    for s in &h.prefixes {
        put_slot(w, s, slot::PREFIX);
    }
}

fn write_plane_header(w: &mut ByteWriter, p: &Plane, pl: &PlaneLayout) {
    w.put_u32_le(PLANE_HEADER_SIZE);
    w.put_u32_le(p.unknown1);
    w.put_u32_le(p.flags.bits());
    w.put_u32_le(p.unknown2);
    put_slot(w, &p.name, slot::NAME);
    w.put_i32_le(p.width_px);
    w.put_i32_le(p.height_px);
    w.put_i32_le(p.tile_width);
    w.put_i32_le(p.tile_height);
    w.put_i32_le(p.tiles_wide);
    w.put_i32_le(p.tiles_high);
    w.put_i32_le(p.origin_x);
    w.put_i32_le(p.origin_y);
    w.put_i32_le(p.movement_x_percent);
    w.put_i32_le(p.movement_y_percent);
    w.put_i32_le(p.fill_color);
    w.put_u32_le(p.image_sets.len() as u32);
    w.put_u32_le(p.objects.len() as u32);
    w.put_u32_le(pl.offset_tiles);
    w.put_u32_le(pl.offset_image_sets);
    w.put_u32_le(pl.offset_objects);
    w.put_i32_le(p.z_coord);
    w.put_u32_le(p.unknown5);
    w.put_u32_le(p.unknown6);
    w.put_u32_le(p.unknown7);
}

fn write_tiles(w: &mut ByteWriter, p: &Plane) {
    for &cell in &p.tiles {
        w.put_u32_le(cell);
    }
}

fn write_image_sets(w: &mut ByteWriter, p: &Plane) {
    for name in &p.image_sets {
        w.put_bytes(name.as_bytes());
        w.put_u8(0);
    }
}

fn write_objects(w: &mut ByteWriter, p: &Plane) {
    for o in &p.objects {
        write_object(w, o);
    }
}

fn put_rect(w: &mut ByteWriter, r: &Rect) {
    w.put_i32_le(r.left);
    w.put_i32_le(r.top);
    w.put_i32_le(r.right);
    w.put_i32_le(r.bottom);
}

fn write_object(w: &mut ByteWriter, o: &Object) {
    w.put_i32_le(o.id);
    w.put_u32_le(o.name.len() as u32);
    w.put_u32_le(o.logic.len() as u32);
    w.put_u32_le(o.image_set.len() as u32);
    w.put_u32_le(o.animation.len() as u32);
    w.put_i32_le(o.x);
    w.put_i32_le(o.y);
    w.put_i32_le(o.z);
    w.put_i32_le(o.i);
    w.put_u32_le(o.add_flags.bits());
    w.put_u32_le(o.dynamic_flags.bits());
    w.put_u32_le(o.draw_flags.bits());
    w.put_u32_le(o.user_flags.bits());
    w.put_i32_le(o.score);
    w.put_i32_le(o.points);
    w.put_i32_le(o.powerup);
    w.put_i32_le(o.damage);
    w.put_i32_le(o.smarts);
    w.put_i32_le(o.health);
    put_rect(w, &o.move_rect);
    put_rect(w, &o.hit_rect);
    put_rect(w, &o.attack_rect);
    put_rect(w, &o.clip_rect);
    put_rect(w, &o.user_rect1);
    put_rect(w, &o.user_rect2);
    for &v in &o.user_values {
        w.put_i32_le(v);
    }
    w.put_i32_le(o.min_x);
    w.put_i32_le(o.min_y);
    w.put_i32_le(o.max_x);
    w.put_i32_le(o.max_y);
    w.put_i32_le(o.speed_x);
    w.put_i32_le(o.speed_y);
    w.put_i32_le(o.tweak_x);
    w.put_i32_le(o.tweak_y);
    w.put_i32_le(o.counter);
    w.put_i32_le(o.speed);
    w.put_i32_le(o.width);
    w.put_i32_le(o.height);
    w.put_i32_le(o.direction);
    w.put_i32_le(o.face_dir);
    w.put_i32_le(o.time_delay);
    w.put_i32_le(o.frame_delay);
    w.put_u32_le(o.object_type);
    w.put_u32_le(o.hit_type_flags);
    w.put_u32_le(o.move_res_x);
    w.put_u32_le(o.move_res_y);
    w.put_bytes(o.name.as_bytes());
    w.put_bytes(o.logic.as_bytes());
    w.put_bytes(o.image_set.as_bytes());
    w.put_bytes(o.animation.as_bytes());
}

fn write_tile_properties(w: &mut ByteWriter, tp: &TileProperties) {
    w.put_u32_le(tp.unknown1);
    w.put_u32_le(tp.unknown2);
    w.put_u32_le(tp.records.len() as u32);
    for &v in &tp.unknown3_7 {
        w.put_u32_le(v);
    }
    for record in &tp.records {
        write_tile_property(w, record);
    }
}

fn write_tile_property(w: &mut ByteWriter, t: &TileProperty) {
    w.put_u32_le(t.attr.type_code());
    w.put_u32_le(t.unknown);
    w.put_u32_le(t.width);
    w.put_u32_le(t.height);
    match &t.attr {
        TileAttr::Single { attribute } => w.put_i32_le(*attribute),
        TileAttr::Double {
            outside,
            inside,
            rect,
        } => {
            w.put_i32_le(*outside);
            w.put_i32_le(*inside);
            put_rect(w, rect);
        }
        TileAttr::Mask { mask } => w.put_bytes(mask),
    }
}
