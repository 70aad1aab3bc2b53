//! Shared helpers for the tests that compare this crate's `hp2ps` with GHC's
//! real `/usr/bin/hp2ps` (the reference): locating the programs, running them
//! in scratch directories, comparing what they produce, classifying the cases
//! that cannot be compared, and generating random profiles and command lines.
//!
//! Use from a test file with `mod common;`.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

pub mod compare;
pub mod gen;
pub mod report;
pub mod rng;
pub mod runner;
pub mod scan;
pub mod tools;

use std::path::PathBuf;

/// The golden inputs shipped with the repository, sorted by file name.
pub fn golden_inputs() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/inputs");
    let mut inputs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("golden dir entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "hp"))
        .map(|path| {
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            let bytes = std::fs::read(&path).expect("read golden input");
            (name, bytes)
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no golden inputs in {}", dir.display());
    inputs
}

/// One golden input, by file name (`golden/inputs/<name>`).
pub fn golden(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden/inputs")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The names of the entries of `dir`, sorted.
pub fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `prog` (this crate's binary: `env!("CARGO_BIN_EXE_hp2ps")`) in `dir` with `args`,
/// feeding `stdin` when given (an empty stdin otherwise), and waits for it.
pub fn run_in(
    prog: &str,
    dir: &std::path::Path,
    args: &[&str],
    stdin: Option<&[u8]>,
) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(prog)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut pipe = child.stdin.take().expect("stdin");
    if let Some(bytes) = stdin {
        pipe.write_all(bytes).expect("write stdin");
    }
    drop(pipe);
    child.wait_with_output().expect("wait")
}

/// `text` as a `.hp` string: in quotes, with every `"` doubled (the reader undoes that).
pub fn hp_quoted(text: &[u8]) -> Vec<u8> {
    let mut out = vec![b'"'];
    for &b in text {
        out.push(b);
        if b == b'"' {
            out.push(b'"');
        }
    }
    out.push(b'"');
    out
}
