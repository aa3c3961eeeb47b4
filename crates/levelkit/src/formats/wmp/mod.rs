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
//! * [`crate::formats::wad`] (beside this folder, as WMB and the viewer use it too): texture
//!   WADs (WAD2 layout), for real textures when a level's WAD is found.
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
mod codec;
pub mod geometry;
pub mod level;
pub mod resolve;
pub mod samples;
mod scene;
pub(crate) use scene::engine_transform;
pub mod text;

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

/// The WAD files a text level names in `wed { wad { … } }` (`<standard.wad> 1`), as written,
/// in order. WMPB and `$$M` files name none (a `$$M` names the compiled `$$W` of the level
/// settings, [`Settings::wad`]).
pub fn wad_names(file: &WmpText) -> Vec<String> {
    let Some(wed) = file.header.wed.as_deref() else {
        return Vec::new();
    };
    let Some(start) = wed.find("wad") else {
        return Vec::new();
    };
    let section = wed.get(start..).unwrap_or_default();
    let section = section
        .get(..section.find('}').unwrap_or(section.len()))
        .unwrap_or_default();
    section
        .split('<')
        .skip(1)
        .filter_map(|rest| rest.split_once('>').map(|(name, _)| name.to_owned()))
        .collect()
}

/// The level palette of `wed { palette { … } }` (256 hex RGB triplets) as 768 bytes, if the
/// file has a complete one.
pub fn wed_palette(file: &WmpText) -> Option<Vec<u8>> {
    let wed = file.header.wed.as_deref()?;
    let start = wed.find("palette")?;
    let body = wed.get(start..)?;
    let body = body.get(body.find('{')? + 1..body.find('}')?)?;
    let bytes: Vec<u8> = body
        .split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).ok())
        .collect::<Option<_>>()?;
    (bytes.len() == 768).then_some(bytes)
}

/// Give the materials of a level's scene ([`to_scene`]) the textures of the same name found in
/// `wads` (first match wins), and rescale their faces' texture coordinates from
/// [`DEFAULT_TEXTURE_SIZE`] to the real size. Returns how many materials got a texture.
pub fn attach_wad_textures(
    scene: &mut crate::scene::Scene,
    wads: &[crate::formats::wad::Wad],
) -> usize {
    use crate::scene::{Texture, TextureSource};
    let mut sizes: Vec<Option<(f64, f64)>> = vec![None; scene.materials.len()];
    for (m, material) in scene.materials.iter_mut().enumerate() {
        let Some(name) = material.name.clone() else {
            continue;
        };
        let Some(found) = wads.iter().find_map(|w| w.find(&name)) else {
            continue;
        };
        let texture = scene.textures.len();
        scene.textures.push(Texture {
            name: Some(found.name.clone()),
            source: TextureSource::Pixels {
                width: found.width,
                height: found.height,
                channels: 4,
                data: found.rgba.clone(),
            },
            extras: Default::default(),
        });
        material.base_color_texture = Some(texture);
        material.base_color = [1.0; 4];
        material.extras.insert(
            "texture_size".into(),
            serde_json::json!([found.width, found.height]),
        );
        if let Some(slot) = sizes.get_mut(m) {
            *slot = Some((f64::from(found.width), f64::from(found.height)));
        }
    }
    for mesh in &mut scene.meshes {
        // Faces with explicit coordinates (WED's `[ u v … ]`) keep them.
        let explicit: Vec<u64> = match mesh.extras.get(scene::EXPLICIT_UV_FACES) {
            Some(serde_json::Value::Array(faces)) => {
                faces.iter().filter_map(serde_json::Value::as_u64).collect()
            }
            _ => Vec::new(),
        };
        for (f, face) in mesh.faces.iter_mut().enumerate() {
            if explicit.binary_search(&(f as u64)).is_ok() {
                continue;
            }
            let Some(Some((w, h))) = face.material.and_then(|m| sizes.get(m)).copied() else {
                continue;
            };
            for corner in &mut face.corners {
                if let Some(uv) = &mut corner.uv {
                    uv[0] *= DEFAULT_TEXTURE_SIZE / w.max(1.0);
                    uv[1] *= DEFAULT_TEXTURE_SIZE / h.max(1.0);
                }
            }
        }
    }
    sizes.iter().filter(|s| s.is_some()).count()
}
