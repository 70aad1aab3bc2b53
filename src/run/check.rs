//! `--check`: the profile (and its `--baseline`) read as a render reads them, judged by
//! the library's gate ([`crate::check::check`]; a time profile's, `check_time`), the
//! verdict on stdout as text or one line of JSON. Exit status 0 when every rule holds, 1
//! when one fails or a file cannot be read, 2 when the rules are not the profiles'.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::check::check;
use crate::profile::Profile;

use super::names::FileNames;
use super::render::read_named;
use super::time_read::is_time_profile_file;
use super::verdict::print;
use crate::cli::{CheckRequest, Invocation};

/// Judges the one input file by `request`'s rules.
pub(crate) fn run(inv: &Invocation, request: &CheckRequest) -> ExitCode {
    let time = is_time_profile_file(&inv.files[0]);
    if time
        || request
            .baseline
            .as_deref()
            .is_some_and(is_time_profile_file)
    {
        return super::check_time::run(inv, request, time);
    }
    if let Some(rule) = request.rules.rules.iter().find(|r| r.of_time()) {
        say!("hp2ps: --check={rule} judges a time profile (.prof): these are heap profiles");
        return ExitCode::from(2);
    }
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
    print(&verdict, request)
}
