//! The bands of one run of an eventlog, as a worker meets them: each heap sample's name
//! (a stack's ccids, or a 164's label) looked up in a table of the run's own, with a
//! guess of the band that follows the previous one (a census lists its bands in much the
//! same order every time) checked first.

use super::container::label;
use crate::intern::{fill_tagged, hash_bytes, probe, quick_hash, same, tagged_slot, Probe};

/// The bands of one run: an open-addressing table over [`quick_hash`] (a few words of
/// the name; [`hash_bytes`], every byte, once names collide), and the band that followed
/// each band last time, checked first (a census lists its bands in much the same order
/// every time).
#[derive(Default)]
pub(super) struct RunIndex {
    /// Per slot, the name's hash's top half (a tag) above band + 1 ([`tagged_slot`]), 0
    /// for an empty slot; a power of two, at most half full. With the tag in the slot, a
    /// lookup compares names only when the tags agree.
    table: Vec<u64>,
    hashes: Vec<u64>,
    /// Names that the quick hash cannot tell apart met in this run: every byte is hashed.
    full: bool,
    /// The bands' names, one after the other: compared here rather than where they lie
    /// in the run (a megabyte apart, out of the cache).
    names: Vec<u8>,
    /// Per band: where its name starts in `names`, and its length with [`STACK`] set for
    /// a stack's ccids.
    spans: Vec<(u32, u32)>,
    /// `successor[b + 1]`: the band after band `b` last time (slot 0: a census's first).
    successor: Vec<u32>,
    pub(super) previous: usize,
}

/// Probes after which a run's names are hashed whole.
const MAX_PROBES: usize = 32;

/// The bit of a [`RunIndex::spans`] length that marks a stack.
const STACK: u32 = 1 << 31;

impl RunIndex {
    fn hash(&self, is_stack: bool, name: &[u8]) -> u64 {
        let h = if self.full {
            hash_bytes(name)
        } else {
            quick_hash(name)
        };
        h ^ u64::from(is_stack)
    }

    /// Whether band `band` is `name` (with `kind`: [`STACK`] or 0).
    #[inline(always)]
    fn is(&self, band: usize, kind: u32, name: &[u8]) -> bool {
        let (start, len) = self.spans[band];
        let start = start as usize;
        len == kind | name.len() as u32
            && self
                .names
                .get(start..start + name.len())
                .is_some_and(|known| same(known, name))
    }

    /// The band of a stack's ccids or of a 164's text (a label, its NUL and whatever
    /// follows), added to `bands` if new; and, for a 164, whether its label's NUL is the
    /// text's last byte (the fields fill the payload: what the framer checks).
    #[inline(always)]
    pub(super) fn band<'a>(
        &mut self,
        bands: &mut Vec<(bool, &'a [u8])>,
        is_stack: bool,
        text: &'a [u8],
    ) -> (u32, bool) {
        if is_stack {
            return (self.band_named(bands, STACK, text), true);
        }
        // GHC ends a 164's payload with the label's NUL. A band already named
        // `text[..len - 1]` is then this label: known names hold no NUL, so the text
        // has none before its last byte. Only a label not seen yet in this run (or a
        // payload of another shape) needs the search for its NUL.
        if let Some((0, candidate)) = text.split_last() {
            if let Some(band) = self.known(0, candidate) {
                return (band, true);
            }
        }
        let name = label(text);
        (
            self.band_named(bands, 0, name),
            name.len() + 1 == text.len(),
        )
    }

    /// The band named `name` if this run has one (checking the guess first), with the
    /// guess for the next name updated.
    #[inline(always)]
    fn known(&mut self, kind: u32, name: &[u8]) -> Option<u32> {
        // The hash first: a wrong guess then costs a compare of two hashes, not of two
        // names.
        let hash = self.hash(kind == STACK, name);
        let guess = (self.successor.get(self.previous))
            .copied()
            .unwrap_or(u32::MAX) as usize;
        if self.hashes.get(guess) == Some(&hash) && self.is(guess, kind, name) {
            self.previous = guess + 1;
            return Some(guess as u32);
        }
        let band = self.find(hash, kind, name)?;
        self.follow(band);
        Some(band)
    }

    /// The band named `name` (with hash `hash`) in the table, if any.
    #[inline(always)]
    fn find(&mut self, hash: u64, kind: u32, name: &[u8]) -> Option<u32> {
        if self.table.is_empty() {
            return None;
        }
        match probe(&self.table, hash, MAX_PROBES, |k| {
            self.is(k as usize, kind, name)
        }) {
            Probe::Found(band) => Some(band),
            Probe::Empty(_) => None,
            // Names that differ only where the quick hash does not look: with every byte
            // hashed, they spread out again.
            Probe::Crowded => None,
        }
    }

    /// Records that `band` followed the previous band.
    #[inline(always)]
    fn follow(&mut self, band: u32) {
        if self.successor.len() <= self.previous {
            self.successor.resize(self.hashes.len() + 1, u32::MAX);
        }
        self.successor[self.previous] = band;
        self.previous = band as usize + 1;
    }

    /// The band of the stack or label `name`, added to `bands` if new.
    #[inline(always)]
    fn band_named<'a>(
        &mut self,
        bands: &mut Vec<(bool, &'a [u8])>,
        kind: u32,
        name: &'a [u8],
    ) -> u32 {
        if let Some(band) = self.known(kind, name) {
            return band;
        }
        self.add(bands, kind, name)
    }

    /// Adds the band `name`, which the table does not have (or cannot find in
    /// [`MAX_PROBES`] probes: then every byte is hashed from now on, and the table has
    /// another look).
    #[cold]
    fn add<'a>(&mut self, bands: &mut Vec<(bool, &'a [u8])>, kind: u32, name: &'a [u8]) -> u32 {
        let is_stack = kind == STACK;
        if self.table.is_empty() {
            self.table.resize(256, 0);
        }
        let hash = self.hash(is_stack, name);
        let limit = if self.full {
            self.table.len()
        } else {
            MAX_PROBES
        };
        let slot = match probe(&self.table, hash, limit, |k| {
            self.is(k as usize, kind, name)
        }) {
            Probe::Found(k) => {
                self.follow(k);
                return k;
            }
            Probe::Empty(slot) => slot,
            Probe::Crowded if !self.full => {
                self.full = true;
                self.hashes = (bands.iter()).map(|&(s, n)| self.hash(s, n)).collect();
                self.rebuild(self.table.len());
                return self.band_named(bands, kind, name);
            }
            // Not with a table at most half full; should it happen, a larger table has
            // room.
            Probe::Crowded => {
                self.rebuild(self.table.len() * 2);
                return self.add(bands, kind, name);
            }
        };
        let band = bands.len() as u32;
        bands.push((is_stack, name));
        self.spans
            .push((self.names.len() as u32, kind | name.len() as u32));
        self.names.extend_from_slice(name);
        self.hashes.push(hash);
        self.table[slot] = tagged_slot(hash, band);
        if self.hashes.len() * 2 > self.table.len() {
            self.rebuild(self.table.len() * 2);
        }
        self.follow(band);
        band
    }

    fn rebuild(&mut self, size: usize) {
        fill_tagged(&mut self.table, size, &self.hashes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_quick_hash_confuses() {
        let names: Vec<Vec<u8>> = (0..200)
            .map(|i| format!("AAAAAAAABBBBBBBB{i:08}CCCCCCCC\0").into_bytes())
            .collect();
        let mut index = RunIndex::default();
        let mut bands = Vec::new();
        for round in 0..2 {
            for (i, name) in names.iter().enumerate() {
                index.previous = 0;
                assert_eq!(
                    index.band(&mut bands, false, name),
                    (i as u32, true),
                    "round {round}"
                );
            }
        }
        assert!(index.full);
        assert_eq!(bands.len(), 200);
        // A stack and a label of the same bytes are different bands.
        assert_eq!(index.band(&mut bands, true, &names[0][..32]).0, 200);
    }

    /// A 164's text whose last byte is its label's NUL is looked up without searching for
    /// the NUL; texts of other shapes still get the label up to their first NUL; and the
    /// lookup tells whether the label's NUL is the text's last byte.
    #[test]
    fn labels_are_found_with_and_without_the_search_for_their_nul() {
        let mut index = RunIndex::default();
        let mut bands = Vec::new();
        let mut band = |text: &'static [u8], is_stack: bool| {
            index.previous = 0;
            index.band(&mut bands, is_stack, text)
        };
        assert_eq!(band(b"name\0", false), (0, true));
        assert_eq!(band(b"name\0", false), (0, true));
        // A NUL before the last byte: the label ends there.
        assert_eq!(band(b"name\0more\0", false), (0, false));
        assert_eq!(band(b"a\0b\0", false), (1, false));
        assert_eq!(band(b"a\0b\0", false), (1, false));
        assert_eq!(band(b"a\0", false), (1, true));
        // No NUL at all: the whole text.
        assert_eq!(band(b"name", false), (0, false));
        assert_eq!(band(b"a\0b", false), (1, false));
        // The text up to the last byte is a stack's bytes: still a label.
        assert_eq!(band(b"st", true).0, 2);
        assert_eq!(band(b"st\0", false), (3, true));
        assert_eq!(band(b"st", true).0, 2);
        assert_eq!(band(b"", false), (4, false));
        assert_eq!(band(b"\0", false), (4, true));
        assert_eq!(
            bands,
            [
                (false, &b"name"[..]),
                (false, b"a"),
                (true, b"st"),
                (false, b"st"),
                (false, b""),
            ]
        );
    }
}
