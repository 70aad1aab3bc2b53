//! `--check`: the profile (and its `--baseline`) read as a render reads them, judged by
//! the library's gate ([`crate::check::check`]), the verdict on stdout as text or one
//! line of JSON. Exit status 0 when every rule holds, 1 when one fails or a file cannot
//! be read.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use crate::check::check;
use crate::profile::Profile;

use super::names::FileNames;
use super::render::read_named;
use crate::cli::{CheckRequest, Invocation};

/// Judges the one input file by `request`'s rules.
pub(crate) fn run(inv: &Invocation, request: &CheckRequest) -> ExitCode {
    let read = |arg: &OsString| -> Result<(Profile, String), String> {
        let names = FileNames::of(inv, arg);
        let name = names.input.display().to_string();
        match read_named(inv, &names) {
            Ok((profile, done)) => {
                for w in done.warning_lines() {
                    say!("{w}");
                }
                Ok((profile, name))
            }
            Err(failure) => {
                for w in &failure.warnings {
                    say!("{w}");
                }
                Err(failure.message)
            }
        }
    };
    let judged = (|| {
        let (new, new_name) = read(&inv.files[0])?;
        let old = request.baseline.as_ref().map(read).transpose()?;
        let mut verdict = check(&new, old.as_ref().map(|(p, _)| p), &request.rules);
        verdict.file = Some(new_name);
        verdict.baseline_file = old.map(|(_, name)| name);
        Ok::<_, String>(verdict)
    })();
    let verdict = match judged {
        Ok(verdict) => verdict,
        Err(message) => return super::report(Err(message)),
    };
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
