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
    let mut fold = StackFold::default();
    heights.iter().for_each(|&h| fold.push(times, h));
    fold.area
}

/// The stack's peak and area worked out from its heights one at a time, in order (a
/// spill hands them over a block at a time): the same doubles as [`area`] and a fold of
/// the heights with `>`.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct StackFold {
    /// The first of the highest heights (a fold with `>`: hp2ps keeps the first of
    /// equal or NaN heights, and `f64::max` would not); `None` before any.
    pub(crate) peak: Option<f64>,
    /// The trapezoid integral so far.
    pub(crate) area: f64,
    /// How many heights came, and the last.
    count: usize,
    last: f64,
}

impl StackFold {
    /// Takes the next sample's height; `times` are every sample's (a height past them
    /// adds to the peak only).
    pub(crate) fn push(&mut self, times: &[f64], h: f64) {
        let i = self.count;
        if i >= 1 && i < times.len() {
            let base = times[i] - times[i - 1];
            let (lower, diff) = if h > self.last {
                (self.last, h - self.last)
            } else {
                (h, self.last - h)
            };
            self.area += base * lower + (base * diff) / 2.0;
        }
        self.peak = match self.peak {
            Some(m) if h > m => Some(h),
            Some(m) => Some(m),
            None => Some(h),
        };
        (self.count, self.last) = (i + 1, h);
    }
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

#[cfg(test)]
mod tests {
    use super::StackFold;

    /// The peak is what a fold of the heights with `>` from the first gives (a NaN
    /// first stays, the first of equal heights is kept), and the area [`super::area`]'s
    /// with fewer times than heights.
    #[test]
    fn the_peak_is_a_fold_with_greater_than() {
        let times = [0.0, 1.0, 2.5];
        for heights in [
            vec![f64::NAN, 3.0, 5.0],
            vec![-0.0, 0.0, 0.0],
            vec![2.0, f64::NAN, 7.0, 1.0],
            vec![],
        ] {
            let mut fold = StackFold::default();
            heights.iter().for_each(|&h| fold.push(&times, h));
            let want = heights
                .iter()
                .skip(1)
                .fold(heights.first().copied(), |m, &h| {
                    m.map(|m| if h > m { h } else { m })
                });
            let bits = |v: Option<f64>| v.map(f64::to_bits);
            assert_eq!(bits(fold.peak), bits(want), "{heights:?}");
            let area = super::area(&times, &heights);
            assert_eq!(fold.area.to_bits(), area.to_bits(), "{heights:?}");
        }
        let mut fold = StackFold::default();
        [1.0, 3.0, 2.0, 9.0]
            .iter()
            .for_each(|&h| fold.push(&times, h));
        assert_eq!(fold.area, (1.0 + 1.0) + 1.5 * (2.0 + 0.5));
    }
}
