//! The steps between the WAP32 images and PNG: a PID as an indexed PNG and back, a PCX as an
//! RGBA PNG, a palette as a swatch (and an indexed PNG's palette as a `.PAL`).
//!
//! A PID becomes an 8-bit indexed PNG: its indices as they are, the palette (its own, else the
//! one given) as `PLTE`, the transparent entries ([`Pid::default_transparency`]) as `tRNS`, and
//! everything else the PID holds (file descriptor, flags, hotspot, fill and user dwords, the
//! encoder's spelling, and the original stream and trailing bytes where the file had them) as
//! JSON in a compressed text chunk with the keyword [`META_KEYWORD`]. So `PID -> PNG -> PID` is
//! byte for byte, and a PNG edited in a paint program that keeps indexed colour keeps its
//! indices.
//!
//! Back from a PNG: an indexed PNG keeps its indices when no other palette is asked for;
//! anything else (RGBA, RGB, grey, or an indexed PNG with a different palette asked for) is
//! quantised to the palette: alpha 0 becomes the transparent index, every other pixel the first
//! entry of exactly its colour (never the transparent one, in a transparent image), else the
//! nearest by squared RGB distance, with a warning counting them. Without the text chunk the
//! header is made up: hotspot 0, 0; flags `TRANSPARENCY | COMPRESSION` (the skip grammar, as
//! most shipped sprites) when any pixel is transparent, else 0; the palette embedded
//! (`EMBEDDED_PALETTE`) when it came from the PNG itself rather than from the caller.

use std::collections::HashMap;
use std::io::Cursor;

use serde::{Deserialize, Serialize};

use super::model::{Pid, PidFlags, RgbaImage, Transparency};
use super::pal::Palette;
use super::rle::Spelling;
use crate::encoding::{PngColor, PngImage, encode_png};
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;

/// The keyword of the text chunk that carries what a PNG has no place for.
pub const META_KEYWORD: &str = "levelkit-pid";

/// What a PID holds beyond its pixels and palette, in the PNG's text chunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Meta {
    file_desc: u32,
    flags: PidFlags,
    offset_x: i32,
    offset_y: i32,
    fill: u32,
    user: u32,
    spelling: Spelling,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_bytes::opt_hex"
    )]
    original_stream: Option<Vec<u8>>,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::hex"
    )]
    trailing: Vec<u8>,
}

fn png_error(format: Format, kind: ErrorKind, message: impl Into<String>) -> Error {
    Error::new(format, kind, Location::default(), message)
}

fn encode_failed(format: Format) -> impl Fn(String) -> Error {
    move |e| png_error(format, ErrorKind::Io, format!("png encoding failed: {e}"))
}

/// The no-palette error, with what to do about it.
fn no_palette(format: Format) -> Error {
    png_error(
        format,
        ErrorKind::Unsupported,
        "the image has no palette of its own (flag 0x80 clear): it is drawn with its level's \
         palette; give one (a .PAL, or a PID or PCX with a palette; `--palette` on the command \
         line)",
    )
}

/// `pid` as an indexed PNG, drawn with its own palette or else `palette`.
pub fn pid_to_png(pid: &Pid, palette: Option<&Palette>) -> Result<Vec<u8>> {
    let palette = pid
        .palette_or(palette)
        .ok_or_else(|| no_palette(Format::Pid))?;
    pid.check_pixel_count()?;
    let alpha = alpha_table(palette, pid.default_transparency(palette));
    let meta = Meta {
        file_desc: pid.file_desc,
        flags: pid.flags,
        offset_x: pid.offset_x,
        offset_y: pid.offset_y,
        fill: pid.fill,
        user: pid.user,
        spelling: pid.spelling,
        original_stream: pid.original_stream.clone(),
        trailing: pid.trailing.clone(),
    };
    let text = serde_json::to_string(&meta)
        .map_err(|e| png_error(Format::Pid, ErrorKind::Malformed, e.to_string()))?;
    let transparency = match alpha.iter().rposition(|&a| a != 255) {
        Some(last) => alpha.get(..=last).unwrap_or_default(),
        None => &[],
    };
    let palette = palette.to_bytes();
    let image = PngImage {
        palette: &palette,
        transparency,
        text: Some((META_KEYWORD, &text)),
        ..PngImage::new(pid.width, pid.height, PngColor::Indexed, &pid.pixels)
    };
    encode_png(&image).map_err(encode_failed(Format::Pid))
}

/// Alpha of each palette entry under `transparency`.
fn alpha_table(palette: &Palette, transparency: Transparency) -> [u8; 256] {
    let mut alpha = [255u8; 256];
    for (i, a) in (0..=255u8).zip(alpha.iter_mut()) {
        let clear = match transparency {
            Transparency::Opaque => false,
            Transparency::Index(t) => i == t,
            Transparency::Color(c) => palette.color(i) == c,
        };
        if clear {
            *a = 0;
        }
    }
    alpha
}

/// An RGBA image as an 8-bit RGBA PNG.
pub fn rgba_to_png(format: Format, image: &RgbaImage) -> Result<Vec<u8>> {
    let png = PngImage::new(image.width, image.height, PngColor::Rgba, &image.rgba);
    encode_png(&png).map_err(encode_failed(format))
}

/// A palette as a 128 × 128 indexed PNG: 16 rows of 16 swatches of 8 × 8 pixels, entry 0 at the
/// top left.
pub fn palette_to_png(palette: &Palette) -> Result<Vec<u8>> {
    let mut pixels = Vec::with_capacity(128 * 128);
    for y in 0..128u32 {
        for x in 0..128u32 {
            pixels.push(((y / 8) * 16 + x / 8) as u8);
        }
    }
    let palette = palette.to_bytes();
    let image = PngImage {
        palette: &palette,
        ..PngImage::new(128, 128, PngColor::Indexed, &pixels)
    };
    encode_png(&image).map_err(encode_failed(Format::Pal))
}

/// A PNG decoded: size, indices or RGBA, its palette and transparency, its text chunk.
struct Decoded {
    width: u32,
    height: u32,
    /// Indices, for an indexed PNG.
    indices: Option<Vec<u8>>,
    /// RGBA, for any other (and derived for an indexed one when needed).
    rgba: Vec<u8>,
    /// `PLTE`, padded to 256 entries.
    palette: Option<Palette>,
    /// Alpha of each palette entry (`tRNS`).
    alpha: [u8; 256],
    meta: Option<String>,
}

fn decode_png(format: Format, bytes: &[u8], limits: &Limits) -> Result<Decoded> {
    let bad = |e: png::DecodingError| {
        let kind = match e {
            png::DecodingError::LimitsExceeded => ErrorKind::LimitExceeded,
            png::DecodingError::IoError(_) => ErrorKind::Truncated,
            _ => ErrorKind::Malformed,
        };
        png_error(format, kind, format!("not a readable PNG: {e}"))
    };
    let png_limits = png::Limits {
        bytes: limits.max_alloc,
    };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), png_limits);
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(bad)?;
    let info = reader.info();
    let (width, height) = (info.width, info.height);
    let indexed = info.color_type == png::ColorType::Indexed;
    let depth = info.bit_depth as u8;
    let mut palette = None;
    let mut alpha = [255u8; 256];
    if let Some(plte) = &info.palette {
        let mut padded = plte.to_vec();
        padded.resize(768, 0);
        palette = Palette::from_bytes(&padded);
    }
    if let Some(trns) = &info.trns
        && indexed
    {
        for (a, &t) in alpha.iter_mut().zip(trns.iter()) {
            *a = t;
        }
    }
    let meta = meta_text(info, limits);
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| png_error(format, ErrorKind::LimitExceeded, "the PNG is too large"))?;
    if size > limits.max_alloc {
        return Err(png_error(
            format,
            ErrorKind::LimitExceeded,
            format!("the PNG needs {size} bytes, over the limit"),
        ));
    }
    if indexed {
        let mut buf = vec![0u8; size];
        let frame = reader.next_frame(&mut buf).map_err(bad)?;
        let indices = unpack(&buf, frame.line_size, width, height, depth);
        let pal = palette.clone().unwrap_or_default();
        let mut rgba = Vec::with_capacity(indices.len().saturating_mul(4));
        for &i in &indices {
            let [r, g, b] = pal.color(i);
            let a = alpha.get(usize::from(i)).copied().unwrap_or(255);
            rgba.extend_from_slice(&[r, g, b, a]);
        }
        return Ok(Decoded {
            width,
            height,
            indices: Some(indices),
            rgba,
            palette,
            alpha,
            meta,
        });
    }
    // Anything else: read again, normalised to 8-bit with an alpha channel.
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), png_limits);
    decoder.set_transformations(
        png::Transformations::normalize_to_color8() | png::Transformations::ALPHA,
    );
    let mut reader = decoder.read_info().map_err(bad)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| png_error(format, ErrorKind::LimitExceeded, "the PNG is too large"))?;
    let mut buf = vec![0u8; size];
    let frame = reader.next_frame(&mut buf).map_err(bad)?;
    buf.truncate(frame.buffer_size());
    let rgba = match frame.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|ga| {
                let (g, a) = (
                    ga.first().copied().unwrap_or(0),
                    ga.get(1).copied().unwrap_or(0),
                );
                [g, g, g, a]
            })
            .collect(),
        other => {
            return Err(png_error(
                format,
                ErrorKind::Unsupported,
                format!("unexpected PNG colour type {other:?} after normalising"),
            ));
        }
    };
    Ok(Decoded {
        width,
        height,
        indices: None,
        rgba,
        palette,
        alpha,
        meta,
    })
}

/// The text of the [`META_KEYWORD`] chunk, in any of the three text chunk kinds.
fn meta_text(info: &png::Info<'_>, limits: &Limits) -> Option<String> {
    if let Some(t) = info
        .uncompressed_latin1_text
        .iter()
        .find(|t| t.keyword == META_KEYWORD)
    {
        return Some(t.text.clone());
    }
    if let Some(t) = info
        .compressed_latin1_text
        .iter()
        .find(|t| t.keyword == META_KEYWORD)
    {
        let mut t = t.clone();
        t.decompress_text_with_limit(limits.max_alloc).ok()?;
        return t.get_text().ok();
    }
    info.utf8_text
        .iter()
        .find(|t| t.keyword == META_KEYWORD)
        .and_then(|t| {
            let mut t = t.clone();
            t.decompress_text_with_limit(limits.max_alloc).ok()?;
            t.get_text().ok()
        })
}

/// One byte an index from rows of `depth`-bit indices.
fn unpack(buf: &[u8], line: usize, width: u32, height: u32, depth: u8) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let mut out = Vec::with_capacity(w.saturating_mul(h));
    for row in buf.chunks(line.max(1)).take(h) {
        if depth == 8 {
            out.extend(row.iter().take(w));
            continue;
        }
        let per = usize::from(8 / depth.max(1));
        let mask = (1u16 << depth) as u8 - 1;
        for x in 0..w {
            let byte = row.get(x / per).copied().unwrap_or(0);
            let shift = 8 - depth as usize * (x % per + 1);
            out.push((byte >> shift) & mask);
        }
    }
    out
}

/// A PNG as a frame of an animation: its pixels in RGBA (fully transparent pixels as
/// `0, 0, 0, 0`, as [`Pid::to_rgba`] gives them) and the hotspot its [`META_KEYWORD`] text chunk
/// records (`None` for a PNG levelkit did not make from a PID). So a PID and the PNG
/// `levelkit` made of it are the same frame.
pub fn png_frame(bytes: &[u8], limits: &Limits) -> Result<(RgbaImage, Option<(i32, i32)>)> {
    let png = decode_png(Format::Png, bytes, limits)?;
    let hotspot = png
        .meta
        .as_deref()
        .and_then(|m| serde_json::from_str::<Meta>(m).ok())
        .map(|m| (m.offset_x, m.offset_y));
    let mut rgba = png.rgba;
    for px in rgba.chunks_exact_mut(4) {
        if px.get(3) == Some(&0) {
            px.fill(0);
        }
    }
    let image = RgbaImage {
        width: png.width,
        height: png.height,
        rgba,
    };
    Ok((image, hotspot))
}

/// A PNG as a PID (see the module docs): `palette` is the one to quantise to and, without the
/// text chunk, the one the image is drawn with (not embedded); without it the PNG's own palette
/// is used (an RGBA PNG without one is refused). Warnings say what was quantised or made up.
pub fn pid_from_png(
    bytes: &[u8],
    palette: Option<&Palette>,
    limits: &Limits,
) -> Result<(Pid, Vec<Warning>)> {
    const F: Format = Format::Pid;
    let png = decode_png(F, bytes, limits)?;
    let mut warnings = Vec::new();
    if i32::try_from(png.width).is_err() || i32::try_from(png.height).is_err() {
        return Err(png_error(
            F,
            ErrorKind::Unsupported,
            "the PNG is too large for a PID",
        ));
    }
    let meta = match png.meta.as_deref().map(serde_json::from_str::<Meta>) {
        Some(Ok(meta)) => Some(meta),
        Some(Err(e)) => {
            warnings.push(Warning::warning(
                F,
                Location::default(),
                format!("the {META_KEYWORD} text chunk is not readable ({e}); header made up"),
            ));
            None
        }
        None => None,
    };
    let own = png.palette.as_ref();
    let target = palette.or(own).ok_or_else(|| {
        png_error(
            F,
            ErrorKind::Unsupported,
            "a PNG without a palette of its own needs one to quantise to (a .PAL; `--palette` \
             on the command line)",
        )
    })?;
    let any_clear = png.rgba.chunks_exact(4).any(|p| p.get(3) == Some(&0));
    let mut pid = Pid::new(png.width, png.height, Vec::new());
    match &meta {
        Some(m) => {
            pid.file_desc = m.file_desc;
            pid.flags = m.flags;
            pid.offset_x = m.offset_x;
            pid.offset_y = m.offset_y;
            pid.fill = m.fill;
            pid.user = m.user;
            pid.spelling = m.spelling;
            pid.original_stream = m.original_stream.clone();
            pid.trailing = m.trailing.clone();
        }
        None => {
            if any_clear {
                pid.flags = PidFlags::TRANSPARENCY | PidFlags::COMPRESSION;
            }
            if palette.is_none() {
                pid.flags |= PidFlags::EMBEDDED_PALETTE;
            }
            warnings.push(Warning::warning(
                F,
                Location::default(),
                format!(
                    "no {META_KEYWORD} text chunk (not a PNG levelkit made from a PID): hotspot \
                     0, 0, flags 0x{:X}",
                    pid.flags.bits()
                ),
            ));
        }
    }
    let same_palette = palette.is_none() || palette == own;
    pid.pixels = match (&png.indices, same_palette) {
        (Some(indices), true) => {
            if meta.is_none()
                && let Some(t) = single_clear_index(&png)
                && t != 0
                && target.find(super::model::GRUNTZ_KEY).is_none()
            {
                pid.flags |= PidFlags::KEY_INDEX;
                pid.fill = u32::from(t);
            }
            indices.clone()
        }
        _ => {
            let clear = match pid.default_transparency(target) {
                Transparency::Opaque if any_clear => Some(0),
                Transparency::Opaque => None,
                Transparency::Index(i) => Some(i),
                Transparency::Color(c) => Some(target.find(c).unwrap_or(0)),
            };
            let (indices, stats) = quantise(&png.rgba, target, clear);
            if stats.nearest > 0 {
                warnings.push(Warning::warning(
                    F,
                    Location::default(),
                    format!(
                        "{} pixel(s) have no exact colour in the palette; the nearest was used",
                        stats.nearest
                    ),
                ));
            }
            if stats.partial > 0 {
                warnings.push(Warning::warning(
                    F,
                    Location::default(),
                    format!(
                        "{} pixel(s) are partly transparent; PID pixels are opaque or not drawn, \
                         so they were made opaque",
                        stats.partial
                    ),
                ));
            }
            indices
        }
    };
    if pid.flags.contains(PidFlags::EMBEDDED_PALETTE) {
        pid.palette = Some(target.clone());
    }
    Ok((pid, warnings))
}

/// The one palette index the PNG makes fully transparent and uses, if exactly one.
fn single_clear_index(png: &Decoded) -> Option<u8> {
    let indices = png.indices.as_ref()?;
    let mut used = [false; 256];
    for &i in indices {
        if let Some(u) = used.get_mut(usize::from(i)) {
            *u = true;
        }
    }
    let at = |table: &[bool; 256], i: u8| table.get(usize::from(i)).copied().unwrap_or(false);
    let mut clear =
        (0..=255u8).filter(|&i| at(&used, i) && png.alpha.get(usize::from(i)) == Some(&0));
    let first = clear.next()?;
    clear.next().is_none().then_some(first)
}

#[derive(Default)]
struct Quantised {
    nearest: usize,
    partial: usize,
}

/// RGBA to indices of `palette`: alpha 0 to `clear` (or 0), every other pixel to the first
/// exact colour, else the nearest; `clear` is never chosen for an opaque pixel while another
/// entry is there.
fn quantise(rgba: &[u8], palette: &Palette, clear: Option<u8>) -> (Vec<u8>, Quantised) {
    let mut stats = Quantised::default();
    let mut cache: HashMap<[u8; 3], (u8, bool)> = HashMap::new();
    let mut out = Vec::with_capacity(rgba.len() / 4);
    for p in rgba.chunks_exact(4) {
        let &[r, g, b, a] = p else { continue };
        let rgb = [r, g, b];
        if a == 0 {
            out.push(clear.unwrap_or(0));
            continue;
        }
        if a < 255 {
            stats.partial += 1;
        }
        let (index, exact) = *cache
            .entry(rgb)
            .or_insert_with(|| nearest(palette, rgb, clear));
        if !exact {
            stats.nearest += 1;
        }
        out.push(index);
    }
    (out, stats)
}

fn nearest(palette: &Palette, rgb: [u8; 3], clear: Option<u8>) -> (u8, bool) {
    let mut best = (u32::MAX, 0u8);
    for i in 0..=255u8 {
        if Some(i) == clear {
            continue;
        }
        let c = palette.color(i);
        let d: u32 = c
            .iter()
            .zip(rgb)
            .map(|(&a, b)| {
                let diff = i32::from(a) - i32::from(b);
                (diff * diff) as u32
            })
            .sum();
        if d == 0 {
            return (i, true);
        }
        if d < best.0 {
            best = (d, i);
        }
    }
    (best.1, false)
}

/// An indexed PNG's palette as a `.PAL` (padded with black to 256 entries).
pub fn palette_from_png(bytes: &[u8], limits: &Limits) -> Result<(Palette, Vec<Warning>)> {
    let png = decode_png(Format::Pal, bytes, limits)?;
    let palette = png.palette.ok_or_else(|| {
        png_error(
            Format::Pal,
            ErrorKind::Unsupported,
            "the PNG has no palette (only an indexed PNG becomes a .PAL)",
        )
    })?;
    Ok((palette, Vec::new()))
}
