//! Tiled maps, TMX (XML) and TMJ (JSON), and their tilesets (TSX, TSJ): [`to_tmx`] / [`to_tmj`]
//! write a [`TileMap`], [`from_tmx`] / [`from_tmj`] read it back.
//!
//! * `write.rs`: [`to_tmx`], [`to_tmj`], [`to_tsx`], [`to_tsj`];
//! * `read/`: [`from_tmx`], [`from_tmj`] and their `_with` forms for external tilesets, giving a
//!   [`TiledMap`]; `read/tmx.rs` reads the XML form (parsed by `read/xml.rs`), `read/tmj.rs` the
//!   JSON form;
//! * `options.rs`: [`TiledOptions`] and what else both sides share.
//!
//! # Writing
//!
//! [`to_tmx`] and [`to_tmj`] write a [`TileMap`] as a TMX (XML) or TMJ (JSON) map for Tiled 1.8.2 and later.
//!
//! Specs: the Tiled manual's "TMX Map Format" and "JSON Map Format" pages, version 1.8
//! (<https://doc.mapeditor.org/en/stable/reference/tmx-map-format/>). Every map written here is
//! checked against Tiled 1.8.2 itself (`tests/it/tiled_export.rs`, through
//! `tmxrasterizer` when it is installed).
//!
//! What is written:
//!
//! * an orthogonal, finite (`infinite="0"`) map with `nextlayerid`/`nextobjectid`, the background
//!   colour, and the map properties;
//! * every tileset embedded, with its per-tile properties and collision shapes; or, for the
//!   tilesets [`TiledOptions::external_tilesets`] names, a reference to a tileset file of its own
//!   (`<tileset firstgid="1" source="…tsx"/>`, `{"firstgid":1,"source":"…tsj"}`) that
//!   [`to_tsx`] / [`to_tsj`] write: a batch of maps sharing one tileset writes it once;
//! * tile layers as CSV, or as zlib-compressed base64 with [`LayerEncoding::Base64Zlib`];
//!   parallax, offset, visibility, tint colour and properties;
//! * object groups with point, rectangle, polygon and tile objects, and typed properties.
//!
//! Decisions:
//!
//! * **Object class.** Tiled 1.8 reads an object's class from the `type` attribute (TMX) or key
//!   (TMJ). Tiled 1.9 renamed it `class`, and 1.10 renamed it back to `type` for objects and tiles,
//!   so `type` is what every Tiled from 1.0 on reads.
//! * **Tileset images.** A tileset gets an `<image>` only when [`TiledOptions`] gives one for it,
//!   with its true pixel size. Otherwise it is written as an image-less tileset (Tiled's
//!   "collection of images", `columns="0"`). The model's [`Tileset::image`] is not used as an
//!   image source: for WWD it is a folder of separate tile images with a Windows path, and for
//!   Graal a bare file name; an `<image>` naming a file that is not there makes Tiled report the
//!   tileset as broken and throws away its tile count. Cells of an image-less tileset load and
//!   keep their gids, but draw nothing. Every tile of an image-less tileset is declared (an empty
//!   `<tile id="…"/>` where the model has no data for it): Tiled creates only the tiles a
//!   collection declares, so without them the tileset panel is empty and a map re-saved by Tiled
//!   comes back with `tilecount="0"` (checked against Tiled 1.8.2). Tilesets of more than
//!   [`MAX_DECLARED_TILES`] tiles declare only the tiles that carry data.
//! * **Object images.** A tileset given [`TiledOptions::tile_images`] is a collection of images
//!   whose tiles each carry their own `<image>` (TMJ: `image`, `imagewidth`, `imageheight`), as
//!   [`crate::tilemap::sprites`] makes for the sprites of WWD objects and the pictures of Graal
//!   NPCs; its objects are tile objects, so Tiled draws them as the game does (checked pixel for
//!   pixel against [`crate::picture::render`] with Tiled 1.8.2 in `tests/it/tiled_render.rs`).
//! * **Extension slot.** What has no Tiled attribute is kept as a custom property prefixed
//!   `levelkit.`: [`Tileset::image`] as the tileset's string property `levelkit.image`,
//!   [`TileMap::source_format`] as the map's string property `levelkit.source_format`.
//! * **Multi-line strings.** XML turns a line break inside an attribute into a space, so a string
//!   property holding a line break is written as element content
//!   (`<property name="script">line 1&#10;line 2</property>` with real line breaks), as Tiled itself
//!   does. Carriage returns are written as `&#13;` everywhere and tabs in attributes as `&#9;`, so
//!   they survive XML's whitespace normalisation too.
//! * **Tile objects.** The model puts every object's (x, y) at its top left; Tiled puts a tile
//!   object's at its bottom left, so an object with a gid is written at y + height.
//! * **Wide integers.** Tiled keeps `int` properties in 32 bits (Tiled 1.8.2 wraps 3000000000 to
//!   -1294967296 when it saves),
//!   so an [`PropertyValue::Int`] outside the `i32` range is written as a `string` property
//!   holding its decimal value; [`crate::tilemap::Properties::get_int`] reads it back.
//! * **Collision shapes.** Shapes whose id is 0 are numbered 1, 2, … within their tile, as Tiled
//!   numbers them.
//!
//! What is refused (an error, never a silently broken file): a coordinate, parallax factor or
//! float property that is not finite; in TMX, a string holding a control character XML 1.0 cannot
//! represent (U+0000–U+001F other than tab, line feed and carriage return); a tileset image whose
//! `columns` is 0 or wider than the image.
//!
//! # Reading
//!
//! [`from_tmx`] and [`from_tmj`] read a TMX (XML) or TMJ (JSON) map back into a [`TileMap`], the
//! exact inverse of the writer, and a faithful reader of what Tiled 1.8+ writes when a user saves.
//!
//! Specs: the Tiled manual's "TMX Map Format" and "JSON Map Format" pages
//! (<https://doc.mapeditor.org/en/stable/reference/tmx-map-format/>). `tests/it/tiled_import.rs`
//! reads back every map [`to_tmx`] and [`to_tmj`] write, and the same maps after Tiled 1.8.2 itself
//! has loaded and saved them.
//!
//! What is read:
//!
//! * the map: size, tile size, background colour, properties; [`TileMap::source_format`] from the
//!   `levelkit.source_format` property (removed from the properties; a map without it, made in
//!   Tiled, gets the format it was read from);
//! * embedded tilesets with their properties, per-tile properties and collision shapes
//!   (`levelkit.image` becomes [`Tileset::image`]); a tileset's `<image>` goes into
//!   [`TiledMap::options`] (`tileset_images`, by tileset index), so that exporting the map again with
//!   those options writes the same tileset;
//! * external tilesets (`<tileset firstgid="1" source="tilesets/pics1.tsx"/>` in TMX,
//!   `{"firstgid":1,"source":"…"}` in TMJ), TSX or TSJ whichever the map's own form (told by the
//!   file's first byte, as Tiled reads either from either), through the [`Resolver`] given to
//!   [`from_tmx_with`] / [`from_tmj_with`] (the library itself opens no files): read like an
//!   embedded tileset, with the map's `firstgid`; the tileset image's path, relative to the
//!   tileset file, is made relative to the map; [`TiledOptions::external_tilesets`] records
//!   the reference, so that writing the map again writes the same reference. Each reference is
//!   charged to the allocation budget by the file's size;
//! * tile layers in every encoding Tiled writes: CSV, base64 uncompressed, zlib or gzip, and the
//!   old `<tile gid="…"/>` elements; name, size, visibility, offset, parallax, tint colour,
//!   properties; [`TiledMap::options`] gets the encoding of the first tile layer;
//! * object groups with point, rectangle, polygon and tile objects, typed properties, visibility
//!   and parallax;
//! * properties of every type Tiled 1.8 has except `class`: `string` (attribute or element
//!   content), `int`, `float`, `bool`, `color`, `file`, `object`, in file order.
//!
//! Decisions (each one undoes a convention of the writer, or maps what Tiled writes):
//!
//! * **Tile objects** are stored by Tiled at their bottom left; the model's (x, y) is the top left,
//!   so a rectangle with a gid is read at y − height. (Only exact when y + height − height is,
//!   which holds for the integral and binary-fraction coordinates the legacy formats have.)
//! * **Collision shapes** get id 0, the model's id for them; the writer numbered them 1, 2, …
//! * **Declared empty tiles.** An image-less tileset declares every tile (`<tile id="3"/>`); Tiled
//!   re-saves them with an empty embedded image (`<image format="png"><data encoding="base64"/>`).
//!   Neither carries data, so only tiles with properties or collision shapes become
//!   [`TileData`], which is exactly what the writer writes from.
//! * **Colours.** The model holds `#AARRGGBB`; Tiled drops the alpha when it is `ff`, so a
//!   `#RRGGBB` colour (background, tint, `color` property) is read as `#ffRRGGBB`.
//! * **Wide integers** stay the `string` properties the writer made of them
//!   ([`crate::tilemap::Properties::get_int`] reads them); an `int` is read as 64 bits.
//! * **Object class** is read from `type` (Tiled 1.8 and 1.10+), or from `class` (Tiled 1.9) when
//!   `type` is absent or empty. A `class` on the map, a layer or a tileset has no home and is
//!   reported.
//! * **Property order** is file order. Tiled sorts properties by name when it saves; converters
//!   look properties up by name, so nothing depends on the order.
//! * **Text.** XML line ends are normalised as XML 1.0 says (`\r\n` and `\r` become `\n` in element
//!   content, literal line breaks and tabs in attributes become spaces); character references
//!   such as `&#13;`, which the writer uses for exactly that reason, are kept.
//! * **What the model cannot hold** is read as closely as it can be and reported in
//!   [`TiledMap::warnings`], never dropped silently: group layers are flattened (their visibility,
//!   offset and parallax applied to their children), image layers are skipped, an ellipse becomes
//!   its bounding rectangle, a polyline a polygon, a text object a point; opacity other than 1,
//!   rotation, locked layers, object group offsets (applied to the objects), tile animations,
//!   per-tile images, tile classes and other extras are reported. Editor-only state
//!   (`<editorsettings>`, ids, `nextlayerid`, `nextobjectid`, draw order) is ignored.
//!
//! What is refused, with an error naming the element or JSON path and, in TMX, the line and
//! column: a map that is not orthogonal; an infinite map or a layer made of `<chunk>`s ("uncheck
//! Map > Infinite"); object templates; any gid with a flip or rotation bit (the legacy formats
//! cannot flip tiles); an external tileset the resolver does not find (`from_tmx` and `from_tmj` find
//! none), or a tileset file that points to another; layer data whose cell count is not width × height; zstd compression; a property of
//! unknown type; numbers that do not parse; malformed XML or JSON; input that would need more
//! memory than [`Limits::default`] allows. Layer sizes are checked against the input's size before
//! anything is allocated, and decompressed data is read through `take(width × height × 4)`.

mod options;
mod read;
pub mod types;
mod write;

pub use options::{
    FORMAT_VERSION, IMAGE_PROPERTY, LayerEncoding, MAX_DECLARED_TILES, SOURCE_FORMAT_PROPERTY,
    TILED_VERSION, TileImage, TiledOptions, TilesetImage,
};
pub use read::{TiledMap, from_tmj, from_tmj_with, from_tmx, from_tmx_with};
pub use write::{to_tmj, to_tmx, to_tsj, to_tsx};

#[cfg(doc)]
use crate::{
    codec::Resolver,
    limits::Limits,
    tilemap::{PropertyValue, TileData, TileMap, Tileset},
};
