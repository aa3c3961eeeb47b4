//! The lossless `.gani` model: the optional header line and every statement in file order, each
//! with its typed values and, where the file did not write it the way levelkit would, the line as
//! it was.
//!
//! # How byte-exactness works
//!
//! Every line-shaped item (a statement, a direction line, a frame command, a block's opening and
//! closing line) carries `raw: Option<RawString>`: the line exactly as read, without its line
//! break, kept **only** when it differs from the canonical formatting of the typed values (column
//! alignment, number spelling such as `1.50`, the `SINGLEDIR` alias, trailing spaces). The writer
//! re-emits `raw` while it still parses to the item's values and formats the item canonically
//! once they have been edited. Line breaks live in [`Layout`]: one line ending for the file, the
//! numbers of the lines that use the other one, and whether the last line has a break.
//!
//! Statements are kept in order rather than grouped by kind because order is meaning in this
//! format (`SINGLEDIRECTION` changes how a later `ANI` block is read) and because unknown lines
//! must stay where they were.

use serde::{Deserialize, Serialize};

pub use crate::strings::LineEnding;

use crate::strings::RawString;

/// Milliseconds per animation tick: a frame lasts one tick plus one per `WAIT` unit.
pub const TICK_MS: u32 = 50;

/// Direction lines per frame of an ordinary animation, in the order up, left, down, right.
pub const FOUR_DIRECTIONS: usize = 4;

/// Names of the four direction lines, in file order.
pub const DIRECTION_NAMES: [&str; 4] = ["up", "left", "down", "right"];

/// A whole `.gani` animation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gani {
    /// The first line when it is a signature such as `GANI0001`; `None` for the many real files
    /// that start directly with `SPRITE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<Header>,
    /// Every line after the header, as statements and blocks, in file order.
    pub statements: Vec<Statement>,
    /// Line breaks.
    #[serde(default, skip_serializing_if = "Layout::is_default")]
    pub layout: Layout,
}

impl Default for Gani {
    fn default() -> Self {
        Gani::new()
    }
}

/// The signature line (`GANI0001`, or `GANI0002` for files with a `MOVIE` block).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The four digits after `GANI` (1 for `GANI0001`).
    pub version: u16,
    /// The line as read, when it is not exactly `GANI` and four digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

impl Header {
    /// A header of the given version.
    pub fn new(version: u16) -> Self {
        Header { version, raw: None }
    }
}

/// How the file's lines end.
pub use crate::strings::LineLayout as Layout;

/// One statement or block, in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statement {
    /// An empty line (or one of only spaces).
    Blank(Blank),
    /// `SPRITE index source left top width height [description]`.
    Sprite(Sprite),
    /// `ATTACHSPRITE parent child x y` or `ATTACHSPRITE2 …`.
    Attach(Attach),
    /// One of the per-sprite effects (`STRETCHXEFFECT`, `COLOREFFECT`, `LAYER`, …).
    Effect(Effect),
    /// `LOOP`, `CONTINUOUS` or `SINGLEDIRECTION` (alias `SINGLEDIR`), with an optional number.
    Flag(Flag),
    /// `SETBACKTO name`.
    SetBackTo(SetBackTo),
    /// `DEFAULT<SLOT> value`, e.g. `DEFAULTHEAD head19.png`.
    Default(SlotDefault),
    /// `BACKCOLOR value`.
    BackColor(BackColor),
    /// `FRAMES n` (`GANI0002`).
    Frames(FrameCount),
    /// The `ANI` … `ANIEND` block with the frames.
    Ani(AniBlock),
    /// The `SCRIPT` … `SCRIPTEND` block, kept verbatim.
    Script(TextBlock),
    /// The `MOVIE` … `MOVIEEND` block (`GANI0002`), kept verbatim.
    Movie(TextBlock),
    /// A line levelkit does not recognise, or a known keyword whose arguments do not parse
    /// (validation says which); kept verbatim.
    Unknown(Unknown),
}

/// An empty line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Blank {
    /// The line as read, when it holds spaces, tabs or a stray carriage return.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// A sprite definition: a rectangle of an image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sprite {
    /// The sprite's number, unique per file, possibly negative.
    pub index: i32,
    /// Where the pixels come from: a slot (`SPRITES`, `HEAD`, `BODY`, `SWORD`, `SHIELD`,
    /// `HORSE`, `PICS`, `ATTR<n>`, `PARAM<n>`) or an image file name. One token.
    pub source: RawString,
    /// Left edge of the rectangle in the image, pixels.
    pub left: i32,
    /// Top edge, pixels.
    pub top: i32,
    /// Width, pixels.
    pub width: i32,
    /// Height, pixels.
    pub height: i32,
    /// Free text after the rectangle (the editors' comment), without surrounding spaces.
    #[serde(default, skip_serializing_if = "RawString::is_empty")]
    pub description: RawString,
    /// The line as read, when it differs from the canonical `SPRITE %4d %15s %4d %4d %4d %4d %s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// Slot names a sprite's source can have besides `ATTR<n>` and `PARAM<n>`.
pub const SLOTS: [&str; 7] = [
    "SPRITES", "HEAD", "BODY", "SWORD", "SHIELD", "HORSE", "PICS",
];

impl Sprite {
    /// A sprite without raw text.
    pub fn new(
        index: i32,
        source: &str,
        [left, top, width, height]: [i32; 4],
        description: &str,
    ) -> Self {
        Sprite {
            index,
            source: RawString::from(source),
            left,
            top,
            width,
            height,
            description: RawString::from(description),
            raw: None,
        }
    }

    /// The slot name when the source is a slot rather than an image file.
    pub fn slot(&self) -> Option<&str> {
        let s = std::str::from_utf8(self.source.as_bytes()).ok()?;
        let numbered = |prefix: &str| {
            s.strip_prefix(prefix)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        (SLOTS.contains(&s) || numbered("ATTR") || numbered("PARAM")).then_some(s)
    }
}

/// `ATTACHSPRITE parent child x y`: draw `child` with `parent`, offset by (x, y).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attach {
    /// `ATTACHSPRITE2`: the child is drawn behind the parent instead of in front of it.
    pub behind: bool,
    /// The sprite the child is attached to.
    pub parent: i32,
    /// The attached sprite.
    pub child: i32,
    /// Horizontal offset, pixels.
    pub x: f64,
    /// Vertical offset, pixels.
    pub y: f64,
    /// The line as read, when it differs from `ATTACHSPRITE %4d %4d %4s %4s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// A per-sprite effect statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// The sprite affected; `-1` occurs in real files and apparently means every sprite.
    pub sprite: i32,
    /// Which effect, with its values.
    pub value: EffectValue,
    /// The line as read, when it differs from the canonical form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// The effect statements and their values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectValue {
    /// `STRETCHXEFFECT i f`: horizontal scale.
    StretchX(f64),
    /// `STRETCHYEFFECT i f`: vertical scale.
    StretchY(f64),
    /// `ZOOMEFFECT i f`: uniform scale.
    Zoom(f64),
    /// `ROTATEEFFECT i rad`: rotation in radians.
    Rotate(f64),
    /// `COLOREFFECT i r g b a`: colour factors, 0–1.
    Color(Color),
    /// `EFFECTMODE i mode`: blend mode (0, 1 and 2 occur; their meaning is not established).
    Mode(i32),
    /// `LAYER i n`: draw layer.
    Layer(i32),
}

impl EffectValue {
    /// The statement's keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            EffectValue::StretchX(_) => "STRETCHXEFFECT",
            EffectValue::StretchY(_) => "STRETCHYEFFECT",
            EffectValue::Zoom(_) => "ZOOMEFFECT",
            EffectValue::Rotate(_) => "ROTATEEFFECT",
            EffectValue::Color(_) => "COLOREFFECT",
            EffectValue::Mode(_) => "EFFECTMODE",
            EffectValue::Layer(_) => "LAYER",
        }
    }
}

/// Colour factors of `COLOREFFECT`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Color {
    /// Red factor.
    pub r: f64,
    /// Green factor.
    pub g: f64,
    /// Blue factor.
    pub b: f64,
    /// Alpha factor.
    pub a: f64,
}

/// A flag statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flag {
    /// Which flag.
    pub flag: FlagKind,
    /// The optional number after it (GServer's newer loader: `LOOP 0` clears the flag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg: Option<i32>,
    /// The line as read, when it differs from the canonical form (`SINGLEDIR` is kept here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

impl Flag {
    /// A flag without a number.
    pub fn new(flag: FlagKind) -> Self {
        Flag {
            flag,
            arg: None,
            raw: None,
        }
    }

    /// Whether the statement sets the flag (no number, or a number other than 0).
    pub fn sets(&self) -> bool {
        self.arg != Some(0)
    }
}

/// The flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagKind {
    /// `LOOP`: start again after the last frame.
    Loop,
    /// `CONTINUOUS`: do not restart when the animation is set again.
    Continuous,
    /// `SINGLEDIRECTION` (alias `SINGLEDIR`): frames have one direction line instead of four.
    SingleDirection,
}

impl FlagKind {
    /// The canonical keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            FlagKind::Loop => "LOOP",
            FlagKind::Continuous => "CONTINUOUS",
            FlagKind::SingleDirection => "SINGLEDIRECTION",
        }
    }
}

/// `SETBACKTO name`: the animation to switch to when a non-looping one ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetBackTo {
    /// The animation's name (normally without `.gani`): the rest of the line, trimmed.
    pub name: RawString,
    /// The line as read, when it differs from `SETBACKTO name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// `DEFAULT<SLOT> value`: the default image (or, for `PARAM` slots, value) of a slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotDefault {
    /// The slot, as written after `DEFAULT` (`HEAD`, `ATTR1`, `PARAM2`, …).
    pub slot: RawString,
    /// The value: the rest of the line, trimmed.
    pub value: RawString,
    /// The line as read, when it differs from `DEFAULT<slot> value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// `BACKCOLOR value`: the editor's preview background.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackColor {
    /// The value (e.g. `#RRGGBB`): the rest of the line, trimmed.
    pub value: RawString,
    /// The line as read, when it differs from `BACKCOLOR value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// `FRAMES n` (`GANI0002`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameCount {
    /// The number.
    pub count: u32,
    /// The line as read, when it differs from `FRAMES n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// The `ANI` … `ANIEND` block.
///
/// Frames are separated by one blank line; a frame is its direction lines (four, or one after
/// `SINGLEDIRECTION`; any may be empty) followed by its commands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AniBlock {
    /// The frames in order.
    pub frames: Vec<Frame>,
    /// The blank line before `ANIEND`, when there is one (most real files have it; some end the
    /// last frame directly with `ANIEND`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_blank: Option<Blank>,
    /// The opening line as read, when it is not exactly `ANI`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_raw: Option<RawString>,
    /// The closing line as read, when it is not exactly `ANIEND`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_raw: Option<RawString>,
}

/// One frame.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// The direction lines in order up, left, down, right (one line for single-direction
    /// animations). A real file may have fewer or more; validation reports it.
    pub directions: Vec<Direction>,
    /// `WAIT`, `PLAYSOUND` and unrecognised lines after the direction lines, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<FrameCommand>,
    /// The blank line that separates this frame from the next, as read, when it holds spaces
    /// (unused on the last frame, whose following blank line is [`AniBlock::end_blank`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separator_raw: Option<RawString>,
}

impl Frame {
    /// A frame with these direction lines and no commands.
    pub fn new(directions: Vec<Direction>) -> Self {
        Frame {
            directions,
            commands: Vec::new(),
            separator_raw: None,
        }
    }

    /// Add a `WAIT ticks` command.
    pub fn with_wait(mut self, ticks: u32) -> Self {
        self.commands
            .push(FrameCommand::Wait(Wait { ticks, raw: None }));
        self
    }

    /// Add a `PLAYSOUND sound x y` command (x and y in tiles).
    pub fn with_sound(mut self, sound: &str, x: f64, y: f64) -> Self {
        self.commands.push(FrameCommand::PlaySound(PlaySound {
            sound: RawString::from(sound),
            x,
            y,
            raw: None,
        }));
        self
    }

    /// The sum of the frame's `WAIT` values.
    pub fn wait_ticks(&self) -> u64 {
        self.commands
            .iter()
            .map(|c| match c {
                FrameCommand::Wait(w) => u64::from(w.ticks),
                _ => 0,
            })
            .fold(0u64, u64::saturating_add)
    }

    /// How long the frame shows, in milliseconds, by the TilesEditor / GaniEditorWeb model:
    /// one 50 ms tick plus one per `WAIT` unit, so `WAIT n` lasts (n + 1) × 50 ms (several
    /// `WAIT`s add up). Saturates at `u32::MAX`.
    ///
    /// OpenGraal's client times frames differently: 0.06 s without `WAIT` and n × 0.1 s with
    /// `WAIT n`. levelkit follows the editors, which are what authors see.
    pub fn duration_ms(&self) -> u32 {
        let ticks = self.wait_ticks().saturating_add(1);
        u32::try_from(ticks.saturating_mul(u64::from(TICK_MS))).unwrap_or(u32::MAX)
    }

    /// The `PLAYSOUND` commands.
    pub fn sounds(&self) -> impl Iterator<Item = &PlaySound> {
        self.commands.iter().filter_map(|c| match c {
            FrameCommand::PlaySound(s) => Some(s),
            _ => None,
        })
    }
}

/// One direction line: the sprites drawn for one facing, in drawing order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Direction {
    /// The placements (`spriteRef x y`, comma-separated in the file). Empty for an empty line.
    pub placements: Vec<Placement>,
    /// The line as read, when it differs from the canonical `%4s %3s %3s, …`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

impl Direction {
    /// A direction line without raw text.
    pub fn new(placements: Vec<Placement>) -> Self {
        Direction {
            placements,
            raw: None,
        }
    }
}

/// A sprite drawn at an offset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// Which sprite.
    pub sprite: SpriteRef,
    /// Offset of the sprite's left edge from the actor's origin, pixels (may be fractional).
    pub x: f64,
    /// Offset of the sprite's top edge, pixels.
    pub y: f64,
}

impl Placement {
    /// Sprite `index` at (x, y).
    pub fn new(index: i32, x: f64, y: f64) -> Self {
        Placement {
            sprite: SpriteRef::Index(index),
            x,
            y,
        }
    }
}

/// How a placement names its sprite. In JSON a number, or the string `"PARAM<n>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "SpriteRefRepr", into = "SpriteRefRepr")]
pub enum SpriteRef {
    /// A sprite index.
    Index(i32),
    /// `PARAM<n>`: the index is the value of that parameter at run time.
    Param(u32),
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum SpriteRefRepr {
    Index(i32),
    Name(String),
}

impl TryFrom<SpriteRefRepr> for SpriteRef {
    type Error = String;
    fn try_from(r: SpriteRefRepr) -> Result<Self, String> {
        match r {
            SpriteRefRepr::Index(i) => Ok(SpriteRef::Index(i)),
            SpriteRefRepr::Name(s) => s
                .strip_prefix("PARAM")
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|n| n.parse().ok())
                .map(SpriteRef::Param)
                .ok_or_else(|| format!("sprite reference {s:?} is neither a number nor PARAM<n>")),
        }
    }
}

impl From<SpriteRef> for SpriteRefRepr {
    fn from(r: SpriteRef) -> Self {
        match r {
            SpriteRef::Index(i) => SpriteRefRepr::Index(i),
            SpriteRef::Param(n) => SpriteRefRepr::Name(format!("PARAM{n}")),
        }
    }
}

/// A line after a frame's direction lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameCommand {
    /// `WAIT n`.
    Wait(Wait),
    /// `PLAYSOUND sound x y`.
    PlaySound(PlaySound),
    /// Anything else, kept verbatim.
    Unknown(Unknown),
}

/// `WAIT n`: hold the frame n ticks longer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wait {
    /// Extra ticks of 50 ms.
    pub ticks: u32,
    /// The line as read, when it differs from `WAIT n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// `PLAYSOUND sound x y`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaySound {
    /// The sound file, or `PARAM<n>`. One token.
    pub sound: RawString,
    /// Where the sound plays relative to the actor, in tiles (editors multiply by 16).
    pub x: f64,
    /// Vertical position, tiles.
    pub y: f64,
    /// The line as read, when it differs from `PLAYSOUND sound x y`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<RawString>,
}

/// A line kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unknown {
    /// The line, without its line break.
    pub line: RawString,
}

impl Unknown {
    /// A verbatim line.
    pub fn new(line: &str) -> Self {
        Unknown {
            line: RawString::from(line),
        }
    }
}

/// A block whose body levelkit keeps verbatim (`SCRIPT`, `MOVIE`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextBlock {
    /// The lines between the opening and the closing line, without line breaks.
    pub lines: Vec<RawString>,
    /// The opening line as read, when it is not exactly the keyword.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_raw: Option<RawString>,
    /// The closing line as read, when it is not exactly the keyword.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_raw: Option<RawString>,
}

impl TextBlock {
    /// A block of these lines.
    pub fn new<'a>(lines: impl IntoIterator<Item = &'a str>) -> Self {
        TextBlock {
            lines: lines.into_iter().map(RawString::from).collect(),
            open_raw: None,
            close_raw: None,
        }
    }

    /// The body as one text, lines joined by `\n` (bytes as Windows-1252, for display).
    pub fn text(&self) -> String {
        self.lines
            .iter()
            .map(RawString::display)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

macro_rules! statement_from {
    ($($ty:ident => $variant:ident),* $(,)?) => {
        $(impl From<$ty> for Statement {
            fn from(v: $ty) -> Self {
                Statement::$variant(v)
            }
        })*
    };
}

statement_from! {
    Blank => Blank,
    Sprite => Sprite,
    Attach => Attach,
    Effect => Effect,
    Flag => Flag,
    SetBackTo => SetBackTo,
    SlotDefault => Default,
    BackColor => BackColor,
    FrameCount => Frames,
    AniBlock => Ani,
    Unknown => Unknown,
}

impl Statement {
    /// The statement's keyword as written canonically (`"SPRITE"`, `"ANI"`, …); `""` for blank
    /// and unknown lines.
    pub fn keyword(&self) -> &'static str {
        match self {
            Statement::Blank(_) | Statement::Unknown(_) => "",
            Statement::Sprite(_) => "SPRITE",
            Statement::Attach(a) if a.behind => "ATTACHSPRITE2",
            Statement::Attach(_) => "ATTACHSPRITE",
            Statement::Effect(e) => e.value.keyword(),
            Statement::Flag(f) => f.flag.keyword(),
            Statement::SetBackTo(_) => "SETBACKTO",
            Statement::Default(_) => "DEFAULT",
            Statement::BackColor(_) => "BACKCOLOR",
            Statement::Frames(_) => "FRAMES",
            Statement::Ani(_) => "ANI",
            Statement::Script(_) => "SCRIPT",
            Statement::Movie(_) => "MOVIE",
        }
    }

    /// The same statement without any raw text, so it is written canonically. Blocks keep their
    /// bodies; only their raw opening, closing and separator lines are dropped.
    pub fn canonical(&self) -> Statement {
        let mut s = self.clone();
        s.clear_raw();
        s
    }

    pub(crate) fn clear_raw(&mut self) {
        match self {
            Statement::Blank(b) => b.raw = None,
            Statement::Sprite(s) => s.raw = None,
            Statement::Attach(a) => a.raw = None,
            Statement::Effect(e) => e.raw = None,
            Statement::Flag(f) => f.raw = None,
            Statement::SetBackTo(s) => s.raw = None,
            Statement::Default(d) => d.raw = None,
            Statement::BackColor(b) => b.raw = None,
            Statement::Frames(f) => f.raw = None,
            Statement::Ani(a) => {
                a.open_raw = None;
                a.close_raw = None;
                if let Some(b) = &mut a.end_blank {
                    b.raw = None;
                }
                for f in &mut a.frames {
                    f.separator_raw = None;
                    for d in &mut f.directions {
                        d.raw = None;
                    }
                    for c in &mut f.commands {
                        c.clear_raw();
                    }
                }
            }
            Statement::Script(b) | Statement::Movie(b) => {
                b.open_raw = None;
                b.close_raw = None;
            }
            Statement::Unknown(_) => {}
        }
    }
}

impl FrameCommand {
    pub(crate) fn clear_raw(&mut self) {
        match self {
            FrameCommand::Wait(w) => w.raw = None,
            FrameCommand::PlaySound(p) => p.raw = None,
            FrameCommand::Unknown(_) => {}
        }
    }

    /// The same command without raw text.
    pub fn canonical(&self) -> FrameCommand {
        let mut c = self.clone();
        c.clear_raw();
        c
    }
}

impl Gani {
    /// An empty animation as levelkit writes new files: a `GANI0001` header, LF line endings.
    pub fn new() -> Self {
        Gani {
            header: Some(Header::new(1)),
            statements: Vec::new(),
            layout: Layout::default(),
        }
    }

    /// Drop every raw line text and the line-ending exceptions, so the whole file is written in
    /// levelkit's canonical formatting (keeping the file's main line ending and final newline).
    pub fn canonicalize(&mut self) {
        if let Some(h) = &mut self.header {
            h.raw = None;
        }
        for s in &mut self.statements {
            s.clear_raw();
        }
        self.layout.other_endings.clear();
    }

    /// The sprite definitions in file order.
    pub fn sprites(&self) -> impl Iterator<Item = &Sprite> {
        self.statements.iter().filter_map(|s| match s {
            Statement::Sprite(sp) => Some(sp),
            _ => None,
        })
    }

    /// The sprite with this index (the last definition, as TilesEditor keeps it).
    pub fn sprite(&self, index: i32) -> Option<&Sprite> {
        self.statements.iter().rev().find_map(|s| match s {
            Statement::Sprite(sp) if sp.index == index => Some(sp),
            _ => None,
        })
    }

    /// The `ANI` blocks (real files have one).
    pub fn ani_blocks(&self) -> impl Iterator<Item = &AniBlock> {
        self.statements.iter().filter_map(|s| match s {
            Statement::Ani(a) => Some(a),
            _ => None,
        })
    }

    /// Every frame of every `ANI` block, in order.
    pub fn frames(&self) -> impl Iterator<Item = &Frame> {
        self.ani_blocks().flat_map(|a| a.frames.iter())
    }

    /// Whether a flag is set after all statements (the last statement of that flag decides).
    pub fn flag(&self, kind: FlagKind) -> bool {
        self.statements
            .iter()
            .rev()
            .find_map(|s| match s {
                Statement::Flag(f) if f.flag == kind => Some(f.sets()),
                _ => None,
            })
            .unwrap_or(false)
    }

    /// Direction lines per frame: 1 for a single-direction animation, else 4.
    pub fn direction_count(&self) -> usize {
        if self.flag(FlagKind::SingleDirection) {
            1
        } else {
            FOUR_DIRECTIONS
        }
    }

    /// The `SETBACKTO` animation, if any (the last one).
    pub fn set_back_to(&self) -> Option<&RawString> {
        self.statements.iter().rev().find_map(|s| match s {
            Statement::SetBackTo(b) => Some(&b.name),
            _ => None,
        })
    }

    /// The `DEFAULT<SLOT>` statements as (slot, value), in file order.
    pub fn defaults(&self) -> impl Iterator<Item = (&RawString, &RawString)> {
        self.statements.iter().filter_map(|s| match s {
            Statement::Default(d) => Some((&d.slot, &d.value)),
            _ => None,
        })
    }

    /// The `SCRIPT` block, if any (the first one).
    pub fn script(&self) -> Option<&TextBlock> {
        self.statements.iter().find_map(|s| match s {
            Statement::Script(b) => Some(b),
            _ => None,
        })
    }

    /// Each frame's duration in milliseconds (see [`Frame::duration_ms`]).
    pub fn frame_durations_ms(&self) -> Vec<u32> {
        self.frames().map(Frame::duration_ms).collect()
    }

    /// The whole animation's duration in milliseconds (see [`Frame::duration_ms`]).
    pub fn total_duration_ms(&self) -> u64 {
        self.frames()
            .map(|f| u64::from(f.duration_ms()))
            .fold(0u64, u64::saturating_add)
    }
}
