//! `levelkit convert X.ANI X.gif|X.png [--frames DIR] [--sheet]`: an animation played with the
//! image set's frames, as an animated GIF, an animated PNG, or a sprite sheet PNG with its JSON
//! frame table (`X.json`) beside it.
//!
//! `--frames DIR` names a folder of PNG files, one per image of the set, numbered by the digits
//! at the end of the file name: `FRAME001.PNG`, `frame1.png`, `001.png` and `1.png` are all image
//! 1 (case is ignored; other files are ignored). PNG files carry no hotspot, so each image is
//! centred on the animation's anchor (a PID whose offsets are zero). Images the folder lacks, or
//! all of them without `--frames`, are drawn as placeholders, with a warning.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use levelkit::Format;
use levelkit::anim::Sprite;
use levelkit::anim::{GifOptions, SheetOptions, to_apng, to_gif, to_sprite_sheet};
use levelkit::document::Model;
use levelkit::formats::ani;

use crate::cli::ConvertArgs;
use crate::files::{self, is_stdio};
use crate::{EXIT_OK, usage};

/// Convert an animation model to `format` when it is GIF or PNG; `Ok(None)` when the model or the
/// target is not an animation's (the ordinary conversion applies), after refusing `--frames` and
/// `--sheet` there.
pub fn convert(
    model: &Model,
    format: Format,
    input: &Path,
    output: &Path,
    args: &ConvertArgs,
) -> anyhow::Result<Option<u8>> {
    // --images also finds Graal levels' NPC pictures; --dir is for ganis only.
    let for_gani = args.dir.is_some()
        || (args.images.is_some() && !matches!(model, Model::Graal(_) | Model::Nw(_)));
    if let Model::Gani(g) = model
        && matches!(format, Format::Gif | Format::Png)
        && args.frames.is_none()
    {
        return crate::gani::convert(g, format, input, output, args).map(Some);
    }
    if for_gani {
        return Err(usage(
            "--dir applies to Graal animations (.gani) converted to .gif or .png, and --images to \
             those and to Graal levels",
        ));
    }
    let asked = args.frames.is_some() || args.sheet;
    let ani = match model {
        Model::Ani(ani) if matches!(format, Format::Gif | Format::Png) => ani,
        _ if asked => {
            return Err(usage(
                "--frames and --sheet apply to animations (.ani) converted to .gif or .png",
            ));
        }
        _ => return Ok(None),
    };
    if args.sheet && format != Format::Png {
        return Err(usage(
            "--sheet writes a PNG sprite sheet; name a .png output",
        ));
    }
    if args.sheet && is_stdio(output) {
        return Err(usage(
            "--sheet writes a JSON table beside the sheet; name an OUT file, not `-`",
        ));
    }
    let mut notes = Vec::new();
    let images = match &args.frames {
        Some(dir) => frame_files(dir, &mut notes)?,
        None => BTreeMap::new(),
    };
    let (anim, warnings) = ani::to_animation(ani, &mut |n| {
        let path = images.get(&n)?;
        match load_sprite(path) {
            Ok(sprite) => Some(sprite),
            Err(e) => {
                notes.push(format!("{}: {e:#}", path.display()));
                None
            }
        }
    })?;
    notes.extend(warnings.iter().map(ToString::to_string));
    let stem = output
        .file_stem()
        .map_or_else(|| "sheet".to_owned(), |s| s.to_string_lossy().into_owned());
    let files = match format {
        Format::Gif => to_gif(&anim, &GifOptions::default())?,
        _ if args.sheet => to_sprite_sheet(
            &anim,
            &SheetOptions {
                columns: None,
                stem,
            },
        )?,
        _ => to_apng(&anim)?,
    };
    notes.extend(files.warnings.iter().map(ToString::to_string));
    if is_stdio(output) {
        files::write_stdout(&files.main)?;
    } else {
        let dir = output.parent().unwrap_or_else(|| Path::new(""));
        for (name, bytes) in &files.side_files {
            files::write_output(&dir.join(name), bytes, args.force)?;
        }
        files::write_output(output, &files.main, args.force)?;
    }
    if args.json {
        let report = serde_json::json!({
            "input": input.display().to_string(),
            "output": output.display().to_string(),
            "format": format.name(),
            "frames": anim.frames.len(),
            "width": anim.width,
            "height": anim.height,
            "warnings": notes,
        });
        println!("{report}");
    } else {
        for note in &notes {
            crate::report(note);
        }
    }
    Ok(Some(EXIT_OK))
}

/// The PNG files of `dir` by image number: the digits at the end of the file's stem.
fn frame_files(dir: &Path, notes: &mut Vec<String>) -> anyhow::Result<BTreeMap<u32, PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        usage(format!(
            "--frames {}: not a readable folder ({e})",
            dir.display()
        ))
    })?;
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    let mut found: BTreeMap<u32, PathBuf> = BTreeMap::new();
    for path in paths {
        let Some(number) = frame_number(&path) else {
            continue;
        };
        if let Some(first) = found.get(&number) {
            notes.push(format!(
                "{} and {} are both image {number}; using the first",
                first.display(),
                path.display()
            ));
            continue;
        }
        found.insert(number, path);
    }
    if found.is_empty() {
        notes.push(format!(
            "--frames {}: no PNG file named by a frame number (FRAME001.PNG, 001.png)",
            dir.display()
        ));
    }
    Ok(found)
}

/// The image number of a PNG file: the digits its stem ends with.
fn frame_number(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    let (stem, ext) = name.rsplit_once('.')?;
    if !ext.eq_ignore_ascii_case("png") {
        return None;
    }
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    stem.get(stem.len() - digits..)?.parse().ok()
}

/// A PNG file as a sprite centred on the anchor.
fn load_sprite(path: &Path) -> anyhow::Result<Sprite> {
    let image = image::open(path)?.to_rgba8();
    let (w, h) = image.dimensions();
    Sprite::centred(w, h, image.into_raw(), 0, 0)
        .ok_or_else(|| anyhow::anyhow!("the decoded pixels do not fit the image's size"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_numbers_come_from_the_trailing_digits() {
        let n = |s: &str| frame_number(Path::new(s));
        assert_eq!(n("dir/FRAME001.PNG"), Some(1));
        assert_eq!(n("frame12.png"), Some(12));
        assert_eq!(n("007.png"), Some(7));
        assert_eq!(n("3.Png"), Some(3));
        assert_eq!(n("FRAME001.PID"), None);
        assert_eq!(n("cover.png"), None);
        assert_eq!(n("noext"), None);
    }
}
