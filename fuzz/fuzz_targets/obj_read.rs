//! Any bytes as an `.obj` (no MTL found): reading returns `Ok` or `Err`, never panics; a scene
//! that reads validates, exports to OBJ and GLB, and converts to a `.wings` or is refused with
//! an error, all without panicking.

#![no_main]

use levelkit::formats::wings::Wings;
use levelkit::{gltf, obj};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((scene, _)) = levelkit::obj::read(data, &mut |_| None) else {
        return;
    };
    let _ = scene.validate();
    let _ = obj::write(&scene, &obj::ObjOptions::default());
    let _ = gltf::write(&scene, &gltf::GltfOptions::default());
    if let Ok((w, _)) = Wings::from_scene(&scene) {
        let bytes = w.write().expect("a model built from a scene writes");
        Wings::read(&bytes).expect("written bytes read back");
    }
});
