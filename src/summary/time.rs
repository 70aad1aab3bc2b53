//! `--summary` of a time profile ([`TimeSummary`]): the run's facts and its costliest cost
//! centres by their own time; and of two ([`TimeComparison`]): each cost centre's change
//! in time, allocation and entries, matched by name, module and source location (the
//! model's [`TreeDiff`]). JSON (one line each) and text, as for a heap profile. The JSON
//! fields are documented in `docs/time-profile.md`; the structs are read through it.

use std::cmp::Ordering;
use std::io::{self, Write};

use serde::Serialize;

use super::SummaryOptions;
use crate::calltree::{CallTree, CcChange, FlatRow, Side, TreeDiff};
use crate::load::{TimeProfile, TimeProfileKind as Kind};

/// The summary of a time profile (`hp2ps --summary prog.prof`), written with
/// [`TimeSummary::write_json`] or [`TimeSummary::write_text`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeSummary {
    pub(crate) file: Option<String>,
    /// Always `"time"`: a heap profile's summary has no `kind`.
    pub(crate) kind: &'static str,
    /// `"report"` (`.prof` text), `"json"` (`-pj`) or `"eventlog"`.
    pub(crate) format: &'static str,
    #[serde(flatten)]
    pub(crate) run: Run,
    pub(crate) cost_centres: usize,
    pub(crate) stacks: usize,
    pub(crate) top: Vec<CostCentreSummary>,
}

/// What a profile says of its run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Run {
    pub(crate) program: Option<String>,
    pub(crate) command_line: Option<String>,
    pub(crate) date: Option<String>,
    pub(crate) total_time: Option<f64>,
    pub(crate) total_ticks: Option<u64>,
    pub(crate) tick_interval: Option<f64>,
    pub(crate) processors: Option<u32>,
    pub(crate) total_alloc: Option<u64>,
}

/// One cost centre's numbers, summed over its stacks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CostCentreSummary {
    pub(crate) name: String,
    pub(crate) module: String,
    pub(crate) src: String,
    pub(crate) time_pct: f64,
    pub(crate) alloc_pct: f64,
    pub(crate) entries: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ticks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bytes: Option<u64>,
    pub(crate) stacks: usize,
}

fn format_of(kind: Kind) -> &'static str {
    match kind {
        Kind::Report => "report",
        Kind::Json => "json",
        Kind::Eventlog => "eventlog",
    }
}

fn run_of(t: &CallTree) -> Run {
    let h = t.header();
    Run {
        program: h.program.clone(),
        command_line: h.command_line.clone(),
        date: h.date.clone(),
        total_time: h.total_time,
        total_ticks: h.total_ticks,
        tick_interval: h.tick_interval,
        processors: h.processors,
        total_alloc: h.total_alloc,
    }
}

/// Biggest first: by ticks when both have them, else by share of the time; then by
/// allocation, then by name, module and location (so the order is the same every run).
fn costlier(a: &CostCentreSummary, b: &CostCentreSummary) -> Ordering {
    let by_time = match (a.ticks, b.ticks) {
        (Some(x), Some(y)) => y.cmp(&x),
        _ => b.time_pct.total_cmp(&a.time_pct),
    };
    by_time
        .then(b.alloc_pct.total_cmp(&a.alloc_pct))
        .then_with(|| (&a.name, &a.module, &a.src).cmp(&(&b.name, &b.module, &b.src)))
}

fn cost_centre(t: &CallTree, row: &FlatRow) -> CostCentreSummary {
    let c = t.cost_centre(row.cc);
    let h = t.header();
    CostCentreSummary {
        name: c.label.to_string(),
        module: c.module.to_string(),
        src: c.src.to_string(),
        time_pct: row.time_share(h),
        alloc_pct: row.alloc_share(h),
        entries: t.columns().entries.then_some(row.entries),
        ticks: row.ticks,
        bytes: row.bytes,
        stacks: row.stacks,
    }
}

impl TimeSummary {
    /// The summary of `profile`; `file` is the input's name (`None` for stdin).
    pub fn of(profile: &TimeProfile, file: Option<&str>, opts: &SummaryOptions) -> TimeSummary {
        let t = &profile.tree;
        let flat = t.flat_table();
        let mut top: Vec<CostCentreSummary> = (flat.iter())
            .filter(|r| r.stacks > 0)
            .map(|r| cost_centre(t, r))
            .collect();
        top.sort_by(costlier);
        top.truncate(opts.top);
        TimeSummary {
            file: file.map(str::to_string),
            kind: "time",
            format: format_of(profile.kind),
            run: run_of(t),
            cost_centres: flat.iter().filter(|r| r.stacks > 0).count(),
            stacks: t.len(),
            top,
        }
    }

    /// Writes the summary as one line of JSON (no newline).
    pub fn write_json<W: Write>(&self, out: &mut W) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::from)
    }
}

/// Two time profiles compared (`hp2ps --summary before.prof after.prof`), written with
/// [`TimeComparison::write_json`] or [`TimeComparison::write_text`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeComparison {
    /// Always `"time-comparison"`.
    pub(crate) kind: &'static str,
    pub(crate) before: Compared,
    pub(crate) after: Compared,
    /// Cost centres in either run.
    pub(crate) cost_centres: usize,
    pub(crate) changes: Vec<ChangeSummary>,
}

/// One run of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Compared {
    pub(crate) file: Option<String>,
    pub(crate) format: &'static str,
    #[serde(flatten)]
    pub(crate) run: Run,
    pub(crate) cost_centres: usize,
}

/// One cost centre's change. A side's numbers are `null` when that run has none of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ChangeSummary {
    pub(crate) name: String,
    pub(crate) module: String,
    pub(crate) src: String,
    /// `"both"`, `"before"` (gone) or `"after"` (new).
    pub(crate) runs: &'static str,
    pub(crate) time_pct_before: Option<f64>,
    pub(crate) time_pct_after: Option<f64>,
    pub(crate) time_pct_change: f64,
    pub(crate) alloc_pct_before: Option<f64>,
    pub(crate) alloc_pct_after: Option<f64>,
    pub(crate) alloc_pct_change: f64,
    pub(crate) entries_before: Option<u64>,
    pub(crate) entries_after: Option<u64>,
    pub(crate) entries_change: i128,
    /// Seconds (ticks × the tick interval, else the share of the total time), when
    /// both runs say.
    pub(crate) seconds_change: Option<f64>,
    /// Bytes allocated (the `bytes` column, else the share of the total allocation),
    /// when both runs say.
    pub(crate) bytes_change: Option<f64>,
}

fn change_of(d: &TreeDiff, c: &CcChange) -> ChangeSummary {
    let cc = d.before.cost_centre(c.cc);
    let side = |s: Option<Side>, f: fn(&Side) -> f64| s.as_ref().map(f);
    ChangeSummary {
        name: cc.label.to_string(),
        module: cc.module.to_string(),
        src: cc.src.to_string(),
        runs: match (c.before.is_some(), c.after.is_some()) {
            (true, true) => "both",
            (true, false) => "before",
            _ => "after",
        },
        time_pct_before: side(c.before, |s| s.time),
        time_pct_after: side(c.after, |s| s.time),
        time_pct_change: c.time_change(),
        alloc_pct_before: side(c.before, |s| s.alloc),
        alloc_pct_after: side(c.after, |s| s.alloc),
        alloc_pct_change: c.alloc_change(),
        entries_before: c.before.map(|s| s.entries),
        entries_after: c.after.map(|s| s.entries),
        entries_change: c.entries_change(),
        seconds_change: c.seconds_change(),
        bytes_change: c.bytes_change(),
    }
}

/// Biggest change first: of time, then of allocation; then by name, module, location.
fn bigger_change(a: &ChangeSummary, b: &ChangeSummary) -> Ordering {
    (b.time_pct_change.abs().total_cmp(&a.time_pct_change.abs()))
        .then(
            b.alloc_pct_change
                .abs()
                .total_cmp(&a.alloc_pct_change.abs()),
        )
        .then_with(|| b.entries_change.abs().cmp(&a.entries_change.abs()))
        .then_with(|| (&a.name, &a.module, &a.src).cmp(&(&b.name, &b.module, &b.src)))
}

impl TimeComparison {
    /// Compares `before` with `after` (`files`: their names, `None` for stdin); lists
    /// the `opts.top` cost centres whose share of the time changed most.
    pub fn of(
        before: &TimeProfile,
        after: &TimeProfile,
        files: [Option<&str>; 2],
        opts: &SummaryOptions,
    ) -> TimeComparison {
        let d = TreeDiff::of(&before.tree, &after.tree);
        let mut changes: Vec<ChangeSummary> = d.changes.iter().map(|c| change_of(&d, c)).collect();
        let cost_centres = changes.len();
        changes.sort_by(bigger_change);
        changes.truncate(opts.top);
        let compared = |p: &TimeProfile, file: Option<&str>| Compared {
            file: file.map(str::to_string),
            format: format_of(p.kind),
            run: run_of(&p.tree),
            cost_centres: p.tree.flat_table().iter().filter(|r| r.stacks > 0).count(),
        };
        TimeComparison {
            kind: "time-comparison",
            before: compared(before, files[0]),
            after: compared(after, files[1]),
            cost_centres,
            changes,
        }
    }

    /// Writes the comparison as one line of JSON (no newline).
    pub fn write_json<W: Write>(&self, out: &mut W) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::from)
    }
}
