//! Compressed main blocks written back byte for byte (issue 27, item 6): reading keeps the stored
//! stream (`Deflate::Original`) and the writer puts it back while the level is unedited; the zlib
//! level that reproduces a stream is settled for the JSON form (or on `settle_compression`), and
//! a stream no level reproduces is kept there. The corpus test walks every `*.wwd` under `$LEVELKIT_CORPUS`
//! (held-back levels included, wherever they sit) and skips cleanly when the variable is unset.

use std::path::{Path, PathBuf};

use crate::common;

use levelkit::ErrorKind;
use levelkit::formats::wwd::{self, Deflate, HEADER_SIZE, TILE_EMPTY, Wwd};

/// Every file under `dir` whose name ends in `.wwd` (any case), sorted.
fn wwd_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("wwd"))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The settled settings, described (the model itself is left as read).
fn settings(level: &Wwd) -> String {
    match (&level.compression.clone().settled(), level.is_compressed()) {
        (_, false) => "uncompressed".to_owned(),
        (Deflate::Zlib { level }, true) => format!("zlib level {level}"),
        (
            Deflate::Kept {
                level,
                stream,
                checksum,
            },
            true,
        ) => format!(
            "stream kept ({} bytes{}; level {level} after an edit)",
            stream.len(),
            checksum.map_or(String::new(), |c| format!(", non-editor checksum {c:08X}"))
        ),
        (Deflate::Original(_), true) => unreachable!("settled"),
    }
}

#[test]
fn every_corpus_wwd_writes_back_byte_for_byte() {
    let Some(root) = common::corpus_root() else {
        eprintln!("SKIP: LEVELKIT_CORPUS is not set; WWD byte-exact round trips not run");
        return;
    };
    let files = wwd_files(&root);
    let (mut readable, mut exact, mut kept) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let bytes = std::fs::read(path).unwrap();
        let level = match Wwd::read(&bytes) {
            Ok(level) => level,
            // The one negative sample: its header-size dword is broken on purpose.
            Err(e) if name.contains("badsig") => {
                assert_eq!(e.kind, ErrorKind::Malformed, "{name}: {e}");
                eprintln!("{name}: refused as expected ({e})");
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        readable += 1;
        if level.is_compressed() {
            // Reading searches nothing: the stream as stored, with the level its header hints.
            let Deflate::Original(original) = &level.compression else {
                panic!("{name}: read as {:?}", level.compression.level());
            };
            assert!(
                original.stream() == &bytes[HEADER_SIZE as usize..],
                "{name}"
            );
        }
        kept += usize::from(matches!(
            level.compression.clone().settled(),
            Deflate::Kept { .. }
        ));
        let out = level.write().unwrap_or_else(|e| panic!("{name}: {e}"));
        let same = out == bytes;
        eprintln!(
            "{name}: {} -> {}",
            settings(&level),
            if same { "byte-exact" } else { "DIFFERS" }
        );
        if !same {
            let at = out.iter().zip(&bytes).position(|(a, b)| a != b);
            failures.push(format!(
                "{name}: {} bytes written, {} read, first difference at {at:?}",
                out.len(),
                bytes.len()
            ));
            continue;
        }
        exact += 1;
        // The JSON form keeps the stream (the same in every build); settled first, it carries
        // the settings (or the kept stream where none reproduces it). Both write the bytes back.
        let json = serde_json::to_vec(&level).unwrap();
        let back: Wwd = serde_json::from_slice(&json).unwrap();
        let mut settled = level.clone();
        settled.settle_compression();
        assert!(back == level, "{name}: JSON round trip changed the model");
        assert!(
            back == settled,
            "{name}: the kept stream is what it settles to"
        );
        assert!(back.write().unwrap() == bytes, "{name}: JSON round trip");
        assert!(settled.write().unwrap() == bytes, "{name}: settled");
        let settled_json = serde_json::to_vec(&settled).unwrap();
        let settled_back: Wwd = serde_json::from_slice(&settled_json).unwrap();
        assert!(settled_back == level, "{name}: settled JSON round trip");
        if !level.is_compressed() {
            assert!(settled_json == json, "{name}");
        }
    }
    eprintln!(
        "corpus WWDs written back byte for byte: {exact} of {readable} ({kept} through a kept stream)"
    );
    assert!(failures.is_empty(), "{failures:#?}");
    // The shared corpus alone has six readable levels; held-back ones only add to that.
    assert!(
        readable >= 6,
        "only {readable} readable WWDs under {root:?}"
    );
}

/// The settings the shared corpus levels are known to use (with reference zlib to try them).
#[test]
fn corpus_levels_record_the_settings_they_were_made_with() {
    let Some(root) = common::corpus_root() else {
        eprintln!("SKIP: LEVELKIT_CORPUS is not set; WWD compression settings not checked");
        return;
    };
    // Settled, as the JSON form is.
    let read = |file: &str| {
        let mut level = Wwd::read(&std::fs::read(root.join(file)).unwrap()).unwrap();
        level.settle_compression();
        level
    };
    let with_c_zlib = cfg!(feature = "c-zlib");
    for (file, level) in [
        ("wwd/RETAIL01.WWD", 6),
        ("wwd/LePortdeCoolness.wwd", 6),
        ("wwd/RockySwitch.wwd", 6),
    ] {
        let got = read(file).compression;
        if with_c_zlib {
            assert_eq!(got, Deflate::Zlib { level }, "{file}");
        } else {
            assert!(matches!(got, Deflate::Kept { .. }), "{file}: {got:?}");
        }
    }
    // CrazyHook's level 1 was deflated at zlib level 9 (as a level-9 re-compression shows), but
    // its header checksum is not the editor's (the tool adds another extra byte: 0xEF14309E
    // where the editor's sum is 0xEF1431C5), so the stream is kept together with that checksum.
    let level1 = read("wap32/crazyhook/LEVEL1/WORLDX.WWD");
    let Deflate::Kept {
        level: 9,
        stream,
        checksum: Some(0xEF14_309E),
    } = &level1.compression
    else {
        panic!("LEVEL1: level {}", level1.compression.level());
    };
    let mut fresh = level1.clone();
    fresh.compression = Deflate::Zlib { level: 9 };
    if with_c_zlib {
        assert!(fresh.write().unwrap()[HEADER_SIZE as usize..] == stream[..]);
    }
    // CrazyHook's level 10 is the retail stream (an old zlib, `78 9C`): no level rebuilds it.
    let level10 = read("wap32/crazyhook/LEVEL10/WORLDX.WWD");
    let Deflate::Kept {
        level: 6,
        stream,
        checksum: None,
    } = &level10.compression
    else {
        panic!("LEVEL10: level {}", level10.compression.level());
    };
    assert_eq!(stream.len(), 46342 - HEADER_SIZE as usize);
    // Uncompressed files carry the default (what `--compress` would use).
    let plain = read("wwd/RETAIL01_nocompress.WWD");
    assert!(!plain.is_compressed() && plain.compression.is_default());
}

/// A level written compressed at `level`.
/// Change the first tile of the first plane that has tiles (empty <-> 7): an edited main block.
fn edit_first_tile(level: &mut Wwd) {
    let plane = level
        .planes
        .iter_mut()
        .find(|p| !p.tiles.is_empty())
        .unwrap();
    plane.tiles[0] = if plane.tiles[0] == TILE_EMPTY {
        7
    } else {
        TILE_EMPTY
    };
}

fn written_at(model: &Wwd, level: u8) -> Vec<u8> {
    let mut m = model.clone();
    m.compression = Deflate::Zlib { level };
    m.write_with(&wwd::WriteOptions {
        compress: Some(true),
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn every_zlib_level_reads_back_to_the_same_bytes() {
    let model = wwd::samples::claw_like();
    for level in 0..=9u8 {
        let bytes = written_at(&model, level);
        let mut back = Wwd::read(&bytes).unwrap();
        assert!(back.write().unwrap() == bytes, "level {level}");
        back.settle_compression();
        assert!(back.write().unwrap() == bytes, "level {level}, settled");
        if cfg!(feature = "c-zlib") {
            // Small levels can come out the same at neighbouring levels; these do not.
            if [0, 1, 6, 9].contains(&level) {
                assert_eq!(back.compression, Deflate::Zlib { level });
            }
            assert!(
                matches!(back.compression, Deflate::Zlib { .. }),
                "level {level}: {:?}",
                back.compression.level()
            );
        } else {
            assert!(matches!(back.compression, Deflate::Kept { .. }));
        }
    }
}

#[test]
fn a_kept_stream_goes_back_only_while_the_level_is_unedited() {
    let model = wwd::samples::claw_like();
    let original = written_at(&model, 1);
    let stream = original[HEADER_SIZE as usize..].to_vec();
    let mut kept = Wwd::read(&original).unwrap();
    kept.compression = Deflate::Kept {
        level: 9,
        stream: stream.clone(),
        checksum: Some(0x1234_5678),
    };
    // Unedited: the kept stream, not a level-9 one, with the kept checksum.
    let mut with_checksum = original.clone();
    with_checksum[0x2EC..0x2F0].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    assert!(kept.write().unwrap() == with_checksum);

    // Edited: deflated afresh at the kept level, with the checksum of the new bytes.
    edit_first_tile(&mut kept);
    let edited = kept.write().unwrap();
    assert!(edited[HEADER_SIZE as usize..] != stream[..]);
    assert_eq!(&edited[HEADER_SIZE as usize..][..2], &[0x78, 0xDA]);
    let mut back = Wwd::read(&edited).unwrap();
    let src = back.source.take().unwrap();
    assert_eq!(src.stored_checksum, src.computed_checksum);
    assert!(back.planes == kept.planes);
}

#[test]
fn a_kept_stream_that_is_not_the_level_is_replaced() {
    let model = wwd::samples::gruntz_like();
    let fresh = written_at(&model, 6);
    for stream in [
        Vec::new(),
        vec![0x78, 0x9C],
        b"not a zlib stream at all".to_vec(),
        // A valid stream of another level: the right bytes for nothing here.
        fresh[HEADER_SIZE as usize..fresh.len() - 1].to_vec(),
        written_at(&wwd::samples::claw_like(), 6)[HEADER_SIZE as usize..].to_vec(),
    ] {
        let mut m = model.clone();
        m.compression = Deflate::Kept {
            level: 6,
            stream,
            checksum: Some(7),
        };
        let out = m
            .write_with(&wwd::WriteOptions {
                compress: Some(true),
                ..Default::default()
            })
            .unwrap();
        assert!(out == fresh);
    }
}

#[test]
fn kept_streams_are_base64_in_json() {
    let mut model = wwd::samples::gruntz_like();
    model.compression = Deflate::Kept {
        level: 5,
        stream: vec![0x78, 0x5E, 1, 2, 3],
        checksum: None,
    };
    let json = serde_json::to_value(&model).unwrap();
    assert_eq!(
        json["compression"],
        serde_json::json!({"kept": {"level": 5, "stream": "eF4BAgM="}})
    );
    let back: Wwd = serde_json::from_value(json).unwrap();
    assert!(back == model);
    // The default is left out.
    model.compression = Deflate::default();
    let json = serde_json::to_value(&model).unwrap();
    assert!(json.get("compression").is_none());
    model.compression = Deflate::Zlib { level: 9 };
    let json = serde_json::to_value(&model).unwrap();
    assert_eq!(
        json["compression"],
        serde_json::json!({"zlib": {"level": 9}})
    );
}

#[test]
fn reading_keeps_the_stream_and_settling_names_the_level() {
    let model = wwd::samples::claw_like();
    let with_c_zlib = cfg!(feature = "c-zlib");
    // (level written, level the header hints, level after an edit's `78 ..` header byte)
    for (level, hint, flg) in [(9u8, 9u8, 0xDAu8), (3, 5, 0x5E), (1, 1, 0x01), (6, 6, 0x9C)] {
        let bytes = written_at(&model, level);
        let read = Wwd::read(&bytes).unwrap();
        let Deflate::Original(original) = &read.compression else {
            panic!("level {level}: {:?}", read.compression);
        };
        assert_eq!(original.level(), hint, "level {level}");
        assert_eq!(read.compression.level(), hint);
        assert!(original.stream() == &bytes[HEADER_SIZE as usize..]);
        assert_eq!(original.checksum(), None);
        // Equal to what it settles to; not the default as it stands (its JSON keeps the
        // stream), but settled to it where level 6 reproduces the stream.
        let settles_to = read.compression.clone().settled();
        assert_eq!(read.compression, settles_to);
        assert!(!read.compression.is_default());
        assert_eq!(
            settles_to.is_default(),
            with_c_zlib && level == 6,
            "level {level}"
        );
        assert_ne!(read.compression, Deflate::Zlib { level: 0 });

        // Asking does not change the value: equality ignores whether the search has run.
        let again = Wwd::read(&bytes).unwrap();
        let found = original.reproducing_level();
        assert!(again == read);
        assert_eq!(found, with_c_zlib.then_some(level), "level {level}");

        // Settled, the model names the level (with reference zlib) or keeps the stream.
        let settled = read.compression.clone().settled();
        let expected = if with_c_zlib {
            Deflate::Zlib { level }
        } else {
            Deflate::Kept {
                level: hint,
                stream: bytes[HEADER_SIZE as usize..].to_vec(),
                checksum: None,
            }
        };
        assert_eq!(settled, expected, "level {level}");
        let mut settled_model = read.clone();
        assert_eq!(settled_model.settle_compression(), &expected);
        // The JSON form of the model as read keeps the stream, in every build (no search);
        // the settled model's names the level, and leaves out the default, level 6.
        let json = serde_json::to_value(&read).unwrap();
        assert!(json["compression"].get("kept").is_some(), "level {level}");
        let settled_json = serde_json::to_value(&settled_model).unwrap();
        assert_eq!(
            settled_json.get("compression").is_none(),
            with_c_zlib && level == 6,
            "level {level}"
        );
        let from_settled: Wwd = serde_json::from_value(settled_json).unwrap();
        assert!(from_settled == settled_model);
        assert!(from_settled.write().unwrap() == bytes);
        let back: Wwd = serde_json::from_value(json).unwrap();
        assert!(back == settled_model);
        assert!(back.write().unwrap() == bytes);

        // Edited: a fresh deflate at the hinted level, with the editor's checksum.
        let mut edited = read.clone();
        edit_first_tile(&mut edited);
        let out = edited.write().unwrap();
        assert_eq!(
            out[HEADER_SIZE as usize..][..2],
            [0x78, flg],
            "level {level}"
        );
        let mut reread = Wwd::read(&out).unwrap();
        let src = reread.source.take().unwrap();
        assert_eq!(src.stored_checksum, src.computed_checksum);
        assert!(reread.planes == edited.planes);
    }
}

#[test]
fn a_stream_no_fresh_deflate_gives_back_is_kept_unsearched() {
    let model = wwd::samples::gruntz_like();
    let fresh = written_at(&model, 6);
    // A checksum that is not the editor's: kept with it, whatever the level.
    let mut odd_sum = fresh.clone();
    odd_sum[0x2EC..0x2F0].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    // Bytes after the stream.
    let mut trailing = fresh.clone();
    trailing.extend_from_slice(b"tail");
    for (bytes, odd) in [(odd_sum, true), (trailing, false)] {
        let read = Wwd::read(&bytes).unwrap();
        let Deflate::Original(original) = &read.compression else {
            panic!("{:?}", read.compression);
        };
        assert_eq!(original.reproducing_level(), None);
        // The trailing bytes count in the editor's sum, so that file's is not the editor's either.
        let checksum = original.checksum();
        if odd {
            assert_eq!(checksum, Some(0x1234_5678));
        }
        assert_eq!(
            read.compression.clone().settled(),
            Deflate::Kept {
                level: 6,
                stream: bytes[HEADER_SIZE as usize..].to_vec(),
                checksum,
            }
        );
        assert!(read.write().unwrap() == bytes);
        let back: Wwd = serde_json::from_slice(&serde_json::to_vec(&read).unwrap()).unwrap();
        assert!(back.write().unwrap() == bytes);
    }
}

#[test]
fn an_original_stream_is_not_read_from_json() {
    let mut json = serde_json::to_value(wwd::samples::gruntz_like()).unwrap();
    json["compression"] = serde_json::json!({"original": {"level": 6, "stream": "eJw="}});
    assert!(serde_json::from_value::<Wwd>(json).is_err());
}
