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

/// The drawn edges, sample by sample, to price the samples with: `tops[s * bands + k]` is
/// the top of band `k` at sample `s` (counted from the start of the samples priced). Single precision: they only rank the samples, and
/// a chart of hundreds of bands (`-m0`) over 100,000 samples would otherwise take 160 MB.
pub(super) struct Edges<'a> {
    times: &'a [f64],
    tops: Vec<f32>,
    bands: usize,
    /// The narrowest a triangle counts ([`PIXEL_OF_SPAN`] of the time span).
    narrowest: f64,
    /// The samples always kept: the first, the last, and where each edge is highest and
    /// lowest (the first such sample), found in double precision: single precision cannot
    /// tell 400,000,008 bytes from 400,000,000.
    pub(super) protected: Vec<bool>,
}

impl<'a> Edges<'a> {
    /// The edges of the samples `range` (at least one) and its protected samples in one
    /// pass, band by band, over a running column of the stack in double precision; the
    /// bands' points from `points`.
    pub(super) fn of(
        agg: &'a Aggregated,
        range: Range<usize>,
        points: BandPoints<'_>,
    ) -> Edges<'a> {
        let (n, bands) = (range.len(), agg.bands.len());
        let mut tops = vec![0.0f32; n * bands];
        let mut protected = vec![false; n];
        protected[0] = true;
        protected[n - 1] = true;
        let mut edge = vec![0.0f64; n];
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
            let (mut low, mut high) = (0, 0);
            for (s, &e) in edge.iter().enumerate() {
                tops[s * bands + k] = e as f32;
                if e < edge[low] {
                    low = s;
                }
                if e > edge[high] {
                    high = s;
                }
            }
            protected[low] = true;
            protected[high] = true;
        }
        drop(spill);
        // The profile's peak (every band's total at its highest, traces included), for
        // a chart that says it: the page's readout at that sample is the peak.
        if let Some(totals) = agg.totals.get(range.clone()) {
            let high = (0..totals.len()).fold(0, |h, s| if totals[s] > totals[h] { s } else { h });
            if let Some(p) = protected.get_mut(high) {
                *p = true;
            }
        }
        let times = &agg.times[range];
        let span = times[n - 1] - times[0];
        Edges {
            times,
            tops,
            bands,
            narrowest: span.abs() * PIXEL_OF_SPAN,
            protected,
        }
    }

    fn at(&self, s: usize) -> &[f32] {
        &self.tops[s * self.bands..(s + 1) * self.bands]
    }

    /// What dropping sample `i` between its neighbours `p` and `q` changes: the triangle
    /// between the segments p–i–q and the segment p–q, summed over the edges. Never
    /// negative (nor −0.0), so that the bits of its `f32` sort as the number does; NaN
    /// (odd times) counts as infinite, so such samples go last.
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
