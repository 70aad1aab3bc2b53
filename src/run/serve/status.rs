//! What the live page says about the run besides its chart ([`Status`]), sent with
//! every update, and when its censuses were read ([`Arrivals`]): how old the newest is
//! and the usual gap between two, for the page to tell a quiet spell from the usual wait.

use std::time::Instant;

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
    /// Seconds since the newest census was read, when the update was made (the page
    /// adds its own clock's time since: no clock of two machines is compared).
    pub(super) since_newest: Option<f64>,
    /// The usual seconds between two censuses read (what the flushes give), for the
    /// page to tell a quiet spell from the usual wait.
    pub(super) gap: Option<f64>,
    /// Where the run is kept for `-o` and save, and its size, in words.
    pub(super) kept: String,
    /// The bytes of its spool file (0 when the run is a file's, which is its own
    /// record).
    pub(super) kept_bytes: u64,
    /// When the newest census was read, and the gaps between the last ones.
    #[serde(skip)]
    pub(super) clock: Arrivals,
}

/// When censuses were read, on this process's clock: the newest, and the usual gap.
#[derive(Debug, Clone, Default)]
pub(super) struct Arrivals {
    newest: Option<Instant>,
    /// The gaps between the last censuses read (at most [`Arrivals::KEPT`]).
    gaps: std::collections::VecDeque<f64>,
}

impl Arrivals {
    const KEPT: usize = 16;

    /// Censuses were read now.
    pub(super) fn census(&mut self) {
        let now = Instant::now();
        if let Some(last) = self.newest {
            if self.gaps.len() == Arrivals::KEPT {
                self.gaps.pop_front();
            }
            self.gaps.push_back(now.duration_since(last).as_secs_f64());
        }
        self.newest = Some(now);
    }

    /// A census read `secs` seconds ago (for tests of what is said of it later).
    #[cfg(test)]
    pub(super) fn read_ago(secs: f64) -> Arrivals {
        let at = Instant::now().checked_sub(std::time::Duration::from_secs_f64(secs));
        Arrivals {
            newest: Some(at.unwrap_or_else(Instant::now)),
            gaps: std::collections::VecDeque::new(),
        }
    }

    /// A new run: nothing read yet.
    pub(super) fn restart(&mut self) {
        *self = Arrivals::default();
    }

    /// Seconds since the newest census was read.
    pub(super) fn since(&self) -> Option<f64> {
        self.newest.map(|t| t.elapsed().as_secs_f64())
    }

    /// The median gap (a single late census does not move it).
    pub(super) fn usual(&self) -> Option<f64> {
        let mut gaps: Vec<f64> = self.gaps.iter().copied().collect();
        gaps.sort_by(f64::total_cmp);
        gaps.get(gaps.len() / 2).copied()
    }
}
