//! Locating the programs the differential tests need: the real hp2ps (the
//! reference), ghostscript, and the binary under test.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::runner::{self, Exit, TempDir};

/// The reference implementation: Debian's GHC package installs it here.
pub const REFERENCE: &str = "/usr/bin/hp2ps";
/// Ghostscript, used to check that PostScript is accepted by a real interpreter.
pub const GHOSTSCRIPT: &str = "/usr/bin/gs";
/// Replaces the crate's own binary, e.g. `HP2PS_UNDER_TEST=/usr/bin/hp2ps` to
/// self-test the harness (hp2ps against itself) while the crate is unfinished.
pub const UNDER_TEST_VAR: &str = "HP2PS_UNDER_TEST";

/// CI installs the external tools, so there a missing tool is a failure
/// rather than a skip (a green run must mean the comparison really ran).
pub fn in_ci() -> bool {
    match std::env::var("CI") {
        Ok(v) => !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")),
        Err(_) => false,
    }
}

/// Returns whether `path` exists; if not, prints the loud skip message, or
/// panics when running under CI.
pub fn require_tool(path: &str, install_hint: &str) -> bool {
    if Path::new(path).is_file() {
        return true;
    }
    let message =
        format!("SKIPPED: {path} not found — {install_hint} to run the differential tests");
    assert!(
        !in_ci(),
        "{message} (CI is set: a missing tool fails the test)"
    );
    eprintln!("{message}");
    false
}

/// The skip/fail gate for every test that runs the real hp2ps.
pub fn require_reference() -> bool {
    require_tool(REFERENCE, "install ghc (apt-get install -y ghc)")
}

/// The skip/fail gate for every test that runs ghostscript.
pub fn require_ghostscript() -> bool {
    require_tool(
        GHOSTSCRIPT,
        "install ghostscript (apt-get install -y ghostscript)",
    )
}

/// The binary under test: `$HP2PS_UNDER_TEST` if set, else this crate's `hp2ps`.
pub fn under_test() -> PathBuf {
    let path = match std::env::var_os(UNDER_TEST_VAR) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_hp2ps")),
    };
    assert!(
        path.is_file(),
        "binary under test {} does not exist",
        path.display()
    );
    path
}

/// The pair of programs a differential case runs.
#[derive(Clone, Debug)]
pub struct Programs {
    pub reference: PathBuf,
    pub ours: PathBuf,
}

impl Programs {
    pub fn new() -> Self {
        Programs {
            reference: PathBuf::from(REFERENCE),
            ours: under_test(),
        }
    }
}

impl Default for Programs {
    fn default() -> Self {
        Self::new()
    }
}

/// Renders `ps` with ghostscript on the null device. Ok when gs exits 0 and
/// prints nothing (with `-q`, any output is an error report or a warning).
pub fn ghostscript_accepts(ps: &[u8]) -> Result<(), String> {
    let dir = TempDir::new("gs");
    let file = dir.path().join("check.ps");
    std::fs::write(&file, ps).expect("write PostScript for gs");
    let mut cmd = Command::new(GHOSTSCRIPT);
    cmd.args([
        "-dSAFER",
        "-dBATCH",
        "-dNOPAUSE",
        "-sDEVICE=nullpage",
        "-q",
        "check.ps",
    ])
    .current_dir(dir.path())
    .stdin(Stdio::null());
    let out = runner::run_command(cmd, Duration::from_secs(60));
    let mut text = out.stdout.clone();
    text.extend_from_slice(&out.stderr);
    match out.exit {
        Exit::Code(0) if text.is_empty() => Ok(()),
        exit => {
            // The first line names the error (`Error: /syntaxerror in …`);
            // the stack dumps after it are noise in a test report.
            let text = String::from_utf8_lossy(&text);
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            Err(format!("gs {}: {first}", exit.describe()))
        }
    }
}
