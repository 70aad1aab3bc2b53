//! `--serve`'s spool file (issue 39): a run read from a stream (a FIFO, stdin) is kept
//! in a named file of the directory `--spool` names (the temporary directory by
//! default), there to see while the run is served, its path and size said on stderr and
//! on the page (the size said is the file's); it is gone when hp2ps ends, by Ctrl-C, by
//! a second signal that ends the run at once, and, after an hp2ps killed outright, by
//! the next one that spools there. `--spool-max` caps it: the saved page says it covers
//! the run up to there, and the live page goes on.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::eventlog::writer::hp_to_eventlog;
use support::processes::page_makers;
use support::serve::{big_hp, log, mkfifo, Served};
use support::{Cmd, TempDir};

/// The spool files in `dir`.
fn spools(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = (std::fs::read_dir(dir).expect("the spool directory"))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("hp2ps-live-") && name.ends_with(".spool")
        })
        .collect();
    found.sort();
    found
}

/// Writes `bytes` into the FIFO at `path` (opened when hp2ps opens it), then closes it.
fn write_fifo(path: PathBuf, bytes: Vec<u8>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        use std::io::Write;
        let mut out = (std::fs::OpenOptions::new().write(true).open(path)).expect("open");
        out.write_all(&bytes).expect("write");
    })
}

/// The page's updates until the run has ended and its status says `kept_bytes`.
fn until_kept(served: &Served, kept_bytes: u64) -> Value {
    let updates = served.events().until(Duration::from_secs(60), |u| {
        u["status"]["state"] == "ended" && u["status"]["kept_bytes"].as_u64() == Some(kept_bytes)
    });
    updates.last().cloned().expect("an update")
}

/// `316.0 MB`, as hp2ps says sizes (in powers of 1000).
fn said_size(bytes: u64) -> String {
    let units = ["bytes", "kB", "MB", "GB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < units.len() {
        value /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} bytes"),
        _ => format!("{value:.1} {}", units[unit]),
    }
}

#[test]
fn the_spool_is_a_file_of_the_spool_directory_its_size_said_and_gone_at_the_end() {
    let dir = TempDir::new("serve-spool-visible");
    let spool_dir = dir.join("spool");
    std::fs::create_dir(&spool_dir).expect("mkdir");
    mkfifo(&dir.join("run.eventlog"));
    let bytes = log("leakmap-hc-flush.eventlog");
    let served = Served::start(
        dir.path(),
        &["run.eventlog", "--spool", "spool", "-o", "whole.html"],
    );
    let writer = write_fifo(dir.join("run.eventlog"), bytes.clone());
    let last = until_kept(&served, bytes.len() as u64);
    writer.join().expect("the writer");
    // Visible while the run is served: one file, of the run's bytes.
    let files = spools(&spool_dir);
    assert_eq!(files.len(), 1, "{files:?}");
    let spool = std::fs::canonicalize(&files[0]).expect("its path");
    let on_disk = std::fs::metadata(&spool).expect("the spool").len();
    assert_eq!(
        on_disk,
        bytes.len() as u64,
        "the spool holds the run's bytes"
    );
    assert_eq!(std::fs::read(&spool).expect("read"), bytes);
    // Said on the page and on stderr: where it is, and its size, which is the file's.
    let kept = last["status"]["kept"].as_str().expect("kept");
    let said = format!(
        "kept in the spool file {}: {}",
        spool.display(),
        said_size(on_disk)
    );
    assert!(kept.starts_with(&said), "{kept:?}, not {said:?}");
    assert_eq!(last["status"]["kept_bytes"].as_u64(), Some(on_disk));
    assert!(
        served.wait_stderr(
            &format!("run.eventlog: the run is {said}"),
            Duration::from_secs(10)
        ),
        "{}",
        served.stderr()
    );
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    assert!(
        spools(&spool_dir).is_empty(),
        "the spool is gone at the end"
    );
    assert!(
        stderr.contains(&format!("removed the spool file {}", spool.display())),
        "{stderr}"
    );
    let page = std::fs::read_to_string(dir.join("whole.html")).expect("-o");
    assert!(
        !page.contains("this page covers the run up to"),
        "not capped"
    );
}

/// Without `--spool`, the temporary directory (TMPDIR) holds it, named as well; stdin.
#[test]
fn the_spool_is_in_the_temporary_directory_by_default() {
    let dir = TempDir::new("serve-spool-tmpdir");
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    let bytes = log("leakmap-hc-flush.eventlog");
    std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
    let cmd = (Cmd::hp2ps().env("TMPDIR", &tmp)).stdin_file(dir.join("run.eventlog"));
    let served = Served::started(cmd, dir.path(), &["-"]);
    until_kept(&served, bytes.len() as u64);
    let files = spools(&tmp);
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(served.stderr().contains(&files[0].display().to_string()));
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    assert!(spools(&tmp).is_empty(), "the spool is gone at the end");
}

/// A second signal while the end's page is made ends the run at once, by the signal:
/// the spool goes with the other temporaries (`run/cleanup.rs`'s list). A first one
/// (SIGTERM, as a service manager stops it) ends it gently, the spool gone too.
#[test]
fn a_signal_that_ends_the_run_removes_the_spool() {
    use std::os::unix::process::ExitStatusExt;
    let bytes = hp_to_eventlog(&big_hp(60, 6000, 100).concat()).expect("an eventlog");
    let started = |name: &str| {
        let dir = TempDir::new(name);
        let spool_dir = dir.join("spool");
        std::fs::create_dir(&spool_dir).expect("mkdir");
        std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
        let cmd = Cmd::hp2ps().stdin_file(dir.join("run.eventlog"));
        let args = ["-", "--spool", "spool", "-o", "whole.html"];
        let served = Served::started(cmd, dir.path(), &args);
        let until = Instant::now() + Duration::from_secs(60);
        while page_makers(served.pid()).is_empty() {
            assert!(Instant::now() < until, "no child made the end's page");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(spools(&spool_dir).len(), 1, "the spool while served");
        (dir, spool_dir, served)
    };
    let (_dir, spool_dir, served) = started("serve-spool-term");
    served.send(libc::SIGTERM);
    let (status, stderr) = served.exited();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(
        spools(&spool_dir).is_empty(),
        "gone after SIGTERM: {stderr}"
    );
    // The second signal must come while the end's page is being made: up to three tries.
    let mut ends = Vec::new();
    for attempt in 0..3 {
        let (_dir, spool_dir, served) = started(&format!("serve-spool-second-{attempt}"));
        served.send(libc::SIGINT);
        std::thread::sleep(Duration::from_millis(5));
        served.send(libc::SIGTERM);
        let (status, stderr) = served.exited();
        assert!(
            spools(&spool_dir).is_empty(),
            "gone after {status:?}: {stderr}"
        );
        ends.push(status);
        if status.signal() == Some(libc::SIGTERM) {
            return;
        }
    }
    panic!("a second signal never ended the run at once: {ends:?}");
}

/// An hp2ps killed outright (SIGKILL) cannot remove its spool: the next one that spools
/// into the same directory removes it, and says so; its own stays while it runs.
#[test]
fn the_spool_of_a_killed_hp2ps_is_removed_by_the_next() {
    let dir = TempDir::new("serve-spool-killed");
    let spool_dir = dir.join("spool");
    std::fs::create_dir(&spool_dir).expect("mkdir");
    let bytes = log("leakmap-hc-flush.eventlog");
    std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
    let start = || {
        let cmd = Cmd::hp2ps().stdin_file(dir.join("run.eventlog"));
        Served::started(cmd, dir.path(), &["-", "--spool", "spool"])
    };
    let first = start();
    until_kept(&first, bytes.len() as u64);
    let left = spools(&spool_dir);
    assert_eq!(left.len(), 1, "{left:?}");
    first.send(libc::SIGKILL);
    let (status, _) = first.exited();
    assert!(!status.success());
    assert_eq!(spools(&spool_dir), left, "a killed hp2ps leaves its spool");
    let second = start();
    until_kept(&second, bytes.len() as u64);
    let now = spools(&spool_dir);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(
        now, left,
        "the killed one's spool is gone, the new one's there"
    );
    let said = format!("removed {}", left[0].display());
    assert!(
        second.stderr().contains(&said) && second.stderr().contains("killed"),
        "{}",
        second.stderr()
    );
    let (status, stderr) = second.interrupt();
    assert!(status.success(), "{stderr}");
    assert!(spools(&spool_dir).is_empty());
}

/// `--spool-max` caps the spool: the file is never larger, the cap is said on stderr
/// and on the page, the live page follows the whole run to its end (the end's page,
/// cut at the cap, is not its last state), and the saved page and `-o` cover the run up
/// to the cap and say so.
#[test]
fn the_spool_stops_at_its_cap_and_the_saved_page_says_so() {
    let dir = TempDir::new("serve-spool-max");
    let spool_dir = dir.join("spool");
    std::fs::create_dir(&spool_dir).expect("mkdir");
    mkfifo(&dir.join("run.eventlog"));
    let bytes = log("leakmap-hc-flush.eventlog");
    let cap = bytes.len() as u64 / 2;
    let served = Served::start(
        dir.path(),
        &[
            "run.eventlog",
            "--spool",
            "spool",
            "--spool-max",
            &format!("{cap}"),
            "-o",
            "whole.html",
        ],
    );
    let writer = write_fifo(dir.join("run.eventlog"), bytes.clone());
    let last = until_kept(&served, cap);
    writer.join().expect("the writer");
    let files = spools(&spool_dir);
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(std::fs::metadata(&files[0]).expect("the spool").len(), cap);
    assert_eq!(
        std::fs::read(&files[0]).expect("read"),
        &bytes[..cap as usize]
    );
    // The live page went on to the run's end.
    let censuses = last["status"]["censuses"].as_u64().expect("censuses");
    let kept = last["status"]["kept"].as_str().expect("kept");
    assert!(
        kept.contains("its cap (--spool-max), reached after census"),
        "{kept}"
    );
    assert!(
        served
            .stderr()
            .contains("the spool file reached --spool-max after census"),
        "{}",
        served.stderr()
    );
    // The end's page is of the run up to the cap: written to -o and said so, but the
    // live page keeps the whole run (it showed the cut page at its end before).
    assert!(
        served.wait_stderr(
            "wrote whole.html (the run up to --spool-max)",
            Duration::from_secs(60)
        ),
        "{}",
        served.stderr()
    );
    let note = "this page covers the run up to ";
    let written = std::fs::read_to_string(dir.join("whole.html")).expect("-o");
    assert!(written.contains(note), "-o says where it stops");
    let newest = served
        .events()
        .next(Duration::from_secs(30))
        .expect("a state");
    assert!(!newest.to_string().contains(note), "the live page went on");
    assert_eq!(newest["status"]["censuses"].as_u64(), Some(censuses));
    // The saved page: the run up to the cap, said.
    let (code, page) = served.get(&format!("/{}/save", served.token));
    let page = String::from_utf8_lossy(&page);
    assert_eq!(code, 200, "{page}");
    let at = page
        .find(note)
        .unwrap_or_else(|| panic!("no note in the page"));
    let said = &page[at..page.len().min(at + 200)];
    assert!(said.contains("(--spool-max)"), "{said}");
    let covered: u64 = (said.split(" censuses)").next())
        .and_then(|s| s.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no census count in {said:?}"));
    assert!(covered > 0 && covered < censuses, "{covered} of {censuses}");
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    assert!(spools(&spool_dir).is_empty());
}
