//! No temporary file outlives the run, however it ends: done, failed, ended by a signal
//! that may be caught (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ of `ulimit -f`, and the
//! others of [`ending_signals`]), or out of memory.
//!
//! Every temporary output ([`super::atomic::AtomicFile`]) is listed here while it
//! exists. On any of those signals a thread of its own (not a signal handler, which may
//! do almost nothing) takes the list's lock, removes every file on it, and ends the
//! process by that signal as the shell expects (exit status 128 + N). Renames happen
//! under the same lock, so a chart and its `.aux` renamed together ([`commit`]) are
//! either both in place or both left as they were when the signal ends the run.
//! `--watch` and `--serve` ask for a gentler first signal ([`stop_on_first_signal`]): it
//! sets a flag (and wakes [`wait_for_first_signal`]), and the loop stops after the
//! render in progress, or the server writes `-o`; a second one ends the run.
//!
//! When the run aborts (SIGABRT: Rust's end when an allocation fails), the signal
//! handler itself removes the listed files, as far as it safely can ([`super::abort`]).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

/// The temporary files that exist now, by the number each was given.
#[derive(Default)]
struct Temporaries {
    files: Vec<(u64, PathBuf)>,
    next: u64,
}

static LIST: Mutex<Temporaries> = Mutex::new(Temporaries {
    files: Vec::new(),
    next: 0,
});

fn temporaries() -> MutexGuard<'static, Temporaries> {
    LIST.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary file on the list; [`Listed::remove`] or [`commit`] takes it off.
#[derive(Debug)]
pub(crate) struct Listed {
    id: u64,
}

/// Creates the temporary file `path` with `create` and puts it on the list, with no
/// signal in between (one between the two would leave the file behind).
pub(crate) fn create_listed<T>(
    path: &Path,
    create: impl FnOnce(&Path) -> io::Result<T>,
) -> io::Result<(T, Listed)> {
    let mut list = temporaries();
    let made = create(path)?;
    let id = list.next;
    list.next += 1;
    list.files.push((id, path.to_path_buf()));
    Ok((made, Listed { id }))
}

impl Listed {
    /// Removes the file and takes it off the list.
    pub(crate) fn remove(self, path: &Path) {
        let mut list = temporaries();
        let _ = std::fs::remove_file(path);
        list.files.retain(|(id, _)| *id != self.id);
    }
}

/// Renames each temporary file over its target, in order, with no signal in between;
/// they leave the list. If a rename fails, the temporaries not yet renamed are removed
/// and the error is returned with its target (the targets renamed before it stay
/// replaced).
pub(crate) fn commit(renames: Vec<(Listed, PathBuf, PathBuf)>) -> Result<(), (PathBuf, io::Error)> {
    let mut list = temporaries();
    // A directory in the way of any of them fails the rename: none is made. (A link to
    // one is replaced, as a rename replaces any link.)
    let is_dir = |target: &PathBuf| std::fs::symlink_metadata(target).is_ok_and(|m| m.is_dir());
    let in_the_way = (renames.iter()).find(|(_, _, target)| is_dir(target));
    let mut result = match in_the_way {
        Some((_, _, target)) => Err((
            target.clone(),
            io::Error::other("a directory is in the way"),
        )),
        None => Ok(()),
    };
    for (listed, temp, target) in renames {
        if result.is_ok() {
            result = std::fs::rename(&temp, &target).map_err(|e| (target, e));
        }
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        list.files.retain(|(id, _)| *id != listed.id);
    }
    result
}

/// Removes every listed file. Called with the list locked, when the run is ending.
fn remove_all(list: &mut Temporaries) {
    for (_, path) in list.files.drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// Set by [`stop_on_first_signal`]: the flag a first ending signal sets instead of
/// ending the run.
static GENTLE: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// From now on, the first signal of [`ending_signals`] sets `stop` instead of ending the run (the
/// caller stops when it can: it looks at the flag, or waits in
/// [`wait_for_first_signal`]); a second one ends it.
pub(crate) fn stop_on_first_signal(stop: Arc<AtomicBool>) {
    let _ = GENTLE.set(stop);
}

/// Whether the gentle first signal has come, and what wakes its waiters.
static FIRST: Mutex<bool> = Mutex::new(false);
static FIRST_CAME: Condvar = Condvar::new();

/// Blocks until the first such signal after [`stop_on_first_signal`] (idle, the
/// waiting thread costs nothing); a second one still ends the run meanwhile.
pub(crate) fn wait_for_first_signal() {
    let mut came = FIRST.lock().unwrap_or_else(|e| e.into_inner());
    while !*came {
        came = FIRST_CAME.wait(came).unwrap_or_else(|e| e.into_inner());
    }
}

/// Ends [`wait_for_first_signal`] as a first signal would (the server of `--serve` can
/// no longer serve: the run ends); a signal after it still ends the run at once.
pub(crate) fn end_wait_for_first_signal() {
    if let Some(stop) = GENTLE.get() {
        stop.store(true, Ordering::SeqCst);
    }
    *FIRST.lock().unwrap_or_else(|e| e.into_inner()) = true;
    FIRST_CAME.notify_all();
}

/// What to do on `signal`: set the gentle flag the first time, else remove the listed
/// files and end the process by the signal.
fn on_signal(signal: libc::c_int) {
    if let Some(stop) = GENTLE.get() {
        if !stop.swap(true, Ordering::SeqCst) {
            *FIRST.lock().unwrap_or_else(|e| e.into_inner()) = true;
            FIRST_CAME.notify_all();
            return;
        }
    }
    let mut list = temporaries();
    remove_all(&mut list);
    // Ends the process with the list still locked: no rename can follow.
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal);
}

/// Starts watching the signals of [`ending_signals`] (once; later calls do nothing). Returns why it
/// could not, in which case a signal ends the run the default way.
pub(crate) fn watch_signals() -> Result<(), String> {
    static STARTED: OnceLock<Result<(), String>> = OnceLock::new();
    STARTED.get_or_init(start).clone()
}

/// Every signal whose default ends the process and that may be caught, besides SIGABRT
/// (`abort.rs`), SIGBUS (a cut mapped file: `mapped/fault.rs`) and the faults that cannot
/// go on (SIGSEGV, SIGILL, SIGFPE, SIGTRAP for debuggers): a terminal's or a service
/// manager's (INT, TERM, HUP, QUIT), a user's (USR1, USR2), the timers' (ALRM, VTALRM,
/// PROF), the limits' (XCPU; XFSZ, which `ulimit -f` sends to a write past it), and the
/// rest (IO, SYS, and on Linux PWR, STKFLT and the real-time signals). Each removes the
/// temporaries and ends the run by itself, as INT, TERM and HUP always did.
#[cfg(unix)]
fn ending_signals() -> Vec<libc::c_int> {
    let signals = vec![
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGXCPU,
        libc::SIGXFSZ,
        libc::SIGIO,
        libc::SIGSYS,
    ];
    // Linux's own, added where they exist (a `mut` elsewhere would go unused).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    let signals = {
        let mut signals = signals;
        signals.extend([libc::SIGPWR, libc::SIGSTKFLT]);
        signals.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
        signals
    };
    signals
}

#[cfg(unix)]
fn start() -> Result<(), String> {
    super::abort::watch(remove_on_abort)?;
    // A signal the platform (or a library in the process) keeps for itself is left as
    // it is: the others are still watched.
    let signals: Vec<libc::c_int> = (ending_signals().into_iter())
        .filter(|&s| !signal_hook::consts::FORBIDDEN.contains(&s))
        .collect();
    let mut signals = signal_hook::iterator::Signals::new(signals).map_err(|e| e.to_string())?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                on_signal(signal);
            }
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Elsewhere (Windows: Ctrl-C and Ctrl-Break as SIGINT and SIGTERM), a thread looks at
/// flags the handlers set.
#[cfg(not(unix))]
fn start() -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flags = [SIGINT, SIGTERM].map(|s| (s, Arc::new(AtomicBool::new(false))));
    for (signal, flag) in &flags {
        signal_hook::flag::register(*signal, Arc::clone(flag)).map_err(|e| e.to_string())?;
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || loop {
            for (signal, flag) in &flags {
                if flag.swap(false, Ordering::SeqCst) {
                    on_signal(*signal);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The SIGABRT handler's work: every listed file it can removed.
#[cfg(unix)]
fn remove_on_abort() {
    each_listed_if_free(super::abort::unlink);
}

/// Calls `f` with every listed path, if the list is free now, after waiting a little
/// for a thread that holds it (this very thread may: then nothing is called). For the
/// SIGABRT handler ([`super::abort`]): only atomics (the lock's) and `f`, no allocation.
#[cfg(unix)]
fn each_listed_if_free(mut f: impl FnMut(&Path)) {
    use std::sync::TryLockError;
    for _ in 0..10_000 {
        let list = match LIST.try_lock() {
            Ok(list) => list,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                std::hint::spin_loop();
                continue;
            }
        };
        for (_, path) in &list.files {
            f(path);
        }
        return;
    }
}
