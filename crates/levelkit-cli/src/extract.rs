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
use levelkit::formats::rez;
use rayon::prelude::*;

use crate::archive::{Archive, select};
use crate::files::{display_name, refuse_message, write_output};
use crate::{EXIT_OK, usage};

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
    /// Convert while extracting: `png` decodes PID images (needs the PID decoder; see
    /// [`convert_for_output`]).
    #[arg(long, value_name = "FORMAT", hide = true)]
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

/// Whether this build can decode PID images (`--to png`). The PID decoder (`formats/pid`) is
/// being written beside this command; when it lands, this becomes `true` and
/// [`convert_for_output`] calls it.
const PID_DECODER: bool = false;

/// The hook for `--to png`: the name and bytes one extracted file is written as. Without `--to`
/// (and for files that are not PID images) the file is written as it is.
fn convert_for_output<'a>(
    to: Option<ExtractTo>,
    path: &str,
    file: &rez::File,
    data: &'a [u8],
) -> anyhow::Result<(String, Cow<'a, [u8]>)> {
    match to {
        Some(ExtractTo::Png) if file.fourcc.extension_bytes().eq_ignore_ascii_case(b"PID") => {
            // Here: decode `data` with the PID decoder (and the level's palette) to PNG bytes.
            bail!("{path}: decoding PID images needs the PID decoder, which this build lacks")
        }
        _ => Ok((path.to_owned(), Cow::Borrowed(data))),
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
    if args.to.is_some() && !PID_DECODER {
        return Err(usage(
            "--to png needs the PID decoder, which this build does not have yet",
        ));
    }
    let archive = Archive::open(&args.archive)?;
    let index = archive.index(&args.archive)?;
    let selection = select(&index, args.path.as_deref())?;
    let files = selection.files;

    // Plan every output before writing any.
    let mut plan: Vec<(PathBuf, String, &rez::File)> = Vec::with_capacity(files.len());
    let mut seen: HashMap<String, String> = HashMap::new();
    for (path, file) in &files {
        let name = output_name(args.to, path, file);
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
        plan.push((target, path.clone(), file));
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
            .map(|(target, path, file)| -> anyhow::Result<u64> {
                let data = index.data(*file)?;
                let (_, out) = convert_for_output(args.to, path, file, data)?;
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
