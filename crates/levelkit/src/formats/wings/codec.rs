//! Wings 3D's face to the document layer.

use super::{Wings, dump};
use crate::codec::{Codec, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Wings {
    inherent_codec!(Wings, Format::Wings);

    fn version(&self) -> String {
        format!("Wings {}", Wings::version(self))
    }

    fn dump(&self, name: &str) -> String {
        dump::dump(name, self)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Some(Wings::to_scene(self))
    }
}
