//! Binary level reader. Mirrors `write.rs` function by function.
//!
//! The header picks the packet width and the sections; the board stream is decoded packet by
//! packet (LSB-first bit order, graal-notes 1.6) until 4096 cells; the text sections follow on
//! byte boundaries, each parsed line by line exactly as the notes' table 2.3 describes.

#![deny(clippy::arithmetic_side_effects)]

use super::model::*;
use super::write::{emit_run, encode_packets};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::ByteReader;
use crate::limits::Limits;
use crate::registry::Format;
use crate::strings::RawString;

use crate::formats::graal::level::BOARD_CELLS;

const F: Format = Format::GraalLevel;

/// Read a binary level with the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Graal> {
    read_with(bytes, &Limits::default())
}

/// Read a binary level. Its size is bounded by the input (every entry consumes bytes), so the
/// limits only cap the entry count.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Graal> {
    let budget = limits.budget(F);
    let mut r = ByteReader::new(F, bytes);
    let version = read_header(&mut r)?;
    let board_count = if version.has_layers() {
        let byte = r.u8("layer count")?;
        let count = byte.checked_sub(32).filter(|&c| c > 0).ok_or_else(|| {
            Error::malformed(
                F,
                Location::at(8),
                format!("layer count byte is {byte}; GR-V1.05 stores layers + 32, at least 33"),
            )
        })?;
        usize::from(count)
    } else {
        1
    };
    let mut boards = Vec::with_capacity(board_count);
    for index in 0..board_count {
        boards.push(
            read_board(&mut r, version.packet_bits())
                .map_err(|e| e.in_path(format!("boards[{index}]")))?,
        );
    }
    let mut lines = Lines { r, budget: &budget };
    let (links, links_end) = lines.read_links().map_err(|e| e.in_path("links"))?;
    let (baddies, baddies_end) = lines
        .read_baddies(version.has_verses())
        .map_err(|e| e.in_path("baddies"))?;
    let (npcs, npcs_end) = if version.has_npcs() {
        lines.read_npcs().map_err(|e| e.in_path("npcs"))?
    } else {
        (Vec::new(), SectionEnd::Hash)
    };
    let (chests, chests_end) = if version.has_chests() {
        lines.read_chests().map_err(|e| e.in_path("chests"))?
    } else {
        (Vec::new(), SectionEnd::Hash)
    };
    let (signs, signs_end) = lines.read_signs().map_err(|e| e.in_path("signs"))?;
    Ok(Graal {
        version,
        boards,
        links,
        links_end,
        baddies,
        baddies_end,
        npcs,
        npcs_end,
        chests,
        chests_end,
        signs,
        signs_end,
    })
}

fn read_header(r: &mut ByteReader<'_>) -> Result<Version> {
    let header = r.bytes(8, "8-byte version header")?;
    Version::from_header(header).ok_or_else(|| {
        Error::malformed(
            F,
            Location::at(0).with_path("header"),
            format!(
                "header is {:?}; expected one of Z3-V1.03, Z3-V1.04, GR-V1.00 to GR-V1.03, GR-V1.05",
                String::from_utf8_lossy(header)
            ),
        )
    })
}

/// An LSB-first bit reader over the tile stream.
struct Bits<'a> {
    data: &'a [u8],
    byte: usize,
    acc: u32,
    have: u32,
    base: u64,
}

impl Bits<'_> {
    fn take(&mut self, width: u32) -> Option<u16> {
        while self.have < width {
            let b = *self.data.get(self.byte)?;
            self.acc |= u32::from(b) << self.have;
            self.have = self.have.checked_add(8)?;
            self.byte = self.byte.checked_add(1)?;
        }
        let mask = (1u32 << width).wrapping_sub(1);
        let v = (self.acc & mask) as u16;
        self.acc >>= width;
        self.have = self.have.saturating_sub(width);
        Some(v)
    }

    fn offset(&self) -> u64 {
        self.base.saturating_add(self.byte as u64)
    }
}

/// Decode one board: packets until 4096 cells, then the pad bits to the byte boundary. The
/// packets are kept in the model only if our encoder would not write the same ones.
fn read_board(r: &mut ByteReader<'_>, width: u32) -> Result<BinaryBoard> {
    let start = r.pos();
    let rest = r.data().get(start..).unwrap_or(&[]);
    let mut bits = Bits {
        data: rest,
        byte: 0,
        acc: 0,
        have: 0,
        base: r.offset(),
    };
    let top = 1u16 << width.saturating_sub(1);
    let mut tiles: Vec<u16> = Vec::with_capacity(BOARD_CELLS);
    let mut packets: Vec<u16> = Vec::with_capacity(2048);
    let mut clamped = false;
    let truncated = |bits: &Bits<'_>, cells: usize| {
        Error::new(
            F,
            ErrorKind::Truncated,
            Location::at(bits.offset()),
            format!("tile stream ends after {cells} of 4096 cells"),
        )
    };
    while tiles.len() < BOARD_CELLS {
        let p = bits
            .take(width)
            .ok_or_else(|| truncated(&bits, tiles.len()))?;
        packets.push(p);
        if p & top == 0 {
            tiles.push(p);
            continue;
        }
        let double = p & 0x100 != 0;
        let count = usize::from(p & 0xFF);
        let a = bits
            .take(width)
            .ok_or_else(|| truncated(&bits, tiles.len()))?;
        packets.push(a);
        let pair = if double {
            let b = bits
                .take(width)
                .ok_or_else(|| truncated(&bits, tiles.len()))?;
            packets.push(b);
            [a, b]
        } else {
            [a, a]
        };
        let width = if double { 2 } else { 1 };
        clamped |= emit_run(&mut tiles, pair.get(..width).unwrap_or(&[]), count);
    }
    let pad_bits = (bits.acc & 0xFF) as u8;
    r.seek(start.saturating_add(bits.byte), "end of tile stream")?;
    // Keep the packets only where our encoder differs (or the stream was unusual).
    let ours = encode_packets(&tiles, width);
    let in_range = tiles.iter().all(|&t| t < top);
    let packets = if !clamped && in_range && ours == packets {
        None
    } else {
        Some(packets)
    };
    Ok(BinaryBoard {
        tiles,
        packets,
        pad_bits,
    })
}

/// The text sections: `\n`-terminated lines of raw bytes.
struct Lines<'a, 'b> {
    r: ByteReader<'a>,
    budget: &'b crate::limits::Budget,
}

impl<'a> Lines<'a, '_> {
    fn peek2(&self) -> Option<[u8; 2]> {
        let data = self.r.data().get(self.r.pos()..)?;
        data.get(..2).and_then(|s| <[u8; 2]>::try_from(s).ok())
    }

    fn at_end(&self) -> bool {
        self.r.remaining() == 0
    }

    /// The bytes up to the next `\n`, consuming the `\n`.
    fn line(&mut self, what: &str) -> Result<&'a [u8]> {
        let rest = self.r.data().get(self.r.pos()..).unwrap_or(&[]);
        match rest.iter().position(|&b| b == b'\n') {
            Some(len) => {
                let line = self.r.bytes(len, what)?;
                self.r.bytes(1, what)?;
                Ok(line)
            }
            None => Err(self.r.error(
                ErrorKind::Truncated,
                format!("{what} has no terminating newline before the end of the file"),
            )),
        }
    }

    fn check_count(&self, n: usize, what: &str) -> Result<()> {
        self.budget
            .count(n as u64, what, Location::at(self.r.offset()))
            .map(|_| ())
    }

    /// Lines until `#` or an empty line.
    fn read_links(&mut self) -> Result<(Vec<RawString>, SectionEnd)> {
        let mut links = Vec::new();
        loop {
            let line = self.line("link line")?;
            match line {
                b"#" => return Ok((links, SectionEnd::Hash)),
                b"" => return Ok((links, SectionEnd::Empty)),
                _ => {
                    self.check_count(links.len(), "link")?;
                    links.push(RawString::from(line));
                }
            }
        }
    }

    fn read_baddies(&mut self, verses: bool) -> Result<(Vec<BaddyRecord>, RawString)> {
        let mut baddies = Vec::new();
        loop {
            let [x, y, kind] = self.r.array::<3>("baddy x, y and type")?;
            if [x, y, kind] == [0xFF; 3] {
                let rest = self.line("rest of the baddy terminator line")?;
                return Ok((baddies, RawString::from(rest)));
            }
            let verses = if verses {
                RawString::from(self.line("baddy verses")?)
            } else {
                RawString::default()
            };
            self.check_count(baddies.len(), "baddy")?;
            baddies.push(BaddyRecord { x, y, kind, verses });
        }
    }

    fn read_npcs(&mut self) -> Result<(Vec<NpcRecord>, SectionEnd)> {
        let mut npcs = Vec::new();
        loop {
            match self.peek2() {
                Some([b'#', b'\n']) => {
                    self.r.bytes(2, "NPC terminator")?;
                    return Ok((npcs, SectionEnd::Hash));
                }
                _ if self.r.data().get(self.r.pos()) == Some(&b'\n') => {
                    self.r.bytes(1, "NPC terminator")?;
                    return Ok((npcs, SectionEnd::Empty));
                }
                _ => {}
            }
            let [x_raw, y_raw] = self.r.array::<2>("NPC position")?;
            let line = self.line("NPC image and script")?;
            let (image, script) = match line.iter().position(|&b| b == b'#') {
                Some(i) => (
                    line.get(..i).unwrap_or(&[]),
                    line.get(i.saturating_add(1)..).unwrap_or(&[]),
                ),
                None => {
                    return Err(Error::malformed(
                        F,
                        Location::at(self.r.offset()).with_path(format!("[{}]", npcs.len())),
                        "NPC line has no `#` between its image name and its script",
                    ));
                }
            };
            self.check_count(npcs.len(), "NPC")?;
            npcs.push(NpcRecord {
                x_raw,
                y_raw,
                image: RawString::from(image),
                script: RawString::from(script),
            });
        }
    }

    fn read_chests(&mut self) -> Result<(Vec<ChestRecord>, SectionEnd)> {
        let mut chests = Vec::new();
        loop {
            match self.peek2() {
                Some([b'#', b'\n']) => {
                    self.r.bytes(2, "chest terminator")?;
                    return Ok((chests, SectionEnd::Hash));
                }
                _ if self.r.data().get(self.r.pos()) == Some(&b'\n') => {
                    self.r.bytes(1, "chest terminator")?;
                    return Ok((chests, SectionEnd::Empty));
                }
                _ => {}
            }
            let at = self.r.offset();
            let bytes = self.r.array::<4>("chest")?;
            if self.r.u8("chest line end")? != b'\n' {
                return Err(Error::malformed(
                    F,
                    Location::at(at).with_path(format!("[{}]", chests.len())),
                    "chest is not 4 bytes followed by a newline",
                ));
            }
            self.check_count(chests.len(), "chest")?;
            chests.push(ChestRecord { bytes });
        }
    }

    fn read_signs(&mut self) -> Result<(Vec<SignRecord>, Option<RawString>)> {
        let mut signs = Vec::new();
        loop {
            if self.at_end() {
                return Ok((signs, None));
            }
            if self.r.data().get(self.r.pos()) == Some(&b'\n') {
                self.r.bytes(1, "sign terminator")?;
                let rest = self.r.bytes(self.r.remaining(), "after the signs")?;
                return Ok((signs, Some(RawString::from(rest))));
            }
            let [x_raw, y_raw] = self.r.array::<2>("sign position")?;
            let text = self.line("sign text")?;
            self.check_count(signs.len(), "sign")?;
            signs.push(SignRecord {
                x_raw,
                y_raw,
                text: RawString::from(text),
            });
        }
    }
}
