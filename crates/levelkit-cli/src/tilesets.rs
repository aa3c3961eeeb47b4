//! Batch conversion to Tiled: each distinct tileset written once per batch, into `OUT/tilesets/`
//! (the library's [`levelkit::document::tilesets`] says which are the same and names them; this
//! module writes their files under the batch's output folder).

use std::path::{Component, Path};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context as _;
use levelkit::document::tilesets;

use crate::files;

/// The tilesets of one batch and where they are written.
pub struct Shared {
    root: std::path::PathBuf,
    force: bool,
    tilesets: tilesets::Shared,
    bytes: AtomicU64,
    count: AtomicU64,
}

impl Shared {
    /// Shared tilesets under `root` (the batch's `--out`), with `--tiles` if given.
    pub fn new(root: &Path, force: bool, tiles: Option<&Path>) -> Shared {
        let tiles = tiles.map(|t| t.to_string_lossy().into_owned());
        Shared {
            root: root.to_path_buf(),
            force,
            tilesets: tilesets::Shared::new(tiles.as_deref()),
            bytes: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }

    /// The library's shared tilesets.
    pub fn tilesets(&self) -> &tilesets::Shared {
        &self.tilesets
    }

    /// Bytes of tileset files and images written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Tileset files made so far.
    pub fn tilesets_made(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// `../` once per folder between the map's folder and the root.
    pub fn up_from(&self, output: &Path) -> String {
        let dir = output.parent().unwrap_or_else(|| Path::new(""));
        let depth = dir
            .strip_prefix(&self.root)
            .map(|rel| {
                rel.components()
                    .filter(|c| matches!(c, Component::Normal(_)))
                    .count()
            })
            .unwrap_or(0);
        "../".repeat(depth)
    }

    /// Write the tileset files made since the last call, unless one is there already with
    /// these bytes (a second batch into the same folder).
    pub fn write_made(&self) -> anyhow::Result<()> {
        for (name, bytes) in self.tilesets.take_files() {
            if name.ends_with(".tsx") || name.ends_with(".tsj") {
                self.count.fetch_add(1, Ordering::Relaxed);
            }
            let path = self.root.join(&name);
            if std::fs::read(&path).is_ok_and(|old| old == bytes) {
                continue;
            }
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
            }
            files::write_output_with(&path, &bytes, self.force, false)?;
            self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_in_folders_reach_the_root() {
        let shared = Shared::new(Path::new("out"), false, None);
        assert_eq!(shared.up_from(Path::new("out/a.tmx")), "");
        assert_eq!(shared.up_from(Path::new("out/x/y/a.tmx")), "../../");
    }
}
