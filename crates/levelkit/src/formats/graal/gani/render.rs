//! The step to the common animation model: a `.gani` drawn with its images, one
//! [`Animation`] per direction.
//!
//! A `.gani` carries no pixels. Each `SPRITE` names a rectangle of an image, either a file
//! (`sprites.png`) or a slot (`BODY`, `HEAD`, `ATTR1`, `PARAM2`, …) whose image belongs to the
//! player. The caller supplies decoded images through a closure from a file name to a
//! [`Sprite`] (its offset is ignored); each name is asked for once.
//!
//! # Which image a slot draws
//!
//! 1. The gani's own `DEFAULT<SLOT>` line (`DEFAULTHEAD head19.png`), as TilesEditor's
//!    `Ani::setDefaultImage` does; `PARAM<n>` sources use `DEFAULTPARAM<n>`.
//! 2. When that image is not found, or there is no such line, the slot's usual image
//!    ([`USUAL_IMAGES`]): a new account's images in GServer-v2's `TAccount` (`head0.png`,
//!    `body.png`, `sword1.png`, `shield1.png`), TilesEditor's `sprites.png` and `pics1.png`, and
//!    TilesEditor's hidden defaults for the horse (`ride.png`) and the hat (`hat0.png`).
//!    TilesEditor falls back to `head1.png` for the head instead; levelkit follows the server,
//!    whose default every new player wears (and which the corpus images hold).
//! 3. Otherwise a placeholder ([`Sprite::placeholder`], the rectangle's size, at most
//!    [`MAX_PLACEHOLDER_SIDE`] a side) and a warning naming every file looked for; or, with
//!    [`render_all_placeholders`] and `false` (the document layer's default), nothing, as the
//!    game draws nothing for a missing image, and the same warning once per image.
//!
//! # How a frame is drawn
//!
//! As TilesEditor's `Ani::draw` and `Ani::drawSprite` (`src/AniEditor/Ani.cpp`) draw it: the
//! direction line's placements in order, later ones on top; each sprite with its
//! `ATTACHSPRITE2` children first (behind), then itself, then its `ATTACHSPRITE` children, to
//! an attachment depth of [`MAX_ATTACH_DEPTH`]. Offsets are truncated to whole pixels
//! (`int(x)`), the sprite's rectangle is cut from its image, and pixels are composed with
//! straight-alpha "over". `PARAM<n>` placements take their sprite index from
//! `DEFAULTPARAM<n>`.
//!
//! # Effects
//!
//! * `COLOREFFECT` multiplies the sprite's channels by its factors (index -1: every sprite).
//! * `STRETCHXEFFECT`, `STRETCHYEFFECT`, `ZOOMEFFECT` (both) and `ROTATEEFFECT` (radians) scale
//!   and turn the sprite about the centre of its rectangle, as TilesEditor's `drawSprite`
//!   sets up its painter: translate to the centre (`width / 2`, `height / 2`, whole pixels),
//!   scale, rotate (clockwise on screen), translate back; so a point is turned first, then
//!   scaled. Pixels are sampled nearest, unsmoothed, as both editors draw. Later lines win
//!   per axis; a negative factor mirrors, a zero one hides the sprite. A sprite that would
//!   grow past [`MAX_EFFECT_PIXELS`] is drawn untransformed, with a warning.
//! * `EFFECTMODE i 1` is the normal blend (GaniEditorWeb draws mode 1 with plain alpha; the
//!   one real file with the line uses 1) and needs nothing. Modes 0 (added light) and 2
//!   (subtracted) are not applied: the sprite is drawn normally, with a warning.
//! * `LAYER` is not applied (what a gani's draw layer changes is not established; neither
//!   editor reads it), with a warning.
//!
//! Hostile values never fail the render: an empty or negative rectangle draws nothing, a
//! rectangle reaching outside its image is clipped to it, an unknown sprite index or a
//! placement farther than [`MAX_OFFSET`] pixels from the origin is left out; each with a
//! warning. Only a canvas beyond the [`Limits`] is an error.
//!
//! # Time
//!
//! A frame lasts [`Frame::duration_ms`]: one 50 ms tick plus one per `WAIT` unit (the editors'
//! model; OpenGraal's client uses 60 ms and n × 100 ms). The animation loops when `LOOP` or
//! `CONTINUOUS` is set; otherwise it plays once, and [`Rendered::set_back_to`] names the
//! animation that follows. `PLAYSOUND`s are listed per frame ([`Rendered::sounds`]).

#![deny(clippy::arithmetic_side_effects)]

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use super::model::*;
use crate::anim::{Animation, Builder, Sprite, SpriteId};
use crate::error::{Error, Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::strings::RawString;

const F: Format = Format::Gani;

/// The image a slot draws when the gani has no `DEFAULT<SLOT>` line for it, or its image is not
/// found (see the module docs for the sources).
pub const USUAL_IMAGES: [(&str, &str); 8] = [
    ("HEAD", "head0.png"),
    ("BODY", "body.png"),
    ("SWORD", "sword1.png"),
    ("SHIELD", "shield1.png"),
    ("SPRITES", "sprites.png"),
    ("PICS", "pics1.png"),
    ("HORSE", "ride.png"),
    ("ATTR1", "hat0.png"),
];

/// Attachments deeper than this are not drawn (TilesEditor's limit, which also ends cycles).
pub const MAX_ATTACH_DEPTH: usize = 3;

/// Placements (and attachment offsets) farther than this many pixels from the actor's origin
/// are left out, so one stray number cannot make every frame's canvas enormous.
pub const MAX_OFFSET: f64 = 4096.0;

/// The largest side of a placeholder; larger missing rectangles are drawn this large.
pub const MAX_PLACEHOLDER_SIDE: u32 = 512;

/// The most pixels a sprite scaled or turned by its effects may cover (2048 × 2048); one
/// that would cover more is drawn as it is.
pub const MAX_EFFECT_PIXELS: u64 = 1 << 22;

/// One `PLAYSOUND` of a frame.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sound {
    /// The sound file (or `PARAM<n>` as written), Windows-1252 decoded.
    pub file: String,
    /// Where it plays relative to the actor, in tiles.
    pub x: f64,
    /// Vertical position, tiles.
    pub y: f64,
}

/// One direction of a `.gani`, drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// `"up"`, `"left"`, `"down"` or `"right"`; `None` for a single-direction animation.
    pub direction: Option<&'static str>,
    /// The frames, composed.
    pub animation: Animation,
    /// The `PLAYSOUND`s of each frame, one list per frame.
    pub sounds: Vec<Vec<Sound>>,
    /// `LOOP` is set.
    pub looped: bool,
    /// `CONTINUOUS` is set.
    pub continuous: bool,
    /// The `SETBACKTO` animation.
    pub set_back_to: Option<String>,
}

impl Rendered {
    /// What the sprite sheet's JSON table adds to its `meta` object: `direction`, `loop` parts
    /// (`looped`, `continuous`) and `setbackto`.
    pub fn meta_json(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert(
            "direction".into(),
            self.direction
                .map_or(serde_json::Value::Null, serde_json::Value::from),
        );
        m.insert("looped".into(), self.looped.into());
        m.insert("continuous".into(), self.continuous.into());
        m.insert(
            "setbackto".into(),
            self.set_back_to
                .clone()
                .map_or(serde_json::Value::Null, serde_json::Value::from),
        );
        m
    }

    /// What the sprite sheet's JSON table adds to each frame's row: its `sounds`.
    pub fn frame_json(&self) -> Vec<serde_json::Map<String, serde_json::Value>> {
        self.sounds
            .iter()
            .map(|sounds| {
                let mut m = serde_json::Map::new();
                m.insert(
                    "sounds".into(),
                    serde_json::to_value(sounds).unwrap_or(serde_json::Value::Null),
                );
                m
            })
            .collect()
    }
}

/// The directions a gani has, as indices into its frames' direction lines: `[0]` for a
/// single-direction animation, else `[0, 1, 2, 3]` (up, left, down, right).
pub fn directions(gani: &Gani) -> Vec<usize> {
    (0..gani.direction_count()).collect()
}

/// The direction index of a name (`"up"`, `"left"`, `"down"`, `"right"`, any case).
pub fn direction_index(name: &str) -> Option<usize> {
    DIRECTION_NAMES
        .iter()
        .position(|d| d.eq_ignore_ascii_case(name))
}

/// Draw direction `direction` (0 up, 1 left, 2 down, 3 right; a single-direction animation has
/// only 0) with images from `images` (see the module docs), under the default [`Limits`].
pub fn render(
    gani: &Gani,
    direction: usize,
    images: &mut dyn FnMut(&str) -> Option<Sprite>,
) -> Result<(Rendered, Vec<Warning>)> {
    let mut prepared = Prepared::new(gani, images);
    let rendered = prepared.render(direction, &Limits::default())?;
    Ok((rendered, prepared.finish()))
}

/// Draw each of `directions` (indices as in [`render`]; [`directions`] lists the gani's own),
/// asking for each image once, under `limits`; the warnings cover all of them.
pub fn render_all(
    gani: &Gani,
    directions: &[usize],
    images: &mut dyn FnMut(&str) -> Option<Sprite>,
    limits: &Limits,
) -> Result<(Vec<Rendered>, Vec<Warning>)> {
    render_all_placeholders(gani, directions, images, limits, true)
}

/// [`render_all`], choosing whether a sprite whose image is missing is drawn as a placeholder
/// (`placeholders`) or left out, as the game leaves it out (the other functions draw
/// placeholders).
pub fn render_all_placeholders(
    gani: &Gani,
    directions: &[usize],
    images: &mut dyn FnMut(&str) -> Option<Sprite>,
    limits: &Limits,
    placeholders: bool,
) -> Result<(Vec<Rendered>, Vec<Warning>)> {
    let mut prepared = Prepared::new(gani, images);
    prepared.placeholders = placeholders;
    let mut out = Vec::with_capacity(directions.len());
    for &d in directions {
        out.push(prepared.render(d, limits)?);
    }
    Ok((out, prepared.finish()))
}

/// [`render`] under explicit limits.
pub fn render_with(
    gani: &Gani,
    direction: usize,
    images: &mut dyn FnMut(&str) -> Option<Sprite>,
    limits: &Limits,
) -> Result<(Rendered, Vec<Warning>)> {
    let mut prepared = Prepared::new(gani, images);
    let rendered = prepared.render(direction, limits)?;
    Ok((rendered, prepared.finish()))
}

/// A `GANI0002` gani that plays as a `MOVIE` (actors and their key frames) and has no `ANI`
/// frames is refused, naming the block's line: no public source (TilesEditor, GaniEditorWeb,
/// OpenGraal, GServer) reads `MOVIE`, so how its key frames play is not known; guessing would
/// draw something the game does not. The block is kept as it is (JSON, write-back).
fn refuse_movie(gani: &Gani) -> Result<()> {
    if gani.frames().next().is_some() {
        return Ok(());
    }
    let Some(index) = gani
        .statements
        .iter()
        .position(|s| matches!(s, Statement::Movie(_)))
    else {
        return Ok(());
    };
    let line = super::validate::line_of(gani, index);
    let location = Location {
        line_col: Some((u32::try_from(line).unwrap_or(u32::MAX), 1)),
        path: Some(format!("statements[{index}]")),
        ..Location::default()
    };
    Err(Error::unsupported(
        F,
        location,
        "this GANI0002 animation plays as a MOVIE block (actors and key frames), which \
         levelkit does not draw: no public editor or server reads MOVIE, so how its key frames \
         play is not known; it has no ANI frames to draw instead (the block is kept as it is in \
         JSON and when written back)",
    ))
}

/// An attachment: `child` drawn at (x, y) from its parent.
#[derive(Debug, Clone, Copy)]
struct Attached {
    child: i32,
    x: i32,
    y: i32,
}

/// A sprite's attachments in drawing order.
#[derive(Debug, Clone, Default)]
struct Attachments {
    behind: Vec<Attached>,
    front: Vec<Attached>,
}

/// What is known about the gani's sprites, with each image asked for once and each sprite cut
/// once, and the warnings gathered on the way.
struct Prepared<'a> {
    gani: &'a Gani,
    images: &'a mut dyn FnMut(&str) -> Option<Sprite>,
    /// Decoded images by the name asked for.
    decoded: HashMap<String, Option<Sprite>>,
    /// Each sprite index's pixels (offset relative to the placement), or `None` when it draws
    /// nothing.
    cut: HashMap<i32, Option<Sprite>>,
    defaults: HashMap<String, String>,
    attachments: HashMap<i32, Attachments>,
    colors: HashMap<i32, Color>,
    /// Each sprite's scale and rotation, from its effect lines.
    transforms: HashMap<i32, Transform>,
    /// Sprites whose effects would make them too large; drawn untransformed.
    too_large: BTreeSet<i32>,
    /// Missing images: what was looked for -> the sprites drawn as placeholders (or left out).
    missing: BTreeMap<String, BTreeSet<i32>>,
    /// Whether a sprite whose image is missing is drawn as a placeholder (else left out, as
    /// the game leaves it out).
    placeholders: bool,
    /// `DEFAULT<SLOT>` images not found whose slot's usual image was drawn instead.
    replaced: BTreeMap<(String, String), BTreeSet<i32>>,
    clipped: BTreeMap<i32, String>,
    empty: BTreeSet<i32>,
    unknown: BTreeSet<String>,
    far: usize,
    short_frames: BTreeSet<usize>,
    warnings: Vec<Warning>,
}

impl<'a> Prepared<'a> {
    fn new(gani: &'a Gani, images: &'a mut dyn FnMut(&str) -> Option<Sprite>) -> Self {
        let mut defaults = HashMap::new();
        for (slot, value) in gani.defaults() {
            // Later lines win, as TilesEditor's map keeps the last value.
            defaults.insert(slot.display(), value.display());
        }
        let mut attachments: HashMap<i32, Attachments> = HashMap::new();
        let mut colors = HashMap::new();
        let mut transforms: HashMap<i32, Transform> = HashMap::new();
        let mut ignored: BTreeMap<String, usize> = BTreeMap::new();
        let mut far_attach = 0usize;
        for s in &gani.statements {
            match s {
                Statement::Attach(a) => {
                    let (Some(x), Some(y)) = (pixel(a.x), pixel(a.y)) else {
                        far_attach = far_attach.saturating_add(1);
                        continue;
                    };
                    let entry = attachments.entry(a.parent).or_default();
                    let att = Attached {
                        child: a.child,
                        x,
                        y,
                    };
                    if a.behind {
                        entry.behind.push(att);
                    } else {
                        entry.front.push(att);
                    }
                }
                Statement::Effect(e) => {
                    let t = transforms.entry(e.sprite).or_default();
                    let not_applied = match e.value {
                        EffectValue::Color(c) => {
                            colors.insert(e.sprite, c);
                            None
                        }
                        EffectValue::StretchX(f) => {
                            t.set(Some(f), None, None);
                            None
                        }
                        EffectValue::StretchY(f) => {
                            t.set(None, Some(f), None);
                            None
                        }
                        EffectValue::Zoom(f) => {
                            t.set(Some(f), Some(f), None);
                            None
                        }
                        EffectValue::Rotate(r) => {
                            t.set(None, None, Some(r));
                            None
                        }
                        EffectValue::Mode(1) => None,
                        EffectValue::Mode(m) => Some(format!(
                            "EFFECTMODE {m} line(s) not applied ({}): the sprite is drawn \
                             with normal blending",
                            match m {
                                0 => "added light",
                                2 => "subtracted",
                                _ => "an unknown mode",
                            }
                        )),
                        EffectValue::Layer(_) => Some(
                            "LAYER line(s) not applied: what a gani's draw layer changes is \
                             not established"
                                .to_owned(),
                        ),
                    };
                    if let Some(what) = not_applied {
                        let n = ignored.entry(what).or_insert(0);
                        *n = n.saturating_add(1);
                    }
                }
                _ => {}
            }
        }
        let mut warnings = Vec::new();
        for (what, n) in ignored {
            warnings.push(Warning::warning(
                F,
                Location::path("statements"),
                format!("{n} {what}"),
            ));
        }
        transforms.retain(|_, t| !t.is_identity());
        if far_attach > 0 {
            warnings.push(Warning::warning(
                F,
                Location::path("statements"),
                format!(
                    "{far_attach} ATTACHSPRITE line(s) with an offset beyond {MAX_OFFSET} pixels \
                     (or not a number) left out"
                ),
            ));
        }
        Prepared {
            gani,
            images,
            decoded: HashMap::new(),
            cut: HashMap::new(),
            defaults,
            attachments,
            colors,
            transforms,
            too_large: BTreeSet::new(),
            missing: BTreeMap::new(),
            placeholders: true,
            replaced: BTreeMap::new(),
            clipped: BTreeMap::new(),
            empty: BTreeSet::new(),
            unknown: BTreeSet::new(),
            far: 0,
            short_frames: BTreeSet::new(),
            warnings,
        }
    }

    /// The image of a name, asked for once.
    fn image(&mut self, name: &str) -> Option<&Sprite> {
        if !self.decoded.contains_key(name) {
            let found = (self.images)(name).filter(|s| {
                u64::try_from(s.rgba.len()).ok()
                    == u64::from(s.width)
                        .checked_mul(u64::from(s.height))
                        .and_then(|n| n.checked_mul(4))
            });
            self.decoded.insert(name.to_owned(), found);
        }
        self.decoded.get(name).and_then(Option::as_ref)
    }

    /// The file names to try for a sprite's source, in order, and the `DEFAULT` line's value
    /// when the first comes from one.
    fn candidates(&self, sprite: &super::model::Sprite) -> (Vec<String>, Option<String>) {
        let Some(slot) = sprite.slot() else {
            return (vec![sprite.source.display()], None);
        };
        let mut names = Vec::new();
        let given = self.defaults.get(slot).filter(|v| !v.is_empty()).cloned();
        if let Some(v) = &given {
            names.push(v.clone());
        }
        if let Some((_, usual)) = USUAL_IMAGES.iter().find(|(s, _)| *s == slot)
            && !names.iter().any(|n| n == usual)
        {
            names.push((*usual).to_owned());
        }
        (names, given)
    }

    /// The pixels sprite `index` draws, cut once.
    fn sprite(&mut self, index: i32) -> Option<Sprite> {
        if let Some(done) = self.cut.get(&index) {
            return done.clone();
        }
        let cut = self.cut_sprite(index);
        self.cut.insert(index, cut.clone());
        cut
    }

    fn cut_sprite(&mut self, index: i32) -> Option<Sprite> {
        let gani = self.gani;
        let Some(def) = gani.sprite(index) else {
            self.unknown.insert(index.to_string());
            return None;
        };
        if def.width <= 0 || def.height <= 0 {
            self.empty.insert(index);
            return None;
        }
        let (names, given) = self.candidates(def);
        let mut found = None;
        for name in &names {
            if self.image(name).is_some() {
                found = Some(name.clone());
                break;
            }
        }
        let mut sprite = match &found {
            Some(name) => {
                if let (Some(g), Some(slot)) = (&given, def.slot())
                    && g != name
                {
                    self.replaced
                        .entry((format!("DEFAULT{slot} {g}"), name.clone()))
                        .or_default()
                        .insert(index);
                }
                // Borrowed from the cache, not cloned: an image is cut into many sprites.
                let image = self.decoded.get(name).and_then(Option::as_ref)?;
                let (cut, clipped) = crop(image, def)?;
                let (iw, ih) = (image.width, image.height);
                if clipped {
                    self.clipped.insert(
                        index,
                        format!(
                            "sprite {index}: rectangle {} {} {} x {} reaches outside the {iw} x \
                             {ih} image {name}; clipped",
                            def.left, def.top, def.width, def.height
                        ),
                    );
                }
                cut?
            }
            None => {
                let what = match (names.is_empty(), def.slot()) {
                    (true, Some(slot)) => {
                        format!("slot {slot} has no DEFAULT{slot} line and no usual image")
                    }
                    _ => format!("looked for {}", names.join(", ")),
                };
                self.missing.entry(what).or_default().insert(index);
                if !self.placeholders {
                    return None;
                }
                let side = |n: i32| u32::try_from(n).unwrap_or(1).clamp(1, MAX_PLACEHOLDER_SIDE);
                let mut p = Sprite::placeholder(side(def.width), side(def.height));
                p.offset = (0, 0);
                p
            }
        };
        let color = self
            .colors
            .get(&index)
            .or_else(|| self.colors.get(&-1))
            .copied();
        if let Some(c) = color {
            tint(&mut sprite, c);
        }
        if let Some(t) = self.transforms.get(&index) {
            match t.apply(&sprite, (def.width, def.height)) {
                Ok(turned) => return turned,
                Err(()) => {
                    self.too_large.insert(index);
                }
            }
        }
        Some(sprite)
    }

    /// The sprite index of a placement's reference.
    fn index_of(&mut self, r: SpriteRef) -> Option<i32> {
        match r {
            SpriteRef::Index(i) => Some(i),
            SpriteRef::Param(n) => {
                let value = self.defaults.get(&format!("PARAM{n}"));
                match value.and_then(|v| v.trim().parse::<i32>().ok()) {
                    Some(i) => Some(i),
                    None => {
                        self.unknown.insert(format!("PARAM{n}"));
                        None
                    }
                }
            }
        }
    }

    /// Push the layers sprite `index` draws at (x, y): behind attachments, itself, front
    /// attachments.
    #[allow(clippy::too_many_arguments)]
    fn layers(
        &mut self,
        builder: &mut Builder,
        ids: &mut HashMap<i32, Option<SpriteId>>,
        index: i32,
        (x, y): (i32, i32),
        depth: usize,
        out: &mut Vec<(SpriteId, i32, i32)>,
    ) {
        if depth > MAX_ATTACH_DEPTH {
            return;
        }
        let attached = self.attachments.get(&index).cloned().unwrap_or_default();
        let next = depth.saturating_add(1);
        for a in &attached.behind {
            let at = (x.saturating_add(a.x), y.saturating_add(a.y));
            self.layers(builder, ids, a.child, at, next, out);
        }
        let id = match ids.get(&index) {
            Some(id) => *id,
            None => {
                let id = self.sprite(index).map(|s| builder.add_sprite(s));
                ids.insert(index, id);
                id
            }
        };
        if let Some(id) = id {
            out.push((id, x, y));
        }
        for a in &attached.front {
            let at = (x.saturating_add(a.x), y.saturating_add(a.y));
            self.layers(builder, ids, a.child, at, next, out);
        }
    }

    fn render(&mut self, direction: usize, limits: &Limits) -> Result<Rendered> {
        refuse_movie(self.gani)?;
        let gani = self.gani;
        let single = gani.direction_count() == 1;
        let mut builder = Builder::new(F);
        let looped = gani.flag(FlagKind::Loop);
        let continuous = gani.flag(FlagKind::Continuous);
        builder.set_looping(looped || continuous);
        let mut ids = HashMap::new();
        let mut sounds = Vec::new();
        for (f, frame) in gani.frames().enumerate() {
            let mut layers = Vec::new();
            match frame.directions.get(direction) {
                Some(line) => {
                    for p in &line.placements {
                        let (Some(x), Some(y)) = (pixel(p.x), pixel(p.y)) else {
                            self.far = self.far.saturating_add(1);
                            continue;
                        };
                        if let Some(index) = self.index_of(p.sprite) {
                            self.layers(&mut builder, &mut ids, index, (x, y), 0, &mut layers);
                        }
                    }
                }
                None => {
                    self.short_frames.insert(f);
                }
            }
            builder.push_frame(frame.duration_ms(), &layers);
            sounds.push(
                frame
                    .sounds()
                    .map(|s| Sound {
                        file: s.sound.display(),
                        x: s.x,
                        y: s.y,
                    })
                    .collect(),
            );
        }
        let animation = builder.build(limits)?;
        Ok(Rendered {
            direction: if single {
                None
            } else {
                DIRECTION_NAMES.get(direction).copied()
            },
            animation,
            sounds,
            looped,
            continuous,
            set_back_to: gani.set_back_to().map(RawString::display),
        })
    }

    /// The warnings gathered, one per kind of trouble.
    fn finish(mut self) -> Vec<Warning> {
        let w = |path: &str, message: String| Warning::warning(F, Location::path(path), message);
        let list = |set: &BTreeSet<i32>| {
            let shown: Vec<String> = set.iter().take(12).map(i32::to_string).collect();
            format!(
                "{}{}",
                shown.join(", "),
                if set.len() > 12 { ", …" } else { "" }
            )
        };
        for ((line, used), sprites) in &self.replaced {
            self.warnings.push(w(
                "statements",
                format!(
                    "{line}: image not found; drew the slot's usual {used} instead (sprites {})",
                    list(sprites)
                ),
            ));
        }
        for (names, sprites) in &self.missing {
            let how = if self.placeholders {
                "drawn as placeholders"
            } else {
                "not drawn (as in the game; --placeholders draws them)"
            };
            self.warnings.push(w(
                "statements",
                format!("image not found ({names}); sprites {} {how}", list(sprites)),
            ));
        }
        if !self.too_large.is_empty() {
            self.warnings.push(w(
                "statements",
                format!(
                    "sprites {}: their scale effects would make them larger than \
                     {MAX_EFFECT_PIXELS} pixels; drawn unscaled and unturned",
                    list(&self.too_large)
                ),
            ));
        }
        for message in self.clipped.values() {
            self.warnings.push(w("statements", message.clone()));
        }
        if !self.empty.is_empty() {
            self.warnings.push(w(
                "statements",
                format!(
                    "sprites {} have an empty or negative rectangle; not drawn",
                    list(&self.empty)
                ),
            ));
        }
        if !self.unknown.is_empty() {
            let names: Vec<&str> = self.unknown.iter().take(12).map(String::as_str).collect();
            self.warnings.push(w(
                "frames",
                format!(
                    "placements of undefined sprites (or PARAMs without a numeric DEFAULTPARAM) \
                     left out: {}{}",
                    names.join(", "),
                    if self.unknown.len() > 12 { ", …" } else { "" }
                ),
            ));
        }
        if self.far > 0 {
            self.warnings.push(w(
                "frames",
                format!(
                    "{} placement(s) farther than {MAX_OFFSET} pixels from the origin (or not a \
                     number) left out",
                    self.far
                ),
            ));
        }
        if !self.short_frames.is_empty() {
            let shown: Vec<String> = self
                .short_frames
                .iter()
                .take(12)
                .map(usize::to_string)
                .collect();
            self.warnings.push(w(
                "frames",
                format!(
                    "frames {}{} lack the direction line drawn; they are empty",
                    shown.join(", "),
                    if self.short_frames.len() > 12 {
                        ", …"
                    } else {
                        ""
                    }
                ),
            ));
        }
        if self.gani.frames().next().is_none() {
            self.warnings
                .push(w("frames", "the animation has no frames".to_owned()));
        } else if let Some(index) = self
            .gani
            .statements
            .iter()
            .position(|s| matches!(s, Statement::Movie(_)))
        {
            let line = super::validate::line_of(self.gani, index);
            self.warnings.push(w(
                &format!("statements[{index}]"),
                format!(
                    "line {line}: the MOVIE block (actors and key frames) is not drawn, only \
                     the ANI frames: no public editor or server reads MOVIE"
                ),
            ));
        }
        self.warnings
    }
}

/// A placement offset in whole pixels, truncated as TilesEditor's `int(x)`; `None` beyond
/// [`MAX_OFFSET`] or when not a number.
fn pixel(v: f64) -> Option<i32> {
    (v.is_finite() && v.abs() <= MAX_OFFSET).then(|| v.trunc() as i32)
}

/// The part of `image` inside the sprite's rectangle, offset from the rectangle's corner, and
/// whether the rectangle reaches outside the image. `None` inside when nothing is left.
fn crop(image: &Sprite, def: &super::model::Sprite) -> Option<(Option<Sprite>, bool)> {
    let (left, top) = (i64::from(def.left), i64::from(def.top));
    let right = left.checked_add(i64::from(def.width))?;
    let bottom = top.checked_add(i64::from(def.height))?;
    let (iw, ih) = (i64::from(image.width), i64::from(image.height));
    let (x0, y0) = (left.max(0), top.max(0));
    let (x1, y1) = (right.min(iw), bottom.min(ih));
    let clipped = left < 0 || top < 0 || right > iw || bottom > ih;
    if x1 <= x0 || y1 <= y0 {
        return Some((None, clipped));
    }
    let w = usize::try_from(x1.checked_sub(x0)?).ok()?;
    let h = usize::try_from(y1.checked_sub(y0)?).ok()?;
    let stride = usize::try_from(image.width).ok()?.checked_mul(4)?;
    let row_len = w.checked_mul(4)?;
    let mut rgba = Vec::with_capacity(row_len.checked_mul(h)?);
    let (x0u, y0u) = (usize::try_from(x0).ok()?, usize::try_from(y0).ok()?);
    for row in 0..h {
        let start = y0u
            .checked_add(row)?
            .checked_mul(stride)?
            .checked_add(x0u.checked_mul(4)?)?;
        rgba.extend_from_slice(image.rgba.get(start..start.checked_add(row_len)?)?);
    }
    let offset = (
        i32::try_from(x0.checked_sub(left)?).ok()?,
        i32::try_from(y0.checked_sub(top)?).ok()?,
    );
    let sprite = Sprite::new(u32::try_from(w).ok()?, u32::try_from(h).ok()?, rgba, offset);
    Some((sprite, clipped))
}

/// A sprite's scale and rotation from `STRETCHXEFFECT`, `STRETCHYEFFECT`, `ZOOMEFFECT` and
/// `ROTATEEFFECT` (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Transform {
    sx: f64,
    sy: f64,
    /// Radians, clockwise on screen (y down).
    radians: f64,
}

impl Default for Transform {
    fn default() -> Self {
        Transform {
            sx: 1.0,
            sy: 1.0,
            radians: 0.0,
        }
    }
}

impl Transform {
    /// Set the given parts (a value that is not a finite number is skipped).
    fn set(&mut self, sx: Option<f64>, sy: Option<f64>, radians: Option<f64>) {
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
        if let Some(v) = finite(sx) {
            self.sx = v;
        }
        if let Some(v) = finite(sy) {
            self.sy = v;
        }
        if let Some(v) = finite(radians) {
            self.radians = v;
        }
    }

    fn is_identity(&self) -> bool {
        *self == Transform::default()
    }

    /// `sprite` (pixels of a `width × height` rectangle, offset from its corner) scaled and
    /// turned about the rectangle's centre, offset from the same corner; `Ok(None)` when a
    /// zero scale leaves nothing; `Err` past [`MAX_EFFECT_PIXELS`].
    #[allow(clippy::cast_possible_truncation)]
    fn apply(&self, sprite: &Sprite, (width, height): (i32, i32)) -> Result<Option<Sprite>, ()> {
        if self.sx == 0.0 || self.sy == 0.0 || sprite.width == 0 || sprite.height == 0 {
            return Ok(None);
        }
        // TilesEditor's `sprite->width / 2` divides whole numbers.
        let (cx, cy) = (f64::from(width / 2), f64::from(height / 2));
        let (sin, cos) = self.radians.sin_cos();
        // p -> c + S·R·(p - c)
        let forward = |x: f64, y: f64| {
            let (dx, dy) = (x - cx, y - cy);
            (
                cx + self.sx * (dx * cos - dy * sin),
                cy + self.sy * (dx * sin + dy * cos),
            )
        };
        let (ox, oy) = (f64::from(sprite.offset.0), f64::from(sprite.offset.1));
        let (w, h) = (f64::from(sprite.width), f64::from(sprite.height));
        let corners = [
            forward(ox, oy),
            forward(ox + w, oy),
            forward(ox, oy + h),
            forward(ox + w, oy + h),
        ];
        let fold = |pick: fn(&(f64, f64)) -> f64, min: bool| {
            corners.iter().map(pick).fold(
                if min {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                },
                |a, b| if min { a.min(b) } else { a.max(b) },
            )
        };
        // Round the box to whole pixels, ignoring float dust (a quarter turn of an exact
        // rectangle lands on whole numbers give or take 1e-12).
        let snap = |v: f64| {
            let r = v.round();
            if (v - r).abs() < 1e-9 { r } else { v }
        };
        let x0 = snap(fold(|c| c.0, true)).floor();
        let x1 = snap(fold(|c| c.0, false)).ceil();
        let y0 = snap(fold(|c| c.1, true)).floor();
        let y1 = snap(fold(|c| c.1, false)).ceil();
        let (ow, oh) = (x1 - x0, y1 - y0);
        if !(ow.is_finite() && oh.is_finite()) || ow * oh > MAX_EFFECT_PIXELS as f64 {
            return Err(());
        }
        if ow < 1.0 || oh < 1.0 {
            return Ok(None);
        }
        // Both below 2^22 here, so the casts are exact.
        let (out_w, out_h) = (ow as u32, oh as u32);
        // Sizes and indices in f64: exact, as everything stays below 2^53.
        let mut rgba = vec![0u8; (ow * oh * 4.0) as usize];
        for (row, line) in rgba.chunks_exact_mut((ow * 4.0) as usize).enumerate() {
            let py = y0 + row as f64 + 0.5 - cy;
            for (col, px) in line.chunks_exact_mut(4).enumerate() {
                let px_ = x0 + col as f64 + 0.5 - cx;
                // Undo the scale, then the turn: q = c + R⁻¹·S⁻¹·(P - c).
                let (ux, uy) = (px_ / self.sx, py / self.sy);
                let qx = cx + ux * cos + uy * sin - ox;
                let qy = cy - ux * sin + uy * cos - oy;
                if qx < 0.0 || qy < 0.0 || qx >= w || qy >= h {
                    continue;
                }
                let at = ((qy.floor() * w + qx.floor()) * 4.0) as usize;
                if let Some(src) = sprite.rgba.get(at..at.saturating_add(4)) {
                    px.copy_from_slice(src);
                }
            }
        }
        Ok(Sprite::new(out_w, out_h, rgba, (x0 as i32, y0 as i32)))
    }
}

/// `COLOREFFECT`: each channel multiplied by its factor (clamped to 0–255).
fn tint(sprite: &mut Sprite, c: Color) {
    let factors = [c.r, c.g, c.b, c.a].map(|f| if f.is_finite() { f.max(0.0) } else { 1.0 });
    for px in sprite.rgba.chunks_exact_mut(4) {
        for (v, f) in px.iter_mut().zip(factors) {
            *v = (f64::from(*v) * f).round().clamp(0.0, 255.0) as u8;
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    fn solid(w: u32, h: u32, px: [u8; 4]) -> Sprite {
        Sprite::new(w, h, px.repeat((w * h) as usize), (0, 0)).unwrap()
    }

    #[test]
    fn crop_clips_to_the_image_and_keeps_the_offset() {
        let img = solid(4, 4, [1, 2, 3, 255]);
        let def = super::super::model::Sprite::new(0, "x.png", [-1, 2, 3, 5], "");
        let (cut, clipped) = crop(&img, &def).unwrap();
        let cut = cut.unwrap();
        assert!(clipped);
        assert_eq!((cut.width, cut.height, cut.offset), (2, 2, (1, 0)));
        let outside = super::super::model::Sprite::new(0, "x.png", [10, 10, 3, 3], "");
        assert_eq!(crop(&img, &outside), Some((None, true)));
        let huge = super::super::model::Sprite::new(0, "x.png", [i32::MAX, 0, i32::MAX, 1], "");
        assert_eq!(crop(&img, &huge), Some((None, true)));
    }

    #[test]
    fn pixels_truncate_like_int() {
        assert_eq!(pixel(1.9), Some(1));
        assert_eq!(pixel(-1.9), Some(-1));
        assert_eq!(pixel(f64::NAN), None);
        assert_eq!(pixel(1e9), None);
    }

    #[test]
    fn tint_multiplies_channels() {
        let mut s = solid(1, 1, [200, 100, 50, 255]);
        tint(
            &mut s,
            Color {
                r: 0.5,
                g: 2.0,
                b: f64::NAN,
                a: 0.5,
            },
        );
        assert_eq!(s.rgba, [100, 200, 50, 128]);
    }

    const R: [u8; 4] = [255, 0, 0, 255];
    const B: [u8; 4] = [0, 0, 255, 255];

    fn t(sx: f64, sy: f64, radians: f64) -> Transform {
        Transform { sx, sy, radians }
    }

    #[test]
    fn zoom_grows_about_the_rectangle_centre() {
        let s = solid(2, 2, R);
        let z = t(2.0, 2.0, 0.0).apply(&s, (2, 2)).unwrap().unwrap();
        assert_eq!((z.width, z.height, z.offset), (4, 4, (-1, -1)));
        assert!(z.rgba.chunks_exact(4).all(|p| p == R));
    }

    #[test]
    fn a_quarter_turn_is_clockwise_and_keeps_every_pixel() {
        // A 4 x 2 rectangle, red in its top-left pixel, turned by pi/2 about (2, 1).
        let mut s = solid(4, 2, B);
        s.rgba[..4].copy_from_slice(&R);
        let r = t(1.0, 1.0, std::f64::consts::FRAC_PI_2)
            .apply(&s, (4, 2))
            .unwrap()
            .unwrap();
        assert_eq!((r.width, r.height, r.offset), (2, 4, (1, -1)));
        // Clockwise on screen: the top-left corner goes to the top right.
        assert_eq!(&r.rgba[4..8], &R);
        assert_eq!(r.rgba.chunks_exact(4).filter(|p| *p == R).count(), 1);
        assert_eq!(r.rgba.chunks_exact(4).filter(|p| *p == B).count(), 7);
    }

    #[test]
    fn a_negative_stretch_mirrors_and_zero_hides() {
        let mut s = solid(2, 1, R);
        s.rgba[4..].copy_from_slice(&B);
        let m = t(-1.0, 1.0, 0.0).apply(&s, (2, 1)).unwrap().unwrap();
        assert_eq!((m.width, m.height, m.offset), (2, 1, (0, 0)));
        assert_eq!(m.rgba, [B, R].concat());
        assert_eq!(t(0.0, 1.0, 0.0).apply(&s, (2, 1)), Ok(None));
        // A clipped cut keeps its place: offset (1, 0) in a 3 x 1 rectangle, mirrored about 1.
        let mut c = solid(1, 1, R);
        c.offset = (1, 0);
        let m = t(-1.0, 1.0, 0.0).apply(&c, (3, 1)).unwrap().unwrap();
        assert_eq!(m.offset, (0, 0));
    }

    #[test]
    fn an_enormous_scale_is_refused_not_allocated() {
        let s = solid(16, 16, R);
        assert_eq!(t(1e6, 1e6, 0.0).apply(&s, (16, 16)), Err(()));
        assert_eq!(t(f64::MAX, 1.0, 0.0).apply(&s, (16, 16)), Err(()));
    }
}
