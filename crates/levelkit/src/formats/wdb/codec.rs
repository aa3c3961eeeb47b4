//! V-Chat's face to the document layer.

use serde_json::Value;

use super::Wdb;
use crate::codec::{Codec, Resolver, dump_via_scene, summary_value};
use crate::error::{Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for Wdb {
    fn format(&self) -> Format {
        Format::Wdb
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        super::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Wdb::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Wdb::validate(self)
    }

    fn summary(&self) -> Value {
        summary_value(Wdb::summary(self))
    }

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
