//! The eventlog reader's third way in: a log followed as it is written (`--serve`),
//! bytes pushed as they arrive into the same reading as a whole log's (its header, its
//! framer, its events into the one model: [`read_events`]), which stops at the end of the
//! bytes it has and goes on from there when more come. Each census is told to the seam
//! as soon as it is complete; the whole run is read again the ordinary way for the page
//! saved at its end (`src/run/serve/`), so that page never depends on the choices made
//! here for a log still being written.

use std::io;

use super::band_names::NameTable;
use super::container::{self, Framer, Notes, State, Types};
use super::end::End;
use super::model::Model;
use super::names::{argv, split_args};
use super::reading::read_events;
use super::timeaxis::{elapsed_seconds, Clock};
use super::{events, EventlogError, EventlogOptions, EventlogReport};
use crate::seam::{HeaderField, SampleBlock, Sink};

/// Bytes consumed before the buffer's front is dropped.
const COMPACT: usize = 1 << 20;
/// The longest header waited for (a real one is some 20 KB): a header that claims more
/// is not waited for to the end of the memory.
const LONGEST_HEADER: usize = 16 << 20;

/// Bytes not consumed yet (from `base + start` on), which more may follow: a source that
/// says so ([`io::ErrorKind::WouldBlock`]) rather than ending, until it is closed.
struct Pending {
    buf: Vec<u8>,
    start: usize,
    base: u64,
    /// Whether the input ended: its end is the data's.
    closed: bool,
    /// Whether a reading ran out of bytes.
    wanted: bool,
}

impl container::Source for Pending {
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        if self.buf.len() - self.start >= n {
            return Ok(true);
        }
        self.wanted = true;
        match self.closed {
            true => Ok(false),
            false => Err(io::ErrorKind::WouldBlock.into()),
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
    }

    fn offset(&self) -> u64 {
        self.base + self.start as u64
    }

    fn consumed(&self, n: usize) -> &[u8] {
        &self.buf[self.start - n..self.start]
    }
}

/// An eventlog read as it is written (the live page): the same header, framer and model
/// as a whole reading ([`read_events`]), over the bytes pushed so far; it stops at their
/// end and goes on from there when more are pushed ([`Followed::feed`]). Every census
/// is told to a [`Sink`] as soon as it is complete ([`Sink::census`]), its points taken
/// out of the model, and so are its bands' names (kept up to date band by band:
/// [`NameTable`]), the marks, the lines' points and the censuses damage cost: memory
/// does not grow with the censuses read.
///
/// The framer checks the header after each event before handing it out, so the last
/// event of what has arrived (often a census's END, written at a flush) waits for the
/// next bytes; when the input pauses ([`Followed::pause`]), the events that frame as
/// they would at the end of a cut log are taken, as a cut log's reading takes them. Times
/// are elapsed seconds; for `--time mutator` the caller asks for the clock of what was
/// read so far ([`Followed::clock`]) and places the censuses with it.
pub(crate) struct Followed<'o> {
    input: Pending,
    /// The header's declarations, once the whole header has come.
    types: Option<Types>,
    state: State,
    notes: Notes,
    model: Model<'o>,
    told: Told,
    ended: bool,
}

/// How much of the model has been told.
#[derive(Default)]
struct Told {
    header: bool,
    censuses: usize,
    lost: u64,
    names: NameTable,
}

impl<'o> Followed<'o> {
    /// A reader at the start of a log; `keep_time`: whether the GC and scheduler events
    /// are kept for [`Self::clock`].
    pub(crate) fn new(opts: &'o EventlogOptions, keep_time: bool) -> Self {
        let mut model = Model::new(opts);
        model.keep_time = keep_time;
        Followed {
            input: Pending {
                buf: Vec::new(),
                start: 0,
                base: 0,
                closed: false,
                wanted: false,
            },
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
    pub(crate) fn feed(&mut self, bytes: &[u8], to: &mut dyn Sink) -> Result<(), EventlogError> {
        if self.ended {
            return Ok(());
        }
        self.input.buf.extend_from_slice(bytes);
        self.read(false, to)
    }

    /// The input paused (nothing more to read for now): takes the events that would be
    /// read if the log ended here.
    pub(crate) fn pause(&mut self, to: &mut dyn Sink) -> Result<(), EventlogError> {
        if self.ended {
            return Ok(());
        }
        self.read(true, to)
    }

    /// The input closed: a census left open is dropped, as at the end of a cut log.
    pub(crate) fn close(&mut self, to: &mut dyn Sink) -> Result<(), EventlogError> {
        if self.ended {
            return Ok(());
        }
        self.input.closed = true;
        self.read(false, to)
    }

    /// Reads what has come (`paused`: and the events the end of the input would let
    /// through).
    fn read(&mut self, paused: bool, to: &mut dyn Sink) -> Result<(), EventlogError> {
        if self.types.is_none() && !self.read_header()? {
            return Ok(());
        }
        let Some(types) = &self.types else {
            return Ok(());
        };
        let mut framer = Framer::new(types);
        framer.state = self.state;
        framer.notes = std::mem::take(&mut self.notes);
        let (m, told, input) = (&mut self.model, &mut self.told, &mut self.input);
        let end = loop {
            let after = |m: &mut Model<'_>| {
                if m.censuses.len() > told.censuses {
                    told.tell(m, &mut *to);
                }
            };
            if let Some(end) = read_events(input, &mut framer, m, after)? {
                break Some(end);
            }
            // As if the input ended here; kept only if it hands out an event.
            match paused.then(|| Self::trial(input, &mut framer, m)).flatten() {
                Some(None) => {}
                Some(end) => break end,
                None => break None,
            }
        };
        match end {
            Some(end @ End::Complete) => {
                m.end_data(&end);
                self.ended = true;
            }
            Some(end @ End::Truncated(_)) => drop(m.end_data(&end)),
            None => {}
        }
        told.tell(m, to);
        self.state = framer.state;
        self.notes = framer.notes;
        if input.start >= COMPACT && input.start * 2 >= input.buf.len() {
            input.buf.drain(..input.start);
            input.base += input.start as u64;
            input.start = 0;
        }
        Ok(())
    }

    /// Frames the next event as if the input ended where it stands, on a copy of the
    /// framer: an event is taken (`Some(None)`), or the end marker (`Some(Some(end))`);
    /// anything else (the input cut, damage) is not (`None`), as more bytes may show
    /// otherwise.
    fn trial(
        input: &mut Pending,
        framer: &mut Framer<'_>,
        m: &mut Model<'_>,
    ) -> Option<Option<End>> {
        let (mut trial, at) = (framer.clone(), input.start);
        input.closed = true;
        let taken = match container::next_event(input, &mut trial) {
            Ok(container::Next::Event(raw)) => {
                m.event(&raw);
                Some(None)
            }
            Ok(container::Next::End) => Some(Some(End::Complete)),
            _ => None,
        };
        input.closed = false;
        match taken {
            Some(_) => *framer = trial,
            None => input.start = at,
        }
        taken
    }

    /// Reads the header once all of it has come; false while it has not (an error
    /// once the input has closed).
    fn read_header(&mut self) -> Result<bool, EventlogError> {
        let input = &mut self.input;
        input.wanted = false;
        match container::read_header(input) {
            Ok(types) => {
                self.model.has_end = types.declares(events::HEAP_PROF_SAMPLE_END);
                self.types = Some(types);
                Ok(true)
            }
            Err(_) if input.wanted && !input.closed && input.buf.len() <= LONGEST_HEADER => {
                input.start = 0;
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// The clock of what was read so far (elapsed seconds without GC events, or when the
    /// reader keeps no time data): the same rebuilding as a whole reading's, on the
    /// events so far.
    pub(crate) fn clock(&self) -> Clock {
        let m = &self.model;
        let args = argv(m.args.as_deref().unwrap_or_default());
        let rts = m.rts.as_deref().unwrap_or_default();
        let mutator = m.keep_time && m.time.any_gc();
        let time = match mutator {
            true => m.time.clone(),
            false => Default::default(),
        };
        Clock::of(mutator, time, m.max_time, rts, &split_args(&args).1)
    }

    /// What the log said so far besides its censuses: the profile kind, the sampling
    /// interval, the runtime, the IPE entries.
    pub(crate) fn report(&self, into: &mut EventlogReport) {
        let m = &self.model;
        if m.ipe.len() != into.ipe.len() {
            into.ipe = m.ipe.clone();
        }
        m.report_facts(into);
    }
}

impl Told {
    /// Tells `to` what is new: the header, the bands' names, complete censuses (their
    /// points taken out of the model), marks, the lines' points and censuses lost.
    fn tell(&mut self, m: &mut Model<'_>, to: &mut dyn Sink) {
        if m.censuses.len() > self.censuses || m.keys.len() > self.names.names().len() {
            // Taken out while the model names things with them (and put back).
            let raw = m.args.take();
            let args = argv(raw.as_deref().unwrap_or_default());
            if !self.header && m.censuses.len() > self.censuses {
                self.header = true;
                let profiled = m.is_profiled();
                let mut header = HeaderOnly(Vec::new());
                m.header(&mut header, &args, profiled);
                for (field, text) in header.0 {
                    to.header(field, &text);
                }
            }
            self.names
                .update(m, &args, &mut |band, name| to.band_name(band, name));
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
            let time = elapsed_seconds(m.censuses[self.censuses].time);
            to.census(time, &points, self.names.names());
            self.censuses += 1;
        }
        // A text was kept right after its mark: the two lists pair up in file order.
        // Both are told once, then dropped: the follower keeps its own (within its caps).
        let mut texts = m.texts.drain(..).peekable();
        for t in m.marks.drain(..) {
            let text = texts
                .next_if(|(tt, _)| *tt == t)
                .map(|(_, s)| s.into_bytes());
            match text {
                Some(text) if !text.is_empty() => to.labelled_mark(elapsed_seconds(t), &text),
                _ => to.mark(elapsed_seconds(t)),
            }
        }
        // The lines too: the mutator clock is worked out from the GC events, not these.
        for (line, points) in m.lines.iter_mut().enumerate() {
            for (t, b) in points.drain(..) {
                to.line_point(line, elapsed_seconds(t), b as f64);
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

    impl Sink for Counts {
        fn header(&mut self, _: HeaderField, _: &[u8]) {}
        fn mark(&mut self, _: f64) {
            self.marks += 1;
        }
        fn labelled_mark(&mut self, _: f64, _: &[u8]) {
            self.marks += 1;
            self.texts += 1;
        }
        fn begin_sample(&mut self, _: f64) {}
        fn end_sample(&mut self) {}
        fn data(&mut self, _: &[u8], _: f64) {}
        fn discard_incomplete_sample(&mut self) -> bool {
            false
        }
        fn line_point(&mut self, _: usize, _: f64, _: f64) {
            self.lines += 1;
        }
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
            let mut reader = Followed::new(&opts, keep_time);
            let mut told = Counts::default();
            for piece in bytes.chunks(999) {
                reader.feed(piece, &mut told).unwrap();
                reader.pause(&mut told).unwrap();
            }
            reader.close(&mut told).unwrap();
            assert!(told.marks > 0 && told.texts > 0 && told.lines > 0);
            let m = &reader.model;
            assert!(m.marks.is_empty() && m.texts.is_empty(), "{keep_time}");
            assert!(m.lines.iter().all(Vec::is_empty), "{keep_time}");
            assert_eq!(
                keep_time,
                m.time.any_gc(),
                "the time data is kept when asked"
            );
        }
    }
}
