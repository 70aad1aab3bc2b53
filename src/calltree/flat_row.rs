//! A row of the flat table: one cost centre's numbers over all its stacks. In a file of
//! its own: the tree keeps the report's own table as rows of it.

use super::header::Header;
use super::ids::CcId;

/// One cost centre's numbers over all its stacks (or, in [`CallTree::listed`](super::CallTree::listed), as the
/// report's own table lists them: no entries, no inherited numbers, no stacks).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FlatRow {
    /// The cost centre.
    pub cc: CcId,
    /// How many stacks (nodes) it is the top of.
    pub stacks: usize,
    /// Their entries.
    pub entries: u64,
    /// Their individual shares of time and allocation, in percent.
    pub time: f64,
    /// See `time`.
    pub alloc: f64,
    /// The inherited shares of its outermost stacks, in percent.
    pub inherited_time: f64,
    /// See `inherited_time`.
    pub inherited_alloc: f64,
    /// Their ticks and bytes, when the file counts them.
    pub ticks: Option<u64>,
    /// See `ticks`.
    pub bytes: Option<u64>,
    /// The ticks and bytes of its outermost stacks' subtrees.
    pub inherited_ticks: Option<u64>,
    /// See `inherited_ticks`.
    pub inherited_bytes: Option<u64>,
}

impl FlatRow {
    /// An empty row of `cc`, with counts when `counts` says the file has them.
    pub(crate) fn empty(cc: CcId, ticks: bool, bytes: bool) -> FlatRow {
        FlatRow {
            cc,
            stacks: 0,
            entries: 0,
            time: 0.0,
            alloc: 0.0,
            inherited_time: 0.0,
            inherited_alloc: 0.0,
            ticks: ticks.then_some(0),
            bytes: bytes.then_some(0),
            inherited_ticks: ticks.then_some(0),
            inherited_bytes: bytes.then_some(0),
        }
    }
}

impl FlatRow {
    /// Its share of the run's time, in percent: its ticks over the header's total when
    /// the file counts them (exact), else its stacks' shares summed (rounded to the
    /// file's tenth of a percent, which the sum of rounded shares is no finer than).
    pub fn time_share(&self, header: &Header) -> f64 {
        share(self.ticks, header.total_ticks, self.time)
    }

    /// Its share of the run's allocation, in percent (as [`Self::time_share`]: from its
    /// bytes when the file counts them).
    pub fn alloc_share(&self, header: &Header) -> f64 {
        share(self.bytes, header.total_alloc, self.alloc)
    }
}

fn share(count: Option<u64>, total: Option<u64>, summed: f64) -> f64 {
    match (count, total) {
        (Some(c), Some(t)) if t > 0 => 100.0 * c as f64 / t as f64,
        (Some(_), Some(_)) => 0.0,
        _ => (summed * 10.0).round() / 10.0,
    }
}
