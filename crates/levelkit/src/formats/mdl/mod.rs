//! MDL: Quake 1 (`IDPO`) and 3D GameStudio (`MDL2`, `MDL3`, `MDL4`, `MDL5`, `MDL7`) models.
//!
//! Sources, and what each says:
//!
//! * Quake's `modelgen.h` / the `tfc.duke.free.fr` MDL spec: the 84-byte header, 8-bit skins
//!   and skin groups, per-vertex texture coordinates with the seam flag, triangles with the
//!   faces-front flag, simple and grouped frames of byte vertices with a normal index.
//! * assimp `code/AssetLib/MDL/MDLFileData.h`, `MDLLoader.cpp`, `MDLMaterialLoader.cpp`: MDL2 is
//!   Quake's layout (assimp reads it with the Quake reader); MDL3–5 keep the header but store the
//!   skin vertex count in the sync-type word, 16-bit skin vertices and 12-byte triangles; skin
//!   types 0/2/3/4/5 (8-bit, 565, 4444, 888, 8888) with bit 3 for mipmaps and 6 for DDS; MDL5
//!   skins carry their own width and height; MDL4/5 frames of a non-zero type have 16-bit
//!   vertices; the MDL7 header, bones, group header, skin header, material, triangle (12, 16, 26
//!   bytes), vertex (16 or 26 bytes) and frame records. Real files added a 44-byte triangle:
//!   MED's large models (Acknex/Infinite-Typing-Lottery `wTerrA.mdl`, 113,457 skin points)
//!   have the 26-byte triangle with every index 32 bits (three vertices, three UVs and a
//!   material, twice), and declare 28-byte frame vertices without having one (refused when
//!   one is there: its layout is unknown).
//! * ikskuh/libgamestudio `src/mdl.zig` and `docs/mdl7.spec`: the same, plus the MDL7 deformers
//!   (bone weights), and the skin type's bit layout (three bits of format, one
//!   of mipmaps).
//!
//! Where they disagree, and what the corpus says:
//!
//! * The MDL7 group header is 44 bytes (assimp's struct, libgamestudio's reads); the corpus's
//!   files only parse with 44.
//! * Deformers: assimp reads none; libgamestudio reads each group's after that group's frames.
//!   Both are wrong on real boned models of several groups (Acknex/Wichtelwald `player.mdl`,
//!   Morbius `char.mdl`, Ackmania `warhand.mdl`, 2 to 5 groups): the deformers of every group
//!   follow the **last** group, in group order, each naming its group, and the header's
//!   `data_size` ends with them (the MED lump, when there is one, comes after). A one-group
//!   model (`mdl7-player.mdl`) cannot tell the two apart. Read per group, the second group's
//!   header was taken from the first's deformer, and its "skins" from triangle data.
//! * External skins (type 7): assimp reads a NUL-terminated name, libgamestudio `width` bytes;
//!   in the corpus `width` is the name's length with its NUL, so both agree; we keep `width`
//!   bytes.
//! * Mip levels: assimp sizes them as `(n>>2)+(n>>4)+(n>>6)` pixels, libgamestudio as the sum of
//!   `(w>>k)*(h>>k)`; equal for sizes divisible by 8 (all of the corpus), we use the latter.
//! * The group's `data_size` is the group's bytes with skins (Kingsbridge files), without skin
//!   pixels (`mdl7-ball.mdl`) or without deformers (`mdl7-player.mdl`): kept as read, not used.
//! * ARGB 4444: assimp's bit-field struct puts alpha in the low nibble; we follow Direct3D's
//!   A4R4G4B4 (alpha high). No corpus file has a 4444 skin to tell.
//! * `fish.mdl` (IDPO) ends with a 6 685-byte `QMEX` block (QME's editor data) after its frames;
//!   it is kept as the trailer.
//! * Frame names are 16 bytes kept whole: `mdl2-bush.mdl` has bytes after the NUL.
//!
//! Supported: reading and writing every version byte for byte (all 20 corpus files round-trip);
//! JSON; the step to the common 3D model (see [`scene`]). Not supported: MDL7 record sizes
//! other than those MED writes (refused as unsupported); 8-bit skins are shown as grey (the
//! palette is Quake's `palette.lmp`, not in the file); DDS skins are kept but not decoded; MDL7
//! deformers (A7's several weighted bones per vertex) are kept but not used: the glTF skin
//! binds each vertex to the one bone its `index` names (see [`scene`]).
//!
//! MDL7 bones, as the corpus shows them (`mdl7-player.mdl`): a bone's position is relative to
//! its parent's (summed down the tree they land on the vertices bound to them); a frame's bone
//! matrix takes a rest-pose vertex to its place in that frame (row vector times the matrix,
//! the translation in the last row), so its translation is `p − p·R` for the bone's absolute
//! position `p`. assimp's loader treats the position as absolute and reads no deformers.
//!
//! ```
//! use levelkit::formats::mdl;
//!
//! let model = mdl::samples::mdl3_pyramid();
//! let bytes = model.write()?;
//! assert_eq!(&bytes[..4], b"MDL3");
//! let again = mdl::Mdl::read(&bytes)?;
//! assert_eq!(again, model);
//! assert_eq!(again.summary().triangles, 4);
//! assert!(again.validate().is_empty());
//! # Ok::<(), levelkit::Error>(())
//! ```

pub mod codec;
mod from_scene;
pub mod layout;
pub mod model;
mod normals;
pub mod read;
pub mod samples;
pub mod scene;
pub mod validate;
pub mod write;

pub use from_scene::TargetVersion;
pub use model::*;

use serde::Serialize;

use crate::error::{Result, Warning};
use crate::limits::Limits;

/// What `levelkit info` shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The magic.
    pub version: String,
    /// Meshes (MDL7 groups; 1 for the classic versions).
    pub groups: usize,
    /// Vertices, all groups.
    pub vertices: usize,
    /// Triangles, all groups.
    pub triangles: usize,
    /// Frames (Quake frame groups count their poses).
    pub frames: usize,
    /// Skins.
    pub skins: usize,
    /// Bones.
    pub bones: usize,
}

impl Mdl {
    /// Read with the default limits.
    pub fn read(bytes: &[u8]) -> Result<Mdl> {
        read::read(bytes)
    }

    /// Read within `limits`.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Mdl> {
        read::read_with(bytes, limits)
    }

    /// The file's bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        write::write(self)
    }

    /// Every validation finding.
    pub fn validate(&self) -> Vec<Warning> {
        validate::validate(self)
    }

    /// The magic as text (`IDPO`, `MDL3`, `MDL7`, …).
    pub fn version_name(&self) -> &'static str {
        match self {
            Mdl::Classic(c) => match c.version {
                ClassicVersion::Idpo => "IDPO",
                ClassicVersion::Mdl2 => "MDL2",
                ClassicVersion::Mdl3 => "MDL3",
                ClassicVersion::Mdl4 => "MDL4",
                ClassicVersion::Mdl5 => "MDL5",
            },
            Mdl::Mdl7(_) => "MDL7",
        }
    }

    /// The counts `levelkit info` shows.
    pub fn summary(&self) -> Summary {
        let version = self.version_name().to_owned();
        match self {
            Mdl::Classic(c) => Summary {
                version,
                groups: 1,
                vertices: c.header.num_verts as usize,
                triangles: match &c.triangles {
                    Triangles::Quake(t) => t.len(),
                    Triangles::Skin(t) => t.len(),
                },
                frames: scene::poses(c).len(),
                skins: c.skins.len(),
                bones: 0,
            },
            Mdl::Mdl7(m) => Summary {
                version,
                groups: m.groups.len(),
                vertices: m.groups.iter().map(|g| g.vertices.len()).sum(),
                triangles: m.groups.iter().map(|g| g.triangles.len()).sum(),
                frames: m.groups.iter().map(|g| g.frames.len()).sum(),
                skins: m.groups.iter().map(|g| g.skins.len()).sum(),
                bones: m.bones.len(),
            },
        }
    }
}
