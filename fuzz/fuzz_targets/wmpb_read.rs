//! Any bytes: reading WMPB under strict limits returns `Ok` or `Err`, never panics. A file that
//! reads writes back byte for byte and reads back to the same model; it also validates,
//! summarises, converts to the shared level and resolves without panicking.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wmp::{binary, resolve};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(first) = binary::read_with(data, &Limits::strict()) else {
        return;
    };
    let written = match first.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("a model that read does not write: {e}"),
    };
    assert!(written == data, "written bytes differ from the input");
    let second = match binary::read_with(&written, &Limits::strict()) {
        Ok(model) => model,
        Err(e) => panic!("written file does not read back: {e}"),
    };
    assert!(
        first == second,
        "model changed on the way through write and read"
    );
    let _ = first.validate();
    let _ = first.summary();
    let (level, _) = first.to_level();
    let _ = resolve::resolve(&level);
});
