//! A scene to a V-Chat world (see the parent module's docs).

use super::*;
use crate::error::{Error, Result, Severity};
use crate::scene::{self, vec3::unit};
use crate::strings::RawString;

/// A polygon to place: its corners (position, file UV, file normal) and scene material.
type Corners = (Vec<(u32, [f32; 2], [f32; 3])>, Option<usize>);

fn f32_list<const N: usize>(v: Option<&Value>) -> Option<[f32; N]> {
    let items = v?.as_array()?;
    if items.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = match item {
            Value::String(s) => f32::from_bits_text(s)?,
            _ => item.as_f64()? as f32,
        };
    }
    Some(out)
}

fn byte(v: Option<&Value>) -> Option<u8> {
    v?.as_u64().and_then(|b| u8::try_from(b).ok())
}

impl Wdb {
    /// A world made from `scene` (see the module docs), with what did not map. Fails when the
    /// scene itself is invalid ([`Scene::validate`] errors).
    pub fn from_scene(scene: &Scene) -> Result<(Wdb, Vec<Warning>)> {
        scene.refuse_invalid(F, "the scene can not be converted")?;
        let mut ctx = FromScene {
            scene,
            warnings: Vec::new(),
            texture_names: vec![None; scene.textures.len()],
        };
        let header = ctx.header();
        let fence = ctx.fence();
        let nodes = ctx.nodes();
        // Real worlds have one root: several become the children of an unnamed one.
        let nodes = one_root(nodes);
        let trailing = scene
            .extras
            .get(keys::TRAILING)
            .and_then(Value::as_str)
            .and_then(|t| hex::decode(t).ok())
            .filter(|t| !h::another_root_fits(t.len()))
            .unwrap_or_default();
        let wdb = Wdb {
            header,
            fence,
            nodes,
            trailing,
        };
        // A scene too big for the file's counts is reported by the writer's checks.
        if let Some(e) = wdb
            .validate()
            .into_iter()
            .find(|w| w.severity == Severity::Error)
        {
            return Err(Error::unsupported(
                F,
                e.location,
                format!("the scene does not fit a V-Chat world: {}", e.message),
            ));
        }
        Ok((wdb, ctx.warnings))
    }
}

struct FromScene<'a> {
    scene: &'a Scene,
    warnings: Vec<Warning>,
    /// The file name each texture becomes, once asked for.
    texture_names: Vec<Option<RawString>>,
}

/// `nodes` (file order) under one root: as they are when they have one, else under a new
/// unnamed root.
fn one_root(nodes: Vec<Node>) -> Vec<Node> {
    let roots = h::tree(nodes.iter().map(|n| n.children)).map_or(0, |t| t.roots.len());
    if roots <= 1 || roots > usize::from(u16::MAX) {
        return nodes;
    }
    let root = Node {
        name: RawString::default(),
        transform: scene::IDENTITY_MATRIX.map(|v| v as f32),
        animation: Animation::default(),
        geometries: Vec::new(),
        lights: Vec::new(),
        children: roots as u16,
    };
    std::iter::once(root).chain(nodes).collect()
}

fn flag(extras: &Extras, key: &str) -> bool {
    extras.get(key).and_then(Value::as_bool) == Some(true)
}

/// A text as raw bytes: Windows-1252, `?` for what it can not hold, at most 255 bytes.
fn raw_name(text: &str, path: &str, warnings: &mut Vec<Warning>) -> RawString {
    let mut out = Vec::with_capacity(text.len());
    let mut lost = false;
    let mut buf = [0u8; 4];
    for c in text.chars() {
        match RawString::from_display(c.encode_utf8(&mut buf)) {
            Ok(b) => out.extend(b.0),
            Err(_) => {
                lost = true;
                out.push(b'?');
            }
        }
    }
    if lost {
        warnings.push(warn(
            path,
            format!("the name {text:?} has characters Windows-1252 can not hold; they became '?'"),
        ));
    }
    if out.len() > 255 {
        out.truncate(255);
        warnings.push(warn(
            path,
            format!("the name {text:?} is cut to the 255 bytes a name can hold"),
        ));
    }
    RawString(out)
}

impl FromScene<'_> {
    fn header(&mut self) -> Header {
        let e = &self.scene.extras;
        let mut header = Header::default();
        if let Some(hd) = e.get(keys::HEADER).and_then(Value::as_object) {
            header.version = byte(hd.get("version")).unwrap_or(header.version);
            header.b0 = byte(hd.get("b0")).unwrap_or(0);
            header.b1 = byte(hd.get("b1")).unwrap_or(0);
            header.b2 = byte(hd.get("b2")).unwrap_or(0);
            header.b3 = byte(hd.get("b3")).unwrap_or(header.b3);
            if let Some(bg) = hd.get("background").and_then(Value::as_array)
                && let [r, g, b] = bg.as_slice()
                && let (Some(r), Some(g), Some(b)) = (byte(Some(r)), byte(Some(g)), byte(Some(b)))
            {
                header.background = Bgr::from_rgb([r, g, b]);
                return header;
            }
        }
        if let Some(c) = f32_list::<3>(e.get(keys::BACKGROUND)) {
            header.background = Bgr::from_rgb(c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
        header
    }

    fn fence(&mut self) -> Fence {
        let scene = self.scene;
        let limits = scene
            .extras
            .get(keys::FENCE)
            .and_then(Value::as_object)
            .and_then(|f| Some((f.get("y_min")?.as_f64()?, f.get("y_max")?.as_f64()?)));
        let world = scene.world_matrices();
        let mut borders = Vec::new();
        for (i, node) in scene.nodes.iter().enumerate() {
            if !flag(&node.extras, keys::FENCE) {
                continue;
            }
            let Some(mesh) = node.mesh.and_then(|m| scene.meshes.get(m)) else {
                continue;
            };
            let m = world.get(i).copied().unwrap_or(scene::IDENTITY_MATRIX);
            let place = |p: u32| {
                let q = mesh.positions.get(p as usize).copied().unwrap_or_default();
                let q = if m == scene::IDENTITY_MATRIX {
                    q
                } else {
                    Transform::Matrix(m).apply(q)
                };
                (q[0], -q[2])
            };
            for line in &mesh.lines {
                let pts: Vec<(f64, f64)> = line.points.iter().map(|&p| place(p)).collect();
                let mut segment = |a: (f64, f64), b: (f64, f64)| {
                    borders.push(Border {
                        x0: a.0,
                        z0: a.1,
                        x1: b.0,
                        z1: b.1,
                    })
                };
                for w in pts.windows(2) {
                    if let [a, b] = w {
                        segment(*a, *b);
                    }
                }
                if line.closed
                    && pts.len() > 2
                    && let (Some(&last), Some(&first)) = (pts.last(), pts.first())
                {
                    segment(last, first);
                }
            }
        }
        let (y_min, y_max) = match limits {
            Some(l) => l,
            None => {
                let mut lo = f64::INFINITY;
                let mut hi = f64::NEG_INFINITY;
                for (i, node) in scene.nodes.iter().enumerate() {
                    let Some(mesh) = node.mesh.and_then(|m| scene.meshes.get(m)) else {
                        continue;
                    };
                    let t = Transform::Matrix(world.get(i).copied().unwrap_or_default());
                    for p in &mesh.positions {
                        let y = t.apply(*p)[1];
                        lo = lo.min(y);
                        hi = hi.max(y);
                    }
                }
                let (lo, hi) = if lo <= hi { (lo, hi) } else { (0.0, 0.0) };
                self.warnings.push(warn(
                    "fence",
                    format!(
                        "the scene has no V-Chat fence: the world gets an empty one, with the \
                         scene's height range {lo} to {hi} as the viewer's limits"
                    ),
                ));
                (lo, hi)
            }
        };
        Fence {
            borders,
            y_max,
            y_min,
        }
    }

    /// The nodes in file order: depth-first from the roots, each scene node once.
    fn nodes(&mut self) -> Vec<Node> {
        let scene = self.scene;
        let skip = |i: usize| {
            scene
                .nodes
                .get(i)
                .is_none_or(|n| flag(&n.extras, keys::FENCE))
        };
        let mut claimed = vec![false; scene.nodes.len()];
        let mut roots = Vec::new();
        for &r in &scene.roots {
            if !skip(r) && !claimed.get(r).copied().unwrap_or(true) {
                if let Some(c) = claimed.get_mut(r) {
                    *c = true;
                }
                roots.push(r);
            }
        }
        let mut out = Vec::new();
        let mut stack: Vec<usize> = roots.into_iter().rev().collect();
        while let Some(i) = stack.pop() {
            let Some(sn) = scene.nodes.get(i) else {
                continue;
            };
            let mut kids = Vec::new();
            let mut parts = Vec::new();
            for &c in &sn.children {
                let Some(cn) = scene.nodes.get(c) else {
                    continue;
                };
                if skip(c) || claimed.get(c).copied().unwrap_or(true) {
                    continue;
                }
                if let Some(slot) = claimed.get_mut(c) {
                    *slot = true;
                }
                if flag(&cn.extras, keys::PART)
                    && cn.children.is_empty()
                    && cn.transform.is_identity()
                {
                    parts.push(c);
                } else {
                    kids.push(c);
                }
            }
            let mut node = self.node(i, sn, &parts);
            node.children = u16::try_from(kids.len()).unwrap_or(u16::MAX);
            if kids.len() > usize::from(u16::MAX) {
                self.warnings.push(warn(
                    format!("nodes[{i}]"),
                    "more than 65535 children; the rest are left out",
                ));
                kids.truncate(usize::from(u16::MAX));
            }
            out.push(node);
            stack.extend(kids.into_iter().rev());
        }
        out
    }

    fn node(&mut self, i: usize, sn: &SceneNode, parts: &[usize]) -> Node {
        let scene = self.scene;
        let path = format!("nodes[{i}]");
        let mut name = raw_name(sn.name.as_deref().unwrap_or(""), &path, &mut self.warnings);
        let mut transform = h::matrix_from_scene(&sn.transform.matrix());
        if [transform[3], transform[7], transform[11], transform[15]] != [0.0, 0.0, 0.0, 1.0] {
            self.warnings.push(warn(
                &path,
                "the matrix is projective (its last row is not 0 0 0 1); V-Chat matrices are \
                 affine, so that row is dropped",
            ));
            transform[3] = 0.0;
            transform[7] = 0.0;
            transform[11] = 0.0;
            transform[15] = 1.0;
        }
        let animation = self.animation(i, sn, &mut name, &path);
        let frames = sn
            .extras
            .get(keys::TEXTURE_ANIMATION)
            .and_then(|t| t.get("frames"))
            .and_then(Value::as_u64)
            .filter(|&f| f > 0 && h::texture_animation(name.as_bytes()).is_some());
        let mut geometries = Vec::new();
        let mut lights = Vec::new();
        for n in std::iter::once(sn).chain(parts.iter().filter_map(|&p| scene.nodes.get(p))) {
            if let Some(mesh) = n.mesh.and_then(|m| scene.meshes.get(m)) {
                geometries.extend(self.geometries(mesh, frames, &path));
            }
            if let Some(light) = n.light.and_then(|l| scene.lights.get(l)) {
                lights.push(self.light(light, &path));
            }
        }
        if sn.camera.is_some() {
            self.warnings.push(warn(
                &path,
                "a V-Chat world has no cameras; the camera is left out",
            ));
        }
        Node {
            name,
            transform,
            animation,
            geometries,
            lights,
            children: 0,
        }
    }

    fn animation(
        &mut self,
        i: usize,
        sn: &SceneNode,
        name: &mut RawString,
        path: &str,
    ) -> Animation {
        let raw = sn
            .extras
            .get(keys::ANIMATION)
            .and_then(Value::as_object)
            .and_then(|a| {
                Some(Animation {
                    origin: f32_list::<3>(a.get("origin"))?,
                    axis: f32_list::<3>(a.get("axis"))?,
                    speed: a.get("speed")?.as_f64()? as f32,
                })
            });
        let spin = self.scene.animations.iter().find(|a| a.node == i);
        let Some(a) = spin else {
            // Not spinning: the raw fields when they do not spin either (axis (0, 1, 0) with
            // speed 0 is in known worlds).
            return match raw {
                Some(r) if r.axis == [0.0; 3] || h::degrees_per_frame(r.speed) == 0.0 => r,
                _ => Animation::default(),
            };
        };
        let Motion::Spin {
            axis,
            degrees_per_second,
        } = a.motion;
        let unit_axis = unit(axis).unwrap_or([0.0, 1.0, 0.0]);
        let (file_axis, per_frame) = h::spin_from_scene(unit_axis, degrees_per_second);
        let made = Animation {
            origin: [0.0; 3],
            axis: file_axis,
            speed: h::speed_for(per_frame),
        };
        let animation = match raw {
            Some(r) if agrees(&r, &made) => r,
            _ => made,
        };
        if unit_axis[1].abs() < 0.999_999 {
            self.warnings.push(warn(
                path,
                format!(
                    "the spin axis {axis:?} is not vertical; V-Chat spins about the vertical, \
                     the axis is kept"
                ),
            ));
        }
        let tenths = (h::degrees_per_frame(animation.speed).rem_euclid(360.0) * 10.0).round();
        if h::spin_name_tenths(name.as_bytes()).map(f64::from) != Some(tenths % 3600.0) {
            let new = h::spin_name(h::degrees_per_frame(animation.speed));
            self.warnings.push(warn(
                path,
                format!(
                    "the spinning node {:?} is named {new}: V-Chat spins only nodes named \
                     SPINxxxx, xxxx being tenths of a degree per frame",
                    name.display()
                ),
            ));
            *name = RawString::from(new.as_str());
        }
        animation
    }

    /// The file name of texture `t`.
    fn texture_name(&mut self, t: usize) -> Option<RawString> {
        let scene = self.scene;
        if let Some(Some(name)) = self.texture_names.get(t) {
            return Some(name.clone());
        }
        let tex = scene.textures.get(t)?;
        let path = format!("textures[{t}]");
        let base = tex.name.clone().unwrap_or_else(|| format!("texture{t}"));
        let text = match &tex.source {
            TextureSource::File(p) => {
                let file = p.rsplit(['/', '\\']).next().unwrap_or(p).to_owned();
                if file != *p {
                    self.warnings.push(warn(
                        &path,
                        format!(
                            "V-Chat finds textures beside the world; {p:?} is referenced as \
                             {file:?}"
                        ),
                    ));
                }
                file
            }
            TextureSource::Encoded { mime_type, .. } => {
                let ext = if mime_type == "image/jpeg" {
                    "jpg"
                } else {
                    "png"
                };
                let file = format!("{base}.{ext}");
                self.warnings.push(warn(
                    &path,
                    format!("the embedded image must be saved beside the world as {file:?}"),
                ));
                file
            }
            TextureSource::Pixels { .. } => {
                let file = format!("{base}.png");
                self.warnings.push(warn(
                    &path,
                    format!("the image must be saved beside the world as {file:?}"),
                ));
                file
            }
        };
        let mut sink = Vec::new();
        let mut name = raw_name(&text, &path, &mut sink);
        if name.as_bytes().iter().any(|&b| b < 0x20 || b == 0x7F) {
            name = RawString(
                name.0
                    .iter()
                    .map(|&b| if b < 0x20 || b == 0x7F { b'_' } else { b })
                    .collect(),
            );
        }
        self.warnings.extend(sink);
        if let Some(slot) = self.texture_names.get_mut(t) {
            *slot = Some(name.clone());
        }
        Some(name)
    }

    /// The texture definition of scene material `m` (M13): the definition the material came
    /// from when its extras still agree, else its colour and its texture's file name.
    fn tex_def(&mut self, m: Option<usize>) -> TexDef {
        let mat = m.and_then(|m| self.scene.materials.get(m));
        let name = mat
            .and_then(|mat| mat.base_color_texture)
            .filter(|&t| t < self.scene.textures.len())
            .and_then(|t| self.texture_name(t))
            .unwrap_or_default();
        let to_byte = |c: f32| {
            let c = c.clamp(0.0, 1.0);
            let s = if c <= 0.003_130_8 {
                c * 12.92
            } else {
                1.055 * c.powf(1.0 / 2.4) - 0.055
            };
            (s * 255.0).round() as u8
        };
        let made = TexDef {
            color: Bgr::from_rgb(match mat {
                Some(mat) if name.is_empty() => {
                    [mat.base_color[0], mat.base_color[1], mat.base_color[2]].map(to_byte)
                }
                _ => [0xFF; 3],
            }),
            alpha: 0xFF,
            name,
            extra: Vec::new(),
        };
        let raw = mat
            .and_then(|mat| mat.extras.get(keys::TEXTURE_DEF))
            .and_then(Value::as_object);
        let Some(raw) = raw else {
            return made;
        };
        let raw_name = raw
            .get("name")
            .and_then(Value::as_str)
            .map(|s| RawString::from_display(s).unwrap_or_else(|_| RawString::from(s)));
        // The raw definition only while it names the same file (in any case).
        if raw_name.as_ref().map(|n| n.as_bytes().to_ascii_lowercase())
            != Some(made.name.as_bytes().to_ascii_lowercase())
        {
            return made;
        }
        let color = raw
            .get("color")
            .and_then(Value::as_array)
            .and_then(|c| match c.as_slice() {
                [r, g, b] => Some([byte(Some(r))?, byte(Some(g))?, byte(Some(b))?]),
                _ => None,
            });
        let extra = raw
            .get("extra")
            .and_then(Value::as_array)
            .and_then(|l| l.iter().map(|v| f32_list::<2>(Some(v))).collect())
            .unwrap_or_default();
        TexDef {
            color: color.map_or(made.color, Bgr::from_rgb),
            alpha: byte(raw.get("alpha")).unwrap_or(0xFF),
            name: raw_name.unwrap_or(made.name),
            extra,
        }
    }

    /// The geometries of `mesh`: its faces (and its lines, apart), each point a distinct
    /// (position, UV), each normal a distinct normal, split where a count would overflow.
    /// `frames`: the node's texture animation, whose first frame the scene's UVs show (M12).
    fn geometries(&mut self, mesh: &Mesh, frames: Option<u64>, path: &str) -> Vec<Geometry> {
        let e = &mesh.extras;
        let flags = e
            .get(keys::RENDER_FLAGS)
            .and_then(Value::as_u64)
            .and_then(|v| u16::try_from(v).ok());
        let point_flags = e
            .get(keys::POINT_FLAGS)
            .and_then(Value::as_str)
            .and_then(|text| hex::decode(text).ok())
            .filter(|b| b.len() == mesh.positions.len() * 4);
        let v_scale = frames.map_or(1.0, |f| f as f64);
        let mut out = Vec::new();
        if !mesh.faces.is_empty() {
            let normals = if mesh
                .faces
                .iter()
                .flat_map(|f| &f.corners)
                .all(|c| c.normal.is_some())
            {
                None
            } else {
                Some(mesh.corner_normals())
            };
            let mut k = 0usize;
            let mut items = Vec::with_capacity(mesh.faces.len());
            for f in &mesh.faces {
                let mut corners: Vec<(u32, [f32; 2], [f32; 3])> = f
                    .corners
                    .iter()
                    .map(|c| {
                        let n = c
                            .normal
                            .or_else(|| normals.as_ref().and_then(|n| n.get(k).copied()))
                            .unwrap_or([0.0, 1.0, 0.0]);
                        k += 1;
                        let uv = c.uv.unwrap_or([0.0, 1.0]);
                        // Back to the whole strip: V in the file, times the frames.
                        let file = h::uv_from_scene(uv);
                        let file = [file[0], (f64::from(file[1]) * v_scale) as f32];
                        (c.position, file, h::point_from_scene(n.map(f64::from)))
                    })
                    .collect();
                h::winding_to_scene(&mut corners);
                items.push((corners, f.material));
            }
            let textured = mesh.faces.iter().any(|f| {
                f.material
                    .and_then(|m| self.scene.materials.get(m))
                    .is_some_and(|m| m.base_color_texture.is_some())
            });
            let face_flags = flags
                .filter(|&f| !h::is_line_set(f))
                .unwrap_or(if textured {
                    h::RENDER_TEXTURED
                } else {
                    h::RENDER_LIT
                });
            out.extend(self.build(mesh, items, face_flags, point_flags.as_deref(), path));
        }
        if !mesh.lines.is_empty() {
            let mut items = Vec::new();
            for l in &mesh.lines {
                let key = |p: u32| (p, [0.0f32; 2], [0.0f32, 1.0, 0.0]);
                let n = l.points.len();
                if l.closed && n >= 3 || n == 2 {
                    items.push((l.points.iter().map(|&p| key(p)).collect(), l.material));
                } else {
                    for w in l.points.windows(2) {
                        items.push((w.iter().map(|&p| key(p)).collect(), l.material));
                    }
                }
            }
            out.extend(self.build(mesh, items, h::RENDER_LINES, point_flags.as_deref(), path));
        }
        out
    }

    /// Geometries holding `items` (corners of (position, file UV, file normal), material).
    fn build(
        &mut self,
        mesh: &Mesh,
        items: Vec<Corners>,
        render_flags: u16,
        point_flags: Option<&[u8]>,
        path: &str,
    ) -> Vec<Geometry> {
        const MAX: usize = u16::MAX as usize;
        let npos = mesh.positions.len();
        let before = items.len();
        let items: Vec<Corners> = items
            .into_iter()
            .filter(|(c, _)| c.iter().all(|c| (c.0 as usize) < npos) && c.len() <= (MAX - 6) / 4)
            .collect();
        if items.len() < before {
            self.warnings.push(warn(
                path,
                format!(
                    "{} polygons with missing positions or too many corners are left out",
                    before - items.len()
                ),
            ));
        }
        // The texture definitions, one per scene material, in order of use.
        let mut mats: Vec<Option<usize>> = Vec::new();
        for (_, m) in &items {
            if !mats.contains(m) {
                mats.push(*m);
            }
        }
        if mats.len() > 255 {
            self.warnings.push(warn(
                path,
                "more than 255 materials in one mesh; faces of the rest use the first",
            ));
            mats.truncate(255);
        }
        let textures: Vec<TexDef> = mats.iter().map(|&m| self.tex_def(m)).collect();
        let material = |m: Option<usize>| mats.iter().position(|x| *x == m).unwrap_or(0) as u16;
        // Positions stay the points when each has one UV and all fit one geometry.
        let mut uv_of: Vec<Option<[u32; 2]>> = vec![None; npos];
        let mut consistent = npos <= MAX;
        for (corners, _) in &items {
            for &(p, uv, _) in corners {
                let bits = uv.map(f32::to_bits);
                match uv_of.get_mut(p as usize) {
                    Some(slot @ None) => *slot = Some(bits),
                    Some(Some(seen)) if *seen == bits => {}
                    _ => consistent = false,
                }
            }
        }
        let mut out = Vec::new();
        let fresh = || Geometry {
            render_flags,
            textures: textures.clone(),
            ..Geometry::default()
        };
        let mut g = fresh();
        if consistent {
            g.points = mesh
                .positions
                .iter()
                .map(|&p| h::point_from_scene(p))
                .collect();
            g.tex_coords = uv_of
                .iter()
                .map(|uv| uv.map_or([0.0; 2], |b| b.map(f32::from_bits)))
                .collect();
            g.point_flags = match point_flags {
                Some(b) => b
                    .chunks_exact(4)
                    .map(|c| <[u8; 4]>::try_from(c).unwrap_or([0xFF; 4]))
                    .collect(),
                None => vec![[0xFF; 4]; npos],
            };
        }
        let mut points: std::collections::HashMap<(u32, [u32; 2]), u16> =
            std::collections::HashMap::new();
        let mut normals: std::collections::HashMap<[u32; 3], u16> =
            std::collections::HashMap::new();
        let mut table = 2u64;
        for (corners, m) in &items {
            let size = 2 + 4 * corners.len() as u64;
            let new_points = if consistent {
                0
            } else {
                corners
                    .iter()
                    .filter(|c| !points.contains_key(&(c.0, c.1.map(f32::to_bits))))
                    .count()
            };
            let new_normals = corners.len();
            if g.points.len() + new_points > MAX
                || g.normals.len() + new_normals > MAX
                || g.polygons.len() >= MAX
                || table + size > MAX as u64
            {
                // Only in the per-corner form (a consistent mesh keeps its points): split.
                let mut next = fresh();
                if consistent {
                    next.points = g.points.clone();
                    next.tex_coords = g.tex_coords.clone();
                    next.point_flags = g.point_flags.clone();
                }
                out.push(std::mem::replace(&mut g, next));
                points.clear();
                normals.clear();
                table = 2;
            }
            table += size;
            let mut poly = Vec::with_capacity(corners.len());
            for &(p, uv, n) in corners {
                let point = if consistent {
                    p as u16
                } else {
                    let next = g.points.len() as u16;
                    *points.entry((p, uv.map(f32::to_bits))).or_insert_with(|| {
                        let pos = mesh.positions.get(p as usize).copied().unwrap_or_default();
                        g.points.push(h::point_from_scene(pos));
                        g.tex_coords.push(uv);
                        g.point_flags.push([0xFF; 4]);
                        next
                    })
                };
                let next = g.normals.len() as u16;
                let normal = *normals.entry(n.map(f32::to_bits)).or_insert_with(|| {
                    g.normals.push(n);
                    next
                });
                poly.push([point, normal]);
            }
            g.polygons.push(PolyDef { corners: poly });
            g.materials.push(material(*m));
        }
        out.push(g);
        out
    }

    fn light(&mut self, l: &SceneLight, path: &str) -> Light {
        let raw = l.extras.get(keys::LIGHT).and_then(Value::as_object);
        let raw_type = byte(raw.and_then(|r| r.get("type"))).and_then(LightType::from_byte);
        let kind = match l.kind {
            LightKind::Ambient => LightType::Ambient,
            LightKind::Point if raw_type == Some(LightType::ParallelPoint) => {
                LightType::ParallelPoint
            }
            LightKind::Point => LightType::Point,
            LightKind::Spot { .. } => LightType::Spot,
            LightKind::Directional => LightType::Directional,
            LightKind::Area => {
                self.warnings.push(warn(
                    path,
                    "V-Chat has no area lights; written as a spot light",
                ));
                LightType::Spot
            }
        };
        if l.intensity != 1.0 {
            self.warnings.push(warn(
                path,
                format!(
                    "V-Chat lights have a colour but no intensity; intensity {} is left out",
                    l.intensity
                ),
            ));
        }
        let rgb = l.color.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
        let raw_s0_s2 = raw.and_then(|r| f32_list::<3>(r.get("s0_s2")));
        let raw_s3_s4 = raw.and_then(|r| f32_list::<2>(r.get("s3_s4")));
        let s3_s4 = match (l.kind, raw_s3_s4) {
            (
                LightKind::Spot {
                    inner_cone_angle,
                    outer_cone_angle,
                },
                raw,
            ) => match raw {
                Some(r) if h::spot_cone(r) == (inner_cone_angle, outer_cone_angle) => r,
                _ => h::spot_cone_from_scene(inner_cone_angle, outer_cone_angle),
            },
            (_, Some(r)) => r,
            (_, None) => h::DEFAULT_LIGHT_S.1,
        };
        let b = |key: &str, default: u8| byte(raw.and_then(|r| r.get(key))).unwrap_or(default);
        Light {
            kind: kind.byte(),
            b1: b("b1", 0),
            b2: b("b2", 0),
            b3: b("b3", 0),
            color: h::light_color_bytes(rgb),
            b7: b("b7", 0xFF),
            s0_s2: raw_s0_s2.unwrap_or(h::DEFAULT_LIGHT_S.0),
            s3_s4,
        }
    }
}

/// Whether raw animation fields turn like the ones made from the scene.
fn agrees(raw: &Animation, made: &Animation) -> bool {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * a.abs().max(1.0);
    let axis = |v: [f32; 3]| unit(v.map(f64::from));
    match (axis(raw.axis), axis(made.axis)) {
        (Some(a), Some(b)) => {
            a.iter().zip(b).all(|(x, y)| close(*x, y))
                && close(
                    h::degrees_per_frame(raw.speed),
                    h::degrees_per_frame(made.speed),
                )
        }
        _ => false,
    }
}
