//! 3D GameStudio terrain: `.hmp` (`HMP4`, `HMP5`, `HMP7`).
//!
//! Sources, and what each says:
//!
//! * The Gamestudio manual (`manual.conitec.net/prog_mdlhmp.htm`, the 2002 programmer's manual
//!   and the coniserver wiki page "HMP"): the 84-byte header (`HMP4`/`HMP5`, scale and offset,
//!   `ftrisize_x/y`, `fnumverts_x`, `numskins`, `numverts`, `numframes`, flags), "after the
//!   header follow the textures and then the array of height values"; skins as MDL skins;
//!   HMP7 only through the closed MDL SDK. The 2002 manual names the words `nu1…nu12` and says
//!   `scale_z`/`offset_z` only; the wiki gives full `scale` and `offset` vectors. The files
//!   agree with the wiki (x and y scale equal the grid extent over 65535).
//! * assimp `code/AssetLib/HMP/HMPLoader.cpp` and `HMPFileData.h`: HMP5/HMP7 skins as MDL7
//!   skin lumps (type, width, height, data; `MDLMaterialLoader.cpp`), then a 36-byte frame
//!   header it skips ("I don't know why"), then 4-byte vertices (HMP5: u16 height, normal index,
//!   pad; HMP7: u16 height, two i8 normal components). assimp **refuses HMP4** ("HMP4 is
//!   currently not supported"), and places its vertices at `x × size, y × size` with heights
//!   `(z / 65535 − 0.5) × 8 × size_x` (its own FIXME); levelkit uses the manual's offset and
//!   scale instead, so positions differ from assimp's, counts do not.
//! * `ikskuh/libgamestudio`: its `data/hmp/` HMP7 files (not in our corpus) confirm the HMP7
//!   layout: a second skin of type 12 (B8G8R8 with mips), a type-6 skin holding a whole DDS
//!   file, and the frame header = type (2), two 8-byte bounding-box vertices, a 16-byte name.
//!
//! **HMP4, from the corpus file** (no source describes it): it is MDL4 with a terrain header:
//! after the header one MDL4 skin per `numskins` (type word, then pixels of the header's skin
//! size, no size of its own), `num_stverts` texture coordinates (i16 `s`, `t`), `numtris`
//! triangles (u16 vertex indices, u16 texture-coordinate indices), and `numframes` frames
//! (type 0, two 4-byte bounding-box `trivertx`, 16-byte name, `numverts` `trivertx`: x, y, z
//! bytes and a normal index). `test.HMP` (20 × 20, 722 triangles, one 128 × 128 R5G6B5 skin)
//! ends exactly after its frame.
//!
//! **Word-packed HMP4, from real files** (firoball/ack4stuff `hh_demo_heaven/hell/lava.HMP`,
//! header version word 1): frames of type 2, which is the packing of MDL4/5 frames of type 2
//! (assimp's `SimpleFrame_MDLn_SP`, libgamestudio's `VertexPacking.bits16`), not a Quake frame
//! group (type 1): two 8-byte bounding-box vertices, the 16-byte name, and `numverts` 8-byte
//! vertices (u16 `x, y, z`, normal index, pad). These files have no texture coordinates and
//! no triangles: the vertices are a grid of `fnumverts_x` points a row (`x` in steps of
//! `65535 / (nx − 1)`, rows from `y = 65535` down), and `hh_demo_lava.HMP` has 36 frames.
//! Each file ends exactly after its last frame in this layout.
//!
//! Supported: all three layouts, read and written byte for byte; skin types 0, 2–5, 10–13
//! decoded (8-bit skins as grey levels: their palette is outside the file), type 1 (reference),
//! 6 (DDS, kept, not decoded), 7 (external name) kept; MDL7 material (0x10) and effect text
//! (0x20) blocks kept as bytes; HMP4 frames of type 0 and 2. Not supported: HMP4 skin groups
//! and Quake frame groups (type 1; no Gamestudio file is known to have one), refused with
//! [`crate::ErrorKind::Unsupported`]. The scene's mesh is the first frame; a terrain of several
//! frames gets each frame as a morph target, played as one animation. [`to_scene`] builds a textured terrain mesh.
//!
//! ```
//! use levelkit::formats::hmp::{self, Hmp, HmpVersion};
//!
//! let bytes = hmp::samples::terrain(HmpVersion::Hmp7, 9, 5).write()?;
//! let terrain = Hmp::read(&bytes)?;
//! assert_eq!(terrain.grid(), Some((9, 5)));
//! assert_eq!(terrain.write()?, bytes);
//! let (scene, _) = hmp::to_scene(&terrain);
//! assert_eq!(scene.meshes[0].faces.len(), 2 * 8 * 4);
//! # Ok::<(), levelkit::Error>(())
//! ```

mod codec;
mod dump;
mod model;
mod read;
pub mod samples;
mod scene;
pub mod skin;
mod validate;
mod write;

pub use model::{Frame, Header, Hmp, HmpVersion, Skin, Triangle};
pub use read::HEADER_SIZE;
pub use scene::to_scene;

use crate::error::{Result, Warning};
use crate::limits::Limits;

/// What `levelkit info` shows.
#[derive(Debug, serde::Serialize)]
pub struct Summary {
    /// `HMP4`, `HMP5` or `HMP7`.
    pub version: String,
    /// Grid columns × rows, when the header makes a grid.
    pub grid: Option<String>,
    /// Vertices per frame.
    pub vertices: i32,
    /// Triangles (HMP4's own, or two per grid cell).
    pub triangles: usize,
    /// Skins, each as `type WxH`.
    pub skins: Vec<String>,
    /// Frames.
    pub frames: usize,
}

impl Hmp {
    /// Read a terrain with the default [`Limits`].
    pub fn read(bytes: &[u8]) -> Result<Hmp> {
        read::read(bytes)
    }

    /// Read a terrain within `limits`.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Hmp> {
        read::read_with(bytes, limits)
    }

    /// The file's bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        write::write(self)
    }

    /// Every finding (see `validate.rs`).
    pub fn validate(&self) -> Vec<Warning> {
        validate::validate(self)
    }

    /// The summary `levelkit info` prints.
    pub fn summary(&self) -> Summary {
        let triangles = match self.version {
            HmpVersion::Hmp4 => self.triangles.len(),
            _ => self.grid().map_or(0, |(x, y)| {
                2 * (x.saturating_sub(1)) * (y.saturating_sub(1))
            }),
        };
        Summary {
            version: self.version_text(),
            grid: self.grid().map(|(x, y)| format!("{x} × {y}")),
            vertices: self.header.num_verts,
            triangles,
            skins: self
                .skins
                .iter()
                .map(|s| {
                    let [w, h] = s.size.unwrap_or([
                        self.header.skin_width as u32,
                        self.header.skin_height as u32,
                    ]);
                    format!("type {} {w}×{h}", s.kind)
                })
                .collect(),
            frames: self.frames.len(),
        }
    }

    fn version_text(&self) -> String {
        String::from_utf8_lossy(self.version.magic()).into_owned()
    }
}
