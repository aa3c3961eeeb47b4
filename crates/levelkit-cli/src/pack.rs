//! `levelkit pack DIR OUT.REZ`: a REZ archive of a folder's files, laid out as Monolith's tools
//! did (the library's `rez::Builder`). Paths inside the archive are the files' paths under DIR;
//! each file's time is its modification time, the archive's the latest of them. Folders are
//! walked in name order, so the same folder gives the same archive.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{Context as _, anyhow, bail};
use clap::Args;
use levelkit::formats::rez::{Builder, FileSpec};

use crate::EXIT_OK;
use crate::files::{same_file, write_output};

/// `levelkit pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// The folder to pack.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The archive to write.
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// Overwrite an existing archive.
    #[arg(long, short = 'f')]
    pub force: bool,
}

pub fn run(args: &PackArgs) -> anyhow::Result<u8> {
    if !args.dir.is_dir() {
        bail!("{}: not a folder", args.dir.display());
    }
    let mut files = Vec::new();
    walk(&args.dir, "", &mut files)?;
    // Times first: the archive's time (and its directories') is the latest file's.
    let mut planned = Vec::new();
    let mut empty_dirs = Vec::new();
    let mut latest = 0u32;
    for item in files {
        match item {
            Item::Dir(rel) => empty_dirs.push(rel),
            // The output itself, when it is inside DIR (a second run with --force).
            Item::File(_, path) if same_file(&path, &args.output) => {}
            Item::File(rel, path) => {
                let meta = fs::metadata(&path).with_context(|| path.display().to_string())?;
                let time = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX));
                latest = latest.max(time);
                planned.push((rel, path, time));
            }
        }
    }
    let mut builder = Builder::new();
    builder.time(latest);
    let count = planned.len();
    for (rel, path, time) in planned {
        let data = fs::read(&path).with_context(|| path.display().to_string())?;
        builder
            .add_file(
                &rel,
                FileSpec {
                    time,
                    ..FileSpec::new(data)
                },
            )
            .map_err(|e| anyhow!(e).context(path.display().to_string()))?;
    }
    for rel in empty_dirs {
        builder
            .add_directory(&rel)
            .map_err(|e| anyhow!(e).context(args.dir.join(&rel).display().to_string()))?;
    }
    let rez = builder.finish()?;
    let bytes = rez.write()?;
    write_output(&args.output, &bytes, args.force)?;
    let s = rez.summary();
    println!(
        "packed {count} files in {} directories ({} bytes of data) into {} ({} bytes)",
        s.directories,
        s.data_bytes,
        args.output.display(),
        bytes.len()
    );
    Ok(EXIT_OK)
}

enum Item {
    /// An empty folder, by its path under DIR.
    Dir(String),
    /// A file, by its path under DIR and on disk.
    File(String, PathBuf),
}

/// The files under `dir` in name order (folders and files mixed, as sorted), and the empty
/// folders, with `/`-separated paths under the folder packed.
fn walk(dir: &Path, prefix: &str, out: &mut Vec<Item>) -> anyhow::Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .with_context(|| dir.display().to_string())?
        .collect::<Result<_, _>>()
        .with_context(|| dir.display().to_string())?;
    entries.sort_by_key(|e| e.file_name());
    if entries.is_empty() && !prefix.is_empty() {
        out.push(Item::Dir(prefix.trim_end_matches('/').to_owned()));
    }
    for entry in entries {
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            bail!(
                "{}: the name is not Unicode, so it cannot be stored",
                path.display()
            );
        };
        let rel = format!("{prefix}{name}");
        let kind = fs::metadata(&path).with_context(|| path.display().to_string())?;
        if kind.is_dir() {
            walk(&path, &format!("{rel}/"), out)?;
        } else if kind.is_file() {
            out.push(Item::File(rel, path));
        }
    }
    Ok(())
}
