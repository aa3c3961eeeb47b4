//! Typed views of the lists the sources describe: palette, textures (with their pixel formats),
//! materials, objects (positions, lights, entities, sounds, level info, paths, regions), the
//! BSP-era polygon geometry of WMB2–6 and the block meshes of WMB7. The views read the lists'
//! bytes in [`super::Wmb`]; the bytes stay the truth, so the model stays lossless whatever a view
//! does not understand.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::model::{ListKind, Wmb};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::registry::Format;

/// Little-endian fields of one list, with errors that name the list and the offset in it.
struct Fields<'a> {
    list: &'static str,
    data: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    fn new(list: ListKind, data: &'a [u8], pos: usize) -> Self {
        Fields {
            list: list.name(),
            data,
            pos,
        }
    }

    fn error(&self, kind: ErrorKind, message: String) -> Error {
        Error::new(
            Format::Wmb,
            kind,
            Location::at(self.pos as u64).with_path(self.list),
            message,
        )
    }

    fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end.and_then(|e| self.data.get(self.pos..e).map(|s| (s, e))) {
            Some((s, e)) => {
                self.pos = e;
                Ok(s)
            }
            None => Err(self.error(
                ErrorKind::Truncated,
                format!(
                    "{what} at 0x{:x} of list `{}` needs {n} bytes, {} left",
                    self.pos,
                    self.list,
                    self.data.len().saturating_sub(self.pos)
                ),
            )),
        }
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.bytes(4, what)?;
        let mut w = [0u8; 4];
        w.copy_from_slice(b);
        Ok(u32::from_le_bytes(w))
    }

    fn i32(&mut self, what: &str) -> Result<i32> {
        Ok(self.u32(what)? as i32)
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.bytes(2, what)?;
        let mut w = [0u8; 2];
        w.copy_from_slice(b);
        Ok(u16::from_le_bytes(w))
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.bytes(1, what)?.first().copied().unwrap_or(0))
    }

    fn f32(&mut self, what: &str) -> Result<f32> {
        Ok(f32::from_bits(self.u32(what)?))
    }

    fn vec3(&mut self, what: &str) -> Result<[f32; 3]> {
        Ok([self.f32(what)?, self.f32(what)?, self.f32(what)?])
    }

    /// Skip the C compiler's padding up to the next multiple of 4 from `start`.
    fn align4(&mut self, start: usize, what: &str) -> Result<()> {
        let pad = (4 - self.pos.wrapping_sub(start) % 4) % 4;
        self.bytes(pad, what).map(|_| ())
    }

    fn string(&mut self, n: usize, what: &str) -> Result<String> {
        Ok(fixed_string(self.bytes(n, what)?))
    }

    /// A name field of `n` bytes that, when it holds no NUL, runs on into the `more` bytes
    /// after it, as the engine's C string does: the compiler copies a longer name through the
    /// field into the next one (galep's `space.wmb`: `asteroid0_obstacle.mdl` in a 13-byte
    /// file field, `tacle.mdl` in the action after it). Reads `n` bytes.
    fn c_string(&mut self, n: usize, more: usize, what: &str) -> Result<String> {
        let start = self.pos;
        let field = self.bytes(n, what)?;
        if field.contains(&0) {
            return Ok(fixed_string(field));
        }
        let end = start.saturating_add(n).saturating_add(more);
        Ok(fixed_string(
            self.data
                .get(start..end.min(self.data.len()))
                .unwrap_or(field),
        ))
    }

    /// `count` items of `size` bytes each must fit in what is left, before anything is
    /// allocated for them.
    fn ensure(&self, count: u64, size: u64, what: &str) -> Result<usize> {
        let left = self.data.len().saturating_sub(self.pos) as u64;
        match count.checked_mul(size) {
            Some(n) if n <= left => Ok(count as usize),
            _ => Err(self.error(
                ErrorKind::Truncated,
                format!(
                    "{count} {what} of {size} bytes each do not fit in the {left} bytes left of list `{}`",
                    self.list
                ),
            )),
        }
    }
}

/// A fixed-size, NUL-padded name as text (bytes past the first NUL are the compiler's leftovers
/// and stay in the list's bytes).
pub fn fixed_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes
        .get(..end)
        .unwrap_or_default()
        .iter()
        .map(|&b| char::from(b))
        .collect()
}

/// The palette list: 16 bytes of palette info, 256 RGB colours, and in WMB6 more tables after
/// them (kept in the list's bytes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Palette {
    /// The 16 info bytes before the colours.
    pub info: Vec<u8>,
    /// 256 colours, red, green, blue (the files prove this order; see the module docs).
    pub colors: Vec<[u8; 3]>,
    /// Bytes after the colours.
    pub trailing: usize,
}

/// The palette, when the level has one.
pub fn palette(wmb: &Wmb) -> Result<Option<Palette>> {
    let Some(data) = wmb.list(ListKind::Palettes) else {
        return Ok(None);
    };
    let mut f = Fields::new(ListKind::Palettes, data, 0);
    let info = f.bytes(16, "palette info")?.to_vec();
    let rgb = f.bytes(768, "256 palette colours")?;
    let colors = rgb
        .chunks_exact(3)
        .map(|c| [c.first(), c.get(1), c.get(2)].map(|v| v.copied().unwrap_or(0)))
        .collect();
    Ok(Some(Palette {
        info,
        colors,
        trailing: data.len().saturating_sub(784),
    }))
}

/// How a texture's pixels are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PixelFormat {
    /// 8-bit palette indices.
    Pal8,
    /// 16-bit 5-6-5 RGB.
    Rgb565,
    /// 16-bit 4-4-4-4 ARGB.
    Argb4444,
    /// 24-bit RGB.
    Rgb888,
    /// 32-bit RGBA.
    Rgba8888,
    /// A DDS file (`width` holds its byte size).
    Dds,
    /// A type code no source names.
    Unknown(u32),
}

impl PixelFormat {
    /// Bytes per pixel (DDS and unknown: 1, counting bytes).
    pub fn bytes_per_pixel(self) -> u64 {
        match self {
            PixelFormat::Pal8 | PixelFormat::Dds | PixelFormat::Unknown(_) => 1,
            PixelFormat::Rgb565 | PixelFormat::Argb4444 => 2,
            PixelFormat::Rgb888 => 3,
            PixelFormat::Rgba8888 => 4,
        }
    }
}

/// One texture of the textures list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Texture {
    /// Its name (16 bytes in the file).
    pub name: String,
    /// Width in pixels (DDS: byte size).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The four words after the size: Quake's mip offsets (the first is 40 in the offset form),
    /// or a type code and three words (see the module docs).
    pub words: [u32; 4],
    /// Pixel format.
    pub format: PixelFormat,
    /// Whether three smaller mip levels follow the full-size pixels.
    pub mipmaps: bool,
    /// Where the entry starts in the list.
    pub offset: usize,
    /// Where the full-size pixels start in the list.
    pub data_offset: usize,
    /// Bytes of the full-size pixels.
    pub data_len: usize,
}

impl Texture {
    /// The full-size pixels as RGB or RGBA (channels 3 or 4) from the textures list's bytes;
    /// 8-bit textures through `palette` (grey levels without one). `None` for DDS and unknown
    /// formats.
    pub fn decode(&self, list: &[u8], palette: Option<&[[u8; 3]]>) -> Option<(Vec<u8>, u8)> {
        let end = self.data_offset.checked_add(self.data_len)?;
        let data = list.get(self.data_offset..end)?;
        let pixels = (self.width as usize).checked_mul(self.height as usize)?;
        match self.format {
            PixelFormat::Pal8 => {
                let mut out = Vec::with_capacity(pixels.checked_mul(3)?);
                for &i in data {
                    let c = palette
                        .and_then(|p| p.get(usize::from(i)))
                        .copied()
                        .unwrap_or([i, i, i]);
                    out.extend_from_slice(&c);
                }
                Some((out, 3))
            }
            PixelFormat::Rgb565 => {
                let mut out = Vec::with_capacity(pixels.checked_mul(3)?);
                for p in data.chunks_exact(2) {
                    let v = u16::from_le_bytes([
                        p.first().copied().unwrap_or(0),
                        p.get(1).copied().unwrap_or(0),
                    ]);
                    let r = ((v >> 11) & 31) as u32;
                    let g = ((v >> 5) & 63) as u32;
                    let b = (v & 31) as u32;
                    out.extend_from_slice(&[
                        (r * 255 / 31) as u8,
                        (g * 255 / 63) as u8,
                        (b * 255 / 31) as u8,
                    ]);
                }
                Some((out, 3))
            }
            PixelFormat::Argb4444 => {
                let mut out = Vec::with_capacity(pixels.checked_mul(4)?);
                for p in data.chunks_exact(2) {
                    let v = u16::from_le_bytes([
                        p.first().copied().unwrap_or(0),
                        p.get(1).copied().unwrap_or(0),
                    ]);
                    let n = |s: u16| (((v >> s) & 15) as u8) * 17;
                    out.extend_from_slice(&[n(8), n(4), n(0), n(12)]);
                }
                Some((out, 4))
            }
            PixelFormat::Rgb888 => Some((data.to_vec(), 3)),
            PixelFormat::Rgba8888 => Some((data.to_vec(), 4)),
            PixelFormat::Dds | PixelFormat::Unknown(_) => None,
        }
    }
}

/// The textures list: a count, that many offsets (from the list's start), and at each a
/// 40-byte entry header followed by the pixels.
pub fn textures(wmb: &Wmb) -> Result<Vec<Texture>> {
    let Some(data) = wmb.list(ListKind::Textures) else {
        return Ok(Vec::new());
    };
    let mut f = Fields::new(ListKind::Textures, data, 0);
    let count = f.u32("texture count")?;
    let count = f.ensure(u64::from(count), 4, "texture offsets")?;
    let mut offsets = Vec::with_capacity(count);
    for _ in 0..count {
        offsets.push(f.u32("texture offset")? as usize);
    }
    let mut out = Vec::with_capacity(count);
    for (i, &offset) in offsets.iter().enumerate() {
        let mut t = Fields::new(ListKind::Textures, data, offset);
        let what = format!("texture {i}");
        let name = t.string(16, &what)?;
        let width = t.u32(&what)?;
        let height = t.u32(&what)?;
        let words = [t.u32(&what)?, t.u32(&what)?, t.u32(&what)?, t.u32(&what)?];
        let pixels = u64::from(width) * u64::from(height);
        let (format, mipmaps) = if words[0] == 40 && wmb.version <= 6 {
            // Quake's miptex: four offsets from the entry; the step to the second tells the
            // bytes per pixel.
            let step = u64::from(words[1].saturating_sub(words[0]));
            let format = match (pixels > 0).then(|| step / pixels) {
                Some(2) => PixelFormat::Rgb565,
                Some(3) => PixelFormat::Rgb888,
                Some(4) => PixelFormat::Rgba8888,
                _ => PixelFormat::Pal8,
            };
            (format, words[1] != 0)
        } else {
            let format = match words[0] & 7 {
                0 => PixelFormat::Pal8,
                2 => PixelFormat::Rgb565,
                3 => PixelFormat::Argb4444,
                4 => PixelFormat::Rgb888,
                5 => PixelFormat::Rgba8888,
                6 => PixelFormat::Dds,
                other => PixelFormat::Unknown(other),
            };
            (format, words[0] & 8 != 0)
        };
        let data_offset = t.pos;
        let data_len = if format == PixelFormat::Dds {
            u64::from(width)
        } else {
            pixels.saturating_mul(format.bytes_per_pixel())
        };
        t.ensure(data_len, 1, &format!("pixel bytes of {what}"))?;
        out.push(Texture {
            name,
            width,
            height,
            words,
            format,
            mipmaps,
            offset,
            data_offset,
            data_len: data_len as usize,
        });
    }
    Ok(out)
}

/// A material (Quake's texinfo grown to 64 bytes): texture vectors, texture, flags, light.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Material {
    /// `s` vector and offset: u = p·s + s_offset, in texels.
    pub s: [f32; 4],
    /// `t` vector and offset.
    pub t: [f32; 4],
    /// Index into the textures list.
    pub texture: u32,
    /// Surface flags (0 shaded, 3 flat, 5 sky, 9 turbulence, 11 none; 16 detail, 64 passable,
    /// 16384 smooth).
    pub flags: u16,
    /// User flags flag1..flag8.
    pub user_flags: u32,
    /// Ambient, 0–100.
    pub ambient: u8,
    /// Albedo, 0–100.
    pub albedo: u8,
    /// The material name from the script (20 bytes).
    pub name: String,
}

/// Bytes of a material.
pub const MATERIAL_SIZE: usize = 64;

/// The materials list: 64-byte materials.
pub fn materials(wmb: &Wmb) -> Result<Vec<Material>> {
    let Some(data) = wmb.list(ListKind::Materials) else {
        return Ok(Vec::new());
    };
    let mut f = Fields::new(ListKind::Materials, data, 0);
    let count = data.len() / MATERIAL_SIZE;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let w = "material";
        out.push(Material {
            s: [f.f32(w)?, f.f32(w)?, f.f32(w)?, f.f32(w)?],
            t: [f.f32(w)?, f.f32(w)?, f.f32(w)?, f.f32(w)?],
            texture: f.u32(w)?,
            flags: f.u16(w)?,
            user_flags: f.u32(w)?,
            ambient: f.u8(w)?,
            albedo: f.u8(w)?,
            name: f.string(20, w)?,
        });
    }
    Ok(out)
}

/// What an object is (its type word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// 1: a named position.
    Position,
    /// 2: a light.
    Light,
    /// 3: an entity in the old (A5) layout.
    OldEntity,
    /// 4: a sound.
    Sound,
    /// 5: the level info.
    Info,
    /// 6: a path.
    Path,
    /// 7: an entity (model, sprite, terrain, map entity).
    Entity,
    /// 8: a region.
    Region,
    /// Any other type word.
    Unknown(u32),
}

/// One object of the objects list: its typed fields as far as the sources name them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Object {
    /// Its kind.
    pub kind: ObjectKind,
    /// Where it starts in the list.
    pub offset: usize,
    /// Its bytes up to the next object (or the list's end).
    pub len: usize,
    /// Name, when the kind has one.
    pub name: Option<String>,
    /// File name (entities, sounds).
    pub file: Option<String>,
    /// Position.
    pub origin: Option<[f32; 3]>,
    /// Pan, tilt, roll in degrees.
    pub angles: Option<[f32; 3]>,
    /// Scale.
    pub scale: Option<[f32; 3]>,
    /// Path nodes.
    pub points: Vec<[f32; 3]>,
    /// Every field by its source name.
    pub fields: Map<String, Value>,
}

/// The objects list: a count, that many offsets (from the list's start), the objects.
pub fn objects(wmb: &Wmb) -> Result<Vec<Object>> {
    let Some(data) = wmb.list(ListKind::Objects) else {
        return Ok(Vec::new());
    };
    let mut f = Fields::new(ListKind::Objects, data, 0);
    let count = f.u32("object count")?;
    let count = f.ensure(u64::from(count), 4, "object offsets")?;
    let mut offsets = Vec::with_capacity(count);
    for _ in 0..count {
        offsets.push(f.u32("object offset")? as usize);
    }
    let mut sorted = offsets.clone();
    sorted.sort_unstable();
    let mut out = Vec::with_capacity(count);
    for &offset in &offsets {
        let end = sorted
            .iter()
            .copied()
            .find(|&o| o > offset)
            .unwrap_or(data.len())
            .min(data.len());
        let body = data.get(..end).unwrap_or_default();
        let mut o = Fields::new(ListKind::Objects, body, offset);
        out.push(object(&mut o, offset, end.saturating_sub(offset))?);
    }
    Ok(out)
}

fn floats(f: &mut Fields<'_>, n: usize, what: &str) -> Result<Vec<f32>> {
    (0..n).map(|_| f.f32(what)).collect()
}

fn object(f: &mut Fields<'_>, offset: usize, len: usize) -> Result<Object> {
    let kind_word = f.u32("object type")?;
    let kind = match kind_word {
        1 => ObjectKind::Position,
        2 => ObjectKind::Light,
        3 => ObjectKind::OldEntity,
        4 => ObjectKind::Sound,
        5 => ObjectKind::Info,
        6 => ObjectKind::Path,
        7 => ObjectKind::Entity,
        8 => ObjectKind::Region,
        other => ObjectKind::Unknown(other),
    };
    let mut obj = Object {
        kind,
        offset,
        len,
        name: None,
        file: None,
        origin: None,
        angles: None,
        scale: None,
        points: Vec::new(),
        fields: Map::new(),
    };
    let m = &mut obj.fields;
    m.insert("type".into(), json!(kind_word));
    let w = "object";
    match kind {
        ObjectKind::Position => {
            obj.origin = Some(f.vec3(w)?);
            obj.angles = Some(f.vec3(w)?);
            m.insert("unused".into(), json!([f.u32(w)?, f.u32(w)?]));
            obj.name = Some(f.string(20, w)?);
        }
        ObjectKind::Light => {
            obj.origin = Some(f.vec3(w)?);
            m.insert("color".into(), json!(f.vec3(w)?));
            m.insert("range".into(), json!(f.f32(w)?));
            m.insert("flags".into(), json!(f.u32(w)?));
        }
        ObjectKind::OldEntity => {
            obj.origin = Some(f.vec3(w)?);
            obj.angles = Some(f.vec3(w)?);
            obj.scale = Some(f.vec3(w)?);
            obj.name = Some(f.string(20, w)?);
            obj.file = Some(f.c_string(13, 20, w)?);
            m.insert("action".into(), json!(f.string(20, w)?));
            f.align4(offset, w)?;
            m.insert("skills".into(), json!(floats(f, 8, w)?));
            m.insert("ambient".into(), json!(f.f32(w)?));
            m.insert("flags".into(), json!(f.u32(w)?));
        }
        ObjectKind::Sound => {
            obj.origin = Some(f.vec3(w)?);
            m.insert("volume".into(), json!(f.f32(w)?));
            m.insert("unused".into(), json!([f.u32(w)?, f.u32(w)?]));
            m.insert("range".into(), json!(f.u32(w)?));
            m.insert("flags".into(), json!(f.u32(w)?));
            obj.file = Some(f.string(33, w)?);
        }
        ObjectKind::Info => {
            // WMB2 writes a shorter info (no fog colours): read what is there.
            m.insert("origin".into(), json!(f.vec3(w)?));
            m.insert("azimuth".into(), json!(f.f32(w)?));
            m.insert("elevation".into(), json!(f.f32(w)?));
            m.insert("flags".into(), json!(f.u32(w)?));
            m.insert("compiler_version".into(), json!(f.f32(w)?));
            m.insert("gamma".into(), json!(f.u8(w)?));
            m.insert("lightmap_size".into(), json!(f.u8(w)?));
            m.insert("unused".into(), json!([f.u8(w)?, f.u8(w)?]));
            let left = f.data.len().saturating_sub(f.pos) / 4;
            let mut colors = Vec::new();
            for _ in 0..left.min(6) {
                colors.push(format!("{:08X}", f.u32(w)?));
            }
            m.insert("colors".into(), json!(colors));
        }
        ObjectKind::Path => {
            obj.name = Some(f.string(20, w)?);
            let points = f.f32(w)?;
            m.insert("unused".into(), json!([f.u32(w)?, f.u32(w)?, f.u32(w)?]));
            let edges = f.u32(w)?;
            if !(points >= 0.0 && points <= u32::MAX as f32) {
                return Err(f.error(
                    ErrorKind::Malformed,
                    format!("path node count {points} is not a count"),
                ));
            }
            let n = f.ensure(points as u64, 36, "path nodes (position and 6 skills)")?;
            for _ in 0..n {
                obj.points.push(f.vec3(w)?);
            }
            let mut skills = Vec::with_capacity(n);
            for _ in 0..n {
                skills.push(floats(f, 6, w)?);
            }
            // The count word does not always count edges (`kbridge.wmb`: 150 for 30 edges,
            // which is what the object's bytes hold); past the object's end, its bytes tell.
            let fit = f.data.len().saturating_sub(f.pos) / 24;
            let e = if (edges as usize) <= fit {
                edges as usize
            } else {
                fit
            };
            m.insert("edge_count_word".into(), json!(edges));
            let mut list = Vec::with_capacity(e);
            for _ in 0..e {
                list.push(floats(f, 6, w)?);
            }
            m.insert("skills".into(), json!(skills));
            m.insert("edges".into(), json!(list));
        }
        ObjectKind::Entity => {
            obj.origin = Some(f.vec3(w)?);
            obj.angles = Some(f.vec3(w)?);
            obj.scale = Some(f.vec3(w)?);
            obj.name = Some(f.string(33, w)?);
            obj.file = Some(f.string(33, w)?);
            m.insert("action".into(), json!(f.string(33, w)?));
            f.align4(offset, w)?;
            m.insert("skills".into(), json!(floats(f, 20, w)?));
            m.insert("flags".into(), json!(f.u32(w)?));
            m.insert("ambient".into(), json!(f.f32(w)?));
            m.insert("albedo".into(), json!(f.f32(w)?));
            m.insert("path".into(), json!(f.u32(w)?));
            m.insert("entity2".into(), json!(f.u32(w)?));
            m.insert("material".into(), json!(f.string(33, w)?));
            m.insert("string1".into(), json!(f.string(33, w)?));
            m.insert("string2".into(), json!(f.string(33, w)?));
            m.insert("unused".into(), json!(f.string(33, w)?));
        }
        ObjectKind::Region => {
            m.insert("min".into(), json!(f.vec3(w)?));
            m.insert("max".into(), json!(f.vec3(w)?));
            m.insert("values".into(), json!([f.u32(w)?, f.u32(w)?]));
            // libgamestudio's name[32]; real WMB7 levels (`testlevel_doors.wmb`) write 56-byte
            // regions, a 20-byte name: the name is what the object holds, up to 32 bytes.
            let left = f.data.len().saturating_sub(f.pos);
            obj.name = Some(f.string(left.min(32), w)?);
        }
        ObjectKind::Unknown(_) => {}
    }
    if let Some(name) = &obj.name {
        obj.fields.insert("name".into(), json!(name));
    }
    if let Some(file) = &obj.file {
        obj.fields.insert("file".into(), json!(file));
    }
    for (key, v) in [
        ("origin", obj.origin),
        ("angles", obj.angles),
        ("scale", obj.scale),
    ] {
        if let Some(v) = v {
            obj.fields.insert(key.into(), json!(v));
        }
    }
    obj.fields.insert(
        "trailing_bytes".into(),
        json!(offset.saturating_add(len).saturating_sub(f.pos)),
    );
    Ok(obj)
}

/// A polygon of the BSP-era geometry (WMB2–6): Quake's face with its edge loop resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Face {
    /// Plane index.
    pub plane: u16,
    /// Side of the plane.
    pub side: u16,
    /// First entry in the edge list.
    pub first_edge: i32,
    /// Number of edges.
    pub edges: u16,
    /// Material index.
    pub material: u16,
    /// Light type, base light, two light styles.
    pub light: [u8; 4],
    /// Lightmap offset or −1.
    pub lightmap: i32,
    /// The word WMB3+ adds (24-byte faces).
    pub extra: Option<u32>,
    /// The corner vertices, in file order.
    pub corners: Vec<u32>,
}

/// The WMB2–6 polygon geometry: vertices and faces.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BspGeometry {
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Faces.
    pub faces: Vec<Face>,
}

/// The polygons of a WMB2–6 level (vertices, edges, edge list and faces; WMB2 has 4-byte edges
/// and 20-byte faces, WMB3 and later 8-byte edges and 24-byte faces: see the module docs).
pub fn bsp_geometry(wmb: &Wmb) -> Result<BspGeometry> {
    let vertices_data = wmb.list(ListKind::Vertices).unwrap_or_default();
    let mut f = Fields::new(ListKind::Vertices, vertices_data, 0);
    let n = vertices_data.len() / 12;
    let mut vertices = Vec::with_capacity(n);
    for _ in 0..n {
        vertices.push(f.vec3("vertex")?);
    }
    let edges_data = wmb.list(ListKind::Edges).unwrap_or_default();
    let wide = wmb.version >= 3;
    let edge_size = if wide { 8 } else { 4 };
    let mut f = Fields::new(ListKind::Edges, edges_data, 0);
    let mut edges = Vec::with_capacity(edges_data.len() / edge_size);
    for _ in 0..edges_data.len() / edge_size {
        edges.push(if wide {
            [f.u32("edge")?, f.u32("edge")?]
        } else {
            [u32::from(f.u16("edge")?), u32::from(f.u16("edge")?)]
        });
    }
    let list_data = wmb.list(ListKind::Edgelist).unwrap_or_default();
    let mut f = Fields::new(ListKind::Edgelist, list_data, 0);
    let mut edge_list = Vec::with_capacity(list_data.len() / 4);
    for _ in 0..list_data.len() / 4 {
        edge_list.push(f.i32("edge list entry")?);
    }
    let faces_data = wmb.list(ListKind::Faces).unwrap_or_default();
    let face_size = if wide { 24 } else { 20 };
    let mut f = Fields::new(ListKind::Faces, faces_data, 0);
    let mut faces = Vec::with_capacity(faces_data.len() / face_size);
    for i in 0..faces_data.len() / face_size {
        let w = "face";
        let plane = f.u16(w)?;
        let side = f.u16(w)?;
        let first_edge = f.i32(w)?;
        let count = f.u16(w)?;
        let material = f.u16(w)?;
        let light = [f.u8(w)?, f.u8(w)?, f.u8(w)?, f.u8(w)?];
        let lightmap = f.i32(w)?;
        let extra = if wide { Some(f.u32(w)?) } else { None };
        let mut corners = Vec::with_capacity(usize::from(count));
        for k in 0..i64::from(count) {
            let entry = usize::try_from(i64::from(first_edge).saturating_add(k))
                .ok()
                .and_then(|j| edge_list.get(j))
                .copied();
            let edge = entry.and_then(|e| {
                let [a, b] = *edges.get(e.unsigned_abs() as usize)?;
                Some(if e < 0 { b } else { a })
            });
            let Some(v) = edge.filter(|&v| (v as usize) < vertices.len()) else {
                return Err(Error::new(
                    Format::Wmb,
                    ErrorKind::Malformed,
                    Location::path(format!("faces[{i}]")),
                    format!(
                        "face {i}: edge {k} of {count} (edge list from {first_edge}) names no \
                         edge or vertex of the level"
                    ),
                ));
            };
            corners.push(v);
        }
        faces.push(Face {
            plane,
            side,
            first_edge,
            edges: count,
            material,
            light,
            lightmap,
            extra,
            corners,
        });
    }
    Ok(BspGeometry { vertices, faces })
}

/// A WMB7 block vertex: position, texture and lightmap coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockVertex {
    /// Position.
    pub position: [f32; 3],
    /// Texture coordinates.
    pub uv: [f32; 2],
    /// Lightmap coordinates.
    pub lightmap_uv: [f32; 2],
}

/// A WMB7 block triangle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockTriangle {
    /// Vertex indices.
    pub indices: [u16; 3],
    /// Skin index.
    pub skin: u16,
    /// The word after it (0 per the sources).
    pub unused: u32,
}

/// A WMB7 block skin.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BlockSkin {
    /// Texture index.
    pub texture: u16,
    /// Lightmap index.
    pub lightmap: u16,
    /// Material index.
    pub material: u32,
    /// Ambient.
    pub ambient: f32,
    /// Albedo.
    pub albedo: f32,
    /// Flags (bit 1 flat, bit 2 sky, bit 14 smooth).
    pub flags: u32,
}

/// A WMB7 block: a mesh with its bounding box.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    /// Bounding box minimum.
    pub min: [f32; 3],
    /// Bounding box maximum.
    pub max: [f32; 3],
    /// Content word (0 per the sources).
    pub content: u32,
    /// Vertices.
    pub vertices: Vec<BlockVertex>,
    /// Triangles.
    pub triangles: Vec<BlockTriangle>,
    /// Skins.
    pub skins: Vec<BlockSkin>,
}

/// The WMB7 blocks list: a count, then each block with its vertices (28 bytes), triangles
/// (12 bytes) and skins (20 bytes).
pub fn blocks(wmb: &Wmb) -> Result<Vec<Block>> {
    let Some(data) = wmb.list(ListKind::Blocks).filter(|_| wmb.version >= 7) else {
        return Ok(Vec::new());
    };
    let mut f = Fields::new(ListKind::Blocks, data, 0);
    let count = f.u32("block count")?;
    let count = f.ensure(u64::from(count), 40, "blocks")?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let w = "block";
        let min = f.vec3(w)?;
        let max = f.vec3(w)?;
        let content = f.u32(w)?;
        let nv = f.u32(w)?;
        let nt = f.u32(w)?;
        let ns = f.u32(w)?;
        let nv = f.ensure(u64::from(nv), 28, "block vertices")?;
        let mut vertices = Vec::with_capacity(nv);
        for _ in 0..nv {
            vertices.push(BlockVertex {
                position: f.vec3(w)?,
                uv: [f.f32(w)?, f.f32(w)?],
                lightmap_uv: [f.f32(w)?, f.f32(w)?],
            });
        }
        let nt = f.ensure(u64::from(nt), 12, "block triangles")?;
        let mut triangles = Vec::with_capacity(nt);
        for _ in 0..nt {
            triangles.push(BlockTriangle {
                indices: [f.u16(w)?, f.u16(w)?, f.u16(w)?],
                skin: f.u16(w)?,
                unused: f.u32(w)?,
            });
        }
        let ns = f.ensure(u64::from(ns), 20, "block skins")?;
        let mut skins = Vec::with_capacity(ns);
        for _ in 0..ns {
            skins.push(BlockSkin {
                texture: f.u16(w)?,
                lightmap: f.u16(w)?,
                material: f.u32(w)?,
                ambient: f.f32(w)?,
                albedo: f.f32(w)?,
                flags: f.u32(w)?,
            });
        }
        out.push(Block {
            min,
            max,
            content,
            vertices,
            triangles,
            skins,
        });
    }
    Ok(out)
}

/// A WMB7 lightmap page: `size`×`size` pixels of three bytes (red, green, blue, the order
/// libgamestudio reads; no real file with lit blocks has been seen to confirm it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LightmapPage {
    /// Width and height.
    pub size: u32,
    /// The pixels, `3 * size * size` bytes.
    #[serde(skip)]
    pub pixels: Vec<u8>,
}

/// The side of a lightmap page from the level info's `lightmap_size` byte (0, 1, 2: 256, 512,
/// 1024; `WMB_INFO.LMapSize` in libgamestudio), 256 when the level has no info.
pub fn lightmap_side(code: Option<u8>) -> Option<u32> {
    match code {
        None | Some(0) => Some(256),
        Some(1) => Some(512),
        Some(2) => Some(1024),
        Some(_) => None,
    }
}

/// The WMB7 `lightmaps` list: pages of one size, one after another (libgamestudio's reader;
/// the list's length must be a whole number of pages). Empty before WMB7: WMB2–6 faces keep
/// Quake's per-face lightmap offsets, which are not read.
pub fn lightmap_pages(wmb: &Wmb) -> Result<Vec<LightmapPage>> {
    let Some(data) = wmb.list(ListKind::Lightmaps).filter(|_| wmb.version >= 7) else {
        return Ok(Vec::new());
    };
    let code = objects(wmb)
        .ok()
        .and_then(|o| o.into_iter().find(|o| o.kind == ObjectKind::Info))
        .and_then(|info| info.fields.get("lightmap_size").and_then(Value::as_u64))
        .map(|c| u8::try_from(c).unwrap_or(u8::MAX));
    let f = Fields::new(ListKind::Lightmaps, data, 0);
    let Some(side) = lightmap_side(code) else {
        return Err(f.error(
            ErrorKind::Malformed,
            format!(
                "the level info's lightmap size code {} is not 0, 1 or 2 (256, 512, 1024)",
                code.unwrap_or(0)
            ),
        ));
    };
    let page = 3 * (side as usize) * (side as usize);
    if data.len() % page != 0 {
        return Err(f.error(
            ErrorKind::Malformed,
            format!(
                "the lightmaps list of {} bytes is not a whole number of {side}×{side} RGB pages \
                 ({page} bytes each)",
                data.len()
            ),
        ));
    }
    Ok(data
        .chunks_exact(page)
        .map(|p| LightmapPage {
            size: side,
            pixels: p.to_vec(),
        })
        .collect())
}

/// The model bounding box Quake's `models` lump starts with (`legacy7`: minimum, maximum).
pub fn world_bounds(wmb: &Wmb) -> Result<Option<([f32; 3], [f32; 3])>> {
    let Some(data) = wmb.list(ListKind::Legacy7) else {
        return Ok(None);
    };
    let mut f = Fields::new(ListKind::Legacy7, data, 0);
    Ok(Some((f.vec3("bounds")?, f.vec3("bounds")?)))
}
