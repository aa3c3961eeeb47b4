//! The lossless MDL model: every field of every version, reserved words and padding included,
//! so that [`super::write`] gives back the file [`super::read`] was given.
//!
//! Counts are not stored where the length of a list says them (skins, triangles, frames,
//! bones, groups); the writer derives them. Counts that several lists share (Quake's vertex
//! count, which sizes both the texture coordinates and every frame) are kept in the header and
//! checked by the writer.

use serde::{Deserialize, Serialize};

/// A model of any MDL version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mdl {
    /// Quake 1 (`IDPO`) and GameStudio `MDL2`–`MDL5`: one mesh, packed vertex frames.
    Classic(Classic),
    /// GameStudio A6/A7 `MDL7`: groups, float vertices, bones.
    Mdl7(Mdl7),
}

/// The versions before MDL7, told apart by their magic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClassicVersion {
    /// Quake 1, `IDPO`.
    Idpo,
    /// GameStudio A2/A3, `MDL2` (Quake's layout with 16-bit skins).
    Mdl2,
    /// GameStudio A4, `MDL3`.
    Mdl3,
    /// GameStudio A5, `MDL4` (16-bit vertex frames).
    Mdl4,
    /// GameStudio A5, `MDL5` (skins with their own size, mipmaps, DDS).
    Mdl5,
}

impl ClassicVersion {
    /// The four magic bytes.
    pub fn magic(self) -> &'static [u8; 4] {
        match self {
            ClassicVersion::Idpo => b"IDPO",
            ClassicVersion::Mdl2 => b"MDL2",
            ClassicVersion::Mdl3 => b"MDL3",
            ClassicVersion::Mdl4 => b"MDL4",
            ClassicVersion::Mdl5 => b"MDL5",
        }
    }

    /// Whether the file has Quake's texture coordinates and triangles (IDPO, MDL2) rather than
    /// GameStudio's skin vertices (MDL3–5).
    pub fn quake_layout(self) -> bool {
        matches!(self, ClassicVersion::Idpo | ClassicVersion::Mdl2)
    }
}

/// A Quake-family model: header, skins, texture coordinates, triangles, frames.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classic {
    /// Which magic.
    pub version: ClassicVersion,
    /// The header fields that are not list lengths.
    pub header: ClassicHeader,
    /// The skins, in file order.
    pub skins: Vec<Skin>,
    /// Texture coordinates: Quake's per-vertex ones, or GameStudio's skin vertices.
    pub texcoords: TexCoords,
    /// Triangles.
    pub triangles: Triangles,
    /// Frames.
    pub frames: Vec<Frame>,
    /// Bytes after the last frame (QME's `QMEX` block in Quake models edited with it).
    #[serde(default, with = "crate::serde_bytes::hex")]
    pub trailer: Vec<u8>,
}

/// The classic header (84 bytes), less the counts the lists give.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClassicHeader {
    /// Version word after the magic (6 in Quake files, 0 in GameStudio's).
    pub version: i32,
    /// Scale of the packed vertex coordinates.
    pub scale: [f32; 3],
    /// Origin of the packed vertex coordinates.
    pub translate: [f32; 3],
    /// Bounding radius.
    pub radius: f32,
    /// Eye position.
    pub eye: [f32; 3],
    /// Skin width (all skins in IDPO–MDL4; unused by MDL5's own-size skins).
    pub skin_width: i32,
    /// Skin height.
    pub skin_height: i32,
    /// Vertex count: the length of every frame's vertex list (and of Quake's texture
    /// coordinates).
    pub num_verts: u32,
    /// Quake's sync type (IDPO, MDL2). MDL3–5 store the skin vertex count in this word, which
    /// the list's length gives: there it reads as 0 and is not written.
    pub sync_type: i32,
    /// Flags (Quake's rocket trail, rotate, …).
    pub flags: i32,
    /// The last header word: Quake's average triangle size as a float, kept as bits.
    pub size: u32,
}

/// A classic skin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skin {
    /// One picture. `kind` is the type word: low three bits the pixel format (0 8-bit
    /// palette, 2 RGB 565, 3 ARGB 4444, 4 RGB 888, 5 ARGB 8888, 6 a DDS file), bit 3 mipmaps.
    Single {
        /// The type word.
        kind: u32,
        /// MDL5 only: the skin's own width and height (for DDS, width is the byte count).
        size: Option<[u32; 2]>,
        /// The full-size picture (or the DDS file).
        #[serde(with = "crate::serde_bytes::hex")]
        pixels: Vec<u8>,
        /// The three smaller mip levels, one after another, when bit 3 is set.
        #[serde(default, with = "crate::serde_bytes::hex")]
        mips: Vec<u8>,
    },
    /// Quake's animated skin (type 1): 8-bit pictures with their display times.
    Group {
        /// Seconds each picture ends at.
        times: Vec<f32>,
        /// The pictures, `skin_width * skin_height` bytes each.
        #[serde(with = "crate::serde_bytes::hex_list")]
        pictures: Vec<Vec<u8>>,
    },
}

/// Texture coordinates of a classic model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TexCoords {
    /// IDPO and MDL2: one per vertex, in texels, with the seam flag.
    Quake(Vec<QuakeTexCoord>),
    /// MDL3–5: the skin vertices triangles index, in texels (MDL5: see the module docs).
    Skin(Vec<[i16; 2]>),
}

/// Quake's per-vertex texture coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuakeTexCoord {
    /// Non-zero when the vertex is on the seam between the front and back halves of the skin.
    pub on_seam: i32,
    /// Horizontal texel.
    pub s: i32,
    /// Vertical texel.
    pub t: i32,
}

/// Triangles of a classic model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Triangles {
    /// IDPO and MDL2.
    Quake(Vec<QuakeTriangle>),
    /// MDL3–5: vertex and skin vertex indices.
    Skin(Vec<SkinTriangle>),
}

/// Quake's triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuakeTriangle {
    /// 1 when the triangle is on the front half of the skin (seam vertices then keep their
    /// texture coordinate; on the back half they move right by half the skin).
    pub faces_front: i32,
    /// Vertex indices.
    pub vertices: [i32; 3],
}

/// MDL3–5 triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkinTriangle {
    /// Vertex indices.
    pub vertices: [u16; 3],
    /// Skin vertex indices.
    pub uvs: [u16; 3],
}

/// A classic frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Frame {
    /// One pose. `kind` 0 has byte coordinates; MDL4/MDL5 `kind` 2 has 16-bit ones.
    Single {
        /// The type word.
        kind: u32,
        /// The pose.
        pose: Pose,
    },
    /// Quake's frame group (IDPO, MDL2; type word not 0): poses with times.
    Group {
        /// The type word.
        kind: u32,
        /// Bounding box minimum of all poses.
        min: PackedVertex,
        /// Bounding box maximum of all poses.
        max: PackedVertex,
        /// Seconds each pose ends at.
        times: Vec<f32>,
        /// The poses.
        poses: Vec<Pose>,
    },
}

/// One pose of every vertex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// Bounding box minimum.
    pub min: PackedVertex,
    /// Bounding box maximum.
    pub max: PackedVertex,
    /// The name, 16 bytes as stored (bytes after the first NUL are kept).
    pub name: [u8; 16],
    /// The vertices.
    pub vertices: Vec<PackedVertex>,
}

/// A packed vertex: coordinates to multiply by the header's scale and add its translation to.
/// Byte frames store `[u8; 3]` and the normal; 16-bit frames store `[u16; 3]`, the normal and a
/// pad byte.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackedVertex {
    /// Packed coordinates.
    pub position: [u16; 3],
    /// Index into the 162 precomputed normals.
    pub normal: u8,
    /// The pad byte of 16-bit vertices (0 in byte frames).
    #[serde(default)]
    pub pad: u8,
}

/// A GameStudio MDL7 model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mdl7 {
    /// The header fields that are not list lengths.
    pub header: Mdl7Header,
    /// Bones.
    pub bones: Vec<Bone>,
    /// Groups (meshes).
    pub groups: Vec<Group>,
    /// Bytes after the last group (the entity and MED lumps, when present).
    #[serde(default, with = "crate::serde_bytes::hex")]
    pub trailer: Vec<u8>,
}

/// The MDL7 header (48 bytes) less the bone and group counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mdl7Header {
    /// Version word.
    pub version: i32,
    /// Size of the model data (the whole file in the corpus).
    pub data_size: u32,
    /// Entity lump size.
    pub entlump_size: i32,
    /// MED lump size.
    pub medlump_size: i32,
    /// The sizes of the records, as the file declares them.
    pub sizes: StructSizes,
}

/// Record sizes an MDL7 file declares; the reader supports the sizes MED wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructSizes {
    /// Bone: 16 plus the name length (16, 36 or 48).
    pub bone: u16,
    /// Skin header: 28.
    pub skin: u16,
    /// Colour: 16.
    pub color: u16,
    /// Material: 68.
    pub material: u16,
    /// Skin point (UV): 8.
    pub skin_point: u16,
    /// Triangle: 12, 16 or 26.
    pub triangle: u16,
    /// Main vertex: 16 (normal index) or 26 (float normal).
    pub main_vertex: u16,
    /// Frame vertex: 16 or 26.
    pub frame_vertex: u16,
    /// Bone transform: 68.
    pub bone_transform: u16,
    /// Frame header: 24.
    pub frame: u16,
}

/// An MDL7 bone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bone {
    /// Parent bone, `0xffff` for none.
    pub parent: u16,
    /// Pad word.
    pub pad: u16,
    /// Position (absolute, in model space, as MED writes it).
    pub position: [f32; 3],
    /// The name bytes, `sizes.bone - 16` of them.
    #[serde(with = "crate::serde_bytes::hex")]
    pub name: Vec<u8>,
}

/// An MDL7 group: one mesh with its skins, UVs, triangles, vertices, frames and deformers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Group type (1: triangle mesh).
    pub kind: u8,
    /// Most weights per vertex.
    pub max_weights: u8,
    /// Unused byte.
    pub unused: u8,
    /// The group's declared data size (its meaning varies between writers; kept as is).
    pub data_size: i32,
    /// Name, 16 bytes.
    pub name: [u8; 16],
    /// Skins.
    pub skins: Vec<Skin7>,
    /// Texture coordinates, 0–1, v down.
    pub uvs: Vec<[f32; 2]>,
    /// Triangles.
    pub triangles: Vec<Triangle7>,
    /// Vertices (the rest pose).
    pub vertices: Vec<Vertex7>,
    /// Frames.
    pub frames: Vec<Frame7>,
    /// Deformers (bone weights). The file stores every group's deformers after the last
    /// group, in group order; the group's header counts them.
    pub deformers: Vec<Deformer>,
}

/// An MDL7 skin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skin7 {
    /// Type byte: low three bits the pixel format as in [`Skin::Single`] (1: a reference to
    /// another material, 6: DDS, 7: external file), bit 3 mipmaps, bit 4 a material follows,
    /// bit 5 an ASCII effect definition follows.
    pub kind: u8,
    /// The three bytes after the type.
    pub unused: [u8; 3],
    /// Width (DDS and external: byte count of what follows; reference: material index).
    pub width: i32,
    /// Height.
    pub height: i32,
    /// Skin name, 16 bytes.
    pub name: [u8; 16],
    /// The picture data.
    pub data: SkinData,
    /// The material, when bit 4 is set.
    pub material: Option<Material7>,
    /// The ASCII effect definition, when bit 5 is set.
    #[serde(default, with = "crate::serde_bytes::opt_hex")]
    pub effect: Option<Vec<u8>>,
}

/// What follows an MDL7 skin header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkinData {
    /// Nothing (a material reference, or a skin of zero size).
    None,
    /// Pixels, and the mip levels when bit 3 is set.
    Pixels {
        /// Full size.
        #[serde(with = "crate::serde_bytes::hex")]
        pixels: Vec<u8>,
        /// Mip levels.
        #[serde(default, with = "crate::serde_bytes::hex")]
        mips: Vec<u8>,
    },
    /// An embedded DDS file (`width` bytes).
    Dds(#[serde(with = "crate::serde_bytes::hex")] Vec<u8>),
    /// An external file name (`width` bytes, NUL included).
    External(#[serde(with = "crate::serde_bytes::hex")] Vec<u8>),
}

/// An MDL7 material: four colours and a specular power.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Material7 {
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// Ambient RGBA.
    pub ambient: [f32; 4],
    /// Specular RGBA.
    pub specular: [f32; 4],
    /// Emissive RGBA.
    pub emissive: [f32; 4],
    /// Specular power.
    pub power: f32,
}

/// An MDL7 triangle. Which fields the file has depends on `sizes.triangle`: 12 bytes have the
/// vertices and one UV set, 16 add its material, 26 add a second UV set and material; fields the
/// size does not have are 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Triangle7 {
    /// Vertex indices (16 bits in 12-, 16- and 26-byte triangles; 32 in MED's 44-byte ones,
    /// which groups of more than 65,535 skin points need).
    pub vertices: [u32; 3],
    /// UV indices (16 or 32 bits, as the vertex indices; all ones is "none").
    pub uvs: [u32; 3],
    /// Material (skin) index.
    #[serde(default)]
    pub material: u32,
    /// Second UV set.
    #[serde(default)]
    pub uvs2: [u32; 3],
    /// Second material.
    #[serde(default)]
    pub material2: u32,
}

/// An MDL7 vertex (main or frame).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Vertex7 {
    /// Position.
    pub position: [f32; 3],
    /// Main vertices: the bone index (`0xffff` for none); frame vertices: the vertex it moves.
    pub index: u16,
    /// The normal.
    pub normal: Normal7,
}

/// An MDL7 vertex normal: an index (16-byte vertices) or a vector (26-byte vertices).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Normal7 {
    /// Index into the 162 precomputed normals, and a pad byte.
    Index {
        /// The index.
        index: u8,
        /// The pad byte.
        pad: u8,
    },
    /// The vector.
    Vector([f32; 3]),
}

/// An MDL7 frame: moved vertices and/or bone matrices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame7 {
    /// Name, 16 bytes.
    pub name: [u8; 16],
    /// The vertices this frame moves.
    pub vertices: Vec<Vertex7>,
    /// Bone matrices.
    pub transforms: Vec<BoneTransform>,
}

/// A bone's matrix in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoneTransform {
    /// 4x4 matrix, as stored (rows of four; the translation in the last row).
    pub matrix: [f32; 16],
    /// The bone.
    pub bone: u16,
    /// The two bytes after it.
    pub pad: [u8; 2],
}

/// An MDL7 deformer: bone weights of the group's vertices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deformer {
    /// Version byte.
    pub version: u8,
    /// Type (0: bones).
    pub kind: u8,
    /// The two bytes after it.
    pub unused: [u8; 2],
    /// Group index.
    pub group: i32,
    /// Declared data size.
    pub data_size: i32,
    /// Elements (bones).
    pub elements: Vec<DeformerElement>,
}

/// One bone of a deformer and its weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeformerElement {
    /// The bone.
    pub index: i32,
    /// Name, 20 bytes.
    pub name: [u8; 20],
    /// `(vertex, weight)` pairs.
    pub weights: Vec<(i32, f32)>,
}

/// A name field as text: the bytes up to the first NUL, Latin-1.
pub fn name_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| char::from(b))
        .collect()
}
