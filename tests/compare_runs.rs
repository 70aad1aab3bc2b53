//! Comparing runs and finding the leak: `--include`/`--exclude`, `--sort`, `--reverse`
//! and `--uniform-scale` do what they promise, read back from what the charts draw (the
//! `.aux` band list, the axis labels of the PostScript) and from `--summary=json`.

mod support;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::{golden, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn run(dir: &Path, args: &[&str]) -> Output {
    let out = support::run_in(BIN, dir, args, None);
    assert!(
        out.status.success(),
        "hp2ps {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The bands a chart drew, bottom first, from its `.aux` ORDER lines.
fn drawn(aux: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(aux).expect("the .aux");
    text.lines()
        .filter_map(|l| l.strip_prefix("ORDER "))
        .map(|l| l.rsplit_once(' ').expect("ORDER name n").0.to_string())
        .collect()
}

/// Every band name of a profile (its data lines inside samples).
fn names_in(hp: &[u8]) -> BTreeSet<String> {
    String::from_utf8_lossy(hp)
        .lines()
        .filter_map(|l| l.rsplit_once('\t').map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn filters_drop_exactly_the_named_bands() {
    let dir = TempDir::new("filters");
    let hp = golden("manycc-O0-hc.hp");
    std::fs::write(dir.path().join("t.hp"), &hp).unwrap();
    let all = names_in(&hp);
    // -t0 -m0: nothing else drops or merges a band, so the .aux lists what the filter kept.
    run(
        dir.path(),
        &[
            "-t0",
            "-m0",
            "--include",
            "helperA",
            "--exclude",
            "stage00",
            "t.hp",
        ],
    );
    let kept: BTreeSet<String> = drawn(&dir.path().join("t.aux")).into_iter().collect();
    let expected: BTreeSet<String> = all
        .iter()
        .filter(|n| n.contains("helperA") && !n.contains("stage00"))
        .cloned()
        .collect();
    assert!(!expected.is_empty() && expected.len() < all.len());
    assert_eq!(kept, expected);

    // The summary counts what was left out.
    let out = run(
        dir.path(),
        &[
            "--summary=json",
            "--include",
            "helperA",
            "--exclude",
            "stage00",
            "t.hp",
        ],
    );
    let s: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(s["bands"], expected.len());
    assert_eq!(s["filtered"]["bands"], all.len() - expected.len());
    let share = s["filtered"]["share"].as_f64().expect("a share");
    assert!(share > 0.0 && share < 1.0, "{share}");
}

/// Five samples of three bands: `flat` is the biggest, `leak` grows steadily, `wave`
/// goes up and down.
fn leaking_profile() -> Vec<u8> {
    let mut hp = String::from(
        "JOB \"leak\"\nDATE \"Mon Nov 23 10:00 2026\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    for i in 0..5 {
        let t = f64::from(i);
        hp += &format!("BEGIN_SAMPLE {t:.2}\n");
        hp += "flat\t900000\n";
        hp += &format!("leak\t{}\n", 1000 + 50_000 * i);
        hp += &format!("wave\t{}\n", if i % 2 == 0 { 10_000 } else { 300_000 });
        hp += &format!("END_SAMPLE {t:.2}\n");
    }
    hp.into_bytes()
}

#[test]
fn growth_puts_the_leaking_band_first() {
    let dir = TempDir::new("growth");
    std::fs::write(dir.path().join("t.hp"), leaking_profile()).unwrap();
    run(dir.path(), &["t.hp"]);
    let by_size = drawn(&dir.path().join("t.aux"));
    assert_eq!(by_size.last().map(String::as_str), Some("flat"));

    run(dir.path(), &["--sort", "growth", "t.hp"]);
    let by_growth = drawn(&dir.path().join("t.aux"));
    // The top of the stack (first in the key) is the last band.
    assert_eq!(by_growth.last().map(String::as_str), Some("leak"));
    // The key is drawn top band first: `leak` is the first name in it.
    let out = run(
        dir.path(),
        &["--sort", "growth", "--format", "svg", "-o", "-", "t.hp"],
    );
    let svg = String::from_utf8_lossy(&out.stdout);
    let first_key = ["leak", "wave", "flat"]
        .into_iter()
        .min_by_key(|n| svg.find(&format!(">{n}<")).unwrap_or(usize::MAX));
    assert_eq!(first_key, Some("leak"));

    run(dir.path(), &["--sort", "growth", "--reverse", "t.hp"]);
    let reversed = drawn(&dir.path().join("t.aux"));
    assert_eq!(reversed.first().map(String::as_str), Some("leak"));

    let out = run(dir.path(), &["--summary=json", "--sort", "growth", "t.hp"]);
    let s: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let leak = s["top"]
        .as_array()
        .expect("top")
        .iter()
        .find(|b| b["name"] == "leak")
        .expect("leak in the summary");
    assert_eq!(leak["slope"].as_f64(), Some(50_000.0), "bytes per second");
}

/// The axis labels a PostScript chart draws: the numeric strings on lines of their own
/// (`(0.2)`, `(20M)`); the title and key strings are not numbers.
fn axis_labels(ps: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(ps);
    text.lines()
        .filter_map(|l| l.strip_prefix('(')?.strip_suffix(')'))
        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || ".kMG".contains(c)))
        .map(str::to_string)
        .collect()
}

#[test]
fn uniform_scale_gives_two_charts_the_same_axes() {
    let dir = TempDir::new("uniform");
    std::fs::write(dir.path().join("a.hp"), golden("manycc-O0-hc.hp")).unwrap();
    std::fs::write(dir.path().join("b.hp"), leaking_profile()).unwrap();
    let labels = |dir: &Path| {
        (
            axis_labels(&std::fs::read(dir.join("a.ps")).unwrap()),
            axis_labels(&std::fs::read(dir.join("b.ps")).unwrap()),
        )
    };
    run(dir.path(), &["a.hp", "b.hp"]);
    let (a, b) = labels(dir.path());
    assert!(!a.is_empty(), "no axis labels found");
    assert_ne!(a, b, "the two profiles have different scales of their own");

    run(dir.path(), &["--uniform-scale", "both", "a.hp", "b.hp"]);
    let (a, b) = labels(dir.path());
    assert_eq!(a, b);

    // One file: the option changes nothing.
    let alone = TempDir::new("uniform-one");
    std::fs::write(alone.path().join("a.hp"), golden("manycc-O0-hc.hp")).unwrap();
    run(alone.path(), &["a.hp"]);
    let plain = std::fs::read(alone.path().join("a.ps")).unwrap();
    run(alone.path(), &["--uniform-scale", "both", "a.hp"]);
    assert_eq!(plain, std::fs::read(alone.path().join("a.ps")).unwrap());
}
