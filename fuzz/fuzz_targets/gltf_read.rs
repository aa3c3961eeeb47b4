//! Any bytes as a `.gltf`/`.glb` (side files never found): reading returns `Ok` or `Err`, never
//! panics; a scene that reads validates, exports to GLB and OBJ, and converts to a `.wings`
//! and to an MDL7 and an MDL5 (skins, morph targets and animations included) or is refused
//! with an error,
//! all without panicking; what the converters make writes and reads back as itself.

#![no_main]

use levelkit::Limits;
use levelkit::formats::mdl::{Mdl, TargetVersion};
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
    for version in [TargetVersion::Mdl7, TargetVersion::Mdl5] {
        if let Ok((m, _)) = Mdl::from_scene_as(&scene, version) {
            let bytes = m.write().expect("a model built from a scene writes");
            let back = Mdl::read(&bytes).expect("written bytes read back");
            let again = back.write().expect("a model read back writes");
            assert!(
                again == bytes,
                "an MDL written from a scene reads back as itself"
            );
        }
    }
});
