//! The simplification's loop: the cheapest sample of a window dropped, one at a time
//! (see the parent module).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::edges::Edges;

/// Drops the samples of `edges` (its window's, `fixed` ones never), the cheapest first,
/// one at a time, calling `again` with each one's entry (its cost's bits above its
/// place in the range: `offset` is the window's first sample's), until it says no or
/// none is left to drop; gives a flag per sample, whether it is kept.
pub(super) fn drop_cheapest(
    edges: &Edges<'_>,
    fixed: &[bool],
    offset: usize,
    mut again: impl FnMut(u64) -> bool,
) -> Vec<bool> {
    let n = fixed.len();
    // A doubly linked list of the samples left, and a heap of their costs, each entry
    // one word: the cost in single precision above the sample (ranking needs no more; a
    // cost is never negative, so its bits sort as the number does). An entry whose cost
    // is no longer the sample's (a neighbour went since) is skipped. The sample is its
    // place in the range, so that entries of different windows rank as one heap would.
    let entry = |c: f64, i: usize| (u64::from((c as f32).to_bits()) << 32) | (offset + i) as u64;
    let last = n as u32 - 1;
    let mut prev: Vec<u32> = (0..=last).map(|i| i.saturating_sub(1)).collect();
    let mut next: Vec<u32> = (0..=last).map(|i| i.saturating_add(1)).collect();
    let mut current = vec![u64::MAX; n];
    for i in 1..n.saturating_sub(1) {
        if !fixed[i] {
            current[i] = entry(edges.cost(i - 1, i, i + 1), i);
        }
    }
    let mut heap: BinaryHeap<Reverse<u64>> = current
        .iter()
        .filter(|&&c| c != u64::MAX)
        .map(|&c| Reverse(c))
        .collect();
    let mut keep = vec![true; n];
    while let Some(Reverse(top)) = heap.pop() {
        let i = (top & u64::from(u32::MAX)) as usize - offset;
        if !keep[i] || top != current[i] {
            continue;
        }
        keep[i] = false;
        let (p, q) = (prev[i], next[i]);
        next[p as usize] = q;
        prev[q as usize] = p;
        for j in [p as usize, q as usize] {
            if !fixed[j] {
                current[j] = entry(edges.cost(prev[j] as usize, j, next[j] as usize), j);
                heap.push(Reverse(current[j]));
            }
        }
        if !again(top) {
            break;
        }
    }
    keep
}
