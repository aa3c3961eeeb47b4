//! Shared by the integration tests: the drivers of third-party tools (`../shared/oracles`) and a
//! deterministic random source for the sweeps.

// Each test crate uses its own subset.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod alloc;
pub mod skip;

use std::path::{Path, PathBuf};
use std::process::Command;

/// True when `tool` is on the PATH.
pub fn on_path(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// True under CI (`CI` set to anything but empty or `false`): `.ci/run` installs every oracle, so
/// a missing one there means a broken CI, and the test that needs it fails instead of skipping.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false")
}

/// Skip a check whose tool is missing: prints `SKIP: {why}`, or fails under CI ([`in_ci`]).
pub fn skip(why: &str) {
    assert!(!in_ci(), "CI is set, but {why}");
    eprintln!("SKIP: {why}");
}

/// The oracle script `script` (in `$LEVELKIT_ORACLES`, or `../shared/oracles` beside the
/// repository), when it and every one of `tools` are there; otherwise prints `SKIP: …` naming
/// `checks` and gives `None` (or fails under CI).
pub fn oracle(script: &str, tools: &[&str], checks: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("LEVELKIT_ORACLES").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracles"),
        PathBuf::from,
    );
    let path = dir.join(script);
    if let Some(missing) = tools.iter().find(|t| !on_path(t)) {
        skip(&format!("`{missing}` not on the PATH; {checks} not run"));
        return None;
    }
    if !path.is_file() {
        skip(&format!(
            "{} not found (set LEVELKIT_ORACLES); {checks} not run",
            path.display()
        ));
        return None;
    }
    Some(path)
}

/// `$LEVELKIT_CORPUS`, a relative path taken from the workspace root (where `cargo test` is run:
/// tests themselves run in their crate's folder), or `None` when unset or empty.
pub fn corpus_root() -> Option<PathBuf> {
    let Some(root) = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty()) else {
        skip::note_corpus_skip();
        return None;
    };
    let root = PathBuf::from(root);
    Some(if root.is_relative() {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(root)
    } else {
        root
    })
}

/// The real-file corpus folder `$LEVELKIT_CORPUS/{sub}`, or `None` when the variable is unset or
/// empty (an empty variable counts as unset); panics when it is set but the folder is missing.
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = corpus_root()?.join(sub);
    assert!(
        dir.is_dir(),
        "LEVELKIT_CORPUS is set but {} is missing",
        dir.display()
    );
    Some(dir)
}

/// [`corpus`], printing `SKIP: LEVELKIT_CORPUS is not set; {what} not run` when it gives `None`.
pub fn corpus_or_skip(sub: &str, what: &str) -> Option<PathBuf> {
    let dir = corpus(sub);
    if dir.is_none() {
        eprintln!("SKIP: LEVELKIT_CORPUS is not set; {what} not run");
    }
    dir
}

/// A fresh temporary directory for one test of one process.
pub fn out_dir(prefix: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tiled --export-map IN OUT` through the Tiled oracle script; panics with Tiled's message on
/// failure. (Tiled picks the writer by the output's complete suffix: `a.tiled.tmj` would be
/// "tiled.tmj", which no writer has.)
pub fn tiled_convert(script: &Path, input: &Path, output: &Path) {
    let out = Command::new(script)
        .arg("convert")
        .arg(input)
        .arg(output)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tiled --export-map {} {}: {}",
        input.display(),
        output.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Run the Khronos glTF validator (`script` from [`oracle`]) on `path` and assert it finds no
/// errors and no warnings. `false` when the validator is not installed (a SKIP outside CI, a
/// failure in CI).
#[allow(dead_code)]
pub fn assert_gltf_valid(script: &Path, path: &Path) -> bool {
    let out = std::process::Command::new("node")
        .arg(script)
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(3) {
        skip(
            "gltf-validator is not installed (run ../shared/oracles/setup.sh node); validator checks not run",
        );
        return false;
    }
    assert!(
        out.status.success() && text.contains("errors=0 warnings=0"),
        "{}: {text}{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    true
}

/// The seeded random source of the sweeps: the library's one (`levelkit::testutil::Rng`).
pub use levelkit::testutil::Rng;
