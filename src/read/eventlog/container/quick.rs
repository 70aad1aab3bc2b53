//! The framer's quick path: the bulk of a log, events whose checks need no more than a
//! word per type, in a loop that keeps its few values in registers.

use super::bounds::EARLY;
use super::framing::{Framer, Head};
use super::window::Window;
use super::words::{CAPABILITY, FOLLOWS, FRAMES, GLOBAL, VARIABLE};

impl Framer<'_> {
    /// [`Self::step`] for the bulk of a log, in a tight loop from `at`: while the header
    /// at `at` is already seen to stand, in a block and not a marker; its event whole
    /// and ending by `limit`; and the next header, in the same block, of a type that
    /// needs no more than [`Self::look`]'s checks of order, span and buffer (not a
    /// marker or the end), each event goes to
    /// `take(head, at, payload)`, which takes it if its fields fill its payload (a caller
    /// that reads the payload anyway tells on the way, as [`super::fields::fill`] does). Returns
    /// where it stopped: an event it leaves to [`Self::step_fully`], which decides it the
    /// same way.
    #[inline(always)]
    pub(crate) fn quick<'b>(
        &mut self,
        w: &Window<'b>,
        mut at: usize,
        limit: usize,
        mut take: impl FnMut(Head, usize, &'b [u8]) -> bool,
    ) -> usize {
        let (Some((offset, mut h)), Some(mut block)) = (self.state.ahead, self.state.block) else {
            return at;
        };
        let Some(end) = block.end else {
            return at;
        };
        if offset != w.offset(at) {
            return at;
        }
        let (early, elsewhere) = match block.global {
            Some(true) => (0, CAPABILITY),
            Some(false) => (EARLY, GLOBAL),
            None => (EARLY, 0),
        };
        // The block's end as an index of the window, and the word of the event at `at`.
        let end = usize::try_from(end.saturating_sub(w.base)).unwrap_or(usize::MAX);
        let mut word = self.quick.get(usize::from(h.id)).copied().unwrap_or(0);
        loop {
            let next = at + h.head + h.len;
            if word & FRAMES == 0 || next > limit {
                break;
            }
            let Some(&then) = w.bytes.get(next..).and_then(|b| b.first_chunk::<12>()) else {
                break;
            };
            let id = u16::from_be_bytes([then[0], then[1]]);
            let Some(&k) = self.quick.get(usize::from(id)) else {
                break;
            };
            let (head, len) = match k & VARIABLE {
                0 => (10, (k & 0xFFFF) as usize),
                _ => (12, usize::from(u16::from_be_bytes([then[10], then[11]]))),
            };
            let mut time = [0u8; 8];
            time.copy_from_slice(&then[2..10]);
            let time = u64::from_be_bytes(time);
            let last = block.last.max(h.time);
            let standing = k & FOLLOWS != 0
                && k & elsewhere == 0
                && next + head + len <= end
                && time.saturating_add(early) >= last
                && time <= block.to;
            if !standing || !take(h, at, &w.bytes[at + h.head..next]) {
                break;
            }
            block.last = last;
            h = Head {
                id,
                time,
                head,
                len,
            };
            word = k;
            at = next;
        }
        self.state.block = Some(block);
        self.state.ahead = Some((w.offset(at), h));
        at
    }
}
