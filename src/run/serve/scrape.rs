//! The `metrics` route's side of the publisher: each update of the page also makes the
//! run's Prometheus metrics (`live::LiveProfile::made`, from the same loading of the
//! samples kept), and the newest are kept here, in both formats, for every scrape to
//! take as they are. A scrape costs a copy of a few kilobytes' handle: it never takes
//! the run's lock (the reader's), nor makes anything.

use std::sync::{Arc, Mutex};

use crate::live::{LiveError, LiveOptions, LiveProfile, Metrics};
use crate::paint::html::Page;
use crate::paint::prometheus::Named;

/// The newest metrics.
pub(super) struct Latest(Mutex<Arc<Metrics>>);

impl Latest {
    pub(super) fn new() -> Latest {
        Latest(Mutex::new(Arc::new(Metrics::none())))
    }

    /// The newest metrics, as a scrape takes them.
    pub(super) fn get(&self) -> Arc<Metrics> {
        Arc::clone(&self.lock())
    }

    /// The lock, whatever a thread that panicked holding it left (a whole `Arc`).
    fn lock(&self) -> std::sync::MutexGuard<'_, Arc<Metrics>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, metrics: Metrics) {
        *self.lock() = Arc::new(metrics);
    }
}

/// The publisher's naming of the band series: the names given in the run read now.
#[derive(Default)]
pub(super) struct Naming {
    run: u64,
    named: Named,
}

impl Naming {
    /// The metrics of `profile` (of run `run`), kept in `latest`, and its page when
    /// `page`.
    pub(super) fn make(
        &mut self,
        run: u64,
        profile: LiveProfile,
        opts: &LiveOptions,
        page: bool,
        latest: &Latest,
    ) -> Result<Option<Page>, LiveError> {
        if run != self.run {
            // A new run: its bands are named afresh.
            *self = Naming {
                run,
                named: Named::default(),
            };
        }
        let made = profile.made(opts, &mut self.named, page)?;
        latest.set(made.metrics);
        Ok(made.page)
    }
}
