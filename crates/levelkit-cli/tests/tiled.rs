//! `levelkit tiled`: installing the Tiled extension, opening levels into the cache the
//! extension loads them from, and the object types for Tiled's property editor. (The extension
//! itself, in Tiled: `tiled/tests/test_tiled.py`, run by CI.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Run;
use serde_json::Value;

/// Run `levelkit` in `dir` with a home of its own and `env` set.
fn run(dir: &Path, home: &Path, env: &[(&str, &Path)], args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_levelkit"));
    cmd.args(args).current_dir(dir).env("HOME", home);
    for var in ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "LEVELKIT_TILED_CACHE"] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn extension() -> Vec<u8> {
    std::fs::read(common::root().join("tiled/levelkit.js")).unwrap()
}

#[test]
fn install_puts_the_extension_in_tileds_folder_and_never_clobbers_another() {
    let tmp = common::tempdir();
    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let r = run(tmp.path(), &home, &[], &["tiled", "install", "--json"]);
    common::ok(&r);
    let report: Value = serde_json::from_slice(&r.stdout).unwrap();
    let path = home.join(".config/tiled/extensions/levelkit.js");
    assert_eq!(report["installed"], path.display().to_string());
    assert_eq!(report["changed"], true);
    assert_eq!(std::fs::read(&path).unwrap(), extension());

    let r = run(tmp.path(), &home, &[], &["tiled", "install"]);
    common::ok(&r);
    assert!(r.stderr.contains("already installed"), "{r:?}");

    // A user's own edit of the file is kept unless --force.
    std::fs::write(&path, b"// mine\n").unwrap();
    let r = run(tmp.path(), &home, &[], &["tiled", "install"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("--force"), "{r:?}");
    assert_eq!(std::fs::read(&path).unwrap(), b"// mine\n");
    common::ok(&run(
        tmp.path(),
        &home,
        &[],
        &["tiled", "install", "--force"],
    ));
    assert_eq!(std::fs::read(&path).unwrap(), extension());

    // $XDG_CONFIG_HOME and --dir.
    let config = tmp.path().join("config");
    common::ok(&run(
        tmp.path(),
        &home,
        &[("XDG_CONFIG_HOME", &config)],
        &["tiled", "install"],
    ));
    assert!(config.join("tiled/extensions/levelkit.js").is_file());
    common::ok(&run(
        tmp.path(),
        &home,
        &[],
        &["tiled", "install", "--dir", "elsewhere"],
    ));
    assert!(tmp.path().join("elsewhere/levelkit.js").is_file());
}

/// The extension asks for a levelkit no newer than this one and registers the four formats.
#[test]
fn the_extension_needs_this_levelkit_and_names_every_level_format() {
    let text = String::from_utf8(extension()).unwrap();
    let needs = text
        .split("var NEEDS = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("NEEDS in levelkit.js");
    let needs: Vec<u32> = needs
        .split(',')
        .map(|n| n.trim().parse().unwrap())
        .collect();
    let have: Vec<u32> = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(
        needs <= have,
        "the extension needs {needs:?}, levelkit is {have:?}"
    );
    for format in ["wwd", "graal", "zelda", "nw"] {
        assert!(
            text.contains(&format!("tiled.registerMapFormat(\"{format}\"")),
            "{format}"
        );
    }
}

fn open(dir: &Path, home: &Path, cache: &Path, level: &Path) -> (Run, Value) {
    let r = run(
        dir,
        home,
        &[("LEVELKIT_TILED_CACHE", cache)],
        &["tiled", "open", level.to_str().unwrap(), "--json"],
    );
    let report = serde_json::from_slice(&r.stdout).unwrap_or(Value::Null);
    (r, report)
}

#[test]
fn open_writes_the_map_in_the_cache_with_tilesets_written_once() {
    let tmp = common::tempdir();
    let home = tmp.path().to_path_buf();
    let cache = tmp.path().join("cache");
    let level = common::samples().join("claw-like.wwd");
    let (r, report) = open(tmp.path(), &home, &cache, &level);
    common::ok(&r);
    let map = PathBuf::from(report["map"].as_str().unwrap());
    assert_eq!(report["cache"], cache.display().to_string());
    assert_eq!(report["format"], "wwd");
    assert_eq!(map.file_name().unwrap(), "claw-like.tmx");
    let key = map.parent().unwrap();
    assert_eq!(key.parent().unwrap(), cache.join("maps"));
    assert_eq!(key.file_name().unwrap().len(), 16);
    let text = std::fs::read_to_string(&map).unwrap();
    assert!(text.contains("source=\"../../tilesets/"), "shared tilesets");
    let tilesets: Vec<_> = std::fs::read_dir(cache.join("tilesets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(tilesets.iter().any(|p| p.extension().unwrap() == "tsx"));
    let stamps: Vec<_> = tilesets
        .iter()
        .map(|p| p.metadata().unwrap().modified().unwrap())
        .collect();

    // Opened again: the same map, the tilesets left as they were.
    let (r, again) = open(tmp.path(), &home, &cache, &level);
    common::ok(&r);
    assert_eq!(again["map"], report["map"]);
    let after: Vec<_> = tilesets
        .iter()
        .map(|p| p.metadata().unwrap().modified().unwrap())
        .collect();
    assert_eq!(stamps, after);

    // The map is the level: back to the same bytes.
    let back = tmp.path().join("back.wwd");
    common::ok(&run(
        tmp.path(),
        &home,
        &[],
        &["convert", map.to_str().unwrap(), back.to_str().unwrap()],
    ));
    assert_eq!(std::fs::read(back).unwrap(), std::fs::read(&level).unwrap());

    // A level of the same name elsewhere gets a map of its own.
    let copy = tmp.path().join("other");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(&level, copy.join("claw-like.wwd")).unwrap();
    let (r, other) = open(tmp.path(), &home, &cache, &copy.join("claw-like.wwd"));
    common::ok(&r);
    assert_ne!(other["map"], report["map"]);

    // Graal levels too.
    for name in ["island.graal", "village.nw"] {
        let (r, report) = open(tmp.path(), &home, &cache, &common::samples().join(name));
        common::ok(&r);
        assert!(report["map"].as_str().unwrap().ends_with(".tmx"), "{name}");
    }
}

#[test]
fn open_refuses_what_is_not_a_level() {
    let tmp = common::tempdir();
    let cache = tmp.path().join("cache");
    let (r, _) = open(
        tmp.path(),
        tmp.path(),
        &cache,
        &common::samples().join("crate.mdl"),
    );
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not a level"), "{r:?}");
    let (r, _) = open(tmp.path(), tmp.path(), &cache, &tmp.path().join("gone.wwd"));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("gone.wwd"), "{r:?}");
}

#[test]
fn cache_follows_the_environment() {
    let tmp = common::tempdir();
    let home = tmp.path().join("h");
    let (xdg, own) = (tmp.path().join("xdg"), tmp.path().join("own"));
    let cases: [(&[(&str, &Path)], PathBuf); 3] = [
        (&[], home.join(".cache/levelkit/tiled")),
        (&[("XDG_CACHE_HOME", &xdg)], xdg.join("levelkit/tiled")),
        (&[("LEVELKIT_TILED_CACHE", &own)], own.clone()),
    ];
    for (env, expected) in cases {
        let r = run(tmp.path(), &home, env, &["tiled", "cache"]);
        common::ok(&r);
        assert_eq!(r.out().trim(), expected.display().to_string(), "{env:?}");
    }
}

#[test]
fn types_write_a_project_with_every_logic_and_keep_the_users_own() {
    let tmp = common::tempdir();
    let project = tmp.path().join("p/levels.tiled-project");
    std::fs::create_dir(tmp.path().join("p")).unwrap();
    std::fs::write(
        &project,
        r#"{"folders": ["maps"], "propertyTypes": [{"id": 3, "name": "Mine", "type": "enum", "values": ["a"]}]}"#,
    )
    .unwrap();
    // A level with a logic of its own.
    let mut level = levelkit::formats::wwd::samples::claw_like();
    let main = level.planes.iter().position(|p| p.is_main()).unwrap();
    level.planes[main].objects[0].logic = levelkit::strings::RawString::from("HomeMadeLogic");
    let levels = tmp.path().join("levels");
    std::fs::create_dir(&levels).unwrap();
    std::fs::write(levels.join("mine.wwd"), level.write().unwrap()).unwrap();
    std::fs::write(levels.join("notes.txt"), b"not a level").unwrap();
    // A link back to the folder is not followed (it would never end).
    #[cfg(unix)]
    std::os::unix::fs::symlink(&levels, levels.join("loop")).unwrap();
    let types_from = |levels: &Path| {
        let args = ["tiled", "types", project.to_str().unwrap(), "--levels"];
        let levels = levels.to_str().unwrap();
        run(
            tmp.path(),
            tmp.path(),
            &[],
            &[&args[..], &[levels]].concat(),
        )
    };
    common::ok(&types_from(&levels));
    let data: Value = serde_json::from_slice(&std::fs::read(&project).unwrap()).unwrap();
    assert_eq!(data["folders"], serde_json::json!(["maps"]));
    assert_eq!(data["objectTypesFile"], "levelkit-objecttypes.xml");
    let types = data["propertyTypes"].as_array().unwrap();
    let names: Vec<&str> = types.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for name in ["Mine", "link", "chest", "TreasurePowerup", "HomeMadeLogic"] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    let xml = std::fs::read_to_string(tmp.path().join("p/levelkit-objecttypes.xml")).unwrap();
    assert!(xml.contains("<objecttype name=\"HomeMadeLogic\""));
    assert!(xml.contains("<property name=\"score\" type=\"int\" default=\"0\"/>"));

    // A file named that is not a WWD level is an error.
    let r = types_from(&common::samples().join("island.graal"));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("not a WWD level"), "{r:?}");
}
