//! What a run of [`Cmd`](super::run::Cmd) gives back: how it ended ([`Exit`]: its exit
//! code or signal, or our timeout or output cap) and what it printed, with its peak
//! memory and wall time ([`Ran`]), and their descriptions for assertion messages. Apart
//! from `run.rs`, which starts and supervises the child, because this is its result,
//! which every test reads.

use std::process::{ExitStatus, Output};
use std::time::Duration;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    /// Killed by us after the timeout.
    TimedOut,
    /// Killed by us because a captured stream exceeded its cap.
    OutputLimit,
}

impl Exit {
    pub fn describe(&self) -> String {
        match self {
            Exit::Code(c) => format!("exit {c}"),
            Exit::Signal(s) => format!("killed by signal {s}"),
            Exit::TimedOut => "timed out".to_string(),
            Exit::OutputLimit => "output limit exceeded".to_string(),
        }
    }
}

/// How a run ended, with what it printed, its peak memory and its wall time.
#[derive(Debug)]
pub struct Ran {
    pub program: String,
    pub status: ExitStatus,
    /// The exit status, `None` when a signal ended it.
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// Killed by us after the timeout.
    pub timed_out: bool,
    /// Killed by us because a captured stream exceeded its cap
    /// ([`Overflow::Kill`](super::run::Overflow::Kill)).
    pub output_limit: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Peak resident set size of the child, in KiB.
    pub max_rss_kib: i64,
    pub elapsed: Duration,
}

impl Ran {
    pub fn exit(&self) -> Exit {
        if self.timed_out {
            Exit::TimedOut
        } else if self.output_limit {
            Exit::OutputLimit
        } else {
            match (self.code, self.signal) {
                (Some(c), _) => Exit::Code(c),
                (None, Some(s)) => Exit::Signal(s),
                (None, None) => Exit::Signal(-1),
            }
        }
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// A one-line summary for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "code {:?} signal {:?} timed out {} rss {} KiB, stderr: {}",
            self.code,
            self.signal,
            self.timed_out,
            self.max_rss_kib,
            self.stderr_text().trim_end()
        )
    }

    /// The `std::process::Output` of the run; panics if we had to kill it.
    pub fn into_output(self) -> Output {
        assert!(
            !self.timed_out && !self.output_limit,
            "{}: {} ({:?}); stderr: {}",
            self.program,
            self.exit().describe(),
            self.elapsed,
            self.stderr_text()
        );
        Output {
            status: self.status,
            stdout: self.stdout,
            stderr: self.stderr,
        }
    }
}
