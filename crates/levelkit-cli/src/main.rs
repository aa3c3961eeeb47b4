//! `levelkit`: the command-line face of the levelkit library.
//!
//! The binary is thin on purpose: argument parsing ([`cli`]), files and streams ([`files`]),
//! progress and exit codes. Everything about the formats themselves lives in the library.
//!
//! * [`info`], [`validate`], [`dump`]: one module per reporting command.
//! * [`ls`], [`extract`], [`pack`]: REZ archives, through [`archive`] (memory-mapped).
//! * [`convert`]: the single-file `convert IN OUT` and `render`; [`batch`]: `convert
//!   DIR|FILES... --out DIR`, in parallel; [`conversion`]: the conversion both modes share.
//! * [`tilesets`]: the tilesets a batch of maps shares (`tilesets/`), written once.
//! * [`view`]: `levelkit view`, the browser viewer served on localhost.
//!
//! Exit status: 0 success, 1 invalid input (unreadable files, error findings, failed
//! conversions, an output that exists without `--force`), 2 usage error (clap's own code for bad
//! arguments, reused for an unknown or unsupported target format).

mod archive;
mod batch;
mod cli;
mod conversion;
mod convert;
mod dump;
mod extract;
mod files;
mod info;
mod ls;
mod pack;
mod tiled;
mod tilesets;
mod validate;
mod view;

use std::fmt;
use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{Cli, Command};

/// Exit status for success.
const EXIT_OK: u8 = 0;
/// Exit status for invalid input and failed work.
const EXIT_FAILED: u8 = 1;
/// Exit status for usage errors, the same as clap's.
const EXIT_USAGE: u8 = 2;

/// A problem with the command line rather than with the input: exits with [`EXIT_USAGE`].
///
/// Carried inside `anyhow::Error` so any layer can raise it; `main` finds it by downcasting.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for raising a [`UsageError`].
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// Print `levelkit: <message>` on stderr. A closed stderr is not worth a panic.
pub fn report(message: impl fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "levelkit: {message}");
}

/// A bad command line, said in the same style as every other message (`levelkit: …`, exit 2);
/// `--help` and `--version` print as clap prints them.
fn usage_exit(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = err.print();
        return ExitCode::from(if err.use_stderr() {
            EXIT_USAGE
        } else {
            EXIT_OK
        });
    }
    let text = err.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    report(first.strip_prefix("error: ").unwrap_or(first));
    let rest: Vec<&str> = lines.collect();
    let rest = rest.join("\n");
    let rest = rest.trim();
    if !rest.is_empty() {
        let _ = writeln!(io::stderr().lock(), "{rest}");
    }
    ExitCode::from(EXIT_USAGE)
}

/// glibc's allocator, told to keep what levelkit frees for its next allocations: by default a
/// block of 128 KiB or more (a deflate state, a picture, a mesh's vertices) is a mapping of its
/// own, returned to the system when freed, so the next one touches new pages, each a fault.
/// With these two settings one conversion of a model touches a sixth fewer pages and takes
/// 5 to 8 % less time; peak memory is the same (what is kept is what was already in use).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn keep_freed_memory() {
    // SAFETY: `mallopt` only sets allocator parameters; it is called first thing in `main`,
    // before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_exit(&err),
    };
    let result = match cli.command {
        Command::Info(args) => info::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Dump(args) => dump::run(&args),
        Command::Convert(mut args) => {
            // A V-Chat manifest converts the world it names.
            match args.paths.first().map(|p| files::world_of_adf(p)) {
                Some(Ok(Some(world))) if args.paths.len() == 2 => {
                    args.paths[0] = world;
                    convert::run(&args)
                }
                Some(Err(e)) => Err(e),
                _ => convert::run(&args),
            }
        }
        Command::Render(args) => convert::render(&args),
        Command::Ls(args) => ls::run(&args),
        Command::Extract(args) => extract::run(&args),
        Command::Pack(args) => pack::run(&args),
        Command::View(args) => view::run(&args),
        Command::Tiled(args) => tiled::run(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) if files::is_broken_pipe(&err) => ExitCode::from(EXIT_OK),
        Err(err) => {
            report(format_args!("{err:#}"));
            if err.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::from(EXIT_FAILED)
            }
        }
    }
}
