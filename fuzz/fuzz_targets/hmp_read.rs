//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics; a terrain that
//! reads also validates, summarises, dumps and converts to a scene without panicking, and writes
//! exactly the bytes it was read from, which read back to the same terrain.

#![no_main]

use levelkit::Limits;
use levelkit::formats::hmp::{self, Hmp};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(terrain) = Hmp::read_with(data, &Limits::strict()) {
        let _ = terrain.validate();
        let _ = terrain.summary();
        let (scene, _) = hmp::to_scene(&terrain);
        let _ = scene.validate();
        let bytes = terrain.write().expect("a terrain that reads writes");
        assert!(bytes == data, "write changed the bytes");
        let back = Hmp::read_with(&bytes, &Limits::strict()).expect("written bytes read back");
        // Compare bytes, not models: a NaN in a header float is not equal to itself.
        assert!(
            back.write().ok() == Some(bytes),
            "write then read changed the terrain"
        );
    }
});
