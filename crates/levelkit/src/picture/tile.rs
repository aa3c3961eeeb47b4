//! The generated picture of one tile: its style (collision attribute, fill colour, mask, or a
//! muted colour from its id) and its id label.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use super::color::{
    CLEAR_COLOR, DEATH_COLOR, SOLID_COLOR, attribute_color, darker, fill_color, label_color,
    neutral_color,
};
use super::image::{Rgba, TRANSPARENT};
use super::label::Label;
use crate::tilemap::{Properties, PropertyValue, TileData, Tileset};

/// How one generated tile is painted, resolved once from its properties.
#[derive(Debug, Clone)]
pub(super) enum Style<'a> {
    Neutral(Rgba),
    Single(Rgba),
    Double {
        outside: Rgba,
        inside: Rgba,
        /// Inclusive left, top, right, bottom.
        rect: (i64, i64, i64, i64),
    },
    Mask {
        /// Two hex digits a pixel.
        hex: &'a [u8],
        width: u32,
    },
    MaskUnknown,
    Fill(Rgba),
    Missing,
}

pub(super) fn int(p: &Properties, name: &str) -> Option<i64> {
    match p.get(name)? {
        PropertyValue::Int(v) => Some(*v),
        _ => None,
    }
}

pub(super) fn string<'a>(p: &'a Properties, name: &str) -> Option<&'a str> {
    match p.get(name)? {
        PropertyValue::String(s) => Some(s),
        _ => None,
    }
}

pub(super) fn style<'a>(tile: Option<&'a TileData>, id: u32, tile_width: u32) -> Style<'a> {
    let Some(p) = tile.map(|t| &t.properties) else {
        return Style::Neutral(neutral_color(id));
    };
    if let Some(index) = int(p, "fill_color") {
        return Style::Fill(fill_color(index));
    }
    match string(p, "type") {
        Some("single") => match int(p, "attribute") {
            Some(a) => Style::Single(attribute_color(a)),
            None => Style::Neutral(neutral_color(id)),
        },
        Some("double") => {
            let side = |name| int(p, name).map_or(TRANSPARENT, attribute_color);
            let edge = |name| int(p, name).unwrap_or(-1);
            Style::Double {
                outside: side("outside"),
                inside: side("inside"),
                rect: (
                    edge("rect_left"),
                    edge("rect_top"),
                    edge("rect_right"),
                    edge("rect_bottom"),
                ),
            }
        }
        Some("mask") => match string(p, "mask_hex") {
            Some(hex) if !hex.is_empty() => Style::Mask {
                hex: hex.as_bytes(),
                width: int(p, "width")
                    .and_then(|w| u32::try_from(w).ok())
                    .filter(|&w| w > 0)
                    .unwrap_or(tile_width),
            },
            _ => Style::MaskUnknown,
        },
        _ => Style::Neutral(neutral_color(id)),
    }
}

pub(super) fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

impl Style<'_> {
    /// The colour of tile pixel (x, y), before any label.
    pub(super) fn base(&self, x: u32, y: u32) -> Rgba {
        match self {
            Style::Neutral(c) => {
                if x == 0 || y == 0 {
                    darker(*c)
                } else {
                    *c
                }
            }
            Style::Single(c) | Style::Fill(c) => *c,
            Style::Double {
                outside,
                inside,
                rect: (l, t, r, b),
            } => {
                let (x, y) = (i64::from(x), i64::from(y));
                if (*l..=*r).contains(&x) && (*t..=*b).contains(&y) {
                    *inside
                } else {
                    *outside
                }
            }
            Style::Mask { hex, width } => {
                let i = (u64::from(y) * u64::from(*width) + u64::from(x)) * 2;
                let pair = usize::try_from(i)
                    .ok()
                    .and_then(|i| hex.get(i..i.checked_add(2)?));
                match pair.and_then(|p| Some(hex_digit(*p.first()?)? << 4 | hex_digit(*p.get(1)?)?))
                {
                    Some(v) if x < *width => attribute_color(i64::from(v)),
                    _ => Style::MaskUnknown.base(x, y),
                }
            }
            Style::MaskUnknown => {
                if (x + y) % 8 < 2 {
                    SOLID_COLOR
                } else {
                    CLEAR_COLOR
                }
            }
            Style::Missing => {
                if (x / 4 + y / 4) % 2 == 0 {
                    DEATH_COLOR
                } else {
                    [0, 0, 0, 255]
                }
            }
        }
    }

    pub(super) fn labelled(&self) -> bool {
        !matches!(self, Style::Fill(_) | Style::Missing)
    }
}

/// A generated tile: its style and label.
pub(super) struct Generated<'a> {
    pub(super) style: Style<'a>,
    pub(super) label: Option<Label>,
}

impl Generated<'_> {
    pub(super) fn pixel(&self, x: u32, y: u32) -> Rgba {
        let base = self.style.base(x, y);
        match &self.label {
            Some(l) if l.covers(x, y) => label_color(base),
            _ => base,
        }
    }
}

pub(super) fn generated<'a>(
    ts: &'a Tileset,
    tile: Option<&'a TileData>,
    id: u32,
    labels: bool,
) -> Generated<'a> {
    let style = style(tile, id, ts.tile_width);
    let label = (labels && style.labelled()).then(|| Label::new(id, ts.tile_width, ts.tile_height));
    Generated { style, label }
}
