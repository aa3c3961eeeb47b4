//! The lossless model of a binary Graal level: the header, each board's decoded tiles (plus the
//! original packet stream when our encoder would not reproduce it), and every text section's
//! entries as the bytes the file holds.

use serde::{Deserialize, Serialize};

use crate::strings::RawString;

/// A binary level version, from its 8-byte header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Version {
    /// `Z3-V1.03`: 12-bit packets; links, baddies without verses, signs.
    #[serde(rename = "Z3-V1.03")]
    Z3V103,
    /// `Z3-V1.04`: 12-bit packets; links, baddies with verses, signs.
    #[serde(rename = "Z3-V1.04")]
    Z3V104,
    /// `GR-V1.00`: 12-bit packets; adds NPCs (no chests).
    #[serde(rename = "GR-V1.00")]
    GrV100,
    /// `GR-V1.01`: 12-bit packets; adds chests.
    #[serde(rename = "GR-V1.01")]
    GrV101,
    /// `GR-V1.02`: 13-bit packets.
    #[serde(rename = "GR-V1.02")]
    GrV102,
    /// `GR-V1.03`: 13-bit packets; the last single-layer revision.
    #[serde(rename = "GR-V1.03")]
    GrV103,
    /// `GR-V1.05`: 13-bit packets and several layers (TilesEditor).
    #[serde(rename = "GR-V1.05")]
    GrV105,
}

impl Version {
    /// Every version with its header.
    pub const ALL: [(Version, &'static [u8; 8]); 7] = [
        (Version::Z3V103, b"Z3-V1.03"),
        (Version::Z3V104, b"Z3-V1.04"),
        (Version::GrV100, b"GR-V1.00"),
        (Version::GrV101, b"GR-V1.01"),
        (Version::GrV102, b"GR-V1.02"),
        (Version::GrV103, b"GR-V1.03"),
        (Version::GrV105, b"GR-V1.05"),
    ];

    /// The version an 8-byte header names.
    pub fn from_header(header: &[u8]) -> Option<Version> {
        Version::ALL
            .iter()
            .find(|(_, h)| h.as_slice() == header)
            .map(|(v, _)| *v)
    }

    /// The 8-byte header.
    pub fn header(self) -> &'static [u8; 8] {
        Version::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map_or(b"GR-V1.03", |(_, h)| *h)
    }

    /// Bits per tile packet: 12 for `Z3-*`, `GR-V1.00` and `GR-V1.01`, 13 from `GR-V1.02` on
    /// (graal-notes 1.6: several public readers get GR-V1.01 wrong).
    pub fn packet_bits(self) -> u32 {
        match self {
            Version::Z3V103 | Version::Z3V104 | Version::GrV100 | Version::GrV101 => 12,
            Version::GrV102 | Version::GrV103 | Version::GrV105 => 13,
        }
    }

    /// Whether baddies carry a verse line.
    pub fn has_verses(self) -> bool {
        self != Version::Z3V103
    }

    /// Whether the level has an NPC section.
    pub fn has_npcs(self) -> bool {
        !matches!(self, Version::Z3V103 | Version::Z3V104)
    }

    /// Whether the level has a chest section.
    pub fn has_chests(self) -> bool {
        !matches!(self, Version::Z3V103 | Version::Z3V104 | Version::GrV100)
    }

    /// Whether the level has a layer count and several boards.
    pub fn has_layers(self) -> bool {
        self == Version::GrV105
    }
}

/// A binary level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Graal {
    /// The header's version.
    pub version: Version,
    /// Boards: one, or (GR-V1.05) one per layer.
    pub boards: Vec<BinaryBoard>,
    /// Link lines, `dest x y width height destX destY`, without their `\n`.
    pub links: Vec<RawString>,
    /// How the link section ends.
    pub links_end: SectionEnd,
    /// Baddies.
    pub baddies: Vec<BaddyRecord>,
    /// The rest of the line after the baddy terminator `FF FF FF` (normally empty).
    pub baddies_end: RawString,
    /// NPCs (GR versions).
    pub npcs: Vec<NpcRecord>,
    /// How the NPC section ends.
    pub npcs_end: SectionEnd,
    /// Chests (GR-V1.01 on), including null chests.
    pub chests: Vec<ChestRecord>,
    /// How the chest section ends.
    pub chests_end: SectionEnd,
    /// Signs.
    pub signs: Vec<SignRecord>,
    /// How the sign section ends: at the end of the file (`None`), or with an empty line followed
    /// by these bytes (`Some`, normally empty).
    pub signs_end: Option<RawString>,
}

/// How a line-based section ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionEnd {
    /// A line `#` (the original editor).
    #[default]
    Hash,
    /// An empty line (TilesEditor).
    Empty,
}

/// One board's tiles and, when needed, its exact encoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BinaryBoard {
    /// 4096 tile indices, row-major (0xFFF = empty on GR-V1.05 upper layers).
    pub tiles: Vec<u16>,
    /// The packet stream as read, kept only when our encoder would write different packets
    /// for these tiles; the writer uses it as long as it still decodes to `tiles`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packets: Option<Vec<u16>>,
    /// The unused bits after the last packet, up to the byte boundary (normally 0).
    #[serde(default)]
    pub pad_bits: u8,
}

/// A baddy: three raw bytes and the verse line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaddyRecord {
    /// x in tiles (no offset).
    pub x: u8,
    /// y in tiles.
    pub y: u8,
    /// Type 0–9.
    pub kind: u8,
    /// The verse line `sight\hurt\attack` without its `\n` (absent in Z3-V1.03).
    pub verses: RawString,
}

/// An NPC: position bytes, image name and script as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcRecord {
    /// x + 32, as stored.
    pub x_raw: u8,
    /// y + 32, as stored.
    pub y_raw: u8,
    /// Image file name (bytes before the `#`; empty for none).
    pub image: RawString,
    /// Script with 0xA7 as the line break, without the final `\n`.
    pub script: RawString,
}

/// A chest: four bytes as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChestRecord {
    /// `x+32 y+32 item+32 sign+32`, or `FF FF FF 00` for the null chest.
    pub bytes: [u8; 4],
}

/// The placeholder chest some levels hold.
pub const NULL_CHEST: [u8; 4] = [0xFF, 0xFF, 0xFF, 0x00];

impl ChestRecord {
    /// True for the null chest `FF FF FF 00`.
    pub fn is_null(&self) -> bool {
        self.bytes == NULL_CHEST
    }

    /// `(x, y, item, sign)` decoded: offsets removed, sign -1 for none.
    pub fn decode(&self) -> (i32, i32, i32, i32) {
        let [x, y, item, sign] = self.bytes;
        let sign = i32::from(sign.wrapping_sub(32));
        (
            i32::from(x) - 32,
            i32::from(y) - 32,
            i32::from(item) - 32,
            if sign == 255 { -1 } else { sign },
        )
    }
}

/// A sign: position bytes and glyph bytes as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignRecord {
    /// x + 32, as stored.
    pub x_raw: u8,
    /// y + 32, as stored.
    pub y_raw: u8,
    /// Glyph bytes (glyph index + 32; 128 is the line break), without the final `\n`.
    pub text: RawString,
}
