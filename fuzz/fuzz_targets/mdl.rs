//! Any bytes: reading an MDL (any version) under strict limits returns `Ok` or `Err`, never
//! panics; a model that reads also validates, summarises and becomes a scene (and a `.glb`)
//! without panicking, and writes exactly the bytes it was read from, which read back to a
//! model that writes them again; its scene written as an MDL7 and an MDL5 (or refused) reads
//! back as what was written.

#![no_main]

use levelkit::Limits;
use levelkit::formats::mdl::{self, Mdl, TargetVersion};
use levelkit::gltf::{self, GltfOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::strict();
    if let Ok(model) = Mdl::read_with(data, &limits) {
        let _ = model.validate();
        let _ = model.summary();
        let (scene, _) = mdl::scene::to_scene(&model);
        let _ = gltf::write(&scene, &GltfOptions::default());
        for version in [TargetVersion::Mdl7, TargetVersion::Mdl5] {
            if let Ok((m, _)) = Mdl::from_scene_as(&scene, version) {
                let written = m.write().expect("a model built from a scene writes");
                let back = Mdl::read(&written).expect("written bytes read back");
                assert!(
                    back.write().ok() == Some(written),
                    "an MDL written from a scene reads back as itself"
                );
            }
        }
        let bytes = model.write().expect("a model that reads writes");
        assert!(bytes == data, "write changed the bytes");
        // Compared as bytes: floats that are NaN are equal bits but not equal values.
        let back = Mdl::read_with(&bytes, &limits).expect("written bytes read back");
        assert!(
            back.write().ok() == Some(bytes),
            "write then read changed the model"
        );
    }
});
