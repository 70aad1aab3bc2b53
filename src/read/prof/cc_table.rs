//! The cost centres a report's rows name, found by their bytes (label, module, source
//! location) with one hash and, mostly, one cache line a row: a million rows name a few
//! thousand cost centres, and interning each row's names was most of the reading. The
//! rows stream through the caches (a hundred bytes read and seventy written each), so a
//! lookup that touches the table, then an entry, then the names misses three times; a
//! slot here is one cache line holding the hash, the id, the lengths and, when they fit,
//! the names themselves.
//!
//! The hash samples a few words of each name ([`quick_hash`]): names that share one are
//! told apart by comparing them. A lookup passes at most [`PROBES`] slots: past that (a
//! crowd of names a hostile file made alike), it is the caller's slow way, the builder's
//! interning of every byte, which is slower, never wrong, never quadratic.

use std::collections::HashSet;

use crate::calltree::CcId;
use crate::intern::quick_hash;

/// How many slots a lookup passes before giving up.
const PROBES: usize = 32;

/// The names' bytes a slot holds itself.
const INLINE: usize = 40;

/// One cost centre: its hash (0: an empty slot), id, where its names are (`u32::MAX`:
/// in the slot), their lengths; and the names when they fit.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    hash: u64,
    cc: u32,
    arena: u32,
    lens: [u16; 3],
    inline: [u8; INLINE],
}

const EMPTY: Slot = Slot {
    hash: 0,
    cc: 0,
    arena: 0,
    lens: [0; 3],
    inline: [0; INLINE],
};

/// The cost centres met, by their names' bytes.
pub(super) struct CcTable {
    slots: Vec<Slot>,
    len: usize,
    /// The names that do not fit their slot.
    arena: Vec<u8>,
    modules: HashSet<Vec<u8>>,
}

impl Default for CcTable {
    fn default() -> Self {
        CcTable {
            slots: vec![EMPTY; 1024],
            len: 0,
            arena: Vec::new(),
            modules: HashSet::new(),
        }
    }
}

/// A hash of three names (never 0).
#[inline]
fn hash3(label: &[u8], module: &[u8], src: &[u8]) -> u64 {
    let h =
        quick_hash(label) ^ quick_hash(module).rotate_left(21) ^ quick_hash(src).rotate_left(42);
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (h >> 29)) | 1
}

/// The lengths of three names, if each fits a slot's `u16`.
#[inline]
fn lengths(names: [&[u8]; 3]) -> Option<[u16; 3]> {
    Some([
        u16::try_from(names[0].len()).ok()?,
        u16::try_from(names[1].len()).ok()?,
        u16::try_from(names[2].len()).ok()?,
    ])
}

impl CcTable {
    /// The names of a slot, one after the other.
    #[inline]
    fn bytes_of<'s>(&'s self, slot: &'s Slot) -> &'s [u8] {
        let total = slot.lens.iter().map(|&l| usize::from(l)).sum::<usize>();
        match slot.arena {
            u32::MAX => &slot.inline[..total],
            at => &self.arena[at as usize..at as usize + total],
        }
    }

    /// Whether a slot holds these names.
    #[inline]
    fn holds(&self, slot: &Slot, names: [&[u8]; 3]) -> bool {
        let all = self.bytes_of(slot);
        let (l, m) = (names[0].len(), names[1].len());
        all[..l] == *names[0] && all[l..l + m] == *names[1] && all[l + m..] == *names[2]
    }

    /// The cost centre of these names, if met before (and not crowded out).
    #[inline]
    pub(super) fn find(&self, label: &[u8], module: &[u8], src: &[u8]) -> Option<CcId> {
        let names = [label, module, src];
        let lens = lengths(names)?;
        let hash = hash3(label, module, src);
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        for _ in 0..PROBES {
            let slot = &self.slots[i];
            if slot.hash == 0 {
                return None;
            }
            if slot.hash == hash && slot.lens == lens && self.holds(slot, names) {
                return Some(CcId(slot.cc));
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Remembers the names of `cc` (unless they are too long for a slot, or crowded).
    pub(super) fn insert(&mut self, label: &[u8], module: &[u8], src: &[u8], cc: CcId) {
        if !self.modules.contains(module) {
            self.modules.insert(module.to_vec());
        }
        let names = [label, module, src];
        let Some(lens) = lengths(names) else { return };
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let total = label.len() + module.len() + src.len();
        let mut slot = Slot {
            hash: hash3(label, module, src),
            cc: cc.0,
            arena: u32::MAX,
            lens,
            inline: [0; INLINE],
        };
        if total <= INLINE {
            let mut at = 0;
            for n in names {
                slot.inline[at..at + n.len()].copy_from_slice(n);
                at += n.len();
            }
        } else {
            let Ok(at) = u32::try_from(self.arena.len()) else {
                return;
            };
            slot.arena = at;
            names.iter().for_each(|n| self.arena.extend_from_slice(n));
        }
        if self.place(slot) {
            self.len += 1;
        }
    }

    /// Puts `slot` in the first free slot of its run; `false` when crowded out.
    fn place(&mut self, slot: Slot) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = slot.hash as usize & mask;
        for _ in 0..PROBES {
            if self.slots[i].hash == 0 {
                self.slots[i] = slot;
                return true;
            }
            i = (i + 1) & mask;
        }
        false
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        self.len = 0;
        for slot in old.into_iter().filter(|s| s.hash != 0) {
            if self.place(slot) {
                self.len += 1;
            }
        }
    }

    /// Whether a module of this name was met.
    pub(super) fn knows_module(&self, module: &[u8]) -> bool {
        self.modules.contains(module)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_again_short_long_and_crowded() {
        let mut t = CcTable::default();
        let long = "x".repeat(100);
        let cases: Vec<[Vec<u8>; 3]> = (0..3000)
            .map(|i| {
                let label = format!("l{i}").into_bytes();
                let src = if i % 3 == 0 {
                    long.clone().into_bytes()
                } else {
                    b"M.hs:1:1".to_vec()
                };
                [label, b"Main".to_vec(), src]
            })
            .collect();
        for (i, [l, m, s]) in cases.iter().enumerate() {
            assert_eq!(t.find(l, m, s), None);
            t.insert(l, m, s, CcId(i as u32));
        }
        for (i, [l, m, s]) in cases.iter().enumerate() {
            assert_eq!(t.find(l, m, s), Some(CcId(i as u32)), "{i}");
        }
        // The same bytes cut elsewhere are other names.
        assert_eq!(t.find(b"l1Main", b"", b"M.hs:1:1"), None);
        assert!(t.knows_module(b"Main") && !t.knows_module(b"Lib"));
        // Names of one sampled hash (the middle of a long label differs): at most
        // PROBES of them are kept, the rest are not found, and nothing loops.
        let mut t = CcTable::default();
        for i in 0..100u32 {
            let label = format!("aaaaaaaaaaaaaaaaaaaa{i:04}bbbbbbbbbbbbbbbb");
            t.insert(label.as_bytes(), b"M", b"s", CcId(i));
        }
        let found = (0..100u32)
            .filter(|i| {
                let label = format!("aaaaaaaaaaaaaaaaaaaa{i:04}bbbbbbbbbbbbbbbb");
                t.find(label.as_bytes(), b"M", b"s") == Some(CcId(*i))
            })
            .count();
        assert_eq!(found, PROBES);
        // Too long for a slot: never found, never kept.
        let huge = vec![b'y'; 70_000];
        t.insert(&huge, b"M", b"s", CcId(7));
        assert_eq!(t.find(&huge, b"M", b"s"), None);
    }
}
