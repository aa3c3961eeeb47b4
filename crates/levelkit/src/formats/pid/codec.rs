//! The PID image's face to the document layer.

use super::dump;
use super::model::{Pid, PidFlags};
use crate::codec::{Codec, inherent_codec};
use crate::registry::Format;

impl Codec for Pid {
    inherent_codec!(Pid, Format::Pid);

    fn version(&self) -> String {
        format!("PID, {}", self.grammar().name())
    }

    fn dump(&self, name: &str) -> String {
        dump::dump(name, self)
    }

    fn flag_names(&self) -> Option<Vec<&'static str>> {
        Some(
            self.flags
                .iter_names()
                .map(|(n, _)| n)
                .chain((self.flags.bits() & !PidFlags::all().bits() != 0).then_some("UNKNOWN"))
                .collect(),
        )
    }

    fn info_text(&self) -> String {
        dump::info_text(self)
    }
}
