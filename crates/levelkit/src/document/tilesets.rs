//! Tiled maps that share their tilesets: each distinct tileset made once for many maps (a batch,
//! an overworld's levels).
//!
//! A single map stays self-contained: its tilesets are embedded and their images are side files
//! beside it (`OUT.tileset0.png`). Maps converted with [`Shared`] instead reference one tileset
//! file per distinct tileset in the folder [`FOLDER`] at the root of the output (`<name>-<hash>.tsx`
//! for `.tmx` maps, `.tsj` for `.tmj` maps) with its image beside it (`<name>-<hash>.png`, named
//! in it by file name alone); a map references it by a path relative to the map
//! (`<tileset firstgid="1" source="../tilesets/pics1-….tsx"/>`), which Tiled opens as it opens
//! any external tileset, and which levelkit reads back through [`crate::assets::Assets`].
//!
//! Why one folder at the output root rather than beside each map: a server's levels sit in many
//! folders, and one copy per folder would still be hundreds of copies.
//!
//! Two tilesets are the same when their definitions are (everything but `firstgid`, which is the
//! map's) and their images are. The image is identified before it is made where it can be: a
//! generated image by the definition it is generated from, a user's tile image by the name given
//! too ([`Shared::new`]); an image that has to be made anyway (a map's own referenced image, the
//! game's art) by a hash of its pixels. So a batch of 2,900 Graal levels generates and encodes
//! `pics1` once, not 2,900 times.
//!
//! The `<hash>` in the names is FNV-1a (64 bits) of that identity: the same tileset gets the
//! same names in every run, so a second batch into the same folder finds its tileset files
//! already there.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{Error, ErrorKind, Location, Result};
use crate::picture::{self as png, Image};
use crate::registry::Format;
use crate::tiled::{self, TiledOptions, TilesetImage};
use crate::tilemap::{TileMap, Tileset};

/// The folder, under the output's root, that holds the shared tilesets.
pub const FOLDER: &str = "tilesets";

/// What a shared image turned out to be.
#[derive(Clone)]
struct Written {
    /// File name in [`FOLDER`].
    name: String,
    width: u32,
    height: u32,
    columns: u32,
    /// Whether the image is the user's tiles rather than generated ones.
    user: bool,
}

type Slot<T> = Arc<OnceLock<std::result::Result<T, String>>>;
type Slots<K, T> = Mutex<HashMap<K, Slot<T>>>;

/// The tilesets shared by the maps of one output folder (see the module docs). Safe to use from
/// several threads at once; each distinct tileset is made by the first map that needs it.
#[derive(Default)]
pub struct Shared {
    tiles: Option<String>,
    images: Slots<Vec<u8>, Written>,
    files: Slots<(Vec<u8>, Format), String>,
    made: Mutex<Vec<(String, Vec<u8>)>>,
}

impl Shared {
    /// Shared tilesets; `tiles` names the user's tile graphics where the maps are drawn with them
    /// (a generated image and one made from the user's tiles are then told apart by it).
    pub fn new(tiles: Option<&str>) -> Shared {
        Shared {
            tiles: tiles.map(str::to_owned),
            ..Shared::default()
        }
    }

    /// Give `options` an external tileset for each tileset of `map`, made on first use. A
    /// tileset's image is `atlases[i]` where it is made already, else `make(i)` (the image and
    /// whether it is the user's). `up` is the path from the map's folder up to the output's root
    /// (`""`, `"../"`, …). Returns whether any tileset's image is the user's.
    pub fn attach(
        &self,
        map: &TileMap,
        atlases: Vec<Option<Image>>,
        format: Format,
        up: &str,
        options: &mut TiledOptions,
        make: &dyn Fn(usize) -> Result<(Image, bool)>,
    ) -> Result<bool> {
        let mut user = false;
        for ((index, ts), atlas) in map.tilesets.iter().enumerate().zip(atlases) {
            let key = self.key(ts, atlas.as_ref())?;
            let image = self.image(&key, ts, index, atlas, make)?;
            user |= image.user;
            let file = self.file(&key, format, ts, &image)?;
            options
                .external_tilesets
                .insert(index, format!("{up}{FOLDER}/{file}"));
        }
        Ok(user)
    }

    /// The files made since the last call, by path under the output's root
    /// (`tilesets/<name>-<hash>.png`, `.tsx`, `.tsj`), each once.
    pub fn take_files(&self) -> Vec<(String, Vec<u8>)> {
        self.made
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }

    /// What identifies a tileset and its image.
    fn key(&self, ts: &Tileset, atlas: Option<&Image>) -> Result<Vec<u8>> {
        let definition = Tileset {
            first_gid: 0,
            ..ts.clone()
        };
        let mut key = serde_json::to_vec(&definition).map_err(|e| failed(e.to_string()))?;
        match atlas {
            Some(image) => {
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
            None => {
                key.extend_from_slice(b"\0generated\0");
                if let Some(tiles) = &self.tiles {
                    key.extend_from_slice(tiles.as_bytes());
                }
            }
        }
        Ok(key)
    }

    /// The shared image of `key`, made by the first map that needs it.
    fn image(
        &self,
        key: &[u8],
        ts: &Tileset,
        index: usize,
        atlas: Option<Image>,
        make: &dyn Fn(usize) -> Result<(Image, bool)>,
    ) -> Result<Written> {
        let slot = slot(&self.images, key.to_vec())?;
        let result = slot.get_or_init(|| {
            let made = || -> Result<Written> {
                let (image, user) = match atlas {
                    Some(image) => (image, false),
                    None => make(index)?,
                };
                let name = format!("{}.png", stem(ts, key));
                self.keep(&name, png::encode_png(&image)?);
                Ok(Written {
                    name,
                    width: image.width,
                    height: image.height,
                    columns: image.columns,
                    user,
                })
            };
            made().map_err(|e| e.to_string())
        });
        result
            .clone()
            .map_err(|e| failed(format!("tileset {:?}: {e}", ts.name)))
    }

    /// The shared tileset file of `key` in `format`'s tileset form; its file name.
    fn file(&self, key: &[u8], format: Format, ts: &Tileset, image: &Written) -> Result<String> {
        let slot = slot(&self.files, (key.to_vec(), format))?;
        let result = slot.get_or_init(|| {
            let made = || -> Result<String> {
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
                self.keep(&name, bytes);
                Ok(name)
            };
            made().map_err(|e| e.to_string())
        });
        result
            .clone()
            .map_err(|e| failed(format!("tileset {:?}: {e}", ts.name)))
    }

    /// Keep a made file of [`FOLDER`] for [`Shared::take_files`].
    fn keep(&self, name: &str, bytes: Vec<u8>) {
        if let Ok(mut made) = self.made.lock() {
            made.push((format!("{FOLDER}/{name}"), bytes));
        }
    }
}

fn failed(message: String) -> Error {
    Error::new(
        Format::Tmx,
        ErrorKind::Malformed,
        Location::default(),
        message,
    )
}

/// The once-cell of `key`, made on first use.
fn slot<K: std::hash::Hash + Eq, T>(map: &Slots<K, T>, key: K) -> Result<Slot<T>> {
    let mut map = map
        .lock()
        .map_err(|_| failed("a thread failed while making a shared tileset".to_owned()))?;
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
