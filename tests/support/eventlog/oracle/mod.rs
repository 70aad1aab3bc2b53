//! A second, independent eventlog oracle: GHC's reference parser, the Haskell library
//! **ghc-events**, run through the small program `ghc_events_dump.hs` (next to this file).
//!
//! The program is compiled once with `ghc -O0` into a cache under Cargo's target directory
//! (`CARGO_TARGET_TMPDIR/ghc-events-dump/`), keyed by a hash of its source. Concurrent test
//! processes each build in a private directory and publish the binary with an atomic
//! rename, so no lock is needed; within a process the build happens once.
//!
//! Without `ghc` or the ghc-events package, [`oracle`] prints a loud `SKIPPED:` line and
//! returns `None`, except when the environment variable `CI` is `true`: then it panics,
//! so CI cannot pass by skipping.
#![allow(dead_code)] // Each test binary that mounts this module uses a different part of it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

// The parts: what ghc-events decoded, and reading the dump program's output.
mod dump;
mod parse;

#[allow(unused_imports)]
pub use dump::{string_bands, Band, Census, DeclaredType, Dump, Event, Kind, Outcome};
#[allow(unused_imports)]
pub use parse::{parse_dump, unescape};

const SOURCE: &str = include_str!("ghc_events_dump.hs");

/// The compiled dump program, or why it is unavailable.
fn built() -> &'static Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(build)
}

/// Returns the dump program, compiling it on first use. `None` (after printing
/// `SKIPPED: …`) if `ghc` or ghc-events is missing; panics instead when `CI=true`.
pub fn oracle() -> Option<&'static Path> {
    match built() {
        Ok(p) => Some(p.as_path()),
        Err(why) => {
            let msg = format!(
                "SKIPPED: ghc-events oracle unavailable ({why}); \
                 install it with `apt-get install -y ghc libghc-ghc-events-dev`"
            );
            if crate::support::tools::in_ci() {
                panic!("{msg} (CI=true: missing tools are a failure)");
            }
            // Once per process, and past libtest's output capture (which only catches
            // the print macros), so the skip is visible in a normal `cargo test` run.
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "\n!!!!!!!! {msg} !!!!!!!!\n");
            });
            None
        }
    }
}

/// 64-bit FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ghc-events-dump")
}

fn build() -> Result<PathBuf, String> {
    let dir = cache_dir();
    let target = dir.join(format!("ghc-events-dump-{:016x}", fnv1a(SOURCE.as_bytes())));
    if target.is_file() {
        return Ok(target);
    }
    // Tool checks come first so that their absence is a skip, not a failure.
    let ghc = Command::new("ghc").arg("--numeric-version").output();
    match ghc {
        Ok(o) if o.status.success() => {}
        Ok(_) | Err(_) => return Err("`ghc` not found or not working".into()),
    }
    let pkg = Command::new("ghc-pkg")
        .args(["--simple-output", "field", "ghc-events", "version"])
        .output();
    match pkg {
        Ok(o) if o.status.success() && !o.stdout.is_empty() => {}
        _ => return Err("the Haskell package ghc-events is not installed".into()),
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let work = dir.join(format!("build-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("creating {}: {e}", work.display()))?;
    let src = work.join("ghc_events_dump.hs");
    std::fs::write(&src, SOURCE).map_err(|e| format!("writing {}: {e}", src.display()))?;
    let exe = work.join("dump");
    let out = Command::new("ghc")
        .args(["-O0", "-v0", "-package", "ghc-events", "-outputdir"])
        .arg(&work)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .map_err(|e| format!("running ghc: {e}"))?;
    if !out.status.success() {
        // The tools exist, so this is a bug in the dump program: always a failure.
        panic!(
            "ghc could not compile ghc_events_dump.hs:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Atomic publish: a concurrent process may have won the race; either binary is fine.
    std::fs::rename(&exe, &target).map_err(|e| format!("publishing the binary: {e}"))?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(target)
}

/// Runs ghc-events on a file.
pub fn dump_file(exe: &Path, path: &Path) -> Dump {
    let out = Command::new(exe)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    let text = String::from_utf8(out.stdout).expect("the dump format is ASCII");
    parse_dump(&text).unwrap_or_else(|e| {
        panic!(
            "unreadable ghc-events dump of {}: {e}\nstderr: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Runs ghc-events on bytes (written to a temporary file under the target directory).
pub fn dump_bytes(exe: &Path, eventlog: &[u8]) -> Dump {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = cache_dir().join("inputs");
    std::fs::create_dir_all(&dir).expect("creating the oracle's input directory");
    let path = dir.join(format!(
        "in-{}-{}.eventlog",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, eventlog).expect("writing the oracle's input file");
    let dump = dump_file(exe, &path);
    let _ = std::fs::remove_file(&path);
    dump
}
