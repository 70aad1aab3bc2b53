//! File mode: every file renders as a single-file run would, several at once on the
//! cores, with a progress bar on a terminal. One bad file does not stop the others; the
//! failures are listed at the end.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::names::FileNames;
use super::render::{self, Done, Failure};
use crate::cli::Invocation;
use crate::SharedAxes;

/// Arguments that write the same output render one after the other in argument order,
/// so that a `-p` run reads the `.aux` its predecessor wrote, as when hp2ps runs once
/// per file. Only the same file named twice (`x.hp ./x.hp`) can: different files that
/// would write the same output are refused before ([`super::outputs`]). Returns the
/// groups, each a list of indices into `files`, in order of first appearance.
pub fn groups(inv: &Invocation, files: &[OsString]) -> Vec<Vec<usize>> {
    let mut by_aux: HashMap<PathBuf, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let key = FileNames::of(inv, f).aux;
        match by_aux.get(&key) {
            Some(&g) => groups[g].push(i),
            None => {
                by_aux.insert(key, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups
}

/// The number of renders at once: `-j`, else one per core, never more than there is work.
pub(super) fn workers(inv: &Invocation, groups: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    inv.jobs.unwrap_or(cores).clamp(1, groups.max(1))
}

fn progress_bar(files: usize) -> ProgressBar {
    if files < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}") {
        bar.set_style(style);
    }
    bar
}

/// Renders every file of `inv`; prints warnings, summaries and failures; returns the exit
/// status (1 if any file failed).
pub fn run(inv: &Invocation) -> ExitCode {
    let files = &inv.files;
    if let Some(dir) = &inv.output_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            say!("hp2ps: cannot create {}: {e}", PathBuf::from(dir).display());
            return ExitCode::FAILURE;
        }
    }
    let uniform;
    let inv = match inv.uniform_scale {
        Some(axes) if files.len() > 1 => {
            uniform = with_shared_ranges(inv, axes);
            &uniform
        }
        _ => inv,
    };
    let groups = groups(inv, files);
    let bar = progress_bar(files.len());
    let results: Mutex<Vec<Option<Result<Done, Failure>>>> =
        Mutex::new(files.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers(inv, groups.len()) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                let Some(group) = groups.get(g) else { break };
                for &i in group {
                    let file = &files[i];
                    bar.set_message(
                        crate::summary::printable(&file.to_string_lossy()).into_owned(),
                    );
                    let result = guarded(file, || super::any_file::render_any(inv, file));
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(result);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    report(inv, files, results)
}

/// `work` for `file`, where a bug must not take the other files down: a panic fails
/// this file alone.
pub(super) fn guarded<T>(
    file: &OsString,
    work: impl FnOnce() -> Result<T, Failure>,
) -> Result<T, Failure> {
    std::panic::catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|_| {
        Err(Failure::from(format!(
            "{}: internal error (please report it with this file)",
            file.to_string_lossy()
        )))
    })
}

/// `--uniform-scale`: a first pass over every file finds the largest time span and stack
/// height; the charts are then drawn with those as their least ranges, as an `.aux` from a
/// bigger run would make them.
fn with_shared_ranges(inv: &Invocation, axes: SharedAxes) -> Invocation {
    let files = &inv.files;
    let next = AtomicUsize::new(0);
    let found: Mutex<(Option<f64>, Option<f64>)> = Mutex::new((None, None));
    std::thread::scope(|scope| {
        for _ in 0..workers(inv, files.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let ranges =
                    std::panic::catch_unwind(AssertUnwindSafe(|| render::ranges(inv, file)));
                if let (Ok(Some((x, y))), Ok(mut found)) = (ranges, found.lock()) {
                    found.0 = Some(found.0.map_or(x, |m: f64| m.max(x)));
                    found.1 = Some(found.1.map_or(y, |m: f64| m.max(y)));
                }
            });
        }
    });
    let (x, y) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut shared = inv.clone();
    let agg = &mut shared.render.aggregate;
    if axes.time() {
        agg.min_x_range = x;
    }
    if axes.memory() {
        agg.min_y_range = y;
    }
    shared
}

/// Prints, in argument order: each file's warnings on stderr and summary on stdout; then
/// one line per failure. With several files, a last line counts the failures.
pub(super) fn report(
    inv: &Invocation,
    files: &[OsString],
    results: Vec<Option<Result<Done, Failure>>>,
) -> ExitCode {
    let mut failures = Vec::new();
    let mut status = ExitCode::SUCCESS;
    for (file, result) in files.iter().zip(results) {
        match result {
            Some(Ok(done)) => {
                for w in done.warning_lines() {
                    say!("{w}");
                }
                if let Err(e) = super::summary::print_summaries(&done, inv.summary) {
                    say!("hp2ps: {e}");
                    return ExitCode::FAILURE;
                }
            }
            Some(Err(failure)) => {
                for w in &failure.warnings {
                    say!("{w}");
                }
                failures.push(failure.message);
            }
            None => failures.push(format!(
                "{}: not rendered (a render thread failed)",
                file.to_string_lossy()
            )),
        }
    }
    for f in &failures {
        say!("hp2ps: {f}");
        status = ExitCode::FAILURE;
    }
    if files.len() > 1 && !failures.is_empty() {
        say!("hp2ps: {} of {} files failed", failures.len(), files.len());
    }
    status
}
