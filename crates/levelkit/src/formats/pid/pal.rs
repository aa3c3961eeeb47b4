//! PAL: a 256-colour palette, 768 bytes of red, green, blue and nothing else (Captain Claw's
//! level palettes, Gruntz's `.PAL` tables; the same 768 bytes end a PID with an embedded
//! palette and a 256-colour PCX).
//!
//! Sources: OpenClaw `libwap/PalFile.cpp` (exactly 768 bytes, no header; it makes entry 0
//! transparent), sushi-shi/gruntz-decomp `tools/gruntz-codec/src/pal.rs` (exactly 768 bytes,
//! 0..255 components). Both agree. Components are kept as stored: a palette whose components
//! are all below 64 looks like 6-bit VGA data, which validation points out but nothing scales.
//! RIFF (`RIFF….PAL data`) and JASC text palettes also use `.pal`; they are refused with a
//! message saying so.
//!
//! ```
//! use levelkit::formats::pid::pal::Palette;
//!
//! let palette = Palette::from_fn(|i| [i, i, 255 - i]);
//! let bytes = palette.write();
//! assert_eq!(bytes.len(), 768);
//! assert_eq!(Palette::read(&bytes)?, palette);
//! assert_eq!(palette.color(2), [2, 2, 253]);
//! # Ok::<(), levelkit::Error>(())
//! ```

use std::fmt::Write as _;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::codec::{Codec, Resolver, info_row};
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;

/// Bytes of a palette: 256 × RGB.
pub const PALETTE_SIZE: usize = 768;

/// 256 RGB colours. In JSON, 256 `"rrggbb"` strings.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Palette(pub [[u8; 3]; 256]);

impl Default for Palette {
    /// A grey ramp: entry `i` is `(i, i, i)`.
    fn default() -> Self {
        Palette::from_fn(|i| [i, i, i])
    }
}

impl std::fmt::Debug for Palette {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Palette(")?;
        for c in self.0.iter().take(4) {
            write!(f, "{:02x}{:02x}{:02x} ", c[0], c[1], c[2])?;
        }
        write!(f, "…)")
    }
}

impl Palette {
    /// A palette whose entry `i` is `color(i)`.
    pub fn from_fn(mut color: impl FnMut(u8) -> [u8; 3]) -> Palette {
        let mut colors = [[0u8; 3]; 256];
        for (i, slot) in (0..=255u8).zip(colors.iter_mut()) {
            *slot = color(i);
        }
        Palette(colors)
    }

    /// The palette in 768 bytes (RGB triples). `None` unless exactly 768 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Option<Palette> {
        if bytes.len() != PALETTE_SIZE {
            return None;
        }
        let mut colors = [[0u8; 3]; 256];
        for (slot, rgb) in colors.iter_mut().zip(bytes.chunks_exact(3)) {
            slot.copy_from_slice(rgb);
        }
        Some(Palette(colors))
    }

    /// The colour of entry `index`.
    pub fn color(&self, index: u8) -> [u8; 3] {
        self.0.get(usize::from(index)).copied().unwrap_or_default()
    }

    /// The first entry with exactly this colour.
    pub fn find(&self, rgb: [u8; 3]) -> Option<u8> {
        self.0
            .iter()
            .position(|&c| c == rgb)
            .and_then(|i| u8::try_from(i).ok())
    }

    /// The 768 bytes of the palette.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flatten().copied().collect()
    }

    /// Read a `.PAL` file: exactly 768 bytes.
    pub fn read(bytes: &[u8]) -> Result<Palette> {
        Palette::from_bytes(bytes).ok_or_else(|| {
            let (kind, hint) = if bytes.starts_with(b"RIFF") {
                (
                    ErrorKind::Unsupported,
                    "; this is a RIFF palette (Microsoft PAL), not the games' raw palette",
                )
            } else if bytes.starts_with(b"JASC-PAL") {
                (
                    ErrorKind::Unsupported,
                    "; this is a JASC (Paint Shop Pro) text palette, not the games' raw palette",
                )
            } else if bytes.len() < PALETTE_SIZE {
                (ErrorKind::Truncated, "")
            } else {
                (ErrorKind::Malformed, "")
            };
            Error::new(
                Format::Pal,
                kind,
                Location::at(bytes.len().min(PALETTE_SIZE) as u64),
                format!(
                    "a palette is exactly {PALETTE_SIZE} bytes (256 RGB colours), this file has {}{hint}",
                    bytes.len()
                ),
            )
        })
    }

    /// The `.PAL` bytes.
    pub fn write(&self) -> Vec<u8> {
        self.to_bytes()
    }

    /// True when no component is above 63: 6-bit VGA DAC values rather than 8-bit colours.
    pub fn looks_six_bit(&self) -> bool {
        self.0.iter().flatten().all(|&c| c < 64) && self.0.iter().flatten().any(|&c| c > 0)
    }

    /// Findings: a palette cannot be invalid, but a 6-bit one drawn as 8-bit comes out dark.
    pub fn validate(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        if self.looks_six_bit() {
            out.push(Warning::warning(
                Format::Pal,
                Location::default(),
                "every component is below 64: this looks like a 6-bit VGA palette, which draws \
                 very dark when read as 8-bit colours (kept as stored)",
            ));
        }
        out
    }

    /// The summary `levelkit info` prints.
    pub fn summary(&self) -> PaletteSummary {
        let mut distinct: Vec<[u8; 3]> = self.0.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        PaletteSummary {
            colors: 256,
            distinct: distinct.len(),
            first: hex_color(self.color(0)),
            last: hex_color(self.color(255)),
            six_bit: self.looks_six_bit(),
        }
    }

    /// The text dump: 16 rows of 16 `rrggbb` entries.
    pub fn dump_rows(&self, indent: &str) -> String {
        let mut s = String::new();
        for (row, chunk) in self.0.chunks(16).enumerate() {
            let _ = write!(s, "{indent}{:3}:", row * 16);
            for &c in chunk {
                let _ = write!(s, " {}", hex_color(c));
            }
            s.push('\n');
        }
        s
    }
}

/// `rrggbb`.
pub fn hex_color(c: [u8; 3]) -> String {
    format!("{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

fn parse_hex_color(s: &str) -> Option<[u8; 3]> {
    let s = s.strip_prefix('#').unwrap_or(s);
    if s.len() != 6 || !s.is_ascii() {
        return None;
    }
    let part = |i: usize| s.get(i..i + 2).and_then(|p| u8::from_str_radix(p, 16).ok());
    Some([part(0)?, part(2)?, part(4)?])
}

/// What `levelkit info` shows of a palette.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaletteSummary {
    /// Always 256.
    pub colors: usize,
    /// Different colours among them.
    pub distinct: usize,
    /// Entry 0, `rrggbb`.
    pub first: String,
    /// Entry 255, `rrggbb`.
    pub last: String,
    /// Every component below 64 (6-bit VGA values).
    pub six_bit: bool,
}

impl Serialize for Palette {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(256))?;
        for &c in &self.0 {
            seq.serialize_element(&hex_color(c))?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Palette {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Palette, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Palette;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("256 colours as \"rrggbb\" strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Palette, A::Error> {
                let mut colors = [[0u8; 3]; 256];
                for (i, slot) in colors.iter_mut().enumerate() {
                    let text: String = seq
                        .next_element()?
                        .ok_or_else(|| de::Error::invalid_length(i, &self))?;
                    *slot = parse_hex_color(&text).ok_or_else(|| {
                        de::Error::custom(format!("colour {i}: {text:?} is not \"rrggbb\""))
                    })?;
                }
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom("a palette has exactly 256 colours"));
                }
                Ok(Palette(colors))
            }
        }
        d.deserialize_seq(V)
    }
}

impl Codec for Palette {
    fn format(&self) -> Format {
        Format::Pal
    }

    fn read(_: Format, bytes: &[u8], _: &Limits, _: Resolver<'_>) -> Result<Self> {
        Palette::read(bytes)
    }

    fn write(&self) -> Result<Vec<u8>> {
        Ok(Palette::write(self))
    }

    fn validate(&self) -> Vec<Warning> {
        Palette::validate(self)
    }

    fn summary(&self) -> serde_json::Value {
        crate::codec::summary_value(Palette::summary(self))
    }

    fn version(&self) -> String {
        "raw 768-byte palette".to_owned()
    }

    fn dump(&self, name: &str) -> String {
        let s = self.summary();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{name}: pal palette, 256 colours ({} distinct)",
            s.distinct
        );
        out.push_str(&self.dump_rows("  "));
        out
    }

    fn info_text(&self) -> String {
        let s = self.summary();
        let mut out = String::new();
        info_row(&mut out, "format", "pal, raw 768-byte palette");
        info_row(
            &mut out,
            "colors",
            format_args!("256 ({} distinct)", s.distinct),
        );
        info_row(
            &mut out,
            "first, last",
            format_args!("{} {}", s.first, s.last),
        );
        if s.six_bit {
            info_row(&mut out, "note", "6-bit VGA values (all below 64)");
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn json_is_256_hex_strings_and_back() {
        let p = Palette::from_fn(|i| [i, 255 - i, i / 2]);
        let json = serde_json::to_string(&p).unwrap();
        assert!(json.starts_with("[\"00ff00\",\"01fe00\""), "{json}");
        assert_eq!(serde_json::from_str::<Palette>(&json).unwrap(), p);
        assert!(serde_json::from_str::<Palette>("[\"000000\"]").is_err());
        let long = format!("{},\"000000\"]", json.trim_end_matches(']'));
        assert!(serde_json::from_str::<Palette>(&long).is_err());
    }

    #[test]
    fn wrong_sizes_are_refused_with_the_reason() {
        let e = Palette::read(&[0; 767]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Truncated);
        let e = Palette::read(b"RIFF\0\0\0\0PAL data").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported);
        assert!(e.message.contains("RIFF"), "{e}");
        assert_eq!(
            Palette::read(&[0; 769]).unwrap_err().kind,
            ErrorKind::Malformed
        );
    }

    #[test]
    fn six_bit_palettes_are_pointed_out() {
        assert!(Palette::from_fn(|i| [i % 64, 0, 0]).looks_six_bit());
        assert!(!Palette::default().looks_six_bit());
        assert_eq!(Palette::from_fn(|i| [i % 64, 0, 0]).validate().len(), 1);
    }
}
