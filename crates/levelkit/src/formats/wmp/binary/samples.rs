//! A small WMPB level built in code, with the record layout of the corpus files: for doctests,
//! tests that must run without the corpus, and the fuzzer's seed.

use super::model::*;
use crate::strings::RawString;

fn text(id: u8, s: &str) -> Record {
    Record::new(
        id,
        1,
        Body::Text {
            text: RawString::new(s.as_bytes()),
        },
    )
}

fn doubles(id: u8, kind: u8, values: &[f64]) -> Record {
    Record::new(
        id,
        kind,
        Body::Doubles {
            values: values.iter().map(|&v| F64(v)).collect(),
        },
    )
}

fn value(id: u8, v: u32) -> Record {
    Record::new(id, 3, Body::Value { value: v })
}

fn container(id: u8, kind: u8, prefix: &[u32], children: Vec<Record>) -> Record {
    Record::new(
        id,
        kind,
        Body::Container {
            prefix: Bytes(prefix.iter().flat_map(|v| v.to_le_bytes()).collect()),
            children,
        },
    )
}

/// An object: prefix (type code, number of child objects, 0), class, optional name, position,
/// angles, scale, then `rest` (its data container and child objects).
fn object(
    code: u16,
    class: &str,
    name: Option<&str>,
    transform: [[f64; 3]; 3],
    rest: Vec<Record>,
) -> Record {
    let objects = rest.iter().filter(|r| r.id == 1 && r.kind == 5).count() as u32;
    let mut children = vec![text(2, class)];
    children.extend(name.map(|n| text(3, n)));
    let [position, angles, scale] = transform;
    children.push(doubles(1, 0, &position));
    children.push(doubles(3, 0, &angles));
    children.push(doubles(5, 0, &scale));
    children.extend(rest);
    container(1, 5, &[u32::from(code) | objects << 16, 0], children)
}

/// A unit cube (side 64, centred) as a block with block number `index` and `flags`.
fn cube(index: u32, flags: u32, transform: [[f64; 3]; 3]) -> Record {
    let h = 32.0;
    let points: Vec<[F64; 3]> = [
        [h, -h, h],
        [h, -h, -h],
        [h, h, h],
        [h, h, -h],
        [-h, -h, h],
        [-h, -h, -h],
        [-h, h, h],
        [-h, h, -h],
    ]
    .iter()
    .map(|p| p.map(F64))
    .collect();
    let polygons: Vec<Vec<u16>> = vec![
        vec![1, 0, 2, 3],
        vec![0, 1, 5, 4],
        vec![4, 5, 7, 6],
        vec![3, 2, 6, 7],
        vec![2, 0, 4, 6],
        vec![1, 3, 7, 5],
    ];
    let vectors: [[f64; 8]; 6] = [
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0],
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0],
    ];
    let face_flags = if flags & (1 << 16) != 0 { 1 << 28 } else { 0 };
    let mut geometry = vec![
        Record::new(1, 2, Body::Points { points }),
        Record::new(17, 2, Body::Polygons { polygons }),
    ];
    for (k, v) in vectors.iter().enumerate() {
        geometry.push(container(
            18,
            2,
            &[k as u32, face_flags, 0, 50f32.to_bits()],
            vec![
                text(3, "defaulttex"),
                doubles(5, 2, v),
                doubles(9, 2, &[0.0, 0.0, 0.0, 1.0, 1.0]),
            ],
        ));
    }
    object(
        0x104,
        "block",
        None,
        transform,
        vec![container(2, 5, &[index, flags], geometry)],
    )
}

fn model(name: &str, transform: [[f64; 3]; 3], skills: &[f64]) -> Record {
    let mut data = vec![text(3, name), text(11, "guard.mdl"), text(12, "patrol")];
    data.push(Record::new(
        11,
        2,
        Body::Counted {
            values: skills.iter().map(|&v| F64(v)).collect(),
        },
    ));
    object(
        0x235,
        "model",
        Some(name),
        transform,
        vec![container(
            9,
            5,
            &[3, 0x200, 0x200, 0, 50f32.to_bits()],
            data,
        )],
    )
}

/// A level: the root (sun 270/45) holds a plain block, a light, a path and a group at
/// (100, 0, 0) turned by pan 90° (radians, as WMPB stores them) and scaled by 2, which holds a
/// texture-locked block at (10, 0, 0) and a model at (0, 10, 0) with pan 45°.
pub fn level() -> Wmpb {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
    let identity = [[0.0; 3], [0.0; 3], [1.0; 3]];
    let header = container(
        1,
        4,
        &[710, 2, 7, 2, 4, 0],
        vec![text(1, "file created: 01.01.2024, wmpio (1.30)\n")],
    );
    let palette = container(
        2,
        4,
        &[],
        vec![Record::new(
            10,
            1,
            Body::Raw {
                bytes: Bytes((0..768u32).map(|i| (i / 3) as u8).collect()),
            },
        )],
    );
    let level_data = container(
        4,
        5,
        &[0, 0, 30, 270f32.to_bits(), 45f32.to_bits()],
        vec![
            value(4, 0),
            text(5, "main.c"),
            text(6, "palette.pcx"),
            value(1, 0xffff_ff00),
            value(1, 0xff64_3201),
            value(1, 0x3232_ff02),
            value(1, 0x0000_0003),
            value(2, 0x9696_9600),
            value(3, 0x3232_3200),
        ],
    );
    let light = object(
        0x25,
        "light",
        None,
        [[-50.0, 20.0, 30.0], [0.0; 3], [1.0; 3]],
        vec![container(
            7,
            5,
            &[2, 0, 183, 91, 0, 400f32.to_bits()],
            vec![],
        )],
    );
    let nodes: Vec<[F64; 3]> = [[0.0, 0.0, 0.0], [30.0, 40.0, 0.0], [30.0, 40.0, 12.0]]
        .iter()
        .map(|p| p.map(F64))
        .collect();
    let edges = (0..3u32)
        .map(|i| Edge {
            from: i,
            to: (i + 1) % 3,
            values: [F64(1.0), F64(0.0), F64(0.0), F64(0.0)],
        })
        .collect();
    let path = object(
        0x65,
        "path",
        Some("path_001"),
        [[0.0, 0.0, 64.0], [0.0; 3], [1.0; 3]],
        vec![container(
            10,
            5,
            &[6, 0],
            vec![
                text(3, "path_001"),
                Record::new(1, 2, Body::Points { points: nodes }),
                Record::new(
                    13,
                    2,
                    Body::Table {
                        rows: 3,
                        columns: 6,
                        values: vec![F64(0.0); 18],
                    },
                ),
                Record::new(15, 2, Body::Edges { edges }),
            ],
        )],
    );
    let group = object(
        0x3,
        "object",
        None,
        [[100.0, 0.0, 0.0], [FRAC_PI_2, 0.0, 0.0], [2.0; 3]],
        vec![
            cube(1, 1 << 16, [[10.0, 0.0, 0.0], [0.0; 3], [1.0; 3]]),
            model(
                "guard_mdl_001",
                [[0.0, 10.0, 0.0], [FRAC_PI_4, 0.0, 0.0], [1.0; 3]],
                &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            ),
        ],
    );
    let root = object(
        0x1,
        "level",
        Some("Root"),
        identity,
        vec![
            level_data,
            cube(0, 0, [[-100.0, 0.0, 0.0], [0.0; 3], [1.0; 3]]),
            light,
            path,
            group,
        ],
    );
    Wmpb {
        records: vec![header, palette, text(4, "wad0001.wad"), root],
    }
}
