//! The MDL model's face to the document layer.

use super::Mdl;
use crate::codec::{Codec, dump_via_scene, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Mdl {
    inherent_codec!(Mdl, Format::Mdl);

    fn version(&self) -> String {
        self.version_name().to_owned()
    }

    fn dump(&self, name: &str) -> String {
        dump_via_scene(self, name)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Some(super::scene::to_scene(self))
    }
}
