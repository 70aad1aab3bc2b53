//! `--serve`'s whole run's page made from a map of the run's record (issue 39), over
//! plain HTTP (`support::serve`): on Linux the child (`--serve-whole-run`) maps the
//! followed file or the spool itself (its `/proc/PID/maps` lists it while it works) and
//! makes the page as `--format html` makes it of a mapped file, in parts, the page the
//! same byte for byte; it reads the run's first bytes only, however much the file grew
//! since (`--serve-whole-run-bytes`), the same as a pipe of them; a followed file
//! written again in place is still refused, the next run's bytes never made a page.

mod support;

use std::time::Duration;

use support::eventlog::writer::hp_to_eventlog;
use support::processes::page_makers;
use support::serve::{big_hp, mkfifo, static_page, Served};
use support::{Cmd, TempDir};

/// Whether process `pid` maps a file whose path `named` accepts.
fn maps_file(pid: u32, named: &dyn Fn(&str) -> bool) -> bool {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    maps.lines()
        .filter_map(|line| line.split_whitespace().nth(5))
        .any(named)
}

/// Runs `during` while watching the children of `served` that make the whole run's
/// page: what it gave, and whether a child was seen mapping a file `named` accepts.
fn watched<T: Send>(
    served: &Served,
    named: &(dyn Fn(&str) -> bool + Sync),
    during: impl FnOnce() -> T + Send,
) -> (T, bool) {
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let mut seen = false;
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                seen |= page_makers(served.pid())
                    .into_iter()
                    .any(|child| maps_file(child, named));
                std::thread::sleep(Duration::from_millis(1));
            }
            seen
        });
        let out = during();
        done.store(true, std::sync::atomic::Ordering::Release);
        (out, watcher.join().expect("the watcher"))
    })
}

/// A run of 60 bands and 4,000 censuses (6 MB as `.hp`): big enough to be mapped (1 MiB
/// at least) and to keep the child at work a while.
fn big_run() -> Vec<u8> {
    big_hp(60, 4000, 100).concat()
}

/// The followed file's run: the child maps the file itself, and its page (saved, and
/// `-o` at Ctrl-C) is `--format html`'s of the same bytes.
#[test]
fn the_child_maps_a_followed_file_and_makes_format_htmls_page() {
    let dir = TempDir::new("serve-map-file");
    let bytes = big_run();
    let reference = static_page(&bytes, "run.hp");
    std::fs::write(dir.join("run.hp"), &bytes).expect("write");
    let served = Served::start(dir.path(), &["run.hp", "-o", "whole.html"]);
    served.events().until(Duration::from_secs(60), |u| {
        u["status"]["censuses"].as_u64() == Some(4000)
    });
    let path = std::fs::canonicalize(dir.join("run.hp")).expect("the path");
    let path = path.to_str().expect("UTF-8").to_string();
    let ((code, saved), mapped) = watched(&served, &|file| file == path, || {
        served.get(&format!("/{}/save", served.token))
    });
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&saved));
    assert!(mapped, "the child mapped {path}");
    assert!(saved == reference, "the save is --format html's page");
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    let whole = std::fs::read(dir.join("whole.html")).expect("-o");
    assert!(whole == reference, "-o is --format html's page");
}

/// A FIFO's run, `.hp` and eventlog: the child maps the spool file, and its page (the
/// run's end's, `-o`) is `--format html`'s of the same bytes.
#[test]
fn the_child_maps_a_fifos_spool_and_makes_format_htmls_page() {
    let hp = big_run();
    let eventlog = hp_to_eventlog(&hp).expect("an eventlog");
    for (name, bytes) in [("run.hp", hp), ("run.eventlog", eventlog)] {
        let dir = TempDir::new("serve-map-fifo");
        let reference = static_page(&bytes, name);
        std::fs::create_dir(dir.join("spool")).expect("mkdir");
        mkfifo(&dir.join(name));
        let args = [name, "-o", "whole.html", "--spool", "spool"];
        let served = Served::start(dir.path(), &args);
        let spool = std::fs::canonicalize(dir.join("spool")).expect("the spool directory");
        let spool = format!("{}/hp2ps-live-", spool.display());
        // The run written, then its end's page made (for -o), watched.
        let (wrote, mapped) = watched(&served, &|file| file.starts_with(&spool), || {
            std::fs::write(dir.join(name), &bytes).expect("write the FIFO");
            served.wait_stderr("wrote whole.html", Duration::from_secs(120))
        });
        assert!(wrote, "{name}: {}", served.stderr());
        assert!(mapped, "{name}: the child mapped the spool");
        // The same page for the save (the record unchanged: no child again).
        let (code, saved) = served.get(&format!("/{}/save", served.token));
        assert_eq!(code, 200, "{name}: {}", String::from_utf8_lossy(&saved));
        assert!(
            saved == reference,
            "{name}: the save is --format html's page"
        );
        let whole = std::fs::read(dir.join("whole.html")).expect("-o");
        assert!(whole == reference, "{name}: -o is --format html's page");
        let (status, stderr) = served.interrupt();
        assert!(status.success(), "{name}: {stderr}");
    }
}

/// The child given a file and a length (`--serve-whole-run-bytes`) reads those first
/// bytes only, however long the file is: its page is the one it makes of a pipe of just
/// them (the way it always read), mapped or not (`HP2PS_NO_MMAP=1`: the file read as a
/// stream), `--spool-max`'s note included.
#[test]
fn the_child_reads_exactly_the_runs_bytes_of_a_file_that_grew() {
    let dir = TempDir::new("serve-map-prefix");
    let bytes = big_run();
    // The run so far: its first 3,000 censuses (4.7 MB); the file holds 4,000.
    let end = find(&bytes, b"BEGIN_SAMPLE 300.00\n").expect("census 3,000");
    assert!(end > 1 << 20, "big enough to be mapped");
    std::fs::write(dir.join("run.hp"), &bytes).expect("write");
    let child = |stdin: Cmd, extra: &[String], no_mmap: &str| {
        let ran = stdin
            .args(["--serve", "run.hp", "--serve-whole-run"])
            .args(extra)
            .env("HP2PS_NO_MMAP", no_mmap)
            .current_dir(dir.path())
            .timeout(Duration::from_secs(120))
            .run();
        assert!(ran.status.success(), "{}", ran.describe());
        ran.stdout
    };
    let piped = || Cmd::hp2ps().stdin_bytes(&bytes[..end]);
    let file = || Cmd::hp2ps().stdin_file(dir.join("run.hp"));
    for cap in [
        &[][..],
        &["--serve-whole-run-capped", "--spool-max", "4M"][..],
    ] {
        let cap: Vec<String> = cap.iter().map(|s| s.to_string()).collect();
        let so_far = child(piped(), &cap, "0");
        let given = [cap.clone(), vec![format!("--serve-whole-run-bytes={end}")]].concat();
        let mapped = child(file(), &given, "0");
        let streamed = child(file(), &given, "1");
        let page = String::from_utf8_lossy(&so_far);
        assert!(
            cap.is_empty()
                || page
                    .contains("this page covers the run up to 299.9 seconds (3000 censuses) only"),
            "the cap's note"
        );
        assert!(
            mapped == so_far,
            "{cap:?}: mapped, the page of the run's bytes"
        );
        assert!(
            streamed == so_far,
            "{cap:?}: streamed, the page of the run's bytes"
        );
        // Not the page of the whole file.
        assert!(
            child(file(), &cap, "0") != so_far,
            "{cap:?}: the whole file's differs"
        );
    }
}

/// A followed file written again in place (the next run's bytes over the first's, as
/// long: no cut the follower sees) is refused with the reason, not made a page of.
#[test]
fn a_followed_file_written_again_in_place_is_refused() {
    use std::os::unix::fs::FileExt;
    let dir = TempDir::new("serve-map-rewritten");
    let bytes = big_run();
    std::fs::write(dir.join("run.hp"), &bytes).expect("write");
    let served = Served::start(dir.path(), &["run.hp"]);
    served.events().until(Duration::from_secs(60), |u| {
        u["status"]["censuses"].as_u64() == Some(4000)
    });
    // The next run's first bytes over the first's (before any page of the run was
    // made: one made before is kept, for the record is as long as it was).
    let next = b"JOB \"gib\"\nDATE \"yadot\"\n";
    assert_eq!(&bytes[..next.len()], b"JOB \"big\"\nDATE \"today\"\n");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("run.hp"))
        .expect("open");
    file.write_all_at(next, 0).expect("write in place");
    let (code, said) = served.get(&format!("/{}/save", served.token));
    let said = String::from_utf8_lossy(&said);
    assert_eq!(code, 500, "{said}");
    assert!(
        said.contains("run.hp was written again from its start (a new run)"),
        "{said}"
    );
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
