//! The legacy formats, one folder each: a lossless model (`model.rs`), its reader and writer
//! (`read.rs`, `write.rs`), validation, the step to the common model (`tilemap.rs` or
//! `scene.rs`), sample builders (`samples.rs`), and the format's [`crate::codec::Codec`]
//! implementation (`codec.rs`), through which the document layer ([`crate::document`]) reaches
//! it. Nothing here knows about Tiled, glTF or OBJ.

// No panics on input: readers additionally deny `clippy::arithmetic_side_effects` (see each
// `read.rs`); writers and sample builders do arithmetic on sizes of in-memory models, in u64.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod ani;
pub mod graal;
pub mod hmp;
pub mod mdl;
pub mod pid;
pub mod rez;
pub mod wad;
pub mod wdb;
pub mod wings;
pub mod wmb;
pub mod wmp;
pub mod wwd;
