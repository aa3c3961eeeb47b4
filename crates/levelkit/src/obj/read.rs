//! The OBJ reader: OBJ + MTL to a [`Scene`] (documented in the module above).

#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::collections::{HashMap, HashSet};

use super::extras::{ILLUM_EXTRA, NI_EXTRA};
use super::srgb::srgb_to_linear;
use crate::error::{Error, Location, Result, Warning};
use crate::limits::{Budget, Limits};
use crate::registry::Format;
use crate::scene::{
    AlphaMode, Corner, Extras, Face, Material, Mesh, Node, Phong, Polyline, Scene, Texture,
    TextureSource,
};

const F: Format = Format::Obj;

/// Read an OBJ file. `resolve` is given the file names the OBJ and its MTL files reference
/// (`mtllib`, texture maps), as written, and returns their bytes when it can.
pub fn read(
    obj: &[u8],
    resolve: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> Result<(Scene, Vec<Warning>)> {
    let mut r = Reader::new(has_o_statement(obj), resolve);
    let mut lexer = Lexer::new(obj);
    let mut toks: Vec<Tok<'_>> = Vec::new();
    while lexer.statement(&mut toks) {
        let Some((key, args)) = toks.split_first() else {
            continue;
        };
        r.statement(obj, key, args)?;
    }
    Ok(r.finish())
}

// ---------------------------------------------------------------------------------------------
// Lexing

/// One word of a statement, with where it starts.
#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    text: &'a [u8],
    /// One-based line number.
    line: u32,
    /// Byte offsets of the word and of the start of its line.
    offset: usize,
    line_start: usize,
}

impl Tok<'_> {
    /// The word's location, `skip` bytes into it.
    fn at(&self, src: &[u8], skip: usize) -> Location {
        let start = self.offset.saturating_add(skip);
        // Characters, not bytes: UTF-8 continuation bytes do not count.
        let col = src
            .get(self.line_start..start)
            .map_or(0, |s| s.iter().filter(|&&b| (b & 0xC0) != 0x80).count());
        Location {
            line_col: Some((self.line, to_u32(col.saturating_add(1)))),
            ..Location::default()
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(self.text).into_owned()
    }
}

fn to_u32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Splits the input into statements of words: handles comments, CRLF, tabs and `\` line
/// continuations. Columns are computed only when a location is needed.
struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Lexer<'a> {
    fn new(src: &'a [u8]) -> Self {
        Lexer {
            src,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.src.get(at).copied()
    }

    /// If a `\` at `at` ends its line (only spaces after it), the offset of the next line.
    fn continuation(&self, at: usize) -> Option<usize> {
        let mut p = at.checked_add(1)?;
        loop {
            match self.byte(p) {
                Some(b'\n') => return p.checked_add(1),
                Some(b) if is_space(b) => p = p.checked_add(1)?,
                None => return Some(p),
                Some(_) => return None,
            }
        }
    }

    fn new_line(&mut self, start: usize) {
        self.pos = start;
        self.line = self.line.saturating_add(1);
        self.line_start = start;
    }

    /// The words of the next statement into `out`; false at the end of the input.
    fn statement(&mut self, out: &mut Vec<Tok<'a>>) -> bool {
        out.clear();
        if self.pos >= self.src.len() {
            return false;
        }
        loop {
            let Some(b) = self.byte(self.pos) else {
                return true;
            };
            match b {
                b'\n' => {
                    let next = self.pos.saturating_add(1);
                    self.new_line(next);
                    return true;
                }
                b'\\' if self.continuation(self.pos).is_some() => {
                    let next = self.continuation(self.pos).unwrap_or(self.src.len());
                    if next >= self.src.len() {
                        self.pos = self.src.len();
                    } else {
                        self.new_line(next);
                    }
                }
                b'#' => {
                    let rest = self.src.get(self.pos..).unwrap_or_default();
                    let len = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
                    self.pos = self.pos.saturating_add(len);
                }
                b if is_space(b) => self.pos = self.pos.saturating_add(1),
                _ => {
                    let start = self.pos;
                    while let Some(c) = self.byte(self.pos) {
                        if c == b'\n'
                            || is_space(c)
                            || (c == b'\\' && self.continuation(self.pos).is_some())
                        {
                            break;
                        }
                        self.pos = self.pos.saturating_add(1);
                    }
                    out.push(Tok {
                        text: self.src.get(start..self.pos).unwrap_or_default(),
                        line: self.line,
                        offset: start,
                        line_start: self.line_start,
                    });
                }
            }
        }
    }
}

/// Whether any line starts with an `o` statement (which decides what `g` means).
fn has_o_statement(src: &[u8]) -> bool {
    src.split(|&b| b == b'\n').any(|line| {
        let mut words = line.split(|&b| is_space(b)).filter(|w| !w.is_empty());
        words.next() == Some(b"o")
    })
}

// ---------------------------------------------------------------------------------------------
// OBJ statements

/// One object being read.
struct Object {
    name: Option<String>,
    mesh: Mesh,
    /// Smoothing group of each face (0 = off).
    smoothing: Vec<u32>,
}

struct Reader<'r> {
    resolve: &'r mut dyn FnMut(&str) -> Option<Vec<u8>>,
    /// Whether `g` starts objects (no `o` in the file).
    groups_are_objects: bool,
    budget: Budget,
    positions: Vec<[f64; 3]>,
    colors: Vec<Option<[f32; 4]>>,
    uvs: Vec<[f64; 2]>,
    normals: Vec<Option<[f32; 3]>>,
    objects: Vec<Object>,
    current: Option<usize>,
    groups: HashMap<String, usize>,
    /// Per global `v`: (object index + 1, index in that object's mesh); 0 = not used yet.
    remap: Vec<(usize, u32)>,
    material: Option<usize>,
    smoothing: u32,
    materials: Vec<Material>,
    material_index: HashMap<String, usize>,
    /// Per material: whether an MTL defined it, and where it was first used.
    defined: Vec<bool>,
    first_use: Vec<Option<Location>>,
    textures: Vec<Texture>,
    texture_index: HashMap<String, usize>,
    loaded_mtl: HashSet<String>,
    warnings: Vec<Warning>,
    warned: HashSet<String>,
}

impl<'r> Reader<'r> {
    fn new(has_o: bool, resolve: &'r mut dyn FnMut(&str) -> Option<Vec<u8>>) -> Self {
        Reader {
            resolve,
            groups_are_objects: !has_o,
            budget: Limits::default().budget(F),
            positions: Vec::new(),
            colors: Vec::new(),
            uvs: Vec::new(),
            normals: Vec::new(),
            objects: Vec::new(),
            current: None,
            groups: HashMap::new(),
            remap: Vec::new(),
            material: None,
            smoothing: 1,
            materials: Vec::new(),
            material_index: HashMap::new(),
            defined: Vec::new(),
            first_use: Vec::new(),
            textures: Vec::new(),
            texture_index: HashMap::new(),
            loaded_mtl: HashSet::new(),
            warnings: Vec::new(),
            warned: HashSet::new(),
        }
    }

    fn warn_once(&mut self, key: String, location: Location, message: String) {
        if self.warned.insert(key) {
            self.warnings.push(Warning::warning(F, location, message));
        }
    }

    fn statement(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) -> Result<()> {
        match key.text {
            b"v" => self.vertex(src, key, args),
            b"vt" => self.texcoord(src, key, args),
            b"vn" => self.normal(src, key, args),
            b"f" | b"fo" => self.face(src, key, args),
            b"l" => self.line(src, key, args),
            b"o" => {
                self.start_object(joined(args));
                Ok(())
            }
            b"g" => {
                self.group(src, key, args);
                Ok(())
            }
            b"usemtl" => {
                self.material = joined(args).map(|name| self.material_named(name, src, key));
                Ok(())
            }
            b"mtllib" => {
                self.mtllib(src, args);
                Ok(())
            }
            b"s" => self.smoothing_group(src, args),
            _ => {
                let k = key.text();
                self.warn_once(
                    format!("obj {k}"),
                    key.at(src, 0),
                    format!("`{k}` statements are not supported and were skipped"),
                );
                Ok(())
            }
        }
    }

    fn number(&self, src: &[u8], tok: &Tok<'_>) -> Result<f64> {
        parse_f64(tok.text).ok_or_else(|| {
            Error::malformed(
                F,
                tok.at(src, 0),
                format!("expected a finite number, found `{}`", tok.text()),
            )
        })
    }

    fn numbers<const N: usize>(&self, src: &[u8], args: &[Tok<'_>]) -> Result<[f64; N]> {
        let mut out = [0.0; N];
        for (slot, tok) in out.iter_mut().zip(args) {
            *slot = self.number(src, tok)?;
        }
        Ok(out)
    }

    fn vertex(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) -> Result<()> {
        let n = args.len();
        if !matches!(n, 3 | 4 | 6 | 7) {
            return Err(Error::malformed(
                F,
                key.at(src, 0),
                format!("`v` has {n} numbers; expected x y z [w], x y z r g b or x y z r g b a"),
            ));
        }
        let v: [f64; 7] = self.numbers(src, args)?;
        let [x, y, z, r, g, b, a] = v;
        self.positions.push([x, y, z]);
        self.colors.push(match n {
            6 => Some([srgb(r), srgb(g), srgb(b), 1.0]),
            7 => Some([srgb(r), srgb(g), srgb(b), a as f32]),
            _ => None,
        });
        self.remap.push((0, 0));
        Ok(())
    }

    fn texcoord(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) -> Result<()> {
        if !(1..=3).contains(&args.len()) {
            return Err(Error::malformed(
                F,
                key.at(src, 0),
                format!("`vt` has {} numbers; expected u [v [w]]", args.len()),
            ));
        }
        let [u, v, _]: [f64; 3] = self.numbers(src, args)?;
        self.uvs.push([u, v]);
        Ok(())
    }

    fn normal(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) -> Result<()> {
        if args.len() != 3 {
            return Err(Error::malformed(
                F,
                key.at(src, 0),
                format!("`vn` has {} numbers; expected x y z", args.len()),
            ));
        }
        let [x, y, z]: [f64; 3] = self.numbers(src, args)?;
        let len = (x * x + y * y + z * z).sqrt();
        self.normals.push(
            (len > 1e-30 && len.is_finite())
                .then(|| [(x / len) as f32, (y / len) as f32, (z / len) as f32]),
        );
        Ok(())
    }

    /// A 1-based (or negative, relative) index `text` at `skip` bytes into `tok`, into a list of
    /// `count` elements; the zero-based index.
    fn index(
        &self,
        src: &[u8],
        tok: &Tok<'_>,
        skip: usize,
        text: &[u8],
        what: &str,
        count: usize,
    ) -> Result<usize> {
        let fail = |msg: String| Error::malformed(F, tok.at(src, skip), msg);
        let shown = String::from_utf8_lossy(text);
        let i: i64 = std::str::from_utf8(text)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| fail(format!("expected a {what} index, found `{shown}`")))?;
        let resolved = match i {
            0 => None,
            i if i > 0 => usize::try_from(i).ok().and_then(|i| i.checked_sub(1)),
            i => usize::try_from(i.unsigned_abs())
                .ok()
                .and_then(|back| count.checked_sub(back)),
        };
        match resolved {
            Some(r) if r < count => Ok(r),
            _ => Err(fail(format!(
                "{what} index {i} is out of range: {count} {} defined so far{}",
                match (count, what) {
                    (1, _) => format!("{what} is"),
                    (_, "vertex") => "vertices are".into(),
                    _ => format!("{what}s are"),
                },
                if i == 0 { " (indices start at 1)" } else { "" }
            ))),
        }
    }

    /// The current object, made when a face or line comes before any `o` or `g`.
    fn object(&mut self) -> usize {
        match self.current {
            Some(i) => i,
            None => {
                self.start_object(None);
                self.current.unwrap_or_default()
            }
        }
    }

    fn start_object(&mut self, name: Option<String>) {
        self.current = Some(self.objects.len());
        self.objects.push(Object {
            mesh: Mesh {
                name: name.clone(),
                ..Mesh::default()
            },
            name,
            smoothing: Vec::new(),
        });
    }

    fn group(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) {
        if !self.groups_are_objects {
            self.warn_once(
                "obj g".into(),
                key.at(src, 0),
                "`g` groups inside `o` objects have no place in the model; their faces stay \
                 in the object"
                    .into(),
            );
            return;
        }
        let name = joined(args);
        match name.as_ref().and_then(|n| self.groups.get(n)) {
            Some(&i) => self.current = Some(i),
            None => {
                self.start_object(name.clone());
                if let (Some(n), Some(i)) = (name, self.current) {
                    self.groups.insert(n, i);
                }
            }
        }
    }

    /// The position index in object `obj`'s mesh of global vertex `g`, adding it on first use.
    fn local_position(&mut self, obj: usize, g: usize) -> u32 {
        let stamp = obj.saturating_add(1);
        let (Some(slot), Some(object)) = (self.remap.get_mut(g), self.objects.get_mut(obj)) else {
            return 0;
        };
        if slot.0 == stamp {
            return slot.1;
        }
        let local = to_u32(object.mesh.positions.len());
        object
            .mesh
            .positions
            .push(self.positions.get(g).copied().unwrap_or_default());
        *slot = (stamp, local);
        local
    }

    fn face(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) -> Result<()> {
        if args.len() < 3 {
            return Err(Error::malformed(
                F,
                key.at(src, 0),
                format!(
                    "a face needs at least 3 corners; this one has {}",
                    args.len()
                ),
            ));
        }
        self.budget.charge(
            args.len()
                .saturating_mul(std::mem::size_of::<Corner>())
                .saturating_add(std::mem::size_of::<Face>()),
            "face",
            key.at(src, 0),
        )?;
        let obj = self.object();
        let mut corners = Vec::with_capacity(args.len());
        for tok in args {
            let mut parts = tok.text.splitn(4, |&b| b == b'/');
            let v_text = parts.next().unwrap_or_default();
            let vt_text = parts.next().filter(|t| !t.is_empty());
            let vn_text = parts.next().filter(|t| !t.is_empty());
            if parts.next().is_some() {
                return Err(Error::malformed(
                    F,
                    tok.at(src, 0),
                    format!(
                        "a face corner is v, v/vt, v//vn or v/vt/vn, not `{}`",
                        tok.text()
                    ),
                ));
            }
            let g = self.index(src, tok, 0, v_text, "vertex", self.positions.len())?;
            let vt_skip = v_text.len().saturating_add(1);
            let uv = match vt_text {
                Some(t) => {
                    let i =
                        self.index(src, tok, vt_skip, t, "texture coordinate", self.uvs.len())?;
                    self.uvs.get(i).copied()
                }
                None => None,
            };
            let normal = match vn_text {
                Some(t) => {
                    let skip = vt_skip
                        .saturating_add(vt_text.map_or(0, <[u8]>::len))
                        .saturating_add(1);
                    let i = self.index(src, tok, skip, t, "normal", self.normals.len())?;
                    self.normals.get(i).copied().flatten()
                }
                None => None,
            };
            let color = self.colors.get(g).copied().flatten();
            let position = self.local_position(obj, g);
            corners.push(Corner {
                position,
                normal,
                uv,
                color,
            });
        }
        let material = self.material;
        let smoothing = self.smoothing;
        if let Some(object) = self.objects.get_mut(obj) {
            object.mesh.faces.push(Face { corners, material });
            object.smoothing.push(smoothing);
        }
        Ok(())
    }

    fn line(&mut self, src: &[u8], key: &Tok<'_>, args: &[Tok<'_>]) -> Result<()> {
        if args.len() < 2 {
            return Err(Error::malformed(
                F,
                key.at(src, 0),
                format!(
                    "a line needs at least 2 points; this one has {}",
                    args.len()
                ),
            ));
        }
        self.budget.charge(
            args.len().saturating_mul(std::mem::size_of::<u32>()),
            "line",
            key.at(src, 0),
        )?;
        let obj = self.object();
        let mut points = Vec::with_capacity(args.len());
        for tok in args {
            let mut parts = tok.text.splitn(3, |&b| b == b'/');
            let v_text = parts.next().unwrap_or_default();
            let _uv = parts.next();
            if parts.next().is_some() {
                return Err(Error::malformed(
                    F,
                    tok.at(src, 0),
                    format!("a line point is v or v/vt, not `{}`", tok.text()),
                ));
            }
            let g = self.index(src, tok, 0, v_text, "vertex", self.positions.len())?;
            points.push(self.local_position(obj, g));
        }
        let closed = points.len() >= 3 && points.first() == points.last();
        if closed {
            points.pop();
        }
        let material = self.material;
        if let Some(object) = self.objects.get_mut(obj) {
            object.mesh.lines.push(Polyline {
                points,
                closed,
                material,
            });
        }
        Ok(())
    }

    fn smoothing_group(&mut self, src: &[u8], args: &[Tok<'_>]) -> Result<()> {
        self.smoothing = match args.first() {
            None => 0,
            Some(t) if matches!(t.text, b"off" | b"null") => 0,
            Some(t) => std::str::from_utf8(t.text)
                .ok()
                .and_then(|s| s.parse::<u32>().ok())
                .ok_or_else(|| {
                    Error::malformed(
                        F,
                        t.at(src, 0),
                        format!(
                            "expected a smoothing group number or `off`, found `{}`",
                            t.text()
                        ),
                    )
                })?,
        };
        Ok(())
    }

    /// The index of the material called `name`, made (as a placeholder until an MTL defines it)
    /// when it is new.
    fn material_named(&mut self, name: String, src: &[u8], key: &Tok<'_>) -> usize {
        if let Some(&i) = self.material_index.get(&name) {
            if let Some(slot @ None) = self.first_use.get_mut(i) {
                *slot = Some(key.at(src, 0));
            }
            return i;
        }
        let i = self.new_material(name);
        if let Some(slot) = self.first_use.get_mut(i) {
            *slot = Some(key.at(src, 0));
        }
        i
    }

    fn new_material(&mut self, name: String) -> usize {
        let i = self.materials.len();
        self.materials.push(Material {
            name: Some(name.clone()),
            ..Material::default()
        });
        self.defined.push(false);
        self.first_use.push(None);
        self.material_index.insert(name, i);
        i
    }

    fn mtllib(&mut self, src: &[u8], args: &[Tok<'_>]) {
        // A file name with spaces is one name to Blender and several to the spec: try it whole
        // first, then word by word.
        if args.len() > 1
            && let Some(whole) = joined(args)
        {
            if self.loaded_mtl.contains(&whole) {
                return;
            }
            if let Some(bytes) = (self.resolve)(&whole) {
                self.loaded_mtl.insert(whole.clone());
                self.mtl(&whole, &bytes);
                return;
            }
        }
        for tok in args {
            let name = tok.text();
            if !self.loaded_mtl.insert(name.clone()) {
                continue;
            }
            match (self.resolve)(&name) {
                Some(bytes) => self.mtl(&name, &bytes),
                None => {
                    let at = tok.at(src, 0);
                    self.warnings.push(Warning::warning(
                        F,
                        at,
                        format!("material library `{name}` could not be read; its materials are defaults"),
                    ));
                }
            }
        }
    }

    /// The scene, after the last statement.
    fn finish(mut self) -> (Scene, Vec<Warning>) {
        let mut scene = Scene::new(F);
        for (i, defined) in self.defined.iter().enumerate() {
            if !defined {
                let name = self
                    .materials
                    .get(i)
                    .and_then(|m| m.name.clone())
                    .unwrap_or_default();
                let at = self.first_use.get(i).cloned().flatten().unwrap_or_default();
                self.warnings.push(Warning::warning(
                    F,
                    at,
                    format!(
                        "material `{name}` is not defined in any material library; it is a \
                         white default"
                    ),
                ));
            }
        }
        for object in std::mem::take(&mut self.objects) {
            let Object {
                name,
                mut mesh,
                smoothing,
            } = object;
            if mesh.faces.is_empty() && mesh.lines.is_empty() {
                continue;
            }
            shade(&mut mesh, &smoothing);
            for f in &mesh.faces {
                if f.corners.iter().any(|c| c.color.is_some())
                    && let Some(m) = f.material.and_then(|m| self.materials.get_mut(m))
                {
                    m.vertex_colors = true;
                }
            }
            let mesh_index = scene.meshes.len();
            scene.meshes.push(mesh);
            scene.add_root(Node {
                name,
                mesh: Some(mesh_index),
                ..Node::default()
            });
        }
        scene.materials = self.materials;
        scene.textures = self.textures;
        (scene, self.warnings)
    }
}

/// Flat shading and hard edges from smoothing groups, for a mesh without normals.
fn shade(mesh: &mut Mesh, smoothing: &[u32]) {
    let has_normals = mesh
        .faces
        .iter()
        .any(|f| f.corners.iter().any(|c| c.normal.is_some()));
    if has_normals || mesh.faces.is_empty() {
        return;
    }
    if smoothing.iter().all(|&s| s == 0) {
        mesh.flat = true;
        return;
    }
    let first = smoothing.first().copied().unwrap_or_default();
    if smoothing.iter().all(|&s| s == first) {
        return;
    }
    // Edge -> the smoothing group of the first face seen with it; hard when another face has a
    // different group, or either face is not smoothed.
    let mut seen: HashMap<(u32, u32), u32> = HashMap::new();
    let mut hard: Vec<[u32; 2]> = Vec::new();
    for (face, &group) in mesh.faces.iter().zip(smoothing) {
        let k = face.corners.len();
        for (i, c) in face.corners.iter().enumerate() {
            let next = face
                .corners
                .get(i.wrapping_add(1).checked_rem(k).unwrap_or(0))
                .map_or(c.position, |n| n.position);
            if next == c.position {
                continue;
            }
            let e = (c.position.min(next), c.position.max(next));
            if group == 0 {
                hard.push([e.0, e.1]);
            }
            match seen.get(&e) {
                Some(&g) if g != group => hard.push([e.0, e.1]),
                Some(_) => {}
                None => {
                    seen.insert(e, group);
                }
            }
        }
    }
    hard.sort_unstable();
    hard.dedup();
    mesh.hard_edges = hard;
}

fn joined(args: &[Tok<'_>]) -> Option<String> {
    if args.is_empty() {
        return None;
    }
    let parts: Vec<String> = args.iter().map(Tok::text).collect();
    Some(parts.join(" "))
}

fn parse_f64(text: &[u8]) -> Option<f64> {
    std::str::from_utf8(text)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

fn srgb(v: f64) -> f32 {
    srgb_to_linear(v as f32)
}

// ---------------------------------------------------------------------------------------------
// MTL

/// What one `newmtl` block says, before it becomes a [`Material`].
#[derive(Default)]
struct MtlBlock {
    ka: Option<[f32; 3]>,
    kd: Option<[f32; 3]>,
    ks: Option<[f32; 3]>,
    ke: Option<[f32; 3]>,
    ns: Option<f32>,
    d: Option<f32>,
    tr: Option<f32>,
    pr: Option<f32>,
    pm: Option<f32>,
    illum: Option<f64>,
    ni: Option<f64>,
    map_kd: Option<usize>,
    map_ke: Option<usize>,
    normal: Option<usize>,
}

impl Reader<'_> {
    /// Read the MTL file `file` (named as the OBJ names it).
    fn mtl(&mut self, file: &str, bytes: &[u8]) {
        let mut lexer = Lexer::new(bytes);
        let mut toks: Vec<Tok<'_>> = Vec::new();
        let mut open: Option<(usize, MtlBlock)> = None;
        while lexer.statement(&mut toks) {
            let Some((key, args)) = toks.split_first() else {
                continue;
            };
            if key.text == b"newmtl" {
                if let Some((i, block)) = open.take() {
                    self.define(i, block);
                }
                let Some(name) = joined(args) else {
                    self.mtl_warn(file, bytes, key, "`newmtl` without a name".into());
                    continue;
                };
                let i = match self.material_index.get(&name) {
                    Some(&i) => {
                        if self.defined.get(i).copied().unwrap_or(false) {
                            self.mtl_warn(
                                file,
                                bytes,
                                key,
                                format!("material `{name}` is defined again; the last one is used"),
                            );
                        }
                        i
                    }
                    None => self.new_material(name),
                };
                open = Some((i, MtlBlock::default()));
                continue;
            }
            let Some((_, block)) = open.as_mut() else {
                let k = key.text();
                self.mtl_warn(
                    file,
                    bytes,
                    key,
                    format!("`{k}` before any `newmtl` was skipped"),
                );
                continue;
            };
            if let Err(message) = self.mtl_statement(file, bytes, block, key, args) {
                self.mtl_warn(file, bytes, key, message);
            }
        }
        if let Some((i, block)) = open.take() {
            self.define(i, block);
        }
    }

    fn mtl_warn(&mut self, file: &str, src: &[u8], tok: &Tok<'_>, message: String) {
        self.warnings.push(Warning::warning(
            F,
            Location {
                path: Some(file.into()),
                ..tok.at(src, 0)
            },
            format!("in `{file}`: {message}; the statement was skipped"),
        ));
    }

    /// One statement inside a `newmtl` block; `Err` is a message for a warning.
    fn mtl_statement(
        &mut self,
        file: &str,
        src: &[u8],
        block: &mut MtlBlock,
        key: &Tok<'_>,
        args: &[Tok<'_>],
    ) -> std::result::Result<(), String> {
        let k = key.text();
        let number = |t: Option<&Tok<'_>>| -> std::result::Result<f64, String> {
            let t = t.ok_or_else(|| format!("`{k}` needs a number"))?;
            parse_f64(t.text).ok_or_else(|| {
                let at = t.at(src, 0);
                let col = at.line_col.map_or(0, |(_, c)| c);
                format!(
                    "`{k}`: expected a finite number at column {col}, found `{}`",
                    t.text()
                )
            })
        };
        let color = |args: &[Tok<'_>]| -> std::result::Result<[f32; 3], String> {
            if args
                .first()
                .is_some_and(|t| matches!(t.text, b"spectral" | b"xyz"))
            {
                return Err(format!(
                    "`{k}` colours in spectral or XYZ form are not supported"
                ));
            }
            let r = number(args.first())?;
            let (g, b) = match args.len() {
                1 => (r, r),
                3 => (number(args.get(1))?, number(args.get(2))?),
                n => return Err(format!("`{k}` has {n} numbers; expected r g b or one grey")),
            };
            Ok([r as f32, g as f32, b as f32])
        };
        match key.text {
            b"Ka" => block.ka = Some(color(args)?),
            b"Kd" => block.kd = Some(color(args)?),
            b"Ks" => block.ks = Some(color(args)?),
            b"Ke" => block.ke = Some(color(args)?),
            b"Ns" => block.ns = Some(number(args.first())? as f32),
            // `d -halo 0.5`: the factor is the last word.
            b"d" => block.d = Some(number(args.last())? as f32),
            b"Tr" => block.tr = Some(number(args.first())? as f32),
            b"Pr" => block.pr = Some(number(args.first())? as f32),
            b"Pm" => block.pm = Some(number(args.first())? as f32),
            b"illum" => block.illum = Some(number(args.first())?),
            b"Ni" => block.ni = Some(number(args.first())?),
            b"map_Kd" => block.map_kd = Some(self.map(file, src, key, args)?),
            b"map_Ke" => block.map_ke = Some(self.map(file, src, key, args)?),
            b"map_Bump" | b"map_bump" | b"bump" | b"norm" => {
                block.normal = Some(self.map(file, src, key, args)?)
            }
            _ => {
                self.warn_once(
                    format!("mtl {k}"),
                    Location {
                        path: Some(file.into()),
                        ..key.at(src, 0)
                    },
                    format!("in `{file}`: `{k}` statements are not supported and were skipped"),
                );
            }
        }
        Ok(())
    }

    /// The texture a map statement names, after its options.
    fn map(
        &mut self,
        file: &str,
        src: &[u8],
        key: &Tok<'_>,
        args: &[Tok<'_>],
    ) -> std::result::Result<usize, String> {
        let mut rest = args;
        while let Some((opt, after)) = rest.split_first() {
            if !opt.text.starts_with(b"-") || parse_f64(opt.text).is_some() {
                break;
            }
            // (option, most arguments, how many of them are numbers that may be left out)
            let (max, optional) = match opt.text {
                b"-o" | b"-s" | b"-t" => (3usize, 2usize),
                b"-mm" => (2, 0),
                b"-blendu" | b"-blendv" | b"-bm" | b"-boost" | b"-cc" | b"-clamp" | b"-imfchan"
                | b"-texres" | b"-type" => (1, 0),
                _ => {
                    let o = opt.text();
                    self.warn_once(
                        format!("mtl option {o}"),
                        Location {
                            path: Some(file.into()),
                            ..opt.at(src, 0)
                        },
                        format!("in `{file}`: unknown map option `{o}` was skipped"),
                    );
                    rest = after;
                    continue;
                }
            };
            let required = max.saturating_sub(optional);
            let mut taken = 0usize;
            while taken < max {
                let Some(t) = after.get(taken) else { break };
                if taken >= required && parse_f64(t.text).is_none() {
                    break;
                }
                taken = taken.saturating_add(1);
            }
            let values: Vec<&[u8]> = after.iter().take(taken).map(|t| t.text).collect();
            let default = match opt.text {
                b"-bm" | b"-s" => values.iter().all(|v| parse_f64(v) == Some(1.0)),
                b"-o" | b"-t" | b"-boost" => values.iter().all(|v| parse_f64(v) == Some(0.0)),
                b"-blendu" | b"-blendv" => values.iter().all(|v| *v == b"on"),
                b"-clamp" | b"-cc" => values.iter().all(|v| *v == b"off"),
                b"-mm" => {
                    values.first().and_then(|v| parse_f64(v)) == Some(0.0)
                        && values.get(1).and_then(|v| parse_f64(v)) == Some(1.0)
                }
                _ => false,
            };
            if !default {
                let o = opt.text();
                self.warn_once(
                    format!("mtl option {o}"),
                    Location {
                        path: Some(file.into()),
                        ..opt.at(src, 0)
                    },
                    format!(
                        "in `{file}`: map option `{o}` has no place in the model and was ignored"
                    ),
                );
            }
            rest = after.get(taken..).unwrap_or_default();
        }
        let name = joined(rest).ok_or_else(|| format!("`{}` names no file", key.text()))?;
        if let Some(&i) = self.texture_index.get(&name) {
            return Ok(i);
        }
        let source = match (self.resolve)(&name) {
            Some(data) => match image_mime(&data) {
                Some(mime) => TextureSource::Encoded {
                    mime_type: mime.into(),
                    data,
                },
                None => TextureSource::File(name.clone()),
            },
            None => TextureSource::File(name.clone()),
        };
        let i = self.textures.len();
        self.textures.push(Texture {
            name: Some(name.clone()),
            source,
            extras: Extras::new(),
        });
        self.texture_index.insert(name, i);
        Ok(i)
    }

    /// Material `i` as `block` describes it.
    fn define(&mut self, i: usize, b: MtlBlock) {
        let kd = b.kd.unwrap_or([1.0; 3]);
        let ka = b.ka.unwrap_or([0.0; 3]);
        let ks = b.ks.unwrap_or([0.0; 3]);
        let ke = b.ke.unwrap_or([0.0; 3]);
        let alpha = b.d.or(b.tr.map(|t| 1.0 - t)).unwrap_or(1.0);
        let mut clamped = false;
        let mut unit = |v: f32| {
            let c = v.clamp(0.0, 1.0);
            clamped |= c != v;
            c
        };
        let base_color = [unit(kd[0]), unit(kd[1]), unit(kd[2]), unit(alpha)];
        let emissive = [unit(ke[0]), unit(ke[1]), unit(ke[2])];
        let metallic = unit(b.pm.unwrap_or(0.0));
        let roughness = unit(b.pr.unwrap_or_else(|| {
            b.ns.map_or(1.0, |ns| 1.0 - (ns.clamp(0.0, 1000.0) / 1000.0).sqrt())
        }));
        let mut extras = Extras::new();
        for (key, v) in [(ILLUM_EXTRA, b.illum), (NI_EXTRA, b.ni)] {
            if let Some(v) = v {
                let value = if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) {
                    serde_json::Value::from(v as u64)
                } else {
                    serde_json::Value::from(v)
                };
                extras.insert(key.into(), value);
            }
        }
        let Some(m) = self.materials.get_mut(i) else {
            return;
        };
        *m = Material {
            name: m.name.take(),
            base_color,
            base_color_texture: b.map_kd,
            metallic,
            roughness,
            normal_texture: b.normal,
            emissive,
            emissive_texture: b.map_ke,
            alpha_mode: if base_color[3] < 1.0 {
                AlphaMode::Blend
            } else {
                AlphaMode::Opaque
            },
            phong: Some(Phong {
                ambient: [ka[0], ka[1], ka[2], 1.0],
                diffuse: [kd[0], kd[1], kd[2], alpha],
                specular: [ks[0], ks[1], ks[2], 1.0],
                emission: [ke[0], ke[1], ke[2], 1.0],
                shininess: b.ns.map_or(0.0, |ns| (ns / 1000.0).clamp(0.0, 1.0)),
            }),
            extras,
            ..Material::default()
        };
        if let Some(d) = self.defined.get_mut(i) {
            *d = true;
        }
        if clamped {
            let name = self
                .materials
                .get(i)
                .and_then(|m| m.name.clone())
                .unwrap_or_default();
            self.warn_once(
                "mtl clamped".into(),
                Location::path(format!("materials[{i}]")),
                format!(
                    "material `{name}`: colours or factors outside 0–1 were clamped for the PBR \
                     values (the Phong values keep them)"
                ),
            );
        }
    }
}

/// The MIME type of PNG and JPEG bytes.
fn image_mime(data: &[u8]) -> Option<&'static str> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if data.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}
