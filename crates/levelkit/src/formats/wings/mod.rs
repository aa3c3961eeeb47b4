//! Wings 3D `.wings` models.
//!
//! Spec: `shared/specs/wings.txt` (the Wings wiki page) as corrected by
//! `shared/specs/wings-notes.md`, which win where they disagree: the length field is the size of
//! the term (not of the file), the `winged` tuple has five elements (the fifth is the hard-edge
//! list), `lt`/`rt` attributes belong to the start vertex in the left face and the end vertex in
//! the right face, hidden faces are faces `0 … num_hidden_faces − 1`, and lights are global
//! properties, not shapes.
//!
//! Container: `#!WINGS-1.0\r\n\x1a\x04`, a big-endian u32 N, then exactly N bytes of Erlang
//! external term (plain or in the compressed wrapper), decoded by [`crate::etf`].
//!
//! Supported: version 2 (`{wings, 2, {Shapes, Materials, Props}}`, every Wings since 0.92) as a
//! typed winged-edge model (see [`model`](Wings) for what is typed and what is kept as terms),
//! with the face walk ([`Winged::faces_ccw`]), validation of every check of the notes' §9, and
//! building meshes from polygons ([`Winged::from_polygons`]). Versions 0 and 1 (before 0.92,
//! which today's Wings refuses) read into [`Legacy`], whose [`Legacy::meshes`] gives vertices and
//! faces; they are written back unchanged.
//!
//! Byte-exactness: the model keeps every encoding choice of the term (atom tags, `FLOAT_EXT`
//! text, `STRING_EXT` versus `LIST_EXT`, the order of every list), so the written term is the
//! read term. A compressed file is re-compressed with zlib level 6, as Erlang does; its bytes are
//! identical wherever today's zlib makes the same choices as the one that wrote it (the tests
//! count both). A model built in code is written as Wings 2.2 writes (`term_to_binary(T,
//! [compressed])`, which stays uncompressed when compression would not make it smaller).
//!
//! Not supported: applying the v0 matrix and scale on import; triangulation (see §8.2).
//!
//! ```
//! use levelkit::formats::wings::{self, Content};
//!
//! // The bundled sample (made by `wings::samples::cube`).
//! let bytes = include_bytes!("../../../../../samples/cube.wings");
//! let model = wings::Wings::read(bytes)?;
//! let Content::V2(doc) = &model.content else { unreachable!() };
//! assert_eq!(doc.shapes.len(), 2);
//! assert_eq!(doc.shapes[0].mesh.faces.len(), 6);
//! assert!(model.validate().is_empty());
//! assert_eq!(model.write()?, bytes);
//! # Ok::<(), levelkit::Error>(())
//! ```

mod build;
mod codec;
mod dump;
mod fast;
mod mesh;
mod model;
mod polygons;
mod read;
pub mod samples;
mod scene;
mod terms;
mod validate;
mod write;

pub use mesh::{Corner, Polygon};
pub use model::*;
pub use polygons::{LegacyMesh, PolyFace, PolyMesh};
pub use read::{MAGIC, PAYLOAD_OFFSET, read, read_container, read_with};
pub use terms::read_content;
pub use validate::validate;
pub use write::{write, write_container, write_content};

use serde::Serialize;

use crate::error::{Result, Warning};
use crate::etf::{Compression, Term};
use crate::limits::Limits;

impl Wings {
    /// Read a file (see [`read`]).
    pub fn read(bytes: &[u8]) -> Result<Wings> {
        read(bytes)
    }

    /// Read a file under explicit limits.
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wings> {
        read_with(bytes, limits)
    }

    /// Write the file.
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// The whole term the model stands for.
    pub fn to_term(&self) -> Term {
        write_content(&self.content)
    }

    /// Check the model and collect every finding (see [`validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate(self)
    }

    /// The version 2 document, if this is one.
    pub fn document(&self) -> Option<&Document> {
        match &self.content {
            Content::V2(doc) => Some(doc),
            Content::Legacy(_) => None,
        }
    }

    /// The file's version: 2, or 0/1 for legacy files.
    pub fn version(&self) -> u8 {
        match &self.content {
            Content::V2(_) => 2,
            Content::Legacy(l) => l.version,
        }
    }

    /// Summarise the model.
    pub fn summary(&self) -> Summary {
        let compressed = match self.compression {
            Some(Compression::Zlib) => Some(true),
            Some(Compression::None) => Some(false),
            None => None,
        };
        match &self.content {
            Content::V2(doc) => Summary {
                version: 2,
                objects: doc.shapes.len(),
                vertices: doc.shapes.iter().map(|s| s.mesh.vertices.len()).sum(),
                edges: doc.shapes.iter().map(|s| s.mesh.edges.len()).sum(),
                faces: doc.shapes.iter().map(|s| s.mesh.faces.len()).sum(),
                materials: doc.materials.len(),
                images: doc.images().len(),
                lights: doc.lights().len(),
                compressed,
            },
            Content::Legacy(l) => {
                let meshes = l.meshes().unwrap_or_default();
                Summary {
                    version: l.version,
                    objects: meshes.len(),
                    vertices: meshes.iter().map(|m| m.positions.len()).sum(),
                    edges: 0,
                    faces: meshes.iter().map(|m| m.faces.len()).sum(),
                    materials: 0,
                    images: 0,
                    lights: 0,
                    compressed,
                }
            }
        }
    }
}

/// A one-look summary for `levelkit info`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// File version (2; 0 or 1 for pre-0.92 files).
    pub version: u8,
    /// Objects (shapes; lights are not objects).
    pub objects: usize,
    /// Vertices over all objects.
    pub vertices: usize,
    /// Edges over all objects (0 for legacy files, which have none).
    pub edges: usize,
    /// Faces over all objects.
    pub faces: usize,
    /// Materials.
    pub materials: usize,
    /// Images of the `images` property.
    pub images: usize,
    /// Lights of the `lights` property.
    pub lights: usize,
    /// Whether the term is zlib-compressed; `None` for a model built in code (written as Wings
    /// would choose).
    pub compressed: Option<bool>,
}
