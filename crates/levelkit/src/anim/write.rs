//! The writers of an [`Animation`]: GIF, APNG and sprite sheets (documented in the module above).

use serde::Serialize;

use super::Animation;
use crate::codec::ExportFiles;
use crate::encoding::{ApngFrame, encode_apng};
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::picture::{Image, encode_png};
use crate::registry::Format;

/// GIF encoding choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GifOptions {
    /// NeuQuant's speed for frames of more than 255 colours, 1 (best) to 30 (fastest).
    pub speed: i32,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions { speed: 10 }
    }
}

/// Centiseconds a GIF frame shows at least (browsers play less as 10).
pub const GIF_MIN_DELAY_CS: u16 = 2;

fn error(format: Format, kind: ErrorKind, message: String) -> Error {
    Error::new(format, kind, Location::default(), message)
}

fn check(anim: &Animation, format: Format) -> Result<()> {
    anim.check(format)?;
    if anim.frames.is_empty() {
        return Err(error(
            format,
            ErrorKind::Unsupported,
            "the animation has no frames".into(),
        ));
    }
    Ok(())
}

/// The GIF delays of `anim`'s frames in centiseconds: rounded on the running total, at least
/// [`GIF_MIN_DELAY_CS`] (the lengthened frames named in a warning, their extra not taken from
/// later frames).
pub fn gif_delays(anim: &Animation) -> (Vec<u16>, Vec<Warning>) {
    let mut delays = Vec::with_capacity(anim.frames.len());
    let mut exact = 0u64;
    let mut due_before = 0u64;
    let mut short = Vec::new();
    for (i, f) in anim.frames.iter().enumerate() {
        exact += u64::from(f.duration_ms);
        let due = (exact + 5) / 10;
        let mut cs = due - due_before;
        due_before = due;
        if cs < u64::from(GIF_MIN_DELAY_CS) {
            short.push(i);
            cs = u64::from(GIF_MIN_DELAY_CS);
        }
        delays.push(u16::try_from(cs).unwrap_or(u16::MAX));
    }
    let mut warnings = Vec::new();
    if !short.is_empty() {
        let list: Vec<String> = short.iter().take(8).map(usize::to_string).collect();
        warnings.push(Warning::warning(
            Format::Gif,
            Location::path("frames"),
            format!(
                "{} frame(s) shorter than {} ms lengthened to {} ms, as browsers play shorter \
                 GIF delays as 100 ms (frames {}{})",
                short.len(),
                u32::from(GIF_MIN_DELAY_CS) * 10,
                u32::from(GIF_MIN_DELAY_CS) * 10,
                list.join(", "),
                if short.len() > 8 { ", …" } else { "" }
            ),
        ));
    }
    (delays, warnings)
}

/// The animation as an animated GIF.
pub fn to_gif(anim: &Animation, options: &GifOptions) -> Result<ExportFiles> {
    use image::codecs::gif::{GifEncoder, Repeat};
    use image::{Delay, Frame, RgbaImage};
    const G: Format = Format::Gif;
    check(anim, G)?;
    if anim.width > u32::from(u16::MAX) || anim.height > u32::from(u16::MAX) {
        return Err(error(
            G,
            ErrorKind::Unsupported,
            format!(
                "a GIF holds at most 65535 x 65535 pixels, not {} x {}",
                anim.width, anim.height
            ),
        ));
    }
    let speed = options.speed.clamp(1, 30);
    let (delays, warnings) = gif_delays(anim);
    let failed =
        |e: image::ImageError| error(G, ErrorKind::Io, format!("GIF encoding failed: {e}"));
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, speed);
        encoder
            .set_repeat(if anim.looping {
                Repeat::Infinite
            } else {
                Repeat::Finite(0)
            })
            .map_err(failed)?;
        for (frame, cs) in anim.frames.iter().zip(delays) {
            let buffer = RgbaImage::from_raw(anim.width, anim.height, frame.rgba.clone())
                .ok_or_else(|| {
                    error(
                        G,
                        ErrorKind::Malformed,
                        "a frame's pixels do not fit the canvas".into(),
                    )
                })?;
            let delay = Delay::from_numer_denom_ms(u32::from(cs) * 10, 1);
            encoder
                .encode_frame(Frame::from_parts(buffer, 0, 0, delay))
                .map_err(failed)?;
        }
    }
    Ok(ExportFiles {
        main: out,
        side_files: Vec::new(),
        warnings,
        notes: Vec::new(),
    })
}

/// An APNG frame delay as `(numerator, denominator)` seconds: milliseconds where they fit.
fn apng_delay(ms: u32) -> (u16, u16) {
    for (unit, den) in [(1, 1000), (10, 100), (100, 10), (1000, 1)] {
        if let Ok(n) = u16::try_from(ms.div_ceil(unit)) {
            return (n, den);
        }
    }
    (u16::MAX, 1)
}

/// The animation as an animated PNG: every frame whole, exact pixels, millisecond delays.
pub fn to_apng(anim: &Animation) -> Result<ExportFiles> {
    const P: Format = Format::Png;
    check(anim, P)?;
    let frames: Vec<ApngFrame<'_>> = anim
        .frames
        .iter()
        .map(|frame| ApngFrame {
            rgba: &frame.rgba,
            delay: apng_delay(frame.duration_ms),
        })
        .collect();
    let main = encode_apng(anim.width, anim.height, &frames, u32::from(!anim.looping))
        .map_err(|e| error(P, ErrorKind::Io, format!("APNG encoding failed: {e}")))?;
    Ok(ExportFiles {
        main,
        side_files: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
    })
}

/// Sprite-sheet choices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SheetOptions {
    /// Frames per row; `None`: the smallest number that makes the grid at least as tall as wide
    /// in frames (`ceil(sqrt(n))`).
    pub columns: Option<u32>,
    /// The sheet's file name without extension: the table is `<stem>.json` and names the image
    /// `<stem>.png`.
    pub stem: String,
}

/// The largest sprite sheet [`to_sprite_sheet`] draws: 1 GiB of RGBA.
pub const MAX_SHEET_BYTES: u64 = 1 << 30;

/// One frame's row of the JSON table.
#[derive(Debug, Clone, Serialize)]
pub struct SheetFrame {
    /// The frame's number as text.
    pub filename: String,
    /// Its rectangle on the sheet.
    pub frame: Rect,
    /// Always `false`.
    pub rotated: bool,
    /// Always `false`: frames are whole canvases.
    pub trimmed: bool,
    /// The rectangle within the canvas: all of it.
    #[serde(rename = "spriteSourceSize")]
    pub sprite_source_size: Rect,
    /// The canvas size.
    #[serde(rename = "sourceSize")]
    pub source_size: Size,
    /// Milliseconds.
    pub duration: u32,
    /// Fields the source adds ([`SheetExtras::frames`]).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// A rectangle in pixels.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Rect {
    /// Left.
    pub x: u32,
    /// Top.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// A size in pixels.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Size {
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

/// The JSON frame table of a sprite sheet.
#[derive(Debug, Clone, Serialize)]
pub struct SheetTable {
    /// One row per frame, in playing order.
    pub frames: Vec<SheetFrame>,
    /// The sheet as a whole.
    pub meta: SheetMeta,
}

/// The `meta` object of a [`SheetTable`].
#[derive(Debug, Clone, Serialize)]
pub struct SheetMeta {
    /// `"levelkit"`.
    pub app: &'static str,
    /// The sheet image's file name.
    pub image: String,
    /// `"RGBA8888"`.
    pub format: &'static str,
    /// The sheet's size.
    pub size: Size,
    /// `"1"`.
    pub scale: &'static str,
    /// The anchor point within each frame.
    pub anchor: Anchor,
    /// Whether the animation loops.
    #[serde(rename = "loop")]
    pub looping: bool,
    /// Fields the source adds ([`SheetExtras::meta`]).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Fields a source adds to a sprite sheet's JSON table, beside the ones every sheet has (a
/// name that is already there is not replaced).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SheetExtras {
    /// Added to `meta`.
    pub meta: serde_json::Map<String, serde_json::Value>,
    /// Added to each frame's row, by frame number (missing rows add nothing).
    pub frames: Vec<serde_json::Map<String, serde_json::Value>>,
}

/// Drop the names a table already has from `extra`, so flattening never writes a key twice.
fn without(
    mut extra: serde_json::Map<String, serde_json::Value>,
    taken: &[&str],
) -> serde_json::Map<String, serde_json::Value> {
    extra.retain(|k, _| !taken.contains(&k.as_str()));
    extra
}

/// The anchor point within a frame.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Anchor {
    /// Pixels from the left.
    pub x: i64,
    /// Pixels from the top.
    pub y: i64,
}

/// The animation as a sprite sheet: `main` is the PNG, the one side file `<stem>.json` the frame
/// table.
pub fn to_sprite_sheet(anim: &Animation, options: &SheetOptions) -> Result<ExportFiles> {
    to_sprite_sheet_with(anim, options, &SheetExtras::default())
}

/// [`to_sprite_sheet`] with fields of the source's own in the JSON table.
pub fn to_sprite_sheet_with(
    anim: &Animation,
    options: &SheetOptions,
    extras: &SheetExtras,
) -> Result<ExportFiles> {
    const P: Format = Format::Png;
    check(anim, P)?;
    let n = u32::try_from(anim.frames.len())
        .map_err(|_| error(P, ErrorKind::Unsupported, "too many frames".into()))?;
    let columns = options
        .columns
        .unwrap_or_else(|| (f64::from(n).sqrt().ceil() as u32).max(1))
        .clamp(1, n);
    let rows = n.div_ceil(columns);
    let (width, height) = (
        u64::from(anim.width) * u64::from(columns),
        u64::from(anim.height) * u64::from(rows),
    );
    let too_big = || {
        error(
            P,
            ErrorKind::LimitExceeded,
            format!(
                "a {columns} x {rows} sheet of {} x {} frames is too large",
                anim.width, anim.height
            ),
        )
    };
    if width.saturating_mul(height).saturating_mul(4) > MAX_SHEET_BYTES {
        return Err(too_big());
    }
    let (width, height) = (
        u32::try_from(width).map_err(|_| too_big())?,
        u32::try_from(height).map_err(|_| too_big())?,
    );
    let row_len = anim.width as usize * 4;
    let mut rgba = vec![0u8; width as usize * height as usize * 4];
    let mut frames = Vec::with_capacity(anim.frames.len());
    for (i, frame) in anim.frames.iter().enumerate() {
        let i = i as u32;
        let (x, y) = ((i % columns) * anim.width, (i / columns) * anim.height);
        for (r, src) in frame.rgba.chunks_exact(row_len).enumerate() {
            let at = ((y as usize + r) * width as usize + x as usize) * 4;
            if let Some(dst) = rgba.get_mut(at..at + row_len) {
                dst.copy_from_slice(src);
            }
        }
        frames.push(SheetFrame {
            filename: i.to_string(),
            frame: Rect {
                x,
                y,
                w: anim.width,
                h: anim.height,
            },
            rotated: false,
            trimmed: false,
            sprite_source_size: Rect {
                x: 0,
                y: 0,
                w: anim.width,
                h: anim.height,
            },
            source_size: Size {
                w: anim.width,
                h: anim.height,
            },
            duration: frame.duration_ms,
            extra: extras
                .frames
                .get(i as usize)
                .cloned()
                .map(|e| {
                    without(
                        e,
                        &[
                            "filename",
                            "frame",
                            "rotated",
                            "trimmed",
                            "spriteSourceSize",
                            "sourceSize",
                            "duration",
                        ],
                    )
                })
                .unwrap_or_default(),
        });
    }
    let stem = if options.stem.is_empty() {
        "sheet"
    } else {
        &options.stem
    };
    let table = SheetTable {
        frames,
        meta: SheetMeta {
            app: "levelkit",
            image: format!("{stem}.png"),
            format: "RGBA8888",
            size: Size {
                w: width,
                h: height,
            },
            scale: "1",
            anchor: Anchor {
                x: anim.anchor.0,
                y: anim.anchor.1,
            },
            looping: anim.looping,
            extra: without(
                extras.meta.clone(),
                &["app", "image", "format", "size", "scale", "anchor", "loop"],
            ),
        },
    };
    let json = serde_json::to_vec_pretty(&table)
        .map_err(|e| error(Format::Json, ErrorKind::Malformed, e.to_string()))?;
    let main = encode_png(&Image {
        width,
        height,
        rgba,
        columns,
    })?;
    Ok(ExportFiles {
        main,
        side_files: vec![(format!("{stem}.json"), json)],
        warnings: Vec::new(),
        notes: Vec::new(),
    })
}
