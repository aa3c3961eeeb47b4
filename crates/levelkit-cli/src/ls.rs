//! `levelkit ls ARCHIVE [PATH]`: the files of a REZ archive (or of one directory in it), one per
//! line; `-l` adds size, offset, time and id; `--json` gives one JSON object per file (JSON
//! Lines). The archive is memory-mapped and only its directory is read.
//!
//! A name is printed with its control characters escaped as `--json` writes them
//! ([`escape_name`]): a hostile archive's names could otherwise move the cursor, recolour or
//! clear the terminal, or fake a second line.

use std::io::{self, Write as _};
use std::path::PathBuf;

use clap::Args;
use levelkit::formats::rez::time_text;
use serde_json::json;

use crate::EXIT_OK;
use crate::archive::{Archive, escape_name, select};

/// `levelkit ls`.
#[derive(Debug, Args)]
pub struct LsArgs {
    /// The archive (`.rez`, `.vrz`; `-` reads stdin).
    #[arg(value_name = "ARCHIVE")]
    pub archive: PathBuf,
    /// A directory or file inside the archive (`LEVEL1/TILES`, `/` or `\`, case ignored).
    #[arg(value_name = "PATH")]
    pub path: Option<String>,
    /// Also print each file's size, offset, time and id.
    #[arg(long, short = 'l')]
    pub long: bool,
    /// One JSON object per file, one per line: path, type, size, offset, time, id (and comment
    /// and keys where present).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &LsArgs) -> anyhow::Result<u8> {
    let archive = Archive::open(&args.archive)?;
    let index = archive.index(&args.archive)?;
    let files = select(&index, args.path.as_deref())?.files;
    let mut out = io::BufWriter::new(io::stdout().lock());
    for (path, file) in files {
        if args.json {
            let mut record = json!({
                "path": path,
                "type": file.fourcc.extension_text(),
                "size": file.size,
                "offset": file.pos,
                "time": file.time,
                "id": file.id,
            });
            if !file.comment.is_empty() {
                record["comment"] = json!(file.comment.display());
            }
            if !file.keys.is_empty() {
                record["keys"] = json!(file.keys);
            }
            writeln!(out, "{record}")?;
        } else if args.long {
            writeln!(
                out,
                "{:>10}  0x{:08x}  {}  {:>6}  {}",
                file.size,
                file.pos,
                time_text(file.time),
                file.id,
                escape_name(&path)
            )?;
        } else {
            writeln!(out, "{}", escape_name(&path))?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}
