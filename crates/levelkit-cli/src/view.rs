//! `levelkit view [FILE...]`: the browser viewer (`web/`, built into a site folder by
//! `web/build.sh`) served on 127.0.0.1 by a small static server, with the named files at
//! `/files/<name>` and the page's URL asking it to open them (`?open=<name>`). The page runs the
//! library as WebAssembly; this server only hands out files. It serves until interrupted.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

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

/// What a request path answers with: a file of the site (no `..`), or a named file.
fn resolve(site: &Path, files: &BTreeMap<String, PathBuf>, url_path: &str) -> Option<PathBuf> {
    let path = percent_decode(url_path.split(['?', '#']).next().unwrap_or(""));
    if let Some(name) = path.strip_prefix("/files/") {
        return files.get(name).cloned();
    }
    let rel = Path::new(path.trim_start_matches('/'));
    if rel
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return None;
    }
    let full = site.join(rel);
    let full = if full.is_dir() {
        full.join("index.html")
    } else {
        full
    };
    full.is_file().then_some(full)
}

/// Answer one connection (one request; the connection is closed after it).
fn answer(mut stream: TcpStream, site: &Path, files: &BTreeMap<String, PathBuf>) {
    // A client that sends nothing does not hold the (one-at-a-time) server up.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // Skip the headers.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let mut parts = request.split_whitespace();
    let (method, url) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let found = (method == "GET" || method == "HEAD")
        .then(|| resolve(site, files, url))
        .flatten()
        .and_then(|p| std::fs::read(&p).ok().map(|b| (p, b)));
    let _ = match found {
        Some((path, body)) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
                 Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                content_type(&path),
                body.len()
            );
            stream
                .write_all(head.as_bytes())
                .and_then(|()| {
                    if method == "GET" {
                        stream.write_all(&body)
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| stream.flush())
        }
        None => stream.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found",
        ),
    };
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
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        crate::report(format_args!(
            "could not start {opener}; open {url} yourself"
        ));
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
        files.insert(name, path.clone());
    }
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", args.port))?;
    let port = listener.local_addr()?.port();
    let query: Vec<String> = files
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
    for stream in listener.incoming().flatten() {
        answer(stream, &site, &files);
    }
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_site_are_refused() {
        let site = Path::new(".");
        let files = BTreeMap::new();
        assert_eq!(resolve(site, &files, "/../Cargo.toml"), None);
        assert_eq!(resolve(site, &files, "/%2e%2e/Cargo.toml"), None);
        assert_eq!(resolve(site, &files, "/files/nothing.wwd"), None);
        assert!(resolve(site, &files, "/Cargo.toml").is_some());
    }

    #[test]
    fn names_round_trip_through_the_url() {
        let name = "room $$M file.wmp";
        assert_eq!(percent_decode(&percent_encode(name)), name);
    }
}
