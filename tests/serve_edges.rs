//! `hp2ps --serve`'s edges (`support::serve`): what it waits for is said once, in the
//! words of what is there; the event stream carries the headers of every answer; an
//! `-o` that is the input is refused; the whole run's page is made in one place:
//! several saves at once wait for one child, and Ctrl-C right after the run's end, or
//! a terminal's while the end's page is being made, still writes `-o`; a hang-up writes
//! `-o` as Ctrl-C does, and a second Ctrl-C ends the run at once, leaving no temporary;
//! saves whose clients went away give their places back.

mod support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use support::eventlog::writer::hp_to_eventlog;
use support::processes::page_makers;
use support::serve::{big_hp, log, Served};
use support::{Cmd, TempDir};

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

/// `big.hp` in `dir`, 3,000 censuses of 60 bands (big enough that its page takes the
/// child a while), served, once the server has read all of it.
fn served_big_hp(dir: &TempDir) -> Served {
    const SAMPLES: usize = 3000;
    std::fs::write(dir.join("big.hp"), big_hp(60, SAMPLES, 100).concat()).expect("write");
    let served = Served::start(dir.path(), &["big.hp"]);
    served.events().until(Duration::from_secs(60), |u| {
        u["status"]["censuses"].as_u64() == Some(SAMPLES as u64)
    });
    served
}

#[test]
fn saves_at_once_wait_for_one_child() {
    let dir = TempDir::new("serve-saves");
    let served = served_big_hp(&dir);
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

/// Saves whose clients went away before the page came give their places back once
/// their page is made: a save after them is answered (their places were kept for
/// ever, and after 16 every save was refused with 503 until the server ended).
#[test]
fn saves_whose_clients_went_away_give_their_places_back() {
    let dir = TempDir::new("serve-saves-gone");
    let served = served_big_hp(&dir);
    let save = format!("/{}/save", served.token);
    // Twenty at once, all waiting for the one child's page, and gone before it is made.
    let asked: Vec<_> = (0..20)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(&served.addr).expect("connect");
            let ask = format!("GET {save} HTTP/1.1\r\nHost: {}\r\n\r\n", served.addr);
            std::io::Write::write_all(&mut s, ask.as_bytes()).expect("send");
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(30));
    drop(asked);
    let start = Instant::now();
    let (mut refused, mut answered) = (0, None);
    while start.elapsed() < Duration::from_secs(60) {
        let (code, page) = served.get(&save);
        if code == 200 {
            answered = Some(page);
            break;
        }
        assert_eq!(code, 503, "{}", String::from_utf8_lossy(&page));
        refused += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    let page = answered.unwrap_or_else(|| panic!("every save refused ({refused} in 60 s)"));
    assert!(
        String::from_utf8_lossy(&page).contains("</html>"),
        "a whole page"
    );
}

/// A HEAD of the save is answered with the save's head, without a child making the
/// page (it made one, for headers only: a client looping on HEAD kept a core busy), and
/// says no length, which only the made page has; a GET after it gets the page.
#[test]
fn a_head_of_the_save_makes_no_page() {
    let dir = TempDir::new("serve-save-head");
    let served = served_big_hp(&dir);
    let (pid, save) = (served.pid(), format!("/{}/save", served.token));
    let mut children = HashSet::new();
    for _ in 0..20 {
        let mut s = std::net::TcpStream::connect(&served.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).ok();
        let ask = format!(
            "HEAD {save} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            served.addr
        );
        std::io::Write::write_all(&mut s, ask.as_bytes()).expect("send");
        let mut answer = String::new();
        let _ = std::io::Read::read_to_string(&mut s, &mut answer);
        children.extend(page_makers(pid));
        let head = answer.to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{answer}");
        assert!(head.contains("content-disposition: attachment"), "{answer}");
        assert!(
            !head.contains("content-length"),
            "a length not known: {answer}"
        );
        assert!(answer.ends_with("\r\n\r\n"), "no body: {answer}");
    }
    assert!(children.is_empty(), "pages made for HEAD: {children:?}");
    let (code, page) = served.get(&save);
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&page));
    assert!(
        String::from_utf8_lossy(&page).contains("</html>"),
        "a whole page"
    );
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
