//! REZ archives: the sample archive and the builder, both readers (the zero-copy index and the
//! owned model), byte-exact round trips (gaps and trailing bytes included), JSON, every prefix,
//! garbage and mutation sweeps, hostile structures (data outside the file, directory loops,
//! overlapping bodies, gigabyte counts measured with the counting allocator), and a proptest
//! from `(path, bytes)` lists to archives and back. No real archive is in the corpus (they are
//! the games' data).

use std::collections::BTreeMap;

use levelkit::document::Model;
use levelkit::formats::rez::{self, Builder, Entry, FileSpec, Rez, RezIndex, layout, samples};
use levelkit::{ErrorKind, Format, Limits, Severity, sniff};

use crate::common::Rng;
use crate::common::alloc::peak_during;

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn sample_bytes() -> Vec<u8> {
    samples::sample().write().unwrap()
}

#[test]
fn sample_reads_back_as_built_and_writes_the_same_bytes() {
    let built = samples::sample();
    let bytes = built.write().unwrap();
    assert_eq!(sniff(&bytes, None), Some(Format::Rez));
    assert_eq!(sniff(b"\0\0", Some("GRUNTZ.VRZ")), Some(Format::Rez));

    let rez = Rez::read(&bytes).unwrap();
    assert_eq!(rez, built);
    assert_eq!(rez.write().unwrap(), bytes);
    assert!(rez.gaps.is_empty());

    let s = rez.summary();
    assert_eq!(s.files, 28);
    // LEVEL1, TILES, ACTION, BACK, PALETTES, WORLDS, CLAW, ANIS, IMAGES, SOUNDS, MUSIC,
    // STATES, LEVEL2, LEVEL2/TILES.
    assert_eq!(s.directories, 14);
    assert_eq!(s.types["PID"], 19);
    assert_eq!(s.types["(none)"], 1);
    assert_eq!(s.archive_bytes, bytes.len() as u64);
    assert!(s.is_sorted);

    // The one finding: the file with a comment and keys, which OpenClaw could not read.
    let findings = rez.validate();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].severity, Severity::Warning);
    assert_eq!(
        findings[0].location.path.as_deref(),
        Some("STATES/NOTES.TXT")
    );
}

#[test]
fn index_finds_files_by_path_and_slices_their_data() {
    let bytes = sample_bytes();
    let index = RezIndex::read(&bytes).unwrap();
    let owned = Rez::read(&bytes).unwrap();
    let files = index.files();
    assert_eq!(files.len(), 28);
    for (path, file) in &files {
        let data = index.data(*file).unwrap();
        assert_eq!(data, owned.find(path).unwrap().data.0.as_slice(), "{path}");
        // Every spelling finds the same entry.
        let back = path.replace('/', "\\").to_ascii_lowercase();
        assert_eq!(index.find(&back), Some(*file), "{back}");
    }
    let tile = index.find("/LEVEL1//TILES/ACTION/003.PID").unwrap();
    assert_eq!(tile.fourcc.0, *b"DIP\0");
    assert_eq!(tile.file_name_text(), "003.PID");
    assert_eq!(index.data(tile).unwrap(), samples::pattern(2, 64 + 74));
    assert!(index.find("LEVEL1/TILES/ACTION/003").is_none());
    assert!(index.find("LEVEL1/TILES/ACTION/003.PI").is_none());
    assert!(
        index.find("LEVEL1/TILES").is_none(),
        "a directory is not a file"
    );
    assert!(index.find("").is_none());
    assert_eq!(index.find("readme").unwrap().file_name_text(), "README");
    assert_eq!(
        index.find_directory("level2/tiles").unwrap().entries.len(),
        0
    );
    assert_eq!(index.find_directory("").unwrap().pos, index.root.pos);
    let notes = index.find("STATES/NOTES.TXT").unwrap();
    assert_eq!(notes.comment.display(), "made by levelkit");
    assert_eq!(notes.keys, [1, 2, 3]);
    assert_eq!(notes.id, 7);
    assert_eq!(index.validate(), owned.validate());
    assert_eq!(index.summary(), owned.summary());
}

#[test]
fn the_index_reads_no_file_data() {
    // Every byte of file data overwritten: the index is the same, and its slices show the new
    // bytes (they are views of the input, not copies).
    let bytes = sample_bytes();
    let index = RezIndex::read(&bytes).unwrap();
    let mut scrambled = bytes.clone();
    for (_, f) in index.files() {
        for b in &mut scrambled[f.pos as usize..(f.pos + f.size) as usize] {
            *b = !*b;
        }
    }
    let again = RezIndex::read(&scrambled).unwrap();
    assert_eq!(again.header, index.header);
    assert_eq!(again.root, index.root);
    let readme = again.find("README").unwrap();
    let original = index.data(index.find("README").unwrap()).unwrap();
    let data = again.data(readme).unwrap();
    assert!(data.iter().zip(original).all(|(a, b)| *a == !*b));
    assert_eq!(data.as_ptr(), scrambled[readme.pos as usize..].as_ptr());
}

#[test]
fn builder_lays_out_as_the_tools_did() {
    let rez = samples::sample();
    let bytes = rez.write().unwrap();
    // Text block, version, root body last, data from 0xA8 up to next_write_pos.
    assert_eq!(
        &bytes[..layout::BANNER_LEN],
        layout::standard_banner().as_slice()
    );
    assert_eq!(u32_at(&bytes, 0x7F), 1);
    let (root_pos, root_size) = (u32_at(&bytes, 0x83), u32_at(&bytes, 0x87));
    assert_eq!((root_pos + root_size) as usize, bytes.len());
    let next = rez.header.next_write_pos;
    assert_eq!(u32_at(&bytes, 0x8F), next);
    let mut data_end = 0;
    let mut spans = Vec::new();
    for (_, f) in rez.files() {
        assert!(f.pos >= 168);
        data_end = data_end.max(f.pos + f.size);
        spans.push((f.pos, f.size));
    }
    assert_eq!(data_end, next);
    // The data tiles [168, next) without gaps or overlaps.
    spans.sort_unstable();
    let mut at = 168;
    for (pos, size) in spans {
        assert_eq!(pos, at);
        at += size;
    }
    // Largest fields: "FRAME001" is the longest file name (8 + NUL), "PALETTES" the longest
    // directory name, the comment "made by levelkit" (16 + NUL), three keys.
    assert_eq!(rez.header.largest_file_name, 9);
    assert_eq!(rez.header.largest_dir_name, 9);
    assert_eq!(rez.header.largest_comment, 17);
    assert_eq!(rez.header.largest_key_array, 3);
    assert_eq!(rez.header.is_sorted, 1);
    // Subdirectories before files in every body.
    fn dirs_first<D>(dir: &rez::Directory<D>) {
        let kinds: Vec<bool> = dir
            .entries
            .iter()
            .map(|e| matches!(e, Entry::Directory(_)))
            .collect();
        assert!(kinds.windows(2).all(|w| w[0] || !w[1]), "{kinds:?}");
        for d in dir.directories() {
            dirs_first(d);
        }
    }
    dirs_first(&rez.root);
    // Bodies after the data, children before parents.
    fn bodies_after_children<D>(dir: &rez::Directory<D>, next: u32) {
        assert!(dir.pos >= next);
        for d in dir.directories() {
            assert!(d.pos + d.size <= dir.pos);
            bodies_after_children(d, next);
        }
    }
    bodies_after_children(&rez.root, next);
}

#[test]
fn builder_refuses_what_cannot_be_an_archive() {
    let mut b = Builder::new();
    b.add("A/X.PID", vec![1]).unwrap();
    let refused = [
        "a/x.pid",    // same name and type, other case
        "A/../B.PID", // not a name
        "A/./B.PID",  // not a name
        "",           // no file
        "/",          // no file
        "A",          // a file where a directory is
        "A/X.PID/Y",  // a directory where a file is
        "A/\u{4e00}", // not Windows-1252
        "A/B\0C",     // NUL
    ];
    for path in refused {
        let err = b
            .add(path, vec![2])
            .err()
            .unwrap_or_else(|| panic!("{path:?} accepted"));
        assert_eq!(err.kind, ErrorKind::Malformed, "{path:?}: {err}");
    }
    // Same name, other type; a name without a type; a long "extension" kept in the name.
    b.add("A/X.PAL", vec![3]).unwrap();
    b.add("A/X", vec![4]).unwrap();
    b.add("A/Y.BITMAP", vec![5]).unwrap();
    b.add("a\\b\\c.wav", vec![6]).unwrap();
    b.add_directory("EMPTY").unwrap();
    let rez = b.finish().unwrap();
    let paths: Vec<String> = rez.files().into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        paths,
        ["A/b/c.wav", "A/X.PID", "A/X.PAL", "A/X", "A/Y.BITMAP"],
        "directories first, then files in the order added; `a` is `A`"
    );
    let y = rez.find("A/Y.BITMAP").unwrap();
    assert_eq!(y.name.display(), "Y.BITMAP");
    assert_eq!(y.fourcc, rez::FourCc::NONE);
    let bytes = rez.write().unwrap();
    assert_eq!(Rez::read(&bytes).unwrap(), rez);
}

#[test]
fn json_is_lossless() {
    let bytes = sample_bytes();
    let model = Model::read(&bytes, Some("CLAW.REZ"), &Limits::default()).unwrap();
    assert_eq!(model.format(), Format::Rez);
    let json = model.to_json().unwrap();
    let text = String::from_utf8(json.clone()).unwrap();
    assert!(text.contains("\"type\": \"PID\""), "types read as text");
    assert!(text.contains("data_base64"));
    let back = Model::from_json(&json).unwrap();
    assert_eq!(back, model);
    assert_eq!(back.write().unwrap(), bytes);
    assert!(model.info_text("CLAW.REZ").contains("REZ version 1"));
    let dump = model.dump_text("CLAW.REZ");
    assert!(dump.contains("003.PID  0x"), "{dump}");
    assert!(dump.contains("comment \"made by levelkit\"  keys [1, 2, 3]"));
}

#[test]
fn gaps_and_orphaned_bodies_round_trip() {
    let bytes = sample_bytes();
    // Trailing bytes.
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(b"trailing bytes");
    let rez = Rez::read(&trailing).unwrap();
    assert_eq!(rez.gaps.len(), 1);
    assert_eq!(rez.gaps[0].offset as usize, bytes.len());
    assert_eq!(rez.write().unwrap(), trailing);
    // An orphaned root body, as the retail archives have: the root re-emitted at the end and
    // the header pointed at the copy.
    let (pos, size) = (u32_at(&bytes, 0x83) as usize, u32_at(&bytes, 0x87) as usize);
    let mut orphan = bytes.clone();
    orphan.extend_from_slice(&bytes[pos..pos + size]);
    put_u32(&mut orphan, 0x83, bytes.len() as u32);
    let rez = Rez::read(&orphan).unwrap();
    assert_eq!(rez.gaps.len(), 1);
    assert_eq!(
        (rez.gaps[0].offset as usize, rez.gaps[0].bytes.0.len()),
        (pos, size)
    );
    assert_eq!(rez.write().unwrap(), orphan);
    assert_eq!(rez.summary().gap_bytes, size as u64);
    let json = Model::Rez(rez.clone()).to_json().unwrap();
    assert_eq!(Model::from_json(&json).unwrap().write().unwrap(), orphan);
    // Repacking drops the orphan and gives the builder's layout back.
    assert_eq!(rez.repack().unwrap().write().unwrap(), bytes);
}

#[test]
fn edited_models_are_refused_until_repacked() {
    let mut rez = samples::sample();
    // Replace README's data with a longer one: the sizes no longer match.
    fn readme(dir: &mut rez::Directory<rez::Blob>) -> &mut rez::File<rez::Blob> {
        dir.entries
            .iter_mut()
            .find_map(|e| match e {
                Entry::File(f) if f.name.display() == "README" => Some(f),
                _ => None,
            })
            .unwrap()
    }
    readme(&mut rez.root).data.0 = b"a new readme, longer than before".repeat(4);
    let err = rez.write().unwrap_err();
    assert!(err.message.contains("bytes of data"), "{err}");
    assert!(rez.validate().iter().any(|w| w.severity == Severity::Error));
    let repacked = rez.repack().unwrap();
    let bytes = repacked.write().unwrap();
    let index = RezIndex::read(&bytes).unwrap();
    assert_eq!(
        index.data(index.find("README").unwrap()).unwrap(),
        b"a new readme, longer than before".repeat(4)
    );
    assert!(repacked.validate().len() == 1, "only the comment warning");
    // A hole: a gap removed from a model that had one.
    let mut trailing = sample_bytes();
    trailing.extend_from_slice(&[9; 10]);
    let mut holed = Rez::read(&trailing).unwrap();
    holed.gaps.clear();
    holed.header.banner.0[5] = b'x';
    assert_eq!(holed.write().unwrap().len(), trailing.len() - 10);
    holed.root.pos = 200; // onto file data, with other bytes
    let err = holed.write().unwrap_err();
    assert!(err.message.contains("overlaps"), "{err}");
}

#[test]
fn every_prefix_is_an_error_with_an_offset() {
    let bytes = sample_bytes();
    for n in 0..bytes.len() {
        let cut = &bytes[..n];
        let err = RezIndex::read(cut)
            .err()
            .unwrap_or_else(|| panic!("prefix {n} read"));
        assert!(err.location.offset.is_some(), "prefix {n}: {err}");
        assert!(Rez::read(cut).is_err(), "prefix {n}");
    }
}

#[test]
fn garbage_and_mutations_never_panic_and_what_reads_writes_back() {
    let bytes = sample_bytes();
    let mut rng = Rng(0x5EED_F2E2);
    let mut accepted = 0;
    for round in 0..4000 {
        let mut b = bytes.clone();
        let flips = 1 + rng.below(4);
        for _ in 0..flips {
            // Mostly in the header and the directory bodies, where meaning is.
            let at = if rng.below(3) == 0 {
                rng.below(168)
            } else {
                rez_dir_offset(&bytes) + rng.below(bytes.len() - rez_dir_offset(&bytes))
            };
            b[at] = match rng.below(4) {
                0 => 0,
                1 => 0xFF,
                2 => b[at].wrapping_add(1),
                _ => rng.next() as u8,
            };
        }
        let index = RezIndex::read_with(&b, &Limits::strict());
        match Rez::read_with(&b, &Limits::strict()) {
            Ok(model) => {
                accepted += 1;
                assert!(index.is_ok(), "round {round}");
                assert_eq!(
                    model.write().unwrap(),
                    b,
                    "round {round}: write changed bytes"
                );
                let _ = model.validate();
                let _ = model.dump("x");
            }
            Err(e) => {
                assert!(
                    e.location.offset.is_some() || e.location.path.is_some(),
                    "{e}"
                );
            }
        }
    }
    assert!(
        accepted > 100,
        "the sweep should keep many mutants: {accepted}"
    );
    // Pure garbage, with and without a valid text block in front.
    for round in 0..2000 {
        let len = rng.below(600);
        let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if round % 2 == 0 && b.len() >= 168 {
            b[..127].copy_from_slice(&layout::standard_banner());
            put_u32(&mut b, 127, 1);
        }
        if let Ok(model) = Rez::read_with(&b, &Limits::strict()) {
            assert_eq!(model.write().unwrap(), b);
        }
    }
}

/// Where the directory bodies of the sample begin (the end of its data).
fn rez_dir_offset(bytes: &[u8]) -> usize {
    u32_at(bytes, 0x8F) as usize
}

/// A minimal archive with a root body of the given entries (raw bytes), placed at 168.
fn archive(body: &[u8]) -> Vec<u8> {
    let mut b = layout::standard_banner();
    for v in [1, 168, body.len() as u32, 0, 168, 0, 0, 0, 0, 0] {
        b.extend_from_slice(&u32::to_le_bytes(v));
    }
    b.push(1);
    b.extend_from_slice(body);
    b
}

fn dir_entry(pos: u32, size: u32, name: &str) -> Vec<u8> {
    let mut e = Vec::new();
    for v in [1, pos, size, 0] {
        e.extend_from_slice(&u32::to_le_bytes(v));
    }
    e.extend_from_slice(name.as_bytes());
    e.push(0);
    e
}

fn file_entry(pos: u32, size: u32, name: &str, keys: u32) -> Vec<u8> {
    let mut e = Vec::new();
    for v in [0, pos, size, 0, 0] {
        e.extend_from_slice(&u32::to_le_bytes(v));
    }
    e.extend_from_slice(b"DIP\0");
    e.extend_from_slice(&keys.to_le_bytes());
    e.extend_from_slice(name.as_bytes());
    e.extend_from_slice(b"\0\0");
    e
}

#[test]
fn hostile_structures_are_refused_with_their_offset() {
    let ok = archive(&file_entry(168, 4, "A", 0));
    assert!(RezIndex::read(&ok).is_ok());

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "file outside",
            archive(&file_entry(160, 400, "A", 0)),
            "runs past the end",
        ),
        (
            "file offset 4G",
            archive(&file_entry(u32::MAX, 1, "A", 0)),
            "runs past the end",
        ),
        (
            "self loop",
            archive(&dir_entry(168, 18, "A")),
            "directory loop",
        ),
        (
            "loop into an ancestor",
            {
                // The root (168, 18 bytes) holds B, whose body (186, 18 bytes) holds C, whose
                // body is the root's.
                let mut body = dir_entry(186, 18, "B");
                body.extend(dir_entry(168, 18, "C"));
                let mut b = archive(&body);
                put_u32(&mut b, 0x87, 18);
                b
            },
            "directory loop",
        ),
        (
            "two directories share a body",
            {
                let mut body = dir_entry(204, 31, "B");
                body.extend(dir_entry(204, 31, "C"));
                let mut b = archive(&body);
                b.extend(file_entry(168, 1, "X", 0));
                b
            },
            "overlaps another directory's body",
        ),
        (
            "body in the header",
            archive(&dir_entry(0, 40, "A")),
            "overlaps the 168-byte header",
        ),
        (
            "key count 1G",
            archive(&file_entry(168, 1, "A", 0x4000_0000)),
            "key array",
        ),
        (
            "unknown kind",
            {
                let mut e = file_entry(168, 1, "A", 0);
                e[0] = 7;
                archive(&e)
            },
            "kind 7",
        ),
        (
            "name without NUL",
            archive(&file_entry(168, 1, "A", 0)[..30]),
            "no NUL terminator",
        ),
        (
            "version 2",
            {
                let mut b = ok.clone();
                b[127] = 2;
                b
            },
            "version 2",
        ),
        (
            "no 0x1A",
            {
                let mut b = ok.clone();
                b[0x7E] = b' ';
                b
            },
            "not a REZ archive",
        ),
        (
            "root outside",
            {
                let mut b = ok.clone();
                put_u32(&mut b, 0x87, 1 << 30);
                b
            },
            "runs past",
        ),
    ];
    for (name, bytes, expected) in &cases {
        for limits in [Limits::default(), Limits::strict()] {
            let err = RezIndex::read_with(bytes, &limits)
                .err()
                .unwrap_or_else(|| panic!("{name}: accepted"));
            assert!(err.to_string().contains(expected), "{name}: {err}");
            assert!(err.location.offset.is_some(), "{name}: {err}");
            assert!(Rez::read_with(bytes, &limits).is_err(), "{name}");
        }
    }
}

#[test]
fn nesting_and_entry_counts_are_capped() {
    // A chain of directories 100 deep: within the default depth, past the strict one (64).
    let mut b = Builder::new();
    let deep: Vec<String> = (0..100).map(|i| format!("D{i}")).collect();
    b.add(&format!("{}/LEAF.TXT", deep.join("/")), b"leaf".to_vec())
        .unwrap();
    let bytes = b.finish().unwrap().write().unwrap();
    assert!(RezIndex::read(&bytes).is_ok());
    let err = RezIndex::read_with(&bytes, &Limits::strict()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
    let few = Limits {
        max_count: 50,
        ..Limits::default()
    };
    assert_eq!(
        RezIndex::read_with(&bytes, &few).unwrap_err().kind,
        ErrorKind::LimitExceeded
    );
    // Copying data is charged: 2000 entries all pointing at one 64 KiB file claim 128 MiB.
    let mut body = Vec::new();
    for i in 0..2000 {
        body.extend(file_entry(0, 0, &format!("F{i:04}"), 0));
    }
    let mut hostile = archive(&body);
    let data_at = hostile.len() as u32;
    hostile.extend(std::iter::repeat_n(7u8, 65536));
    // Point every file at the 64 KiB block and fix the root body to stay in place.
    let mut at = 168;
    while at < data_at as usize {
        put_u32(&mut hostile, at + 4, data_at);
        put_u32(&mut hostile, at + 8, 65536);
        at += 30 + 5;
    }
    let (index, peak) = peak_during(|| RezIndex::read_with(&hostile, &Limits::strict()));
    let index = index.unwrap();
    assert_eq!(index.files().len(), 2000);
    assert!(
        peak < 4 * hostile.len(),
        "the index copies no data: peak {peak}"
    );
    let (owned, peak) = peak_during(|| Rez::read_with(&hostile, &Limits::strict()));
    let err = owned.unwrap_err();
    assert_eq!(err.kind, ErrorKind::LimitExceeded, "{err}");
    assert!(
        peak <= Limits::strict().max_alloc + 4 * hostile.len(),
        "peak {peak}"
    );
}

#[test]
fn gigabyte_claims_allocate_nothing_in_proportion() {
    let base = sample_bytes();
    let root = u32_at(&base, 0x83) as usize;
    let mut hostile: Vec<(&str, Vec<u8>)> = Vec::new();
    // The root's size claims 4 GiB.
    let mut b = base.clone();
    put_u32(&mut b, 0x87, u32::MAX);
    hostile.push(("root size 4G", b));
    // The first entry of the root (a directory) claims a 4 GiB body.
    let mut b = base.clone();
    put_u32(&mut b, root + 8, u32::MAX);
    hostile.push(("directory size 4G", b));
    // A key count of 4G in a tiny body.
    hostile.push(("key count 4G", archive(&file_entry(168, 1, "A", u32::MAX))));
    for (name, bytes) in &hostile {
        for limits in [Limits::default(), Limits::strict()] {
            let (result, peak) = peak_during(|| Rez::read_with(bytes, &limits));
            assert!(result.is_err(), "{name}: accepted");
            assert!(peak < 8 * bytes.len() + 65536, "{name}: peak {peak}");
        }
    }
}

#[test]
fn the_index_of_a_large_archive_allocates_a_fraction_of_it() {
    let bytes = samples::large(8 << 20).write().unwrap();
    let (index, peak) = peak_during(|| RezIndex::read(&bytes).unwrap().files().len());
    assert!(index > 1000, "{index} files");
    assert!(
        peak < bytes.len() / 8,
        "peak {peak} for {} bytes",
        bytes.len()
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        "[A-Z0-9_]{1,8}"
    }

    /// Directories, name, extension, data.
    type Spec = (Vec<String>, String, Option<String>, Vec<u8>);

    fn tree() -> impl Strategy<Value = Vec<Spec>> {
        prop::collection::vec(
            (
                prop::collection::vec(name(), 0..4),
                name(),
                prop::option::of("[A-Z]{1,4}"),
                prop::collection::vec(any::<u8>(), 0..200),
            ),
            0..40,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any list of paths and bytes: the archive reads back as built, writes the same bytes,
        /// and gives every file back under its path.
        #[test]
        fn built_archives_round_trip(files in tree(), time in any::<u32>()) {
            let mut b = Builder::new();
            b.time(time);
            let mut expected: BTreeMap<String, Vec<u8>> = BTreeMap::new();
            for (dirs, stem, ext, data) in files {
                let mut path = dirs.join("/");
                if !path.is_empty() {
                    path.push('/');
                }
                path.push_str(&stem);
                if let Some(ext) = &ext {
                    path.push('.');
                    path.push_str(ext);
                }
                let spec = FileSpec { time, ..FileSpec::new(data.clone()) };
                if b.add_file(&path, spec).is_ok() {
                    expected.insert(path.to_ascii_uppercase(), data);
                }
            }
            let built = b.finish().unwrap();
            let bytes = built.write().unwrap();
            let back = Rez::read(&bytes).unwrap();
            prop_assert_eq!(&back, &built);
            prop_assert_eq!(back.write().unwrap(), bytes.clone());
            prop_assert!(back.validate().is_empty(), "{:?}", back.validate());
            let index = RezIndex::read(&bytes).unwrap();
            let got: BTreeMap<String, Vec<u8>> = index
                .files()
                .into_iter()
                .map(|(p, f)| (p.to_ascii_uppercase(), index.data(f).unwrap().to_vec()))
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}
