//! Small models built by this crate (never copied from real files), for tests, examples and
//! the bundled samples: one per layout family.

use super::model::*;

fn name16(text: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (o, b) in out.iter_mut().zip(text.bytes()) {
        *o = b;
    }
    out
}

fn header(num_verts: u32, size: i32) -> ClassicHeader {
    ClassicHeader {
        version: 0,
        scale: [0.5, 0.5, 0.5],
        translate: [-8.0, -8.0, 0.0],
        radius: 12.0,
        eye: [0.0, 0.0, 20.0],
        skin_width: size,
        skin_height: size,
        num_verts,
        sync_type: 0,
        flags: 0,
        size: 0,
    }
}

/// The pyramid's five corners, packed (base square, apex), lifted by `lift` for later frames.
fn pyramid_pose(name: &str, lift: u16, words: bool) -> Pose {
    let top = if words { 40 + lift * 4 } else { 40 + lift };
    let corners = [
        [0, 0, 0],
        [32, 0, 0],
        [32, 32, 0],
        [0, 32, 0],
        [16, 16, top],
    ];
    pose(name, &corners, [32, 32, top])
}

/// A pose of packed `corners` (each with the normal of its own index) whose bounding box runs
/// from the origin to `max`.
fn pose(name: &str, corners: &[[u16; 3]], max: [u16; 3]) -> Pose {
    Pose {
        min: PackedVertex::default(),
        max: PackedVertex {
            position: max,
            ..PackedVertex::default()
        },
        name: name16(name),
        vertices: corners
            .iter()
            .enumerate()
            .map(|(i, &position)| PackedVertex {
                position,
                normal: i as u8,
                pad: 0,
            })
            .collect(),
    }
}

/// A 2x2 RGB 565 picture: red, green, blue, white.
fn skin_565() -> Vec<u8> {
    [0xF800u16, 0x07E0, 0x001F, 0xFFFF]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// MDL3: a four-sided pyramid (no base), a 2x2 565 skin, two frames `walk1`, `walk2`.
pub fn mdl3_pyramid() -> Mdl {
    Mdl::Classic(Classic {
        version: ClassicVersion::Mdl3,
        header: header(5, 2),
        skins: vec![Skin::Single {
            kind: 2,
            size: None,
            pixels: skin_565(),
            mips: Vec::new(),
        }],
        texcoords: TexCoords::Skin(vec![[0, 1], [1, 1], [1, 0], [0, 0], [1, 1]]),
        triangles: Triangles::Skin(
            [[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]]
                .iter()
                .map(|&v| SkinTriangle {
                    vertices: v,
                    uvs: v,
                })
                .collect(),
        ),
        frames: vec![
            Frame::Single {
                kind: 0,
                pose: pyramid_pose("walk1", 0, false),
            },
            Frame::Single {
                kind: 0,
                pose: pyramid_pose("walk2", 8, false),
            },
        ],
        trailer: Vec::new(),
    })
}

/// MDL5: the pyramid with a mipmapped 8x8 888 skin of its own size and 16-bit frames.
pub fn mdl5_pyramid() -> Mdl {
    let Mdl::Classic(mut c) = mdl3_pyramid() else {
        return mdl3_pyramid();
    };
    c.version = ClassicVersion::Mdl5;
    c.header.skin_width = 0;
    c.header.skin_height = 0;
    c.skins = vec![Skin::Single {
        kind: 4 | 8,
        size: Some([8, 8]),
        pixels: (0..8 * 8 * 3).map(|i| (i * 7 % 256) as u8).collect(),
        mips: vec![0x80; (16 + 4 + 1) * 3],
    }];
    c.frames = vec![
        Frame::Single {
            kind: 2,
            pose: pyramid_pose("stand", 0, true),
        },
        Frame::Single {
            kind: 2,
            pose: pyramid_pose("jump1", 300, true),
        },
        Frame::Single {
            kind: 2,
            pose: pyramid_pose("jump2", 600, true),
        },
    ];
    for f in &mut c.frames {
        if let Frame::Single { pose, .. } = f {
            for v in pose
                .vertices
                .iter_mut()
                .chain([&mut pose.min, &mut pose.max])
            {
                v.pad = 0x55;
            }
        }
    }
    Mdl::Classic(c)
}

/// IDPO (Quake): the pyramid with an animated 8-bit skin group, seam texture coordinates and a
/// frame group, plus a trailer.
pub fn idpo_pyramid() -> Mdl {
    let mut h = header(5, 4);
    h.version = 6;
    h.size = 2.5f32.to_bits();
    Mdl::Classic(Classic {
        version: ClassicVersion::Idpo,
        header: h,
        skins: vec![
            Skin::Single {
                kind: 0,
                size: None,
                pixels: (0..16).collect(),
                mips: Vec::new(),
            },
            Skin::Group {
                times: vec![0.1, 0.2],
                pictures: vec![vec![7; 16], vec![9; 16]],
            },
        ],
        texcoords: TexCoords::Quake(
            [[0, 0, 3], [1, 3, 3], [0, 3, 0], [0, 0, 0], [1, 1, 1]]
                .iter()
                .map(|&[on_seam, s, t]| QuakeTexCoord { on_seam, s, t })
                .collect(),
        ),
        triangles: Triangles::Quake(
            [[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]]
                .iter()
                .enumerate()
                .map(|(i, &vertices)| QuakeTriangle {
                    faces_front: i32::from(i % 2 == 0),
                    vertices,
                })
                .collect(),
        ),
        frames: vec![
            Frame::Single {
                kind: 0,
                pose: pyramid_pose("base", 0, false),
            },
            Frame::Group {
                kind: 1,
                min: PackedVertex::default(),
                max: PackedVertex {
                    position: [32, 32, 60],
                    ..PackedVertex::default()
                },
                times: vec![0.1, 0.2],
                poses: vec![
                    pyramid_pose("swim1", 10, false),
                    pyramid_pose("swim2", 20, false),
                ],
            },
        ],
        trailer: b"QMEX extra".to_vec(),
    })
}

/// MDL7: a quad in one group with two bones and weights, 26-byte records, a 2x2 ARGB 8888 skin
/// with a material and an effect, an external skin, and two frames that move one vertex.
pub fn mdl7_quad() -> Mdl {
    let vertex = |position: [f32; 3], bone: u16| Vertex7 {
        position,
        index: bone,
        normal: Normal7::Vector([0.0, 0.0, 1.0]),
    };
    let name20 = |text: &str| -> [u8; 20] {
        let mut out = [0u8; 20];
        for (o, b) in out.iter_mut().zip(text.bytes()) {
            *o = b;
        }
        out
    };
    let bone_name = name20("root").to_vec();
    let tip = name20("tip").to_vec();
    let element_name = name20("root");
    let external = b"quad.pcx\0".to_vec();
    Mdl::Mdl7(Mdl7 {
        header: Mdl7Header {
            version: 0,
            data_size: 0,
            entlump_size: 0,
            medlump_size: 0,
            sizes: StructSizes {
                bone: 36,
                skin: 28,
                color: 16,
                material: 68,
                skin_point: 8,
                triangle: 26,
                main_vertex: 26,
                frame_vertex: 26,
                bone_transform: 68,
                frame: 24,
            },
        },
        bones: vec![
            Bone {
                parent: 0xffff,
                pad: 0,
                position: [0.0, 0.0, 0.0],
                name: bone_name,
            },
            Bone {
                parent: 0,
                pad: 0,
                position: [0.0, 0.0, 8.0],
                name: tip,
            },
        ],
        groups: vec![Group {
            kind: 1,
            max_weights: 1,
            unused: 0,
            data_size: 0,
            name: name16("quad"),
            skins: vec![
                Skin7 {
                    kind: 5 | 0x10 | 0x20,
                    unused: [0; 3],
                    width: 2,
                    height: 2,
                    name: name16("Skin1"),
                    data: SkinData::Pixels {
                        pixels: vec![
                            0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255, 255, 255, 255, 128,
                        ],
                        mips: Vec::new(),
                    },
                    material: Some(Material7 {
                        diffuse: [1.0, 0.5, 0.25, 1.0],
                        ambient: [0.1; 4],
                        specular: [0.0; 4],
                        emissive: [0.0; 4],
                        power: 8.0,
                    }),
                    effect: Some(b"effect = \"x.fx\";".to_vec()),
                },
                Skin7 {
                    kind: 7,
                    unused: [0; 3],
                    width: external.len() as i32,
                    height: 1,
                    name: name16("Skin2"),
                    data: SkinData::External(external),
                    material: None,
                    effect: None,
                },
            ],
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
            triangles: vec![
                Triangle7 {
                    vertices: [0, 1, 2],
                    uvs: [0, 1, 2],
                    material: 0,
                    uvs2: [0xffff; 3],
                    material2: 0xffff_ffff,
                },
                Triangle7 {
                    vertices: [0, 2, 3],
                    uvs: [0, 2, 3],
                    material: 0,
                    uvs2: [0xffff; 3],
                    material2: 0xffff_ffff,
                },
            ],
            vertices: vec![
                vertex([-8.0, -8.0, 0.0], 0),
                vertex([8.0, -8.0, 0.0], 0),
                vertex([8.0, 8.0, 0.0], 1),
                vertex([-8.0, 8.0, 0.0], 1),
            ],
            frames: vec![
                Frame7 {
                    name: name16("wave 0"),
                    vertices: vec![vertex([8.0, 8.0, 2.0], 2)],
                    transforms: Vec::new(),
                },
                Frame7 {
                    name: name16("wave 1"),
                    vertices: vec![vertex([8.0, 8.0, 4.0], 2)],
                    transforms: vec![BoneTransform {
                        matrix: [
                            1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
                            2.0, 1.0,
                        ],
                        bone: 1,
                        pad: [0; 2],
                    }],
                },
            ],
            deformers: vec![Deformer {
                version: 0,
                kind: 0,
                unused: [0; 2],
                group: 0,
                data_size: 16 + 28 + 16,
                elements: vec![DeformerElement {
                    index: 0,
                    name: element_name,
                    weights: vec![(0, 1.0), (1, 1.0)],
                }],
            }],
        }],
        trailer: Vec::new(),
    })
}

/// MDL7 of two groups with bones, laid out as MED writes a boned model of several groups (as
/// Acknex/Wichtelwald's `player.mdl` is): [`mdl7_quad`] and a second group, a triangle with
/// no skins of its own (its triangles use the first group's skin 0) and a deformer of its
/// own. In the file both groups' deformers follow the second group, and the header's
/// `data_size` ends with them.
pub fn mdl7_two_groups() -> Mdl {
    let Mdl::Mdl7(mut m) = mdl7_quad() else {
        return mdl7_quad();
    };
    let Some(first) = m.groups.first().cloned() else {
        return Mdl::Mdl7(m);
    };
    let vertex = |position: [f32; 3]| Vertex7 {
        position,
        index: 1,
        normal: Normal7::Vector([0.0, 0.0, 1.0]),
    };
    let mut tip = first.clone();
    tip.name = name16("tip");
    tip.skins = Vec::new();
    tip.uvs = vec![[0.0, 0.0], [1.0, 0.0], [0.5, 1.0]];
    tip.triangles.truncate(1);
    tip.vertices = vec![
        vertex([-2.0, 8.0, 0.0]),
        vertex([2.0, 8.0, 0.0]),
        vertex([0.0, 12.0, 0.0]),
    ];
    for f in &mut tip.frames {
        f.vertices = vec![Vertex7 {
            index: 2,
            ..vertex([0.0, 12.0, 3.0])
        }];
    }
    for d in &mut tip.deformers {
        d.group = 1;
        for e in &mut d.elements {
            e.index = 1;
            e.weights = vec![(0, 1.0), (1, 1.0), (2, 1.0)];
        }
    }
    m.groups.push(tip);
    // `data_size`: the file up to the end of the deformers (no MED lump here).
    if let Ok(bytes) = Mdl::Mdl7(m.clone()).write() {
        m.header.data_size = u32::try_from(bytes.len()).unwrap_or(0);
    }
    Mdl::Mdl7(m)
}

/// MDL3: a wooden crate, the model `samples/room.wmp` places (`crate.mdl`): a cube of eight
/// corners and twelve triangles, one frame `crate1`, a 4 x 4 565 skin of planks (light boards,
/// dark seams).
pub fn mdl3_crate() -> Mdl {
    let corners: [[u16; 3]; 8] = [
        [0, 0, 0],
        [32, 0, 0],
        [32, 32, 0],
        [0, 32, 0],
        [0, 0, 32],
        [32, 0, 32],
        [32, 32, 32],
        [0, 32, 32],
    ];
    // Each face as two triangles, outward (counter-clockwise seen from outside).
    let faces: [[u16; 4]; 6] = [
        [0, 3, 2, 1],
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ];
    let triangles = faces
        .iter()
        .flat_map(|&[a, b, c, d]| {
            [
                SkinTriangle {
                    vertices: [a, b, c],
                    uvs: [0, 1, 2],
                },
                SkinTriangle {
                    vertices: [a, c, d],
                    uvs: [0, 2, 3],
                },
            ]
        })
        .collect();
    let light = 0xA3A8u16; // RGB 565 of a light wood
    let dark = 0x6203u16; // and of its seams
    let pixels = (0..16)
        .map(|i| if i % 4 == 0 { dark } else { light })
        .flat_map(|v: u16| v.to_le_bytes())
        .collect();
    Mdl::Classic(Classic {
        version: ClassicVersion::Mdl3,
        header: header(8, 4),
        skins: vec![Skin::Single {
            kind: 2,
            size: None,
            pixels,
            mips: Vec::new(),
        }],
        texcoords: TexCoords::Skin(vec![[0, 0], [4, 0], [4, 4], [0, 4]]),
        triangles: Triangles::Skin(triangles),
        frames: vec![Frame::Single {
            kind: 0,
            pose: pose("crate1", &corners, [32, 32, 32]),
        }],
        trailer: Vec::new(),
    })
}

/// Every sample.
pub fn all() -> Vec<(&'static str, Mdl)> {
    vec![
        ("mdl3-pyramid.mdl", mdl3_pyramid()),
        ("mdl5-pyramid.mdl", mdl5_pyramid()),
        ("idpo-pyramid.mdl", idpo_pyramid()),
        ("mdl7-quad.mdl", mdl7_quad()),
        ("mdl7-two-groups.mdl", mdl7_two_groups()),
    ]
}
