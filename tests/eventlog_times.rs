//! The eventlog's time axis against the `.hp` of the same run, on every real pair in
//! `tests/data`: GHC 9.0.2 and 9.10.3, one, two and four capabilities, profiled or not,
//! programs that sleep or wait for a child process. The `.hp` counts CPU time, the
//! eventlog wall-clock time, so the reader rebuilds the `.hp`'s axis (see
//! `docs/eventlog.md`, "Time"): every census within 5 ms of the `.hp` and the end within
//! 15 ms, or both within 2 % of the `.hp`'s span, except the runs listed in
//! [`ESTIMATES`]. Prints the residual of every pair.

mod support;

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use hp2ps::internals::eventlog::read_eventlog;
use hp2ps::internals::hp::read_into;
use hp2ps::{EventlogError, EventlogOptions, EventlogReport, EventlogWarning, ReadOptions};
use support::eventlog::recorder::{names_in, Recorder};

/// The folders of real pairs.
const DIRS: [&str; 4] = [
    "eventlog",
    "ghc-9.10",
    "timeaxis/ghc-9.0.2",
    "timeaxis/ghc-9.10.3",
];

/// Pairs whose `.hp` times the eventlog cannot give, with the range their residuals keep
/// (as shares of the span: every census and the end; positive when the eventlog is
/// behind) and why.
const ESTIMATES: [(&str, f64, f64, &str); 3] = [
    (
        "timeaxis/ghc-9.0.2/par-hT-N2",
        -0.01,
        0.06,
        "GHC 9.0's idle GC threads spin: CPU time of the .hp that no event shows",
    ),
    (
        "timeaxis/ghc-9.0.2/sleeper-hT-N2",
        -0.01,
        0.28,
        "GHC 9.0's idle GC threads spin: CPU time of the .hp that no event shows",
    ),
    (
        "timeaxis/ghc-9.10.3/par-hT-N4",
        -0.03,
        0.01,
        "4 capabilities on 2 cores: threads waiting for a core look busy in the log",
    ),
];

/// How far the eventlog's times are from the `.hp`'s in one pair (seconds; positive when
/// the eventlog is behind).
struct Residual {
    /// Folder and name.
    pair: String,
    rts: String,
    censuses: usize,
    /// The census furthest from the `.hp`'s time.
    worst_census: f64,
    /// The least and greatest residual, censuses and end.
    range: (f64, f64),
    /// The program's end.
    end: f64,
    /// The `.hp`'s last time.
    span: f64,
}

impl Residual {
    fn share(&self) -> f64 {
        self.worst_census.abs().max(self.end.abs()) / self.span
    }

    fn on_target(&self) -> bool {
        (self.worst_census.abs() <= 0.005 && self.end.abs() <= 0.015) || self.share() <= 0.02
    }
}

fn data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
}

/// Every pair: (folder, name without extension), sorted.
fn pairs() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for dir in DIRS {
        out.extend(names_in(&data(dir)).into_iter().map(|n| (dir, n)));
    }
    out
}

fn read_pair(dir: &str, name: &str) -> Result<(Recorder, EventlogReport, Recorder), EventlogError> {
    let mut ev = Recorder::default();
    let f = File::open(data(dir).join(format!("{name}.eventlog"))).unwrap();
    let report = read_eventlog(BufReader::new(f), &EventlogOptions::default(), &mut ev)?;
    let mut hp = Recorder::default();
    let f = File::open(data(dir).join(format!("{name}.hp"))).unwrap();
    read_into(BufReader::new(f), &ReadOptions::default(), &mut hp).unwrap();
    Ok((ev, report, hp))
}

fn residual(
    dir: &str,
    name: &str,
    ev: &Recorder,
    report: &EventlogReport,
    hp: &Recorder,
) -> Residual {
    let pair = format!("{dir}/{name}");
    assert_eq!(ev.samples.len(), hp.samples.len(), "{pair}: sample count");
    let n = hp.samples.len();
    let diff = |i: usize| hp.samples[i].0 - ev.samples[i].0;
    let worst_census = (1..n - 1)
        .map(diff)
        .max_by(|a, b| a.abs().total_cmp(&b.abs()))
        .unwrap_or(0.0);
    let range = (1..n)
        .map(diff)
        .fold((f64::MAX, f64::MIN), |(lo, hi), d| (lo.min(d), hi.max(d)));
    Residual {
        pair,
        rts: report.rts.clone().unwrap_or_default(),
        censuses: n - 2,
        worst_census,
        range,
        end: diff(n - 1),
        span: hp.samples[n - 1].0,
    }
}

#[test]
fn every_pair_lands_on_the_hp_time_axis() {
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for (dir, name) in pairs() {
        let (ev, report, hp) =
            read_pair(dir, &name).unwrap_or_else(|e| panic!("{dir}/{name}: {e}"));
        let r = residual(dir, &name, &ev, &report, &hp);
        let estimate = ESTIMATES.iter().find(|e| r.pair == e.0);
        let ok = match estimate {
            Some(&(_, lo, hi, _)) => r.range.0 >= lo * r.span && r.range.1 <= hi * r.span,
            None => r.on_target(),
        };
        table.push(format!(
            "{:<34} {:<22} {:>3} {:>+9.2} {:>+9.2} {:>7.3} {:>6.2}%  [{:+.2}, {:+.2}]%{}",
            r.pair,
            r.rts,
            r.censuses,
            r.worst_census * 1e3,
            r.end * 1e3,
            r.span,
            r.share() * 100.0,
            r.range.0 / r.span * 100.0,
            r.range.1 / r.span * 100.0,
            if estimate.is_some() {
                "  (estimate)"
            } else {
                ""
            }
        ));
        if !ok {
            failures.push(r.pair.clone());
        }
    }
    eprintln!(
        "{:<34} {:<22} {:>3} {:>9} {:>9} {:>7} {:>7}",
        "pair", "runtime", "n", "census ms", "end ms", "span s", "share  [range]"
    );
    for line in &table {
        eprintln!("{line}");
    }
    for (pair, _, _, why) in ESTIMATES {
        eprintln!("estimate: {pair}: {why}");
    }
    assert!(failures.is_empty(), "off the .hp's time axis: {failures:?}");
}

/// Every pair, read.
fn readable() -> Vec<(String, Recorder, EventlogReport)> {
    pairs()
        .into_iter()
        .map(|(dir, name)| {
            let (ev, report, _) =
                read_pair(dir, &name).unwrap_or_else(|e| panic!("{dir}/{name}: {e}"));
            (format!("{dir}/{name}"), ev, report)
        })
        .collect()
}

/// `--heap-size` draws the heap size and live bytes on the bands' clock: the live bytes
/// of each census's collection, posted at its end, stand at the census's time (give or
/// take the timer thread's share of the collection), not where elapsed time would put
/// them.
#[test]
fn heap_lines_use_the_bands_clock() {
    let mut worst = 0.0f64;
    for (pair, ev, report) in readable() {
        if report.line("live bytes").is_empty() {
            continue;
        }
        let end = ev.samples.last().unwrap().0;
        for &(t, _) in report
            .line("heap size")
            .iter()
            .chain(report.line("live bytes"))
        {
            assert!(
                (0.0..=end + 1e-9).contains(&t),
                "{pair}: heap point at {t} s, end {end} s"
            );
        }
        for (t, _) in &ev.samples[1..ev.samples.len() - 1] {
            let nearest = (report.line("live bytes").iter())
                .map(|&(h, _)| (h - t).abs())
                .fold(f64::MAX, f64::min);
            assert!(
                nearest <= 0.002,
                "{pair}: no live-bytes point within 2 ms of the census at {t} s"
            );
            worst = worst.max(nearest);
        }
    }
    eprintln!(
        "census to its collection's live bytes: at most {:.3} ms",
        worst * 1e3
    );
}

/// GHC before 9.2 with several capabilities spends CPU time the log does not show, and
/// says so; no other pair warns about it.
#[test]
fn spinning_gc_threads_are_announced() {
    for (pair, _, report) in readable() {
        let warned = (report.warnings.iter())
            .any(|w| matches!(w, EventlogWarning::SpinningGcThreads { capabilities: 2 }));
        let expected = pair.starts_with("timeaxis/ghc-9.0.2/") && pair.ends_with("-N2");
        assert_eq!(warned, expected, "{pair}: {:?}", report.warnings);
    }
}
