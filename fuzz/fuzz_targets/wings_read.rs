//! Any bytes: reading under strict limits returns `Ok` or `Err`, never panics; a model that reads
//! also validates, walks its faces and summarises without panicking, and writes bytes that read
//! back to a model writing the same bytes.

#![no_main]

use levelkit::Limits;
use levelkit::formats::wings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = wings::read_with(data, &Limits::strict()) {
        let _ = model.validate();
        let _ = model.summary();
        if let Some(doc) = model.document() {
            for shape in &doc.shapes {
                let _ = shape.to_polygons();
            }
        }
        let bytes = model.write().expect("a model that reads writes");
        let back = wings::read_with(&bytes, &Limits::strict()).expect("written bytes read back");
        // Bytes, not models: a float term may be a NaN, which is not equal to itself.
        assert!(
            back.write().ok() == Some(bytes),
            "write then read changed the model"
        );
    }
});
