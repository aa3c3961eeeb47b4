//! `levelkit dump`: one file in full, as readable text or as the lossless JSON document.
//!
//! The text form is for people: every header field, each plane with its fields, image sets and
//! a count of its cells by kind, each object on one line, and the tile properties (counted by
//! type, with the records that are not single listed). The JSON form is for programs and for
//! the way back: `levelkit convert dump.json level.wwd` rebuilds the file.

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};

use levelkit::formats::Model;
use levelkit::formats::wwd::{
    AddFlags, DrawFlags, DynamicFlags, HEADER_SIZE, HeaderFlags, Plane, PlaneFlags, SlotString,
    Tile, TileAttr, UserFlags, Wwd, attribute,
};
use levelkit::strings::RawString;

use crate::EXIT_OK;
use crate::cli::DumpArgs;
use crate::files::{self, display_name};

pub fn run(args: &DumpArgs) -> anyhow::Result<u8> {
    let model = files::load_model(&args.file)?;
    let mut text = if args.json {
        json_document(&model)?
    } else {
        text_dump(&display_name(&args.file), &model).into_bytes()
    };
    if !text.ends_with(b"\n") {
        text.push(b'\n');
    }
    files::write_stdout(&text)?;
    Ok(EXIT_OK)
}

/// The lossless JSON document, ending in a newline (what `dump --json` prints and
/// `convert … OUT.json` writes).
pub fn json_document(model: &Model) -> anyhow::Result<Vec<u8>> {
    let mut bytes = model.to_json()?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Flags as hex with their names: `0x00000003 (USE_Z_COORDS | COMPRESS)`. Bits without a name
/// are shown as hex too, so nothing is hidden.
pub fn flags_text<'a>(bits: u32, names: impl Iterator<Item = &'a str>, known: u32) -> String {
    let mut parts: Vec<String> = names.map(str::to_owned).collect();
    let unknown = bits & !known;
    if unknown != 0 {
        parts.push(format!("0x{unknown:X}"));
    }
    if parts.is_empty() {
        format!("0x{bits:08X}")
    } else {
        format!("0x{bits:08X} ({})", parts.join(" | "))
    }
}

macro_rules! flags {
    ($ty:ty, $value:expr) => {{
        let value: $ty = $value;
        flags_text(
            value.bits(),
            value.iter_names().map(|(n, _)| n),
            <$ty>::all().bits(),
        )
    }};
}

/// The text form.
pub fn text_dump(name: &str, model: &Model) -> String {
    let mut s = String::new();
    let result = match model {
        Model::Wwd(w) => dump_wwd(&mut s, name, w),
        Model::Graal(g) => {
            let (level, warnings) = g.to_level();
            let version = String::from_utf8_lossy(g.version.header()).into_owned();
            dump_level(
                &mut s,
                name,
                &format!("graal level ({version})"),
                &level,
                &warnings,
            )
        }
        Model::Nw(n) => {
            let (level, warnings) = n.to_level();
            dump_level(&mut s, name, "nw level (GLEVNW01)", &level, &warnings)
        }
        Model::Wings(w) => dump_wings(&mut s, name, w),
        Model::Scene(doc) => dump_scene(&mut s, name, doc),
        other => match other.to_scene() {
            // 3D formats without a dump of their own show what they export: the scene.
            Some((scene, warnings)) => {
                let summary = serde_json::to_string(&other.summary()).unwrap_or_default();
                let _ = writeln!(s, "{name}: {} ({summary})", version_line(other));
                dump_scene(
                    &mut s,
                    name,
                    &levelkit::formats::SceneDoc {
                        format: other.format(),
                        scene,
                        warnings,
                    },
                )
            }
            None => writeln!(s, "{name}: {} file (no text dump yet)", other.format()),
        },
    };
    // Writing into a String cannot fail; should it, a partial dump is still the best answer.
    let _ = result;
    s
}

fn version_line(model: &Model) -> String {
    crate::info::version(model)
}

/// A string for display: quoted, code page 1252 decoded.
/// Only quotes and control characters are escaped: Windows paths stay readable.
fn quoted(raw: &RawString) -> String {
    let mut out = String::from("\"");
    for c in raw.display().chars() {
        match c {
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn slot(s: &SlotString) -> String {
    match &s.after_nul {
        None => quoted(&s.text),
        Some(rest) => format!(
            "{} (+{} bytes after the NUL: {})",
            quoted(&s.text),
            rest.len(),
            quoted(rest)
        ),
    }
}

fn attr_name(value: i32) -> String {
    match attribute::name(value) {
        Some(name) => format!("{value} ({name})"),
        None => value.to_string(),
    }
}

fn dump_wwd(s: &mut String, name: &str, w: &Wwd) -> fmt::Result {
    let h = &w.header;
    writeln!(s, "{name}: wwd level (WWD {HEADER_SIZE})")?;
    writeln!(s)?;
    writeln!(s, "header")?;
    let rows: [(&str, String); 13] = [
        ("flags", flags!(HeaderFlags, h.flags)),
        ("name", slot(&h.name)),
        ("author", slot(&h.author)),
        ("birth", slot(&h.birth)),
        ("rez file", slot(&h.rez_file)),
        ("image dir", slot(&h.image_dir)),
        ("palette", slot(&h.pal_rez)),
        ("launch app", slot(&h.launch_app)),
        ("start", format!("({}, {})", h.start_x, h.start_y)),
        (
            "image sets",
            h.image_sets.iter().map(slot).collect::<Vec<_>>().join(", "),
        ),
        (
            "prefixes",
            h.prefixes.iter().map(slot).collect::<Vec<_>>().join(", "),
        ),
        (
            "reserved",
            format!(
                "unknown1 0x{:X}, unknown2 0x{:X}, unknown3 0x{:X}, unknown4 0x{:X}",
                h.unknown1, h.unknown2, h.unknown3, h.unknown4
            ),
        ),
        (
            "compression",
            if w.is_compressed() {
                "zlib".to_owned()
            } else {
                "none".to_owned()
            },
        ),
    ];
    for (key, value) in rows {
        writeln!(s, "  {key:<14}{value}")?;
    }

    writeln!(s)?;
    writeln!(s, "planes ({})", w.planes.len())?;
    for (index, plane) in w.planes.iter().enumerate() {
        dump_plane(s, index, plane)?;
    }

    for (index, plane) in w.planes.iter().enumerate() {
        if plane.objects.is_empty() {
            continue;
        }
        writeln!(s)?;
        writeln!(
            s,
            "objects of plane {index} {} ({})",
            quoted(&plane.name.text),
            plane.objects.len()
        )?;
        let logic_width = plane
            .objects
            .iter()
            .map(|o| o.logic.display().chars().count())
            .max()
            .unwrap_or(0);
        for (oi, o) in plane.objects.iter().enumerate() {
            write!(
                s,
                "  [{oi:>4}] id {:>6}  {:<logic_width$}  x {:>6}  y {:>6}  z {:>5}  image {}",
                o.id,
                o.logic.display(),
                o.x,
                o.y,
                o.z,
                quoted(&o.image_set),
            )?;
            if !o.name.is_empty() {
                write!(s, "  name {}", quoted(&o.name))?;
            }
            if !o.animation.is_empty() {
                write!(s, "  animation {}", quoted(&o.animation))?;
            }
            let flags = [
                (o.add_flags.bits(), "add", flags!(AddFlags, o.add_flags)),
                (
                    o.dynamic_flags.bits(),
                    "dynamic",
                    flags!(DynamicFlags, o.dynamic_flags),
                ),
                (o.draw_flags.bits(), "draw", flags!(DrawFlags, o.draw_flags)),
                (o.user_flags.bits(), "user", flags!(UserFlags, o.user_flags)),
            ];
            for (bits, what, text) in flags {
                if bits != 0 {
                    write!(s, "  {what} {text}")?;
                }
            }
            writeln!(s)?;
        }
    }

    let records = &w.tile_properties.records;
    let (mut single, mut double, mut mask) = (0usize, 0usize, 0usize);
    for r in records {
        match r.attr {
            TileAttr::Single { .. } => single += 1,
            TileAttr::Double { .. } => double += 1,
            TileAttr::Mask { .. } => mask += 1,
        }
    }
    writeln!(s)?;
    writeln!(
        s,
        "tile properties ({} records: {single} single, {double} double, {mask} mask)",
        records.len()
    )?;
    let tp = &w.tile_properties;
    writeln!(
        s,
        "  reserved      unknown1 0x{:X}, unknown2 0x{:X}, unknown3..7 {:?}",
        tp.unknown1, tp.unknown2, tp.unknown3_7
    )?;
    for (id, r) in records.iter().enumerate() {
        let unknown = if r.unknown == 0 {
            String::new()
        } else {
            format!("  unknown 0x{:X}", r.unknown)
        };
        match &r.attr {
            TileAttr::Single { .. } => {}
            TileAttr::Double {
                outside,
                inside,
                rect,
            } => writeln!(
                s,
                "  [{id:>4}] double {} x {} px  outside {}  inside {}  rect {},{},{},{} \
                 (inclusive){unknown}",
                r.width,
                r.height,
                attr_name(*outside),
                attr_name(*inside),
                rect.left,
                rect.top,
                rect.right,
                rect.bottom
            )?,
            TileAttr::Mask { mask } => writeln!(
                s,
                "  [{id:>4}] mask   {} x {} px  {} mask bytes{unknown}",
                r.width,
                r.height,
                mask.len()
            )?,
        }
    }

    writeln!(s)?;
    match &w.layout {
        None => writeln!(s, "layout          editor's contiguous sections")?,
        Some(layout) => {
            writeln!(
                s,
                "layout          custom: planes at 0x{:X}, tile properties at 0x{:X}, {} gaps ({} bytes)",
                layout.offset_planes,
                layout.offset_tile_properties,
                layout.gaps.len(),
                layout.gaps.iter().map(|g| g.bytes.len()).sum::<usize>()
            )?;
        }
    }
    if let Some(src) = &w.source {
        let status = if src.stored_checksum == src.computed_checksum {
            "ok"
        } else {
            "MISMATCH"
        };
        writeln!(
            s,
            "source          {} bytes; main block {} bytes inflated; checksum stored 0x{:08X}, \
             computed 0x{:08X} ({status}); decompressed-size field {}",
            src.file_len,
            src.main_block_len,
            src.stored_checksum,
            src.computed_checksum,
            src.stored_decompressed_size
        )?;
    }
    Ok(())
}

fn dump_plane(s: &mut String, index: usize, p: &Plane) -> fmt::Result {
    writeln!(s, "  plane {index} {}", slot(&p.name))?;
    let (mut empty, mut fill, mut image) = (0usize, 0usize, 0usize);
    let mut ids = BTreeSet::new();
    for &cell in &p.tiles {
        match Tile::from_raw(cell) {
            Tile::Empty => empty += 1,
            Tile::Fill => fill += 1,
            Tile::Image { id, .. } => {
                image += 1;
                ids.insert(id);
            }
        }
    }
    let id_range = match (ids.first(), ids.last()) {
        (Some(lo), Some(hi)) => format!(", {} distinct ids {lo}..={hi}", ids.len()),
        _ => String::new(),
    };
    let image_sets = if p.image_sets.is_empty() {
        "none".to_owned()
    } else {
        p.image_sets
            .iter()
            .map(quoted)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows: [(&str, String); 10] = [
        ("flags", flags!(PlaneFlags, p.flags)),
        (
            "size",
            format!(
                "{} x {} px: {} x {} tiles of {} x {} px",
                p.width_px, p.height_px, p.tiles_wide, p.tiles_high, p.tile_width, p.tile_height
            ),
        ),
        ("origin", format!("({}, {})", p.origin_x, p.origin_y)),
        (
            "movement",
            format!("{}% x, {}% y", p.movement_x_percent, p.movement_y_percent),
        ),
        ("fill color", format!("0x{:08X}", p.fill_color)),
        ("z", p.z_coord.to_string()),
        (
            "reserved",
            format!(
                "unknown1 0x{:X}, unknown2 0x{:X}, unknown5 0x{:X}, unknown6 0x{:X}, unknown7 0x{:X}",
                p.unknown1, p.unknown2, p.unknown5, p.unknown6, p.unknown7
            ),
        ),
        ("image sets", image_sets),
        (
            "tiles",
            format!(
                "{} cells: {image} image{id_range}, {fill} fill, {empty} empty",
                p.tiles.len()
            ),
        ),
        ("objects", p.objects.len().to_string()),
    ];
    for (key, value) in rows {
        writeln!(s, "    {key:<12}{value}")?;
    }
    Ok(())
}

/// The text dump of a Graal level's meaning (shared by `.graal` and `.nw`).
fn dump_level(
    s: &mut String,
    name: &str,
    kind: &str,
    meaning: &levelkit::formats::graal::level::Level,
    warnings: &[levelkit::Warning],
) -> fmt::Result {
    use levelkit::formats::graal::level::{BADDY_TYPES, CHEST_ITEMS, sign_text};
    use levelkit::formats::graal::link_line;
    writeln!(s, "{name}: {kind}")?;
    for board in &meaning.layers {
        let distinct: BTreeSet<u16> = board.tiles.iter().copied().collect();
        writeln!(
            s,
            "layer {}: {} distinct tiles",
            board.layer,
            distinct.len()
        )?;
    }
    writeln!(s, "links ({})", meaning.links.len())?;
    for l in &meaning.links {
        writeln!(s, "  {}", quoted(&link_line(l)))?;
    }
    writeln!(s, "baddies ({})", meaning.baddies.len())?;
    for b in &meaning.baddies {
        let kind = BADDY_TYPES.get(usize::from(b.kind)).copied().unwrap_or("?");
        let verses: Vec<String> = b.verses.iter().map(quoted).collect();
        writeln!(
            s,
            "  {kind} ({}) at {}, {}  verses {}",
            b.kind,
            b.x,
            b.y,
            verses.join(" / ")
        )?;
    }
    writeln!(s, "npcs ({})", meaning.npcs.len())?;
    for n in &meaning.npcs {
        let lines = n.script.0.split(|&c| c == b'\n').count();
        let first = n.script.0.split(|&c| c == b'\n').next().unwrap_or(&[]);
        writeln!(
            s,
            "  at {}, {}  image {}  script {lines} lines, first {}",
            n.x,
            n.y,
            quoted(&n.image),
            quoted(&RawString::from(first))
        )?;
    }
    writeln!(s, "chests ({})", meaning.chests.len())?;
    for c in &meaning.chests {
        let item = usize::try_from(c.item)
            .ok()
            .and_then(|i| CHEST_ITEMS.get(i))
            .copied()
            .unwrap_or("?");
        writeln!(
            s,
            "  {item} ({}) at {}, {}  sign {}",
            c.item, c.x, c.y, c.sign
        )?;
    }
    writeln!(s, "signs ({})", meaning.signs.len())?;
    for sign in &meaning.signs {
        writeln!(
            s,
            "  at {}, {}: {:?}",
            sign.x,
            sign.y,
            sign_text::to_text(&sign.glyphs)
        )?;
    }
    for w in warnings {
        writeln!(s, "{w}")?;
    }
    Ok(())
}

/// A term in Erlang syntax, cut to `max` characters.
fn term_text(t: &levelkit::etf::Term, max: usize) -> String {
    let text = t.to_string();
    if text.chars().count() <= max {
        text
    } else {
        let cut: String = text.chars().take(max).collect();
        format!("{cut}… ({} characters)", text.chars().count())
    }
}

fn dump_wings(s: &mut String, name: &str, w: &levelkit::formats::wings::Wings) -> fmt::Result {
    use levelkit::etf::Compression;
    use levelkit::formats::wings::{Content, ImageSource};
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

/// A glTF or OBJ scene: one line per node, mesh, material, texture, light, camera and animation.
fn dump_scene(s: &mut String, name: &str, doc: &levelkit::formats::SceneDoc) -> std::fmt::Result {
    use levelkit::scene::TextureSource;
    let scene = &doc.scene;
    writeln!(s, "{name}: {} scene", doc.format.name())?;
    let label = |n: &Option<String>| n.as_deref().unwrap_or("(unnamed)").to_owned();
    for (i, node) in scene.nodes.iter().enumerate() {
        writeln!(
            s,
            "node {i} {:?}: children {:?}, mesh {:?}, light {:?}, camera {:?}, {:?}",
            label(&node.name),
            node.children,
            node.mesh,
            node.light,
            node.camera,
            node.transform
        )?;
    }
    for (i, mesh) in scene.meshes.iter().enumerate() {
        let corners: usize = mesh.faces.iter().map(|f| f.corners.len()).sum();
        writeln!(
            s,
            "mesh {i} {:?}: {} positions, {} faces ({corners} corners), {} lines, {} hard edges{}",
            label(&mesh.name),
            mesh.positions.len(),
            mesh.faces.len(),
            mesh.lines.len(),
            mesh.hard_edges.len(),
            if mesh.flat { ", flat" } else { "" }
        )?;
    }
    for (i, m) in scene.materials.iter().enumerate() {
        writeln!(
            s,
            "material {i} {:?}: base {:?}, metallic {}, roughness {}, texture {:?}",
            label(&m.name),
            m.base_color,
            m.metallic,
            m.roughness,
            m.base_color_texture
        )?;
    }
    for (i, t) in scene.textures.iter().enumerate() {
        let what = match &t.source {
            TextureSource::Pixels {
                width,
                height,
                channels,
                ..
            } => format!("{width}x{height} pixels, {channels} channels"),
            TextureSource::Encoded { mime_type, data } => {
                format!("{mime_type}, {} bytes", data.len())
            }
            TextureSource::File(uri) => format!("file {uri:?}"),
        };
        writeln!(s, "texture {i} {:?}: {what}", label(&t.name))?;
    }
    for (i, l) in scene.lights.iter().enumerate() {
        writeln!(
            s,
            "light {i} {:?}: {:?}, colour {:?}",
            label(&l.name),
            l.kind,
            l.color
        )?;
    }
    for (i, c) in scene.cameras.iter().enumerate() {
        writeln!(s, "camera {i} {:?}: {:?}", label(&c.name), c.projection)?;
    }
    for (i, a) in scene.animations.iter().enumerate() {
        writeln!(
            s,
            "animation {i} {:?}: node {}, {:?}",
            label(&a.name),
            a.node,
            a.motion
        )?;
    }
    Ok(())
}
