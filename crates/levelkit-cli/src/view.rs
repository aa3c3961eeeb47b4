//! `levelkit view [FILE...]`: the browser viewer (`web/`, built into a site folder by
//! `web/build.sh`) served on 127.0.0.1 by a small static server, with the named files at
//! `/files/<name>` and the page's URL asking it to open them (`?open=<name>`). The page runs the
//! library as WebAssembly; this server only hands out files. It serves until interrupted.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read as _, Write as _};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};

use crate::cli::ViewArgs;
use crate::{EXIT_OK, usage};

/// The site folder: `--site`, `$LEVELKIT_SITE`, or `site/` beside the binary's folder.
fn site_dir(args: &ViewArgs) -> anyhow::Result<PathBuf> {
    let dir = match (&args.site, std::env::var_os("LEVELKIT_SITE")) {
        (Some(dir), _) => dir.clone(),
        (None, Some(dir)) => PathBuf::from(dir),
        (None, None) => {
            let exe = std::env::current_exe().context("cannot find the levelkit binary")?;
            exe.parent()
                .and_then(Path::parent)
                .map(|p| p.join("site"))
                .unwrap_or_else(|| PathBuf::from("site"))
        }
    };
    if !dir.join("index.html").is_file() {
        bail!(
            "{}: no built viewer here (build it with web/build.sh, or name it with --site)",
            dir.display()
        );
    }
    Ok(dir)
}

/// The content type of a file by its extension (module scripts and WebAssembly need theirs).
fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

/// A percent-encoded URL path component decoded (invalid escapes are kept as written).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A URL-safe form of a file name for the page's `?open=` parameter.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The longest request head (request line and headers) read; a longer one is refused (414 or
/// 431) without reading the rest. Browsers' heads are a few hundred bytes, plus any cookies
/// other local servers set for `localhost`.
const MAX_HEAD: usize = 32 * 1024;
/// How long a client has, from connecting, to send its whole request head: a client that
/// dribbles it a byte at a time is cut off (408) instead of holding its connection forever.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// How long one write may block: a client that stops reading its answer is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// The time a whole answer may take: this, plus a second per MiB of the file.
const BODY_DEADLINE: Duration = Duration::from_secs(60);
/// Connections answered at once, each on its own thread; more wait in the listen queue until
/// one ends (every connection ends within the deadlines above).
const MAX_CONNECTIONS: usize = 256;
/// After an answer, the most of a request's unread rest (a body, an over-long head) read and
/// dropped before closing, and how long that may take: closing a socket with unread input
/// resets the connection, which can discard the answer before the client reads it.
const DRAIN_BYTES: usize = 1 << 20;
const DRAIN_TIME: Duration = Duration::from_millis(500);

/// What the server hands out: the site folder and the files named on the command line, all
/// as canonical paths (symbolic links resolved once, at start).
struct Site {
    root: PathBuf,
    files: BTreeMap<String, PathBuf>,
}

impl Site {
    /// The file a request target names: `/files/<name>` for a named file, else a file inside
    /// the site folder (a folder answers with its `index.html`). Nothing outside the site is
    /// served: no `..`, and a symbolic link inside the site that leads out of it is refused.
    fn resolve(&self, target: &str) -> Option<PathBuf> {
        let path = percent_decode(target.split(['?', '#']).next().unwrap_or(""));
        if let Some(name) = path.strip_prefix("/files/") {
            return self.files.get(name).cloned();
        }
        let rel = Path::new(path.strip_prefix('/')?);
        if rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return None;
        }
        let mut full = self.root.join(rel);
        if full.is_dir() {
            full.push("index.html");
        }
        let real = full.canonicalize().ok()?;
        (real.starts_with(&self.root) && real.is_file()).then_some(real)
    }
}

/// Whether a `Host` header names this machine's loopback address as a browser would write it:
/// `127.0.0.1`, `localhost` or `[::1]`, each with or without a port. Any other name is refused,
/// so that a web page whose DNS name is re-pointed at 127.0.0.1 (DNS rebinding) cannot read
/// what the viewer serves.
fn host_allowed(host: &str) -> bool {
    let port_ok = |port: &str| {
        !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit())
    };
    if let Some(rest) = host.strip_prefix('[') {
        return match rest.split_once(']') {
            Some(("::1", "")) => true,
            Some(("::1", after)) => after.strip_prefix(':').is_some_and(port_ok),
            _ => false,
        };
    }
    let name = match host.split_once(':') {
        Some((name, port)) if port_ok(port) => name,
        Some(_) => return false,
        None => host,
    };
    name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost")
}

/// A request's head, parsed: only what the server looks at.
#[derive(Debug, PartialEq)]
struct Request<'a> {
    method: &'a str,
    target: &'a str,
    host: Option<&'a str>,
}

/// Parse a request head (the request line and the headers, up to the empty line), or the
/// status refusing it: 400 for a malformed head, 505 for a version other than HTTP/1.x.
fn parse_head(head: &[u8]) -> Result<Request<'_>, u16> {
    let text = std::str::from_utf8(head).map_err(|_| 400u16)?;
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut parts = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(400);
    };
    if method.is_empty() || !target.starts_with('/') || target.bytes().any(|b| b.is_ascii_control())
    {
        return Err(400);
    }
    if version != "HTTP/1.0" && version != "HTTP/1.1" {
        return Err(if version.starts_with("HTTP/") {
            505
        } else {
            400
        });
    }
    let mut host = None;
    for line in lines.take_while(|l| !l.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(400);
        };
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(400);
        }
        if name.eq_ignore_ascii_case("host") {
            if host.is_some() {
                return Err(400);
            }
            host = Some(value.trim_matches([' ', '\t']));
        }
    }
    // HTTP/1.1 requires a Host header; an HTTP/1.0 client (never a browser) may leave it out.
    if version == "HTTP/1.1" && host.is_none() {
        return Err(400);
    }
    Ok(Request {
        method,
        target,
        host,
    })
}

/// Where the head in `buf` ends (just past its empty line), looking from `from` on.
fn head_end(buf: &[u8], from: usize) -> Option<usize> {
    let start = from.saturating_sub(2);
    let tail = buf.get(start..)?;
    tail.windows(2).enumerate().find_map(|(i, w)| match w {
        [b'\n', b'\n'] => Some(start + i + 2),
        [b'\n', b'\r'] if tail.get(i + 2) == Some(&b'\n') => Some(start + i + 3),
        _ => None,
    })
}

/// How reading a request head failed.
#[derive(Debug)]
enum Refused {
    /// Answer with this status, then close.
    Status(u16),
    /// Close without an answer (the client went away).
    Silently,
}

/// Read a request head of at most [`MAX_HEAD`] bytes by `deadline`: the memory is bounded
/// whatever the client sends, and an over-long head is refused as soon as the limit is hit.
fn read_head(stream: &mut TcpStream, deadline: Instant) -> Result<Vec<u8>, Refused> {
    let mut buf = vec![0u8; MAX_HEAD];
    let mut len = 0;
    loop {
        let Some(room) = buf.get_mut(len..).filter(|r| !r.is_empty()) else {
            // Full, with no end in sight: a request line that never ends, or too many headers.
            let line_ended = buf.contains(&b'\n');
            return Err(Refused::Status(if line_ended { 431 } else { 414 }));
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return Err(Refused::Status(408));
        }
        match stream.read(room) {
            Ok(0) => return Err(Refused::Silently),
            Ok(n) => {
                let from = len;
                len += n;
                if let Some(end) = buf.get(..len).and_then(|b| head_end(b, from)) {
                    buf.truncate(end);
                    return Ok(buf);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return Err(Refused::Status(408));
            }
            Err(_) => return Err(Refused::Silently),
        }
    }
}

/// The reason phrase of the statuses the server answers with.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

/// Write a refusal: the status and its reason as a short text body.
fn write_status(stream: &mut TcpStream, status: u16, head_only: bool) -> io::Result<()> {
    let text = reason(status);
    let allow = if status == 405 {
        "Allow: GET, HEAD\r\n"
    } else {
        ""
    };
    let head = format!(
        "HTTP/1.1 {status} {text}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\n{allow}Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        text.len() + 1
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(text.as_bytes())?;
        stream.write_all(b"\n")?;
    }
    stream.flush()
}

/// Write a file: the head, then (unless `head_only`) its bytes, streamed in pieces so that a
/// large named file is never held in memory whole.
fn write_file(
    stream: &mut TcpStream,
    path: &Path,
    mut file: File,
    head_only: bool,
) -> io::Result<()> {
    let len = file.metadata()?.len();
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {len}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        content_type(path),
    );
    stream.write_all(head.as_bytes())?;
    if head_only {
        return stream.flush();
    }
    let deadline = Instant::now() + BODY_DEADLINE + Duration::from_secs(len >> 20);
    let mut buf = vec![0u8; 64 * 1024];
    let mut left = len;
    while left > 0 {
        if Instant::now() > deadline {
            return Err(io::ErrorKind::TimedOut.into());
        }
        let want = usize::try_from(left).unwrap_or(usize::MAX).min(buf.len());
        let piece = buf.get_mut(..want).unwrap_or_default();
        let n = file.read(piece)?;
        if n == 0 {
            // The file shrank while being sent: the client sees a short body.
            break;
        }
        stream.write_all(piece.get(..n).unwrap_or_default())?;
        left = left.saturating_sub(n as u64);
    }
    stream.flush()
}

/// Close a connection after its answer: stop writing, then read and drop what the client may
/// still be sending (bounded in bytes and time), so that the answer is not lost to a reset.
fn linger_close(stream: &mut TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + DRAIN_TIME;
    let mut buf = [0u8; 16 * 1024];
    let mut drained = 0;
    while drained < DRAIN_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => drained += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

/// Answer one connection: one request, then the connection is closed.
fn answer(mut stream: TcpStream, site: &Site) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let head = match read_head(&mut stream, Instant::now() + HEAD_DEADLINE) {
        Ok(head) => head,
        Err(Refused::Status(status)) => {
            let _ = write_status(&mut stream, status, false);
            linger_close(&mut stream);
            return;
        }
        Err(Refused::Silently) => return,
    };
    let written = match parse_head(&head) {
        Err(status) => write_status(&mut stream, status, false),
        Ok(request) => {
            let head_only = request.method == "HEAD";
            if !request.host.is_none_or(host_allowed) {
                write_status(&mut stream, 403, head_only)
            } else if request.method != "GET" && !head_only {
                write_status(&mut stream, 405, false)
            } else {
                match site
                    .resolve(request.target)
                    .and_then(|path| File::open(&path).ok().map(|file| (path, file)))
                {
                    Some((path, file)) => write_file(&mut stream, &path, file, head_only),
                    None => write_status(&mut stream, 404, head_only),
                }
            }
        }
    };
    if written.is_ok() {
        linger_close(&mut stream);
    }
}

/// Counts the connections being answered, so that at most [`MAX_CONNECTIONS`] run at once.
#[derive(Default)]
struct Slots {
    used: Mutex<usize>,
    freed: Condvar,
}

/// One connection's place among the [`Slots`], given back when dropped.
struct Slot(Arc<Slots>);

impl Slots {
    /// Wait for a free place, and take it.
    fn take(self: &Arc<Self>) -> Slot {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        while *used >= MAX_CONNECTIONS {
            used = self
                .freed
                .wait(used)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *used += 1;
        Slot(Arc::clone(self))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut used = self.0.used.lock().unwrap_or_else(PoisonError::into_inner);
        *used = used.saturating_sub(1);
        self.0.freed.notify_one();
    }
}

/// Answer connections until the process is stopped, each on its own thread.
fn serve(listener: &TcpListener, site: &Arc<Site>) {
    let slots = Arc::new(Slots::default());
    loop {
        let slot = slots.take();
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted.
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        let site = Arc::clone(site);
        // A thread that cannot start drops its connection and slot.
        let _ = std::thread::Builder::new()
            .name("levelkit-view".into())
            .stack_size(256 * 1024)
            .spawn(move || {
                let _slot = slot;
                answer(stream, &site);
            });
    }
}

/// Open `url` in the desktop's browser; a failure only leaves the URL printed.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    // The opener's own chatter (xdg-open lists every browser it did not find on a machine with
    // none) stays out of the terminal; one line says when no browser was opened.
    let child = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match child {
        Ok(mut child) => {
            let url = url.to_owned();
            std::thread::spawn(move || {
                if child.wait().is_ok_and(|status| !status.success()) {
                    crate::report(format_args!(
                        "no browser opened ({opener} found none); open {url} yourself"
                    ));
                }
            });
        }
        Err(_) => crate::report(format_args!(
            "could not start {opener}; open {url} yourself"
        )),
    }
}

pub fn run(args: &ViewArgs) -> anyhow::Result<u8> {
    let site = site_dir(args)?;
    let mut files = BTreeMap::new();
    for path in &args.files {
        if !path.is_file() {
            return Err(usage(format!("{}: not a file", path.display())));
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let real = path
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", path.display()))?;
        files.insert(name, real);
    }
    let root = site
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", site.display()))?;
    let site = Arc::new(Site { root, files });
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", args.port))?;
    let port = listener.local_addr()?.port();
    let query: Vec<String> = site
        .files
        .keys()
        .map(|n| format!("open={}", percent_encode(n)))
        .collect();
    let url = if query.is_empty() {
        format!("http://127.0.0.1:{port}/")
    } else {
        format!("http://127.0.0.1:{port}/?{}", query.join("&"))
    };
    println!("levelkit viewer: {url}");
    let _ = std::io::stdout().flush();
    if !args.no_open {
        open_browser(&url);
    }
    serve(&listener, &site);
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A site folder (`index.html`, `pkg/app.js`), a secret beside it, and a named file.
    fn site() -> (tempfile::TempDir, Site) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        std::fs::create_dir_all(root.join("pkg")).unwrap();
        std::fs::write(root.join("index.html"), "<p>").unwrap();
        std::fs::write(root.join("pkg/app.js"), "1").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        std::fs::write(dir.path().join("level.nw"), "GLEVNW01").unwrap();
        let files = BTreeMap::from([(
            "level.nw".to_string(),
            dir.path().join("level.nw").canonicalize().unwrap(),
        )]);
        let root = root.canonicalize().unwrap();
        (dir, Site { root, files })
    }

    #[test]
    fn paths_outside_the_site_are_refused() {
        let (_dir, site) = site();
        assert_eq!(site.resolve("/"), Some(site.root.join("index.html")));
        assert_eq!(
            site.resolve("/pkg/app.js?v=1"),
            Some(site.root.join("pkg/app.js"))
        );
        assert_eq!(
            site.resolve("/pkg/./app.js"),
            Some(site.root.join("pkg/app.js"))
        );
        assert!(site.resolve("/files/level.nw").is_some());
        for target in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/pkg/../../secret.txt",
            "/pkg%2f..%2f..%2fsecret.txt",
            "/files/nothing.wwd",
            "/files/../secret.txt",
            "/files/",
            "secret.txt",
            "/nothing.html",
        ] {
            assert_eq!(site.resolve(target), None, "{target}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_out_of_the_site_are_refused() {
        let (dir, site) = site();
        let outside = dir.path().join("secret.txt");
        std::os::unix::fs::symlink(&outside, site.root.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(dir.path(), site.root.join("up")).unwrap();
        std::os::unix::fs::symlink(site.root.join("pkg/app.js"), site.root.join("app.js")).unwrap();
        assert_eq!(site.resolve("/leak.txt"), None);
        assert_eq!(site.resolve("/up/secret.txt"), None);
        assert_eq!(
            site.resolve("/up/site/index.html"),
            Some(site.root.join("index.html"))
        );
        // A link that stays inside the site is followed.
        assert_eq!(site.resolve("/app.js"), Some(site.root.join("pkg/app.js")));
    }

    #[test]
    fn only_loopback_hosts_are_accepted() {
        for host in [
            "127.0.0.1",
            "127.0.0.1:8080",
            "localhost",
            "LocalHost:1",
            "[::1]",
            "[::1]:65535",
        ] {
            assert!(host_allowed(host), "{host}");
        }
        for host in [
            "",
            "evil.example.com",
            "evil.example.com:8080",
            "127.0.0.1.evil.example.com",
            "localhost.",
            "localhost:",
            "localhost:80:80",
            "localhost:8o",
            "127.0.0.2",
            "0.0.0.0",
            "[::1",
            "[::1]x",
            "[::2]:80",
            "[::1]:",
        ] {
            assert!(!host_allowed(host), "{host}");
        }
    }

    #[test]
    fn request_heads_are_parsed_strictly() {
        let ok = parse_head(b"GET /a?b HTTP/1.1\r\nAccept: */*\r\nhost: localhost:1\r\n\r\n");
        assert_eq!(
            ok,
            Ok(Request {
                method: "GET",
                target: "/a?b",
                host: Some("localhost:1")
            })
        );
        assert_eq!(parse_head(b"GET / HTTP/1.0\n\n").map(|r| r.host), Ok(None));
        for (head, status) in [
            (&b"GET / HTTP/1.1\r\n\r\n"[..], 400),
            (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            (b"GET /index.html\r\n\r\n", 400),
            (b"\r\n\r\n", 400),
            (b"GET http://127.0.0.1/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            (b"GET /\x00/a HTTP/1.0\r\n\r\n", 400),
            (b"GET /\xff HTTP/1.0\r\n\r\n", 400),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (b"GET / HTTP/1.0\r\nBad header\r\n\r\n", 400),
            (b"GET / HTTP/1.0\r\n folded\r\n\r\n", 400),
        ] {
            assert_eq!(parse_head(head), Err(status), "{}", head.escape_ascii());
        }
    }

    #[test]
    fn heads_end_at_the_empty_line() {
        let head = b"GET / HTTP/1.0\r\nA: b\r\n\r\nbody";
        assert_eq!(head_end(head, 0), Some(head.len() - 4));
        assert_eq!(head_end(b"GET / HTTP/1.0\n\nbody", 0), Some(16));
        assert_eq!(head_end(b"GET / HTTP/1.0\r\nA: b\r\n", 0), None);
        // Found when the empty line straddles two reads.
        assert_eq!(head_end(head, 22), Some(head.len() - 4));
    }

    #[test]
    fn names_round_trip_through_the_url() {
        let name = "room $$M file.wmp";
        assert_eq!(percent_decode(&percent_encode(name)), name);
    }
}
