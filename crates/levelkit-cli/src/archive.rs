//! What `ls`, `extract` and `pack` share: an archive opened by memory-mapping it (so listing a
//! large archive reads its directory pages only), indexed by the library, and the files a path
//! inside it selects.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use anyhow::{Context as _, anyhow, bail};
use levelkit::formats::rez::{self, RezIndex};
use memmap2::Mmap;

use crate::files::{display_name, is_stdio, read_input};

/// An archive's bytes: mapped from a file, or read from stdin.
pub enum Archive {
    /// A memory-mapped file.
    Mapped(Mmap),
    /// Bytes read whole (stdin, or an empty file, which cannot be mapped).
    Read(Vec<u8>),
}

impl Archive {
    /// Open `path` (`-` reads stdin).
    pub fn open(path: &Path) -> anyhow::Result<Archive> {
        if is_stdio(path) {
            return Ok(Archive::Read(read_input(path)?));
        }
        let file = File::open(path).with_context(|| display_name(path))?;
        let len = file.metadata().with_context(|| display_name(path))?.len();
        if len == 0 {
            return Ok(Archive::Read(Vec::new()));
        }
        Ok(Archive::Mapped(
            map(&file).with_context(|| display_name(path))?,
        ))
    }

    /// The archive's bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Archive::Mapped(m) => m,
            Archive::Read(v) => v,
        }
    }

    /// The index of the archive, or the library's error naming the path.
    pub fn index(&self, path: &Path) -> anyhow::Result<RezIndex<'_>> {
        RezIndex::read(self.bytes()).map_err(|e| anyhow!(e).context(display_name(path)))
    }
}

/// Map a file read-only.
#[allow(unsafe_code)]
fn map(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: the mapping is read-only and private to this process. Another process truncating
    // or rewriting the archive while levelkit runs could change the bytes under us (or, for a
    // truncation, fault): the same caveat as every tool that maps its input; levelkit never
    // writes to its inputs.
    unsafe { Mmap::map(file) }
}

/// What a path inside an archive selects: files with their paths from the archive's root (as
/// the archive spells them), and the directories without entries below it.
pub struct Selection<'i> {
    /// The files.
    pub files: Vec<(String, &'i rez::File)>,
    /// The empty directories.
    pub empty_dirs: Vec<String>,
}

/// The files under `inside` (a directory of the archive, the whole archive for `None`, or one
/// file).
pub fn select<'i>(index: &'i RezIndex<'_>, inside: Option<&str>) -> anyhow::Result<Selection<'i>> {
    let parts = inside.map(rez::components).unwrap_or_default();
    let mut here = &index.root;
    let mut names = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if let Some(dir) = here.directory(part) {
            names.push(dir.name.display());
            here = dir;
            continue;
        }
        if let Some(file) = here.file(part).filter(|_| i + 1 == parts.len()) {
            names.push(file.file_name_text());
            return Ok(Selection {
                files: vec![(names.join("/"), file)],
                empty_dirs: Vec::new(),
            });
        }
        bail!(
            "`{}`: no such file or directory in the archive",
            inside.unwrap_or_default()
        );
    }
    let prefix = names.iter().map(|n| format!("{n}/")).collect::<String>();
    let mut empty_dirs: Vec<String> = here
        .walk_directories()
        .into_iter()
        .filter(|(_, d)| d.entries.is_empty())
        .map(|(p, _)| format!("{prefix}{p}"))
        .collect();
    if here.entries.is_empty() && !names.is_empty() {
        empty_dirs.push(names.join("/"));
    }
    let files = here
        .walk()
        .into_iter()
        .map(|(p, f)| (format!("{prefix}{p}"), f))
        .collect();
    Ok(Selection { files, empty_dirs })
}

/// A path inside an archive as it may be printed on a terminal: control characters (C0, DEL
/// and C1, whose escape sequences a terminal would obey), the bidirectional overrides that
/// reorder what is shown, and the backslash that introduces these escapes are written as
/// escapes the way `--json` writes them (`\n`, `\t`, `\u001b`, `\\`). Any other name is
/// unchanged.
pub fn escape_name(name: &str) -> Cow<'_, str> {
    let needs = |c: char| c == '\\' || c.is_control() || is_bidi_control(c);
    if !name.chars().any(needs) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len().saturating_add(8));
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs(c) => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The Unicode controls that change the order text is shown in (U+202A..U+202E and
/// U+2066..U+2069): a name holding one can look like another on screen.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::escape_name;

    #[test]
    fn names_are_escaped_like_json() {
        assert_eq!(escape_name("LEVEL1/TILES/001.PID"), "LEVEL1/TILES/001.PID");
        assert_eq!(escape_name("ÿþBIN.TXT"), "ÿþBIN.TXT");
        assert_eq!(escape_name("NEW\nLINE.TXT"), "NEW\\nLINE.TXT");
        assert_eq!(escape_name("TAB\tX.TXT"), "TAB\\tX.TXT");
        assert_eq!(escape_name("ESC\u{1b}[31mRED.TXT"), "ESC\\u001b[31mRED.TXT");
        assert_eq!(escape_name("CSI\u{9b}1m"), "CSI\\u009b1m");
        assert_eq!(escape_name("A\\B"), "A\\\\B");
        assert_eq!(escape_name("RTL\u{202e}TXT.EXE"), "RTL\\u202eTXT.EXE");
    }
}
