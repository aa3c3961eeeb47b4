//! An MDL model as a [`Scene`]: one mesh per MDL7 group (one for the classic versions), the
//! first skin as the base colour texture, vertex animation frames as morph targets with one
//! animation per frame-name group (`walk1`..`walk8` -> `walk`).
//!
//! * Positions stay in the model's z-up coordinates; a root node `model` turns the model
//!   upright for glTF (−90° about x), as the level scenes do.
//! * Triangles are turned counter-clockwise (Quake and GameStudio list them clockwise seen from
//!   the front: assimp reverses them too).
//! * Texture coordinates: Quake and MDL2–4 texels are sampled at their centre,
//!   `(s + 0.5) / width` (GLQuake and assimp; libgamestudio divides by `width − 1` instead),
//!   back-half seam vertices of Quake triangles move right by half the skin; MDL5 skin
//!   vertices are divided by the first skin's size (assimp); MDL7 UVs are 0–1 already. All are
//!   stored v-down and flipped to the scene's v-up.
//! * The classic base pose is the first frame; with more than one frame, every frame is a
//!   morph target. MDL7 frames that move vertices are morph targets over the group's
//!   vertices. Frames are shown at 10 per second (Quake's model frame rate).
//! * MDL7 bones become a skin (see `check_bones` for when): a joint node per bone in their
//!   hierarchy under the model root, at the bone's position relative to its parent's; each
//!   vertex bound with weight 1 to the bone its `index` names (vertices with none to the
//!   model root); the inverse bind matrices are the bones' absolute rest positions negated.
//!   The skinned mesh's node is a root of its own (glTF ignores a skinned mesh's own
//!   transform). Frames with bone matrices become joint animations, one per frame-name
//!   group. The deformers' weights (A7's several bones per vertex) are kept in the model, not
//!   used. The bones are also listed in the scene's `extras.bones`. When the bones do not
//!   hold together, a warning says why and the mesh is exported unskinned with its frames'
//!   matrix counts in `extras.bone_frames`.

use serde_json::{Value, json};

use super::model::*;
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::scene::transform::decompose;
use crate::scene::{
    Corner, Extras, Face, JointAnimation, JointTrack, Material, Mesh, MorphAnimation, MorphTarget,
    Morphs, Node, Scene, Skin as SceneSkin, Texture, TextureSource, Transform,
};

const F: Format = Format::Mdl;

/// Seconds per animation frame.
pub const SECONDS_PER_FRAME: f64 = 0.1;

fn warn(path: impl Into<String>, message: impl Into<String>) -> Warning {
    Warning::warning(F, Location::path(path), message)
}

/// The model as a scene (see the module docs).
pub fn to_scene(mdl: &Mdl) -> (Scene, Vec<Warning>) {
    let mut scene = Scene::new(F);
    let mut warnings = Vec::new();
    let half = std::f64::consts::FRAC_1_SQRT_2;
    let root = scene.add_root(Node {
        name: Some("model".into()),
        transform: Transform::Trs {
            translation: [0.0; 3],
            rotation: [-half, 0.0, 0.0, half],
            scale: [1.0; 3],
        },
        ..Node::default()
    });
    match mdl {
        Mdl::Classic(c) => classic(&mut scene, root, c, &mut warnings),
        Mdl::Mdl7(m) => mdl7(&mut scene, root, m, &mut warnings),
    }
    (scene, warnings)
}

/// The name of the animation a frame belongs to: its name without trailing digits, spaces
/// and underscores (`walk3` -> `walk`, `walk 0` -> `walk`); the whole name if that leaves
/// nothing.
pub fn animation_name(frame: &str) -> &str {
    let stem = frame.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == '_');
    if stem.is_empty() { frame } else { stem }
}

/// Add a mesh node under `root` with its morph targets and one animation per run of frames
/// with the same animation name.
/// The scene extra that keeps an MDL7's record sizes (`{"triangle": 26, …}`), so that a model
/// written from the scene declares the sizes the file did.
pub(crate) const SIZES_KEY: &str = "mdl7_sizes";

/// The node extra that names the one frame of a mesh that has only one (`frame01`).
pub(crate) const FRAME_NAME: &str = "frame_name";

fn add_mesh(
    scene: &mut Scene,
    root: Option<usize>,
    mesh: Mesh,
    frames: Vec<(String, Vec<[f64; 3]>)>,
    extras: Extras,
) -> usize {
    let mesh_index = scene.meshes.len();
    let name = mesh.name.clone();
    scene.meshes.push(mesh);
    let mut extras = extras;
    if let [(frame, _)] = &frames[..] {
        // One frame is the mesh itself, no morph target: its name is kept on the node, so a
        // model written from the scene names its frame as the file did.
        extras.insert(FRAME_NAME.into(), json!(frame));
    }
    let node = scene.nodes.len();
    scene.nodes.push(Node {
        name,
        mesh: Some(mesh_index),
        extras,
        ..Node::default()
    });
    if let Some(r) = root.and_then(|r| scene.nodes.get_mut(r)) {
        r.children.push(node);
    }
    if frames.len() > 1 {
        let mut runs: Vec<(String, Vec<usize>)> = Vec::new();
        for (k, (frame, _)) in frames.iter().enumerate() {
            let anim = animation_name(frame);
            match runs.last_mut() {
                Some((last, list)) if last == anim => list.push(k),
                _ => runs.push((anim.to_owned(), vec![k])),
            }
        }
        scene.morphs.push(Morphs {
            mesh: mesh_index,
            targets: frames
                .into_iter()
                .map(|(name, positions)| MorphTarget {
                    name: Some(name),
                    positions,
                })
                .collect(),
        });
        for (name, targets) in runs {
            scene.morph_animations.push(MorphAnimation {
                name: Some(name),
                node,
                targets,
                seconds_per_frame: SECONDS_PER_FRAME,
            });
        }
    }
    node
}

// ---- classic ---------------------------------------------------------------------------------

fn unpack(h: &ClassicHeader, v: &PackedVertex) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (k, o) in out.iter_mut().enumerate() {
        let raw = f64::from(v.position.get(k).copied().unwrap_or(0));
        let scale = f64::from(h.scale.get(k).copied().unwrap_or(1.0));
        let offset = f64::from(h.translate.get(k).copied().unwrap_or(0.0));
        *o = raw * scale + offset;
    }
    out
}

/// Every pose of a classic model in file order (group frames contribute all their poses).
pub fn poses(c: &Classic) -> Vec<&Pose> {
    let mut out = Vec::new();
    for f in &c.frames {
        match f {
            Frame::Single { pose, .. } => out.push(pose),
            Frame::Group { poses, .. } => out.extend(poses.iter()),
        }
    }
    out
}

fn classic(scene: &mut Scene, root: usize, c: &Classic, warnings: &mut Vec<Warning>) {
    let poses = poses(c);
    let Some(first) = poses.first() else {
        warnings.push(warn(
            "frames",
            "the model has no frames, so no vertex positions",
        ));
        return;
    };
    let h = &c.header;
    let positions: Vec<[f64; 3]> = first.vertices.iter().map(|v| unpack(h, v)).collect();
    let n = positions.len();

    // The texture and the size texture coordinates are divided by.
    let mut size = (f64::from(h.skin_width), f64::from(h.skin_height));
    let material = match c.skins.first() {
        Some(skin) => {
            let (texture, dims) = classic_texture(c, skin, warnings);
            if c.version == ClassicVersion::Mdl5
                && let Some((w, h)) = dims
            {
                size = (f64::from(w), f64::from(h));
            }
            let texture = texture.map(|t| {
                scene.textures.push(t);
                scene.textures.len() - 1
            });
            scene.materials.push(Material {
                name: Some("skin 0".into()),
                base_color_texture: texture,
                ..Material::default()
            });
            Some(scene.materials.len() - 1)
        }
        None => None,
    };
    let (w, hgt) = (size.0.max(1.0), size.1.max(1.0));
    let centre = if c.version == ClassicVersion::Mdl5 {
        0.0
    } else {
        0.5
    };

    let mut mesh = Mesh {
        name: Some("mesh".into()),
        positions,
        ..Mesh::default()
    };
    let mut skipped = 0usize;
    match (&c.triangles, &c.texcoords) {
        (Triangles::Quake(tris), TexCoords::Quake(tcs)) => {
            for t in tris {
                let Some(corners) = t
                    .vertices
                    .iter()
                    .rev()
                    .map(|&v| {
                        let vi = usize::try_from(v).ok().filter(|&v| v < n)?;
                        let tc = tcs.get(vi)?;
                        let mut s = f64::from(tc.s);
                        if t.faces_front == 0 && tc.on_seam != 0 {
                            s += w / 2.0;
                        }
                        Some(Corner {
                            position: u32::try_from(vi).ok()?,
                            uv: Some([(s + centre) / w, 1.0 - (f64::from(tc.t) + centre) / hgt]),
                            ..Corner::default()
                        })
                    })
                    .collect::<Option<Vec<_>>>()
                else {
                    skipped += 1;
                    continue;
                };
                mesh.faces.push(Face { corners, material });
            }
        }
        (Triangles::Skin(tris), TexCoords::Skin(uvs)) => {
            for t in tris {
                let Some(corners) = t
                    .vertices
                    .iter()
                    .zip(&t.uvs)
                    .rev()
                    .map(|(&v, &uv)| {
                        let vi = usize::from(v);
                        if vi >= n {
                            return None;
                        }
                        let uv = uvs.get(usize::from(uv)).map(|&[s, t]| {
                            [
                                (f64::from(s) + centre) / w,
                                1.0 - (f64::from(t) + centre) / hgt,
                            ]
                        });
                        Some(Corner {
                            position: u32::from(v),
                            uv,
                            ..Corner::default()
                        })
                    })
                    .collect::<Option<Vec<_>>>()
                else {
                    skipped += 1;
                    continue;
                };
                mesh.faces.push(Face { corners, material });
            }
        }
        _ => warnings.push(warn(
            "triangles",
            "triangles and texture coordinates are of different versions; no faces",
        )),
    }
    if skipped > 0 {
        warnings.push(warn(
            "triangles",
            format!("{skipped} triangles name a vertex that does not exist; left out"),
        ));
    }
    let frames: Vec<(String, Vec<[f64; 3]>)> = poses
        .iter()
        .map(|p| {
            (
                name_text(&p.name),
                p.vertices.iter().map(|v| unpack(h, v)).collect(),
            )
        })
        .collect();
    let mut extras = Extras::new();
    extras.insert("version".into(), json!(format!("{:?}", c.version)));
    extras.insert("flags".into(), json!(h.flags));
    add_mesh(scene, Some(root), mesh, frames, extras);
}

/// The first skin as a texture, and its size (MDL5 skins have their own).
fn classic_texture(
    c: &Classic,
    skin: &Skin,
    warnings: &mut Vec<Warning>,
) -> (Option<Texture>, Option<(u32, u32)>) {
    let w = u32::try_from(c.header.skin_width).unwrap_or(0);
    let h = u32::try_from(c.header.skin_height).unwrap_or(0);
    match skin {
        Skin::Group { pictures, .. } => {
            let Some(p) = pictures.first() else {
                return (None, None);
            };
            (decode(0, w, h, p, "skins[0]", warnings), Some((w, h)))
        }
        Skin::Single {
            kind, size, pixels, ..
        } => {
            let (w, h) = size.map_or((w, h), |[a, b]| (a, b));
            if kind & 7 == 6 {
                warnings.push(warn("skins[0]", "DDS skins are not decoded; no texture"));
                return (None, None);
            }
            (
                decode(*kind, w, h, pixels, "skins[0]", warnings),
                Some((w, h)),
            )
        }
    }
}

/// Decode a picture of skin type `kind` to an RGBA texture.
fn decode(
    kind: u32,
    width: u32,
    height: u32,
    pixels: &[u8],
    path: &str,
    warnings: &mut Vec<Warning>,
) -> Option<Texture> {
    let n = (width as usize).checked_mul(height as usize)?;
    if n == 0 {
        return None;
    }
    let mut rgba = Vec::with_capacity(n.checked_mul(4)?);
    match kind & 7 {
        0 => {
            warnings.push(warn(
                path,
                "8-bit skins index a palette the file does not carry (Quake's palette.lmp); \
                 the indices are shown as grey levels",
            ));
            for &i in pixels.iter().take(n) {
                rgba.extend([i, i, i, 255]);
            }
        }
        2 => {
            for c in pixels.chunks_exact(2).take(n) {
                let v = u16::from_le_bytes([c.first().copied()?, c.get(1).copied()?]);
                let r = ((v >> 11) & 31) as u8;
                let g = ((v >> 5) & 63) as u8;
                let b = (v & 31) as u8;
                rgba.extend([r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2, 255]);
            }
        }
        3 => {
            for c in pixels.chunks_exact(2).take(n) {
                let v = u16::from_le_bytes([c.first().copied()?, c.get(1).copied()?]);
                let nib = |s: u16| ((v >> s) & 15) as u8 * 17;
                rgba.extend([nib(8), nib(4), nib(0), nib(12)]);
            }
        }
        4 => {
            for c in pixels.chunks_exact(3).take(n) {
                if let [b, g, r] = *c {
                    rgba.extend([r, g, b, 255]);
                }
            }
        }
        5 => {
            for c in pixels.chunks_exact(4).take(n) {
                if let [b, g, r, a] = *c {
                    rgba.extend([r, g, b, a]);
                }
            }
        }
        _ => return None,
    }
    if rgba.len() != n.checked_mul(4)? {
        warnings.push(warn(
            path,
            "the skin has fewer pixels than its size; no texture",
        ));
        return None;
    }
    Some(Texture {
        name: None,
        source: TextureSource::Pixels {
            width,
            height,
            channels: 4,
            data: rgba,
        },
        extras: Extras::new(),
    })
}

// ---- MDL7 ------------------------------------------------------------------------------------

fn mdl7(scene: &mut Scene, root: usize, m: &Mdl7, warnings: &mut Vec<Warning>) {
    if let Ok(sizes) = serde_json::to_value(m.header.sizes) {
        scene.extras.insert(SIZES_KEY.into(), sizes);
    }
    let skeleton = if m.bones.is_empty() {
        None
    } else {
        let bones: Vec<Value> = m
            .bones
            .iter()
            .map(|b| {
                json!({
                    "name": name_text(&b.name),
                    "parent": (b.parent != 0xffff).then_some(b.parent),
                    "position": b.position,
                })
            })
            .collect();
        scene.extras.insert("bones".into(), Value::Array(bones));
        match check_bones(m) {
            Ok(absolute) => Some(add_skeleton(scene, root, m, absolute)),
            Err(why) => {
                warnings.push(warn(
                    "bones",
                    format!(
                        "{} bones are kept in extras.bones but not made a glTF skin: {why}",
                        m.bones.len()
                    ),
                ));
                None
            }
        }
    };
    for (gi, g) in m.groups.iter().enumerate() {
        let skinned = group(scene, root, gi, g, skeleton.as_ref(), warnings);
        if let (true, Some(skeleton)) = (skinned, &skeleton) {
            bone_animations(scene, m, g, skeleton);
        }
    }
}

/// The joint nodes of the bones, and each bone's absolute rest position.
struct Skeleton {
    /// The model root first (the joint of vertices with no bone), then one node per bone.
    joints: Vec<usize>,
    /// Bone rest positions in model space.
    absolute: Vec<[f64; 3]>,
}

/// Whether the bones can be a skin: parents exist and form no cycle, every per-vertex bone
/// index and every frame matrix names a bone, and every frame matrix is a rotation and a
/// translation. Returns the bones' absolute rest positions (a bone's position is relative to
/// its parent's: summed down the tree they land on the vertices they move in
/// `mdl7-player.mdl`).
fn check_bones(m: &Mdl7) -> Result<Vec<[f64; 3]>, String> {
    let n = m.bones.len();
    let mut absolute: Vec<Option<[f64; 3]>> = vec![None; n];
    for start in 0..n {
        // Walk up to a bone with a known position or the top; more than n steps is a cycle.
        let mut chain = Vec::new();
        let mut at = start;
        loop {
            if absolute.get(at).copied().flatten().is_some() {
                break;
            }
            if chain.len() > n {
                return Err(format!("bone {start}'s parents form a cycle"));
            }
            chain.push(at);
            let parent = m.bones.get(at).map_or(0xffff, |b| b.parent);
            if parent == 0xffff {
                break;
            }
            if usize::from(parent) >= n {
                return Err(format!("bone {at}'s parent {parent} does not exist"));
            }
            at = usize::from(parent);
        }
        for &b in chain.iter().rev() {
            let Some(bone) = m.bones.get(b) else { continue };
            let base = match bone.parent {
                0xffff => [0.0; 3],
                p => absolute
                    .get(usize::from(p))
                    .copied()
                    .flatten()
                    .unwrap_or([0.0; 3]),
            };
            let p = bone.position.map(f64::from);
            if !p.iter().all(|v| v.is_finite()) {
                return Err(format!("bone {b}'s position is not finite"));
            }
            if let Some(slot) = absolute.get_mut(b) {
                *slot = Some([base[0] + p[0], base[1] + p[1], base[2] + p[2]]);
            }
        }
    }
    for (gi, g) in m.groups.iter().enumerate() {
        if let Some(v) = g
            .vertices
            .iter()
            .position(|v| v.index != 0xffff && usize::from(v.index) >= n)
        {
            return Err(format!(
                "groups[{gi}].vertices[{v}] names a bone that does not exist"
            ));
        }
        for (fi, f) in g.frames.iter().enumerate() {
            for t in &f.transforms {
                if usize::from(t.bone) >= n {
                    return Err(format!(
                        "groups[{gi}].frames[{fi}] moves bone {}, which does not exist",
                        t.bone
                    ));
                }
                let matrix = t.matrix.map(f64::from);
                match decompose(&matrix) {
                    Some((_, _, s)) if s.iter().all(|v| (v - 1.0).abs() < 1e-3) => {}
                    _ => {
                        return Err(format!(
                            "groups[{gi}].frames[{fi}]'s matrix of bone {} is not a rotation \
                             and a translation",
                            t.bone
                        ));
                    }
                }
            }
        }
    }
    Ok(absolute
        .into_iter()
        .map(|p| p.unwrap_or([0.0; 3]))
        .collect())
}

/// A node per bone, in their hierarchy under the model root, at their rest positions.
fn add_skeleton(scene: &mut Scene, root: usize, m: &Mdl7, absolute: Vec<[f64; 3]>) -> Skeleton {
    let first = scene.nodes.len();
    let mut joints = vec![root];
    for (i, b) in m.bones.iter().enumerate() {
        let node = first + i;
        let mut extras = Extras::new();
        extras.insert("bone".into(), json!(i));
        scene.nodes.push(Node {
            name: Some(match name_text(&b.name) {
                s if s.is_empty() => format!("bone {i}"),
                s => s,
            }),
            transform: Transform::Trs {
                translation: b.position.map(f64::from),
                rotation: [0.0, 0.0, 0.0, 1.0],
                scale: [1.0; 3],
            },
            extras,
            ..Node::default()
        });
        joints.push(node);
    }
    for (i, b) in m.bones.iter().enumerate() {
        let parent = match b.parent {
            0xffff => root,
            p => first + usize::from(p),
        };
        if let Some(p) = scene.nodes.get_mut(parent) {
            p.children.push(first + i);
        }
    }
    Skeleton { joints, absolute }
}

/// The skin of a group whose vertices name bones: each vertex bound with weight 1 to its
/// bone (vertices with none to the model root, so they keep their rest position).
fn skin(mesh: usize, g: &Group, skeleton: &Skeleton) -> SceneSkin {
    let mut inverse_bind_matrices = vec![IDENTITY];
    for p in &skeleton.absolute {
        inverse_bind_matrices.push(translation(p.map(|v| -v)));
    }
    SceneSkin {
        name: None,
        mesh,
        joints: skeleton.joints.clone(),
        inverse_bind_matrices,
        vertex_joints: g
            .vertices
            .iter()
            .map(|v| match v.index {
                0xffff => [0; 4],
                b => [b.saturating_add(1), 0, 0, 0],
            })
            .collect(),
        vertex_weights: vec![[1.0, 0.0, 0.0, 0.0]; g.vertices.len()],
    }
}

const IDENTITY: [f64; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

fn translation(t: [f64; 3]) -> [f64; 16] {
    let mut m = IDENTITY;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// Element at column `c`, row `r` of a column-major matrix.
fn at(m: &[f64; 16], c: usize, r: usize) -> f64 {
    m.get(c * 4 + r).copied().unwrap_or(0.0)
}

/// `a * b`, column-major.
fn mul(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    std::array::from_fn(|i| (0..4).map(|k| at(a, k, i % 4) * at(b, i / 4, k)).sum())
}

/// Inverse of a rotation-and-translation matrix (column-major): the transposed rotation, and
/// the translation turned back by it.
fn rigid_inverse(m: &[f64; 16]) -> [f64; 16] {
    std::array::from_fn(|i| match (i / 4, i % 4) {
        (3, 3) => 1.0,
        (3, r) => -(0..3).map(|k| at(m, r, k) * at(m, 3, k)).sum::<f64>(),
        (_, 3) => 0.0,
        (c, r) => at(m, r, c),
    })
}

/// The bones' local poses in every frame of `g` that has bone matrices, as joint animations
/// (one per run of frame names). A frame's matrix of a bone takes rest-pose model space to
/// the frame's (row vectors, the translation in the last row: read column-major it is the
/// glTF matrix as it stands); the bone's world matrix is that times its rest placement,
/// and its local pose that relative to its parent's world matrix.
fn bone_animations(scene: &mut Scene, m: &Mdl7, g: &Group, skeleton: &Skeleton) {
    let n = m.bones.len();
    let mut runs: Vec<(String, Vec<&Frame7>)> = Vec::new();
    for f in g.frames.iter().filter(|f| !f.transforms.is_empty()) {
        let name = name_text(&f.name);
        let anim = animation_name(&name).to_owned();
        match runs.last_mut() {
            Some((last, list)) if *last == anim => list.push(f),
            _ => runs.push((anim, vec![f])),
        }
    }
    for (name, frames) in runs {
        let mut extras = Extras::new();
        extras.insert(
            "frame_names".into(),
            frames.iter().map(|f| name_text(&f.name)).collect(),
        );
        let mut tracks: Vec<JointTrack> = (0..n)
            .filter_map(|b| skeleton.joints.get(b + 1))
            .map(|&node| JointTrack {
                node,
                translations: Vec::with_capacity(frames.len()),
                rotations: Vec::with_capacity(frames.len()),
            })
            .collect();
        for f in frames {
            let mut world: Vec<[f64; 16]> =
                skeleton.absolute.iter().map(|&p| translation(p)).collect();
            for t in &f.transforms {
                if let (Some(w), Some(p)) = (
                    world.get_mut(usize::from(t.bone)),
                    skeleton.absolute.get(usize::from(t.bone)),
                ) {
                    *w = mul(&t.matrix.map(f64::from), &translation(*p));
                }
            }
            for (b, track) in tracks.iter_mut().enumerate() {
                let own = world.get(b).copied().unwrap_or(IDENTITY);
                let local = match m.bones.get(b).map(|bone| bone.parent) {
                    Some(p) if p != 0xffff => {
                        let parent = world.get(usize::from(p)).copied().unwrap_or(IDENTITY);
                        mul(&rigid_inverse(&parent), &own)
                    }
                    _ => own,
                };
                let (t, r) = match decompose(&local) {
                    Some((t, r, _)) => (t, r),
                    None => ([local[12], local[13], local[14]], [0.0, 0.0, 0.0, 1.0]),
                };
                track.translations.push(t);
                track.rotations.push(r);
            }
        }
        scene.joint_animations.push(JointAnimation {
            name: Some(name),
            seconds_per_frame: SECONDS_PER_FRAME,
            tracks,
            extras,
        });
    }
}

fn group(
    scene: &mut Scene,
    root: usize,
    gi: usize,
    g: &Group,
    skeleton: Option<&Skeleton>,
    warnings: &mut Vec<Warning>,
) -> bool {
    let at = format!("groups[{gi}]");
    let first_material = scene.materials.len();
    for (si, skin) in g.skins.iter().enumerate() {
        let path = format!("{at}.skins[{si}]");
        let mut extras = Extras::new();
        extras.insert("skin_type".into(), json!(skin.kind));
        let texture = match &skin.data {
            SkinData::Pixels { pixels, .. } => {
                let w = u32::try_from(skin.width).unwrap_or(0);
                let h = u32::try_from(skin.height).unwrap_or(0);
                decode(skin.kind.into(), w, h, pixels, &path, warnings)
            }
            SkinData::External(name) => {
                let file = name_text(name);
                warnings.push(warn(
                    &path,
                    format!("skin is the external file {file:?}; kept as its name in the material's extras"),
                ));
                extras.insert("external_texture".into(), json!(file));
                None
            }
            SkinData::Dds(_) => {
                warnings.push(warn(&path, "DDS skins are not decoded; no texture"));
                None
            }
            SkinData::None => None,
        };
        let texture = texture.map(|t| {
            scene.textures.push(t);
            scene.textures.len() - 1
        });
        let mut material = Material {
            name: Some(match name_text(&skin.name) {
                n if n.is_empty() => format!("skin {si}"),
                n => n,
            }),
            base_color_texture: texture,
            extras,
            ..Material::default()
        };
        if let Some(m) = &skin.material {
            material.base_color = m.diffuse.map(|v| v.clamp(0.0, 1.0));
            material.base_color[3] = 1.0;
        }
        scene.materials.push(material);
    }
    let skins = g.skins.len();
    let n = g.vertices.len();
    let positions: Vec<[f64; 3]> = g
        .vertices
        .iter()
        .map(|v| v.position.map(f64::from))
        .collect();
    let name = match name_text(&g.name) {
        s if s.is_empty() => format!("group {gi}"),
        s => s,
    };
    // The positions go in once the frames, made from them, are made.
    let mut mesh = Mesh {
        name: Some(name),
        faces: Vec::with_capacity(g.triangles.len()),
        ..Mesh::default()
    };
    let mut skipped = 0usize;
    for t in &g.triangles {
        let material = (skins > 0).then(|| {
            let m = t.material as usize;
            first_material + if m < skins { m } else { 0 }
        });
        let corners: Option<Vec<Corner>> = t
            .vertices
            .iter()
            .zip(&t.uvs)
            .rev()
            .map(|(&v, &uv)| {
                if v as usize >= n {
                    return None;
                }
                Some(Corner {
                    position: v,
                    uv: g
                        .uvs
                        .get(uv as usize)
                        .map(|&[u, v]| [f64::from(u), 1.0 - f64::from(v)]),
                    normal: None,
                    color: None,
                })
            })
            .collect();
        match corners {
            Some(corners) => mesh.faces.push(Face { corners, material }),
            None => skipped += 1,
        }
    }
    if skipped > 0 {
        warnings.push(warn(
            format!("{at}.triangles"),
            format!("{skipped} triangles name a vertex that does not exist; left out"),
        ));
    }
    let mut frames = Vec::new();
    let mut bone_frames = Vec::new();
    for f in &g.frames {
        let name = name_text(&f.name);
        if !f.transforms.is_empty() {
            bone_frames.push(json!({"name": name, "matrices": f.transforms.len()}));
        }
        let mut moved = positions.clone();
        for v in &f.vertices {
            if let Some(p) = moved.get_mut(usize::from(v.index)) {
                *p = v.position.map(f64::from);
            }
        }
        frames.push((name, moved));
    }
    // Frames that move no vertex (bone frames) are no morph targets.
    if g.frames.iter().all(|f| f.vertices.is_empty()) {
        frames.clear();
    }
    mesh.positions = positions;
    let mut extras = Extras::new();
    extras.insert("group_type".into(), json!(g.kind));
    let bound = g.vertices.iter().any(|v| v.index != 0xffff);
    match skeleton {
        Some(skeleton) if bound => {
            // glTF draws a skinned mesh where its joints put it, ignoring its node's
            // transform: the node is a root of its own, and the joints carry the model
            // root's turn upright.
            let mesh_index = scene.meshes.len();
            let node = add_mesh(scene, None, mesh, frames, extras);
            scene.roots.push(node);
            scene.skins.push(skin(mesh_index, g, skeleton));
            true
        }
        _ => {
            if !bone_frames.is_empty() {
                extras.insert("bone_frames".into(), Value::Array(bone_frames));
            }
            add_mesh(scene, Some(root), mesh, frames, extras);
            false
        }
    }
}
