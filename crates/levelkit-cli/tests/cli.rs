//! The `levelkit` binary, run as a user would: on files made by the library's own sample
//! builders in a temporary directory, and, when `LEVELKIT_CORPUS` is set, on the real files
//! there (read in place, never copied).
//!
//! The golden outputs in `tests/golden/` (text, JSON, Tiled maps, glTF, PNG previews and
//! tilesets, GLB, GIF, APNG, sprite sheets) are checked by `samples_match_their_golden_outputs`
//! and `samples_match_their_golden_binaries`, and rewritten after an intended change by
//! `BLESS=1 cargo test -p levelkit-cli --test cli samples_match_their_golden`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Run, all_samples, levelkit, levelkit_in, png_size};

use levelkit::document::Model;
use levelkit::formats::wwd::{self, HeaderFlags, Wwd};
use serde_json::Value;

/// A temporary directory with `claw.wwd` (compressed, three planes, 120 objects) and
/// `gruntz.wwd` (uncompressed, two planes, 24 objects) written by the sample builders.
struct Samples {
    dir: tempfile::TempDir,
    claw: Vec<u8>,
    gruntz: Vec<u8>,
}

impl Samples {
    fn new() -> Samples {
        let dir = common::tempdir();
        let claw = wwd::samples::claw_like().write().unwrap();
        let gruntz = wwd::samples::gruntz_like().write().unwrap();
        fs::write(dir.path().join("claw.wwd"), &claw).unwrap();
        fs::write(dir.path().join("gruntz.wwd"), &gruntz).unwrap();
        Samples { dir, claw, gruntz }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path().join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(&path, bytes).unwrap();
        path
    }

    fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> Run {
        levelkit(self.path(), args)
    }
}

/// A WWD whose first dword (the header size) is wrong.
fn corrupted(bytes: &[u8]) -> Vec<u8> {
    let mut bad = bytes.to_vec();
    bad[..4].copy_from_slice(&0xADBA_u32.to_le_bytes());
    bad
}

fn patch_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn flags_of(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[8..12].try_into().unwrap())
}

// ---------------------------------------------------------------------------------------------
// info

#[test]
fn info_text_names_every_summary_field() {
    let s = Samples::new();
    let run = s.run(&["info", "claw.wwd", "gruntz.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = run.out();
    let (claw, gruntz) = out.split_once("\n\n").expect("a blank line between files");
    assert!(claw.starts_with("claw.wwd\n"), "{claw}");
    assert!(claw.contains("format       wwd, WWD 1524"), "{claw}");
    assert!(
        claw.contains("flags        0x00000003 (USE_Z_COORDS | COMPRESS)"),
        "{claw}"
    );
    assert!(claw.contains("planes       3\n"), "{claw}");
    assert!(claw.contains("objects      120\n"), "{claw}");
    assert!(claw.contains("compression  compressed\n"), "{claw}");
    let level = Wwd::read(&s.claw).unwrap();
    let sum = level.source.as_ref().unwrap().stored_checksum;
    assert!(
        claw.contains(&format!("checksum     ok (0x{sum:08X})")),
        "{claw}"
    );
    let tiles = level.summary().tiles;
    assert!(
        claw.contains(&format!("tiles        {tiles} non-empty cells")),
        "{claw}"
    );
    assert!(gruntz.starts_with("gruntz.wwd\n"), "{gruntz}");
    assert!(gruntz.contains("planes       2\n"), "{gruntz}");
    assert!(gruntz.contains("objects      24\n"), "{gruntz}");
    assert!(gruntz.contains("compression  uncompressed\n"), "{gruntz}");
    assert!(
        gruntz.contains("flags        0x00000001 (USE_Z_COORDS)"),
        "{gruntz}"
    );
    assert!(run.stderr.is_empty(), "{run:?}");
}

#[test]
fn info_json_is_one_record_per_line_with_the_summary() {
    let s = Samples::new();
    let run = s.run(&["info", "--json", "claw.wwd", "gruntz.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    let lines = run.json_lines();
    assert_eq!(lines.len(), 2, "{run:?}");
    for (record, (name, bytes)) in lines
        .iter()
        .zip([("claw.wwd", &s.claw), ("gruntz.wwd", &s.gruntz)])
    {
        assert_eq!(record["file"], name);
        assert_eq!(record["format"], "wwd");
        assert_eq!(record["version"], "WWD 1524");
        // Every field of the library's summary, with the same value.
        let summary = serde_json::to_value(Wwd::read(bytes).unwrap().summary()).unwrap();
        let fields = summary.as_object().unwrap();
        assert!(fields.len() >= 10);
        for (key, value) in fields {
            assert_eq!(&record[key], value, "{name}: field {key}");
        }
        assert_eq!(record["checksum"], "ok");
        assert_eq!(record["stored_checksum"], record["computed_checksum"]);
    }
    let claw = &lines[0];
    assert_eq!(claw["planes"].as_array().unwrap().len(), 3);
    assert_eq!(claw["objects"], 120);
    assert_eq!(claw["compression"], "compressed");
    assert_eq!(
        claw["flags"],
        serde_json::json!(["USE_Z_COORDS", "COMPRESS"])
    );
    let gruntz = &lines[1];
    assert_eq!(gruntz["planes"].as_array().unwrap().len(), 2);
    assert_eq!(gruntz["objects"], 24);
    assert_eq!(gruntz["compression"], "uncompressed");
    assert_eq!(gruntz["tile_properties"], serde_json::json!([14, 0, 0]));
}

#[test]
fn info_reports_a_checksum_mismatch_with_both_values() {
    let s = Samples::new();
    let mut bytes = s.gruntz.clone();
    let good = u32::from_le_bytes(bytes[0x2EC..0x2F0].try_into().unwrap());
    patch_u32(&mut bytes, 0x2EC, 0x1234_5678);
    s.write("resummed.wwd", &bytes);
    let run = s.run(&["info", "resummed.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.out().contains(&format!(
            "checksum     mismatch: stored 0x12345678, computed 0x{good:08X}"
        )),
        "{run:?}"
    );
    let run = s.run(&["info", "--json", "resummed.wwd"]);
    let record = &run.json_lines()[0];
    assert_eq!(record["checksum"], "mismatch");
    assert_eq!(record["stored_checksum"], 0x1234_5678);
    assert_eq!(record["computed_checksum"], good);
}

#[test]
fn info_on_an_unreadable_file_fails_but_reports_the_others() {
    let s = Samples::new();
    s.write("bad.wwd", &corrupted(&s.claw));
    let run = s.run(&["info", "--json", "bad.wwd", "missing.wwd", "gruntz.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines = run.json_lines();
    assert_eq!(lines.len(), 3, "{run:?}");
    assert_eq!(lines[0]["file"], "bad.wwd");
    assert_eq!(lines[0]["format"], "wwd");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("header-size field"),
        "{run:?}"
    );
    assert_eq!(lines[1]["file"], "missing.wwd");
    assert!(lines[1]["error"].is_string());
    assert_eq!(lines[2]["objects"], 24);
    assert!(
        run.stderr
            .contains("levelkit: bad.wwd: wwd: header-size field"),
        "{run:?}"
    );
    assert!(run.stderr.contains("levelkit: missing.wwd: "), "{run:?}");
}

// ---------------------------------------------------------------------------------------------
// validate

#[test]
fn validate_passes_valid_files() {
    let s = Samples::new();
    let run = s.run(&["validate", "claw.wwd", "gruntz.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.out(), "claw.wwd: ok\ngruntz.wwd: ok\n");
}

#[test]
fn validate_fails_a_corrupt_header_naming_the_field() {
    let s = Samples::new();
    s.write("bad.wwd", &corrupted(&s.claw));
    let run = s.run(&["validate", "bad.wwd", "gruntz.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    let out = run.out();
    assert!(
        out.contains("bad.wwd: error: wwd: header-size field"),
        "{out}"
    );
    assert!(out.contains("0xADBA"), "{out}");
    assert!(out.contains("bad.wwd: unreadable\n"), "{out}");
    assert!(out.contains("gruntz.wwd: ok\n"), "{out}");

    let run = s.run(&["validate", "--json", "bad.wwd", "gruntz.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines = run.json_lines();
    assert_eq!(lines[0]["file"], "bad.wwd");
    assert_eq!(lines[0]["ok"], false);
    assert_eq!(lines[0]["error"]["kind"], "malformed");
    assert_eq!(lines[0]["error"]["location"]["offset"], 0);
    assert_eq!(lines[0]["error"]["location"]["path"], "header.header_size");
    assert!(
        lines[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("header-size field")
    );
    assert_eq!(lines[1]["ok"], true);
    assert_eq!(lines[1]["error"], Value::Null);
    assert_eq!(lines[1]["findings"], serde_json::json!([]));
}

#[test]
fn validate_passes_warnings_and_fails_errors() {
    let s = Samples::new();
    // A wrong checksum is a warning: the games load the file anyway.
    let mut warned = s.gruntz.clone();
    patch_u32(&mut warned, 0x2EC, 0xDEAD_BEEF);
    s.write("warned.wwd", &warned);
    // A wrong decompressed size in a compressed file is an error: retail Gruntz refuses it.
    let mut broken = s.claw.clone();
    patch_u32(&mut broken, 0x2E8, 7);
    s.write("broken.wwd", &broken);

    let run = s.run(&["validate", "warned.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = run.out();
    assert!(
        out.contains("warned.wwd: warning: wwd: stored checksum 0xDEADBEEF differs"),
        "{out}"
    );
    assert!(out.contains("(at header.checksum)"), "{out}");
    assert!(out.ends_with("warned.wwd: ok (1 warning)\n"), "{out}");

    let run = s.run(&["validate", "warned.wwd", "broken.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    let out = run.out();
    assert!(
        out.contains("broken.wwd: error: wwd: decompressed-size field says 7 bytes"),
        "{out}"
    );
    assert!(
        out.contains("broken.wwd: invalid (1 error, 0 warnings)"),
        "{out}"
    );

    let run = s.run(&["validate", "--json", "broken.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    let report = &run.json_lines()[0];
    assert_eq!(report["ok"], false);
    assert_eq!(report["errors"], 1);
    assert_eq!(report["error"], Value::Null);
    let findings = report["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{report}");
    assert!(
        findings.iter().any(
            |f| f["severity"] == "error" && f["location"]["path"] == "header.decompressed_size"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// dump

#[test]
fn dump_text_shows_header_planes_objects_and_tile_properties() {
    let s = Samples::new();
    let run = s.run(&["dump", "claw.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = run.out();
    let level = wwd::samples::claw_like();
    let name = level.header.name.text.display();
    assert!(
        out.contains(&format!("  name          \"{name}\"\n")),
        "{out}"
    );
    assert!(out.contains("planes (3)\n"), "{out}");
    for plane in &level.planes {
        assert!(
            out.contains(&format!("\"{}\"", plane.name.text.display())),
            "{out}"
        );
    }
    let object_lines: Vec<&str> = out.lines().filter(|l| l.contains("] id ")).collect();
    assert_eq!(object_lines.len(), 120, "{out}");
    let main = level.main_plane().unwrap();
    let first = &main.objects[0];
    assert!(object_lines[0].contains(&first.logic.display()), "{out}");
    assert!(
        object_lines[0].contains(&format!("x {:>6}  y {:>6}", first.x, first.y)),
        "{}",
        object_lines[0]
    );
    let summary = level.summary();
    let (single, double, mask) = summary.tile_properties;
    assert!(double > 0 && mask > 0);
    assert!(
        out.contains(&format!(
            "tile properties ({} records: {single} single, {double} double, {mask} mask)",
            single + double + mask
        )),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains("] double ")).count(),
        double
    );
    assert_eq!(out.lines().filter(|l| l.contains("] mask ")).count(), mask);
}

#[test]
fn dump_json_is_the_lossless_document() {
    let s = Samples::new();
    let run = s.run(&["dump", "--json", "gruntz.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    let model = Model::from_json(&run.stdout).unwrap();
    assert_eq!(model, Model::Wwd(Wwd::read(&s.gruntz).unwrap()));
    let doc: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(doc["format"], "wwd");
}

#[test]
fn dump_of_a_corrupt_file_fails() {
    let s = Samples::new();
    s.write("bad.wwd", &corrupted(&s.gruntz));
    let run = s.run(&["dump", "bad.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .starts_with("levelkit: bad.wwd: wwd: header-size field"),
        "{run:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// convert, one file

#[test]
fn dump_json_converts_back_to_the_identical_wwd() {
    let s = Samples::new();
    for (name, original) in [("claw", &s.claw), ("gruntz", &s.gruntz)] {
        let dump = s.run(&["dump", "--json", &format!("{name}.wwd")]);
        assert_eq!(dump.code, 0, "{dump:?}");
        s.write(&format!("{name}.dump.json"), &dump.stdout);
        let run = s.run(&[
            "convert",
            &format!("{name}.dump.json"),
            &format!("{name}.back.wwd"),
        ]);
        assert_eq!(run.code, 0, "{run:?}");
        assert!(run.stdout.is_empty() && run.stderr.is_empty(), "{run:?}");
        assert!(
            s.read(&format!("{name}.back.wwd")) == **original,
            "{name}: not byte-identical"
        );

        // convert to .json writes the same document dump --json prints.
        let run = s.run(&["convert", &format!("{name}.wwd"), &format!("{name}.json")]);
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(s.read(&format!("{name}.json")), dump.stdout);
    }
}

#[test]
fn wwd_to_wwd_rewrites_byte_for_byte() {
    let s = Samples::new();
    let run = s.run(&["convert", "gruntz.wwd", "gruntz2.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("gruntz2.wwd") == s.gruntz);
    // Compressed: the same writer compresses the same image the same way.
    let run = s.run(&["convert", "claw.wwd", "claw2.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("claw2.wwd") == s.claw);
    // Inputs are untouched.
    assert!(s.read("claw.wwd") == s.claw && s.read("gruntz.wwd") == s.gruntz);
}

#[test]
fn compress_and_no_compress_flip_the_flag_and_keep_the_level() {
    let s = Samples::new();
    let run = s.run(&["convert", "--no-compress", "claw.wwd", "claw-plain.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    let plain = s.read("claw-plain.wwd");
    assert_eq!(flags_of(&s.claw) & 2, 2);
    assert_eq!(flags_of(&plain) & 2, 0);
    assert!(plain.len() > s.claw.len());
    let a = Wwd::read(&s.claw).unwrap();
    let b = Wwd::read(&plain).unwrap();
    assert_eq!(a.planes, b.planes);
    assert_eq!(a.tile_properties, b.tile_properties);
    assert_eq!(
        b.header.flags,
        a.header.flags.difference(HeaderFlags::COMPRESS)
    );

    let run = s.run(&["convert", "gruntz.wwd", "gruntz-z.wwd", "--compress"]);
    assert_eq!(run.code, 0, "{run:?}");
    let packed = s.read("gruntz-z.wwd");
    assert_eq!(flags_of(&s.gruntz) & 2, 0);
    assert_eq!(flags_of(&packed) & 2, 2);
    assert!(packed.len() < s.gruntz.len());
    let a = Wwd::read(&s.gruntz).unwrap();
    let b = Wwd::read(&packed).unwrap();
    assert_eq!(a.planes, b.planes);
    assert!(b.is_compressed());
    let info = s.run(&["info", "--json", "gruntz-z.wwd"]);
    assert_eq!(info.json_lines()[0]["compression"], "compressed");

    // And back: --no-compress on the compressed copy gives the original bytes.
    let run = s.run(&[
        "convert",
        "gruntz-z.wwd",
        "gruntz-again.wwd",
        "--no-compress",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("gruntz-again.wwd") == s.gruntz);
}

#[test]
fn an_existing_output_is_refused_without_force() {
    let s = Samples::new();
    s.write("taken.wwd", b"precious");
    let run = s.run(&["convert", "gruntz.wwd", "taken.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.starts_with("levelkit: "), "{run:?}");
    assert!(run.stderr.contains("taken.wwd"), "{run:?}");
    assert!(run.stderr.contains("--force"), "{run:?}");
    assert_eq!(s.read("taken.wwd"), b"precious");

    let run = s.run(&["convert", "--force", "gruntz.wwd", "taken.wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("taken.wwd") == s.gruntz);
    // No temporary files left behind.
    let leftovers: Vec<_> = fs::read_dir(s.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn the_input_is_never_the_output() {
    let s = Samples::new();
    let run = s.run(&[
        "convert",
        "--force",
        "--no-compress",
        "claw.wwd",
        "./claw.wwd",
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("never writes to its input"), "{run:?}");
    assert!(s.read("claw.wwd") == s.claw);
}

#[test]
fn a_bad_input_fails_with_exit_1_and_writes_nothing() {
    let s = Samples::new();
    s.write("bad.wwd", &corrupted(&s.claw));
    let run = s.run(&["convert", "bad.wwd", "out.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("header-size field"), "{run:?}");
    assert!(!s.path().join("out.json").exists());
    s.write("notes.json", br#"{"hello": "world"}"#);
    let run = s.run(&["convert", "notes.json", "out.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.contains("not a levelkit model document"),
        "{run:?}"
    );
    assert!(!s.path().join("out.wwd").exists());
}

#[test]
fn dash_reads_stdin_and_writes_stdout() {
    let s = Samples::new();
    let dump = s.run(&["dump", "--json", "claw.wwd"]);

    // WWD on stdin, sniffed from its bytes; JSON on stdout.
    let run = levelkit_in(
        s.path(),
        &["convert", "-", "-", "--to", "json"],
        Some(&s.claw),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, dump.stdout);

    // JSON on stdin, WWD on stdout.
    let run = levelkit_in(
        s.path(),
        &["convert", "-", "-", "--to", "wwd"],
        Some(&dump.stdout),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout == s.claw);

    // JSON on stdin to a file.
    let run = levelkit_in(
        s.path(),
        &["convert", "-", "from-stdin.wwd"],
        Some(&dump.stdout),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("from-stdin.wwd") == s.claw);

    // A file to stdout.
    let run = s.run(&["convert", "gruntz.wwd", "-", "--to", "wwd"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout == s.gruntz);

    // The reporting commands read stdin too.
    let run = levelkit_in(s.path(), &["info", "--json", "-"], Some(&s.gruntz));
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json_lines()[0]["file"], "<stdin>");
    assert_eq!(run.json_lines()[0]["objects"], 24);
    // Without a name, a header that lost its magic cannot even be recognised.
    let run = levelkit_in(s.path(), &["validate", "-"], Some(&corrupted(&s.gruntz)));
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.out().contains("<stdin>: error: "), "{run:?}");
    assert!(run.out().contains("cannot tell the format"), "{run:?}");
    assert!(run.out().ends_with("<stdin>: unreadable\n"), "{run:?}");
}

// ---------------------------------------------------------------------------------------------
// convert, batch

fn summary_line(run: &Run) -> &str {
    run.stderr
        .lines()
        .rfind(|l| l.starts_with("levelkit: converted "))
        .unwrap_or_else(|| panic!("no summary: {run:?}"))
}

#[test]
fn batch_converts_a_directory_and_reports_failures() {
    let s = Samples::new();
    s.write("in/good.wwd", &s.gruntz);
    s.write("in/bad.wwd", &corrupted(&s.claw));
    s.write("in/readme.txt", b"not a level");
    s.write("in/sub/claw.WWD", &s.claw);
    let run = s.run(&[
        "convert", "in", "--to", "json", "--out", "out", "--jobs", "2",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let summary = summary_line(&run);
    assert!(
        summary.contains("converted 2, failed 1, skipped 1;"),
        "{summary}"
    );
    assert!(summary.contains(" in, "), "{summary}");
    assert!(summary.ends_with(" s"), "{summary}");
    assert!(
        run.stderr.contains(&format!(
            "{}: wwd: header-size field",
            Path::new("in").join("bad.wwd").display()
        )),
        "{run:?}"
    );
    assert!(run.stdout.is_empty());

    let good = Model::from_json(&s.read("out/good.json")).unwrap();
    assert_eq!(good, Model::Wwd(Wwd::read(&s.gruntz).unwrap()));
    let claw = Model::from_json(&s.read("out/sub/claw.json")).unwrap();
    assert_eq!(claw.write().unwrap(), s.claw);
    assert!(!s.path().join("out/bad.json").exists());
    assert!(!s.path().join("out/readme.json").exists());

    // A second run refuses to overwrite, and --force allows it.
    let run = s.run(&["convert", "in", "--to", "json", "--out", "out"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        summary_line(&run).contains("converted 0, failed 3, skipped 1;"),
        "{run:?}"
    );
    assert!(run.stderr.contains("use --force"), "{run:?}");
    s.write("in/bad.wwd", &s.claw);
    let run = s.run(&["convert", "in", "--to", "json", "--out", "out", "--force"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        summary_line(&run).contains("converted 3, failed 0, skipped 1;"),
        "{run:?}"
    );
}

#[test]
fn batch_back_to_wwd_and_output_inside_the_input_is_not_walked() {
    let s = Samples::new();
    s.write("lv/a.wwd", &s.claw);
    s.write("lv/b.wwd", &s.gruntz);
    let run = s.run(&["convert", "lv", "--to", "json", "--out", "lv/json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(summary_line(&run).contains("converted 2, failed 0, skipped 0;"));
    // The documents convert back to the original bytes.
    let run = s.run(&["convert", "lv/json", "--to", "wwd", "--out", "rebuilt"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(summary_line(&run).contains("converted 2, failed 0, skipped 0;"));
    assert!(s.read("rebuilt/a.wwd") == s.claw);
    assert!(s.read("rebuilt/b.wwd") == s.gruntz);
    // A second json run over `lv` does not descend into its own output directory.
    let run = s.run(&[
        "convert", "lv", "--to", "json", "--out", "lv/json", "--force",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(summary_line(&run).contains("converted 2, failed 0, skipped 0;"));
}

#[test]
fn batch_reports_two_inputs_with_one_output_as_a_failure() {
    let s = Samples::new();
    s.write("a/level.wwd", &s.claw);
    s.write("b/level.wwd", &s.gruntz);
    let run = s.run(&[
        "convert",
        "a/level.wwd",
        "b/level.wwd",
        "--to",
        "json",
        "--out",
        "o",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        summary_line(&run).contains("converted 1, failed 1, skipped 0;"),
        "{run:?}"
    );
    assert!(run.stderr.contains("would also be written from"), "{run:?}");
    // The first input (in command-line order) wins.
    let written = Model::from_json(&s.read("o/level.json")).unwrap();
    assert_eq!(written.write().unwrap(), s.claw);
}

#[test]
fn batch_named_files_are_never_skipped() {
    let s = Samples::new();
    s.write("notes.txt", b"hello");
    let run = s.run(&[
        "convert",
        "notes.txt",
        "gruntz.wwd",
        "--to",
        "json",
        "--out",
        "o",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        summary_line(&run).contains("converted 1, failed 1, skipped 0;"),
        "{run:?}"
    );
    assert!(run.stderr.contains("cannot tell the format"), "{run:?}");
}

// ---------------------------------------------------------------------------------------------
// usage

#[test]
fn usage_errors_exit_2() {
    let s = Samples::new();
    let cases: &[&[&str]] = &[
        &[],
        &["frobnicate"],
        &["info"],
        &["info", "--bogus", "claw.wwd"],
        &["convert", "claw.wwd"],
        &["convert", "claw.wwd", "out.xyz"],
        &["convert", "claw.wwd", "out"],
        &["convert", "claw.wwd", "out.obj"],
        &["convert", "claw.wwd", "-"],
        &["convert", "claw.wwd", "out.wwd", "--to", "bogus"],
        &[
            "convert",
            "claw.wwd",
            "out.wwd",
            "--compress",
            "--no-compress",
        ],
        &["convert", "claw.wwd", "out.json", "--compress"],
        &[
            "convert",
            "claw.wwd",
            "gruntz.wwd",
            "more.wwd",
            "--to",
            "json",
        ],
        &["convert", "claw.wwd", "--out", "o"],
        &["convert", "-", "--to", "json", "--out", "o"],
        &[
            "convert", "claw.wwd", "--to", "json", "--out", "o", "--jobs", "0",
        ],
    ];
    for args in cases {
        let run = s.run(args);
        assert_eq!(run.code, 2, "levelkit {}: {run:?}", args.join(" "));
        assert!(!run.stderr.is_empty(), "{args:?}");
    }
    // A pair levelkit does not convert is a usage error that says which pairs it does.
    let run = s.run(&["convert", "claw.wwd", "out.wdb"]);
    assert!(run.stderr.contains("cannot convert wwd to wdb"), "{run:?}");
    assert!(!s.path().join("out.wdb").exists());
    assert!(!s.path().join("o").exists());
}

#[test]
fn help_is_everywhere_and_documents_exit_codes() {
    let s = Samples::new();
    for args in [
        vec!["--help"],
        vec!["info", "--help"],
        vec!["validate", "--help"],
        vec!["dump", "--help"],
        vec!["convert", "--help"],
        vec!["help", "convert"],
    ] {
        let run = s.run(&args);
        assert_eq!(run.code, 0, "{args:?}: {run:?}");
        let out = run.out();
        assert!(out.contains("Usage: levelkit"), "{out}");
        assert!(out.contains("Exit status:"), "{out}");
    }
    let run = s.run(&["convert", "--help"]);
    assert!(run.out().contains("--force"));
    assert!(run.out().contains("already exists"));
}

// ---------------------------------------------------------------------------------------------
// real files

/// A newcomer's `cargo test` without `LEVELKIT_CORPUS` says how many real-file tests it skipped
/// (one line per test binary, past the harness's capture), and a relative `LEVELKIT_CORPUS` is
/// taken from the workspace root. Runs this very test binary again, on one corpus test.
#[test]
fn corpus_tests_skipped_are_counted_and_a_relative_corpus_path_works() {
    let me = std::env::current_exe().unwrap();
    let test = "corpus_files_pass_info_and_validate_except_the_bad_signature";
    let unset = Command::new(&me)
        .args(["--exact", test])
        .env_remove("LEVELKIT_CORPUS")
        .output()
        .unwrap();
    assert!(unset.status.success());
    let err = String::from_utf8_lossy(&unset.stderr);
    assert!(
        err.contains("SKIP: 1 corpus test of cli not run: LEVELKIT_CORPUS is not set"),
        "{err}"
    );
    let Some(corpus) = common::corpus("the relative corpus path") else {
        return;
    };
    // The README's form: `LEVELKIT_CORPUS=../shared/corpus`, relative to the workspace root, from
    // a test that runs in its crate's folder.
    let relative = pathdiff(&corpus, &common::root());
    let set = Command::new(&me)
        .args(["--exact", test])
        .env("LEVELKIT_CORPUS", &relative)
        .current_dir(common::root().join("crates/levelkit-cli"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&set.stderr);
    assert!(set.status.success(), "{relative:?}: {err}");
    assert!(!err.contains("SKIP"), "{err}");
}

/// `path` relative to `base` (both absolute), through `..` where needed.
fn pathdiff(path: &Path, base: &Path) -> PathBuf {
    let path = fs::canonicalize(path).unwrap();
    let base = fs::canonicalize(base).unwrap();
    let common = path
        .components()
        .zip(base.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in base.components().skip(common) {
        out.push("..");
    }
    for part in path.components().skip(common) {
        out.push(part);
    }
    out
}

#[test]
fn corpus_files_pass_info_and_validate_except_the_bad_signature() {
    let Some(root) = common::corpus("the real WWD files") else {
        return;
    };
    let dir = root.join("wwd");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("LEVELKIT_CORPUS is set but {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let is_bad = |p: &Path| p.file_name().unwrap() == "RETAIL01_badsig.WWD";
    assert!(files.iter().any(|p| is_bad(p)), "no RETAIL01_badsig.WWD");

    let mut args = vec![OsStr::new("info"), OsStr::new("--json")];
    args.extend(files.iter().map(|p| p.as_os_str()));
    let run = levelkit(&dir, &args);
    assert_eq!(run.code, 1, "the bad signature fails info: {run:?}");
    let lines = run.json_lines();
    assert_eq!(lines.len(), files.len());
    for (path, record) in files.iter().zip(&lines) {
        assert_eq!(record["file"], path.display().to_string());
        assert_eq!(record["format"], "wwd");
        if is_bad(path) {
            assert!(
                record["error"]
                    .as_str()
                    .unwrap()
                    .contains("header-size field"),
                "{record}"
            );
        } else {
            assert_eq!(record["error"], Value::Null, "{record}");
            assert_eq!(record["version"], "WWD 1524");
            assert_eq!(record["checksum"], "ok", "{record}");
            assert!(!record["planes"].as_array().unwrap().is_empty());
        }
    }

    for path in &files {
        let run = levelkit(&dir, &[OsStr::new("validate"), path.as_os_str()]);
        if is_bad(path) {
            assert_eq!(run.code, 1, "{}: {run:?}", path.display());
            assert!(run.out().contains("header-size field"), "{run:?}");
        } else {
            assert_eq!(run.code, 0, "{}: {run:?}", path.display());
            assert!(run.out().ends_with(": ok\n"), "{run:?}");
        }
    }
}

#[test]
fn graal_nw_and_gani_info_validate_and_dump() {
    let dir = all_samples();
    let run = levelkit(
        dir.path(),
        &["info", "--json", "island.graal", "village.nw", "walk.gani"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let records = run.json_lines();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["format"], "graal");
    assert_eq!(records[0]["version"], "GR-V1.03");
    assert_eq!(records[0]["links"], 2);
    assert_eq!(records[0]["signs"], 2);
    assert_eq!(records[1]["format"], "nw");
    assert_eq!(records[1]["links"], 3);
    assert_eq!(records[2]["format"], "gani");
    assert_eq!(records[2]["frames"], 6);
    let run = levelkit(
        dir.path(),
        &["validate", "island.graal", "village.nw", "walk.gani"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["dump", "island.graal"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.out().contains("Welcome to the island!"), "{run:?}");
    // A broken header is an invalid input, named by format.
    std::fs::write(dir.path().join("bad.graal"), b"GR-V9.99 not a level").unwrap();
    let run = levelkit(dir.path(), &["validate", "bad.graal"]);
    assert_eq!(run.code, 1, "{run:?}");
}

#[test]
fn graal_converts_to_nw_and_back_through_the_cli() {
    let dir = all_samples();
    let run = levelkit(dir.path(), &["convert", "island.graal", "island.nw"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["convert", "island.nw", "again.graal"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        std::fs::read(dir.path().join("again.graal")).unwrap(),
        std::fs::read(dir.path().join("island.graal")).unwrap()
    );
    // village.nw has fractional NPC positions and a second layer: the binary level is written
    // (GR-V1.05), and every loss is a warning on stderr.
    let run = levelkit(dir.path(), &["convert", "village.nw", "village.graal"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("warning: graal:"), "{run:?}");
    // A gani cannot become a level.
    let run = levelkit(dir.path(), &["convert", "walk.gani", "walk.nw"]);
    assert_eq!(run.code, 2, "{run:?}");
}

/// `--graal-version`: the version of a binary level written from `.nw` (which has none) or
/// from another binary level; GR-V1.03 by default; refused for other outputs.
#[test]
fn graal_version_chooses_the_binary_version() {
    let dir = all_samples();
    let run = levelkit(dir.path(), &["convert", "island.graal", "island.nw"]);
    assert_eq!(run.code, 0, "{run:?}");
    let header = |name: &str| std::fs::read(dir.path().join(name)).unwrap()[..8].to_vec();
    let run = levelkit(dir.path(), &["convert", "island.nw", "default.graal"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(header("default.graal"), b"GR-V1.03");
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "--graal-version",
            "GR-V1.02",
            "island.nw",
            "v102.graal",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(header("v102.graal"), b"GR-V1.02");
    let run = levelkit(dir.path(), &["convert", "v102.graal", "v102.nw"]);
    assert_eq!(run.code, 0, "{run:?}");
    let links = |name: &str| {
        String::from_utf8_lossy(&std::fs::read(dir.path().join(name)).unwrap())
            .lines()
            .filter(|l| l.starts_with("LINK "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(links("v102.nw"), links("island.nw"));
    assert_eq!(links("island.nw").len(), 2);
    // Batch mode too, and a .graal rewritten in another version.
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "--graal-version",
            "GR-V1.02",
            "--to",
            "graal,json",
            "island.graal",
            "village.nw",
            "--out",
            "b",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(header("b/island.graal"), b"GR-V1.02");
    // Usage errors: an unknown version, and an output that is not a binary level.
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "--graal-version",
            "GR-V9.99",
            "island.nw",
            "x.graal",
        ],
    );
    assert_eq!(run.code, 2, "{run:?}");
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "--graal-version",
            "GR-V1.02",
            "island.graal",
            "x.nw",
        ],
    );
    assert_eq!(run.code, 2, "{run:?}");
}

/// `--mdl-version`: a model written as an MDL5 or an MDL7 (by default an MDL keeps its own
/// version, any other model becomes an MDL7), in one conversion and in a batch; refused for
/// outputs that are not MDL and for versions levelkit does not write.
#[test]
fn mdl_version_chooses_mdl5_or_mdl7() {
    let dir = all_samples();
    let magic = |name: &str| std::fs::read(dir.path().join(name)).unwrap()[..4].to_vec();
    for (args, out, want) in [
        (&[][..], "cube7.mdl", b"MDL7"),
        (&["--mdl-version", "5"][..], "cube5.mdl", b"MDL5"),
        (&["--mdl-version", "mdl7"][..], "cube7b.mdl", b"MDL7"),
    ] {
        let mut all = vec!["convert"];
        all.extend_from_slice(args);
        all.extend(["cube.wings", out]);
        let run = levelkit(dir.path(), &all);
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(magic(out), want, "{out}");
        let run = levelkit(dir.path(), &["validate", out]);
        assert_eq!(run.code, 0, "{run:?}");
    }
    // An MDL keeps its version unless asked: the MDL3 sample stays MDL3, or becomes MDL5.
    let run = levelkit(dir.path(), &["convert", "pyramid.mdl", "same.mdl"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(magic("same.mdl"), magic("pyramid.mdl"));
    let run = levelkit(
        dir.path(),
        &["convert", "--mdl-version", "5", "pyramid.mdl", "p5.mdl"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(magic("p5.mdl"), b"MDL5");
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "--mdl-version",
            "5",
            "--to",
            "mdl",
            "cube.wings",
            "pyramid.mdl",
            "--out",
            "b",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(magic("b/cube.mdl"), b"MDL5");
    assert_eq!(magic("b/pyramid.mdl"), b"MDL5");
    // Usage errors.
    for args in [
        &["convert", "--mdl-version", "6", "cube.wings", "x.mdl"][..],
        &["convert", "--mdl-version", "5", "cube.wings", "x.glb"][..],
        &[
            "convert",
            "--mdl-version",
            "5",
            "--to",
            "glb",
            "cube.wings",
            "--out",
            "c",
        ][..],
    ] {
        let run = levelkit(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
    }
}

#[test]
fn batch_converts_every_sample_to_json_and_back() {
    let dir = all_samples();
    let run = levelkit(
        dir.path(),
        &["convert", ".", "--to", "json", "--out", "json"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("converted 16, failed 0"), "{run:?}");
    for (stem, ext) in [
        ("overworld", "gmap"),
        ("overworld_0_0", "nw"),
        ("pyramid", "mdl"),
        ("quad", "wmb"),
        ("island", "graal"),
        ("village", "nw"),
        ("walk", "gani"),
        ("claw-like", "wwd"),
        ("gruntz-like", "wwd"),
        ("cube", "wings"),
        ("room", "wmp"),
        ("world", "wdb"),
        ("claw", "rez"),
    ] {
        let back = format!("back-{stem}.{ext}");
        let run = levelkit(
            dir.path(),
            &["convert", &format!("json/{stem}.json"), &back],
        );
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(
            std::fs::read(dir.path().join(&back)).unwrap(),
            std::fs::read(dir.path().join(format!("{stem}.{ext}"))).unwrap(),
            "{stem}"
        );
    }
}

#[test]
fn levels_become_tiled_maps_with_tileset_images_and_previews() {
    let dir = all_samples();
    let run = levelkit(dir.path(), &["convert", "gruntz-like.wwd", "gruntz.tmx"]);
    assert_eq!(run.code, 0, "{run:?}");
    let tmx = std::fs::read_to_string(dir.path().join("gruntz.tmx")).unwrap();
    assert!(tmx.contains("<map "), "{tmx}");
    assert!(tmx.contains("source=\"gruntz.tileset0.png\""), "{tmx}");
    for index in 0..2 {
        let png = std::fs::read(dir.path().join(format!("gruntz.tileset{index}.png"))).unwrap();
        assert!(png_size(&png).0 > 0);
    }
    let run = levelkit(dir.path(), &["convert", "island.graal", "island.tmj"]);
    assert_eq!(run.code, 0, "{run:?}");
    let tmj: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("island.tmj")).unwrap()).unwrap();
    assert_eq!(tmj["width"], 64);
    assert_eq!(tmj["tilewidth"], 16);
    // Previews: the full size when it fits.
    let run = levelkit(dir.path(), &["render", "gruntz-like.wwd", "gruntz.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    let png = std::fs::read(dir.path().join("gruntz.png")).unwrap();
    assert_eq!(png_size(&png), (40 * 32, 30 * 32));
    let run = levelkit(dir.path(), &["render", "village.nw", "village.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        png_size(&std::fs::read(dir.path().join("village.png")).unwrap()),
        (1024, 1024)
    );
    // An animation is drawn as animated PNGs, one per direction (as `convert` draws it).
    let run = levelkit(dir.path(), &["render", "walk.gani", "walk.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(dir.path().join("walk.down.png").exists());
}

// ---------------------------------------------------------------------------------------------
// Tiled maps: to a map and back, --tiles, malformed maps.

#[test]
fn a_level_goes_to_tiled_and_back_byte_for_byte() {
    let s = Samples::new();
    for (level, map) in [("claw.wwd", "claw.tmx"), ("gruntz.wwd", "gruntz.tmj")] {
        let run = s.run(&["convert", level, map]);
        assert_eq!(run.code, 0, "{run:?}");
        let stem = map.split('.').next().unwrap();
        assert!(s.path().join(format!("{stem}.tileset0.png")).is_file());
        let back = format!("{level}.back.wwd");
        let run = s.run(&["convert", map, &back]);
        assert_eq!(run.code, 0, "{run:?}");
        assert!(
            s.read(&back) == s.read(level),
            "{level} -> {map} -> wwd differs"
        );
        let run = s.run(&["validate", map]);
        assert_eq!(run.code, 0, "{run:?}");
        let run = s.run(&["render", map, &format!("{map}.png")]);
        assert_eq!(run.code, 0, "{run:?}");
    }
}

#[test]
fn tiles_option_uses_the_users_images() {
    let s = Samples::new();
    // One red 64 x 64 tile image for tile 1 of the action plane's set.
    let level = wwd::samples::claw_like();
    let main = level.main_plane().unwrap();
    let set = main.image_sets[0].display();
    let mut img = Vec::new();
    {
        let mut enc = levelkit_png_encoder(&mut img, 64, 64);
        enc.write_image_data(&[255, 0, 0, 255].repeat(64 * 64))
            .unwrap();
    }
    s.write(&format!("tiles/{set}/001.png"), &img);
    let run = s.run(&["render", "claw.wwd", "claw.png", "--tiles", "tiles"]);
    assert_eq!(run.code, 0, "{run:?}");
    let with = s.read("claw.png");
    let run = s.run(&["render", "claw.wwd", "plain.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_ne!(with, s.read("plain.png"), "--tiles changed nothing");
    let run = s.run(&["convert", "claw.wwd", "claw.tmx", "--tiles", "tiles"]);
    assert_eq!(run.code, 0, "{run:?}");
    // A --tiles that is not there is a usage error (as a --frames folder that is not).
    let run = s.run(&["render", "claw.wwd", "x.png", "--tiles", "nothing-here"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("nothing-here"), "{run:?}");
}

fn levelkit_png_encoder(out: &mut Vec<u8>, w: u32, h: u32) -> png::Writer<&mut Vec<u8>> {
    let mut enc = png::Encoder::new(out, w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header().unwrap()
}

#[test]
fn malformed_maps_fail_with_exit_1_and_write_nothing() {
    let s = Samples::new();
    let run = s.run(&["convert", "claw.wwd", "claw.tmx"]);
    assert_eq!(run.code, 0, "{run:?}");
    let good = String::from_utf8(s.read("claw.tmx")).unwrap();

    let first_layer = good.find("<layer ").unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "no tile layers",
            {
                let mut t = good.clone();
                while let Some(a) = t.find("<layer ") {
                    let b = a + t[a..].find("</layer>").unwrap() + "</layer>".len();
                    t.replace_range(a..b, "");
                }
                t
            },
            "wwd_plane",
        ),
        (
            "wrong layer size",
            {
                let mut t = good.clone();
                let w = first_layer + t[first_layer..].find(" width=\"").unwrap() + 8;
                t.insert(w, '1');
                t
            },
            "layer",
        ),
        (
            "non-integer property",
            good.replacen(
                "name=\"health\" type=\"int\" value=\"",
                "name=\"health\" type=\"int\" value=\"x",
                1,
            ),
            "health",
        ),
        (
            "string where an integer is needed",
            good.replacen(
                "name=\"start_x\" type=\"int\"",
                "name=\"start_x\" type=\"string\"",
                1,
            )
            .replacen(
                "name=\"start_x\" type=\"string\" value=\"",
                "name=\"start_x\" type=\"string\" value=\"left",
                1,
            ),
            "start_x",
        ),
        ("not XML", "<map".to_string(), "tmx"),
    ];
    for (label, text, needle) in cases {
        assert_ne!(text, good, "{label}: the case changed nothing");
        s.write("bad.tmx", text.as_bytes());
        let run = s.run(&["convert", "bad.tmx", "bad.wwd"]);
        assert_eq!(run.code, 1, "{label}: {run:?}");
        assert!(run.stderr.contains(needle), "{label}: {run:?}");
        assert!(
            !s.path().join("bad.wwd").exists(),
            "{label}: an output was written"
        );
        let run = s.run(&["validate", "bad.tmx"]);
        assert_eq!(run.code, 1, "{label}: validate {run:?}");
    }
}

#[test]
fn a_graal_map_with_an_unknown_object_class_is_refused() {
    let s = Samples::new();
    let graal = levelkit::formats::graal::binary::samples::graal()
        .write()
        .unwrap();
    s.write("island.graal", &graal);
    let run = s.run(&["convert", "island.graal", "island.tmx"]);
    assert_eq!(run.code, 0, "{run:?}");
    let good = String::from_utf8(s.read("island.tmx")).unwrap();
    let run = s.run(&["convert", "island.tmx", "back.graal"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("back.graal") == graal);
    let bad = good.replacen("type=\"npc\"", "type=\"dragon\"", 1);
    assert_ne!(bad, good);
    s.write("bad.tmx", bad.as_bytes());
    for target in ["bad.graal", "bad.nw"] {
        let run = s.run(&["convert", "bad.tmx", target]);
        assert_eq!(run.code, 1, "{run:?}");
        assert!(run.stderr.contains("dragon"), "{run:?}");
        assert!(!s.path().join(target).exists());
    }
    // A Graal map does not become a WWD level: a usage error.
    let run = s.run(&["convert", "island.tmx", "x.wwd"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("graal or nw"), "{run:?}");
}

#[test]
fn batch_makes_json_maps_and_previews_in_one_run() {
    let s = Samples::new();
    let run = s.run(&["convert", ".", "--to", "json,tmx,png", "--out", "out"]);
    assert_eq!(run.code, 0, "{run:?}");
    for f in [
        "claw.json",
        "claw.tmx",
        "claw.png",
        "gruntz.json",
        "gruntz.tmx",
        "gruntz.png",
    ] {
        assert!(
            s.path().join("out").join(f).is_file(),
            "{f} missing: {run:?}"
        );
    }
    // A batch's maps share tileset files (`out/tilesets/`) instead of images of their own.
    let claw = fs::read_to_string(s.path().join("out/claw.tmx")).unwrap();
    assert!(claw.contains("source=\"tilesets/"), "{claw:.800}");
    assert!(!s.path().join("out/claw.tileset0.png").exists());
    let run = s.run(&["convert", "claw.wwd", "x.tmx", "--to", "tmx,png"]);
    assert_eq!(run.code, 2, "{run:?}");
}

// ------------------------------------------------------------------------------------------
// 3D models: .wings <-> .glb / .gltf / .obj.

#[test]
fn wings_converts_to_glb_gltf_and_obj_and_back() {
    let s = Samples::new();
    let wings = levelkit::formats::wings::samples::cube()
        .unwrap()
        .write()
        .unwrap();
    s.write("cube.wings", &wings);
    for out in ["cube.glb", "cube.gltf", "cube.obj"] {
        let run = s.run(&["convert", "cube.wings", out]);
        assert_eq!(run.code, 0, "{out}: {run:?}");
    }
    // Side files: the .gltf's buffer and texture, the .obj's MTL and texture.
    for side in ["cube.bin", "cube_0.png", "cube.mtl", "cube_map0.png"] {
        assert!(s.path().join(side).is_file(), "{side} missing");
    }
    assert!(s.read("cube.glb").starts_with(b"glTF"));
    // info and validate read the 3D files.
    let run = s.run(&["info", "--json", "cube.glb", "cube.gltf", "cube.obj"]);
    assert_eq!(run.code, 0, "{run:?}");
    for record in run.json_lines() {
        assert_eq!(record["faces"], 11, "{record}");
        assert_eq!(record["meshes"], 2, "{record}");
    }
    let run = s.run(&["validate", "cube.glb", "cube.gltf", "cube.obj"]);
    assert_eq!(run.code, 0, "{run:?}");
    // Back to .wings: two objects with the original face counts, the texture embedded.
    for (input, out) in [
        ("cube.glb", "from-glb.wings"),
        ("cube.gltf", "from-gltf.wings"),
        ("cube.obj", "from-obj.wings"),
    ] {
        let run = s.run(&["convert", input, out]);
        assert_eq!(run.code, 0, "{input}: {run:?}");
        let back = levelkit::formats::wings::Wings::read(&s.read(out)).unwrap();
        assert!(back.validate().is_empty(), "{out}: {:?}", back.validate());
        let doc = back.document().unwrap();
        let faces: Vec<usize> = doc.shapes.iter().map(|sh| sh.mesh.faces.len()).collect();
        assert_eq!(faces, [6, 5], "{out}");
        let images = doc.images();
        assert_eq!(images.len(), 1, "{out}: the texture is embedded");
        assert!(matches!(
            images[0].source,
            levelkit::formats::wings::ImageSource::Embedded {
                width: 4,
                height: 4,
                ..
            }
        ));
    }
}

#[test]
fn non_3d_files_to_glb_are_usage_errors_and_broken_meshes_invalid_input() {
    let s = Samples::new();
    let run = s.run(&["convert", "claw.wwd", "claw.glb"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("not a 3D model"), "{run:?}");
    assert!(!s.path().join("claw.glb").exists());
    // Three triangles on one edge: no winged-edge mesh can hold it.
    s.write(
        "fan.obj",
        b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 -1 0\nf 1 2 3\nf 1 2 4\nf 1 2 5\n",
    );
    let run = s.run(&["convert", "fan.obj", "fan.wings"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("2-manifold"), "{run:?}");
    assert!(!s.path().join("fan.wings").exists());
    // A bad OBJ names its line.
    s.write("bad.obj", b"v 0 0 0\nv 1 0 0\nf 1 2 7\n");
    let run = s.run(&["convert", "bad.obj", "bad.glb"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("line 3"), "{run:?}");
}

#[test]
fn batch_to_glb_converts_only_3d_models() {
    let s = Samples::new();
    let wings = levelkit::formats::wings::samples::cube()
        .unwrap()
        .write()
        .unwrap();
    s.write("in/cube.wings", &wings);
    s.write("in/claw.wwd", &s.claw);
    let run = s.run(&["convert", "in", "--to", "json,glb", "--out", "out"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.read("out/cube.glb").starts_with(b"glTF"));
    assert!(s.path().join("out/cube.json").is_file());
    assert!(s.path().join("out/claw.json").is_file());
    assert!(!s.path().join("out/claw.glb").exists());
}

#[test]
fn gamestudio_levels_info_validate_dump_compile_and_export() {
    let dir = all_samples();
    let run = levelkit(dir.path(), &["info", "--json", "room.wmp"]);
    assert_eq!(run.code, 0, "{run:?}");
    let record = &run.json_lines()[0];
    assert_eq!(record["format"], "wmp", "{record}");
    assert_eq!(record["blocks"], 6, "{record}");
    assert_eq!(record["groups"], 14, "{record}");
    let run = levelkit(dir.path(), &["validate", "room.wmp"]);
    assert_eq!(run.code, 0, "{run:?}");
    // dump --json converts back to the identical file.
    let run = levelkit(dir.path(), &["dump", "--json", "room.wmp"]);
    assert_eq!(run.code, 0, "{run:?}");
    std::fs::write(dir.path().join("room.json"), &run.stdout).unwrap();
    let run = levelkit(dir.path(), &["convert", "room.json", "again.wmp"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        std::fs::read(dir.path().join("again.wmp")).unwrap()
            == std::fs::read(dir.path().join("room.wmp")).unwrap()
    );
    // Compiled to $$M: world coordinates, no groups, readable again.
    let run = levelkit(dir.path(), &["convert", "room.wmp", "room.$$M"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["info", "--json", "room.$$M"]);
    assert_eq!(run.code, 0, "{run:?}");
    let record = &run.json_lines()[0];
    assert_eq!(record["format"], "$$m", "{record}");
    assert_eq!(record["blocks"], 6, "{record}");
    assert_eq!(record["groups"], 0, "{record}");
    // To glTF, GLB and OBJ: one mesh per block plus the path.
    for out in ["room.glb", "room.gltf", "room.obj", "compiled.glb"] {
        let input = if out == "compiled.glb" {
            "room.$$M"
        } else {
            "room.wmp"
        };
        let run = levelkit(dir.path(), &["convert", input, out]);
        assert_eq!(run.code, 0, "{out}: {run:?}");
    }
    let run = levelkit(dir.path(), &["info", "--json", "room.glb", "compiled.glb"]);
    assert_eq!(run.code, 0, "{run:?}");
    for record in run.json_lines() {
        // Six blocks, the terrain-less level's sky and the crate (`crate.mdl`, 12 triangles)
        // placed by the level's model entity.
        assert_eq!(record["meshes"], 8, "{record}");
        assert_eq!(record["lights"], 2, "{record}");
        assert_eq!(record["faces"], 48, "{record}");
    }
    // With the level's WAD beside it, the materials get their real textures.
    let pixels: Vec<u8> = (0..16 * 16).map(|i| (i % 256) as u8).collect();
    let wad = levelkit::formats::wad::write_wad2(&[
        ("floor", 16, 16, &pixels),
        ("BRICK", 16, 16, &pixels),
    ]);
    std::fs::write(dir.path().join("room.$$w"), wad).unwrap();
    let run = levelkit(dir.path(), &["convert", "room.wmp", "textured.glb"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("2 of 4 materials textured"), "{run:?}");
    let run = levelkit(dir.path(), &["info", "--json", "textured.glb"]);
    // The two WAD textures and the crate's own skin.
    assert_eq!(run.json_lines()[0]["textures"], 3, "{run:?}");
    // The text dump lists the scene.
    let run = levelkit(dir.path(), &["dump", "room.wmp"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.out().contains("block 5"), "{}", run.out());
}

#[test]
fn vchat_worlds_info_validate_and_convert_both_ways() {
    let dir = all_samples();
    let run = levelkit(dir.path(), &["info", "--json", "world.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    let record = &run.json_lines()[0];
    let world = levelkit::formats::wdb::samples::world();
    let summary = serde_json::to_value(world.summary()).unwrap();
    for key in ["nodes", "geometries", "lights"] {
        assert!(record[key].as_u64().unwrap() > 0, "{key}: {record}");
        assert_eq!(record[key], summary[key], "{key}");
    }
    let run = levelkit(dir.path(), &["validate", "world.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["dump", "--json", "world.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    std::fs::write(dir.path().join("world.json"), &run.stdout).unwrap();
    let run = levelkit(dir.path(), &["convert", "world.json", "again.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        std::fs::read(dir.path().join("again.wdb")).unwrap()
            == std::fs::read(dir.path().join("world.wdb")).unwrap()
    );
    let run = levelkit(dir.path(), &["convert", "world.wdb", "world.glb"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["convert", "world.glb", "back.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["validate", "back.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    // A Wings model becomes a V-Chat world too.
    let run = levelkit(dir.path(), &["convert", "cube.wings", "cube.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(dir.path(), &["info", "--json", "cube.wdb"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.json_lines()[0]["geometries"].as_u64().unwrap() >= 2);
}

#[test]
fn dump_of_a_gani_lists_sprites_and_frames_per_direction() {
    let samples = common::samples();
    let run = levelkit(&samples, &["dump", "walk.gani"]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = run.out();
    assert!(
        out.starts_with("walk.gani: gani animation (GANI0001)\n"),
        "{out}"
    );
    assert!(
        out.contains("\nflags           LOOP, CONTINUOUS\n"),
        "{out}"
    );
    assert!(out.contains("\nsprites (27)\n"), "{out}");
    assert!(
        out.contains("\nframes (6, 4 directions, 500 ms in all)\n  frame 0: 50 ms\n    up     0 at 12,36; 204 at 8,16;"),
        "{out}"
    );
    assert!(
        out.contains("\n    sound  \"step.wav\" at 0.5,1\n"),
        "{out}"
    );
    assert!(!out.contains("no text dump"), "{out}");
}

#[test]
fn a_missing_texture_gives_one_warning() {
    let samples = common::samples();
    let dir = common::tempdir();
    std::fs::copy(samples.join("world.wdb"), dir.path().join("world.wdb")).unwrap();
    let run = levelkit(dir.path(), &["convert", "world.wdb", "world.glb"]);
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    let texture_lines: Vec<&&str> = lines.iter().filter(|l| l.contains("texture")).collect();
    assert_eq!(texture_lines.len(), 8, "{run:?}");
    assert!(
        texture_lines
            .iter()
            .all(|l| l.contains("no readable image") && l.contains("beside the input")),
        "{run:?}"
    );
    // With the textures beside it, the same world converts without a word about textures.
    for name in [
        "grass", "brick", "wood", "roof", "stone", "sail", "logo", "anim",
    ] {
        let file = format!("{name}.gif");
        std::fs::copy(samples.join(&file), dir.path().join(&file)).unwrap();
    }
    let run = levelkit(dir.path(), &["convert", "world.wdb", "world2.glb"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stderr.contains("warning: wdb: texture"), "{run:?}");
    assert!(
        run.stderr
            .contains("8 of 8 texture files read from the world's folder"),
        "{run:?}"
    );
}

#[test]
fn batch_warnings_are_counted_by_kind_unless_verbose() {
    let samples = common::samples();
    let dir = common::tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for name in ["a.wings", "b.wings", "c.wings"] {
        std::fs::copy(samples.join("cube.wings"), input.join(name)).unwrap();
    }
    let run = levelkit(
        dir.path(),
        &["convert", "in", "--to", "obj", "--out", "out"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{run:?}");
    assert!(
        lines[0].starts_with("levelkit: converted 3, failed 0, skipped 0;"),
        "{run:?}"
    );
    assert!(lines[0].ends_with("; 3 warnings"), "{run:?}");
    assert!(
        lines[1].starts_with("levelkit:   3 x warning: obj: OBJ has no place for extras")
            && lines[1].ends_with(&format!(
                "(first: {})",
                Path::new("in").join("a.wings").display()
            )),
        "{run:?}"
    );
    let run = levelkit(
        dir.path(),
        &[
            "convert",
            "in",
            "--to",
            "obj",
            "--out",
            "verbose",
            "--verbose",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{run:?}");
    for (line, name) in lines.iter().zip(["a.wings", "b.wings", "c.wings"]) {
        let file = Path::new("in").join(name);
        assert!(
            line.starts_with(&format!(
                "levelkit: {}: warning: obj: OBJ has no place",
                file.display()
            )),
            "{run:?}"
        );
    }
    assert!(lines[3].ends_with("; 3 warnings"), "{run:?}");
}

// ---------------------------------------------------------------------------------------------
// Golden outputs (`tests/golden/`). After an intended change, ONE command rewrites them all
// (both tests below match it):
//
//     BLESS=1 cargo test -p levelkit-cli --test cli samples_match_their_golden
//
// then review the change with `git diff --stat tests/golden` (and an image viewer for pictures).

/// How a golden file is compared with what the CLI wrote.
#[derive(Clone, Copy, Debug)]
enum Compare {
    /// Byte for byte: text, JSON, glTF/GLB, and every PNG and APNG (levelkit deflates PNGs
    /// itself with zlib-rs, `levelkit::encoding::encode_png`: the same bytes in every build).
    Bytes,
    /// [`Compare::Bytes`], the golden kept as its SHA-256 when the file is large (see
    /// [`STORED_UP_TO`]).
    BytesOrDigest,
    /// The decoded frames (RGBA pixels, size, delays) of a GIF. Its bytes may legitimately
    /// differ: palette order, quantisation and LZW coding are the `image`/`gif`/`color_quant`
    /// crates' choices, which a dependency update may change without changing a pixel.
    GifFrames,
}

/// `BLESS` is set: the golden files are rewritten instead of compared.
fn bless() -> bool {
    std::env::var_os("BLESS").is_some()
}

/// [`Compare::BytesOrDigest`] golden files larger than this are kept as their SHA-256 only, in
/// `{file}.sha256` (one `sha256sum` line: `cd out && sha256sum -c ….sha256` checks a file by
/// hand), so that `tests/golden/` stays small; the large ones are the full-size previews of the
/// Graal levels and their generated 276 KB tileset.
const STORED_UP_TO: usize = 32 * 1024;

/// The golden file for `file` written as `actual`: `file` itself, or `{file}.sha256` when it is
/// compared as [`Compare::BytesOrDigest`] and larger than [`STORED_UP_TO`].
fn golden_name(file: &str, actual: &[u8], compare: Compare) -> String {
    match compare {
        Compare::BytesOrDigest if actual.len() > STORED_UP_TO => format!("{file}.sha256"),
        _ => file.to_owned(),
    }
}

/// Compare `actual` with `tests/golden/{file}` (or its `.sha256`, see [`golden_name`]) as
/// `compare` says; under `BLESS=1`, write it there first. `what` names the command that made it.
/// On a difference, `actual` is kept in `$TMPDIR/levelkit-golden-actual/{file}` to look at.
fn check_golden(file: &str, actual: &[u8], compare: Compare, what: &str) {
    let name = golden_name(file, actual, compare);
    let path = common::golden().join(&name);
    let stored = if name == file {
        actual.to_vec()
    } else {
        let base = Path::new(file).file_name().unwrap().to_string_lossy();
        format!("{}  {base}\n", common::sha256_hex(actual)).into_bytes()
    };
    if bless() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        // The other form (whole file or digest) of the same output goes.
        let other = if name == file {
            format!("{file}.sha256")
        } else {
            file.to_owned()
        };
        let _ = fs::remove_file(common::golden().join(other));
        fs::write(&path, &stored).unwrap();
    }
    let expected =
        fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (BLESS=1 writes it)", path.display()));
    let same = match compare {
        Compare::Bytes | Compare::BytesOrDigest => expected == stored,
        Compare::GifFrames => gif_pixels(&expected) == gif_pixels(actual),
    };
    if !same {
        let keep = std::env::temp_dir()
            .join("levelkit-golden-actual")
            .join(file);
        fs::create_dir_all(keep.parent().unwrap()).unwrap();
        fs::write(&keep, actual).unwrap();
        panic!(
            "{name}: `{what}` differs from its golden output ({compare:?}; what it wrote is in {}; \
             BLESS=1 rewrites the golden files)",
            keep.display()
        );
    }
}

/// A GIF's frames as (width, height, delay in ms, RGBA pixels).
fn gif_pixels(gif: &[u8]) -> Vec<(u32, u32, u32, Vec<u8>)> {
    let frames = common::gif_frames(gif);
    let delays = common::delays_ms(&frames);
    frames
        .into_iter()
        .zip(delays)
        .map(|(frame, delay)| {
            let buffer = frame.into_buffer();
            (buffer.width(), buffer.height(), delay, buffer.into_raw())
        })
        .collect()
}

/// Golden outputs: the text and JSON dumps, the `info --json` record, and (where the sample has
/// one) the Tiled maps and the embedded glTF of every bundled sample, as the CLI prints them to
/// stdout, compared byte for byte with `tests/golden/`.
///
/// Regenerate (with the pictures and binaries of the next test):
/// `BLESS=1 cargo test -p levelkit-cli --test cli samples_match_their_golden`.
#[test]
fn samples_match_their_golden_outputs() {
    let samples = common::samples();
    let mut names: Vec<String> = fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".gif") && !n.ends_with(".bmp") && !n.ends_with(".png"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 16, "{names:?}");
    let mut compared = 0;
    for name in &names {
        let (stem, ext) = name.rsplit_once('.').unwrap();
        let mut outputs: Vec<(String, Vec<&str>)> = vec![
            (format!("{stem}.dump.txt"), vec!["dump", name]),
            (format!("{stem}.dump.json"), vec!["dump", "--json", name]),
            (format!("{stem}.info.json"), vec!["info", "--json", name]),
        ];
        match ext {
            "wwd" | "graal" | "nw" => {
                outputs.push((
                    format!("{stem}.tmx"),
                    vec!["convert", name, "-", "--to", "tmx"],
                ));
                outputs.push((
                    format!("{stem}.tmj"),
                    vec!["convert", name, "-", "--to", "tmj"],
                ));
            }
            "wings" | "wmp" | "wdb" | "mdl" | "wmb" => {
                outputs.push((
                    format!("{stem}.gltf"),
                    vec!["convert", name, "-", "--to", "gltf"],
                ));
            }
            _ => {}
        }
        for (file, args) in outputs {
            let run = levelkit(&samples, &args);
            assert_eq!(run.code, 0, "{args:?}: {run:?}");
            let what = format!("levelkit {}", args.join(" "));
            check_golden(&file, &run.stdout, Compare::Bytes, &what);
            compared += 1;
        }
    }
    assert_eq!(compared, 16 * 3 + 7 * 2 + 6);
}

/// One run of the CLI (its arguments) and the files it writes, each with how it is compared.
type Job<'a> = (&'a [&'a str], &'a [(&'a str, Compare)]);

/// Golden pictures and binaries, the files the CLI writes beside its text:
///
/// * `main/`: every PNG preview, Tiled tileset PNG and `.glb` of the README's main job
///   (`convert samples --to json,tmx,png,glb --out out --force`), by their paths under `out/`;
///   the folder must hold exactly what the job writes (`BLESS=1` removes stale files);
/// * a single map's own tileset image (`gruntz-like.tileset0.png`);
/// * `walk.gani` drawn with the images of `common::gani_images`: the four direction GIFs,
///   `--dir down` as an animated PNG, and the `--sheet` PNG and JSON;
/// * the sample `.ANI` with the frames of `common::ani_folder`: GIF, animated PNG, sheet;
/// * a PID with its own palette and a PCX screen (the library's sample builders) as PNG.
///
/// PNG, APNG, GLB and JSON are compared byte for byte (the main job's files and the overworld
/// by their SHA-256 when larger than [`STORED_UP_TO`]), GIFs by their decoded frames (see
/// [`Compare`]). Regenerate (with the text goldens of the test above):
/// `BLESS=1 cargo test -p levelkit-cli --test cli samples_match_their_golden`.
#[test]
fn samples_match_their_golden_binaries() {
    let dir = common::tempdir();
    let d = dir.path();
    let samples = common::samples();
    let samples = samples.to_str().unwrap();

    // The main job.
    let args = [
        "convert",
        samples,
        "--to",
        "json,tmx,png,glb",
        "--out",
        "out",
        "--force",
    ];
    let run = levelkit(d, &args);
    assert_eq!(run.code, 0, "{run:?}");
    let what = "levelkit convert samples --to json,tmx,png,glb --out out --force";
    let written: Vec<String> = common::tree(&d.join("out"))
        .into_iter()
        .filter(|f| f.ends_with(".png") || f.ends_with(".glb"))
        .collect();
    // Every level sample has its preview (the batch draws no `.gmap`: its overworld is drawn
    // by `render` below) and every 3D sample its binary glTF.
    for stem in [
        "claw-like",
        "gruntz-like",
        "island",
        "village",
        "overworld_0_0",
        "overworld_0_1",
        "overworld_1_0",
    ] {
        assert!(
            written.contains(&format!("{stem}.png")),
            "{stem}: {written:?}"
        );
    }
    for stem in ["cube", "pyramid", "quad", "room", "world"] {
        assert!(
            written.contains(&format!("{stem}.glb")),
            "{stem}: {written:?}"
        );
    }
    assert!(
        written
            .iter()
            .any(|f| f.starts_with("tilesets/") && f.ends_with(".png")),
        "{written:?}"
    );
    let main = common::golden().join("main");
    if bless() {
        let _ = fs::remove_dir_all(&main);
    }
    let mut expected = Vec::new();
    for file in &written {
        let bytes = fs::read(d.join("out").join(file)).unwrap();
        check_golden(
            &format!("main/{file}"),
            &bytes,
            Compare::BytesOrDigest,
            what,
        );
        expected.push(golden_name(file, &bytes, Compare::BytesOrDigest));
    }
    expected.sort();
    let stored = if main.is_dir() {
        common::tree(&main)
    } else {
        Vec::new()
    };
    assert_eq!(
        stored, expected,
        "tests/golden/main/ holds other files than the job writes"
    );

    // The whole overworld in one picture.
    let run = levelkit(Path::new(samples), &["render", "overworld.gmap", "-"]);
    assert_eq!(run.code, 0, "{run:?}");
    check_golden(
        "overworld.png",
        &run.stdout,
        Compare::BytesOrDigest,
        "levelkit render overworld.gmap -",
    );

    // One map converted on its own keeps its tileset image beside it.
    fs::copy(
        Path::new(samples).join("gruntz-like.wwd"),
        d.join("gruntz-like.wwd"),
    )
    .unwrap();
    let run = levelkit(d, &["convert", "gruntz-like.wwd", "gruntz-like.tmx"]);
    assert_eq!(run.code, 0, "{run:?}");
    let file = "gruntz-like.tileset0.png";
    let what = "levelkit convert gruntz-like.wwd gruntz-like.tmx";
    check_golden(file, &fs::read(d.join(file)).unwrap(), Compare::Bytes, what);

    // A gani drawn with images: four GIFs, one direction as APNG, a sprite sheet.
    let gani = d.join("gani");
    fs::create_dir(&gani).unwrap();
    fs::copy(Path::new(samples).join("walk.gani"), gani.join("walk.gani")).unwrap();
    common::gani_images(&gani.join("images"));
    let ganis: [Job; 3] = [
        (
            &["convert", "walk.gani", "walk.gif", "--images", "images"],
            &[
                ("walk.up.gif", Compare::GifFrames),
                ("walk.left.gif", Compare::GifFrames),
                ("walk.down.gif", Compare::GifFrames),
                ("walk.right.gif", Compare::GifFrames),
            ],
        ),
        (
            &[
                "convert",
                "walk.gani",
                "walk.down.png",
                "--images",
                "images",
                "--dir",
                "down",
            ],
            &[("walk.down.png", Compare::Bytes)],
        ),
        (
            &[
                "convert",
                "walk.gani",
                "walk.sheet.png",
                "--images",
                "images",
                "--dir",
                "down",
                "--sheet",
            ],
            &[
                ("walk.sheet.png", Compare::Bytes),
                ("walk.sheet.json", Compare::Bytes),
            ],
        ),
    ];
    // The WAP32 animation with its frames: GIF, APNG, sprite sheet.
    let ani = common::ani_folder();
    let anis: [Job; 3] = [
        (
            &["convert", "FIRE.ANI", "fire.gif", "--frames", "frames"],
            &[("fire.gif", Compare::GifFrames)],
        ),
        (
            &["convert", "FIRE.ANI", "fire.png", "--frames", "frames"],
            &[("fire.png", Compare::Bytes)],
        ),
        (
            &[
                "convert",
                "FIRE.ANI",
                "fire.sheet.png",
                "--frames",
                "frames",
                "--sheet",
            ],
            &[
                ("fire.sheet.png", Compare::Bytes),
                ("fire.sheet.json", Compare::Bytes),
            ],
        ),
    ];
    for (folder, jobs) in [(gani.as_path(), &ganis), (ani.path(), &anis)] {
        for (args, files) in jobs {
            let run = levelkit(folder, args);
            assert_eq!(run.code, 0, "{args:?}: {run:?}");
            let what = format!("levelkit {}", args.join(" "));
            for (file, compare) in *files {
                check_golden(file, &fs::read(folder.join(file)).unwrap(), *compare, &what);
            }
        }
    }

    // WAP32 pictures: a PID with its own palette and an 8-bit PCX screen, to PNG.
    {
        use levelkit::formats::pid::{pcx::Pcx, samples};
        let pid = samples::sprite_with_palette().write().unwrap();
        fs::write(d.join("sprite.pid"), pid).unwrap();
        let screen = Pcx::new_indexed(16, 8, (0..128).collect(), samples::palette());
        fs::write(d.join("screen.pcx"), screen.write().unwrap()).unwrap();
    }
    for (input, output) in [
        ("sprite.pid", "sprite.pid.png"),
        ("screen.pcx", "screen.pcx.png"),
    ] {
        let run = levelkit(d, &["convert", input, output]);
        assert_eq!(run.code, 0, "{run:?}");
        let what = format!("levelkit convert {input} {output}");
        check_golden(
            output,
            &fs::read(d.join(output)).unwrap(),
            Compare::Bytes,
            &what,
        );
    }
}

#[test]
fn batch_and_single_json_reports_hold_every_warning() {
    let samples = common::samples();
    let dir = common::tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for name in ["a.wings", "b.wings"] {
        std::fs::copy(samples.join("cube.wings"), input.join(name)).unwrap();
    }
    std::fs::write(input.join("notes.txt"), "not a level").unwrap();
    let run = levelkit(
        dir.path(),
        &["convert", "in", "--to", "obj", "--out", "out", "--json"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.is_empty(), "{run:?}");
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["converted"], 2, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["skipped"], 1, "{report}");
    assert_eq!(report["warnings"], 2, "{report}");
    let kinds = report["warning_kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), 1, "{report}");
    assert_eq!(kinds[0]["count"], 2, "{report}");
    assert!(
        kinds[0]["first"]
            .as_str()
            .unwrap()
            .contains("OBJ has no place for extras"),
        "{report}"
    );
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{report}");
    let converted: Vec<_> = files
        .iter()
        .filter(|f| f["outcome"] == "converted")
        .collect();
    assert_eq!(converted.len(), 2, "{report}");
    for f in converted {
        assert_eq!(f["warnings"].as_array().unwrap().len(), 1, "{report}");
    }

    let run = levelkit(
        dir.path(),
        &["convert", "in/a.wings", "single.obj", "--json"],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.is_empty(), "{run:?}");
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["format"], "obj", "{report}");
    assert_eq!(report["warnings"].as_array().unwrap().len(), 1, "{report}");
    assert!(dir.path().join("single.obj").is_file());

    let run = levelkit(
        dir.path(),
        &["convert", "in/a.wings", "-", "--to", "obj", "--json"],
    );
    assert_eq!(run.code, 2, "{run:?}");
}

// ---------------------------------------------------------------------------------------------
// WAP32 pictures: PID, PAL, PCX

#[test]
fn pictures_convert_to_png_and_back_byte_for_byte() {
    use levelkit::formats::pid::{pcx::Pcx, samples};
    let dir = common::tempdir();
    let d = dir.path();
    let sprite = samples::sprite().write().unwrap();
    let gruntz = samples::sprite_with_palette().write().unwrap();
    fs::write(d.join("SPRITE.PID"), &sprite).unwrap();
    fs::write(d.join("GRUNTZ.PID"), &gruntz).unwrap();
    fs::write(d.join("LEVEL.PAL"), samples::palette().write()).unwrap();
    let screen = Pcx::new_indexed(16, 8, (0..128).collect(), samples::palette());
    fs::write(d.join("SCREEN.PCX"), screen.write().unwrap()).unwrap();

    // info: size, hotspot and flags.
    let run = levelkit(
        d,
        &[
            "info",
            "SPRITE.PID",
            "GRUNTZ.PID",
            "LEVEL.PAL",
            "SCREEN.PCX",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let out = run.out();
    assert!(out.contains("24 x 20"), "{out}");
    assert!(out.contains("-12, -20"), "{out}");
    assert!(
        out.contains("0x00000021 (TRANSPARENCY | COMPRESSION)"),
        "{out}"
    );
    assert!(
        out.contains("0x00000081 (TRANSPARENCY | EMBEDDED_PALETTE)"),
        "{out}"
    );
    assert!(out.contains("16 x 8"), "{out}");
    let run = levelkit(
        d,
        &[
            "validate",
            "SPRITE.PID",
            "GRUNTZ.PID",
            "LEVEL.PAL",
            "SCREEN.PCX",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");

    // A PID with its own palette: to PNG and back, byte for byte.
    let run = levelkit(d, &["convert", "GRUNTZ.PID", "gruntz.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(&fs::read(d.join("gruntz.png")).unwrap()[..4], b"\x89PNG");
    let run = levelkit(d, &["convert", "gruntz.png", "again.pid"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.is_empty(), "{run:?}");
    assert_eq!(fs::read(d.join("again.pid")).unwrap(), gruntz);

    // Without a palette of its own: a clear error, then --palette.
    let run = levelkit(d, &["convert", "SPRITE.PID", "sprite.png"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("--palette"), "{run:?}");
    assert!(!d.join("sprite.png").exists());
    let run = levelkit(
        d,
        &[
            "convert",
            "SPRITE.PID",
            "sprite.png",
            "--palette",
            "LEVEL.PAL",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(d, &["convert", "sprite.png", "sprite-again.pid"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(fs::read(d.join("sprite-again.pid")).unwrap(), sprite);
    // A palette can also come from a PID that has one.
    let run = levelkit(
        d,
        &[
            "convert",
            "SPRITE.PID",
            "-",
            "--to",
            "png",
            "--palette",
            "GRUNTZ.PID",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, fs::read(d.join("sprite.png")).unwrap());

    // An RGBA PNG (as a paint program saves it) is quantised to --palette, with a note.
    let rgba = image::load_from_memory(&fs::read(d.join("sprite.png")).unwrap())
        .unwrap()
        .to_rgba8();
    rgba.save(d.join("painted.png")).unwrap();
    let run = levelkit(
        d,
        &[
            "convert",
            "painted.png",
            "painted.pid",
            "--palette",
            "LEVEL.PAL",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.contains("no levelkit-pid"), "{run:?}");
    let painted =
        levelkit::formats::pid::Pid::read(&fs::read(d.join("painted.pid")).unwrap()).unwrap();
    assert_eq!(painted.pixels, samples::sprite().pixels);
    let run = levelkit(d, &["convert", "painted.png", "painted2.pid"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("--palette"), "{run:?}");

    // PCX and PAL to PNG; an indexed PNG's palette back to a .PAL.
    let run = levelkit(d, &["convert", "SCREEN.PCX", "screen.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(d, &["convert", "LEVEL.PAL", "level.png"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(d, &["convert", "level.png", "level-again.pal"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        fs::read(d.join("level-again.pal")).unwrap(),
        fs::read(d.join("LEVEL.PAL")).unwrap()
    );
    // JSON and back.
    let run = levelkit(d, &["convert", "GRUNTZ.PID", "gruntz.json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = levelkit(d, &["convert", "gruntz.json", "from-json.pid"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(fs::read(d.join("from-json.pid")).unwrap(), gruntz);
    // A PNG does not become a level.
    let run = levelkit(d, &["convert", "gruntz.png", "x.wwd"]);
    assert_eq!(run.code, 1, "{run:?}");
}

#[test]
fn corpus_pids_convert_to_png_and_back_through_the_cli() {
    let Some(root) = common::corpus("the real PID files") else {
        return;
    };
    let pid_dir = root.join("wap32/pid");
    let dir = common::tempdir();
    for name in ["PERFECT.PID", "FRAME043.PID"] {
        let input = pid_dir.join(name);
        let png = dir.path().join(format!("{name}.png"));
        let back = dir.path().join(format!("back-{name}"));
        let run = levelkit(
            dir.path(),
            &[OsStr::new("convert"), input.as_os_str(), png.as_os_str()],
        );
        assert_eq!(run.code, 0, "{name}: {run:?}");
        let run = levelkit(
            dir.path(),
            &[OsStr::new("convert"), png.as_os_str(), back.as_os_str()],
        );
        assert_eq!(run.code, 0, "{name}: {run:?}");
        assert_eq!(
            fs::read(&back).unwrap(),
            fs::read(&input).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn messages_say_what_happened_and_what_to_do() {
    let s = Samples::new();
    // `render` writes PNG: another extension is a usage error, and nothing is written.
    let run = s.run(&["render", "claw.wwd", "claw.jpg"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("name a .png output"), "{run:?}");
    assert!(!s.path().join("claw.jpg").exists());
    // A --tiles that is not there is a usage error, as a --frames folder that is not.
    let run = s.run(&["convert", "claw.wwd", "claw.tmx", "--tiles", "nope.png"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("--tiles nope.png"), "{run:?}");
    // A batch says why each skipped file was skipped (--json and --verbose).
    s.write("in/a.wwd", &s.claw);
    s.write("in/notes.txt", b"not a level");
    let run = s.run(&["convert", "in", "--to", "wwd", "--out", "out", "--json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let skipped: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["skipped"].as_str())
        .collect();
    assert!(skipped.contains(&"already a wwd file"), "{report}");
    assert!(skipped.contains(&"not a format levelkit reads"), "{report}");
    let run = s.run(&["convert", "in", "--to", "tmx", "--out", "out2", "--verbose"]);
    assert!(
        run.stderr
            .contains("notes.txt: skipped: not a format levelkit reads"),
        "{run:?}"
    );
    // A gani's four directions are named when written.
    let gani = common::samples().join("walk.gani");
    let run = s.run(&["convert".as_ref(), gani.as_os_str(), "walk.gif".as_ref()]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stderr
            .contains("wrote walk.up.gif, walk.left.gif, walk.down.gif, walk.right.gif"),
        "{run:?}"
    );
}

#[test]
fn keep_extension_avoids_collisions_between_levels_of_one_name() {
    let s = Samples::new();
    let graal = levelkit::formats::graal::binary::samples::graal()
        .write()
        .unwrap();
    s.write("lv/test.graal", &graal);
    let run = s.run(&["convert", "lv/test.graal", "lv/test.nw"]);
    assert_eq!(run.code, 0, "{run:?}");
    // Both would be out/test.tmx: the second fails, and the message names the way out.
    let run = s.run(&["convert", "lv", "--to", "tmx", "--out", "out"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("--keep-extension"), "{run:?}");
    let run = s.run(&[
        "convert",
        "lv",
        "--to",
        "tmx",
        "--out",
        "kept",
        "--keep-extension",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(s.path().join("kept/test.graal.tmx").is_file());
    assert!(s.path().join("kept/test.nw.tmx").is_file());
}
