//! The common 2D model every tile-based format converts to, and every 2D exporter (Tiled, PNG
//! previews) consumes: a [`TileMap`] of [`Layer`]s drawing from [`Tileset`]s, with [`MapObject`]s
//! and typed [`Property`] values on everything.
//!
//! It follows Tiled's concepts (global tile ids with `firstgid`, object groups, typed custom
//! properties) so that export is a direct mapping, but it knows nothing about any file format.
//! Invariants (a layer has exactly width × height cells) are checked by the constructors;
//! [`TileMap::validate`] checks what spans several parts (gids that no tileset covers).

pub mod sprites;

use serde::{Deserialize, Serialize};

use crate::error::{Location, Severity, Warning};
use crate::registry::Format;

/// A typed custom property value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum PropertyValue {
    /// Text.
    String(String),
    /// Integer (wide enough for any u32 or i32 field).
    Int(i64),
    /// Floating point.
    Float(f64),
    /// Boolean.
    Bool(bool),
    /// Colour as `#AARRGGBB`.
    Color(String),
    /// A path relative to the map.
    File(String),
    /// Another object's id.
    Object(u32),
}

/// A named property.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Property {
    /// The name.
    pub name: String,
    /// The typed value.
    pub value: PropertyValue,
}

/// An ordered list of properties (order is kept: it is the source's field order).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Properties(pub Vec<Property>);

impl Properties {
    /// An empty list.
    pub fn new() -> Self {
        Properties::default()
    }

    /// Append a property.
    pub fn push(&mut self, name: impl Into<String>, value: PropertyValue) -> &mut Self {
        self.0.push(Property {
            name: name.into(),
            value,
        });
        self
    }

    /// Append an integer property.
    pub fn int(&mut self, name: impl Into<String>, v: impl Into<i64>) -> &mut Self {
        self.push(name, PropertyValue::Int(v.into()))
    }

    /// Append a string property.
    pub fn string(&mut self, name: impl Into<String>, v: impl Into<String>) -> &mut Self {
        self.push(name, PropertyValue::String(v.into()))
    }

    /// Append a boolean property.
    pub fn bool(&mut self, name: impl Into<String>, v: bool) -> &mut Self {
        self.push(name, PropertyValue::Bool(v))
    }

    /// The value of the first property called `name`.
    pub fn get(&self, name: &str) -> Option<&PropertyValue> {
        self.0.iter().find(|p| p.name == name).map(|p| &p.value)
    }

    /// Number of properties.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The integer property `name`, if present.
    ///
    /// Accepts an `int`, a `float` with no fractional part, and a `string` holding a decimal
    /// integer (or `0x` hex): Tiled keeps `int` properties in 32 bits, so the Tiled writers store
    /// values outside `i32` as strings (see [`crate::tiled`]).
    pub fn get_int(&self, name: &str) -> Result<Option<i64>, PropertyError> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        let parsed = match v {
            PropertyValue::Int(i) => Some(*i),
            PropertyValue::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            PropertyValue::String(s) => parse_int(s),
            _ => None,
        };
        parsed
            .map(Some)
            .ok_or_else(|| PropertyError::new(name, "an integer", v))
    }

    /// The integer property `name` as an `i32`, if present.
    pub fn get_i32(&self, name: &str) -> Result<Option<i32>, PropertyError> {
        self.get_int(name)?
            .map(|v| {
                i32::try_from(v).map_err(|_| PropertyError {
                    name: name.into(),
                    expected: "an integer from -2147483648 to 2147483647",
                    found: v.to_string(),
                })
            })
            .transpose()
    }

    /// The integer property `name` as a `u32`, if present; a negative `i32` is taken as the
    /// two's complement bit pattern (what a 32-bit int field of an editor shows for it).
    pub fn get_u32(&self, name: &str) -> Result<Option<u32>, PropertyError> {
        self.get_int(name)?
            .map(|v| {
                u32::try_from(v)
                    .ok()
                    .or_else(|| i32::try_from(v).ok().map(|i| i as u32))
                    .ok_or_else(|| PropertyError {
                        name: name.into(),
                        expected: "an integer from -2147483648 to 4294967295",
                        found: v.to_string(),
                    })
            })
            .transpose()
    }

    /// The number property `name` (`float` or `int`), if present.
    pub fn get_float(&self, name: &str) -> Result<Option<f64>, PropertyError> {
        match self.get(name) {
            None => Ok(None),
            Some(PropertyValue::Float(f)) if f.is_finite() => Ok(Some(*f)),
            Some(PropertyValue::Int(i)) => Ok(Some(*i as f64)),
            Some(v) => Err(PropertyError::new(name, "a number", v)),
        }
    }

    /// The boolean property `name`, if present.
    pub fn get_bool(&self, name: &str) -> Result<Option<bool>, PropertyError> {
        match self.get(name) {
            None => Ok(None),
            Some(PropertyValue::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(PropertyError::new(name, "a bool", v)),
        }
    }

    /// The text property `name` (`string` or `file`), if present.
    pub fn get_str(&self, name: &str) -> Result<Option<&str>, PropertyError> {
        match self.get(name) {
            None => Ok(None),
            Some(PropertyValue::String(s) | PropertyValue::File(s)) => Ok(Some(s)),
            Some(v) => Err(PropertyError::new(name, "a string", v)),
        }
    }

    /// Like [`Properties::get_int`], but a missing property is an error.
    pub fn need_int(&self, name: &str) -> Result<i64, PropertyError> {
        self.get_int(name)?
            .ok_or_else(|| PropertyError::missing(name, "an integer"))
    }

    /// Like [`Properties::get_i32`], but a missing property is an error.
    pub fn need_i32(&self, name: &str) -> Result<i32, PropertyError> {
        self.get_i32(name)?
            .ok_or_else(|| PropertyError::missing(name, "an integer"))
    }

    /// Like [`Properties::get_u32`], but a missing property is an error.
    pub fn need_u32(&self, name: &str) -> Result<u32, PropertyError> {
        self.get_u32(name)?
            .ok_or_else(|| PropertyError::missing(name, "an integer"))
    }

    /// Like [`Properties::get_str`], but a missing property is an error.
    pub fn need_str(&self, name: &str) -> Result<&str, PropertyError> {
        self.get_str(name)?
            .ok_or_else(|| PropertyError::missing(name, "a string"))
    }
}

fn parse_int(s: &str) -> Option<i64> {
    let t = s.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i64>().ok()?,
    };
    if neg { v.checked_neg() } else { Some(v) }
}

/// A property that is missing or has the wrong type or range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("property {name:?} must be {expected}, but {found}")]
pub struct PropertyError {
    /// The property's name.
    pub name: String,
    /// What was expected.
    pub expected: &'static str,
    /// What was found, as a phrase.
    pub found: String,
}

impl PropertyError {
    fn new(name: &str, expected: &'static str, found: &PropertyValue) -> Self {
        let found = match found {
            PropertyValue::String(s) => format!("is the string {s:?}"),
            PropertyValue::Int(i) => format!("is the int {i}"),
            PropertyValue::Float(f) => format!("is the float {f}"),
            PropertyValue::Bool(b) => format!("is the bool {b}"),
            PropertyValue::Color(c) => format!("is the color {c}"),
            PropertyValue::File(f) => format!("is the file {f:?}"),
            PropertyValue::Object(o) => format!("is the object {o}"),
        };
        PropertyError {
            name: name.into(),
            expected,
            found,
        }
    }

    fn missing(name: &str, expected: &'static str) -> Self {
        PropertyError {
            name: name.into(),
            expected,
            found: "it is missing".into(),
        }
    }
}

/// A tileset: a run of global ids starting at `first_gid`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tileset {
    /// Name.
    pub name: String,
    /// Global id of local tile 0.
    pub first_gid: u32,
    /// Tile width in pixels.
    pub tile_width: u32,
    /// Tile height in pixels.
    pub tile_height: u32,
    /// Number of tiles.
    pub tile_count: u32,
    /// Where the tile images come from, if known (a folder or an image path).
    pub image: Option<String>,
    /// Tileset-level properties.
    pub properties: Properties,
    /// Per-tile data, for tiles that have any.
    pub tiles: Vec<TileData>,
}

/// Data of one tile of a tileset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TileData {
    /// Local id within the tileset.
    pub id: u32,
    /// Properties.
    pub properties: Properties,
    /// Collision shapes in tile pixels.
    pub collision: Vec<MapObject>,
}

/// The shape of an object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A point at (x, y).
    Point,
    /// A rectangle of width × height with its top-left at (x, y).
    Rect {
        /// Width in pixels.
        width: f64,
        /// Height in pixels.
        height: f64,
    },
    /// A polygon, points relative to (x, y).
    Polygon(Vec<(f64, f64)>),
}

/// An object on the map (or a collision shape in a tile).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapObject {
    /// Unique id within the map (0 for collision shapes).
    pub id: u32,
    /// Name.
    pub name: String,
    /// Class (Tiled's "type").
    pub class: String,
    /// x in pixels.
    pub x: f64,
    /// y in pixels.
    pub y: f64,
    /// Shape.
    pub shape: Shape,
    /// Global tile id drawn for the object, if any.
    pub gid: Option<u32>,
    /// Visible in editors.
    pub visible: bool,
    /// Properties (every source field that has no direct home).
    pub properties: Properties,
}

/// A grid of global tile ids (0 = empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TileLayer {
    /// Name.
    pub name: String,
    /// Width in tiles.
    width: u32,
    /// Height in tiles.
    height: u32,
    /// Row-major global ids, exactly width × height.
    data: Vec<u32>,
    /// Parallax factors (1.0 moves with the camera).
    pub parallax: (f64, f64),
    /// Pixel offset.
    pub offset: (f64, f64),
    /// Visible.
    pub visible: bool,
    /// Tint or fill colour as `#AARRGGBB`, if any.
    pub tint: Option<String>,
    /// Properties.
    pub properties: Properties,
}

/// Why a [`TileLayer`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tile layer {name:?} is {width} x {height} but has {cells} cells")]
pub struct LayerSizeError {
    /// Layer name.
    pub name: String,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Cells given.
    pub cells: usize,
}

impl TileLayer {
    /// A layer; fails unless `data.len() == width * height`.
    pub fn new(
        name: impl Into<String>,
        width: u32,
        height: u32,
        data: Vec<u32>,
    ) -> Result<Self, LayerSizeError> {
        let name = name.into();
        if (width as u64) * (height as u64) != data.len() as u64 {
            return Err(LayerSizeError {
                name,
                width,
                height,
                cells: data.len(),
            });
        }
        Ok(TileLayer {
            name,
            width,
            height,
            data,
            parallax: (1.0, 1.0),
            offset: (0.0, 0.0),
            visible: true,
            tint: None,
            properties: Properties::new(),
        })
    }

    /// Width in tiles.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in tiles.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Global ids, row-major.
    pub fn data(&self) -> &[u32] {
        &self.data
    }

    /// The global id at (x, y).
    pub fn get(&self, x: u32, y: u32) -> Option<u32> {
        if x >= self.width {
            return None;
        }
        let i = (y as usize).checked_mul(self.width as usize)? + x as usize;
        self.data.get(i).copied()
    }
}

/// A group of objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectGroup {
    /// Name.
    pub name: String,
    /// Parallax factors.
    pub parallax: (f64, f64),
    /// Visible.
    pub visible: bool,
    /// The objects.
    pub objects: Vec<MapObject>,
    /// Properties.
    pub properties: Properties,
}

/// A layer of a map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// A tile grid.
    Tiles(TileLayer),
    /// Objects.
    Objects(ObjectGroup),
}

/// An orthogonal tile map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TileMap {
    /// Width in tiles (of the largest layer).
    pub width: u32,
    /// Height in tiles.
    pub height: u32,
    /// Tile width in pixels.
    pub tile_width: u32,
    /// Tile height in pixels.
    pub tile_height: u32,
    /// Background colour as `#AARRGGBB`, if any.
    pub background: Option<String>,
    /// Tilesets, in `first_gid` order.
    pub tilesets: Vec<Tileset>,
    /// Layers, bottom to top.
    pub layers: Vec<Layer>,
    /// Map properties.
    pub properties: Properties,
    /// The format the map came from.
    pub source_format: Format,
}

impl TileMap {
    /// The tileset a global id belongs to, with the local id.
    pub fn tileset_for(&self, gid: u32) -> Option<(&Tileset, u32)> {
        self.tilesets
            .iter()
            .rev()
            .find(|t| t.first_gid <= gid)
            .filter(|t| gid - t.first_gid < t.tile_count)
            .map(|t| (t, gid - t.first_gid))
    }

    /// Cross-part checks: tilesets in order and not overlapping, every non-zero gid covered by a
    /// tileset, object ids unique.
    pub fn validate(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        let mut next = 1u64;
        for (i, ts) in self.tilesets.iter().enumerate() {
            if u64::from(ts.first_gid) < next {
                out.push(Warning {
                    format: self.source_format,
                    severity: Severity::Error,
                    location: Location::path(format!("tilesets[{i}]")),
                    message: format!(
                        "tileset {:?} starts at gid {}, overlapping the one before it",
                        ts.name, ts.first_gid
                    ),
                });
            }
            next = u64::from(ts.first_gid) + u64::from(ts.tile_count);
        }
        let mut ids = std::collections::HashSet::new();
        for (li, layer) in self.layers.iter().enumerate() {
            match layer {
                Layer::Tiles(t) => {
                    if let Some(pos) = t
                        .data
                        .iter()
                        .position(|&g| g != 0 && self.tileset_for(g).is_none())
                    {
                        out.push(Warning {
                            format: self.source_format,
                            severity: Severity::Error,
                            location: Location::path(format!("layers[{li}].data[{pos}]")),
                            message: format!(
                                "gid {} in layer {:?} belongs to no tileset",
                                t.data.get(pos).copied().unwrap_or(0),
                                t.name
                            ),
                        });
                    }
                }
                Layer::Objects(g) => {
                    for (oi, o) in g.objects.iter().enumerate() {
                        if !ids.insert(o.id) {
                            out.push(Warning {
                                format: self.source_format,
                                severity: Severity::Error,
                                location: Location::path(format!("layers[{li}].objects[{oi}]")),
                                message: format!("object id {} is used twice", o.id),
                            });
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_size_is_checked() {
        assert!(TileLayer::new("a", 2, 2, vec![0; 4]).is_ok());
        let err = TileLayer::new("a", 2, 2, vec![0; 3]).err();
        assert_eq!(err.map(|e| e.cells), Some(3));
    }

    #[test]
    fn gid_lookup_and_validation() {
        let ts = |name: &str, first_gid, tile_count| Tileset {
            name: name.into(),
            first_gid,
            tile_width: 8,
            tile_height: 8,
            tile_count,
            image: None,
            properties: Properties::new(),
            tiles: vec![],
        };
        let layer = TileLayer::new("l", 3, 1, vec![1, 12, 40]).map(Layer::Tiles);
        let map = TileMap {
            width: 3,
            height: 1,
            tile_width: 8,
            tile_height: 8,
            background: None,
            tilesets: vec![ts("a", 1, 10), ts("b", 11, 10)],
            layers: layer.into_iter().collect(),
            properties: Properties::new(),
            source_format: Format::Wwd,
        };
        assert_eq!(
            map.tileset_for(12).map(|(t, id)| (t.name.as_str(), id)),
            Some(("b", 1))
        );
        assert!(map.tileset_for(40).is_none());
        let findings = map.validate();
        assert_eq!(findings.len(), 1);
        assert!(findings[0].message.contains("gid 40"));
    }
}
