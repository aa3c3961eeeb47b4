//! Small levels made by levelkit itself, for tests, fuzz seeds and the bundled sample.

use super::model::{Item, ListKind, MAX_LISTS, Slot, Wmb};
use crate::io::ByteWriter;

pub(super) fn name(w: &mut ByteWriter, text: &str, size: usize) {
    let bytes = text.as_bytes();
    let n = bytes.len().min(size.saturating_sub(1));
    w.put_bytes(bytes.get(..n).unwrap_or_default());
    w.put_fill(0, size - n);
}

pub(super) fn list(slot: ListKind, w: ByteWriter) -> Item {
    Item::List {
        slot: slot as usize,
        data: w.into_inner(),
    }
}

/// A WMB7 level: one 2×2 RGB888 texture, one block (a quad of two triangles), a light, an
/// entity and the level info.
pub fn quad_level() -> Wmb {
    quad(false)
}

/// [`quad_level`] lit: one 256×256 lightmap page (a red ramp left to right, green top to
/// bottom, blue 64) in the `lightmaps` list, and lightmap coordinates that cover the middle
/// of the page (0.25–0.75), unlike the texture coordinates (0–1). Made by levelkit: no real
/// WMB with lit blocks has been seen.
pub fn lit_quad_level() -> Wmb {
    quad(true)
}

/// The side of [`lit_quad_level`]'s lightmap page.
pub const LIGHTMAP_SIDE: usize = 256;

fn quad(lit: bool) -> Wmb {
    let mut textures = ByteWriter::new();
    textures.put_u32_le(1);
    textures.put_u32_le(8);
    name(&mut textures, "checker", 16);
    textures.put_u32_le(2);
    textures.put_u32_le(2);
    textures.put_u32_le(4); // RGB888, no mip maps
    for _ in 0..3 {
        textures.put_u32_le(0);
    }
    textures.put_bytes(&[255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);

    let mut blocks = ByteWriter::new();
    blocks.put_u32_le(1);
    for v in [-64.0f32, -64.0, 0.0, 64.0, 64.0, 0.0] {
        blocks.put_f32_le(v);
    }
    blocks.put_u32_le(0);
    blocks.put_u32_le(4);
    blocks.put_u32_le(2);
    blocks.put_u32_le(1);
    for (x, y, u, v) in [
        (-64.0f32, -64.0f32, 0.0f32, 1.0f32),
        (64.0, -64.0, 1.0, 1.0),
        (64.0, 64.0, 1.0, 0.0),
        (-64.0, 64.0, 0.0, 0.0),
    ] {
        let (su, sv) = if lit {
            (0.25 + u / 2.0, 0.25 + v / 2.0)
        } else {
            (u, v)
        };
        for f in [x, y, 0.0, u, v, su, sv] {
            blocks.put_f32_le(f);
        }
    }
    for tri in [[0u16, 2, 1], [0, 3, 2]] {
        for i in tri {
            blocks.put_u16_le(i);
        }
        blocks.put_u16_le(0);
        blocks.put_u32_le(0);
    }
    blocks.put_u16_le(0);
    blocks.put_u16_le(0);
    blocks.put_u32_le(0);
    blocks.put_f32_le(0.0);
    blocks.put_f32_le(50.0);
    blocks.put_u32_le(0);

    let mut objects = ByteWriter::new();
    objects.put_u32_le(3);
    let table = 4 + 3 * 4;
    let info_len = 60;
    let light_len = 36;
    objects.put_u32_le(table);
    objects.put_u32_le(table + info_len);
    objects.put_u32_le(table + info_len + light_len);
    // Info.
    objects.put_u32_le(5);
    for f in [0.0f32, 0.0, 0.0, 45.0, 30.0] {
        objects.put_f32_le(f);
    }
    objects.put_u32_le(127);
    objects.put_f32_le(7.0);
    objects.put_bytes(&[0, 0, 0, 0]);
    for c in [0xFFFF_FFFFu32, 0xFF40_4040, 0, 0, 0, 0] {
        objects.put_u32_le(c);
    }
    // Light.
    objects.put_u32_le(2);
    for f in [0.0f32, 0.0, 100.0, 100.0, 80.0, 60.0, 500.0] {
        objects.put_f32_le(f);
    }
    objects.put_u32_le(2);
    // Entity.
    objects.put_u32_le(7);
    for f in [16.0f32, 8.0, 32.0, 90.0, 0.0, 0.0, 1.0, 1.0, 1.0] {
        objects.put_f32_le(f);
    }
    name(&mut objects, "crate_1", 33);
    name(&mut objects, "crate.mdl", 33);
    name(&mut objects, "act_crate", 33);
    objects.put_u8(0); // C padding before the skills
    for i in 0..20 {
        objects.put_f32_le(i as f32);
    }
    objects.put_u32_le(0);
    objects.put_f32_le(0.0);
    objects.put_f32_le(50.0);
    objects.put_u32_le(0);
    objects.put_u32_le(0);
    for _ in 0..4 {
        name(&mut objects, "", 33);
    }
    let mut items = vec![
        list(ListKind::Objects, objects),
        list(ListKind::Blocks, blocks),
        list(ListKind::Textures, textures),
    ];
    if lit {
        let mut page = ByteWriter::new();
        for y in 0..LIGHTMAP_SIDE {
            for x in 0..LIGHTMAP_SIDE {
                page.put_bytes(&[x as u8, y as u8, 64]);
            }
        }
        items.push(list(ListKind::Lightmaps, page));
    }
    items.push(Item::Gap { data: vec![0; 3] });
    let mut level = Wmb {
        version: 7,
        slots: vec![Slot::default(); MAX_LISTS],
        items,
    };
    level.settle_layout();
    level
}

/// A WMB3 level in the BSP layout: one textured square face (8-bit texture, no palette).
pub fn square_level() -> Wmb {
    let mut vertices = ByteWriter::new();
    for (x, y) in [(0.0f32, 0.0f32), (64.0, 0.0), (64.0, 64.0), (0.0, 64.0)] {
        for f in [x, y, 0.0] {
            vertices.put_f32_le(f);
        }
    }
    let mut edges = ByteWriter::new();
    for (a, b) in [(0u32, 0u32), (0, 1), (1, 2), (2, 3), (3, 0)] {
        edges.put_u32_le(a);
        edges.put_u32_le(b);
    }
    let mut edgelist = ByteWriter::new();
    for e in [-4i32, -3, -2, -1] {
        edgelist.put_i32_le(e);
    }
    let mut faces = ByteWriter::new();
    faces.put_u16_le(0);
    faces.put_u16_le(0);
    faces.put_i32_le(0);
    faces.put_u16_le(4);
    faces.put_u16_le(0);
    faces.put_bytes(&[0, 0, 0, 0]);
    faces.put_i32_le(-1);
    faces.put_u32_le(0);
    let mut materials = ByteWriter::new();
    for f in [1.0f32, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0] {
        materials.put_f32_le(f);
    }
    materials.put_u32_le(0);
    materials.put_u16_le(0);
    materials.put_u32_le(0);
    materials.put_bytes(&[0, 50]);
    name(&mut materials, "", 20);
    let mut textures = ByteWriter::new();
    textures.put_u32_le(1);
    textures.put_u32_le(8);
    name(&mut textures, "stripes", 16);
    textures.put_u32_le(4);
    textures.put_u32_le(4);
    for o in [40u32, 56, 60, 61] {
        textures.put_u32_le(o);
    }
    for i in 0..16u8 {
        textures.put_u8(i * 16);
    }
    textures.put_bytes(&[0; 6]);
    let mut objects = ByteWriter::new();
    objects.put_u32_le(0);
    objects.put_u32_le(0);
    let mut level = Wmb {
        version: 3,
        slots: vec![Slot::default(); 16],
        items: vec![
            list(ListKind::Vertices, vertices),
            list(ListKind::Edges, edges),
            list(ListKind::Edgelist, edgelist),
            list(ListKind::Faces, faces),
            list(ListKind::Materials, materials),
            list(ListKind::Textures, textures),
            list(ListKind::Objects, objects),
        ],
    };
    level.settle_layout();
    level
}
