//! `--game PATH`: a Claw or Gruntz level drawn with the player's own graphics, from the game's
//! REZ archive (memory-mapped) or a folder extracted from one. The rules that find each image
//! are the library's (`levelkit::formats::wwd::graphics`); this module only opens the files.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use levelkit::document::Model;
use levelkit::document::game::{LevelArt, graal_npc_art, wwd_art};
use levelkit::formats::wwd::graphics::GameFiles;
use levelkit::picture::PlacedImage;
use levelkit::tilemap::TileMap;

use crate::archive::Archive;

/// A folder's entries: name, path, whether it is a folder.
type Entries = Vec<(String, PathBuf, bool)>;

/// A folder of game files, looked up case-insensitively as the games (on Windows) did.
struct Folder {
    root: PathBuf,
    listings: RefCell<HashMap<PathBuf, Entries>>,
}

impl Folder {
    /// The entries of a real folder: (name, path, is a folder).
    fn entries(&self, dir: &Path) -> Entries {
        if let Some(hit) = self.listings.borrow().get(dir) {
            return hit.clone();
        }
        let list: Entries = std::fs::read_dir(dir)
            .map(|r| {
                r.filter_map(|e| e.ok())
                    .map(|e| {
                        let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
                        (
                            e.file_name().to_string_lossy().into_owned(),
                            e.path(),
                            is_dir,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.listings
            .borrow_mut()
            .insert(dir.to_path_buf(), list.clone());
        list
    }

    /// The real path of a `/`-separated game path, case ignored.
    fn resolve(&self, path: &str, want_dir: bool) -> Option<PathBuf> {
        let mut at = self.root.clone();
        let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            let entry = self.entries(&at).into_iter().find(|(name, _, is_dir)| {
                name.eq_ignore_ascii_case(part) && (*is_dir || (last && !want_dir))
            })?;
            at = entry.1;
        }
        Some(at)
    }
}

impl GameFiles for Folder {
    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)> {
        let real = self.resolve(dir, true)?;
        let (mut dirs, mut files) = (Vec::new(), Vec::new());
        for (name, _, is_dir) in self.entries(&real) {
            if is_dir {
                dirs.push(name);
            } else {
                files.push(name);
            }
        }
        Some((dirs, files))
    }

    fn read(&self, path: &str) -> Option<Cow<'_, [u8]>> {
        let real = self.resolve(path, false)?;
        std::fs::read(real).ok().map(Cow::Owned)
    }
}

/// The art of a WWD level from `game` (a REZ archive or a folder), with notes for what was not
/// found; `None` for a model that is not a WWD level.
pub fn art(
    model: &Model,
    map: &TileMap,
    game: &Path,
    notes: &mut Vec<String>,
) -> anyhow::Result<Option<LevelArt>> {
    let Model::Wwd(level) = model else {
        notes.push(format!(
            "--game applies to WWD levels; a {} file is drawn as without it",
            model.format().name()
        ));
        return Ok(None);
    };
    let (art, warnings) = if game.is_dir() {
        let folder = Folder {
            root: game.to_path_buf(),
            listings: RefCell::new(HashMap::new()),
        };
        wwd_art(level, map, &folder)
    } else {
        let archive = Archive::open(game)?;
        let index = archive.index(game)?;
        wwd_art(level, map, &index)
    };
    for w in &warnings {
        notes.push(w.to_string());
    }
    let r = &art.report;
    notes.push(format!(
        "--game: {} of {} tile images, {} of {} object images ({} of {} image sets) found",
        r.tiles_found,
        r.tiles_used,
        r.objects_found,
        r.objects_with_images,
        r.image_sets_found,
        r.image_sets
    ));
    Ok(Some(art))
}

/// The pictures of a Graal level's NPCs ([`levelkit::document::game::graal_npc_art`]), looked
/// up in `images` (`--images`), or else in the level's own folder and then its parent; names
/// compare case-insensitively where the exact name is not there.
pub fn npc_art(
    map: &TileMap,
    images: Option<&Path>,
    input: &Path,
) -> (Vec<(u32, PlacedImage)>, Vec<levelkit::Warning>) {
    let dirs = crate::imagefiles::image_dirs(input, images);
    graal_npc_art(map, &mut |name| {
        crate::imagefiles::find(&dirs, name).and_then(|p| std::fs::read(p).ok())
    })
}
