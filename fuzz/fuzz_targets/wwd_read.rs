//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics; a level that reads
//! also validates and converts to the common tile map without panicking.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wwd;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(level) = wwd::read_with(data, &Limits::strict()) {
        let _ = level.validate();
        let _ = level.to_tilemap();
    }
});
