//! The next event of the data section, framed: of a stream (the one-pass reading, and a
//! log followed as it is written), or at a place of bytes in memory (the workers').

use std::io;

use super::framing::{Framer, Step};
use super::header::{Size, Types};
use super::numbers::{u16_at, u64_at};
use super::source::Source;
use super::window::{More, Window};

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
