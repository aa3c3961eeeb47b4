//! The lossless model back to WMB bytes: the header, then the items in order; each list's slot
//! gets the offset it is written at and its length.

use super::model::{Item, Slot, Wmb};
use crate::error::{Error, Location, Result};
use crate::io::ByteWriter;
use crate::registry::Format;

/// Write the level. Fails when a list names a slot the header does not have, when two lists
/// name the same slot, or when the file would pass 4 GiB.
pub fn write(wmb: &Wmb) -> Result<Vec<u8>> {
    let mut slots = wmb.slots.clone();
    let mut seen = vec![false; slots.len()];
    let total: u64 = wmb.header_len() as u64
        + wmb
            .items
            .iter()
            .map(|i| match i {
                Item::List { data, .. } | Item::Gap { data } => data.len() as u64,
                Item::Within { .. } => 0,
            })
            .sum::<u64>();
    if total > u64::from(u32::MAX) {
        return Err(Error::malformed(
            Format::Wmb,
            Location::default(),
            format!("the level would be {total} bytes; a WMB's offsets end at 4 GiB"),
        ));
    }
    let mut w = ByteWriter::with_capacity(total as usize);
    w.put_bytes(&wmb.magic());
    w.put_fill(0, 8 * slots.len());
    for (n, item) in wmb.items.iter().enumerate() {
        let bad = |message: String| {
            Error::malformed(Format::Wmb, Location::path(format!("items[{n}]")), message)
        };
        match item {
            Item::List { slot, data } => {
                let entry = claim(&mut slots, &mut seen, *slot, n)?;
                entry.offset = w.len() as u32;
                entry.length = data.len() as u32;
                w.put_bytes(data);
            }
            Item::Within { slot, back, length } => {
                let written = w.len().saturating_sub(wmb.header_len());
                let entry = claim(&mut slots, &mut seen, *slot, n)?;
                if *length > *back || *back as usize > written {
                    return Err(bad(format!(
                        "a list inside the bytes before it must lie within the {written} bytes \
                         after the header (back {back}, length {length})"
                    )));
                }
                entry.offset = (w.len() - *back as usize) as u32;
                entry.length = *length;
            }
            Item::Gap { data } => w.put_bytes(data),
        }
    }
    for (i, slot) in slots.iter().enumerate() {
        w.patch_u32_le(4 + 8 * i, slot.offset);
        w.patch_u32_le(8 + 8 * i, slot.length);
    }
    Ok(w.into_inner())
}

/// The header entry of a list's `slot`, claimed once (`n`: the item, for the error).
fn claim<'a>(
    slots: &'a mut [Slot],
    seen: &mut [bool],
    slot: usize,
    n: usize,
) -> Result<&'a mut Slot> {
    let count = slots.len();
    let bad = |message: String| {
        Error::malformed(Format::Wmb, Location::path(format!("items[{n}]")), message)
    };
    let (Some(entry), Some(used)) = (slots.get_mut(slot), seen.get_mut(slot)) else {
        return Err(bad(format!(
            "list names header slot {slot}, but the header has {count} slots"
        )));
    };
    if std::mem::replace(used, true) {
        return Err(bad(format!("a second list for header slot {slot}")));
    }
    Ok(entry)
}
