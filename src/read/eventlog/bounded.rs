//! A long mapped eventlog read in bounded memory (issue 39): twice, keeping no census but
//! the open one. A whole reading keeps every point until the end because the censuses'
//! times are placed only then (the time axis depends on what the whole log holds: GC
//! events, the runtime's threads) and the bands named then ([`super::emit`]). So:
//!
//! 1. [`place`] reads the log as a whole reading does, with every census's points
//!    dropped once it completes, and keeps what the end of that reading hands the sink
//!    (the header, the samples' times, the bands' names, the marks where they stand:
//!    a [`Placement`]) and its report (warnings included).
//! 2. [`stream`] reads it again and hands each census to the sink as it completes, with
//!    the first reading's times and names, statement by statement in the order
//!    [`SampleBlock::replay`] gives the whole reading's block: the same statements, so
//!    any sink (the profile builder keeping every point or only some, a time window)
//!    gets what it would have got.
//!
//! The profile builder names the bands of a block in key order, and those of
//! statements in the order their first point comes: the same order unless damage took
//! the census where a key first came and the key's first kept point is after a later
//! key's. [`place`] tells (`None`: such a log is read whole).

use super::census_out::Bounded;
pub(crate) use super::census_out::Placement;
use super::model::Model;
use super::parallel::{read_slice_into, CHUNK};
use super::{EventlogError, EventlogOptions};
use crate::seam::{HeaderField, SampleBlock, Sink};

/// The first reading of `bytes` (a whole eventlog): its placement (with the bands'
/// totals when `totals`), or `None` when a second reading could not hand its censuses
/// over as the whole reading does (see the module docs). The errors are a whole
/// reading's.
pub(crate) fn place(
    bytes: &[u8],
    opts: &EventlogOptions,
    totals: bool,
    release: &mut dyn FnMut(usize),
) -> Result<Option<Placement>, EventlogError> {
    place_chunked(bytes, opts, totals, release, CHUNK)
}

/// [`place`] with runs of about `chunk` bytes per worker job.
pub(crate) fn place_chunked(
    bytes: &[u8],
    opts: &EventlogOptions,
    totals: bool,
    release: &mut dyn FnMut(usize),
    chunk: usize,
) -> Result<Option<Placement>, EventlogError> {
    let mut m = Model::new(opts);
    m.bounded = Some(Box::new(Bounded::placing(totals)));
    let (end, notes) = read_slice_into(bytes, &mut m, release, chunk)?;
    let mut recorder = Recorder::default();
    let report = m.finish(end, &notes, &mut recorder)?;
    // (After the end: it may complete the last census.)
    let mut bounded = m.bounded.take();
    let in_order = bounded.as_ref().is_some_and(|b| b.keys_in_order());
    let Some(block) = recorder.block.filter(|_| in_order && !recorder.other) else {
        return Ok(None);
    };
    let mut totals = bounded.as_mut().and_then(|b| b.band_totals(&block.names));
    // Its censuses are the samples placed (the builder fed no sample saw none).
    if let Some(t) = &mut totals {
        t.censuses = block.times.len();
    }
    Ok(Some(Placement {
        header: recorder.header,
        block,
        report,
        totals,
    }))
}

/// The second reading of `bytes`, whose first gave `placement`: each census handed to
/// `sink` as it completes, the statements a whole reading's block gives. Returns
/// whether the censuses were the ones placed (always, for the same bytes).
pub(crate) fn stream(
    bytes: &[u8],
    opts: &EventlogOptions,
    placement: &Placement,
    sink: &mut dyn Sink,
    release: &mut dyn FnMut(usize),
) -> Result<bool, EventlogError> {
    stream_chunked(bytes, opts, placement, sink, release, CHUNK)
}

/// [`stream`] with runs of about `chunk` bytes per worker job.
pub(crate) fn stream_chunked(
    bytes: &[u8],
    opts: &EventlogOptions,
    placement: &Placement,
    sink: &mut dyn Sink,
    release: &mut dyn FnMut(usize),
    chunk: usize,
) -> Result<bool, EventlogError> {
    let mut m = Model::new(opts);
    // The times are placed: the GC and scheduler events are not needed again.
    m.keep_time = false;
    m.bounded = Some(Box::new(Bounded::streaming(placement, sink)));
    // The warnings and the report are the first reading's.
    let (end, _) = read_slice_into(bytes, &mut m, release, chunk)?;
    m.end_data(&end);
    Ok(m.bounded.take().is_some_and(|b| b.end_stream()))
}

/// What the end of a first reading hands its sink: the header and the block.
#[derive(Default)]
struct Recorder {
    header: Vec<(HeaderField, Vec<u8>)>,
    block: Option<SampleBlock>,
    /// Anything else was said (the reading's end says nothing else).
    other: bool,
}

impl Sink for Recorder {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        self.header.push((field, text.to_vec()));
    }
    fn mark(&mut self, _: f64) {
        self.other = true;
    }
    fn begin_sample(&mut self, _: f64) {
        self.other = true;
    }
    fn end_sample(&mut self) {
        self.other = true;
    }
    fn data(&mut self, _: &[u8], _: f64) {
        self.other = true;
    }
    fn discard_incomplete_sample(&mut self) -> bool {
        self.other = true;
        false
    }
    fn samples(&mut self, block: SampleBlock) {
        self.other |= self.block.is_some();
        self.block = Some(block);
    }
}
