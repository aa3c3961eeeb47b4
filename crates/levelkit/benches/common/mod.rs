//! Shared by the benches: finding their real-file input under `$LEVELKIT_CORPUS`.

use std::path::{Path, PathBuf};

/// The largest `.wings` under `$LEVELKIT_CORPUS/wings`, leaving out `bad/`; `None` when the
/// variable is unset or empty, or there is no such file.
#[allow(dead_code)]
pub fn largest_wings() -> Option<PathBuf> {
    largest("wings", &|p| p.extension().is_some_and(|e| e == "wings"))
}

/// The largest file under `$LEVELKIT_CORPUS/<sub>` that `wanted` accepts, leaving out `bad/`.
pub fn largest(sub: &str, wanted: &dyn Fn(&Path) -> bool) -> Option<PathBuf> {
    let dir = std::env::var_os("LEVELKIT_CORPUS").filter(|d| !d.is_empty())?;
    let mut best: Option<(u64, PathBuf)> = None;
    walk(&PathBuf::from(dir).join(sub), wanted, &mut best);
    best.map(|(_, p)| p)
}

fn walk(dir: &Path, wanted: &dyn Fn(&Path) -> bool, best: &mut Option<(u64, PathBuf)>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bad") {
                walk(&path, wanted, best);
            }
        } else if wanted(&path) {
            let len = path.metadata().map_or(0, |m| m.len());
            if best.as_ref().is_none_or(|(l, _)| len > *l) {
                *best = Some((len, path));
            }
        }
    }
}
