//! Runs the `hp2ps` binary the way the robustness tests need: stdin streamed from a
//! generator (so a gigabyte of input never sits in the test's memory), an optional
//! address-space limit, a timeout, and the child's own peak RSS from `wait4`.

#![allow(dead_code)]

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Writes a generated input to the child's stdin.
pub type Generator = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// What goes to the child's stdin.
pub enum Input {
    Null,
    Bytes(Vec<u8>),
    /// Called with the pipe; write errors (the child stopped reading) end it.
    Stream(Generator),
}

/// How a run ended, with what it printed and its peak memory.
#[derive(Debug)]
pub struct Ran {
    /// The exit status, `None` when a signal ended it.
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Peak resident set size of the child, in KiB.
    pub max_rss_kib: i64,
    pub elapsed: Duration,
}

impl Ran {
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// A one-line summary for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "code {:?} signal {:?} timed out {} rss {} KiB, stderr: {}",
            self.code,
            self.signal,
            self.timed_out,
            self.max_rss_kib,
            self.stderr_text().trim_end()
        )
    }
}

pub struct Options {
    pub timeout: Duration,
    /// RLIMIT_AS in bytes: an allocation beyond it fails (and Rust aborts).
    pub address_space: Option<u64>,
    /// Keep at most this much of stdout (the rest is read and dropped).
    pub stdout_cap: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(60),
            address_space: None,
            stdout_cap: 64 << 20,
        }
    }
}

/// The binary under test.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hp2ps"))
}

pub fn hp2ps<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S], input: Input) -> Ran {
    run(&binary(), dir, args, input, &Options::default())
}

/// Runs `prog args` in `dir`.
pub fn run<S: AsRef<std::ffi::OsStr>>(
    prog: &Path,
    dir: &Path,
    args: &[S],
    input: Input,
    opts: &Options,
) -> Ran {
    let mut cmd = Command::new(prog);
    cmd.args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(match input {
            Input::Null => Stdio::null(),
            _ => Stdio::piped(),
        })
        .process_group(0);
    let limit = opts.address_space;
    // SAFETY: only async-signal-safe setrlimit calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &core);
            if let Some(bytes) = limit {
                let r = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                libc::setrlimit(libc::RLIMIT_AS, &r);
            }
            Ok(())
        });
    }
    let start = Instant::now();
    // Reaped below by `wait4`, which also gives the child's own peak RSS.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd.spawn().expect("spawn hp2ps");
    let writer = child.stdin.take().map(|mut pipe| {
        std::thread::spawn(move || {
            // The child may stop reading early (it refused the input): not an error.
            let _ = match input {
                Input::Bytes(b) => pipe.write_all(&b),
                Input::Stream(f) => f(&mut pipe),
                Input::Null => Ok(()),
            };
        })
    });
    let out = reader(child.stdout.take().expect("stdout"), opts.stdout_cap);
    let err = reader(child.stderr.take().expect("stderr"), 1 << 20);
    let pid = child.id() as libc::pid_t;
    let (status, usage, timed_out) = wait4(pid, opts.timeout);
    if let Some(w) = writer {
        let _ = w.join();
    }
    Ran {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        timed_out,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
        max_rss_kib: usage.ru_maxrss,
        elapsed: start.elapsed(),
    }
}

fn reader(mut pipe: impl Read + Send + 'static, cap: usize) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// Waits for `pid` with its own rusage; kills its process group after `timeout`.
fn wait4(pid: libc::pid_t, timeout: Duration) -> (i32, libc::rusage, bool) {
    let start = Instant::now();
    let mut timed_out = false;
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 fills it in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: plain wait4 on our own child.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if r == pid {
            return (status, usage, timed_out);
        }
        assert!(r == 0, "wait4: {}", std::io::Error::last_os_error());
        if start.elapsed() > timeout {
            // SAFETY: kill(2) on the process group we created for this child.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            timed_out = true;
            continue;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A fresh directory, removed on drop.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("hp2ps-robust-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create scratch dir");
        Scratch(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Every entry of the directory and its bytes (directories as empty), sorted.
    pub fn snapshot(&self) -> Vec<(OsString, Vec<u8>)> {
        snapshot(&self.0)
    }
}

pub fn snapshot(dir: &Path) -> Vec<(OsString, Vec<u8>)> {
    let mut v: Vec<(OsString, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            let e = e.expect("dir entry");
            let bytes = if e.path().is_file() {
                std::fs::read(e.path()).unwrap_or_default()
            } else {
                Vec::new()
            };
            (e.file_name(), bytes)
        })
        .collect();
    v.sort();
    v
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The closing line of a run over several files: `hp2ps: 1 of 2 files failed`.
fn is_batch_summary(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    matches!(words.as_slice(), ["hp2ps:", n, "of", m, "files", "failed"]
        if n.parse::<u64>().is_ok() && m.parse::<u64>().is_ok())
}

/// Compares two directory snapshots, naming the differing entries (not their bytes).
pub fn assert_same_files(
    before: &[(OsString, Vec<u8>)],
    after: &[(OsString, Vec<u8>)],
    what: &str,
) {
    if before != after {
        let list = |s: &[(OsString, Vec<u8>)]| {
            s.iter()
                .map(|(n, b)| format!("{} ({} bytes)", n.to_string_lossy(), b.len()))
                .collect::<Vec<_>>()
        };
        panic!(
            "{what}: files changed: before {:?}, after {:?}",
            list(before),
            list(after)
        );
    }
}

/// The one line `hp2ps: FILE:LINE:COL: …` a refused input must give, or why not.
pub fn positioned_error_line(stderr: &[u8], file: &str) -> Result<(u64, u64), String> {
    let text = String::from_utf8_lossy(stderr);
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("hp2ps: warning:") && !is_batch_summary(l))
        .collect();
    let [line] = errors.as_slice() else {
        return Err(format!("expected one error line, got {text:?}"));
    };
    let prefix = format!("hp2ps: {file}:");
    let rest = line
        .strip_prefix(&prefix)
        .ok_or_else(|| format!("{line:?} does not start with {prefix:?}"))?;
    let mut parts = rest.splitn(3, ':');
    let num = |p: Option<&str>| p.and_then(|s| s.parse::<u64>().ok());
    match (num(parts.next()), num(parts.next()), parts.next()) {
        (Some(l), Some(c), Some(msg)) if l >= 1 && c >= 1 && msg.len() > 2 => Ok((l, c)),
        _ => Err(format!("{line:?} names no LINE:COL")),
    }
}
