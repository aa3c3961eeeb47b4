//! `levelkit convert`: the single-file form (`IN OUT`), the choice between it and batch mode,
//! and the conversion both share.

use std::path::Path;

use levelkit::Format;
use levelkit::formats::Model;
use levelkit::formats::wwd::WriteOptions;

use crate::cli::{self, ConvertArgs};
use crate::files::{self, display_name, is_stdio};
use crate::{EXIT_OK, batch, dump, usage};

/// What to write: the format and the options that apply to it.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The output format (one levelkit can write).
    pub format: Format,
    /// WWD only: the compression override.
    pub compress: Option<bool>,
}

impl Target {
    /// Check that the options make sense for the format.
    pub fn new(format: Format, compress: Option<bool>) -> anyhow::Result<Target> {
        if compress.is_some() && format != Format::Wwd {
            return Err(usage(format!(
                "--compress and --no-compress apply to wwd output, not {}",
                format.name()
            )));
        }
        Ok(Target { format, compress })
    }
}

/// The bytes of `model` in the target format.
///
/// Any model becomes its JSON document; a model becomes its own format again. Other pairs
/// (none yet: WWD is the only model) are a usage error, not a fault of the input.
pub fn convert(model: &Model, target: &Target) -> anyhow::Result<Vec<u8>> {
    match (model, target.format) {
        (model, Format::Json) => dump::json_document(model),
        (Model::Wwd(w), Format::Wwd) => Ok(w.write_with(&WriteOptions {
            compress: target.compress,
            relayout: false,
        })?),
        (model, format) if format == model.format() => Ok(model.write()?),
        (model, format) => {
            let (converted, warnings) =
                model.convert_to(format).map_err(|e| usage(e.to_string()))?;
            for w in &warnings {
                crate::report(format_args!("{w}"));
            }
            Ok(converted.write()?)
        }
    }
}

/// True when the arguments ask for batch mode: more than two paths, a directory among them,
/// or `--out`.
fn is_batch(args: &ConvertArgs) -> bool {
    args.out.is_some()
        || args.paths.len() > 2
        || args.paths.iter().any(|p| !is_stdio(p) && p.is_dir())
}

pub fn run(args: &ConvertArgs) -> anyhow::Result<u8> {
    if is_batch(args) {
        return batch::run(args);
    }
    let [input, output] = args.paths.as_slice() else {
        return Err(usage(
            "convert needs IN and OUT, or input files and directories with --out DIR \
             (see `levelkit convert --help`)",
        ));
    };
    let format = match args.to {
        Some(format) => format,
        None if is_stdio(output) => {
            return Err(usage(
                "writing to stdout (`-`) needs --to FORMAT to say which format",
            ));
        }
        None => target_from_name(output)?,
    };
    let target = Target::new(format, args.compression())?;
    if !is_stdio(input) && !is_stdio(output) && files::same_file(input, output) {
        return Err(usage(format!(
            "{} is both the input and the output; levelkit never writes to its input",
            display_name(input)
        )));
    }
    // Refuse early, before the work, when the answer is already known.
    if !is_stdio(output) && !args.force && output.symlink_metadata().is_ok() {
        anyhow::bail!(files::refuse_message(output));
    }
    let model = files::load_model(input)?;
    let bytes = convert(&model, &target)?;
    if is_stdio(output) {
        files::write_stdout(&bytes)?;
    } else {
        files::write_output(output, &bytes, args.force)?;
    }
    Ok(EXIT_OK)
}

/// The format an output name's extension asks for.
fn target_from_name(output: &Path) -> anyhow::Result<Format> {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some((_, ext)) = name.rsplit_once('.') else {
        return Err(usage(format!(
            "{}: no extension to tell the target format; add one or use --to (levelkit writes: {})",
            output.display(),
            cli::writable_names()
        )));
    };
    cli::writable_target(ext).map_err(|e| usage(format!("{}: {e}", output.display())))
}
