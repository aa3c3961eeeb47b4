//! 3D GameStudio compiled levels (`.wmb`), WMB2 to WMB7.
//!
//! # The format
//!
//! A WMB starts with the magic `WMB2` … `WMB7` and a table of lists, each an offset from the
//! start of the file and a length in bytes. The lists descend from Quake's BSP lumps (Quake's
//! name in brackets):
//!
//! | slot | list | |
//! |---:|---|---|
//! | 0 | `palettes` | 16 info bytes, 256 RGB colours; in WMB6 more tables follow |
//! | 1 | `planes` (planes) | 20 bytes: normal, distance, type |
//! | 2 | `textures` (miptex) | count, offsets from the list, entries of 40 bytes + pixels |
//! | 3 | `vertices` (vertices) | 12 bytes: x, y, z |
//! | 4 | `pvs` (visilist) | |
//! | 5 | `bsp_nodes` (nodes) | |
//! | 6 | `materials` (texinfo) | 64 bytes: s and t vectors, texture, flags, ambient, albedo, name |
//! | 7 | `faces` (faces) | 20 bytes in WMB2, 24 from WMB3 (one more word) |
//! | 8 | `legacy4` (lightmaps) | empty in every file seen |
//! | 9 | `aabb_hulls` (clipnodes) | |
//! | 10 | `bsp_leafs` (leaves) | |
//! | 11 | `bsp_blocks` (lface) | |
//! | 12 | `edges` (edges) | two u16 in WMB2, two u32 from WMB3 |
//! | 13 | `edgelist` (ledges) | i32; negative walks the edge backwards |
//! | 14 | `legacy7` (models) | 160 bytes; starts with the world's bounding box |
//! | 15 | `objects` (entities) | count, offsets from the list, typed objects |
//! | 16 | `lightmaps` | WMB7: 256×256 (or 512, 1024) RGB pages |
//! | 17 | `blocks` | WMB7 meshes: vertices with two UV sets, triangles, skins |
//! | 18 | `legacy8` | |
//! | 19 | `lightmaps_terrain` | |
//!
//! # Sources, and what the files prove
//!
//! * `ikskuh/libgamestudio` (`src/wmb.zig`, `docs/wmb6.spec` @ `bba623749249`) gives the
//!   20-entry `WMB_HEADER`, the WMB7 texture type word (bits 0–2 the pixel format: 0 8-bit,
//!   2 RGB565, 4 RGB888, 5 RGBA8888, 6 DDS; bit 3 mip maps), the materials, the objects
//!   (`WMB_POSITION`, `WMB_LIGHT`, `WMB_OLD_ENTITY`, `WMB_SOUND`, `WMB_INFO`, `WMB_PATH`,
//!   `WMB_ENTITY`, an undocumented region), the WMB7 blocks, and WMB6's polygons (8-byte edges,
//!   24-byte faces).
//! * Quake's BSP (WMB2–4 descend from it): 4-byte edges and 20-byte faces, miptex entries whose
//!   four words are mip offsets from the entry.
//!
//! The corpus (`gamestudio/wmb/`, `wmb/block/`, `kingsbridge/`, `wmp/v710/block.wmb`) shows:
//!
//! * **The header is not always 20 entries.** It ends where the first list begins: 16 entries
//!   in WMB2, WMB3 and WMB4 (lists from byte 132), 17 in the older WMB6 (`wmb6-test.wmb`, lists
//!   from 140), 19 in the newer WMB6 (`block-*.wmb`, from 156), 20 in WMB7 (from 164). Reading
//!   20 entries from a WMB2 reads its planes as lists; the reader counts entries until the first
//!   list's offset (never fewer than 16).
//! * **WMB2 is Quake-sized, WMB3 is not.** WMB2's faces are 20 bytes and its edges two u16;
//!   WMB3 and WMB4 already have WMB6's 24-byte faces and u32 edges (the only sizes under which
//!   every face's edge loop closes, checked on every file).
//! * **Texture entries have two spellings.** WMB2–4 and the older WMB6 write Quake's four mip
//!   offsets (the first is 40, the entry's size); the step to the second gives the bytes per
//!   pixel (1 in WMB2–4, 2 = RGB565 in WMB6). The newer WMB6 (`block-*.wmb`,
//!   `v710/block.wmb`) puts WMB7's type word in the first (0x0A: RGB565 with mip maps) and keeps
//!   the other three offsets. Pixels start 40 bytes into the entry in both.
//! * **Palettes are RGB.** libgamestudio reads the colours as blue, green, red; colour 16 of the
//!   palette in `kbridge.wmb` and `block-*.wmb` is `0f 0b 07`, Quake's brown in red-green-blue
//!   order. WMB6's palette list is 181,520 bytes: the colours, then tables kept in the bytes.
//! * **The info object of WMB2 is shorter**: 56 bytes, no fog colours; the reader reads what is
//!   there.
//! * **Objects are C structs with their padding**: the entity's float skills start at the next
//!   multiple of 4 after the names (one byte after `action[33]` in `WMB_ENTITY`, three after
//!   `action[20]` in `WMB_OLD_ENTITY`), and each object is padded to 4 bytes (372 and 136 bytes
//!   in `kbridge.wmb`); libgamestudio reads the skills one byte early.
//! * **Regions are shorter in real WMB7 levels**: `testlevel_doors.wmb` (Acknex/LotterShock)
//!   writes 56-byte region objects, a 20-byte name after the two vectors and two words, where
//!   libgamestudio reads `name[32]`; the reader takes the name the object holds, up to 32 bytes.
//! * **A list can lie inside another**: in `space.wmb` (Acknex/galep) and three more lit levels
//!   the 4-byte `lightmaps_terrain` list starts 4 bytes before the end of the `lightmaps` list,
//!   whose last pixels it shares. The model keeps it as [`Item::Within`] (where it lies, no bytes
//!   of its own), the views take it as empty, `validate` says so, and the writer puts the slot
//!   back at the same offset. Lists that overlap partly are still refused.
//! * **The path's edge count word is not the edge count** in `kbridge.wmb`: it says 150 for the
//!   30 edges (24 bytes each) the object holds; libgamestudio trusts the word. The reader takes
//!   the word when the edges fit in the object, else as many as its bytes hold, and keeps the
//!   word in `edge_count_word`.
//! * **`gamestudio/wmb/block/block-*.wmb` are not compiled from the `block.wmp` beside them.**
//!   They are libgamestudio's `data/wmb/wmb6/analysis/` files: a 64-unit cube (8 vertices,
//!   6 faces, texture `#default`), centred and moved by 128 on x. The `block.wmp` (the same
//!   bytes as `wmp/v710/block.wmp`) is a tetrahedron with four textures, and its compiled form
//!   is `wmp/v710/block.wmb`: same four texture names, no entities on either side (the level
//!   info only), 4 faces for 4, bounding boxes within 0.41 units (the compiler moves the
//!   slanted faces' vertices: x ±63.81 for ±64, y 63.60 for 64, z 47.76 for 48).
//! * `kbridge.wmb` against `wmp/wmpb/kbridge.wmp`: 53 models and 1 path on both sides (the WMB
//!   writes 20 of the models in the old entity layout, 33 in the new); all 53 match by name at
//!   the same position (largest difference 0); the old layout keeps 13 characters of the file
//!   name (`kingsbridge.m`). Neither has blocks or textures.
//! * `kbridge.wmb` (WMB7) has no blocks (its level is all models) and one 256×256 lightmap.
//!
//! # What levelkit does with it
//!
//! The model ([`Wmb`]) keeps the header's entries as stored and the file after the header as an
//! ordered run of lists and gaps, so `write(read(x)) == x` for every file, whatever the lists
//! hold; the typed views in [`view`] read the lists' bytes (palette, textures, materials,
//! objects, WMB2–6 polygons, WMB7 blocks). [`to_scene`] builds geometry with textures and the
//! objects as nodes, and WMB7 block lightmaps (pages from [`view::lightmap_pages`]) as a second
//! UV set with the page as each lit material's lightmap: built from levelkit's own lit sample
//! only, as no real WMB with lit blocks has been seen. Not done: WMB2–6 per-face lightmaps,
//! WMB7 terrain lightmaps, the BSP tree,
//! DDS textures (their entry stays in the bytes; the material goes without an image).

mod codec;
pub mod dump;
pub mod model;
pub mod read;
pub mod samples;
pub mod scene;
pub mod validate;
pub mod view;
pub mod write;

pub use model::{Item, LIST_NAMES, ListKind, MAX_LISTS, Slot, Wmb};
pub use read::{read, read_with};
pub use scene::to_scene;
pub use write::write;

use serde::Serialize;

use crate::error::{Result, Warning};
use crate::limits::Limits;

impl Wmb {
    /// Read a WMB file (see [`read_with`]).
    pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wmb> {
        read_with(bytes, limits)
    }

    /// Write the level (see [`write()`]).
    pub fn write(&self) -> Result<Vec<u8>> {
        write(self)
    }

    /// Every finding (see [`validate::validate`]).
    pub fn validate(&self) -> Vec<Warning> {
        validate::validate(self)
    }

    /// A one-look summary.
    pub fn summary(&self) -> Summary {
        let count = |r: Result<usize>| r.unwrap_or(0);
        Summary {
            version: format!("WMB{}", self.version),
            header_lists: self.slots.len(),
            lists: self
                .items
                .iter()
                .filter(|i| matches!(i, Item::List { .. }))
                .count(),
            textures: count(view::textures(self).map(|t| t.len())),
            materials: count(view::materials(self).map(|t| t.len())),
            objects: count(view::objects(self).map(|t| t.len())),
            faces: count(view::bsp_geometry(self).map(|g| g.faces.len())),
            blocks: count(view::blocks(self).map(|b| b.len())),
        }
    }
}

/// `levelkit info`'s summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// `WMB2` … `WMB7`.
    pub version: String,
    /// Entries in the header's list table.
    pub header_lists: usize,
    /// Lists present.
    pub lists: usize,
    /// Textures.
    pub textures: usize,
    /// Materials.
    pub materials: usize,
    /// Objects.
    pub objects: usize,
    /// WMB2–6 polygons.
    pub faces: usize,
    /// WMB7 blocks.
    pub blocks: usize,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::registry::{Format, sniff};

    #[test]
    fn sniffed_by_magic_and_extension() {
        for v in [b'2', b'3', b'4', b'6', b'7'] {
            let magic = [b'W', b'M', b'B', v, 0, 0];
            assert_eq!(sniff(&magic, Some("a.bin")), Some(Format::Wmb));
        }
        assert_eq!(Format::from_path_name("level.wmb"), Some(Format::Wmb));
    }

    #[test]
    fn the_header_ends_where_the_first_list_begins() {
        let mut level = samples::square_level();
        assert_eq!(level.slots.len(), 16);
        let bytes = level.write().unwrap();
        assert_eq!(read(&bytes).unwrap(), level);
        // Three more (empty) entries: the lists move 24 bytes on, and the reader sees 19.
        level.slots.extend([Slot::default(); 3]);
        level.settle_layout();
        let bytes = level.write().unwrap();
        let back = read(&bytes).unwrap();
        assert_eq!(back.slots.len(), 19);
        assert_eq!(back, level);
    }

    #[test]
    fn views_of_the_samples() {
        let quad = samples::quad_level();
        let textures = view::textures(&quad).unwrap();
        assert_eq!(textures[0].format, view::PixelFormat::Rgb888);
        let list = quad.list(ListKind::Textures).unwrap();
        let (pixels, channels) = textures[0].decode(list, None).unwrap();
        assert_eq!((pixels.len(), channels), (12, 3));
        let objects = view::objects(&quad).unwrap();
        assert_eq!(objects[0].kind, view::ObjectKind::Info);
        assert_eq!(objects[2].file.as_deref(), Some("crate.mdl"));
        let square = samples::square_level();
        let t = &view::textures(&square).unwrap()[0];
        assert_eq!((t.format, t.mipmaps), (view::PixelFormat::Pal8, true));
        let g = view::bsp_geometry(&square).unwrap();
        assert_eq!(g.faces.len(), 1);
        assert_eq!(g.faces[0].extra, Some(0));
    }
}
