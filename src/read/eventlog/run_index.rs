//! The bands of one run of an eventlog, as a worker meets them: each heap sample's name
//! (a stack's ccids, or a 164's label) looked up in a table of the run's own, with a
//! guess of the band that follows the previous one (a census lists its bands in much the
//! same order every time) checked first.

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
    /// follows), added to `bands` if new.
    #[inline(always)]
    pub(super) fn band<'a>(
        &mut self,
        bands: &mut Vec<(bool, &'a [u8])>,
        is_stack: bool,
        text: &'a [u8],
    ) -> u32 {
        if is_stack {
            return self.band_named(bands, STACK, text);
        }
        // GHC ends a 164's payload with the label's NUL. A band already named
        // `text[..len - 1]` is then this label: known names hold no NUL, so the text
        // has none before its last byte. Only a label not seen yet in this run (or a
        // payload of another shape) needs the search for its NUL.
        if let Some((0, candidate)) = text.split_last() {
            if let Some(band) = self.known(0, candidate) {
                return band;
            }
        }
        self.band_named(bands, 0, label(text))
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

/// The label a 164's text starts with (up to its NUL, or all of it), found eight bytes
/// at a time.
fn label(text: &[u8]) -> &[u8] {
    // Bytes 0x00 are found with the classic test: (w - 0x01…01) & !w & 0x80…80 has its
    // lowest set bit in the first zero byte.
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(word) = text.get(at..at + 8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let zero = w.wrapping_sub(ONES) & !w & HIGHS;
        if zero != 0 {
            return &text[..at + zero.trailing_zeros() as usize / 8];
        }
        at += 8;
    }
    // The last few bytes, padded with zeros (a zero found in the padding means no NUL):
    // the text's last eight bytes shifted, rather than a short copy, which would stall
    // the load that follows it.
    let tail = text.len() - at;
    let end = match text.len().checked_sub(8) {
        _ if tail == 0 => 0,
        Some(last) => {
            let w = u64::from_le_bytes(text[last..].try_into().unwrap_or([0; 8]));
            let w = w >> (8 * (8 - tail));
            let zero = w.wrapping_sub(ONES) & !w & HIGHS;
            (zero.trailing_zeros() as usize / 8).min(tail)
        }
        None => text.iter().position(|&b| b == 0).unwrap_or(tail),
    };
    &text[..at + end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::eventlog::payload::cstr;

    /// The word-at-a-time label finder agrees with looking for the NUL, for every length
    /// and NUL position, whatever follows the NUL.
    #[test]
    fn labels_end_at_their_nul() {
        for len in 0..40 {
            let mut text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(label(&text), cstr(&text).0, "no NUL, {len} bytes");
            for nul in 0..len {
                text[nul] = 0;
                assert_eq!(label(&text), cstr(&text).0, "NUL at {nul} of {len}");
                text[nul] = b'z';
            }
        }
        // Bytes with the high bit set are not taken for a NUL.
        let text = b"\x80\x81\xff\x01caf\xc3\xa9\0rest";
        assert_eq!(label(text), cstr(text).0);
    }

    /// Names that the quick hash cannot tell apart (they differ only in the middle) still
    /// get a band each: the run's index switches to hashing every byte.
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
                    i as u32,
                    "round {round}"
                );
            }
        }
        assert!(index.full);
        assert_eq!(bands.len(), 200);
        // A stack and a label of the same bytes are different bands.
        assert_eq!(index.band(&mut bands, true, &names[0][..32]), 200);
    }

    /// A 164's text whose last byte is its label's NUL is looked up without searching for
    /// the NUL; texts of other shapes still get the label up to their first NUL.
    #[test]
    fn labels_are_found_with_and_without_the_search_for_their_nul() {
        let mut index = RunIndex::default();
        let mut bands = Vec::new();
        let mut band = |text: &'static [u8], is_stack: bool| {
            index.previous = 0;
            index.band(&mut bands, is_stack, text)
        };
        assert_eq!(band(b"name\0", false), 0);
        assert_eq!(band(b"name\0", false), 0);
        // A NUL before the last byte: the label ends there.
        assert_eq!(band(b"name\0more\0", false), 0);
        assert_eq!(band(b"a\0b\0", false), 1);
        assert_eq!(band(b"a\0b\0", false), 1);
        assert_eq!(band(b"a\0", false), 1);
        // No NUL at all: the whole text.
        assert_eq!(band(b"name", false), 0);
        assert_eq!(band(b"a\0b", false), 1);
        // The text up to the last byte is a stack's bytes: still a label.
        assert_eq!(band(b"st", true), 2);
        assert_eq!(band(b"st\0", false), 3);
        assert_eq!(band(b"st", true), 2);
        assert_eq!(band(b"", false), 4);
        assert_eq!(band(b"\0", false), 4);
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
