//! WWD reader. Mirrors `write.rs` function by function.
//!
//! The header is parsed from the file itself; the main block is used in place when uncompressed
//! and inflated into one buffer (header + main block, the "image" all stored offsets point into)
//! when compressed. Sections are then found through their offsets, in any order.
//!
//! Compressed files in the editor's layout first go through the streaming reader
//! (`stream.rs`), which inflates each section straight to where the model needs it and gives up
//! on anything else; this whole-image reader is then the fallback that decides, so both give the
//! same model or error.

#![deny(clippy::arithmetic_side_effects)]

use flate2::{Decompress, FlushDecompress, Status};

use super::model::*;
use super::sections::checksum;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::{ByteReader, Fields};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Wwd;

/// Header fields that locate things, as read, before the model is built.
pub(super) struct Derived {
    pub(super) num_planes: u32,
    pub(super) offset_planes: u32,
    pub(super) offset_tile_properties: u32,
    pub(super) decompressed_size: u32,
    pub(super) checksum: u32,
}

/// Plane-header fields that locate things.
pub(super) struct PlaneRefs {
    pub(super) num_image_sets: u32,
    pub(super) num_objects: u32,
    pub(super) layout: PlaneLayout,
}

/// [`read_with`](super::read_with) without the streaming reader: the whole-image reader alone.
pub(super) fn read_whole(bytes: &[u8], limits: &Limits) -> Result<Wwd> {
    let mut r = ByteReader::new(F, bytes);
    let (header, derived) = read_header(&mut r)?;
    read_image(bytes, header, &derived, limits)
}

/// The whole-image reader, after the header: inflate the main block if needed, then find every
/// section through its offset.
pub(super) fn read_image(
    bytes: &[u8],
    header: Header,
    derived: &Derived,
    limits: &Limits,
) -> Result<Wwd> {
    let mut budget = limits.budget(F);
    let stored_main = bytes.get(HEADER_SIZE as usize..).unwrap_or(&[]);

    let mut source = SourceInfo {
        file_len: bytes.len() as u64,
        stored_checksum: derived.checksum,
        stored_decompressed_size: derived.decompressed_size,
        ..SourceInfo::default()
    };

    let mut stream_len = None;
    let inflated;
    let image: &[u8] = if header.flags.contains(HeaderFlags::COMPRESS) {
        // The sections of what is inflated so far, parsed under a budget of their own: whether
        // they need more bytes (`true`), end within them (`false`), or are malformed.
        let mut probe = |partial: &[u8]| -> Result<bool> {
            let mut budget = limits.budget(F);
            match read_sections(partial, derived, &mut budget) {
                Ok(_) => Ok(false),
                Err(e) if e.kind == ErrorKind::Truncated => Ok(true),
                Err(e) => Err(e),
            }
        };
        let (buf, consumed) =
            inflate_main_block(bytes, derived.decompressed_size, &mut budget, &mut probe)?;
        source.bytes_after_stream = (stored_main.len() as u64).saturating_sub(consumed as u64);
        stream_len = Some(consumed);
        source.zlib_header = stored_main
            .get(..2)
            .and_then(|h| <[u8; 2]>::try_from(h).ok());
        inflated = buf;
        &inflated
    } else {
        bytes
    };
    let main_block = image.get(HEADER_SIZE as usize..).unwrap_or(&[]);
    source.main_block_len = main_block.len() as u64;
    source.computed_checksum = checksum(
        stored_main,
        header
            .flags
            .contains(HeaderFlags::COMPRESS)
            .then_some(main_block),
    );

    let (planes, plane_refs, tile_properties) = read_sections(image, derived, &mut budget)?;

    // Only once the sections have parsed: a file that fails never copies its stream.
    let compression = stream_len.map_or_else(Deflate::default, |len| {
        super::deflate::original(
            stored_main,
            len,
            source.stored_checksum,
            source.computed_checksum,
        )
    });
    let mut wwd = Wwd {
        header,
        planes,
        tile_properties,
        layout: None,
        compression,
        source: Some(source),
    };
    let actual = Layout {
        offset_planes: derived.offset_planes,
        offset_tile_properties: derived.offset_tile_properties,
        planes: plane_refs.iter().map(|p| p.layout).collect(),
        gaps: Vec::new(),
    };
    wwd.layout = keep_layout(&wwd, actual, image);
    Ok(wwd)
}

/// The sections of an image, found through their offsets: plane headers, then each plane's
/// tiles, image sets and objects, then the tile properties.
fn read_sections(
    image: &[u8],
    derived: &Derived,
    budget: &mut Budget,
) -> Result<(Vec<Plane>, Vec<PlaneRefs>, TileProperties)> {
    let mut img = ByteReader::new(F, image);
    let mut planes = Vec::new();
    let mut plane_refs = Vec::new();
    img.seek(derived.offset_planes as usize, "plane headers")?;
    img.ensure(
        u64::from(derived.num_planes),
        u64::from(PLANE_HEADER_SIZE),
        "plane headers",
    )?;
    for index in 0..derived.num_planes {
        let (plane, refs) =
            read_plane_header(&mut img).map_err(|e| e.in_path(format!("planes[{index}]")))?;
        planes.push(plane);
        plane_refs.push(refs);
    }
    for (index, (plane, refs)) in planes.iter_mut().zip(&plane_refs).enumerate() {
        let path = || format!("planes[{index}]");
        plane.tiles = read_tiles(&mut img, plane, refs, budget)
            .map_err(|e| e.in_path(format!("{}.tiles", path())))?;
        plane.image_sets = read_image_sets(&mut img, refs)
            .map_err(|e| e.in_path(format!("{}.image_sets", path())))?;
        plane.objects = read_objects(&mut img, refs, budget)
            .map_err(|e| e.in_path(format!("{}.objects", path())))?;
    }
    img.seek(
        derived.offset_tile_properties as usize,
        "tile properties section",
    )?;
    let tile_properties =
        read_tile_properties(&mut img, budget).map_err(|e| e.in_path("tile_properties"))?;

    Ok((planes, plane_refs, tile_properties))
}

fn slot(r: &mut ByteReader<'_>, n: usize, what: &str) -> Result<SlotString> {
    let bytes = r.bytes(n, what)?;
    Ok(match bytes.iter().position(|&b| b == 0) {
        None => SlotString {
            text: RawString::from(bytes),
            after_nul: None,
        },
        Some(len) => {
            let (text, rest) = bytes.split_at(len);
            let after = rest.get(1..).unwrap_or(&[]);
            SlotString {
                text: RawString::from(text),
                after_nul: after
                    .iter()
                    .any(|&b| b != 0)
                    .then(|| RawString::from(after)),
            }
        }
    })
}

pub(super) fn read_header(r: &mut ByteReader<'_>) -> Result<(Header, Derived)> {
    if r.remaining() < HEADER_SIZE as usize {
        return Err(r.error(
            ErrorKind::Truncated,
            format!(
                "file is {} bytes, shorter than the 1524-byte WWD header",
                r.remaining()
            ),
        ));
    }
    let size = r.u32_le("header size")?;
    if size != HEADER_SIZE {
        return Err(Error::malformed(
            F,
            Location::at(0).with_path("header.header_size"),
            format!(
                "header-size field (the first dword, called `signature` in wwd.txt) is \
                 0x{size:X} ({size}); a WWD header is 1524 (0x5F4) bytes"
            ),
        ));
    }
    let unknown1 = r.u32_le("header unknown1")?;
    let flags = HeaderFlags::from_bits_retain(r.u32_le("header flags")?);
    let unknown2 = r.u32_le("header unknown2")?;
    let name = slot(r, slot::NAME, "level name")?;
    let author = slot(r, slot::NAME, "author")?;
    let birth = slot(r, slot::NAME, "birth")?;
    let rez_file = slot(r, slot::REZ_FILE, "rez file")?;
    let image_dir = slot(r, slot::PATH, "image dir")?;
    let pal_rez = slot(r, slot::PATH, "palette")?;
    let start_x = r.i32_le("start x")?;
    let start_y = r.i32_le("start y")?;
    let unknown3 = r.u32_le("header unknown3")?;
    let derived_a = (
        r.u32_le("plane count")?,
        r.u32_le("plane offset")?,
        r.u32_le("tile properties offset")?,
        r.u32_le("decompressed size")?,
        r.u32_le("checksum")?,
    );
    let unknown4 = r.u32_le("header unknown4")?;
    let launch_app = slot(r, slot::PATH, "launch app")?;
    let mut image_sets: [SlotString; 4] = Default::default();
    for s in &mut image_sets {
        *s = slot(r, slot::PATH, "image set")?;
    }
    let mut prefixes: [SlotString; 4] = Default::default();
    for s in &mut prefixes {
        *s = slot(r, slot::PREFIX, "prefix")?;
    }
    let header = Header {
        unknown1,
        flags,
        unknown2,
        name,
        author,
        birth,
        rez_file,
        image_dir,
        pal_rez,
        start_x,
        start_y,
        unknown3,
        unknown4,
        launch_app,
        image_sets,
        prefixes,
    };
    let derived = Derived {
        num_planes: derived_a.0,
        offset_planes: derived_a.1,
        offset_tile_properties: derived_a.2,
        decompressed_size: derived_a.3,
        checksum: derived_a.4,
    };
    Ok((header, derived))
}

/// The first inflate allocation's size in bytes, which the budget is charged for up front: the
/// size field, but never beyond 64 times the compressed bytes present (real levels inflate 10 to
/// 30 times; deflate's own ceiling is 1032:1), nor `max`.
pub(super) fn initial_inflate_size(declared: u32, compressed_len: usize, max: usize) -> usize {
    let ratio_bound = compressed_len.saturating_mul(64).saturating_add(64 << 10);
    (declared as usize).min(ratio_bound).min(max)
}

/// Check the 2-byte zlib header of the stored main block `input` and return the deflate data
/// after it.
pub(super) fn zlib_deflate_data(input: &[u8]) -> Result<&[u8]> {
    let at = |offset: u64| Location::at(u64::from(HEADER_SIZE).saturating_add(offset));
    let [cmf, flg, ..] = *input else {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            at(0),
            "compressed main block ends before its 2-byte zlib header",
        ));
    };
    if cmf & 0x0F != 8 || cmf >> 4 > 7 || (u16::from(cmf) << 8 | u16::from(flg)) % 31 != 0 {
        return Err(Error::malformed(
            F,
            at(0),
            format!(
                "compressed main block does not start with a zlib header (found {cmf:02X} {flg:02X}; \
                 the editors write 78 9C)"
            ),
        ));
    }
    if flg & 0x20 != 0 {
        return Err(Error::malformed(
            F,
            at(1),
            "compressed main block's zlib header asks for a preset dictionary, which WWD files never use",
        ));
    }
    Ok(input.get(2..).unwrap_or(&[]))
}

/// Where the first probe of the sections happens: inflated main-block bytes (see
/// [`inflate_main_block`]).
const FIRST_PROBE: usize = 64 << 10;

/// Inflate the zlib main block into one buffer holding header + main block. Returns the buffer
/// and how many compressed bytes the stream used (its 2-byte header and 4-byte trailer included).
///
/// The zlib wrapper is checked here and the deflate data inflated raw: zlib's own Adler-32 is a
/// scalar loop that takes over a third of the inflate time, so the trailer is verified with
/// `simd-adler32` instead (the same checksum, RFC 1950 section 8.2).
///
/// The size field only sizes the first allocation (see [`initial_inflate_size`]), and never
/// beyond [`FIRST_PROBE`]: a stream is inflated only as far as the level's own structure needs.
/// Each time the buffer has doubled past `FIRST_PROBE`, `probe` parses the sections of what is
/// there: malformed sections end the read at once (a stream of zeros fails on its first plane
/// header, not after a gigabyte), and once the sections end inside the buffer, the stream may
/// run on for at most as many bytes again (or 64 KiB) as a trailing gap, which the layout keeps;
/// a longer run is refused. So a 1 MB stream that inflates to 1 GB costs well under a megabyte
/// of memory before it is refused, whatever its size field says.
fn inflate_main_block(
    bytes: &[u8],
    declared: u32,
    budget: &mut Budget,
    probe: &mut dyn FnMut(&[u8]) -> Result<bool>,
) -> Result<(Vec<u8>, usize)> {
    let header = bytes.get(..HEADER_SIZE as usize).unwrap_or(&[]);
    let input = bytes.get(HEADER_SIZE as usize..).unwrap_or(&[]);
    let at = |offset: u64| Location::at(u64::from(HEADER_SIZE).saturating_add(offset));
    let deflate = zlib_deflate_data(input)?;
    let max = budget.limits().max_alloc.saturating_sub(budget.allocated());
    // What the size field would have the buffer be (bounded as the first allocation is); the
    // buffer grows towards it in doubling steps, so an honest file is charged exactly that.
    let by_size_field = initial_inflate_size(declared, input.len(), max);
    let sized = by_size_field
        .saturating_add(HEADER_SIZE as usize)
        .saturating_add(1);
    let initial = by_size_field.min(FIRST_PROBE);
    budget.charge(
        initial.saturating_add(HEADER_SIZE as usize),
        "inflated main block",
        at(0),
    )?;
    let mut out = Vec::with_capacity(
        initial
            .saturating_add(HEADER_SIZE as usize)
            .saturating_add(1),
    );
    out.extend_from_slice(header);
    let mut next_probe = FIRST_PROBE;
    // Main-block length at which the sections were found to end, and the most the stream may
    // inflate past it.
    let mut sections_end: Option<(usize, usize)> = None;
    let mut z = Decompress::new(false);
    loop {
        if out.len() == out.capacity() {
            let main_len = out.len().saturating_sub(HEADER_SIZE as usize);
            if sections_end.is_none() && main_len >= next_probe {
                if probe(&out)? {
                    next_probe = main_len.saturating_mul(2);
                } else {
                    sections_end =
                        Some((main_len, main_len.saturating_add(main_len.max(64 << 10))));
                }
            }
            if let Some((end, most)) = sections_end {
                if main_len >= most {
                    return Err(Error::new(
                        F,
                        ErrorKind::LimitExceeded,
                        at(z.total_in().saturating_add(2)),
                        format!(
                            "compressed main block inflates past {main_len} bytes, but the level's \
                             sections end within its first {end} (size field: {declared}); \
                             refused before inflating the rest"
                        ),
                    ));
                }
            }
            let mut more = out.capacity().clamp(4096, 16 << 20);
            if out.capacity() < sized {
                more = more.min(sized.saturating_sub(out.capacity()));
            }
            budget.charge(more, "inflated main block", at(0))?;
            out.reserve_exact(more);
        }
        let (in_before, out_before) = (z.total_in(), z.total_out());
        let rest = deflate.get(in_before as usize..).unwrap_or(&[]);
        let status = z
            .decompress_vec(rest, &mut out, FlushDecompress::None)
            .map_err(|e| {
                Error::malformed(
                    F,
                    at(z.total_in().saturating_add(2)),
                    format!("compressed main block is not a valid zlib stream: {e}"),
                )
            })?;
        if status == Status::StreamEnd {
            break;
        }
        let progressed = z.total_in() != in_before || z.total_out() != out_before;
        if !progressed && out.len() < out.capacity() {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(bytes.len() as u64),
                "compressed main block ends before its zlib stream does",
            ));
        }
    }
    let end = (z.total_in() as usize).saturating_add(2);
    let trailer = input
        .get(end..end.saturating_add(4))
        .and_then(|t| <[u8; 4]>::try_from(t).ok())
        .ok_or_else(|| {
            Error::new(
                F,
                ErrorKind::Truncated,
                Location::at(bytes.len() as u64),
                "compressed main block ends before its zlib stream's Adler-32 trailer",
            )
        })?;
    let stored = u32::from_be_bytes(trailer);
    let computed = simd_adler32::adler32(&out.get(HEADER_SIZE as usize..).unwrap_or(&[]));
    if stored != computed {
        return Err(Error::malformed(
            F,
            at(end as u64),
            format!(
                "compressed main block's Adler-32 is {stored:08X}, but the inflated bytes give \
                 {computed:08X} (the stream is damaged)"
            ),
        ));
    }
    Ok((out, end.saturating_add(4)))
}

pub(super) fn read_plane_header(r: &mut ByteReader<'_>) -> Result<(Plane, PlaneRefs)> {
    let at = r.offset();
    let block_size = r.u32_le("plane header size")?;
    if block_size != PLANE_HEADER_SIZE {
        return Err(Error::malformed(
            F,
            Location::at(at),
            format!("plane header size field is {block_size}; a plane header is 160 bytes"),
        ));
    }
    let unknown1 = r.u32_le("plane unknown1")?;
    let flags = PlaneFlags::from_bits_retain(r.u32_le("plane flags")?);
    let unknown2 = r.u32_le("plane unknown2")?;
    let name = slot(r, slot::NAME, "plane name")?;
    let width_px = r.i32_le("plane width")?;
    let height_px = r.i32_le("plane height")?;
    let tile_width = r.i32_le("tile width")?;
    let tile_height = r.i32_le("tile height")?;
    let tiles_wide = r.i32_le("tiles wide")?;
    let tiles_high = r.i32_le("tiles high")?;
    let origin_x = r.i32_le("origin x")?;
    let origin_y = r.i32_le("origin y")?;
    let movement_x_percent = r.i32_le("movement x")?;
    let movement_y_percent = r.i32_le("movement y")?;
    let fill_color = r.i32_le("fill colour")?;
    let num_image_sets = r.u32_le("image set count")?;
    let num_objects = r.u32_le("object count")?;
    let offset_tiles = r.u32_le("tiles offset")?;
    let offset_image_sets = r.u32_le("image sets offset")?;
    let offset_objects = r.u32_le("objects offset")?;
    let z_coord = r.i32_le("z")?;
    let unknown5 = r.u32_le("plane unknown5")?;
    let unknown6 = r.u32_le("plane unknown6")?;
    let unknown7 = r.u32_le("plane unknown7")?;
    let plane = Plane {
        unknown1,
        flags,
        unknown2,
        name,
        width_px,
        height_px,
        tile_width,
        tile_height,
        tiles_wide,
        tiles_high,
        origin_x,
        origin_y,
        movement_x_percent,
        movement_y_percent,
        fill_color,
        z_coord,
        unknown5,
        unknown6,
        unknown7,
        image_sets: Vec::new(),
        tiles: Vec::new(),
        objects: Vec::new(),
    };
    let refs = PlaneRefs {
        num_image_sets,
        num_objects,
        layout: PlaneLayout {
            offset_tiles,
            offset_image_sets,
            offset_objects,
        },
    };
    Ok((plane, refs))
}

fn read_tiles(
    r: &mut ByteReader<'_>,
    plane: &Plane,
    refs: &PlaneRefs,
    budget: &mut Budget,
) -> Result<Vec<u32>> {
    let Some(cells) = plane.cell_count() else {
        return Err(Error::malformed(
            F,
            Location::default(),
            format!(
                "plane grid is {} x {} tiles; both must be zero or more",
                plane.tiles_wide, plane.tiles_high
            ),
        ));
    };
    r.seek(refs.layout.offset_tiles as usize, "tile grid")?;
    let cells = budget.count(cells as u64, "tile", Location::at(r.offset()))?;
    let len = r.ensure(cells as u64, 4, "tile grid")?;
    budget.charge(len, "tile grid", Location::at(r.offset()))?;
    r.u32_le_vec(cells, "tile grid")
}

fn read_image_sets(r: &mut ByteReader<'_>, refs: &PlaneRefs) -> Result<Vec<RawString>> {
    if refs.num_image_sets == 0 {
        return Ok(Vec::new());
    }
    r.seek(refs.layout.offset_image_sets as usize, "image-set names")?;
    // Each name takes at least its NUL.
    r.ensure(u64::from(refs.num_image_sets), 1, "image-set names")?;
    (0..refs.num_image_sets)
        .map(|_| r.cstr("image-set name").map(RawString::from))
        .collect()
}

fn read_objects(
    r: &mut ByteReader<'_>,
    refs: &PlaneRefs,
    budget: &mut Budget,
) -> Result<Vec<Object>> {
    if refs.num_objects == 0 {
        return Ok(Vec::new());
    }
    r.seek(refs.layout.offset_objects as usize, "objects")?;
    let n = budget.count(
        u64::from(refs.num_objects),
        "object",
        Location::at(r.offset()),
    )?;
    r.ensure(n as u64, u64::from(OBJECT_FIXED_SIZE), "objects")?;
    let mut objects = Vec::new();
    objects.resize_with(n, Object::default);
    for (index, object) in objects.iter_mut().enumerate() {
        read_object_into(r, object).map_err(|e| e.in_path(format!("[{index}]")))?;
    }
    Ok(objects)
}

fn rect(r: &mut ByteReader<'_>, what: &str) -> Result<Rect> {
    Ok(Rect {
        left: r.i32_le(what)?,
        top: r.i32_le(what)?,
        right: r.i32_le(what)?,
        bottom: r.i32_le(what)?,
    })
}

fn fields_rect(f: &mut Fields<'_>) -> Rect {
    Rect {
        left: f.i32(),
        top: f.i32(),
        right: f.i32(),
        bottom: f.i32(),
    }
}

/// One object, decoded into `object` (a default one already in its vector: building the 372-byte
/// struct on the stack and moving it into the vector copied every record two or three times). The 284 fixed bytes are bounds-checked once and decoded field by field (objects are
/// most of a level's parse time), then the four strings.
pub(super) fn read_object_into(r: &mut ByteReader<'_>, object: &mut Object) -> Result<()> {
    // Every field, by name, so that a new one cannot be left out.
    let Object {
        id,
        x,
        y,
        z,
        i,
        add_flags,
        dynamic_flags,
        draw_flags,
        user_flags,
        score,
        points,
        powerup,
        damage,
        smarts,
        health,
        move_rect,
        hit_rect,
        attack_rect,
        clip_rect,
        user_rect1,
        user_rect2,
        user_values,
        min_x,
        min_y,
        max_x,
        max_y,
        speed_x,
        speed_y,
        tweak_x,
        tweak_y,
        counter,
        speed,
        width,
        height,
        direction,
        face_dir,
        time_delay,
        frame_delay,
        object_type,
        hit_type_flags,
        move_res_x,
        move_res_y,
        name,
        logic,
        image_set,
        animation,
    } = object;
    let mut f = Fields::new(r.bytes(OBJECT_FIXED_SIZE as usize, "object record")?);
    *id = f.i32();
    let size_name = f.u32();
    let size_logic = f.u32();
    let size_image_set = f.u32();
    let size_animation = f.u32();
    *x = f.i32();
    *y = f.i32();
    *z = f.i32();
    *i = f.i32();
    *add_flags = AddFlags::from_bits_retain(f.u32());
    *dynamic_flags = DynamicFlags::from_bits_retain(f.u32());
    *draw_flags = DrawFlags::from_bits_retain(f.u32());
    *user_flags = UserFlags::from_bits_retain(f.u32());
    *score = f.i32();
    *points = f.i32();
    *powerup = f.i32();
    *damage = f.i32();
    *smarts = f.i32();
    *health = f.i32();
    *move_rect = fields_rect(&mut f);
    *hit_rect = fields_rect(&mut f);
    *attack_rect = fields_rect(&mut f);
    *clip_rect = fields_rect(&mut f);
    *user_rect1 = fields_rect(&mut f);
    *user_rect2 = fields_rect(&mut f);
    for v in user_values {
        *v = f.i32();
    }
    *min_x = f.i32();
    *min_y = f.i32();
    *max_x = f.i32();
    *max_y = f.i32();
    *speed_x = f.i32();
    *speed_y = f.i32();
    *tweak_x = f.i32();
    *tweak_y = f.i32();
    *counter = f.i32();
    *speed = f.i32();
    *width = f.i32();
    *height = f.i32();
    *direction = f.i32();
    *face_dir = f.i32();
    *time_delay = f.i32();
    *frame_delay = f.i32();
    *object_type = f.u32();
    *hit_type_flags = f.u32();
    *move_res_x = f.u32();
    *move_res_y = f.u32();
    debug_assert_eq!(
        f.remaining(),
        0,
        "object fields and OBJECT_FIXED_SIZE disagree"
    );
    *name = RawString::from(r.bytes(size_name as usize, "object name")?);
    *logic = RawString::from(r.bytes(size_logic as usize, "object logic")?);
    *image_set = RawString::from(r.bytes(size_image_set as usize, "object image set")?);
    *animation = RawString::from(r.bytes(size_animation as usize, "object animation")?);
    Ok(())
}

pub(super) fn read_tile_properties(
    r: &mut ByteReader<'_>,
    budget: &mut Budget,
) -> Result<TileProperties> {
    let unknown1 = r.u32_le("tile properties header")?;
    let unknown2 = r.u32_le("tile properties unknown2")?;
    let count = r.u32_le("tile property count")?;
    let mut unknown3_7 = [0u32; 5];
    for v in &mut unknown3_7 {
        *v = r.u32_le("tile properties reserved")?;
    }
    let n = budget.count(u64::from(count), "tile property", Location::at(r.offset()))?;
    // Every record has at least its 16-byte base (a 0 x 0 mask has nothing more).
    r.ensure(n as u64, 16, "tile property records")?;
    let mut records = Vec::with_capacity(n);
    for index in 0..n {
        records.push(read_tile_property(r).map_err(|e| e.in_path(format!("records[{index}]")))?);
    }
    Ok(TileProperties {
        unknown1,
        unknown2,
        unknown3_7,
        records,
    })
}

fn read_tile_property(r: &mut ByteReader<'_>) -> Result<TileProperty> {
    let at = r.offset();
    let tile_type = r.u32_le("tile type")?;
    let unknown = r.u32_le("tile property unknown")?;
    let width = r.u32_le("tile property width")?;
    let height = r.u32_le("tile property height")?;
    let attr = match tile_type {
        1 => TileAttr::Single {
            attribute: r.i32_le("attribute")?,
        },
        2 => TileAttr::Double {
            outside: r.i32_le("outside attribute")?,
            inside: r.i32_le("inside attribute")?,
            rect: rect(r, "double-tile rect")?,
        },
        3 => {
            let len = r.ensure(u64::from(width), u64::from(height), "mask")?;
            TileAttr::Mask {
                mask: r.bytes(len, "mask")?.to_vec(),
            }
        }
        other => {
            return Err(Error::unsupported(
                F,
                Location::at(at),
                format!(
                    "tile property type is {other}; expected 1 (single), 2 (double) or 3 (mask), \
                     and the size of other types is unknown"
                ),
            ));
        }
    };
    Ok(TileProperty {
        unknown,
        width,
        height,
        attr,
    })
}

/// Decide whether the file's layout needs keeping: `None` when it is exactly the editor's
/// contiguous layout for this model; otherwise the actual offsets plus every uncovered byte run.
fn keep_layout(wwd: &Wwd, actual: Layout, image: &[u8]) -> Option<Layout> {
    let canonical = super::sections::canonical_layout(wwd).ok();
    let canonical_len = super::sections::canonical_image_len(wwd);
    if canonical.as_ref() == Some(&actual) && canonical_len == Some(image.len() as u64) {
        return None;
    }
    let mut ranges = super::sections::section_ranges(wwd, &actual);
    ranges.sort_unstable();
    let mut gaps = Vec::new();
    let mut pos = 0u64;
    for (start, end) in ranges {
        if start > pos {
            push_gap(&mut gaps, image, pos, start);
        }
        pos = pos.max(end);
    }
    if (image.len() as u64) > pos {
        push_gap(&mut gaps, image, pos, image.len() as u64);
    }
    Some(Layout { gaps, ..actual })
}

fn push_gap(gaps: &mut Vec<Gap>, image: &[u8], start: u64, end: u64) {
    let bytes = image
        .get(start as usize..end as usize)
        .unwrap_or(&[])
        .to_vec();
    gaps.push(Gap {
        offset: start as u32,
        bytes,
    });
}
