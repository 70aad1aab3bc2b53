//! The x axis: the `.hp`'s mutator seconds, rebuilt as "timestamp minus the wall-clock
//! time spent in GC before it" (FINDINGS §5), or plain elapsed seconds.
//!
//! GC intervals come from every capability's 9/10 pairs, in whatever order the blocks
//! arrive; they are merged (union) once at the end, so a census may precede its GC
//! events in the file.
//!
//! The `.hp`'s last sample (the program's end) is different in profiling runtimes: its
//! mutator time also counts the census work, which ran inside GCs. The census work of
//! one census is measured as the time from the GC's last GC_DONE (22, the end of the
//! copying) to the census event (or, for `-hb`, from the census time to the GC's end).
//! On the 13 profiled corpus runs this puts the end within 13 ms of the `.hp`, which
//! counts CPU time, not wall-clock time.
/// Collects GC intervals per capability while reading.
#[derive(Default)]
pub(crate) struct GcIntervals {
    /// Open GC per capability (index = cap): its start and last GC_DONE.
    open: Vec<Option<(u64, u64)>>,
    /// (start, end, last GC_DONE) of every GC.
    intervals: Vec<(u64, u64, u64)>,
    seen: bool,
}

impl GcIntervals {
    fn slot(&mut self, cap: u16) -> &mut Option<(u64, u64)> {
        // Caps are small numbers; the global buffer (0xFFFF) and anything absurd share
        // one slot so the table stays small whatever the file says.
        let i = usize::from(cap.min(1024));
        if self.open.len() <= i {
            self.open.resize(i + 1, None);
        }
        &mut self.open[i]
    }

    pub(crate) fn start(&mut self, cap: u16, t: u64) {
        self.seen = true;
        *self.slot(cap) = Some((t, t));
    }

    pub(crate) fn done(&mut self, cap: u16, t: u64) {
        if let Some((s, d)) = self.slot(cap) {
            *d = t.max(*s);
        }
    }

    pub(crate) fn end(&mut self, cap: u16, t: u64) {
        self.seen = true;
        if let Some((s, d)) = self.slot(cap).take() {
            // GC_END is back-dated a little; never let an interval run backwards.
            let e = t.max(s);
            self.intervals.push((s, e, d.min(e)));
        }
    }

    /// Whether the log has any GC event.
    pub(crate) fn any(&self) -> bool {
        self.seen
    }

    /// The merged axis; GCs still open run to `last`.
    pub(crate) fn finish(mut self, last: u64) -> MutatorClock {
        for &(s, d) in self.open.iter().flatten() {
            let e = last.max(s);
            self.intervals.push((s, e, d.min(e)));
        }
        self.intervals.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(self.intervals.len());
        for &(s, e, _) in &self.intervals {
            match merged.last_mut() {
                Some(m) if s <= m.1 => m.1 = m.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let mut before = Vec::with_capacity(merged.len());
        let mut sum = 0u64;
        for &(s, e) in &merged {
            before.push(sum);
            sum = sum.saturating_add(e - s);
        }
        MutatorClock {
            merged,
            before,
            raw: self.intervals,
        }
    }
}

/// Converts elapsed nanoseconds to mutator nanoseconds.
pub(crate) struct MutatorClock {
    /// Disjoint GC intervals, sorted.
    merged: Vec<(u64, u64)>,
    /// GC time before each interval.
    before: Vec<u64>,
    /// Every GC (start, end, last GC_DONE), sorted by start.
    raw: Vec<(u64, u64, u64)>,
}

impl MutatorClock {
    /// Wall-clock GC time before `t` (the interval containing `t` counts up to `t`).
    pub(crate) fn gc_before(&self, t: u64) -> u64 {
        // Intervals starting before t.
        let n = self.merged.partition_point(|&(s, _)| s < t);
        if n == 0 {
            return 0;
        }
        let (s, e) = self.merged[n - 1];
        self.before[n - 1] + (e.min(t) - s)
    }

    /// The census work (ns) of a census at `t`, inside some GC: from the GC's last
    /// GC_DONE to `t`, or for `-hb` (`t` = census start) from `t` to the GC's end.
    pub(crate) fn census_work(&self, t: u64, bio: bool) -> u64 {
        let n = self.raw.partition_point(|&(s, _, _)| s <= t);
        // Nearby GCs only: with N capabilities about N GCs overlap. Each capability's
        // GC ends its copying at its own GC_DONE; the census follows the last one, so
        // the least work among the GCs containing `t` is the census's.
        self.raw[..n]
            .iter()
            .rev()
            .take(64)
            .filter(|&&(_, e, _)| e >= t)
            .map(|&(_, e, d)| if bio { e - t } else { t.saturating_sub(d) })
            .min()
            .unwrap_or(0)
    }

    /// Mutator seconds at elapsed nanoseconds `t`.
    pub(crate) fn mutator_seconds(&self, t: u64) -> f64 {
        (t - self.gc_before(t)) as f64 / 1e9
    }
}

/// Elapsed seconds at nanoseconds `t`.
pub(crate) fn elapsed_seconds(t: u64) -> f64 {
    t as f64 / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_across_caps_and_clipping() {
        let mut g = GcIntervals::default();
        g.start(0, 100);
        g.start(1, 150);
        g.done(0, 180);
        g.end(0, 200);
        g.end(1, 250);
        g.start(0, 400);
        g.end(0, 390); // back-dated end
        g.start(0, 1000); // never ended
        let c = g.finish(1100);
        assert_eq!(c.gc_before(50), 0);
        assert_eq!(c.gc_before(120), 20);
        assert_eq!(c.gc_before(300), 150);
        assert_eq!(c.gc_before(1100), 250);
        assert!((c.mutator_seconds(300) - 150e-9).abs() < 1e-15);
        assert_eq!(c.census_work(190, false), 10);
        assert_eq!(c.census_work(190, true), 10);
        assert_eq!(c.census_work(220, false), 70);
        assert_eq!(c.census_work(300, false), 0);
    }

    #[test]
    fn no_gc() {
        let g = GcIntervals::default();
        assert!(!g.any());
        let c = g.finish(0);
        assert_eq!(c.gc_before(u64::MAX), 0);
        assert_eq!(elapsed_seconds(1_500_000_000), 1.5);
    }
}
