//! `hp2ps --serve` without a browser: real GHC 9.10.3 logs replayed at their own pace
//! (`support::replay`) into a FIFO, stdin and a Unix socket that behaves as
//! eventlog-socket does, the page and its server-sent events read over plain HTTP
//! (`support::serve`):
//!
//! * the run's end (with and without `--eventlog-flush-interval`, `-N2`) holds the whole
//!   run's page: the last update's data is `--format html --time elapsed`'s, `save` and
//!   `-o` are its page byte for byte; Ctrl-C writes the run so far to `-o`;
//! * a new writer of the FIFO is a new run; a socket not there yet is waited for;
//! * a damaged block costs one census, said on the page and on stderr;
//! * a viewer that reads nothing stalls neither the others nor the reading, and gets the
//!   newest state when it reads again;
//! * requests without the token, from another `Host`, for another path or method are
//!   refused; a port in use is a one-line error; the combinations that cannot work are
//!   refused.

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use support::html_page::data_of;
use support::replay::{self, Pace};
use support::serve::{big_hp, eventlog_socket, log, mkfifo, state, static_page, Served, Wait};
use support::{Cmd, TempDir};

/// Writes `bytes` into the FIFO at `path` at their pace, in a thread.
fn into_fifo(path: PathBuf, bytes: Vec<u8>, speed: f64) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open the FIFO");
        replay::replay(&bytes, Pace::Blocks, speed, &mut |p| out.write_all(p)).expect("replay");
    })
}

/// The last update whose state is final, and every update before it.
fn until_final(served: &Served) -> Vec<Value> {
    let events = served.events();
    events.until(Duration::from_secs(90), |u| {
        matches!(state(u), "ended" | "closed") && !u["page"].is_null()
    })
}

/// The run's end holds the whole run's page, and `save` gives it.
fn the_end_is_the_static_page(served: &Served, updates: &[Value], reference: &[u8]) {
    let last = updates.last().expect("an update");
    assert_eq!(
        last["page"],
        data_of(reference),
        "the last update is --format html's data"
    );
    let (code, saved) = served.get(&format!("/{}/save", served.token));
    assert_eq!(code, 200);
    assert!(
        saved == reference,
        "save gives --format html's page, byte for byte"
    );
}

#[test]
fn a_fifo_with_and_without_flushes_and_two_capabilities() {
    for name in [
        "leakmap-hc-flush.eventlog",
        "leakmap-hc.eventlog",
        "threads-hT-N2.eventlog",
    ] {
        let bytes = log(name);
        let reference = static_page(&bytes, "run.eventlog");
        let dir = TempDir::new("serve-fifo");
        mkfifo(&dir.join("run.eventlog"));
        let served = Served::start(dir.path(), &["run.eventlog", "-o", "whole.html"]);
        let writer = into_fifo(dir.join("run.eventlog"), bytes, 0.5);
        let updates = until_final(&served);
        writer.join().expect("writer");
        assert_eq!(state(updates.last().expect("one")), "ended", "{name}");
        the_end_is_the_static_page(&served, &updates, &reference);
        // The censuses came in order, never fewer.
        let counts: Vec<u64> = (updates.iter())
            .filter_map(|u| u["status"]["censuses"].as_u64())
            .collect();
        assert!(
            counts.windows(2).all(|w| w[0] <= w[1]),
            "{name}: {counts:?}"
        );
        if name.contains("flush") {
            let live = updates
                .iter()
                .filter(|u| state(u) == "live" && !u["page"].is_null());
            assert!(
                live.count() >= 5,
                "{name}: a flushed log's censuses come as it runs"
            );
            // The run's section (its picture) only with the first page: a viewer given a
            // page since has it (the page with data still comes with every census).
            let sections = updates.iter().filter(|u| !u["section"].is_null()).count();
            assert!(
                sections <= 1,
                "{name}: {sections} updates carried the section"
            );
        }
        assert!(
            served.wait_stderr("wrote whole.html", Duration::from_secs(20)),
            "{}",
            served.stderr()
        );
        let whole = std::fs::read(dir.join("whole.html")).expect("-o");
        assert!(whole == reference, "{name}: -o is --format html's page");
        // The writer gone, a new one is a new run.
        let writer = into_fifo(dir.join("run.eventlog"), log("leakmap-hT.eventlog"), 8.0);
        let events = served.events();
        events.until(Duration::from_secs(60), |u| {
            u["status"]["run"] == 2 && state(u) == "ended"
        });
        writer.join().expect("writer");
    }
}

#[test]
fn stdin_is_followed_to_its_end() {
    let bytes = log("threads-hT-N2.eventlog");
    let reference = static_page(&bytes, "stdin.eventlog");
    let dir = TempDir::new("serve-stdin");
    let fifo = dir.join("in");
    mkfifo(&fifo);
    let writer = into_fifo(fifo.clone(), bytes, 4.0);
    let stdin = std::fs::File::open(&fifo).expect("the FIFO as stdin");
    let served = Served::start_with_stdin(dir.path(), &["-"], stdin);
    let updates = until_final(&served);
    writer.join().expect("writer");
    // Named stdin on the page; the same chart and data otherwise.
    let mut expected = data_of(&reference);
    expected["runs"][0]["file"] = Value::from("stdin");
    let last = updates.last().expect("an update");
    assert_eq!(last["page"], expected);
}

#[test]
fn an_eventlog_socket_is_waited_for_and_followed() {
    let bytes = log("leakmap-hc-flush.eventlog");
    let dir = TempDir::new("serve-socket");
    let sock = dir.join("ghc.sock");
    let name = format!("unix:{}", sock.display());
    let served = Served::start(dir.path(), &[&name]);
    assert!(
        served.wait_stderr("waiting for the program's socket", Duration::from_secs(10)),
        "{}",
        served.stderr()
    );
    // The program starts, and waits for its first client before it runs.
    let server = eventlog_socket(&sock, bytes.clone(), 2.0, Wait::First);
    let updates = until_final(&served);
    let sent = server.join().expect("server");
    assert_eq!(sent[0], bytes, "the client got the whole log");
    let last = updates.last().expect("one");
    assert_eq!(state(last), "ended", "{}", last["status"]);
    // The page's bar names the input by its file name, as the heading does.
    assert_eq!(last["status"]["source"], "ghc.sock");
    let mut expected = data_of(&static_page(&bytes, "x"));
    // The page holds no directory: the socket's file name.
    expected["runs"][0]["file"] = Value::from("ghc.sock");
    assert_eq!(last["page"], expected);
}

#[test]
fn a_socket_joined_mid_run_gives_the_header_then_the_events_from_then_on() {
    let bytes = log("leakmap-hc-flush.eventlog");
    let dir = TempDir::new("serve-socket-late");
    let sock = dir.join("ghc.sock");
    // The program runs half its run with no client, then waits for one.
    let server = eventlog_socket(&sock, bytes.clone(), 2.0, Wait::Half);
    let name = format!("unix:{}", sock.display());
    let served = Served::start(dir.path(), &[&name]);
    let updates = until_final(&served);
    let sent = server.join().expect("server");
    let got = &sent[0];
    assert!(
        got.len() < bytes.len() && got.len() > 4000,
        "joined mid-run: {} bytes",
        got.len()
    );
    let last = updates.last().expect("one");
    let censuses = last["status"]["censuses"].as_u64().unwrap_or(0);
    assert!(
        censuses > 0 && censuses < 30,
        "the censuses from then on: {censuses}"
    );
    // Its page is the page of what it was sent.
    let mut expected = data_of(&static_page(got, "x"));
    // The page holds no directory: the socket's file name.
    expected["runs"][0]["file"] = Value::from("ghc.sock");
    assert_eq!(last["page"], expected);
}

#[test]
fn a_damaged_block_costs_one_census_and_is_said() {
    let bytes = log("leakmap-hc-flush.eventlog");
    let count = |b: &[u8]| {
        let loaded = hp2ps::load(hp2ps::Source::Bytes(b), &elapsed());
        loaded.map_or(0, |l| l.profile.times.len())
    };
    let clean = count(&bytes);
    let damaged = (bytes.len() / 3..bytes.len())
        .step_by(11)
        .map(|at| {
            let mut d = bytes.clone();
            d[at] ^= 0x5A;
            d
        })
        .find(|d| count(d) + 1 == clean)
        .expect("a byte whose change costs one census");
    let dir = TempDir::new("serve-damage");
    mkfifo(&dir.join("run.eventlog"));
    let served = Served::start(dir.path(), &["run.eventlog"]);
    let writer = into_fifo(dir.join("run.eventlog"), damaged, 4.0);
    let updates = until_final(&served);
    writer.join().expect("writer");
    let last = updates.last().expect("one");
    assert_eq!(
        last["status"]["censuses"].as_u64(),
        Some(clean as u64 - 3),
        "{last}"
    );
    let notices = last["status"]["notices"].to_string();
    assert!(notices.contains("1 census lost"), "{notices}");
    assert!(
        served.wait_stderr("1 census lost", Duration::from_secs(5)),
        "{}",
        served.stderr()
    );
}

fn elapsed() -> hp2ps::LoadOptions {
    let mut opts = hp2ps::LoadOptions::default();
    opts.eventlog.time = hp2ps::TimeAxis::Elapsed;
    opts
}

#[test]
fn a_viewer_that_reads_nothing_stalls_nobody() {
    // Pages of a megabyte or so: a viewer that reads nothing soon has the kernel's
    // buffers full, and the server's write to it waits.
    let pieces = big_hp(120, 2000, 100);
    let dir = TempDir::new("serve-slow");
    mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    let stalled = served.raw_events();
    let fifo = dir.join("run.hp");
    let writer = std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open");
        for p in pieces {
            out.write_all(&p).expect("write");
            std::thread::sleep(Duration::from_millis(250));
        }
    });
    let fast = until_final(&served);
    writer.join().expect("writer");
    let sent: usize = fast.iter().map(|u| u.to_string().len()).sum();
    assert!(
        fast.len() >= 10 && sent > 10 << 20,
        "{} updates, {sent} bytes",
        fast.len()
    );
    let last = fast.last().expect("one");
    assert_eq!(
        last["status"]["censuses"].as_u64(),
        Some(2000),
        "every sample read"
    );
    // Read now: it skipped what it could not take, and ends with the final state.
    let slow = stalled.read_all(Duration::from_secs(10));
    let slow_last = slow.last().expect("updates");
    assert_eq!(
        slow_last["status"], last["status"],
        "the stalled viewer catches up with the end"
    );
    // It was sent no more than the others: the newest state when it fell behind (the
    // whole state, not a patch: hub.rs's test), each update once, in order. With
    // patches, the kernel's buffers may hold every update it missed, so it need not
    // skip any. (Counted against the other viewer's updates, this failed on a loaded
    // machine, 18 against 17: that viewer joined after the run's first update, or fell
    // behind itself.)
    let seqs: Vec<u64> = (slow.iter())
        .map(|u| u["seq"].as_u64().expect("seq"))
        .collect();
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "each update once, in order: {seqs:?}"
    );
    assert_eq!(
        seqs.last(),
        last["seq"].as_u64().as_ref(),
        "the same last update"
    );
}

#[test]
fn ctrl_c_writes_the_run_so_far() {
    let bytes = log("leakmap-hc-flush.eventlog");
    let p = replay::pieces(&bytes, Pace::Blocks);
    let half = p.blocks[p.blocks.len() / 2].0;
    let dir = TempDir::new("serve-ctrl-c");
    mkfifo(&dir.join("run.eventlog"));
    let served = Served::start(dir.path(), &["run.eventlog", "-o", "so-far.html"]);
    let fifo = dir.join("run.eventlog");
    let prefix = bytes[..half].to_vec();
    let writer = std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open");
        out.write_all(&prefix).expect("write");
        // The program runs on: the FIFO stays open until the test is done.
        std::thread::sleep(Duration::from_secs(3));
    });
    let events = served.events();
    events.until(Duration::from_secs(30), |u| state(u) == "live");
    std::thread::sleep(Duration::from_millis(500));
    let (status, stderr) = served.interrupt();
    writer.join().expect("writer");
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains("wrote so-far.html (the run so far)"),
        "{stderr}"
    );
    let page = std::fs::read(dir.join("so-far.html")).expect("-o");
    assert!(
        page == static_page(&bytes[..half], "run.eventlog"),
        "the page of the log so far"
    );
}

#[test]
fn requests_are_answered_only_with_the_token_and_a_loopback_host() {
    let dir = TempDir::new("serve-refuse");
    let served = Served::start(dir.path(), &["not-yet.eventlog"]);
    let t = served.token.clone();
    assert!(
        t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()),
        "{t}"
    );
    let (code, page) = served.get(&format!("/{t}/"));
    assert_eq!(code, 200);
    assert!(String::from_utf8_lossy(&page).contains("<title>not-yet.eventlog</title>"));
    for path in [
        "/",
        "/events",
        "/save",
        "/index.html",
        &format!("/{}/", &t[..31]),
    ] {
        let (code, body) = served.get(path);
        assert_eq!(code, 403, "{path}");
        assert!(!String::from_utf8_lossy(&body).contains("<html"), "{path}");
    }
    for host in [
        Some("evil.example"),
        Some("evil.example:8080"),
        Some("127.0.0.1.nip.io"),
        None,
    ] {
        let (code, _) = served.request("GET", &format!("/{t}/"), host);
        assert_eq!(code, 403, "Host {host:?}");
    }
    for host in ["localhost", &served.addr, "[::1]:1234"] {
        assert_eq!(
            served.request("GET", &format!("/{t}/"), Some(host)).0,
            200,
            "{host}"
        );
    }
    // An absolute-form target names the host asked for; its `Host` is ignored (RFC 9112).
    for (authority, host, code) in [
        ("evil.example", served.addr.as_str(), 403),
        ("user@127.0.0.1", served.addr.as_str(), 403),
        (served.addr.as_str(), "evil.example", 200),
    ] {
        let target = format!("http://{authority}/{t}/");
        let asked = served.request("GET", &target, Some(host)).0;
        assert_eq!(asked, code, "{target} with Host {host}");
    }
    for path in [
        "../../../etc/passwd",
        "Cargo.toml",
        "not-yet.eventlog",
        "events/1",
        "%2e%2e/x",
    ] {
        let (code, _) = served.get(&format!("/{t}/{path}"));
        assert_eq!(code, 404, "{path}");
    }
    assert_eq!(
        served
            .request("POST", &format!("/{t}/"), Some(&served.addr))
            .0,
        405
    );
    assert_eq!(served.get(&format!("/{t}")).0, 303);
}

#[test]
fn a_port_in_use_is_one_clear_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("addr").port().to_string();
    let ran = Cmd::hp2ps()
        .args(["--serve", "--port", &port, "x.eventlog"])
        .timeout(Duration::from_secs(20))
        .run();
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let err = ran.stderr_text();
    assert!(
        err.contains(&format!("hp2ps: cannot listen on 127.0.0.1:{port}: "))
            && err.contains("in use"),
        "{err}"
    );
}

#[test]
fn what_cannot_go_with_serve_is_refused() {
    for args in [
        &["--serve", "a", "b"][..],
        &["--serve", "--watch", "a"],
        &["--bind", "127.0.0.1", "a"],
        &["--port", "8000", "a"],
        &["--serve", "--format", "svg", "a"],
        &["--serve", "-o", "x.ps", "a"],
        &["--serve", "-o", "-", "a"],
        &["--serve", "--summary", "a"],
    ] {
        let ran = Cmd::hp2ps()
            .args(args)
            .timeout(Duration::from_secs(20))
            .run();
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
    }
}
