//! The container: the bytes of an eventlog, read as a stream or in place ([`source`]),
//! its header of event-type declarations ([`header`]), and the framing of its events:
//! the part of the input a decision looks at ([`window`]), the blocks and what may stand
//! in them ([`bounds`]), where the variable-size heap events' fields end ([`fields`]),
//! each event and the header after it checked ([`framing`], its bulk in [`quick`]), the
//! recovery after damage ([`resync`]) and what was tolerated ([`notes`]); and where a
//! mapped log can be cut for the workers ([`block_runs`]).
//!
//! Nothing here knows what an event means beyond its framing: its size, the block markers
//! that frame everything, which buffer GHC posts each type to, the census events' eras,
//! and where the variable-size heap events' fields end.

mod block_runs;
mod bounds;
mod fields;
mod framing;
mod header;
mod notes;
mod quick;
mod resync;
mod source;
mod window;

use std::io;

pub(crate) use block_runs::BlockRuns;
pub(crate) use fields::{fill as fields_fill, label};
pub(crate) use framing::{Framer, Head, State, Step};
pub(crate) use header::{read_header, Size, Types};
pub(crate) use notes::Notes;
pub(crate) use source::{Input, SliceInput, Source};
pub(crate) use window::{More, Window};

/// One framed event: `payload` is its declared or stated payload, or what its fields
/// hold when it was framed by them.
pub(crate) struct RawEvent<'a> {
    pub(crate) id: u16,
    pub(crate) time: u64,
    /// File offset of the event's type field.
    pub(crate) offset: u64,
    pub(crate) payload: &'a [u8],
}

/// What comes next in the data section.
pub(crate) enum Next<'a> {
    Event(RawEvent<'a>),
    /// The 0xFFFF end marker (consumed).
    End,
    /// The input ended inside an event or where an event should start.
    Truncated {
        offset: u64,
    },
    /// The bytes `from..to` are damaged: skipped (consumed).
    Damaged {
        from: u64,
        to: u64,
    },
}

/// Frames the next event of a stream.
pub(crate) fn next_event<'a, I: Source>(
    input: &'a mut I,
    framer: &mut Framer<'_>,
) -> io::Result<Next<'a>> {
    let mut eof = false;
    let step = loop {
        let w = Window {
            bytes: input.available(),
            base: input.offset(),
            eof,
        };
        match framer.step(&w, 0) {
            Ok(step) => break step,
            Err(More(n)) => eof = !input.fill(n)?,
        }
    };
    let offset = input.offset();
    Ok(match step {
        Step::Event { head, len, next } => {
            input.consume(next);
            let b = input.consumed(next);
            Next::Event(RawEvent {
                id: head.id,
                time: head.time,
                offset,
                payload: &b[head.head..head.head + len],
            })
        }
        Step::End => {
            input.consume(2);
            Next::End
        }
        Step::Truncated => Next::Truncated { offset },
        Step::Damaged { to } => {
            input.consume(to);
            Next::Damaged {
                from: offset,
                to: offset + to as u64,
            }
        }
    })
}

/// The event at `at` of `bytes` (the whole input), framed with a payload of `len` bytes
/// as a [`Framer`] framed it.
pub(crate) fn event_in<'a>(bytes: &'a [u8], types: &Types, at: usize, len: usize) -> RawEvent<'a> {
    let id = u16_at(bytes, at);
    let head = match types.size(id) {
        Size::Variable => 12,
        _ => 10,
    };
    RawEvent {
        id,
        time: u64_at(bytes, at + 2),
        offset: at as u64,
        payload: &bytes[at + head..at + head + len],
    }
}

pub(crate) fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_be_bytes(w)
}
