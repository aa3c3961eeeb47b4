//! A Tiled map (`.tmx`, `.tmj`) as a document: the common tile map read by `tiled::from_tmx`
//! or `from_tmj`, written by `tiled::to_tmx` or `to_tmj`, and the way back to the level it was
//! made from.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Model;
use crate::codec::{Codec, Resolver};
use crate::error::{Error, Location, Result, Severity, Warning};
use crate::formats::graal::nw;
use crate::formats::wwd;
use crate::limits::Limits;
use crate::registry::Format;
use crate::tiled::{self, TiledOptions};
use crate::tilemap::{Layer, TileMap, sprites};

/// A Tiled map file in the common model, with what re-writing and rendering it need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TiledDoc {
    /// [`Format::Tmx`] or [`Format::Tmj`]: the form it was read in, and is written back in.
    pub format: Format,
    /// The map.
    pub map: TileMap,
    /// The tileset images and layer encoding the file used (not in JSON).
    #[serde(skip)]
    pub options: TiledOptions,
    /// What reading the file noticed (not in JSON).
    #[serde(skip)]
    pub warnings: Vec<Warning>,
}

impl TiledDoc {
    /// The level format a map converts back to when no other is asked for: the one it was made
    /// from, if that is a level format.
    pub fn level_format(&self) -> Option<Format> {
        matches!(
            self.map.source_format,
            Format::Wwd | Format::GraalLevel | Format::Nw
        )
        .then_some(self.map.source_format)
    }

    /// The map as a level of `target` (WWD, `.graal` or `.nw`).
    pub fn to_level(&self, target: Format) -> Result<(Model, Vec<Warning>)> {
        let family = |f: Format| match f {
            Format::Wwd => Some(0),
            Format::GraalLevel | Format::Nw => Some(1),
            _ => None,
        };
        if let (Some(a), Some(b)) = (family(self.map.source_format), family(target))
            && a != b
        {
            return Err(Error::unsupported(
                target,
                Location::default(),
                format!(
                    "this map was made from a {} level; it converts back to {}, not to {}",
                    self.map.source_format.name(),
                    if a == 0 { "wwd" } else { "graal or nw" },
                    target.name()
                ),
            ));
        }
        // Object images are pictures of what the level stores, made again on every export.
        let without_sprites;
        let map = if self.map.tilesets.iter().any(sprites::is_sprite_tileset) {
            let mut m = self.map.clone();
            sprites::detach(&mut m);
            without_sprites = m;
            &without_sprites
        } else {
            &self.map
        };
        match target {
            Format::Wwd => wwd::from_tilemap(map).map(|(w, warn)| (Model::Wwd(w), warn)),
            Format::GraalLevel => crate::formats::graal::tilemap::tilemap_to_graal(map)
                .map(|(g, warn)| (Model::Graal(g), warn)),
            Format::Nw => nw::tilemap_to_nw(map).map(|(n, warn)| (Model::Nw(n), warn)),
            other => Err(Error::unsupported(
                other,
                Location::default(),
                format!("a Tiled map cannot become {} yet", other.name()),
            )),
        }
    }
}

impl Codec for TiledDoc {
    fn format(&self) -> Format {
        self.format
    }

    fn read(format: Format, bytes: &[u8], _: &Limits, resolve: Resolver<'_>) -> Result<Self> {
        // External tilesets (`source="…tsx"`) come through `resolve`, relative to the map.
        let read = if format == Format::Tmx {
            crate::tiled::from_tmx_with(bytes, resolve)?
        } else {
            crate::tiled::from_tmj_with(bytes, resolve)?
        };
        Ok(TiledDoc {
            format,
            map: read.map,
            options: read.options,
            warnings: read.warnings,
        })
    }

    fn write(&self) -> Result<Vec<u8>> {
        if self.format == Format::Tmj {
            tiled::to_tmj(&self.map, &self.options)
        } else {
            tiled::to_tmx(&self.map, &self.options)
        }
    }

    fn validate(&self) -> Vec<Warning> {
        let mut out = self.warnings.clone();
        out.extend(self.map.validate());
        if let Some(level) = self.level_format()
            && let Err(e) = self.to_level(level)
        {
            out.push(Warning {
                format: e.format,
                severity: Severity::Error,
                location: e.location.clone(),
                message: format!("does not convert back to {}: {}", level.name(), e.message),
            });
        }
        out
    }

    fn summary(&self) -> Value {
        let (mut tiles, mut groups, mut objects) = (0usize, 0usize, 0usize);
        for layer in &self.map.layers {
            match layer {
                Layer::Tiles(_) => tiles += 1,
                Layer::Objects(g) => {
                    groups += 1;
                    objects += g.objects.len();
                }
            }
        }
        serde_json::json!({
            "width": self.map.width,
            "height": self.map.height,
            "tile_width": self.map.tile_width,
            "tile_height": self.map.tile_height,
            "tilesets": self.map.tilesets.len(),
            "tile_layers": tiles,
            "object_groups": groups,
            "objects": objects,
            "source_format": self.map.source_format.name(),
        })
    }

    fn version(&self) -> String {
        format!(
            "Tiled map of a {} level",
            self.level_format().map_or("non-levelkit", |f| f.name())
        )
    }

    fn dump(&self, name: &str) -> String {
        format!("{name}: {} file (no text dump yet)\n", self.format)
    }

    fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
        Some((self.map.clone(), self.warnings.clone()))
    }
}
