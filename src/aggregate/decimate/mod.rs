//! Small charts of big profiles: keeping at most the samples that can be seen.
//!
//! A profile of 100,000 samples drawn 450 points wide puts hundreds of vertices into
//! every point of every band's outline; the picture is the same with far fewer. The
//! samples are dropped one at a time, always the one whose loss changes the picture
//! least (Visvalingam and Whyatt's line simplification, applied to every drawn edge at
//! once), until `max_points` are left. A drawn edge is the top of a band in the stack:
//! the bottom band's value, the sum of it and the band above, …, up to the whole stack.
//! Dropping a sample replaces, on every edge, the two segments through it by one
//! straight segment between its neighbours; what that changes on the page is the
//! triangle between them, whose area is the sample's cost, summed over the edges. A
//! triangle narrower than a pixel still changes a pixel's width of the page, so its
//! width counts as at least `edges::PIXEL_OF_SPAN` of the time span: a spike one sample
//! wide costs its height times a pixel, and survives.
//!
//! The same samples are kept for every band, so the stack stays exact at every kept
//! sample: a band is still drawn between its neighbours, never across them. The first
//! and last samples, and the samples where each edge is highest and lowest, are always
//! kept: the axes are unchanged and the peak is drawn.
//!
//! Equal time buckets that keep every edge's extremes, this module's first design,
//! changed 100 times more pixels on real profiles at the same budget (`tests/decimate.rs`,
//! docs/performance.md): a real program's heap has spikes a few samples wide, and a
//! bucket keeps one extreme per edge where the picture has several.
//!
//! A long profile is priced a window of samples at a time (`windows.rs`), the windows'
//! shared samples kept: the same samples as one list of the whole profile with those
//! few kept too, with a window's edges in memory rather than the whole run's.
//!
//! The ranges and the area in the title are computed by [`super::aggregate`] before this
//! runs, from every sample, and are not touched.

use std::ops::Range;

use super::Aggregated;
use crate::defaults::VECTOR_MAX_POINTS;
use crate::profile::Point;
use cheapest::drop_cheapest;
pub(crate) use edges::BandPoints;
use edges::Edges;

mod cheapest;
mod edges;
#[cfg(test)]
mod order_tests;
#[cfg(test)]
mod tests;
mod windows;

/// How many samples a budget of `band_points` band vertices allows a chart of `bands`
/// drawn bands: the budget shared among the bands, at least [`VECTOR_MAX_POINTS`].
pub fn samples_within(band_points: usize, bands: usize) -> usize {
    (band_points / bands.max(1)).max(VECTOR_MAX_POINTS)
}

/// The samples [`decimate`] may keep of a chart of `bands` drawn bands, given at most
/// `max_points` samples and at most `max_band_points` band vertices (see
/// [`samples_within`]): the smaller of the two; 0 for either means no such limit, and 0
/// comes back when there is none.
pub(super) fn sample_limit(max_points: usize, max_band_points: usize, bands: usize) -> usize {
    let by_vertices = match max_band_points {
        0 => 0,
        budget => samples_within(budget, bands),
    };
    match (max_points, by_vertices) {
        (0, n) | (n, 0) => n,
        (a, b) => a.min(b),
    }
}

/// Keeps at most `max_points` samples of `agg` (see the module docs); `0` keeps all. The
/// first and last samples, the overall extremes of every edge and, in a profile longer
/// than a window, the windows' shared samples (`windows.rs`) are kept even when that
/// alone exceeds `max_points` (a budget below twice the number of bands plus two, plus
/// one a window: with `-m0`'s hundreds of bands a window is 4,096 samples, so a run of
/// millions keeps hundreds more). (What
/// [`super::thin`] does when no page wants the samples' list: the tests' way in.)
#[cfg(test)]
pub(super) fn decimate(agg: &mut Aggregated, max_points: usize) {
    if let Some(keep) = kept_samples(agg, BandPoints::InBands, max_points) {
        drop_samples(agg, &keep);
    }
}

/// Which samples [`decimate`] keeps, one flag per sample, the bands' points from
/// `points`; `None` when it keeps them all.
pub(super) fn kept_samples(
    agg: &Aggregated,
    points: BandPoints<'_>,
    max_points: usize,
) -> Option<Vec<bool>> {
    let n = agg.times.len();
    match keeps_all(n, max_points) {
        true => None,
        false => Some(simplified(agg, points, 0..n, max_points)),
    }
}

/// The order in which [`kept_samples`] drops the samples of `agg` (its bands' points from
/// `points`) at a limit of `max_points`, and on past it to the last sample it can drop:
/// `None` when it keeps them all at that limit. A smaller limit drops the same samples
/// first, and more; so the order gives the samples kept at `max_points` and at every
/// smaller limit ([`DropOrder::kept`]) for the price of one simplification (a page wants
/// two: the samples drawn, and fewer for the bands not drawn).
pub(super) fn drop_order(
    agg: &Aggregated,
    points: BandPoints<'_>,
    max_points: usize,
) -> Option<DropOrder> {
    let n = agg.times.len();
    let window = windows::window_len(agg.bands.len());
    (!keeps_all(n, max_points)).then(|| order_in(agg, points, 0..n, 0, window))
}

/// The samples of a range in the order the simplification drops them.
pub(super) struct DropOrder {
    /// The samples of the range.
    n: usize,
    /// The samples dropped, by their place in the range, first dropped first.
    dropped: Vec<u32>,
}

impl DropOrder {
    /// What [`kept_samples`] gives at a limit of `max_points`, any limit (the order goes
    /// on to the last sample that can be dropped): `None` when every sample is kept.
    pub(super) fn kept(&self, max_points: usize) -> Option<Vec<bool>> {
        if keeps_all(self.n, max_points) {
            return None;
        }
        Some(self.kept_in_range(max_points))
    }

    /// A flag per sample of the range: whether it is left when the first dropped go
    /// until `max_points` are left (or none can go).
    fn kept_in_range(&self, max_points: usize) -> Vec<bool> {
        let mut keep = vec![true; self.n];
        let drops = self.n.saturating_sub(max_points);
        for &s in self.dropped.iter().take(drops) {
            keep[s as usize] = false;
        }
        keep
    }
}

/// Whether [`simplified`] would keep every one of `n` samples, or cannot take them.
fn keeps_all(n: usize, max_points: usize) -> bool {
    // Samples are numbered in 32 bits (`Point::sample`), and so are the list's links.
    max_points == 0 || n <= max_points.max(2) || u32::try_from(n).is_err()
}

/// The samples of `range` (at least three) that [`decimate`] would keep of a chart of
/// those samples alone, by their index in `agg` (its bands' points from `points`): every
/// one when there are at most `max_points` (or `max_points` is 0).
pub(super) fn kept_in(
    agg: &Aggregated,
    points: BandPoints<'_>,
    range: Range<usize>,
    max_points: usize,
) -> Vec<usize> {
    if keeps_all(range.len(), max_points) {
        return range.collect();
    }
    let keep = simplified(agg, points, range.clone(), max_points);
    (range.zip(keep))
        .filter_map(|(i, k)| k.then_some(i))
        .collect()
}

/// Which samples of `range` to keep (one flag each, from its start): the protected ones
/// (`edges::Protected`), and of the rest those left when the cheapest is dropped, one at
/// a time, until `max_points` remain. `range` holds at least three samples. A range longer than a window ([`windows::window_len`]) is priced
/// a window at a time (`windows.rs`).
fn simplified(
    agg: &Aggregated,
    points: BandPoints<'_>,
    range: Range<usize>,
    max_points: usize,
) -> Vec<bool> {
    let window = windows::window_len(agg.bands.len());
    simplified_in(agg, points, range, max_points, window)
}

/// [`simplified`] with windows of `window` samples (at least one).
fn simplified_in(
    agg: &Aggregated,
    points: BandPoints<'_>,
    range: Range<usize>,
    max_points: usize,
    window: usize,
) -> Vec<bool> {
    order_in(agg, points, range, max_points, window).kept_in_range(max_points)
}

/// The samples of `range` (at least three) in the order the simplification drops them,
/// until `fewest` are left or none can go; windows of `window` samples (at least one).
fn order_in(
    agg: &Aggregated,
    points: BandPoints<'_>,
    range: Range<usize>,
    fewest: usize,
    window: usize,
) -> DropOrder {
    let n = range.len();
    let mut dropped = Vec::new();
    if n <= fewest {
        return DropOrder { n, dropped };
    }
    if n > window {
        dropped = windows::dropped(agg, points, range, fewest, window);
        return DropOrder { n, dropped };
    }
    let mut left = n;
    let (edges, fixed) = Edges::with_protected(agg, range, points);
    drop_cheapest(&edges, &fixed, 0, |entry| {
        // The entry's low half is the sample's place in the range.
        dropped.push(entry as u32);
        left -= 1;
        left > fewest
    });
    DropOrder { n, dropped }
}

/// Drops the samples not kept (`keep`: a flag per sample, as [`kept_samples`] gives
/// them): their times, and every band's points in them (those of
/// [`Aggregated::rest`] too).
pub(super) fn drop_samples(agg: &mut Aggregated, keep: &[bool]) {
    // New index of every kept sample.
    let mut index = vec![u32::MAX; keep.len()];
    let mut next = 0u32;
    for (i, &k) in keep.iter().enumerate() {
        if k {
            index[i] = next;
            next += 1;
        }
    }
    let mut t = 0;
    agg.times.retain(|_| {
        t += 1;
        keep[t - 1]
    });
    if agg.totals.len() == keep.len() {
        let mut t = 0;
        agg.totals.retain(|_| {
            t += 1;
            keep[t - 1]
        });
    }
    for band in agg.bands.iter_mut().chain(&mut agg.rest) {
        band.points = band
            .points
            .iter()
            .filter_map(|p| {
                let (sample, value) = (p.sample as usize, p.value);
                // Points past the last sample are never drawn: they go.
                let i = *index.get(sample)?;
                (i != u32::MAX).then_some(Point { sample: i, value })
            })
            .collect();
    }
}
