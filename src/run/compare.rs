//! One page of several runs (`hp2ps --format html -o page.html before.hp after.eventlog`):
//! every file read and aggregated (several at once, as in batch mode), their charts given
//! the same axes (as `--uniform-scale both`, unless `--uniform-scale` names one axis) and
//! each band a colour by its name (as `--colour-by name`), then one page with a chart per
//! run and the view of their differences. If any file fails, no page is written. No
//! `.aux` is read or written: an `.aux` belongs to one chart (`-p` is refused).

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use hp2ps::aggregate::{aggregate, share_ranges, Aggregated};
use hp2ps::layout::chart::Chart;
use hp2ps::layout::looks::shared_colours;
use hp2ps::paint::html::{write_html_page, HtmlOptions};
use hp2ps::pipeline::finish;

use super::atomic::AtomicFile;
use super::batch;
use super::names::FileNames;
use super::page_budget;
use super::render::{read_named, Done, Failure};
use crate::cli::{Invocation, UniformScale};

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
    let (mut charts, mut pages, mut done) = (Vec::new(), Vec::new(), Vec::new());
    for (agg, names, d) in read.into_iter().flatten().flatten() {
        charts.push(agg);
        let mut html = HtmlOptions::default();
        html.file = Some(names.input.display().to_string());
        html.facts = d.facts.clone();
        pages.push(html);
        done.push(d);
    }
    let axes = inv.uniform_scale.unwrap_or(UniformScale::Both);
    share_ranges(&mut charts, axes.time(), axes.memory());
    // In a palette of the page's, a band matched across the runs has one colour in every
    // run, and no two bands of a run share one; in hp2ps's, colours follow names.
    let colours = inv.render.layout.palette.map(|palette| {
        let names: Vec<Vec<&[u8]>> = (charts.iter())
            .map(|agg| agg.bands.iter().map(|b| b.name.as_slice()).collect())
            .collect();
        shared_colours(&names, palette)
    });
    // Two pages' size, shared by the runs.
    let count = charts.len();
    let shared = page_budget::shared(&inv.render, count);
    let charts: Vec<Chart> = (charts.into_iter().enumerate())
        .map(|(i, agg)| {
            let mut render = shared.clone();
            match &colours {
                Some(colours) => render.layout.band_colours = colours[i].clone(),
                None => render.layout.colour_by_name = true,
            }
            finish(agg, None, &render).0
        })
        .collect();
    for ((chart, page), d) in charts.iter().zip(&mut pages).zip(&mut done) {
        page.notes = page_budget::left_out(chart, &shared, count);
        let input = page.file.clone().unwrap_or_default();
        (d.warnings).extend(
            page.notes
                .iter()
                .map(|n| format!("hp2ps: warning: {input}: {n}")),
        );
    }
    let runs: Vec<(&Chart, &HtmlOptions)> = charts.iter().zip(&pages).collect();
    let output = inv.output.clone().unwrap_or_default();
    if let Err(message) = write_page(&output, &runs) {
        say!("hp2ps: {message}");
        return ExitCode::FAILURE;
    }
    if output != "-" {
        done.iter_mut()
            .for_each(|d| d.output = Some(PathBuf::from(&output)));
    }
    batch::report(inv, files, done.into_iter().map(|d| Some(Ok(d))).collect())
}

/// What a file gave: its aggregated bands, its names and what its read reports.
type Read = (Aggregated, FileNames, Done);

/// Every file read and aggregated, several at once; `None` where a thread failed.
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
                    let agg = aggregate(profile, None, &inv.render.aggregate);
                    Ok((agg, names, done))
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
fn write_page(output: &OsString, runs: &[(&Chart, &HtmlOptions)]) -> Result<(), String> {
    if output == "-" {
        let stdout = io::stdout();
        let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
        return write_html_page(runs, &mut out)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to stdout: {e}"));
    }
    let path = PathBuf::from(output);
    let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut out = AtomicFile::create(&path).map_err(failed)?;
    write_html_page(runs, out.writer()).map_err(failed)?;
    out.commit().map_err(failed)
}
