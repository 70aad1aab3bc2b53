//! The live stage (`--serve`): a run followed as the program writes it. Bytes are
//! pushed in as they arrive ([`LiveReader`]) into the reader of their kind (an eventlog
//! or a `.hp`, as their first bytes say: `read::kind`), the same reader as a whole
//! reading's, which stops at the end of the bytes it has and goes on when more come
//! (`read::eventlog::followed`, `read::hp::serial::Followed`). It tells each complete
//! census at once, through the seam, to the run kept so far ([`LiveRun`]: `store.rs`),
//! which holds levels of detail kept up to date census by census (aggregation's
//! `pyramid.rs`), within a memory that does not grow with the run; their times are
//! placed with the reading's one clock (`read::eventlog::timeaxis::Clock`). A page of
//! the run so far ([`LiveProfile::made`], with the run's metrics) is the ordinary page's: the kept samples
//! loaded with the steps after reading, prepared and made by the page builder as
//! `--format html`'s, with the number of censuses read. The whole run, read again the
//! ordinary way, is the caller's (the command spools what it reads): see `docs/live.md`.
//!
//! Nothing here reads a clock, a file or a socket: the command's edge does
//! (`src/run/serve/`).

mod metrics;
mod store;

use crate::load::{load_samples, LoadError, LoadOptions, Loaded};
use crate::paint::html::{Page, RunPage};
use crate::paint::PaintOptions;
use crate::pipeline::{prepare, RenderOptions};
use crate::profile::{Profile, ProfileFacts};
use crate::read::eventlog::events::LINES;
use crate::read::eventlog::followed::Followed;
use crate::read::eventlog::timeaxis::Clock;
use crate::read::eventlog::{EventlogError, EventlogReport, TimeAxis};
use crate::read::hp::serial::Followed as FollowedHp;
use crate::read::kind::InputKind;
use crate::seam::{HeaderField, SampleBlock};
pub(crate) use metrics::Metrics;
use store::Store;

/// How a run is followed and drawn.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LiveOptions {
    /// How the input becomes a profile, as [`crate::load()`] reads it (the eventlog's
    /// time axis: elapsed seconds unless asked otherwise). Default:
    /// [`LoadOptions::default`] with [`TimeAxis::Elapsed`].
    pub load: LoadOptions,
    /// Aggregation and layout, with the HTML page's needs. Default:
    /// [`RenderOptions::default`] with `Format::Html.needs()`.
    pub render: RenderOptions,
    /// The page's painting (the name of the profile in its heading). Default:
    /// [`PaintOptions::default`].
    pub paint: PaintOptions,
    /// Censuses kept per level of detail: the newest this many censuses are kept
    /// whole, the next twice as many at half their number, and so on. Default: `1024`.
    pub detail: usize,
}

impl Default for LiveOptions {
    fn default() -> Self {
        let mut load = LoadOptions::default();
        load.eventlog.time = TimeAxis::Elapsed;
        let render = RenderOptions {
            needs: crate::paint::Format::Html.needs(),
            ..RenderOptions::default()
        };
        LiveOptions {
            load,
            render,
            paint: PaintOptions::default(),
            detail: 1024,
        }
    }
}

/// Why a followed input cannot be read on, or its page not made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// The eventlog's header is not one.
    #[error(transparent)]
    Eventlog(#[from] EventlogError),
    /// The run so far gives no profile (a time window that holds none of it).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The page could not be written.
    #[error("writing the page: {0}")]
    Io(#[from] std::io::Error),
}

/// The reader of a followed input, of the kind its first bytes say.
enum Kind<'o> {
    Eventlog(Box<Followed<'o>>),
    Hp(FollowedHp<'o>),
}

/// Reads a run's bytes as they arrive (on the thread that reads them).
pub struct LiveReader<'o> {
    opts: &'o LiveOptions,
    /// The first bytes, until there are enough to tell the kind.
    head: Vec<u8>,
    kind: Option<Kind<'o>>,
}

impl<'o> LiveReader<'o> {
    /// A reader at the start of an input.
    pub fn new(opts: &'o LiveOptions) -> Self {
        LiveReader {
            opts,
            head: Vec::new(),
            kind: None,
        }
    }

    /// Reads `bytes`, the next of the input, into `run`.
    pub fn feed(&mut self, bytes: &[u8], run: &mut LiveRun) -> Result<(), LiveError> {
        if self.kind.is_none() {
            self.head.extend_from_slice(bytes);
            if self.head.len() < InputKind::HEAD {
                return Ok(());
            }
            let head = std::mem::take(&mut self.head);
            self.start(&head, run);
            return self.feed_kind(&head, run);
        }
        self.feed_kind(bytes, run)
    }

    fn start(&mut self, head: &[u8], run: &mut LiveRun) {
        let kind = InputKind::of(head);
        run.eventlog = kind == InputKind::Eventlog;
        self.kind = Some(match kind {
            InputKind::Eventlog => {
                let keep_time = self.opts.load.eventlog.time == TimeAxis::Mutator;
                let reader = Followed::new(&self.opts.load.eventlog, keep_time);
                Kind::Eventlog(Box::new(reader))
            }
            InputKind::Hp => Kind::Hp(FollowedHp::new(&self.opts.load.hp)),
        });
    }

    fn feed_kind(&mut self, bytes: &[u8], run: &mut LiveRun) -> Result<(), LiveError> {
        match &mut self.kind {
            Some(Kind::Eventlog(r)) => {
                r.feed(bytes, &mut run.store)?;
                run.learn(r);
            }
            Some(Kind::Hp(r)) => r.feed(bytes, &mut run.store),
            None => {}
        }
        Ok(())
    }

    /// The input paused: reads what would be read were it to end here.
    pub fn pause(&mut self, run: &mut LiveRun) -> Result<(), LiveError> {
        if let Some(Kind::Eventlog(r)) = &mut self.kind {
            r.pause(&mut run.store)?;
            run.learn(r);
        }
        Ok(())
    }

    /// The input closed.
    pub fn close(&mut self, run: &mut LiveRun) -> Result<(), LiveError> {
        if self.kind.is_none() && !self.head.is_empty() {
            let head = std::mem::take(&mut self.head);
            self.start(&head, run);
            self.feed_kind(&head, run)?;
        }
        if let Some(Kind::Eventlog(r)) = &mut self.kind {
            r.close(&mut run.store)?;
            run.learn(r);
        }
        Ok(())
    }

    /// Whether the program's end has been read (an eventlog's end marker).
    pub fn ended(&self) -> bool {
        matches!(&self.kind, Some(Kind::Eventlog(r)) if r.ended())
    }

    /// Works out the mutator clock of what was read so far, for `--time mutator`
    /// (a rebuilding of the whole run's time data so far: the caller asks now and then).
    pub fn refresh_clock(&self, run: &mut LiveRun) {
        if let Some(Kind::Eventlog(r)) = &self.kind {
            if self.opts.load.eventlog.time == TimeAxis::Mutator {
                run.clock = r.clock();
                run.store.version += 1;
            }
        }
    }
}

/// A run as far as it has been read: what its page is made from.
pub struct LiveRun {
    store: Store,
    eventlog: bool,
    /// What an eventlog said besides its censuses: the profile kind, the IPE entries.
    report: EventlogReport,
    /// Where the censuses are placed on the page's axis.
    clock: Clock,
}

impl std::fmt::Debug for LiveRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveRun")
            .field("censuses", &self.store.censuses())
            .field("eventlog", &self.eventlog)
            .finish_non_exhaustive()
    }
}

impl LiveRun {
    /// A run of which nothing was read yet.
    pub fn new(opts: &LiveOptions) -> LiveRun {
        LiveRun {
            store: Store::new(opts.detail),
            eventlog: false,
            report: EventlogReport::default(),
            clock: Clock::Elapsed,
        }
    }

    /// Changes with everything read: the page is made again when it moved.
    pub fn version(&self) -> u64 {
        self.store.version
    }

    /// The censuses read.
    pub fn censuses(&self) -> u64 {
        self.store.censuses()
    }

    /// The newest census's time on the page's axis.
    pub fn newest(&self) -> Option<f64> {
        let t = self.store.newest?;
        Some(self.map_time(t))
    }

    /// What the page says besides the chart (censuses that damage cost), newest last,
    /// each with its number from 1.
    pub fn notices(&self) -> &[(u64, String)] {
        &self.store.notices
    }

    fn learn(&mut self, reader: &Followed<'_>) {
        reader.report(&mut self.report);
    }

    fn map_time(&self, t: f64) -> f64 {
        self.clock.at_elapsed(t)
    }

    /// The samples kept, to become the profile of the run so far; `None` before the
    /// first census. Only copying what the page needs is done here, while the caller
    /// holds the run: the naming, heap-size lines, filtering ([`LiveProfile::made`]) and
    /// painting are done on the copy without it. (Its errors are the page's.)
    pub fn profile(&self) -> Result<Option<LiveProfile>, LiveError> {
        if self.store.censuses() == 0 {
            return Ok(None);
        }
        Ok(Some(self.snapshot()))
    }

    /// The samples kept, as a reader hands them over, with what an eventlog's reader
    /// learnt (the heap-size lines too: the metrics say them, drawn or not).
    fn snapshot(&self) -> LiveProfile {
        let clock = |t: f64| self.map_time(t);
        let block = self.store.sample_block(self.eventlog, &clock);
        let report = self.eventlog.then(|| {
            let mut report = self.report.clone();
            report.lines = (0..LINES.len())
                .map(|line| self.store.line(line, &clock))
                .collect();
            report.time_axis = match self.clock {
                Clock::Mutator(_) => TimeAxis::Mutator,
                Clock::Elapsed => TimeAxis::Elapsed,
            };
            report.censuses = self.store.censuses() as usize;
            report.bands = self.store.names.len();
            report
        });
        LiveProfile {
            header: self.store.header.clone(),
            block,
            report,
            // The run's samples, not those kept (an eventlog's first is the empty one).
            samples: self.store.censuses() as usize + usize::from(self.eventlog),
        }
    }
}

/// The samples of a run kept so far ([`LiveRun::profile`]), to be made its page.
#[derive(Debug)]
pub struct LiveProfile {
    header: Vec<(HeaderField, Vec<u8>)>,
    block: SampleBlock,
    report: Option<EventlogReport>,
    samples: usize,
}

impl LiveProfile {
    /// The samples loaded as a profile of them would be with `load`: named, with their
    /// heap-size lines, filtered.
    fn loaded(self, load: &LoadOptions) -> Result<Loaded, LoadError> {
        load_samples(&self.header, self.block, self.report, load)
    }

    /// The page of the run so far: the kept samples loaded, prepared and painted as
    /// `--format html` draws a profile, saying how many samples the run has and what the
    /// page left out. (The server makes it with the metrics: [`LiveProfile::made`].)
    #[cfg(test)]
    pub(crate) fn page(self, opts: &LiveOptions) -> Result<Page, LiveError> {
        let samples = self.samples;
        let loaded = self.loaded(&opts.load)?;
        let facts = loaded.facts();
        page_of(loaded.profile, samples, &facts, opts)
    }
}

/// The page of `profile`, the samples kept of a run of `samples`.
fn page_of(
    profile: Profile,
    samples: usize,
    facts: &ProfileFacts,
    opts: &LiveOptions,
) -> Result<Page, LiveError> {
    let (mut chart, _) = prepare(profile, None, &opts.render);
    if let Some(data) = chart.data.as_mut() {
        data.samples = samples;
    }
    let run = RunPage::heap(&chart, opts.paint.source.as_deref(), facts, 1)?;
    Ok(Page::of(&[run]))
}

#[cfg(test)]
mod tests;
