//! Where a conversion finds the files a document does not hold itself: tile graphics, textures,
//! the models a level places, a gani's sprites, an overworld's levels, the game's graphics.
//!
//! [`Assets`] is the one interface: read a file by name, list a folder. Names are relative to
//! the document's folder, `/`-separated (a `\` in a name a level stores is read as `/`), with
//! `..` for the parent folder (a V-Chat world names `../images/FOUNT3.GIF`); they compare
//! without regard to case where the exact name is not there, as on Windows, where every one of
//! these formats was made. Three kinds come with the library: [`Folder`] (a folder on disk,
//! read-only), [`Dropped`] (files held in memory by base name: a page's dropped files, a test's)
//! and the REZ archive index ([`crate::formats::rez::RezIndex`]); [`Chain`] asks several in
//! turn, [`NoAssets`] has nothing.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::limits::Limits;

/// The files around a document (see the module docs).
pub trait Assets {
    /// The bytes of the file `name`, or `None` when there is no such file.
    fn read(&self, name: &str) -> Option<Cow<'_, [u8]>>;

    /// The sub-folders and the files of the folder `dir` (`""` is the document's own folder),
    /// by name, or `None` when there is no such folder.
    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)>;
}

impl<T: Assets + ?Sized> Assets for &T {
    fn read(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        (**self).read(name)
    }

    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)> {
        (**self).list(dir)
    }
}

/// No files at all (a document read from standard input, or a caller without files).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoAssets;

impl Assets for NoAssets {
    fn read(&self, _: &str) -> Option<Cow<'_, [u8]>> {
        None
    }

    fn list(&self, _: &str) -> Option<(Vec<String>, Vec<String>)> {
        None
    }
}

/// Several sources asked in turn: a file is the first one's that has it; a folder lists what
/// all of them have there.
pub struct Chain<'a>(pub Vec<&'a dyn Assets>);

impl Assets for Chain<'_> {
    fn read(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.0.iter().find_map(|a| a.read(name))
    }

    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)> {
        let mut any = None::<(Vec<String>, Vec<String>)>;
        for (dirs, files) in self.0.iter().filter_map(|a| a.list(dir)) {
            let all = any.get_or_insert_with(Default::default);
            all.0.extend(dirs);
            all.1.extend(files);
        }
        any
    }
}

/// The files of a sub-folder of another source: `name` is read as `<dir>/<name>` (a V-Chat
/// world opened through its manifest finds `../images/X.GIF` from its `data/` folder).
pub struct Within<'a> {
    /// The source.
    pub assets: &'a dyn Assets,
    /// The sub-folder, `/`-separated (`""`: the source itself).
    pub dir: String,
}

impl Within<'_> {
    /// `<dir>/<name>`, each `..` of `name` taking a folder off `dir` (so a source that knows
    /// no `..`, a REZ archive, finds `IMAGES/OFFICER/../../PALETTES/MAIN.PAL` as
    /// `PALETTES/MAIN.PAL`); the `..` left over stay in front.
    fn path(&self, name: &str) -> String {
        let mut parts: Vec<&str> = self.dir.split('/').filter(|p| !p.is_empty()).collect();
        let mut rest = name;
        while let Some(after) = rest.strip_prefix("../") {
            match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ => parts.push(".."),
            }
            rest = after;
        }
        parts.push(rest);
        parts.retain(|p| !p.is_empty());
        parts.join("/")
    }
}

impl Assets for Within<'_> {
    fn read(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.assets.read(&self.path(name))
    }

    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)> {
        self.assets.list(&self.path(dir))
    }
}

/// The last part of a name written with either kind of slash.
pub fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The number an image file stands for in an image set: the last run of digits in its stem
/// (`012.PID` -> 12, `FRAME001.PID` -> 1, `frame12.png` -> 12); `None` without digits.
pub fn image_number(name: &str) -> Option<u32> {
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let end = stem.rfind(|c: char| c.is_ascii_digit())?.checked_add(1)?;
    let start = stem
        .get(..end)?
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i.saturating_add(1));
    stem.get(start..end)?.parse().ok()
}

/// The images of an image set (the PIDs and PNGs of `dir` in `files`) by [`image_number`], as
/// the names listed (without `dir`). A PID wins over a PNG of the same number (a folder
/// `levelkit extract --to png` wrote next to the PIDs), else the lowest name; two files of one
/// kind with one number are noted in `notes`. `None` when the folder is not there. The one
/// rule for WWD tiles and object sprites and for ANI frames.
pub fn numbered_images(
    files: &dyn Assets,
    dir: &str,
    notes: &mut Vec<String>,
) -> Option<BTreeMap<u32, String>> {
    let (_, names) = files.list(dir)?;
    let mut out: BTreeMap<u32, String> = BTreeMap::new();
    for ext in [".PID", ".PNG"] {
        let mut sorted: Vec<&String> = names
            .iter()
            .filter(|n| n.to_ascii_uppercase().ends_with(ext))
            .collect();
        sorted.sort();
        for name in sorted {
            let Some(number) = image_number(name) else {
                continue;
            };
            match out.get(&number) {
                Some(first) if first.to_ascii_uppercase().ends_with(ext) => notes.push(format!(
                    "{first} and {name} are both image {number}; using the first"
                )),
                Some(_) => {}
                None => {
                    out.insert(number, name.clone());
                }
            }
        }
    }
    Some(out)
}

/// Files held in memory, found by base name without regard to case (the folders a document
/// names them in are ignored: the files dropped on a page have none). Every file is in the one
/// folder `""`.
#[derive(Debug, Clone, Default)]
pub struct Dropped {
    files: BTreeMap<String, (String, Vec<u8>)>,
}

impl Dropped {
    /// No files yet.
    pub fn new() -> Dropped {
        Dropped::default()
    }

    /// Add (or replace) a file; only its base name is kept.
    pub fn add(&mut self, name: &str, bytes: Vec<u8>) {
        let base = base_name(name);
        self.files
            .insert(base.to_ascii_lowercase(), (base.to_owned(), bytes));
    }

    /// The bytes of a file, by name (path and case ignored).
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files
            .get(&base_name(name).to_ascii_lowercase())
            .map(|(_, b)| b.as_slice())
    }

    /// The files' names (as added) and bytes, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files.values().map(|(n, b)| (n.as_str(), b.as_slice()))
    }
}

impl Assets for Dropped {
    fn read(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        self.get(name).map(Cow::Borrowed)
    }

    fn list(&self, _: &str) -> Option<(Vec<String>, Vec<String>)> {
        Some((
            Vec::new(),
            self.files.values().map(|(n, _)| n.clone()).collect(),
        ))
    }
}

/// A folder on disk, read-only. A name is looked up as written first, then each part without
/// regard to case; `..` goes to the parent folder. Each file is read up to the input size cap
/// ([`Limits::max_alloc`]); a larger one is not there. Folder listings are read once a process
/// (a batch over a server's `levels/` folder does not list the same big folder for every level).
#[derive(Debug, Clone)]
pub struct Folder {
    root: PathBuf,
}

/// Lower-cased names to (real name, is a folder), by folder.
type Listing = Arc<HashMap<String, (String, bool)>>;

/// The listing of `dir`, read on first use and kept for the process (shared, not copied: a
/// batch asks for the same big folder once per level).
fn listing(dir: &Path) -> Option<Listing> {
    static LISTINGS: OnceLock<Mutex<HashMap<PathBuf, Listing>>> = OnceLock::new();
    let mut listings = LISTINGS.get_or_init(Default::default).lock().ok()?;
    if let Some(hit) = listings.get(dir) {
        return Some(Arc::clone(hit));
    }
    let entries: HashMap<String, (String, bool)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = e.path().is_dir();
            (name.to_lowercase(), (name, is_dir))
        })
        .collect();
    let entries = Arc::new(entries);
    listings.insert(dir.to_path_buf(), Arc::clone(&entries));
    Some(entries)
}

impl Folder {
    /// The folder `root` (a document's own folder).
    pub fn new(root: impl Into<PathBuf>) -> Folder {
        Folder { root: root.into() }
    }

    /// The folder of the file `path` (`.` for a bare name).
    pub fn of_file(path: &Path) -> Folder {
        match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => Folder::new(p),
            _ => Folder::new("."),
        }
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The real path `name` stands for, if there is one (`want_dir`: a folder, else a file).
    pub fn resolve(&self, name: &str, want_dir: bool) -> Option<PathBuf> {
        let rel = name.replace('\\', "/");
        if Path::new(&rel).is_absolute() || rel.starts_with('/') {
            return None;
        }
        let exact = self.root.join(&rel);
        if (want_dir && exact.is_dir()) || (!want_dir && exact.is_file()) {
            return Some(exact);
        }
        let mut at = self.root.clone();
        let parts: Vec<&str> = rel
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            if *part == ".." {
                at = at.join("..");
                continue;
            }
            let here = at.join(part);
            let is_dir = here.is_dir();
            if (last && (is_dir == want_dir) && here.exists()) || (!last && is_dir) {
                at = here;
                continue;
            }
            let entries = listing(&at)?;
            let (real, is_dir) = entries.get(&part.to_lowercase())?;
            if (!last && !is_dir) || (last && *is_dir != want_dir) {
                return None;
            }
            at = at.join(real);
        }
        let right_kind = if want_dir { at.is_dir() } else { at.is_file() };
        right_kind.then_some(at)
    }
}

/// The whole file at `path` when it is within the input size cap.
fn read_capped(path: &Path) -> Option<Vec<u8>> {
    let cap = u64::try_from(Limits::default().max_alloc).unwrap_or(u64::MAX);
    let mut out = Vec::new();
    File::open(path)
        .ok()?
        .take(cap.saturating_add(1))
        .read_to_end(&mut out)
        .ok()?;
    (out.len() as u64 <= cap).then_some(out)
}

impl Assets for Folder {
    fn read(&self, name: &str) -> Option<Cow<'_, [u8]>> {
        read_capped(&self.resolve(name, false)?).map(Cow::Owned)
    }

    fn list(&self, dir: &str) -> Option<(Vec<String>, Vec<String>)> {
        let real = if dir.is_empty() {
            self.root.clone()
        } else {
            self.resolve(dir, true)?
        };
        let mut entries: Vec<(String, bool)> = listing(&real)?.values().cloned().collect();
        entries.sort();
        let (dirs, files): (Vec<_>, Vec<_>) = entries.into_iter().partition(|(_, d)| *d);
        Some((
            dirs.into_iter().map(|(n, _)| n).collect(),
            files.into_iter().map(|(n, _)| n).collect(),
        ))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn image_numbers_are_the_last_digits_of_the_stem() {
        assert_eq!(image_number("012.PID"), Some(12));
        assert_eq!(image_number("FRAME001.PID"), Some(1));
        assert_eq!(image_number("frame12.png"), Some(12));
        assert_eq!(image_number("3.Png"), Some(3));
        assert_eq!(image_number("A2B.PID"), Some(2));
        assert_eq!(image_number("ACTION.PID"), None);
        assert_eq!(image_number("noext"), None);
    }

    #[test]
    fn numbered_images_prefer_pids_then_the_first_name() {
        let mut files = Dropped::default();
        for name in [
            "FRAME001.PID",
            "001.png",
            "2.png",
            "FRAME002.png",
            "cover.png",
            "3.PCX",
        ] {
            files.add(name, vec![]);
        }
        let mut notes = Vec::new();
        let images = numbered_images(&files, "", &mut notes).unwrap();
        let got: Vec<(u32, &str)> = images.iter().map(|(n, s)| (*n, s.as_str())).collect();
        assert_eq!(got, [(1, "FRAME001.PID"), (2, "2.png")]);
        assert_eq!(
            notes,
            ["2.png and FRAME002.png are both image 2; using the first"]
        );
    }

    #[test]
    fn within_takes_parent_steps_off_its_folder() {
        let w = |dir: &str, name: &str| {
            Within {
                assets: &NoAssets,
                dir: dir.to_owned(),
            }
            .path(name)
        };
        assert_eq!(
            w("IMAGES/OFFICER", "../../PALETTES/MAIN.PAL"),
            "PALETTES/MAIN.PAL"
        );
        assert_eq!(w("data", "../images/X.GIF"), "images/X.GIF");
        assert_eq!(w("data", "../../up.gif"), "../up.gif");
        assert_eq!(w("", "a.gif"), "a.gif");
        assert_eq!(w("IMAGES", ""), "IMAGES");
    }

    #[test]
    fn dropped_files_are_found_by_base_name_in_any_case() {
        let mut d = Dropped::new();
        d.add("pics/Door.PNG", b"x".to_vec());
        assert_eq!(d.read("../images/door.png").as_deref(), Some(&b"x"[..]));
        assert!(d.read("other.png").is_none());
        assert_eq!(d.list("").map(|l| l.1), Some(vec!["Door.PNG".to_owned()]));
    }

    #[test]
    fn a_chain_asks_each_source_in_turn() {
        let (mut a, mut b) = (Dropped::new(), Dropped::new());
        a.add("one", b"1".to_vec());
        b.add("one", b"2".to_vec());
        b.add("two", b"3".to_vec());
        let chain = Chain(vec![&a, &b]);
        assert_eq!(chain.read("one").as_deref(), Some(&b"1"[..]));
        assert_eq!(chain.read("two").as_deref(), Some(&b"3"[..]));
        assert!(NoAssets.read("one").is_none());
    }

    #[test]
    fn a_folder_finds_names_in_any_case_and_refuses_absolute_paths() {
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let data = root.path().join("data");
        let images = root.path().join("images");
        for dir in [&data, &images] {
            std::fs::create_dir(dir).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(images.join("fount3.gif"), b"gif").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(data.join("World.PAL"), b"pal").unwrap_or_else(|e| panic!("{e}"));
        let folder = Folder::new(&data);
        let read = |name: &str| folder.read(name).map(Cow::into_owned);
        assert_eq!(read("../images/fount3.gif").as_deref(), Some(&b"gif"[..]));
        assert_eq!(read("../images/FOUNT3.GIF").as_deref(), Some(&b"gif"[..]));
        assert_eq!(read("..\\IMAGES\\fount3.gif").as_deref(), Some(&b"gif"[..]));
        assert_eq!(read("world.pal").as_deref(), Some(&b"pal"[..]));
        // A folder is not a file.
        assert_eq!(read("../images"), None);
        assert_eq!(read(".."), None);
        assert_eq!(read("missing.gif"), None);
        // Absolute paths are refused, even to a file that exists.
        let absolute = images.join("fount3.gif");
        assert_eq!(read(&absolute.to_string_lossy()), None);
        let listed = folder.list("../images").map(|l| l.1);
        assert_eq!(listed, Some(vec!["fount3.gif".to_owned()]));
    }
}
