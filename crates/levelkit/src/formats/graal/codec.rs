//! The binary Graal level's face to the document layer.

use serde_json::Value;

use super::{Graal, dump};
use crate::codec::{Codec, Resolver, summary_value};
use crate::error::{Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::tilemap::TileMap;

impl Codec for Graal {
    fn format(&self) -> Format {
        Format::GraalLevel
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        super::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Graal::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Graal::validate(self)
    }

    fn summary(&self) -> Value {
        summary_value(Graal::summary(self))
    }

    fn version(&self) -> String {
        String::from_utf8_lossy(self.version.header()).into_owned()
    }

    fn dump(&self, name: &str) -> String {
        let (level, warnings) = self.to_level();
        let kind = format!("graal level ({})", Codec::version(self));
        dump::dump(name, &kind, &level, &warnings)
    }

    fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
        Some(Graal::to_tilemap(self))
    }
}
