//! `--from`/`--to`: the chart of a time window is the chart of the file with the other
//! samples deleted by hand (the GHC manual's recipe), byte for byte: marks, the area in the
//! title and the axes follow the window.

mod support;

use support::tools::{require_reference, REFERENCE};
use support::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

use support::golden_text as golden;

/// Cuts a GHC-style profile (one statement per line) by hand, as the GHC manual tells:
/// the header stays; the samples outside [from, to] are deleted from their BEGIN_SAMPLE
/// line to their END_SAMPLE line, together with the MARK lines before the first kept
/// sample and after the last one.
fn hand_cut(text: &str, from: f64, to: f64) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let time = |l: &str| -> f64 {
        l.split_whitespace()
            .nth(1)
            .and_then(|t| t.parse().ok())
            .expect("a sample time")
    };
    // Line ranges of the kept samples.
    let mut kept = Vec::new();
    let mut begin = None;
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("BEGIN_SAMPLE") {
            begin = Some((i, time(l)));
        } else if l.starts_with("END_SAMPLE") {
            let (b, t) = begin.take().expect("BEGIN before END");
            if from <= t && t <= to {
                kept.push((b, i));
            }
        }
    }
    let (first, last) = match (kept.first(), kept.last()) {
        (Some(f), Some(l)) => (f.0, l.1),
        _ => panic!("no sample in [{from}, {to}]"),
    };
    let in_kept_sample = |i: usize| kept.iter().any(|&(b, e)| b <= i && i <= e);
    let header = ["JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT"];
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let keep = if header.iter().any(|h| l.starts_with(h)) {
            true
        } else if l.starts_with("MARK") {
            first < i && i < last
        } else {
            in_kept_sample(i)
        };
        if keep {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// The chart and .aux of `prog flags t.hp` on `input`.
fn render(prog: &str, input: &str, flags: &[&str], ext: &str) -> (Vec<u8>, Vec<u8>) {
    let dir = TempDir::new("window");
    std::fs::write(dir.path().join("t.hp"), input).unwrap();
    let out = support::run_in(prog, dir.path(), &[flags, &["t.hp"]].concat(), None);
    assert!(out.status.success(), "{prog} {flags:?}: {out:?}");
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    (read(&format!("t.{ext}")), read("t.aux"))
}

const CASES: [(&str, f64, f64); 8] = [
    ("spec7-01-manpage.hp", 1.0, 2.0),
    ("spec7-01-manpage.hp", 0.5, 2.9),
    ("spec7-01-manpage.hp", 0.0, 1.9),
    ("edge-marks.hp", 0.02, 0.5),
    ("edge-marks.hp", 0.0, 0.04),
    ("manycc-O0-hc.hp", 0.1, 0.3),
    ("longrun-O1-hc.hp", 1.0, 2.5),
    ("unicode-O0-hc.hp", 0.02, 1e9),
];

#[test]
fn a_window_renders_like_the_hand_cut_file() {
    for (name, from, to) in CASES {
        let text = golden(name);
        let cut = hand_cut(&text, from, to);
        assert_ne!(cut, text, "{name} [{from}, {to}] cuts something");
        let (from_s, to_s) = (from.to_string(), to.to_string());
        for (flags, ext) in [
            (&[][..], "ps"),
            (&["-c", "-m4"], "ps"),
            (&["-d", "-t0", "-y"], "ps"),
            (&["-i-", "-e6in"], "ps"),
            (&["--format", "svg"], "svg"),
        ] {
            let window = [&["--from", &from_s, "--to", &to_s][..], flags].concat();
            let ours = render(BIN, &text, &window, ext);
            let by_hand = render(BIN, &cut, flags, ext);
            assert!(
                ours.0 == by_hand.0,
                "{name} [{from}, {to}] {flags:?}: chart"
            );
            assert_eq!(ours.1, by_hand.1, "{name} [{from}, {to}] {flags:?}: aux");
        }
    }
}

#[test]
fn open_sides_and_glued_values() {
    let text = golden("manycc-O0-hc.hp");
    let cut = hand_cut(&text, 0.2, f64::INFINITY);
    assert_eq!(
        render(BIN, &text, &["--from=0.2"], "ps"),
        render(BIN, &cut, &[], "ps")
    );
    let cut = hand_cut(&text, f64::NEG_INFINITY, 0.2);
    assert_eq!(
        render(BIN, &text, &["--to", "0.2"], "ps"),
        render(BIN, &cut, &[], "ps")
    );
}

#[test]
fn marks_area_and_axis_follow_the_window() {
    let text = golden("spec7-01-manpage.hp");
    let (whole, _) = render(BIN, &text, &[], "ps");
    let (part, _) = render(BIN, &text, &["--from", "1", "--to", "2"], "ps");
    let show = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (whole, part) = (show(&whole), show(&part));
    assert!(whole.contains("(648 bytes x seconds)"), "the whole area");
    assert!(part.contains("(334 bytes x seconds)"), "the window's area");
    // The three marks at 1.5, 1.75 and 1.8 lie between the kept samples 1.0 and 2.0.
    let marks = |ps: &str| ps.matches("fill\n").count();
    let (cut_1, _) = render(BIN, &text, &["--from", "0", "--to", "1"], "ps");
    assert!(
        marks(&part) > marks(&show(&cut_1)),
        "marks kept inside, dropped outside"
    );
}

#[test]
fn the_real_hp2ps_draws_the_hand_cut_file_the_same() {
    if !require_reference() {
        return;
    }
    for (name, from, to) in CASES {
        let text = golden(name);
        let cut = hand_cut(&text, from, to);
        let (from_s, to_s) = (from.to_string(), to.to_string());
        for flags in [&[][..], &["-c", "-m4"], &["-d", "-t0"]] {
            let window = [&["--from", &from_s, "--to", &to_s][..], flags].concat();
            let ours = render(BIN, &text, &window, "ps");
            let theirs = render(REFERENCE, &cut, flags, "ps");
            assert!(
                support::compare::ps_body(&ours.0).0 == support::compare::ps_body(&theirs.0).0,
                "{name} [{from}, {to}] {flags:?}: hp2ps on the hand-cut file differs"
            );
            assert_eq!(ours.1, theirs.1, "{name} [{from}, {to}] {flags:?}: aux");
        }
    }
}

#[test]
fn empty_and_inverted_windows() {
    let dir = TempDir::new("window-errors");
    std::fs::write(dir.path().join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
    let out = support::run_in(BIN, dir.path(), &["--from", "5", "t.hp"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("hp2ps: t.hp: no sample lies in the window [5, end]")
            && err.contains("from 0 to 2.82"),
        "{err}"
    );
    let out = support::run_in(BIN, dir.path(), &["--from", "2", "--to", "1", "t.hp"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = support::run_in(BIN, dir.path(), &["--from", "soon", "t.hp"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from"));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "nothing written");
}
