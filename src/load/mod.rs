//! One way to read a profile, as the command reads it: [`load`] takes a `.hp` file or a
//! GHC eventlog, whichever the input is (its first bytes say), from any stream or from
//! bytes in memory, keeps the samples of a time window, and then applies the steps the
//! command applies after reading, in its order:
//!
//! 1. the bands of a `-hi` profile get names from the eventlog's IPE entries and the
//!    program's symbols (`--ipe-names`, `--binary`; the caller hands the binary in,
//!    [`Binary`]);
//! 2. an eventlog's heap size, live bytes and blocks size become lines over the bands
//!    (`--heap-size`);
//! 3. the band filter takes out the bands it does not keep (`--include`,
//!    `--exclude`), once, before aggregation.
//!
//! ```
//! use hp2ps::{load, LoadOptions, Source};
//!
//! let hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
//!            BEGIN_SAMPLE 0.0\nmain 10\nlib 5\nEND_SAMPLE 0.0\n";
//! let mut opts = LoadOptions::default();
//! opts.filter.exclude("^lib$").unwrap();
//! let loaded = load(Source::Bytes(hp), &opts).unwrap();
//! assert_eq!(loaded.profile.bands.len(), 1);
//! assert_eq!(loaded.filtered.unwrap().bands, 1);
//! ```

mod filter;
mod input;
mod naming;

pub use filter::{BandFilter, FilteredOut};
pub use input::Source;
pub use naming::{Binary, Program};

use std::fmt;

use crate::profile::{Profile, ProfileFacts, Series};
use crate::read::eventlog::{EventlogError, EventlogOptions, EventlogReport, EventlogWarning};
use crate::read::hp::{self, Pos, ReadError, ReadOptions};
use crate::read::window::{WindowError, WindowOptions};
use crate::seam::{HeaderField, SampleBlock, Sink};
use crate::symbolize::{Agreement, IpeNames, Naming};
use input::Notes;

/// How an input becomes the profile the command draws.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct LoadOptions {
    /// The `.hp` reader's limits. Default: [`ReadOptions::default`].
    pub hp: ReadOptions,
    /// How an eventlog becomes a profile (`--time`, `--full-names`).
    /// Default: [`EventlogOptions::default`].
    pub eventlog: EventlogOptions,
    /// `--from`, `--to`: the samples kept. Default: every sample.
    pub window: WindowOptions,
    /// `--ipe-names`: how the bands of a `-hi` profile are named. Default:
    /// [`IpeNames::Source`].
    pub ipe_names: IpeNames,
    /// `--binary`, or how to find the program an eventlog names: its symbols name the
    /// `-hi` bands that have no IPE entry. Default: [`Binary::None`].
    pub binary: Binary,
    /// `--heap-size`: an eventlog's heap size, live bytes and blocks size (GHC ≥ 9.2) as
    /// lines over the bands
    /// ([`Profile::series`]); a `.hp` has none, and gets a warning. Default: `false`.
    pub heap_size: bool,
    /// `--include`, `--exclude`: the bands kept. Default: every band.
    pub filter: BandFilter,
}

/// A profile loaded, and what was learnt on the way.
#[derive(Debug)]
#[non_exhaustive]
pub struct Loaded {
    /// The profile, ready for [`crate::pipeline::prepare`] and
    /// [`crate::summary::summarize`].
    pub profile: Profile,
    /// Everything worth a warning, in the order found: what the reader tolerated, then
    /// what the steps after reading could not do.
    pub warnings: Vec<Warning>,
    /// What an eventlog's reader learnt besides the samples (markers, heap sizes, IPE
    /// entries, the kind of profile); its warnings are in [`Self::warnings`]. `None` for
    /// a `.hp`.
    pub eventlog: Option<EventlogReport>,
    /// How the bands of a `-hi` profile were named; `None` when they were not renamed
    /// (not a `-hi` profile, or `--ipe-names address`).
    pub naming: Option<Naming>,
    /// The binary whose symbols were read for the naming, by its [`Program::name`]
    /// (whether they were used: [`Naming::binary_used`]).
    pub binary: Option<String>,
    /// What the band filter took out; `None` without a filter.
    pub filtered: Option<FilteredOut>,
}

impl Loaded {
    /// What its page's header says of how the profile was made: what its eventlog told
    /// (nothing for a `.hp`).
    pub(crate) fn facts(&self) -> ProfileFacts {
        let mut facts = ProfileFacts::default();
        if let Some(r) = &self.eventlog {
            facts.breakdown = r.breakdown.map(|b| b.flag().to_string());
            facts.interval = r.sampling_period;
            facts.runtime = r.rts.clone();
        }
        facts
    }
}

/// Why an input gave no profile.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// A `.hp` file that could not be read (a positioned error, or the input's).
    #[error(transparent)]
    Hp(#[from] ReadError),
    /// An eventlog that could not be read.
    #[error(transparent)]
    Eventlog(#[from] EventlogError),
    /// `--from` is after `--to` (or one of them is NaN): the window cannot hold a
    /// sample.
    #[error("the window {window} is empty: its start is after its end")]
    EmptyWindow {
        /// The window, as `[from, to]`.
        window: String,
    },
    /// The profile is fine, but none of its samples lies inside the window.
    #[error("no sample lies in the window {window}: the samples run from {first} to {last}")]
    NoSampleInWindow {
        /// The window, as `[from, to]`.
        window: String,
        /// The time of the profile's first sample.
        first: f64,
        /// The time of the profile's last sample.
        last: f64,
    },
}

impl From<WindowError> for LoadError {
    fn from(e: WindowError) -> LoadError {
        match e {
            WindowError::Inverted { window } => LoadError::EmptyWindow { window },
            WindowError::NoSampleInside {
                window,
                first,
                last,
            } => LoadError::NoSampleInWindow {
                window,
                first,
                last,
            },
        }
    }
}

/// Something that did not stop the profile, but that its user should know.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Warning {
    /// A `.hp` that ends inside a sample (the profiled program is still running or was
    /// killed): that sample was dropped.
    IncompleteLastSample {
        /// The end of the input.
        pos: Pos,
        /// How many complete samples were kept.
        samples_kept: usize,
    },
    /// A `.hp` that ends in the middle of a statement or line: it was dropped.
    TruncatedLastLine {
        /// Where the half-written statement starts.
        pos: Pos,
        /// What was half-written.
        detail: String,
    },
    /// Damage or a limitation the eventlog reader worked around.
    Eventlog(EventlogWarning),
    /// Heap-size lines were asked for, but a `.hp` has no heap size.
    HeapSizeNeedsEventlog,
    /// A binary was given, but the bands are not info-table addresses.
    BinaryNamesNothing {
        /// The binary's name.
        binary: String,
    },
    /// The binary given is not one whose symbols can be read.
    BinaryUnusable {
        /// The binary's name.
        binary: String,
        /// Why, in words.
        why: String,
    },
    /// The binary's symbols do not fit the profile's addresses: another program's.
    BinaryRefused {
        /// The binary's name.
        binary: String,
        /// What its symbols say about the addresses, in words.
        why: String,
    },
    /// Some bands' code lies outside the binary (in the shared libraries of a
    /// dynamically linked program): they keep their addresses.
    BandsOutsideBinary {
        /// The binary's name.
        binary: String,
        /// How many bands.
        outside: usize,
        /// Of how many.
        bands: usize,
    },
}

impl Warning {
    /// The warning as one line about the input `file`: `FILE:LINE:COL: …` when it has a
    /// position in a `.hp` file, else `FILE: …`.
    pub fn line(&self, file: &str) -> String {
        match self {
            Warning::IncompleteLastSample { .. } | Warning::TruncatedLastLine { .. } => {
                format!("{file}:{self}")
            }
            _ => format!("{file}: {self}"),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::IncompleteLastSample { pos, samples_kept } => {
                let (pos, samples_kept) = (*pos, *samples_kept);
                write!(f, "{}", hp::Warning::IncompleteLastSample { pos, samples_kept })
            }
            Warning::TruncatedLastLine { pos, detail } => {
                let (pos, detail) = (*pos, detail.clone());
                write!(f, "{}", hp::Warning::TruncatedLastLine { pos, detail })
            }
            Warning::Eventlog(w) => write!(f, "{w}"),
            Warning::HeapSizeNeedsEventlog => f.write_str(
                "--heap-size needs an eventlog (prog +RTS -h -l); a .hp has no heap size",
            ),
            Warning::BinaryNamesNothing { binary } => write!(
                f,
                "its bands are not info-table addresses (a -hi profile): --binary {binary} names nothing"
            ),
            Warning::BinaryUnusable { binary, why } => write!(f, "{binary} is not used: {why}"),
            Warning::BinaryRefused { binary, why } => write!(
                f,
                "{binary} is not the program that wrote it ({why}): its symbols are not used"
            ),
            Warning::BandsOutsideBinary {
                binary,
                outside,
                bands,
            } => write!(
                f,
                "{outside} of {bands} band addresses lie outside {binary} (in shared libraries, if the program is linked dynamically): they keep their addresses"
            ),
        }
    }
}

impl From<hp::Warning> for Warning {
    fn from(w: hp::Warning) -> Warning {
        match w {
            hp::Warning::IncompleteLastSample { pos, samples_kept } => {
                Warning::IncompleteLastSample { pos, samples_kept }
            }
            hp::Warning::TruncatedLastLine { pos, detail } => {
                Warning::TruncatedLastLine { pos, detail }
            }
        }
    }
}

/// Why a binary was refused, in words.
pub(crate) fn disagreement(a: &Agreement) -> String {
    let mut why = format!(
        "{} of {} band addresses fall on its symbols",
        a.band_hits, a.in_binary
    );
    if a.ipe_disagree > a.ipe_agree {
        why.push_str(&format!(
            ", and {} of {} IPE entries on a symbol of another name",
            a.ipe_disagree,
            a.ipe_agree + a.ipe_disagree
        ));
    }
    why
}

/// Reads a `.hp` file or an eventlog from `source`, and applies the steps after reading
/// (see the module docs): the profile the command draws with the same options.
pub fn load(source: Source<'_>, opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let (profile, notes) = input::read_source(source, opts)?;
    Ok(after_reading(profile, notes, opts))
}

/// The samples a reader of the crate's own handed over whole (the live stage's run so
/// far), with the steps after reading of [`load`]: through the time window, then named,
/// given their heap-size lines and filtered as a loaded profile. `report` is what an
/// eventlog's reader learnt (`None` for a `.hp`).
pub(crate) fn load_samples(
    header: &[(HeaderField, Vec<u8>)],
    block: SampleBlock,
    report: Option<EventlogReport>,
    opts: &LoadOptions,
) -> Result<Loaded, LoadError> {
    let feed = |sink: &mut dyn Sink| {
        for (field, text) in header {
            sink.header(*field, text);
        }
        sink.samples(block);
        Ok::<(), LoadError>(())
    };
    let (profile, ()) = input::through_window(opts, feed)?;
    let notes = match report {
        Some(report) => Notes::Eventlog(Box::new(report)),
        None => Notes::Hp(Vec::new()),
    };
    Ok(after_reading(profile, notes, opts))
}

/// The steps after reading (see the module docs), on what a reader gave.
fn after_reading(mut profile: Profile, notes: Notes, opts: &LoadOptions) -> Loaded {
    let (mut warnings, eventlog) = match notes {
        Notes::Hp(warnings) => (warnings.into_iter().map(Warning::from).collect(), None),
        Notes::Eventlog(mut report) => {
            let warnings = std::mem::take(&mut report.warnings);
            let warnings = warnings.into_iter().map(Warning::Eventlog).collect();
            (warnings, Some(*report))
        }
    };
    let named = naming::name_bands(&mut profile, eventlog.as_ref(), opts, &mut warnings);
    if opts.heap_size {
        match &eventlog {
            Some(report) => profile.series = heap_series(report),
            None => warnings.push(Warning::HeapSizeNeedsEventlog),
        }
    }
    let filtered = (!opts.filter.is_empty()).then(|| opts.filter.take_out(&mut profile));
    Loaded {
        profile,
        warnings,
        eventlog,
        naming: named.naming,
        binary: named.binary,
        filtered,
    }
}

/// The lines over the bands an eventlog recorded (the heap size, live bytes and blocks
/// size: its report's lines), as lines to draw over the bands. A line the log has no
/// point of is left out: GHC before 9.2 writes no blocks size.
fn heap_series(report: &EventlogReport) -> Vec<Series> {
    (report.lines())
        .filter(|(_, points)| !points.is_empty())
        .map(|(name, points)| Series {
            name: name.as_bytes().to_vec(),
            points: points.iter().map(|&(t, b)| (t, b as f64)).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests;
