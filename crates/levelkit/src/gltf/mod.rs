//! glTF 2.0 (`.gltf` with embedded or side-car buffers, and `.glb`): [`write()`] a
//! [`Scene`] and [`read`] it back.
//!
//! * `write.rs`: [`write()`] and its [`GltfOptions`];
//! * `read.rs`: [`read`] and [`read_with_limits`];
//! * `glb.rs`: the GLB container, `uri.rs`: `data:` URIs, percent-encoding and image sniffing,
//!   `keys.rs`: the `extras` keys the writer adds and the reader takes back; what both need.
//!
//! # Writing
//!
//! [`write()`]: a [`Scene`] to a `.glb`, or to a `.gltf` with its data embedded in `data:`
//! URIs or in side files.
//!
//! Spec: <https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html> and
//! [`KHR_lights_punctual`](https://github.com/KhronosGroup/glTF/tree/main/extensions/2.0/Khronos/KHR_lights_punctual).
//! The JSON is built from `gltf-json`'s types; textures given as pixels become PNG images with
//! levelkit's own encoder (`encoding::encode_texture`: indexed when they have at most
//! 256 colours), several at once on several cores where there are threads. Every file
//! written from a valid scene is meant to pass the Khronos glTF validator with no errors and no
//! warnings (`tests/it/gltf.rs` runs it on every layout; a `File` texture must exist beside the file).
//! [`read`] reads the result back into the same scene, using the `extras` this writer leaves.
//!
//! ## What maps where
//!
//! | Scene | glTF |
//! |---|---|
//! | [`Mesh`] | one mesh; one `TRIANGLES` primitive per material its faces use (faces without a material share one primitive with no material, which renders with glTF's default material), then one `LINE_STRIP`/`LINE_LOOP` primitive per [`crate::scene::Polyline`]. A mesh with no faces and no lines is left out, with a warning (glTF has no empty meshes). |
//! | [`crate::scene::Face`] | `n - 2` triangles from [`crate::scene::triangulate::triangulate_into`]; the primitive's `extras.levelkit_polygons` lists each face's corner count in order, so the importer can rebuild the n-gons |
//! | corner attributes | `POSITION` (with `min`/`max`), `NORMAL` (always, from [`Mesh::corner_normals`]), `TEXCOORD_0` with V flipped (`1 - v`), `COLOR_0` (`VEC4` float) when any corner of the primitive has a colour, `TANGENT` (derived from normals and UVs) when the material has a normal map; vertices are shared within a primitive when position index, normal, UV and colour are bit-identical; `u16` indices up to 65 535 vertices, `u32` above |
//! | [`crate::scene::Material`] | material: `pbrMetallicRoughness`, normal/occlusion/emissive textures, emissive factor, alpha mode and cutoff, `doubleSided`, name; `extras` = its `extras` plus `phong` (the [`crate::scene::Phong`] values) and `levelkit_vertex_colors` |
//! | [`crate::scene::Texture`] | image + texture (one shared sampler: `REPEAT`, linear filters). `Pixels` are encoded as PNG; `Encoded` PNG/JPEG is written as it is; `File` becomes a URI reference (a path is percent-encoded, `\` becomes `/`) and is not embedded |
//! | [`crate::scene::Node`] | node; TRS as TRS, a matrix as a matrix (see below); mesh, camera, `KHR_lights_punctual` light |
//! | [`crate::scene::Light`] | `Point`, `Spot`, `Directional`: `KHR_lights_punctual` lights with colour, intensity and range as given. `Ambient`: no glTF equivalent; kept in the scene's `extras.ambient_lights` list, the node's `extras.ambient_light` names its entry (warning). `Area`: a spot light with outer cone just below pi/2 (a half-space emitter facing the node's -Z) and `extras.area_light = true` (warning) |
//! | [`Camera`] | perspective or orthographic camera |
//! | [`crate::scene::Animation`] `Spin` | a `LINEAR` rotation channel with a key every 30 degrees of one turn (slerp between keys is exactly a uniform rotation; the keys are close enough that players which blend quaternions linearly, as Blender's importer does, stay within 0.1 degree), time = angle / speed, composed with the node's rotation as `base * spin(t)`; glTF has no loop flag (players loop by default). `extras.levelkit_spin` keeps the axis and speed. |
//! | [`crate::scene::SecondUvs`], [`crate::scene::MaterialLightmap`] | `TEXCOORD_1` (V flipped) on every primitive of the mesh; the material's lightmap as its `occlusionTexture` with `texCoord` 1 and `extras.levelkit_lightmap` true (glTF has no lightmap slot; occlusion is its one baked, multiplied light term, and viewers that know lightmaps find the texture there) |
//! | [`crate::scene::Skin`] | a glTF skin with its `inverseBindMatrices` (`MAT4`); primitives of the mesh get `JOINTS_0` (`u16` `VEC4`) and `WEIGHTS_0` (float `VEC4`); every node showing the mesh refers to the skin |
//! | [`crate::scene::JointAnimation`] | one animation with a `translation` and a `rotation` channel per track, one key per frame, `LINEAR` |
//! | [`crate::scene::Morphs`] | morph targets of every primitive of the mesh: `POSITION` displacements (target minus base, with `min`/`max`) per primitive vertex; the mesh's `weights` all 0 and `extras.targetNames` |
//! | [`crate::scene::MorphAnimation`] | a `LINEAR` `weights` channel on the node with one key per frame (that frame's target 1, every other 0), `k * seconds_per_frame` apart |
//! | `extras` of scene, nodes, meshes, materials, textures, lights, cameras, animations | glTF `extras` of the same object |
//!
//! Buffers: a `.glb` has one buffer in its `BIN` chunk (images as buffer views); a `.gltf` has one
//! buffer either as a `data:` URI (`embed`) or in the side file `<stem>.bin`, with images as
//! `data:` URIs or side files `<stem>_<texture>.png` / `.jpg`.
//!
//! ## Matrices
//!
//! glTF requires a node matrix to be decomposable into translation, rotation and scale, and an
//! animated node to use TRS. A [`Transform::Matrix`] is therefore written as:
//!
//! * the matrix itself, when it decomposes into TRS (mirrorings do: a negative scale) and the node
//!   is not animated;
//! * TRS, when it decomposes and the node spins (the matrix is kept in `extras.levelkit_matrix`);
//! * otherwise (a shear, or a zero scale) two nodes from the singular value decomposition
//!   `M = T * U * S * V^T`: the node itself with TRS `(T, U, S)` and the original matrix in
//!   `extras.levelkit_matrix`, and a new child with rotation `V^T` (`extras.levelkit_split`) that
//!   takes over the node's mesh, light, camera and children. A spin then turns that child:
//!   `M * spin(t)`. Inserted nodes come after all the scene's nodes, so node indices are kept.
//!
//! A projective bottom row (not `0 0 0 1`) has no glTF equivalent: it is dropped with a warning.
//!
//! ## What does not map (each with a warning)
//!
//! * `Mesh::hard_edges` and `Mesh::flat`: glTF has no edges; they shape the normals written.
//!   Positions that no face or line uses are not written (glTF stores only vertices in use).
//! * Faces without UVs in a primitive that has `TEXCOORD_0` (because other faces have UVs or the
//!   material has textures) get `(0, 0)`; `extras.levelkit_faces_without_uv` lists them.
//!   Corners without a colour in a primitive with `COLOR_0` get white;
//!   `extras.levelkit_uncolored_vertices` lists those vertices. Colours are clamped to 0–1.
//! * `Encoded` images that are neither PNG nor JPEG (by their bytes) are left out, and material
//!   slots that use them are emptied.
//! * Cameras glTF can not express (a field of view of pi or more, `zfar <= znear`, a zero or
//!   negative size) are left out; a light's range that is not positive is dropped; an outer spot
//!   cone of exactly pi/2 is written as the largest `f32` below it (the extension's maximum).
//! * A node listed twice in `Scene::roots` is written once.
//! * A spin of speed 0 (no motion), a spin so fast or slow that its key times do not fit `f32`,
//!   and a second spin on the same node are left out.
//! * Materials and textures are all written, used or not, so their indices survive a round trip;
//!   the validator reports unused ones as information, not warnings.
//!
//! # Reading
//!
//! [`read`]: a `.gltf` or `.glb` to a [`Scene`], the way back from [`write()`].
//!
//! Spec: <https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html>. The JSON is parsed into
//! `gltf-json`'s model; the GLB container, accessors and `data:` URIs are read here with bounds
//! checks on every offset, because the input is untrusted (`gltf`'s own `Glb::from_slice`
//! subtracts the header size from the declared length before checking it, which overflows on a
//! short file).
//!
//! ## What maps where
//!
//! | glTF | Scene |
//! |---|---|
//! | `.glb` (sniffed by its `glTF` magic) or `.gltf` JSON | [`Scene`] with `source_format` [`Format::Glb`] or [`Format::Gltf`] |
//! | buffers | the `BIN` chunk, `data:` URIs (base64 or percent-encoded), or any other URI through the caller's `resolve` (given the relative path as written, percent-decoded); a missing one is an error naming it |
//! | images | `bufferView` or `data:` URI: [`TextureSource::Encoded`]; other URIs: [`TextureSource::File`] (percent-decoded when relative), for the caller to load |
//! | textures | [`Texture`] (one per glTF texture); a sampler other than repeat/linear is kept in `extras.sampler` |
//! | materials | [`Material`]: PBR factors and textures, emissive, alpha, double-sided; `extras.phong` back into [`Material::phong`]; `KHR_materials_emissive_strength` into `extras.emissive_strength` |
//! | meshes | [`Mesh`]: each primitive's vertices are appended to the mesh's positions (no welding); `TRIANGLES`, `TRIANGLE_STRIP` and `TRIANGLE_FAN` become faces, `LINES`, `LINE_STRIP` and `LINE_LOOP` become [`Polyline`]s, `POINTS` are skipped (warning). Corners get `NORMAL`, `TEXCOORD_0` (V flipped back: `1 - v`) and `COLOR_0` (`VEC3`/`VEC4`, float or normalized integers). |
//! | `extras.levelkit_polygons` of a `TRIANGLES` primitive | each face's `n - 2` triangles merged back into the n-gon: its boundary (edges used by one triangle of the group), walked from the first triangle's first corner; when that fails the triangles stay (warning) |
//! | nodes | [`Node`]s with TRS or matrix, mesh, camera and light; a child marked `extras.levelkit_split` (written for a matrix with shear) is merged back into its parent, whose `extras.levelkit_matrix` gives the original matrix |
//! | cameras | [`Camera`] |
//! | `KHR_lights_punctual` | [`Light`]s (point, spot, directional; a spot with `extras.area_light` is [`LightKind::Area`]), then the scene's `extras.ambient_lights` as [`LightKind::Ambient`] (nodes name them with `extras.ambient_light`) |
//! | animations with `extras.levelkit_spin` | [`Motion::Spin`] on the node its channel animates |
//! | `extras` everywhere | `extras` of the same item, minus the keys above |
//!
//! ## What is not supported
//!
//! * Sparse accessors and accessors without a buffer view (an error: the data can not be read).
//! * Required extensions other than `KHR_lights_punctual`, `KHR_materials_emissive_strength` and
//!   `KHR_mesh_quantization` (an error).
//! * Tangents are not read (they follow from normals and UVs; the writer derives them again).
//! * Skins, morph targets, `TEXCOORD_1` and up, and animations that are not levelkit
//!   spins (dropped with a warning): the scene model has no place for them.
//! * Scenes other than the default one (their nodes are read, but not as roots).
//!
//! Allocation is bounded by [`Limits`]: every decoded accessor is charged to a budget, so an
//! accessor shared by many primitives can not multiply memory without bound.
//!
//! ## Example
//!
//! ```
//! use levelkit::gltf::{GltfOptions, read, write};
//! use levelkit::scene::{Corner, Face, Mesh, Node, Scene};
//! use levelkit::Format;
//!
//! let mut scene = Scene::new(Format::Gltf);
//! let corner = |position| Corner { position, ..Corner::default() };
//! scene.meshes.push(Mesh {
//!     positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
//!     faces: vec![Face { corners: (0..4).map(corner).collect(), material: None }],
//!     ..Mesh::default()
//! });
//! scene.add_root(Node { mesh: Some(0), ..Node::default() });
//!
//! let glb = write(&scene, &GltfOptions::default())?;
//! let (back, _warnings) = read(&glb.main, &mut |_| None)?;
//! assert_eq!(back.meshes[0].faces.len(), 1);
//! assert_eq!(back.meshes[0].faces[0].corners.len(), 4); // the quad, not two triangles
//! # Ok::<(), levelkit::Error>(())
//! ```

mod glb;
pub(crate) mod keys;
mod read;
mod uri;
mod write;

pub use read::{read, read_with_limits};
pub use write::{GltfOptions, write};

#[cfg(doc)]
use crate::{
    limits::Limits,
    registry::Format,
    scene::{
        Camera, Light, LightKind, Material, Mesh, Motion, Node, Polyline, Scene, Texture,
        TextureSource, Transform,
    },
};
