//! The glTF reader: glTF 2.0 or GLB to a [`Scene`] (documented in the module above).

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::borrow::Cow;
use std::collections::HashSet;

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::mesh::{Mode, Semantic};
use json::validation::Checked::{Invalid, Valid};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{Map, Value};

mod rig;

use super::glb;
use super::keys;
use super::uri::{
    decode_data_uri, has_scheme, percent_decode, sniff_image, starts_with_ignore_case,
};
use crate::error::{Error, ErrorKind, Location, Result, Severity, Warning};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::scene::{
    AlphaMode, Camera, Corner, Extras, Face, Light, LightKind, Material, Mesh, Morphs, Node, Phong,
    Polyline, Projection, Scene, Texture, TextureSource, Transform,
};
use rig::Rig;

/// Per mesh: each position's joints and weights, when a primitive had them.
type MeshJoints = Option<(Vec<[u16; 4]>, Vec<[f32; 4]>)>;

/// Required extensions this reader can honour.
const SUPPORTED_REQUIRED: &[&str] = &[
    "KHR_lights_punctual",
    "KHR_materials_emissive_strength",
    "KHR_mesh_quantization",
];

/// Read a `.gltf` or `.glb` with the default [`Limits`].
///
/// `resolve` is asked for every buffer referenced by a URI that is not a `data:` URI, with the
/// relative path as written in the file, percent-decoded (`"scene.bin"`); it returns the bytes,
/// or `None` when there is no such file. Image URIs are not resolved: they become
/// [`TextureSource::File`].
pub fn read(
    bytes: &[u8],
    resolve: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Result<(Scene, Vec<Warning>)> {
    read_with_limits(bytes, resolve, &Limits::default())
}

/// [`read`] with explicit [`Limits`] on the memory decoded data may take.
pub fn read_with_limits(
    bytes: &[u8],
    resolve: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    limits: &Limits,
) -> Result<(Scene, Vec<Warning>)> {
    let format = if bytes.starts_with(b"glTF") {
        Format::Glb
    } else {
        Format::Gltf
    };
    let (json_bytes, bin) = if format == Format::Glb {
        glb::read(bytes)?
    } else {
        (bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes), None)
    };
    let root: json::Root = serde_json::from_slice(json_bytes).map_err(|e| {
        let location = Location {
            line_col: Some((
                u32::try_from(e.line()).unwrap_or(u32::MAX),
                u32::try_from(e.column()).unwrap_or(u32::MAX),
            )),
            ..Location::default()
        };
        let kind = if e.is_eof() {
            ErrorKind::Truncated
        } else {
            ErrorKind::Malformed
        };
        Error::new(format, kind, location, format!("glTF JSON: {e}"))
    })?;
    let mut r = Reader {
        format,
        root: &root,
        budget: limits.budget(format),
        warnings: Vec::new(),
        buffers: Vec::new(),
        colored_materials: HashSet::new(),
    };
    r.check_asset()?;
    r.load_buffers(bin, resolve)?;
    let scene = r.read_scene()?;
    let mut warnings = r.warnings;
    for w in scene.validate() {
        if w.severity == Severity::Error {
            return Err(Error::malformed(
                format,
                w.location,
                format!("the file makes an invalid scene: {}", w.message),
            ));
        }
        warnings.push(w);
    }
    Ok((scene, warnings))
}

// ---- the reader ----------------------------------------------------------------------------------

struct Reader<'a> {
    format: Format,
    root: &'a json::Root,
    budget: Budget,
    warnings: Vec<Warning>,
    buffers: Vec<Cow<'a, [u8]>>,
    /// Materials used by a primitive with `COLOR_0` (for files without our marker).
    colored_materials: HashSet<usize>,
}

/// Where an accessor's elements are.
struct Elements<'b> {
    bytes: &'b [u8],
    offset: usize,
    stride: usize,
    count: usize,
    components: usize,
    component: ComponentType,
    normalized: bool,
}

impl Elements<'_> {
    /// Component `c` of element `i`, as glTF defines normalized integers.
    fn get(&self, i: usize, c: usize) -> f32 {
        let size = self.component.size();
        let at = self
            .offset
            .saturating_add(i.saturating_mul(self.stride))
            .saturating_add(c.saturating_mul(size));
        let Some(b) = self.bytes.get(at..at.saturating_add(size)) else {
            return 0.0;
        };
        let byte = |k: usize| b.get(k).copied().unwrap_or(0);
        let n = self.normalized;
        match self.component {
            ComponentType::F32 => f32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]),
            ComponentType::U8 if n => f32::from(byte(0)) / 255.0,
            ComponentType::U8 => f32::from(byte(0)),
            ComponentType::I8 if n => (f32::from(byte(0) as i8) / 127.0).max(-1.0),
            ComponentType::I8 => f32::from(byte(0) as i8),
            ComponentType::U16 if n => f32::from(u16::from_le_bytes([byte(0), byte(1)])) / 65535.0,
            ComponentType::U16 => f32::from(u16::from_le_bytes([byte(0), byte(1)])),
            ComponentType::I16 if n => {
                (f32::from(i16::from_le_bytes([byte(0), byte(1)])) / 32767.0).max(-1.0)
            }
            ComponentType::I16 => f32::from(i16::from_le_bytes([byte(0), byte(1)])),
            ComponentType::U32 => u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]) as f32,
        }
    }

    /// Element `i` as an index.
    fn index(&self, i: usize) -> u32 {
        let size = self.component.size();
        let at = self.offset.saturating_add(i.saturating_mul(self.stride));
        let Some(b) = self.bytes.get(at..at.saturating_add(size)) else {
            return u32::MAX;
        };
        let byte = |k: usize| b.get(k).copied().unwrap_or(0);
        match self.component {
            ComponentType::U8 => u32::from(byte(0)),
            ComponentType::U16 => u32::from(u16::from_le_bytes([byte(0), byte(1)])),
            _ => u32::from_le_bytes([byte(0), byte(1), byte(2), byte(3)]),
        }
    }
}

impl<'a> Reader<'a> {
    fn err(&self, path: impl Into<String>, message: impl Into<String>) -> Error {
        Error::malformed(self.format, Location::path(path), message)
    }

    fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings
            .push(Warning::warning(self.format, Location::path(path), message));
    }

    fn check_asset(&mut self) -> Result<()> {
        let version = &self.root.asset.version;
        if !version.starts_with("2.") {
            return Err(Error::unsupported(
                self.format,
                Location::path("asset.version"),
                format!("glTF version {version:?}; only 2.x is supported"),
            ));
        }
        if let Some(ext) = self
            .root
            .extensions_required
            .iter()
            .find(|e| !SUPPORTED_REQUIRED.contains(&e.as_str()))
        {
            return Err(Error::unsupported(
                self.format,
                Location::path("extensionsRequired"),
                format!("the file requires extension {ext}, which levelkit does not support"),
            ));
        }
        Ok(())
    }

    fn load_buffers(
        &mut self,
        bin: Option<&'a [u8]>,
        resolve: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Result<()> {
        let root = self.root;
        for (i, b) in root.buffers.iter().enumerate() {
            let at = format!("buffers[{i}]");
            let data: Cow<'a, [u8]> = match &b.uri {
                None => match bin.filter(|_| i == 0) {
                    Some(bin) => Cow::Borrowed(bin),
                    None => {
                        return Err(self.err(
                            at,
                            format!("buffer {i} has no URI and there is no GLB BIN chunk for it"),
                        ));
                    }
                },
                Some(uri) if starts_with_ignore_case(uri, "data:") => {
                    let Some((_, data)) = decode_data_uri(uri) else {
                        return Err(self.err(at, format!("buffer {i}: bad data: URI")));
                    };
                    self.budget
                        .charge(data.len(), "buffer", Location::path(at.clone()))?;
                    Cow::Owned(data)
                }
                Some(uri) => {
                    let path = percent_decode(uri);
                    let Some(data) = resolve(&path) else {
                        return Err(Error::new(
                            self.format,
                            ErrorKind::Io,
                            Location::path(at),
                            format!("buffer {i} refers to {path:?}, which could not be loaded"),
                        ));
                    };
                    self.budget
                        .charge(data.len(), "buffer", Location::path(at.clone()))?;
                    Cow::Owned(data)
                }
            };
            let declared = usize::try_from(b.byte_length.0).unwrap_or(usize::MAX);
            if data.len() < declared {
                return Err(Error::new(
                    self.format,
                    ErrorKind::Truncated,
                    Location::path(at),
                    format!(
                        "buffer {i} has {} bytes, but its byteLength says {declared}",
                        data.len()
                    ),
                ));
            }
            let data = match data {
                Cow::Borrowed(d) => Cow::Borrowed(d.get(..declared).unwrap_or_default()),
                Cow::Owned(mut d) => {
                    d.truncate(declared);
                    Cow::Owned(d)
                }
            };
            self.buffers.push(data);
        }
        Ok(())
    }

    /// The bytes and stride of buffer view `index`.
    fn view(&self, index: usize, path: &str) -> Result<(&[u8], Option<usize>)> {
        let v = self
            .root
            .buffer_views
            .get(index)
            .ok_or_else(|| self.err(path, format!("buffer view {index} does not exist")))?;
        let buffer = self
            .buffers
            .get(v.buffer.value())
            .ok_or_else(|| self.err(path, format!("buffer {} does not exist", v.buffer.value())))?;
        let start = v.byte_offset.map_or(0, |o| o.0);
        let range = start
            .checked_add(v.byte_length.0)
            .and_then(|end| Some(usize::try_from(start).ok()?..usize::try_from(end).ok()?));
        let bytes = range.and_then(|r| buffer.get(r)).ok_or_else(|| {
            self.err(
                path,
                format!(
                    "buffer view {index} ({} bytes at {start}) runs past its buffer of {} bytes",
                    v.byte_length.0,
                    buffer.len()
                ),
            )
        })?;
        Ok((bytes, v.byte_stride.map(|s| s.0)))
    }

    /// Locate accessor `index`, checking its type against `types` and that every element lies
    /// inside its buffer view; charges `bytes_per_value` per component to the budget.
    fn elements(
        &mut self,
        index: usize,
        types: &[Type],
        path: &str,
        bytes_per_value: usize,
    ) -> Result<Elements<'_>> {
        let root = self.root;
        let at = format!("{path} (accessors[{index}])");
        let a = root
            .accessors
            .get(index)
            .ok_or_else(|| self.err(path, format!("accessor {index} does not exist")))?;
        if a.sparse.is_some() {
            return Err(Error::unsupported(
                self.format,
                Location::path(at),
                "sparse accessors are not supported",
            ));
        }
        let (Valid(GenericComponentType(component)), Valid(kind)) = (a.component_type, a.type_)
        else {
            return Err(self.err(at, "accessor has an invalid componentType or type"));
        };
        if !types.contains(&kind) {
            return Err(self.err(
                at,
                format!("accessor type {kind:?}, expected one of {types:?}"),
            ));
        }
        let Some(view) = a.buffer_view else {
            return Err(Error::unsupported(
                self.format,
                Location::path(at),
                "accessors without a bufferView (all zeros) are not supported",
            ));
        };
        let components = kind.multiplicity();
        let element = components.saturating_mul(component.size());
        let count = usize::try_from(a.count.0).unwrap_or(usize::MAX);
        let offset = a.byte_offset.map_or(Some(0), |o| usize::try_from(o.0).ok());
        let (len, stride) = {
            let (bytes, stride) = self.view(view.value(), &at)?;
            (bytes.len(), stride)
        };
        let stride = stride.unwrap_or(element);
        if stride < element {
            return Err(self.err(
                at,
                format!("byteStride {stride} is smaller than an element ({element} bytes)"),
            ));
        }
        let end = offset.and_then(|o| {
            if count == 0 {
                return Some(o);
            }
            stride
                .checked_mul(count.checked_sub(1)?)?
                .checked_add(element)?
                .checked_add(o)
        });
        if end.is_none_or(|end| end > len) {
            return Err(self.err(
                at,
                format!(
                    "{count} elements of {element} bytes (stride {stride}) run past the end of \
                     buffer view {} ({} bytes)",
                    view.value(),
                    len
                ),
            ));
        }
        // Inside the view, so proportional to the input; charged all the same, because any
        // number of primitives can share one accessor.
        self.budget.charge(
            count
                .saturating_mul(components)
                .saturating_mul(bytes_per_value),
            "accessor data",
            Location::path(at.clone()),
        )?;
        let (bytes, _) = self.view(view.value(), &at)?;
        Ok(Elements {
            bytes,
            offset: offset.unwrap_or(0),
            stride,
            count,
            components,
            component,
            normalized: a.normalized,
        })
    }

    /// Accessor `index` as floats (normalized integers scaled as glTF says), `components` per
    /// element.
    fn floats(&mut self, index: usize, types: &[Type], path: &str) -> Result<(Vec<f32>, usize)> {
        let e = self.elements(index, types, path, 4)?;
        let mut out = Vec::with_capacity(e.count.saturating_mul(e.components));
        for i in 0..e.count {
            for c in 0..e.components {
                out.push(e.get(i, c));
            }
        }
        Ok((out, e.components))
    }

    fn indices(&mut self, index: usize, path: &str) -> Result<Vec<u32>> {
        let format = self.format;
        let e = self.elements(index, &[Type::Scalar], path, 4)?;
        if !matches!(
            e.component,
            ComponentType::U8 | ComponentType::U16 | ComponentType::U32
        ) {
            return Err(Error::malformed(
                format,
                Location::path(path),
                format!(
                    "indices of type {:?}; glTF allows only unsigned ones",
                    e.component
                ),
            ));
        }
        Ok((0..e.count).map(|i| e.index(i)).collect())
    }

    /// An `extras` value as a map (a value that is not an object is kept under `"value"`).
    fn extras(&mut self, raw: &json::Extras, path: &str) -> Map<String, Value> {
        let Some(raw) = raw else {
            return Map::new();
        };
        match serde_json::from_str::<Value>(raw.get()) {
            Ok(Value::Object(map)) => map,
            Ok(other) => {
                let mut map = Map::new();
                map.insert("value".into(), other);
                map
            }
            Err(e) => {
                self.warn(path, format!("extras could not be read: {e}"));
                Map::new()
            }
        }
    }

    // ---- scene ------------------------------------------------------------------------------

    fn read_scene(&mut self) -> Result<Scene> {
        let root = self.root;
        let mut scene = Scene::new(self.format);
        scene.textures = self.read_textures()?;
        let (materials, vertex_colors) = self.read_materials(scene.textures.len())?;
        scene.materials = materials;
        let (meshes, morphs, mut joints) = self.read_meshes(scene.materials.len())?;
        scene.meshes = meshes;
        scene.morphs = morphs;
        for (i, (m, vc)) in scene.materials.iter_mut().zip(vertex_colors).enumerate() {
            m.vertex_colors = vc.unwrap_or_else(|| self.colored_materials.contains(&i));
        }
        scene.cameras = self.read_cameras()?;
        let default_scene = root
            .scene
            .map(|s| s.value())
            .or((!root.scenes.is_empty()).then_some(0));
        let gscene = match default_scene {
            Some(s) => Some(
                root.scenes
                    .get(s)
                    .ok_or_else(|| self.err("scene", format!("scene {s} does not exist")))?,
            ),
            None => None,
        };
        if root.scenes.len() > 1 {
            self.warn(
                "scenes",
                format!(
                    "the file has {} scenes; only the default one gives the roots",
                    root.scenes.len()
                ),
            );
        }
        let mut scene_extras = match gscene {
            Some(s) => self.extras(&s.extras, "scenes"),
            None => Map::new(),
        };
        let ambient = scene_extras.remove(keys::AMBIENT_LIGHTS);
        let (lights, ambient_map) = self.read_lights(ambient)?;
        scene.lights = lights;
        let (nodes, map, outer_of) = self.read_nodes(&scene, &ambient_map)?;
        scene.nodes = nodes;
        scene.roots = match gscene {
            Some(s) => s
                .nodes
                .iter()
                .map(|n| {
                    map.get(n.value()).copied().flatten().ok_or_else(|| {
                        self.err("scenes", format!("root node {} is not a node", n.value()))
                    })
                })
                .collect::<Result<_>>()?,
            None => {
                // No scene: every node without a parent is a root.
                let mut is_child = vec![false; scene.nodes.len()];
                for n in &scene.nodes {
                    for &c in &n.children {
                        if let Some(slot) = is_child.get_mut(c) {
                            *slot = true;
                        }
                    }
                }
                (0..scene.nodes.len())
                    .filter(|&i| !is_child.get(i).copied().unwrap_or(false))
                    .collect()
            }
        };
        if let Some(s) = gscene {
            scene.name = s.name.clone();
        }
        scene.extras = scene_extras;
        scene.skins = self.read_skins(&map, &outer_of, &mut joints)?;
        let animations = self.read_animations(&scene, &map, &outer_of);
        scene.animations = animations.spins;
        scene.morph_animations = animations.morphs;
        scene.joint_animations = animations.joints;
        Ok(scene)
    }

    fn read_textures(&mut self) -> Result<Vec<Texture>> {
        let root = self.root;
        let mut images = Vec::with_capacity(root.images.len());
        for (i, image) in root.images.iter().enumerate() {
            let at = format!("images[{i}]");
            let declared = image.mime_type.as_ref().map(|m| m.0.clone());
            let source = if let Some(view) = image.buffer_view {
                let len = self.view(view.value(), &at)?.0.len();
                self.budget
                    .charge(len, "image", Location::path(at.clone()))?;
                let data = self.view(view.value(), &at)?.0.to_vec();
                let mime = self.image_mime(&at, declared, &data);
                TextureSource::Encoded {
                    mime_type: mime,
                    data,
                }
            } else if let Some(uri) = &image.uri {
                if starts_with_ignore_case(uri, "data:") {
                    let Some((uri_mime, data)) = decode_data_uri(uri) else {
                        return Err(self.err(at, "bad data: URI"));
                    };
                    self.budget
                        .charge(data.len(), "image", Location::path(at.clone()))?;
                    let declared = declared.or((!uri_mime.is_empty()).then_some(uri_mime));
                    let mime = self.image_mime(&at, declared, &data);
                    TextureSource::Encoded {
                        mime_type: mime,
                        data,
                    }
                } else if has_scheme(uri) {
                    TextureSource::File(uri.clone())
                } else {
                    TextureSource::File(percent_decode(uri))
                }
            } else {
                return Err(self.err(at, "image has neither a uri nor a bufferView"));
            };
            images.push((source, image.name.clone()));
        }
        let mut textures = Vec::with_capacity(root.textures.len());
        for (i, t) in root.textures.iter().enumerate() {
            let at = format!("textures[{i}]");
            let Some((source, image_name)) = images.get(t.source.value()) else {
                return Err(self.err(at, format!("image {} does not exist", t.source.value())));
            };
            if let TextureSource::Encoded { data, .. } = source {
                self.budget
                    .charge(data.len(), "texture image", Location::path(at.clone()))?;
            }
            let mut extras = self.extras(&t.extras, &at);
            if let Some(s) = t.sampler.and_then(|s| root.samplers.get(s.value())) {
                let repeat = |w: &json::validation::Checked<json::texture::WrappingMode>| {
                    matches!(w, Valid(json::texture::WrappingMode::Repeat))
                };
                let nearest =
                    matches!(s.mag_filter, Some(Valid(json::texture::MagFilter::Nearest)));
                if !repeat(&s.wrap_s) || !repeat(&s.wrap_t) || nearest {
                    let mut sampler = Map::new();
                    let gl = |w: &json::validation::Checked<json::texture::WrappingMode>| match w {
                        Valid(w) => Value::from(w.as_gl_enum()),
                        Invalid => Value::Null,
                    };
                    sampler.insert("wrap_s".into(), gl(&s.wrap_s));
                    sampler.insert("wrap_t".into(), gl(&s.wrap_t));
                    if let Some(Valid(f)) = s.mag_filter {
                        sampler.insert("mag_filter".into(), Value::from(f.as_gl_enum()));
                    }
                    if let Some(Valid(f)) = s.min_filter {
                        sampler.insert("min_filter".into(), Value::from(f.as_gl_enum()));
                    }
                    extras.insert("sampler".into(), Value::Object(sampler));
                }
            }
            textures.push(Texture {
                name: t.name.clone().or_else(|| image_name.clone()),
                source: source.clone(),
                extras,
            });
        }
        Ok(textures)
    }

    /// The image's MIME type: as declared, else by its bytes.
    fn image_mime(&mut self, at: &str, declared: Option<String>, data: &[u8]) -> String {
        match (declared, sniff_image(data)) {
            (Some(d), _) => d,
            (None, Some(s)) => s.to_owned(),
            (None, None) => {
                self.warn(at, "image has no MIME type and is neither PNG nor JPEG");
                "application/octet-stream".to_owned()
            }
        }
    }

    /// Materials, and the `vertex_colors` each one recorded (if it did).
    fn read_materials(&mut self, textures: usize) -> Result<(Vec<Material>, Vec<Option<bool>>)> {
        let root = self.root;
        let mut out = Vec::with_capacity(root.materials.len());
        let mut vertex_colors = Vec::with_capacity(root.materials.len());
        for (i, m) in root.materials.iter().enumerate() {
            let at = format!("materials[{i}]");
            let tex = |r: &mut Self, index: Option<usize>, coord: u32, what: &str| {
                let Some(t) = index else {
                    return Ok(None);
                };
                if t >= textures {
                    return Err(r.err(
                        format!("{at}.{what}"),
                        format!("texture {t} does not exist"),
                    ));
                }
                if coord != 0 {
                    r.warn(
                        format!("{at}.{what}"),
                        format!("uses TEXCOORD_{coord}; only TEXCOORD_0 is read"),
                    );
                }
                Ok(Some(t))
            };
            let pbr = &m.pbr_metallic_roughness;
            let info = |t: &Option<json::texture::Info>| {
                t.as_ref()
                    .map_or((None, 0), |t| (Some(t.index.value()), t.tex_coord))
            };
            let (bt, bc) = info(&pbr.base_color_texture);
            let base_color_texture = tex(self, bt, bc, "baseColorTexture")?;
            let (mt, mc) = info(&pbr.metallic_roughness_texture);
            let metallic_roughness_texture = tex(self, mt, mc, "metallicRoughnessTexture")?;
            let (et, ec) = info(&m.emissive_texture);
            let emissive_texture = tex(self, et, ec, "emissiveTexture")?;
            let normal_texture = match &m.normal_texture {
                Some(t) => tex(self, Some(t.index.value()), t.tex_coord, "normalTexture")?,
                None => None,
            };
            let occlusion_texture = match &m.occlusion_texture {
                Some(t) => tex(self, Some(t.index.value()), t.tex_coord, "occlusionTexture")?,
                None => None,
            };
            let mut clamped = false;
            let mut unit = |v: f32| {
                let c = if v.is_finite() {
                    v.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                clamped |= c != v;
                c
            };
            let base_color = pbr.base_color_factor.0.map(&mut unit);
            let metallic = unit(pbr.metallic_factor.0);
            let roughness = unit(pbr.roughness_factor.0);
            let emissive = m.emissive_factor.0.map(&mut unit);
            if clamped {
                self.warn(at.clone(), "colours and factors outside 0–1 were clamped");
            }
            let alpha_mode = match m.alpha_mode {
                Valid(json::material::AlphaMode::Opaque) => AlphaMode::Opaque,
                Valid(json::material::AlphaMode::Blend) => AlphaMode::Blend,
                Valid(json::material::AlphaMode::Mask) => {
                    AlphaMode::Mask(m.alpha_cutoff.map_or(0.5, |c| c.0))
                }
                Invalid => return Err(self.err(format!("{at}.alphaMode"), "invalid alpha mode")),
            };
            let mut extras = self.extras(&m.extras, &at);
            let phong = match extras.get(keys::PHONG) {
                Some(v) => match serde_json::from_value::<Phong>(v.clone()) {
                    Ok(p) => {
                        extras.remove(keys::PHONG);
                        Some(p)
                    }
                    Err(_) => None,
                },
                None => None,
            };
            let vc = match extras.get(keys::VERTEX_COLORS) {
                Some(Value::Bool(b)) => {
                    let b = *b;
                    extras.remove(keys::VERTEX_COLORS);
                    Some(b)
                }
                _ => None,
            };
            if let Some(s) = m
                .extensions
                .as_ref()
                .and_then(|e| e.emissive_strength.as_ref())
            {
                extras.insert(
                    "emissive_strength".into(),
                    Value::from(f64::from(s.emissive_strength.0)),
                );
            }
            out.push(Material {
                name: m.name.clone(),
                base_color,
                base_color_texture,
                metallic,
                roughness,
                metallic_roughness_texture,
                normal_texture,
                occlusion_texture,
                emissive,
                emissive_texture,
                alpha_mode,
                double_sided: m.double_sided,
                vertex_colors: false,
                phong,
                extras,
            });
            vertex_colors.push(vc);
        }
        Ok((out, vertex_colors))
    }

    fn read_meshes(
        &mut self,
        materials: usize,
    ) -> Result<(Vec<Mesh>, Vec<Morphs>, Vec<MeshJoints>)> {
        let root = self.root;
        let mut out = Vec::with_capacity(root.meshes.len());
        let mut morphs = Vec::new();
        let mut joints = Vec::with_capacity(root.meshes.len());
        for (mi, gm) in root.meshes.iter().enumerate() {
            let at = format!("meshes[{mi}]");
            let mut mesh = Mesh {
                name: gm.name.clone(),
                extras: self.extras(&gm.extras, &at),
                ..Mesh::default()
            };
            // Scene positions by the source position our writer recorded for each vertex.
            let mut shared: FxHashMap<u64, u32> = FxHashMap::default();
            let mut rig = Rig::default();
            for (pi, p) in gm.primitives.iter().enumerate() {
                let at = format!("meshes[{mi}].primitives[{pi}]");
                self.read_primitive(&mut mesh, p, &at, materials, &mut shared, &mut rig)?;
            }
            let names = mesh.extras.remove("targetNames");
            mesh.extras.remove(keys::SOURCE_VERTICES);
            if !rig.unsourced && !mesh.positions.is_empty() {
                mesh.extras
                    .insert(keys::SOURCE_VERTICES.into(), Value::Bool(true));
            }
            if let Some(targets) = rig.targets {
                morphs.push(Self::morphs_of_rig(mi, targets, names));
            }
            joints.push(rig.joints);
            out.push(mesh);
        }
        Ok((out, morphs, joints))
    }

    fn read_primitive(
        &mut self,
        mesh: &mut Mesh,
        p: &json::mesh::Primitive,
        at: &str,
        materials: usize,
        shared: &mut FxHashMap<u64, u32>,
        rig: &mut Rig,
    ) -> Result<()> {
        let Valid(mode) = p.mode else {
            return Err(self.err(at, "invalid primitive mode"));
        };
        if mode == Mode::Points {
            self.warn(at, "points are not supported; primitive left out");
            return Ok(());
        }
        let Some(pos) = p.attributes.get(&Valid(Semantic::Positions)) else {
            self.warn(at, "primitive has no POSITION; left out");
            return Ok(());
        };
        let material = p.material.map(|m| m.value());
        if let Some(m) = material
            && m >= materials
        {
            return Err(self.err(at, format!("material {m} does not exist")));
        }
        let (positions, _) = self.floats(pos.value(), &[Type::Vec3], &format!("{at}.POSITION"))?;
        let vcount = positions.len() / 3;
        let indices = match p.indices {
            Some(i) => self.indices(i.value(), &format!("{at}.indices"))?,
            None => {
                let n = u32::try_from(vcount).map_err(|_| self.err(at, "too many vertices"))?;
                self.budget
                    .charge(vcount.saturating_mul(4), "indices", Location::path(at))?;
                (0..n).collect()
            }
        };
        if let Some(bad) = indices.iter().find(|&&i| i as usize >= vcount) {
            return Err(self.err(
                format!("{at}.indices"),
                format!("index {bad} is not one of the {vcount} vertices"),
            ));
        }
        self.budget
            .charge(vcount.saturating_mul(24), "positions", Location::path(at))?;
        // Parsed once here; the face reader takes what it needs from the same map.
        let mut extras = self.extras(&p.extras, at);
        let sources: Option<Vec<u64>> = extras
            .remove(keys::POSITIONS)
            .as_ref()
            .and_then(Value::as_array)
            .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
            .filter(|ids| ids.len() == vcount);
        if sources.is_none() {
            rig.unsourced = true;
        }
        // Where each vertex's position is in the mesh: its own new position, or the one already
        // made for the same source position.
        let mut remap: Vec<u32> = Vec::with_capacity(vcount);
        // For each position this primitive adds, the vertex it came from.
        let mut fresh: Vec<usize> = Vec::new();
        for (k, c) in positions.chunks_exact(3).enumerate() {
            let p = [0, 1, 2].map(|j| f64::from(c.get(j).copied().unwrap_or(0.0)));
            let next = u32::try_from(mesh.positions.len())
                .map_err(|_| self.err(at, "the mesh has more than 2^32 positions"))?;
            let id = match sources.as_ref().and_then(|s| s.get(k)) {
                Some(&src) => *shared.entry(src).or_insert(next),
                None => next,
            };
            if id == next {
                mesh.positions.push(p);
                fresh.push(k);
            }
            remap.push(id);
        }
        self.read_rig(p, at, &mesh.positions, &fresh, rig)?;
        let ignored: Vec<String> = p
            .attributes
            .keys()
            .filter_map(|k| match k {
                // Tangents are derived data (the writer makes them from normals and UVs).
                Valid(Semantic::Positions | Semantic::Normals | Semantic::Tangents)
                | Valid(Semantic::TexCoords(0) | Semantic::Colors(0))
                | Valid(Semantic::Joints(0) | Semantic::Weights(0)) => None,
                Valid(s) => Some(s.to_string()),
                Invalid => Some("(invalid)".to_owned()),
            })
            .collect();
        if !ignored.is_empty() {
            self.warn(at, format!("attributes not read: {}", ignored.join(", ")));
        }
        match mode {
            Mode::Lines | Mode::LineStrip | Mode::LineLoop => {
                let lines = lines_of(mode, &indices, &remap);
                if mode == Mode::Lines && indices.len() % 2 != 0 {
                    self.warn(at, "odd number of LINES indices; the last one is left out");
                }
                mesh.lines.extend(lines.into_iter().map(|points| Polyline {
                    closed: mode == Mode::LineLoop,
                    points,
                    material,
                }));
                Ok(())
            }
            _ => self.read_faces(
                mesh, p, at, mode, &indices, vcount, &remap, material, extras,
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn read_faces(
        &mut self,
        mesh: &mut Mesh,
        p: &json::mesh::Primitive,
        at: &str,
        mode: Mode,
        indices: &[u32],
        vcount: usize,
        remap: &[u32],
        material: Option<usize>,
        mut extras: Map<String, Value>,
    ) -> Result<()> {
        let attribute = |r: &mut Self, semantic: Semantic, types: &[Type], name: &str| {
            let Some(a) = p.attributes.get(&Valid(semantic)) else {
                return Ok(None);
            };
            let (values, n) = r.floats(a.value(), types, &format!("{at}.{name}"))?;
            if values.len() != vcount.saturating_mul(n) {
                return Err(r.err(
                    format!("{at}.{name}"),
                    format!(
                        "{} elements, but POSITION has {vcount}",
                        values.len().checked_div(n).unwrap_or(values.len())
                    ),
                ));
            }
            Ok(Some((values, n)))
        };
        let normals = attribute(self, Semantic::Normals, &[Type::Vec3], "NORMAL")?;
        let uvs = attribute(self, Semantic::TexCoords(0), &[Type::Vec2], "TEXCOORD_0")?;
        let colors = attribute(
            self,
            Semantic::Colors(0),
            &[Type::Vec3, Type::Vec4],
            "COLOR_0",
        )?;
        if colors.is_some()
            && let Some(m) = material
        {
            self.colored_materials.insert(m);
        }
        let tris: Vec<[u32; 3]> = match mode {
            Mode::TriangleStrip => (0..indices.len().saturating_sub(2))
                .filter_map(|i| {
                    let (a, b, c) = (
                        indices.get(i)?,
                        indices.get(i.checked_add(1)?)?,
                        indices.get(i.checked_add(2)?)?,
                    );
                    Some(if i % 2 == 0 {
                        [*a, *b, *c]
                    } else {
                        [*b, *a, *c]
                    })
                })
                .collect(),
            Mode::TriangleFan => (1..indices.len().saturating_sub(1))
                .filter_map(|i| {
                    Some([
                        *indices.first()?,
                        *indices.get(i)?,
                        *indices.get(i.checked_add(1)?)?,
                    ])
                })
                .collect(),
            _ => {
                if indices.len() % 3 != 0 {
                    self.warn(
                        at,
                        "index count is not a multiple of 3; the rest is left out",
                    );
                }
                indices
                    .chunks_exact(3)
                    .map(|t| [0, 1, 2].map(|k| t.get(k).copied().unwrap_or(0)))
                    .collect()
            }
        };
        let polygons: Option<Vec<usize>> = match extras.remove(keys::POLYGONS) {
            Some(v) if mode == Mode::Triangles => {
                let counts: Option<Vec<usize>> = v.as_array().and_then(|a| {
                    a.iter()
                        .map(|n| n.as_u64().and_then(|n| usize::try_from(n).ok()))
                        .collect()
                });
                let fits = counts.as_ref().is_some_and(|c| {
                    c.iter().all(|&n| n >= 3)
                        && c.iter()
                            .try_fold(0usize, |acc, &n| acc.checked_add(n.checked_sub(2)?))
                            == Some(tris.len())
                });
                if !fits {
                    self.warn(
                        at,
                        format!(
                            "extras.{} does not match the {} triangles; faces stay triangles",
                            keys::POLYGONS,
                            tris.len()
                        ),
                    );
                }
                counts.filter(|_| fits)
            }
            _ => None,
        };
        let set = |v: Option<Value>| -> FxHashSet<u64> {
            v.and_then(|v| {
                v.as_array()
                    .map(|a| a.iter().filter_map(Value::as_u64).collect())
            })
            .unwrap_or_default()
        };
        let without_uv = set(extras.remove(keys::FACES_WITHOUT_UV));
        let uncolored = set(extras.remove(keys::UNCOLORED_VERTICES));
        if !extras.is_empty() {
            let names: Vec<&str> = extras.keys().map(String::as_str).collect();
            self.warn(
                at,
                format!(
                    "primitive extras have no place in the scene model: {}",
                    names.join(", ")
                ),
            );
        }
        let corner = |v: u32, with_uv: bool| -> Corner {
            let i = v as usize;
            let pick = |data: &Option<(Vec<f32>, usize)>, k: usize| {
                data.as_ref()
                    .and_then(|(d, n)| d.get(i.checked_mul(*n)?.checked_add(k)?).copied())
                    .unwrap_or(0.0)
            };
            let normal = normals
                .as_ref()
                .map(|_| [0, 1, 2].map(|k| pick(&normals, k)));
            let uv = uvs
                .as_ref()
                .filter(|_| with_uv)
                .map(|_| [f64::from(pick(&uvs, 0)), 1.0 - f64::from(pick(&uvs, 1))]);
            let color = colors
                .as_ref()
                .filter(|_| !uncolored.contains(&u64::from(v)))
                .map(|(_, n)| {
                    let alpha = if *n == 4 { pick(&colors, 3) } else { 1.0 };
                    [pick(&colors, 0), pick(&colors, 1), pick(&colors, 2), alpha]
                });
            Corner {
                position: remap.get(i).copied().unwrap_or(0),
                normal,
                uv,
                color,
            }
        };
        let corners_total = tris.len().saturating_mul(3);
        self.budget.charge(
            corners_total.saturating_mul(std::mem::size_of::<Corner>().saturating_add(8)),
            "faces",
            Location::path(at),
        )?;
        let mut failed = 0usize;
        let face = |corners: Vec<Corner>| Face { corners, material };
        match polygons {
            Some(counts) => {
                let mut t = 0usize;
                for (k, n) in counts.into_iter().enumerate() {
                    let group = tris
                        .get(t..t.saturating_add(n.saturating_sub(2)))
                        .unwrap_or_default();
                    t = t.saturating_add(n.saturating_sub(2));
                    let with_uv = !without_uv.contains(&(k as u64));
                    match rebuild_polygon(group) {
                        Some(ring) => {
                            mesh.faces
                                .push(face(ring.into_iter().map(|v| corner(v, with_uv)).collect()));
                        }
                        None => {
                            failed = failed.saturating_add(1);
                            for tri in group {
                                mesh.faces
                                    .push(face(tri.iter().map(|&v| corner(v, with_uv)).collect()));
                            }
                        }
                    }
                }
            }
            None => {
                for tri in &tris {
                    mesh.faces
                        .push(face(tri.iter().map(|&v| corner(v, true)).collect()));
                }
            }
        }
        if failed > 0 {
            self.warn(
                at,
                format!(
                    "{failed} polygons could not be rebuilt from their triangles (their outline \
                     is not one loop of distinct vertices); they stay triangles"
                ),
            );
        }
        Ok(())
    }

    fn read_cameras(&mut self) -> Result<Vec<Camera>> {
        let root = self.root;
        let mut out = Vec::with_capacity(root.cameras.len());
        for (i, c) in root.cameras.iter().enumerate() {
            let at = format!("cameras[{i}]");
            let projection = match (c.type_, &c.perspective, &c.orthographic) {
                (Valid(json::camera::Type::Perspective), Some(p), _) => Projection::Perspective {
                    yfov: f64::from(p.yfov),
                    znear: f64::from(p.znear),
                    zfar: p.zfar.map(f64::from),
                    aspect_ratio: p.aspect_ratio.map(f64::from),
                },
                (Valid(json::camera::Type::Orthographic), _, Some(o)) => Projection::Orthographic {
                    xmag: f64::from(o.xmag),
                    ymag: f64::from(o.ymag),
                    znear: f64::from(o.znear),
                    zfar: f64::from(o.zfar),
                },
                _ => return Err(self.err(at, "camera type and projection do not match")),
            };
            out.push(Camera {
                name: c.name.clone(),
                projection,
                extras: self.extras(&c.extras, &at),
            });
        }
        Ok(out)
    }

    /// `KHR_lights_punctual` lights, then the ambient ones; and each ambient entry's light index.
    fn read_lights(&mut self, ambient: Option<Value>) -> Result<(Vec<Light>, Vec<Option<usize>>)> {
        let root = self.root;
        let punctual = root
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .map_or(&[][..], |k| k.lights.as_slice());
        let mut out = Vec::with_capacity(punctual.len());
        for (i, l) in punctual.iter().enumerate() {
            use json::extensions::scene::khr_lights_punctual::Type as K;
            let at = format!("extensions.KHR_lights_punctual.lights[{i}]");
            let mut extras = self.extras(&l.extras, &at);
            let area = extras.get(keys::AREA_LIGHT) == Some(&Value::Bool(true));
            let kind = match l.type_ {
                Valid(K::Point) => LightKind::Point,
                Valid(K::Directional) => LightKind::Directional,
                Valid(K::Spot) if area => {
                    extras.remove(keys::AREA_LIGHT);
                    LightKind::Area
                }
                Valid(K::Spot) => {
                    let (inner, outer) = l
                        .spot
                        .as_ref()
                        .map_or((0.0, std::f32::consts::FRAC_PI_4), |s| {
                            (s.inner_cone_angle, s.outer_cone_angle)
                        });
                    let half_pi = std::f32::consts::FRAC_PI_2;
                    if 0.0 <= inner && inner < outer && outer <= half_pi {
                        LightKind::Spot {
                            inner_cone_angle: inner,
                            outer_cone_angle: outer,
                        }
                    } else {
                        self.warn(
                            at.clone(),
                            format!(
                                "spot cone angles {inner} and {outer} are not \
                                 0 <= inner < outer <= pi/2; using 0 and pi/4"
                            ),
                        );
                        LightKind::Spot {
                            inner_cone_angle: 0.0,
                            outer_cone_angle: std::f32::consts::FRAC_PI_4,
                        }
                    }
                }
                Invalid => return Err(self.err(at, "invalid light type")),
            };
            let (color, intensity) = self.light_numbers(&at, l.color, l.intensity);
            out.push(Light {
                name: l.name.clone(),
                kind,
                color,
                intensity,
                range: l.range.filter(|r| r.is_finite() && *r > 0.0),
                extras,
            });
        }
        let mut map = Vec::new();
        let entries = match ambient {
            Some(Value::Array(a)) => a,
            Some(_) => {
                self.warn(
                    format!("scenes.extras.{}", keys::AMBIENT_LIGHTS),
                    "ambient lights are not a list; left out",
                );
                Vec::new()
            }
            None => Vec::new(),
        };
        for (k, e) in entries.into_iter().enumerate() {
            let at = format!("scenes.extras.{}[{k}]", keys::AMBIENT_LIGHTS);
            let Value::Object(mut e) = e else {
                self.warn(at, "ambient light is not an object; left out");
                map.push(None);
                continue;
            };
            let num = |v: Option<&Value>| v.and_then(Value::as_f64).map(|x| x as f32);
            let color = match e.get("color").and_then(Value::as_array).map(Vec::as_slice) {
                Some([r, g, b]) => {
                    [num(Some(r)), num(Some(g)), num(Some(b))].map(|c| c.unwrap_or(1.0))
                }
                _ => [1.0; 3],
            };
            let intensity = num(e.get("intensity")).unwrap_or(1.0);
            let (color, intensity) = self.light_numbers(&at, color, intensity);
            let extras = match e.remove("extras") {
                Some(Value::Object(m)) => m,
                _ => Extras::new(),
            };
            map.push(Some(out.len()));
            out.push(Light {
                name: e.get("name").and_then(Value::as_str).map(str::to_owned),
                kind: LightKind::Ambient,
                color,
                intensity,
                range: num(e.get("range")).filter(|r| r.is_finite() && *r > 0.0),
                extras,
            });
        }
        Ok((out, map))
    }

    /// Colour and intensity made finite and non-negative (what the scene model requires).
    fn light_numbers(&mut self, at: &str, color: [f32; 3], intensity: f32) -> ([f32; 3], f32) {
        let ok = |v: f32| v.is_finite() && v >= 0.0;
        if color.iter().all(|&c| ok(c)) && ok(intensity) {
            return (color, intensity);
        }
        self.warn(
            at,
            "light colour or intensity is negative or not finite; clamped",
        );
        let fix = |v: f32| if ok(v) { v } else { 0.0 };
        (color.map(fix), fix(intensity))
    }

    /// Nodes, with inserted `levelkit_split` children merged back into their parents; also each
    /// glTF node's scene index (`None` for merged ones) and the parent each merged one went into.
    #[allow(clippy::type_complexity)]
    fn read_nodes(
        &mut self,
        scene: &Scene,
        ambient_map: &[Option<usize>],
    ) -> Result<(Vec<Node>, Vec<Option<usize>>, Vec<Option<usize>>)> {
        let root = self.root;
        let count = root.nodes.len();
        let extras: Vec<Map<String, Value>> = root
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| self.extras(&n.extras, &format!("nodes[{i}]")))
            .collect();
        let mut parent: Vec<Option<usize>> = vec![None; count];
        for (i, n) in root.nodes.iter().enumerate() {
            for c in n.children.iter().flatten() {
                if let Some(slot) = parent.get_mut(c.value())
                    && slot.is_none()
                {
                    *slot = Some(i);
                }
            }
        }
        // A split child: marked, the only child of a parent that kept the original matrix.
        let mut outer_of: Vec<Option<usize>> = vec![None; count];
        let mut inner_of: Vec<Option<usize>> = vec![None; count];
        for i in 0..count {
            let marked = extras
                .get(i)
                .is_some_and(|e| e.get(keys::SPLIT) == Some(&Value::Bool(true)));
            let Some(p) = parent.get(i).copied().flatten().filter(|_| marked) else {
                continue;
            };
            let only_child = root
                .nodes
                .get(p)
                .and_then(|n| n.children.as_deref())
                .is_some_and(|c| c.len() == 1);
            let has_matrix = extras.get(p).is_some_and(|e| e.contains_key(keys::MATRIX));
            if only_child && has_matrix && p != i {
                if let Some(slot) = outer_of.get_mut(i) {
                    *slot = Some(p);
                }
                if let Some(slot) = inner_of.get_mut(p) {
                    *slot = Some(i);
                }
            }
        }
        let mut map: Vec<Option<usize>> = Vec::with_capacity(count);
        let mut next = 0usize;
        for outer in &outer_of {
            if outer.is_some() {
                map.push(None);
            } else {
                map.push(Some(next));
                next = next.saturating_add(1);
            }
        }
        let khr_lights = root
            .extensions
            .as_ref()
            .and_then(|e| e.khr_lights_punctual.as_ref())
            .map_or(0, |k| k.lights.len());
        let mut nodes = Vec::with_capacity(next);
        for (i, n) in root.nodes.iter().enumerate() {
            if outer_of.get(i).copied().flatten().is_some() {
                continue;
            }
            let at = format!("nodes[{i}]");
            let mut own = extras.get(i).cloned().unwrap_or_default();
            let inner = inner_of.get(i).copied().flatten();
            // What the node shows and holds lives on the inserted child, if there is one.
            let content = inner.and_then(|c| root.nodes.get(c)).unwrap_or(n);
            let transform = match own.remove(keys::MATRIX).and_then(|v| matrix_of(&v)) {
                Some(m) => Transform::Matrix(m),
                None => match n.matrix {
                    Some(m) => Transform::Matrix(m.map(f64::from)),
                    None => {
                        let t = n.translation.unwrap_or([0.0; 3]).map(f64::from);
                        let r = n
                            .rotation
                            .map_or([0.0, 0.0, 0.0, 1.0], |q| q.0.map(f64::from));
                        let s = n.scale.unwrap_or([1.0; 3]).map(f64::from);
                        let len = r.iter().map(|v| v * v).sum::<f64>().sqrt();
                        let r = if len.is_finite() && len > 0.0 {
                            r.map(|v| v / len)
                        } else {
                            [0.0, 0.0, 0.0, 1.0]
                        };
                        Transform::Trs {
                            translation: t,
                            rotation: r,
                            scale: s,
                        }
                    }
                },
            };
            let mesh = content.mesh.map(|m| m.value());
            if let Some(m) = mesh
                && m >= scene.meshes.len()
            {
                return Err(self.err(at, format!("mesh {m} does not exist")));
            }
            let camera = content.camera.map(|c| c.value());
            if let Some(c) = camera
                && c >= scene.cameras.len()
            {
                return Err(self.err(at, format!("camera {c} does not exist")));
            }
            let khr = [content, n].into_iter().find_map(|x| {
                x.extensions
                    .as_ref()
                    .and_then(|e| e.khr_lights_punctual.as_ref())
                    .map(|l| l.light.value())
            });
            let mut light = match khr {
                Some(l) if l < khr_lights => Some(l),
                Some(l) => return Err(self.err(at, format!("light {l} does not exist"))),
                None => None,
            };
            if let Some(v) = own.remove(keys::AMBIENT_LIGHT) {
                match v
                    .as_u64()
                    .and_then(|k| ambient_map.get(usize::try_from(k).ok()?).copied().flatten())
                {
                    Some(l) if light.is_none() => light = Some(l),
                    _ => self.warn(
                        at.clone(),
                        "ambient light reference does not resolve; left out",
                    ),
                }
            }
            let mut children = Vec::new();
            for c in content.children.iter().flatten() {
                match map.get(c.value()).copied().flatten() {
                    Some(k) => children.push(k),
                    None => {
                        return Err(self.err(at, format!("child {} is not a node", c.value())));
                    }
                }
            }
            nodes.push(Node {
                name: n.name.clone(),
                transform,
                children,
                mesh,
                light,
                camera,
                extras: own,
            });
        }
        Ok((nodes, map, outer_of))
    }
}

/// Polylines of a `LINES` (segments chained where one ends at the next one's start),
/// `LINE_STRIP` or `LINE_LOOP` primitive, as position indices.
fn lines_of(mode: Mode, indices: &[u32], remap: &[u32]) -> Vec<Vec<u32>> {
    let at = |i: &u32| remap.get(*i as usize).copied().unwrap_or(0);
    if mode != Mode::Lines {
        return if indices.len() >= 2 {
            vec![indices.iter().map(at).collect()]
        } else {
            Vec::new()
        };
    }
    let mut out: Vec<Vec<u32>> = Vec::new();
    for pair in indices.chunks_exact(2) {
        let (Some(a), Some(b)) = (pair.first(), pair.get(1)) else {
            continue;
        };
        match out.last_mut() {
            Some(line) if line.last() == Some(&at(a)) => line.push(at(b)),
            _ => out.push(vec![at(a), at(b)]),
        }
    }
    out
}

/// The polygon whose `n - 2` triangles are `tris`: its boundary edges (directed edges whose
/// reverse is not in the group, each once) walked from the first triangle's first corner. `None`
/// when the boundary is not one loop of `n` distinct vertices.
fn rebuild_polygon(tris: &[[u32; 3]]) -> Option<Vec<u32>> {
    let n = tris.len().saturating_add(2);
    let first = tris.first()?;
    if tris.len() == 1 {
        return Some(first.to_vec());
    }
    // The group's directed edges, sorted: equal edges side by side, reverses found by search.
    let mut edges: Vec<(u32, u32)> = tris
        .iter()
        .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
        .collect();
    if edges.iter().any(|&(a, b)| a == b) {
        return None;
    }
    edges.sort_unstable();
    // The boundary edges, sorted by their start: each used once, no two from the same vertex.
    let mut next: Vec<(u32, u32)> = Vec::with_capacity(n);
    for run in edges.chunk_by(|x, y| x == y) {
        let &[(a, b), ..] = run else {
            continue;
        };
        if edges.binary_search(&(b, a)).is_ok() {
            continue; // an inner diagonal, used once each way
        }
        if run.len() != 1 || next.last().is_some_and(|&(s, _)| s == a) {
            return None;
        }
        next.push((a, b));
    }
    if next.len() != n {
        return None;
    }
    let start = first[0];
    let mut ring = Vec::with_capacity(n);
    // Per boundary edge (by its place in `next`): whether the walk has left its start.
    let mut seen = vec![false; n];
    let mut at = start;
    for _ in 0..n {
        let i = next.binary_search_by_key(&at, |&(s, _)| s).ok()?;
        let (visited, &(_, to)) = (seen.get_mut(i)?, next.get(i)?);
        if std::mem::replace(visited, true) {
            return None;
        }
        ring.push(at);
        at = to;
    }
    (at == start).then_some(ring)
}

/// A JSON array of 16 finite numbers.
fn matrix_of(v: &Value) -> Option<[f64; 16]> {
    matrix_like::<16>(v)
}

fn matrix_like<const N: usize>(v: &Value) -> Option<[f64; N]> {
    let a = v.as_array()?;
    if a.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, x) in out.iter_mut().zip(a) {
        *slot = x.as_f64().filter(|x| x.is_finite())?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_from_fan_and_failures() {
        // A pentagon 0..5 as a fan from 0.
        let tris = [[0, 1, 2], [0, 2, 3], [0, 3, 4]];
        assert_eq!(rebuild_polygon(&tris), Some(vec![0, 1, 2, 3, 4]));
        // Starting elsewhere keeps the order.
        let tris = [[2, 3, 4], [2, 4, 0], [2, 0, 1]];
        assert_eq!(rebuild_polygon(&tris), Some(vec![2, 3, 4, 0, 1]));
        // Two triangles sharing only a vertex: not one polygon.
        assert_eq!(rebuild_polygon(&[[0, 1, 2], [0, 3, 4]]), None);
        // Degenerate.
        assert_eq!(rebuild_polygon(&[[0, 0, 1], [0, 1, 2]]), None);
    }
}
