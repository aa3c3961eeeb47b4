//! The Graal Online family: binary levels (`.zelda`, `.graal`: [`binary`]), text levels (`.nw`:
//! [`nw`]) animations (`.gani`: [`gani`]) and
//! overworlds (`.gmap`: [`gmap`], grids of level names).
//!
//! Both level formats carry the same meaning, [`level::Level`]: each converts to it and back
//! (`binary/level.rs`, `nw/level.rs`), so a `.graal` becomes a `.nw` through it. The step to the
//! common tile map is [`tilemap`] for both (`.nw` adds its raw forms in `nw/tilemap.rs`);
//! [`dump`] is the text of a level's meaning that `levelkit dump` prints for either.

pub mod binary;
pub mod dump;
pub mod gani;
pub mod gmap;
pub mod level;
mod lines;
pub mod nw;
pub mod sample_images;
pub mod tilemap;
