//! [`Scene::validate`]: references, geometry and numbers checked, with a path for every finding.

use super::model::{LightKind, Mesh, Motion, Scene, TextureSource, Transform};
use crate::error::{Error, Location, Result, Severity, Warning};
use crate::registry::Format;

impl Scene {
    /// `Ok` when [`Scene::validate`] finds no error; else the first one, as a malformed-input
    /// error of `format` (the writer that refuses the scene) saying `lead: ` and the reason.
    pub fn refuse_invalid(&self, format: Format, lead: &str) -> Result<()> {
        match self
            .validate()
            .into_iter()
            .find(|w| w.severity == Severity::Error)
        {
            Some(e) => Err(Error::malformed(
                format,
                e.location,
                format!("{lead}: {}", e.message),
            )),
            None => Ok(()),
        }
    }

    /// Check references, geometry and numbers. Errors make the scene unusable for export;
    /// warnings are worth knowing.
    pub fn validate(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        let fmt = self.source_format;
        let mut push = |severity: Severity, path: String, message: String| {
            out.push(Warning {
                format: fmt,
                severity,
                location: Location::path(path),
                message,
            });
        };
        let mut parent: Vec<Option<usize>> = vec![None; self.nodes.len()];
        for (i, &r) in self.roots.iter().enumerate() {
            if r >= self.nodes.len() {
                push(
                    Severity::Error,
                    format!("roots[{i}]"),
                    format!("root {r} is not a node (there are {})", self.nodes.len()),
                );
            }
        }
        for (ni, n) in self.nodes.iter().enumerate() {
            let at = |what: &str| format!("nodes[{ni}].{what}");
            for (k, &c) in n.children.iter().enumerate() {
                if c >= self.nodes.len() {
                    push(
                        Severity::Error,
                        at(&format!("children[{k}]")),
                        format!("child {c} is not a node"),
                    );
                } else if self.roots.contains(&c) {
                    push(
                        Severity::Error,
                        at(&format!("children[{k}]")),
                        format!("child {c} is also a root"),
                    );
                } else if let Some(slot) = parent.get_mut(c) {
                    if let Some(p) = *slot {
                        push(
                            Severity::Error,
                            at(&format!("children[{k}]")),
                            format!("node {c} already has parent {p}"),
                        );
                    } else {
                        *slot = Some(ni);
                    }
                }
            }
            for (what, idx, len) in [
                ("mesh", n.mesh, self.meshes.len()),
                ("light", n.light, self.lights.len()),
                ("camera", n.camera, self.cameras.len()),
            ] {
                if let Some(i) = idx
                    && i >= len
                {
                    push(
                        Severity::Error,
                        at(what),
                        format!("{what} {i} does not exist (there are {len})"),
                    );
                }
            }
            let finite = match &n.transform {
                Transform::Trs {
                    translation,
                    rotation,
                    scale,
                } => translation
                    .iter()
                    .chain(rotation)
                    .chain(scale)
                    .all(|v| v.is_finite()),
                Transform::Matrix(m) => m.iter().all(|v| v.is_finite()),
            };
            if !finite {
                push(
                    Severity::Error,
                    at("transform"),
                    "transform has a value that is not finite".into(),
                );
            } else if let Transform::Trs { rotation, .. } = &n.transform {
                let len = rotation.iter().map(|v| v * v).sum::<f64>().sqrt();
                if (len - 1.0).abs() > 1e-3 {
                    push(
                        Severity::Error,
                        at("transform.rotation"),
                        format!("rotation quaternion has length {len}, not 1"),
                    );
                }
            }
        }
        // Cycles: a node reachable from itself. Every node has at most one parent here, so
        // walking parents up from each node either ends or repeats.
        for start in 0..self.nodes.len() {
            let mut at = parent.get(start).copied().flatten();
            let mut steps = 0;
            while let Some(p) = at {
                if p == start {
                    push(
                        Severity::Error,
                        format!("nodes[{start}]"),
                        "node is its own ancestor (the node tree has a cycle)".into(),
                    );
                    break;
                }
                steps += 1;
                if steps > self.nodes.len() {
                    break;
                }
                at = parent.get(p).copied().flatten();
            }
        }
        for (mi, m) in self.meshes.iter().enumerate() {
            self.validate_mesh(mi, m, &mut push);
        }
        for (i, mat) in self.materials.iter().enumerate() {
            for (what, t) in [
                ("base_color_texture", mat.base_color_texture),
                ("metallic_roughness_texture", mat.metallic_roughness_texture),
                ("normal_texture", mat.normal_texture),
                ("occlusion_texture", mat.occlusion_texture),
                ("emissive_texture", mat.emissive_texture),
            ] {
                if let Some(t) = t
                    && t >= self.textures.len()
                {
                    push(
                        Severity::Error,
                        format!("materials[{i}].{what}"),
                        format!("texture {t} does not exist"),
                    );
                }
            }
            let numbers = mat
                .base_color
                .iter()
                .chain(&mat.emissive)
                .chain([&mat.metallic, &mat.roughness]);
            if numbers
                .clone()
                .any(|v| !v.is_finite() || *v < 0.0 || *v > 1.0)
            {
                push(
                    Severity::Error,
                    format!("materials[{i}]"),
                    "a colour or factor is outside 0–1".into(),
                );
            }
        }
        for (i, t) in self.textures.iter().enumerate() {
            if let TextureSource::Pixels {
                width,
                height,
                channels,
                data,
            } = &t.source
            {
                let want = u64::from(*width) * u64::from(*height) * u64::from(*channels);
                if !(1..=4).contains(channels) || want != data.len() as u64 || want == 0 {
                    push(
                        Severity::Error,
                        format!("textures[{i}].source"),
                        format!(
                            "{width}x{height} pixels with {channels} channels need {want} bytes, \
                             not {}",
                            data.len()
                        ),
                    );
                }
            }
        }
        for (i, l) in self.lights.iter().enumerate() {
            if !l.color.iter().chain([&l.intensity]).all(|v| v.is_finite()) || l.intensity < 0.0 {
                push(
                    Severity::Error,
                    format!("lights[{i}]"),
                    "colour or intensity is not a finite, non-negative number".into(),
                );
            }
            if let LightKind::Spot {
                inner_cone_angle,
                outer_cone_angle,
            } = l.kind
                && !(0.0 <= inner_cone_angle
                    && inner_cone_angle < outer_cone_angle
                    && outer_cone_angle <= std::f32::consts::FRAC_PI_2)
            {
                push(
                    Severity::Error,
                    format!("lights[{i}].kind"),
                    format!(
                        "spot cone angles must satisfy 0 <= inner < outer <= pi/2 \
                         (inner {inner_cone_angle}, outer {outer_cone_angle})"
                    ),
                );
            }
        }
        for (i, a) in self.animations.iter().enumerate() {
            if a.node >= self.nodes.len() {
                push(
                    Severity::Error,
                    format!("animations[{i}].node"),
                    format!("node {} does not exist", a.node),
                );
            }
            let Motion::Spin {
                axis,
                degrees_per_second,
            } = a.motion;
            let len = axis.iter().map(|v| v * v).sum::<f64>();
            if !len.is_finite() || len == 0.0 || !degrees_per_second.is_finite() {
                push(
                    Severity::Error,
                    format!("animations[{i}].motion"),
                    "spin needs a non-zero axis and a finite speed".into(),
                );
            }
        }
        self.validate_morphs(&mut push);
        self.validate_skins(&mut push);
        self.validate_lightmaps(&mut push);
        out
    }

    fn validate_lightmaps(&self, push: &mut impl FnMut(Severity, String, String)) {
        for (i, s) in self.second_uvs.iter().enumerate() {
            let corners = self
                .meshes
                .get(s.mesh)
                .map(|m| m.faces.iter().map(|f| f.corners.len()).sum::<usize>());
            if corners != Some(s.uvs.len()) || !s.uvs.iter().flatten().all(|v| v.is_finite()) {
                push(
                    Severity::Error,
                    format!("second_uvs[{i}]"),
                    "needs an existing mesh and one finite UV per corner of its faces".into(),
                );
            }
            if self.second_uvs.iter().take(i).any(|o| o.mesh == s.mesh) {
                push(
                    Severity::Error,
                    format!("second_uvs[{i}].mesh"),
                    format!("mesh {} already has a second UV set", s.mesh),
                );
            }
        }
        for (i, l) in self.lightmaps.iter().enumerate() {
            if l.material >= self.materials.len() || l.texture >= self.textures.len() {
                push(
                    Severity::Error,
                    format!("lightmaps[{i}]"),
                    "needs an existing material and texture".into(),
                );
            }
        }
    }

    fn validate_skins(&self, push: &mut impl FnMut(Severity, String, String)) {
        for (i, s) in self.skins.iter().enumerate() {
            let at = format!("skins[{i}]");
            let Some(mesh) = self.meshes.get(s.mesh) else {
                push(
                    Severity::Error,
                    format!("{at}.mesh"),
                    format!("mesh {} does not exist", s.mesh),
                );
                continue;
            };
            if self.skins.iter().take(i).any(|o| o.mesh == s.mesh) {
                push(
                    Severity::Error,
                    format!("{at}.mesh"),
                    format!("mesh {} already has a skin", s.mesh),
                );
            }
            if s.joints.is_empty() || s.joints.iter().any(|&j| j >= self.nodes.len()) {
                push(
                    Severity::Error,
                    format!("{at}.joints"),
                    "needs at least one joint, each an existing node".into(),
                );
            }
            if s.inverse_bind_matrices.len() != s.joints.len()
                || !s
                    .inverse_bind_matrices
                    .iter()
                    .flatten()
                    .all(|v| v.is_finite())
            {
                push(
                    Severity::Error,
                    format!("{at}.inverse_bind_matrices"),
                    "needs one finite matrix per joint".into(),
                );
            }
            let n = mesh.positions.len();
            let joints = s.joints.len();
            let weights_ok = s.vertex_weights.iter().all(|w| {
                let sum: f32 = w.iter().sum();
                w.iter().all(|&v| v.is_finite() && v >= 0.0) && (sum - 1.0).abs() < 1e-3
            });
            if s.vertex_joints.len() != n
                || s.vertex_weights.len() != n
                || s.vertex_joints
                    .iter()
                    .flatten()
                    .any(|&j| usize::from(j) >= joints)
                || !weights_ok
            {
                push(
                    Severity::Error,
                    format!("{at}.vertex_joints"),
                    format!(
                        "needs {n} joint quadruples below {joints} and {n} weight quadruples \
                         summing to 1, one per mesh position"
                    ),
                );
            }
        }
        for (i, a) in self.joint_animations.iter().enumerate() {
            let at = format!("joint_animations[{i}]");
            if !(a.seconds_per_frame.is_finite() && a.seconds_per_frame > 0.0) {
                push(
                    Severity::Error,
                    format!("{at}.seconds_per_frame"),
                    "must be positive and finite".into(),
                );
            }
            let keys = a.tracks.first().map_or(0, |t| t.translations.len());
            for (t, track) in a.tracks.iter().enumerate() {
                if track.node >= self.nodes.len()
                    || keys == 0
                    || track.translations.len() != keys
                    || track.rotations.len() != keys
                    || !track.translations.iter().flatten().all(|v| v.is_finite())
                    || !track.rotations.iter().flatten().all(|v| v.is_finite())
                {
                    push(
                        Severity::Error,
                        format!("{at}.tracks[{t}]"),
                        format!(
                            "needs an existing node and {keys} finite translations and \
                             rotations, as many as the first track"
                        ),
                    );
                }
            }
        }
    }

    fn validate_morphs(&self, push: &mut impl FnMut(Severity, String, String)) {
        for (i, m) in self.morphs.iter().enumerate() {
            let Some(mesh) = self.meshes.get(m.mesh) else {
                push(
                    Severity::Error,
                    format!("morphs[{i}].mesh"),
                    format!("mesh {} does not exist", m.mesh),
                );
                continue;
            };
            if self.morphs.iter().take(i).any(|o| o.mesh == m.mesh) {
                push(
                    Severity::Error,
                    format!("morphs[{i}].mesh"),
                    format!("mesh {} already has morph targets", m.mesh),
                );
            }
            for (t, target) in m.targets.iter().enumerate() {
                if target.positions.len() != mesh.positions.len()
                    || !target.positions.iter().flatten().all(|v| v.is_finite())
                {
                    push(
                        Severity::Error,
                        format!("morphs[{i}].targets[{t}]"),
                        format!(
                            "a target needs {} finite positions, one per mesh position",
                            mesh.positions.len()
                        ),
                    );
                }
            }
        }
        for (i, a) in self.morph_animations.iter().enumerate() {
            let count = self
                .nodes
                .get(a.node)
                .and_then(|n| n.mesh)
                .and_then(|m| self.morphs_of(m))
                .map(|m| m.targets.len());
            match count {
                None => push(
                    Severity::Error,
                    format!("morph_animations[{i}].node"),
                    format!("node {} has no mesh with morph targets", a.node),
                ),
                Some(n) => {
                    if a.targets.is_empty() || a.targets.iter().any(|&t| t >= n) {
                        push(
                            Severity::Error,
                            format!("morph_animations[{i}].targets"),
                            format!("needs at least one target, each below {n}"),
                        );
                    }
                }
            }
            if !(a.seconds_per_frame.is_finite() && a.seconds_per_frame > 0.0) {
                push(
                    Severity::Error,
                    format!("morph_animations[{i}].seconds_per_frame"),
                    "must be positive and finite".into(),
                );
            }
        }
    }

    fn validate_mesh(&self, mi: usize, m: &Mesh, push: &mut impl FnMut(Severity, String, String)) {
        let n = m.positions.len();
        if let Some(p) = m
            .positions
            .iter()
            .position(|p| !p.iter().all(|v| v.is_finite()))
        {
            push(
                Severity::Error,
                format!("meshes[{mi}].positions[{p}]"),
                "position is not finite".into(),
            );
        }
        for (fi, f) in m.faces.iter().enumerate() {
            // Made only for a face that is wrong: most are not.
            let at = || format!("meshes[{mi}].faces[{fi}]");
            if f.corners.len() < 3 {
                push(
                    Severity::Error,
                    at(),
                    format!(
                        "face has {} corners; at least 3 are needed",
                        f.corners.len()
                    ),
                );
            }
            if let Some(c) = f.corners.iter().find(|c| c.position as usize >= n) {
                push(
                    Severity::Error,
                    at(),
                    format!("corner uses position {} of {n}", c.position),
                );
            }
            if let Some(mat) = f.material
                && mat >= self.materials.len()
            {
                push(
                    Severity::Error,
                    at(),
                    format!("material {mat} does not exist"),
                );
            }
            let bad = f.corners.iter().any(|c| {
                c.uv.is_some_and(|v| !v.iter().all(|x| x.is_finite()))
                    || c.normal.is_some_and(|v| !v.iter().all(|x| x.is_finite()))
                    || c.color.is_some_and(|v| !v.iter().all(|x| x.is_finite()))
            });
            if bad {
                push(
                    Severity::Error,
                    at(),
                    "a corner attribute is not finite".into(),
                );
            }
        }
        for (li, l) in m.lines.iter().enumerate() {
            if l.points.len() < 2 || l.points.iter().any(|&p| p as usize >= n) {
                push(
                    Severity::Error,
                    format!("meshes[{mi}].lines[{li}]"),
                    "a line needs at least 2 points, each an existing position".into(),
                );
            }
        }
        if let Some(e) = m
            .hard_edges
            .iter()
            .find(|e| e.iter().any(|&p| p as usize >= n))
        {
            push(
                Severity::Warning,
                format!("meshes[{mi}].hard_edges"),
                format!("hard edge {e:?} names a position that does not exist"),
            );
        }
    }
}
