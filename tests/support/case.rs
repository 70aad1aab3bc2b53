//! One differential case: a program run (through [`super::run::Cmd`]) on one input in
//! a fresh directory, with a timeout and output limits, and everything it produced.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

pub use super::run::Exit;
use super::run::{Cmd, Overflow};
use super::scratch::TempDir;

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
    let cmd = Cmd::new(prog)
        .args(&run.args)
        .current_dir(dir.path())
        .timeout(timeout)
        .file_size_limit(FILE_SIZE_LIMIT)
        .capture_limits(PIPE_CAPTURE_LIMIT, PIPE_CAPTURE_LIMIT, Overflow::Kill);
    let cmd = if run.stdin {
        cmd.stdin_file(&input_path)
    } else {
        cmd
    };
    let ran = cmd.run();
    Outcome {
        exit: ran.exit(),
        stdout: ran.stdout,
        stderr: ran.stderr,
        files: collect_files(dir.path()),
    }
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
