//! One order of drops, made once, gives what the simplification keeps at every limit
//! (a page asks for two limits of the same samples).

use super::tests::{noisy, odd_profile};
use super::*;

#[test]
fn one_order_keeps_what_each_limit_keeps() {
    let a = noisy(3000, 4);
    for window in [7, 100, 3000] {
        let order = order_in(&a, BandPoints::InBands, 0..3000, 0, window);
        for max_points in [3, 40, 700, 2999, 3000] {
            let want = simplified_in(&a, BandPoints::InBands, 0..3000, max_points, window);
            let got = order.kept_in_range(max_points);
            assert_eq!(got, want, "window {window}, {max_points} points");
        }
    }
    let order = drop_order(&a, BandPoints::InBands, 700).expect("thinned at 700");
    for max_points in [0, 1, 2, 3, 40, 700, 2999, 3000, 5000] {
        let want = kept_samples(&a, BandPoints::InBands, max_points);
        assert_eq!(order.kept(max_points), want, "{max_points} points");
    }
    assert!(drop_order(&a, BandPoints::InBands, 3000).is_none());
}

#[test]
fn odd_inputs_one_order_keeps_what_each_limit_keeps() {
    // Times that repeat, go back, or are not numbers; points past the end; no bands.
    let mut next = crate::test_rng::xorshift(29);
    for round in 0..300 {
        let a = odd_profile(&mut next, 80);
        let n = a.times.len();
        let window = 1 + (next() % n as u64) as usize;
        let order = order_in(&a, BandPoints::InBands, 0..n, 0, window);
        for _ in 0..4 {
            let max_points = 1 + (next() % n as u64) as usize;
            let want = simplified_in(&a, BandPoints::InBands, 0..n, max_points, window);
            let got = order.kept_in_range(max_points);
            assert_eq!(
                got, want,
                "round {round}: n {n}, window {window}, {max_points}"
            );
        }
    }
}
