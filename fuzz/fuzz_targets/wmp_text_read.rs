//! Any bytes: reading a text level or `$$M` under strict limits returns `Ok` or `Err`, never
//! panics; an `Err` says where (line and column). A level that reads validates, summarises and
//! converts to the shared level model without panicking, writes back to the very bytes it was
//! read from, and those bytes read back to the same model. When the level
//! converts without warnings, the file `from_level` builds for it (v710 or `$$M`) writes, and
//! reads back to the same level.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wmp::text::{self, Dialect, WmpText};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let first = match text::read_with(data, &Limits::strict()) {
        Ok(model) => model,
        Err(e) => {
            assert!(
                e.location.line_col.is_some() || data.starts_with(b"WMPB"),
                "an error without a line and column: {e}"
            );
            return;
        }
    };
    let _ = first.validate();
    let _ = first.summary();
    let _ = first.planes();
    let (level, warnings) = first.to_level();
    let written = match first.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("a level that reads does not write: {e}"),
    };
    assert_eq!(written, data, "not written back byte for byte");
    let second = match text::read_with(&written, &Limits::strict()) {
        Ok(model) => model,
        Err(e) => panic!("written level does not read back: {e}"),
    };
    assert_eq!(
        first, second,
        "model changed on the way through write and read"
    );

    let target = match first.dialect() {
        Dialect::DollarM => Dialect::DollarM,
        Dialect::V710 => Dialect::V710,
        Dialect::A4 | Dialect::V510 => return,
    };
    if !warnings.is_empty() {
        return;
    }
    let Ok((rebuilt, lost)) = WmpText::from_level(&level, target) else {
        return;
    };
    let bytes = match rebuilt.write() {
        Ok(bytes) => bytes,
        Err(e) => panic!("from_level built a file that does not write: {e}"),
    };
    let again = match text::read_with(&bytes, &Limits::strict()) {
        Ok(model) => model,
        Err(e) => panic!("from_level's file does not read back: {e}"),
    };
    assert_eq!(again, rebuilt, "from_level's file reads back differently");
    let _ = lost;
});
