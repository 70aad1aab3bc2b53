//! The eventlog reader's ways in: a stream in one pass, or bytes already in memory on
//! every core (the same result). They are the crate's; library users read through
//! [`crate::load::load`].

use std::io::Read;

use super::reading::read_from;
use super::{container, parallel, EventlogError, EventlogOptions, EventlogReport};
use crate::seam::Sink;

/// Reads an eventlog into `sink`: header strings, marks, then the samples (an empty one
/// at 0, one per complete census, an empty one at the program's end).
pub fn read_eventlog<R: Read, S: Sink + ?Sized>(
    input: R,
    opts: &EventlogOptions,
    sink: &mut S,
) -> Result<EventlogReport, EventlogError> {
    read_from(&mut container::Input::new(input), opts, sink)
}

/// [`read_eventlog`] of bytes already in memory (a mapped file), read in place, on
/// every core when the log is large (runs of whole blocks scanned by worker threads;
/// the result is the same).
/// `release(n)` is called, every few megabytes, once the first `n` bytes are no longer
/// needed.
pub(crate) fn read_eventlog_slice<S: Sink + ?Sized>(
    bytes: &[u8],
    opts: &EventlogOptions,
    sink: &mut S,
    release: &mut dyn FnMut(usize),
) -> Result<EventlogReport, EventlogError> {
    parallel::read_slice(bytes, opts, sink, release, parallel::CHUNK)
}

/// The reader of bytes in memory on every core (`read_eventlog_slice`), with runs of
/// about `chunk` bytes per worker job (tests use tiny ones to cut between every pair of
/// blocks).
pub fn read_eventlog_slice_chunked<S: Sink + ?Sized>(
    bytes: &[u8],
    opts: &EventlogOptions,
    sink: &mut S,
    chunk: usize,
) -> Result<EventlogReport, EventlogError> {
    parallel::read_slice(bytes, opts, sink, &mut |_| {}, chunk)
}
