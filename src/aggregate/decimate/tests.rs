//! Decimation: budgets, what is always kept, odd inputs.

use super::*;
use crate::defaults::VECTOR_MAX_BAND_POINTS;
use crate::profile::Band;
use edges::Edges;

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
        other: false,
        samples: 0,
        band_info: Default::default(),
        x_range: 1.0,
        y_range: 1.0,
        aux_y_range: 1.0,
        area: 0.0,
        mark_texts: Vec::new(),
        series: Vec::new(),
        x_axis_end: 0.0,
        band_limit: 20,
        trace_percent: 1.0,
        table: Vec::new(),
        rest: Vec::new(),
        totals: Vec::new(),
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

pub(super) fn noisy(n: usize, bands: usize) -> Aggregated {
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

/// A profile of 3 to `most + 2` samples whose times repeat, go back or are not numbers,
/// of up to 3 bands with points missing and points past the end.
pub(super) fn odd_profile(next: &mut impl FnMut() -> u64, most: u64) -> Aggregated {
    let n = 3 + (next() % most) as usize;
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
    agg(times, points)
}

#[test]
fn odd_inputs_keep_the_ends_and_stay_within_the_budget() {
    // Times that repeat, go back, or are not numbers; points of samples past the
    // end; budgets from 1 up: no panic, the ends kept, at most the budget unless the
    // ends and extremes alone exceed it.
    let mut next = crate::test_rng::xorshift(7);
    for round in 0..300 {
        let a = odd_profile(&mut next, 60);
        let (n, bands) = (a.times.len(), a.bands.len());
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

/// What a range priced a window at a time must keep: the range priced as one list, with
/// the first sample of every window kept too (`windows.rs`).
fn one_list_with_window_ends(
    a: &Aggregated,
    range: Range<usize>,
    max_points: usize,
    window: usize,
) -> Vec<bool> {
    let (edges, mut fixed) = Edges::with_protected(a, range.clone(), BandPoints::InBands);
    for s in (0..range.len()).step_by(window) {
        fixed[s] = true;
    }
    let mut left = range.len();
    drop_cheapest(&edges, &fixed, 0, |_| {
        left -= 1;
        left > max_points
    })
}

#[test]
fn windows_keep_what_one_list_keeps_with_their_ends_kept() {
    let mut a = noisy(3000, 4);
    // The totals' peak is kept too.
    let d = dense(&a);
    a.totals = (0..3000).map(|s| d.iter().map(|b| b[s]).sum()).collect();
    let mut differs = 0;
    for range in [0..3000, 700..2900] {
        let whole = simplified_in(&a, BandPoints::InBands, range.clone(), 40, range.len());
        for window in [1, 2, 7, 100, 999, range.len() - 1] {
            for max_points in [3, 40, 700, range.len() - 1] {
                let got = simplified_in(&a, BandPoints::InBands, range.clone(), max_points, window);
                let want = one_list_with_window_ends(&a, range.clone(), max_points, window);
                assert_eq!(got, want, "{range:?}, window {window}, {max_points} points");
                let kept = got.iter().filter(|&&k| k).count();
                assert!(kept >= max_points, "{kept}");
                if window >= 100 && max_points >= 700 {
                    assert_eq!(kept, max_points);
                }
                differs += usize::from(max_points == 40 && got != whole);
            }
        }
    }
    // The windows' ends do change what is kept: the test tells the two apart.
    assert!(differs >= 6, "{differs}");
}

#[test]
fn odd_inputs_priced_in_windows_keep_what_one_list_keeps() {
    // Times that repeat, go back, or are not numbers; points past the end; no bands.
    let mut next = crate::test_rng::xorshift(11);
    for round in 0..300 {
        let a = odd_profile(&mut next, 80);
        let n = a.times.len();
        // Fewer than the samples, as `simplified` is asked.
        let max_points = 1 + (next() % (n as u64 - 1)) as usize;
        let window = 1 + (next() % n as u64) as usize;
        let got = simplified_in(&a, BandPoints::InBands, 0..n, max_points, window);
        let want = one_list_with_window_ends(&a, 0..n, max_points, window);
        assert_eq!(
            got, want,
            "round {round}: n {n}, window {window}, {max_points} points"
        );
    }
}

#[test]
fn a_window_holds_a_few_megabytes_of_edges() {
    assert_eq!(windows::window_len(20), (8 << 20) / 80);
    assert_eq!(windows::window_len(0), (8 << 20) / 4);
    assert_eq!(windows::window_len(100_000), 4096);
}

#[test]
fn windows_read_from_a_spill_keep_what_the_bands_keep() {
    use crate::profile::spill::{Spill, SpillHandle};
    let a = noisy(9000, 3);
    let mut spill = Spill::new(Box::new(std::io::Cursor::new(Vec::new())));
    for (b, band) in a.bands.iter().enumerate() {
        spill.names.push(band.name.clone());
        spill.put(b as u32, band.points.iter().copied());
    }
    // The first band is OTHER, read from the band that carries the merged bands' sum.
    spill.carrier = Some(0);
    spill.names[0] = b"OTHER".to_vec();
    spill.finish().expect("a spill in memory");
    let spill = SpillHandle::new(spill);
    // The bands hold no points when they are in a spill.
    let mut empty = a.clone();
    empty.other = true;
    for band in &mut empty.bands {
        band.points.clear();
    }
    for (range, window) in [(0..9000, 700), (1234..8000, 4096), (10..9000, 9000)] {
        let spilled = BandPoints::Spilled(&spill);
        let got = simplified_in(&empty, spilled, range.clone(), 300, window);
        let want = simplified_in(&a, BandPoints::InBands, range.clone(), 300, window);
        assert_eq!(got, want, "{range:?}, window {window}");
    }
    assert!(spill.lock().read_failure().is_none());
}
