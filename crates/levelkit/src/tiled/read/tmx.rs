//! TMX (XML): the map, its tilesets, layers and objects from the element tree.

use super::xml::El;
use super::*;

impl Ctx<'_> {
    fn attr_num<T: std::str::FromStr>(
        &self,
        at: &At,
        el: &El,
        name: &str,
        kind: &str,
    ) -> Result<Option<T>> {
        let Some(v) = el.attr(name) else {
            return Ok(None);
        };
        v.trim().parse::<T>().map(Some).map_err(|_| {
            Error::malformed(
                TMX,
                at.field(name),
                format!(
                    "{}: attribute {name}=\"{v}\" of <{}> is not {kind}",
                    at.what, el.name
                ),
            )
        })
    }

    fn attr_u32(&self, at: &At, el: &El, name: &str) -> Result<Option<u32>> {
        self.attr_num(at, el, name, "an unsigned 32-bit integer")
    }

    fn need_u32(&self, at: &At, el: &El, name: &str) -> Result<u32> {
        self.attr_u32(at, el, name)?.ok_or_else(|| {
            Error::malformed(
                TMX,
                at.field(name),
                format!("{}: <{}> has no {name} attribute", at.what, el.name),
            )
        })
    }

    fn attr_f64(&self, at: &At, el: &El, name: &str, default: f64) -> Result<f64> {
        let v: Option<f64> = self.attr_num(at, el, name, "a number")?;
        match v {
            None => Ok(default),
            Some(f) if f.is_finite() => Ok(f),
            Some(_) => Err(Error::malformed(
                TMX,
                at.field(name),
                format!(
                    "{}: attribute {name} of <{}> is not a finite number",
                    at.what, el.name
                ),
            )),
        }
    }

    fn attr_bool(&self, at: &At, el: &El, name: &str, default: bool) -> Result<bool> {
        match el.attr(name) {
            None => Ok(default),
            Some(v) => parse_bool(v).ok_or_else(|| {
                Error::malformed(
                    TMX,
                    at.field(name),
                    format!(
                        "{}: attribute {name}=\"{v}\" of <{}> is not 0 or 1",
                        at.what, el.name
                    ),
                )
            }),
        }
    }

    pub(super) fn tmx_map(&mut self, el: &El, at: &At) -> Result<TiledMap> {
        check_orientation(
            at,
            el.attr("orientation"),
            self.attr_bool(at, el, "infinite", false)?,
        )?;
        if let Some(order) = el.attr("renderorder").filter(|o| *o != "right-down") {
            self.warn(
                at,
                format!("render order {order} is not kept (the model draws right-down)"),
            );
        }
        self.tmx_class(at, el);
        let head = MapHead {
            width: self.need_u32(at, el, "width")?,
            height: self.need_u32(at, el, "height")?,
            tile_width: self.need_u32(at, el, "tilewidth")?,
            tile_height: self.need_u32(at, el, "tileheight")?,
            background: el.attr("backgroundcolor").map(color),
        };
        let mut properties = Properties::new();
        let mut tilesets = Vec::new();
        let mut layers = Vec::new();
        for child in &el.children {
            match child.name.as_str() {
                "properties" => properties.0.extend(self.tmx_properties(at, child)?.0),
                "tileset" => {
                    let index = tilesets.len();
                    let ts = self.tmx_tileset(at, child, index)?;
                    tilesets.push(ts);
                }
                "layer" | "objectgroup" | "imagelayer" | "group" => {
                    self.tmx_layer(at, child, None, &mut layers)?;
                }
                "editorsettings" => {}
                other => self.warn(
                    &self.at_el(at.clone(), child),
                    format!("the element <{other}> is not read"),
                ),
            }
        }
        self.finish(at, head, properties, tilesets, layers)
    }

    fn tmx_class(&mut self, at: &At, el: &El) {
        if let Some(class) = el.attr("class").filter(|c| !c.is_empty()) {
            let at = self.at_el(at.clone(), el);
            self.warn(&at, format!("the class {class:?} is not kept"));
        }
    }

    fn tmx_properties(&mut self, parent: &At, el: &El) -> Result<Properties> {
        let mut out = Properties::new();
        for (i, p) in el.all("property").enumerate() {
            // The common case without building a path: a named property of a scalar type whose
            // value parses. Anything else takes the path below, which names the place.
            if let (Some(name), None) = (
                p.attr("name"),
                p.attr("propertytype").filter(|t| !t.is_empty()),
            ) {
                let text = p.attr("value").unwrap_or(&p.text);
                if let Some(value) = quick_value(p.attr("type").unwrap_or("string"), text) {
                    out.0.push(Property {
                        name: name.to_string(),
                        value,
                    });
                    continue;
                }
            }
            let name = p.attr("name").unwrap_or("");
            let at = self.at_el(
                parent.child(format!("property {name:?}"), &format!("properties[{i}]")),
                p,
            );
            if p.attr("name").is_none() {
                return Err(at.malformed("<property> has no name attribute"));
            }
            let kind = p.attr("type").unwrap_or("string");
            if let Some(pt) = p.attr("propertytype").filter(|t| !t.is_empty()) {
                self.warn(&at, format!("the custom property type {pt:?} is not kept"));
            }
            let text = p.attr("value").unwrap_or(&p.text);
            let value = property_value(&at, kind, Scalar::Text(text))?;
            out.0.push(Property {
                name: name.to_string(),
                value,
            });
        }
        Ok(out)
    }

    fn tmx_tileset(&mut self, map: &At, el: &El, index: usize) -> Result<Tileset> {
        let name = el.attr("name").unwrap_or("");
        let at = self.at_el(
            map.child(format!("tileset {name:?}"), &format!("tilesets[{index}]")),
            el,
        );
        let first_gid = self.need_u32(&at, el, "firstgid")?;
        if let Some(source) = el.attr("source") {
            return self.external_tileset(&at, source, first_gid, index);
        }
        self.tmx_tileset_body(&at, el, index, first_gid)
    }

    /// A `<tileset>`'s contents, in a map or a TSX file of its own (`first_gid` from the map).
    pub(super) fn tmx_tileset_body(
        &mut self,
        at: &At,
        el: &El,
        index: usize,
        first_gid: u32,
    ) -> Result<Tileset> {
        let at = at.clone();
        let name = el.attr("name").unwrap_or("");
        self.tmx_class(&at, el);
        let tile_width = self.need_u32(&at, el, "tilewidth")?;
        let tile_height = self.need_u32(&at, el, "tileheight")?;
        let declared_count = self.attr_u32(&at, el, "tilecount")?;
        let columns = self.attr_u32(&at, el, "columns")?;
        self.spacing(
            &at,
            self.attr_u32(&at, el, "margin")?,
            self.attr_u32(&at, el, "spacing")?,
        );
        let mut properties = Properties::new();
        let mut image = None;
        let mut tiles = Vec::new();
        let mut max_id = None;
        for child in &el.children {
            match child.name.as_str() {
                "properties" => properties.0.extend(self.tmx_properties(&at, child)?.0),
                "image" => {
                    let iat = self.at_el(at.child("image", "image"), child);
                    image = self.tmx_image(&iat, child, tile_width, columns)?;
                }
                "tile" => {
                    let id = self.need_u32(&self.at_el(at.clone(), child), child, "id")?;
                    max_id = max_id.max(Some(id));
                    let sprites = crate::tilemap::sprites::is_sprite_properties(&properties);
                    if let Some(tile) = self.tmx_tile(&at, child, id, sprites)? {
                        tiles.push(tile);
                    }
                }
                "grid" | "transformations" => {}
                other => {
                    let cat = self.at_el(at.clone(), child);
                    self.warn(&cat, format!("the element <{other}> is not read"));
                }
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

    fn tmx_image(
        &mut self,
        at: &At,
        el: &El,
        tile_width: u32,
        columns: Option<u32>,
    ) -> Result<Option<TilesetImage>> {
        let Some(path) = el.attr("source") else {
            if !el.children.is_empty() {
                self.warn(at, "an embedded tileset image is not kept");
            }
            return Ok(None);
        };
        if el.attr("trans").is_some() {
            self.warn(at, "the transparent colour is not kept");
        }
        let width = self.attr_u32(at, el, "width")?;
        let height = self.attr_u32(at, el, "height")?;
        Ok(Some(image_of(path, width, height, tile_width, columns)))
    }

    /// A `<tile>` of a tileset: data only when it has properties or collision shapes. The
    /// images of a sprite tileset's tiles are made again on every export, so dropping them is
    /// no loss (`sprites`).
    fn tmx_tile(&mut self, ts: &At, el: &El, id: u32, sprites: bool) -> Result<Option<TileData>> {
        let at = self.at_el(
            ts.child(format!("tile {id}"), &format!("tiles[id={id}]")),
            el,
        );
        for key in ["type", "class"] {
            if let Some(c) = el.attr(key).filter(|c| !c.is_empty()) {
                self.warn(&at, format!("the tile class {c:?} is not kept"));
            }
        }
        let mut properties = Properties::new();
        let mut collision = Vec::new();
        for child in &el.children {
            match child.name.as_str() {
                "properties" => properties.0.extend(self.tmx_properties(&at, child)?.0),
                "objectgroup" => {
                    for (i, o) in child.all("object").enumerate() {
                        let oat =
                            self.at_el(at.child("collision shape", &format!("collision[{i}]")), o);
                        collision.push(self.tmx_object(&oat, o, true)?);
                    }
                }
                "image" => {
                    let empty = child.attr("source").is_none()
                        && child.all("data").all(|d| d.text.trim().is_empty());
                    if !empty && !sprites {
                        let iat = self.at_el(at.clone(), child);
                        self.warn(&iat, "the tile's own image is not kept");
                    }
                }
                other => {
                    let cat = self.at_el(at.clone(), child);
                    self.warn(&cat, format!("the element <{other}> is not read"));
                }
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

    fn tmx_head(&mut self, at: &At, el: &El) -> Result<LayerHead> {
        self.tmx_class(at, el);
        if self.attr_bool(at, el, "locked", false)? {
            self.warn(at, "the layer is locked; the model has no locking");
        }
        if self.attr_f64(at, el, "x", 0.0)? != 0.0 || self.attr_f64(at, el, "y", 0.0)? != 0.0 {
            self.warn(at, "the layer's x and y (deprecated in Tiled) are not kept");
        }
        Ok(LayerHead {
            name: el.attr("name").unwrap_or("").to_string(),
            visible: self.attr_bool(at, el, "visible", true)?,
            offset: (
                self.attr_f64(at, el, "offsetx", 0.0)?,
                self.attr_f64(at, el, "offsety", 0.0)?,
            ),
            parallax: (
                self.attr_f64(at, el, "parallaxx", 1.0)?,
                self.attr_f64(at, el, "parallaxy", 1.0)?,
            ),
            opacity: self.attr_f64(at, el, "opacity", 1.0)?,
            tint: el.attr("tintcolor").map(color),
        })
    }

    fn tmx_layer(
        &mut self,
        map: &At,
        el: &El,
        group: Option<Inherit>,
        out: &mut Vec<Layer>,
    ) -> Result<()> {
        let index = out.len();
        let name = el.attr("name").unwrap_or("");
        let kind = match el.name.as_str() {
            "layer" => "layer",
            "objectgroup" => "object group",
            "imagelayer" => "image layer",
            _ => "group",
        };
        let part = format!("layers[{index}]");
        let at = self.at_el(map.child(format!("{kind} {name:?}"), &part), el);
        let head = self.tmx_head(&at, el)?;
        match el.name.as_str() {
            "layer" => {
                let head = head.within(group);
                let width = self.need_u32(&at, el, "width")?;
                let height = self.need_u32(&at, el, "height")?;
                let mut properties = Properties::new();
                let mut gids = None;
                for child in &el.children {
                    match child.name.as_str() {
                        "properties" => properties.0.extend(self.tmx_properties(&at, child)?.0),
                        "data" => {
                            let dat = self.at_el(at.clone(), child);
                            gids = Some(self.tmx_data(&dat, child, width, height)?);
                        }
                        other => {
                            let cat = self.at_el(at.clone(), child);
                            self.warn(&cat, format!("the element <{other}> is not read"));
                        }
                    }
                }
                let gids = gids.ok_or_else(|| at.malformed("the layer has no <data>"))?;
                let layer = self.tile_layer(&at, head, (width, height), gids, properties)?;
                out.push(Layer::Tiles(layer));
            }
            "objectgroup" => {
                let head = head.within(group);
                self.layer_extras(&at, &head);
                if let Some(tint) = &head.tint {
                    self.warn(
                        &at,
                        format!("the object group's tint colour {tint} is not kept"),
                    );
                }
                if let Some(c) = el.attr("color") {
                    self.warn(&at, format!("the object group's colour {c} is not kept"));
                }
                let mut properties = Properties::new();
                let mut objects = Vec::new();
                for child in &el.children {
                    match child.name.as_str() {
                        "properties" => properties.0.extend(self.tmx_properties(&at, child)?.0),
                        "object" => {
                            let i = objects.len();
                            let oat = self.at_el(
                                at.child(
                                    format!("object {}", child.attr("id").unwrap_or("without id")),
                                    &format!("objects[{i}]"),
                                ),
                                child,
                            );
                            objects.push(self.tmx_object(&oat, child, false)?);
                        }
                        other => {
                            let cat = self.at_el(at.clone(), child);
                            self.warn(&cat, format!("the element <{other}> is not read"));
                        }
                    }
                }
                out.push(Layer::Objects(
                    self.object_group(&at, head, objects, properties),
                ));
            }
            "imagelayer" => {
                let source = el.all("image").find_map(|i| i.attr("source")).unwrap_or("");
                self.warn(
                    &at,
                    format!(
                        "image layers have no place in the model; the layer (image {source:?}) \
                         is skipped"
                    ),
                );
            }
            _ => {
                self.warn(
                    &at,
                    "group layers have no place in the model; the group's layers are read in \
                     its place, with its visibility, offset and parallax applied to them",
                );
                if el.all("properties").next().is_some() {
                    self.warn(&at, "the group's properties are not kept");
                }
                let inherit = group.unwrap_or(Inherit {
                    visible: true,
                    offset: (0.0, 0.0),
                    parallax: (1.0, 1.0),
                    opacity: 1.0,
                });
                let inherit = inherit.apply(head.visible, head.offset, head.parallax, head.opacity);
                for child in &el.children {
                    match child.name.as_str() {
                        "layer" | "objectgroup" | "imagelayer" | "group" => {
                            self.tmx_layer(map, child, Some(inherit), out)?;
                        }
                        "properties" => {}
                        other => {
                            let cat = self.at_el(at.clone(), child);
                            self.warn(&cat, format!("the element <{other}> is not read"));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn tmx_data(&mut self, at: &At, el: &El, width: u32, height: u32) -> Result<Vec<u32>> {
        if el.all("chunk").next().is_some() {
            return Err(at.unsupported(
                "the layer is stored in chunks (an infinite map); uncheck Map > Infinite in Tiled \
                 and save again",
            ));
        }
        let encoding = el.attr("encoding");
        let compression = el.attr("compression");
        let data = match encoding {
            Some("csv") => Data::Csv(&el.text),
            Some("base64") => Data::Base64(&el.text, compression),
            None => {
                self.encoding.get_or_insert(LayerEncoding::Csv);
                let cells = self.charge_cells(at, width, height)?;
                let count = el.all("tile").count();
                if count != cells {
                    return Err(at.malformed(format!(
                        "the layer is {width} x {height} = {cells} cells, but its data holds \
                         {count} <tile> elements"
                    )));
                }
                let mut out = Vec::with_capacity(cells);
                for (i, t) in el.all("tile").enumerate() {
                    let tat = self.at_el(cell_at(at, i, width), t);
                    out.push(self.attr_u32(&tat, t, "gid")?.unwrap_or(0));
                }
                return Ok(out);
            }
            Some(other) => {
                return Err(at.unsupported(format!(
                    "layer data encoding {other:?} is unknown (Tiled writes csv or base64)"
                )));
            }
        };
        self.encoding.get_or_insert(match encoding {
            Some("base64") => LayerEncoding::Base64Zlib,
            _ => LayerEncoding::Csv,
        });
        self.decode(at, width, height, data)
    }

    fn tmx_object(&mut self, at: &At, el: &El, collision: bool) -> Result<MapObject> {
        if let Some(t) = el.attr("template") {
            return Err(template(at, t));
        }
        let class = match el.attr("type").filter(|t| !t.is_empty()) {
            Some(t) => t,
            None => el.attr("class").unwrap_or(""),
        };
        let mut kind = ShapeKind::Rect;
        let mut properties = Properties::new();
        for child in &el.children {
            match child.name.as_str() {
                "properties" => properties.0.extend(self.tmx_properties(at, child)?.0),
                "point" => kind = ShapeKind::Point,
                "ellipse" => kind = ShapeKind::Ellipse,
                "text" => kind = ShapeKind::Text,
                "polygon" | "polyline" => {
                    let pat = self.at_el(at.clone(), child);
                    let points = points(&pat, child.attr("points").unwrap_or(""))?;
                    kind = if child.name == "polygon" {
                        ShapeKind::Polygon(points)
                    } else {
                        ShapeKind::Polyline(points)
                    };
                }
                other => {
                    let cat = self.at_el(at.clone(), child);
                    self.warn(&cat, format!("the element <{other}> is not read"));
                }
            }
        }
        let raw = RawObject {
            id: self.attr_u32(at, el, "id")?.unwrap_or(0),
            name: el.attr("name").unwrap_or("").to_string(),
            class: class.to_string(),
            x: self.attr_f64(at, el, "x", 0.0)?,
            y: self.attr_f64(at, el, "y", 0.0)?,
            width: self.attr_f64(at, el, "width", 0.0)?,
            height: self.attr_f64(at, el, "height", 0.0)?,
            rotation: self.attr_f64(at, el, "rotation", 0.0)?,
            gid: self.attr_u32(at, el, "gid")?,
            visible: self.attr_bool(at, el, "visible", true)?,
            kind,
            properties,
        };
        self.object(at, raw, collision)
    }
}
