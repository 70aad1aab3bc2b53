//! Eventlogs on the command line, as a user meets them: file naming (`prog.eventlog` writes
//! `./prog.ps`; `prog` reads `prog.eventlog` when there is no `prog.hp`), stdin, batches
//! that mix both kinds, `-p` across kinds, markers in the summary and the SVG, windows,
//! logs that are cut or hold no sample, and the options that only eventlogs have.

mod support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::eventlog::writer::{breakdown, EventlogWriter, HeapProfBegin, Layout};
use support::{files_in, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn data(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/eventlog")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    support::run_in(BIN, dir, args, stdin)
}

fn ok(out: &Output) -> &Output {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The PostScript after its header comments: the same chart whatever the file was called.
fn body(ps: &[u8]) -> &[u8] {
    let at = ps
        .windows(13)
        .position(|w| w == b"%%EndComments")
        .expect("%%EndComments");
    &ps[at..]
}

#[test]
fn an_eventlog_is_named_like_its_hp_and_read_whatever_its_name() {
    let dir = TempDir::new("eventlog-names");
    let log = data("leakmap-hc.eventlog");
    std::fs::write(dir.path().join("prog.eventlog"), &log).unwrap();
    ok(&run(dir.path(), &["prog.eventlog"], None));
    assert!(dir.path().join("prog.ps").is_file() && dir.path().join("prog.aux").is_file());
    let first = std::fs::read(dir.path().join("prog.ps")).unwrap();

    // `prog` reads prog.eventlog when there is no prog.hp.
    std::fs::remove_file(dir.path().join("prog.ps")).unwrap();
    ok(&run(dir.path(), &["prog"], None));
    assert_eq!(std::fs::read(dir.path().join("prog.ps")).unwrap(), first);

    // Any name: the magic decides, and stdin works too.
    std::fs::write(dir.path().join("run.log"), &log).unwrap();
    ok(&run(dir.path(), &["run.log"], None));
    assert_eq!(
        body(&std::fs::read(dir.path().join("run.log.ps")).unwrap()),
        body(&first)
    );
    let out = run(dir.path(), &[], Some(&log));
    assert_eq!(body(&ok(&out).stdout), body(&first));
}

#[test]
fn a_batch_mixes_both_kinds_and_p_reuses_an_aux_from_either() {
    let dir = TempDir::new("eventlog-batch");
    std::fs::write(dir.path().join("a.eventlog"), data("textproc-hT.eventlog")).unwrap();
    std::fs::write(dir.path().join("b.hp"), data("textproc-hT.hp")).unwrap();
    ok(&run(dir.path(), &["-c", "a.eventlog", "b.hp"], None));
    for f in ["a.ps", "a.aux", "b.ps", "b.aux"] {
        assert!(
            dir.path().join(f).is_file(),
            "{f} missing: {:?}",
            files_in(dir.path())
        );
    }
    // The .hp's chart with the eventlog's .aux: the same bands in the same order as
    // the eventlog's chart (`-p` reads the order and shades of the previous run).
    std::fs::copy(dir.path().join("a.aux"), dir.path().join("b.aux")).unwrap();
    ok(&run(dir.path(), &["-pc", "b.hp"], None));
    let orders = |f: &str| -> Vec<String> {
        std::fs::read_to_string(dir.path().join(f))
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("ORDER "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(orders("a.aux"), orders("b.aux"));
    // And the other way round.
    std::fs::copy(dir.path().join("b.aux"), dir.path().join("a.aux")).unwrap();
    ok(&run(dir.path(), &["-pc", "a.eventlog"], None));
}

#[test]
fn a_log_without_samples_is_refused_and_writes_nothing() {
    let dir = TempDir::new("eventlog-empty");
    let log = data("textproc-hT.eventlog");
    // GHC 9.0 writes its heap samples at exit: the first 3 kB are the header only.
    std::fs::write(dir.path().join("killed.eventlog"), &log[..3000]).unwrap();
    std::fs::write(dir.path().join("killed.ps"), b"earlier chart").unwrap();
    let out = run(dir.path(), &["killed.eventlog"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("killed.eventlog") && err.contains("no heap profile samples"),
        "{err}"
    );
    assert!(err.contains("Ctrl-C"), "says what to do: {err}");
    assert_eq!(
        std::fs::read(dir.path().join("killed.ps")).unwrap(),
        b"earlier chart"
    );
    assert!(!dir.path().join("killed.aux").exists());
}

/// Real GHC 9.10.3 logs that hold no heap profile (`tests/data/no-heap-profile/`): the
/// one-line refusal says what the log holds (a time profile, ticky counters, the
/// scheduler's events only) and how to get a heap profile.
#[test]
fn a_log_without_a_heap_profile_says_what_it_holds() {
    let dir = TempDir::new("eventlog-no-heap");
    let logs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/no-heap-profile");
    for (name, holds) in [
        (
            "ticky.eventlog",
            "the log holds ticky-ticky counters (1 counter, 2 samples of +RTS -lT), not a \
             heap profile: run the program with +RTS -hT -l",
        ),
        (
            "scheduler-only.eventlog",
            "the log holds only the runtime's scheduler and GC events: run the program with \
             +RTS -hT -l",
        ),
    ] {
        std::fs::copy(logs.join(name), dir.path().join(name)).unwrap();
        let out = run(dir.path(), &["--format", "svg", name], None);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("no heap profile samples: the run made no heap profile; "),
            "{err}"
        );
        assert!(err.contains(holds), "{name}: {err}");
    }
    assert_eq!(files_in(dir.path()).len(), 2, "nothing written");
    // A log of +RTS -p -l holds a time profile: drawn as one, said in a line
    // (tests/prof_eventlog_only.rs has the rest).
    let name = "time-profile.eventlog";
    std::fs::copy(logs.join(name), dir.path().join(name)).unwrap();
    let out = run(dir.path(), &["--format", "svg", name], None);
    assert_eq!(out.status.code(), Some(0), "{name}");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the log holds no heap profile") && err.contains("its time profile is drawn"),
        "{err}"
    );
    assert!(
        dir.path().join("time-profile.svg").exists(),
        "the flame graph"
    );
}

/// A real GHC 9.10.3 log copied while its program ran (cut before the global buffer's
/// first flush, which holds the heap-profile events): the error says the log is cut and
/// what to do, not that the run made no heap profile; nothing is written.
#[test]
fn a_log_cut_before_its_heap_profile_says_it_is_cut() {
    let dir = TempDir::new("eventlog-cut-early");
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10/leakmap-hc.eventlog");
    let bytes = std::fs::read(log).unwrap();
    std::fs::write(dir.path().join("cut.eventlog"), &bytes[..100_000]).unwrap();
    let out = run(dir.path(), &["cut.eventlog"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("hp2ps: cut.eventlog: "), "{err}");
    // Where the last whole event ends, within the last event's length of the cut.
    let at: u64 = (err.split("the log is cut at byte ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((99_000..=100_000).contains(&at), "{err}");
    assert!(
        err.contains("(no end marker) before any heap-profile event"),
        "{err}"
    );
    assert!(err.contains("--eventlog-flush-interval"), "{err}");
    assert!(!err.contains("made no heap profile"), "{err}");
    assert_eq!(files_in(dir.path()).len(), 1, "nothing written");
}

/// Every GHC 9.10.3 log of a `-finfo-table-map` program declares its IPE events a byte
/// long: read without a word (nothing a user can do about it), counted in `--summary`.
#[test]
fn the_runtimes_own_ipe_layout_renders_without_a_warning() {
    let dir = TempDir::new("eventlog-ipe-layout");
    let log = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10/leakmap-hi.eventlog");
    std::fs::copy(log, dir.path().join("hi.eventlog")).unwrap();
    let out = ok(&run(dir.path(), &["hi.eventlog"], None)).clone();
    assert_eq!(stderr(&out), "", "nothing on stderr");
    let out = ok(&run(dir.path(), &["--summary", "hi.eventlog"], None)).clone();
    let text = String::from_utf8_lossy(&out.stdout);
    let note = "  note     69 IPE events declare a byte more than their fields hold, as GHC \
                9.10's runtime writes them: read by their fields\n";
    assert!(text.contains(note), "{text}");
    let out = ok(&run(dir.path(), &["--summary=json", "hi.eventlog"], None)).clone();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["notes"][0].as_str(),
        Some(note[11..note.len() - 1].trim_start())
    );
}

/// A small `-hT` run with GC-free timing, three censuses and two markers, as GHC 9.2 would
/// write it (end marker inside the last block).
fn marked_run() -> Vec<u8> {
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    w.startup(0, 1)
        .wall_clock(10, 1_795_242_269, 0)
        .rts_identifier(11, "GHC-9.2.8 rts")
        .program_args(12, &["./prog", "+RTS", "-hT", "-l", "-RTS"])
        .heap_prof_begin(
            13,
            &HeapProfBegin::new(breakdown::CLOSURE_TYPE, 100_000_000),
        )
        .string_census(100_000_000, &[("ARR_WORDS", 1000u64), ("THUNK", 2000)])
        .marker(0, 150_000_000, b"phase one")
        .string_census(200_000_000, &[("ARR_WORDS", 3000u64), ("THUNK", 1000)])
        .marker(0, 250_000_000, b"phase <two> & \"more\"")
        .string_census(300_000_000, &[("ARR_WORDS", 5000u64)])
        .shutdown(400_000_000, 1);
    w.finish()
}

#[test]
fn markers_are_marks_in_the_chart_with_their_texts_in_the_summary_and_the_svg() {
    let dir = TempDir::new("eventlog-marks");
    std::fs::write(dir.path().join("m.eventlog"), marked_run()).unwrap();
    let out = run(dir.path(), &["--summary=json", "m.eventlog"], None);
    let s: Value = serde_json::from_slice(&ok(&out).stdout).expect("JSON");
    let markers = s["markers"].as_array().expect("markers");
    assert_eq!(markers.len(), 2);
    assert_eq!(markers[0]["text"], "phase one");
    assert!((markers[0]["time"].as_f64().unwrap() - 0.15).abs() < 1e-9);
    assert_eq!(markers[1]["text"], "phase <two> & \"more\"");

    let text = ok(&run(dir.path(), &["--summary", "m.eventlog"], None))
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&text).contains("marker   0.15 seconds: phase one"));

    // Two marks drawn (hp2ps's mark is a filled caret; -y leaves them out).
    let ps = ok(&run(dir.path(), &["-o", "-", "m.eventlog"], None))
        .stdout
        .clone();
    let no_marks = ok(&run(dir.path(), &["-y", "-o", "-", "m.eventlog"], None))
        .stdout
        .clone();
    assert_ne!(ps, no_marks);

    // A window keeps the marks between its samples.
    let out = run(
        dir.path(),
        &["--summary=json", "--from", "0.2", "m.eventlog"],
        None,
    );
    let s: Value = serde_json::from_slice(&ok(&out).stdout).expect("JSON");
    let kept: Vec<&str> = s["markers"]
        .as_array()
        .map(|m| m.iter().filter_map(|x| x["text"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(kept, ["phase <two> & \"more\""]);
}

#[test]
fn time_axis_and_full_names_are_options() {
    let dir = TempDir::new("eventlog-options");
    std::fs::write(dir.path().join("m.eventlog"), marked_run()).unwrap();
    // No GC events: mutator time falls back to elapsed time, with a warning.
    let out = run(dir.path(), &["--summary=json", "m.eventlog"], None);
    assert!(stderr(ok(&out)).contains("warning"), "{}", stderr(&out));
    let elapsed = run(
        dir.path(),
        &["--summary=json", "--time", "elapsed", "m.eventlog"],
        None,
    );
    let s: Value = serde_json::from_slice(&ok(&elapsed).stdout).expect("JSON");
    assert!(
        (s["end"].as_f64().unwrap() - 0.4).abs() < 1e-9,
        "{}",
        s["end"]
    );

    // -hc: --full-names shows whole stacks, where the .hp's names are cut at -L.
    std::fs::write(
        dir.path().join("u.eventlog"),
        data("unicode-hc-L7.eventlog"),
    )
    .unwrap();
    let names = |args: &[&str]| -> Vec<String> {
        let out = run(dir.path(), args, None);
        let s: Value = serde_json::from_slice(&ok(&out).stdout).expect("JSON");
        s["top"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap().to_string())
            .collect()
    };
    let cut = names(&["--summary=json", "--top", "50", "u.eventlog"]);
    let full = names(&[
        "--summary=json",
        "--top",
        "50",
        "--full-names",
        "u.eventlog",
    ]);
    assert!(cut.iter().any(|n| n.contains("...")), "{cut:?}");
    assert!(!full.iter().any(|n| n.ends_with("...")), "{full:?}");
    let longest = |v: &[String]| v.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    assert!(longest(&full) > longest(&cut));
}

#[test]
fn heap_size_needs_an_eventlog() {
    let dir = TempDir::new("eventlog-heap-size");
    std::fs::write(dir.path().join("t.hp"), data("textproc-hT.hp")).unwrap();
    let out = run(dir.path(), &["--heap-size", "t.hp"], None);
    assert!(stderr(ok(&out)).contains("--heap-size needs an eventlog"));
}

#[test]
fn a_cut_log_keeps_its_complete_samples() {
    let dir = TempDir::new("eventlog-cut");
    let log = marked_run();
    // Cut inside the last census's events: the first two censuses stay.
    let cut = &log[..log.len() - 40];
    std::fs::write(dir.path().join("c.eventlog"), cut).unwrap();
    let out = run(dir.path(), &["--summary=json", "c.eventlog"], None);
    let err = stderr(ok(&out));
    assert!(err.contains("c.eventlog") && err.contains("byte"), "{err}");
    let s: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(s["samples"].as_u64().unwrap() >= 3, "{s}");
}
