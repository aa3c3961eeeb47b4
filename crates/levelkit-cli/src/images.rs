//! Pictures on the command line: `--palette`, the image documents (PID, PCX, PAL) as PNG, and a
//! PNG input converted to a PID or a palette. The steps are the library's
//! (`levelkit::document::image`).

use std::path::Path;

use anyhow::anyhow;
use levelkit::document::{Model, image};
use levelkit::formats::pid::Palette;
use levelkit::{Format, Limits};

use crate::files::{self, display_name, is_stdio};

/// The palette `--palette` names, read.
fn palette(path: Option<&Path>) -> anyhow::Result<Option<Palette>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = files::read_input(path)?;
    let name = files::sniff_name(path);
    image::palette_of(&bytes, name.as_deref(), &Limits::default())
        .map(Some)
        .map_err(|e| anyhow!(e).context(format!("--palette {}", display_name(path))))
}

/// `model` as a PNG, when the target `format` is PNG and the model a picture; `palette` is
/// `--palette`.
pub fn to_png(
    model: &Model,
    format: Format,
    palette_file: Option<&Path>,
) -> anyhow::Result<Option<Vec<u8>>> {
    if format != Format::Png || !image::is_picture(model) {
        return Ok(None);
    }
    let palette = palette(palette_file)?;
    Ok(image::to_png(model, palette.as_ref()).transpose()?)
}

/// Read the input: a PNG converted to the target `format` when that takes one (PID, PAL), any
/// other input as [`files::load_model`] reads it; `palette_file` is `--palette`. What the
/// conversion noticed is reported on stderr.
pub fn load(input: &Path, format: Format, palette_file: Option<&Path>) -> anyhow::Result<Model> {
    if !image::from_png_to(format) {
        return files::load_model(input);
    }
    let head = if is_stdio(input) {
        files::read_input(input)?
    } else {
        files::read_head(input, 8).map_err(|e| anyhow!(e).context(display_name(input)))?
    };
    let name = files::sniff_name(input);
    if levelkit::sniff(&head, name.as_deref()) != Some(Format::Png) {
        return if is_stdio(input) {
            files::load_bytes(&head, None, None)
                .model
                .map_err(|e| anyhow!(e).context(display_name(input)))
        } else {
            files::load_model(input)
        };
    }
    let bytes = if is_stdio(input) {
        head
    } else {
        files::read_input(input)?
    };
    let palette = palette(palette_file)?;
    let (model, warnings) = image::from_png(&bytes, format, palette.as_ref(), &Limits::default())
        .map_err(|e| anyhow!(e).context(display_name(input)))?;
    for w in &warnings {
        crate::report(w);
    }
    Ok(model)
}
