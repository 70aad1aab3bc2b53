//! Trace elimination (`-t`, hp2ps step 3; §3.3 of `docs/reference/hp2ps-behaviour.md`).

use super::limit::drop_in_background;
use super::selection_sort::{selection_order, take_in_order};
use crate::num::c_trunc_i64;
use crate::profile::{Band, Point};

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
    drop_in_background(eliminate_traces_in(bands, &unchanged, percent, None));
}

/// [`eliminate_traces`] on the bands in the order `order` lists them (the bands move
/// once, to the order after the sort). Returns the bands dropped, in their order before.
pub(crate) fn eliminate_traces_in(
    bands: &mut Vec<Band>,
    order: &[u32],
    percent: f64,
    known: Option<&[i64]>,
) -> Vec<Band> {
    let totals = match known {
        Some(totals) if totals.len() == bands.len() => totals.to_vec(),
        _ => band_totals(bands),
    };
    let kept = kept_after_traces(&totals, order, percent);
    let mut taken = vec![false; bands.len()];
    for &k in &kept {
        taken[k as usize] = true;
    }
    let kept = take_in_order(bands, &kept);
    let before = std::mem::replace(bands, kept);
    (before.into_iter().zip(taken))
        .filter_map(|(band, taken)| (!taken).then_some(band))
        .collect()
}

/// The bands trace elimination keeps, by number, in the order after its sort (smallest
/// total first), from every band's total and the order the sort starts from.
pub(crate) fn kept_after_traces(totals: &[i64], order: &[u32], percent: f64) -> Vec<u32> {
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
    sorted[keep_from..]
        .iter()
        .map(|&at| order[at as usize])
        .collect()
}

/// Every band's [`band_total`]. Each total is one long chain of dependent conversions, so
/// the chains of several bands are run side by side ([`totals_of`]), and on large profiles
/// the bands are shared between two threads.
fn band_totals(bands: &[Band]) -> Vec<i64> {
    let points: usize = bands.iter().map(|b| b.points.len()).sum();
    if points < 1 << 20 || bands.len() < 2 {
        return totals_of(bands);
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
        let other = scope.spawn(|| totals_of(second));
        let mut totals = totals_of(first);
        match other.join() {
            Ok(rest) => totals.extend(rest),
            Err(panic) => std::panic::resume_unwind(panic),
        }
        totals
    })
}

/// How many bands' totals [`totals_of`] sums side by side.
const LANES: usize = 4;

/// Every band's [`band_total`], [`LANES`] bands at a time: one step of a total waits for
/// the step before (a conversion, an add and a conversion back), and the steps of other
/// bands fill that wait. Each lane takes the next band when its band is done.
fn totals_of(bands: &[Band]) -> Vec<i64> {
    let step = |t: i64, p: &Point| c_trunc_i64(t as f64 + p.value);
    let mut totals = vec![0i64; bands.len()];
    let mut next = 0;
    // Per lane: the band, its points not summed yet, the total so far.
    let mut lanes: Vec<(usize, &[Point], i64)> = Vec::with_capacity(LANES);
    loop {
        let mut k = 0;
        while k < LANES {
            match lanes.get(k) {
                Some(&(band, [], total)) => {
                    totals[band] = total;
                    lanes.swap_remove(k);
                }
                Some(_) => k += 1,
                None if next < bands.len() => {
                    lanes.push((next, &bands[next].points, 0));
                    next += 1;
                }
                None => break,
            }
        }
        if lanes.len() < LANES {
            break;
        }
        let run = lanes.iter().map(|l| l.1.len()).min().unwrap_or(0);
        let (p0, p1, p2, p3) = (lanes[0].1, lanes[1].1, lanes[2].1, lanes[3].1);
        let mut t = [lanes[0].2, lanes[1].2, lanes[2].2, lanes[3].2];
        for i in 0..run {
            t[0] = step(t[0], &p0[i]);
            t[1] = step(t[1], &p1[i]);
            t[2] = step(t[2], &p2[i]);
            t[3] = step(t[3], &p3[i]);
        }
        for (lane, total) in lanes.iter_mut().zip(t) {
            lane.1 = &lane.1[run..];
            lane.2 = total;
        }
    }
    for (band, rest, total) in lanes {
        totals[band] = rest.iter().fold(total, step);
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_totals_are_the_one_by_one_totals() {
        let mut next = crate::test_rng::xorshift(3);
        for round in 0..200 {
            let bands: Vec<Band> = (0..next() % 13)
                .map(|_| Band {
                    name: Vec::new(),
                    points: (0..next() % 40)
                        .map(|s| Point {
                            sample: s as u32,
                            // Large and fractional values, so that the truncation at
                            // each step matters.
                            value: (next() % 1_000_000) as f64 * 1e12 / 7.0,
                        })
                        .collect(),
                })
                .collect();
            let expected: Vec<i64> = bands.iter().map(band_total).collect();
            assert_eq!(totals_of(&bands), expected, "round {round}");
        }
    }
}
