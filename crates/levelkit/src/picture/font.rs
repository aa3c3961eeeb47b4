//! A 3 × 5 pixel font for the labels of generated tiles and the legend of a render: digits,
//! capital letters (lower case is drawn in capitals) and a little punctuation. Glyphs are one
//! byte a row, top to bottom, bit 2 the left column.

/// Width of a glyph cell in font pixels: 3 plus one column of spacing.
pub const ADVANCE: u32 = 4;
/// Height of a glyph in font pixels.
pub const HEIGHT: u32 = 5;

const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b001, 0b001, 0b001],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

const LETTERS: [[u8; 5]; 26] = [
    [0b010, 0b101, 0b111, 0b101, 0b101], // A
    [0b110, 0b101, 0b110, 0b101, 0b110], // B
    [0b011, 0b100, 0b100, 0b100, 0b011], // C
    [0b110, 0b101, 0b101, 0b101, 0b110], // D
    [0b111, 0b100, 0b110, 0b100, 0b111], // E
    [0b111, 0b100, 0b110, 0b100, 0b100], // F
    [0b011, 0b100, 0b101, 0b101, 0b011], // G
    [0b101, 0b101, 0b111, 0b101, 0b101], // H
    [0b111, 0b010, 0b010, 0b010, 0b111], // I
    [0b001, 0b001, 0b001, 0b101, 0b010], // J
    [0b101, 0b101, 0b110, 0b101, 0b101], // K
    [0b100, 0b100, 0b100, 0b100, 0b111], // L
    [0b101, 0b111, 0b111, 0b101, 0b101], // M
    [0b110, 0b101, 0b101, 0b101, 0b101], // N
    [0b010, 0b101, 0b101, 0b101, 0b010], // O
    [0b110, 0b101, 0b110, 0b100, 0b100], // P
    [0b010, 0b101, 0b101, 0b110, 0b011], // Q
    [0b110, 0b101, 0b110, 0b101, 0b101], // R
    [0b011, 0b100, 0b010, 0b001, 0b110], // S
    [0b111, 0b010, 0b010, 0b010, 0b010], // T
    [0b101, 0b101, 0b101, 0b101, 0b111], // U
    [0b101, 0b101, 0b101, 0b101, 0b010], // V
    [0b101, 0b101, 0b111, 0b111, 0b101], // W
    [0b101, 0b101, 0b010, 0b101, 0b101], // X
    [0b101, 0b101, 0b010, 0b010, 0b010], // Y
    [0b111, 0b001, 0b010, 0b100, 0b111], // Z
];

/// The rows of `c`'s glyph; a character the font lacks is a hollow box, a space is empty.
pub fn glyph(c: char) -> [u8; 5] {
    match c.to_ascii_uppercase() {
        d @ '0'..='9' => DIGITS
            .get(usize::from(d as u8 - b'0'))
            .copied()
            .unwrap_or_default(),
        l @ 'A'..='Z' => LETTERS
            .get(usize::from(l as u8 - b'A'))
            .copied()
            .unwrap_or_default(),
        ' ' => [0; 5],
        '_' => [0, 0, 0, 0, 0b111],
        '-' => [0, 0, 0b111, 0, 0],
        '.' => [0, 0, 0, 0, 0b010],
        ',' => [0, 0, 0, 0b010, 0b100],
        ':' => [0, 0b010, 0, 0b010, 0],
        '/' | '\\' => [0b001, 0b001, 0b010, 0b100, 0b100],
        '(' => [0b010, 0b100, 0b100, 0b100, 0b010],
        ')' => [0b010, 0b001, 0b001, 0b001, 0b010],
        '=' => [0, 0b111, 0, 0b111, 0],
        '+' => [0, 0b010, 0b111, 0b010, 0],
        _ => [0b111, 0b101, 0b101, 0b101, 0b111],
    }
}

/// Whether font pixel (`x`, `y`) of `text` (laid out in [`ADVANCE`]-wide cells from 0) is set.
pub fn covers(text: &[char], x: u32, y: u32) -> bool {
    if y >= HEIGHT {
        return false;
    }
    let (index, column) = (x / ADVANCE, x % ADVANCE);
    if column >= 3 {
        return false;
    }
    text.get(index as usize)
        .is_some_and(|&c| glyph(c).get(y as usize).copied().unwrap_or(0) & (0b100 >> column) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_fits_three_columns() {
        for c in (b' '..=b'~').map(char::from) {
            assert!(glyph(c).iter().all(|row| *row < 8), "{c:?}");
        }
        assert!(covers(&['1'], 1, 0) && !covers(&['1'], 0, 0));
        assert!(!covers(&['A'], 3, 1), "the spacing column is empty");
    }
}
