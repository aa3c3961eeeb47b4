//! `levelkit convert`: the single-file form (`IN OUT`) and the choice between it and batch mode
//! ([`crate::batch`]); `levelkit render`. The conversion itself is [`crate::conversion`].

use std::path::Path;

use anyhow::Context as _;

use levelkit::Format;
use levelkit::assets::Folder;
use levelkit::document::convert::Direction;
use levelkit::document::{Model, overworld};

use crate::cli::{self, ConvertArgs};
use crate::conversion::{Target, convert_with_side_files, write_converted};
use crate::files::{self, display_name, is_stdio};
use crate::{EXIT_FAILED, EXIT_OK, batch, usage};

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
    let target = target_of(args, format)?;
    if args.graal_version.is_some() && format != Format::GraalLevel {
        return Err(usage(format!(
            "--graal-version applies to graal output, not {}",
            format.name()
        )));
    }
    if args.mdl_version.is_some() && format != Format::Mdl {
        return Err(usage(format!(
            "--mdl-version applies to mdl output, not {}",
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
    if let Some(code) = from_world(input, output, format, args.force)? {
        return Ok(code);
    }
    let model = crate::conversion::load(input, &target)?;
    check_animation_flags(&model, format, args)?;
    convert_and_report(&model, &target, input, output, args.force, args.json)
}

/// The target of `convert` with every option the command line gives.
pub fn target_of(args: &ConvertArgs, format: Format) -> anyhow::Result<Target> {
    let direction = match &args.dir {
        Some(name) => Some(Direction::from_name(name).ok_or_else(|| {
            usage(format!(
                "--dir {name}: not a direction (up, left, down or right)"
            ))
        })?),
        None => None,
    };
    Ok(Target {
        tiles: args.tiles.clone(),
        game: args.game.clone(),
        images: args.images.clone(),
        palette: args.palette.clone(),
        graal_version: args.graal_version.filter(|_| format == Format::GraalLevel),
        mdl_version: args.mdl_version.filter(|_| format == Format::Mdl),
        assets: args.assets.clone(),
        frames: args.frames.clone(),
        sheet: args.sheet,
        direction,
        placeholders: args.placeholders,
        ..Target::new(format, args.compression())?
    })
}

/// Refuse the animation flags where they do not apply.
fn check_animation_flags(model: &Model, format: Format, args: &ConvertArgs) -> anyhow::Result<()> {
    let picture = matches!(format, Format::Gif | Format::Png);
    let (gani, ani) = (
        model.format() == Format::Gani,
        model.format() == Format::Ani,
    );
    // --images also finds Graal levels' NPC pictures; --dir is for ganis only.
    let level = matches!(model.format(), Format::GraalLevel | Format::Nw);
    if args.images.is_some() && !level && !(gani && picture) {
        return Err(usage(if ani {
            "--images is for Graal animations and levels; a WAP32 animation (.ani) takes its \
             frames from --frames DIR"
        } else {
            "--images applies to Graal animations (.gani) converted to .gif or .png and to Graal \
             levels (.graal, .nw)"
        }));
    }
    if (args.dir.is_some() || args.placeholders) && !(gani && picture) {
        return Err(usage(
            "--dir and --placeholders apply to Graal animations (.gani) converted to .gif or .png",
        ));
    }
    if (args.frames.is_some() && !(ani && picture)) || (args.sheet && !((ani || gani) && picture)) {
        return Err(usage(
            "--frames and --sheet apply to animations (.ani) converted to .gif or .png",
        ));
    }
    Ok(())
}

/// A Tiled world back to its gmap (and each level beside it); `None` for every other input.
/// (A `.gmap` to a Tiled world is an ordinary conversion with several outputs.)
fn from_world(
    input: &Path,
    output: &Path,
    format: Format,
    force: bool,
) -> anyhow::Result<Option<u8>> {
    let from_world = !is_stdio(input)
        && Format::from_path_name(&input.to_string_lossy()) == Some(Format::TiledWorld);
    if !from_world {
        return Ok(None);
    }
    if format != Format::Gmap {
        return Err(usage(format!(
            "a Tiled world converts to gmap, not {}",
            format.name()
        )));
    }
    if is_stdio(output) {
        return Err(usage(
            "a world conversion writes several files; name an OUT file, not `-`",
        ));
    }
    let bytes = files::read_input(input)?;
    let converted = overworld::from_tiled_world(&bytes, &Folder::of_file(input))
        .map_err(|f| anyhow::anyhow!(f.error).context(display_name(input)))?;
    crate::conversion::report_notes(&converted.notes);
    let dir = output.parent().unwrap_or_else(|| Path::new(""));
    for (name, bytes) in &converted.side {
        files::write_output(&dir.join(name), bytes, force)?;
    }
    files::write_output(output, converted.main_bytes(), force)?;
    Ok(Some(if converted.partial {
        EXIT_FAILED
    } else {
        EXIT_OK
    }))
}

/// Convert `model` to `output` (or stdout), then print what the conversion noticed: one line per
/// warning, also when the conversion failed after noticing them; with `json`, one JSON object on
/// stdout instead (`input`, `output`, `format`, the conversion's report and `warnings`) when
/// the conversion succeeded.
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
        convert_with_side_files(model, target, input, None, None, &mut notes).and_then(|c| {
            if c.main.is_none() || !c.side.is_empty() {
                return Err(usage(
                    "this conversion writes several files; name an OUT file, not `-`",
                ));
            }
            files::write_stdout(c.main_bytes())?;
            Ok(c)
        })
    } else {
        write_converted(model, target, input, output, force, None, &mut notes).map(|(_, c)| c)
    };
    match &result {
        Ok(converted) if json => {
            println!("{}", json_report(converted, target, input, output, notes))
        }
        Ok(converted) => {
            crate::conversion::report_notes(&notes);
            // Several files and none of them OUT itself (a gani's directions): say which.
            if converted.main.is_none() {
                let names: Vec<&str> = converted.side.iter().map(|(n, _)| n.as_str()).collect();
                crate::report(format_args!("wrote {}", names.join(", ")));
            }
        }
        Err(_) => crate::conversion::report_notes(&notes),
    }
    // The library's errors name the target format and the place; say which input too.
    let converted = result.with_context(|| display_name(input))?;
    Ok(if converted.partial {
        EXIT_FAILED
    } else {
        EXIT_OK
    })
}

/// `convert --json`'s report: `input`, `output` (or the `outputs` of a gani with their paths),
/// `format`, the conversion's facts, `warnings`.
fn json_report(
    converted: &levelkit::document::Converted,
    target: &Target,
    input: &Path,
    output: &Path,
    notes: Vec<String>,
) -> serde_json::Value {
    use serde_json::Value;
    let dir = output.parent().unwrap_or_else(|| Path::new(""));
    let mut report = serde_json::Map::new();
    report.insert("input".into(), input.display().to_string().into());
    if !converted.report.contains_key("outputs") {
        report.insert("output".into(), output.display().to_string().into());
    }
    report.insert("format".into(), target.format().name().into());
    for (key, value) in &converted.report {
        let value = match value {
            Value::Array(list) if key == "outputs" => Value::Array(
                list.iter()
                    .map(|o| {
                        let mut o = o.clone();
                        if let Some(name) = o.get("output").and_then(Value::as_str) {
                            o["output"] = dir.join(name).display().to_string().into();
                        }
                        o
                    })
                    .collect(),
            ),
            _ => value.clone(),
        };
        report.insert(key.clone(), value);
    }
    report.insert("warnings".into(), notes.into());
    Value::Object(report)
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
    let target = Target {
        tiles: args.tiles.clone(),
        game: args.game.clone(),
        images: args.images.clone(),
        max_size: args.max_size,
        ..Target::new(Format::Png, None)?
    };
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
    // `render` writes PNG: an OUT named otherwise would hold PNG bytes under another name.
    if !is_stdio(&args.output)
        && !args
            .output
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Err(usage(format!(
            "{}: render writes PNG images; name a .png output (or use `convert` for other formats)",
            args.output.display()
        )));
    }
    let model = files::load_model(&args.input)?;
    convert_and_report(
        &model,
        &target,
        &args.input,
        &args.output,
        args.force,
        false,
    )
}
