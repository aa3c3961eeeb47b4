//! The tokens of a `.nw` line: words, integers, decimal numbers, and bytes shown in messages.
//! A leaf that the reader, the canonical writer and the model all use.

use crate::strings::RawString;

/// Tokens of a line: runs of bytes between spaces (several spaces count as one, as in
/// GServer's tokenizer; the writer's single spaces are the canonical form).
pub(crate) fn tokens(text: &[u8]) -> Vec<&[u8]> {
    text.split(|&b| b == b' ')
        .filter(|t| !t.is_empty())
        .collect()
}

/// A decimal integer: an optional sign and digits.
pub(crate) fn int(token: &[u8], what: &str) -> Result<i32, String> {
    let digits = token
        .strip_prefix(b"-")
        .or_else(|| token.strip_prefix(b"+"))
        .unwrap_or(token);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(format!("{what} {:?} is not an integer", show(token)));
    }
    std::str::from_utf8(token)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{what} {} is out of range", show(token)))
}

/// A decimal number: an optional sign, digits, and an optional fraction (`27.5`, `30`, `-1`,
/// `.5`). No exponents, no `inf` or `nan`: the old tools write none.
pub(crate) fn number(token: &[u8], what: &str) -> Result<f64, String> {
    let body = token
        .strip_prefix(b"-")
        .or_else(|| token.strip_prefix(b"+"))
        .unwrap_or(token);
    let (whole, fraction) = match body.iter().position(|&b| b == b'.') {
        Some(at) => {
            let (whole, fraction) = body.split_at(at);
            (whole, fraction.get(1..).unwrap_or(&[]))
        }
        None => (body, &[][..]),
    };
    let digits = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) {
        return Err(format!("{what} {:?} is not a number", show(token)));
    }
    std::str::from_utf8(token)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{what} {} is out of range", show(token)))
}

/// Bytes for a message: Windows-1252, at most 40 characters.
pub(crate) fn show(bytes: &[u8]) -> String {
    let text = RawString::from(bytes.get(..40).unwrap_or(bytes)).display();
    if bytes.len() > 40 {
        format!("{text}…")
    } else {
        text
    }
}
