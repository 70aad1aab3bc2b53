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
//! width counts as at least [`PIXEL_OF_SPAN`] of the time span: a spike one sample
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
//! The ranges and the area in the title are computed by [`super::aggregate`] before this
//! runs, from every sample, and are not touched.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{stack_on, Aggregated};
use crate::profile::Point;

/// The command line's limit for `--format svg`, `pdf` and `eps` when `--max-points` is
/// not given, in band vertices (samples drawn × bands drawn): 2,000 samples of the 21
/// bands hp2ps draws at most by default, an SVG of about 1.3 MB. A chart of fewer bands
/// keeps more samples in the same size (7,000 of 6 bands). hp2ps's own PostScript keeps
/// every sample unless asked.
pub const VECTOR_MAX_BAND_POINTS: usize = 42_000;

/// The fewest samples the default limit keeps, however many bands are drawn (`-m0` may
/// draw hundreds): about four samples per point of a full-width graph.
pub const VECTOR_MAX_POINTS: usize = 2000;

/// The narrowest a dropped sample's triangle counts, as a share of the time span: about
/// a pixel of a 450-point graph at 300 dpi. (Measured on real profiles: a tenth or four
/// times this changed 2–4 times more pixels.)
const PIXEL_OF_SPAN: f64 = 1.0 / 2000.0;

/// How many samples a budget of `band_points` band vertices allows a chart of `bands`
/// drawn bands: the budget shared among the bands, at least [`VECTOR_MAX_POINTS`].
pub fn samples_within(band_points: usize, bands: usize) -> usize {
    (band_points / bands.max(1)).max(VECTOR_MAX_POINTS)
}

/// The samples [`decimate`] may keep of a chart of `bands` drawn bands, given at most
/// `max_points` samples and at most `max_band_points` band vertices (see
/// [`samples_within`]): the smaller of the two; 0 for either means no such limit, and 0
/// comes back when there is none.
pub fn sample_limit(max_points: usize, max_band_points: usize, bands: usize) -> usize {
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
/// first and last samples and the overall extremes of every edge are kept even when that
/// alone exceeds `max_points` (a budget below twice the number of bands plus two).
pub fn decimate(agg: &mut Aggregated, max_points: usize) {
    let n = agg.times.len();
    // Samples are numbered in 32 bits (`Point::sample`), and so are the list's links.
    if max_points == 0 || n <= max_points.max(2) || u32::try_from(n).is_err() {
        return;
    }
    let keep = simplified(agg, max_points);
    apply(agg, &keep);
}

/// The drawn edges, sample by sample, to price the samples with: `tops[s * bands + k]` is
/// the top of band `k` at sample `s`. Single precision: they only rank the samples, and
/// a chart of hundreds of bands (`-m0`) over 100,000 samples would otherwise take 160 MB.
struct Edges<'a> {
    times: &'a [f64],
    tops: Vec<f32>,
    bands: usize,
    /// The narrowest a triangle counts ([`PIXEL_OF_SPAN`] of the time span).
    narrowest: f64,
    /// The samples always kept: the first, the last, and where each edge is highest and
    /// lowest (the first such sample), found in double precision: single precision cannot
    /// tell 400,000,008 bytes from 400,000,000.
    protected: Vec<bool>,
}

impl<'a> Edges<'a> {
    /// The edges and the protected samples in one pass, band by band, over a running
    /// column of the stack in double precision.
    fn of(agg: &'a Aggregated) -> Edges<'a> {
        let (n, bands) = (agg.times.len(), agg.bands.len());
        let mut tops = vec![0.0f32; n * bands];
        let mut protected = vec![false; n];
        protected[0] = true;
        protected[n - 1] = true;
        let mut edge = vec![0.0f64; n];
        for (k, band) in agg.bands.iter().enumerate() {
            stack_on(&mut edge, band);
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
        let times = &agg.times[..];
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
    fn cost(&self, p: usize, i: usize, q: usize) -> f64 {
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

/// Which samples to keep: the protected ones ([`Edges::protected`]), and of the rest
/// those left when the cheapest is dropped, one at a time, until `max_points` remain.
fn simplified(agg: &Aggregated, max_points: usize) -> Vec<bool> {
    let n = agg.times.len();
    let edges = Edges::of(agg);
    let fixed = &edges.protected;

    // A doubly linked list of the samples left, and a heap of their costs, each entry
    // one word: the cost in single precision above the sample (ranking needs no more; a
    // cost is never negative, so its bits sort as the number does). An entry whose cost
    // is no longer the sample's (a neighbour went since) is skipped.
    let entry = |c: f64, i: usize| (u64::from((c as f32).to_bits()) << 32) | i as u64;
    let last = n as u32 - 1;
    let mut prev: Vec<u32> = (0..=last).map(|i| i.saturating_sub(1)).collect();
    let mut next: Vec<u32> = (0..=last).map(|i| i.saturating_add(1)).collect();
    let mut current = vec![u64::MAX; n];
    for i in 1..n - 1 {
        if !fixed[i] {
            current[i] = entry(edges.cost(i - 1, i, i + 1), i);
        }
    }
    let mut heap: BinaryHeap<Reverse<u64>> = current
        .iter()
        .filter(|&&c| c != u64::MAX)
        .map(|&c| Reverse(c))
        .collect();
    let mut keep = vec![true; n];
    let mut left = n;
    while left > max_points {
        let Some(Reverse(top)) = heap.pop() else {
            break;
        };
        let i = (top & u64::from(u32::MAX)) as usize;
        if !keep[i] || top != current[i] {
            continue;
        }
        keep[i] = false;
        left -= 1;
        let (p, q) = (prev[i], next[i]);
        next[p as usize] = q;
        prev[q as usize] = p;
        for j in [p as usize, q as usize] {
            if !fixed[j] {
                current[j] = entry(edges.cost(prev[j] as usize, j, next[j] as usize), j);
                heap.push(Reverse(current[j]));
            }
        }
    }
    keep
}

/// Drops the samples not kept: their times, and every band's points in them.
fn apply(agg: &mut Aggregated, keep: &[bool]) {
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
    for band in &mut agg.bands {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Band;

    fn agg(times: Vec<f64>, bands: Vec<Vec<(u32, f64)>>) -> Aggregated {
        Aggregated {
            job: Vec::new(),
            date: Vec::new(),
            sample_unit: Vec::new(),
            value_unit: Vec::new(),
            times,
            marks: Vec::new(),
            bands: bands
                .into_iter()
                .enumerate()
                .map(|(i, pts)| Band {
                    name: format!("b{i}").into_bytes(),
                    points: pts
                        .into_iter()
                        .map(|(sample, value)| Point { sample, value })
                        .collect(),
                })
                .collect(),
            band_info: Default::default(),
            x_range: 1.0,
            y_range: 1.0,
            area: 0.0,
            mark_texts: Vec::new(),
            series: Vec::new(),
            x_axis_end: 0.0,
            band_limit: 20,
            trace_percent: 1.0,
        }
    }

    /// The stack heights of every sample, from the points.
    fn dense(a: &Aggregated) -> Vec<Vec<f64>> {
        let n = a.times.len();
        a.bands
            .iter()
            .map(|b| {
                let mut v = vec![0.0; n];
                for p in &b.points {
                    if let Some(x) = v.get_mut(p.sample as usize) {
                        *x += p.value;
                    }
                }
                v
            })
            .collect()
    }

    fn noisy(n: usize, bands: usize) -> Aggregated {
        let mut next = crate::test_rng::xorshift(12345);
        let mut rnd = move || (next() >> 11) as f64 / (1u64 << 53) as f64;
        let times = (0..n).map(|i| i as f64 * 0.01).collect();
        let bands = (0..bands)
            .map(|b| {
                (0..n as u32)
                    .filter_map(|s| {
                        let r = rnd();
                        // Some bands are missing from some samples.
                        (b % 3 != 2 || r > 0.3).then(|| (s, 100.0 * (b + 1) as f64 * (1.0 + r)))
                    })
                    .collect()
            })
            .collect();
        agg(times, bands)
    }

    #[test]
    fn a_budget_of_band_vertices_is_shared_among_the_bands() {
        assert_eq!(samples_within(VECTOR_MAX_BAND_POINTS, 21), 2000);
        assert_eq!(samples_within(VECTOR_MAX_BAND_POINTS, 6), 7000);
        assert_eq!(samples_within(VECTOR_MAX_BAND_POINTS, 1), 42_000);
        assert_eq!(samples_within(VECTOR_MAX_BAND_POINTS, 0), 42_000);
        // Hundreds of bands (-m0) still get the floor.
        assert_eq!(
            samples_within(VECTOR_MAX_BAND_POINTS, 300),
            VECTOR_MAX_POINTS
        );
    }

    #[test]
    fn with_both_limits_the_smaller_wins() {
        assert_eq!(sample_limit(0, 0, 21), 0);
        assert_eq!(sample_limit(300, 0, 21), 300);
        assert_eq!(sample_limit(0, VECTOR_MAX_BAND_POINTS, 6), 7000);
        assert_eq!(sample_limit(300, VECTOR_MAX_BAND_POINTS, 6), 300);
        assert_eq!(sample_limit(9000, VECTOR_MAX_BAND_POINTS, 6), 7000);
    }

    #[test]
    fn zero_or_a_large_budget_keeps_everything() {
        let a = noisy(500, 4);
        for max in [0, 500, 501, 10_000] {
            let mut b = a.clone();
            decimate(&mut b, max);
            assert_eq!(a, b, "{max}");
        }
    }

    #[test]
    fn keeps_at_most_the_budget_and_the_ends() {
        let a = noisy(20_000, 6);
        for max in [20, 100, 1000, 5000] {
            let mut b = a.clone();
            decimate(&mut b, max);
            assert!(b.times.len() <= max, "{max}: {}", b.times.len());
            assert!(b.times.len() >= max / 4, "{max}: only {}", b.times.len());
            assert_eq!(b.times.first(), a.times.first());
            assert_eq!(b.times.last(), a.times.last());
            // The untouched figures.
            assert_eq!(
                (b.x_range, b.y_range, b.area),
                (a.x_range, a.y_range, a.area)
            );
        }
    }

    #[test]
    fn kept_samples_are_exact_and_shared_by_every_band() {
        let a = noisy(5000, 5);
        let mut b = a.clone();
        decimate(&mut b, 300);
        let full = dense(&a);
        let reduced = dense(&b);
        // Map every kept time back to its sample (times are distinct here).
        for (j, t) in b.times.iter().enumerate() {
            let i = a.times.iter().position(|x| x == t).expect("a kept time");
            for (f, r) in full.iter().zip(&reduced) {
                assert_eq!(f[i], r[j], "band value at sample {i}");
            }
        }
        // Points stay sorted by sample, and only drop where the sample is dropped.
        for band in &b.bands {
            assert!(band.points.windows(2).all(|w| {
                let (x, y) = (w[0].sample, w[1].sample);
                x <= y
            }));
        }
    }

    #[test]
    fn every_edge_keeps_its_extremes() {
        let a = noisy(8000, 4);
        let mut b = a.clone();
        decimate(&mut b, 400);
        let edges = |d: &[Vec<f64>]| -> Vec<Vec<f64>> {
            let mut acc = vec![0.0; d[0].len()];
            d.iter()
                .map(|band| {
                    for (x, v) in acc.iter_mut().zip(band) {
                        *x += v;
                    }
                    acc.clone()
                })
                .collect()
        };
        let (full, reduced) = (edges(&dense(&a)), edges(&dense(&b)));
        for (f, r) in full.iter().zip(&reduced) {
            let max = |v: &[f64]| v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let min = |v: &[f64]| v.iter().cloned().fold(f64::INFINITY, f64::min);
            assert_eq!(max(f), max(r));
            assert_eq!(min(f), min(r));
        }
    }

    #[test]
    fn a_spike_in_one_sample_survives() {
        let n = 10_000;
        let times: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let flat: Vec<(u32, f64)> = (0..n as u32).map(|s| (s, 10.0)).collect();
        let spike = vec![(4321, 5000.0)];
        let mut a = agg(times, vec![flat, spike]);
        decimate(&mut a, 50);
        let d = dense(&a);
        assert!(d[1].contains(&5000.0));
        assert!(a.times.contains(&4321.0));
    }

    #[test]
    fn odd_inputs_keep_the_ends_and_stay_within_the_budget() {
        // Times that repeat, go back, or are not numbers; points of samples past the
        // end; budgets from 1 up: no panic, the ends kept, at most the budget unless the
        // ends and extremes alone exceed it.
        let mut next = crate::test_rng::xorshift(7);
        for round in 0..300 {
            let n = 3 + (next() % 60) as usize;
            let times: Vec<f64> = (0..n)
                .map(|i| match next() % 8 {
                    0 => f64::NAN,
                    1 => 5.0,
                    2 => -(i as f64),
                    _ => i as f64,
                })
                .collect();
            let bands = (next() % 4) as usize;
            let points = (0..bands)
                .map(|_| {
                    (0..n as u32 + 3)
                        .filter_map(|s| {
                            let r = next();
                            (r % 3 != 0).then_some((s, (r >> 8) as f64 % 1000.0))
                        })
                        .collect()
                })
                .collect();
            let a = agg(times, points);
            let budget = 1 + (next() % n as u64) as usize;
            let mut b = a.clone();
            decimate(&mut b, budget);
            let fixed = 2 + 2 * bands;
            assert!(b.times.len() <= budget.max(fixed).max(2), "round {round}");
            assert!(b.times.len() >= 2.min(n), "round {round}");
            let same = |x: f64, y: f64| x == y || (x.is_nan() && y.is_nan());
            assert!(same(b.times[0], a.times[0]), "round {round}");
            assert!(
                same(b.times[b.times.len() - 1], a.times[n - 1]),
                "round {round}"
            );
        }
    }

    #[test]
    fn a_spike_narrower_than_a_pixel_outweighs_gentle_waves() {
        // 100,000 samples 0.1 s apart, 20 waves of 1,000 around 1,000, and one sample
        // 300 higher, short of the waves' crest (so not an extreme). At 400 samples the
        // waves keep 20 vertices each, whose triangles (about 300) are far larger than
        // the spike's own (0.1 s × 300), but smaller than the spike counted a pixel wide
        // (5 s × 300): the spike stays, as it does on the page.
        let n = 100_000u32;
        let spike = n / 2 + 37;
        let band = (0..n)
            .map(|i| {
                let t = f64::from(i) * 0.1;
                let v = 1000.0 * (1.0 + (std::f64::consts::TAU * t / 500.0).sin());
                (i, if i == spike { v + 300.0 } else { v })
            })
            .collect();
        let mut a = agg((0..n).map(|i| f64::from(i) * 0.1).collect(), vec![band]);
        decimate(&mut a, 400);
        assert_eq!(a.times.len(), 400);
        assert!(a.times.contains(&(f64::from(spike) * 0.1)));
    }

    #[test]
    fn the_peak_is_kept_exactly_beyond_single_precision() {
        // 400,000,008 and 400,000,000 are the same number in single precision.
        let band = (0..200u32)
            .map(|s| match s {
                100..=110 if s == 105 => (s, 400_000_008.0),
                100..=110 => (s, 400_000_000.0),
                _ => (s, f64::from(s)),
            })
            .collect();
        let mut a = agg((0..200).map(f64::from).collect(), vec![band]);
        decimate(&mut a, 20);
        assert!(a.times.contains(&105.0));
    }

    #[test]
    fn decreasing_times_choose_as_increasing_ones_do() {
        // Times that run backwards give negative widths; a straight run must still cost
        // nothing (not −0.0, whose bits sort above every cost) and go first, so the
        // samples kept are those of the same profile forwards.
        let band: Vec<(u32, f64)> = (0..100u32)
            .map(|s| (s, if s == 50 { 80.0 } else { f64::from(s % 37) }))
            .collect();
        let kept = |sign: f64| {
            let mut a = agg(
                (0..100).map(|s| sign * f64::from(s)).collect(),
                vec![band.clone()],
            );
            decimate(&mut a, 12);
            a.times.iter().map(|t| t * sign).collect::<Vec<f64>>()
        };
        let forwards = kept(1.0);
        assert_eq!(forwards.len(), 12);
        assert_eq!(kept(-1.0), forwards);
    }

    #[test]
    fn equal_times_and_no_bands() {
        let mut a = agg(vec![1.0; 1000], vec![vec![(3, 1.0), (999, 2.0)]]);
        decimate(&mut a, 10);
        assert_eq!(a.times.len(), 10);
        let mut b = agg((0..1000).map(f64::from).collect(), Vec::new());
        decimate(&mut b, 10);
        assert_eq!(b.times.len(), 10);
        assert_eq!((b.times[0], b.times[9]), (0.0, 999.0));
    }

    #[test]
    fn the_corners_of_straight_runs_are_what_is_left() {
        // Two bands, each straight between the corners (the first sample, 300, 450, 800
        // and the last): every other sample lies on a straight line, costs nothing, and
        // goes first.
        let corners = [
            (0, 10.0),
            (300, 70.0),
            (450, 20.0),
            (800, 90.0),
            (999, 40.0),
        ];
        let at = |s: u32| {
            let w = corners.windows(2).find(|w| s <= w[1].0).expect("in range");
            let ((s0, y0), (s1, y1)) = (w[0], w[1]);
            y0 + (y1 - y0) * f64::from(s - s0) / f64::from(s1 - s0)
        };
        let times = (0..1000).map(f64::from).collect();
        let low = (0..1000).map(|s| (s, at(s))).collect();
        let high = (0..1000).map(|s| (s, 2.0 * at(s))).collect();
        let mut a = agg(times, vec![low, high]);
        decimate(&mut a, corners.len());
        let kept: Vec<f64> = corners.iter().map(|&(s, _)| f64::from(s)).collect();
        assert_eq!(a.times, kept);
    }

    #[test]
    fn the_flatter_corner_goes_first() {
        // Straight between (0, 0), (250, 50), (500, 60), (750, 200) and (999, 0). The
        // ends and the highest point stay; of the other two corners, 250 changes less
        // when it goes (a triangle of height 20 over 500 samples, against 65 over 500).
        let corners = [
            (0u32, 0.0),
            (250, 50.0),
            (500, 60.0),
            (750, 200.0),
            (999, 0.0),
        ];
        let band = (0..1000u32)
            .map(|s| {
                let w = corners.windows(2).find(|w| s <= w[1].0).expect("in range");
                let ((s0, y0), (s1, y1)) = (w[0], w[1]);
                (s, y0 + (y1 - y0) * f64::from(s - s0) / f64::from(s1 - s0))
            })
            .collect();
        let mut a = agg((0..1000).map(f64::from).collect(), vec![band]);
        decimate(&mut a, 4);
        assert_eq!(a.times, [0.0, 500.0, 750.0, 999.0]);
    }
}
