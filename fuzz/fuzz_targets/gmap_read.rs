//! Any bytes: reading a `.gmap` under strict limits returns `Ok` or `Err`, never panics. Whatever
//! reads is writable (validation has no "cannot write" finding), writes back to exactly the
//! input bytes, reads back to an equal model, and survives the Tiled world trip: the world's
//! JSON reads back to the same world and the same gmap bytes.

#![no_main]

use levelkit::document::world::World;
use levelkit::formats::graal::gmap;
use levelkit::{Limits, Severity};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(map) = gmap::read_with(data, &Limits::strict()) else {
        return;
    };
    let findings = map.validate();
    if let Some(f) = findings
        .iter()
        .find(|f| f.severity == Severity::Error && f.message.starts_with("cannot write"))
    {
        panic!("a model read from a file is not writable: {f}");
    }
    let _ = map.summary();
    let _ = map.validate_levels(&mut |name| name.len() % 2 == 0);
    let written = match map.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("a model read from a file does not write: {e}"),
    };
    assert!(written == data, "write(read(x)) differs from x");
    let again = match gmap::read_with(&written, &Limits::strict()) {
        Ok(model) => model,
        Err(e) => panic!("written gmap does not read back: {e}"),
    };
    assert_eq!(
        map, again,
        "model changed on the way through write and read"
    );
    let world = World::from_gmap(&map);
    let json = match world.to_json(&mut |_| true) {
        Ok(json) => json,
        Err(e) => panic!("the world does not write: {e}"),
    };
    let (back, _) = match World::from_json(&json) {
        Ok(back) => back,
        Err(e) => panic!("the world's JSON does not read back: {e}"),
    };
    assert_eq!(back, world, "the world changed through its JSON");
});
