//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics; a world that reads
//! also validates, summarises and converts to a scene (and back) without panicking, and writes
//! exactly the bytes it was read from, which read back to the same world.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wdb::{self, Wdb};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(world) = wdb::read_with(data, &Limits::strict()) {
        let _ = world.validate();
        let _ = world.summary();
        let (scene, _) = world.to_scene();
        let _ = Wdb::from_scene(&scene);
        let bytes = world.write().expect("a world that reads writes");
        // Every field is kept and every float is finite, so the bytes are the input's.
        assert!(bytes == data, "write changed the bytes");
        let back = wdb::read_with(&bytes, &Limits::strict()).expect("written bytes read back");
        assert!(back == world, "write then read changed the world");
    }
});
