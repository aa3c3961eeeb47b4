//! Worlds built in code: [`world`], the sample world, and [`generate`], realistic random worlds
//! for tests and benchmarks, in the layout of the real worlds (see [`super::hypotheses`]): one
//! root, nodes holding one geometry or one light or neither, spinning parts named `SPINxxxx`
//! with axis (0, 1, 0), lights with `b7 = 0xFF` and `s0 s1 s2 = (1, 0, 0)`, texture definitions
//! with a colour (white under a texture), point flags `ff ff ff ff`, render types 0, 256, 768
//! and 1024. Geometry is made in the scene's frame and stored as the file holds it (M1–M3).

use super::hypotheses::{self as h, LightType, PolyDef};
use super::model::*;
use crate::strings::RawString;

/// A small deterministic random source (xorshift64*), so a seed always gives the same world.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A source for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// A float in `[lo, hi)`.
    pub fn float(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.float(0.0, 1.0) < p
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// The identity matrix.
pub const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// A Direct3D matrix (row vectors, stored row by row): scale, then a turn of `yaw` degrees about
/// y and `pitch` degrees about x, then the translation `t` (file coordinates).
pub fn matrix(t: [f64; 3], yaw: f64, pitch: f64, scale: [f64; 3]) -> [f32; 16] {
    let (sy, cy) = yaw.to_radians().sin_cos();
    let (sp, cp) = pitch.to_radians().sin_cos();
    // Rows of Ry * Rx (D3DXMatrixRotationY, D3DXMatrixRotationX), each row scaled.
    let [a, b, c] = scale;
    [
        (cy * a) as f32,
        (sy * sp * a) as f32,
        (-sy * cp * a) as f32,
        0.0,
        0.0,
        (cp * b) as f32,
        (sp * b) as f32,
        0.0,
        (sy * c) as f32,
        (-cy * sp * c) as f32,
        (cy * cp * c) as f32,
        0.0,
        t[0] as f32,
        t[1] as f32,
        t[2] as f32,
        1.0,
    ]
}

/// A node with a name and a matrix, nothing else yet.
pub fn node(name: &str, transform: [f32; 16]) -> Node {
    Node {
        name: RawString::from(name),
        transform,
        animation: Animation::default(),
        geometries: Vec::new(),
        lights: Vec::new(),
        children: 0,
    }
}

/// A spinning node `SPINxxxx`, `tenths` tenths of a degree per frame (3550 is −5°).
pub fn spinner(tenths: u16, transform: [f32; 16]) -> Node {
    let degrees = f64::from(tenths) / 10.0;
    let mut n = node(&format!("SPIN{tenths:04}"), transform);
    n.animation = Animation {
        origin: [0.0; 3],
        axis: [0.0, 1.0, 0.0],
        speed: h::speed_for(degrees),
    };
    n
}

/// A light as known worlds have them: `b1 b2 b3 = 0`, a grey `level`, `b7 = 0xFF`,
/// `s = (1, 0, 0, 0.5, 0.4)`.
pub fn light(kind: LightType, level: u8) -> Light {
    Light {
        kind: kind.byte(),
        b1: 0,
        b2: 0,
        b3: 0,
        color: [level; 3],
        b7: 0xFF,
        s0_s2: h::DEFAULT_LIGHT_S.0,
        s3_s4: h::DEFAULT_LIGHT_S.1,
    }
}

/// Builds a face set in the scene's right-handed frame, counter-clockwise, V up, and stores it
/// as the file holds it (z negated, the corner order reversed: M1, M2; V as it is: M3).
#[derive(Debug, Default)]
struct Builder {
    g: Geometry,
}

impl Builder {
    fn point(&mut self, p: [f64; 3], n: [f64; 3], uv: [f64; 2]) -> u16 {
        let i = self.g.points.len() as u16;
        self.g.points.push(h::point_from_scene(p));
        self.g.normals.push(h::point_from_scene(n));
        self.g.tex_coords.push(h::uv_from_scene(uv));
        self.g.point_flags.push([0xFF; 4]);
        i
    }

    fn polygon(&mut self, points: Vec<u16>, material: u16) {
        // One normal per point here: the corner's normal index is its point index; the order
        // as the file holds it (M2).
        let mut corners: Vec<[u16; 2]> = points.iter().map(|&p| [p, p]).collect();
        h::winding_to_scene(&mut corners);
        self.g.polygons.push(PolyDef { corners });
        self.g.materials.push(material);
    }

    /// A flat quad from four corners (counter-clockwise from the front), with its own points.
    fn quad(&mut self, c: [[f64; 3]; 4], material: u16) {
        let n = normal(c[0], c[1], c[2]);
        let uvs = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let pts = c
            .iter()
            .zip(uvs)
            .map(|(&p, uv)| self.point(p, n, uv))
            .collect();
        self.polygon(pts, material);
    }

    fn triangle(&mut self, c: [[f64; 3]; 3], material: u16) {
        let n = normal(c[0], c[1], c[2]);
        let uvs = [[0.0, 0.0], [1.0, 0.0], [0.5, 1.0]];
        let pts = c
            .iter()
            .zip(uvs)
            .map(|(&p, uv)| self.point(p, n, uv))
            .collect();
        self.polygon(pts, material);
    }

    /// Textured by `textures` (render type 256), or, without textures, one plain grey colour
    /// lit by the world's lights (render type 1024), as real worlds have them.
    fn finish(mut self, textures: &[&str]) -> Geometry {
        self.g.textures = textures
            .iter()
            .map(|t| TexDef {
                color: Bgr::from_rgb([0xFF; 3]),
                alpha: 0xFF,
                name: RawString::from(*t),
                extra: Vec::new(),
            })
            .collect();
        if self.g.textures.is_empty() {
            self.g.materials.iter_mut().for_each(|m| *m = 0);
            self.g.textures.push(TexDef {
                color: Bgr::from_rgb([0xB4, 0xB0, 0xA8]),
                alpha: 0xFF,
                name: RawString::default(),
                extra: Vec::new(),
            });
            self.g.render_flags = h::RENDER_LIT;
        } else {
            self.g.render_flags = h::RENDER_TEXTURED;
        }
        self.g
    }
}

fn normal(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> [f64; 3] {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 {
        n.map(|x| x / len)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// A box `size` wide, high and deep, standing on y = 0, one texture per face (materials cycle
/// through `textures`).
pub fn boxed(size: [f64; 3], textures: &[&str]) -> Geometry {
    let [w, hgt, d] = size.map(|v| v / 2.0);
    let hgt = hgt * 2.0;
    let p = |x: f64, y: f64, z: f64| [x * w, y * hgt, z * d];
    let faces = [
        [p(-1., 0., 1.), p(1., 0., 1.), p(1., 1., 1.), p(-1., 1., 1.)],
        [
            p(1., 0., -1.),
            p(-1., 0., -1.),
            p(-1., 1., -1.),
            p(1., 1., -1.),
        ],
        [
            p(-1., 0., -1.),
            p(-1., 0., 1.),
            p(-1., 1., 1.),
            p(-1., 1., -1.),
        ],
        [p(1., 0., 1.), p(1., 0., -1.), p(1., 1., -1.), p(1., 1., 1.)],
        [
            p(-1., 1., 1.),
            p(1., 1., 1.),
            p(1., 1., -1.),
            p(-1., 1., -1.),
        ],
        [
            p(-1., 0., -1.),
            p(1., 0., -1.),
            p(1., 0., 1.),
            p(-1., 0., 1.),
        ],
    ];
    let mut b = Builder::default();
    let n = textures.len().max(1);
    for (i, f) in faces.into_iter().enumerate() {
        b.quad(f, (i % n) as u16);
    }
    b.finish(textures)
}

/// A square pyramid `size` wide and `height` high, standing on y = 0.
pub fn pyramid(size: f64, height: f64, texture: Option<&str>) -> Geometry {
    let s = size / 2.0;
    let apex = [0.0, height, 0.0];
    let base = [[-s, 0.0, s], [s, 0.0, s], [s, 0.0, -s], [-s, 0.0, -s]];
    let mut b = Builder::default();
    for (&p, &q) in base.iter().zip(base.iter().cycle().skip(1)) {
        b.triangle([p, q, apex], 0);
    }
    let [p0, p1, p2, p3] = base;
    b.quad([p3, p2, p1, p0], 0);
    b.finish(texture.as_slice())
}

/// A flat `n` x `n` grid of quads `size` across on y = 0, facing up, points shared (one normal
/// up for all), the texture repeated once per cell.
pub fn ground(size: f64, n: u16, texture: Option<&str>) -> Geometry {
    let mut b = Builder::default();
    let step = size / f64::from(n);
    let half = size / 2.0;
    for j in 0..=n {
        for i in 0..=n {
            b.point(
                [-half + f64::from(i) * step, 0.0, half - f64::from(j) * step],
                [0.0, 1.0, 0.0],
                [f64::from(i), f64::from(j)],
            );
        }
    }
    let at = |i: u16, j: u16| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            b.polygon(
                vec![at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
                0,
            );
        }
    }
    b.finish(texture.as_slice())
}

/// A prism with `sides` sides (smooth: side points shared around, with radial normals), radius
/// `r`, height `height`, and flat caps.
pub fn prism(sides: u16, r: f64, height: f64, texture: Option<&str>) -> Geometry {
    let mut b = Builder::default();
    let angle = |k: u16| std::f64::consts::TAU * f64::from(k % sides) / f64::from(sides);
    let mut ring = |y: f64, v: f64| -> Vec<u16> {
        (0..=sides)
            .map(|k| {
                let (s, c) = angle(k).sin_cos();
                b.point(
                    [r * c, y, -r * s],
                    [c, 0.0, -s],
                    [f64::from(k) / f64::from(sides), v],
                )
            })
            .collect()
    };
    let bottom = ring(0.0, 0.0);
    let top = ring(height, 1.0);
    for (lo, hi) in bottom.windows(2).zip(top.windows(2)) {
        if let ([a, b2], [c, d]) = (lo, hi) {
            b.polygon(vec![*a, *b2, *d, *c], 0);
        }
    }
    for (y, n, up) in [
        (height, [0.0, 1.0, 0.0], true),
        (0.0, [0.0, -1.0, 0.0], false),
    ] {
        let mut cap: Vec<u16> = (0..sides)
            .map(|k| {
                let (s, c) = angle(k).sin_cos();
                b.point([r * c, y, -r * s], n, [0.5 + c / 2.0, 0.5 + s / 2.0])
            })
            .collect();
        if !up {
            cap.reverse();
        }
        b.polygon(cap, 0);
    }
    b.finish(texture.as_slice())
}

/// A line set: the outline of a regular `sides`-gon of radius `r` at height `y` (one closed
/// definition) and `spokes` segments from its centre.
pub fn outline(sides: u16, r: f64, y: f64, spokes: u16) -> Geometry {
    let mut g = Geometry {
        render_flags: h::RENDER_LINES,
        ..Geometry::default()
    };
    let mut point = |p: [f64; 3]| {
        g.points.push(h::point_from_scene(p));
        g.tex_coords.push([0.0; 2]);
        g.point_flags.push([0xFF; 4]);
        (g.points.len() - 1) as u16
    };
    let ring: Vec<u16> = (0..sides)
        .map(|k| {
            let (s, c) = (std::f64::consts::TAU * f64::from(k) / f64::from(sides)).sin_cos();
            point([r * c, y, -r * s])
        })
        .collect();
    let centre = point([0.0, y, 0.0]);
    g.polygons.push(PolyDef {
        corners: ring.iter().map(|&p| [p, 0]).collect(),
    });
    for &p in ring.iter().take(usize::from(spokes)) {
        g.polygons.push(PolyDef {
            corners: vec![[centre, 0], [p, 0]],
        });
    }
    // Line sets of real worlds have normals too; one that all corners name.
    g.normals.push([0.0, 1.0, 0.0]);
    g.materials = vec![0; g.polygons.len()];
    g
}

/// A node with its children, for [`flatten`].
#[derive(Debug, Clone)]
pub struct Subtree {
    /// The node (its `children` count is set by [`flatten`]).
    pub node: Node,
    /// Its children.
    pub children: Vec<Subtree>,
}

/// Lay `roots` out in file order (L1): each node followed by its children.
pub fn flatten(roots: Vec<Subtree>) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack: Vec<Subtree> = roots.into_iter().rev().collect();
    while let Some(Subtree { mut node, children }) = stack.pop() {
        node.children = children.len() as u16;
        out.push(node);
        stack.extend(children.into_iter().rev());
    }
    out
}

fn leaf(node: Node) -> Subtree {
    with(node, Vec::new())
}

fn with(node: Node, children: Vec<Subtree>) -> Subtree {
    Subtree { node, children }
}

fn has(mut n: Node, g: Geometry) -> Node {
    n.geometries.push(g);
    n
}

fn lit(mut n: Node, l: Light) -> Node {
    n.lights.push(l);
    n
}

/// The sample world: a textured ground, a house with a roof, a windmill whose sails spin at 5°
/// per frame, a sign spinning the other way (`SPIN3550`, −5°), a statue with the observed
/// non-spinning axis (0, 1, 0) and speed 0, a pond outlined by a line set, one light of each
/// type, and a fence of a closed square plus one free segment.
pub fn world() -> Wdb {
    let roots = vec![
        leaf(has(
            node("ground", IDENTITY),
            ground(40.0, 4, Some("grass.gif")),
        )),
        with(
            has(
                node("house", matrix([6.0, 0.0, 4.0], 30.0, 0.0, [1.0; 3])),
                boxed([4.0, 3.0, 5.0], &["brick.gif", "brick.gif", "wood.gif"]),
            ),
            vec![leaf(has(
                node("roof", matrix([0.0, 3.0, 0.0], 0.0, 0.0, [4.4, 1.0, 5.4])),
                pyramid(1.0, 1.5, Some("roof.gif")),
            ))],
        ),
        with(
            has(
                node("windmill", matrix([-8.0, 0.0, 6.0], -15.0, 0.0, [1.0; 3])),
                prism(8, 1.2, 9.0, Some("stone.gif")),
            ),
            vec![with(
                spinner(50, matrix([0.0, 8.0, -1.4], 0.0, 90.0, [1.0; 3])),
                vec![leaf(has(
                    node("sails", IDENTITY),
                    boxed([0.6, 7.0, 0.1], &["sail.gif"]),
                ))],
            )],
        ),
        leaf(has(
            spinner(3550, matrix([0.0, 2.5, -10.0], 0.0, 0.0, [1.0; 3])),
            boxed([3.0, 1.5, 0.2], &["logo.gif"]),
        )),
        leaf({
            let mut n = has(
                node("statue", matrix([3.0, 0.0, -4.0], 0.0, 0.0, [0.8; 3])),
                pyramid(1.5, 3.0, None),
            );
            n.animation.axis = [0.0, 1.0, 0.0];
            n
        }),
        leaf(has(
            node("pond", matrix([-6.0, 0.02, -6.0], 0.0, 0.0, [1.0; 3])),
            outline(12, 3.0, 0.0, 4),
        )),
        // A texture animation (M12): four frames of a quarter second, stacked in anim.gif.
        leaf(has(
            node("anim0425", matrix([-3.0, 0.0, 9.0], 0.0, 0.0, [1.0; 3])),
            boxed([2.0, 2.0, 2.0], &["anim.gif"]),
        )),
        // A flat-shaded part (render type 768): its colour is emitted, not lit.
        leaf(has(
            node("beacon", matrix([9.0, 0.0, -9.0], 0.0, 0.0, [1.0; 3])),
            {
                let mut g = prism(6, 0.5, 4.0, None);
                g.render_flags = h::RENDER_FLAT;
                if let Some(t) = g.textures.first_mut() {
                    t.color = Bgr::from_rgb([0xF0, 0xC0, 0x30]);
                }
                g
            },
        )),
        with(
            node("lights", IDENTITY),
            vec![
                leaf(lit(
                    node("ambient", IDENTITY),
                    light(LightType::Ambient, 0x40),
                )),
                leaf(lit(
                    node("sun", matrix([0.0, 30.0, 0.0], 30.0, 50.0, [1.0; 3])),
                    Light {
                        s3_s4: [85.25, 44.0],
                        ..light(LightType::Directional, 0xC0)
                    },
                )),
                leaf(lit(
                    node("lamp", matrix([6.0, 2.5, 1.0], 0.0, 0.0, [1.0; 3])),
                    light(LightType::Point, 0xFF),
                )),
                leaf(lit(
                    node("spot", matrix([-8.0, 6.0, 2.0], 0.0, 60.0, [1.0; 3])),
                    light(LightType::Spot, 0xE0),
                )),
                leaf(lit(
                    node("glow", matrix([0.0, 3.0, -9.0], 0.0, 0.0, [1.0; 3])),
                    light(LightType::ParallelPoint, 0x80),
                )),
            ],
        ),
    ];
    let square = [(-20.0, -20.0), (20.0, -20.0), (20.0, 20.0), (-20.0, 20.0)];
    let mut borders: Vec<Border> = square
        .iter()
        .zip(square.iter().cycle().skip(1))
        .map(|(&(x0, z0), &(x1, z1))| Border { x0, z0, x1, z1 })
        .collect();
    borders.push(Border {
        x0: -9.5,
        z0: -3.0,
        x1: -2.5,
        z1: -3.0,
    });
    Wdb {
        header: Header {
            background: Bgr {
                blue: 0xE0,
                green: 0xA0,
                red: 0x60,
            },
            ..Header::default()
        },
        fence: Fence {
            borders,
            y_max: 8.0,
            y_min: 1.6,
        },
        // One root, as real worlds have.
        nodes: flatten(vec![with(node("", IDENTITY), roots)]),
        trailing: Vec::new(),
    }
}

const TEXTURES: [&str; 8] = [
    "brick.gif",
    "grass.gif",
    "water.gif",
    "wood.gif",
    "marble.gif",
    "sky.gif",
    "metal.gif",
    "logo.gif",
];

const NAMES: [&str; 10] = [
    "wall", "floor", "tree", "rock", "table", "chair", "pillar", "sign", "lamp", "",
];

/// A realistic random world of about `nodes` nodes (at least one light of each type and one
/// spinner; the fence empty or not, by the seed), the same for the same arguments.
pub fn generate(seed: u64, nodes: usize) -> Wdb {
    let mut rng = Rng::new(seed);
    let mut made = 0usize;
    let mut roots = Vec::new();
    // One light of each type, under one node, and a spinner with a child.
    let lights = LightType::ALL
        .iter()
        .map(|&kind| leaf(random_light_node(&mut rng, kind)))
        .collect::<Vec<_>>();
    made += 1 + lights.len();
    roots.push(with(node("lights", IDENTITY), lights));
    let spin = random_spinner(&mut rng);
    let child = random_geometry_node(&mut rng);
    made += 2;
    roots.push(with(spin, vec![leaf(child)]));
    while made < nodes {
        let (t, n) = random_subtree(&mut rng, 0, nodes - made);
        made += n;
        roots.push(t);
    }
    Wdb {
        header: Header {
            background: Bgr::from_rgb([
                rng.below(256) as u8,
                rng.below(256) as u8,
                rng.below(256) as u8,
            ]),
            ..Header::default()
        },
        fence: random_fence(&mut rng),
        nodes: flatten(vec![with(node("", IDENTITY), roots)]),
        trailing: Vec::new(),
    }
}

fn random_fence(rng: &mut Rng) -> Fence {
    let mut borders = Vec::new();
    let (y_min, y_max) = match rng.below(3) {
        // hanami: no segments, no vertical movement
        0 => {
            let y = rng.float(1.0, 2.0);
            (y, y + 0.001)
        }
        // compass: no segments, a wide range
        1 => (rng.float(-5.0, 0.0), rng.float(20.0, 100.0)),
        // hutchspace: a closed polygon and loose segments
        _ => {
            let sides = rng.range(3, 30);
            let r = rng.float(10.0, 60.0);
            let pts: Vec<(f64, f64)> = (0..sides)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / sides as f64;
                    let rr = r * rng.float(0.7, 1.0);
                    (rr * a.cos(), rr * a.sin())
                })
                .collect();
            for (&(x0, z0), &(x1, z1)) in pts.iter().zip(pts.iter().cycle().skip(1)) {
                borders.push(Border { x0, z0, x1, z1 });
            }
            for _ in 0..rng.below(3) {
                borders.push(Border {
                    x0: rng.float(-r, r),
                    z0: rng.float(-r, r),
                    x1: rng.float(-r, r),
                    z1: rng.float(-r, r),
                });
            }
            (rng.float(1.0, 2.0), rng.float(2.0, 10.0))
        }
    };
    Fence {
        borders,
        y_max,
        y_min,
    }
}

fn random_matrix(rng: &mut Rng) -> [f32; 16] {
    if rng.chance(0.2) {
        return IDENTITY;
    }
    let t = [
        rng.float(-30.0, 30.0),
        rng.float(0.0, 5.0),
        rng.float(-30.0, 30.0),
    ];
    let yaw = if rng.chance(0.5) {
        rng.float(-180.0, 180.0)
    } else {
        0.0
    };
    let pitch = if rng.chance(0.15) {
        rng.float(-60.0, 60.0)
    } else {
        0.0
    };
    let s = if rng.chance(0.3) {
        let u = rng.float(0.5, 2.0);
        [u, u, u]
    } else if rng.chance(0.2) {
        [
            rng.float(0.5, 2.0),
            rng.float(0.5, 2.0),
            rng.float(0.5, 2.0),
        ]
    } else {
        [1.0; 3]
    };
    matrix(t, yaw, pitch, s)
}

fn random_name(rng: &mut Rng) -> String {
    let base = rng.pick(&NAMES).copied().unwrap_or("");
    if base.is_empty() {
        String::new()
    } else {
        format!("{base}{}", rng.below(100))
    }
}

fn random_spinner(rng: &mut Rng) -> Node {
    let tenths = if rng.chance(0.6) {
        rng.range(1, 70)
    } else {
        rng.range(3450, 3599)
    } as u16;
    let mut n = spinner(tenths, random_matrix(rng));
    if rng.chance(0.2) {
        n.name = RawString::from(format!("spin{tenths:04}").as_str());
    }
    n
}

fn random_textures(rng: &mut Rng) -> Vec<&'static str> {
    let n = match rng.below(4) {
        0 => 0,
        1 | 2 => 1,
        _ => rng.range(2, 3),
    };
    let mut out: Vec<&'static str> = Vec::new();
    while out.len() < n {
        let t = rng.pick(&TEXTURES).copied().unwrap_or("brick.gif");
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn random_geometry(rng: &mut Rng) -> Geometry {
    let tex = random_textures(rng);
    let one = tex.first().copied();
    let mut g = match rng.below(10) {
        0..=2 => boxed(
            [
                rng.float(0.5, 6.0),
                rng.float(0.5, 6.0),
                rng.float(0.5, 6.0),
            ],
            &tex,
        ),
        3 | 4 => pyramid(rng.float(0.5, 4.0), rng.float(0.5, 4.0), one),
        5 | 6 => ground(rng.float(5.0, 50.0), rng.range(1, 6) as u16, one),
        7 | 8 => prism(
            rng.range(3, 16) as u16,
            rng.float(0.2, 3.0),
            rng.float(0.5, 8.0),
            one,
        ),
        _ => outline(
            rng.range(3, 10) as u16,
            rng.float(0.5, 5.0),
            rng.float(0.0, 3.0),
            rng.range(0, 3) as u16,
        ),
    };
    if !h::is_line_set(g.render_flags) && !tex.is_empty() && g.textures.len() < tex.len() {
        // Prism, pyramid and ground use one texture: spread the others over the polygons.
        g.textures = tex
            .iter()
            .map(|t| TexDef {
                color: Bgr::from_rgb([0xFF; 3]),
                alpha: 0xFF,
                name: RawString::from(*t),
                extra: Vec::new(),
            })
            .collect();
        let n = tex.len();
        for (p, m) in g.materials.iter_mut().enumerate() {
            *m = (p % n) as u16;
        }
    }
    if rng.chance(0.1) {
        // Some worlds have no normals at all.
        g.normals.clear();
    }
    if rng.chance(0.1) {
        for f in &mut g.point_flags {
            *f = [rng.below(4) as u8, 0, 0, 0];
        }
    }
    g
}

fn random_geometry_node(rng: &mut Rng) -> Node {
    let mut n = node(&random_name(rng), random_matrix(rng));
    n.geometries.push(random_geometry(rng));
    if rng.chance(0.05) {
        // The format allows more than one geometry per node.
        n.geometries.push(random_geometry(rng));
    }
    if rng.chance(0.05) {
        n.animation.axis = [0.0, 1.0, 0.0];
    }
    n
}

fn random_light_node(rng: &mut Rng, kind: LightType) -> Node {
    let names = ["ambient", "light", "sun", "lamp", "spot", "glow"];
    let name = rng.pick(&names).copied().unwrap_or("light");
    let level = rng.range(0x20, 0xFF) as u8;
    let mut l = light(kind, level);
    if rng.chance(0.2) {
        let c = rng.below(256) as u8;
        l.color = [level, c, level];
    }
    if kind == LightType::Directional && rng.chance(0.3) {
        l.s3_s4 = [rng.float(70.0, 120.0) as f32, rng.float(20.0, 45.0) as f32];
    }
    let t = matrix(
        [
            rng.float(-20.0, 20.0),
            rng.float(2.0, 20.0),
            rng.float(-20.0, 20.0),
        ],
        rng.float(-180.0, 180.0),
        rng.float(0.0, 80.0),
        [1.0; 3],
    );
    lit(node(name, t), l)
}

/// A random subtree with at most `budget` nodes (at least one); returns it and its node count.
fn random_subtree(rng: &mut Rng, depth: usize, budget: usize) -> (Subtree, usize) {
    let node = match rng.below(10) {
        0 | 1 => random_spinner(rng),
        2 => {
            let kind = LightType::ALL
                .get(rng.below(LightType::ALL.len()))
                .copied()
                .unwrap_or(LightType::Point);
            random_light_node(rng, kind)
        }
        3 => node(&random_name(rng), random_matrix(rng)),
        _ => random_geometry_node(rng),
    };
    let spins = node.animation.speed != 0.0;
    let mut node = node;
    if spins && node.geometries.is_empty() && rng.chance(0.5) {
        node.geometries.push(random_geometry(rng));
    }
    let mut count = 1;
    let mut children = Vec::new();
    if depth < 4 && node.lights.is_empty() {
        let want = match rng.below(6) {
            0..=2 => 0,
            3 | 4 => rng.range(1, 2),
            _ => rng.range(2, 4),
        };
        for _ in 0..want {
            if count >= budget {
                break;
            }
            let (t, n) = random_subtree(rng, depth + 1, budget - count);
            count += n;
            children.push(t);
        }
    }
    (with(node, children), count)
}

/// The texture files [`world`] names, made by [`texture_gif`] and shipped beside the sample
/// (`samples/*.gif`, GIF as V-Chat's textures are), so the sample converts with its textures and
/// without a warning.
pub const WORLD_TEXTURES: [&str; 8] = [
    "grass.gif",
    "brick.gif",
    "wood.gif",
    "roof.gif",
    "stone.gif",
    "sail.gif",
    "logo.gif",
    "anim.gif",
];

/// A sample texture as a GIF: a 16 x 16 checker of two shades of the colour its name suggests;
/// `anim.gif` is four 16 x 16 frames stacked along V (the first, red, at the bottom: v = 0),
/// each a different colour (the texture animation of the node `anim0425`).
pub fn texture_gif(name: &str) -> Vec<u8> {
    const SIZE: u32 = 16;
    let colour = |name: &str| -> [u8; 3] {
        match name {
            "grass.gif" => [70, 150, 50],
            "brick.gif" => [170, 70, 50],
            "wood.gif" => [140, 100, 60],
            "roof.gif" => [120, 40, 40],
            "stone.gif" => [130, 130, 125],
            "sail.gif" => [235, 230, 215],
            "logo.gif" => [40, 80, 200],
            _ => [200, 0, 200],
        }
    };
    let frames: Vec<[u8; 3]> = if name == "anim.gif" {
        // Rows run top-down: the last frame first.
        vec![[60, 110, 220], [60, 180, 80], [230, 200, 60], [220, 60, 60]]
    } else {
        vec![colour(name)]
    };
    let height = SIZE * frames.len() as u32;
    let mut rgba = Vec::with_capacity((SIZE * height * 4) as usize);
    for y in 0..height {
        let [r, g, b] = frames
            .get((y / SIZE) as usize)
            .copied()
            .unwrap_or([0, 0, 0]);
        for x in 0..SIZE {
            let light = (x / 4 + y / 4) % 2 == 0;
            let px = if light {
                [r, g, b]
            } else {
                [r / 2, g / 2, b / 2]
            };
            rgba.extend_from_slice(&[px[0], px[1], px[2], 0xFF]);
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = image::codecs::gif::GifEncoder::new(&mut out);
        let img = image::RgbaImage::from_raw(SIZE, height, rgba).unwrap_or_default();
        // Two to eight colours: the encoder keeps them exactly (no quantisation).
        let _ = enc.encode_frame(image::Frame::new(img));
    }
    out
}

/// A texture as an uncompressed 24-bit Windows BMP: a 16 x 16 checker of two shades of the colour
/// its name suggests (`samples/brick.bmp`, the texture of the 3D GameStudio sample `room.wmp`).
pub fn texture_bmp(name: &str) -> Vec<u8> {
    const SIZE: u32 = 16;
    let [r, g, b]: [u8; 3] = match name {
        "grass.bmp" => [70, 150, 50],
        "brick.bmp" => [170, 70, 50],
        "wood.bmp" => [140, 100, 60],
        "roof.bmp" => [120, 40, 40],
        "stone.bmp" => [130, 130, 125],
        "sail.bmp" => [235, 230, 215],
        "logo.bmp" => [40, 80, 200],
        _ => [200, 0, 200],
    };
    let dark = [b / 2, g / 2, r / 2];
    let light = [b, g, r];
    let row_bytes = SIZE * 3; // 48: already a multiple of four, so rows need no padding
    let pixels_len = row_bytes * SIZE;
    let mut out = Vec::with_capacity(54 + pixels_len as usize);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&(54 + pixels_len).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(SIZE as i32).to_le_bytes());
    out.extend_from_slice(&(SIZE as i32).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24u16.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&pixels_len.to_le_bytes());
    out.extend_from_slice(&2835u32.to_le_bytes());
    out.extend_from_slice(&2835u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for y in 0..SIZE {
        for x in 0..SIZE {
            let pixel = if (x / 4 + y / 4) % 2 == 0 {
                light
            } else {
                dark
            };
            out.extend_from_slice(&pixel);
        }
    }
    out
}
