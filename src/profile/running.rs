//! A band's peak and area worked out as its values come, sample by sample: the one
//! arithmetic of a band's own numbers, which `aggregate::numbers` applies to a band's
//! points kept whole and the reading for `--summary` of a long `.hp` applies as the
//! points stream past (issue 39, [`super::keep::Sums`]). Both add the same doubles in
//! the same order (the band's samples in order, the trapezoid weight of each), so they
//! give the same numbers.

/// How many points a band's sparkline has at most (`aggregate::numbers`'s, and the
/// reading that makes them without the points: `seam`'s `sloping.rs`).
pub(crate) const SPARK_POINTS: usize = 40;

/// Whether `v` beats the best value so far (the first of equal values wins).
pub(crate) fn beats(best: Option<(f64, f64)>, v: f64) -> bool {
    best.map_or(true, |(b, _)| v > b)
}

/// The weight of sample `i`'s value in the trapezoid integral: half the time to the
/// previous sample plus half the time to the next one (0 for a missing side).
pub(crate) fn trapezoid_weight(times: &[f64], i: usize) -> f64 {
    let before = if i > 0 { times[i] - times[i - 1] } else { 0.0 };
    let after = times.get(i + 1).map_or(0.0, |t| t - times[i]);
    (before + after) / 2.0
}

/// A band's area and highest value so far, its samples added in order.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Running {
    area: f64,
    /// The highest value so far and its sample's time.
    best: Option<(f64, f64)>,
}

impl Running {
    /// Adds the band's value `v` (its points of one sample added up) in the sample at
    /// `time` whose trapezoid weight is `weight`.
    pub(crate) fn add(&mut self, v: f64, time: f64, weight: f64) {
        self.area += v * weight;
        if beats(self.best, v) {
            self.best = Some((v, time));
        }
    }

    /// The band's own area so far.
    pub(crate) fn area(&self) -> f64 {
        self.area
    }

    /// Whether any sample was added.
    pub(crate) fn any(&self) -> bool {
        self.best.is_some()
    }

    /// The band's peak and the time of its first sample with it. Values are never
    /// negative, and a band is 0 in the samples it is absent from: a band that never
    /// rises above 0 peaks (at 0) in the first sample, at `first`.
    pub(crate) fn peak(&self, first: f64) -> (f64, f64) {
        match self.best {
            Some((v, t)) if v > 0.0 => (v, t),
            _ => (0.0, first),
        }
    }
}
