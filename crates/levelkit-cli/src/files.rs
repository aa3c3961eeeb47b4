//! Files and streams: reading inputs (a path or `-` for stdin) under a size cap, reading models,
//! and writing outputs atomically: a new file as an unnamed file in its folder, linked in once
//! written (Linux), a replaced one (or any elsewhere) as a temporary file beside the target,
//! then a rename.
//!
//! Outputs written under a folder levelkit fills (`extract`'s OUTDIR, batch `convert --out`)
//! are confined to it once [`confine_outputs`] names it: a symbolic link already inside it is
//! never written through (a link `out/LEVEL1 -> /elsewhere` would put files outside the
//! folder), and a file where a folder is needed is an error, not a surprise. The temporary
//! files of a run that was killed (`.levelkit-XXXXXX.tmp`) are removed by the next run that
//! writes into their folder, once they are old enough to belong to no live writer.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, PoisonError, RwLock};
use std::time::{Duration, SystemTime};

use anyhow::{Context as _, anyhow, bail};
use levelkit::assets::{Assets as _, Folder};
use levelkit::document::Model;
use levelkit::{Format, Limits};

/// The most bytes read from one input. The library would refuse to allocate more for one
/// input anyway, so a larger file can only be a mistake (or hostile).
fn max_input_len() -> u64 {
    u64::try_from(Limits::default().max_alloc).unwrap_or(u64::MAX)
}

/// True for the `-` path, which means stdin or stdout.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How a path is shown in messages and reports.
pub fn display_name(path: &Path) -> String {
    if is_stdio(path) {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// The file name the library uses to guess a format from the extension (none for stdin).
pub fn sniff_name(path: &Path) -> Option<String> {
    if is_stdio(path) {
        return None;
    }
    path.file_name().map(|n| n.to_string_lossy().into_owned())
}

/// Read a whole input, `-` meaning stdin. Errors carry the path.
pub fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    let name = display_name(path);
    let cap = max_input_len();
    let mut bytes = Vec::new();
    let result = if is_stdio(path) {
        io::stdin()
            .lock()
            .take(cap.saturating_add(1))
            .read_to_end(&mut bytes)
    } else {
        File::open(path).and_then(|f| {
            // Sized from the file's length, so a small file is one read, not a dozen growing ones.
            let len = f.metadata().map_or(0, |m| m.len()).min(cap);
            bytes.reserve_exact(usize::try_from(len).unwrap_or(0).saturating_add(1));
            f.take(cap.saturating_add(1)).read_to_end(&mut bytes)
        })
    };
    result.with_context(|| name.clone())?;
    if bytes.len() as u64 > cap {
        bail!("{name}: larger than {cap} bytes, the most levelkit reads from one input");
    }
    Ok(bytes)
}

/// Up to `len` first bytes of a file, for sniffing without reading all of it.
pub fn read_head(path: &Path, len: u64) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(usize::try_from(len).unwrap_or(0).min(1 << 20));
    File::open(path)?.take(len).read_to_end(&mut head)?;
    Ok(head)
}

/// An input read and parsed.
pub struct Loaded {
    /// The file's own format (`json` for a model document).
    pub file_format: Option<Format>,
    /// The model, or why it could not be read.
    pub model: Result<Model, levelkit::Error>,
}

/// Parse bytes as a model, telling the format from the content and `name`'s extension. Files
/// that a glTF or OBJ references are looked up in `dir` (none for stdin).
///
/// A file taken for a format by its name alone whose content is not that format (nor any
/// other) fails with a description of it, never with its bytes quoted
/// ([`levelkit::error::unrecognised_content`]).
pub fn load_bytes(bytes: &[u8], name: Option<&str>, dir: Option<&Path>) -> Loaded {
    let folder = dir.map(Folder::new);
    let file_format = levelkit::sniff(bytes, name);
    let model = Model::read_with(bytes, name, &Limits::default(), &mut |n: &str| {
        folder.as_ref()?.read(n).map(std::borrow::Cow::into_owned)
    })
    .map_err(|e| match file_format {
        Some(format) => levelkit::error::unrecognised_content(format, bytes, &e).unwrap_or(e),
        None => e,
    });
    Loaded { file_format, model }
}

/// The folder of an input (`.` for a bare name).
pub fn input_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The world a V-Chat manifest (`world.adf`, by its extension) names: its `[data]` entry
/// `world.wdb` (else `data/world.wdb`), relative to the manifest's folder. `None` for any other
/// input (and for standard input).
pub fn world_of_adf(path: &Path) -> anyhow::Result<Option<PathBuf>> {
    if is_stdio(path)
        || !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("adf"))
    {
        return Ok(None);
    }
    let bytes = read_input(path)?;
    let world = levelkit::document::assets::vchat_world_of_manifest(&bytes)
        .map_err(|e| anyhow!(e).context(display_name(path)))?;
    Ok(Some(input_dir(path).join(world)))
}

/// The input itself, or the world a V-Chat manifest names ([`world_of_adf`]).
pub fn resolve_manifest(path: &Path) -> anyhow::Result<PathBuf> {
    Ok(world_of_adf(path)?.unwrap_or_else(|| path.to_path_buf()))
}

/// Read and parse an input. The outer error is I/O, the inner one the library's. A V-Chat
/// world's manifest (`world.adf`) opens the world it names (`data/world.wdb`).
pub fn load(path: &Path) -> anyhow::Result<Loaded> {
    if let Some(world) = world_of_adf(path)? {
        return load(&world);
    }
    let bytes = read_input(path)?;
    let dir = (!is_stdio(path)).then(|| match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    });
    Ok(load_bytes(
        &bytes,
        sniff_name(path).as_deref(),
        dir.as_deref(),
    ))
}

/// Read and parse an input, any failure as one error naming the path.
pub fn load_model(path: &Path) -> anyhow::Result<Model> {
    let loaded = load(path)?;
    loaded
        .model
        .map_err(|e| anyhow!(e).context(display_name(path)))
}

/// Write bytes to stdout, `-` having been given as the output.
pub fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

/// True when two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The message for an output that exists and may not be replaced.
pub fn refuse_message(path: &Path) -> String {
    format!(
        "{}: already exists; use --force to overwrite it",
        path.display()
    )
}

/// Write `bytes` to `path` atomically: into a temporary file in the same directory, then
/// renamed over the target (or, for a new file on Linux, linked in: [`write_linked`]), so a
/// reader never sees half a file and a failure leaves no debris.
/// Without `force` an existing target is refused, also when it appears between the check and
/// the rename (the final step then is a no-clobber rename).
pub fn write_output(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    write_output_with(path, bytes, force, true)
}

/// [`write_output`], flushing the file to the disk before the rename only with `sync`, and
/// then only when the rename replaces a file: a crash of the machine between the rename and the
/// write-back could otherwise lose the file that was there (the old content and the new). A new
/// file is not flushed: the worst a crash does to it is leave it empty, and nothing was lost
/// that running the command again does not make. The flush took 5 ms of the 12 ms a 375 KB MDL
/// takes to become a `.glb` (ext4; the CPU time was 7.5 ms).
///
/// Batch mode writes without it: the rename alone already keeps readers from seeing half a
/// file, and one fsync per output was nearly all of a batch's time (2,900 Graal levels to `.nw`:
/// 24 s, of which 1.8 s CPU, on the ext4 disk this was measured on). What it gives up is
/// durability after a crash of the machine mid-batch (an output may then be empty); running the
/// batch again with `--force` rewrites it.
///
/// Under the folder [`confine_outputs`] named, the folders on the way to `path` must exist
/// already (see [`create_output_dir`]) and none may be a symbolic link; a link at `path` itself
/// is replaced (with `force`), never written through. Stale temporary files in the folder are
/// removed first ([`sweep_stale_temps`]).
pub fn write_output_with(path: &Path, bytes: &[u8], force: bool, sync: bool) -> anyhow::Result<()> {
    check_output_path(path)?;
    let existing = fs::symlink_metadata(path).ok();
    let replaces = existing.is_some();
    if replaces && !force {
        bail!(refuse_message(path));
    }
    if existing.as_ref().is_some_and(fs::Metadata::is_dir) {
        bail!(
            "{}: is a folder; levelkit writes a file there only in its place",
            path.display()
        );
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    sweep_once(&dir);
    #[cfg(target_os = "linux")]
    if !replaces {
        match write_linked(&dir, path, bytes) {
            Linked::Done => return Ok(()),
            Linked::Failed(e) => {
                return Err(anyhow!(e).context(format!("{}: cannot write", path.display())));
            }
            Linked::Exists if !force => bail!(refuse_message(path)),
            Linked::Exists | Linked::Unsupported => {}
        }
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".levelkit-").suffix(".tmp");
    // A temporary file is private (0600); an output should get the usual mode (umask applies),
    // or keep the mode of the file it replaces. Elsewhere the defaults are right already.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(match existing.filter(|m| m.is_file()) {
            Some(meta) => meta.permissions(),
            None => fs::Permissions::from_mode(0o666),
        });
    }
    let mut tmp = builder
        .tempfile_in(&dir)
        .with_context(|| format!("{}: cannot create a temporary file", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| {
            if sync && replaces {
                tmp.as_file().sync_all()
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("{}: cannot write", path.display()))?;
    let persisted = if force {
        tmp.persist(path)
    } else {
        tmp.persist_noclobber(path)
    };
    match persisted {
        Ok(_) => Ok(()),
        Err(e) if !force && e.error.kind() == io::ErrorKind::AlreadyExists => {
            bail!(refuse_message(path))
        }
        Err(e) => Err(anyhow!(e.error).context(path.display().to_string())),
    }
}

/// How [`write_linked`] went.
#[cfg(target_os = "linux")]
enum Linked {
    /// The file is in place.
    Done,
    /// Writing failed (the disk is full, …); nothing was linked.
    Failed(io::Error),
    /// A file appeared at the path since it was checked; nothing was linked.
    Exists,
    /// The folder's file system has no unnamed files, or `/proc` is not there: the named
    /// temporary file does it.
    Unsupported,
}

/// Write a new file as an unnamed file in `dir` (`O_TMPFILE`), linked in at `path` once all of
/// it is written. Readers never see half a file, as with a named temporary file and a rename,
/// but it is one change to the folder instead of two, and a run that is killed leaves nothing
/// behind. A batch writing many files into one folder from several threads spent most of its
/// system time waiting for the folder's lock (540 PIDs to PNG: 0.13 to 0.22 s of system time
/// against 0.06 s of user time).
#[cfg(target_os = "linux")]
fn write_linked(dir: &Path, path: &Path, bytes: &[u8]) -> Linked {
    use rustix::fs::{AtFlags, CWD, Mode, OFlags};
    use std::os::fd::AsRawFd as _;
    let Ok(fd) = rustix::fs::openat(
        CWD,
        dir,
        OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o666),
    ) else {
        return Linked::Unsupported;
    };
    let mut file = File::from(fd);
    if let Err(e) = file.write_all(bytes) {
        return Linked::Failed(e);
    }
    let proc = format!("/proc/self/fd/{}", file.as_raw_fd());
    match rustix::fs::linkat(CWD, proc.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW) {
        Ok(()) => Linked::Done,
        Err(rustix::io::Errno::EXIST) => Linked::Exists,
        Err(_) => Linked::Unsupported,
    }
}

/// True when an error is a closed stdout (`levelkit dump x | head`): not worth a message.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// An error's text without the path, which the caller adds (I/O errors carry it already).
pub fn error_text(path: &Path, err: &anyhow::Error) -> String {
    let text = format!("{err:#}");
    let prefix = format!("{}: ", display_name(path));
    text.strip_prefix(&prefix)
        .map(str::to_owned)
        .unwrap_or(text)
}

/// The folder outputs are confined to, if a command named one ([`confine_outputs`]).
static OUTPUT_ROOT: RwLock<Option<PathBuf>> = RwLock::new(None);

/// Confine every output written below `root` from now on: the folders between `root` and an
/// output may not be symbolic links (an existing link inside the output folder is never
/// followed), and [`create_output_dir`] creates them one by one, checking each. `root` itself
/// may be a link: the user named it. Called by the commands that fill a folder (`extract`,
/// batch `convert`); a single `convert IN OUT` writes where OUT says.
pub fn confine_outputs(root: &Path) {
    let mut guard = OUTPUT_ROOT.write().unwrap_or_else(PoisonError::into_inner);
    *guard = Some(root.to_path_buf());
    *CHECKED.write().unwrap_or_else(PoisonError::into_inner) = None;
}

/// The confining root and the part of `path` below it, when `path` is below it.
fn confined(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let guard = OUTPUT_ROOT.read().unwrap_or_else(PoisonError::into_inner);
    let root = guard.as_ref()?;
    let below = path.strip_prefix(root).ok()?;
    Some((root.clone(), below.to_path_buf()))
}

/// The message for a symbolic link met inside the output folder.
fn link_message(link: &Path, root: &Path) -> String {
    format!(
        "{}: a symbolic link inside the output folder {}; levelkit does not write through links \
         there (remove the link or choose another folder)",
        link.display(),
        root.display()
    )
}

/// Check the folders between the confining root and `path` (not `path` itself): an existing
/// one must be a real folder, not a link nor a file. Folders that do not exist yet are fine;
/// nothing is created. Outside a confined folder there is nothing to check.
pub fn check_output_path(path: &Path) -> anyhow::Result<()> {
    let Some((root, below)) = confined(path) else {
        return Ok(());
    };
    if path.parent().is_some_and(is_checked) {
        return Ok(());
    }
    let mut at = root.clone();
    let parts: Vec<Component<'_>> = below.components().collect();
    let folders = parts.len().saturating_sub(1);
    for part in parts.iter().take(folders) {
        at.push(part);
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => bail!(link_message(&at, &root)),
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => bail!(
                "{}: exists and is not a folder, but {} is to be written inside it",
                at.display(),
                path.display()
            ),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(anyhow!(e).context(at.display().to_string())),
        }
    }
    // Every folder on the way exists and is real (none were missing: that returned above).
    if folders > 0
        && let Some(parent) = path.parent()
    {
        mark_checked(parent);
    }
    Ok(())
}

/// The output folders this run has found to exist as real folders all the way down from the
/// confining root (made by [`create_output_dir`] or walked by [`check_output_path`]), so the
/// thousands of files an extraction writes into one folder do not walk it again each.
static CHECKED: RwLock<Option<HashSet<PathBuf>>> = RwLock::new(None);

fn is_checked(dir: &Path) -> bool {
    CHECKED
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .is_some_and(|set| set.contains(dir))
}

fn mark_checked(dir: &Path) {
    CHECKED
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashSet::new)
        .insert(dir.to_path_buf());
}

/// Create the folder `dir` and the ones above it, like `fs::create_dir_all`, but below the
/// confining root ([`confine_outputs`]) one at a time, refusing any that is a symbolic link
/// or a file, so no folder is made through a link either.
pub fn create_output_dir(dir: &Path) -> anyhow::Result<()> {
    if is_checked(dir) {
        return Ok(());
    }
    let Some((root, below)) = confined(dir) else {
        fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
        mark_checked(dir);
        return Ok(());
    };
    fs::create_dir_all(&root).with_context(|| root.display().to_string())?;
    let mut at = root.clone();
    for part in below.components() {
        at.push(part);
        let meta = match fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                match fs::create_dir(&at) {
                    Ok(()) => continue,
                    // Made meanwhile by another writer: check what it is.
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(anyhow!(e).context(at.display().to_string())),
                }
                fs::symlink_metadata(&at).with_context(|| at.display().to_string())?
            }
            Err(e) => return Err(anyhow!(e).context(at.display().to_string())),
        };
        if meta.file_type().is_symlink() {
            bail!(link_message(&at, &root));
        }
        if !meta.is_dir() {
            bail!("{}: exists and is not a folder", at.display());
        }
    }
    mark_checked(dir);
    Ok(())
}

/// How long a temporary file must have gone unwritten before a later run may remove it. A
/// writer in progress changes its file's time as it writes; after the last byte it only
/// flushes (a single `convert`) and renames, which takes seconds even on a slow disk, so a file
/// untouched for ten minutes belongs to no live writer. (A lock held by the writer would say
/// so directly, but `File::lock` needs Rust 1.89 and the MSRV is 1.85.)
const STALE_AFTER: Duration = Duration::from_secs(600);

/// The folders swept in this run, so each is read once.
static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Sweep `dir` once per run ([`sweep_stale_temps`]), saying on stderr what was removed.
fn sweep_once(dir: &Path) {
    {
        let mut swept = SWEPT.lock().unwrap_or_else(PoisonError::into_inner);
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    let removed = sweep_stale_temps(dir, SystemTime::now());
    if removed > 0 {
        crate::report(format_args!(
            "{}: removed {removed} temporary file{} left by an interrupted run",
            dir.display(),
            if removed == 1 { "" } else { "s" }
        ));
    }
}

/// True for a name levelkit gives its temporary files: `.levelkit-` + 6 letters or digits +
/// `.tmp` (tempfile's default of 6 random characters), and nothing else.
pub fn is_our_temp_name(name: &str) -> bool {
    name.strip_prefix(".levelkit-")
        .and_then(|rest| rest.strip_suffix(".tmp"))
        .is_some_and(|random| {
            random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Remove from `dir` (not its subfolders) the temporary files a killed run left: regular files
/// (not links) named as ours ([`is_our_temp_name`]) and last written [`STALE_AFTER`] or more
/// before `now`. Returns how many were removed; anything unreadable is
/// left alone, silently (this is housekeeping, never the reason a run fails).
pub fn sweep_stale_temps(dir: &Path, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_str().is_some_and(is_our_temp_name) {
            continue;
        }
        let path = entry.path();
        // symlink_metadata: a link named like a temporary file is not ours.
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if !meta.file_type().is_file() || !old {
            continue;
        }
        if fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The path batch `convert` writes through: once its `--out` is confined, a link inside it
    /// stops `write_output_with` (the one test here that sets the process's root).
    #[cfg(unix)]
    #[test]
    fn confined_outputs_are_not_written_through_links() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let elsewhere = dir.path().join("elsewhere");
        fs::create_dir_all(&out).unwrap();
        fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("sub")).unwrap();
        confine_outputs(&out);
        let err = write_output_with(&out.join("sub/a.json"), b"{}", true, false).unwrap_err();
        assert!(
            err.to_string()
                .contains("a symbolic link inside the output folder"),
            "{err}"
        );
        let err = create_output_dir(&out.join("sub/deeper")).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        // Real folders are made one by one, and a file on the way is named.
        create_output_dir(&out.join("a/b/c")).unwrap();
        write_output_with(&out.join("a/b/c/x.json"), b"{}", false, false).unwrap();
        fs::write(out.join("file"), b"").unwrap();
        let err = create_output_dir(&out.join("file/d")).unwrap_err();
        assert!(
            err.to_string().contains("exists and is not a folder"),
            "{err}"
        );
        // Outside the confined folder nothing changes.
        write_output_with(&elsewhere.join("free.json"), b"{}", false, false).unwrap();
    }

    /// A new file is linked in whole; an existing one is refused, or replaced with `force`;
    /// no temporary file stays behind either way.
    #[test]
    fn outputs_are_written_whole_and_never_clobbered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_output(&path, b"first", false).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"first");
        let err = write_output(&path, b"second", false).unwrap_err();
        assert!(err.to_string().contains("--force"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"first");
        write_output(&path, b"second", true).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        #[cfg(target_os = "linux")]
        {
            // The target appearing after the check: nothing is linked over it.
            assert!(matches!(
                write_linked(dir.path(), &path, b"third"),
                Linked::Exists | Linked::Unsupported
            ));
            assert_eq!(fs::read(&path).unwrap(), b"second");
            assert!(matches!(
                write_linked(dir.path(), &dir.path().join("b.json"), b"b"),
                Linked::Done | Linked::Unsupported
            ));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            // The usual mode of a new file (0666 less the umask), not a temporary file's 0600.
            let usual = dir.path().join("usual");
            File::create(&usual).unwrap();
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), mode(&usual));
        }
        write_output(&dir.path().join("b.json"), b"b", true).unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(
            names.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")),
            "{names:?}"
        );
    }

    #[test]
    fn only_our_temporary_names_are_swept() {
        assert!(is_our_temp_name(".levelkit-a1B2c3.tmp"));
        for name in [
            ".levelkit-abc.tmp",
            ".levelkit-abcdefg.tmp",
            ".levelkit-abc-ef.tmp",
            "levelkit-abcdef.tmp",
            ".levelkit-abcdef.tmp~",
            ".other-abcdef.tmp",
        ] {
            assert!(!is_our_temp_name(name), "{name}");
        }
        // Removed once old enough, and only then.
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join(".levelkit-stale1.tmp");
        fs::write(&stale, b"x").unwrap();
        let almost = SystemTime::now() + STALE_AFTER - Duration::from_secs(30);
        let later = SystemTime::now() + STALE_AFTER + Duration::from_secs(1);
        assert_eq!(sweep_stale_temps(dir.path(), SystemTime::now()), 0);
        assert_eq!(sweep_stale_temps(dir.path(), almost), 0);
        assert!(stale.exists());
        assert_eq!(sweep_stale_temps(dir.path(), later), 1);
        assert!(!stale.exists());
    }
}
