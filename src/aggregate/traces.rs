//! Trace elimination (`-t`, hp2ps step 3; §3.3 of `docs/reference/hp2ps-behaviour.md`).

use super::selection_sort::selection_sort;
use crate::num::c_trunc_i64;
use crate::profile::Band;

/// A band's total as hp2ps sums it: in a 64-bit integer, through a double at every step.
pub fn band_total(band: &Band) -> i64 {
    band.points
        .iter()
        .fold(0i64, |t, p| c_trunc_i64(t as f64 + p.value))
}

/// Step 3: sorts by total and drops the smallest bands whose combined share of the grand
/// total stays below `percent`. An all-zero profile (or a NaN threshold) loses every band.
pub fn eliminate_traces(bands: &mut Vec<Band>, percent: f64) {
    let totals: Vec<i64> = bands.iter().map(band_total).collect();
    let mut pairs: Vec<(Band, i64)> = std::mem::take(bands).into_iter().zip(totals).collect();
    let keys = pairs.iter().map(|(_, t)| Some(*t)).collect();
    selection_sort(&mut pairs, keys);
    let grand: f64 = pairs.iter().fold(0.0, |g, (_, t)| g + *t as f64);
    let mut cumulative = 0.0;
    let mut keep_from = pairs.len();
    for (i, (_, t)) in pairs.iter().enumerate() {
        cumulative += 100.0 * *t as f64 / grand;
        if cumulative >= percent {
            keep_from = i;
            break;
        }
    }
    bands.extend(pairs.into_iter().skip(keep_from).map(|(b, _)| b));
}
