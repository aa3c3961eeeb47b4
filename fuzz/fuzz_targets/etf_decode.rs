//! Any bytes that decode as an external term: the term encodes, and its encoding decodes to the
//! same term and encodes to the same bytes again. Bytes that decode without the version byte
//! (`decode_term`) are held to the same rule.

#![no_main]

use levelkit::Limits;
use levelkit::etf::{self, External};
use libfuzzer_sys::fuzz_target;

fn check(first: &External) {
    let written = match etf::encode(first) {
        Ok(bytes) => bytes,
        Err(e) => panic!("decoded term does not encode: {e}"),
    };
    let second = match etf::decode(&written, &Limits::strict()) {
        Ok(ext) => ext,
        Err(e) => panic!("encoded term does not decode: {e}"),
    };
    assert_eq!(
        first, &second,
        "term changed on the way through encode and decode"
    );
    let again = etf::encode(&second).expect("re-encodes");
    assert_eq!(written, again, "encoding is not stable");
}

fuzz_target!(|data: &[u8]| {
    if let Ok(ext) = etf::decode(data, &Limits::strict()) {
        check(&ext);
    }
    if let Ok((term, used)) = etf::decode_term(data, &Limits::strict()) {
        assert!(used <= data.len());
        let mut bytes = Vec::new();
        etf::encode_term(&term, &mut bytes).expect("decoded term encodes");
        let (back, n) = etf::decode_term(&bytes, &Limits::strict()).expect("encoding decodes");
        assert_eq!(n, bytes.len());
        assert_eq!(back, term);
        // The Erlang printer must not panic on anything the decoder accepts.
        let _ = term.to_string();
    }
});
