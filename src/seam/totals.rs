//! The first reading of a long `.hp` (`crate::profile::keep`): each band's total, as
//! `aggregate::band_total` sums it (a 64-bit integer through a double at every point),
//! its number of points, and whether every census adds up exactly in any order. The
//! points come one by one or grouped by band ([`Totals::take`]), or, cheaper, already
//! added up by the reader's workers ([`Totals::take_sums`]): a worker adds up whole
//! values below 2^53 only, and while a band's total stays below 2^53 too, adding the
//! sum at once is adding each value through a double. Past that the sums are not
//! taken ([`Totals::spoiled`]), and the reading is made again point by point.

use super::closing::Closing;
use super::run::RunSums;
use crate::num::c_trunc_i64;
use crate::profile::keep::BandTotals;
use crate::profile::Point;

/// Magnitudes below this add up exactly in any order (with room to spare under 2^53).
const EXACT_BELOW: f64 = (1u64 << 52) as f64;

/// A double holds every whole number of magnitude below this.
const WHOLE_BELOW: i128 = 1 << 53;

/// The first reading's state: each band's total so far, and the total before the census
/// its last point is in (the builder drops an incomplete last census).
#[derive(Debug, Default)]
pub(crate) struct Totals {
    bands: Vec<Running>,
    /// The open censuses' sums of magnitudes, to tell whether sums are exact in any
    /// order: a census's is checked once it is over (see [`Self::hand_on`]).
    magnitudes: Closing,
    /// The first census over whose sum of magnitudes was not below 2^52, if any.
    inexact: Option<usize>,
    /// Some value was not a whole number.
    fraction: bool,
    /// Take the points one by one only (the reading made again once sums were
    /// [`Self::spoiled`], and the plain way the tests compare with).
    pub(crate) by_points: bool,
    /// A run's sums came that cannot be taken as they are (a total would leave the
    /// doubles' whole numbers): what was found is not the totals.
    pub(crate) spoiled: bool,
    /// How many runs' sums were taken (the tests check that they were).
    pub(crate) runs_summed: u64,
}

#[derive(Debug, Default, Clone, Copy)]
struct Running {
    total: i64,
    count: u32,
    last: u32,
    total_before: i64,
    count_before: u32,
}

impl Totals {
    /// Takes `points` of band `id`, their samples counted from `base`; `open`: the first
    /// census points may still come for.
    pub(crate) fn take(&mut self, id: u32, points: &[Point], base: u32, open: u32) {
        self.hand_on(open);
        let r = band(&mut self.bands, id);
        for p in points {
            let (sample, value) = (p.sample + base, p.value);
            if r.count == 0 || sample != r.last {
                (r.total_before, r.count_before, r.last) = (r.total, r.count, sample);
            }
            // As `aggregate::band_total` sums it.
            r.total = c_trunc_i64(r.total as f64 + value);
            r.count += 1;
            self.fraction |= value.fract() != 0.0;
            self.magnitudes.add(sample as usize, value.abs());
        }
    }

    /// Takes a run's sums, `ids` being its names' bands and `base` the censuses complete
    /// before it: what [`Self::take`] of each point would have found, or, when a total
    /// would not stay a double's whole number, nothing but [`Self::spoiled`].
    pub(crate) fn take_sums(&mut self, ids: &[u32], sums: &RunSums<'_>, base: u32) {
        self.runs_summed += 1;
        self.hand_on(base);
        for (&id, s) in ids.iter().zip(sums.bands) {
            let r = band(&mut self.bands, id);
            let total = i128::from(r.total) + i128::from(s.sum);
            // Every value is whole, at least 0 and below 2^53: each partial total lies
            // between the first and the last, and is exact when both are.
            if s.count == 0 || r.total <= -WHOLE_BELOW as i64 || total >= WHOLE_BELOW {
                self.spoiled |= s.count != 0;
                continue;
            }
            let last = base + s.last;
            if r.count == 0 || last != r.last {
                r.total_before = r.total + (s.sum - s.last_sum) as i64;
                r.count_before = r.count + (s.count - s.last_count);
                r.last = last;
            }
            r.total = total as i64;
            r.count += s.count;
        }
        let (from, censuses) = (base as usize, sums.censuses);
        self.magnitudes.reach(from + censuses.len());
        // Whole numbers: below 2^52 in the end exactly when every partial sum of the
        // values one by one stays below it (past 2^52 a rounded sum cannot fall back).
        for (k, &sum) in censuses.iter().enumerate() {
            self.magnitudes.add(from + k, sum as f64);
        }
    }

    /// Checks the censuses before `open`, which are over, and gives up their sums.
    fn hand_on(&mut self, open: u32) {
        if !self.magnitudes.any_before(open as usize) {
            return;
        }
        for (census, m) in self.magnitudes.hand_on(open as usize) {
            // (A NaN sum is not below either.)
            let below = m < EXACT_BELOW;
            if !below && self.inexact.is_none() {
                self.inexact = Some(census);
            }
        }
    }

    /// Drops what is kept of census `complete` and later; returns whether any point was
    /// in it.
    pub(crate) fn discard_from(&mut self, complete: u32) -> bool {
        let mut dropped = false;
        for r in (self.bands.iter_mut()).filter(|r| r.count > 0 && r.last >= complete) {
            (r.total, r.count) = (r.total_before, r.count_before);
            dropped = true;
        }
        self.magnitudes.truncate(complete as usize);
        self.inexact = self.inexact.filter(|&census| census < complete as usize);
        dropped
    }

    /// Whether band `id` still has a point.
    pub(crate) fn has_points(&self, id: usize) -> bool {
        self.bands.get(id).is_some_and(|r| r.count > 0)
    }

    /// Keeps the bands flagged in `kept` (the builder dropped the others).
    pub(crate) fn retain(&mut self, kept: &[bool]) {
        let mut flags = kept.iter();
        (self.bands).retain(|_| flags.next().copied().unwrap_or(false));
    }

    /// The reading's result, with the bands' names.
    pub(crate) fn band_totals(&self, names: Vec<Vec<u8>>, censuses: usize) -> BandTotals {
        let exact = !self.fraction
            && self.inexact.is_none()
            && self.magnitudes.held().all(|m| m < EXACT_BELOW);
        BandTotals {
            totals: (0..names.len())
                .map(|id| self.bands.get(id).map_or(0, |r| r.total))
                .collect(),
            counts: (0..names.len())
                .map(|id| self.bands.get(id).map_or(0, |r| r.count))
                .collect(),
            names,
            exact,
            censuses,
        }
    }
}

/// Band `id` of `bands`, made if new.
fn band(bands: &mut Vec<Running>, id: u32) -> &mut Running {
    let id = id as usize;
    if bands.len() <= id {
        bands.resize(id + 1, Running::default());
    }
    &mut bands[id]
}
