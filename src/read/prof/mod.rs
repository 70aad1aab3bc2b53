//! The time profile's readers: GHC's `+RTS -p` report (`.prof` text, with `-P`'s and
//! `-pa`'s columns, in every layout from 2011 on), its `-pj` JSON, and an eventlog's time
//! samples; each gives a [`CallTree`] (the eventlog its [`Sampled`] samples too). Which
//! one reads an input is its content's to say ([`kind_of`]), not its name's.
//!
//! Files: the report's lines (`lines.rs`), its head (`facts.rs`), its tables' columns
//! and a row cut into them (`columns.rs`), the cost centres by their names' bytes
//! (`cc_table.rs`), the report (`report.rs`) and its tree's rows, cut on every core
//! (`rows.rs`); `-pj`'s tokens
//! (`json_tokens.rs`, tolerant of GHC 9.0.2's unescaped labels) and structure
//! (`json.rs`); the eventlog's samples (`eventlog.rs`, through the eventlog reader's own
//! model); how it is read (`options.rs`) and what went wrong (`error.rs`). See `docs/time-profile.md`.

mod cc_table;
mod columns;
mod error;
mod eventlog;
mod facts;
mod json;
mod json_tokens;
mod lines;
mod options;
mod report;
mod rows;

pub use error::{TimeProfileError, TimeProfileWarning};
pub(crate) use eventlog::sampled_of;
pub use options::TimeProfileOptions;

use crate::calltree::{CallTree, Sampled};
use crate::read::kind::is_eventlog;

/// Which kind of time profile an input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The text report (`+RTS -p`, `-P`, `-pa`).
    Report,
    /// `+RTS -pj`.
    Json,
    /// An eventlog (`+RTS -p -l`), whose time samples are the profile.
    Eventlog,
}

/// A time profile read, and what its reader tolerated.
#[derive(Debug, Clone)]
pub struct TimeProfile {
    pub(crate) tree: CallTree,
    /// An eventlog's samples in time order (their tree is `tree`).
    pub(crate) sampled: Option<Sampled>,
    pub(crate) kind: Kind,
    pub(crate) warnings: Vec<TimeProfileWarning>,
}

impl TimeProfile {
    /// What the reader tolerated, in the order found.
    pub fn warnings(&self) -> &[TimeProfileWarning] {
        &self.warnings
    }

    /// How many cost-centre stacks it has.
    pub fn stacks(&self) -> usize {
        self.tree.len()
    }

    /// Whether `head`, an input's first bytes, is a GHC time profile's report (`.prof`
    /// text) or its `-pj` JSON. (An eventlog, which may hold time samples too, is told
    /// by its magic.)
    pub fn sniff(head: &[u8]) -> bool {
        matches!(kind_of(head), Some(Kind::Report | Kind::Json))
    }
}

/// Which time profile these first bytes start (a few kilobytes are plenty): a report's
/// title (or a `-p -hr` run's `Retainer Profiling:` lines before it), `-pj` JSON's
/// opening keys, or an eventlog's magic; `None` for anything else.
pub(crate) fn kind_of(head: &[u8]) -> Option<Kind> {
    if is_eventlog(head) {
        return Some(Kind::Eventlog);
    }
    let text = head.trim_ascii_start();
    if text.starts_with(b"{") {
        let json_key = |k: &[u8]| memchr::memmem::find(text, k).is_some();
        return (json_key(b"\"program\"")
            || json_key(b"\"cost_centres\"")
            || json_key(b"\"total_ticks\""))
        .then_some(Kind::Json);
    }
    let first = text.split(|&c| c == b'\n').next().unwrap_or_default();
    let report = memchr::memmem::find(first, facts::TITLE.as_bytes()).is_some()
        || first.starts_with(b"Retainer Profiling:");
    report.then_some(Kind::Report)
}

/// Reads a time profile from `bytes`: the kind its content says, else (for the error
/// that says what is wrong) JSON when it starts with `{`, else a report. `release(n)` is
/// called now and then once the first `n` bytes are no longer needed.
pub(crate) fn read_time_profile_bytes(
    bytes: &[u8],
    opts: &TimeProfileOptions,
    release: &mut dyn FnMut(usize),
) -> Result<TimeProfile, TimeProfileError> {
    let head = &bytes[..bytes.len().min(4096)];
    let kind = kind_of(head).unwrap_or_else(|| match bytes.trim_ascii_start().first() {
        Some(b'{') => Kind::Json,
        _ => Kind::Report,
    });
    let (tree, sampled, warnings) = match kind {
        Kind::Report => {
            let (tree, warnings) = report::read_report(bytes, opts, release)?;
            (tree, None, warnings)
        }
        Kind::Json => {
            let (tree, warnings) = json::read_json(bytes, opts)?;
            (tree, None, warnings)
        }
        Kind::Eventlog => {
            let (sampled, warnings) = eventlog::read_samples(bytes, opts)?;
            (sampled.tree().clone(), Some(sampled), warnings)
        }
    };
    Ok(TimeProfile {
        tree,
        sampled,
        kind,
        warnings,
    })
}

#[cfg(test)]
mod tests;
