//! `--check`, the CI gate, on real GHC 9.0.2 profiles (`tests/data/gate/`, made by
//! `scripts/make-gate-profiles.sh`): LeakMap with its leak against the same program
//! without it fails, naming the bands that grew; 21 runs of one unchanged build raise no
//! alarm at the default rules, compared every way round, though one of them caught a
//! structure that the others' censuses missed; the leak rule names the cache of a
//! service that grows all run long and nothing else; the verdict as JSON; exit statuses
//! and the command lines refused.

mod support;

use std::path::{Path, PathBuf};

use hp2ps::internals::check::{check, Rules};
use hp2ps::{load, LoadOptions, Source};
use serde_json::Value;
use support::run::{self, Input, Ran};
use support::TempDir;

fn gate(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gate")
        .join(name)
}

/// `hp2ps ARGS` in the gate's directory.
fn hp2ps(args: &[&str]) -> Ran {
    run::hp2ps(&gate(""), args, Input::Null)
}

/// The 21 runs of the fixed build.
fn runs() -> Vec<PathBuf> {
    let mut runs = vec![gate("leakmap-fixed.hp")];
    runs.extend((1..=20).map(|i| gate(&format!("leakmap-fixed-run{i:02}.hp"))));
    runs
}

#[test]
fn the_leak_fails_against_the_build_without_it_naming_its_bands() {
    let ran = hp2ps(&[
        "--check",
        "--baseline",
        "leakmap-fixed.hp",
        "leakmap-leak.hp",
    ]);
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let text = String::from_utf8(ran.stdout).unwrap();
    assert!(
        text.starts_with("leakmap-leak.hp against leakmap-fixed.hp: 2 of 2 rules fail\n"),
        "{text}"
    );
    assert!(text.contains("  FAIL peak:10%: the peak is "), "{text}");
    for band in [
        "lazySum/main/Main.CAF",
        "countWords.step/count...",
        "main/Main.CAF",
    ] {
        assert!(
            text.contains(&format!("\n    {band}: held ")),
            "{band}: {text}"
        );
    }
    // The other way round, everything shrank: it passes.
    let ran = hp2ps(&[
        "--check",
        "--baseline",
        "leakmap-leak.hp",
        "leakmap-fixed.hp",
    ]);
    assert_eq!(
        ran.code,
        Some(0),
        "{}",
        String::from_utf8_lossy(&ran.stdout)
    );
}

#[test]
fn the_verdict_as_json_names_each_failure_with_its_numbers() {
    let args = [
        "--check",
        "--check-format",
        "json",
        "--baseline",
        "leakmap-fixed.hp",
        "leakmap-leak.hp",
    ];
    let ran = hp2ps(&args);
    assert_eq!(ran.code, Some(1));
    let v: Value = serde_json::from_slice(&ran.stdout).expect("one line of JSON");
    assert_eq!(v["passed"], false);
    assert_eq!(
        (v["file"].as_str(), v["baseline_file"].as_str()),
        (Some("leakmap-leak.hp"), Some("leakmap-fixed.hp"))
    );
    let peak = &v["rules"][0];
    assert_eq!(
        (peak["rule"].as_str(), peak["what"].as_str()),
        (Some("peak:10%"), Some("peak"))
    );
    let summary = |f: &str| -> Value {
        let ran = hp2ps(&["--summary=json", f]);
        serde_json::from_slice(&ran.stdout).unwrap()
    };
    let (new, old) = (summary("leakmap-leak.hp"), summary("leakmap-fixed.hp"));
    let finding = &peak["findings"][0];
    assert_eq!(
        finding["value"].as_f64(),
        new["peak"]["total"].as_f64(),
        "the summary's peak"
    );
    assert_eq!(finding["baseline"].as_f64(), old["peak"]["total"].as_f64());
    assert_eq!(finding["time"].as_f64(), new["peak"]["time"].as_f64());
    let bands = &v["rules"][1];
    assert_eq!(bands["what"], "bands");
    assert!(bands["noise"].as_f64().unwrap() > 0.0);
    let named: Vec<&str> = (bands["findings"].as_array().unwrap().iter())
        .map(|f| f["band"].as_str().unwrap())
        .collect();
    assert!(named.contains(&"lazySum/main/Main.CAF"), "{named:?}");
    for f in bands["findings"].as_array().unwrap() {
        assert!(f["value"].as_f64() > f["limit"].as_f64(), "{f}");
        assert_eq!(f["passed"], false);
    }
}

#[test]
fn twenty_runs_of_one_build_raise_no_alarm() {
    let runs = runs();
    let loaded: Vec<_> = (runs.iter())
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            load(Source::Bytes(&bytes), &LoadOptions::default())
                .unwrap()
                .profile
        })
        .collect();
    // Every run against every other, at the default rules.
    let mut pairs = 0;
    for (i, new) in loaded.iter().enumerate() {
        for (j, old) in loaded.iter().enumerate().filter(|&(j, _)| j != i) {
            let v = check(new, Some(old), &Rules::default());
            assert!(
                v.passed,
                "{} against {}: {v:?}",
                runs[i].display(),
                runs[j].display()
            );
            pairs += 1;
        }
    }
    assert_eq!(pairs, 21 * 20);
    // And from the command line, each against the first.
    for run in &runs[1..] {
        let ran = hp2ps(&[
            "--check",
            "--baseline",
            "leakmap-fixed.hp",
            run.to_str().unwrap(),
        ]);
        assert_eq!(
            ran.code,
            Some(0),
            "{}",
            String::from_utf8_lossy(&ran.stdout)
        );
    }
    // What the held peak is for: in some run one census caught part of main.m2's map,
    // which the others' censuses missed (its peak there is tens of kilobytes, above the
    // noise floor of 1 % of the peak; elsewhere 32 bytes).
    let peaks: Vec<f64> = (runs.iter())
        .map(|p| {
            let ran = hp2ps(&["--summary=json", "--top", "100", p.to_str().unwrap()]);
            let s: Value = serde_json::from_slice(&ran.stdout).unwrap();
            (s["top"].as_array().unwrap().iter())
                .find(|b| {
                    b["name"]
                        .as_str()
                        .unwrap()
                        .ends_with("main.m2/main/Main.CAF")
                })
                .map_or(0.0, |b| b["peak"].as_f64().unwrap())
        })
        .collect();
    let (low, high) = peaks
        .iter()
        .fold((f64::MAX, 0.0_f64), |(l, h), &p| (l.min(p), h.max(p)));
    assert!(high >= 20_000.0 && low < 1_000.0, "{peaks:?}");
}

#[test]
fn the_leak_rule_names_what_grows_all_run_long() {
    let ran = hp2ps(&["--check=leak", "service-hc.hp"]);
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let text = String::from_utf8(ran.stdout).unwrap();
    assert!(
        text.contains("FAIL leak:1%: 1 of 9 bands grow over the whole run"),
        "{text}"
    );
    // The cache of every answer; not the working set, which comes and goes.
    assert!(
        text.contains("\n    answer/main.\\.a/main....: 0 -> "),
        "{text}"
    );
    assert!(!text.contains("buffer"), "{text}");
    // LeakMap's space leak is given back at the end (found against a baseline instead);
    // the fixed build has none.
    for file in ["leakmap-leak.hp", "leakmap-fixed.hp"] {
        let ran = hp2ps(&["--check=leak", file]);
        assert_eq!(
            ran.code,
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&ran.stdout)
        );
    }
}

#[test]
fn limits_need_no_baseline() {
    let ran = hp2ps(&["--check=peak:50MB,end:10MiB,area:1e7", "leakmap-leak.hp"]);
    let text = String::from_utf8_lossy(&ran.stdout).into_owned();
    assert_eq!(ran.code, Some(0), "{text}");
    assert!(text.contains("every rule holds (3)"), "{text}");
    let ran = hp2ps(&["--check=peak:1MB", "leakmap-leak.hp"]);
    assert_eq!(ran.code, Some(1));
    assert!(String::from_utf8_lossy(&ran.stdout).contains("(at most 1,000,000)"));
}

#[test]
fn command_lines_that_cannot_work_are_refused() {
    let dir = TempDir::new("check-usage");
    for (args, says) in [
        (
            &["--check", "leakmap-leak.hp"][..],
            "compares with a baseline",
        ),
        (&["--check=peak:ten", "leakmap-leak.hp"], "--check=peak:ten"),
        (&["--check=heap:10%", "leakmap-leak.hp"], "not a rule"),
        (
            &["--baseline", "a.hp", "leakmap-leak.hp"],
            "only go with --check",
        ),
        (&["--check=peak:1G", "a.hp", "b.hp"], "judges one profile"),
        (
            &["--check=peak:1G", "--format", "svg", "a.hp"],
            "writes its verdict only",
        ),
        (
            &["--check=peak:1G", "--at", "1", "a.hp"],
            "--at chooses the census",
        ),
    ] {
        let ran = run::hp2ps(&gate(""), args, Input::Null);
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        assert!(
            ran.stderr_text().contains(says),
            "{args:?}: {}",
            ran.stderr_text()
        );
        assert!(ran.stdout.is_empty());
    }
    // A baseline that cannot be read is a failure of its own, said in one line.
    let ran = run::hp2ps(
        dir.path(),
        &[
            "--check",
            "--baseline",
            "missing.hp",
            &gate("leakmap-leak.hp").display().to_string(),
        ],
        Input::Null,
    );
    assert_eq!(ran.code, Some(1));
    assert!(
        ran.stderr_text()
            .starts_with("hp2ps: cannot open missing.hp"),
        "{}",
        ran.stderr_text()
    );
    assert!(ran.stdout.is_empty());
}
