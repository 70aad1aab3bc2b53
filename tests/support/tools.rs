//! The external programs the tests use, the one policy for a missing one, and the
//! programs of the differential tests (GHC's hp2ps, the binary under test).
//!
//! # A missing tool
//!
//! [`require`] is the only gate. When the tool is there it returns true. When it is
//! not, it prints a loud
//!
//! ```text
//! SKIPPED: <suite>::<test>: <tool> not found (install <debian package>)
//! ```
//!
//! on the test process's stderr (not captured by the harness, so it shows in a normal
//! `cargo test` run) and returns false, so the test returns early and passes, except under CI
//! ([`in_ci`]), where a missing tool panics: CI installs every tool (`.ci/run`), so
//! a green CI run means every comparison really ran.
//!
//! # Missing test data
//!
//! The published crate leaves the largest test data out (`Cargo.toml`'s `exclude`: the
//! real profiles of `tests/data/large/`, the `-hi` programs of `tests/data/ghc-9.10/bin/`).
//! [`require_data`] is their gate, with the same policy: `SKIPPED: <suite>::<test>:
//! <path> is not in this copy (...)` and false, or a panic under CI, which runs on the
//! repository, where every file is.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::run::{Cmd, Exit};
use super::scratch::TempDir;

/// Every external tool a test may [`require`], with the Debian package that provides
/// it (`.ci/run` installs them all; `tests/README.md` lists which suite needs which).
pub const TOOLS: &[(&str, &str)] = &[
    (REFERENCE, "ghc"),
    // Building programs with profiling (`ghc -prof`) needs the profiled libraries too.
    ("ghc", "ghc ghc-prof"),
    (GHOSTSCRIPT, "ghostscript"),
    ("gs", "ghostscript"),
    ("rsvg-convert", "librsvg2-bin"),
    ("pdftocairo", "poppler-utils"),
    ("/usr/bin/pdftotext", "poppler-utils"),
    ("/usr/bin/qpdf", "qpdf"),
    ("/usr/bin/xmllint", "libxml2-utils"),
    ("chromium", "chromium"),
    ("chromedriver", "chromium-driver"),
    ("latex", "texlive-latex-base"),
    ("dvips", "texlive-latex-base"),
    ("pdflatex", "texlive-latex-base"),
    ("/usr/bin/groff", "groff-base"),
    ("/bin/bash", "bash"),
    ("nm", "binutils"),
    ("git", "git"),
    ("promtool", "prometheus"),
    ("prometheus", "prometheus"),
    ("prometheus-pushgateway", "prometheus-pushgateway"),
    ("go", "golang-go"),
    // Not a Debian package: `cargo install inferno` (.ci/run installs it).
    (INFERNO_GHCPROF, "inferno: cargo install inferno"),
];

/// inferno's folder of GHC's `.prof` reports into folded stacks: the second opinion on
/// ours (`tests/prof_inferno.rs`).
pub const INFERNO_GHCPROF: &str = "inferno-collapse-ghcprof";

/// The reference implementation: Debian's GHC package installs it here.
pub const REFERENCE: &str = "/usr/bin/hp2ps";
/// Ghostscript, used to check that PostScript is accepted by a real interpreter.
pub const GHOSTSCRIPT: &str = "/usr/bin/gs";
/// Replaces the crate's own binary, e.g. `HP2PS_UNDER_TEST=/usr/bin/hp2ps` to
/// self-test the harness (hp2ps against itself) while the crate is unfinished.
pub const UNDER_TEST_VAR: &str = "HP2PS_UNDER_TEST";

/// Whether the tests run under CI: true iff the environment variable `CI` is `true`,
/// compared case-insensitively (GitHub Actions, GitLab CI and most others set
/// `CI=true`). Anything else — unset, empty, `1`, `false`, `0` — is not CI.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true"))
}

/// Finds a program: a path containing `/` as it is, a bare name on `PATH`.
pub fn find_tool(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let path = Path::new(name);
        return path.is_file().then(|| path.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The Debian package of a tool in [`TOOLS`].
pub fn package_of(tool: &str) -> &'static str {
    TOOLS
        .iter()
        .find(|(t, _)| *t == tool)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| panic!("{tool} is not in support::tools::TOOLS"))
}

/// The name a skip message gives the running test: `<test crate>::<test>`.
fn suite() -> String {
    let krate = env!("CARGO_CRATE_NAME");
    match std::thread::current().name() {
        Some(test) if test != "main" => format!("{krate}::{test}"),
        _ => krate.to_string(),
    }
}

/// The one "tool missing" policy: true when `tool` is there; otherwise prints
/// `SKIPPED: <suite>: <tool> not found (install <package>)` and returns false, or
/// panics under CI. See the module doc.
pub fn require(tool: &str) -> bool {
    require_all(&[tool])
}

/// [`require`] for several tools: true when all are there; one message per missing one.
pub fn require_all(tools: &[&str]) -> bool {
    let missing: Vec<String> = tools
        .iter()
        .filter(|t| find_tool(t).is_none())
        .map(|t| {
            format!(
                "SKIPPED: {}: {t} not found (install {})",
                suite(),
                package_of(t)
            )
        })
        .collect();
    skip_unless_ci(&missing, "a missing tool")
}

/// The gate for test data that the published crate leaves out (see the module doc):
/// true when every path (relative to the crate's root) is there; otherwise a
/// `SKIPPED` line for each missing one and false, or a panic under CI.
pub fn require_data(paths: &[&str]) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing: Vec<String> = paths
        .iter()
        .filter(|p| !root.join(p).exists())
        .map(|p| {
            format!(
                "SKIPPED: {}: {p} is not in this copy (the published crate leaves it out; \
                 a clone of the repository has it)",
                suite()
            )
        })
        .collect();
    skip_unless_ci(&missing, "missing test data")
}

/// The gate for an npm package the tests install for themselves (`.ci/run` runs `npm ci`
/// in `dir`, relative to the crate's root): true when `dir/node_modules/package` is
/// there; otherwise a `SKIPPED` line and false, or a panic under CI.
pub fn require_npm(dir: &str, package: &str) -> bool {
    let path = format!("{dir}/node_modules/{package}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing: Vec<String> = match root.join(&path).exists() {
        true => Vec::new(),
        false => vec![format!(
            "SKIPPED: {}: {path} is not installed (npm ci in {dir}: .ci/run does it)",
            suite()
        )],
    };
    skip_unless_ci(&missing, "a missing npm package")
}

/// The gate for the shared corpus read in place (`../shared/corpus/…`, files of other
/// people's repositories, never copied into this one): true when `path` (relative to
/// the crate's root) is there; else a `SKIPPED` line and false, or a panic under CI.
pub fn require_shared(path: &str) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if root.join(path).exists() {
        return true;
    }
    let line = format!(
        "SKIPPED: {}: {path} is not here (the shared corpus, read in place and never \
         copied: a checkout beside ../shared has it)",
        suite()
    );
    skip_unless_ci(&[line], "the missing shared corpus")
}

/// True when nothing is missing; else prints the `SKIPPED` lines and returns false,
/// or panics under CI.
fn skip_unless_ci(missing: &[String], what: &str) -> bool {
    if missing.is_empty() {
        return true;
    }
    let message = missing.join("\n");
    assert!(!in_ci(), "{message}\nCI=true: {what} fails the test");
    // Straight to the process's stderr, not through `eprintln!`, which the test
    // harness captures (and hides) for a test that passes.
    let _ = writeln!(std::io::stderr().lock(), "{message}");
    false
}

/// The gate for every test that runs the real hp2ps.
pub fn require_reference() -> bool {
    require(REFERENCE)
}

/// The gate for every test that runs ghostscript.
pub fn require_ghostscript() -> bool {
    require(GHOSTSCRIPT)
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
    std::fs::write(dir.path().join("check.ps"), ps).expect("write PostScript for gs");
    let out = Cmd::new(GHOSTSCRIPT)
        .args([
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=nullpage",
            "-q",
            "check.ps",
        ])
        .current_dir(dir.path())
        .timeout(Duration::from_secs(60))
        .run();
    let mut text = out.stdout.clone();
    text.extend_from_slice(&out.stderr);
    match out.exit() {
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

/// `go tool pprof ARGS FILE`'s output (the pprof suites' oracle), which must succeed.
pub fn go_tool_pprof(args: &[&str], file: &Path) -> String {
    let ran = Cmd::new("go")
        .args(["tool", "pprof"])
        .args(args)
        .arg(file)
        .env("HOME", std::env::temp_dir())
        .timeout(Duration::from_secs(60))
        .run();
    assert_eq!(
        ran.code,
        Some(0),
        "go tool pprof {args:?} {}: {}",
        file.display(),
        ran.describe()
    );
    String::from_utf8(ran.stdout).expect("UTF-8")
}
