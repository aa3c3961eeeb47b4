//! V-Chat's face to the document layer.

use super::Wdb;
use crate::codec::{Codec, dump_via_scene, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Wdb {
    inherent_codec!(Wdb, Format::Wdb);

    fn version(&self) -> String {
        format!("V-Chat world, version {}", Wdb::summary(self).version)
    }

    fn dump(&self, name: &str) -> String {
        dump_via_scene(self, name)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Some(Wdb::to_scene(self))
    }
}
