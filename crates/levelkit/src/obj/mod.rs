//! Wavefront OBJ + MTL: [`write()`] a [`Scene`] and [`read`] it back.
//!
//! * `write.rs`: [`write()`] and its [`ObjOptions`];
//! * `read.rs`: [`read`];
//! * `extras.rs`: [`ILLUM_EXTRA`] and [`NI_EXTRA`], the material extras that keep MTL values, and
//!   `srgb.rs`: the sRGB transfer function of vertex colours; what both need.
//!
//! # Writing
//!
//! [`write()`]: a [`Scene`] to the main `.obj` file, a `<stem>.mtl` side file and
//! the texture images it names.
//!
//! Specs: the OBJ and MTL appendices of the Wavefront Advanced Visualizer manual (mirrored at
//! <https://paulbourke.net/dataformats/obj/> and <https://paulbourke.net/dataformats/mtl/>), the
//! `v x y z r g b` colour extension (<https://paulbourke.net/dataformats/obj/colour.html>) and
//! the PBR extension of MTL (`Pr`, `Pm`, `norm`) that Blender, three.js and tinyobjloader read.
//! [`read`] reads everything written here back; `tests/it/obj.rs` checks the round
//! trip and, where Blender is installed, Blender's own importer.
//!
//! ## What maps
//!
//! * **Nodes with a mesh** become one `o <name>` each, in depth-first order from the roots. The
//!   name is the node's, else the mesh's, else `object<i>`; whitespace, control characters and
//!   `#` become `_`, and a repeated name gets `_2`, `_3`, … OBJ has no hierarchy, so every
//!   transform is baked in: positions are multiplied by the node's world matrix
//!   ([`Scene::world_matrices`]) and normals by its inverse transpose (then made unit length).
//!   A mirroring transform (negative determinant) would turn faces inside out, so their corner
//!   order is reversed.
//! * **Faces** stay polygons (`f v/vt/vn …`, 1-based) unless [`ObjOptions::triangulate`] asks for
//!   triangles (the ear clipper of [`crate::scene::triangulate`]). Every corner gets an explicit
//!   normal from [`Mesh::corner_normals`], so hard edges, flat meshes and the source's own
//!   normals survive in every reader; the object also says `s off` (flat) or `s 1` (smooth) for
//!   readers that shade by smoothing group. A face whose corners only partly have UVs gets
//!   `(0, 0)` for the others (one warning): mixed corner forms in one face are rejected by some
//!   readers.
//! * **Vertex data**: one `v` per position of each object (positions that merely coincide stay
//!   apart, so degenerate faces keep distinct corners and importers see the same topology);
//!   `vt` and `vn` once per distinct value in the file (exact comparison of the written
//!   numbers), so shared corners share lines. A mesh with corner colours
//!   writes every vertex of its faces as `v x y z r g b` (`… r g b a` when alpha is not 1), a
//!   corner without colour as white. The colours are converted from the model's linear RGB to
//!   sRGB, the encoding Blender and MeshLab read and write; alpha is unchanged. OBJ keeps one
//!   colour per `v`, so a position with two corner colours becomes two `v` lines.
//! * **Lines** become `l` statements through the same `v` lines; a closed polyline repeats its
//!   first point at the end.
//! * **Materials**: `usemtl` at every change of material and at the first face of each object
//!   (readers differ on whether `o` resets it). Faces without a material use the reader's default
//!   until some material has been set; after that they get a material named `default` (white,
//!   added to the MTL only when needed). Material names are made unique like object names.
//! * **MTL**, per material: `Kd` base colour; `Ka`, `Ks`, `Ns` from [`Phong`] when the material
//!   has it (`Ns` = shininess × 1000, as Wings 3D writes it), otherwise derived as Blender's
//!   exporter does: `Ka` = metallic (grey), `Ks` = a 0.5 grey mixed towards the base colour by
//!   metallic, `Ns` = 1000 (1 − roughness)², the inverse of Blender's `roughness = 1 − √(Ns/1000)`;
//!   `Ke` emissive; `d` alpha (1 unless the alpha mode is [`AlphaMode::Blend`]); `illum 2` (or
//!   the `obj_illum` extra); `Ni` when the material has an `obj_ni` extra; `Pr` roughness and
//!   `Pm` metallic (PBR extension); `map_Kd`, `map_Ke`, and the normal map as both `map_Bump`
//!   (Blender, most readers) and `norm` (the PBR extension's name).
//! * **Textures** become side files: [`TextureSource::Pixels`] is encoded as PNG
//!   (`<stem>_map<i>.png`, `i` the texture index), [`TextureSource::Encoded`] is written as it is
//!   with the extension of its MIME type (`.png`, `.jpg`), and [`TextureSource::File`] is
//!   referenced as written, with no side file. The stem is [`ObjOptions::stem`] with whitespace
//!   and path separators made `_`.
//! * **Numbers** are Rust's shortest round-trip decimal form (`{}`), which never uses an
//!   exponent; `-0` is written as `0`.
//!
//! ## What does not map
//!
//! Each reported once per kind in [`ExportFiles::warnings`], never per item: lights, cameras and
//! animations (OBJ has none); nodes without a mesh (the hierarchy is flattened), and nodes whose
//! mesh has neither faces nor lines (an empty `o` makes an empty object in some readers); nodes
//! not reachable from [`Scene::roots`]; metallic-roughness and occlusion textures (MTL has no slot for
//! glTF's packed channels); alpha masks (written opaque); double-sidedness; textures no written
//! map uses; and `extras` (other than `obj_illum` and `obj_ni`).
//!
//! A scene with [`Scene::validate`] errors is refused: its indices cannot be trusted.
//!
//! # Reading
//!
//! [`read`]: OBJ + MTL into a [`Scene`], the way back from [`write()`], and a
//! reader of what Blender, Wings 3D, Maya, 3ds Max and MeshLab write.
//!
//! Specs: the OBJ and MTL appendices of the Wavefront Advanced Visualizer manual (mirrored at
//! <https://paulbourke.net/dataformats/obj/> and <https://paulbourke.net/dataformats/mtl/>), the
//! `v x y z r g b` colour extension, and the PBR extension of MTL (`Pr`, `Pm`, `norm`).
//!
//! ## Statements
//!
//! * `v x y z [w]` (`w`, a rational weight, is ignored), `v x y z r g b` and `v x y z r g b a`:
//!   vertex colours are sRGB in the file (as Blender and MeshLab write them) and linear in the
//!   model; alpha is kept as it is.
//! * `vt u [v [w]]` (`w` ignored, a missing `v` is 0), `vn x y z` (made unit length; a zero normal
//!   is no normal).
//! * `f` (and `fo`, its old spelling) with corners `v`, `v/vt`, `v//vn`, `v/vt/vn`, mixed freely; negative indices count back
//!   from the last element defined so far. Indices must name an element already defined.
//! * `l` with points `v` or `v/vt` (the UV is ignored): a polyline; one that ends where it began
//!   (with at least three points) is a closed one.
//! * `o name` starts a new object. `g name` starts one too, but only in files without any `o`
//!   (Maya and 3ds Max name their objects with `g`); a `g` naming a group seen before continues
//!   that object, so a group split across the file stays one mesh. In files with `o`, `g` is a
//!   face set inside the object, which the model has no place for (reported once).
//! * `usemtl name` sets the material of the faces and lines that follow (a name no MTL file
//!   defines becomes a default material of that name, reported once); `mtllib a.mtl [b.mtl …]`
//!   loads each file through the `resolve` callback (a name containing spaces is tried whole
//!   first); one it cannot give is reported.
//! * `s n` / `s off` (`0`, `off` and `null` are off): smoothing groups. A mesh without normals
//!   whose faces are all `off` is [`Mesh::flat`]; otherwise, without normals, the edges between
//!   faces of different groups, and all edges of faces that are off, become
//!   [`Mesh::hard_edges`] (Blender's reading). With normals, the normals say it all.
//! * Comments (`#` at the start of a word), blank lines, CRLF, tabs, and `\` at the end of a
//!   line continuing it. Other statements (free-form curves and surfaces, `p` points, `mg`,
//!   `lod`, `usemap`, …) are skipped, reported once per keyword.
//!
//! Each object becomes a root [`crate::scene::Node`] (identity transform, named like its mesh)
//! with a [`Mesh`] holding only the positions its faces and lines use, numbered in order of first
//! use; corners carry the UV, normal and colour the file gives them. Objects without faces or
//! lines are dropped. Materials and textures are numbered in order of first mention.
//!
//! ## MTL
//!
//! * `newmtl`; `Kd`, `Ka`, `Ks`, `Ke` (one number means grey; `spectral` and `xyz` forms are
//!   skipped and reported); `Ns`; `d` and `Tr` (`d` wins; `Tr` = 1 − `d`); `illum` and `Ni`
//!   (kept as the extras [`ILLUM_EXTRA`] and [`NI_EXTRA`], which the exporter writes back);
//!   `Pr`, `Pm`; `map_Kd`, `map_Ke`, and `map_Bump` / `bump` / `norm` as the normal map.
//! * Map options (`-bm 1`, `-o u v w`, `-clamp on`, …) are skipped, reported once per option
//!   unless they have their default value; the file name is everything after them. Other maps
//!   (`map_Ks`, `map_d`, …) and statements are reported once per keyword.
//! * A texture is [`TextureSource::Encoded`] when `resolve` gives its bytes and they are PNG or
//!   JPEG, otherwise [`TextureSource::File`] with the name as written.
//! * A [`Material`] gets `base_color` = `Kd` with `d` as alpha ([`AlphaMode::Blend`] when it is
//!   below 1), `emissive` = `Ke`, and always a [`Phong`] with `Ka`, `Kd` (+ `d`), `Ks`, `Ke` as
//!   written (missing ones 0, `Kd` 1) and shininess `Ns / 1000` clamped to 0–1 (Wings 3D's scale;
//!   the MTL range is 0–1000). `metallic` is `Pm` or 0; `roughness` is `Pr`, else
//!   `1 − √(Ns / 1000)` (Blender's mapping), else 1. Colours and factors outside 0–1 are clamped
//!   for the PBR fields (reported once); the Phong ones keep what the file says.
//! * An MTL problem (a number that does not parse, a statement before `newmtl`) is a warning
//!   naming the file, line and column: the model is still usable without that value.
//!
//! ## Errors
//!
//! An OBJ that cannot be read faithfully is refused with an [`Error`] whose [`Location`] has the
//! line and column: a number that does not parse or is not finite, a `v` with a number of values
//! other than 3, 4, 6 or 7, an index of 0, out of range or not an integer, a face with fewer than
//! three corners, a line with fewer than two points. Memory grows linearly with the input; face
//! data is charged to a [`crate::limits::Budget`] with [`Limits::default`], so a hostile file
//! fails with [`crate::ErrorKind::LimitExceeded`] before it exhausts memory.

mod extras;
mod read;
mod srgb;
mod write;

pub use extras::{ILLUM_EXTRA, NI_EXTRA};
pub use read::read;
pub use write::{ObjOptions, write};

#[cfg(doc)]
use crate::{
    codec::ExportFiles,
    error::{Error, Location},
    limits::Limits,
    scene::{AlphaMode, Material, Mesh, Phong, Scene, TextureSource},
};
