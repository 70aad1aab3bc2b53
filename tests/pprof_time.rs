//! `--format pprof` of a time profile (`hp2ps --format pprof prog.prof`): `go tool
//! pprof` reads the profile of every real report of `tests/data/prof` that has each
//! stack's ticks and bytes (`-P`, `-pa`, `-pj`, GHC 9.0.2 and 9.10.3), and its `-raw`
//! sums and `-top` totals are the report's own totals (`total ticks` × the interval, in
//! nanoseconds; `total alloc`, in bytes), to the unit; a sample is its cost-centre stack,
//! the innermost first; a `-p` report (shares only) is refused with a word, nothing
//! written.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::run::{self, Input};
use support::tools::go_tool_pprof as pprof;
use support::{tools, TempDir};

/// The sums of `-raw`'s two value columns (`  1000000  872: 1 2 `).
fn raw_sums(raw: &str) -> (i64, i64) {
    let samples = raw.split("\nSamples:\n").nth(1).expect("samples");
    let samples = samples.split("\nLocations\n").next().unwrap();
    let mut sums = (0, 0);
    for line in samples.lines().skip(1) {
        let Some((values, _)) = line.split_once(':') else {
            continue;
        };
        let v: Vec<i64> = (values.split_whitespace())
            .map(|n| n.parse().expect("a value"))
            .collect();
        assert_eq!(v.len(), 2, "{line}");
        sums.0 += v[0];
        sums.1 += v[1];
    }
    sums
}

/// `-top`'s total in `unit` (`of 7844000000ns total`).
fn top_total(top: &str, unit: &str) -> i64 {
    let at = top
        .find(&format!("{unit} total"))
        .unwrap_or_else(|| panic!("no total in {top}"));
    top[..at].rsplit(' ').next().unwrap().parse().unwrap()
}

/// The reports with each stack's ticks and bytes.
fn reports() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prof");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/prof")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".prof")
                && ["-P.prof", "-P-", "-pa.prof", "-pj.prof"]
                    .iter()
                    .any(|k| name.contains(k))
        })
        .collect();
    files.sort();
    files
}

fn summary(dir: &Path, file: &Path) -> Value {
    let ran = run::hp2ps(dir, &[Path::new("--summary=json"), file], Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    serde_json::from_slice(&ran.stdout).expect("JSON")
}

#[test]
fn go_tool_pprof_reads_every_report_and_its_totals_are_the_reports() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-time");
    let files = reports();
    assert!(files.len() >= 80, "{} reports", files.len());
    for (i, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let out = dir.join(&format!("{i}.pb.gz"));
        let ran = run::hp2ps(
            dir.path(),
            &[
                Path::new("--format"),
                Path::new("pprof"),
                Path::new("-o"),
                &out,
                file,
            ],
            Input::Null,
        );
        assert_eq!(ran.code, Some(0), "{name}: {}", ran.describe());
        let s = summary(dir.path(), file);
        let tick_ns = (s["tick_interval"].as_f64().unwrap() * 1e9).round() as i64;
        let cpu = s["total_ticks"].as_i64().unwrap() * tick_ns;
        let alloc = s["total_alloc"].as_i64().unwrap();
        assert!(cpu > 0 && alloc > 0, "{name}: {s}");
        let raw = pprof(&["-raw"], &out);
        assert!(
            raw.contains("cpu/nanoseconds[dflt] alloc_space/bytes"),
            "{name}"
        );
        assert_eq!(raw_sums(&raw), (cpu, alloc), "{name}: -raw");
        // -top's totals too, for GHC 9.10.3's (a few seconds each).
        if name.contains("9.10.3") {
            let top = pprof(&["-top", "-sample_index=cpu", "-unit=ns"], &out);
            assert_eq!(top_total(&top, "ns"), cpu, "{name}: -top cpu");
            let top = pprof(&["-top", "-sample_index=alloc_space", "-unit=B"], &out);
            assert_eq!(top_total(&top, "B"), alloc, "{name}: -top alloc_space");
        }
    }
    eprintln!(
        "go tool pprof read {} time profiles, each to its report's totals",
        files.len()
    );
}

#[test]
fn a_sample_is_its_cost_centre_stack_innermost_first() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-time-stacks");
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prof/marker-ghc9.10.3-P.prof");
    let ran = run::hp2ps(
        dir.path(),
        &[Path::new("--format"), Path::new("pprof"), &file],
        Input::Null,
    );
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let out = dir.join("marker-ghc9.10.3-P.pb.gz");
    let traces = pprof(&["-traces", "-sample_index=cpu"], &out);
    // main.m.\ (304 ticks of 1 ms) under main.m, main, Main's CAF and MAIN.
    let want = [
        "     304ms   Main.main.m.\\",
        "             Main.main.m",
        "             Main.main",
        "             Main.CAF",
        "             MAIN.MAIN",
    ]
    .join("\n");
    assert!(traces.contains(&want), "{traces}");
    // The function's file and first line are its cost centre's source location.
    let raw = pprof(&["-raw"], &out);
    assert!(raw.contains("Main.main.m.\\ programs/Marker.hs:8"), "{raw}");
}

#[test]
fn a_report_without_ticks_is_refused_with_a_word() {
    let dir = TempDir::new("pprof-time-refused");
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prof/marker-ghc9.10.3-p.prof");
    std::fs::write(dir.join("old.pb.gz"), "kept").unwrap();
    let ran = run::hp2ps(
        dir.path(),
        &[
            Path::new("--format"),
            Path::new("pprof"),
            Path::new("-o"),
            Path::new("old.pb.gz"),
            &file,
        ],
        Input::Null,
    );
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let e = ran.stderr_text();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("needs each stack's ticks") && e.contains("+RTS -P"),
        "{e}"
    );
    assert_eq!(std::fs::read(dir.join("old.pb.gz")).unwrap(), b"kept");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "no temporary left: {left:?}");
}

/// An eventlog of a `+RTS -p -l` run (no heap profile) is its time profile for pprof:
/// a sample a tick on every capability, the runtime's own (`GC`, `SYSTEM`) among them,
/// so `-top`'s total less their flat time is the report's ticks of the same run.
#[test]
fn an_eventlogs_time_samples_are_a_pprof_profile() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-time-eventlog");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prof");
    let log = data.join("keywords-ghc9.0.2-p-l.eventlog");
    let args = [Path::new("--format"), Path::new("pprof"), &log];
    let ran = run::hp2ps(dir.path(), &args, Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert!(ran.stderr_text().contains("its time profile is drawn"));
    let out = dir.join("keywords-ghc9.0.2-p-l.pb.gz");
    let s = summary(dir.path(), &log);
    assert_eq!(s["format"], "eventlog", "{s}");
    let samples = s["total_ticks"].as_i64().unwrap();
    let top = pprof(&["-top", "-unit=ns"], &out);
    assert_eq!(top_total(&top, "ns"), samples * 1_000_000, "{top}");
    let flat = |function: &str| -> i64 {
        let line = (top.lines())
            .find(|l| l.split_whitespace().last() == Some(function))
            .unwrap_or_else(|| panic!("{function} in {top}"));
        let ns = line.split_whitespace().next().unwrap();
        ns.trim_end_matches("ns").parse().unwrap()
    };
    let runtime = flat("GC.GC") + flat("SYSTEM.SYSTEM");
    let report = run::hp2ps(
        dir.path(),
        &[Path::new("--summary=json"), &log.with_extension("prof")],
        Input::Null,
    );
    let report: Value = serde_json::from_slice(&report.stdout).expect("JSON");
    let ticks = report["total_ticks"].as_i64().unwrap();
    assert!(ticks > 0, "{report}");
    assert_eq!(top_total(&top, "ns") - runtime, ticks * 1_000_000, "{top}");
}
