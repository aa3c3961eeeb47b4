//! The bones of an MDL7 written from a scene: the joints of its skins, and their poses in
//! each key of its joint animations as MDL7 bone frames.
//!
//! * **Bones**: the joint nodes of every skin, in order of first appearance; when some joints
//!   carry levelkit's `extras.bone` (an MDL read by levelkit), those are the bones in that
//!   order and the others (the model root that holds unbound vertices) are none. A bone's
//!   parent is its nearest ancestor node that is a bone; its position is its node's rest
//!   placement in the file's z-up space, relative to its parent's (as MED's files hold them).
//! * **Vertices** follow their strongest joint (a warning counts those with split weights).
//! * **Frames**: each key of each joint animation is a frame whose matrix for every bone
//!   takes the rest pose to that key's pose, in the file's space: `C · W(key) · W(rest)⁻¹ ·
//!   C⁻¹`, with `W` the joint's world matrix and `C` glTF's y-up to z-up. Named by the
//!   animation's `extras.frame_names` (an MDL's own names, kept through glTF), else
//!   `walk1` … `walkN` after the animation.

use std::collections::HashMap;

use serde_json::Value;

use super::{field, refuse, to_file, warn};
use crate::error::{Result, Warning};
use crate::formats::mdl::model::{Bone, BoneTransform, Frame7};
use crate::scene::transform::affine_inverse;
use crate::scene::{self, Scene, Skin, Transform};

/// glTF's y-up to Gamestudio's z-up as a matrix (column-major), and back.
const TO_FILE: [f64; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];
const FROM_FILE: [f64; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// The bones of a scene.
#[derive(Default)]
pub(super) struct Bones {
    /// The scene node of each bone.
    nodes: Vec<usize>,
    /// Bone of a scene node.
    index: HashMap<usize, u16>,
    /// Each bone's world matrix in the rest pose.
    rest: Vec<[f64; 16]>,
}

/// `joints` reordered so that every joint comes after the joints above it (the engine builds
/// a pose in list order, as MED lists them); otherwise in their order.
fn parents_first(scene: &Scene, joints: Vec<usize>) -> Vec<usize> {
    let parents = scene.parents();
    let is_joint: std::collections::HashSet<usize> = joints.iter().copied().collect();
    // For every node, how many joints are above it: each node walked once (memoised), a
    // cycle cut where it closes.
    let mut above: Vec<Option<usize>> = vec![None; parents.len()];
    let mut in_chain = vec![false; parents.len()];
    for start in 0..parents.len() {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(n) = at {
            if above.get(n).copied().flatten().is_some() || in_chain.get(n) != Some(&false) {
                break;
            }
            if let Some(slot) = in_chain.get_mut(n) {
                *slot = true;
            }
            chain.push(n);
            at = parents.get(n).copied().flatten();
        }
        let mut count = at
            .and_then(|n| above.get(n).copied().flatten())
            .map_or(0, |c| {
                c + usize::from(at.is_some_and(|n| is_joint.contains(&n)))
            });
        for &n in chain.iter().rev() {
            if let Some(slot) = above.get_mut(n) {
                *slot = Some(count);
            }
            count += usize::from(is_joint.contains(&n));
        }
    }
    let depth = |j: usize| above.get(j).copied().flatten().unwrap_or(0);
    let mut keyed: Vec<(usize, usize)> = joints.iter().map(|&j| (depth(j), j)).collect();
    // Stable: the file's order within a depth.
    keyed.sort_by_key(|&(d, _)| d);
    keyed.into_iter().map(|(_, j)| j).collect()
}

impl Bones {
    /// The bones of `scene`'s skins (none without skins).
    pub(super) fn of(scene: &Scene, world: &[[f64; 16]]) -> Result<Bones> {
        let mut joints: Vec<usize> = Vec::new();
        for skin in &scene.skins {
            for &j in &skin.joints {
                if !joints.contains(&j) {
                    joints.push(j);
                }
            }
        }
        let mark = |j: usize| -> Option<u64> {
            scene
                .nodes
                .get(j)
                .and_then(|n| n.extras.get("bone"))
                .and_then(Value::as_u64)
        };
        if joints.iter().any(|&j| mark(j).is_some()) {
            joints.retain(|&j| mark(j).is_some());
            joints.sort_by_key(|&j| mark(j));
        } else {
            joints = parents_first(scene, joints);
        }
        if joints.len() >= 0xFFFF {
            return Err(refuse(
                "skins",
                format!("{} joints: MDL7 numbers bones with 16 bits", joints.len()),
            ));
        }
        let index = joints
            .iter()
            .enumerate()
            .map(|(b, &j)| (j, b as u16))
            .collect();
        let rest = joints
            .iter()
            .map(|&j| world.get(j).copied().unwrap_or(scene::IDENTITY_MATRIX))
            .collect();
        Ok(Bones {
            nodes: joints,
            index,
            rest,
        })
    }

    /// Whether there are none.
    pub(super) fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The MDL7 bone records (36 bytes: a 20-byte name).
    pub(super) fn records(&self, scene: &Scene) -> Vec<Bone> {
        let parents = scene.parents();
        let parent_of = |node: usize| -> Option<u16> {
            let mut at = parents.get(node).copied().flatten();
            let mut steps = 0usize;
            while let Some(p) = at {
                if let Some(&b) = self.index.get(&p) {
                    return Some(b);
                }
                steps += 1;
                if steps > parents.len() {
                    return None;
                }
                at = parents.get(p).copied().flatten();
            }
            None
        };
        let absolute = |b: usize| -> [f32; 3] {
            let m = self.rest.get(b).unwrap_or(&scene::IDENTITY_MATRIX);
            to_file([m[12], m[13], m[14]])
        };
        self.nodes
            .iter()
            .enumerate()
            .map(|(b, &node)| {
                let parent = parent_of(node);
                let own = absolute(b);
                let base = parent.map_or([0.0; 3], |p| absolute(usize::from(p)));
                let name = scene
                    .nodes
                    .get(node)
                    .and_then(|n| n.name.as_deref())
                    .unwrap_or("");
                Bone {
                    parent: parent.unwrap_or(0xFFFF),
                    pad: 0,
                    position: [own[0] - base[0], own[1] - base[1], own[2] - base[2]],
                    name: field::<20>(name).to_vec(),
                }
            })
            .collect()
    }

    /// Each position's bone: its strongest joint's (0xFFFF for a joint that is no bone).
    /// Counts positions whose weights are split into `split`.
    pub(super) fn of_vertices(&self, skin: &Skin, split: &mut usize) -> Vec<u16> {
        skin.vertex_joints
            .iter()
            .zip(&skin.vertex_weights)
            .map(|(js, ws)| {
                let (k, w) = ws
                    .iter()
                    .enumerate()
                    .fold(
                        (0, f32::NEG_INFINITY),
                        |a, (k, &w)| if w > a.1 { (k, w) } else { a },
                    );
                if w < 0.999 {
                    *split += 1;
                }
                js.get(k)
                    .and_then(|&j| skin.joints.get(usize::from(j)))
                    .and_then(|node| self.index.get(node))
                    .copied()
                    .unwrap_or(0xFFFF)
            })
            .collect()
    }

    /// The frames of the scene's joint animations (none without animations or bones).
    pub(super) fn frames(&self, scene: &Scene, warnings: &mut Vec<Warning>) -> Vec<Frame7> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        let inverse_rest: Vec<[f64; 16]> = self
            .rest
            .iter()
            .map(|m| affine_inverse(m).unwrap_or(scene::IDENTITY_MATRIX))
            .collect();
        for (ai, a) in scene.joint_animations.iter().enumerate() {
            let keys = a.tracks.first().map_or(0, |t| t.translations.len());
            let base = a.name.as_deref().unwrap_or("frame");
            let names = a.extras.get("frame_names").and_then(Value::as_array);
            let mut local: HashMap<usize, usize> = HashMap::new();
            for (t, track) in a.tracks.iter().enumerate() {
                local.entry(track.node).or_insert(t);
            }
            // Each animated node keeps its rest scale (the reader leaves scale keys out).
            let rest_scale: HashMap<usize, [f64; 3]> = local
                .keys()
                .map(|&node| {
                    let scale = match scene.nodes.get(node).map(|n| &n.transform) {
                        Some(Transform::Trs { scale, .. }) => *scale,
                        Some(t) => {
                            scene::transform::decompose(&t.matrix()).map_or([1.0; 3], |(_, _, s)| s)
                        }
                        None => [1.0; 3],
                    };
                    (node, scale)
                })
                .collect();
            for k in 0..keys {
                let world = scene.world_matrices_with(|node| {
                    let track = a.tracks.get(*local.get(&node)?)?;
                    let scale = rest_scale.get(&node).copied().unwrap_or([1.0; 3]);
                    Some(
                        Transform::Trs {
                            translation: *track.translations.get(k)?,
                            rotation: *track.rotations.get(k)?,
                            scale,
                        }
                        .matrix(),
                    )
                });
                let transforms = self
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(b, &node)| {
                        let w = world.get(node).unwrap_or(&scene::IDENTITY_MATRIX);
                        let inv = inverse_rest.get(b).unwrap_or(&scene::IDENTITY_MATRIX);
                        let m = scene::mat_mul(
                            &scene::mat_mul(&TO_FILE, &scene::mat_mul(w, inv)),
                            &FROM_FILE,
                        );
                        BoneTransform {
                            matrix: m.map(|v| v as f32),
                            bone: b as u16,
                            pad: [0; 2],
                        }
                    })
                    .collect();
                let name = names
                    .and_then(|n| n.get(k))
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("{base}{}", k + 1), str::to_owned);
                if name.len() > 16 {
                    warnings.push(warn(
                        format!("joint_animations[{ai}]"),
                        format!("frame name {name:?} is cut to 16 bytes"),
                    ));
                }
                out.push(Frame7 {
                    name: field(&name),
                    vertices: Vec::new(),
                    transforms,
                });
            }
        }
        out
    }
}
