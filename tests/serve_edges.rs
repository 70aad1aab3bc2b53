//! `hp2ps --serve`'s edges (`support::serve`): what it waits for is said once, in the
//! words of what is there.

mod support;

use std::time::Duration;

use support::serve::Served;
use support::TempDir;

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
