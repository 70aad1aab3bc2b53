//! hp2ps's one sort: an unstable selection sort over the hash-bucket order. Its tie
//! breaking decides the band order, so it is reproduced exactly, in O(n log n).

use std::collections::BTreeSet;

/// Sorts `items` ascending by `keys` exactly as this selection sort would:
///
/// for i in 0..n-1: m = i; for j in i+1..n: if key[j] < key[m] { m = j }; swap(i, m)
///
/// `None` is a key that compares false with everything (a NaN): it is never picked as a
/// smaller key, and when it sits at position i nothing is swapped into i.
pub(crate) fn selection_sort<T, K: Ord + Clone>(items: &mut [T], mut keys: Vec<Option<K>>) {
    assert_eq!(items.len(), keys.len(), "one key per item");
    // The first (smallest key, then smallest position) among the unsorted positions is
    // exactly the element the linear scan keeps: only strictly smaller keys replace it.
    let mut pending: BTreeSet<(K, usize)> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.clone().map(|k| (k, i)))
        .collect();
    for i in 0..items.len().saturating_sub(1) {
        let Some(key_i) = keys[i].clone() else {
            continue;
        };
        let Some((_, m)) = pending.pop_first() else {
            break;
        };
        if m != i {
            pending.remove(&(key_i.clone(), i));
            pending.insert((key_i, m));
            items.swap(i, m);
            keys.swap(i, m);
        }
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
