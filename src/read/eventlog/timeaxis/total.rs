//! A running total of nanoseconds that grows at a rate fixed between breakpoints: the
//! mutator clock is such a sum of weighted intervals, read at every sample's time.

/// The running total of intervals of weight 1 (`busy`) and of weight `weight`
/// (`active`), which may overlap. 16 bytes a breakpoint (two an interval at most).
pub(crate) struct Total {
    /// Breakpoints, ascending.
    at: Vec<u64>,
    /// The total at each breakpoint; between two, it grows linearly, and after the last
    /// not at all (every interval has ended).
    sum: Vec<f64>,
}

impl Total {
    pub(crate) fn new(busy: &[(u64, u64)], active: &[(u64, u64)], weight: f64) -> Total {
        // (time, what changes): ±1 a busy interval, ±2 an active one. The counts stay
        // integers so that the rate is exact however many intervals overlap.
        let mut changes: Vec<(u64, i8)> = Vec::with_capacity(2 * (busy.len() + active.len()));
        for (intervals, kind) in [(busy, 1), (active, 2)] {
            for &(s, e) in intervals.iter().filter(|(s, e)| e > s) {
                changes.push((s, kind));
                changes.push((e, -kind));
            }
        }
        changes.sort_unstable_by_key(|c| c.0);
        let mut total = Total {
            at: Vec::with_capacity(changes.len()),
            sum: Vec::with_capacity(changes.len()),
        };
        let (mut busy_n, mut active_n, mut sum) = (0i64, 0i64, 0.0f64);
        let mut i = 0;
        while let Some(&(t, _)) = changes.get(i) {
            if let Some(&prev) = total.at.last() {
                sum += (busy_n as f64 + active_n as f64 * weight) * (t - prev) as f64;
            }
            while let Some(&(_, kind)) = changes.get(i).filter(|c| c.0 == t) {
                match kind {
                    1 | -1 => busy_n += i64::from(kind),
                    _ => active_n += i64::from(kind / 2),
                }
                i += 1;
            }
            total.at.push(t);
            total.sum.push(sum);
        }
        total
    }

    /// The total at `t`.
    pub(crate) fn at(&self, t: u64) -> f64 {
        let n = self.at.partition_point(|&a| a <= t);
        match (n.checked_sub(1), self.at.get(n)) {
            (None, _) => 0.0,
            (Some(i), None) => self.sum[i],
            (Some(i), Some(&next)) => {
                let share = (t - self.at[i]) as f64 / (next - self.at[i]) as f64;
                self.sum[i] + (self.sum[i + 1] - self.sum[i]) * share
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_intervals_add_up() {
        let t = Total::new(&[(10, 30), (20, 40), (50, 50)], &[(0, 100)], 0.5);
        assert_eq!(t.at(0), 0.0);
        assert_eq!(t.at(10), 5.0);
        assert_eq!(t.at(20), 5.0 + 15.0);
        assert_eq!(t.at(30), 20.0 + 25.0);
        assert_eq!(t.at(40), 45.0 + 15.0);
        assert_eq!(t.at(100), 60.0 + 30.0);
        assert_eq!(t.at(u64::MAX), 90.0);
        let empty = Total::new(&[], &[], 1.0);
        assert_eq!(empty.at(5), 0.0);
    }
}
