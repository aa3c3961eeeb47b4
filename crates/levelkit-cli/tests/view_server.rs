//! `levelkit view` as a local server, over raw sockets: one slow client does not stall the
//! others, an over-long request head is refused early, a `Host` other than the loopback is
//! refused (DNS rebinding), and nothing outside the site folder is served, through symbolic
//! links included. Every wait is bounded, so a server that regresses fails instead of hanging.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A running `levelkit view --no-open`, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `levelkit view --no-open --site SITE FILES...` and read the URL it prints.
fn start(site: &Path, files: &[&Path]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_levelkit"))
        .arg("view")
        .arg("--no-open")
        .arg("--site")
        .arg(site)
        .args(files)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("levelkit view starts");
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = send.send(line);
    });
    let mut server = Server { child, port: 0 };
    let line = receive
        .recv_timeout(Duration::from_secs(20))
        .expect("levelkit view prints its URL");
    let url = line
        .trim()
        .strip_prefix("levelkit viewer: http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    server.port = url.split('/').next().unwrap().parse().unwrap();
    server
}

/// A site folder (`index.html`, a 4 MiB `big.wasm`) in `dir/site`, with `secret.txt` beside it.
fn make_site(dir: &Path) -> PathBuf {
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<title>levelkit</title>").unwrap();
    std::fs::write(site.join("big.wasm"), vec![7u8; 4 << 20]).unwrap();
    std::fs::write(dir.join("secret.txt"), "top secret").unwrap();
    site
}

/// Connect to the server with the given read timeout.
fn connect(port: u16, timeout: Duration) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(timeout)).unwrap();
    stream.set_write_timeout(Some(timeout)).unwrap();
    stream
}

/// Read an answer until the server closes (or a reset after it), failing after `timeout`.
fn read_answer(stream: &mut TcpStream, timeout: Duration) -> Vec<u8> {
    let deadline = Instant::now() + timeout;
    let mut answer = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(
            !left.is_zero(),
            "no full answer within {timeout:?} (got {} bytes)",
            answer.len()
        );
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => return answer,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!(
                    "no full answer within {timeout:?} (got {} bytes)",
                    answer.len()
                )
            }
            // A reset after the answer (the server closed with our input unread).
            Err(_) if !answer.is_empty() => return answer,
            Err(e) => panic!("reading the answer: {e}"),
        }
    }
}

/// Send `request` and return the answer's status and body, within `timeout`.
fn fetch(port: u16, request: &[u8], timeout: Duration) -> (u16, Vec<u8>) {
    let mut stream = connect(port, timeout);
    stream.write_all(request).unwrap();
    split(&read_answer(&mut stream, timeout))
}

/// An answer's status and body.
fn split(answer: &[u8]) -> (u16, Vec<u8>) {
    let text = String::from_utf8_lossy(answer);
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|t| t.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {:?}", &text[..text.len().min(80)]));
    let body = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| answer[i + 4..].to_vec())
        .unwrap_or_default();
    (status, body)
}

/// `GET target` with the given `Host` header.
fn get(port: u16, target: &str, host: &str) -> (u16, Vec<u8>) {
    let request = format!("GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    fetch(port, request.as_bytes(), Duration::from_secs(5))
}

#[test]
fn a_slow_client_does_not_stall_the_others() {
    let dir = common::tempdir();
    let server = start(&make_site(dir.path()), &[]);
    let port = server.port;

    // A client that dribbles its head a byte a second, below any per-read timeout.
    let stop = Arc::new(AtomicBool::new(false));
    let mut dribbler = connect(port, Duration::from_secs(30));
    dribbler.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let dribbling = {
        let (stop, mut stream) = (Arc::clone(&stop), dribbler.try_clone().unwrap());
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) && stream.write_all(b"X").is_ok() {
                thread::sleep(Duration::from_millis(500));
            }
        })
    };
    // A client that asks for 4 MiB and reads none of it.
    let mut idle_reader = connect(port, Duration::from_secs(30));
    idle_reader
        .write_all(b"GET /big.wasm HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    thread::sleep(Duration::from_millis(300));

    // Others are served at once, again and again.
    for _ in 0..3 {
        let started = Instant::now();
        let (status, body) = fetch(
            port,
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            Duration::from_secs(3),
        );
        assert_eq!(status, 200);
        assert_eq!(body, b"<title>levelkit</title>");
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    // The dribbler is cut off once its head's deadline (10 s from connecting) passes.
    let (status, _) = split(&read_answer(&mut dribbler, Duration::from_secs(20)));
    assert_eq!(status, 408);
    stop.store(true, Ordering::Relaxed);
    dribbling.join().unwrap();
    drop(idle_reader);
}

#[test]
fn an_over_long_request_head_is_refused_early() {
    let dir = common::tempdir();
    let server = start(&make_site(dir.path()), &[]);
    let port = server.port;

    // A request line that never ends: refused (414) long before the 64 MiB are sent.
    let mut stream = connect(port, Duration::from_secs(10));
    let mut writer = stream.try_clone().unwrap();
    let sending = thread::spawn(move || {
        let chunk = vec![b'a'; 1 << 20];
        let mut sent = 0usize;
        if writer.write_all(b"GET /").is_ok() {
            while sent < 64 << 20 && writer.write_all(&chunk).is_ok() {
                sent += chunk.len();
            }
        }
        sent
    });
    let (status, _) = split(&read_answer(&mut stream, Duration::from_secs(10)));
    assert_eq!(status, 414);
    drop(stream);
    let sent = sending.join().unwrap();
    assert!(sent < 16 << 20, "the server read {} MiB", sent >> 20);

    // A header too long: 431.
    let mut request = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ".to_vec();
    request.extend(std::iter::repeat_n(b'b', 100 << 10));
    request.extend_from_slice(b"\r\n\r\n");
    let (status, _) = fetch(port, &request, Duration::from_secs(5));
    assert_eq!(status, 431);

    // The server still answers.
    assert_eq!(get(port, "/", "localhost").0, 200);
}

#[test]
fn only_loopback_host_names_are_served() {
    let dir = common::tempdir();
    let server = start(&make_site(dir.path()), &[]);
    let port = server.port;
    for host in [
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{port}"),
        "localhost".to_string(),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(
            get(port, "/", &host),
            (200, b"<title>levelkit</title>".to_vec()),
            "{host}"
        );
    }
    for host in [
        "evil.example.com".to_string(),
        format!("evil.example.com:{port}"),
        format!("127.0.0.1.evil.example.com:{port}"),
        "192.168.1.20".to_string(),
    ] {
        let (status, body) = get(port, "/", &host);
        assert_eq!(status, 403, "{host}");
        assert!(!String::from_utf8_lossy(&body).contains("levelkit"));
    }
    // HTTP/1.1 needs a Host; an HTTP/1.0 request without one is served.
    let (status, _) = fetch(port, b"GET / HTTP/1.1\r\n\r\n", Duration::from_secs(5));
    assert_eq!(status, 400);
    let (status, _) = fetch(port, b"GET / HTTP/1.0\r\n\r\n", Duration::from_secs(5));
    assert_eq!(status, 200);
}

#[cfg(unix)]
#[test]
fn nothing_outside_the_site_is_served() {
    use std::os::unix::fs::symlink;
    let dir = common::tempdir();
    let site = make_site(dir.path());
    symlink(dir.path().join("secret.txt"), site.join("leak.txt")).unwrap();
    symlink(dir.path(), site.join("up")).unwrap();
    symlink(site.join("index.html"), site.join("home.html")).unwrap();
    let named = dir.path().join("level.nw");
    std::fs::write(&named, "GLEVNW01").unwrap();
    let server = start(&site, &[&named]);
    let port = server.port;

    for target in [
        "/leak.txt",
        "/up/secret.txt",
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/up/site/../secret.txt",
        "/files/../secret.txt",
        "/files/secret.txt",
    ] {
        let (status, body) = get(port, target, "localhost");
        assert_eq!(status, 404, "{target}");
        assert!(
            !String::from_utf8_lossy(&body).contains("secret"),
            "{target}"
        );
    }
    // Links that stay inside the site are followed; the file named on the command line is
    // served at /files/<name>.
    assert_eq!(get(port, "/home.html", "localhost").0, 200);
    assert_eq!(get(port, "/up/site/index.html", "localhost").0, 200);
    assert_eq!(
        get(port, "/files/level.nw", "localhost"),
        (200, b"GLEVNW01".to_vec())
    );
}
