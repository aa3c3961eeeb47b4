//! The bundled `samples/` and `tests/fixtures/wwd/` files are made by our own writers. This test
//! regenerates each one from its recipe and checks the committed bytes are identical
//! (`BLESS=1 cargo test -p levelkit --test fixtures` rewrites them), then checks what reading each
//! one must give.

use std::path::{Path, PathBuf};

use levelkit::ErrorKind;
use levelkit::formats::wwd::{self, WriteOptions, samples};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn plain(level: &wwd::Wwd) -> Vec<u8> {
    level
        .write_with(&WriteOptions {
            compress: Some(false),
            ..WriteOptions::default()
        })
        .unwrap()
}

fn patch(mut bytes: Vec<u8>, at: usize, v: u32) -> Vec<u8> {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
    bytes
}

fn tp_offset(bytes: &[u8]) -> usize {
    u32::from_le_bytes(bytes[0x2E4..0x2E8].try_into().unwrap()) as usize
}

/// What reading a fixture must give.
enum Expect {
    /// Reads; validation has exactly this many findings, and one mentions the text (if any).
    Valid(usize, &'static str),
    /// Fails with this kind and a message containing the text.
    Fails(ErrorKind, &'static str),
    /// A Graal binary level that reads, validates clean and round-trips.
    Graal,
    /// A Graal text level that reads, validates clean and round-trips.
    Nw,
    /// A Graal animation that reads, validates clean and round-trips.
    Gani,
    /// A Wings 3D model that reads, validates clean and round-trips.
    Wings,
    /// Any other format (told by its name): reads, validates clean and round-trips.
    Model,
    /// Not a format levelkit reads (a sample's texture): the bytes are the recipe's.
    Bytes,
}

/// (path under the repository, recipe, expectation). The recipes are the documentation of how
/// each file was made; tests/fixtures/wwd/README.md repeats them in prose.
fn fixtures() -> Vec<(&'static str, Vec<u8>, Expect)> {
    let gruntz = plain(&samples::gruntz_like());
    let plane1 = 1524 + 160;
    let mut trailing = gruntz.clone();
    trailing.extend_from_slice(b"trailing metadata");
    let mut dirty = samples::gruntz_like();
    dirty.header.name = wwd::SlotString {
        text: "Rocky".into(),
        after_nul: Some(levelkit::strings::RawString({
            let mut v = b"old level name".to_vec();
            v.resize(64 - 6, 0);
            v
        })),
    };
    let compressed = samples::claw_like().write().unwrap();
    let tp = tp_offset(&gruntz);
    let (room, _) = levelkit::formats::wmp::text::WmpText::from_level(
        &levelkit::formats::wmp::samples::room(),
        levelkit::formats::wmp::text::Dialect::V710,
    )
    .unwrap();
    // The world's textures, beside it. (A test may leak its few path strings.)
    // The overworld's levels, beside it.
    let (_, levels) = levelkit::formats::graal::gmap::samples::world("overworld", 2, 2, &[(1, 1)]);
    let overworld_levels = levels.into_iter().map(|(name, level)| {
        let path: &'static str = Box::leak(format!("samples/{name}").into_boxed_str());
        (path, level.write().unwrap(), Expect::Nw)
    });
    let textures = levelkit::formats::wdb::samples::WORLD_TEXTURES.map(|name| {
        let path: &'static str = Box::leak(format!("samples/{name}").into_boxed_str());
        let bytes = levelkit::formats::wdb::samples::texture_gif(name);
        (path, bytes, Expect::Bytes)
    });
    let mut files = vec![
        ("samples/room.wmp", room.write().unwrap(), Expect::Model),
        (
            "samples/brick.bmp",
            levelkit::formats::wdb::samples::texture_bmp("brick.bmp"),
            Expect::Bytes,
        ),
        (
            "samples/quad.wmb",
            levelkit::formats::wmb::samples::quad_level()
                .write()
                .unwrap(),
            Expect::Model,
        ),
        (
            "samples/world.wdb",
            levelkit::formats::wdb::samples::world().write().unwrap(),
            Expect::Model,
        ),
        (
            "samples/pyramid.mdl",
            levelkit::formats::mdl::samples::mdl3_pyramid()
                .write()
                .unwrap(),
            Expect::Model,
        ),
        (
            "samples/claw-like.wwd",
            samples::claw_like().write().unwrap(),
            Expect::Valid(0, ""),
        ),
        (
            // The game files claw-like.wwd names, generated (wwd::game_sample).
            "samples/claw.rez",
            wwd::game_sample::rez_for(&samples::claw_like()).unwrap(),
            Expect::Model,
        ),
        (
            "samples/gruntz-like.wwd",
            gruntz.clone(),
            Expect::Valid(0, ""),
        ),
        (
            "samples/island.graal",
            levelkit::formats::graal::binary::samples::graal()
                .write()
                .unwrap(),
            Expect::Graal,
        ),
        (
            "samples/village.nw",
            levelkit::formats::graal::nw::samples::village()
                .write()
                .unwrap(),
            Expect::Nw,
        ),
        (
            "samples/walk.gani",
            levelkit::formats::graal::gani::samples::walk_like()
                .write()
                .unwrap(),
            Expect::Gani,
        ),
        (
            "samples/overworld.gmap",
            levelkit::formats::graal::gmap::samples::gmap("overworld", 2, 2, &[(1, 1)])
                .write()
                .unwrap(),
            Expect::Model,
        ),
        (
            "samples/cube.wings",
            levelkit::formats::wings::samples::cube()
                .unwrap()
                .write()
                .unwrap(),
            Expect::Wings,
        ),
        (
            "tests/fixtures/wwd/good/trailing-bytes.wwd",
            // With the editor's checksum, which covers the trailing bytes too (a level read
            // and written again keeps the checksum it had).
            {
                let sum = wwd::checksum(&trailing[1524..], None);
                let fixed = patch(trailing.clone(), 0x2EC, sum);
                assert_eq!(wwd::read(&fixed).unwrap().write().unwrap(), fixed);
                fixed
            },
            Expect::Valid(1, "does not end at the end of the file"),
        ),
        (
            "tests/fixtures/wwd/good/dirty-name-slot.wwd",
            plain(&dirty),
            Expect::Valid(0, ""),
        ),
        (
            "tests/fixtures/wwd/bad/bad-header-size.wwd",
            patch(gruntz.clone(), 0, 0xADBA),
            Expect::Fails(ErrorKind::Malformed, "header-size field"),
        ),
        (
            "tests/fixtures/wwd/bad/truncated-tile-grid.wwd",
            gruntz[..1524 + 320 + 200].to_vec(),
            Expect::Fails(ErrorKind::Truncated, "tile grid"),
        ),
        (
            "tests/fixtures/wwd/bad/huge-object-count.wwd",
            patch(gruntz.clone(), plane1 + 0x80, 0xFFFF_FFF0),
            Expect::Fails(ErrorKind::LimitExceeded, "object count 4294967280"),
        ),
        (
            "tests/fixtures/wwd/bad/unknown-tile-type.wwd",
            patch(gruntz.clone(), tp + 32, 7),
            Expect::Fails(ErrorKind::Unsupported, "type is 7"),
        ),
        (
            "tests/fixtures/wwd/bad/plane-header-size.wwd",
            patch(gruntz, 1524, 0x90),
            Expect::Fails(ErrorKind::Malformed, "plane header size"),
        ),
        (
            "tests/fixtures/wwd/bad/zlib-cut-short.wwd",
            compressed[..compressed.len() - 100].to_vec(),
            Expect::Fails(ErrorKind::Truncated, "zlib"),
        ),
    ];
    files.extend(textures);
    // The pictures and the model the samples name, so that the main job finds every file.
    let graal = levelkit::formats::graal::sample_images::npc_images()
        .into_iter()
        .chain(levelkit::formats::graal::sample_images::walk_images());
    for (name, bytes) in graal {
        let path: &'static str = Box::leak(format!("samples/{name}").into_boxed_str());
        files.push((path, bytes, Expect::Bytes));
    }
    files.push((
        "samples/crate.mdl",
        levelkit::formats::mdl::samples::mdl3_crate()
            .write()
            .unwrap(),
        Expect::Model,
    ));
    files.extend(overworld_levels);
    files
}

#[test]
fn fixtures_match_their_recipes_and_read_as_expected() {
    let bless = std::env::var_os("BLESS").is_some();
    for (path, bytes, expect) in fixtures() {
        let file = root().join(path);
        if bless {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&file)
            .unwrap_or_else(|e| panic!("{path}: {e} (run with BLESS=1 to create it)"));
        assert!(
            on_disk == bytes,
            "{path} differs from its recipe (BLESS=1 regenerates it)"
        );
        if let Expect::Bytes = expect {
            continue;
        }
        if let Expect::Graal = expect {
            let level = levelkit::formats::graal::binary::read(&on_disk).unwrap();
            assert_eq!(level.validate(), vec![], "{path}");
            assert!(level.write().unwrap() == on_disk, "{path}: round trip");
            continue;
        }
        if let Expect::Gani = expect {
            let anim = levelkit::formats::graal::gani::read(&on_disk).unwrap();
            assert_eq!(anim.validate(), vec![], "{path}");
            assert!(anim.write().unwrap() == on_disk, "{path}: round trip");
            continue;
        }
        if let Expect::Wings = expect {
            let model = levelkit::formats::wings::read(&on_disk).unwrap();
            assert_eq!(model.validate(), vec![], "{path}");
            assert!(model.write().unwrap() == on_disk, "{path}: round trip");
            continue;
        }
        if let Expect::Model = expect {
            let model =
                levelkit::document::Model::read(&on_disk, Some(path), &levelkit::Limits::default())
                    .unwrap();
            assert_eq!(model.validate(), vec![], "{path}");
            assert!(model.write().unwrap() == on_disk, "{path}: round trip");
            continue;
        }
        if let Expect::Nw = expect {
            let level = levelkit::formats::graal::nw::read(&on_disk).unwrap();
            assert_eq!(level.validate(), vec![], "{path}");
            assert!(level.write().unwrap() == on_disk, "{path}: round trip");
            continue;
        }
        match (wwd::read(&on_disk), expect) {
            (Ok(level), Expect::Valid(n, text)) => {
                let findings = level.validate();
                assert_eq!(findings.len(), n, "{path}: {findings:?}");
                assert!(
                    text.is_empty() || findings.iter().any(|f| f.message.contains(text)),
                    "{path}: {findings:?}"
                );
                let out = level.write().unwrap();
                if level.is_compressed() {
                    assert_eq!(wwd::read(&out).unwrap().planes, level.planes, "{path}");
                } else {
                    assert!(out == on_disk, "{path}: round trip differs");
                }
            }
            (Err(e), Expect::Fails(kind, text)) => {
                assert_eq!(e.kind, kind, "{path}: {e}");
                assert!(e.to_string().contains(text), "{path}: {e}");
            }
            (Ok(_), Expect::Fails(..)) => panic!("{path}: accepted"),
            (
                _,
                Expect::Graal
                | Expect::Nw
                | Expect::Gani
                | Expect::Wings
                | Expect::Model
                | Expect::Bytes,
            ) => {
                unreachable!()
            }
            (Err(e), Expect::Valid(..)) => panic!("{path}: {e}"),
        }
    }
}
