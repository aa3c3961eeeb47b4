//! WWD's face to the document layer.

use super::{HEADER_SIZE, Wwd, dump};
use crate::codec::{Codec, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::tilemap::TileMap;

impl Codec for Wwd {
    inherent_codec!(Wwd, Format::Wwd);

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
}
