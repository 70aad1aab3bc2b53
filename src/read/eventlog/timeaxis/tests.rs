//! The mutator clock put together: collections, capabilities and the timer thread.

use super::*;

const MS: u64 = 1_000_000;

fn ms(clock: &MutatorClock, t: u64) -> f64 {
    (clock.mutator_seconds(t) * 1e3 * 1e6).round() / 1e6
}

#[test]
fn without_scheduler_events_every_moment_outside_collections_counts() {
    let mut d = TimeData::default();
    // Two capabilities in one collection, 10..20 ms: counted once, not twice.
    d.gc_start(0, 10 * MS);
    d.gc_start(1, 11 * MS);
    d.gc_end(0, 20 * MS);
    d.gc_end(1, 22 * MS);
    d.gc_start(0, 40 * MS);
    d.gc_end(0, 45 * MS);
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
    let mut d = TimeData::default();
    // Two capabilities run 0..30 ms, both take part in a collection at 30..40 ms, then
    // only capability 0 runs; capability 1 waits (its GC_END comes late, as in GHC 9.0).
    d.run(0, 0);
    d.run(1, 0);
    d.stop(0, 30 * MS);
    d.stop(1, 30 * MS);
    d.gc_start(1, 30 * MS);
    d.gc_start(0, 30 * MS);
    d.gc_end(0, 40 * MS);
    d.run(0, 40 * MS);
    d.stop(0, 90 * MS);
    d.gc_end(1, 89 * MS);
    let c = d.finish(100 * MS, None);
    assert_eq!(ms(&c, 30 * MS), 60.0);
    assert_eq!(ms(&c, 35 * MS), 60.0);
    assert_eq!(ms(&c, 90 * MS), 110.0);
    // After the last thread stops, nothing more.
    assert_eq!(ms(&c, 100 * MS), 110.0);
}

#[test]
fn a_program_that_waits_counts_only_its_running() {
    let mut d = TimeData::default();
    d.run(0, 0);
    d.stop(0, 10 * MS); // blocked on a delay or a child process for 300 ms
    d.run(0, 310 * MS);
    d.stop(0, 320 * MS);
    d.gc_start(0, 320 * MS);
    d.gc_end(0, 325 * MS);
    let c = d.finish(330 * MS, None);
    assert_eq!(ms(&c, 200 * MS), 10.0);
    assert_eq!(ms(&c, 330 * MS), 20.0);
}

#[test]
fn the_timer_thread_counts_over_elapsed_time() {
    let run = |ticker| {
        let mut d = TimeData::default();
        d.run(0, 0);
        d.stop(0, 10 * MS);
        d.gc_start(0, 10 * MS);
        d.gc_end(0, 20 * MS);
        d.run(0, 20 * MS);
        d.stop(0, 30 * MS);
        d.finish(30 * MS, ticker)
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
    let mut d = TimeData::default();
    d.run(0, 0);
    d.stop(0, 100 * MS);
    // Idle for 2 s; the idle GC at 400 ms does not restart the timer.
    d.gc_start(0, 400 * MS);
    d.gc_end(0, 401 * MS);
    d.run(0, 2100 * MS);
    d.stop(0, 2200 * MS);
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
    let mut d = TimeData::default();
    d.gc_start(0, 100);
    d.gc_done(0, 150);
    d.gc_end(0, 200);
    let c = d.finish(300, None);
    assert_eq!(c.census_work(180, false), 30);
    assert_eq!(c.census_work(180, true), 20);
    assert_eq!(elapsed_seconds(1_500_000_000), 1.5);
}
