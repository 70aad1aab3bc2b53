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

mod binary;
mod error;
mod filter;
mod input;
mod naming;
mod options;
mod time;
mod warning;

pub use binary::{Binary, Program};
pub use error::LoadError;
pub use filter::{BandFilter, FilteredOut};
// The command's (run/).
pub use input::Source;
#[cfg(feature = "cli")]
pub(crate) use input::{band_totals, eventlog_placement};
pub use options::LoadOptions;
pub(crate) use time::{TimeProfile, TimeProfileKind};
pub use warning::Warning;

#[cfg(feature = "cli")]
use crate::profile::keep::{BandTotals, Growth, Sums};
use crate::profile::{Profile, ProfileFacts, Series};
use crate::read::eventlog::EventlogReport;
use crate::seam::{HeaderField, SampleBlock, Sink};
use crate::symbolize::Naming;
use input::Notes;

/// A profile loaded, and what was learnt on the way.
#[derive(Debug)]
#[non_exhaustive]
pub struct Loaded {
    /// The profile, ready for [`crate::pipeline::prepare`] and
    /// [`crate::summary::Summary::of`].
    pub profile: Profile,
    /// Everything worth a warning, in the order found: what the reader tolerated, then
    /// what the steps after reading could not do.
    pub warnings: Vec<Warning>,
    /// What an eventlog's reader learnt besides the samples (markers, heap sizes, IPE
    /// entries, the kind of profile); its warnings are in [`Self::warnings`]. `None` for
    /// a `.hp`.
    pub eventlog: Option<EventlogReport>,
    /// How the bands of a `-hi` profile were named, and the binary whose symbols named
    /// them ([`Naming::binary`]); `None` when they were not renamed (not a `-hi`
    /// profile, or `--ipe-names address`).
    pub naming: Option<Naming>,
    /// What the band filter took out; `None` without a filter.
    pub filtered: Option<FilteredOut>,
}

impl Loaded {
    /// What its page's header says of how the profile was made: what its eventlog told
    /// (nothing for a `.hp`), and what its reading warned of.
    pub(crate) fn facts(&self) -> ProfileFacts {
        let mut facts = ProfileFacts::default();
        if let Some(r) = &self.eventlog {
            facts.breakdown = r.breakdown.map(|b| b.flag().to_string());
            facts.interval = r.sampling_period;
            facts.runtime = r.rts.clone();
        }
        let warned = self.warnings.iter().filter(|w| !w.only_when_asked());
        facts.warnings = warned.map(Warning::to_string).collect();
        facts
    }
}

/// Reads a `.hp` file or an eventlog from `source`, and applies the steps after reading
/// (see the module docs): the profile the command draws with the same options.
pub fn load(source: Source<'_>, opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let (profile, notes) = input::read_source(source, opts)?;
    Ok(after_reading(profile, notes, opts))
}

/// [`load`] of a long mapped `.hp` for `--summary` (issue 39): the profile as loaded but
/// without its bands' points, and the sums its summary needs instead
/// ([`crate::summary::summarize_sums`]); `None` when the steps after reading need the
/// points (a band filter, `-hi` bands renamed), the sums are not the same doubles as
/// the points' ([`Sums::exact`]), or for an eventlog that a first reading did not place
/// (`opts.placed`): the caller then reads the input whole. The same errors as [`load`].
#[cfg(feature = "cli")]
pub(crate) fn load_summed(
    bytes: &[u8],
    opts: &LoadOptions,
    release: &mut dyn FnMut(usize),
) -> Result<Option<(Loaded, Sums)>, LoadError> {
    if !opts.filter.is_empty() {
        return Ok(None);
    }
    let Some((profile, notes, sums)) = input::read_summed(bytes, opts, release)? else {
        return Ok(None);
    };
    let loaded = after_reading(profile, notes, opts);
    Ok((sums.exact && loaded.naming.is_none()).then_some((loaded, sums)))
}

/// The growth of the bands of a profile that [`load_summed`] loaded from `bytes` with
/// `opts` as `loaded` with `sums`, from a second reading of the same bytes (the growth
/// needs each band's mean before its values), in the profile's order of bands, with
/// their sparklines; `None` for an input [`load_summed`] would not take.
#[cfg(feature = "cli")]
pub(crate) fn load_slopes(
    bytes: &[u8],
    opts: &LoadOptions,
    loaded: &Loaded,
    sums: &Sums,
    release: &mut dyn FnMut(usize),
) -> Result<Option<Growth>, LoadError> {
    let growth = input::read_slopes(bytes, opts, &loaded.profile.times, sums, release)?;
    let bands = loaded.profile.bands.len();
    Ok(growth.filter(|g| g.slopes.len() == bands && g.sparks.len() == bands))
}

/// [`load_summed`] with every band's total besides (`crate::profile::keep`), from one
/// reading: the page of a long mapped `.hp` (issue 39). `None` as [`load_summed`].
#[cfg(feature = "cli")]
pub(crate) fn load_totals_summed(
    bytes: &[u8],
    opts: &LoadOptions,
    release: &mut dyn FnMut(usize),
) -> Result<Option<(Loaded, Sums, BandTotals)>, LoadError> {
    if !opts.filter.is_empty() {
        return Ok(None);
    }
    let Some((profile, notes, sums, totals)) = input::read_totals_summed(bytes, opts, release)?
    else {
        return Ok(None);
    };
    let loaded = after_reading(profile, notes, opts);
    let taken = sums.exact && loaded.naming.is_none();
    Ok(taken.then_some((loaded, sums, totals)))
}

/// [`load`] of the drawn bands' points (`opts.drawn`) with the bands' growth and
/// sparklines ([`load_slopes`]) from the same reading, of bytes [`load_totals_summed`]
/// loaded as `summed` with `sums` (its times lent to the reading: there again after it);
/// `None` for an input it would not take.
#[cfg(feature = "cli")]
pub(crate) fn load_drawn_sloped(
    bytes: &[u8],
    opts: &LoadOptions,
    summed: &mut Loaded,
    sums: &Sums,
    release: &mut dyn FnMut(usize),
) -> Result<Option<(Loaded, Growth)>, LoadError> {
    let times = &mut summed.profile.times;
    let Some((profile, notes, growth)) =
        input::read_drawn_sloped(bytes, opts, times, sums, release)?
    else {
        return Ok(None);
    };
    let bands = summed.profile.bands.len();
    if growth.slopes.len() != bands || growth.sparks.len() != bands {
        return Ok(None);
    }
    Ok(Some((after_reading(profile, notes, opts), growth)))
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
    let naming = naming::name_bands(&mut profile, eventlog.as_ref(), opts, &mut warnings);
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
        naming,
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
