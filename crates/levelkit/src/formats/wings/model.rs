//! The lossless `.wings` model.
//!
//! The mesh (edges, faces, vertices) is typed; property lists (object, material and global
//! properties) are kept as [`Term`]s in file order, with typed accessors for the keys Wings
//! defines. Each typed element either reproduces its term exactly when written, or is kept as a
//! term (`Other`): a binary of the wrong size, a float that is not finite (JSON cannot hold it),
//! an unknown tag. So `write(read(bytes))` gives the same term for every file that reads, and the
//! same bytes wherever the compressed stream can be reproduced.

use serde::{Deserialize, Serialize};

use crate::etf::{Atom, AtomTag, Compression, Term};

/// A whole `.wings` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wings {
    /// How the term is stored: as read (`Some`), or `None` for a model built in code, which is
    /// written as Wings writes (`term_to_binary(T, [compressed])`: zlib, unless that would not
    /// be smaller).
    #[serde(default)]
    pub compression: Option<Compression>,
    /// The term.
    pub content: Content,
}

/// What the top-level term holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Content {
    /// `{wings, 2, {Shapes, Materials, Props}}`: every Wings since 0.92.
    V2(Document),
    /// `{wings, 0, Shapes}` or `{wings, 1, Shapes, Materials, Props}`: pre-0.92 files, which
    /// today's Wings refuses. Kept as the term; [`Legacy::meshes`] gives their vertices and faces.
    Legacy(Legacy),
}

/// A version 2 document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The encoding of the format's own atoms (`wings`, `object`, `winged`, `edge`, `uv_lt`,
    /// `material`, …): `Atom` (ATOM_EXT) from Erlang/OTP 25 and earlier, `SmallAtomUtf8` from
    /// OTP 26. Files that mix encodings in these atoms are refused by the reader.
    pub atoms: AtomTag,
    /// The objects, in file order (their index is the one selections use).
    pub shapes: Vec<Shape>,
    /// The materials.
    pub materials: Vec<Material>,
    /// The global property list (`scene_prefs`, `plugin_states`, `palette`, `views`, `images`,
    /// `lights`, selections, unknown keys), in file order.
    pub props: Term,
}

/// `{object, Name, {winged, Edges, Faces, Verts, HardEdges}, ObjProps}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    /// The name: a list of Unicode code points (kept as its term: `STRING_EXT` or `LIST_EXT`).
    pub name: Term,
    /// The winged-edge mesh.
    pub mesh: Winged,
    /// The object property list (`plugin_states`, `num_hidden_faces`, `holes`, `mirror_face`,
    /// `state`, unknown keys), in file order.
    pub props: Term,
}

/// The winged-edge mesh of one object. Edge *i*, face *j* and vertex *k* are the elements at
/// those positions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Winged {
    /// One entry per edge.
    pub edges: Vec<Edge>,
    /// One entry per face: its material.
    pub faces: Vec<Face>,
    /// One entry per vertex: its position.
    pub vertices: Vec<Vertex>,
    /// Hard edges: a list of edge indices (kept as its term; usually `STRING_EXT`).
    pub hard_edges: Term,
}

/// One edge: its tagged tuples, in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Edge {
    /// The tagged tuples (Wings writes `[color_rt, color_lt, uv_rt, uv_lt, edge]`).
    pub items: Vec<EdgeItem>,
}

/// One tagged tuple of an edge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeItem {
    /// `{edge, Vs, Ve, Lf, Rf, Ltpr, Ltsu, Rtpr, Rtsu}`.
    Edge(EdgeRecord),
    /// `{uv_lt, <<U:64/float, V:64/float>>}`: the UV of `Vs` as a corner of the left face.
    UvLt([f64; 2]),
    /// `{uv_rt, …}`: the UV of `Ve` as a corner of the right face.
    UvRt([f64; 2]),
    /// `{color_lt, <<R:32/float, G:32/float, B:32/float>>}`: the colour of `Vs` in the left face.
    ColorLt([f32; 3]),
    /// `{color_rt, …}`: the colour of `Ve` in the right face.
    ColorRt([f32; 3]),
    /// Legacy `{color, <<6 x f64>>}` (before 0.98.15): left RGB, then right RGB.
    Color([f64; 6]),
    /// Legacy `{uv, <<4 x f64>>}`: left UV, then right UV.
    Uv([f64; 4]),
    /// Anything else, kept as it was (an unknown tag, or a known tag whose payload has the wrong
    /// size or a value that is not finite).
    Other(Term),
}

/// The eight numbers of an `{edge, …}` tuple.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeRecord {
    /// Start vertex.
    pub vs: u32,
    /// End vertex.
    pub ve: u32,
    /// Left face.
    pub lf: u32,
    /// Right face.
    pub rf: u32,
    /// Left predecessor edge.
    pub ltpr: u32,
    /// Left successor edge.
    pub ltsu: u32,
    /// Right predecessor edge.
    pub rtpr: u32,
    /// Right successor edge.
    pub rtsu: u32,
}

/// One face entry: `[]` (the default material) or `[{material, Name}]`, other items kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Face {
    /// The items in file order.
    pub items: Vec<FaceItem>,
}

/// An item of a face entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaceItem {
    /// `{material, Name}`.
    Material(Atom),
    /// Anything else (Wings ignores it).
    Other(Term),
}

/// One vertex entry: a list holding `<<X:64/float, Y:64/float, Z:64/float>>`, other items kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Vertex {
    /// The items in file order.
    pub items: Vec<VertexItem>,
}

/// An item of a vertex entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VertexItem {
    /// The 24-byte position binary.
    Position([f64; 3]),
    /// Anything else (a binary of another size, non-finite values, other terms).
    Other(Term),
}

/// `{Name, MatProps}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Material {
    /// The material's name atom.
    pub name: Atom,
    /// Its property list (`opengl`, `maps`, plugin blocks, unknown keys), in file order.
    pub props: Term,
}

/// A pre-0.92 file, kept as its term.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Legacy {
    /// The version number (0 or 1).
    pub version: u8,
    /// The whole top-level tuple.
    pub term: Term,
}

impl From<[u32; 8]> for EdgeRecord {
    /// The eight numbers in file order: `Vs, Ve, Lf, Rf, Ltpr, Ltsu, Rtpr, Rtsu`.
    fn from([vs, ve, lf, rf, ltpr, ltsu, rtpr, rtsu]: [u32; 8]) -> Self {
        EdgeRecord {
            vs,
            ve,
            lf,
            rf,
            ltpr,
            ltsu,
            rtpr,
            rtsu,
        }
    }
}

impl Edge {
    /// The `{edge, …}` record (the first, should there be more).
    pub fn record(&self) -> Option<&EdgeRecord> {
        self.items.iter().find_map(|i| match i {
            EdgeItem::Edge(r) => Some(r),
            _ => None,
        })
    }

    /// The `uv_lt` UV (falling back to the left half of a legacy `uv`).
    pub fn uv_lt(&self) -> Option<[f64; 2]> {
        self.items.iter().find_map(|i| match i {
            EdgeItem::UvLt(uv) => Some(*uv),
            EdgeItem::Uv([u, v, _, _]) => Some([*u, *v]),
            _ => None,
        })
    }

    /// The `uv_rt` UV (falling back to the right half of a legacy `uv`).
    pub fn uv_rt(&self) -> Option<[f64; 2]> {
        self.items.iter().find_map(|i| match i {
            EdgeItem::UvRt(uv) => Some(*uv),
            EdgeItem::Uv([_, _, u, v]) => Some([*u, *v]),
            _ => None,
        })
    }

    /// The `color_lt` colour (falling back to the left half of a legacy `color`).
    pub fn color_lt(&self) -> Option<[f32; 3]> {
        self.items.iter().find_map(|i| match i {
            EdgeItem::ColorLt(c) => Some(*c),
            EdgeItem::Color([r, g, b, ..]) => Some([*r as f32, *g as f32, *b as f32]),
            _ => None,
        })
    }

    /// The `color_rt` colour (falling back to the right half of a legacy `color`).
    pub fn color_rt(&self) -> Option<[f32; 3]> {
        self.items.iter().find_map(|i| match i {
            EdgeItem::ColorRt(c) => Some(*c),
            EdgeItem::Color([_, _, _, r, g, b]) => Some([*r as f32, *g as f32, *b as f32]),
            _ => None,
        })
    }
}

impl Face {
    /// The material name: the last `{material, Name}`, as Wings reads it; `None` for default.
    pub fn material(&self) -> Option<&str> {
        self.items.iter().rev().find_map(|i| match i {
            FaceItem::Material(a) => Some(a.name.as_str()),
            FaceItem::Other(_) => None,
        })
    }
}

impl Vertex {
    /// The position (the first 24-byte binary).
    pub fn position(&self) -> Option<[f64; 3]> {
        self.items.iter().find_map(|i| match i {
            VertexItem::Position(p) => Some(*p),
            VertexItem::Other(_) => None,
        })
    }
}

impl Shape {
    /// The name as text (`None` if it is not a list of code points).
    pub fn name(&self) -> Option<String> {
        self.name.as_charlist()
    }

    /// `num_hidden_faces`: faces `0 … N−1` are hidden (0 when absent or not an integer).
    pub fn num_hidden_faces(&self) -> u64 {
        self.props
            .proplist_get("num_hidden_faces")
            .and_then(Term::as_int)
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(0)
    }

    /// `holes`: face indices (the integers of the list; empty when absent).
    pub fn holes(&self) -> Vec<i64> {
        self.props
            .proplist_get("holes")
            .and_then(Term::list_items)
            .map(|items| items.iter().filter_map(Term::as_int).collect())
            .unwrap_or_default()
    }

    /// `mirror_face`, if set to an integer.
    pub fn mirror_face(&self) -> Option<i64> {
        self.props
            .proplist_get("mirror_face")
            .and_then(Term::as_int)
    }

    /// `state`: `locked`, `hidden`, `hidden_locked` or `{hidden, Mode, Elems}`; `None` for a
    /// normal object.
    pub fn state(&self) -> Option<&Term> {
        self.props.proplist_get("state")
    }

    /// True when the whole object is hidden (`hidden`, `hidden_locked` or `{hidden, …}`).
    pub fn is_hidden(&self) -> bool {
        match self.state() {
            Some(Term::Atom(a)) => a.name == "hidden" || a.name == "hidden_locked",
            Some(Term::Tuple(items)) => items.first().and_then(Term::as_atom) == Some("hidden"),
            _ => false,
        }
    }

    /// `plugin_states`, if present.
    pub fn plugin_states(&self) -> Option<&Term> {
        self.props.proplist_get("plugin_states")
    }

    /// Whether face `face` is hidden (`face < num_hidden_faces`).
    pub fn is_face_hidden(&self, face: usize) -> bool {
        (face as u64) < self.num_hidden_faces()
    }

    /// Whether face `face` is a hole.
    pub fn is_hole(&self, face: usize) -> bool {
        self.holes().contains(&(face as i64))
    }
}

impl Material {
    /// The `opengl` property list.
    pub fn opengl(&self) -> Option<&Term> {
        self.props.proplist_get("opengl")
    }

    /// A colour of the `opengl` list (`diffuse`, `emission`, …) as RGBA; 3-tuples get alpha 1.
    pub fn color(&self, key: &str) -> Option<[f64; 4]> {
        color4(self.opengl()?.proplist_get(key)?)
    }

    /// A number of the `opengl` list (`metallic`, `roughness`, `shininess`).
    pub fn number(&self, key: &str) -> Option<f64> {
        self.opengl()?.proplist_get(key)?.as_number()
    }

    /// `maps`: `(type, value)` pairs, the value usually an image id.
    pub fn maps(&self) -> Vec<(String, Term)> {
        let Some(items) = self.props.proplist_get("maps").and_then(Term::list_items) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|t| match t.as_tuple() {
                Some([k, v]) => Some((k.as_atom()?.to_owned(), v.clone())),
                _ => None,
            })
            .collect()
    }
}

/// An `{R,G,B,A}` or `{R,G,B}` tuple of numbers.
pub fn color4(t: &Term) -> Option<[f64; 4]> {
    match t.as_tuple()? {
        [r, g, b] => Some([r.as_number()?, g.as_number()?, b.as_number()?, 1.0]),
        [r, g, b, a] => Some([
            r.as_number()?,
            g.as_number()?,
            b.as_number()?,
            a.as_number()?,
        ]),
        _ => None,
    }
}

/// An image of the global `images` property.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Image {
    /// Its id (the key materials' `maps` use).
    pub id: i64,
    /// Its name.
    pub name: Option<String>,
    /// Embedded pixels or a file reference.
    pub source: ImageSource,
}

/// Where an image's pixels are.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageSource {
    /// `width`, `height`, `samples_per_pixel`, `pixels` in the file.
    Embedded {
        /// Width in pixels.
        width: i64,
        /// Height in pixels.
        height: i64,
        /// Bytes per pixel (1–4).
        samples_per_pixel: i64,
        /// `mask_size`.
        mask_size: i64,
        /// Size of the `pixels` binary.
        pixels_len: usize,
    },
    /// `{filename, Path}`.
    External {
        /// The path as stored.
        filename: String,
    },
    /// Neither form.
    Unknown,
}

/// A light of the global `lights` property. Lights are not shapes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Light {
    /// Its name.
    pub name: Option<String>,
    /// `type` of its `opengl` list (`ambient`, `point`, `spot`, `infinite`, `area`).
    pub kind: Option<String>,
    /// `visible`.
    pub visible: Option<bool>,
    /// `position` of its `opengl` list.
    pub position: Option<[f64; 3]>,
}

impl Document {
    /// A global property.
    pub fn prop(&self, key: &str) -> Option<&Term> {
        self.props.proplist_get(key)
    }

    /// The `images` property.
    pub fn images(&self) -> Vec<Image> {
        let Some(items) = self.prop("images").and_then(Term::list_items) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|t| match t.as_tuple() {
                Some([id, props]) => Some(image(id.as_int()?, props)),
                _ => None,
            })
            .collect()
    }

    /// The `lights` property.
    pub fn lights(&self) -> Vec<Light> {
        let Some(items) = self.prop("lights").and_then(Term::list_items) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|t| match t.as_tuple() {
                Some([name, props]) => {
                    let gl = props.proplist_get("opengl");
                    Some(Light {
                        name: name.as_charlist(),
                        kind: gl
                            .and_then(|g| g.proplist_get("type"))
                            .and_then(Term::as_atom)
                            .map(str::to_owned),
                        visible: props
                            .proplist_get("visible")
                            .and_then(Term::as_atom)
                            .map(|a| a == "true"),
                        position: gl
                            .and_then(|g| g.proplist_get("position"))
                            .and_then(|p| match p.as_tuple()? {
                                [x, y, z] => Some([x.as_number()?, y.as_number()?, z.as_number()?]),
                                _ => None,
                            }),
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// The `views` property: each view's name.
    pub fn views(&self) -> Vec<Option<String>> {
        let Some(items) = self.prop("views").and_then(Term::list_items) else {
            return Vec::new();
        };
        items
            .iter()
            .map(|v| match v.as_tuple() {
                Some([_, props]) => props.proplist_get("name").and_then(Term::as_charlist),
                _ => None,
            })
            .collect()
    }

    /// The `palette` property as RGBA colours.
    pub fn palette(&self) -> Vec<[f64; 4]> {
        self.prop("palette")
            .and_then(Term::list_items)
            .map(|items| items.iter().filter_map(color4).collect())
            .unwrap_or_default()
    }

    /// The material called `name`.
    pub fn material(&self, name: &str) -> Option<&Material> {
        self.materials.iter().find(|m| m.name.name == name)
    }
}

fn image(id: i64, props: &Term) -> Image {
    let int = |k: &str| props.proplist_get(k).and_then(Term::as_int);
    let source = if let (Some(width), Some(height), Some(pp)) =
        (int("width"), int("height"), int("samples_per_pixel"))
    {
        ImageSource::Embedded {
            width,
            height,
            samples_per_pixel: pp,
            mask_size: int("mask_size").unwrap_or(0),
            pixels_len: props
                .proplist_get("pixels")
                .and_then(Term::as_binary)
                .map_or(0, <[u8]>::len),
        }
    } else if let Some(f) = props.proplist_get("filename").and_then(Term::as_charlist) {
        ImageSource::External { filename: f }
    } else {
        ImageSource::Unknown
    };
    Image {
        id,
        name: props.proplist_get("name").and_then(Term::as_charlist),
        source,
    }
}

/// An atom tagged as Erlang/OTP 25 (the Wings 2.2.9 of Debian 12) writes it with
/// `term_to_binary`: `ATOM_EXT` for Latin-1 text, the UTF-8 tags otherwise.
pub fn otp25_atom(name: &str) -> Atom {
    let latin1 = name.chars().all(|c| u32::from(c) <= 0xFF);
    let tag = match (latin1, name.len() < 256) {
        (true, _) => AtomTag::Atom,
        (false, true) => AtomTag::SmallAtomUtf8,
        (false, false) => AtomTag::AtomUtf8,
    };
    Atom {
        name: name.to_owned(),
        tag,
    }
}
