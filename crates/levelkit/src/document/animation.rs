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
//! An ANI's frames are the game's PID files or PNG files, numbered by the digits at the end of
//! their names: `FRAME001.PID`, `FRAME001.PNG`, `frame1.png`, `001.png` and `1.png` are all
//! image 1 (case is ignored; other files are ignored; a PID wins over a PNG of the same
//! number). They come from [`super::options::Options::frames`], else from the image set the
//! ANI's place names: `LEVEL1/ANIS/OFFICER/STAND.ANI` plays `LEVEL1/IMAGES/OFFICER/` (Gruntz:
//! `ANIZ`, `IMAGEZ`), looked for in the game's files ([`super::options::Options::game`], a REZ
//! or a folder) and beside the ANI on disk. A PID is drawn with its own palette, else
//! [`super::options::Options::palette`], else the game's `PALETTES/MAIN.PAL` beside the image
//! set; each frame is placed by its hotspot as the games place it (centred on the anchor,
//! moved by the PID's offset; a PNG levelkit made from a PID keeps that offset in its text
//! chunk, so both give the same frames). Images that are missing are drawn as placeholders,
//! with a warning.

use serde_json::{Value, json};

use super::options::{Converted, Failure, Options, find_image};
use crate::anim::{Animation, Sprite};
use crate::anim::{GifOptions, SheetExtras, SheetOptions, to_apng, to_gif, to_sprite_sheet_with};
use crate::assets::{Assets, numbered_images};
use crate::codec::ExportFiles;
use crate::error::{Error, Location, Result, Warning};
use crate::formats::ani::{self, Ani};
pub use crate::formats::graal::gani::render::Rendered;
use crate::formats::graal::gani::{Gani, render};
use crate::formats::pid::png::png_frame;
use crate::formats::pid::{Palette, Pid};
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
    let img = super::image::decode_rgba(bytes, None, &Limits::default())?;
    Sprite::new(img.width, img.height, img.rgba, (0, 0))
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

/// The folder names an image set lives in beside the animations: Claw's `IMAGES`, Gruntz's
/// `IMAGEZ`.
const IMAGE_FOLDERS: [&str; 2] = ["IMAGES", "IMAGEZ"];

/// The folder names animations live in: Claw's `ANIS`, Gruntz's `ANIZ`.
const ANI_FOLDERS: [&str; 2] = ["ANIS", "ANIZ"];

/// Where an ANI is among the game's folders, by its path: for `x/LEVEL1/ANIS/OFFICER/STAND.ANI`,
/// `up` is `../../` (from the ANI's folder to the one holding `ANIS`), `root` is `LEVEL1` and
/// `sub` is `OFFICER`.
#[derive(Debug, PartialEq)]
struct Place {
    up: String,
    root: Option<String>,
    sub: String,
}

fn place(input: &str) -> Option<Place> {
    let parts: Vec<&str> = input
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let dirs = parts.get(..parts.len().checked_sub(1)?)?;
    let at = dirs
        .iter()
        .rposition(|p| ANI_FOLDERS.iter().any(|a| a.eq_ignore_ascii_case(p)))?;
    let sub = dirs.get(at + 1..)?;
    let root = at
        .checked_sub(1)
        .and_then(|r| dirs.get(r))
        .filter(|r| **r != "..")
        .map(|r| (*r).to_owned());
    Some(Place {
        up: "../".repeat(sub.len() + 1),
        root,
        sub: sub.join("/"),
    })
}

fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty(), name.is_empty()) {
        (true, _) => name.to_owned(),
        (_, true) => dir.to_owned(),
        _ => format!("{}/{name}", dir.trim_end_matches('/')),
    }
}

/// Where an ANI's frames are looked for, in order, as `(files, folder, where)`: the
/// [`Options::frames`] folder; else in [`Options::game`] the image set beside the ANI's `ANIS`
/// folder (`LEVEL1/ANIS/OFFICER/X.ANI` plays `LEVEL1/IMAGES/OFFICER/`) and the one its header
/// names (`CLAW_IMAGES` as `CLAW/IMAGES/`); else beside it on disk (`../IMAGES/` from an `ANIS`
/// folder), through `assets`; else the ANI's own folder.
fn frame_sources<'a>(
    a: &Ani,
    options: &Options<'a>,
    assets: &'a dyn Assets,
) -> Vec<(&'a dyn Assets, String, String)> {
    if let Some(frames) = options.frames {
        return vec![(frames, String::new(), "--frames".to_owned())];
    }
    let place = options.input_name.as_deref().and_then(place);
    let mut out: Vec<(&'a dyn Assets, String, String)> = Vec::new();
    if let Some(game) = options.game {
        for images in IMAGE_FOLDERS {
            if let Some(p) = &place {
                if let Some(root) = &p.root {
                    let dir = join(&join(root, images), &p.sub);
                    out.push((game, dir.clone(), format!("the game's {dir}")));
                }
                let dir = join(images, &p.sub);
                out.push((game, dir.clone(), format!("the game's {dir}")));
            }
        }
        let named =
            crate::formats::wwd::graphics::game_path(&a.name.to_editor_text().replace('_', "/"));
        if !named.is_empty() {
            out.push((
                game,
                named.clone(),
                format!("the game's {named} (the ANI's image set)"),
            ));
        }
    }
    if let Some(p) = &place {
        for images in IMAGE_FOLDERS {
            let dir = join(&format!("{}{images}", p.up), &p.sub);
            out.push((
                assets,
                dir.clone(),
                format!("{dir} beside the ANI's folder"),
            ));
        }
    }
    // Last, the ANI's own folder (its frames dropped with it in the viewer).
    out.push((assets, String::new(), "the ANI's folder".to_owned()));
    out
}

/// The palette for frames without their own: [`Options::palette`], else the game's
/// `PALETTES/MAIN.PAL` beside the image set (`LEVEL1/PALETTES/MAIN.PAL` for
/// `LEVEL1/IMAGES/OFFICER/`, also up to three folders up from a `--frames` folder), noted.
fn frames_palette(
    options: &Options<'_>,
    files: &dyn Assets,
    dir: &str,
    notes: &mut Vec<String>,
) -> Option<Palette> {
    if let Some(p) = &options.palette {
        return Some(p.clone());
    }
    let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let mut paths = Vec::new();
    // The image set's folder is `<root>/IMAGES/<sub…>`: the palette is `<root>/PALETTES`.
    if let Some(at) = parts
        .iter()
        .rposition(|p| IMAGE_FOLDERS.iter().any(|i| i.eq_ignore_ascii_case(p)))
    {
        paths.push(join(&parts[..at].join("/"), "PALETTES/MAIN.PAL"));
    }
    for up in 1..=3 {
        paths.push(join(dir, &format!("{}PALETTES/MAIN.PAL", "../".repeat(up))));
    }
    paths.into_iter().find_map(|path| {
        let palette = Palette::read(&files.read(&path)?).ok()?;
        notes.push(format!(
            "frames without a palette of their own drawn with {path}"
        ));
        Some(palette)
    })
}

/// One frame file as a sprite placed by its hotspot (a PID's offset fields, or the ones a PNG
/// levelkit made from a PID records; centred on the anchor otherwise), as the games place it.
fn frame_sprite(
    bytes: &[u8],
    name: &str,
    palette: &mut dyn FnMut() -> Option<Palette>,
) -> std::result::Result<Sprite, String> {
    let limits = Limits::default();
    let (image, (dx, dy)) = if name.to_ascii_uppercase().ends_with(".PID") {
        let pid = Pid::read_with(bytes, &limits).map_err(|e| e.to_string())?;
        let fallback = if pid.palette.is_none() {
            palette()
        } else {
            None
        };
        let pal = pid.palette_or(fallback.as_ref()).ok_or(
            "no palette of its own; give one with --palette (the level's, such as \
             LEVEL1/PALETTES/MAIN.PAL)",
        )?;
        let rgba = pid
            .to_rgba(pal, pid.default_transparency(pal))
            .map_err(|e| e.to_string())?;
        (rgba, pid.hotspot())
    } else {
        let (rgba, hotspot) = png_frame(bytes, &limits).map_err(|e| e.to_string())?;
        (rgba, hotspot.unwrap_or((0, 0)))
    };
    Sprite::centred(image.width, image.height, image.rgba, dx, dy)
        .ok_or_else(|| "the decoded pixels do not fit the image's size".to_owned())
}

/// An ANI animation as `format` (GIF or PNG) with its image set's frames: PIDs (with their own
/// palette, else [`Options::palette`], else the game's beside them) or PNGs, from
/// [`Options::frames`], else found by the ANI's place (see the module docs). Frames that are
/// missing are drawn as placeholders, with a warning.
pub fn ani(
    a: &Ani,
    format: Format,
    options: &Options<'_>,
    assets: &dyn Assets,
) -> std::result::Result<Converted, Failure> {
    check_sheet(format, options)?;
    let mut notes = Vec::new();
    let mut chosen = None;
    let sources = frame_sources(a, options, assets);
    let looked: Vec<String> = sources.iter().map(|(_, _, place)| place.clone()).collect();
    for (files, dir, place) in sources {
        let images = numbered_images(files, &dir, &mut notes).unwrap_or_default();
        if !images.is_empty() {
            if options.frames.is_none() {
                notes.push(format!("frames from {place}"));
            }
            chosen = Some((files, dir, images));
            break;
        }
    }
    if chosen.is_none() {
        notes.push(match options.frames {
            Some(_) => "--frames: no PID or PNG file named by a frame number (FRAME001.PID, \
                        001.png)"
                .to_owned(),
            None if looked.len() == 1 => "no frames: the ANI is not in an ANIS folder, names no \
                                          image set and has no PID or PNG frames beside it; give \
                                          the image set's folder with --frames (on disk or inside \
                                          --game)"
                .to_owned(),
            None => format!(
                "no frames in {}; give the image set's folder with --frames",
                looked.join(", ")
            ),
        });
    }
    let mut palette: Option<Option<Palette>> = None;
    let (anim, warnings) = ani::to_animation(a, &mut |n| {
        let (files, dir, images) = chosen.as_ref()?;
        let name = images.get(&n)?;
        let path = join(dir, name);
        let bytes = files.read(&path)?;
        let mut find = || {
            palette
                .get_or_insert_with(|| frames_palette(options, *files, dir, &mut notes))
                .clone()
        };
        match frame_sprite(&bytes, name, &mut find) {
            Ok(sprite) => Some(sprite),
            Err(e) => {
                notes.push(format!("{path}: {e}"));
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
    fn an_ani_s_place_names_its_image_set() {
        assert_eq!(
            place("x/LEVEL1/ANIS/OFFICER/STAND.ANI"),
            Some(Place {
                up: "../../".to_owned(),
                root: Some("LEVEL1".to_owned()),
                sub: "OFFICER".to_owned()
            })
        );
        let p = place("C:\\GRUNTZ\\ANIZ\\GRUNT.ANI");
        assert_eq!(
            p.as_ref()
                .map(|p| (p.up.as_str(), p.root.as_deref(), p.sub.as_str())),
            Some(("../", Some("GRUNTZ"), ""))
        );
        let p = place("../anis/X.ANI");
        assert_eq!(
            p.as_ref().map(|p| (p.up.as_str(), p.root.as_deref())),
            Some(("../", None))
        );
        assert_eq!(place("STAND.ANI"), None);
        assert_eq!(place("ANIS"), None);
    }
}
