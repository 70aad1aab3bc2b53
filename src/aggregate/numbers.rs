//! Every band's own numbers over every sample: its peak and when, its area and share of
//! the whole, its growth and a sparkline. `--summary` reports them for the biggest bands
//! and the HTML page's band table lists them for all ([`every_band`]): they are computed
//! here, once, so the two cannot disagree.
//!
//! A band is counted under its own name, before trace elimination and the band limit
//! (after `--include`/`--exclude`), and is 0 in the samples it is absent from.

use super::order::growth_of_column;
pub(crate) use crate::profile::beats;
pub(crate) use crate::profile::trapezoid_weights;
use crate::profile::{area, stack_heights, stack_on, Band, Running};
pub(crate) use crate::profile::{BandNumbers, Fate};

/// How many points a band's sparkline has at most ([`BandNumbers::spark`]).
pub(crate) use crate::profile::running::SPARK_POINTS;

/// What [`band_numbers`] computes beyond the peak and the area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extras {
    /// The growth slope.
    pub(crate) slope: bool,
    /// A sparkline of at most this many points (0: none).
    pub(crate) spark: usize,
}

/// One band's numbers. `weights` are the samples' [`trapezoid_weights`], `total_area`
/// the area of all bands; `column` is scratch space for the slope and the sparkline,
/// reused from band to band.
pub(crate) fn band_numbers(
    band: &Band,
    times: &[f64],
    weights: &[f64],
    total_area: f64,
    extras: Extras,
    column: &mut Vec<f64>,
) -> BandNumbers {
    // Points are in sample order; duplicates of one sample add up (as in the chart).
    let mut running = Running::default();
    let mut i = 0;
    let points = &band.points;
    while i < points.len() {
        let s = points[i].sample as usize;
        let mut v = points[i].value;
        i += 1;
        while i < points.len() && points[i].sample as usize == s {
            v += points[i].value;
            i += 1;
        }
        let (Some(&t), Some(&w)) = (times.get(s), weights.get(s)) else {
            continue;
        };
        running.add(v, t, w);
    }
    let first = times.first().copied().unwrap_or(0.0);
    let mut numbers = numbers_of(band.name.clone(), &running, first, total_area);
    if extras.slope || extras.spark > 0 {
        column.clear();
        column.resize(times.len(), 0.0);
        stack_on(column, band);
        if extras.slope {
            numbers.slope = growth_of_column(times, column);
        }
        numbers.spark = sparkline(column, extras.spark);
    }
    numbers
}

/// The numbers of band `name` whose samples `running` added up (`first`: the time of
/// the profile's first sample; `total_area`: the area of all bands), without a growth
/// or a sparkline: what [`band_numbers`] and the summary of a profile whose points were
/// not kept both make of their sums.
pub(crate) fn numbers_of(
    name: Vec<u8>,
    running: &Running,
    first: f64,
    total_area: f64,
) -> BandNumbers {
    let (peak, peak_time) = running.peak(first);
    let area = running.area();
    BandNumbers {
        name,
        peak,
        peak_time,
        area,
        share: if total_area != 0.0 {
            area / total_area
        } else {
            0.0
        },
        slope: 0.0,
        spark: Vec::new(),
        fate: Fate::Drawn,
    }
}

/// The highest value of each of `points` slices of `column`, equal in number of
/// samples; `column` itself when it is no longer.
fn sparkline(column: &[f64], points: usize) -> Vec<f64> {
    let n = column.len();
    if points == 0 {
        return Vec::new();
    }
    if n <= points {
        return column.to_vec();
    }
    (0..points)
        .map(|k| {
            let slice = &column[k * n / points..(k + 1) * n / points];
            slice
                .iter()
                .fold(f64::NEG_INFINITY, |m, &v| if v > m { v } else { m })
        })
        .collect()
}

/// Every band's numbers, with its growth and a sparkline of [`SPARK_POINTS`], the
/// biggest area first (ties: the higher peak, then the name), as `--summary` orders
/// them. Every band's [`Fate`] is [`Fate::Drawn`] until the caller knows better.
pub(crate) fn every_band(bands: &[Band], times: &[f64]) -> Vec<BandNumbers> {
    let total_area = area(times, &stack_heights(bands, times.len()));
    let weights = trapezoid_weights(times);
    let extras = Extras {
        slope: true,
        spark: SPARK_POINTS,
    };
    let mut column = Vec::new();
    let mut all: Vec<BandNumbers> = bands
        .iter()
        .map(|b| band_numbers(b, times, &weights, total_area, extras, &mut column))
        .collect();
    sort_biggest_first(&mut all);
    all
}

/// [`every_band`] of a profile whose points were not kept, from what readings of it
/// found instead: each band's peak and area as its values streamed past (`running`),
/// its growth and sparkline (`slopes`, `sparks`), and the stack of every band at each
/// sample (`heights`), all in the order of `bands` (whose names they take). The same
/// numbers, when those are the same doubles as the points'.
pub(crate) fn every_band_of_sums(
    bands: &[Band],
    running: &[Running],
    slopes: &[f64],
    sparks: &[Vec<f64>],
    times: &[f64],
    heights: &[f64],
) -> Vec<BandNumbers> {
    let total_area = area(times, heights);
    let first = times.first().copied().unwrap_or(0.0);
    let mut all: Vec<BandNumbers> = (bands.iter().zip(running).zip(slopes.iter().zip(sparks)))
        .map(|((band, running), (&slope, spark))| BandNumbers {
            slope,
            spark: spark.clone(),
            ..numbers_of(band.name.clone(), running, first, total_area)
        })
        .collect();
    sort_biggest_first(&mut all);
    all
}

/// Biggest area first; ties: the higher peak, then the name (as `--summary` lists them;
/// names are unique, so no two bands tie and an unstable sort gives the one order).
pub(crate) fn sort_biggest_first(bands: &mut [BandNumbers]) {
    bands.sort_unstable_by(|a, b| {
        b.area
            .total_cmp(&a.area)
            .then(b.peak.total_cmp(&a.peak))
            .then_with(|| a.name.cmp(&b.name))
    });
}

#[cfg(test)]
mod tests {
    use super::super::tests::band;
    use super::*;

    #[test]
    fn numbers_of_every_band_biggest_first() {
        let times = [0.0, 1.0, 3.0];
        let bands = [
            band("a", &[(0, 4.0), (1, 2.0)]),
            band("b", &[(1, 6.0), (1, 2.0)]),
        ];
        let all = every_band(&bands, &times);
        assert_eq!(all[0].name, b"b");
        // b: 8 at t=1, area 0.5 * 8 + 1 * 8 = 12 (weights 0.5, 1.5, 1).
        assert_eq!(
            (all[0].peak, all[0].peak_time, all[0].area),
            (8.0, 1.0, 12.0)
        );
        assert_eq!(
            (all[1].peak, all[1].peak_time, all[1].area),
            (4.0, 0.0, 5.0)
        );
        assert_eq!(all[0].share + all[1].share, 1.0);
        assert_eq!(
            all[0].spark,
            [0.0, 8.0, 0.0],
            "every value, fewer samples than points"
        );
        assert_eq!(all[1].slope, growth_of_column(&times, &[4.0, 2.0, 0.0]));
        assert!(all.iter().all(|b| b.fate == Fate::Drawn));
    }

    #[test]
    fn a_sparkline_keeps_the_highest_value_of_each_slice() {
        let column: Vec<f64> = (0..100).map(|i| f64::from(i % 10)).collect();
        let spark = sparkline(&column, 40);
        assert_eq!(spark.len(), 40);
        // Slices of 2 or 3 samples; the spike of 9 at every tenth sample survives.
        assert_eq!(spark.iter().filter(|&&v| v == 9.0).count(), 10);
        assert_eq!(sparkline(&column, 0), Vec::<f64>::new());
        assert_eq!(sparkline(&[1.0, 2.0], 40), [1.0, 2.0]);
    }
}
