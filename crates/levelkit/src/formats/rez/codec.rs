//! The REZ archive's face to the document layer: the owned model, read whole.

use super::Rez;
use crate::codec::{Codec, inherent_codec};
use crate::registry::Format;

impl Codec for Rez {
    inherent_codec!(Rez, Format::Rez);

    fn version(&self) -> String {
        format!("REZ version {}", self.header.version)
    }

    fn dump(&self, name: &str) -> String {
        Rez::dump(self, name)
    }
}
