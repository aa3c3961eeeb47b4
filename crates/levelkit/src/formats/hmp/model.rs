//! The lossless HMP model: the header word by word, every skin's bytes as stored, and every
//! frame's vertices as stored. The counts the writer needs (`numskins`, `numframes`, and for HMP4
//! `num_stverts` and `numtris`) come from the lengths of the lists; everything else is a field.

use serde::{Deserialize, Serialize};

/// Which of the three HMP layouts a file uses (its magic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HmpVersion {
    /// `HMP4` (A5 before 5.230): an MDL4 in disguise, with texture coordinates, triangles and
    /// frames of byte-packed full 3D vertices.
    Hmp4,
    /// `HMP5` (A5 from 5.230, A6): skins with their own size, one 16-bit height per vertex.
    Hmp5,
    /// `HMP7` (A6, A7): MDL7 skins, 16-bit heights with a two-byte normal.
    Hmp7,
}

impl HmpVersion {
    /// The four magic bytes.
    pub fn magic(self) -> &'static [u8; 4] {
        match self {
            HmpVersion::Hmp4 => b"HMP4",
            HmpVersion::Hmp5 => b"HMP5",
            HmpVersion::Hmp7 => b"HMP7",
        }
    }

    /// Whether a frame of type `kind` is word-packed: an HMP4 frame of type 2, whose
    /// bounding box and vertices are 16-bit `x, y, z`, a normal index and a pad byte (8 bytes
    /// each), as in MDL4/5 frames of type 2.
    pub fn words(self, kind: u32) -> bool {
        self == HmpVersion::Hmp4 && kind == 2
    }

    /// Bytes of a frame's bounding-box vertex: 4 (`trivertx`, an HMP4 frame of type 0) or 8
    /// (three u16 and two bytes: HMP5/7, and HMP4 frames of type 2).
    pub fn bbox_size(self, kind: u32) -> usize {
        match self {
            HmpVersion::Hmp4 if !self.words(kind) => 4,
            _ => 8,
        }
    }
}

/// The 84-byte header, minus the magic and the counts the lists carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The word after the magic (`nu1`; 0 in every known file, "always 2" says the wiki).
    pub version: i32,
    /// Scale of the packed vertex coordinates (x, y, z).
    pub scale: [f32; 3],
    /// Offset of the packed vertex coordinates (x, y, z).
    pub offset: [f32; 3],
    /// Bounding radius (`nu6`; 0 in HMP7 files).
    pub bounding_radius: f32,
    /// Size of one grid cell in x and y.
    pub tri_size: [f32; 2],
    /// Vertices per grid row, as a float (`fnumverts_x`).
    pub verts_x: f32,
    /// Skin width (HMP4 skins have no size of their own; 0 in HMP7).
    pub skin_width: i32,
    /// Skin height.
    pub skin_height: i32,
    /// Vertices per frame.
    pub num_verts: i32,
    /// Triangles: the length of [`Hmp::triangles`] in HMP4, unused (kept) in HMP5/7.
    pub num_tris: i32,
    /// Texture coordinates: the length of [`Hmp::tex_coords`] in HMP4, unused (kept) in HMP5/7.
    pub num_st_verts: i32,
    /// Flags (0 in every known file).
    pub flags: i32,
    /// The last word (`size` in assimp, `nu12` in the manual; 0 in every known file).
    pub size: f32,
}

/// One skin: the type word, its size where the layout stores one, and its bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skin {
    /// The type word: low nibble the pixel format ([`super::skin::SkinKind`]), 0x10 a material
    /// follows, 0x20 an effect text follows.
    pub kind: u32,
    /// Width and height as stored (HMP5/7); `None` in HMP4, whose skins use the header's size.
    pub size: Option<[u32; 2]>,
    /// The pixels with their mip levels, the embedded DDS file, or the external file name with
    /// its NUL: exactly the bytes the type implies.
    #[serde(with = "crate::serde_bytes::base64")]
    pub data: Vec<u8>,
    /// The 68-byte MDL7 material (four RGBA float colours and a power), when `kind & 0x10`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_bytes::opt_base64"
    )]
    pub material: Option<Vec<u8>>,
    /// The effect text after its i32 length, when `kind & 0x20`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::serde_bytes::opt_base64"
    )]
    pub effect: Option<Vec<u8>>,
}

/// An HMP4 triangle: three vertex indices and three texture-coordinate indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Triangle {
    /// Indices into the frame's vertices.
    pub vertices: [u16; 3],
    /// Indices into [`Hmp::tex_coords`].
    pub tex_coords: [u16; 3],
}

/// One frame: its header and one four-byte vertex per grid point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// The type word: in HMP4 the packing, 0 (bytes) or 2 (words, [`Frame::word_vertices`]);
    /// 2 in HMP5 and HMP7 files, whose vertices are heights either way.
    pub kind: u32,
    /// The bounding-box minimum vertex as stored ([`HmpVersion::bbox_size`]: 4 bytes in an
    /// HMP4 frame of type 0, 8 otherwise).
    pub bbox_min: Vec<u8>,
    /// The bounding-box maximum vertex as stored.
    pub bbox_max: Vec<u8>,
    /// The frame name, NUL-padded.
    pub name: [u8; 16],
    /// The vertices: HMP4 type 0 `x, y, z, normal index` (bytes); HMP5 `u16 height, normal
    /// index, pad`; HMP7 `u16 height, i8 normal x, i8 normal y`. Empty in an HMP4 frame of
    /// type 2.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vertices: Vec<[u8; 4]>,
    /// The vertices of an HMP4 frame of type 2: u16 `x, y, z`, normal index, pad (the
    /// word-packed terrains of later A5 versions, which have no triangles: the grid makes
    /// them). Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub word_vertices: Vec<[u8; 8]>,
}

impl Frame {
    /// How many vertices the frame has, of either packing.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len().max(self.word_vertices.len())
    }

    /// The packed `x, y, z` of vertex `i` of an HMP4 frame (bytes or words), for positions
    /// `raw × scale + offset`.
    pub fn packed_xyz(&self, i: usize) -> Option<[u16; 3]> {
        if let Some(&[x0, x1, y0, y1, z0, z1, _, _]) = self.word_vertices.get(i) {
            let w = u16::from_le_bytes;
            return Some([w([x0, x1]), w([y0, y1]), w([z0, z1])]);
        }
        self.vertices
            .get(i)
            .map(|&[x, y, z, _]| [u16::from(x), u16::from(y), u16::from(z)])
    }
}

/// A terrain file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hmp {
    /// The layout (magic).
    pub version: HmpVersion,
    /// The header.
    pub header: Header,
    /// The skins, in file order.
    pub skins: Vec<Skin>,
    /// HMP4 only: texture coordinates in texels (`s`, `t`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tex_coords: Vec<[i16; 2]>,
    /// HMP4 only: the triangles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triangles: Vec<Triangle>,
    /// The frames (one in every known file).
    pub frames: Vec<Frame>,
    /// Bytes after the last frame, kept.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "crate::serde_bytes::base64"
    )]
    pub trailing: Vec<u8>,
}

impl Hmp {
    /// Grid columns and rows (`fnumverts_x` and `numverts / fnumverts_x`), when they make a grid
    /// of at least 2 × 2 that holds exactly `numverts` points.
    pub fn grid(&self) -> Option<(usize, usize)> {
        let x = self.header.verts_x;
        if !(2.0..=65536.0).contains(&x) {
            return None;
        }
        let nx = x as usize;
        let n = usize::try_from(self.header.num_verts).ok()?;
        let ny = n.checked_div(nx)?;
        (ny >= 2 && nx.checked_mul(ny) == Some(n)).then_some((nx, ny))
    }

    /// The frame name as text, up to its first NUL.
    pub fn frame_name(frame: &Frame) -> String {
        let end = frame.name.iter().position(|&b| b == 0).unwrap_or(16);
        String::from_utf8_lossy(frame.name.get(..end).unwrap_or_default()).into_owned()
    }
}
