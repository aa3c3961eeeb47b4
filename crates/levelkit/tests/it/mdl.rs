//! Quake and GameStudio `.mdl` models: our samples and every corpus file round-trip byte for
//! byte and through JSON; truncation and garbage sweeps with bounded allocation; hostile counts
//! refused before allocating; a proptest model -> bytes -> model; the scene (morph targets,
//! animations per frame-name group, seam UVs); the Khronos validator on the `.glb` exports;
//! assimp's triangle counts side by side; and a level with its models placed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use crate::common;
use crate::common::Rng;
use crate::common::alloc::peak_during;

use levelkit::document::Model;
use levelkit::formats::mdl::{self, samples, *};
use levelkit::gltf::{self, GltfOptions};
use levelkit::scene::Scene;
use levelkit::{ErrorKind, Limits, Severity};

// ---- helpers ----------------------------------------------------------------------------------

fn glb(scene: &Scene) -> Vec<u8> {
    gltf::write(
        scene,
        &GltfOptions {
            binary: true,
            embed: true,
            stem: "x".into(),
        },
    )
    .unwrap()
    .main
}

/// Every `.mdl` of the corpus (both folders), sorted.
fn corpus_files() -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    for sub in ["gamestudio/mdl", "gamestudio/kingsbridge"] {
        let dir = common::corpus_or_skip(sub, "MDL corpus checks")?;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let is_mdl = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("mdl"));
            if is_mdl {
                files.push(path);
            }
        }
    }
    files.sort();
    Some(files)
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

// ---- samples ----------------------------------------------------------------------------------

#[test]
fn samples_round_trip_bytes_and_json() {
    for (name, model) in samples::all() {
        let bytes = model.write().unwrap();
        let again = Mdl::read(&bytes).unwrap();
        assert_eq!(again, model, "{name}");
        assert_eq!(again.write().unwrap(), bytes, "{name}");
        assert_no_errors(&model.validate(), name);
        let json = serde_json::to_string(&model).unwrap();
        let back: Mdl = serde_json::from_str(&json).unwrap();
        assert_eq!(back, model, "{name} through JSON");
        // Through the document layer too: sniffed by magic.
        let doc = Model::read(&bytes, None, &Limits::default()).unwrap();
        assert!(matches!(doc, Model::Mdl(_)), "{name}");
    }
}

#[test]
fn sample_layouts_are_what_the_sources_say() {
    let bytes = samples::mdl3_pyramid().write().unwrap();
    // 84-byte header, one 2x2 565 skin (4 + 8), 5 skin vertices (20), 4 triangles (48),
    // 2 frames of 4 + 4 + 4 + 16 + 5 * 4.
    assert_eq!(bytes.len(), 84 + 12 + 20 + 48 + 2 * (28 + 20));
    assert_eq!(&bytes[0x30..0x34], &1i32.to_le_bytes()); // skins
    assert_eq!(&bytes[0x3c..0x40], &5i32.to_le_bytes()); // vertices
    assert_eq!(&bytes[0x48..0x4c], &5i32.to_le_bytes()); // skin vertices in the sync word
    let bytes = samples::mdl7_quad().write().unwrap();
    assert_eq!(&bytes[..4], b"MDL7");
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes()); // bones
    // Header 48, two 36-byte bones, then the 44-byte group header.
    assert_eq!(bytes[48 + 72], 1); // group type
    assert_eq!(bytes[48 + 72 + 1], 1); // deformers
}

/// A boned MDL7 of several groups stores every group's deformers after the last group (as
/// Acknex/Wichtelwald `player.mdl`, Morbius `char.mdl` and Ackmania `warhand.mdl` do): the
/// second group's header comes right after the first group's last frame, and the header's
/// `data_size` ends with the deformers. Read per group, the second group's header was taken
/// from the first group's deformer.
#[test]
fn deformers_of_every_group_follow_the_last_group() {
    let model = samples::mdl7_two_groups();
    let bytes = model.write().unwrap();
    let Mdl::Mdl7(m) = Mdl::read(&bytes).unwrap() else {
        panic!("not MDL7")
    };
    assert_eq!(Mdl::Mdl7(m.clone()), model);
    assert_eq!(m.groups.len(), 2);
    assert_eq!(m.header.data_size as usize, bytes.len());
    let deformer = |g: &Group| -> usize {
        g.deformers
            .iter()
            .map(|d| {
                16 + d
                    .elements
                    .iter()
                    .map(|e| 28 + 8 * e.weights.len())
                    .sum::<usize>()
            })
            .sum()
    };
    let (d0, d1) = (deformer(&m.groups[0]), deformer(&m.groups[1]));
    assert!(d0 > 0 && d1 > 0);
    // The deformers are the last bytes, group 0's first; group 1's header precedes them.
    let second = bytes.len() - d0 - d1 - group_bytes(&m.groups[1], &m.header.sizes);
    assert_eq!(&bytes[second + 8..second + 11], b"tip", "group 1's name");
    assert_eq!(bytes[second + 1], 1, "group 1 counts its deformer");
    let first_deformer = bytes.len() - d0 - d1;
    assert_eq!(
        &bytes[first_deformer + 4..first_deformer + 8],
        &0i32.to_le_bytes()
    );
    assert_eq!(
        &bytes[first_deformer + d0 + 4..first_deformer + d0 + 8],
        &1i32.to_le_bytes()
    );
    assert_eq!(m.groups[1].deformers[0].group, 1);
    assert!(m.groups[1].skins.is_empty());
    assert_eq!(Mdl::Mdl7(m.clone()).validate(), vec![]);
    let (scene, _) = mdl::scene::to_scene(&Mdl::Mdl7(m));
    assert_eq!(scene.meshes.len(), 2);
    assert_eq!(scene.meshes[1].faces.len(), 1);
    assert_eq!(scene.validate().len(), 0);
}

/// The bytes of an MDL7 group without its deformers.
fn group_bytes(g: &Group, s: &StructSizes) -> usize {
    let skins: usize = g
        .skins
        .iter()
        .map(|k| {
            28 + match &k.data {
                SkinData::Pixels { pixels, mips } => pixels.len() + mips.len(),
                SkinData::Dds(b) | SkinData::External(b) => b.len(),
                SkinData::None => 0,
            } + if k.material.is_some() { 68 } else { 0 }
                + k.effect.as_ref().map_or(0, |e| 4 + e.len())
        })
        .sum();
    let frames: usize = g
        .frames
        .iter()
        .map(|f| 24 + f.vertices.len() * s.frame_vertex as usize + f.transforms.len() * 68)
        .sum();
    44 + skins
        + g.uvs.len() * 8
        + g.triangles.len() * s.triangle as usize
        + g.vertices.len() * s.main_vertex as usize
        + frames
}

#[test]
fn writer_refuses_models_that_would_not_read_back() {
    let Mdl::Classic(mut c) = samples::mdl3_pyramid() else {
        unreachable!()
    };
    c.header.num_verts = 4;
    let e = Mdl::Classic(c).write().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Malformed);
    let Mdl::Mdl7(mut m) = samples::mdl7_quad() else {
        unreachable!()
    };
    m.header.sizes.triangle = 12;
    assert!(Mdl::Mdl7(m).write().is_err());
}

// ---- sweeps -----------------------------------------------------------------------------------

fn small_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = samples::all()
        .into_iter()
        .map(|(n, m)| (n.to_owned(), m.write().unwrap()))
        .collect();
    if let Some(files) = corpus_files() {
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            if bytes.len() <= 4096 {
                out.push((name(&f), bytes));
            }
        }
    }
    out
}

#[test]
fn every_prefix_is_an_error_never_a_panic() {
    for (name, bytes) in small_inputs() {
        let full = Mdl::read(&bytes).unwrap();
        for len in 0..bytes.len() {
            match Mdl::read(&bytes[..len]) {
                Err(_) => {}
                // A prefix can only read when the rest was trailer bytes.
                Ok(m) => {
                    let trailer = match &full {
                        Mdl::Classic(c) => c.trailer.len(),
                        Mdl::Mdl7(m) => m.trailer.len(),
                    };
                    assert!(
                        len >= bytes.len() - trailer,
                        "{name}: prefix of {len} bytes read: {:?}",
                        m.summary()
                    );
                }
            }
        }
    }
}

#[test]
fn garbage_never_panics_and_allocation_stays_bounded() {
    let mut rng = Rng(0x5eed_0d17);
    for (name, bytes) in small_inputs() {
        for round in 0..1500 {
            let mut b = bytes.clone();
            let flips = 1 + rng.below(8);
            for _ in 0..flips {
                let at = rng.below(b.len());
                b[at] = rng.next() as u8;
            }
            if round % 3 == 0 {
                // Hit the header's counts and sizes harder.
                let at = rng.below(b.len().min(0x60));
                b[at] = 0xff;
            }
            let (result, peak) = peak_during(|| Mdl::read_with(&b, &Limits::strict()));
            assert!(
                peak <= 64 * b.len() + (1 << 20),
                "{name} round {round}: {peak} bytes allocated for {} bytes of input",
                b.len()
            );
            if let Ok(m) = result {
                // Whatever reads writes back to the same bytes.
                assert_eq!(m.write().unwrap(), b, "{name} round {round}");
                let _ = mdl::scene::to_scene(&m);
                let _ = m.validate();
            }
        }
    }
}

/// The prefixes the corpus sweep reads: every one in the first 4 KiB (headers, skins, the
/// first records) and the last 1 KiB (frames, deformers, trailers), about 1 500 evenly spaced
/// between (every prefix of a 400 KiB file is 80 GB of reading in a debug build).
fn sweep_cuts(len: usize) -> Vec<usize> {
    let step = (len / 1500).max(1);
    (0..len)
        .filter(|&c| c < 4096 || c + 1024 >= len || c % step == 0)
        .collect()
}

#[test]
fn corpus_prefixes_are_errors_never_panics() {
    let Some(files) = corpus_files() else { return };
    let mut reads = 0;
    for f in &files {
        let n = name(f);
        let bytes = std::fs::read(f).unwrap();
        let full = Mdl::read(&bytes).unwrap();
        let trailer = match &full {
            Mdl::Classic(c) => c.trailer.len(),
            Mdl::Mdl7(m) => m.trailer.len(),
        };
        for cut in sweep_cuts(bytes.len()) {
            reads += 1;
            match Mdl::read(&bytes[..cut]) {
                Err(e) => assert!(
                    matches!(e.kind, ErrorKind::Truncated | ErrorKind::Malformed),
                    "{n} prefix {cut}: {e}"
                ),
                Ok(_) => assert!(cut >= bytes.len() - trailer, "{n}: prefix {cut} read"),
            }
        }
    }
    assert!(reads > 20 * 1500, "{reads}");
}

#[test]
fn corpus_garbage_never_panics_and_allocation_stays_bounded() {
    let Some(files) = corpus_files() else { return };
    let mut rng = Rng(0x6a7b_0d17);
    let mut read_back = 0;
    for f in &files {
        let n = name(f);
        let bytes = std::fs::read(f).unwrap();
        let rounds = if bytes.len() > 64 << 10 { 40 } else { 150 };
        for round in 0..rounds {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.below(16) {
                // Half the flips in the first 1 KiB, where the counts and sizes are.
                let at = if rng.below(2) == 0 {
                    rng.below(b.len().min(1024))
                } else {
                    rng.below(b.len())
                };
                b[at] = rng.next() as u8;
            }
            let (result, peak) = peak_during(|| Mdl::read_with(&b, &Limits::strict()));
            assert!(
                peak <= 64 * b.len() + (1 << 20),
                "{n} round {round}: {peak} bytes allocated for {} bytes",
                b.len()
            );
            if let Ok(m) = result {
                assert_eq!(m.write().unwrap(), b, "{n} round {round}");
                let _ = mdl::scene::to_scene(&m);
                read_back += 1;
            }
        }
    }
    eprintln!("mdl corpus garbage: {read_back} mutated files still read and wrote back");
}

/// [`Limits::max_alloc`] is charged as the reader goes: a real model over a small budget is
/// refused as over the limit, not read and not cut short.
#[test]
fn the_allocation_budget_refuses_a_real_model_over_it() {
    let bytes = samples::mdl7_quad().write().unwrap();
    let tight = Limits {
        max_alloc: 64,
        ..Limits::default()
    };
    let e = Mdl::read_with(&bytes, &tight).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert!(e.to_string().starts_with("mdl"), "{e}");
    assert!(Mdl::read_with(&bytes, &Limits::strict()).is_ok());
    // Gigabyte claims in every header count word of the MDL7 sample: refused, little allocated.
    let base = samples::mdl7_quad().write().unwrap();
    for at in (4..48).step_by(4) {
        let mut b = base.clone();
        b[at..at + 4].copy_from_slice(&0x4000_0000u32.to_le_bytes());
        let (r, peak) = peak_during(|| Mdl::read(&b));
        assert!(peak < 1 << 16, "word at {at}: {peak} bytes");
        if let Ok(m) = r {
            // Only words that are no count (version, sizes kept as read) may still read.
            assert_eq!(m.write().unwrap(), b, "word at {at}");
        }
    }
}

#[test]
fn hostile_counts_are_refused_without_allocating() {
    // Classic: a vertex count of 2^31 - 1 with one frame.
    let mut b = samples::mdl3_pyramid().write().unwrap();
    b[0x3c..0x40].copy_from_slice(&0x7fff_ffffi32.to_le_bytes());
    let (r, peak) = peak_during(|| Mdl::read(&b));
    assert!(r.is_err());
    assert!(peak < 1 << 16, "{peak}");
    // A 60 000 x 60 000 skin.
    let mut b = samples::mdl3_pyramid().write().unwrap();
    b[0x34..0x38].copy_from_slice(&60_000i32.to_le_bytes());
    b[0x38..0x3c].copy_from_slice(&60_000i32.to_le_bytes());
    let (r, peak) = peak_during(|| Mdl::read(&b));
    assert_eq!(r.unwrap_err().kind, ErrorKind::Truncated);
    assert!(peak < 1 << 16, "{peak}");
    // MDL7: a group claiming 2^31 - 1 vertices, and a bone count of 2^32 - 1.
    let mut b = samples::mdl7_quad().write().unwrap();
    let group = 48 + 72;
    b[group + 36..group + 40].copy_from_slice(&0x7fff_ffffi32.to_le_bytes());
    let (r, peak) = peak_during(|| Mdl::read(&b));
    assert!(r.is_err());
    assert!(peak < 1 << 16, "{peak}");
    let mut b = samples::mdl7_quad().write().unwrap();
    b[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let (r, peak) = peak_during(|| Mdl::read(&b));
    assert!(r.is_err());
    assert!(peak < 1 << 16, "{peak}");
    // Counts within the bytes but over the limits.
    let limits = Limits {
        max_count: 3,
        ..Limits::default()
    };
    let e = Mdl::read_with(&samples::mdl3_pyramid().write().unwrap(), &limits).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    // Negative counts are malformed.
    let mut b = samples::idpo_pyramid().write().unwrap();
    b[0x40..0x44].copy_from_slice(&(-1i32).to_le_bytes());
    assert_eq!(Mdl::read(&b).unwrap_err().kind, ErrorKind::Malformed);
}

// ---- proptest ---------------------------------------------------------------------------------

fn name16(rng: &mut Rng) -> [u8; 16] {
    let mut n = [0u8; 16];
    for b in &mut n {
        *b = rng.next() as u8;
    }
    n
}

fn packed(rng: &mut Rng, words: bool) -> PackedVertex {
    let max = if words { 65536 } else { 256 };
    PackedVertex {
        position: [0; 3].map(|_: u16| rng.below(max) as u16),
        normal: rng.next() as u8,
        pad: if words { rng.next() as u8 } else { 0 },
    }
}

fn classic_model(seed: u64, verts: usize, tris: usize, frames: usize, version: u8) -> Mdl {
    let mut rng = Rng(seed | 1);
    let version = match version % 5 {
        0 => ClassicVersion::Idpo,
        1 => ClassicVersion::Mdl2,
        2 => ClassicVersion::Mdl3,
        3 => ClassicVersion::Mdl4,
        _ => ClassicVersion::Mdl5,
    };
    let (w, h) = (1 + rng.below(5) as i32, 1 + rng.below(5) as i32);
    let quake = version.quake_layout();
    let mut skins = Vec::new();
    for _ in 0..rng.below(3) {
        let kind = [0u32, 2, 3, 4, 5][rng.below(5)] | if rng.below(2) == 1 { 8 } else { 0 };
        let (sw, sh) = if version == ClassicVersion::Mdl5 {
            (1 + rng.below(9) as u64, 1 + rng.below(9) as u64)
        } else {
            (w as u64, h as u64)
        };
        let bpp = mdl::layout::bytes_per_pixel(kind).unwrap();
        let (full, small) = mdl::layout::picture_bytes(sw, sh, bpp, kind & 8 != 0).unwrap();
        skins.push(Skin::Single {
            kind,
            size: (version == ClassicVersion::Mdl5).then_some([sw as u32, sh as u32]),
            pixels: (0..full).map(|_| rng.next() as u8).collect(),
            mips: (0..small).map(|_| rng.next() as u8).collect(),
        });
    }
    if quake && rng.below(2) == 1 {
        let n = rng.below(3);
        skins.push(Skin::Group {
            times: (0..n).map(|i| i as f32 * 0.25).collect(),
            pictures: (0..n)
                .map(|_| (0..w * h).map(|_| rng.next() as u8).collect())
                .collect(),
        });
    }
    let (texcoords, triangles) = if quake {
        (
            TexCoords::Quake(
                (0..verts)
                    .map(|_| QuakeTexCoord {
                        on_seam: rng.below(2) as i32,
                        s: rng.below(64) as i32,
                        t: rng.below(64) as i32,
                    })
                    .collect(),
            ),
            Triangles::Quake(
                (0..tris)
                    .map(|_| QuakeTriangle {
                        faces_front: rng.below(2) as i32,
                        vertices: [0; 3].map(|_: i32| rng.below(verts.max(1)) as i32),
                    })
                    .collect(),
            ),
        )
    } else {
        let uvs = rng.below(8);
        (
            TexCoords::Skin(
                (0..uvs)
                    .map(|_| [rng.next() as i16, rng.next() as i16])
                    .collect(),
            ),
            Triangles::Skin(
                (0..tris)
                    .map(|_| SkinTriangle {
                        vertices: [0; 3].map(|_: u16| rng.below(verts.max(1)) as u16),
                        uvs: [0; 3].map(|_: u16| rng.below(uvs.max(1)) as u16),
                    })
                    .collect(),
            ),
        )
    };
    let mut frame_list = Vec::new();
    for _ in 0..frames {
        let words =
            matches!(version, ClassicVersion::Mdl4 | ClassicVersion::Mdl5) && rng.below(2) == 1;
        let kind = if words { 2 } else { 0 };
        let pose = |rng: &mut Rng| Pose {
            min: packed(rng, words),
            max: packed(rng, words),
            name: name16(rng),
            vertices: (0..verts).map(|_| packed(rng, words)).collect(),
        };
        if quake && rng.below(3) == 0 {
            let n = rng.below(3);
            frame_list.push(Frame::Group {
                kind: 1,
                min: packed(&mut rng, false),
                max: packed(&mut rng, false),
                times: (0..n).map(|i| i as f32).collect(),
                poses: (0..n).map(|_| pose(&mut rng)).collect(),
            });
        } else {
            frame_list.push(Frame::Single {
                kind,
                pose: pose(&mut rng),
            });
        }
    }
    Mdl::Classic(Classic {
        version,
        header: ClassicHeader {
            version: rng.next() as i32,
            scale: [0.5, 1.5, f32::from_bits(rng.next() as u32 & 0x3fff_ffff)],
            translate: [-1.0, 2.0, 3.0],
            radius: 4.0,
            eye: [0.0, 0.0, 1.0],
            skin_width: w,
            skin_height: h,
            num_verts: verts as u32,
            sync_type: if quake { rng.below(2) as i32 } else { 0 },
            flags: rng.next() as i32,
            size: rng.next() as u32,
        },
        skins,
        texcoords,
        triangles,
        frames: frame_list,
        trailer: (0..rng.below(5)).map(|_| rng.next() as u8).collect(),
    })
}

fn mdl7_model(seed: u64, verts: usize, tris: usize, frames: usize) -> Mdl {
    let mut rng = Rng(seed | 1);
    let sizes = StructSizes {
        bone: [16, 36, 48][rng.below(3)],
        skin: 28,
        color: 16,
        material: 68,
        skin_point: 8,
        triangle: [12, 16, 26, 44][rng.below(4)],
        main_vertex: [16, 26][rng.below(2)],
        frame_vertex: [16, 26][rng.below(2)],
        bone_transform: 68,
        frame: 24,
    };
    let vertex = |rng: &mut Rng, size: u16| Vertex7 {
        position: [rng.below(100) as f32, -1.5, 0.25],
        index: rng.next() as u16,
        normal: if size == 26 {
            Normal7::Vector([0.0, rng.below(2) as f32, 1.0])
        } else {
            Normal7::Index {
                index: rng.next() as u8,
                pad: rng.next() as u8,
            }
        },
    };
    let bones: Vec<Bone> = (0..rng.below(3))
        .map(|_| Bone {
            parent: rng.next() as u16,
            pad: rng.next() as u16,
            position: [1.0, 2.0, 3.0],
            name: (0..sizes.bone - 16).map(|_| rng.next() as u8).collect(),
        })
        .collect();
    let mut groups = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let mut skins = Vec::new();
        for _ in 0..rng.below(3) {
            let format = [0u8, 1, 2, 3, 4, 5, 6, 7][rng.below(8)];
            let mips = if matches!(format, 2..=5) && rng.below(2) == 1 {
                8
            } else {
                0
            };
            let flags =
                if rng.below(2) == 1 { 0x10 } else { 0 } | if rng.below(2) == 1 { 0x20 } else { 0 };
            let kind = format | mips | flags;
            let (width, height, data) = match format {
                1 => (rng.below(4) as i32, 0, SkinData::None),
                6 | 7 => {
                    let n = rng.below(6);
                    let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                    let data = if format == 6 {
                        SkinData::Dds(bytes)
                    } else {
                        SkinData::External(bytes)
                    };
                    (n as i32, 1, data)
                }
                _ => {
                    let (w, h) = (1 + rng.below(9) as u64, 1 + rng.below(9) as u64);
                    let bpp = mdl::layout::bytes_per_pixel(format.into()).unwrap();
                    let (full, small) = mdl::layout::picture_bytes(w, h, bpp, mips != 0).unwrap();
                    (
                        w as i32,
                        h as i32,
                        SkinData::Pixels {
                            pixels: (0..full).map(|_| rng.next() as u8).collect(),
                            mips: (0..small).map(|_| rng.next() as u8).collect(),
                        },
                    )
                }
            };
            skins.push(Skin7 {
                kind,
                unused: [rng.next() as u8, 0, 0],
                width,
                height,
                name: name16(&mut rng),
                data,
                material: (flags & 0x10 != 0).then_some(Material7 {
                    diffuse: [1.0; 4],
                    ambient: [0.5; 4],
                    specular: [0.25; 4],
                    emissive: [0.0; 4],
                    power: 2.0,
                }),
                effect: (flags & 0x20 != 0)
                    .then(|| (0..rng.below(9)).map(|_| rng.next() as u8).collect()),
            });
        }
        let triangles = (0..tris)
            .map(|_| {
                // 16-bit indices, 32-bit in 44-byte triangles.
                let index = |r: u64| {
                    if sizes.triangle == 44 {
                        r as u32
                    } else {
                        u32::from(r as u16)
                    }
                };
                let mut t = Triangle7 {
                    vertices: [0; 3].map(|_: u32| index(rng.next())),
                    uvs: [0; 3].map(|_: u32| index(rng.next())),
                    ..Triangle7::default()
                };
                if sizes.triangle >= 16 {
                    t.material = rng.next() as u32;
                }
                if sizes.triangle >= 26 {
                    t.uvs2 = [1, 2, 3];
                    t.material2 = rng.next() as u32;
                }
                t
            })
            .collect();
        groups.push(Group {
            kind: 1,
            max_weights: rng.next() as u8,
            unused: 0,
            data_size: rng.next() as i32,
            name: name16(&mut rng),
            skins,
            uvs: (0..rng.below(6))
                .map(|_| [0.5, rng.below(3) as f32])
                .collect(),
            triangles,
            vertices: (0..verts)
                .map(|_| vertex(&mut rng, sizes.main_vertex))
                .collect(),
            frames: (0..frames)
                .map(|_| Frame7 {
                    name: name16(&mut rng),
                    vertices: (0..rng.below(3))
                        .map(|_| vertex(&mut rng, sizes.frame_vertex))
                        .collect(),
                    transforms: (0..rng.below(3))
                        .map(|_| BoneTransform {
                            matrix: [0.5; 16],
                            bone: rng.next() as u16,
                            pad: [rng.next() as u8, 0],
                        })
                        .collect(),
                })
                .collect(),
            deformers: (0..rng.below(2))
                .map(|_| Deformer {
                    version: 0,
                    kind: 0,
                    unused: [0; 2],
                    group: 0,
                    data_size: rng.next() as i32,
                    elements: (0..rng.below(3))
                        .map(|_| DeformerElement {
                            index: rng.below(4) as i32,
                            name: [7; 20],
                            weights: (0..rng.below(4))
                                .map(|_| (rng.below(9) as i32, 0.5))
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
        });
    }
    Mdl::Mdl7(Mdl7 {
        header: Mdl7Header {
            version: rng.next() as i32,
            data_size: rng.next() as u32,
            entlump_size: 0,
            medlump_size: 0,
            sizes,
        },
        bones,
        groups,
        trailer: (0..rng.below(4)).map(|_| rng.next() as u8).collect(),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn classic_model_bytes_model(seed in any::<u64>(), verts in 0usize..12, tris in 0usize..10,
                                 frames in 0usize..4, version in 0u8..5) {
        let model = classic_model(seed, verts, tris, frames, version);
        let bytes = model.write().unwrap();
        let again = Mdl::read(&bytes).unwrap();
        prop_assert_eq!(&again, &model);
        prop_assert_eq!(again.write().unwrap(), bytes);
    }

    #[test]
    fn mdl7_model_bytes_model(seed in any::<u64>(), verts in 0usize..10, tris in 0usize..8,
                              frames in 0usize..4) {
        let model = mdl7_model(seed, verts, tris, frames);
        let bytes = model.write().unwrap();
        let again = Mdl::read(&bytes).unwrap();
        prop_assert_eq!(&again, &model);
        prop_assert_eq!(again.write().unwrap(), bytes);
    }
}

// ---- scene ------------------------------------------------------------------------------------

#[test]
fn frames_become_morph_targets_and_animations_per_name_group() {
    let (scene, warnings) = mdl::scene::to_scene(&samples::mdl3_pyramid());
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(scene.meshes.len(), 1);
    assert_eq!(scene.meshes[0].faces.len(), 4);
    assert_eq!(scene.morphs.len(), 1);
    assert_eq!(scene.morphs[0].targets.len(), 2);
    assert_eq!(scene.morph_animations.len(), 1);
    assert_eq!(scene.morph_animations[0].name.as_deref(), Some("walk"));
    assert_eq!(scene.morph_animations[0].targets, [0, 1]);
    // The apex (vertex 4) rises by 8 texels of 0.5 units in the second frame.
    let apex0 = scene.morphs[0].targets[0].positions[4];
    let apex1 = scene.morphs[0].targets[1].positions[4];
    assert_eq!(apex1[2] - apex0[2], 4.0);
    // Positions: packed * scale + translate; the first frame is the base pose.
    assert_eq!(scene.meshes[0].positions[1], [32.0 * 0.5 - 8.0, -8.0, 0.0]);
    // The skin is the texture: red top-left.
    let levelkit::scene::TextureSource::Pixels { data, .. } = &scene.textures[0].source else {
        panic!()
    };
    assert_eq!(&data[..4], &[255, 0, 0, 255]);
    // Triangles turned counter-clockwise: the file's 0 1 4 becomes 4 1 0.
    let first: Vec<u32> = scene.meshes[0].faces[0]
        .corners
        .iter()
        .map(|c| c.position)
        .collect();
    assert_eq!(first, [4, 1, 0]);
    assert_eq!(mdl::scene::animation_name("walk 0"), "walk");
    assert_eq!(mdl::scene::animation_name("attack12"), "attack");
    assert_eq!(mdl::scene::animation_name("42"), "42");
}

#[test]
fn quake_seam_vertices_move_on_back_faces() {
    let (scene, _) = mdl::scene::to_scene(&samples::idpo_pyramid());
    let mesh = &scene.meshes[0];
    // Triangle 1 (faces_front 0) uses vertex 1, on the seam at s = 3 of a 4-wide skin:
    // (3 + 2 + 0.5) / 4.
    let corner = mesh.faces[1]
        .corners
        .iter()
        .find(|c| c.position == 1)
        .unwrap();
    assert_eq!(corner.uv.unwrap()[0], 5.5 / 4.0);
    // Triangle 0 (front) keeps it.
    let corner = mesh.faces[0]
        .corners
        .iter()
        .find(|c| c.position == 1)
        .unwrap();
    assert_eq!(corner.uv.unwrap()[0], 3.5 / 4.0);
    // A frame group's poses are targets too: base, swim1, swim2; two animations.
    assert_eq!(scene.morphs[0].targets.len(), 3);
    let names: Vec<_> = scene
        .morph_animations
        .iter()
        .map(|a| a.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["base", "swim"]);
}

#[test]
fn mdl7_scene_has_groups_uvs_morphs_and_keeps_bones() {
    let (scene, warnings) = mdl::scene::to_scene(&samples::mdl7_quad());
    assert_eq!(scene.meshes[0].name.as_deref(), Some("quad"));
    assert_eq!(scene.meshes[0].faces.len(), 2);
    assert_eq!(scene.materials.len(), 2);
    assert_eq!(scene.textures.len(), 1);
    assert_eq!(scene.morphs[0].targets.len(), 2);
    assert_eq!(scene.morphs[0].targets[1].positions[2], [8.0, 8.0, 4.0]);
    assert_eq!(scene.extras["bones"].as_array().unwrap().len(), 2);
    assert_eq!(
        scene.materials[1].extras["external_texture"],
        serde_json::json!("quad.pcx")
    );
    assert!(!warnings.iter().any(|w| w.message.contains("bones")));
    assert_eq!(scene.skins.len(), 1);
    // UV (1, 1) v-down is (1, 0) v-up.
    let c = scene.meshes[0].faces[0]
        .corners
        .iter()
        .find(|c| c.position == 2)
        .unwrap();
    assert_eq!(c.uv, Some([1.0, 0.0]));
}

// ---- bones as a glTF skin ----------------------------------------------------------------------

/// Column-major 4x4 product.
fn mat_mul(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

fn trs(t: [f64; 3], q: [f64; 4]) -> [f64; 16] {
    let [x, y, z, w] = q;
    [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + z * w),
        2.0 * (x * z - y * w),
        0.0,
        2.0 * (x * y - z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + x * w),
        0.0,
        2.0 * (x * z + y * w),
        2.0 * (y * z - x * w),
        1.0 - 2.0 * (x * x + y * y),
        0.0,
        t[0],
        t[1],
        t[2],
        1.0,
    ]
}

/// The skinned mesh positions of `skin` at key `key` of `anim`, in model space (z up: the
/// model root, joint 0, counts as the identity), computed the way glTF viewers do: each
/// joint's world matrix from the local poses up the node tree, times its inverse bind matrix,
/// weighted per vertex.
fn posed(scene: &Scene, skin: &levelkit::scene::Skin, anim: usize, key: usize) -> Vec<[f64; 3]> {
    let root = skin.joints[0];
    let mut parent = vec![None; scene.nodes.len()];
    for (i, n) in scene.nodes.iter().enumerate() {
        for &c in &n.children {
            parent[c] = Some(i);
        }
    }
    let local = |node: usize| -> [f64; 16] {
        if node == root {
            return trs([0.0; 3], [0.0, 0.0, 0.0, 1.0]);
        }
        if let Some(t) = scene.joint_animations[anim]
            .tracks
            .iter()
            .find(|t| t.node == node)
        {
            return trs(t.translations[key], t.rotations[key]);
        }
        match scene.nodes[node].transform {
            levelkit::scene::Transform::Trs {
                translation,
                rotation,
                ..
            } => trs(translation, rotation),
            levelkit::scene::Transform::Matrix(m) => m,
        }
    };
    let world = |mut node: usize| -> [f64; 16] {
        let mut m = local(node);
        while node != root {
            node = parent[node].expect("joints hang under the model root");
            m = mat_mul(&local(node), &m);
        }
        m
    };
    let joint: Vec<[f64; 16]> = skin
        .joints
        .iter()
        .zip(&skin.inverse_bind_matrices)
        .map(|(&j, ibm)| mat_mul(&world(j), ibm))
        .collect();
    let mesh = &scene.meshes[skin.mesh];
    mesh.positions
        .iter()
        .enumerate()
        .map(|(v, p)| {
            let mut out = [0.0; 3];
            for (&j, &w) in skin.vertex_joints[v].iter().zip(&skin.vertex_weights[v]) {
                let m = &joint[usize::from(j)];
                for (r, o) in out.iter_mut().enumerate() {
                    *o += f64::from(w)
                        * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
                }
            }
            out
        })
        .collect()
}

/// Where the file's own frame matrices put a group's vertices (row vectors times the matrix
/// of the vertex's bone; vertices of bones without a matrix in the frame stay).
fn file_pose(g: &Group, frame: &Frame7) -> Vec<[f64; 3]> {
    g.vertices
        .iter()
        .map(|v| {
            let p = v.position.map(f64::from);
            match frame.transforms.iter().find(|t| t.bone == v.index) {
                Some(t) => {
                    let m = t.matrix.map(f64::from);
                    [0, 1, 2].map(|j| p[0] * m[j] + p[1] * m[4 + j] + p[2] * m[8 + j] + m[12 + j])
                }
                None => p,
            }
        })
        .collect()
}

#[test]
fn mdl7_bones_of_the_sample_become_a_skin() {
    let model = samples::mdl7_quad();
    let (scene, warnings) = mdl::scene::to_scene(&model);
    assert!(
        !warnings.iter().any(|w| w.message.contains("bones")),
        "{warnings:?}"
    );
    assert_eq!(scene.skins.len(), 1);
    let skin = &scene.skins[0];
    assert_eq!(skin.joints.len(), 3, "the model root and two bones");
    assert_eq!(
        skin.vertex_joints.iter().map(|j| j[0]).collect::<Vec<_>>(),
        [1, 1, 2, 2]
    );
    // The skinned mesh's node is a root without a transform; the bones hang under the model.
    let mesh_node = scene
        .nodes
        .iter()
        .position(|n| n.mesh == Some(skin.mesh))
        .unwrap();
    assert!(scene.roots.contains(&mesh_node));
    assert_eq!(
        scene.nodes[mesh_node].transform,
        levelkit::scene::Transform::IDENTITY
    );
    assert_eq!(scene.nodes[skin.joints[2]].name.as_deref(), Some("tip"));
    assert!(
        scene.nodes[skin.joints[1]]
            .children
            .contains(&skin.joints[2])
    );
    // "wave 1" lifts the tip bone by 2: its vertices move, the root bone's do not.
    assert_eq!(scene.joint_animations.len(), 1);
    let Mdl::Mdl7(m) = &model else { unreachable!() };
    let g = &m.groups[0];
    let got = posed(&scene, skin, 0, 0);
    let want = file_pose(g, &g.frames[1]);
    for (a, b) in got.iter().zip(&want) {
        for k in 0..3 {
            assert!((a[k] - b[k]).abs() < 1e-5, "{got:?} != {want:?}");
        }
    }
    assert_eq!(want[2], [8.0, 8.0, 2.0]);
    assert_no_errors(&scene.validate(), "the skinned scene");
    // And glTF has the skin, its joints and the attributes.
    let bytes = glb(&scene);
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
    assert_eq!(doc["skins"].as_array().unwrap().len(), 1);
    assert_eq!(doc["skins"][0]["joints"].as_array().unwrap().len(), 3);
    let ibm = doc["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    assert_eq!(doc["accessors"][ibm]["type"], "MAT4");
    let attributes = &doc["meshes"][0]["primitives"][0]["attributes"];
    assert!(attributes["JOINTS_0"].is_u64() && attributes["WEIGHTS_0"].is_u64());
    let skinned = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["skin"] == 0)
        .count();
    assert_eq!(skinned, 1);
    assert_eq!(
        doc["animations"].as_array().unwrap().len(),
        2,
        "wave: morph + bones"
    );
}

#[test]
fn mdl7_bones_that_do_not_hold_together_stay_in_extras() {
    let base = samples::mdl7_quad();
    type Break = fn(&mut Mdl7);
    let cases: [(&str, Break); 3] = [
        ("cycle", |m| m.bones[0].parent = 1),
        ("does not exist", |m| m.groups[0].vertices[0].index = 9),
        ("not a rotation", |m| {
            m.groups[0].frames[1].transforms[0].matrix[0] = 3.0;
        }),
    ];
    for (why, break_it) in cases {
        let mut model = base.clone();
        let Mdl::Mdl7(m) = &mut model else {
            unreachable!()
        };
        break_it(m);
        let (scene, warnings) = mdl::scene::to_scene(&model);
        assert!(scene.skins.is_empty(), "{why}");
        assert!(scene.joint_animations.is_empty(), "{why}");
        assert!(
            warnings
                .iter()
                .any(|w| w.message.contains("not made a glTF skin") && w.message.contains(why)),
            "{why}: {warnings:?}"
        );
        assert_eq!(scene.extras["bones"].as_array().unwrap().len(), 2);
        // Today's output: the mesh under the model root, its frames' matrices counted.
        let mesh_node = scene.nodes.iter().position(|n| n.mesh == Some(0)).unwrap();
        assert!(!scene.roots.contains(&mesh_node), "{why}");
        assert!(
            scene.nodes[mesh_node].extras.contains_key("bone_frames"),
            "{why}"
        );
    }
}

#[test]
fn corpus_player_skin_poses_every_frame_as_the_file_does() {
    let Some(files) = corpus_files() else { return };
    let f = files.iter().find(|f| name(f) == "mdl7-player.mdl").unwrap();
    let model = Mdl::read(&std::fs::read(f).unwrap()).unwrap();
    let (scene, warnings) = mdl::scene::to_scene(&model);
    assert!(
        !warnings.iter().any(|w| w.message.contains("bones")),
        "{warnings:?}"
    );
    assert_eq!(scene.skins.len(), 1);
    let skin = &scene.skins[0];
    assert_eq!(skin.joints.len(), 18, "17 bones and the model root");
    let Mdl::Mdl7(m) = &model else { unreachable!() };
    let g = &m.groups[0];
    // All 40 frames are "walk 0".."walk 39": one animation, 17 tracks of 40 keys.
    assert_eq!(scene.joint_animations.len(), 1);
    assert_eq!(scene.joint_animations[0].name.as_deref(), Some("walk"));
    assert_eq!(scene.joint_animations[0].tracks.len(), 17);
    let mut worst = 0.0f64;
    for (k, frame) in g.frames.iter().enumerate() {
        let got = posed(&scene, skin, 0, k);
        let want = file_pose(g, frame);
        for (a, b) in got.iter().zip(&want) {
            for i in 0..3 {
                worst = worst.max((a[i] - b[i]).abs());
            }
        }
    }
    assert!(
        worst < 1e-3,
        "skinned vertices differ from the file's pose by {worst}"
    );
}

// ---- the corpus -------------------------------------------------------------------------------

/// `(file, version, vertices, triangles, frames, skins, bones)` pinned from the files.
const PINNED: &[(&str, &str, usize, usize, usize, usize, usize)] = &[
    ("fish.mdl", "IDPO", 28, 32, 8, 2, 0),
    ("mdl2-bush.mdl", "MDL2", 73, 132, 1, 1, 0),
    ("mdl3-crystal.mdl", "MDL3", 42, 72, 1, 1, 0),
    ("GIBBIT.MDL", "MDL3", 27, 34, 1, 1, 0),
    ("warlock.mdl", "MDL4", 687, 776, 42, 1, 0),
    ("Sword2.MDL", "MDL5", 27, 43, 1, 1, 0),
    ("mdl7-player.mdl", "MDL7", 677, 1350, 40, 2, 17),
    ("lotter_dummy.mdl", "MDL7", 860, 1670, 6, 0, 0),
    ("water.mdl", "MDL7", 10404, 5202, 1, 1, 1),
];

#[test]
fn corpus_files_read_validate_and_round_trip_byte_for_byte() {
    let Some(files) = corpus_files() else { return };
    assert_eq!(files.len(), 20, "the corpus has 9 + 11 MDL files");
    let mut pinned = 0;
    for f in &files {
        let n = name(f);
        let bytes = std::fs::read(f).unwrap();
        let model = Mdl::read(&bytes).unwrap_or_else(|e| panic!("{n}: {e}"));
        assert_no_errors(&model.validate(), &n);
        assert_eq!(model.write().unwrap(), bytes, "{n} did not round-trip");
        let json = serde_json::to_string(&model).unwrap();
        assert_eq!(
            serde_json::from_str::<Mdl>(&json).unwrap(),
            model,
            "{n} JSON"
        );
        let s = model.summary();
        if let Some(p) = PINNED.iter().find(|p| p.0 == n) {
            assert_eq!(
                (
                    s.version.as_str(),
                    s.vertices,
                    s.triangles,
                    s.frames,
                    s.skins,
                    s.bones
                ),
                (p.1, p.2, p.3, p.4, p.5, p.6),
                "{n}"
            );
            pinned += 1;
        }
    }
    assert_eq!(pinned, PINNED.len());
}

#[test]
fn corpus_exports_pass_the_khronos_validator() {
    let Some(files) = corpus_files() else { return };
    let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks")
    else {
        return;
    };
    let dir = common::out_dir("mdl", "validator");
    for f in &files {
        let model = Mdl::read(&std::fs::read(f).unwrap()).unwrap();
        let (scene, _) = mdl::scene::to_scene(&model);
        let s = model.summary();
        assert_eq!(scene.counts().triangles, s.triangles, "{}", name(f));
        let path = dir.join(format!("{}.glb", name(f)));
        std::fs::write(&path, glb(&scene)).unwrap();
        if !common::assert_gltf_valid(&script, &path) {
            return;
        }
    }
    // warlock: 42 frames in 9 name groups.
    let warlock = files.iter().find(|f| name(f) == "warlock.mdl").unwrap();
    let (scene, _) = mdl::scene::to_scene(&Mdl::read(&std::fs::read(warlock).unwrap()).unwrap());
    let names: Vec<_> = scene
        .morph_animations
        .iter()
        .map(|a| a.name.clone().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "stand", "walk", "run", "duck", "crawl", "jump", "swim", "attack", "death"
        ]
    );
}

/// assimp's `Faces:` for the files it loads, beside ours. assimp drops the first group of
/// `lotter_dummy.mdl` (1 094 triangles: 576 of 1 670), and fails (no meshes) or crashes on the
/// other MDL7 files; levelkit reads them all.
#[test]
fn assimp_triangle_counts_side_by_side() {
    let Some(files) = corpus_files() else { return };
    if !common::on_path("assimp") {
        common::skip("assimp is not on the PATH; side-by-side counts not run");
        return;
    }
    let mut table = BTreeMap::new();
    for f in &files {
        let ours = Mdl::read(&std::fs::read(f).unwrap()).unwrap().summary();
        let out = std::process::Command::new("assimp")
            .arg("info")
            .arg(f)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let faces = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("Faces:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        table.insert(name(f), (ours.triangles, faces, out.status.code()));
    }
    for (n, (ours, theirs, code)) in &table {
        eprintln!("{n:20} levelkit {ours:6} assimp {theirs:?} (exit {code:?})");
        match (n.as_str(), theirs) {
            ("lotter_dummy.mdl", Some(t)) => assert_eq!(*t, 1670 - 1094),
            (_, Some(t)) => assert_eq!(t, ours, "{n}"),
            (_, None) => {}
        }
    }
    let loaded = table.values().filter(|v| v.1.is_some()).count();
    assert!(loaded >= 7, "assimp loaded {loaded} files");
}

#[test]
fn a_level_gets_its_models_beside_it() {
    let Some(models) = common::corpus_or_skip("gamestudio/kingsbridge", "level placement") else {
        return;
    };
    let level = common::corpus("wmp/wmpb").unwrap().join("kbridge.wmp");
    let model = Model::read(
        &std::fs::read(&level).unwrap(),
        Some("kbridge.wmp"),
        &Limits::default(),
    )
    .unwrap();
    let (mut scene, _) = levelkit::codec::Codec::to_scene(&model).unwrap();
    let meshes_before = scene.meshes.len();
    let mut resolve = |file: &str| std::fs::read(models.join(file)).ok();
    let found = levelkit::document::assets::find_textures(&model, &mut scene, &mut resolve);
    // 53 model entities: 20 blumenkasten, 19 a4Cube, 1 water are in the folder; 12
    // item_a3_collectable and 1 kingsbridge are not.
    assert_eq!(found.models, (40, 53));
    let missing: Vec<_> = found
        .warnings
        .iter()
        .filter(|w| w.message.contains("not beside the level"))
        .collect();
    assert_eq!(missing.len(), 2, "{missing:?}");
    // Three distinct files, one mesh each, imported once.
    assert_eq!(scene.meshes.len(), meshes_before + 3);
    let instances = scene
        .nodes
        .iter()
        .filter(|n| n.mesh.is_some_and(|m| m >= meshes_before))
        .count();
    assert_eq!(instances, 40);
    let bytes = glb(&scene);
    if let Some(script) = common::oracle("node/validate.js", &["node"], "glTF validator checks") {
        let path = common::out_dir("mdl", "level").join("kbridge.glb");
        std::fs::write(&path, &bytes).unwrap();
        common::assert_gltf_valid(&script, &path);
    }
}

/// `to-fix/9player.mdl` (MDL3) is a truncated file, not a misread one: its header declares two
/// 16-bit 168 x 256 skins (86,016 bytes each), 204 vertices, 405 triangles and a frame, but only
/// 42,903 bytes follow the header, 16-bit pixels to the last byte: half of the first skin and
/// none of the mesh (assimp refuses it too). It stays refused, as truncated, naming the skin.
#[test]
fn the_truncated_mdl3_of_to_fix_is_refused_as_truncated() {
    let Some(dir) = common::corpus_or_skip("to-fix", "the to-fix MDL") else {
        return;
    };
    let bytes = std::fs::read(dir.join("9player.mdl")).unwrap();
    assert_eq!(bytes.len(), 42_987);
    let err = Mdl::read(&bytes).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Truncated, "{err}");
    assert!(err.to_string().contains("skins[0]"), "{err}");
    assert!(err.to_string().contains("86016 bytes"), "{err}");
}

/// A triangle corner of UV index 0xFFFF has no texture coordinate (MED's "none", on every
/// corner of a model never mapped, as Acknex/CommandAndLotter `Vertex.mdl` is): valid, and
/// the face has no UV there; any other index past the list is an error.
#[test]
fn uv_index_ffff_is_no_texture_coordinate() {
    let Mdl::Mdl7(mut m) = samples::mdl7_quad() else {
        panic!("not MDL7")
    };
    m.groups[0].triangles[0].uvs = [0xffff; 3];
    let model = Mdl::Mdl7(m.clone());
    assert_eq!(model.validate(), vec![]);
    let (scene, _) = mdl::scene::to_scene(&model);
    assert!(
        scene.meshes[0].faces[0]
            .corners
            .iter()
            .all(|c| c.uv.is_none())
    );
    m.groups[0].triangles[0].uvs = [0, 1, 9];
    let findings = Mdl::Mdl7(m).validate();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].severity, Severity::Error);
}

/// The RGBA pixels of an MDL7 skin as levelkit's scene decodes them (`None` for a skin
/// without pixels).
fn skin_rgba(model: &Mdl, skin: usize) -> Option<Vec<u8>> {
    let Mdl::Mdl7(m) = model else { return None };
    let s = m.groups.first()?.skins.get(skin)?;
    if !matches!(s.data, SkinData::Pixels { .. }) {
        return None;
    }
    let (scene, _) = mdl::scene::to_scene(model);
    // The scene's textures follow the skins with pixels, in order.
    let index = m.groups[0].skins[..skin]
        .iter()
        .filter(|k| matches!(k.data, SkinData::Pixels { .. }))
        .count();
    match &scene.textures.get(index)?.source {
        levelkit::scene::TextureSource::Pixels { data, .. } => Some(data.clone()),
        _ => None,
    }
}

/// `.mdl` from the common 3D model: every MDL7 of the corpus and our samples, to `.glb` and
/// back to `.mdl` through [`Mdl::from_scene`], keeps its groups, triangles, vertices (within
/// f32 rounding of the y-up turn), frames and frame names, and its skins pixel for pixel; the
/// MDL7 it writes reads back as itself and validates. Boned models keep their bones (names,
/// parents, positions), each vertex's bone, and every frame's name and bone matrices.
#[test]
fn mdl7_through_glb_comes_back_as_mdl7() {
    let mut models: Vec<(String, Mdl)> = vec![
        ("mdl7-quad".into(), samples::mdl7_quad()),
        ("mdl7-two-groups".into(), samples::mdl7_two_groups()),
    ];
    if let Some(files) = corpus_files() {
        for f in files {
            let model = Mdl::read(&std::fs::read(&f).unwrap()).unwrap();
            if matches!(model, Mdl::Mdl7(_)) {
                models.push((name(&f), model));
            }
        }
    }
    let mut worst = 0f32;
    let mut worst_matrix = 0f32;
    let mut compared = 0;
    let mut boned = 0;
    let mut mixed = 0;
    let mut duplicates = 0;
    let mut groups = 0;
    let mut same_uvs = 0;
    let mut same_header = 0;
    for (name, model) in &models {
        let Mdl::Mdl7(original) = model else { continue };
        compared += 1;
        let (scene, _) = mdl::scene::to_scene(model);
        let bytes = glb(&scene);
        let doc = Model::read(&bytes, Some("x.glb"), &Limits::default()).unwrap();
        let (scene, _) = doc.to_scene().unwrap();
        let (back, warnings) = Mdl::from_scene(&scene).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = back.write().unwrap();
        let read = Mdl::read(&written).unwrap();
        assert_eq!(read, back, "{name}");
        let Mdl::Mdl7(m) = &back else {
            panic!("{name}: not MDL7")
        };
        assert_eq!(m.header.data_size as usize, written.len(), "{name}");
        assert_no_errors(&back.validate(), name);
        assert_eq!(m.groups.len(), original.groups.len(), "{name}: groups");
        // Every header value but the byte count (the UV lists are deduplicated), the record
        // sizes included.
        let header = |h: &Mdl7Header| (h.version, h.entlump_size, h.medlump_size, h.sizes);
        assert_eq!(
            header(&m.header),
            header(&original.header),
            "{name}: header"
        );
        same_header += 1;
        assert!(
            !warnings.iter().any(|w| w.message.contains("not written")),
            "{name}: {warnings:?}"
        );
        assert_eq!(m.bones.len(), original.bones.len(), "{name}: bones");
        if !original.bones.is_empty() {
            boned += 1;
        }
        for (b, (ours, theirs)) in m.bones.iter().zip(&original.bones).enumerate() {
            assert_eq!(ours.parent, theirs.parent, "{name} bone {b}");
            assert_eq!(
                name_text(&ours.name),
                name_text(&theirs.name),
                "{name} bone {b}"
            );
            for k in 0..3 {
                let d = (ours.position[k] - theirs.position[k]).abs();
                assert!(d < 1e-3, "{name} bone {b}: {ours:?} vs {theirs:?}");
                worst = worst.max(d);
            }
        }
        for (g, (ours, theirs)) in m.groups.iter().zip(&original.groups).enumerate() {
            assert_eq!(
                ours.triangles.len(),
                theirs.triangles.len(),
                "{name} group {g}"
            );
            // Vertices at the same place are one (glTF splits vertices by texture
            // coordinate, and nothing tells those splits from the file's own duplicates).
            let distinct: std::collections::HashSet<([u32; 3], u16)> = theirs
                .vertices
                .iter()
                .map(|v| (v.position.map(f32::to_bits), v.index))
                .collect();
            // The file's own vertex count: levelkit's glTF keeps which vertex each glTF
            // vertex was, so nothing is welded, duplicates of the file's own included.
            assert_eq!(
                ours.vertices.len(),
                theirs.vertices.len(),
                "{name} group {g}"
            );
            duplicates += theirs.vertices.len() - distinct.len();
            groups += 1;
            if ours.uvs.len() == theirs.uvs.len() {
                same_uvs += 1;
            }
            // The glTF writer orders vertices by first use: compare each triangle's corners
            // by position, in the file's winding (any corner first).
            let corners = |g: &Group, t: &Triangle7| -> Vec<([f32; 3], u16)> {
                t.vertices
                    .iter()
                    .map(|&v| {
                        (
                            g.vertices[v as usize].position,
                            g.vertices[v as usize].index,
                        )
                    })
                    .collect()
            };
            for (t, (a, b)) in ours.triangles.iter().zip(&theirs.triangles).enumerate() {
                let (a, b) = (corners(ours, a), corners(theirs, b));
                let mut best = f32::INFINITY;
                for r in 0..3 {
                    let mut diff = 0f32;
                    for k in 0..3 {
                        for x in 0..3 {
                            diff = diff.max((a[(k + r) % 3].0[x] - b[k].0[x]).abs());
                        }
                        if a[(k + r) % 3].1 != b[k].1 {
                            diff = f32::INFINITY;
                        }
                    }
                    best = best.min(diff);
                }
                assert!(best < 1e-3, "{name} group {g} triangle {t}: {a:?} vs {b:?}");
                worst = worst.max(best);
            }
            let names = |g: &Group| -> Vec<String> {
                g.frames.iter().map(|f| name_text(&f.name)).collect()
            };
            // Frames of one kind: all vertex frames, or all frames of every bone's matrix.
            // (Our samples mix both in one frame; a glTF animation is one or the other, so
            // their frames are not compared.)
            let vertex_frames = theirs.frames.iter().all(|f| f.transforms.is_empty());
            let bone_frames = theirs
                .frames
                .iter()
                .all(|f| f.vertices.is_empty() && f.transforms.len() == original.bones.len());
            if !(vertex_frames || bone_frames) {
                assert!(
                    name == "mdl7-quad" || name == "mdl7-two-groups",
                    "{name}: a real file mixes vertex and bone frames"
                );
                mixed += 1;
                continue;
            }
            if theirs
                .frames
                .iter()
                .any(|f| !f.vertices.is_empty() || !f.transforms.is_empty())
            {
                assert_eq!(names(ours), names(theirs), "{name} group {g}");
            }
            for (fi, (a, b)) in ours.frames.iter().zip(&theirs.frames).enumerate() {
                assert_eq!(
                    a.transforms.len(),
                    b.transforms.len(),
                    "{name} group {g} frame {fi}"
                );
                for (x, y) in a.transforms.iter().zip(&b.transforms) {
                    assert_eq!(x.bone, y.bone, "{name} group {g} frame {fi}");
                    for (p, q) in x.matrix.iter().zip(&y.matrix) {
                        // Translations scale with the model: compare relative to its size.
                        let d = (p - q).abs() / q.abs().max(1.0);
                        assert!(d < 1e-3, "{name} group {g} frame {fi}: {x:?} vs {y:?}");
                        worst_matrix = worst_matrix.max(d);
                    }
                }
            }
        }
        for s in 0..original.groups[0].skins.len() {
            if let Some(pixels) = skin_rgba(model, s) {
                let ours = (0..m.groups[0].skins.len())
                    .find_map(|k| skin_rgba(&back, k).filter(|p| *p == pixels));
                assert!(ours.is_some(), "{name}: skin {s} not pixel-equal");
            }
        }
    }
    eprintln!(
        "{compared} of {} MDL7 models ({boned} with bones) through .glb and back; largest \
         vertex or bone difference {worst}, largest bone matrix difference {worst_matrix}; \
         {groups} groups with the file's vertex count ({duplicates} vertices at the place of \
         another kept), {same_uvs} with its UV count; {same_header} of {compared} headers \
         equal, record sizes included; {mixed} groups of mixed vertex and bone frames not \
         compared frame by frame",
        models.len()
    );
    assert!(compared >= 2, "{compared} compared");
    assert!(worst < 1e-3, "vertices moved by {worst}");
}

/// The rigged figure Blender 3.4 made (`blender/figure/make_figure.py`: one mesh of 192
/// triangles, 9 bones, weights split at the joints, actions `walk` and `wave` of 13 frames)
/// becomes an MDL7 with its 9 bones, 26 frames (`walk1` … `walk13`, `wave1` … `wave13`) and
/// 192 triangles, which reads back as itself. Every vertex that follows one joint lands
/// where glTF's skinning puts it in every key.
#[test]
fn blender_figure_becomes_a_boned_mdl7() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../blender/figure/figure.glb");
    let bytes = std::fs::read(&path).unwrap();
    let doc = Model::read(&bytes, Some("figure.glb"), &Limits::default()).unwrap();
    let (scene, read_warnings) = doc.to_scene().unwrap();
    assert_eq!(scene.skins.len(), 1, "{read_warnings:?}");
    assert_eq!(scene.skins[0].joints.len(), 9);
    assert_eq!(scene.joint_animations.len(), 2);
    let keys: Vec<usize> = scene
        .joint_animations
        .iter()
        .map(|a| a.tracks[0].translations.len())
        .collect();
    assert_eq!(keys, [13, 13]);
    let (model, warnings) = Mdl::from_scene(&scene).unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.message.contains("weighted to several joints")),
        "{warnings:?}"
    );
    let written = model.write().unwrap();
    assert_eq!(Mdl::read(&written).unwrap(), model);
    let Mdl::Mdl7(m) = &model else {
        panic!("not MDL7")
    };
    assert_eq!(m.bones.len(), 9);
    assert_eq!(m.groups.len(), 1);
    let g = &m.groups[0];
    assert_eq!(g.triangles.len(), 192);
    let names: Vec<String> = g.frames.iter().map(|f| name_text(&f.name)).collect();
    assert_eq!(names.len(), 26);
    assert_eq!(names[0], "walk1");
    assert_eq!(names[25], "wave13");
    assert!(g.frames.iter().all(|f| f.transforms.len() == 9));
    assert!(g.vertices.iter().all(|v| v.index < 9));
    assert_no_errors(&model.validate(), "the Blender figure");
    // As an MDL5 (no bones): the same vertices, triangles and frames, each frame a full pose.
    let (five, _) = Mdl::from_scene_as(&scene, TargetVersion::Mdl5).unwrap();
    assert_eq!(Mdl::read(&five.write().unwrap()).unwrap(), five);
    assert_no_errors(&five.validate(), "the Blender figure as MDL5");
    let Mdl::Classic(c) = &five else {
        panic!("not MDL5")
    };
    assert_eq!(c.version, ClassicVersion::Mdl5);
    assert_eq!(c.header.num_verts as usize, g.vertices.len());
    let Triangles::Skin(five_triangles) = &c.triangles else {
        panic!("not MDL3-5 triangles")
    };
    assert_eq!(five_triangles.len(), 192);
    let poses = mdl::scene::poses(c);
    let five_names: Vec<String> = poses.iter().map(|p| name_text(&p.name)).collect();
    assert_eq!(five_names, names);
    let unpack = |v: &PackedVertex| -> [f64; 3] {
        std::array::from_fn(|i| {
            f64::from(v.position[i]) * f64::from(c.header.scale[i])
                + f64::from(c.header.translate[i])
        })
    };
    let mut worst_five = 0f64;
    // Pose every key both ways: glTF skinning of the scene, and the MDL's bone matrices on
    // its rest vertices.
    let skin = &scene.skins[0];
    let mesh = &scene.meshes[skin.mesh];
    let to_file = |p: [f64; 3]| [p[0], -p[2], p[1]];
    let apply = |m: &[f64; 16], p: [f64; 3]| -> [f64; 3] {
        std::array::from_fn(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
    };
    let mut frame = 0;
    let mut worst = 0f64;
    for a in &scene.joint_animations {
        for k in 0..a.tracks[0].translations.len() {
            let world = scene.world_matrices_with(|node| {
                let t = a.tracks.iter().find(|t| t.node == node)?;
                Some(
                    levelkit::scene::Transform::Trs {
                        translation: t.translations[k],
                        rotation: t.rotations[k],
                        scale: [1.0; 3],
                    }
                    .matrix(),
                )
            });
            let ours: Vec<[f64; 3]> = g
                .vertices
                .iter()
                .map(|v| {
                    let t = &g.frames[frame].transforms[usize::from(v.index)];
                    let m = t.matrix.map(f64::from);
                    apply(&m, v.position.map(f64::from))
                })
                .collect();
            // The MDL5's frame is the MDL7's posed vertices, within its 16-bit packing.
            for (v, q) in poses[frame].vertices.iter().zip(&ours) {
                let got = unpack(v);
                for c5 in 0..3 {
                    let off = (got[c5] - q[c5]).abs();
                    let step = f64::from(c.header.scale[c5]);
                    assert!(off <= step / 2.0 + 1e-5, "MDL5 frame {frame}: off by {off}");
                    worst_five = worst_five.max(off);
                }
            }
            for (i, p) in mesh.positions.iter().enumerate() {
                let (js, ws) = (skin.vertex_joints[i], skin.vertex_weights[i]);
                if ws[0] < 0.999 {
                    continue;
                }
                let j = usize::from(js[0]);
                let m = levelkit::scene::mat_mul(
                    &world[skin.joints[j]],
                    &skin.inverse_bind_matrices[j],
                );
                let want = to_file(apply(&m, *p));
                let nearest = ours
                    .iter()
                    .map(|q| (0..3).map(|c| (q[c] - want[c]).abs()).fold(0f64, f64::max))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    nearest < 1e-3,
                    "frame {frame} position {i}: off by {nearest}"
                );
                worst = worst.max(nearest);
            }
            frame += 1;
        }
    }
    eprintln!(
        "Blender figure: {} bones, {} frames, {} triangles; posed vertices within {worst}; \
         as MDL5 {} frames within {worst_five} of them (packing steps {:?})",
        m.bones.len(),
        g.frames.len(),
        g.triangles.len(),
        poses.len(),
        c.header.scale
    );
}

/// `--mdl-version 5`: every MDL5 of the corpus (`Sword2.MDL`), to `.glb`
/// and back through [`Mdl::from_scene_as`], is an MDL5 again whose header packing (scale and
/// translation), vertex and triangle counts, frame names, packed positions (within one
/// packing step), texture coordinates at every triangle corner and skin pixels equal the
/// original's; it reads back as itself and validates. Normals and the radius are computed
/// (the original's came from the modeller's smoothing): the count of equal normal indices is
/// reported.
#[test]
fn mdl5_through_glb_comes_back_as_mdl5() {
    let mut models: Vec<(String, Mdl)> = Vec::new();
    if let Some(files) = corpus_files() {
        for f in files {
            let model = Mdl::read(&std::fs::read(&f).unwrap()).unwrap();
            if matches!(&model, Mdl::Classic(c) if c.version == ClassicVersion::Mdl5) {
                models.push((name(&f), model));
            }
        }
    }
    if models.is_empty() {
        eprintln!("no corpus: no MDL5 to compare");
        return;
    }
    let mut same_normals = (0, 0);
    for (name, model) in &models {
        let Mdl::Classic(original) = model else {
            continue;
        };
        let (scene, _) = mdl::scene::to_scene(model);
        let doc = Model::read(&glb(&scene), Some("x.glb"), &Limits::default()).unwrap();
        let (scene, _) = doc.to_scene().unwrap();
        let (back, _) = Mdl::from_scene_as(&scene, TargetVersion::Mdl5)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(Mdl::read(&back.write().unwrap()).unwrap(), back, "{name}");
        assert_no_errors(&back.validate(), name);
        let Mdl::Classic(c) = &back else {
            panic!("{name}: not classic")
        };
        assert_eq!(c.version, ClassicVersion::Mdl5, "{name}");
        for i in 0..3 {
            let (a, b) = (original.header.scale[i], c.header.scale[i]);
            assert!((a - b).abs() <= a.abs() * 1e-5, "{name}: scale {a} != {b}");
            let (a, b) = (original.header.translate[i], c.header.translate[i]);
            assert!((a - b).abs() <= 1e-5, "{name}: translate {a} != {b}");
        }
        assert_eq!(c.header.num_verts, original.header.num_verts, "{name}");
        let (p0, p1) = (mdl::scene::poses(original), mdl::scene::poses(c));
        assert_eq!(p0.len(), p1.len(), "{name}: frames");
        for (a, b) in p0.iter().zip(&p1) {
            assert_eq!(name_text(&a.name), name_text(&b.name), "{name}");
            for (u, v) in a.vertices.iter().zip(&b.vertices) {
                for i in 0..3 {
                    let d = i32::from(u.position[i]) - i32::from(v.position[i]);
                    assert!(d.abs() <= 1, "{name}: packed {u:?} != {v:?}");
                }
                same_normals.0 += usize::from(u.normal == v.normal);
                same_normals.1 += 1;
            }
        }
        let (Triangles::Skin(t0), Triangles::Skin(t1)) = (&original.triangles, &c.triangles) else {
            panic!("{name}: triangles")
        };
        let (TexCoords::Skin(uv0), TexCoords::Skin(uv1)) = (&original.texcoords, &c.texcoords)
        else {
            panic!("{name}: texture coordinates")
        };
        assert_eq!(t0.len(), t1.len(), "{name}: triangles");
        for (a, b) in t0.iter().zip(t1) {
            assert_eq!(a.vertices, b.vertices, "{name}");
            for (x, y) in a.uvs.iter().zip(&b.uvs) {
                assert_eq!(uv0[usize::from(*x)], uv1[usize::from(*y)], "{name}: texel");
            }
        }
        let pixels = |m: &Mdl| match mdl::scene::to_scene(m)
            .0
            .textures
            .first()
            .map(|t| &t.source)
        {
            Some(levelkit::scene::TextureSource::Pixels { data, .. }) => data.clone(),
            other => panic!("{name}: skin {other:?}"),
        };
        assert_eq!(pixels(model), pixels(&back), "{name}: skin pixels");
    }
    eprintln!(
        "{} MDL5 models through .glb and back; {} of {} normal indices equal",
        models.len(),
        same_normals.0,
        same_normals.1
    );
}

/// MED's large models (Acknex/Infinite-Typing-Lottery `wTerrA.mdl`: 113,457 skin points in one
/// group) have 44-byte triangles, every index 32 bits with both UV sets, and declare 28-byte
/// frame vertices without having any: such a model reads, writes back byte for byte and
/// exports; an index over 16 bits does not fit a smaller triangle; a 28-byte frame vertex,
/// whose layout no real file shows, is refused.
#[test]
fn mdl7_large_model_triangles_have_32_bit_indices() {
    let Mdl::Mdl7(mut m) = samples::mdl7_quad() else {
        panic!("not MDL7")
    };
    m.header.sizes.triangle = 44;
    m.header.sizes.frame_vertex = 28;
    let g = &mut m.groups[0];
    for f in &mut g.frames {
        f.vertices.clear();
    }
    g.uvs.resize(70_000, [0.5, 0.5]);
    g.triangles[1].uvs = [0, 69_999, 3];
    g.triangles[1].uvs2 = [u32::MAX; 3];
    g.triangles[1].material2 = u32::MAX;
    let model = Mdl::Mdl7(m.clone());
    let bytes = model.write().unwrap();
    assert_eq!(Mdl::read(&bytes).unwrap(), model);
    assert_no_errors(&model.validate(), "a 44-byte-triangle model");
    let (scene, _) = mdl::scene::to_scene(&model);
    assert_eq!(
        scene.meshes[0].faces[1].corners[1].uv,
        Some([0.5, 0.5]),
        "UV 69,999 is found"
    );
    // The same triangles in 26 bytes: 69,999 does not fit 16 bits.
    let mut small = m.clone();
    small.header.sizes.triangle = 26;
    small.header.sizes.frame_vertex = 26;
    let e = Mdl::Mdl7(small).write().unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
    // A frame vertex of 28 bytes is refused where it is read.
    let mut framed = bytes.clone();
    let Mdl::Mdl7(with_frame) = samples::mdl7_quad() else {
        panic!("not MDL7")
    };
    let mut m2 = m.clone();
    m2.groups[0].frames = with_frame.groups[0].frames.clone();
    m2.header.sizes.frame_vertex = 26;
    framed.clear();
    framed.extend(Mdl::Mdl7(m2).write().unwrap());
    // Declare 28-byte frame vertices (the header's sizes start at byte 28; frame vertex is
    // the eighth u16).
    framed[28 + 14..28 + 16].copy_from_slice(&28u16.to_le_bytes());
    let e = Mdl::read(&framed).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().contains("28-byte frame vertices"), "{e}");
}

/// Fails with the findings when `validate` found an error (warnings are allowed).
#[track_caller]
fn assert_no_errors(findings: &[levelkit::Warning], what: &str) {
    let errors: Vec<_> = findings
        .iter()
        .filter(|w| w.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:?}");
}
