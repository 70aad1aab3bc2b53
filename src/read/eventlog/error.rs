//! Why an eventlog could not be read, and what was tolerated while reading it.

use std::fmt;
use std::ops::Range;

/// One stretch of skipped bytes, and the censuses lost there (the warning shows it as
/// two ranges: [`EventlogWarning::Damaged`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DamagedRegion {
    /// The first byte skipped.
    pub(crate) from: u64,
    /// The byte after the last one skipped.
    pub(crate) to: u64,
    /// Censuses lost there.
    pub(crate) censuses_lost: u64,
    /// The number of the first census lost there (1 = the log's first census).
    pub(crate) first_lost: u64,
}

impl DamagedRegion {
    /// The region as the warning has it: the bytes skipped, the numbers of the censuses
    /// lost there.
    pub(crate) fn ranges(&self) -> (Range<u64>, Range<u64>) {
        let lost = self.first_lost..self.first_lost + self.censuses_lost;
        (self.from..self.to, lost)
    }
}

/// Why an eventlog gave no profile. Every message is one line: what was found, what was
/// expected, and where (byte offset from the start of the input) when that helps.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EventlogError {
    /// The input could not be read.
    #[error("reading the eventlog: {0}")]
    Io(#[from] std::io::Error),
    /// The first bytes are not an eventlog's (`hdrb` `hetb`).
    #[error("byte 0: not a GHC eventlog (found {found}, expected the magic \"hdrb\")")]
    NotEventlog {
        /// The first bytes, quoted.
        found: String,
    },
    /// The header (event-type declarations) is cut or malformed.
    #[error("byte {offset}: bad eventlog header: found {found}, expected {expected}")]
    BadHeader {
        /// Where the problem starts.
        offset: u64,
        /// What was there.
        found: String,
        /// What should have been there.
        expected: &'static str,
    },
    /// The log was read, but it holds no complete heap-profile sample.
    #[error("no heap profile samples: {why}")]
    NoSamples {
        /// What the log holds instead, and how to get samples.
        why: String,
        /// Whether it holds a time profile's events instead (`+RTS -p -l`): read it as
        /// a [`crate::TimeProfile`].
        time_profile: bool,
    },
    /// The log was read for its time profile, but it holds no time sample.
    #[error("no time profile samples: {why}")]
    NoTimeSamples {
        /// How to get samples.
        why: String,
    },
}

impl EventlogError {
    /// The byte offset the error refers to, if any.
    pub fn offset(&self) -> Option<u64> {
        match self {
            EventlogError::NotEventlog { .. } => Some(0),
            EventlogError::BadHeader { offset, .. } => Some(*offset),
            _ => None,
        }
    }
}

/// Damage or a limitation that the reader worked around. Each prints as one line.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EventlogWarning {
    /// The input ended inside an event or without the end marker.
    Truncated {
        /// Where the input ended.
        offset: u64,
        /// Whether an unfinished census was dropped.
        dropped_sample: bool,
    },
    /// An event id the header does not declare: its size is unknown. (No longer given:
    /// such ids are damage, skipped to where valid events go on; see [`Self::Damaged`].)
    UndeclaredEvent {
        /// Where the event starts.
        offset: u64,
        /// Its id.
        id: u16,
    },
    /// A known event too short for its layout; it was skipped.
    ShortEvent {
        /// Where the event starts.
        offset: u64,
        /// Its id.
        id: u16,
    },
    /// Damaged data: from each damaged place, the bytes up to where valid events go on
    /// were skipped (an undeclared event type, a size that does not fit, an event outside
    /// its block's span); the censuses the damage fell in are lost.
    Damaged {
        /// The first damaged places, at most eight, in file order: each the bytes
        /// skipped (`from..to`; an empty range is one event made unusable at `from`),
        /// and the numbers of the censuses lost there (1 = the log's first census;
        /// empty when none was).
        regions: Vec<(Range<u64>, Range<u64>)>,
        /// Damaged places in all.
        count: u64,
        /// Bytes skipped in all.
        bytes: u64,
        /// Censuses lost in all.
        censuses_lost: u64,
    },
    /// Heap events that declare more (or fewer) bytes than their fields hold, where
    /// valid events go on where their fields end, not where their size does: read by
    /// their fields, as ghc-events does (GHC 9.10 declares its IPE events one byte too
    /// long; those are counted in [`super::EventlogReport::ipe_one_byte_long`] instead).
    ByFields {
        /// Where the first such event starts.
        offset: u64,
        /// Its type.
        id: u16,
        /// How many.
        count: u64,
    },
    /// Heap events with bytes after their known fields, where valid events go on after
    /// them: the bytes are skipped (a newer GHC may append fields).
    ExtraBytes {
        /// Where the first such event starts.
        offset: u64,
        /// Its type.
        id: u16,
        /// How many.
        count: u64,
    },
    /// Block markers whose time span or size does not hold their block's events: the
    /// blocks were read without their bounds.
    MarkerLies {
        /// Where the first such block marker starts.
        offset: u64,
        /// Its type.
        id: u16,
        /// How many.
        count: u64,
    },
    /// Events whose timestamp is out of their block's order (GHC's buffers post events
    /// in time order): damage, read with the time of the event before.
    Retimed {
        /// Where the first such event starts.
        offset: u64,
        /// Its type.
        id: u16,
        /// How many.
        count: u64,
    },
    /// Bytes after the end marker, ignored.
    TrailingBytes {
        /// Where the end marker ended.
        offset: u64,
    },
    /// Band events outside any census, dropped.
    StrayBands {
        /// How many.
        count: u64,
    },
    /// The log has no GC events (`-l-a`), so times are elapsed, not mutator, seconds.
    NoGcEvents,
    /// An LDV-filtered profile: every census is stamped at exit, so sample times are
    /// spread by the sampling period instead.
    TimesUnavailable {
        /// The sampling period used, in seconds.
        period: f64,
    },
    /// A `-hr` profile: the `MANY` retainer set is never written to eventlogs.
    NoManyBand,
    /// More marker texts than kept; the extra ones are marks without text in the report.
    MarkerTextsDropped {
        /// How many texts were not kept.
        count: u64,
    },
    /// No wall-clock event: the DATE is empty.
    NoDate,
    /// The local-time zone could not be read; the DATE is in UTC.
    DateInUtc {
        /// Why.
        why: String,
    },
    /// A threaded GHC before 9.2 with several capabilities: its idle GC threads wait
    /// busily, the `.hp` counts that as the program's time, and the eventlog does not
    /// show it, so the mutator times may fall behind the `.hp`'s.
    SpinningGcThreads {
        /// Capabilities in the log.
        capabilities: usize,
    },
    /// Band names longer than the limits (`--full-names` on stacks of long labels, a
    /// log's own `-L`), cut to their first bytes and `...`.
    NamesCut {
        /// How many names were cut.
        count: u64,
        /// The length they were longer than, in bytes: each was cut to its first
        /// `to - 4` bytes and `...`.
        to: usize,
        /// The limit on one name ([`super::EventlogOptions::max_name_len`]).
        most: usize,
        /// The limit on all names ([`super::EventlogOptions::max_names_bytes`]).
        budget: usize,
    },
}

/// How events were framed when their declared size did not do: which warning the
/// framer's notes give ([`EventlogWarning::ByFields`] and the three after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FramingRule {
    ByFields,
    ExtraBytes,
    MarkerLies,
    Retimed,
}

impl FramingRule {
    /// The warning of `count` events framed by this rule, the first at `offset`, of
    /// type `id`.
    pub(crate) fn warning(self, offset: u64, id: u16, count: u64) -> EventlogWarning {
        match self {
            FramingRule::ByFields => EventlogWarning::ByFields { offset, id, count },
            FramingRule::ExtraBytes => EventlogWarning::ExtraBytes { offset, id, count },
            FramingRule::MarkerLies => EventlogWarning::MarkerLies { offset, id, count },
            FramingRule::Retimed => EventlogWarning::Retimed { offset, id, count },
        }
    }
}

impl fmt::Display for EventlogWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventlogWarning::Truncated {
                offset,
                dropped_sample,
            } => {
                write!(
                    f,
                    "byte {offset}: the eventlog is cut short (no end marker)"
                )?;
                if *dropped_sample {
                    write!(f, "; the unfinished last census was dropped")?;
                }
                Ok(())
            }
            EventlogWarning::UndeclaredEvent { offset, id } => write!(
                f,
                "byte {offset}: event id {id} is not declared in the header \
                 (corrupt data); reading stopped, earlier samples are kept"
            ),
            EventlogWarning::ShortEvent { offset, id } => write!(
                f,
                "byte {offset}: event {id} is shorter than its layout; skipped"
            ),
            EventlogWarning::Damaged {
                regions,
                count,
                bytes,
                censuses_lost,
            } => {
                write!(f, "damaged data skipped at ")?;
                for (i, (skipped, lost)) in regions.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    match skipped.end.saturating_sub(skipped.start) {
                        0 | 1 => write!(f, "byte {}", skipped.start)?,
                        _ => write!(f, "bytes {}-{}", skipped.start, skipped.end - 1)?,
                    }
                    match lost.end.saturating_sub(lost.start) {
                        0 => {}
                        1 => write!(f, " (census {} lost)", lost.start)?,
                        n => write!(f, " ({n} censuses lost from census {})", lost.start)?,
                    }
                }
                let more = count.saturating_sub(regions.len() as u64);
                if more > 0 {
                    write!(f, " and {more} more places")?;
                }
                let s = if *censuses_lost == 1 { "" } else { "es" };
                write!(f, "; {bytes} bytes, {censuses_lost} census{s} lost in all")
            }
            EventlogWarning::ByFields { offset, id, count } => framed(
                f,
                (*offset, *id, *count),
                "declares a size its fields do not fill; read by its fields, where the \
                 next event starts",
            ),
            EventlogWarning::ExtraBytes { offset, id, count } => framed(
                f,
                (*offset, *id, *count),
                "has bytes after its known fields; skipped",
            ),
            EventlogWarning::MarkerLies { offset, id, count } => framed(
                f,
                (*offset, *id, *count),
                "(a block marker) gives a span or size that does not hold its events; its \
                 block was read without them",
            ),
            EventlogWarning::Retimed { offset, id, count } => framed(
                f,
                (*offset, *id, *count),
                "has a timestamp out of its block's order (damage); read with the time of \
                 the event before it",
            ),
            EventlogWarning::TrailingBytes { offset } => {
                write!(f, "byte {offset}: bytes after the end marker, ignored")
            }
            EventlogWarning::StrayBands { count } => {
                write!(f, "{count} band events outside any census, dropped")
            }
            EventlogWarning::NoGcEvents => write!(
                f,
                "no GC events in the eventlog (run with -l, not -l-a): times are \
                 elapsed seconds, not mutator seconds as in the .hp"
            ),
            EventlogWarning::TimesUnavailable { period } => write!(
                f,
                "LDV-filtered profile: the eventlog stamps every census at exit, so \
                 samples are placed every {period} s (the sampling period)"
            ),
            EventlogWarning::NoManyBand => write!(
                f,
                "-hr profile: the MANY retainer set is never written to eventlogs, so \
                 totals may be below the .hp's"
            ),
            EventlogWarning::MarkerTextsDropped { count } => {
                write!(f, "{count} marker texts not kept (too many markers)")
            }
            EventlogWarning::NoDate => {
                write!(f, "no wall-clock event in the eventlog: DATE is empty")
            }
            EventlogWarning::DateInUtc { why } => {
                write!(
                    f,
                    "DATE is in UTC: the local time zone is unreadable ({why})"
                )
            }
            EventlogWarning::NamesCut {
                count,
                to,
                most,
                budget,
            } => {
                let s = if *count == 1 { "" } else { "s" };
                write!(
                    f,
                    "{count} band name{s} of more than {to} bytes cut short (the limits on \
                     band names: {most} bytes each, {budget} bytes in all)"
                )
            }
            EventlogWarning::SpinningGcThreads { capabilities } => write!(
                f,
                "{capabilities} capabilities on a GHC before 9.2: its idle GC threads spin, \
                 which the .hp counts as the program's time and the eventlog does not \
                 show, so times may fall behind the .hp's"
            ),
        }
    }
}

/// A framing warning's line: `what` the first of `count` events did, at `offset`, of
/// type `id`.
fn framed(
    f: &mut fmt::Formatter<'_>,
    (offset, id, count): (u64, u16, u64),
    what: &str,
) -> fmt::Result {
    write!(f, "byte {offset}: event {id} {what} ({count} in all)")
}
