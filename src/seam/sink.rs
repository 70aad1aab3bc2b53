//! [`Sink`], the one way into the model: what a reader says of a profile, in file order,
//! statement by statement, a block of samples at a time or census by census; and how a
//! block or a run of statements is said statement by statement, to a sink that takes
//! them so.

use super::block::{BlockMark, SampleBlock};
use super::run::{StatementRun, BEGIN, END, MARK};
use crate::profile::keep::RunRoles;

/// One of the four header strings of a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderField {
    /// `JOB`: the program's command line.
    Job,
    /// `DATE`: when the program ran.
    Date,
    /// `SAMPLE_UNIT`: the unit of the sample times.
    SampleUnit,
    /// `VALUE_UNIT`: the unit of the values.
    ValueUnit,
}

impl HeaderField {
    /// Every field, in the order the fields are stored.
    pub const ALL: [HeaderField; 4] = [
        HeaderField::Job,
        HeaderField::Date,
        HeaderField::SampleUnit,
        HeaderField::ValueUnit,
    ];

    /// The field's keyword in a `.hp` file.
    pub fn keyword(self) -> &'static str {
        match self {
            HeaderField::Job => "JOB",
            HeaderField::Date => "DATE",
            HeaderField::SampleUnit => "SAMPLE_UNIT",
            HeaderField::ValueUnit => "VALUE_UNIT",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Receives the statements of a profile as the reader accepts them.
///
/// The reader has already checked the grammar and the sample structure (BEGIN before END,
/// times in order, MARK outside samples). Data points that arrive outside a sample belong
/// to the next sample to be ended, as in hp2ps.
pub trait Sink {
    /// A header string (a repeated field overwrites the earlier one).
    fn header(&mut self, field: HeaderField, text: &[u8]);
    /// A mark at `time`, drawn as a caret above the graph.
    fn mark(&mut self, time: f64);
    /// A mark with a text (an eventlog marker; a `.hp` MARK has none). Sinks that keep no
    /// texts take it as a plain [`Sink::mark`].
    fn labelled_mark(&mut self, time: f64, text: &[u8]) {
        let _ = text;
        self.mark(time);
    }
    /// Sets the time of the current sample (a repeated BEGIN_SAMPLE overwrites it).
    fn begin_sample(&mut self, time: f64);
    /// Completes the current sample.
    fn end_sample(&mut self);
    /// The value of identifier `name` in the current sample.
    fn data(&mut self, name: &[u8], value: f64);
    /// The input ended before the current sample was complete: forget every data point
    /// of it (and the identifiers that only it used). Returns whether anything was dropped.
    fn discard_incomplete_sample(&mut self) -> bool;

    /// Whole samples whose points come grouped by band (an eventlog's censuses, handed
    /// over at the end of reading). The default replays them statement by statement
    /// ([`SampleBlock::replay`]); the profile builder moves the bands in.
    fn samples(&mut self, block: SampleBlock) {
        block.replay(self);
    }

    /// A run of statements that a worker thread of a parallel reader scanned, in file
    /// order. The default feeds them one by one to the methods above; a sink may take
    /// them in one go (the profile builder interns each name of the run once).
    fn statements(&mut self, run: &StatementRun<'_>) {
        run.replay(self);
    }

    /// Whether [`Sink::statements`] takes runs whose data points come grouped by
    /// identifier (their order across identifiers lost), which the workers produce more
    /// cheaply. Only a sink that handles such runs itself may say yes. Default: `false`.
    fn wants_runs_by_band(&self) -> bool {
        false
    }

    /// Whether [`Sink::statements`] takes runs whose data points come added up by
    /// identifier (each one's sum, count and last census, and
    /// every census's sum) instead of one by one, which the workers produce more cheaply
    /// still. Only a sink that handles such runs itself may say yes. Default: `false`.
    fn wants_run_sums(&self) -> bool {
        false
    }

    /// The bands' roles by name, when [`Sink::statements`] takes runs whose points come
    /// split by role (the drawn bands' by band, the merged bands' added up by census,
    /// the dropped bands' not at all), which spares the workers and the sink the points
    /// not drawn. Only a sink that handles such runs itself may give them, and only
    /// when [`Sink::wants_runs_by_band`]. Default: `None`.
    fn run_roles(&self) -> Option<std::sync::Arc<RunRoles>> {
        None
    }

    /// A complete census at `time` whose points name their bands by key into `names`,
    /// a table that stays the same for the whole reading (an eventlog's second reading:
    /// its bands by key, as the first placed them): (key, value) in the order they are
    /// taken. A sink may so remember what each key came to instead of looking every
    /// point's name up. Default: the census as statements, its bands by name.
    fn keyed_census(&mut self, time: f64, points: &[(u32, f64)], names: &[Vec<u8>]) {
        census_by_name(self, time, points, names);
    }

    // What a reader that follows an input as it is written (the live page) says besides:
    // each census as soon as it is complete, its bands by number.

    /// Band number `band` of a followed input is named `name`: a band that came, or one
    /// renamed (an eventlog's names depend on what the log said before: they are told
    /// apart once more bands share one). Default: nothing (the census below names its
    /// bands).
    fn band_name(&mut self, band: u32, name: &[u8]) {
        let _ = (band, name);
    }

    /// A complete census of a followed input at `time` (seconds on the reader's axis):
    /// (band number, value) for each band it has; `names` is every band's name by
    /// number so far. Default: the census as statements, its bands by those names (a
    /// sink that keeps bands by name sees a band renamed later as a new one).
    fn census(&mut self, time: f64, points: &[(u32, f64)], names: &[Vec<u8>]) {
        census_by_name(self, time, points, names);
    }

    /// A point of a followed input's line over the bands: line `line` of the reader's
    /// table (an eventlog's `LINES`: heap size, live bytes, blocks size), at `time`.
    /// Default: nothing (a whole reading's lines come with its report).
    fn line_point(&mut self, line: usize, time: f64, value: f64) {
        let _ = (line, time, value);
    }

    /// A census of a followed input that damage cost, in words (where, and which).
    /// Default: nothing (a whole reading's damage comes with its warnings).
    fn lost(&mut self, what: String) {
        let _ = what;
    }
}

impl SampleBlock {
    /// Feeds the block to `sink` statement by statement: marks where they stand, then
    /// each sample with its points in band order (their order within a sample is not
    /// kept; bands still appear first in the order of [`Self::names`]).
    pub fn replay<S: Sink + ?Sized>(&self, sink: &mut S) {
        let n = self.times.len();
        // Counting sort of the points by sample, bands in order within a sample.
        let mut starts = vec![0usize; n + 1];
        for band in &self.points {
            for p in band.iter().filter(|p| (p.sample as usize) < n) {
                starts[p.sample as usize + 1] += 1;
            }
        }
        for s in 0..n {
            starts[s + 1] += starts[s];
        }
        let mut next = starts.clone();
        let mut bands = vec![0u32; starts[n]];
        let mut values = vec![0f64; starts[n]];
        for (b, band) in self.points.iter().enumerate() {
            for p in band.iter().filter(|p| (p.sample as usize) < n) {
                let at = &mut next[p.sample as usize];
                bands[*at] = b as u32;
                values[*at] = p.value;
                *at += 1;
            }
        }
        let mut marks = self.marks.iter().peekable();
        for (s, &time) in self.times.iter().enumerate() {
            while let Some(m) = marks.next_if(|m| m.before <= s) {
                give_mark(sink, m);
            }
            sink.begin_sample(time);
            for at in starts[s]..starts[s + 1] {
                sink.data(&self.names[bands[at] as usize], values[at]);
            }
            sink.end_sample();
        }
        for m in marks {
            give_mark(sink, m);
        }
    }
}

/// A census whose points name their bands by number into `names`, said to `sink`
/// statement by statement (the bands by name; a number without a name is passed over).
fn census_by_name<S: Sink + ?Sized>(
    sink: &mut S,
    time: f64,
    points: &[(u32, f64)],
    names: &[Vec<u8>],
) {
    sink.begin_sample(time);
    for &(band, value) in points {
        if let Some(name) = names.get(band as usize) {
            sink.data(name, value);
        }
    }
    sink.end_sample();
}

fn give_mark<S: Sink + ?Sized>(sink: &mut S, m: &BlockMark) {
    if m.text.is_empty() {
        sink.mark(m.time);
    } else {
        sink.labelled_mark(m.time, &m.text);
    }
}

impl<'a> StatementRun<'a> {
    /// Feeds the statements to `sink` one by one, as a reader without workers would.
    ///
    /// # Panics
    ///
    /// If the sink asked for the points by band: their order is gone.
    pub fn replay<S: Sink + ?Sized>(&self, sink: &mut S) {
        assert!(
            self.by_band.is_none() && self.sums.is_none() && self.split.is_none(),
            "a sink that wants runs by band or summed takes them itself"
        );
        for e in self.entries {
            match e.tag {
                BEGIN => sink.begin_sample(e.value),
                END => sink.end_sample(),
                MARK => sink.mark(e.value),
                id => sink.data(self.name(id), e.value),
            }
        }
    }
}
