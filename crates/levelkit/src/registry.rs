//! Every format levelkit knows, legacy and modern, with names, extensions and magic bytes, and
//! [`sniff`], which tells a file's format from its first bytes and its name.
//!
//! The table is designed for the whole family list up front, so that each later format only adds
//! its reader: WWD; Graal `.zelda`/`.graal`/`.nw`/`.gani`; Wings `.wings`; 3D GameStudio `.wmp`
//! (text dialects and binary WMPB) and `$$M`; V-Chat `.wdb`; and on the modern side JSON, Tiled
//! `.tmx`/`.tmj`, glTF/GLB, OBJ and PNG.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Format {
    /// WAP32 world document (Captain Claw, Gruntz, Get Medieval): `.wwd`.
    Wwd,
    /// Graal binary level: `.zelda`, `.graal` (headers `Z3-V1.0x`, `GR-V1.0x`).
    GraalLevel,
    /// Graal text level: `.nw` (`GLEVNW01`).
    Nw,
    /// Graal animation: `.gani`.
    Gani,
    /// Graal overworld: `.gmap` (`GRMAP001`), a grid of level names.
    Gmap,
    /// Tiled world: `.world`, maps placed side by side (written from a `.gmap`).
    TiledWorld,
    /// Wings 3D model: `.wings`.
    Wings,
    /// 3D GameStudio text level: `.wmp` (A4, version 510, version 710).
    WmpText,
    /// 3D GameStudio binary level: `.wmp` with magic `WMPB`.
    Wmpb,
    /// 3D GameStudio compiler intermediate: `$$M` (version 711).
    DollarM,
    /// 3D GameStudio compiled level: `.wmb` (`WMB2` … `WMB7`).
    Wmb,
    /// V-Chat world: `.wdb` (`WDBV`).
    Wdb,
    /// 3D GameStudio and Quake model: `.mdl` (`IDPO`, `MDL2`–`MDL5`, `MDL7`).
    Mdl,
    /// 3D GameStudio terrain: `.hmp` (`HMP4`, `HMP5`, `HMP7`).
    Hmp,
    /// WAP32 sprite animation (Captain Claw, Gruntz): `.ani` (not the RIFF Windows cursor).
    Ani,
    /// WAP32 image (Captain Claw, Gruntz sprites): `.pid`.
    Pid,
    /// WAP32 palette, 768 bytes of RGB: `.pal`.
    Pal,
    /// PCX image (the games' 8-bit screens): `.pcx`.
    Pcx,
    /// Monolith resource archive (Captain Claw, Gruntz): `.rez`, `.vrz`.
    Rez,
    /// levelkit's lossless JSON form of any model: `.json`.
    Json,
    /// Tiled XML map: `.tmx`.
    Tmx,
    /// Tiled JSON map: `.tmj`.
    Tmj,
    /// glTF 2.0 JSON: `.gltf`.
    Gltf,
    /// glTF 2.0 binary: `.glb`.
    Glb,
    /// Wavefront OBJ: `.obj`.
    Obj,
    /// PNG image (previews): `.png`.
    Png,
    /// GIF image (animations): `.gif`.
    Gif,
    /// Not a format: what errors name when a file's format could not be told at all.
    Unknown,
}

/// One row of the format table.
#[derive(Debug, Clone, Copy)]
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// Short lowercase name, used in messages and on the command line.
    pub name: &'static str,
    /// Human description.
    pub description: &'static str,
    /// File extensions, lowercase, without the dot; the first is the one levelkit writes.
    pub extensions: &'static [&'static str],
    /// Whether levelkit can read it today.
    pub readable: bool,
    /// Whether levelkit can write it today.
    pub writable: bool,
    /// The common model its documents convert through, if any.
    pub common: Option<Common>,
    /// A modern exchange format (Tiled, glTF, OBJ, PNG): written only from its common model, so
    /// only a document with the same common model converts to it.
    pub exchange: bool,
}

/// The common models documents convert through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Common {
    /// [`crate::tilemap::TileMap`]: the 2D levels and Tiled maps.
    TileMap,
    /// [`crate::scene::Scene`]: the 3D models and levels, glTF and OBJ.
    Scene,
    /// [`crate::anim::Animation`]: sprite animations, GIF and animated PNG.
    Animation,
}

/// The format table, one row per [`Format`] (every format has exactly one: [`Format::info`]
/// matches them all, so a new format does not compile without its row).
pub const FORMATS: &[FormatInfo] = &[
    ROW_WWD,
    ROW_GRAAL_LEVEL,
    ROW_NW,
    ROW_GANI,
    ROW_GMAP,
    ROW_TILED_WORLD,
    ROW_WINGS,
    ROW_WMP_TEXT,
    ROW_WMPB,
    ROW_DOLLAR_M,
    ROW_WMB,
    ROW_WDB,
    ROW_MDL,
    ROW_HMP,
    ROW_ANI,
    ROW_PID,
    ROW_PAL,
    ROW_PCX,
    ROW_REZ,
    ROW_JSON,
    ROW_TMX,
    ROW_TMJ,
    ROW_GLTF,
    ROW_GLB,
    ROW_OBJ,
    ROW_PNG,
    ROW_GIF,
    ROW_UNKNOWN,
];

const ROW_WWD: FormatInfo = FormatInfo {
    format: Format::Wwd,
    name: "wwd",
    description: "WAP32 world (Captain Claw, Gruntz)",
    extensions: &["wwd"],
    readable: true,
    writable: true,
    common: Some(Common::TileMap),
    exchange: false,
};

const ROW_GRAAL_LEVEL: FormatInfo = FormatInfo {
    format: Format::GraalLevel,
    name: "graal",
    description: "Graal binary level",
    extensions: &["graal", "zelda"],
    readable: true,
    writable: true,
    common: Some(Common::TileMap),
    exchange: false,
};

const ROW_NW: FormatInfo = FormatInfo {
    format: Format::Nw,
    name: "nw",
    description: "Graal text level",
    extensions: &["nw"],
    readable: true,
    writable: true,
    common: Some(Common::TileMap),
    exchange: false,
};

const ROW_GANI: FormatInfo = FormatInfo {
    format: Format::Gani,
    name: "gani",
    description: "Graal animation",
    extensions: &["gani"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_GMAP: FormatInfo = FormatInfo {
    format: Format::Gmap,
    name: "gmap",
    description: "Graal overworld (grid of levels)",
    extensions: &["gmap"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_TILED_WORLD: FormatInfo = FormatInfo {
    format: Format::TiledWorld,
    name: "world",
    description: "Tiled world (maps side by side; from and to .gmap)",
    extensions: &["world"],
    readable: false,
    writable: true,
    common: None,
    exchange: true,
};

const ROW_WINGS: FormatInfo = FormatInfo {
    format: Format::Wings,
    name: "wings",
    description: "Wings 3D model",
    extensions: &["wings"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_WMP_TEXT: FormatInfo = FormatInfo {
    format: Format::WmpText,
    name: "wmp",
    description: "3D GameStudio text level",
    extensions: &["wmp"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_WMPB: FormatInfo = FormatInfo {
    format: Format::Wmpb,
    name: "wmpb",
    description: "3D GameStudio binary level (WMPB)",
    extensions: &["wmp"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_DOLLAR_M: FormatInfo = FormatInfo {
    format: Format::DollarM,
    name: "$$m",
    description: "3D GameStudio compiler intermediate",
    extensions: &["$$m"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_WMB: FormatInfo = FormatInfo {
    format: Format::Wmb,
    name: "wmb",
    description: "3D GameStudio compiled level",
    extensions: &["wmb"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_HMP: FormatInfo = FormatInfo {
    format: Format::Hmp,
    name: "hmp",
    description: "3D GameStudio terrain",
    extensions: &["hmp"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_WDB: FormatInfo = FormatInfo {
    format: Format::Wdb,
    name: "wdb",
    description: "V-Chat world",
    extensions: &["wdb"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_MDL: FormatInfo = FormatInfo {
    format: Format::Mdl,
    name: "mdl",
    description: "3D GameStudio / Quake model (IDPO, MDL2-MDL5, MDL7)",
    extensions: &["mdl"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: false,
};

const ROW_ANI: FormatInfo = FormatInfo {
    format: Format::Ani,
    name: "ani",
    description: "WAP32 sprite animation (Captain Claw, Gruntz)",
    extensions: &["ani"],
    readable: true,
    writable: true,
    common: Some(Common::Animation),
    exchange: false,
};

const ROW_PID: FormatInfo = FormatInfo {
    format: Format::Pid,
    name: "pid",
    description: "WAP32 image (Captain Claw, Gruntz)",
    extensions: &["pid"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_PAL: FormatInfo = FormatInfo {
    format: Format::Pal,
    name: "pal",
    description: "WAP32 palette (256 RGB colours)",
    extensions: &["pal"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_PCX: FormatInfo = FormatInfo {
    format: Format::Pcx,
    name: "pcx",
    description: "PCX image (8-bit, run-length coded)",
    extensions: &["pcx"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_REZ: FormatInfo = FormatInfo {
    format: Format::Rez,
    name: "rez",
    description: "Monolith resource archive (Captain Claw, Gruntz)",
    extensions: &["rez", "vrz"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_JSON: FormatInfo = FormatInfo {
    format: Format::Json,
    name: "json",
    description: "levelkit lossless JSON model",
    extensions: &["json"],
    readable: true,
    writable: true,
    common: None,
    exchange: false,
};

const ROW_TMX: FormatInfo = FormatInfo {
    format: Format::Tmx,
    name: "tmx",
    description: "Tiled XML map",
    extensions: &["tmx"],
    readable: true,
    writable: true,
    common: Some(Common::TileMap),
    exchange: true,
};

const ROW_TMJ: FormatInfo = FormatInfo {
    format: Format::Tmj,
    name: "tmj",
    description: "Tiled JSON map",
    extensions: &["tmj"],
    readable: true,
    writable: true,
    common: Some(Common::TileMap),
    exchange: true,
};

const ROW_GLTF: FormatInfo = FormatInfo {
    format: Format::Gltf,
    name: "gltf",
    description: "glTF 2.0 (JSON)",
    extensions: &["gltf"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: true,
};

const ROW_GLB: FormatInfo = FormatInfo {
    format: Format::Glb,
    name: "glb",
    description: "glTF 2.0 (binary)",
    extensions: &["glb"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: true,
};

const ROW_OBJ: FormatInfo = FormatInfo {
    format: Format::Obj,
    name: "obj",
    description: "Wavefront OBJ",
    extensions: &["obj"],
    readable: true,
    writable: true,
    common: Some(Common::Scene),
    exchange: true,
};

const ROW_PNG: FormatInfo = FormatInfo {
    format: Format::Png,
    name: "png",
    description: "PNG image",
    extensions: &["png"],
    readable: false,
    writable: true,
    common: Some(Common::TileMap),
    exchange: true,
};

const ROW_GIF: FormatInfo = FormatInfo {
    format: Format::Gif,
    name: "gif",
    description: "GIF image (animations)",
    extensions: &["gif"],
    readable: false,
    writable: true,
    common: Some(Common::Animation),
    exchange: true,
};

const ROW_UNKNOWN: FormatInfo = FormatInfo {
    format: Format::Unknown,
    name: "unknown",
    description: "a file whose format could not be told",
    extensions: &[],
    readable: false,
    writable: false,
    common: None,
    exchange: false,
};

impl Format {
    /// The table row of this format.
    pub fn info(self) -> &'static FormatInfo {
        match self {
            Format::Wwd => &ROW_WWD,
            Format::GraalLevel => &ROW_GRAAL_LEVEL,
            Format::Nw => &ROW_NW,
            Format::Gani => &ROW_GANI,
            Format::Gmap => &ROW_GMAP,
            Format::TiledWorld => &ROW_TILED_WORLD,
            Format::Wings => &ROW_WINGS,
            Format::WmpText => &ROW_WMP_TEXT,
            Format::Wmpb => &ROW_WMPB,
            Format::DollarM => &ROW_DOLLAR_M,
            Format::Wmb => &ROW_WMB,
            Format::Wdb => &ROW_WDB,
            Format::Mdl => &ROW_MDL,
            Format::Hmp => &ROW_HMP,
            Format::Ani => &ROW_ANI,
            Format::Pid => &ROW_PID,
            Format::Pal => &ROW_PAL,
            Format::Pcx => &ROW_PCX,
            Format::Rez => &ROW_REZ,
            Format::Json => &ROW_JSON,
            Format::Tmx => &ROW_TMX,
            Format::Tmj => &ROW_TMJ,
            Format::Gltf => &ROW_GLTF,
            Format::Glb => &ROW_GLB,
            Format::Obj => &ROW_OBJ,
            Format::Png => &ROW_PNG,
            Format::Gif => &ROW_GIF,
            Format::Unknown => &ROW_UNKNOWN,
        }
    }

    /// Short lowercase name (`wwd`, `graal`, …).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The extension levelkit writes for this format.
    pub fn extension(self) -> &'static str {
        self.info().extensions.first().copied().unwrap_or("")
    }

    /// The format a name or extension on the command line means (`wwd`, `.wwd`, `json`, …).
    pub fn from_name(name: &str) -> Option<Format> {
        let name = name.trim_start_matches('.').to_ascii_lowercase();
        FORMATS
            .iter()
            .find(|info| info.name == name)
            .or_else(|| {
                FORMATS
                    .iter()
                    .find(|info| info.extensions.contains(&&*name))
            })
            .map(|info| info.format)
    }

    /// The format a file name's extension suggests. `.wmp` answers [`Format::WmpText`]; only the
    /// content can tell it from [`Format::Wmpb`], which [`sniff`] does.
    pub fn from_path_name(file_name: &str) -> Option<Format> {
        let lower = file_name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, ext)| ext)?;
        FORMATS
            .iter()
            .find(|info| info.extensions.contains(&ext))
            .map(|info| info.format)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Magic-byte rules, tried in order: `(offset, bytes, format)`.
const MAGIC: &[(usize, &[u8], Format)] = &[
    (0, b"\xF4\x05\x00\x00", Format::Wwd),
    (0, b"Z3-V1.0", Format::GraalLevel),
    (0, b"GR-V1.0", Format::GraalLevel),
    (0, b"GLEVNW01", Format::Nw),
    (0, b"GANI000", Format::Gani),
    (0, b"GRMAP00", Format::Gmap),
    (0, b"#!WINGS-1.0\r\n\x1a\x04", Format::Wings),
    (0, b"WMPB", Format::Wmpb),
    (0, b"WMB2", Format::Wmb),
    (0, b"WMB3", Format::Wmb),
    (0, b"WMB4", Format::Wmb),
    (0, b"WMB6", Format::Wmb),
    (0, b"WMB7", Format::Wmb),
    (0, b"WDBV", Format::Wdb),
    (0, b"IDPO", Format::Mdl),
    (0, b"MDL2", Format::Mdl),
    (0, b"MDL3", Format::Mdl),
    (0, b"MDL4", Format::Mdl),
    (0, b"MDL5", Format::Mdl),
    (0, b"MDL7", Format::Mdl),
    (0, b"HMP4", Format::Hmp),
    (0, b"HMP5", Format::Hmp),
    (0, b"HMP7", Format::Hmp),
    (0, b"\x0A\x00\x00\x00", Format::Pid),
    (0, b"\x0A\x05\x01\x08", Format::Pcx),
    (0, b"\r\nRezMgr Version 1", Format::Rez),
    (0, b"glTF", Format::Glb),
    (0, b"\x89PNG\r\n\x1a\n", Format::Png),
    // ANI has no magic; its first two words are 0x20 and 0 in every known file (no text has NULs).
    (0, b"\x20\0\0\0\0\0\0\0", Format::Ani),
];

/// The statements of an Acknex 3 level (`VERTEX`, `REGION`, `WALL`, `THING`, `ACTOR`,
/// `PLAYER_START`, `WAY`), as `firoball/WMPio` reads and writes them (`Map.cs`, `Formatter.cs`).
const ACKNEX3_STATEMENTS: [&str; 7] = [
    "vertex",
    "region",
    "wall",
    "thing",
    "actor",
    "player_start",
    "way",
];

/// Whether `bytes` look like an Acknex 3 `.wmp`: the older 2.5D level format that shares the
/// extension with 3D GameStudio's text levels. Its lines are `#` comments and statements such
/// as `VERTEX 1.000 2.000 0.000;#0` or `WALL name 0 1 0 1 0.000 0.000;#3`: a keyword, values,
/// `;`, an optional `#index` (`firoball/WMPio`). True when the first statement line (blank and
/// `#` lines skipped, within the first 4 KB) starts with one of those keywords and has a `;`.
pub fn is_acknex3_wmp(bytes: &[u8]) -> bool {
    let head = bytes.get(..bytes.len().min(4096)).unwrap_or(bytes);
    let text = String::from_utf8_lossy(head);
    let Some(line) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    let word = line
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    ACKNEX3_STATEMENTS.contains(&word.as_str()) && line.contains(';')
}

/// Tell a file's format from its first bytes and, when the bytes are not conclusive, its name.
///
/// Magic bytes win over the extension (a GR-V1.03 level named `.zelda` is a Graal level; a `.wmp`
/// starting with `WMPB` is binary). Text formats without a magic line fall back to the extension,
/// with a look at the content for the `.wmp` family and JSON-based formats.
pub fn sniff(bytes: &[u8], file_name: Option<&str>) -> Option<Format> {
    for (offset, magic, format) in MAGIC {
        let end = offset.saturating_add(magic.len());
        if bytes.get(*offset..end) == Some(*magic) {
            return Some(*format);
        }
    }
    let by_name = file_name.and_then(Format::from_path_name);
    // A Windows cursor animation is a RIFF file with the same extension: not ours.
    if by_name == Some(Format::Ani) && bytes.starts_with(b"RIFF") {
        return None;
    }
    let head = bytes.get(..bytes.len().min(4096)).unwrap_or(bytes);
    let text = String::from_utf8_lossy(head);
    if matches!(by_name, Some(Format::WmpText | Format::DollarM)) || by_name.is_none() {
        for line in text.lines().take(64) {
            let line = line.trim();
            if line.starts_with("version 711") {
                return Some(Format::DollarM);
            }
            if line.starts_with("version 510") || line.starts_with("version 710") {
                return Some(Format::WmpText);
            }
        }
        // An Acknex 3 level: the text reader refuses it by name.
        if is_acknex3_wmp(bytes) {
            return Some(Format::WmpText);
        }
    }
    if by_name.is_some() {
        return by_name;
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        if trimmed.contains("\"asset\"") {
            return Some(Format::Gltf);
        }
        if trimmed.contains("\"tiledversion\"") || trimmed.contains("\"orientation\"") {
            return Some(Format::Tmj);
        }
        return Some(Format::Json);
    }
    if (trimmed.starts_with("<?xml") || trimmed.starts_with("<map")) && trimmed.contains("<map") {
        return Some(Format::Tmx);
    }
    None
}

/// The content signatures of `format` that [`sniff`] knows: its magic bytes, or the text markers
/// it looks for. Empty for a format told by its name alone (a palette, an OBJ).
fn signatures(format: Format) -> Vec<String> {
    let mut out: Vec<String> = MAGIC
        .iter()
        .filter(|(offset, _, f)| *f == format && *offset == 0)
        .map(|(_, magic, _)| signature_text(magic))
        .collect();
    let text: &[&str] = match format {
        Format::DollarM => &["a `version 711` line"],
        Format::WmpText => &[
            "a `version 510` or `version 710` line",
            "Acknex 3 statements",
        ],
        _ => &[],
    };
    out.extend(text.iter().map(|t| (*t).to_owned()));
    out
}

/// Magic bytes as a reader would recognise them: `GLEVNW01` for printable ASCII, else hex.
fn signature_text(magic: &[u8]) -> String {
    if magic.iter().all(|b| b.is_ascii_graphic()) {
        format!("`{}`", String::from_utf8_lossy(magic))
    } else {
        let hex: Vec<String> = magic.iter().map(|b| format!("{b:02x}")).collect();
        format!("the bytes {}", hex.join(" "))
    }
}

/// What to say instead of a reader's error when a file was read as `format` because of its
/// name only and its content is text that carries none of that format's signatures: such a
/// file is not a format levelkit recognises, so the message describes it (its size, what the
/// format would begin with) and never quotes its bytes. A reader's own message does quote
/// what it found (`the first line is "..."`), which for a file that is no level at all (a link
/// to `/etc/passwd` named `x.nw`) would print someone else's data. The error itself is made by
/// [`crate::error::unrecognised_content`].
///
/// `None` (keep the reader's error) when the content is recognised as `format`, when `format`
/// has no signature to check (it is told by name only, and its reader's message is all there
/// is), and for binary or empty content.
pub fn unrecognised_text(format: Format, bytes: &[u8]) -> Option<String> {
    let signatures = signatures(format);
    if signatures.is_empty() || sniff(bytes, None) == Some(format) {
        return None;
    }
    // Only text: what a binary file would leak is a number or a few bytes in hex, and a
    // damaged file of the format (a level whose header was overwritten) is better told what
    // its reader found, field by field.
    let head = bytes.get(..bytes.len().min(4096)).unwrap_or(bytes);
    let text = !head.is_empty()
        && !head.contains(&0)
        && match std::str::from_utf8(head) {
            Ok(_) => true,
            // A multi-byte character cut at the 4096th byte is still text.
            Err(e) => e.error_len().is_none(),
        };
    if !text {
        return None;
    }
    let info = format.info();
    Some(format!(
        "not a {} (one begins with {}) nor any format levelkit recognises: {} bytes of text, \
         taken for {} by its name only; not read",
        info.description,
        signatures.join(" or "),
        bytes.len(),
        info.name
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn names_and_extensions() {
        assert_eq!(Format::from_name("wwd"), Some(Format::Wwd));
        assert_eq!(Format::from_name(".JSON"), Some(Format::Json));
        assert_eq!(Format::from_name("zelda"), Some(Format::GraalLevel));
        assert_eq!(Format::from_path_name("a/B.WWD"), Some(Format::Wwd));
        assert_eq!(Format::from_path_name("x.$$M"), Some(Format::DollarM));
        assert_eq!(Format::from_path_name("noext"), None);
        for info in FORMATS {
            assert_eq!(info.format.info().name, info.name);
        }
    }

    #[test]
    fn magic_beats_extension() {
        assert_eq!(
            sniff(b"GR-V1.03....", Some("old.zelda")),
            Some(Format::GraalLevel)
        );
        assert_eq!(sniff(b"WMPB\0\0\0\0", Some("a.wmp")), Some(Format::Wmpb));
        assert_eq!(
            sniff(b"// x\nversion 711\n", Some("a.wmp")),
            Some(Format::DollarM)
        );
        assert_eq!(sniff(b"\xF4\x05\0\0rest", None), Some(Format::Wwd));
        assert_eq!(
            sniff(b"\xBA\xAD\0\0rest", Some("bad.WWD")),
            Some(Format::Wwd)
        );
        assert_eq!(sniff(b"  {\"format\":\"wwd\"}", None), Some(Format::Json));
        assert_eq!(sniff(b"garbage", None), None);
        assert_eq!(sniff(b"\x20\0\0\0\0\0\0\0rest", None), Some(Format::Ani));
        assert_eq!(sniff(b"RIFF\0\0\0\0ACON", Some("arrow.ani")), None);
        assert_eq!(sniff(b"\x21\0\0\0", Some("odd.ANI")), Some(Format::Ani));
    }
}
