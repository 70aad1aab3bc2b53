//! An eventlog of a `+RTS -p -l` run holds a time profile and no heap profile: hp2ps
//! draws that time profile (its flame graph, page, summary, pprof) with a one-line
//! note, where it used to refuse the file; a log with neither keeps the heap's error.
//! The log (`tests/data/prof/keywords-ghc9.0.2-p-l.eventlog`) and the report of the
//! same run were written by GHC 9.0.2 (`tests/data/prof/README.md`).

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::eventlog::writer::RawLog;
use support::run::{self, Input};
use support::TempDir;

const NOTE: &str = "the log holds no heap profile (run the program with +RTS -hc -l for one): \
                    its time profile is drawn";

fn log() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prof/keywords-ghc9.0.2-p-l.eventlog")
}

fn hp2ps(dir: &Path, args: &[&str]) -> run::Ran {
    let log = log();
    let mut all: Vec<&Path> = args.iter().map(Path::new).collect();
    all.push(&log);
    run::hp2ps(dir, &all, Input::Null)
}

#[test]
fn its_flame_graph_is_drawn_by_default_with_a_note() {
    let dir = TempDir::new("eventlog-only-ps");
    let ran = hp2ps(dir.path(), &[]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let err = ran.stderr_text();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(NOTE), "{err}");
    let ps = std::fs::read_to_string(dir.join("keywords-ghc9.0.2-p-l.ps")).expect("the .ps");
    assert!(ps.starts_with("%!PS"), "{}", &ps[..40]);
    // A flame graph names the run's cost centres; a heap chart of no samples has none.
    for cc in ["(MAIN)", "(main)", "(GC)"] {
        assert!(ps.contains(cc), "{cc} in the flame graph");
    }
    // As a time profile is drawn: no .aux beside it.
    assert!(!dir.join("keywords-ghc9.0.2-p-l.aux").exists());
}

#[test]
fn its_summary_is_the_time_profiles_and_agrees_with_the_report() {
    let dir = TempDir::new("eventlog-only-summary");
    let ran = hp2ps(dir.path(), &["--summary=json"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let err = ran.stderr_text();
    assert!(
        err.contains("for one): its time profile is summarised"),
        "{err}"
    );
    let s: Value = serde_json::from_slice(&ran.stdout).expect("JSON");
    assert_eq!(
        (&s["kind"], &s["format"]),
        (&"time".into(), &"eventlog".into())
    );
    // One sample a tick, the runtime's own (GC, SYSTEM) among them: less those, the
    // report's ticks of the same run (GHC 9.0.2 counts them alike).
    let top = s["top"].as_array().unwrap();
    let ticks_of = |name: &str| {
        (top.iter())
            .find(|t| t["name"] == name)
            .map_or(0, |t| t["ticks"].as_i64().unwrap())
    };
    let runtime = ticks_of("GC") + ticks_of("SYSTEM");
    let report = run::hp2ps(
        dir.path(),
        &[Path::new("--summary=json"), &log().with_extension("prof")],
        Input::Null,
    );
    let report: Value = serde_json::from_slice(&report.stdout).expect("JSON");
    let total = s["total_ticks"].as_i64().unwrap();
    assert_eq!(
        total - runtime,
        report["total_ticks"].as_i64().unwrap(),
        "{s}"
    );
}

#[test]
fn its_page_and_svg_are_the_time_profiles() {
    let dir = TempDir::new("eventlog-only-page");
    let ran = hp2ps(dir.path(), &["--format", "html", "-o", "page.html"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    // The time profile's panel, for the run the log is; the cost centres in its data.
    assert!(
        page.contains("<section class=\"time-profile\""),
        "a time profile's page"
    );
    assert!(page.contains("data-run=\"keywords-ghc9.0.2-p-l.eventlog\""));
    assert!(page.contains("tokensFrom"));
    let ran = hp2ps(dir.path(), &["--format", "svg", "-o", "flame.svg"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let svg = std::fs::read_to_string(dir.join("flame.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("tokensFrom"));
}

#[test]
fn a_log_with_neither_profile_keeps_the_heaps_error() {
    // A log of the runtime's own events only (no -h, no -p): the heap's one-line error
    // that says how to run the program, exit 1, no note, nothing written.
    let dir = TempDir::new("eventlog-only-neither");
    let mut w = RawLog::ghc_9_2();
    w.event(18, 0, &[0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 9, 0xFF, 0xFF]);
    w.event(29, 1, b"\0\0\0\0GHC-9.0.2 rts_l").end();
    std::fs::write(dir.join("sched.eventlog"), &w.bytes).unwrap();
    let ran = run::hp2ps(dir.path(), &[Path::new("sched.eventlog")], Input::Null);
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let err = ran.stderr_text();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("no heap profile samples") && err.contains("-hT -l"),
        "{err}"
    );
    let left = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(left, 1, "nothing written beside the log");
}

#[test]
fn a_failure_to_write_its_time_profile_is_said_as_it_is() {
    // Read as a time profile, it cannot be written where -o says: that is the error,
    // not the heap's "no heap profile samples".
    let dir = TempDir::new("eventlog-only-unwritable");
    let ran = hp2ps(
        dir.path(),
        &["--format", "svg", "-o", "no/such/dir/flame.svg"],
    );
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let err = ran.stderr_text();
    assert!(err.contains("cannot write no/such/dir/flame.svg"), "{err}");
    assert!(!err.contains("no heap profile samples"), "{err}");
}

/// Where several inputs make one page or one summary, a `-p -l` log is put with the
/// time profiles before anything is read (it used to be taken for a heap profile there,
/// and refused): two such logs compared, and one beside a heap profile.
#[test]
fn several_logs_make_one_page_and_one_comparison() {
    let dir = TempDir::new("eventlog-only-several");
    std::fs::copy(log(), dir.join("b.eventlog")).unwrap();
    let ran = hp2ps(
        dir.path(),
        &["--format", "html", "-o", "page.html", "b.eventlog"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    for run in ["b.eventlog", "keywords-ghc9.0.2-p-l.eventlog"] {
        assert!(page.contains(&format!("data-run=\"{run}\"")), "{run}");
    }
    assert_eq!(page.matches("<section class=\"time-profile\"").count(), 2);
    assert!(!page.contains("<figure class=\"chart\""), "no heap chart");

    // The comparison lists the cost centres on the runs' stacks (an eventlog declares
    // every one the program has: 142 here), none changed, and no line of `? -> ?`.
    let ran = hp2ps(dir.path(), &["--summary=json", "b.eventlog"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let c: Value = serde_json::from_slice(&ran.stdout).expect("JSON");
    assert_eq!(c["kind"], "time-comparison", "{c}");
    assert_eq!(c["before"]["cost_centres"], 17, "{c}");
    assert_eq!(c["cost_centres"], 17, "{c}");
    for ch in c["changes"].as_array().unwrap() {
        assert_eq!(
            (&ch["runs"], &ch["time_pct_change"]),
            (&"both".into(), &0.0.into())
        );
    }
    let ran = hp2ps(dir.path(), &["--summary", "b.eventlog"]);
    let text = String::from_utf8(ran.stdout).unwrap();
    assert!(text.contains("  ticks    188 -> 188\n"), "{text}");
    assert!(!text.contains("? -> ?"), "{text}");

    // A heap profile's log with a -p -l log: the heap's page with the time profile.
    let heap = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/prof/keywords-ghc9.0.2-p-hc-l.eventlog");
    std::fs::copy(heap, dir.join("heap.eventlog")).unwrap();
    let ran = hp2ps(
        dir.path(),
        &["--format", "html", "-o", "pair.html", "heap.eventlog"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let page = std::fs::read_to_string(dir.join("pair.html")).unwrap();
    assert!(page.contains("data-run=\"heap.eventlog\""));
    assert!(page.contains("<figure class=\"chart\""), "the heap's chart");
    assert_eq!(page.matches("<section class=\"time-profile\"").count(), 1);
}
