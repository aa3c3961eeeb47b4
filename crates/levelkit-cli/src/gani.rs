//! `levelkit convert walk.gani walk.gif|walk.png [--sheet] [--images DIR] [--dir DIR]`: a Graal
//! animation drawn with its images, as an animated GIF, an animated PNG, or a sprite sheet PNG
//! with its JSON frame table (`<name>.json`, with each frame's sounds and the animation's
//! `setbackto`).
//!
//! A gani has one animation per direction. With `--dir up|left|down|right`, or for a
//! single-direction gani, OUT is that animation; otherwise the four are written beside OUT as
//! `<stem>.up.<ext>`, `<stem>.left.<ext>`, `<stem>.down.<ext>` and `<stem>.right.<ext>`.
//!
//! Images are looked for in `--images DIR`, else in the gani's folder and then its parent: a
//! file of the name asked for, ignoring case, else one of the same stem with another image
//! extension (`head19.gif` as `head19.png`). Which names are asked for, and the placeholders for
//! what is not found, are the library's ([`levelkit::formats::graal::gani::render`]).

use std::path::{Path, PathBuf};

use levelkit::Format;
use levelkit::anim::Sprite;
use levelkit::anim::{
    GifOptions, SheetExtras, SheetOptions, to_apng, to_gif, to_sprite_sheet_with,
};
use levelkit::formats::graal::gani::{self, render};

use crate::cli::ConvertArgs;
use crate::files::{self, is_stdio};
use crate::imagefiles;
use crate::{EXIT_OK, usage};

/// Image extensions tried, in order, for a name whose own file is missing.
const OTHER_EXTENSIONS: [&str; 3] = ["png", "gif", "bmp"];

/// Convert a gani to `format` (GIF or PNG), writing one file per direction drawn.
pub fn convert(
    g: &gani::Gani,
    format: Format,
    input: &Path,
    output: &Path,
    args: &ConvertArgs,
) -> anyhow::Result<u8> {
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
    let asked = match &args.dir {
        Some(name) => Some(render::direction_index(name).ok_or_else(|| {
            usage(format!(
                "--dir {name}: not a direction (up, left, down or right)"
            ))
        })?),
        None => None,
    };
    let mut notes = Vec::new();
    let all = render::directions(g);
    let single = all.len() == 1;
    let drawn: Vec<usize> = match asked {
        Some(_) if single => {
            notes.push("--dir ignored: the animation has a single direction".to_owned());
            all
        }
        Some(d) => vec![d],
        None => all,
    };
    if drawn.len() > 1 && is_stdio(output) {
        return Err(usage(
            "a gani with four directions writes four files; name an OUT file or choose one \
             with --dir",
        ));
    }
    if let Some(dir) = args.images.as_deref()
        && !dir.is_dir()
    {
        return Err(usage(format!("--images {}: not a folder", dir.display())));
    }
    let mut finder = Finder::new(imagefiles::image_dirs(input, args.images.as_deref()));
    let mut images = |name: &str| finder.sprite(name);
    let (rendered, warnings) =
        render::render_all(g, &drawn, &mut images, &levelkit::Limits::default())?;
    notes.append(&mut finder.notes);
    notes.extend(warnings.iter().map(ToString::to_string));
    let stem = output
        .file_stem()
        .map_or_else(|| "gani".to_owned(), |s| s.to_string_lossy().into_owned());
    let ext = output.extension().map_or_else(
        || format.name().to_owned(),
        |e| e.to_string_lossy().into_owned(),
    );
    let dir = output.parent().unwrap_or_else(|| Path::new(""));
    let mut report = Vec::new();
    for r in &rendered {
        let (path, stem) = match (drawn.len(), r.direction) {
            (1, _) | (_, None) => (output.to_path_buf(), stem.clone()),
            (_, Some(d)) => {
                let s = format!("{stem}.{d}");
                (dir.join(format!("{s}.{ext}")), s)
            }
        };
        let files = match format {
            Format::Gif => to_gif(&r.animation, &GifOptions::default())?,
            _ if args.sheet => to_sprite_sheet_with(
                &r.animation,
                &SheetOptions {
                    columns: None,
                    stem: stem.clone(),
                },
                &SheetExtras {
                    meta: r.meta_json(),
                    frames: r.frame_json(),
                },
            )?,
            _ => to_apng(&r.animation)?,
        };
        notes.extend(files.warnings.iter().map(ToString::to_string));
        if is_stdio(&path) {
            files::write_stdout(&files.main)?;
        } else {
            for (name, bytes) in &files.side_files {
                files::write_output(&dir.join(name), bytes, args.force)?;
            }
            files::write_output(&path, &files.main, args.force)?;
        }
        report.push(serde_json::json!({
            "output": path.display().to_string(),
            "direction": r.direction,
            "frames": r.animation.frames.len(),
            "width": r.animation.width,
            "height": r.animation.height,
            "durations_ms": r.animation.frames.iter().map(|f| f.duration_ms).collect::<Vec<_>>(),
            "loop": r.animation.looping,
            "setbackto": r.set_back_to,
            "sounds": r.sounds,
        }));
    }
    if args.json {
        let report = serde_json::json!({
            "input": input.display().to_string(),
            "format": format.name(),
            "outputs": report,
            "warnings": notes,
        });
        println!("{report}");
    } else {
        for note in &notes {
            crate::report(note);
        }
    }
    Ok(EXIT_OK)
}

/// Finds and decodes images by name ([`crate::imagefiles`]), trying the same stem with another
/// image extension where the name itself is missing.
struct Finder {
    dirs: Vec<PathBuf>,
    notes: Vec<String>,
}

impl Finder {
    fn new(dirs: Vec<PathBuf>) -> Finder {
        Finder {
            dirs,
            notes: Vec::new(),
        }
    }

    /// The path of an image name: the name itself in any folder (ignoring case), else the same
    /// stem with another image extension.
    fn find(&mut self, name: &str) -> Option<PathBuf> {
        // A name is a file name; anything with a path in it is not looked up outside the folders.
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        if let Some(p) = imagefiles::find(&self.dirs, base) {
            return Some(p);
        }
        let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
        for ext in OTHER_EXTENSIONS {
            if let Some(p) = imagefiles::find(&self.dirs, &format!("{stem}.{ext}")) {
                self.notes
                    .push(format!("{name}: not found; using {}", p.display()));
                return Some(p);
            }
        }
        None
    }

    fn sprite(&mut self, name: &str) -> Option<Sprite> {
        let path = self.find(name)?;
        match image::open(&path) {
            Ok(img) => {
                let img = img.to_rgba8();
                let (w, h) = img.dimensions();
                Sprite::new(w, h, img.into_raw(), (0, 0))
            }
            Err(e) => {
                self.notes.push(format!("{}: {e}", path.display()));
                None
            }
        }
    }
}
