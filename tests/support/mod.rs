//! What the integration tests share. Every test file mounts it with `mod support;`
//! (see `tests/README.md` for the suites and the tools they need).
//!
//! - [`run`]: the one process runner ([`run::Cmd`]): timeouts, process groups,
//!   limits, streamed stdin, capture caps, peak RSS; [`ran`]: what a run gives back
//!   ([`ran::Ran`], [`ran::Exit`]).
//! - [`tools`]: the external tools, [`tools::in_ci`] and the one "tool missing"
//!   policy ([`tools::require`]).
//! - [`scratch`]: scratch directories ([`scratch::TempDir`]) and directory snapshots.
//! - [`gen`]: the profile generators (random differential cases; large realistic
//!   profiles, shared with `examples/gen_profile.rs` and the benchmark).
//! - [`rng`]: the deterministic RNG of the random cases.
//! - [`case`], [`compare`], [`scan`], [`report`]: the differential tests against
//!   GHC's hp2ps (one case in a fresh directory, comparing outcomes, classifying the
//!   inputs that cannot be compared, the tally).
//! - [`raster`]: rasterising EPS/SVG/PDF with external renderers and comparing pictures.
//! - [`pslex`], [`xmlcheck`]: PostScript lexer and XML checker oracles (also compiled
//!   into the `fuzz/` targets through `#[path]`, so they only depend on the library).
//! - [`errors`]: the shape of hp2ps's error messages.
//! - [`floats`]: neighbouring doubles.
//! - [`kept`]: what a run must keep and must not leave on disk (the earlier output,
//!   temporary files, the one error line).
//! - [`webdriver`]: a small WebDriver client driving headless Chromium (the HTML page).
//! - [`svg_picture`]: the HTML page's first picture checked against the SVG painter's.
//! - [`eventlog`]: the test eventlog writer and the ghc-events oracle.
//! - [`ghc910`]: the real GHC 9.10.3 runs and the `-hi` programs.
//! - [`prof`]: the time profiles (generated ones copied here, public ones read in place).
//! - [`replay`], [`serve`]: a real eventlog replayed at its own pace, and `hp2ps --serve`
//!   started, asked over HTTP, its events read and stopped with Ctrl-C; [`update_stream`]:
//!   the updates those events carry, made whole as the page makes them.
//! - here: the golden inputs and `.hp` string quoting.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

pub mod case;
pub mod compare;
pub mod errors;
pub mod eventlog;
pub mod floats;
pub mod gen;
pub mod ghc910;
pub mod hostile;
pub mod html_page;
pub mod kept;
pub mod processes;
pub mod prof;
pub mod prometheus;
pub mod pslex;
pub mod ran;
pub mod raster;
pub mod replay;
pub mod report;
pub mod rng;
pub mod run;
pub mod scan;
pub mod scratch;
pub mod serve;
pub mod svg_picture;
pub mod tools;
pub mod update_stream;
pub mod webdriver;
pub mod xmlcheck;

use std::path::PathBuf;

#[allow(unused_imports)]
pub use run::{Cmd, Input, Ran};
#[allow(unused_imports)]
pub use scratch::{files_in, TempDir};

/// The profile and warnings (or the error) of reading `text` with the one-thread `.hp`
/// reader, as text: what the faster readers are compared with.
pub fn read_one_thread(text: &[u8]) -> String {
    let mut b = hp2ps::internals::ProfileBuilder::default();
    let r = hp2ps::internals::hp::read_into(text, &hp2ps::ReadOptions::default(), &mut b);
    format!("{:?}", r.map(|w| (b.finish(), w)))
}

/// The profile and warnings (or the error) of `bytes` as a library user reads them:
/// [`hp2ps::load`] with the default options, from a stream.
pub fn read_profile(
    mut bytes: &[u8],
) -> Result<(hp2ps::profile::Profile, Vec<hp2ps::Warning>), hp2ps::LoadError> {
    let source = hp2ps::Source::Stream(&mut bytes);
    hp2ps::load(source, &Default::default()).map(|l| (l.profile, l.warnings))
}

/// An eventlog's profile as its reader gives it, bands unnamed, and the reader's report
/// (its warnings included): what the eventlog tests look at.
pub fn read_eventlog_profile<R: std::io::Read>(
    input: R,
    opts: &hp2ps::EventlogOptions,
) -> Result<(hp2ps::profile::Profile, hp2ps::EventlogReport), hp2ps::EventlogError> {
    let mut b = hp2ps::internals::ProfileBuilder::default();
    let report = hp2ps::internals::eventlog::read_eventlog(input, opts, &mut b)?;
    Ok((b.finish(), report))
}

/// `golden/inputs/`, the profiles shipped with the repository.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/inputs")
}

/// The golden inputs, sorted by file name.
pub fn golden_inputs() -> Vec<(String, Vec<u8>)> {
    let dir = golden_dir();
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
    let path = golden_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One golden input as text (they are all UTF-8).
pub fn golden_text(name: &str) -> String {
    String::from_utf8(golden(name)).expect("a UTF-8 golden input")
}

/// Runs `prog` in `dir` with `args`, feeding `stdin` when given (an empty stdin
/// otherwise), and waits for it.
pub fn run_in(
    prog: &str,
    dir: &std::path::Path,
    args: &[&str],
    stdin: Option<&[u8]>,
) -> std::process::Output {
    Cmd::new(prog)
        .args(args)
        .current_dir(dir)
        .stdin_bytes(stdin.unwrap_or_default())
        .output()
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
