//! Framing: where each event of the data section starts and ends.
//!
//! Sizes come from the header: a fixed-size event takes its declared size, a
//! variable-size one the length it states, so a type nobody knows is skipped without
//! knowing what it means. Every event is checked against the block it lies in (GHC's
//! blocks tile the data, and a block marker gives its block's end and time span: in every
//! real log examined, 8.2 to 9.10, every event lies inside both), and so is the header
//! after it, before the event is handed out. When that next header does not fit, the
//! variable-size heap events are framed by their fields instead ([`fields`]; GHC 9.10
//! declares its IPE events one byte too long), and otherwise the bytes are damaged:
//! [`super::resync`] finds where valid events go on.
//!
//! The framer looks at a [`Window`] of the input. Its decisions depend only on the bytes
//! and on the block around them, never on how much of the input the window holds: when
//! a decision needs bytes the window lacks, it asks for them ([`More`]) and is made again
//! with them, so a stream and a mapped file, read in one pass or by workers in runs of
//! blocks, are framed alike.

use super::bounds::{Block, Fault, EARLY, LONGEST};
use super::fields;
use super::header::{Size, Types};
use super::notes::Notes;
use super::window::{Need, Window};
use super::words;
use super::{u16_at, u32_at, u64_at};

// The block marker, whose first payload field is the size of its block.
use crate::read::eventlog::events::{posted_by, BLOCK_MARKER};
/// The end marker, in the place of an event type.
const END: u16 = 0xFFFF;
/// The longest payload a length field can state.
pub(super) const MAX_PAYLOAD: usize = 0xFFFF;

/// An event's type, timestamp, header length (10, or 12 with a length field) and payload
/// length, as the header declares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    pub(crate) id: u16,
    pub(crate) time: u64,
    pub(crate) head: usize,
    pub(crate) len: usize,
}

/// What the bytes at a position are, to the framer.
pub(super) enum Seen {
    /// The end marker.
    End,
    /// The input ends inside the header or the payload.
    Cut,
    /// Not an event that can stand here; `framed` is how its header frames it, when its
    /// type is declared.
    Bad {
        framed: Option<Head>,
        fault: Fault,
    },
    Event(Head),
}

/// How the framer reads on: the block it is in, and whether it is skipping damage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct State {
    pub(super) block: Option<Block>,
    pub(super) scanning: bool,
    /// The header at this offset, already seen to stand there: the check of the header
    /// after an event is not made twice.
    pub(super) ahead: Option<(u64, Head)>,
}

impl State {
    /// Whether `offset`, where a run of blocks starts, lies outside the current block:
    /// whoever framed a run starting there without knowing what came before framed it
    /// as the one-pass reading does.
    pub(crate) fn between_blocks(&self, offset: u64) -> bool {
        !self.scanning
            && self
                .block
                .map_or(true, |b| b.end.is_some() && !b.holds(offset))
    }
}

/// What comes next, from a position of the window.
pub(crate) enum Step {
    /// An event: its header, the payload length it is framed with (the declared one, or
    /// where its fields end), and where the next one starts.
    Event { head: Head, len: usize, next: usize },
    /// The end marker (2 bytes).
    End,
    /// The input ends inside an event or where one should start.
    Truncated,
    /// The bytes up to `to` are damaged: skipped.
    Damaged { to: usize },
}

/// Frames the data section, event by event.
#[derive(Clone)]
pub(crate) struct Framer<'t> {
    pub(super) types: &'t Types,
    pub(crate) state: State,
    pub(crate) notes: Notes,
    /// What [`Self::quick`] needs to know of each type below 256 (all GHC writes).
    pub(super) quick: Box<[u32; 256]>,
}

impl<'t> Framer<'t> {
    /// A framer at the start of the data, outside any block.
    pub(crate) fn new(types: &'t Types) -> Self {
        Framer {
            types,
            state: State::default(),
            notes: Notes::default(),
            quick: words::table(types),
        }
    }

    /// What comes at `at`. Changes nothing when it asks for more of the input.
    #[inline(always)]
    pub(crate) fn step(&mut self, w: &Window<'_>, at: usize) -> Need<Step> {
        let mut taken = None;
        self.quick(w, at, usize::MAX, |h, _, payload| {
            // One event at a time: taken if it fills, and the loop ends after it.
            let fills = taken.is_none() && fields::fill(h.id, payload);
            if fills {
                taken = Some(h);
            }
            fills
        });
        match taken {
            Some(head) => Ok(Step::Event {
                head,
                len: head.len,
                next: at + head.head + head.len,
            }),
            None => self.step_fully(w, at),
        }
    }

    /// [`Self::step`], every case.
    pub(crate) fn step_fully(&mut self, w: &Window<'_>, at: usize) -> Need<Step> {
        // A block that ended before `at` bounds nothing here. Forgotten, as a worker that
        // starts a run of blocks at `at` never knew it: the decisions after damage at a
        // block's end (is the event there outside any block?) are then the same either way.
        self.state.block = self.state.block.filter(|b| b.holds(w.offset(at)));
        if self.state.scanning {
            return self.skip_damage(w, at, at);
        }
        let seen = match self.state.ahead.take() {
            Some((offset, h)) if offset == w.offset(at) => Seen::Event(h),
            _ => self.look(w, at, self.state.block)?,
        };
        match seen {
            Seen::End => Ok(Step::End),
            Seen::Cut => Ok(Step::Truncated),
            Seen::Bad { framed, fault } => self.recover_at(w, at, framed, fault),
            Seen::Event(h) => {
                let next = at + h.head + h.len;
                let Some(payload) = w.get(at + h.head, h.len)? else {
                    return Ok(Step::Truncated);
                };
                let after = self.after(self.state.block, w, at, &h, h.len);
                let (goes_on, then) = self.goes_on(w, &h, next, after)?;
                if goes_on && fields::fill(h.id, payload) {
                    self.state.block = after;
                    self.state.ahead = then.map(|then| (w.offset(next), then));
                    return Ok(Step::Event {
                        head: h,
                        len: h.len,
                        next,
                    });
                }
                self.settle(w, at, h, goes_on)
            }
        }
    }

    /// Whether an event can stand at `next`, after the event `h`, inside `after` (and
    /// that event's header, if it is one). After a variable-size event whose fields are
    /// not known, and so whose length nothing else vouches for, the event after that one
    /// too.
    #[inline(always)]
    fn goes_on(
        &self,
        w: &Window<'_>,
        h: &Head,
        next: usize,
        after: Option<Block>,
    ) -> Need<(bool, Option<Head>)> {
        let seen = self.look(w, next, after)?;
        let then = match seen {
            Seen::Bad { .. } => return Ok((false, None)),
            Seen::Event(then) => then,
            _ => return Ok((true, None)),
        };
        if h.head == 12 && !fields::known(h.id) && w.get(next + then.head, then.len)?.is_some() {
            let block = self.after(after, w, next, &then, then.len);
            let seen = self.look(w, next + then.head + then.len, block)?;
            return Ok((!matches!(seen, Seen::Bad { .. }), Some(then)));
        }
        Ok((true, Some(then)))
    }

    /// Frames an event whose fields do not fill its declared payload, or whose next
    /// header does not fit: by its fields if valid events go on where they end, else by
    /// its declared size if they go on there, else damage.
    fn settle(&mut self, w: &Window<'_>, at: usize, h: Head, goes_on: bool) -> Need<Step> {
        if fields::known(h.id) {
            let from = at + h.head;
            if let Some(f) = self.fields_end(w, at, &h)?.filter(|&f| f != h.len) {
                // Fields that end before the declared size: their end first, as appended
                // fields would hardly pass for events, while a length that lies may well
                // end where some later event starts. Fields that run past it: GHC never
                // writes those, so the fields are damaged if events go on after the size.
                let by_fields = self.after(self.state.block, w, at, &h, f);
                if f < h.len && self.chain(w, from + f, by_fields)? {
                    // GHC 9.10's runtime declares every IPE event a byte long: known,
                    // counted apart, not warned about.
                    let note = match h.id == 169 && f + 1 == h.len {
                        true => &mut self.notes.ipe_one_byte_long,
                        false => &mut self.notes.by_fields,
                    };
                    note.add(w.offset(at), h.id);
                    return Ok(self.accept(w, at, h, f));
                }
                let declared = self.after(self.state.block, w, at, &h, h.len);
                if goes_on && self.chain(w, from + h.len, declared)? {
                    if f < h.len {
                        self.notes.extra_bytes.add(w.offset(at), h.id);
                    }
                    return Ok(self.accept(w, at, h, h.len));
                }
                if f > h.len && self.chain(w, from + f, by_fields)? {
                    self.notes.by_fields.add(w.offset(at), h.id);
                    return Ok(self.accept(w, at, h, f));
                }
            }
        }
        if goes_on {
            return Ok(self.accept(w, at, h, h.len));
        }
        self.recover_after(w, at, h)
    }

    /// Where the fields of the heap event `h` at `at` end, from its payload's start, if
    /// they end within the largest payload a length can state.
    pub(super) fn fields_end(&self, w: &Window<'_>, at: usize, h: &Head) -> Need<Option<usize>> {
        let from = at + h.head;
        let room = match w.get(from, MAX_PAYLOAD)? {
            Some(_) => MAX_PAYLOAD,
            None => w.bytes.len().saturating_sub(from),
        };
        Ok(fields::end(h.id, &w.bytes[from..from + room]))
    }

    /// Hands out the event at `at` framed with a payload of `len` bytes.
    pub(super) fn accept(&mut self, w: &Window<'_>, at: usize, h: Head, len: usize) -> Step {
        self.state.block = self.after(self.state.block, w, at, &h, len);
        Step::Event {
            head: h,
            len,
            next: at + h.head + len,
        }
    }

    /// The block after the event `h` at `at` (framed with `len` payload bytes, all in the
    /// window), which lies in `block`: the marker's own block, the same block, or none
    /// once it has ended.
    pub(super) fn after(
        &self,
        block: Option<Block>,
        w: &Window<'_>,
        at: usize,
        h: &Head,
        len: usize,
    ) -> Option<Block> {
        let start = w.offset(at);
        if h.id == BLOCK_MARKER && len >= 14 {
            let p = &w.bytes[at + h.head..];
            return Some(Block {
                start,
                end: Some(start + u64::from(u32_at(p, 0))),
                to: u64_at(p, 4),
                opened: h.time,
                last: h.time,
                global: Some(u16_at(p, 12) == 0xFFFF),
            });
        }
        block
            .filter(|b| b.holds(start + (h.head + len) as u64))
            .map(|b| Block {
                last: b.last.max(h.time),
                ..b
            })
    }

    /// Whether an event can stand at `at` inside `block`: its type declared, and, in a
    /// block, of the block's buffer, inside the block's bytes and time span, not earlier than
    /// the events before it; a block marker where a block ends (or anywhere outside
    /// blocks) whose block is sane; an end marker after every block or in the last two
    /// bytes of the last one (GHC ≥ 9.2).
    #[inline(always)]
    pub(super) fn look(&self, w: &Window<'_>, at: usize, block: Option<Block>) -> Need<Seen> {
        let bad = |framed, fault| Seen::Bad { framed, fault };
        let Some(b) = w.get(at, 2)? else {
            return Ok(Seen::Cut);
        };
        let start = w.offset(at);
        let inside = block.filter(|b| b.holds(start));
        let id = u16_at(b, 0);
        if id == END {
            // Inside a block only as its last two bytes, or as the input's last.
            return Ok(match inside.and_then(|b| b.end) {
                Some(end) if start + 2 != end && w.get(at + 2, 1)?.is_some() => {
                    bad(None, Fault::Undeclared)
                }
                _ => Seen::End,
            });
        }
        let (head, len) = match self.types.size(id) {
            Size::Fixed(n) => (10, n),
            Size::Variable => match w.get(at, 12)? {
                Some(b) => (12, usize::from(u16_at(b, 10))),
                None => return Ok(Seen::Cut),
            },
            Size::Undeclared => return Ok(bad(None, Fault::Undeclared)),
        };
        let Some(b) = w.get(at, 10)? else {
            return Ok(Seen::Cut);
        };
        let h = Head {
            id,
            time: u64_at(b, 2),
            head,
            len,
        };
        if id == BLOCK_MARKER && len >= 14 {
            let Some(p) = w.get(at + 10, 14)? else {
                return Ok(Seen::Cut);
            };
            let to = u64_at(p, 4);
            let sane =
                u32_at(p, 0) as usize >= head + len && to >= h.time && to - h.time <= LONGEST;
            return Ok(match inside {
                _ if !sane => bad(Some(h), Fault::Insane),
                Some(b) if b.end.is_some() => bad(Some(h), Fault::Inside),
                _ => Seen::Event(h),
            });
        }
        if let Some(b) = inside {
            if b.end.is_some_and(|end| start + ((head + len) as u64) > end) {
                return Ok(bad(Some(h), Fault::Crosses));
            }
            if posted_by(id)
                .zip(b.global)
                .is_some_and(|(by, global)| by != global)
            {
                return Ok(bad(Some(h), Fault::Buffer));
            }
            let early = if b.global == Some(true) { 0 } else { EARLY };
            if h.time.saturating_add(early) < b.last || h.time > b.to {
                return Ok(bad(Some(h), Fault::Span));
            }
        }
        Ok(Seen::Event(h))
    }
}

#[cfg(test)]
mod tests;
