//! `levelkit extract ARCHIVE OUTDIR [PATH]`: the files of a REZ archive (or of one directory or
//! file in it) written under OUTDIR as they are, in their folders.
//!
//! Every output name is checked first (a name that is empty, `.` or `..`, or holds a path
//! separator, `:` or a control character would escape OUTDIR or be unportable, and two files
//! whose paths differ only in case would overwrite each other on some file systems), and so is
//! every existing output without `--force`: nothing is written unless everything can be. Each
//! file is written to a temporary file beside it and renamed into place.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::{Args, ValueEnum};
use levelkit::formats::pid::{Palette, Pid};
use levelkit::formats::rez::{self, RezIndex};
use rayon::prelude::*;

use crate::EXIT_OK;
use crate::archive::{Archive, select};
use crate::files::{display_name, refuse_message, write_output};

/// `levelkit extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The archive (`.rez`, `.vrz`; `-` reads stdin).
    #[arg(value_name = "ARCHIVE")]
    pub archive: PathBuf,
    /// The folder to write into (created if missing).
    #[arg(value_name = "OUTDIR")]
    pub outdir: PathBuf,
    /// Only this directory or file of the archive (`LEVEL1/TILES`, `/` or `\`, case ignored).
    #[arg(value_name = "PATH")]
    pub path: Option<String>,
    /// Overwrite existing files.
    #[arg(long, short = 'f')]
    pub force: bool,
    /// Convert while extracting: `png` writes PID images as PNG (indexed, with the PID's header
    /// kept in a text chunk, so `levelkit convert X.png X.PID` gives the PID back), drawn with
    /// their own palette, else the first `.PAL` of their top folder's `PALETTES` (the level's),
    /// else the first `.PAL` of the archive; other files as they are.
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<ExtractTo>,
}

/// Files written at once: writing is bound by syncing each file, not by the cores.
const WRITERS: usize = 16;

/// What `--to` turns extracted files into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExtractTo {
    /// PID images as PNG; other files as they are.
    Png,
}

/// The palettes of an archive: by top folder (its `PALETTES/*.PAL`, first by name), and the
/// first of all.
struct Palettes {
    by_top: HashMap<String, Palette>,
    first: Option<Palette>,
}

impl Palettes {
    fn of(index: &RezIndex<'_>) -> Palettes {
        let mut by_top = HashMap::new();
        let mut first = None;
        let mut files = index.files();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, file) in files {
            if !file.fourcc.extension_bytes().eq_ignore_ascii_case(b"PAL") {
                continue;
            }
            let Some(palette) = index.data(file).ok().and_then(|d| Palette::read(d).ok()) else {
                continue;
            };
            let parts: Vec<&str> = path.split('/').collect();
            if let [top, folder, _] = parts.as_slice()
                && folder.eq_ignore_ascii_case("PALETTES")
            {
                by_top
                    .entry(top.to_ascii_uppercase())
                    .or_insert_with(|| palette.clone());
            }
            first.get_or_insert(palette);
        }
        Palettes { by_top, first }
    }

    fn for_path(&self, path: &str) -> Option<&Palette> {
        let top = path.split('/').next().unwrap_or("").to_ascii_uppercase();
        self.by_top.get(&top).or(self.first.as_ref())
    }
}

/// The name and bytes one extracted file is written as: with `--to png`, a PID image as PNG;
/// otherwise (and for files that are not PID images) the file as it is.
fn convert_for_output<'a>(
    convert: bool,
    path: &str,
    data: &'a [u8],
    palettes: &Palettes,
) -> anyhow::Result<Cow<'a, [u8]>> {
    match convert {
        true => {
            let pid = Pid::read(data).map_err(|e| anyhow::anyhow!(e).context(path.to_owned()))?;
            let fallback = if pid.palette.is_some() {
                None
            } else {
                palettes.for_path(path)
            };
            let png = pid
                .to_png(fallback)
                .map_err(|e| anyhow::anyhow!(e).context(path.to_owned()))?;
            Ok(Cow::Owned(png))
        }
        false => Ok(Cow::Borrowed(data)),
    }
}

/// Whether `--to` converts this file: a PID image that reads and has a palette to draw with
/// (its own or one of the archive's). A PID that does not is written as it is, with a note.
fn converts(
    to: Option<ExtractTo>,
    path: &str,
    file: &rez::File,
    data: &[u8],
    palettes: &Palettes,
) -> Result<bool, String> {
    if to != Some(ExtractTo::Png) || !file.fourcc.extension_bytes().eq_ignore_ascii_case(b"PID") {
        return Ok(false);
    }
    match Pid::read(data) {
        Ok(pid) if pid.palette.is_some() || palettes.for_path(path).is_some() => Ok(true),
        Ok(_) => Err(format!(
            "{path}: no palette of its own and none in the archive; written as it is"
        )),
        Err(e) => Err(format!("{path}: {e}; written as it is")),
    }
}

/// The output name of a file under `to` (`.PID` → `.png` for `--to png`).
fn output_name(to: Option<ExtractTo>, path: &str, file: &rez::File) -> String {
    match to {
        Some(ExtractTo::Png) if file.fourcc.extension_bytes().eq_ignore_ascii_case(b"PID") => {
            let stem = path.len().saturating_sub(4);
            format!("{}.png", path.get(..stem).unwrap_or(path))
        }
        _ => path.to_owned(),
    }
}

pub fn run(args: &ExtractArgs) -> anyhow::Result<u8> {
    let archive = Archive::open(&args.archive)?;
    let index = archive.index(&args.archive)?;
    let palettes = Palettes::of(&index);
    let selection = select(&index, args.path.as_deref())?;
    let files = selection.files;

    // Plan every output before writing any.
    let mut plan: Vec<(PathBuf, String, &rez::File, bool)> = Vec::with_capacity(files.len());
    let mut seen: HashMap<String, String> = HashMap::new();
    for (path, file) in &files {
        let convert = match converts(args.to, path, file, index.data(file)?, &palettes) {
            Ok(convert) => convert,
            Err(note) => {
                eprintln!("levelkit: warning: {note}");
                false
            }
        };
        let name = if convert {
            output_name(args.to, path, file)
        } else {
            path.clone()
        };
        let target = safe_join(&args.outdir, &name)?;
        if let Some(first) = seen.insert(name.to_lowercase(), path.clone()) {
            bail!(
                "`{first}` and `{path}` would both be written to {} (names compared ignoring \
                 case); extract them one at a time",
                target.display()
            );
        }
        if !args.force && std::fs::symlink_metadata(&target).is_ok() {
            bail!(refuse_message(&target));
        }
        plan.push((target, path.clone(), file, convert));
    }

    let mut dirs = Vec::with_capacity(selection.empty_dirs.len());
    for dir in &selection.empty_dirs {
        dirs.push(safe_join(&args.outdir, dir)?);
    }

    // Each file is synced to disk before its rename (files::write_output), so the time goes to
    // waiting on the disk: many writers at once, whatever the number of cores.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(WRITERS)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the writer threads: {e}"))?;
    let bytes: u64 = pool.install(|| {
        plan.par_iter()
            .map(|(target, path, file, convert)| -> anyhow::Result<u64> {
                let data = index.data(*file)?;
                let out = convert_for_output(*convert, path, data, &palettes)?;
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| anyhow::anyhow!(e).context(parent.display().to_string()))?;
                }
                write_output(target, &out, args.force)?;
                Ok(out.len() as u64)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    })?;
    for dir in &dirs {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!(e).context(dir.display().to_string()))?;
    }
    println!(
        "extracted {} files ({bytes} bytes) from {} to {}",
        plan.len(),
        display_name(&args.archive),
        args.outdir.display()
    );
    Ok(EXIT_OK)
}

/// `outdir` joined with the `/`-separated archive path, refusing any component that could
/// leave `outdir` or that a common file system cannot hold.
fn safe_join(outdir: &Path, path: &str) -> anyhow::Result<PathBuf> {
    let mut out = outdir.to_path_buf();
    for part in path.split('/') {
        let bad = part.is_empty()
            || part == "."
            || part == ".."
            || part
                .chars()
                .any(|c| c == '\\' || c == ':' || c.is_control());
        if bad {
            bail!(
                "`{path}`: `{}` cannot be a file name here (empty, `.`, `..`, or a separator, \
                 `:` or control character in it); not extracting",
                part.escape_debug()
            );
        }
        out.push(part);
    }
    Ok(out)
}
