//! The text `levelkit dump` prints for a WMB: the header's lists, then the typed views.

use std::fmt::Write as _;

use super::model::{Item, ListKind, Wmb};
use super::view;

/// The dump.
pub fn dump(wmb: &Wmb, name: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{name}: WMB{} ({} header lists)",
        wmb.version,
        wmb.slots.len()
    );
    let mut at = wmb.header_len();
    for item in &wmb.items {
        match item {
            Item::List { slot, data } => {
                let _ = writeln!(
                    s,
                    "  0x{at:08x} list {:<18} {} bytes",
                    ListKind::slot_name(*slot),
                    data.len()
                );
                at += data.len();
            }
            Item::Within { slot, back, length } => {
                let _ = writeln!(
                    s,
                    "  0x{:08x} list {:<18} {length} bytes, inside the list before it",
                    at.saturating_sub(*back as usize),
                    ListKind::slot_name(*slot),
                );
            }
            Item::Gap { data } => {
                let _ = writeln!(s, "  0x{at:08x} gap {} bytes", data.len());
                at += data.len();
            }
        }
    }
    match view::palette(wmb) {
        Ok(Some(p)) => {
            let _ = writeln!(s, "palette: 256 colours, {} bytes after them", p.trailing);
        }
        Ok(None) => {}
        Err(e) => {
            let _ = writeln!(s, "palette: {e}");
        }
    }
    match view::textures(wmb) {
        Ok(textures) => {
            for (i, t) in textures.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "texture {i}: {:?} {}x{} {:?}{} words {:?}",
                    t.name,
                    t.width,
                    t.height,
                    t.format,
                    if t.mipmaps { " +mips" } else { "" },
                    t.words
                );
            }
        }
        Err(e) => {
            let _ = writeln!(s, "textures: {e}");
        }
    }
    if let Ok(materials) = view::materials(wmb) {
        for (i, m) in materials.iter().enumerate() {
            let _ = writeln!(
                s,
                "material {i}: texture {} flags 0x{:x} user 0x{:x} ambient {} albedo {} name {:?} s {:?} t {:?}",
                m.texture, m.flags, m.user_flags, m.ambient, m.albedo, m.name, m.s, m.t
            );
        }
    }
    match view::bsp_geometry(wmb) {
        Ok(g) if !g.faces.is_empty() => {
            let _ = writeln!(
                s,
                "geometry: {} vertices, {} faces",
                g.vertices.len(),
                g.faces.len()
            );
        }
        Ok(_) => {}
        Err(e) => {
            let _ = writeln!(s, "geometry: {e}");
        }
    }
    match view::blocks(wmb) {
        Ok(blocks) => {
            for (i, b) in blocks.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "block {i}: {} vertices, {} triangles, {} skins, box {:?} {:?}",
                    b.vertices.len(),
                    b.triangles.len(),
                    b.skins.len(),
                    b.min,
                    b.max
                );
            }
        }
        Err(e) => {
            let _ = writeln!(s, "blocks: {e}");
        }
    }
    match view::objects(wmb) {
        Ok(objects) => {
            for (i, o) in objects.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "object {i}: {}",
                    serde_json::to_string(&o.fields).unwrap_or_default()
                );
            }
        }
        Err(e) => {
            let _ = writeln!(s, "objects: {e}");
        }
    }
    s
}
