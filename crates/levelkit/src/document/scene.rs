//! A glTF, GLB or OBJ file as a document: the common 3D model read by `gltf::read` /
//! `obj::read` and written by `gltf::write` / `obj::write`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::codec::ExportFiles;
use crate::codec::{Codec, Resolver, summary_value};
use crate::error::{Error, Location, Result, Warning};
use crate::limits::Limits;
use crate::registry::Format;
use crate::scene::Scene;

/// A glTF, GLB or OBJ file in the common 3D model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SceneDoc {
    /// [`Format::Gltf`], [`Format::Glb`] or [`Format::Obj`]: the form it was read in, and is
    /// written back in.
    pub format: Format,
    /// The scene.
    pub scene: Scene,
    /// What reading the file noticed (not in JSON).
    #[serde(skip)]
    pub warnings: Vec<Warning>,
}

impl Codec for SceneDoc {
    fn format(&self) -> Format {
        self.format
    }

    fn read(format: Format, bytes: &[u8], _: &Limits, resolve: Resolver<'_>) -> Result<Self> {
        let (mut scene, warnings) = if format == Format::Obj {
            crate::obj::read(bytes, &mut *resolve)?
        } else {
            crate::gltf::read(bytes, &mut *resolve)?
        };
        super::assets::embed_encoded_textures(&mut scene, resolve);
        Ok(SceneDoc {
            format,
            scene,
            warnings,
        })
    }

    fn write(&self) -> Result<Vec<u8>> {
        export_scene(&self.scene, self.format, "model").map(|f| f.main)
    }

    fn validate(&self) -> Vec<Warning> {
        let mut out = self.warnings.clone();
        out.extend(self.scene.validate());
        out
    }

    fn summary(&self) -> Value {
        summary_value(self.scene.counts())
    }

    fn version(&self) -> String {
        match self.format {
            Format::Obj => "Wavefront OBJ".to_owned(),
            _ => format!(
                "glTF {}",
                self.scene
                    .extras
                    .get("gltf_version")
                    .and_then(|v| v.as_str())
                    .unwrap_or("2.0")
            ),
        }
    }

    fn dump(&self, name: &str) -> String {
        let header = format!("{name}: {} scene", self.format.name());
        crate::scene::dump::dump(&header, &self.scene)
    }

    fn to_scene(&self) -> Option<(Scene, Vec<Warning>)> {
        Some((self.scene.clone(), self.warnings.clone()))
    }
}

/// A scene as `format` (glTF with embedded buffers, GLB or OBJ), side files named after `stem`.
pub fn export_scene(scene: &Scene, format: Format, stem: &str) -> Result<ExportFiles> {
    match format {
        Format::Obj => crate::obj::write(
            scene,
            &crate::obj::ObjOptions {
                triangulate: false,
                stem: stem.to_owned(),
            },
        ),
        Format::Gltf | Format::Glb => crate::gltf::write(
            scene,
            &crate::gltf::GltfOptions {
                binary: format == Format::Glb,
                embed: true,
                stem: stem.to_owned(),
            },
        ),
        other => Err(Error::unsupported(
            other,
            Location::default(),
            format!("a scene cannot be written as {}", other.name()),
        )),
    }
}
