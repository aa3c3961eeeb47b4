//! The text form of a scene (`levelkit dump` of glTF, OBJ and the 3D formats without a dump of
//! their own): one line per node, mesh, material, texture, light, camera and animation.

use std::fmt::Write as _;

use super::Scene;

/// The text dump of a scene; `header` is its first line (`model.glb: glb scene`).
pub fn dump(header: &str, scene: &Scene) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_scene(&mut s, header, scene);
    s
}

/// A glTF or OBJ scene: one line per node, mesh, material, texture, light, camera and animation.
fn dump_scene(s: &mut String, header: &str, scene: &Scene) -> std::fmt::Result {
    use super::TextureSource;
    writeln!(s, "{header}")?;
    let label = |n: &Option<String>| n.as_deref().unwrap_or("(unnamed)").to_owned();
    for (i, node) in scene.nodes.iter().enumerate() {
        writeln!(
            s,
            "node {i} {:?}: children {:?}, mesh {:?}, light {:?}, camera {:?}, {:?}",
            label(&node.name),
            node.children,
            node.mesh,
            node.light,
            node.camera,
            node.transform
        )?;
    }
    for (i, mesh) in scene.meshes.iter().enumerate() {
        let corners: usize = mesh.faces.iter().map(|f| f.corners.len()).sum();
        writeln!(
            s,
            "mesh {i} {:?}: {} positions, {} faces ({corners} corners), {} lines, {} hard edges{}",
            label(&mesh.name),
            mesh.positions.len(),
            mesh.faces.len(),
            mesh.lines.len(),
            mesh.hard_edges.len(),
            if mesh.flat { ", flat" } else { "" }
        )?;
    }
    for (i, m) in scene.materials.iter().enumerate() {
        writeln!(
            s,
            "material {i} {:?}: base {:?}, metallic {}, roughness {}, texture {:?}",
            label(&m.name),
            m.base_color,
            m.metallic,
            m.roughness,
            m.base_color_texture
        )?;
    }
    for (i, t) in scene.textures.iter().enumerate() {
        let what = match &t.source {
            TextureSource::Pixels {
                width,
                height,
                channels,
                ..
            } => format!("{width}x{height} pixels, {channels} channels"),
            TextureSource::Encoded { mime_type, data } => {
                format!("{mime_type}, {} bytes", data.len())
            }
            TextureSource::File(uri) => format!("file {uri:?}"),
        };
        writeln!(s, "texture {i} {:?}: {what}", label(&t.name))?;
    }
    for (i, l) in scene.lights.iter().enumerate() {
        writeln!(
            s,
            "light {i} {:?}: {:?}, colour {:?}",
            label(&l.name),
            l.kind,
            l.color
        )?;
    }
    for (i, c) in scene.cameras.iter().enumerate() {
        writeln!(s, "camera {i} {:?}: {:?}", label(&c.name), c.projection)?;
    }
    for (i, a) in scene.animations.iter().enumerate() {
        writeln!(
            s,
            "animation {i} {:?}: node {}, {:?}",
            label(&a.name),
            a.node,
            a.motion
        )?;
    }
    Ok(())
}
