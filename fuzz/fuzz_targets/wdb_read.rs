//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics; a world that reads
//! also validates (without errors), summarises and converts to a scene (and back) without
//! panicking, writes exactly the bytes it was read from (every field is kept: floats as their
//! bits, NaN included; the bytes after the last node as trailing bytes), which read back to the
//! same world, and its JSON form gives the same bytes back. Every error says where.

#![no_main]

use levelkit::document::Model;
use levelkit::formats::wdb::{self, Wdb};
use levelkit::{Limits, Severity};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match wdb::read_with(data, &Limits::strict()) {
        Ok(world) => {
            let findings = world.validate();
            // What the reader makes, the writer takes: validation has no error for it.
            assert!(
                findings.iter().all(|f| f.severity != Severity::Error),
                "a world that reads has validation errors: {findings:?}"
            );
            let _ = world.summary();
            let _ = world.tree();
            let (scene, _) = world.to_scene();
            let _ = Wdb::from_scene(&scene);
            let bytes = world.write().expect("a world that reads writes");
            assert!(bytes == data, "write changed the bytes");
            let back = wdb::read_with(&bytes, &Limits::strict()).expect("written bytes read back");
            // (Compared as bytes: a NaN is not equal to itself.)
            assert!(
                back.write().expect("written again") == bytes,
                "write then read changed the world"
            );
            let json = Model::Wdb(world)
                .to_json()
                .expect("a world has a JSON form");
            let again = Model::from_json(&json).expect("the JSON form reads back");
            assert!(
                again.write().ok().as_deref() == Some(data),
                "JSON changed the world"
            );
        }
        Err(e) => {
            // Every error says where.
            assert!(
                e.location.offset.is_some(),
                "an error without an offset: {e}"
            );
        }
    }
});
