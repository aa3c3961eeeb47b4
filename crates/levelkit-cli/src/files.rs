//! Files and streams: reading inputs (a path or `-` for stdin) under a size cap, reading models,
//! and writing outputs atomically (a temporary file beside the target, then a rename).

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

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
        File::open(path).and_then(|f| f.take(cap.saturating_add(1)).read_to_end(&mut bytes))
    };
    result.with_context(|| name.clone())?;
    if bytes.len() as u64 > cap {
        bail!("{name}: larger than {cap} bytes, the most levelkit reads from one input");
    }
    Ok(bytes)
}

/// Up to `len` first bytes of a file, for sniffing without reading all of it.
pub fn read_head(path: &Path, len: u64) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
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
pub fn load_bytes(bytes: &[u8], name: Option<&str>, dir: Option<&Path>) -> Loaded {
    let folder = dir.map(Folder::new);
    let model = Model::read_with(bytes, name, &Limits::default(), &mut |n: &str| {
        folder.as_ref()?.read(n).map(std::borrow::Cow::into_owned)
    });
    Loaded {
        file_format: levelkit::sniff(bytes, name),
        model,
    }
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
/// renamed over the target, so a reader never sees half a file and a failure leaves no debris.
/// Without `force` an existing target is refused, also when it appears between the check and
/// the rename (the final step then is a no-clobber rename).
pub fn write_output(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    write_output_with(path, bytes, force, true)
}

/// [`write_output`], flushing the file to the disk before the rename only with `sync`.
///
/// Batch mode writes without it: the rename alone already keeps readers from seeing half a
/// file, and one fsync per output was nearly all of a batch's time (2,900 Graal levels to `.nw`:
/// 24 s, of which 1.8 s CPU, on the ext4 disk this was measured on). What it gives up is
/// durability after a crash of the machine mid-batch (an output may then be empty); running the
/// batch again with `--force` rewrites it.
pub fn write_output_with(path: &Path, bytes: &[u8], force: bool, sync: bool) -> anyhow::Result<()> {
    let existing = fs::symlink_metadata(path).ok();
    if existing.is_some() && !force {
        bail!(refuse_message(path));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
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
            if sync {
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
