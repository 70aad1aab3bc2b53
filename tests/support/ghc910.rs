//! The real GHC 9.10.3 runs of `tests/data/ghc-9.10/`: their files, and the two `-hi`
//! programs (`bin/*.gz`) unpacked where a test wants them.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::TempDir;

/// A file of `tests/data/ghc-9.10/` (`leakmap-hi.eventlog`).
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ghc-9.10")
        .join(name)
}

/// The program `name` (`leakmap-ipe`, `textproc-ipe`) gunzipped into `dir`.
pub fn program(dir: &TempDir, name: &str) -> PathBuf {
    let gz = std::fs::read(data(&format!("bin/{name}.gz"))).unwrap();
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_end(&mut bytes)
        .unwrap();
    dir.write(name, &bytes)
}
