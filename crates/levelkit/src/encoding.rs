//! Base64 for the text encodings the modern formats use (`data:` URIs in glTF, layer data in
//! Tiled maps), on the `base64` crate with the leniency real files need. Hex strings are the
//! `hex` crate's, used directly. The deflate of what levelkit writes into modern formats (PNG
//! images, Tiled layer data) is chosen here, the same in every build ([`png_encoder`]).

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

/// A PNG encoder for every PNG levelkit writes (level pictures, glTF and OBJ textures, APNG,
/// PID images); what it writes goes through [`png_deflated`] before it leaves the library.
///
/// Why: `png` deflates through `flate2`, whose backend Cargo unifies across the whole build: C
/// zlib in the CLI (the `c-zlib` feature, which the lossless WWD and Wings round trips need),
/// miniz_oxide in WebAssembly, so the same image had two encodings and the browser viewer's
/// downloads were not the CLI's. This encoder uses `png`'s own pure-Rust `fdeflate` (the same
/// in every build, with the adaptive row filters every level uses) as a fast first pass, and
/// [`png_deflated`] re-deflates the rows with miniz_oxide at level 6: fdeflate alone made tile
/// map pictures ten times larger than zlib (island.graal: 484 KB against 39 KB).
pub fn png_encoder<W: std::io::Write>(out: W, width: u32, height: u32) -> png::Encoder<'static, W> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_deflate_compression(png::DeflateCompression::FdeflateUltraFast);
    encoder.set_filter(png::Filter::Adaptive);
    encoder
}

/// The PNG (or APNG) [`png_encoder`] wrote, with every zlib stream in it (`IDAT`, `fdAT`,
/// `zTXt`) re-deflated by [`zlib_compress`]: the same bytes whichever backend `flate2` has. The
/// filtered rows and every other chunk are kept; a run of `IDAT` (or of one frame's `fdAT`)
/// chunks becomes one chunk, and later APNG sequence numbers are renumbered to match. Bytes
/// that are not such a PNG are given back unchanged.
pub fn png_deflated(png: Vec<u8>) -> Vec<u8> {
    redeflate(&png).unwrap_or(png)
}

const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

fn redeflate(png: &[u8]) -> Option<Vec<u8>> {
    let mut rest = png.strip_prefix(PNG_SIGNATURE)?;
    let mut chunks: Vec<([u8; 4], &[u8])> = Vec::new();
    while !rest.is_empty() {
        let len = usize::try_from(u32::from_be_bytes(rest.get(..4)?.try_into().ok()?)).ok()?;
        let kind: [u8; 4] = rest.get(4..8)?.try_into().ok()?;
        chunks.push((kind, rest.get(8..len.checked_add(8)?)?));
        rest = rest.get(len.checked_add(12)?..)?;
    }
    let mut out = Vec::with_capacity(png.len());
    out.extend_from_slice(PNG_SIGNATURE);
    // How many fdAT chunks were merged so far: later sequence numbers move down by as many.
    let mut merged: u32 = 0;
    let renumber = |data: &[u8], merged: u32| -> Option<Vec<u8>> {
        let seq = u32::from_be_bytes(data.get(..4)?.try_into().ok()?).checked_sub(merged)?;
        let mut d = seq.to_be_bytes().to_vec();
        d.extend_from_slice(data.get(4..)?);
        Some(d)
    };
    let mut i = 0;
    while let Some(&(kind, data)) = chunks.get(i) {
        match &kind {
            b"IDAT" | b"fdAT" => {
                let frame = &kind == b"fdAT";
                let run = chunks
                    .get(i..)?
                    .iter()
                    .take_while(|(k, _)| *k == kind)
                    .count();
                let mut stream = Vec::new();
                for (_, d) in chunks.get(i..i.checked_add(run)?)? {
                    stream.extend_from_slice(if frame { d.get(4..)? } else { d });
                }
                let rows = miniz_oxide::inflate::decompress_to_vec_zlib(&stream).ok()?;
                let mut body = if frame {
                    renumber(data.get(..4)?, merged)?
                } else {
                    Vec::new()
                };
                body.extend_from_slice(&zlib_compress(&rows));
                write_png_chunk(&mut out, kind, &body)?;
                if frame {
                    merged = merged.checked_add(u32::try_from(run.checked_sub(1)?).ok()?)?;
                }
                i = i.checked_add(run)?;
                continue;
            }
            b"fcTL" => write_png_chunk(&mut out, kind, &renumber(data, merged)?)?,
            b"zTXt" => {
                // keyword, NUL, compression method 0, zlib stream
                let nul = data.iter().position(|&b| b == 0)?;
                let head = data.get(..nul.checked_add(2)?)?;
                let text =
                    miniz_oxide::inflate::decompress_to_vec_zlib(data.get(nul.checked_add(2)?..)?)
                        .ok()?;
                let mut body = head.to_vec();
                body.extend_from_slice(&zlib_compress(&text));
                write_png_chunk(&mut out, kind, &body)?;
            }
            _ => write_png_chunk(&mut out, kind, data)?,
        }
        i = i.checked_add(1)?;
    }
    Some(out)
}

fn write_png_chunk(out: &mut Vec<u8>, kind: [u8; 4], data: &[u8]) -> Option<()> {
    out.extend_from_slice(&u32::try_from(data.len()).ok()?.to_be_bytes());
    out.extend_from_slice(&kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
    Some(())
}

/// `bytes` as a zlib stream (level 6) deflated by miniz_oxide directly, for what levelkit
/// compresses in modern formats (Tiled's `base64`+`zlib` layer data): the same bytes whichever
/// backend `flate2` was built with (see [`png_encoder`]).
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
