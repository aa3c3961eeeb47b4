//! The Graal overworld's face to the document layer.

use super::Gmap;
use crate::codec::{Codec, inherent_codec};
use crate::registry::Format;

impl Codec for Gmap {
    inherent_codec!(Gmap, Format::Gmap);

    fn version(&self) -> String {
        match &self.header {
            Some(h) => h.display(),
            None => "gmap (no GRMAP line)".to_owned(),
        }
    }

    fn dump(&self, name: &str) -> String {
        super::dump::dump(name, self)
    }
}
