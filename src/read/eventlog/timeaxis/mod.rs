//! The x axis: the `.hp`'s mutator seconds rebuilt from the eventlog, or plain elapsed
//! seconds.
//!
//! The `.hp` stamps a census with the process's CPU time at the start of the census's
//! collection, minus the CPU time of the collections before it (their GC threads'); its
//! last sample also counts the census work. The eventlog holds wall-clock timestamps,
//! so the reader adds up what took CPU time outside collections:
//!
//! * each capability's busy time ([`busy`]): while it runs a Haskell thread, and the
//!   scheduler's short pauses between threads. A capability with nothing to run sleeps
//!   and counts nothing, so a program that waits (a delay, a child process, an MVar) or
//!   runs on several capabilities gets its CPU time, not its elapsed time;
//! * never during a collection ([`gc`]: from its first GC_START to its first GC_END,
//!   however many capabilities take part), so no GC time is counted, once or twice;
//! * the runtime's timer thread ([`runtime`]), estimated from the runtime and its options.
//!
//! Logs without scheduler events count every moment outside collections instead (one
//! capability, always busy). The end of a profiling run adds the census work (from each
//! census's collection's last GC_DONE to the census), as the `.hp` does.
//!
//! Intervals come from every capability's events in whatever order the blocks arrive;
//! they are put together once at the end, so a census may precede its GC events in the
//! file.

mod busy;
mod gc;
mod runtime;
mod total;

pub(crate) use runtime::{gc_threads_spin, ticker, Ticker};

use busy::CapBusy;
use gc::{Collections, GcIntervals};
use total::Total;

/// Collects what the time axis needs while reading: GC and scheduler events.
#[derive(Clone, Default)]
pub(crate) struct TimeData {
    gc: GcIntervals,
    busy: CapBusy,
    /// Which capabilities (up to 1024) have GC or scheduler events.
    caps: Vec<bool>,
}

impl TimeData {
    /// GC_START (9) on capability `cap` at `t`.
    pub(crate) fn gc_start(&mut self, cap: u16, t: u64) {
        self.note(cap);
        self.gc.start(cap, t);
        self.busy.gc_start(cap, t);
    }

    /// GC_DONE (22).
    pub(crate) fn gc_done(&mut self, cap: u16, t: u64) {
        self.gc.done(cap, t);
    }

    /// GC_END (10).
    pub(crate) fn gc_end(&mut self, cap: u16, t: u64) {
        self.gc.end(cap, t);
        self.busy.gc_end(cap, t);
    }

    /// RUN_THREAD (1).
    pub(crate) fn run(&mut self, cap: u16, t: u64) {
        self.note(cap);
        self.busy.run(cap, t);
    }

    /// STOP_THREAD (2).
    pub(crate) fn stop(&mut self, cap: u16, t: u64) {
        self.busy.stop(cap, t);
    }

    fn note(&mut self, cap: u16) {
        // The global buffer (0xFFFF) and events outside blocks (0xFFFE) are no
        // capability; anything else beyond the table is damage.
        if cap < 1024 {
            let i = usize::from(cap);
            if self.caps.len() <= i {
                self.caps.resize(i + 1, false);
            }
            self.caps[i] = true;
        }
    }

    /// Whether the log has any GC event.
    pub(crate) fn any_gc(&self) -> bool {
        self.gc.any()
    }

    /// How many capabilities ran threads or took part in collections.
    pub(crate) fn capabilities(&self) -> usize {
        self.caps.iter().filter(|&&c| c).count()
    }

    /// The mutator clock of a log whose latest timestamp is `last`, with the run's timer
    /// thread (if it has one).
    pub(crate) fn finish(self, last: u64, ticker: Option<Ticker>) -> MutatorClock {
        let collections = self.gc.finish(last);
        let episodes = &collections.episodes;
        let busy = if self.busy.any() {
            outside(self.busy.finish(last), episodes)
        } else {
            between(episodes, last)
        };
        let (active, rate) = match ticker {
            Some(t) => (timer_running(&busy, episodes, last, t), t.rate),
            None => (Vec::new(), 0.0),
        };
        MutatorClock {
            total: Total::new(&busy, &active, rate),
            collections,
        }
    }
}

/// The parts of `stretches` outside the collections (sorted, disjoint).
fn outside(mut stretches: Vec<(u64, u64)>, episodes: &[(u64, u64)]) -> Vec<(u64, u64)> {
    stretches.sort_unstable();
    let mut out = Vec::with_capacity(stretches.len());
    for (mut s, e) in stretches {
        let first = episodes.partition_point(|&(_, ge)| ge <= s);
        for &(gs, ge) in episodes[first..].iter().take_while(|g| g.0 < e) {
            if gs > s {
                out.push((s, gs));
            }
            s = s.max(ge);
        }
        if e > s {
            out.push((s, e));
        }
    }
    out
}

/// Every moment from 0 to `last` outside the collections.
fn between(episodes: &[(u64, u64)], last: u64) -> Vec<(u64, u64)> {
    outside(vec![(0, last)], episodes)
}

/// A collection that starts this long (ns) after every capability stopped was not
/// asked for by a running thread: it is the idle GC.
const IDLE_GC_GAP: u64 = 1_000_000;

/// When the timer thread runs: always, except in a threaded runtime once no capability
/// has been busy for its idle delay, until one is again. The idle GC (which the runtime
/// runs just before it stops the timer) does not keep it going; other collections do.
fn timer_running(
    busy: &[(u64, u64)],
    episodes: &[(u64, u64)],
    last: u64,
    ticker: Ticker,
) -> Vec<(u64, u64)> {
    let Some(delay) = ticker.stops_when_idle_for else {
        return vec![(0, last)];
    };
    let mut activity: Vec<(u64, u64, bool)> = busy.iter().map(|&(s, e)| (s, e, false)).collect();
    activity.extend(episodes.iter().map(|&(s, e)| (s, e, true)));
    activity.sort_unstable();
    let mut out = Vec::new();
    let (mut from, mut reach) = (0u64, 0u64);
    for (s, e, is_gc) in activity {
        if is_gc && s > reach.saturating_add(IDLE_GC_GAP) {
            continue;
        }
        let stopped_at = reach.saturating_add(delay);
        if s > stopped_at {
            out.push((from, stopped_at));
            from = s;
        }
        reach = reach.max(e);
    }
    out.push((from, last.min(reach.saturating_add(delay)).max(from)));
    out
}

/// Converts elapsed nanoseconds to mutator nanoseconds.
pub(crate) struct MutatorClock {
    total: Total,
    collections: Collections,
}

impl MutatorClock {
    /// Mutator seconds at elapsed nanoseconds `t`.
    pub(crate) fn mutator_seconds(&self, t: u64) -> f64 {
        self.total.at(t) / 1e9
    }

    /// The census work (ns) of a census at `t`, inside some GC: from the GC's last
    /// GC_DONE to `t`, or for `-hb` (`t` = census start) from `t` to the GC's end.
    pub(crate) fn census_work(&self, t: u64, bio: bool) -> u64 {
        self.collections.census_work(t, bio)
    }
}

/// Elapsed seconds at nanoseconds `t`.
pub(crate) fn elapsed_seconds(t: u64) -> f64 {
    t as f64 / 1e9
}

/// The one clock of a reading: what places its censuses, marks and lines on the x axis,
/// in elapsed seconds or in the `.hp`'s mutator seconds. A whole reading makes it at its
/// end; a log followed as it is written, now and then from the run so far.
pub(crate) enum Clock {
    /// Elapsed seconds.
    Elapsed,
    /// Mutator seconds.
    Mutator(MutatorClock),
}

impl Clock {
    /// The clock of a run whose GC and scheduler events `time` (the last of any event at
    /// `last`) were read, with the runtime `rts` and the RTS options `rts_args`: mutator
    /// seconds when asked (`mutator`) and the log has GC events, else elapsed ones.
    pub(crate) fn of(
        mutator: bool,
        time: TimeData,
        last: u64,
        rts: &[u8],
        rts_args: &[&[u8]],
    ) -> Clock {
        match mutator && time.any_gc() {
            true => Clock::Mutator(time.finish(last, ticker(rts, rts_args))),
            false => Clock::Elapsed,
        }
    }

    /// Seconds on the axis at elapsed nanoseconds `t`.
    pub(crate) fn seconds(&self, t: u64) -> f64 {
        match self {
            Clock::Mutator(c) => c.mutator_seconds(t),
            Clock::Elapsed => elapsed_seconds(t),
        }
    }

    /// Seconds on the axis at elapsed `seconds` (a time a follower was told).
    pub(crate) fn at_elapsed(&self, seconds: f64) -> f64 {
        match self {
            Clock::Mutator(c) => c.mutator_seconds((seconds * 1e9).round() as u64),
            Clock::Elapsed => seconds,
        }
    }

    /// The mutator clock, when it is one.
    pub(crate) fn mutator(&self) -> Option<&MutatorClock> {
        match self {
            Clock::Mutator(c) => Some(c),
            Clock::Elapsed => None,
        }
    }
}

#[cfg(test)]
mod tests;
