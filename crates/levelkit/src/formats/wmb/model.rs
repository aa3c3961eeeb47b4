//! The lossless WMB model: the header's list table as stored, and the file after the header as
//! an ordered run of lists (each one's bytes) and gaps (bytes no list claims).

use serde::{Deserialize, Serialize};

/// The most lists a WMB header has (WMB7's `WMB_HEADER`).
pub const MAX_LISTS: usize = 20;

/// The names of the header's lists, in header order (the field names of `WMB_HEADER` in
/// `ikskuh/libgamestudio` `src/wmb.zig`; [`ListKind::name`] gives a list's).
pub const LIST_NAMES: [&str; MAX_LISTS] = [
    "palettes",
    "planes",
    "textures",
    "vertices",
    "pvs",
    "bsp_nodes",
    "materials",
    "faces",
    "legacy4",
    "aabb_hulls",
    "bsp_leafs",
    "bsp_blocks",
    "edges",
    "edgelist",
    "legacy7",
    "objects",
    "lightmaps",
    "blocks",
    "legacy8",
    "lightmaps_terrain",
];

/// The header slot of each list (index into [`Wmb::slots`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ListKind {
    Palettes = 0,
    Planes = 1,
    Textures = 2,
    Vertices = 3,
    Pvs = 4,
    BspNodes = 5,
    Materials = 6,
    Faces = 7,
    Legacy4 = 8,
    AabbHulls = 9,
    BspLeafs = 10,
    BspBlocks = 11,
    Edges = 12,
    Edgelist = 13,
    Legacy7 = 14,
    Objects = 15,
    Lightmaps = 16,
    Blocks = 17,
    Legacy8 = 18,
    LightmapsTerrain = 19,
}

impl ListKind {
    /// The list's name in [`LIST_NAMES`].
    pub fn name(self) -> &'static str {
        LIST_NAMES.get(self as usize).copied().unwrap_or("?")
    }

    /// The name of slot `slot`, or `list N` past the known ones.
    pub fn slot_name(slot: usize) -> String {
        LIST_NAMES
            .get(slot)
            .map_or_else(|| format!("list {slot}"), |n| (*n).to_owned())
    }
}

/// One header entry as stored: where a list starts and how long it is. An entry of length 0
/// has no list; its offset is kept as written (compilers leave 0 or stale values there).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// Byte offset of the list from the start of the file.
    pub offset: u32,
    /// Length of the list in bytes.
    pub length: u32,
}

/// A run of the file after the header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// The bytes of the list in header slot `slot`. The writer puts it where the run before it
    /// ends and sets the slot's offset and length to match.
    List {
        /// The header slot (see [`LIST_NAMES`]).
        slot: usize,
        /// The list's bytes; the typed views in [`super::view`] read them.
        #[serde(with = "crate::serde_bytes::hex")]
        data: Vec<u8>,
    },
    /// A list whose bytes lie wholly inside what the file holds before it: it starts `back`
    /// bytes before where the run before it ends and is `length` bytes long (at most `back`).
    /// Real compilers write this: in four lit WMB7 levels the 4-byte `lightmaps_terrain` list
    /// is the last 4 bytes of the `lightmaps` list (`space.wmb`). Its bytes are not a list of
    /// its own, so the typed views take the slot as empty; the writer gives the slot the same
    /// offset and length.
    Within {
        /// The header slot (see [`LIST_NAMES`]).
        slot: usize,
        /// How far before the end of the run before it the list starts.
        back: u32,
        /// The list's length in bytes.
        length: u32,
    },
    /// Bytes between lists (alignment padding) or after the last one, kept verbatim.
    Gap {
        /// The bytes.
        #[serde(with = "crate::serde_bytes::hex")]
        data: Vec<u8>,
    },
}

/// A compiled 3D GameStudio level (`.wmb`), WMB2 to WMB7, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wmb {
    /// The version digit of the magic (`WMB2` … `WMB7`).
    pub version: u8,
    /// The header's list table as stored; how many entries there are is told by where the first
    /// list starts (16 in WMB2–4, 17 or 19 in WMB6, 20 in WMB7; see the module docs).
    pub slots: Vec<Slot>,
    /// The file after the header, in file order.
    pub items: Vec<Item>,
}

impl Wmb {
    /// The bytes of the list in header slot `kind`, when the file has it.
    pub fn list(&self, kind: ListKind) -> Option<&[u8]> {
        self.list_at(kind as usize)
    }

    /// The bytes of the list in header slot `slot`.
    pub fn list_at(&self, slot: usize) -> Option<&[u8]> {
        self.items.iter().find_map(|item| match item {
            Item::List { slot: s, data } if *s == slot => Some(data.as_slice()),
            _ => None,
        })
    }

    /// The magic, `WMB` and the version digit.
    pub fn magic(&self) -> [u8; 4] {
        [b'W', b'M', b'B', b'0'.wrapping_add(self.version)]
    }

    /// Set each present list's header entry to the offset and length the writer gives it (the
    /// lists in item order after the header), as reading the written bytes would.
    pub fn settle_layout(&mut self) {
        let mut at = self.header_len() as u64;
        for item in &self.items {
            match item {
                Item::List { slot, data } => {
                    if let Some(entry) = self.slots.get_mut(*slot) {
                        entry.offset = u32::try_from(at).unwrap_or(u32::MAX);
                        entry.length = u32::try_from(data.len()).unwrap_or(u32::MAX);
                    }
                    at = at.saturating_add(data.len() as u64);
                }
                Item::Within { slot, back, length } => {
                    if let Some(entry) = self.slots.get_mut(*slot) {
                        entry.offset =
                            u32::try_from(at.saturating_sub(u64::from(*back))).unwrap_or(u32::MAX);
                        entry.length = *length;
                    }
                }
                Item::Gap { data } => at = at.saturating_add(data.len() as u64),
            }
        }
    }

    /// Bytes of the header: magic and list table.
    pub fn header_len(&self) -> usize {
        4 + 8 * self.slots.len()
    }
}
