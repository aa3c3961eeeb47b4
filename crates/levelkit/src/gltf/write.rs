//! The glTF writer: a [`Scene`] to glTF 2.0 or GLB (documented in the module above).

use crate::scene::vec3::{cross, dot, unit};
use std::collections::BTreeMap;
use std::hash::BuildHasher;

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::mesh::{Mode, Semantic};
use json::validation::Checked::Valid;
use json::validation::USize64;
use serde_json::{Map, Value};

use super::glb::{self, pad4};
use super::keys;
use super::uri::{file_uri, percent_encode, sniff_image};
use crate::codec::ExportFiles;
use crate::encoding::{PngColor, PngImage, base64_encode};
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::registry::Format;
use crate::scene::transform::{axis_angle, decompose, quat_mul, svd_split, unit_quat};
use crate::scene::triangulate::triangulate_into;
use crate::scene::{
    AlphaMode, Camera, LightKind, Mesh, Motion, Polyline, Projection, Scene, TextureSource,
    Transform,
};

/// How [`write()`] lays out its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GltfOptions {
    /// `true`: one `.glb` (the buffer in its `BIN` chunk, images as buffer views). `false`: a
    /// `.gltf` JSON file.
    pub binary: bool,
    /// For a `.gltf`: `true` puts the buffer and images in `data:` URIs; `false` writes them as
    /// side files `<stem>.bin` and `<stem>_<texture index>.png` (or `.jpg`), referenced by
    /// relative URI. Ignored for a `.glb`.
    pub embed: bool,
    /// The file stem for side files (usually the output's file name without extension).
    pub stem: String,
}

impl Default for GltfOptions {
    fn default() -> Self {
        GltfOptions {
            binary: true,
            embed: true,
            stem: "scene".into(),
        }
    }
}

/// Write `scene` as glTF 2.0 (see the module docs for what maps where).
///
/// Fails when [`Scene::validate`] finds an error, and when the output would not fit glTF's 32-bit
/// sizes. What does not map is listed in [`ExportFiles::warnings`].
pub fn write(scene: &Scene, options: &GltfOptions) -> Result<ExportFiles> {
    let format = if options.binary {
        Format::Glb
    } else {
        Format::Gltf
    };
    scene.refuse_invalid(format, "the scene is not valid")?;
    let mut w = Writer::new(scene, options, format);
    w.write_textures()?;
    w.write_materials()?;
    w.reserve_meshes();
    w.write_meshes()?;
    w.write_cameras();
    w.write_lights()?;
    let spins = w.plan_spins();
    let targets = w.write_nodes(&spins)?;
    w.write_skins()?;
    w.write_animations(&spins, &targets)?;
    w.write_joint_animations()?;
    w.write_scene()?;
    w.finish()
}

/// Where a scene light went.
#[derive(Debug, Clone, Copy)]
enum LightSlot {
    /// `KHR_lights_punctual` light.
    Punctual(u32),
    /// Entry of the scene's `extras.ambient_lights`.
    Ambient(u32),
}

/// A spin to write: its animation and its unit axis.
#[derive(Debug, Clone, Copy)]
struct Spin {
    animation: usize,
    axis: [f64; 3],
    /// Signed speed.
    degrees_per_second: f64,
}

struct Writer<'a> {
    scene: &'a Scene,
    options: &'a GltfOptions,
    format: Format,
    root: json::Root,
    bin: Vec<u8>,
    side_files: Vec<(String, Vec<u8>)>,
    warnings: Vec<Warning>,
    notes: Vec<String>,
    scene_extras: Map<String, Value>,
    /// Scene texture -> glTF texture.
    textures: Vec<Option<u32>>,
    /// Scene material -> whether it uses a texture (its primitives then need `TEXCOORD_0`).
    textured: Vec<bool>,
    /// Scene material -> whether it has a normal map (its primitives then get `TANGENT`).
    normal_mapped: Vec<bool>,
    /// Scene mesh -> glTF mesh.
    meshes: Vec<Option<u32>>,
    /// Scene camera -> glTF camera.
    cameras: Vec<Option<u32>>,
    lights: Vec<LightSlot>,
}

impl<'a> Writer<'a> {
    fn new(scene: &'a Scene, options: &'a GltfOptions, format: Format) -> Self {
        let mut root = json::Root::default();
        root.asset.generator = Some(format!("levelkit {}", env!("CARGO_PKG_VERSION")));
        Writer {
            scene,
            options,
            format,
            root,
            bin: Vec::new(),
            side_files: Vec::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
            scene_extras: scene.extras.clone(),
            textures: Vec::new(),
            textured: Vec::new(),
            normal_mapped: Vec::new(),
            meshes: Vec::new(),
            cameras: Vec::new(),
            lights: Vec::new(),
        }
    }

    fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings
            .push(Warning::warning(self.format, Location::path(path), message));
    }

    fn too_big(&self, what: &str) -> Error {
        Error::new(
            self.format,
            ErrorKind::LimitExceeded,
            Location::default(),
            format!("{what} does not fit glTF's 32-bit indices and sizes"),
        )
    }

    fn extras(&self, map: &Map<String, Value>) -> Result<json::Extras> {
        if map.is_empty() {
            return Ok(None);
        }
        self.raw_extras(map)
    }

    /// `value` as glTF raw JSON extras, written straight into the raw value
    /// (`RawValue::from_string` would parse it again).
    fn raw_extras(&self, value: &impl serde::Serialize) -> Result<json::Extras> {
        serde_json::value::to_raw_value(value)
            .map(Some)
            .map_err(|e| Error::malformed(self.format, Location::default(), format!("extras: {e}")))
    }

    // ---- buffers -------------------------------------------------------------------------

    /// Append `bytes` as a buffer view, 4-byte aligned.
    fn push_view(
        &mut self,
        bytes: &[u8],
        target: Option<Target>,
        stride: Option<usize>,
    ) -> Result<json::Index<json::buffer::View>> {
        self.push_view_by(target, stride, |bin| bin.extend_from_slice(bytes))
    }

    /// [`Self::push_view`] of the bytes `write` appends to the buffer.
    fn push_view_by(
        &mut self,
        target: Option<Target>,
        stride: Option<usize>,
        write: impl FnOnce(&mut Vec<u8>),
    ) -> Result<json::Index<json::buffer::View>> {
        pad4(&mut self.bin, 0);
        let offset = self.bin.len();
        write(&mut self.bin);
        let byte_length = self.bin.len().saturating_sub(offset);
        pad4(&mut self.bin, 0);
        let view = json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(byte_length),
            byte_offset: (offset > 0).then(|| USize64::from(offset)),
            byte_stride: stride.map(json::buffer::Stride),
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: None,
        };
        push(&mut self.root.buffer_views, view).ok_or_else(|| self.too_big("buffer views"))
    }

    /// Append float data of accessor type `kind` (tightly packed); vertex attributes get a
    /// stride, positions and animation times `min`/`max`.
    fn push_floats(
        &mut self,
        data: &[f32],
        kind: Type,
        target: Option<Target>,
        min_max: bool,
    ) -> Result<json::Index<json::Accessor>> {
        let n = kind.multiplicity();
        let count = data.len() / n.max(1);
        let stride = (target == Some(Target::ArrayBuffer)).then_some(n * 4);
        let view = self.push_view_by(target, stride, |bin| {
            bin.reserve(data.len() * 4);
            for v in data {
                bin.extend_from_slice(&v.to_le_bytes());
            }
        })?;
        let (min, max) = if min_max {
            let mut lo = vec![f32::INFINITY; n];
            let mut hi = vec![f32::NEG_INFINITY; n];
            for chunk in data.chunks_exact(n.max(1)) {
                // Compared, not `f32::min`/`max`: those may return either zero for -0.0 and
                // 0.0 (x86 and WebAssembly differ), and the CLI and the browser viewer must
                // write the same bytes. NaNs are skipped, as `min`/`max` skip them.
                for ((l, h), v) in lo.iter_mut().zip(hi.iter_mut()).zip(chunk) {
                    if *v < *l {
                        *l = *v;
                    }
                    if *v > *h {
                        *h = *v;
                    }
                }
            }
            let arr = |v: Vec<f32>| Value::Array(v.into_iter().map(f32_value).collect());
            (Some(arr(lo)), Some(arr(hi)))
        } else {
            (None, None)
        };
        self.push_accessor(view, count, ComponentType::F32, kind, (min, max))
    }

    /// Append an accessor over the whole of `view`: `count` elements of `kind` made of
    /// `component`s, with their bounds where given.
    fn push_accessor(
        &mut self,
        view: json::Index<json::buffer::View>,
        count: usize,
        component: ComponentType,
        kind: Type,
        (min, max): (Option<Value>, Option<Value>),
    ) -> Result<json::Index<json::Accessor>> {
        let accessor = json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Valid(kind),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        };
        push(&mut self.root.accessors, accessor).ok_or_else(|| self.too_big("accessors"))
    }

    /// Append `JOINTS_0` data: four `u16` joint indices per vertex.
    fn push_joints(&mut self, data: &[u16]) -> Result<json::Index<json::Accessor>> {
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.push_view(&bytes, Some(Target::ArrayBuffer), Some(8))?;
        self.push_accessor(
            view,
            data.len() / 4,
            ComponentType::U16,
            Type::Vec4,
            (None, None),
        )
    }

    /// Append triangle indices: `u16` when every index fits below 65 535 (glTF forbids the
    /// primitive-restart value), `u32` otherwise.
    fn push_indices(
        &mut self,
        indices: &[u32],
        vertex_count: usize,
    ) -> Result<json::Index<json::Accessor>> {
        let (bytes, component): (Vec<u8>, ComponentType) = if vertex_count <= 65_535 {
            let bytes = indices
                .iter()
                .flat_map(|&i| u16::try_from(i).unwrap_or(u16::MAX).to_le_bytes())
                .collect();
            (bytes, ComponentType::U16)
        } else {
            let bytes = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
            (bytes, ComponentType::U32)
        };
        let view = self.push_view(&bytes, Some(Target::ElementArrayBuffer), None)?;
        self.push_accessor(view, indices.len(), component, Type::Scalar, (None, None))
    }

    // ---- textures and materials -----------------------------------------------------------

    fn write_textures(&mut self) -> Result<()> {
        let scene = self.scene;
        // Every texture given as pixels is encoded first, all at once (on several cores).
        let pixels: Vec<Option<PngImage<'_>>> = scene
            .textures
            .iter()
            .map(|t| match &t.source {
                TextureSource::Pixels {
                    width,
                    height,
                    channels,
                    data,
                } => Some(PngImage::new(
                    *width,
                    *height,
                    // More than 4 channels: `encode_png` refuses the size (as RGBA).
                    PngColor::with_channels(*channels).unwrap_or(PngColor::Rgba),
                    data,
                )),
                _ => None,
            })
            .collect();
        let mut pngs = crate::encoding::encode_pngs(&pixels).into_iter();
        for (i, t) in scene.textures.iter().enumerate() {
            let at = format!("textures[{i}]");
            let encoded = pngs.next().flatten();
            let image = match &t.source {
                TextureSource::Pixels { .. } => {
                    let png = encoded
                        .unwrap_or_else(|| Err("the texture was not encoded".into()))
                        .map_err(|e| {
                            Error::malformed(
                                self.format,
                                Location::path(at.clone()),
                                format!("encoding the texture as PNG: {e}"),
                            )
                        })?;
                    self.place_image(i, "image/png", png)?
                }
                TextureSource::Encoded { mime_type, data } => {
                    let Some(mime) = sniff_image(data) else {
                        self.warn(
                            at,
                            format!(
                                "texture data ({mime_type}) is neither PNG nor JPEG, the only \
                                 image types glTF allows; left out"
                            ),
                        );
                        self.textures.push(None);
                        continue;
                    };
                    if !mime_type.eq_ignore_ascii_case(mime) {
                        self.warn(
                            at,
                            format!(
                                "texture says it is {mime_type} but its bytes are {mime}; \
                                 written as {mime}"
                            ),
                        );
                    }
                    self.place_image(i, mime, data.clone())?
                }
                TextureSource::File(path) => {
                    let uri = file_uri(path);
                    if path.contains('\\') {
                        self.warn(
                            at,
                            format!("texture path {path:?}: backslashes written as '/'"),
                        );
                    }
                    json::Image {
                        buffer_view: None,
                        mime_type: None,
                        name: None,
                        uri: Some(uri),
                        extensions: None,
                        extras: None,
                    }
                }
            };
            let image = json::Image {
                name: t.name.clone(),
                ..image
            };
            let source =
                push(&mut self.root.images, image).ok_or_else(|| self.too_big("images"))?;
            let sampler = self.sampler()?;
            let texture = json::Texture {
                name: t.name.clone(),
                sampler: Some(sampler),
                source,
                extensions: None,
                extras: self.extras(&t.extras)?,
            };
            let index =
                push(&mut self.root.textures, texture).ok_or_else(|| self.too_big("textures"))?;
            self.textures.push(u32::try_from(index.value()).ok());
        }
        Ok(())
    }

    /// The one sampler all textures share: `REPEAT`, linear filters.
    fn sampler(&mut self) -> Result<json::Index<json::texture::Sampler>> {
        if self.root.samplers.is_empty() {
            self.root.samplers.push(json::texture::Sampler {
                mag_filter: Some(Valid(json::texture::MagFilter::Linear)),
                min_filter: Some(Valid(json::texture::MinFilter::Linear)),
                name: None,
                wrap_s: Valid(json::texture::WrappingMode::Repeat),
                wrap_t: Valid(json::texture::WrappingMode::Repeat),
                extensions: None,
                extras: None,
            });
        }
        Ok(json::Index::new(0))
    }

    /// An image with `data`: a buffer view (GLB), a `data:` URI (embedded) or a side file.
    fn place_image(&mut self, texture: usize, mime: &str, data: Vec<u8>) -> Result<json::Image> {
        let mut image = json::Image {
            buffer_view: None,
            mime_type: Some(json::image::MimeType(mime.to_owned())),
            name: None,
            uri: None,
            extensions: None,
            extras: None,
        };
        if self.options.binary {
            image.buffer_view = Some(self.push_view(&data, None, None)?);
        } else if self.options.embed {
            image.uri = Some(format!("data:{mime};base64,{}", base64_encode(&data)));
        } else {
            let ext = if mime == "image/jpeg" { "jpg" } else { "png" };
            let name = format!("{}_{texture}.{ext}", self.options.stem);
            image.uri = Some(percent_encode(&name));
            self.side_files.push((name, data));
        }
        Ok(image)
    }

    fn write_materials(&mut self) -> Result<()> {
        let scene = self.scene;
        for (i, m) in scene.materials.iter().enumerate() {
            let mut textured = false;
            let mut slot = |w: &mut Self, t: Option<usize>, what: &str| -> Option<u32> {
                let t = t?;
                let mapped = w.textures.get(t).copied().flatten();
                if mapped.is_none() {
                    w.warn(
                        format!("materials[{i}].{what}"),
                        format!("texture {t} was left out, so the material loses its {what}"),
                    );
                }
                textured |= mapped.is_some();
                mapped
            };
            let info = |t: Option<u32>| {
                t.map(|t| json::texture::Info {
                    index: json::Index::new(t),
                    tex_coord: 0,
                    extensions: None,
                    extras: None,
                })
            };
            let base = slot(self, m.base_color_texture, "base_color_texture");
            let mr = slot(
                self,
                m.metallic_roughness_texture,
                "metallic_roughness_texture",
            );
            let normal = slot(self, m.normal_texture, "normal_texture");
            // A lightmap goes in the occlusion slot, sampled with TEXCOORD_1: glTF's one
            // multiplicative baked-light map (see the module docs).
            let lightmap = scene.lightmap_of(i);
            let occlusion = slot(self, lightmap.or(m.occlusion_texture), "occlusion_texture");
            let occlusion_uvs = u32::from(lightmap.is_some() && occlusion.is_some());
            let emissive = slot(self, m.emissive_texture, "emissive_texture");
            let (alpha_mode, alpha_cutoff) = match m.alpha_mode {
                AlphaMode::Opaque => (json::material::AlphaMode::Opaque, None),
                AlphaMode::Blend => (json::material::AlphaMode::Blend, None),
                AlphaMode::Mask(c) => {
                    let c = if c.is_finite() && c >= 0.0 {
                        c
                    } else {
                        self.warn(
                            format!("materials[{i}].alpha_mode"),
                            format!("alpha cutoff {c} is not a non-negative number; 0.5 written"),
                        );
                        0.5
                    };
                    (
                        json::material::AlphaMode::Mask,
                        Some(json::material::AlphaCutoff(c)),
                    )
                }
            };
            let mut extras = m.extras.clone();
            if let Some(phong) = &m.phong {
                let value = serde_json::to_value(phong).map_err(|e| {
                    Error::malformed(
                        self.format,
                        Location::path(format!("materials[{i}].phong")),
                        e.to_string(),
                    )
                })?;
                extras.insert(keys::PHONG.into(), value);
            }
            extras.insert(keys::VERTEX_COLORS.into(), Value::Bool(m.vertex_colors));
            if lightmap.is_some() && occlusion.is_some() {
                extras.insert(keys::LIGHTMAP.into(), Value::Bool(true));
            }
            let material = json::Material {
                alpha_cutoff,
                alpha_mode: Valid(alpha_mode),
                double_sided: m.double_sided,
                name: m.name.clone(),
                pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                    base_color_factor: json::material::PbrBaseColorFactor(m.base_color),
                    base_color_texture: info(base),
                    metallic_factor: json::material::StrengthFactor(m.metallic),
                    roughness_factor: json::material::StrengthFactor(m.roughness),
                    metallic_roughness_texture: info(mr),
                    extensions: None,
                    extras: None,
                },
                normal_texture: normal.map(|t| json::material::NormalTexture {
                    index: json::Index::new(t),
                    scale: 1.0,
                    tex_coord: 0,
                    extensions: None,
                    extras: None,
                }),
                occlusion_texture: occlusion.map(|t| json::material::OcclusionTexture {
                    index: json::Index::new(t),
                    strength: json::material::StrengthFactor(1.0),
                    tex_coord: occlusion_uvs,
                    extensions: None,
                    extras: None,
                }),
                emissive_texture: info(emissive),
                emissive_factor: json::material::EmissiveFactor(m.emissive),
                extensions: None,
                extras: self.extras(&extras)?,
            };
            push(&mut self.root.materials, material).ok_or_else(|| self.too_big("materials"))?;
            self.textured.push(textured);
            self.normal_mapped.push(normal.is_some());
        }
        Ok(())
    }

    // ---- meshes ------------------------------------------------------------------------------

    /// Make room in the buffer, once, for what the meshes can take at most (every corner its
    /// own vertex with every attribute, every morph target), so that it is not copied each
    /// time it doubles: untouched room costs no memory, and the copies of a growing buffer
    /// were a sixth of the pages a 10,000-vertex model touched.
    fn reserve_meshes(&mut self) {
        let scene = self.scene;
        let mut bytes = 0usize;
        for (mi, mesh) in scene.meshes.iter().enumerate() {
            let (corners, triangles) = mesh.faces.iter().fold((0usize, 0usize), |(c, t), f| {
                let n = f.corners.len();
                (c.saturating_add(n), t.saturating_add(n.saturating_sub(2)))
            });
            let targets = scene.morphs_of(mi).map_or(0, |m| m.targets.len());
            // Position, normal, two UV sets, tangent, colour, joints, weights; and a position
            // a target.
            let per_vertex = 12 + 12 + 8 + 8 + 16 + 16 + 8 + 16 + targets.saturating_mul(12);
            bytes = bytes
                .saturating_add(corners.saturating_mul(per_vertex))
                .saturating_add(triangles.saturating_mul(12))
                .saturating_add(mesh.lines.len().saturating_mul(64));
        }
        // Room only: past 64 MiB the copies are a small part of the work, and a bound three
        // times what a large model needs would count against a limit on address space.
        self.bin.reserve(bytes.min(64 << 20));
    }

    fn write_meshes(&mut self) -> Result<()> {
        let scene = self.scene;
        for (mi, mesh) in scene.meshes.iter().enumerate() {
            if mesh.faces.is_empty() && mesh.lines.is_empty() {
                self.warn(
                    format!("meshes[{mi}]"),
                    "mesh has no faces and no lines; glTF has no empty meshes, so it is left \
                     out (nodes that use it lose their mesh)",
                );
                self.meshes.push(None);
                continue;
            }
            let normals = mesh.corner_normals();
            let mut starts = Vec::with_capacity(mesh.faces.len());
            let mut total = 0usize;
            for f in &mesh.faces {
                starts.push(total);
                total += f.corners.len();
            }
            // Faces grouped by material, groups in order of first use.
            let mut order: Vec<Option<usize>> = Vec::new();
            let mut groups: rustc_hash::FxHashMap<Option<usize>, Vec<usize>> =
                rustc_hash::FxHashMap::default();
            for (fi, f) in mesh.faces.iter().enumerate() {
                groups
                    .entry(f.material)
                    .or_insert_with(|| {
                        order.push(f.material);
                        Vec::with_capacity(if order.len() == 1 {
                            mesh.faces.len()
                        } else {
                            0
                        })
                    })
                    .push(fi);
            }
            let mut primitives = Vec::new();
            for material in order {
                let faces = groups.remove(&material).unwrap_or_default();
                let ctx = FaceGroup {
                    mi,
                    mesh,
                    normals: &normals,
                    starts: &starts,
                    material,
                    faces: &faces,
                };
                primitives.push(self.face_primitive(&ctx)?);
            }
            for (li, line) in mesh.lines.iter().enumerate() {
                primitives.push(self.line_primitive(mi, li, mesh, line)?);
            }
            let mut mesh_extras = mesh.extras.clone();
            mesh_extras.remove(keys::SOURCE_VERTICES);
            let weights = scene.morphs_of(mi).map(|m| {
                // The names viewers show for the targets (three.js, Blender read this key).
                let names = m.targets.iter().map(|t| Value::from(t.name.clone()));
                mesh_extras.insert("targetNames".into(), Value::Array(names.collect()));
                vec![0.0; m.targets.len()]
            });
            let gmesh = json::Mesh {
                extensions: None,
                extras: self.extras(&mesh_extras)?,
                name: mesh.name.clone(),
                primitives,
                weights,
            };
            let index = push(&mut self.root.meshes, gmesh).ok_or_else(|| self.too_big("meshes"))?;
            self.meshes.push(u32::try_from(index.value()).ok());
        }
        Ok(())
    }

    /// One `TRIANGLES` primitive for the faces of one material.
    fn face_primitive(&mut self, g: &FaceGroup<'_>) -> Result<json::mesh::Primitive> {
        let mesh = g.mesh;
        let textured = g
            .material
            .and_then(|m| self.textured.get(m).copied())
            .unwrap_or(false);
        let face_has_uv: Vec<bool> = g
            .faces
            .iter()
            .map(|&fi| {
                mesh.faces
                    .get(fi)
                    .is_some_and(|f| f.corners.iter().all(|c| c.uv.is_some()))
            })
            .collect();
        let write_uv = textured || face_has_uv.iter().any(|&b| b);
        let write_tangent = g
            .material
            .and_then(|m| self.normal_mapped.get(m).copied())
            .unwrap_or(false);
        let write_color = g
            .faces
            .iter()
            .filter_map(|&fi| mesh.faces.get(fi))
            .any(|f| f.corners.iter().any(|c| c.color.is_some()));

        let second = self.scene.second_uvs_of(g.mi);
        // What makes two corners one vertex: position, normal, UV, colour and second UV, bit
        // for bit.
        type Key = (
            u32,
            [u32; 3],
            Option<[u64; 2]>,
            Option<[u32; 4]>,
            Option<[u64; 2]>,
        );
        // Corner `ci` of the `k`th face of the group: its key and its attributes.
        let corner = |k: usize, ci: usize| {
            let face = g.faces.get(k).and_then(|&fi| mesh.faces.get(fi))?;
            let c = face.corners.get(ci)?;
            let start = g.starts.get(*g.faces.get(k)?).copied().unwrap_or(0);
            let n = g
                .normals
                .get(start + ci)
                .copied()
                .unwrap_or([0.0, 1.0, 0.0]);
            let has_uv = face_has_uv.get(k).copied().unwrap_or(false);
            let uv = if has_uv { c.uv } else { None };
            let color = c.color.map(|rgba| rgba.map(|v| v.clamp(0.0, 1.0)));
            let uv2 = second.map(|s| s.uvs.get(start + ci).copied().unwrap_or([0.0, 1.0]));
            let key: Key = (
                c.position,
                n.map(f32::to_bits),
                uv.map(|t| t.map(f64::to_bits)),
                color.map(|t| t.map(f32::to_bits)),
                uv2.map(|t| t.map(f64::to_bits)),
            );
            Some((key, n, uv, color, uv2))
        };
        let key_of = |k: usize, ci: usize| corner(k, ci).map(|c| c.0);
        let hash = |key: &Key| rustc_hash::FxBuildHasher.hash_one(key);
        // Vertex -> the corner that made it (face of the group, corner): the table keeps
        // vertex numbers only, and a key is made again from its corner when compared (a table
        // of whole keys was 1.5 MB on a 5,000-vertex model, most of its time spent on pages).
        let (corners, triangles) = g.faces.iter().filter_map(|&fi| mesh.faces.get(fi)).fold(
            (0usize, 0usize),
            |(c, t), f| {
                let n = f.corners.len();
                (c + n, t + n.saturating_sub(2))
            },
        );
        // At most one vertex a corner: sized once, never rehashed.
        let mut made_by: Vec<(u32, u32)> = Vec::with_capacity(corners);
        let mut seen: hashbrown::HashTable<u32> = hashbrown::HashTable::with_capacity(corners);
        let mut uvs2 = Vec::new();
        let (mut pos, mut nor) = (
            Vec::with_capacity(corners * 3),
            Vec::with_capacity(corners * 3),
        );
        let (mut uvs, mut col) = (Vec::new(), Vec::new());
        let mut uncolored: Vec<u32> = Vec::new();
        let mut source_index: Vec<u32> = Vec::new();
        let mut indices: Vec<u32> = Vec::with_capacity(triangles * 3);
        let mut polygons: Vec<u32> = Vec::with_capacity(g.faces.len());
        let mut without_uv: Vec<u32> = Vec::new();
        let clamped = g
            .faces
            .iter()
            .filter_map(|&fi| mesh.faces.get(fi))
            .flat_map(|f| &f.corners)
            .filter_map(|c| c.color)
            .any(|rgba| rgba.iter().any(|v| v.clamp(0.0, 1.0) != *v));
        let (mut local, mut points, mut tris) = (Vec::new(), Vec::new(), Vec::new());
        for (k, (&fi, &has_uv)) in g.faces.iter().zip(&face_has_uv).enumerate() {
            let Some(face) = mesh.faces.get(fi) else {
                continue;
            };
            if write_uv && !has_uv {
                without_uv.push(u32::try_from(k).map_err(|_| self.too_big("a primitive"))?);
            }
            local.clear();
            points.clear();
            for (ci, c) in face.corners.iter().enumerate() {
                let p = mesh
                    .positions
                    .get(c.position as usize)
                    .copied()
                    .unwrap_or_default();
                points.push(p);
                let Some((key, n, uv, color, uv2)) = corner(k, ci) else {
                    continue;
                };
                let h = hash(&key);
                let same = |v: &u32| {
                    made_by
                        .get(*v as usize)
                        .and_then(|&(k, ci)| key_of(k as usize, ci as usize))
                        == Some(key)
                };
                let v = match seen.find(h, same) {
                    Some(&v) => v,
                    None => {
                        let v = u32::try_from(made_by.len())
                            .map_err(|_| self.too_big("a primitive's vertex count"))?;
                        let (kk, cc) = (
                            u32::try_from(k).map_err(|_| self.too_big("a primitive"))?,
                            u32::try_from(ci).map_err(|_| self.too_big("a face"))?,
                        );
                        seen.insert_unique(h, v, |&v| {
                            made_by
                                .get(v as usize)
                                .and_then(|&(k, ci)| key_of(k as usize, ci as usize))
                                .map_or(0, |key| hash(&key))
                        });
                        made_by.push((kk, cc));
                        pos.extend(p.map(|x| x as f32));
                        source_index.push(c.position);
                        nor.extend(n);
                        if write_uv {
                            let [u, v] = uv.unwrap_or([0.0, 1.0]);
                            uvs.extend([u as f32, (1.0 - v) as f32]);
                        }
                        if let Some([u, v]) = uv2 {
                            uvs2.extend([u as f32, (1.0 - v) as f32]);
                        }
                        if write_color {
                            if color.is_none() {
                                uncolored.push(v);
                            }
                            col.extend(color.unwrap_or([1.0; 4]));
                        }
                        v
                    }
                };
                local.push(v);
            }
            triangulate_face(&points, &mut tris);
            for t in &tris {
                for &i in t {
                    indices.push(local.get(i as usize).copied().unwrap_or(0));
                }
            }
            polygons.push(u32::try_from(face.corners.len()).map_err(|_| self.too_big("a face"))?);
        }
        let at = format!("meshes[{}]", g.mi);
        let what = match g.material {
            Some(m) => format!("material {m}"),
            None => "no material".to_owned(),
        };
        if !without_uv.is_empty() {
            self.warn(
                at.clone(),
                format!(
                    "{} of the {} faces with {what} have no UVs while the primitive needs \
                     TEXCOORD_0; they get (0, 0) (listed in extras.{})",
                    without_uv.len(),
                    g.faces.len(),
                    keys::FACES_WITHOUT_UV
                ),
            );
        }
        if clamped {
            self.warn(at, "corner colours outside 0–1 were clamped");
        }
        let vertex_count = pos.len() / 3;
        let mut attributes = BTreeMap::new();
        attributes.insert(
            Valid(Semantic::Positions),
            self.push_floats(&pos, Type::Vec3, Some(Target::ArrayBuffer), true)?,
        );
        attributes.insert(
            Valid(Semantic::Normals),
            self.push_floats(&nor, Type::Vec3, Some(Target::ArrayBuffer), false)?,
        );
        if write_uv {
            attributes.insert(
                Valid(Semantic::TexCoords(0)),
                self.push_floats(&uvs, Type::Vec2, Some(Target::ArrayBuffer), false)?,
            );
        }
        if second.is_some() {
            attributes.insert(
                Valid(Semantic::TexCoords(1)),
                self.push_floats(&uvs2, Type::Vec2, Some(Target::ArrayBuffer), false)?,
            );
        }
        if write_tangent {
            let tangents = tangents(&pos, &nor, &uvs, &indices);
            attributes.insert(
                Valid(Semantic::Tangents),
                self.push_floats(&tangents, Type::Vec4, Some(Target::ArrayBuffer), false)?,
            );
        }
        if write_color {
            attributes.insert(
                Valid(Semantic::Colors(0)),
                self.push_floats(&col, Type::Vec4, Some(Target::ArrayBuffer), false)?,
            );
        }
        if let Some((_, skin)) = self.scene.skin_of(g.mi) {
            let mut joints = Vec::with_capacity(source_index.len() * 4);
            let mut weights = Vec::with_capacity(source_index.len() * 4);
            for &s in &source_index {
                joints.extend(
                    skin.vertex_joints
                        .get(s as usize)
                        .copied()
                        .unwrap_or([0; 4]),
                );
                weights.extend(
                    skin.vertex_weights
                        .get(s as usize)
                        .copied()
                        .unwrap_or([1.0, 0.0, 0.0, 0.0]),
                );
            }
            attributes.insert(Valid(Semantic::Joints(0)), self.push_joints(&joints)?);
            attributes.insert(
                Valid(Semantic::Weights(0)),
                self.push_floats(&weights, Type::Vec4, Some(Target::ArrayBuffer), false)?,
            );
        }
        let indices = self.push_indices(&indices, vertex_count)?;
        let targets = self.morph_targets(g.mi, &source_index)?;
        // In the order of their names, as a `serde_json::Map` would write them.
        let lists = [
            (keys::FACES_WITHOUT_UV, &without_uv[..]),
            (keys::POLYGONS, &polygons[..]),
            (keys::POSITIONS, &source_index[..]),
            (keys::UNCOLORED_VERTICES, &uncolored[..]),
        ];
        let extras = self.raw_extras(&IndexLists(&lists))?;
        Ok(json::mesh::Primitive {
            attributes,
            extensions: None,
            extras,
            indices: Some(indices),
            material: g
                .material
                .and_then(|m| u32::try_from(m).ok())
                .map(json::Index::new),
            mode: Valid(Mode::Triangles),
            targets,
        })
    }

    /// The morph targets of one primitive of mesh `mi` whose vertices come from the mesh
    /// positions `sources`: each target's displacement of each vertex.
    fn morph_targets(
        &mut self,
        mi: usize,
        sources: &[u32],
    ) -> Result<Option<Vec<json::mesh::MorphTarget>>> {
        let scene = self.scene;
        let (Some(morphs), Some(mesh)) = (scene.morphs_of(mi), scene.meshes.get(mi)) else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(morphs.targets.len());
        let mut delta = Vec::with_capacity(sources.len() * 3);
        for target in &morphs.targets {
            delta.clear();
            for &s in sources {
                let base = mesh.positions.get(s as usize).copied().unwrap_or_default();
                let moved = target.positions.get(s as usize).copied().unwrap_or(base);
                delta.extend([0, 1, 2].map(|k| (moved[k] - base[k]) as f32));
            }
            let positions =
                self.push_floats(&delta, Type::Vec3, Some(Target::ArrayBuffer), true)?;
            out.push(json::mesh::MorphTarget {
                positions: Some(positions),
                normals: None,
                tangents: None,
            });
        }
        Ok(Some(out))
    }

    /// One `LINE_STRIP` or `LINE_LOOP` primitive for a polyline (no indices, no normals).
    fn line_primitive(
        &mut self,
        mi: usize,
        li: usize,
        mesh: &Mesh,
        line: &Polyline,
    ) -> Result<json::mesh::Primitive> {
        let pos: Vec<f32> = line
            .points
            .iter()
            .flat_map(|&p| {
                mesh.positions
                    .get(p as usize)
                    .copied()
                    .unwrap_or_default()
                    .map(|x| x as f32)
            })
            .collect();
        let mut attributes = BTreeMap::new();
        attributes.insert(
            Valid(Semantic::Positions),
            self.push_floats(&pos, Type::Vec3, Some(Target::ArrayBuffer), true)?,
        );
        let textured = line
            .material
            .and_then(|m| self.textured.get(m).copied())
            .unwrap_or(false);
        if textured {
            // glTF wants TEXCOORD_0 wherever the material samples a texture, and a tangent space
            // (NORMAL and TANGENT) for a normal map; lines have neither, so they get filler.
            let n = line.points.len();
            let zeros = vec![0.0f32; n * 2];
            attributes.insert(
                Valid(Semantic::TexCoords(0)),
                self.push_floats(&zeros, Type::Vec2, Some(Target::ArrayBuffer), false)?,
            );
            let normal_mapped = line
                .material
                .and_then(|m| self.normal_mapped.get(m).copied())
                .unwrap_or(false);
            if normal_mapped {
                let normals: Vec<f32> = (0..n).flat_map(|_| [0.0, 0.0, 1.0]).collect();
                let tangents: Vec<f32> = (0..n).flat_map(|_| [1.0, 0.0, 0.0, 1.0]).collect();
                attributes.insert(
                    Valid(Semantic::Normals),
                    self.push_floats(&normals, Type::Vec3, Some(Target::ArrayBuffer), false)?,
                );
                attributes.insert(
                    Valid(Semantic::Tangents),
                    self.push_floats(&tangents, Type::Vec4, Some(Target::ArrayBuffer), false)?,
                );
            }
            self.warn(
                format!("meshes[{mi}].lines[{li}]"),
                "the line's material has textures; the line gets UVs (0, 0) (and, for a normal \
                 map, normal +Z and tangent +X)",
            );
        }
        Ok(json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: None,
            indices: None,
            material: line
                .material
                .and_then(|m| u32::try_from(m).ok())
                .map(json::Index::new),
            mode: Valid(if line.closed {
                Mode::LineLoop
            } else {
                Mode::LineStrip
            }),
            targets: None,
        })
    }

    // ---- cameras and lights ------------------------------------------------------------------

    fn write_cameras(&mut self) {
        let scene = self.scene;
        for (i, c) in scene.cameras.iter().enumerate() {
            match self.camera(c) {
                Ok(camera) => {
                    let index = u32::try_from(self.root.cameras.len()).ok();
                    self.root.cameras.push(camera);
                    self.cameras.push(index);
                }
                Err(why) => {
                    self.warn(format!("cameras[{i}]"), format!("camera left out: {why}"));
                    self.cameras.push(None);
                }
            }
        }
    }

    fn camera(&self, c: &Camera) -> std::result::Result<json::Camera, String> {
        let extras = self.extras(&c.extras).map_err(|e| e.message)?;
        Ok(match c.projection {
            Projection::Perspective {
                yfov,
                znear,
                zfar,
                aspect_ratio,
            } => {
                let (yfov, znear) = (yfov as f32, znear as f32);
                let zfar = zfar.map(|z| z as f32);
                let aspect_ratio = aspect_ratio.map(|a| a as f32);
                if !(yfov > 0.0 && f64::from(yfov) < std::f64::consts::PI && yfov.is_finite()) {
                    return Err(format!("field of view {yfov} is not in (0, pi)"));
                }
                if !(znear > 0.0 && znear.is_finite()) {
                    return Err(format!("znear {znear} is not positive"));
                }
                if zfar.is_some_and(|f| !(f > znear && f.is_finite())) {
                    return Err(format!("zfar {zfar:?} is not beyond znear {znear}"));
                }
                if aspect_ratio.is_some_and(|a| !(a > 0.0 && a.is_finite())) {
                    return Err(format!("aspect ratio {aspect_ratio:?} is not positive"));
                }
                json::Camera {
                    name: c.name.clone(),
                    orthographic: None,
                    perspective: Some(json::camera::Perspective {
                        aspect_ratio,
                        yfov,
                        zfar,
                        znear,
                        extensions: None,
                        extras: None,
                    }),
                    type_: Valid(json::camera::Type::Perspective),
                    extensions: None,
                    extras,
                }
            }
            Projection::Orthographic {
                xmag,
                ymag,
                znear,
                zfar,
            } => {
                let (xmag, ymag, znear, zfar) =
                    (xmag as f32, ymag as f32, znear as f32, zfar as f32);
                if !(xmag > 0.0 && ymag > 0.0 && xmag.is_finite() && ymag.is_finite()) {
                    return Err(format!("size {xmag} x {ymag} is not positive"));
                }
                if !(znear >= 0.0 && zfar > znear && zfar.is_finite()) {
                    return Err(format!(
                        "znear {znear} and zfar {zfar} are not 0 <= znear < zfar"
                    ));
                }
                json::Camera {
                    name: c.name.clone(),
                    orthographic: Some(json::camera::Orthographic {
                        xmag,
                        ymag,
                        zfar,
                        znear,
                        extensions: None,
                        extras: None,
                    }),
                    perspective: None,
                    type_: Valid(json::camera::Type::Orthographic),
                    extensions: None,
                    extras,
                }
            }
        })
    }

    fn write_lights(&mut self) -> Result<()> {
        use json::extensions::scene::khr_lights_punctual as khr;
        let scene = self.scene;
        let mut punctual: Vec<khr::Light> = Vec::new();
        let mut ambient: Vec<Value> = Vec::new();
        for (i, l) in scene.lights.iter().enumerate() {
            let at = format!("lights[{i}]");
            let range = match l.range {
                Some(r) if r.is_finite() && r > 0.0 => Some(r),
                Some(r) => {
                    self.warn(
                        at.clone(),
                        format!("range {r} is not positive; left out (infinite range)"),
                    );
                    None
                }
                None => None,
            };
            let mut extras = l.extras.clone();
            let (type_, spot) = match l.kind {
                LightKind::Ambient => {
                    // Nothing lost (read back from the extras), but glTF viewers show none.
                    self.notes.push(format!(
                        "{at}: an ambient light, which glTF has no kind for, kept in the scene's \
                         extras.{} (glTF viewers do not show it)",
                        keys::AMBIENT_LIGHTS
                    ));
                    let mut entry = Map::new();
                    if let Some(name) = &l.name {
                        entry.insert("name".into(), Value::from(name.clone()));
                    }
                    entry.insert(
                        "color".into(),
                        Value::Array(l.color.iter().copied().map(f32_value).collect()),
                    );
                    entry.insert("intensity".into(), f32_value(l.intensity));
                    if let Some(r) = range {
                        entry.insert("range".into(), f32_value(r));
                    }
                    if !l.extras.is_empty() {
                        entry.insert("extras".into(), Value::Object(l.extras.clone()));
                    }
                    let k = u32::try_from(ambient.len()).map_err(|_| self.too_big("lights"))?;
                    ambient.push(Value::Object(entry));
                    self.lights.push(LightSlot::Ambient(k));
                    continue;
                }
                LightKind::Point => (khr::Type::Point, None),
                LightKind::Directional => (khr::Type::Directional, None),
                LightKind::Spot {
                    inner_cone_angle,
                    outer_cone_angle,
                } => {
                    let outer = outer_cone_angle.min(MAX_CONE);
                    let inner = if inner_cone_angle < outer {
                        inner_cone_angle.max(0.0)
                    } else {
                        0.0
                    };
                    (
                        khr::Type::Spot,
                        Some(khr::Spot {
                            inner_cone_angle: inner,
                            outer_cone_angle: outer,
                        }),
                    )
                }
                LightKind::Area => {
                    self.warn(
                        at,
                        "glTF has no area light; written as a spot light with a 90-degree \
                         half-angle facing the same way (extras.area_light)",
                    );
                    extras.insert(keys::AREA_LIGHT.into(), Value::Bool(true));
                    (
                        khr::Type::Spot,
                        Some(khr::Spot {
                            inner_cone_angle: 0.0,
                            outer_cone_angle: MAX_CONE,
                        }),
                    )
                }
            };
            let k = u32::try_from(punctual.len()).map_err(|_| self.too_big("lights"))?;
            punctual.push(khr::Light {
                color: l.color,
                extensions: None,
                extras: self.extras(&extras)?,
                intensity: l.intensity,
                name: l.name.clone(),
                range,
                spot,
                type_: Valid(type_),
            });
            self.lights.push(LightSlot::Punctual(k));
        }
        if !ambient.is_empty() {
            self.scene_extras
                .insert(keys::AMBIENT_LIGHTS.into(), Value::Array(ambient));
        }
        if !punctual.is_empty() {
            self.root
                .extensions
                .get_or_insert_with(Default::default)
                .khr_lights_punctual =
                Some(json::extensions::root::KhrLightsPunctual { lights: punctual });
            self.root
                .extensions_used
                .push("KHR_lights_punctual".to_owned());
        }
        Ok(())
    }

    // ---- nodes and animations ----------------------------------------------------------------

    /// The spin to write for each node (at most one).
    fn plan_spins(&mut self) -> Vec<Option<Spin>> {
        let scene = self.scene;
        let mut out: Vec<Option<Spin>> = vec![None; scene.nodes.len()];
        for (i, a) in scene.animations.iter().enumerate() {
            let at = format!("animations[{i}]");
            let Motion::Spin {
                axis,
                degrees_per_second,
            } = a.motion;
            let Some(unit_axis) = unit(axis) else {
                self.warn(at, "spin axis has no direction; left out");
                continue;
            };
            if degrees_per_second == 0.0 {
                self.warn(at, "spin of speed 0 does not move; left out");
                continue;
            }
            let times = spin_times(degrees_per_second);
            if !times.windows(2).all(|w| matches!(w, [a, b] if a < b))
                || !times.iter().all(|t| t.is_finite())
            {
                self.warn(
                    at,
                    format!(
                        "spin of {degrees_per_second} degrees per second gives key times that \
                         do not fit 32-bit floats; left out"
                    ),
                );
                continue;
            }
            match out.get_mut(a.node) {
                Some(slot @ None) => {
                    *slot = Some(Spin {
                        animation: i,
                        axis: unit_axis,
                        degrees_per_second,
                    })
                }
                Some(Some(first)) => {
                    let first = first.animation;
                    self.warn(
                        at,
                        format!(
                            "node {} already spins (animations[{first}]); glTF can animate a \
                             node's rotation only once, so this spin is left out",
                            a.node
                        ),
                    );
                }
                None => {}
            }
        }
        out
    }

    /// Write every node (and the inserted children of matrices that are not TRS); returns, per
    /// scene node, the glTF node a spin animates and its base rotation.
    fn write_nodes(&mut self, spins: &[Option<Spin>]) -> Result<Vec<(u32, [f64; 4])>> {
        let scene = self.scene;
        let count = scene.nodes.len();
        let mut inner_nodes: Vec<json::Node> = Vec::new();
        let mut targets = Vec::with_capacity(count);
        for (i, n) in scene.nodes.iter().enumerate() {
            let at = format!("nodes[{i}]");
            let mut extras = n.extras.clone();
            let mut node = json::Node {
                camera: n
                    .camera
                    .and_then(|c| self.cameras.get(c).copied().flatten())
                    .map(json::Index::new),
                children: None,
                extensions: None,
                extras: None,
                matrix: None,
                mesh: n
                    .mesh
                    .and_then(|m| self.meshes.get(m).copied().flatten())
                    .map(json::Index::new),
                name: n.name.clone(),
                rotation: None,
                scale: None,
                translation: None,
                skin: n
                    .mesh
                    .filter(|&m| self.meshes.get(m).copied().flatten().is_some())
                    .and_then(|m| scene.skin_of(m))
                    .and_then(|(k, _)| u32::try_from(k).ok())
                    .map(json::Index::new),
                weights: None,
            };
            match n.light.and_then(|l| self.lights.get(l).copied()) {
                Some(LightSlot::Punctual(k)) => {
                    node.extensions = Some(json::extensions::scene::Node {
                        khr_lights_punctual: Some(
                            json::extensions::scene::khr_lights_punctual::KhrLightsPunctual {
                                light: json::Index::new(k),
                            },
                        ),
                    });
                }
                Some(LightSlot::Ambient(k)) => {
                    extras.insert(keys::AMBIENT_LIGHT.into(), Value::from(k));
                }
                None => {}
            }
            let children: Vec<json::Index<json::Node>> = n
                .children
                .iter()
                .filter_map(|&c| u32::try_from(c).ok())
                .map(json::Index::new)
                .collect();
            node.children = (!children.is_empty()).then_some(children);
            let animated = spins.get(i).is_some_and(|s| s.is_some());
            let self_index = u32::try_from(i).map_err(|_| self.too_big("nodes"))?;
            let mut target = (self_index, [0.0, 0.0, 0.0, 1.0]);
            match n.transform {
                Transform::Trs {
                    translation,
                    rotation,
                    scale,
                } => {
                    let r = unit_quat(rotation);
                    set_trs(&mut node, translation, r, scale);
                    target.1 = r;
                }
                Transform::Matrix(m) => {
                    let mut affine = m;
                    if m[3] != 0.0 || m[7] != 0.0 || m[11] != 0.0 || m[15] != 1.0 {
                        self.warn(
                            at.clone(),
                            "matrix has a projective bottom row, which glTF can not express; \
                             written without it (the original is in extras.levelkit_matrix)",
                        );
                        affine[3] = 0.0;
                        affine[7] = 0.0;
                        affine[11] = 0.0;
                        affine[15] = 1.0;
                    }
                    let keep_original =
                        || Value::Array(m.iter().map(|&v| Value::from(v)).collect());
                    match decompose(&affine) {
                        Some(_) if !animated && affine == m => {
                            node.matrix = Some(m.map(|v| v as f32));
                        }
                        Some((t, r, s)) => {
                            set_trs(&mut node, t, r, s);
                            target.1 = r;
                            extras.insert(keys::MATRIX.into(), keep_original());
                        }
                        None => match svd_split(&affine) {
                            Some((t, u, s, vt)) => {
                                set_trs(&mut node, t, u, s);
                                extras.insert(keys::MATRIX.into(), keep_original());
                                let inner_index = u32::try_from(count + inner_nodes.len())
                                    .map_err(|_| self.too_big("nodes"))?;
                                let mut inner_extras = Map::new();
                                inner_extras.insert(keys::SPLIT.into(), Value::Bool(true));
                                let mut inner = json::Node {
                                    camera: node.camera.take(),
                                    children: node.children.take(),
                                    extensions: node.extensions.take(),
                                    extras: self.extras(&inner_extras)?,
                                    matrix: None,
                                    mesh: node.mesh.take(),
                                    name: None,
                                    rotation: None,
                                    scale: None,
                                    translation: None,
                                    skin: None,
                                    weights: None,
                                };
                                set_trs(&mut inner, [0.0; 3], vt, [1.0; 3]);
                                inner_nodes.push(inner);
                                node.children = Some(vec![json::Index::new(inner_index)]);
                                target = (inner_index, vt);
                            }
                            None => {
                                self.warn(
                                    at.clone(),
                                    "matrix could not be decomposed; written as it is",
                                );
                                node.matrix = Some(affine.map(|v| v as f32));
                            }
                        },
                    }
                }
            }
            node.extras = self.extras(&extras)?;
            self.root.nodes.push(node);
            targets.push(target);
        }
        self.root.nodes.extend(inner_nodes);
        if u32::try_from(self.root.nodes.len()).is_err() {
            return Err(self.too_big("nodes"));
        }
        Ok(targets)
    }

    fn write_animations(
        &mut self,
        spins: &[Option<Spin>],
        targets: &[(u32, [f64; 4])],
    ) -> Result<()> {
        use json::animation::{Channel, Interpolation, Property, Sampler, Target as AnimTarget};
        let scene = self.scene;
        for (node, spin) in spins.iter().enumerate() {
            let Some(spin) = spin else { continue };
            let Some(&(target, base)) = targets.get(node) else {
                continue;
            };
            let Some(a) = scene.animations.get(spin.animation) else {
                continue;
            };
            let times = spin_times(spin.degrees_per_second);
            let sign = spin.degrees_per_second.signum();
            let mut rotations = Vec::with_capacity(4 * (SPIN_KEYS + 1));
            for k in 0..=SPIN_KEYS {
                let angle = sign * k as f64 * std::f64::consts::TAU / SPIN_KEYS as f64;
                let q = unit_quat(quat_mul(base, axis_angle(spin.axis, angle)));
                rotations.extend(q.map(|v| v as f32));
            }
            let input = self.push_floats(&times, Type::Scalar, None, true)?;
            let output = self.push_floats(&rotations, Type::Vec4, None, false)?;
            let mut extras = a.extras.clone();
            let Motion::Spin {
                axis,
                degrees_per_second,
            } = a.motion;
            let mut marker = Map::new();
            marker.insert(
                "axis".into(),
                Value::Array(axis.iter().map(|&v| Value::from(v)).collect()),
            );
            marker.insert("degrees_per_second".into(), Value::from(degrees_per_second));
            extras.insert(keys::SPIN.into(), Value::Object(marker));
            let animation = json::Animation {
                extensions: None,
                extras: self.extras(&extras)?,
                channels: vec![Channel {
                    sampler: json::Index::new(0),
                    target: AnimTarget {
                        extensions: None,
                        extras: None,
                        node: json::Index::new(target),
                        path: Valid(Property::Rotation),
                    },
                    extensions: None,
                    extras: None,
                }],
                name: a.name.clone(),
                samplers: vec![Sampler {
                    extensions: None,
                    extras: None,
                    input,
                    interpolation: Valid(Interpolation::Linear),
                    output,
                }],
            };
            self.root.animations.push(animation);
        }
        self.write_morph_animations(targets)
    }

    /// Each [`crate::scene::MorphAnimation`] as a `weights` animation: one key per frame with
    /// that frame's target at 1 and every other at 0, linear in between.
    fn write_morph_animations(&mut self, targets: &[(u32, [f64; 4])]) -> Result<()> {
        use json::animation::{Channel, Interpolation, Property, Sampler, Target as AnimTarget};
        let scene = self.scene;
        for a in &scene.morph_animations {
            let Some(&(node, _)) = targets.get(a.node) else {
                continue;
            };
            let Some(count) = scene
                .nodes
                .get(a.node)
                .and_then(|n| n.mesh)
                .and_then(|m| scene.morphs_of(m))
                .map(|m| m.targets.len())
            else {
                continue;
            };
            let times: Vec<f32> = (0..a.targets.len())
                .map(|k| (k as f64 * a.seconds_per_frame) as f32)
                .collect();
            let mut weights = vec![0.0f32; a.targets.len() * count];
            for (k, &t) in a.targets.iter().enumerate() {
                if let Some(w) = weights.get_mut(k * count + t) {
                    *w = 1.0;
                }
            }
            let input = self.push_floats(&times, Type::Scalar, None, true)?;
            let output = self.push_floats(&weights, Type::Scalar, None, false)?;
            self.root.animations.push(json::Animation {
                extensions: None,
                extras: None,
                channels: vec![Channel {
                    sampler: json::Index::new(0),
                    target: AnimTarget {
                        extensions: None,
                        extras: None,
                        node: json::Index::new(node),
                        path: Valid(Property::MorphTargetWeights),
                    },
                    extensions: None,
                    extras: None,
                }],
                name: a.name.clone(),
                samplers: vec![Sampler {
                    extensions: None,
                    extras: None,
                    input,
                    interpolation: Valid(Interpolation::Linear),
                    output,
                }],
            });
        }
        Ok(())
    }

    /// Each [`crate::scene::Skin`] with its inverse bind matrices (scene node `i` is glTF
    /// node `i`: split matrix nodes are appended after all of them).
    fn write_skins(&mut self) -> Result<()> {
        let scene = self.scene;
        for s in &scene.skins {
            let matrices: Vec<f32> = s
                .inverse_bind_matrices
                .iter()
                .flatten()
                .map(|&v| v as f32)
                .collect();
            let ibm = self.push_floats(&matrices, Type::Mat4, None, false)?;
            let joints = s
                .joints
                .iter()
                .map(|&j| u32::try_from(j).map(json::Index::new))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(|_| self.too_big("joints"))?;
            self.root.skins.push(json::Skin {
                extensions: None,
                extras: None,
                inverse_bind_matrices: Some(ibm),
                joints,
                name: s.name.clone(),
                skeleton: None,
            });
        }
        Ok(())
    }

    /// Each [`crate::scene::JointAnimation`]: a translation and a rotation channel per track,
    /// one key per frame, linear in between.
    fn write_joint_animations(&mut self) -> Result<()> {
        use json::animation::{Channel, Interpolation, Property, Sampler, Target as AnimTarget};
        let scene = self.scene;
        for a in &scene.joint_animations {
            let keys = a.tracks.first().map_or(0, |t| t.translations.len());
            let times: Vec<f32> = (0..keys)
                .map(|k| (k as f64 * a.seconds_per_frame) as f32)
                .collect();
            let input = self.push_floats(&times, Type::Scalar, None, true)?;
            let mut channels = Vec::with_capacity(a.tracks.len() * 2);
            let mut samplers = Vec::with_capacity(a.tracks.len() * 2);
            for track in &a.tracks {
                let node = u32::try_from(track.node).map_err(|_| self.too_big("nodes"))?;
                let translations: Vec<f32> = track
                    .translations
                    .iter()
                    .flatten()
                    .map(|&v| v as f32)
                    .collect();
                let rotations: Vec<f32> = track
                    .rotations
                    .iter()
                    .flat_map(|&q| unit_quat(q))
                    .map(|v| v as f32)
                    .collect();
                for (data, kind, path) in [
                    (translations, Type::Vec3, Property::Translation),
                    (rotations, Type::Vec4, Property::Rotation),
                ] {
                    let output = self.push_floats(&data, kind, None, false)?;
                    let sampler =
                        u32::try_from(samplers.len()).map_err(|_| self.too_big("samplers"))?;
                    samplers.push(Sampler {
                        extensions: None,
                        extras: None,
                        input,
                        interpolation: Valid(Interpolation::Linear),
                        output,
                    });
                    channels.push(Channel {
                        sampler: json::Index::new(sampler),
                        target: AnimTarget {
                            extensions: None,
                            extras: None,
                            node: json::Index::new(node),
                            path: Valid(path),
                        },
                        extensions: None,
                        extras: None,
                    });
                }
            }
            if channels.is_empty() {
                continue;
            }
            self.root.animations.push(json::Animation {
                extensions: None,
                extras: self.extras(&a.extras)?,
                channels,
                name: a.name.clone(),
                samplers,
            });
        }
        Ok(())
    }

    fn write_scene(&mut self) -> Result<()> {
        let mut nodes: Vec<json::Index<json::Node>> = Vec::new();
        for &r in &self.scene.roots {
            let Ok(r) = u32::try_from(r) else { continue };
            let r = json::Index::new(r);
            if nodes.contains(&r) {
                self.warn("roots", format!("node {r} is a root twice; written once"));
            } else {
                nodes.push(r);
            }
        }
        let extras = self.extras(&self.scene_extras)?;
        self.root.scenes.push(json::Scene {
            extensions: None,
            extras,
            name: self.scene.name.clone(),
            nodes,
        });
        self.root.scene = Some(json::Index::new(0));
        Ok(())
    }

    fn finish(mut self) -> Result<ExportFiles> {
        if !self.bin.is_empty() {
            let byte_length = USize64::from(self.bin.len());
            let uri = if self.options.binary {
                None
            } else if self.options.embed {
                Some(format!(
                    "data:application/octet-stream;base64,{}",
                    base64_encode(&self.bin)
                ))
            } else {
                let name = format!("{}.bin", self.options.stem);
                let uri = percent_encode(&name);
                self.side_files.push((name, std::mem::take(&mut self.bin)));
                Some(uri)
            };
            self.root.buffers.push(json::Buffer {
                byte_length,
                name: None,
                uri,
                extensions: None,
                extras: None,
            });
        }
        let json = if self.options.binary {
            serde_json::to_vec(&self.root)
        } else {
            serde_json::to_vec_pretty(&self.root)
        }
        .map_err(|e| Error::malformed(self.format, Location::default(), e.to_string()))?;
        let main = if self.options.binary {
            let bin = std::mem::take(&mut self.bin);
            glb::write(&json, bin).ok_or_else(|| self.too_big("the GLB file"))?
        } else {
            json
        };
        Ok(ExportFiles {
            main,
            side_files: self.side_files,
            warnings: self.warnings,
            notes: self.notes,
        })
    }
}

/// The faces of one mesh that share a material, with what they need.
struct FaceGroup<'m> {
    mi: usize,
    mesh: &'m Mesh,
    normals: &'m [[f32; 3]],
    starts: &'m [usize],
    material: Option<usize>,
    faces: &'m [usize],
}

/// The largest `f32` below pi/2: KHR_lights_punctual caps the outer cone at pi/2, and
/// `FRAC_PI_2 as f32` rounds up past it.
const MAX_CONE: f32 = 1.570_796_2;

/// `n - 2` triangles (local corner indices) of a face: the triangulator's, or a fan if it did
/// not give exactly `n - 2` in range. The triangle through corner 0 comes first, starting at
/// corner 0, so the importer's boundary walk starts the polygon where it started.
fn triangulate_face(points: &[[f64; 3]], out: &mut Vec<[u32; 3]>) {
    out.clear();
    let n = points.len();
    let made = triangulate_into(points, out);
    let want = n.saturating_sub(2);
    let ok = made == want
        && out.len() == want
        && out.iter().all(|t| t.iter().all(|&i| (i as usize) < n));
    if !ok {
        out.clear();
        let n = u32::try_from(n).unwrap_or(0);
        out.extend((1..n.saturating_sub(1)).map(|i| [0, i, i + 1]));
    }
    if let Some(k) = out.iter().position(|t| t.contains(&0)) {
        out.swap(0, k);
        if let Some(t) = out.first_mut() {
            for _ in 0..3 {
                if t[0] == 0 {
                    break;
                }
                t.rotate_left(1);
            }
        }
    }
}

/// Per-vertex tangents (`VEC4`, `w` = handedness) for a normal-mapped primitive, from its
/// positions, normals and UVs as written (glTF's V down): each triangle's tangent summed at its
/// corners, then made perpendicular to the normal and unit length. Where the UVs give no
/// direction, any unit vector perpendicular to the normal. Without it the validator warns that
/// the viewer must generate a tangent space.
fn tangents(pos: &[f32], nor: &[f32], uvs: &[f32], indices: &[u32]) -> Vec<f32> {
    let count = pos.len() / 3;
    let get3 = |data: &[f32], i: usize| -> [f64; 3] {
        [0, 1, 2].map(|k| f64::from(data.get(i * 3 + k).copied().unwrap_or(0.0)))
    };
    let get2 = |i: usize| -> [f64; 2] {
        [0, 1].map(|k| f64::from(uvs.get(i * 2 + k).copied().unwrap_or(0.0)))
    };
    let mut tan = vec![[0.0f64; 3]; count];
    let mut bit = vec![[0.0f64; 3]; count];
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [0, 1, 2].map(|k| t.get(k).copied().unwrap_or(0) as usize);
        let (p0, p1, p2) = (get3(pos, a), get3(pos, b), get3(pos, c));
        let (t0, t1, t2) = (get2(a), get2(b), get2(c));
        let e1 = [0, 1, 2].map(|k| p1[k] - p0[k]);
        let e2 = [0, 1, 2].map(|k| p2[k] - p0[k]);
        let (du1, dv1, du2, dv2) = (t1[0] - t0[0], t1[1] - t0[1], t2[0] - t0[0], t2[1] - t0[1]);
        let det = du1 * dv2 - du2 * dv1;
        if det.abs() < 1e-20 {
            continue;
        }
        let t_dir = [0, 1, 2].map(|k| (e1[k] * dv2 - e2[k] * dv1) / det);
        let b_dir = [0, 1, 2].map(|k| (e2[k] * du1 - e1[k] * du2) / det);
        for v in [a, b, c] {
            if let (Some(ts), Some(bs)) = (tan.get_mut(v), bit.get_mut(v)) {
                for k in 0..3 {
                    ts[k] += t_dir[k];
                    bs[k] += b_dir[k];
                }
            }
        }
    }
    let mut out = Vec::with_capacity(count * 4);
    for (v, (t, b)) in tan.iter().zip(&bit).enumerate() {
        let n = unit(get3(nor, v)).unwrap_or([0.0, 1.0, 0.0]);
        let d = dot(n, *t);
        let along = unit([0, 1, 2].map(|k| t[k] - n[k] * d)).unwrap_or_else(|| {
            let helper = if n[0].abs() < 0.9 {
                [1.0, 0.0, 0.0]
            } else {
                [0.0, 1.0, 0.0]
            };
            unit(cross(n, helper)).unwrap_or([1.0, 0.0, 0.0])
        });
        let w = if dot(cross(n, along), *b) < 0.0 {
            -1.0
        } else {
            1.0
        };
        out.extend([along[0] as f32, along[1] as f32, along[2] as f32, w]);
    }
    out
}

/// Keys of one turn of a spin (after the first): one every 30 degrees.
const SPIN_KEYS: usize = 12;

fn spin_times(degrees_per_second: f64) -> [f32; SPIN_KEYS + 1] {
    let step = 360.0 / SPIN_KEYS as f64 / degrees_per_second.abs();
    std::array::from_fn(|k| (k as f64 * step) as f32)
}

/// Push and return the new index, or `None` past `u32`.
fn push<T>(vec: &mut Vec<T>, item: T) -> Option<json::Index<T>> {
    let index = u32::try_from(vec.len()).ok()?;
    vec.push(item);
    Some(json::Index::new(index))
}

fn f32_value(v: f32) -> Value {
    Value::from(f64::from(v))
}

/// The index lists of a primitive's extras (name, list), written as a JSON object of arrays
/// of numbers, the names in the order given: straight from the numbers, not made into a
/// `serde_json::Value` each first (a 10,000-vertex model spent more on those than on its
/// vertices). The two lists every primitive has are always written, the others when not empty.
struct IndexLists<'a>(&'a [(&'a str, &'a [u32])]);

impl serde::Serialize for IndexLists<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let always = [keys::POLYGONS, keys::POSITIONS];
        let mut map = serializer.serialize_map(None)?;
        for &(name, list) in self.0 {
            if !list.is_empty() || always.contains(&name) {
                map.serialize_entry(name, list)?;
            }
        }
        map.end()
    }
}

fn set_trs(node: &mut json::Node, t: [f64; 3], r: [f64; 4], s: [f64; 3]) {
    node.translation = (t != [0.0; 3]).then(|| t.map(|v| v as f32));
    node.rotation =
        (r != [0.0, 0.0, 0.0, 1.0]).then(|| json::scene::UnitQuaternion(r.map(|v| v as f32)));
    node.scale = (s != [1.0; 3]).then(|| s.map(|v| v as f32));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_cone_is_below_half_pi() {
        assert!(f64::from(MAX_CONE) < std::f64::consts::FRAC_PI_2);
        assert!(f64::from(f32::from_bits(MAX_CONE.to_bits() + 1)) > std::f64::consts::FRAC_PI_2);
    }
}
