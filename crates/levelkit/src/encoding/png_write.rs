//! The one PNG (and APNG) encoder behind every PNG levelkit writes: level pictures, glTF and OBJ
//! textures, PID images and palettes, animations.
//!
//! Its output depends on the pixels alone, never on the build, the platform or the number of
//! threads, so the CLI and the WebAssembly viewer write the same bytes:
//!
//! * the rows are filtered here, with one filter choice per image made from the pixels
//!   ([`choose_filter`]): indexed images are left unfiltered (the PNG specification's advice;
//!   on the WAP32 sprites it gave files 30 % smaller than adaptive filtering), every other image
//!   is compressed both ways on a sample of its rows and the smaller wins;
//! * the rows are deflated in one pass by `zlib-rs` at [`LEVEL`] (a large image in pieces of
//!   a fixed size on several cores, each primed with the window before it:
//!   [`PARALLEL_PIECE`]), called directly, not through
//!   `flate2`, whose backend Cargo unifies across the build (C zlib in the CLI, miniz_oxide in
//!   WebAssembly). zlib-rs is pure Rust; its hash is one fixed multiplicative hash on every
//!   target and its SIMD match comparisons (picked at run time) only measure the same match
//!   lengths faster, so the stream is the same everywhere.
//!
//! Rejected, by measurement on the corpus' MDL skins, WAP32 sprites and level pictures (pixel
//! MB/s of the whole encode, size against the previous encoder): the previous pipeline (the
//! `png` crate with fdeflate, inflated and deflated again by miniz_oxide at level 6, 11 MB/s on
//! textures); miniz_oxide at level 1 (1.4 to 3.2 times larger: one probe misses the repeated
//! tiles of level pictures), 2 or 3 (two to three times slower than zlib-rs at the same size);
//! fdeflate alone (1.8 to 7 times larger); zlib-rs at level 1 (`deflate_quick`, fixed Huffman
//! codes: up to 5.7 times larger).

// Nothing here may panic on what it is given: sizes come from files.
#![deny(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used
)]

/// The zlib-rs compression level of every PNG: level 2 is 5 to 14 % larger for little gain in
/// speed, level 4 (`deflate_medium`) about 3 % smaller and 30 % slower on textures.
pub const LEVEL: i32 = 3;

/// The colour type of 8-bit pixels given to [`encode_png`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PngColor {
    /// One grey sample per pixel.
    Grey,
    /// Grey and alpha.
    GreyAlpha,
    /// Red, green, blue.
    Rgb,
    /// Red, green, blue, alpha.
    Rgba,
    /// One palette index per pixel.
    Indexed,
}

impl PngColor {
    /// Bytes per pixel.
    pub fn samples(self) -> usize {
        match self {
            PngColor::Grey | PngColor::Indexed => 1,
            PngColor::GreyAlpha => 2,
            PngColor::Rgb => 3,
            PngColor::Rgba => 4,
        }
    }

    /// The colour type a pixel of `channels` 8-bit samples has (1 grey to 4 RGBA).
    pub fn with_channels(channels: u8) -> Option<PngColor> {
        match channels {
            1 => Some(PngColor::Grey),
            2 => Some(PngColor::GreyAlpha),
            3 => Some(PngColor::Rgb),
            4 => Some(PngColor::Rgba),
            _ => None,
        }
    }

    /// The `IHDR` colour type code.
    fn code(self) -> u8 {
        match self {
            PngColor::Grey => 0,
            PngColor::Rgb => 2,
            PngColor::Indexed => 3,
            PngColor::GreyAlpha => 4,
            PngColor::Rgba => 6,
        }
    }
}

/// An image for [`encode_png`]: 8 bits per sample, rows top to bottom without padding.
#[derive(Debug, Clone, Copy)]
pub struct PngImage<'a> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// What a pixel is.
    pub color: PngColor,
    /// `width * height * color.samples()` bytes.
    pub pixels: &'a [u8],
    /// RGB triples (`PLTE`), for an indexed image; empty otherwise.
    pub palette: &'a [u8],
    /// The alpha of the first palette entries (`tRNS`); empty for none.
    pub transparency: &'a [u8],
    /// A compressed text chunk (`zTXt`): keyword and text.
    pub text: Option<(&'a str, &'a str)>,
}

impl<'a> PngImage<'a> {
    /// An image with no palette, transparency or text.
    pub fn new(width: u32, height: u32, color: PngColor, pixels: &'a [u8]) -> Self {
        PngImage {
            width,
            height,
            color,
            pixels,
            palette: &[],
            transparency: &[],
            text: None,
        }
    }
}

/// One frame of [`encode_apng`]: the whole canvas, RGBA.
#[derive(Debug, Clone, Copy)]
pub struct ApngFrame<'a> {
    /// `width * height * 4` bytes.
    pub rgba: &'a [u8],
    /// How long the frame shows: numerator and denominator in seconds.
    pub delay: (u16, u16),
}

const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// The largest chunk body PNG allows.
const MAX_CHUNK: usize = 0x7fff_ffff;

/// A texture as PNG bytes: an RGB or RGBA image of at most 256 colours becomes an indexed PNG
/// (palette in the order the colours first appear, `tRNS` when one is not opaque), an opaque
/// RGBA image of more colours an RGB one, anything else is [`encode_png`]'s. The textures of
/// the old formats are mostly 8-bit palette images drawn out to RGB: indexed, a quarter of the
/// bytes is filtered and deflated, and the file is smaller; every PNG reader shows the same
/// pixels.
pub fn encode_texture(image: &PngImage<'_>) -> Result<Vec<u8>, String> {
    let samples = match image.color {
        PngColor::Rgb | PngColor::Rgba if image.palette.is_empty() && image.text.is_none() => {
            image.color.samples()
        }
        _ => return encode_png(image),
    };
    check(image.width, image.height, image.color, image.pixels)?;
    let Some((colors, indices)) = few_colors(image.pixels, samples) else {
        if image.color == PngColor::Rgba
            && image.pixels.chunks_exact(4).all(|p| p.get(3) == Some(&255))
        {
            // Opaque: RGB, a quarter less to filter and deflate.
            let mut rgb = Vec::with_capacity((image.pixels.len() / 4).saturating_mul(3));
            for p in image.pixels.chunks_exact(4) {
                rgb.extend_from_slice(p.get(..3).unwrap_or_default());
            }
            return encode_sampled(
                &PngImage::new(image.width, image.height, PngColor::Rgb, &rgb),
                texture_sample(rgb.len()),
            );
        }
        return encode_sampled(image, texture_sample(image.pixels.len()));
    };
    let palette: Vec<u8> = colors
        .iter()
        .flat_map(|c| c.get(..3).unwrap_or_default().iter().copied())
        .collect();
    let alpha: Vec<u8> = colors
        .iter()
        .map(|c| c.get(3).copied().unwrap_or(255))
        .collect();
    let transparency = match alpha.iter().rposition(|&a| a != 255) {
        Some(last) => alpha.get(..=last).unwrap_or_default(),
        None => &[],
    };
    encode_png(&PngImage {
        palette: &palette,
        transparency,
        ..PngImage::new(image.width, image.height, PngColor::Indexed, &indices)
    })
}

/// How many bytes of a texture of many colours decide its filtering: an eighth of it, at most
/// [`SAMPLE_BYTES`]. A texture is one picture, not the repeated tiles of a level picture or a
/// tileset, for which a small sample misjudges; on a 256 x 256 skin this takes a third of the
/// time [`SAMPLE_BYTES`] did, and on the corpus' textures of many colours it chose the same.
fn texture_sample(len: usize) -> usize {
    (len / 8).min(SAMPLE_BYTES)
}

/// The distinct pixels of `pixels` (`samples` bytes each, in the order they first appear) and
/// each pixel's index among them; `None` past 256.
fn few_colors(pixels: &[u8], samples: usize) -> Option<(Vec<[u8; 4]>, Vec<u8>)> {
    let mut colors: Vec<[u8; 4]> = Vec::new();
    let mut index: rustc_hash::FxHashMap<[u8; 4], u8> = rustc_hash::FxHashMap::default();
    let mut indices = Vec::with_capacity(pixels.len().checked_div(samples).unwrap_or(0));
    let mut last: Option<([u8; 4], u8)> = None;
    for px in pixels.chunks_exact(samples.max(1)) {
        let mut key = [0, 0, 0, 255];
        for (k, &v) in key.iter_mut().zip(px) {
            *k = v;
        }
        let i = match last {
            Some((c, i)) if c == key => i,
            _ => {
                let i = match index.get(&key) {
                    Some(&i) => i,
                    None => {
                        let i = u8::try_from(colors.len()).ok()?;
                        colors.push(key);
                        index.insert(key, i);
                        i
                    }
                };
                last = Some((key, i));
                i
            }
        };
        indices.push(i);
    }
    Some((colors, indices))
}

/// `image` as PNG bytes, or why it cannot be one (sizes that do not agree, a palette that is
/// not RGB triples, a keyword PNG does not allow).
pub fn encode_png(image: &PngImage<'_>) -> Result<Vec<u8>, String> {
    encode_sampled(image, SAMPLE_BYTES)
}

/// [`encode_png`] with the filtering decided on a sample of at most `sample` bytes of rows.
fn encode_sampled(image: &PngImage<'_>, sample: usize) -> Result<Vec<u8>, String> {
    let stride = check(image.width, image.height, image.color, image.pixels)?;
    let mut out = header(image.width, image.height, image.color);
    if image.color == PngColor::Indexed {
        if image.palette.is_empty() || image.palette.len() % 3 != 0 || image.palette.len() > 768 {
            return Err(format!(
                "an indexed PNG needs a palette of 1 to 256 RGB triples, not {} bytes",
                image.palette.len()
            ));
        }
        chunk(&mut out, *b"PLTE", &[image.palette])?;
    } else if !image.palette.is_empty() {
        return Err("only an indexed PNG has a palette here".into());
    }
    if !image.transparency.is_empty() {
        if image.color != PngColor::Indexed || image.transparency.len() > image.palette.len() / 3 {
            return Err(format!(
                "{} transparency entries for a palette of {} colours",
                image.transparency.len(),
                image.palette.len() / 3
            ));
        }
        chunk(&mut out, *b"tRNS", &[image.transparency])?;
    }
    if let Some((keyword, text)) = image.text {
        if keyword.is_empty()
            || keyword.len() > 79
            || !keyword.bytes().all(|b| (32..=126).contains(&b))
        {
            return Err(format!("{keyword:?} is not a PNG text keyword"));
        }
        chunk(
            &mut out,
            *b"zTXt",
            &[keyword.as_bytes(), &[0, 0], &zlib(text.as_bytes())?],
        )?;
    }
    let stream = deflate_rows(image.pixels, stride, image.color, sample)?;
    data_chunks(&mut out, *b"IDAT", None, &stream)?;
    chunk(&mut out, *b"IEND", &[])?;
    Ok(out)
}

/// An animated PNG of RGBA `frames` on a `width` x `height` canvas, each whole (replacing the
/// canvas, nothing disposed), played `plays` times (0: for ever); the first frame is also the
/// still image.
pub fn encode_apng(
    width: u32,
    height: u32,
    frames: &[ApngFrame<'_>],
    plays: u32,
) -> Result<Vec<u8>, String> {
    let count = u32::try_from(frames.len())
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("an APNG needs 1 to 2^32 - 1 frames, not {}", frames.len()))?;
    let mut out = header(width, height, PngColor::Rgba);
    chunk(
        &mut out,
        *b"acTL",
        &[&count.to_be_bytes(), &plays.to_be_bytes()],
    )?;
    let mut sequence: u32 = 0;
    let mut next = || {
        let n = sequence;
        sequence = sequence.wrapping_add(1);
        n
    };
    for (i, frame) in frames.iter().enumerate() {
        let stride = check(width, height, PngColor::Rgba, frame.rgba)?;
        let (num, den) = frame.delay;
        // fcTL: sequence, size, offset 0,0, delay, dispose op 0 (none), blend op 0 (source)
        chunk(
            &mut out,
            *b"fcTL",
            &[
                &next().to_be_bytes(),
                &width.to_be_bytes(),
                &height.to_be_bytes(),
                &[0; 8],
                &num.to_be_bytes(),
                &den.to_be_bytes(),
                &[0, 0],
            ],
        )?;
        let stream = deflate_rows(frame.rgba, stride, PngColor::Rgba, SAMPLE_BYTES)?;
        if i == 0 {
            data_chunks(&mut out, *b"IDAT", None, &stream)?;
        } else {
            data_chunks(&mut out, *b"fdAT", Some(&mut next), &stream)?;
        }
    }
    chunk(&mut out, *b"IEND", &[])?;
    Ok(out)
}

/// The bytes of a row of `width` pixels, after checking that `pixels` holds `height` of them.
fn check(width: u32, height: u32, color: PngColor, pixels: &[u8]) -> Result<usize, String> {
    if width == 0 || height == 0 || width > 0x7fff_ffff || height > 0x7fff_ffff {
        return Err(format!("a PNG cannot be {width} x {height} pixels"));
    }
    let stride = usize::try_from(width)
        .ok()
        .and_then(|w| w.checked_mul(color.samples()));
    let total = stride.and_then(|s| s.checked_mul(usize::try_from(height).ok()?));
    match (stride, total) {
        (Some(stride), Some(total)) if total == pixels.len() => Ok(stride),
        _ => Err(format!(
            "a {width} x {height} image of {} bytes per pixel is not {} bytes",
            color.samples(),
            pixels.len()
        )),
    }
}

/// The signature and `IHDR`: 8 bits per sample, deflate, adaptive filtering, not interlaced.
fn header(width: u32, height: u32, color: PngColor) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(SIGNATURE);
    let mut ihdr = [0u8; 13];
    let (w, rest) = ihdr.split_at_mut(4);
    let (h, rest) = rest.split_at_mut(4);
    w.copy_from_slice(&width.to_be_bytes());
    h.copy_from_slice(&height.to_be_bytes());
    rest.copy_from_slice(&[8, color.code(), 0, 0, 0]);
    // 13 bytes always fit a chunk.
    let _ = chunk(&mut out, *b"IHDR", &[&ihdr]);
    out
}

/// A chunk whose body is `parts` one after the other.
fn chunk(out: &mut Vec<u8>, kind: [u8; 4], parts: &[&[u8]]) -> Result<(), String> {
    let len = parts
        .iter()
        .try_fold(0usize, |n, p| n.checked_add(p.len()))
        .filter(|&n| n <= MAX_CHUNK)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or("a PNG chunk cannot hold 2 GiB or more")?;
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&kind);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&kind);
    for p in parts {
        out.extend_from_slice(p);
        crc.update(p);
    }
    out.extend_from_slice(&crc.finalize().to_be_bytes());
    Ok(())
}

/// `stream` as one `IDAT` (or `fdAT`) chunk, several when it is larger than a chunk may be;
/// `fdAT` chunks start with the next sequence number.
fn data_chunks(
    out: &mut Vec<u8>,
    kind: [u8; 4],
    mut sequence: Option<&mut dyn FnMut() -> u32>,
    stream: &[u8],
) -> Result<(), String> {
    for piece in stream.chunks(MAX_CHUNK.wrapping_sub(4)) {
        match sequence.as_mut() {
            Some(next) => chunk(out, kind, &[&next().to_be_bytes(), piece])?,
            None => chunk(out, kind, &[piece])?,
        }
    }
    Ok(())
}

/// `bytes` as a zlib stream, deflated by zlib-rs at [`LEVEL`].
pub fn zlib(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut z = Zlib::new();
    z.push(bytes, zlib_rs::DeflateFlush::Finish)?;
    Ok(z.finish())
}

/// How the rows of one image are filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Filtering {
    /// Filter type 0 on every row.
    None,
    /// Per row, the filter whose output has the smallest sum of absolute values (as signed
    /// bytes): the heuristic of libpng and the `png` crate.
    Adaptive,
}

/// Rows of at most this many bytes, in bands spread over the image, decide [`choose_filter`].
const SAMPLE_BYTES: usize = 64 * 1024;
/// How many bands the sample is taken from.
const SAMPLE_BANDS: usize = 8;

/// The filtering that compresses `pixels` best: none for indexed images; for others, whichever
/// of none and adaptive deflates a sample of the rows smaller (none on a tie: it is faster).
/// Unfiltered wins on images of few flat colours (the palette-drawn MDL skins: 6 % smaller than
/// adaptive), adaptive on photographs and gradients, and on level pictures by a factor of 1.5.
fn choose_filter(pixels: &[u8], stride: usize, color: PngColor, sample: usize) -> Filtering {
    if color == PngColor::Indexed {
        return Filtering::None;
    }
    let Some(height) = pixels.len().checked_div(stride) else {
        return Filtering::None;
    };
    let per_band = (sample / SAMPLE_BANDS)
        .checked_div(stride)
        .unwrap_or(1)
        .max(1);
    let bands = SAMPLE_BANDS.min(height.div_ceil(per_band));
    let mut plain = Vec::new();
    let mut adaptive = Vec::new();
    let mut scratch = Scratch::new(stride);
    for band in 0..bands {
        // Band starts spread evenly: band * height / bands, never past the end.
        let start = band.saturating_mul(height).checked_div(bands).unwrap_or(0);
        let end = start.saturating_add(per_band).min(height);
        for y in start..end {
            let row = row_of(pixels, stride, y);
            let prev = y.checked_sub(1).map(|p| row_of(pixels, stride, p));
            plain.push(0);
            plain.extend_from_slice(row);
            filter_row(
                row,
                prev,
                color.samples(),
                Filtering::Adaptive,
                &mut scratch,
                &mut adaptive,
            );
        }
    }
    let size = |rows: &[u8]| zlib(rows).map(|z| z.len()).unwrap_or(usize::MAX);
    // The two trials on two cores where there are threads (each is its own stream: the same
    // sizes either way).
    #[cfg(not(target_arch = "wasm32"))]
    let (adaptive, plain) = rayon::join(|| size(&adaptive), || size(&plain));
    #[cfg(target_arch = "wasm32")]
    let (adaptive, plain) = (size(&adaptive), size(&plain));
    if adaptive < plain {
        Filtering::Adaptive
    } else {
        Filtering::None
    }
}

fn row_of(pixels: &[u8], stride: usize, y: usize) -> &[u8] {
    let start = y.saturating_mul(stride);
    pixels
        .get(start..start.saturating_add(stride))
        .unwrap_or_default()
}

/// Filtered rows are handed to the deflater in pieces of about this many bytes.
const PIECE: usize = 256 * 1024;

/// The filtered rows of `pixels` (each row's filter type byte, then the row, filtered as
/// [`choose_filter`] decides) as one zlib stream at [`LEVEL`]. The rows are filtered and
/// deflated a piece at a time, so the memory it takes is the compressed stream, not a filtered
/// copy of the image and a worst-case output buffer beside it; the stream is the one a single
/// call over all the rows gives (a test holds it to that).
fn deflate_rows(
    pixels: &[u8],
    stride: usize,
    color: PngColor,
    sample: usize,
) -> Result<Vec<u8>, String> {
    let filtering = choose_filter(pixels, stride, color, sample);
    let height = pixels.len().checked_div(stride).unwrap_or(0);
    if let Some(rows_per_piece) = piece_rows(height, stride) {
        return deflate_pieces(pixels, stride, color, filtering, rows_per_piece);
    }
    let mut scratch = Scratch::new(stride);
    // The filtered rows: the pixels and a filter type byte a row.
    let rows = pixels
        .len()
        .saturating_add(pixels.len().checked_div(stride).unwrap_or(0));
    let mut z = Zlib::new();
    let mut piece = Vec::with_capacity(PIECE.saturating_add(stride).saturating_add(1).min(rows));
    let mut prev: Option<&[u8]> = None;
    for row in pixels.chunks_exact(stride.max(1)) {
        filter_row(
            row,
            prev,
            color.samples(),
            filtering,
            &mut scratch,
            &mut piece,
        );
        prev = Some(row);
        if piece.len() >= PIECE {
            z.push(&piece, zlib_rs::DeflateFlush::NoFlush)?;
            piece.clear();
        }
    }
    z.push(&piece, zlib_rs::DeflateFlush::Finish)?;
    Ok(z.finish())
}

/// Filtered rows of more than this many bytes are deflated in pieces of about this size, on
/// several cores where there are threads (pigz's way): each piece a raw deflate stream primed
/// with the [`WINDOW`] of filtered rows before it and ended on a byte boundary, the pieces one
/// zlib stream with the checksum of them all. Where a piece starts depends on the image's size
/// alone, never on the number of threads, so the bytes are the same everywhere, WebAssembly
/// (one piece after the other) included. How many pieces, and of how many rows:
/// [`piece_rows`].
const PARALLEL_PIECE: usize = 96 * 1024;
/// The rows of each piece of an image of `height` rows of `stride` bytes deflated in pieces,
/// or `None` for one stream. The pieces are as even as the rows allow, their number the
/// nearest to the filtered bytes over [`PARALLEL_PIECE`] (two at least): a 256 x 256 RGB skin
/// is two pieces of 128 rows (it was 127, 127 and 2: a third deflate state, primed with a whole
/// window, for two rows, and a third turn on two cores).
fn piece_rows(height: usize, stride: usize) -> Option<usize> {
    let per_piece = PARALLEL_PIECE
        .checked_div(stride.saturating_add(1))
        .unwrap_or(1)
        .max(1);
    if height <= per_piece {
        return None;
    }
    let count = height
        .saturating_add(per_piece / 2)
        .checked_div(per_piece)
        .unwrap_or(1)
        .max(2);
    Some(height.div_ceil(count))
}

/// How much a deflate stream looks back: what each piece is primed with.
const WINDOW: usize = 32 * 1024;

/// [`deflate_rows`] of an image of more than one piece: see [`PARALLEL_PIECE`].
fn deflate_pieces(
    pixels: &[u8],
    stride: usize,
    color: PngColor,
    filtering: Filtering,
    rows_per_piece: usize,
) -> Result<Vec<u8>, String> {
    let height = pixels.len().checked_div(stride).unwrap_or(0);
    let row_bytes = stride.saturating_add(1);
    let filter_into = |from: usize, to: usize, scratch: &mut Scratch, out: &mut Vec<u8>| {
        for y in from..to {
            let prev = y.checked_sub(1).map(|p| row_of(pixels, stride, p));
            filter_row(
                row_of(pixels, stride, y),
                prev,
                color.samples(),
                filtering,
                scratch,
                out,
            );
        }
    };
    // One piece: its raw deflate stream, the Adler-32 of its filtered rows and their length.
    let piece = |start: usize| -> Result<(Vec<u8>, u32, usize), String> {
        let end = start.saturating_add(rows_per_piece).min(height);
        let mut scratch = Scratch::new(stride);
        let mut before = Vec::new();
        filter_into(
            start.saturating_sub(WINDOW.div_ceil(row_bytes)),
            start,
            &mut scratch,
            &mut before,
        );
        let window = before
            .get(before.len().saturating_sub(WINDOW)..)
            .unwrap_or_default();
        let mut rows = Vec::with_capacity(end.saturating_sub(start).saturating_mul(row_bytes));
        filter_into(start, end, &mut scratch, &mut rows);
        let mut z = Zlib::raw();
        if !window.is_empty() {
            z.set_dictionary(window)?;
        }
        let flush = if end == height {
            zlib_rs::DeflateFlush::Finish
        } else {
            zlib_rs::DeflateFlush::SyncFlush
        };
        z.push(&rows, flush)?;
        Ok((z.finish(), zlib_rs::adler32::adler32(1, &rows), rows.len()))
    };
    let starts: Vec<usize> = (0..height).step_by(rows_per_piece.max(1)).collect();
    #[cfg(not(target_arch = "wasm32"))]
    let pieces: Vec<_> = {
        use rayon::prelude::*;
        starts.par_iter().map(|&s| piece(s)).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let pieces: Vec<_> = starts.iter().map(|&s| piece(s)).collect();
    let mut out = ZLIB_HEADER.to_vec();
    let mut adler = 1u32;
    for p in pieces {
        let (bytes, checksum, len) = p?;
        out.extend_from_slice(&bytes);
        adler = zlib_rs::adler32::adler32_combine(adler, checksum, len as u64);
    }
    out.extend_from_slice(&adler.to_be_bytes());
    Ok(out)
}

/// The two bytes a zlib stream at [`LEVEL`] starts with (deflate, 32 KiB window, the level's
/// class; a test holds zlib-rs to them).
const ZLIB_HEADER: [u8; 2] = [0x78, 0x5E];

/// A zlib stream at [`LEVEL`] written as its input arrives.
///
/// Its deflate state and output buffer come from the thread's [`SPARE`] and go back to it,
/// reset, when the stream is dropped: a fresh zlib-rs state is about 300 KB to allocate and
/// clear, more work than deflating a small sprite. A reset state gives the bytes a new one does.
struct Zlib {
    state: Option<Box<State>>,
    out: Vec<u8>,
    /// A raw deflate stream (no zlib header or checksum): one piece of [`deflate_pieces`].
    raw: bool,
}

/// A deflate state and the buffer its output goes through.
struct State {
    z: zlib_rs::Deflate,
    buf: Vec<u8>,
}

std::thread_local! {
    /// The state of the last stream this thread finished, ready for the next.
    static SPARE: std::cell::RefCell<Option<Box<State>>> = const { std::cell::RefCell::new(None) };
}

impl Zlib {
    fn new() -> Self {
        Self::with(false)
    }

    /// A raw deflate stream at [`LEVEL`].
    fn raw() -> Self {
        Self::with(true)
    }

    fn with(raw: bool) -> Self {
        // A raw stream (a piece) always gets a new state: a reset one still holds the bytes
        // of the stream before it, and a piece primed with a dictionary came out other bytes
        // after it (which piece a thread deflated before depends on the scheduling). A new
        // state is about 10 microseconds a piece: the level-picture benchmark, 500 pieces of
        // flat tiles, went from 39 to 44 ms.
        let spare = (!raw)
            .then(|| SPARE.with(|s| s.borrow_mut().take()))
            .flatten();
        let state = spare.unwrap_or_else(|| {
            let defaults = zlib_rs::DeflateConfig::default();
            Box::new(State {
                z: zlib_rs::Deflate::new_with_config(zlib_rs::DeflateConfig {
                    level: LEVEL,
                    // Negative window bits: a raw stream.
                    window_bits: if raw {
                        defaults.window_bits.saturating_abs().saturating_neg()
                    } else {
                        defaults.window_bits
                    },
                    ..defaults
                }),
                buf: vec![0; 64 * 1024],
            })
        });
        Zlib {
            state: Some(state),
            out: Vec::new(),
            raw,
        }
    }

    /// Prime the stream with the data that came before it (at its start only).
    fn set_dictionary(&mut self, dictionary: &[u8]) -> Result<(), String> {
        let State { z, .. } = self.state.as_deref_mut().ok_or("deflate has no state")?;
        z.set_dictionary(dictionary)
            .map(|_| ())
            .map_err(|e| format!("deflate refused the dictionary ({e:?})"))
    }

    /// The stream so far (all of it after a push with `Finish`).
    fn finish(mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Deflate all of `input`; with `Finish`, end the stream.
    fn push(&mut self, mut input: &[u8], flush: zlib_rs::DeflateFlush) -> Result<(), String> {
        let State { z, buf } = self.state.as_deref_mut().ok_or("deflate has no state")?;
        loop {
            let (read, written) = (z.total_in(), z.total_out());
            let status = z
                .compress(input, buf, flush)
                .map_err(|e| format!("deflate failed ({e:?})"))?;
            let consumed = usize::try_from(z.total_in().wrapping_sub(read))
                .map_err(|_| "deflate read too much")?;
            let produced = usize::try_from(z.total_out().wrapping_sub(written))
                .map_err(|_| "deflate wrote too much")?;
            self.out
                .extend_from_slice(buf.get(..produced).ok_or("deflate wrote too much")?);
            input = input.get(consumed..).ok_or("deflate read too much")?;
            let done = match flush {
                zlib_rs::DeflateFlush::Finish => status == zlib_rs::Status::StreamEnd,
                _ => input.is_empty() && produced < buf.len(),
            };
            if done {
                return Ok(());
            }
            if consumed == 0 && produced == 0 {
                return Err(format!("deflate made no progress ({status:?})"));
            }
        }
    }
}

impl Drop for Zlib {
    fn drop(&mut self) {
        if let Some(mut state) = self.state.take() {
            state.z.reset();
            if !self.raw {
                SPARE.with(|s| *s.borrow_mut() = Some(state));
            }
        }
    }
}

/// The four filtered candidates of a row, reused from row to row.
struct Scratch {
    sub: Vec<u8>,
    up: Vec<u8>,
    avg: Vec<u8>,
    paeth: Vec<u8>,
}

impl Scratch {
    fn new(stride: usize) -> Self {
        Scratch {
            sub: vec![0; stride],
            up: vec![0; stride],
            avg: vec![0; stride],
            paeth: vec![0; stride],
        }
    }
}

/// Sum of the bytes of a filtered row as signed magnitudes (`|b as i8|` is the smaller of `b`
/// and `-b`), summed in 32 bits a part at a time: it vectorises 16 bytes a step, where a 64-bit
/// sum took 4 (this was most of the filtering's time).
fn cost(row: &[u8]) -> u64 {
    row.chunks(1 << 16)
        .map(|part| {
            let sum: u32 = part
                .iter()
                .map(|&b| u32::from(b.min(b.wrapping_neg())))
                .sum();
            u64::from(sum)
        })
        .sum()
}

/// Append `row` filtered (its filter type byte first); `prev` is the row above (none for the
/// first, where PNG takes it as zeros).
fn filter_row(
    row: &[u8],
    prev: Option<&[u8]>,
    bpp: usize,
    filtering: Filtering,
    s: &mut Scratch,
    out: &mut Vec<u8>,
) {
    if filtering == Filtering::None {
        out.push(0);
        out.extend_from_slice(row);
        return;
    }
    let bpp = bpp.clamp(1, row.len().max(1));
    let Some(prev) = prev else {
        // The first row: up is the row itself, average and Paeth are sub or halved left.
        sub(row, bpp, &mut s.sub);
        avg_first(row, bpp, &mut s.avg);
        let candidates: [(u8, &[u8]); 3] = [(0, row), (1, &s.sub), (3, &s.avg)];
        push_best(&candidates, out);
        return;
    };
    sub(row, bpp, &mut s.sub);
    for ((o, &x), &b) in s.up.iter_mut().zip(row).zip(prev) {
        *o = x.wrapping_sub(b);
    }
    avg(row, prev, bpp, &mut s.avg);
    paeth(row, prev, bpp, &mut s.paeth);
    let candidates: [(u8, &[u8]); 5] = [
        (0, row),
        (1, &s.sub),
        (2, &s.up),
        (3, &s.avg),
        (4, &s.paeth),
    ];
    push_best(&candidates, out);
}

/// Append the candidate of least [`cost`] (the first of equals).
fn push_best(candidates: &[(u8, &[u8])], out: &mut Vec<u8>) {
    let mut best: Option<(u64, u8, &[u8])> = None;
    for &(kind, bytes) in candidates {
        let c = cost(bytes);
        if best.is_none_or(|(b, _, _)| c < b) {
            best = Some((c, kind, bytes));
        }
    }
    if let Some((_, kind, bytes)) = best {
        out.push(kind);
        out.extend_from_slice(bytes);
    }
}

fn sub(row: &[u8], bpp: usize, out: &mut [u8]) {
    let (head, tail) = out.split_at_mut(bpp.min(out.len()));
    head.copy_from_slice(row.get(..head.len()).unwrap_or_default());
    for ((o, &x), &a) in tail.iter_mut().zip(row.iter().skip(bpp)).zip(row) {
        *o = x.wrapping_sub(a);
    }
}

fn avg_first(row: &[u8], bpp: usize, out: &mut [u8]) {
    let (head, tail) = out.split_at_mut(bpp.min(out.len()));
    head.copy_from_slice(row.get(..head.len()).unwrap_or_default());
    for ((o, &x), &a) in tail.iter_mut().zip(row.iter().skip(bpp)).zip(row) {
        *o = x.wrapping_sub(a >> 1);
    }
}

fn avg(row: &[u8], prev: &[u8], bpp: usize, out: &mut [u8]) {
    for ((o, &x), &b) in out.iter_mut().zip(row).zip(prev).take(bpp) {
        *o = x.wrapping_sub(b >> 1);
    }
    let left = row.iter();
    let rest = row.iter().zip(prev).skip(bpp);
    for ((o, (&x, &b)), &a) in out.iter_mut().skip(bpp).zip(rest).zip(left) {
        // (a + b) / 2 rounded down, without leaving the byte.
        let mean = (a & b).wrapping_add((a ^ b) >> 1);
        *o = x.wrapping_sub(mean);
    }
}

fn paeth(row: &[u8], prev: &[u8], bpp: usize, out: &mut [u8]) {
    // With no left pixel the predictor is the one above.
    for ((o, &x), &b) in out.iter_mut().zip(row).zip(prev).take(bpp) {
        *o = x.wrapping_sub(b);
    }
    let rest = row.iter().zip(prev).skip(bpp);
    let left = row.iter().zip(prev);
    for ((o, (&x, &b)), (&a, &c)) in out.iter_mut().skip(bpp).zip(rest).zip(left) {
        *o = x.wrapping_sub(predict(a, b, c));
    }
}

/// The Paeth predictor (PNG specification, 9.4).
#[inline]
fn predict(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
    // Bytes: no sum below overflows an i16.
    #[allow(clippy::arithmetic_side_effects)]
    let (pa, pb, pc) = ((ib - ic).abs(), (ia - ic).abs(), (ia + ib - ic - ic).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::unwrap_used
)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info, buf)
    }

    /// A gradient (adaptive filtering wins) and flat blocks (none wins), in every colour type.
    fn pictures() -> Vec<(u32, u32, PngColor, Vec<u8>)> {
        let mut out = Vec::new();
        for color in [
            PngColor::Grey,
            PngColor::GreyAlpha,
            PngColor::Rgb,
            PngColor::Rgba,
            PngColor::Indexed,
        ] {
            for (w, h) in [(1, 1), (3, 5), (67, 41), (300, 200)] {
                let n = color.samples();
                let mut gradient = Vec::new();
                let mut blocks = Vec::new();
                for y in 0..h {
                    for x in 0..w {
                        for k in 0..n {
                            gradient.push((x * 3 + y * 5 + k as u32 * 40) as u8);
                            blocks.push((((x / 8) ^ (y / 8)) * 37 + k as u32) as u8);
                        }
                    }
                }
                out.push((w, h, color, gradient));
                out.push((w, h, color, blocks));
            }
        }
        out
    }

    /// [`encode_texture`] gives back the same RGBA pixels as [`encode_png`], indexed when the
    /// picture has few colours (with `tRNS` for the translucent ones), RGB when it is opaque.
    #[test]
    fn textures_keep_their_pixels_in_the_smaller_colour_type() {
        let rgba = |bytes: &[u8]| {
            image::load_from_memory(bytes)
                .unwrap()
                .to_rgba8()
                .into_raw()
        };
        let mut kinds = Vec::new();
        let mut all = pictures();
        for color in [PngColor::Rgb, PngColor::Rgba] {
            // More than 256 colours.
            let many = (0..64u32 * 48)
                .flat_map(|i| {
                    [i as u8, (i >> 8) as u8, (i * 7) as u8, 255][..color.samples()].to_vec()
                })
                .collect();
            all.push((64, 48, color, many));
        }
        for (w, h, color, pixels) in all {
            if !matches!(color, PngColor::Rgb | PngColor::Rgba) {
                continue;
            }
            let mut translucent = pixels.clone();
            if color == PngColor::Rgba {
                // Fully opaque but for one pixel in the gradient's case.
                for (i, p) in translucent.chunks_exact_mut(4).enumerate() {
                    p[3] = if i == 1 { 7 } else { 255 };
                }
            }
            for pixels in [pixels, translucent] {
                let image = PngImage::new(w, h, color, &pixels);
                let texture = encode_texture(&image).unwrap();
                assert_eq!(
                    rgba(&texture),
                    rgba(&encode_png(&image).unwrap()),
                    "{w}x{h} {color:?}"
                );
                kinds.push(decode(&texture).0.color_type);
            }
        }
        for kind in [
            png::ColorType::Indexed,
            png::ColorType::Rgb,
            png::ColorType::Rgba,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} never chosen");
        }
    }

    #[test]
    fn every_colour_type_decodes_to_its_pixels() {
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
        for (w, h, color, pixels) in pictures() {
            let mut image = PngImage::new(w, h, color, &pixels);
            if color == PngColor::Indexed {
                image.palette = &palette;
                image.transparency = &[255, 0, 128];
                image.text = Some(("levelkit", "{\"a\":1}"));
            }
            let bytes = encode_png(&image).unwrap();
            let (info, decoded) = decode(&bytes);
            assert_eq!((info.width, info.height), (w, h));
            assert_eq!(decoded, pixels, "{w} x {h} {color:?}");
            assert_eq!(bytes, encode_png(&image).unwrap());
        }
    }

    /// The stream deflated in one call over all the filtered rows, as before rows were
    /// deflated a piece at a time.
    fn one_call(pixels: &[u8], stride: usize, color: PngColor) -> Vec<u8> {
        let filtering = choose_filter(pixels, stride, color, SAMPLE_BYTES);
        let mut scratch = Scratch::new(stride);
        let mut rows = Vec::new();
        let mut prev: Option<&[u8]> = None;
        for row in pixels.chunks_exact(stride) {
            filter_row(
                row,
                prev,
                color.samples(),
                filtering,
                &mut scratch,
                &mut rows,
            );
            prev = Some(row);
        }
        zlib(&rows).unwrap()
    }

    /// Images of one [`PARALLEL_PIECE`] at most are the one-call stream, byte for byte; larger
    /// ones, deflated in pieces, are a valid zlib stream (its checksum checked) of the same
    /// filtered rows, hardly larger, and the same bytes every time.
    #[test]
    fn rows_deflated_in_pieces_are_the_one_call_stream() {
        let mut cases = pictures();
        // Larger than a piece, with rows that cross piece boundaries, in noise and in flat
        // colour, and a texture-like picture of many colours.
        let (w, h) = (1021u32, 700u32);
        let mut seed = 12345u32;
        let noise: Vec<u8> = (0..w * h * 4)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (seed >> 24) as u8
            })
            .collect();
        cases.push((w, h, PngColor::Rgba, noise));
        cases.push((w, h, PngColor::Indexed, vec![3u8; (w * h) as usize]));
        let skin: Vec<u8> = (0..256u32 * 256)
            .flat_map(|i| {
                let (x, y) = (i % 256, i / 256);
                [
                    (x ^ y) as u8,
                    (x * 3 / 2) as u8,
                    ((x + y) / 2 + (x * y) % 7) as u8,
                ]
            })
            .collect();
        cases.push((256, 256, PngColor::Rgb, skin));
        let mut pieces = 0;
        for (w, h, color, pixels) in cases {
            let stride = w as usize * color.samples();
            let stream = deflate_rows(&pixels, stride, color, SAMPLE_BYTES).unwrap();
            let one = one_call(&pixels, stride, color);
            let Some(rows_per_piece) = piece_rows(h as usize, stride) else {
                assert_eq!(stream, one, "{w} x {h} {color:?}");
                continue;
            };
            pieces += 1;
            let rows = miniz_oxide::inflate::decompress_to_vec_zlib(&stream).unwrap();
            let expected = miniz_oxide::inflate::decompress_to_vec_zlib(&one).unwrap();
            assert!(rows == expected, "{w} x {h} {color:?}: other rows");
            // Each piece after the first costs a block's Huffman tables and a flush marker.
            let count = (h as usize).div_ceil(rows_per_piece);
            assert!(count >= 2 && rows_per_piece * (stride + 1) <= PARALLEL_PIECE * 3 / 2);
            assert!(
                stream.len() * 100 <= one.len() * 102 + 64 * 100 * count,
                "{w} x {h} {color:?}: {} bytes in pieces, {} in one",
                stream.len(),
                one.len()
            );
            assert_eq!(
                stream,
                deflate_rows(&pixels, stride, color, SAMPLE_BYTES).unwrap()
            );
        }
        assert!(pieces >= 3, "{pieces} pictures in pieces");
        assert_eq!(zlib(b"").unwrap().get(..2), Some(&ZLIB_HEADER[..]));
    }

    /// An image deflated in pieces is the same bytes on any number of threads and whatever
    /// the threads deflated before (a piece once took a reset state from whichever piece its
    /// thread had done last, and came out other bytes: level pictures differed run to run).
    #[test]
    fn pieces_are_the_same_bytes_on_any_threads() {
        let (w, h) = (512u32, 400u32);
        let picture = |seed: u32| -> Vec<u8> {
            (0..w * h * 3)
                .map(|i| {
                    let (x, y) = ((i / 3) % w, (i / 3) / w);
                    ((x / 7 + y / 5) * 13 + (i % 3) * seed + (x * y) % 11) as u8
                })
                .collect()
        };
        let image = picture(40);
        let stride = w as usize * 3;
        let run = |threads: usize, before: Option<&[u8]>| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    if let Some(other) = before {
                        deflate_rows(other, stride, PngColor::Rgb, SAMPLE_BYTES).unwrap();
                    }
                    deflate_rows(&image, stride, PngColor::Rgb, SAMPLE_BYTES).unwrap()
                })
        };
        let one = run(1, None);
        assert!(one.len() > 1000, "{} bytes", one.len());
        for threads in [1, 2, 3, 8] {
            for seed in [None, Some(0), Some(1), Some(97)] {
                let other = seed.map(picture);
                assert!(
                    run(threads, other.as_deref()) == one,
                    "{threads} threads, after {seed:?}"
                );
            }
        }
    }

    #[test]
    fn filters_are_chosen_per_image() {
        let (w, h) = (256usize, 64usize);
        let gradient: Vec<u8> = (0..w * h * 4)
            .map(|i| ((i % (w * 4)) / 4 + i / (w * 4) * 3) as u8)
            .collect();
        assert_eq!(
            choose_filter(&gradient, w * 4, PngColor::Rgba, SAMPLE_BYTES),
            Filtering::Adaptive
        );
        let flat = vec![7u8; w * h * 4];
        assert_eq!(
            choose_filter(&flat, w * 4, PngColor::Rgba, SAMPLE_BYTES),
            Filtering::None
        );
        assert_eq!(
            choose_filter(&gradient, w * 4, PngColor::Indexed, SAMPLE_BYTES),
            Filtering::None
        );
    }

    #[test]
    fn apng_frames_decode() {
        let a = vec![10u8; 5 * 4 * 4];
        let b: Vec<u8> = (0..80u8).collect();
        let frames = [
            ApngFrame {
                rgba: &a,
                delay: (1, 10),
            },
            ApngFrame {
                rgba: &b,
                delay: (3, 100),
            },
        ];
        let bytes = encode_apng(5, 4, &frames, 0).unwrap();
        let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes[..]))
            .read_info()
            .unwrap();
        assert_eq!(reader.info().animation_control.unwrap().num_frames, 2);
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(buf, a);
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(buf, b);
        assert_eq!(reader.info().frame_control.unwrap().delay_den, 100);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let px = [0u8; 12];
        assert!(encode_png(&PngImage::new(0, 3, PngColor::Rgba, &[])).is_err());
        assert!(encode_png(&PngImage::new(2, 2, PngColor::Rgba, &px)).is_err());
        assert!(encode_png(&PngImage::new(2, 2, PngColor::Rgb, &px)).is_ok());
        assert!(encode_png(&PngImage::new(3, 4, PngColor::Indexed, &px)).is_err());
        let mut bad_key = PngImage::new(2, 2, PngColor::Rgb, &px);
        bad_key.text = Some(("", "x"));
        assert!(encode_png(&bad_key).is_err());
        assert!(encode_apng(1, 1, &[], 0).is_err());
    }
}
