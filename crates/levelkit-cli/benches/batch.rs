//! `levelkit convert DIR --to nw,tmx --out OUT`, the batch path of issue 16 part 5, on a generated
//! server folder of [`LEVELS`] classic Graal levels: files per second with one and two worker
//! threads (`-j1`, `-j2`).
//!
//! The folder: with `LEVELKIT_CORPUS` set, the corpus's `.graal` levels copied round-robin under
//! new names into a temporary folder (never into the repository); otherwise the library's sample
//! level under [`LEVELS`] names. Each iteration converts into a fresh output folder, so every
//! run writes the shared tileset once and every map and `.nw` file.
//!
//! `cargo bench -p levelkit-cli --bench batch -- --sample-count 5`. The full 2,900-level figure
//! of the issue is the same command on a bigger folder (see the report in the commit history):
//! `levelkit convert levels --to nw,tmx --out out -j2`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use levelkit::formats::graal::binary as graal;

/// Levels in the generated folder.
const LEVELS: usize = 300;

fn main() {
    eprintln!(
        "batch bench input: {} levels in {}",
        LEVELS,
        FOLDER.0.path().display()
    );
    divan::main();
}

/// The temporary folder and its `levels/` subfolder.
static FOLDER: LazyLock<(tempfile::TempDir, PathBuf)> = LazyLock::new(|| {
    let dir = tempfile::tempdir().unwrap();
    let levels = dir.path().join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    let mut sources: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(root) = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty()) {
        let mut todo = vec![Path::new(&root).join("graal")];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    todo.push(p);
                } else if p.extension().is_some_and(|e| e == "graal") {
                    let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
                    sources.push((stem, std::fs::read(&p).unwrap()));
                }
            }
        }
        sources.sort();
    }
    if sources.is_empty() {
        sources.push(("sample".into(), graal::samples::graal().write().unwrap()));
    }
    for i in 0..LEVELS {
        let (stem, bytes) = &sources[i % sources.len()];
        std::fs::write(levels.join(format!("level{i:04}_{stem}.graal")), bytes).unwrap();
    }
    (dir, levels)
});

fn batch(bencher: Bencher, jobs: &str) {
    let (dir, levels) = &*FOLDER;
    let out = dir.path().join(format!("out-j{jobs}"));
    bencher
        .counter(ItemsCount::new(LEVELS))
        .with_inputs(|| {
            let _ = std::fs::remove_dir_all(&out);
        })
        .bench_local_values(|()| {
            let status = Command::new(env!("CARGO_BIN_EXE_levelkit"))
                .arg("convert")
                .arg(levels)
                .args(["--to", "nw,tmx", "--out"])
                .arg(&out)
                .args(["-j", jobs])
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
        });
}

/// One worker thread.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn nw_and_tmx_j1(bencher: Bencher) {
    batch(bencher, "1");
}

/// Two worker threads.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn nw_and_tmx_j2(bencher: Bencher) {
    batch(bencher, "2");
}
