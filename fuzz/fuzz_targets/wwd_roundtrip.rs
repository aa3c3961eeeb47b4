//! Any bytes that read as a level: if the level writes, the written bytes read back to the same
//! model (apart from `source`, which records what the original file's derived fields held).

#![no_main]

use levelkit::Limits;
use levelkit::formats::wwd;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut first) = wwd::read_with(data, &Limits::strict()) else {
        return;
    };
    let Ok(written) = first.write() else {
        return;
    };
    let mut second = match wwd::read_with(&written, &Limits::strict()) {
        Ok(level) => level,
        Err(e) => panic!("written level does not read back: {e}"),
    };
    first.source = None;
    second.source = None;
    assert_eq!(
        first, second,
        "model changed on the way through write and read"
    );
});
