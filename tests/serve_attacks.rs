//! `hp2ps --serve`'s HTTP layer against the probes of issue 35 (S1–S3, S8), each a
//! small client on loopback, bounded in connections and time. What each must leave: the
//! process running, the port answering the page, its memory, threads and descriptors
//! bounded. The numbers seen are printed (`--nocapture`) for docs/robustness.md.
//!
//! * S1: `Content-Length: 1000000000000` (tiny_http allocated it: exit 134), `2^64-1`
//!   (a panic: the port refused from then on) and a body declared and never sent (every
//!   other viewer froze) are refused unread;
//! * S2: 600 half-sent requests under `ulimit -n 1024` (the accept thread panicked on
//!   EMFILE: the port refused for good), `GET / HTTP/2.0` lines (each leaked a thread
//!   and two descriptors), and accept errors under a tiny descriptor limit;
//! * S3: an endless request line (1 GB) and pipelined requests never read (4 GB);
//! * S8: 80 stalled event streams with the token (64 held every viewer slot).

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use support::serve::Served;
use support::{Cmd, TempDir};

/// What `/proc` says of a process: resident and peak memory (kB), threads, descriptors.
#[derive(Debug, Clone, Copy)]
struct Use {
    rss: u64,
    hwm: u64,
    threads: u64,
    fds: u64,
}

fn used(pid: u32) -> Use {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        (status.lines())
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count() as u64);
    Use {
        rss: field("VmRSS:"),
        hwm: field("VmHWM:"),
        threads: field("Threads:"),
        fds,
    }
}

/// A server of a log that never comes (its page is the waiting page).
fn serve(dir: &TempDir, open_files: Option<u64>) -> Served {
    let mut cmd = Cmd::hp2ps();
    if let Some(n) = open_files {
        cmd = cmd.open_files(n);
    }
    Served::started(cmd, dir.path(), &["not-yet.eventlog"])
}

/// The status of the answer to `head` sent on a new connection (`None`: none within
/// 5 s, or the connection closed without one).
fn status_of(addr: &str, head: &[u8]) -> Option<u16> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    s.write_all(head).ok()?;
    let mut got = [0u8; 12];
    s.read_exact(&mut got).ok()?;
    std::str::from_utf8(&got[9..12]).ok()?.parse().ok()
}

/// Whether the page is answered (200) within a few seconds.
fn page_answers(served: &Served) -> bool {
    let head = format!(
        "GET /{}/ HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        served.token, served.addr
    );
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until {
        if status_of(&served.addr, head.as_bytes()) == Some(200) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

/// The run is still going: the process is there.
fn alive(served: &Served) -> bool {
    std::path::Path::new(&format!("/proc/{}/status", served.pid())).exists()
        && !std::fs::read_to_string(format!("/proc/{}/status", served.pid()))
            .unwrap_or_default()
            .contains("State:\tZ")
}

#[test]
fn bodies_declared_huge_or_never_sent_are_refused_unread() {
    let dir = TempDir::new("attack-body");
    let served = serve(&dir, None);
    assert!(page_answers(&served), "{}", served.stderr());
    let before = used(served.pid());
    for length in [
        "1000000000000",
        "18446744073709551615",
        "18446744073709551616",
    ] {
        let head = format!(
            "GET /{}/ HTTP/1.1\r\nHost: {}\r\nContent-Length: {length}\r\n\r\nabc",
            served.token, served.addr
        );
        let code = status_of(&served.addr, head.as_bytes());
        assert!(
            matches!(code, Some(400 | 413 | 431)),
            "Content-Length {length}: {code:?}"
        );
        assert!(
            alive(&served) && page_answers(&served),
            "{length}: {}",
            served.stderr()
        );
    }
    // A body of 5,000 bytes declared and never sent: refused at once, and the other
    // viewers are answered while that connection stays open.
    let mut held = TcpStream::connect(&served.addr).expect("connect");
    held.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let head = format!(
        "GET /{}/ HTTP/1.1\r\nHost: {}\r\nContent-Length: 5000\r\n\r\n",
        served.token, served.addr
    );
    held.write_all(head.as_bytes()).expect("send");
    let mut got = [0u8; 12];
    held.read_exact(&mut got)
        .expect("an answer before the body");
    assert_eq!(&got[9..12], b"400");
    let start = Instant::now();
    assert!(page_answers(&served));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let after = used(served.pid());
    eprintln!("S1: before {before:?}, after {after:?}");
    assert!(
        after.hwm < 200_000 && after.rss <= after.hwm,
        "memory {after:?}"
    );
}

#[test]
fn half_sent_requests_and_http2_lines_under_1024_descriptors() {
    let dir = TempDir::new("attack-half");
    let served = serve(&dir, Some(1024));
    assert!(page_answers(&served), "{}", served.stderr());
    let before = used(served.pid());
    let half = format!(
        "GET /{}/ HTTP/1.1\r\nHost: {}\r\n",
        served.token, served.addr
    );
    let mut held = Vec::new();
    for _ in 0..600 {
        let Ok(mut s) = TcpStream::connect(&served.addr) else {
            break;
        };
        let _ = s.write_all(half.as_bytes());
        held.push(s);
    }
    std::thread::sleep(Duration::from_millis(500));
    let during = used(served.pid());
    // Past the cap a connection is answered 503 at once, not left hanging.
    let page = format!(
        "GET /{}/ HTTP/1.1\r\nHost: {}\r\n\r\n",
        served.token, served.addr
    );
    let code = status_of(&served.addr, page.as_bytes());
    assert!(matches!(code, Some(200 | 503)), "{code:?}");
    assert!(alive(&served), "{}", served.stderr());
    drop(held);
    assert!(page_answers(&served), "the port answers once they close");
    // HTTP/2.0 request lines: answered and closed, each; nothing kept.
    for _ in 0..520 {
        let mut s = TcpStream::connect(&served.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(5))).ok();
        s.write_all(b"GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n")
            .expect("send");
        let mut all = Vec::new();
        let closed = s.read_to_end(&mut all).is_ok();
        assert!(
            closed && all.starts_with(b"HTTP/1.1 4"),
            "{:?}",
            String::from_utf8_lossy(&all)
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    let after = used(served.pid());
    eprintln!("S2: before {before:?}, 600 half-sent {during:?}, after 520 HTTP/2.0 {after:?}");
    assert!(page_answers(&served));
    assert!(
        during.threads <= before.threads + 4,
        "{before:?} {during:?}"
    );
    assert!(
        during.fds <= before.fds + 300,
        "the cap holds: {before:?} {during:?}"
    );
    assert!(after.threads <= before.threads + 4, "{before:?} {after:?}");
    assert!(after.fds <= before.fds + 4, "{before:?} {after:?}");
}

#[test]
fn accept_errors_are_waited_out() {
    let dir = TempDir::new("attack-emfile");
    // So few descriptors that connections run them out before the cap.
    let served = serve(&dir, Some(40));
    let mut held = Vec::new();
    for _ in 0..60 {
        if let Ok(s) = TcpStream::connect(&served.addr) {
            held.push(s);
        }
    }
    assert!(
        served.wait_stderr("cannot take a connection now", Duration::from_secs(10)),
        "{}",
        served.stderr()
    );
    drop(held);
    assert!(
        alive(&served) && page_answers(&served),
        "{}",
        served.stderr()
    );
}

#[test]
fn an_endless_request_line_and_unread_pipelined_requests_stay_small() {
    let dir = TempDir::new("attack-endless");
    let served = serve(&dir, None);
    assert!(page_answers(&served), "{}", served.stderr());
    let before = used(served.pid());
    // An endless request line: the server closes it once the head is too long.
    let mut s = TcpStream::connect(&served.addr).expect("connect");
    s.set_write_timeout(Some(Duration::from_secs(5))).ok();
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0usize;
    s.write_all(b"GET /").expect("send");
    while sent < 1 << 30 && s.write_all(&chunk).is_ok() {
        sent += chunk.len();
    }
    assert!(
        sent < 64 << 20,
        "the server took {sent} bytes of one request line"
    );
    drop(s);
    std::thread::sleep(Duration::from_millis(300));
    let endless = used(served.pid());
    // Requests pipelined and never read, for three seconds.
    let mut p = TcpStream::connect(&served.addr).expect("connect");
    p.set_write_timeout(Some(Duration::from_secs(1))).ok();
    let one = format!(
        "GET /{}/ HTTP/1.1\r\nHost: {}\r\n\r\n",
        served.token, served.addr
    );
    let many = one.repeat(200);
    let start = Instant::now();
    let mut pipelined = 0usize;
    while start.elapsed() < Duration::from_secs(3) {
        match p.write(many.as_bytes()) {
            Ok(n) => pipelined += n,
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    assert!(
        page_answers(&served),
        "other viewers are answered meanwhile"
    );
    std::thread::sleep(Duration::from_millis(300));
    let during = used(served.pid());
    eprintln!(
        "S3: before {before:?}; {sent} bytes of a request line taken, then {endless:?}; \
         {pipelined} bytes pipelined unread, then {during:?}"
    );
    assert!(during.hwm < 200_000, "peak memory {} kB", during.hwm);
    // The write timeout ends the connection that reads nothing: its descriptor goes
    // while the client still holds it open.
    assert!(
        during.fds > endless.fds,
        "the unread connection is open: {during:?}"
    );
    let until = Instant::now() + Duration::from_secs(40);
    let mut after = used(served.pid());
    while after.fds >= during.fds && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(250));
        after = used(served.pid());
    }
    eprintln!("S3: the unread connection, after the write timeout: {after:?}");
    assert!(after.fds < during.fds, "{during:?} {after:?}");
    drop(p);
}

#[test]
fn stalled_event_streams_cannot_hold_every_viewer_slot() {
    let dir = TempDir::new("attack-streams");
    support::serve::mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    assert!(page_answers(&served), "{}", served.stderr());
    let before = used(served.pid());
    let stalled: Vec<_> = (0..80).map(|_| served.raw_events()).collect();
    // A run whose updates (pages of 120 bands) fill the stalled streams' buffers.
    let fifo = dir.join("run.hp");
    let writer = std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open");
        for p in support::serve::big_hp(120, 600, 50) {
            let _ = out.write_all(&p);
            std::thread::sleep(Duration::from_millis(250));
        }
        // The program runs on.
        std::thread::sleep(Duration::from_secs(10));
    });
    std::thread::sleep(Duration::from_secs(3));
    let during = used(served.pid());
    // A viewer that comes now gets its stream and the page's state.
    let events = served.events();
    let got = events.next(Duration::from_secs(10));
    eprintln!("S8: before {before:?}, 80 stalled streams {during:?}");
    assert!(
        got.is_some(),
        "a new viewer got no update: {}",
        served.stderr()
    );
    assert!(
        during.threads <= before.threads + 4,
        "{before:?} {during:?}"
    );
    drop(stalled);
    drop(served);
    let _ = writer.join();
}
