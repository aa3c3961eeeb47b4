//! Animations as pictures: a gani drawn with its images, and an ANI played with its image set's
//! frames, each as an animated GIF, an animated PNG, or a sprite sheet PNG with its JSON frame
//! table (`<stem>.json`) beside it ([`super::options::Options::sheet`]).
//!
//! A gani has one animation per direction. With [`super::options::Options::direction`], or for
//! a single-direction gani, the output is that animation; otherwise the four are side files
//! `<stem>.up.<ext>`, `<stem>.left.<ext>`, `<stem>.down.<ext>` and `<stem>.right.<ext>`. Its
//! images are found by [`super::options::find_image`]: the name asked for, ignoring case, else
//! the same stem with another image extension (`head19.gif` as `head19.png`, noted). Which
//! names are asked for, and the placeholders for what is not found, are the library's
//! ([`crate::formats::graal::gani::render`]).
//!
//! An ANI's frames are PNG files numbered by the digits at the end of their names:
//! `FRAME001.PNG`, `frame1.png`, `001.png` and `1.png` are all image 1 (case is ignored; other
//! files are ignored). PNG files carry no hotspot, so each image is centred on the animation's
//! anchor. Images that are missing are drawn as placeholders, with a warning.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::options::{Converted, Failure, Options, find_image};
use crate::anim::{Animation, Sprite};
use crate::anim::{GifOptions, SheetExtras, SheetOptions, to_apng, to_gif, to_sprite_sheet_with};
use crate::assets::Assets;
use crate::codec::ExportFiles;
use crate::error::{Error, Location, Result, Warning};
use crate::formats::ani::{self, Ani};
pub use crate::formats::graal::gani::render::Rendered;
use crate::formats::graal::gani::{Gani, render};
use crate::limits::Limits;
use crate::registry::Format;

/// Image extensions tried, in order, for a name whose own file is missing.
const OTHER_EXTENSIONS: [&str; 3] = ["png", "gif", "bmp"];

/// A usage error: the options ask for what this conversion cannot make.
fn usage(format: Format, message: &str) -> Failure {
    Failure {
        error: Error::unsupported(format, Location::default(), message),
        not_convertible: true,
        notes: Vec::new(),
    }
}

/// One animation as `format`: a GIF, an animated PNG, or with `sheet` a sprite sheet (stem
/// `stem`) and its table.
fn files(
    anim: &Animation,
    format: Format,
    sheet: bool,
    stem: &str,
    extras: &SheetExtras,
) -> Result<ExportFiles> {
    match format {
        Format::Gif => to_gif(anim, &GifOptions::default()),
        _ if sheet => to_sprite_sheet_with(
            anim,
            &SheetOptions {
                columns: None,
                stem: stem.to_owned(),
            },
            extras,
        ),
        _ => to_apng(anim),
    }
}

fn check_sheet(format: Format, options: &Options<'_>) -> std::result::Result<(), Failure> {
    if options.sheet && format != Format::Png {
        return Err(usage(
            format,
            "--sheet writes a PNG sprite sheet; name a .png output",
        ));
    }
    if options.sheet && options.output_name.is_none() {
        return Err(usage(
            format,
            "--sheet writes a JSON table beside the sheet; name an output file",
        ));
    }
    Ok(())
}

/// A decoded picture as a sprite with its top-left corner at the origin.
fn sprite(bytes: &[u8]) -> std::result::Result<Sprite, String> {
    let img = image::load_from_memory(bytes)
        .map_err(|e| e.to_string())?
        .to_rgba8();
    let (w, h) = img.dimensions();
    Sprite::new(w, h, img.into_raw(), (0, 0))
        .ok_or_else(|| "the decoded pixels do not fit the image's size".to_owned())
}

/// Draw the directions `drawn` of a gani with the images [`find_image`] finds (the same stem
/// with another image extension where the name is missing), noting what was not found.
pub fn draw(
    g: &Gani,
    drawn: &[usize],
    options: &Options<'_>,
    assets: &dyn Assets,
    notes: &mut Vec<String>,
) -> Result<Vec<Rendered>> {
    let mut images = |name: &str| -> Option<Sprite> {
        // A name is a file name; anything with a path in it is not looked up outside the folders.
        let base = crate::assets::base_name(name);
        let (found, bytes) = match find_image(options, assets, base) {
            Some(bytes) => (base.to_owned(), bytes),
            None => {
                let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
                let (alt, bytes) = OTHER_EXTENSIONS.iter().find_map(|ext| {
                    let alt = format!("{stem}.{ext}");
                    find_image(options, assets, &alt).map(|b| (alt, b))
                })?;
                notes.push(format!("{name}: not found; using {alt}"));
                (alt, bytes)
            }
        };
        match sprite(&bytes) {
            Ok(s) => Some(s),
            Err(e) => {
                notes.push(format!("{found}: not an image levelkit can read: {e}"));
                None
            }
        }
    };
    let (rendered, warnings) = render::render_all_placeholders(
        g,
        drawn,
        &mut images,
        &Limits::default(),
        options.placeholders,
    )?;
    notes.extend(warnings.iter().map(ToString::to_string));
    Ok(rendered)
}

/// Every direction of a gani drawn (as the browser viewer plays it), with what was noticed.
pub fn frames(
    g: &Gani,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> Result<(Vec<Rendered>, Vec<String>)> {
    let mut notes = Vec::new();
    let rendered = draw(g, &render::directions(g), options, assets, &mut notes)?;
    Ok((rendered, notes))
}

/// A gani as `format` (GIF or PNG), one output per direction drawn.
pub fn gani(
    g: &Gani,
    format: Format,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> std::result::Result<Converted, Failure> {
    check_sheet(format, options)?;
    let mut notes = Vec::new();
    let all = render::directions(g);
    let drawn: Vec<usize> = match options.direction {
        Some(_) if all.len() == 1 => {
            notes.push("--dir ignored: the animation has a single direction".to_owned());
            all
        }
        Some(d) => vec![d.index()],
        None => all,
    };
    if drawn.len() > 1 && options.output_name.is_none() {
        return Err(usage(
            format,
            "a gani with four directions writes four files; name an output file or choose one \
             direction",
        ));
    }
    let rendered = draw(g, &drawn, options, assets, &mut notes)?;
    let name = options.output_name.as_deref().unwrap_or("gani");
    let stem = options.stem().unwrap_or("gani").to_owned();
    let ext = name
        .rsplit_once('.')
        .map_or_else(|| format.name().to_owned(), |(_, e)| e.to_owned());
    let mut done = Converted::default();
    let mut outputs = Vec::new();
    for r in &rendered {
        let (file, stem) = match (drawn.len(), r.direction) {
            (1, _) | (_, None) => (None, stem.clone()),
            (_, Some(d)) => {
                let s = format!("{stem}.{d}");
                (Some(format!("{s}.{ext}")), s)
            }
        };
        let extras = SheetExtras {
            meta: r.meta_json(),
            frames: r.frame_json(),
        };
        let made = files(&r.animation, format, options.sheet, &stem, &extras)?;
        notes.extend(made.warnings.iter().map(ToString::to_string));
        done.side.extend(made.side_files);
        outputs.push(json!({
            "output": file.clone().unwrap_or_else(|| name.to_owned()),
            "direction": r.direction,
            "frames": r.animation.frames.len(),
            "width": r.animation.width,
            "height": r.animation.height,
            "durations_ms": r.animation.frames.iter().map(|f| f.duration_ms).collect::<Vec<_>>(),
            "loop": r.animation.looping,
            "setbackto": r.set_back_to,
            "sounds": r.sounds,
        }));
        match file {
            Some(file) => done.side.push((file, made.main)),
            None => done.main = Some(made.main),
        }
    }
    done.report
        .insert("outputs".to_owned(), Value::Array(outputs));
    done.notes = notes;
    Ok(done)
}

/// The PNG files of `frames` by image number: the digits at the end of the file's stem.
fn frame_files(frames: &dyn Assets, notes: &mut Vec<String>) -> BTreeMap<u32, String> {
    let mut names = frames.list("").map(|(_, f)| f).unwrap_or_default();
    names.sort();
    let mut found: BTreeMap<u32, String> = BTreeMap::new();
    for name in names {
        let Some(number) = frame_number(&name) else {
            continue;
        };
        if let Some(first) = found.get(&number) {
            notes.push(format!(
                "{first} and {name} are both image {number}; using the first"
            ));
            continue;
        }
        found.insert(number, name);
    }
    if found.is_empty() {
        notes.push(
            "--frames: no PNG file named by a frame number (FRAME001.PNG, 001.png)".to_owned(),
        );
    }
    found
}

/// The image number of a PNG file name: the digits its stem ends with.
pub fn frame_number(name: &str) -> Option<u32> {
    let (stem, ext) = name.rsplit_once('.')?;
    if !ext.eq_ignore_ascii_case("png") {
        return None;
    }
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    stem.get(stem.len() - digits..)?.parse().ok()
}

/// An ANI animation as `format` (GIF or PNG) with the frames of [`Options::frames`].
pub fn ani(
    a: &Ani,
    format: Format,
    options: &Options<'_>,
) -> std::result::Result<Converted, Failure> {
    check_sheet(format, options)?;
    let mut notes = Vec::new();
    let images = match options.frames {
        Some(frames) => frame_files(frames, &mut notes),
        None => BTreeMap::new(),
    };
    let (anim, warnings) = ani::to_animation(a, &mut |n| {
        let name = images.get(&n)?;
        let bytes = options.frames?.read(name)?;
        let decoded = image::load_from_memory(&bytes).map_err(|e| e.to_string());
        let centred = decoded.and_then(|img| {
            let img = img.to_rgba8();
            let (w, h) = img.dimensions();
            Sprite::centred(w, h, img.into_raw(), 0, 0)
                .ok_or_else(|| "the decoded pixels do not fit the image's size".to_owned())
        });
        match centred {
            Ok(sprite) => Some(sprite),
            Err(e) => {
                notes.push(format!("{name}: {e}"));
                None
            }
        }
    })?;
    notes.extend(warnings.iter().map(Warning::to_string));
    let stem = options.stem().unwrap_or("sheet");
    let made = files(&anim, format, options.sheet, stem, &SheetExtras::default())?;
    notes.extend(made.warnings.iter().map(ToString::to_string));
    let mut report = serde_json::Map::new();
    report.insert("frames".to_owned(), json!(anim.frames.len()));
    report.insert("width".to_owned(), json!(anim.width));
    report.insert("height".to_owned(), json!(anim.height));
    Ok(Converted {
        main: Some(made.main),
        side: made.side_files,
        notes,
        report,
        partial: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_numbers_come_from_the_trailing_digits() {
        assert_eq!(frame_number("FRAME001.PNG"), Some(1));
        assert_eq!(frame_number("frame12.png"), Some(12));
        assert_eq!(frame_number("007.png"), Some(7));
        assert_eq!(frame_number("3.Png"), Some(3));
        assert_eq!(frame_number("FRAME001.PID"), None);
        assert_eq!(frame_number("cover.png"), None);
        assert_eq!(frame_number("noext"), None);
    }
}
