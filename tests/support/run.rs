//! The one process runner of the tests. Every program a test starts (this crate's
//! `hp2ps`, GHC's hp2ps, ghostscript, rsvg-convert, chromium, latex, …) goes through
//! [`Cmd`]:
//!
//! - the child runs in its own process group, so a timeout kills it together with
//!   whatever it forked (chromium's helpers, a wrapper script's children);
//! - a timeout (default [`DEFAULT_TIMEOUT`], only there to turn a hang into a failure);
//! - no core files; optional limits on file size (`RLIMIT_FSIZE`) and address space
//!   (`RLIMIT_AS`);
//! - stdin from nothing, bytes, a file or a streaming generator (fed by a thread, so a
//!   gigabyte of input never sits in memory and a full pipe cannot deadlock);
//! - stdout and stderr captured (up to a cap: beyond it the run is killed, or the rest
//!   is dropped), sent to a file, or discarded;
//! - the child's own peak RSS (`wait4`'s rusage) and wall time.
//!
//! [`Cmd::output`] and [`Cmd::status`] mirror `std::process::Command`'s; [`Cmd::run`]
//! gives everything ([`Ran`]). [`Cmd::spawn`] starts a child with the same setup for
//! the few tests that talk to a running process (signals, FIFOs, `--watch`).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

// The result, where the tests have always taken it from (`support::run::Ran`).
#[allow(unused_imports)]
pub use super::ran::{Exit, Ran};

/// Only there to turn a hang into a failure: every run in the tests takes far less.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// Default capture limit for stdout and stderr.
pub const DEFAULT_CAPTURE: usize = 64 << 20;

/// This crate's binary.
pub fn hp2ps_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hp2ps"))
}

/// Writes a generated input to the child's stdin.
pub type Generator = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// What goes to the child's stdin.
pub enum Input {
    /// `/dev/null`.
    Null,
    /// Written by a thread; the child may stop reading early (not an error).
    Bytes(Vec<u8>),
    /// An open file (e.g. the input itself, for filter mode).
    File(File),
    /// Called with the pipe; write errors (the child stopped reading) end it.
    Stream(Generator),
}

/// Where the child's stdout or stderr goes.
pub enum Sink {
    /// A pipe read by a thread into [`Ran::stdout`] / [`Ran::stderr`].
    Capture,
    Null,
    File(File),
}

/// What happens when a captured stream exceeds its cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// Kill the run ([`Exit::OutputLimit`]): only a runaway loop writes that much.
    Kill,
    /// Keep reading, drop the rest (the child is not disturbed).
    Truncate,
}

/// A command to run: `std::process::Command`'s builder plus the runner's settings.
pub struct Cmd {
    cmd: Command,
    stdin: Input,
    stdout: Sink,
    stderr: Sink,
    timeout: Duration,
    address_space: Option<u64>,
    file_size: Option<u64>,
    open_files: Option<u64>,
    stdout_cap: usize,
    stderr_cap: usize,
    overflow: Overflow,
}

impl Cmd {
    pub fn new(program: impl AsRef<OsStr>) -> Cmd {
        Cmd {
            cmd: Command::new(program),
            stdin: Input::Null,
            stdout: Sink::Capture,
            stderr: Sink::Capture,
            timeout: DEFAULT_TIMEOUT,
            address_space: None,
            file_size: None,
            open_files: None,
            stdout_cap: DEFAULT_CAPTURE,
            stderr_cap: DEFAULT_CAPTURE,
            overflow: Overflow::Kill,
        }
    }

    /// This crate's `hp2ps`.
    pub fn hp2ps() -> Cmd {
        Cmd::new(hp2ps_binary())
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Cmd {
        self.cmd.arg(arg);
        self
    }

    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Cmd {
        self.cmd.args(args);
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.cmd.current_dir(dir);
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Cmd {
        self.cmd.env(key, value);
        self
    }

    pub fn stdin(mut self, input: Input) -> Cmd {
        self.stdin = input;
        self
    }

    /// Feeds `bytes` on stdin.
    pub fn stdin_bytes(self, bytes: impl Into<Vec<u8>>) -> Cmd {
        self.stdin(Input::Bytes(bytes.into()))
    }

    /// Opens `path` as stdin.
    pub fn stdin_file(self, path: impl AsRef<Path>) -> Cmd {
        let path = path.as_ref();
        let file = File::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
        self.stdin(Input::File(file))
    }

    pub fn stdout(mut self, sink: Sink) -> Cmd {
        self.stdout = sink;
        self
    }

    pub fn stderr(mut self, sink: Sink) -> Cmd {
        self.stderr = sink;
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Cmd {
        self.timeout = timeout;
        self
    }

    /// `RLIMIT_AS` in bytes: an allocation beyond it fails (and Rust aborts).
    pub fn address_space(mut self, bytes: Option<u64>) -> Cmd {
        self.address_space = bytes;
        self
    }

    /// `RLIMIT_FSIZE` in bytes: writing beyond it kills the child with SIGXFSZ.
    pub fn file_size_limit(mut self, bytes: u64) -> Cmd {
        self.file_size = Some(bytes);
        self
    }

    /// `RLIMIT_NOFILE`: the descriptors the child may have open (`ulimit -n`).
    pub fn open_files(mut self, count: u64) -> Cmd {
        self.open_files = Some(count);
        self
    }

    /// Caps on the captured stdout and stderr, and what exceeding them does.
    pub fn capture_limits(mut self, stdout: usize, stderr: usize, overflow: Overflow) -> Cmd {
        self.stdout_cap = stdout;
        self.stderr_cap = stderr;
        self.overflow = overflow;
        self
    }

    /// The program's name or path, as given.
    pub fn program(&self) -> String {
        self.cmd.get_program().to_string_lossy().into_owned()
    }

    /// Applies the process group, the limits and the stdio set-up, and spawns.
    fn start(&mut self) -> std::io::Result<Child> {
        let stdio = |sink: &Sink| match sink {
            Sink::Capture => Ok(Stdio::piped()),
            Sink::Null => Ok(Stdio::null()),
            Sink::File(f) => f.try_clone().map(Stdio::from),
        };
        let stdin = match &self.stdin {
            Input::Null => Stdio::null(),
            Input::File(f) => Stdio::from(f.try_clone()?),
            Input::Bytes(_) | Input::Stream(_) => Stdio::piped(),
        };
        self.cmd
            .stdin(stdin)
            .stdout(stdio(&self.stdout)?)
            .stderr(stdio(&self.stderr)?);
        // Own process group: the child and whatever it forks die together, by our
        // child's id, without touching anything else.
        self.cmd.process_group(0);
        let (address_space, file_size) = (self.address_space, self.file_size);
        let open_files = self.open_files;
        // SAFETY: only async-signal-safe setrlimit calls between fork and exec.
        unsafe {
            self.cmd.pre_exec(move || {
                let limit = |resource, bytes: u64| {
                    let r = libc::rlimit {
                        rlim_cur: bytes as libc::rlim_t,
                        rlim_max: bytes as libc::rlim_t,
                    };
                    libc::setrlimit(resource, &r);
                };
                // Programs crash on some hostile inputs: no core files.
                limit(libc::RLIMIT_CORE, 0);
                if let Some(bytes) = file_size {
                    limit(libc::RLIMIT_FSIZE, bytes);
                }
                if let Some(bytes) = address_space {
                    limit(libc::RLIMIT_AS, bytes);
                }
                if let Some(count) = open_files {
                    limit(libc::RLIMIT_NOFILE, count);
                }
                Ok(())
            });
        }
        self.cmd.spawn()
    }

    /// Starts the child with the runner's set-up (own process group, limits) for a
    /// test that interacts with it while it runs; the test waits for it. Captured
    /// streams are left as pipes in the `Child`; `Input::Bytes` and `Input::Stream`
    /// are not supported here.
    pub fn spawn(mut self) -> Child {
        assert!(
            matches!(self.stdin, Input::Null | Input::File(_)),
            "Cmd::spawn: stdin must be Null or a file"
        );
        let program = self.program();
        self.start()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    /// Runs to the end (or the timeout); `Err` only when the program cannot be started.
    pub fn try_run(mut self) -> std::io::Result<Ran> {
        let start = Instant::now();
        // Reaped below by `wait4`, which also gives the child's own peak RSS.
        #[allow(clippy::zombie_processes)]
        let mut child = self.start()?;
        let writer = child.stdin.take().map(|mut pipe| {
            let input = std::mem::replace(&mut self.stdin, Input::Null);
            std::thread::spawn(move || {
                // The child may stop reading early (it refused the input): not an error.
                let _ = match input {
                    Input::Bytes(b) => pipe.write_all(&b),
                    Input::Stream(f) => f(&mut pipe),
                    Input::Null | Input::File(_) => Ok(()),
                };
            })
        });
        let overflow = Arc::new(AtomicBool::new(false));
        let kill = self.overflow == Overflow::Kill;
        let out = child
            .stdout
            .take()
            .map(|p| reader(p, self.stdout_cap, kill, overflow.clone()));
        let err = child
            .stderr
            .take()
            .map(|p| reader(p, self.stderr_cap, kill, overflow.clone()));
        let pid = child.id() as libc::pid_t;
        let (status, usage, killed) = wait4(pid, self.timeout, &overflow);
        if let Some(w) = writer {
            let _ = w.join();
        }
        let join =
            |h: Option<JoinHandle<Vec<u8>>>| h.map_or_else(Vec::new, |h| h.join().expect("reader"));
        let status = ExitStatus::from_raw(status);
        Ok(Ran {
            program: self.program(),
            code: status.code(),
            signal: status.signal(),
            status,
            timed_out: killed == Some(Exit::TimedOut),
            output_limit: killed == Some(Exit::OutputLimit),
            stdout: join(out),
            stderr: join(err),
            max_rss_kib: usage.ru_maxrss,
            elapsed: start.elapsed(),
        })
    }

    /// Runs to the end (or the timeout); panics when the program cannot be started.
    pub fn run(self) -> Ran {
        let program = self.program();
        self.try_run()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    /// Like `Command::output`: the status and the captured streams. Panics when the
    /// program cannot be started or had to be killed (timeout, runaway output).
    pub fn output(self) -> Output {
        self.run().into_output()
    }

    /// Like `Command::status`, with the same panics as [`Cmd::output`].
    pub fn status(self) -> ExitStatus {
        self.output().status
    }
}

/// Reads a pipe to the end (so the child never blocks on a full pipe), keeping at most
/// `cap` bytes and flagging anything beyond it when `kill` is set.
fn reader(
    mut pipe: impl Read + Send + 'static,
    cap: usize,
    kill: bool,
    overflow: Arc<AtomicBool>,
) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if kill {
                        if kept.len() + n > cap {
                            overflow.store(true, Ordering::Relaxed);
                        } else {
                            kept.extend_from_slice(&buf[..n]);
                        }
                    } else {
                        let room = cap.saturating_sub(kept.len());
                        kept.extend_from_slice(&buf[..n.min(room)]);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        kept
    })
}

/// Waits for `pid` with its own rusage; kills its process group after `timeout` or
/// when `overflow` is raised, and says why.
fn wait4(
    pid: libc::pid_t,
    timeout: Duration,
    overflow: &AtomicBool,
) -> (i32, libc::rusage, Option<Exit>) {
    let start = Instant::now();
    let mut killed = None;
    // Most runs take a few milliseconds: poll finely at first, so that thousands of
    // runs do not each wait out a long sleep.
    let mut pause = Duration::from_micros(50);
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 fills it in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if killed.is_some() { 0 } else { libc::WNOHANG };
        // SAFETY: plain wait4 on our own child.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if r == pid {
            return (status, usage, killed);
        }
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        assert!(r == 0, "wait4: {}", std::io::Error::last_os_error());
        killed = if overflow.load(Ordering::Relaxed) {
            Some(Exit::OutputLimit)
        } else if start.elapsed() > timeout {
            Some(Exit::TimedOut)
        } else {
            None
        };
        if killed.is_some() {
            // SAFETY: kill(2) on the process group we created for this child.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            continue;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// This crate's `hp2ps` in `dir` with `args` and stdin `input`, as the robustness tests
/// run it: a 60 s timeout, stdout kept up to 64 MiB and stderr up to 1 MiB (the rest
/// read and dropped).
pub fn hp2ps<S: AsRef<OsStr>>(dir: &Path, args: &[S], input: Input) -> Ran {
    Cmd::hp2ps()
        .args(args)
        .current_dir(dir)
        .stdin(input)
        .timeout(Duration::from_secs(60))
        .capture_limits(64 << 20, 1 << 20, Overflow::Truncate)
        .run()
}
