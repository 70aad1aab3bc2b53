//! The real GHC 9.10.3 runs of `tests/data/ghc-9.10/`: their files, the two `-hi`
//! programs (`bin/*.gz`) unpacked where a test wants them, and this crate's hp2ps run
//! on them.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Output;

use super::TempDir;

/// A file of `tests/data/ghc-9.10/` (`leakmap-hi.eventlog`).
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ghc-9.10")
        .join(name)
}

/// Whether the two `-hi` programs are here (the published crate leaves them out): the
/// gate of every test that calls [`program`] ([`super::tools::require_data`]).
pub fn have_programs() -> bool {
    super::tools::require_data(&["tests/data/ghc-9.10/bin"])
}

/// The program `name` (`leakmap-ipe`, `textproc-ipe`) gunzipped into `dir` (the test
/// asks [`have_programs`] first).
pub fn program(dir: &TempDir, name: &str) -> PathBuf {
    let gz = std::fs::read(data(&format!("bin/{name}.gz"))).unwrap();
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_end(&mut bytes)
        .unwrap();
    dir.write(name, &bytes)
}

/// This crate's hp2ps in `dir` with `args`.
pub fn run(dir: &Path, args: &[&str]) -> Output {
    super::run_in(env!("CARGO_BIN_EXE_hp2ps"), dir, args, None)
}

/// [`run`], which must succeed.
pub fn run_ok(dir: &Path, args: &[&str]) -> Output {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What a run printed on stdout, as JSON (`--summary=json` of one file).
pub fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// What a run printed on stderr. (The IPE events of every GHC 9.10.3 `-hi` log declare a
/// byte more than their fields: read by their fields without a warning, since GHC's
/// runtime writes them so.)
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
