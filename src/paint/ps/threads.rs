//! Work on a second thread while the painting goes on, for a long chart, that still gets
//! done when no thread can be started (a process at its limit of threads or memory):
//! then it is done at once, on the calling thread. Either way the result is the same.

use std::sync::{Arc, Mutex};
use std::thread::{Scope, ScopedJoinHandle};

/// Work started by [`start`].
pub(super) enum Started<'scope, T> {
    Thread(ScopedJoinHandle<'scope, Option<T>>),
    Done(Option<T>),
}

impl<T> Started<'_, T> {
    /// The work's result, once it is done (a panic in it is passed on); `None` only if
    /// the work was lost, which [`start`] does not let happen.
    pub(super) fn join(self) -> Option<T> {
        match self {
            Started::Thread(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Started::Done(t) => t,
        }
    }
}

/// Starts `work` on a new thread of `scope`, or does it here when no thread can be
/// started.
pub(super) fn start<'scope, T, F>(scope: &'scope Scope<'scope, '_>, work: F) -> Started<'scope, T>
where
    T: Send + 'scope,
    F: FnOnce() -> T + Send + 'scope,
{
    // Held by both sides: a thread that is not started leaves the work here.
    let held = Arc::new(Mutex::new(Some(work)));
    let theirs = Arc::clone(&held);
    let take = |cell: &Mutex<Option<F>>| cell.lock().unwrap_or_else(|e| e.into_inner()).take();
    let spawned =
        std::thread::Builder::new().spawn_scoped(scope, move || take(&theirs).map(|work| work()));
    match spawned {
        Ok(thread) => Started::Thread(thread),
        Err(_) => Started::Done(take(&held).map(|work| work())),
    }
}
