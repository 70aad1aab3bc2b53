//! [`NameIndex`]: the table that interns a profile's names (the builder's; names stay
//! where their owner keeps them, the index only holds ids and hashes).

use super::table::{fill_tagged, place_tagged, probe, tagged_slot, Probe};

/// An index of names: open addressing over ids (the profile builder's band ids), keyed
/// by [`hash_bytes`](super::hash_bytes) of the name, the names themselves staying with
/// their owner (the bands: no second copy of every name, no allocation per identifier;
/// a million identifiers cost a few tables).
#[derive(Default)]
pub(crate) struct NameIndex {
    /// Per slot, the name's hash's top half (a tag) above id + 1; 0 for an empty
    /// slot. A power of two, at most half full. With the tag in the slot, a lookup reads
    /// a name only when the tags agree: one cache miss per lookup in a large table, not
    /// one per slot passed.
    table: Vec<u64>,
    /// The hash of every id's name, by id (for growing the table).
    hashes: Vec<u64>,
}

impl NameIndex {
    /// The id named `name` (`name_of(id)` gives an id's name), or the slot where it
    /// goes. Inlined into the builder's lookups, as it was when the index lived there
    /// (out of line, a run's lookups cost 3 % more on the calling thread).
    #[inline]
    pub(crate) fn find<'b>(
        &mut self,
        name: &[u8],
        hash: u64,
        name_of: impl Fn(u32) -> &'b [u8],
    ) -> Result<u32, usize> {
        if self.table.is_empty() {
            self.table.resize(1024, 0);
        }
        loop {
            match probe(&self.table, hash, self.table.len(), |id| {
                name_of(id) == name
            }) {
                Probe::Found(id) => return Ok(id),
                Probe::Empty(slot) => return Err(slot),
                // Not with a table at most half full; should it happen, a larger table
                // has room.
                Probe::Crowded => self.rebuild(self.table.len() * 2),
            }
        }
    }

    /// Reads the slots of these hashes, so that the cache misses of a batch of lookups
    /// overlap (each lookup's miss would otherwise wait for the one before).
    #[inline]
    pub(crate) fn warm(&self, hashes: &[u64]) {
        let mask = self.table.len().wrapping_sub(1);
        let seen = hashes.iter().fold(0, |acc, &h| {
            acc ^ self.table.get(h as usize & mask).copied().unwrap_or(0)
        });
        std::hint::black_box(seen);
    }

    /// Puts the new `id` (the next one) into the empty `slot` that [`Self::find`]
    /// returned.
    pub(crate) fn insert(&mut self, slot: usize, hash: u64, id: u32) {
        debug_assert_eq!(id as usize, self.hashes.len());
        self.hashes.push(hash);
        self.table[slot] = tagged_slot(hash, id);
        if self.hashes.len() * 2 > self.table.len() {
            self.rebuild(self.table.len() * 2);
        }
    }

    /// Makes room for `ids` ids without growing again.
    pub(crate) fn reserve(&mut self, ids: usize) {
        let size = (2 * ids).next_power_of_two().max(1024);
        if size > self.table.len() {
            self.hashes.reserve(ids.saturating_sub(self.hashes.len()));
            self.rebuild(size);
        }
    }

    /// Adds `id` (the next one) without looking for it first.
    pub(crate) fn add(&mut self, hash: u64, id: u32) {
        debug_assert_eq!(id as usize, self.hashes.len());
        self.hashes.push(hash);
        if self.hashes.len() * 2 > self.table.len() {
            self.rebuild((self.table.len() * 2).max(1024));
        } else {
            self.place(id);
        }
    }

    fn place(&mut self, id: u32) {
        place_tagged(&mut self.table, self.hashes[id as usize], id);
    }

    pub(crate) fn rebuild(&mut self, size: usize) {
        fill_tagged(&mut self.table, size, &self.hashes);
    }
}
