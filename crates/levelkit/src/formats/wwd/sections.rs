//! What the reader and the writer both need to know about a level's bytes: the editor's
//! checksum, and the editor's section layout (where each section goes, how long the image is).
//! A leaf, so that neither `read.rs` nor `write.rs` needs the other.

use super::model::*;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

const F: Format = Format::Wwd;

/// The editor's checksum (wwd-notes B.2): over the main block as stored, skipping its first
/// byte, plus, for compressed files, the inflated byte at the stored length.
pub fn checksum(stored_main: &[u8], inflated_main: Option<&[u8]>) -> u32 {
    let extra = inflated_main
        .and_then(|inflated| inflated.get(stored_main.len()).copied())
        .unwrap_or(0);
    checksum_with_extra(stored_main, extra)
}

/// [`checksum`] given the extra byte (0 for uncompressed files, and when the inflated main block
/// is not longer than the stored one).
pub(super) fn checksum_with_extra(stored_main: &[u8], extra: u8) -> u32 {
    let n = stored_main.len() as u32;
    let c = 0u32.wrapping_sub(n);
    // Sum of bytes minus the sum of offsets 1..n, done as two sums to keep the loop tight; the
    // bytes are summed in 256-byte blocks of u16 lanes (256 x 255 fits), which vectorises well.
    let body = stored_main.get(1..).unwrap_or(&[]);
    let mut bytes_sum = 0u32;
    for block in body.chunks(256) {
        let partial = block
            .iter()
            .fold(0u16, |acc, &b| acc.wrapping_add(u16::from(b)));
        bytes_sum = bytes_sum.wrapping_add(u32::from(partial));
    }
    let n64 = u64::from(n);
    let offsets_sum = if n64 > 1 {
        (n64.wrapping_sub(1).wrapping_mul(n64) / 2) as u32
    } else {
        0
    };
    c.wrapping_add(bytes_sum)
        .wrapping_sub(offsets_sum)
        .wrapping_add(u32::from(extra))
}

pub(super) fn too_big() -> Error {
    Error::new(
        F,
        ErrorKind::LimitExceeded,
        Location::default(),
        "level is larger than the 4 GiB a WWD file can address",
    )
}

fn to_u32(v: u64) -> Result<u32> {
    u32::try_from(v).map_err(|_| too_big())
}

fn names_len(plane: &Plane) -> u64 {
    plane.image_sets.iter().map(|s| s.len() as u64 + 1).sum()
}

fn objects_len(plane: &Plane) -> u64 {
    plane.objects.iter().map(Object::record_size).sum()
}

fn tile_properties_len(tp: &TileProperties) -> u64 {
    u64::from(TILE_PROPERTIES_HEADER_SIZE)
        + tp.records
            .iter()
            .map(TileProperty::record_size)
            .sum::<u64>()
}

/// The editor's contiguous layout for this model (wwd-notes B.12).
pub(crate) fn canonical_layout(wwd: &Wwd) -> Result<Layout> {
    let mut pos = u64::from(HEADER_SIZE);
    let offset_planes = to_u32(pos)?;
    pos += wwd.planes.len() as u64 * u64::from(PLANE_HEADER_SIZE);
    let mut planes = Vec::with_capacity(wwd.planes.len());
    for plane in &wwd.planes {
        planes.push(PlaneLayout {
            offset_tiles: to_u32(pos)?,
            offset_image_sets: 0,
            offset_objects: 0,
        });
        pos += plane.tiles.len() as u64 * 4;
    }
    for (plane, pl) in wwd.planes.iter().zip(&mut planes) {
        pl.offset_image_sets = to_u32(pos)?;
        pos += names_len(plane);
    }
    for (plane, pl) in wwd.planes.iter().zip(&mut planes) {
        if !plane.objects.is_empty() {
            pl.offset_objects = to_u32(pos)?;
            pos += objects_len(plane);
        }
    }
    let offset_tile_properties = to_u32(pos)?;
    to_u32(pos + tile_properties_len(&wwd.tile_properties))?;
    Ok(Layout {
        offset_planes,
        offset_tile_properties,
        planes,
        gaps: Vec::new(),
    })
}

/// Length of the uncompressed image with the editor's layout.
pub(crate) fn canonical_image_len(wwd: &Wwd) -> Option<u64> {
    let len = u64::from(HEADER_SIZE)
        + wwd.planes.len() as u64 * u64::from(PLANE_HEADER_SIZE)
        + wwd
            .planes
            .iter()
            .map(|p| p.tiles.len() as u64 * 4 + names_len(p) + objects_len(p))
            .sum::<u64>()
        + tile_properties_len(&wwd.tile_properties);
    u32::try_from(len).ok().map(u64::from)
}

/// The byte range of every section under `layout`, as `(start, end)`.
pub(crate) fn section_ranges(wwd: &Wwd, layout: &Layout) -> Vec<(u64, u64)> {
    let mut ranges = vec![(0, u64::from(HEADER_SIZE))];
    let op = u64::from(layout.offset_planes);
    ranges.push((
        op,
        op + wwd.planes.len() as u64 * u64::from(PLANE_HEADER_SIZE),
    ));
    for (plane, pl) in wwd.planes.iter().zip(&layout.planes) {
        let t = u64::from(pl.offset_tiles);
        ranges.push((t, t + plane.tiles.len() as u64 * 4));
        if !plane.image_sets.is_empty() {
            let s = u64::from(pl.offset_image_sets);
            ranges.push((s, s + names_len(plane)));
        }
        if !plane.objects.is_empty() {
            let o = u64::from(pl.offset_objects);
            ranges.push((o, o + objects_len(plane)));
        }
    }
    let tp = u64::from(layout.offset_tile_properties);
    ranges.push((tp, tp + tile_properties_len(&wwd.tile_properties)));
    ranges.retain(|(s, e)| e > s);
    ranges
}
