//! A scene to a V-Chat world (see the parent module's docs).

use super::*;

impl Wdb {
    /// A world made from `scene` (see the module docs), with what did not map. Fails when the
    /// scene itself is invalid ([`Scene::validate`] errors).
    pub fn from_scene(scene: &Scene) -> Result<(Wdb, Vec<Warning>)> {
        if let Some(e) = scene
            .validate()
            .into_iter()
            .find(|w| w.severity == Severity::Error)
        {
            return Err(Error::malformed(
                F,
                e.location,
                format!("the scene can not be converted: {}", e.message),
            ));
        }
        let mut ctx = FromScene {
            scene,
            warnings: Vec::new(),
            texture_names: vec![None; scene.textures.len()],
            colour_warned: false,
        };
        let header = ctx.header();
        let fence = ctx.fence();
        let nodes = ctx.nodes();
        let wdb = Wdb {
            header,
            fence,
            nodes,
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
    colour_warned: bool,
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

/// A corner as a point of the file: position, normal bits, UV bits.
type Key = (u32, Option<[u32; 3]>, [u64; 2]);

/// A point's normal bits and UV bits.
type PointAttrs = (Option<[u32; 3]>, [u64; 2]);

/// One face or line to place: its point keys and material.
struct Item {
    corners: Vec<Key>,
    texture: Option<usize>,
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
        if !h::matrix_plausible(&transform) {
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
        let mut geometries = Vec::new();
        let mut lights = Vec::new();
        for n in std::iter::once(sn).chain(parts.iter().filter_map(|&p| scene.nodes.get(p))) {
            if let Some(mesh) = n.mesh.and_then(|m| scene.meshes.get(m)) {
                geometries.extend(self.geometries(mesh, &path));
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
        if h::tex_name_plausible(name.as_bytes()).is_err() {
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

    /// The texture of scene material `m`, warning once about colours that are dropped.
    fn material_texture(&mut self, m: Option<usize>) -> Option<usize> {
        let mat = m.and_then(|m| self.scene.materials.get(m));
        let white = mat.is_none_or(|mat| mat.base_color == [1.0; 4]);
        if !white && !self.colour_warned {
            self.colour_warned = true;
            self.warnings.push(warn(
                "materials",
                "V-Chat geometries have no colours: material base colours are left out (only \
                 base colour textures are kept)",
            ));
        }
        mat.and_then(|mat| mat.base_color_texture)
            .filter(|&t| t < self.scene.textures.len())
    }

    fn geometries(&mut self, mesh: &Mesh, path: &str) -> Vec<Geometry> {
        let e = &mesh.extras;
        let flags = e
            .get(keys::RENDER_FLAGS)
            .and_then(Value::as_u64)
            .and_then(|v| u16::try_from(v).ok());
        let raw_textures: Vec<RawString> = e
            .get(keys::TEXTURES)
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(|s| RawString::from_display(s).unwrap_or_else(|_| RawString::from(s)))
                    .collect()
            })
            .unwrap_or_default();
        let point_flags = e
            .get(keys::POINT_FLAGS)
            .and_then(Value::as_str)
            .and_then(|text| hex::decode(text).ok())
            .filter(|b| b.len() == mesh.positions.len() * 4);
        let raw_normals: Option<Vec<[f32; 3]>> = e
            .get(keys::NORMALS)
            .and_then(Value::as_array)
            .and_then(|l| l.iter().map(|v| f32_list::<3>(Some(v))).collect());
        let raw_tex_coords: Option<Vec<TexCoord>> = e
            .get(keys::TEX_COORDS)
            .and_then(Value::as_array)
            .and_then(|l| l.iter().map(|v| f32_list::<2>(Some(v))).collect())
            .filter(|l: &Vec<TexCoord>| l.len() == mesh.positions.len());
        let raw = Raw {
            textures: raw_textures,
            point_flags,
            normals: raw_normals,
            tex_coords: raw_tex_coords,
            materials: e
                .get(keys::MATERIALS)
                .and_then(Value::as_array)
                .and_then(|l| {
                    l.iter()
                        .map(|v| v.as_u64().and_then(|m| u16::try_from(m).ok()))
                        .collect()
                }),
        };
        let mut out = Vec::new();
        let face_flags = flags
            .filter(|&f| !h::is_line_set(f))
            .unwrap_or(h::FACE_SET_FLAGS);
        let line_flags = flags
            .filter(|&f| h::is_line_set(f))
            .unwrap_or(h::LINE_SET_FLAGS);
        if !mesh.faces.is_empty() || mesh.lines.is_empty() {
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
                let corners = f
                    .corners
                    .iter()
                    .map(|c| {
                        let n = c
                            .normal
                            .or_else(|| normals.as_ref().and_then(|n| n.get(k).copied()));
                        k += 1;
                        (
                            c.position,
                            n.map(|v| v.map(f32::to_bits)),
                            c.uv.unwrap_or([0.0, 0.0]).map(f64::to_bits),
                        )
                    })
                    .collect();
                let texture = self.material_texture(f.material);
                items.push(Item { corners, texture });
            }
            out.extend(self.build(mesh, items, false, face_flags, &raw, path));
        }
        if !mesh.lines.is_empty() {
            let mut items = Vec::new();
            for l in &mesh.lines {
                let texture = self.material_texture(l.material);
                let key = |p: u32| (p, None, [0u64; 2]);
                let n = l.points.len();
                if l.closed && n >= 3 || n == 2 {
                    items.push(Item {
                        corners: l.points.iter().map(|&p| key(p)).collect(),
                        texture,
                    });
                } else {
                    for w in l.points.windows(2) {
                        items.push(Item {
                            corners: w.iter().map(|&p| key(p)).collect(),
                            texture,
                        });
                    }
                }
            }
            out.extend(self.build(mesh, items, true, line_flags, &raw, path));
        }
        out
    }

    /// Geometries holding `items`: the positions kept as points when they can be, split where a
    /// count would overflow, textured and untextured items apart.
    fn build(
        &mut self,
        mesh: &Mesh,
        items: Vec<Item>,
        lines: bool,
        render_flags: u16,
        raw: &Raw,
        path: &str,
    ) -> Vec<Geometry> {
        const MAX: usize = u16::MAX as usize;
        let npos = mesh.positions.len();
        let mut items: Vec<Item> = items
            .into_iter()
            .filter(|it| {
                it.corners.iter().all(|c| (c.0 as usize) < npos)
                    && it.corners.len() <= (MAX - 4) / 2
            })
            .collect();
        // Texture names per item, and the texture definitions: the raw list first (its order is
        // the file's), then new names in order of use.
        let mut names: Vec<RawString> = raw.textures.clone();
        let mut item_tex = Vec::with_capacity(items.len());
        for it in &items {
            let name = it.texture.and_then(|t| self.texture_name(t));
            let idx = name.map(|n| match names.iter().position(|x| *x == n) {
                Some(i) => i,
                None => {
                    names.push(n);
                    names.len() - 1
                }
            });
            item_tex.push(idx);
        }
        let textured = item_tex.iter().any(Option::is_some);
        let untextured = item_tex.iter().any(Option::is_none);
        let groups: Vec<bool> = match (textured, untextured) {
            (true, true) => {
                self.warnings.push(warn(
                    path,
                    "V-Chat textures all polygons of a geometry or none: the untextured ones \
                     form a geometry of their own",
                ));
                vec![true, false]
            }
            (true, false) => vec![true],
            _ => vec![false],
        };
        let mut out = Vec::new();
        let all: Vec<(Item, Option<usize>)> = items.drain(..).zip(item_tex).collect();
        for textured_group in groups {
            let group: Vec<&(Item, Option<usize>)> = all
                .iter()
                .filter(|(_, t)| t.is_some() == textured_group)
                .collect();
            let textures: Vec<TexDef> = if textured_group {
                names.iter().map(|n| TexDef { name: n.clone() }).collect()
            } else {
                Vec::new()
            };
            if textures.len() > 255 {
                self.warnings.push(warn(
                    path,
                    "more than 255 textures in one mesh; faces of the rest use texture 0",
                ));
            }
            let textures: Vec<TexDef> = textures.into_iter().take(255).collect();
            let material = |t: Option<usize>| t.filter(|&t| t < textures.len()).unwrap_or(0) as u16;
            // Keep the positions as points when every used position has one normal and one UV
            // and everything fits one geometry.
            let mut per_point: Vec<Option<PointAttrs>> = vec![None; npos];
            let mut consistent = npos <= MAX && group.len() <= MAX;
            let mut table = if h::LEN_IFS_COUNTS_FINAL_WORD {
                2u64
            } else {
                0
            };
            for (it, _) in &group {
                table += 2 + 2 * it.corners.len() as u64;
                for &(p, n, uv) in &it.corners {
                    // Normals given by the extras need not agree per point (per polygon).
                    let n = if raw.normals.is_some() { None } else { n };
                    match per_point.get_mut(p as usize) {
                        Some(slot @ None) => *slot = Some((n, uv)),
                        Some(Some(seen)) if *seen == (n, uv) => {}
                        _ => consistent = false,
                    }
                }
            }
            consistent &= table <= MAX as u64;
            if consistent {
                let normals = match &raw.normals {
                    Some(n) => n.clone(),
                    None if lines => Vec::new(),
                    None => per_point
                        .iter()
                        .map(|s| match s {
                            Some((Some(n), _)) => {
                                h::point_from_scene(n.map(|b| f64::from(f32::from_bits(b))))
                            }
                            _ => [0.0, 1.0, 0.0],
                        })
                        .collect(),
                };
                let tex_coords = match &raw.tex_coords {
                    Some(t) if lines => t.clone(),
                    _ if lines => vec![[0.0; 2]; npos],
                    _ => per_point
                        .iter()
                        .map(|s| match s {
                            Some((_, uv)) => h::uv_from_scene(uv.map(f64::from_bits)),
                            None => [0.0, 0.0],
                        })
                        .collect(),
                };
                let point_flags = match &raw.point_flags {
                    Some(b) => b
                        .chunks_exact(4)
                        .map(|c| <[u8; 4]>::try_from(c).unwrap_or_default())
                        .collect(),
                    None => vec![[0; 4]; npos],
                };
                out.push(Geometry {
                    points: mesh
                        .positions
                        .iter()
                        .map(|&p| h::point_from_scene(p))
                        .collect(),
                    normals,
                    polygons: group
                        .iter()
                        .map(|(it, _)| PolyDef {
                            points: it.corners.iter().map(|c| c.0 as u16).collect(),
                        })
                        .collect(),
                    render_flags,
                    tex_coords,
                    point_flags,
                    textures: textures.clone(),
                    materials: match &raw.materials {
                        // The raw index where it names the same texture.
                        Some(m)
                            if m.len() == group.len()
                                && m.iter().zip(&group).all(|(&m, (_, t))| {
                                    // An index the definitions have (0 when there are none).
                                    usize::from(m) < textures.len().max(1)
                                        && textures.get(usize::from(m)).map(|d| &d.name)
                                            == t.and_then(|t| textures.get(t)).map(|d| &d.name)
                                }) =>
                        {
                            m.clone()
                        }
                        _ => group.iter().map(|(_, t)| material(*t)).collect(),
                    },
                });
                continue;
            }
            // Points per distinct (position, normal, UV), split where a count would overflow.
            let mut g = Geometry {
                render_flags,
                textures: textures.clone(),
                ..Geometry::default()
            };
            let mut index: std::collections::HashMap<Key, u16> = std::collections::HashMap::new();
            let mut table = if h::LEN_IFS_COUNTS_FINAL_WORD {
                2u64
            } else {
                0
            };
            for (it, t) in group {
                let new_points = it.corners.iter().filter(|c| !index.contains_key(c)).count();
                let size = 2 + 2 * it.corners.len() as u64;
                if g.points.len() + new_points > MAX
                    || g.polygons.len() >= MAX
                    || table + size > MAX as u64
                {
                    index.clear();
                    table = if h::LEN_IFS_COUNTS_FINAL_WORD { 2 } else { 0 };
                    out.push(std::mem::replace(
                        &mut g,
                        Geometry {
                            render_flags,
                            textures: textures.clone(),
                            ..Geometry::default()
                        },
                    ));
                }
                table += size;
                let mut poly = Vec::with_capacity(it.corners.len());
                for c in &it.corners {
                    let next = g.points.len() as u16;
                    let k = *index.entry(*c).or_insert_with(|| {
                        let (p, n, uv) = *c;
                        let pos = mesh.positions.get(p as usize).copied().unwrap_or_default();
                        g.points.push(h::point_from_scene(pos));
                        if !lines {
                            let n = n.map_or([0.0, 1.0, 0.0], |n| n.map(f32::from_bits));
                            g.normals.push(h::point_from_scene(n.map(f64::from)));
                        }
                        g.tex_coords.push(if lines {
                            [0.0; 2]
                        } else {
                            h::uv_from_scene(uv.map(f64::from_bits))
                        });
                        g.point_flags.push([0; 4]);
                        next
                    });
                    poly.push(k);
                }
                g.polygons.push(PolyDef { points: poly });
                g.materials.push(material(*t));
            }
            out.push(g);
        }
        out
    }

    fn light(&mut self, l: &SceneLight, path: &str) -> Light {
        let raw = l.extras.get(keys::LIGHT).and_then(Value::as_object);
        let raw_type = raw
            .and_then(|r| r.get("type"))
            .and_then(|t| serde_json::from_value::<LightType>(t.clone()).ok());
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
            kind,
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

/// The `extras` of a mesh that came from a geometry.
struct Raw {
    /// Per-polygon texture definitions, when names repeat.
    materials: Option<Vec<u16>>,
    textures: Vec<RawString>,
    point_flags: Option<Vec<u8>>,
    normals: Option<Vec<[f32; 3]>>,
    tex_coords: Option<Vec<TexCoord>>,
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
