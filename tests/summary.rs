//! `--summary` and `--summary=json`: the numbers a script needs, without parsing
//! PostScript. Schema and values are checked on the GHC manual's example profile.

mod support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::{files_in, golden, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn run(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    support::run_in(BIN, dir, args, stdin)
}

fn json_lines(out: &Output) -> Vec<Value> {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout.clone())
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort();
    k
}

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn json_schema_and_values_on_the_manual_example() {
    let dir = TempDir::new("summary-json");
    std::fs::write(dir.path().join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
    let out = run(dir.path(), &["--summary=json", "t.hp"], None);
    let docs = json_lines(&out);
    assert_eq!(docs.len(), 1);
    let s = &docs[0];
    assert_eq!(
        keys(s),
        [
            "area",
            "bands",
            "date",
            "end",
            "file",
            "job",
            "peak",
            "sample_unit",
            "samples",
            "span",
            "start",
            "top",
            "value_unit"
        ]
    );
    assert_eq!(s["file"], "t.hp");
    assert_eq!(s["job"], "a.out -p");
    assert_eq!(s["date"], "Fri Apr 17 11:43:45 1992");
    assert_eq!(s["sample_unit"], "seconds");
    assert_eq!(s["value_unit"], "bytes");
    assert_eq!(s["samples"], 4);
    assert!(close(&s["start"], 0.0) && close(&s["end"], 2.82) && close(&s["span"], 2.82));
    assert_eq!(keys(&s["peak"]), ["time", "total"]);
    assert_eq!(s["peak"]["total"], 348, "values are integers");
    assert!(s["peak"]["total"].is_u64());
    assert!(close(&s["peak"]["time"], 2.0));
    // 24 + 296/2, 320 + 28/2, and 348 down to 0 over 0.82 s: 648.68, the title's "648".
    assert!(close(&s["area"], 648.68), "{}", s["area"]);
    assert_eq!(s["bands"], 7);
    let top = s["top"].as_array().expect("top is an array");
    assert_eq!(top.len(), 7, "every band: fewer than --top");
    for b in top {
        assert_eq!(keys(b), ["area", "name", "peak", "peak_time", "share"]);
    }
    let names: Vec<&str> = top.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "elim",
            "disin",
            "SYSTEM",
            "insert",
            "intersect",
            "main",
            "reduce"
        ],
        "by area, ties by name"
    );
    assert_eq!(top[0]["peak"], 192);
    assert!(close(&top[0]["peak_time"], 2.0));
    assert!(close(&top[0]["area"], 90.0 + 186.0 + 78.72));
    assert!(close(&top[0]["share"], 354.72 / 648.68));
    let total: f64 = top.iter().map(|b| b["area"].as_f64().unwrap()).sum();
    assert!((total - 648.68).abs() < 1e-9);
    assert_eq!(top[6]["peak"], 20);
    assert!(close(&top[6]["area"], 20.0));
    // No chart without an output option.
    assert_eq!(files_in(dir.path()), ["t.hp"]);
    assert!(out.stderr.is_empty());
}

#[test]
fn the_area_is_the_one_in_the_title() {
    let dir = TempDir::new("summary-title");
    std::fs::write(dir.path().join("t.hp"), golden("manycc-O0-hc.hp")).unwrap();
    let out = run(
        dir.path(),
        &["--summary=json", "-t0", "--format", "ps", "t.hp"],
        None,
    );
    let s = &json_lines(&out)[0];
    let ps = String::from_utf8_lossy(&std::fs::read(dir.path().join("t.ps")).unwrap()).into_owned();
    let area = s["area"].as_f64().unwrap().trunc() as i64;
    let mut digits = area.to_string();
    let mut grouped = String::new();
    while digits.len() > 3 {
        let tail = digits.split_off(digits.len() - 3);
        grouped = format!(",{tail}{grouped}");
    }
    let title = format!("({digits}{grouped} bytes x seconds)");
    assert!(ps.contains(&title), "{title} in the chart");
}

#[test]
fn text_summary() {
    let dir = TempDir::new("summary-text");
    std::fs::write(dir.path().join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
    let out = run(dir.path(), &["--summary", "--top", "3", "t"], None);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "t.hp\n\
         \x20 job      a.out -p\n\
         \x20 date     Fri Apr 17 11:43:45 1992\n\
         \x20 samples  4, from 0 to 2.82 seconds (span 2.82)\n\
         \x20 peak     348 bytes at 2 seconds\n\
         \x20 area     648.68 bytes x seconds\n\
         \x20 bands    7, the 3 biggest by area:\n\
         \x20     area  share  peak  at  name\n\
         \x20   354.72  54.7%   192   2  elim\n\
         \x20   136.44  21.0%    84   2  disin\n\
         \x20    45.84   7.1%    24   0  SYSTEM\n"
    );
}

#[test]
fn with_an_output_option_it_renders_too() {
    let dir = TempDir::new("summary-render");
    std::fs::write(dir.path().join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
    let out = run(
        dir.path(),
        &["--summary=json", "--format", "svg", "t.hp"],
        None,
    );
    assert_eq!(json_lines(&out).len(), 1);
    assert_eq!(files_in(dir.path()), ["t.aux", "t.hp", "t.svg"]);
    let out = run(dir.path(), &["--summary", "-o", "chart.pdf", "t.hp"], None);
    assert!(out.status.success() && out.stdout.starts_with(b"t.hp\n"));
    assert!(dir.path().join("chart.pdf").is_file());
    let out = run(
        dir.path(),
        &["--summary", "--output-dir", "out", "t.hp"],
        None,
    );
    assert!(out.status.success());
    assert!(dir.path().join("out/t.ps").is_file());
    // The chart and the summary cannot share stdout.
    let out = run(dir.path(), &["--summary", "-o", "-", "t.hp"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn several_files_give_one_json_line_each_in_order_and_stdin_has_no_name() {
    let dir = TempDir::new("summary-many");
    std::fs::write(dir.path().join("a.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::write(dir.path().join("b.hp"), golden("unicode-O0-hc.hp")).unwrap();
    std::fs::write(dir.path().join("c.hp"), golden("manycc-O0-hc.hp")).unwrap();
    let out = run(
        dir.path(),
        &["--summary=json", "-j3", "c.hp", "a", "b.hp"],
        None,
    );
    let docs = json_lines(&out);
    let files: Vec<&str> = docs.iter().map(|d| d["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["c.hp", "a.hp", "b.hp"]);
    assert_eq!(
        docs[0]["top"].as_array().unwrap().len(),
        10,
        "--top defaults to 10"
    );

    let out = run(
        dir.path(),
        &["--summary=json", "--top=1", "--from", "1", "--to", "2"],
        Some(&golden("spec7-01-manpage.hp")),
    );
    let s = &json_lines(&out)[0];
    assert!(s["file"].is_null());
    assert_eq!(s["samples"], 2);
    assert!(close(&s["area"], 334.0) && close(&s["span"], 1.0));
    assert_eq!(s["top"].as_array().unwrap().len(), 1);
}

#[test]
fn a_bad_file_fails_without_a_summary() {
    let dir = TempDir::new("summary-bad");
    std::fs::write(dir.path().join("a.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::write(dir.path().join("b.hp"), "JOB \"x\"\n").unwrap();
    let out = run(dir.path(), &["--summary=json", "a.hp", "b.hp"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("b.hp"));
}

/// A profile's texts reach the terminal escaped: JOB, DATE, units, band and marker
/// names holding OSC 52, a title, clear screen, a C1 CSI, a NUL and a line end that
/// forges a summary line (`tests/support/hostile.rs`), from a `.hp` and an eventlog.
#[test]
fn the_text_summary_writes_no_control_byte_to_the_terminal() {
    let dir = TempDir::new("summary-escapes");
    std::fs::write(dir.path().join("t.hp"), support::hostile::terminal_hp()).unwrap();
    std::fs::write(
        dir.path().join("e.eventlog"),
        support::hostile::terminal_eventlog(),
    )
    .unwrap();
    for input in ["t.hp", "e.eventlog"] {
        let out = run(dir.path(), &["--summary", "--top", "5", input], None);
        assert!(out.status.success(), "{out:?}");
        let at = support::hostile::raw_control(&out.stdout);
        assert_eq!(
            at,
            None,
            "{input}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        // The forged line stays inside the line it came in: one peak line.
        assert_eq!(text.matches("\n  peak ").count(), 1, "{text}");
        assert!(text.contains("\\x1b]52;c;"), "{text}");
        assert!(text.contains("\\r\\n"), "{text}");
        if input == "e.eventlog" {
            assert!(
                text.contains("  marker   ") && text.contains("mark\\x00\\x1b]52"),
                "{text}"
            );
        } else {
            assert!(text.contains("  job      job\\x1b]52"), "{text}");
        }
    }
}

/// A long GHC run (4 MB, over the 1 MiB from which a file is mapped) summarised as the
/// command reads a mapped `.hp` for its summary alone, keeping no point (issue 39), and
/// as it reads a stream, every point kept (`HP2PS_NO_MMAP=1`): the same bytes on stdout
/// and stderr, as JSON and as text, whole and in a time window, with the bands' growth
/// (read twice), named and on stdin.
/// (That the mapped reading keeps no point, `src/run/two_pass/summary_tests.rs` checks.)
#[test]
fn a_long_mapped_profile_is_summarised_as_a_streamed_one() {
    if !support::html_page::have_large() {
        return;
    }
    let dir = TempDir::new("summary-long");
    let hp = support::html_page::large("longrun-O1-hc-i0.0001.hp.gz");
    assert!(hp.len() > 2 << 20, "{} bytes", hp.len());
    let path = dir.path().join("long.hp");
    std::fs::write(&path, &hp).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: [&[&str]; 6] = [
        &["--summary=json", "long.hp"],
        &["--summary", "long.hp"],
        &["--summary=json", "--from", "0.5", "--to", "1.5", "long.hp"],
        &["--summary=json", "--top", "500"],
        &[
            "--summary=json",
            "--sort",
            "growth",
            "--top",
            "500",
            "long.hp",
        ],
        &["--summary", "--sort", "growth", "--from", "0.5", "long.hp"],
    ];
    for args in cases {
        let ran = |no_mmap: &str| {
            let mut cmd = support::run::Cmd::new(BIN)
                .args(args)
                .current_dir(dir.path())
                .env("HP2PS_NO_MMAP", no_mmap);
            if !args.contains(&"long.hp") {
                cmd = cmd.stdin_file(&path);
            }
            cmd.output()
        };
        let (mapped, streamed) = (ran("0"), ran("1"));
        assert!(mapped.status.success(), "{args:?}: {mapped:?}");
        assert!(mapped.stdout.len() > 100, "{args:?}: {mapped:?}");
        assert_eq!(mapped.status, streamed.status, "{args:?}");
        assert!(mapped.stdout == streamed.stdout, "{args:?}: stdout differs");
        assert_eq!(mapped.stderr, streamed.stderr, "{args:?}: stderr");
    }
}
