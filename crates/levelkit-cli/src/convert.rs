//! `levelkit convert`: the single-file form (`IN OUT`) and the choice between it and batch mode
//! ([`crate::batch`]); `levelkit render`. The conversion itself is [`crate::conversion`].

use std::path::Path;

use levelkit::Format;
use levelkit::document::Model;

use crate::cli::{self, ConvertArgs};
use crate::conversion::{Target, convert_with_side_files, write_converted};
use crate::files::{self, display_name, is_stdio};
use crate::{EXIT_OK, batch, usage};

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
    let format = match args.to.as_slice() {
        [format] => *format,
        [_, _, ..] => {
            return Err(usage(
                "several --to formats need batch mode (--out DIR); one file converts to one format",
            ));
        }
        [] if is_stdio(output) => {
            return Err(usage(
                "writing to stdout (`-`) needs --to FORMAT to say which format",
            ));
        }
        [] => target_from_name(output)?,
    };
    let target = Target::new(format, args.compression())?
        .with_tiles(args.tiles.clone())
        .with_game(args.game.clone())
        .with_images(args.images.clone())
        .with_palette(args.palette.clone())
        .with_graal_version(args.graal_version)
        .with_assets(args.assets.clone());
    if args.graal_version.is_some() && format != Format::GraalLevel {
        return Err(usage(format!(
            "--graal-version applies to graal output, not {}",
            format.name()
        )));
    }
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
    if args.json && is_stdio(output) {
        return Err(usage(
            "--json prints a report on stdout, where `-` would write the output; name an OUT file",
        ));
    }
    if let Some(code) = world(args, input, output, format)? {
        return Ok(code);
    }
    let model = crate::images::load(input, target.format, target.palette.as_deref())?;
    if let Some(code) = crate::animation::convert(&model, format, input, output, args)? {
        return Ok(code);
    }
    convert_and_report(&model, &target, input, output, args.force, args.json)
}

/// Overworlds: a `.gmap` to a Tiled `.world` (with its levels as `.tmx`), and back; `None`
/// for every other pair.
fn world(
    args: &ConvertArgs,
    input: &Path,
    output: &Path,
    format: Format,
) -> anyhow::Result<Option<u8>> {
    let from_world = !is_stdio(input)
        && Format::from_path_name(&input.to_string_lossy()) == Some(Format::TiledWorld);
    if format != Format::TiledWorld && !from_world {
        return Ok(None);
    }
    if is_stdio(output) {
        return Err(usage(
            "a world conversion writes several files; name an OUT file, not `-`",
        ));
    }
    let mut notes = Vec::new();
    let code = if from_world {
        if format != Format::Gmap {
            return Err(usage(format!(
                "a Tiled world converts to gmap, not {}",
                format.name()
            )));
        }
        crate::world::world_to_gmap(input, output, args.force, &mut notes)
    } else {
        match files::load_model(input)? {
            Model::Gmap(g) => crate::world::gmap_to_world(
                &g,
                input,
                output,
                args.tiles.clone(),
                args.force,
                None,
                &mut notes,
            ),
            other => Err(usage(format!(
                "only a Graal overworld (.gmap) becomes a Tiled world, not a {} file",
                other.format().name()
            ))),
        }
    };
    for note in &notes {
        crate::report(note);
    }
    code.map(Some)
}

/// Convert `model` to `output` (or stdout), then print what the conversion noticed: one line per
/// warning, also when the conversion failed after noticing them; with `json`, one JSON object on
/// stdout instead (`input`, `output`, `format`, `warnings`) when the conversion succeeded.
fn convert_and_report(
    model: &Model,
    target: &Target,
    input: &Path,
    output: &Path,
    force: bool,
    json: bool,
) -> anyhow::Result<u8> {
    let mut notes = Vec::new();
    let result = if is_stdio(output) {
        convert_with_side_files(model, target, input, None, None, &mut notes)
            .and_then(|converted| files::write_stdout(&converted.main))
    } else {
        write_converted(model, target, input, output, force, None, &mut notes).map(|_| ())
    };
    if json && result.is_ok() {
        let report = serde_json::json!({
            "input": input.display().to_string(),
            "output": output.display().to_string(),
            "format": target.format.name(),
            "warnings": notes,
        });
        println!("{report}");
    } else {
        for note in &notes {
            crate::report(note);
        }
    }
    result.map(|()| EXIT_OK)
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

/// `levelkit render IN OUT.png`.
pub fn render(args: &cli::RenderArgs) -> anyhow::Result<u8> {
    let target = Target::new(Format::Png, None)?
        .with_tiles(args.tiles.clone())
        .with_game(args.game.clone())
        .with_images(args.images.clone());
    if !is_stdio(&args.input)
        && !is_stdio(&args.output)
        && files::same_file(&args.input, &args.output)
    {
        return Err(usage(format!(
            "{} is both the input and the output; levelkit never writes to its input",
            display_name(&args.input)
        )));
    }
    if !is_stdio(&args.output) && !args.force && args.output.symlink_metadata().is_ok() {
        anyhow::bail!(files::refuse_message(&args.output));
    }
    let model = files::load_model(&args.input)?;
    if let Model::Gmap(g) = &model {
        let mut notes = Vec::new();
        let result = crate::world::render(
            g,
            &args.input,
            args.tiles.as_deref(),
            args.max_size,
            &mut notes,
        )
        .and_then(|png| {
            if is_stdio(&args.output) {
                files::write_stdout(&png)
            } else {
                files::write_output(&args.output, &png, args.force)
            }
        });
        for note in &notes {
            crate::report(note);
        }
        return result.map(|()| EXIT_OK);
    }
    convert_and_report(
        &model,
        &target,
        &args.input,
        &args.output,
        args.force,
        false,
    )
}
