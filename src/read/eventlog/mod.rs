//! The streaming GHC eventlog reader: a `prog.eventlog` written by `prog +RTS -h… -l`
//! gives the same profile model as the run's `prog.hp`, through the same seam (`Sink`).
//!
//! Reading is one pass over any `io::Read` with a buffer of at most one event plus a
//! chunk; memory grows only with what is kept (cost centres, bands, samples, GC
//! intervals, marks). Samples are handed to the sink at the end, because their times
//! need the GC intervals, which may come later in the file than the census itself.
//!
//! The behaviour reference is the project's eventlog spec and the corpus FINDINGS:
//! `tests/data/eventlog/FINDINGS.md`.
//!
//! Files: the event types it knows, in one table (`events.rs`: id, name, fields read,
//! buffer, what it changes; and the lines over the bands, `LINES`); its ways in
//! (`entry.rs`: a stream, bytes on every core; `followed.rs`: a log followed as it is
//! written, for the live page), all through one event loop (`reading.rs`, which a
//! followed log leaves at the end of the bytes it has and takes up again); the
//! container (`container/`: the bytes as a stream or in place (`source.rs`), the
//! header's type declarations (`header.rs`), the framing of each event against its block
//! and the header after it (`framing.rs`, its bulk in `quick.rs` with each type's word in
//! `words.rs`; blocks in `bounds.rs`, the part of the input a decision looks at in
//! `window.rs`), the next event (`next.rs`), big-endian numbers (`numbers.rs`), where
//! the variable-size heap events' fields end (`fields.rs`), the recovery after damage
//! (`resync.rs`), what framing tolerated (`notes.rs`), where a mapped log is cut for the
//! workers (`block_runs.rs`)); what damage cost (`damage.rs`); payloads (`payload.rs`);
//! the state it keeps (`model.rs`; how a reading ended, `end.rs`); the time axis
//! (`timeaxis/`: each capability's busy time from its thread switches (`busy.rs`),
//! collections from the capabilities' GC events (`gc.rs`), what the runtime and its
//! options add (`runtime.rs`), the running total read at every sample (`total.rs`), the
//! one `Clock` of a reading); the bands' names (`band_names.rs`: all at once, or band by
//! band as a log is followed) from the stacks' paths and the JOB (`names.rs`); DATE in
//! local time (`localtime.rs`); the samples handed to the sink as one `SampleBlock` and
//! the report (`emit.rs`), or, for a long mapped log, each census as it completes, in a
//! second reading, with the times and names a first reading placed (`bounded.rs`,
//! `census_out.rs`); reading a mapped log on every core (`parallel.rs`: runs of
//! whole blocks scanned by workers, applied in order; the one-pass reader takes over
//! wherever a run does not end where the next begins), a worker's table of a run's bands
//! (`run_index.rs`). See `docs/eventlog.md`.

#![warn(missing_docs)]

mod band_names;
mod block;
pub(crate) mod bounded;
mod census_out;
mod container;
mod damage;
mod emit;
mod holds;
// The command's (run/): a `-p -l` eventlog is told from a heap's.
#[cfg(feature = "cli")]
pub(crate) use holds::time_profile_only;
mod end;
pub(crate) mod entry;
mod error;
pub(crate) mod events;
pub(crate) mod followed;
mod localtime;
mod model;
mod names;
mod parallel;
mod payload;
pub(crate) mod prof_samples;
mod reading;
mod run_index;
pub(crate) mod time_samples;
pub(crate) mod timeaxis;

use crate::profile::IpeEntry;

pub(crate) use entry::{read_eventlog, read_eventlog_slice};
pub use error::{EventlogError, EventlogWarning};

/// Which x axis samples, marks and heap-size points are placed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TimeAxis {
    /// Mutator seconds, as the `.hp` has them: the CPU time of the program's threads
    /// outside collections, rebuilt from when each capability ran threads (and the
    /// runtime's timer thread, estimated); see `docs/eventlog.md`. Falls back to elapsed
    /// seconds (with a warning) when the log has no GC events.
    #[default]
    Mutator,
    /// Elapsed (wall-clock) seconds since the program started.
    Elapsed,
}

/// How the eventlog is turned into a profile.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EventlogOptions {
    /// The x axis. Default: `Mutator`.
    pub time: TimeAxis,
    /// For `-hc`: name each band by its whole cost-centre stack instead of cutting it
    /// at the run's `-L` as the `.hp` does. Default: `false`.
    pub full_names: bool,
    /// Most marks (event 58) handed to the sink; later ones are counted in a warning.
    /// Default: `1048576`.
    pub max_marks: usize,
    /// Most bytes of marker text kept in the report (a text that does not fit is not
    /// kept; its mark still is). Default: `16777216`.
    pub max_marker_text_bytes: usize,
    /// Longest band name, in bytes: a longer one is cut to its first bytes and `...`,
    /// with a warning (the `.hp` reader's limit on identifiers). Default: `65536`.
    pub max_name_len: usize,
    /// Most bytes of all band names together: past it, the longest names are cut
    /// further, as far as needed, with the same warning. Default: `67108864`.
    pub max_names_bytes: usize,
}

impl Default for EventlogOptions {
    fn default() -> Self {
        EventlogOptions {
            time: TimeAxis::Mutator,
            full_names: false,
            max_marks: 1 << 20,
            max_marker_text_bytes: 16 << 20,
            max_name_len: crate::defaults::MAX_NAME_LEN,
            max_names_bytes: 64 << 20,
        }
    }
}

/// The kind of heap profile, from HEAP_PROF_BEGIN (160).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Breakdown {
    /// `-hc` (code 1).
    CostCentreStack,
    /// `-hm` (2).
    Module,
    /// `-hd` (3).
    ClosureDescription,
    /// `-hy` (4).
    TypeDescription,
    /// `-hr` (5).
    Retainer,
    /// `-hb` (6).
    Biography,
    /// `-hT` (7).
    ClosureType,
    /// `-hi` (8).
    InfoTable,
    /// `-he` (9).
    Era,
    /// A code this reader does not know.
    Unknown(u32),
}

impl Breakdown {
    /// The breakdown of a 160 code.
    pub fn from_code(code: u32) -> Breakdown {
        match code {
            1 => Breakdown::CostCentreStack,
            2 => Breakdown::Module,
            3 => Breakdown::ClosureDescription,
            4 => Breakdown::TypeDescription,
            5 => Breakdown::Retainer,
            6 => Breakdown::Biography,
            7 => Breakdown::ClosureType,
            8 => Breakdown::InfoTable,
            9 => Breakdown::Era,
            n => Breakdown::Unknown(n),
        }
    }

    /// What its bands are, in words (`eras` for `-he`).
    pub fn bands_are(self) -> &'static str {
        match self {
            Breakdown::CostCentreStack => "cost-centre stacks",
            Breakdown::Module => "modules",
            Breakdown::ClosureDescription => "closure descriptions",
            Breakdown::TypeDescription => "types",
            Breakdown::Retainer => "retainer sets",
            Breakdown::Biography => "biographies",
            Breakdown::ClosureType => "closure types",
            Breakdown::InfoTable => "info tables",
            Breakdown::Era => "eras",
            Breakdown::Unknown(_) => "bands",
        }
    }

    /// The RTS flag that selects it (`-hc`, …; `-h?` for an unknown code).
    pub fn flag(self) -> &'static str {
        match self {
            Breakdown::CostCentreStack => "-hc",
            Breakdown::Module => "-hm",
            Breakdown::ClosureDescription => "-hd",
            Breakdown::TypeDescription => "-hy",
            Breakdown::Retainer => "-hr",
            Breakdown::Biography => "-hb",
            Breakdown::ClosureType => "-hT",
            Breakdown::InfoTable => "-hi",
            Breakdown::Era => "-he",
            Breakdown::Unknown(_) => "-h?",
        }
    }
}

/// A breakdown as the summary's JSON has it: the RTS flag that made it (`-he`) and what
/// its bands are (`eras`).
impl serde::Serialize for Breakdown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut b = s.serialize_struct("Breakdown", 2)?;
        b.serialize_field("flag", self.flag())?;
        b.serialize_field("bands", self.bands_are())?;
        b.end()
    }
}

/// A mark with a text (an eventlog's marker, event 58, whose text was kept), at its
/// time on the chosen axis: in an eventlog's report and in the summary.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Marker {
    /// Seconds on the report's axis.
    pub time: f64,
    /// The text, decoded lossily from its bytes.
    pub text: String,
}

/// What the reader learnt besides the samples.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct EventlogReport {
    /// Tolerated damage and limitations, one line each, in the order found.
    pub warnings: Vec<EventlogWarning>,
    /// Markers with their texts, in time order.
    pub markers: Vec<Marker>,
    /// The points of every line over the bands ([`EventlogReport::line`]), by its place
    /// in `events::LINES`.
    pub(crate) lines: Vec<Vec<(f64, u64)>>,
    /// The profile kind; `None` if the log has no HEAP_PROF_BEGIN.
    pub breakdown: Option<Breakdown>,
    /// The sampling interval (`-i`) in seconds, from HEAP_PROF_BEGIN.
    pub sampling_period: Option<f64>,
    /// The RTS identifier, e.g. `GHC-9.0.2 rts_p`.
    pub rts: Option<String>,
    /// The axis the times are on (after any fallback).
    pub time_axis: TimeAxis,
    /// Whether sample times are estimates (index × sampling period: LDV-filtered logs).
    pub estimated_times: bool,
    /// Number of censuses read (the profile has two more: the empty first and last).
    pub censuses: usize,
    /// Number of distinct bands.
    pub bands: usize,
    /// The IPE entries (event 169), in order of first appearance (a later entry for
    /// the same address replaces an earlier one). `-hi` bands keep their address
    /// labels; [`crate::symbolize::name_bands`] names them from these.
    pub ipe: Vec<IpeEntry>,
    /// The program's argv\[0\] (PROGRAM_ARGS), as the run was started
    /// (`./leakmap`): where to look for its binary.
    pub program: Option<String>,
    /// How many IPE events (169) declare one byte more than their fields hold, as GHC
    /// 9.10's runtime writes every one: read by their fields without a warning (other
    /// sizes that do not fit are warned about, [`EventlogWarning::ByFields`]).
    pub ipe_one_byte_long: u64,
    /// The time profile's samples of a `+RTS -p -l` run (events 167 and 168), on the
    /// same time axis as the heap's; `None` when the log has none.
    pub(crate) time_samples: Option<prof_samples::TimeSamples>,
}

impl EventlogReport {
    /// The points of the line over the bands named `name`: (seconds on the report's
    /// axis, bytes), in time order (not the file's, which holds each capability's events
    /// in stretches); none for a line the log has no point of. The lines are `"heap
    /// size"` (HEAP_SIZE, event 50: the bytes of the megablocks the runtime holds, one
    /// point per collection and capability), `"live bytes"` (HEAP_LIVE, 51: after major
    /// collections) and `"blocks size"` (BLOCKS_SIZE, 91, GHC ≥ 9.2: the bytes of the
    /// blocks allocated).
    pub fn line(&self, name: &str) -> &[(f64, u64)] {
        let at = events::LINES.iter().position(|l| l.name == name);
        at.and_then(|i| self.lines.get(i))
            .map_or(&[], Vec::as_slice)
    }

    /// Every line over the bands with its name, in the order the key has them.
    pub(crate) fn lines(&self) -> impl Iterator<Item = (&'static str, &[(f64, u64)])> + '_ {
        (events::LINES.iter())
            .map(|l| l.name)
            .zip(self.lines.iter().map(Vec::as_slice))
    }
}
