//! `hp2ps --serve`'s updates and sources beside the first ones, over plain HTTP
//! (`support::serve`), real GHC 9.10.3 logs replayed at their pace: updates carry what
//! changed (the patches' bytes against the whole states'), the end is said before its
//! page, and eventlog-socket's TCP port is followed as its Unix socket is.

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use support::html_page::data_of;
use support::replay::{self, Pace};
use support::serve::{big_hp, log, mkfifo, state, static_page, Served};
use support::TempDir;

/// The last update whose state is final, and every update before it.
fn until_final(served: &Served) -> Vec<Value> {
    let events = served.events();
    events.until(Duration::from_secs(90), |u| {
        matches!(state(u), "ended" | "closed") && !u["page"].is_null()
    })
}

/// eventlog-socket's TCP port (`tcp:PORT`, on loopback): waited for, then each
/// connection is a run, followed to its end as the Unix socket is.
#[test]
fn an_eventlog_socket_on_tcp_is_followed() {
    let bytes = log("leakmap-hc-flush.eventlog");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("addr").port();
    let dir = TempDir::new("serve-tcp");
    let name = format!("tcp:{port}");
    drop(listener);
    let served = Served::start(dir.path(), &[&name]);
    assert!(
        served.wait_stderr(
            "waiting for the program's port 127.0.0.1:",
            Duration::from_secs(10)
        ),
        "{}",
        served.stderr()
    );
    // The program starts listening now, and sends the log to its client.
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port again");
    let log_bytes = bytes.clone();
    let server = std::thread::spawn(move || {
        let (mut client, _) = listener.accept().expect("a client");
        // One run: hp2ps's next try after the end is refused (were the port still
        // open, it would wait in the backlog and become an empty second run, which
        // `/save` below would save).
        drop(listener);
        replay::replay(&log_bytes, Pace::Blocks, 4.0, &mut |p| client.write_all(p))
            .expect("replay");
    });
    let updates = until_final(&served);
    server.join().expect("server");
    let last = updates.last().expect("one");
    assert_eq!(state(last), "ended", "{}", last["status"]);
    let mut expected = data_of(&static_page(&bytes, "x"));
    expected["runs"][0]["file"] = last["page"]["runs"][0]["file"].clone();
    assert_eq!(last["page"], expected);
    let (code, page) = served.get(&format!("/{}/save", served.token));
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&page));
}

/// Updates carry what changed (a patch of the data) when the viewer has the update
/// before, so the bytes sent follow what is new, not the whole state (481 KB an update
/// at 2,000 censuses before); a viewer's page made of the patches is the server's whole
/// state (checked by `support::serve::whole` on every update of every test here). And
/// the end is said at once: the first update that says the run ended carries no page
/// (the whole run's page, a child's work, follows).
/// The bytes of the whole states and of the deltas a viewer of `input` (written into a
/// FIFO by `write`) was sent, the number of deltas, and whether the first update that
/// said the run ended came without a page.
fn deltas_of(
    name: &str,
    write: impl FnOnce(PathBuf) + Send + 'static,
) -> (usize, usize, usize, Option<bool>) {
    let dir = TempDir::new("serve-deltas");
    mkfifo(&dir.join(name));
    let served = Served::start(dir.path(), &[name]);
    let mut s = std::net::TcpStream::connect(&served.addr).expect("connect");
    let req = format!(
        "GET /{}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        served.token, served.addr
    );
    s.write_all(req.as_bytes()).expect("send");
    let fifo = dir.join(name);
    let writer = std::thread::spawn(move || write(fifo));
    let lines = std::io::BufRead::lines(std::io::BufReader::new(s));
    let (mut data, mut whole_bytes, mut delta_bytes, mut deltas) = (None, 0usize, 0usize, 0);
    let mut ended: Option<bool> = None;
    for line in lines.map_while(Result::ok) {
        let Some(text) = line.strip_prefix("data: ") else {
            continue;
        };
        let update: Value = serde_json::from_str(text).expect("JSON");
        let is_delta = update.get("patch").is_some();
        let update = support::serve::whole(update, &mut data);
        if is_delta {
            deltas += 1;
            delta_bytes += text.len();
            whole_bytes += update["page"].to_string().len();
        }
        if matches!(state(&update), "ended" | "closed") && ended.is_none() {
            ended = Some(update["page"].is_null());
        }
        if matches!(state(&update), "ended" | "closed") && !update["page"].is_null() {
            break;
        }
    }
    writer.join().expect("writer");
    eprintln!("{name}: {deltas} deltas: {delta_bytes} bytes for {whole_bytes} bytes of states");
    (whole_bytes, delta_bytes, deltas, ended)
}

/// Updates carry what changed (a patch of the data) when the viewer has the update
/// before, so the bytes sent follow what is new, not the whole state (481 KB an update
/// at 2,000 censuses before); a viewer's page made of the patches is the server's whole
/// state (checked by `support::serve::whole` on every update of every test here). And
/// the end is said at once: the first update that says the run ended carries no page
/// (the whole run's page, a child's work, follows).
#[test]
fn updates_carry_what_is_new_and_the_end_is_said_at_once() {
    let bytes = log("leakmap-hc-flush.eventlog");
    let (whole, delta, deltas, ended) = deltas_of("run.eventlog", move |fifo| {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo)
            .expect("open");
        replay::replay(&bytes, Pace::Blocks, 0.5, &mut |p| out.write_all(p)).expect("replay");
    });
    assert!(deltas >= 5, "{deltas} deltas");
    // A short run's table of every band's numbers is most of what changes.
    assert!(
        delta * 3 < whole * 2,
        "{delta} bytes of deltas for {whole} of states"
    );
    assert_eq!(ended, Some(true), "the end said before its page");
    // A longer run: its columns grow at their ends.
    let (whole, delta, deltas, _) = deltas_of("long.hp", |fifo| {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo)
            .expect("open");
        for piece in big_hp(10, 3000, 50) {
            out.write_all(&piece).expect("write");
            std::thread::sleep(Duration::from_millis(120));
        }
    });
    assert!(deltas >= 10, "{deltas} deltas");
    assert!(
        delta * 4 < whole,
        "{delta} bytes of deltas for {whole} of states"
    );
}

/// A viewer that comes while the program is quiet is told how long ago the newest
/// census was read as of when it came, not as of when the last update was made.
#[test]
fn a_viewer_that_comes_while_the_program_is_quiet_is_told_how_long() {
    let dir = TempDir::new("serve-quiet");
    mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("run.hp"))
        .expect("open the FIFO");
    let mut text = String::from(
        "JOB \"svc\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    for s in 0..5 {
        text.push_str(&format!(
            "BEGIN_SAMPLE {s}.0\nmain {}\nEND_SAMPLE {s}.0\n",
            100 + s
        ));
    }
    out.write_all(text.as_bytes()).expect("write");
    let first = served.events();
    let seen = first.until(Duration::from_secs(20), |u| {
        u["status"]["censuses"] == 5 && state(u) == "live"
    });
    let made = seen.last().expect("one")["status"]["since_newest"].as_f64();
    assert!(made.is_some_and(|s| s < 2.0), "{made:?}");
    std::thread::sleep(Duration::from_secs(3));
    // The newest update (one more may have come after the fifth census's), made when
    // the census was read: three seconds ago.
    let late = served
        .events()
        .next(Duration::from_secs(10))
        .expect("an update");
    assert_eq!(late["status"]["censuses"], 5);
    let told = late["status"]["since_newest"].as_f64();
    assert!(told.is_some_and(|s| (3.0..20.0).contains(&s)), "{told:?}");
    assert_eq!(state(&late), "live");
    drop(out);
}

/// A stream that takes up again after an update its tab had (the browser's
/// `Last-Event-ID` on a reconnection, or the page's `?after=` when a tab comes back from
/// hidden) is given the run's end it missed, though the next run has begun; a new
/// stream's first event is the newest update, without a page (its tab loaded one).
#[test]
fn a_stream_that_takes_up_again_is_given_the_runs_end_it_missed() {
    let bytes = log("leakmap-hc.eventlog");
    let dir = TempDir::new("serve-resume");
    mkfifo(&dir.join("run.eventlog"));
    let served = Served::start(dir.path(), &["run.eventlog"]);
    let open_fifo = || {
        let mut fifo = std::fs::OpenOptions::new();
        (fifo.write(true).open(dir.join("run.eventlog"))).expect("open the FIFO")
    };
    let mut out = open_fifo();
    out.write_all(&bytes).expect("write");
    drop(out);
    let following = served.events();
    let updates = following.until(Duration::from_secs(60), |u| {
        state(u) == "ended" && !u["page"].is_null()
    });
    let end = updates.last().expect("one");
    // The next program opens the FIFO and has written nothing yet: run 2 waits.
    let next = open_fifo();
    following.until(Duration::from_secs(30), |u| u["status"]["run"] == 2);
    let resumed = [
        served.events_asking("", "Last-Event-ID: 1\r\n"),
        served.events_asking("?after=1", ""),
    ];
    for (how, events) in ["Last-Event-ID", "?after="].iter().zip(resumed) {
        let first = events.next(Duration::from_secs(10)).expect("an update");
        assert_eq!(first["status"]["run"], 1, "{how}: {}", first["status"]);
        assert!(first["page"] == end["page"], "{how}: run 1's end page");
        let then = events.next(Duration::from_secs(10)).expect("an update");
        assert_eq!(then["status"]["run"], 2, "{how}: {}", then["status"]);
    }
    let fresh = served
        .events()
        .next(Duration::from_secs(10))
        .expect("an update");
    assert_eq!(fresh["status"]["run"], 2, "{}", fresh["status"]);
    assert!(fresh["page"].is_null(), "a new stream's tab has its page");
    drop(next);
}
