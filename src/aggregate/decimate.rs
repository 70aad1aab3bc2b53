//! Small charts of big profiles: keeping at most the samples that can be seen.
//!
//! A profile of 100,000 samples drawn 450 points wide puts hundreds of vertices into
//! every point of every band's outline; the picture is the same with far fewer. The time
//! axis is cut into buckets of equal width, and each bucket keeps only the samples at
//! which some drawn edge reaches its highest or lowest value within the bucket: for every
//! band, the top of its stacked area (the bottom band's value, the sum of it and the
//! band above, …, up to the whole stack), so both the bands' outlines and the stack keep
//! their extremes. The first and last samples are always kept, so the x axis is
//! unchanged.
//!
//! The same samples are kept for every band, so the stack stays exact at every kept
//! sample: a band is still drawn between its neighbours, never across them. The number
//! of buckets is the largest (found in a few passes) that keeps at most `max_points`
//! samples, so the buckets are as fine as the budget allows.
//!
//! The ranges and the area in the title are computed by [`super::aggregate`] before this
//! runs, from every sample, and are not touched; the highest stack is one of the kept
//! samples anyway.

use super::Aggregated;
use crate::profile::Point;

/// The command line's limit for `--format svg`, `pdf` and `eps` when `--max-points` is
/// not given: about four samples per point of a full-width graph, an SVG of at most about
/// 1.5 MB with 21 bands. hp2ps's own PostScript keeps every sample unless asked.
pub const VECTOR_MAX_POINTS: usize = 2000;

/// Keeps at most `max_points` samples of `agg` (see the module docs); `0` keeps all. The
/// first and last samples and the overall extremes of every edge are kept even when that
/// alone exceeds `max_points` (a budget below twice the number of bands plus two).
pub fn decimate(agg: &mut Aggregated, max_points: usize) {
    let n = agg.times.len();
    if max_points == 0 || n <= max_points.max(2) {
        return;
    }
    let mut buckets = (max_points / 2).max(1);
    let keep = loop {
        let keep = kept_samples(agg, buckets);
        let count = keep.iter().filter(|&&k| k).count();
        if count <= max_points || buckets == 1 {
            break keep;
        }
        // Fewer buckets in proportion, a little under, so one or two passes do.
        let scaled = (buckets as f64 * max_points as f64 / count as f64 * 0.97) as usize;
        buckets = scaled.clamp(1, buckets - 1);
    };
    apply(agg, &keep);
}

/// Which samples to keep with `buckets` buckets: each bucket's extremes of every edge,
/// and the first and last sample.
fn kept_samples(agg: &Aggregated, buckets: usize) -> Vec<bool> {
    let times = &agg.times;
    let n = times.len();
    let mut keep = vec![false; n];
    if n == 0 {
        return keep;
    }
    keep[0] = true;
    keep[n - 1] = true;
    let bucket = bucket_of_each_sample(times, buckets);
    let mut edge = vec![0.0f64; n];
    // Per bucket: (highest value, its sample), (lowest value, its sample).
    let mut high = vec![(f64::NEG_INFINITY, usize::MAX); buckets];
    let mut low = vec![(f64::INFINITY, usize::MAX); buckets];
    for band in &agg.bands {
        for p in &band.points {
            let (sample, value) = (p.sample as usize, p.value);
            if let Some(e) = edge.get_mut(sample) {
                *e += value;
            }
        }
        high.fill((f64::NEG_INFINITY, usize::MAX));
        low.fill((f64::INFINITY, usize::MAX));
        for (s, (&e, &b)) in edge.iter().zip(&bucket).enumerate() {
            let b = b as usize;
            if e > high[b].0 {
                high[b] = (e, s);
            }
            if e < low[b].0 {
                low[b] = (e, s);
            }
        }
        for &(_, s) in high.iter().chain(&low) {
            if let Some(k) = keep.get_mut(s) {
                *k = true;
            }
        }
    }
    keep
}

/// The bucket of every sample: equal slices of the time from the first sample to the
/// last (sample times never decrease, so each bucket is a run of samples).
fn bucket_of_each_sample(times: &[f64], buckets: usize) -> Vec<u32> {
    let first = times[0];
    let span = times[times.len() - 1] - first;
    let last = buckets.saturating_sub(1);
    times
        .iter()
        .map(|&t| {
            let f = (t - first) / span * buckets as f64;
            // NaN (a zero span) and anything out of range land in the end buckets.
            if f.is_nan() || f < 0.0 {
                0
            } else {
                (f as usize).min(last) as u32
            }
        })
        .collect()
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
    fn equal_times_and_no_bands() {
        let mut a = agg(vec![1.0; 1000], vec![vec![(3, 1.0), (999, 2.0)]]);
        decimate(&mut a, 10);
        assert!(a.times.len() <= 10 && a.times.len() >= 2);
        let mut b = agg((0..1000).map(f64::from).collect(), Vec::new());
        decimate(&mut b, 10);
        assert_eq!(b.times, [0.0, 999.0]);
    }
}
