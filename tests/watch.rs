//! `--watch`: a profile that grows while hp2ps watches it is re-rendered after every
//! change, each time to the bytes a single run on the file's current content gives; every
//! output appears through an atomic rename; Ctrl-C ends the watcher with status 0.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::run::Sink;
use support::{files_in, Cmd, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");
/// Generous: a slow CI machine must not fail, and a passing run never waits this long.
const TIMEOUT: Duration = Duration::from_secs(30);

const HEADER: &str = "JOB \"live -p\"\nDATE \"Fri Apr 17 11:43:45 1992\"\n\
                      SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";

fn sample(i: usize) -> String {
    let t = format!("{}.{:02}", i / 4, (i % 4) * 25);
    format!(
        "BEGIN_SAMPLE {t}\n  main {}\n  leak {}\n  (12)f/g {}\nEND_SAMPLE {t}\n",
        100 + 7 * i,
        40 * i,
        (i * 37) % 90
    )
}

/// The watcher, killed on drop so that a failed assertion leaves no process behind.
struct Watcher {
    child: Child,
    /// Everything the watcher wrote to stderr so far.
    stderr: Arc<Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Watcher {
    fn start(dir: &Path, args: &[&str]) -> Watcher {
        let mut child = Cmd::new(BIN)
            .args(args)
            .current_dir(dir)
            .stdout(Sink::Null)
            .spawn();
        let pipe = child.stderr.take().expect("stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                let mut s = sink.lock().expect("stderr lock");
                s.push_str(&line);
                s.push('\n');
            }
        });
        Watcher {
            child,
            stderr,
            reader: Some(reader),
        }
    }

    /// Waits until the watcher has said `text` on stderr.
    fn wait_for_message(&self, text: &str) {
        wait_until(&format!("the message {text:?}"), || {
            self.stderr.lock().expect("stderr lock").contains(text)
        });
    }

    fn signal(&self, signal: i32) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: signals our own child, by its id.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// Waits for the watcher to exit; returns its exit code and stderr.
    fn wait(mut self) -> (Option<i32>, String) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                if let Some(r) = self.reader.take() {
                    r.join().expect("stderr reader");
                }
                let err = self.stderr.lock().expect("stderr lock").clone();
                return (status.code(), err);
            }
            assert!(Instant::now() < deadline, "the watcher does not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a single run writes for `content` (`t.ps` and `t.aux`).
fn expected(content: &str, flags: &[&str]) -> (Vec<u8>, Vec<u8>) {
    expected_for("t.hp", content.as_bytes(), flags)
}

/// What a single run writes (`t.ps` and `t.aux`) for `input`, a file named `file`.
fn expected_for(file: &str, input: &[u8], flags: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let dir = TempDir::new("watch-expected");
    std::fs::write(dir.path().join(file), input).unwrap();
    let out = Cmd::new(BIN)
        .args(flags)
        .arg(file)
        .current_dir(dir.path())
        .output();
    assert!(out.status.success(), "{out:?}");
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
    (read("t.ps"), read("t.aux"))
}

/// Waits until `cond` holds, polling; fails after the timeout with `what`.
fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn inode(path: &Path) -> Option<u64> {
    std::fs::metadata(path).ok().map(|m| m.ino())
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .expect("open for append");
    f.write_all(text.as_bytes()).expect("append");
}

/// Reads `path` over and over on another thread, checking that every read sees a whole
/// PostScript file (never a truncated or half-written one).
struct Reader {
    stop: Arc<AtomicBool>,
    reads: Arc<AtomicUsize>,
    handle: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Reader {
    fn start(path: PathBuf) -> Reader {
        let stop = Arc::new(AtomicBool::new(false));
        let reads = Arc::new(AtomicUsize::new(0));
        let (s, r) = (stop.clone(), reads.clone());
        let handle = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                if let Ok(bytes) = std::fs::read(&path) {
                    if !(bytes.starts_with(b"%!PS-Adobe-") && bytes.ends_with(b"showpage\n")) {
                        return Err(format!("a partial file of {} bytes", bytes.len()));
                    }
                    r.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(())
        });
        Reader {
            stop,
            reads,
            handle: Some(handle),
        }
    }

    fn finish(mut self) -> usize {
        self.stop.store(true, Ordering::Relaxed);
        let result = self.handle.take().map(|h| h.join().expect("reader thread"));
        assert_eq!(result, Some(Ok(())));
        self.reads.load(Ordering::Relaxed)
    }
}

#[test]
fn a_growing_profile_is_rerendered_after_every_change_and_ctrl_c_ends_cleanly() {
    let dir = TempDir::new("watch-grow");
    let hp = dir.path().join("t.hp");
    let ps = dir.path().join("t.ps");
    let flags = ["-c"];
    let mut content = format!("{HEADER}{}", sample(0));
    std::fs::write(&hp, &content).unwrap();
    let watcher = Watcher::start(dir.path(), &["--watch", "--interval", "0.02", "-c", "t.hp"]);

    let (first, _) = expected(&content, &flags);
    wait_until("the first render", || {
        std::fs::read(&ps).ok().as_ref() == Some(&first)
    });
    let reader = Reader::start(ps.clone());

    // Whole samples, one at a time: each render is a single run's output.
    for i in 1..8 {
        content.push_str(&sample(i));
        append(&hp, &sample(i));
        let (want_ps, want_aux) = expected(&content, &flags);
        wait_until(&format!("the render after sample {i}"), || {
            std::fs::read(&ps).ok().as_ref() == Some(&want_ps)
        });
        // The .aux is renamed into place after the chart: wait for it too.
        wait_until(&format!("the .aux after sample {i}"), || {
            std::fs::read(dir.path().join("t.aux")).ok().as_ref() == Some(&want_aux)
        });
    }

    // Half a sample, as a program that is still writing leaves it: a new render (a new
    // file, through a rename) that draws the complete samples only.
    let before = inode(&ps);
    let partial = "BEGIN_SAMPLE 9.00\n  main 120\n  le";
    append(&hp, partial);
    wait_until("a render of the half-written sample", || {
        inode(&ps) != before
    });
    let (complete, _) = expected(&content, &flags);
    assert!(std::fs::read(&ps).unwrap() == complete);
    // The program finishes the sample.
    let rest = "ak 300\nEND_SAMPLE 9.00\n";
    append(&hp, rest);
    content.push_str(partial);
    content.push_str(rest);
    let (finished, _) = expected(&content, &flags);
    wait_until("the completed sample", || {
        std::fs::read(&ps).ok().as_ref() == Some(&finished)
    });

    // The profile is replaced by another file (same name, new inode).
    let replacement = format!("{HEADER}{}{}", sample(3), sample(5));
    let temp = dir.path().join("new.tmp");
    std::fs::write(&temp, &replacement).unwrap();
    std::fs::rename(&temp, &hp).unwrap();
    let (replaced, _) = expected(&replacement, &flags);
    wait_until("the render of the replaced file", || {
        std::fs::read(&ps).ok().as_ref() == Some(&replaced)
    });

    let reads = reader.finish();
    assert!(reads > 0, "the reader saw the file");
    watcher.signal(libc::SIGINT);
    let (code, err) = watcher.wait();
    assert_eq!(code, Some(0), "Ctrl-C ends with status 0: {err}");
    assert!(err.starts_with("hp2ps: watching t.hp"), "{err}");
    assert!(
        err.contains("the last sample is still being written"),
        "{err}"
    );
    assert_eq!(
        files_in(dir.path()),
        ["t.aux", "t.hp", "t.ps"],
        "no temporary files"
    );
}

#[test]
fn every_render_replaces_the_output_through_a_rename() {
    let dir = TempDir::new("watch-atomic");
    let hp = dir.path().join("t.hp");
    let svg = dir.path().join("live.svg");
    std::fs::write(&hp, format!("{HEADER}{}", sample(0))).unwrap();
    let watcher = Watcher::start(
        dir.path(),
        &["--watch", "--interval=0.02", "-o", "live.svg", "t.hp"],
    );
    wait_until("the first render", || svg.is_file());
    let mut inodes = vec![inode(&svg)];
    for i in 1..4 {
        append(&hp, &sample(i));
        let last = *inodes.last().unwrap();
        wait_until("a new render", || inode(&svg) != last);
        inodes.push(inode(&svg));
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.trim_end().ends_with("</svg>"), "a whole SVG");
    }
    inodes.dedup();
    assert_eq!(
        inodes.len(),
        4,
        "each render is a new file renamed into place"
    );
    watcher.signal(libc::SIGTERM);
    let (code, _) = watcher.wait();
    assert_eq!(code, Some(0));
    assert_eq!(files_in(dir.path()), ["live.svg", "t.aux", "t.hp"]);
}

#[test]
fn watch_waits_for_the_file_and_for_its_first_sample() {
    let dir = TempDir::new("watch-wait");
    let hp = dir.path().join("t.hp");
    let watcher = Watcher::start(
        dir.path(),
        &[
            "--watch",
            "--interval",
            "0.02",
            "--watch-max-renders",
            "2",
            "t",
        ],
    );
    // Not there yet; then only the header: errors, and the watcher keeps waiting.
    watcher.wait_for_message("t.hp does not exist yet");
    std::fs::write(&hp, HEADER).unwrap();
    watcher.wait_for_message("expected at least one complete sample");
    assert!(!dir.path().join("t.ps").exists());
    append(&hp, &sample(0));
    wait_until("the first render", || dir.path().join("t.ps").is_file());
    append(&hp, &sample(1));
    // The second render is the last one asked for: the watcher exits by itself.
    let (code, err) = watcher.wait();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("t.hp does not exist yet"), "{err}");
    assert!(
        err.contains("expected at least one complete sample"),
        "{err}"
    );
    let (want, _) = expected(&format!("{HEADER}{}{}", sample(0), sample(1)), &[]);
    assert!(std::fs::read(dir.path().join("t.ps")).unwrap() == want);
}

/// A GHC 9.2+ program run with `--eventlog-flush-interval` writes its log a few blocks at
/// a time, each flush possibly ending inside an event: the watcher re-renders after every
/// flush, each time as a single run on the log so far (its complete censuses).
#[test]
fn a_growing_eventlog_is_rerendered_after_every_flush() {
    use support::eventlog::writer::{convert_hp, ConvertOptions, Layout};
    let content: String = std::iter::once(HEADER.to_string())
        .chain((0..12).map(sample))
        .collect();
    let opts = ConvertOptions {
        layout: Layout::ghc_9_2().with_max_events_per_block(4),
        ..ConvertOptions::default()
    };
    let log = convert_hp(content.as_bytes(), &opts).unwrap().eventlog;
    let dir = TempDir::new("watch-eventlog");
    let path = dir.path().join("t.eventlog");
    let ps = dir.path().join("t.ps");
    // Flushes: the header and the first censuses, then pieces that end mid-event.
    let data = log.windows(4).position(|w| w == b"datb").unwrap() + 4;
    let at = |fifths: usize, extra: usize| data + (log.len() - data) * fifths / 5 + extra;
    let cuts = [at(2, 0), at(3, 7), at(4, 3), log.len()];
    std::fs::write(&path, &log[..cuts[0]]).unwrap();
    let watcher = Watcher::start(
        dir.path(),
        &["--watch", "--interval", "0.02", "-c", "t.eventlog"],
    );
    let mut renders = Vec::new();
    for (i, &cut) in cuts.iter().enumerate() {
        if i > 0 {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            f.write_all(&log[cuts[i - 1]..cut]).unwrap();
        }
        let (want, _) = expected_for("t.eventlog", &log[..cut], &["-c"]);
        wait_until(&format!("the render after flush {i}"), || {
            std::fs::read(&ps).ok().as_ref() == Some(&want)
        });
        renders.push(want);
    }
    renders.dedup();
    assert_eq!(renders.len(), cuts.len(), "every flush draws something new");
    watcher.signal(libc::SIGINT);
    let (code, err) = watcher.wait();
    assert_eq!(code, Some(0), "{err}");
    assert!(err.starts_with("hp2ps: watching t.eventlog"), "{err}");
    assert_eq!(files_in(dir.path()), ["t.aux", "t.eventlog", "t.ps"]);
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A watched path that is a FIFO is said to be one and waited out, never opened (its
/// open would wait for a writer through every signal): SIGTERM and SIGINT end the
/// watcher at once, with status 0.
#[test]
fn a_fifo_is_not_opened_and_a_signal_ends_the_watch() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let dir = TempDir::new("watch-fifo");
        mkfifo(&dir.path().join("t.hp"));
        let watcher = Watcher::start(dir.path(), &["--watch", "--interval", "0.02", "t.hp"]);
        watcher.wait_for_message("hp2ps: watching t.hp");
        // Several looks at the path.
        std::thread::sleep(Duration::from_millis(300));
        watcher.signal(signal);
        let (code, err) = watcher.wait();
        assert_eq!(code, Some(0), "signal {signal}: {err}");
        assert!(
            err.contains("t.hp is a FIFO (named pipe), not a regular file"),
            "{err}"
        );
        assert_eq!(err.matches("FIFO").count(), 1, "said once: {err}");
        assert_eq!(files_in(dir.path()), ["t.hp"]);
    }
}

/// A FIFO named without an extension is not opened to see whether it is an eventlog
/// (the open would wait for a writer through the signals): the name means `t.hp`, as
/// for any file that is not an eventlog, and SIGTERM ends the watcher at once.
#[test]
fn a_fifo_without_an_extension_is_not_opened_to_look_at_it() {
    let dir = TempDir::new("watch-fifo-bare");
    mkfifo(&dir.path().join("t"));
    let watcher = Watcher::start(dir.path(), &["--watch", "--interval", "0.02", "t"]);
    watcher.wait_for_message("hp2ps: watching t.hp");
    watcher.signal(libc::SIGTERM);
    let (code, err) = watcher.wait();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files_in(dir.path()), ["t"]);
}

/// A watched file that is deleted is reported, and so is one replaced by something
/// that is not a regular file; when a profile is back, it is rendered again.
#[test]
fn a_deleted_or_replaced_file_is_reported_and_waited_for() {
    let dir = TempDir::new("watch-deleted");
    let hp = dir.path().join("t.hp");
    let content = format!("{HEADER}{}{}", sample(0), sample(1));
    std::fs::write(&hp, &content).unwrap();
    let watcher = Watcher::start(dir.path(), &["--watch", "--interval", "0.02", "t.hp"]);
    watcher.wait_for_message("render 1:");
    std::fs::remove_file(&hp).unwrap();
    watcher.wait_for_message("t.hp was deleted (waiting for it to be written again)");
    mkfifo(&hp);
    watcher.wait_for_message("t.hp is a FIFO (named pipe), not a regular file");
    std::fs::remove_file(&hp).unwrap();
    std::fs::write(&hp, &content).unwrap();
    watcher.wait_for_message("render 2:");
    let (want, _) = expected(&content, &[]);
    assert!(std::fs::read(dir.path().join("t.ps")).unwrap() == want);
    watcher.signal(libc::SIGINT);
    let (code, err) = watcher.wait();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files_in(dir.path()), ["t.aux", "t.hp", "t.ps"]);
}
