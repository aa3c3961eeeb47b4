//! Terrains built from scratch by our own code, for tests, fuzzing seeds, benchmarks and
//! examples: rolling hills from sines and a colour-ramp skin. No game data is copied.

use super::model::*;

/// Side of the sample skins in pixels.
const SKIN: u32 = 32;

/// Raw height (0..=65535) of grid point `(c, r)`.
fn height(c: usize, r: usize) -> u16 {
    let (x, y) = (c as f64 * 0.45, r as f64 * 0.3);
    let h = 0.5 + 0.25 * x.sin() + 0.2 * (y + 0.3 * x).cos();
    (h.clamp(0.0, 1.0) * 65535.0) as u16
}

/// A `SKIN × SKIN` R5G6B5 skin: green to brown across, lighter down.
fn skin_pixels() -> Vec<u8> {
    let mut out = Vec::with_capacity((SKIN * SKIN * 2) as usize);
    for y in 0..SKIN {
        for x in 0..SKIN {
            let r = (4 + x * 16 / SKIN + y / 4) as u16;
            let g = (40 - x / 2 + y / 2) as u16;
            let b = (4 + y / 8) as u16;
            out.extend_from_slice(&((r << 11) | (g << 5) | b).to_le_bytes());
        }
    }
    out
}

/// A terrain of `nx × ny` grid points (both at least 2) in the layout of `version`, with one
/// R5G6B5 skin. HMP4 gets texture coordinates and two triangles per cell in the file's winding.
pub fn terrain(version: HmpVersion, nx: usize, ny: usize) -> Hmp {
    let (nx, ny) = (nx.max(2), ny.max(2));
    let n = nx * ny;
    let hmp4 = version == HmpVersion::Hmp4;
    let cell = 8.0f32;
    let extent = [cell * (ny - 1) as f32, cell * (nx - 1) as f32];
    let header = Header {
        version: 0,
        scale: if hmp4 {
            [extent[0] / 255.0, extent[1] / 255.0, 40.0 / 255.0]
        } else {
            [extent[1] / 65535.0, extent[0] / 65535.0, 40.0 / 65535.0]
        },
        offset: [-extent[1] / 2.0, -extent[0] / 2.0, -20.0],
        bounding_radius: if hmp4 { extent[0].max(extent[1]) } else { 0.0 },
        tri_size: [cell, cell],
        verts_x: nx as f32,
        skin_width: if hmp4 { SKIN as i32 } else { 0 },
        skin_height: if hmp4 { SKIN as i32 } else { 0 },
        num_verts: n as i32,
        num_tris: if hmp4 {
            (2 * (nx - 1) * (ny - 1)) as i32
        } else {
            0
        },
        num_st_verts: if hmp4 { n as i32 } else { 0 },
        flags: 0,
        size: 0.0,
    };
    let skin = Skin {
        kind: 2,
        size: (!hmp4).then_some([SKIN, SKIN]),
        data: skin_pixels(),
        material: None,
        effect: None,
    };
    let mut vertices = Vec::with_capacity(n);
    let mut tex_coords = Vec::new();
    for k in 0..n {
        let (c, r) = (k % nx, k / nx);
        let z = height(c, r);
        vertices.push(match version {
            HmpVersion::Hmp4 => {
                tex_coords.push([
                    (c * (SKIN as usize - 1) / (nx - 1)) as i16,
                    (r * (SKIN as usize - 1) / (ny - 1)) as i16,
                ]);
                [
                    (r * 255 / (ny - 1)) as u8,
                    (c * 255 / (nx - 1)) as u8,
                    (z >> 8) as u8,
                    0,
                ]
            }
            HmpVersion::Hmp5 => {
                let [lo, hi] = z.to_le_bytes();
                [lo, hi, 0, 0]
            }
            HmpVersion::Hmp7 => {
                let [lo, hi] = z.to_le_bytes();
                let slope = |a: u16, b: u16| {
                    ((i32::from(a) - i32::from(b)) / 512).clamp(-127, 127) as i8 as u8
                };
                let left = height(c.saturating_sub(1), r);
                let down = height(c, r.saturating_sub(1));
                [lo, hi, slope(left, z), slope(down, z)]
            }
        });
    }
    let mut triangles = Vec::new();
    if hmp4 {
        for r in 0..ny - 1 {
            for c in 0..nx - 1 {
                let k = (r * nx + c) as u16;
                let (k1, kn, kn1) = (k + 1, k + nx as u16, k + nx as u16 + 1);
                for v in [[k, k1, kn], [k1, kn1, kn]] {
                    triangles.push(Triangle {
                        vertices: v,
                        tex_coords: v,
                    });
                }
            }
        }
    }
    let mut name = [0u8; 16];
    name[..6].copy_from_slice(b"Frame1");
    let (bbox_min, bbox_max) = if hmp4 {
        (vec![0, 0, 0, 0], vec![255, 255, 255, 0])
    } else {
        (vec![0, 0, 0, 0, 0, 0, 0xFF, 0], vec![0xFF; 8])
    };
    Hmp {
        version,
        header,
        skins: vec![skin],
        tex_coords,
        triangles,
        frames: vec![Frame {
            kind: if version == HmpVersion::Hmp7 { 2 } else { 0 },
            bbox_min,
            bbox_max,
            name,
            vertices,
            word_vertices: Vec::new(),
        }],
        trailing: Vec::new(),
    }
}

/// A word-packed HMP4 terrain of `nx × ny` grid points (both at least 2) and `frames` frames
/// (at least 1; the hills roll on from frame to frame), laid out as the later A5 editors
/// wrote it: header version word 1, one R5G6B5 skin of the header's size, no texture
/// coordinates or triangles (the grid makes them), and frames of type 2, each a 16-bit
/// bounding box, a name and one 8-byte vertex (u16 `x, y, z`, normal index, pad) per point,
/// rows running from `y = 65535` down.
pub fn word_terrain(nx: usize, ny: usize, frames: usize) -> Hmp {
    let (nx, ny, frames) = (nx.max(2), ny.max(2), frames.max(1));
    let cell = 6.0f32;
    let extent = [cell * (nx - 1) as f32, cell * (ny - 1) as f32];
    let header = Header {
        version: 1,
        scale: [extent[0] / 65535.0, extent[1] / 65535.0, 30.0 / 65535.0],
        offset: [-extent[0] / 2.0, -extent[1] / 2.0, 0.0],
        bounding_radius: extent[0].hypot(extent[1]),
        tri_size: [cell, cell],
        verts_x: nx as f32,
        skin_width: SKIN as i32,
        skin_height: SKIN as i32,
        num_verts: (nx * ny) as i32,
        num_tris: 0,
        num_st_verts: 0,
        flags: 0,
        size: f32::from_bits(2),
    };
    let word = |v: usize, n: usize| (v * 65535 / (n - 1)) as u16;
    let frames = (0..frames)
        .map(|f| {
            let mut word_vertices = Vec::with_capacity(nx * ny);
            let (mut lo, mut hi) = (u16::MAX, 0);
            for r in 0..ny {
                for c in 0..nx {
                    let z = height(c + f, r);
                    (lo, hi) = (lo.min(z), hi.max(z));
                    let [x0, x1] = word(c, nx).to_le_bytes();
                    let [y0, y1] = (65535 - word(r, ny)).to_le_bytes();
                    let [z0, z1] = z.to_le_bytes();
                    word_vertices.push([x0, x1, y0, y1, z0, z1, 0, 0]);
                }
            }
            let mut name = [0u8; 16];
            for (n, b) in name.iter_mut().zip(format!("Frame{f}").bytes()) {
                *n = b;
            }
            let [l0, l1] = lo.to_le_bytes();
            let [h0, h1] = hi.to_le_bytes();
            Frame {
                kind: 2,
                bbox_min: vec![0, 0, 0, 0, l0, l1, 0, 0],
                bbox_max: vec![0xFF, 0xFF, 0xFF, 0xFF, h0, h1, 0, 0],
                name,
                vertices: Vec::new(),
                word_vertices,
            }
        })
        .collect();
    Hmp {
        version: HmpVersion::Hmp4,
        header,
        skins: vec![Skin {
            kind: 2,
            size: None,
            data: skin_pixels(),
            material: None,
            effect: None,
        }],
        tex_coords: Vec::new(),
        triangles: Vec::new(),
        frames,
        trailing: Vec::new(),
    }
}
