//! Findings: lists that the typed views cannot read, references out of range, header entries
//! the writer would change.

use super::model::{Item, ListKind, Wmb};
use super::view;
use crate::error::{Location, Warning};
use crate::registry::Format;

/// Every finding, each with its path.
pub fn validate(wmb: &Wmb) -> Vec<Warning> {
    let mut out = Vec::new();
    if !(2..=7).contains(&wmb.version) || wmb.version == 5 {
        out.push(Warning::error(
            Format::Wmb,
            Location::path("version"),
            format!("WMB{} is not a version levelkit knows", wmb.version),
        ));
    }
    let mut seen = vec![false; wmb.slots.len()];
    for (n, item) in wmb.items.iter().enumerate() {
        if let Item::Within { slot, back, length } = item {
            if let Some(s) = seen.get_mut(*slot) {
                *s = true;
            }
            out.push(Warning::warning(
                Format::Wmb,
                Location::path(format!("items[{n}]")),
                format!(
                    "list `{}` ({length} bytes) lies inside the list before it, {back} bytes \
                     before its end (as some compilers write it); it is read as empty and \
                     written where it was",
                    ListKind::slot_name(*slot)
                ),
            ));
        }
        if let Item::List { slot, data } = item {
            match seen.get_mut(*slot) {
                None => out.push(Warning::error(
                    Format::Wmb,
                    Location::path(format!("items[{n}]")),
                    format!(
                        "list names header slot {slot}, past the header's {}",
                        wmb.slots.len()
                    ),
                )),
                Some(true) => out.push(Warning::error(
                    Format::Wmb,
                    Location::path(format!("items[{n}]")),
                    format!("a second list for header slot {slot}"),
                )),
                Some(s) => *s = true,
            }
            if data.is_empty() {
                out.push(Warning::warning(
                    Format::Wmb,
                    Location::path(format!("items[{n}]")),
                    "an empty list is written as an absent one",
                ));
            }
        }
    }
    for (slot, present) in seen.iter().enumerate() {
        if !present && wmb.slots.get(slot).is_some_and(|s| s.length != 0) {
            out.push(Warning::warning(
                Format::Wmb,
                Location::path(format!("slots[{slot}]")),
                format!(
                    "header entry `{}` has a length but no list; it is written as stored",
                    ListKind::slot_name(slot)
                ),
            ));
        }
    }
    let checks: [(&str, Option<crate::error::Error>); 5] = [
        ("palette", view::palette(wmb).err()),
        ("textures", view::textures(wmb).err()),
        ("objects", view::objects(wmb).err()),
        ("geometry", view::bsp_geometry(wmb).err()),
        ("blocks", view::blocks(wmb).err()),
    ];
    for (what, e) in checks {
        if let Some(e) = e {
            out.push(Warning::error(
                Format::Wmb,
                e.location.clone(),
                format!("the {what} do not read: {}", e.message),
            ));
        }
    }
    if let (Ok(textures), Ok(materials)) = (view::textures(wmb), view::materials(wmb)) {
        for (i, m) in materials.iter().enumerate() {
            if m.texture as usize >= textures.len() {
                out.push(Warning::warning(
                    Format::Wmb,
                    Location::path(format!("materials[{i}]")),
                    format!(
                        "material {i} names texture {} of {}",
                        m.texture,
                        textures.len()
                    ),
                ));
            }
        }
        if let Ok(geometry) = view::bsp_geometry(wmb) {
            for (i, f) in geometry.faces.iter().enumerate() {
                if usize::from(f.material) >= materials.len() {
                    out.push(Warning::warning(
                        Format::Wmb,
                        Location::path(format!("faces[{i}]")),
                        format!(
                            "face {i} names material {} of {}",
                            f.material,
                            materials.len()
                        ),
                    ));
                }
            }
        }
    }
    out
}
