//! Reading an eventlog as it is written (`--serve`): bytes are pushed in as they arrive,
//! and every census is told to a [`Follow`] as soon as it is complete, its points taken
//! out of the reader's state, so that memory does not grow with the censuses read.
//!
//! The same container, framer and model as the one-pass reader: the header is read once
//! all of it has come, and the data section is framed event by event over the bytes
//! pushed so far. The framer checks the header after each event before handing it out,
//! so the last event of what has arrived (often a census's END, written at a flush)
//! waits for the next bytes; when the input pauses ([`LiveEventlog::pause`]), the
//! events that frame as they would at the end of a cut log are taken, as a cut log's
//! reading takes them. The whole run is read again the ordinary way for the page saved
//! at the end (`src/live/`), so that page never depends on this choice.
//!
//! Times are elapsed seconds (the live default: a service's mutator seconds squash hours
//! of waiting into seconds). For `--time mutator` the caller asks for the clock of what
//! was read so far ([`LiveEventlog::mutator_clock`]) and places the censuses with it.

use super::container::{self, Framer, Notes, RawEvent, State, Step, Types, Window};
use super::emit::End;
use super::model::Model;
use super::names::{argv, split_args};
use super::timeaxis::{elapsed_seconds, ticker, MutatorClock};
use super::{events, EventlogError, EventlogOptions};
use crate::seam::{Follow, HeaderField, Line};
use crate::seam::{SampleBlock, Sink};

/// Bytes consumed before the buffer's front is dropped.
const COMPACT: usize = 1 << 20;
/// The longest header waited for (a real one is some 20 KB): a header that claims more
/// is not waited for to the end of the memory.
const LONGEST_HEADER: usize = 16 << 20;

/// An eventlog read as its bytes arrive.
pub(crate) struct LiveEventlog<'o> {
    /// Bytes pushed and not yet consumed start at `buf[start]`, at file offset
    /// `base + start`.
    buf: Vec<u8>,
    start: usize,
    base: u64,
    /// The header's declarations, once the whole header has come.
    types: Option<Types>,
    state: State,
    notes: Notes,
    model: Model<'o>,
    told: Told,
    ended: bool,
}

/// How far a reading goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// As far as the bytes decide.
    Flowing,
    /// The input paused: also the events that would be read were it to end here.
    Paused,
    /// The input ended.
    Closing,
}

/// How much of the model has been told.
#[derive(Default)]
struct Told {
    header: bool,
    censuses: usize,
    bands: usize,
    lost: u64,
}

impl<'o> LiveEventlog<'o> {
    /// A reader at the start of a log; `keep_time`: whether the GC and scheduler events
    /// are kept for [`Self::mutator_clock`].
    pub(crate) fn new(opts: &'o EventlogOptions, keep_time: bool) -> Self {
        let mut model = Model::new(opts);
        model.keep_time = keep_time;
        LiveEventlog {
            buf: Vec::new(),
            start: 0,
            base: 0,
            types: None,
            state: State::default(),
            notes: Notes::default(),
            model,
            told: Told::default(),
            ended: false,
        }
    }

    /// Whether the log's end marker has been read (the program ended).
    pub(crate) fn ended(&self) -> bool {
        self.ended
    }

    /// Reads `bytes`, the next of the log, telling `to` what they complete.
    pub(crate) fn feed(&mut self, bytes: &[u8], to: &mut dyn Follow) -> Result<(), EventlogError> {
        if self.ended {
            return Ok(());
        }
        self.buf.extend_from_slice(bytes);
        self.read(Mode::Flowing, to)
    }

    /// The input paused (nothing more to read for now): takes the events that would be
    /// read if the log ended here.
    pub(crate) fn pause(&mut self, to: &mut dyn Follow) -> Result<(), EventlogError> {
        if self.ended {
            return Ok(());
        }
        self.read(Mode::Paused, to)
    }

    /// The input closed: a census left open is dropped, as at the end of a cut log.
    pub(crate) fn close(&mut self, to: &mut dyn Follow) -> Result<(), EventlogError> {
        if self.ended {
            return Ok(());
        }
        self.read(Mode::Closing, to)?;
        if !self.ended && self.types.is_some() {
            let end = End::Truncated(self.base + self.start as u64);
            self.model.end_data(&end);
            self.told.tell(&mut self.model, to);
        }
        Ok(())
    }

    fn read(&mut self, mode: Mode, to: &mut dyn Follow) -> Result<(), EventlogError> {
        if self.types.is_none() && !self.read_header(mode == Mode::Closing)? {
            return Ok(());
        }
        self.frame(mode, to);
        self.told.tell(&mut self.model, to);
        if self.start >= COMPACT && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.base += self.start as u64;
            self.start = 0;
        }
        Ok(())
    }

    /// Reads the header once all of it has come; false while it has not (an error
    /// once the input has closed).
    fn read_header(&mut self, closing: bool) -> Result<bool, EventlogError> {
        let mut input = Partial {
            bytes: &self.buf,
            at: 0,
            wanted: false,
        };
        match container::read_header(&mut input) {
            Ok(types) => {
                self.model.has_end = types.declares(events::HEAP_PROF_SAMPLE_END);
                self.start = input.at;
                self.types = Some(types);
                Ok(true)
            }
            Err(_) if input.wanted && !closing && self.buf.len() <= LONGEST_HEADER => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Frames and reads the events that have come (paused: and the events the end of
    /// the input would let through; closing: everything, as at the end of a cut log).
    fn frame(&mut self, mode: Mode, to: &mut dyn Follow) {
        let Some(types) = &self.types else {
            return;
        };
        let mut framer = Framer::new(types);
        framer.state = self.state;
        framer.notes = std::mem::take(&mut self.notes);
        loop {
            let w = Window {
                bytes: &self.buf[self.start..],
                base: self.base + self.start as u64,
                eof: mode == Mode::Closing,
            };
            let step = match framer.step(&w, 0) {
                Ok(step) => step,
                Err(_) if mode == Mode::Paused => {
                    // As if the input ended here; kept only if it hands out an event.
                    let mut trial = framer.clone();
                    match trial.step(&Window { eof: true, ..w }, 0) {
                        Ok(step @ (Step::Event { .. } | Step::End)) => {
                            framer = trial;
                            step
                        }
                        _ => break,
                    }
                }
                Err(_) => break,
            };
            let offset = w.base;
            match step {
                Step::Event { head, len, next } => {
                    let raw = RawEvent {
                        id: head.id,
                        time: head.time,
                        offset,
                        payload: &w.bytes[head.head..head.head + len],
                    };
                    self.model.event(&raw);
                    self.start += next;
                    if self.model.censuses.len() > self.told.censuses {
                        self.told.tell(&mut self.model, to);
                    }
                }
                Step::End => {
                    self.start += 2;
                    self.model.end_data(&End::Complete);
                    self.ended = true;
                    break;
                }
                Step::Truncated => break,
                Step::Damaged { to: skipped } => {
                    self.model.damaged(offset, offset + skipped as u64);
                    self.start += skipped;
                }
            }
        }
        self.state = framer.state;
        self.notes = framer.notes;
    }

    /// The mutator clock of what was read so far (`None` without GC events, or when
    /// the reader keeps no time data): the same rebuilding as the one-pass reader's, on
    /// the events so far.
    pub(crate) fn mutator_clock(&self) -> Option<MutatorClock> {
        let m = &self.model;
        if !m.keep_time || !m.time.any_gc() {
            return None;
        }
        let args = argv(m.args.as_deref().unwrap_or_default());
        let rts = m.rts.as_deref().unwrap_or_default();
        let timer = ticker(rts, &split_args(&args).1);
        Some(m.time.clone().finish(m.max_time, timer))
    }

    /// The IPE entries read so far (the names of a `-hi` profile's bands).
    pub(crate) fn ipe(&self) -> &[crate::profile::IpeEntry] {
        &self.model.ipe
    }

    /// The profile kind, once HEAP_PROF_BEGIN has come.
    pub(crate) fn breakdown(&self) -> Option<super::Breakdown> {
        self.model.breakdown.map(super::Breakdown::from_code)
    }

    /// The sampling interval in seconds, once HEAP_PROF_BEGIN has come (as the
    /// one-pass reader's report has it).
    pub(crate) fn sampling_period(&self) -> Option<f64> {
        self.model.sampling_period()
    }

    /// The runtime that writes the log, as it names itself (`GHC-9.10.3 rts_thr`).
    pub(crate) fn rts(&self) -> Option<String> {
        self.model.rts_name()
    }
}

impl Told {
    /// Tells `to` what is new: the header, new bands' names, complete censuses (their
    /// points taken out of the model), marks, heap points and censuses lost.
    fn tell(&mut self, m: &mut Model<'_>, to: &mut dyn Follow) {
        let header = m.censuses.len() > self.censuses && !self.header;
        let bands = m.keys.len() > self.bands;
        if header || bands {
            // Taken out while the model names things with them (and put back).
            let raw = m.args.take();
            let args = argv(raw.as_deref().unwrap_or_default());
            if header {
                self.header = true;
                let profiled = m.is_profiled();
                let mut header = HeaderOnly(Vec::new());
                m.header(&mut header, &args, profiled);
                for (field, text) in header.0 {
                    to.header(field, &text);
                }
            }
            if bands {
                self.bands = m.keys.len();
                to.names(&m.band_names(&args));
            }
            m.args = raw;
        }
        let mut points = Vec::new();
        while self.censuses < m.censuses.len() {
            let sample = self.censuses as u32 + 1;
            points.clear();
            for (band, list) in m.points.iter_mut().enumerate() {
                while let Some(p) = list.last().filter(|p| p.sample == sample) {
                    points.push((band as u32, p.value));
                    list.pop();
                }
            }
            to.census(elapsed_seconds(m.censuses[self.censuses].time), &points);
            self.censuses += 1;
        }
        // A text was kept right after its mark: the two lists pair up in file order.
        // Both are told once, then dropped: the follower keeps its own (within its caps).
        let mut texts = m.texts.drain(..).peekable();
        for t in m.marks.drain(..) {
            let text = texts
                .next_if(|(tt, _)| *tt == t)
                .map(|(_, s)| s.into_bytes());
            to.mark(elapsed_seconds(t), &text.unwrap_or_default());
        }
        // The lines too: the mutator clock is worked out from the GC events, not these.
        for line in Line::ALL {
            let points = match line {
                Line::HeapSize => &mut m.heap_size,
                Line::HeapLive => &mut m.heap_live,
                Line::BlocksSize => &mut m.blocks_size,
            };
            for (t, b) in points.drain(..) {
                to.line(line, elapsed_seconds(t), b as f64);
            }
        }
        let lost = m.damage.lost();
        if lost > self.lost {
            let (from, to_byte) = m.damage.last_region().unwrap_or_default();
            let count = lost - self.lost;
            self.lost = lost;
            to.lost(format!(
                "damaged bytes {from}..{to_byte} of the eventlog: {count} census{} lost",
                if count == 1 { "" } else { "es" }
            ));
        }
    }
}

/// The header part of the input pushed so far, for [`container::read_header`]: a
/// source that says when it ran out (`wanted`), as opposed to a header that is wrong.
struct Partial<'a> {
    bytes: &'a [u8],
    at: usize,
    wanted: bool,
}

impl container::Source for Partial<'_> {
    fn fill(&mut self, n: usize) -> std::io::Result<bool> {
        let enough = self.bytes.len() - self.at >= n;
        self.wanted |= !enough;
        Ok(enough)
    }

    fn available(&self) -> &[u8] {
        &self.bytes[self.at..]
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
    }

    fn offset(&self) -> u64 {
        self.at as u64
    }

    fn consumed(&self, n: usize) -> &[u8] {
        &self.bytes[self.at - n..self.at]
    }
}

/// A sink that keeps the header strings alone (what [`Model::header`] writes).
struct HeaderOnly(Vec<(HeaderField, Vec<u8>)>);

impl Sink for HeaderOnly {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        self.0.push((field, text.to_vec()));
    }
    fn mark(&mut self, _: f64) {}
    fn begin_sample(&mut self, _: f64) {}
    fn end_sample(&mut self) {}
    fn data(&mut self, _: &[u8], _: f64) {}
    fn discard_incomplete_sample(&mut self) -> bool {
        false
    }
    fn samples(&mut self, _: SampleBlock) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a follower was told, counted.
    #[derive(Default)]
    struct Counts {
        marks: usize,
        texts: usize,
        lines: usize,
    }

    impl Follow for Counts {
        fn header(&mut self, _: HeaderField, _: &[u8]) {}
        fn names(&mut self, _: &[Vec<u8>]) {}
        fn census(&mut self, _: f64, _: &[(u32, f64)]) {}
        fn mark(&mut self, _: f64, text: &[u8]) {
            self.marks += 1;
            self.texts += usize::from(!text.is_empty());
        }
        fn line(&mut self, _: Line, _: f64, _: f64) {
            self.lines += 1;
        }
        fn lost(&mut self, _: String) {}
    }

    /// The marks, their texts and the lines' points are told once each and then leave
    /// the reader, also when it keeps the time data for the mutator clock.
    #[test]
    fn what_was_told_leaves_the_reader() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/ghc-9.10/marker-hc.eventlog"
        );
        let bytes = std::fs::read(path).unwrap();
        let opts = EventlogOptions::default();
        for keep_time in [false, true] {
            let mut reader = LiveEventlog::new(&opts, keep_time);
            let mut told = Counts::default();
            for piece in bytes.chunks(999) {
                reader.feed(piece, &mut told).unwrap();
                reader.pause(&mut told).unwrap();
            }
            reader.close(&mut told).unwrap();
            assert!(told.marks > 0 && told.texts > 0 && told.lines > 0);
            let m = &reader.model;
            assert!(m.marks.is_empty() && m.texts.is_empty(), "{keep_time}");
            assert!(
                m.heap_size.is_empty() && m.heap_live.is_empty(),
                "{keep_time}"
            );
            assert!(m.blocks_size.is_empty(), "{keep_time}");
            assert_eq!(
                keep_time,
                m.time.any_gc(),
                "the time data is kept when asked"
            );
        }
    }
}
