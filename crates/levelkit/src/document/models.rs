//! Levels with their models: every model entity of a 3D GameStudio level scene (a node with
//! `extras.file` and `extras.kind` `"model"` in a WMP level, `"entity"` or `"old_entity"` in a
//! compiled WMB level) gets the model file it names, found through a
//! [`Resolver`] beside the level, as a mesh instance at the entity's position, angles and
//! scale. The file can be any 3D format levelkit reads (MDL, and whatever else converts to a
//! scene): it is read once, its meshes, materials and textures are added to the level scene
//! once, and every entity that names it gets its own copy of the model's nodes, which share
//! those meshes (glTF nodes sharing a mesh). A file that is missing or unreadable leaves the
//! entity an empty node, with one warning per file.
//!
//! Scene makers put the z-up to y-up turn on their root node (`model`, `level`); a placed
//! model goes under its entity, which is already inside the level's turned root, so the
//! model's roots are copied without their own transform.

use std::collections::HashMap;

use serde_json::Value;

use super::Model;
use crate::codec::Resolver;
use crate::error::{Location, Severity, Warning};
use crate::limits::Limits;
use crate::scene::{MorphAnimation, Morphs, Node, Scene, Transform};

/// The last part of a name written with either kind of slash.
fn file_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Whether an entity's file is a sprite (an image the engine shows as a billboard), not a
/// model: those entities are not model entities here.
fn is_sprite(name: &str) -> bool {
    let ext = file_name(name).rsplit_once('.').map_or("", |(_, e)| e);
    ["pcx", "bmp", "tga", "dds", "png", "jpg", "jpeg"]
        .iter()
        .any(|e| ext.eq_ignore_ascii_case(e))
}

/// Where one model file's pieces went in the level scene.
struct Imported {
    /// The model's own scene (its nodes are copied per instance).
    scene: Scene,
    /// Offsets of its meshes in the level scene.
    mesh_base: usize,
}

/// What [`place_models`] did.
#[derive(Debug, Default)]
pub struct PlacedModels {
    /// Entities that got their model.
    pub placed: usize,
    /// Model entities in the level.
    pub entities: usize,
    /// One warning per missing or unreadable file.
    pub warnings: Vec<Warning>,
}

/// Place the models of a 3D GameStudio level scene (see the module docs). Other documents
/// are left alone.
pub fn place_models(model: &Model, scene: &mut Scene, resolve: Resolver<'_>) -> PlacedModels {
    let mut done = PlacedModels::default();
    if !matches!(model, Model::Wmp(_) | Model::Wmpb(_) | Model::Wmb(_)) {
        return done;
    }
    // A WMP's model entities are `kind: "model"`; a compiled WMB's are its entity objects
    // (`entity`, A6/A7, and `old_entity`, A5) that name a file.
    let entities: Vec<(usize, String)> = scene
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            matches!(
                n.extras.get("kind").and_then(Value::as_str),
                Some("model" | "entity" | "old_entity")
            )
        })
        .filter_map(|(i, n)| {
            let file = n.extras.get("file").and_then(Value::as_str)?;
            (!file.is_empty() && !is_sprite(file)).then(|| (i, file.to_owned()))
        })
        .collect();
    done.entities = entities.len();
    let mut files: HashMap<String, Option<Imported>> = HashMap::new();
    for (node, name) in entities {
        let file = file_name(&name).to_owned();
        if !files.contains_key(&file) {
            let imported = import(&file, scene, resolve, &mut done.warnings);
            files.insert(file.clone(), imported);
        }
        let Some(Some(imported)) = files.get(&file) else {
            continue;
        };
        instance(scene, node, imported);
        done.placed += 1;
    }
    done
}

/// Read `file` and add its meshes, materials and textures to `scene`.
fn import(
    file: &str,
    scene: &mut Scene,
    resolve: Resolver<'_>,
    warnings: &mut Vec<Warning>,
) -> Option<Imported> {
    let warn = |message: String| Warning {
        format: scene.source_format,
        severity: Severity::Warning,
        location: Location::path(format!("models/{file}")),
        message,
    };
    let Some(bytes) = resolve(file) else {
        warnings.push(warn(format!(
            "model file {file} is not beside the level; its entities stay empty nodes"
        )));
        return None;
    };
    let model = match Model::read_with(&bytes, Some(file), &Limits::default(), &mut *resolve) {
        Ok(m) => m,
        Err(e) => {
            warnings.push(warn(format!(
                "model file {file} is not readable ({e}); its entities stay empty nodes"
            )));
            return None;
        }
    };
    let Some((mut model_scene, _)) = model.to_scene() else {
        warnings.push(warn(format!(
            "{file} is a {} file, not a 3D model; its entities stay empty nodes",
            model.format().name()
        )));
        return None;
    };
    let (mesh_base, material_base, texture_base) = (
        scene.meshes.len(),
        scene.materials.len(),
        scene.textures.len(),
    );
    for mesh in &mut model_scene.meshes {
        for face in &mut mesh.faces {
            face.material = face.material.map(|m| m + material_base);
        }
        for line in &mut mesh.lines {
            line.material = line.material.map(|m| m + material_base);
        }
    }
    for material in &mut model_scene.materials {
        for t in [
            &mut material.base_color_texture,
            &mut material.metallic_roughness_texture,
            &mut material.normal_texture,
            &mut material.occlusion_texture,
            &mut material.emissive_texture,
        ] {
            *t = t.map(|i| i + texture_base);
        }
    }
    scene.meshes.append(&mut model_scene.meshes);
    scene.materials.append(&mut model_scene.materials);
    scene.textures.append(&mut model_scene.textures);
    for m in &model_scene.morphs {
        scene.morphs.push(Morphs {
            mesh: m.mesh + mesh_base,
            targets: m.targets.clone(),
        });
    }
    Some(Imported {
        scene: model_scene,
        mesh_base,
    })
}

/// Copy the model's nodes under the entity node `parent`, sharing the imported meshes.
fn instance(scene: &mut Scene, parent: usize, imported: &Imported) {
    let model = &imported.scene;
    let base = scene.nodes.len();
    for (i, n) in model.nodes.iter().enumerate() {
        let mut node = Node {
            name: n.name.clone(),
            transform: n.transform,
            children: n.children.iter().map(|c| c + base).collect(),
            mesh: n.mesh.map(|m| m + imported.mesh_base),
            light: None,
            camera: None,
            extras: n.extras.clone(),
        };
        if model.roots.contains(&i) {
            node.transform = Transform::IDENTITY;
        }
        scene.nodes.push(node);
    }
    let roots: Vec<usize> = model.roots.iter().map(|r| r + base).collect();
    if let Some(p) = scene.nodes.get_mut(parent) {
        p.children.extend(roots);
    }
    for a in &model.morph_animations {
        scene.morph_animations.push(MorphAnimation {
            name: a.name.clone(),
            node: a.node + base,
            targets: a.targets.clone(),
            seconds_per_frame: a.seconds_per_frame,
        });
    }
}
