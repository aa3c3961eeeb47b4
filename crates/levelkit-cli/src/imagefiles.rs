//! Where a document's images are found by name: the Graal NPC pictures a level names
//! ([`crate::game::npc_art`]) and the sprite sheets a gani names ([`crate::gani`]). One rule for
//! both: `--images DIR` if given, else the document's own folder and then its parent; a name is
//! a plain file name, matched exactly or else ignoring case (the games ran on Windows). Each
//! folder is listed once a process ([`crate::files::named_case_insensitively`]), so a batch over a
//! server's `levels/` folder does not list the same big folder for every level.

use std::path::{Path, PathBuf};

use crate::files::{is_stdio, named_case_insensitively};

/// The folders images are looked for in: `images` (`--images`), else the folder of `input` and
/// then its parent (the current folder for standard input).
pub fn image_dirs(input: &Path, images: Option<&Path>) -> Vec<PathBuf> {
    if let Some(dir) = images {
        return vec![dir.to_path_buf()];
    }
    if is_stdio(input) {
        return vec![PathBuf::from(".")];
    }
    let own = match input.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let parent = own
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf));
    std::iter::once(own).chain(parent).collect()
}

/// The file that `name` stands for in the first of `dirs` that has it: the exact name, else
/// the same name in another case. `None` for a name with a path in it (nothing outside the
/// folders is read) and for a name no folder has.
pub fn find(dirs: &[PathBuf], name: &str) -> Option<PathBuf> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
        return None;
    }
    dirs.iter().find_map(|dir| {
        let exact = dir.join(name);
        if exact.is_file() {
            return Some(exact);
        }
        named_case_insensitively(dir, name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_any_case_and_paths_are_refused() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("Door.PNG");
        std::fs::write(&file, b"x").unwrap_or_else(|e| panic!("{e}"));
        let dirs = vec![dir.path().to_path_buf()];
        assert_eq!(find(&dirs, "Door.PNG"), Some(file.clone()));
        assert_eq!(find(&dirs, "door.png"), Some(file));
        assert_eq!(find(&dirs, "../Door.PNG"), None);
        assert_eq!(find(&dirs, "sub\\Door.PNG"), None);
        assert_eq!(find(&dirs, "missing.png"), None);
    }

    #[test]
    fn the_folders_are_the_option_else_the_input_folder_and_its_parent() {
        let dirs = image_dirs(Path::new("a/b/level.nw"), Some(Path::new("imgs")));
        assert_eq!(dirs, vec![PathBuf::from("imgs")]);
        assert_eq!(image_dirs(Path::new("-"), None), vec![PathBuf::from(".")]);
        let dirs = image_dirs(Path::new("level.nw"), None);
        assert_eq!(dirs.first(), Some(&PathBuf::from(".")));
    }
}
