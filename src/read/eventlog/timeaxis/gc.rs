//! Garbage collections: each capability's GC_START (9) … GC_END (10), grouped into the
//! collections of the whole program.
//!
//! In a parallel collection every capability posts its own 9 and 10, and they do not agree:
//! the capability that leads the collection ends it (its 10 is the first), and the others
//! post their 10 later, GHC 9.0 even only when the next collection begins (a worker waits
//! for the leader's release until then). So a collection ("episode") runs from its first
//! GC_START to its first GC_END: a union of the capabilities' intervals would make one
//! collection last until the next and leave no time to the program.

/// Collects GC intervals per capability while reading.
#[derive(Clone, Default)]
pub(crate) struct GcIntervals {
    /// Open GC per capability (index = cap): its start and last GC_DONE.
    open: Vec<Option<(u64, u64)>>,
    /// (start, end, last GC_DONE) of every capability's GC.
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

    /// Every capability's GC, sorted by start; GCs still open run to `last`.
    pub(crate) fn finish(mut self, last: u64) -> Collections {
        for &(s, d) in self.open.iter().flatten() {
            let e = last.max(s);
            self.intervals.push((s, e, d.min(e)));
        }
        self.intervals.sort_unstable();
        Collections {
            episodes: episodes(&self.intervals),
            raw: self.intervals,
        }
    }
}

/// The collections of a log.
pub(crate) struct Collections {
    /// Each collection of the program: (first GC_START, first GC_END), sorted, disjoint.
    pub(crate) episodes: Vec<(u64, u64)>,
    /// Every capability's GC (start, end, last GC_DONE), sorted by start.
    pub(crate) raw: Vec<(u64, u64, u64)>,
}

/// Groups capability GCs sorted by start into collections: one starts at the first
/// GC_START not yet grouped, takes in every GC that starts before its end, and ends at the
/// first GC_END among them.
fn episodes(raw: &[(u64, u64, u64)]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    let mut i = 0;
    while let Some(&(start, mut end, _)) = raw.get(i) {
        i += 1;
        // The end only moves earlier, so the first GC starting after it starts the next
        // collection.
        while let Some(&(_, e, _)) = raw.get(i).filter(|g| g.0 <= end) {
            end = end.min(e);
            i += 1;
        }
        out.push((start, end));
    }
    out
}

impl Collections {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_ends_at_its_first_gc_end() {
        let mut g = GcIntervals::default();
        // GHC 9.10, two capabilities: the worker (1) starts first, the leader (0) ends
        // first.
        g.start(1, 100);
        g.start(0, 110);
        g.done(0, 180);
        g.end(0, 200);
        g.end(1, 230);
        // GHC 9.0: the worker's GC_END comes when the next collection begins.
        g.start(0, 300);
        g.start(1, 301);
        g.end(1, 400);
        g.end(0, 499);
        g.start(0, 500);
        g.start(1, 502);
        g.end(1, 600);
        g.end(0, 699);
        // A single capability, and a GC_END back-dated before its start.
        g.start(1, 700);
        g.end(1, 690);
        // Never ended: runs to the end of the log.
        g.start(0, 1000);
        let c = g.finish(1100);
        assert_eq!(
            c.episodes,
            vec![(100, 200), (300, 400), (500, 600), (700, 700), (1000, 1100)]
        );
        assert_eq!(c.raw.len(), 8);
        assert_eq!(c.raw[4], (500, 699, 500));
    }

    #[test]
    fn census_work_is_from_the_last_copying_to_the_census() {
        let mut g = GcIntervals::default();
        g.start(0, 100);
        g.start(1, 150);
        g.done(0, 180);
        g.end(0, 200);
        g.end(1, 250);
        let c = g.finish(300);
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
        assert!(c.episodes.is_empty());
        assert_eq!(c.census_work(5, false), 0);
    }
}
