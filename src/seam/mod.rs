//! The seam between the readers and the model: [`Sink`], which receives a profile's
//! statements in file order, already checked, and the types it hands over. Every reader
//! (`.hp`, eventlog, and anything that stands between a reader and the model, such as
//! the time window) speaks it, and [`ProfileBuilder`] turns it into a
//! [`Profile`](crate::profile::Profile), so the model is built one way and knows no
//! reader.
//!
//! Besides one statement at a time, a reader may hand over whole samples with their
//! points grouped by band ([`SampleBlock`], how an eventlog gives its censuses) or a run
//! of statements its worker threads scanned ([`StatementRun`], how the parallel `.hp`
//! reader gives a chunk), so that the builder interns each name once per run. A reader
//! that follows an input as it is written (the live page's) says each census as soon as
//! it is complete, its bands by number ([`Sink::census`], [`Sink::band_name`]), with the
//! points of the lines over the bands and the censuses damage cost: the same seam, whose
//! defaults make any sink follow an input (a test's profile builder, the time window).

mod block;
mod builder;
mod run;

pub use block::{BlockMark, SampleBlock};
pub(crate) use builder::make_room;
pub use builder::ProfileBuilder;
pub use run::StatementRun;
pub(crate) use run::{RunEntry, BEGIN, END, MARK};

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
        self.begin_sample(time);
        for &(band, value) in points {
            if let Some(name) = names.get(band as usize) {
                self.data(name, value);
            }
        }
        self.end_sample();
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
