//! `levelkit convert DIR|FILES... --to FORMAT --out DIR`: many files in parallel.
//!
//! Three steps: plan (walk the directories, in sorted order so runs are repeatable), classify
//! (sniff each walked file's first bytes and skip what levelkit cannot read or what is already
//! in the target format), convert (in parallel; each output is checked against the others so
//! two inputs never write the same file). Files named on the command line are never skipped:
//! if they cannot be read that is a failure.

use std::collections::HashMap;
use std::fs;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow};
use indicatif::{HumanBytes, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::cli::ConvertArgs;
use crate::conversion::{Target, labelled, write_converted};
use crate::files::{self, is_stdio};
use crate::tilesets::Shared;
use crate::{EXIT_FAILED, EXIT_OK, report, usage};

/// Bytes enough to sniff any format (the library looks at no more than this).
const SNIFF_LEN: u64 = 4096;

/// One input and where its output goes.
struct Job {
    input: PathBuf,
    output: PathBuf,
    /// Found by walking a directory (may be skipped) rather than named (never skipped).
    walked: bool,
    /// Index of its target.
    target: usize,
}

/// What became of one job.
enum Outcome {
    Converted {
        bytes_in: u64,
        bytes_out: u64,
    },
    Failed(String),
    /// Why a walked file was not converted.
    Skipped(String),
}

pub fn run(args: &ConvertArgs) -> anyhow::Result<u8> {
    let Some(out_dir) = &args.out else {
        return Err(usage(
            "batch mode (more than two paths, or a directory among them) needs --out DIR",
        ));
    };
    if args.to.is_empty() {
        return Err(usage(format!(
            "batch mode needs --to FORMAT ({}; or a list: json,tmx,png)",
            crate::cli::writable_names()
        )));
    }
    let mut targets = Vec::new();
    for &format in &args.to {
        if !targets.iter().any(|t: &Target| t.format == format) {
            targets.push(crate::convert::target_of(args, format)?);
        }
    }
    if args.graal_version.is_some() && !args.to.contains(&levelkit::Format::GraalLevel) {
        return Err(usage(
            "--graal-version applies to graal output; --to has no graal",
        ));
    }
    if args.mdl_version.is_some() && !args.to.contains(&levelkit::Format::Mdl) {
        return Err(usage(
            "--mdl-version applies to mdl output; --to has no mdl",
        ));
    }
    if let Some(stdin) = args.paths.iter().find(|p| is_stdio(p)) {
        return Err(usage(format!(
            "`{}` (stdin) cannot be used in batch mode",
            stdin.display()
        )));
    }
    let started = Instant::now();
    // Outputs stay inside --out: a link already inside it is never followed.
    files::confine_outputs(out_dir);
    let jobs = plan(&args.paths, out_dir, &targets, args.keep_extension)?;

    let pool = {
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(n) = args.jobs {
            builder = builder.num_threads(usize::from(n));
        }
        builder.build().context("cannot start worker threads")?
    };

    // Classify: which walked files are worth converting (each file sniffed once, whatever the
    // number of targets).
    let mut walked: Vec<&Path> = jobs
        .iter()
        .filter(|j| j.walked)
        .map(|j| j.input.as_path())
        .collect();
    walked.sort_unstable();
    walked.dedup();
    let sniffed: HashMap<&Path, Sniffed> =
        pool.install(|| walked.par_iter().map(|&p| (p, sniff(p))).collect());
    // Why each walked file is skipped (`None`: it is converted).
    let skip: Vec<Option<String>> = jobs
        .iter()
        .map(|job| {
            if !job.walked {
                return None;
            }
            let to = targets[job.target].format();
            match sniffed.get(job.input.as_path()) {
                Some(Sniffed::Format(format)) if *format == to => {
                    Some(format!("already a {} file", to.name()))
                }
                Some(Sniffed::Format(format))
                    if !levelkit::document::targets(*format).contains(&to) =>
                {
                    Some(format!(
                        "a {} file does not convert to {}",
                        format.name(),
                        to.name()
                    ))
                }
                Some(Sniffed::Unknown) => Some("not a format levelkit reads".to_owned()),
                _ => None,
            }
        })
        .collect();
    let mut outcomes: Vec<Option<Outcome>> = skip
        .into_iter()
        .map(|why| why.map(Outcome::Skipped))
        .collect();

    // Two inputs, one output: every input after the first fails (case-insensitively, so the
    // answer does not depend on the file system).
    let mut first_writer: HashMap<String, usize> = HashMap::new();
    for (index, job) in jobs.iter().enumerate() {
        if outcomes.get(index).is_some_and(Option::is_some) {
            continue;
        }
        let key = job.output.to_string_lossy().to_lowercase();
        if let Some(&first) = first_writer.get(&key) {
            let other = jobs.get(first).map(|j| j.input.display().to_string());
            if let Some(slot) = outcomes.get_mut(index) {
                *slot = Some(Outcome::Failed(format!(
                    "{} would also be written from {}; not overwritten (--keep-extension names \
                     outputs after the whole input name)",
                    job.output.display(),
                    other.unwrap_or_default()
                )));
            }
        } else {
            first_writer.insert(key, index);
        }
    }

    let todo: Vec<usize> = outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| o.is_none())
        .map(|(i, _)| i)
        .collect();
    // Tiled maps share their tilesets: each distinct one written once, under `--out`.
    let tiled = targets.iter().any(|t| {
        matches!(
            t.format(),
            levelkit::Format::Tmx | levelkit::Format::Tmj | levelkit::Format::TiledWorld
        )
    });
    let shared = tiled.then(|| Shared::new(out_dir, args.force, args.tiles.as_deref()));
    // One task per input, converting it to every target: the file is read and parsed once.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<&Path, usize> = HashMap::new();
    for &index in &todo {
        let Some(job) = jobs.get(index) else { continue };
        let group = *group_of.entry(&job.input).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        if let Some(g) = groups.get_mut(group) {
            g.push(index);
        }
    }
    let bar = progress_bar(todo.len() as u64);
    let done: Vec<(usize, Outcome, Vec<String>)> = pool.install(|| {
        groups
            .par_iter()
            .flat_map_iter(|group| {
                let mut model = None;
                let mut out = Vec::with_capacity(group.len());
                for &index in group {
                    let Some(job) = jobs.get(index) else { continue };
                    bar.set_message(job.input.display().to_string());
                    let mut notes = Vec::new();
                    let target = &targets[job.target];
                    let outcome = match convert_one(
                        job,
                        target,
                        args.force,
                        shared.as_ref(),
                        &mut model,
                        &mut notes,
                    ) {
                        Ok((bytes_in, bytes_out)) => Outcome::Converted {
                            bytes_in,
                            bytes_out,
                        },
                        Err(e) => Outcome::Failed(files::error_text(&job.input, &e)),
                    };
                    bar.inc(1);
                    out.push((index, outcome, notes));
                }
                out
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut notes_of: Vec<Vec<String>> = vec![Vec::new(); jobs.len()];
    for (index, outcome, notes) in done {
        if let Some(slot) = outcomes.get_mut(index) {
            *slot = Some(outcome);
        }
        if let Some(slot) = notes_of.get_mut(index) {
            *slot = notes;
        }
    }

    let mut summary = Summary::default();
    let mut files_json = Vec::new();
    for ((job, outcome), notes) in jobs.iter().zip(&outcomes).zip(&notes_of) {
        let (status, error) = match outcome {
            Some(Outcome::Converted {
                bytes_in,
                bytes_out,
            }) => {
                summary.converted += 1;
                summary.bytes_in += bytes_in;
                summary.bytes_out += bytes_out;
                ("converted", None)
            }
            Some(Outcome::Failed(reason)) => {
                summary.failed += 1;
                ("failed", Some(reason.clone()))
            }
            Some(Outcome::Skipped(why)) => {
                summary.skipped += 1;
                if args.verbose && !args.json {
                    report(format_args!("{}: skipped: {why}", job.input.display()));
                }
                ("skipped", None)
            }
            None => {
                summary.failed += 1;
                ("failed", Some("not converted".to_owned()))
            }
        };
        if let Some(reason) = &error
            && !args.json
        {
            report(format_args!("{}: {reason}", job.input.display()));
        }
        if args.json {
            files_json.push(serde_json::json!({
                "input": job.input.display().to_string(),
                "output": job.output.display().to_string(),
                "outcome": status,
                "error": error,
                "skipped": match outcome {
                    Some(Outcome::Skipped(why)) => Some(why.as_str()),
                    _ => None,
                },
                "warnings": notes,
            }));
        }
    }
    // Warnings, gathered by kind: every one with --verbose, else a count and the first file of
    // each kind after the summary (a batch of 124 models does not print 124 identical lines).
    let mut kinds = WarningKinds::default();
    for (job, notes) in jobs.iter().zip(&notes_of) {
        for note in notes {
            if args.verbose && !args.json {
                report(format_args!("{}: {}", job.input.display(), labelled(note)));
            }
            kinds.add(note, &job.input);
        }
    }
    summary.warnings = kinds.total;
    summary.notes = kinds.notes;
    if let Some(shared) = &shared {
        summary.bytes_out += shared.bytes_written();
        summary.tilesets = shared.tilesets_made();
    }
    summary.elapsed = started.elapsed();
    if args.json {
        let kinds_json: Vec<_> = kinds
            .list
            .iter()
            .map(|kind| {
                serde_json::json!({
                    "count": kind.count,
                    "first": kind.first,
                    "first_file": kind.first_file.display().to_string(),
                    "pattern": kind.pattern,
                    "names": kind.names.iter().map(|(n, c)| serde_json::json!({"names": n, "count": c})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let value = serde_json::json!({
            "converted": summary.converted,
            "failed": summary.failed,
            "skipped": summary.skipped,
            "bytes_in": summary.bytes_in,
            "bytes_out": summary.bytes_out,
            "tilesets": summary.tilesets,
            "seconds": summary.elapsed.as_secs_f64(),
            "warnings": summary.warnings,
            "notes": summary.notes,
            "warning_kinds": kinds_json,
            "files": files_json,
        });
        println!("{value}");
    } else {
        report(&summary);
    }
    if !args.verbose && !args.json {
        for kind in &kinds.list {
            report(format_args!("  {}", kind.line()));
        }
    }
    Ok(if summary.failed > 0 {
        EXIT_FAILED
    } else {
        EXIT_OK
    })
}

/// Warnings (and notes) by kind, in the order each kind was first met.
#[derive(Default)]
struct WarningKinds {
    list: Vec<Kind>,
    index: HashMap<String, usize>,
    /// Warnings (and errors) met.
    total: usize,
    /// Notes met: what a conversion did, with nothing lost.
    notes: usize,
}

/// One kind of warning: how many, its first text and file, and how often each distinct quoted
/// name met in it came up (a missing NPC image is one kind; its images are told apart).
struct Kind {
    count: usize,
    first: String,
    first_file: PathBuf,
    /// The kind with its quoted names elided (`NPC image "…" was not found`).
    pattern: String,
    /// (quoted names of one warning, count), in the order first met.
    names: Vec<(String, usize)>,
}

/// The most distinct names a summary line lists.
const NAMES_SHOWN: usize = 5;

impl WarningKinds {
    fn add(&mut self, note: &str, file: &Path) {
        if labelled(note).starts_with("note: ") {
            self.notes += 1;
        } else {
            self.total += 1;
        }
        let (key, pattern, names) = kind_of(note);
        let i = *self.index.entry(key).or_insert_with(|| {
            self.list.push(Kind {
                count: 0,
                first: note.to_owned(),
                first_file: file.to_path_buf(),
                pattern,
                names: Vec::new(),
            });
            self.list.len() - 1
        });
        let Some(kind) = self.list.get_mut(i) else {
            return;
        };
        kind.count += 1;
        if !names.is_empty() {
            match kind.names.iter_mut().find(|(n, _)| *n == names) {
                Some((_, count)) => *count += 1,
                None => kind.names.push((names, 1)),
            }
        }
    }
}

impl Kind {
    /// The summary line: the warning itself when it is always the same, else its pattern and
    /// the distinct names, most frequent first.
    fn line(&self) -> String {
        let first = self.first_file.display();
        if self.names.len() <= 1 {
            return format!(
                "{} x {} (first: {first})",
                self.count,
                labelled(&self.first)
            );
        }
        let mut names: Vec<&(String, usize)> = self.names.iter().collect();
        names.sort_by_key(|n| std::cmp::Reverse(n.1));
        let shown: Vec<String> = names
            .iter()
            .take(NAMES_SHOWN)
            .map(|(n, c)| format!("{n} {c}x"))
            .collect();
        let more = names.len().saturating_sub(NAMES_SHOWN);
        format!(
            "{} x {}: {} different: {}{} (first: {first})",
            self.count,
            labelled(&self.pattern),
            names.len(),
            shown.join(", "),
            if more > 0 {
                format!(", and {more} more (--verbose lists each)")
            } else {
                String::new()
            }
        )
    }
}

/// What makes two warnings the same kind: their text without the place (`(at …)`), quoted
/// names and numbers. Gives (the key, the text with quoted names elided, the quoted names).
fn kind_of(note: &str) -> (String, String, String) {
    let text = note.rsplit_once(" (at ").map_or(note, |(head, _)| head);
    let mut key = String::with_capacity(text.len());
    let mut pattern = String::with_capacity(text.len());
    let mut names = String::new();
    let mut quoted = false;
    let mut last_digit = false;
    for c in text.chars() {
        if c == '"' {
            quoted = !quoted;
            if quoted {
                key.push_str("\"…\"");
                pattern.push_str("\"…\"");
                if !names.is_empty() {
                    names.push(' ');
                }
            }
            names.push('"');
            continue;
        }
        if quoted {
            names.push(c);
            continue;
        }
        pattern.push(c);
        if c.is_ascii_digit() {
            if !last_digit {
                key.push('N');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        key.push(c);
    }
    (key, pattern, names)
}

#[derive(Default)]
struct Summary {
    warnings: usize,
    notes: usize,
    /// Shared tileset files written (or found in place) for Tiled maps.
    tilesets: u64,
    converted: usize,
    failed: usize,
    skipped: usize,
    bytes_in: u64,
    bytes_out: u64,
    elapsed: Duration,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "converted {}, failed {}, skipped {}; {} in, {} out; {:.2} s",
            self.converted,
            self.failed,
            self.skipped,
            HumanBytes(self.bytes_in),
            HumanBytes(self.bytes_out),
            self.elapsed.as_secs_f64()
        )?;
        match self.tilesets {
            0 => {}
            1 => write!(f, "; 1 shared tileset")?,
            n => write!(f, "; {n} shared tilesets")?,
        }
        match self.warnings {
            0 => {}
            1 => write!(f, "; 1 warning")?,
            n => write!(f, "; {n} warnings")?,
        }
        match self.notes {
            0 => Ok(()),
            1 => write!(f, "; 1 note"),
            n => write!(f, "; {n} notes"),
        }
    }
}

/// A bar on stderr when it is a terminal; nothing otherwise (logs and pipes stay clean).
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} [{elapsed_precise}, {eta} left] {wide_msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(len).with_style(style)
}

/// Every input with its output for every target, in a stable order.
fn plan(
    paths: &[PathBuf],
    out_dir: &Path,
    targets: &[Target],
    keep_extension: bool,
) -> anyhow::Result<Vec<Job>> {
    let mut jobs = Vec::new();
    for (index, target) in targets.iter().enumerate() {
        for mut job in plan_one(paths, out_dir, target, keep_extension)? {
            job.target = index;
            jobs.push(job);
        }
    }
    Ok(jobs)
}

/// Every input with its output for one target.
fn plan_one(
    paths: &[PathBuf],
    out_dir: &Path,
    target: &Target,
    keep_extension: bool,
) -> anyhow::Result<Vec<Job>> {
    let ext = target.format().extension();
    // `a/test.graal` -> `a/test.tmx`, or with --keep-extension `a/test.graal.tmx`.
    let named = |p: PathBuf| -> PathBuf {
        if keep_extension {
            let mut name = p.into_os_string();
            name.push(".");
            name.push(ext);
            PathBuf::from(name)
        } else {
            p.with_extension(ext)
        }
    };
    let out_canonical = fs::canonicalize(out_dir).ok();
    let mut jobs = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, out_canonical.as_deref(), &mut found)
                .with_context(|| path.display().to_string())?;
            found.sort();
            for file in found {
                let relative = file.strip_prefix(path).unwrap_or(&file).to_path_buf();
                jobs.push(Job {
                    output: out_dir.join(named(relative)),
                    input: file,
                    walked: true,
                    target: 0,
                });
            }
        } else {
            let name = path
                .file_name()
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("input"));
            jobs.push(Job {
                output: out_dir.join(named(name)),
                input: path.clone(),
                walked: false,
                target: 0,
            });
        }
    }
    Ok(jobs)
}

/// Collect the files under `dir`. Symbolic links to directories are not followed (no loops),
/// and the output directory is left out, so a second run does not convert the first run's
/// outputs.
pub fn walk(dir: &Path, skip: Option<&Path>, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if skip.is_some_and(|skip| fs::canonicalize(dir).is_ok_and(|d| d == skip)) {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, skip, found)?;
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            found.push(path);
        }
    }
    Ok(())
}

/// What a walked file is: a walked file is one to convert when levelkit can read its format
/// and it is not in the target format already.
fn sniff(path: &Path) -> Sniffed {
    let Ok(head) = files::read_head(path, SNIFF_LEN) else {
        // Unreadable now means unreadable later: let the conversion report why.
        return Sniffed::Unreadable;
    };
    let name = files::sniff_name(path);
    levelkit::sniff(&head, name.as_deref()).map_or(Sniffed::Unknown, Sniffed::Format)
}

/// What a walked file's first bytes say.
enum Sniffed {
    /// A format levelkit reads.
    Format(levelkit::Format),
    /// Nothing levelkit reads.
    Unknown,
    /// The file could not be read.
    Unreadable,
}

/// Convert one file; the sizes read and written.
fn convert_one(
    job: &Job,
    target: &Target,
    force: bool,
    shared: Option<&Shared>,
    model: &mut Option<(levelkit::document::Model, u64)>,
    notes: &mut Vec<String>,
) -> anyhow::Result<(u64, u64)> {
    if files::same_file(&job.input, &job.output) {
        return Err(anyhow!(
            "{} is the input itself; levelkit never writes to its input",
            job.output.display()
        ));
    }
    if !force && job.output.symlink_metadata().is_ok() {
        anyhow::bail!(files::refuse_message(&job.output));
    }
    // Loaded by the first target of this input, kept for the others.
    if model.is_none() {
        let bytes = files::read_input(&job.input)?;
        let dir = match job.input.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let loaded = files::load_bytes(&bytes, files::sniff_name(&job.input).as_deref(), Some(dir));
        let read = loaded
            .model
            .map_err(|e| anyhow!(e).context(job.input.display().to_string()))?;
        *model = Some((read, bytes.len() as u64));
    }
    let Some((model, bytes_in)) = model.as_ref() else {
        anyhow::bail!("{}: not read", job.input.display());
    };
    if let Some(parent) = job.output.parent() {
        files::create_output_dir(parent).with_context(|| parent.display().to_string())?;
    }
    let (written, converted) = write_converted(
        model,
        target,
        &job.input,
        &job.output,
        force,
        Some(shared),
        notes,
    )?;
    if converted.partial {
        anyhow::bail!("some levels of the overworld did not convert");
    }
    Ok((*bytes_in, written))
}
