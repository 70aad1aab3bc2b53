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

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::names::FileNames;
use super::regular::kind_of;
use super::render;
use super::version::Version;
use crate::cli::{Invocation, WatchOptions};

/// What a look at a watched path found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Look {
    /// A regular file, another version than the one last rendered.
    Changed,
    /// The same version as the one last rendered.
    Unchanged,
    /// Nothing there yet.
    NotYet,
    /// Nothing there any more: the file was deleted (or moved away).
    Deleted,
    /// Something other than a regular file, in words ("a FIFO (named pipe)").
    NotRegular(&'static str),
}

/// A path being watched, and the version of the file at it that was last handed out.
#[derive(Debug)]
pub(crate) struct WatchedPath {
    path: PathBuf,
    seen: Option<Version>,
    was_there: bool,
}

impl WatchedPath {
    pub(crate) fn new(path: PathBuf) -> WatchedPath {
        WatchedPath {
            path,
            seen: None,
            was_there: false,
        }
    }

    /// Looks at the path; a regular file of a new version counts as seen from now on.
    pub(crate) fn look(&mut self) -> Look {
        let meta = match std::fs::metadata(&self.path) {
            Ok(meta) => meta,
            Err(_) if self.was_there => return Look::Deleted,
            Err(_) => return Look::NotYet,
        };
        self.was_there = true;
        if !meta.is_file() {
            // A regular file put back later is a new version, even with the old numbers.
            self.seen = None;
            return Look::NotRegular(kind_of(meta.file_type()));
        }
        let now = Some(Version::of(&meta));
        if now == self.seen {
            return Look::Unchanged;
        }
        self.seen = now;
        Look::Changed
    }

    /// What to say about a look that renders nothing (`None` for a change, or none).
    pub(crate) fn message(&self, look: &Look) -> Option<String> {
        let path = self.path.display();
        match look {
            Look::Changed | Look::Unchanged => None,
            Look::NotYet => Some(format!("hp2ps: {path} does not exist yet (waiting for it)")),
            Look::Deleted => Some(format!(
                "hp2ps: {path} was deleted (waiting for it to be written again)"
            )),
            Look::NotRegular(kind) => Some(format!(
                "hp2ps: {path} is {kind}, not a regular file: --watch follows a file that \
                 a program writes (waiting for one)"
            )),
        }
    }
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
    let mut watched = WatchedPath::new(input);
    let mut last_message = String::new();
    let mut renders = 0u64;
    while !stop.load(Ordering::Relaxed) {
        // Looked at before reading: a change during the read shows at the next look.
        let look = watched.look();
        let message = match &look {
            Look::Changed => {
                let message = match render::render_file(inv, file) {
                    Ok(done) => {
                        renders += 1;
                        if let (Some(summary), Some(format)) = (&done.summary, inv.summary) {
                            if let Err(e) = super::summary::print_summary(summary, format) {
                                say!("hp2ps: {e}");
                                return ExitCode::FAILURE;
                            }
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
    format!(
        "hp2ps: render {renders}: {} sample{}{target}{partial}",
        done.samples,
        if done.samples == 1 { "" } else { "s" }
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_followed_through_absence_other_kinds_and_versions() {
        let dir = std::env::temp_dir().join(format!("hp2ps-watched-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.hp");
        let mut w = WatchedPath::new(path.clone());
        assert_eq!(w.look(), Look::NotYet);
        std::fs::write(&path, "a").unwrap();
        assert_eq!(w.look(), Look::Changed);
        assert_eq!(w.look(), Look::Unchanged);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(w.look(), Look::Deleted);
        std::fs::create_dir(&path).unwrap();
        assert_eq!(w.look(), Look::NotRegular("a directory"));
        let look = w.look();
        assert!(w
            .message(&look)
            .unwrap()
            .contains("is a directory, not a regular"));
        std::fs::remove_dir(&path).unwrap();
        std::fs::write(&path, "a").unwrap();
        assert_eq!(w.look(), Look::Changed);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
