//! Any bytes, as TMX and as TMJ: reading never panics. A map that reads exports again to both
//! TMX and TMJ without panicking (the writer may refuse what it cannot store, such as a control
//! character in TMX), and whatever the writer produces reads back. The map is also converted to
//! each level format (WWD, `.graal`, `.nw`): that may fail with an error, never panic, and a level
//! that converts writes or fails cleanly.

#![no_main]

use levelkit::tiled::{TiledMap, from_tmj, from_tmx};
use levelkit::tiled::{to_tmj, to_tmx};
use libfuzzer_sys::fuzz_target;

fn check(read: levelkit::Result<TiledMap>) {
    let Ok(first) = read else {
        return;
    };
    if let Ok((level, _)) = levelkit::formats::wwd::from_tilemap(&first.map) {
        let _ = level.write();
    }
    if let Ok((level, _)) = levelkit::formats::graal::tilemap::tilemap_to_graal(&first.map) {
        let _ = level.write();
    }
    if let Ok((level, _)) = levelkit::formats::graal::nw::tilemap_to_nw(&first.map) {
        let _ = level.write();
    }
    if let Ok(bytes) = to_tmx(&first.map, &first.options) {
        if let Err(e) = from_tmx(&bytes) {
            panic!("a TMX map the writer wrote does not read back: {e}");
        }
    }
    if let Ok(bytes) = to_tmj(&first.map, &first.options) {
        if let Err(e) = from_tmj(&bytes) {
            panic!("a TMJ map the writer wrote does not read back: {e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(from_tmx(data));
    check(from_tmj(data));
});
