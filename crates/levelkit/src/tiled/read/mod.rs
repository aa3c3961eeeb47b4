//! The Tiled reader: TMX or TMJ to a [`TileMap`] (documented in the module above); the TMX
//! elements in `tmx.rs` (parsed by `xml.rs`), the TMJ objects in `tmj.rs`.

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::Read as _;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use serde_json::{Map as JsonMap, Value};

use super::options::{
    IMAGE_PROPERTY, LayerEncoding, SOURCE_FORMAT_PROPERTY, TiledOptions, TilesetImage,
};
use crate::codec::{Resolver, no_side_files};
use crate::encoding::base64_decode;
use crate::error::{Error, Location, Result, Warning};
use crate::limits::{Budget, Limits};
use crate::registry::{FORMATS, Format};
use crate::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, Property, PropertyValue, Shape, TileData, TileLayer,
    TileMap, Tileset,
};

/// What a Tiled map file holds, in the common model plus what the writer's options said.
#[derive(Debug, Clone, PartialEq)]
pub struct TiledMap {
    /// The map.
    pub map: TileMap,
    /// The [`crate::tiled`] options that write the map back the way it was: the
    /// tileset images (every tileset with an `<image>`, by index) and the first tile layer's
    /// encoding.
    pub options: TiledOptions,
    /// What the model cannot hold, and how it was read instead.
    pub warnings: Vec<Warning>,
}

/// Read a TMX (XML) map that has no external tilesets (see [`from_tmx_with`]).
pub fn from_tmx(bytes: &[u8]) -> Result<TiledMap> {
    from_tmx_with(bytes, &mut no_side_files)
}

/// Read a TMX (XML) map, finding its external tilesets (`<tileset source="…"/>`, TSX or TSJ)
/// with `resolve`, by their path relative to the map.
pub fn from_tmx_with(bytes: &[u8], resolve: Resolver<'_>) -> Result<TiledMap> {
    let doc = xml::parse(bytes)?;
    let mut r = Ctx::new(TMX, &doc.lines, resolve);
    let root = &doc.root;
    let at = r.at_el(At::map(TMX), root);
    if root.name != "map" {
        return Err(at.malformed(format!(
            "the root element is <{}>; a TMX map starts with <map>",
            root.name
        )));
    }
    r.tmx_map(root, &at)
}

/// Read a TMJ (JSON) map that has no external tilesets (see [`from_tmj_with`]).
pub fn from_tmj(bytes: &[u8]) -> Result<TiledMap> {
    from_tmj_with(bytes, &mut no_side_files)
}

/// Read a TMJ (JSON) map, finding its external tilesets (`{"firstgid":1,"source":"…"}`, TSJ
/// or TSX) with `resolve`, by their path relative to the map.
pub fn from_tmj_with(bytes: &[u8], resolve: Resolver<'_>) -> Result<TiledMap> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        let line_col = (e.line() > 0).then(|| (to_u32(e.line()), to_u32(e.column())));
        Error::malformed(
            TMJ,
            Location {
                line_col,
                ..Location::default()
            },
            format!("not valid JSON: {e}"),
        )
    })?;
    let lines = Lines::default();
    let mut r = Ctx::new(TMJ, &lines, resolve);
    let at = At::map(TMJ);
    let Value::Object(root) = &value else {
        return Err(at.malformed("the document is not a JSON object; a TMJ map is one"));
    };
    r.tmj_map(root, &at)
}

const TMX: Format = Format::Tmx;
const TMJ: Format = Format::Tmj;

/// The four high bits of a gid: flipped horizontally, vertically, diagonally, rotated 120°.
const FLIP_BITS: [(u32, &str); 4] = [
    (0x8000_0000, "flipped horizontally"),
    (0x4000_0000, "flipped vertically"),
    (0x2000_0000, "flipped diagonally"),
    (0x1000_0000, "rotated by 120° (hexagonal)"),
];
const FLIP_MASK: u32 = 0xF000_0000;

fn to_u32<T: TryInto<u32>>(v: T) -> u32 {
    v.try_into().unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------------------------------------
// Locations, errors and warnings

/// Byte offsets of line starts, to turn quick-xml's byte positions into line and column.
#[derive(Debug, Default)]
struct Lines<'b> {
    starts: Vec<usize>,
    text: &'b [u8],
}

impl<'b> Lines<'b> {
    fn new(bytes: &'b [u8]) -> Lines<'b> {
        let mut starts = vec![0];
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i.saturating_add(1)),
        );
        Lines {
            starts,
            text: bytes,
        }
    }

    /// One-based line and column (in characters) of a byte offset.
    fn line_col(&self, offset: usize) -> Option<(u32, u32)> {
        if self.starts.is_empty() {
            return None;
        }
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self
            .starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let end = offset.min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map_or(0, |s| s.iter().filter(|&&b| (b & 0xC0) != 0x80).count());
        Some((to_u32(line), to_u32(col.saturating_add(1))))
    }
}

/// Where something is: a description for messages (`layer "Action" (layers[2])`), the path, and
/// in TMX the line and column of the element.
#[derive(Debug, Clone)]
struct At {
    format: Format,
    what: String,
    path: String,
    line_col: Option<(u32, u32)>,
}

impl At {
    fn map(format: Format) -> At {
        At {
            format,
            what: "map".into(),
            path: String::new(),
            line_col: None,
        }
    }

    fn join(&self, part: &str) -> String {
        if self.path.is_empty() || part.starts_with('[') {
            format!("{}{part}", self.path)
        } else {
            format!("{}.{part}", self.path)
        }
    }

    /// A part of this one: `kind` describes it in messages (`layer "Action"`), `part` extends
    /// the path (`layers[2]`).
    fn child(&self, kind: impl Display, part: &str) -> At {
        let path = self.join(part);
        At {
            format: self.format,
            what: format!("{kind} ({path})"),
            path,
            line_col: self.line_col,
        }
    }

    /// The same place, for a JSON member or a TMX attribute (the path gets `.key` in TMJ).
    fn field(&self, key: &str) -> Location {
        Location {
            offset: None,
            line_col: self.line_col,
            path: Some(if self.format == TMJ {
                self.join(key)
            } else {
                self.path.clone()
            })
            .filter(|p| !p.is_empty()),
        }
    }

    fn location(&self) -> Location {
        Location {
            offset: None,
            line_col: self.line_col,
            path: (!self.path.is_empty()).then(|| self.path.clone()),
        }
    }

    fn malformed(&self, msg: impl Display) -> Error {
        Error::malformed(
            self.format,
            self.location(),
            format!("{}: {msg}", self.what),
        )
    }

    fn unsupported(&self, msg: impl Display) -> Error {
        Error::unsupported(
            self.format,
            self.location(),
            format!("{}: {msg}", self.what),
        )
    }

    fn warning(&self, msg: impl Display) -> Warning {
        Warning::warning(
            self.format,
            self.location(),
            format!("{}: {msg}", self.what),
        )
    }
}

/// State of one read: the format, line table, warnings and the allocation budget.
struct Ctx<'a> {
    format: Format,
    lines: &'a Lines<'a>,
    warnings: Vec<Warning>,
    budget: Budget,
    encoding: Option<LayerEncoding>,
    images: BTreeMap<usize, TilesetImage>,
    /// Finds external tileset files.
    resolve: Resolver<'a>,
    /// External tilesets read so far: their path as the map gives it, by tileset index.
    external: BTreeMap<usize, String>,
    /// Tileset files read so far, by path: each is parsed once however often it is named.
    files: BTreeMap<String, TilesetFile>,
}

/// A tileset file as read: its size, the tileset, its image (path relative to the map) and
/// what reading it noticed.
type TilesetFile = (usize, Tileset, Option<TilesetImage>, Vec<Warning>);

impl<'a> Ctx<'a> {
    fn new(format: Format, lines: &'a Lines<'a>, resolve: Resolver<'a>) -> Self {
        Ctx {
            format,
            lines,
            warnings: Vec::new(),
            budget: Limits::default().budget(format),
            encoding: None,
            images: BTreeMap::new(),
            resolve,
            external: BTreeMap::new(),
            files: BTreeMap::new(),
        }
    }

    fn warn(&mut self, at: &At, msg: impl Display) {
        self.warnings.push(at.warning(msg));
    }

    fn at_el(&self, mut at: At, el: &xml::El) -> At {
        at.line_col = self.lines.line_col(el.pos);
        at
    }

    fn finish(
        &mut self,
        at: &At,
        head: MapHead,
        mut properties: Properties,
        tilesets: Vec<Tileset>,
        layers: Vec<Layer>,
    ) -> Result<TiledMap> {
        let mut source_format = self.format;
        if let Some(name) = take_string(&mut properties, SOURCE_FORMAT_PROPERTY) {
            match FORMATS.iter().find(|f| f.name == name) {
                Some(info) => source_format = info.format,
                None => {
                    self.warn(
                        at,
                        format!(
                            "{SOURCE_FORMAT_PROPERTY} is {name:?}, which is no format levelkit knows; \
                             the map is taken as made in Tiled"
                        ),
                    );
                    properties.string(SOURCE_FORMAT_PROPERTY, name);
                }
            }
        }
        let map = TileMap {
            width: head.width,
            height: head.height,
            tile_width: head.tile_width,
            tile_height: head.tile_height,
            background: head.background,
            tilesets,
            layers,
            properties,
            source_format,
        };
        let options = TiledOptions {
            tileset_image: None,
            tileset_images: std::mem::take(&mut self.images),
            encoding: self.encoding.unwrap_or_default(),
            // Tiles' own images are not read (a warning says so, except for sprite tilesets).
            tile_images: Default::default(),
            external_tilesets: std::mem::take(&mut self.external),
        };
        Ok(TiledMap {
            map,
            options,
            warnings: std::mem::take(&mut self.warnings),
        })
    }
}

/// The map element's own attributes.
struct MapHead {
    width: u32,
    height: u32,
    tile_width: u32,
    tile_height: u32,
    background: Option<String>,
}

/// What a group passes to its children when it is flattened.
#[derive(Debug, Clone, Copy)]
struct Inherit {
    visible: bool,
    offset: (f64, f64),
    parallax: (f64, f64),
    opacity: f64,
}

impl Inherit {
    fn apply(self, visible: bool, offset: (f64, f64), parallax: (f64, f64), opacity: f64) -> Self {
        Inherit {
            visible: self.visible && visible,
            offset: (self.offset.0 + offset.0, self.offset.1 + offset.1),
            parallax: (self.parallax.0 * parallax.0, self.parallax.1 * parallax.1),
            opacity: self.opacity * opacity,
        }
    }
}

/// Layer attributes shared by every kind of layer.
struct LayerHead {
    name: String,
    visible: bool,
    offset: (f64, f64),
    parallax: (f64, f64),
    opacity: f64,
    tint: Option<String>,
}

impl LayerHead {
    /// This layer's attributes with its groups' applied (Tiled combines them when rendering).
    fn within(mut self, group: Option<Inherit>) -> Self {
        if let Some(g) = group {
            let all = g.apply(self.visible, self.offset, self.parallax, self.opacity);
            self.visible = all.visible;
            self.offset = all.offset;
            self.parallax = all.parallax;
            self.opacity = all.opacity;
        }
        self
    }
}

/// The first property `name` of type string, removed from the list.
fn take_string(props: &mut Properties, name: &str) -> Option<String> {
    let pos = props
        .0
        .iter()
        .position(|p| p.name == name && matches!(p.value, PropertyValue::String(_)))?;
    match props.0.remove(pos).value {
        PropertyValue::String(s) => Some(s),
        _ => None,
    }
}

/// `#RRGGBB` (what Tiled writes when the alpha is `ff`) as the model's `#AARRGGBB`.
fn color(s: &str) -> String {
    match s.strip_prefix('#') {
        Some(hex) if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            format!("#ff{hex}")
        }
        _ => s.to_string(),
    }
}

fn check_orientation(at: &At, orientation: Option<&str>, infinite: bool) -> Result<()> {
    match orientation {
        None | Some("orthogonal") => {}
        Some(other) => {
            return Err(at.unsupported(format!(
                "the map is {other}; levelkit reads orthogonal maps only (the legacy formats are \
                 all orthogonal)"
            )));
        }
    }
    if infinite {
        return Err(at.unsupported(
            "the map is infinite; levelkit reads finite maps only (uncheck Map > Infinite in Tiled \
             and save again)",
        ));
    }
    Ok(())
}

impl Ctx<'_> {
    /// A tileset kept in a file of its own (`source`, relative to the map): read through the
    /// resolver, TSX or TSJ whatever the map's own form, its image path made relative to the map.
    fn external_tileset(
        &mut self,
        at: &At,
        source: &str,
        first_gid: u32,
        index: usize,
    ) -> Result<Tileset> {
        if !self.files.contains_key(source) {
            let Some(bytes) = (self.resolve)(source) else {
                return Err(at.unsupported(format!(
                    "the tileset is in the external file {source:?}, which was not found (it is \
                     looked for relative to the map); put it there, or embed the tileset (Map > \
                     Embed Tileset in Tiled) and save again"
                )));
            };
            let in_file = |mut e: Error| {
                e.message = format!("{} (in the tileset file {source:?})", e.message);
                e
            };
            let (ts, mut images, warnings) =
                tileset_file(&bytes, source, first_gid, index).map_err(in_file)?;
            let warnings = warnings
                .into_iter()
                .map(|mut w| {
                    w.message = format!("{} (in the tileset file {source:?})", w.message);
                    w
                })
                .collect();
            let image = images.remove(&index).map(|mut image| {
                image.path = beside(source, &image.path);
                image
            });
            self.files
                .insert(source.to_string(), (bytes.len(), ts, image, warnings));
        }
        let Some((size, ts, image, warnings)) = self.files.get(source) else {
            return Err(at.unsupported(format!("the tileset file {source:?} was not read")));
        };
        // Every reference is charged the file's size: many references to one large file cannot
        // make a small map take unbounded memory.
        self.budget
            .charge(*size, "an external tileset file", at.location())?;
        let ts = Tileset {
            first_gid,
            ..ts.clone()
        };
        if let Some(image) = image {
            self.images.insert(index, image.clone());
        }
        self.warnings.extend(warnings.iter().cloned());
        self.external.insert(index, source.to_string());
        Ok(ts)
    }
}

/// A tileset file's tileset (TSX when it starts with `<`, else TSJ), with its image (path
/// relative to the file) and what reading it noticed.
fn tileset_file(
    bytes: &[u8],
    source: &str,
    first_gid: u32,
    index: usize,
) -> Result<(Tileset, BTreeMap<usize, TilesetImage>, Vec<Warning>)> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let xml = text.trim_ascii_start().starts_with(b"<");
    let format = if xml { TMX } else { TMJ };
    let part = format!("tilesets[{index}]");
    let at = At {
        format,
        what: format!("tileset file {source:?} ({part})"),
        path: part,
        line_col: None,
    };
    let mut nothing = no_side_files;
    if xml {
        let doc = xml::parse(bytes)?;
        let mut sub = Ctx::new(TMX, &doc.lines, &mut nothing);
        let root = &doc.root;
        let at = sub.at_el(at, root);
        if root.name != "tileset" {
            return Err(at.malformed(format!(
                "the root element is <{}>; a TSX tileset file starts with <tileset>",
                root.name
            )));
        }
        if root.attr("source").is_some() {
            return Err(at.unsupported("a tileset file that points to another file"));
        }
        let ts = sub.tmx_tileset_body(&at, root, index, first_gid)?;
        Ok((ts, sub.images, sub.warnings))
    } else {
        let value: Value = serde_json::from_slice(bytes).map_err(|e| {
            let line_col = (e.line() > 0).then(|| (to_u32(e.line()), to_u32(e.column())));
            Error::malformed(
                TMJ,
                Location {
                    line_col,
                    ..Location::default()
                },
                format!("not valid JSON: {e}"),
            )
        })?;
        let lines = Lines::default();
        let mut sub = Ctx::new(TMJ, &lines, &mut nothing);
        let Value::Object(o) = &value else {
            return Err(at.malformed("the document is not a JSON object; a TSJ tileset is one"));
        };
        if o.contains_key("source") {
            return Err(at.unsupported("a tileset file that points to another file"));
        }
        let ts = sub.tmj_tileset_body(&at, o, index, first_gid)?;
        Ok((ts, sub.images, sub.warnings))
    }
}

/// `path` (relative to the file `source`) relative to the folder `source` is relative to.
fn beside(source: &str, path: &str) -> String {
    let absolute = path.starts_with('/') || path.contains(':');
    match source.rsplit_once('/') {
        Some((dir, _)) if !absolute => format!("{dir}/{path}"),
        _ => path.to_string(),
    }
}

fn template(at: &At, source: &str) -> Error {
    at.unsupported(format!(
        "the object is an instance of the template {source:?}; levelkit reads no files, so detach \
         it (Detach Template in Tiled's object context menu) and save again"
    ))
}

/// A property value from its `type` and its text (TMX) or JSON value.
fn property_value(at: &At, kind: &str, value: Scalar<'_>) -> Result<PropertyValue> {
    let bad = |what: &str| {
        at.malformed(format!(
            "the {kind} property holds {}, which is not {what}",
            value.show()
        ))
    };
    Ok(match kind {
        "string" => PropertyValue::String(value.text().ok_or_else(|| bad("text"))?.to_string()),
        "file" => PropertyValue::File(value.text().ok_or_else(|| bad("text"))?.to_string()),
        "color" => PropertyValue::Color(color(value.text().ok_or_else(|| bad("a colour"))?)),
        "int" => PropertyValue::Int(value.int().ok_or_else(|| bad("an integer"))?),
        "object" => PropertyValue::Object(
            value
                .int()
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| bad("an object id"))?,
        ),
        "float" => PropertyValue::Float(
            value
                .float()
                .filter(|f| f.is_finite())
                .ok_or_else(|| bad("a finite number"))?,
        ),
        "bool" => PropertyValue::Bool(value.bool().ok_or_else(|| bad("true or false"))?),
        "class" => {
            return Err(at.unsupported(
                "class properties (Tiled 1.8 custom types) have no place in the levelkit model",
            ));
        }
        other => {
            return Err(at.unsupported(format!(
                "the property type {other:?} is unknown; Tiled 1.8 has string, int, float, bool, \
                 color, file, object and class"
            )));
        }
    })
}

/// [`property_value`] for the scalar types when the text parses, without an error path.
fn quick_value(kind: &str, text: &str) -> Option<PropertyValue> {
    let v = Scalar::Text(text);
    Some(match kind {
        "string" => PropertyValue::String(text.to_string()),
        "int" => PropertyValue::Int(v.int()?),
        "float" => PropertyValue::Float(v.float().filter(|f| f.is_finite())?),
        "bool" => PropertyValue::Bool(v.bool()?),
        _ => return None,
    })
}

/// A property value as the file holds it.
#[derive(Debug, Clone, Copy)]
enum Scalar<'v> {
    Text(&'v str),
    Json(&'v Value),
}

impl Scalar<'_> {
    fn show(&self) -> String {
        match self {
            Scalar::Text(s) => format!("{s:?}"),
            Scalar::Json(v) => v.to_string(),
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Scalar::Text(s) => Some(s),
            Scalar::Json(v) => v.as_str(),
        }
    }

    fn int(&self) -> Option<i64> {
        match self {
            Scalar::Text(s) => s.trim().parse().ok(),
            Scalar::Json(v) => json_int(v),
        }
    }

    fn float(&self) -> Option<f64> {
        match self {
            Scalar::Text(s) => s.trim().parse().ok(),
            Scalar::Json(v) => v.as_f64(),
        }
    }

    fn bool(&self) -> Option<bool> {
        match self {
            Scalar::Text(s) => parse_bool(s),
            Scalar::Json(v) => v.as_bool(),
        }
    }
}

fn parse_bool(s: &str) -> Option<bool> {
    match s.trim() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// A JSON integer, also when written as a float with no fraction (`16.0`).
fn json_int(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            // In range and integral (checked above), so the cast is exact.
            .map(|f| f as i64)
    })
}

/// Raw layer data, before decoding.
enum Data<'d> {
    /// CSV text.
    Csv(&'d str),
    /// Base64 text, with its compression (`None`, `zlib`, `gzip`, …).
    Base64(&'d str, Option<&'d str>),
}

impl Ctx<'_> {
    /// Check a layer's size against the budget before anything is allocated for it.
    fn charge_cells(&mut self, at: &At, width: u32, height: u32) -> Result<usize> {
        let cells = u64::from(width).saturating_mul(u64::from(height));
        let bytes = usize::try_from(cells.saturating_mul(4)).unwrap_or(usize::MAX);
        self.budget
            .charge(bytes, "tile layer cells", at.location())?;
        usize::try_from(cells).map_err(|_| at.malformed("the layer is too large"))
    }

    /// Decode CSV or base64 layer data into exactly `width × height` gids.
    fn decode(&mut self, at: &At, width: u32, height: u32, data: Data<'_>) -> Result<Vec<u32>> {
        let cells = self.charge_cells(at, width, height)?;
        let count_error = |found: String| {
            at.malformed(format!(
                "the layer is {width} x {height} = {cells} cells, but its data holds {found}"
            ))
        };
        match data {
            Data::Csv(text) => {
                let fields = csv_fields(text);
                let found = fields.clone().count();
                if found != cells {
                    return Err(count_error(format!("{found} cells")));
                }
                let mut out = Vec::with_capacity(cells);
                for (i, field) in fields.enumerate() {
                    let gid = field.parse::<u32>().map_err(|_| {
                        cell_at(at, i, width).malformed(format!(
                            "{field:?} is not a tile id (an unsigned 32-bit integer)"
                        ))
                    })?;
                    out.push(gid);
                }
                Ok(out)
            }
            Data::Base64(text, compression) => {
                let raw =
                    base64_decode(text).map_err(|e| at.malformed(format!("base64 data: {e}")))?;
                let want = cells.saturating_mul(4);
                let compressed = !matches!(compression, None | Some(""));
                let bytes = match compression {
                    None | Some("") => raw,
                    Some("zlib") => inflate(
                        flate2::read::ZlibDecoder::new(raw.as_slice()),
                        want,
                        at,
                        "zlib",
                    )?,
                    Some("gzip") => inflate(
                        flate2::read::GzDecoder::new(raw.as_slice()),
                        want,
                        at,
                        "gzip",
                    )?,
                    Some("zstd") => {
                        return Err(at.unsupported(
                            "zstd-compressed layer data is not supported; choose CSV, or Base64 \
                             with zlib or gzip, as the tile layer format in Map > Map Properties",
                        ));
                    }
                    Some(other) => {
                        return Err(at.unsupported(format!(
                            "layer data compression {other:?} is unknown (Tiled writes zlib, gzip \
                             or zstd)"
                        )));
                    }
                };
                if bytes.len() != want {
                    let found = if bytes.len() > want && compressed {
                        format!("more than {cells} cells")
                    } else if bytes.len() % 4 != 0 {
                        format!(
                            "{} bytes, which is not a whole number of cells",
                            bytes.len()
                        )
                    } else {
                        format!("{} cells", bytes.len() / 4)
                    };
                    return Err(count_error(found));
                }
                Ok(bytes
                    .chunks_exact(4)
                    .map(|c| {
                        let mut le = [0u8; 4];
                        le.copy_from_slice(c);
                        u32::from_le_bytes(le)
                    })
                    .collect())
            }
        }
    }

    /// A finished tile layer: flips refused, attributes applied.
    fn tile_layer(
        &mut self,
        at: &At,
        head: LayerHead,
        size: (u32, u32),
        gids: Vec<u32>,
        properties: Properties,
    ) -> Result<TileLayer> {
        if let Some(i) = gids.iter().position(|&g| g & FLIP_MASK != 0) {
            let gid = gids.get(i).copied().unwrap_or(0);
            return Err(cell_at(at, i, size.0).unsupported(format!(
                "gid 0x{gid:08x} is {}; the levelkit formats cannot flip tiles",
                flips(gid)
            )));
        }
        let mut layer = TileLayer::new(head.name.clone(), size.0, size.1, gids)
            .map_err(|e| at.malformed(e.to_string()))?;
        self.layer_extras(at, &head);
        layer.visible = head.visible;
        layer.offset = head.offset;
        layer.parallax = head.parallax;
        layer.tint = head.tint;
        layer.properties = properties;
        Ok(layer)
    }

    fn layer_extras(&mut self, at: &At, head: &LayerHead) {
        if head.opacity != 1.0 {
            self.warn(
                at,
                format!(
                    "opacity {} is not kept (the model's layers are opaque)",
                    head.opacity
                ),
            );
        }
    }

    /// An object with its shape decided; tile objects moved from bottom-left to top-left.
    fn object(&mut self, at: &At, raw: RawObject, collision: bool) -> Result<MapObject> {
        if let Some(gid) = raw.gid {
            if gid & FLIP_MASK != 0 {
                return Err(at.unsupported(format!(
                    "gid 0x{gid:08x} is {}; the levelkit formats cannot flip tiles",
                    flips(gid)
                )));
            }
        }
        if raw.rotation != 0.0 {
            self.warn(
                at,
                format!(
                    "rotation {}° is not kept (the model's objects are not rotated)",
                    raw.rotation
                ),
            );
        }
        let shape = match raw.kind {
            ShapeKind::Rect => Shape::Rect {
                width: raw.width,
                height: raw.height,
            },
            ShapeKind::Point => Shape::Point,
            ShapeKind::Polygon(points) => Shape::Polygon(points),
            ShapeKind::Ellipse => {
                self.warn(
                    at,
                    "an ellipse is read as its bounding rectangle (the model has no ellipses)",
                );
                Shape::Rect {
                    width: raw.width,
                    height: raw.height,
                }
            }
            ShapeKind::Polyline(points) => {
                self.warn(
                    at,
                    "a polyline is read as a polygon (the model has no open polylines)",
                );
                Shape::Polygon(points)
            }
            ShapeKind::Text => {
                self.warn(
                    at,
                    "a text object is read as a point at its top left; its text is not kept",
                );
                Shape::Point
            }
        };
        let y = match (&shape, raw.gid) {
            (Shape::Rect { height, .. }, Some(_)) => raw.y - height,
            _ => raw.y,
        };
        Ok(MapObject {
            id: if collision { 0 } else { raw.id },
            name: raw.name,
            class: raw.class,
            x: raw.x,
            y,
            shape,
            gid: raw.gid,
            visible: raw.visible,
            properties: raw.properties,
        })
    }

    /// A finished tileset: `levelkit.image` taken out of its properties, its image recorded.
    fn tileset(
        &mut self,
        index: usize,
        mut ts: Tileset,
        image: Option<TilesetImage>,
    ) -> Result<Tileset> {
        ts.image = take_string(&mut ts.properties, IMAGE_PROPERTY);
        if let Some(image) = image {
            self.images.insert(index, image);
        }
        Ok(ts)
    }
}

/// Gathered attributes of an object, before its shape is decided.
struct RawObject {
    id: u32,
    name: String,
    class: String,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    rotation: f64,
    gid: Option<u32>,
    visible: bool,
    kind: ShapeKind,
    properties: Properties,
}

enum ShapeKind {
    Rect,
    Point,
    Ellipse,
    Polygon(Vec<(f64, f64)>),
    Polyline(Vec<(f64, f64)>),
    Text,
}

fn flips(gid: u32) -> String {
    let names: Vec<&str> = FLIP_BITS
        .iter()
        .filter(|(bit, _)| gid & bit != 0)
        .map(|(_, name)| *name)
        .collect();
    names.join(" and ")
}

/// The place of cell `index` of a layer: `layer "Action" (layers[2]) cell (12, 3)`.
fn cell_at(layer: &At, index: usize, width: u32) -> At {
    let (x, y) = cell_xy(index, width);
    At {
        what: format!("{} cell ({x}, {y})", layer.what),
        ..layer.clone()
    }
}

fn cell_xy(index: usize, width: u32) -> (usize, usize) {
    let w = usize::try_from(width).unwrap_or(usize::MAX).max(1);
    (
        index.checked_rem(w).unwrap_or(0),
        index.checked_div(w).unwrap_or(0),
    )
}

/// The fields of Tiled's CSV: comma-separated, whitespace around them ignored, an empty last
/// field (a trailing comma) ignored.
fn csv_fields(text: &str) -> impl Iterator<Item = &str> + Clone {
    let trimmed = text.trim();
    let trimmed = trimmed.strip_suffix(',').unwrap_or(trimmed);
    trimmed
        .split(',')
        .map(str::trim)
        .filter(move |_| !trimmed.is_empty())
}

/// Decompress at most `want + 1` bytes: enough to tell "exactly `want`" from "more".
fn inflate(decoder: impl std::io::Read, want: usize, at: &At, name: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let limit = u64::try_from(want).unwrap_or(u64::MAX).saturating_add(1);
    decoder
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| at.malformed(format!("the {name} layer data does not decompress: {e}")))?;
    Ok(out)
}

mod tmj;
mod tmx;
mod xml;

impl Ctx<'_> {
    /// Tileset margin and spacing, which levelkit's tileset images never have: a warning.
    fn spacing(&mut self, at: &At, margin: Option<u32>, spacing: Option<u32>) {
        if margin.unwrap_or(0) != 0 || spacing.unwrap_or(0) != 0 {
            self.warn(
                at,
                format!(
                    "margin {} and spacing {} are not kept (levelkit's tileset images have \
                     neither)",
                    margin.unwrap_or(0),
                    spacing.unwrap_or(0)
                ),
            );
        }
    }

    fn object_group(
        &mut self,
        at: &At,
        head: LayerHead,
        mut objects: Vec<MapObject>,
        properties: Properties,
    ) -> ObjectGroup {
        if head.offset != (0.0, 0.0) {
            self.warn(
                at,
                format!(
                    "the object group's offset ({}, {}) is added to its objects' positions (the \
                     model's object groups have no offset)",
                    head.offset.0, head.offset.1
                ),
            );
            for o in &mut objects {
                o.x += head.offset.0;
                o.y += head.offset.1;
            }
        }
        ObjectGroup {
            name: head.name,
            parallax: head.parallax,
            visible: head.visible,
            objects,
            properties,
        }
    }
}

/// `x,y x,y …` of a TMX polygon.
fn points(at: &At, text: &str) -> Result<Vec<(f64, f64)>> {
    text.split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',').ok_or_else(|| {
                at.malformed(format!("the point {pair:?} is not of the form x,y"))
            })?;
            let num = |s: &str| {
                s.parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .ok_or_else(|| at.malformed(format!("the point {pair:?} holds a non-number")))
            };
            Ok((num(x)?, num(y)?))
        })
        .collect()
}

/// The image of a tileset, with what an old file leaves out computed from the tiles.
fn image_of(
    path: &str,
    width: Option<u32>,
    height: Option<u32>,
    tile_width: u32,
    columns: Option<u32>,
) -> TilesetImage {
    let columns = columns
        .filter(|&c| c != 0)
        .or_else(|| width.and_then(|w| w.checked_div(tile_width)))
        .unwrap_or(0);
    TilesetImage {
        path: path.to_string(),
        width: width.unwrap_or_else(|| columns.saturating_mul(tile_width)),
        height: height.unwrap_or(0),
        columns,
    }
}

/// `tilecount`, or for old files without it what the image or the declared tiles imply.
fn tile_count(
    declared: Option<u32>,
    image: Option<&TilesetImage>,
    tile_height: u32,
    max_id: Option<u32>,
) -> u32 {
    declared
        .or_else(|| {
            image.map(|i| {
                i.columns
                    .saturating_mul(i.height.checked_div(tile_height).unwrap_or(0))
            })
        })
        .or_else(|| max_id.map(|m| m.saturating_add(1)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let lines = Lines::new("ab\ncdé f\n".as_bytes());
        assert_eq!(lines.line_col(0), Some((1, 1)));
        assert_eq!(lines.line_col(3), Some((2, 1)));
        // 'é' is two bytes: byte 7 is the space after it, the fourth character of line 2.
        assert_eq!(lines.line_col(7), Some((2, 4)));
    }

    #[test]
    fn colours_gain_their_alpha() {
        assert_eq!(color("#112233"), "#ff112233");
        assert_eq!(color("#80112233"), "#80112233");
        assert_eq!(color(""), "");
    }

    #[test]
    fn flips_are_named() {
        assert_eq!(flips(0x8000_0001), "flipped horizontally");
        assert_eq!(
            flips(0xC000_0001),
            "flipped horizontally and flipped vertically"
        );
    }

    #[test]
    fn csv_fields_ignore_layout_and_a_trailing_comma() {
        assert_eq!(
            csv_fields("\n1,2,\n3,4\n").collect::<Vec<_>>(),
            ["1", "2", "3", "4"]
        );
        assert_eq!(csv_fields("1,2,").count(), 2);
        assert_eq!(csv_fields("  ").count(), 0);
    }

    fn tmx(body: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"2\" height=\"1\" \
             tilewidth=\"8\" tileheight=\"8\">\n{body}\n</map>"
        )
    }

    #[test]
    fn small_tmx_reads_properties_in_file_order() {
        let doc = tmx("<properties><property name=\"z\" value=\"a&#10;b\"/>\
             <property name=\"a\">x\r\ny&#13;</property>\
             <property name=\"n\" type=\"int\" value=\"-5\"/></properties>\
             <layer name=\"L\" width=\"2\" height=\"1\"><data encoding=\"csv\">1,0</data></layer>");
        let m = from_tmx(doc.as_bytes()).map_err(|e| e.to_string());
        let m = m.as_ref().map(|m| &m.map);
        let props = m.map(|m| m.properties.clone()).unwrap_or_default();
        let names: Vec<&str> = props.0.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["z", "a", "n"]);
        assert_eq!(props.get_str("z").ok().flatten(), Some("a\nb"));
        assert_eq!(props.get_str("a").ok().flatten(), Some("x\ny\r"));
        assert_eq!(props.get_int("n").ok().flatten(), Some(-5));
        assert_eq!(m.map(|m| m.source_format).ok(), Some(Format::Tmx));
    }

    #[test]
    fn old_xml_tile_elements_and_uncompressed_base64() {
        let xml = tmx(
            "<layer name=\"L\" width=\"2\" height=\"1\"><data><tile gid=\"3\"/><tile/></data></layer>",
        );
        let m = from_tmx(xml.as_bytes()).ok();
        let data = m.and_then(|m| match m.map.layers.first() {
            Some(Layer::Tiles(t)) => Some(t.data().to_vec()),
            _ => None,
        });
        assert_eq!(data, Some(vec![3, 0]));
        // 7 and 1 as little-endian u32: 07 00 00 00 01 00 00 00.
        let b64 = tmx(
            "<layer name=\"L\" width=\"2\" height=\"1\"><data encoding=\"base64\">\n  BwAAAAEAAAA=\n</data></layer>",
        );
        let m = from_tmx(b64.as_bytes()).ok();
        let data = m.and_then(|m| match m.map.layers.first() {
            Some(Layer::Tiles(t)) => Some(t.data().to_vec()),
            _ => None,
        });
        assert_eq!(data, Some(vec![7, 1]));
    }

    #[test]
    fn bad_number_names_attribute_and_line() {
        let xml =
            tmx("<objectgroup name=\"O\">\n<object id=\"4\" x=\"abc\" y=\"1\"/></objectgroup>");
        let err = from_tmx(xml.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.contains("attribute x=\"abc\" of <object> is not a number"),
            "{err}"
        );
        assert!(err.contains("layers[0].objects[0]"), "{err}");
        assert!(err.contains("line 4, column 1"), "{err}");
    }

    #[test]
    fn tmj_bad_number_names_json_path() {
        let json = r#"{"orientation":"orthogonal","width":1,"height":1,"tilewidth":8,"tileheight":8,
            "layers":[{"type":"objectgroup","name":"O","objects":[{"id":1,"x":"abc","y":0}]}]}"#;
        let err = from_tmj(json.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("layers[0].objects[0].x"), "{err}");
        assert!(err.contains("x is \"abc\", not a number"), "{err}");
    }
}
