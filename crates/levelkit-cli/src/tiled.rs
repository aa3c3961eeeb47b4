//! `levelkit tiled`: the Tiled extension (`tiled/levelkit.js`, built in) and what it runs.
//!
//! `open` converts a level into a Tiled map in levelkit's cache, with the batch conversion's
//! shared tilesets (`<cache>/tilesets/`, each written once); the extension loads that map with
//! Tiled's own reader. Saving needs nothing here: the extension runs `levelkit convert MAP
//! LEVEL --force`, which checks the map and writes the level whole or not at all.

use std::hash::{Hash as _, Hasher as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow};
use levelkit::Format;
use levelkit::tiled::types;

use crate::cli::{TiledArgs, TiledCommand, TiledInstallArgs, TiledOpenArgs, TiledTypesArgs};
use crate::conversion::{Target, write_converted};
use crate::files;
use crate::tilesets::Shared;
use crate::usage;

/// The extension, as installed.
pub const EXTENSION: &str = include_str!("../../../tiled/levelkit.js");
/// Its file name in Tiled's extensions folder.
const EXTENSION_NAME: &str = "levelkit.js";
/// The object types file `types` writes beside the project.
const OBJECT_TYPES_NAME: &str = "levelkit-objecttypes.xml";

/// Run a `levelkit tiled` subcommand.
pub fn run(args: &TiledArgs) -> anyhow::Result<u8> {
    match &args.command {
        TiledCommand::Install(a) => install(a),
        TiledCommand::Open(a) => open(a),
        TiledCommand::Cache => {
            println!("{}", cache_dir(None)?.display());
            Ok(crate::EXIT_OK)
        }
        TiledCommand::Types(a) => write_types(a),
    }
}

fn env_dir(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

fn home() -> anyhow::Result<PathBuf> {
    env_dir("HOME")
        .or_else(|| env_dir("USERPROFILE"))
        .ok_or_else(|| anyhow!("no home folder ($HOME is not set); name one with --dir"))
}

/// Tiled's extensions folder for this user.
fn extensions_dir() -> anyhow::Result<PathBuf> {
    if cfg!(windows) {
        let local = env_dir("LOCALAPPDATA")
            .ok_or_else(|| anyhow!("%LOCALAPPDATA% is not set; name the folder with --dir"))?;
        return Ok(local.join("Tiled").join("extensions"));
    }
    if cfg!(target_os = "macos") {
        return Ok(home()?.join("Library/Preferences/Tiled/extensions"));
    }
    let config = match env_dir("XDG_CONFIG_HOME") {
        Some(dir) => dir,
        None => home()?.join(".config"),
    };
    Ok(config.join("tiled").join("extensions"))
}

/// The cache `open` writes to: `--cache`, `$LEVELKIT_TILED_CACHE`, else the user's cache folder.
fn cache_dir(given: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = given
        .map(Path::to_path_buf)
        .or_else(|| env_dir("LEVELKIT_TILED_CACHE"))
    {
        return Ok(dir);
    }
    let base = if cfg!(windows) {
        env_dir("LOCALAPPDATA").map(|d| d.join("levelkit"))
    } else if cfg!(target_os = "macos") {
        home().ok().map(|h| h.join("Library/Caches/levelkit"))
    } else {
        env_dir("XDG_CACHE_HOME")
            .or_else(|| home().ok().map(|h| h.join(".cache")))
            .map(|d| d.join("levelkit"))
    };
    Ok(base
        .unwrap_or_else(|| std::env::temp_dir().join("levelkit"))
        .join("tiled"))
}

fn install(args: &TiledInstallArgs) -> anyhow::Result<u8> {
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => extensions_dir()?,
    };
    std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
    let path = dir.join(EXTENSION_NAME);
    let same = std::fs::read(&path).is_ok_and(|old| old == EXTENSION.as_bytes());
    if !same {
        if !args.force && path.symlink_metadata().is_ok() {
            anyhow::bail!(
                "{} is there and differs from this levelkit's extension; --force replaces it",
                path.display()
            );
        }
        files::write_output(&path, EXTENSION.as_bytes(), true)?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::json!({"installed": path.display().to_string(), "changed": !same})
        );
    } else {
        crate::report(format_args!(
            "{} {}; restart Tiled to load it",
            if same {
                "already installed:"
            } else {
                "installed"
            },
            path.display()
        ));
    }
    Ok(crate::EXIT_OK)
}

/// The folder of one level's map in the cache: a hash of its absolute path, so that two levels
/// of the same name do not share a map.
fn map_key(level: &Path) -> String {
    let absolute = std::path::absolute(level).unwrap_or_else(|_| level.to_path_buf());
    let mut hasher = std::hash::DefaultHasher::new();
    absolute.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

fn open(args: &TiledOpenArgs) -> anyhow::Result<u8> {
    let level = &args.level;
    if files::is_stdio(level) {
        return Err(usage(
            "tiled open needs a level file: the map names it for saving",
        ));
    }
    let cache = cache_dir(args.cache.as_deref())?;
    let cache = std::path::absolute(&cache).unwrap_or(cache);
    let stem = level
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".into());
    let format = if args.tmj { Format::Tmj } else { Format::Tmx };
    let output = cache
        .join("maps")
        .join(map_key(level))
        .join(format!("{stem}.{}", format.name()));
    let target = Target {
        game: args.game.clone(),
        tiles: args.tiles.clone(),
        images: args.images.clone(),
        ..Target::new(format, None)?
    };
    let model = crate::conversion::load(level, &target)?;
    if !matches!(
        model.format(),
        Format::Wwd | Format::GraalLevel | Format::Nw
    ) {
        return Err(usage(format!(
            "{}: a {} file is not a level Tiled opens through levelkit (wwd, graal, zelda, nw)",
            level.display(),
            model.format().name()
        )));
    }
    if let Some(parent) = output.parent() {
        files::create_output_dir(parent).with_context(|| parent.display().to_string())?;
    }
    let shared = Shared::new(&cache, true, args.tiles.as_deref());
    let mut notes = Vec::new();
    let result = write_converted(
        &model,
        &target,
        level,
        &output,
        true,
        Some(Some(&shared)),
        &mut notes,
    );
    if let Err(e) = result {
        crate::conversion::report_notes(&notes);
        return Err(e.context(files::display_name(level)));
    }
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "map": output.display().to_string(),
                "cache": cache.display().to_string(),
                "format": model.format().name(),
                "warnings": notes,
            })
        );
    } else {
        crate::conversion::report_notes(&notes);
        println!("{}", output.display());
    }
    Ok(crate::EXIT_OK)
}

/// The logics of the WWD levels under `paths`, for object types of their own.
fn logics_of(paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    // The files named, and those under the folders named (symbolic links to folders are not
    // followed, as in a batch).
    let mut walked = Vec::new();
    for path in paths {
        if path.is_dir() {
            crate::batch::walk(path, None, &mut walked)
                .with_context(|| path.display().to_string())?;
        } else {
            walked.push(path.clone());
        }
    }
    let mut found = Vec::new();
    for path in walked {
        let is_wwd = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wwd"));
        if !is_wwd && !paths.contains(&path) {
            continue;
        }
        let named = paths.contains(&path);
        let model = match files::load_model(&path) {
            Ok(model) => model,
            // A folder's files that do not read are skipped, as a batch skips them.
            Err(e) if !named => {
                crate::report(format_args!("skipped: {e:#}"));
                continue;
            }
            Err(e) => return Err(e),
        };
        let levelkit::document::Model::Wwd(wwd) = &model else {
            if !named {
                continue;
            }
            anyhow::bail!("{}: not a WWD level", path.display());
        };
        for plane in &wwd.planes {
            for o in &plane.objects {
                found.push(o.logic.to_editor_text());
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

fn write_types(args: &TiledTypesArgs) -> anyhow::Result<u8> {
    let logics = logics_of(&args.levels)?;
    let list = types::object_types(&logics);
    let project = &args.project;
    let dir = match project.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let existing = match std::fs::read_to_string(project) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(anyhow!(e).context(project.display().to_string())),
    };
    let json = types::project_json(existing.as_deref(), &list, OBJECT_TYPES_NAME)
        .map_err(|e| anyhow!("{}: {e}", project.display()))?;
    files::create_output_dir(&dir)?;
    files::write_output(
        &dir.join(OBJECT_TYPES_NAME),
        types::object_types_xml(&list).as_bytes(),
        true,
    )?;
    files::write_output(project, json.as_bytes(), true)?;
    crate::report(format_args!(
        "wrote {} and {} ({} object types)",
        project.display(),
        dir.join(OBJECT_TYPES_NAME).display(),
        list.len()
    ));
    Ok(crate::EXIT_OK)
}
