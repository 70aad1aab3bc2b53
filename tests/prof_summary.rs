//! `hp2ps --summary` of GHC time profiles (`.prof` text and `-pj` JSON, known by their
//! content): the JSON's fields and values against the report's own table, the text
//! form, two profiles compared, time and heap profiles in one command (the heap's
//! summary as it is alone); and what is refused: what cannot draw a time profile (an
//! export, `-p`, `--serve`: exit 2, nothing written), a file that is no profile (one
//! line, exit 1).

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use support::prof::data_dir;
use support::{files_in, golden, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn run(dir: &Path, args: &[&str]) -> Output {
    support::run_in(BIN, dir, args, None)
}

fn data(name: &str) -> PathBuf {
    data_dir().join(name)
}

/// A scratch folder holding copies of the named data files.
fn with_files(tag: &str, names: &[&str]) -> TempDir {
    let dir = TempDir::new(tag);
    for n in names {
        std::fs::copy(data(n), dir.path().join(n)).unwrap();
    }
    dir
}

fn json(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8_lossy(&out.stdout).lines())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn json_of_a_p_report_has_its_numbers() {
    let name = "arrays-ghc9.0.2-P.prof";
    let dir = with_files("prof-summary-json", &[name]);
    let docs = json(&run(dir.path(), &["--summary=json", "--top", "3", name]));
    let s = &docs[0];
    assert_eq!(s["kind"], "time");
    assert_eq!(s["format"], "report");
    assert_eq!(s["file"], name);
    assert_eq!(s["program"], "arrays");
    assert_eq!(s["total_ticks"], 4656);
    assert_eq!(s["total_alloc"], 11_008_306_616u64);
    assert_eq!(s["tick_interval"], 0.001);
    assert_eq!(s["processors"], 1);
    assert_eq!(s["cost_centres"], 27);
    let top = s["top"].as_array().unwrap();
    assert_eq!(top.len(), 3);
    // The report's own table lists them so: smoothing.\.\ 38.3 38.8 1783 4271971520.
    let first = &top[0];
    assert_eq!(first["name"], "smoothing.\\.\\");
    assert_eq!(
        (&first["module"], &first["src"]),
        (
            &Value::from("Main"),
            &Value::from("programs/Arrays.hs:(56,32)-(60,40)")
        )
    );
    assert_eq!(
        (&first["ticks"], &first["bytes"], &first["entries"]),
        (
            &Value::from(1783),
            &Value::from(4_271_971_520u64),
            &Value::from(1_499_990)
        )
    );
    assert!((first["time_pct"].as_f64().unwrap() - 38.3).abs() < 0.05);
    assert!((first["alloc_pct"].as_f64().unwrap() - 38.8).abs() < 0.05);
    assert_eq!(top[1]["name"], "sieve.\\");
    assert_eq!(top[2]["name"], "sieve.\\.\\");
    assert_eq!(stderr(&run(dir.path(), &["--summary=json", name])), "");
}

#[test]
fn a_p_report_has_no_ticks_and_pj_json_is_known_by_its_content() {
    let dir = with_files(
        "prof-summary-kinds",
        &["leakmap-ghc9.10.3-p.prof", "leakmap-ghc9.10.3-pj.prof"],
    );
    std::fs::rename(
        dir.path().join("leakmap-ghc9.10.3-pj.prof"),
        dir.path().join("run.json"),
    )
    .unwrap();
    let docs = json(&run(
        dir.path(),
        &["--summary=json", "--top", "1", "leakmap-ghc9.10.3-p.prof"],
    ));
    let top = &docs[0]["top"][0];
    assert!(
        top.get("ticks").is_none() && top.get("bytes").is_none(),
        "{top}"
    );
    assert!(top["entries"].is_u64());
    let docs = json(&run(
        dir.path(),
        &["--summary=json", "--top", "3", "run.json"],
    ));
    assert_eq!(docs[0]["format"], "json");
    let json_top = docs[0]["top"].as_array().unwrap();
    assert!(json_top[0]["ticks"].is_u64());
    // -pj lists the runtime's own cost centres, GC first here, which -p leaves out;
    // the program's costliest is the same in both runs.
    assert_eq!(json_top[0]["name"], "GC");
    assert!(
        json_top.iter().any(|t| t["name"] == top["name"]),
        "{json_top:?}"
    );
}

#[test]
fn text_summary_names_the_run_and_its_costliest_cost_centres() {
    let name = "unicode-ghc9.10.3-P.prof";
    let dir = with_files("prof-summary-text", &[name]);
    let out = run(dir.path(), &["--summary", "--top", "2", name]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], name);
    assert_eq!(lines[1], "  program  unicode +RTS -P -RTS");
    assert!(
        lines[3].starts_with("  time     ") && lines[3].contains("567 ticks of 1 ms"),
        "{text}"
    );
    assert!(text.contains("the 2 costliest by time:"), "{text}");
    assert_eq!(lines.len(), 9, "{text}");
    assert!(lines[7].contains("  Main  programs/Unicode.hs"), "{text}");
}

#[test]
fn two_profiles_are_compared() {
    let (a, b) = ("leakmap-ghc9.0.2-P.prof", "leakmap-ghc9.10.3-P.prof");
    let dir = with_files("prof-summary-compare", &[a, b]);
    let docs = json(&run(dir.path(), &["--summary=json", "--top", "100", a, b]));
    assert_eq!(docs.len(), 1);
    let c = &docs[0];
    assert_eq!(c["kind"], "time-comparison");
    assert_eq!(
        (&c["before"]["file"], &c["after"]["file"]),
        (&Value::from(a), &Value::from(b))
    );
    assert_eq!(c["before"]["total_ticks"], 887);
    // Each change is the difference of the two runs' own summaries.
    let own = |f: &str| json(&run(dir.path(), &["--summary=json", "--top", "1000", f])).remove(0);
    let (sa, sb) = (own(a), own(b));
    let find = |s: &Value, name: &str, src: &str| {
        (s["top"].as_array().unwrap().iter())
            .find(|t| t["name"] == name && t["src"] == src)
            .map(|t| {
                (
                    t["time_pct"].as_f64().unwrap(),
                    t["entries"].as_i64().unwrap(),
                )
            })
    };
    let changes = c["changes"].as_array().unwrap();
    assert!(changes.len() > 10);
    let mut both = 0;
    for ch in changes {
        let (name, src) = (ch["name"].as_str().unwrap(), ch["src"].as_str().unwrap());
        let (before, after) = (find(&sa, name, src), find(&sb, name, src));
        let time = |v: Option<(f64, i64)>| v.map_or(0.0, |v| v.0);
        let entries = |v: Option<(f64, i64)>| v.map_or(0, |v| v.1);
        assert!(
            (ch["time_pct_change"].as_f64().unwrap() - (time(after) - time(before))).abs() < 1e-9,
            "{ch}"
        );
        assert_eq!(
            ch["entries_change"].as_i64().unwrap(),
            entries(after) - entries(before),
            "{ch}"
        );
        both += usize::from(ch["runs"] == "both");
    }
    assert!(both > 10, "{both}");
    // Biggest change of time first.
    let first = changes[0]["time_pct_change"].as_f64().unwrap().abs();
    assert!(changes
        .iter()
        .all(|ch| ch["time_pct_change"].as_f64().unwrap().abs() <= first));
    let out = run(dir.path(), &["--summary", a, b]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(&format!("{a} -> {b}\n")), "{text}");
}

#[test]
fn time_and_heap_profiles_in_one_command_keep_the_heaps_summary() {
    let dir = with_files("prof-summary-mixed", &["marker-ghc9.10.3-p.prof"]);
    std::fs::write(dir.path().join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
    let alone = run(dir.path(), &["--summary=json", "t.hp"]);
    let both = json(&run(
        dir.path(),
        &["--summary=json", "marker-ghc9.10.3-p.prof", "t.hp"],
    ));
    assert_eq!(both.len(), 2);
    assert_eq!(both[0]["kind"], "time");
    assert_eq!(both[1], json(&alone)[0]);
    assert!(both[1].get("kind").is_none());
}

#[test]
fn what_cannot_draw_a_time_profile_is_refused_and_nothing_is_written() {
    let name = "marker-ghc9.10.3-p.prof";
    let dir = with_files("prof-refused", &[name]);
    std::fs::write(dir.path().join("old.svg"), "kept").unwrap();
    let before = files_in(dir.path());
    for (args, why) in [
        (vec!["--format", "prometheus", name], "not as prometheus"),
        (
            vec!["--format", "prometheus", "-o", "old.svg", name],
            "not as prometheus",
        ),
        (vec!["-p", name], "-p reads the .aux of a heap profile"),
        (vec!["--serve", name], "--serve follows a heap profile"),
    ] {
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let e = stderr(&out);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.contains(why), "{e}");
        assert_eq!(files_in(dir.path()), before, "{args:?}");
    }
}

#[test]
fn what_is_no_time_profile_fails_in_one_line() {
    let dir = TempDir::new("prof-bad");
    std::fs::write(dir.path().join("notes.prof"), "some notes\nabout a run\n").unwrap();
    std::fs::write(dir.path().join("empty.prof"), "").unwrap();
    for (file, at) in [
        ("notes.prof", "notes.prof:1:1: found \"some notes\""),
        ("empty.prof", "empty.prof:1:1: found the end of the input"),
    ] {
        let out = run(dir.path(), &["--summary", file]);
        assert_eq!(out.status.code(), Some(1));
        let e = stderr(&out);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.starts_with(&format!("hp2ps: {at}")), "{e}");
        assert!(e.contains("expected a GHC time profile"), "{e}");
        assert!(out.stdout.is_empty());
    }
    // A cut report: what it holds, and one warning naming the line.
    let full = std::fs::read_to_string(data("textproc-ghc9.10.3-p.prof")).unwrap();
    std::fs::write(dir.path().join("cut.prof"), &full[..full.len() * 2 / 3]).unwrap();
    let out = run(dir.path(), &["--summary=json", "cut.prof"]);
    assert!(out.status.success());
    let e = stderr(&out);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.starts_with("hp2ps: warning: cut.prof:") && e.contains("the report ends here"),
        "{e}"
    );
    assert!(json(&out)[0]["stacks"].as_u64().unwrap() > 5);
}
