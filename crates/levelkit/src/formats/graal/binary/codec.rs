//! The binary Graal level's face to the document layer.

use super::Graal;
use crate::codec::{Codec, inherent_codec};
use crate::error::Warning;
use crate::formats::graal::dump;
use crate::registry::Format;
use crate::tilemap::TileMap;

impl Codec for Graal {
    inherent_codec!(Graal, Format::GraalLevel);

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
