//! The text form of a Wings 3D model (`levelkit dump`): each object with its counts, face
//! shapes, materials and properties, then materials, images, lights and global properties.

use std::fmt::{self, Write as _};

use super::Wings;

/// The text dump of a model; `name` is the file's name.
pub fn dump(name: &str, w: &Wings) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = dump_wings(&mut s, name, w);
    s
}

/// A term in Erlang syntax, cut to `max` characters.
fn term_text(t: &crate::etf::Term, max: usize) -> String {
    let text = t.to_string();
    if text.chars().count() <= max {
        text
    } else {
        let cut: String = text.chars().take(max).collect();
        format!("{cut}… ({} characters)", text.chars().count())
    }
}

fn dump_wings(s: &mut String, name: &str, w: &Wings) -> fmt::Result {
    use super::{Content, ImageSource};
    use crate::etf::Compression;
    let compression = match w.compression {
        Some(Compression::Zlib) => "zlib-compressed",
        Some(Compression::None) => "uncompressed",
        None => "compression as Wings chooses",
    };
    let doc = match &w.content {
        Content::V2(doc) => doc,
        Content::Legacy(legacy) => {
            writeln!(
                s,
                "{name}: wings model (version {}, before Wings 0.92; {compression})",
                legacy.version
            )?;
            match legacy.meshes() {
                Ok(meshes) => {
                    writeln!(s, "objects ({})", meshes.len())?;
                    for (i, m) in meshes.iter().enumerate() {
                        writeln!(
                            s,
                            "  [{i}] {:?}: {} vertices, {} faces",
                            m.name.as_deref().unwrap_or("?"),
                            m.positions.len(),
                            m.faces.len()
                        )?;
                    }
                }
                Err(e) => writeln!(s, "objects: not readable: {e}")?,
            }
            return Ok(());
        }
    };
    writeln!(
        s,
        "{name}: wings model (version 2; {compression}; atoms as {:?})",
        doc.atoms
    )?;
    writeln!(s)?;
    writeln!(s, "objects ({})", doc.shapes.len())?;
    for (i, shape) in doc.shapes.iter().enumerate() {
        let m = &shape.mesh;
        let walks = m.faces_ccw();
        let mut sides = std::collections::BTreeMap::new();
        let (mut corners, mut uvs, mut colors, mut broken) = (0usize, 0usize, 0usize, 0usize);
        for walk in &walks {
            match walk {
                Ok(c) => {
                    *sides.entry(c.len()).or_insert(0usize) += 1;
                    corners += c.len();
                    uvs += c.iter().filter(|c| c.uv.is_some()).count();
                    colors += c.iter().filter(|c| c.color.is_some()).count();
                }
                Err(_) => broken += 1,
            }
        }
        let shapes: Vec<String> = sides
            .iter()
            .map(|(n, count)| match n {
                3 => format!("{count} triangles"),
                4 => format!("{count} quads"),
                n => format!("{count} {n}-gons"),
            })
            .collect();
        let mut materials = std::collections::BTreeMap::new();
        for f in &m.faces {
            *materials
                .entry(f.material().unwrap_or("default"))
                .or_insert(0usize) += 1;
        }
        let materials: Vec<String> = materials.iter().map(|(k, n)| format!("{k} x{n}")).collect();
        writeln!(
            s,
            "  [{i}] {:?}: {} vertices, {} edges, {} faces ({}{})",
            shape.name().unwrap_or_default(),
            m.vertices.len(),
            m.edges.len(),
            m.faces.len(),
            shapes.join(", "),
            if broken > 0 {
                format!(", {broken} broken loops")
            } else {
                String::new()
            }
        )?;
        writeln!(
            s,
            "      hidden faces {}, holes {:?}, mirror {}, state {}, hard edges {}",
            shape.num_hidden_faces(),
            shape.holes(),
            shape
                .mirror_face()
                .map_or_else(|| "none".to_owned(), |f| f.to_string()),
            shape
                .state()
                .map_or_else(|| "normal".to_owned(), |t| t.to_string()),
            m.hard_edges.list_len().unwrap_or(0)
        )?;
        writeln!(
            s,
            "      corners {corners}: {uvs} with UVs, {colors} with colours; materials {}",
            materials.join(", ")
        )?;
        writeln!(s, "      props {}", term_text(&shape.props, 160))?;
    }
    writeln!(s)?;
    writeln!(s, "materials ({})", doc.materials.len())?;
    for mat in &doc.materials {
        let diffuse = mat
            .color("diffuse")
            .map_or_else(|| "-".to_owned(), |c| format!("{c:?}"));
        let maps: Vec<String> = mat.maps().iter().map(|(k, v)| format!("{k}={v}")).collect();
        writeln!(
            s,
            "  {}: diffuse {diffuse}, maps [{}]",
            mat.name.name,
            maps.join(", ")
        )?;
        writeln!(s, "      props {}", term_text(&mat.props, 160))?;
    }
    writeln!(s)?;
    let images = doc.images();
    writeln!(s, "images ({})", images.len())?;
    for img in &images {
        let what = match &img.source {
            ImageSource::Embedded {
                width,
                height,
                samples_per_pixel,
                pixels_len,
                ..
            } => format!("embedded {width} x {height} x {samples_per_pixel} ({pixels_len} bytes)"),
            ImageSource::External { filename } => format!("file {filename:?}"),
            ImageSource::Unknown => "unknown form".to_owned(),
        };
        writeln!(
            s,
            "  [{}] {:?}: {what}",
            img.id,
            img.name.as_deref().unwrap_or("")
        )?;
    }
    let lights = doc.lights();
    writeln!(s, "lights ({})", lights.len())?;
    for l in &lights {
        writeln!(
            s,
            "  {:?}: {} at {:?}{}",
            l.name.as_deref().unwrap_or(""),
            l.kind.as_deref().unwrap_or("?"),
            l.position,
            if l.visible == Some(false) {
                " (hidden)"
            } else {
                ""
            }
        )?;
    }
    writeln!(s)?;
    writeln!(s, "global properties")?;
    for item in doc.props.list_items().unwrap_or_default() {
        match item.as_tuple() {
            Some([k, v]) if k.as_atom() == Some("images") => {
                writeln!(s, "  images: {} (above)", v.list_len().unwrap_or(0))?;
            }
            Some([k, v]) => writeln!(s, "  {k}: {}", term_text(v, 160))?,
            _ => writeln!(s, "  {}", term_text(&item, 160))?,
        }
    }
    Ok(())
}
