//! `--watch`: render a profile that the profiled program is still writing, then again
//! whenever the file grows or is replaced, until Ctrl-C.
//!
//! The file is polled (size, modification time, inode): that works on every filesystem,
//! network and container mounts included. Every render goes through the same atomic
//! writes as a normal run, so a viewer that reloads on change never sees half a file, and
//! the incomplete last sample of a live profile is left out (the reader drops it).

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::names::FileNames;
use super::render;
use super::version::Version;
use crate::cli::{Invocation, WatchOptions};

fn version(path: &Path) -> Option<Version> {
    std::fs::metadata(path).ok().map(|m| Version::of(&m))
}

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
    let mut rendered: Option<Version> = None;
    let mut last_message = String::new();
    let mut renders = 0u64;
    while !stop.load(Ordering::Relaxed) {
        // Looked at before reading: a change during the read shows at the next look.
        let now = version(&input);
        if now.is_some() && now != rendered {
            rendered = now;
            let message = match render::render_file(inv, file) {
                Ok(done) => {
                    renders += 1;
                    if let (Some(summary), Some(format)) = (&done.summary, inv.summary) {
                        if let Err(e) = super::summary::print_summary(summary, format) {
                            say!("hp2ps: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                    let target = done
                        .output
                        .as_ref()
                        .map_or(String::new(), |p| format!(" to {}", p.display()));
                    let partial = if done.warnings.is_empty() {
                        ""
                    } else {
                        " (the last sample is still being written)"
                    };
                    format!(
                        "hp2ps: render {renders}: {} sample{}{target}{partial}",
                        done.samples,
                        if done.samples == 1 { "" } else { "s" }
                    )
                }
                Err(failure) => format!("hp2ps: {} (waiting for a change)", failure.message),
            };
            if message != last_message {
                say!("{message}");
                last_message = message;
            }
            if opts.max_renders.is_some_and(|m| renders >= m) {
                break;
            }
        } else if now.is_none() && last_message.is_empty() {
            last_message = format!(
                "hp2ps: {} does not exist yet (waiting for it)",
                input.display()
            );
            say!("{last_message}");
        }
        sleep_unless_stopped(opts.interval, &stop);
    }
    ExitCode::SUCCESS
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
