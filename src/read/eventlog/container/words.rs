//! What the framer's quick path ([`super::framing::Framer::quick`]) knows of each event
//! type, a word each, made once per header from its declarations and the events table.

use super::fields;
use super::header::{Size, Types};
use crate::read::eventlog::events::{posted_by, BLOCK_MARKER};

/// [`super::framing::Framer::quick`]'s word for a type: its fixed size, or
pub(super) const VARIABLE: u32 = 1 << 16;
/// GHC posts it to the global buffer ([`posted_by`]),
pub(super) const GLOBAL: u32 = 1 << 17;
/// or to a capability's;
pub(super) const CAPABILITY: u32 = 1 << 18;
/// an event of the type may follow quickly: declared, not a marker or a census event;
pub(super) const FOLLOWS: u32 = 1 << 19;
/// and may be framed quickly itself: not a marker, variable-size only if its fields are
/// known.
pub(super) const FRAMES: u32 = 1 << 20;

/// The word of each type below 256 (every type GHC writes); 0 for the rest.
pub(super) fn table(types: &Types) -> Box<[u32; 256]> {
    let mut quick = Box::new([0u32; 256]);
    for (id, word) in (0u16..).zip(quick.iter_mut()) {
        let size = match types.size(id) {
            Size::Undeclared => continue,
            Size::Fixed(n) if n <= 0xFFFF => n as u32,
            Size::Fixed(_) => continue,
            Size::Variable => VARIABLE,
        };
        let buffer = match posted_by(id) {
            Some(true) => GLOBAL,
            Some(false) => CAPABILITY,
            None => 0,
        };
        let follows = id != BLOCK_MARKER;
        let frames = id != BLOCK_MARKER && (size != VARIABLE || fields::known(id));
        *word = size | buffer | if follows { FOLLOWS } else { 0 } | if frames { FRAMES } else { 0 };
    }
    quick
}
