//! A chunk's names: each line's identifier to the chunk's local band id, guessed from
//! the band that followed the previous one last time, else looked up in an
//! open-addressing table by a quick hash of a few words (`line_hash`), compared 64 bytes
//! at once where the line's window ([`super::super::byte_masks`]) allows.

use super::{ChunkScan, Form};
use crate::intern::{
    fill_tagged, hash_bytes, line_hash, line_hash_window, probe, same, tagged_slot, Probe,
};
use crate::read::hp::byte_masks::{equal_mask, WIDTH};
use crate::seam::BandSum;

/// No band (in [`ChunkScan::successor`]).
const NONE: u32 = u32::MAX;

/// A chunk's table of names keeps at most one slot in this many taken, up to
/// [`SPARSE_UP_TO`] slots (then one in two).
const SPARSE_LOAD: usize = 16;

/// The size up to which the table of names is kept [`SPARSE_LOAD`] sparse (128 KiB).
const SPARSE_UP_TO: usize = 1 << 14;

/// Slots a lookup passes before the chunk's names are hashed whole.
const MAX_PROBES: usize = 32;

/// The most [`ChunkScan::guess_credit`] saves up, and what a chunk starts with.
const GUESS_CREDIT_MAX: i32 = 16;

impl ChunkScan {
    /// Forgets the names of the chunk scanned before.
    pub(super) fn reset_names(&mut self) {
        self.hashes.clear();
        self.full_hashes.clear();
        self.full_hash = false;
        self.successor.clear();
        self.guess_credit = GUESS_CREDIT_MAX;
        if self.table.len() > 1 << 16 {
            // A chunk of many distinct names: do not keep clearing a huge table.
            self.table = Vec::new();
        }
        self.table.fill(0);
        if self.table.is_empty() {
            self.table.resize(512, 0);
        }
    }

    fn name<'b>(&self, bytes: &'b [u8], id: u32) -> &'b [u8] {
        let (s, l) = self.names[id as usize];
        &bytes[s as usize..s as usize + l as usize]
    }

    /// The local id of the name `bytes[start..start + len]`, `previous` being the band of
    /// the line before plus one (0 after a census's end), and `window` the [`WIDTH`]
    /// bytes from `start` when the name is shorter and they are all in `bytes`. Inlined
    /// into each form's loop, which it is most of.
    #[inline(always)]
    pub(super) fn intern(
        &mut self,
        bytes: &[u8],
        start: usize,
        len: usize,
        previous: usize,
        window: Option<&[u8; WIDTH]>,
    ) -> u32 {
        let name = &bytes[start..start + len];
        // The band that followed the previous one last time; failing that, the one after
        // it, and the one after that (bands that are missing from this sample). Only
        // while guessing pays: in a chunk whose samples list their bands in a new order
        // each time, failed guesses cost more than they save, so after a run of misses
        // the names are looked up directly, with a guess now and then to notice when the
        // order settles.
        if self.guess_credit <= 0 && self.lines % 32 != 0 {
            return self.lookup(bytes, start, len, window);
        }
        let mut from = previous;
        for _ in 0..3 {
            let Some(&guess) = self.successor.get(from) else {
                break;
            };
            if guess == NONE {
                break;
            }
            if self.is_name(bytes, guess, name, window) {
                if from != previous {
                    self.successor[previous] = guess;
                }
                self.guess_credit = (self.guess_credit + 1).min(GUESS_CREDIT_MAX);
                return guess;
            }
            from = guess as usize + 1;
        }
        self.guess_credit -= 1;
        let id = self.lookup(bytes, start, len, window);
        if self.successor.len() <= previous {
            self.successor.resize(self.names.len() + 1, NONE);
        }
        self.successor[previous] = id;
        id
    }

    /// The name's hash in this chunk's table; `window`: the 64 bytes from the name's
    /// start, when it is shorter (the same hash, with fewer branches).
    #[inline(always)]
    fn hash(&self, name: &[u8], window: Option<&[u8; WIDTH]>) -> u64 {
        match (self.full_hash, window) {
            (true, _) => hash_bytes(name),
            (false, Some(w)) => line_hash_window(w, name.len()),
            (false, None) => line_hash(name),
        }
    }

    /// Whether band `id` is called `name`; `window` as in [`Self::hash`]. With the
    /// window, the names are compared 64 bytes at once under a mask of the name's
    /// length, without a branch on that length.
    #[inline(always)]
    fn is_name(&self, bytes: &[u8], id: u32, name: &[u8], window: Option<&[u8; WIDTH]>) -> bool {
        let (s, l) = self.names[id as usize];
        if l as usize != name.len() {
            return false;
        }
        // The same length, so band `id`'s name is as short as this one, and was met
        // earlier in the chunk: its window is in the bytes whenever this one's is (the
        // check below is then never false, but costs less than a check of both).
        let theirs = bytes.get(s as usize..s as usize + WIDTH);
        if let (Some(w), Some(theirs)) = (window, theirs.and_then(|t| t.try_into().ok())) {
            let wanted = (1u64 << name.len()) - 1;
            return equal_mask(w, theirs) & wanted == wanted;
        }
        same_out_of_line(self.name(bytes, id), name)
    }

    /// The local id of `bytes[start..start + len]`, a new one if it is new.
    #[inline(always)]
    fn lookup(
        &mut self,
        bytes: &[u8],
        start: usize,
        len: usize,
        window: Option<&[u8; WIDTH]>,
    ) -> u32 {
        let h = self.hash(&bytes[start..start + len], window);
        match self.probe(bytes, start, len, h, MAX_PROBES, window) {
            Probe::Found(id) => id,
            Probe::Empty(slot) => self.add(bytes, start, len, h, slot),
            Probe::Crowded => self.crowded(bytes, start, len),
        }
    }

    /// [`probe`] for the name `bytes[start..start + len]` with hash `h`.
    #[inline(always)]
    fn probe(
        &self,
        bytes: &[u8],
        start: usize,
        len: usize,
        h: u64,
        limit: usize,
        window: Option<&[u8; WIDTH]>,
    ) -> Probe {
        let name = &bytes[start..start + len];
        probe(&self.table, h, limit, |id| {
            self.is_name(bytes, id, name, window)
        })
    }

    /// A new name: the next local id, in the empty `slot` [`Self::lookup`] found.
    #[cold]
    fn add(&mut self, bytes: &[u8], start: usize, len: usize, h: u64, slot: usize) -> u32 {
        let id = self.names.len() as u32;
        self.names.push((start as u32, len as u32));
        self.room_for(id as usize);
        self.hashes.push(h);
        let name = &bytes[start..start + len];
        self.full_hashes
            .push(if self.full_hash { h } else { hash_bytes(name) });
        self.table[slot] = tagged_slot(h, id);
        // At most one slot in SPARSE_LOAD taken while the table is small: a lookup then
        // meets another name's slot first only now and then (at one in two, a quarter
        // of the lookups did, each a mispredicted branch).
        let load = if self.table.len() < SPARSE_UP_TO {
            SPARSE_LOAD
        } else {
            2
        };
        if self.names.len() * load > self.table.len() {
            self.rebuild(self.table.len() * 2);
        }
        id
    }

    /// Makes the points of new band `id` (the last of [`Self::names`]) start afresh in
    /// the scan's form.
    pub(super) fn room_for(&mut self, id: usize) {
        match self.form {
            Form::ByBand | Form::Split => {
                if self.by_band.len() <= id {
                    self.by_band.push(Vec::new());
                }
                self.by_band[id].clear();
            }
            Form::Sums => {
                if self.sums.len() <= id {
                    self.sums.push(BandSum::default());
                }
                self.sums[id] = BandSum::default();
            }
            Form::Entries => {}
        }
    }

    /// More than [`MAX_PROBES`] slots passed: names that the quick hash cannot tell apart.
    /// Every byte is hashed from now on in this chunk; with that, the search goes on
    /// until a match or an empty slot.
    #[cold]
    fn crowded(&mut self, bytes: &[u8], start: usize, len: usize) -> u32 {
        if !self.full_hash {
            self.full_hash = true;
            self.hashes.copy_from_slice(&self.full_hashes);
            self.rebuild(self.table.len());
        }
        let h = self.hash(&bytes[start..start + len], None);
        match self.probe(bytes, start, len, h, self.table.len(), None) {
            Probe::Found(id) => id,
            Probe::Empty(slot) => self.add(bytes, start, len, h, slot),
            // Not with a table at most half full; should it happen, a larger table has
            // room.
            Probe::Crowded => {
                self.rebuild(self.table.len() * 2);
                self.crowded(bytes, start, len)
            }
        }
    }

    fn rebuild(&mut self, size: usize) {
        fill_tagged(&mut self.table, size, &self.hashes);
    }
}

/// [`same`] for names without a window (64 bytes and longer, or near the chunk's end):
/// rare, and kept out of the loop, whose registers its setup took at every line.
#[cold]
#[inline(never)]
fn same_out_of_line(a: &[u8], b: &[u8]) -> bool {
    same(a, b)
}
