//! Base64 for the text encodings the modern formats use (`data:` URIs in glTF, layer data in
//! Tiled maps), on the `base64` crate with the leniency real files need. Hex strings are the
//! `hex` crate's, used directly. The deflate of what levelkit writes into modern formats (PNG
//! images, Tiled layer data) is chosen here, the same in every build: [`encode_png`] is the one
//! PNG encoder.

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Standard base64 (RFC 4648, `+/`) that decodes text without padding and ignores the unused
/// low bits of a last partial group, as Tiled and glTF readers do.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// Standard base64 with padding.
pub fn base64_encode(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Standard base64, padding optional, ASCII whitespace anywhere ignored (Tiled indents the
/// text of `<data>`). The error names the first character (counted in `text`) that is not
/// base64 or comes after the padding, or says the text ends inside a byte.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut clean = Vec::with_capacity(text.len());
    let mut padded = false;
    for (i, b) in text.bytes().enumerate() {
        if b.is_ascii_whitespace() {
            continue;
        }
        if b == b'=' {
            padded = true;
            continue;
        }
        if padded {
            return Err(format!("character {i} comes after the padding"));
        }
        if !(b.is_ascii_alphanumeric() || b == b'+' || b == b'/') {
            return Err(format!(
                "character {i} is {:?}, which is not base64",
                char::from(b)
            ));
        }
        clean.push(b);
    }
    if clean.len() % 4 == 1 {
        return Err("the text ends in the middle of a byte".into());
    }
    LENIENT.decode(&clean).map_err(|e| e.to_string())
}

/// Standard or URL-safe base64 as `data:` URIs hold it: whitespace is skipped, the text ends at
/// the first `=`, and a last lone character (six bits, no whole byte) is ignored. `None` on any
/// other character.
pub fn base64_decode_uri(text: &str) -> Option<Vec<u8>> {
    let mut clean = Vec::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'-' => clean.push(b'+'),
            b'_' => clean.push(b'/'),
            b'+' | b'/' => clean.push(b),
            _ if b.is_ascii_alphanumeric() => clean.push(b),
            _ => return None,
        }
    }
    if clean.len() % 4 == 1 {
        clean.pop();
    }
    LENIENT.decode(&clean).ok()
}

mod png_write;

pub use png_write::{ApngFrame, PngColor, PngImage, encode_apng, encode_png, encode_texture};

/// [`encode_texture`] of each image, in order: on all cores where there are threads (one
/// image's bytes never depend on how many, or on which image went first), one after the other
/// in WebAssembly. `None` gives `None`.
pub fn encode_pngs(images: &[Option<PngImage<'_>>]) -> Vec<Option<Result<Vec<u8>, String>>> {
    let encode = |image: &Option<PngImage<'_>>| image.as_ref().map(encode_texture);
    #[cfg(not(target_arch = "wasm32"))]
    if images.iter().flatten().nth(1).is_some() {
        use rayon::prelude::*;
        return images.par_iter().map(encode).collect();
    }
    images.iter().map(encode).collect()
}

/// A PNG as 8-bit pixels, rows top-down: `(width, height, channels, pixels)`; palettes
/// expanded, 16-bit samples stripped, at most 64 MiB of pixels. What a scene's PNG textures
/// become when a format stores pixels (Wings images, MDL skins).
pub fn decode_png(data: &[u8]) -> std::result::Result<(u32, u32, u8, Vec<u8>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("bad PNG: {e}"))?;
    let size = reader
        .output_buffer_size()
        .ok_or("PNG too large to decode")?;
    // The PNG's own header gives the size; cap it so a tiny file cannot ask for gigabytes.
    if size > 64 * 1024 * 1024 {
        return Err(format!("PNG of {size} bytes decoded is too large"));
    }
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("bad PNG: {e}"))?;
    buf.truncate(info.buffer_size());
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("indexed PNG was not expanded".into()),
    };
    Ok((info.width, info.height, channels, buf))
}

/// `bytes` as a zlib stream (level 6) deflated by miniz_oxide directly, for what levelkit
/// compresses in modern formats (Tiled's `base64`+`zlib` layer data): the same bytes whichever
/// backend `flate2` was built with (as [`encode_png`]'s zlib-rs). Kept at miniz_oxide level 6:
/// Tiled layer data is small, and changing it would change every written map.
pub fn zlib_compress(bytes: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(bytes, 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors_both_ways() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(plain.as_bytes()), coded);
            assert_eq!(base64_decode(coded).as_deref(), Ok(plain.as_bytes()));
            assert_eq!(base64_decode_uri(coded).as_deref(), Some(plain.as_bytes()));
        }
    }

    #[test]
    fn leniency_and_errors() {
        assert_eq!(
            base64_decode(" Zm9v\n  YmE\t").as_deref(),
            Ok(&b"fooba"[..])
        );
        assert_eq!(
            base64_decode("Zm9v!"),
            Err("character 4 is '!', which is not base64".to_string())
        );
        assert_eq!(
            base64_decode("Zg==Zg"),
            Err("character 4 comes after the padding".to_string())
        );
        assert_eq!(
            base64_decode("Z"),
            Err("the text ends in the middle of a byte".to_string())
        );
        assert_eq!(base64_decode_uri("-_8").as_deref(), Some(&[0xfb, 0xff][..]));
        assert_eq!(base64_decode_uri("Z").as_deref(), Some(&[][..]));
        assert_eq!(base64_decode_uri("Z*"), None);
    }
}
