//! The lossless WWD model: every field of the header, the planes, the objects and the tile
//! properties, reserved words included, plus the section layout when a file does not use the
//! editor's own.

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

use crate::strings::RawString;

/// Size of the file header, which is also the value of its first dword.
pub const HEADER_SIZE: u32 = 1524;
/// Size of a plane header, which is also the value of its first dword.
pub const PLANE_HEADER_SIZE: u32 = 160;
/// Size of an object record without its four strings.
pub const OBJECT_FIXED_SIZE: u32 = 284;
/// Size of the tile-properties section header.
pub const TILE_PROPERTIES_HEADER_SIZE: u32 = 32;
/// Tile cell value: nothing is drawn.
pub const TILE_EMPTY: u32 = 0xFFFF_FFFF;
/// Tile cell value: the cell is painted with the plane's fill colour.
pub const TILE_FILL: u32 = 0xEEEE_EEEE;

/// A whole WWD level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wwd {
    /// The 1524-byte file header (offsets, counts, size and checksum are derived on writing).
    pub header: Header,
    /// The planes in file order.
    pub planes: Vec<Plane>,
    /// The tile-properties section: record *k* describes tile id *k*.
    pub tile_properties: TileProperties,
    /// Where the sections lay in the uncompressed image, kept only when that differs from the
    /// editor's contiguous layout (which the writer uses when this is `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// How the writer deflates the main block when the level is written compressed, and, for a
    /// level read from a compressed file, that file's stream (see [`Deflate`]). Left out of JSON
    /// when it is (or settles to) the default, zlib level 6.
    #[serde(default, skip_serializing_if = "Deflate::is_default")]
    pub compression: Deflate,
    /// What the reader found in the file's derived fields. The writer computes the values
    /// afresh, but for an uncompressed file keeps a stored checksum that is not the editor's
    /// while the main block is unedited (a compressed file's is kept with its stream, in
    /// [`Wwd::compression`]); validation compares the two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceInfo>,
}

bitflags! {
    /// Header flags (`0x008`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct HeaderFlags: u32 {
        /// Objects are drawn interleaved with planes by z.
        const USE_Z_COORDS = 0x1;
        /// The main block is a zlib stream.
        const COMPRESS = 0x2;
    }
}

bitflags! {
    /// Plane flags (plane header `0x08`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct PlaneFlags: u32 {
        /// The main (action) plane: the one with the objects and tile attributes.
        const MAIN_PLANE = 0x01;
        /// Not drawn.
        const NO_DRAW = 0x02;
        /// Repeats horizontally.
        const X_WRAPPING = 0x04;
        /// Repeats vertically.
        const Y_WRAPPING = 0x08;
        /// The editor sizes tiles automatically.
        const AUTO_TILE_SIZE = 0x10;
    }
}

bitflags! {
    /// Object "add" flags (object `0x24`). Gruntz never reads them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct AddFlags: u32 {
        /// Only on the difficult setting.
        const DIFFICULT = 0x01;
        /// Eye candy.
        const EYE_CANDY = 0x02;
        /// High detail only.
        const HIGH_DETAIL = 0x04;
        /// Multiplayer only.
        const MULTIPLAYER = 0x08;
        /// Needs extra memory.
        const EXTRA_MEMORY = 0x10;
        /// Needs a fast CPU.
        const FAST_CPU = 0x20;
    }
}

bitflags! {
    /// Object dynamic flags (object `0x28`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct DynamicFlags: u32 {
        /// Not hit by anything.
        const NO_HIT = 0x1;
        /// Active even off screen.
        const ALWAYS_ACTIVE = 0x2;
        /// Safe.
        const SAFE = 0x4;
        /// Damages on contact.
        const AUTO_HIT_DAMAGE = 0x8;
    }
}

bitflags! {
    /// Object draw flags (object `0x2C`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct DrawFlags: u32 {
        /// Not drawn.
        const NO_DRAW = 0x1;
        /// Mirrored horizontally.
        const MIRROR = 0x2;
        /// Flipped vertically.
        const INVERT = 0x4;
        /// Flashing.
        const FLASH = 0x8;
    }
}

bitflags! {
    /// Object user flags 1–12 (object `0x30`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
    pub struct UserFlags: u32 {
        /// User flag 1.
        const FLAG_1 = 0x001;
        /// User flag 2.
        const FLAG_2 = 0x002;
        /// User flag 3.
        const FLAG_3 = 0x004;
        /// User flag 4.
        const FLAG_4 = 0x008;
        /// User flag 5.
        const FLAG_5 = 0x010;
        /// User flag 6.
        const FLAG_6 = 0x020;
        /// User flag 7.
        const FLAG_7 = 0x040;
        /// User flag 8.
        const FLAG_8 = 0x080;
        /// User flag 9.
        const FLAG_9 = 0x100;
        /// User flag 10.
        const FLAG_10 = 0x200;
        /// User flag 11.
        const FLAG_11 = 0x400;
        /// User flag 12.
        const FLAG_12 = 0x800;
    }
}

/// A NUL-terminated string in a fixed-size slot (`char[N]`).
///
/// `text` is everything before the first NUL (all N bytes when the slot has none: the editor then
/// reads on into the next field, see the validation warning). `after_nul` keeps the bytes after
/// the NUL when any of them is not zero, so leftovers of an old value survive a round trip; in
/// JSON a clean slot is a plain string and a dirty one an object with both parts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SlotStringRepr", into = "SlotStringRepr")]
pub struct SlotString {
    /// The string's bytes, without the terminator.
    pub text: RawString,
    /// The rest of the slot after the NUL, when it is not all zeros.
    pub after_nul: Option<RawString>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum SlotStringRepr {
    Clean(RawString),
    Dirty {
        text: RawString,
        after_nul: RawString,
    },
}

impl From<SlotStringRepr> for SlotString {
    fn from(repr: SlotStringRepr) -> Self {
        match repr {
            SlotStringRepr::Clean(text) => SlotString {
                text,
                after_nul: None,
            },
            SlotStringRepr::Dirty { text, after_nul } => SlotString {
                text,
                after_nul: Some(after_nul),
            },
        }
    }
}

impl From<SlotString> for SlotStringRepr {
    fn from(s: SlotString) -> Self {
        match s.after_nul {
            None => SlotStringRepr::Clean(s.text),
            Some(after_nul) => SlotStringRepr::Dirty {
                text: s.text,
                after_nul,
            },
        }
    }
}

impl SlotString {
    /// A clean slot holding `text`.
    pub fn new(text: impl Into<RawString>) -> Self {
        SlotString {
            text: text.into(),
            after_nul: None,
        }
    }
}

impl From<&str> for SlotString {
    fn from(s: &str) -> Self {
        SlotString::new(s)
    }
}

/// Slot sizes of the header strings, in field order.
pub mod slot {
    /// `name`, `author`, `birth`, and plane names.
    pub const NAME: usize = 64;
    /// `rez_file`.
    pub const REZ_FILE: usize = 256;
    /// `image_dir`, `pal_rez`, `launch_app`, `image_set1..4`.
    pub const PATH: usize = 128;
    /// `prefix1..4`.
    pub const PREFIX: usize = 32;
}

/// The file header, without the fields the writer derives (header size, plane count, section
/// offsets, decompressed size, checksum).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// `0x004`, reserved (0 in real files).
    pub unknown1: u32,
    /// `0x008`: use z coordinates, compressed main block.
    pub flags: HeaderFlags,
    /// `0x00C`, reserved.
    pub unknown2: u32,
    /// `0x010` level name.
    pub name: SlotString,
    /// `0x050` author.
    pub author: SlotString,
    /// `0x090` creation date, as text.
    pub birth: SlotString,
    /// `0x0D0` REZ archive path.
    pub rez_file: SlotString,
    /// `0x1D0` tile directory (`\LEVEL1\TILES`).
    pub image_dir: SlotString,
    /// `0x250` palette path.
    pub pal_rez: SlotString,
    /// `0x2D0` start x, pixels.
    pub start_x: i32,
    /// `0x2D4` start y, pixels.
    pub start_y: i32,
    /// `0x2D8`, reserved; 2 in at least one real level.
    pub unknown3: u32,
    /// `0x2F0`, reserved.
    pub unknown4: u32,
    /// `0x2F4` game executable path.
    pub launch_app: SlotString,
    /// `0x374..0x574` image directories 1–4.
    pub image_sets: [SlotString; 4],
    /// `0x574..0x5F4` name prefixes for image directories 1–4.
    pub prefixes: [SlotString; 4],
}

/// One plane: header fields, image-set names, tile grid and objects.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plane {
    /// `0x04`, reserved.
    pub unknown1: u32,
    /// `0x08` plane flags.
    pub flags: PlaneFlags,
    /// `0x0C`, reserved.
    pub unknown2: u32,
    /// `0x10` plane name.
    pub name: SlotString,
    /// `0x50` width in pixels (tiles wide × tile width in real files).
    pub width_px: i32,
    /// `0x54` height in pixels.
    pub height_px: i32,
    /// `0x58` tile width in pixels (wwd.txt's `tiles_width`).
    pub tile_width: i32,
    /// `0x5C` tile height in pixels.
    pub tile_height: i32,
    /// `0x60` grid width in tiles.
    pub tiles_wide: i32,
    /// `0x64` grid height in tiles.
    pub tiles_high: i32,
    /// `0x68` scroll origin x (wwd.txt's `unknown3`; 0 in real files).
    pub origin_x: i32,
    /// `0x6C` scroll origin y (wwd.txt's `unknown4`).
    pub origin_y: i32,
    /// `0x70` parallax x in percent (100 moves with the camera).
    pub movement_x_percent: i32,
    /// `0x74` parallax y in percent.
    pub movement_y_percent: i32,
    /// `0x78` colour of `0xEEEEEEEE` cells.
    pub fill_color: i32,
    /// `0x90` draw-order threshold against object z.
    pub z_coord: i32,
    /// `0x94`, reserved.
    pub unknown5: u32,
    /// `0x98`, reserved.
    pub unknown6: u32,
    /// `0x9C`, reserved.
    pub unknown7: u32,
    /// The plane's image-set names (`num_image_sets` of them; GLE uses only the first).
    pub image_sets: Vec<RawString>,
    /// The tile grid, row by row, `tiles_wide × tiles_high` raw cell values (see [`Tile`]).
    pub tiles: Vec<u32>,
    /// The plane's objects (only the main plane has any in real files).
    pub objects: Vec<Object>,
}

/// A decoded tile cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tile {
    /// `0xFFFFFFFF`: nothing drawn.
    Empty,
    /// `0xEEEEEEEE`: painted with the plane's fill colour.
    Fill,
    /// An image: the high 16 bits select the plane's image set, the low 16 bits are the tile id
    /// (and the index into the tile-properties table).
    Image {
        /// Index into the plane's image-set names (0 in every real file).
        set: u16,
        /// Tile id.
        id: u16,
    },
}

impl Tile {
    /// Decode a raw cell value.
    pub fn from_raw(raw: u32) -> Tile {
        match raw {
            TILE_EMPTY => Tile::Empty,
            TILE_FILL => Tile::Fill,
            _ => Tile::Image {
                set: (raw >> 16) as u16,
                id: (raw & 0xFFFF) as u16,
            },
        }
    }

    /// Encode to a raw cell value. (An image with set 0xEEEE and id 0xEEEE *is* the fill value;
    /// the format cannot tell them apart, and neither do we.)
    pub fn to_raw(self) -> u32 {
        match self {
            Tile::Empty => TILE_EMPTY,
            Tile::Fill => TILE_FILL,
            Tile::Image { set, id } => (u32::from(set) << 16) | u32::from(id),
        }
    }
}

impl Plane {
    /// Number of cells the grid dimensions call for, if they are not negative.
    pub fn cell_count(&self) -> Option<usize> {
        let w = usize::try_from(self.tiles_wide).ok()?;
        let h = usize::try_from(self.tiles_high).ok()?;
        w.checked_mul(h)
    }

    /// The decoded cell at column `x`, row `y`.
    pub fn tile(&self, x: usize, y: usize) -> Option<Tile> {
        let w = usize::try_from(self.tiles_wide).ok()?;
        if x >= w {
            return None;
        }
        let i = y.checked_mul(w)?.checked_add(x)?;
        self.tiles.get(i).copied().map(Tile::from_raw)
    }

    /// True for the main (action) plane.
    pub fn is_main(&self) -> bool {
        self.flags.contains(PlaneFlags::MAIN_PLANE)
    }
}

/// A rectangle of four i32 (`left, top, right, bottom`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    /// Left.
    pub left: i32,
    /// Top.
    pub top: i32,
    /// Right.
    pub right: i32,
    /// Bottom.
    pub bottom: i32,
}

impl Rect {
    /// A rectangle from its four sides.
    pub const fn new(left: i32, top: i32, right: i32, bottom: i32) -> Self {
        Rect {
            left,
            top,
            right,
            bottom,
        }
    }

    /// True when all four values are zero (the editor's "unset").
    pub fn is_zero(&self) -> bool {
        *self == Rect::default()
    }
}

/// The value kinds of [`Object::object_type`], a single value, not a mask.
///
/// The editor's user3 is `0x300` and user4 `0x400`, so in the hit-type *mask* user3 overlaps user1
/// (`0x100`) and user2 (`0x200`) and cannot be told from both of them together; WapMap uses clean
/// bits instead. Both fields are therefore kept as raw `u32` and only decoded on request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// `0x001`.
    Generic,
    /// `0x002`.
    Player,
    /// `0x004`.
    Enemy,
    /// `0x008`.
    Powerup,
    /// `0x010`.
    Shot,
    /// `0x020`.
    PShot,
    /// `0x040`.
    EShot,
    /// `0x080`.
    Special,
    /// `0x100` (the editor recommends against it).
    User1,
    /// `0x200` (the editor recommends against it).
    User2,
    /// `0x300` (yes: user1 | user2).
    User3,
    /// `0x400`.
    User4,
}

impl ObjectKind {
    /// Every kind with its raw value, in value order.
    pub const ALL: [(ObjectKind, u32, &'static str); 12] = [
        (ObjectKind::Generic, 0x001, "generic"),
        (ObjectKind::Player, 0x002, "player"),
        (ObjectKind::Enemy, 0x004, "enemy"),
        (ObjectKind::Powerup, 0x008, "powerup"),
        (ObjectKind::Shot, 0x010, "shot"),
        (ObjectKind::PShot, 0x020, "p-shot"),
        (ObjectKind::EShot, 0x040, "e-shot"),
        (ObjectKind::Special, 0x080, "special"),
        (ObjectKind::User1, 0x100, "user1"),
        (ObjectKind::User2, 0x200, "user2"),
        (ObjectKind::User3, 0x300, "user3"),
        (ObjectKind::User4, 0x400, "user4"),
    ];

    /// The kind a raw `object_type` value names, if any.
    pub fn from_raw(raw: u32) -> Option<ObjectKind> {
        ObjectKind::ALL
            .iter()
            .find(|(_, v, _)| *v == raw)
            .map(|(k, _, _)| *k)
    }

    /// The editor's name of this kind.
    pub fn name(self) -> &'static str {
        ObjectKind::ALL
            .iter()
            .find(|(k, _, _)| *k == self)
            .map(|(_, _, n)| *n)
            .unwrap_or("")
    }
}

/// Hit-type mask value meaning "hits everything".
pub const HIT_TYPE_ALL: u32 = 0xFFFF_FFFF;

/// One object record (284 fixed bytes and four length-prefixed strings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Object {
    /// `0x000` id.
    pub id: i32,
    /// `0x014` x, pixels.
    pub x: i32,
    /// `0x018` y, pixels.
    pub y: i32,
    /// `0x01C` z (draw order).
    pub z: i32,
    /// `0x020` "i" (Gruntz: sprite frame index, -1 none).
    pub i: i32,
    /// `0x024` add flags.
    pub add_flags: AddFlags,
    /// `0x028` dynamic flags.
    pub dynamic_flags: DynamicFlags,
    /// `0x02C` draw flags.
    pub draw_flags: DrawFlags,
    /// `0x030` user flags.
    pub user_flags: UserFlags,
    /// `0x034`.
    pub score: i32,
    /// `0x038`.
    pub points: i32,
    /// `0x03C`.
    pub powerup: i32,
    /// `0x040`.
    pub damage: i32,
    /// `0x044`.
    pub smarts: i32,
    /// `0x048`.
    pub health: i32,
    /// `0x04C`.
    pub move_rect: Rect,
    /// `0x05C`.
    pub hit_rect: Rect,
    /// `0x06C`.
    pub attack_rect: Rect,
    /// `0x07C`.
    pub clip_rect: Rect,
    /// `0x08C`.
    pub user_rect1: Rect,
    /// `0x09C`.
    pub user_rect2: Rect,
    /// `0x0AC..0x0CC` user values 1–8.
    pub user_values: [i32; 8],
    /// `0x0CC`.
    pub min_x: i32,
    /// `0x0D0`.
    pub min_y: i32,
    /// `0x0D4`.
    pub max_x: i32,
    /// `0x0D8`.
    pub max_y: i32,
    /// `0x0DC`.
    pub speed_x: i32,
    /// `0x0E0`.
    pub speed_y: i32,
    /// `0x0E4`.
    pub tweak_x: i32,
    /// `0x0E8`.
    pub tweak_y: i32,
    /// `0x0EC`.
    pub counter: i32,
    /// `0x0F0`.
    pub speed: i32,
    /// `0x0F4`.
    pub width: i32,
    /// `0x0F8`.
    pub height: i32,
    /// `0x0FC`.
    pub direction: i32,
    /// `0x100`.
    pub face_dir: i32,
    /// `0x104`.
    pub time_delay: i32,
    /// `0x108`.
    pub frame_delay: i32,
    /// `0x10C` object type, a single value (see [`ObjectKind`]); kept raw.
    pub object_type: u32,
    /// `0x110` hit-type mask, or [`HIT_TYPE_ALL`]; kept raw (see [`ObjectKind`] on user3).
    pub hit_type_flags: u32,
    /// `0x114`.
    pub move_res_x: u32,
    /// `0x118`.
    pub move_res_y: u32,
    /// Name string.
    pub name: RawString,
    /// Logic (behaviour) name, e.g. `TreasurePowerup`.
    pub logic: RawString,
    /// Image set, e.g. `GAME_TREASURE_COINS`.
    pub image_set: RawString,
    /// Animation (in Gruntz, sometimes an ambient sound).
    pub animation: RawString,
}

impl Object {
    /// Bytes this record takes in the file.
    pub fn record_size(&self) -> u64 {
        u64::from(OBJECT_FIXED_SIZE)
            + self.name.len() as u64
            + self.logic.len() as u64
            + self.image_set.len() as u64
            + self.animation.len() as u64
    }

    /// The decoded object type, if it is one of the editor's values.
    pub fn kind(&self) -> Option<ObjectKind> {
        ObjectKind::from_raw(self.object_type)
    }

    /// The hit-type mask decoded into kinds by the editor's definitions (`0x300` reads as user1,
    /// user2 and user3 at once, which is exactly the editor's ambiguity). `None` for "all".
    pub fn hit_kinds(&self) -> Option<Vec<ObjectKind>> {
        if self.hit_type_flags == HIT_TYPE_ALL {
            return None;
        }
        Some(
            ObjectKind::ALL
                .iter()
                .filter(|(_, v, _)| self.hit_type_flags & v == *v)
                .map(|(k, _, _)| *k)
                .collect(),
        )
    }
}

/// The tile-properties section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileProperties {
    /// `0x00`: 0x20 in every real file (probably this header's size).
    pub unknown1: u32,
    /// `0x04`, reserved.
    pub unknown2: u32,
    /// `0x0C..0x20`, reserved words 3–7.
    pub unknown3_7: [u32; 5],
    /// Record *k* describes tile id *k* (id 0 is filler: game ids start at 1).
    pub records: Vec<TileProperty>,
}

impl Default for TileProperties {
    fn default() -> Self {
        TileProperties {
            unknown1: TILE_PROPERTIES_HEADER_SIZE,
            unknown2: 0,
            unknown3_7: [0; 5],
            records: Vec::new(),
        }
    }
}

/// Standard tile attribute values (WapWorld and GLE); Gruntz adds values from 0x0A up.
pub mod attribute {
    /// Passable.
    pub const CLEAR: i32 = 0;
    /// Solid from every side.
    pub const SOLID: i32 = 1;
    /// One-way platform, solid from above.
    pub const GROUND: i32 = 2;
    /// Climbable.
    pub const CLIMB: i32 = 3;
    /// Kills.
    pub const DEATH: i32 = 4;

    /// The editor's name of a standard attribute.
    pub fn name(value: i32) -> Option<&'static str> {
        Some(match value {
            CLEAR => "clear",
            SOLID => "solid",
            GROUND => "ground",
            CLIMB => "climb",
            DEATH => "death",
            _ => return None,
        })
    }
}

/// One tile-property record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileProperty {
    /// `0x04`, reserved.
    pub unknown: u32,
    /// `0x08` tile width in pixels.
    pub width: u32,
    /// `0x0C` tile height in pixels.
    pub height: u32,
    /// The type-specific part.
    pub attr: TileAttr,
}

/// The three record types.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TileAttr {
    /// Type 1: one attribute for the whole tile.
    Single {
        /// The attribute.
        attribute: i32,
    },
    /// Type 2: one attribute inside a rectangle, another outside it.
    Double {
        /// Attribute outside the rectangle.
        outside: i32,
        /// Attribute inside the rectangle.
        inside: i32,
        /// The rectangle, in tile pixels, **inclusive** on all four sides (a full-width lower
        /// part of a 64-px tile is `0,12,63,63`).
        rect: Rect,
    },
    /// Type 3: one attribute byte per pixel, row by row (`width × height` bytes). Occurs in real
    /// custom Claw levels; the bytes there look like uninitialised memory and are kept opaque.
    Mask {
        /// The mask bytes.
        mask: Vec<u8>,
    },
}

impl TileAttr {
    /// The record's type code (1, 2 or 3).
    pub fn type_code(&self) -> u32 {
        match self {
            TileAttr::Single { .. } => 1,
            TileAttr::Double { .. } => 2,
            TileAttr::Mask { .. } => 3,
        }
    }
}

impl TileProperty {
    /// Bytes this record takes in the file.
    pub fn record_size(&self) -> u64 {
        16 + match &self.attr {
            TileAttr::Single { .. } => 4,
            TileAttr::Double { .. } => 24,
            TileAttr::Mask { mask } => mask.len() as u64,
        }
    }

    /// A single-attribute record for a tile of `size` pixels.
    pub fn single(size: u32, attribute: i32) -> Self {
        TileProperty {
            unknown: 0,
            width: size,
            height: size,
            attr: TileAttr::Single { attribute },
        }
    }
}

/// Absolute offsets of every section in the uncompressed image, and the bytes no section covers.
///
/// The reader keeps this only for files that do not use the editor's contiguous order (header,
/// plane headers, each plane's tiles, the shared image-set name run, each plane's objects, tile
/// properties, nothing after); the writer then puts each section back where it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Header `0x2E0`.
    pub offset_planes: u32,
    /// Header `0x2E4`.
    pub offset_tile_properties: u32,
    /// Per plane, in plane order.
    pub planes: Vec<PlaneLayout>,
    /// Byte runs of the image that no section covers (padding, trailing data), kept verbatim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// Where one plane's sections are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaneLayout {
    /// Plane header `0x84`.
    pub offset_tiles: u32,
    /// Plane header `0x88`: this plane's first name inside the shared run.
    pub offset_image_sets: u32,
    /// Plane header `0x8C` (0 when the plane has no objects, in editor files).
    pub offset_objects: u32,
}

/// Bytes at an offset that belong to no section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// Absolute offset in the uncompressed image.
    pub offset: u32,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Facts about the file a model was read from: derived fields as stored, and what they should
/// have been. The writer uses only the checksums (see [`Wwd::source`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceInfo {
    /// Length of the file.
    pub file_len: u64,
    /// Header `0x2EC` as stored.
    pub stored_checksum: u32,
    /// The editor's checksum of the main block as stored.
    pub computed_checksum: u32,
    /// Header `0x2E8` as stored.
    pub stored_decompressed_size: u32,
    /// Length of the main block after inflating (equal to its stored length when uncompressed).
    pub main_block_len: u64,
    /// Bytes after the end of the zlib stream (0 in real files).
    pub bytes_after_stream: u64,
    /// The zlib header bytes (`78 9C` for level 6), when compressed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zlib_header: Option<[u8; 2]>,
}

pub use super::deflate::{Deflate, OriginalStream};
