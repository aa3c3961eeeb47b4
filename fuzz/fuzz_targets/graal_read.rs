//! Any bytes: reading a binary Graal level never panics; whatever reads validates, converts to a
//! level meaning and back, and writes back to exactly the bytes it came from (the reader keeps
//! every byte's meaning, so the round trip is byte for byte). Every link of the meaning (its
//! destination words as written) survives a level rebuilt from it, in the file's own version.

#![no_main]

use levelkit::Limits;
use levelkit::formats::graal::binary as graal;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(level) = graal::read_with(data, &Limits::strict()) else {
        return;
    };
    let _ = level.validate();
    let (meaning, _) = level.to_level();
    let (rebuilt, _) = graal::from_level(&meaning);
    if let Ok(bytes) = rebuilt.write() {
        assert!(
            graal::read(&bytes).is_ok(),
            "a level built from a meaning does not read"
        );
    }
    let (same_version, _) = graal::from_level_as(&meaning, Some(level.version));
    let (again, _) = same_version.to_level();
    assert!(
        again.links == meaning.links,
        "a rebuilt level changed its links"
    );
    match level.write() {
        Ok(bytes) => assert!(bytes == data, "round trip changed the bytes"),
        Err(e) => panic!("a level that was read does not write: {e}"),
    }
});
