//! [`Names`]: each distinct text of a tree (a label, a module, a source location) kept
//! once, in one string, and referred to by a number. A profile of a million stacks names
//! a few thousand cost centres: the nodes hold numbers, not strings.

use crate::intern::{hash_bytes, NameIndex};

/// Interned texts: one `String` holding them all, their ends, and an index by text.
#[derive(Default)]
pub(crate) struct Names {
    /// Every text, one after the other.
    text: String,
    /// Where each text ends in `text` (the next one starts there).
    ends: Vec<u32>,
    /// The texts by their hash: an open-addressing table over the ids, the texts staying
    /// in `text` (no second copy).
    index: NameIndex,
}

impl Clone for Names {
    fn clone(&self) -> Self {
        let mut names = Names::default();
        for id in 0..self.len() {
            names.intern(self.get(id as u32));
        }
        names
    }
}

impl std::fmt::Debug for Names {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries((0..self.len()).map(|id| self.get(id as u32)))
            .finish()
    }
}

impl Names {
    /// The number of the text `name`, a new one if it is new.
    pub(crate) fn intern(&mut self, name: &str) -> u32 {
        let hash = hash_bytes(name.as_bytes());
        let (text, ends) = (&self.text, &self.ends);
        let name_of = |id: u32| span(text, ends, id).as_bytes();
        match self.index.find(name.as_bytes(), hash, name_of) {
            Ok(id) => id,
            Err(slot) => {
                let id = self.ends.len() as u32;
                self.text.push_str(name);
                self.ends.push(self.text.len() as u32);
                self.index.insert(slot, hash, id);
                id
            }
        }
    }

    /// The text of number `id` (empty for a number never given).
    pub(crate) fn get(&self, id: u32) -> &str {
        span(&self.text, &self.ends, id)
    }

    /// How many texts there are.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The bytes held, for the memory budget's estimate.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.ends.capacity() * 4
    }
}

/// Text `id` of `text` cut at `ends`.
fn span<'a>(text: &'a str, ends: &[u32], id: u32) -> &'a str {
    let i = id as usize;
    let Some(&end) = ends.get(i) else { return "" };
    let start = if i == 0 { 0 } else { ends[i - 1] };
    text.get(start as usize..end as usize).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_kept_once_and_found_again() {
        let mut n = Names::default();
        let a = n.intern("main");
        let b = n.intern("Main");
        let c = n.intern("");
        assert_eq!(n.intern("main"), a);
        assert_ne!(a, b);
        assert_eq!((n.get(a), n.get(b), n.get(c)), ("main", "Main", ""));
        assert_eq!(n.get(99), "");
        let many: Vec<u32> = (0..5000).map(|i| n.intern(&format!("cc{i}"))).collect();
        assert!(many
            .iter()
            .enumerate()
            .all(|(i, &id)| n.get(id) == format!("cc{i}")));
        assert_eq!(n.clone().intern("cc4999"), many[4999]);
        assert_eq!(n.len(), 5003);
    }
}
