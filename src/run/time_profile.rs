//! Time profiles on the command line (`hp2ps --summary prog.prof`): an input whose first
//! bytes are a GHC time profile's (`.prof` text or `-pj` JSON; a file named `.prof` is
//! read as one too, so that what is wrong with it is said as such) is read by the time
//! profile's reader, and `--summary` prints its numbers; two of them, their comparison.
//! A page of one with the heap profile of its run, or of several compared, is made here
//! too; any other output draws its flame graph as a file is drawn (`time_render.rs`),
//! and what cannot (`--serve`, `-p`, Prometheus's metrics) is refused (exit 2) before
//! anything is read or written. Heap profiles among the inputs are summarised as ever, in
//! the order of the arguments. (On stdin, only a heap profile is read.)

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::process::ExitCode;

use crate::summary::{TimeComparison, TimeSummary};
use crate::{Format, TimeProfile};

use super::render::{render_file, Failure};
use super::summary::print_summary;
use super::time_read::read_time;
use crate::cli::{Invocation, SummaryFormat};

/// What a command of time profiles (`time[i]`: whether input `i` is one) does before
/// the files are rendered, if anything: `--summary` alone prints their numbers (and
/// two of them, their comparison); what cannot draw one is refused (exit 2). `None`:
/// the files are rendered as any are (batch, `--watch`), a time profile as its flame
/// graph.
pub(crate) fn before_render(inv: &Invocation, time: &[bool]) -> Option<ExitCode> {
    let first = (inv.files.iter().zip(time))
        .find(|(_, &t)| t)
        .map(|(f, _)| f);
    let name = first.map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let refused = |why: &str| {
        say!("hp2ps: {name}: {why}");
        Some(ExitCode::from(2))
    };
    if inv.serve.is_some() {
        return refused(
            "a GHC time profile (.prof) is written once, at the program's end: \
             --serve follows a heap profile as it is written",
        );
    }
    if inv.summary.is_some() && !inv.renders() && inv.watch.is_none() {
        return Some(run(inv, time));
    }
    if let Err(why) = super::time_render::refusal(inv) {
        return refused(&why);
    }
    if inv.format() != Format::Html || inv.watch.is_some() {
        return None;
    }
    // A page of a heap profile and the time profile of the same run.
    if let ([a, b], [ta, tb]) = (inv.files.as_slice(), time) {
        if ta != tb {
            let (heap, prof) = if *ta { (b, a) } else { (a, b) };
            if let Err(why) = super::outputs::check_output_file_of(inv) {
                say!("hp2ps: {why}");
                return Some(ExitCode::from(2));
            }
            return Some(super::linked::run_pair(inv, heap, prof));
        }
    }
    if inv.one_page() {
        if !time.iter().all(|&t| t) {
            return refused(
                "a page of several runs holds heap profiles, or time profiles, not both \
                 (a heap profile and the time profile of its run: one of each)",
            );
        }
        return Some(super::time_page::run_compare(inv));
    }
    None
}

/// Prints the summary of every input of `inv`, some of which (`time[i]`) are time
/// profiles.
fn run(inv: &Invocation, time: &[bool]) -> ExitCode {
    let Some(format) = inv.summary else {
        return ExitCode::SUCCESS;
    };
    if time.len() == 2 && time.iter().all(|&t| t) {
        return compare(inv, format);
    }
    let mut failures = Vec::new();
    for (file, &is_time) in inv.files.iter().zip(time) {
        let printed = match is_time {
            true => read_named(file).and_then(|p| {
                let name = file.to_string_lossy();
                let summary = TimeSummary::of(&p, Some(&name), &inv.summary_options);
                print(format, |mut out, f| match f {
                    SummaryFormat::Json => summary.write_json(&mut out),
                    SummaryFormat::Text => summary.write_text(&mut out),
                })
            }),
            false => heap_summary(inv, file, format),
        };
        if let Err(message) = printed {
            failures.push(message);
        }
    }
    finish(failures, inv.files.len())
}

/// The comparison of the two inputs.
fn compare(inv: &Invocation, format: SummaryFormat) -> ExitCode {
    let read: Vec<Result<TimeProfile, String>> = inv.files.iter().map(|f| read_named(f)).collect();
    let failures: Vec<String> = read
        .iter()
        .filter_map(|r| r.as_ref().err().cloned())
        .collect();
    if !failures.is_empty() {
        return finish(failures, 2);
    }
    let [Ok(before), Ok(after)] = &read[..] else {
        return ExitCode::FAILURE;
    };
    let names: Vec<String> = inv
        .files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let files = [Some(names[0].as_str()), Some(names[1].as_str())];
    let c = TimeComparison::of(before, after, files, &inv.summary_options);
    let printed = print(format, |mut out, f| match f {
        SummaryFormat::Json => c.write_json(&mut out),
        SummaryFormat::Text => c.write_text(&mut out),
    });
    finish(printed.err().into_iter().collect(), 2)
}

/// A heap profile's summary, as batch mode prints it.
fn heap_summary(inv: &Invocation, file: &OsString, format: SummaryFormat) -> Result<(), String> {
    match render_file(inv, file) {
        Ok(done) => {
            for w in done.warning_lines() {
                say!("{w}");
            }
            done.summary.map_or(Ok(()), |s| print_summary(&s, format))
        }
        Err(Failure {
            message, warnings, ..
        }) => {
            for w in warnings {
                say!("{w}");
            }
            Err(message)
        }
    }
}

/// Reads a time profile file (through a map, its pages given back as they are read),
/// saying its warnings; the one-line error.
fn read_named(file: &OsStr) -> Result<TimeProfile, String> {
    let (profile, warnings) = read_time(file, true)?;
    for w in warnings {
        say!("{w}");
    }
    Ok(profile)
}

/// Writes one summary (and a newline after JSON) to stdout.
fn print(
    format: SummaryFormat,
    write: impl FnOnce(&mut dyn Write, SummaryFormat) -> io::Result<()>,
) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    write(&mut out, format)
        .and_then(|()| match format {
            SummaryFormat::Json => out.write_all(b"\n"),
            SummaryFormat::Text => Ok(()),
        })
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

/// Says the failures, one line each (and how many with several files); the status.
fn finish(failures: Vec<String>, files: usize) -> ExitCode {
    for f in &failures {
        say!("hp2ps: {f}");
    }
    if files > 1 && !failures.is_empty() {
        say!("hp2ps: {} of {files} files failed", failures.len());
    }
    match failures.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    }
}
