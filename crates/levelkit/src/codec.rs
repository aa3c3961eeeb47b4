//! [`Codec`]: the one trait every format implements once, and what the any-format layer
//! ([`crate::document`]) needs from it: read with limits, write, validate, the summary `levelkit
//! info` prints, the text `levelkit dump` prints, the version label, and the step to the common
//! model (a [`TileMap`] or a [`Scene`]) where the format has one.
//!
//! This module is a leaf: it knows the shared pieces (errors, limits, the format table, the two
//! common models) and no format. Formats implement the trait in their own folder; the document
//! layer holds the enum of all of them and dispatches to the trait (the shape of gimli-rs/object's
//! `read::Object` trait and its `read::any::File`).

use std::fmt::{Display, Write as _};

use serde_json::Value;

use crate::error::{Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::scene::Scene;
use crate::tilemap::TileMap;

/// What an exporter that may write more than one file produces: the main file, the files it
/// references by relative name (side-car buffers, textures, an OBJ's MTL), and what did not map.
/// The library writes no files; the caller puts `side_files` beside the main one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportFiles {
    /// The main file's bytes.
    pub main: Vec<u8>,
    /// `(file name, bytes)` of each file the main one references, names relative to it.
    pub side_files: Vec<(String, Vec<u8>)>,
    /// What did not map.
    pub warnings: Vec<Warning>,
    /// What the export did that its user may want to know, with nothing lost (a value kept in
    /// `extras` because the target has no place for it).
    pub notes: Vec<String>,
}

/// Reads the files a document references (glTF buffers and images, an OBJ's MTL, textures) by
/// their relative name; `None` when there is no such file. [`no_side_files`] for inputs with
/// nothing beside them.
pub type Resolver<'a> = &'a mut dyn FnMut(&str) -> Option<Vec<u8>>;

/// A [`Resolver`] that finds nothing (stdin, or a library caller without files).
pub fn no_side_files(_: &str) -> Option<Vec<u8>> {
    None
}

/// One format, implemented once in its own folder.
///
/// Reading takes the [`Format`] the registry sniffed, because one model can serve two formats
/// (3D GameStudio text levels and `$$M`, Tiled's TMX and TMJ, glTF and GLB).
pub trait Codec: Sized {
    /// The format this document is in (and is written back in).
    fn format(&self) -> Format;

    /// Read `bytes` as `format`, within `limits`, finding referenced files with `resolve`.
    fn read(format: Format, bytes: &[u8], limits: &Limits, resolve: Resolver<'_>) -> Result<Self>;

    /// The document's bytes in its own format.
    fn write(&self) -> Result<Vec<u8>>;

    /// Every validation finding, with its path.
    fn validate(&self) -> Vec<Warning>;

    /// A short summary as JSON: the fields of `levelkit info --json`.
    fn summary(&self) -> Value;

    /// The format's version as a short phrase (`WWD 1524`, `GR-V1.03`).
    fn version(&self) -> String;

    /// The whole document as readable text (`levelkit dump`); `name` is the file's name.
    fn dump(&self, name: &str) -> String;

    /// The names of the flags set in the file's header, for formats with a flags word:
    /// `levelkit info --json` lists them after the version (in place of the summary's number).
    fn flag_names(&self) -> Option<Vec<&'static str>> {
        None
    }

    /// The rows of `levelkit info` (after the file's name): `format, version`, then one row per
    /// summary field.
    fn info_text(&self) -> String {
        let mut s = String::new();
        let summary = self.summary();
        // One column for the values: as wide as the longest key (`editor_encoding`).
        let width = match &summary {
            Value::Object(fields) => fields.keys().map(String::len).max().unwrap_or(0),
            _ => 0,
        }
        .max(12);
        info_row(
            &mut s,
            &format!("{:<width$} ", "format"),
            format_args!("{}, {}", self.format().name(), self.version()),
        );
        if let Value::Object(fields) = summary {
            for (key, value) in fields {
                if key == "version" {
                    continue;
                }
                let key = format!("{key:<width$} ");
                match value {
                    Value::String(text) => info_row(&mut s, &key, text),
                    other => info_row(&mut s, &key, other),
                }
            }
        }
        s
    }

    /// The common tile map of a level, with warnings for what does not map; `None` for formats
    /// that are not tile maps.
    fn to_tilemap(&self) -> Option<(TileMap, Vec<Warning>)> {
        None
    }

    /// The common 3D model of a 3D format, with warnings for what does not map; `None` for
    /// formats that are not 3D.
    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        None
    }
}

/// The methods of a [`Codec`] implementation that a model type has as its own functions:
/// `inherent_codec!(@io Type)` gives `read` (`Type::read_with(bytes, limits)`), `write` and
/// `summary` (`Type::summary(&self)`, serialisable); `inherent_codec!(Type, Format::X)` adds
/// `format` (always `X`) and `validate` (`Type::validate(&self)`). Use it inside the `impl`.
macro_rules! inherent_codec {
    (@io $ty:ident) => {
        fn read(
            _: $crate::registry::Format,
            bytes: &[u8],
            limits: &$crate::limits::Limits,
            _: $crate::codec::Resolver<'_>,
        ) -> $crate::error::Result<Self> {
            $ty::read_with(bytes, limits)
        }

        fn write(&self) -> $crate::error::Result<Vec<u8>> {
            $ty::write(self)
        }

        fn summary(&self) -> serde_json::Value {
            $crate::codec::summary_value($ty::summary(self))
        }
    };
    ($ty:ident, $format:expr) => {
        $crate::codec::inherent_codec!(@io $ty);

        fn format(&self) -> $crate::registry::Format {
            $format
        }

        fn validate(&self) -> Vec<$crate::error::Warning> {
            $ty::validate(self)
        }
    };
}
pub(crate) use inherent_codec;

/// One row of `levelkit info`'s text: two spaces, the key in a 13-character column, the value.
pub fn info_row(s: &mut String, key: &str, value: impl Display) {
    let _ = writeln!(s, "  {key:<13}{value}");
}

/// The summary of a model as JSON (`Null` if it cannot be serialised, which the summaries of
/// this crate never fail to be).
pub fn summary_value(summary: impl serde::Serialize) -> Value {
    serde_json::to_value(summary).unwrap_or_default()
}

/// Flags as hex with their names: `0x00000003 (USE_Z_COORDS | COMPRESS)`. Bits without a name
/// are shown as hex too, so nothing is hidden.
pub fn flags_text<'a>(bits: u32, names: impl Iterator<Item = &'a str>, known: u32) -> String {
    let mut parts: Vec<String> = names.map(str::to_owned).collect();
    let unknown = bits & !known;
    if unknown != 0 {
        parts.push(format!("0x{unknown:X}"));
    }
    if parts.is_empty() {
        format!("0x{bits:08X}")
    } else {
        format!("0x{bits:08X} ({})", parts.join(" | "))
    }
}

/// The text dump of a 3D format without a dump of its own: a line with its version and summary,
/// then the scene it exports.
pub fn dump_via_scene<C: Codec>(document: &C, name: &str) -> String {
    match document.to_scene() {
        Some((scene, _)) => {
            let summary = serde_json::to_string(&document.summary()).unwrap_or_default();
            let mut s = format!("{name}: {} ({summary})\n", document.version());
            let header = format!("{name}: {} scene", document.format().name());
            s.push_str(&crate::scene::dump::dump(&header, &scene));
            s
        }
        None => format!("{name}: {} file (no text dump yet)\n", document.format()),
    }
}
