//! A gate's verdict printed (`--check`, of heap or time profiles): text or one line of
//! JSON on stdout, and the exit status it means.

use std::io::{self, Write};
use std::process::ExitCode;

use crate::check::Verdict;
use crate::cli::CheckRequest;

/// Prints `verdict` as `request` asks; the exit status it means.
pub(super) fn print(verdict: &Verdict, request: &CheckRequest) -> ExitCode {
    let mut out = io::stdout().lock();
    let written = match request.json {
        true => verdict
            .write_json(&mut out)
            .and_then(|()| out.write_all(b"\n")),
        false => verdict.write_text(&mut out),
    };
    if let Err(e) = written.and_then(|()| out.flush()) {
        return super::report(Err(format!("cannot write to stdout: {e}")));
    }
    match verdict.passed {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    }
}
