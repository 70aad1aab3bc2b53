//! The mutator clock put together: collections, capabilities and the timer thread.

use super::*;

const MS: u64 = 1_000_000;

fn ms(clock: &MutatorClock, t: u64) -> f64 {
    (clock.mutator_seconds(t) * 1e3 * 1e6).round() / 1e6
}

/// An event the reader passes on to [`TimeData`].
#[derive(Clone, Copy)]
enum Ev {
    Run,
    Stop,
    GcStart,
    GcDone,
    GcEnd,
}
use Ev::*;

/// The time data after `events` (capability, event, time in ns), fed in this order, as
/// the reader would: the order is part of what a test sets up.
fn fed(events: &[(u16, Ev, u64)]) -> TimeData {
    let mut d = TimeData::default();
    for &(cap, ev, t) in events {
        match ev {
            Run => d.run(cap, t),
            Stop => d.stop(cap, t),
            GcStart => d.gc_start(cap, t),
            GcDone => d.gc_done(cap, t),
            GcEnd => d.gc_end(cap, t),
        }
    }
    d
}

#[test]
fn without_scheduler_events_every_moment_outside_collections_counts() {
    // Two capabilities in one collection, 10..20 ms: counted once, not twice.
    let d = fed(&[
        (0, GcStart, 10 * MS),
        (1, GcStart, 11 * MS),
        (0, GcEnd, 20 * MS),
        (1, GcEnd, 22 * MS),
        (0, GcStart, 40 * MS),
        (0, GcEnd, 45 * MS),
    ]);
    assert!(d.any_gc());
    assert_eq!(d.capabilities(), 2);
    let c = d.finish(100 * MS, None);
    assert_eq!(ms(&c, 5 * MS), 5.0);
    // Inside a collection the clock stands still.
    assert_eq!(ms(&c, 15 * MS), 10.0);
    assert_eq!(ms(&c, 21 * MS), 11.0);
    assert_eq!(ms(&c, 100 * MS), 100.0 - 10.0 - 5.0);
}

#[test]
fn busy_capabilities_add_up_and_idle_ones_count_nothing() {
    // Two capabilities run 0..30 ms, both take part in a collection at 30..40 ms, then
    // only capability 0 runs; capability 1 waits (its GC_END comes late, as in GHC 9.0).
    let d = fed(&[
        (0, Run, 0),
        (1, Run, 0),
        (0, Stop, 30 * MS),
        (1, Stop, 30 * MS),
        (1, GcStart, 30 * MS),
        (0, GcStart, 30 * MS),
        (0, GcEnd, 40 * MS),
        (0, Run, 40 * MS),
        (0, Stop, 90 * MS),
        (1, GcEnd, 89 * MS),
    ]);
    let c = d.finish(100 * MS, None);
    assert_eq!(ms(&c, 30 * MS), 60.0);
    assert_eq!(ms(&c, 35 * MS), 60.0);
    assert_eq!(ms(&c, 90 * MS), 110.0);
    // After the last thread stops, nothing more.
    assert_eq!(ms(&c, 100 * MS), 110.0);
}

#[test]
fn a_program_that_waits_counts_only_its_running() {
    let d = fed(&[
        (0, Run, 0),
        (0, Stop, 10 * MS), // blocked on a delay or a child process for 300 ms
        (0, Run, 310 * MS),
        (0, Stop, 320 * MS),
        (0, GcStart, 320 * MS),
        (0, GcEnd, 325 * MS),
    ]);
    let c = d.finish(330 * MS, None);
    assert_eq!(ms(&c, 200 * MS), 10.0);
    assert_eq!(ms(&c, 330 * MS), 20.0);
}

#[test]
fn the_timer_thread_counts_over_elapsed_time() {
    let run = |ticker| {
        fed(&[
            (0, Run, 0),
            (0, Stop, 10 * MS),
            (0, GcStart, 10 * MS),
            (0, GcEnd, 20 * MS),
            (0, Run, 20 * MS),
            (0, Stop, 30 * MS),
        ])
        .finish(30 * MS, ticker)
    };
    let plain = run(None);
    let timed = run(Some(Ticker {
        rate: 0.02,
        stops_when_idle_for: None,
    }));
    assert_eq!(ms(&plain, 30 * MS), 20.0);
    // 2 % of the 30 ms, collection included.
    assert_eq!(ms(&timed, 15 * MS), 10.3);
    assert_eq!(ms(&timed, 30 * MS), 20.6);
}

#[test]
fn a_threaded_runtime_stops_its_timer_when_idle() {
    let d = fed(&[
        (0, Run, 0),
        (0, Stop, 100 * MS),
        // Idle for 2 s; the idle GC at 400 ms does not restart the timer.
        (0, GcStart, 400 * MS),
        (0, GcEnd, 401 * MS),
        (0, Run, 2100 * MS),
        (0, Stop, 2200 * MS),
    ]);
    let ticker = Ticker {
        rate: 0.01,
        stops_when_idle_for: Some(300 * MS),
    };
    let c = d.finish(3000 * MS, Some(ticker));
    // Running 0..400 ms: 100 ms busy + 4 ms of timer.
    assert_eq!(ms(&c, 1000 * MS), 104.0);
    // Running again from 2100 to 2200 + 300 ms.
    assert_eq!(ms(&c, 3000 * MS), 200.0 + 4.0 + 4.0);
}

#[test]
fn census_work_comes_from_the_collections() {
    let d = fed(&[(0, GcStart, 100), (0, GcDone, 150), (0, GcEnd, 200)]);
    let c = d.finish(300, None);
    assert_eq!(c.census_work(180, false), 30);
    assert_eq!(c.census_work(180, true), 20);
    assert_eq!(elapsed_seconds(1_500_000_000), 1.5);
}
