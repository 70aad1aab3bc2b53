//! What a render reports: [`Done`] when it succeeded (its warnings, notes, summary, the
//! file written, and what a profile read in parts carries to its drawing), [`Failure`]
//! when not.

use std::path::PathBuf;

use crate::aggregate::PageFacts;
use crate::profile::spill::SpillHandle;
use crate::profile::ProfileFacts;
use crate::summary::{Summary, TimeSummary};

use super::two_pass::PageReading;

/// What a successful render has to report.
#[derive(Debug, Default)]
pub struct Done {
    /// The reader's warnings (the incomplete last sample of a live profile, a cut
    /// eventlog, …), each a whole line.
    pub warnings: Vec<String>,
    /// What else a user should know, each a whole line: which program's symbols named
    /// the bands, when the log chose it.
    pub notes: Vec<String>,
    pub summary: Option<Summary>,
    /// A time profile's summary (its input is one).
    pub time_summary: Option<TimeSummary>,
    /// A time profile's number of stacks (its input is one).
    pub stacks: Option<usize>,
    /// An eventlog's time samples (`+RTS -p -l`), for the page's time profile.
    pub sampled: Option<crate::calltree::Sampled>,
    /// The chart file written, if any (not for stdout).
    pub output: Option<PathBuf>,
    /// The number of samples drawn.
    pub samples: usize,
    /// What an eventlog told of how the profile was made, for the page's header.
    pub facts: ProfileFacts,
    /// Every band's total, when the profile was read twice and holds only the drawn
    /// bands' points (`two_pass.rs`): aggregation needs them.
    pub totals: Option<Vec<i64>>,
    /// The file the drawn bands' points are in, when the second of those readings put
    /// them there (`-c` as PostScript: `crate::profile::spill`).
    pub(crate) spill: Option<SpillHandle>,
    /// When a page's profile was read in parts (`two_pass/page.rs`): every band's
    /// numbers and heights, and the last reading, of the bands it does not draw.
    pub(super) page: Option<(PageFacts, PageReading)>,
}

impl Done {
    /// The warnings, then the notes.
    pub fn warning_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.warnings.iter().chain(&self.notes).cloned()
    }

    /// The render done once its output is `drawn` (the file written, if any), or its
    /// failure with the warnings said before it.
    pub(super) fn drawn(mut self, drawn: Result<Option<PathBuf>, String>) -> Result<Done, Failure> {
        match drawn {
            Ok(output) => {
                self.output = output;
                Ok(self)
            }
            Err(message) => Err(Failure {
                warnings: self.warning_lines().collect(),
                ..Failure::from(message)
            }),
        }
    }
}

/// A failed render: the one-line message, and the warnings printed before it.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub warnings: Vec<String>,
    /// The input is an eventlog with no heap profile but a time profile's events (a
    /// `+RTS -p -l` run): it may be drawn as that time profile instead.
    pub time_profile_only: bool,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            message,
            warnings: Vec::new(),
            time_profile_only: false,
        }
    }
}
