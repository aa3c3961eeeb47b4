//! Any bytes: reading an ANI under strict limits returns `Ok` or `Err`, never panics; an
//! animation that reads also validates, summarises, dumps and becomes a common animation (all
//! images missing, so placeholders) without panicking, and writes exactly the bytes it was read
//! from (every word is kept), which read back to the same model.

#![no_main]

use levelkit::Limits;
use levelkit::formats::ani;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::strict();
    if let Ok(anim) = ani::read_with(data, &limits) {
        let _ = anim.validate();
        let _ = anim.summary();
        let _ = ani::to_animation_with(&anim, &mut |_| None, &limits);
        let bytes = anim.write().expect("an animation that reads writes");
        assert!(bytes == data, "write changed the bytes");
        let back = ani::read_with(&bytes, &limits).expect("written bytes read back");
        assert!(back == anim, "write then read changed the animation");
    }
});
