//! Wings 3D's face to the document layer.

use serde_json::Value;

use super::{Wings, dump};
use crate::codec::{Codec, Resolver, summary_value};
use crate::error::{Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Wings {
    fn format(&self) -> Format {
        Format::Wings
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        super::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Wings::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Wings::validate(self)
    }

    fn summary(&self) -> Value {
        summary_value(Wings::summary(self))
    }

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
