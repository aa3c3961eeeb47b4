//! `levelkit extract ARCHIVE OUTDIR [PATH]`: the files of a REZ archive (or of one directory or
//! file in it) written under OUTDIR as they are, in their folders.
//!
//! Everything is checked before anything is written, and nothing is written unless everything
//! can be:
//!
//! * every name: one that is empty, `.` or `..`, or holds a path separator, a control character
//!   or one of `:*?"<>|` would escape OUTDIR or cannot be created on Windows, and is refused;
//!   one that Windows takes for a device (`CON`, `NUL`, `AUX`, `PRN`, `COM1`..`COM9`,
//!   `LPT1`..`LPT9`, with any extension: `CON.TXT`) or that ends in a dot or a space (which
//!   Windows drops) is written with a `_` added (`CON_.TXT`, `NAME_`), with a warning, on every
//!   system, so an archive extracts to the same tree everywhere;
//! * collisions: two files whose paths differ only in case, and a file with the same path as a
//!   folder (`X.TXT` and `X.TXT/INNER.TXT`), would overwrite each other;
//! * the output budget: the bytes to write, counted per file even where entries share their
//!   data, may not pass the [`Limits`] `max_alloc` (512 MiB) that `validate` and `convert`
//!   read an archive under: 4,096 entries pointing at one 1 MiB block would otherwise write
//!   4 GiB from a 1 MB archive;
//! * what is on disk: an existing output without `--force`, a folder where a file goes, and
//!   a symbolic link inside OUTDIR (never followed: [`files::confine_outputs`]).
//!
//! Each file is written to a temporary file beside it and renamed into place, so a reader
//! never sees half a file and a failure leaves no debris, but without flushing each to the
//! disk (as batch `convert`: see [`files::write_output_with`]): after a crash of the machine
//! mid-extraction, run it again with `--force`.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::bail;
use clap::{Args, ValueEnum};
use levelkit::Limits;
use levelkit::formats::pid::{Palette, Pid};
use levelkit::formats::rez::{self, RezIndex};
use rayon::prelude::*;

use crate::EXIT_OK;
use crate::archive::{Archive, escape_name, select};
use crate::files::{self, display_name, refuse_message, write_output_with};

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

/// Files written at once (see `run`).
const WRITERS: usize = 8;

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

/// One file to write: where, the archive path it comes from, its entry, and whether `--to`
/// converts it.
struct Planned<'i> {
    target: PathBuf,
    path: String,
    file: &'i rez::File,
    convert: bool,
}

pub fn run(args: &ExtractArgs) -> anyhow::Result<u8> {
    let archive = Archive::open(&args.archive)?;
    let index = archive.index(&args.archive)?;
    let palettes = Palettes::of(&index);
    let selection = select(&index, args.path.as_deref())?;
    let budget = output_budget();
    files::confine_outputs(&args.outdir);

    // Plan every output before writing any.
    let mut names = Names::default();
    let mut plan: Vec<Planned<'_>> = Vec::with_capacity(selection.files.len());
    let mut total: u64 = 0;
    for (path, file) in &selection.files {
        let data = index.data(file)?;
        total = total.saturating_add(data.len() as u64);
        if total > budget {
            bail!(over_budget(&args.archive, &selection.files, budget));
        }
        let convert = match converts(args.to, path, file, data, &palettes) {
            Ok(convert) => convert,
            Err(note) => {
                crate::report(format_args!("warning: {}", escape_name(&note)));
                false
            }
        };
        let name = if convert {
            output_name(args.to, path, file)
        } else {
            path.clone()
        };
        let target = names.file(&args.outdir, path, &name)?;
        check_on_disk(&target, args.force)?;
        plan.push(Planned {
            target,
            path: path.clone(),
            file,
            convert,
        });
    }
    let mut dirs = Vec::with_capacity(selection.empty_dirs.len());
    for dir in &selection.empty_dirs {
        let target = names.dir(&args.outdir, dir)?;
        files::check_output_path(&target.join("x"))?;
        dirs.push(target);
    }
    names.check_clashes()?;
    for warning in &names.renamed {
        crate::report(format_args!("warning: {warning}"));
    }

    // Each folder once, in order, before the writers start.
    let mut made = HashSet::new();
    for p in &plan {
        if let Some(parent) = p.target.parent()
            && made.insert(parent)
        {
            files::create_output_dir(parent)?;
        }
    }
    // Even without a flush per file, creating and renaming files waits on the file system
    // (directory locks, the kernel throttling writers of dirty pages), not on the cores: a
    // few writers per core keep it busy. The budget is charged again with what is really
    // written: a PID converted to PNG may grow.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(WRITERS)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the writer threads: {e}"))?;
    let written = AtomicU64::new(0);
    pool.install(|| {
        plan.par_iter().try_for_each(|p| -> anyhow::Result<()> {
            let data = index.data(p.file)?;
            let out = convert_for_output(p.convert, &p.path, data, &palettes)?;
            let before = written.fetch_add(out.len() as u64, Ordering::Relaxed);
            if before.saturating_add(out.len() as u64) > budget {
                bail!(
                    "{}: `{}` would bring the bytes extracted to more than {budget}, the most \
                 levelkit writes from one archive (the limit `validate` and `convert` read it \
                 under); stopped",
                    display_name(&args.archive),
                    escape_name(&p.path)
                );
            }
            write_output_with(&p.target, &out, args.force, false)
        })
    })?;
    for dir in &dirs {
        files::create_output_dir(dir)?;
    }
    println!(
        "extracted {} files ({} bytes) from {} to {}",
        plan.len(),
        written.load(Ordering::Relaxed),
        display_name(&args.archive),
        args.outdir.display()
    );
    Ok(EXIT_OK)
}

/// The most bytes one extraction writes: the library's allocation limit for one input, which
/// `validate` and `convert` read the whole archive under.
fn output_budget() -> u64 {
    u64::try_from(Limits::default().max_alloc).unwrap_or(u64::MAX)
}

/// Why an extraction is over the budget: how much it would write, and, where entries share
/// their bytes, how little of the archive that is.
fn over_budget(archive: &Path, files: &[(String, &rez::File)], budget: u64) -> String {
    let total: u64 = files.iter().map(|(_, f)| u64::from(f.size)).sum();
    let mut ranges: Vec<(u64, u64)> = files
        .iter()
        .map(|(_, f)| {
            (
                u64::from(f.pos),
                u64::from(f.pos).saturating_add(u64::from(f.size)),
            )
        })
        .collect();
    ranges.sort_unstable();
    let mut distinct = 0u64;
    let mut end = 0u64;
    for (start, stop) in ranges {
        let from = start.max(end);
        distinct = distinct.saturating_add(stop.saturating_sub(from));
        end = end.max(stop);
    }
    let shared = if distinct < total {
        format!(
            " (its entries share data: {distinct} distinct bytes of the archive, counted again \
             for each file that repeats them)"
        )
    } else {
        String::new()
    };
    format!(
        "{}: extracting {} files would write {total} bytes{shared}, more than {budget}, the most \
         levelkit writes from one archive (the limit `validate` and `convert` read it under); \
         nothing written",
        display_name(archive),
        files.len()
    )
}

/// What an existing path allows, before anything is written: no link or file on the way
/// ([`files::check_output_path`]), no folder where the file goes, and no file without
/// `--force`.
fn check_on_disk(target: &Path, force: bool) -> anyhow::Result<()> {
    files::check_output_path(target)?;
    match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.is_dir() => bail!(
            "{}: is a folder, where the archive has a file; not extracting",
            target.display()
        ),
        Ok(_) if !force => bail!(refuse_message(target)),
        _ => Ok(()),
    }
}

/// The output names of one extraction, checked as they are planned: each component made
/// portable ([`portable`]), the renames remembered for one warning each, and every file and
/// folder path (compared ignoring case) kept to find collisions.
#[derive(Default)]
struct Names {
    /// Lower-cased output path of each file, with its archive path.
    files: HashMap<String, String>,
    /// Lower-cased output path of each folder, with an archive path inside it.
    dirs: HashMap<String, String>,
    /// The warnings for renamed components, once each.
    renamed: Vec<String>,
    renamed_seen: HashSet<String>,
}

impl Names {
    /// The target of the file at archive `path`, written as `name` (the same, or `.png`).
    fn file(&mut self, outdir: &Path, path: &str, name: &str) -> anyhow::Result<PathBuf> {
        let (target, parts) = self.join(outdir, path, name)?;
        let mut key = String::new();
        let count = parts.len();
        for (i, part) in parts.iter().enumerate() {
            if !key.is_empty() {
                key.push('/');
            }
            key.push_str(&part.to_lowercase());
            if i + 1 < count {
                self.dirs
                    .entry(key.clone())
                    .or_insert_with(|| path.to_owned());
            }
        }
        if let Some(first) = self.files.insert(key, path.to_owned()) {
            bail!(
                "`{}` and `{}` would both be written to {} (names compared ignoring case); \
                 extract them one at a time",
                escape_name(&first),
                escape_name(path),
                target.display()
            );
        }
        Ok(target)
    }

    /// The target of the empty folder at archive `path`.
    fn dir(&mut self, outdir: &Path, path: &str) -> anyhow::Result<PathBuf> {
        let (target, parts) = self.join(outdir, path, path)?;
        let mut key = String::new();
        for part in &parts {
            if !key.is_empty() {
                key.push('/');
            }
            key.push_str(&part.to_lowercase());
            self.dirs
                .entry(key.clone())
                .or_insert_with(|| path.to_owned());
        }
        Ok(target)
    }

    /// `outdir` joined with `name`'s portable components.
    fn join(
        &mut self,
        outdir: &Path,
        path: &str,
        name: &str,
    ) -> anyhow::Result<(PathBuf, Vec<String>)> {
        let mut out = outdir.to_path_buf();
        let mut parts = Vec::new();
        let mut sofar = String::new();
        for part in name.split('/') {
            let made = portable(part).map_err(|why| {
                let whole = match part == path {
                    true => String::new(),
                    false => format!("`{}`: ", escape_name(path)),
                };
                anyhow::anyhow!(
                    "{whole}`{}` cannot be a file name here ({why}); not extracting",
                    escape_name(part)
                )
            })?;
            if !sofar.is_empty() {
                sofar.push('/');
            }
            sofar.push_str(part);
            if let Some((made, why)) = made {
                if self.renamed_seen.insert(sofar.clone()) {
                    self.renamed.push(format!(
                        "`{}`: {why} on Windows; written as `{made}`",
                        escape_name(&sofar)
                    ));
                }
                out.push(&made);
                parts.push(made);
            } else {
                out.push(part);
                parts.push(part.to_owned());
            }
        }
        Ok((out, parts))
    }

    /// A file whose path is also a folder's (`X.TXT` and `X.TXT/INNER.TXT`): one would replace
    /// the other.
    fn check_clashes(&self) -> anyhow::Result<()> {
        let mut clashes: Vec<(&String, &String)> = self
            .files
            .iter()
            .filter_map(|(key, file)| self.dirs.get(key).map(|inner| (file, inner)))
            .collect();
        clashes.sort();
        if let Some((file, inner)) = clashes.first() {
            bail!(
                "`{}` is a file, but `{}` needs a folder of the same name (names compared \
                 ignoring case); not extracting ({} such clash{})",
                escape_name(file),
                escape_name(inner),
                clashes.len(),
                if clashes.len() == 1 { "" } else { "es" }
            );
        }
        Ok(())
    }
}

/// The names Windows reserves for devices, whatever the extension (`CON.TXT` opens the
/// console).
const DEVICES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// One path component as it is written: `Ok(None)` as it is, `Ok(Some((name, why)))` renamed
/// (a device name gets a `_` after its stem, trailing dots and spaces become `_`), `Err(why)`
/// when no file may be named so (it would leave OUTDIR, or cannot be created on Windows).
fn portable(part: &str) -> Result<Option<(String, &'static str)>, &'static str> {
    if part.is_empty() || part == "." || part == ".." {
        return Err("empty, `.` or `..`");
    }
    if let Some(c) = part.chars().find(|c| {
        matches!(c, '\\' | '/' | ':' | '*' | '?' | '"' | '<' | '>' | '|') || c.is_control()
    }) {
        return Err(if c.is_control() {
            "a control character in it"
        } else {
            "a path separator or one of `:*?\"<>|` in it"
        });
    }
    // Windows drops trailing dots and spaces, and then takes `CON .TXT` for the device too.
    let kept = part.trim_end_matches(['.', ' ']);
    if kept.len() < part.len() {
        let tail = "_".repeat(part.len().saturating_sub(kept.len()));
        return Ok(Some((
            format!("{kept}{tail}"),
            "a name ending in a dot or a space is not kept",
        )));
    }
    let stem_end = part.find('.').unwrap_or(part.len());
    let stem = part.get(..stem_end).unwrap_or(part);
    if DEVICES
        .iter()
        .any(|d| stem.trim_end().eq_ignore_ascii_case(d))
    {
        let rest = part.get(stem_end..).unwrap_or("");
        return Ok(Some((format!("{stem}_{rest}"), "a device name")));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::portable;

    #[test]
    fn windows_names_are_renamed_or_refused() {
        let renamed = |p: &str| portable(p).unwrap().map(|(n, _)| n);
        assert_eq!(renamed("LEVEL1"), None);
        assert_eq!(renamed("CONSOLE.TXT"), None);
        assert_eq!(renamed("TRAILDOT..TXT"), None);
        assert_eq!(renamed("CON.TXT").as_deref(), Some("CON_.TXT"));
        assert_eq!(renamed("nul").as_deref(), Some("nul_"));
        assert_eq!(renamed("Com7.tar.gz").as_deref(), Some("Com7_.tar.gz"));
        assert_eq!(renamed("LPT9").as_deref(), Some("LPT9_"));
        assert_eq!(renamed("CON .TXT").as_deref(), Some("CON _.TXT"));
        assert_eq!(renamed("COM10"), None);
        assert_eq!(renamed("NAME.").as_deref(), Some("NAME_"));
        assert_eq!(renamed("NAME. ").as_deref(), Some("NAME__"));
        // A device name with a trailing dot: both fixed (`AUX_` is no device).
        assert_eq!(renamed("AUX.").as_deref(), Some("AUX_"));
        for bad in [
            "", ".", "..", "A\\B", "A:B", "A?", "A*", "A|B", "<A>", "\"A\"", "A\nB", "A\u{1b}",
        ] {
            assert!(portable(bad).is_err(), "{bad:?}");
        }
    }
}
