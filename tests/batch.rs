//! Batch mode: several files render in parallel, each to the same bytes as a single-file
//! run; a bad file does not stop the others; failures are listed at the end.

mod support;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use support::run::Sink;
use support::{files_in, golden, Cmd, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn run(dir: &Path, args: &[&str]) -> Output {
    support::run_in(BIN, dir, args, None)
}

/// The chart and `.aux` a single-file run writes for `input` under `flags`.
fn single(input: &[u8], flags: &[&str], ext: &str) -> (Vec<u8>, Vec<u8>) {
    let dir = TempDir::new("batch-single");
    std::fs::write(dir.path().join("t.hp"), input).unwrap();
    let out = run(dir.path(), &[flags, &["t.hp"]].concat());
    assert!(out.status.success(), "{flags:?}: {out:?}");
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    (read(&format!("t.{ext}")), read("t.aux"))
}

const INPUTS: [&str; 6] = [
    "spec7-01-manpage.hp",
    "unicode-O0-hc.hp",
    "manycc-O0-hc.hp",
    "edge-marks.hp",
    "longnames-O0-hd.hp",
    "edge-truncated-mid-sample.hp",
];

#[test]
fn every_file_gets_the_same_bytes_as_a_single_run() {
    for (flags, ext) in [
        (&["-c"][..], "ps"),
        (&["-j2", "-m5", "-d"], "ps"),
        (&["-j", "3", "-e6in"], "ps"),
        (&["--format", "svg", "-i-"], "svg"),
        (&["--format=pdf", "-j1"], "pdf"),
    ] {
        let dir = TempDir::new("batch-same");
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        for (i, name) in INPUTS.iter().enumerate() {
            std::fs::write(dir.path().join(format!("in{i}.hp")), golden(name)).unwrap();
            args.push(format!("in{i}.hp"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(dir.path(), &args);
        assert!(out.status.success(), "{flags:?}: {out:?}");
        for (i, name) in INPUTS.iter().enumerate() {
            let (chart, aux) = single(&golden(name), flags, ext);
            let read = |f: String| std::fs::read(dir.path().join(f)).unwrap();
            assert!(read(format!("in{i}.{ext}")) == chart, "{name} {flags:?}");
            assert_eq!(read(format!("in{i}.aux")), aux, "{name} {flags:?}");
        }
        // Nothing but the outputs: no temporary files, no progress bar on a pipe.
        assert_eq!(files_in(dir.path()).len(), 3 * INPUTS.len(), "{flags:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.lines()
                .all(|l| l.starts_with("hp2ps: warning: in5.hp:")),
            "only the truncated file's warning on stderr: {err}"
        );
    }
}

#[test]
fn output_dir_puts_everything_there() {
    let dir = TempDir::new("batch-outdir");
    let sub = dir.path().join("profiles");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("a.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::write(sub.join("b.hp"), golden("unicode-O0-hc.hp")).unwrap();
    let out = run(
        dir.path(),
        &[
            "-c",
            "--output-dir",
            "out/charts",
            "profiles/a.hp",
            "profiles/b",
        ],
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(files_in(dir.path()), ["out", "profiles"]);
    let charts = dir.path().join("out/charts");
    assert_eq!(files_in(&charts), ["a.aux", "a.ps", "b.aux", "b.ps"]);
    let (chart, aux) = single(&golden("unicode-O0-hc.hp"), &["-c"], "ps");
    assert!(std::fs::read(charts.join("b.ps")).unwrap() == chart);
    assert_eq!(std::fs::read(charts.join("b.aux")).unwrap(), aux);
    // -p reads the .aux beside the output.
    let out = run(dir.path(), &["-p", "--output-dir=out/charts", "profiles/a"]);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn a_bad_file_does_not_stop_the_others_and_failures_are_listed_at_the_end() {
    let dir = TempDir::new("batch-fail");
    std::fs::write(dir.path().join("a.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::write(dir.path().join("b.hp"), "JOB 1\n").unwrap();
    std::fs::write(dir.path().join("d.hp"), golden("unicode-O0-hc.hp")).unwrap();
    std::fs::write(
        dir.path().join("e.hp"),
        golden("edge-truncated-mid-sample.hp"),
    )
    .unwrap();
    let out = run(dir.path(), &["-j2", "a.hp", "b.hp", "c.hp", "d", "e"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    for f in ["a.ps", "a.aux", "d.ps", "d.aux", "e.ps", "e.aux"] {
        assert!(dir.path().join(f).is_file(), "{f}");
    }
    assert!(!dir.path().join("b.ps").exists() && !dir.path().join("c.ps").exists());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(lines[0].starts_with("hp2ps: warning: e.hp:"), "{err}");
    assert!(lines[1].starts_with("hp2ps: b.hp:1:"), "{err}");
    assert!(lines[2].starts_with("hp2ps: cannot open c.hp"), "{err}");
    assert_eq!(lines[3], "hp2ps: 2 of 5 files failed");
    // All good: exit 0.
    let out = run(dir.path(), &["a.hp", "d.hp"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty() && out.stdout.is_empty());
}

/// Files that would write the same chart and `.aux` (`one/x.hp two/x.hp`, `x.hp
/// x.eventlog`, or into one `--output-dir`) are refused before anything is read, with a
/// hint (exit 2): the chart of one would silently replace the other's. The same file
/// named twice still renders.
#[test]
fn files_that_would_write_the_same_output_are_refused_before_rendering() {
    let dir = TempDir::new("batch-same-name");
    for (sub, name) in [("one", "spec7-01-manpage.hp"), ("two", "unicode-O0-hc.hp")] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join("x.hp"), golden(name)).unwrap();
    }
    let converted =
        support::eventlog::writer::convert_hp(&golden("unicode-O0-hc.hp"), &Default::default())
            .unwrap();
    std::fs::write(dir.path().join("one/x.eventlog"), converted.eventlog).unwrap();
    let before = files_in(dir.path());
    for args in [
        &["-j4", "one/x.hp", "two/x.hp"][..],
        &["one/x.hp", "one/x.eventlog"],
        &["--output-dir", "out", "one/x", "two/x.hp"],
        &["--format", "svg", "two/x.hp", "one/x.hp"],
    ] {
        let out = run(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(" would both write "), "{args:?}: {err}");
        assert!(err.contains("give each its own --output-dir"), "{err}");
        assert_eq!(err.lines().count(), 2, "the error and the hint: {err}");
        assert_eq!(files_in(dir.path()), before, "{args:?}: nothing written");
    }
    let out = run(dir.path(), &["one/x.hp", "./one/x.hp"]);
    assert!(out.status.success(), "{out:?}");
    let (chart, _) = single(&golden("spec7-01-manpage.hp"), &[], "ps");
    assert!(std::fs::read(dir.path().join("x.ps")).unwrap() == chart);
    // One directory each: both render.
    std::fs::remove_file(dir.path().join("x.ps")).unwrap();
    std::fs::remove_file(dir.path().join("x.aux")).unwrap();
    for (sub, name) in [("one", "spec7-01-manpage.hp"), ("two", "unicode-O0-hc.hp")] {
        let out = run(dir.path(), &["--output-dir", sub, &format!("{sub}/x.hp")]);
        assert!(out.status.success(), "{out:?}");
        let (chart, _) = single(&golden(name), &[], "ps");
        assert!(std::fs::read(dir.path().join(sub).join("x.ps")).unwrap() == chart);
    }
}

/// `-o` for a directory says what is wrong and what to write instead; an empty `-o` or
/// `--output-dir` is a usage error.
#[test]
fn o_naming_a_directory_or_nothing_is_a_usage_error_that_says_so() {
    let dir = TempDir::new("batch-o-dir");
    std::fs::write(dir.path().join("a.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    for (args, says) in [
        (&["-o", "d/", "a.hp"][..], "-o d/ names a directory"),
        (
            &["-o", "d", "a.hp"],
            "--output-dir d, or name a file in it (-o d/chart.ps)",
        ),
        (&["-o", ".", "a.hp"], "-o . names a directory"),
        (&["-o", "new/", "a.hp"], "--output-dir new"),
        (&["-o", "", "a.hp"], "an empty file name"),
        (
            &["--output-dir", "", "a.hp"],
            "--output-dir was given an empty name",
        ),
    ] {
        let out = run(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(files_in(dir.path()), ["a.hp", "d"], "{args:?}");
    }
}

#[test]
fn o_with_several_files_is_a_usage_error() {
    let dir = TempDir::new("batch-o");
    std::fs::write(dir.path().join("a.hp"), golden("spec7-01-manpage.hp")).unwrap();
    let out = run(dir.path(), &["-o", "x.ps", "a.hp", "a.hp"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(files_in(dir.path()), ["a.hp"]);
}

/// Kills the child on drop, so a failing assertion leaves no process behind.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo {}", path.display());
}

/// Opens the FIFO for writing if some process has it open for reading (a non-blocking
/// open fails with ENXIO otherwise), then makes the file blocking for the writes.
fn writer_if_read(path: &Path) -> Option<File> {
    use std::os::fd::AsRawFd;
    let f = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    // SAFETY: fcntl on a file descriptor we own.
    unsafe {
        let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    Some(f)
}

fn wait_for_reader(path: &Path, deadline: Instant, what: &str) -> File {
    loop {
        if let Some(f) = writer_if_read(path) {
            return f;
        }
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn feed(mut f: File, bytes: &[u8]) {
    f.write_all(bytes).expect("write fifo");
}

/// Two inputs are FIFOs that only this test writes. With -j2, hp2ps opens both before
/// either has data, which proves the renders run at the same time; with -j1 the second
/// is not opened until the first is done.
#[test]
fn files_render_in_parallel_up_to_j() {
    for jobs in ["-j2", "-j1"] {
        let dir = TempDir::new("batch-parallel");
        let (a, b) = (dir.path().join("a.hp"), dir.path().join("b.hp"));
        mkfifo(&a);
        mkfifo(&b);
        let child = Cmd::new(BIN)
            .args([jobs, "a.hp", "b.hp"])
            .current_dir(dir.path())
            .stdout(Sink::Null)
            .stderr(Sink::Null)
            .spawn();
        let mut child = Running(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        let (a_text, b_text) = (golden("spec7-01-manpage.hp"), golden("unicode-O0-hc.hp"));
        let wa = wait_for_reader(&a, deadline, "a.hp is never opened");
        if jobs == "-j2" {
            let wb = wait_for_reader(
                &b,
                deadline,
                "-j2: b.hp is not opened while a.hp waits for data: no parallelism",
            );
            // b first: its render does not wait for a's.
            feed(wb, &b_text);
            feed(wa, &a_text);
        } else {
            // One at a time: b.hp cannot be open while a.hp still waits.
            std::thread::sleep(Duration::from_millis(200));
            assert!(
                writer_if_read(&b).is_none(),
                "-j1 opened b.hp before a.hp was done"
            );
            feed(wa, &a_text);
            feed(
                wait_for_reader(&b, deadline, "-j1: b.hp is never opened"),
                &b_text,
            );
        }
        while child.0.try_wait().expect("wait").is_none() {
            assert!(Instant::now() < deadline, "{jobs}: hp2ps does not finish");
            std::thread::sleep(Duration::from_millis(10));
        }
        let status = child.0.wait().expect("status");
        assert!(status.success(), "{jobs}");
        let (chart, _) = single(&golden("unicode-O0-hc.hp"), &[], "ps");
        assert!(std::fs::read(dir.path().join("b.ps")).unwrap() == chart);
    }
}
