//! hp2ps's one sort: an unstable selection sort over the hash-bucket order. Its tie
//! breaking decides the band order, so it is reproduced exactly, in O(n log n).

/// Sorts `items` ascending by `keys` exactly as this selection sort would:
///
/// for i in 0..n-1: m = i; for j in i+1..n: if key[j] < key[m] { m = j }; swap(i, m)
///
/// `None` is a key that compares false with everything (a NaN): it is never picked as a
/// smaller key, and when it sits at position i nothing is swapped into i.
pub(crate) fn selection_sort<T: Default, K: Ord + Clone>(items: &mut [T], keys: Vec<Option<K>>) {
    assert_eq!(items.len(), keys.len(), "one key per item");
    assert!(u32::try_from(items.len()).is_ok(), "at most 2^32 items");
    // The linear scan keeps the first (smallest key, then smallest position) among the
    // unsorted positions: only strictly smaller keys replace it. So the keys are taken
    // in ascending order, and within one key value the positions holding that key in
    // ascending order, as they are at the time. A swap moves the element at `i` (always
    // the first position of its own key's group, every earlier position being sorted) to
    // `m`: its group's smallest position becomes `m`. Each group is a min-heap of
    // positions (a sorted array to begin with); a million bands with a thousand ties
    // each sort in a fraction of a second.
    let mut order: Vec<(K, usize)> = keys
        .into_iter()
        .enumerate()
        .filter_map(|(i, k)| k.map(|k| (k, i)))
        .collect();
    order.sort_unstable();
    // Groups of equal keys: heap[start[g]..start[g] + len[g]] holds group g's positions.
    let mut heap: Vec<u32> = Vec::with_capacity(order.len());
    let mut start: Vec<usize> = Vec::new();
    let mut len: Vec<usize> = Vec::new();
    let mut group_at: Vec<u32> = vec![u32::MAX; items.len()];
    for (j, (k, pos)) in order.iter().enumerate() {
        if j == 0 || order[j - 1].0 != *k {
            start.push(j);
            len.push(0);
        }
        let g = start.len() - 1;
        len[g] += 1;
        heap.push(*pos as u32);
        group_at[*pos] = g as u32;
    }
    drop(order);
    // The swaps are done on positions (`perm[p]`: the item now at position `p`), and the
    // items moved once at the end: a swap of two large items far apart costs cache misses.
    let mut perm: Vec<u32> = (0..items.len() as u32).collect();
    let mut g = 0;
    for i in 0..items.len().saturating_sub(1) {
        if group_at[i] == u32::MAX {
            // No key (NaN): never picked, and nothing is swapped into its place.
            continue;
        }
        while g < len.len() && len[g] == 0 {
            g += 1;
        }
        if g == len.len() {
            break;
        }
        let group = &mut heap[start[g]..start[g] + len[g]];
        let m = group[0] as usize;
        let last = group.len() - 1;
        group.swap(0, last);
        sift_down(&mut group[..last], 0);
        len[g] -= 1;
        if m != i {
            // The element at `i` moves to `m`: its group's smallest position, `i`,
            // becomes `m`.
            let h = group_at[i] as usize;
            let other = &mut heap[start[h]..start[h] + len[h]];
            debug_assert_eq!(other[0] as usize, i);
            other[0] = m as u32;
            sift_down(other, 0);
            perm.swap(i, m);
            group_at.swap(i, m);
        }
    }
    permute(items, &perm);
}

/// Reorders `items` so that position `p` holds the item that was at `perm[p]`. A gather
/// through a copy: the reads are independent, so their cache misses overlap (following
/// the permutation's cycles in place makes each miss wait for the previous one).
fn permute<T: Default>(items: &mut [T], perm: &[u32]) {
    let mut taken: Vec<T> = items.iter_mut().map(std::mem::take).collect();
    for (slot, &from) in items.iter_mut().zip(perm.iter()) {
        *slot = std::mem::take(&mut taken[from as usize]);
    }
}

/// Restores the min-heap order of `heap` below position `at`.
fn sift_down(heap: &mut [u32], mut at: usize) {
    loop {
        let left = 2 * at + 1;
        if left >= heap.len() {
            return;
        }
        let right = left + 1;
        let child = if right < heap.len() && heap[right] < heap[left] {
            right
        } else {
            left
        };
        if heap[child] >= heap[at] {
            return;
        }
        heap.swap(at, child);
        at = child;
    }
}

/// The plain O(n²) selection sort, the reference for tests.
#[cfg(test)]
fn selection_sort_naive<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = items.len();
    for i in 0..n.saturating_sub(1) {
        let mut m = i;
        for j in i + 1..n {
            if less(&items[j], &items[m]) {
                m = j;
            }
        }
        items.swap(i, m);
    }
}

/// An `f64` key for [`selection_sort`]: NaN becomes `None`, the rest a totally ordered
/// integer image (with -0.0 equal to 0.0, as `<` has it).
pub(crate) fn f64_key(x: f64) -> Option<i64> {
    if x.is_nan() {
        return None;
    }
    let x = if x == 0.0 { 0.0 } else { x };
    let bits = x.to_bits() as i64;
    Some(if bits < 0 { bits ^ i64::MAX } else { bits })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn matches_the_naive_sort_with_many_ties() {
        let mut seed = 7;
        for round in 0..2000 {
            let n = (lcg(&mut seed) % 30) as usize;
            let range = 1 + lcg(&mut seed) % 6;
            let keys: Vec<u64> = (0..n).map(|_| lcg(&mut seed) % range).collect();
            let mut fast: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
            let mut slow = fast.clone();
            selection_sort(&mut fast, keys.iter().map(|&k| Some(k)).collect());
            selection_sort_naive(&mut slow, |a, b| a.0 < b.0);
            assert_eq!(fast, slow, "round {round}");
        }
        // Larger, with few distinct keys (big groups of ties).
        for round in 0..50 {
            let n = 200 + (lcg(&mut seed) % 800) as usize;
            let range = 1 + lcg(&mut seed) % 20;
            let keys: Vec<u64> = (0..n).map(|_| lcg(&mut seed) % range).collect();
            let mut fast: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
            let mut slow = fast.clone();
            selection_sort(&mut fast, keys.iter().map(|&k| Some(k)).collect());
            selection_sort_naive(&mut slow, |a, b| a.0 < b.0);
            assert_eq!(fast, slow, "large round {round}");
        }
    }

    #[test]
    fn matches_the_naive_sort_with_nans() {
        let mut seed = 11;
        for round in 0..2000 {
            let n = (lcg(&mut seed) % 20) as usize;
            let vals: Vec<f64> = (0..n)
                .map(|_| match lcg(&mut seed) % 5 {
                    0 => f64::NAN,
                    1 => f64::INFINITY,
                    k => k as f64,
                })
                .collect();
            let mut fast: Vec<(f64, usize)> = vals.iter().copied().zip(0..).collect();
            let mut slow = fast.clone();
            selection_sort(&mut fast, vals.iter().map(|&v| f64_key(v)).collect());
            selection_sort_naive(&mut slow, |a, b| a.0 < b.0);
            let ids = |v: &[(f64, usize)]| v.iter().map(|p| p.1).collect::<Vec<_>>();
            assert_eq!(ids(&fast), ids(&slow), "round {round}: {vals:?}");
        }
    }

    #[test]
    fn f64_keys_order_like_less_than() {
        let xs = [-1e300, -2.5, -0.0, 0.0, 1e-300, 3.0, f64::INFINITY];
        for a in xs {
            for b in xs {
                assert_eq!(f64_key(a) < f64_key(b), a < b, "{a} {b}");
            }
        }
    }
}
