//! Any bytes: reading a WMB under strict limits returns `Ok` or `Err`, never panics; a level
//! that reads also validates, summarises, dumps and becomes a scene without panicking (every
//! typed view runs), and writes exactly the bytes it was read from, which read back to the same
//! model.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wmb;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::strict();
    if let Ok(level) = wmb::read_with(data, &limits) {
        let _ = level.validate();
        let _ = level.summary();
        let _ = wmb::dump::dump(&level, "fuzz");
        let _ = wmb::to_scene(&level);
        let bytes = level.write().expect("a level that reads writes");
        assert!(bytes == data, "write changed the bytes");
        let back = wmb::read_with(&bytes, &limits).expect("written bytes read back");
        assert!(back == level, "write then read changed the level");
    }
});
