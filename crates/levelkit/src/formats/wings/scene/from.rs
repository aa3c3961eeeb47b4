//! A scene to a Wings model: objects welded from node meshes, materials, images, lights and views
//! (see the parent module's docs).

use super::*;

impl Wings {
    /// A Wings model of `scene` (see the module docs), written as Wings 2.2 writes, with what
    /// did not map. Fails on geometry Wings cannot hold (non-manifold or inconsistently oriented
    /// surfaces), naming the object and the edge.
    pub fn from_scene(scene: &Scene) -> Result<(Wings, Vec<Warning>)> {
        let mut warnings = Vec::new();
        scene.refuse_invalid(Format::Wings, "the scene cannot be converted")?;
        let world = scene.world_matrices();
        let mut names = UniqueNames::default();
        let mut mats = MaterialTable::default();
        let mut shapes = Vec::new();
        // Nodes in tree order (depth first from the roots), so objects keep the scene's order.
        let order = scene.tree_order();
        for &ni in &order {
            let Some(node) = scene.nodes.get(ni) else {
                continue;
            };
            let Some(mesh) = node.mesh.and_then(|m| scene.meshes.get(m)) else {
                continue;
            };
            if mesh.faces.is_empty() {
                if !mesh.lines.is_empty() {
                    warnings.push(warn(
                        format!("nodes[{ni}]"),
                        "lines have no place in a Wings object; left out",
                    ));
                }
                continue;
            }
            let m = world.get(ni).copied().unwrap_or(scene::IDENTITY_MATRIX);
            let name = names.unique(
                node.name
                    .as_deref()
                    .or(mesh.name.as_deref())
                    .unwrap_or("object"),
            );
            let shape = object(scene, mesh, &m, &name, &mut mats, &mut warnings)
                .map_err(|e| e.in_path(format!("nodes[{ni}]")))?;
            shapes.push(shape);
        }
        // Lights after the objects, so the objects keep the names they had before lights were
        // converted (Wings keeps lights and objects in one namespace).
        let mut lights = Vec::new();
        let mut placed = vec![false; scene.lights.len()];
        for &ni in &order {
            let Some((l, light)) = scene
                .nodes
                .get(ni)
                .and_then(|n| n.light)
                .and_then(|l| Some((l, scene.lights.get(l)?)))
            else {
                continue;
            };
            if let Some(p) = placed.get_mut(l) {
                *p = true;
            }
            let m = world.get(ni).copied().unwrap_or(scene::IDENTITY_MATRIX);
            match wings_light(light, &m) {
                Ok(props) => {
                    let node_name = scene.nodes.get(ni).and_then(|n| n.name.as_deref());
                    let name = names.unique(node_name.or(light.name.as_deref()).unwrap_or("light"));
                    lights.push(Term::Tuple(vec![Term::charlist(&name), props]));
                }
                Err(msg) => warnings.push(warn(format!("nodes[{ni}]"), msg)),
            }
        }
        let unplaced = placed.iter().filter(|p| !**p).count();
        if unplaced > 0 {
            warnings.push(warn(
                "lights",
                format!("{unplaced} lights no node places; left out"),
            ));
        }
        // Cameras become the file's views, the first one current.
        let mut views = Vec::new();
        for &ni in &order {
            let Some((node, camera)) = scene
                .nodes
                .get(ni)
                .and_then(|n| Some((n, scene.cameras.get(n.camera?)?)))
            else {
                continue;
            };
            let m = world.get(ni).copied().unwrap_or(scene::IDENTITY_MATRIX);
            let name = node
                .name
                .as_deref()
                .or(camera.name.as_deref())
                .unwrap_or("current_view");
            match wings_view(camera, name, &m) {
                Ok(view) => views.push(view),
                Err(msg) => warnings.push(warn(format!("nodes[{ni}]"), msg)),
            }
        }
        if !scene.animations.is_empty() {
            let n = scene.animations.len();
            warnings.push(warn(
                "animations",
                format!("{n} animations: a .wings file cannot hold them; left out"),
            ));
        }
        let (materials, images) = mats.finish(scene, &mut warnings);
        let mut props = match global_props(None) {
            Term::List(items, _) => items,
            _ => Vec::new(),
        };
        if !views.is_empty() {
            props.push(pair("current_view", Term::Int(1)));
            props.push(pair("views", Term::list(views)));
        }
        if !images.is_empty() {
            props.push(pair("images", Term::list(images)));
        }
        if !lights.is_empty() {
            props.push(pair("lights", Term::list(lights)));
        }
        Ok((
            Wings {
                compression: None,
                content: Content::V2(Document {
                    atoms: AtomTag::Atom,
                    shapes,
                    materials,
                    props: Term::list(props),
                }),
            },
            warnings,
        ))
    }
}

/// A scene light as Wings' `LightProps`, placed by its node's world matrix `m` (column-major;
/// a light shines down its node's −Z axis).
///
/// A light that came from Wings keeps its property list (plugin state, attenuation, the area
/// light's mesh) and is only moved when its node was: position and aim point follow the node,
/// the aim at its old distance. Any other light is written the way Wings 2.2 writes a new one:
/// diffuse from the colour (glTF's intensity has no Wings counterpart), spot cone in degrees
/// with Wings' default exponent, aim point one unit ahead. Area lights need their emitting
/// mesh, which only a light from Wings has.
fn wings_light(light: &Light, m: &[f64; 16]) -> std::result::Result<Term, String> {
    let position = [m[12], m[13], m[14]];
    let forward = unit([-m[8], -m[9], -m[10]]).unwrap_or([0.0, 0.0, -1.0]);
    if let Some(props) = light
        .extras
        .get("wings_light_props")
        .and_then(|v| Term::deserialize(v).ok())
        .filter(|p| p.proplist_get("opengl").is_some())
    {
        return Ok(moved_light(props, position, forward));
    }
    let kind = match light.kind {
        LightKind::Point => "point",
        LightKind::Spot { .. } => "spot",
        LightKind::Directional => "infinite",
        LightKind::Ambient => "ambient",
        LightKind::Area => {
            return Err(
                "an area light has no Wings form without its emitting mesh; left out".into(),
            );
        }
    };
    let [r, g, b] = light.color.map(|c| f64::from(c.clamp(0.0, 1.0)));
    let aim = match light.kind {
        LightKind::Spot { .. } | LightKind::Directional => add(position, forward),
        _ => [0.0; 3],
    };
    let color = rgba([r, g, b, 1.0]);
    // Key order and content as Wings 2.2.9 itself saves each kind (`wings_light:export`): an
    // ambient light has its colour under `ambient` and no aim; point and spot lights start
    // with their attenuation, a spot then with its cone.
    let mut gl = Vec::new();
    if matches!(light.kind, LightKind::Point | LightKind::Spot { .. }) {
        gl.push(pair("linear_attenuation", Term::float(0.0)));
        gl.push(pair("quadratic_attenuation", Term::float(0.0)));
    }
    if let LightKind::Spot {
        outer_cone_angle, ..
    } = light.kind
    {
        gl.push(pair(
            "cone_angle",
            Term::float(f64::from(outer_cone_angle).to_degrees()),
        ));
        gl.push(pair("spot_exponent", Term::float(WINGS_SPOT_EXPONENT)));
    }
    gl.push(pair("type", atom(kind)));
    if light.kind == LightKind::Ambient {
        gl.extend([pair("ambient", color), pair("position", point(position))]);
    } else {
        gl.extend([
            pair("position", point(position)),
            pair("aim_point", point(aim)),
            pair("diffuse", color),
            pair("ambient", rgba([0.0, 0.0, 0.0, 1.0])),
            pair("specular", rgba([1.0, 1.0, 1.0, 1.0])),
        ]);
    }
    // The light's plugin state as Wings writes it for a new light: a one-entry gb_tree.
    gl.push(pair(
        "pst",
        Term::Tuple(vec![
            Term::Int(1),
            Term::Tuple(vec![
                atom("wings_shape"),
                atom("no_folder"),
                atom("nil"),
                atom("nil"),
            ]),
        ]),
    ));
    let visible = light
        .extras
        .get("visible")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(true);
    Ok(Term::list(vec![
        pair("visible", atom(if visible { "true" } else { "false" })),
        pair("locked", atom("false")),
        pair("opengl", Term::list(gl)),
    ]))
}

/// The spot exponent Wings gives a new spot light.
const WINGS_SPOT_EXPONENT: f64 = 2.0;

/// A Wings light's property list with its position and aim point moved to `position` and
/// `forward`, unchanged when they already agree (to f32 precision, as glTF stores them) or
/// when it is an area light (its place is its mesh).
fn moved_light(props: Term, position: [f64; 3], forward: [f64; 3]) -> Term {
    let gl = props.proplist_get("opengl");
    let get = |k: &str| gl.and_then(|g| g.proplist_get(k));
    let vec3 = |k: &str| get(k).and_then(as_vec3);
    let kind = get("type").and_then(Term::as_atom).unwrap_or("point");
    let (Some(p0), Some(a0)) = (vec3("position"), vec3("aim_point")) else {
        return props;
    };
    let near = |a: [f64; 3], b: [f64; 3]| {
        let d = sub(a, b);
        dot(d, d).sqrt() <= 1e-5 * (1.0 + dot(a, a).sqrt().max(dot(b, b).sqrt()))
    };
    let aims = matches!(kind, "spot" | "infinite");
    let distance = dot(sub(a0, p0), sub(a0, p0)).sqrt();
    let same_way = !aims || unit(sub(a0, p0)).is_none_or(|d| dot(d, forward) >= 1.0 - 1e-6);
    if kind == "area" || (near(p0, position) && same_way) {
        return props;
    }
    let aim = if aims {
        add(
            position,
            scale(forward, if distance > 0.0 { distance } else { 1.0 }),
        )
    } else {
        add(a0, sub(position, p0))
    };
    let replace = |list: &Term, f: &dyn Fn(&str) -> Option<Term>| -> Term {
        let items = list.list_items().unwrap_or_default();
        Term::list(
            items
                .into_iter()
                .map(|item| match item.as_tuple() {
                    Some([k, _]) => match k.as_atom().and_then(f) {
                        Some(v) => Term::Tuple(vec![k.clone(), v]),
                        None => item,
                    },
                    _ => item,
                })
                .collect(),
        )
    };
    let gl = replace(gl.unwrap_or(&Term::Nil), &|k| match k {
        "position" => Some(point(position)),
        "aim_point" => Some(point(aim)),
        _ => None,
    });
    replace(&props, &|k| (k == "opengl").then(|| gl.clone()))
}

#[derive(Default)]
struct UniqueNames {
    used: HashSet<String>,
}

impl UniqueNames {
    fn unique(&mut self, base: &str) -> String {
        let base = if base.is_empty() { "object" } else { base };
        let mut name = base.to_owned();
        let mut k = 2;
        while !self.used.insert(name.clone()) {
            name = format!("{base}{k}");
            k += 1;
        }
        name
    }
}

/// Scene materials as Wings materials, named uniquely, made on first use.
#[derive(Default)]
struct MaterialTable {
    /// Scene material index (`None` = no material) -> Wings name.
    names: HashMap<Option<usize>, String>,
    order: Vec<Option<usize>>,
    taken: UniqueNames,
}

impl MaterialTable {
    fn name(&mut self, scene: &Scene, m: Option<usize>) -> String {
        if let Some(n) = self.names.get(&m) {
            return n.clone();
        }
        let base = match m {
            None => "default".to_owned(),
            Some(i) => scene
                .materials
                .get(i)
                .and_then(|mat| mat.name.clone())
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| format!("material{i}")),
        };
        let name = if m.is_none() {
            self.taken.used.insert(base.clone());
            base
        } else {
            self.taken.unique(&base)
        };
        self.names.insert(m, name.clone());
        self.order.push(m);
        name
    }

    /// The Wings materials and the `images` entries they use.
    fn finish(&self, scene: &Scene, warnings: &mut Vec<Warning>) -> (Vec<Material>, Vec<Term>) {
        let mut images = Vec::new();
        let mut image_ids: HashMap<usize, Option<i64>> = HashMap::default();
        let mut out = Vec::new();
        for m in &self.order {
            let name = self.names.get(m).cloned().unwrap_or_default();
            let Some(mat) = m.and_then(|i| scene.materials.get(i)) else {
                out.push(material(&name, WINGS_DEFAULT_DIFFUSE, vec![], "set"));
                continue;
            };
            let mut maps = Vec::new();
            for (kind, t) in [
                ("diffuse", mat.base_color_texture),
                ("normal", mat.normal_texture),
                ("occlusion", mat.occlusion_texture),
                ("emission", mat.emissive_texture),
            ] {
                let Some(t) = t else { continue };
                let id = *image_ids.entry(t).or_insert_with(|| {
                    let tex = scene.textures.get(t)?;
                    match texture_image(tex, images.len() as i64) {
                        Ok(im) => {
                            images.push(im);
                            Some(images.len() as i64 - 1)
                        }
                        Err(msg) => {
                            warnings.push(warn(format!("textures[{t}]"), msg));
                            None
                        }
                    }
                });
                if let Some(id) = id {
                    maps.push(pair(kind, Term::Int(id)));
                }
            }
            if mat.metallic_roughness_texture.is_some() {
                warnings.push(warn(
                    format!("materials[{}]", m.unwrap_or(0)),
                    "the metallic-roughness texture has no Wings map of its own; left out",
                ));
            }
            out.push(Material {
                name: otp25_atom(&name),
                props: Term::list(vec![
                    pair("opengl", opengl_props(mat)),
                    pair("maps", Term::list(maps)),
                ]),
            });
        }
        (out, images)
    }
}

/// A material's `opengl` list: the one it came from Wings with, or both key sets in Wings'
/// order, from the PBR values and the legacy Phong values.
fn opengl_props(mat: &SceneMaterial) -> Term {
    // Read from the JSON value in place (as `from_value` would read a copy of it).
    if let Some(gl) = mat
        .extras
        .get("wings_material_props")
        .and_then(|v| Term::deserialize(v).ok())
        .and_then(|props| props.proplist_get("opengl").cloned())
    {
        return gl;
    }
    let c = |v: [f32; 4]| rgba(v.map(f64::from));
    let phong = mat.phong.unwrap_or(Phong {
        ambient: [0.0, 0.0, 0.0, 0.0],
        diffuse: mat.base_color,
        specular: [0.19, 0.19, 0.19, 1.0],
        emission: [mat.emissive[0], mat.emissive[1], mat.emissive[2], 1.0],
        shininess: 1.0 - mat.roughness,
    });
    Term::list(vec![
        pair("ambient", c(phong.ambient)),
        pair("specular", c(phong.specular)),
        pair("shininess", Term::float(f64::from(phong.shininess))),
        pair("diffuse", c(mat.base_color)),
        pair(
            "emission",
            c([mat.emissive[0], mat.emissive[1], mat.emissive[2], 1.0]),
        ),
        pair("metallic", Term::float(f64::from(mat.metallic))),
        pair("roughness", Term::float(f64::from(mat.roughness))),
        pair(
            "vertex_colors",
            atom(if mat.vertex_colors { "set" } else { "ignore" }),
        ),
    ])
}

/// A texture as an `images` entry `{Id, Props}`.
fn texture_image(tex: &Texture, id: i64) -> std::result::Result<Term, String> {
    let name = tex.name.clone().unwrap_or_else(|| format!("image{id}"));
    let embedded = |w: u32, h: u32, channels: u8, top_down: &[u8]| {
        let row = w as usize * channels as usize;
        let bottom_up: Vec<u8> = top_down
            .chunks(row.max(1))
            .rev()
            .flatten()
            .copied()
            .collect();
        Term::Tuple(vec![
            Term::Int(id),
            Term::list(vec![
                pair("name", Term::charlist(&name)),
                pair("width", Term::Int(i64::from(w))),
                pair("height", Term::Int(i64::from(h))),
                pair("samples_per_pixel", Term::Int(i64::from(channels))),
                pair("mask_size", Term::Int(0)),
                pair("pixels", Term::Binary(bottom_up)),
            ]),
        ])
    };
    match &tex.source {
        TextureSource::Pixels {
            width,
            height,
            channels,
            data,
        } => Ok(embedded(*width, *height, *channels, data)),
        TextureSource::Encoded { mime_type, data } if mime_type == "image/png" => {
            let (w, h, ch, pixels) = crate::encoding::decode_png(data)?;
            Ok(embedded(w, h, ch, &pixels))
        }
        TextureSource::Encoded { mime_type, .. } => Err(format!(
            "texture {name:?} is {mime_type}, which levelkit does not decode; left out \
             (convert it to PNG)"
        )),
        TextureSource::File(uri) => Ok(Term::Tuple(vec![
            Term::Int(id),
            Term::list(vec![
                pair("name", Term::charlist(&name)),
                pair("filename", Term::charlist(uri)),
            ]),
        ])),
    }
}

/// One scene mesh, in world space, as a Wings object.
fn object(
    scene: &Scene,
    mesh: &Mesh,
    matrix: &[f64; 16],
    name: &str,
    mats: &mut MaterialTable,
    warnings: &mut Vec<Warning>,
) -> Result<Shape> {
    let err = |msg: String| Error::malformed(Format::Wings, Location::default(), msg);
    let t = Transform::Matrix(*matrix);
    // An identity transform leaves positions untouched (bit for bit, -0.0 included).
    let world: Vec<[f64; 3]> = if *matrix == scene::IDENTITY_MATRIX {
        mesh.positions.clone()
    } else {
        mesh.positions.iter().map(|p| t.apply(*p)).collect()
    };
    let (weld, positions) = edge_weld(&world, mesh);
    let normals = own_normals(mesh).unwrap_or_else(|| mesh.corner_normals());
    let mut polygons: Vec<Polygon> = Vec::with_capacity(mesh.faces.len());
    // Per polygon corner, polygon after polygon: the corner normal (for hard-edge detection).
    let mut corner_normals: Vec<[f32; 3]> = Vec::with_capacity(normals.len());
    // The face's corners kept (reused from face to face).
    let mut kept: Vec<usize> = Vec::new();
    let mut base = 0usize;
    let mut dropped = 0usize;
    for (fi, f) in mesh.faces.iter().enumerate() {
        let n = f.corners.len();
        let ns = normals.get(base..base + n).unwrap_or(&[]);
        base += n;
        // Welded corners, with consecutive repeats removed.
        let mut vs: Vec<u32> = Vec::with_capacity(n);
        kept.clear();
        for (k, c) in f.corners.iter().enumerate() {
            let v = weld.get(c.position as usize).copied().ok_or_else(|| {
                err(format!(
                    "face {fi} uses position {} of {}",
                    c.position,
                    weld.len()
                ))
            })?;
            if vs.last() != Some(&v) {
                vs.push(v);
                kept.push(k);
            }
        }
        while vs.len() > 1 && vs.first() == vs.last() {
            vs.pop();
            kept.pop();
        }
        if vs.len() < 3 {
            dropped += 1;
            continue;
        }
        let corners = || kept.iter().filter_map(|&k| f.corners.get(k));
        let uvs = corners().map(|c| c.uv).collect::<Option<Vec<_>>>();
        let colors = corners().any(|c| c.color.is_some()).then(|| {
            corners()
                .map(|c| {
                    let [r, g, b, _] = c.color.unwrap_or([1.0; 4]);
                    [r, g, b]
                })
                .collect()
        });
        // The default material is written as no material at all.
        let material = Some(mats.name(scene, f.material)).filter(|m| m != "default");
        polygons.push(Polygon {
            vertices: vs,
            uvs,
            colors,
            material,
        });
        corner_normals.extend(
            kept.iter()
                .map(|&k| ns.get(k).copied().unwrap_or([0.0, 1.0, 0.0])),
        );
    }
    if dropped > 0 {
        warnings.push(warn(
            name,
            format!("{name}: {dropped} faces with fewer than 3 distinct corners left out"),
        ));
    }
    let sides = directed_sides(&polygons);
    check_manifold(&positions, &sides, name)?;
    let holes = hole_loops(&sides);
    let num_holes = holes.len();
    let mut all: Vec<Polygon> = Vec::with_capacity(num_holes + polygons.len());
    all.extend(holes.into_iter().map(|vertices| Polygon {
        vertices,
        uvs: None,
        colors: None,
        material: None,
    }));
    all.extend(polygons);
    // Unused positions are dropped (Wings needs every vertex on a face).
    let mut used = vec![false; positions.len()];
    for p in &all {
        for &v in &p.vertices {
            if let Some(u) = used.get_mut(v as usize) {
                *u = true;
            }
        }
    }
    let mut remap = vec![u32::MAX; positions.len()];
    let mut kept_positions = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        if used.get(i).copied().unwrap_or(false) {
            if let Some(r) = remap.get_mut(i) {
                *r = kept_positions.len() as u32;
            }
            kept_positions.push(*p);
        }
    }
    for p in &mut all {
        for v in &mut p.vertices {
            *v = remap.get(*v as usize).copied().unwrap_or(*v);
        }
    }
    let mut winged = Winged::from_polygons(&kept_positions, &all)
        .map_err(|e| err(format!("object {name:?}: {}", e.message)))?;
    // Hard edges: where the two faces' corner normals differ at either end, or named by the mesh.
    // Between two vertices with parallel edges, the highest-numbered edge is the one meant.
    let edge_of = Rows::new(
        kept_positions.len(),
        winged.edges.iter().enumerate().filter_map(|(i, e)| {
            let r = e.record()?;
            Some((r.vs.min(r.ve), (r.vs.max(r.ve), i as u32)))
        }),
    );
    let edge_between = |lo: u32, hi: u32| -> Option<u32> {
        let row = edge_of.row(lo);
        let end = row.partition_point(|&(h, _)| h <= hi);
        row.get(end.checked_sub(1)?)
            .filter(|&&(h, _)| h == hi)
            .map(|&(_, id)| id)
    };
    let mut hard = vec![mesh.flat; winged.edges.len()];
    for e in &mesh.hard_edges {
        let [a, b] = e.map(|p| {
            weld.get(p as usize)
                .and_then(|&w| remap.get(w as usize))
                .copied()
                .unwrap_or(u32::MAX)
        });
        if let Some(h) = edge_between(a.min(b), a.max(b)).and_then(|id| hard.get_mut(id as usize)) {
            *h = true;
        }
    }
    // The first corner normal seen at each end (lower vertex, higher vertex) of each edge; a
    // later one that differs makes the edge hard.
    let mut first: Vec<[Option<[f32; 3]>; 2]> = vec![[None; 2]; winged.edges.len()];
    let mut offset = 0usize;
    for p in all.iter().skip(num_holes) {
        let k = p.vertices.len();
        let ns = corner_normals.get(offset..offset + k).unwrap_or(&[]);
        offset += k;
        for i in 0..k {
            let (Some(&a), Some(&b)) = (p.vertices.get(i), p.vertices.get((i + 1) % k)) else {
                continue;
            };
            let (Some(&na), Some(&nb)) = (ns.get(i), ns.get((i + 1) % k)) else {
                continue;
            };
            let (lo, hi) = (a.min(b), a.max(b));
            let Some(id) = edge_between(lo, hi) else {
                continue;
            };
            let Some(ends) = first.get_mut(id as usize) else {
                continue;
            };
            for (v, nv) in [(a, na), (b, nb)] {
                let Some(slot) = ends.get_mut(usize::from(v != lo)) else {
                    continue;
                };
                match slot {
                    Some(d) => {
                        let dot = d[0] * nv[0] + d[1] * nv[1] + d[2] * nv[2];
                        if dot < 0.9999
                            && let Some(h) = hard.get_mut(id as usize)
                        {
                            *h = true;
                        }
                    }
                    None => *slot = Some(nv),
                }
            }
        }
    }
    winged.hard_edges = Term::int_list(
        hard.iter()
            .enumerate()
            .filter(|&(_, &h)| h)
            .map(|(i, _)| i as i64),
    );
    let mut shape = shape(name, winged);
    if num_holes > 0 {
        if let Term::List(items, _) = &mut shape.props {
            items.push(pair(
                "holes",
                Term::int_list((0..num_holes).map(|h| h as i64)),
            ));
            items.push(pair("num_hidden_faces", Term::Int(num_holes as i64)));
        }
        warnings.push(warn(
            name,
            format!("{name}: the mesh is open; {num_holes} boundary loops closed with hole faces"),
        ));
    }
    Ok(shape)
}

/// Every corner's own normal, made unit length exactly as [`Mesh::corner_normals`] makes it,
/// when every corner has a usable one (as glTF input has): nothing then needs deriving.
fn own_normals(mesh: &Mesh) -> Option<Vec<[f32; 3]>> {
    mesh.faces
        .iter()
        .flat_map(|f| &f.corners)
        .map(|c| {
            c.normal
                .and_then(|v| unit(v.map(f64::from)))
                .map(|v| v.map(|x| x as f32))
        })
        .collect()
}

/// Refuse vertex pairs where more than two polygons meet unevenly ([`non_manifold`]), naming
/// the first such pair.
fn check_manifold(positions: &[[f64; 3]], sides: &Rows<(u32, u32)>, name: &str) -> Result<()> {
    let Some(NonManifold {
        a,
        b,
        count,
        back,
        polygon: fi,
    }) = non_manifold(sides)
    else {
        return Ok(());
    };
    let pa = positions.get(a as usize).copied().unwrap_or_default();
    let pb = positions.get(b as usize).copied().unwrap_or_default();
    Err(Error::malformed(
        Format::Wings,
        Location::default(),
        format!(
            "object {name:?} is not a 2-manifold surface: the edge from {pa:?} to {pb:?} \
             is used {count} times in the same direction (first by face {fi}) and {back} \
             times the other way (more than two faces meet there, or neighbouring faces \
             are oriented inconsistently); Wings can only hold edges shared by two faces"
        ),
    ))
}
