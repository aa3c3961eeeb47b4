//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics. Whatever reads
//! validates without an error-severity finding (a model read from a file is always writable),
//! writes back to exactly the input bytes, and those bytes read back to an equal model: nothing
//! is ignored in the comparison, because the reader and the writer are byte-exact mirrors.

#![no_main]

use levelkit::formats::graal::gani;
use levelkit::{Limits, Severity};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(anim) = gani::read_with(data, &Limits::strict()) else {
        return;
    };
    let findings = anim.validate();
    if let Some(f) = findings.iter().find(|f| f.severity == Severity::Error) {
        panic!("a model read from a file has an error finding: {f}");
    }
    let _ = anim.summary();
    let _ = anim.frame_durations_ms();
    let written = match anim.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("a model read from a file does not write: {e}"),
    };
    assert!(written == data, "write(read(x)) differs from x");
    let again = match gani::read_with(&written, &Limits::strict()) {
        Ok(model) => model,
        Err(e) => panic!("written animation does not read back: {e}"),
    };
    assert_eq!(
        anim, again,
        "model changed on the way through write and read"
    );
});
