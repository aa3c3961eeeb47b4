//! The harness every CLI test binary shares (`mod common;`): running the `levelkit` binary as a
//! user would and capturing what it gave, the bundled samples and golden outputs, temporary
//! folders, the real-file corpus (`LEVELKIT_CORPUS`), and small readers of what the CLI writes.

// Each test binary uses its own subset.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

/// Counting the corpus tests that did not run (shared with the library's tests).
#[path = "../../../levelkit/tests/it/common/skip.rs"]
pub mod skip;

use std::ffi::OsStr;
use std::fs;
use std::io::{Cursor, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use image::AnimationDecoder;
use serde_json::Value;

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    /// Standard output as text (it must be UTF-8).
    pub fn out(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }

    /// Standard output as one JSON value per line.
    pub fn json_lines(&self) -> Vec<Value> {
        self.out()
            .lines()
            .map(|line| serde_json::from_str(line).expect("each line is JSON"))
            .collect()
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            String::from_utf8_lossy(&self.stdout),
            self.stderr
        )
    }
}

/// Run `levelkit` in `dir` with `args`, feeding `stdin`.
pub fn levelkit_in<S: AsRef<OsStr>>(dir: &Path, args: &[S], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_levelkit"))
        .args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("levelkit starts");
    if let Some(input) = stdin {
        // A writer thread, so a large input cannot deadlock against a full stdout pipe.
        let mut pipe = child.stdin.take().unwrap();
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let output = child.wait_with_output().expect("levelkit runs");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Run `levelkit` in `dir` with `args` (no standard input).
pub fn levelkit<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Run {
    levelkit_in(dir, args, None)
}

/// Assert that `run` exited with 0, showing its output otherwise.
pub fn ok(run: &Run) {
    assert_eq!(run.code, 0, "{run:?}");
}

/// The repository's root folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The bundled samples (`samples/`), made by the library's sample builders.
pub fn samples() -> PathBuf {
    root().join("samples")
}

/// The golden outputs (`tests/golden/`).
pub fn golden() -> PathBuf {
    root().join("tests/golden")
}

/// Address space each hostile run may use, in KiB (`ulimit -v`): 2 GB.
pub const HOSTILE_MEMORY_KIB: u64 = 2_000_000;
/// Wall-clock time each hostile run may take, in seconds.
pub const HOSTILE_SECONDS: u64 = 5;

/// A file of `../shared/hostile`, or `None` (with a `SKIP:` line) when it is not there.
pub fn hostile(name: &str) -> Option<PathBuf> {
    let path = root().join("../shared/hostile").join(name);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("SKIP: {} is not there; not run", path.display());
        None
    }
}

/// Run `levelkit args` in `dir` under `ulimit -v` [`HOSTILE_MEMORY_KIB`], asserting that it
/// ends (not killed) within [`HOSTILE_SECONDS`]; `None` (with a `SKIP:` line) without `sh`.
pub fn bounded<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Option<Run> {
    if Command::new("sh").arg("-c").arg("true").status().is_err() {
        eprintln!("SKIP: no sh to set `ulimit -v`; not run");
        return None;
    }
    let started = std::time::Instant::now();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {HOSTILE_MEMORY_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_levelkit"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let took = started.elapsed();
    let run = Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    let args: Vec<&OsStr> = args.iter().map(AsRef::as_ref).collect();
    assert!(
        took < std::time::Duration::from_secs(HOSTILE_SECONDS),
        "levelkit {args:?} took {took:?}\n{run:?}"
    );
    Some(run)
}

/// A fresh temporary folder, removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The bundled samples of every format, copied into a temporary folder.
pub fn all_samples() -> tempfile::TempDir {
    let dir = tempdir();
    for entry in fs::read_dir(samples()).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// The real-file corpus (`$LEVELKIT_CORPUS`), or `None` when the variable is unset or empty,
/// printing `SKIP: LEVELKIT_CORPUS is not set; {what} not run`.
/// A relative path is taken from the workspace root (where `cargo test` is run; tests run in
/// their crate's folder).
pub fn corpus(what: &str) -> Option<PathBuf> {
    let var = std::env::var_os("LEVELKIT_CORPUS").filter(|v| !v.is_empty());
    if var.is_none() {
        eprintln!("SKIP: LEVELKIT_CORPUS is not set; {what} not run");
        skip::note_corpus_skip();
    }
    var.map(PathBuf::from)
        .map(|r| if r.is_relative() { root().join(r) } else { r })
}

/// Width and height from a PNG's IHDR chunk.
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// The frames of an animated GIF, decoded.
pub fn gif_frames(bytes: &[u8]) -> Vec<image::Frame> {
    image::codecs::gif::GifDecoder::new(Cursor::new(bytes))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
}

/// Each frame's delay in milliseconds.
pub fn delays_ms(frames: &[image::Frame]) -> Vec<u32> {
    frames
        .iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            n / d
        })
        .collect()
}

/// The frame delays of the animated GIF at `path`, in milliseconds.
pub fn gif_delays(path: &Path) -> Vec<u32> {
    delays_ms(&gif_frames(&fs::read(path).unwrap()))
}
/// A folder with `FIRE.ANI` (the claw-like sample: images 1..=6, 100/80/80/120/80/100 ms) and
/// `frames/` holding images 1..=5 as `FRAME00N.PNG` (image 6 missing) and a file to ignore.
pub fn ani_folder() -> tempfile::TempDir {
    let dir = tempdir();
    let bytes = levelkit::formats::ani::samples::claw_like()
        .write()
        .unwrap();
    fs::write(dir.path().join("FIRE.ANI"), bytes).unwrap();
    let frames = dir.path().join("frames");
    fs::create_dir(&frames).unwrap();
    for n in 1..=5u32 {
        let img = image::RgbaImage::from_fn(4 + n, 6, |x, _| {
            image::Rgba([(n * 40) as u8, (x * 20) as u8, 200, 255])
        });
        img.save(frames.join(format!("FRAME{n:03}.PNG"))).unwrap();
    }
    fs::write(frames.join("notes.txt"), "not a frame").unwrap();
    dir
}

/// A folder with `walk.gani` (the library's `walk_like` sample: 6 frames of 50, 100, 50, 50,
/// 100, 150 ms; LOOP) and, in `images/`, what [`gani_images`] writes.
pub fn gani_folder() -> tempfile::TempDir {
    let dir = tempdir();
    let bytes = levelkit::formats::graal::gani::samples::walk_like()
        .write()
        .unwrap();
    fs::write(dir.path().join("walk.gani"), bytes).unwrap();
    gani_images(&dir.path().join("images"));
    dir
}

/// The folder `images` with every image the `walk_like` gani names except `apple.png`, each a
/// solid colour.
pub fn gani_images(images: &Path) {
    fs::create_dir_all(images).unwrap();
    for (name, w, h, rgb) in [
        ("body.png", 128, 96, [200, 60, 40]),
        ("head0.png", 32, 128, [240, 200, 160]),
        ("sprites.png", 32, 16, [10, 10, 10]),
        ("shield1.png", 38, 20, [40, 40, 200]),
        ("hat0.png", 192, 48, [20, 160, 20]),
        ("dust.png", 16, 8, [180, 180, 180]),
    ] {
        let img = image::RgbaImage::from_pixel(w, h, image::Rgba([rgb[0], rgb[1], rgb[2], 255]));
        img.save(images.join(name)).unwrap();
    }
}

/// Every file under `dir`, relative to it, sorted.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// The SHA-256 digest of `bytes` in lower-case hex (as `sha256sum` prints it), for golden files
/// too large to keep in the repository. Written here because no SHA-256 crate is in the lockfile.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut message = bytes.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((bytes.len() as u64) * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for (k, wi) in K.iter().zip(w) {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(*k)
                .wrapping_add(wi);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (state, add) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *state = state.wrapping_add(add);
        }
    }
    h.iter().map(|v| format!("{v:08x}")).collect()
}
