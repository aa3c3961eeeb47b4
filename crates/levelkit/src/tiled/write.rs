//! The Tiled writer: a [`TileMap`] to TMX or TMJ, and tilesets to TSX or TSJ (documented in the
//! module above).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use quick_xml::Writer;
use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;
use serde_json::{Map as JsonMap, Value, json};

use super::options::{
    FORMAT_VERSION, IMAGE_PROPERTY, LayerEncoding, MAX_DECLARED_TILES, SOURCE_FORMAT_PROPERTY,
    TILED_VERSION, TileImage, TiledOptions, TilesetImage,
};
use crate::encoding::base64_encode;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;
use crate::tilemap::{
    Layer, MapObject, ObjectGroup, Properties, PropertyValue, Shape, TileData, TileLayer, TileMap,
    Tileset,
};

/// The map as a TMX (XML) file.
pub fn to_tmx(map: &TileMap, options: &TiledOptions) -> Result<Vec<u8>> {
    let mut x = Xml {
        w: Writer::new_with_indent(Vec::new(), b' ', 1),
    };
    x.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut attrs = vec![
        ("version", FORMAT_VERSION.to_string()),
        ("tiledversion", TILED_VERSION.to_string()),
        ("orientation", "orthogonal".to_string()),
        ("renderorder", "right-down".to_string()),
        ("width", map.width.to_string()),
        ("height", map.height.to_string()),
        ("tilewidth", map.tile_width.to_string()),
        ("tileheight", map.tile_height.to_string()),
        ("infinite", "0".to_string()),
    ];
    if let Some(bg) = &map.background {
        attrs.push(("backgroundcolor", bg.clone()));
    }
    attrs.push(("nextlayerid", next_layer_id(map).to_string()));
    attrs.push(("nextobjectid", next_object_id(map).to_string()));
    x.start("map", attrs)?;
    x.properties(&map_properties(map))
        .map_err(|e| e.in_path("properties"))?;
    for (i, ts) in map.tilesets.iter().enumerate() {
        if let Some(source) = options.external_tilesets.get(&i) {
            x.empty(
                "tileset",
                vec![
                    ("firstgid", ts.first_gid.to_string()),
                    ("source", source.clone()),
                ],
            )
            .map_err(|e| e.in_path(format!("tilesets[{i}]")))?;
            continue;
        }
        x.tileset(
            ts,
            options.image_for(i),
            options.tile_images.get(&i),
            TMX,
            Some(ts.first_gid),
        )
        .map_err(|e| e.in_path(format!("tilesets[{i}]")))?;
    }
    for (i, layer) in map.layers.iter().enumerate() {
        let id = layer_id(i);
        match layer {
            Layer::Tiles(t) => x.tile_layer(t, id, options.encoding),
            Layer::Objects(g) => x.object_group(g, id),
        }
        .map_err(|e| e.in_path(format!("layers[{i}]")))?;
    }
    x.end("map")?;
    let mut out = x.w.into_inner();
    out.push(b'\n');
    Ok(out)
}

/// The map as a TMJ (JSON) file.
///
/// Written as it goes (`JsonNode`): the layers' tile ids and objects are turned into JSON one
/// at a time, never a `Value` tree of the whole map (a large Claw level's tree is 5x the file).
pub fn to_tmj(map: &TileMap, options: &TiledOptions) -> Result<Vec<u8>> {
    let mut root = JsonMap::new();
    root.insert("type".into(), json!("map"));
    root.insert("version".into(), json!(FORMAT_VERSION));
    root.insert("tiledversion".into(), json!(TILED_VERSION));
    root.insert("orientation".into(), json!("orthogonal"));
    root.insert("renderorder".into(), json!("right-down"));
    root.insert("compressionlevel".into(), json!(-1));
    root.insert("width".into(), json!(map.width));
    root.insert("height".into(), json!(map.height));
    root.insert("tilewidth".into(), json!(map.tile_width));
    root.insert("tileheight".into(), json!(map.tile_height));
    root.insert("infinite".into(), json!(false));
    if let Some(bg) = &map.background {
        root.insert("backgroundcolor".into(), json!(bg));
    }
    root.insert("nextlayerid".into(), json!(next_layer_id(map)));
    root.insert("nextobjectid".into(), json!(next_object_id(map)));
    let props = json_properties(&map_properties(map)).map_err(|e| e.in_path("properties"))?;
    insert_properties(&mut root, props);
    let mut fields = lazy_fields(root);
    let tilesets = JsonNode::Each(
        map.tilesets.len(),
        Box::new(move |i| {
            let ts = &map.tilesets[i];
            match options.external_tilesets.get(&i) {
                Some(source) => Ok(json!({ "firstgid": ts.first_gid, "source": source })),
                None => json_tileset(
                    ts,
                    options.image_for(i),
                    options.tile_images.get(&i),
                    Some(ts.first_gid),
                )
                .map_err(|e| e.in_path(format!("tilesets[{i}]"))),
            }
            .map(JsonNode::Value)
        }),
    );
    fields.push(("tilesets".into(), tilesets));
    let layers = JsonNode::Each(
        map.layers.len(),
        Box::new(move |i| {
            let id = layer_id(i);
            match &map.layers[i] {
                Layer::Tiles(t) => json_tile_layer(t, id, options.encoding),
                Layer::Objects(g) => json_object_group(g, id, i),
            }
            .map_err(|e| e.in_path(format!("layers[{i}]")))
        }),
    );
    fields.push(("layers".into(), layers));
    let mut out = Vec::new();
    write_json(&JsonNode::Object(fields), &mut out)?;
    out.push(b'\n');
    Ok(out)
}

/// One tileset as an external TSX file (`<tileset>` as its root, no `firstgid`: the map that
/// references it gives that), for maps written with [`TiledOptions::external_tilesets`].
/// `image`'s path is relative to the TSX file.
pub fn to_tsx(ts: &Tileset, image: Option<&TilesetImage>) -> Result<Vec<u8>> {
    let mut x = Xml {
        w: Writer::new_with_indent(Vec::new(), b' ', 1),
    };
    x.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    x.tileset(ts, image, None, TMX, None)?;
    let mut out = x.w.into_inner();
    out.push(b'\n');
    Ok(out)
}

/// One tileset as an external JSON tileset file (`.tsj`), the TMJ counterpart of [`to_tsx`].
pub fn to_tsj(ts: &Tileset, image: Option<&TilesetImage>) -> Result<Vec<u8>> {
    let value = json_tileset(ts, image, None, None)?;
    let mut out = serde_json::to_vec_pretty(&value)
        .map_err(|e| Error::new(TMJ, ErrorKind::Io, Location::default(), e.to_string()))?;
    out.push(b'\n');
    Ok(out)
}

const TMX: Format = Format::Tmx;
const TMJ: Format = Format::Tmj;

// ---------------------------------------------------------------------------------------------
// Shared pieces

/// Layers are numbered 1, 2, … bottom to top: the model has no layer ids of its own.
fn layer_id(index: usize) -> u32 {
    u32::try_from(index).map_or(u32::MAX, |i| i.saturating_add(1))
}

fn next_layer_id(map: &TileMap) -> u32 {
    layer_id(map.layers.len())
}

fn next_object_id(map: &TileMap) -> u32 {
    map.layers
        .iter()
        .filter_map(|l| match l {
            Layer::Objects(g) => g.objects.iter().map(|o| o.id).max(),
            Layer::Tiles(_) => None,
        })
        .max()
        .unwrap_or(0)
        .saturating_add(1)
}

/// The map's properties plus the extension slot.
fn map_properties(map: &TileMap) -> Properties {
    let mut props = map.properties.clone();
    props.string(SOURCE_FORMAT_PROPERTY, map.source_format.name());
    props
}

fn tileset_properties(ts: &Tileset) -> Properties {
    let mut props = ts.properties.clone();
    if let Some(image) = &ts.image {
        props.string(IMAGE_PROPERTY, image.clone());
    }
    props
}

/// The tiles a tileset writes, by id: those with data, and every tile of an image-less tileset.
fn tile_entries(ts: &Tileset, has_image: bool) -> BTreeMap<u32, Option<&TileData>> {
    let mut out = BTreeMap::new();
    if !has_image && ts.tile_count <= MAX_DECLARED_TILES {
        out.extend((0..ts.tile_count).map(|id| (id, None)));
    }
    for tile in &ts.tiles {
        if !tile.properties.is_empty() || !tile.collision.is_empty() {
            out.insert(tile.id, Some(tile));
        }
    }
    out
}

fn check_image(ts: &Tileset, image: &TilesetImage, format: Format) -> Result<()> {
    let wide_enough = u64::from(image.columns) * u64::from(ts.tile_width) <= u64::from(image.width);
    if image.columns == 0 || !wide_enough {
        return Err(Error::new(
            format,
            ErrorKind::Unsupported,
            Location::path("image"),
            format!(
                "tileset {:?}: image {:?} is {} px wide, which cannot hold {} columns of {} px tiles",
                ts.name, image.path, image.width, image.columns, ts.tile_width
            ),
        ));
    }
    Ok(())
}

fn finite(v: f64, format: Format, what: &str) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::new(
            format,
            ErrorKind::Unsupported,
            Location::path(what),
            format!("{what} is {v}; Tiled only stores finite numbers"),
        ))
    }
}

/// The (x, y) Tiled stores: tile objects are anchored at their bottom left.
fn tiled_position(o: &MapObject) -> (f64, f64) {
    match (&o.shape, o.gid) {
        (Shape::Rect { height, .. }, Some(_)) => (o.x, o.y + height),
        _ => (o.x, o.y),
    }
}

/// Collision shapes numbered within their tile where the model leaves the id at 0.
fn collision_ids(shapes: &[MapObject]) -> impl Iterator<Item = (u32, &MapObject)> {
    shapes.iter().enumerate().map(|(i, o)| {
        let id = if o.id == 0 { layer_id(i) } else { o.id };
        (id, o)
    })
}

fn layer_bytes(layer: &TileLayer) -> String {
    let raw: Vec<u8> = layer
        .data()
        .iter()
        .flat_map(|gid| gid.to_le_bytes())
        .collect();
    base64_encode(&crate::encoding::zlib_compress(&raw))
}

// ---------------------------------------------------------------------------------------------
// TMX

/// Escape for XML 1.0: quick-xml's escaping of `& < > ' "`, plus character references for the
/// whitespace XML would otherwise normalise (line breaks and tabs in attributes, carriage returns
/// everywhere). Control characters XML 1.0 cannot hold at all are an error.
fn xml_escape(s: &str, attribute: bool) -> Result<Cow<'_, str>> {
    if let Some(c) = s
        .chars()
        .find(|&c| c < ' ' && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(Error::new(
            TMX,
            ErrorKind::Unsupported,
            Location::default(),
            format!(
                "the string {s:?} holds U+{:04X}, which XML 1.0 cannot represent",
                u32::from(c)
            ),
        ));
    }
    let escaped = quick_xml::escape::escape(s);
    let special: &[char] = if attribute {
        &['\n', '\r', '\t']
    } else {
        &['\r']
    };
    if !escaped.contains(special) {
        return Ok(escaped);
    }
    let mut out = String::with_capacity(escaped.len().saturating_add(16));
    for c in escaped.chars() {
        match c {
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
    Ok(Cow::Owned(out))
}

fn num(v: f64, format: Format, what: &str) -> Result<String> {
    finite(v, format, what).map(|v| v.to_string())
}

struct Xml {
    w: Writer<Vec<u8>>,
}

type Attrs = Vec<(&'static str, String)>;

impl Xml {
    fn event(&mut self, event: Event<'_>) -> Result<()> {
        self.w
            .write_event(event)
            .map_err(|e| Error::new(TMX, ErrorKind::Io, Location::default(), e.to_string()))
    }

    fn element(name: &str, attrs: Attrs) -> Result<BytesStart<'_>> {
        let mut start = BytesStart::new(name);
        for (key, value) in attrs {
            let value = xml_escape(&value, true)
                .map_err(|e| e.in_path(key))?
                .into_owned();
            start.push_attribute(Attribute {
                key: QName(key.as_bytes()),
                value: Cow::Owned(value.into_bytes()),
            });
        }
        Ok(start)
    }

    fn start(&mut self, name: &str, attrs: Attrs) -> Result<()> {
        let start = Self::element(name, attrs)?;
        self.event(Event::Start(start))
    }

    fn empty(&mut self, name: &str, attrs: Attrs) -> Result<()> {
        let start = Self::element(name, attrs)?;
        self.event(Event::Empty(start))
    }

    fn end(&mut self, name: &str) -> Result<()> {
        self.event(Event::End(BytesEnd::new(name)))
    }

    fn text(&mut self, text: &str) -> Result<()> {
        let escaped = xml_escape(text, false)?;
        self.event(Event::Text(BytesText::from_escaped(escaped)))
    }

    fn properties(&mut self, props: &Properties) -> Result<()> {
        if props.is_empty() {
            return Ok(());
        }
        self.start("properties", vec![])?;
        for (i, p) in props.0.iter().enumerate() {
            self.property(&p.name, &p.value)
                .map_err(|e| e.in_path(format!("[{i}]")))?;
        }
        self.end("properties")
    }

    fn property(&mut self, name: &str, value: &PropertyValue) -> Result<()> {
        let (kind, text) = match value {
            PropertyValue::String(s) => (None, s.clone()),
            PropertyValue::Int(v) if i32::try_from(*v).is_err() => (None, v.to_string()),
            PropertyValue::Int(v) => (Some("int"), v.to_string()),
            PropertyValue::Float(v) => (Some("float"), num(*v, TMX, "value")?),
            PropertyValue::Bool(v) => (Some("bool"), v.to_string()),
            PropertyValue::Color(v) => (Some("color"), v.clone()),
            PropertyValue::File(v) => (Some("file"), v.clone()),
            PropertyValue::Object(v) => (Some("object"), v.to_string()),
        };
        let mut attrs: Attrs = vec![("name", name.to_string())];
        if let Some(kind) = kind {
            attrs.push(("type", kind.to_string()));
        }
        if text.contains('\n') {
            self.start("property", attrs)?;
            self.text(&text)?;
            self.end("property")
        } else {
            attrs.push(("value", text));
            self.empty("property", attrs)
        }
    }

    fn tileset(
        &mut self,
        ts: &Tileset,
        image: Option<&TilesetImage>,
        tile_images: Option<&BTreeMap<u32, TileImage>>,
        format: Format,
        first_gid: Option<u32>,
    ) -> Result<()> {
        if let Some(image) = image {
            check_image(ts, image, format)?;
        }
        // Embedded in a map: `firstgid` first; a file of its own: the versions instead.
        let mut attrs: Attrs = match first_gid {
            Some(gid) => vec![("firstgid", gid.to_string())],
            None => vec![
                ("version", FORMAT_VERSION.to_string()),
                ("tiledversion", TILED_VERSION.to_string()),
            ],
        };
        attrs.extend([
            ("name", ts.name.clone()),
            ("tilewidth", ts.tile_width.to_string()),
            ("tileheight", ts.tile_height.to_string()),
            ("tilecount", ts.tile_count.to_string()),
            ("columns", image.map_or(0, |i| i.columns).to_string()),
        ]);
        self.start("tileset", attrs)?;
        self.properties(&tileset_properties(ts))
            .map_err(|e| e.in_path("properties"))?;
        if let Some(image) = image {
            self.empty(
                "image",
                vec![
                    ("source", image.path.clone()),
                    ("width", image.width.to_string()),
                    ("height", image.height.to_string()),
                ],
            )?;
        }
        for (id, tile) in tile_entries(ts, image.is_some()) {
            let own = tile_images.and_then(|t| t.get(&id));
            let own_image = |x: &mut Self| match own {
                Some(i) => x.empty(
                    "image",
                    vec![
                        ("width", i.width.to_string()),
                        ("height", i.height.to_string()),
                        ("source", i.path.clone()),
                    ],
                ),
                None => Ok(()),
            };
            let Some(tile) = tile else {
                if own.is_some() {
                    self.start("tile", vec![("id", id.to_string())])?;
                    own_image(self)?;
                    self.end("tile")?;
                } else {
                    self.empty("tile", vec![("id", id.to_string())])?;
                }
                continue;
            };
            let at = |e: Error| e.in_path(format!("tiles[id={id}]"));
            self.start("tile", vec![("id", id.to_string())])?;
            self.properties(&tile.properties).map_err(at)?;
            own_image(self)?;
            if !tile.collision.is_empty() {
                self.start("objectgroup", vec![("draworder", "index".to_string())])?;
                for (ci, (id, o)) in collision_ids(&tile.collision).enumerate() {
                    self.object(o, id)
                        .map_err(|e| at(e.in_path(format!("collision[{ci}]"))))?;
                }
                self.end("objectgroup")?;
            }
            self.end("tile")?;
        }
        self.end("tileset")
    }

    fn tile_layer(&mut self, t: &TileLayer, id: u32, encoding: LayerEncoding) -> Result<()> {
        let mut attrs: Attrs = vec![
            ("id", id.to_string()),
            ("name", t.name.clone()),
            ("width", t.width().to_string()),
            ("height", t.height().to_string()),
        ];
        if !t.visible {
            attrs.push(("visible", "0".into()));
        }
        if let Some(tint) = &t.tint {
            attrs.push(("tintcolor", tint.clone()));
        }
        if t.offset != (0.0, 0.0) {
            attrs.push(("offsetx", num(t.offset.0, TMX, "offset.x")?));
            attrs.push(("offsety", num(t.offset.1, TMX, "offset.y")?));
        }
        push_parallax(&mut attrs, t.parallax)?;
        self.start("layer", attrs)?;
        self.properties(&t.properties)
            .map_err(|e| e.in_path("properties"))?;
        match encoding {
            LayerEncoding::Csv => {
                self.start("data", vec![("encoding", "csv".into())])?;
                // Digits, commas and line breaks: nothing to escape.
                self.event(Event::Text(BytesText::from_escaped(csv(t))))?;
            }
            LayerEncoding::Base64Zlib => {
                self.start(
                    "data",
                    vec![
                        ("encoding", "base64".into()),
                        ("compression", "zlib".into()),
                    ],
                )?;
                self.text(&layer_bytes(t))?;
            }
        }
        self.end("data")?;
        self.end("layer")
    }

    fn object_group(&mut self, g: &ObjectGroup, id: u32) -> Result<()> {
        let mut attrs: Attrs = vec![("id", id.to_string()), ("name", g.name.clone())];
        if !g.visible {
            attrs.push(("visible", "0".into()));
        }
        push_parallax(&mut attrs, g.parallax)?;
        if g.objects.is_empty() && g.properties.is_empty() {
            return self.empty("objectgroup", attrs);
        }
        self.start("objectgroup", attrs)?;
        self.properties(&g.properties)
            .map_err(|e| e.in_path("properties"))?;
        for (i, o) in g.objects.iter().enumerate() {
            self.object(o, o.id)
                .map_err(|e| e.in_path(format!("objects[{i}]")))?;
        }
        self.end("objectgroup")
    }

    fn object(&mut self, o: &MapObject, id: u32) -> Result<()> {
        let (x, y) = tiled_position(o);
        let mut attrs: Attrs = Vec::new();
        if id != 0 {
            attrs.push(("id", id.to_string()));
        }
        if !o.name.is_empty() {
            attrs.push(("name", o.name.clone()));
        }
        if !o.class.is_empty() {
            attrs.push(("type", o.class.clone()));
        }
        if let Some(gid) = o.gid {
            attrs.push(("gid", gid.to_string()));
        }
        attrs.push(("x", num(x, TMX, "x")?));
        attrs.push(("y", num(y, TMX, "y")?));
        if let Shape::Rect { width, height } = &o.shape {
            attrs.push(("width", num(*width, TMX, "width")?));
            attrs.push(("height", num(*height, TMX, "height")?));
        }
        if !o.visible {
            attrs.push(("visible", "0".into()));
        }
        if matches!(o.shape, Shape::Rect { .. }) && o.properties.is_empty() {
            return self.empty("object", attrs);
        }
        self.start("object", attrs)?;
        self.properties(&o.properties)
            .map_err(|e| e.in_path("properties"))?;
        match &o.shape {
            Shape::Point => self.empty("point", vec![])?,
            Shape::Rect { .. } => {}
            Shape::Polygon(points) => {
                let mut text = Vec::with_capacity(points.len());
                for (px, py) in points {
                    text.push(format!(
                        "{},{}",
                        num(*px, TMX, "polygon")?,
                        num(*py, TMX, "polygon")?
                    ));
                }
                self.empty("polygon", vec![("points", text.join(" "))])?;
            }
        }
        self.end("object")
    }
}

fn push_parallax(attrs: &mut Attrs, parallax: (f64, f64)) -> Result<()> {
    if parallax != (1.0, 1.0) {
        attrs.push(("parallaxx", num(parallax.0, TMX, "parallax.x")?));
        attrs.push(("parallaxy", num(parallax.1, TMX, "parallax.y")?));
    }
    Ok(())
}

/// Tiled's own CSV layout: a line break, then one row per line with a comma after every gid but
/// the last of the layer.
fn csv(t: &TileLayer) -> String {
    let mut out = String::with_capacity(t.data().len().saturating_mul(4).saturating_add(2));
    out.push('\n');
    let width = usize::try_from(t.width()).unwrap_or(usize::MAX).max(1);
    let rows = t.data().chunks(width);
    let last = rows.len().saturating_sub(1);
    // Written in place, not a `String` per cell: a batch writes millions of cells.
    for (r, row) in rows.enumerate() {
        for (i, gid) in row.iter().enumerate() {
            if i != 0 {
                out.push(',');
            }
            let _ = write!(out, "{gid}");
        }
        if r != last {
            out.push(',');
        }
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// TMJ

fn jnum(v: f64, what: &str) -> Result<Value> {
    finite(v, TMJ, what).map(|v| json!(v))
}

fn insert_properties(obj: &mut JsonMap<String, Value>, props: Vec<Value>) {
    if !props.is_empty() {
        obj.insert("properties".into(), Value::Array(props));
    }
}

fn json_properties(props: &Properties) -> Result<Vec<Value>> {
    props
        .0
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (kind, value) = match &p.value {
                PropertyValue::String(s) => ("string", json!(s)),
                PropertyValue::Int(v) if i32::try_from(*v).is_err() => {
                    ("string", json!(v.to_string()))
                }
                PropertyValue::Int(v) => ("int", json!(v)),
                PropertyValue::Float(v) => (
                    "float",
                    jnum(*v, "value").map_err(|e| e.in_path(format!("[{i}]")))?,
                ),
                PropertyValue::Bool(v) => ("bool", json!(v)),
                PropertyValue::Color(v) => ("color", json!(v)),
                PropertyValue::File(v) => ("file", json!(v)),
                PropertyValue::Object(v) => ("object", json!(v)),
            };
            Ok(json!({ "name": p.name, "type": kind, "value": value }))
        })
        .collect()
}

fn json_tileset(
    ts: &Tileset,
    image: Option<&TilesetImage>,
    tile_images: Option<&BTreeMap<u32, TileImage>>,
    first_gid: Option<u32>,
) -> Result<Value> {
    let mut obj = JsonMap::new();
    // Embedded in a map: `firstgid`; a file of its own: the type and versions instead.
    match first_gid {
        Some(gid) => {
            obj.insert("firstgid".into(), json!(gid));
        }
        None => {
            obj.insert("type".into(), json!("tileset"));
            obj.insert("version".into(), json!(FORMAT_VERSION));
            obj.insert("tiledversion".into(), json!(TILED_VERSION));
        }
    }
    obj.insert("name".into(), json!(ts.name));
    obj.insert("tilewidth".into(), json!(ts.tile_width));
    obj.insert("tileheight".into(), json!(ts.tile_height));
    obj.insert("tilecount".into(), json!(ts.tile_count));
    obj.insert("columns".into(), json!(image.map_or(0, |i| i.columns)));
    obj.insert("margin".into(), json!(0));
    obj.insert("spacing".into(), json!(0));
    if let Some(image) = image {
        check_image(ts, image, TMJ)?;
        obj.insert("image".into(), json!(image.path));
        obj.insert("imagewidth".into(), json!(image.width));
        obj.insert("imageheight".into(), json!(image.height));
    }
    let props = json_properties(&tileset_properties(ts)).map_err(|e| e.in_path("properties"))?;
    insert_properties(&mut obj, props);
    let mut tiles = Vec::new();
    for (id, tile) in tile_entries(ts, image.is_some()) {
        let mut t = JsonMap::new();
        t.insert("id".into(), json!(id));
        if let Some(own) = tile_images.and_then(|t| t.get(&id)) {
            t.insert("image".into(), json!(own.path));
            t.insert("imagewidth".into(), json!(own.width));
            t.insert("imageheight".into(), json!(own.height));
        }
        let Some(tile) = tile else {
            tiles.push(Value::Object(t));
            continue;
        };
        let at = |e: Error| e.in_path(format!("tiles[id={id}]"));
        insert_properties(
            &mut t,
            json_properties(&tile.properties).map_err(|e| at(e.in_path("properties")))?,
        );
        if !tile.collision.is_empty() {
            let objects = collision_ids(&tile.collision)
                .enumerate()
                .map(|(ci, (id, o))| {
                    json_object(o, id).map_err(|e| at(e.in_path(format!("collision[{ci}]"))))
                })
                .collect::<Result<Vec<_>>>()?;
            t.insert(
                "objectgroup".into(),
                json!({
                    "type": "objectgroup",
                    "draworder": "index",
                    "name": "",
                    "opacity": 1,
                    "visible": true,
                    "x": 0,
                    "y": 0,
                    "objects": objects,
                }),
            );
        }
        tiles.push(Value::Object(t));
    }
    if !tiles.is_empty() {
        obj.insert("tiles".into(), Value::Array(tiles));
    }
    Ok(Value::Object(obj))
}

fn json_layer_common(
    obj: &mut JsonMap<String, Value>,
    kind: &str,
    id: u32,
    name: &str,
    visible: bool,
    parallax: (f64, f64),
) -> Result<()> {
    obj.insert("type".into(), json!(kind));
    obj.insert("id".into(), json!(id));
    obj.insert("name".into(), json!(name));
    obj.insert("visible".into(), json!(visible));
    obj.insert("opacity".into(), json!(1));
    obj.insert("x".into(), json!(0));
    obj.insert("y".into(), json!(0));
    if parallax != (1.0, 1.0) {
        obj.insert("parallaxx".into(), jnum(parallax.0, "parallax.x")?);
        obj.insert("parallaxy".into(), jnum(parallax.1, "parallax.y")?);
    }
    Ok(())
}

fn json_tile_layer(t: &TileLayer, id: u32, encoding: LayerEncoding) -> Result<JsonNode<'_>> {
    let mut obj = JsonMap::new();
    json_layer_common(&mut obj, "tilelayer", id, &t.name, t.visible, t.parallax)?;
    obj.insert("width".into(), json!(t.width()));
    obj.insert("height".into(), json!(t.height()));
    if let Some(tint) = &t.tint {
        obj.insert("tintcolor".into(), json!(tint));
    }
    if t.offset != (0.0, 0.0) {
        obj.insert("offsetx".into(), jnum(t.offset.0, "offset.x")?);
        obj.insert("offsety".into(), jnum(t.offset.1, "offset.y")?);
    }
    insert_properties(
        &mut obj,
        json_properties(&t.properties).map_err(|e| e.in_path("properties"))?,
    );
    let data = match encoding {
        LayerEncoding::Csv => JsonNode::Ids(t.data()),
        LayerEncoding::Base64Zlib => {
            obj.insert("encoding".into(), json!("base64"));
            obj.insert("compression".into(), json!("zlib"));
            JsonNode::Value(json!(layer_bytes(t)))
        }
    };
    let mut fields = lazy_fields(obj);
    fields.push(("data".into(), data));
    Ok(JsonNode::Object(fields))
}

/// An object layer; `index` is its place among the map's layers, for error paths.
fn json_object_group(g: &ObjectGroup, id: u32, index: usize) -> Result<JsonNode<'_>> {
    let mut obj = JsonMap::new();
    json_layer_common(&mut obj, "objectgroup", id, &g.name, g.visible, g.parallax)?;
    obj.insert("draworder".into(), json!("topdown"));
    insert_properties(
        &mut obj,
        json_properties(&g.properties).map_err(|e| e.in_path("properties"))?,
    );
    let objects = JsonNode::Each(
        g.objects.len(),
        Box::new(move |i| {
            let o = &g.objects[i];
            json_object(o, o.id).map(JsonNode::Value).map_err(|e| {
                e.in_path(format!("objects[{i}]"))
                    .in_path(format!("layers[{index}]"))
            })
        }),
    );
    let mut fields = lazy_fields(obj);
    fields.push(("objects".into(), objects));
    Ok(JsonNode::Object(fields))
}

fn json_object(o: &MapObject, id: u32) -> Result<Value> {
    let (x, y) = tiled_position(o);
    let mut obj = JsonMap::new();
    obj.insert("id".into(), json!(id));
    obj.insert("name".into(), json!(o.name));
    obj.insert("type".into(), json!(o.class));
    obj.insert("x".into(), jnum(x, "x")?);
    obj.insert("y".into(), jnum(y, "y")?);
    obj.insert("rotation".into(), json!(0));
    obj.insert("visible".into(), json!(o.visible));
    if let Some(gid) = o.gid {
        obj.insert("gid".into(), json!(gid));
    }
    let (width, height) = match &o.shape {
        Shape::Rect { width, height } => (jnum(*width, "width")?, jnum(*height, "height")?),
        _ => (json!(0), json!(0)),
    };
    obj.insert("width".into(), width);
    obj.insert("height".into(), height);
    match &o.shape {
        Shape::Point => {
            obj.insert("point".into(), json!(true));
        }
        Shape::Rect { .. } => {}
        Shape::Polygon(points) => {
            let points = points
                .iter()
                .map(|(px, py)| {
                    Ok(json!({ "x": jnum(*px, "polygon")?, "y": jnum(*py, "polygon")? }))
                })
                .collect::<Result<Vec<_>>>()?;
            obj.insert("polygon".into(), Value::Array(points));
        }
    }
    insert_properties(
        &mut obj,
        json_properties(&o.properties).map_err(|e| e.in_path("properties"))?,
    );
    Ok(Value::Object(obj))
}

// ---------------------------------------------------------------------------------------------
// JSON written as it goes

/// A piece of a TMJ file, turned into bytes by [`write_json`] with the bytes
/// `serde_json::to_vec_pretty` gives the same document as one `Value`: object fields in the
/// order a `serde_json::Map` keeps them (sorted by name), the same pretty layout.
enum JsonNode<'a> {
    /// A finished value.
    Value(Value),
    /// Tile ids, written straight from the layer.
    Ids(&'a [u32]),
    /// An object whose fields may be lazy; sorted by name when written.
    Object(Vec<(String, JsonNode<'a>)>),
    /// An array of `.0` elements, each made only when it is written.
    Each(usize, Box<ElementFn<'a>>),
}

/// Makes element `i` of a [`JsonNode::Each`].
type ElementFn<'a> = dyn Fn(usize) -> Result<JsonNode<'a>> + 'a;

/// The fields of a finished map, to add lazy ones to.
fn lazy_fields<'a>(map: JsonMap<String, Value>) -> Vec<(String, JsonNode<'a>)> {
    map.into_iter()
        .map(|(k, v)| (k, JsonNode::Value(v)))
        .collect()
}

/// Writes `node` as pretty JSON; the first error a lazy element gave is the error.
fn write_json(node: &JsonNode<'_>, out: &mut Vec<u8>) -> Result<()> {
    use serde::Serialize;
    let failed = RefCell::new(None);
    let mut ser = serde_json::Serializer::pretty(out);
    let written = Stream {
        node,
        failed: &failed,
    }
    .serialize(&mut ser);
    match (written, failed.into_inner()) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(e)) => Err(e),
        (Err(e), None) => Err(Error::new(
            TMJ,
            ErrorKind::Io,
            Location::default(),
            e.to_string(),
        )),
    }
}

/// A [`JsonNode`] being serialized, with the slot for a lazy element's error.
struct Stream<'s, 'a> {
    node: &'s JsonNode<'a>,
    failed: &'s RefCell<Option<Error>>,
}

impl serde::Serialize for Stream<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeMap, SerializeSeq};
        match self.node {
            JsonNode::Value(v) => v.serialize(s),
            JsonNode::Ids(ids) => ids.serialize(s),
            JsonNode::Object(fields) => {
                let mut sorted: Vec<&(String, JsonNode<'_>)> = fields.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                let mut m = s.serialize_map(Some(sorted.len()))?;
                for (name, node) in sorted {
                    m.serialize_entry(
                        name,
                        &Stream {
                            node,
                            failed: self.failed,
                        },
                    )?;
                }
                m.end()
            }
            JsonNode::Each(len, make) => {
                let mut seq = s.serialize_seq(Some(*len))?;
                for i in 0..*len {
                    let node = match make(i) {
                        Ok(node) => node,
                        Err(e) => {
                            let message = e.to_string();
                            *self.failed.borrow_mut() = Some(e);
                            return Err(S::Error::custom(message));
                        }
                    };
                    seq.serialize_element(&Stream {
                        node: &node,
                        failed: self.failed,
                    })?;
                }
                seq.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escaping_keeps_whitespace_and_refuses_controls() {
        let attr = xml_escape("a<b>&\"c\"\nd\te\r", true).ok();
        assert_eq!(
            attr.as_deref(),
            Some("a&lt;b&gt;&amp;&quot;c&quot;&#10;d&#9;e&#13;")
        );
        let text = xml_escape("x\ny\r", false).ok();
        assert_eq!(text.as_deref(), Some("x\ny&#13;"));
        let err = xml_escape("bell\u{7}", true).err();
        assert_eq!(err.map(|e| e.format), Some(Format::Tmx));
    }
}
