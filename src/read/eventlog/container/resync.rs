//! After damage: where valid events go on.
//!
//! A position is where valid events go on when [`CHAIN`] event headers in a row stand
//! there (each of a declared type, inside its block's bytes and time span: see
//! [`Framer::look`]), or the input ends cleanly. In a real log a block's time span is a
//! second or so out of 2^64 ns, so a run of damaged or misread bytes almost never passes
//! for three headers. The framer tries the explanations that lose least first:
//!
//! 1. one event whose timestamp alone is out of order: that event is read with the time
//!    of the event before it (a census's BEGIN is skipped: its time is the census's);
//!    one whose length runs past its block: read by its fields; a block marker that
//!    cannot be one: skipped;
//! 2. a block marker that lies about its size, span or capability, when valid events go
//!    on without that one bound: the bound is dropped, nothing is skipped;
//! 3. otherwise the bytes up to the next such position are skipped.

use super::bounds::{Block, Fault};
use super::fields;
use super::framing::{Framer, Head, Seen, Step, MAX_PAYLOAD};
// HEAP_PROF_SAMPLE_BEGIN: its timestamp is its census's time.
use super::window::{Need, Window};
use crate::read::eventlog::events::{BLOCK_MARKER, HEAP_PROF_SAMPLE_BEGIN as CENSUS_BEGIN};

/// Headers in a row that show valid events go on.
const CHAIN: usize = 3;
/// The same outside blocks, where no time span checks the headers (GHC writes no such
/// events but in 7.x logs' first bytes; tests build whole logs so).
const LOOSE_CHAIN: usize = 8;
/// How far one step of skipping damage scans. A stream goes on scanning from there in
/// the next step, so that its buffer never holds more than this and a decision's
/// lookahead ([`DECIDE`]); it is longer than any event, so that the event before damage
/// is always judged within one step.
const SCAN: usize = 1 << 17;
/// The bytes a chain may look at: [`CHAIN`] events of the largest size.
const DECIDE: usize = LOOSE_CHAIN * (12 + MAX_PAYLOAD) + 24;

impl Framer<'_> {
    /// Whether valid events go on at `at`, which lies in `block`.
    pub(super) fn chain(&self, w: &Window<'_>, at: usize, block: Option<Block>) -> Need<bool> {
        self.chain_or_cut(w, at, block, true)
    }

    /// [`Self::chain`], where the input's end inside an event counts as valid events
    /// going on only if `cut_ok`.
    fn chain_or_cut(
        &self,
        w: &Window<'_>,
        mut at: usize,
        mut block: Option<Block>,
        cut_ok: bool,
    ) -> Need<bool> {
        let depth = if block.is_some() { CHAIN } else { LOOSE_CHAIN };
        for _ in 0..depth {
            match self.look(w, at, block)? {
                Seen::Bad { .. } => return Ok(false),
                Seen::Cut => return Ok(cut_ok),
                // The end only where the input ends: two 0xFF bytes are common in data.
                Seen::End => return Ok(w.get(at + 2, 1)?.is_none()),
                Seen::Event(h) => {
                    let Some(payload) = w.get(at + h.head, h.len)? else {
                        return Ok(cut_ok);
                    };
                    // Framed as the framer would: by its fields when they do not fill
                    // its declared size and no event can stand after that.
                    let mut len = h.len;
                    if !fields::fill(h.id, payload) && fields::known(h.id) {
                        let declared = self.after(block, w, at, &h, len);
                        let next = at + h.head + len;
                        if let Seen::Bad { .. } = self.look(w, next, declared)? {
                            len = self.fields_end(w, at, &h)?.unwrap_or(len);
                        }
                    }
                    block = self.after(block, w, at, &h, len);
                    at += h.head + len;
                }
            }
        }
        Ok(true)
    }

    /// Recovers at `at`, where no event can stand (`framed` is how its header frames it,
    /// if its type is declared; `fault` what is wrong with it).
    pub(super) fn recover_at(
        &mut self,
        w: &Window<'_>,
        at: usize,
        framed: Option<Head>,
        fault: Fault,
    ) -> Need<Step> {
        // 1. Valid events go on after it: it alone is damaged, and maybe usable.
        if let Some(h) = framed {
            if let Some(step) = self.alone(w, at, h, fault)? {
                return Ok(step);
            }
        }
        // 2. Valid events go on here, but for what the block's marker would have lied
        // about (seen whole: a length that runs past the input's end may be what broke
        // the bounds).
        let lie = (self.state.block.zip(framed))
            .and_then(|(block, h)| Some((block.start, block.without_lie(fault, h.time)?)));
        if let Some((marker, without)) = lie {
            if self.chain_or_cut(w, at, Some(without), false)? {
                let mut unbound = self.clone();
                unbound.state.block = Some(without);
                unbound.notes.marker_lies.add(marker, BLOCK_MARKER);
                let step = unbound.step(w, at)?;
                *self = unbound;
                return Ok(step);
            }
        }
        // 3. Skip to where valid events go on.
        self.skip_damage(w, at, at + 1)
    }

    /// The event `h` at `at`, which cannot stand as it is (`fault`), when valid events go
    /// on after it: one whose time alone is out of its block's order is read with the
    /// time of the event before it (but a census's BEGIN, whose time is the census's, is
    /// skipped); one that runs past its block is read by its fields; a block marker that
    /// cannot be one is skipped, and its block read without bounds.
    fn alone(&mut self, w: &Window<'_>, at: usize, h: Head, fault: Fault) -> Need<Option<Step>> {
        let block = self.state.block;
        let (h, len) = match fault {
            Fault::Span => {
                let last = block.map_or(h.time, |b| b.last);
                (Head { time: last, ..h }, h.len)
            }
            Fault::Crosses if fields::known(h.id) => match self.fields_end(w, at, &h)? {
                Some(f) => (h, f),
                None => return Ok(None),
            },
            Fault::Insane if h.id == BLOCK_MARKER => (h, h.len),
            _ => return Ok(None),
        };
        if w.get(at + h.head, len)?.is_none() {
            return Ok(None);
        }
        let next = at + h.head + len;
        // A damaged marker's block has no bounds to trust.
        let after = match fault {
            Fault::Insane => None,
            _ => self.after(block, w, at, &h, len),
        };
        if !self.chain(w, next, after)? {
            return Ok(None);
        }
        let offset = w.offset(at);
        Ok(Some(match fault {
            Fault::Span if h.id == CENSUS_BEGIN => {
                self.state.block = after;
                Step::Damaged { to: next }
            }
            Fault::Span => {
                self.notes.retimed.add(offset, h.id);
                self.accept(w, at, h, len)
            }
            Fault::Crosses => {
                self.notes.by_fields.add(offset, h.id);
                self.accept(w, at, h, len)
            }
            _ => {
                self.state.block = None;
                Step::Damaged { to: next }
            }
        }))
    }

    /// Recovers after the event `h` at `at`, which can stand there, but after which no
    /// event can:
    ///
    /// 1. if valid events go on after the next event, that one is damaged: `h` stands;
    /// 2. if they go on after `h` as if `h` had the time of the event before it (its own
    ///    is later than the events after it), its time is damaged: as in
    ///    [`Self::alone`], it is read with that time, or skipped if it begins a census;
    /// 3. it is damaged if valid events go on inside it (its length lied, or its type:
    ///    it is part of another event), except a heap event whose fields fill its length
    ///    exactly (they vouch for it), or a fixed-size one outside blocks (where a run of
    ///    zeros passes for events too easily);
    /// 4. otherwise it stands, and the damage starts after it.
    pub(super) fn recover_after(&mut self, w: &Window<'_>, at: usize, h: Head) -> Need<Step> {
        let next = at + h.head + h.len;
        let after = self.after(self.state.block, w, at, &h, h.len);
        if let Seen::Bad {
            framed: Some(x),
            fault: Fault::Span | Fault::Insane,
        } = self.look(w, next, after)?
        {
            if w.get(next + x.head, x.len)?.is_some() {
                let after_x = self.after(after, w, next, &x, x.len);
                if self.chain(w, next + x.head + x.len, after_x)? {
                    return Ok(self.accept(w, at, h, h.len));
                }
            }
        }
        if let Some(block) = self.state.block.filter(|_| h.id != BLOCK_MARKER) {
            let retimed = Head {
                time: block.last,
                ..h
            };
            let without = self.after(self.state.block, w, at, &retimed, h.len);
            if without.is_some() && self.chain(w, next, without)? {
                if h.id == CENSUS_BEGIN {
                    self.state.block = without;
                    return Ok(Step::Damaged { to: next });
                }
                self.notes.retimed.add(w.offset(at), h.id);
                return Ok(self.accept(w, at, retimed, h.len));
            }
        }
        let vouched = match w.get(at + h.head, h.len)? {
            Some(payload) => fields::known(h.id) && fields::fill(h.id, payload),
            None => false,
        };
        if vouched || (h.head == 10 && self.state.block.is_none()) {
            return Ok(self.accept(w, at, h, h.len));
        }
        let (on, _) = self.scan(w, at + 1)?;
        if on >= next {
            return Ok(self.accept(w, at, h, h.len));
        }
        self.state.block = self.state.block.filter(|b| b.holds(w.offset(on)));
        Ok(Step::Damaged { to: on })
    }

    /// Skips damaged bytes from `at` to where valid events go on, scanning from `from`;
    /// at most [`SCAN`] bytes in one step (the next step scans on).
    pub(super) fn skip_damage(&mut self, w: &Window<'_>, at: usize, from: usize) -> Need<Step> {
        let (on, found) = self.scan(w, from)?;
        self.state.scanning = !found;
        self.state.block = self.state.block.filter(|b| b.holds(w.offset(on)));
        Ok(Step::Damaged { to: on.max(at) })
    }

    /// The first position from `from` on where valid events go on (`true`), or where
    /// this step's scan stops (`false`).
    fn scan(&self, w: &Window<'_>, from: usize) -> Need<(usize, bool)> {
        // The whole stretch at once: a stream is then not read again for each position.
        w.get(from, SCAN + DECIDE)?;
        let block = self.state.block;
        for on in from..from + SCAN {
            if w.get(on, 1)?.is_none() {
                return Ok((on, true));
            }
            let inside = block.filter(|b| b.holds(w.offset(on)));
            // Misread bytes near the end may frame as events up to where the input cuts
            // them: only a whole chain (or the end marker) counts here.
            if self.chain_or_cut(w, on, inside, false)? {
                return Ok((on, true));
            }
        }
        Ok((from + SCAN, false))
    }
}
