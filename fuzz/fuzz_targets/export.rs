//! The export steps on anything that reads: the first byte picks a file name (so formats told by
//! their extension are reached), the rest is read as that file under strict limits, and a model
//! that reads is converted to every target it offers (Tiled maps and their tileset images,
//! PNG pictures, GIF/APNG animations, glTF/GLB/OBJ scenes, JSON) with no files around it. Every
//! conversion returns `Ok` or `Err`, never panics; libFuzzer's memory and time limits catch an
//! export step that grows without bound.

#![no_main]

use levelkit::Limits;
use levelkit::assets::NoAssets;
use levelkit::document::Model;
use levelkit::document::convert::{Options, convert};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 22] = [
    "x.wwd", "x.pid", "x.pcx", "x.pal", "x.ani", "x.gani", "x.graal", "x.zelda", "x.nw", "x.gmap",
    "x.wings", "x.mdl", "x.wmb", "x.hmp", "x.wmp", "x.wdb", "x.tmx", "x.tmj", "x.gltf", "x.obj",
    "x.rez", "x.wad",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let Ok(model) = Model::read_with(rest, Some(name), &Limits::strict(), &mut |_| None) else {
        return;
    };
    for target in model.targets() {
        let options = Options {
            output_name: Some(format!("out.{}", target.extension())),
            ..Options::default()
        };
        let _ = convert(&model, target, &options, &NoAssets);
    }
});
