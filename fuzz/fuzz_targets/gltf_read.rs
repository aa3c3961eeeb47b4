//! Any bytes as a `.gltf`/`.glb` (side files never found): reading returns `Ok` or `Err`, never
//! panics; a scene that reads validates, exports to GLB and OBJ, and converts to a `.wings` or
//! is refused with an error, all without panicking.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wings::Wings;
use levelkit::{gltf, obj};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((scene, _)) = levelkit::gltf::read_with_limits(data, &mut |_| None, &Limits::strict())
    else {
        return;
    };
    let _ = scene.validate();
    let _ = gltf::write(&scene, &gltf::GltfOptions::default());
    let _ = obj::write(&scene, &obj::ObjOptions::default());
    if let Ok((w, _)) = Wings::from_scene(&scene) {
        let bytes = w.write().expect("a model built from a scene writes");
        Wings::read(&bytes).expect("written bytes read back");
    }
});
