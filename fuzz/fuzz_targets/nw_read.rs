//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics. A level that
//! reads validates and converts to the Graal level model without panicking, writes back to the
//! very bytes it was read from, and those bytes read back to the same model. The level built
//! back from the Graal model writes, and reads back to itself.

#![no_main]

use levelkit::Limits;
use levelkit::formats::graal::nw;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(first) = nw::read_with(data, &Limits::strict()) else {
        return;
    };
    let _ = first.validate();
    let _ = first.summary();
    let (level, _) = first.to_level();
    let written = match first.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("a level that reads does not write: {e}"),
    };
    assert_eq!(written, data, "not written back byte for byte");
    let second = match nw::read_with(&written, &Limits::strict()) {
        Ok(level) => level,
        Err(e) => panic!("written level does not read back: {e}"),
    };
    assert_eq!(
        first, second,
        "model changed on the way through write and read"
    );
    let (rebuilt, warnings) = nw::Nw::from_level(&level);
    let bytes = match rebuilt.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("from_level built a level that does not write: {e}"),
    };
    if warnings.is_empty() {
        let again = nw::read_with(&bytes, &Limits::strict()).map(|n| n.to_level().0);
        assert_eq!(
            again.ok(),
            Some(level),
            "Level -> nw -> Level changed the level"
        );
    }
});
