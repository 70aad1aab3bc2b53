//! The page of a heap profile and the time profile of the same run, given as two
//! arguments (`hp2ps --format html prog.hp prog.prof`): written to `-o` or the heap
//! profile's own name, as one page of the page builder.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::paint::html::Page;
use crate::prepare;

use super::atomic::write_output;
use super::names::FileNames;
use super::render::{read_named, Done};
use super::time_page::{finish, heap_run, say_notes, TimeRead};
use crate::cli::Invocation;

/// The page of one heap profile (`heap`) with the time profile of the same run
/// (`time`), written to `-o` or the heap profile's own name.
pub(crate) fn run_pair(inv: &Invocation, heap: &OsString, time: &OsString) -> ExitCode {
    let names = FileNames::of(inv, heap);
    let result = (|| -> Result<Option<PathBuf>, String> {
        let time = TimeRead::of(std::path::Path::new(time))?;
        for w in &time.warnings {
            say!("{w}");
        }
        let (profile, done) = read_named(inv, &names).map_err(|f| {
            for w in &f.warnings {
                say!("{w}");
            }
            f.message
        })?;
        write_heap_page(inv, &names, profile, done, Some(&time))
    })();
    finish(result)
}

/// Writes the page of a heap profile `profile` (read as `done` says) with `time`.
pub(crate) fn write_heap_page(
    inv: &Invocation,
    names: &FileNames,
    profile: crate::profile::Profile,
    done: Done,
    time: Option<&TimeRead>,
) -> Result<Option<PathBuf>, String> {
    for w in done.warning_lines() {
        say!("{w}");
    }
    let (chart, _) = prepare(profile, None, &inv.render);
    let source = names.input.display().to_string();
    let run = heap_run(
        &chart,
        Some(&source),
        &done.facts,
        time,
        done.sampled.as_ref(),
    )
    .map_err(|e| format!("cannot paint the page: {e}"))?;
    let page = Page::of(&[run]);
    say_notes(&page, &source);
    write_output(inv.output.as_deref(), &names.output, |mut out| {
        page.write(&mut out)
    })
}
