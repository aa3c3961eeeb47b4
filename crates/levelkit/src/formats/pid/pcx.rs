//! PCX: the full-screen images of Claw and Gruntz (loading screens, menus), 8 bits a sample,
//! run-length coded, one plane with a 256-colour palette after a `0x0C` marker at the end, or
//! three planes of red, green and blue.
//!
//! Sources: ZSoft's "PCX Technical Reference Manual" (the 128-byte header, the `0xC0` run
//! grammar, the palette after `0x0C`); sushi-shi/gruntz-decomp `tools/gruntz-codec/src/pcx.rs`
//! (what Gruntz's `CRezImage::DecodePcxData` accepts: 8 bits a sample, 1 or 3 planes; a run of
//! zero is skipped; the `0x0C` palette only means something for one plane, because a 3-plane
//! image can have `0x0C` 769 bytes from its end as pixel data, as `TITLE3` does); WAP32.rs
//! reads PCX with the `pcx` crate. Where they differ: Gruntz decodes `width × planes` bytes a
//! scanline, the manual `bytes_per_line × planes`; they agree whenever `bytes_per_line` equals
//! the width (TRAINING.PCX: 640), and levelkit follows the manual (validation warns otherwise).
//! The `image` crate in this workspace (0.25) has no PCX decoder, hence this reader.
//!
//! The manual says a version 5 file of one 8-bit plane ends with its palette, so such a file
//! without one (or with the 769 bytes cut short, which is what a truncated file looks like) is
//! refused as truncated; other one-plane files may go without, and validation says so.
//!
//! Lossless like the PIDs: the header is kept field by field (the EGA palette and filler as
//! bytes), the pixels as decoded scanlines, the run spelling that reproduces the stream (or the
//! stream itself), bytes after the stream, and the palette. TRAINING.PCX (Gruntz, 640 × 480,
//! three planes) re-encodes byte for byte with [`Literals::Decodable`].
//!
//! Not supported: other sample sizes (1, 2, 4 bits), 4 planes, uncompressed PCX (encoding 0),
//! which the games do not use; they are refused as unsupported.
//!
//! ```
//! use levelkit::formats::pid::pcx::Pcx;
//! use levelkit::formats::pid::samples;
//!
//! let screen = Pcx::new_indexed(8, 2, vec![2; 16], samples::palette());
//! let bytes = screen.write()?;
//! let again = Pcx::read(&bytes)?;
//! assert_eq!(again, screen);
//! let rgba = again.to_rgba(None)?;
//! assert_eq!(&rgba.rgba[..4], &[0, 0, 51, 255]);
//! # Ok::<(), levelkit::Error>(())
//! ```

#![deny(clippy::arithmetic_side_effects)]

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::model::RgbaImage;
use super::pal::{PALETTE_SIZE, Palette};
use super::rle::{self, Literals, MAX_RUN};
use crate::codec::{Codec, Resolver, info_row};
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::io::{ByteReader, ByteWriter};
use crate::limits::Limits;
use crate::registry::Format;

const F: Format = Format::Pcx;
/// Size of the header.
pub const HEADER_SIZE: usize = 128;
/// The byte before a 256-colour palette at the end of the file.
pub const PALETTE_MARKER: u8 = 0x0C;

/// The 128-byte header, field by field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PcxHeader {
    /// `0x00`: 10 (ZSoft).
    pub manufacturer: u8,
    /// `0x01`: 5 for 256-colour files.
    pub version: u8,
    /// `0x02`: 1, run-length coded.
    pub encoding: u8,
    /// `0x03`: bits a sample, 8.
    pub bits_per_pixel: u8,
    /// `0x04`.
    pub x_min: u16,
    /// `0x06`.
    pub y_min: u16,
    /// `0x08`: width is `x_max - x_min + 1`.
    pub x_max: u16,
    /// `0x0A`: height is `y_max - y_min + 1`.
    pub y_max: u16,
    /// `0x0C`.
    pub h_dpi: u16,
    /// `0x0E`.
    pub v_dpi: u16,
    /// `0x10`: the 16-colour EGA palette, 48 bytes.
    #[serde(with = "crate::serde_bytes::hex")]
    pub ega_palette: Vec<u8>,
    /// `0x40`.
    pub reserved: u8,
    /// `0x41`: 1 (indexed) or 3 (RGB).
    pub planes: u8,
    /// `0x42`: bytes of one plane of one scanline.
    pub bytes_per_line: u16,
    /// `0x44`: 1 colour, 2 greyscale.
    pub palette_info: u16,
    /// `0x46`.
    pub h_screen: u16,
    /// `0x48`.
    pub v_screen: u16,
    /// `0x4A`: the rest of the header, 54 bytes.
    #[serde(with = "crate::serde_bytes::hex")]
    pub filler: Vec<u8>,
}

/// A PCX image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pcx {
    /// The header.
    pub header: PcxHeader,
    /// The decoded scanlines, `height × planes × bytes_per_line` bytes: each scanline holds its
    /// planes one after the other. In JSON, one hex string.
    #[serde(with = "crate::serde_bytes::hex")]
    pub scanlines: Vec<u8>,
    /// The 256-colour palette after the `0x0C` marker (one-plane images).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette: Option<Palette>,
    /// The run spelling that reproduces the stream (see [`Literals`]).
    #[serde(default)]
    pub literals: Literals,
    /// The stream as read, kept only when no spelling reproduces it; written again while it
    /// still decodes to `scanlines`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_bytes::opt_hex"
    )]
    pub original_stream: Option<Vec<u8>>,
    /// Bytes after the stream (and before the palette), kept verbatim.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::hex"
    )]
    pub trailing: Vec<u8>,
}

/// What `levelkit info` shows of a PCX.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PcxSummary {
    /// Width in pixels.
    pub width: i64,
    /// Height in pixels.
    pub height: i64,
    /// 1 or 3.
    pub planes: u8,
    /// Bits a sample.
    pub bits_per_pixel: u8,
    /// The header's version byte.
    pub version: u8,
    /// Whether a 256-colour palette follows the stream.
    pub palette: bool,
    /// Bytes after the stream, besides the palette.
    pub trailing: usize,
    /// Whether the stream is kept as read.
    pub stream_kept: bool,
}

impl Pcx {
    /// A new one-plane, 8-bit image of `width × height` indices with a 256-colour palette
    /// (version 5, 72 dpi, `bytes_per_line` = `width`).
    pub fn new_indexed(width: u16, height: u16, indices: Vec<u8>, palette: Palette) -> Pcx {
        Pcx {
            header: PcxHeader {
                manufacturer: 10,
                version: 5,
                encoding: 1,
                bits_per_pixel: 8,
                x_min: 0,
                y_min: 0,
                x_max: width.saturating_sub(1),
                y_max: height.saturating_sub(1),
                h_dpi: 72,
                v_dpi: 72,
                ega_palette: vec![0; 48],
                reserved: 0,
                planes: 1,
                bytes_per_line: width,
                palette_info: 1,
                h_screen: 0,
                v_screen: 0,
                filler: vec![0; 54],
            },
            scanlines: indices,
            palette: Some(palette),
            literals: Literals::Decodable,
            original_stream: None,
            trailing: Vec::new(),
        }
    }

    /// Width in pixels (`x_max - x_min + 1`; zero or negative in a broken header).
    pub fn width(&self) -> i64 {
        i64::from(self.header.x_max)
            .saturating_sub(i64::from(self.header.x_min))
            .saturating_add(1)
    }

    /// Height in pixels.
    pub fn height(&self) -> i64 {
        i64::from(self.header.y_max)
            .saturating_sub(i64::from(self.header.y_min))
            .saturating_add(1)
    }

    /// Bytes of one decoded scanline (all planes).
    pub fn scanline_len(&self) -> usize {
        usize::from(self.header.planes).saturating_mul(usize::from(self.header.bytes_per_line))
    }

    /// Read a PCX with the default [`Limits`].
    pub fn read(bytes: &[u8]) -> Result<Pcx> {
        Pcx::read_with(bytes, &Limits::default())
    }

    /// Read a PCX, refusing anything that would pass `limits`.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Pcx> {
        let mut r = ByteReader::new(F, bytes);
        let header = read_header(&mut r)?;
        let mut pcx = Pcx {
            header,
            scanlines: Vec::new(),
            palette: None,
            literals: Literals::Decodable,
            original_stream: None,
            trailing: Vec::new(),
        };
        check_header(&pcx, |at, kind, message| {
            Error::new(F, kind, Location::at(at), message)
        })?;
        read_stream(&mut pcx, &r, limits)?;
        Ok(pcx)
    }

    /// The bytes of the image. Refuses a model that would not read back as itself.
    pub fn write(&self) -> Result<Vec<u8>> {
        check_header(self, |_, kind, message| {
            Error::new(F, kind, Location::path("header"), message)
        })?;
        let want = self.expected_len();
        if Some(self.scanlines.len()) != want {
            return Err(Error::malformed(
                F,
                Location::path("scanlines"),
                format!(
                    "the header needs {} bytes of scanlines, the model has {}",
                    want.map_or_else(|| "too many".to_owned(), |n| n.to_string()),
                    self.scanlines.len()
                ),
            ));
        }
        if self.palette.is_some() && self.header.planes != 1 {
            return Err(Error::malformed(
                F,
                Location::path("palette"),
                "only a one-plane image has a 256-colour palette (a reader ignores the marker \
                 on three planes)",
            ));
        }
        if self.palette.is_none() && needs_palette(&self.header) {
            return Err(Error::malformed(
                F,
                Location::path("palette"),
                "a version 5 PCX of one 8-bit plane needs its 256-colour palette",
            ));
        }
        let mut w = ByteWriter::new();
        write_header(&mut w, &self.header);
        write_stream(&mut w, self);
        Ok(w.into_inner())
    }

    /// `height × planes × bytes_per_line`, if the header's sizes are sane.
    fn expected_len(&self) -> Option<usize> {
        usize::try_from(self.height())
            .ok()?
            .checked_mul(self.scanline_len())
    }

    /// The image in RGBA: one plane through its palette (or `fallback` when it has none), three
    /// planes as red, green and blue.
    pub fn to_rgba(&self, fallback: Option<&Palette>) -> Result<RgbaImage> {
        let (width, height) = match (u32::try_from(self.width()), u32::try_from(self.height())) {
            (Ok(w), Ok(h)) if w > 0 && h > 0 => (w, h),
            _ => {
                return Err(Error::malformed(
                    F,
                    Location::path("header"),
                    "the image has no pixels",
                ));
            }
        };
        if Some(self.scanlines.len()) != self.expected_len() {
            return Err(Error::malformed(
                F,
                Location::path("scanlines"),
                "the scanlines do not match the header's size",
            ));
        }
        crate::limits::Limits::default().check_picture(
            F,
            u64::from(width),
            u64::from(height),
            "the image",
        )?;
        let bpl = usize::from(self.header.bytes_per_line);
        let w = usize::try_from(width).unwrap_or(0).min(bpl);
        let mut rgba = Vec::with_capacity(self.scanlines.len().saturating_mul(4));
        let line = self.scanline_len().max(1);
        match self.header.planes {
            1 => {
                let Some(palette) = self.palette.as_ref().or(fallback) else {
                    return Err(Error::unsupported(
                        F,
                        Location::path("palette"),
                        "this 256-colour image has no palette of its own; give one (a .PAL)",
                    ));
                };
                for row in self.scanlines.chunks(line) {
                    for &i in row.iter().take(w) {
                        let [r, g, b] = palette.color(i);
                        rgba.extend_from_slice(&[r, g, b, 255]);
                    }
                }
            }
            _ => {
                for row in self.scanlines.chunks(line) {
                    let plane = |p: usize| row.get(p.saturating_mul(bpl)..).unwrap_or_default();
                    let (r, g, b) = (plane(0), plane(1), plane(2));
                    for x in 0..w {
                        let at = |s: &[u8]| s.get(x).copied().unwrap_or(0);
                        rgba.extend_from_slice(&[at(r), at(g), at(b), 255]);
                    }
                }
            }
        }
        Ok(RgbaImage {
            width,
            height,
            rgba,
        })
    }

    /// Findings: errors the writer would refuse, and what readers disagree on.
    pub fn validate(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        if let Err(e) = self.write() {
            out.push(Warning::error(F, e.location, e.message));
            return out;
        }
        if i64::from(self.header.bytes_per_line) != self.width() {
            out.push(Warning::warning(
                F,
                Location::at(0x42),
                format!(
                    "bytes per line ({}) differs from the width ({}): Gruntz decodes width x \
                     planes bytes a scanline, the PCX manual (and levelkit) bytes per line x planes",
                    self.header.bytes_per_line,
                    self.width()
                ),
            ));
        }
        if self.header.planes == 1 && self.palette.is_none() {
            out.push(Warning::warning(
                F,
                Location::default(),
                "no 256-colour palette after the image (0x0C marker); drawing needs one from \
                 elsewhere",
            ));
        }
        if let Some(stream) = &self.original_stream {
            let odd = rle::oddities(stream, self.scanline_len(), self.scanlines.len(), false);
            if odd.row_crossings > 0 || odd.empty_tokens > 0 {
                out.push(Warning::warning(
                    F,
                    Location::at(
                        (HEADER_SIZE as u64).saturating_add(odd.first_at.unwrap_or(0) as u64),
                    ),
                    format!(
                        "{} run(s) cross a scanline end and {} say zero bytes; decoders differ on \
                         both",
                        odd.row_crossings, odd.empty_tokens
                    ),
                ));
            }
        }
        if !self.trailing.is_empty() {
            out.push(Warning::warning(
                F,
                Location::path("trailing"),
                format!(
                    "{} byte(s) after the image data (kept as they are)",
                    self.trailing.len()
                ),
            ));
        }
        out
    }

    /// The summary `levelkit info` prints.
    pub fn summary(&self) -> PcxSummary {
        PcxSummary {
            width: self.width(),
            height: self.height(),
            planes: self.header.planes,
            bits_per_pixel: self.header.bits_per_pixel,
            version: self.header.version,
            palette: self.palette.is_some(),
            trailing: self.trailing.len(),
            stream_kept: self.original_stream.is_some(),
        }
    }
}

/// The header checks a reader and the writer share; `err` makes the error for an offset.
fn check_header(pcx: &Pcx, err: impl Fn(u64, ErrorKind, String) -> Error) -> Result<()> {
    let h = &pcx.header;
    if h.manufacturer != 10 {
        return Err(err(
            0,
            ErrorKind::Malformed,
            format!(
                "not a PCX: the first byte is 0x{:02X}, not 0x0A",
                h.manufacturer
            ),
        ));
    }
    if h.ega_palette.len() != 48 || h.filler.len() != 54 {
        return Err(err(
            0x10,
            ErrorKind::Malformed,
            "the EGA palette is 48 bytes and the filler 54".to_owned(),
        ));
    }
    if h.encoding != 1 || h.bits_per_pixel != 8 || !matches!(h.planes, 1 | 3) {
        return Err(err(
            2,
            ErrorKind::Unsupported,
            format!(
                "encoding {}, {} bits, {} plane(s): levelkit reads the run-length coded 8-bit \
                 PCX the games use (1 plane with a palette, or 3 planes RGB)",
                h.encoding, h.bits_per_pixel, h.planes
            ),
        ));
    }
    if pcx.width() < 1 || pcx.height() < 1 {
        return Err(err(
            4,
            ErrorKind::Malformed,
            format!(
                "the window {},{} to {},{} has no pixels",
                h.x_min, h.y_min, h.x_max, h.y_max
            ),
        ));
    }
    if i64::from(h.bytes_per_line) < pcx.width() {
        return Err(err(
            0x42,
            ErrorKind::Malformed,
            format!(
                "{} bytes per line cannot hold {} pixels",
                h.bytes_per_line,
                pcx.width()
            ),
        ));
    }
    Ok(())
}

/// Whether the header promises a 256-colour palette at the end (ZSoft: version 5, one
/// 8-bit plane).
fn needs_palette(h: &PcxHeader) -> bool {
    h.version == 5 && h.planes == 1 && h.bits_per_pixel == 8
}

fn read_header(r: &mut ByteReader<'_>) -> Result<PcxHeader> {
    let b = r.bytes(HEADER_SIZE, "PCX header (128 bytes)")?;
    let mut h = ByteReader::new(F, b);
    Ok(PcxHeader {
        manufacturer: h.u8("manufacturer")?,
        version: h.u8("version")?,
        encoding: h.u8("encoding")?,
        bits_per_pixel: h.u8("bits per pixel")?,
        x_min: h.u16_le("x min")?,
        y_min: h.u16_le("y min")?,
        x_max: h.u16_le("x max")?,
        y_max: h.u16_le("y max")?,
        h_dpi: h.u16_le("horizontal dpi")?,
        v_dpi: h.u16_le("vertical dpi")?,
        ega_palette: h.bytes(48, "EGA palette")?.to_vec(),
        reserved: h.u8("reserved")?,
        planes: h.u8("planes")?,
        bytes_per_line: h.u16_le("bytes per line")?,
        palette_info: h.u16_le("palette info")?,
        h_screen: h.u16_le("horizontal screen size")?,
        v_screen: h.u16_le("vertical screen size")?,
        filler: h.bytes(54, "filler")?.to_vec(),
    })
}

fn write_header(w: &mut ByteWriter, h: &PcxHeader) {
    w.put_u8(h.manufacturer);
    w.put_u8(h.version);
    w.put_u8(h.encoding);
    w.put_u8(h.bits_per_pixel);
    w.put_u16_le(h.x_min);
    w.put_u16_le(h.y_min);
    w.put_u16_le(h.x_max);
    w.put_u16_le(h.y_max);
    w.put_u16_le(h.h_dpi);
    w.put_u16_le(h.v_dpi);
    w.put_bytes(&h.ega_palette);
    w.put_u8(h.reserved);
    w.put_u8(h.planes);
    w.put_u16_le(h.bytes_per_line);
    w.put_u16_le(h.palette_info);
    w.put_u16_le(h.h_screen);
    w.put_u16_le(h.v_screen);
    w.put_bytes(&h.filler);
}

/// The scanlines, the spelling, the bytes after the stream and the palette.
fn read_stream(pcx: &mut Pcx, r: &ByteReader<'_>, limits: &Limits) -> Result<()> {
    let data = r.data().get(r.pos()..).unwrap_or_default();
    let total = u64::try_from(pcx.height())
        .unwrap_or(0)
        .saturating_mul(pcx.scanline_len() as u64);
    let most = (data.len() as u64).saturating_mul(MAX_RUN as u64);
    if total > most {
        return Err(Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(HEADER_SIZE as u64),
            format!(
                "the header says {} scanlines of {} bytes ({total}), but a {}-byte stream can \
                 hold at most {most}",
                pcx.height(),
                pcx.scanline_len(),
                data.len()
            ),
        ));
    }
    let total = usize::try_from(total).map_err(|_| {
        Error::new(
            F,
            ErrorKind::LimitExceeded,
            Location::at(8),
            "the image does not fit in memory",
        )
    })?;
    limits
        .budget(F)
        .charge(total, "scanlines", Location::at(8))?;
    let mut scanlines = vec![0u8; total];
    let used = rle::decode_runs(data, &mut scanlines).map_err(|e| {
        Error::new(
            F,
            ErrorKind::Truncated,
            Location::at((HEADER_SIZE as u64).saturating_add(e.at as u64)),
            format!(
                "the run-length stream ends with {} of {total} scanline bytes still missing",
                e.missing
            ),
        )
    })?;
    let (coded, rest) = data.split_at_checked(used).unwrap_or((data, &[]));
    let palette_at = rest.len().checked_sub(PALETTE_SIZE.saturating_add(1));
    let (trailing, palette) = match palette_at {
        Some(at) if pcx.header.planes == 1 && rest.get(at) == Some(&PALETTE_MARKER) => {
            let (before, tail) = rest.split_at_checked(at).unwrap_or((rest, &[]));
            (
                before,
                Palette::from_bytes(tail.get(1..).unwrap_or_default()),
            )
        }
        _ => (rest, None),
    };
    if palette.is_none() && pcx.header.planes == 1 {
        let at = Location::at(
            (HEADER_SIZE as u64)
                .saturating_add(used as u64)
                .saturating_add(trailing.len() as u64),
        );
        if rest.first() == Some(&PALETTE_MARKER) && rest.len() <= PALETTE_SIZE {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                at,
                format!(
                    "the palette after the 0x0C marker has {} of its {PALETTE_SIZE} bytes",
                    rest.len().saturating_sub(1)
                ),
            ));
        }
        if needs_palette(&pcx.header) {
            return Err(Error::new(
                F,
                ErrorKind::Truncated,
                at,
                "a version 5 PCX of one 8-bit plane ends with 0x0C and a 768-byte palette; \
                 this one has none",
            ));
        }
    }
    match rle::runs_spelling(&scanlines, pcx.scanline_len(), coded) {
        Some(literals) => pcx.literals = literals,
        None => pcx.original_stream = Some(coded.to_vec()),
    }
    pcx.scanlines = scanlines;
    pcx.trailing = trailing.to_vec();
    pcx.palette = palette;
    Ok(())
}

fn write_stream(w: &mut ByteWriter, pcx: &Pcx) {
    let kept = pcx.original_stream.as_ref().filter(|s| {
        let mut out = vec![0u8; pcx.scanlines.len()];
        rle::decode_runs(s, &mut out) == Ok(s.len()) && out == pcx.scanlines
    });
    match kept {
        Some(s) => w.put_bytes(s),
        None => {
            let mut out = Vec::with_capacity(pcx.scanlines.len() / 2);
            rle::encode_runs(&pcx.scanlines, pcx.scanline_len(), pcx.literals, &mut out);
            w.put_bytes(&out);
        }
    }
    w.put_bytes(&pcx.trailing);
    if let Some(p) = &pcx.palette {
        w.put_u8(PALETTE_MARKER);
        w.put_bytes(&p.to_bytes());
    }
}

impl Codec for Pcx {
    fn format(&self) -> Format {
        F
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        Pcx::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Pcx::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Pcx::validate(self)
    }

    fn summary(&self) -> serde_json::Value {
        crate::codec::summary_value(Pcx::summary(self))
    }

    fn version(&self) -> String {
        format!("PCX version {}", self.header.version)
    }

    fn dump(&self, name: &str) -> String {
        let mut s = String::new();
        let h = &self.header;
        let _ = writeln!(
            s,
            "{name}: pcx image {} x {}, {} plane(s) of {} bits, version {}",
            self.width(),
            self.height(),
            h.planes,
            h.bits_per_pixel,
            h.version
        );
        let _ = writeln!(
            s,
            "window          {},{} to {},{}",
            h.x_min, h.y_min, h.x_max, h.y_max
        );
        let _ = writeln!(s, "dpi             {} x {}", h.h_dpi, h.v_dpi);
        let _ = writeln!(s, "bytes per line  {}", h.bytes_per_line);
        let _ = writeln!(s, "palette info    {}", h.palette_info);
        let _ = writeln!(s, "screen size     {} x {}", h.h_screen, h.v_screen);
        let _ = writeln!(s, "reserved        {}", h.reserved);
        let _ = writeln!(s, "ega palette     {}", hex::encode(&h.ega_palette));
        let _ = writeln!(s, "filler          {}", hex::encode(&h.filler));
        let _ = writeln!(
            s,
            "stream          {}",
            if self.original_stream.is_some() {
                "kept as read"
            } else {
                "re-encoded"
            }
        );
        if let Some(p) = &self.palette {
            let _ = writeln!(s, "palette");
            s.push_str(&p.dump_rows("  "));
        }
        let _ = writeln!(s, "scanlines (hex, all planes of a scanline on a line)");
        for (y, row) in self
            .scanlines
            .chunks(self.scanline_len().max(1))
            .enumerate()
        {
            let _ = writeln!(s, "  {y:4}: {}", hex::encode(row));
        }
        s
    }

    fn info_text(&self) -> String {
        let mut s = String::new();
        let sum = self.summary();
        info_row(&mut s, "format", format_args!("pcx, {}", self.version()));
        info_row(
            &mut s,
            "size",
            format_args!("{} x {}", sum.width, sum.height),
        );
        info_row(
            &mut s,
            "planes",
            format_args!(
                "{} of {} bits ({})",
                sum.planes,
                sum.bits_per_pixel,
                if sum.planes == 1 { "indexed" } else { "RGB" }
            ),
        );
        info_row(
            &mut s,
            "palette",
            if sum.palette {
                "256 colours after the image"
            } else {
                "none"
            },
        );
        info_row(
            &mut s,
            "stream",
            if sum.stream_kept {
                "kept as read"
            } else {
                "re-encoded"
            },
        );
        s
    }
}
