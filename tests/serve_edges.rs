//! `hp2ps --serve`'s edges (`support::serve`): what it waits for is said once, in the
//! words of what is there; the event stream carries the headers of every answer; an
//! `-o` that is the input is refused.

mod support;

use std::time::Duration;

use support::html_page::repo;
use support::serve::Served;
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
        stream.contains("Content-Type: text/event-stream"),
        "{stream}"
    );
    for header in [
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        "X-Frame-Options: DENY",
        "Referrer-Policy: no-referrer",
    ] {
        assert!(page.contains(header), "the page: {header} in {page}");
        assert!(stream.contains(header), "the stream: {header} in {stream}");
    }
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
