//! Batch conversion to Tiled: each distinct tileset written once per batch.
//!
//! A single `convert IN OUT.tmx` stays self-contained: the tilesets are embedded in the map and
//! their images written beside it (`OUT.tileset0.png`). A batch (`convert DIR --to tmx --out
//! OUT`) writes every distinct tileset once, into `OUT/tilesets/`: a tileset file
//! (`<name>-<hash>.tsx` for `.tmx` maps, `.tsj` for `.tmj` maps) and its image
//! (`<name>-<hash>.png`, beside it, named in it by file name alone); every map references the
//! tileset file by a path relative to the map (`<tileset firstgid="1"
//! source="../tilesets/pics1-….tsx"/>`), which Tiled opens as it opens any external tileset,
//! and which levelkit reads back through the library's side-file resolver.
//!
//! Why one folder at the output root rather than beside each map: a server's levels sit in many
//! folders, and one copy per folder would still be hundreds of copies.
//!
//! Two tilesets are the same when their definitions are (everything but `firstgid`, which is
//! the map's) and their images are. The image is identified before it is made where it can
//! be: a generated image by the definition it is generated from, a `--tiles` image by the path
//! given too; an image that has to be made anyway (a map's own referenced image, `--game`
//! art) by a hash of its pixels. So a batch of 2,900 Graal levels generates and encodes
//! `pics1` once, not 2,900 times.
//!
//! The `<hash>` in the names is FNV-1a (64 bits) of that identity: the same tileset gets the same
//! names in every run, so a second batch into the same folder finds its tileset files already
//! there and leaves them alone (files with the same name and other bytes are refused without
//! `--force`, as any output is).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{Context as _, anyhow};
use levelkit::Format;
use levelkit::picture::{self as png, Image};
use levelkit::tiled::{self, TiledOptions, TilesetImage};
use levelkit::tilemap::{TileMap, Tileset};

use crate::files;

/// The folder, under the batch's output root, that holds the shared tilesets.
pub const FOLDER: &str = "tilesets";

/// A tileset's image as the conversion has it: made already, or to be made on first use.
pub enum Atlas {
    /// Made already (a map's own image, `--game` art): identified by its pixels.
    Ready(Image),
    /// Generated, or from `--tiles`: identified by the definition (and the `--tiles` path).
    Later,
}

/// What a shared image turned out to be.
#[derive(Clone)]
struct Written {
    /// File name in [`FOLDER`].
    name: String,
    width: u32,
    height: u32,
    columns: u32,
    /// Drawn from the user's `--tiles`.
    user: bool,
}

type Slot<T> = Arc<OnceLock<Result<T, String>>>;
/// Once-cells by key.
type Slots<K, T> = Mutex<HashMap<K, Slot<T>>>;

/// The tilesets of one batch, shared by its maps (and threads).
pub struct Shared {
    root: PathBuf,
    force: bool,
    tiles: Option<PathBuf>,
    images: Slots<Vec<u8>, Written>,
    files: Slots<(Vec<u8>, Format), String>,
    bytes: AtomicU64,
    count: AtomicU64,
}

impl Shared {
    /// Shared tilesets under `root` (the batch's `--out`), with `--tiles` if given.
    pub fn new(root: &Path, force: bool, tiles: Option<&Path>) -> Shared {
        Shared {
            root: root.to_path_buf(),
            force,
            tiles: tiles.map(Path::to_path_buf),
            images: Mutex::new(HashMap::new()),
            files: Mutex::new(HashMap::new()),
            bytes: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }

    /// Bytes of tileset files and images written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Tileset files written or found in place so far.
    pub fn tilesets(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Make every tileset of `map` external in `options`, writing the ones not written yet; the
    /// map will be written as `format` (TMX or TMJ) to `output`.
    pub fn attach(
        &self,
        map: &TileMap,
        atlases: Vec<Atlas>,
        format: Format,
        output: &Path,
        options: &mut TiledOptions,
    ) -> anyhow::Result<()> {
        let up = self.up_from(output);
        let mut user = false;
        for ((index, ts), atlas) in map.tilesets.iter().enumerate().zip(atlases) {
            let key = self.key(ts, &atlas)?;
            let image = self.image(&key, ts, index, atlas)?;
            user |= image.user;
            let file = self.file(&key, format, ts, &image)?;
            options
                .external_tilesets
                .insert(index, format!("{up}{FOLDER}/{file}"));
        }
        if let Some(tiles) = &self.tiles
            && !user
        {
            return Err(crate::tiles::none_found(tiles, map));
        }
        Ok(())
    }

    /// `../` once per folder between the map's folder and the root.
    fn up_from(&self, output: &Path) -> String {
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

    /// What identifies a tileset and its image.
    fn key(&self, ts: &Tileset, atlas: &Atlas) -> anyhow::Result<Vec<u8>> {
        let definition = Tileset {
            first_gid: 0,
            ..ts.clone()
        };
        let mut key = serde_json::to_vec(&definition)?;
        match atlas {
            Atlas::Ready(image) => {
                key.extend_from_slice(b"\0pixels\0");
                for n in [image.width, image.height, image.columns] {
                    key.extend_from_slice(&n.to_le_bytes());
                }
                key.extend_from_slice(&(image.rgba.len() as u64).to_le_bytes());
                key.extend_from_slice(&fnv(&image.rgba).to_le_bytes());
                // A second hash, seeded differently, makes two images with equal keys
                // practically impossible.
                key.extend_from_slice(&fnv(&[&image.rgba[..], b"\x01"].concat()).to_le_bytes());
            }
            Atlas::Later => {
                key.extend_from_slice(b"\0generated\0");
                if let Some(tiles) = &self.tiles {
                    key.extend_from_slice(tiles.as_os_str().as_encoded_bytes());
                }
            }
        }
        Ok(key)
    }

    /// The shared image of `key`, made and written by the first map that needs it.
    fn image(
        &self,
        key: &[u8],
        ts: &Tileset,
        index: usize,
        atlas: Atlas,
    ) -> anyhow::Result<Written> {
        let slot = slot(&self.images, key.to_vec())?;
        let result = slot.get_or_init(|| {
            let make = || -> anyhow::Result<Written> {
                let (image, user) = match atlas {
                    Atlas::Ready(image) => (image, false),
                    Atlas::Later => {
                        let tiles = self.tiles.as_deref();
                        crate::tiles::atlas(ts, index, tiles, &crate::tiles::listing(tiles))?
                    }
                };
                let name = format!("{}.png", stem(ts, key));
                self.write(&name, &png::encode_png(&image)?)?;
                Ok(Written {
                    name,
                    width: image.width,
                    height: image.height,
                    columns: image.columns,
                    user,
                })
            };
            make().map_err(|e| format!("{e:#}"))
        });
        result
            .clone()
            .map_err(|e| anyhow!("tileset {:?}: {e}", ts.name))
    }

    /// The shared tileset file of `key` in `format`'s tileset form; its file name.
    fn file(
        &self,
        key: &[u8],
        format: Format,
        ts: &Tileset,
        image: &Written,
    ) -> anyhow::Result<String> {
        let slot = slot(&self.files, (key.to_vec(), format))?;
        let result = slot.get_or_init(|| {
            let make = || -> anyhow::Result<String> {
                let entry = TilesetImage {
                    path: image.name.clone(),
                    width: image.width,
                    height: image.height,
                    columns: image.columns,
                };
                let (ext, bytes) = if format == Format::Tmj {
                    ("tsj", tiled::to_tsj(ts, Some(&entry))?)
                } else {
                    ("tsx", tiled::to_tsx(ts, Some(&entry))?)
                };
                let name = format!("{}.{ext}", stem(ts, key));
                self.write(&name, &bytes)?;
                self.count.fetch_add(1, Ordering::Relaxed);
                Ok(name)
            };
            make().map_err(|e| format!("{e:#}"))
        });
        result
            .clone()
            .map_err(|e| anyhow!("tileset {:?}: {e}", ts.name))
    }

    /// Write a file of [`FOLDER`], unless it is there already with these bytes.
    fn write(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let dir = self.root.join(FOLDER);
        let path = dir.join(name);
        if std::fs::read(&path).is_ok_and(|old| old == bytes) {
            return Ok(());
        }
        std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
        files::write_output_with(&path, bytes, self.force, false)?;
        self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(())
    }
}

/// The once-cell of `key`, made on first use.
fn slot<K: std::hash::Hash + Eq, T>(map: &Slots<K, T>, key: K) -> anyhow::Result<Slot<T>> {
    let mut map = map
        .lock()
        .map_err(|_| anyhow!("a worker thread failed while writing a shared tileset"))?;
    Ok(Arc::clone(map.entry(key).or_default()))
}

/// `<name>-<hash>`: the tileset's name made safe as a file name, and 16 hex digits of `key`.
fn stem(ts: &Tileset, key: &[u8]) -> String {
    let mut name: String = ts
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    if name.trim_matches('.').is_empty() {
        name = "tileset".to_owned();
    }
    format!("{name}-{:016x}", fnv(key))
}

/// FNV-1a, 64 bits: small, fixed forever (names stay the same from one release to the next).
fn fnv(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_the_published_function() {
        // Test vectors of the FNV reference (draft-eastlake-fnv): "" and "a".
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn maps_in_folders_reach_the_root() {
        let shared = Shared::new(Path::new("out"), false, None);
        assert_eq!(shared.up_from(Path::new("out/a.tmx")), "");
        assert_eq!(shared.up_from(Path::new("out/x/y/a.tmx")), "../../");
    }

    #[test]
    fn names_are_safe_and_carry_the_key() {
        let ts = Tileset {
            name: "Action/ACTION".into(),
            first_gid: 1,
            tile_width: 64,
            tile_height: 64,
            tile_count: 1,
            image: None,
            properties: Default::default(),
            tiles: Vec::new(),
        };
        assert_eq!(stem(&ts, b"a"), "Action_ACTION-af63dc4c8601ec8c");
        let unnamed = Tileset {
            name: "..".into(),
            ..ts
        };
        assert!(stem(&unnamed, b"a").starts_with("tileset-"));
    }
}
