//! WMB bytes to the lossless model: the header's list table, then the file cut at the lists'
//! offsets into lists and gaps. Lists may come in any order; they must lie inside the file and
//! not overlap.

#![deny(clippy::arithmetic_side_effects)]

use super::model::{Item, MAX_LISTS, Slot, Wmb};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::registry::Format;

/// Read a WMB file with the default limits.
pub fn read(bytes: &[u8]) -> Result<Wmb> {
    read_with(bytes, &Limits::default())
}

/// Every WMB header has at least the 16 list entries of WMB2 (palettes .. objects).
pub const MIN_LISTS: usize = 16;

/// Bytes of the smallest header: magic and [`MIN_LISTS`] entries.
const MIN_HEADER: usize = 4 + 8 * MIN_LISTS;

fn err(kind: ErrorKind, at: usize, message: String) -> Error {
    Error::new(Format::Wmb, kind, Location::at(at as u64), message)
}

/// Read a WMB file; allocation is bounded by the input's size (every list is a copy of its
/// bytes) and checked against `limits`.
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Wmb> {
    let mut budget = limits.budget(Format::Wmb);
    let magic = bytes.get(..4).ok_or_else(|| {
        err(
            ErrorKind::Truncated,
            0,
            format!(
                "expected the 4-byte magic `WMB2`..`WMB7`, the file has {} bytes",
                bytes.len()
            ),
        )
    })?;
    let version = match magic {
        [b'W', b'M', b'B', d @ b'0'..=b'9'] => d.wrapping_sub(b'0'),
        _ => {
            return Err(err(
                ErrorKind::Malformed,
                0,
                format!("expected the magic `WMB2`..`WMB7`, found {magic:02x?}"),
            ));
        }
    };
    if !(2..=7).contains(&version) || version == 5 {
        return Err(err(
            ErrorKind::Unsupported,
            0,
            format!("WMB{version} is not a version levelkit knows (WMB2, 3, 4, 6, 7)"),
        ));
    }
    budget.charge(bytes.len(), "the level's lists", Location::at(0))?;

    // The header holds list entries until the first list's data begins (at most 20).
    let mut slots: Vec<Slot> = Vec::with_capacity(MAX_LISTS);
    let mut first_data = bytes.len();
    let mut at = 4usize;
    while slots.len() < MAX_LISTS && at.saturating_add(8) <= first_data.max(MIN_HEADER) {
        let entry = bytes.get(at..at.saturating_add(8)).ok_or_else(|| {
            err(
                ErrorKind::Truncated,
                at,
                format!(
                    "header list entry {} at 0x{at:x} runs past the end of the file ({} bytes)",
                    slots.len(),
                    bytes.len()
                ),
            )
        })?;
        let word = |i: usize| {
            let mut w = [0u8; 4];
            if let Some(src) = entry.get(i..i.saturating_add(4)) {
                w.copy_from_slice(src);
            }
            u32::from_le_bytes(w)
        };
        let slot = Slot {
            offset: word(0),
            length: word(4),
        };
        if slot.length > 0 {
            first_data = first_data.min(slot.offset as usize);
        }
        slots.push(slot);
        at = at.saturating_add(8);
    }
    let header_end = at;

    // The lists in file order; each must lie after the header, inside the file, and apart.
    let mut order: Vec<(usize, usize, usize)> = Vec::with_capacity(slots.len());
    for (i, slot) in slots.iter().enumerate() {
        if slot.length == 0 {
            continue;
        }
        let (start, len) = (slot.offset as usize, slot.length as usize);
        let name = super::model::ListKind::slot_name(i);
        if start < header_end {
            return Err(err(
                ErrorKind::Malformed,
                4usize.saturating_add(i.saturating_mul(8)),
                format!(
                    "list `{name}` starts at 0x{start:x}, inside the header (which ends at 0x{header_end:x})"
                ),
            ));
        }
        let end = start.checked_add(len).filter(|&e| e <= bytes.len());
        let Some(end) = end else {
            return Err(err(
                ErrorKind::Truncated,
                4usize.saturating_add(i.saturating_mul(8)),
                format!(
                    "list `{name}` claims {len} bytes at 0x{start:x}, past the end of the file ({} bytes)",
                    bytes.len()
                ),
            ));
        };
        order.push((start, end, i));
    }
    order.sort_unstable();
    let mut items = Vec::with_capacity(order.len().saturating_mul(2).saturating_add(1));
    let mut pos = header_end;
    let mut previous: Option<usize> = None;
    for &(start, end, slot) in &order {
        // A list inside bytes already read (a compiler's overlapping slot): kept as where it
        // lies, the bytes stay with the list they belong to.
        if start < pos && end <= pos && start >= header_end && previous.is_some() {
            items.push(Item::Within {
                slot,
                back: u32::try_from(pos.saturating_sub(start)).unwrap_or(u32::MAX),
                length: u32::try_from(end.saturating_sub(start)).unwrap_or(u32::MAX),
            });
            continue;
        }
        if start < pos {
            let other = previous.map_or_else(
                || "the header".to_owned(),
                |p| format!("list `{}`", super::model::ListKind::slot_name(p)),
            );
            return Err(err(
                ErrorKind::Unsupported,
                start,
                format!(
                    "list `{}` at 0x{start:x} overlaps {other} (which ends at 0x{pos:x}); \
                     expected lists that do not share bytes",
                    super::model::ListKind::slot_name(slot)
                ),
            ));
        }
        if start > pos {
            items.push(Item::Gap {
                data: bytes.get(pos..start).unwrap_or_default().to_vec(),
            });
        }
        items.push(Item::List {
            slot,
            data: bytes.get(start..end).unwrap_or_default().to_vec(),
        });
        pos = end;
        previous = Some(slot);
    }
    if pos < bytes.len() {
        items.push(Item::Gap {
            data: bytes.get(pos..).unwrap_or_default().to_vec(),
        });
    }
    Ok(Wmb {
        version,
        slots,
        items,
    })
}
