//! The terrain's face to the document layer.

use super::Hmp;
use crate::codec::{Codec, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Hmp {
    inherent_codec!(Hmp, Format::Hmp);

    fn version(&self) -> String {
        String::from_utf8_lossy(self.version.magic()).into_owned()
    }

    fn dump(&self, name: &str) -> String {
        super::dump::dump(name, self)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Some(super::scene::to_scene(self))
    }
}
