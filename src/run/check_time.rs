//! `--check` of time profiles (`hp2ps --check=alloc:10% --baseline old.prof new.prof`):
//! both read as `--summary` reads them, judged by the library's gate on a time profile
//! (`check::check_time`: its total allocation). `--check` alone judges `alloc:10%`;
//! a heap profile's rule, or a heap profile beside a time profile, is refused (exit 2)
//! before anything is read.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::check::{check_time, Limit, Rule, Rules};
use crate::summary::TimeSummary;

use super::time_read::read_time;
use crate::cli::{CheckRequest, Invocation};

/// Judges the time profile of `inv` (`time`: whether the file judged is one; else its
/// baseline is, and the pair is refused).
pub(crate) fn run(inv: &Invocation, request: &CheckRequest, time: bool) -> ExitCode {
    let refused = |why: String| {
        say!("hp2ps: {why}");
        ExitCode::from(2)
    };
    let baseline_time = (request.baseline.as_deref()).map(super::time_read::is_time_profile_file);
    if !time || baseline_time == Some(false) {
        return refused(String::from(
            "--check compares a heap profile with a heap profile, a time profile (.prof) \
             with a time profile",
        ));
    }
    let mut request = request.clone();
    if request.rules.rules == Rules::default().rules {
        request.rules.rules = vec![Rule::Alloc(Limit::Growth(0.1))];
    }
    if let Some(rule) = request.rules.rules.iter().find(|r| !r.of_time()) {
        return refused(format!(
            "--check={rule} judges a heap profile: a time profile's rule is alloc:LIMIT (its \
             total allocation)"
        ));
    }
    let read = |file: &OsString| -> Result<(TimeSummary, String), String> {
        let name = file.to_string_lossy().into_owned();
        let (profile, warnings) = read_time(file, true)?;
        for w in warnings {
            say!("{w}");
        }
        let summary = TimeSummary::of(&profile, Some(&name), &inv.summary_options);
        Ok((summary, name))
    };
    let judged = (|| {
        let (new, new_name) = read(&inv.files[0])?;
        let old = request.baseline.as_ref().map(read).transpose()?;
        let mut verdict = check_time(&new, old.as_ref().map(|(s, _)| s), &request.rules);
        verdict.file = Some(new_name);
        verdict.baseline_file = old.map(|(_, name)| name);
        Ok::<_, String>(verdict)
    })();
    match judged {
        Ok(verdict) => super::verdict::print(&verdict, &request),
        Err(message) => super::report(Err(message)),
    }
}
