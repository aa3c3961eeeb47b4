//! Seed the fuzz corpora from the sample builders: `cargo run --bin seed` writes small Claw-like
//! and Gruntz-like levels, compressed and uncompressed, into `corpus/<target>/` for every target.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use levelkit::formats::wwd::{self, WriteOptions};

const TARGETS: [&str; 2] = ["wwd_read", "wwd_roundtrip"];

fn main() -> ExitCode {
    match run() {
        Ok(n) => {
            println!("wrote {n} seeds per target");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("seed: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<usize, Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let levels = [
        ("claw_like", wwd::samples::claw_like()),
        ("gruntz_like", wwd::samples::gruntz_like()),
        ("claw_small", wwd::samples::claw_like_sized(8, 6, 3)),
    ];
    let mut seeds = Vec::new();
    for (name, level) in &levels {
        for (suffix, compress) in [("plain", false), ("zlib", true)] {
            let options = WriteOptions {
                compress: Some(compress),
                ..WriteOptions::default()
            };
            seeds.push((format!("{name}_{suffix}.wwd"), level.write_with(&options)?));
        }
    }
    for target in TARGETS {
        let dir: PathBuf = root.join(target);
        std::fs::create_dir_all(&dir)?;
        for (file, bytes) in &seeds {
            std::fs::write(dir.join(file), bytes)?;
        }
    }
    let graal = levelkit::formats::graal::binary::samples::graal();
    let nw_from_graal = levelkit::formats::graal::nw::from_level(&graal.to_level().0).0;
    let overworld = levelkit::formats::graal::gmap::samples::gmap("w", 3, 2, &[(1, 0)]);
    let others: [(&str, &str, Vec<u8>); 7] = [
        ("gmap_read", "w.gmap", overworld.write()?),
        (
            "gmap_read",
            "forms.gmap",
            b"WIDTH 2\r\nHEIGHT 1\nMAPIMG m.png\nLOADFULLMAP\n\nLEVELNAMES\n\"a, b.nw\" , c.nw,\n\
              LEVELNAMESEND \r\nLOADATSTART\na.nw\nLOADATSTARTEND\nX y"
                .to_vec(),
        ),
        (
            "gmap_world",
            "w.world",
            levelkit::document::world::World::from_gmap(&overworld).to_json(&mut |_| true)?,
        ),
        (
            "gani_read",
            "walk.gani",
            levelkit::formats::graal::gani::samples::walk_like().write()?,
        ),
        ("graal_read", "island.graal", graal.write()?),
        (
            "nw_read",
            "village.nw",
            levelkit::formats::graal::nw::samples::village().write()?,
        ),
        ("nw_read", "island.nw", nw_from_graal.write()?),
    ];
    for (target, file, bytes) in others {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(file), bytes)?;
    }
    // Tiled maps of small levels of every family, as TMX and TMJ.
    use levelkit::tiled::{LayerEncoding, TiledOptions, to_tmj, to_tmx};
    let dir = root.join("tiled_read");
    std::fs::create_dir_all(&dir)?;
    let maps = [
        (
            "claw_small",
            wwd::samples::claw_like_sized(8, 6, 3).to_tilemap().0,
        ),
        ("island", graal.to_tilemap().0),
        (
            "village",
            levelkit::formats::graal::nw::samples::village()
                .to_tilemap()
                .0,
        ),
    ];
    for (name, map) in &maps {
        for (enc, encoding) in [
            ("csv", LayerEncoding::Csv),
            ("zlib", LayerEncoding::Base64Zlib),
        ] {
            let options = TiledOptions {
                encoding,
                ..TiledOptions::default()
            };
            std::fs::write(
                dir.join(format!("{name}_{enc}.tmx")),
                to_tmx(map, &options)?,
            )?;
            std::fs::write(
                dir.join(format!("{name}_{enc}.tmj")),
                to_tmj(map, &options)?,
            )?;
        }
    }
    // 3D: the sample model as GLB, embedded .gltf and OBJ.
    let (scene, _) = levelkit::formats::wings::samples::cube()?.to_scene();
    let glb = levelkit::gltf::write(&scene, &levelkit::gltf::GltfOptions::default())?;
    let gltf = levelkit::gltf::write(
        &scene,
        &levelkit::gltf::GltfOptions {
            binary: false,
            ..levelkit::gltf::GltfOptions::default()
        },
    )?;
    let obj = levelkit::obj::write(&scene, &levelkit::obj::ObjOptions::default())?;
    for (target, file, bytes) in [
        ("gltf_read", "cube.glb", glb.main),
        ("gltf_read", "cube.gltf", gltf.main),
        ("obj_read", "cube.obj", obj.main),
    ] {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(file), bytes)?;
    }
    // 3D GameStudio and V-Chat: the sample level as v710 text and compiled to $$M, a small
    // WMPB built by the binary module's samples, and generated worlds.
    use levelkit::formats::wmp;
    let room = wmp::samples::room();
    let (v710, _) = wmp::text::WmpText::from_level(&room, wmp::text::Dialect::V710)?;
    let (dollar_m, _) = wmp::compile(&room)?;
    let mut more: Vec<(&str, String, Vec<u8>)> = vec![
        ("wmp_text_read", "room.wmp".into(), v710.write()?),
        ("wmp_text_read", "room.$$M".into(), dollar_m.write()?),
        (
            "wdb_read",
            "world.wdb".into(),
            levelkit::formats::wdb::samples::world().write()?,
        ),
    ];
    more.push((
        "wmpb_read",
        "level.wmp".into(),
        wmp::binary::samples::level().write()?,
    ));
    more.push((
        "wmb",
        "quad.wmb".into(),
        levelkit::formats::wmb::samples::quad_level().write()?,
    ));
    more.push((
        "wmb",
        "square.wmb".into(),
        levelkit::formats::wmb::samples::square_level().write()?,
    ));
    for seed in 0..8u64 {
        more.push((
            "wdb_read",
            format!("generated{seed}.wdb"),
            levelkit::formats::wdb::samples::generate(seed, 4 + seed as usize * 3).write()?,
        ));
    }
    more.push((
        "rez_read",
        "sample.rez".into(),
        levelkit::formats::rez::samples::sample().write()?,
    ));
    let mut small = levelkit::formats::rez::Builder::new();
    small
        .add("A/B.PID", b"pid".to_vec())?
        .add("C", Vec::new())?;
    more.push(("rez_read", "small.rez".into(), small.finish()?.write()?));
    use levelkit::formats::hmp::{HmpVersion, samples::terrain};
    for (v, version) in [HmpVersion::Hmp4, HmpVersion::Hmp5, HmpVersion::Hmp7]
        .into_iter()
        .enumerate()
    {
        more.push((
            "hmp_read",
            format!("terrain{v}.hmp"),
            terrain(version, 5, 4).write()?,
        ));
    }
    for (target, file, bytes) in more {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(file), bytes)?;
    }
    Ok(seeds.len())
}
