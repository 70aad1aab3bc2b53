//! Growing a band's points as they come.

use crate::profile::Point;

/// Makes room for `extra` more points in a band that is filling up as the input is read.
/// Growing by doubling copies every band a few times over; with `progress`, the share of
/// the input read so far, a band grows once to about its final size (capacity that is
/// never used costs address space, not memory). Without it, it doubles.
pub(crate) fn make_room(points: &mut Vec<Point>, extra: usize, progress: Option<f64>) {
    let needed = points.len() + extra;
    if needed <= points.capacity() {
        return;
    }
    let scale = progress
        .filter(|&f| f > 0.0 && f <= 1.0)
        .map_or(2.0, |f| 1.05 / f);
    let estimate = (needed as f64 * scale) as usize;
    points.reserve_exact(estimate.max(needed) - points.len());
}

/// Appends `points`, their sample numbers moved up by `base`.
pub(super) fn append_shifted(band: &mut Vec<Point>, points: &[Point], base: u32) {
    band.extend(points.iter().map(|p| {
        let (sample, value) = (p.sample, p.value);
        Point {
            sample: sample + base,
            value,
        }
    }));
}
