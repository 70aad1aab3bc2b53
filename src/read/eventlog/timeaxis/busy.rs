//! When each capability was busy, from the scheduler events RUN_THREAD (1) and
//! STOP_THREAD (2) and the capability's own GC_START/GC_END.
//!
//! The `.hp` counts the CPU time of the program's threads outside collections. A
//! capability uses CPU while it runs a Haskell thread, and between threads while its
//! scheduler picks the next one: a few microseconds. A longer pause means the capability
//! had nothing to run and its OS thread slept (a thread blocked on an MVar or a delay, a
//! foreign call waiting for a child process, an idle capability). So a pause up to
//! [`ALL_BUSY`] counts whole, one from [`NONE_BUSY`] on not at all, and in between a
//! falling share of it: on the real logs of `tests/data`, the scheduler's pauses between
//! threads are 0.1–3 µs, a capability that sleeps and is woken at once pauses 10–30 µs,
//! and a real sleep much longer.

/// Pauses up to this many nanoseconds are the scheduler's own work.
const ALL_BUSY: u64 = 10_000;

/// Pauses from this many nanoseconds on are a capability asleep.
const NONE_BUSY: u64 = 30_000;

/// The nanoseconds of a pause of `len` ns that count as busy.
pub(crate) fn busy_share(len: u64) -> u64 {
    if len <= ALL_BUSY {
        len
    } else if len >= NONE_BUSY {
        0
    } else {
        len * (NONE_BUSY - len) / (NONE_BUSY - ALL_BUSY)
    }
}

/// One capability's state.
#[derive(Clone, Copy, Default)]
struct Cap {
    /// A thread is running.
    running: bool,
    /// The start of the busy stretch that is still open.
    stretch: Option<u64>,
    /// When the capability stopped running (STOP_THREAD or GC_END), if it has not run
    /// since.
    pause: Option<u64>,
}

/// Collects each capability's busy stretches while reading.
#[derive(Clone, Default)]
pub(crate) struct CapBusy {
    caps: Vec<Cap>,
    /// Closed busy stretches (start, end) of every capability; they overlap across
    /// capabilities.
    stretches: Vec<(u64, u64)>,
    seen: bool,
}

impl CapBusy {
    fn slot(&mut self, cap: u16) -> &mut Cap {
        // As for GC intervals: a small table whatever the file says.
        let i = usize::from(cap.min(1024));
        if self.caps.len() <= i {
            self.caps.resize(i + 1, Cap::default());
        }
        &mut self.caps[i]
    }

    /// RUN_THREAD at `t`. (Inlined, as [`Self::stop`]: called for every thread switch,
    /// millions in a program that switches often.)
    #[inline]
    pub(crate) fn run(&mut self, cap: u16, t: u64) {
        self.seen = true;
        let c = self.slot(cap);
        if c.running {
            return;
        }
        let mut closed = None;
        match c.pause {
            Some(p) => {
                let gap = t.saturating_sub(p);
                let share = busy_share(gap);
                if share == gap {
                    // The scheduler's work: the stretch goes on (or begins at a GC's end).
                    c.stretch = c.stretch.or(Some(p));
                } else {
                    closed = Some((c.stretch.unwrap_or(p), p + share));
                    c.stretch = Some(t);
                }
            }
            None => c.stretch = c.stretch.or(Some(t)),
        }
        c.running = true;
        c.pause = None;
        if let Some((start, end)) = closed {
            self.close(start, end);
        }
    }

    /// STOP_THREAD at `t`.
    #[inline]
    pub(crate) fn stop(&mut self, cap: u16, t: u64) {
        self.seen = true;
        let c = self.slot(cap);
        if c.running {
            c.running = false;
            c.pause = Some(t);
        }
    }

    /// This capability's GC_START at `t`: the stretch ends there (the pause before it,
    /// the sync with the other capabilities, counts as any pause does).
    pub(crate) fn gc_start(&mut self, cap: u16, t: u64) {
        let c = std::mem::take(self.slot(cap));
        let end = match (c.running, c.pause) {
            (true, _) | (false, None) => t,
            (false, Some(p)) => p + busy_share(t.saturating_sub(p)),
        };
        if let Some(s) = c.stretch {
            self.close(s, end);
        } else if let Some(p) = c.pause {
            self.close(p, end);
        }
    }

    /// This capability's GC_END at `t`: a pause begins (the scheduler resumes).
    pub(crate) fn gc_end(&mut self, cap: u16, t: u64) {
        let c = *self.slot(cap);
        if c.running {
            return;
        }
        if let (Some(s), Some(p)) = (c.stretch, c.pause) {
            self.close(s, p);
        }
        *self.slot(cap) = Cap {
            running: false,
            stretch: None,
            pause: Some(t),
        };
    }

    fn close(&mut self, start: u64, end: u64) {
        if end > start {
            self.stretches.push((start, end));
        }
    }

    /// Whether the log has scheduler events.
    pub(crate) fn any(&self) -> bool {
        self.seen
    }

    /// Every busy stretch; a thread still running runs to `last`, a final pause counts
    /// nothing.
    pub(crate) fn finish(mut self, last: u64) -> Vec<(u64, u64)> {
        for c in std::mem::take(&mut self.caps) {
            match (c.running, c.stretch, c.pause) {
                (true, Some(s), _) => self.close(s, last.max(s)),
                (false, Some(s), Some(p)) => self.close(s, p),
                _ => {}
            }
        }
        self.stretches
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(v: &[(u64, u64)]) -> u64 {
        v.iter().map(|(s, e)| e - s).sum()
    }

    #[test]
    fn short_pauses_count_long_ones_do_not() {
        let mut b = CapBusy::default();
        b.run(0, 1_000);
        b.stop(0, 2_000);
        b.run(0, 3_000); // 1 µs: the scheduler
        b.stop(0, 4_000);
        b.run(0, 104_000); // 100 µs: asleep
        b.stop(0, 105_000);
        b.run(0, 125_000); // 20 µs: half of the ramp's share
        b.stop(0, 126_000);
        let s = b.finish(200_000);
        assert_eq!(
            s,
            vec![(1_000, 4_000), (104_000, 115_000), (125_000, 126_000)]
        );
        assert_eq!(busy_share(20_000), 10_000);
        assert_eq!(busy_share(10_000), 10_000);
        assert_eq!(busy_share(30_000), 0);
        assert_eq!(busy_share(5), 5);
    }

    #[test]
    fn collections_cut_stretches() {
        let mut b = CapBusy::default();
        b.run(0, 0);
        b.stop(0, 100);
        b.gc_start(0, 105); // 5 ns of sync
        b.gc_end(0, 1_000);
        b.run(0, 1_002); // resumes: the 2 ns from the GC's end count
        b.stop(0, 1_100);
        b.gc_start(0, 1_200);
        b.gc_end(0, 5_000);
        b.run(0, 50_000); // long after the GC: nothing of the pause counts
        let s = b.finish(60_000);
        assert_eq!(s, vec![(0, 105), (1_000, 1_200), (50_000, 60_000)]);
        assert_eq!(total(&s), 105 + 200 + 10_000);
    }

    #[test]
    fn capabilities_add_up() {
        let mut b = CapBusy::default();
        b.run(0, 0);
        b.run(1, 0);
        b.stop(0, 1_000);
        b.stop(1, 1_000);
        // An idle capability's GC (it never ran) adds nothing.
        b.gc_start(2, 500);
        b.gc_end(2, 800);
        let s = b.finish(2_000);
        assert_eq!(total(&s), 2_000);
    }

    #[test]
    fn odd_sequences() {
        let mut b = CapBusy::default();
        assert!(!b.any());
        b.stop(3, 10); // STOP without RUN
        b.run(3, 20);
        b.run(3, 30); // RUN without STOP
        b.stop(3, 40);
        b.stop(3, 50);
        b.run(3, 35); // time going back: no pause at all
        b.stop(3, 60);
        assert!(b.any());
        let s = b.finish(100);
        assert_eq!(s, vec![(20, 60)]);
        // Capabilities beyond the table share the last slot.
        let mut b = CapBusy::default();
        b.run(u16::MAX, 0);
        b.stop(2000, 10);
        assert_eq!(b.finish(10), vec![(0, 10)]);
    }
}
