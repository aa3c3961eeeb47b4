//! levelkit reads, validates, writes and converts legacy game level and model formats, losslessly.
//!
//! # Map of the crate
//!
//! Data flows one way, and back the same road for writing:
//!
//! ```text
//! bytes -> formats::<fmt>::read -> <fmt> model -> convert -> common model -> tiled/gltf/obj/picture -> bytes
//! ```
//!
//! * [`registry`]: every format, its extensions and magic bytes; [`registry::sniff`].
//! * [`formats`]: one module per legacy format with a lossless model (`write(read(x)) == x`);
//!   each implements [`codec::Codec`] once.
//! * [`document`]: the any-format layer: [`document::Model`] holds a document of any format (its
//!   JSON form is `levelkit dump --json`), reads it by sniffing, validates, summarises, dumps and
//!   converts it, dispatching to each format's [`codec::Codec`].
//! * [`tiled`], [`gltf`], [`obj`]: the modern formats, one module each with its writer (from a
//!   common model) and its reader (back to it) side by side; [`picture`]: PNG previews of tile
//!   maps and generated tileset images.
//! * [`tilemap`]: the common 2D model (layers, tilesets, objects, typed properties).
//! * [`anim`]: the common animation model (frames of RGBA pixels on one canvas, each with a
//!   duration), its builder, which composes sprites placed by their offsets, and its writers (GIF,
//!   APNG, sprite sheets).
//! * [`scene`]: the common 3D model (node tree, n-gon meshes, materials, textures, lights,
//!   cameras, animations), its validation and triangulation.
//! * [`error`], [`limits`], [`io`], [`strings`]: the shared pieces: one error type with format,
//!   kind, location and message; resource limits for hostile input; bounds-checked byte readers
//!   and writers; raw code-page strings.
//!
//! The library does no file or terminal I/O; the `levelkit` binary (crate `levelkit-cli`) does.
//!
//! # Examples
//!
//! Read a level from disk, look at it, and convert it to a Tiled map: the library does what
//! `levelkit convert samples/gruntz-like.wwd level.tmx` does, side files included.
//!
//! ```standalone_crate
//! # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))?;
//! use levelkit::assets::Folder;
//! use levelkit::document::{Model, Options, convert};
//! use levelkit::{Format, Limits};
//!
//! let bytes = std::fs::read("samples/gruntz-like.wwd")?;
//! let model = Model::read(&bytes, Some("gruntz-like.wwd"), &Limits::default())?;
//! assert_eq!(model.format(), Format::Wwd);
//! assert!(model.validate().is_empty());
//!
//! // Files the level names (tiles, images) are looked up beside it; the output's name
//! // names the side files (here the generated tileset pictures).
//! let options = Options {
//!     output_name: Some("level.tmx".into()),
//!     ..Options::default()
//! };
//! let done = convert(&model, Format::Tmx, &options, &Folder::new("samples"))?;
//! let tmx = String::from_utf8(done.main.ok_or("a map")?)?;
//! assert!(tmx.contains("<map "));
//! for (name, bytes) in &done.side {
//!     assert!(name.ends_with(".png") && !bytes.is_empty(), "{name}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Or a format's own model, without the document layer:
//!
//! ```
//! use levelkit::formats::wwd;
//!
//! // A level made by our own sample builder, written and read back.
//! let bytes = wwd::samples::claw_like().write()?;
//! let level = wwd::Wwd::read(&bytes)?;
//! assert_eq!(level.planes.len(), 3);
//! let (map, warnings) = level.to_tilemap();
//! assert!(warnings.is_empty());
//! assert_eq!(map.tile_width, 64);
//! # Ok::<(), levelkit::Error>(())
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod anim;
pub mod assets;
pub mod codec;
pub mod document;
pub(crate) mod encoding;
pub mod error;
pub mod etf;
pub mod formats;
pub mod gltf;
pub mod io;
pub mod limits;
pub mod obj;
pub mod picture;
pub mod registry;
pub mod scene;
pub(crate) mod serde_bytes;
pub mod strings;
pub mod tiled;
pub mod tilemap;

#[doc(hidden)]
pub mod testutil;

pub use error::{Error, ErrorKind, Location, Result, Severity, Warning};
pub use limits::Limits;
pub use registry::{Format, sniff};
