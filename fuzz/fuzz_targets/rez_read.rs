//! Any bytes: indexing and reading a REZ archive under strict limits returns `Ok` or `Err`,
//! never panics; the index and the owned model agree on what they accept; every indexed file's
//! data is inside the input; an archive that reads validates, dumps and writes exactly the
//! bytes it was read from, which read back to the same model.

#![no_main]

use levelkit::Limits;
use levelkit::formats::rez::{Rez, RezIndex};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::strict();
    let index = RezIndex::read_with(data, &limits);
    if let Ok(index) = &index {
        for (path, file) in index.files() {
            assert!(index.data(file).is_ok(), "indexed data outside the input");
            let _ = index.find(&path);
        }
        let _ = index.validate();
        let _ = index.summary();
    }
    if let Ok(rez) = Rez::read_with(data, &limits) {
        assert!(index.is_ok(), "the model reads what the index refuses");
        let _ = rez.validate();
        let _ = rez.dump("fuzz");
        let bytes = rez.write().expect("an archive that reads writes");
        assert!(bytes == data, "write changed the bytes");
        let back = Rez::read_with(&bytes, &limits).expect("written bytes read back");
        assert!(back == rez, "write then read changed the model");
        let _ = rez.repack().map(|r| r.write());
    }
});
