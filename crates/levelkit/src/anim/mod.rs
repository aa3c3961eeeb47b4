//! The common animation model: frames of RGBA pixels on one canvas, each with its duration in
//! milliseconds, and whether the animation loops. [`to_gif`], [`to_apng`] and
//! [`to_sprite_sheet`] (in `write.rs`) write an [`Animation`]; legacy formats build one with a
//! [`Builder`].
//!
//! The model knows no format. A source places [`Sprite`]s: RGBA images with an offset, the
//! position of their top-left pixel relative to the animation's anchor point (the game object's
//! position). A frame is a list of such placements, drawn in order with straight-alpha "over"
//! compositing, so one frame can be one image (WAP32 ANI) or a stack of pieces (Graal `.gani`).
//! [`Builder::build`] makes the canvas just large enough for every placement of every frame, so
//! sprites of different sizes and offsets stay aligned on the anchor, and records where the
//! anchor lands ([`Animation::anchor`]).
//!
//! ```
//! use levelkit::anim::{Builder, Sprite};
//! use levelkit::{Format, Limits};
//!
//! let mut b = Builder::new(Format::Ani);
//! // A 2x2 red square centred on the anchor, then a 4x1 blue bar 3 px to the right of it.
//! let red = b.add_sprite(Sprite::centred(2, 2, [255, 0, 0, 255].repeat(4), 0, 0).unwrap());
//! let blue = b.add_sprite(Sprite::new(4, 1, [0, 0, 255, 255].repeat(4), (3, 0)).unwrap());
//! b.push_frame(100, &[(red, 0, 0)]);
//! b.push_frame(50, &[(red, 0, 0), (blue, 0, 0)]);
//! let anim = b.build(&Limits::default())?;
//! assert_eq!((anim.width, anim.height), (8, 2));
//! assert_eq!(anim.anchor, (1, 1));
//! assert_eq!(anim.total_duration_ms(), 150);
//! # Ok::<(), levelkit::Error>(())
//! ```
//!
//! # Writing
//!
//! [`Animation`]s are written as GIF, animated PNG (APNG) and sprite sheets (a PNG and a JSON frame table).
//!
//! * [`to_gif`]: with the `image` crate's GIF encoder (the `gif` crate underneath). Every frame is
//!   the whole canvas, disposed to the background, so transparent pixels never show the frame
//!   before. GIF keeps one transparent colour and 256 colours a frame: pixels with any alpha
//!   are opaque, and a frame with more than 255 colours is quantised (NeuQuant, at
//!   [`GifOptions::speed`]). Delays are centiseconds: each frame's delay is rounded so that the
//!   running total stays within 5 ms of the exact one, and a delay under 2 cs becomes 2 cs
//!   (browsers play 0 and 1 cs as 10 cs), with a warning; such a frame's extra time is not
//!   taken from the frames after it.
//! * [`to_apng`]: with levelkit's own PNG encoder (the same bytes in every build): exact
//!   pixels and millisecond delays
//!   (denominator 1000; longer than 65.5 s in coarser units).
//! * [`to_sprite_sheet`]: every frame in a grid, as a PNG, and a JSON frame table beside it in
//!   the array form Aseprite and TexturePacker write (`frames[i].frame` `{x, y, w, h}` and
//!   `duration` in ms; `meta.image`, `meta.size`), with `meta.anchor` and `meta.loop` added.
//!   [`to_sprite_sheet_with`] lets the source add fields of its own ([`SheetExtras`]: a Graal
//!   gani's sounds per frame and the animation that follows).
//!
//! A looping animation repeats forever; one that plays once is written to play once (GIF
//! without a NETSCAPE loop block's repeat, APNG with one play).

use serde::{Deserialize, Serialize};

mod write;

pub use write::{
    Anchor, GIF_MIN_DELAY_CS, GifOptions, MAX_SHEET_BYTES, Rect, SheetExtras, SheetFrame,
    SheetMeta, SheetOptions, SheetTable, Size, gif_delays, to_apng, to_gif, to_sprite_sheet,
    to_sprite_sheet_with,
};

use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::registry::Format;

/// An RGBA image placed relative to an anchor point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sprite {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes, rows top to bottom, straight (not premultiplied) alpha.
    pub rgba: Vec<u8>,
    /// Where the sprite's top-left pixel goes, relative to the anchor point (x right, y down).
    pub offset: (i32, i32),
}

impl Sprite {
    /// A sprite, or `None` when `rgba` is not `width × height × 4` bytes.
    pub fn new(width: u32, height: u32, rgba: Vec<u8>, offset: (i32, i32)) -> Option<Sprite> {
        let len = u64::from(width)
            .checked_mul(u64::from(height))?
            .checked_mul(4)?;
        (rgba.len() as u64 == len).then_some(Sprite {
            width,
            height,
            rgba,
            offset,
        })
    }

    /// A sprite whose centre is `(dx, dy)` from the anchor (for odd sizes, the pixel left of and
    /// above the middle is the centre), the way WAP32 games place a PID image by its offset
    /// fields. `None` when `rgba` is not `width × height × 4` bytes.
    pub fn centred(width: u32, height: u32, rgba: Vec<u8>, dx: i32, dy: i32) -> Option<Sprite> {
        let half = |n: u32| i32::try_from(n / 2).unwrap_or(i32::MAX);
        let offset = (
            dx.saturating_sub(half(width)),
            dy.saturating_sub(half(height)),
        );
        Sprite::new(width, height, rgba, offset)
    }

    /// What stands in for a missing image: a `width × height` magenta and black checker of
    /// 4-pixel squares with a 1-pixel magenta border, centred on the anchor.
    pub fn placeholder(width: u32, height: u32) -> Sprite {
        let (w, h) = (width.clamp(1, 4096), height.clamp(1, 4096));
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                let magenta = border || ((x / 4) + (y / 4)) % 2 == 0;
                rgba.extend_from_slice(if magenta {
                    &[255, 0, 255, 255]
                } else {
                    &[0, 0, 0, 255]
                });
            }
        }
        let half = |n: u32| i32::try_from(n / 2).unwrap_or(0);
        Sprite {
            width: w,
            height: h,
            rgba,
            offset: (-half(w), -half(h)),
        }
    }

    /// The pixel at (x, y) of the sprite, transparent outside it.
    fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = (u64::from(y) * u64::from(self.width) + u64::from(x)) * 4;
        usize::try_from(i)
            .ok()
            .and_then(|i| self.rgba.get(i..i.checked_add(4)?))
            .and_then(|p| <[u8; 4]>::try_from(p).ok())
            .unwrap_or([0; 4])
    }
}

/// One frame of an [`Animation`]: the whole canvas and how long it shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// `width × height × 4` bytes of the animation's canvas, straight alpha.
    pub rgba: Vec<u8>,
    /// How long the frame shows, in milliseconds.
    pub duration_ms: u32,
}

/// A sprite animation: equally sized frames with durations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Animation {
    /// Canvas width in pixels (at least 1).
    pub width: u32,
    /// Canvas height in pixels (at least 1).
    pub height: u32,
    /// Where the anchor point (the game object's position) is on the canvas.
    pub anchor: (i64, i64),
    /// The frames in playing order.
    pub frames: Vec<Frame>,
    /// Whether the animation starts over after its last frame (`false`: it plays once and
    /// stays on the last frame).
    pub looping: bool,
}

impl Animation {
    /// The sum of the frames' durations.
    pub fn total_duration_ms(&self) -> u64 {
        self.frames.iter().map(|f| u64::from(f.duration_ms)).sum()
    }

    /// Bytes of one frame's pixels: `width × height × 4`.
    pub fn frame_len(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * 4
    }

    /// Check that every frame has `width × height × 4` bytes and the canvas is not empty: what the
    /// exporters need. `format` is named in the error.
    pub fn check(&self, format: Format) -> Result<()> {
        if self.width == 0 || self.height == 0 {
            return Err(Error::new(
                format,
                ErrorKind::Unsupported,
                Location::default(),
                format!("an empty {} x {} canvas", self.width, self.height),
            ));
        }
        let len = self.frame_len();
        if let Some(i) = self.frames.iter().position(|f| f.rgba.len() as u64 != len) {
            return Err(Error::new(
                format,
                ErrorKind::Malformed,
                Location::path(format!("frames[{i}]")),
                format!(
                    "a {} x {} frame needs {len} bytes of RGBA, not {}",
                    self.width,
                    self.height,
                    self.frames.get(i).map_or(0, |f| f.rgba.len())
                ),
            ));
        }
        Ok(())
    }
}

/// A sprite added to a [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpriteId(usize);

/// A frame planned in a [`Builder`]: placements and a duration.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Plan {
    /// `(sprite, x, y)`: the sprite with its offset moved by (x, y), drawn in order.
    layers: Vec<(SpriteId, i32, i32)>,
    duration_ms: u32,
}

/// Composes sprites into an [`Animation`]: add each image once, then each frame as placements.
#[derive(Debug, Clone)]
pub struct Builder {
    format: Format,
    sprites: Vec<Sprite>,
    frames: Vec<Plan>,
    looping: bool,
}

impl Builder {
    /// An empty looping animation; errors name `format` (the source's).
    pub fn new(format: Format) -> Builder {
        Builder {
            format,
            sprites: Vec::new(),
            frames: Vec::new(),
            looping: true,
        }
    }

    /// Whether the animation loops (the default) or plays once.
    pub fn set_looping(&mut self, looping: bool) {
        self.looping = looping;
    }

    /// Add an image; frames refer to it by the id returned.
    pub fn add_sprite(&mut self, sprite: Sprite) -> SpriteId {
        self.sprites.push(sprite);
        SpriteId(self.sprites.len() - 1)
    }

    /// The sprite of an id.
    pub fn sprite(&self, id: SpriteId) -> Option<&Sprite> {
        self.sprites.get(id.0)
    }

    /// Add a frame of `duration_ms` milliseconds: each `(sprite, x, y)` is drawn with its offset
    /// moved by (x, y), in order (later ones on top). An unknown id draws nothing.
    pub fn push_frame(&mut self, duration_ms: u32, layers: &[(SpriteId, i32, i32)]) {
        self.frames.push(Plan {
            layers: layers.to_vec(),
            duration_ms,
        });
    }

    /// Frames added so far.
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// Each placement's rectangle `(left, top, right, bottom)` on the anchor's coordinates.
    fn rects(&self) -> impl Iterator<Item = (i64, i64, i64, i64)> + '_ {
        self.frames
            .iter()
            .flat_map(|p| &p.layers)
            .filter_map(|&(id, x, y)| {
                let s = self.sprites.get(id.0)?;
                let left = i64::from(s.offset.0) + i64::from(x);
                let top = i64::from(s.offset.1) + i64::from(y);
                Some((
                    left,
                    top,
                    left + i64::from(s.width),
                    top + i64::from(s.height),
                ))
            })
    }

    /// The animation: a canvas just large enough for every placement of every frame (1 × 1 when
    /// nothing is placed), each frame composed on a transparent canvas. Fails when the frames'
    /// pixels would pass `limits.max_alloc` or a side passes `u32`.
    pub fn build(&self, limits: &Limits) -> Result<Animation> {
        let bounds = self
            .rects()
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)));
        let (left, top, right, bottom) = bounds.unwrap_or((0, 0, 1, 1));
        let (right, bottom) = (right.max(left + 1), bottom.max(top + 1));
        let too_big = |what: String| {
            Error::new(
                self.format,
                ErrorKind::LimitExceeded,
                Location::default(),
                what,
            )
        };
        let width = u32::try_from(right - left)
            .map_err(|_| too_big(format!("the canvas would be {} pixels wide", right - left)))?;
        let height = u32::try_from(bottom - top)
            .map_err(|_| too_big(format!("the canvas would be {} pixels high", bottom - top)))?;
        let frame_len = u64::from(width) * u64::from(height) * 4;
        let total = frame_len.saturating_mul(self.frames.len() as u64);
        if total > limits.max_alloc as u64 {
            return Err(too_big(format!(
                "{} frames of {width} x {height} pixels need {total} bytes; the limit is {}",
                self.frames.len(),
                limits.max_alloc
            )));
        }
        let frames = self
            .frames
            .iter()
            .map(|plan| Frame {
                rgba: self.compose(plan, left, top, width, height),
                duration_ms: plan.duration_ms,
            })
            .collect();
        Ok(Animation {
            width,
            height,
            anchor: (-left, -top),
            frames,
            looping: self.looping,
        })
    }

    /// One frame: its layers drawn over each other on a transparent canvas whose top-left is
    /// (left, top) in anchor coordinates.
    fn compose(&self, plan: &Plan, left: i64, top: i64, width: u32, height: u32) -> Vec<u8> {
        let mut canvas = vec![0u8; (u64::from(width) * u64::from(height) * 4) as usize];
        for &(id, x, y) in &plan.layers {
            let Some(s) = self.sprites.get(id.0) else {
                continue;
            };
            // Inside the canvas by construction: the canvas covers every placement.
            let cx = i64::from(s.offset.0) + i64::from(x) - left;
            let cy = i64::from(s.offset.1) + i64::from(y) - top;
            for sy in 0..s.height {
                let row = (cy + i64::from(sy)) * i64::from(width);
                for sx in 0..s.width {
                    let src = s.pixel(sx, sy);
                    if src[3] == 0 {
                        continue;
                    }
                    let at = usize::try_from((row + cx + i64::from(sx)) * 4).ok();
                    if let Some(dst) = at.and_then(|i| canvas.get_mut(i..i + 4)) {
                        over(dst, src);
                    }
                }
            }
        }
        canvas
    }
}

/// Draw `src` over `dst`, straight alpha, in integers.
fn over(dst: &mut [u8], src: [u8; 4]) {
    let [sr, sg, sb, sa] = src.map(u32::from);
    let da = dst.get(3).copied().map_or(0, u32::from);
    if sa == 255 || da == 0 {
        dst.copy_from_slice(&src);
        return;
    }
    // Output alpha in 1/255² units, then each channel weighted by its alpha share.
    let out_a = sa * 255 + da * (255 - sa);
    for (d, s) in dst.iter_mut().zip([sr, sg, sb]) {
        let dc = u32::from(*d);
        *d = ((s * sa * 255 + dc * da * (255 - sa)) / out_a) as u8;
    }
    if let Some(a) = dst.get_mut(3) {
        *a = (out_a / 255) as u8;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn over_blends_straight_alpha() {
        let mut d = [0, 0, 255, 255];
        over(&mut d, [255, 0, 0, 128]);
        assert_eq!(d, [128, 0, 127, 255]);
        let mut e = [10, 20, 30, 0];
        over(&mut e, [1, 2, 3, 4]);
        assert_eq!(e, [1, 2, 3, 4]);
        let mut f = [0, 0, 0, 128];
        over(&mut f, [255, 255, 255, 128]);
        assert_eq!(f[3], 191);
        assert!(f[0] > 128 && f[0] < 200);
    }

    #[test]
    fn canvas_covers_every_placement_and_refuses_what_limits_forbid() {
        let mut b = Builder::new(Format::Ani);
        let s = b.add_sprite(Sprite::new(3, 2, vec![255; 24], (-10, 5)).unwrap());
        b.push_frame(10, &[(s, 0, 0)]);
        b.push_frame(10, &[(s, 20, -7)]);
        let a = b.build(&Limits::default()).unwrap();
        assert_eq!((a.width, a.height, a.anchor), (23, 9, (10, 2)));
        assert_eq!(a.frames.len(), 2);
        let tiny = Limits {
            max_alloc: 100,
            ..Limits::default()
        };
        assert_eq!(b.build(&tiny).unwrap_err().kind, ErrorKind::LimitExceeded);
        assert!(Sprite::new(2, 2, vec![0; 15], (0, 0)).is_none());
        let empty = Builder::new(Format::Ani).build(&Limits::default()).unwrap();
        assert_eq!((empty.width, empty.height, empty.frames.len()), (1, 1, 0));
    }
}
