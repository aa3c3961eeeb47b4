//! The Graal animation's face to the document layer.

use serde_json::Value;

use super::Gani;
use crate::codec::{Codec, Resolver, summary_value};
use crate::error::{Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;

impl Codec for Gani {
    fn format(&self) -> Format {
        Format::Gani
    }

    fn read(_: Format, bytes: &[u8], limits: &Limits, _: Resolver<'_>) -> Result<Self> {
        super::read_with(bytes, limits)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Gani::write(self)
    }

    fn validate(&self) -> Vec<Warning> {
        Gani::validate(self)
    }

    fn summary(&self) -> Value {
        summary_value(Gani::summary(self))
    }

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
