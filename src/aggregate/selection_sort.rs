//! hp2ps's one sort: an unstable selection sort over the hash-bucket order. Its tie
//! breaking decides the band order, so it is reproduced exactly, in O(n log n).

/// Sorts `items` ascending by `keys` exactly as this selection sort would:
///
/// for i in 0..n-1: m = i; for j in i+1..n: if key[j] < key[m] { m = j }; swap(i, m)
///
/// `None` is a key that compares false with everything (a NaN): it is never picked as a
/// smaller key, and when it sits at position i nothing is swapped into i.
pub(crate) fn selection_sort<T: Default, K: Ord>(items: &mut [T], keys: Vec<Option<K>>) {
    assert_eq!(items.len(), keys.len(), "one key per item");
    let perm = selection_order(keys);
    permute(items, &perm);
}

/// The order [`selection_sort`] puts items with these `keys` in: position `p` of the
/// result is the index of the item that ends at `p`. For callers that move their items
/// themselves (once, and only those they keep).
pub(crate) fn selection_order<K: Ord>(keys: Vec<Option<K>>) -> Vec<u32> {
    let n = keys.len();
    assert!(u32::try_from(n).is_ok(), "at most 2^32 items");
    // The linear scan keeps the first (smallest key, then smallest position) among the
    // unsorted positions: only strictly smaller keys replace it. So the keys are taken
    // in ascending order. While one key's group is taken, its items do not move until
    // picked, and the step at `i` picks the smallest of their positions: the group's
    // positions as they were when its turn came, in ascending order. The item at `i`
    // goes to the picked one's place. So each group needs its positions sorted once, when
    // its turn comes; between turns only a position per item is kept up to date. An item
    // without a key (NaN) is never picked, and no step swaps anything into its place:
    // it never moves.
    let keyed: Vec<bool> = keys.iter().map(Option::is_some).collect();
    let mut order: Vec<(K, u32)> = keys
        .into_iter()
        .enumerate()
        .filter_map(|(i, k)| k.map(|k| (k, i as u32)))
        .collect();
    order.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // `at[p]`: the item now at position `p`; `place[item]`: its position.
    let mut at: Vec<u32> = (0..n as u32).collect();
    let mut place = at.clone();
    let mut positions: Vec<u32> = Vec::new();
    let mut step = 0;
    for group in order.chunk_by(|a, b| a.0 == b.0) {
        positions.clear();
        positions.extend(group.iter().map(|&(_, item)| place[item as usize]));
        positions.sort_unstable();
        for &m in &positions {
            while !keyed[step] {
                step += 1;
            }
            let (i, m) = (step, m as usize);
            step += 1;
            if m != i {
                let (moved, picked) = (at[i], at[m]);
                at[i] = picked;
                at[m] = moved;
                place[picked as usize] = i as u32;
                place[moved as usize] = m as u32;
            }
        }
    }
    at
}

/// Reorders `items` so that position `p` holds the item that was at `perm[p]`.
fn permute<T: Default>(items: &mut [T], perm: &[u32]) {
    let sorted = take_in_order(items, perm);
    for (slot, item) in items.iter_mut().zip(sorted) {
        *slot = item;
    }
}

/// The items at the indices `order` lists, in that order, taken out of `items` (which
/// keeps defaults in their place). A gather: the reads are independent, so their cache
/// misses overlap (following a permutation's cycles in place makes each miss wait for the
/// previous one).
pub(crate) fn take_in_order<T: Default>(items: &mut [T], order: &[u32]) -> Vec<T> {
    order
        .iter()
        .map(|&i| std::mem::take(&mut items[i as usize]))
        .collect()
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

    /// The positions of `vals` in the order [`selection_sort`] puts them, by `f64_key`.
    fn sorted_by_f64_keys(vals: &[f64]) -> Vec<usize> {
        let mut items: Vec<usize> = (0..vals.len()).collect();
        selection_sort(&mut items, vals.iter().map(|&v| f64_key(v)).collect());
        items
    }

    /// The positions of `vals` in the order the plain selection sort with `<` puts them.
    fn sorted_naively(vals: &[f64]) -> Vec<usize> {
        let mut items: Vec<(f64, usize)> = vals.iter().copied().zip(0..).collect();
        selection_sort_naive(&mut items, |a, b| a.0 < b.0);
        items.into_iter().map(|(_, i)| i).collect()
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
            assert_eq!(
                sorted_by_f64_keys(&vals),
                sorted_naively(&vals),
                "round {round}: {vals:?}"
            );
        }
    }

    #[test]
    fn matches_the_naive_sort_with_nans_among_many_ties() {
        let mut seed = 13;
        for round in 0..300 {
            let n = (lcg(&mut seed) % 300) as usize;
            let range = 1 + lcg(&mut seed) % 8;
            let vals: Vec<f64> = (0..n)
                .map(|_| match lcg(&mut seed) % 7 {
                    0 => f64::NAN,
                    _ => (lcg(&mut seed) % range) as f64,
                })
                .collect();
            assert_eq!(
                sorted_by_f64_keys(&vals),
                sorted_naively(&vals),
                "round {round}"
            );
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
