//! The 3D GameStudio levels' face to the document layer: text levels and `$$M` share one model
//! ([`WmpText`], its dialect tells which), binary levels have theirs ([`Wmpb`]). Both go to the
//! common 3D model through the level ([`super::Level`]).

use super::binary::Wmpb;
use super::text::{Dialect, WmpText};
use crate::codec::{Codec, dump_via_scene, inherent_codec};
use crate::error::Warning;
use crate::registry::Format;
use crate::scene::Scene;

impl Codec for WmpText {
    inherent_codec!(@io WmpText);

    fn format(&self) -> Format {
        if self.dialect() == Dialect::DollarM {
            Format::DollarM
        } else {
            Format::WmpText
        }
    }

    fn validate(&self) -> Vec<Warning> {
        let mut out = WmpText::validate(self);
        out.extend(super::a4_findings(self));
        out
    }

    fn version(&self) -> String {
        match self.dialect().version() {
            Some(711) => "3D GameStudio $$M (version 711)".to_owned(),
            Some(v) => format!("3D GameStudio text level, version {v}"),
            None => "3D GameStudio text level, A4 (no version line)".to_owned(),
        }
    }

    fn dump(&self, name: &str) -> String {
        dump_via_scene(self, name)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        let (level, mut warnings) = super::level_of_text(self);
        let (scene, more) = super::to_scene(&level, Codec::format(self));
        warnings.extend(more);
        Some((scene, warnings))
    }
}

impl Codec for Wmpb {
    inherent_codec!(Wmpb, Format::Wmpb);

    fn version(&self) -> String {
        match Wmpb::summary(self).version {
            Some(v) => format!("3D GameStudio WMPB {v}"),
            None => "3D GameStudio WMPB".to_owned(),
        }
    }

    fn dump(&self, name: &str) -> String {
        dump_via_scene(self, name)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        let (level, mut warnings) = self.to_level();
        let (scene, more) = super::to_scene(&level, Format::Wmpb);
        warnings.extend(more);
        Some((scene, warnings))
    }
}
