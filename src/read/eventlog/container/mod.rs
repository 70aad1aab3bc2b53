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
mod next;
mod notes;
mod numbers;
mod quick;
mod resync;
mod source;
mod window;
mod words;

pub(crate) use block_runs::BlockRuns;
pub(crate) use fields::{fill as fields_fill, label};
pub(crate) use framing::{Framer, Head, State, Step};
pub(crate) use header::{read_header, Types};
pub(crate) use next::{event_in, next_event, Next, RawEvent};
pub(crate) use notes::Notes;
pub(crate) use numbers::{u16_at, u32_at, u64_at};
pub(crate) use source::{Input, SliceInput, Source};
pub(crate) use window::Window;
