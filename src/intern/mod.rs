//! Interning names, below the readers and the model alike: the hashes of names
//! (`hash.rs`), the tagged slots and the one probe of every table of names (`table.rs`),
//! and the index the profile builder interns a profile's names in (`index.rs`). The
//! `.hp` and eventlog workers build their own tables from the same parts, and hand
//! [`hash_bytes`] of each name over with it, so that the builder does not hash it again.

mod hash;
mod index;
mod table;

pub(crate) use hash::{hash_bytes, line_hash, line_hash_window, quick_hash, same, FxBuild};
pub(crate) use index::NameIndex;
pub(crate) use table::{fill_tagged, probe, tagged_slot, Probe};
