//! From a [`Profile`] to the bands that are drawn, in hp2ps's step order
//! (`docs/reference/hp2ps-behaviour.md` §3.2–3.9): the initial hash-bucket order, trace
//! elimination (`-t`), the `-d`, `-i` and `-p` orders, the band limit with OTHER (`-m`),
//! the ranges and the area. One file per pass; then the samples drawn ([`thin`]).
//!
//! Files: [`aggregate`] runs the passes (`mod.rs`): hash-bucket order and the `-d`/`-i`/`-p`
//! sorts and `--sort growth` (`order.rs`, over hp2ps's selection sort in
//! `selection_sort.rs`), trace elimination (`traces.rs`), band limit and OTHER
//! (`limit.rs`), the lines over the bands cut to the chart's span (`series.rs`); the
//! stacking and the area are the model's arithmetic (`src/profile/stack.rs`). Every band's
//! own numbers (peak, area, share, growth, sparkline: `numbers.rs`), which `--summary` and
//! the HTML page's band table share, with what became of each band (drawn, in OTHER, a
//! trace), kept when the format needs a band table ([`Needs::band_table`]). Then, outside
//! hp2ps's steps, thinning (`thin.rs`, one call): the samples drawn within `--max-points`
//! or the format's budget (`decimate/`, after the ranges and area are fixed: the budget
//! and the dropping loop in `mod.rs`, the price of dropping a sample in `edges.rs`), and
//! for a chart that carries its data what it keeps besides (`page.rs`: levels of detail,
//! tiles of 10^k of the run each thinned as a chart of it alone, and the values of the
//! bands not drawn, within a budget of values). A run followed as it is written (the live
//! page) is thinned as it comes, census by census, within a fixed memory (`pyramid.rs`:
//! levels of detail that keep each stretch's envelope, its lowest and highest census);
//! its page's samples then go through the same passes and thinning as any profile's.
//! [`share_ranges`] gives the charts of several runs one scale. A long `.hp` read twice
//! (`crate::profile::keep`) has its bands' roles decided from their totals alone
//! (`drawn.rs`), with the same passes; its page, read in parts, has every band's numbers
//! and the stack of every band given (`facts.rs`), and the points of the bands it does
//! not draw filled in at the samples it carries them at (`thin.rs`'s `thin_filled`).

mod decimate;
mod drawn;
mod facts;
mod limit;
pub(crate) mod numbers;
mod order;
mod page;
#[cfg(feature = "cli")]
pub(crate) mod pyramid;
mod selection_sort;
mod series;
mod thin;
mod traces;

pub use decimate::samples_within;
// The command's (run/).
#[cfg(feature = "cli")]
pub(crate) use drawn::{drawn_roles, page_roles};
pub(crate) use facts::PageFacts;
pub use limit::apply_band_limit;
pub(crate) use numbers::every_band;
#[cfg(feature = "cli")]
pub(crate) use numbers::every_band_of_sums;
pub(crate) use numbers::{BandNumbers, Fate};
pub use order::NameOrder;
pub(crate) use thin::{thin, thin_filled, FillRest, Thinned};
pub use traces::{band_total, eliminate_traces};

use std::collections::BTreeMap;

use crate::aux_file::Aux;
use crate::defaults;
use crate::needs::Needs;
use crate::profile::spill::SpillHandle;
use crate::profile::{stack_heights, Band, BandInfo, Profile, Series, StackFold};

/// How the bands of a profile are chosen and ordered: hp2ps's `-t`, `-d`, `-i` and `-m`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AggregateOptions {
    /// `-t`: bands whose combined share stays below this percentage are dropped.
    /// Default: 1.0 ([`defaults::TRACE_PERCENT`]).
    pub trace_percent: f64,
    /// `-d`: order by standard deviation. Default: `false`.
    pub by_deviation: bool,
    /// `-i`: order by name. Default: `None`.
    pub by_name: Option<NameOrder>,
    /// With `by_name`: names that are whole decimal numbers (the eras of a `-he`
    /// profile) sort by their value, before every other name, which keep byte order
    /// (`--sort name`: era 2 below era 10). `-i` leaves it off, as hp2ps sorts bytes.
    /// Default: `false`.
    pub numeric_names: bool,
    /// `-m`: the band limit N; 0 means none, a negative value drops every band.
    /// Default: 20 ([`defaults::BAND_LIMIT`]).
    pub band_limit: i64,
    /// `--sort growth`: order by growth (`order.rs`), after `-d` and `-i`. Default: `false`.
    pub by_growth: bool,
    /// `--reverse`: stack the drawn bands the other way up (OTHER stays at the bottom; which
    /// bands merge into it does not change). Default: `false`.
    pub reverse: bool,
    /// The time span is at least this (`--uniform-scale`: charts of several profiles share
    /// their x axis), as an `.aux` X_RANGE would make it. Default: `None`.
    pub min_x_range: Option<f64>,
    /// The stack height is at least this (`--uniform-scale`: charts share their y axis), as
    /// an `.aux` Y_RANGE would make it. Default: `None`.
    pub min_y_range: Option<f64>,
    /// `--max-points`: draw at most this many samples; the rest are dropped as
    /// `decimate.rs` describes (each edge keeps its extremes in every small slice of the
    /// x axis, the same samples for every band), after the ranges and the area are
    /// computed from every sample. `Some(0)` draws every sample; `None` leaves it to the
    /// format ([`Needs::band_points`]). Default: `None`.
    pub max_points: Option<usize>,
}

impl Default for AggregateOptions {
    fn default() -> Self {
        AggregateOptions {
            trace_percent: defaults::TRACE_PERCENT,
            by_deviation: false,
            by_name: None,
            numeric_names: false,
            band_limit: defaults::BAND_LIMIT,
            by_growth: false,
            reverse: false,
            min_x_range: None,
            min_y_range: None,
            max_points: None,
        }
    }
}

/// The bands to draw, bottom band first, with the numbers the layout needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregated {
    /// The profile's `JOB`.
    pub job: Vec<u8>,
    /// The profile's `DATE`.
    pub date: Vec<u8>,
    /// The profile's `SAMPLE_UNIT`.
    pub sample_unit: Vec<u8>,
    /// The profile's `VALUE_UNIT`.
    pub value_unit: Vec<u8>,
    /// The time of every sample.
    pub times: Vec<f64>,
    /// The time of every mark.
    pub marks: Vec<f64>,
    /// The text of every mark, in the order of `marks`, when any has one; else empty.
    pub mark_texts: Vec<Vec<u8>>,
    /// The profile's lines over the bands, cut to the chart's time span (`first_time()`
    /// to `first_time() + x_range`); the y range holds them.
    pub series: Vec<Series>,
    /// The bands to draw, bottom band first (OTHER, if any, at the bottom).
    pub bands: Vec<Band>,
    /// Whether the bottom band is OTHER, made by the band limit.
    pub other: bool,
    /// How many samples the profile has (`times` may hold fewer after
    /// thinning: `thin.rs`).
    pub samples: usize,
    /// The profile's [`Profile::band_info`], by band name (the bands that were not
    /// drawn may still be in it).
    pub band_info: BTreeMap<Vec<u8>, BandInfo>,
    /// Time span (at least the aux X_RANGE; 1.0 instead of 0).
    pub x_range: f64,
    /// Highest stack (at least the aux Y_RANGE; 1.0 instead of 0); with
    /// [`Needs::lines_apart`], every band's total at its highest instead.
    pub y_range: f64,
    /// The Y_RANGE the `.aux` records: hp2ps's (the drawn stack's highest, or a line's
    /// above it), whatever the chart's scale, so that `-p` reads the same file.
    pub aux_y_range: f64,
    /// The "bytes x seconds" integral of the stacked bands.
    pub area: f64,
    /// Where the x axis's ticks stop: before the last sample, as in hp2ps, or, when
    /// [`AggregateOptions::min_x_range`] widened the range, before the end of that range
    /// (so that charts sharing a scale share their labels too).
    pub x_axis_end: f64,
    /// The `-m` band limit the bands were chosen with; the layout needs it too (no key
    /// for `-m0`, a key on pages of its own above 20).
    pub band_limit: i64,
    /// The `-t` threshold the bands were chosen with; hp2ps's width table yields it for
    /// byte 0x14, so the layout needs it too.
    pub trace_percent: f64,
    /// With [`Needs::band_table`]: every band of the profile (after
    /// `--include`/`--exclude`) with its numbers over every sample and what became of it,
    /// biggest area first (`numbers.rs`); else empty.
    pub table: Vec<BandNumbers>,
    /// With [`Needs::rest`] or [`Needs::every_band`]: the bands of the profile that are
    /// not drawn on their own (the traces, then the bands merged into OTHER or dropped by
    /// a negative band limit), with their own points; else empty.
    pub rest: Vec<Band>,
    /// With [`Needs::data`]: every band's total at each sample (traces and the bands
    /// merged into OTHER included: `--summary`'s total, whose highest is its peak),
    /// thinned with the samples; else empty.
    pub totals: Vec<f64>,
}

impl Aggregated {
    /// The time of the first sample (0 without samples).
    pub fn first_time(&self) -> f64 {
        self.times.first().copied().unwrap_or(0.0)
    }
    /// The time of the last sample (0 without samples).
    pub fn last_time(&self) -> f64 {
        self.times.last().copied().unwrap_or(0.0)
    }
}

/// Runs the passes in hp2ps's step order (§3.2). `aux` is the previous run's `.aux` (`-p`);
/// `needs` says whether the chart's format lists every band ([`Needs::band_table`]) and
/// keeps those not drawn ([`Needs::rest`]). The samples are thinned after this, by
/// `thin` (`thin.rs`).
pub fn aggregate(
    profile: Profile,
    aux: Option<&Aux>,
    opts: &AggregateOptions,
    needs: &Needs,
) -> Aggregated {
    aggregate_known(profile, aux, opts, needs, None, None)
}

/// [`aggregate`], with every band's total (hp2ps's, in band order) when it is known from
/// a first reading (`drawn.rs`): the bands then hold only what that reading's roles
/// kept of them.
pub(crate) fn aggregate_known(
    profile: Profile,
    aux: Option<&Aux>,
    opts: &AggregateOptions,
    needs: &Needs,
    known: Option<&[i64]>,
    spill: Option<&SpillHandle>,
) -> Aggregated {
    aggregate_facts(profile, aux, opts, needs, known, None, spill)
}

/// [`aggregate_known`], with every band's numbers and the stack of every band when
/// readings of a long profile found them (`facts`), instead of working them out from
/// points the profile does not hold; with a `spill`, the drawn bands' points and the
/// stack's heights are in it.
pub(crate) fn aggregate_facts(
    profile: Profile,
    aux: Option<&Aux>,
    opts: &AggregateOptions,
    needs: &Needs,
    known: Option<&[i64]>,
    facts: Option<PageFacts>,
    spill: Option<&SpillHandle>,
) -> Aggregated {
    let nsamples = profile.times.len();
    let mut bands = profile.bands;
    let (known_table, known_heights) = match facts {
        Some(f) => (Some(f.table), Some(f.heights)),
        None => (None, None),
    };
    let totals = match needs.data {
        true => known_heights.unwrap_or_else(|| stack_heights(&bands, nsamples)),
        false => Vec::new(),
    };
    let mut table = match needs.band_table {
        true => known_table.unwrap_or_else(|| every_band(&bands, &profile.times)),
        false => Vec::new(),
    };
    let mut fates = Fates::new(&table);
    // The initial order is only the order the trace sort starts from: the bands move
    // once, after it.
    let initial = order::hash_order_of(&bands);
    let mut rest = traces::eliminate_traces_in(&mut bands, &initial, opts.trace_percent, known);
    fates.mark(&bands, Fate::Other);
    if opts.by_deviation {
        order::sort_by_deviation(&mut bands, nsamples);
    }
    if let Some(name_order) = opts.by_name {
        order::sort_by_name(&mut bands, name_order, opts.numeric_names);
    }
    if opts.by_growth {
        order::sort_by_growth(&mut bands, &profile.times);
    }
    if let Some(aux) = aux {
        order::sort_by_aux(&mut bands, aux);
    }
    // With a spill, OTHER's points are in it (the merged bands' sum, the reading's):
    // the band made here is to hold none.
    let sums = if spill.is_some() { 0 } else { nsamples };
    let (other, merged) = limit::band_limit_keeping(&mut bands, opts.band_limit, sums);
    if needs.rest || needs.every_band {
        rest.extend(merged);
    } else {
        limit::drop_in_background(std::mem::take(&mut rest));
        limit::drop_in_background(merged);
    }
    fates.mark(&bands[usize::from(other)..], Fate::Drawn);
    let decided = fates.decided(opts.band_limit < 0);
    for (row, fate) in table.iter_mut().zip(decided) {
        row.fate = fate;
    }
    if opts.reverse {
        let first_drawn = usize::from(other);
        bands[first_drawn..].reverse();
    }

    let times = profile.times;
    let stack = match spill {
        Some(spill) => spilled_stack(spill, &times),
        None => {
            let mut fold = StackFold::default();
            (stack_heights(&bands, nsamples).into_iter()).for_each(|h| fold.push(&times, h));
            fold
        }
    };
    let first = times.first().copied().unwrap_or(0.0);
    let last = times.last().copied().unwrap_or(0.0);
    let x_range = nonzero(at_least(
        at_least(last - first, aux.and_then(|a| a.x_range)),
        opts.min_x_range,
    ));
    let y_max = stack.peak.unwrap_or(0.0);
    let series = series::clip_series(profile.series, first, first + x_range);
    let hp2ps_max = match series::series_max(&series) {
        Some(s) if s > y_max => s,
        _ => y_max,
    };
    // Lines drawn apart have a scale of their own: the bands' is the profile's peak.
    let y_max = match needs.lines_apart {
        true => totals.iter().fold(y_max, |m, &t| if t > m { t } else { m }),
        false => hp2ps_max,
    };
    let range = |max: f64| {
        nonzero(at_least(
            at_least(max, aux.and_then(|a| a.y_range)),
            opts.min_y_range,
        ))
    };
    let (y_range, aux_y_range) = (range(y_max), range(hp2ps_max));
    let area = stack.area;
    let x_axis_end = match opts.min_x_range {
        Some(shared) if shared > last - first => first + x_range,
        _ => last,
    };
    Aggregated {
        job: profile.job,
        date: profile.date,
        sample_unit: profile.sample_unit,
        value_unit: profile.value_unit,
        times,
        marks: profile.marks,
        mark_texts: profile.mark_texts,
        series,
        bands,
        other,
        samples: nsamples,
        band_info: profile.band_info,
        x_range,
        y_range,
        aux_y_range,
        area,
        x_axis_end,
        band_limit: opts.band_limit,
        trace_percent: opts.trace_percent,
        table,
        rest,
        totals,
    }
}

/// The stack's peak and area from the heights in `spill`, read back a block at a time;
/// a failure to read them is the spill's to say (`Spill::read_failure`).
fn spilled_stack(spill: &SpillHandle, times: &[f64]) -> StackFold {
    let mut fold = StackFold::default();
    let mut spill = spill.lock();
    let read = spill.read_heights(&mut |points| {
        points.iter().for_each(|p| fold.push(times, p.value));
    });
    if let Err(e) = read {
        spill.failed_to_read(e);
    }
    fold
}

/// `--uniform-scale` for charts made together (the HTML page of several runs): each
/// chart's time span (`time`) and stack height (`memory`) become the largest of them, as
/// [`AggregateOptions::min_x_range`] and [`AggregateOptions::min_y_range`] would make
/// them, and a chart whose span grew labels its x axis to the end of the shared one. (The
/// lines over the bands stay cut to each chart's own span.)
pub(crate) fn share_ranges(charts: &mut [Aggregated], time: bool, memory: bool) {
    let largest = |of: fn(&Aggregated) -> f64| charts.iter().map(of).fold(f64::NAN, f64::max);
    let (x, y) = (largest(|a| a.x_range), largest(|a| a.y_range));
    let aux_y = largest(|a| a.aux_y_range);
    for a in charts {
        if time && x > a.x_range {
            a.x_range = x;
            a.x_axis_end = a.first_time() + x;
        }
        if memory && y > a.y_range {
            a.y_range = y;
        }
        if memory && aux_y > a.aux_y_range {
            a.aux_y_range = aux_y;
        }
    }
}

/// What became of each band of the table, learnt pass by pass: a band is a trace until
/// it survives trace elimination, and then in OTHER until it is drawn.
struct Fates<'a> {
    /// The table's rows by name (names are unique in a profile), with the profile index's
    /// cheap hash: a million bands are a million lookups per pass.
    rows: std::collections::HashMap<&'a [u8], usize, crate::intern::FxBuild>,
    fates: Vec<Fate>,
}

impl<'a> Fates<'a> {
    fn new(table: &'a [BandNumbers]) -> Fates<'a> {
        Fates {
            rows: (table.iter().enumerate())
                .map(|(i, b)| (b.name.as_slice(), i))
                .collect(),
            fates: vec![Fate::Trace; table.len()],
        }
    }

    /// Records that `bands` are still there, as `fate`.
    fn mark(&mut self, bands: &[Band], fate: Fate) {
        if self.fates.is_empty() {
            return;
        }
        for band in bands {
            if let Some(&row) = self.rows.get(band.name.as_slice()) {
                self.fates[row] = fate;
            }
        }
    }

    /// Every row's fate, in the table's order. `all_dropped`: a negative band limit
    /// dropped every band that was not a trace.
    fn decided(self, all_dropped: bool) -> Vec<Fate> {
        (self.fates.into_iter())
            .map(|fate| match fate {
                Fate::Other if all_dropped => Fate::Dropped,
                fate => fate,
            })
            .collect()
    }
}

/// §3.8: a range is at least the one the `.aux` recorded.
fn at_least(x: f64, floor: Option<f64>) -> f64 {
    match floor {
        Some(f) if f > x => f,
        _ => x,
    }
}

/// §3.8: a zero range would divide by zero in the scaling; hp2ps uses 1.
fn nonzero(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests;
