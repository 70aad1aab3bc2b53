//! `--format pprof`: `go tool pprof` reads every profile written (the real GHC runs of
//! `tests/data`, every kind of heap profile, `.hp` and eventlog, and hostile names), and
//! its `-raw` and `-top` totals are the chart's total at that census to the byte: the
//! peak (`--summary=json`'s), the census nearest `--at T`, the last; a `-hc` sample is
//! its cost-centre stack, a `-hi` band named by its IPE entry is at its source line.

mod support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::run::{self, Input};
use support::tools::go_tool_pprof as pprof;
use support::{tools, TempDir};

/// The sum of the samples `-raw` lists (`   261456: 1 2 3 `).
fn raw_total(raw: &str) -> i64 {
    let samples = raw.split("\nSamples:\n").nth(1).expect("samples");
    let samples = samples.split("\nLocations\n").next().unwrap();
    (samples.lines())
        .filter_map(|l| {
            let (n, rest) = l.trim_start().split_once(':')?;
            (rest.starts_with(' ') && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| n.parse::<i64>().unwrap())
        })
        .sum()
}

/// `-top -unit=B`'s total (`of 40533792B total`).
fn top_total(top: &str) -> i64 {
    let at = top
        .find("B total")
        .unwrap_or_else(|| panic!("no total in {top}"));
    let number = top[..at].rsplit(' ').next().unwrap();
    number.parse().unwrap()
}

/// The census time the profile's first comment names (`the census at 0.35 seconds`).
fn census_time(raw: &str) -> String {
    let at = raw.find("the census at ").expect("a census") + "the census at ".len();
    raw[at..].split(' ').next().unwrap().to_string()
}

/// `--summary=json` of `file` with `args`.
fn summary(dir: &Path, file: &str, args: &[&str]) -> Value {
    let mut all = vec!["--summary=json"];
    all.extend_from_slice(args);
    all.push(file);
    let ran = run::hp2ps(dir, &all, Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    serde_json::from_slice(&ran.stdout).expect("JSON")
}

/// The real runs of `tests/data` that make a pprof profile: GHC 9.0.2's and 9.10.3's,
/// every kind of heap profile.
fn profiles() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = vec![
        root.join("gate/leakmap-leak.hp"),
        root.join("page/leakmap-O1-hc.hp"),
    ];
    for dir in ["eventlog", "ghc-9.10"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "hp" || x == "eventlog") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn go_tool_pprof_reads_every_profile_and_its_totals_are_the_peak() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-peak");
    let mut read = 0;
    for input in profiles() {
        let name = input.display().to_string();
        let out = dir.join("p.pb.gz");
        let ran = run::hp2ps(dir.path(), &["-o", "p.pb.gz", &name], Input::Null);
        assert_eq!(ran.code, Some(0), "{name}: {}", ran.describe());
        assert!(!dir.join("p.aux").exists());
        let raw = pprof(&["-raw"], &out);
        let top = pprof(&["-top", "-unit=B"], &out);
        let peak = summary(dir.path(), &name, &[])["peak"]["total"]
            .as_i64()
            .unwrap();
        assert_eq!(raw_total(&raw), peak, "{name}: -raw");
        assert_eq!(top_total(&top), peak, "{name}: -top");
        assert!(raw.contains("inuse_space/bytes[dflt]"), "{name}");
        read += 1;
    }
    // Hostile names: labels and function names pprof reads as they are.
    std::fs::write(dir.join("h.eventlog"), support::hostile::names_eventlog()).unwrap();
    let ran = run::hp2ps(dir.path(), &["-o", "h.pb.gz", "h.eventlog"], Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let raw = pprof(&["-raw"], &dir.join("h.pb.gz"));
    for name in [
        "say \"hi\"",
        "back\\slash",
        "caf\u{fffd}",
        "日本語",
        "{band=\"x\"} 1",
    ] {
        assert!(raw.contains(&format!("band:[{name}]")), "{name}: {raw}");
    }
    assert_eq!(
        raw_total(&raw),
        9 * 10 * 3000 / 2,
        "the last census's 1,000 × 3 × (1 + … + 9)"
    );
    eprintln!("go tool pprof read {read} profiles, each to the byte of its peak");
    assert!(read >= 40, "{read}");
}

#[test]
fn a_census_at_a_time_and_the_last_are_the_charts_there() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-at");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (file, at) in [
        ("gate/leakmap-leak.hp", "0.1"),
        ("ghc-9.10/leakmap-hT.eventlog", "0.2"),
        ("ghc-9.10/leakmap-hc.eventlog", "end"),
    ] {
        let name = data.join(file).display().to_string();
        let ran = run::hp2ps(
            dir.path(),
            &["--format", "pprof", "--at", at, "-o", "c.pb.gz", &name],
            Input::Null,
        );
        assert_eq!(ran.code, Some(0), "{name}: {}", ran.describe());
        let raw = pprof(&["-raw"], &dir.join("c.pb.gz"));
        // The census is the chart's sample at that time: a window of it alone gives its
        // total as the peak.
        let t = census_time(&raw);
        if at != "end" {
            let (asked, got): (f64, f64) = (at.parse().unwrap(), t.parse().unwrap());
            assert!(
                (asked - got).abs() < 0.05,
                "{file}: the census nearest {at} is at {t}"
            );
        }
        let total = summary(dir.path(), &name, &["--from", &t, "--to", &t]);
        assert_eq!(total["samples"], 1, "{file}: {t}");
        assert_eq!(
            raw_total(&raw),
            total["peak"]["total"].as_i64().unwrap(),
            "{file} at {t}"
        );
        assert!(
            raw_total(&raw) > 0,
            "{file}: the last census that holds any band"
        );
    }
    let ran = run::hp2ps(
        dir.path(),
        &[
            "--format",
            "pprof",
            "--at",
            "99",
            "-o",
            "c.pb.gz",
            &data.join("gate/leakmap-leak.hp").display().to_string(),
        ],
        Input::Null,
    );
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    assert!(
        ran.stderr_text()
            .contains("--at 99: the profile's censuses are from 0 to"),
        "{}",
        ran.stderr_text()
    );
}

#[test]
fn the_mean_over_a_window_is_each_bands_mean() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-mean");
    let name = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gate/leakmap-leak.hp")
        .display()
        .to_string();
    let args = [
        "--format", "pprof", "--from", "0.1", "--to", "0.4", "-o", "m.pb.gz", &name,
    ];
    let ran = run::hp2ps(dir.path(), &args, Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let raw = pprof(&["-raw"], &dir.join("m.pb.gz"));
    assert!(raw.contains("every band's mean from"), "{raw}");
    // Each band's mean rounded to the byte: the total is the window's area over its span
    // within a byte a band.
    let s = summary(dir.path(), &name, &["--from", "0.1", "--to", "0.4"]);
    let mean = s["area"].as_f64().unwrap() / s["span"].as_f64().unwrap();
    let bands = s["bands"].as_f64().unwrap();
    let total = raw_total(&raw) as f64;
    assert!(
        (total - mean).abs() <= bands / 2.0,
        "{total} against {mean}"
    );
}

/// The census at `time` of a `.hp`: each band's name and value.
fn census_of(hp: &str, time: f64) -> Vec<(String, i64)> {
    let mut bands = Vec::new();
    let mut inside = false;
    for line in hp.lines() {
        if let Some(t) = line.strip_prefix("BEGIN_SAMPLE ") {
            inside = (t.trim().parse::<f64>().unwrap() - time).abs() < 1e-9;
        } else if line.starts_with("END_SAMPLE") {
            inside = false;
        } else if let (true, Some((name, value))) = (inside, line.rsplit_once('\t')) {
            bands.push((name.to_string(), value.trim().parse().unwrap()));
        }
    }
    assert!(!bands.is_empty(), "no census at {time}");
    bands
}

#[test]
fn stacks_and_source_lines_are_the_bands() {
    if !tools::require("go") {
        return;
    }
    let dir = TempDir::new("pprof-frames");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let path = data.join("gate/leakmap-leak.hp");
    run::hp2ps(
        dir.path(),
        &[
            "--format",
            "pprof",
            "-o",
            "hc.pb.gz",
            &path.display().to_string(),
        ],
        Input::Null,
    );
    let file = dir.join("hc.pb.gz");
    let top = pprof(&["-top", "-unit=B", "-nodefraction=0"], &file);
    let time: f64 = census_time(&pprof(&["-raw"], &file)).parse().unwrap();
    // Each cost centre's flat bytes are those of the stacks it is the innermost of, its
    // cumulative bytes those of the stacks it is in: the .hp's census, stack by stack.
    let census = census_of(&std::fs::read_to_string(&path).unwrap(), time);
    let stacks: Vec<(Vec<&str>, i64)> = (census.iter())
        .map(|(name, v)| {
            (
                name.trim_start_matches(|c: char| c == '(' || c.is_ascii_digit() || c == ')')
                    .split('/')
                    .collect(),
                *v,
            )
        })
        .collect();
    let mut rows = 0;
    for row in top
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("flat"))
        .skip(1)
    {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let bytes = |c: &str| c.trim_end_matches('B').parse::<i64>().unwrap();
        let (flat, cum, function) = (bytes(cols[0]), bytes(cols[3]), cols[5..].join(" "));
        let want_flat: i64 = stacks
            .iter()
            .filter(|(s, _)| s[0] == function)
            .map(|(_, v)| v)
            .sum();
        let want_cum: i64 = stacks
            .iter()
            .filter(|(s, _)| s.contains(&function.as_str()))
            .map(|(_, v)| v)
            .sum();
        assert_eq!((flat, cum), (want_flat, want_cum), "{function}: {top}");
        rows += 1;
    }
    assert!(rows >= 15, "{top}");
    // A -hi band named by its IPE entry, at its file and line, called by its module.
    let hi = data
        .join("ghc-9.10/leakmap-hi.eventlog")
        .display()
        .to_string();
    run::hp2ps(
        dir.path(),
        &["--format", "pprof", "-o", "hi.pb.gz", &hi],
        Input::Null,
    );
    let raw = pprof(&["-raw"], &dir.join("hi.pb.gz"));
    assert!(
        raw.contains("mkWord: (:) (LeakMap.hs:11) programs/LeakMap.hs:11 s=11"),
        "{raw}"
    );
    assert!(raw.contains(" Main :0 s=0"), "{raw}");
}
