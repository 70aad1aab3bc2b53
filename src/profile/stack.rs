//! Stacking and the area in the title (§3.8–3.9 of `docs/reference/hp2ps-behaviour.md`):
//! the arithmetic of bands that aggregation, the band filter, the summary and the layout
//! share.

use super::running::trapezoid_weight;
use super::Band;

/// The height of the stack at every sample, summed band by band.
pub fn stack_heights(bands: &[Band], nsamples: usize) -> Vec<f64> {
    let mut h = vec![0.0; nsamples];
    for band in bands {
        stack_on(&mut h, band);
    }
    h
}

/// Adds `band`'s points to the stack `heights` (one per sample; points beyond it are
/// never drawn), which then holds the band's top edge.
pub(crate) fn stack_on(heights: &mut [f64], band: &Band) {
    for p in &band.points {
        if let Some(s) = heights.get_mut(p.sample as usize) {
            *s += p.value;
        }
    }
}

/// The trapezoid integral of the stack, in hp2ps's exact arithmetic.
pub(crate) fn area(times: &[f64], heights: &[f64]) -> f64 {
    let mut area = 0.0;
    for i in 1..times.len().min(heights.len()) {
        let base = times[i] - times[i - 1];
        let (lower, diff) = if heights[i] > heights[i - 1] {
            (heights[i - 1], heights[i] - heights[i - 1])
        } else {
            (heights[i], heights[i - 1] - heights[i])
        };
        area += base * lower + (base * diff) / 2.0;
    }
    area
}

/// The weight of each sample's value in the trapezoid integral: half the time to the
/// previous sample plus half the time to the next one (a band's own area is the sum of
/// its values times these).
pub(crate) fn trapezoid_weights(times: &[f64]) -> Vec<f64> {
    (0..times.len())
        .map(|i| trapezoid_weight(times, i))
        .collect()
}

/// The values of `bands` together, sample by sample, where any of them has a point: one
/// `(sample, value)` each, in sample order (points of one sample added up; a band is 0
/// where it has none). A band's points are in sample order already; several bands are
/// merged.
pub(crate) fn merged_values(bands: &[&Band]) -> Vec<(usize, f64)> {
    let mut points: Vec<(usize, f64)> = (bands.iter())
        .flat_map(|b| b.points.iter().map(|p| (p.sample as usize, p.value)))
        .collect();
    if bands.len() > 1 {
        points.sort_by_key(|&(s, _)| s);
    }
    let mut merged: Vec<(usize, f64)> = Vec::with_capacity(points.len());
    for (s, v) in points {
        match merged.last_mut() {
            Some(last) if last.0 == s => last.1 += v,
            _ => merged.push((s, v)),
        }
    }
    merged
}
