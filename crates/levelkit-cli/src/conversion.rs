//! The conversion that single-file and batch `convert` (and `render`) share: the command line's
//! options as the library's [`Options`], the input's folder as its [`Assets`], and the outputs
//! written atomically. Which file becomes which is the library's
//! ([`levelkit::document::convert()`]).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use levelkit::Format;
use levelkit::Limits;
use levelkit::assets::{Assets, Chain, Folder, Within};
use levelkit::document::convert::{self, Converted, Direction, SharedTilesets};
use levelkit::document::options::{GraalVersion, MdlVersion, Palette};
use levelkit::document::tiles::Tiles;
use levelkit::document::{Model, Options, image};

use crate::archive::Archive;
use crate::files::{self, display_name, is_stdio};
use crate::tilesets::Shared;
use crate::usage;

/// What to write: the format and the options that apply to it, as the command line gives them.
#[derive(Debug, Clone)]
pub struct Target {
    /// The output format (one levelkit can write).
    pub format: Format,
    /// WWD only: the compression override.
    pub compress: Option<bool>,
    /// Tiled maps and previews: the user's tile graphics (`--tiles`).
    pub tiles: Option<PathBuf>,
    /// Images without a palette of their own, and PNGs made into PIDs: `--palette`.
    pub palette: Option<PathBuf>,
    /// WWD levels: the game's REZ archive or a folder extracted from it (`--game`).
    pub game: Option<PathBuf>,
    /// Binary Graal levels only: the version to write (`--graal-version`).
    pub graal_version: Option<GraalVersion>,
    /// MDL output only: the version to write (`--mdl-version`).
    pub mdl_version: Option<MdlVersion>,
    /// Graal levels and ganis: where images are (`--images`); `None`, the input's folder and its
    /// parent.
    pub images: Option<PathBuf>,
    /// A folder searched after the input's for side files (`--assets`).
    pub assets: Option<PathBuf>,
    /// ANI animations: the folder of frame images (`--frames`), on disk or inside `--game`.
    pub frames: Option<PathBuf>,
    /// Animations to PNG: a sprite sheet (`--sheet`).
    pub sheet: bool,
    /// Ganis: the one direction to draw (`--dir`).
    pub direction: Option<Direction>,
    /// Ganis: draw missing images as placeholders (`--placeholders`).
    pub placeholders: bool,
    /// Overworld pictures: the longest side (`--max-size`).
    pub max_size: u32,
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
        Ok(Target {
            format,
            compress,
            tiles: None,
            palette: None,
            game: None,
            graal_version: None,
            mdl_version: None,
            images: None,
            assets: None,
            frames: None,
            sheet: false,
            direction: None,
            placeholders: false,
            max_size: 0,
        })
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }
}

/// The files the options name, opened: they live as long as one conversion.
struct Opened {
    palette: Option<Palette>,
    tiles: Option<(String, TilesSource)>,
    game: Option<GameSource>,
    images: Option<Folder>,
    frames: Option<FramesSource>,
}

/// `--frames`: a folder on disk, or one inside `--game` (`LEVEL1/IMAGES/OFFICER`).
enum FramesSource {
    Folder(Folder),
    InGame(String),
}

enum TilesSource {
    Image(Vec<u8>),
    Folder(Folder),
}

enum GameSource {
    Folder(Folder),
    Archive(Archive),
}

/// Read `--palette`, `--tiles`, `--game`, `--images` and `--frames`.
fn open(target: &Target) -> anyhow::Result<Opened> {
    let palette = read_palette(target.palette.as_deref())?;
    let tiles = match &target.tiles {
        Some(path) if path.is_dir() => Some((
            path.display().to_string(),
            TilesSource::Folder(Folder::new(path)),
        )),
        Some(path) => {
            // A --tiles that is not there is a usage error, as a --frames folder that is not.
            let bytes = std::fs::read(path)
                .map_err(|e| usage(format!("--tiles {}: cannot read: {e}", path.display())))?;
            Some((path.display().to_string(), TilesSource::Image(bytes)))
        }
        None => None,
    };
    let game = match &target.game {
        Some(path) if path.is_dir() => Some(GameSource::Folder(Folder::new(path))),
        Some(path) => Some(GameSource::Archive(Archive::open(path)?)),
        None => None,
    };
    if let Some(dir) = &target.images
        && !dir.is_dir()
    {
        return Err(usage(format!("--images {}: not a folder", dir.display())));
    }
    let frames = match &target.frames {
        Some(dir) if std::fs::read_dir(dir).is_ok() => Some(FramesSource::Folder(Folder::new(dir))),
        Some(dir) if game.is_some() && !dir.exists() => Some(FramesSource::InGame(
            dir.to_string_lossy().replace('\\', "/"),
        )),
        Some(dir) => {
            return Err(usage(format!(
                "--frames {}: not a readable folder (nor, with --game, a folder inside the game)",
                dir.display()
            )));
        }
        None => None,
    };
    Ok(Opened {
        palette,
        tiles,
        game,
        images: target.images.as_ref().map(Folder::new),
        frames,
    })
}

/// The files around `input`: its folder (nothing for stdin), then `--assets`.
pub fn surroundings(input: &Path, extra: Option<&Path>) -> (Option<Folder>, Option<Folder>) {
    (
        (!is_stdio(input)).then(|| Folder::of_file(input)),
        extra.map(Folder::new),
    )
}

/// `model` in the target format, the library's [`convert::convert`] with the command line's
/// options and the input's folder as its assets. `output` names the output file (its stem names
/// side files; `None` for stdout, where a Tiled map goes without tileset images); `shared`
/// (a batch writing to that output) makes Tiled maps reference the batch's shared tilesets.
pub fn convert_with_side_files(
    model: &Model,
    target: &Target,
    input: &Path,
    output: Option<&Path>,
    shared: Option<&Shared>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Converted> {
    let opened = open(target)?;
    let index = match &opened.game {
        Some(GameSource::Archive(archive)) => {
            Some(archive.index(target.game.as_deref().unwrap_or(Path::new("")))?)
        }
        _ => None,
    };
    let game: Option<&dyn Assets> = match (&opened.game, &index) {
        (Some(GameSource::Folder(f)), _) => Some(f),
        (_, Some(index)) => Some(index),
        _ => None,
    };
    let in_game = match (&opened.frames, game) {
        (Some(FramesSource::InGame(dir)), Some(game)) => Some(Within {
            assets: game,
            dir: dir.trim_matches('/').to_owned(),
        }),
        _ => None,
    };
    if let Some(within) = &in_game
        && within.list("").is_none()
    {
        return Err(usage(format!(
            "--frames {}: not a folder on disk nor inside the game",
            within.dir
        )));
    }
    let frames: Option<&dyn Assets> = match (&opened.frames, &in_game) {
        (Some(FramesSource::Folder(f)), _) => Some(f),
        (_, Some(within)) => Some(within),
        _ => None,
    };
    let tiles = opened.tiles.as_ref().map(|(name, source)| match source {
        TilesSource::Image(bytes) => Tiles::Image {
            name: name.clone(),
            bytes: Cow::Borrowed(bytes),
        },
        TilesSource::Folder(files) => Tiles::Folder {
            name: name.clone(),
            files,
        },
    });
    let (own, extra) = surroundings(input, target.assets.as_deref());
    let mut sources: Vec<&dyn Assets> = Vec::new();
    sources.extend(own.as_ref().map(|f| f as &dyn Assets));
    sources.extend(extra.as_ref().map(|f| f as &dyn Assets));
    let assets = Chain(sources);
    let options = Options {
        output_name: output
            .and_then(|o| o.file_name())
            .map(|n| n.to_string_lossy().into_owned()),
        compress: target.compress,
        graal_version: target.graal_version,
        mdl_version: target.mdl_version,
        palette: opened.palette,
        tiles,
        game,
        images: opened.images.as_ref().map(|f| f as &dyn Assets),
        frames,
        input_name: (!is_stdio(input)).then(|| input.to_string_lossy().into_owned()),
        sheet: target.sheet,
        direction: target.direction,
        placeholders: target.placeholders,
        max_size: target.max_size,
        shared: shared.zip(output).map(|(s, out)| SharedTilesets {
            tilesets: s.tilesets(),
            up: s.up_from(out),
        }),
    };
    let result = convert::convert(model, target.format(), &options, &assets);
    if let Some(shared) = shared {
        shared.write_made()?;
    }
    match result {
        Ok(mut done) => {
            notes.append(&mut done.notes);
            Ok(done)
        }
        Err(mut f) => {
            notes.append(&mut f.notes);
            Err(if f.not_convertible {
                usage(f.error.to_string())
            } else {
                anyhow::Error::from(f.error)
            })
        }
    }
}

/// The palette `--palette` names, read.
fn read_palette(path: Option<&Path>) -> anyhow::Result<Option<Palette>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = files::read_input(path)?;
    let name = files::sniff_name(path);
    image::palette_of(&bytes, name.as_deref(), &Limits::default())
        .map(Some)
        .map_err(|e| anyhow!(e).context(format!("--palette {}", display_name(path))))
}

/// Read an input for a conversion to `target`: a PNG made into a PID or palette, a V-Chat
/// manifest as the world it names, any other file as its content tells. The reader's warnings
/// are reported on stderr.
pub fn load(input: &Path, target: &Target) -> anyhow::Result<Model> {
    let input = &files::resolve_manifest(input)?;
    let bytes = files::read_input(input)?;
    let name = files::sniff_name(input);
    let (own, _) = surroundings(input, None);
    let assets: &dyn Assets = match &own {
        Some(f) => f,
        None => &levelkit::assets::NoAssets,
    };
    // The palette matters only for a PNG made into a PID.
    let palette = if image::from_png_to(target.format) {
        read_palette(target.palette.as_deref())?
    } else {
        None
    };
    let options = Options {
        palette,
        ..Options::default()
    };
    let (model, warnings) = convert::read_for(
        &bytes,
        name.as_deref(),
        Some(target.format),
        &options,
        assets,
    )
    .map_err(|e| anyhow!(e).context(display_name(input)))?;
    for w in &warnings {
        crate::report(w);
    }
    Ok(model)
}

/// Convert and write `output` and its side files (each to a temporary file, then renamed);
/// returns the bytes written and what the conversion noticed. A single conversion (`batch`
/// `None`) flushes each file to the disk before renaming it; a batch does not (see
/// [`files::write_output_with`]) and shares its tilesets. A conversion that made only part of
/// its outputs (an overworld with a level that failed) writes them and then fails.
pub fn write_converted(
    model: &Model,
    target: &Target,
    input: &Path,
    output: &Path,
    force: bool,
    batch: Option<Option<&Shared>>,
    notes: &mut Vec<String>,
) -> anyhow::Result<(u64, Converted)> {
    let sync = batch.is_none();
    let converted =
        convert_with_side_files(model, target, input, Some(output), batch.flatten(), notes)?;
    let dir = output.parent().unwrap_or_else(|| Path::new(""));
    let mut written = 0;
    for (name, bytes) in &converted.side {
        let path = dir.join(name);
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            crate::files::create_output_dir(parent)?;
        }
        // Tilesets shared by an overworld's maps are found in place on a second run.
        if name.starts_with("tilesets/") && std::fs::read(&path).is_ok_and(|old| old == *bytes) {
            continue;
        }
        files::write_output_with(&path, bytes, force, sync)?;
        written += bytes.len() as u64;
    }
    if let Some(main) = &converted.main {
        files::write_output_with(output, main, force, sync)?;
        written += main.len() as u64;
    }
    Ok((written, converted))
}

/// Report a conversion's notes on stderr, one line each.
pub fn report_notes(notes: &[String]) {
    for note in notes {
        crate::report(labelled(note));
    }
}

/// A note as the CLI shows it: a warning keeps its `warning:` label, an informational note gets
/// `note:` (the library's notes about what a conversion did carry no label).
pub fn labelled(note: &str) -> std::borrow::Cow<'_, str> {
    if note.starts_with("warning: ") || note.starts_with("error: ") || note.starts_with("note: ") {
        note.into()
    } else {
        format!("note: {note}").into()
    }
}
