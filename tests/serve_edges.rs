//! `hp2ps --serve`'s edges (`support::serve`): what it waits for is said once, in the
//! words of what is there; the event stream carries the headers of every answer; an
//! `-o` that is the input is refused; the whole run's page is made in one place:
//! several saves at once wait for one child, and Ctrl-C right after the run's end, or
//! a terminal's while the end's page is being made, still writes `-o`; a hang-up writes
//! `-o` as Ctrl-C does, and a second Ctrl-C ends the run at once, leaving no temporary.

mod support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use support::eventlog::writer::hp_to_eventlog;
use support::html_page::repo;
use support::serve::{big_hp, Served};
use support::{Cmd, TempDir};

fn log(name: &str) -> Vec<u8> {
    std::fs::read(repo(&format!("tests/data/ghc-9.10/{name}"))).expect("a test log")
}

#[test]
fn what_is_waited_for_is_said_once() {
    let dir = TempDir::new("serve-said-once");
    std::fs::create_dir(dir.join("run.eventlog")).expect("a directory");
    let served = Served::start(dir.path(), &["run.eventlog"]);
    let said = "hp2ps: run.eventlog is a directory: waiting for a file or a FIFO there";
    assert!(
        served.wait_stderr(said, Duration::from_secs(20)),
        "{}",
        served.stderr()
    );
    // Looked at again every second meanwhile.
    std::thread::sleep(Duration::from_millis(2500));
    let stderr = served.stderr();
    assert_eq!(stderr.matches(said).count(), 1, "{stderr}");
    // Something else there is news.
    std::fs::remove_dir(dir.join("run.eventlog")).expect("rmdir");
    let missing = "run.eventlog does not exist yet: waiting for the program to write it";
    assert!(
        served.wait_stderr(missing, Duration::from_secs(20)),
        "{}",
        served.stderr()
    );
}

#[test]
fn the_event_stream_carries_the_headers_of_every_answer() {
    let dir = TempDir::new("serve-stream-head");
    let served = Served::start(dir.path(), &["not-yet.eventlog"]);
    let stream = served.stream_head(&format!("/{}/events", served.token));
    let page = served.stream_head(&format!("/{}/", served.token));
    assert!(page.starts_with("HTTP/1.1 200 "), "{page}");
    assert!(stream.starts_with("HTTP/1.1 200 OK\r\n"), "{stream}");
    assert!(
        stream
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{stream}"
    );
    // Header names are not case-sensitive (hyper writes them in lower case).
    let (page, stream) = (page.to_ascii_lowercase(), stream.to_ascii_lowercase());
    for header in [
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        "X-Frame-Options: DENY",
        "Referrer-Policy: no-referrer",
        "Content-Security-Policy: default-src 'none'",
    ] {
        let header = header.to_ascii_lowercase();
        assert!(page.contains(&header), "the page: {header} in {page}");
        assert!(stream.contains(&header), "the stream: {header} in {stream}");
    }
    assert!(page.contains("frame-ancestors 'none'"), "{page}");
}

#[test]
fn an_output_that_is_the_input_is_refused() {
    let dir = TempDir::new("serve-o-is-input");
    let bytes = log("leakmap-hc-flush.eventlog");
    std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
    for args in [
        &["-o", "run.eventlog", "run.eventlog"][..],
        &["-o", "./run.eventlog", "run.eventlog"],
        &["-o", "run.eventlog", "unix:run.eventlog"],
    ] {
        let ran = Cmd::hp2ps()
            .args(["--serve", "--format", "html"])
            .args(args)
            .current_dir(dir.path())
            .timeout(Duration::from_secs(20))
            .run();
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        let err = ran.stderr_text();
        assert!(err.contains("is the input profile"), "{args:?}: {err}");
        assert!(
            std::fs::read(dir.join("run.eventlog")).expect("the input") == bytes,
            "{args:?}: the input is untouched"
        );
    }
}

/// The ids of the children of `parent` that make a whole run's page now.
fn page_makers(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        // The parent is the fourth field of stat, after the name in parentheses.
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let ppid = (stat.rsplit_once(')').map(|(_, rest)| rest))
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let making = cmdline
            .split(|&b| b == 0)
            .any(|a| a == b"--serve-whole-run");
        if ppid == Some(parent) && making {
            found.push(pid);
        }
    }
    found
}

#[test]
fn saves_at_once_wait_for_one_child() {
    let dir = TempDir::new("serve-saves");
    // Big enough that its page takes the child a while.
    let pieces = big_hp(60, 3000, 100);
    let samples = 3000;
    std::fs::write(dir.join("big.hp"), pieces.concat()).expect("write");
    let served = Served::start(dir.path(), &["big.hp"]);
    served.events().until(Duration::from_secs(60), |u| {
        u["status"]["censuses"].as_u64() == Some(samples)
    });
    let pid = served.pid();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = std::thread::spawn({
        let done = std::sync::Arc::clone(&done);
        move || {
            let (mut most, mut seen) = (0, HashSet::new());
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                let now = page_makers(pid);
                most = most.max(now.len());
                seen.extend(now);
                std::thread::sleep(Duration::from_millis(1));
            }
            (most, seen.len())
        }
    });
    let start = Instant::now();
    let saves: Vec<(u16, Vec<u8>)> = std::thread::scope(|scope| {
        let asked: Vec<_> = (0..8)
            .map(|_| scope.spawn(|| served.get(&format!("/{}/save", served.token))))
            .collect();
        asked
            .into_iter()
            .map(|a| a.join().expect("a save"))
            .collect()
    });
    done.store(true, std::sync::atomic::Ordering::Release);
    let (most, children) = watcher.join().expect("the watcher");
    for (code, page) in &saves {
        assert_eq!(*code, 200, "{}", String::from_utf8_lossy(page));
        assert!(page == &saves[0].1, "every save gives the same page");
    }
    assert!(
        String::from_utf8_lossy(&saves[0].1).contains("</html>"),
        "a whole page"
    );
    assert!(children >= 1, "the child was seen ({:?})", start.elapsed());
    assert_eq!(most, 1, "one child at a time");
    assert_eq!(children, 1, "one child for the unchanged record");
}

/// A big generated eventlog as `run.eventlog` in `dir`, followed with `-o whole.html`,
/// and the page `--format html --time elapsed` writes of it.
fn served_big_log(dir: &TempDir) -> (Served, Vec<u8>) {
    // Big enough that the end's page takes the child a while.
    let hp = big_hp(60, 3000, 100).concat();
    let bytes = hp_to_eventlog(&hp).expect("an eventlog");
    std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
    let ran = Cmd::hp2ps()
        .args(["--format", "html", "--time", "elapsed", "-o", "ref.html"])
        .arg("run.eventlog")
        .current_dir(dir.path())
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    let reference = std::fs::read(dir.join("ref.html")).expect("the page");
    let served = Served::start(dir.path(), &["run.eventlog", "-o", "whole.html"]);
    (served, reference)
}

/// After Ctrl-C: it exited 0 and wrote `-o`, `--format html`'s page.
fn wrote_the_output(
    dir: &TempDir,
    (status, stderr): (std::process::ExitStatus, String),
    reference: &[u8],
) {
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("wrote whole.html"), "{stderr}");
    assert!(!stderr.contains("cannot be read again"), "{stderr}");
    let whole = std::fs::read(dir.join("whole.html")).expect("-o is written");
    assert!(whole == reference, "-o is --format html's page");
}

#[test]
fn ctrl_c_right_after_the_end_still_writes_the_output() {
    let dir = TempDir::new("serve-end-ctrl-c");
    let (served, reference) = served_big_log(&dir);
    assert!(
        served.wait_stderr("the program ended", Duration::from_secs(30)),
        "{}",
        served.stderr()
    );
    // At once: the end's page is being made, or not yet begun.
    wrote_the_output(&dir, served.interrupt(), &reference);
}

#[test]
fn ctrl_c_from_the_terminal_while_the_end_is_made_writes_the_output() {
    let dir = TempDir::new("serve-end-ctrl-c-group");
    let (served, reference) = served_big_log(&dir);
    let until = Instant::now() + Duration::from_secs(30);
    while page_makers(served.pid()).is_empty() {
        assert!(Instant::now() < until, "no child made the end's page");
        std::thread::sleep(Duration::from_millis(1));
    }
    // The terminal's Ctrl-C reaches the whole group: the child making the page too.
    wrote_the_output(&dir, served.interrupt_group(), &reference);
}

#[test]
fn a_hang_up_or_another_ending_signal_writes_the_run_so_far() {
    // HUP (a closed terminal), QUIT (Ctrl-\\), USR1, ALRM: each ends the run as Ctrl-C
    // does (QUIT, USR1 and ALRM killed it before, -o unwritten).
    for signal in [libc::SIGHUP, libc::SIGQUIT, libc::SIGUSR1, libc::SIGALRM] {
        let dir = TempDir::new("serve-hup");
        // A .hp never says the program ended: only the signal writes -o.
        std::fs::write(dir.join("run.hp"), big_hp(5, 50, 10).concat()).expect("write");
        let served = Served::start(dir.path(), &["run.hp", "-o", "so-far.html"]);
        served.events().until(Duration::from_secs(30), |u| {
            u["status"]["censuses"].as_u64() == Some(50)
        });
        served.send(signal);
        let (status, stderr) = served.exited();
        assert!(status.success(), "signal {signal}: {status:?}: {stderr}");
        assert!(
            stderr.contains("wrote so-far.html (the run so far)"),
            "{stderr}"
        );
        let page = std::fs::read(dir.join("so-far.html")).expect("-o");
        assert!(String::from_utf8_lossy(&page).contains("</html>"), "a page");
    }
}

#[test]
fn a_second_ctrl_c_ends_the_run_at_once() {
    use std::os::unix::process::ExitStatusExt;
    let hp = big_hp(60, 6000, 100).concat();
    let bytes = hp_to_eventlog(&hp).expect("an eventlog");
    // The second signal must come while the end's page is being made: a loaded machine
    // may finish it in between, so up to three tries (each one said below).
    let mut ends = Vec::new();
    for attempt in 0..3 {
        let dir = TempDir::new(&format!("serve-second-ctrl-c-{attempt}"));
        std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
        let served = Served::start(dir.path(), &["run.eventlog", "-o", "whole.html"]);
        let until = Instant::now() + Duration::from_secs(30);
        while page_makers(served.pid()).is_empty() {
            assert!(Instant::now() < until, "no child made the end's page");
            std::thread::sleep(Duration::from_millis(1));
        }
        // The first waits for the end's page; the second does not.
        served.send(libc::SIGINT);
        std::thread::sleep(Duration::from_millis(5));
        let child_ran = !page_makers(served.pid()).is_empty();
        served.send(libc::SIGINT);
        let (status, stderr) = served.exited();
        let left: Vec<String> = (std::fs::read_dir(dir.path()).expect("the directory"))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
        eprintln!("try {attempt}: the child ran at the second signal: {child_ran}, {status:?}");
        ends.push((status.signal(), stderr));
        if child_ran && status.signal() == Some(libc::SIGINT) {
            return;
        }
    }
    panic!("a second SIGINT never ended the run at once: {ends:?}");
}

/// The whole run's page (save, the end, `-o`) is made by this program run again: a
/// binary deleted and replaced during the run (an upgrade, a `cargo build`) is still the
/// one that runs (save answered 500 and Ctrl-C exited 1 with no -o when it was run
/// again by its path).
#[test]
fn the_whole_runs_page_never_depends_on_the_binarys_path() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("serve-binary-gone");
    let exe = dir.join("hp2ps-copy");
    std::fs::copy(support::run::hp2ps_binary(), &exe).expect("a copy of the binary");
    std::fs::write(dir.join("run.hp"), big_hp(5, 50, 10).concat()).expect("write");
    let served = Served::started(Cmd::new(&exe), dir.path(), &["run.hp", "-o", "so-far.html"]);
    served.events().until(Duration::from_secs(30), |u| {
        u["status"]["censuses"].as_u64() == Some(50)
    });
    // The binary gone, and another program where it was.
    std::fs::remove_file(&exe).expect("remove");
    std::fs::write(&exe, "#!/bin/sh\necho 'not hp2ps' >&2\nexit 3\n").expect("write");
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let (code, page) = served.get(&format!("/{}/save", served.token));
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&page));
    assert!(String::from_utf8_lossy(&page).contains("</html>"), "a page");
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    let written = std::fs::read(dir.join("so-far.html")).expect("-o");
    assert!(written == page, "-o is the page saved");
}

/// A `.hp` of `samples` samples of one band named `band`.
fn hp_of(band: &str, samples: usize) -> String {
    let mut hp =
        String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for s in 0..samples {
        let t = s as f64 * 0.1;
        hp.push_str(&format!(
            "BEGIN_SAMPLE {t:.2}\n{band} {}\nEND_SAMPLE {t:.2}\n",
            1000 + s
        ));
    }
    hp
}

/// Each run has its own record, chosen when it starts (issue 35 S6): a file renamed over
/// the one followed is the next run, and the first run's page is still of its own bytes
/// (it was made of the new file's); a FIFO put where the file was is spooled as a FIFO
/// is ("1:1: end of file, expected a JOB line" before: the record was still the path).
#[test]
fn each_run_is_kept_apart_from_the_next() {
    let dir = TempDir::new("serve-records");
    std::fs::write(dir.join("run.hp"), hp_of("first_run_band", 40)).expect("write");
    let served = Served::start(dir.path(), &["run.hp", "-o", "whole.html"]);
    served.events().until(Duration::from_secs(30), |u| {
        u["status"]["censuses"].as_u64() == Some(40)
    });
    // Another file renamed over it: a new run.
    std::fs::write(dir.join("next.hp"), hp_of("second_run_band", 20)).expect("write");
    std::fs::rename(dir.join("next.hp"), dir.join("run.hp")).expect("rename");
    assert!(
        served.wait_stderr(
            "run.hp: the run's end (40 censuses): wrote whole.html",
            Duration::from_secs(30)
        ),
        "{}",
        served.stderr()
    );
    let first =
        String::from_utf8(std::fs::read(dir.join("whole.html")).expect("-o")).expect("UTF-8");
    assert!(
        first.contains("first_run_band") && !first.contains("second_run_band"),
        "run 1's -o is run 1's"
    );
    served.events().until(Duration::from_secs(30), |u| {
        u["status"]["run"] == 2 && u["status"]["censuses"].as_u64() == Some(20)
    });
    // Then a FIFO where the file was, and a third run written into it.
    std::fs::remove_file(dir.join("run.hp")).expect("remove");
    support::serve::mkfifo(&dir.join("run.hp"));
    let fifo = dir.join("run.hp");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open");
        out.write_all(hp_of("third_run_band", 30).as_bytes())
            .expect("write");
    });
    served.events().until(Duration::from_secs(30), |u| {
        u["status"]["run"] == 3 && u["status"]["state"] == "closed"
    });
    writer.join().expect("the writer");
    let (code, page) = served.get(&format!("/{}/save", served.token));
    let page = String::from_utf8_lossy(&page);
    assert_eq!(code, 200, "{page}");
    assert!(page.contains("third_run_band") && !page.contains("second_run_band"));
    assert!(
        !served.stderr().contains("expected a JOB line"),
        "{}",
        served.stderr()
    );
}

/// A spool that runs out of room (a 64 KiB tmpfs as TMPDIR) says so: the save's error
/// and Ctrl-C's are the system's ("No space left on device"), not the child's "end of
/// file" of a record it could not read. Needs root for the mount; skips loudly without.
#[test]
fn a_spool_out_of_room_says_so() {
    let dir = TempDir::new("serve-enospc");
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    let mounted = Cmd::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&tmp)
        .try_run()
        .is_ok_and(|r| r.status.success());
    if !mounted {
        assert!(
            std::env::var_os("CI").is_none(),
            "cannot mount a tmpfs under CI"
        );
        eprintln!("SKIPPED: cannot mount a tmpfs (needs root)");
        return;
    }
    struct Unmount(std::path::PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = Cmd::new("umount").arg(&self.0).try_run();
        }
    }
    let _unmount = Unmount(tmp.clone());
    support::serve::mkfifo(&dir.join("run.hp"));
    let served = Served::started(
        Cmd::hp2ps().env("TMPDIR", &tmp),
        dir.path(),
        &["run.hp", "-o", "whole.html"],
    );
    let fifo = dir.join("run.hp");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open");
        // hp2ps may be gone before all is written (the test's Ctrl-C).
        let _ = out.write_all(&big_hp(20, 400, 50).concat());
        // The program runs on.
        std::thread::sleep(Duration::from_secs(3));
    });
    assert!(
        served.wait_stderr("No space left on device", Duration::from_secs(30)),
        "{}",
        served.stderr()
    );
    let (code, body) = served.get(&format!("/{}/save", served.token));
    let body = String::from_utf8_lossy(&body);
    assert_eq!(code, 500, "{body}");
    assert!(body.contains("No space left on device"), "{body}");
    let (status, stderr) = served.interrupt();
    writer.join().expect("the writer");
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(!stderr.contains("expected a JOB line"), "{stderr}");
}

/// An `-o` that cannot be written is said at the start, exit 1 (it was found only at
/// the run's end: a day's run lost its page).
#[test]
fn an_unwritable_output_is_found_at_the_start() {
    let dir = TempDir::new("serve-o-unwritable");
    let ran = Cmd::hp2ps()
        .args(["--serve", "-o", "no-such-dir/whole.html", "run.eventlog"])
        .current_dir(dir.path())
        .timeout(Duration::from_secs(20))
        .run();
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let err = ran.stderr_text();
    assert!(
        err.contains("cannot write no-such-dir/whole.html") && !err.contains("serving"),
        "{err}"
    );
}

/// A new hp2ps after one that stopped: eventlog-socket's socket takes it (the header to
/// every client: it follows the rest of the run), while a FIFO whose writer is mid-run
/// cannot be joined (a program writes its header once), and that is said, with what to
/// do instead (it was "1:1: ..., expected a JOB line").
#[test]
fn a_new_hp2ps_joins_a_socket_and_says_why_a_fifo_cannot_be() {
    use support::replay::{self, Pace};
    use support::serve::{eventlog_socket, mkfifo, Wait};
    let bytes = log("leakmap-hc-flush.eventlog");
    // The socket: the first hp2ps stops mid-run, a second one follows the rest.
    let dir = TempDir::new("serve-rejoin-socket");
    let sock = dir.join("ghc.sock");
    let server = eventlog_socket(&sock, bytes.clone(), 0.5, Wait::First);
    let name = format!("unix:{}", sock.display());
    let first = Served::start(dir.path(), &[&name]);
    first
        .events()
        .until(Duration::from_secs(30), |u| u["status"]["state"] == "live");
    let (status, _) = first.interrupt();
    assert!(status.success());
    let second = Served::start(dir.path(), &[&name]);
    assert!(
        second.wait_stderr("ghc.sock: the program ended (", Duration::from_secs(60)),
        "the second hp2ps followed the rest of the run: {}",
        second.stderr()
    );
    drop(server);
    // The FIFO: the second hp2ps hears the run from its middle.
    let dir = TempDir::new("serve-rejoin-fifo");
    mkfifo(&dir.join("run.eventlog"));
    let first = Served::start(dir.path(), &["run.eventlog"]);
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("run.eventlog"))
        .expect("open");
    let p = replay::pieces(&bytes, Pace::Blocks);
    let half = p.blocks[p.blocks.len() / 2].0;
    use std::io::Write;
    out.write_all(&bytes[..half]).expect("write");
    first
        .events()
        .until(Duration::from_secs(30), |u| u["status"]["state"] == "live");
    let (status, _) = first.interrupt();
    assert!(status.success());
    let second = Served::start(dir.path(), &["run.eventlog"]);
    assert!(
        second.wait_stderr(
            "waiting for a program to write into the FIFO",
            Duration::from_secs(10)
        ),
        "{}",
        second.stderr()
    );
    let _ = out.write_all(&bytes[half..]);
    assert!(
        second.wait_stderr(
            "a FIFO or pipe cannot be joined mid-run",
            Duration::from_secs(20)
        ),
        "{}",
        second.stderr()
    );
}

/// `--bind ::ffff:127.0.0.1` is loopback (an IPv4 address written as IPv6): no warning
/// that the page is served beyond this machine, and the `Host` check stays on (it was
/// turned off, with the warning).
#[test]
fn an_ipv4_loopback_written_as_ipv6_is_loopback() {
    let dir = TempDir::new("serve-mapped-loopback");
    let served = Served::start(dir.path(), &["--bind", "::ffff:127.0.0.1", "run.eventlog"]);
    assert!(
        served.url.starts_with("http://[::ffff:127.0.0.1]:"),
        "{}",
        served.url
    );
    assert!(
        !served.stderr().contains("beyond this machine"),
        "{}",
        served.stderr()
    );
    let page = format!("/{}/", served.token);
    let port = served.addr.rsplit(':').next().unwrap_or("").to_string();
    let addr = format!("127.0.0.1:{port}");
    let ask = |host: &str| {
        let mut s = std::net::TcpStream::connect(&addr).expect("connect");
        use std::io::{Read, Write};
        let req = format!("GET {page} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).expect("send");
        let mut head = [0u8; 12];
        s.read_exact(&mut head).expect("an answer");
        String::from_utf8_lossy(&head[9..12]).into_owned()
    };
    assert_eq!(ask(&format!("[::ffff:127.0.0.1]:{port}")), "200");
    assert_eq!(ask("evil.example"), "403", "the Host check is on");
}
