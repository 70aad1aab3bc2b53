//! `--watch`: render a profile that the profiled program is still writing, then again
//! whenever the file grows or is replaced, until Ctrl-C.
//!
//! The file is polled (size, modification time, inode): that works on every filesystem,
//! network and container mounts included. Every render goes through the same atomic
//! writes as a normal run, so a viewer that reloads on change never sees half a file, and
//! the incomplete last sample of a live profile is left out (the reader drops it).
//!
//! What is at the path is looked at before it is opened ([`WatchedPath`]): only a
//! regular file is rendered, and it is opened without waiting (a FIFO's open would wait
//! for a writer through every Ctrl-C). Something else there (a FIFO, a directory, a
//! device), or nothing (a file not made yet, or deleted), is said once and waited out.
//!
//! [`WatchedPath`]: super::watched::WatchedPath

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::names::FileNames;
use super::render;
use super::watched::{Look, WatchedPath};
use crate::cli::{Invocation, WatchOptions};

/// Set by the first SIGINT, SIGTERM or SIGHUP: the loop ends after the render in
/// progress, if any (a second one ends the run at once, leaving no temporary file).
fn stop_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    super::cleanup::stop_on_first_signal(Arc::clone(&stop));
    stop
}

pub fn run(inv: &Invocation, file: &OsString, opts: &WatchOptions) -> ExitCode {
    let stop = stop_flag();
    let input = FileNames::of(inv, file).input;
    if let Some(dir) = &inv.output_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            say!("hp2ps: cannot create {}: {e}", Path::new(dir).display());
            return ExitCode::FAILURE;
        }
    }
    say!("hp2ps: watching {} (Ctrl-C to stop)", input.display());
    let mut watched = WatchedPath::new(input);
    let mut last_message = String::new();
    let mut renders = 0u64;
    while !stop.load(Ordering::Relaxed) {
        // Looked at before reading: a change during the read shows at the next look.
        let look = watched.look();
        let message = match &look {
            Look::Changed => {
                let message = match super::any_file::render_any(inv, file) {
                    Ok(done) => {
                        renders += 1;
                        if let Err(e) = super::summary::print_summaries(&done, inv.summary) {
                            say!("hp2ps: {e}");
                            return ExitCode::FAILURE;
                        }
                        rendered(renders, &done)
                    }
                    Err(failure) => format!("hp2ps: {} (waiting for a change)", failure.message),
                };
                Some(message)
            }
            other => watched.message(other),
        };
        if let Some(message) = message.filter(|m| *m != last_message) {
            say!("{message}");
            last_message = message;
        }
        if look == Look::Changed && opts.max_renders.is_some_and(|m| renders >= m) {
            break;
        }
        sleep_unless_stopped(opts.interval, &stop);
    }
    ExitCode::SUCCESS
}

/// The line for render number `renders`.
fn rendered(renders: u64, done: &render::Done) -> String {
    let target = (done.output.as_ref()).map_or(String::new(), |p| format!(" to {}", p.display()));
    let partial = if done.warnings.is_empty() {
        ""
    } else {
        " (the last sample is still being written)"
    };
    let (count, what) = match done.stacks {
        Some(stacks) => (stacks, "stack"),
        None => (done.samples, "sample"),
    };
    format!(
        "hp2ps: render {renders}: {count} {what}{}{target}{partial}",
        if count == 1 { "" } else { "s" }
    )
}

/// Sleeps for `interval`, waking early when `stop` is set.
fn sleep_unless_stopped(interval: Duration, stop: &AtomicBool) {
    let until = Instant::now() + interval;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stop.load(Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}
