//! WWD's face to the document layer.

use serde_json::Value;

use super::{HEADER_SIZE, Wwd, dump};
use crate::codec::{Codec, Resolver, summary_value};
use crate::error::{Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::scene::Scene;
use crate::tilemap::TileMap;

impl Codec for Wwd {
    fn format(&self) -> Format {
        Format::Wwd
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        super::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Wwd::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Wwd::validate(self)
    }

    fn summary(&self) -> Value {
        summary_value(Wwd::summary(self))
    }

    fn version(&self) -> String {
        format!("WWD {HEADER_SIZE}")
    }

    fn dump(&self, name: &str) -> String {
        dump::dump(name, self)
    }

    fn flag_names(&self) -> Option<Vec<&'static str>> {
        Some(self.header.flags.iter_names().map(|(n, _)| n).collect())
    }

    fn info_text(&self) -> String {
        dump::info_text(self)
    }

    fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
        Some(Wwd::to_tilemap(self))
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        None
    }
}
