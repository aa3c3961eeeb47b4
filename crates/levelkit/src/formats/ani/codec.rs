//! The ANI animation's face to the document layer.

use super::Ani;
use crate::codec::{Codec, inherent_codec};
use crate::registry::Format;

impl Codec for Ani {
    inherent_codec!(Ani, Format::Ani);

    fn version(&self) -> String {
        format!("ANI (header word 0x{:x})", self.header.signature)
    }

    fn dump(&self, name: &str) -> String {
        super::dump::dump(name, self)
    }
}
