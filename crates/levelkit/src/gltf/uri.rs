//! URIs in glTF files: `data:` URIs, percent-encoding of relative file references, the
//! scheme test, and the image type sniffed from its bytes; what both the writer and the reader
//! need.

use crate::encoding::base64_decode_uri;

/// The image type by its bytes: `image/png` or `image/jpeg`.
pub(super) fn sniff_image(data: &[u8]) -> Option<&'static str> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if data.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else {
        None
    }
}

/// Percent-encode every byte outside RFC 3986's unreserved set and `/`.
pub(super) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Whether `text` starts with a URI scheme (`http:`, `data:`, …; one letter is a drive).
pub(super) fn has_scheme(text: &str) -> bool {
    let Some(colon) = text.find(':') else {
        return false;
    };
    let scheme = &text[..colon];
    scheme.len() >= 2
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// A texture file reference as a URI: a URI as it is, a path with `/` separators and
/// percent-encoded.
pub(super) fn file_uri(path: &str) -> String {
    if has_scheme(path) {
        path.to_owned()
    } else {
        percent_encode(&path.replace('\\', "/"))
    }
}

pub(super) fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
}

/// The media type and bytes of a `data:` URI (`data:[<type>][;base64],<data>`).
pub(super) fn decode_data_uri(uri: &str) -> Option<(String, Vec<u8>)> {
    let rest = uri.get(5..)?;
    let comma = rest.find(',')?;
    let (header, data) = (rest.get(..comma)?, rest.get(comma.checked_add(1)?..)?);
    let (mime, base64) = match header.strip_suffix(";base64") {
        Some(m) => (m, true),
        None => (header, false),
    };
    let mime = mime.split(';').next().unwrap_or_default().to_owned();
    let bytes = if base64 {
        base64_decode_uri(data)?
    } else {
        percent_decode_bytes(data)
    };
    Some((mime, bytes))
}

pub(super) fn percent_decode_bytes(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |k: usize| bytes.get(k).and_then(|&c| char::from(c).to_digit(16));
        match (b, hex(i.wrapping_add(1)), hex(i.wrapping_add(2))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h.wrapping_mul(16).wrapping_add(l)) as u8);
                i = i.saturating_add(3);
            }
            _ => {
                out.push(b);
                i = i.saturating_add(1);
            }
        }
    }
    out
}

/// A relative URI reference as a path: `%XX` decoded.
pub(super) fn percent_decode(text: &str) -> String {
    String::from_utf8_lossy(&percent_decode_bytes(text)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_uri_and_percent() {
        let (mime, data) = decode_data_uri("data:image/png;base64,Zm9v").unwrap_or_default();
        assert_eq!((mime.as_str(), data.as_slice()), ("image/png", &b"foo"[..]));
        let (mime, data) = decode_data_uri("data:,a%20b").unwrap_or_default();
        assert_eq!((mime.as_str(), data.as_slice()), ("", &b"a b"[..]));
        assert_eq!(percent_decode("my%20file%zz.bin"), "my file%zz.bin");
    }
}
