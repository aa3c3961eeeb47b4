//! The library's integration tests, one module per format or feature, in one test binary (so the
//! crate and its dependencies link once, not once per file).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::needless_range_loop
)]

mod common;

mod ani;
mod etf_erlang;
mod fixtures;
mod gani;
mod gani_render;
mod gltf;
mod gmap;
mod graal;
mod graal_images;
mod graal_links;
mod graal_pairs;
mod graal_tilemap;
mod hmp;
mod json_document;
mod mdl;
mod nw;
mod obj;
mod pid;
mod png_export;
mod rez;
mod tiled_export;
mod tiled_import;
mod tiled_render;
mod tiled_roundtrip;
mod tiled_tsx;
mod triangulate;
mod wad7;
mod wdb;
mod wings;
mod wings_oracle;
mod wings_scene;
mod wmb;
mod wmp_issue17;
mod wmp_scene;
mod wmp_text;
mod wmpb;
mod wwd_alloc;
mod wwd_cases;
mod wwd_corpus;
mod wwd_deflate;
mod wwd_fastpath;
mod wwd_game;
mod wwd_layout;
mod wwd_proptest;
mod wwd_robust;
mod wwd_tilemap;
