//! Running one program on one input in a fresh directory, with a timeout and
//! output limits, and collecting everything it produced.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The input is always copied in under this name, so both programs derive the
/// same output names (`t.ps`, `t.aux`) from it.
pub const INPUT: &str = "t.hp";
pub const PS: &str = "t.ps";
pub const AUX: &str = "t.aux";

/// hp2ps has inputs on which it never terminates (huge sample times); 10 s is
/// far above its normal run time of a few milliseconds.
pub const REFERENCE_TIMEOUT: Duration = Duration::from_secs(10);
/// Our binary may be a debug build on a loaded machine: allow more.
pub const OURS_TIMEOUT: Duration = Duration::from_secs(30);

/// Larger outputs only come from runaway loops (hp2ps writes ~45 MB/s when it
/// hangs); the limits stop them early instead of filling the disk or memory.
const FILE_SIZE_LIMIT: u64 = 64 << 20;
const PIPE_CAPTURE_LIMIT: usize = 64 << 20;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    /// Killed by us after the timeout.
    TimedOut,
    /// Killed by us because a pipe produced more than the capture limit.
    OutputLimit,
}

impl Exit {
    pub fn describe(&self) -> String {
        match self {
            Exit::Code(c) => format!("exit {c}"),
            Exit::Signal(s) => format!("killed by signal {s}"),
            Exit::TimedOut => "timed out".to_string(),
            Exit::OutputLimit => "output limit exceeded".to_string(),
        }
    }
}

/// One invocation: the complete argument list and where the profile comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Arguments after the program name (file name included in file mode).
    pub args: Vec<String>,
    /// Filter mode: the profile is fed on stdin (and `args` names no file).
    pub stdin: bool,
}

impl Run {
    /// `prog FLAGS t.hp`
    pub fn file<S: AsRef<str>>(flags: &[S]) -> Self {
        let mut args: Vec<String> = flags.iter().map(|f| f.as_ref().to_string()).collect();
        args.push(INPUT.to_string());
        Run { args, stdin: false }
    }

    /// `prog FLAGS < t.hp`
    pub fn filter<S: AsRef<str>>(flags: &[S]) -> Self {
        let args = flags.iter().map(|f| f.as_ref().to_string()).collect();
        Run { args, stdin: true }
    }

    /// Exactly these arguments, profile as a file (for file-name spellings).
    pub fn raw<S: AsRef<str>>(args: &[S]) -> Self {
        let args = args.iter().map(|f| f.as_ref().to_string()).collect();
        Run { args, stdin: false }
    }

    /// Shell-like rendering for reports, e.g. `hp2ps -c t.hp` or `hp2ps -c < t.hp`.
    pub fn describe(&self) -> String {
        let mut s = String::from("hp2ps");
        for a in &self.args {
            s.push(' ');
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'') {
                s.push_str(&format!("{a:?}"));
            } else {
                s.push_str(a);
            }
        }
        if self.stdin {
            s.push_str(" < ");
            s.push_str(INPUT);
        }
        s
    }
}

/// Everything observable about one run.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub exit: Exit,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Every regular file in the run directory afterwards (the input included).
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Outcome {
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(Vec::as_slice)
    }

    /// The PostScript: stdout in filter mode, `t.ps` otherwise.
    pub fn postscript(&self, run: &Run) -> Option<&[u8]> {
        if run.stdin {
            Some(&self.stdout)
        } else {
            self.file(PS)
        }
    }
}

/// A uniquely named directory under the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let base = scratch_base();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("hp2ps-diff-{}-{tag}-{n}", std::process::id()));
            match std::fs::create_dir(&path) {
                Ok(()) => return TempDir(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", path.display()),
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// Where run directories go: `$HP2PS_DIFF_TMPDIR`, else the RAM-backed
/// `/dev/shm` when usable (thousands of runs, and a program that fsyncs its
/// outputs pays for a disk flush per run on a real disk), else the temp dir.
fn scratch_base() -> PathBuf {
    if let Some(dir) = std::env::var_os("HP2PS_DIFF_TMPDIR") {
        return PathBuf::from(dir);
    }
    let shm = Path::new("/dev/shm");
    let usable = shm.is_dir() && std::fs::metadata(shm).is_ok_and(|m| !m.permissions().readonly());
    if usable {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `prog` per `run` in a fresh directory holding `t.hp` = `input` and,
/// if given, `t.aux` = `aux`; returns what it printed and left behind.
pub fn run_program(
    prog: &Path,
    input: &[u8],
    aux: Option<&[u8]>,
    run: &Run,
    timeout: Duration,
) -> Outcome {
    let dir = TempDir::new("run");
    let input_path = dir.path().join(INPUT);
    std::fs::write(&input_path, input).expect("write t.hp");
    if let Some(aux) = aux {
        std::fs::write(dir.path().join(AUX), aux).expect("write t.aux");
    }
    let mut cmd = Command::new(prog);
    cmd.args(&run.args).current_dir(dir.path());
    if run.stdin {
        cmd.stdin(std::fs::File::open(&input_path).expect("open t.hp"));
    } else {
        cmd.stdin(Stdio::null());
    }
    let mut outcome = run_command(cmd, timeout);
    outcome.files = collect_files(dir.path());
    outcome
}

/// Runs a prepared command (stdin already set) in its own process group, with
/// a file-size limit, and kills the group on timeout or runaway output.
/// `files` of the result is empty.
pub fn run_command(mut cmd: Command, timeout: Duration) -> Outcome {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // Own process group: a wrapper script and its children can be killed as
    // one unit, by our child's id, without touching anything else.
    cmd.process_group(0);
    // SAFETY: only async-signal-safe setrlimit calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            // A hanging hp2ps grows its .ps without bound: SIGXFSZ stops it.
            let fsize = libc::rlimit {
                rlim_cur: FILE_SIZE_LIMIT as libc::rlim_t,
                rlim_max: FILE_SIZE_LIMIT as libc::rlim_t,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &fsize);
            // hp2ps segfaults on some inputs; no core files in the run dir.
            let core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &core);
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()));
    let overflow = Arc::new(AtomicBool::new(false));
    let out = spawn_reader(child.stdout.take().expect("stdout"), overflow.clone());
    let err = spawn_reader(child.stderr.take().expect("stderr"), overflow.clone());
    let exit = wait_with_limits(&mut child, timeout, &overflow);
    Outcome {
        exit,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
        files: BTreeMap::new(),
    }
}

/// Reads a pipe to the end (so the child never blocks on a full pipe),
/// keeping at most the capture limit and flagging anything beyond it.
fn spawn_reader(
    mut pipe: impl Read + Send + 'static,
    overflow: Arc<AtomicBool>,
) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 64 * 1024];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if kept.len() + n > PIPE_CAPTURE_LIMIT {
                        overflow.store(true, Ordering::Relaxed);
                    } else {
                        kept.extend_from_slice(&buf[..n]);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        kept
    })
}

/// Polls the child until it exits, the timeout passes or output overflows.
fn wait_with_limits(child: &mut Child, timeout: Duration, overflow: &AtomicBool) -> Exit {
    let start = Instant::now();
    // Most runs take a few milliseconds: poll finely so that thousands of
    // runs do not each wait out a long sleep.
    let mut pause = Duration::from_micros(50);
    loop {
        if let Some(status) = child.try_wait().expect("wait for child") {
            return match (status.code(), status.signal()) {
                (Some(c), _) => Exit::Code(c),
                (None, Some(s)) => Exit::Signal(s),
                (None, None) => Exit::Signal(-1),
            };
        }
        let killed_because = if overflow.load(Ordering::Relaxed) {
            Some(Exit::OutputLimit)
        } else if start.elapsed() > timeout {
            Some(Exit::TimedOut)
        } else {
            None
        };
        if let Some(exit) = killed_because {
            kill_group(child);
            return exit;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// Kills the process group we created for `child` (its id is the group id).
fn kill_group(child: &mut Child) {
    let pgid = child.id() as libc::pid_t;
    // SAFETY: plain kill(2) on the group we created; no memory is involved.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
    let _ = child.wait();
}

/// Every regular file in `dir`, by name.
fn collect_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("read run dir") {
        let entry = entry.expect("dir entry");
        let path = entry.path();
        if path.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.insert(name, std::fs::read(&path).expect("read output file"));
        }
    }
    files
}
