//! `levelkit info`: a short summary per file, as text or JSON Lines.
//!
//! The JSON form is the same for every format: `file`, `format`, `version`, then the fields of
//! the library's `Model::summary()`. A file that cannot be read gives a line with `file`,
//! `format` (what the name and bytes suggest, or null) and `error`, and exit status 1.

use std::fmt::Write as _;
use std::io::{self, Write as _};

use levelkit::formats::Model;
use levelkit::formats::wwd::{HEADER_SIZE, HeaderFlags, Wwd};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::cli::InfoArgs;
use crate::dump::flags_text;
use crate::files::{self, display_name};
use crate::{EXIT_FAILED, EXIT_OK, report};

pub fn run(args: &InfoArgs) -> anyhow::Result<u8> {
    let mut out = io::stdout().lock();
    let mut status = EXIT_OK;
    for (index, path) in args.files.iter().enumerate() {
        let name = display_name(path);
        let loaded = files::load(path);
        let (file_format, model) = match loaded {
            Ok(loaded) => (
                loaded.file_format,
                loaded.model.map_err(anyhow::Error::from),
            ),
            Err(e) => (None, Err(e)),
        };
        match model {
            Ok(model) if args.json => {
                serde_json::to_writer(&mut out, &json_summary(&name, &model))?;
                writeln!(out)?;
            }
            Ok(model) => {
                if index > 0 {
                    writeln!(out)?;
                }
                out.write_all(text_summary(&name, &model).as_bytes())?;
            }
            Err(e) => {
                status = EXIT_FAILED;
                let message = files::error_text(path, &e);
                if args.json {
                    let line = json!({
                        "file": name,
                        "format": file_format.map(|f| f.name()),
                        "error": message,
                    });
                    writeln!(out, "{line}")?;
                }
                out.flush()?;
                report(format_args!("{name}: {message}"));
            }
        }
    }
    out.flush()?;
    Ok(status)
}

/// The format's version as a short phrase (`WWD 1524`).
pub fn version(model: &Model) -> String {
    match model {
        Model::Wwd(_) => format!("WWD {HEADER_SIZE}"),
        Model::Graal(g) => String::from_utf8_lossy(g.version.header()).into_owned(),
        Model::Nw(_) => "GLEVNW01".to_owned(),
        Model::Gani(g) => match &g.header {
            Some(h) => format!("GANI{:04}", h.version),
            None => "gani (no header line)".to_owned(),
        },
        Model::Wings(w) => format!("Wings {}", w.version()),
        Model::Tiled(t) => format!(
            "Tiled map of a {} level",
            t.level_format().map_or("non-levelkit", |f| f.name())
        ),
        Model::Scene(doc) => match doc.format {
            levelkit::Format::Obj => "Wavefront OBJ".to_owned(),
            _ => format!(
                "glTF {}",
                doc.scene
                    .extras
                    .get("gltf_version")
                    .and_then(|v| v.as_str())
                    .unwrap_or("2.0")
            ),
        },
        Model::Wmp(w) => match w.dialect().version() {
            Some(711) => "3D GameStudio $$M (version 711)".to_owned(),
            Some(v) => format!("3D GameStudio text level, version {v}"),
            None => "3D GameStudio text level, A4 (no version line)".to_owned(),
        },
        Model::Wmpb(w) => match w.summary().version {
            Some(v) => format!("3D GameStudio WMPB {v}"),
            None => "3D GameStudio WMPB".to_owned(),
        },
        Model::Wdb(w) => format!("V-Chat world, version {}", w.summary().version),
        other => other.format().name().to_owned(),
    }
}

/// One JSON Lines record: `file`, `format` and `version` first, then the format's summary.
#[derive(Serialize)]
pub struct Record<'a> {
    file: &'a str,
    format: &'static str,
    version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    flags: Option<Vec<&'static str>>,
    #[serde(flatten)]
    summary: Map<String, Value>,
}

/// The JSON Lines record of one file.
pub fn json_summary<'a>(name: &'a str, model: &Model) -> Record<'a> {
    let flags = match model {
        Model::Wwd(w) => Some(w.header.flags.iter_names().map(|(n, _)| n).collect()),
        _ => None,
    };
    let mut summary = match model.summary() {
        Value::Object(fields) => fields,
        Value::Null => Map::new(),
        other => Map::from_iter([("summary".to_owned(), other)]),
    };
    // The leading fields win; a summary field of the same name would make a duplicate key.
    for key in ["file", "format", "version"] {
        summary.remove(key);
    }
    if flags.is_some() {
        summary.remove("flags");
    }
    Record {
        file: name,
        format: model.format().name(),
        version: version(model),
        flags,
        summary,
    }
}

/// The text form.
pub fn text_summary(name: &str, model: &Model) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{name}");
    match model {
        Model::Wwd(w) => wwd_text(&mut s, w),
        other => generic_text(&mut s, other),
    }
    s
}

fn row(s: &mut String, key: &str, value: impl std::fmt::Display) {
    let _ = writeln!(s, "  {key:<13}{value}");
}

fn wwd_text(s: &mut String, w: &Wwd) {
    let summary = w.summary();
    row(s, "format", format_args!("wwd, WWD {HEADER_SIZE}"));
    row(
        s,
        "flags",
        flags_text(
            w.header.flags.bits(),
            w.header.flags.iter_names().map(|(n, _)| n),
            HeaderFlags::all().bits(),
        ),
    );
    row(s, "name", &summary.name);
    row(s, "author", &summary.author);
    row(s, "planes", summary.planes.len());
    for plane in &summary.planes {
        row(s, "", format_args!("- {plane}"));
    }
    row(
        s,
        "tiles",
        format_args!("{} non-empty cells", summary.tiles),
    );
    row(s, "objects", summary.objects);
    let (single, double, mask) = summary.tile_properties;
    row(
        s,
        "tile props",
        format_args!(
            "{} records ({single} single, {double} double, {mask} mask)",
            w.tile_properties.records.len()
        ),
    );
    row(s, "compression", summary.compression);
    let checksum = match (summary.stored_checksum, summary.computed_checksum) {
        (Some(stored), Some(computed)) if stored == computed => format!("ok (0x{stored:08X})"),
        (Some(stored), Some(computed)) => {
            format!("mismatch: stored 0x{stored:08X}, computed 0x{computed:08X}")
        }
        _ => format!("{} (not read from a WWD file)", summary.checksum),
    };
    row(s, "checksum", checksum);
    row(
        s,
        "layout",
        if summary.editor_layout {
            "editor's"
        } else {
            "custom (kept as read)"
        },
    );
}

fn generic_text(s: &mut String, model: &Model) {
    row(
        s,
        "format",
        format_args!("{}, {}", model.format().name(), version(model)),
    );
    if let Value::Object(fields) = model.summary() {
        for (key, value) in fields {
            if key == "version" {
                continue;
            }
            // Summary keys can be longer than the WWD rows' column.
            let key = format!("{key:<12} ");
            match value {
                Value::String(text) => row(s, &key, text),
                other => row(s, &key, other),
            }
        }
    }
}
