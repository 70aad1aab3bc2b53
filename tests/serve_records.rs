//! `hp2ps --serve`'s runs and what keeps them (issue 35 S5, S6), over plain HTTP
//! (`support::serve`): the whole run's page is made by this very program, whatever is at
//! its path now; each run has its own record (a file renamed over the one followed, a
//! FIFO put in its place), and a spool out of room says so; a new hp2ps joins a socket
//! mid-run, and says why a FIFO's middle cannot be read.

mod support;

use std::time::Duration;

use support::serve::{big_hp, log, Served};
use support::{Cmd, TempDir};

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
