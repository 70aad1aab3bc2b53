//! The cost centres a report's rows name, found by their bytes (label, module, source
//! location) with one hash and one probe a row: a million rows name a few thousand
//! cost centres, and making text of each row's names to intern them was most of the
//! reading. A new one is the builder's to make (it interns the texts, and cuts long
//! ones); two names of one hash (which a hostile file can make) leave the second to the
//! builder every time, which is slower, never wrong.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

use crate::calltree::CcId;
use crate::intern::{hash_bytes, quick_hash, same};

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = hash_bytes(bytes);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// One cost centre's names in the arena, and its id.
struct Entry {
    label: Range<usize>,
    module: Range<usize>,
    src: Range<usize>,
    cc: CcId,
}

/// The cost centres met, by their names' bytes.
#[derive(Default)]
pub(super) struct CcTable {
    by_hash: HashMap<u64, u32, BuildHasherDefault<Identity>>,
    entries: Vec<Entry>,
    arena: Vec<u8>,
    modules: HashSet<Vec<u8>>,
}

/// A hash of three names: each one's length and a few of its words
/// ([`quick_hash`]), enough to tell a report's cost centres apart; names that share it
/// are told apart by comparing them, and the table keeps the first.
#[inline]
fn hash3(label: &[u8], module: &[u8], src: &[u8]) -> u64 {
    let h =
        quick_hash(label) ^ quick_hash(module).rotate_left(21) ^ quick_hash(src).rotate_left(42);
    h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (h >> 29)
}

impl CcTable {
    /// The cost centre of these names, if met before.
    pub(super) fn find(&self, label: &[u8], module: &[u8], src: &[u8]) -> Option<CcId> {
        let &i = self.by_hash.get(&hash3(label, module, src))?;
        let e = &self.entries[i as usize];
        let a = &self.arena;
        (same(&a[e.label.clone()], label)
            && same(&a[e.module.clone()], module)
            && same(&a[e.src.clone()], src))
        .then_some(e.cc)
    }

    /// Remembers the names of `cc` (unless another's names have their hash).
    pub(super) fn insert(&mut self, label: &[u8], module: &[u8], src: &[u8], cc: CcId) {
        if !self.modules.contains(module) {
            self.modules.insert(module.to_vec());
        }
        let hash = hash3(label, module, src);
        if self.by_hash.contains_key(&hash) {
            return;
        }
        let mut span = |part: &[u8]| {
            let start = self.arena.len();
            self.arena.extend_from_slice(part);
            start..self.arena.len()
        };
        let entry = Entry {
            label: span(label),
            module: span(module),
            src: span(src),
            cc,
        };
        self.by_hash.insert(hash, self.entries.len() as u32);
        self.entries.push(entry);
    }

    /// Whether a module of this name was met.
    pub(super) fn knows_module(&self, module: &[u8]) -> bool {
        self.modules.contains(module)
    }
}
