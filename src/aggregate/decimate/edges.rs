//! The price of dropping a sample: the triangle its loss leaves on every drawn edge (see
//! the parent module), from the edges of the stack computed once.

use std::ops::Range;

use crate::aggregate::Aggregated;
use crate::profile::spill::SpillHandle;
use crate::profile::Point;

/// Where the drawn bands' points are when the samples are priced.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BandPoints<'a> {
    /// In the bands.
    InBands,
    /// In a spill (a long profile's second reading: `crate::profile::spill`), the bands
    /// holding none, OTHER's being the merged bands' sum: read back for each pricing, so
    /// that they are not in memory beside the edges. A read that fails is kept in the
    /// spill for `Spill::read_failure` to say.
    Spilled(&'a SpillHandle),
}

/// The narrowest a dropped sample's triangle counts, as a share of the time span: about
/// a pixel of a 450-point graph at 300 dpi. (Measured on real profiles: a tenth or four
/// times this changed 2–4 times more pixels.)
pub(super) const PIXEL_OF_SPAN: f64 = 1.0 / 2000.0;

/// The drawn edges, sample by sample, of the samples of a window (the whole range
/// priced, or a part of it: the parent module's windows), to price them with:
/// `tops[s * bands + k]` is the top of band `k` at the window's sample `s`. Single
/// precision: they only rank the samples, and a chart of hundreds of bands (`-m0`) over
/// 100,000 samples would otherwise take 160 MB.
pub(super) struct Edges<'a> {
    times: &'a [f64],
    tops: Vec<f32>,
    bands: usize,
    /// The narrowest a triangle counts ([`PIXEL_OF_SPAN`] of the whole range's time
    /// span, whatever the window).
    narrowest: f64,
}

/// The samples always kept, one flag per sample of a range: the first, the last, and
/// where each edge is highest and lowest (the first such sample), found in double
/// precision (single precision cannot tell 400,000,008 bytes from 400,000,000), and the
/// profile's peak.
pub(super) struct Protected {
    flags: Vec<bool>,
}

impl Protected {
    fn new(n: usize) -> Protected {
        let mut flags = vec![false; n];
        flags[0] = true;
        flags[n - 1] = true;
        Protected { flags }
    }

    /// Takes an edge's column (a value per sample of the range).
    fn see(&mut self, column: &[f64]) {
        let (mut low, mut high) = (0, 0);
        for (s, &e) in column.iter().enumerate() {
            if e < column[low] {
                low = s;
            }
            if e > column[high] {
                high = s;
            }
        }
        self.flags[low] = true;
        self.flags[high] = true;
    }

    /// The flags, the peak of `agg`'s totals over `range` marked.
    fn done(mut self, agg: &Aggregated, range: Range<usize>) -> Vec<bool> {
        // The profile's peak (every band's total at its highest, traces included), for
        // a chart that says it: the page's readout at that sample is the peak.
        if let Some(totals) = agg.totals.get(range) {
            let high = (0..totals.len()).fold(0, |h, s| if totals[s] > totals[h] { s } else { h });
            if let Some(p) = self.flags.get_mut(high) {
                *p = true;
            }
        }
        self.flags
    }
}

/// The samples of `range` (at least one) that are always kept ([`Protected`]), in one
/// pass over its columns.
pub(super) fn protected(
    agg: &Aggregated,
    range: Range<usize>,
    points: BandPoints<'_>,
) -> Vec<bool> {
    let mut p = Protected::new(range.len());
    columns(agg, range.clone(), points, |_, column| p.see(column));
    p.done(agg, range)
}

impl<'a> Edges<'a> {
    /// The edges of the samples `window` of `range` (at least one), the narrowest
    /// triangle from the span of `range`; the bands' points from `points`.
    pub(super) fn of(
        agg: &'a Aggregated,
        range: Range<usize>,
        window: Range<usize>,
        points: BandPoints<'_>,
    ) -> Edges<'a> {
        let mut edges = Edges::empty(agg, range, window.clone());
        columns(agg, window, points, |k, column| edges.set(k, column));
        edges
    }

    /// [`Edges::of`] the whole of `range` and its protected samples, in one pass.
    pub(super) fn with_protected(
        agg: &'a Aggregated,
        range: Range<usize>,
        points: BandPoints<'_>,
    ) -> (Edges<'a>, Vec<bool>) {
        let mut edges = Edges::empty(agg, range.clone(), range.clone());
        let mut p = Protected::new(range.len());
        columns(agg, range.clone(), points, |k, column| {
            edges.set(k, column);
            p.see(column);
        });
        (edges, p.done(agg, range))
    }

    fn empty(agg: &'a Aggregated, range: Range<usize>, window: Range<usize>) -> Edges<'a> {
        let bands = agg.bands.len();
        let span = agg.times[range.end - 1] - agg.times[range.start];
        Edges {
            tops: vec![0.0f32; window.len() * bands],
            times: &agg.times[window],
            bands,
            narrowest: span.abs() * PIXEL_OF_SPAN,
        }
    }

    fn set(&mut self, k: usize, column: &[f64]) {
        for (s, &e) in column.iter().enumerate() {
            self.tops[s * self.bands + k] = e as f32;
        }
    }

    fn at(&self, s: usize) -> &[f32] {
        &self.tops[s * self.bands..(s + 1) * self.bands]
    }

    /// What dropping sample `i` between its neighbours `p` and `q` (of the window)
    /// changes: the triangle between the segments p–i–q and the segment p–q, summed over
    /// the edges. Never negative (nor −0.0), so that the bits of its `f32` sort as the
    /// number does; NaN (odd times) counts as infinite, so such samples go last.
    pub(super) fn cost(&self, p: usize, i: usize, q: usize) -> f64 {
        let t = self.times;
        let width = t[q] - t[p];
        let at = if width != 0.0 {
            (t[i] - t[p]) / width
        } else {
            0.0
        };
        let height: f64 = (self.at(p).iter().zip(self.at(i)).zip(self.at(q)))
            .map(|((&yp, &yi), &yq)| {
                let (yp, yi, yq) = (f64::from(yp), f64::from(yi), f64::from(yq));
                (yi - (yp + (yq - yp) * at)).abs()
            })
            .sum();
        let c = height * width.abs().max(self.narrowest) * 0.5;
        if c > 0.0 {
            c
        } else if c.is_nan() {
            f64::INFINITY
        } else {
            0.0
        }
    }
}

/// Hands `each` every drawn edge over the samples `range` (at least one), bottom band
/// first: `each(k, column)`, `column[s]` the top of band `k` at the range's sample `s`,
/// a running column of the stack in double precision; the bands' points from `points`.
fn columns(
    agg: &Aggregated,
    range: Range<usize>,
    points: BandPoints<'_>,
    mut each: impl FnMut(usize, &[f64]),
) {
    let mut edge = vec![0.0f64; range.len()];
    let mut spill = match points {
        BandPoints::InBands => None,
        BandPoints::Spilled(spill) => Some(spill.lock()),
    };
    for (k, band) in agg.bands.iter().enumerate() {
        let mut add = |points: &[Point]| add_points(&mut edge, points, range.clone());
        match &mut spill {
            None => {
                // A band's points are in sample order.
                let from = band
                    .points
                    .partition_point(|p| (p.sample as usize) < range.start);
                add(&band.points[from..]);
            }
            // The same points in the same order, read back (OTHER's, the merged
            // bands' sum, stop where the reading's sums stopped: the zeros the band
            // limit adds after them leave every edge as it is).
            Some(spill) => {
                let other = k == 0 && agg.other;
                if let Some(number) = spill.band_of(&band.name, other) {
                    let read = spill.read_band_in(number, range.clone(), &mut |ps| {
                        add(ps);
                    });
                    if let Err(e) = read {
                        spill.failed_to_read(e);
                    }
                }
            }
        }
        each(k, &edge);
    }
}

/// Adds to `edge` (the column of the samples `range`, from its start) the values of
/// `points` in it, in order, up to the first past its end; those before its start are
/// passed over.
fn add_points(edge: &mut [f64], points: &[Point], range: Range<usize>) {
    for p in points {
        match (p.sample as usize).checked_sub(range.start) {
            Some(s) if s < edge.len() => edge[s] += p.value,
            Some(_) => break,
            None => {}
        }
    }
}
