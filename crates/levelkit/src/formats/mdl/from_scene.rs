//! A scene to an MDL7 model (`convert model.glb model.mdl`): the common 3D model of a glTF,
//! OBJ, Wings or any other 3D file as the A7 engine's model format, the way MED writes it.
//!
//! * **Groups**: every node with a mesh, in tree order, becomes a group (named after the node,
//!   16 bytes), its positions in the model's space: the node's world transform applied, then
//!   glTF's y-up turned back to Gamestudio's z-up (`x, y, z` → `x, −z, y`, the inverse of what
//!   [`super::scene`] does), so a model read from an MDL comes back in its own numbers.
//! * **Faces**: n-gons fanned into triangles, wound as the file winds them (the reverse of
//!   glTF's); texture coordinates deduplicated per group (`v` flipped back); a corner with none
//!   gets index 0xFFFF, MED's "none". 16-byte triangles (one UV set and its skin: MED writes
//!   16 or 26, and assimp's loader, which reads the 16-byte kind, makes no mesh of MED's
//!   26-byte files, `mdl7-tree2.mdl` among them), 26-byte vertices with a float normal (the
//!   area-weighted average of the faces around it), no bone (0xFFFF).
//! * **Skins**: one per scene material the faces use, in order of first use, all in the first
//!   group (later groups have none and index the first group's, as MED writes several groups).
//!   A base-colour texture of pixels or PNG becomes a B8G8R8 skin (type 4), or B8G8R8A8
//!   (type 5) when a pixel is not opaque; a texture that is a file name becomes an external
//!   skin (type 7) naming it; a material without a texture an MDL7 material (type 0x10) of its
//!   colour. A side that is not a power of two is reported and kept (real models have such
//!   skins: MED's own `mdl7-tree2.mdl`, 72 x 128).
//! * **Frames**: the mesh's morph targets, one frame each, moving every vertex; named by the
//!   morph animation that plays them (`walk1` … `walkN`, the names the engine's frame
//!   animation looks up), else by the target's name. A mesh without targets gets one frame
//!   that moves nothing (the rest pose), named as the node's `frame_name` extra says (an MDL's
//!   one frame, kept by [`super::scene`]), else `frame1`.
//! * **Bones** from the skins' joints, each vertex on its strongest joint, and **bone
//!   frames** from the joint animations, one per key (see [`bones`]). A model with bones
//!   takes its frames from the joint animations only (morph targets are reported and left
//!   out).
//! * **Not written**, each reported: spins (levelkit's endless rotations).
//!
//! The header's record sizes are MED's (36-byte bones, 16-byte triangles, 26-byte vertices), or,
//! for a scene read from an MDL7 (its `extras.mdl7_sizes`), the sizes that file declared where
//! MED writes them too (26-byte triangles with no second UV set, 16-byte vertices with the
//! nearest of the 162 normals, 12-byte triangles when every one uses the first skin), so a
//! model comes back with its own header. Its `data_size` and each group's `data_size` are the
//! byte counts MED writes there.

mod bones;
mod classic;

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::model::*;
use crate::error::{Error, Location, Result, Warning};
use crate::registry::Format;
use crate::scene::{self, Face, Mesh, Scene, TextureSource, Transform};

const F: Format = Format::Mdl;

/// The record sizes MED writes.
const SIZES: StructSizes = StructSizes {
    bone: 36,
    skin: 28,
    color: 16,
    material: 68,
    skin_point: 8,
    triangle: 16,
    main_vertex: 26,
    frame_vertex: 26,
    bone_transform: 68,
    frame: 24,
};

fn warn(path: impl Into<String>, message: impl Into<String>) -> Warning {
    Warning::warning(F, Location::path(path.into()), message.into())
}

fn refuse(path: impl Into<String>, message: impl Into<String>) -> Error {
    Error::malformed(F, Location::path(path.into()), message.into())
}

/// A name in a fixed field of `N` bytes, cut to fit with a NUL after it where there is room.
fn field<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0u8; N];
    for (o, b) in out.iter_mut().zip(text.bytes()) {
        *o = b;
    }
    out
}

/// glTF's y-up to Gamestudio's z-up.
fn to_file(p: [f64; 3]) -> [f32; 3] {
    [p[0] as f32, -p[2] as f32, p[1] as f32]
}

/// Which MDL [`Mdl::from_scene_as`] writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum TargetVersion {
    /// GameStudio A6/A7 `MDL7`: groups, float vertices, bones ([`Mdl::from_scene`]).
    #[default]
    Mdl7,
    /// GameStudio A5 `MDL5`: one mesh, one skin, 16-bit vertex frames; bone animations baked
    /// into the frames.
    Mdl5,
}

impl TargetVersion {
    /// The version a user names: `7`, `5`, `mdl7`, `MDL5`.
    pub fn from_name(name: &str) -> Option<TargetVersion> {
        match name.to_ascii_lowercase().trim_start_matches("mdl") {
            "7" => Some(TargetVersion::Mdl7),
            "5" => Some(TargetVersion::Mdl5),
            _ => None,
        }
    }
}

impl Mdl {
    /// [`Mdl::from_scene`] as the MDL version asked for: an MDL5 is made from the MDL7 (see
    /// the module docs of `from_scene/classic.rs`: one mesh, one skin, bones baked into the
    /// frames), with warnings for what MDL5 cannot hold.
    pub fn from_scene_as(scene: &Scene, version: TargetVersion) -> Result<(Mdl, Vec<Warning>)> {
        let (model, mut warnings) = Mdl::from_scene(scene)?;
        match (version, model) {
            (TargetVersion::Mdl5, Mdl::Mdl7(m)) => {
                let classic = classic::mdl5(&m, &mut warnings)?;
                Ok((Mdl::Classic(classic), warnings))
            }
            (_, model) => Ok((model, warnings)),
        }
    }

    /// An MDL7 model of `scene` (see the module docs), with what did not map. Fails on a
    /// scene that does not hold together, or a group of more than 65,535 vertices or texture
    /// coordinates (MDL7 indexes them with 16 bits).
    pub fn from_scene(scene: &Scene) -> Result<(Mdl, Vec<Warning>)> {
        scene.refuse_invalid(F, "the scene cannot be converted")?;
        let mut warnings = Vec::new();
        if !scene.animations.is_empty() {
            warnings.push(warn(
                "animations",
                format!(
                    "{} spin(s) are not written: MDL frames hold poses, not endless turns",
                    scene.animations.len()
                ),
            ));
        }
        let world = scene.world_matrices();
        let bones = bones::Bones::of(scene, &world)?;
        let bone_frames = bones.frames(scene, &mut warnings);
        let mut split = 0usize;
        let mut skins = SkinTable::default();
        let mut groups = Vec::new();
        for ni in scene.tree_order() {
            let Some(node) = scene.nodes.get(ni) else {
                continue;
            };
            let Some((mi, mesh)) = node.mesh.and_then(|m| Some((m, scene.meshes.get(m)?))) else {
                continue;
            };
            if mesh.faces.is_empty() {
                continue;
            }
            let name = node
                .name
                .as_deref()
                .or(mesh.name.as_deref())
                .unwrap_or("group");
            let path = format!("nodes[{ni}]");
            let mut group = group(
                scene,
                (mi, mesh),
                (ni, &world),
                (&bones, &mut split),
                name,
                &mut skins,
                &mut warnings,
            )
            .map_err(|e| e.in_path(path))?;
            if !bone_frames.is_empty() {
                if scene.morphs_of(mi).is_some() {
                    warnings.push(warn(
                        format!("meshes[{mi}]"),
                        "morph targets are left out: a model with joint animations takes \
                         its frames from them",
                    ));
                }
                group.frames = bone_frames.clone();
            }
            groups.push(group);
        }
        if split > 0 {
            warnings.push(warn(
                "skins",
                format!(
                    "{split} vertices are weighted to several joints; each follows its \
                     strongest (an MDL7 vertex has one bone)"
                ),
            ));
        }
        if groups.is_empty() {
            return Err(refuse("nodes", "the scene has no mesh with faces"));
        }
        let mut first_skins = Vec::with_capacity(skins.order.len());
        for &material in &skins.order {
            first_skins.push(skin(scene, material, &mut warnings));
        }
        if let Some(first) = groups.first_mut() {
            first.skins = first_skins;
        }
        let mut model = Mdl7 {
            header: Mdl7Header {
                version: 0,
                data_size: 0,
                entlump_size: 0,
                medlump_size: 0,
                sizes: SIZES,
            },
            bones: bones.records(scene),
            groups,
            trailer: Vec::new(),
        };
        if let Some(sizes) = source_sizes(scene, &model.groups) {
            with_sizes(&mut model, sizes);
        }
        let sizes = model.header.sizes;
        for g in &mut model.groups {
            g.data_size = i32::try_from(group_bytes(g, &sizes)).unwrap_or(i32::MAX);
        }
        let len = Mdl::Mdl7(model.clone()).write()?.len();
        model.header.data_size = u32::try_from(len)
            .map_err(|_| refuse("groups", format!("{len} bytes do not fit an MDL7 header")))?;
        Ok((Mdl::Mdl7(model), warnings))
    }
}

/// Scene materials in order of first use: their skin indices.
#[derive(Default)]
struct SkinTable {
    order: Vec<usize>,
    index: HashMap<usize, u32>,
}

impl SkinTable {
    fn of(&mut self, material: Option<usize>) -> u32 {
        let Some(m) = material else {
            return u32::MAX;
        };
        let next = self.order.len() as u32;
        *self.index.entry(m).or_insert_with(|| {
            self.order.push(m);
            next
        })
    }
}

/// The bytes of a group without its deformers, as MED writes in `data_size`.
/// The record sizes of the MDL7 the scene was read from ([`super::scene::SIZES_KEY`]), when
/// this writer can write them for `groups`: the bone, triangle and vertex sizes MED writes
/// (12-byte triangles only where every triangle uses skin 0, which they cannot name).
fn source_sizes(scene: &Scene, groups: &[Group]) -> Option<StructSizes> {
    let s: StructSizes =
        serde_json::from_value(scene.extras.get(super::scene::SIZES_KEY)?.clone()).ok()?;
    let fixed = (
        s.skin,
        s.color,
        s.material,
        s.skin_point,
        s.bone_transform,
        s.frame,
    ) == (
        SIZES.skin,
        SIZES.color,
        SIZES.material,
        SIZES.skin_point,
        SIZES.bone_transform,
        SIZES.frame,
    );
    let named = groups
        .iter()
        .flat_map(|g| &g.triangles)
        .all(|t| t.material == 0);
    let ok = fixed
        && matches!(s.bone, 16 | 36 | 48)
        && (matches!(s.triangle, 16 | 26) || (s.triangle == 12 && named))
        && matches!(s.main_vertex, 16 | 26)
        && matches!(s.frame_vertex, 16 | 26);
    ok.then_some(s)
}

/// `m` with its records in `sizes`: bone names of `sizes.bone − 16` bytes; 26-byte triangles
/// with MED's "none" as their second UV set and material; 16-byte vertices with the nearest
/// of the 162 normals instead of the vector.
fn with_sizes(m: &mut Mdl7, sizes: StructSizes) {
    m.header.sizes = sizes;
    let name = usize::from(sizes.bone).saturating_sub(16);
    for b in &mut m.bones {
        b.name.resize(name, 0);
    }
    let index = |v: &mut Vertex7| {
        if let Normal7::Vector(n) = v.normal {
            v.normal = Normal7::Index {
                index: super::normals::nearest(n),
                pad: 0,
            };
        }
    };
    for g in &mut m.groups {
        for t in &mut g.triangles {
            (t.uvs2, t.material2) = if sizes.triangle == 26 {
                ([0xFFFF; 3], u32::MAX)
            } else {
                ([0; 3], 0)
            };
        }
        if sizes.main_vertex == 16 {
            g.vertices.iter_mut().for_each(index);
        }
        if sizes.frame_vertex == 16 {
            g.frames
                .iter_mut()
                .flat_map(|f| f.vertices.iter_mut())
                .for_each(index);
        }
    }
}

fn group_bytes(g: &Group, sizes: &StructSizes) -> usize {
    let skins: usize = g
        .skins
        .iter()
        .map(|s| {
            let data = match &s.data {
                SkinData::None => 0,
                SkinData::Pixels { pixels, mips } => pixels.len() + mips.len(),
                SkinData::Dds(b) | SkinData::External(b) => b.len(),
            };
            28 + data + s.material.map_or(0, |_| 68) + s.effect.as_ref().map_or(0, |e| 4 + e.len())
        })
        .sum();
    let frames: usize = g
        .frames
        .iter()
        .map(|f| 24 + f.vertices.len() * usize::from(sizes.frame_vertex) + f.transforms.len() * 68)
        .sum();
    44 + skins
        + g.uvs.len() * 8
        + g.triangles.len() * usize::from(sizes.triangle)
        + g.vertices.len() * usize::from(sizes.main_vertex)
        + frames
}

fn group(
    scene: &Scene,
    (mi, mesh): (usize, &Mesh),
    (ni, world): (usize, &[[f64; 16]]),
    (bones, split): (&bones::Bones, &mut usize),
    name: &str,
    skins: &mut SkinTable,
    warnings: &mut Vec<Warning>,
) -> Result<Group> {
    let matrix = world.get(ni).unwrap_or(&scene::IDENTITY_MATRIX);
    let n = mesh.positions.len();
    // Where vertex `i` at `p` is in the scene: the node's transform, or for a skinned mesh
    // (whose node glTF leaves untransformed) its joints' bind-pose blend.
    let skin = scene.skins.iter().find(|k| k.mesh == mi);
    let vertex_bones: Vec<u16> = match skin {
        Some(k) if !bones.is_empty() => bones.of_vertices(k, split),
        _ => Vec::new(),
    };
    let bone_of = |i: usize| vertex_bones.get(i).copied().unwrap_or(0xFFFF);
    let blends: Option<Vec<[f64; 16]>> = skin.map(|k| {
        let joint: Vec<[f64; 16]> = k
            .joints
            .iter()
            .zip(&k.inverse_bind_matrices)
            .map(|(&j, ibm)| {
                let w = world.get(j).copied().unwrap_or(scene::IDENTITY_MATRIX);
                scene::mat_mul(&w, ibm)
            })
            .collect();
        (0..n)
            .map(|i| {
                let (js, ws) = (
                    k.vertex_joints.get(i).copied().unwrap_or_default(),
                    k.vertex_weights.get(i).copied().unwrap_or_default(),
                );
                let mut m = [0f64; 16];
                let mut total = 0f64;
                for (&j, &w) in js.iter().zip(&ws) {
                    if let Some(jm) = joint.get(usize::from(j)).filter(|_| w > 0.0) {
                        for (o, x) in m.iter_mut().zip(jm) {
                            *o += f64::from(w) * x;
                        }
                        total += f64::from(w);
                    }
                }
                if total > 0.0 { m } else { *matrix }
            })
            .collect()
    });
    let place_vertex = |i: usize, p: [f64; 3]| -> [f32; 3] {
        let m = blends.as_ref().and_then(|b| b.get(i)).unwrap_or(matrix);
        if *m == scene::IDENTITY_MATRIX {
            to_file(p)
        } else {
            to_file(Transform::Matrix(*m).apply(p))
        }
    };
    // Weld: glTF splits a vertex where its texture coordinates differ; MDL7 keeps them apart
    // from the vertices, so positions equal in the rest pose, on the same bone and in every
    // morph target are one vertex again. Unless the mesh's positions are vertices already:
    // levelkit's glTF reader shares them again by the ids its writer records (and says so),
    // and one used with two texture coordinates was not split (OBJ and Wings share them):
    // those keep their count, duplicates of the source included.
    let sourced = mesh
        .extras
        .get(crate::gltf::keys::SOURCE_VERTICES)
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    let welding = !sourced && !used_with_two_uvs(mesh);
    let morphs = scene.morphs.iter().find(|m| m.mesh == mi);
    let targets = morphs.map_or(&[][..], |m| &m.targets[..]);
    let rest = |i: usize| -> [u64; 3] {
        mesh.positions
            .get(i)
            .map_or([0; 3], |p| p.map(f64::to_bits))
    };
    let (remap, kept) = if !welding {
        // Each position its own vertex, in order.
        let remap: Vec<u16> = (0..n)
            .map(|i| u16::try_from(i).ok().filter(|&k| k != 0xFFFF))
            .collect::<Option<_>>()
            .ok_or_else(|| too_many_vertices(mi))?;
        (remap, (0..n).collect())
    } else if targets.is_empty() {
        weld_by(mi, n, |i| (rest(i), bone_of(i)))?
    } else {
        weld_by(mi, n, |i| {
            let mut key: Vec<u64> = Vec::with_capacity(4 + 3 * targets.len());
            key.extend(rest(i));
            key.push(u64::from(bone_of(i)));
            for t in targets {
                key.extend(t.positions.get(i).map_or([0; 3], |q| q.map(f64::to_bits)));
            }
            key
        })?
    };
    let positions: Vec<[f32; 3]> = kept
        .iter()
        .filter_map(|&i| Some(place_vertex(i, *mesh.positions.get(i)?)))
        .collect();
    let normals = vertex_normals(&positions, &remap, &mesh.faces);
    let vertices = positions
        .iter()
        .zip(&normals)
        .zip(&kept)
        .map(|((&position, &normal), &i)| Vertex7 {
            position,
            index: bone_of(i),
            normal: Normal7::Vector(normal),
        })
        .collect();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    let mut uv_index: HashMap<[u32; 2], u16> = HashMap::new();
    let mut triangles = Vec::new();
    for (fi, face) in mesh.faces.iter().enumerate() {
        let material = skins.of(face.material);
        let mut corners = Vec::with_capacity(face.corners.len());
        for c in &face.corners {
            if c.position as usize >= n {
                return Err(refuse(
                    format!("meshes[{mi}].faces[{fi}]"),
                    "a corner names a position the mesh does not have",
                ));
            }
            let uv = match c.uv {
                Some([u, v]) => {
                    let uv = [u as f32, (1.0 - v) as f32];
                    let key = uv.map(f32::to_bits);
                    match uv_index.get(&key) {
                        Some(&i) => i,
                        None => {
                            let i = u16::try_from(uvs.len())
                                .ok()
                                .filter(|&i| i != 0xFFFF)
                                .ok_or_else(|| {
                                    refuse(
                                        format!("meshes[{mi}]"),
                                        "more than 65,535 texture coordinates in one group",
                                    )
                                })?;
                            uvs.push(uv);
                            uv_index.insert(key, i);
                            i
                        }
                    }
                }
                None => 0xFFFF,
            };
            let vertex = remap.get(c.position as usize).copied().unwrap_or(0);
            corners.push((vertex, uv));
        }
        // Reversed: the file winds its triangles the other way round.
        corners.reverse();
        let Some(&first) = corners.first() else {
            continue;
        };
        for pair in corners.get(1..).unwrap_or_default().windows(2) {
            if let [b, c] = *pair {
                triangles.push(Triangle7 {
                    vertices: [first.0, b.0, c.0].map(u32::from),
                    uvs: [first.1, b.1, c.1].map(u32::from),
                    material,
                    // Not in a 16-byte triangle.
                    uvs2: [0; 3],
                    material2: 0,
                });
            }
        }
    }
    let frames = frames(scene, (mi, ni), &kept, &place_vertex, warnings);
    Ok(Group {
        kind: 1,
        max_weights: 0,
        unused: 0,
        data_size: 0,
        name: field(name),
        skins: Vec::new(),
        uvs,
        triangles,
        vertices,
        frames,
        deformers: Vec::new(),
    })
}

fn too_many_vertices(mi: usize) -> Error {
    refuse(
        format!("meshes[{mi}]"),
        "more than 65,535 distinct vertices: an MDL7 group indexes 16 bits",
    )
}

/// The vertices of a mesh's `n` positions once those of equal `key` are one: for each position
/// its vertex index, and for each vertex the first position that made it. An MDL7 group indexes
/// 16 bits, 0xFFFF meaning none, so more than 65,535 vertices are refused.
fn weld_by<K: std::hash::Hash + Eq>(
    mi: usize,
    n: usize,
    key: impl Fn(usize) -> K,
) -> Result<(Vec<u16>, Vec<usize>)> {
    let mut weld: HashMap<K, u16> = HashMap::with_capacity(n);
    let mut remap = Vec::with_capacity(n);
    let mut kept = Vec::new();
    for i in 0..n {
        let next = kept.len();
        let index = match weld.entry(key(i)) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let k = u16::try_from(next)
                    .ok()
                    .filter(|&k| k != 0xFFFF)
                    .ok_or_else(|| too_many_vertices(mi))?;
                kept.push(i);
                *e.insert(k)
            }
        };
        remap.push(index);
    }
    Ok((remap, kept))
}

/// Whether a position of `mesh` is used with two different texture coordinates.
fn used_with_two_uvs(mesh: &Mesh) -> bool {
    let mut seen: HashMap<u32, [u64; 2]> = HashMap::new();
    for c in mesh.faces.iter().flat_map(|f| &f.corners) {
        let Some(uv) = c.uv.map(|t| t.map(f64::to_bits)) else {
            continue;
        };
        if *seen.entry(c.position).or_insert(uv) != uv {
            return true;
        }
    }
    false
}

/// Each vertex's normal: the area-weighted sum of its faces' normals, in the file's winding
/// (unit length; straight up for a vertex of no face).
fn vertex_normals(positions: &[[f32; 3]], remap: &[u16], faces: &[Face]) -> Vec<[f32; 3]> {
    let mut sums = vec![[0f64; 3]; positions.len()];
    let welded = |i: u32| remap.get(i as usize).map(|&k| usize::from(k));
    let at = |i: u32| {
        welded(i)
            .and_then(|k| positions.get(k))
            .map(|p| p.map(f64::from))
    };
    for face in faces {
        let Some(a) = face.corners.first().and_then(|c| at(c.position)) else {
            continue;
        };
        for pair in face.corners.get(1..).unwrap_or_default().windows(2) {
            let (Some(b), Some(c)) = (
                pair.first().and_then(|c| at(c.position)),
                pair.get(1).and_then(|c| at(c.position)),
            ) else {
                continue;
            };
            let (u, v) = (
                [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
                [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
            );
            // The scene's winding is counter-clockwise; the file's the reverse, and its
            // normals point the same way out: the cross product of the scene's order.
            let cross = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            for corner in face.corners.iter() {
                if let Some(s) = welded(corner.position).and_then(|k| sums.get_mut(k)) {
                    for (s, x) in s.iter_mut().zip(cross) {
                        *s += x;
                    }
                }
            }
        }
    }
    sums.into_iter()
        .map(|s| {
            let len = (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt();
            if len > 0.0 && len.is_finite() {
                s.map(|x| (x / len) as f32)
            } else {
                [0.0, 0.0, 1.0]
            }
        })
        .collect()
}

/// The frames of mesh `mi` on node `ni` (see the module docs).
fn frames(
    scene: &Scene,
    (mi, ni): (usize, usize),
    kept: &[usize],
    place: &dyn Fn(usize, [f64; 3]) -> [f32; 3],
    warnings: &mut Vec<Warning>,
) -> Vec<Frame7> {
    let own = scene
        .nodes
        .get(ni)
        .and_then(|n| n.extras.get(super::scene::FRAME_NAME))
        .and_then(serde_json::Value::as_str);
    let rest = || Frame7 {
        name: field(own.unwrap_or("frame1")),
        vertices: Vec::new(),
        transforms: Vec::new(),
    };
    let Some(morphs) = scene.morphs.iter().find(|m| m.mesh == mi) else {
        return vec![rest()];
    };
    // Names from the animations that play the targets: `walk1` … `walkN`.
    let mut names: Vec<Option<String>> = vec![None; morphs.targets.len()];
    for a in scene.morph_animations.iter().filter(|a| a.node == ni) {
        let base = a.name.as_deref().unwrap_or("frame");
        for (k, &t) in a.targets.iter().enumerate() {
            if let Some(slot) = names.get_mut(t)
                && slot.is_none()
            {
                // A target already named as a frame of this animation (an MDL's own
                // `walk 0`) keeps its name.
                let own = morphs
                    .targets
                    .get(t)
                    .and_then(|x| x.name.clone())
                    .filter(|n| super::scene::animation_name(n) == base);
                *slot = Some(own.unwrap_or_else(|| format!("{base}{}", k + 1)));
            }
        }
    }
    let mut out = Vec::with_capacity(morphs.targets.len());
    for (t, target) in morphs.targets.iter().enumerate() {
        let name = names
            .get(t)
            .cloned()
            .flatten()
            .or_else(|| target.name.clone())
            .unwrap_or_else(|| format!("frame{}", t + 1));
        if name.len() > 16 {
            warnings.push(warn(
                format!("morphs[{mi}].targets[{t}]"),
                format!("frame name {name:?} is cut to 16 bytes"),
            ));
        }
        out.push(Frame7 {
            name: field(&name),
            vertices: kept
                .iter()
                .enumerate()
                .filter_map(|(k, &i)| {
                    Some(Vertex7 {
                        position: place(i, *target.positions.get(i)?),
                        index: k as u16,
                        normal: Normal7::Vector([0.0, 0.0, 1.0]),
                    })
                })
                .collect(),
            transforms: Vec::new(),
        });
    }
    if out.is_empty() {
        out.push(rest());
    }
    out
}

/// The skin of scene material `m` (see the module docs).
fn skin(scene: &Scene, m: usize, warnings: &mut Vec<Warning>) -> Skin7 {
    let material = scene.materials.get(m);
    let name = field(material.and_then(|m| m.name.as_deref()).unwrap_or("skin"));
    let path = format!("materials[{m}]");
    let colour = || {
        let c = material.map_or([1.0; 4], |m| m.base_color);
        Skin7 {
            kind: 0x10,
            unused: [0; 3],
            width: 0,
            height: 0,
            name,
            data: SkinData::None,
            material: Some(Material7 {
                diffuse: c,
                ambient: c,
                specular: [0.0; 4],
                emissive: [0.0; 4],
                power: 0.0,
            }),
            effect: None,
        }
    };
    let Some(texture) = material
        .and_then(|m| m.base_color_texture)
        .and_then(|t| scene.textures.get(t))
    else {
        return colour();
    };
    let (width, height, channels, pixels) = match &texture.source {
        TextureSource::Pixels {
            width,
            height,
            channels,
            data,
        } => (*width, *height, *channels, data.clone()),
        TextureSource::Encoded { mime_type, data } if mime_type == "image/png" => {
            match crate::encoding::decode_png(data) {
                Ok(p) => p,
                Err(e) => {
                    warnings.push(warn(&path, format!("its texture is not readable: {e}")));
                    return colour();
                }
            }
        }
        TextureSource::Encoded { mime_type, .. } => {
            warnings.push(warn(
                &path,
                format!("its texture is {mime_type}, which levelkit does not decode; no skin"),
            ));
            return colour();
        }
        TextureSource::File(uri) => {
            let file = uri.rsplit(['/', '\\']).next().unwrap_or(uri);
            let mut bytes = file.as_bytes().to_vec();
            bytes.push(0);
            return Skin7 {
                kind: 7,
                unused: [0; 3],
                width: i32::try_from(bytes.len()).unwrap_or(0),
                height: 1,
                name,
                data: SkinData::External(bytes),
                material: None,
                effect: None,
            };
        }
    };
    let rgba = to_rgba(channels, &pixels);
    if rgba.len() != (width as usize) * (height as usize) * 4 || width == 0 || height == 0 {
        warnings.push(warn(
            &path,
            "its texture's pixels do not match its size; no skin",
        ));
        return colour();
    }
    if !width.is_power_of_two() || !height.is_power_of_two() {
        // Reported, not resized: real models have such skins and the engine draws them (MED's
        // own `mdl7-tree2.mdl`, 72 x 128; the MDL5 `Sword2.MDL`, 12 x 64), and a resized
        // skin would not come back as the picture it was.
        warnings.push(warn(
            &path,
            format!(
                "skin of {width} x {height}: a side is not a power of two, which some 3D \
                 cards of the engine's day could not draw (kept as it is)"
            ),
        ));
    }
    let opaque = rgba.chunks_exact(4).all(|p| p.get(3) == Some(&255));
    let data: Vec<u8> = if opaque {
        rgba.chunks_exact(4)
            .flat_map(|p| match *p {
                [r, g, b, _] => vec![b, g, r],
                _ => Vec::new(),
            })
            .collect()
    } else {
        rgba.chunks_exact(4)
            .flat_map(|p| match *p {
                [r, g, b, a] => vec![b, g, r, a],
                _ => Vec::new(),
            })
            .collect()
    };
    Skin7 {
        kind: if opaque { 4 } else { 5 },
        unused: [0; 3],
        width: i32::try_from(width).unwrap_or(0),
        height: i32::try_from(height).unwrap_or(0),
        name,
        data: SkinData::Pixels {
            pixels: data,
            mips: Vec::new(),
        },
        material: None,
        effect: None,
    }
}

/// 8-bit pixels of 1 to 4 channels as RGBA.
fn to_rgba(channels: u8, pixels: &[u8]) -> Vec<u8> {
    let c = usize::from(channels.clamp(1, 4));
    pixels
        .chunks_exact(c)
        .flat_map(|p| match *p {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a] => [r, g, b, a],
            _ => [0, 0, 0, 255],
        })
        .collect()
}
