//! Any bytes as a Tiled `.world` file: reading returns `Ok` or `Err`, never panics, and a world
//! that reads gives a gmap that writes (or refuses to with an error) and reads back.

#![no_main]

use levelkit::document::world::World;
use levelkit::formats::graal::gmap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((world, _)) = World::from_json(data) else {
        return;
    };
    if let Ok(bytes) = world.gmap.write() {
        if let Err(e) = gmap::read(&bytes) {
            panic!("a gmap written from a world does not read back: {e}");
        }
    }
});
