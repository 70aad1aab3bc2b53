//! What the threads of `--serve` share: the run as far as it has been read and what is
//! said about it (under one lock, which the input's thread holds while it reads a
//! piece), and the newest update of the page (under another), which every viewer's
//! thread sends on. The publisher makes an update whenever the run moved, at most one
//! per [`GAP`]: the page of the run so far (the run's lock is held only while the kept
//! samples are copied into a profile), and at the run's end the whole run's page, read
//! again the ordinary way from the record.
//!
//! A viewer always gets the newest update: one that reads slowly skips the updates it
//! missed (each is a whole state of the page), and nothing waits for it. An update is
//! formatted once and shared by every viewer.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

use hp2ps::{write_live, LiveOptions, LivePage, LiveRun};

use super::record::Record;
use super::whole::{self, Made, MadeFrom, Pages, Whole};

/// The least time between two updates: a fast input's censuses come together.
const GAP: Duration = Duration::from_millis(200);
/// An update takes at most half the time between updates (up to [`GAP_MOST`]): a run
/// whose page takes long to make (many bands, a long run, a loaded machine) gets fewer
/// updates, not a busy core; never so few that a census waits much longer.
const SHARE: u32 = 2;
const GAP_MOST: Duration = Duration::from_millis(500);

/// Where the run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum State {
    /// No census yet.
    Waiting,
    /// Censuses are coming.
    Live,
    /// The program ended (the eventlog's end).
    Ended,
    /// The input closed before the program's end.
    Closed,
}

/// What the page says about the run besides its chart.
#[derive(Debug, Clone, serde::Serialize)]
pub(super) struct Status {
    pub(super) state: State,
    /// In words: what is waited for, how the input ended.
    pub(super) message: String,
    /// The run's number (1, then 2 when the program started again).
    pub(super) run: u64,
    pub(super) censuses: u64,
    /// The newest census's time on the axis.
    pub(super) newest: Option<f64>,
    /// `elapsed` or `mutator`.
    pub(super) axis: &'static str,
    /// Censuses lost and the like, each with its number.
    pub(super) notices: Vec<(u64, String)>,
    /// The input's file name (as the page's heading has it: no directory, so that a
    /// screenshot or a shared screen shows no more of the machine than the page saved).
    pub(super) source: String,
}

/// The run and what is said about it.
pub(super) struct Shared {
    pub(super) run: LiveRun,
    pub(super) status: Status,
    /// Bumped by every change.
    pub(super) generation: u64,
}

/// One state of the page, as sent to viewers.
pub(super) struct Update {
    pub(super) seq: u64,
    /// The server-sent event, whole.
    pub(super) event: Vec<u8>,
    /// The newest page (the page a new viewer is given).
    pub(super) page: Option<Arc<LivePage>>,
}

pub(super) struct Hub {
    pub(super) opts: LiveOptions,
    pub(super) name: String,
    pub(super) shared: Mutex<Shared>,
    changed: Condvar,
    latest: Mutex<Arc<Update>>,
    fresh: Condvar,
    pub(super) record: RwLock<Record>,
    /// `-o`: where the whole run's page goes at its end.
    pub(super) output: Option<PathBuf>,
    /// The whole run's pages: whoever holds the lock makes one, or writes `-o`.
    pages: Mutex<Pages>,
    /// Whole run's pages begun so far.
    begun: AtomicU64,
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
        record: Record,
        output: Option<PathBuf>,
    ) -> Hub {
        let axis = match opts.load.eventlog.time {
            hp2ps::TimeAxis::Mutator => "mutator",
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
        };
        let run = LiveRun::new(&opts);
        Hub {
            opts,
            name,
            shared: Mutex::new(Shared {
                run,
                status,
                generation: 1,
            }),
            changed: Condvar::new(),
            latest: Mutex::new(Arc::new(Update {
                seq: 0,
                event: Vec::new(),
                page: None,
            })),
            fresh: Condvar::new(),
            record: RwLock::new(record),
            output,
            pages: Mutex::new(Pages::default()),
            begun: AtomicU64::new(0),
        }
    }

    /// When a request for the whole run's page came: the pages begun after it are
    /// begun later than this number ([`Hub::whole`]).
    pub(super) fn asked(&self) -> u64 {
        self.begun.load(Ordering::Acquire)
    }

    /// The whole run's page, made by a child, one at a time (a caller waits for the
    /// page being made): the last one made when the record has not changed since, or,
    /// for a request that came at [`Hub::asked`] `asked`, when it was begun after that
    /// (several saves at once wait for one child); else a new one.
    pub(super) fn whole(&self, asked: Option<u64>) -> Result<Arc<Whole>, String> {
        self.whole_in(&mut lock(&self.pages), asked).1
    }

    fn whole_in(
        &self,
        pages: &mut Pages,
        asked: Option<u64>,
    ) -> (MadeFrom, Result<Arc<Whole>, String>) {
        let record = self.record.read().unwrap_or_else(|e| e.into_inner());
        let from = MadeFrom {
            run: lock(&self.shared).status.run,
            kept: record.kept(),
        };
        let fresh = |last: &&Made| last.from == from || asked.is_some_and(|a| last.number > a);
        if let Some(last) = pages.last.as_ref().filter(fresh) {
            return (last.from, Ok(Arc::clone(&last.page)));
        }
        let number = self.begun.fetch_add(1, Ordering::AcqRel) + 1;
        let page = whole::make(&record).map(Arc::new);
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

    /// `-o` (`None`: not asked for) written with the whole run's page as the record
    /// stands, unless it already was: at the run's end, and on Ctrl-C, which waits here
    /// for the end's page if it is being made. `written` says so, still under the lock:
    /// Ctrl-C, which ends the process, then waits for the end's word too.
    pub(super) fn write_output(&self, written: impl FnOnce(&Path)) -> Option<Output> {
        let path = self.output.as_ref()?;
        let mut pages = lock(&self.pages);
        let (from, whole) = self.whole_in(&mut pages, None);
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
        match super::write_page(path, &whole.page) {
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
        Arc::clone(&lock(&self.latest))
    }

    /// The first update newer than `seq`, waiting at most `wait` for one.
    pub(super) fn newer(&self, seq: u64, wait: Duration) -> Option<Arc<Update>> {
        let latest = lock(&self.latest);
        let (latest, _) = self
            .fresh
            .wait_timeout_while(latest, wait, |u| u.seq <= seq)
            .unwrap_or_else(|e| e.into_inner());
        (latest.seq > seq).then(|| Arc::clone(&latest))
    }

    /// The page as a new viewer gets it (the newest page, or one that waits).
    pub(super) fn page_html(&self) -> Vec<u8> {
        let latest = self.latest();
        let mut html = Vec::new();
        // Written into memory: it cannot fail.
        let _ = write_live(latest.page.as_deref(), &self.name, &mut html);
        html
    }

    /// Makes updates as the run moves, for ever.
    pub(super) fn publish(&self) {
        let mut seen = 0;
        let mut last = Instant::now() - GAP;
        let mut gap = GAP;
        let mut version = u64::MAX;
        let mut final_of: Option<u64> = None;
        let mut page: Option<Arc<LivePage>> = None;
        let mut told = 0;
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
            let (status, profile) = {
                let mut guard = lock(&self.shared);
                let shared = &mut *guard;
                seen = shared.generation;
                let run = &shared.run;
                let (censuses, newest, notices) =
                    (run.censuses(), run.newest(), run.notices().to_vec());
                shared.status.censuses = censuses;
                shared.status.newest = newest;
                shared.status.notices = notices;
                let moved = run.version() != version;
                version = run.version();
                let profile = match moved {
                    true => Some(run.profile(&self.opts)),
                    false => None,
                };
                (shared.status.clone(), profile)
            };
            for (n, notice) in &status.notices {
                if *n > told {
                    say!("hp2ps: warning: {}: {notice}", self.name);
                    told = *n;
                }
            }
            let finished = matches!(status.state, State::Ended | State::Closed);
            let new_page = if finished && final_of != Some(status.run) {
                final_of = Some(status.run);
                self.whole_run_page(&status)
            } else {
                match profile {
                    Some(Ok(Some(p))) => match p.page(&self.opts) {
                        Ok(p) => Some(Arc::new(p)),
                        Err(e) => {
                            say!("hp2ps: {}: {e}", self.name);
                            None
                        }
                    },
                    Some(Err(e)) => {
                        say!("hp2ps: {}: {e}", self.name);
                        None
                    }
                    _ => None,
                }
            };
            let fresh_page = new_page.is_some();
            if let Some(p) = new_page {
                page = Some(p);
            }
            self.send(&status, page.clone(), fresh_page);
            gap = (last.elapsed() * SHARE).clamp(GAP, GAP_MOST);
        }
    }

    /// Sends a new update to every viewer.
    fn send(&self, status: &Status, page: Option<Arc<LivePage>>, fresh_page: bool) {
        let mut latest = lock(&self.latest);
        let seq = latest.seq + 1;
        let shown = page.as_deref().filter(|_| fresh_page);
        // The run's section (its picture, a megabyte on a large run) only with the first
        // page: a viewer given a page since has it, and one that missed it reloads.
        let first = latest.page.is_none();
        let event = event(seq, status, shown, first);
        *latest = Arc::new(Update { seq, event, page });
        self.fresh.notify_all();
    }

    /// The whole run read again the ordinary way: its page, written to `-o` too.
    fn whole_run_page(&self, status: &Status) -> Option<Arc<LivePage>> {
        let whole = match self.whole(None) {
            Ok(whole) => whole,
            Err(e) => {
                say!(
                    "hp2ps: {}: the whole run cannot be read again: {e}",
                    self.name
                );
                return None;
            }
        };
        let said = |path: &Path| {
            say!(
                "hp2ps: {}: the run's end ({} censuses): wrote {}",
                self.name,
                status.censuses,
                path.display()
            )
        };
        if let Some(Output::Failed(e)) = self.write_output(said) {
            say!("hp2ps: {e}");
        }
        Some(Arc::clone(&whole.live))
    }
}

/// The server-sent event of an update: `event: update`, its number, and one line of
/// JSON: the status, and the page when it changed (its title and data, and its run's
/// section if `with_section`).
fn event(seq: u64, status: &Status, page: Option<&LivePage>, with_section: bool) -> Vec<u8> {
    let status = serde_json::to_string(status).unwrap_or_else(|_| String::from("null"));
    let mut json = format!("{{\"seq\":{seq},\"status\":{status}");
    if let Some(p) = page {
        let text = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""));
        json.push_str(&format!(",\"title\":{}", text(&p.title)));
        if with_section {
            json.push_str(&format!(",\"section\":{}", text(&p.section)));
        }
        json.push_str(&format!(",\"page\":{}", p.data));
    }
    json.push('}');
    format!("event: update\nid: {seq}\ndata: {json}\n\n").into_bytes()
}

/// A lock, whatever a thread that panicked holding it left (the state is still whole:
/// every change under these locks is made in one step).
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
