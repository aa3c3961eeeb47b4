//! What moves: morph targets, skins and animations.
//!
//! * **Morph targets** become [`Morphs`]: each target a full set of the mesh's positions (its
//!   displacements added), named by the mesh's `extras.targetNames` (Blender and three.js
//!   write them there).
//! * **Skins** become [`Skin`]s: one per mesh a node shows with a skin, its joints, inverse
//!   bind matrices (identity where the file has none) and each position's `JOINTS_0` and
//!   `WEIGHTS_0` (weights scaled to sum to 1).
//! * **Animations**: a levelkit spin stays a spin; `weights` channels become a
//!   [`MorphAnimation`] per node (the strongest target at each key, with a warning where
//!   targets are mixed); translation and rotation channels become one [`JointAnimation`],
//!   sampled at evenly spaced keys: the file's own key times when they are evenly spaced
//!   (Blender samples every frame), else the smallest gap between two keys (at least 1/120 s,
//!   at most twice the file's key count), linear (rotations spherical) or step as the sampler
//!   says; a cubic spline's values are joined linearly, with a warning. Scale keys are left
//!   out with a warning when they scale.

use gltf_json as json;
use json::accessor::Type;
use json::animation::{Interpolation, Property};
use json::mesh::Semantic;
use json::validation::Checked::Valid;
use serde_json::Value;

use super::{MeshJoints, Reader, matrix_like};
use crate::error::{Location, Result};
use crate::scene::transform::{decompose, unit_quat};
use crate::scene::{
    Animation, JointAnimation, JointTrack, MorphAnimation, MorphTarget, Morphs, Motion, Scene,
    Skin, Transform,
};

/// Per mesh, while its primitives are read: joints, weights and morph target positions of the
/// positions made so far.
#[derive(Default)]
pub(super) struct Rig {
    /// `JOINTS_0` and `WEIGHTS_0` per position, once a primitive had them.
    pub joints: MeshJoints,
    /// Per target, every position, once a primitive had targets.
    pub targets: Option<Vec<Vec<[f64; 3]>>>,
    /// A primitive had no source position ids (`levelkit_positions`).
    pub unsourced: bool,
}

/// The animations of a file, by kind.
#[derive(Default)]
pub(super) struct Animations {
    pub spins: Vec<Animation>,
    pub morphs: Vec<MorphAnimation>,
    pub joints: Vec<JointAnimation>,
}

/// One sampler's keys, its values `width` numbers per key (three times that for a cubic
/// spline: in-tangent, value, out-tangent).
struct Keys {
    times: Vec<f32>,
    values: Vec<f32>,
    width: usize,
    interpolation: Interpolation,
}

impl Keys {
    /// The value of key `k`.
    fn value(&self, k: usize) -> Vec<f64> {
        let (stride, skip) = match self.interpolation {
            Interpolation::CubicSpline => (self.width.saturating_mul(3), self.width),
            _ => (self.width, 0),
        };
        let start = k.saturating_mul(stride).saturating_add(skip);
        (0..self.width)
            .map(|c| {
                self.values
                    .get(start.saturating_add(c))
                    .copied()
                    .map_or(0.0, f64::from)
            })
            .collect()
    }

    /// The value at time `t`; rotations (`spherical`) interpolated on the sphere.
    fn at(&self, t: f64, spherical: bool) -> Vec<f64> {
        let n = self.times.len();
        let i = self.times.partition_point(|&x| f64::from(x) <= t);
        let Some(a) = i.checked_sub(1) else {
            return self.value(0);
        };
        if i >= n {
            return self.value(a);
        }
        let (ta, tb) = (
            self.times.get(a).copied().map_or(0.0, f64::from),
            self.times.get(i).copied().map_or(0.0, f64::from),
        );
        let (va, vb) = (self.value(a), self.value(i));
        if self.interpolation == Interpolation::Step || tb <= ta {
            return va;
        }
        let f = ((t - ta) / (tb - ta)).clamp(0.0, 1.0);
        if spherical {
            let q = |v: &[f64]| -> [f64; 4] {
                std::array::from_fn(|c| v.get(c).copied().unwrap_or(0.0))
            };
            return slerp(q(&va), q(&vb), f).to_vec();
        }
        va.iter().zip(&vb).map(|(a, b)| a + (b - a) * f).collect()
    }
}

/// Spherical interpolation of unit quaternions (the shorter way).
fn slerp(a: [f64; 4], b: [f64; 4], f: f64) -> [f64; 4] {
    let (a, mut b) = (unit_quat(a), unit_quat(b));
    let mut cos: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    if cos < 0.0 {
        b = b.map(|v| -v);
        cos = -cos;
    }
    if cos > 0.9995 {
        return unit_quat(std::array::from_fn(|c| {
            let (x, y) = (
                a.get(c).copied().unwrap_or(0.0),
                b.get(c).copied().unwrap_or(0.0),
            );
            x + (y - x) * f
        }));
    }
    let angle = cos.clamp(-1.0, 1.0).acos();
    let s = angle.sin();
    let (wa, wb) = (((1.0 - f) * angle).sin() / s, (f * angle).sin() / s);
    unit_quat(std::array::from_fn(|c| {
        a.get(c).copied().unwrap_or(0.0) * wa + b.get(c).copied().unwrap_or(0.0) * wb
    }))
}

/// Evenly spaced key times covering `times` (sorted): the times themselves when they are
/// evenly spaced, else spaced by the smallest gap (at least 1/120 s), never more than twice
/// their number (plus two). Returns the first time, the spacing and the key count (a single
/// key is spaced 0.1 s, Quake's model frame time: nothing follows it).
fn grid(times: &[f64]) -> (f64, f64, usize) {
    let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
        return (0.0, 0.0, 0);
    };
    let gap = times
        .windows(2)
        .filter_map(|w| match *w {
            [a, b] if b - a > 1e-6 => Some(b - a),
            _ => None,
        })
        .fold(f64::INFINITY, f64::min);
    if !gap.is_finite() || last - first <= 1e-6 {
        return (first, 0.1, 1);
    }
    let even = times.iter().all(|&t| {
        let k = (t - first) / gap;
        (k - k.round()).abs() < 1e-3
    });
    let cap = times.len().saturating_mul(2).saturating_add(2);
    if even {
        // The keys' own spacing, averaged over the whole run (f32 times round each gap).
        let gaps = ((last - first) / gap).round();
        if gaps >= 1.0 && gaps < cap as f64 {
            return (
                first,
                (last - first) / gaps,
                (gaps as usize).saturating_add(1),
            );
        }
    }
    let step = gap.max(1.0 / 120.0);
    let wanted = ((last - first) / step - 1e-6).ceil() + 1.0;
    if wanted.is_finite() && wanted >= 1.0 && wanted <= cap as f64 {
        (first, step, wanted as usize)
    } else {
        let keys = cap.max(2);
        (
            first,
            (last - first) / (keys.saturating_sub(1)) as f64,
            keys,
        )
    }
}

/// Four numbers of element `k` of a list of four-number elements.
fn four(list: &[f32], k: usize) -> [f32; 4] {
    let start = k.saturating_mul(4);
    std::array::from_fn(|c| list.get(start.saturating_add(c)).copied().unwrap_or(0.0))
}

/// Weights clamped to be non-negative and scaled to sum to 1 (all on the first joint when
/// they sum to nothing).
fn normalized(w: [f32; 4]) -> [f32; 4] {
    let w = w.map(|v| if v.is_finite() && v > 0.0 { v } else { 0.0 });
    let sum: f32 = w.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        w.map(|v| v / sum)
    } else {
        [1.0, 0.0, 0.0, 0.0]
    }
}

impl Reader<'_> {
    /// Record the joints, weights and morph target positions of the positions that primitive
    /// `p` made (`fresh`: for each new position, in order, the primitive's vertex it came
    /// from; `positions`: the mesh's positions, the new ones last).
    pub(super) fn read_rig(
        &mut self,
        p: &json::mesh::Primitive,
        at: &str,
        positions: &[[f64; 3]],
        fresh: &[usize],
        rig: &mut Rig,
    ) -> Result<()> {
        let before = positions.len().saturating_sub(fresh.len());
        let new_positions = positions.get(before..).unwrap_or_default();
        let vcount = fresh.iter().max().map_or(0, |&k| k.saturating_add(1));
        let joints = p.attributes.get(&Valid(Semantic::Joints(0)));
        let weights = p.attributes.get(&Valid(Semantic::Weights(0)));
        match (joints, weights) {
            (Some(j), Some(w)) => {
                let (js, _) = self.floats(j.value(), &[Type::Vec4], &format!("{at}.JOINTS_0"))?;
                let (ws, _) = self.floats(w.value(), &[Type::Vec4], &format!("{at}.WEIGHTS_0"))?;
                for (name, list) in [("JOINTS_0", &js), ("WEIGHTS_0", &ws)] {
                    if list.len() / 4 < vcount {
                        return Err(self.err(
                            format!("{at}.{name}"),
                            format!(
                                "{} elements for a primitive of {vcount} vertices",
                                list.len() / 4
                            ),
                        ));
                    }
                }
                self.budget
                    .charge(fresh.len().saturating_mul(24), "joints", Location::path(at))?;
                let (vj, vw) = rig.joints.get_or_insert_with(|| {
                    (vec![[0; 4]; before], vec![[1.0, 0.0, 0.0, 0.0]; before])
                });
                for &k in fresh {
                    vj.push(four(&js, k).map(|x| {
                        if x.is_finite() && (0.0..=65535.0).contains(&x) {
                            x as u16
                        } else {
                            0
                        }
                    }));
                    vw.push(normalized(four(&ws, k)));
                }
            }
            (None, None) => {
                if let Some((vj, vw)) = &mut rig.joints {
                    vj.extend(fresh.iter().map(|_| [0u16; 4]));
                    vw.extend(fresh.iter().map(|_| [1.0f32, 0.0, 0.0, 0.0]));
                }
            }
            _ => {
                self.warn(at, "JOINTS_0 without WEIGHTS_0 or the reverse; not skinned");
                if let Some((vj, vw)) = &mut rig.joints {
                    vj.extend(fresh.iter().map(|_| [0u16; 4]));
                    vw.extend(fresh.iter().map(|_| [1.0f32, 0.0, 0.0, 0.0]));
                }
            }
        }
        let targets = p.targets.as_deref().unwrap_or_default();
        if targets.is_empty() {
            if let Some(all) = &mut rig.targets {
                for t in all {
                    t.extend_from_slice(new_positions);
                }
            }
            return Ok(());
        }
        let all = match &mut rig.targets {
            Some(all) => all,
            None => {
                self.budget.charge(
                    targets.len().saturating_mul(before).saturating_mul(24),
                    "morph targets",
                    Location::path(at),
                )?;
                let base = positions.get(..before).unwrap_or_default();
                rig.targets
                    .insert(targets.iter().map(|_| base.to_vec()).collect())
            }
        };
        if all.len() != targets.len() {
            self.warn(
                at,
                format!(
                    "{} morph targets where the mesh's first primitive with targets had {}; \
                     the others keep the rest positions",
                    targets.len(),
                    all.len()
                ),
            );
        }
        self.budget.charge(
            all.len().saturating_mul(fresh.len()).saturating_mul(24),
            "morph targets",
            Location::path(at),
        )?;
        for (t, out) in all.iter_mut().enumerate() {
            let delta = match targets.get(t).and_then(|m| m.positions) {
                Some(acc) => {
                    let path = format!("{at}.targets[{t}].POSITION");
                    let (d, _) = self.floats(acc.value(), &[Type::Vec3], &path)?;
                    if d.len() / 3 < vcount {
                        return Err(self.err(
                            path,
                            format!(
                                "{} displacements for a primitive of {vcount} vertices",
                                d.len() / 3
                            ),
                        ));
                    }
                    d
                }
                None => Vec::new(),
            };
            for (&k, base) in fresh.iter().zip(new_positions) {
                let start = k.saturating_mul(3);
                out.push(std::array::from_fn(|c| {
                    let d = delta.get(start.saturating_add(c)).copied().unwrap_or(0.0);
                    base.get(c).copied().unwrap_or(0.0) + f64::from(d)
                }));
            }
        }
        Ok(())
    }

    /// The morph targets of mesh `mesh` once its primitives are read; names from its
    /// `extras.targetNames` (removed from `names`' map).
    pub(super) fn morphs_of_rig(
        mesh: usize,
        targets: Vec<Vec<[f64; 3]>>,
        names: Option<Value>,
    ) -> Morphs {
        let names: Vec<Option<String>> = names
            .as_ref()
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        Morphs {
            mesh,
            targets: targets
                .into_iter()
                .enumerate()
                .map(|(t, positions)| MorphTarget {
                    name: names.get(t).cloned().flatten(),
                    positions,
                })
                .collect(),
        }
    }

    /// The scene node a glTF node became (a split node's inner half is its outer node's).
    fn scene_node(map: &[Option<usize>], outer_of: &[Option<usize>], i: usize) -> Option<usize> {
        let i = outer_of.get(i).copied().flatten().unwrap_or(i);
        map.get(i).copied().flatten()
    }

    /// A skin per mesh that a node shows skinned.
    pub(super) fn read_skins(
        &mut self,
        map: &[Option<usize>],
        outer_of: &[Option<usize>],
        rigs: &mut [MeshJoints],
    ) -> Result<Vec<Skin>> {
        let root = self.root;
        let mut out: Vec<(usize, Skin)> = Vec::new();
        for (i, n) in root.nodes.iter().enumerate() {
            let (Some(s), Some(mesh)) = (n.skin, n.mesh) else {
                continue;
            };
            let (s, mesh) = (s.value(), mesh.value());
            let at = format!("nodes[{i}]");
            if let Some((other, _)) = out.iter().find(|(_, k)| k.mesh == mesh) {
                if *other != s {
                    self.warn(
                        at,
                        format!(
                            "mesh {mesh} is shown with skins {other} and {s}; the first is kept"
                        ),
                    );
                }
                continue;
            }
            let gskin = root
                .skins
                .get(s)
                .ok_or_else(|| self.err(&at, format!("skin {s} does not exist")))?;
            let skin_at = format!("skins[{s}]");
            let mut joints = Vec::with_capacity(gskin.joints.len());
            for j in &gskin.joints {
                match Self::scene_node(map, outer_of, j.value()) {
                    Some(k) => joints.push(k),
                    None => {
                        return Err(self.err(
                            format!("{skin_at}.joints"),
                            format!("joint {} is not a node", j.value()),
                        ));
                    }
                }
            }
            let inverse_bind_matrices = match gskin.inverse_bind_matrices {
                Some(acc) => {
                    let path = format!("{skin_at}.inverseBindMatrices");
                    let (m, _) = self.floats(acc.value(), &[Type::Mat4], &path)?;
                    if m.len() / 16 < joints.len() {
                        return Err(self.err(
                            path,
                            format!("{} matrices for {} joints", m.len() / 16, joints.len()),
                        ));
                    }
                    m.chunks_exact(16)
                        .take(joints.len())
                        .map(|c| std::array::from_fn(|k| c.get(k).copied().map_or(0.0, f64::from)))
                        .collect()
                }
                None => vec![crate::scene::IDENTITY_MATRIX; joints.len()],
            };
            let Some((mut vertex_joints, mut vertex_weights)) =
                rigs.get_mut(mesh).and_then(Option::take)
            else {
                self.warn(
                    at,
                    format!(
                        "mesh {mesh} is skinned but has no JOINTS_0 and WEIGHTS_0; not skinned"
                    ),
                );
                continue;
            };
            // Joints the skin does not have weigh nothing.
            let count = joints.len();
            let mut stray = 0usize;
            for (js, ws) in vertex_joints.iter_mut().zip(vertex_weights.iter_mut()) {
                let mut changed = false;
                for (j, w) in js.iter_mut().zip(ws.iter_mut()) {
                    if usize::from(*j) >= count {
                        if *w > 0.0 {
                            changed = true;
                        }
                        *j = 0;
                        *w = 0.0;
                    }
                }
                if changed {
                    stray = stray.saturating_add(1);
                    *ws = normalized(*ws);
                }
            }
            if stray > 0 {
                self.warn(
                    format!("meshes[{mesh}]"),
                    format!("{stray} vertices are weighted to joints skin {s} does not have"),
                );
            }
            out.push((
                s,
                Skin {
                    name: gskin.name.clone(),
                    mesh,
                    joints,
                    inverse_bind_matrices,
                    vertex_joints,
                    vertex_weights,
                },
            ));
        }
        Ok(out.into_iter().map(|(_, k)| k).collect())
    }

    /// One sampler's keys, `width` numbers per key.
    fn keys(
        &mut self,
        a: &json::Animation,
        sampler: usize,
        types: &[Type],
        width: usize,
        at: &str,
    ) -> Result<Keys> {
        let s = a
            .samplers
            .get(sampler)
            .ok_or_else(|| self.err(at, format!("sampler {sampler} does not exist")))?;
        let interpolation = match s.interpolation {
            Valid(i) => i,
            _ => Interpolation::Linear,
        };
        let (times, _) = self.floats(s.input.value(), &[Type::Scalar], &format!("{at}.input"))?;
        let (values, _) = self.floats(s.output.value(), types, &format!("{at}.output"))?;
        if times.windows(2).any(|w| match *w {
            [a, b] => b < a,
            _ => false,
        }) || times.iter().any(|t| !t.is_finite())
        {
            return Err(self.err(
                format!("{at}.input"),
                "key times are not finite and increasing",
            ));
        }
        let per_key = match interpolation {
            Interpolation::CubicSpline => width.saturating_mul(3),
            _ => width,
        };
        if values.len() < times.len().saturating_mul(per_key) {
            return Err(self.err(
                format!("{at}.output"),
                format!(
                    "{} values for {} keys of {per_key}",
                    values.len(),
                    times.len()
                ),
            ));
        }
        Ok(Keys {
            times,
            values,
            width,
            interpolation,
        })
    }

    /// Every animation of the file, by kind (see the module docs).
    pub(super) fn read_animations(
        &mut self,
        scene: &Scene,
        map: &[Option<usize>],
        outer_of: &[Option<usize>],
    ) -> Animations {
        let root = self.root;
        let mut out = Animations::default();
        for (i, a) in root.animations.iter().enumerate() {
            let at = format!("animations[{i}]");
            let mut extras = self.extras(&a.extras, &at);
            if let Some(s) = extras.remove(super::keys::SPIN) {
                let axis = s.get("axis").and_then(matrix_like::<3>);
                let speed = s.get("degrees_per_second").and_then(Value::as_f64);
                let node = a
                    .channels
                    .first()
                    .and_then(|c| Self::scene_node(map, outer_of, c.target.node.value()));
                match (axis, speed, node) {
                    (Some(axis), Some(degrees_per_second), Some(node))
                        if degrees_per_second.is_finite() && axis.iter().any(|&v| v != 0.0) =>
                    {
                        out.spins.push(Animation {
                            name: a.name.clone(),
                            node,
                            motion: Motion::Spin {
                                axis,
                                degrees_per_second,
                            },
                            extras,
                        });
                    }
                    _ => self.warn(at, "a spin without an axis, speed or node; left out"),
                }
                continue;
            }
            if let Err(e) = self.animation(scene, a, &at, (map, outer_of), extras, &mut out) {
                self.warn(at, format!("animation left out: {}", e.message));
            }
        }
        out
    }

    /// One animation that is not a spin: its morph weights and its joint poses.
    fn animation(
        &mut self,
        scene: &Scene,
        a: &json::Animation,
        at: &str,
        (map, outer_of): (&[Option<usize>], &[Option<usize>]),
        extras: crate::scene::Extras,
        out: &mut Animations,
    ) -> Result<()> {
        // Node, path, keys of every channel that maps.
        let mut trs: Vec<(usize, Property, Keys)> = Vec::new();
        for (c, ch) in a.channels.iter().enumerate() {
            let cat = format!("{at}.channels[{c}]");
            let Some(node) = Self::scene_node(map, outer_of, ch.target.node.value()) else {
                return Err(self.err(
                    cat,
                    format!("node {} does not exist", ch.target.node.value()),
                ));
            };
            let Valid(path) = ch.target.path else {
                self.warn(cat, "unknown target path; channel left out");
                continue;
            };
            let sampler = ch.sampler.value();
            let sat = format!("{at}.samplers[{sampler}]");
            match path {
                Property::MorphTargetWeights => {
                    let count = scene
                        .nodes
                        .get(node)
                        .and_then(|n| n.mesh)
                        .and_then(|m| scene.morphs_of(m))
                        .map_or(0, |m| m.targets.len());
                    if count == 0 {
                        self.warn(cat, "weights of a node without morph targets; left out");
                        continue;
                    }
                    let keys = self.keys(a, sampler, &[Type::Scalar], count, &sat)?;
                    self.morph_animation(a, node, &keys, &cat, out);
                }
                Property::Translation | Property::Scale => {
                    trs.push((node, path, self.keys(a, sampler, &[Type::Vec3], 3, &sat)?));
                }
                Property::Rotation => {
                    trs.push((node, path, self.keys(a, sampler, &[Type::Vec4], 4, &sat)?));
                }
            }
        }
        if trs.is_empty() {
            return Ok(());
        }
        if trs
            .iter()
            .any(|(_, _, k)| k.interpolation == Interpolation::CubicSpline)
        {
            self.warn(
                at,
                "cubic spline keys are joined linearly (their tangents are left out)",
            );
        }
        let mut times: Vec<f64> = trs
            .iter()
            .flat_map(|(_, _, k)| k.times.iter().map(|&t| f64::from(t)))
            .collect();
        times.sort_by(f64::total_cmp);
        times.dedup_by(|b, a| (*b - *a).abs() <= 1e-6);
        let (first, step, count) = grid(&times);
        if count == 0 {
            return Ok(());
        }
        let mut nodes: Vec<usize> = trs.iter().map(|(n, _, _)| *n).collect();
        nodes.sort_unstable();
        nodes.dedup();
        self.budget.charge(
            nodes.len().saturating_mul(count).saturating_mul(56),
            "animation keys",
            Location::path(at),
        )?;
        let mut scaled = false;
        let mut tracks = Vec::with_capacity(nodes.len());
        for node in nodes {
            let (t0, r0, s0) = match scene.nodes.get(node).map(|n| &n.transform) {
                Some(Transform::Trs {
                    translation,
                    rotation,
                    scale,
                }) => (*translation, *rotation, *scale),
                Some(t) => {
                    let m = t.matrix();
                    decompose(&m).unwrap_or(([m[12], m[13], m[14]], [0.0, 0.0, 0.0, 1.0], [1.0; 3]))
                }
                None => ([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]),
            };
            let find = |p: Property| {
                trs.iter()
                    .find(|(n, path, _)| *n == node && *path == p)
                    .map(|(_, _, k)| k)
            };
            let (tk, rk, sk) = (
                find(Property::Translation),
                find(Property::Rotation),
                find(Property::Scale),
            );
            let mut track = JointTrack {
                node,
                translations: Vec::with_capacity(count),
                rotations: Vec::with_capacity(count),
            };
            for k in 0..count {
                let t = first + step * k as f64;
                track.translations.push(match tk {
                    Some(keys) => {
                        let v = keys.at(t, false);
                        std::array::from_fn(|c| v.get(c).copied().unwrap_or(0.0))
                    }
                    None => t0,
                });
                track.rotations.push(match rk {
                    Some(keys) => {
                        let v = keys.at(t, true);
                        unit_quat(std::array::from_fn(|c| v.get(c).copied().unwrap_or(0.0)))
                    }
                    None => r0,
                });
                if let Some(keys) = sk {
                    let v = keys.at(t, false);
                    if v.iter().zip(&s0).any(|(a, b)| (a - b).abs() > 1e-4) {
                        scaled = true;
                    }
                }
            }
            tracks.push(track);
        }
        if scaled {
            self.warn(
                at,
                "scale keys are left out (joint poses keep their rest scale)",
            );
        }
        out.joints.push(JointAnimation {
            name: a.name.clone(),
            seconds_per_frame: step,
            tracks,
            extras,
        });
        Ok(())
    }

    /// The `weights` keys of one node as the target shown at each key.
    fn morph_animation(
        &mut self,
        a: &json::Animation,
        node: usize,
        keys: &Keys,
        at: &str,
        out: &mut Animations,
    ) {
        let times: Vec<f64> = keys.times.iter().map(|&t| f64::from(t)).collect();
        let (first, step, count) = grid(&times);
        if count == 0 {
            return;
        }
        let mut mixed = false;
        let mut targets = Vec::with_capacity(count);
        for k in 0..count {
            let w = keys.at(first + step * k as f64, false);
            let (best, weight) =
                w.iter()
                    .copied()
                    .enumerate()
                    .fold(
                        (0, f64::NEG_INFINITY),
                        |acc, (i, v)| if v > acc.1 { (i, v) } else { acc },
                    );
            let rest: f64 = w.iter().sum::<f64>() - weight;
            if (weight - 1.0).abs() > 1e-3 || rest.abs() > 1e-3 {
                mixed = true;
            }
            targets.push(best);
        }
        if mixed {
            self.warn(
                at,
                "keys that mix morph targets are shown as their strongest target",
            );
        }
        out.morphs.push(MorphAnimation {
            name: a.name.clone(),
            node,
            targets,
            seconds_per_frame: step,
        });
    }
}
