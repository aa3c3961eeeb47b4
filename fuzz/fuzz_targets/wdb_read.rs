//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics; a world that reads
//! also validates, summarises and converts to a scene (and back) without panicking, writes
//! exactly the bytes it was read from, and its JSON form gives the same bytes back.

#![no_main]

use levelkit::Limits;
use levelkit::document::Model;
use levelkit::formats::wdb::{self, Wdb};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(world) = wdb::read_with(data, &Limits::strict()) {
        let _ = world.validate();
        let _ = world.summary();
        let (scene, _) = world.to_scene();
        let _ = Wdb::from_scene(&scene);
        let bytes = world.write().expect("a world that reads writes");
        // Every field is kept (floats as their bits, NaN included), so the bytes are the input's.
        assert!(bytes == data, "write changed the bytes");
        // NaN is not equal to itself: compare the JSON form's bytes instead of the models.
        let model = Model::Wdb(world);
        let json = model.to_json().expect("a world has a JSON form");
        let back = Model::from_json(&json).expect("the JSON form reads back");
        assert!(back.write().ok().as_deref() == Some(data), "JSON changed the world");
    }
});
