//! The slots of an open-addressing table over ids, tagged with the top half of the name's
//! hash, and the one probe every table of names uses (the profile's index, a `.hp`
//! chunk's, an eventlog run's).

/// A slot of an open-addressing table over ids: the top half of the name's `hash` (a
/// tag) above `id + 1`; 0 stays free for an empty slot. With the tag in the slot, a
/// lookup compares names only when the tags agree, and reads no per-id hash to do so.
#[inline]
pub(crate) fn tagged_slot(hash: u64, id: u32) -> u64 {
    (hash & SLOT_TAG) | (u64::from(id) + 1)
}

/// The id in a non-empty [`tagged_slot`], if the slot's tag is that of `hash`.
#[inline]
fn slot_id_if_tagged(slot: u64, hash: u64) -> Option<u32> {
    ((slot ^ hash) & SLOT_TAG == 0).then(|| (slot as u32).wrapping_sub(1))
}

/// The bits of a [`tagged_slot`] that hold the hash's tag.
const SLOT_TAG: u64 = !0 << 32;

/// What [`probe`] found.
pub(crate) enum Probe {
    /// The id whose name it is.
    Found(u32),
    /// Not there: the empty slot where it goes.
    Empty(usize),
    /// More slots passed than the limit allows.
    Crowded,
}

/// Looks `hash` up in an open-addressing table of [`tagged_slot`]s (a power of two in
/// size, not empty), passing at most `limit` slots after the first: the first id whose
/// slot has the hash's tag and for which `is(id)` holds, or the empty slot where the
/// name goes. Every table of names in the program (the profile's index, a `.hp` chunk's,
/// an eventlog run's) probes this way.
#[inline(always)]
pub(crate) fn probe(
    table: &[u64],
    hash: u64,
    limit: usize,
    mut is: impl FnMut(u32) -> bool,
) -> Probe {
    let mask = table.len() - 1;
    let mut slot = hash as usize & mask;
    for _ in 0..=limit {
        let e = table[slot];
        if e == 0 {
            return Probe::Empty(slot);
        }
        if let Some(id) = slot_id_if_tagged(e, hash) {
            if is(id) {
                return Probe::Found(id);
            }
        }
        slot = (slot + 1) & mask;
    }
    Probe::Crowded
}

/// Puts `id` (whose name has `hash`) into the first empty slot from its own, in a table
/// that has one.
pub(crate) fn place_tagged(table: &mut [u64], hash: u64, id: u32) {
    let mask = table.len() - 1;
    let mut slot = hash as usize & mask;
    while table[slot] != 0 {
        slot = (slot + 1) & mask;
    }
    table[slot] = tagged_slot(hash, id);
}

/// Makes `table` `size` empty slots (a power of two) holding every id of `hashes`
/// (`hashes[id]` the hash of id's name).
pub(crate) fn fill_tagged(table: &mut Vec<u64>, size: usize, hashes: &[u64]) {
    table.clear();
    table.resize(size, 0);
    for (id, &hash) in hashes.iter().enumerate() {
        place_tagged(table, hash, id as u32);
    }
}
