//! An HMP terrain as a [`Scene`]: one node `terrain` with one textured mesh.
//!
//! * HMP4 stores full vertices and triangles (as MDL4 does): positions are
//!   `packed × scale + offset` from the first frame (bytes in frames of type 0, 16-bit words
//!   in frames of type 2), faces are the file's triangles (turned counter-clockwise: the file
//!   lists them clockwise seen from above, as Quake's MDL does), texture coordinates are the
//!   `s, t` texels over the header's skin size. A word-packed HMP4 with no triangles is a grid
//!   of `fnumverts_x` points a row, made into faces as HMP5/7 grids are.
//! * HMP5 and HMP7 store a height per grid point: point `k` is column `k % nx`, row `k / nx`
//!   (`nx = fnumverts_x`) at `offset + (column × tri_size_x, row × tri_size_y,
//!   height × scale_z)`. Each cell becomes two triangles; texture coordinates run from 0 to 1
//!   across the grid, `u` along the columns and `v` along the rows, which is how the HMP4 file's
//!   own texture coordinates run (`s` follows the fast index, `t` the slow one).
//! * The first skin with pixels becomes the material's base-colour texture (encoded as PNG by
//!   the glTF writer); other skins are listed in the material's `extras`. DDS skins (not
//!   decoded) and external names are reported.
//!
//! Gamestudio is z-up; glTF is y-up: the node turns the terrain upright (−90° about x), so the
//! numbers in the file stay the numbers of the mesh.

use serde_json::json;

use super::model::{Hmp, HmpVersion};
use super::skin::{self, SkinKind};
use crate::error::{Location, Warning};
use crate::registry::Format;
use crate::scene::{
    Corner, Face, Material, Mesh, MorphAnimation, MorphTarget, Morphs, Node, Scene, Texture,
    TextureSource, Transform,
};

const F: Format = Format::Hmp;

/// The terrain as a scene (see the module docs).
pub fn to_scene(hmp: &Hmp) -> (Scene, Vec<Warning>) {
    let mut warnings = Vec::new();
    let mut scene = Scene::new(F);
    let (material, skin_size) = skin_material(hmp, &mut scene, &mut warnings);
    let mut mesh = Mesh {
        name: Some("terrain".into()),
        ..Mesh::default()
    };
    match hmp.version {
        HmpVersion::Hmp4 => hmp4_mesh(hmp, &mut mesh, material, skin_size, &mut warnings),
        HmpVersion::Hmp5 | HmpVersion::Hmp7 => grid_mesh(hmp, &mut mesh, material, &mut warnings),
    }
    scene.meshes.push(mesh);
    let half = std::f64::consts::FRAC_1_SQRT_2;
    scene.add_root(Node {
        name: Some("terrain".into()),
        transform: Transform::Trs {
            translation: [0.0; 3],
            rotation: [-half, 0.0, 0.0, half],
            scale: [1.0; 3],
        },
        mesh: Some(0),
        ..Node::default()
    });
    let h = &hmp.header;
    scene
        .extras
        .insert("hmp_version".into(), json!(hmp.version));
    scene.extras.insert("scale".into(), json!(h.scale));
    scene.extras.insert("offset".into(), json!(h.offset));
    scene.extras.insert("tri_size".into(), json!(h.tri_size));
    scene.extras.insert("verts_x".into(), json!(h.verts_x));
    frame_morphs(hmp, &mut scene);
    (scene, warnings)
}

/// A terrain of several frames (the animated word-packed HMP4, `hh_demo_lava.HMP`: 36): every
/// frame a morph target of the mesh, in file order, played as one animation at MDL's frame
/// rate ([`crate::formats::mdl::scene::SECONDS_PER_FRAME`]). Heights-only layouts keep their
/// grid's x and y.
fn frame_morphs(hmp: &Hmp, scene: &mut Scene) {
    let Some(mesh) = scene.meshes.first() else {
        return;
    };
    let n = mesh.positions.len();
    if hmp.frames.len() < 2 || n == 0 {
        return;
    }
    let h = &hmp.header;
    let axis =
        |raw: u16, scale: f32, offset: f32| f64::from(raw) * f64::from(scale) + f64::from(offset);
    let mut targets = Vec::with_capacity(hmp.frames.len());
    for frame in &hmp.frames {
        if frame.vertex_count() != n {
            return;
        }
        let positions = match hmp.version {
            HmpVersion::Hmp4 => (0..n)
                .filter_map(|i| frame.packed_xyz(i))
                .map(|[x, y, z]| {
                    [
                        axis(x, h.scale[0], h.offset[0]),
                        axis(y, h.scale[1], h.offset[1]),
                        axis(z, h.scale[2], h.offset[2]),
                    ]
                })
                .collect(),
            HmpVersion::Hmp5 | HmpVersion::Hmp7 => mesh
                .positions
                .iter()
                .zip(&frame.vertices)
                .map(|(&[x, y, _], &[lo, hi, _, _])| {
                    [
                        x,
                        y,
                        axis(u16::from_le_bytes([lo, hi]), h.scale[2], h.offset[2]),
                    ]
                })
                .collect(),
        };
        targets.push(MorphTarget {
            name: Some(Hmp::frame_name(frame)),
            positions,
        });
    }
    let count = targets.len();
    scene.morphs.push(Morphs { mesh: 0, targets });
    if let Some(node) = scene.nodes.iter().position(|n| n.mesh == Some(0)) {
        scene.morph_animations.push(MorphAnimation {
            name: Some("frames".into()),
            node,
            targets: (0..count).collect(),
            seconds_per_frame: crate::formats::mdl::scene::SECONDS_PER_FRAME,
        });
    }
}

/// The material (and its texture, from the first skin with pixels) and the skin's size.
fn skin_material(
    hmp: &Hmp,
    scene: &mut Scene,
    warnings: &mut Vec<Warning>,
) -> (Option<usize>, Option<(f64, f64)>) {
    if hmp.skins.is_empty() {
        return (None, None);
    }
    let hmp4 = hmp.version == HmpVersion::Hmp4;
    let mut material = Material {
        name: Some("terrain".into()),
        ..Material::default()
    };
    let mut size = None;
    let mut listed = Vec::new();
    for (i, s) in hmp.skins.iter().enumerate() {
        let [w, h] = s.size.unwrap_or([
            u32::try_from(hmp.header.skin_width).unwrap_or(0),
            u32::try_from(hmp.header.skin_height).unwrap_or(0),
        ]);
        listed.push(json!({"type": s.kind, "width": w, "height": h, "bytes": s.data.len()}));
        if material.base_color_texture.is_some() {
            continue;
        }
        let kind = skin::skin_kind(s.kind, hmp4);
        let path = Location::path(format!("skins/{i}"));
        match kind {
            Ok(k @ SkinKind::Pixels { .. }) => {
                if let Some(rgba) = skin::decode_rgba(k, w, h, &s.data, None, s.kind) {
                    if w > 0 && h > 0 {
                        material.base_color_texture = Some(scene.textures.len());
                        scene.textures.push(Texture {
                            name: Some(format!("skin {i}")),
                            source: TextureSource::Pixels {
                                width: w,
                                height: h,
                                channels: 4,
                                data: rgba,
                            },
                            extras: Default::default(),
                        });
                        size = Some((f64::from(w), f64::from(h)));
                        if k == (SkinKind::Pixels {
                            bytes: 1,
                            mips: false,
                        }) {
                            warnings.push(Warning::warning(
                                F,
                                path,
                                "8-bit skin: its palette is not in the file; shown as grey levels",
                            ));
                        }
                    }
                }
            }
            Ok(SkinKind::Dds) => warnings.push(Warning::warning(
                F,
                path,
                "embedded DDS skin is kept in the file but not decoded for the scene",
            )),
            Ok(SkinKind::External) => {
                let end = s.data.iter().position(|&b| b == 0).unwrap_or(s.data.len());
                let name = String::from_utf8_lossy(s.data.get(..end).unwrap_or_default());
                warnings.push(Warning::warning(
                    F,
                    path,
                    format!("skin is the external file {name:?}, not embedded"),
                ));
            }
            _ => {}
        }
    }
    material.extras.insert("skins".into(), json!(listed));
    let m = scene.materials.len();
    scene.materials.push(material);
    (Some(m), size)
}

fn hmp4_mesh(
    hmp: &Hmp,
    mesh: &mut Mesh,
    material: Option<usize>,
    skin_size: Option<(f64, f64)>,
    warnings: &mut Vec<Warning>,
) {
    let Some(frame) = hmp.frames.first() else {
        return;
    };
    let h = &hmp.header;
    mesh.positions = (0..frame.vertex_count())
        .filter_map(|i| frame.packed_xyz(i))
        .map(|v| {
            let axis = |raw: u16, scale: f32, offset: f32| {
                f64::from(raw) * f64::from(scale) + f64::from(offset)
            };
            let ([x, y, z], [sx, sy, sz], [ox, oy, oz]) = (v, h.scale, h.offset);
            [axis(x, sx, ox), axis(y, sy, oy), axis(z, sz, oz)]
        })
        .collect();
    let n = mesh.positions.len();
    if hmp.triangles.is_empty() {
        // The word-packed terrains store no triangles: the grid makes them, as in HMP5/7.
        match hmp.grid() {
            Some((nx, ny)) if nx * ny == n => grid_faces(mesh, nx, ny, material),
            _ => warnings.push(Warning::warning(
                F,
                Location::path("triangles"),
                format!(
                    "no triangles, and {n} vertices with {} per row make no grid; no faces",
                    h.verts_x
                ),
            )),
        }
        return;
    }
    let (sw, sh) = skin_size.unwrap_or((
        f64::from(h.skin_width.max(1)),
        f64::from(h.skin_height.max(1)),
    ));
    for (t, tri) in hmp.triangles.iter().enumerate() {
        if tri.vertices.iter().any(|&v| usize::from(v) >= n) {
            warnings.push(Warning::warning(
                F,
                Location::path(format!("triangles/{t}")),
                format!("triangle refers to a vertex beyond the {n} of the frame; left out"),
            ));
            continue;
        }
        let corner = |k: usize| {
            let v = tri.vertices.get(k).copied().unwrap_or(0);
            let uv = tri
                .tex_coords
                .get(k)
                .and_then(|&i| hmp.tex_coords.get(usize::from(i)))
                .map(|[s, t]| [f64::from(*s) / sw, f64::from(*t) / sh]);
            Corner {
                position: u32::from(v),
                uv,
                ..Corner::default()
            }
        };
        mesh.faces.push(Face {
            corners: vec![corner(0), corner(2), corner(1)],
            material,
        });
    }
}

fn grid_mesh(hmp: &Hmp, mesh: &mut Mesh, material: Option<usize>, warnings: &mut Vec<Warning>) {
    let Some(frame) = hmp.frames.first() else {
        return;
    };
    let Some((nx, ny)) = hmp.grid() else {
        warnings.push(Warning::warning(
            F,
            Location::path("header"),
            format!(
                "{} vertices with {} per row do not make a grid of at least 2 × 2; no mesh",
                hmp.header.num_verts, hmp.header.verts_x
            ),
        ));
        return;
    };
    if frame.vertices.len() != nx * ny {
        warnings.push(Warning::warning(
            F,
            Location::path("frames/0"),
            format!(
                "{} vertices for a {nx} × {ny} grid; no mesh",
                frame.vertices.len()
            ),
        ));
        return;
    }
    let h = &hmp.header;
    let [ox, oy, oz] = h.offset.map(f64::from);
    let (tx, ty) = (f64::from(h.tri_size[0]), f64::from(h.tri_size[1]));
    let sz = f64::from(h.scale[2]);
    mesh.positions = frame
        .vertices
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let height = f64::from(u16::from_le_bytes([v[0], v[1]]));
            [
                ox + (k % nx) as f64 * tx,
                oy + (k / nx) as f64 * ty,
                oz + height * sz,
            ]
        })
        .collect();
    grid_faces(mesh, nx, ny, material);
}

/// Two triangles a cell of an `nx × ny` grid of points (both at least 2), with texture
/// coordinates from 0 to 1 across it.
fn grid_faces(mesh: &mut Mesh, nx: usize, ny: usize, material: Option<usize>) {
    let (du, dv) = ((nx - 1) as f64, (ny - 1) as f64);
    let corner = |i: usize, j: usize| Corner {
        position: (j * nx + i) as u32,
        uv: Some([i as f64 / du, j as f64 / dv]),
        ..Corner::default()
    };
    mesh.faces.reserve((nx - 1) * (ny - 1) * 2);
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            mesh.faces.push(Face {
                corners: vec![corner(i, j), corner(i + 1, j), corner(i, j + 1)],
                material,
            });
            mesh.faces.push(Face {
                corners: vec![corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)],
                material,
            });
        }
    }
}
