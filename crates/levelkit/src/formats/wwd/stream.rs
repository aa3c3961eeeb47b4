//! The streaming reader for compressed WWD files: the fast path of [`read_with`].
//!
//! The whole-image reader (`read.rs`) inflates the main block into one buffer and then copies
//! every section out of it, so a read touches about twice the level's size in fresh memory. For a
//! file in the editor's layout (header, plane headers, each plane's tiles, the image-set names,
//! each plane's objects, tile properties, nothing after) this reader streams instead: the zlib
//! stream is inflated section by section in offset order, each plane's tile grid straight into
//! its final `Vec<u32>`, and everything else through a small window that the parser consumes
//! while it is still in cache. The Adler-32 trailer is computed over the chunks in stream order
//! and the checksum's extra inflated byte is picked up wherever it lands.
//!
//! It answers only where it is sure to agree with the whole-image reader, and returns `None` for
//! anything else: sections out of editor order, shared name runs, gaps or trailing bytes, a size
//! field that disagrees with the stream, and every error. [`read_with`] then runs the
//! whole-image reader, which decides. Agreement holds by construction: each section is parsed by
//! the same function from the same bytes (its stored offset is checked against the stream
//! position before it is read), the budget is charged the same amounts (the inflated image is
//! charged up front although it is never allocated whole), the whole stream and its trailer are
//! checked before a model is returned, and the layout must come out as the editor's.
//!
//! Public (hidden) only so that the tests can compare the two readers.
//!
//! [`read_with`]: super::read_with

#![doc(hidden)]
#![deny(clippy::arithmetic_side_effects)]

use flate2::{Decompress, FlushDecompress, Status};
use simd_adler32::Adler32;

use super::model::*;
use super::read::{
    Derived, PlaneRefs, initial_inflate_size, read_header, read_object_into, read_plane_header,
    read_tile_properties, read_whole, zlib_deflate_data,
};
use super::sections::checksum_with_extra;
use crate::error::{Location, Result};
use crate::io::ByteReader;
use crate::limits::Limits;
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Wwd;
const HEADER: usize = HEADER_SIZE as usize;
/// Bytes the window inflates at a time (it grows only for a record longer than this).
const WINDOW: usize = 64 << 10;

/// The streaming reader alone, under `limits`: `None` wherever it declines the file (not
/// compressed, not in the editor's layout, or anything wrong with it).
pub fn read_streamed(bytes: &[u8], limits: &Limits) -> Option<Wwd> {
    let (header, derived) = read_header(&mut ByteReader::new(F, bytes)).ok()?;
    if !header.flags.contains(HeaderFlags::COMPRESS) {
        return None;
    }
    streamed(bytes, &header, &derived, limits)
}

/// The whole-image reader alone: what [`read_with`](super::read_with) falls back on.
pub fn read_whole_image(bytes: &[u8], limits: &Limits) -> Result<Wwd> {
    read_whole(bytes, limits)
}

/// Read a compressed file whose header is already parsed, or `None` to leave it to the
/// whole-image reader.
pub(super) fn streamed(
    bytes: &[u8],
    header: &Header,
    derived: &Derived,
    limits: &Limits,
) -> Option<Wwd> {
    let stored_main = bytes.get(HEADER..)?;
    let deflate = zlib_deflate_data(stored_main).ok()?;
    // The whole-image reader charges its first buffer up front and grows it only when the stream
    // is longer than that; streaming needs the size field to be the stream's true length, and
    // checks that at the end.
    let declared = derived.decompressed_size as usize;
    if initial_inflate_size(
        derived.decompressed_size,
        stored_main.len(),
        limits.max_alloc,
    ) != declared
    {
        return None;
    }
    let mut budget = limits.budget(F);
    budget
        .charge(
            declared.checked_add(HEADER)?,
            "inflated main block",
            Location::at(HEADER_SIZE.into()),
        )
        .ok()?;
    let mut inflater = Inflater {
        z: Decompress::new(false),
        stored_main,
        deflate,
        pos: HEADER,
        end: HEADER.checked_add(declared)?,
        adler: Adler32::new(),
        extra_at: HEADER.checked_add(stored_main.len())?,
        extra: 0,
    };

    // Plane headers, right after the file header.
    if derived.offset_planes as usize != inflater.pos {
        return None;
    }
    let len = (derived.num_planes as usize)
        .checked_mul(PLANE_HEADER_SIZE as usize)
        .filter(|&len| len <= inflater.remaining())?;
    let mut plane_bytes = vec![0u8; len];
    inflater.fill(&mut plane_bytes)?;
    let mut r = ByteReader::new(F, &plane_bytes);
    let mut planes = Vec::new();
    let mut plane_refs: Vec<PlaneRefs> = Vec::new();
    for _ in 0..derived.num_planes {
        let (plane, refs) = read_plane_header(&mut r).ok()?;
        planes.push(plane);
        plane_refs.push(refs);
    }
    drop(plane_bytes);

    // Each plane's tiles, inflated into the grid itself.
    for (plane, refs) in planes.iter_mut().zip(&plane_refs) {
        if refs.layout.offset_tiles as usize != inflater.pos {
            return None;
        }
        let cells = plane.cell_count()?;
        let cells = budget
            .count(cells as u64, "tile", Location::default())
            .ok()?;
        let len = cells
            .checked_mul(4)
            .filter(|&len| len <= inflater.remaining())?;
        budget.charge(len, "tile grid", Location::default()).ok()?;
        let mut tiles = vec![0u32; cells];
        inflater.fill(bytemuck::cast_slice_mut(&mut tiles))?;
        for cell in &mut tiles {
            *cell = u32::from_le(*cell);
        }
        plane.tiles = tiles;
    }

    // The rest through the window: names, objects, tile properties.
    let mut tail = Window::new(inflater);
    for (plane, refs) in planes.iter_mut().zip(&plane_refs) {
        if refs.num_image_sets == 0 {
            continue;
        }
        if refs.layout.offset_image_sets as usize != tail.pos() {
            return None;
        }
        // Each name takes at least its NUL.
        if refs.num_image_sets as usize > tail.remaining() {
            return None;
        }
        for _ in 0..refs.num_image_sets {
            plane.image_sets.push(tail.cstr()?);
        }
    }
    for (plane, refs) in planes.iter_mut().zip(&plane_refs) {
        if refs.num_objects == 0 {
            continue;
        }
        if refs.layout.offset_objects as usize != tail.pos() {
            return None;
        }
        let n = budget
            .count(refs.num_objects.into(), "object", Location::default())
            .ok()?;
        if n.checked_mul(OBJECT_FIXED_SIZE as usize)? > tail.remaining() {
            return None;
        }
        plane.objects.resize_with(n, Object::default);
        for object in &mut plane.objects {
            tail.object(object)?;
        }
    }
    if derived.offset_tile_properties as usize != tail.pos() {
        return None;
    }
    let rest = tail.remaining();
    let mut r = ByteReader::new(F, tail.need(rest)?);
    let tile_properties = read_tile_properties(&mut r, &mut budget).ok()?;
    if r.remaining() != 0 {
        return None;
    }
    let (consumed, extra) = tail.inflater.finish()?;

    let editor_checksum = checksum_with_extra(stored_main, extra);
    let source = SourceInfo {
        file_len: bytes.len() as u64,
        stored_checksum: derived.checksum,
        computed_checksum: editor_checksum,
        stored_decompressed_size: derived.decompressed_size,
        main_block_len: declared as u64,
        bytes_after_stream: (stored_main.len() as u64).saturating_sub(consumed as u64),
        zlib_header: stored_main
            .get(..2)
            .and_then(|h| <[u8; 2]>::try_from(h).ok()),
    };
    let mut wwd = Wwd {
        header: header.clone(),
        planes,
        tile_properties,
        layout: None,
        compression: Deflate::default(),
        source: Some(source),
    };
    let actual = Layout {
        offset_planes: derived.offset_planes,
        offset_tile_properties: derived.offset_tile_properties,
        planes: plane_refs.iter().map(|p| p.layout).collect(),
        gaps: Vec::new(),
    };
    // The whole-image reader keeps no layout exactly when this holds.
    let editor_layout = super::sections::canonical_layout(&wwd).ok() == Some(actual)
        && super::sections::canonical_image_len(&wwd) == Some(declared.checked_add(HEADER)? as u64);
    if !editor_layout {
        return None;
    }
    // Last, so that a file handed on to the whole-image reader does not copy its stream twice.
    wwd.compression =
        super::deflate::original(stored_main, consumed, derived.checksum, editor_checksum);
    Some(wwd)
}

/// A raw-deflate stream being inflated into consecutive image ranges, with the running Adler-32
/// of everything inflated and the checksum's extra byte.
struct Inflater<'a> {
    z: Decompress,
    /// The main block as stored: zlib header, deflate data, trailer, anything after.
    stored_main: &'a [u8],
    /// `stored_main` after the zlib header.
    deflate: &'a [u8],
    /// Image offset of the next byte the stream yields.
    pos: usize,
    /// Image length the size field declares.
    end: usize,
    adler: Adler32,
    /// Image offset of the inflated byte the editor's checksum adds, and that byte once inflated
    /// (0 when the image is not that long, as in [`super::checksum`]).
    extra_at: usize,
    extra: u8,
}

impl Inflater<'_> {
    /// Image bytes the size field says are still to come.
    fn remaining(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    /// Inflate exactly `dst.len()` bytes (no further than `end`) into `dst`; `None` if the
    /// stream fails or ends first.
    fn fill(&mut self, dst: &mut [u8]) -> Option<()> {
        let next = self
            .pos
            .checked_add(dst.len())
            .filter(|&next| next <= self.end)?;
        let mut done = 0usize;
        while done < dst.len() {
            let (in_before, out_before) = (self.z.total_in(), self.z.total_out());
            let input = self.deflate.get(usize::try_from(in_before).ok()?..)?;
            let status = self
                .z
                .decompress(input, dst.get_mut(done..)?, FlushDecompress::None)
                .ok()?;
            let produced = self.z.total_out().checked_sub(out_before)?;
            done = done.checked_add(usize::try_from(produced).ok()?)?;
            let stuck = produced == 0 && self.z.total_in() == in_before;
            if done < dst.len() && (status == Status::StreamEnd || stuck) {
                return None;
            }
        }
        self.adler.write(dst);
        if (self.pos..next).contains(&self.extra_at) {
            self.extra = *dst.get(self.extra_at.checked_sub(self.pos)?)?;
        }
        self.pos = next;
        Some(())
    }

    /// After the last section: the stream must end exactly at `end` and be followed by a
    /// matching Adler-32. Returns the compressed bytes used (zlib header and trailer included)
    /// and the checksum's extra byte.
    fn finish(mut self) -> Option<(usize, u8)> {
        if self.pos != self.end {
            return None;
        }
        let mut probe = [0u8; 1];
        loop {
            let in_before = self.z.total_in();
            let input = self.deflate.get(usize::try_from(in_before).ok()?..)?;
            let status = self
                .z
                .decompress(input, &mut probe, FlushDecompress::None)
                .ok()?;
            if self.z.total_out() != u64::try_from(self.end.checked_sub(HEADER)?).ok()? {
                // More inflated bytes than the size field says.
                return None;
            }
            if status == Status::StreamEnd {
                break;
            }
            if self.z.total_in() == in_before {
                return None;
            }
        }
        let trailer_at = usize::try_from(self.z.total_in()).ok()?.checked_add(2)?;
        let after = trailer_at.checked_add(4)?;
        let trailer = <[u8; 4]>::try_from(self.stored_main.get(trailer_at..after)?).ok()?;
        (u32::from_be_bytes(trailer) == self.adler.finish()).then_some((after, self.extra))
    }
}

/// Inflated bytes awaiting the parser: `buf[start..end]` are the image bytes just before the
/// inflater's position.
struct Window<'a> {
    inflater: Inflater<'a>,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl<'a> Window<'a> {
    fn new(inflater: Inflater<'a>) -> Self {
        let len = WINDOW.min(inflater.remaining());
        Window {
            inflater,
            buf: vec![0u8; len],
            start: 0,
            end: 0,
        }
    }

    fn available(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Image offset of the parser's next byte.
    fn pos(&self) -> usize {
        self.inflater.pos.saturating_sub(self.available())
    }

    /// Image bytes from the parser's position to the end the size field declares.
    fn remaining(&self) -> usize {
        self.available().saturating_add(self.inflater.remaining())
    }

    /// At least `n` bytes from the parser's position (all that the window holds); `None` when
    /// the image is shorter or the stream fails.
    fn need(&mut self, n: usize) -> Option<&[u8]> {
        if self.available() < n {
            if n > self.remaining() {
                return None;
            }
            self.buf.copy_within(self.start..self.end, 0);
            self.end = self.available();
            self.start = 0;
            if self.buf.len() < n {
                // Bounded by the image the budget was charged for.
                let len = n
                    .max(self.buf.len().saturating_mul(2))
                    .min(self.remaining());
                self.buf.resize(len, 0);
            }
            let more = self
                .buf
                .len()
                .saturating_sub(self.end)
                .min(self.inflater.remaining());
            let next = self.end.checked_add(more)?;
            self.inflater.fill(self.buf.get_mut(self.end..next)?)?;
            self.end = next;
        }
        self.buf.get(self.start..self.end)
    }

    fn advance(&mut self, n: usize) {
        self.start = self.start.saturating_add(n).min(self.end);
    }

    /// One NUL-terminated string, as `ByteReader::cstr` reads it.
    fn cstr(&mut self) -> Option<RawString> {
        let mut scanned = 0usize;
        loop {
            let bytes = self.need(scanned.checked_add(1)?)?;
            if let Some(len) = bytes.get(scanned..)?.iter().position(|&b| b == 0) {
                let len = scanned.checked_add(len)?;
                let s = RawString::from(bytes.get(..len)?);
                self.advance(len.checked_add(1)?);
                return Some(s);
            }
            scanned = bytes.len();
        }
    }

    /// One object record, into `object`: its fixed part gives the lengths of its four strings.
    fn object(&mut self, object: &mut Object) -> Option<()> {
        let fixed = self.need(OBJECT_FIXED_SIZE as usize)?;
        let mut len = OBJECT_FIXED_SIZE as usize;
        for i in 1..5usize {
            let at = i.checked_mul(4)?;
            let size = u32::from_le_bytes(fixed.get(at..at.checked_add(4)?)?.try_into().ok()?);
            len = len.checked_add(size as usize)?;
        }
        let record = self.need(len)?.get(..len)?;
        let mut r = ByteReader::new(F, record);
        read_object_into(&mut r, object).ok()?;
        if r.remaining() != 0 {
            return None;
        }
        self.advance(len);
        Some(())
    }
}
