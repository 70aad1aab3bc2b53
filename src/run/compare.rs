//! One page of several runs (`hp2ps --format html -o page.html before.hp after.eventlog`):
//! every file read (several at once, as in batch mode), then `prepare_runs`: their charts
//! given the same axes (as `--uniform-scale both`, unless `--uniform-scale` names one
//! axis) and a band matched across the runs one colour in every run; then one page with a
//! chart per run and the view of their differences, and what the page left out said on
//! stderr too. If any file fails, no page is written. No `.aux` is read or written: an
//! `.aux` belongs to one chart (`-p` is refused).

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::paint::html::{Page, RunPage};
use crate::prepare_runs;
use crate::profile::Profile;

use super::atomic::AtomicFile;
use super::batch;
use super::names::FileNames;
use super::render::{read_named, Done, Failure};
use crate::cli::Invocation;

/// Writes the page of every file of `inv` (`inv.one_page()`); prints warnings, summaries
/// and failures as batch mode does; returns the exit status.
pub(crate) fn run(inv: &Invocation) -> ExitCode {
    let files = &inv.files;
    let read = read_all(inv, files);
    if read.iter().any(|r| !matches!(r, Some(Ok(_)))) {
        let results = read
            .into_iter()
            .map(|r| r.map(|r| r.map(|(_, _, done)| done)));
        return batch::report(inv, files, results.collect());
    }
    let (mut profiles, mut pages, mut done) = (Vec::new(), Vec::new(), Vec::new());
    for (profile, names, d) in read.into_iter().flatten().flatten() {
        profiles.push(profile);
        let mut paint = inv.paint.clone();
        paint.source = Some(names.input.display().to_string());
        paint.facts = d.facts.clone();
        pages.push(paint);
        done.push(d);
    }
    let axes = inv.uniform_scale.unwrap_or_default();
    let count = profiles.len();
    let charts = prepare_runs(profiles, &inv.render, axes);
    let runs = (charts.iter().zip(&pages))
        .map(|(chart, p)| RunPage::heap(chart, p.source.as_deref(), &p.facts, count))
        .collect::<io::Result<Vec<_>>>();
    let page = match runs {
        Ok(runs) => Page::of(&runs),
        Err(e) => {
            say!("hp2ps: cannot paint the page: {e}");
            return ExitCode::FAILURE;
        }
    };
    // What each run's page left out goes to stderr too.
    for ((notes, p), d) in page.notes.iter().zip(&pages).zip(&mut done) {
        let input = p.source.clone().unwrap_or_default();
        let lines = notes
            .iter()
            .map(|n| format!("hp2ps: warning: {input}: {n}"));
        d.warnings.extend(lines);
    }
    let output = inv.output.clone().unwrap_or_default();
    if let Err(message) = write_page(&output, &page) {
        say!("hp2ps: {message}");
        return ExitCode::FAILURE;
    }
    if output != "-" {
        done.iter_mut()
            .for_each(|d| d.output = Some(PathBuf::from(&output)));
    }
    batch::report(inv, files, done.into_iter().map(|d| Some(Ok(d))).collect())
}

/// What a file gave: its profile, its names and what its read reports.
type Read = (Profile, FileNames, Done);

/// Every file read, several at once; `None` where a thread failed.
fn read_all(inv: &Invocation, files: &[OsString]) -> Vec<Option<Result<Read, Failure>>> {
    let results: Mutex<Vec<Option<Result<Read, Failure>>>> =
        Mutex::new(files.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..batch::workers(inv, files.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let result = batch::guarded(file, || {
                    let names = FileNames::of(inv, file);
                    let (profile, done) = read_named(inv, &names)?;
                    Ok((profile, names, done))
                });
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(result);
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Writes the page to `output` (atomically), or to stdout for `-`.
fn write_page(output: &OsString, page: &Page) -> Result<(), String> {
    if output == "-" {
        let stdout = io::stdout();
        let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
        return page
            .write(&mut out)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to stdout: {e}"));
    }
    let path = PathBuf::from(output);
    let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut out = AtomicFile::create(&path).map_err(failed)?;
    page.write(out.writer()).map_err(failed)?;
    out.commit().map_err(failed)
}
