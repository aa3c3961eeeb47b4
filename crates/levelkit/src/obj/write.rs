//! The OBJ writer: a [`Scene`] to OBJ + MTL (documented in the module above).

use crate::scene::vec3::cross;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use super::extras::{ILLUM_EXTRA, NI_EXTRA};
use super::srgb::linear_to_srgb;
use crate::codec::ExportFiles;
use crate::error::{Error, ErrorKind, Location, Result, Warning};
use crate::registry::Format;
use crate::scene::triangulate::triangulate_into;
use crate::scene::{AlphaMode, Material, Mesh, Phong, Scene, TextureSource};

const F: Format = Format::Obj;

/// How to write an OBJ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjOptions {
    /// Split every face into triangles (n − 2 each) instead of keeping polygons.
    pub triangulate: bool,
    /// The file name stem that side files are named after: `<stem>.mtl`, `<stem>_map<i>.png`.
    pub stem: String,
}

impl Default for ObjOptions {
    fn default() -> Self {
        ObjOptions {
            triangulate: false,
            stem: "model".into(),
        }
    }
}

/// Write `scene` as OBJ: [`ExportFiles::main`] is the `.obj`, the side files are the MTL (when
/// there are materials) and the textures it names, and the warnings say what did not map.
pub fn write(scene: &Scene, options: &ObjOptions) -> Result<ExportFiles> {
    scene.refuse_invalid(F, "cannot write a scene that does not validate")?;
    let stem = sanitize(&options.stem, "model", &['/', '\\']);
    let mut w = ObjWriter::new(scene, options);
    w.reserve_material_names();
    w.objects()?;
    let mut files = ExportFiles::default();
    let mtl = w.mtl(&stem, &mut files.side_files)?;
    let mut main = String::with_capacity(w.out.len() + 64);
    main.push_str("# levelkit OBJ export\n");
    if let Some(mtl) = mtl {
        let name = format!("{stem}.mtl");
        let _ = writeln!(main, "mtllib {name}");
        files.side_files.insert(0, (name, mtl.into_bytes()));
    }
    main.push_str(&w.out);
    w.unmapped();
    files.main = main.into_bytes();
    files.warnings = w.warnings;
    Ok(files)
}

/// A `v` line's identity: the bits of the written position and colour.
/// A `v` line: which node's which position, and its colour. Positions are never shared by
/// value: two positions that coincide (degenerate faces, touching parts) stay two `v` lines, so
/// an importer sees the same topology (Blender drops faces that repeat a `v`).
type VKey = ((usize, u32), Option<[u32; 4]>);

/// One written corner: 1-based `v`, `vt`, `vn` indices.
#[derive(Debug, Clone, Copy)]
struct Ref {
    v: usize,
    vt: Option<usize>,
    vn: usize,
}

struct ObjWriter<'s> {
    scene: &'s Scene,
    triangulate: bool,
    /// The OBJ body (everything after `mtllib`).
    out: String,
    /// The current object's new `v`, `vt` and `vn` lines, and its `s`/`usemtl`/`f`/`l` lines.
    head: String,
    head_vt: String,
    head_vn: String,
    body: String,
    v: HashMap<VKey, usize>,
    vt: HashMap<[u64; 2], usize>,
    vn: HashMap<[u32; 3], usize>,
    /// Names of the scene's materials in the MTL, and of the extra default material.
    material_names: Vec<String>,
    default_name: String,
    default_used: bool,
    /// The material last set by `usemtl`: `None` before the first one; `Some(None)` is the
    /// default material. `force` makes the next face set it again (first face of an object).
    current: Option<Option<usize>>,
    force: bool,
    object_names: HashSet<String>,
    warnings: Vec<Warning>,
    warned: HashSet<&'static str>,
    /// Scratch space reused for every face.
    refs: Vec<Ref>,
    points: Vec<[f64; 3]>,
    tris: Vec<[u32; 3]>,
}

impl<'s> ObjWriter<'s> {
    fn new(scene: &'s Scene, options: &ObjOptions) -> Self {
        ObjWriter {
            scene,
            triangulate: options.triangulate,
            out: String::new(),
            head: String::new(),
            head_vt: String::new(),
            head_vn: String::new(),
            body: String::new(),
            v: HashMap::new(),
            vt: HashMap::new(),
            vn: HashMap::new(),
            material_names: Vec::new(),
            default_name: String::new(),
            default_used: false,
            current: None,
            force: false,
            object_names: HashSet::new(),
            warnings: Vec::new(),
            warned: HashSet::new(),
            refs: Vec::new(),
            points: Vec::new(),
            tris: Vec::new(),
        }
    }

    fn warn_once(&mut self, kind: &'static str, location: Location, message: String) {
        if self.warned.insert(kind) {
            self.warnings.push(Warning::warning(F, location, message));
        }
    }

    fn reserve_material_names(&mut self) {
        let mut used = HashSet::new();
        for (i, m) in self.scene.materials.iter().enumerate() {
            let base = sanitize(
                m.name.as_deref().unwrap_or_default(),
                &format!("material{i}"),
                &[],
            );
            self.material_names.push(unique(&mut used, base));
        }
        self.default_name = unique(&mut used, "default".into());
    }

    // -----------------------------------------------------------------------------------------
    // Objects

    /// Every node with a mesh, depth first from the roots.
    fn objects(&mut self) -> Result<()> {
        let scene = self.scene;
        let world = scene.world_matrices();
        let mut seen = vec![false; scene.nodes.len()];
        let mut empty = 0usize;
        let mut stack: Vec<usize> = scene.roots.iter().rev().copied().collect();
        while let Some(ni) = stack.pop() {
            let (Some(node), Some(s)) = (scene.nodes.get(ni), seen.get_mut(ni)) else {
                continue;
            };
            if *s {
                continue;
            }
            *s = true;
            stack.extend(node.children.iter().rev());
            let Some(mesh) = node.mesh.and_then(|m| scene.meshes.get(m)) else {
                continue;
            };
            if mesh.faces.is_empty() && mesh.lines.is_empty() {
                empty += 1;
                continue;
            }
            let name = node
                .name
                .as_deref()
                .or(mesh.name.as_deref())
                .unwrap_or_default();
            let name = sanitize(name, &format!("object{ni}"), &[]);
            let name = unique(&mut self.object_names, name);
            let matrix = world
                .get(ni)
                .copied()
                .unwrap_or(crate::scene::IDENTITY_MATRIX);
            self.object(&name, mesh, &matrix, ni)?;
        }
        let unreachable = scene
            .nodes
            .iter()
            .zip(&seen)
            .filter(|(n, s)| !**s && n.mesh.is_some())
            .count();
        if empty > 0 {
            self.warn_once(
                "empty",
                Location::default(),
                format!("{empty} node(s) have a mesh with neither faces nor lines; not written"),
            );
        }
        if unreachable > 0 {
            self.warn_once(
                "unreachable",
                Location::default(),
                format!(
                    "{unreachable} node(s) with a mesh are not reachable from the scene's roots \
                     and were not written"
                ),
            );
        }
        Ok(())
    }

    fn object(&mut self, name: &str, mesh: &Mesh, m: &[f64; 16], ni: usize) -> Result<()> {
        self.head.clear();
        self.head_vt.clear();
        self.head_vn.clear();
        self.body.clear();
        let _ = writeln!(self.out, "o {name}");
        self.body
            .push_str(if mesh.flat { "s off\n" } else { "s 1\n" });
        if self.current.is_some() {
            self.force = true;
        }
        let xf = Xform::new(m);
        let world: Vec<[f64; 3]> = mesh.positions.iter().map(|p| xf.point(*p)).collect();
        if let Some(i) = world.iter().position(|p| !p.iter().all(|v| v.is_finite())) {
            return Err(Error::malformed(
                F,
                Location::path(format!("nodes[{ni}]")),
                format!("position {i} is not finite once transformed by the node's world matrix"),
            ));
        }
        let colored = mesh
            .faces
            .iter()
            .any(|f| f.corners.iter().any(|c| c.color.is_some()));
        // Without colours a position always makes the same `v`: look it up once.
        let mut plain_v: Vec<Option<usize>> = vec![None; world.len()];
        let normals = mesh.corner_normals();
        let mut base = 0usize;
        for (fi, face) in mesh.faces.iter().enumerate() {
            let k = face.corners.len();
            let face_normals = normals.get(base..base + k).unwrap_or_default();
            base += k;
            self.use_material(face.material);
            let any_uv = face.corners.iter().any(|c| c.uv.is_some());
            if any_uv && face.corners.iter().any(|c| c.uv.is_none()) {
                self.warn_once(
                    "partial-uv",
                    Location::path(format!("meshes[{}].faces[{fi}]", node_mesh(self.scene, ni))),
                    "a face has UVs on some corners only; the others were written as (0, 0)".into(),
                );
            }
            self.refs.clear();
            self.points.clear();
            for j in 0..k {
                let j = if xf.mirrors { k - 1 - j } else { j };
                let (Some(c), Some(n)) = (face.corners.get(j), face_normals.get(j)) else {
                    continue;
                };
                let p = world.get(c.position as usize).copied().unwrap_or_default();
                let v = if colored {
                    let rgba = c.color.unwrap_or([1.0; 4]);
                    let srgb = [
                        linear_to_srgb(rgba[0]),
                        linear_to_srgb(rgba[1]),
                        linear_to_srgb(rgba[2]),
                        rgba[3] + 0.0,
                    ];
                    self.vertex((ni, c.position), p, Some(srgb))
                } else {
                    match plain_v.get(c.position as usize).copied().flatten() {
                        Some(v) => v,
                        None => {
                            let v = self.vertex((ni, c.position), p, None);
                            if let Some(slot) = plain_v.get_mut(c.position as usize) {
                                *slot = Some(v);
                            }
                            v
                        }
                    }
                };
                let vt = any_uv.then(|| self.texcoord(c.uv.unwrap_or([0.0; 2])));
                let vn = self.normal(xf.normal(*n));
                self.refs.push(Ref { v, vt, vn });
                self.points.push(p);
            }
            if self.triangulate && self.refs.len() > 3 {
                self.tris.clear();
                triangulate_into(&self.points, &mut self.tris);
                for t in 0..self.tris.len() {
                    let Some(tri) = self.tris.get(t).copied() else {
                        continue;
                    };
                    self.body.push('f');
                    for i in tri {
                        if let Some(r) = self.refs.get(i as usize).copied() {
                            push_ref(&mut self.body, r);
                        }
                    }
                    self.body.push('\n');
                }
            } else {
                self.body.push('f');
                for r in &self.refs {
                    push_ref(&mut self.body, *r);
                }
                self.body.push('\n');
            }
        }
        for line in &mesh.lines {
            self.use_material(line.material);
            self.body.push('l');
            let first = line.points.first().copied();
            let closing = if line.closed { first } else { None };
            for &p in line.points.iter().chain(closing.iter()) {
                let v = match plain_v.get(p as usize).copied().flatten() {
                    Some(v) => v,
                    None => {
                        let pos = world.get(p as usize).copied().unwrap_or_default();
                        let v = self.vertex((ni, p), pos, None);
                        if let Some(slot) = plain_v.get_mut(p as usize) {
                            *slot = Some(v);
                        }
                        v
                    }
                };
                let _ = write!(self.body, " {v}");
            }
            self.body.push('\n');
        }
        self.out.push_str(&self.head);
        self.out.push_str(&self.head_vt);
        self.out.push_str(&self.head_vn);
        self.out.push_str(&self.body);
        Ok(())
    }

    fn use_material(&mut self, want: Option<usize>) {
        match self.current {
            None if want.is_none() => return,
            Some(c) if c == want && !self.force => return,
            _ => {}
        }
        let name = match want.and_then(|i| self.material_names.get(i)) {
            Some(n) => n,
            None => {
                self.default_used = true;
                &self.default_name
            }
        };
        let _ = writeln!(self.body, "usemtl {name}");
        self.current = Some(want);
        self.force = false;
    }

    /// The 1-based index of the `v` line for a position and an optional sRGB colour, writing it
    /// first if it is new.
    fn vertex(&mut self, id: (usize, u32), p: [f64; 3], color: Option<[f32; 4]>) -> usize {
        let p = p.map(|x| x + 0.0);
        let key = (id, color.map(|c| c.map(f32::to_bits)));
        let next = self.v.len() + 1;
        *self.v.entry(key).or_insert_with(|| {
            let _ = write!(self.head, "v {} {} {}", p[0], p[1], p[2]);
            if let Some([r, g, b, a]) = color {
                let _ = write!(self.head, " {r} {g} {b}");
                if a != 1.0 {
                    let _ = write!(self.head, " {a}");
                }
            }
            self.head.push('\n');
            next
        })
    }

    fn texcoord(&mut self, uv: [f64; 2]) -> usize {
        let uv = uv.map(|x| x + 0.0);
        let next = self.vt.len() + 1;
        *self.vt.entry(uv.map(f64::to_bits)).or_insert_with(|| {
            let _ = writeln!(self.head_vt, "vt {} {}", uv[0], uv[1]);
            next
        })
    }

    fn normal(&mut self, n: [f32; 3]) -> usize {
        let n = n.map(|x| x + 0.0);
        let next = self.vn.len() + 1;
        *self.vn.entry(n.map(f32::to_bits)).or_insert_with(|| {
            let _ = writeln!(self.head_vn, "vn {} {} {}", n[0], n[1], n[2]);
            next
        })
    }

    // -----------------------------------------------------------------------------------------
    // MTL and textures

    /// The MTL text (`None` when there are no materials to write) and the texture side files.
    fn mtl(&mut self, stem: &str, side: &mut Vec<(String, Vec<u8>)>) -> Result<Option<String>> {
        let scene = self.scene;
        if scene.materials.is_empty() && !self.default_used {
            self.check_unused_textures(&HashSet::new());
            return Ok(None);
        }
        let mut out = String::from("# levelkit MTL export\n");
        let mut files: HashMap<usize, String> = HashMap::new();
        for (i, m) in scene.materials.iter().enumerate() {
            let name = self.material_names.get(i).cloned().unwrap_or_default();
            out.push('\n');
            self.material(&mut out, &name, m, i)?;
            for (key, tex) in [
                ("map_Kd", m.base_color_texture),
                ("map_Ke", m.emissive_texture),
                ("map_Bump", m.normal_texture),
                ("norm", m.normal_texture),
            ] {
                let Some(t) = tex else { continue };
                let file = match files.get(&t) {
                    Some(f) => f.clone(),
                    None => {
                        let f = self.texture_file(t, stem, side)?;
                        files.insert(t, f.clone());
                        f
                    }
                };
                let _ = writeln!(out, "{key} {file}");
            }
        }
        if self.default_used {
            let _ = writeln!(out);
            let name = self.default_name.clone();
            self.material(&mut out, &name, &Material::default(), usize::MAX)?;
        }
        self.check_unused_textures(&files.keys().copied().collect());
        Ok(Some(out))
    }

    fn material(&mut self, out: &mut String, name: &str, m: &Material, i: usize) -> Result<()> {
        let at = || Location::path(format!("materials[{i}]"));
        let rgb = |c: &[f32]| {
            let mut s = String::new();
            for v in c.iter().take(3) {
                let _ = write!(s, " {}", v + 0.0);
            }
            s
        };
        let (ka, ks, ns) = match m.phong {
            Some(Phong {
                ambient,
                specular,
                shininess,
                ..
            }) => (
                [ambient[0], ambient[1], ambient[2]],
                [specular[0], specular[1], specular[2]],
                (shininess * 1000.0).clamp(0.0, 1000.0),
            ),
            None => {
                let mix = |c: f32| 0.5 + (c - 0.5) * m.metallic;
                let smooth = 1.0 - m.roughness;
                (
                    [m.metallic; 3],
                    [
                        mix(m.base_color[0]),
                        mix(m.base_color[1]),
                        mix(m.base_color[2]),
                    ],
                    1000.0 * smooth * smooth,
                )
            }
        };
        let d = match m.alpha_mode {
            AlphaMode::Blend => m.base_color[3],
            AlphaMode::Opaque => 1.0,
            AlphaMode::Mask(_) => {
                self.warn_once(
                    "mask",
                    at(),
                    "MTL has no alpha cutoff: materials with an alpha mask are written opaque"
                        .into(),
                );
                1.0
            }
        };
        let _ = writeln!(out, "newmtl {name}");
        let _ = writeln!(out, "Ka{}", rgb(&ka));
        let _ = writeln!(out, "Kd{}", rgb(&m.base_color));
        let _ = writeln!(out, "Ks{}", rgb(&ks));
        let _ = writeln!(out, "Ns {}", ns + 0.0);
        let _ = writeln!(out, "Ke{}", rgb(&m.emissive));
        if let Some(ni) = m.extras.get(NI_EXTRA).and_then(|v| v.as_f64()) {
            let _ = writeln!(out, "Ni {}", ni + 0.0);
        }
        let _ = writeln!(out, "d {}", d + 0.0);
        let illum = m
            .extras
            .get(ILLUM_EXTRA)
            .and_then(|v| v.as_u64())
            .unwrap_or(2);
        let _ = writeln!(out, "illum {illum}");
        let _ = writeln!(out, "Pr {}", m.roughness + 0.0);
        let _ = writeln!(out, "Pm {}", m.metallic + 0.0);
        if m.metallic_roughness_texture.is_some() || m.occlusion_texture.is_some() {
            self.warn_once(
                "mr-texture",
                at(),
                "metallic-roughness and occlusion textures have no MTL map and were not written"
                    .into(),
            );
        }
        if m.double_sided {
            self.warn_once(
                "double-sided",
                at(),
                "OBJ has no double-sided flag; it was not written".into(),
            );
        }
        Ok(())
    }

    /// The name an MTL map uses for texture `t`, adding its side file when it has one.
    fn texture_file(
        &mut self,
        t: usize,
        stem: &str,
        side: &mut Vec<(String, Vec<u8>)>,
    ) -> Result<String> {
        let at = || Location::path(format!("textures[{t}]"));
        let Some(tex) = self.scene.textures.get(t) else {
            return Err(Error::malformed(
                F,
                at(),
                format!("texture {t} does not exist"),
            ));
        };
        let (ext, data) = match &tex.source {
            TextureSource::File(uri) => return Ok(uri.clone()),
            TextureSource::Pixels {
                width,
                height,
                channels,
                data,
            } => ("png", encode_png(*width, *height, *channels, data, at)?),
            TextureSource::Encoded { mime_type, data } => {
                let ext = match mime_type.as_str() {
                    "image/png" => "png",
                    "image/jpeg" | "image/jpg" => "jpg",
                    "image/bmp" => "bmp",
                    "image/gif" => "gif",
                    "image/tga" | "image/x-tga" | "image/x-targa" => "tga",
                    "image/webp" => "webp",
                    _ => "bin",
                };
                (ext, data.clone())
            }
        };
        // Not `<stem>_<t>`: the glTF exporter names its textures so, and both may be written
        // beside each other from one model.
        let name = format!("{stem}_map{t}.{ext}");
        side.push((name.clone(), data));
        Ok(name)
    }

    fn check_unused_textures(&mut self, written: &HashSet<usize>) {
        let unused = (0..self.scene.textures.len())
            .filter(|t| !written.contains(t))
            .count();
        if unused > 0 {
            self.warn_once(
                "unused-textures",
                Location::path("textures"),
                format!("{unused} texture(s) are not used by any MTL map and were not written"),
            );
        }
    }

    // -----------------------------------------------------------------------------------------
    // What OBJ cannot hold

    fn unmapped(&mut self) {
        let scene = self.scene;
        for (kind, n, what) in [
            ("lights", scene.lights.len(), "light(s)"),
            ("cameras", scene.cameras.len(), "camera(s)"),
            ("animations", scene.animations.len(), "animation(s)"),
        ] {
            if n > 0 {
                self.warn_once(
                    kind,
                    Location::path(kind),
                    format!("OBJ cannot hold {what}: {n} not written"),
                );
            }
        }
        let meshless = scene.nodes.iter().filter(|n| n.mesh.is_none()).count();
        if meshless > 0 {
            self.warn_once(
                "meshless",
                Location::path("nodes"),
                format!(
                    "OBJ has no node hierarchy: transforms are baked into the positions, and \
                     {meshless} node(s) without a mesh were not written"
                ),
            );
        }
        let with_extras = usize::from(!scene.extras.is_empty())
            + scene.nodes.iter().filter(|n| !n.extras.is_empty()).count()
            + scene
                .meshes
                .iter()
                .filter(|m| {
                    m.extras
                        .keys()
                        .any(|k| k != crate::gltf::keys::SOURCE_VERTICES)
                })
                .count()
            + scene
                .textures
                .iter()
                .filter(|t| !t.extras.is_empty())
                .count()
            + scene
                .materials
                .iter()
                .filter(|m| m.extras.keys().any(|k| k != ILLUM_EXTRA && k != NI_EXTRA))
                .count();
        if with_extras > 0 {
            self.warn_once(
                "extras",
                Location::default(),
                format!(
                    "OBJ has no place for extras: those of {with_extras} item(s) were not written"
                ),
            );
        }
    }
}

/// The mesh index of node `ni`, for warning paths.
fn node_mesh(scene: &Scene, ni: usize) -> usize {
    scene.nodes.get(ni).and_then(|n| n.mesh).unwrap_or_default()
}

fn push_ref(s: &mut String, r: Ref) {
    let _ = match r.vt {
        Some(vt) => write!(s, " {}/{vt}/{}", r.v, r.vn),
        None => write!(s, " {}//{}", r.v, r.vn),
    };
}

/// A node's world matrix, ready for points and normals.
struct Xform {
    m: [f64; 16],
    /// The inverse transpose of the upper 3x3 up to a positive factor: its columns are the
    /// cross products of the matrix columns, signed by the determinant.
    normal: [[f64; 3]; 3],
    mirrors: bool,
}

impl Xform {
    fn new(m: &[f64; 16]) -> Xform {
        let col = |c: usize| [m[c * 4], m[c * 4 + 1], m[c * 4 + 2]];
        let (a0, a1, a2) = (col(0), col(1), col(2));
        let c0 = cross(a1, a2);
        let c1 = cross(a2, a0);
        let c2 = cross(a0, a1);
        let det = a0[0] * c0[0] + a0[1] * c0[1] + a0[2] * c0[2];
        let sign = if det < 0.0 { -1.0 } else { 1.0 };
        Xform {
            m: *m,
            normal: [c0, c1, c2].map(|c| c.map(|v| v * sign)),
            mirrors: det < 0.0,
        }
    }

    fn point(&self, p: [f64; 3]) -> [f64; 3] {
        let m = &self.m;
        [
            m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
            m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
            m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
        ]
    }

    fn normal(&self, n: [f32; 3]) -> [f32; 3] {
        let [c0, c1, c2] = &self.normal;
        let n64 = n.map(f64::from);
        let v = [
            c0[0] * n64[0] + c1[0] * n64[1] + c2[0] * n64[2],
            c0[1] * n64[0] + c1[1] * n64[1] + c2[1] * n64[2],
            c0[2] * n64[0] + c1[2] * n64[1] + c2[2] * n64[2],
        ];
        let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        if len > 1e-300 && len.is_finite() {
            v.map(|x| (x / len) as f32)
        } else {
            n
        }
    }
}

/// `name` with whitespace, control characters, `#` and `extra` characters made `_`, or
/// `fallback` when it is empty.
fn sanitize(name: &str, fallback: &str, extra: &[char]) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() || c == '#' || extra.contains(&c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() { fallback.into() } else { s }
}

/// `name`, or `name_2`, `name_3`, … whichever is not in `used` yet; recorded as used.
fn unique(used: &mut HashSet<String>, name: String) -> String {
    if used.insert(name.clone()) {
        return name;
    }
    let mut k = 2usize;
    loop {
        let candidate = format!("{name}_{k}");
        if used.insert(candidate.clone()) {
            return candidate;
        }
        k += 1;
    }
}

fn encode_png(
    width: u32,
    height: u32,
    channels: u8,
    data: &[u8],
    at: impl Fn() -> Location,
) -> Result<Vec<u8>> {
    let Some(color) = crate::encoding::PngColor::with_channels(channels) else {
        return Err(Error::malformed(
            F,
            at(),
            format!("a texture with {channels} channels per pixel cannot be encoded as PNG"),
        ));
    };
    crate::encoding::encode_texture(&crate::encoding::PngImage::new(width, height, color, data))
        .map_err(|e| {
            Error::new(
                F,
                ErrorKind::Malformed,
                at(),
                format!("cannot encode the {width} x {height} texture as PNG: {e}"),
            )
        })
}
