//! The Graal text level's face to the document layer.

use super::Nw;
use crate::codec::{Codec, inherent_codec};
use crate::error::Warning;
use crate::formats::graal::dump;
use crate::registry::Format;
use crate::tilemap::TileMap;

impl Codec for Nw {
    inherent_codec!(Nw, Format::Nw);

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
