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

use super::model::Model;
use super::parallel::{read_slice_into, CHUNK};
use super::{EventlogError, EventlogOptions, EventlogReport};
use crate::seam::{HeaderField, SampleBlock, Sink};

/// What a first reading of an eventlog hands its sink, without the points, and its
/// report: how a second reading places each census ([`stream`]).
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    header: Vec<(HeaderField, Vec<u8>)>,
    /// The samples' times (the empty first and last included), the bands' names by key,
    /// the marks where they stand; no point.
    block: SampleBlock,
    /// The first reading's report: the reading's, as the second one's would be.
    pub(crate) report: EventlogReport,
}

impl Placement {
    /// Whether the first reading handed over no point (it keeps none).
    #[cfg(test)]
    pub(crate) fn block_has_no_point(&self) -> bool {
        self.block.points.iter().all(Vec::is_empty)
    }
}

/// A reading's state for a bounded reading, in the [`Model`]: the open census's points,
/// and either the first census each key has a point in (the first reading) or where
/// the censuses go (the second).
pub(crate) struct Bounded<'o> {
    /// The open census's points (key, value), in the order they came.
    open: Vec<(u32, f64)>,
    /// By key: the first complete census with a point of it (`u32::MAX`: none yet).
    first: Vec<u32>,
    out: Option<Streamer<'o>>,
}

/// Where the second reading's censuses go.
struct Streamer<'o> {
    placement: &'o Placement,
    sink: &'o mut dyn Sink,
    /// The next sample to give, and how many marks are given.
    sample: usize,
    marks: usize,
    /// More censuses than the first reading placed (never, for the same bytes).
    overflow: bool,
}

impl Bounded<'_> {
    /// Takes a point of the open census.
    #[inline]
    pub(crate) fn push(&mut self, key: u32, value: f64) {
        self.open.push((key, value));
    }

    /// Damage or a cut took the open census.
    pub(crate) fn drop_open(&mut self) {
        self.open.clear();
    }

    /// The open census is complete, the `census`th (from 0).
    pub(crate) fn complete(&mut self, census: usize) {
        // As the block gives a census's points: by band, in file order within one.
        self.open.sort_by_key(|&(key, _)| key);
        match &mut self.out {
            Some(out) => out.sample(census + 1, &self.open),
            None => {
                for &(key, _) in &self.open {
                    let key = key as usize;
                    if self.first.len() <= key {
                        self.first.resize(key + 1, u32::MAX);
                    }
                    self.first[key] = self.first[key].min(census as u32);
                }
            }
        }
        self.open.clear();
    }

    /// Whether the keys that have a point first have one in key order (see the module
    /// docs).
    fn keys_in_order(&self) -> bool {
        let kept = self.first.iter().filter(|&&c| c != u32::MAX);
        kept.clone().zip(kept.skip(1)).all(|(a, b)| a <= b)
    }
}

impl Streamer<'_> {
    /// Gives sample `s` with `points` (key, value), after the marks that stand before it.
    fn sample(&mut self, s: usize, points: &[(u32, f64)]) {
        let block = &self.placement.block;
        let Some(&time) = block.times.get(s).filter(|_| s == self.sample) else {
            self.overflow = true;
            return;
        };
        self.marks_before(s + 1);
        self.sink.begin_sample(time);
        for &(key, value) in points {
            if let Some(name) = block.names.get(key as usize) {
                self.sink.data(name, value);
            }
        }
        self.sink.end_sample();
        self.sample += 1;
    }

    /// Gives the marks that stand before sample `s` (those with `before < s`).
    fn marks_before(&mut self, s: usize) {
        let marks = &self.placement.block.marks;
        while let Some(m) = marks.get(self.marks).filter(|m| m.before < s) {
            match m.text.is_empty() {
                true => self.sink.mark(m.time),
                false => self.sink.labelled_mark(m.time, &m.text),
            }
            self.marks += 1;
        }
    }
}

/// The first reading of `bytes` (a whole eventlog): its placement, or `None` when a
/// second reading could not hand its censuses over as the whole reading does (see the
/// module docs). The errors are a whole reading's.
pub(crate) fn place(
    bytes: &[u8],
    opts: &EventlogOptions,
    release: &mut dyn FnMut(usize),
) -> Result<Option<Placement>, EventlogError> {
    place_chunked(bytes, opts, release, CHUNK)
}

/// [`place`] with runs of about `chunk` bytes per worker job.
pub(crate) fn place_chunked(
    bytes: &[u8],
    opts: &EventlogOptions,
    release: &mut dyn FnMut(usize),
    chunk: usize,
) -> Result<Option<Placement>, EventlogError> {
    let mut m = Model::new(opts);
    m.bounded = Some(Box::new(Bounded {
        open: Vec::new(),
        first: Vec::new(),
        out: None,
    }));
    let (end, notes) = read_slice_into(bytes, &mut m, release, chunk)?;
    let in_order = m.bounded.as_ref().is_some_and(|b| b.keys_in_order());
    let mut recorder = Recorder::default();
    let report = m.finish(end, &notes, &mut recorder)?;
    let Some(block) = recorder.block.filter(|_| in_order && !recorder.other) else {
        return Ok(None);
    };
    Ok(Some(Placement {
        header: recorder.header,
        block,
        report,
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
    for (field, text) in &placement.header {
        sink.header(*field, text);
    }
    let mut out = Streamer {
        placement,
        sink,
        sample: 0,
        marks: 0,
        overflow: false,
    };
    // The empty sample at 0.
    out.sample(0, &[]);
    let mut m = Model::new(opts);
    // The times are placed: the GC and scheduler events are not needed again.
    m.keep_time = false;
    m.bounded = Some(Box::new(Bounded {
        open: Vec::new(),
        first: Vec::new(),
        out: Some(out),
    }));
    // The warnings and the report are the first reading's.
    let (end, _) = read_slice_into(bytes, &mut m, release, chunk)?;
    m.end_data(&end);
    let Some(Bounded {
        out: Some(mut out), ..
    }) = m.bounded.take().map(|b| *b)
    else {
        return Ok(false);
    };
    // The empty sample at the end, then the marks after it.
    let last = placement.block.times.len().saturating_sub(1);
    let placed = out.sample == last;
    out.sample(last, &[]);
    out.marks_before(usize::MAX);
    Ok(placed && !out.overflow)
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

#[cfg(test)]
mod tests {
    use super::Bounded;

    fn firsts(first: Vec<u32>) -> Bounded<'static> {
        Bounded {
            open: Vec::new(),
            first,
            out: None,
        }
    }

    /// Keys whose first kept census goes back (damage took the census where a key came
    /// first, and it came again after a later key) make the log be read whole; keys with
    /// no point do not count.
    #[test]
    fn keys_out_of_order_are_told() {
        assert!(firsts(vec![0, 0, 1, 3]).keys_in_order());
        assert!(firsts(vec![0, u32::MAX, 1, u32::MAX, 1]).keys_in_order());
        assert!(!firsts(vec![0, 2, 1]).keys_in_order());
        assert!(!firsts(vec![3, u32::MAX, 1]).keys_in_order());
    }
}
