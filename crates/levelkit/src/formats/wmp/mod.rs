//! 3D GameStudio levels: the `.wmp` text dialects (A4, v510, v710), the binary WMPB and the
//! compiler intermediate `$$M`.
//!
//! Spec: `shared/specs/wmp.txt` (the Conitec manual page, v710 only) as corrected and completed
//! by `shared/specs/wmp-notes.md`.
//!
//! * [`text`]: the text dialects A4, v510, v710 and `$$M` 711, read and written byte for byte.
//! * [`binary`]: WMPB, the binary level of WED A7/A8, read as a record tree and written back
//!   byte for byte, with the known records decoded.
//! * [`level`]: what a level means, whatever file it came from; both readers convert to it.
//! * [`geometry`]: A4 blocks from their planes, texture vectors where a dialect has none.
//! * [`resolve`]: the group hierarchy applied, as WED does when it writes `$$M`.
//! * [`to_scene`]: blocks, lights, models, sounds, paths and starts as a [`crate::scene::Scene`].
//! * [`wad`]: texture WADs (WAD2 layout), for real textures when a level's WAD is found.
//!
//! ```
//! use levelkit::formats::wmp::{self, text::{Dialect, WmpText}};
//!
//! // The bundled sample level, written by our v710 writer, read back and compiled to `$$M`.
//! let (text, _) = WmpText::from_level(&wmp::samples::room(), Dialect::V710)?;
//! let bytes = text.write()?;
//! let again = WmpText::read(&bytes)?;
//! assert_eq!(again.write()?, bytes);
//! let (compiled, _) = wmp::compile(&wmp::level_of_text(&again).0)?;
//! assert_eq!(compiled.dialect(), Dialect::DollarM);
//! # Ok::<(), levelkit::Error>(())
//! ```

pub mod binary;
pub mod geometry;
pub mod level;
pub mod resolve;
pub mod samples;
mod scene;
pub mod text;
pub mod wad;

pub use level::{Block, Entity, EntityKind, Face, Group, Level, Settings, Transform};

pub use scene::{DEFAULT_TEXTURE_SIZE, to_scene};

use crate::error::{Location, Result, Warning};
use crate::registry::Format;
use text::{Dialect, WmpText};

/// The level of a text file, with A4 blocks built from their planes
/// ([`geometry::polyhedron_from_planes`]; degenerate blocks and redundant planes reported).
pub fn level_of_text(file: &WmpText) -> (Level, Vec<Warning>) {
    let (mut level, mut warnings) = file.to_level();
    if file.dialect() == Dialect::A4 {
        // The planes are turned into vertices here, which is what the reader's note asks for.
        warnings.retain(|w| !w.message.contains("WmpText::planes"));
        warnings.extend(build_a4_blocks(&mut level, file));
    }
    (level, warnings)
}

/// What building an A4 file's blocks from their planes finds wrong (redundant planes,
/// collinear points, blocks without volume); empty for other dialects.
pub fn a4_findings(file: &WmpText) -> Vec<Warning> {
    if file.dialect() != Dialect::A4 {
        return Vec::new();
    }
    let (mut level, _) = file.to_level();
    build_a4_blocks(&mut level, file)
}

fn build_a4_blocks(level: &mut Level, file: &WmpText) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for (b, (block, planes)) in level.blocks.iter_mut().zip(file.planes()).enumerate() {
        if !block.vertices.is_empty() || planes.is_empty() {
            continue;
        }
        let poly = geometry::polyhedron_from_planes(&planes);
        for problem in &poly.problems {
            warnings.push(Warning::warning(
                Format::WmpText,
                Location::path(format!("blocks/{b}")),
                format!("A4 block {b}: {problem}"),
            ));
        }
        block.vertices = poly.vertices;
        for (face, indices) in block.faces.iter_mut().zip(poly.faces) {
            face.indices = indices;
        }
    }
    warnings
}

/// The `$$M` WED would write for `level`: groups resolved into world coordinates
/// ([`resolve::resolve`]), angles in degrees, texture vectors computed where the level has
/// none.
pub fn compile(level: &Level) -> Result<(WmpText, Vec<Warning>)> {
    let (mut resolved, mut warnings) = if level.angles_in_degrees && level.groups.is_empty() {
        (level.clone(), Vec::new())
    } else {
        resolve::resolve(level)
    };
    for block in &mut resolved.blocks {
        for f in 0..block.faces.len() {
            let Some(face) = block.faces.get(f) else {
                continue;
            };
            if face.texture_vectors.is_some() {
                continue;
            }
            let normal = geometry::outward_normal(&block.vertices, &face.indices);
            let transform = face.texture_transform.unwrap_or([0.0, 0.0, 0.0, 1.0, 1.0]);
            if let (Some(normal), Some(face)) = (normal, block.faces.get_mut(f)) {
                face.texture_vectors = Some(geometry::texture_vectors(normal, transform));
            }
        }
    }
    let (file, more) = WmpText::from_level(&resolved, Dialect::DollarM)?;
    warnings.extend(more);
    Ok((file, warnings))
}
