//! `levelkit info`: a short summary per file, as text or JSON Lines.
//!
//! The JSON form is the same for every format: `file`, `format`, `version`, then the fields of
//! the library's `Model::info_record()`. A file that cannot be read gives a line with `file`,
//! `format` (what the name and bytes suggest, or null) and `error`, and exit status 1.

use std::io::{self, Write as _};

use levelkit::document::{InfoRecord, Model};
use serde_json::json;

use crate::cli::InfoArgs;
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
                let mut record = json_summary(&name, &model);
                if let Some((found, of)) = levels_found(path, &model) {
                    record
                        .summary
                        .insert("level_files_found".into(), json!(found));
                    record.summary.insert("level_files".into(), json!(of));
                }
                if let Some((found, of)) = textures_found(path, &model) {
                    record
                        .summary
                        .insert("texture_files_found".into(), json!(found));
                    record.summary.insert("texture_files".into(), json!(of));
                }
                serde_json::to_writer(&mut out, &record)?;
                writeln!(out)?;
            }
            Ok(model) => {
                if index > 0 {
                    writeln!(out)?;
                }
                let summary = text_summary(&name, &model);
                out.write_all(summary.as_bytes())?;
                // The rows added here share the summary's value column.
                let width = value_column(&summary).max("texture files ".len());
                if let Some((found, of)) = levels_found(path, &model) {
                    writeln!(out, "  {:<width$}{found} of {of} beside it", "level files")?;
                }
                if let Some((found, of)) = textures_found(path, &model) {
                    writeln!(
                        out,
                        "  {:<width$}{found} of {of} in its folder",
                        "texture files"
                    )?;
                }
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

/// For a gmap read from a file: how many of its level files are beside it, of how many.
fn levels_found(path: &std::path::Path, model: &Model) -> Option<(usize, usize)> {
    match model {
        Model::Gmap(g) if !files::is_stdio(path) => {
            Some(levelkit::document::overworld::levels_found(
                g,
                &levelkit::assets::Folder::of_file(path),
            ))
        }
        _ => None,
    }
}

/// For a V-Chat world read from a file: how many of the texture files it names its folder
/// holds, of how many (distinct names, any case).
fn textures_found(path: &std::path::Path, model: &Model) -> Option<(usize, usize)> {
    match model {
        Model::Wdb(w) if !files::is_stdio(path) => {
            let world = files::world_of_adf(path).ok().flatten();
            let dir = files::input_dir(world.as_deref().unwrap_or(path));
            let missing = levelkit::document::assets::vchat_missing_files(w, &mut |n: &str| {
                use levelkit::assets::Assets as _;
                levelkit::assets::Folder::new(&dir)
                    .read(n)
                    .map(std::borrow::Cow::into_owned)
            })
            .len();
            let named = w.summary().textures;
            Some((named.saturating_sub(missing), named))
        }
        _ => None,
    }
}

/// The JSON Lines record of one file.
pub fn json_summary<'a>(name: &'a str, model: &Model) -> InfoRecord<'a> {
    model.info_record(name)
}

/// The text form.
pub fn text_summary(name: &str, model: &Model) -> String {
    model.info_text(name)
}

/// Where the values of a text summary start, past its two-space indent: from its `format` row.
fn value_column(summary: &str) -> usize {
    summary
        .lines()
        .find_map(|l| l.strip_prefix("  format"))
        .map_or(13, |rest| {
            "format".len() + rest.len() - rest.trim_start().len()
        })
}
