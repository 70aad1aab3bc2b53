//! What the runtime (event 29, `GHC-9.10.3 rts_thr_p`) and its options tell about CPU
//! time that the eventlog does not show.
//!
//! The runtime's timer: a thread of its own ("ghc_ticker") that wakes every tick, in the
//! threaded runtime of every GHC and (as far as measured: 9.10.3) in every runtime of
//! GHC 9.2 on; GHC 9.0's non-threaded runtime ticks by a signal on the program's own
//! thread instead. The eventlog does not show it, but the `.hp` does: its x axis is the
//! process's CPU time minus the collections' (GC threads') CPU time, so the timer
//! thread's CPU time, in and out of collections, counts as the program's.
//!
//! What a tick costs is the machine's, not the log's. The gap between the `.hp`'s time
//! and the capabilities' busy time grew by 18–25 µs per tick at 1 ms ticks and by
//! 31–46 µs at 10 ms ticks on the quiet runs of `tests/data/ghc-9.10`, by 8–48 µs on runs
//! made beside other builds (`docs/eventlog.md`); the reader takes [`COST_FAST`] and
//! [`COST_SLOW`].

use crate::read::eventlog::names::rts_has_way;

/// CPU nanoseconds per tick at 1 ms ticks (profiling runtimes' default) and shorter.
const COST_FAST: f64 = 20_000.0;

/// CPU nanoseconds per tick at 10 ms ticks (other runtimes' default) and longer.
const COST_SLOW: f64 = 30_000.0;

/// The threaded runtime's idle GC delay (`-I`), after which an idle program's timer stops.
const DEFAULT_IDLE_GC: f64 = 0.3;

/// The timer thread of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ticker {
    /// CPU nanoseconds it spends per elapsed nanosecond.
    pub(crate) rate: f64,
    /// Threaded runtime: once no capability has run for this many nanoseconds, the
    /// runtime stops the timer until a thread runs again. `None`: it never stops.
    pub(crate) stops_when_idle_for: Option<u64>,
}

/// The shortest tick the estimate believes in (seconds).
const MIN_TICK: f64 = 1e-6;

/// The timer thread of the runtime `rts_id` (`GHC-9.10.3 rts_thr_p`) run with the RTS
/// options `rts_opts`; `None` when the timer is not a thread of its own, or is off
/// (`-V0`), or the runtime is unknown.
pub(crate) fn ticker(rts_id: &[u8], rts_opts: &[&[u8]]) -> Option<Ticker> {
    let version = ghc_version(rts_id)?;
    let threaded = rts_has_way(rts_id, b"thr");
    if version < (9, 2) && !threaded {
        return None;
    }
    let profiled = rts_has_way(rts_id, b"p");
    let mut tick = if profiled { 0.001 } else { 0.01 };
    let mut idle_gc = threaded.then_some(DEFAULT_IDLE_GC);
    // The runtime ticks at the shortest of the intervals it must watch (its
    // normaliseRtsOpts): -V, and -C, -I, -i when set shorter.
    let mut shorter = Vec::new();
    for opt in rts_opts {
        let (flag, value) = match opt {
            [b'-', flag, rest @ ..] => (*flag, seconds(rest)),
            _ => continue,
        };
        match (flag, value) {
            (b'V', Some(v)) => tick = v,
            (b'I', Some(v)) if threaded => {
                idle_gc = Some(v);
                shorter.push(v);
            }
            (b'C' | b'i', Some(v)) => shorter.push(v),
            _ => {}
        }
    }
    if tick <= 0.0 {
        return None;
    }
    for v in shorter {
        if v > 0.0 {
            tick = f64::min(tick, v);
        }
    }
    // No timer ticks faster than the clock's microseconds; an option of 1e-300 s would
    // otherwise make the timer's cost per nanosecond huge and the times infinite.
    tick = tick.max(MIN_TICK);
    let cost = if tick <= 0.001 {
        COST_FAST
    } else if tick >= 0.01 {
        COST_SLOW
    } else {
        COST_FAST + (COST_SLOW - COST_FAST) * (tick - 0.001) / 0.009
    };
    Some(Ticker {
        rate: cost / (tick * 1e9),
        stops_when_idle_for: idle_gc.map(|s| (s.max(0.0) * 1e9) as u64),
    })
}

/// Whether the runtime's idle GC threads wait busily (spin) for the next collection and
/// for the leader's release: the threaded runtime of GHC before 9.2, which counts that
/// CPU time as the program's, while a log shows only that they wait. (GHC 9.2 made them
/// sleep; 9.10.3's `.hp` times show none of it, 9.0.2's up to a whole core.)
pub(crate) fn gc_threads_spin(rts_id: &[u8]) -> bool {
    ghc_version(rts_id).is_some_and(|v| v < (9, 2)) && rts_has_way(rts_id, b"thr")
}

/// `GHC-9.10.3 rts_thr` → (9, 10).
fn ghc_version(rts_id: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(rts_id.strip_prefix(b"GHC-")?).ok()?;
    let mut parts = text.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// A number of seconds as the RTS options give it (`0.02`); `None` for anything else.
fn seconds(text: &[u8]) -> Option<f64> {
    let v: f64 = std::str::from_utf8(text).ok()?.parse().ok()?;
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(s: &str) -> Vec<&[u8]> {
        s.split_whitespace().map(str::as_bytes).collect()
    }

    #[test]
    fn which_runtimes_have_a_timer_thread() {
        // GHC 9.0's non-threaded runtimes tick by signal.
        assert_eq!(ticker(b"GHC-9.0.2 rts_p", &[]), None);
        assert_eq!(ticker(b"GHC-9.0.2 rts_l", &[]), None);
        assert_eq!(ticker(b"GHC-8.10.7 rts_v", &[]), None);
        let t = ticker(b"GHC-9.0.2 rts_thr_l", &[]).unwrap();
        assert_eq!(t.rate, 30_000.0 / 1e7);
        assert_eq!(t.stops_when_idle_for, Some(300_000_000));
        // GHC 9.10: every runtime; profiling ones tick every millisecond.
        let t = ticker(b"GHC-9.10.3 rts_p", &[]).unwrap();
        assert_eq!(t.rate, 0.02);
        assert_eq!(t.stops_when_idle_for, None);
        assert_eq!(ticker(b"GHC-9.10.3 rts_v", &[]).unwrap().rate, 0.003);
        assert_eq!(ticker(b"GHC-10.1.0 rts_thr_p", &[]).unwrap().rate, 0.02);
        // Unknown runtimes: no estimate.
        assert_eq!(ticker(b"", &[]), None);
        assert_eq!(ticker(b"MyRuntime rts_thr", &[]), None);
    }

    #[test]
    fn the_tick_follows_the_options() {
        let rate = |id: &[u8], o: &str| ticker(id, &opts(o)).map(|t| t.rate);
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-V0"), None);
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-V0.001"), Some(0.02));
        assert_eq!(rate(b"GHC-9.10.3 rts_p", "-V0.01"), Some(0.003));
        // -i shorter than the tick shortens it; longer changes nothing.
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-hT -i0.001"), Some(0.02));
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-hT -i0.02"), Some(0.003));
        // Between 1 and 10 ms the cost per tick is interpolated.
        let r = rate(b"GHC-9.10.3 rts_v", "-C0.0055").unwrap();
        assert!((r - 25_000.0 / 5.5e6).abs() < 1e-12, "{r}");
        // -I: the threaded runtime's idle GC delay, after which the timer stops.
        let t = ticker(b"GHC-9.10.3 rts_thr", &opts("-I2")).unwrap();
        assert_eq!(t.stops_when_idle_for, Some(2_000_000_000));
        let t = ticker(b"GHC-9.10.3 rts_thr", &opts("-I0")).unwrap();
        assert_eq!(t.stops_when_idle_for, Some(0));
        assert_eq!(t.rate, 0.003);
        // An absurdly short interval counts as the shortest a timer ticks at.
        let floor = rate(b"GHC-9.10.3 rts_v", "-V1e-6");
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-V1e-300"), floor);
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-i1e-300"), floor);
        assert!(floor.is_some_and(f64::is_finite));
        // Malformed values are ignored.
        assert_eq!(rate(b"GHC-9.10.3 rts_v", "-Vx -i -I0.001"), Some(0.003));
    }

    #[test]
    fn spinning_gc_threads() {
        assert!(gc_threads_spin(b"GHC-9.0.2 rts_thr_l"));
        assert!(gc_threads_spin(b"GHC-8.10.7 rts_thr"));
        assert!(!gc_threads_spin(b"GHC-9.0.2 rts_l"));
        assert!(!gc_threads_spin(b"GHC-9.10.3 rts_thr"));
        assert!(!gc_threads_spin(b"rts_thr"));
    }

    #[test]
    fn versions() {
        assert_eq!(ghc_version(b"GHC-9.10.3 rts_thr"), Some((9, 10)));
        assert_eq!(ghc_version(b"GHC-8.2.2 rts_p"), Some((8, 2)));
        assert_eq!(ghc_version(b"GHC-9 rts"), None);
        assert_eq!(ghc_version(b"ghc-9.2.1 rts"), None);
    }
}
