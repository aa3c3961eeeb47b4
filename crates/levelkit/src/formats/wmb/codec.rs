//! WMB's face to the document layer.

use super::model::Wmb;
use crate::codec::{Codec, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Wmb {
    inherent_codec!(Wmb, Format::Wmb);

    fn version(&self) -> String {
        format!("3D GameStudio compiled level WMB{}", self.version)
    }

    fn dump(&self, name: &str) -> String {
        super::dump::dump(self, name)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Some(super::scene::to_scene(self))
    }
}
