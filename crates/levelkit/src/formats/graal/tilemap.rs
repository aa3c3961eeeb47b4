//! Graal levels <-> common [`TileMap`], both ways, for `.graal` and `.nw`.
//!
//! # The map
//!
//! * The tileset is the 128 × 32 atlas of 16-px tiles (`pics1.png` in the classic client). A
//!   tile index becomes the atlas cell the notes' formula gives (`column = (i / 512) * 16 +
//!   i % 16`, `row = (i / 16) % 32`), and its global id is `1 + row * 128 + column`
//!   ([`gid`]; [`tile_index`] is the inverse).
//! * Each board layer becomes a 64 × 64 tile layer `layer N` with the int property
//!   `graal_layer` = N; transparent cells become gid 0.
//! * Links become rectangles whose `dest_x` / `dest_y` are string properties holding the word
//!   the level writes (`30.5`, `playerx`, `playerx+25`, read back as written; a float or int
//!   property, as older maps have, is read as that number). Chests become 2 × 2-tile
//!   rectangles; signs, baddies and NPCs points; all in pixels, with every field as a typed
//!   property (NPC scripts and sign texts included). When a position in tiles would not survive
//!   a pixel value rounded to 6 significant digits (as Tiled may store it), the float properties
//!   `tile_x` / `tile_y` hold it exactly.
//!
//! That is the *meaning*, what a user edits. [`graal_to_tilemap`] and
//! [`crate::formats::graal::nw::tilemap::nw_to_tilemap`] add the *raw form* of whatever the meaning does
//! not determine (property names start with `graal_` or `nw_`, see the constants below), and
//! [`tilemap_to_graal`] / [`crate::formats::graal::nw::tilemap::tilemap_to_nw`] use a raw form only
//! while it still agrees with the meaning the map now shows, field by field. So an unedited map
//! gives back the original bytes, and an edit made in Tiled comes back as that edit alone.
//!
//! # From a map to a level
//!
//! [`level_from_tilemap`] reads the meaning. Positions: a point's tile position is `tile_x` /
//! `tile_y` while the pixel position is within 0.01 px of it, else the pixel position / 16
//! (exact: `.nw` writes it as the shortest decimal, e.g. 437 px -> `27.3125`); the binary format
//! stores whole tiles, so there a moved object is rounded to the nearest tile, half away from
//! zero, with a warning when it was not on a tile. Link rectangles are rounded to whole tiles in
//! both formats. Properties are looked up by name (Tiled sorts them), and integers written as
//! strings (Tiled keeps ints in 32 bits) are accepted. Anything that cannot become a level is an
//! error naming the layer, object and property: a tile layer that is not 64 × 64, a gid outside
//! the atlas, an object class other than `link`, `sign`, `chest`, `baddy` and `npc`, a property
//! of the wrong type, a missing `dest`, `dest_x`, `dest_y` (links), `item` (chests) or `type`
//! (baddies). Other properties have defaults (empty text, sign -1, no layer), so objects added in
//! Tiled need only those. Extra tile layers become extra board layers; every object group is read.
//!
//! A map made from one Graal format and written as the other ignores the other format's raw
//! forms and converts the meaning as [`crate::document::Model::convert_to`] does.

use super::binary::level::{
    baddy_meaning, baddy_record, board_tiles, chest_record, from_level, link_line, link_meaning,
    link_record, npc_record, npc_script_meaning, npc_script_record, sign_glyphs, sign_meaning,
    sign_record, to_level, verse_line,
};
use super::binary::model::*;
use super::binary::write::decode_packets;
use super::level::*;
use crate::error::{Error, Location, Result, Warning};
use crate::registry::Format;
use crate::strings::RawString;
use crate::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, PropertyError, PropertyValue, Shape, TileLayer,
    TileMap, Tileset,
};

/// Pixels per tile.
pub const TILE_PX: u32 = 16;
/// Atlas width in tiles.
pub const ATLAS_COLUMNS: u32 = 128;
/// Atlas height in tiles.
pub const ATLAS_ROWS: u32 = 32;

/// Tiles in the atlas.
pub const ATLAS_TILES: u32 = ATLAS_COLUMNS * ATLAS_ROWS;

/// Object property (float): the exact x in tiles, when the pixel x may not carry it.
pub const TILE_X: &str = "tile_x";
/// Object property (float): the exact y in tiles, when the pixel y may not carry it.
pub const TILE_Y: &str = "tile_y";
/// Tile layer property (int): the board's layer number.
pub const GRAAL_LAYER: &str = "graal_layer";
/// Object property (raw string, see [`escape_raw`]): the bytes of a binary record's part whose
/// spelling its meaning does not determine: a link's line, a baddy's verse line, an NPC's
/// script (0xA7 line breaks), a sign's text bytes. Present only when they differ from what the
/// meaning would be written as.
pub const GRAAL_RAW: &str = "graal_raw";
/// Object property (raw string): the statement's exact lines, when the meaning does not
/// determine them.
pub const NW_RAW: &str = "nw_raw";
/// Map property (string): the binary header, e.g. `GR-V1.03`. Its presence marks a map made
/// from a `.graal` file.
pub const GRAAL_VERSION: &str = "graal_version";
/// Map property (string `empty`), present when the link section ends with an empty line.
pub const GRAAL_LINKS_END: &str = "graal_links_end";
/// Map property (string `empty`), present when the NPC section ends with an empty line.
pub const GRAAL_NPCS_END: &str = "graal_npcs_end";
/// Map property (string `empty`), present when the chest section ends with an empty line.
pub const GRAAL_CHESTS_END: &str = "graal_chests_end";
/// Map property (raw string): the rest of the line after the baddy terminator, when not empty.
pub const GRAAL_BADDIES_END: &str = "graal_baddies_end";
/// Map property (raw string): present when the sign section ends with an empty line, holding
/// the bytes after it.
pub const GRAAL_SIGNS_END: &str = "graal_signs_end";
/// Map property (string): the positions, among the chest records, of null chests
/// (`FF FF FF 00`), comma-separated.
pub const GRAAL_NULL_CHESTS: &str = "graal_null_chests";
/// Map property (string): link lines that do not parse, one per line as `index raw`.
pub const GRAAL_UNPARSED_LINKS: &str = "graal_unparsed_links";
/// Tile layer property (string): the board's packets, 4 hex digits each, when our encoder
/// would write others; used while they still decode to the layer's tiles.
pub const GRAAL_PACKETS: &str = "graal_packets";
/// Tile layer property (int): the unused bits after the board's last packet, when not 0.
pub const GRAAL_PAD_BITS: &str = "graal_pad_bits";

/// The global id of a tile index in the atlas tileset (first gid 1).
pub fn gid(index: u16) -> u32 {
    let (col, row) = atlas_position(index);
    1 + u32::from(row) * ATLAS_COLUMNS + u32::from(col)
}

/// The tile index of a local id in the atlas tileset (`gid - first_gid`), the inverse of
/// [`gid`]; `None` outside the atlas.
pub fn tile_index(local: u32) -> Option<u16> {
    if local >= ATLAS_TILES {
        return None;
    }
    let (row, col) = (local / ATLAS_COLUMNS, local % ATLAS_COLUMNS);
    u16::try_from((col / 16) * 512 + row * 16 + col % 16).ok()
}

/// Bytes as a raw-form string: Latin-1 characters, except `\\` for a backslash and `\xHH` for
/// control bytes (0x00-0x1F, 0x7F-0x9F), which XML (TMX) cannot carry or editors mangle.
pub fn escape_raw(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7E | 0xA0..=0xFF => out.push(char::from(b)),
            _ => out.push_str(&format!("\\x{b:02X}")),
        }
    }
    out
}

/// The bytes of a raw-form string ([`escape_raw`]); `None` if it is not one.
pub fn unescape_raw(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(u8::try_from(u32::from(c)).ok()?);
            continue;
        }
        match chars.next()? {
            '\\' => out.push(b'\\'),
            'x' => {
                let hi = chars.next()?.to_digit(16)?;
                let lo = chars.next()?.to_digit(16)?;
                out.push(u8::try_from(hi * 16 + lo).ok()?);
            }
            _ => return None,
        }
    }
    Some(out)
}

fn px(tiles: f64) -> f64 {
    tiles * f64::from(TILE_PX)
}

/// A link coordinate as a string property, exactly as written (`30.5`, `15.50`,
/// `playerx+25`).
fn coord_value(c: &LinkCoord) -> PropertyValue {
    PropertyValue::String(c.0.to_editor_text())
}

/// Whether a tile position survives as pixels rounded to 6 significant digits.
fn survives_pixels(tiles: f64) -> bool {
    let p = px(tiles);
    p.is_finite()
        && format!("{p:.5e}")
            .parse::<f64>()
            .is_ok_and(|r| r / f64::from(TILE_PX) == tiles)
}

/// Set an object's pixel position, and `tile_x` / `tile_y` when the pixels may not carry it.
fn place(o: &mut MapObject, x: f64, y: f64) {
    o.x = px(x);
    o.y = px(y);
    if !survives_pixels(x) {
        o.properties.push(TILE_X, PropertyValue::Float(x));
    }
    if !survives_pixels(y) {
        o.properties.push(TILE_Y, PropertyValue::Float(y));
    }
}

fn layer_prop(p: &mut Properties, layer: Option<i32>) {
    if let Some(l) = layer {
        p.int("layer", l);
    }
}

fn object(id: u32, name: String, class: &str, shape: Shape) -> MapObject {
    MapObject {
        id,
        name,
        class: class.into(),
        x: 0.0,
        y: 0.0,
        shape,
        gid: None,
        visible: true,
        properties: Properties::new(),
    }
}

/// The object of a link.
pub fn link_object(l: &Link, id: u32) -> MapObject {
    let mut o = object(
        id,
        l.dest.to_editor_text(),
        "link",
        Shape::Rect {
            width: px(f64::from(l.width)),
            height: px(f64::from(l.height)),
        },
    );
    o.properties
        .string("dest", l.dest.to_editor_text())
        .push("dest_x", coord_value(&l.dest_x))
        .push("dest_y", coord_value(&l.dest_y));
    if let Some((dest_layer, layer)) = l.layers {
        o.properties
            .int("dest_layer", dest_layer)
            .int("layer", layer);
    }
    place(&mut o, f64::from(l.x), f64::from(l.y));
    o
}

/// The object of a sign; its text is the `.nw` spelling of its glyphs.
pub fn sign_object(s: &Sign, id: u32) -> MapObject {
    let mut o = object(id, String::new(), "sign", Shape::Point);
    o.properties.string("text", sign_text::to_text(&s.glyphs));
    layer_prop(&mut o.properties, s.layer);
    place(&mut o, s.x, s.y);
    o
}

/// The object of a chest, named after its item.
pub fn chest_object(c: &Chest, id: u32) -> MapObject {
    let item = usize::try_from(c.item)
        .ok()
        .and_then(|i| CHEST_ITEMS.get(i))
        .copied()
        .unwrap_or("");
    let mut o = object(
        id,
        item.into(),
        "chest",
        Shape::Rect {
            width: px(2.0),
            height: px(2.0),
        },
    );
    o.properties.int("item", c.item).int("sign", c.sign);
    layer_prop(&mut o.properties, c.layer);
    place(&mut o, c.x, c.y);
    o
}

/// Property names of the verses, in file order.
fn verse_name(k: usize) -> String {
    ["verse_sight", "verse_hurt", "verse_attack"]
        .get(k)
        .map_or_else(|| format!("verse{k}"), |n| (*n).to_string())
}

/// The object of a baddy, named after its type.
pub fn baddy_object(b: &Baddy, id: u32) -> MapObject {
    let kind = BADDY_TYPES.get(usize::from(b.kind)).copied().unwrap_or("");
    let mut o = object(id, kind.into(), "baddy", Shape::Point);
    o.properties.int("type", b.kind);
    for (k, verse) in b.verses.iter().enumerate() {
        o.properties.string(verse_name(k), verse.to_editor_text());
    }
    layer_prop(&mut o.properties, b.layer);
    place(&mut o, b.x, b.y);
    o
}

/// The object of an NPC, named after its image.
pub fn npc_object(n: &Npc, id: u32) -> MapObject {
    let mut o = object(id, n.image.to_editor_text(), "npc", Shape::Point);
    o.properties
        .string("image", n.image.to_editor_text())
        .string("script", n.script.to_editor_text());
    layer_prop(&mut o.properties, n.layer);
    place(&mut o, n.x, n.y);
    o
}

/// Convert a level's meaning to the common model; `source` is the format it was read from.
/// Object ids run from 1 in the order links, signs, chests, baddies, NPCs.
pub fn to_tilemap(level: &Level, source: Format) -> (TileMap, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut layers = Vec::new();
    for (i, board) in level.layers.iter().enumerate() {
        let mut out_of_atlas = 0usize;
        let data = board
            .tiles
            .iter()
            .map(|&t| {
                if t == TILE_TRANSPARENT {
                    0
                } else if t > 0xFFF {
                    out_of_atlas += 1;
                    0
                } else {
                    gid(t)
                }
            })
            .collect();
        if out_of_atlas > 0 {
            warnings.push(Warning::warning(
                source,
                Location::path(format!("layers[{i}]")),
                format!(
                    "{out_of_atlas} cells hold tile indices beyond the 4096-tile atlas; left empty"
                ),
            ));
        }
        match TileLayer::new(format!("layer {}", board.layer), 64, 64, data) {
            Ok(mut layer) => {
                layer.properties.int(GRAAL_LAYER, board.layer);
                layers.push(Layer::Tiles(layer));
            }
            Err(e) => warnings.push(Warning::error(
                source,
                Location::path(format!("layers[{i}]")),
                format!("{e}; layer left out"),
            )),
        }
    }

    let mut id = 0u32;
    let mut next = || {
        id = id.saturating_add(1);
        id
    };
    let mut objects = Vec::new();
    objects.extend(level.links.iter().map(|l| link_object(l, next())));
    objects.extend(level.signs.iter().map(|s| sign_object(s, next())));
    objects.extend(level.chests.iter().map(|c| chest_object(c, next())));
    objects.extend(level.baddies.iter().map(|b| baddy_object(b, next())));
    objects.extend(level.npcs.iter().map(|n| npc_object(n, next())));
    layers.push(Layer::Objects(ObjectGroup {
        name: "objects".into(),
        parallax: (1.0, 1.0),
        visible: true,
        objects,
        properties: Properties::new(),
    }));

    let mut tileset_props = Properties::new();
    tileset_props.string(
        "formula",
        "column = (i / 512) * 16 + i % 16, row = (i / 16) % 32",
    );
    let map = TileMap {
        width: 64,
        height: 64,
        tile_width: TILE_PX,
        tile_height: TILE_PX,
        background: None,
        tilesets: vec![Tileset {
            name: "pics1".into(),
            first_gid: 1,
            tile_width: TILE_PX,
            tile_height: TILE_PX,
            tile_count: ATLAS_COLUMNS * ATLAS_ROWS,
            image: Some("pics1.png".into()),
            properties: tileset_props,
            tiles: Vec::new(),
        }],
        layers,
        properties: Properties::new(),
        source_format: source,
    };
    (map, warnings)
}

/// The kind of a level object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Link,
    Sign,
    Chest,
    Baddy,
    Npc,
}

/// A map object read as a level object: its kind, its index in that kind's list of the level,
/// and where it is in the map (for error paths).
#[derive(Debug, Clone)]
pub(crate) struct MapEntry<'a> {
    pub kind: Kind,
    pub index: usize,
    pub object: &'a MapObject,
    pub path: String,
}

/// A map read as a level, with where each part came from.
#[derive(Debug)]
pub(crate) struct Parsed<'a> {
    pub level: Level,
    /// The tile layer of each of `level.layers`.
    pub tile_layers: Vec<(&'a TileLayer, String)>,
    /// Every object, in map order.
    pub objects: Vec<MapEntry<'a>>,
    pub warnings: Vec<Warning>,
}

/// A raw-form property of an object or map, if present and well formed.
pub(crate) fn raw_prop(props: &Properties, name: &str) -> Option<Vec<u8>> {
    props.get_str(name).ok().flatten().and_then(unescape_raw)
}

/// Reads the properties of one object (or map, or layer) for error messages that name it.
struct Props<'a> {
    target: Format,
    path: &'a str,
    props: &'a Properties,
}

impl Props<'_> {
    fn error(&self, name: &str, message: String) -> Error {
        Error::malformed(
            self.target,
            Location::path(format!("{} property {name:?}", self.path)),
            message,
        )
    }

    fn wrong(&self, e: PropertyError) -> Error {
        let name = e.name.clone();
        self.error(&name, e.to_string())
    }

    fn i32(&self, name: &str) -> Result<Option<i32>> {
        self.props.get_i32(name).map_err(|e| self.wrong(e))
    }

    fn need_i32(&self, name: &str) -> Result<i32> {
        self.props.need_i32(name).map_err(|e| self.wrong(e))
    }

    fn float(&self, name: &str) -> Result<Option<f64>> {
        self.props.get_float(name).map_err(|e| self.wrong(e))
    }

    fn str(&self, name: &str) -> Result<Option<&str>> {
        self.props.get_str(name).map_err(|e| self.wrong(e))
    }

    /// Text as the level stores it (Windows-1252 bytes); `default` when missing, else an error.
    fn text(&self, name: &str, default: Option<&str>) -> Result<RawString> {
        let text = match (self.str(name)?, default) {
            (Some(t), _) => t,
            (None, Some(d)) => d,
            (None, None) => {
                return Err(self.wrong(PropertyError {
                    name: name.into(),
                    expected: "a string",
                    found: "it is missing".into(),
                }));
            }
        };
        RawString::from_editor_text(text).map_err(|c| {
            self.error(
                name,
                format!(
                    "property {name:?} must be text in Windows-1252 (control bytes as control pictures), but has the character \
                     {c:?}, which that code page cannot hold"
                ),
            )
        })
    }

    /// A link's destination coordinate; a link placed in Tiled without one lands at 0, the
    /// default its object type shows.
    fn coord(&self, name: &str) -> Result<LinkCoord> {
        let value = self.props.get(name);
        let parsed = match value {
            None => LinkCoord::word(b"0"),
            Some(PropertyValue::Float(f)) if f.is_finite() => Some(LinkCoord::tiles(*f)),
            Some(PropertyValue::Int(i)) => LinkCoord::word(i.to_string().as_bytes()),
            Some(PropertyValue::String(s)) => RawString::from_editor_text(s.trim())
                .ok()
                .and_then(|t| LinkCoord::word(t.as_bytes())),
            _ => None,
        };
        parsed.ok_or_else(|| {
            let found = match value {
                None => "it is missing".to_string(),
                Some(PropertyValue::String(s)) => format!("is the string {s:?}"),
                Some(v) => format!("is {v:?}"),
            };
            self.error(
                name,
                format!(
                    "property {name:?} must be one word (a number, playerx, playery+2, …) in \
                     Windows-1252, but {found}"
                ),
            )
        })
    }
}

/// A whole number of tiles from pixels (rounded to the nearest tile).
fn whole_tiles(pixels: f64, what: &str, target: Format, path: &str) -> Result<i32> {
    let t = (pixels / f64::from(TILE_PX)).round();
    if t.is_finite() && t >= f64::from(i32::MIN) && t <= f64::from(i32::MAX) {
        Ok(t as i32)
    } else {
        Err(Error::malformed(
            target,
            Location::path(path),
            format!("{what} must be a finite number of pixels, but is {pixels}"),
        ))
    }
}

/// A point's position in tiles: `tile_x` / `tile_y` while the pixels are within 0.01 px of
/// them, else pixels / 16.
fn position(o: &MapObject, p: &Props<'_>) -> Result<(f64, f64)> {
    let axis = |pixels: f64, name: &str, what: &str| -> Result<f64> {
        if !pixels.is_finite() {
            return Err(Error::malformed(
                p.target,
                Location::path(p.path),
                format!("the object's {what} must be a finite number, but is {pixels}"),
            ));
        }
        Ok(match p.float(name)? {
            Some(t) if (pixels - px(t)).abs() < 0.01 => t,
            _ => pixels / f64::from(TILE_PX),
        })
    };
    Ok((axis(o.x, TILE_X, "x")?, axis(o.y, TILE_Y, "y")?))
}

/// Glyphs of a sign object's text: those of its raw form (either format's) while that still
/// spells the same text, else the text's own.
fn sign_glyphs_of(o: &MapObject, text: &str) -> Option<Vec<u8>> {
    if let Some(raw) = raw_prop(&o.properties, GRAAL_RAW) {
        let (glyphs, _) = sign_glyphs(&raw);
        if sign_text::to_text(&glyphs) == text {
            return Some(glyphs);
        }
    }
    if let Some(raw) = raw_prop(&o.properties, NW_RAW) {
        if let Some(glyphs) = crate::formats::graal::nw::raw_sign_glyphs(&raw) {
            if sign_text::to_text(&glyphs) == text {
                return Some(glyphs);
            }
        }
    }
    None
}

/// Read one object into the level.
fn read_object<'a>(
    o: &'a MapObject,
    path: String,
    target: Format,
    level: &mut Level,
    warnings: &mut Vec<Warning>,
) -> Result<MapEntry<'a>> {
    let p = Props {
        target,
        path: &path,
        props: &o.properties,
    };
    let layer = p.i32("layer")?;
    let (kind, index) = match o.class.as_str() {
        "link" => {
            let Shape::Rect { width, height } = o.shape else {
                return Err(Error::malformed(
                    target,
                    Location::path(path.as_str()),
                    "a link must be a rectangle of tiles, but this object is not a rectangle",
                ));
            };
            let dest_layer = p.i32("dest_layer")?;
            let layers = match (dest_layer, layer) {
                (Some(d), Some(l)) => Some((d, l)),
                (None, None) => None,
                (Some(_), None) => {
                    return Err(p.error("layer", "a link with dest_layer needs layer too".into()));
                }
                (None, Some(_)) => {
                    return Err(p.error(
                        "dest_layer",
                        "a link with layer needs dest_layer too".into(),
                    ));
                }
            };
            level.links.push(Link {
                dest: p.text("dest", None)?,
                x: whole_tiles(o.x, "x", target, &path)?,
                y: whole_tiles(o.y, "y", target, &path)?,
                width: whole_tiles(width, "width", target, &path)?,
                height: whole_tiles(height, "height", target, &path)?,
                dest_x: p.coord("dest_x")?,
                dest_y: p.coord("dest_y")?,
                layers,
            });
            (Kind::Link, level.links.len())
        }
        "sign" => {
            let (x, y) = position(o, &p)?;
            let text = p.str("text")?.unwrap_or("");
            let glyphs = match sign_glyphs_of(o, text) {
                Some(g) => g,
                None => {
                    let (glyphs, unknown) = sign_text::from_text(text);
                    if !unknown.is_empty() {
                        let chars: String = unknown.iter().collect();
                        warnings.push(Warning::warning(
                            target,
                            Location::path(format!("{path} property \"text\"")),
                            format!(
                                "sign text has {} characters with no sign glyph ({chars:?}); \
                                 left out",
                                unknown.len()
                            ),
                        ));
                    }
                    glyphs
                }
            };
            level.signs.push(Sign {
                x,
                y,
                glyphs,
                layer,
            });
            (Kind::Sign, level.signs.len())
        }
        "chest" => {
            let (x, y) = position(o, &p)?;
            level.chests.push(Chest {
                x,
                y,
                item: p.need_i32("item")?,
                sign: p.i32("sign")?.unwrap_or(-1),
                layer,
            });
            (Kind::Chest, level.chests.len())
        }
        "baddy" => {
            let (x, y) = position(o, &p)?;
            let kind = p.need_i32("type")?;
            let kind = u8::try_from(kind).map_err(|_| {
                p.error(
                    "type",
                    format!("property \"type\" must be a baddy type from 0 to 255, but is {kind}"),
                )
            })?;
            let mut verses = Vec::new();
            let mut k = 0usize;
            loop {
                let name = verse_name(k);
                match p.str(&name)? {
                    Some(_) => {
                        verses.resize(k, RawString::default());
                        verses.push(p.text(&name, None)?);
                    }
                    None if k >= 2 => break,
                    None => {}
                }
                k = k.saturating_add(1);
            }
            level.baddies.push(Baddy {
                x,
                y,
                kind,
                verses,
                layer,
            });
            (Kind::Baddy, level.baddies.len())
        }
        "npc" => {
            let (x, y) = position(o, &p)?;
            level.npcs.push(Npc {
                x,
                y,
                image: p.text("image", Some(""))?,
                script: p.text("script", Some(""))?,
                layer,
            });
            (Kind::Npc, level.npcs.len())
        }
        other => {
            return Err(Error::malformed(
                target,
                Location::path(path.as_str()),
                format!(
                    "unknown object type {other:?}: a Graal level has only link, sign, chest, \
                     baddy and npc objects"
                ),
            ));
        }
    };
    Ok(MapEntry {
        kind,
        index: index.saturating_sub(1),
        object: o,
        path,
    })
}

/// Read a tile layer's cells as tile indices.
fn read_tiles(t: &TileLayer, first_gid: u32, target: Format, path: &str) -> Result<Vec<u16>> {
    if (t.width(), t.height()) != (64, 64) {
        return Err(Error::malformed(
            target,
            Location::path(path),
            format!(
                "a Graal board is 64 x 64 tiles, but this tile layer is {} x {}",
                t.width(),
                t.height()
            ),
        ));
    }
    let mut tiles = Vec::with_capacity(BOARD_CELLS);
    for (k, &g) in t.data().iter().enumerate() {
        if g == 0 {
            tiles.push(TILE_TRANSPARENT);
            continue;
        }
        match g.checked_sub(first_gid).and_then(tile_index) {
            Some(i) => tiles.push(i),
            None => {
                return Err(Error::malformed(
                    target,
                    Location::path(format!(
                        "{path} cell ({}, {})",
                        k % BOARD_SIZE,
                        k / BOARD_SIZE
                    )),
                    format!(
                        "gid {g} is outside the 4096-tile pics1 atlas (gids {first_gid} to {}, \
                         or 0 for no tile)",
                        u64::from(first_gid) + u64::from(ATLAS_TILES) - 1
                    ),
                ));
            }
        }
    }
    Ok(tiles)
}

/// Read a map's meaning, remembering which map part each piece came from.
pub(crate) fn parse_map(map: &TileMap, target: Format) -> Result<Parsed<'_>> {
    let first_gid = map
        .tilesets
        .iter()
        .find(|t| t.name == "pics1")
        .or(map.tilesets.first())
        .map_or(1, |t| t.first_gid);
    let mut level = Level::default();
    let mut warnings = Vec::new();
    let mut tile_layers = Vec::new();
    let mut numbers: Vec<Option<u32>> = Vec::new();
    let mut objects = Vec::new();
    for (li, layer) in map.layers.iter().enumerate() {
        match layer {
            Layer::Tiles(t) => {
                let path = format!("layers[{li}] {:?}", t.name);
                let tiles = read_tiles(t, first_gid, target, &path)?;
                let p = Props {
                    target,
                    path: &path,
                    props: &t.properties,
                };
                let number = t.properties.get_u32(GRAAL_LAYER).map_err(|e| p.wrong(e))?;
                if let Some(n) = number.filter(|n| numbers.contains(&Some(*n))) {
                    return Err(p.error(
                        GRAAL_LAYER,
                        format!("another tile layer is already Graal layer {n}"),
                    ));
                }
                numbers.push(number);
                level.layers.push(Board { layer: 0, tiles });
                tile_layers.push((t, path));
            }
            Layer::Objects(g) => {
                for o in &g.objects {
                    let path = format!("layers[{li}] {:?} object {} {:?}", g.name, o.id, o.class);
                    objects.push(read_object(o, path, target, &mut level, &mut warnings)?);
                }
            }
        }
    }
    // Tile layers without a number take the next free one.
    let mut next = numbers
        .iter()
        .flatten()
        .max()
        .map_or(0, |m| m.saturating_add(1));
    for (board, number) in level.layers.iter_mut().zip(&numbers) {
        board.layer = match number {
            Some(n) => *n,
            None => {
                let n = next;
                next = next.saturating_add(1);
                n
            }
        };
    }
    Ok(Parsed {
        level,
        tile_layers,
        objects,
        warnings,
    })
}

/// The format a map is read for when no target is given: the format it came from.
fn default_target(map: &TileMap) -> Format {
    if map.source_format == Format::Nw {
        Format::Nw
    } else {
        Format::GraalLevel
    }
}

/// The meaning of a map (see the module docs for the rules and the errors).
pub fn level_from_tilemap(map: &TileMap) -> Result<(Level, Vec<Warning>)> {
    let parsed = parse_map(map, default_target(map))?;
    Ok((parsed.level, parsed.warnings))
}

const F: Format = Format::GraalLevel;

fn section_end_name(end: SectionEnd) -> Option<&'static str> {
    match end {
        SectionEnd::Hash => None,
        SectionEnd::Empty => Some("empty"),
    }
}

/// A binary level as a map: the meaning ([`to_tilemap`]) plus the raw forms of what the meaning
/// does not determine (see the `GRAAL_*` constants).
pub fn graal_to_tilemap(g: &Graal) -> (TileMap, Vec<Warning>) {
    let (level, mut warnings) = to_level(g);
    let (mut map, more) = to_tilemap(&level, F);
    warnings.extend(more);

    let props = &mut map.properties;
    props.string(
        GRAAL_VERSION,
        String::from_utf8_lossy(g.version.header()).into_owned(),
    );
    for (name, end) in [
        (GRAAL_LINKS_END, g.links_end),
        (GRAAL_NPCS_END, g.npcs_end),
        (GRAAL_CHESTS_END, g.chests_end),
    ] {
        if let Some(v) = section_end_name(end) {
            props.string(name, v);
        }
    }
    if !g.baddies_end.is_empty() {
        props.string(GRAAL_BADDIES_END, escape_raw(g.baddies_end.as_bytes()));
    }
    if let Some(end) = &g.signs_end {
        props.string(GRAAL_SIGNS_END, escape_raw(end.as_bytes()));
    }
    let nulls: Vec<String> = (g.chests.iter().enumerate())
        .filter(|(_, c)| c.is_null())
        .map(|(i, _)| i.to_string())
        .collect();
    if !nulls.is_empty() {
        props.string(GRAAL_NULL_CHESTS, nulls.join(","));
    }
    let mut unparsed = Vec::new();

    // Raw forms of the objects, in the order `to_tilemap` made them.
    let mut raws: Vec<Option<String>> = Vec::new();
    for (i, line) in g.links.iter().enumerate() {
        match link_meaning(line) {
            Some(l) => raws.push((link_line(&l) != *line).then(|| escape_raw(line.as_bytes()))),
            None => unparsed.push(format!("{i} {}", escape_raw(line.as_bytes()))),
        }
    }
    for s in &g.signs {
        let (sign, _) = sign_meaning(s);
        let spelled = sign_text::from_text(&sign_text::to_text(&sign.glyphs)).0;
        let same = spelled.len() == s.text.len()
            && spelled
                .iter()
                .zip(s.text.as_bytes())
                .all(|(g, b)| g.wrapping_add(32) == *b);
        raws.push((!same).then(|| escape_raw(s.text.as_bytes())));
    }
    raws.extend(g.chests.iter().filter(|c| !c.is_null()).map(|_| None));
    for b in &g.baddies {
        let verses = baddy_meaning(b, g.version).verses;
        let differs = g.version.has_verses() && verse_line(&verses) != b.verses;
        raws.push(differs.then(|| escape_raw(b.verses.as_bytes())));
    }
    for n in &g.npcs {
        let differs = npc_script_record(&npc_script_meaning(&n.script)) != n.script;
        raws.push(differs.then(|| escape_raw(n.script.as_bytes())));
    }
    if !unparsed.is_empty() {
        map.properties
            .string(GRAAL_UNPARSED_LINKS, unparsed.join("\n"));
    }

    let mut boards = g.boards.iter();
    for layer in &mut map.layers {
        match layer {
            Layer::Tiles(t) => {
                let Some(board) = boards.next() else { continue };
                if let Some(packets) = &board.packets {
                    let hex: String = packets.iter().map(|p| format!("{p:04x}")).collect();
                    t.properties.string(GRAAL_PACKETS, hex);
                }
                if board.pad_bits != 0 {
                    t.properties.int(GRAAL_PAD_BITS, board.pad_bits);
                }
            }
            Layer::Objects(group) => {
                for (o, raw) in group.objects.iter_mut().zip(&raws) {
                    if let Some(raw) = raw {
                        o.properties.string(GRAAL_RAW, raw.clone());
                    }
                }
            }
        }
    }
    (map, warnings)
}

fn parse_packets(hex: &str) -> Option<Vec<u16>> {
    let bytes = hex.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    bytes
        .chunks(4)
        .map(|c| u16::from_str_radix(std::str::from_utf8(c).ok()?, 16).ok())
        .collect()
}

fn map_error(message: String, property: &str) -> Error {
    Error::malformed(
        F,
        Location::path(format!("map property {property:?}")),
        message,
    )
}

/// A map back to a binary level. A map from a `.graal` file (it has `graal_version`) keeps every
/// raw form that still agrees with its meaning; any other map is converted from its meaning as
/// [`from_level`] does.
pub fn tilemap_to_graal(map: &TileMap) -> Result<(Graal, Vec<Warning>)> {
    let parsed = parse_map(map, F)?;
    let mut warnings = parsed.warnings;
    let level = &parsed.level;
    let props = &map.properties;
    let version = match props.get_str(GRAAL_VERSION) {
        Err(e) => return Err(map_error(e.to_string(), GRAAL_VERSION)),
        Ok(None) => {
            let (g, more) = from_level(level);
            warnings.extend(more);
            return Ok((g, warnings));
        }
        Ok(Some(v)) => Version::from_header(v.as_bytes()).ok_or_else(|| {
            map_error(
                format!(
                    "map property {GRAAL_VERSION:?} must be a binary level header (Z3-V1.03, \
                     Z3-V1.04, GR-V1.00 to GR-V1.03 or GR-V1.05), but is {v:?}"
                ),
                GRAAL_VERSION,
            )
        })?,
    };
    let mut version = version;
    if level.layers.len() > 1 && !version.has_layers() {
        warnings.push(Warning::warning(
            F,
            Location::path(format!("map property {GRAAL_VERSION:?}")),
            format!(
                "the map has {} tile layers; written as GR-V1.05, the version with layers",
                level.layers.len()
            ),
        ));
        version = Version::GrV105;
    }
    let layered = version.has_layers();
    let bits = version.packet_bits();
    let max = (1u16 << (bits - 1)) - 1;

    let mut boards = Vec::new();
    for (i, (board, (tl, path))) in level.layers.iter().zip(&parsed.tile_layers).enumerate() {
        let packets = tl
            .properties
            .get_str(GRAAL_PACKETS)
            .ok()
            .flatten()
            .and_then(parse_packets);
        let pad_bits = tl
            .properties
            .get_u32(GRAAL_PAD_BITS)
            .ok()
            .flatten()
            .and_then(|b| u8::try_from(b).ok())
            .unwrap_or(0);
        // Cells the map shows empty that the stored packets fill with indices beyond the atlas
        // (control packets read as tiles) keep those indices.
        let mut cells = std::borrow::Cow::Borrowed(board);
        let decoded = packets.as_ref().map(|p| decode_packets(p, bits));
        if let Some(decoded) = &decoded {
            if decoded.len() == BOARD_CELLS
                && board
                    .tiles
                    .iter()
                    .zip(decoded)
                    .any(|(&t, &d)| t == TILE_TRANSPARENT && d > 0xFFF)
            {
                let mut b = board.clone();
                for (t, &d) in b.tiles.iter_mut().zip(decoded) {
                    if *t == TILE_TRANSPARENT && d > 0xFFF {
                        *t = d;
                    }
                }
                cells = std::borrow::Cow::Owned(b);
            }
        }
        let mut tiles = if decoded.as_ref() == Some(&cells.tiles) {
            cells.tiles.clone()
        } else {
            board_tiles(&cells, i, layered, &mut warnings)
        };
        let reproduced = decoded.as_ref() == Some(&tiles);
        if !reproduced {
            if let Some(k) = tiles
                .iter()
                .position(|&t| t > max && !(layered && t == super::binary::level::TILE_EMPTY_V105))
            {
                return Err(Error::malformed(
                    F,
                    Location::path(format!(
                        "{path} cell ({}, {})",
                        k % BOARD_SIZE,
                        k / BOARD_SIZE
                    )),
                    format!(
                        "tile {} does not fit the {bits}-bit packets of {} (0 to {max}); set \
                         the map property {GRAAL_VERSION:?} to GR-V1.03",
                        tiles.get(k).copied().unwrap_or(0),
                        String::from_utf8_lossy(version.header())
                    ),
                ));
            }
        }
        tiles.truncate(BOARD_CELLS);
        boards.push(BinaryBoard {
            tiles,
            packets,
            pad_bits,
        });
    }
    if boards.is_empty() {
        warnings.push(Warning::warning(
            F,
            Location::path("layers"),
            "the map has no tile layer; written as a board of tile 0",
        ));
        boards.push(BinaryBoard {
            tiles: vec![0; BOARD_CELLS],
            packets: None,
            pad_bits: 0,
        });
    }

    let raw_of = |kind: Kind| -> Vec<Option<Vec<u8>>> {
        parsed
            .objects
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| raw_prop(&e.object.properties, GRAAL_RAW).filter(|r| !r.contains(&b'\n')))
            .collect()
    };
    let section_missing = |what: &str, count: usize| -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        Err(map_error(
            format!(
                "the map has {count} {what} objects, but {} levels have no {what} section; set \
                 the map property {GRAAL_VERSION:?} to GR-V1.03",
                String::from_utf8_lossy(version.header())
            ),
            GRAAL_VERSION,
        ))
    };
    if !version.has_npcs() {
        section_missing("npc", level.npcs.len())?;
    }
    if !version.has_chests() {
        section_missing("chest", level.chests.len())?;
    }

    let w = &mut warnings;
    let mut links: Vec<RawString> = Vec::new();
    for (i, (l, raw)) in level.links.iter().zip(raw_of(Kind::Link)).enumerate() {
        let raw = raw.map(RawString);
        links.push(match raw {
            Some(raw) if link_meaning(&raw).as_ref() == Some(l) => raw,
            _ => link_record(l, i, w),
        });
    }
    if let Ok(Some(text)) = props.get_str(GRAAL_UNPARSED_LINKS) {
        for line in text.split('\n') {
            let Some((index, raw)) = line.split_once(' ') else {
                continue;
            };
            if let (Ok(index), Some(raw)) = (index.parse::<usize>(), unescape_raw(raw)) {
                links.insert(index.min(links.len()), RawString(raw));
            }
        }
    }

    let mut baddies = Vec::new();
    for (i, (b, raw)) in level.baddies.iter().zip(raw_of(Kind::Baddy)).enumerate() {
        let mut record = baddy_record(b, i, w);
        if version.has_verses() {
            if let Some(raw) = raw.map(RawString) {
                if baddy_meaning(
                    &BaddyRecord {
                        verses: raw.clone(),
                        ..record.clone()
                    },
                    version,
                )
                .verses
                    == b.verses
                {
                    record.verses = raw;
                }
            }
        } else if !b.verses.is_empty() {
            w.push(Warning::warning(
                F,
                Location::path(format!("baddies[{i}]")),
                "Z3-V1.03 baddies have no verses; left out",
            ));
        }
        baddies.push(record);
    }

    let mut npcs = Vec::new();
    for (i, (n, raw)) in level.npcs.iter().zip(raw_of(Kind::Npc)).enumerate() {
        let mut record = npc_record(n, i, w);
        if let Some(raw) = raw.map(RawString) {
            if npc_script_meaning(&raw) == n.script {
                record.script = raw;
            }
        }
        npcs.push(record);
    }

    let mut chests: Vec<ChestRecord> = (level.chests.iter().enumerate())
        .map(|(i, c)| chest_record(c, i, w))
        .collect();
    if let (true, Ok(Some(text))) = (version.has_chests(), props.get_str(GRAAL_NULL_CHESTS)) {
        for index in text
            .split(',')
            .filter_map(|t| t.trim().parse::<usize>().ok())
        {
            chests.insert(index.min(chests.len()), ChestRecord { bytes: NULL_CHEST });
        }
    }

    let mut signs = Vec::new();
    for (i, (s, raw)) in level.signs.iter().zip(raw_of(Kind::Sign)).enumerate() {
        let mut record = sign_record(s, i, w);
        if let Some(raw) = raw {
            if sign_glyphs(&raw).0 == s.glyphs {
                record.text = RawString(raw);
            }
        }
        signs.push(record);
    }

    let end = |name: &str| -> Result<SectionEnd> {
        match props.get_str(name) {
            Ok(None) => Ok(SectionEnd::Hash),
            Ok(Some("empty")) => Ok(SectionEnd::Empty),
            Ok(Some("hash")) => Ok(SectionEnd::Hash),
            Ok(Some(other)) => Err(map_error(
                format!("map property {name:?} must be \"hash\" or \"empty\", but is {other:?}"),
                name,
            )),
            Err(e) => Err(map_error(e.to_string(), name)),
        }
    };
    let raw_map_prop = |name: &str| -> Result<Option<RawString>> {
        match props.get_str(name) {
            Ok(None) => Ok(None),
            Ok(Some(text)) => unescape_raw(text)
                .filter(|b| !b.contains(&b'\n'))
                .map(|b| Some(RawString(b)))
                .ok_or_else(|| {
                    map_error(
                        format!(
                            "map property {name:?} must be raw bytes on one line (Latin-1, \
                             \\\\ and \\xHH escapes), but is {text:?}"
                        ),
                        name,
                    )
                }),
            Err(e) => Err(map_error(e.to_string(), name)),
        }
    };
    let graal = Graal {
        version,
        boards,
        links,
        links_end: end(GRAAL_LINKS_END)?,
        baddies,
        baddies_end: raw_map_prop(GRAAL_BADDIES_END)?.unwrap_or_default(),
        npcs,
        npcs_end: end(GRAAL_NPCS_END)?,
        chests,
        chests_end: end(GRAAL_CHESTS_END)?,
        signs,
        signs_end: raw_map_prop(GRAAL_SIGNS_END)?,
    };
    Ok((graal, warnings))
}

impl Graal {
    /// Convert to the common tile-map model: the meaning (through [`Graal::to_level`]) plus the
    /// raw forms that make the way back exact (see [`graal_to_tilemap`]).
    pub fn to_tilemap(&self) -> (TileMap, Vec<Warning>) {
        graal_to_tilemap(self)
    }

    /// The level a map (made by [`Graal::to_tilemap`] and maybe edited) stands for (see
    /// [`tilemap_to_graal`]).
    pub fn from_tilemap(map: &TileMap) -> Result<(Graal, Vec<Warning>)> {
        tilemap_to_graal(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gids_follow_the_atlas_formula() {
        assert_eq!(gid(0), 1);
        assert_eq!(gid(16), 1 + 128);
        assert_eq!(gid(512), 1 + 16);
        assert_eq!(gid(4095), 4096);
    }

    #[test]
    fn a_level_maps_every_object_kind() {
        let level = super::super::binary::samples::level();
        let (map, warnings) = to_tilemap(&level, Format::GraalLevel);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(map.validate().is_empty());
        let Some(Layer::Objects(group)) = map.layers.last() else {
            panic!("no object group");
        };
        let count = |class: &str| group.objects.iter().filter(|o| o.class == class).count();
        assert_eq!(count("link"), level.links.len());
        assert_eq!(count("sign"), level.signs.len());
        assert_eq!(count("chest"), level.chests.len());
        assert_eq!(count("baddy"), level.baddies.len());
        assert_eq!(count("npc"), level.npcs.len());
        let Some(link) = group.objects.first() else {
            panic!("no objects");
        };
        assert_eq!((link.x, link.y), (0.0, 0.0));
        assert_eq!(
            link.shape,
            Shape::Rect {
                width: 1024.0,
                height: 16.0
            }
        );
    }
}
