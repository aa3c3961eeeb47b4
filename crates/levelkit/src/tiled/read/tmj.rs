//! TMJ (JSON): the map, its tilesets, layers and objects from the JSON value.

use super::*;

type Obj = JsonMap<String, Value>;

fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

impl Ctx<'_> {
    fn jerr(&self, at: &At, key: &str, v: &Value, want: &str) -> Error {
        Error::malformed(
            TMJ,
            at.field(key),
            format!("{}: {key} is {}, not {want}", at.what, show(v)),
        )
    }

    fn jstr<'v>(&self, at: &At, o: &'v Obj, key: &str) -> Result<Option<&'v str>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.jerr(at, key, v, "a string")),
        }
    }

    fn ju32(&self, at: &At, o: &Obj, key: &str) -> Result<Option<u32>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => json_int(v)
                .and_then(|i| u32::try_from(i).ok())
                .map(Some)
                .ok_or_else(|| self.jerr(at, key, v, "an unsigned 32-bit integer")),
        }
    }

    fn jneed_u32(&self, at: &At, o: &Obj, key: &str) -> Result<u32> {
        self.ju32(at, o, key)?.ok_or_else(|| {
            Error::malformed(TMJ, at.field(key), format!("{}: {key} is missing", at.what))
        })
    }

    fn jf64(&self, at: &At, o: &Obj, key: &str, default: f64) -> Result<f64> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v
                .as_f64()
                .filter(|f| f.is_finite())
                .ok_or_else(|| self.jerr(at, key, v, "a number")),
        }
    }

    fn jbool(&self, at: &At, o: &Obj, key: &str, default: bool) -> Result<bool> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(self.jerr(at, key, v, "true or false")),
        }
    }

    fn jarray<'v>(&self, at: &At, o: &'v Obj, key: &str) -> Result<&'v [Value]> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(a)) => Ok(a),
            Some(v) => Err(self.jerr(at, key, v, "an array")),
        }
    }

    fn jobj<'v>(&self, at: &At, v: &'v Value) -> Result<&'v Obj> {
        match v {
            Value::Object(o) => Ok(o),
            other => Err(at.malformed(format!("{} is not a JSON object", show(other)))),
        }
    }

    fn jclass(&mut self, at: &At, o: &Obj) -> Result<()> {
        if let Some(class) = self.jstr(at, o, "class")?.filter(|c| !c.is_empty()) {
            self.warn(at, format!("the class {class:?} is not kept"));
        }
        Ok(())
    }

    pub(super) fn tmj_map(&mut self, o: &Obj, at: &At) -> Result<TiledMap> {
        match self.jstr(at, o, "type")? {
            None | Some("map") => {}
            Some(other) => {
                return Err(at.malformed(format!(
                    "the document's type is {other:?}; a TMJ map has type \"map\""
                )));
            }
        }
        check_orientation(
            at,
            self.jstr(at, o, "orientation")?,
            self.jbool(at, o, "infinite", false)?,
        )?;
        if let Some(order) = self
            .jstr(at, o, "renderorder")?
            .filter(|o| *o != "right-down")
        {
            self.warn(
                at,
                format!("render order {order} is not kept (the model draws right-down)"),
            );
        }
        self.jclass(at, o)?;
        let head = MapHead {
            width: self.jneed_u32(at, o, "width")?,
            height: self.jneed_u32(at, o, "height")?,
            tile_width: self.jneed_u32(at, o, "tilewidth")?,
            tile_height: self.jneed_u32(at, o, "tileheight")?,
            background: self.jstr(at, o, "backgroundcolor")?.map(color),
        };
        let properties = self.tmj_properties(at, o)?;
        let mut tilesets = Vec::new();
        for (i, v) in self.jarray(at, o, "tilesets")?.iter().enumerate() {
            let ts = self.tmj_tileset(at, v, i)?;
            tilesets.push(ts);
        }
        let mut layers = Vec::new();
        for (i, v) in self.jarray(at, o, "layers")?.iter().enumerate() {
            let lat = at.child("layer", &format!("layers[{i}]"));
            self.tmj_layer(&lat, v, None, &mut layers)?;
        }
        self.finish(at, head, properties, tilesets, layers)
    }

    fn tmj_properties(&mut self, parent: &At, o: &Obj) -> Result<Properties> {
        let mut out = Properties::new();
        for (i, v) in self.jarray(parent, o, "properties")?.iter().enumerate() {
            let pat = parent.child("property", &format!("properties[{i}]"));
            let p = self.jobj(&pat, v)?;
            let name = self
                .jstr(&pat, p, "name")?
                .ok_or_else(|| pat.malformed("the property has no name"))?;
            let at = parent.child(format!("property {name:?}"), &format!("properties[{i}]"));
            let kind = self.jstr(&at, p, "type")?.unwrap_or("string");
            if let Some(pt) = self.jstr(&at, p, "propertytype")?.filter(|t| !t.is_empty()) {
                self.warn(&at, format!("the custom property type {pt:?} is not kept"));
            }
            let value = p
                .get("value")
                .ok_or_else(|| at.malformed("the property has no value"))?;
            let value = property_value(&at, kind, Scalar::Json(value))?;
            out.0.push(Property {
                name: name.to_string(),
                value,
            });
        }
        Ok(out)
    }

    fn tmj_tileset(&mut self, map: &At, v: &Value, index: usize) -> Result<Tileset> {
        let part = format!("tilesets[{index}]");
        let o = self.jobj(&map.child("tileset", &part), v)?;
        let name = self
            .jstr(&map.child("tileset", &part), o, "name")?
            .unwrap_or("");
        let at = map.child(format!("tileset {name:?}"), &part);
        let first_gid = self.jneed_u32(&at, o, "firstgid")?;
        if let Some(source) = self.jstr(&at, o, "source")? {
            return self.external_tileset(&at, source, first_gid, index);
        }
        self.tmj_tileset_body(&at, o, index, first_gid)
    }

    /// A tileset object's contents, in a map or a TSJ file of its own (`first_gid` from the
    /// map).
    pub(super) fn tmj_tileset_body(
        &mut self,
        at: &At,
        o: &Obj,
        index: usize,
        first_gid: u32,
    ) -> Result<Tileset> {
        let at = at.clone();
        let name = self.jstr(&at, o, "name")?.unwrap_or("");
        self.jclass(&at, o)?;
        let tile_width = self.jneed_u32(&at, o, "tilewidth")?;
        let tile_height = self.jneed_u32(&at, o, "tileheight")?;
        let declared_count = self.ju32(&at, o, "tilecount")?;
        let columns = self.ju32(&at, o, "columns")?;
        self.spacing(
            &at,
            self.ju32(&at, o, "margin")?,
            self.ju32(&at, o, "spacing")?,
        );
        let image = match self.jstr(&at, o, "image")?.filter(|s| !s.is_empty()) {
            Some(path) => {
                if self.jstr(&at, o, "transparentcolor")?.is_some() {
                    self.warn(&at, "the transparent colour is not kept");
                }
                let width = self.ju32(&at, o, "imagewidth")?;
                let height = self.ju32(&at, o, "imageheight")?;
                Some(image_of(path, width, height, tile_width, columns))
            }
            None => None,
        };
        for key in ["tileoffset", "wangsets", "terrains", "objectalignment"] {
            if o.contains_key(key) {
                self.warn(&at, format!("{key} is not read"));
            }
        }
        let properties = self.tmj_properties(&at, o)?;
        let mut tiles = Vec::new();
        let mut max_id = None;
        for (i, tv) in self.jarray(&at, o, "tiles")?.iter().enumerate() {
            let tat = at.child("tile", &format!("tiles[{i}]"));
            let t = self.jobj(&tat, tv)?;
            let id = self.jneed_u32(&tat, t, "id")?;
            max_id = max_id.max(Some(id));
            let sprites = crate::tilemap::sprites::is_sprite_properties(&properties);
            if let Some(tile) = self.tmj_tile(&tat, t, id, sprites)? {
                tiles.push(tile);
            }
        }
        let tile_count = tile_count(declared_count, image.as_ref(), tile_height, max_id);
        let ts = Tileset {
            name: name.to_string(),
            first_gid,
            tile_width,
            tile_height,
            tile_count,
            image: None,
            properties,
            tiles,
        };
        self.tileset(index, ts, image)
    }

    /// A tile of a tileset (see `tmx_tile` for `sprites`).
    fn tmj_tile(&mut self, at: &At, t: &Obj, id: u32, sprites: bool) -> Result<Option<TileData>> {
        let at = &At {
            what: format!("tile {id} ({})", at.path),
            ..at.clone()
        };
        for key in ["type", "class"] {
            if let Some(c) = self.jstr(at, t, key)?.filter(|c| !c.is_empty()) {
                self.warn(at, format!("the tile class {c:?} is not kept"));
            }
        }
        if !sprites && self.jstr(at, t, "image")?.is_some_and(|s| !s.is_empty()) {
            self.warn(at, "the tile's own image is not kept");
        }
        for key in ["animation", "terrain"] {
            if t.contains_key(key) {
                self.warn(at, format!("{key} is not read"));
            }
        }
        let properties = self.tmj_properties(at, t)?;
        let mut collision = Vec::new();
        if let Some(g) = t.get("objectgroup") {
            let gat = at.child("collision group", "objectgroup");
            let g = self.jobj(&gat, g)?;
            for (i, ov) in self.jarray(&gat, g, "objects")?.iter().enumerate() {
                let oat = gat.child("collision shape", &format!("objects[{i}]"));
                collision.push(self.tmj_object(&oat, ov, true)?);
            }
        }
        Ok(
            (!properties.is_empty() || !collision.is_empty()).then_some(TileData {
                id,
                properties,
                collision,
            }),
        )
    }

    fn tmj_head(&mut self, at: &At, o: &Obj) -> Result<LayerHead> {
        self.jclass(at, o)?;
        if self.jbool(at, o, "locked", false)? {
            self.warn(at, "the layer is locked; the model has no locking");
        }
        if self.jf64(at, o, "x", 0.0)? != 0.0 || self.jf64(at, o, "y", 0.0)? != 0.0 {
            self.warn(at, "the layer's x and y (deprecated in Tiled) are not kept");
        }
        Ok(LayerHead {
            name: self.jstr(at, o, "name")?.unwrap_or("").to_string(),
            visible: self.jbool(at, o, "visible", true)?,
            offset: (
                self.jf64(at, o, "offsetx", 0.0)?,
                self.jf64(at, o, "offsety", 0.0)?,
            ),
            parallax: (
                self.jf64(at, o, "parallaxx", 1.0)?,
                self.jf64(at, o, "parallaxy", 1.0)?,
            ),
            opacity: self.jf64(at, o, "opacity", 1.0)?,
            tint: self.jstr(at, o, "tintcolor")?.map(color),
        })
    }

    /// One entry of a `layers` array; `at` is its path (`layers[2]`, `layers[1].layers[0]`).
    fn tmj_layer(
        &mut self,
        at: &At,
        v: &Value,
        group: Option<Inherit>,
        out: &mut Vec<Layer>,
    ) -> Result<()> {
        let o = self.jobj(at, v)?;
        let kind = self.jstr(at, o, "type")?.unwrap_or("");
        let name = self.jstr(at, o, "name")?.unwrap_or("");
        let described = match kind {
            "tilelayer" => "layer",
            "objectgroup" => "object group",
            "imagelayer" => "image layer",
            "group" => "group",
            other => {
                return Err(at.unsupported(format!(
                    "the layer type {other:?} is unknown (Tiled writes tilelayer, objectgroup, \
                     imagelayer and group)"
                )));
            }
        };
        let at = &At {
            what: format!("{described} {name:?} ({})", at.path),
            ..at.clone()
        };
        let head = self.tmj_head(at, o)?;
        match kind {
            "tilelayer" => {
                let head = head.within(group);
                if o.contains_key("chunks") {
                    return Err(at.unsupported(
                        "the layer is stored in chunks (an infinite map); uncheck Map > Infinite \
                         in Tiled and save again",
                    ));
                }
                let width = self.jneed_u32(at, o, "width")?;
                let height = self.jneed_u32(at, o, "height")?;
                let properties = self.tmj_properties(at, o)?;
                let gids = self.tmj_data(at, o, width, height)?;
                let layer = self.tile_layer(at, head, (width, height), gids, properties)?;
                out.push(Layer::Tiles(layer));
            }
            "objectgroup" => {
                let head = head.within(group);
                self.layer_extras(at, &head);
                if let Some(tint) = &head.tint {
                    self.warn(
                        at,
                        format!("the object group's tint colour {tint} is not kept"),
                    );
                }
                if let Some(c) = self.jstr(at, o, "color")? {
                    self.warn(at, format!("the object group's colour {c} is not kept"));
                }
                let properties = self.tmj_properties(at, o)?;
                let mut objects = Vec::new();
                for (i, ov) in self.jarray(at, o, "objects")?.iter().enumerate() {
                    let id = ov
                        .get("id")
                        .map_or("without id".to_string(), |v| v.to_string());
                    let oat = at.child(format!("object {id}"), &format!("objects[{i}]"));
                    objects.push(self.tmj_object(&oat, ov, false)?);
                }
                out.push(Layer::Objects(
                    self.object_group(at, head, objects, properties),
                ));
            }
            "imagelayer" => {
                let source = self.jstr(at, o, "image")?.unwrap_or("");
                self.warn(
                    at,
                    format!(
                        "image layers have no place in the model; the layer (image {source:?}) \
                         is skipped"
                    ),
                );
            }
            _ => {
                self.warn(
                    at,
                    "group layers have no place in the model; the group's layers are read in \
                     its place, with its visibility, offset and parallax applied to them",
                );
                if !self.jarray(at, o, "properties")?.is_empty() {
                    self.warn(at, "the group's properties are not kept");
                }
                let inherit = group.unwrap_or(Inherit {
                    visible: true,
                    offset: (0.0, 0.0),
                    parallax: (1.0, 1.0),
                    opacity: 1.0,
                });
                let inherit = inherit.apply(head.visible, head.offset, head.parallax, head.opacity);
                for (i, cv) in self.jarray(at, o, "layers")?.iter().enumerate() {
                    let cat = at.child("layer", &format!("layers[{i}]"));
                    self.tmj_layer(&cat, cv, Some(inherit), out)?;
                }
            }
        }
        Ok(())
    }

    fn tmj_data(&mut self, at: &At, o: &Obj, width: u32, height: u32) -> Result<Vec<u32>> {
        let encoding = self.jstr(at, o, "encoding")?;
        let compression = self.jstr(at, o, "compression")?;
        let data = o.get("data").ok_or_else(|| {
            Error::malformed(
                TMJ,
                at.field("data"),
                format!("{}: data is missing", at.what),
            )
        })?;
        match (encoding, data) {
            (None | Some("csv"), Value::Array(cells_in)) => {
                self.encoding.get_or_insert(LayerEncoding::Csv);
                let cells = self.charge_cells(at, width, height)?;
                if cells_in.len() != cells {
                    return Err(at.malformed(format!(
                        "the layer is {width} x {height} = {cells} cells, but its data holds {} \
                         cells",
                        cells_in.len()
                    )));
                }
                cells_in
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        json_int(v)
                            .and_then(|g| u32::try_from(g).ok())
                            .ok_or_else(|| {
                                Error::malformed(
                                    TMJ,
                                    at.field(&format!("data[{i}]")),
                                    format!(
                                        "{}: {} is not a tile id (an unsigned 32-bit integer)",
                                        cell_at(at, i, width).what,
                                        show(v)
                                    ),
                                )
                            })
                    })
                    .collect()
            }
            (Some("base64"), Value::String(text)) => {
                self.encoding.get_or_insert(LayerEncoding::Base64Zlib);
                self.decode(at, width, height, Data::Base64(text, compression))
            }
            (Some("base64") | None | Some("csv"), other) => Err(self.jerr(
                at,
                "data",
                other,
                if encoding == Some("base64") {
                    "a base64 string"
                } else {
                    "an array of tile ids"
                },
            )),
            (Some(other), _) => Err(at.unsupported(format!(
                "layer data encoding {other:?} is unknown (Tiled writes csv or base64)"
            ))),
        }
    }

    fn tmj_object(&mut self, at: &At, v: &Value, collision: bool) -> Result<MapObject> {
        let o = self.jobj(at, v)?;
        if let Some(t) = self.jstr(at, o, "template")? {
            return Err(template(at, t));
        }
        let class = match self.jstr(at, o, "type")?.filter(|t| !t.is_empty()) {
            Some(t) => t,
            None => self.jstr(at, o, "class")?.unwrap_or(""),
        };
        let kind = if self.jbool(at, o, "point", false)? {
            ShapeKind::Point
        } else if self.jbool(at, o, "ellipse", false)? {
            ShapeKind::Ellipse
        } else if o.contains_key("polygon") {
            ShapeKind::Polygon(self.jpoints(at, o, "polygon")?)
        } else if o.contains_key("polyline") {
            ShapeKind::Polyline(self.jpoints(at, o, "polyline")?)
        } else if o.contains_key("text") {
            ShapeKind::Text
        } else {
            ShapeKind::Rect
        };
        let raw = RawObject {
            id: self.ju32(at, o, "id")?.unwrap_or(0),
            name: self.jstr(at, o, "name")?.unwrap_or("").to_string(),
            class: class.to_string(),
            x: self.jf64(at, o, "x", 0.0)?,
            y: self.jf64(at, o, "y", 0.0)?,
            width: self.jf64(at, o, "width", 0.0)?,
            height: self.jf64(at, o, "height", 0.0)?,
            rotation: self.jf64(at, o, "rotation", 0.0)?,
            gid: self.ju32(at, o, "gid")?,
            visible: self.jbool(at, o, "visible", true)?,
            kind,
            properties: self.tmj_properties(at, o)?,
        };
        self.object(at, raw, collision)
    }

    fn jpoints(&self, at: &At, o: &Obj, key: &str) -> Result<Vec<(f64, f64)>> {
        self.jarray(at, o, key)?
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let pat = At {
                    path: at.join(&format!("{key}[{i}]")),
                    ..at.clone()
                };
                let p = self.jobj(&pat, p)?;
                Ok((self.jf64(&pat, p, "x", 0.0)?, self.jf64(&pat, p, "y", 0.0)?))
            })
            .collect()
    }
}
