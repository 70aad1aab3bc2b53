//! A long range priced a window at a time, so that the edges in memory are a window's,
//! not the whole run's: the stack's edges take four bytes a sample and drawn band, 28 MB
//! for the 1.6 GB generated profile (the largest part of its peak), twice that for a
//! day's run.
//!
//! Neighbouring windows share a sample, and that sample is kept. Then no sample's
//! neighbours are ever in another window, so each window's samples go in the order they
//! would go in one list of the whole range with those samples kept too, whatever the
//! other windows do; and dropping the cheapest sample of the range, one at a time, is
//! dropping the cheapest next one of any window's order. So each window is priced alone,
//! every sample it could drop dropped in turn and its entry written down (eight bytes a
//! sample), and the windows' orders are merged until `max_points` samples are left. The
//! result is exactly that of the whole range with one more sample kept a window (tested
//! against it); a range within a window (a chart of 20 drawn bands up to 104,857
//! samples, of 200 bands up to 10,485) is priced as one, as before windows were.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use super::cheapest::drop_cheapest;
use super::edges::{protected, BandPoints, Edges};
use crate::aggregate::Aggregated;

/// The most bytes of edges a window holds.
const WINDOW_TOPS: usize = 8 << 20;

/// The fewest samples a window holds, however many bands (a kept sample a window is a
/// small share of any budget).
const MIN_WINDOW: usize = 4096;

/// How many samples a window of a chart of `bands` drawn bands holds.
pub(super) fn window_len(bands: usize) -> usize {
    (WINDOW_TOPS / (4 * bands.max(1))).max(MIN_WINDOW)
}

/// The samples of `range` (more than `window` samples, `window` at least one) in the
/// order `super::simplified` drops them until `fewest` are left or none can go, by their
/// place in the range, a window at a time (see the module docs).
pub(super) fn dropped(
    agg: &Aggregated,
    points: BandPoints<'_>,
    range: Range<usize>,
    fewest: usize,
    window: usize,
) -> Vec<u32> {
    let n = range.len();
    let fixed = protected(agg, range.clone(), points);
    let mut orders: Vec<Vec<u64>> = Vec::new();
    let mut start = 0;
    while start + 1 < n {
        let end = (start + window.max(1)).min(n - 1);
        let samples = range.start + start..range.start + end + 1;
        let edges = Edges::of(agg, range.clone(), samples, points);
        let mut kept = fixed[start..=end].to_vec();
        kept[0] = true;
        kept[end - start] = true;
        let mut order = Vec::with_capacity(end - start);
        drop_cheapest(&edges, &kept, start, |entry| {
            order.push(entry);
            true
        });
        orders.push(order);
        start = end;
    }
    merged(&orders, n, fewest)
}

/// The samples of `n` dropped, in turn, when the cheapest of the windows' next ones is
/// dropped until `fewest` are left or none can go: `orders` are the windows' entries,
/// each in its window's order (cost above the sample, as `drop_cheapest` gives them).
fn merged(orders: &[Vec<u64>], n: usize, fewest: usize) -> Vec<u32> {
    let mut dropped = Vec::new();
    let mut next = vec![0usize; orders.len()];
    let mut heads: BinaryHeap<Reverse<(u64, usize)>> = (orders.iter().enumerate())
        .filter_map(|(w, order)| order.first().map(|&e| Reverse((e, w))))
        .collect();
    let mut left = n;
    while left > fewest {
        let Some(Reverse((entry, w))) = heads.pop() else {
            break;
        };
        // The entry's low half is the sample's place in the range.
        dropped.push(entry as u32);
        left -= 1;
        next[w] += 1;
        if let Some(&e) = orders[w].get(next[w]) {
            heads.push(Reverse((e, w)));
        }
    }
    dropped
}
