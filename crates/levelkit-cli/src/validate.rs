//! `levelkit validate`: every finding with where it is, and a verdict per file.
//!
//! The report goes to stdout, including why a file could not be read at all: for this command
//! that is the most important finding, not a failure of the tool. Exit status 1 when any file
//! is unreadable or has an error finding; warnings alone pass.

use std::io::{self, Write as _};

use levelkit::{Severity, Warning};
use serde_json::{Value, json};

use crate::cli::ValidateArgs;
use crate::files::{self, display_name};
use crate::{EXIT_FAILED, EXIT_OK};

pub fn run(args: &ValidateArgs) -> anyhow::Result<u8> {
    let mut out = io::stdout().lock();
    let mut status = EXIT_OK;
    for path in &args.files {
        let name = display_name(path);
        let (format, outcome) = match files::load(path) {
            Ok(loaded) => match loaded.model {
                Ok(model) => {
                    let mut findings = model.validate();
                    // A gmap's levels are files of their own, beside it.
                    if let levelkit::document::Model::Gmap(g) = &model
                        && !files::is_stdio(path)
                    {
                        findings.extend(levelkit::document::overworld::missing_levels(
                            g,
                            &levelkit::assets::Folder::of_file(path),
                        ));
                    }
                    // A V-Chat world's textures are files of its folder.
                    if let levelkit::document::Model::Wdb(w) = &model
                        && !files::is_stdio(path)
                    {
                        let world = files::world_of_adf(path).ok().flatten();
                        let dir = files::input_dir(world.as_deref().unwrap_or(path));
                        findings.extend(levelkit::document::assets::vchat_missing_files(
                            w,
                            &mut |n: &str| {
                                use levelkit::assets::Assets as _;
                                levelkit::assets::Folder::new(&dir)
                                    .read(n)
                                    .map(std::borrow::Cow::into_owned)
                            },
                        ));
                    }
                    (Some(model.format()), Ok(findings))
                }
                Err(e) => (
                    loaded.file_format,
                    Err(json!({
                        "kind": e.kind,
                        "message": e.to_string(),
                        "location": e.location,
                    })),
                ),
            },
            Err(e) => (
                None,
                Err(json!({ "kind": "io", "message": files::error_text(path, &e) })),
            ),
        };
        let ok = match &outcome {
            Ok(findings) => !findings.iter().any(|f| f.severity == Severity::Error),
            Err(_) => false,
        };
        if !ok {
            status = EXIT_FAILED;
        }
        if args.json {
            let (findings, error) = match outcome {
                Ok(findings) => (findings, Value::Null),
                Err(error) => (Vec::new(), error),
            };
            let line = json!({
                "file": name,
                "format": format.map(|f| f.name()),
                "ok": ok,
                "errors": count(&findings, Severity::Error),
                "warnings": count(&findings, Severity::Warning),
                "findings": findings,
                "error": error,
            });
            writeln!(out, "{line}")?;
        } else {
            match outcome {
                Ok(findings) => {
                    for finding in &findings {
                        writeln!(out, "{name}: {finding}")?;
                    }
                    writeln!(out, "{name}: {}", verdict(&findings))?;
                }
                Err(error) => {
                    let message = error.get("message").and_then(Value::as_str).unwrap_or("");
                    writeln!(out, "{name}: error: {message}")?;
                    writeln!(out, "{name}: unreadable")?;
                }
            }
        }
    }
    out.flush()?;
    Ok(status)
}

fn count(findings: &[Warning], severity: Severity) -> usize {
    findings.iter().filter(|f| f.severity == severity).count()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn verdict(findings: &[Warning]) -> String {
    let errors = count(findings, Severity::Error);
    let warnings = count(findings, Severity::Warning);
    match (errors, warnings) {
        (0, 0) => "ok".to_owned(),
        (0, w) => format!("ok ({})", plural(w, "warning")),
        (e, w) => format!("invalid ({}, {})", plural(e, "error"), plural(w, "warning")),
    }
}
