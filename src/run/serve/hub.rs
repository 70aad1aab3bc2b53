//! What the threads of `--serve` share: the run as far as it has been read and what is
//! said about it (under one lock, which the input's thread holds while it reads a
//! piece), and the newest update of the page (under another), which every viewer's
//! thread sends on. The publisher makes an update whenever the run moved, at most one
//! per [`GAP`]: the page of the run so far (the run's lock is held only while the kept
//! samples are copied into a profile), and at the run's end the whole run's page, read
//! again the ordinary way from the record.
//!
//! A viewer always gets the newest update: one that reads slowly skips the updates it
//! missed (it is sent a whole state, never a patch of a page it was not given:
//! `update.rs`), and nothing waits for it. An update is formatted once and shared by
//! every viewer, but for the few that need it otherwise (`update.rs`: one that comes
//! while the program is quiet, one that skipped the newest page).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::live::{LiveOptions, LiveRun};
use crate::paint::html::Page;
use bytes::Bytes;
use tokio::sync::watch;

use super::delta::Deltas;
use super::status::Arrivals;
pub(super) use super::status::{State, Status};

use super::record::{Kept, Record};
use super::scrape::{Latest, Naming};
use super::update::Update;
use super::whole::{self, Made, MadeFrom, Pages, Program, Whole};

/// The least time between two updates: a fast input's censuses come together.
const GAP: Duration = Duration::from_millis(200);
/// An update takes at most half the time between updates (up to [`GAP_MOST`]): a run
/// whose page takes long to make (many bands, a long run, a loaded machine) gets fewer
/// updates, not a busy core; never so few that a census waits much longer.
const SHARE: u32 = 2;
const GAP_MOST: Duration = Duration::from_millis(500);

/// The run and what is said about it.
pub(super) struct Shared {
    pub(super) run: LiveRun,
    pub(super) status: Status,
    /// Bumped by every change.
    pub(super) generation: u64,
    /// Runs that a new one followed before the publisher made their end's page (what
    /// was said of each at its end): their end's page is still made, shown and written
    /// to `-o`.
    pub(super) superseded: Vec<Status>,
}

pub(super) struct Hub {
    pub(super) opts: LiveOptions,
    pub(super) name: String,
    pub(super) shared: Mutex<Shared>,
    changed: Condvar,
    /// The newest update: the publisher sends, every viewer's stream watches.
    latest: watch::Sender<Arc<Update>>,
    /// The record of the run read now, and of the one before (until its end's page is
    /// made): each with its run's number.
    records: Mutex<Records>,
    /// `-o`: where the whole run's page goes at its end.
    pub(super) output: Option<PathBuf>,
    /// The whole run's pages: whoever holds the lock makes one, or writes `-o`.
    pages: Mutex<Pages>,
    /// Whole run's pages begun so far.
    begun: AtomicU64,
    /// Why the server ended, if it did (the run then ends with an error).
    pub(super) failed: Mutex<Option<String>>,
    /// This program, run again to make the whole run's page.
    program: Program,
    /// The run's newest metrics, for the `metrics` route.
    pub(super) metrics: Latest,
}

/// The records of the runs that can be read again.
struct Records {
    current: (u64, Arc<Record>),
    previous: Option<(u64, Arc<Record>)>,
}

/// What became of `-o` ([`Hub::write_output`]).
pub(super) enum Output {
    /// Written now.
    Wrote,
    /// Already written from the record as it stands.
    Already,
    Failed(String),
}

impl Hub {
    pub(super) fn new(
        opts: LiveOptions,
        name: String,
        output: Option<PathBuf>,
        program: Program,
    ) -> Hub {
        let record = Record::Nothing(None);
        let axis = match opts.load.eventlog.time {
            crate::TimeAxis::Mutator => "mutator",
            _ => "elapsed",
        };
        let status = Status {
            state: State::Waiting,
            message: String::from("waiting for the input"),
            run: 1,
            censuses: 0,
            newest: None,
            axis,
            notices: Vec::new(),
            source: name.rsplit(['/', '\\']).next().unwrap_or(&name).to_string(),
            since_newest: None,
            gap: None,
            kept: String::new(),
            kept_bytes: 0,
            clock: Arrivals::default(),
        };
        let run = LiveRun::new(&opts);
        Hub {
            opts,
            name,
            shared: Mutex::new(Shared {
                run,
                status,
                generation: 1,
                superseded: Vec::new(),
            }),
            changed: Condvar::new(),
            latest: watch::Sender::new(Arc::new(Update::none())),
            records: Mutex::new(Records {
                current: (1, Arc::new(record)),
                previous: None,
            }),
            output,
            pages: Mutex::new(Pages::default()),
            begun: AtomicU64::new(0),
            failed: Mutex::new(None),
            program,
            metrics: Latest::new(),
        }
    }

    /// When a request for the whole run's page came: the pages begun after it are
    /// begun later than this number ([`Hub::whole`]).
    pub(super) fn asked(&self) -> u64 {
        self.begun.load(Ordering::Acquire)
    }

    /// Run `run` begins, kept in `record`; the run before keeps its own until it is
    /// replaced in turn.
    pub(super) fn start_run(&self, run: u64, record: Record) {
        let mut records = lock(&self.records);
        let before = std::mem::replace(&mut records.current, (run, Arc::new(record)));
        records.previous = Some(before);
    }

    /// hp2ps ends: the records' spool files go (a child reading one reads on); what
    /// was removed, in words.
    pub(super) fn discard_records(&self) -> Vec<String> {
        let records = lock(&self.records);
        let previous = records.previous.as_ref().map(|(_, r)| r);
        (previous.into_iter().chain([&records.current.1]))
            .filter_map(|r| r.discard())
            .collect()
    }

    /// The record of the run read now.
    pub(super) fn record(&self) -> Arc<Record> {
        Arc::clone(&lock(&self.records).current.1)
    }

    /// The record of run `run` (`None`: the run read now), with its number.
    fn record_of(&self, run: Option<u64>) -> Option<(u64, Arc<Record>)> {
        let records = lock(&self.records);
        let (now, record) = &records.current;
        match run {
            Some(run) if run != *now => (records.previous.as_ref())
                .filter(|(n, _)| *n == run)
                .map(|(n, r)| (*n, Arc::clone(r))),
            _ => Some((*now, Arc::clone(record))),
        }
    }

    /// The whole run's page, made by a child, one at a time (a caller waits for the
    /// page being made): the last one made when the record has not changed since, or,
    /// for a request that came at [`Hub::asked`] `asked`, when it was begun after that
    /// (several saves at once wait for one child); else a new one. Of run `run`, or
    /// (`None`) of the run read now.
    pub(super) fn whole(&self, asked: Option<u64>, run: Option<u64>) -> Result<Arc<Whole>, String> {
        self.whole_in(&mut lock(&self.pages), asked, run).1
    }

    fn whole_in(
        &self,
        pages: &mut Pages,
        asked: Option<u64>,
        run: Option<u64>,
    ) -> (MadeFrom, Result<Arc<Whole>, String>) {
        let Some((run, record)) = self.record_of(run) else {
            let gone = String::from("a later run has taken this run's place: its record is gone");
            let from = MadeFrom {
                run: run.unwrap_or(0),
                kept: Kept::default(),
            };
            return (from, Err(gone));
        };
        let from = MadeFrom {
            run,
            kept: record.kept(),
        };
        let fresh = |last: &&Made| {
            last.from == from || (last.from.run == run && asked.is_some_and(|a| last.number > a))
        };
        if let Some(last) = pages.last.as_ref().filter(fresh) {
            return (last.from, Ok(Arc::clone(&last.page)));
        }
        let number = self.begun.fetch_add(1, Ordering::AcqRel) + 1;
        let page = whole::make(&record, &self.program).map(Arc::new);
        // A failure is not kept: the next caller tries again (a child that died of a
        // signal, a file back in place).
        if let Ok(page) = &page {
            pages.last = Some(Made {
                from,
                number,
                page: Arc::clone(page),
            });
        }
        (from, page)
    }

    /// `-o` (`None`: not asked for) written with the whole page of run `run` (`None`:
    /// the run read now) as its record stands, unless it already was: at the run's end,
    /// and on Ctrl-C, which waits here for the end's page if it is being made. `written`
    /// says so, still under the lock: Ctrl-C, which ends the process, then waits for the
    /// end's word too.
    pub(super) fn write_output(
        &self,
        written: impl FnOnce(&Path),
        run: Option<u64>,
    ) -> Option<Output> {
        let path = self.output.as_ref()?;
        let mut pages = lock(&self.pages);
        let (from, whole) = self.whole_in(&mut pages, None, run);
        if pages.output == Some(from) {
            return Some(Output::Already);
        }
        let whole = match whole {
            Ok(whole) => whole,
            // The record can no longer be read (the followed file deleted since): `-o`
            // keeps this run's page as it was last read.
            Err(_) if pages.output.is_some_and(|o| o.run == from.run) => {
                return Some(Output::Already)
            }
            Err(e) => return Some(Output::Failed(e)),
        };
        match super::saved::write_page(path, &whole.page) {
            Ok(()) => {
                pages.output = Some(from);
                written(path);
                Some(Output::Wrote)
            }
            Err(e) => Some(Output::Failed(e)),
        }
    }

    /// Something changed: wakes the publisher.
    pub(super) fn touch(&self, shared: &mut Shared) {
        shared.generation += 1;
        self.changed.notify_all();
    }

    /// The newest update.
    pub(super) fn latest(&self) -> Arc<Update> {
        Arc::clone(&self.latest.borrow())
    }

    /// The updates as they come, for a viewer's stream.
    pub(super) fn watch(&self) -> watch::Receiver<Arc<Update>> {
        self.latest.subscribe()
    }

    /// The page as a new viewer gets it (the newest page, or one that waits), made once
    /// per update whatever the number of viewers.
    pub(super) fn page_html(&self) -> Bytes {
        let latest = self.latest();
        let html = latest.html.get_or_init(|| {
            let mut html = Vec::new();
            // Written into memory: it cannot fail.
            let _ = Page::write_live(latest.page.as_deref(), &self.name, &mut html);
            Bytes::from(html)
        });
        html.clone()
    }

    /// Makes updates as the run moves, for ever.
    pub(super) fn publish(&self) {
        let mut seen = 0;
        let mut last = Instant::now() - GAP;
        let mut gap = GAP;
        let mut live_from = LiveFrom::default();
        let mut final_of: Option<u64> = None;
        let mut page: Option<Arc<Page>> = None;
        let mut told = 0;
        let mut deltas = Deltas::default();
        let mut naming = Naming::default();
        loop {
            {
                let shared = lock(&self.shared);
                let _unused = self
                    .changed
                    .wait_while(shared, |s| s.generation == seen)
                    .unwrap_or_else(|e| e.into_inner());
            }
            std::thread::sleep(gap.saturating_sub(last.elapsed()));
            last = Instant::now();
            let (status, profile, superseded) = {
                let mut guard = lock(&self.shared);
                let shared = &mut *guard;
                seen = shared.generation;
                let superseded = std::mem::take(&mut shared.superseded);
                let run = &shared.run;
                let (censuses, newest, notices) =
                    (run.censuses(), run.newest(), run.notices().to_vec());
                shared.status.censuses = censuses;
                shared.status.newest = newest;
                shared.status.notices = notices;
                shared.status.since_newest = shared.status.clock.since();
                shared.status.gap = shared.status.clock.usual();
                (shared.status.kept, shared.status.kept_bytes) = self.record().said();
                let moved = live_from.moved_to(shared.status.run, run.version());
                let profile = match moved {
                    true => Some(run.profile()),
                    false => None,
                };
                (shared.status.clone(), profile, superseded)
            };
            for ended in superseded {
                if final_of.map_or(true, |f| f < ended.run) {
                    final_of = Some(ended.run);
                    if let Some(p) = self.whole_run_page(ended.run, ended.censuses) {
                        page = Some(p);
                        self.send(&ended, page.clone(), true, &mut deltas);
                    }
                }
            }
            for (n, notice) in &status.notices {
                if *n > told {
                    say!("hp2ps: warning: {}: {notice}", self.name);
                    told = *n;
                }
            }
            let finished = matches!(status.state, State::Ended | State::Closed);
            let finishing = finished && final_of != Some(status.run);
            // The metrics of the run's last censuses too: its end's page is another's.
            let made = match profile {
                Some(Ok(Some(p))) => {
                    naming.make(status.run, p, &self.opts, !finishing, &self.metrics)
                }
                Some(Err(e)) => Err(e),
                _ => Ok(None),
            };
            let made = (made.map_err(|e| say!("hp2ps: {}: {e}", self.name)).ok())
                .flatten()
                .map(Arc::new);
            let new_page = if finishing {
                final_of = Some(status.run);
                // Said at once: the whole run's page (a child reading the whole run)
                // may take seconds.
                self.say_end(&status, page.clone(), &mut deltas);
                self.whole_run_page(status.run, status.censuses)
            } else {
                made
            };
            let fresh_page = new_page.is_some();
            if let Some(p) = new_page {
                page = Some(p);
            }
            self.send(&status, page.clone(), fresh_page, &mut deltas);
            gap = (last.elapsed() * SHARE).clamp(GAP, GAP_MOST);
        }
    }

    /// Sends a new update to every viewer: the whole state, and what changed since the
    /// last one.
    fn send(
        &self,
        status: &Status,
        page: Option<Arc<Page>>,
        fresh_page: bool,
        deltas: &mut Deltas,
    ) {
        let update = Update::after(&self.latest(), status, page, fresh_page, deltas);
        self.latest.send_replace(Arc::new(update));
    }

    /// Says the run's end at once, before its whole run's page is made.
    fn say_end(&self, status: &Status, page: Option<Arc<Page>>, deltas: &mut Deltas) {
        let update = Update::after(&self.latest(), status, page, false, deltas);
        self.latest.send_replace(Arc::new(update.before_its_page()));
    }

    /// The whole run read again the ordinary way: its page, written to `-o` too.
    fn whole_run_page(&self, run: u64, censuses: u64) -> Option<Arc<Page>> {
        let whole = match self.whole(None, Some(run)) {
            Ok(whole) => whole,
            Err(e) => {
                say!(
                    "hp2ps: {}: the whole run cannot be read again: {e}",
                    self.name
                );
                return None;
            }
        };
        let cut = if whole.capped {
            " (the run up to --spool-max)"
        } else {
            ""
        };
        let said = |path: &Path| {
            let (name, path) = (&self.name, path.display());
            say!("hp2ps: {name}: the run's end ({censuses} censuses): wrote {path}{cut}")
        };
        if let Some(Output::Failed(e)) = self.write_output(said, Some(run)) {
            say!("hp2ps: {e}");
        }
        // One cut at --spool-max is not the live page's end: the live page went on.
        (!whole.capped).then(|| Arc::clone(&whole.live))
    }
}

/// The run and the version of it that the live page was last made from. A new run's
/// versions start again from 0, so the version alone would miss a new run that is first
/// seen at the number the last one ended at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LiveFrom {
    run: u64,
    version: u64,
}

impl Default for LiveFrom {
    /// Nothing yet: every run's first look is a move.
    fn default() -> LiveFrom {
        LiveFrom {
            run: 0,
            version: u64::MAX,
        }
    }
}

impl LiveFrom {
    /// Whether version `version` of run `run` is another than the last one seen (the
    /// page is then made again); it becomes the last one seen.
    fn moved_to(&mut self, run: u64, version: u64) -> bool {
        let now = LiveFrom { run, version };
        std::mem::replace(self, now) != now
    }
}

/// A lock, whatever a thread that panicked holding it left (the state is still whole:
/// every change under these locks is made in one step).
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::LiveFrom;

    /// A new run seen first at the very version the last run ended at is a move (the
    /// page is made again), as is a new version of the same run; the same version of the
    /// same run is not.
    #[test]
    fn a_new_run_at_the_last_runs_version_is_a_move() {
        let mut live_from = LiveFrom::default();
        assert!(live_from.moved_to(0, 0), "the first look");
        assert!(!live_from.moved_to(0, 0));
        assert!(live_from.moved_to(0, 7));
        assert!(!live_from.moved_to(0, 7));
        assert!(live_from.moved_to(1, 7), "run 1 at run 0's last version");
        assert!(!live_from.moved_to(1, 7));
        assert!(live_from.moved_to(1, 0));
        assert!(live_from.moved_to(2, 0));
    }
}
