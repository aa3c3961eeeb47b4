//! The Graal animation's face to the document layer.

use super::Gani;
use crate::codec::{Codec, inherent_codec};
use crate::registry::Format;

impl Codec for Gani {
    inherent_codec!(Gani, Format::Gani);

    fn version(&self) -> String {
        match &self.header {
            Some(h) => format!("GANI{:04}", h.version),
            None => "gani (no header line)".to_owned(),
        }
    }

    fn dump(&self, name: &str) -> String {
        super::dump::dump(name, self)
    }
}
