//! A small level built in code, for the bundled sample (`samples/room.wmp`), tests and
//! benchmarks: a floor, four walls and a pillar in two groups, a start position, two lights, a
//! model and a closed path.

use serde_json::json;

use super::level::{Block, Entity, EntityKind, Face, Group, Level, Settings, Transform};

/// An axis-aligned box from `min` to `max`, faces clockwise seen from outside (as the editors
/// write them), every face with `texture`.
pub fn box_block(min: [f64; 3], max: [f64; 3], texture: &str) -> Block {
    let [x0, y0, z0] = min;
    let [x1, y1, z1] = max;
    // The vertex order of wmp.txt's example block: x high first, then y, then z.
    let vertices = vec![
        [x1, y0, z1],
        [x1, y0, z0],
        [x1, y1, z1],
        [x1, y1, z0],
        [x0, y0, z1],
        [x0, y0, z0],
        [x0, y1, z1],
        [x0, y1, z0],
    ];
    // wmp.txt's faces, with its texture vectors.
    let faces: [([u32; 4], [[f64; 4]; 2]); 6] = [
        ([1, 0, 2, 3], [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]),
        ([0, 1, 5, 4], [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]),
        ([4, 5, 7, 6], [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]),
        ([3, 2, 6, 7], [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]]),
        ([2, 0, 4, 6], [[1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0]]),
        ([1, 3, 7, 5], [[1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0]]),
    ];
    Block {
        transform: Transform::IDENTITY,
        vertices,
        faces: faces
            .iter()
            .map(|(indices, vectors)| Face {
                indices: indices.to_vec(),
                texture: texture.to_owned(),
                texture_vectors: Some(*vectors),
                texture_transform: Some([0.0, 0.0, 0.0, 1.0, 1.0]),
                flags: "0000".into(),
                ambient: 0.0,
                albedo: 50.0,
                material: "ndef".into(),
                uvs: None,
            })
            .collect(),
        flags: "0000".into(),
        function: "ndef".into(),
        group: None,
    }
}

fn entity(kind: EntityKind, number: u32, name: Option<&str>) -> Entity {
    Entity {
        kind,
        number,
        name: name.map(str::to_owned),
        file: None,
        transform: Transform::IDENTITY,
        light: None,
        path_nodes: Vec::new(),
        path_edges: Vec::new(),
        fields: serde_json::Map::new(),
        group: None,
    }
}

fn group(name: &str, position: [f64; 3], angles: [f64; 3]) -> Group {
    Group {
        name: Some(name.to_owned()),
        transform: Transform {
            position,
            angles,
            scale: [1.0; 3],
        },
        ..Group::default()
    }
}

/// The sample room (see the module docs). Text levels number entities from the level (0),
/// so the other entities are 1….
pub fn room() -> Level {
    let mut level = Level {
        settings: Settings {
            wad: Some("room.$$w".into()),
            palette: Some("palette.pcx".into()),
            script: Some("room.wdl".into()),
            sun: vec![30.0, 45.0, 60.0],
            colors: vec![
                [100.0, 100.0, 90.0],
                [20.0, 20.0, 25.0],
                [50.0, 50.0, 60.0],
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0],
                [0.0, 0.0, 0.0],
            ],
        },
        ..Level::default()
    };
    // As the editor does, every block and entity sits in a group of its own that places it
    // (block vertices are relative to it); group 1 is the room, group 2 a pillar turned 45°.
    let mut start = entity(EntityKind::Start, 1, Some("pos_001"));
    start.fields.insert("angle".into(), json!(null));
    let mut light = entity(EntityKind::Light, 2, None);
    light.light = Some(([100.0, 80.0, 40.0], 300.0));
    let mut lamp = entity(EntityKind::Light, 3, None);
    lamp.light = Some(([20.0, 40.0, 100.0], 150.0));
    let mut model = entity(EntityKind::Model, 4, Some("crate_mdl_004"));
    model.file = Some("crate.mdl".into());
    model.fields.insert("action".into(), json!("ndef"));
    model.fields.insert("skills".into(), json!(vec![0.0; 8]));
    model.fields.insert("flags".into(), json!("0000"));
    model.fields.insert("ambient".into(), json!(0.0));
    model.fields.insert("albedo".into(), json!(50.0));
    let mut path = entity(EntityKind::Path, 5, Some("path_001"));
    path.path_nodes = vec![
        [-128.0, -128.0, 0.0],
        [128.0, -128.0, 0.0],
        [128.0, 128.0, 0.0],
        [-128.0, 128.0, 0.0],
    ];
    path.path_edges = vec![
        vec![1.0, 2.0, 1.0, 0.0, 0.0, 0.0],
        vec![2.0, 3.0, 1.0, 0.0, 0.0, 0.0],
        vec![3.0, 4.0, 1.0, 0.0, 0.0, 0.0],
        vec![4.0, 1.0, 1.0, 0.0, 0.0, 0.0],
    ];
    path.fields
        .insert("skills".into(), json!(vec![vec![0.0; 6]; 4]));

    let mut root = group("Root", [0.0; 3], [0.0; 3]);
    root.holds_level = true;
    root.groups = vec![1];
    level.groups = vec![root, group("room", [0.0; 3], [0.0; 3])];
    // (min, max, texture) in room coordinates.
    let shell: [([f64; 3], [f64; 3], &str); 5] = [
        ([-256.0, -256.0, -16.0], [256.0, 256.0, 0.0], "floor"),
        ([-256.0, 256.0, 0.0], [256.0, 272.0, 128.0], "brick"),
        ([-256.0, -272.0, 0.0], [256.0, -256.0, 128.0], "brick"),
        ([256.0, -256.0, 0.0], [272.0, 256.0, 128.0], "brick"),
        ([-272.0, -256.0, 0.0], [-256.0, 256.0, 128.0], "brick"),
    ];
    for (min, max, texture) in shell {
        let centre = [
            (min[0] + max[0]) / 2.0,
            (min[1] + max[1]) / 2.0,
            (min[2] + max[2]) / 2.0,
        ];
        let local = |p: [f64; 3]| [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
        add_block(
            &mut level,
            1,
            centre,
            [0.0; 3],
            box_block(local(min), local(max), texture),
        );
    }
    let pillar = add_group(
        &mut level,
        1,
        group(
            "pillar",
            [64.0, 64.0, 64.0],
            [std::f64::consts::FRAC_PI_4, 0.0, 0.0],
        ),
    );
    add_block(
        &mut level,
        pillar,
        [0.0; 3],
        [0.0; 3],
        box_block([-16.0, -16.0, -64.0], [16.0, 16.0, 64.0], "marble"),
    );
    add_entity(&mut level, 1, [-200.0, -200.0, 48.0], start);
    add_entity(&mut level, 1, [0.0, 0.0, 120.0], light);
    add_entity(&mut level, pillar, [0.0, 24.0, 40.0], lamp);
    add_entity(&mut level, 1, [160.0, -96.0, 16.0], model);
    add_entity(&mut level, 1, [0.0, 0.0, 32.0], path);
    level
}

fn add_group(level: &mut Level, parent: usize, g: Group) -> usize {
    let index = level.groups.len();
    level.groups.push(g);
    if let Some(p) = level.groups.get_mut(parent) {
        p.groups.push(index);
    }
    index
}

fn add_block(level: &mut Level, parent: usize, at: [f64; 3], angles: [f64; 3], mut block: Block) {
    let g = add_group(level, parent, group_unnamed(at, angles));
    block.group = Some(g);
    if let Some(leaf) = level.groups.get_mut(g) {
        leaf.blocks.push(level.blocks.len());
    }
    level.blocks.push(block);
}

fn add_entity(level: &mut Level, parent: usize, at: [f64; 3], mut e: Entity) {
    let g = add_group(level, parent, group_unnamed(at, [0.0; 3]));
    e.group = Some(g);
    if let Some(leaf) = level.groups.get_mut(g) {
        leaf.entities.push(level.entities.len());
    }
    level.entities.push(e);
}

fn group_unnamed(position: [f64; 3], angles: [f64; 3]) -> Group {
    Group {
        name: None,
        transform: Transform {
            position,
            angles,
            scale: [1.0; 3],
        },
        ..Group::default()
    }
}
