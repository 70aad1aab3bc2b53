//! Trace elimination (`-t`, hp2ps step 3; §3.3 of `docs/reference/hp2ps-behaviour.md`).

use super::limit::drop_in_background;
use super::selection_sort::{selection_order, take_in_order};
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
    let unchanged: Vec<u32> = (0..bands.len() as u32).collect();
    eliminate_traces_in(bands, &unchanged, percent);
}

/// [`eliminate_traces`] on the bands in the order `order` lists them (the bands move
/// once, to the order after the sort).
pub(crate) fn eliminate_traces_in(bands: &mut Vec<Band>, order: &[u32], percent: f64) {
    let totals = band_totals(bands);
    let sorted = selection_order(order.iter().map(|&i| Some(totals[i as usize])).collect());
    let total_at = |at: u32| totals[order[at as usize] as usize];
    // Summed in the sorted order, as hp2ps sums them.
    let grand: f64 = sorted.iter().fold(0.0, |g, &at| g + total_at(at) as f64);
    let mut cumulative = 0.0;
    let mut keep_from = sorted.len();
    for (rank, &at) in sorted.iter().enumerate() {
        cumulative += 100.0 * total_at(at) as f64 / grand;
        if cumulative >= percent {
            keep_from = rank;
            break;
        }
    }
    let kept: Vec<u32> = sorted[keep_from..]
        .iter()
        .map(|&at| order[at as usize])
        .collect();
    let kept = take_in_order(bands, &kept);
    drop_in_background(std::mem::replace(bands, kept));
}

/// Every band's [`band_total`]. Each total is one long chain of dependent conversions, so
/// on large profiles the bands are shared between two threads.
fn band_totals(bands: &[Band]) -> Vec<i64> {
    let points: usize = bands.iter().map(|b| b.points.len()).sum();
    if points < 1 << 20 || bands.len() < 2 {
        return bands.iter().map(band_total).collect();
    }
    let mut acc = 0;
    let split = bands
        .iter()
        .position(|b| {
            acc += b.points.len();
            2 * acc >= points
        })
        .map_or(bands.len(), |i| i + 1);
    let (first, second) = bands.split_at(split);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| second.iter().map(band_total).collect::<Vec<i64>>());
        let mut totals: Vec<i64> = first.iter().map(band_total).collect();
        match other.join() {
            Ok(rest) => totals.extend(rest),
            Err(panic) => std::panic::resume_unwind(panic),
        }
        totals
    })
}
