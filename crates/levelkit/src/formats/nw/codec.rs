//! The Graal text level's face to the document layer.

use serde_json::Value;

use super::Nw;
use crate::codec::{Codec, Resolver, summary_value};
use crate::error::{Result, Warning};
use crate::formats::graal::dump;
use crate::limits::Limits;
use crate::registry::Format;
use crate::tilemap::TileMap;

impl Codec for Nw {
    fn format(&self) -> Format {
        Format::Nw
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        super::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Nw::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Nw::validate(self)
    }

    fn summary(&self) -> Value {
        summary_value(Nw::summary(self))
    }

    fn version(&self) -> String {
        "GLEVNW01".to_owned()
    }

    fn dump(&self, name: &str) -> String {
        let (level, warnings) = self.to_level();
        dump::dump(name, "nw level (GLEVNW01)", &level, &warnings)
    }

    fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
        Some(Nw::to_tilemap(self))
    }
}
