//! Id labels drawn on generated tiles in the built-in font.

// No panics on input: the map's sizes, ids and properties come from files.
#![deny(clippy::indexing_slicing)]

use super::font;

/// An id label: its digits, most significant first, drawn from (`scale`, `scale`).
pub(super) struct Label {
    digits: [u8; 10],
    len: u32,
    scale: u32,
}

impl Label {
    pub(super) fn new(id: u32, tile_width: u32, tile_height: u32) -> Label {
        let mut digits = [0u8; 10];
        let mut len = 0u32;
        let mut v = id;
        // Collect least significant first, then reverse the used part.
        loop {
            if let Some(d) = digits.get_mut(len as usize) {
                *d = (v % 10) as u8;
            }
            len += 1;
            v /= 10;
            if v == 0 || len as usize >= digits.len() {
                break;
            }
        }
        if let Some(used) = digits.get_mut(..len as usize) {
            used.reverse();
        }
        Label {
            digits,
            len,
            scale: (tile_width.min(tile_height) / 32).max(1),
        }
    }

    /// Whether the tile pixel (x, y) is set by the label.
    pub(super) fn covers(&self, x: u32, y: u32) -> bool {
        let s = self.scale;
        let (Some(lx), Some(ly)) = (x.checked_sub(s), y.checked_sub(s)) else {
            return false;
        };
        let (fx, fy) = (lx / s, ly / s);
        let index = fx / font::ADVANCE;
        if index >= self.len {
            return false;
        }
        let Some(&digit) = self.digits.get(index as usize) else {
            return false;
        };
        font::covers(&[char::from(b'0' + digit % 10)], fx % font::ADVANCE, fy)
    }
}
